//! The whole-ply form of a plain sowing phase as the engine makes it (`PlyPlan`): per mover and last pit,
//! the captures that can hold and whether the mover plays again; captures of simple takes as tables
//! (`FastCapture`), a chain's condition as a table and tests of counts; the end rules as the plan checks
//! them (`FastEnd`). `whole_ply.rs` plays it.

use super::cancel::TakeLog;
use super::starts::StartRow;
use super::tracks::Tracks;
use super::words::SowWords;
use crate::engine::compile::CountTests;
use crate::engine::{Ctx, Engine, State};
use crate::ir::*;

/// The whole-ply compiled form of a plain sowing phase: what its captures and its extra turn can do at the
/// end of a sowing, found once per mover and last place when the engine is made, so that a ply tests only
/// what the position can change. Everything static in the mover and the last place (`here in pits(mover)`
/// with fixed pits, `last = store(mover)`) is settled by the tables; the rest is the compiled conditions.
/// A capture of a shape the plan does not know hands the ply over to the general stages at that capture.
#[derive(Debug, Clone)]
pub(crate) struct PlyPlan {
    pub(super) phase: u8,
    pub(super) places: usize,
    /// The phase's one direction of sowing.
    pub(super) dir: Dir,
    /// Per player: the starts of a turn, the player's non-empty fixed pits, as bits (`start_bits`).
    pub(super) starts: Vec<StartRow>,
    /// The phase's tracks (`Engine::tracks`), and whether its sowing skips the origin.
    pub(super) tracks: Tracks,
    pub(super) skip_origin: bool,
    /// The phase has an obligation (`must`), which the turn's start looks at.
    pub(super) must: bool,
    /// The obligation applies only when the opponent's pits are empty (`when count(pits(opponent)) = 0`,
    /// Oware's feeding): read off the pits' words before anything else is looked at.
    pub(super) must_when_opponent_empty: bool,
    /// The end rules of the phase and the game, in order, as the turn after a ply checks them; none where
    /// one can take a player out (the general loop then looks at them all again).
    pub(super) ends: Option<Vec<FastEnd>>,
    /// Per `mover * places + last`: the capture rules (as bits) whose condition can hold there, and whether
    /// the mover plays again.
    pub(super) capture_at: Vec<(u32, Again)>,
    /// Per capture rule: its compiled form, when it has one.
    pub(super) captures: Vec<Option<FastCapture>>,
    /// Per capture rule: what is left to test of its condition where `capture_at` says it can hold, as
    /// tests of counts, when it is made of them (else its compiled condition is tested).
    pub(super) residues: Vec<Option<CountTests>>,
    /// Nothing in the rules needs the general bookkeeping of a ply's end (`hand_over`): one phase, no marks,
    /// no `again when` of the phase, no rounds, no records of the places passed; then `plain_hand_over` does
    /// what is left of it (an obligation still takes the general road).
    pub(super) plain_end: bool,
    /// One kind of piece and no mark that an emptied pit loses: a start lifts its pit and nothing else.
    pub(super) plain_lift: bool,
    /// The phase's ply limit, and whether the end rules say that the mover can move (`Engine::moves_known`).
    pub(super) limit: u32,
    pub(super) moves_known: bool,
    /// The sowings as additions of words to `counts`, where the board is small (`SowWords`).
    pub(super) words: Option<SowWords>,
}

/// An end rule as the whole-ply form checks it.
#[derive(Debug, Clone)]
pub(super) enum FastEnd {
    /// `when any players(count(pits(player)) = 0)` (`any`) or `when count(pits(mover)) = 0`.
    RowEmpty { any: bool },
    /// `when stuck` where the starts are the mover's non-empty pits: whether they are all empty.
    Stuck,
    /// `when any players(TESTS)` where the tests read single places' counts (`count(store(player)) >= 25`).
    AnyPlayerCounts(CountTests),
    /// `when any players(TEST)` where the test reads one place that the player fixes: per player, the place
    /// and the counts that pass (`CountTests::one_place_per_player`).
    AnyPlayerPlace(Vec<(usize, IntSet)>),
    /// `when repetition` (`draw`: `draw when repetition`); `counts`, where the pieces and the flags are the
    /// whole position (`Engine::seen_before_counts`): the bytes of the board whose sum restarts the history
    /// (0: it never restarts).
    Repetition { draw: bool, counts: Option<usize> },
    /// `when CONDITION` of another shape, its compiled condition.
    When(Cond),
    /// Any other rule, as written (its conditions are the engine's compiled ones).
    Rule(EndRule),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Again {
    Never,
    Always,
    Test,
}

/// A capture made only of takes of every piece from a few places fixed by the mover and the pit (`here`,
/// `opposite`, a store) to one such place, with its chain and `cancel` as written.
#[derive(Debug, Clone)]
pub(super) struct FastCapture {
    /// Per take, per `mover * places + here`: the places taken from, and where to.
    pub(super) takes: Vec<Vec<FastTake>>,
    /// The chain's condition where it is made of parts that the mover and the pit settle and tests of
    /// counts: per `mover * places + pit`, whether the settled parts hold there; and the tests left.
    pub(super) chain: Option<(Vec<bool>, CountTests)>,
    /// A `cancel` is undone from the log of the takes made (`TakeLog`): the chain cannot make more takes
    /// than it holds. Otherwise from a copy of the position (`Saved`).
    pub(super) logged: bool,
}

#[derive(Debug, Clone, Copy, Default)]
pub(super) struct FastTake {
    pub(super) from: [PlaceId; 4],
    pub(super) len: u8,
    pub(super) to: Option<PlaceId>,
}

impl PlyPlan {
    /// The plan of a phase whose single action is `sow`, a plain sowing (`plain_sow`); none where the
    /// rules can take a player out (then `opponent` is not fixed by the mover) or owners change.
    pub(crate) fn new(engine: &Engine, phase: usize, sow: &Sow) -> Option<PlyPlan> {
        let rules = &engine.rules;
        if rules.needs.elimination || engine.fixed_pits.is_none() || sow.then.is_some() || sow.laps {
            return None;
        }
        if sow.captures.len() > 32 {
            return None;
        }
        let places = rules.places.len();
        let source = |c: &Cond| source(engine, c);
        let mut probe = engine.initial_state();
        let phase_plan = engine.phases.get(phase)?;
        let dir = phase_plan.plain_sow?;
        let starts = (0..rules.players).map(|p| StartRow::new(engine.fixed_pits_of(p), rules.places.len())).collect();
        let mut plan = PlyPlan {
            phase: phase as u8,
            places,
            dir,
            starts,
            tracks: phase_plan.tracks.clone(),
            skip_origin: sow.skip_origin,
            must: rules.phases[phase].must.is_some(),
            must_when_opponent_empty: rules.phases[phase].must.as_ref().is_some_and(|m| {
                matches!(
                    source(&m.when),
                    Cond::Cmp(Num::PitsCount(PlayerExpr::Opponent), CmpOp::Eq | CmpOp::Le, Num::Const(0))
                )
            }),
            ends: fast_ends(engine, phase, &source),
            capture_at: vec![(0, Again::Never); rules.players as usize * places],
            captures: sow.captures.iter().map(|c| FastCapture::new(engine, &mut probe, c)).collect(),
            residues: Vec::new(),
            plain_end: rules.phases.len() == 1
                && rules.marks.is_empty()
                && rules.phases[phase].again.is_none()
                && !rules.needs.rounds
                && !rules.needs.passed
                && !rules.needs.moves,
            plain_lift: engine.k == 1 && engine.empty_marks.is_empty(),
            limit: phase_plan.limit,
            moves_known: phase_plan.moves_known,
            words: None,
        };
        if engine.k == 1 {
            plan.words = SowWords::new(rules, &plan.tracks);
        }
        let whens: Vec<Cond> = sow.captures.iter().map(|c| source(&c.when)).collect();
        plan.residues = whens.iter().map(residue).collect();
        let again = sow.again.as_ref().map(source);
        for mover in 0..rules.players {
            for last in 0..places as PlaceId {
                let at = mover as usize * places + last as usize;
                probe.last = last;
                let cx = Ctx::new(mover).at(last);
                for (r, when) in whens.iter().enumerate() {
                    if may_hold(engine, &probe, cx, when) {
                        plan.capture_at[at].0 |= 1 << r;
                    }
                }
                plan.capture_at[at].1 = match &again {
                    None => Again::Never,
                    Some(c) if is_static(c) => {
                        if engine.cond(&probe, cx, c) {
                            Again::Always
                        } else {
                            Again::Never
                        }
                    }
                    Some(_) => Again::Test,
                };
            }
        }
        Some(plan)
    }
}

/// The end rules of a phase in the whole-ply form; none where a rule can take a player out.
fn fast_ends(engine: &Engine, phase: usize, source: &dyn Fn(&Cond) -> Cond) -> Option<Vec<FastEnd>> {
    let rules = &engine.rules;
    let items = rules.phases[phase].end.items.iter().chain(&rules.end.items);
    let row_empty = |c: &Cond, bound: bool| match c {
        Cond::Cmp(Num::PitsCount(who), CmpOp::Eq | CmpOp::Le, Num::Const(0)) => {
            matches!((who, bound), (PlayerExpr::Bound, true) | (PlayerExpr::Mover, false))
        }
        _ => false,
    };
    // What `seen_before` finds of the rules' shape: owners that never change (a plan's), no lasting marks,
    // no records of the places passed.
    let counts_only = engine.fixed_pits.is_some() && rules.lasting_marks() == 0 && !rules.needs.passed;
    let board = if rules.needs.refills { 0 } else { rules.n_pits * engine.k };
    let counts = counts_only.then_some(board);
    items
        .map(|rule| match rule {
            EndRule::Eliminate(_) | EndRule::EliminateStuck | EndRule::EliminateEndless => None,
            EndRule::Stuck if engine.phases[phase].plain_starts => Some(FastEnd::Stuck),
            EndRule::When(c) => Some(match source(c) {
                Cond::AnyPlayers(body) if row_empty(&body, true) => FastEnd::RowEmpty { any: true },
                Cond::AnyPlayers(body) => match CountTests::of(&[&*body]) {
                    Some(tests) => match tests.one_place_per_player(rules.players) {
                        Some(places) => FastEnd::AnyPlayerPlace(places),
                        None => FastEnd::AnyPlayerCounts(tests),
                    },
                    None => FastEnd::When(c.clone()),
                },
                source if row_empty(&source, false) => FastEnd::RowEmpty { any: false },
                _ => FastEnd::When(c.clone()),
            }),
            EndRule::Repetition => Some(FastEnd::Repetition { draw: false, counts }),
            EndRule::DrawRepetition => Some(FastEnd::Repetition { draw: true, counts }),
            _ => Some(FastEnd::Rule(rule.clone())),
        })
        .collect()
}

impl FastCapture {
    fn new(engine: &Engine, probe: &mut State, rule: &CaptureRule) -> Option<FastCapture> {
        let rules = &engine.rules;
        if rule.may || !rule.steps.is_empty() || rule.resow.is_some() {
            return None;
        }
        let places = rules.places.len();
        let mut takes = Vec::new();
        for take in &rule.takes {
            let simple =
                !take.chosen && take.count.is_none() && take.filter.is_none() && matches!(take.kinds, KindSel::All);
            let (TakeTo::Place(to), [group]) = (&take.to, take.from.as_slice()) else { return None };
            // Along a chain `here` moves on while `last` stays: only places fixed by `here` are tabled.
            if !simple || group.len() > 4 || !static_place(to) || mentions_last(to) {
                return None;
            }
            let mut from = Vec::new();
            for set in group {
                let Set::One(p) = set else { return None };
                if !static_place(p) || mentions_last(p) {
                    return None;
                }
                from.push(p);
            }
            let mut table = vec![FastTake::default(); rules.players as usize * places];
            for mover in 0..rules.players {
                for here in 0..places as PlaceId {
                    probe.last = here;
                    let cx = Ctx::new(mover).at(here);
                    let t = &mut table[mover as usize * places + here as usize];
                    t.to = engine.place(probe, cx, to);
                    for p in from.iter().filter_map(|p| engine.place(probe, cx, p)) {
                        t.from[t.len as usize] = p;
                        t.len += 1;
                    }
                }
            }
            takes.push(table);
        }
        // Along the chain every pit but the last, each with every place of every take.
        let most_takes = rules.n_pits * rule.takes.iter().map(|t| t.from.first().map_or(0, Vec::len)).sum::<usize>();
        let chain = rule.chain.as_ref().and_then(|c| chain_table(engine, probe, &source(engine, &c.cond)));
        Some(FastCapture { takes, chain, logged: most_takes <= TakeLog::CAP })
    }
}

/// A chain's condition (`ChainRule::cond`) as a table of its parts that the mover and the pit settle, per
/// `mover * places + pit`, and the tests of counts left; none where it has other parts, or reads `last`
/// (which stays where the sowing ended as the chain walks on).
fn chain_table(engine: &Engine, probe: &State, c: &Cond) -> Option<(Vec<bool>, CountTests)> {
    let parts: Vec<&Cond> = match c {
        Cond::And(cs) => cs.iter().collect(),
        c => vec![c],
    };
    let (settled, rest): (Vec<&Cond>, Vec<&Cond>) = parts.into_iter().partition(|c| is_static(c));
    if settled.iter().any(|c| cond_mentions_last(c)) {
        return None;
    }
    let tests = CountTests::of(&rest)?;
    let places = engine.rules.places.len();
    let mut table = vec![false; engine.rules.players as usize * places];
    for mover in 0..engine.rules.players {
        for here in 0..places as PlaceId {
            let cx = Ctx::new(mover).at(here);
            table[mover as usize * places + here as usize] = settled.iter().all(|c| engine.cond(probe, cx, c));
        }
    }
    Some((table, tests))
}

/// Whether a condition that `is_static` reads `last`.
fn cond_mentions_last(c: &Cond) -> bool {
    match c {
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(cond_mentions_last),
        Cond::Not(c) => cond_mentions_last(c),
        Cond::PlaceEq(a, b, _) => mentions_last(a) || mentions_last(b),
        _ => false,
    }
}

/// A condition as written, where the engine has compiled it (`Cond::Compiled`).
fn source(engine: &Engine, c: &Cond) -> Cond {
    match c {
        Cond::Compiled(i) => engine.compiled.1.get(*i as usize).cloned().unwrap_or(Cond::True),
        other => other.clone(),
    }
}

/// Whether a player expression names the same player whatever the position, given the mover: no player
/// can be taken out, so the opponent is the next seat.
fn static_player(p: &PlayerExpr) -> bool {
    matches!(p, PlayerExpr::Mover | PlayerExpr::Opponent)
}

/// Whether a place expression names a place fixed by the mover and `here` (= `last` at a sowing's end).
fn static_place(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Here | PlaceExpr::Last | PlaceExpr::Fixed(_) => true,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => static_place(p),
        PlaceExpr::OfPlayer(_, who) => static_player(who),
        PlaceExpr::Origin
        | PlaceExpr::Start
        | PlaceExpr::RegionPit(..)
        | PlaceExpr::Next(..)
        | PlaceExpr::Previous(..) => false,
    }
}

/// Whether a place expression reads `last`.
fn mentions_last(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Last => true,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => mentions_last(p),
        _ => false,
    }
}

/// Whether a condition is fixed by the mover and the last place, with pits that never change hands.
fn is_static(c: &Cond) -> bool {
    match c {
        Cond::True => true,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(is_static),
        Cond::Not(c) => is_static(c),
        Cond::HereOwnedBy(who) => static_player(who),
        Cond::PlaceEq(a, b, _) => static_place(a) && static_place(b),
        _ => false,
    }
}

/// What is left to test of a capture's condition where the mover and the last place let it hold: its
/// parts that they do not settle, when those are tests of counts.
fn residue(c: &Cond) -> Option<CountTests> {
    let parts: Vec<&Cond> = match c {
        Cond::And(cs) => cs.iter().collect(),
        c => vec![c],
    };
    CountTests::of(&parts.into_iter().filter(|c| !is_static(c)).collect::<Vec<_>>())
}

/// Whether a condition can hold at the end of a sowing by `cx.mover` ending at `cx.here`: false only
/// when a part of it that the position cannot change rules it out.
fn may_hold(engine: &Engine, probe: &State, cx: Ctx, c: &Cond) -> bool {
    match c {
        c if is_static(c) => engine.cond(probe, cx, c),
        Cond::And(cs) => cs.iter().all(|c| may_hold(engine, probe, cx, c)),
        Cond::Or(cs) => cs.iter().any(|c| may_hold(engine, probe, cx, c)),
        _ => true,
    }
}
