//! Which ways a start may go, where that depends on more than the direction rule: a filter on the direction
//! (`direction choose where ...`) and the capture of the first lap (`must capture`), tried on a copy kept
//! for the purpose; and the ranks of actions (`prefer`).

use std::cell::RefCell;

use crate::ir::*;

use super::{Ctx, Engine, Stage, State};

thread_local! {
    /// The copy on which first laps are tried: its buffers are reused, so trying allocates nothing once
    /// they are large enough.
    static TRIAL: RefCell<Option<State>> = const { RefCell::new(None) };
}

impl Engine {
    /// The ways a sowing may be started in, before any filter: the fixed or usual one, or both.
    pub(super) fn ways(sow: &Sow) -> &'static [Dir] {
        match sow.dir {
            DirRule::Fixed(Dir::Ccw) | DirRule::PerLap(Dir::Ccw) => &[Dir::Ccw],
            DirRule::Fixed(Dir::Cw) | DirRule::PerLap(Dir::Cw) => &[Dir::Cw],
            DirRule::Choose => &[Dir::Ccw, Dir::Cw],
        }
    }

    /// Whether `mover` may start `sow` (action number `action`) at `place` going `dir`: the direction's
    /// filter holds there, and with `must capture`, the first lap so sown ends where a capture applies.
    pub(super) fn way_ok(&self, st: &State, mover: u8, action: u8, sow: &Sow, place: PlaceId, dir: Dir) -> bool {
        self.with_trial(st, sow, |trial| self.way_ok_in(st, trial, mover, action, sow, place, dir))
    }

    /// `way_ok`, trying first laps on `trial`, a copy of `st` that it leaves as it found it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn way_ok_in(
        &self,
        st: &State,
        trial: &mut State,
        mover: u8,
        action: u8,
        sow: &Sow,
        place: PlaceId,
        dir: Dir,
    ) -> bool {
        if let Some(filter) = &sow.dir_filter {
            if !self.test(st, Ctx::new(mover).at(place).way(dir), filter) {
                return false;
            }
        }
        !sow.must_capture || self.first_lap_captures(st, trial, mover, action, place, dir)
    }

    /// Whether some way of starting `sow` at `place` is allowed, first laps tried on `trial` (see `way_ok_in`).
    #[inline]
    pub(super) fn some_way_ok_in(
        &self,
        st: &State,
        trial: &mut State,
        mover: u8,
        action: u8,
        sow: &Sow,
        place: PlaceId,
    ) -> bool {
        Self::ways(sow).iter().any(|&d| self.way_ok_in(st, trial, mover, action, sow, place, d))
    }

    /// Runs `f` with a copy of `st` to try first laps on (with `must capture`), made once for all its tries;
    /// the copy is kept from call to call, so that once its buffers are large enough nothing is allocated.
    pub(super) fn with_trial<R>(&self, st: &State, sow: &Sow, f: impl FnOnce(&mut State) -> R) -> R {
        if !sow.must_capture {
            // Nothing is tried: any state will do, and this one is never read.
            return TRIAL.with(|cell| match cell.try_borrow_mut() {
                Ok(mut slot) => f(slot.get_or_insert_with(|| st.probe_copy())),
                Err(_) => f(&mut st.probe_copy()),
            });
        }
        TRIAL.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let trial = slot.get_or_insert_with(|| st.probe_copy());
                trial.reset_probe(st);
                f(trial)
            }
            // A trial within a trial (no rule makes one today) uses a copy of its own.
            Err(_) => f(&mut st.probe_copy()),
        })
    }

    /// Whether the first lap of `mover`'s sowing from `place` going `dir` ends where one of its captures
    /// applies (and its last piece was not sent on elsewhere), tried on `trial`, a copy of `st`, which is
    /// left a copy of `st` again.
    fn first_lap_captures(
        &self,
        st: &State,
        trial: &mut State,
        mover: u8,
        action: u8,
        place: PlaceId,
        dir: Dir,
    ) -> bool {
        let sow = self.sow_rule(st, action);
        let plain = self.k == 1
            && !self.rules.needs.drops
            && sow.start_origin.is_none()
            && sow.divert.is_empty()
            && sow.lifts.is_empty();
        if plain {
            return self.plain_first_lap_captures(st, trial, mover, sow, place, dir);
        }
        let captures = self.try_first_lap(trial, mover, action, place, dir);
        trial.reset_probe(st);
        captures
    }

    /// The trial of a plain first lap (one kind of piece, all of the pit lifted, one per place), undone by
    /// walking the lap again instead of copying the position back.
    fn plain_first_lap_captures(
        &self,
        st: &State,
        trial: &mut State,
        mover: u8,
        sow: &Sow,
        place: PlaceId,
        dir: Dir,
    ) -> bool {
        let n = self.rules.n_pits;
        let lifted = trial.counts[place as usize];
        // The marks the lift may clear (`until empty`), to put back.
        let mut marks = [UNMARKED; 16];
        for (m, cell) in marks.iter_mut().enumerate().take(self.rules.marks.len()) {
            *cell = trial.marks.get(m * n + place as usize).copied().unwrap_or(UNMARKED);
        }
        trial.to_move = mover;
        trial.origin = place;
        trial.dir = dir;
        trial.cursor = place;
        trial.lap = 1;
        trial.diverted = false;
        trial.at_origin = false;
        self.lift(trial, place);
        self.drop_plain(trial, sow.skip_origin);
        trial.last = trial.cursor;
        let cx = Ctx::new(mover).at(trial.last);
        let captures = sow.captures.iter().any(|c| self.test(trial, cx, &c.when));
        // Undo: the same walk, taking back each piece; the pit lifted gets its pieces back.
        let places = self.rules.places.len();
        let row = (mover as usize * 2 + dir as usize) * places;
        let next = &self.rules.next[row..row + places];
        let mut pos = place;
        for _ in 0..lifted {
            pos = next[pos as usize];
            if sow.skip_origin && pos == place {
                pos = next[pos as usize];
            }
            trial.counts[pos as usize] = trial.counts[pos as usize].wrapping_sub(1);
        }
        trial.counts[place as usize] = lifted;
        for (m, &cell) in marks.iter().enumerate().take(self.rules.marks.len()) {
            if let Some(c) = trial.marks.get_mut(m * n + place as usize) {
                *c = cell;
            }
        }
        let (to_move, origin, d, cursor, lap, last) = (st.to_move, st.origin, st.dir, st.cursor, st.lap, st.last);
        (trial.to_move, trial.origin, trial.dir, trial.cursor, trial.lap, trial.last) =
            (to_move, origin, d, cursor, lap, last);
        (trial.diverted, trial.at_origin, trial.lifted) = (st.diverted, st.at_origin, st.lifted);
        trial.hand.copy_from_slice(&st.hand);
        captures
    }

    fn try_first_lap(&self, trial: &mut State, mover: u8, action: u8, place: PlaceId, dir: Dir) -> bool {
        trial.to_move = mover;
        trial.stage = Stage::Start;
        trial.origin = place;
        trial.dir = dir;
        self.lift_origin(trial, action);
        let sow = self.sow_rule(trial, action);
        // `check` refuses `order choose` with `must capture`, so the drops never pause.
        if !self.drop_hand(trial, action, sow) {
            return false;
        }
        trial.last = trial.cursor;
        let cx = Ctx::new(mover).at(trial.last);
        !trial.diverted && sow.captures.iter().any(|c| self.test(trial, cx, &c.when))
    }

    /// The actions that `prefer` rules out now, as bits: every ranked action after the first that can start.
    pub(super) fn preferred_out(&self, st: &State) -> u64 {
        let phase = self.phase(st);
        let mut first = None;
        for &a in &phase.prefer {
            let Some(action) = phase.actions.get(a as usize) else { continue };
            let probe = st.obliged || self.action_needs_probe(action);
            if !self.each_begin(st, a, action, |mv| probe && !self.completable(st, mv)) {
                first = Some(a);
                break;
            }
        }
        match first {
            Some(keep) => phase.prefer.iter().filter(|&&a| a != keep).fold(0u64, |m, &a| m | 1 << (a % 64)),
            None => 0,
        }
    }
}
