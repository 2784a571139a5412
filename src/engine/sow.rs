//! Sowing: lifting, dropping piece by piece or in one go (`plain_ply`, the fast path of plain games),
//! choosing the kind to drop, relay laps and their cycle check, and the `require` of a finished sowing.

use crate::ir::*;

use super::fast::Tracks;
use super::{hash_parts, CaptureCursor, Ctx, Engine, Next, Stage, State, ENDLESS_LAPS, MAX_RELAY_LAPS};

/// What the end of a lap leads to (`Engine::next_lap`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LapEnd {
    /// The sowing is over, or paused for a choice.
    Over,
    /// A new lap is in hand.
    NewLap,
    /// A new lap is in hand whose direction a capture wrote (`sow from PLACE cw`): a direction per lap does
    /// not ask for it.
    DirectedLap,
    /// A capture said `continue at`: the lap ends again at the place it named (`last`).
    EndsAgain,
}

/// Where `run_laps` takes up a sowing of laps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum LapAt {
    /// A lap has just been sown: decide what its end does.
    Ended,
    /// The pieces of a new lap are in hand, its origin set.
    Started,
    /// The same, its direction set by the capture that sows it (`LapEnd::DirectedLap`).
    Directed,
    /// A capture said `continue at`: the lap ends again at `last`, as if its last piece had fallen there.
    EndsAgain,
}

impl Engine {
    /// The sowing rules of an action; the stages that call this only exist for sowing actions.
    pub(super) fn sow_rule(&self, st: &State, action: u8) -> &Sow {
        match self.phase(st).actions.get(action as usize).map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => s,
            _ => unreachable!("a sowing stage always belongs to a sowing action"),
        }
    }

    /// The kinds the mover may drop next, as bits (with one bit set, the drop is forced).
    pub fn drop_mask(&self, st: &State, sow: &Sow) -> KindMask {
        let mut mask = 0u64;
        let mut total = 0u32;
        for k in 0..self.k {
            if st.hand[k] > 0 {
                mask |= 1 << k;
                total += st.hand[k] as u32;
            }
        }
        if sow.last_own {
            let own = self.colour_mask(st.to_move);
            if total == 1 {
                mask &= own;
            } else {
                // Keep one piece of his own colour for last.
                for k in 0..self.k {
                    if own & (1 << k) != 0 && st.hand[k] == 1 && (own & mask).count_ones() == 1 {
                        mask &= !(1 << k);
                    }
                }
            }
        }
        mask
    }

    /// The one lap of a plain sowing from `place` going `dir`, by arithmetic over the phase's `tracks`, with
    /// the state left as at the end of any lap; `plain_ply` and `whole_ply` go on from there.
    #[inline(always)]
    pub(super) fn sow_plain_lap(&self, st: &mut State, dir: Dir, place: PlaceId, tracks: &Tracks, skip_origin: bool) {
        st.origin = place;
        st.start = place;
        st.before_sowing = false;
        st.dir = dir;
        st.cursor = place;
        st.lap = 1;
        st.diverted = false;
        self.lift(st, place);
        self.sow_laps(st, tracks, skip_origin);
        st.last = st.cursor;
        st.stage = Stage::Start;
    }

    /// A ply of a `plain_sow` phase: the sowing of `begin` .. `after_sow` without the checks for what such a
    /// sowing cannot have; captures and what follows take the general road.
    pub(super) fn plain_ply(&self, st: &mut State, dir: Dir, place: PlaceId, probe: bool) {
        let sow = self.sow_rule(st, 0);
        self.sow_plain_lap(st, dir, place, &self.phase_plan(st).tracks, sow.skip_origin);
        self.capture_after_sow(st, 0, sow, probe);
    }

    pub(super) fn start_sow(&self, st: &mut State, action: u8, dir: Dir, probe: bool) {
        st.dir = dir;
        if !self.lift_origin(st, action) {
            return;
        }
        if self.lap_log.is_some() && !probe {
            self.keep_lift(false);
        }
        self.continue_sow(st, action, probe);
    }

    /// The first lap of a sowing: its pieces lifted from `origin`, this move's records of drops cleared.
    /// Returns false when it paused before the lift, for the mover to choose the pit of a capture at every
    /// lift (`Stage::LiftPick`).
    pub(super) fn lift_origin(&self, st: &mut State, action: u8) -> bool {
        st.cursor = st.origin;
        st.lap = 1;
        st.diverted = false;
        if self.rules.needs.drops {
            st.dropped.fill(NO_KIND);
        }
        let sow = self.sow_rule(st, action);
        if !sow.lift_captures.is_empty() && self.capture_at_lift(st, sow, st.origin) {
            return false;
        }
        self.lift_rest(st, sow, st.origin, RuleRef::Action { phase: st.phase, action });
        true
    }

    /// The lift of a lap from `pit`, once the captures at every lift are made: its pieces, the sowing's own
    /// marks, the start of the lap. `rule`: what lifts it (the action, a relay), for the trace.
    #[inline(always)]
    fn lift_rest(&self, st: &mut State, sow: &Sow, pit: PlaceId, rule: RuleRef) {
        let lift = self.trace.is_some().then(|| self.lift_event(st, sow, pit, rule));
        self.lift_lap(st, sow, pit);
        if let Some(lift) = lift {
            self.note(st, lift);
        }
        self.lift_marks(st, sow);
        self.start_lap(st, sow);
    }

    /// The mover's pit for the capture at every lift `rule` (`take { ... }` in it), the lap about to be
    /// lifted from `origin`: its pieces go to the take's place (`here` the chosen pit), then the lap is lifted
    /// and sown as usual, the laps decided one by one.
    pub(super) fn lift_pick(&self, st: &mut State, action: u8, rule: u8, pit: PlaceId, chosen: bool, probe: bool) {
        st.stage = Stage::Start;
        let sow = self.sow_rule(st, action);
        let Some(take) = &sow.lift_captures[rule as usize].pick else {
            st.illegal = true;
            return;
        };
        let origin = st.origin;
        st.recording = self.record_first && !st.captured;
        self.take_action(st, take, pit);
        st.recording = false;
        st.captured = true;
        if self.trace.is_some() {
            let traced = RuleRef::LiftCapture { phase: st.phase, action, index: rule };
            self.note(st, super::Event::Capture { rule: traced, at: origin });
        }
        let by = if st.lap <= 1 {
            RuleRef::Action { phase: st.phase, action }
        } else if chosen {
            RuleRef::RelayMay { phase: st.phase, action }
        } else {
            RuleRef::Relay { phase: st.phase, action }
        };
        self.lift_rest(st, sow, origin, by);
        if self.lap_log.is_some() && !probe {
            self.keep_lift(chosen);
        }
        self.run_laps(st, action, LapAt::Started, probe);
    }

    /// The first lap of a sowing with a direction per lap: lifted, then sown the usual way unless the mover
    /// may choose.
    pub(super) fn start_lap_sow(&self, st: &mut State, action: u8, usual: Dir, probe: bool) {
        if !self.lift_origin(st, action) {
            return;
        }
        if self.lap_log.is_some() && !probe {
            self.keep_lift(false);
        }
        if !self.ask_lap_direction(st, action, usual) {
            self.continue_sow(st, action, probe);
        }
    }

    /// Before a lap with a direction per lap: pauses for the mover's choice (returns true) where the lap may
    /// go the other way, and sets the usual direction otherwise.
    fn ask_lap_direction(&self, st: &mut State, action: u8, usual: Dir) -> bool {
        if self.may_turn_in_place(st, action, usual) {
            st.stage = Stage::LapDirection { action };
            return true;
        }
        st.dir = usual;
        false
    }

    /// `may_turn`, tried on the state itself and put back, without the copy's allocations: the lap changes
    /// only the pieces (on the board and in hand), the records of drops and the sowing's position, which are
    /// saved on the stack first. On a board too large for that, on a copy.
    fn may_turn_in_place(&self, st: &mut State, action: u8, usual: Dir) -> bool {
        let sow = self.sow_rule(st, action);
        if sow.lap_dir.is_none() {
            return false;
        }
        // What the lap cannot change is looked at first: false, the lap goes the usual way untried.
        let gate = self.phase_plan(st).actions.get(action as usize).and_then(|a| a.lap_gate.as_ref());
        if gate.is_some_and(|gate| !self.cond(st, Ctx::new(st.to_move), gate)) {
            return false;
        }
        let (b, d) = (st.before.len(), st.dropped.len());
        if st.hand.len() > 64 || b > 128 || d > 128 {
            return self.may_turn(st, action, usual);
        }
        let noted = self.trace.is_some().then(|| self.steps_noted());
        let board = super::fast::Saved::take(st);
        let mut hand = [0u8; 64];
        hand[..st.hand.len()].copy_from_slice(&st.hand);
        // The records of drops, where kept (`Needs::drops`; empty otherwise).
        let (mut before, mut dropped) = ([0u8; 128], [0u8; 128]);
        before[..b].copy_from_slice(&st.before);
        dropped[..d].copy_from_slice(&st.dropped);
        let (dir, cursor, last, diverted, at_origin, stage) =
            (st.dir, st.cursor, st.last, st.diverted, st.at_origin, st.stage);
        let turns = self.may_turn_here(st, action, usual);
        board.restore(st);
        let k = st.hand.len();
        st.hand.copy_from_slice(&hand[..k]);
        st.before.copy_from_slice(&before[..b]);
        st.dropped.copy_from_slice(&dropped[..d]);
        (st.dir, st.cursor, st.last, st.diverted, st.at_origin, st.stage) =
            (dir, cursor, last, diverted, at_origin, stage);
        if let Some(noted) = noted {
            self.forget_since(noted);
        }
        turns
    }

    /// Whether the lap whose pieces are in hand may go the other way: its condition holds at the end of the
    /// lap sown so (tried on a copy).
    #[cold]
    fn may_turn(&self, st: &State, action: u8, usual: Dir) -> bool {
        let mut trial = st.probe_copy();
        self.may_turn_here(&mut trial, action, usual)
    }

    /// The lap in hand sown the other way in `trial` itself, and whether the lap's condition then holds.
    fn may_turn_here(&self, trial: &mut State, action: u8, usual: Dir) -> bool {
        let sow = self.sow_rule(trial, action);
        let Some(when) = &sow.lap_dir else { return false };
        trial.dir = usual.reverse();
        // `check` refuses `order choose` here, so the drops never pause.
        if !self.drop_hand(trial, action, sow) {
            return false;
        }
        trial.last = trial.cursor;
        !trial.diverted && self.test(trial, Ctx::new(trial.to_move).at(trial.last), when)
    }

    /// The start of a lap, once its pieces are lifted from `cursor`: `lifted`, and whether the first piece
    /// goes back into that pit (`start at origin`).
    #[inline]
    pub(super) fn start_lap(&self, st: &mut State, sow: &Sow) {
        if let Some(cond) = &sow.start_origin {
            st.lifted = st.hand.iter().fold(0u8, |n, &h| n.saturating_add(h));
            st.at_origin = self.test(st, Ctx::new(st.to_move).at(st.cursor), cond);
        }
    }

    /// The sowing's own `mark` and `unmark`, made as a lap is lifted from `st.origin`.
    #[inline]
    fn lift_marks(&self, st: &mut State, sow: &Sow) {
        let cx = Ctx::new(st.to_move).at(st.origin);
        for step in &sow.lift_steps {
            self.apply_step(st, cx, step);
        }
    }

    #[inline]
    pub(super) fn lift(&self, st: &mut State, p: PlaceId) {
        if !self.empty_marks.is_empty() {
            self.lift_all(st, p);
            return self.emptied(st, p);
        }
        self.lift_all(st, p);
    }

    #[inline]
    fn lift_all(&self, st: &mut State, p: PlaceId) {
        if self.k == 1 {
            st.hand[0] = st.hand[0].saturating_add(std::mem::take(&mut st.counts[p as usize]));
            return;
        }
        let base = p as usize * self.k;
        for k in 0..self.k {
            st.hand[k] = st.hand[k].saturating_add(st.counts[base + k]);
            st.counts[base + k] = 0;
        }
    }

    /// Lifts the pieces of a lap about to start from pit `p` (its lap number set): all of them, or what the
    /// first `lift` rule whose condition holds there says.
    #[inline(always)]
    pub(super) fn lift_lap(&self, st: &mut State, sow: &Sow, p: PlaceId) {
        if self.lap_log.is_some() {
            return self.logged_lift(st, sow, p);
        }
        if sow.lifts.is_empty() {
            return self.lift(st, p);
        }
        self.lift_by_rule(st, sow, p);
    }

    /// `lift_lap` for the narration's engine, which writes down what each lap lifted.
    #[cold]
    fn logged_lift(&self, st: &mut State, sow: &Sow, p: PlaceId) {
        let (hand, counts) = (st.hand.clone(), st.counts.clone());
        if sow.lifts.is_empty() {
            self.lift(st, p);
        } else {
            self.lift_by_rule(st, sow, p);
        }
        self.log_lift(st, p, &hand, &counts);
    }

    #[cold]
    fn lift_by_rule(&self, st: &mut State, sow: &Sow, p: PlaceId) {
        let cx = Ctx::new(st.to_move).at(p);
        let Some(rule) = sow.lifts.iter().find(|l| self.test(st, cx, &l.when)) else {
            return self.lift(st, p);
        };
        let from = rule.from.as_ref().and_then(|place| self.place(st, cx, place)).unwrap_or(p);
        let mut left = rule.count.min(u8::MAX as u32) as u8;
        for k in 0..self.k {
            let i = from as usize * self.k + k;
            let n = st.counts[i].min(left);
            st.counts[i] -= n;
            st.hand[k] = st.hand[k].saturating_add(n);
            left -= n;
        }
        // §9.1 `lift`: a move moves at least one piece, so a first lap that lifts nothing (its place empty),
        // after no capture as it was lifted nor a take before the sowing, makes no move. Such a sowing is
        // probed (`Sow::lookahead`), so the start is not offered.
        if st.lap <= 1 && left == rule.count.min(u8::MAX as u32) as u8 && !st.captured && sow.take_first.is_none() {
            st.illegal = true;
        }
        if !self.empty_marks.is_empty() {
            self.emptied(st, from);
        }
    }

    /// A relay: the pieces of `pit` (the last pit, or with `relay from next` the one after it) lifted as the
    /// next lap, whose origin it is (what `skip origin` skips). Returns false when it paused before the lift,
    /// for the mover to choose the pit of a capture at every lift (`Stage::LiftPick`).
    #[inline(always)]
    fn relay_from(&self, st: &mut State, sow: &Sow, pit: PlaceId) -> bool {
        st.origin = pit;
        st.cursor = pit;
        st.lap = st.lap.saturating_add(1);
        if !sow.lift_captures.is_empty() && self.capture_at_lift(st, sow, pit) {
            return false;
        }
        let relay = if self.trace.is_some() {
            RuleRef::Relay { phase: st.phase, action: self.action_of(st, sow) }
        } else {
            RuleRef::Relay { phase: st.phase, action: 0 }
        };
        self.lift_rest(st, sow, pit, relay);
        true
    }

    /// The mover's answer to an optional relay (`relay may`): relay, or else the sowing's usual relay if it
    /// holds, or the end of the sowing.
    pub(super) fn answer_relay(&self, st: &mut State, action: u8, relay: bool, probe: bool) {
        st.stage = Stage::Start;
        let sow = self.sow_rule(st, action);
        let cx = Ctx::new(st.to_move).at(st.last);
        let pit = if relay { Some(st.last) } else { self.relay_pit(st, cx, sow) };
        if let Some(pit) = pit {
            if self.trace.is_some() {
                let (phase, action) = (st.phase, action);
                let rule = if relay { RuleRef::RelayMay { phase, action } } else { RuleRef::Relay { phase, action } };
                self.note(st, super::Event::Relay { rule, pit });
            }
            if !self.relay_from(st, sow, pit) {
                // Paused for the pit chosen before the lift: the chosen relay is told as one once lifted.
                if let Stage::LiftPick { chosen, .. } = &mut st.stage {
                    *chosen = relay;
                }
                return;
            }
            if self.lap_log.is_some() && !probe {
                self.keep_lift(relay);
            }
            return self.run_laps(st, action, LapAt::Started, probe);
        }
        self.check_require(st, sow);
        self.after_capture(st, action, sow, probe);
    }

    /// Drops the pieces in hand, pausing where the mover chooses a kind; then the end of the lap.
    pub(super) fn continue_sow(&self, st: &mut State, action: u8, probe: bool) {
        let sow = self.sow_rule(st, action);
        if !self.drop_hand(st, action, sow) {
            return;
        }
        st.last = st.cursor;
        if sow.laps {
            return self.run_laps(st, action, LapAt::Ended, probe);
        }
        self.after_sow(st, action, probe);
    }

    /// The laps of a sowing that can have more than one, from `at` on. At the end of each lap: the first
    /// capture whose condition holds applies, and if it sows its pieces on (`sow from`), they are sown as a
    /// new lap, else the sowing is over; otherwise a relay lifts the last pit and sows on; otherwise the
    /// sowing is over. Each new lap may first ask the mover for its direction. Returns when the sowing is
    /// over or paused for a choice.
    ///
    /// A sowing of laps is a walk through positions, each decided by the one before until a choice; one that
    /// comes back to a position would go round for ever. Brent's cycle finding notices the return without
    /// remembering every position: it keeps the key of the position at the last power of two laps and
    /// compares each new one with it, so a loop is found within a few times its length, in constant memory.
    /// Where a never-ending sowing is only ruled out, the walk is looked at from its `UNCHECKED_LAPS`th lap
    /// on: the loop is found all the same, and the many short sowings are never hashed.
    #[cold]
    pub(super) fn run_laps(&self, st: &mut State, action: u8, mut at: LapAt, probe: bool) {
        let sow = self.sow_rule(st, action);
        let played = self.phase_plan(st).endless_played;
        let cap = if played { ENDLESS_LAPS } else { MAX_RELAY_LAPS };
        // A sowing that comes back to a position goes round for ever, so its cycle is found after its first
        // laps as well as from its first. Where such a sowing is only ruled out (not played, and cut where
        // the cycle is found), the first laps are not looked at: most sowings end within them.
        let unchecked = if played { 0 } else { UNCHECKED_LAPS };
        let (mut mark, mut power, mut since, mut steps) = (None, 1u32, 0u32, 0u32);
        loop {
            let mut end = if at == LapAt::Directed { LapEnd::DirectedLap } else { LapEnd::NewLap };
            if !matches!(at, LapAt::Started | LapAt::Directed) {
                if self.lap_log.is_some() && !probe {
                    self.log_lap(st, false, at == LapAt::EndsAgain);
                }
                end = self.next_lap(st, action, sow, probe);
                if end == LapEnd::Over {
                    return;
                }
            }
            at = LapAt::Ended;
            // A lap that ends again elsewhere (`continue at`) is a step of the walk as a new lap is (whose
            // number the relay or resowing has counted), so the same cycle check and cap keep it from going on
            // for ever.
            steps = steps.saturating_add(1);
            if st.lap > cap || steps > cap {
                return self.endless(st, probe);
            }
            if steps > unchecked {
                let key = lap_key(st);
                if mark == Some(key) {
                    return self.endless(st, probe);
                }
                since += 1;
                if since == power {
                    (mark, power, since) = (Some(key), power.saturating_mul(2), 0);
                }
            }
            if end == LapEnd::EndsAgain {
                at = LapAt::EndsAgain;
                continue;
            }
            // The direction a capture wrote for the lap of its pieces wins over a direction per lap.
            if let (DirRule::PerLap(usual), false) = (sow.dir, end == LapEnd::DirectedLap) {
                if self.ask_lap_direction(st, action, usual) {
                    return;
                }
            }
            if !self.drop_hand(st, action, sow) {
                return;
            }
            st.last = st.cursor;
        }
    }

    /// The end of a lap in a sowing of laps: a new lap in hand, the lap ending again elsewhere (`continue
    /// at`), or the sowing over (what follows it done) or paused for a choice.
    fn next_lap(&self, st: &mut State, action: u8, sow: &Sow, probe: bool) -> LapEnd {
        if self.phase_plan(st).lap_ends() && self.ends_at_lap(st, probe) {
            return LapEnd::Over;
        }
        // A diverted last piece triggers nothing: no capture, no relay.
        if st.diverted {
            self.after_sow(st, action, probe);
            return LapEnd::Over;
        }
        self.lap_end_from(st, action, sow, 0, probe)
    }

    /// The end of a lap, its captures tried from rule number `first` on: the first whose condition holds is
    /// made (an optional one, `capture may`, waits for the mover's answer, and declined, the rules after it
    /// are tried, `Engine::answer_lap_capture`); else a relay (an optional one waits too); else the sowing is
    /// over.
    pub(super) fn lap_end_from(&self, st: &mut State, action: u8, sow: &Sow, first: usize, probe: bool) -> LapEnd {
        let cx = Ctx::new(st.to_move).at(st.last);
        if let Some(r) = sow.captures.iter().skip(first).position(|c| self.test(st, cx, &c.when)) {
            let r = (r + first) as u8;
            if sow.captures[r as usize].may {
                st.stage = Stage::Capture { action, rule: r };
                return LapEnd::Over;
            }
            return self.lap_capture(st, action, sow, r, probe);
        }
        if !sow.answers.is_empty() {
            return self.lap_end_answers(st, action, sow, 0, probe);
        }
        self.lap_end_relays(st, action, sow, probe)
    }

    /// Where a lap ends without a capture, the opponent's answers tried from rule number `first` on: the
    /// first whose condition holds waits for his choice (`Stage::Answer`); else the relays.
    fn lap_end_answers(&self, st: &mut State, action: u8, sow: &Sow, first: usize, probe: bool) -> LapEnd {
        // An answer that takes from a chosen pit is offered only where some pit qualifies.
        if let Some(r) = sow.answers.iter().skip(first).position(|a| self.holds_at(st, a, st.last)) {
            st.stage = Stage::Answer { action, rule: (r + first) as u8 };
            return LapEnd::Over;
        }
        self.lap_end_relays(st, action, sow, probe)
    }

    /// The opponent's choice of answer `rule`: made (its takes, marks and gifts at the last place, `mover`
    /// still the player making the move), or declined (the answers after it are tried); then the move goes
    /// on with the relays of the lap's end.
    pub(super) fn opponents_answer(&self, st: &mut State, action: u8, rule: u8, make: bool, probe: bool) {
        st.stage = Stage::Start;
        let sow = self.sow_rule(st, action);
        let end = if make {
            let answer = &sow.answers[rule as usize];
            let cx = Ctx::new(st.to_move).at(st.last);
            if self.trace.is_some() {
                let traced = RuleRef::Answer { phase: st.phase, action, index: rule };
                self.note(st, super::Event::Answer { rule: traced, at: st.last, pit: None });
            }
            for (i, take) in answer.takes.iter().enumerate() {
                if !answer.steps.is_empty() {
                    self.apply_steps(st, cx, answer, i as u8);
                }
                self.take_all(st, cx, take);
            }
            if !answer.steps.is_empty() {
                self.apply_steps(st, cx, answer, answer.takes.len() as u8);
            }
            self.lap_end_relays(st, action, sow, probe)
        } else {
            self.lap_end_answers(st, action, sow, rule as usize + 1, probe)
        };
        self.laps_after(st, action, end, probe);
    }

    /// The opponent's answer `rule` made at the pit he chose (`take { ... }` in `opponent may`): its pieces go
    /// to the take's place (`here` the pit, `last` still the lap's last place, `mover` the player making the
    /// move); then the move goes on with the relays of the lap's end.
    pub(super) fn opponents_pick(&self, st: &mut State, action: u8, rule: u8, pit: PlaceId, probe: bool) {
        st.stage = Stage::Start;
        let sow = self.sow_rule(st, action);
        let Some(take) = &sow.answers[rule as usize].pick else {
            st.illegal = true;
            return;
        };
        if self.trace.is_some() {
            let traced = RuleRef::Answer { phase: st.phase, action, index: rule };
            self.note(st, super::Event::Answer { rule: traced, at: st.last, pit: Some(pit) });
        }
        self.take_action(st, take, pit);
        let end = self.lap_end_relays(st, action, sow, probe);
        self.laps_after(st, action, end, probe);
    }

    /// Whether a capture at every lift or an answer applies at `at`: its condition holds there and, where it
    /// takes from a chosen pit, some pit qualifies.
    fn holds_at(&self, st: &State, rule: &CaptureRule, at: PlaceId) -> bool {
        self.test(st, Ctx::new(st.to_move).at(at), &rule.when)
            && rule.pick.as_ref().is_none_or(|t| !self.pick_pits(st, at, t, |_| false))
    }

    /// Calls `emit` with each pit a take of a chosen pit in a capture or an answer may take from, its set read
    /// with `here` at `at`, while `emit` returns true; returns false when stopped early.
    pub(super) fn pick_pits(
        &self,
        st: &State,
        at: PlaceId,
        take: &TakeAction,
        mut emit: impl FnMut(PlaceId) -> bool,
    ) -> bool {
        let cx = Ctx::new(st.to_move);
        let mut go = true;
        self.for_each_in_set(st, cx.at(at), &take.from, |p| {
            if self.take_action_can_start(st, cx, take, p) {
                go = emit(p);
            }
            go
        });
        go
    }

    /// The relays of a lap's end: an optional one waits for the mover's choice; else a relay, or the end of
    /// the sowing.
    fn lap_end_relays(&self, st: &mut State, action: u8, sow: &Sow, probe: bool) -> LapEnd {
        let cx = Ctx::new(st.to_move).at(st.last);
        if (st.last as usize) < self.rules.n_pits && sow.relay_may.as_ref().is_some_and(|r| self.test(st, cx, r)) {
            st.stage = Stage::Relay { action };
            return LapEnd::Over;
        }
        if let Some(pit) = self.relay_pit(st, cx, sow) {
            if self.trace.is_some() {
                self.note(st, super::Event::Relay { rule: RuleRef::Relay { phase: st.phase, action }, pit });
            }
            if !self.relay_from(st, sow, pit) {
                return LapEnd::Over;
            }
            if self.lap_log.is_some() && !probe {
                self.keep_lift(false);
            }
            return LapEnd::NewLap;
        }
        self.check_require(st, sow);
        self.after_capture(st, action, sow, probe);
        LapEnd::Over
    }

    /// Capture `rule` made at the end of a lap, and what follows it.
    fn lap_capture(&self, st: &mut State, action: u8, sow: &Sow, rule: u8, probe: bool) -> LapEnd {
        if !goes_on(sow, rule) {
            self.check_require(st, sow);
        }
        if !self.capture_steps(st, action, CaptureCursor::at(rule, st.last)) {
            return LapEnd::Over;
        }
        self.after_lap_capture(st, action, sow, rule, probe)
    }

    /// What follows capture `rule`, done at the end of a lap: a new lap of its pieces (`sow from`), the lap
    /// ending again elsewhere (`continue at`), or the end of the sowing. `require` is checked before a
    /// capture that ends the sowing, and after one that would have gone on but has nothing to go on with.
    pub(super) fn after_lap_capture(&self, st: &mut State, action: u8, sow: &Sow, rule: u8, probe: bool) -> LapEnd {
        if self.lap_log.is_some() && !probe {
            self.log_lap(st, true, false);
        }
        if let Some(end) = self.go_on_after_capture(st, sow, rule) {
            return end;
        }
        if goes_on(sow, rule) {
            self.check_require(st, sow);
        }
        self.after_capture(st, action, sow, probe);
        LapEnd::Over
    }

    /// The mover's answer to an optional capture at the end of a lap: made, or declined (the captures after
    /// it, then the relay, are tried); then the laps go on.
    pub(super) fn answer_lap_capture(&self, st: &mut State, action: u8, rule: u8, make: bool, probe: bool) {
        let sow = self.sow_rule(st, action);
        let end = if make {
            self.lap_capture(st, action, sow, rule, probe)
        } else {
            self.lap_end_from(st, action, sow, rule as usize + 1, probe)
        };
        self.laps_after(st, action, end, probe);
    }

    /// The laps go on from a lap's end decided outside `run_laps` (after a choice).
    pub(super) fn laps_after(&self, st: &mut State, action: u8, end: LapEnd, probe: bool) {
        match end {
            LapEnd::NewLap => self.run_laps(st, action, LapAt::Started, probe),
            LapEnd::DirectedLap => self.run_laps(st, action, LapAt::Directed, probe),
            LapEnd::EndsAgain => self.run_laps(st, action, LapAt::EndsAgain, probe),
            LapEnd::Over => {}
        }
    }

    /// How the lap goes on after capture `rule`: a new lap of the pieces it took (`sow from`; directed when
    /// the capture writes its way), the lap ending again at another place (`continue at`), or `None` when the
    /// sowing is over.
    pub(super) fn go_on_after_capture(&self, st: &mut State, sow: &Sow, rule: u8) -> Option<LapEnd> {
        if self.start_resow(st, sow, rule) {
            let directed = sow.captures[rule as usize].resow_dir.is_some();
            return Some(if directed { LapEnd::DirectedLap } else { LapEnd::NewLap });
        }
        let at = sow.captures[rule as usize].go_on.as_ref()?;
        let at = self.place(st, Ctx::new(st.to_move).at(st.last), at)?;
        st.last = at;
        st.cursor = at;
        if self.trace.is_some() {
            self.note(st, super::Event::ContinueAt { at });
        }
        Some(LapEnd::EndsAgain)
    }

    /// The pit a relay lifts at the end of a lap, if it relays: the last pit, or with `relay from next` the
    /// place after it; only a pit that holds pieces (a piece taken as it fell leaves nothing to lift). A lap
    /// that ends in a store never relays, of either kind: the sowing ends there.
    #[inline]
    pub(super) fn relay_pit(&self, st: &State, cx: Ctx, sow: &Sow) -> Option<PlaceId> {
        let cond = sow.relay.as_ref()?;
        if st.last as usize >= self.rules.n_pits {
            return None;
        }
        let pit = if sow.relay_next {
            self.next_place(st, st.to_move, st.last, sow.skip_origin, sow.skip_marks)?
        } else {
            st.last
        };
        let holds = (pit as usize) < self.rules.n_pits && self.count(st, pit) > 0;
        (holds && self.test(st, cx, cond)).then_some(pit)
    }

    /// After capture `rule` took its pieces to the hand: when it sows them (`sow from`) and took any, they
    /// become a new lap from its place. Returns whether a lap is in hand.
    pub(super) fn start_resow(&self, st: &mut State, sow: &Sow, rule: u8) -> bool {
        let capture = &sow.captures[rule as usize];
        let Some(from) = &capture.resow else { return false };
        if st.hand.iter().all(|&n| n == 0) {
            return false;
        }
        let Some(from) = self.place(st, Ctx::new(st.to_move).at(st.last), from) else { return false };
        st.origin = from;
        st.cursor = from;
        st.lap = st.lap.saturating_add(1);
        if let Some(dir) = capture.resow_dir {
            st.dir = dir;
        }
        // A capture's pieces are not lifted from a pit, so `start at origin` has no say here: `sow into`
        // puts the first piece into the place itself, `sow from` into the place after it.
        st.at_origin = capture.resow_into;
        if self.trace.is_some() {
            self.note(st, super::Event::Resow { from });
        }
        true
    }

    /// The end rules tested at every lap (`when ... at every lap`), at the end of a lap: when one holds,
    /// the move stops there and the game is over. Returns whether it did.
    #[cold]
    fn ends_at_lap(&self, st: &mut State, probe: bool) -> bool {
        let mover = st.to_move;
        if !self.lap_end_holds(st) {
            return false;
        }
        if self.trace.is_some() {
            self.note_lap_end(st);
        }
        // A move that ends the game must still meet the mover's obligation (BAO-11: the capture a takasia
        // obliges is of the pit the move captures first, even when that move wins).
        self.check_obligation_met(st);
        st.stage = Stage::Start;
        st.ply += 1;
        if probe {
            return true;
        }
        st.last_mover = mover;
        if st.captured {
            st.captures += 1;
            if let Some(n) = st.capture_plies.get_mut(mover as usize) {
                *n = n.saturating_add(1);
            }
        }
        self.finish(st, super::EndReason::Condition);
        true
    }

    /// A sowing that would never end (it came back to a position, or passed the lap cap). The pieces in hand
    /// go back to the lap's origin. Under a rule about never-ending moves (`draw`, `eliminate` or `cut when
    /// endless`) the move is played, cut there, and the end rules decide at the end of the ply; otherwise it
    /// is not a line of play.
    #[cold]
    fn endless(&self, st: &mut State, probe: bool) {
        let origin = st.origin as usize;
        for k in 0..self.k {
            let i = origin * self.k + k;
            st.counts[i] = st.counts[i].saturating_add(std::mem::take(&mut st.hand[k]));
        }
        st.stage = Stage::Start;
        if self.phase_plan(st).endless_played {
            st.endless = true;
            return self.end_ply(st, Next::Switch, probe);
        }
        st.illegal = true;
        st.ply += 1;
    }

    fn check_require(&self, st: &mut State, sow: &Sow) {
        if let Some(req) = &sow.require {
            if !self.test(st, Ctx::new(st.to_move).at(st.last), req) {
                st.illegal = true;
            }
        }
    }

    /// Drops the pieces in hand; returns false when it paused for the mover to choose the next kind.
    #[inline]
    pub(super) fn drop_hand(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
        // Without a track, a lap whose first piece goes into its origin (`start at origin`, `sow into`) drops
        // piece by piece.
        let plain = sow.start_origin.is_none()
            && sow.divert.is_empty()
            && sow.drop_captures.is_empty()
            && !sow.skips_by_piece()
            && !self.rules.needs.passed
            && !st.at_origin
            && self.trace.is_none();
        if self.k == 1 {
            // Whole laps by arithmetic where the lap has a track, else piece by piece.
            if self.sow_track(st, action, sow) {
                return true;
            }
            if !self.rules.needs.drops && plain {
                self.drop_plain(st, sow.skip_origin);
            } else {
                while st.hand[0] > 0 {
                    self.drop_one(st, 0, sow);
                }
            }
        } else {
            loop {
                let kind = if sow.order_chosen {
                    let mask = self.drop_mask(st, sow);
                    match mask.count_ones() {
                        0 => break,
                        1 => mask.trailing_zeros() as u8,
                        _ => {
                            st.stage = Stage::Drop { action };
                            return false;
                        }
                    }
                } else {
                    match st.hand.iter().position(|&n| n > 0) {
                        Some(k) => k as u8,
                        None => break,
                    }
                };
                self.drop_one(st, kind, sow);
            }
        }
        true
    }

    /// Drops every seed in hand, one per place: the inner loop of plain games.
    #[inline]
    pub(super) fn drop_plain(&self, st: &mut State, skip_origin: bool) {
        let places = self.rules.places.len();
        let row = (st.to_move as usize * 2 + st.dir as usize) * places;
        let next = &self.rules.next[row..row + places];
        let (origin, mut pos) = (st.origin, st.cursor);
        for _ in 0..st.hand[0] {
            pos = next[pos as usize];
            if skip_origin && pos == origin {
                pos = next[pos as usize];
            }
            st.counts[pos as usize] = st.counts[pos as usize].wrapping_add(1);
        }
        st.hand[0] = 0;
        st.cursor = pos;
    }

    /// Drops one piece of `kind` into the next place (or back into the lap's origin, `start at origin`),
    /// from where a marked pit may send it on (`divert`).
    #[inline]
    pub(super) fn drop_one(&self, st: &mut State, kind: u8, sow: &Sow) {
        let row = (st.to_move as usize * 2 + st.dir as usize) * self.rules.places.len();
        let pos = if std::mem::take(&mut st.at_origin) {
            st.cursor
        } else {
            let pos = self.rules.next[row + st.cursor as usize];
            let pos = if pos == st.origin && sow.skip_origin { self.rules.next[row + pos as usize] } else { pos };
            if sow.skips_by_piece() {
                self.pass_marked(st, sow, row, pos)
            } else {
                pos
            }
        };
        if self.rules.needs.passed {
            super::state::record_passed(st, pos);
        }
        if self.rules.needs.drops {
            st.before[pos as usize] = self.count(st, pos);
            st.dropped[pos as usize] = kind;
        }
        let to = if sow.divert.is_empty() { None } else { self.diverted_to(st, sow, pos) };
        st.diverted = to.is_some();
        let i = to.unwrap_or(pos) as usize * self.k + kind as usize;
        st.counts[i] = st.counts[i].saturating_add(1);
        st.hand[kind as usize] -= 1;
        st.cursor = pos;
        if self.trace.is_some() {
            self.note(st, super::Event::Drop { place: pos, into: to.unwrap_or(pos), kind });
        }
        if !sow.drop_captures.is_empty() && to.is_none() {
            self.capture_at_drop(st, sow, pos);
        }
    }

    /// `capture at every drop`: the first such capture whose condition holds at the place just sown (`here`
    /// and `last`) takes its pieces at once, before the next piece falls.
    fn capture_at_drop(&self, st: &mut State, sow: &Sow, pos: PlaceId) {
        st.last = pos;
        let cx = Ctx::new(st.to_move).at(pos);
        let Some(index) = sow.drop_captures.iter().position(|r| self.test(st, cx, &r.when)) else { return };
        let rule = &sow.drop_captures[index];
        if self.trace.is_some() {
            let rule = RuleRef::DropCapture { phase: st.phase, action: self.action_of(st, sow), index: index as u8 };
            self.note(st, super::Event::Capture { rule, at: pos });
        }
        self.take_at_once(st, cx, rule);
    }

    /// `capture at every lift`: the first such capture whose condition holds at the pit a lap is about to be
    /// lifted from (`here` and `origin`) takes its pieces, before the lap's are lifted. In a trace, its step
    /// (`RuleRef::LiftCapture`) is written down after its takes. One that takes from a pit the mover chooses
    /// (`take { ... }`) holds only where some pit qualifies, and then waits for his choice (`Stage::LiftPick`):
    /// returns true when it does.
    #[cold]
    fn capture_at_lift(&self, st: &mut State, sow: &Sow, pit: PlaceId) -> bool {
        let cx = Ctx::new(st.to_move).at(pit);
        let Some(index) = sow.lift_captures.iter().position(|r| self.holds_at(st, r, pit)) else { return false };
        if sow.lift_captures[index].pick.is_some() {
            st.stage = Stage::LiftPick { action: self.action_of(st, sow), rule: index as u8, chosen: false };
            return true;
        }
        self.take_at_once(st, cx, &sow.lift_captures[index]);
        // Written down once made (the lift that follows is written down once lifted): what it moved is
        // what changed since the step before.
        if self.trace.is_some() {
            let rule = RuleRef::LiftCapture { phase: st.phase, action: self.action_of(st, sow), index: index as u8 };
            self.note(st, super::Event::Capture { rule, at: pit });
        }
        false
    }

    /// The takes and marks of a capture made on the spot, as a piece falls or a lap is about to be lifted
    /// (`at every drop`, `at every lift`), with no pieces sown on after it.
    fn take_at_once(&self, st: &mut State, cx: Ctx, rule: &CaptureRule) {
        st.recording = self.record_first && !st.captured;
        for (i, take) in rule.takes.iter().enumerate() {
            if !rule.steps.is_empty() {
                self.apply_steps(st, cx, rule, i as u8);
            }
            if self.take_all(st, cx, take) > 0 {
                st.captured = true;
            }
        }
        if !rule.steps.is_empty() {
            self.apply_steps(st, cx, rule, rule.takes.len() as u8);
        }
        st.recording = false;
    }

    /// `skip NAME`, `skip SET where COND`: from `pos` on, the first place that carries none of the skipped
    /// marks, fails the `where` (the last piece in hand passes none with `except last`), nor is the origin a
    /// `skip origin` passes over. Where every place of the track is skipped, `pos` itself.
    #[cold]
    fn pass_marked(&self, st: &State, sow: &Sow, row: usize, pos: PlaceId) -> PlaceId {
        let n = self.rules.n_pits;
        let last_piece = st.hand.iter().map(|&h| u32::from(h)).sum::<u32>() <= 1;
        let cx = Ctx::new(st.to_move);
        let skipped = |p: PlaceId| {
            (p == st.origin && sow.skip_origin)
                || ((p as usize) < n
                    && (0..self.rules.marks.len())
                        .any(|m| sow.skip_marks & (1 << m) != 0 && st.marks[m * n + p as usize] != UNMARKED))
                || sow.skip_where.as_ref().is_some_and(|w| {
                    !(w.except_last && last_piece)
                        && self.set_contains(st, cx, &w.set, p)
                        && self.cond(st, cx.at(p), &w.cond)
                })
        };
        let mut p = pos;
        for _ in 0..self.rules.places.len() {
            if !skipped(p) {
                return p;
            }
            p = self.rules.next[row + p as usize];
        }
        pos
    }

    pub(super) fn after_sow(&self, st: &mut State, action: u8, probe: bool) {
        st.stage = Stage::Start;
        let sow = self.sow_rule(st, action);
        let cx = Ctx::new(st.to_move).at(st.last);
        if let Some(req) = &sow.require {
            if !self.test(st, cx, req) {
                st.illegal = true;
            }
        }
        self.capture_after_sow(st, action, sow, probe);
    }
}

/// Whether capture `rule` of `sow` goes on after it is made (`sow from`, `continue at`).
fn goes_on(sow: &Sow, rule: u8) -> bool {
    let capture = &sow.captures[rule as usize];
    capture.resow.is_some() || capture.go_on.is_some()
}

/// The laps of a sowing that is ruled out where it would never end (no rule plays such a sowing) that go
/// by before its cycle check begins (`run_laps`).
const UNCHECKED_LAPS: u32 = 16;

/// The key of a position within a sowing of laps, its new lap in hand: everything the rest of the sowing
/// depends on (the pieces on the board and in hand, the lap's origin and direction, and the records of this
/// move's drops, which conditions may read, and the marks, which a lap's lifting or a capture may change).
#[inline(always)]
fn lap_key(st: &State) -> u64 {
    // Where the lap goes on is its origin and cursor, its way, and whether its first piece goes into the origin
    // itself (`start at origin`, `sow into`): a lap sown into a pit and a relay from it are not the same step.
    let extra = st.origin as u64 | (st.cursor as u64) << 16 | (st.dir as u64) << 32 | (st.at_origin as u64) << 40;
    hash_parts(&[&st.counts, &st.hand, &st.before, &st.dropped, &st.marks], extra)
}
