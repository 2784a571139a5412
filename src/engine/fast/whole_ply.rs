//! A ply played whole off its phase's `PlyPlan`: the sowing, the captures and extra turn off the plan's
//! tables, the end of the ply and the next turn's checks without the general loop (`whole_ply`); and a
//! random playout's turn picked off the bits of the mover's row (`plain_turn`).

use super::cancel::{Saved, TakeLog};
use super::ply_plan::{Again, FastCapture, FastEnd, PlyPlan};
use super::starts::nth_start;
use crate::engine::compile::CountTests;
use crate::engine::{CaptureCursor, Ctx, EndReason, Engine, Move, Next, Stage, State};
use crate::ir::*;

/// A turn that begins in a phase with a `PlyPlan`: its starts as bits (`StartRow::bits`), in the order in
/// which `legal_moves` lists them, so that a random player picks the k-th without a list.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlainTurn<'e> {
    plan: &'e PlyPlan,
    pits: &'e [PlaceId],
    bits: u64,
    /// The number of starts: the length of the list of `legal_moves`.
    pub(crate) len: usize,
}

impl PlainTurn<'_> {
    /// The `k`-th start, from 0: `legal_moves(..)[k]`.
    #[inline(always)]
    pub(crate) fn nth(&self, k: usize) -> Move {
        Move::Begin { action: 0, place: nth_start(self.pits, self.bits, k) }
    }
}

impl Engine {
    /// The turn that begins, where it is one of a phase with a `PlyPlan` and no obligation binds the mover
    /// (then `legal_moves` lists the mover's non-empty pits, and each is played as a whole ply); none
    /// elsewhere, and where a player has more pits than bits.
    #[inline(always)]
    pub(crate) fn plain_turn(&self, st: &State) -> Option<PlainTurn<'_>> {
        if !matches!(st.stage, Stage::Start) || st.obliged || st.result.is_some() {
            return None;
        }
        let plan = self.phases.get(st.phase as usize)?.ply_plan.as_ref()?;
        let row = plan.starts.get(st.to_move as usize).filter(|r| r.pits.len() <= 64)?;
        let (bits, len) = row.bits(&st.counts);
        Some(PlainTurn { plan, pits: &row.pits, bits, len })
    }

    /// Plays a start of a `plain_turn`, as `apply_unchecked` would.
    #[inline(always)]
    pub(crate) fn play_plain_turn(&self, st: &mut State, turn: &PlainTurn<'_>, mv: Move) {
        let Move::Begin { place, .. } = mv else { return self.apply_unchecked(st, mv) };
        if self.ply_marks {
            self.clear_ply_marks(st);
        }
        self.whole_ply(st, turn.plan, place);
    }

    /// Plays `mv` as a whole ply when it starts one in a phase with a `PlyPlan`; false otherwise.
    #[inline(always)]
    pub(crate) fn try_whole_ply(&self, st: &mut State, mv: Move) -> bool {
        let (Stage::Start, Move::Begin { action: 0, place }) = (st.stage, mv) else { return false };
        let phase = st.phase as usize;
        let Some(plan) = self.phases.get(phase).and_then(|p| p.ply_plan.as_ref()) else { return false };
        self.whole_ply(st, plan, place);
        true
    }

    /// A whole ply of a phase with a `PlyPlan`: the sowing of `plain_ply`, then its captures and extra
    /// turn off the plan's tables, then the end of the ply. What the general stages would do, step for step.
    /// Inlined: it is the whole of a ply of most games, and a call costs a tenth of it.
    #[inline(always)]
    fn whole_ply(&self, st: &mut State, plan: &PlyPlan, place: PlaceId) {
        self.sow_planned(st, plan, place);
        let mover = st.to_move;
        let at = mover as usize * plan.places + st.last as usize;
        let cx = Ctx::new(mover).at(st.last);
        let (mut rules, again) = plan.capture_at.get(at).copied().unwrap_or((0, Again::Never));
        while rules != 0 {
            let r = rules.trailing_zeros() as usize;
            rules &= rules - 1;
            let holds = match &plan.residues[r] {
                Some(tests) => tests.hold(self, st, cx),
                None => self.test(st, cx, &self.planned_sow(plan).captures[r].when),
            };
            if !holds {
                continue;
            }
            match &plan.captures[r] {
                Some(fast) => {
                    self.fast_capture(st, &self.planned_sow(plan).captures[r], fast, plan.places);
                    break;
                }
                // The general stages take the ply on from this capture (which may wait for a choice).
                None => return self.capture_from(st, 0, self.planned_sow(plan), r, false),
            }
        }
        st.again = match again {
            Again::Never => false,
            Again::Always => true,
            Again::Test => self.planned_sow(plan).again.as_ref().is_some_and(|c| self.test(st, cx, c)),
        };
        if plan.plain_end && !st.obliged {
            plain_hand_over(st, self.rules.players);
        } else {
            let next = if st.again { Next::Keep } else { Next::Switch };
            if !self.hand_over(st, next, false) {
                return;
            }
        }
        self.begin_planned_turn(st, plan);
    }

    /// The sowing of a whole ply: `sow_plain_lap`, by the plan's words where it has them.
    #[inline(always)]
    fn sow_planned(&self, st: &mut State, plan: &PlyPlan, place: PlaceId) {
        let (Some(words), true) = (&plan.words, plan.plain_lift) else {
            return self.sow_plain_lap(st, plan.dir, place, &plan.tracks, plan.skip_origin);
        };
        let at = st.to_move as usize * plan.places + place as usize;
        let Some(hand) = st.hand.first_mut() else { return };
        let n = hand.saturating_add(std::mem::take(&mut st.counts[place as usize])) as usize;
        *hand = 0;
        let last = match n {
            0 => place,
            n => match words.sow(&mut st.counts, at, n) {
                Some(last) => last,
                None => {
                    // No track from this pit: the general sowing, its pieces back where they were.
                    st.hand[0] = n as u8;
                    return self.sow_plain_lap(st, plan.dir, place, &plan.tracks, plan.skip_origin);
                }
            },
        };
        (st.origin, st.start, st.dir, st.lap, st.diverted) = (place, place, plan.dir, 1, false);
        st.before_sowing = false;
        (st.cursor, st.last, st.stage) = (last, last, Stage::Start);
    }

    /// The sowing of a plan's phase, looked up only where a capture or the extra turn needs it.
    #[inline]
    fn planned_sow(&self, plan: &PlyPlan) -> &Sow {
        match self.rules.phases[plan.phase as usize].actions.first().map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => s,
            _ => unreachable!("a plan is made for a phase whose one action is a sowing"),
        }
    }

    /// `begin_turn` after a ply of a phase with a plan: its end rules off the plan, then the ply limit
    /// and whether the mover can move.
    #[inline(always)]
    fn begin_planned_turn(&self, st: &mut State, plan: &PlyPlan) {
        let (Some(ends), true) = (&plan.ends, st.phase == plan.phase) else {
            return self.begin_turn(st);
        };
        // The first end rules are each tested from a place of their own in the code, so that the branch to
        // the kind of rule there goes the same way at every ply (from one place for all it would go another
        // way at each rule, which a processor predicts badly: three in four of Oware's plies' mispredicted
        // branches were that one); the rest, if any, in a loop.
        let mut rest = ends.as_slice();
        if let [end, more @ ..] = rest {
            if let Some(reason) = self.planned_end(st, end) {
                return self.finish(st, reason);
            }
            rest = more;
        }
        if let [end, more @ ..] = rest {
            if let Some(reason) = self.planned_end(st, end) {
                return self.finish(st, reason);
            }
            rest = more;
        }
        if let [end, more @ ..] = rest {
            if let Some(reason) = self.planned_end(st, end) {
                return self.finish(st, reason);
            }
            rest = more;
        }
        for end in rest {
            if let Some(reason) = self.planned_end(st, end) {
                return self.finish(st, reason);
            }
        }
        // As `begin_turn`: the new move has dropped nothing yet (and there are no marks for one ply: no plan
        // is made where the rules have them, `plan.rs`).
        self.forget_drops(st);
        st.endless = false;
        if st.ply >= plan.limit {
            return self.finish(st, EndReason::Limit);
        }
        // Without an obligation, `check_can_move` comes down to the stuck check, when one is needed.
        let free = plan.must_when_opponent_empty && self.row_holds(st, self.next_active(st, st.to_move));
        if plan.must && !free {
            self.check_can_move(st, true);
        } else if !plan.moves_known && !self.has_any_move(st) {
            self.finish(st, EndReason::Stuck);
        }
    }

    /// Whether an end rule of a plan ends the game now, and why.
    #[inline(always)]
    fn planned_end(&self, st: &mut State, end: &FastEnd) -> Option<EndReason> {
        match end {
            FastEnd::RowEmpty { any: true } => {
                let pits = &self.pit_words;
                pits.iter().any(|p| !p.any(&st.counts)).then_some(EndReason::Condition)
            }
            FastEnd::RowEmpty { any: false } | FastEnd::Stuck => {
                let reason = if matches!(end, FastEnd::Stuck) { EndReason::Stuck } else { EndReason::Condition };
                (!self.row_holds(st, st.to_move)).then_some(reason)
            }
            FastEnd::AnyPlayerPlace(places) => {
                // The set by reference: a copy of its 32 bytes would cost more than the test.
                let pass = |(p, set): &(usize, IntSet)| {
                    st.counts.get(*p).is_some_and(|&n| set.0[(n >> 6) as usize] >> (n & 63) & 1 != 0)
                };
                places.iter().any(pass).then_some(EndReason::Condition)
            }
            FastEnd::AnyPlayerCounts(tests) => {
                let cx = Ctx::new(st.to_move);
                (0..self.rules.players).any(|p| tests.hold(self, st, cx.bound(p))).then_some(EndReason::Condition)
            }
            FastEnd::Repetition { draw, counts } => {
                let seen = match counts {
                    Some(board) => self.seen_before_counts(st, *board),
                    None => self.seen_before(st),
                };
                let reason = if *draw { EndReason::RepetitionDraw } else { EndReason::Repetition };
                seen.then_some(reason)
            }
            FastEnd::When(c) => self.test(st, Ctx::new(st.to_move), c).then_some(EndReason::Condition),
            FastEnd::Rule(rule) => self.end_rule_fires(st, rule),
        }
    }

    /// Whether `player`'s pits hold a piece.
    #[inline(always)]
    fn row_holds(&self, st: &State, player: u8) -> bool {
        self.pit_words.get(player as usize).is_some_and(|p| p.any(&st.counts))
    }

    /// `next_chain_pit`, the chain's condition read off a `FastCapture`'s table. Not inlined: the walk's
    /// state would crowd the registers of captures without a chain.
    #[inline(never)]
    fn tabled_chain_pit(
        &self,
        st: &State,
        chain: &ChainRule,
        (settled, tests): &(Vec<bool>, CountTests),
        places: usize,
        cur: &mut CaptureCursor,
    ) -> Option<PlaceId> {
        let mover = st.to_move;
        self.next_chain_pit_where(st, chain, cur, |p| {
            settled[mover as usize * places + p as usize] && tests.hold(self, st, Ctx::new(mover).at(p))
        })
    }

    /// A capture with a `FastCapture`: `capture_steps` without the choices it cannot have.
    fn fast_capture(&self, st: &mut State, rule: &CaptureRule, fast: &FastCapture, places: usize) {
        let snapshot = rule.cancel.as_ref().filter(|_| !fast.logged).map(|_| Saved::take(st));
        let mut log = rule.cancel.as_ref().filter(|_| fast.logged).map(|_| TakeLog::new());
        let mover = st.to_move;
        let mut cur = CaptureCursor::at(0, st.last);
        loop {
            for take in &fast.takes {
                let t = take[mover as usize * places + cur.here as usize];
                let Some(to) = t.to else { continue };
                for &p in &t.from[..t.len as usize] {
                    if p != to {
                        let (n, held) = (std::mem::take(&mut st.counts[p as usize]), st.counts[to as usize]);
                        st.counts[to as usize] = held.saturating_add(n);
                        st.captured |= n > 0;
                        if let Some(log) = &mut log {
                            log.push((p, to, n, held));
                        }
                    }
                }
            }
            let Some(chain) = &rule.chain else { break };
            let next = match &fast.chain {
                Some(table) => self.tabled_chain_pit(st, chain, table, places, &mut cur),
                None => self.next_chain_pit(st, rule, &mut cur),
            };
            match next {
                Some(p) => cur.here = p,
                None => break,
            }
        }
        if let Some(cancel) = &rule.cancel {
            if self.test(st, Ctx::new(mover).at(st.last), cancel) {
                // By reference: moving the snapshot would copy it, there or not.
                match (&snapshot, &log) {
                    (Some(snapshot), _) => snapshot.restore(st),
                    (None, Some(log)) => log.undo(&mut st.counts),
                    (None, None) => {}
                }
                st.captured = false;
            }
        }
        st.stage = Stage::Start;
    }
}

/// `hand_over` after a whole ply of a plan with `plain_end`, where nobody is obliged and nobody can be taken
/// out: the ply counted, the turn passed unless the mover plays again, the ply's flags cleared.
#[inline(always)]
fn plain_hand_over(st: &mut State, players: u8) {
    let mover = st.to_move;
    st.ply += 1;
    st.stage = Stage::Start;
    st.taken_first = 0;
    st.last_mover = mover;
    if st.captured {
        st.captures += 1;
        if let Some(n) = st.capture_plies.get_mut(mover as usize) {
            *n = n.saturating_add(1);
        }
    }
    if !st.again {
        st.to_move = if mover + 1 >= players { 0 } else { mover + 1 };
    }
    (st.captured, st.again, st.obliged) = (false, false, false);
}
