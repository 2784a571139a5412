//! `mancala analyze`: what a designer asks of a variant. Games between players of three strengths (the
//! first player's edge with its confidence interval, the draws), how long games last, how often each rule
//! fires and which never do, and the value of each opening ply; as text, JSON, or a report of charts.

use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use mancala::ai::{AiKind, Arena, Budget};
use mancala::engine::{Engine, Move, State};
use mancala::notation::format_ply;
use mancala::solve::duel::{solve_duel, DuelOptions};
use mancala::solve::{for_each_ply, solve_watched, Shorten, SolveOptions, Verdict, Watch};
use serde::Serialize;

use super::simulate::{play_games, progress_bar, rule_rows, rules_text, Lengths, Run};
use super::{load_engine_and_source, Failure, Status};

mod report;

/// Analyze a game as a designer would: who wins, how long games last, which rules fire.
///
/// Plays `--games` games with every seat at random and as many with every seat greedy (the move that gains
/// the most at once), then `--strong-games` with every seat the strong player (`--strong`, MCTS by default).
/// For each, the first player's win rate with its 95% confidence interval (Wilson's), the other seats' and
/// the draws. From the random games: the game lengths (mean, median, 10th and 90th percentiles, longest) and
/// how often each rule fired, with the rules that never did. Then the value of every opening ply: exact, by
/// `solve`, where it finishes within `--solve-seconds` (two players: the first player's final margin under
/// perfect play; a solitaire: whether a win remains); otherwise the first player's win rate over
/// `--playouts` random games after the ply. The same seed, the same figures (with budgets in playouts).
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala analyze kalah
  mancala analyze games/kalah.mancala --variant empty-capture --games 10000 --json
  mancala analyze oware --strong alphabeta:4 --strong-games 20 --report oware.html
  mancala analyze gulek --players 4 --strong-games 0

Output: text by default; `--json` prints one object (`first_player_win_rate` is that of the random games);
`--report FILE.html` also writes a page of SVG charts (game lengths, win rates, rules fired, openings).")]
pub struct Args {
    /// The rule file (or a shipped game's name).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// The variant to analyze; the base game when left out.
    #[arg(long, value_name = "NAME")]
    pub variant: Option<String>,
    /// The number of players; the file's default when left out.
    #[arg(long, value_name = "N")]
    pub players: Option<u8>,
    /// Games played at random, and as many played greedily.
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub games: u64,
    /// The strong player: `mcts:PLAYOUTS` or `alphabeta:DEPTH` (as `simulate --ai` takes).
    #[arg(long, value_name = "KIND", default_value = "mcts:200")]
    pub strong: AiKind,
    /// Games between strong players (0 leaves them out: they take the longest).
    #[arg(long, value_name = "N", default_value_t = 40)]
    pub strong_games: u64,
    /// How long `solve` may take to value the opening plies before they are valued by random games.
    #[arg(long, value_name = "SECS", default_value_t = 5.0)]
    pub solve_seconds: f64,
    /// Random games after each opening ply, where `solve` did not finish.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub playouts: u64,
    /// The seed: the same seed, the same games.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// How many threads play the games; every core when left out.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also write an HTML page of SVG charts to this file.
    #[arg(long, value_name = "FILE.html")]
    pub report: Option<PathBuf>,
}

/// Everything `analyze` found, as `--json` prints it.
#[derive(Serialize)]
pub struct Analysis {
    pub game: String,
    pub variant: String,
    pub players: u8,
    pub seed: u64,
    /// The first player's win rate in the random games.
    pub first_player_win_rate: f64,
    /// One per strength of play: random, greedy, strong.
    pub matchups: Vec<Matchup>,
    pub lengths: LengthStats,
    /// Each rule that can fire, in the order of the file, with how often it fired in the random games.
    pub rules: Vec<super::simulate::RuleRow>,
    pub openings: Openings,
}

/// Games where every seat played the same kind of player.
#[derive(Serialize)]
pub struct Matchup {
    /// `random`, `greedy`, or the strong player (`mcts:200`).
    pub players: String,
    pub games: u64,
    /// Per seat, seat 1 first: the share of games it won (shared wins included).
    pub win_rates: Vec<f64>,
    /// The first player's win rate, and its 95% confidence interval.
    pub first_player_win_rate: f64,
    pub first_player_interval: [f64; 2],
    /// Games nobody won (a lost solitaire, for one player).
    pub draw_rate: f64,
    /// Games cut by the ply limit.
    pub capped: u64,
    pub mean_plies: f64,
}

/// How long the random games lasted, in plies.
#[derive(Serialize)]
pub struct LengthStats {
    pub mean: f64,
    pub median: u32,
    pub p10: u32,
    pub p90: u32,
    pub max: u32,
    /// `[plies, games]` for every length some game had.
    pub histogram: Vec<[u64; 2]>,
}

/// The value of each opening ply, and how it was found.
#[derive(Serialize)]
pub struct Openings {
    /// `solve` (exact) or `playouts` (random games after each ply).
    pub method: &'static str,
    /// A solitaire solved within the time: whether a winning line exists from the start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub winnable: Option<bool>,
    pub moves: Vec<Opening>,
}

#[derive(Serialize)]
pub struct Opening {
    /// The ply, in move notation.
    #[serde(rename = "move")]
    pub ply: String,
    /// By `solve`, two players: the first player's final margin under perfect play after the ply.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<i32>,
    /// By `solve`: `win`, `draw` or `loss` for the first player.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'static str>,
    /// By playouts: the first player's win rate (a draw counting half) over the random games after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub win_rate: Option<f64>,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let (engine, source) = load_engine_and_source(&args.file, args.variant.as_deref(), args.players)?;
    if !(args.solve_seconds >= 0.0 && args.solve_seconds.is_finite()) {
        return Err(Failure::usage("--solve-seconds takes a number of seconds, 0 or more"));
    }
    if args.games == 0 {
        return Err(Failure::usage("--games takes a number above 0: the lengths and rules come from those games"));
    }
    if matches!(args.strong, AiKind::Mcts(Budget::Time(_))) {
        eprintln!("note: a strong player with a time budget makes the figures depend on the machine's speed");
    }
    let threads = args.threads.map_or_else(rayon::current_num_threads, usize::from);
    let seats = usize::from(engine.rules.players);
    let mut kinds = vec![(AiKind::Random, args.games), (AiKind::Greedy, args.games)];
    if args.strong_games > 0 {
        kinds.push((args.strong, args.strong_games));
    }
    let mut runs = Vec::new();
    for &(kind, games) in &kinds {
        let progress = progress_bar(games);
        if !progress.is_hidden() {
            progress.set_message(kind.to_string());
        }
        runs.push((kind, play_games(&engine, &vec![kind; seats], args.seed, games, threads, &progress)?));
        progress.finish_and_clear();
    }
    let random = &runs[0].1;
    let analysis = Analysis {
        game: random.summary.game.clone(),
        variant: random.summary.variant.clone(),
        players: engine.rules.players,
        seed: args.seed,
        first_player_win_rate: rate(random.summary.wins.first().copied().unwrap_or(0), random.summary.games),
        matchups: runs.iter().map(|(kind, run)| matchup(kind, run)).collect(),
        lengths: length_stats(&random.lengths),
        rules: rule_rows(&engine, &source, &random.rules),
        openings: openings(&engine, &args),
    };
    if args.json {
        let json =
            serde_json::to_string_pretty(&analysis).map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
        println!("{json}");
    } else {
        print!("{}", text(&analysis));
    }
    if let Some(path) = &args.report {
        let page = report::html(&analysis);
        std::fs::write(path, page).map_err(|e| Failure::usage(format!("cannot write {}: {e}", path.display())))?;
        if !args.json {
            println!("report written to {}", path.display());
        }
    }
    Ok(Status::Ok)
}

fn rate(n: u64, games: u64) -> f64 {
    if games == 0 {
        0.0
    } else {
        n as f64 / games as f64
    }
}

/// Wilson's 95% score interval of a proportion of `n` in `games`: unlike the normal approximation, it stays
/// within [0, 1] and means something at 0 or all.
pub fn wilson(n: u64, games: u64) -> [f64; 2] {
    if games == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let (p, g) = (n as f64 / games as f64, games as f64);
    let centre = p + z * z / (2.0 * g);
    let spread = z * (p * (1.0 - p) / g + z * z / (4.0 * g * g)).sqrt();
    let scale = 1.0 + z * z / g;
    [((centre - spread) / scale).max(0.0), ((centre + spread) / scale).min(1.0)]
}

fn matchup(kind: &AiKind, run: &Run) -> Matchup {
    let s = &run.summary;
    let first = s.wins.first().copied().unwrap_or(0);
    let nobody = if s.players == 1 { s.lost } else { s.draws };
    Matchup {
        players: kind.to_string(),
        games: s.games,
        win_rates: s.wins.iter().map(|&w| rate(w, s.games)).collect(),
        first_player_win_rate: rate(first, s.games),
        first_player_interval: wilson(first, s.games),
        draw_rate: rate(nobody, s.games),
        capped: s.capped,
        mean_plies: s.mean_plies,
    }
}

fn length_stats(lengths: &Lengths) -> LengthStats {
    let games: u64 = lengths.games.iter().sum();
    let total: u64 = lengths.games.iter().enumerate().map(|(n, &g)| n as u64 * g).sum();
    // The length below which a share `q` of the games fall (the nearest rank).
    let quantile = |q: f64| {
        let rank = ((q * games as f64).ceil() as u64).max(1);
        let mut seen = 0;
        lengths.games.iter().position(|&g| {
            seen += g;
            seen >= rank
        })
    };
    let at = |q: f64| quantile(q).unwrap_or(0) as u32;
    LengthStats {
        mean: rate(total, games),
        median: at(0.5),
        p10: at(0.1),
        p90: at(0.9),
        max: lengths.games.iter().rposition(|&g| g > 0).unwrap_or(0) as u32,
        histogram: lengths.games.iter().enumerate().filter(|(_, &g)| g > 0).map(|(n, &g)| [n as u64, g]).collect(),
    }
}

/// The value of each opening ply: by `solve` where it finishes in time, else by random games after it.
fn openings(engine: &Engine, args: &Args) -> Openings {
    let start = engine.initial_state();
    let deadline = Some(Instant::now() + Duration::from_secs_f64(args.solve_seconds));
    let search = SolveOptions { deadline, max_bytes: 256 << 20, shorten: Shorten::No, ..SolveOptions::default() };
    let mut winnable = None;
    match engine.rules.players {
        2 if args.solve_seconds > 0.0 => {
            let options = DuelOptions { search, root_moves: true };
            if let Ok(solved) = solve_duel(engine, &start, &options, Watch::default()) {
                let moves = solved
                    .root
                    .iter()
                    .map(|(moves, outcome, margin)| Opening {
                        ply: format_ply(engine, &start, moves),
                        value: Some(*margin),
                        result: Some(match outcome {
                            1 => "win",
                            -1 => "loss",
                            _ => "draw",
                        }),
                        win_rate: None,
                    })
                    .collect();
                return Openings { method: "solve", winnable: None, moves };
            }
        }
        1 if args.solve_seconds > 0.0 => {
            // Whether the start can be won; the plies are valued by random games either way.
            winnable = match solve_watched(engine, &start, &search, Watch::default()).verdict {
                Verdict::Solved(_) => Some(true),
                Verdict::Unsolvable => Some(false),
                Verdict::Unknown => None,
            };
        }
        _ => {}
    }
    let moves = opening_plies(engine, &start)
        .iter()
        .enumerate()
        .map(|(i, (moves, after))| Opening {
            ply: format_ply(engine, &start, moves),
            value: None,
            result: None,
            win_rate: Some(first_player_score(engine, after, args.seed.wrapping_add(i as u64), args.playouts)),
        })
        .collect();
    Openings { method: "playouts", winnable, moves }
}

fn opening_plies(engine: &Engine, start: &State) -> Vec<(Vec<Move>, State)> {
    let mut plies = Vec::new();
    let _ = for_each_ply::<()>(engine, start, &mut |moves, after| {
        plies.push((moves.to_vec(), after));
        Ok(())
    });
    plies
}

/// The first player's share of `games` random games from `st`: a win 1, a draw or shared win its share.
fn first_player_score(engine: &Engine, st: &State, seed: u64, games: u64) -> f64 {
    let kinds = vec![AiKind::Random; usize::from(engine.rules.players)];
    let Ok(mut arena) = Arena::new(engine, st.clone(), &kinds) else { return 0.0 };
    let mut points = 0.0;
    let mut played = 0;
    for game in 0..games {
        if let Ok(stats) = arena.run(seed, game, |_| {}) {
            if let Some(outcome) = &stats.outcome {
                points += mancala::ai::reward(engine, outcome, 0);
                played += 1;
            }
        }
    }
    if played == 0 {
        0.0
    } else {
        points / played as f64
    }
}

/// The game's name, and its variant's unless it is the base game.
fn title(a: &Analysis) -> String {
    match a.variant.as_str() {
        "" | "default" => a.game.clone(),
        variant => format!("{} (variant {variant})", a.game),
    }
}

/// The analysis as a person reads it.
fn text(a: &Analysis) -> String {
    let mut out = String::new();
    let name = title(a);
    let _ = writeln!(out, "{name}, {} player{}, seed {}", a.players, if a.players == 1 { "" } else { "s" }, a.seed);
    let _ = writeln!(out, "\nwho wins (every seat the same kind of player)");
    let nobody = if a.players == 1 { "lost" } else { "draws" };
    for m in &a.matchups {
        let [lo, hi] = m.first_player_interval;
        let seats: Vec<String> = m.win_rates.iter().map(|r| format!("{:.1}%", 100.0 * r)).collect();
        let _ = writeln!(
            out,
            "  {:<12}{:>7} games: first player {:.1}% (95%: {:.1}-{:.1}%), {nobody} {:.1}%",
            m.players,
            m.games,
            100.0 * m.first_player_win_rate,
            100.0 * lo,
            100.0 * hi,
            100.0 * m.draw_rate,
        );
        let _ = writeln!(
            out,
            "  {:<12}each seat {}; {:.1} plies a game{}",
            "",
            seats.join(" / "),
            m.mean_plies,
            if m.capped > 0 { format!(", {} cut by the ply limit", m.capped) } else { String::new() },
        );
    }
    let l = &a.lengths;
    let _ =
        writeln!(out, "\ngame length, random play: mean {:.1} plies, median {}, longest {}", l.mean, l.median, l.max);
    let _ = writeln!(out, "  10% of the games end within {} plies, 90% within {}", l.p10, l.p90);
    let random_games = a.matchups.first().map_or(0, |m| m.games);
    let _ = writeln!(out, "\nrules, random play");
    out.push_str(&rules_text(&a.rules, random_games));
    let o = &a.openings;
    match o.method {
        "solve" => {
            let _ = writeln!(out, "\nopening plies, solved (first player's margin under perfect play)");
            for m in &o.moves {
                let _ = writeln!(out, "  {:<12}{:<5} {:+}", m.ply, m.result.unwrap_or(""), m.value.unwrap_or(0));
            }
        }
        _ => {
            let _ = match o.winnable {
                Some(true) => writeln!(out, "\nsolved: a line wins from the start"),
                Some(false) => writeln!(out, "\nsolved: no line wins from the start"),
                None => Ok(()),
            };
            let _ = writeln!(out, "\nopening plies, first player's score over random games after each");
            for m in &o.moves {
                let _ = writeln!(out, "  {:<12}{:.3}", m.ply, m.win_rate.unwrap_or(0.0));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::wilson;

    #[test]
    fn wilson_interval_stays_within_bounds_and_holds_the_rate() {
        let [lo, hi] = wilson(50, 100);
        assert!((lo - 0.404).abs() < 0.001 && (hi - 0.596).abs() < 0.001, "{lo} {hi}");
        assert!(wilson(0, 10)[0].abs() < 1e-12);
        assert!((wilson(10, 10)[1] - 1.0).abs() < 1e-12);
        assert!(wilson(0, 10)[1] > 0.2);
    }
}
