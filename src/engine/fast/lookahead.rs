//! What spares a look ahead: the part of a per-lap direction's condition that a lap cannot change
//! (`lap_gate`), the end rules that say the mover can move (`end_rules_say_mover_can_move`); and the test
//! hook that checks the look-ahead shortcuts against the long way (`lookahead_disagreement`).

use crate::engine::{Engine, Stage, State};
use crate::ir::*;

/// The part of a per-lap direction's condition (`Sow::lap_dir`) that a lap cannot change: its conjuncts
/// about the lap's origin and the mover alone (`origin in REGION(mover)`), which stay as they are whichever
/// way the lap is sown. Where it is false, the lap need not be tried the other way.
pub(crate) fn lap_gate(c: &Cond, sources: &[Cond]) -> Option<Cond> {
    let c = match c {
        Cond::Compiled(i) => sources.get(*i as usize)?,
        c => c,
    };
    let fixed =
        |c: &Cond| matches!(c, Cond::InSet(PlaceExpr::Origin, Set::RegionOf(_, PlayerExpr::Mover) | Set::Region(_)));
    let parts: Vec<Cond> = match c {
        Cond::And(cs) => cs.iter().filter(|c| fixed(c)).cloned().collect(),
        c if fixed(c) => vec![c.clone()],
        _ => Vec::new(),
    };
    (!parts.is_empty()).then_some(Cond::And(parts))
}

/// Whether the end rules of a phase, once they have let a turn begin, say that the mover can move: a
/// `when stuck` or an `eliminate when cannot move` has just looked (the latter takes out every mover who
/// cannot start an action until one can, and a pass of the rules with an elimination is looked at again
/// from the first), or (in a phase whose starts are the mover's non-empty pits, `plain`)
/// `any players(count(pits(player)) = 0)` or `count(pits(mover)) = 0` has found a piece in the mover's pits.
/// Then `has_any_move` need not look again.
pub(crate) fn end_rules_say_mover_can_move(rules: &Rules, phase: &PhaseRules, sources: &[Cond], plain: bool) -> bool {
    let source = |c: &'_ Cond| -> Option<Cond> {
        match c {
            Cond::Compiled(i) => sources.get(*i as usize).cloned(),
            other => Some(other.clone()),
        }
    };
    let none_left = |c: &Cond, bound: bool| match c {
        Cond::Cmp(Num::PitsCount(who), CmpOp::Eq | CmpOp::Le, Num::Const(0)) => {
            matches!((who, bound), (PlayerExpr::Bound, true) | (PlayerExpr::Mover, false))
        }
        _ => false,
    };
    phase.end.items.iter().chain(&rules.end.items).any(|rule| match rule {
        EndRule::Stuck | EndRule::EliminateStuck => true,
        EndRule::When(c) => {
            plain
                && match source(c) {
                    Some(Cond::AnyPlayers(body)) => none_left(&body, true),
                    Some(c) => none_left(&c, false),
                    None => false,
                }
        }
        _ => false,
    })
}

impl Engine {
    /// Checks the shortcuts of the turn's start against the long way in this position, and describes the
    /// first disagreement: whether the mover can start (`any_start`, which stops at the first start that
    /// completes) against the whole list of starts, for the mover and, unobliged, for every player; and
    /// that a turn the end rules let begin has a start where `moves_known` says so. For tests.
    #[doc(hidden)]
    pub fn lookahead_disagreement(&self, st: &State) -> Option<String> {
        if st.result.is_some() {
            return None;
        }
        let mut out = Vec::new();
        self.start_options(st, &mut out, false);
        if self.any_start(st) == out.is_empty() {
            return Some(format!("any_start says {}, the list of starts is {out:?}", self.any_start(st)));
        }
        if matches!(st.stage, Stage::Start) {
            for player in 0..self.rules.players {
                let mut probe = st.probe_copy();
                (probe.to_move, probe.obliged) = (player, false);
                out.clear();
                self.start_options(&probe, &mut out, false);
                if self.can_begin(st, player) == out.is_empty() {
                    return Some(format!("can_begin({player}) disagrees with the starts {out:?}"));
                }
            }
            let phase = self.phase(st);
            out.clear();
            self.start_options(st, &mut out, true);
            if st.ply > 0 && self.phase_plan(st).moves_known && out.is_empty() && phase.pass.is_none() {
                return Some("the end rules let a turn begin without a move".into());
            }
        }
        None
    }
}
