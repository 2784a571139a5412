//! Two-player games: the value of a position under perfect play.
//!
//! The value is the first player's final score minus the second's, where both players play first to win
//! (by the rules' `winner`), then for the largest margin: a win by 1 is worth more than a draw by any
//! margin. It is found by MTD(f): zero-window alpha-beta searches over the whole game tree (every decision
//! of every ply, to the game's end; no heuristic), each narrowing the value's bounds, with a transposition
//! table of the bounds known per position (at ply boundaries) and the best decision found there, tried
//! first next time. The other decisions are ordered by what they do at once: a ply that gives the mover
//! another turn first, then the most gained on the score.
//!
//! The table has a fixed size (`max_bytes`, 16 bytes an entry, two places for each position: one kept for
//! the position whose subtree was largest, one always replaced), so a long search slows down as it fills
//! but never runs out of memory. Positions are compared by [`Keys`]: the pieces, owners, marks and turn, and
//! what the rules make matter (earlier positions where a `repetition` rule reads them). Not the ply count:
//! the answer assumes that no line reaches the ply limit, and says so where one does
//! ([`DuelResult::limit_reached`]). A position that comes back on the line being searched, in rules
//! without a `repetition` rule to end such a game, stops the search ([`DuelError::Cycle`]).

use super::{for_each_ply, Clock, Keys, Limit, SolveOptions, Symmetry, Watch};
use crate::engine::{EndReason, Engine, Move, Stage, State};

/// The value of a position, and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuelResult {
    /// Under perfect play: 1 when the first player wins, -1 when the second does, 0 for a draw.
    pub outcome: i8,
    /// The first player's final score minus the second's, under perfect play.
    pub margin: i32,
    /// A line of perfect play to the end, one `Vec<Move>` per ply.
    pub line: Vec<Vec<Move>>,
    /// With [`DuelOptions::root_moves`]: each ply from the position and its value (outcome, margin).
    pub root: Vec<(Vec<Move>, i8, i32)>,
    /// Positions stored in the table (at most its size), and decisions searched.
    pub positions: usize,
    pub nodes: u64,
    /// A line searched reached the game's ply limit: the value holds for games cut there.
    pub limit_reached: bool,
}

/// Why no value was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DuelError {
    /// A bound or a cancel stopped the search.
    Stopped(Limit),
    /// A position came back on the line being searched, and the rules have no `repetition` rule to end
    /// such a game.
    Cycle,
    /// The rules are not for two players.
    Players(u8),
}

impl std::fmt::Display for DuelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DuelError::Stopped(Limit::Time) => write!(f, "the time limit was reached"),
            DuelError::Stopped(Limit::Cancelled) => write!(f, "it was interrupted"),
            DuelError::Stopped(_) => write!(f, "it reached its bound"),
            DuelError::Cycle => write!(
                f,
                "a position can come back in these rules, and they have no `repetition` rule to end such a game: \
                 the solver cannot tell the value of a game that may never end"
            ),
            DuelError::Players(n) => write!(f, "the game is for {n} players; this solver is for two"),
        }
    }
}

/// The settings of a two-player search.
#[derive(Debug, Clone, Copy)]
pub struct DuelOptions {
    /// The time, memory and cancel bounds (`max_bytes` sizes the table; `max_states` is not used).
    pub search: SolveOptions,
    /// Also find the value of every ply from the position.
    pub root_moves: bool,
}

impl Default for DuelOptions {
    fn default() -> DuelOptions {
        DuelOptions { search: SolveOptions::default(), root_moves: false }
    }
}

/// The value of `start` under perfect play (see the module docs).
pub fn solve_duel(
    engine: &Engine,
    start: &State,
    options: &DuelOptions,
    watch: Watch<'_>,
) -> Result<DuelResult, DuelError> {
    if engine.rules.players != 2 {
        return Err(DuelError::Players(engine.rules.players));
    }
    let mut s = Search::new(engine, options, watch);
    let value = s.mtdf(start, 0)?;
    let line = s.line(start, value)?;
    let mut root = Vec::new();
    if options.root_moves {
        for (moves, child) in s.plies_of(start) {
            let v = s.mtdf(&child, value)?;
            let (outcome, margin) = split(v);
            root.push((moves, outcome, margin));
        }
    }
    let (outcome, margin) = split(value);
    Ok(DuelResult {
        outcome,
        margin,
        line,
        root,
        positions: s.table.filled,
        nodes: s.nodes,
        limit_reached: s.limit_reached,
    })
}

/// A value: the outcome for the first player times `OUTCOME`, plus the margin (clamped to fit).
type Value = i32;
const OUTCOME: Value = 1 << 12;
const MARGIN: Value = OUTCOME / 2 - 1;
const INF: Value = 1 << 14;

fn split(v: Value) -> (i8, i32) {
    let outcome = ((v + OUTCOME / 2).div_euclid(OUTCOME)) as i8;
    (outcome, v - Value::from(outcome) * OUTCOME)
}

/// The value of a finished game.
fn terminal(st: &State) -> Value {
    let Some(o) = &st.result else { return 0 };
    let margin = o.scores.first().copied().unwrap_or(0) - o.scores.get(1).copied().unwrap_or(0);
    let outcome = match o.winners & 3 {
        1 => 1,
        2 => -1,
        _ => 0,
    };
    outcome * OUTCOME + margin.clamp(-MARGIN, MARGIN)
}

struct Search<'e, 'w> {
    engine: &'e Engine,
    keys: Keys,
    clock: Clock<'w>,
    table: TransTable,
    nodes: u64,
    limit_reached: bool,
    /// The positions at ply boundaries on the line being searched, for rules where one can come back.
    path: Vec<[u64; 2]>,
    watch_cycles: bool,
}

impl<'e, 'w> Search<'e, 'w> {
    fn new(engine: &'e Engine, options: &DuelOptions, watch: Watch<'w>) -> Search<'e, 'w> {
        Search {
            engine,
            keys: Keys::new(engine, Symmetry::None),
            // The table has a fixed size: neither the positions nor the memory stop the search.
            clock: Clock::new(&SolveOptions { max_states: usize::MAX, max_bytes: usize::MAX, ..options.search }, watch),
            table: TransTable::new(options.search.max_bytes),
            nodes: 0,
            limit_reached: false,
            path: Vec::new(),
            watch_cycles: !engine.rules.needs.repetition,
        }
    }

    /// MTD(f) from a first guess: zero-window searches until the bounds meet.
    fn mtdf(&mut self, st: &State, guess: Value) -> Result<Value, DuelError> {
        let (mut lower, mut upper) = (-INF, INF);
        let mut g = guess;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.alphabeta(st, beta - 1, beta)?;
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        Ok(g)
    }

    /// Fail-soft alpha-beta: the value of `st` for the first player, exact when strictly between `alpha`
    /// and `beta`, else a bound on the side it fell.
    fn alphabeta(&mut self, st: &State, mut alpha: Value, mut beta: Value) -> Result<Value, DuelError> {
        self.nodes += 1;
        if st.result.is_some() {
            if st.result.as_ref().is_some_and(|o| o.reason == EndReason::Limit) {
                self.limit_reached = true;
            }
            return Ok(terminal(st));
        }
        let at_start = st.stage == Stage::Start;
        let mut key = [0; 2];
        let mut hint = None;
        if at_start {
            self.clock.tick(self.table.filled, self.table.bytes()).map_err(DuelError::Stopped)?;
            key = self.keys.key(st);
            if let Some(e) = self.table.get(key) {
                if e.lower >= beta {
                    return Ok(e.lower);
                }
                if e.upper <= alpha {
                    return Ok(e.upper);
                }
                alpha = alpha.max(e.lower);
                beta = beta.min(e.upper);
                hint = Some(e.best);
            }
            if self.watch_cycles {
                if self.path.contains(&key) {
                    return Err(DuelError::Cycle);
                }
                self.path.push(key);
            }
        }
        let (a0, b0) = (alpha, beta);
        let nodes_before = self.nodes;
        let result = self.children(st, alpha, beta, hint);
        if at_start && self.watch_cycles {
            self.path.pop();
        }
        let (best, best_move) = result?;
        if at_start {
            let (lower, upper) = if best <= a0 {
                (-INF, best)
            } else if best >= b0 {
                (best, INF)
            } else {
                (best, best)
            };
            self.table.store(key, lower, upper, best_move, self.nodes - nodes_before);
        }
        Ok(best)
    }

    /// The best of the decisions from `st` (the most promising first), and which it was.
    fn children(
        &mut self,
        st: &State,
        mut alpha: Value,
        mut beta: Value,
        hint: Option<u8>,
    ) -> Result<(Value, u8), DuelError> {
        let maximizing = st.to_move == 0;
        let list = self.ordered(st, hint);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = 0u8;
        let mut outcome = Ok(());
        for (i, (_, child)) in list.iter().enumerate() {
            let v = match self.alphabeta(child, alpha, beta) {
                Ok(v) => v,
                Err(e) => {
                    outcome = Err(e);
                    break;
                }
            };
            if maximizing && v > best || !maximizing && v < best {
                best = v;
                best_move = i as u8;
            }
            if maximizing {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
            if alpha >= beta {
                break;
            }
        }
        // The index of the best decision among the legal ones, as the table keeps it.
        let best_index = list.get(best_move as usize).map_or(0, |(order, _)| *order);
        outcome?;
        Ok((best, best_index))
    }

    /// The positions after each decision from `st`, the table's best first, then those that give the mover
    /// another turn, then by what the mover gains on the score at once; each with the decision's index among
    /// the legal ones.
    fn ordered(&self, st: &State, hint: Option<u8>) -> Vec<(u8, State)> {
        let mut moves = Vec::new();
        self.engine.legal_moves(st, &mut moves);
        let me = st.to_move;
        let margin =
            |st: &State| crate::ai::score_of(self.engine, st, me) - crate::ai::score_of(self.engine, st, 1 - me);
        let before = margin(st);
        let mut keyed = Vec::with_capacity(moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let mut child = st.clone();
            self.engine.apply_unchecked(&mut child, mv);
            if child.illegal {
                continue;
            }
            let priority = if hint == Some(i as u8) {
                i32::MAX
            } else if child.result.is_some() {
                terminal(&child) * if me == 0 { 1 } else { -1 }
            } else {
                i32::from(child.to_move == me) * 10_000 + margin(&child) - before
            };
            keyed.push((priority, i as u8, child));
        }
        keyed.sort_by_key(|k| std::cmp::Reverse(k.0));
        keyed.into_iter().map(|(_, i, child)| (i, child)).collect()
    }

    /// The plies from `st`, each with its decisions and the position after it.
    fn plies_of(&self, st: &State) -> Vec<(Vec<Move>, State)> {
        let mut out = Vec::new();
        let _ = for_each_ply::<()>(self.engine, st, &mut |moves, next| {
            out.push((moves.to_vec(), next));
            Ok(())
        });
        out
    }

    /// A line of perfect play from `st`, whose value is `value`: at each position a ply that keeps it.
    fn line(&mut self, start: &State, value: Value) -> Result<Vec<Vec<Move>>, DuelError> {
        let mut line = Vec::new();
        let mut st = start.clone();
        while st.result.is_none() {
            let mut next = None;
            for (moves, child) in self.plies_of(&st) {
                // A ply keeps the value when the child's value is exactly it.
                if self.alphabeta(&child, value - 1, value + 1)? == value {
                    next = Some((moves, child));
                    break;
                }
            }
            let Some((moves, child)) = next else { break };
            line.push(moves);
            st = child;
        }
        Ok(line)
    }
}

/// What the table knows of a position: bounds on its value and the index of its best decision.
#[derive(Debug, Clone, Copy)]
struct Entry {
    lower: Value,
    upper: Value,
    best: u8,
}

/// The transposition table: pairs of slots of 16 bytes (the first word of the fingerprint; then the bounds,
/// the best decision, the size of the search below, and 16 more bits of the fingerprint).
struct TransTable {
    slots: Vec<[u64; 2]>,
    mask: usize,
    filled: usize,
}

impl TransTable {
    fn new(max_bytes: usize) -> TransTable {
        let entries = (max_bytes / 16).max(1024).next_power_of_two() / 2;
        TransTable { slots: vec![[0, 0]; entries], mask: entries - 2, filled: 0 }
    }

    /// The bytes of the table, allocated whole at the start (at most the bound it was made for).
    fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    fn pack(fp: [u64; 2], lower: Value, upper: Value, best: u8, work: u8) -> u64 {
        let l = (lower + INF) as u64 & 0xffff;
        let u = (upper + INF) as u64 & 0xffff;
        l | u << 16 | u64::from(best) << 32 | u64::from(work) << 40 | (fp[1] & 0xffff) << 48
    }

    fn unpack(word: u64) -> (Entry, u8, u64) {
        let lower = (word & 0xffff) as Value - INF;
        let upper = (word >> 16 & 0xffff) as Value - INF;
        (Entry { lower, upper, best: (word >> 32) as u8 }, (word >> 40) as u8, word >> 48)
    }

    fn get(&self, fp: [u64; 2]) -> Option<Entry> {
        let i = fp[0] as usize & self.mask;
        self.slots[i..i + 2].iter().find_map(|&[k, v]| {
            let (e, _, check) = Self::unpack(v);
            (k == fp[0] && v != 0 && check == fp[1] & 0xffff).then_some(e)
        })
    }

    fn store(&mut self, fp: [u64; 2], lower: Value, upper: Value, best: u8, nodes: u64) {
        let work = (64 - nodes.leading_zeros()) as u8;
        let word = Self::pack(fp, lower, upper, best, work);
        let i = fp[0] as usize & self.mask;
        // The same position where it is; else the first slot if this search was larger, else the second.
        let slot = if self.slots[i][0] == fp[0] && self.slots[i][1] != 0 {
            i
        } else if self.slots[i + 1][0] == fp[0] && self.slots[i + 1][1] != 0 {
            i + 1
        } else if Self::unpack(self.slots[i][1]).1 <= work {
            i
        } else {
            i + 1
        };
        if self.slots[slot][1] == 0 {
            self.filled += 1;
        }
        self.slots[slot] = [fp[0], word];
    }
}
