//! Negamax with alpha-beta pruning over decisions, for games of one or two players.
//!
//! The depth counts decisions, not turns. Decisions need not alternate (a turn of several decisions, a
//! move again): a child decided by the same player is searched with the same window and its value kept,
//! a child decided by the opponent with the window negated and swapped and its value negated. A position
//! is valued for the player who decides there: his score minus the opponent's, a finished game by its
//! outcome (a win above any score, sooner wins preferred).
//!
//! Given a cancel flag ([`Player::set_cancel`]: the REPL's Ctrl-C, the playground's think limit), the
//! search deepens one decision at a time up to its depth, and looks at the flag at every position it
//! searches: once the flag is set, it stops where it is and plays the best decision of the deepest search
//! it finished. Every search keeps the same order of the root's decisions, so the last one, when none is
//! stopped, chooses what a single search to the full depth does. Without a flag (`simulate`, the arena)
//! it searches to the full depth at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

use super::{heuristic, AiError, AiKind, Player, WIN};
use crate::engine::{Engine, Move, State};

const INF: i64 = i64::MAX / 2;

/// The `alphabeta` player; also the searcher behind [`alphabeta_choose`].
#[derive(Debug, Clone)]
pub struct AlphaBeta {
    depth: u32,
    rng: SmallRng,
    /// Per depth: a move buffer and a scratch state, reused.
    moves: Vec<Vec<Move>>,
    states: Vec<Option<State>>,
    /// Positions searched by the last `choose`.
    pub nodes: u64,
    /// Set: decide now with what the search has found.
    cancel: Option<Arc<AtomicBool>>,
    /// The search in progress was stopped by the flag: its values are not to be trusted.
    stopped: bool,
    /// The depth of the search in progress.
    limit: u32,
}

/// Searches `depth` decisions deep and returns the best decision (ties broken at random). Fails on a game
/// of more than two players.
pub fn alphabeta_choose<R: Rng + ?Sized>(
    engine: &Engine,
    st: &State,
    depth: u32,
    rng: &mut R,
) -> Result<Move, AiError> {
    let rng = SmallRng::from_rng(rng).expect("seeding from a generator does not fail");
    AlphaBeta::new(engine, depth, rng)?.search(engine, st)
}

impl AlphaBeta {
    pub fn new(engine: &Engine, depth: u32, rng: SmallRng) -> Result<AlphaBeta, AiError> {
        AiKind::AlphaBeta(depth).check(engine)?;
        let depth = depth.max(1);
        Ok(AlphaBeta {
            depth,
            rng,
            moves: vec![Vec::new(); depth as usize + 1],
            states: vec![None; depth as usize + 1],
            nodes: 0,
            cancel: None,
            stopped: false,
            limit: depth,
        })
    }

    /// The best decision at `st`: of the full depth, or, when the cancel flag stops the search, of the
    /// deepest search it finished (at depth 1 unfinished, the best of the decisions it valued).
    pub fn search(&mut self, engine: &Engine, st: &State) -> Result<Move, AiError> {
        self.nodes = 0;
        self.stopped = false;
        let mut root_moves = std::mem::take(&mut self.moves[0]);
        root_moves.clear();
        engine.legal_moves(st, &mut root_moves);
        if root_moves.len() <= 1 {
            let mv = root_moves.first().copied().ok_or(AiError::NoDecision);
            self.moves[0] = root_moves;
            return mv;
        }
        // Random order: among equal values the first searched is kept, so ties are broken at random.
        root_moves.shuffle(&mut self.rng);
        let me = engine.decider(st);
        let mut chosen = root_moves[0];
        let mut child = st.clone();
        let first = if self.cancel.is_some() { 1 } else { self.depth };
        for limit in first..=self.depth {
            self.limit = limit;
            let mut best = root_moves[0];
            let mut alpha = -INF;
            for &mv in &root_moves {
                child.clone_from(st);
                engine.apply_unchecked(&mut child, mv);
                let v = self.child_value(engine, &child, me, 1, alpha, INF);
                if self.stopped {
                    break;
                }
                if v > alpha {
                    alpha = v;
                    best = mv;
                }
            }
            // A stopped search's best is kept only where it is the first: it valued some decisions at
            // depth 1, which is better than none.
            if !self.stopped || limit == 1 {
                chosen = best;
            }
            if self.stopped {
                break;
            }
        }
        self.moves[0] = root_moves;
        Ok(chosen)
    }

    /// Whether the search is to stop now (the flag is set), remembered for the rest of the search.
    fn stop_now(&mut self) -> bool {
        if !self.stopped && self.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stopped = true;
        }
        self.stopped
    }

    /// The value of `child` for `me`, who decided the move into it, searched with window `(alpha, beta)` for
    /// `me`.
    fn child_value(&mut self, engine: &Engine, child: &State, me: u8, ply: usize, alpha: i64, beta: i64) -> i64 {
        if engine.decider(child) == me {
            self.negamax(engine, child, ply, alpha, beta)
        } else {
            -self.negamax(engine, child, ply, -beta, -alpha)
        }
    }

    /// The value of `st` for the player who decides there (`Engine::decider`), `ply` decisions below the root.
    fn negamax(&mut self, engine: &Engine, st: &State, ply: usize, mut alpha: i64, beta: i64) -> i64 {
        self.nodes += 1;
        if self.stop_now() {
            return 0;
        }
        let me = engine.decider(st);
        if let Some(_o) = &st.result {
            let v = heuristic(engine, st, me);
            // Sooner wins (and later losses) are better.
            return if v >= WIN / 2 {
                v + (self.limit as i64 - ply as i64)
            } else if v <= -WIN / 2 {
                v - (self.limit as i64 - ply as i64)
            } else {
                v
            };
        }
        if ply >= self.limit as usize {
            return heuristic(engine, st, me);
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        moves.clear();
        engine.legal_moves(st, &mut moves);
        if moves.is_empty() {
            self.moves[ply] = moves;
            return heuristic(engine, st, me);
        }
        let mut scratch = self.states[ply].take().unwrap_or_else(|| st.clone());
        let mut best = -INF;
        for &mv in &moves {
            scratch.clone_from(st);
            engine.apply_unchecked(&mut scratch, mv);
            let v = self.child_value(engine, &scratch, me, ply + 1, alpha, beta);
            if v > best {
                best = v;
            }
            if v > alpha {
                alpha = v;
            }
            if alpha >= beta || self.stopped {
                break;
            }
        }
        self.states[ply] = Some(scratch);
        self.moves[ply] = moves;
        best
    }
}

impl Player for AlphaBeta {
    fn choose(&mut self, engine: &Engine, st: &State) -> Result<Move, AiError> {
        self.search(engine, st)
    }
    fn describe(&self) -> String {
        AiKind::AlphaBeta(self.depth).to_string()
    }
    fn set_cancel(&mut self, flag: Arc<AtomicBool>) {
        self.cancel = Some(flag);
    }
}
