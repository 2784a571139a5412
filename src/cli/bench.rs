//! `mancala bench`: how fast the engine plays random games.

use std::path::PathBuf;
use std::time::Duration;

use mancala::playout::Playout;
use rand::SeedableRng;

use super::{load_engine, Failure, Status};

/// Measure the engine: random playouts on one thread for a few seconds.
///
/// Prints playouts per second, plies per second and the mean length of a game in plies. Build with
/// `--release` (or run `cargo run --release -- bench ...`) for meaningful figures.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala bench games/kalah.mancala
  mancala bench games/gulek.mancala --players 6 --seconds 10")]
pub struct Args {
    /// The rule file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The variant to play (see `mancala variants FILE`); the base game when left out.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// The number of players; the file's default when left out.
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// How long to play, in seconds (fractions allowed).
    #[arg(long, value_name = "S", default_value_t = 3.0, value_parser = parse_seconds)]
    pub seconds: f64,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 86_400.0 => Ok(x),
        Ok(_) => Err("expected a number of seconds above 0 (at most a day)".into()),
        Err(_) => Err(format!("`{s}` is not a number of seconds")),
    }
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let engine = load_engine(&args.file, args.variant.as_deref(), args.players)?;
    let rules = &engine.rules;
    let game = if rules.variant == "default" {
        rules.game.clone()
    } else {
        format!("{} (variant {})", rules.game, rules.variant)
    };
    let who = if rules.players == 1 { "solitaire".to_string() } else { format!("{} players", rules.players) };
    let mut rng = rand::rngs::SmallRng::seed_from_u64(1);
    let mut playout = Playout::new(&engine);
    let t = playout.run_for(&mut rng, Duration::from_secs_f64(args.seconds));
    println!("{game}, {who}: random playouts on one thread for {:.2} s", t.elapsed.as_secs_f64());
    println!("  {:<12}{:>14}", "playouts/s", group(t.games_per_sec()));
    println!("  {:<12}{:>14}", "plies/s", group(t.plies_per_sec()));
    println!("  {:<12}{:>14.1}", "mean plies", t.mean_plies());
    println!(
        "  ({} games, {} plies, {} decisions)",
        group(t.games as f64),
        group(t.plies as f64),
        group(t.decisions as f64)
    );
    Ok(Status::Ok)
}

/// A whole number with thousands separators: 1,234,567.
fn group(x: f64) -> String {
    let digits = format!("{:.0}", x.max(0.0));
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn groups_thousands() {
        assert_eq!(super::group(0.0), "0");
        assert_eq!(super::group(999.4), "999");
        assert_eq!(super::group(1234.0), "1,234");
        assert_eq!(super::group(1234567.0), "1,234,567");
    }
}
