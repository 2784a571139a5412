//! Look-ahead: whether a decision can be completed into a legal ply (probing on copies, the offer search
//! on one copy), whether the player to move can move at all, and what a player's moves would capture first
//! (`threats`).

use std::cell::RefCell;

use crate::ir::*;

use super::{Ctx, Engine, Move, Places, Stage, State, MAX_PROBE_DEPTH, MAX_PROBE_STEPS};

thread_local! {
    /// Copies of positions and lists of options for looking ahead, kept for the next probe: a probe takes
    /// what it needs and gives it back, so that probing allocates nothing once there are enough. The copies
    /// are boxed, so that taking and giving one back moves a pointer, not a whole position.
    static SPARES: RefCell<Spares> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// The spare copies of positions and lists of options of a thread.
type Spares = (Vec<Box<State>>, Vec<Vec<Move>>);

/// How many spare copies and lists a thread keeps (a line of look-ahead uses one of each per decision).
const MAX_SPARES: usize = 64;

/// Runs `f` with a probe copy of `st` (a spare one, reset to `st`, when there is one).
fn with_copy<R>(st: &State, f: impl FnOnce(&mut State) -> R) -> R {
    let mut copy = take_copy(st);
    let result = f(&mut copy);
    give_back(copy);
    result
}

/// A probe copy of `st`: a spare one, reset to `st`, when there is one. Give it back with `give_back`.
fn take_copy(st: &State) -> Box<State> {
    match SPARES.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.0.pop())) {
        Some(mut copy) => {
            copy.reset_probe(st);
            copy
        }
        None => Box::new(st.probe_copy()),
    }
}

/// Keeps `copy` for a later probe.
fn give_back(copy: Box<State>) {
    SPARES.with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            if s.0.len() < MAX_SPARES {
                s.0.push(copy);
            }
        }
    });
}

/// Runs `f` with an empty list of moves (a spare one when there is one).
pub(super) fn with_list<R>(f: impl FnOnce(&mut Vec<Move>) -> R) -> R {
    let mut list = SPARES.with(|s| s.try_borrow_mut().ok().and_then(|mut s| s.1.pop())).unwrap_or_default();
    list.clear();
    let result = f(&mut list);
    SPARES.with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            if s.1.len() < MAX_SPARES {
                s.1.push(list);
            }
        }
    });
    result
}

/// What `threats` keeps per thread: while a `then mark` rule is worked out (`ThreatsMemo`), each player's
/// threats once found; and whether they are being looked for, so that the moves tried never look again.
#[derive(Default)]
struct ThreatsState {
    memo: Option<[Option<PitSet>; 8]>,
    busy: bool,
}

thread_local! {
    static THREATS: RefCell<ThreatsState> = RefCell::new(ThreatsState::default());
}

/// While alive, `threats(PLAYER)` is worked out once per player: a rule reads the same position throughout.
pub(super) struct ThreatsMemo {
    saved: Option<[Option<PitSet>; 8]>,
}

impl ThreatsMemo {
    pub(super) fn open() -> ThreatsMemo {
        let saved = THREATS.with(|t| t.borrow_mut().memo.replace([None; 8]));
        ThreatsMemo { saved }
    }
}

impl Drop for ThreatsMemo {
    fn drop(&mut self) {
        let saved = self.saved.take();
        THREATS.with(|t| t.borrow_mut().memo = saved);
    }
}

impl Engine {
    pub(super) fn action_needs_probe(&self, action: &Action) -> bool {
        match &action.kind {
            ActionKind::Sow(s) => s.lookahead,
            ActionKind::Put(p) => p.lookahead,
            ActionKind::Take(_) => false,
            ActionKind::Offer(_) => true,
        }
    }

    pub(super) fn current_needs_probe(&self, st: &State) -> bool {
        let action = match st.stage {
            Stage::Start | Stage::Respond => return false,
            Stage::Direction { action }
            | Stage::SowFrom { action }
            | Stage::Drop { action }
            | Stage::Take { action, .. }
            | Stage::Then { action, .. }
            | Stage::Put { action, .. }
            | Stage::Offer { action, .. }
            | Stage::Capture { action, .. }
            | Stage::LapDirection { action }
            | Stage::Relay { action }
            | Stage::Answer { action, .. }
            | Stage::LiftPick { action, .. } => action,
        };
        if matches!(st.stage, Stage::Then { .. }) && !st.obliged {
            // The sowing is over and `stop` is always there: every pick can be completed.
            return false;
        }
        st.obliged
            || matches!(st.stage, Stage::Take { .. })
            || self.action_needs_probe(&self.phase(st).actions[action as usize])
    }

    /// Keeps in `out[start..]` only the moves that can be completed into a legal ply.
    pub(super) fn retain_completable(&self, st: &State, out: &mut Vec<Move>, start: usize) {
        let mut keep = start;
        // One copy of the position for every candidate that is probed, taken only when one is: the offer
        // shortcut settles most candidates without it.
        let mut probe: Option<Box<State>> = None;
        for i in start..out.len() {
            let mv = out[i];
            let ok = match self.settled_without_probe(st, mv) {
                Some(ok) => {
                    debug_assert_eq!(ok, self.completable_by_probing(st, mv), "probe shortcut for {mv:?}");
                    ok
                }
                None => {
                    let copy = match &mut probe {
                        Some(copy) => {
                            copy.reset_probe(st);
                            copy
                        }
                        None => probe.insert(take_copy(st)),
                    };
                    self.probe_from(copy, mv)
                }
            };
            if ok {
                out[keep] = mv;
                keep += 1;
            }
        }
        if let Some(copy) = probe {
            give_back(copy);
        }
        out.truncate(keep);
    }

    pub(super) fn completable(&self, st: &State, mv: Move) -> bool {
        if let Some(ok) = self.settled_without_probe(st, mv) {
            debug_assert_eq!(ok, self.completable_by_probing(st, mv), "probe shortcut for {mv:?}");
            return ok;
        }
        self.completable_by_probing(st, mv)
    }

    /// Whether `mv` completes, where that is known without playing it out: `None` where it is not.
    fn settled_without_probe(&self, st: &State, mv: Move) -> Option<bool> {
        self.offer_completable_after(st, mv).or_else(|| self.lift_completable_after(st, mv))
    }

    /// A start probed only because its first lap lifts from another place, which may be empty (§9.1: such a
    /// start is no move). Under a rule that plays never-ending moves, a sowing with no `require` nor take
    /// before it cannot fail otherwise (`Engine::new` keeps nothing else looked ahead), so a start whose every
    /// such lift has pieces to lift completes, without sowing it on a copy. (Bao's namua: one seed from the
    /// hand, every start.) `None` where a source is empty or not known before the sowing.
    fn lift_completable_after(&self, st: &State, mv: Move) -> Option<bool> {
        let (Stage::Start, Move::Begin { action, place }) = (st.stage, mv) else {
            return None;
        };
        if st.obliged || !self.phase_plan(st).endless_played {
            return None;
        }
        let ActionKind::Sow(sow) = &self.phase(st).actions.get(action as usize)?.kind else {
            return None;
        };
        if sow.require.is_some() || sow.take_first.is_some() {
            return None;
        }
        let cx = Ctx::new(st.to_move).at(place);
        let stocked = sow.lifts.iter().all(|lift| match &lift.from {
            None => true,
            Some(from) => {
                lift.count > 0
                    && from.known_before_sowing()
                    && self.place(st, cx, from).is_some_and(|p| self.count(st, p) > 0)
            }
        });
        stocked.then_some(true)
    }

    pub(super) fn completable_by_probing(&self, st: &State, mv: Move) -> bool {
        with_copy(st, |probe| self.probe_from(probe, mv))
    }

    /// Whether `mv`, played in `probe` (a probe copy of the position, which it changes), completes.
    fn probe_from(&self, probe: &mut State, mv: Move) -> bool {
        let ply = probe.ply;
        self.step(probe, mv, true);
        let mut budget = MAX_PROBE_STEPS;
        self.probe_rest(probe, ply, &mut budget, MAX_PROBE_DEPTH)
    }

    /// Whether the ply under way in `st` can be completed, looking at no more than `budget` continuations
    /// and `depth` further decisions.
    pub(super) fn probe_rest(&self, st: &State, ply: u32, budget: &mut u32, depth: u32) -> bool {
        if st.illegal || *budget == 0 || depth == 0 {
            return false;
        }
        *budget -= 1;
        if st.ply != ply {
            return true;
        }
        // Once the sowing is over, a `then may` selection can always stop: nothing left can fail.
        if matches!(st.stage, Stage::Then { .. }) && !st.obliged {
            return true;
        }
        with_list(|options| {
            self.mid_options(st, options);
            // Latest first: a selection lists `stop` last, and stopping is the quickest way to a whole ply.
            with_copy(st, |next| {
                options.iter().rev().enumerate().any(|(i, &mv)| {
                    if i > 0 {
                        next.reset_probe(st);
                    }
                    self.step(next, mv, true);
                    self.probe_rest(next, ply, budget, depth - 1)
                })
            })
        })
    }

    /// The look-ahead of an offer, which only ever adds pits to `offered`: searched on one copy of the
    /// position instead of a copy per step. `None` for any other move, and under an obligation (whose test
    /// at the end of the ply needs the whole machine).
    pub(super) fn offer_completable_after(&self, st: &State, mv: Move) -> Option<bool> {
        if st.obliged {
            return None;
        }
        let (action, place) = match (st.stage, mv) {
            (Stage::Start, Move::Begin { action, place }) => (action, place),
            (Stage::Offer { action, .. }, Move::Pick(place)) => (action, place),
            _ => return None,
        };
        let ActionKind::Offer(offer) = &self.phase(st).actions.get(action as usize)?.kind else {
            return None;
        };
        let mut probe = st.probe_copy();
        if matches!(st.stage, Stage::Start) {
            probe.offered = 0;
        }
        probe.offered |= 1 << place;
        let prunes = self.phase_plan(st).actions[action as usize].offer_prunes;
        let mut budget = MAX_PROBE_STEPS;
        Some(self.offer_completable(&mut probe, offer, prunes, place + 1, &mut budget))
    }

    /// Whether the offer in `offered` can be completed with pits at or after `from`, looking at no more than
    /// `budget` offers. `prunes`: a `require` that fails now fails with more pits too.
    pub(super) fn offer_completable(
        &self,
        st: &mut State,
        offer: &Offer,
        prunes: bool,
        from: PlaceId,
        budget: &mut u32,
    ) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if self.offer_can_stop(st, offer) {
            return true;
        }
        if prunes && st.offered.count_ones() >= offer.min {
            // Big enough, so a `require` failed: more pits cannot mend it.
            return false;
        }
        let mut picks = Places::default();
        self.offer_candidates(st, offer, from, |p| {
            picks.push(p);
        });
        picks.as_slice().iter().any(|&p| {
            st.offered |= 1 << p;
            let ok = self.offer_completable(st, offer, prunes, p + 1, budget);
            st.offered &= !(1 << p);
            ok
        })
    }

    /// Whether `player`, were it his turn, could start an action (passing aside).
    pub(super) fn can_begin(&self, st: &State, player: u8) -> bool {
        // Without look-ahead, a start is a start: nothing to play out on a copy.
        if self.phase_plan(st).probe_free {
            let actions = self.phase(st).actions.iter().enumerate();
            return actions.into_iter().any(|(a, action)| !self.each_begin_for(st, player, a as u8, action, |_| false));
        }
        let mut probe = st.probe_copy();
        probe.to_move = player;
        probe.stage = Stage::Start;
        probe.obliged = false;
        self.any_start(&probe)
    }

    /// Whether the mover can start an action (passing aside), as `start_options` would list one: looks
    /// ahead only as far as the first start that can be completed.
    pub(super) fn any_start(&self, st: &State) -> bool {
        if matches!(st.stage, Stage::Respond) {
            return true;
        }
        let actions = self.phase(st).actions.iter().enumerate();
        actions.into_iter().any(|(a, action)| {
            let probe = st.obliged || self.action_needs_probe(action);
            !self.each_begin(st, a as u8, action, |mv| probe && !self.completable(st, mv))
        })
    }

    /// `threats(player)`: the pits that the first capture of each start `player` could make now (as if he
    /// were to move, in the current phase: its `from`, `must capture` and `prefer`, but no obligation) would
    /// take pieces from, as bits. Each start is played on a copy until its first capture is made or its
    /// sowing ends (`State::trial`), every choice on the way tried, within the budgets of probing.
    pub(crate) fn threats(&self, st: &State, player: u8) -> PitSet {
        let known = THREATS.with(|t| {
            let t = t.borrow();
            if t.busy {
                // A move tried for `threats` never looks ahead again (`check` keeps `threats` out of the
                // rules of a sowing); should it, it sees none.
                return Some(0);
            }
            t.memo.as_ref().and_then(|m| m.get(player as usize).copied().flatten())
        });
        if let Some(mask) = known {
            return mask;
        }
        THREATS.with(|t| t.borrow_mut().busy = true);
        let mask = self.find_threats(st, player);
        THREATS.with(|t| {
            let mut t = t.borrow_mut();
            t.busy = false;
            if let Some(slot) = t.memo.as_mut().and_then(|m| m.get_mut(player as usize)) {
                *slot = Some(mask);
            }
        });
        mask
    }

    fn find_threats(&self, st: &State, player: u8) -> PitSet {
        if st.result.is_some() || (st.eliminated & (1 << player)) != 0 {
            return 0;
        }
        with_copy(st, |from| {
            from.to_move = player;
            from.stage = Stage::Start;
            from.obliged = false;
            from.illegal = false;
            from.captured = false;
            from.again = false;
            from.taken_first = 0;
            from.recording = false;
            from.trial = false;
            with_list(|starts| {
                self.start_options(from, starts, false);
                from.trial = true;
                // Only a sowing with a capture rule can capture: the starts of the others are not tried.
                let phase = self.phase(from);
                let captures = |mv: &Move| match mv {
                    Move::Begin { action, .. } => match phase.actions.get(*action as usize).map(|a| &a.kind) {
                        Some(ActionKind::Sow(sow)) => {
                            !sow.captures.is_empty() || !sow.drop_captures.is_empty() || !sow.lift_captures.is_empty()
                        }
                        _ => false,
                    },
                    _ => false,
                };
                let (mut budget, mut found): (u32, PitSet) = (MAX_PROBE_STEPS, 0);
                for &mv in starts.iter().filter(|mv| captures(mv)) {
                    with_copy(from, |trial| {
                        self.step(trial, mv, true);
                        self.trial_rest(trial, &mut budget, MAX_PROBE_DEPTH, &mut found);
                    });
                }
                found
            })
        })
    }

    /// Goes on with a trial of `threats` from `st` through every choice, adding the pits of the first
    /// capture of each line to `found`.
    fn trial_rest(&self, st: &State, budget: &mut u32, depth: u32, found: &mut PitSet) {
        if st.illegal || *budget == 0 || depth == 0 {
            return;
        }
        *budget -= 1;
        if matches!(st.stage, Stage::Start | Stage::Respond) {
            *found |= st.taken_first;
            return;
        }
        with_list(|options| {
            self.mid_options(st, options);
            for &mv in options.iter() {
                with_copy(st, |next| {
                    self.step(next, mv, true);
                    self.trial_rest(next, budget, depth - 1, found);
                });
            }
        });
    }

    pub(super) fn has_any_move(&self, st: &State) -> bool {
        if self.phase_plan(st).plain_starts && !st.obliged && matches!(st.stage, Stage::Start) {
            let pits = self.fixed_pits_of(st.to_move);
            return pits.iter().any(|&p| st.counts[p as usize] > 0);
        }
        let phase = self.phase(st);
        // With a pass rule there is always a move: an action, or else the pass.
        if phase.pass.is_some() && matches!(st.stage, Stage::Start) && !st.obliged {
            return true;
        }
        let simple = !st.obliged && matches!(st.stage, Stage::Start) && self.phase_plan(st).probe_free;
        if simple {
            return phase
                .actions
                .iter()
                .enumerate()
                .any(|(a, action)| !self.each_begin(st, a as u8, action, |_| false));
        }
        // With a pass rule, the pass is there whenever no start is.
        phase.pass.is_some() || self.any_start(st)
    }
}
