//! `mancala simulate`: many games between random players, and what they came to.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use mancala::engine::{Engine, State};
use mancala::notation::format_ply;
use mancala::playout::{game_rng, reason_name, Playout, Ply, Summary};
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{io_message, load_engine, Failure, Status};

/// Play games between players who choose uniformly at random among the legal moves.
///
/// Prints the wins per seat (players numbered from 1), draws (won and lost for a solitaire), the mean and
/// longest game in plies, captures per game, the games cut by the ply limit, and how the games ended. The
/// same seed gives the same games.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala simulate games/kalah.mancala
  mancala simulate games/kalah.mancala --variant empty-capture --games 10000 --seed 42
  mancala simulate games/gulek.mancala --players 4 --json
  mancala simulate games/oware.mancala --games 3 --trace oware.jsonl

The trace has one JSON object per line and ply: {\"game\", \"ply\", \"mover\", \"move\", \"state\"}: the game
and ply numbered from 1, the seat that moved (from 1), the ply in move notation, and the position after it:
every place's contents in board order, whose turn it is, and the scores and winners once the game is over.")]
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
    /// How many games to play.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub games: u64,
    /// The seed of the random players: the same seed, the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write every ply of every game to this file, one JSON object per line.
    #[arg(long, value_name = "OUT.jsonl")]
    pub trace: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let engine = load_engine(&args.file, args.variant.as_deref(), args.players)?;
    let mut trace = match &args.trace {
        Some(path) => Some(Trace::create(path)?),
        None => None,
    };
    let progress = if std::io::stderr().is_terminal() {
        let style = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {per_sec}, eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        ProgressBar::new(args.games).with_style(style)
    } else {
        ProgressBar::hidden()
    };

    let mut summary = Summary::new(&engine);
    let mut playout = Playout::new(&engine);
    for game in 0..args.games {
        let mut rng = game_rng(args.seed, game);
        let stats = match &mut trace {
            Some(t) => playout.run(&mut rng, |ply| t.write(&engine, game + 1, ply)),
            None => playout.run(&mut rng, |_| {}),
        };
        summary.add(&stats);
        progress.inc(1);
    }
    progress.finish_and_clear();
    if let Some(t) = trace {
        t.finish()?;
    }

    if args.json {
        let json =
            serde_json::to_string_pretty(&summary).map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
        println!("{json}");
    } else {
        print!("{}", summary_text(&summary, args.seed));
    }
    Ok(Status::Ok)
}

/// The summary as a person reads it.
pub fn summary_text(s: &Summary, seed: u64) -> String {
    let mut out = String::new();
    let game = if s.variant == "default" { s.game.clone() } else { format!("{} (variant {})", s.game, s.variant) };
    let who = if s.players == 1 { "solitaire".to_string() } else { format!("{} players", s.players) };
    let _ = writeln!(out, "{game}, {who}: {} random games, seed {seed}", s.games);
    let pct = |n: u64| {
        if s.games == 0 {
            0.0
        } else {
            100.0 * n as f64 / s.games as f64
        }
    };
    let mut row = |label: String, n: u64| {
        let _ = writeln!(out, "  {label:<16}{n:>8}  {:>5.1}%", pct(n));
    };
    if s.players == 1 {
        row("won".into(), s.wins.first().copied().unwrap_or(0));
        row("lost".into(), s.lost);
    } else {
        for (seat, &n) in s.wins.iter().enumerate() {
            row(format!("player {} wins", seat + 1), n);
        }
        row("draws".into(), s.draws);
    }
    if s.abandoned > 0 {
        row("abandoned".into(), s.abandoned);
    }
    let _ = writeln!(out, "  {:<16}mean {:.1}, max {}", "plies", s.mean_plies, s.max_plies);
    let _ = writeln!(out, "  {:<16}mean {:.2} per game", "captures", s.mean_captures);
    let _ = writeln!(out, "  {:<16}{:>8}", "cut by limit", s.capped);
    let reasons: Vec<String> = s.reasons.0.iter().map(|(r, n)| format!("{} {n}", reason_name(*r))).collect();
    let _ = writeln!(
        out,
        "  {:<16}{}",
        "end reasons",
        if reasons.is_empty() { "-".to_string() } else { reasons.join(", ") }
    );
    out
}

/// The `--trace` file.
struct Trace {
    name: String,
    out: std::io::BufWriter<std::fs::File>,
    error: Option<std::io::Error>,
    layout: Option<Layout>,
    /// The position before the ply being written: the one after the ply before it.
    before: Option<State>,
}

/// How positions are written, worked out once per engine.
struct Layout {
    /// The position before the first ply.
    initial: State,
    /// The key of each kind, when pieces have kinds: its name, or name and symbol when names repeat
    /// (`gem 5`).
    kinds: Option<Vec<String>>,
}

impl Layout {
    fn new(engine: &Engine) -> Layout {
        let rules = &engine.rules;
        let kinds = (rules.kinds.len() > 1).then(|| {
            let unique = rules.kinds.iter().all(|k| rules.kinds.iter().filter(|o| o.name == k.name).count() == 1);
            rules
                .kinds
                .iter()
                .map(|k| if unique { k.name.clone() } else { format!("{} {}", k.name, k.symbol) })
                .collect()
        });
        Layout { initial: engine.initial_state(), kinds }
    }
}

impl Trace {
    fn create(path: &std::path::Path) -> Result<Trace, Failure> {
        let name = path.display().to_string();
        let file = std::fs::File::create(path)
            .map_err(|e| Failure::usage(format!("cannot write trace file {name}: {}", io_message(&e))))?;
        Ok(Trace { name, out: std::io::BufWriter::new(file), error: None, layout: None, before: None })
    }

    fn write(&mut self, engine: &Engine, game: u64, ply: Ply<'_>) {
        if self.error.is_some() {
            return;
        }
        let layout = self.layout.get_or_insert_with(|| Layout::new(engine));
        let before = match &mut self.before {
            Some(before) if ply.number > 1 => before,
            slot => slot.insert(layout.initial.clone()),
        };
        let line = TraceLine {
            game,
            ply: ply.number,
            mover: ply.mover + 1,
            notation: format_ply(engine, before, ply.moves),
            state: StateView { engine, layout, state: ply.state },
        };
        before.clone_from(ply.state);
        let result = serde_json::to_writer(&mut self.out, &line)
            .map_err(std::io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"));
        if let Err(e) = result {
            self.error = Some(e);
        }
    }

    fn finish(mut self) -> Result<(), Failure> {
        let result = match self.error.take() {
            Some(e) => Err(e),
            None => self.out.flush(),
        };
        result.map_err(|e| Failure::usage(format!("cannot write trace file {}: {}", self.name, io_message(&e))))
    }
}

#[derive(serde::Serialize)]
struct TraceLine<'a> {
    game: u64,
    ply: u32,
    mover: u8,
    /// The ply in move notation.
    #[serde(rename = "move")]
    notation: String,
    state: StateView<'a>,
}

/// A position: `{"places": {"a": 4, ...}, "to_move": 1, "over": false}`; once over, `"to_move": null` and
/// `"scores"`, `"winners"` (seats from 1) and `"reason"`. `"phase"` for games of several phases.
struct StateView<'a> {
    engine: &'a Engine,
    layout: &'a Layout,
    state: &'a State,
}

impl Serialize for StateView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let rules = &self.engine.rules;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("places", &PlacesView(self))?;
        if rules.phases.len() > 1 {
            m.serialize_entry("phase", &rules.phases[self.state.phase as usize].name)?;
        }
        match &self.state.result {
            None => {
                m.serialize_entry("to_move", &(self.state.to_move + 1))?;
                m.serialize_entry("over", &false)?;
            }
            Some(outcome) => {
                m.serialize_entry("to_move", &None::<u8>)?;
                m.serialize_entry("over", &true)?;
                m.serialize_entry("scores", &outcome.scores)?;
                let winners: Vec<u8> = outcome.winner_list().iter().map(|w| w + 1).collect();
                m.serialize_entry("winners", &winners)?;
                m.serialize_entry("reason", reason_name(outcome.reason))?;
            }
        }
        m.end()
    }
}

/// Every place in board order (the engine's: pits, stores, places off the board), keyed by its label: a count, or a count per kind when pieces have kinds.
struct PlacesView<'a>(&'a StateView<'a>);

impl Serialize for PlacesView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let StateView { engine, layout, state } = self.0;
        let k = engine.kinds();
        let mut m = s.serialize_map(Some(engine.rules.places.len()))?;
        for (i, place) in engine.rules.places.iter().enumerate() {
            let label = &place.label;
            let counts = &state.counts[i * k..(i + 1) * k];
            match &layout.kinds {
                Some(keys) => m.serialize_entry(label, &KindsView { keys, counts })?,
                None => m.serialize_entry(label, &counts.iter().map(|&c| u32::from(c)).sum::<u32>())?,
            }
        }
        m.end()
    }
}

struct KindsView<'a> {
    keys: &'a [String],
    counts: &'a [u8],
}

impl Serialize for KindsView<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.keys.len()))?;
        for (key, n) in self.keys.iter().zip(self.counts) {
            m.serialize_entry(key, n)?;
        }
        m.end()
    }
}
