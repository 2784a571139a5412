//! Runs one input through everything a user can reach with a rule file: parse, check, the rendering of
//! the diagnostics, lowering of every variant, the engine, the summary in words, random games with move
//! notation, board drawing and position text, and the computer players' choices at a few positions.
//!
//! Every stage runs under `catch_unwind` with the panic hook silenced on this thread, so that a panic is a
//! [`Finding`] with its message and location, and the input goes on to the next stage where it can.

use std::cell::RefCell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;
use std::time::{Duration, Instant};

use mancala::ai::{alphabeta_choose, greedy_choose, mcts_choose, AiError, Budget, MctsConfig};
use mancala::diag::{self, Diagnostic, Style};
use mancala::engine::{Engine, Move, State};
use rand::{Rng, SeedableRng};

/// What to do with an input that lowers.
#[derive(Debug, Clone)]
pub struct Options {
    /// Whether inputs that lower are played at all.
    pub play: bool,
    /// Random games per engine (variant and player count).
    pub games: u32,
    /// A random game stops after this many decisions (not a finding: a fuzzed game need not end).
    pub max_decisions: u32,
    /// MCTS playouts per probed decision.
    pub mcts_playouts: u32,
    /// The most variants lowered and played per input.
    pub max_variants: usize,
    /// Whether probed positions list their plies with `notation::enumerate_plies`.
    pub enumerate: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options { play: true, games: 3, max_decisions: 3_000, mcts_playouts: 4, max_variants: 6, enumerate: true }
    }
}

/// An input that is over this is slow.
pub const SLOW: Duration = Duration::from_secs(2);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FindingKind {
    /// A panic, caught.
    Panic,
    /// A game not over with no legal decision for the player to move.
    Stuck,
    /// Two parts disagree: `check` says clean but `lower` fails, a player chose an illegal decision.
    Mismatch,
    /// The input took longer than [`SLOW`].
    Slow,
}

/// One thing that went wrong with an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// Where in the pipeline: `parse`, `check`, `lower`, `play`, `greedy`, ...
    pub stage: &'static str,
    pub message: String,
    /// `src/file.rs:line:column` of a panic.
    pub location: String,
}

impl Finding {
    /// What makes two findings the same: the kind, the stage, the location and the message with its
    /// numbers blanked out (an index out of bounds is one bug whatever the index).
    pub fn signature(&self) -> String {
        let message: String = blank_numbers(&self.message);
        match self.kind {
            FindingKind::Panic => format!("panic in {} at {}: {message}", self.stage, self.location),
            FindingKind::Stuck => format!("stuck in {}: {message}", self.stage),
            FindingKind::Mismatch => format!("mismatch in {}: {message}", self.stage),
            FindingKind::Slow => format!("slow in {}", self.stage),
        }
    }
}

fn blank_numbers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_number = false;
    for c in s.chars().take(200) {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('N');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    out
}

/// What happened to one input.
#[derive(Debug, Clone, Default)]
pub struct Report {
    pub parsed: bool,
    /// `check` found no error.
    pub clean: bool,
    /// Engines built (variant and player count).
    pub engines: u32,
    pub games: u64,
    pub plies: u64,
    /// Games that reached [`Options::max_decisions`].
    pub capped: u64,
    pub findings: Vec<Finding>,
    pub elapsed: Duration,
    /// The stage that took longest, and how long.
    pub slowest: (&'static str, Duration),
    /// The time spent in each stage, for profiles of a run.
    pub stages: Vec<(&'static str, Duration)>,
}

thread_local! {
    /// Set while a stage runs: the hook then records the panic here instead of printing it.
    static CAUGHT: RefCell<Option<Option<(String, String)>>> = const { RefCell::new(None) };
}

/// Installs, once, a panic hook that is silent on threads that are running a stage and prints as usual
/// elsewhere (a test's own failed assertion must still be seen).
pub fn install_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let caught = CAUGHT.with(|c| {
                let mut c = c.borrow_mut();
                match c.as_mut() {
                    Some(slot) => {
                        let message = match info.payload().downcast_ref::<&str>() {
                            Some(s) => s.to_string(),
                            None => info.payload().downcast_ref::<String>().cloned().unwrap_or_default(),
                        };
                        let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                        *slot = Some((message, location.unwrap_or_default()));
                        true
                    }
                    None => false,
                }
            });
            if !caught {
                default(info);
            }
        }));
    });
}

/// `FUZZ_TRACE=1` prints each stage as it starts: the way to see where an input hangs.
fn trace() -> bool {
    static TRACE: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TRACE.get_or_init(|| std::env::var_os("FUZZ_TRACE").is_some())
}

struct Run<'o> {
    options: &'o Options,
    report: Report,
}

impl Run<'_> {
    /// Runs one stage, catching a panic as a finding and keeping the slowest stage's time.
    fn stage<T>(&mut self, stage: &'static str, f: impl FnOnce() -> T) -> Option<T> {
        if trace() {
            eprintln!("stage {stage}");
        }
        let outer = CAUGHT.with(|c| c.borrow_mut().replace(None));
        let start = Instant::now();
        let result = panic::catch_unwind(AssertUnwindSafe(f));
        let took = start.elapsed();
        let caught = CAUGHT.with(|c| std::mem::replace(&mut *c.borrow_mut(), outer));
        if took > self.report.slowest.1 {
            self.report.slowest = (stage, took);
        }
        match self.report.stages.iter_mut().find(|(s, _)| *s == stage) {
            Some((_, t)) => *t += took,
            None => self.report.stages.push((stage, took)),
        }
        match result {
            Ok(v) => Some(v),
            Err(_) => {
                let (message, location) = caught.flatten().unwrap_or_default();
                self.find(FindingKind::Panic, stage, message, location);
                None
            }
        }
    }

    fn find(&mut self, kind: FindingKind, stage: &'static str, message: String, location: String) {
        let f = Finding { kind, stage, message, location };
        if !self.report.findings.contains(&f) {
            self.report.findings.push(f);
        }
    }
}

/// Runs one input (the bytes of a rule file) through the whole pipeline; `seed` drives the games.
pub fn run(input: &[u8], options: &Options, seed: u64) -> Report {
    install_hook();
    let start = Instant::now();
    let mut run = Run { options, report: Report::default() };
    let lossy = String::from_utf8_lossy(input);
    match run.stage("parse", || mancala::syntax::parse_bytes(input)) {
        Some(Ok(file)) => {
            run.report.parsed = true;
            check_and_play(&mut run, &file, &lossy, seed);
        }
        Some(Err(e)) => {
            let d = vec![Diagnostic::from(e)];
            run.stage("render", || diag::render("fuzz.mancala", &lossy, &d, Style::Plain));
        }
        None => {}
    }
    run.report.elapsed = start.elapsed();
    if run.report.elapsed > SLOW {
        let stage = run.report.slowest.0;
        let message = format!(
            "{:.1} s in all, {:.1} s in {stage}",
            run.report.elapsed.as_secs_f64(),
            run.report.slowest.1.as_secs_f64()
        );
        run.find(FindingKind::Slow, stage, message, String::new());
    }
    run.report
}

fn check_and_play(run: &mut Run<'_>, file: &mancala::ast::File, source: &str, seed: u64) {
    let Some(diags) = run.stage("check", || mancala::check::check(file)) else { return };
    run.report.clean = !diags.iter().any(Diagnostic::is_error);
    if !diags.is_empty() {
        run.stage("render", || diag::render("fuzz.mancala", source, &diags, Style::Plain));
    }
    let Some(names) = run.stage("variants", || mancala::check::variant_names(file)) else { return };
    let mut variants = vec!["default".to_string()];
    variants.extend(names.into_iter().filter(|n| n != "default"));
    variants.truncate(run.options.max_variants);
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    for variant in &variants {
        let lowered = run.stage("lower", || mancala::check::lower(file, Some(variant), None));
        match lowered {
            Some(Ok(rules)) => {
                let other = rules.players as i32 + if rng.gen() { 1 } else { -1 };
                play_rules(run, rules, &mut rng);
                // Another player count, which may or may not be allowed.
                if (1..=8).contains(&other) {
                    if let Some(Ok(rules)) =
                        run.stage("lower", || mancala::check::lower(file, Some(variant), Some(other as u8)))
                    {
                        play_rules(run, rules, &mut rng);
                    }
                }
            }
            Some(Err(errors)) if run.report.clean => {
                let first = errors.first().map_or(String::new(), |d| d.message.clone());
                let message = format!("`check` is clean but lowering variant `{variant}` fails: {first}");
                run.find(FindingKind::Mismatch, "lower", message, String::new());
            }
            _ => {}
        }
    }
}

fn play_rules(run: &mut Run<'_>, rules: mancala::ir::Rules, rng: &mut rand::rngs::SmallRng) {
    let Some(engine) = run.stage("engine", || Engine::new(rules)) else { return };
    run.report.engines += 1;
    if !run.options.play {
        return;
    }
    run.stage("summary", || mancala::summary::summarize(&engine));
    for game in 0..run.options.games {
        let game_seed: u64 = rng.gen();
        play_one(run, &engine, game_seed, game == 0);
    }
}

/// How a random game went.
#[derive(Default)]
struct Game {
    plies: u32,
    ended: bool,
    stuck: bool,
    /// A few positions to probe (the first game of an engine only).
    probes: Vec<State>,
    /// The first plies, as the position before and the decisions (the first game of an engine only).
    plies_played: Vec<(State, Vec<Move>)>,
}

/// Plies written in move notation and read back, per probed game.
const NOTATION_PLIES: usize = 40;

/// One random game, up to [`Options::max_decisions`]. The first game of an engine (`probe`) also keeps its
/// first plies, to be written in move notation and read back, and a few positions, probed with the
/// computer players, the board drawing and the position text.
fn random_game(engine: &Engine, seed: u64, max: u32, probe: bool) -> Game {
    let mut st = engine.initial_state();
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
    let mut legal: Vec<Move> = Vec::with_capacity(64);
    let mut game = Game::default();
    let mut ply_start = st.clone();
    let mut ply_moves: Vec<Move> = Vec::new();
    for decision in 0..max {
        if st.result.is_some() {
            game.ended = true;
            break;
        }
        legal.clear();
        engine.legal_moves(&st, &mut legal);
        if legal.is_empty() {
            game.stuck = true;
            break;
        }
        if probe && matches!(decision, 0 | 40) {
            game.probes.push(st.clone());
        }
        let mv = legal[rng.gen_range(0..legal.len())];
        let ply = st.ply;
        engine.apply_unchecked(&mut st, mv);
        if probe && game.plies_played.len() < NOTATION_PLIES {
            ply_moves.push(mv);
            if st.ply != ply || st.result.is_some() {
                game.plies_played.push((ply_start.clone(), std::mem::take(&mut ply_moves)));
                ply_start.clone_from(&st);
            }
        }
    }
    game.ended |= st.result.is_some();
    game.plies = st.ply;
    if probe {
        game.probes.push(st);
    }
    game
}

fn play_one(run: &mut Run<'_>, engine: &Engine, seed: u64, probe: bool) {
    let max = run.options.max_decisions;
    run.report.games += 1;
    let Some(game) = run.stage("play", || random_game(engine, seed, max, probe)) else { return };
    run.report.plies += game.plies as u64;
    if game.stuck {
        let message = "no legal decision in a game that is not over".to_string();
        run.find(FindingKind::Stuck, "play", message, String::new());
    } else if !game.ended {
        run.report.capped += 1;
    }
    run.stage("notation", || {
        for (before, moves) in &game.plies_played {
            let text = mancala::notation::format_ply(engine, before, moves);
            let _ = mancala::notation::parse_ply(engine, before, &text);
        }
    });
    let mut rng = rand::rngs::SmallRng::seed_from_u64(seed ^ 1);
    for p in &game.probes {
        probe_position(run, engine, p, &mut rng);
    }
}

/// At one position: the board drawing, the position text read back, and each computer player's choice,
/// which must be one of the legal decisions.
fn probe_position(run: &mut Run<'_>, engine: &Engine, st: &State, rng: &mut rand::rngs::SmallRng) {
    run.stage("board", || mancala::board::render(engine, st, false));
    run.stage("board", || mancala::board::render(engine, st, true));
    if let Some(text) = run.stage("format_position", || mancala::notation::format_position(engine, st)) {
        run.stage("parse_position", || mancala::notation::parse_position(engine, &text));
    }
    if run.options.enumerate {
        run.stage("enumerate_plies", || mancala::notation::enumerate_plies(engine, st, 50).plies.len());
    }
    let mut legal = Vec::new();
    run.stage("legal_moves", || engine.legal_moves(st, &mut legal));
    if legal.is_empty() {
        return;
    }
    let config = MctsConfig { budget: Budget::Playouts(run.options.mcts_playouts), ..MctsConfig::default() };
    let chosen = [
        ("greedy", run.stage("greedy", || greedy_choose(engine, st, rng))),
        ("mcts", run.stage("mcts", || mcts_choose(engine, st, &config, rng))),
        (
            "alphabeta",
            if engine.rules.players == 2 {
                run.stage("alphabeta", || alphabeta_choose(engine, st, 2, rng))
            } else {
                None
            },
        ),
    ];
    for (who, choice) in chosen {
        match choice {
            Some(Ok(mv)) if !legal.contains(&mv) => {
                run.find(FindingKind::Mismatch, who, format!("{who} chose an illegal decision"), String::new());
            }
            Some(Err(AiError::NoDecision)) => {
                run.find(
                    FindingKind::Mismatch,
                    who,
                    format!("{who} found no decision among legal ones"),
                    String::new(),
                );
            }
            _ => {}
        }
    }
}
