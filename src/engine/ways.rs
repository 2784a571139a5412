//! Which ways a start may go, where that depends on more than the direction rule: a filter on the direction
//! (`direction choose where ...`) and the capture of the first lap (`must capture`), tried on a copy kept
//! for the purpose, each first lap once per position (`FirstLaps`); and the ranks of actions (`prefer`).

use std::cell::{RefCell, RefMut};

use crate::ir::*;

use super::compile::CountTests;
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
    /// filter holds there, and with `must capture`, the first lap so sown ends where a capture applies
    /// (found without sowing where the engine can, `unsown_way_ok`).
    pub(super) fn way_ok(&self, st: &State, mover: u8, action: u8, sow: &Sow, place: PlaceId, dir: Dir) -> bool {
        if let Some(plan) = self.unsown_plan(st, action) {
            return self.unsown_way_ok(st, plan, mover, action, sow, place, dir);
        }
        self.way_ok_on_copy(st, mover, action, sow, place, dir)
    }

    /// `way_ok`, the first lap tried on a copy (or found before: `FirstLaps`).
    fn way_ok_on_copy(&self, st: &State, mover: u8, action: u8, sow: &Sow, place: PlaceId, dir: Dir) -> bool {
        self.with_trial(st, mover, action, sow, |trial| self.way_ok_in(st, trial, mover, action, sow, place, dir))
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
        self.filter_allows(st, self.way_plan(st.phase, action), mover, sow, place, dir)
            && (!sow.must_capture || self.first_lap_captures(st, trial, mover, action, place, dir))
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
    pub(super) fn with_trial<R>(
        &self,
        st: &State,
        mover: u8,
        action: u8,
        sow: &Sow,
        f: impl FnOnce(&mut Trial) -> R,
    ) -> R {
        TRIAL.with(|cell| match cell.try_borrow_mut() {
            Ok(mut slot) => {
                let state = slot.get_or_insert_with(|| st.probe_copy());
                // Without `must capture` nothing is tried: the copy is never read. Where every first lap is
                // found without sowing (`FirstLapStarts`), nothing is worth remembering.
                let sown = self.way_plan(st.phase, action).and_then(|p| p.starts.as_ref()).is_none_or(|s| !s.every);
                if !sow.must_capture || !self.first_lap_memo || !sown {
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
        if let Some(captures) = self.virtual_first_lap(st, mover, action, place, dir) {
            return captures;
        }
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
            && sow.lifts.is_empty()
            && sow.lift_captures.is_empty();
        if plain {
            return self.plain_first_lap_captures(st, trial.state, mover, action, sow, place, dir);
        }
        if self.quick_first_laps && self.first_lap_undoable(sow) {
            let captures = self.try_first_lap(trial.state, mover, action, place, dir, true);
            self.undo_first_lap(st, trial.state);
            return captures;
        }
        trial.ready = false;
        self.try_first_lap(trial.state, mover, action, place, dir, true)
    }

    /// Whether a first lap of `sow` changes nothing but what `undo_first_lap` puts back: the pieces on the
    /// board and in hand, the marks a lift clears (`until empty`) and the lap's own fields. Not where drops
    /// are recorded (`before`, `dropped`, `passed`), a lift makes marks, or pieces are taken as they fall.
    fn first_lap_undoable(&self, sow: &Sow) -> bool {
        !self.rules.needs.drops
            && !self.rules.needs.passed
            && sow.lift_steps.is_empty()
            && sow.drop_captures.is_empty()
            && sow.lift_captures.is_empty()
    }

    /// Makes `trial`, a copy of `st` on which an undoable first lap was tried (`first_lap_undoable`), a
    /// copy again: far less to copy than `reset_probe`.
    fn undo_first_lap(&self, st: &State, trial: &mut State) {
        trial.counts.copy_from_slice(&st.counts);
        trial.hand.copy_from_slice(&st.hand);
        if !self.empty_marks.is_empty() {
            trial.marks.copy_from_slice(&st.marks);
        }
        (trial.to_move, trial.stage, trial.origin, trial.start, trial.dir, trial.cursor, trial.last) =
            (st.to_move, st.stage, st.origin, st.start, st.dir, st.cursor, st.last);
        (trial.lap, trial.diverted, trial.at_origin, trial.lifted) = (st.lap, st.diverted, st.at_origin, st.lifted);
    }

    /// The trial of a plain first lap (one kind of piece, all of the pit lifted, one per place), undone by
    /// walking the lap again instead of copying the position back.
    #[allow(clippy::too_many_arguments)]
    fn plain_first_lap_captures(
        &self,
        st: &State,
        trial: &mut State,
        mover: u8,
        action: u8,
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
        trial.start = place;
        trial.dir = dir;
        trial.cursor = place;
        trial.lap = 1;
        trial.diverted = false;
        trial.at_origin = false;
        self.lift(trial, place);
        self.drop_plain(trial, sow.skip_origin);
        trial.last = trial.cursor;
        let captures = self.lap_end_captures(trial, mover, action, sow, true);
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
        (trial.start, trial.diverted, trial.at_origin, trial.lifted) = (st.start, st.diverted, st.at_origin, st.lifted);
        trial.hand.copy_from_slice(&st.hand);
        captures
    }

    /// The first lap tried on `trial` by the general stages, and whether a capture applies at its end (told
    /// by the scan where `scan` allows and there is one).
    fn try_first_lap(&self, trial: &mut State, mover: u8, action: u8, place: PlaceId, dir: Dir, scan: bool) -> bool {
        trial.to_move = mover;
        trial.stage = Stage::Start;
        trial.origin = place;
        trial.start = place;
        trial.dir = dir;
        // `check` refuses a capture at every lift that chooses a pit here, so the lift never pauses.
        if !self.lift_origin(trial, action) {
            return false;
        }
        let sow = self.sow_rule(trial, action);
        // `check` refuses `order choose` with `must capture`, so the drops never pause.
        if !self.drop_hand(trial, action, sow) {
            return false;
        }
        trial.last = trial.cursor;
        !trial.diverted && self.lap_end_captures(trial, mover, action, sow, scan)
    }

    /// Whether one of the captures of `sow` applies where the lap sown on `trial` ended: the engine's scan
    /// for it (`FirstLapScan`) where `scan` allows and there is one, else every capture's condition.
    #[inline]
    fn lap_end_captures(&self, trial: &State, mover: u8, action: u8, sow: &Sow, scan: bool) -> bool {
        let cx = Ctx::new(mover).at(trial.last);
        let found = self.way_plan(trial.phase, action).and_then(|p| p.first_lap.as_ref());
        if let (true, Some(found)) = (scan, found) {
            if let Some(holds) = found.holds(self, trial, cx) {
                return holds;
            }
        }
        sow.captures.iter().any(|c| self.test(trial, cx, &c.when))
    }

    /// The plan of action `action` where every first lap it tries is found without sowing (`WayPlan::unsown`).
    #[inline]
    pub(super) fn unsown_plan(&self, st: &State, action: u8) -> Option<&WayPlan> {
        self.way_plan(st.phase, action).filter(|p| p.unsown())
    }

    /// `way_ok` for a sowing whose first laps are found without sowing (`plan`, its `unsown` plan): only a
    /// lap too long for that is tried on a copy.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn unsown_way_ok(
        &self,
        st: &State,
        plan: &WayPlan,
        mover: u8,
        action: u8,
        sow: &Sow,
        place: PlaceId,
        dir: Dir,
    ) -> bool {
        if !self.filter_allows(st, Some(plan), mover, sow, place, dir) {
            return false;
        }
        if !sow.must_capture {
            return true;
        }
        match plan.unsown_first_lap(self, st, mover, place, dir) {
            Some(captures) => captures,
            None => self.way_ok_on_copy(st, mover, action, sow, place, dir),
        }
    }

    /// Whether the first lap of `mover`'s sowing from `place` going `dir` captures, found without sowing it
    /// where the engine knows how it starts there (`FirstLapStarts`) and what its captures test
    /// (`FirstLapScan`): where it ends and the counts the test reads, by walking the lap's places. None
    /// where it does not know, or the lap is too long to walk.
    #[inline]
    fn virtual_first_lap(&self, st: &State, mover: u8, action: u8, place: PlaceId, dir: Dir) -> Option<bool> {
        self.way_plan(st.phase, action)?.unsown_first_lap(self, st, mover, place, dir)
    }

    /// Whether the direction's filter (`direction ... where`) lets `mover` start `sow` at `place` going
    /// `dir`: as the plan settles it, where it does, else tested.
    #[inline]
    fn filter_allows(
        &self,
        st: &State,
        plan: Option<&WayPlan>,
        mover: u8,
        sow: &Sow,
        place: PlaceId,
        dir: Dir,
    ) -> bool {
        let Some(filter) = &sow.dir_filter else { return true };
        let cx = Ctx::new(mover).at(place).way(dir);
        let settled = plan.and_then(|p| p.filter.as_ref()).and_then(|f| f.get(cx, dir));
        settled.unwrap_or_else(|| self.test(st, cx, filter))
    }

    /// What was settled in advance about the ways of action `action` of phase `phase` (`WayPlan`).
    #[inline]
    fn way_plan(&self, phase: u8, action: u8) -> Option<&WayPlan> {
        self.phases.get(phase as usize)?.actions.get(action as usize)?.way_plan.as_ref()
    }

    /// Checks the shortcuts of first laps (`must capture`) against the long way in this position, and
    /// describes the first disagreement: for every start of the mover's sowings with `must capture`, each
    /// way, whether the first lap captures as `sow_first_lap` finds it (walked back or undone on a copy
    /// kept from lap to lap), as `virtual_first_lap` finds it without sowing, and as a fresh copy finds it;
    /// and that the kept copy is one again after each lap it calls ready. For tests.
    #[doc(hidden)]
    pub fn first_lap_disagreement(&self, st: &State) -> Option<String> {
        if st.result.is_some() || !matches!(st.stage, Stage::Start) {
            return None;
        }
        let mover = st.to_move;
        let mut kept = st.probe_copy();
        let copy = st.probe_copy();
        for (a, action) in self.phase(st).actions.iter().enumerate() {
            let ActionKind::Sow(sow) = &action.kind else { continue };
            if !sow.must_capture {
                continue;
            }
            for place in (0..self.rules.n_pits as PlaceId).filter(|&p| self.count(st, p) > 0) {
                for &dir in Self::ways(sow) {
                    let (quick, ready) = {
                        let mut trial = Trial { state: &mut kept, ready: true, laps: None };
                        (self.sow_first_lap(st, &mut trial, mover, a as u8, place, dir), trial.ready)
                    };
                    let long = self.try_first_lap(&mut st.probe_copy(), mover, a as u8, place, dir, false);
                    if quick != long {
                        return Some(format!(
                            "action {a} from {place} {dir:?}: the shortcut says {quick}, a fresh copy {long}"
                        ));
                    }
                    let found = self.virtual_first_lap(st, mover, a as u8, place, dir);
                    if found.is_some_and(|v| v != long) {
                        return Some(format!(
                            "action {a} from {place} {dir:?}: unsown, {found:?}; a fresh copy {long}"
                        ));
                    }
                    if ready && kept != copy {
                        return Some(format!("action {a} from {place} {dir:?}: the kept copy was not put back"));
                    }
                    if !ready {
                        kept.reset_probe(st);
                    }
                }
            }
        }
        None
    }

    /// The actions that `prefer` rules out now, as bits: every ranked action after the first that can start.
    /// Whether action `a` of the phase has a start that completes into a legal ply, `prefer` aside.
    pub(super) fn action_can_start(&self, st: &State, a: u8) -> bool {
        let Some(action) = self.phase(st).actions.get(a as usize) else { return false };
        let probe = st.obliged || self.action_needs_probe(action);
        !self.each_begin(st, a, action, |mv| probe && !self.completable(st, mv))
    }

    pub(super) fn preferred_out(&self, st: &State) -> u64 {
        let phase = self.phase(st);
        let mut first = None;
        for &a in &phase.prefer {
            if self.action_can_start(st, a) {
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

/// What is settled in advance about the ways a sowing may start in, from what the mover, the direction and
/// the pit settle: its direction's filter (`direction ... where`) and the captures' test at the end of a
/// first lap (`must capture`). Made when the engine is made; none without fast paths.
#[derive(Debug, Clone)]
pub(super) struct WayPlan {
    filter: Option<FilterTable>,
    first_lap: Option<FirstLapScan>,
    /// How a first lap starts from each pit, where that is settled (only with `first_lap`).
    starts: Option<FirstLapStarts>,
}

impl WayPlan {
    pub(super) fn new(engine: &Engine, sow: &Sow) -> Option<WayPlan> {
        let filter = sow.dir_filter.as_ref().and_then(|f| FilterTable::new(engine, &source(engine, f)));
        let first_lap = FirstLapScan::new(engine, sow);
        let starts = first_lap.as_ref().and_then(|_| FirstLapStarts::new(engine, sow));
        (filter.is_some() || first_lap.is_some()).then_some(WayPlan { filter, first_lap, starts })
    }

    /// Every first lap is found without sowing (`Engine::virtual_first_lap`), where it is not too long.
    #[inline]
    fn unsown(&self) -> bool {
        self.first_lap.is_some() && self.starts.as_ref().is_some_and(|s| s.every)
    }

    /// `Engine::virtual_first_lap` with the plan in hand.
    #[inline]
    fn unsown_first_lap(&self, engine: &Engine, st: &State, mover: u8, place: PlaceId, dir: Dir) -> Option<bool> {
        let (starts, scan) = (self.starts.as_ref()?, self.first_lap.as_ref()?);
        let start = starts.get(mover, place)?;
        let from = *st.counts.get(start.from as usize)?;
        let taken = start.most.map_or(from, |m| from.min(m));
        // The hand takes at most 255 pieces, as `lift` has it.
        let mut left = (*st.hand.first()? as usize + taken as usize).min(u8::MAX as usize);
        // The first piece into the origin itself (`start at origin`), the others on round the cycle.
        let first_home = start.at_origin.unwrap_or(st.at_origin) && left > 0;
        left -= first_home as usize;
        let (cycle, first) = starts.cycle(mover, dir, place)?;
        let period = cycle.len();
        let last = match left {
            0 => place,
            n if n <= period => cycle[n - 1],
            n => cycle[(n - 1) % period],
        };
        // What a place holds after the lap: what it held, less what was lifted from it, and the pieces the
        // lap dropped into it, one on each round from the step it is first reached.
        let count = |q: usize| {
            let mut n = *st.counts.get(q)? as usize + (first_home && q == place as usize) as usize;
            if q == start.from as usize {
                n -= taken as usize;
            }
            let reached = *first.get(q)? as usize;
            if reached > 0 && reached <= left {
                n += 1 + (left - reached) / period;
            }
            u8::try_from(n).ok()
        };
        scan.holds_with(engine, Ctx::new(mover).at(last), dir, count)
    }
}

/// How the first lap of a sowing starts from each pit of each mover, where the rules settle it whatever the
/// counts: the place its pieces are lifted from (the pit, or a `lift N from PLACE`), how many at most, and
/// whether the first goes back into the pit (`start at origin`). Only for laps that nothing but their
/// drops and that lift changes (one kind of piece, no records of drops, no `divert`, no `skip`, no
/// captures as pieces fall, no marks made as it is lifted), so that where they end and what they leave
/// can be worked out without sowing (`Engine::virtual_first_lap`).
#[derive(Debug, Clone)]
struct FirstLapStarts {
    players: u8,
    places: usize,
    /// Per `mover * places + pit`.
    at: Vec<Option<LapStart>>,
    /// Every pit of every mover is settled.
    every: bool,
    /// Per `(mover * 2 + way) * places + pit`: the places a lap from the pit goes round, in order, as a
    /// range of `cells`; empty where the lap's walk is not one cycle.
    cycles: Vec<(u32, u32)>,
    cells: Vec<PlaceId>,
    /// Per `((mover * 2 + way) * places + pit) * places + place`: the step of that lap (from 1) that first
    /// reaches the place, 0 for none.
    first: Vec<u16>,
}

#[derive(Debug, Clone, Copy)]
struct LapStart {
    from: PlaceId,
    /// At most this many pieces (`lift N`); all of them when none.
    most: Option<u8>,
    /// Whether the first piece goes back into the pit; none where the lap leaves that as the position has
    /// it (`State::at_origin`).
    at_origin: Option<bool>,
}

impl FirstLapStarts {
    fn new(engine: &Engine, sow: &Sow) -> Option<FirstLapStarts> {
        let rules = &engine.rules;
        let plain = engine.k == 1 && !rules.needs.drops && !rules.needs.passed;
        if !plain || !sow.divert.is_empty() || !sow.drop_captures.is_empty() || sow.skips_by_piece() {
            return None;
        }
        if !sow.lift_steps.is_empty() || !sow.lift_captures.is_empty() {
            return None;
        }
        let (players, places) = (rules.players, rules.places.len());
        let mut probe = engine.initial_state();
        probe.lap = 1;
        let mut at = Vec::with_capacity(players as usize * places);
        for mover in 0..players {
            probe.to_move = mover;
            for origin in 0..places as PlaceId {
                (probe.origin, probe.cursor) = (origin, origin);
                let cx = Ctx::new(mover).at(origin);
                at.push(if (origin as usize) < rules.n_pits { lap_start(engine, &probe, cx, sow) } else { None });
            }
        }
        let every = (0..players as usize).all(|m| (0..rules.n_pits).all(|p| at[m * places + p].is_some()));
        // The tables of cycles grow with the square of the board: not for the largest.
        if places > 128 {
            return None;
        }
        let mut starts = FirstLapStarts {
            players,
            places,
            at,
            every,
            cycles: Vec::new(),
            cells: Vec::new(),
            first: vec![0; players as usize * 2 * places * places],
        };
        for mover in 0..players as usize {
            for dir in [Dir::Ccw, Dir::Cw] {
                let row = (mover * 2 + dir as usize) * places;
                for origin in 0..places as PlaceId {
                    let start = starts.cells.len();
                    let cycle = lap_cycle(&rules.next[row..row + places], origin, sow.skip_origin);
                    let table = &mut starts.first[(row + origin as usize) * places..][..places];
                    for (i, &p) in cycle.iter().enumerate() {
                        table[p as usize] = i as u16 + 1;
                    }
                    starts.cells.extend(&cycle);
                    starts.cycles.push((start as u32, cycle.len() as u32));
                }
            }
        }
        Some(starts)
    }

    /// The cycle of places a lap of `mover` from `pit` going `dir` goes round, and the step that first
    /// reaches each place (`first`); none where its walk is not one cycle.
    #[inline]
    fn cycle(&self, mover: u8, dir: Dir, pit: PlaceId) -> Option<(&[PlaceId], &[u16])> {
        let i = (mover as usize * 2 + dir as usize) * self.places + pit as usize;
        let (start, len) = *self.cycles.get(i)?;
        let cycle = self.cells.get(start as usize..(start + len) as usize)?;
        let first = self.first.get(i * self.places..(i + 1) * self.places)?;
        (!cycle.is_empty()).then_some((cycle, first))
    }

    #[inline]
    fn get(&self, mover: u8, pit: PlaceId) -> Option<LapStart> {
        if mover >= self.players || pit as usize >= self.places {
            return None;
        }
        *self.at.get(mover as usize * self.places + pit as usize)?
    }
}

/// The places a lap from `origin` visits, one piece each, along `next` (passing over the origin with
/// `skip_origin`) until it comes back to the first of them: empty where it would come back to another
/// place first, or never.
fn lap_cycle(next: &[PlaceId], origin: PlaceId, skip_origin: bool) -> Vec<PlaceId> {
    let step = |pos: PlaceId| {
        let pos = next.get(pos as usize).copied().unwrap_or(pos);
        if skip_origin && pos == origin {
            next.get(pos as usize).copied().unwrap_or(pos)
        } else {
            pos
        }
    };
    let mut cycle: Vec<PlaceId> = Vec::new();
    let mut pos = origin;
    for _ in 0..=next.len() {
        pos = step(pos);
        if cycle.first() == Some(&pos) {
            return cycle;
        }
        if cycle.contains(&pos) || (pos as usize) >= next.len() {
            return Vec::new();
        }
        cycle.push(pos);
    }
    Vec::new()
}

/// How the first lap from `cx.here` starts, where the rules settle it (`FirstLapStarts`); `probe` is set
/// for a first lap from there.
fn lap_start(engine: &Engine, probe: &State, cx: Ctx, sow: &Sow) -> Option<LapStart> {
    // A lap the trial walks back (`plain_first_lap_captures`) never starts at its origin; any other keeps
    // what the position says unless `start at origin` decides.
    let walked_back = sow.start_origin.is_none() && sow.lifts.is_empty();
    let mut start = LapStart { from: cx.here, most: None, at_origin: walked_back.then_some(false) };
    for lift in &sow.lifts {
        if !partial_at_first_lap(engine, probe, cx, &source(engine, &lift.when))? {
            continue;
        }
        start.most = Some(lift.count.min(u8::MAX as u32) as u8);
        start.from = match &lift.from {
            None | Some(PlaceExpr::Here) => cx.here,
            Some(p @ (PlaceExpr::Fixed(_) | PlaceExpr::OfPlayer(_, PlayerExpr::Mover))) => {
                engine.place(probe, cx, p).unwrap_or(cx.here)
            }
            Some(_) => return None,
        };
        break;
    }
    if let Some(c) = &sow.start_origin {
        start.at_origin = Some(partial_at_first_lap(engine, probe, cx, &source(engine, c))?);
    }
    Some(start)
}

/// `partial` where `lap` is known too (1, set in `probe`) but not the way: the parts settled by the mover,
/// `here` and the lap number.
fn partial_at_first_lap(engine: &Engine, probe: &State, cx: Ctx, c: &Cond) -> Option<bool> {
    if lap_test(c) {
        return Some(engine.cond(probe, cx, c));
    }
    match c {
        Cond::And(cs) => {
            let parts: Vec<Option<bool>> = cs.iter().map(|c| partial_at_first_lap(engine, probe, cx, c)).collect();
            if parts.contains(&Some(false)) {
                Some(false)
            } else {
                parts.iter().all(|p| *p == Some(true)).then_some(true)
            }
        }
        Cond::Or(cs) => {
            let parts: Vec<Option<bool>> = cs.iter().map(|c| partial_at_first_lap(engine, probe, cx, c)).collect();
            if parts.contains(&Some(true)) {
                Some(true)
            } else {
                parts.iter().all(|p| *p == Some(false)).then_some(false)
            }
        }
        Cond::Not(c) => partial_at_first_lap(engine, probe, cx, c).map(|v| !v),
        _ => None,
    }
}

/// `lap` compared with a number, or a condition settled by the mover and `here` (`settled_but_way`).
fn lap_test(c: &Cond) -> bool {
    matches!(c, Cond::Cmp(Num::Lap, _, Num::Const(_)) | Cond::Cmp(Num::Const(_), _, Num::Lap))
        || settled_but_way(c, false)
}

/// A condition as written, for one the engine compiled.
fn source(engine: &Engine, c: &Cond) -> Cond {
    match c {
        Cond::Compiled(i) => engine.compiled.1.get(*i as usize).cloned().unwrap_or(Cond::True),
        other => other.clone(),
    }
}

/// A direction's filter where the mover, the way and the pit decide it, whatever the counts: per
/// `(mover * 2 + way) * places + pit`, 0 (false), 1 (true) or 2 (to be tested).
#[derive(Debug, Clone)]
struct FilterTable {
    players: u8,
    places: usize,
    at: Vec<u8>,
}

impl FilterTable {
    /// The table of `filter`; none where it decides nothing in advance anywhere.
    fn new(engine: &Engine, filter: &Cond) -> Option<FilterTable> {
        let (players, places) = (engine.rules.players, engine.rules.places.len());
        let probe = engine.initial_state();
        let mut at = Vec::with_capacity(players as usize * 2 * places);
        for mover in 0..players {
            for dir in [Dir::Ccw, Dir::Cw] {
                for place in 0..places as PlaceId {
                    let cx = Ctx::new(mover).at(place).way(dir);
                    at.push(partial(engine, &probe, cx, filter, false).map_or(2, u8::from));
                }
            }
        }
        at.iter().any(|&v| v < 2).then_some(FilterTable { players, places, at })
    }

    /// What the table says of the filter at `cx` (`here` the pit, going `dir`), where it says something.
    #[inline]
    fn get(&self, cx: Ctx, dir: Dir) -> Option<bool> {
        if cx.mover >= self.players || cx.here as usize >= self.places {
            return None;
        }
        match self.at.get((cx.mover as usize * 2 + dir as usize) * self.places + cx.here as usize)? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

/// The value of `c` at `cx` where its parts settled by the mover, the way and `here` (`settled`) decide
/// it whatever the others are; none where they do not.
fn partial(engine: &Engine, probe: &State, cx: Ctx, c: &Cond, last_is_here: bool) -> Option<bool> {
    if settled(c, last_is_here) {
        return Some(engine.cond(probe, cx, c));
    }
    match c {
        Cond::And(cs) => {
            let parts: Vec<Option<bool>> = cs.iter().map(|c| partial(engine, probe, cx, c, last_is_here)).collect();
            if parts.contains(&Some(false)) {
                Some(false)
            } else {
                parts.iter().all(|p| *p == Some(true)).then_some(true)
            }
        }
        Cond::Or(cs) => {
            let parts: Vec<Option<bool>> = cs.iter().map(|c| partial(engine, probe, cx, c, last_is_here)).collect();
            if parts.contains(&Some(true)) {
                Some(true)
            } else {
                parts.iter().all(|p| *p == Some(false)).then_some(false)
            }
        }
        Cond::Not(c) => partial(engine, probe, cx, c, last_is_here).map(|v| !v),
        _ => None,
    }
}

/// Whether a condition is settled by the mover, the way (`direction`) and `here` alone; with
/// `last_is_here`, `last` is `here` too (at the end of a lap).
fn settled(c: &Cond, last_is_here: bool) -> bool {
    match c {
        Cond::Direction(..) => true,
        c => settled_but_way(c, last_is_here),
    }
}

/// `settled`, the way unknown: no test of `direction`.
fn settled_but_way(c: &Cond, last_is_here: bool) -> bool {
    match c {
        Cond::True => true,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(|c| settled_but_way(c, last_is_here)),
        Cond::Not(c) => settled_but_way(c, last_is_here),
        Cond::InSet(PlaceExpr::Here, Set::Region(_) | Set::RegionOf(_, PlayerExpr::Mover)) => true,
        Cond::InSet(PlaceExpr::Last, Set::Region(_) | Set::RegionOf(_, PlayerExpr::Mover)) => last_is_here,
        _ => false,
    }
}

/// The test of `must capture` at the end of a first lap, settled in advance as far as the mover, the lap's
/// direction and its last place settle it: where a capture's condition is made of tests those fix (`here
/// in REGION(mover)`, `direction = cw`) and tests of single places' counts (`count >= 2`,
/// `count(opposite) > 0`), each end of a lap has the list of count tests left (the same tests of several
/// captures once), one of which must hold. One kind of piece only.
#[derive(Debug, Clone)]
pub(super) struct FirstLapScan {
    players: u8,
    places: usize,
    /// Per `(mover * 2 + dir) * places + last`: what is left to test there.
    at: Vec<LapTest>,
    /// The lists of tests that `LapTest::Tests` names.
    tests: Vec<Vec<CountTests>>,
}

/// What is left to test where a first lap ends.
#[derive(Debug, Clone, Copy)]
enum LapTest {
    /// No capture can apply there.
    Never,
    /// A capture applies there whatever the counts.
    Always,
    /// A capture applies when one of these tests holds.
    Tests(u16),
}

impl FirstLapScan {
    /// The scan of a sowing with `must capture` whose captures' conditions are of that shape; none otherwise.
    pub(super) fn new(engine: &Engine, sow: &Sow) -> Option<FirstLapScan> {
        if engine.k != 1 || !sow.must_capture || sow.captures.is_empty() {
            return None;
        }
        // Per capture: the parts the end of the lap settles, its count tests, and their text (to tell
        // the same tests apart).
        let mut captures = Vec::new();
        for capture in &sow.captures {
            let parts = match source(engine, &capture.when) {
                Cond::And(cs) => cs,
                c => vec![c],
            };
            let (settled, counted): (Vec<Cond>, Vec<Cond>) = parts.into_iter().partition(|c| settled(c, true));
            let tests = CountTests::of(&counted.iter().collect::<Vec<_>>())?;
            captures.push((settled, tests, counted.is_empty(), format!("{counted:?}")));
        }
        let (players, places) = (engine.rules.players, engine.rules.places.len());
        let mut scan = FirstLapScan { players, places, at: Vec::new(), tests: Vec::new() };
        let mut lists: Vec<String> = Vec::new();
        let mut probe = engine.initial_state();
        for mover in 0..players {
            for dir in [Dir::Ccw, Dir::Cw] {
                probe.dir = dir;
                for last in 0..places as PlaceId {
                    probe.last = last;
                    let cx = Ctx::new(mover).at(last);
                    let (mut tests, mut texts, mut always) = (Vec::new(), Vec::new(), false);
                    for (settled, t, none, text) in &captures {
                        if !settled.iter().all(|c| engine.cond(&probe, cx, c)) || texts.contains(text) {
                            continue;
                        }
                        always |= *none;
                        tests.push(t.clone());
                        texts.push(text.clone());
                    }
                    scan.at.push(match (always, tests.is_empty()) {
                        (true, _) => LapTest::Always,
                        (false, true) => LapTest::Never,
                        (false, false) => {
                            let key = texts.join(" or ");
                            let i = lists.iter().position(|k| *k == key).unwrap_or_else(|| {
                                lists.push(key);
                                scan.tests.push(tests);
                                lists.len() - 1
                            });
                            LapTest::Tests(u16::try_from(i).ok()?)
                        }
                    });
                }
            }
        }
        Some(scan)
    }

    /// `holds` for a lap that ended at `cx.here` going `dir`, the count of each place read from `count`.
    #[inline]
    fn holds_with(&self, engine: &Engine, cx: Ctx, dir: Dir, count: impl Fn(usize) -> Option<u8>) -> Option<bool> {
        if cx.mover >= self.players || cx.here as usize >= self.places {
            return None;
        }
        let i = (cx.mover as usize * 2 + dir as usize) * self.places + cx.here as usize;
        Some(match *self.at.get(i)? {
            LapTest::Never => false,
            LapTest::Always => true,
            LapTest::Tests(t) => {
                for tests in self.tests.get(t as usize)? {
                    if tests.hold_with(engine, cx, &count)? {
                        return Some(true);
                    }
                }
                false
            }
        })
    }

    /// Whether a capture applies where `mover`'s lap on `st` ended (`cx.here`, going `st.dir`); none for a
    /// mover or place the scan does not cover.
    #[inline]
    fn holds(&self, engine: &Engine, st: &State, cx: Ctx) -> Option<bool> {
        if cx.mover >= self.players || cx.here as usize >= self.places {
            return None;
        }
        let i = (cx.mover as usize * 2 + st.dir as usize) * self.places + cx.here as usize;
        Some(match *self.at.get(i)? {
            LapTest::Never => false,
            LapTest::Always => true,
            LapTest::Tests(t) => self.tests.get(t as usize)?.iter().any(|t| t.hold(engine, st, cx)),
        })
    }
}
