//! Random playouts: every shipped game through the interpreter, and the hand-written engines of the
//! `mancala-baseline` crate (Kalah, Oware) as the yardstick. Throughput is in plies, so criterion shows
//! plies/s; at the end every game and engine is timed again in turns of 100 ms, and the ratios printed (the
//! table of `mancala bench`).
//!
//! `cargo bench` runs everything (a few minutes); `cargo bench -- kalah` only the Kalah benchmarks.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use mancala::engine::Engine;
use mancala::playout::Dice;
use mancala::playout::{race, race_table, Playout, Runner};

/// One benchmark iteration plays this many games at least, and more for quick games, so that an iteration
/// lasts about `ITERATION`.
const ITERATION: Duration = Duration::from_millis(5);
const SEED: u64 = 42;

fn games() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("games");
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
fn batch(mut play: impl FnMut(&mut Dice) -> u64) -> (u64, u64) {
    let mut rng = Dice::with_seed(SEED);
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
                let mut rng = Dice::with_seed(SEED);
                let mut total = 0u64;
                for _ in 0..games {
                    total += playout.run(&mut rng, |_| {}).plies as u64;
                }
                black_box(total)
            })
        });
    }

    for hand in mancala_baseline::all() {
        let (games, plies) = batch(|rng| (hand.random_game)(rng) as u64);
        group.throughput(Throughput::Elements(plies));
        let id = hand.name.replace(", ", "-").replace(' ', "-");
        group.bench_function(&id, |b| {
            b.iter(|| {
                let mut rng = Dice::with_seed(SEED);
                let mut total = 0u64;
                for _ in 0..games {
                    total += (hand.random_game)(&mut rng) as u64;
                }
                black_box(total)
            })
        });
    }
    group.finish();
}

/// Every shipped game and every hand-written engine, each for about two seconds in turns of 100 ms, and
/// their ratios (the same table as `mancala bench`).
fn ratios() {
    let engines: Vec<(String, Engine)> =
        games().iter().map(|p| (p.file_stem().unwrap().to_string_lossy().into_owned(), compile(p))).collect();
    let mut runners: Vec<Runner<'_>> =
        mancala_baseline::all().iter().map(|h| Runner::hand_written(h.name, h.mirrors, SEED, h.random_game)).collect();
    runners.extend(engines.iter().map(|(stem, e)| Runner::engine(&e.rules.game, stem, SEED, e)));
    race(&mut runners, Duration::from_secs(2), Duration::from_millis(100), |_| {});
    eprintln!();
    eprintln!("Random playouts, one thread, in turns of 100 ms:");
    eprintln!("{}", race_table(&runners));
}

fn main() {
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(800))
        .measurement_time(Duration::from_secs(3))
        .configure_from_args();
    playouts(&mut c);
    c.final_summary();

    // The ratios too, unless criterion is only listing or testing, or filtering.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = args.iter().any(|a| a == "--list" || a == "--test" || a == "--profile-time");
    let filter = filter(&args);
    if !quick && filter.is_none() {
        ratios();
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
