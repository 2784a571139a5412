//! Refusing positions no game of these rules could reach: too many pieces, owners, players out and
//! offers that cannot happen.

use super::*;
use crate::ir::MarkId;

/// The most pieces a position may hold: a place counts its pieces in one byte, and since pieces only move,
/// all of them could come together in one place.
const MAX_PIECES: u64 = u8::MAX as u64;

pub(super) fn check_pieces(pieces: u64) -> Result<(), NotationError> {
    if pieces > MAX_PIECES {
        return Err(NotationError::new(format!(
            "this position holds {pieces} pieces, more than the {MAX_PIECES} a place can count; since pieces only \
             move, they could all come together in one place"
        )));
    }
    Ok(())
}

/// The checks of every position, from text or JSON, against what a game of these rules can reach: owners
/// that only trades change, eliminations only where players can be put out, an offer only where the rules
/// have one, of the offering player's pits.
pub(super) fn check_reachable(engine: &Engine, st: &State) -> Result<(), NotationError> {
    check_owners(engine, st)?;
    check_marks(engine, st)?;
    check_eliminated(engine, st)?;
    check_offer(engine, st)
}

fn player_name(player: u8) -> String {
    if player == NO_PLAYER {
        "nobody".to_string()
    } else {
        format!("player {}", player as u32 + 1)
    }
}

/// The offer actions of a phase.
fn offers_of(phase: &crate::ir::PhaseRules) -> impl Iterator<Item = &crate::ir::Offer> {
    phase.actions.iter().filter_map(|a| match &a.kind {
        ActionKind::Offer(offer) => Some(offer),
        _ => None,
    })
}

/// Each mark cell holds nobody, or (for a mark per player) one of the players; a mark `until empty` is on an
/// empty pit only where some rule of the game can make it on one.
fn check_marks(engine: &Engine, st: &State) -> Result<(), NotationError> {
    let rules = &engine.rules;
    let k = kinds(engine);
    for (m, info) in rules.marks.iter().enumerate() {
        let most = if info.per_player { rules.players } else { 1 };
        let cells = st.marks.get(m * rules.n_pits..(m + 1) * rules.n_pits).unwrap_or(&[]);
        if let Some(p) = cells.iter().position(|&c| c > most) {
            return Err(NotationError::new(format!(
                "the mark `{}` of {} is held for no player of this game",
                info.name,
                label(engine, p as PlaceId)
            )));
        }
        if !info.until_empty {
            continue;
        }
        let empty = |p: usize| st.counts.get(p * k..(p + 1) * k).is_none_or(|c| c.iter().all(|&n| n == 0));
        if let Some(p) = (0..cells.len()).find(|&p| cells[p] != UNMARKED && empty(p)) {
            if !may_mark_empty(engine, m as MarkId) {
                let name = &info.name;
                return Err(NotationError::new(format!(
                    "{l} carries the mark `{name}` but is empty: `{name}` is lost when its pit is left empty \
                     (`until empty`), and no rule of this game makes it on an empty pit, so no game can reach \
                     this position",
                    l = label(engine, p as PlaceId)
                )));
            }
        }
    }
    Ok(())
}

/// Whether some rule could make mark `m` on an empty pit, so that a position may show it there though it is
/// `until empty`. Said only where it surely cannot: the setup's marks on pits it fills (in a game of one
/// round), a capture at every drop marking `here` (the pit just sown) before its takes in a sowing without
/// `divert`, and a `then mark` whose condition asks for pieces in the pit; any other rule marking it may.
fn may_mark_empty(engine: &Engine, m: MarkId) -> bool {
    let rules = &engine.rules;
    let n = rules.n_pits;
    if let Some(cells) = rules.setup_marks.get(m as usize * n..(m as usize + 1) * n) {
        if cells.iter().any(|&c| c != UNMARKED) {
            let setup = engine.setup_state();
            let k = kinds(engine);
            let filled = |p: usize| setup.counts.get(p * k..(p + 1) * k).is_some_and(|c| c.iter().any(|&x| x > 0));
            if rules.rounds.is_some() || (0..n).any(|p| cells[p] != UNMARKED && !filled(p)) {
                return true;
            }
        }
    }
    let marks_it = |step: &crate::ir::MarkStep| matches!(step, crate::ir::MarkStep::Mark { mark, .. } if *mark == m);
    for phase in &rules.phases {
        for action in &phase.actions {
            let ActionKind::Sow(sow) = &action.kind else { continue };
            let at_drop_safe = |rule: &crate::ir::CaptureRule| {
                rule.steps.iter().filter(|s| marks_it(&s.action)).all(|s| {
                    sow.divert.is_empty()
                        && s.before == 0
                        && matches!(&s.action, crate::ir::MarkStep::Mark { place: crate::ir::PlaceExpr::Here, .. })
                })
            };
            if !sow.drop_captures.iter().all(at_drop_safe) {
                return true;
            }
            let others = sow.captures.iter().chain(&sow.lift_captures).chain(&sow.answers);
            if others.flat_map(|r| &r.steps).any(|s| marks_it(&s.action)) || sow.lift_steps.iter().any(marks_it) {
                return true;
            }
            if sow.then_marks.iter().any(|t| t.mark == m && !asks_for_pieces(engine, &t.filter)) {
                return true;
            }
        }
    }
    false
}

/// Whether a condition holds only of a pit (`here`) that holds pieces: `count = 2`, `count > 0`, one of
/// those among the parts of an `and`.
fn asks_for_pieces(engine: &Engine, c: &crate::ir::Cond) -> bool {
    use crate::ir::{CmpOp, Cond, KindSel, Num, PlaceExpr, Set};
    let here_count = |n: &Num| {
        matches!(
            n,
            Num::HereCount | Num::PlaceCount(PlaceExpr::Here) | Num::Count(Set::One(PlaceExpr::Here), KindSel::All)
        )
    };
    match c {
        Cond::And(parts) => parts.iter().any(|p| asks_for_pieces(engine, p)),
        Cond::Compiled(i) => engine.compiled.1.get(*i as usize).is_some_and(|c| asks_for_pieces(engine, c)),
        Cond::Cmp(n, op, Num::Const(v)) if here_count(n) => match op {
            CmpOp::Eq => *v > 0,
            CmpOp::Ne => *v == 0,
            CmpOp::Gt => *v >= 0,
            CmpOp::Ge => *v >= 1,
            CmpOp::Lt | CmpOp::Le => false,
        },
        Cond::InInts(n, set) if here_count(n) => !set.contains(0),
        _ => false,
    }
}

fn check_owners(engine: &Engine, st: &State) -> Result<(), NotationError> {
    let rules = &engine.rules;
    // Only an accepted offer, a `give` or a refill that claims changes who owns a pit; only the last leaves
    // a pit to nobody (one that nobody fills).
    let trades = rules.owners_can_change();
    let claims = rules.rounds.as_ref().is_some_and(|r| r.refills.iter().any(|f| f.claim.is_some()));
    for (p, (&owner, &initial)) in st.owner.iter().zip(&rules.initial_owner).enumerate() {
        if owner == initial {
            continue;
        }
        let l = label(engine, p as PlaceId);
        if owner != NO_PLAYER && owner >= rules.players {
            return Err(NotationError::new(format!("owner({l}): there is no player {}", owner as u32 + 1)));
        }
        if !trades {
            return Err(NotationError::new(format!(
                "owner({l}): pits never change hands in this game (no action trades them), so {l} belongs to {}",
                player_name(initial)
            )));
        }
        if owner == NO_PLAYER && !claims {
            return Err(NotationError::new(format!(
                "owner({l}): a trade always gives a pit to a player, so {l} cannot belong to nobody"
            )));
        }
    }
    Ok(())
}

fn check_eliminated(engine: &Engine, st: &State) -> Result<(), NotationError> {
    let rules = &engine.rules;
    if st.eliminated == 0 {
        return Ok(());
    }
    if !rules.needs.elimination {
        return Err(NotationError::new("nobody is ever put out in this game, so no player can be eliminated"));
    }
    if rules.players < 8 && st.eliminated >> rules.players != 0 {
        return Err(NotationError::new(format!("eliminated: players are numbered 1 to {}", rules.players)));
    }
    if st.result.is_some() {
        return Ok(());
    }
    if st.eliminated & 1u8.checked_shl(st.to_move as u32).unwrap_or(0) != 0 {
        return Err(NotationError::new(format!("player {} is to move but eliminated", st.to_move as u32 + 1)));
    }
    let active = (0..rules.players).filter(|&p| st.eliminated & (1 << p) == 0).count();
    if active < 2 {
        return Err(NotationError::new(
            "only one player is left in the game, and then the game is over: eliminate fewer players",
        ));
    }
    Ok(())
}

/// An offer waiting for an answer: the phase must have an offer of that many pits, all of them the offering
/// player's (the one who moved last), who keeps as many as the offer requires.
fn check_offer(engine: &Engine, st: &State) -> Result<(), NotationError> {
    if st.offered == 0 {
        return Ok(());
    }
    let rules = &engine.rules;
    let phase = engine.phase(st);
    if offers_of(phase).next().is_none() {
        let anywhere = rules.phases.iter().any(|ph| offers_of(ph).next().is_some());
        return Err(NotationError::new(if anywhere {
            format!("offered: no offer can be made in phase {}", phase.name)
        } else {
            "offered: nobody can offer pits in this game".to_string()
        }));
    }
    let offerer = st.last_mover;
    let mut size = 0u32;
    for p in pits_of(st.offered) {
        let l = label(engine, p);
        let owner = st.owner.get(p as usize).copied();
        match owner {
            None => return Err(NotationError::new(format!("offered: only pits can be offered, not {l}"))),
            Some(o) if o != offerer => {
                let whose =
                    if o == st.to_move { format!("{}, who answers the offer", player_name(o)) } else { player_name(o) };
                return Err(NotationError::new(format!(
                    "offered: pit {l} belongs to {whose}; an offer is of the pits of the player who made it, {}",
                    player_name(offerer)
                )));
            }
            Some(_) => size += 1,
        }
    }
    let owned = st.owner.iter().filter(|&&o| o == offerer).count() as u32;
    let fits = offers_of(phase).any(|o| (o.min..=o.max).contains(&size) && owned >= size + o.keeping);
    if !fits {
        let sizes: Vec<String> = offers_of(phase)
            .map(|o| {
                let keep = if o.keeping > 0 { format!(", keeping at least {}", o.keeping) } else { String::new() };
                if o.min == o.max {
                    format!("{} pits{keep}", o.min)
                } else {
                    format!("{} to {} pits{keep}", o.min, o.max)
                }
            })
            .collect();
        return Err(NotationError::new(format!(
            "offered: an offer of {size} of the {owned} pits of {} cannot be made here; an offer is of {}",
            player_name(offerer),
            sizes.join(" or ")
        )));
    }
    Ok(())
}
