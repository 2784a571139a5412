//! `mancala solve`: search every reachable position of a solitaire and print a shortest winning line.

use std::path::PathBuf;

use mancala::notation::{format_ply, parse_position};
use mancala::solve::{solve, Verdict};

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
    let result = solve(&engine, &start, args.max_states);
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
        Verdict::Unknown => println!("unknown: gave up after {} positions (raise --max-states)", result.states),
    }
    println!("{} searched", mancala::plural(result.states as u64, "position", "positions"));
    Ok(Status::Ok)
}
