//! An exhaustive solver for one-player games (solitaires): can the goal be reached from a position, and by
//! which shortest line?
//!
//! Breadth-first over the positions at ply boundaries, so the first win found is a shortest one in plies.
//! Each ply is expanded depth-first over its decisions (direction, pits to take, ...), and positions are
//! memoised by what decides the rest of the game: the counts, the owners, the phase (and, to be safe, the
//! player to move and the eliminated players). The search stops with [`Verdict::Unknown`] once it has met
//! `max_states` distinct positions.
//!
//! The goal is reached when the game ends with `outcome.winners != 0`. For a game of several players this
//! asks whether the players, cooperating, can make anybody win: meaningful for solitaires only.

use std::collections::{HashSet, VecDeque};

use crate::engine::{Engine, Move, State};
use crate::ir::{ActionKind, DirRule, Shape, NO_PLAYER};

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The goal can be reached; a shortest line, one `Vec<Move>` per ply.
    Solved(Vec<Vec<Move>>),
    /// Every reachable position was searched: the goal cannot be reached.
    Unsolvable,
    /// The search met `max_states` positions before it could tell.
    Unknown,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveResult {
    pub verdict: Verdict,
    /// Distinct positions met (at ply boundaries, the start included).
    pub states: usize,
    /// Positions whose plies were expanded.
    pub expanded: usize,
    /// Plies tried (before merging equal positions).
    pub plies: u64,
}

impl SolveResult {
    pub fn is_solved(&self) -> bool {
        matches!(self.verdict, Verdict::Solved(_))
    }
    /// The winning line, when solved.
    pub fn line(&self) -> Option<&[Vec<Move>]> {
        match &self.verdict {
            Verdict::Solved(line) => Some(line),
            _ => None,
        }
    }
}

/// How positions are told apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Symmetry {
    /// Every position on its own.
    #[default]
    None,
    /// Positions that are rotations or reflections of each other on a ring count as one. Only sound when
    /// the rules treat every pit alike: see [`ring_symmetric`]; [`solve_with`] ignores it otherwise.
    Ring,
}

/// The settings of a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SolveOptions {
    /// Stop with [`Verdict::Unknown`] after meeting this many distinct positions.
    pub max_states: usize,
    pub symmetry: Symmetry,
}

/// Whether positions of this game may be merged under the rotations and reflections of its ring: a ring
/// board, no pit owned by anybody, every sowing's direction chosen by the mover, and no rule naming a
/// particular pit.
pub fn ring_symmetric(engine: &Engine) -> bool {
    let rules = &engine.rules;
    if !matches!(rules.shape, Shape::Ring { .. })
        || rules.initial_owner.iter().take(rules.n_pits).any(|&o| o != NO_PLAYER)
    {
        return false;
    }
    let phases_ok = rules.phases.iter().all(|ph| {
        ph.actions.iter().all(|a| match &a.kind {
            ActionKind::Sow(sow) => sow.dir == DirRule::Choose,
            ActionKind::Put(_) | ActionKind::Offer(_) => true,
        })
    });
    // A rule naming a pit shows as `{"Fixed":N}` with N a pit, in the rules as lowered (the engine's own
    // copy has its conditions compiled to closures, which cannot be inspected).
    let l = &engine.lowered;
    let json = serde_json::to_string(&(&l.phases, &l.end, &l.goal, &l.score)).unwrap_or_default();
    let names_a_pit = json.match_indices("{\"Fixed\":").any(|(i, m)| {
        let digits: String = json[i + m.len()..].chars().take_while(|c| c.is_ascii_digit()).collect();
        digits.parse::<usize>().is_ok_and(|p| p < rules.n_pits)
    });
    phases_ok && !names_a_pit && !json.contains("\"Compiled\"")
}

/// Makes position keys: everything that decides the rest of a solitaire.
struct Keys {
    /// With ring symmetry: the number of pits and kinds.
    ring: Option<(usize, usize)>,
}

impl Keys {
    fn key(&self, st: &State) -> Box<[u8]> {
        let mut k = Vec::with_capacity(st.counts.len() + st.owner.len() + 3);
        match self.ring {
            None => k.extend_from_slice(&st.counts),
            Some((n, kinds)) => {
                // The least of the 2n images of the pits, then the other places as they are. An image is
                // (reflect, rotation); its i-th pit is `pit(image, i)`. Images are compared lazily.
                let pits = &st.counts[..n * kinds];
                let pit = |(reflect, r): (bool, usize), i: usize| {
                    if reflect {
                        (r + n - i) % n
                    } else {
                        (r + i) % n
                    }
                };
                let mut best = (false, 0);
                for image in (1..n).map(|r| (false, r)).chain((0..n).map(|r| (true, r))) {
                    'cmp: for i in 0..n {
                        let (a, b) = (pit(image, i) * kinds, pit(best, i) * kinds);
                        for kk in 0..kinds {
                            match pits[a + kk].cmp(&pits[b + kk]) {
                                std::cmp::Ordering::Less => {
                                    best = image;
                                    break 'cmp;
                                }
                                std::cmp::Ordering::Greater => break 'cmp,
                                std::cmp::Ordering::Equal => {}
                            }
                        }
                    }
                }
                for i in 0..n {
                    let p = pit(best, i) * kinds;
                    k.extend_from_slice(&pits[p..p + kinds]);
                }
                k.extend_from_slice(&st.counts[n * kinds..]);
            }
        }
        k.extend_from_slice(&st.owner);
        k.extend_from_slice(&[st.phase, st.to_move, st.eliminated]);
        k.into_boxed_slice()
    }
}

/// A position met: the position it came from and the ply (in `Search::flat`) that led here.
struct Node {
    parent: u32,
    from: u32,
    to: u32,
}

struct Search<'e> {
    engine: &'e Engine,
    keys: Keys,
    max_states: usize,
    seen: HashSet<Box<[u8]>>,
    nodes: Vec<Node>,
    flat: Vec<Move>,
    queue: VecDeque<(u32, State)>,
    path: Vec<Move>,
    plies: u64,
}

enum Stop {
    Won(Vec<Vec<Move>>),
    Full,
}

/// Searches the positions reachable from `start` for one where the game is won (see the module docs),
/// every position on its own.
pub fn solve(engine: &Engine, start: &State, max_states: usize) -> SolveResult {
    solve_with(engine, start, &SolveOptions { max_states, symmetry: Symmetry::None })
}

/// [`solve`] with options: merging symmetric positions, when the game allows it.
pub fn solve_with(engine: &Engine, start: &State, options: &SolveOptions) -> SolveResult {
    let ring =
        (options.symmetry == Symmetry::Ring && ring_symmetric(engine)).then_some((engine.rules.n_pits, engine.kinds()));
    let mut s = Search {
        engine,
        keys: Keys { ring },
        max_states: options.max_states.max(1),
        seen: HashSet::new(),
        nodes: Vec::new(),
        flat: Vec::new(),
        queue: VecDeque::new(),
        path: Vec::new(),
        plies: 0,
    };
    let done = |s: &Search, verdict, expanded| SolveResult { verdict, states: s.seen.len(), expanded, plies: s.plies };
    let start_key = s.keys.key(start);
    if let Some(o) = &start.result {
        s.seen.insert(start_key);
        let verdict = if o.winners != 0 { Verdict::Solved(Vec::new()) } else { Verdict::Unsolvable };
        return done(&s, verdict, 0);
    }
    s.seen.insert(start_key);
    s.nodes.push(Node { parent: u32::MAX, from: 0, to: 0 });
    s.queue.push_back((0, start.clone()));
    let mut expanded = 0;
    while let Some((idx, st)) = s.queue.pop_front() {
        expanded += 1;
        s.path.clear();
        match s.expand(idx, &st, st.ply) {
            Ok(()) => {}
            Err(Stop::Won(line)) => return done(&s, Verdict::Solved(line), expanded),
            Err(Stop::Full) => return done(&s, Verdict::Unknown, expanded),
        }
    }
    done(&s, Verdict::Unsolvable, expanded)
}

impl Search<'_> {
    /// Depth-first over the decisions of the ply that started at `ply`, from node `idx`.
    fn expand(&mut self, idx: u32, st: &State, ply: u32) -> Result<(), Stop> {
        let mut moves = Vec::new();
        self.engine.legal_moves(st, &mut moves);
        for mv in moves {
            let mut next = st.clone();
            self.engine.apply_unchecked(&mut next, mv);
            if next.illegal {
                continue;
            }
            self.path.push(mv);
            if next.ply != ply || next.result.is_some() {
                self.leaf(idx, next)?;
            } else {
                self.expand(idx, &next, ply)?;
            }
            self.path.pop();
        }
        Ok(())
    }

    /// A ply ended in `st`.
    fn leaf(&mut self, idx: u32, st: State) -> Result<(), Stop> {
        self.plies += 1;
        if st.result.as_ref().is_some_and(|o| o.winners != 0) {
            let mut line = vec![self.path.clone()];
            let mut i = idx;
            while i != 0 {
                let n = &self.nodes[i as usize];
                line.push(self.flat[n.from as usize..n.to as usize].to_vec());
                i = n.parent;
            }
            line.reverse();
            return Err(Stop::Won(line));
        }
        let k = self.keys.key(&st);
        if self.seen.contains(&k) {
            return Ok(());
        }
        if self.seen.len() >= self.max_states {
            return Err(Stop::Full);
        }
        self.seen.insert(k);
        if st.result.is_none() {
            let from = self.flat.len() as u32;
            self.flat.extend_from_slice(&self.path);
            self.nodes.push(Node { parent: idx, from, to: self.flat.len() as u32 });
            self.queue.push_back((self.nodes.len() as u32 - 1, st));
        }
        Ok(())
    }
}
