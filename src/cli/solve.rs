//! `mancala solve`: exact answers. A solitaire: a winning line (the shortest), or a proof that none wins.
//! A two-player game: the value under perfect play, a line of it, and with `--moves` the value of every ply.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala::engine::{Engine, Move, State};
use mancala::notation::{format_ply, parse_position};
use mancala::solve::duel::{solve_duel, DuelError, DuelOptions, DuelResult};
use mancala::solve::{solve_watched, Limit, Progress, Shorten, SolveOptions, SolveResult, Symmetry, Verdict, Watch};

use super::{load_engine, Failure, Status};

/// Solve a game exactly, from its start or a position.
///
/// A solitaire (one player): searches depth-first for a winning line, then for shorter ones (for --shorten
/// seconds, or until the line is proven shortest with --shortest); where no line wins, it searches every
/// reachable position and says so. Positions
/// that are rotations or reflections of each other count once where the rules allow it (a ring whose every
/// rule is the same from every pit and both ways).
///
/// A game for two: the value under perfect play, as the first player's final score minus the second's (both
/// play to win first, then for the largest margin), found by MTD(f) over the whole game tree with a
/// transposition table of --max-memory; and a line of perfect play.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala solve gulek-solo --variant v1                  # a winning line of a solitaire
  mancala solve gulek-solo --variant v1 --shortest --time 600
  mancala solve games/gulek-solo.mancala --position '1=3 2=1'
  mancala solve kalah --position 'a3 b3 c3 A3 B3 C3' --moves   # Kalah on three pits of three seeds
  mancala solve kalah --json --time 600

Exit status: 0 when it answered, 3 when it stopped before (time, memory, Ctrl-C), 2 on a usage error.")]
pub struct Args {
    /// The rule file (or a shipped game's name): a game for one player or two.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The variant to solve.
    #[arg(long)]
    pub variant: Option<String>,
    /// The position to start from, in the position format (e.g. `1=3 2=1`); the game's start by default.
    #[arg(long)]
    pub position: Option<String>,
    /// Two players: also give the value of every ply from the position.
    #[arg(long)]
    pub moves: bool,
    /// A solitaire: after the first win found, search this long for shorter lines (0: not at all).
    #[arg(long, value_name = "SECS", default_value_t = 10.0, conflicts_with = "shortest")]
    pub shorten: f64,
    /// A solitaire: search for shorter lines until the line is proven shortest (or --time runs out).
    #[arg(long)]
    pub shortest: bool,
    /// Stop after this many seconds.
    #[arg(long, value_name = "SECS")]
    pub time: Option<f64>,
    /// Print one JSON object: result, value, line, positions, seconds (and moves with --moves).
    #[arg(long)]
    pub json: bool,
    /// A solitaire: give up after remembering this many positions.
    #[arg(long, default_value_t = mancala::solve::DEFAULT_MAX_STATES)]
    pub max_states: usize,
    /// The memory of the search's tables, in MiB: a solitaire gives up when they reach it; a two-player
    /// search keeps a table of this size and slows down as it fills.
    #[arg(long, value_name = "MIB", default_value_t = mancala::solve::DEFAULT_MAX_BYTES >> 20)]
    pub max_memory: usize,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let engine = load_engine(&args.file, args.variant.as_deref(), None)?;
    let start = match &args.position {
        Some(text) => parse_position(&engine, text).map_err(|e| Failure::usage(format!("--position: {e}")))?,
        None => engine.initial_state(),
    };
    if args.time.is_some_and(|t| !(t > 0.0 && t.is_finite())) {
        return Err(Failure::usage("--time takes a number of seconds above 0".to_string()));
    }
    if !(args.shorten >= 0.0 && args.shorten.is_finite()) {
        return Err(Failure::usage("--shorten takes a number of seconds, 0 or more".to_string()));
    }
    let shorten = match (args.shortest, args.shorten) {
        (true, _) => Shorten::Prove,
        (false, s) if s == 0.0 => Shorten::No,
        (false, s) => Shorten::For(Duration::from_secs_f64(s)),
    };
    let options = SolveOptions {
        max_states: args.max_states,
        max_bytes: args.max_memory.saturating_mul(1 << 20),
        deadline: args.time.map(|t| Instant::now() + Duration::from_secs_f64(t)),
        symmetry: Symmetry::Ring,
        shorten,
    };
    let cancel = Arc::new(AtomicBool::new(false));
    let flag = cancel.clone();
    // Ctrl-C stops the search, which still reports what it found; a second one ends the program.
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::Relaxed) {
            std::process::exit(130);
        }
    });
    let meter = Meter::new(args.json);
    let started = Instant::now();
    match engine.rules.players {
        1 => {
            let result = meter.watch(&cancel, |watch| solve_watched(&engine, &start, &options, watch));
            Ok(report_solitaire(&engine, &start, &result, &options, &args, started.elapsed()))
        }
        2 => {
            let duel = DuelOptions { search: options, root_moves: args.moves };
            let result = meter.watch(&cancel, |watch| solve_duel(&engine, &start, &duel, watch));
            report_duel(&engine, &start, result, &args, started.elapsed())
        }
        n => Err(Failure::usage(format!(
            "{} is a game for {n} players; `solve` works on games for one player or two",
            args.file.display()
        ))),
    }
}

/// A progress line on a terminal, redrawn about every tenth of a second.
struct Meter {
    shown: bool,
}

impl Meter {
    fn new(json: bool) -> Meter {
        Meter { shown: !json && std::io::stderr().is_terminal() }
    }

    fn watch<T>(&self, cancel: &AtomicBool, search: impl FnOnce(Watch<'_>) -> T) -> T {
        let shown = self.shown;
        let mut report = |p: Progress| {
            if shown {
                eprint!(
                    "\r\x1b[2Ksearching: {} positions, {} MiB, {:.1} s (Ctrl-C stops)",
                    p.states,
                    p.bytes >> 20,
                    p.elapsed.as_secs_f64()
                );
            }
        };
        let result = search(Watch { cancel: Some(cancel), progress: Some(&mut report) });
        if shown {
            eprint!("\r\x1b[2K");
        }
        result
    }
}

/// The plies of a line in move notation, each from the position before it.
fn line_text(engine: &Engine, start: &State, line: &[Vec<Move>]) -> Vec<String> {
    let mut state = start.clone();
    line.iter()
        .map(|moves| {
            let text = format_ply(engine, &state, moves);
            for &mv in moves {
                engine.apply_unchecked(&mut state, mv);
            }
            text
        })
        .collect()
}

fn report_solitaire(
    engine: &Engine,
    start: &State,
    result: &SolveResult,
    options: &SolveOptions,
    args: &Args,
    elapsed: Duration,
) -> Status {
    let line = result.line().map(|l| line_text(engine, start, l));
    let why = result.limit.map(|l| match l {
        Limit::Memory => format!("{} (raise --max-memory)", l.describe(options)),
        Limit::States => format!("{} (raise --max-states)", l.describe(options)),
        Limit::Time => format!("{} (raise --time)", l.describe(options)),
        Limit::Cancelled => l.describe(options),
    });
    if args.json {
        let result_word = match result.verdict {
            Verdict::Solved(_) => "win",
            Verdict::Unsolvable => "loss",
            Verdict::Unknown => "unknown",
        };
        let json = serde_json::json!({
            "result": result_word,
            "value": serde_json::Value::Null,
            "line": line,
            "shortest": result.is_solved().then_some(result.shortest),
            "positions": result.states,
            "seconds": elapsed.as_secs_f64(),
            "stopped": why,
        });
        println!("{json}");
    } else {
        match &line {
            Some(plies) => {
                let n = mancala::plural(plies.len() as u64, "ply", "plies");
                let how = if result.shortest { "shortest" } else { "not proven shortest" };
                println!("a win in {n} ({how}): {}", plies.join(" / "));
                match result.limit {
                    Some(Limit::Time) if args.time.is_none() => println!(
                        "the search for a shorter line stopped after {} s (--shorten SECS searches longer, \
                         --shortest until the line is proven shortest)",
                        args.shorten
                    ),
                    Some(_) => println!("the search for a shorter line stopped: {}", why.as_deref().unwrap_or("")),
                    None => {}
                }
            }
            None if result.verdict == Verdict::Unsolvable => {
                println!("no line wins: every reachable position was searched")
            }
            None => println!("unknown: gave up, as {}", why.as_deref().unwrap_or("it stopped early")),
        }
        println!(
            "{} searched in {:.1} s",
            mancala::plural(result.states as u64, "position", "positions"),
            elapsed.as_secs_f64()
        );
    }
    if result.verdict == Verdict::Unknown {
        Status::Incomplete
    } else {
        Status::Ok
    }
}

fn report_duel(
    engine: &Engine,
    start: &State,
    result: Result<DuelResult, DuelError>,
    args: &Args,
    elapsed: Duration,
) -> Result<Status, Failure> {
    let r = match result {
        Ok(r) => r,
        Err(DuelError::Stopped(limit)) => {
            let why = match limit {
                Limit::Time => "the time limit was reached (raise --time)".to_string(),
                other => DuelError::Stopped(other).to_string(),
            };
            if args.json {
                let json = serde_json::json!({
                    "result": "unknown", "value": null, "line": null, "positions": null,
                    "seconds": elapsed.as_secs_f64(), "stopped": why,
                });
                println!("{json}");
            } else {
                println!("unknown: gave up after {:.1} s, as {why}", elapsed.as_secs_f64());
            }
            return Ok(Status::Incomplete);
        }
        Err(e) => return Err(Failure::usage(e.to_string())),
    };
    let word = |outcome: i8| match outcome {
        1 => "win",
        -1 => "loss",
        _ => "draw",
    };
    let line = line_text(engine, start, &r.line);
    let moves: Vec<_> = r
        .root
        .iter()
        .map(|(moves, outcome, margin)| (format_ply(engine, start, moves), word(*outcome), *margin))
        .collect();
    if args.json {
        let json = serde_json::json!({
            "result": word(r.outcome),
            "value": r.margin,
            "line": line,
            "positions": r.positions,
            "nodes": r.nodes,
            "seconds": elapsed.as_secs_f64(),
            "moves": args.moves.then(|| moves.iter().map(|(m, w, v)| serde_json::json!({"move": m, "result": w, "value": v})).collect::<Vec<_>>()),
            "ply_limit_reached": r.limit_reached,
        });
        println!("{json}");
        return Ok(Status::Ok);
    }
    let who = match r.outcome {
        1 => "the first player wins",
        -1 => "the second player wins",
        _ => "a draw",
    };
    println!("{who}, by {} (first player's score minus second's: {:+})", r.margin.abs(), r.margin);
    println!("a line of perfect play: {}", line.join(" / "));
    for (m, w, v) in &moves {
        println!("  {m:>8}  {w} {v:+}");
    }
    if r.limit_reached {
        println!("note: a line reached the game's ply limit; the value holds for games cut there");
    }
    println!("{} positions in the table, {} decisions searched, {:.1} s", r.positions, r.nodes, elapsed.as_secs_f64());
    Ok(Status::Ok)
}
