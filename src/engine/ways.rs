//! Which ways a start may go, where that depends on more than the direction rule: a filter on the direction
//! (`direction choose where ...`) and the capture of the first lap (`must capture`), tried on a copy kept
//! for the purpose, each first lap once per position (`FirstLaps`); and the ranks of actions (`prefer`).

use std::cell::{RefCell, RefMut};

use crate::ir::*;

use super::{Ctx, Engine, Stage, State};

thread_local! {
    /// The copy on which first laps are tried: its buffers are reused, so trying allocates nothing once
    /// they are large enough.
    static TRIAL: RefCell<Option<State>> = const { RefCell::new(None) };
    /// What the first laps tried in the last position found.
    static FIRST_LAPS: RefCell<Option<FirstLaps>> = const { RefCell::new(None) };
}

/// What the first laps tried in one position found, for one engine and one mover: the stuck check at the
/// end of a ply, the list of starts of the next and its direction stage all ask about the same position, so
/// that each first lap is sown there once. The position is kept as first laps read it
/// (`State::same_for_first_laps`), so the answers are those of sowing it again.
pub(super) struct FirstLaps {
    engine: u64,
    mover: u8,
    position: State,
    /// Per action (the first four), bit `2 * place + dir` (pits below 64): tried, and found to capture.
    tried: [u128; 4],
    captures: [u128; 4],
}

impl FirstLaps {
    /// Makes the record one of `st`'s, forgetting what it held unless it was already.
    fn fit(slot: &mut Option<FirstLaps>, engine: u64, mover: u8, st: &State) {
        match slot {
            Some(laps) if laps.engine == engine && laps.mover == mover && laps.position.same_for_first_laps(st) => {}
            Some(laps) => {
                laps.position.reset_probe(st);
                (laps.engine, laps.mover, laps.tried, laps.captures) = (engine, mover, [0; 4], [0; 4]);
            }
            None => {
                *slot = Some(FirstLaps { engine, mover, position: st.probe_copy(), tried: [0; 4], captures: [0; 4] })
            }
        }
    }

    /// The action's slot and the bit of a first lap, where the record has room for it.
    fn bit(action: u8, place: PlaceId, dir: Dir) -> Option<(usize, u128)> {
        (action < 4 && place < 64).then(|| (action as usize, 1u128 << (2 * place as u32 + dir as u32)))
    }
}

/// The copy of a position that first laps are tried on, and what was found there before.
pub(super) struct Trial<'a> {
    state: &'a mut State,
    /// `state` is a copy of the position (it is made one only when a first lap must be sown).
    ready: bool,
    laps: Option<RefMut<'a, Option<FirstLaps>>>,
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
        self.with_trial(st, mover, sow, |trial| self.way_ok_in(st, trial, mover, action, sow, place, dir))
    }

    /// `way_ok`, trying first laps on `trial`, a copy of `st` that it leaves as it found it.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn way_ok_in(
        &self,
        st: &State,
        trial: &mut Trial,
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
        trial: &mut Trial,
        mover: u8,
        action: u8,
        sow: &Sow,
        place: PlaceId,
    ) -> bool {
        Self::ways(sow).iter().any(|&d| self.way_ok_in(st, trial, mover, action, sow, place, d))
    }

    /// Runs `f` with a copy of `st` to try `mover`'s first laps on (with `must capture`), made once for all
    /// its tries and only if one must be sown: what the first laps tried in this position found before is
    /// reused (`FirstLaps`). The copy is kept from call to call, so that once its buffers are large enough
    /// nothing is allocated.
    pub(super) fn with_trial<R>(&self, st: &State, mover: u8, sow: &Sow, f: impl FnOnce(&mut Trial) -> R) -> R {
        TRIAL.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let state = slot.get_or_insert_with(|| st.probe_copy());
                // Without `must capture` nothing is tried: the copy is never read.
                if !sow.must_capture || !self.first_lap_memo {
                    return f(&mut Trial { state, ready: false, laps: None });
                }
                FIRST_LAPS.with(|memo| {
                    let laps = memo.try_borrow_mut().ok().map(|mut laps| {
                        FirstLaps::fit(&mut laps, self.id, mover, st);
                        laps
                    });
                    f(&mut Trial { state, ready: false, laps })
                })
            }
            // A trial within a trial (no rule makes one today) uses a copy of its own.
            Err(_) => f(&mut Trial { state: &mut st.probe_copy(), ready: true, laps: None }),
        })
    }

    /// Whether the first lap of `mover`'s sowing from `place` going `dir` ends where one of its captures
    /// applies (and its last piece was not sent on elsewhere): what was found before in this position, or
    /// tried on `trial`'s copy of `st`.
    fn first_lap_captures(
        &self,
        st: &State,
        trial: &mut Trial,
        mover: u8,
        action: u8,
        place: PlaceId,
        dir: Dir,
    ) -> bool {
        let bit = FirstLaps::bit(action, place, dir);
        if let (Some(Some(laps)), Some((a, bit))) = (trial.laps.as_deref(), bit) {
            if laps.tried[a] & bit != 0 {
                return laps.captures[a] & bit != 0;
            }
        }
        let captures = self.sow_first_lap(st, trial, mover, action, place, dir);
        if let (Some(Some(laps)), Some((a, bit))) = (trial.laps.as_deref_mut(), bit) {
            laps.tried[a] |= bit;
            if captures {
                laps.captures[a] |= bit;
            }
        }
        captures
    }

    /// `first_lap_captures` tried on `trial`'s copy of `st` (made one first if it is not): a plain lap is
    /// walked back, so the copy stays one; after any other, it is made one again only when the next lap
    /// is tried.
    fn sow_first_lap(&self, st: &State, trial: &mut Trial, mover: u8, action: u8, place: PlaceId, dir: Dir) -> bool {
        if !trial.ready {
            trial.state.reset_probe(st);
            trial.ready = true;
        }
        let sow = self.sow_rule(st, action);
        let plain = self.k == 1
            && !self.rules.needs.drops
            && sow.start_origin.is_none()
            && sow.divert.is_empty()
            && sow.lifts.is_empty();
        if plain {
            return self.plain_first_lap_captures(st, trial.state, mover, sow, place, dir);
        }
        trial.ready = false;
        self.try_first_lap(trial.state, mover, action, place, dir)
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
