//! Random playouts: every shipped game through the interpreter, and a hand-written Kalah(6,4) engine as the
//! baseline. Throughput is in plies, so criterion shows plies/s; at the end the interpreter's Kalah is timed
//! against the baseline with a plain loop and the ratio printed.
//!
//! `cargo bench` runs everything (about a minute); `cargo bench -- kalah` only the Kalah benchmarks and the
//! ratio.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use mancala::engine::Engine;
use mancala::playout::Playout;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// One benchmark iteration plays this many games at least, and more for quick games, so that an iteration
/// lasts about `ITERATION`.
const ITERATION: Duration = Duration::from_millis(5);
const SEED: u64 = 42;

fn games() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the games folder")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mancala"))
        .collect();
    games.sort();
    games
}

fn compile(path: &Path) -> Engine {
    let source = std::fs::read_to_string(path).expect("a readable game");
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{} does not compile: {d:?}", path.display()))
}

/// The number of games in one iteration, and their plies (the same every iteration: the seed is reset).
fn batch(mut play: impl FnMut(&mut SmallRng) -> u64) -> (u64, u64) {
    let mut rng = SmallRng::seed_from_u64(SEED);
    let start = Instant::now();
    let (mut games, mut plies) = (0, 0);
    while games < 1 || start.elapsed() < ITERATION {
        plies += play(&mut rng);
        games += 1;
    }
    (games, plies)
}

fn playouts(c: &mut Criterion) {
    let mut group = c.benchmark_group("playouts");
    for path in games() {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let engine = compile(&path);
        let mut playout = Playout::new(&engine);
        let (games, plies) = batch(|rng| playout.run(rng, |_| {}).plies as u64);
        group.throughput(Throughput::Elements(plies));
        group.bench_function(&name, |b| {
            b.iter(|| {
                let mut rng = SmallRng::seed_from_u64(SEED);
                let mut total = 0u64;
                for _ in 0..games {
                    total += playout.run(&mut rng, |_| {}).plies as u64;
                }
                black_box(total)
            })
        });
    }

    let mut moves = Vec::with_capacity(6);
    let (games, plies) = batch(|rng| baseline_kalah::random_game(rng, &mut moves).ply as u64);
    group.throughput(Throughput::Elements(plies));
    group.bench_function("kalah-baseline", |b| {
        b.iter(|| {
            let mut rng = SmallRng::seed_from_u64(SEED);
            let mut total = 0u64;
            for _ in 0..games {
                total += baseline_kalah::random_game(&mut rng, &mut moves).ply as u64;
            }
            black_box(total)
        })
    });
    group.finish();
}

/// Kalah through the interpreter against the baseline, each for about two seconds in a plain loop. The two
/// take turns in slices of 100 ms, so that a change in the machine's speed (a shared virtual machine's
/// neighbours, turbo) falls on both alike.
fn ratio() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/kalah.mancala");
    let engine = compile(&path);
    let slice = Duration::from_millis(100);
    let mut playout = Playout::new(&engine);
    let mut interp_rng = SmallRng::seed_from_u64(SEED);
    let mut base_rng = SmallRng::seed_from_u64(SEED);
    let mut moves = Vec::with_capacity(6);
    let mut interpreter = mancala::playout::Throughput::default();
    let (mut games, mut plies, mut base_time) = (0u64, 0u64, Duration::ZERO);
    for _ in 0..20 {
        interpreter += playout.run_for(&mut interp_rng, slice);
        let start = Instant::now();
        while start.elapsed() < slice {
            plies += baseline_kalah::random_game(&mut base_rng, &mut moves).ply as u64;
            games += 1;
        }
        base_time += start.elapsed();
    }
    let elapsed = base_time.as_secs_f64();
    let baseline = plies as f64 / elapsed;

    let interpreted = interpreter.plies_per_sec();
    eprintln!();
    eprintln!("Kalah(6,4), random playouts, one thread:");
    eprintln!(
        "  interpreter  {:>12.0} plies/s  {:>9.0} games/s  ({:.1} plies per game)",
        interpreted,
        interpreter.games_per_sec(),
        interpreter.mean_plies()
    );
    eprintln!(
        "  baseline     {:>12.0} plies/s  {:>9.0} games/s  ({:.1} plies per game)",
        baseline,
        games as f64 / elapsed,
        plies as f64 / games.max(1) as f64
    );
    eprintln!("  interpreter / baseline: {:.3} ({:.1}x slower)", interpreted / baseline, baseline / interpreted);
}

/// The baseline plays the same game as the interpreter: checked move by move on random games.
fn cross_check() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("games/kalah.mancala");
    let engine = compile(&path);
    let mut rng = SmallRng::seed_from_u64(7);
    let mut legal = Vec::new();
    let mut expected = Vec::new();
    for _ in 0..300 {
        let mut st = engine.initial_state();
        let mut k = baseline_kalah::Kalah::new();
        loop {
            assert_eq!(baseline_kalah::from_places(&st.counts), k.pits, "boards differ");
            assert_eq!(st.result.is_some(), k.over, "game end differs at {:?}", k.pits);
            if k.over {
                let o = st.result.as_ref().unwrap();
                assert_eq!(o.winners, k.winners(), "winners differ at {:?}", k.pits);
                break;
            }
            assert_eq!(st.to_move, k.to_move, "turn differs at {:?}", k.pits);
            legal.clear();
            engine.legal_moves(&st, &mut legal);
            expected.clear();
            k.legal_moves(&mut expected);
            let mut got: Vec<u8> = legal
                .iter()
                .map(|m| match m {
                    mancala::engine::Move::Begin { place, .. } => baseline_kalah::from_place(*place),
                    other => panic!("unexpected Kalah move {other:?}"),
                })
                .collect();
            got.sort();
            assert_eq!(got, expected, "legal moves differ at {:?}", k.pits);
            let mv = legal[rng.gen_range(0..legal.len())];
            let mancala::engine::Move::Begin { place, .. } = mv else { unreachable!() };
            engine.apply_unchecked(&mut st, mv);
            k.apply(baseline_kalah::from_place(place));
        }
        assert_eq!(st.ply, k.ply);
        assert_eq!(st.captures, k.captures);
    }
}

/// A hand-written Kalah(6,4): the rules of games/kalah.mancala, written plainly.
mod baseline_kalah {
    use rand::Rng;

    /// South's pits 0..6 and store 6, North's pits 7..13 and store 13: the counter-clockwise track.
    pub const STORE: [usize; 2] = [6, 13];

    #[derive(Debug, Clone)]
    pub struct Kalah {
        pub pits: [u8; 14],
        pub to_move: u8,
        pub ply: u32,
        pub captures: u32,
        pub over: bool,
    }

    impl Kalah {
        pub fn new() -> Kalah {
            Kalah { pits: [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], to_move: 0, ply: 0, captures: 0, over: false }
        }

        pub fn legal_moves(&self, out: &mut Vec<u8>) {
            let first = self.to_move as usize * 7;
            for pit in first..first + 6 {
                if self.pits[pit] > 0 {
                    out.push(pit as u8);
                }
            }
        }

        pub fn apply(&mut self, pit: u8) {
            let me = self.to_move as usize;
            let mut pos = pit as usize;
            let mut seeds = self.pits[pos];
            self.pits[pos] = 0;
            while seeds > 0 {
                pos = (pos + 1) % 14;
                if pos == STORE[1 - me] {
                    continue;
                }
                self.pits[pos] += 1;
                seeds -= 1;
            }
            let own = me * 7..me * 7 + 6;
            if own.contains(&pos) && self.pits[pos] == 1 {
                let opposite = 12 - pos;
                if self.pits[opposite] > 0 {
                    self.pits[STORE[me]] += self.pits[opposite] + 1;
                    self.pits[opposite] = 0;
                    self.pits[pos] = 0;
                    self.captures += 1;
                }
            }
            self.ply += 1;
            if pos != STORE[me] {
                self.to_move = 1 - self.to_move;
            }
            let south: u8 = self.pits[0..6].iter().sum();
            let north: u8 = self.pits[7..13].iter().sum();
            if south == 0 || north == 0 {
                self.pits[STORE[0]] += south;
                self.pits[STORE[1]] += north;
                self.pits[0..6].fill(0);
                self.pits[7..13].fill(0);
                self.over = true;
            }
        }

        /// The winners as bits, as the interpreter reports them: none for a draw.
        pub fn winners(&self) -> u8 {
            let (south, north) = (self.pits[STORE[0]], self.pits[STORE[1]]);
            match south.cmp(&north) {
                std::cmp::Ordering::Greater => 1,
                std::cmp::Ordering::Less => 2,
                std::cmp::Ordering::Equal => 0,
            }
        }
    }

    /// One game between random players, the same loop as `mancala::playout::Playout::run`.
    pub fn random_game<R: Rng + ?Sized>(rng: &mut R, moves: &mut Vec<u8>) -> Kalah {
        let mut k = Kalah::new();
        while !k.over {
            moves.clear();
            k.legal_moves(moves);
            let pit = moves[rng.gen_range(0..moves.len())];
            k.apply(pit);
        }
        k
    }

    /// The interpreter's place index of Kalah (pits a..f, A..F, then store(1), store(2)) in the baseline.
    pub fn from_place(place: u16) -> u8 {
        match place {
            0..=5 => place as u8,
            6..=11 => place as u8 + 1,
            12 => 6,
            _ => 13,
        }
    }

    /// The interpreter's board in the baseline's layout.
    pub fn from_places(counts: &[u8]) -> [u8; 14] {
        let mut pits = [0; 14];
        for (place, &n) in counts.iter().enumerate() {
            pits[from_place(place as u16) as usize] = n;
        }
        pits
    }
}

fn main() {
    cross_check();
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(800))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    playouts(&mut c);
    c.final_summary();

    // The ratio too, unless criterion is only listing or testing, or a filter leaves Kalah out.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--list" || a == "--test" || a == "--profile-time");
    let filter = filter(&args);
    if !quick && filter.map_or(true, |f| "playouts/kalah-baseline ratio".contains(f)) {
        ratio();
    }
}

/// Criterion's name filter: the first argument that is neither an option nor an option's value.
fn filter(args: &[String]) -> Option<&str> {
    const WITH_VALUE: &[&str] = &[
        "--save-baseline",
        "-s",
        "--baseline",
        "-b",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--color",
        "-c",
        "--output-format",
        "--plotting-backend",
        "--format",
    ];
    let mut skip = false;
    for a in args {
        if std::mem::take(&mut skip) {
            continue;
        }
        if a.starts_with('-') {
            skip = WITH_VALUE.contains(&a.as_str());
            continue;
        }
        return Some(a);
    }
    None
}
