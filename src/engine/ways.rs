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
        if let Some(filter) = &sow.dir_filter {
            if !self.test(st, Ctx::new(mover).at(place).way(dir), filter) {
                return false;
            }
        }
        !sow.must_capture || self.first_lap_captures(st, mover, action, place, dir)
    }

    /// Whether some way of starting `sow` at `place` is allowed.
    #[inline]
    pub(super) fn some_way_ok(&self, st: &State, mover: u8, action: u8, sow: &Sow, place: PlaceId) -> bool {
        !sow.ways_checked() || Self::ways(sow).iter().any(|&d| self.way_ok(st, mover, action, sow, place, d))
    }

    /// Whether the first lap of `mover`'s sowing from `place` going `dir` ends where one of its captures
    /// applies (and its last piece was not sent on elsewhere), tried on a copy of the position.
    fn first_lap_captures(&self, st: &State, mover: u8, action: u8, place: PlaceId, dir: Dir) -> bool {
        TRIAL.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let trial = slot.get_or_insert_with(|| st.probe_copy());
                st.copy_into(trial);
                self.try_first_lap(trial, mover, action, place, dir)
            }
            // A trial within a trial (no rule makes one today) uses a copy of its own.
            Err(_) => self.try_first_lap(&mut st.probe_copy(), mover, action, place, dir),
        })
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
