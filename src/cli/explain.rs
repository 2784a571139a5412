//! `mancala explain`: one ply told step by step, with the rule that made each step.

use std::path::PathBuf;

use super::{load_engine_and_source, Failure, Status};
use mancala::notation::{parse_ply, parse_start_position};

/// Play one ply and tell each of its steps with the rule of the file that made it.
///
/// The lap lifted and by which rule, each piece dropped, the capture and what it took, relays, another turn,
/// each end rule tested and whether it held, and the sweeps at the end: each with its line in the file, its
/// text and its `///` sentence.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala explain games/kalah.mancala c
  mancala explain games/oware.mancala --position 'a1 f2 A3 C1 captured(1)=20 captured(2)=21' f
  mancala explain games/bao-la-kiswahili.mancala 'i6 cw' --format json

Exit status: 0 when the ply was told, 1 when the rule file has errors, 2 when the ply or the position cannot
be read (the error says what was expected).")]
pub struct Args {
    /// The rule file, or the name of a shipped game.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The ply, in move notation (as typed in `mancala play`).
    #[arg(value_name = "PLY")]
    pub ply: String,
    /// The variant to play; the base game when left out.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// The number of players; the file's default when left out.
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// The position the ply is played from, in the position format; the game's start when left out.
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// `text` for people, `json` for tools.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let (engine, source) = load_engine_and_source(&args.file, args.variant.as_deref(), args.players)?;
    let start = match &args.position {
        Some(text) => parse_start_position(&engine, text).map_err(|e| Failure::usage(format!("--position: {e}")))?,
        None => engine.initial_state(),
    };
    let moves = parse_ply(&engine, &start, &args.ply).map_err(|e| Failure::usage(format!("{}: {e}", args.ply)))?;
    let explanation = mancala::explain::explain(&engine, &source, &start, &moves);
    match args.format {
        Format::Text => print!("{}", mancala::explain::render(&explanation)),
        Format::Json => {
            let json = serde_json::to_string_pretty(&explanation)
                .map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
            println!("{json}");
        }
    }
    Ok(Status::Ok)
}
