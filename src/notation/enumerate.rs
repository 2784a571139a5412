//! Listing the complete legal plies from a position, within a budget (`enumerate_plies`).

use super::*;

/// The most decisions [`enumerate_plies`] tries before it stops: a rule file can make the plies from one
/// position astronomically many (twenty puts over fifteen pits) or make every path a dead end, and a listing
/// must come back at once.
pub const ENUMERATION_BUDGET: u32 = 200_000;

/// The plies [`enumerate_plies`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plies {
    pub plies: Vec<Vec<Move>>,
    /// The search spent its [`ENUMERATION_BUDGET`] before it had seen every ply: there may be others, and
    /// the list may be empty although plies exist. (Stopping at `limit` plies found is not partial: the
    /// caller asked for no more.)
    pub partial: bool,
}

/// Complete legal plies from `state` (normally a start-of-ply state; from the middle of a ply, the rest of
/// it), depth-first over the decisions in the engine's order: at most `limit` of them, and at most
/// [`ENUMERATION_BUDGET`] decisions tried.
pub fn enumerate_plies(engine: &Engine, state: &State, limit: usize) -> Plies {
    struct Search<'e> {
        engine: &'e Engine,
        ply0: u32,
        limit: usize,
        budget: u32,
        path: Vec<Move>,
        found: Plies,
    }
    impl Search<'_> {
        fn dfs(&mut self, st: &State) {
            for mv in legal(self.engine, st) {
                if self.found.plies.len() >= self.limit {
                    return;
                }
                if self.budget == 0 {
                    self.found.partial = true;
                    return;
                }
                self.budget -= 1;
                let mut next = st.clone();
                self.engine.apply_unchecked(&mut next, mv);
                if next.illegal {
                    continue;
                }
                self.path.push(mv);
                if next.ply != self.ply0 || next.result.is_some() {
                    self.found.plies.push(self.path.clone());
                } else {
                    self.dfs(&next);
                }
                self.path.pop();
            }
        }
    }
    let mut search = Search {
        engine,
        ply0: state.ply,
        limit,
        budget: ENUMERATION_BUDGET,
        path: Vec::new(),
        found: Plies::default(),
    };
    if state.result.is_none() && limit > 0 {
        search.dfs(state);
    }
    search.found
}
