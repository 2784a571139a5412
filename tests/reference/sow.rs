//! §9.1 `sow`: a sowing, lap by lap, in the order the docs list its steps. One function per step: the ways a
//! start may go (`ways`), lifting a lap (`lift`), dropping its pieces (`sow_lap`, `drop`), the end of a lap
//! (`end_of_lap`: the captures, `continue at`, `sow from`, `relay may`, `relay`), the guard against moves that
//! never end (`Laps`), and what follows the last lap (`require`, `again`, `then`, `then mark`).

use mancala::ir::*;

use super::eval::Cx;
use super::state::{MarkCell, Sowing};
use super::turn::{Halt, Next, Ply, Run, Stop};
use super::{Decision, Game, Player, Reference};

/// §9.1 `relay`: a sowing of more laps than this is endless (the move is not allowed).
pub const MAX_LAPS: u32 = 20_000;
/// §10 `draw when endless`: under a rule about never-ending moves, a sowing of more laps than this is endless
/// (it is played up to there).
pub const ENDLESS_LAPS: u32 = 10_000;

/// One lap: where it starts, which way, the pieces in hand.
#[derive(Debug, Clone)]
pub struct Lap {
    pub number: u32,
    /// The pit lifted (the lap's `origin`), or the place a lap of captured pieces is sown from.
    pub origin: PlaceId,
    pub dir: Dir,
    /// The pieces in hand, per kind.
    pub hand: Vec<u8>,
    /// Lifted from a pit of the board (the first lap, a relay), not the pieces of a capture (`sow from`).
    pub lifted: bool,
    /// The first piece goes into the origin itself: `sow into`, or `start at origin` as the lap was lifted.
    pub at_origin: bool,
    /// A capture's `sow from PLACE cw` gave this lap its way: no per-lap choice.
    pub way_given: bool,
}

/// Where a lap's last piece went.
#[derive(Debug, Clone, Copy)]
pub struct LapEnd {
    pub last: PlaceId,
    /// The last piece went on elsewhere (`divert`): nothing looks at where it fell.
    pub diverted: bool,
}

/// What the lap's end decided.
enum AfterLap {
    /// Another lap.
    Lap(Lap),
    /// The sowing is over; `last` is where it ended.
    Over { last: PlaceId, diverted: bool },
    /// An end rule `at every lap` held: the move stops, the game ends.
    Stopped,
    /// The lap ends again at this place (`continue at`).
    EndsAgain(PlaceId),
}

/// The guard against a sowing that never ends (§10 `draw when endless`). Each end of a lap that leads on, to
/// a new lap (its pieces in hand) or to the lap ending again elsewhere (`continue at`), is a step of the
/// move; the watch covers the steps since the mover's last decision (a stretch of the move that nothing but
/// the position decides). It remembers the position at the 1st, 3rd,
/// 7th, 15th, ... step of the stretch (one less than each power of two), each until the next, and the move is
/// found endless at the first step whose position is the one remembered; or past the lap cap, or when a
/// stretch has more steps than that cap. Where such a move is only ruled out, the watch starts after 16
/// steps (the verdict is the same).
struct Watch {
    /// The mover's decisions so far in the ply (`Run::asked`) when this stretch began.
    asked: u32,
    steps: u32,
    mark: Option<Vec<u8>>,
    power: u32,
    since: u32,
}

impl Watch {
    fn new(asked: u32) -> Watch {
        Watch { asked, steps: 0, mark: None, power: 1, since: 0 }
    }
}

impl Reference {
    pub(super) fn sow_rule(&self, phase: usize, action: usize) -> &Sow {
        match &self.rules.phases[phase].actions[action].kind {
            ActionKind::Sow(sow) => sow,
            _ => unreachable!("action {action} is a sowing"),
        }
    }

    /// The places a sowing passes over (`skip PLACE`), for its mover.
    pub(super) fn skipped_places(&self, g: &Game, phase: usize, action: usize, mover: Player) -> Vec<PlaceId> {
        let ActionKind::Sow(sow) = &self.rules.phases[phase].actions[action].kind else { return Vec::new() };
        sow.skip_places.iter().filter_map(|p| self.place(g, Cx::mover(mover), p)).collect()
    }

    /// A sowing can have more laps than one: a relay, a capture that sows on or goes on, a direction per lap.
    pub(super) fn has_laps(&self, sow: &Sow) -> bool {
        sow.relay.is_some()
            || sow.relay_may.is_some()
            || sow.captures.iter().any(|c| c.resow.is_some() || c.go_on.is_some())
            || matches!(sow.dir, DirRule::PerLap(_))
    }

    /// The ways a start from `pit` may go: the direction rule's, those its `where` lets through, and with
    /// `must capture` those whose first lap ends where a capture applies.
    pub(super) fn ways(&self, g: &Game, phase: usize, action: usize, pit: PlaceId, mover: Player) -> Vec<Dir> {
        let sow = self.sow_rule(phase, action);
        let ways = match sow.dir {
            DirRule::Fixed(d) | DirRule::PerLap(d) => vec![d],
            DirRule::Choose => vec![Dir::Ccw, Dir::Cw],
        };
        ways.into_iter()
            .filter(|&d| match &sow.dir_filter {
                Some(c) => self.test(g, Cx { way: Some(d), ..Cx::mover(mover).at(pit) }, c),
                None => true,
            })
            .filter(|&d| !sow.must_capture || self.first_lap_captures(g, phase, action, pit, d, mover))
            .collect()
    }

    /// `must capture`: the first lap from `pit` sown way `d` on a copy ends where a capture rule applies.
    fn first_lap_captures(&self, g: &Game, phase: usize, action: usize, pit: PlaceId, d: Dir, mover: Player) -> bool {
        let sow = self.sow_rule(phase, action);
        let mut h = g.clone();
        h.sowing =
            Some(Sowing { mover, phase, action, origin: pit, start: pit, last: None, dir: d, lap: 1, lifted: 0 });
        let mut lap = Lap {
            number: 1,
            origin: pit,
            dir: d,
            hand: vec![0; self.kinds()],
            lifted: true,
            at_origin: false,
            way_given: false,
        };
        let mut ply = Ply::new(mover, self.kinds());
        let mut run = Run::new(&[]);
        if self.lift(&mut h, &mut run, &mut ply, sow, &mut lap).is_err() {
            return false;
        }
        match self.sow_lap(&mut h, &mut run, &mut ply, sow, &mut lap) {
            Ok(end) if !end.diverted => {
                sow.captures.iter().any(|c| self.test(&h, Cx::mover(mover).at(end.last), &c.when))
            }
            _ => false,
        }
    }

    /// A sowing action started at `pit`: every lap, then what follows the last.
    pub(super) fn sow(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        action: usize,
        pit: PlaceId,
    ) -> Result<Next, Halt> {
        let phase = g.phase;
        let sow = self.sow_rule(phase, action);
        let mover = ply.mover;
        // 1. The pit, and a direction if the mover chooses it.
        let first_way = match sow.dir {
            DirRule::PerLap(d) => d,
            _ => {
                let ways = self.ways(g, phase, action, pit, mover).into_iter().map(Decision::Dir).collect();
                match run.ask(ways)? {
                    Decision::Dir(d) => d,
                    _ => unreachable!(),
                }
            }
        };
        g.sowing = Some(Sowing {
            mover,
            phase,
            action,
            origin: pit,
            start: pit,
            last: None,
            dir: first_way,
            lap: 1,
            lifted: 0,
        });
        let mut lap = Lap {
            number: 1,
            origin: pit,
            dir: first_way,
            hand: vec![0; self.kinds()],
            lifted: true,
            at_origin: false,
            way_given: false,
        };
        let mut watch = Watch::new(run.asked);
        let (last, diverted) = 'laps: loop {
            if lap.lifted {
                self.lift(g, run, ply, sow, &mut lap)?;
            }
            self.set_sowing(g, &lap);
            // A lap after the first: a step of the move.
            if lap.number > 1 && self.endless_step(g, run, &mut watch, &lap, lap.origin) {
                return self.endless(g, ply, &lap);
            }
            if let DirRule::PerLap(first) = sow.dir {
                if !lap.way_given {
                    lap.dir = self.lap_way(g, run, ply, sow, &lap, first)?;
                    self.set_sowing(g, &lap);
                }
            }
            let end = self.sow_lap(g, run, ply, sow, &mut lap)?;
            if std::env::var_os("REF_TRACE").is_some() {
                eprintln!(
                    "lap {} from {} {:?} -> last {} pieces {:?}",
                    lap.number, lap.origin, lap.dir, end.last, g.pieces
                );
            }
            let mut last = end.last;
            loop {
                match self.end_of_lap(g, run, ply, sow, &lap, last, end.diverted)? {
                    AfterLap::Lap(next) => {
                        lap = next;
                        continue 'laps;
                    }
                    AfterLap::EndsAgain(at) => {
                        last = at;
                        if self.endless_step(g, run, &mut watch, &lap, at) {
                            return self.endless(g, ply, &lap);
                        }
                    }
                    AfterLap::Over { last, diverted } => break 'laps (last, diverted),
                    AfterLap::Stopped => {
                        ply.stop = Some(Stop::AtEveryLap);
                        return Ok(Next::Switch);
                    }
                }
            }
        };
        if run.trial {
            return Err(Halt::TrialOver);
        }
        // 5. `again`, 6. `then`, 7. `then mark`.
        let cx = Cx::mover(mover).at(last);
        let again = !diverted && sow.again.as_ref().is_some_and(|c| self.test(g, cx, c));
        if let Some(then) = &sow.then {
            self.then_take(g, run, then, mover)?;
        }
        self.then_marks(g, sow, mover);
        Ok(if again { Next::Keep } else { Next::Switch })
    }

    fn set_sowing(&self, g: &mut Game, lap: &Lap) {
        if let Some(s) = g.sowing.as_mut() {
            s.origin = lap.origin;
            s.dir = lap.dir;
            s.lap = lap.number;
        }
    }

    /// The laps after which a sowing is endless: fewer where a rule lets such a move be played.
    fn lap_cap(&self, phase: usize) -> u32 {
        if self.endless_rule(phase).is_some() {
            ENDLESS_LAPS
        } else {
            MAX_LAPS
        }
    }

    /// A step of the move (a lap in hand, or a lap ending again at `at`): whether the move is now found
    /// endless (see `Watch`).
    fn endless_step(&self, g: &Game, run: &Run, watch: &mut Watch, lap: &Lap, at: PlaceId) -> bool {
        if run.asked != watch.asked {
            *watch = Watch::new(run.asked);
        }
        watch.steps += 1;
        let cap = self.lap_cap(g.phase);
        if lap.number > cap || watch.steps > cap {
            return true;
        }
        let played = self.endless_rule(g.phase).is_some();
        if !played && watch.steps <= 16 {
            return false;
        }
        let key = self.move_key(g, lap, at);
        if watch.mark.as_ref() == Some(&key) {
            return true;
        }
        watch.since += 1;
        if watch.since == watch.power {
            watch.mark = Some(key);
            watch.power = watch.power.saturating_mul(2);
            watch.since = 0;
        }
        false
    }

    /// What the rest of a move depends on: the pieces everywhere and in hand, the marks, the owners, the
    /// records of this move's drops where a rule reads them (`before`, `dropped`), and where and which way it
    /// goes on.
    fn move_key(&self, g: &Game, lap: &Lap, at: PlaceId) -> Vec<u8> {
        let mut key: Vec<u8> = g.pieces.cells().to_vec();
        key.extend_from_slice(&lap.hand);
        key.extend(g.owner.iter().map(|o| o.map_or(255, |p| p)));
        for cell in g.marks.cells() {
            key.extend(match cell {
                Some(MarkCell { player, .. }) => [1, player.map_or(255, |p| p)],
                None => [0, 0],
            });
        }
        if self.rules.needs.drops {
            for (p, drop) in g.drops.iter().enumerate() {
                if let Some((before, kind)) = drop {
                    key.extend((p as u32).to_le_bytes());
                    key.extend([*before, *kind]);
                }
            }
        }
        key.extend((lap.origin as u32).to_le_bytes());
        key.extend((at as u32).to_le_bytes());
        key.extend([lap.dir as u8, lap.at_origin as u8]);
        key
    }

    /// A move found never to end: not allowed, or (under a rule about such moves) stopped here, the pieces
    /// still in hand back into the pit the lap started from.
    fn endless(&self, g: &mut Game, ply: &mut Ply, lap: &Lap) -> Result<Next, Halt> {
        if self.endless_rule(g.phase).is_none() {
            return Err(Halt::Illegal);
        }
        for (k, &n) in lap.hand.iter().enumerate() {
            g.pieces[lap.origin as usize][k] += n;
        }
        ply.stop = Some(Stop::Endless);
        Ok(Next::Switch)
    }

    /// `capture at every lift`, then `lift`: the pieces a lap lifts, `until empty`, the sowing's own `mark`
    /// and `unmark`.
    pub(super) fn lift(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        sow: &Sow,
        lap: &mut Lap,
    ) -> Result<(), Halt> {
        let mover = ply.mover;
        let pit = lap.origin;
        if let Some(s) = g.sowing.as_mut() {
            s.origin = pit;
            s.lap = lap.number;
            s.dir = lap.dir;
        }
        let cx = Cx::mover(mover).at(pit);
        // A capture at every lift that takes from a pit the mover chooses (`take { ... }` in it): its set read
        // at the pit about to be lifted, each pit of it the take may be made from (`here` the chosen pit);
        // it holds only where there is one, and then he picks one.
        let pits = |rule: &CaptureRule| -> Vec<PlaceId> {
            match &rule.pick {
                Some(take) => {
                    self.set(g, cx, &take.from).into_iter().filter(|&p| self.can_take(g, take, mover, p)).collect()
                }
                None => Vec::new(),
            }
        };
        let holds = |c: &&CaptureRule| self.test(g, cx, &c.when) && (c.pick.is_none() || !pits(c).is_empty());
        if let Some(rule) = sow.lift_captures.iter().find(holds) {
            match &rule.pick {
                Some(take) => {
                    let options = pits(rule).into_iter().map(Decision::Pick).collect();
                    let Decision::Pick(p) = run.ask(options)? else { unreachable!("a pit") };
                    self.take_pit(g, take, mover, p);
                    // A capture: the first of the move records the pit it took from.
                    ply.captured = true;
                    if !ply.first_taken {
                        ply.first_taken = true;
                        g.taken_first = vec![p].into_iter().collect();
                        if run.trial {
                            return Err(Halt::TrialOver);
                        }
                    }
                }
                None => self.capture(g, run, ply, rule, pit, lap.dir)?,
            }
        }
        let rule = sow.lifts.iter().find(|l| self.test(g, cx, &l.when));
        let (source, count) = match rule {
            Some(l) => (l.from.as_ref().and_then(|p| self.place(g, cx, p)).unwrap_or(pit), Some(l.count)),
            None => (pit, None),
        };
        let mut left = count.unwrap_or(u32::MAX);
        let mut lifted = 0;
        for k in 0..self.kinds() {
            let n = (g.pieces[source as usize][k] as u32).min(left) as u8;
            g.pieces[source as usize][k] -= n;
            lap.hand[k] += n;
            left -= n as u32;
            lifted += n as u32;
        }
        // §9.1 `lift`: a move moves at least one piece; a first lap that lifts nothing, after no capture as
        // it was lifted nor a take before the sowing, is no move.
        if lap.number == 1 && lifted == 0 && !ply.captured && sow.take_first.is_none() {
            return Err(Halt::Illegal);
        }
        self.lose_if_emptied(g, source);
        if let Some(s) = g.sowing.as_mut() {
            s.lifted = lifted;
        }
        for step in &sow.lift_steps {
            self.mark_step(g, cx, step);
        }
        // `start at origin [when]`: tested as the lap starts, `lifted` known.
        lap.at_origin = sow.start_origin.as_ref().is_some_and(|c| self.test(g, cx, c));
        Ok(())
    }

    /// Per-lap direction: the lap goes the first way, or the other where the condition holds at the end of
    /// the lap sown that way, and then the mover chooses.
    fn lap_way(&self, g: &Game, run: &mut Run, ply: &Ply, sow: &Sow, lap: &Lap, first: Dir) -> Result<Dir, Halt> {
        let other = first.reverse();
        let mut h = g.clone();
        let mut tried = Lap { dir: other, ..lap.clone() };
        self.set_sowing(&mut h, &tried);
        let mut quiet = Ply::new(ply.mover, self.kinds());
        let Ok(end) = self.sow_lap(&mut h, &mut Run::new(&[]), &mut quiet, sow, &mut tried) else {
            return Ok(first);
        };
        let cond = sow.lap_dir.as_ref().expect("a direction per lap has its condition");
        // §9.1 `divert`: where the last piece is diverted nothing looks at where it fell, this condition neither.
        if end.diverted || !self.test(&h, Cx::mover(ply.mover).at(end.last), cond) {
            return Ok(first);
        }
        match run.ask(vec![Decision::Dir(first), Decision::Dir(other)])? {
            Decision::Dir(d) => Ok(d),
            _ => unreachable!(),
        }
    }

    /// Step 2: the pieces in hand dropped one per place along the track.
    pub(super) fn sow_lap(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        sow: &Sow,
        lap: &mut Lap,
    ) -> Result<LapEnd, Halt> {
        let mover = ply.mover;
        let (phase, action) = g.sowing.as_ref().map_or((g.phase, 0), |s| (s.phase, s.action));
        let skipped_places = self.skipped_places(g, phase, action, mover);
        let at_origin = lap.at_origin;
        let mut at = lap.origin;
        let mut end = LapEnd { last: lap.origin, diverted: false };
        let mut first = true;
        while lap.hand.iter().any(|&n| n > 0) {
            let kind = self.next_kind(run, sow, mover, &lap.hand)?;
            // §9.1 `skip SET where CONDITION [except last]`: tested as the piece comes to each place; the last
            // piece in hand passes none with `except last`.
            let last_piece = lap.hand.iter().map(|&n| n as u32).sum::<u32>() == 1;
            let skips_where = |q: PlaceId| {
                sow.skip_where.as_ref().is_some_and(|w| {
                    !(w.except_last && last_piece)
                        && self.set(g, Cx::mover(mover), &w.set).contains(&q)
                        && self.test(g, Cx::mover(mover).at(q), &w.cond)
                })
            };
            let target = if first && at_origin {
                lap.origin
            } else {
                let origin = lap.origin;
                self.board
                    .step(at, lap.dir, |q| {
                        skipped_places.contains(&q)
                            || (sow.skip_origin && q == origin)
                            || self.carries_any(g, q, sow.skip_marks)
                            || skips_where(q)
                    })
                    .unwrap_or(at)
            };
            first = false;
            lap.hand[kind as usize] -= 1;
            at = target;
            end = self.drop(g, run, ply, sow, kind, target)?;
        }
        Ok(end)
    }

    /// The kind of the next piece: the mover's choice with `order choose` (his own colour kept for the last
    /// with `last own`), else the first kind in the order of `pieces`.
    fn next_kind(&self, run: &mut Run, sow: &Sow, mover: Player, hand: &[u8]) -> Result<KindId, Halt> {
        let present: Vec<KindId> = (0..self.kinds() as KindId).filter(|&k| hand[k as usize] > 0).collect();
        if !sow.order_chosen {
            return Ok(present[0]);
        }
        let own = |k: KindId| self.rules.kinds[k as usize].owner == mover;
        let total: u32 = hand.iter().map(|&n| n as u32).sum();
        let own_left: u32 = present.iter().filter(|&&k| own(k)).map(|&k| hand[k as usize] as u32).sum();
        let options = present
            .into_iter()
            .filter(|&k| !(sow.last_own && own(k) && own_left == 1 && total > 1))
            .map(Decision::Drop)
            .collect();
        match run.ask(options)? {
            Decision::Drop(k) => Ok(k),
            _ => unreachable!(),
        }
    }

    /// One piece into `target`: sent on by `divert`, or dropped there (recorded for `before`, `dropped`,
    /// `passed`), then the first `capture at every drop` that holds there.
    fn drop(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        sow: &Sow,
        kind: KindId,
        target: PlaceId,
    ) -> Result<LapEnd, Halt> {
        let mover = ply.mover;
        if let Some(s) = g.sowing.as_mut() {
            s.last = Some(target);
        }
        let is_pit = (target as usize) < self.board.n_pits;
        let divert = sow.divert.iter().find(|(m, _)| is_pit && g.marks[*m as usize][target as usize].is_some());
        if let Some((_, to)) = divert {
            let dest = self.place(g, Cx::mover(mover).at(target), to).unwrap_or(target);
            g.pieces[dest as usize][kind as usize] += 1;
            return Ok(LapEnd { last: target, diverted: true });
        }
        let before = g.total(target) as u8;
        g.drops[target as usize] = Some((before, kind));
        g.passed[target as usize] = true;
        g.pieces[target as usize][kind as usize] += 1;
        let cx = Cx::mover(mover).at(target);
        if let Some(rule) = sow.drop_captures.iter().find(|c| self.test(g, cx, &c.when)) {
            self.capture(g, run, ply, rule, target, Dir::Ccw)?;
        }
        Ok(LapEnd { last: target, diverted: false })
    }

    /// The end of a lap (§9.1, "At the end of each lap"), its last piece at `last`: the end rules `at every
    /// lap`, the first capture that holds (and what it says next: sow on, end the lap again at another place,
    /// or the sowing is over), else `relay may` and `relay`, else the sowing is over. `require` is checked as
    /// the sowing is found to be over, before its last capture.
    #[allow(clippy::too_many_arguments)]
    fn end_of_lap(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        sow: &Sow,
        lap: &Lap,
        last: PlaceId,
        diverted: bool,
    ) -> Result<AfterLap, Halt> {
        let mover = ply.mover;
        if let Some(s) = g.sowing.as_mut() {
            s.last = Some(last);
        }
        if self.has_laps(sow) && self.lap_end_rule_holds(g, mover) {
            return Ok(AfterLap::Stopped);
        }
        if diverted {
            self.require(g, sow, mover, last)?;
            return Ok(AfterLap::Over { last, diverted: true });
        }
        let cx = Cx::mover(mover).at(last);
        if let Some(i) = self.first_capture(g, run, sow, cx)? {
            let rule = &sow.captures[i];
            if rule.resow.is_none() && rule.go_on.is_none() {
                self.require(g, sow, mover, last)?;
                self.capture(g, run, ply, rule, last, lap.dir)?;
                return Ok(AfterLap::Over { last, diverted: false });
            }
            self.capture(g, run, ply, rule, last, lap.dir)?;
            if let Some(place) = &rule.go_on {
                // `continue at`: the lap ends again there.
                return Ok(AfterLap::EndsAgain(self.place(g, cx, place).unwrap_or(last)));
            }
            if let Some(place) = &rule.resow {
                // `sow from PLACE`, `sow into PLACE`: the pieces in hand as a new lap; with none taken, none.
                if ply.hand.iter().all(|&n| n == 0) {
                    self.require(g, sow, mover, last)?;
                    return Ok(AfterLap::Over { last, diverted: false });
                }
                let from = self.place(g, cx, place).unwrap_or(last);
                let hand = std::mem::replace(&mut ply.hand, vec![0; self.kinds()]);
                return Ok(AfterLap::Lap(Lap {
                    number: lap.number + 1,
                    origin: from,
                    dir: rule.resow_dir.unwrap_or(lap.dir),
                    hand,
                    lifted: false,
                    at_origin: rule.resow_into,
                    way_given: rule.resow_dir.is_some(),
                }));
            }
        }
        // No capture: the opponent's answer (`opponent may`), the first that holds, made or declined (then
        // the next that holds); made at the last place, `mover` still the sower.
        // An answer that takes from a pit the opponent chooses (§9.1, `take { ... }` in `opponent may`): its set
        // read at the last place, each pit of it that the take may be made from (`here` the pit, `last` still
        // the last place); offered only when there is one, and then the opponent picks one or declines.
        for rule in sow.answers.iter() {
            if !self.test(g, cx, &rule.when) {
                continue;
            }
            if let Some(take) = &rule.pick {
                let pits: Vec<PlaceId> =
                    self.set(g, cx, &take.from).into_iter().filter(|&p| self.can_take(g, take, mover, p)).collect();
                if pits.is_empty() {
                    continue;
                }
                let mut options: Vec<Decision> = pits.into_iter().map(Decision::Pick).collect();
                options.push(Decision::Answer(false));
                if let Decision::Pick(p) = run.ask(options)? {
                    self.take_pit(g, take, mover, p);
                    break;
                }
                continue;
            }
            if run.ask(vec![Decision::Answer(true), Decision::Answer(false)])? == Decision::Answer(true) {
                self.capture_at(g, run, ply, rule, last, &mut Default::default(), &mut false)?;
                break;
            }
        }
        // Then an optional relay (the mover's choice), else the relay; never from an empty pit.
        let is_pit = (last as usize) < self.board.n_pits;
        let holds = is_pit && g.total(last) > 0;
        let mut lifted = None;
        if holds && sow.relay_may.as_ref().is_some_and(|c| self.test(g, cx, c)) {
            let relay = run.ask(vec![Decision::Relay(true), Decision::Relay(false)])?;
            if relay == Decision::Relay(true) {
                lifted = Some(last);
            }
        }
        if lifted.is_none() && is_pit && sow.relay.as_ref().is_some_and(|c| self.test(g, cx, c)) {
            lifted = if sow.relay_next {
                // `relay from next`: the place after the last one, when it holds pieces.
                let next = PlaceExpr::Next(Box::new(PlaceExpr::Here), sow.skip_origin, sow.skip_marks);
                self.place(g, cx, &next).filter(|&p| (p as usize) < self.board.n_pits && g.total(p) > 0)
            } else {
                Some(last).filter(|_| holds)
            };
        }
        let Some(pit) = lifted else {
            self.require(g, sow, mover, last)?;
            return Ok(AfterLap::Over { last, diverted: false });
        };
        Ok(AfterLap::Lap(Lap {
            number: lap.number + 1,
            origin: pit,
            dir: lap.dir,
            hand: vec![0; self.kinds()],
            lifted: true,
            at_origin: false,
            way_given: false,
        }))
    }

    /// The end rules tested `at every lap`, the phase's then the top level's, with `mover` the sower.
    pub(super) fn lap_end_rule_holds(&self, g: &Game, mover: Player) -> bool {
        let phase = &self.rules.phases[g.phase];
        phase.end.items.iter().chain(&self.rules.end.items).any(|r| match r {
            EndRule::AtEveryLap(c) => self.test(g, Cx::mover(mover), c),
            _ => false,
        })
    }

    /// `require`: checked once the sowing is over; a sowing that fails it is not allowed.
    fn require(&self, g: &Game, sow: &Sow, mover: Player, last: PlaceId) -> Result<(), Halt> {
        match &sow.require {
            Some(c) if !self.test(g, Cx::mover(mover).at(last), c) => Err(Halt::Illegal),
            _ => Ok(()),
        }
    }

    /// `then may | must take`.
    fn then_take(&self, g: &mut Game, run: &mut Run, then: &ThenRule, mover: Player) -> Result<(), Halt> {
        let cx = Cx::mover(mover);
        // The pits of the set (where `here` is the last place) that pass the condition and hold a piece to take.
        let eligible = |g: &Game| -> Vec<PlaceId> {
            let at_last = match g.sowing.as_ref().and_then(|s| s.last) {
                Some(last) => cx.at(last),
                None => cx,
            };
            self.set(g, at_last, &then.set)
                .into_iter()
                .filter(|&p| {
                    let kinds = self.kinds_of(g, cx.at(p), &then.kinds);
                    kinds.iter().any(|&k| g.pieces[p as usize][k as usize] > 0) && self.test(g, cx.at(p), &then.filter)
                })
                .collect()
        };
        let take_from = |g: &mut Game, p: PlaceId| {
            let to = self.place(g, cx.at(p), &then.to);
            let kinds = self.kinds_of(g, cx.at(p), &then.kinds);
            if let Some(to) = to {
                for k in kinds {
                    let n = g.pieces[p as usize][k as usize];
                    g.pieces[p as usize][k as usize] -= n;
                    g.pieces[to as usize][k as usize] += n;
                }
            }
            self.lose_if_emptied(g, p);
        };
        if then.must {
            for p in eligible(g) {
                take_from(g, p);
            }
            return Ok(());
        }
        let mut after: Option<PlaceId> = None;
        loop {
            let mut options: Vec<Decision> =
                eligible(g).into_iter().filter(|&p| after.is_none_or(|a| p > a)).map(Decision::Pick).collect();
            options.push(Decision::Stop);
            match run.ask(options)? {
                Decision::Pick(p) => {
                    take_from(g, p);
                    after = Some(p);
                }
                _ => return Ok(()),
            }
        }
    }

    /// `then mark`: the pits worked out first, then marked.
    fn then_marks(&self, g: &mut Game, sow: &Sow, mover: Player) {
        // `here` in the set and the player is the last place.
        let cx = Cx::mover(mover);
        let cx = g.sowing.as_ref().and_then(|s| s.last).map_or(cx, |last| cx.at(last));
        for tm in &sow.then_marks {
            // `threats` is worked out once for each `then mark`.
            *self.threats_made.borrow_mut() = Some(vec![None; self.rules.players as usize]);
            let pits: Vec<PlaceId> = self
                .set(g, cx, &tm.set)
                .into_iter()
                .filter(|&p| (p as usize) < self.board.n_pits && self.test(g, cx.at(p), &tm.filter))
                .collect();
            let who = tm.player.as_ref().and_then(|w| self.player(g, cx, w));
            *self.threats_made.borrow_mut() = None;
            for p in pits {
                self.put_mark(g, p, tm.mark, who);
            }
        }
    }
}
