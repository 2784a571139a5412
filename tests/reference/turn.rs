//! §8, §9, §14: a ply, and the decisions in it. A ply is played by one function, `act`, which asks for each
//! decision as it comes (`Run::ask`); the decisions already made are a script, so what is legal at any point
//! is found by playing the ply again from its start with one more decision, on a copy (`options`,
//! `completable`): a decision is offered when some way of going on from it completes a legal ply. No
//! shortcut: every candidate is played out.
//!
//! Also here: the starts of a turn (`starts`: the actions' starts, `from ... else`, `prefer`, `pass`,
//! answering an offer), `put` (§9.3), `offer` and its answer (§9.4), `must` (§9.6) and `threats(PLAYER)`.

use std::collections::BTreeSet;

use mancala::ir::*;

use super::eval::Cx;
use super::state::Offer as Pending;
use super::{Decision, Game, Player, Reference};

/// The most continuations tried to find whether one decision completes into a legal ply (§16).
pub const MAX_PROBE_STEPS: u32 = 10_000;

thread_local! {
    /// A time past which a look-ahead gives up (`give_up_after`): the differential fuzzer's bound on a game,
    /// whose look-aheads can take seconds a decision on a mutant with many choices.
    static GIVE_UP: std::cell::Cell<Option<std::time::Instant>> = const { std::cell::Cell::new(None) };
}

/// What a look-ahead panics with past the time `give_up_after` set: the game is left, not judged.
pub const OUT_OF_TIME: &str = "the reference's look-ahead ran out of time";

/// Look-aheads after `deadline` panic with [`OUT_OF_TIME`] (`None`: never), so that a caller that catches
/// panics can bound a game however long one decision takes.
pub fn give_up_after(deadline: Option<std::time::Instant>) {
    GIVE_UP.with(|d| d.set(deadline));
}

/// Why a ply played from a script stopped before its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Halt {
    /// The script ran out where the mover has these options.
    Ask(Vec<Decision>),
    /// This line of play is not allowed (a `require` failed, a sowing never ends, a put cannot be made as
    /// often as it must, an offer cannot meet its `require`, the obligation is not met), or the script named
    /// a decision that is not an option.
    Illegal,
    /// A trial of `threats` is over: its first capture was made, or its sowing ended.
    TrialOver,
}

/// The decisions of a ply made so far, handed out as the ply asks for them.
pub struct Run<'s> {
    script: &'s [Decision],
    used: usize,
    /// The decisions the mover was asked for so far (where he had more than one option).
    pub asked: u32,
    /// A trial for `threats`: stop after the first capture, or where the sowing ends.
    pub trial: bool,
}

impl<'s> Run<'s> {
    pub fn new(script: &'s [Decision]) -> Run<'s> {
        Run { script, used: 0, asked: 0, trial: false }
    }

    /// The mover's decision among `options`: taken by itself when there is one (§14: he is asked only where
    /// the rules leave him a real choice), else the next of the script.
    pub fn ask(&mut self, options: Vec<Decision>) -> Result<Decision, Halt> {
        match options.len() {
            0 => return Err(Halt::Illegal),
            1 => return Ok(options[0]),
            _ => {}
        }
        self.asked += 1;
        match self.script.get(self.used) {
            Some(d) => {
                self.used += 1;
                if options.contains(d) {
                    Ok(*d)
                } else {
                    Err(Halt::Illegal)
                }
            }
            None => Err(Halt::Ask(options)),
        }
    }
}

/// What a ply in progress keeps besides the position.
#[derive(Debug, Clone)]
pub struct Ply {
    pub mover: Player,
    /// The mover's hand: pieces taken `to hand`, to be sown on.
    pub hand: Vec<u8>,
    /// A capture was made.
    pub captured: bool,
    /// The first capture that took pieces was made (`taken_first` is written).
    pub first_taken: bool,
    pub stop: Option<Stop>,
    /// The last piece a capture's `chosen` takes picked (group, place, kind): they are picked in that order.
    pub picked: Option<(usize, PlaceId, mancala::ir::KindId)>,
}

impl Ply {
    pub fn new(mover: Player, kinds: usize) -> Ply {
        Ply { mover, hand: vec![0; kinds], captured: false, first_taken: false, stop: None, picked: None }
    }
}

/// How a move stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// An end rule `at every lap` held.
    AtEveryLap,
    /// The move would never end (under a rule that lets it be played).
    Endless,
}

/// Whose turn follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    Switch,
    /// The mover again (`again`, or answering an offer and then playing his turn).
    Keep,
    /// The opponent answers an offer.
    Respond,
}

/// A ply played: who made it, who follows, how it stopped, whether it captured.
#[derive(Debug, Clone)]
pub struct Done {
    pub mover: Player,
    pub next: Next,
    pub stop: Option<Stop>,
    pub captured: bool,
}

/// Where a ply stands after some decisions.
pub enum Step {
    /// The legal options of the next decision.
    Ask(Vec<Decision>),
    /// The ply is complete: the game after it.
    Done(Box<Game>),
}

impl Step {
    /// The options, or none when the ply is complete.
    pub fn options(&self) -> Vec<Decision> {
        match self {
            Step::Ask(o) => o.clone(),
            Step::Done(_) => Vec::new(),
        }
    }
}

impl Reference {
    /// The legal decisions after `made` (the ply's decisions so far; none at a turn's start), or the game
    /// after the ply when `made` completes it.
    pub fn step(&self, g: &Game, made: &[Decision]) -> Step {
        if made.is_empty() {
            return Step::Ask(g.starts.clone().unwrap_or_else(|| self.starts(g)));
        }
        let mut h = g.clone();
        let mut run = Run::new(&made[1..]);
        match self.act(&mut h, made[0], &mut run) {
            Ok(done) => {
                self.end_ply(&mut h, done);
                Step::Done(Box::new(h))
            }
            Err(Halt::Ask(options)) => {
                let mut legal = Vec::new();
                for o in options {
                    let mut line = made.to_vec();
                    line.push(o);
                    if self.completable(g, &line, &mut MAX_PROBE_STEPS.clone()) {
                        legal.push(o);
                    }
                }
                Step::Ask(legal)
            }
            Err(_) => Step::Ask(Vec::new()),
        }
    }

    /// Whether the decisions `line` can be completed into a legal ply: played out, every continuation tried
    /// until one completes.
    pub fn completable(&self, g: &Game, line: &[Decision], budget: &mut u32) -> bool {
        if *budget == 0 {
            return false;
        }
        if GIVE_UP.with(|d| d.get()).is_some_and(|d| std::time::Instant::now() > d) {
            panic!("{OUT_OF_TIME}");
        }
        *budget -= 1;
        let mut h = g.clone();
        let mut run = Run::new(&line[1..]);
        match self.act(&mut h, line[0], &mut run) {
            Ok(_) | Err(Halt::TrialOver) => true,
            Err(Halt::Illegal) => false,
            Err(Halt::Ask(options)) => options.into_iter().any(|o| {
                let mut longer = line.to_vec();
                longer.push(o);
                self.completable(g, &longer, budget)
            }),
        }
    }

    /// The legal starts of the turn (§14 decision 1): answering an offer; else each action's starts that
    /// complete into a legal ply (and meet the obligation), `prefer` keeping the first ranked action that has
    /// any, and `pass` where the rule lets him.
    pub fn starts(&self, g: &Game) -> Vec<Decision> {
        if g.result.is_some() {
            return Vec::new();
        }
        if g.offer.is_some() {
            return vec![Decision::Accept, Decision::Decline];
        }
        let phase = &self.rules.phases[g.phase];
        let mut per_action: Vec<Vec<Decision>> =
            (0..phase.actions.len()).map(|a| self.completing_starts(g, a)).collect();
        let cannot: Vec<bool> = per_action.iter().map(Vec::is_empty).collect();
        rank(&phase.prefer, &mut per_action);
        let mut out: Vec<Decision> = per_action.into_iter().flatten().collect();
        if let Some(pass) = &phase.pass {
            if pass.unless.iter().all(|&a| cannot[a as usize]) {
                out.push(Decision::Pass);
            }
        }
        out
    }

    /// Whether `p` could start an action (a sowing, a put, an offer) were it his turn.
    pub fn can_start(&self, g: &Game, p: Player) -> bool {
        let mut h = g.clone();
        h.to_move = p;
        h.obliged = false;
        h.offer = None;
        self.starts(&h).iter().any(|d| matches!(d, Decision::Begin { .. }))
    }

    /// An action's starts that complete into a legal ply. §9.1 `else`: a sowing's group none of whose starts
    /// completes hands over to the next group, as `prefer` hands over to the next action.
    fn completing_starts(&self, g: &Game, action: usize) -> Vec<Decision> {
        let completes = |d: &Decision| self.completable(g, &[*d], &mut MAX_PROBE_STEPS.clone());
        match &self.rules.phases[g.phase].actions[action].kind {
            ActionKind::Sow(sow @ Sow { take_first: None, .. }) if !sow.from_else.is_empty() => {
                let mut group = 0;
                while let Some((pits, used)) = self.sow_group_pits(g, action, sow, group) {
                    let starts: Vec<Decision> =
                        pits.into_iter().map(|place| Decision::Begin { action, place }).filter(completes).collect();
                    if !starts.is_empty() {
                        return starts;
                    }
                    group = used + 1;
                }
                Vec::new()
            }
            _ => self.candidates(g, action).into_iter().filter(completes).collect(),
        }
    }

    /// An action's starts by its own rules, before look-ahead: a sowing's pits (`from ... where`, the groups
    /// of `else` in turn, a way to go, `last own`), a put's pits, an offer's first pit.
    pub fn candidates(&self, g: &Game, action: usize) -> Vec<Decision> {
        // §13 `before`, `dropped`: the move being chosen has dropped nothing yet, so its conditions see no drop
        // (the last move's are for the end rules that follow it).
        let fresh;
        let g = if g.drops.iter().any(Option::is_some) {
            let mut copy = g.clone();
            copy.drops.fill(None);
            fresh = copy;
            &fresh
        } else {
            g
        };
        let mover = g.to_move;
        let cx = Cx::mover(mover);
        let begin = |place| Decision::Begin { action, place };
        match &self.rules.phases[g.phase].actions[action].kind {
            // §9.2: a take written first in the sowing starts it, at a pit the take can be made from.
            ActionKind::Sow(Sow { take_first: Some(take), .. }) => self
                .set(g, cx, &take.from)
                .into_iter()
                .filter(|&p| self.can_take(g, take, mover, p))
                .map(begin)
                .collect(),
            ActionKind::Sow(sow) => self.sow_pits(g, action, sow).into_iter().map(begin).collect(),
            ActionKind::Put(put) => {
                self.set(g, cx, &put.into).into_iter().filter(|&p| self.can_put(g, put, mover, p)).map(begin).collect()
            }
            ActionKind::Take(take) => self
                .set(g, cx, &take.from)
                .into_iter()
                .filter(|&p| self.can_take(g, take, mover, p))
                .map(begin)
                .collect(),
            ActionKind::Offer(offer) => self
                .set(g, cx, &offer.from)
                .into_iter()
                .filter(|&p| (p as usize) < self.board.n_pits && g.owner[p as usize] == Some(mover))
                .map(begin)
                .collect(),
        }
    }

    /// The pits a sowing may start from: `from ... where`, the groups of `else` in turn, a way to go, `last own`.
    fn sow_pits(&self, g: &Game, action: usize, sow: &Sow) -> Vec<PlaceId> {
        self.sow_group_pits(g, action, sow, 0).map_or_else(Vec::new, |(pits, _)| pits)
    }

    /// `sow_pits` from the group `first` on: the pits of the first group that has any, and that group.
    fn sow_group_pits(&self, g: &Game, action: usize, sow: &Sow, first: usize) -> Option<(Vec<PlaceId>, usize)> {
        let mover = g.to_move;
        let cx = Cx::mover(mover);
        let groups = std::iter::once((&sow.from, &sow.filter)).chain(sow.from_else.iter().map(|(s, c)| (s, c)));
        for (i, (set, filter)) in groups.enumerate().skip(first) {
            let pits: Vec<PlaceId> = self
                .set(g, cx, set)
                .into_iter()
                .filter(|&p| (p as usize) < self.board.n_pits && g.total(p) > 0)
                .filter(|&p| self.test(g, cx.at(p), filter))
                .filter(|&p| !sow.last_own || self.own_pieces(g, p, mover) > 0)
                .filter(|&p| !self.ways(g, g.phase, action, p, mover).is_empty())
                .collect();
            if !pits.is_empty() {
                return Some((pits, i));
            }
        }
        None
    }

    fn own_pieces(&self, g: &Game, p: PlaceId, mover: Player) -> u32 {
        (0..self.kinds()).filter(|&k| self.rules.kinds[k].owner == mover).map(|k| g.pieces[p as usize][k] as u32).sum()
    }

    /// A ply from its start decision to its end (before the end of the ply: `end_ply`). Fails when the line
    /// is not allowed, or asks when the script runs out.
    pub fn act(&self, g: &mut Game, start: Decision, run: &mut Run) -> Result<Done, Halt> {
        let mover = g.to_move;
        let mut ply = Ply::new(mover, self.kinds());
        g.starts = None;
        self.start_ply(g);
        let next = match start {
            Decision::Begin { action, place } => match &self.rules.phases[g.phase].actions[action].kind {
                // §9.2: the take written first in the sowing, then the pit to sow from, chosen after it: the
                // sowing's `from`, its groups after `else` and the ways a start may go (`direction ... where`,
                // `must capture`) are all read on the position after the take, and so is what is dropped.
                ActionKind::Sow(sow @ Sow { take_first: Some(take), .. }) => {
                    self.take_pit(g, take, mover, place);
                    let pits = self.sow_pits(g, action, sow);
                    if pits.is_empty() {
                        return Err(Halt::Illegal);
                    }
                    match run.ask(pits.into_iter().map(Decision::Pick).collect())? {
                        Decision::Pick(from) => self.sow(g, run, &mut ply, action, from)?,
                        _ => return Err(Halt::Illegal),
                    }
                }
                ActionKind::Sow(_) => self.sow(g, run, &mut ply, action, place)?,
                ActionKind::Put(put) => self.put(g, run, put, mover, place)?,
                ActionKind::Take(take) => {
                    self.take_pit(g, take, mover, place);
                    Next::Switch
                }
                ActionKind::Offer(offer) => self.offer(g, run, offer, mover, action, place)?,
            },
            Decision::Pass => Next::Switch,
            Decision::Accept => {
                self.accept(g, run)?;
                Next::Keep
            }
            Decision::Decline => {
                g.offer = None;
                Next::Keep
            }
            _ => return Err(Halt::Illegal),
        };
        if run.trial {
            return Err(Halt::TrialOver);
        }
        // §9.6: bound by an obligation, only a move after which it holds (however the move ends).
        if g.obliged {
            let must = self.rules.phases[g.phase].must.as_ref().expect("an obligation has its rule");
            if !self.test(g, Cx::mover(mover), &must.after) {
                return Err(Halt::Illegal);
            }
        }
        Ok(Done { mover, next, stop: ply.stop, captured: ply.captured })
    }

    /// A ply starts: the records of the move before are cleared (the marks for one ply already are, after the
    /// end rules that followed it: `end.rs` `turn_checks`; those of a position typed in are the coming ply's);
    /// a turn that passes to another player forgets what was `passed`.
    fn start_ply(&self, g: &mut Game) {
        g.drops.fill(None);
        g.taken_first.clear();
        if g.last_mover != g.to_move {
            g.passed.fill(false);
        }
    }

    /// §9.3 `put`: into the first pit, then, as often as the mover likes and may, into pits at or after it.
    fn put(&self, g: &mut Game, run: &mut Run, put: &Put, mover: Player, first: PlaceId) -> Result<Next, Halt> {
        let mut pit = first;
        let mut times = 0;
        loop {
            self.put_once(g, put, mover, pit);
            times += 1;
            if put.max_times.is_some_and(|m| times >= m) {
                break;
            }
            let mut options: Vec<Decision> = (pit..self.board.n_pits as PlaceId)
                .filter(|&p| self.set(g, Cx::mover(mover), &put.into).contains(&p) && self.can_put(g, put, mover, p))
                .map(Decision::Pick)
                .collect();
            if times >= put.min_times {
                options.push(Decision::Stop);
            }
            match run.ask(options)? {
                Decision::Pick(p) => pit = p,
                _ => break,
            }
        }
        Ok(Next::Switch)
    }

    /// Whether the put's pieces can go into pit `p`: the pit passes the condition, the source holds them.
    fn can_put(&self, g: &Game, put: &Put, mover: Player, p: PlaceId) -> bool {
        let cx = Cx::mover(mover).at(p);
        let Some(source) = self.place(g, cx, &put.from) else { return false };
        let kinds = self.kinds_of(g, cx, &put.kinds);
        let held: u32 = kinds.iter().map(|&k| g.pieces[source as usize][k as usize] as u32).sum();
        (p as usize) < self.board.n_pits && held >= put.count && self.test(g, cx, &put.filter)
    }

    fn put_once(&self, g: &mut Game, put: &Put, mover: Player, p: PlaceId) {
        let cx = Cx::mover(mover).at(p);
        let Some(source) = self.place(g, cx, &put.from) else { return };
        let mut left = put.count;
        for k in self.kinds_of(g, cx, &put.kinds) {
            let n = (g.pieces[source as usize][k as usize] as u32).min(left) as u8;
            g.pieces[source as usize][k as usize] -= n;
            g.pieces[p as usize][k as usize] += n;
            left -= n as u32;
        }
    }

    /// §9.3 `take { ... }`: a pit of the set that passes the condition (`here` the pit), holds the pieces to
    /// take (`N`, or at least one), and whose place is another place.
    pub(super) fn can_take(&self, g: &Game, take: &TakeAction, mover: Player, p: PlaceId) -> bool {
        if (p as usize) >= self.board.n_pits {
            return false;
        }
        let cx = Cx::mover(mover).at(p);
        let Some(to) = self.place(g, cx, &take.to) else { return false };
        let kinds = self.kinds_of(g, cx, &take.kinds);
        let held: u32 = kinds.iter().map(|&k| g.pieces[p as usize][k as usize] as u32).sum();
        to != p && held >= take.count.unwrap_or(1) && self.test(g, cx, &take.filter)
    }

    /// The pieces of the chosen pit (`N` of them, kinds in the order of `pieces`, or all) go to the place.
    pub(super) fn take_pit(&self, g: &mut Game, take: &TakeAction, mover: Player, p: PlaceId) {
        let cx = Cx::mover(mover).at(p);
        let Some(to) = self.place(g, cx, &take.to) else { return };
        let mut left = take.count.unwrap_or(u32::MAX);
        for k in self.kinds_of(g, cx, &take.kinds) {
            let n = (g.pieces[p as usize][k as usize] as u32).min(left) as u8;
            g.pieces[p as usize][k as usize] -= n;
            g.pieces[to as usize][k as usize] += n;
            left -= n as u32;
        }
    }

    /// §9.4 `offer`: the first pit, then further pits after it, within `choose N..M` and `keeping K`; the
    /// offer stands when its `require`s hold, and the opponent answers.
    fn offer(
        &self,
        g: &mut Game,
        run: &mut Run,
        offer: &Offer,
        mover: Player,
        action: usize,
        first: PlaceId,
    ) -> Result<Next, Halt> {
        let cx = Cx::mover(mover);
        let owned = |g: &Game| -> Vec<PlaceId> {
            self.set(g, cx, &offer.from)
                .into_iter()
                .filter(|&p| (p as usize) < self.board.n_pits && g.owner[p as usize] == Some(mover))
                .collect()
        };
        let all_owned = (0..self.board.n_pits).filter(|&p| g.owner[p] == Some(mover)).count() as u32;
        let mut offered = vec![first];
        loop {
            let size = offered.len() as u32;
            let more = size < offer.max && all_owned.saturating_sub(size + 1) >= offer.keeping;
            let mut options: Vec<Decision> = if more {
                let after = *offered.last().unwrap_or(&first);
                owned(g).into_iter().filter(|&p| p > after).map(Decision::Pick).collect()
            } else {
                Vec::new()
            };
            if size >= offer.min && all_owned.saturating_sub(size) >= offer.keeping {
                options.push(Decision::Stop);
            }
            match run.ask(options)? {
                Decision::Pick(p) => offered.push(p),
                _ => break,
            }
        }
        let cx = Cx { offered: Some(&offered), ..cx };
        if !offer.requires.iter().all(|c| self.test(g, cx, c)) {
            return Err(Halt::Illegal);
        }
        g.offer = Some(Pending { by: mover, action, pits: offered });
        Ok(Next::Respond)
    }

    /// An accepted offer: its effects in order, `mover` still the player who made it.
    fn accept(&self, g: &mut Game, run: &mut Run) -> Result<(), Halt> {
        let Some(offer) = g.offer.take() else { return Err(Halt::Illegal) };
        let ActionKind::Offer(rule) = &self.rules.phases[g.phase].actions[offer.action].kind else {
            return Err(Halt::Illegal);
        };
        let cx = Cx { offered: Some(&offer.pits), ..Cx::mover(offer.by) };
        let mut hand = vec![0; self.kinds()];
        for effect in &rule.on_accept {
            match effect {
                Effect::GiveOffered(who) => {
                    let who = self.player(g, cx, who);
                    for &p in &offer.pits {
                        g.owner[p as usize] = who;
                    }
                }
                Effect::Take(take) => {
                    self.take(g, run, &mut hand, &mut None, take, cx)?;
                }
            }
        }
        Ok(())
    }

    /// `threats(P)`: the pits the first capture of each start `P` could make now would take from, every choice
    /// on the way tried (on copies; `prefer` by the starts alone; no obligation).
    pub fn threats(&self, g: &Game, p: Player) -> Vec<PlaceId> {
        if let Some(Some(known)) = self.threats_made.borrow().as_ref().map(|t| t[p as usize].clone()) {
            return known;
        }
        let found = self.work_out_threats(g, p);
        if let Some(made) = self.threats_made.borrow_mut().as_mut() {
            made[p as usize] = Some(found.clone());
        }
        found
    }

    fn work_out_threats(&self, g: &Game, p: Player) -> Vec<PlaceId> {
        // The moves tried below (to see which can be made, and how far) never ask for threats again; should
        // one, it sees none (§13).
        if self.threats_busy.replace(true) {
            return Vec::new();
        }
        let mut h = g.clone();
        h.to_move = p;
        h.obliged = false;
        h.offer = None;
        let phase = &self.rules.phases[h.phase];
        // The starts he could make: those a complete move follows (a `require` met, a `must capture` too).
        let mut per_action: Vec<Vec<Decision>> = (0..phase.actions.len())
            .map(|a| match phase.actions[a].kind {
                ActionKind::Sow(_) => self.completing_starts(&h, a),
                _ => Vec::new(),
            })
            .collect();
        rank(&phase.prefer, &mut per_action);
        let mut pits = BTreeSet::new();
        let mut budget = MAX_PROBE_STEPS;
        for start in per_action.into_iter().flatten() {
            self.trial(&h, &[start], &mut pits, &mut budget);
        }
        self.threats_busy.set(false);
        pits.into_iter().collect()
    }

    fn trial(&self, g: &Game, line: &[Decision], pits: &mut BTreeSet<PlaceId>, budget: &mut u32) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        let mut h = g.clone();
        let mut run = Run { trial: true, ..Run::new(&line[1..]) };
        match self.act(&mut h, line[0], &mut run) {
            Err(Halt::TrialOver) => pits.extend(h.taken_first.iter().copied()),
            Err(Halt::Ask(options)) => {
                for o in options {
                    let mut longer = line.to_vec();
                    longer.push(o);
                    self.trial(g, &longer, pits, budget);
                }
            }
            _ => {}
        }
    }
}

/// §9.7 `prefer`: of the ranked actions, only the first that has a start keeps its starts.
fn rank(prefer: &[u8], per_action: &mut [Vec<Decision>]) {
    if let Some(&kept) = prefer.iter().find(|&&a| !per_action[a as usize].is_empty()) {
        for &a in prefer {
            if a != kept {
                per_action[a as usize].clear();
            }
        }
    }
}
