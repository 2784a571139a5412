//! The structure-aware fuzzer, long-running: mutants of the shipped games through parse, check, lowering,
//! random games and the computer players, with every panic, stuck game, slow input and crash counted,
//! and one small reduced file per distinct finding.
//!
//! `cargo run --release --example fuzz -- --inputs 1000000 --seed 1 --games-per-mutant 3 --out target/fuzz`
//!
//! `--reference` pairs each mutant that checks clean with the reference semantics (`tests/reference/`) and
//! plays random games of its variants on both, compared at every decision (`tests/differ/`): each
//! disagreement is a finding, written with the position and plies that show it:
//! `cargo run --release --example fuzz -- --reference --inputs 400000 --games-per-mutant 2 --plies 40 --game-ms 60
//! --out target/fuzz-reference` (a game is left, not judged, past `--plies` or `--game-ms`).
//!
//! The process that is started supervises a worker process (the same program with `--worker`) that runs
//! the inputs and reports each input's index before running it. A crash that no `catch_unwind` can catch
//! (an abort, a stack overflow, memory past `--mem-limit-mb`) or a hang past `--hang-secs` then costs one
//! input: the supervisor records it, and starts a new worker at the next index. Inputs are made from
//! (seed, index) alone, so any finding can be made again.

#[path = "../tests/fuzzer/mod.rs"]
mod fuzzer;
// `--reference`: the differential run, the engine against the reference semantics.
#[path = "../tests/differ/mod.rs"]
mod differ;
#[path = "../tests/reference/mod.rs"]
mod reference;

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use fuzzer::harness::{self, FindingKind, Options};
use fuzzer::mutate::{mutant, shipped_seeds, Rng64};

/// Counts the bytes allocated, refuses past a limit (the process then aborts, and the supervisor records
/// the input), and keeps the peak of each input.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
static LIMIT: AtomicUsize = AtomicUsize::new(usize::MAX);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        if live > LIMIT.load(Ordering::Relaxed) {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
            return std::ptr::null_mut();
        }
        PEAK.fetch_max(live, Ordering::Relaxed);
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Debug, Clone)]
struct Args {
    inputs: u64,
    from: u64,
    seed: u64,
    games: u32,
    out: String,
    hang_secs: u64,
    mem_limit_mb: usize,
    worker: bool,
    dump: Option<u64>,
    run_file: Option<String>,
    reduce_hang: Option<String>,
    game_seed: u64,
    reduce_tries: usize,
    play_every: u64,
    reference: bool,
    /// `--reference`: plies a game is cut at, and the time it is given before it is left (not a finding).
    plies: u32,
    game_ms: u64,
    /// `--seeds DIR`: rule files mutated besides the shipped games.
    seeds: Option<String>,
}

/// `--help`: what the module doc at the top says, and every flag with its default.
const USAGE: &str = "\
The structure-aware fuzzer: mutants of the shipped games through parse, check, lowering, random games and
the computer players; every panic, stuck game, slow input and crash counted, one small reduced file per
distinct finding.

Usage: cargo run --release --example fuzz -- [FLAGS]

  cargo run --release --example fuzz -- --inputs 1000000 --seed 1 --games-per-mutant 3 --out target/fuzz
  cargo run --release --example fuzz -- --reference --inputs 400000 --games-per-mutant 2 --plies 40 \\
      --game-ms 60 --out target/fuzz-reference

Flags (default in brackets):
  --inputs N            run the inputs of index below N [10000]
  --from N              start at input N [0]
  --seed N              the run's seed: inputs are made from (seed, index) alone [1]
  --games-per-mutant N  random games played per mutant that checks clean [3]
  --play-every N        play games for one input in N only [1]
  --out DIR             where findings and reduced files go [target/fuzz]
  --hang-secs N         an input running past N seconds is a hang [60]
  --mem-limit-mb N      an input allocating past N MB is a crash [1536]
  --reduce-tries N      attempts when reducing a finding [3000]
  --reference           pair each mutant with the reference semantics (tests/reference/) and compare
                        random games at every decision; each disagreement is a finding
  --plies N             --reference: a game is left (not judged) past N plies [100]
  --game-ms N           --reference: a game is left (not judged) past N milliseconds [1000]
  --seeds DIR           mutate the rule files of DIR too, besides the shipped games (e.g.
                        tests/data/reference, whose small files use constructs no shipped game does)
  --dump INDEX          print the input of one index (of --seed) and stop
  --run-file FILE       run one file as an input (with --reference: tell its disagreements in full)
  --game-seed N         the games' seed for --run-file and --reduce-hang [0]
  --reduce-hang FILE    reduce an input that hangs, keeping the stage it hangs in
  --worker              internal: the worker process the supervisor starts
  -h, --help            print this and stop
";

/// A mistake on the command line: said on stderr, with where to look, and exit code 2.
fn usage_error(message: &str) -> ! {
    eprintln!("fuzz: {message}\n(run with --help for the flags)");
    std::process::exit(2)
}

fn parse_args() -> Args {
    let mut a = Args {
        inputs: 10_000,
        from: 0,
        seed: 1,
        games: 3,
        out: "target/fuzz".into(),
        hang_secs: 60,
        mem_limit_mb: 1536,
        worker: false,
        dump: None,
        run_file: None,
        reduce_hang: None,
        game_seed: 0,
        reduce_tries: 3000,
        play_every: 1,
        reference: false,
        plies: 100,
        game_ms: 1000,
        seeds: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().unwrap_or_else(|| usage_error(&format!("{flag} needs a value")));
        fn number<T: std::str::FromStr>(flag: &str, text: String) -> T {
            text.parse().unwrap_or_else(|_| usage_error(&format!("{flag} needs a number, not `{text}`")))
        }
        match flag.as_str() {
            "-h" | "--help" => {
                print!("{USAGE}");
                std::process::exit(0)
            }
            "--inputs" => a.inputs = number(&flag, value()),
            "--from" => a.from = number(&flag, value()),
            "--seed" => a.seed = number(&flag, value()),
            "--games-per-mutant" => a.games = number(&flag, value()),
            "--out" => a.out = value(),
            "--hang-secs" => a.hang_secs = number(&flag, value()),
            "--mem-limit-mb" => a.mem_limit_mb = number(&flag, value()),
            "--reduce-tries" => a.reduce_tries = number(&flag, value()),
            "--play-every" => a.play_every = number::<u64>(&flag, value()).max(1),
            "--worker" => a.worker = true,
            "--reference" => a.reference = true,
            "--plies" => a.plies = number(&flag, value()),
            "--game-ms" => a.game_ms = number(&flag, value()),
            "--run-file" => a.run_file = Some(value()),
            "--reduce-hang" => a.reduce_hang = Some(value()),
            "--game-seed" => a.game_seed = number(&flag, value()),
            "--dump" => a.dump = Some(number(&flag, value())),
            "--seeds" => a.seeds = Some(value()),
            other => usage_error(&format!("unknown flag `{other}`")),
        }
    }
    a
}

fn main() {
    let args = parse_args();
    if let Some(i) = args.dump {
        // The input of one index, to look at or to reduce by hand.
        std::io::stdout().write_all(&input(&seeds(&args), args.seed, i)).expect("stdout");
    } else if let (Some(path), true) = (&args.run_file, args.reference) {
        // A finding of the differential run told in full: `--reference --run-file FILE --game-seed N` (N is the
        // input's index xor the run's seed, as the run plays it).
        let bytes = std::fs::read(path).expect("a readable file");
        let r = differ::run_file(&bytes, args.game_seed, &reference_options(&args));
        for (sig, detail) in &r.findings {
            println!("{sig}\n{detail}\n");
        }
        println!("clean {}, {} variants, {:?}", r.clean, r.engines, r.tally);
    } else if let Some(path) = &args.run_file {
        let bytes = std::fs::read(path).expect("a readable file");
        let r = harness::run(&bytes, &options(&args), args.game_seed);
        for f in &r.findings {
            println!("{}", f.signature());
        }
        let mut stages = r.stages.clone();
        stages.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
        let times: Vec<String> = stages.iter().map(|(s, t)| format!("{s}={:.3}s", t.as_secs_f64())).collect();
        println!("{:.3} s: {}", r.elapsed.as_secs_f64(), times.join(" "));
    } else if let Some(path) = &args.reduce_hang {
        let bytes = std::fs::read(path).expect("a readable file");
        reduce_hang(&args, &bytes, path);
    } else if args.worker && args.reference {
        LIMIT.store(args.mem_limit_mb << 20, Ordering::Relaxed);
        reference_worker(&args);
    } else if args.worker {
        LIMIT.store(args.mem_limit_mb << 20, Ordering::Relaxed);
        worker(&args);
    } else {
        supervise(&args);
    }
}

/// The counts of one worker, cumulative, as a line of `key=value` words.
#[derive(Debug, Clone, Default)]
struct Stats {
    tried: u64,
    parsed: u64,
    clean: u64,
    played: u64,
    clean_played: u64,
    engines: u64,
    games: u64,
    plies: u64,
    /// Decisions compared with the reference (`--reference`).
    decisions: u64,
    capped: u64,
    slow: u64,
    hwm_kb: u64,
    max_ms: u64,
    /// The input that took [`Stats::max_ms`].
    max_at: u64,
    max_alloc_mb: u64,
}

impl Stats {
    fn line(&self) -> String {
        format!(
            "tried={} parsed={} clean={} played={} clean_played={} engines={} games={} plies={} decisions={} capped={} slow={} hwm_kb={} max_ms={} max_at={} max_alloc_mb={}",
            self.tried, self.parsed, self.clean, self.played, self.clean_played, self.engines, self.games, self.plies,
            self.decisions, self.capped, self.slow, self.hwm_kb, self.max_ms, self.max_at, self.max_alloc_mb
        )
    }

    fn read(line: &str) -> Stats {
        let mut s = Stats::default();
        for word in line.split_whitespace() {
            let Some((k, v)) = word.split_once('=') else { continue };
            let v: u64 = v.parse().unwrap_or(0);
            match k {
                "tried" => s.tried = v,
                "parsed" => s.parsed = v,
                "clean" => s.clean = v,
                "played" => s.played = v,
                "clean_played" => s.clean_played = v,
                "engines" => s.engines = v,
                "games" => s.games = v,
                "plies" => s.plies = v,
                "decisions" => s.decisions = v,
                "capped" => s.capped = v,
                "slow" => s.slow = v,
                "hwm_kb" => s.hwm_kb = v,
                "max_ms" => s.max_ms = v,
                "max_at" => s.max_at = v,
                "max_alloc_mb" => s.max_alloc_mb = v,
                _ => {}
            }
        }
        s
    }

    fn add(&mut self, o: &Stats) {
        self.tried += o.tried;
        self.parsed += o.parsed;
        self.clean += o.clean;
        self.played += o.played;
        self.clean_played += o.clean_played;
        self.engines += o.engines;
        self.games += o.games;
        self.plies += o.plies;
        self.decisions += o.decisions;
        self.capped += o.capped;
        self.slow += o.slow;
        self.hwm_kb = self.hwm_kb.max(o.hwm_kb);
        if o.max_ms > self.max_ms {
            self.max_ms = o.max_ms;
            self.max_at = o.max_at;
        }
        self.max_alloc_mb = self.max_alloc_mb.max(o.max_alloc_mb);
    }
}

/// The peak resident set of this process (VmHWM), in KiB.
fn peak_rss_kb() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// The input of index `i`: the same for the same seed, in any process.
/// The files mutated: the shipped games, then those of `--seeds DIR` (sorted, so a run is made again alike).
fn seeds(args: &Args) -> Vec<fuzzer::mutate::Seed> {
    let mut seeds = shipped_seeds();
    let Some(dir) = &args.seeds else { return seeds };
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| usage_error(&format!("--seeds {dir}: {e}")));
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mancala"))
        .collect();
    paths.sort();
    for p in paths {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| usage_error(&format!("{}: {e}", p.display())));
        seeds.push(fuzzer::mutate::Seed::new(&p.file_stem().unwrap_or_default().to_string_lossy(), &text));
    }
    seeds
}

fn input(seeds: &[fuzzer::mutate::Seed], seed: u64, i: u64) -> Vec<u8> {
    mutant(seeds, &mut Rng64::for_input(seed, i))
}

fn options(args: &Args) -> Options {
    Options { games: args.games, ..Options::default() }
}

/// Runs inputs `from..inputs`; prints `I index` before each, `F index kind signature` for each finding,
/// and `S stats` now and then and at the end.
fn worker(args: &Args) {
    let seeds = seeds(args);
    let opts = options(args);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut stats = Stats::default();
    let mut stages: Vec<(&'static str, Duration)> = Vec::new();
    for i in args.from..args.inputs {
        writeln!(out, "I {i}").and_then(|_| out.flush()).expect("the supervisor reads");
        let bytes = input(&seeds, args.seed, i);
        PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
        let base = LIVE.load(Ordering::Relaxed);
        let opts = Options { play: i % args.play_every == 0, ..opts.clone() };
        let r = harness::run(&bytes, &opts, args.seed ^ i);
        for (stage, took) in &r.stages {
            match stages.iter_mut().find(|(s, _)| s == stage) {
                Some((_, t)) => *t += *took,
                None => stages.push((stage, *took)),
            }
        }
        stats.tried += 1;
        stats.parsed += r.parsed as u64;
        stats.clean += r.clean as u64;
        stats.played += (r.games > 0) as u64;
        stats.clean_played += (r.clean && r.games > 0) as u64;
        stats.engines += r.engines as u64;
        stats.games += r.games;
        stats.plies += r.plies;
        stats.capped += r.capped;
        stats.slow += r.findings.iter().any(|f| f.kind == FindingKind::Slow) as u64;
        let ms = r.elapsed.as_millis() as u64;
        if ms > stats.max_ms {
            stats.max_ms = ms;
            stats.max_at = i;
        }
        let alloc_mb = (PEAK.load(Ordering::Relaxed).saturating_sub(base) >> 20) as u64;
        stats.max_alloc_mb = stats.max_alloc_mb.max(alloc_mb);
        for f in &r.findings {
            let sig = f.signature().replace('\n', " ");
            writeln!(out, "F {i} {sig}").expect("the supervisor reads");
        }
        if alloc_mb >= 256 {
            writeln!(out, "F {i} memory: one input allocated {alloc_mb} MiB at its peak")
                .expect("the supervisor reads");
        }
        if i % 500 == 0 || i + 1 == args.inputs {
            stats.hwm_kb = peak_rss_kb();
            writeln!(out, "S {}", stats.line()).expect("the supervisor reads");
        }
    }
    stages.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    let profile: Vec<String> = stages.iter().map(|(s, t)| format!("{s}={:.1}s", t.as_secs_f64())).collect();
    writeln!(out, "P {}", profile.join(" ")).expect("the supervisor reads");
    writeln!(out, "DONE").and_then(|_| out.flush()).expect("the supervisor reads");
}

/// The differential run's options: a few games of each variant, cut short where the reference is slow.
fn reference_options(args: &Args) -> differ::FileOptions {
    differ::FileOptions {
        games: args.games.min(2),
        max_plies: args.plies,
        game_time: Duration::from_millis(args.game_ms),
        ..differ::FileOptions::default()
    }
}

/// `--reference`: runs inputs `from..inputs` through the differential check; prints as `worker` does.
/// Only mutants that check clean are compared (`clean`); `engines` counts the variants compared.
fn reference_worker(args: &Args) {
    let seeds = seeds(args);
    let opts = reference_options(args);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut stats = Stats::default();
    for i in args.from..args.inputs {
        writeln!(out, "I {i}").and_then(|_| out.flush()).expect("the supervisor reads");
        let bytes = input(&seeds, args.seed, i);
        let started = Instant::now();
        let r = differ::run_file(&bytes, args.seed ^ i, &opts);
        stats.tried += 1;
        stats.clean += r.clean as u64;
        stats.clean_played += (r.tally.games > 0) as u64;
        stats.engines += r.engines as u64;
        stats.games += r.tally.games;
        stats.plies += r.tally.plies;
        stats.decisions += r.tally.decisions;
        stats.slow += r.slow as u64;
        let ms = started.elapsed().as_millis() as u64;
        if ms > stats.max_ms {
            stats.max_ms = ms;
            stats.max_at = i;
        }
        for (sig, _) in &r.findings {
            writeln!(out, "F {i} {}", sig.replace('\n', " ")).expect("the supervisor reads");
        }
        if i % 100 == 0 || i + 1 == args.inputs {
            stats.hwm_kb = peak_rss_kb();
            writeln!(out, "S {}", stats.line()).expect("the supervisor reads");
        }
    }
    writeln!(out, "DONE").and_then(|_| out.flush()).expect("the supervisor reads");
}

/// `--reference`: each distinct disagreement, reduced to a small rule file that still shows it, written to
/// `OUT/findings/NN-reference.mancala` with what shows it (variant, game seed, plies, position) on top.
fn save_disagreements(args: &Args, findings: &BTreeMap<String, Seen>) {
    let seeds = seeds(args);
    let opts = reference_options(args);
    let dir = format!("{}/findings", args.out);
    std::fs::create_dir_all(&dir).expect("the output folder");
    for (n, (sig, seen)) in findings.iter().enumerate() {
        let original = input(&seeds, args.seed, seen.first);
        let seed = args.seed ^ seen.first;
        let detail = |bytes: &[u8]| differ::run_file(bytes, seed, &opts).findings.into_iter().find(|(s, _)| s == sig);
        let started = Instant::now();
        let catchable = !sig.starts_with("crash") && !sig.starts_with("hang");
        let reduced = if catchable && detail(&original).is_some() {
            fuzzer::reduce::reduce(&original, |b| detail(b).is_some(), args.reduce_tries.min(300))
        } else {
            original.clone()
        };
        let shown = detail(&reduced).map_or_else(|| "(not shown again)".to_string(), |(_, d)| d);
        let mut header = format!("# fuzz: {sig} (input {} of seed {}, seed {seed})\n", seen.first, args.seed);
        for line in shown.lines().take(40) {
            header.push_str(&format!("# {line}\n"));
        }
        let mut body = header.into_bytes();
        body.extend_from_slice(&reduced);
        let path = format!("{dir}/{n:02}-reference.mancala");
        std::fs::write(&path, &body).expect("a finding is written");
        println!("  {path}: {} -> {} bytes in {:.1} s", original.len(), reduced.len(), started.elapsed().as_secs_f64());
    }
}

/// A distinct finding: how often, and the first input that showed it.
#[derive(Debug, Clone)]
struct Seen {
    count: u64,
    first: u64,
}

enum Line {
    Text(String),
    Closed,
}

fn supervise(args: &Args) {
    let started = Instant::now();
    let exe = std::env::current_exe().expect("the program's path");
    let mut totals = Stats::default();
    let mut findings: BTreeMap<String, Seen> = BTreeMap::new();
    let mut next = args.from;
    let mut workers = 0;
    let mut last_report = Instant::now();
    while next < args.inputs {
        workers += 1;
        let mut child = Command::new(&exe)
            .args(["--worker", "--from", &next.to_string(), "--inputs", &args.inputs.to_string()])
            .args(["--seed", &args.seed.to_string(), "--games-per-mutant", &args.games.to_string()])
            .args(["--mem-limit-mb", &args.mem_limit_mb.to_string(), "--play-every", &args.play_every.to_string()])
            .args(if args.reference { &["--reference"][..] } else { &[] })
            .args(["--plies", &args.plies.to_string(), "--game-ms", &args.game_ms.to_string()])
            .args(args.seeds.as_deref().map(|d| ["--seeds", d]).iter().flatten())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("a worker starts");
        let (tx, rx) = mpsc::channel();
        let stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(Line::Text(line)).is_err() {
                    return;
                }
            }
            let _ = tx.send(Line::Closed);
        });
        let stderr = child.stderr.take().expect("piped");
        let stderr_tail = std::thread::spawn(move || {
            let mut tail: Vec<String> = Vec::new();
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                tail.push(line);
                if tail.len() > 5 {
                    tail.remove(0);
                }
            }
            tail.join(" | ")
        });
        let mut current = next;
        let mut worker_stats = Stats::default();
        let mut done = false;
        let mut hung = false;
        loop {
            match rx.recv_timeout(Duration::from_secs(args.hang_secs)) {
                Ok(Line::Text(line)) => {
                    if let Some(i) = line.strip_prefix("I ") {
                        current = i.parse().unwrap_or(current);
                    } else if let Some(s) = line.strip_prefix("S ") {
                        worker_stats = Stats::read(s);
                    } else if let Some(f) = line.strip_prefix("F ") {
                        let (i, sig) = f.split_once(' ').unwrap_or(("0", f));
                        let i: u64 = i.parse().unwrap_or(0);
                        let e = findings.entry(sig.to_string()).or_insert_with(|| {
                            // Each new finding is told at once, so that a run cut short keeps it.
                            println!("[{:.0} s] new finding at input {i}: {sig}", started.elapsed().as_secs_f64());
                            Seen { count: 0, first: i }
                        });
                        e.count += 1;
                    } else if let Some(p) = line.strip_prefix("P ") {
                        println!("time per stage (last worker): {p}");
                    } else if line == "DONE" {
                        done = true;
                    }
                    if last_report.elapsed() > Duration::from_secs(60) {
                        last_report = Instant::now();
                        let mut t = totals.clone();
                        t.add(&worker_stats);
                        println!(
                            "[{:.0} s] at {current}: {} ; {} distinct findings",
                            started.elapsed().as_secs_f64(),
                            t.line(),
                            findings.len()
                        );
                    }
                }
                Ok(Line::Closed) => break,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    hung = true;
                    let _ = child.kill();
                    break;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        }
        let status = child.wait().expect("the worker ends");
        let tail = stderr_tail.join().unwrap_or_default();
        totals.add(&worker_stats);
        if done {
            break;
        }
        let sig = if hung {
            format!("hang: no progress for {} s (input {current})", args.hang_secs)
        } else {
            format!("crash: worker {status}: {}", tail.chars().take(300).collect::<String>())
        };
        let e = findings.entry(sig).or_insert(Seen { count: 0, first: current });
        e.count += 1;
        // The crashed input is counted as tried.
        totals.tried += 1;
        next = current + 1;
    }
    let elapsed = started.elapsed();
    println!("finished in {:.0} s with {workers} worker(s): {}", elapsed.as_secs_f64(), totals.line());
    println!("{} distinct findings:", findings.len());
    for (sig, seen) in &findings {
        println!("  {:>7} x  first at input {:>8}: {sig}", seen.count, seen.first);
    }
    save_findings(args, &findings);
    println!("peak RSS of the supervisor: {} KiB (workers: {} KiB)", peak_rss_kb(), totals.hwm_kb);
}

/// Reduces each distinct finding that the harness catches (panics, stuck games, mismatches, slow inputs)
/// and writes it to `OUT/findings/NN-stage.mancala`; crashes and hangs are written as they came.
fn save_findings(args: &Args, findings: &BTreeMap<String, Seen>) {
    if args.reference {
        return save_disagreements(args, findings);
    }
    let seeds = seeds(args);
    let opts = options(args);
    let dir = format!("{}/findings", args.out);
    std::fs::create_dir_all(&dir).expect("the output folder");
    for (n, (sig, seen)) in findings.iter().enumerate() {
        let original = input(&seeds, args.seed, seen.first);
        let game_seed = args.seed ^ seen.first;
        let shows = |bytes: &[u8]| harness::run(bytes, &opts, game_seed).findings.iter().any(|f| f.signature() == *sig);
        let catchable = !sig.starts_with("crash") && !sig.starts_with("hang") && !sig.starts_with("memory");
        let started = Instant::now();
        let reduced = if catchable && shows(&original) {
            // A slow input costs seconds a try.
            let tries = if sig.starts_with("slow") { args.reduce_tries.min(60) } else { args.reduce_tries };
            fuzzer::reduce::reduce(&original, shows, tries)
        } else {
            original.clone()
        };
        let header = format!(
            "# fuzz: {} (input {} of seed {}, game seed {game_seed})\n",
            sig.replace('\n', " "),
            seen.first,
            args.seed
        );
        let mut with_header = header.clone().into_bytes();
        with_header.extend_from_slice(&reduced);
        let body = if !catchable || shows(&with_header) {
            with_header
        } else {
            let mut b = reduced.clone();
            b.extend_from_slice(format!("\n{header}").as_bytes());
            b
        };
        let stage = sig.split_whitespace().nth(2).unwrap_or("x").trim_end_matches(':');
        let path = format!("{dir}/{n:02}-{stage}.mancala");
        std::fs::write(&path, &body).expect("a finding is written");
        println!("  {path}: {} -> {} bytes in {:.1} s", original.len(), reduced.len(), started.elapsed().as_secs_f64());
    }
}

/// Runs `bytes` in a child process with stage tracing; the stage it was in when it ran past `secs`, or
/// `None` when it finished in time.
fn hangs_in(args: &Args, bytes: &[u8], secs: f64) -> Option<String> {
    let exe = std::env::current_exe().expect("the program's path");
    let path = format!("{}/hang-candidate.mancala", args.out);
    std::fs::create_dir_all(&args.out).expect("the output folder");
    std::fs::write(&path, bytes).expect("a candidate is written");
    let mut child = Command::new(exe)
        .args(["--run-file", &path, "--game-seed", &args.game_seed.to_string()])
        .args(["--games-per-mutant", &args.games.to_string()])
        .env("FUZZ_TRACE", "1")
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("a child starts");
    let stderr = child.stderr.take().expect("piped");
    let last = std::thread::spawn(move || {
        BufReader::new(stderr)
            .lines()
            .map_while(Result::ok)
            .filter_map(|l| l.strip_prefix("stage ").map(String::from))
            .last()
    });
    let start = Instant::now();
    let hung = loop {
        if child.try_wait().ok().flatten().is_some() {
            break false;
        }
        if start.elapsed().as_secs_f64() > secs {
            let _ = child.kill();
            let _ = child.wait();
            break true;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let last = last.join().ok().flatten();
    if hung {
        last
    } else {
        None
    }
}

/// Reduces an input that hangs, keeping the stage it hangs in: `--reduce-hang FILE --game-seed N`.
fn reduce_hang(args: &Args, bytes: &[u8], path: &str) {
    let Some(stage) = hangs_in(args, bytes, args.hang_secs as f64) else {
        println!("{path} does not hang within {} s", args.hang_secs);
        return;
    };
    println!("{path} hangs in {stage}; reducing");
    let secs = (args.hang_secs as f64 / 4.0).max(2.0);
    let reduced = fuzzer::reduce::reduce(
        bytes,
        |b| hangs_in(args, b, secs).as_deref() == Some(stage.as_str()),
        args.reduce_tries,
    );
    let mut out = format!("# fuzz: hang in {stage} (game seed {})\n", args.game_seed).into_bytes();
    out.extend_from_slice(&reduced);
    let target = format!("{}/hang-{stage}.mancala", args.out);
    std::fs::write(&target, &out).expect("the reduced file is written");
    println!("{} -> {} bytes: {target}", bytes.len(), reduced.len());
}
