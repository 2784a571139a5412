//! `mancala simulate`: many games between random or computer players, and what they came to.

use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::ops::Range;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use mancala::ai::{seat_kinds, AiKind, Arena, Budget, SeatAi};
use mancala::engine::{Engine, State};
use mancala::notation::{format_ply, format_position, parse_start_position, read_position};
use mancala::playout::{game_rng, reason_name, reason_words, Playout, Ply, Summary};
use rayon::prelude::*;
use serde::ser::{Serialize, SerializeMap, Serializer};

use super::{io_message, load_engine_and_source, Failure, Status};
use mancala::ir::RuleRef;
use std::collections::BTreeMap;

/// Play many games between random or computer players, and sum them up.
///
/// Every seat chooses uniformly at random among the legal moves, unless `--ai` puts a computer player
/// there. Prints who played each seat, the wins per seat (players numbered from 1), draws (won and lost for a
/// solitaire), the mean and longest game in plies, captures per game (plies in which a `capture` rule took
/// pieces; a `then` take is not a capture), the share of the plies begun with each
/// action (when there are several), the games cut by the ply limit, and how the games ended: for random
/// games from the start, also the end rule that ended them (its line in the file), how often each rule fired
/// (each action, capture, relay, extra turn, end rule, sweep, pit taken by a `then` take, `then mark` that
/// marked a pit), and the rules that never did, the commonest
/// sign of a mistake. Following the rules makes the games take the general road of the engine, a few times
/// slower than `bench`'s: `--no-rules` plays them at full speed without the counts. The games are
/// played on every core (`--threads` to choose): the same seed gives the same games at any number of
/// threads, unless a computer player thinks for a time (`mcts:500ms`) rather than for a number of playouts
/// (`mcts:2000`) or a depth (`alphabeta:4`).
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala simulate games/kalah.mancala
  mancala simulate games/kalah.mancala --variant empty-capture --games 10000 --seed 42
  mancala simulate games/kalah.mancala --games 100000 --threads 2
  mancala simulate games/gulek.mancala --players 4 --json
  mancala simulate kalah --games 1000000 --shard 3/8 --json > part-3.json   (then: mancala merge part-*.json)
  mancala simulate games/kalah.mancala --ai 1=greedy --ai 2=mcts:500 --games 20
  mancala simulate games/oware.mancala --ai 2=alphabeta:4 --position 'a1 c2 f1 A3 D1 F2 captured(1)=20 captured(2)=18'
  mancala simulate games/oware.mancala --games 3 --trace oware.jsonl
  mancala simulate games/dakon.mancala --variant 9-holes --rounds 1 --games 1000

Players (--ai SEAT=KIND, seats from 1; the other seats play at random):
  random, greedy, mcts[:PLAYOUTS|:TIME] (e.g. mcts:2000, mcts:500ms), alphabeta[:DEPTH] (two players only)

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
    /// The seed of the players: the same seed, the same games (with playout or depth budgets).
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// A computer player for a seat, e.g. `1=greedy`, `2=mcts:2000`, `2=alphabeta:4` (seats from 1;
    /// repeat for several seats). Seats without one play at random.
    #[arg(long = "ai", value_name = "SEAT=KIND")]
    pub ai: Vec<SeatAi>,
    /// Start every game from this position, in the position format (as `mancala solve --position`).
    #[arg(long, value_name = "POS")]
    pub position: Option<String>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    pub json: bool,
    /// Write every ply of every game to this file, one JSON object per line.
    #[arg(long, value_name = "OUT.jsonl")]
    pub trace: Option<PathBuf>,
    /// Leave out the counts of the rules that fired: the games are played at full speed.
    #[arg(long)]
    pub no_rules: bool,
    /// How many threads play the games; every core when left out. The results are the same at any number:
    /// each game has its own seed, from its number, and the games are added up in order.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=1024))]
    pub threads: Option<u16>,
    /// In a match of rounds, stop each match after this many rounds, as `limit N rounds` would (the match
    /// decided on the last round's scores): `--rounds 1` measures single rounds. Matches between random
    /// players can run for millions of plies.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub rounds: Option<u32>,
    /// Play only the I-th of N equal parts of the games (I from 1 to N): the same games, with the same seeds,
    /// as the whole run plays there. `mancala merge` adds the parts' `--json` summaries into the whole run's.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<Shard>,
}

/// One of N equal parts of a run's games (`--shard I/N`, I from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(text: &str) -> Result<Shard, String> {
        let bad = || format!("`{text}` is not a part: write I/N, with I from 1 to N (e.g. 3/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let (index, count) = (i.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

impl Shard {
    /// The games of this part of a run of `games`: the I-th of N ranges as equal as can be.
    pub fn games(self, games: u64) -> Range<u64> {
        let at = |i: u64| (u128::from(games) * u128::from(i) / u128::from(self.count)) as u64;
        at(self.index - 1)..at(self.index)
    }
}

/// How the games of a run are played: shared by the threads.
struct Plan<'e> {
    engine: &'e Engine,
    seed: u64,
    kinds: &'e [AiKind],
    /// The position every game starts from, when not the game's own.
    start: Option<&'e State>,
    /// Whether each game's plies are kept for the trace.
    trace: bool,
    /// Whether the rules that fire are counted (random games from the start only).
    count_rules: bool,
    progress: &'e ProgressBar,
}

/// The games of one range of game numbers: their summary and, with `--trace`, their lines.
struct Part {
    summary: Summary,
    trace: Vec<u8>,
    rules: RuleTally,
    lengths: Lengths,
}

/// How many games lasted each number of plies: `games[n]` of `n` plies.
#[derive(Debug, Default, Clone)]
pub(super) struct Lengths {
    pub games: Vec<u64>,
}

impl Lengths {
    fn add(&mut self, plies: u32) {
        let n = plies as usize;
        if self.games.len() <= n {
            self.games.resize(n + 1, 0);
        }
        self.games[n] += 1;
    }

    fn merge(&mut self, other: &Lengths) {
        if self.games.len() < other.games.len() {
            self.games.resize(other.games.len(), 0);
        }
        for (mine, theirs) in self.games.iter_mut().zip(&other.games) {
            *mine += theirs;
        }
    }
}

/// How often each rule fired, and which end rule ended how many games.
#[derive(Debug, Default)]
pub(super) struct RuleTally {
    fired: BTreeMap<RuleRef, u64>,
    ended: BTreeMap<RuleRef, u64>,
}

impl RuleTally {
    fn add(&mut self, counts: mancala::engine::RuleCounts, reason: Option<mancala::engine::EndReason>) {
        for (rule, n) in counts.fired {
            *self.fired.entry(rule).or_default() += n;
        }
        use mancala::engine::EndReason::*;
        let by_rule = matches!(
            reason,
            Some(
                Condition
                    | Repetition
                    | Stuck
                    | NobodyCanMove
                    | NoCapture
                    | LastStanding
                    | Endless
                    | RepetitionDraw
                    | ConditionDraw
            )
        );
        if let (Some(rule), true) = (counts.ended_by, by_rule) {
            *self.ended.entry(rule).or_default() += 1;
        }
    }

    fn merge(&mut self, other: RuleTally) {
        for (rule, n) in other.fired {
            *self.fired.entry(rule).or_default() += n;
        }
        for (rule, n) in other.ended {
            *self.ended.entry(rule).or_default() += n;
        }
    }
}

impl Plan<'_> {
    /// Plays games `games` (numbered from 0) on this thread.
    fn play(&self, games: Range<u64>) -> Result<Part, Failure> {
        let engine = self.engine;
        let mut summary = Summary::new(engine);
        let start = self.start.cloned().unwrap_or_else(|| engine.initial_state());
        let mut lines = self.trace.then(|| TraceLines::new(engine, start.clone()));
        let all_random = self.kinds.iter().all(|k| *k == AiKind::Random);
        let mut rules = RuleTally::default();
        let mut lengths = Lengths::default();
        if self.start.is_none() && all_random {
            // Random games from the start: the playouts of `bench`, with nothing to spare (unless the rules
            // that fire are counted, on an engine that follows them: the same games).
            let tracer = self.count_rules.then(|| engine.clone().with_rule_counts());
            let mut playout = Playout::new(tracer.as_ref().unwrap_or(engine));
            if let Some(t) = &tracer {
                t.trace(playout.state());
            }
            for game in games {
                let mut rng = game_rng(self.seed, game);
                let stats = match &mut lines {
                    Some(t) => {
                        t.start_game();
                        playout.run(&mut rng, |ply| {
                            summary.add_ply(&ply);
                            t.write(engine, game + 1, ply)
                        })
                    }
                    None => playout.run(&mut rng, |ply| summary.add_ply(&ply)),
                };
                if let Some(t) = &tracer {
                    rules.add(t.take_rule_counts(), stats.reason());
                }
                lengths.add(stats.plies);
                summary.add(&stats);
                self.progress.inc(1);
            }
        } else {
            // Computer players, or another start: the same games for random seats, players for the others.
            let mut arena = Arena::new(engine, start, self.kinds).map_err(|e| Failure::usage(format!("--ai: {e}")))?;
            for game in games {
                let stats = match &mut lines {
                    Some(t) => {
                        t.start_game();
                        arena.run(self.seed, game, |ply| {
                            summary.add_ply(&ply);
                            t.write(engine, game + 1, ply)
                        })
                    }
                    None => arena.run(self.seed, game, |ply| summary.add_ply(&ply)),
                }
                .map_err(|e| Failure::usage(format!("--ai: {e}")))?;
                lengths.add(stats.plies);
                summary.add(&stats);
                self.progress.inc(1);
            }
        }
        Ok(Part { summary, trace: lines.map_or_else(Vec::new, |l| l.buf), rules, lengths })
    }
}

/// The ranges of game numbers handed to the threads: several per thread, so that a slow range does not keep
/// the others waiting; small ones with a trace, whose lines wait in memory until their turn to be written.
fn ranges(games: Range<u64>, threads: usize, trace: bool) -> Vec<Range<u64>> {
    let most = if trace { 16 } else { 1024 };
    let size = (games.end - games.start).div_ceil(threads as u64 * 8).clamp(1, most);
    let end = games.end;
    games.step_by(size as usize).map(|a| a..(a + size).min(end)).collect()
}

/// A progress bar of `games` games on a terminal; hidden elsewhere.
pub(super) fn progress_bar(games: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let style = ProgressStyle::with_template("{bar:40} {pos}/{len} games, {rate}, eta {eta}")
        .unwrap_or_else(|_| ProgressStyle::default_bar())
        .with_key("rate", |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0} games/s", state.per_sec());
        });
    ProgressBar::new(games).with_style(style)
}

pub(super) fn thread_pool(threads: usize) -> Result<rayon::ThreadPool, Failure> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Failure::usage(format!("cannot start {threads} threads: {e}")))
}

/// Plays the games of `ranges` on `pool`, a few ranges at a time, and hands each part to `on_part` in the
/// order of the games (so that a trace is written in that order and holds only a few ranges in memory).
fn play_waves(
    plan: &Plan<'_>,
    pool: &rayon::ThreadPool,
    ranges: &[Range<u64>],
    threads: usize,
    mut on_part: impl FnMut(Part) -> Result<(), Failure>,
) -> Result<(), Failure> {
    for wave in ranges.chunks(threads * 4) {
        let parts: Vec<Result<Part, Failure>> =
            pool.install(|| wave.par_iter().map(|games| plan.play(games.clone())).collect());
        for part in parts {
            on_part(part?)?;
        }
    }
    Ok(())
}

/// What a run of games came to, for `analyze`: the summary, the rules that fired (random games counted by
/// rule), and the games' lengths.
pub(super) struct Run {
    pub summary: Summary,
    pub rules: RuleTally,
    pub lengths: Lengths,
}

/// Plays `games` games from the start between players of `kinds` (one per seat), on `threads` threads,
/// counting the rules that fire when every seat plays at random. The same seed, the same games.
pub(super) fn play_games(
    engine: &Engine,
    kinds: &[AiKind],
    seed: u64,
    games: u64,
    threads: usize,
    progress: &ProgressBar,
) -> Result<Run, Failure> {
    let pool = thread_pool(threads)?;
    if !kinds.iter().all(|k| *k == AiKind::Random) {
        Arena::new(engine, engine.initial_state(), kinds).map_err(|e| Failure::usage(format!("--ai: {e}")))?;
    }
    let plan = Plan {
        engine,
        seed,
        kinds,
        start: None,
        trace: false,
        count_rules: kinds.iter().all(|k| *k == AiKind::Random),
        progress,
    };
    let mut run = Run { summary: Summary::new(engine), rules: RuleTally::default(), lengths: Lengths::default() };
    play_waves(&plan, &pool, &ranges(0..games, threads, false), threads, |part| {
        run.summary.merge(&part.summary);
        run.rules.merge(part.rules);
        run.lengths.merge(&part.lengths);
        Ok(())
    })?;
    Ok(run)
}

/// The same game with each match stopped after `n` rounds at most (`--rounds`).
fn with_round_limit(engine: &Engine, n: u32) -> Result<Engine, Failure> {
    let mut rules = engine.lowered.clone();
    let Some(rounds) = rules.rounds.as_mut() else {
        return Err(Failure::usage("--rounds: this game is not a match of rounds (its file has no `rounds` block)"));
    };
    rounds.limit = Some(rounds.limit.map_or(n, |limit| limit.min(n)));
    Ok(Engine::new(rules))
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let (engine, source) = load_engine_and_source(&args.file, args.variant.as_deref(), args.players)?;
    let engine = match args.rounds {
        Some(n) => with_round_limit(&engine, n)?,
        None => engine,
    };
    let kinds: Vec<AiKind> = seat_kinds(&engine, &args.ai)
        .map_err(|e| Failure::usage(format!("--ai: {e}")))?
        .into_iter()
        .map(|k| k.unwrap_or(AiKind::Random))
        .collect();
    let start = match &args.position {
        Some(text) => {
            Some(parse_start_position(&engine, text).map_err(|e| Failure::usage(format!("--position: {e}")))?)
        }
        None => None,
    };
    // The position as given, for the summary's `from`: before the end rules and sweeps that reading it as a
    // turn's start may run (a position already over is swept). A JSON position is read as it is.
    let given = match (&args.position, &start) {
        (Some(text), Some(st)) if !text.trim_start().starts_with('{') => {
            Some(read_position(&engine, text).unwrap_or_else(|_| st.clone()))
        }
        _ => start.clone(),
    };
    if kinds.iter().any(|k| matches!(k, AiKind::Mcts(Budget::Time(_)))) {
        eprintln!(
            "note: a time budget makes the games depend on the machine's speed: the same seed may give other \
             games; give a number of playouts (mcts:2000) for games that can be played again"
        );
    }
    let mut trace = match &args.trace {
        Some(path) => Some(Trace::create(path)?),
        None => None,
    };
    let progress = progress_bar(args.shard.map_or(args.games, |shard| shard.games(args.games).count() as u64));
    let threads = args.threads.map_or_else(rayon::current_num_threads, usize::from);
    let pool = thread_pool(threads)?;
    if !kinds.iter().all(|k| *k == AiKind::Random) || start.is_some() {
        // A kind of player that cannot play this game is refused before any thread starts.
        let first = start.clone().unwrap_or_else(|| engine.initial_state());
        Arena::new(&engine, first, &kinds).map_err(|e| Failure::usage(format!("--ai: {e}")))?;
    }

    let plan = Plan {
        engine: &engine,
        seed: args.seed,
        kinds: &kinds,
        start: start.as_ref(),
        trace: trace.is_some(),
        count_rules: !args.no_rules && start.is_none() && kinds.iter().all(|k| *k == AiKind::Random),
        progress: &progress,
    };
    let mut rules = RuleTally::default();
    let mut summary = Summary::new(&engine);
    let games = args.shard.map_or(0..args.games, |shard| shard.games(args.games));
    let ranges = ranges(games, threads, trace.is_some());
    play_waves(&plan, &pool, &ranges, threads, |part| {
        summary.merge(&part.summary);
        rules.merge(part.rules);
        if let Some(t) = &mut trace {
            t.write(&part.trace);
        }
        Ok(())
    })?;
    progress.finish_and_clear();
    if let Some(t) = trace {
        t.finish()?;
    }

    let position = given.as_ref().map(|st| format_position(&engine, st));
    if args.json {
        let seats = kinds.iter().map(AiKind::to_string).collect();
        let rules = plan.count_rules.then(|| rule_rows(&engine, &source, &rules));
        let shard =
            args.shard.map(|shard| ShardReport { index: shard.index, count: shard.count, run_games: args.games });
        let report = Report { summary: &summary, seats, position, threads, rules, seed: args.seed, shard };
        let json =
            serde_json::to_string_pretty(&report).map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
        println!("{json}");
    } else {
        let then_takes = engine.rules.sources.iter().any(|s| matches!(s.rule, RuleRef::Then { .. }));
        print!("{}", summary_text(&summary, args.seed, &kinds, position.as_deref(), threads, then_takes));
        if let Some(shard) = args.shard {
            let games = shard.games(args.games);
            println!(
                "  {:<16}part {} of {} of a run of {} games: games {} to {}",
                "shard",
                shard.index,
                shard.count,
                args.games,
                games.start + 1,
                games.end
            );
        }
        if plan.count_rules {
            print!("{}", rules_text(&rule_rows(&engine, &source, &rules), summary.games));
        }
    }
    Ok(Status::Ok)
}

/// The JSON summary: the statistics, who played each seat, and the start when it was not the game's own.
#[derive(serde::Serialize)]
struct Report<'a> {
    #[serde(flatten)]
    summary: &'a Summary,
    /// The kind of player at each seat, seat 1 first (`random`, `greedy`, `mcts:2000`, ...).
    seats: Vec<String>,
    /// The `--position` the games started from, as given (before any end rule or sweep ran), in the position
    /// format.
    #[serde(skip_serializing_if = "Option::is_none")]
    position: Option<String>,
    /// How many threads played the games (the games are the same at any number).
    threads: usize,
    /// Each rule that can fire: where it stands, how often it fired, how many games it ended.
    #[serde(skip_serializing_if = "Option::is_none")]
    rules: Option<Vec<RuleRow>>,
    /// The seed of the run.
    seed: u64,
    /// With `--shard`: which part of which run these games are.
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<ShardReport>,
}

/// A part of a run, in the JSON summary (`mancala merge` reads it).
#[derive(serde::Serialize)]
struct ShardReport {
    index: u64,
    count: u64,
    /// The games of the whole run.
    run_games: u64,
}

/// A rule of the file and what it did in the games played.
#[derive(serde::Serialize)]
pub(super) struct RuleRow {
    pub line: usize,
    pub text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
    /// `action`, `capture`, `answer`, `relay`, `again`, `end_rule`, `sweep`, `then_take` or `then_mark`.
    pub kind: &'static str,
    pub fired: u64,
    pub ended: u64,
}

/// Every rule that can fire, in the order of the file, with its counts.
pub(super) fn rule_rows(engine: &Engine, source: &str, tally: &RuleTally) -> Vec<RuleRow> {
    let mut rows: Vec<(usize, RuleRow)> = engine
        .rules
        .sources
        .iter()
        .filter_map(|s| {
            let kind = match s.rule {
                RuleRef::Action { .. } => "action",
                RuleRef::Capture { .. } | RuleRef::DropCapture { .. } | RuleRef::LiftCapture { .. } => "capture",
                RuleRef::Answer { .. } => "answer",
                RuleRef::Relay { .. } | RuleRef::RelayMay { .. } => "relay",
                RuleRef::Again { .. } | RuleRef::PhaseAgain { .. } => "again",
                RuleRef::End { .. } => "end_rule",
                RuleRef::Sweep { .. } => "sweep",
                RuleRef::Then { .. } => "then_take",
                RuleRef::ThenMark { .. } => "then_mark",
                RuleRef::Lift { .. } | RuleRef::TakeFirst { .. } | RuleRef::Refill { .. } => return None,
            };
            let text = mancala::explain::rule_head(source, s.span)?;
            let (line, _) = mancala::diag::line_column(source, s.span.start);
            let fired = tally.fired.get(&s.rule).copied().unwrap_or(0);
            let ended = tally.ended.get(&s.rule).copied().unwrap_or(0);
            Some((s.span.start, RuleRow { line, text, doc: s.doc.clone(), kind, fired, ended }))
        })
        .collect();
    rows.sort_by_key(|(at, _)| *at);
    rows.dedup_by_key(|(at, _)| *at);
    rows.into_iter().map(|(_, r)| r).collect()
}

/// The rules' counts as a person reads them, and the rules that never fired.
pub(super) fn rules_text(rows: &[RuleRow], games: u64) -> String {
    let mut out = String::new();
    let short = |t: &str| mancala::explain::elide(t, 56, "...");
    if rows.iter().any(|r| r.ended > 0) {
        let _ = writeln!(out, "  the end rules that ended them");
        for r in rows.iter().filter(|r| r.ended > 0) {
            let _ = writeln!(out, "    line {:<4} {:<56}{:>9}", r.line, short(&r.text), r.ended);
        }
    }
    let _ = writeln!(out, "  how often each rule fired");
    for r in rows.iter().filter(|r| r.fired > 0) {
        let _ = writeln!(out, "    line {:<4} {:<56}{:>9}", r.line, short(&r.text), r.fired);
    }
    for r in rows.iter().filter(|r| r.fired == 0) {
        let what = match r.kind {
            "action" => "was never played",
            "end_rule" => "never held",
            "answer" => "was never made",
            _ => "never happened",
        };
        let kind = match r.kind {
            "end_rule" => "end rule",
            "again" => "extra turn",
            "then_take" => "`then` take",
            "then_mark" => "`then mark`",
            other => other,
        };
        let _ = writeln!(
            out,
            "  note: the {kind} at line {} ({}) {what} in {}",
            r.line,
            short(&r.text),
            mancala::plural(games, "game", "games")
        );
    }
    out
}

/// The summary as a person reads it. `kinds` is the player at each seat, `position` the start when it was
/// not the game's own, `threads` how many played the games, `then_takes` whether the game has a `then` take.
pub fn summary_text(
    s: &Summary,
    seed: u64,
    kinds: &[AiKind],
    position: Option<&str>,
    threads: usize,
    then_takes: bool,
) -> String {
    let mut out = String::new();
    let game = if s.variant == "default" { s.game.clone() } else { format!("{} (variant {})", s.game, s.variant) };
    let who = if s.players == 1 { "solitaire".to_string() } else { format!("{} players", s.players) };
    let all_random = kinds.iter().all(|k| *k == AiKind::Random);
    let what = if all_random { "random games" } else { "games" };
    let on = if threads == 1 { "1 thread".to_string() } else { format!("{threads} threads") };
    let _ = writeln!(out, "{game}, {who}: {} {what}, seed {seed}, on {on}", s.games);
    if !all_random {
        let seats: Vec<String> = kinds.iter().enumerate().map(|(i, k)| format!("{}: {k}", i + 1)).collect();
        let _ = writeln!(out, "  {:<16}{}", "seats", seats.join(", "));
    }
    if let Some(position) = position {
        let _ = writeln!(out, "  {:<16}{position}", "from");
    }
    let pct = |n: u64| if s.games == 0 { 0.0 } else { 100.0 * n as f64 / s.games as f64 };
    let row = |out: &mut String, label: &str, n: u64| {
        let _ = writeln!(out, "  {label:<16}{n:>8}  {:>5.1}%", pct(n));
    };
    if s.players == 1 {
        row(&mut out, "won", s.wins.first().copied().unwrap_or(0));
        row(&mut out, "lost", s.lost);
    } else {
        for (seat, &n) in s.wins.iter().enumerate() {
            row(&mut out, &format!("player {} wins", seat + 1), n);
        }
        row(&mut out, "draws", s.draws);
        if s.shared > 0 {
            row(&mut out, "shared wins", s.shared);
            let _ = writeln!(
                out,
                "  {:<16}(a shared win counts for each of its winners: the wins add up to more than 100%)",
                ""
            );
        }
    }
    if s.abandoned > 0 {
        row(&mut out, "abandoned", s.abandoned);
    }
    let _ = writeln!(out, "  {:<16}mean {:.1}, max {}", "plies", s.mean_plies, s.max_plies);
    if s.total_rounds > 0 {
        let _ = writeln!(out, "  {:<16}mean {:.2} a match, max {}", "rounds", s.mean_rounds(), s.max_rounds);
        let total = s.total_rounds as f64;
        let shares: Vec<String> = s
            .round_wins
            .iter()
            .enumerate()
            .map(|(seat, &n)| format!("player {} {n} ({:.1}%)", seat + 1, 100.0 * n as f64 / total))
            .chain(std::iter::once(format!("drawn {} ({:.1}%)", s.round_draws, 100.0 * s.round_draws as f64 / total)))
            .collect();
        let _ = writeln!(out, "  {:<16}{}", "rounds won", shares.join(", "));
    }
    // A capture is a ply in which a `capture` rule took pieces (as for `captures(PLAYER)`): a `then` take is
    // not one (it is counted among the rules), which a game with one is told.
    let then = if then_takes { "; `then` takes are not captures" } else { "" };
    let _ = writeln!(
        out,
        "  {:<16}mean {:.2} per game (plies in which a `capture` rule took{then})",
        "captures", s.mean_captures
    );
    // The share of each kind of move, when the game has more than one.
    let played: Vec<(&str, u64)> = s.actions.played().collect();
    if played.len() > 1 {
        let total: u64 = played.iter().map(|(_, n)| n).sum();
        let shares: Vec<String> =
            played.iter().map(|(name, n)| format!("{name} {:.1}%", 100.0 * *n as f64 / total as f64)).collect();
        let _ = writeln!(out, "  {:<16}{}", "moves", shares.join(", "));
    }
    let _ = writeln!(out, "  {:<16}{:>8}", "cut by limit", s.capped);
    let _ = writeln!(out, "  how the games ended");
    if s.reasons.0.is_empty() {
        let _ = writeln!(out, "    -");
    }
    // The most frequent ending first.
    let mut reasons = s.reasons.0.clone();
    reasons.sort_by_key(|&(_, n)| std::cmp::Reverse(n));
    for (reason, n) in reasons {
        let words = reason_words(reason);
        let _ = writeln!(out, "    {words:<38}{n:>8}  {:>5.1}%", pct(n));
    }
    out
}

/// The `--trace` file: the lines of each range of games, written in the order of the games.
struct Trace {
    name: String,
    out: std::io::BufWriter<std::fs::File>,
    error: Option<std::io::Error>,
}

impl Trace {
    fn create(path: &std::path::Path) -> Result<Trace, Failure> {
        let name = path.display().to_string();
        let file = std::fs::File::create(path)
            .map_err(|e| Failure::usage(format!("cannot write trace file {name}: {}", io_message(&e))))?;
        Ok(Trace { name, out: std::io::BufWriter::new(file), error: None })
    }

    fn write(&mut self, lines: &[u8]) {
        if self.error.is_none() {
            self.error = self.out.write_all(lines).err();
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

/// The trace lines of some games, made on the thread that plays them.
struct TraceLines {
    buf: Vec<u8>,
    /// The position every game starts from.
    start: State,
    layout: Layout,
    /// The position before the ply being written: the one after the ply before it (`None` at a game's start).
    before: Option<State>,
}

/// How positions are written, worked out once per engine.
struct Layout {
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
        Layout { kinds }
    }
}

impl TraceLines {
    fn new(engine: &Engine, start: State) -> TraceLines {
        TraceLines { buf: Vec::new(), start, layout: Layout::new(engine), before: None }
    }

    /// A new game begins: its first ply starts from the start position.
    fn start_game(&mut self) {
        self.before = None;
    }

    fn write(&mut self, engine: &Engine, game: u64, ply: Ply<'_>) {
        let before = self.before.get_or_insert_with(|| self.start.clone());
        let line = TraceLine {
            game,
            ply: ply.number,
            mover: ply.mover + 1,
            notation: format_ply(engine, before, ply.moves),
            state: StateView { engine, layout: &self.layout, state: ply.state },
        };
        before.clone_from(ply.state);
        // Writing to memory fails only for a value that cannot be JSON, and these always can.
        if serde_json::to_writer(&mut self.buf, &line).is_ok() {
            self.buf.push(b'\n');
        }
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
