//! An exhaustive solver for one-player games (solitaires): can the goal be reached from a position, and by
//! which shortest line?
//!
//! Breadth-first over the positions at ply boundaries, so the first win found is a shortest one in plies.
//! Each ply is expanded depth-first over its decisions (direction, pits to take, ...), and positions are
//! memoised by what decides the rest of the game: the counts, the owners, the phase (and, to be safe, the
//! player to move and the eliminated players). The search stops with [`Verdict::Unknown`] once it has met
//! `max_states` distinct positions, once its tables hold about `max_bytes`, at a deadline, or when asked to
//! ([`Watch::cancel`]); [`SolveResult::limit`] says which. It then still has an answer of sorts: the first
//! ply of the line to the position met that comes closest to the goal ([`SolveResult::best`]).
//!
//! The goal is reached when the game ends with `outcome.winners != 0`. For a game of several players this
//! asks whether the players, cooperating, can make anybody win: meaningful for solitaires only.

use std::collections::{HashSet, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::engine::{Ctx, Engine, Move, State};
use crate::ir::{ActionKind, Cond, DirRule, Shape, NO_PLAYER};

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

/// Why a search stopped before it could tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// It met `max_states` positions.
    States,
    /// Its tables reached `max_bytes`.
    Memory,
    /// The deadline passed.
    Time,
    /// It was asked to stop.
    Cancelled,
}

impl Limit {
    /// Why the search stopped, in words: "the limit of 256 MiB of memory was reached".
    pub fn describe(self, options: &SolveOptions) -> String {
        match self {
            Limit::States => format!("the limit of {} positions was reached", options.max_states),
            Limit::Memory => format!("the limit of {} MiB of memory was reached", options.max_bytes >> 20),
            Limit::Time => "the time limit was reached".to_string(),
            Limit::Cancelled => "it was interrupted".to_string(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveResult {
    pub verdict: Verdict,
    /// With [`Verdict::Unknown`]: what stopped the search.
    pub limit: Option<Limit>,
    /// With [`Verdict::Unknown`]: the first ply of the line to the position closest to the goal met (see
    /// [`closeness`]), when the search got past the start.
    pub best: Option<Vec<Move>>,
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
    /// Stop once the search's tables (positions seen and positions still to expand) hold about this many
    /// bytes, as estimated from their sizes.
    pub max_bytes: usize,
    /// Stop at this time.
    pub deadline: Option<Instant>,
}

/// The memory a search may use unless told otherwise: 512 MiB.
pub const DEFAULT_MAX_BYTES: usize = 512 << 20;

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions { max_states: 5_000_000, symmetry: Symmetry::None, max_bytes: DEFAULT_MAX_BYTES, deadline: None }
    }
}

/// How a search is watched while it runs: a flag that stops it when set (by a Ctrl-C handler, say), and a
/// function told of its progress about every tenth of a second.
#[derive(Default)]
pub struct Watch<'a> {
    pub cancel: Option<&'a AtomicBool>,
    pub progress: Option<&'a mut dyn FnMut(Progress)>,
}

/// How far a search has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Distinct positions met.
    pub states: usize,
    /// The estimated bytes of its tables.
    pub bytes: usize,
    pub elapsed: Duration,
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
            ActionKind::Put(_) | ActionKind::Take(_) | ActionKind::Offer(_) => true,
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

/// Bytes of bookkeeping per heap allocation and per hash-table entry, beyond the data itself: an estimate,
/// for the memory bound.
const ALLOCATION_OVERHEAD: usize = 16;
const ENTRY_OVERHEAD: usize = 2 * std::mem::size_of::<usize>() + 8;

/// How many plies are tried between looks at the clock, the cancel flag and the progress function.
const CHECK_EVERY: u64 = 1 << 12;
/// How often progress is reported.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

struct Search<'e, 'w> {
    engine: &'e Engine,
    keys: Keys,
    options: SolveOptions,
    watch: Watch<'w>,
    started: Instant,
    last_progress: Instant,
    seen: HashSet<Box<[u8]>>,
    nodes: Vec<Node>,
    flat: Vec<Move>,
    queue: VecDeque<(u32, State)>,
    path: Vec<Move>,
    plies: u64,
    /// The estimated bytes held by the tables above.
    bytes: usize,
    /// The node closest to the goal met so far, and how close.
    best: Option<(f64, u32)>,
}

enum Stop {
    Won(Vec<Vec<Move>>),
    Full(Limit),
}

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
    let ring =
        (options.symmetry == Symmetry::Ring && ring_symmetric(engine)).then_some((engine.rules.n_pits, engine.kinds()));
    let now = Instant::now();
    let mut s = Search {
        engine,
        keys: Keys { ring },
        options: SolveOptions { max_states: options.max_states.max(1), ..*options },
        watch,
        started: now,
        last_progress: now,
        seen: HashSet::new(),
        nodes: Vec::new(),
        flat: Vec::new(),
        queue: VecDeque::new(),
        path: Vec::new(),
        plies: 0,
        bytes: 0,
        best: None,
    };
    let start_key = s.keys.key(start);
    if let Some(o) = &start.result {
        s.seen.insert(start_key);
        let verdict = if o.winners != 0 { Verdict::Solved(Vec::new()) } else { Verdict::Unsolvable };
        return s.done(verdict, None, 0);
    }
    s.bytes += key_bytes(&start_key) + state_bytes(start);
    s.seen.insert(start_key);
    s.nodes.push(Node { parent: u32::MAX, from: 0, to: 0 });
    s.queue.push_back((0, start.clone()));
    let mut expanded = 0;
    while let Some((idx, st)) = s.queue.pop_front() {
        s.bytes -= state_bytes(&st);
        expanded += 1;
        s.path.clear();
        match s.expand(idx, &st, st.ply) {
            Ok(()) => {}
            Err(Stop::Won(line)) => return s.done(Verdict::Solved(line), None, expanded),
            Err(Stop::Full(limit)) => return s.done(Verdict::Unknown, Some(limit), expanded),
        }
    }
    s.done(Verdict::Unsolvable, None, expanded)
}

/// The estimated bytes of a key in the table of positions seen.
fn key_bytes(key: &[u8]) -> usize {
    key.len() + ALLOCATION_OVERHEAD + ENTRY_OVERHEAD + std::mem::size_of::<Box<[u8]>>()
}

/// The estimated bytes of a position waiting in the queue.
fn state_bytes(st: &State) -> usize {
    let heap = st.counts.capacity()
        + st.owner.capacity()
        + st.hand.capacity()
        + st.before.capacity()
        + st.dropped.capacity()
        + st.history.capacity() * std::mem::size_of::<u64>()
        + st.result.as_ref().map_or(0, |o| o.scores.capacity() * std::mem::size_of::<i32>());
    std::mem::size_of::<(u32, State)>() + heap + 7 * ALLOCATION_OVERHEAD
}

/// How close a position comes to the goal, from 0 to 1: for `all pits(C)` the share of those pits where C
/// holds, for `and` the mean of its parts, for `or` the best of them, else 1 when it holds and 0 when not.
/// A game without a goal has none: 0.
pub fn closeness(engine: &Engine, st: &State) -> f64 {
    engine.lowered.goal.as_ref().map_or(0.0, |goal| goal_closeness(engine, st, Ctx::new(0), goal))
}

fn goal_closeness(engine: &Engine, st: &State, cx: Ctx, goal: &Cond) -> f64 {
    match goal {
        Cond::AllPits(set, body) => {
            let (mut all, mut holding) = (0u32, 0u32);
            engine.for_each_in_set(st, cx, set, |p| {
                all += 1;
                holding += u32::from(engine.cond(st, cx.at(p), body));
                true
            });
            if all == 0 {
                1.0
            } else {
                f64::from(holding) / f64::from(all)
            }
        }
        Cond::And(parts) if !parts.is_empty() => {
            parts.iter().map(|c| goal_closeness(engine, st, cx, c)).sum::<f64>() / parts.len() as f64
        }
        Cond::Or(parts) => parts.iter().map(|c| goal_closeness(engine, st, cx, c)).fold(0.0, f64::max),
        c => f64::from(u8::from(engine.cond(st, cx, c))),
    }
}

impl Search<'_, '_> {
    fn done(&self, verdict: Verdict, limit: Option<Limit>, expanded: usize) -> SolveResult {
        let best = match (&verdict, self.best) {
            (Verdict::Unknown, Some((_, node))) => self.line_to(node).into_iter().next(),
            _ => None,
        };
        SolveResult { verdict, limit, best, states: self.seen.len(), expanded, plies: self.plies }
    }

    /// The plies from the start to node `idx`.
    fn line_to(&self, mut idx: u32) -> Vec<Vec<Move>> {
        let mut line = Vec::new();
        while idx != 0 {
            let n = &self.nodes[idx as usize];
            line.push(self.flat[n.from as usize..n.to as usize].to_vec());
            idx = n.parent;
        }
        line.reverse();
        line
    }

    /// Every few thousand plies: the deadline, the cancel flag, and progress.
    fn look_up(&mut self) -> Result<(), Stop> {
        if !self.plies.is_multiple_of(CHECK_EVERY) {
            return Ok(());
        }
        if self.watch.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(Stop::Full(Limit::Cancelled));
        }
        let now = Instant::now();
        if self.options.deadline.is_some_and(|d| now >= d) {
            return Err(Stop::Full(Limit::Time));
        }
        if now.duration_since(self.last_progress) >= PROGRESS_EVERY {
            self.last_progress = now;
            let progress = Progress { states: self.seen.len(), bytes: self.bytes, elapsed: now - self.started };
            if let Some(f) = self.watch.progress.as_mut() {
                f(progress);
            }
        }
        Ok(())
    }

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
        self.look_up()?;
        if st.result.as_ref().is_some_and(|o| o.winners != 0) {
            let mut line = self.line_to(idx);
            line.push(self.path.clone());
            return Err(Stop::Won(line));
        }
        let k = self.keys.key(&st);
        if self.seen.contains(&k) {
            return Ok(());
        }
        if self.seen.len() >= self.options.max_states {
            return Err(Stop::Full(Limit::States));
        }
        if self.bytes >= self.options.max_bytes {
            return Err(Stop::Full(Limit::Memory));
        }
        self.bytes += key_bytes(&k);
        self.seen.insert(k);
        let from = self.flat.len() as u32;
        self.flat.extend_from_slice(&self.path);
        self.nodes.push(Node { parent: idx, from, to: self.flat.len() as u32 });
        let node = self.nodes.len() as u32 - 1;
        self.bytes += std::mem::size_of::<Node>() + self.path.len() * std::mem::size_of::<Move>();
        let close = closeness(self.engine, &st);
        if self.best.is_none_or(|(b, _)| close > b) {
            self.best = Some((close, node));
        }
        if st.result.is_none() {
            self.bytes += state_bytes(&st);
            self.queue.push_back((node, st));
        }
        Ok(())
    }
}
