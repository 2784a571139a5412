//! `mancala games`: the shipped games, one line each, from the catalogue (`docs/games/README.md`, read by
//! `mancala::catalogue`), filtered by rows, players and region.

use mancala::catalogue::{entries, line, Entry};

use super::{Failure, Status};

/// List the games shipped with the tool, one line each: its name (for any FILE argument), the game, its
/// board, players and region.
///
/// The lines come from the catalogue of `docs/games/README.md` (which a test holds to the game files); each
/// game's rules are told in words in `docs/games/NAME.md`. Filters narrow the list; all that are given must
/// hold.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala games
  mancala games --rows 4                (the four-row games)
  mancala games --players 3             (games three people can play)
  mancala games --region africa --rows 2
  mancala play $(mancala games --region india | head -1 | cut -d' ' -f1)")]
pub struct Args {
    /// Only games on a board of N rows of pits (1 to 4; 0 for a ring)
    #[arg(long, value_name = "N")]
    pub rows: Option<usize>,
    /// Only games that N players can play (1 for the solitaires)
    #[arg(long, value_name = "N")]
    pub players: Option<u32>,
    /// Only games whose region contains TEXT (any case), such as `africa`, `asia`, `india`, `modern`
    #[arg(long, value_name = "TEXT")]
    pub region: Option<String>,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let all = entries().map_err(|e| Failure::usage(format!("the built-in catalogue does not read: {e}")))?;
    let shown: Vec<&Entry> = all.iter().filter(|e| keeps(&args, e)).collect();
    if shown.is_empty() {
        return Err(Failure::Usage {
            message: "no shipped game matches these filters".to_string(),
            help: Some("`mancala games` with no filter lists them all".to_string()),
        });
    }
    for e in shown {
        println!("{}", line(e));
    }
    Ok(Status::Ok)
}

/// Whether a game passes every filter given.
fn keeps(args: &Args, e: &Entry) -> bool {
    let region = args.region.as_ref().is_none_or(|r| e.region.to_lowercase().contains(&r.to_lowercase()));
    let rows = args.rows.is_none_or(|n| e.rows() == Some(n));
    let players = args.players.is_none_or(|n| e.allows_players(n));
    region && rows && players
}
