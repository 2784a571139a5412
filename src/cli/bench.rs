//! `mancala bench`: how fast the engine plays random games.

use std::path::PathBuf;
use std::time::Duration;

use mancala::engine::Engine;
use mancala::playout::{group, race, race_table, Runner};

use super::{load_engine, Failure, Status};

/// Measure the engine: random playouts on one thread, timed against hand-written engines in the same run.
///
/// Without FILE, every shipped game is measured. Each game and each hand-written engine (Kalah and Oware
/// each written as tight as we can, the board in one word sown by adding words, and plainly, over an array)
/// plays for about `--seconds`, in turns of 100 ms, so that a change in the machine's speed falls on all of
/// them alike and the ratios stay meaningful. Every random player draws from the same generator with the same
/// draw. Prints plies per second, games per second, the mean length of a game, and the ratio to the tight
/// hand-written Kalah (and to the game's own tight hand-written engine, where there is one). Build with
/// `--release` (or run `cargo run --release -- bench`) for meaningful figures.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala bench
  mancala bench games/kalah.mancala --seconds 5
  mancala bench games/gulek.mancala --players 6")]
pub struct Args {
    /// The rule file; every shipped game when left out.
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    /// The variant to play (see `mancala variants FILE`); the base game when left out.
    #[arg(long, value_name = "NAME", requires = "file")]
    pub variant: Option<String>,
    /// The number of players; the file's default when left out.
    #[arg(long, value_name = "N", requires = "file")]
    pub players: Option<u8>,
    /// How long each game and each hand-written engine plays, in seconds (fractions allowed).
    #[arg(long, value_name = "S", value_parser = parse_seconds)]
    pub seconds: Option<f64>,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 86_400.0 => Ok(x),
        Ok(_) => Err("expected a number of seconds above 0 (at most a day)".into()),
        Err(_) => Err(format!("`{s}` is not a number of seconds")),
    }
}

/// The length of one turn of the race.
const SLICE: Duration = Duration::from_millis(100);
/// Every runner starts from this seed, so that two runs play the same games.
const SEED: u64 = 1;

/// One measured game: what the table calls it, its file's stem (to find its hand-written twin) and engine.
struct Entry {
    title: String,
    stem: String,
    engine: Engine,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let entries = match &args.file {
        Some(file) => vec![entry(file, args.variant.as_deref(), args.players)?],
        None => shipped()?,
    };
    let each = Duration::from_secs_f64(args.seconds.unwrap_or(if args.file.is_some() { 3.0 } else { 1.0 }));
    let baselines = mancala_baseline::all();
    let mut runners: Vec<Runner<'_>> =
        baselines.iter().map(|b| Runner::hand_written(b.name, b.mirrors, SEED, b.random_game)).collect();
    runners.extend(entries.iter().map(|e| Runner::engine(&e.title, &e.stem, SEED, &e.engine)));

    let total = each.as_secs_f64() * runners.len() as f64;
    println!(
        "Random playouts on one thread, {:.1} s each, in turns of {} ms (about {:.0} s in all):",
        each.as_secs_f64(),
        SLICE.as_millis(),
        total
    );
    let bar = progress_bar(total);
    race(&mut runners, each, SLICE, |done| bar.set_position((done * 1000.0) as u64));
    bar.finish_and_clear();
    println!();
    println!("{}", race_table(&runners));
    let games = runners.iter().filter(|r| !r.hand_written);
    let (plies, decisions) = games.fold((0, 0), |(p, d), r| (p + r.done.plies, d + r.done.decisions));
    println!("  ({} plies of rule files in {} decisions)", group(plies as f64), group(decisions as f64));
    Ok(Status::Ok)
}

/// The rule file given on the command line.
fn entry(file: &std::path::Path, variant: Option<&str>, players: Option<u8>) -> Result<Entry, Failure> {
    let engine = load_engine(file, variant, players)?;
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    Ok(Entry { title: title(&engine), stem, engine })
}

/// Every shipped game, each with its default variant and number of players.
fn shipped() -> Result<Vec<Entry>, Failure> {
    mancala::shipped::GAMES
        .iter()
        .map(|g| match mancala::compile(g.text, None, None) {
            Ok(engine) => Ok(Entry { title: title(&engine), stem: g.name.to_string(), engine }),
            Err(diagnostics) => {
                Err(Failure::Invalid { file: format!("{}.mancala", g.name), source: g.text.to_string(), diagnostics })
            }
        })
        .collect()
}

/// "Gulek, 2 players", "Kalah (variant empty-capture)", "Gulek Solo, solitaire".
fn title(engine: &Engine) -> String {
    let rules = &engine.rules;
    let mut t = rules.game.clone();
    if rules.variant != "default" {
        t += &format!(" ({})", rules.variant);
    }
    match rules.players {
        1 => t += ", solitaire",
        2 => {}
        n => t += &format!(", {n} players"),
    }
    t
}

/// A bar on standard error while the race runs, shown only on a terminal.
fn progress_bar(seconds: f64) -> indicatif::ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(1000);
    let style = indicatif::ProgressStyle::with_template("  {bar:40} {percent:>3}%  {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    bar.set_message(format!("about {seconds:.0} s"));
    bar
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
