//! Solvers: exact answers from a rule file.
//!
//! - [`solitaire`]: can a one-player game's goal be reached from a position, by which line, and which line is
//!   shortest? Depth-first for any win (with the most promising plies first), then bounded searches for
//!   shorter lines; exhaustive when no line wins, which it then proves.
//! - [`duel`]: the value of a two-player position under perfect play (the first player's final score minus
//!   the second's), by alpha-beta over the whole game tree with a transposition table (MTD(f)).
//!
//! Both look at positions at ply boundaries, each ply expanded over its decisions (direction, pits to take,
//! ...), and remember positions by a 128-bit fingerprint of what decides the rest of the game ([`Keys`]). Both
//! stop with [`Verdict::Unknown`] at their bounds (`max_states` positions remembered, about `max_bytes` of
//! tables, a deadline) or when asked to ([`Watch::cancel`]); [`SolveResult::limit`] says which.

pub mod duel;
pub mod solitaire;

pub use solitaire::{solve, solve_watched, solve_with};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::engine::{Ctx, Engine, Move, Stage, State};
use crate::ir::{ActionKind, Cond, DirRule, Shape, NO_PLAYER};

/// What the search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The goal can be reached: a winning line, one `Vec<Move>` per ply (a shortest one where
    /// [`SolveResult::shortest`] says so).
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
            Limit::Memory if options.max_bytes < 1 << 20 => {
                format!("the limit of {} KiB of memory was reached", options.max_bytes >> 10)
            }
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
    /// With [`Verdict::Solved`]: no line wins in fewer plies (the bounded searches for a shorter line ran
    /// to their end).
    pub shortest: bool,
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
    /// After a win is found, how long to search for shorter ones (a search stopped early keeps the shortest
    /// line found).
    pub shorten: Shorten,
}

/// How long a solitaire's search goes on for shorter lines, once it has a win.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shorten {
    /// Not at all: the first win found.
    No,
    /// For this long at most (and within the search's bounds).
    For(Duration),
    /// Until the line is proven shortest (within the search's bounds).
    Prove,
}

/// The memory a search may use unless told otherwise: 512 MiB.
pub const DEFAULT_MAX_BYTES: usize = 512 << 20;
/// The positions a search may remember unless told otherwise.
pub const DEFAULT_MAX_STATES: usize = 100_000_000;

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            max_states: DEFAULT_MAX_STATES,
            symmetry: Symmetry::None,
            max_bytes: DEFAULT_MAX_BYTES,
            deadline: None,
            shorten: Shorten::Prove,
        }
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

/// Makes position keys: the bytes of everything that decides the rest of the game, folded into a 128-bit
/// fingerprint. Two positions share a fingerprint by chance with a probability of about n²/2¹²⁹ among n
/// positions: below 10⁻²⁰ for a billion of them.
pub(crate) struct Keys {
    /// With ring symmetry: the number of pits and kinds.
    ring: Option<(usize, usize)>,
    /// What besides the pieces, owners, marks and turn decides the rest of the game, in these rules.
    extra: Extra,
    bytes: Vec<u8>,
}

/// The parts of a position that only some rules read.
#[derive(Debug, Clone, Copy, Default)]
struct Extra {
    /// Earlier positions, for `repetition` (as a set: their order does not matter).
    history: bool,
    /// Each seat's plies with a capture (`captures(PLAYER)`).
    captures: bool,
    /// Each seat's plies (`moves(PLAYER)`).
    moves: bool,
    /// The places dropped into this turn (`passed`).
    passed: bool,
}

/// A position's fingerprint.
pub(crate) type Fingerprint = [u64; 2];

impl Keys {
    pub(crate) fn new(engine: &Engine, symmetry: Symmetry) -> Keys {
        let ring =
            (symmetry == Symmetry::Ring && ring_symmetric(engine)).then_some((engine.rules.n_pits, engine.kinds()));
        let needs = &engine.rules.needs;
        let l = &engine.lowered;
        let json = serde_json::to_string(&(&l.phases, &l.end, &l.goal, &l.score)).unwrap_or_default();
        let extra = Extra {
            history: needs.repetition,
            captures: json.contains("\"Captures\""),
            moves: needs.moves,
            passed: needs.passed,
        };
        Keys { ring, extra, bytes: Vec::new() }
    }

    /// The fingerprint of a position at a ply boundary.
    pub(crate) fn key(&mut self, st: &State) -> Fingerprint {
        let mut k = std::mem::take(&mut self.bytes);
        k.clear();
        self.pieces(st, &mut k);
        k.extend_from_slice(&st.owner);
        k.extend_from_slice(&st.marks);
        k.extend_from_slice(&st.mark_lives);
        k.extend_from_slice(&[st.phase, st.to_move, st.eliminated, matches!(st.stage, Stage::Respond) as u8]);
        k.extend_from_slice(&st.offered.to_le_bytes());
        k.extend_from_slice(&st.quiet.to_le_bytes());
        k.push(st.round_seen);
        k.extend_from_slice(&st.round.to_le_bytes());
        k.extend_from_slice(&[st.round_starter, st.before_sowing as u8]);
        let x = self.extra;
        if x.captures {
            st.capture_plies.iter().for_each(|c| k.extend_from_slice(&c.to_le_bytes()));
        }
        if x.moves {
            st.plies_made.iter().for_each(|c| k.extend_from_slice(&c.to_le_bytes()));
        }
        if x.passed {
            k.extend_from_slice(&st.passed[0].to_le_bytes());
            k.extend_from_slice(&st.passed[1].to_le_bytes());
        }
        if x.history {
            // The set of earlier positions: a sum of their mixed keys, the same in any order.
            let set = st.history.iter().fold(0u64, |acc, &h| acc.wrapping_add(mix(h, 0x2545_f491_4f6c_dd1d)));
            k.extend_from_slice(&set.to_le_bytes());
            k.extend_from_slice(&(st.history.len() as u64).to_le_bytes());
        }
        let fp = fingerprint(&k);
        self.bytes = k;
        fp
    }

    /// The pieces of every place; with ring symmetry, the pits as the least of their 2n images.
    fn pieces(&self, st: &State, k: &mut Vec<u8>) {
        let Some((n, kinds)) = self.ring else {
            k.extend_from_slice(&st.counts);
            return;
        };
        // An image is (reflect, rotation); its i-th pit is `pit(image, i)`. Images are compared lazily.
        let pits = &st.counts[..n * kinds];
        let pit = |(reflect, r): (bool, usize), i: usize| if reflect { (r + n - i) % n } else { (r + i) % n };
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

/// Two 64-bit hashes of `bytes`, eight bytes at a time, from two seeds.
fn fingerprint(bytes: &[u8]) -> Fingerprint {
    let (mut a, mut b) = (0x243f_6a88_85a3_08d3u64, 0x1319_8a2e_0370_7344u64);
    let mut words = bytes.chunks_exact(8);
    for w in &mut words {
        let w = u64::from_le_bytes(w.try_into().unwrap_or([0; 8]));
        a = mix(a, w);
        b = mix(b ^ 0xa409_3822_299f_31d0, w.rotate_left(29));
    }
    let tail = words.remainder().iter().rev().fold(bytes.len() as u64, |w, &x| w << 8 | x as u64);
    [finish(mix(a, tail)), finish(mix(b, tail.rotate_left(29)))]
}

#[inline]
fn mix(h: u64, w: u64) -> u64 {
    let m = (h ^ w) as u128 * 0x9e37_79b9_7f4a_7c15u128;
    (m as u64) ^ ((m >> 64) as u64)
}

#[inline]
fn finish(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// Calls `each` with every complete ply from `st` (a position at a ply boundary): its decisions, and the
/// position after it. Stops at the first error `each` returns.
pub fn for_each_ply<E>(
    engine: &Engine,
    st: &State,
    each: &mut impl FnMut(&[Move], State) -> Result<(), E>,
) -> Result<(), E> {
    fn go<E>(
        engine: &Engine,
        st: &State,
        ply: u32,
        path: &mut Vec<Move>,
        each: &mut impl FnMut(&[Move], State) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut moves = Vec::new();
        engine.legal_moves(st, &mut moves);
        for mv in moves {
            let mut next = st.clone();
            engine.apply_unchecked(&mut next, mv);
            if next.illegal {
                continue;
            }
            path.push(mv);
            if next.ply != ply || next.result.is_some() {
                each(path, next)?;
            } else {
                go(engine, &next, ply, path, each)?;
            }
            path.pop();
        }
        Ok(())
    }
    go(engine, st, st.ply, &mut Vec::new(), each)
}

/// How many plies are tried between looks at the clock, the cancel flag and the progress function.
const CHECK_EVERY: u64 = 1 << 12;
/// How often progress is reported.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// A search's bounds and its watcher, looked at every few thousand plies.
pub(crate) struct Clock<'w> {
    options: SolveOptions,
    watch: Watch<'w>,
    started: Instant,
    last_progress: Instant,
    /// Plies tried so far.
    pub(crate) plies: u64,
}

impl<'w> Clock<'w> {
    pub(crate) fn new(options: &SolveOptions, watch: Watch<'w>) -> Clock<'w> {
        let now = Instant::now();
        let options = SolveOptions { max_states: options.max_states.max(1), ..*options };
        Clock { options, watch, started: now, last_progress: now, plies: 0 }
    }

    /// Stops the search at `at` too, where that comes before its deadline.
    pub(crate) fn stop_at(&mut self, at: Option<Instant>) {
        if let Some(at) = at {
            self.options.deadline = Some(self.options.deadline.map_or(at, |d| d.min(at)));
        }
    }

    /// A ply was tried: every few thousand, the cancel flag, the deadline and progress; and always the
    /// bounds on positions and memory.
    pub(crate) fn tick(&mut self, states: usize, bytes: usize) -> Result<(), Limit> {
        self.plies += 1;
        if states >= self.options.max_states {
            return Err(Limit::States);
        }
        if bytes > self.options.max_bytes {
            return Err(Limit::Memory);
        }
        // The first ply too: a search asked to stop before it began does not start.
        if self.plies % CHECK_EVERY != 1 {
            return Ok(());
        }
        if self.watch.cancel.is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed)) {
            return Err(Limit::Cancelled);
        }
        let now = Instant::now();
        if self.options.deadline.is_some_and(|d| now >= d) {
            return Err(Limit::Time);
        }
        if now.duration_since(self.last_progress) >= PROGRESS_EVERY {
            self.last_progress = now;
            if let Some(f) = self.watch.progress.as_mut() {
                f(Progress { states, bytes, elapsed: now - self.started });
            }
        }
        Ok(())
    }
}

/// A table from fingerprints to a small number (16 bits), in 16 bytes an entry: the first word of the
/// fingerprint is the key, the second (less its low 16 bits) is kept with the number and checked on a
/// look-up, so 112 bits tell positions apart.
#[derive(Default)]
pub(crate) struct Table {
    map: std::collections::HashMap<u64, u64, std::hash::BuildHasherDefault<FirstWord>>,
}

impl Table {
    pub(crate) fn get(&self, fp: Fingerprint) -> Option<u16> {
        let v = *self.map.get(&fp[0])?;
        (v >> 16 == fp[1] >> 16).then_some(v as u16)
    }
    pub(crate) fn insert(&mut self, fp: Fingerprint, value: u16) {
        self.map.insert(fp[0], (fp[1] & !0xffff) | u64::from(value));
    }
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
    /// The bytes its buckets take: 16 for the entry and one of control each.
    pub(crate) fn bytes(&self) -> usize {
        self.map.capacity() * 17
    }
}

/// The hasher of [`Table`]: its keys are hashes already.
#[derive(Default)]
pub(crate) struct FirstWord(u64);

impl std::hash::Hasher for FirstWord {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = bytes.iter().fold(self.0, |h, &b| h.rotate_left(8) ^ b as u64);
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
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
