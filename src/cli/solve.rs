//! `mancala solve`: search every reachable position of a solitaire and print a shortest winning line.

use std::path::PathBuf;

use mancala::notation::{format_ply, parse_position};
use mancala::solve::{solve_with, SolveOptions, Verdict};

use super::{load_engine, Failure, Status};

/// Solve a one-player game: can the goal be reached, and how, in the fewest plies?
///
/// Searches every position reachable from the start (or from --position), remembering the positions
/// already seen, and prints a shortest winning line in move notation with the number of positions searched.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala solve games/gulek-solo.mancala --position '1=3 2=1'
  mancala solve games/gulek-solo.mancala --variant v3 --position '1=5 6=3'")]
pub struct Args {
    /// The rule file (a game for one player).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The variant to solve.
    #[arg(long)]
    pub variant: Option<String>,
    /// The position to start from, in the position format (e.g. `1=3 2=1`); the game's start by default.
    #[arg(long)]
    pub position: Option<String>,
    /// Give up after this many positions.
    #[arg(long, default_value_t = 5_000_000)]
    pub max_states: usize,
    /// Give up when the search's tables reach about this many MiB.
    #[arg(long, value_name = "MIB", default_value_t = mancala::solve::DEFAULT_MAX_BYTES >> 20)]
    pub max_memory: usize,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let engine = load_engine(&args.file, args.variant.as_deref(), None)?;
    if engine.rules.players != 1 {
        return Err(Failure::usage(format!(
            "{} is a game for {} players; `solve` works on solitaires",
            args.file.display(),
            engine.rules.players
        )));
    }
    let start = match &args.position {
        Some(text) => parse_position(&engine, text).map_err(|e| Failure::usage(format!("--position: {e}")))?,
        None => engine.initial_state(),
    };
    let options = SolveOptions {
        max_states: args.max_states,
        max_bytes: args.max_memory.saturating_mul(1 << 20),
        ..SolveOptions::default()
    };
    let result = solve_with(&engine, &start, &options);
    match &result.verdict {
        Verdict::Solved(line) => {
            let mut state = start.clone();
            let mut plies = Vec::new();
            for moves in line {
                plies.push(format_ply(&engine, &state, moves));
                for &mv in moves {
                    engine.apply_unchecked(&mut state, mv);
                }
            }
            println!("solvable in {}: {}", mancala::plural(line.len() as u64, "ply", "plies"), plies.join(" / "));
        }
        Verdict::Unsolvable => println!("not solvable: no line reaches the goal"),
        Verdict::Unknown => {
            let (why, raise) = match result.limit {
                Some(mancala::solve::Limit::Memory) => {
                    (mancala::solve::Limit::Memory.describe(&options), "--max-memory")
                }
                Some(limit) => (limit.describe(&options), "--max-states"),
                None => ("it stopped early".to_string(), "--max-states"),
            };
            println!("unknown: gave up after {} positions: {why} (raise {raise})", result.states);
        }
    }
    println!("{} searched", mancala::plural(result.states as u64, "position", "positions"));
    Ok(Status::Ok)
}
