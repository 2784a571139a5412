//! Computer players: `random`, `greedy`, `mcts` and `alphabeta`, general over every game the language
//! describes.
//!
//! Every player works on *decisions*, the [`Move`]s of [`Engine::legal_moves`]: a turn may be several of
//! them (a direction, the order of the pieces, the pits to take, an answer to an offer), and the player who
//! decides is [`Engine::decider`]: the player to move, or his opponent answering in the middle of his move. The players are sans-IO and deterministic for a seed: randomness comes
//! from the generator given to [`AiKind::player`] (or to the `*_choose` functions), and only a time budget
//! (`mcts:500ms`) makes a player depend on the clock.
//!
//! # Kinds, as text ([`AiKind`]'s `FromStr`)
//!
//! | Text | Player |
//! |---|---|
//! | `random` | a uniformly random legal decision |
//! | `greedy` | the decision whose turn, finished greedily, leaves the mover best off on the game's score |
//! | `mcts`, `mcts:2000`, `mcts:500ms`, `mcts:2s` | UCT with random playouts: 2000 playouts, or 500 ms of them, per decision (default 1000 playouts) |
//! | `alphabeta`, `alphabeta:4`, `ab:4` | negamax with alpha-beta pruning, 4 decisions deep (default 4); two-player games only |
//!
//! [`SeatAi`] reads a seat too, for a command line: `2=mcts:2000` (seats from 1), and [`seat_kinds`] checks a
//! list of them against a game. [`Arena`] plays whole games between computer players, for `mancala simulate`.

mod alphabeta;
mod arena;
mod mcts;

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::engine::{Ctx, Engine, Move, Outcome, State};

pub use alphabeta::{alphabeta_choose, AlphaBeta};
pub use arena::{seat_seed, Arena};
pub use mcts::{mcts_choose, Mcts, MctsConfig};

/// A computer player: given a position where a decision is due, it returns one of the legal decisions.
pub trait Player: Send {
    /// Chooses among `engine.legal_moves(state)`; fails with [`AiError::NoDecision`] when there is none
    /// (the game is over, or the engine left the player to move without a decision).
    fn choose(&mut self, engine: &Engine, state: &State) -> Result<Move, AiError>;

    /// What kind of player this is, as text (`mcts:2000`).
    fn describe(&self) -> String;

    /// A flag that, once set, asks the player to decide now with what it has found so far (a Ctrl-C, the
    /// playground's think limit). Every player that searches looks at it inside its search, not only
    /// between its rounds: `alphabeta` at every position, `mcts` at every decision of a playout, `greedy`
    /// at every option and every step of finishing a turn. `random` has nothing to stop.
    fn set_cancel(&mut self, _flag: Arc<AtomicBool>) {}
}

/// How long MCTS thinks about one decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// This many playouts: deterministic for a seed.
    Playouts(u32),
    /// As many playouts as fit in this time (at least one).
    Time(Duration),
}

impl fmt::Display for Budget {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Playouts(n) => write!(f, "{n}"),
            Budget::Time(d) if d.subsec_millis() == 0 && d.as_secs() > 0 => {
                write!(f, "{}s", d.as_secs())
            }
            Budget::Time(d) => write!(f, "{}ms", d.as_millis()),
        }
    }
}

/// A kind of computer player and its budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AiKind {
    Random,
    Greedy,
    Mcts(Budget),
    /// Depth in decisions.
    AlphaBeta(u32),
}

/// The named strengths of the computer, what a person chooses from for a seat or a hint: a seat at a level
/// thinks for its time per decision; a hint at a level searches its number of playouts, so that the same
/// position always gets the same hint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Easy,
    Normal,
    Hard,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Easy, Level::Normal, Level::Hard];

    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Normal => "normal",
            Level::Hard => "hard",
        }
    }

    /// How long a computer seat of this level thinks per decision.
    pub fn time(self) -> Duration {
        match self {
            Level::Easy => Duration::from_millis(200),
            Level::Normal => Duration::from_secs(1),
            Level::Hard => Duration::from_secs(3),
        }
    }

    /// How many playouts a hint of this level searches (about the time of a seat of the level on Kalah).
    pub fn playouts(self) -> u32 {
        match self {
            Level::Easy => 300,
            Level::Normal => 2000,
            Level::Hard => 8000,
        }
    }

    /// The computer player of a seat of this level.
    pub fn kind(self) -> AiKind {
        AiKind::Mcts(Budget::Time(self.time()))
    }

    /// The level of that name.
    pub fn named(name: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }
}

pub const DEFAULT_PLAYOUTS: u32 = 1000;
pub const DEFAULT_DEPTH: u32 = 4;

impl AiKind {
    /// Makes the player, seeded from `rng`. Fails for `alphabeta` on a game of more than two players.
    pub fn player<R: Rng + ?Sized>(&self, engine: &Engine, rng: &mut R) -> Result<Box<dyn Player>, AiError> {
        let seed: u64 = rng.gen();
        self.player_seeded(engine, seed)
    }

    /// Makes the player with its own generator seeded by `seed`.
    pub fn player_seeded(&self, engine: &Engine, seed: u64) -> Result<Box<dyn Player>, AiError> {
        let rng = SmallRng::seed_from_u64(seed);
        Ok(match *self {
            AiKind::Random => Box::new(RandomPlayer { rng }),
            AiKind::Greedy => Box::new(GreedyPlayer::new(rng)),
            AiKind::Mcts(budget) => Box::new(Mcts::new(MctsConfig { budget, ..MctsConfig::default() }, rng)),
            AiKind::AlphaBeta(depth) => Box::new(AlphaBeta::new(engine, depth, rng)?),
        })
    }

    /// Whether the player can play this game.
    pub fn check(&self, engine: &Engine) -> Result<(), AiError> {
        match self {
            AiKind::AlphaBeta(_) if engine.rules.players > 2 => {
                Err(AiError::TooManyPlayers { players: engine.rules.players })
            }
            _ => Ok(()),
        }
    }
}

impl fmt::Display for AiKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AiKind::Random => f.write_str("random"),
            AiKind::Greedy => f.write_str("greedy"),
            // A level's player goes by the level's name.
            AiKind::Mcts(_) if Level::ALL.iter().any(|l| l.kind() == *self) => {
                let level = Level::ALL.into_iter().find(|l| l.kind() == *self).unwrap_or(Level::Normal);
                f.write_str(level.name())
            }
            AiKind::Mcts(b) => write!(f, "mcts:{b}"),
            AiKind::AlphaBeta(d) => write!(f, "alphabeta:{d}"),
        }
    }
}

/// Why a player cannot be made, or its text cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AiError {
    #[error(
        "unknown player `{0}`: expected easy, normal, hard, random, greedy, mcts[:PLAYOUTS|:TIME] or alphabeta[:DEPTH]"
    )]
    Unknown(String),
    #[error("bad budget `{budget}` for {kind}: {expected}")]
    BadBudget { kind: &'static str, budget: String, expected: &'static str },
    #[error("`{0}` takes no budget")]
    NoBudget(String),
    #[error("alphabeta plays two-player games only; this game has {players} players")]
    TooManyPlayers { players: u8 },
    #[error("bad seat assignment `{0}`: expected SEAT=PLAYER with a seat from 1 to 8, e.g. 2=mcts:2000")]
    BadSeat(String),
    #[error("there is no seat {seat} ({})", seats_phrase(*players))]
    NoSuchSeat { seat: u32, players: u8 },
    #[error("seat {seat} is given two players, {first} and {second}")]
    SeatTwice { seat: u32, first: AiKind, second: AiKind },
    #[error("the player to move has no legal decision, so the computer cannot choose one")]
    NoDecision,
}

/// "this game has 3 players, seats 1 to 3", "this game is a solitaire, with seat 1 only".
fn seats_phrase(players: u8) -> String {
    match players {
        0 | 1 => "this game is a solitaire, with seat 1 only".into(),
        n => format!("this game has {n} players, seats 1 to {n}"),
    }
}

impl FromStr for AiKind {
    type Err = AiError;

    fn from_str(s: &str) -> Result<AiKind, AiError> {
        let s = s.trim();
        let (name, arg) = match s.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (s, None),
        };
        if let Some(level) = Level::named(name) {
            return no_arg(name, arg).map(|_| level.kind());
        }
        match name.to_ascii_lowercase().as_str() {
            "random" | "rand" => no_arg(name, arg).map(|_| AiKind::Random),
            "greedy" => no_arg(name, arg).map(|_| AiKind::Greedy),
            "mcts" | "uct" => match arg {
                None => Ok(AiKind::Mcts(Budget::Playouts(DEFAULT_PLAYOUTS))),
                Some(a) => parse_budget(a).map(AiKind::Mcts).ok_or_else(|| AiError::BadBudget {
                    kind: "mcts",
                    budget: a.to_string(),
                    expected: "a number of playouts (2000) or a time (500ms, 2s)",
                }),
            },
            "alphabeta" | "ab" | "negamax" => match arg {
                None => Ok(AiKind::AlphaBeta(DEFAULT_DEPTH)),
                Some(a) => {
                    a.parse::<u32>().ok().filter(|&d| (1..=64).contains(&d)).map(AiKind::AlphaBeta).ok_or_else(|| {
                        AiError::BadBudget {
                            kind: "alphabeta",
                            budget: a.to_string(),
                            expected: "a depth in decisions, 1 to 64",
                        }
                    })
                }
            },
            _ => Err(AiError::Unknown(s.to_string())),
        }
    }
}

fn no_arg(name: &str, arg: Option<&str>) -> Result<(), AiError> {
    match arg {
        None => Ok(()),
        Some(_) => Err(AiError::NoBudget(name.to_string())),
    }
}

/// `2000`, `2k`, `500ms`, `2s`, `1.5s`.
fn parse_budget(a: &str) -> Option<Budget> {
    let a = a.to_ascii_lowercase();
    if let Some(ms) = a.strip_suffix("ms") {
        let ms: u64 = ms.trim().parse().ok().filter(|&m| m > 0)?;
        return Some(Budget::Time(Duration::from_millis(ms)));
    }
    if let Some(s) = a.strip_suffix('s') {
        let s: f64 = s.trim().parse().ok().filter(|&s: &f64| s > 0.0 && s.is_finite() && s < 1e6)?;
        return Some(Budget::Time(Duration::from_secs_f64(s)));
    }
    if let Some(k) = a.strip_suffix('k') {
        let k: u32 = k.trim().parse().ok()?;
        return k.checked_mul(1000).filter(|&n| n > 0).map(Budget::Playouts);
    }
    a.parse::<u32>().ok().filter(|&n| n > 0).map(Budget::Playouts)
}

/// A seat and its player, as on a command line: `2=mcts:2000` (seats numbered from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SeatAi {
    /// The seat, from 0.
    pub seat: u8,
    pub kind: AiKind,
}

impl FromStr for SeatAi {
    type Err = AiError;

    fn from_str(s: &str) -> Result<SeatAi, AiError> {
        let (seat, kind) = s.split_once('=').ok_or_else(|| AiError::BadSeat(s.to_string()))?;
        let seat: u8 = seat
            .trim()
            .parse()
            .ok()
            .filter(|&n| (1..=8).contains(&n))
            .ok_or_else(|| AiError::BadSeat(s.to_string()))?;
        Ok(SeatAi { seat: seat - 1, kind: kind.parse()? })
    }
}

impl fmt::Display for SeatAi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.seat as u32 + 1, self.kind)
    }
}

/// The computer player of each seat of `engine`'s game, as `assignments` (from `--ai SEAT=KIND`) give them:
/// `None` where no assignment names the seat. Fails for a seat the game does not have, a seat named twice,
/// or a player that cannot play this game (`alphabeta` with more than two players).
pub fn seat_kinds(engine: &Engine, assignments: &[SeatAi]) -> Result<Vec<Option<AiKind>>, AiError> {
    let players = engine.rules.players;
    let mut kinds: Vec<Option<AiKind>> = vec![None; players as usize];
    for a in assignments {
        let slot = kinds.get_mut(a.seat as usize).ok_or(AiError::NoSuchSeat { seat: a.seat as u32 + 1, players })?;
        if let Some(first) = *slot {
            return Err(AiError::SeatTwice { seat: a.seat as u32 + 1, first, second: a.kind });
        }
        a.kind.check(engine)?;
        *slot = Some(a.kind);
    }
    Ok(kinds)
}

// ================================================================ evaluation helpers

/// A player's score in a position: the game's `score` expression, evaluated now (before any end-of-game
/// sweep; after the game, `Outcome::scores` has the final ones).
pub fn score_of(engine: &Engine, st: &State, player: u8) -> i32 {
    engine.num(st, Ctx::new(player).bound(player), &engine.rules.score)
}

/// The reward of a finished game for `player`: 1 for a win, 0.5 for a draw or a shared win, 0 for a loss
/// (a lost solitaire included).
pub fn reward(engine: &Engine, outcome: &Outcome, player: u8) -> f64 {
    let w = outcome.winners;
    if w & (1 << player) != 0 {
        if w.count_ones() == 1 {
            1.0
        } else {
            0.5
        }
    } else if w == 0 && engine.rules.players > 1 {
        0.5
    } else {
        0.0
    }
}

/// What a won game is worth to the heuristic evaluations, above any score difference.
pub(crate) const WIN: i64 = 1 << 40;

/// A heuristic value of a position for `me`: the outcome when the game is over (a win is worth more than
/// any score), else `me`'s score minus the best other score (just `me`'s score in a solitaire).
pub(crate) fn heuristic(engine: &Engine, st: &State, me: u8) -> i64 {
    let players = engine.rules.players;
    if let Some(o) = &st.result {
        let mine = o.scores.get(me as usize).copied().unwrap_or(0) as i64;
        let best_other =
            (0..players).filter(|&p| p != me).map(|p| o.scores.get(p as usize).copied().unwrap_or(0) as i64).max();
        let diff = mine - best_other.unwrap_or(0);
        let won = o.winners & (1 << me) != 0;
        return if won && o.winners.count_ones() == 1 {
            WIN + diff
        } else if won || (o.winners == 0 && players > 1) {
            diff
        } else {
            -WIN + diff
        };
    }
    let mine = score_of(engine, st, me) as i64;
    let best_other = (0..players)
        .filter(|&p| p != me && st.eliminated & (1 << p) == 0)
        .map(|p| score_of(engine, st, p) as i64)
        .max();
    mine - best_other.unwrap_or(0)
}

/// The legal decisions, in a fresh vector.
fn legal(engine: &Engine, st: &State) -> Vec<Move> {
    let mut out = Vec::new();
    engine.legal_moves(st, &mut out);
    out
}

// ================================================================ random

/// Chooses uniformly among the legal decisions.
pub fn random_choose<R: Rng + ?Sized>(engine: &Engine, st: &State, rng: &mut R) -> Result<Move, AiError> {
    let moves = legal(engine, st);
    if moves.is_empty() {
        return Err(AiError::NoDecision);
    }
    Ok(moves[rng.gen_range(0..moves.len())])
}

/// The `random` player.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    rng: SmallRng,
}

impl RandomPlayer {
    pub fn new(rng: SmallRng) -> RandomPlayer {
        RandomPlayer { rng }
    }
}

impl Player for RandomPlayer {
    fn choose(&mut self, engine: &Engine, st: &State) -> Result<Move, AiError> {
        random_choose(engine, st, &mut self.rng)
    }
    fn describe(&self) -> String {
        AiKind::Random.to_string()
    }
}

// ================================================================ greedy

/// Chooses the decision that leaves the mover best off when the turn is over: each option is played and
/// the rest of the turn finished with one-step greedy choices, then the position is valued by the mover's
/// score minus the best other score (a finished game by its outcome first). Ties are broken at random.
pub fn greedy_choose<R: Rng + ?Sized>(engine: &Engine, st: &State, rng: &mut R) -> Result<Move, AiError> {
    greedy_watched(engine, st, rng, None)
}

/// [`greedy_choose`], which, once `cancel` is set, values no more options and chooses the best of those
/// valued (the first, if none was).
fn greedy_watched<R: Rng + ?Sized>(
    engine: &Engine,
    st: &State,
    rng: &mut R,
    cancel: Option<&AtomicBool>,
) -> Result<Move, AiError> {
    let moves = legal(engine, st);
    match moves.as_slice() {
        [] => return Err(AiError::NoDecision),
        [only] => return Ok(*only),
        _ => {}
    }
    let me = engine.decider(st);
    // The ply being decided is the mover's, also where his opponent answers in it.
    let (ply, mover) = (st.ply, st.to_move);
    let mut best = i64::MIN;
    let mut ties = 0u32;
    let mut choice = moves[0];
    let mut scratch = st.clone();
    let mut buf = Vec::new();
    for &mv in &moves {
        if cancelled(cancel) {
            break;
        }
        scratch.clone_from(st);
        engine.apply_unchecked(&mut scratch, mv);
        finish_turn_greedily(engine, &mut scratch, ply, mover, &mut buf, rng, cancel);
        let v = heuristic(engine, &scratch, me);
        // Reservoir sampling over the best: a uniform choice among ties in one pass.
        if v > best {
            best = v;
            ties = 1;
            choice = mv;
        } else if v == best {
            ties += 1;
            if rng.gen_range(0..ties) == 0 {
                choice = mv;
            }
        }
    }
    Ok(choice)
}

/// Whether a player's cancel flag, if it has one, is set.
fn cancelled(cancel: Option<&AtomicBool>) -> bool {
    cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
}

/// Plays on until ply `ply` is over, each time taking the decision with the best immediate value for the
/// player who makes it (the mover `_mover`, or his opponent where he answers); once `cancel` is set, stops
/// where it is (the position is valued mid-ply).
fn finish_turn_greedily<R: Rng + ?Sized>(
    engine: &Engine,
    st: &mut State,
    ply: u32,
    _mover: u8,
    buf: &mut Vec<Move>,
    rng: &mut R,
    cancel: Option<&AtomicBool>,
) {
    let mut next = st.clone();
    let mut guard = 0u32;
    while st.result.is_none() && st.ply == ply && !st.illegal && guard < 100_000 && !cancelled(cancel) {
        guard += 1;
        buf.clear();
        engine.legal_moves(st, buf);
        if buf.is_empty() {
            return;
        }
        let mut best = i64::MIN;
        let mut ties = 0u32;
        let mut choice = buf[0];
        let me = engine.decider(st);
        if buf.len() > 1 {
            for &mv in buf.iter() {
                next.clone_from(st);
                engine.apply_unchecked(&mut next, mv);
                let v = heuristic(engine, &next, me);
                if v > best {
                    best = v;
                    ties = 1;
                    choice = mv;
                } else if v == best {
                    ties += 1;
                    if rng.gen_range(0..ties) == 0 {
                        choice = mv;
                    }
                }
            }
        }
        engine.apply_unchecked(st, choice);
    }
}

/// The `greedy` player.
#[derive(Debug, Clone)]
pub struct GreedyPlayer {
    rng: SmallRng,
    cancel: Option<Arc<AtomicBool>>,
}

impl GreedyPlayer {
    pub fn new(rng: SmallRng) -> GreedyPlayer {
        GreedyPlayer { rng, cancel: None }
    }
}

impl Player for GreedyPlayer {
    fn choose(&mut self, engine: &Engine, st: &State) -> Result<Move, AiError> {
        greedy_watched(engine, st, &mut self.rng, self.cancel.as_deref())
    }
    fn describe(&self) -> String {
        AiKind::Greedy.to_string()
    }
    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }
}

// ================================================================ playing

/// Lets `player` make the decisions of one whole ply; returns them. Stops early if the game ends or the
/// engine offers nothing.
pub fn play_ply(player: &mut dyn Player, engine: &Engine, st: &mut State) -> Vec<Move> {
    let ply = st.ply;
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    while st.result.is_none() && st.ply == ply {
        buf.clear();
        engine.legal_moves(st, &mut buf);
        if buf.is_empty() {
            break;
        }
        let Ok(mv) = player.choose(engine, st) else { break };
        engine.apply_unchecked(st, mv);
        moves.push(mv);
    }
    moves
}

/// Plays a whole game from `start`, seat `p` played by `players[p]`; returns the final state. Stops when
/// the game ends, the engine offers no decision, or after `max_decisions` decisions.
pub fn play_game(engine: &Engine, start: &State, players: &mut [Box<dyn Player>], max_decisions: u64) -> State {
    let mut st = start.clone();
    let mut buf = Vec::new();
    let mut n = 0u64;
    while st.result.is_none() && n < max_decisions {
        buf.clear();
        engine.legal_moves(&st, &mut buf);
        if buf.is_empty() {
            break;
        }
        let seat = engine.decider(&st) as usize;
        let mv = match buf.as_slice() {
            [only] => *only,
            _ => match players[seat].choose(engine, &st) {
                Ok(mv) => mv,
                Err(_) => break,
            },
        };
        engine.apply_unchecked(&mut st, mv);
        n += 1;
    }
    st
}
