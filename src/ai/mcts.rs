//! Monte Carlo tree search (UCT) over decisions, with uniformly random playouts.
//!
//! Each node is a decision point; it knows who decides there (`state.to_move`), and each edge keeps the
//! rewards of the player who chose it, so the search works for any number of players and for solitaires.
//! A playout's reward per player comes from the `Outcome`: 1 for a win, 0.5 for a draw or a shared win, 0
//! for a loss. A playout ends with the game, or after [`PLAYOUT_PLIES`] plies (2,000), scored as a draw: a rule
//! file can make a game that never ends before its own ply limit (20,000 by default), and a playout that
//! long would make one decision with a small budget take seconds.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{reward, AiError, AiKind, Budget, Player, DEFAULT_PLAYOUTS};
use crate::engine::{Engine, Move, State};

/// The most plies a playout plays before it is scored as a draw. Random games of the shipped games are
/// shorter (Kalah 44 plies on average, Perlen 357 and at most 1,409 in 2,000 games), so their playouts end
/// with the game.
pub const PLAYOUT_PLIES: u32 = 2_000;
/// The most decisions a playout makes per ply of [`PLAYOUT_PLIES`]: a guard for plies of many decisions
/// (puts, orders of drops) that go on without end.
const DECISIONS_PER_PLY: u32 = 64;

/// The settings of a search.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MctsConfig {
    pub budget: Budget,
    /// The UCT exploration constant `c` in `mean + c * sqrt(ln N / n)`, rewards being in 0..=1.
    pub exploration: f64,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig { budget: Budget::Playouts(DEFAULT_PLAYOUTS), exploration: std::f64::consts::SQRT_2 }
    }
}

#[derive(Debug, Clone)]
struct Node {
    /// The decision that leads here from the parent.
    mv: Move,
    /// The player who made that decision: `w` is his reward.
    by: u8,
    /// Children, `first .. first + len` in the arena, once expanded.
    first: u32,
    len: u32,
    expanded: bool,
    n: u32,
    w: f64,
}

/// The search's buffers, kept between decisions so that a game allocates little.
#[derive(Debug, Clone, Default)]
struct Search {
    nodes: Vec<Node>,
    path: Vec<u32>,
    moves: Vec<Move>,
    rewards: Vec<f64>,
    state: Option<State>,
}

/// Runs a search from `root` and returns the most visited decision.
pub fn mcts_choose<R: Rng + ?Sized>(
    engine: &Engine,
    root: &State,
    config: &MctsConfig,
    rng: &mut R,
) -> Result<Move, AiError> {
    let mut rng = SmallRng::from_rng(rng).expect("seeding from a generator does not fail");
    Search::default().run(engine, root, config, &mut rng, None)
}

impl Search {
    fn run(
        &mut self,
        engine: &Engine,
        root: &State,
        config: &MctsConfig,
        rng: &mut SmallRng,
        cancel: Option<&AtomicBool>,
    ) -> Result<Move, AiError> {
        self.moves.clear();
        engine.legal_moves(root, &mut self.moves);
        match self.moves.as_slice() {
            [] => return Err(AiError::NoDecision),
            [only] => return Ok(*only),
            _ => {}
        }
        self.nodes.clear();
        let by = engine.decider(root);
        self.nodes.push(Node { mv: self.moves[0], by, first: 0, len: 0, expanded: false, n: 0, w: 0.0 });
        self.expand(0, by, rng);
        self.rewards.clear();
        self.rewards.resize(engine.rules.players.max(1) as usize, 0.0);

        let mut st = self.state.take().unwrap_or_else(|| root.clone());
        let stop = Stop {
            cancel,
            deadline: Some(config.budget).and_then(|b| match b {
                Budget::Time(d) => Instant::now().checked_add(d),
                Budget::Playouts(_) => None,
            }),
        };
        let mut iterations = 0u32;
        loop {
            match config.budget {
                Budget::Playouts(n) if iterations >= n.max(1) => break,
                _ if stop.now() => break,
                _ => {}
            }
            iterations += 1;
            st.clone_from(root);
            self.iterate(engine, &mut st, config.exploration, rng, &stop);
        }
        self.state = Some(st);

        let root_node = &self.nodes[0];
        let children = &self.nodes[root_node.first as usize..(root_node.first + root_node.len) as usize];
        let best = children.iter().max_by(|a, b| {
            let mean = |x: &Node| if x.n == 0 { 0.0 } else { x.w / x.n as f64 };
            a.n.cmp(&b.n).then(mean(a).total_cmp(&mean(b)))
        });
        best.map(|node| node.mv).ok_or(AiError::NoDecision)
    }

    /// Makes the children of `node` from the decisions in `self.moves`, in random order.
    fn expand(&mut self, node: u32, decider: u8, rng: &mut SmallRng) {
        self.moves.shuffle(rng);
        let first = self.nodes.len() as u32;
        for &mv in &self.moves {
            self.nodes.push(Node { mv, by: decider, first: 0, len: 0, expanded: false, n: 0, w: 0.0 });
        }
        let n = &mut self.nodes[node as usize];
        n.first = first;
        n.len = self.moves.len() as u32;
        n.expanded = true;
    }

    /// One selection, expansion, playout and backup; no backup when `stop` cuts the playout.
    fn iterate(&mut self, engine: &Engine, st: &mut State, c: f64, rng: &mut SmallRng, stop: &Stop) {
        self.path.clear();
        self.path.push(0);
        let mut node = 0u32;
        loop {
            if st.result.is_some() {
                break;
            }
            let cur = &self.nodes[node as usize];
            if !cur.expanded {
                self.moves.clear();
                engine.legal_moves(st, &mut self.moves);
                if self.moves.is_empty() {
                    break;
                }
                self.expand(node, engine.decider(st), rng);
                // The children are in random order: the first is a random unvisited one.
                let child = self.nodes[node as usize].first;
                engine.apply_unchecked(st, self.nodes[child as usize].mv);
                self.path.push(child);
                break;
            }
            let child = self.select(node, c);
            engine.apply_unchecked(st, self.nodes[child as usize].mv);
            self.path.push(child);
            node = child;
            if self.nodes[child as usize].n == 0 {
                break;
            }
        }
        if !self.playout(engine, st, rng, stop) {
            return;
        }
        for &i in &self.path {
            let n = &mut self.nodes[i as usize];
            n.n += 1;
            n.w += self.rewards.get(n.by as usize).copied().unwrap_or(0.0);
        }
    }

    /// The child with the best UCB1 value; an unvisited child first.
    fn select(&self, node: u32, c: f64) -> u32 {
        let parent = &self.nodes[node as usize];
        let log_n = (parent.n.max(1) as f64).ln();
        let mut best = parent.first;
        let mut best_v = f64::NEG_INFINITY;
        for i in parent.first..parent.first + parent.len {
            let ch = &self.nodes[i as usize];
            if ch.n == 0 {
                return i;
            }
            let n = ch.n as f64;
            let v = ch.w / n + c * (log_n / n).sqrt();
            if v > best_v {
                best_v = v;
                best = i;
            }
        }
        best
    }

    /// Plays at random to the end and sets `self.rewards`; false, and no rewards, when `stop` says to stop
    /// first (it is asked every [`STOP_EVERY`] decisions: one playout of a large game can be long).
    fn playout(&mut self, engine: &Engine, st: &mut State, rng: &mut SmallRng, stop: &Stop) -> bool {
        let mut steps = 0u32;
        let horizon = st.ply.saturating_add(PLAYOUT_PLIES);
        while st.result.is_none() && st.ply < horizon && steps < PLAYOUT_PLIES * DECISIONS_PER_PLY {
            if steps % STOP_EVERY == STOP_EVERY - 1 && stop.now() {
                return false;
            }
            self.moves.clear();
            engine.legal_moves(st, &mut self.moves);
            if self.moves.is_empty() {
                break;
            }
            let mv = self.moves[rng.gen_range(0..self.moves.len())];
            engine.apply_unchecked(st, mv);
            steps += 1;
        }
        let players = self.rewards.len();
        match &st.result {
            Some(o) => {
                for p in 0..players {
                    self.rewards[p] = reward(engine, o, p as u8);
                }
            }
            // Cut at the horizon: nobody learns anything from it.
            None => self.rewards.fill(if players > 1 { 0.5 } else { 0.0 }),
        }
        true
    }
}

/// How often a playout asks whether to stop, in decisions.
const STOP_EVERY: u32 = 16;

/// When a search stops before its budget of playouts: its cancel flag is set, or its time is up.
struct Stop<'a> {
    cancel: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
}

impl Stop<'_> {
    fn now(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// The `mcts` player.
#[derive(Debug, Clone)]
pub struct Mcts {
    config: MctsConfig,
    rng: SmallRng,
    search: Search,
    cancel: Option<Arc<AtomicBool>>,
}

impl Mcts {
    pub fn new(config: MctsConfig, rng: SmallRng) -> Mcts {
        Mcts { config, rng, search: Search::default(), cancel: None }
    }
}

impl Player for Mcts {
    fn choose(&mut self, engine: &Engine, st: &State) -> Result<Move, AiError> {
        self.search.run(engine, st, &self.config, &mut self.rng, self.cancel.as_deref())
    }
    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }
    fn describe(&self) -> String {
        AiKind::Mcts(self.config.budget).to_string()
    }
}
