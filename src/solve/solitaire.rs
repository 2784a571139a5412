//! Solitaires: can the goal be reached from a position, by which line, and is it the shortest?
//!
//! First a depth-first search for any win, the most promising plies first ([`closeness`], then fewer pieces
//! on the pits), remembering every position entered: a position met again is never searched again, so when
//! the search runs out of positions without a win, no line wins (a position's every line was tried, or
//! leads through a position whose lines were). That is what makes these puzzles quick: a breadth-first search
//! for the shortest line first must hold every position of every depth before the win.
//!
//! Then, for as long as [`SolveOptions::shorten`] says, bounded depth-first searches for a line one ply shorter than
//! the best so far, until none is found: the last line found is then a shortest one. A table remembers, per
//! position, the most plies within which it was shown not to win, so each search skips what an earlier one
//! showed.
//!
//! The goal is reached when the game ends with `outcome.winners != 0`. For a game of several players this
//! asks whether the players, cooperating, can make anybody win: meaningful for solitaires only.

use std::time::Instant;

use super::{closeness, Clock, Fingerprint, Keys, Limit, Shorten, SolveOptions, SolveResult, Table, Verdict, Watch};
use crate::engine::{Engine, Move, State};

/// Searches the positions reachable from `start` for one where the game is won (see the module docs),
/// every position on its own.
pub fn solve(engine: &Engine, start: &State, max_states: usize) -> SolveResult {
    solve_with(engine, start, &SolveOptions { max_states, ..SolveOptions::default() })
}

/// [`solve`] with options: merging symmetric positions, when the game allows it, and bounds.
pub fn solve_with(engine: &Engine, start: &State, options: &SolveOptions) -> SolveResult {
    solve_watched(engine, start, options, Watch::default())
}

/// [`solve_with`], stoppable and reporting its progress.
pub fn solve_watched(engine: &Engine, start: &State, options: &SolveOptions, watch: Watch<'_>) -> SolveResult {
    let mut s = Search {
        engine,
        keys: Keys::new(engine, options.symmetry),
        clock: Clock::new(options, watch),
        table: Table::default(),
        best: None,
        expanded: 0,
        most_states: 0,
    };
    if let Some(o) = &start.result {
        let verdict = if o.winners != 0 { Verdict::Solved(Vec::new()) } else { Verdict::Unsolvable };
        return s.done(verdict, None, true);
    }
    let line = match s.any_win(start) {
        Ok(Some(line)) => line,
        Ok(None) => return s.done(Verdict::Unsolvable, None, false),
        Err(limit) => return s.done(Verdict::Unknown, Some(limit), false),
    };
    let until = match options.shorten {
        Shorten::No => return s.done(Verdict::Solved(line), None, false),
        Shorten::For(d) => Some(Instant::now() + d),
        Shorten::Prove => None,
    };
    s.clock.stop_at(until);
    s.shorten(start, line)
}

/// A ply that can be played from a position: its decisions and the position after it.
struct Child {
    moves: Vec<Move>,
    state: State,
    /// How promising it is: higher first.
    promise: (u32, u32),
}

/// A position on the search's path, with the plies from it still to try (the most promising last).
struct Frame {
    /// The ply that led here (empty at the start).
    moves: Vec<Move>,
    children: Vec<Child>,
    /// The plies still allowed below this position (bounded searches only).
    budget: u16,
    key: Fingerprint,
}

struct Search<'e, 'w> {
    engine: &'e Engine,
    keys: Keys,
    clock: Clock<'w>,
    /// Per position entered: the plies within which it was shown not to win (`u16::MAX` in the search for
    /// any win, where every position entered is final).
    table: Table,
    /// The first ply towards the position closest to the goal met, and how close.
    best: Option<((u32, u32), Vec<Move>)>,
    expanded: usize,
    /// The most positions the table held.
    most_states: usize,
}

impl Search<'_, '_> {
    fn done(&self, verdict: Verdict, limit: Option<Limit>, shortest: bool) -> SolveResult {
        let best = match verdict {
            Verdict::Unknown => self.best.as_ref().map(|(_, ply)| ply.clone()),
            _ => None,
        };
        SolveResult {
            verdict,
            limit,
            best,
            states: self.most_states.max(self.table.len()).max(1),
            expanded: self.expanded,
            plies: self.clock.plies,
            shortest,
        }
    }

    /// Depth-first for any win; `None` when every position reachable was searched without one.
    fn any_win(&mut self, start: &State) -> Result<Option<Vec<Vec<Move>>>, Limit> {
        let key = self.keys.key(start);
        self.table.insert(key, u16::MAX);
        let mut path = vec![self.frame(Vec::new(), start, u16::MAX, key)?];
        if let Some(line) = Self::won(&path) {
            return Ok(Some(line));
        }
        while let Some(top) = path.last_mut() {
            let Some(child) = top.children.pop() else {
                path.pop();
                continue;
            };
            if child.state.result.is_some() {
                continue;
            }
            let key = self.keys.key(&child.state);
            if self.table.get(key).is_some() {
                continue;
            }
            self.table.insert(key, u16::MAX);
            self.note_promise(&path, &child);
            let frame = self.frame(child.moves, &child.state, u16::MAX, key)?;
            path.push(frame);
            if let Some(line) = Self::won(&path) {
                return Ok(Some(line));
            }
        }
        Ok(None)
    }

    /// Bounded searches for a line shorter than `line`, until none is found or a bound stops them.
    fn shorten(mut self, start: &State, mut line: Vec<Vec<Move>>) -> SolveResult {
        self.most_states = self.table.len();
        self.table = Table::default();
        while line.len() > 1 {
            match self.win_within(start, (line.len() - 1) as u16) {
                Ok(Some(shorter)) => line = shorter,
                Ok(None) => return self.done(Verdict::Solved(line), None, true),
                Err(limit) => return self.done(Verdict::Solved(line), Some(limit), false),
            }
        }
        self.done(Verdict::Solved(line), None, true)
    }

    /// Depth-first for a win within `budget` plies.
    fn win_within(&mut self, start: &State, budget: u16) -> Result<Option<Vec<Vec<Move>>>, Limit> {
        let key = self.keys.key(start);
        let mut path = vec![self.frame(Vec::new(), start, budget, key)?];
        if let Some(line) = Self::won(&path) {
            return Ok(Some(line));
        }
        while let Some(top) = path.last_mut() {
            let Some(child) = top.children.pop() else {
                let done = path.pop().expect("the frame looked at");
                // No win within its budget: remember it, and every smaller budget with it.
                if self.table.get(done.key).is_none_or(|b| b < done.budget) {
                    self.table.insert(done.key, done.budget);
                    self.most_states = self.most_states.max(self.table.len());
                }
                continue;
            };
            let budget = top.budget - 1;
            if child.state.result.is_some() || budget == 0 {
                continue;
            }
            let key = self.keys.key(&child.state);
            if self.table.get(key).is_some_and(|b| b >= budget) {
                continue;
            }
            let frame = self.frame(child.moves, &child.state, budget, key)?;
            path.push(frame);
            if let Some(line) = Self::won(&path) {
                return Ok(Some(line));
            }
        }
        Ok(None)
    }

    /// A position entered: its plies, the most promising last. Stops at a bound.
    fn frame(&mut self, moves: Vec<Move>, st: &State, budget: u16, key: Fingerprint) -> Result<Frame, Limit> {
        self.expanded += 1;
        let mut children = Vec::new();
        let mut path = Vec::new();
        self.plies(st, st.ply, &mut path, &mut children)?;
        // A winning ply goes last, to be taken first; then the most promising.
        children.sort_by_key(|c| (c.state.result.as_ref().is_some_and(|o| o.winners != 0), c.promise));
        Ok(Frame { moves, children, budget, key })
    }

    /// The plies from `st` (in the middle of the ply that started at `ply`, after the decisions `path`).
    fn plies(&mut self, st: &State, ply: u32, path: &mut Vec<Move>, out: &mut Vec<Child>) -> Result<(), Limit> {
        let mut moves = Vec::new();
        self.engine.legal_moves(st, &mut moves);
        for mv in moves {
            let mut next = st.clone();
            self.engine.apply_unchecked(&mut next, mv);
            if next.illegal {
                continue;
            }
            path.push(mv);
            if next.ply != ply || next.result.is_some() {
                self.clock.tick(self.table.len(), self.table.bytes())?;
                let promise = promise(self.engine, &next);
                out.push(Child { moves: path.clone(), state: next, promise });
            } else {
                self.plies(&next, ply, path, out)?;
            }
            path.pop();
        }
        Ok(())
    }

    /// The line of the path, if the last position entered has a winning ply (its children are sorted so).
    fn won(path: &[Frame]) -> Option<Vec<Vec<Move>>> {
        let top = path.last()?;
        let win = top.children.last().filter(|c| c.state.result.as_ref().is_some_and(|o| o.winners != 0))?;
        let mut line: Vec<Vec<Move>> = path[1..].iter().map(|f| f.moves.clone()).collect();
        line.push(win.moves.clone());
        Some(line)
    }

    /// Keeps the first ply towards the most promising position met, for a search that gives up.
    fn note_promise(&mut self, path: &[Frame], child: &Child) {
        if self.best.as_ref().is_some_and(|(b, _)| *b >= child.promise) {
            return;
        }
        let first = path.get(1).map_or(&child.moves, |f| &f.moves);
        self.best = Some((child.promise, first.clone()));
    }
}

/// How promising a position is: how close to the goal (in thousandths), then the fewer pieces on the pits.
fn promise(engine: &Engine, st: &State) -> (u32, u32) {
    let pits = engine.rules.n_pits * engine.kinds();
    let on_pits: u32 = st.counts[..pits].iter().map(|&c| u32::from(c)).sum();
    ((closeness(engine, st) * 1000.0) as u32, u32::MAX - on_pits)
}
