//! Random playouts and their statistics: the reusable part of `mancala simulate`, `mancala bench` and the
//! benchmarks.
//!
//! A random player chooses uniformly among [`Engine::legal_moves`] at every decision point. [`Playout`]
//! keeps the buffers of one engine (a template of the first position, the current position, the legal
//! moves, the decisions of the current ply), so that playing game after game allocates nothing in the
//! per-ply loop; [`random_game`] is the one-shot convenience. [`Summary`] adds up the games.

use serde::Serialize;

use crate::engine::{EndReason, Engine, Move, Outcome, State};

/// The random-number generator of random players: wyrand (`fastrand`), which the hand-written engines of
/// `mancala-baseline` use too, so that `mancala bench` compares the engines and not their generators.
pub type Dice = fastrand::Rng;

/// A uniformly random number below `n` (at least 1): Lemire's multiply-shift with its rare rejection, the
/// draw of every random player (and of the hand-written engines, `mancala_baseline::draw`).
#[inline(always)]
pub fn draw(rng: &mut Dice, n: usize) -> usize {
    rng.usize(..n)
}

/// More decisions than this in one game means the engine is going round in circles: the game is abandoned.
pub const MAX_DECISIONS: u64 = 50_000_000;

/// What one game came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameStats {
    /// Plies played (`state.ply` at the end).
    pub plies: u32,
    /// Decisions made: a ply is one or more of them.
    pub decisions: u64,
    /// Plies with a capture (`state.captures` at the end).
    pub captures: u32,
    /// `None` when the engine offered no move in a position that was not over, or the game ran past
    /// [`MAX_DECISIONS`]: an engine bug, counted apart in [`Summary::abandoned`].
    pub outcome: Option<Outcome>,
}

impl GameStats {
    pub fn reason(&self) -> Option<EndReason> {
        self.outcome.as_ref().map(|o| o.reason)
    }
}

/// One finished ply, as handed to the `on_ply` callback.
#[derive(Debug, Clone, Copy)]
pub struct Ply<'a> {
    /// The ply's number, from 1 (`state.ply` after it).
    pub number: u32,
    /// The seat that made it, from 0.
    pub mover: u8,
    /// The phase it was played in (`state.phase` before it).
    pub phase: u8,
    /// The decisions it was made of, in order.
    pub moves: &'a [Move],
    /// The position after it.
    pub state: &'a State,
}

/// Random playouts of one engine with reused buffers.
#[derive(Debug, Clone)]
pub struct Playout<'e> {
    engine: &'e Engine,
    initial: State,
    state: State,
    legal: Vec<Move>,
    ply_moves: Vec<Move>,
}

impl<'e> Playout<'e> {
    pub fn new(engine: &'e Engine) -> Playout<'e> {
        let initial = engine.initial_state();
        Playout {
            engine,
            state: initial.clone(),
            initial,
            legal: Vec::with_capacity(64),
            ply_moves: Vec::with_capacity(16),
        }
    }

    pub fn engine(&self) -> &'e Engine {
        self.engine
    }

    /// The position where the last game stopped.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Plays one game between uniformly random players; calls `on_ply` after every ply.
    pub fn run(&mut self, rng: &mut Dice, mut on_ply: impl FnMut(Ply<'_>)) -> GameStats {
        let engine = self.engine;
        let st = &mut self.state;
        st.reset_to(&self.initial);
        self.ply_moves.clear();
        let mut decisions = 0u64;
        let mut mover = st.to_move;
        let mut phase = st.phase;
        let mut abandoned = false;
        while st.result.is_none() {
            if decisions >= MAX_DECISIONS {
                abandoned = true;
                break;
            }
            let ply = st.ply;
            // A turn of a plain phase picks among its starts as bits, the same pick as from the list.
            let mv = if let Some(turn) = engine.plain_turn(st) {
                if turn.len == 0 {
                    abandoned = true;
                    break;
                }
                let mv = turn.nth(draw(rng, turn.len));
                engine.play_plain_turn(st, &turn, mv);
                mv
            } else {
                self.legal.clear();
                engine.legal_moves(st, &mut self.legal);
                if self.legal.is_empty() {
                    abandoned = true;
                    break;
                }
                let mv = self.legal[draw(rng, self.legal.len())];
                engine.apply_unchecked(st, mv);
                mv
            };
            decisions += 1;
            if st.ply == ply {
                self.ply_moves.push(mv);
                continue;
            }
            // A ply of one decision is handed over without the list.
            let moves = if self.ply_moves.is_empty() {
                std::slice::from_ref(&mv)
            } else {
                self.ply_moves.push(mv);
                &self.ply_moves[..]
            };
            on_ply(Ply { number: st.ply, mover, phase, moves, state: st });
            self.ply_moves.clear();
            mover = st.to_move;
            phase = st.phase;
        }
        GameStats {
            plies: st.ply,
            decisions,
            captures: st.captures,
            outcome: if abandoned { None } else { st.result.clone() },
        }
    }

    /// Plays random games for `duration` (at least one game); returns the games, plies and decisions played.
    pub fn run_for(&mut self, rng: &mut Dice, duration: std::time::Duration) -> Throughput {
        let start = std::time::Instant::now();
        let mut t = Throughput::default();
        loop {
            let g = self.run(rng, |_| {});
            t.games += 1;
            t.plies += g.plies as u64;
            t.decisions += g.decisions;
            // Reading the clock costs little next to a whole game.
            t.elapsed = start.elapsed();
            if t.elapsed >= duration {
                return t;
            }
        }
    }
}

/// Games, plies and decisions played in some time.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Throughput {
    pub games: u64,
    pub plies: u64,
    pub decisions: u64,
    #[serde(serialize_with = "secs")]
    pub elapsed: std::time::Duration,
}

fn secs<S: serde::Serializer>(d: &std::time::Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}

impl std::ops::AddAssign for Throughput {
    fn add_assign(&mut self, other: Throughput) {
        self.games += other.games;
        self.plies += other.plies;
        self.decisions += other.decisions;
        self.elapsed += other.elapsed;
    }
}

impl Throughput {
    pub fn games_per_sec(&self) -> f64 {
        per_sec(self.games, self.elapsed)
    }
    pub fn plies_per_sec(&self) -> f64 {
        per_sec(self.plies, self.elapsed)
    }
    pub fn decisions_per_sec(&self) -> f64 {
        per_sec(self.decisions, self.elapsed)
    }
    pub fn mean_plies(&self) -> f64 {
        mean(self.plies, self.games)
    }
}

fn per_sec(n: u64, d: std::time::Duration) -> f64 {
    let s = d.as_secs_f64();
    if s > 0.0 {
        n as f64 / s
    } else {
        0.0
    }
}

fn mean(total: u64, n: u64) -> f64 {
    if n == 0 {
        0.0
    } else {
        total as f64 / n as f64
    }
}

/// Plays one game and returns its plies and decisions.
type PlayFn<'a> = Box<dyn FnMut(&mut Dice) -> (u64, u64) + 'a>;

/// One contestant of [`race`]: something that plays whole random games and says how many plies each took.
pub struct Runner<'a> {
    pub name: String,
    /// The stem of the rule file it plays (`kalah` for `games/kalah.mancala`), which pairs a rule file
    /// with a hand-written engine of the same game.
    pub stem: String,
    /// Written by hand for one game (the yardstick), not an interpreted rule file.
    pub hand_written: bool,
    /// Plays one game and returns its plies and decisions.
    play: PlayFn<'a>,
    rng: Dice,
    pub done: Throughput,
}

impl<'a> Runner<'a> {
    /// A runner of a hand-written engine: `play` plays one game and returns its plies.
    pub fn hand_written(name: &str, stem: &str, seed: u64, mut play: impl FnMut(&mut Dice) -> u32 + 'a) -> Self {
        Runner {
            name: name.into(),
            stem: stem.into(),
            hand_written: true,
            play: Box::new(move |rng| {
                let plies = play(rng) as u64;
                (plies, plies)
            }),
            rng: Dice::with_seed(seed),
            done: Throughput::default(),
        }
    }

    /// A runner of random playouts of one engine.
    pub fn engine(name: &str, stem: &str, seed: u64, engine: &'a Engine) -> Self {
        let mut playout = Playout::new(engine);
        Runner {
            name: name.into(),
            stem: stem.into(),
            hand_written: false,
            play: Box::new(move |rng| {
                let g = playout.run(rng, |_| {});
                (g.plies as u64, g.decisions)
            }),
            rng: Dice::with_seed(seed),
            done: Throughput::default(),
        }
    }
}

/// Times every runner for about `each` in turns of `slice`, so that a change in the machine's speed while it
/// runs (a shared machine's neighbours, a clock that speeds up) falls on all of them alike and their ratios
/// stay meaningful. Whole games only: a turn ends after the game that crosses its end. `progress` is told
/// the fraction done after every round of turns.
pub fn race(
    runners: &mut [Runner<'_>],
    each: std::time::Duration,
    slice: std::time::Duration,
    mut progress: impl FnMut(f64),
) {
    let rounds = (each.as_secs_f64() / slice.as_secs_f64()).ceil().max(1.0) as u32;
    for round in 0..rounds {
        for r in runners.iter_mut() {
            let start = std::time::Instant::now();
            let mut t = Throughput::default();
            loop {
                let (plies, decisions) = (r.play)(&mut r.rng);
                t.games += 1;
                t.plies += plies;
                t.decisions += decisions;
                t.elapsed = start.elapsed();
                if t.elapsed >= slice {
                    break;
                }
            }
            r.done += t;
        }
        progress((round + 1) as f64 / rounds as f64);
    }
}

/// The table of a finished [`race`]: plies/s, games/s and plies per game of each runner, with two ratios:
/// to the first hand-written runner (the reference), and to the first hand-written runner of the same stem.
pub fn race_table(runners: &[Runner<'_>]) -> String {
    use std::fmt::Write;
    let speed = |r: &Runner<'_>| r.done.plies_per_sec();
    let reference = runners.iter().find(|r| r.hand_written);
    let ratio = |r: &Runner<'_>, base: Option<&Runner<'_>>| match base.map(speed) {
        Some(b) if b > 0.0 => format!("{:.2}", speed(r) / b),
        _ => String::new(),
    };
    let ref_name = reference.map_or("-", |r| r.name.as_str());
    let mut out =
        format!("  {:<34}{:>14}{:>12}{:>12}{:>10}{:>10}\n", "", "plies/s", "games/s", "plies/game", "÷ ref", "÷ twin");
    let mut last_kind = None;
    for r in runners {
        if last_kind.is_some_and(|k| k != r.hand_written) {
            out.push('\n');
        }
        last_kind = Some(r.hand_written);
        let twin = if r.hand_written { None } else { runners.iter().find(|h| h.hand_written && h.stem == r.stem) };
        let _ = writeln!(
            out,
            "  {:<34}{:>14}{:>12}{:>12.1}{:>10}{:>10}",
            r.name,
            group(speed(r)),
            group(r.done.games_per_sec()),
            r.done.mean_plies(),
            ratio(r, reference),
            ratio(r, twin)
        );
    }
    let _ = write!(
        out,
        "\n  ÷ ref: plies/s over those of the {ref_name}; ÷ twin: over those of the same game written by hand."
    );
    out
}

/// A whole number with thousands separators: 1,234,567.
pub fn group(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Plays one game between uniformly random players (allocates its buffers; use [`Playout`] for many).
pub fn random_game(engine: &Engine, rng: &mut Dice, on_ply: impl FnMut(Ply<'_>)) -> GameStats {
    Playout::new(engine).run(rng, on_ply)
}

/// The random-number generator of game `game` (from 0) of a run with seed `seed`: each game has its own
/// seed, so that a game can be replayed alone and runs can be split.
pub fn game_rng(seed: u64, game: u64) -> Dice {
    Dice::with_seed(splitmix(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ game))
}

/// SplitMix64's finaliser: a bijection that scatters nearby inputs, so that nearby seeds start unrelated
/// generators.
pub(crate) fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The name of an end reason, as in JSON (`condition`, `limit`, ...).
pub fn reason_name(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Condition => "condition",
        EndReason::Repetition => "repetition",
        EndReason::Stuck => "stuck",
        EndReason::NobodyCanMove => "nobody_can_move",
        EndReason::NoCapture => "no_capture",
        EndReason::LastStanding => "last_standing",
        EndReason::Obligation => "obligation",
        EndReason::Limit => "limit",
        EndReason::Endless => "endless",
        EndReason::RepetitionDraw => "repetition_draw",
        EndReason::ConditionDraw => "condition_draw",
        EndReason::Match => "match",
        EndReason::RoundLimit => "round_limit",
    }
}

/// An end reason in words for people (`an end rule held`, `the ply limit`, ...).
pub fn reason_words(reason: EndReason) -> &'static str {
    match reason {
        EndReason::Condition => "an end rule held",
        EndReason::Repetition => "a position came back",
        EndReason::Stuck => "the player to move could not move",
        EndReason::NobodyCanMove => "nobody could move",
        EndReason::NoCapture => "no capture for too long",
        EndReason::LastStanding => "one player was left",
        EndReason::Obligation => "an obligation (must) could not be met",
        EndReason::Limit => "the ply limit was reached",
        EndReason::Endless => "a move would never have ended",
        EndReason::RepetitionDraw => "a position came back (a draw)",
        EndReason::ConditionDraw => "a `draw when` rule held",
        EndReason::Match => "the match rule held after a round",
        EndReason::RoundLimit => "the match's rounds were played",
    }
}

/// The statistics of many games of one engine.
///
/// Every figure is a sum, a count or a maximum over the games, so summaries of parts of a run
/// ([`Summary::merge`]) add up to the summary of the whole run, whatever the parts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    pub game: String,
    pub variant: String,
    pub players: u8,
    pub games: u64,
    /// Per seat (seat 1 first): games won, shared wins included (so with shared wins the seats' wins add up
    /// to more than the games).
    pub wins: Vec<u64>,
    /// Games won by more than one player (`ties shared`); each counts in the `wins` of every winner.
    pub shared: u64,
    /// Games of two or more players that nobody won.
    pub draws: u64,
    /// Solitaire games not won (0 for two or more players).
    pub lost: u64,
    pub total_plies: u64,
    pub mean_plies: f64,
    pub max_plies: u32,
    /// Games cut by the ply limit (`EndReason::Limit`).
    pub capped: u64,
    pub total_captures: u64,
    pub mean_captures: f64,
    /// Games per end reason, in a fixed order; reasons that never happened are left out.
    pub reasons: ReasonCounts,
    /// Games the engine could not finish (no legal move in a position not over): should stay 0.
    pub abandoned: u64,
    /// A match of rounds: the rounds of every match, the most in one, and per seat the rounds won (shared
    /// wins counting for each winner), and the drawn rounds. All 0 for a game of one round.
    #[serde(skip_serializing_if = "is_zero")]
    pub total_rounds: u64,
    #[serde(skip_serializing_if = "is_zero")]
    pub max_rounds: u64,
    #[serde(skip_serializing_if = "all_zero")]
    pub round_wins: Vec<u64>,
    #[serde(skip_serializing_if = "is_zero")]
    pub round_draws: u64,
    /// The plies of every game by the action each began with (filled by [`Summary::add_ply`]).
    pub actions: ActionCounts,
}

/// Plies counted by the action they began with: one count per action of each phase, then passes, then
/// answers to an offer. Serialised as a JSON object of the actions that were played, `{"sow": 40, "pass": 2}`;
/// the actions of a game of several phases are named with their phase first (`"namua takasa"`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ActionCounts {
    /// Where each phase's actions start in `counts`.
    first: Vec<usize>,
    names: Vec<String>,
    counts: Vec<u64>,
}

impl ActionCounts {
    pub fn new(engine: &Engine) -> ActionCounts {
        let phases = &engine.rules.phases;
        let mut first = Vec::with_capacity(phases.len());
        let mut names = Vec::new();
        for phase in phases {
            first.push(names.len());
            for action in &phase.actions {
                names.push(if phases.len() > 1 {
                    format!("{} {}", phase.name, action.name)
                } else {
                    action.name.clone()
                });
            }
        }
        names.push("pass".to_string());
        names.push("answer to an offer".to_string());
        let counts = vec![0; names.len()];
        ActionCounts { first, names, counts }
    }

    /// Counts one ply of phase `phase` whose first decision was `first`.
    pub fn add(&mut self, phase: u8, first: Move) {
        let n = self.names.len();
        let slot = match first {
            Move::Begin { action, .. } => self.first.get(phase as usize).map(|&f| f + action as usize),
            Move::Pass => Some(n - 2),
            Move::Accept | Move::Decline => Some(n - 1),
            _ => None,
        };
        if let Some(count) = slot.and_then(|i| self.counts.get_mut(i)) {
            *count += 1;
        }
    }

    pub fn merge(&mut self, other: &ActionCounts) {
        for (mine, theirs) in self.counts.iter_mut().zip(&other.counts) {
            *mine += theirs;
        }
    }

    /// The actions played, each with its count, in the order of the rules.
    pub fn played(&self) -> impl Iterator<Item = (&str, u64)> {
        self.names.iter().zip(&self.counts).filter(|(_, &n)| n > 0).map(|(name, &n)| (name.as_str(), n))
    }
}

impl Serialize for ActionCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        for (name, n) in self.played() {
            m.serialize_entry(name, &n)?;
        }
        m.end()
    }
}

/// The figures of rounds are left out of the JSON of games of one round.
fn is_zero(n: &u64) -> bool {
    *n == 0
}

fn all_zero(ns: &[u64]) -> bool {
    ns.iter().all(|&n| n == 0)
}

/// Counts per end reason; serialised as a JSON object `{"condition": 93, "limit": 7}`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReasonCounts(pub Vec<(EndReason, u64)>);

impl ReasonCounts {
    pub fn add(&mut self, reason: EndReason) {
        self.add_many(reason, 1);
    }
    pub fn get(&self, reason: EndReason) -> u64 {
        self.0.iter().find(|(r, _)| *r == reason).map_or(0, |(_, n)| *n)
    }

    /// Adds `n` games ended for `reason`.
    pub fn add_many(&mut self, reason: EndReason, n: u64) {
        if n == 0 {
            return;
        }
        match self.0.iter_mut().find(|(r, _)| *r == reason) {
            Some((_, m)) => *m += n,
            None => {
                self.0.push((reason, n));
                self.0.sort_by_key(|(r, _)| reason_name(*r));
            }
        }
    }
}

impl Serialize for ReasonCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (r, n) in &self.0 {
            m.serialize_entry(reason_name(*r), n)?;
        }
        m.end()
    }
}

impl Summary {
    pub fn new(engine: &Engine) -> Summary {
        let rules = &engine.rules;
        Summary {
            game: rules.game.clone(),
            variant: rules.variant.clone(),
            players: rules.players,
            games: 0,
            wins: vec![0; rules.players as usize],
            shared: 0,
            draws: 0,
            lost: 0,
            total_plies: 0,
            mean_plies: 0.0,
            max_plies: 0,
            capped: 0,
            total_captures: 0,
            mean_captures: 0.0,
            reasons: ReasonCounts::default(),
            abandoned: 0,
            total_rounds: 0,
            max_rounds: 0,
            round_wins: vec![0; rules.players as usize],
            round_draws: 0,
            actions: ActionCounts::new(engine),
        }
    }

    /// Counts a ply by the action it began with (the games themselves are added by [`Summary::add`]).
    pub fn add_ply(&mut self, ply: &Ply<'_>) {
        if let Some(&first) = ply.moves.first() {
            self.actions.add(ply.phase, first);
        }
    }

    pub fn add(&mut self, g: &GameStats) {
        self.games += 1;
        self.total_plies += g.plies as u64;
        self.max_plies = self.max_plies.max(g.plies);
        self.total_captures += g.captures as u64;
        self.mean_plies = mean(self.total_plies, self.games);
        self.mean_captures = mean(self.total_captures, self.games);
        let Some(outcome) = &g.outcome else {
            self.abandoned += 1;
            return;
        };
        self.reasons.add(outcome.reason);
        self.add_rounds(outcome);
        if outcome.reason == EndReason::Limit {
            self.capped += 1;
        }
        if outcome.winners == 0 {
            if self.players == 1 {
                self.lost += 1;
            } else {
                self.draws += 1;
            }
        }
        if outcome.winners.count_ones() > 1 {
            self.shared += 1;
        }
        for w in outcome.winner_list() {
            if let Some(n) = self.wins.get_mut(w as usize) {
                *n += 1;
            }
        }
    }

    /// The rounds of a match.
    fn add_rounds(&mut self, outcome: &Outcome) {
        let rounds = &outcome.rounds;
        self.total_rounds += rounds.len() as u64;
        self.max_rounds = self.max_rounds.max(rounds.len() as u64);
        self.round_draws += rounds.draws() as u64;
        for (seat, n) in self.round_wins.iter_mut().enumerate() {
            *n += rounds.wins(seat as u8) as u64;
        }
    }

    /// The mean number of rounds a match.
    pub fn mean_rounds(&self) -> f64 {
        mean(self.total_rounds, self.games)
    }

    /// Adds the games of `other`, a summary of other games of the same engine.
    pub fn merge(&mut self, other: &Summary) {
        self.games += other.games;
        for (mine, theirs) in self.wins.iter_mut().zip(&other.wins) {
            *mine += theirs;
        }
        self.shared += other.shared;
        self.draws += other.draws;
        self.lost += other.lost;
        self.total_plies += other.total_plies;
        self.max_plies = self.max_plies.max(other.max_plies);
        self.capped += other.capped;
        self.total_captures += other.total_captures;
        for &(reason, n) in &other.reasons.0 {
            self.reasons.add_many(reason, n);
        }
        self.abandoned += other.abandoned;
        self.total_rounds += other.total_rounds;
        self.max_rounds = self.max_rounds.max(other.max_rounds);
        for (mine, theirs) in self.round_wins.iter_mut().zip(&other.round_wins) {
            *mine += theirs;
        }
        self.round_draws += other.round_draws;
        self.actions.merge(&other.actions);
        self.mean_plies = mean(self.total_plies, self.games);
        self.mean_captures = mean(self.total_captures, self.games);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KALAH: &str = include_str!("../games/kalah.mancala");

    #[test]
    fn playouts_are_deterministic_and_summed() {
        let engine = crate::compile(KALAH, None, None).unwrap();
        let mut p = Playout::new(&engine);
        let mut a = Summary::new(&engine);
        let mut b = Summary::new(&engine);
        for i in 0..20 {
            let mut plies = 0;
            let g = p.run(&mut game_rng(7, i), |ply| {
                plies += 1;
                assert_eq!(ply.number, plies);
                assert!(!ply.moves.is_empty());
            });
            assert_eq!(g.plies, plies);
            a.add(&g);
            b.add(&random_game(&engine, &mut game_rng(7, i), |_| {}));
        }
        assert_eq!(a, b);
        // Summaries of parts add up to the summary of the whole, whatever the parts.
        let mut parts = Summary::new(&engine);
        for range in [0..7, 7..8, 8..20] {
            let mut part = Summary::new(&engine);
            for i in range {
                part.add(&random_game(&engine, &mut game_rng(7, i), |_| {}));
            }
            parts.merge(&part);
        }
        assert_eq!(parts, a);
        assert_eq!(a.games, 20);
        assert_eq!(a.abandoned, 0);
        assert_eq!(a.wins.iter().sum::<u64>() + a.draws, 20);
        assert_eq!(a.reasons.get(EndReason::Condition), 20);
    }
}
