//! The legal decisions of each stage of a turn, before any look-ahead: the starts of every action, and the
//! options in the middle of a ply (direction, kind to drop, piece to take, pits to select).

use crate::ir::*;

use super::plan::is_plain_start;
use super::{Ctx, Engine, Move, Stage, State};

impl Engine {
    pub(super) fn start_options(&self, st: &State, out: &mut Vec<Move>, with_pass: bool) {
        if matches!(st.stage, Stage::Respond) {
            out.extend([Move::Accept, Move::Decline]);
            return;
        }
        let phase = self.phase(st);
        if self.phase_plan(st).plain_starts && !st.obliged {
            return self.plain_start_list(st, out);
        }
        // Where `prefer` ranks actions in the order they are written, the first ranked action whose list of
        // starts is not empty rules out the later ones as the list is made; otherwise they are found first.
        let in_order = phase.prefer.windows(2).all(|w| w[0] < w[1]);
        let out_ranked = if phase.prefer.is_empty() || in_order { 0 } else { self.preferred_out(st) };
        let ranked = |a: usize| in_order && phase.prefer.contains(&(a as u8));
        let mut kept = false;
        let ruled_out = |a: usize, kept: bool| out_ranked & (1u64 << (a % 64)) != 0 || (kept && ranked(a));
        let simple = self.phase_plan(st).simple && !st.obliged;
        let begin = out.len();
        let mut counts = [0usize; 16];
        let mut skipped = 0u64;
        for (a, action) in phase.actions.iter().enumerate() {
            if ruled_out(a, kept) {
                skipped |= 1 << (a % 64);
                continue;
            }
            let start = out.len();
            self.begins(st, a as u8, action, out);
            if !simple && (self.action_needs_probe(action) || st.obliged) {
                self.retain_completable(st, out, start);
            }
            kept |= ranked(a) && out.len() > start;
            if a < counts.len() {
                counts[a] = out.len() - start;
            }
        }
        if simple {
            return;
        }
        if with_pass {
            if let Some(pass) = &phase.pass {
                // §9.5: `cannot NAME` reads the action's own starts, `prefer` aside: one it ruled out may still
                // start, and then there is no pass.
                let cannot = |a: u8| {
                    counts.get(a as usize).copied().unwrap_or(0) == 0
                        && (skipped & (1 << (a % 64)) == 0 || !self.action_can_start(st, a))
                };
                if pass.unless.iter().all(|&a| cannot(a)) {
                    out.push(Move::Pass);
                }
            }
        }
        debug_assert!(out.len() >= begin);
    }

    pub(super) fn begins(&self, st: &State, a: u8, action: &Action, out: &mut Vec<Move>) {
        self.each_begin(st, a, action, |m| {
            out.push(m);
            true
        });
    }

    /// Calls `emit` with each start of `action` while it returns true; returns false when stopped early.
    pub(super) fn each_begin(&self, st: &State, a: u8, action: &Action, emit: impl FnMut(Move) -> bool) -> bool {
        self.each_begin_for(st, st.to_move, a, action, emit)
    }

    /// `each_begin` as if it were `mover`'s turn.
    pub(super) fn each_begin_for(
        &self,
        st: &State,
        mover: u8,
        a: u8,
        action: &Action,
        mut emit: impl FnMut(Move) -> bool,
    ) -> bool {
        let mut go = true;
        let cx = Ctx::new(mover);
        match &action.kind {
            ActionKind::Sow(Sow { take_first: Some(take), .. }) => {
                self.for_each_in_set(st, cx, &take.from, |p| {
                    if self.take_action_can_start(st, cx, take, p) {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
            ActionKind::Sow(sow) => {
                // The common case, a plain sowing from one's own fixed pits, without evaluating anything.
                if self.fixed_pits.is_some() && self.k == 1 && is_plain_start(sow) {
                    for &p in self.fixed_pits_of(mover) {
                        if st.counts[p as usize] > 0 && !emit(Move::Begin { action: a, place: p }) {
                            return false;
                        }
                    }
                    return true;
                }
                // The same where pits change hands: the mover's pits are those he owns now.
                if self.owned_starts && self.k == 1 && is_plain_start(sow) {
                    return self.each_owned_start(st, mover, a, emit);
                }
                // Ways to check or groups after `else`: the long way, out of the common loop below.
                if sow.ways_checked() || !sow.from_else.is_empty() {
                    // §9.1 `else`: where starts are probed, a group none of whose starts completes into a
                    // legal ply hands over to the next, as `prefer` does to the next action. (Probing plays the
                    // player to move: another player's starts are asked for only where nothing is probed.)
                    if !sow.from_else.is_empty() && mover == st.to_move && (sow.lookahead || st.obliged) {
                        return self.completing_group_starts(st, mover, a, sow, &mut emit);
                    }
                    return self.ranked_sow_starts(st, mover, a, sow, 0, &mut emit).0;
                }
                go = self.sow_pits(st, mover, sow, |p| emit(Move::Begin { action: a, place: p }));
            }
            ActionKind::Take(take) => {
                self.for_each_in_set(st, cx, &take.from, |p| {
                    if self.take_action_can_start(st, cx, take, p) {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
            ActionKind::Put(put) => {
                if !self.put_source_ready(st, cx, put, put.start_needs()) {
                    return true;
                }
                // §9.3: into pits of the set; its other places are never offered.
                self.for_each_in_set(st, cx, &put.into, |p| {
                    if (p as usize) < self.rules.n_pits && self.test(st, cx.at(p), &put.filter) {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
            ActionKind::Offer(offer) => {
                let owned = self.owned_pits(st, mover);
                if owned < offer.keeping.saturating_add(offer.min.max(1)) {
                    return true;
                }
                self.for_each_in_set(st, cx, &offer.from, |p| {
                    if (p as usize) < self.rules.n_pits && st.owner[p as usize] == mover {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
        }
        go
    }

    /// The pits of a sowing's `from` it may start from, by the pits alone (no `else`, no ways checked); returns
    /// false when `emit` stopped early.
    fn sow_pits(&self, st: &State, mover: u8, sow: &Sow, mut emit: impl FnMut(PlaceId) -> bool) -> bool {
        let cx = Ctx::new(mover);
        let own = self.colour_mask(mover);
        let mut go = true;
        self.for_each_in_set(st, cx, &sow.from, |p| {
            if (p as usize) < self.rules.n_pits
                && self.count(st, p) > 0
                && (!sow.last_own || self.count_masked(st, p, own) > 0)
                && (matches!(sow.filter, Cond::True) || self.test(st, cx.at(p), &sow.filter))
            {
                go = emit(p);
            }
            go
        });
        go
    }

    /// The starts of a sowing whose ways are checked (`direction ... where`, `must capture`) or whose `from`
    /// has groups after `else`: the pits of the first group from `first_group` on with any start, each with
    /// a way it may go. Where every first lap is found without sowing (`ways::WayPlan::unsown`), no copy is
    /// made to try them on. Returns false when `emit` stopped early, and the group whose starts it emitted.
    #[inline(never)]
    fn ranked_sow_starts(
        &self,
        st: &State,
        mover: u8,
        a: u8,
        sow: &Sow,
        first_group: usize,
        emit: &mut impl FnMut(Move) -> bool,
    ) -> (bool, Option<usize>) {
        if let Some(plan) = self.unsown_plan(st, a) {
            return self.sow_starts_by(st, mover, sow, a, first_group, emit, |p| {
                Self::ways(sow).iter().any(|&d| self.unsown_way_ok(st, plan, mover, a, sow, p, d))
            });
        }
        self.with_trial(st, mover, a, sow, |trial| {
            self.sow_starts_by(st, mover, sow, a, first_group, emit, |p| {
                self.some_way_ok_in(st, trial, mover, a, sow, p)
            })
        })
    }

    /// The starts of a probed sowing with groups after `else`: those of the first group, by its own rules,
    /// of which one start at least completes into a legal ply (its `require` met, its obligation, a relay
    /// that ends), as `prefer` ranks actions. The group's starts are found on a first pass and played out
    /// after it (not inside the trial of ways), then emitted again in their order.
    #[inline(never)]
    fn completing_group_starts(
        &self,
        st: &State,
        mover: u8,
        a: u8,
        sow: &Sow,
        emit: &mut impl FnMut(Move) -> bool,
    ) -> bool {
        let mut group = 0;
        loop {
            let mut pits: PitSet = 0;
            let (_, used) = self.ranked_sow_starts(st, mover, a, sow, group, &mut |m| {
                if let Move::Begin { place, .. } = m {
                    pits |= pit_bit(place);
                }
                true
            });
            let Some(used) = used else { return true };
            if pits_of(pits).any(|place| self.completable(st, Move::Begin { action: a, place })) {
                return self.ranked_sow_starts(st, mover, a, sow, used, emit).0;
            }
            group = used + 1;
        }
    }

    /// `ranked_sow_starts` with `some_way(pit)` saying whether a pit has a way it may go.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn sow_starts_by(
        &self,
        st: &State,
        mover: u8,
        sow: &Sow,
        a: u8,
        first_group: usize,
        emit: &mut impl FnMut(Move) -> bool,
        mut some_way: impl FnMut(PlaceId) -> bool,
    ) -> (bool, Option<usize>) {
        let cx = Ctx::new(mover);
        let own = self.colour_mask(mover);
        let ways = sow.ways_checked();
        let groups = std::iter::once((&sow.from, &sow.filter)).chain(sow.from_else.iter().map(|(s, f)| (s, f)));
        for (g, (set, filter)) in groups.enumerate().skip(first_group) {
            let (mut any, mut go) = (false, true);
            self.for_each_in_set(st, cx, set, |p| {
                if (p as usize) < self.rules.n_pits
                    && self.count(st, p) > 0
                    && (!sow.last_own || self.count_masked(st, p, own) > 0)
                    && (matches!(filter, Cond::True) || self.test(st, cx.at(p), filter))
                    && (!ways || some_way(p))
                {
                    any = true;
                    go = emit(Move::Begin { action: a, place: p });
                }
                go
            });
            if any || !go {
                return (go, any.then_some(g));
            }
        }
        (true, None)
    }

    /// The starts of a phase of plain starts: the mover's non-empty pits.
    #[inline]
    pub(super) fn plain_start_list(&self, st: &State, out: &mut Vec<Move>) {
        let pits = self.fixed_pits_of(st.to_move);
        out.reserve(pits.len());
        for &place in pits {
            if st.counts[place as usize] > 0 {
                out.push(Move::Begin { action: 0, place });
            }
        }
    }

    /// The options in the middle of a turn, before any probing.
    pub(super) fn mid_options(&self, st: &State, out: &mut Vec<Move>) {
        let mover = st.to_move;
        let cx = Ctx::new(mover);
        match st.stage {
            Stage::Start | Stage::Respond => self.start_options(st, out, true),
            // After the take written first in the sowing: its starts, as it starts without one, read in the
            // position after the take (its groups after `else`, the ways a start may go).
            Stage::SowFrom { action } => {
                let sow = self.sow_rule(st, action);
                if sow.ways_checked() || !sow.from_else.is_empty() {
                    self.ranked_sow_starts(st, mover, action, sow, 0, &mut |m| {
                        if let Move::Begin { place, .. } = m {
                            out.push(Move::Pick(place));
                        }
                        true
                    });
                } else {
                    self.sow_pits(st, mover, sow, |p| {
                        out.push(Move::Pick(p));
                        true
                    });
                }
            }
            Stage::Direction { action } => {
                let sow = self.sow_rule(st, action);
                for dir in [Dir::Ccw, Dir::Cw] {
                    if !sow.ways_checked() || self.way_ok(st, mover, action, sow, st.origin, dir) {
                        out.push(Move::Direction(dir));
                    }
                }
            }
            // The usual way first: the rule's own order.
            Stage::LapDirection { action } => {
                let usual = match self.sow_rule(st, action).dir {
                    DirRule::PerLap(usual) => usual,
                    _ => Dir::Ccw,
                };
                out.extend([Move::Direction(usual), Move::Direction(usual.reverse())]);
            }
            Stage::Drop { action } => {
                let mask = self.drop_mask(st, self.sow_rule(st, action));
                out.extend((0..self.k as u8).filter(|k| mask & (1 << k) != 0).map(Move::Drop));
            }
            Stage::Take { action, cursor } => {
                let take = &self.sow_rule(st, action).captures[cursor.rule as usize].takes[cursor.take as usize];
                self.take_options(st, cx.at(cursor.here), take, cursor.min_choice, out);
            }
            Stage::Then { action, from } => {
                let then = self.sow_rule(st, action).then.as_ref();
                if let Some(then) = then {
                    // In the set, `here` is the last place, as when the take must be made.
                    let cx = cx.at(st.last);
                    let mask = self.kind_mask(st, cx, &then.kinds);
                    self.for_each_in_set(st, cx, &then.set, |p| {
                        if p >= from && self.count_masked(st, p, mask) > 0 && self.test(st, cx.at(p), &then.filter) {
                            out.push(Move::Pick(p));
                        }
                        true
                    });
                }
                out.push(Move::Stop);
            }
            Stage::Put { action, done, from } => {
                let ActionKind::Put(put) = &self.phase(st).actions[action as usize].kind else {
                    return;
                };
                let more = put.max_times.is_none_or(|m| (done as u32) < m);
                if more && self.put_source_ready(st, cx, put, put.count) {
                    self.for_each_in_set(st, cx, &put.into, |p| {
                        if p >= from && (p as usize) < self.rules.n_pits && self.test(st, cx.at(p), &put.filter) {
                            out.push(Move::Pick(p));
                        }
                        true
                    });
                }
                if done as u32 >= put.min_times {
                    out.push(Move::Stop);
                }
            }
            // Before a lap is lifted: the pits the capture at every lift may take from, its set read at the pit
            // about to be lifted.
            Stage::LiftPick { action, rule, .. } => {
                if let Some(take) = &self.sow_rule(st, action).lift_captures[rule as usize].pick {
                    self.pick_pits(st, st.origin, take, |p| {
                        out.push(Move::Pick(p));
                        true
                    });
                }
            }
            Stage::Capture { .. } => out.extend([Move::Capture(true), Move::Capture(false)]),
            Stage::Relay { .. } => out.extend([Move::Relay(true), Move::Relay(false)]),
            // An answer that takes from a chosen pit: each pit it may take from, or none.
            Stage::Answer { action, rule } => match &self.sow_rule(st, action).answers[rule as usize].pick {
                Some(take) => {
                    self.pick_pits(st, st.last, take, |p| {
                        out.push(Move::Pick(p));
                        true
                    });
                    out.push(Move::Answer(false));
                }
                None => out.extend([Move::Answer(true), Move::Answer(false)]),
            },
            Stage::Offer { action, from } => {
                let ActionKind::Offer(offer) = &self.phase(st).actions[action as usize].kind else {
                    return;
                };
                self.offer_candidates(st, offer, from, |p| out.push(Move::Pick(p)));
                if self.offer_can_stop(st, offer) {
                    out.push(Move::Stop);
                }
            }
        }
    }
}
