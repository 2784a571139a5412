//! `mancala._mancala`: the tool's library as a Python module, a thin skin over it.
//!
//! Every rule is the library's: a game is an `Engine` made by `mancala::compile`, a state is an
//! `engine::State` moved by `Engine::apply_unchecked` after `Engine::legal_moves`, moves are read and written
//! by `mancala::notation`, and `explain` is `mancala::explain`. What this file adds is only what Python needs:
//! the decisions as stable integers (`Codec`), a flat observation, the returns of a finished game, and the
//! errors as Python exceptions carrying the tool's text.

use std::path::Path;
use std::sync::Arc;

use pyo3::create_exception;
use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use rayon::prelude::*;

use mancala::diag::{self, Diagnostic, Style};
use mancala::engine::{Engine, Move, Stage, State};
use mancala::ir::Dir;
use mancala::notation::{enumerate_plies, format_ply, format_position, parse_ply, parse_start_position};
use mancala::playout::{game_rng, reason_name, Playout};

create_exception!(_mancala, MancalaError, PyException, "Every error of the mancala package.");
create_exception!(
    _mancala,
    RuleError,
    MancalaError,
    "A rule file that cannot be played: its diagnostics, rendered as `mancala check` prints them."
);
create_exception!(_mancala, IllegalMoveError, MancalaError, "A move or action that is not legal in the state.");
create_exception!(_mancala, PositionError, MancalaError, "A position text that does not fit the game.");

/// The most plies `legal_moves` lists; past it the caller is told to use the actions.
const MAX_LISTED_PLIES: usize = 100_000;

/// The kinds of `Stage`, in the order of the observation's one-hot block.
const STAGES: usize = 14;

/// Decisions not tied to a place or a kind, after the place blocks: their offsets in the action space.
const FIXED: [Move; 12] = [
    Move::Pass,
    Move::Accept,
    Move::Decline,
    Move::Direction(Dir::Ccw),
    Move::Direction(Dir::Cw),
    Move::Stop,
    Move::Capture(false),
    Move::Capture(true),
    Move::Relay(false),
    Move::Relay(true),
    Move::Answer(false),
    Move::Answer(true),
];

/// One decision (`engine::Move`) as an integer, the same for a game whatever the position: `Begin` of
/// action `a` at place `p` is `a * places + p` (so a game of one action, Kalah, has its pits' place indices
/// as actions), then `Pick(p)`, `Take { p, k }`, `Drop(k)`, then the decisions of `FIXED`.
#[derive(Debug, Clone, Copy)]
struct Codec {
    places: usize,
    kinds: usize,
    actions: usize,
}

impl Codec {
    fn new(engine: &Engine) -> Codec {
        let rules = &engine.rules;
        let actions = rules.phases.iter().map(|p| p.actions.len()).max().unwrap_or(0).max(1);
        Codec { places: rules.places.len(), kinds: rules.kinds.len().max(1), actions }
    }

    fn pick_base(&self) -> usize {
        self.actions * self.places
    }
    fn take_base(&self) -> usize {
        self.pick_base() + self.places
    }
    fn drop_base(&self) -> usize {
        self.take_base() + self.places * self.kinds
    }
    fn fixed_base(&self) -> usize {
        self.drop_base() + self.kinds
    }
    fn size(&self) -> usize {
        self.fixed_base() + FIXED.len()
    }

    fn encode(&self, mv: Move) -> i64 {
        let n = match mv {
            Move::Begin { action, place } => action as usize * self.places + place as usize,
            Move::Pick(p) => self.pick_base() + p as usize,
            Move::Take { place, kind } => self.take_base() + place as usize * self.kinds + kind as usize,
            Move::Drop(k) => self.drop_base() + k as usize,
            // Every other decision is one of FIXED.
            other => self.fixed_base() + FIXED.iter().position(|&f| f == other).unwrap_or(0),
        };
        n as i64
    }

    fn decode(&self, action: i64) -> Option<Move> {
        let a = usize::try_from(action).ok()?;
        let mv = if a < self.pick_base() {
            Move::Begin { action: (a / self.places) as u8, place: (a % self.places) as u16 }
        } else if a < self.take_base() {
            Move::Pick((a - self.pick_base()) as u16)
        } else if a < self.drop_base() {
            let i = a - self.take_base();
            Move::Take { place: (i / self.kinds) as u16, kind: (i % self.kinds) as u8 }
        } else if a < self.fixed_base() {
            Move::Drop((a - self.drop_base()) as u8)
        } else {
            *FIXED.get(a - self.fixed_base())?
        };
        Some(mv)
    }
}

/// What every state of one game shares.
struct Shared {
    engine: Engine,
    source: String,
    /// The name or path the game was loaded by, for messages.
    file: String,
    variant: Option<String>,
    codec: Codec,
    initial: State,
}

impl Shared {
    fn players(&self) -> usize {
        self.engine.rules.players as usize
    }

    fn observation_size(&self) -> usize {
        let r = &self.engine.rules;
        r.places.len() * self.codec.kinds
            + self.players()
            + r.phases.len()
            + STAGES
            + r.n_pits
            + r.marks.len() * r.n_pits
    }

    fn label(&self, st: &State, mv: Move) -> String {
        let rules = &self.engine.rules;
        let place = |p: u16| rules.places.get(p as usize).map_or_else(|| p.to_string(), |i| i.label.clone());
        let symbol = |k: u8| rules.kinds.get(k as usize).map_or_else(|| k.to_string(), |k| k.symbol.clone());
        match mv {
            Move::Begin { action: 0, place: p } => place(p),
            Move::Begin { action, place: p } => {
                let phase = rules.phases.get(st.phase as usize);
                let name = phase.and_then(|ph| ph.actions.get(action as usize)).map_or("?", |a| a.name.as_str());
                format!("{name} {}", place(p))
            }
            Move::Pass => "pass".into(),
            Move::Accept => "accept".into(),
            Move::Decline => "decline".into(),
            Move::Direction(Dir::Cw) => "cw".into(),
            Move::Direction(Dir::Ccw) => "ccw".into(),
            Move::Drop(k) => symbol(k),
            Move::Take { place: p, kind } => format!("{}{}", place(p), symbol(kind)),
            Move::Pick(p) => place(p),
            Move::Stop => "stop".into(),
            Move::Capture(yes) => if yes { "x" } else { "-x" }.into(),
            Move::Relay(yes) => if yes { "relay" } else { "-relay" }.into(),
            Move::Answer(yes) => if yes { "answer" } else { "-answer" }.into(),
        }
    }
}

fn stage_index(stage: Stage) -> usize {
    match stage {
        Stage::Start => 0,
        Stage::Respond => 1,
        Stage::Direction { .. } => 2,
        Stage::SowFrom { .. } => 3,
        Stage::Drop { .. } => 4,
        Stage::Take { .. } => 5,
        Stage::Then { .. } => 6,
        Stage::Put { .. } => 7,
        Stage::Offer { .. } => 8,
        Stage::Capture { .. } => 9,
        Stage::LapDirection { .. } => 10,
        Stage::Relay { .. } => 11,
        Stage::Answer { .. } => 12,
        Stage::LiftPick { .. } => 13,
    }
}

/// The returns of a finished game: in a game of two or more players the winners share what the losers
/// lose, each loser -1 and each of `w` winners `(n - w) / w`, so they sum to zero (a draw: all 0); a
/// solitaire won is 1, lost 0.
fn returns_of(st: &State, players: usize) -> Vec<f64> {
    let Some(outcome) = &st.result else { return vec![0.0; players] };
    let won = |p: usize| outcome.winners & (1 << p) != 0;
    if players == 1 {
        return vec![if won(0) { 1.0 } else { 0.0 }];
    }
    let w = (0..players).filter(|&p| won(p)).count();
    if w == 0 {
        return vec![0.0; players];
    }
    let share = (players - w) as f64 / w as f64;
    (0..players).map(|p| if won(p) { share } else { -1.0 }).collect()
}

fn rule_error(file: &str, source: &str, diagnostics: &[Diagnostic]) -> PyErr {
    RuleError::new_err(diag::render(file, source, diagnostics, Style::Plain))
}

/// The text of a rule file: the file at `name`, else the shipped game of that name (as the CLI reads it).
fn read_rules(name: &str) -> PyResult<String> {
    match mancala::io::read_limited(Path::new(name), mancala::syntax::MAX_SOURCE_BYTES) {
        Ok(bytes) => match String::from_utf8(bytes) {
            Ok(text) => Ok(text),
            Err(e) => {
                let text = String::from_utf8_lossy(e.as_bytes()).into_owned();
                let d: Vec<Diagnostic> =
                    mancala::syntax::decode(e.as_bytes()).err().map(Diagnostic::from).into_iter().collect();
                Err(rule_error(name, &text, &d))
            }
        },
        Err(mancala::io::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            match mancala::shipped::find(name) {
                Some(game) => Ok(game.text.to_string()),
                None => Err(MancalaError::new_err(format!(
                    "cannot read {name}: {}\nhelp: a shipped game can be named instead of a file: {}",
                    mancala::io::io_message(&e),
                    mancala::shipped::names()
                ))),
            }
        }
        Err(e) => Err(MancalaError::new_err(format!("cannot read {name}: {e}"))),
    }
}

/// The names of the shipped games (`kalah`, `oware`, ...), which `load` takes in place of a path.
#[pyfunction]
fn shipped_games() -> Vec<&'static str> {
    mancala::shipped::GAMES.iter().map(|g| g.name).collect()
}

/// The variants of a rule file or shipped game, `default` (the base game) first.
#[pyfunction]
fn variants(name_or_path: &str) -> PyResult<Vec<String>> {
    let source = read_rules(name_or_path)?;
    let file =
        mancala::syntax::parse(&source).map_err(|e| rule_error(name_or_path, &source, &[Diagnostic::from(e)]))?;
    Ok(mancala::check::variant_names(&file))
}

/// Loads a game: a shipped game by name (`"kalah"`) or any rule file by path; one variant (`None`: the
/// base game) for a number of players (`None`: the file's default). Two bounds for tests and training on
/// long games, each as if the file said it: `max_rounds`, a match of rounds ends after at most this many
/// rounds (`limit N rounds`; nothing for a game of one round); `ply_limit`, the game ends after at most this
/// many plies (`limit N plies`, where the file's own limit is not lower).
#[pyfunction]
#[pyo3(signature = (name_or_path, variant=None, players=None, max_rounds=None, ply_limit=None))]
fn load(
    name_or_path: &str,
    variant: Option<&str>,
    players: Option<u8>,
    max_rounds: Option<u32>,
    ply_limit: Option<u32>,
) -> PyResult<Game> {
    let source = read_rules(name_or_path)?;
    let variant = variant.filter(|v| *v != "default");
    let invalid = |d: Vec<Diagnostic>| rule_error(name_or_path, &source, &d);
    let engine = if max_rounds.is_none() && ply_limit.is_none() {
        mancala::compile(&source, variant, players).map_err(invalid)?
    } else {
        // `compile` in two steps, so that the limits can be lowered in between, where the file sets them.
        let recovered = mancala::syntax::parse_recovering(&source);
        if !recovered.errors.is_empty() {
            return Err(invalid(recovered.errors.into_iter().map(Diagnostic::from).collect()));
        }
        let mut rules = mancala::check::lower(&recovered.file, variant, players).map_err(invalid)?;
        let lower = |limit: &mut Option<u32>, n: u32| *limit = Some(limit.map_or(n, |l| l.min(n)));
        if let (Some(n), Some(rounds)) = (max_rounds, rules.rounds.as_mut()) {
            lower(&mut rounds.limit, n.max(1));
        }
        if let Some(n) = ply_limit {
            let n = n.max(1);
            rules.limit = rules.limit.min(n);
            lower(&mut rules.end.limit, n);
            for phase in &mut rules.phases {
                if phase.end.limit.is_some() {
                    lower(&mut phase.end.limit, n);
                }
            }
        }
        Engine::new(rules)
    };
    let codec = Codec::new(&engine);
    let initial = engine.initial_state();
    let shared =
        Shared { engine, source, file: name_or_path.to_string(), variant: variant.map(str::to_string), codec, initial };
    Ok(Game { shared: Arc::new(shared) })
}

/// A game: one variant of a rule file for a number of players.
#[pyclass(frozen, module = "mancala._mancala")]
struct Game {
    shared: Arc<Shared>,
}

#[pymethods]
impl Game {
    /// The game's name as its file declares it (`game "Kalah"`).
    #[getter]
    fn name(&self) -> String {
        self.shared.engine.rules.game.clone()
    }

    /// The variant played (`None`: the base game).
    #[getter]
    fn variant(&self) -> Option<String> {
        self.shared.variant.clone()
    }

    /// The name or path the game was loaded from.
    #[getter]
    fn file(&self) -> String {
        self.shared.file.clone()
    }

    /// The rule file's text.
    #[getter]
    fn source(&self) -> String {
        self.shared.source.clone()
    }

    fn num_players(&self) -> usize {
        self.shared.players()
    }

    /// The number of distinct actions: every action of every state lies in `range(num_distinct_actions())`.
    fn num_distinct_actions(&self) -> usize {
        self.shared.codec.size()
    }

    /// The length of `State.observation()`.
    fn observation_size(&self) -> usize {
        self.shared.observation_size()
    }

    /// The ply limit: a game (a whole match of rounds too) ends after at most this many plies (the largest
    /// of its phases' limits).
    fn ply_limit(&self) -> u32 {
        let r = &self.shared.engine.rules;
        r.phases.iter().map(|p| p.end.limit.or(r.end.limit).unwrap_or(r.limit)).max().unwrap_or(r.limit)
    }

    /// A bound on the decisions of a game (OpenSpiel's `max_game_length`): the ply limit times the decisions
    /// of a ply, which are one where every phase plays its plies whole (one choice of pit, as in Kalah and
    /// Oware), else at most 1 + 2 per piece + 2 per place (a start, a direction, the kind of each piece
    /// dropped, the pieces taken, the pits selected, the answers). A bound for the plies seen in random
    /// play, not a proof: relays that lift and choose again may make more.
    fn max_decisions(&self) -> u64 {
        let engine = &self.shared.engine;
        let r = &engine.rules;
        let whole = (0..r.phases.len()).all(|p| engine.plays_whole_plies(p));
        let per_ply = if whole { 1 } else { 1 + 2 * r.total_pieces as u64 + 2 * r.places.len() as u64 };
        // OpenSpiel keeps it in 32 bits.
        (self.ply_limit() as u64 * per_ply).min(i32::MAX as u64)
    }

    /// Whether the game is a match of rounds (`rounds { ... }`).
    fn has_rounds(&self) -> bool {
        self.shared.engine.rules.rounds.is_some()
    }

    /// The labels of the places, by index (`a`, ..., `store(1)`): the `p` of `Begin`, `Pick` and `Take`.
    fn place_labels(&self) -> Vec<String> {
        self.shared.engine.rules.places.iter().map(|p| p.label.clone()).collect()
    }

    /// The game's start.
    fn new_initial_state(&self) -> GameState {
        GameState::new(self.shared.clone(), self.shared.initial.clone())
    }

    /// A state from a position in the `--position` notation (`a4 b4 ... to_move=2`).
    fn from_position(&self, text: &str) -> PyResult<GameState> {
        let st = parse_start_position(&self.shared.engine, text).map_err(|e| PositionError::new_err(format!("{e}")))?;
        Ok(GameState::new(self.shared.clone(), st))
    }

    /// The decision an action stands for, in words (`c`, `cw`, `stop`); in a given state where it names an
    /// action of the phase (`state`: the phase's action names).
    #[pyo3(signature = (action, state=None))]
    fn action_to_string(&self, action: i64, state: Option<&GameState>) -> PyResult<String> {
        let mv = self.shared.codec.decode(action).ok_or_else(|| no_such_action(action, &self.shared))?;
        let st = state.map_or(&self.shared.initial, |s| &s.st);
        Ok(self.shared.label(st, mv))
    }

    /// Plays `n` random games in Rust (uniform over the legal decisions; game `i` draws from a generator
    /// seeded by `(seed, i)`, the same as `mancala simulate --seed`), on every core. Returns
    /// `(plies, decisions, winners, returns, scores, reasons)`: per game its plies, decisions, winners as
    /// bits of seats, returns (`n * players`, row by row), final scores (`n * players`) and end reason.
    #[pyo3(signature = (n, seed=0))]
    #[allow(clippy::type_complexity)]
    fn play_random(
        &self,
        py: Python<'_>,
        n: u64,
        seed: u64,
    ) -> (Vec<u32>, Vec<u64>, Vec<u8>, Vec<f64>, Vec<i32>, Vec<&'static str>) {
        let shared = self.shared.clone();
        let players = shared.players();
        let games: Vec<(u32, u64, u8, Vec<f64>, Vec<i32>, &'static str)> = py.detach(|| {
            (0..n)
                .into_par_iter()
                .map_init(
                    || Playout::new(&shared.engine),
                    |playout, i| {
                        let stats = playout.run(&mut game_rng(seed, i), |_| {});
                        let state = playout.state();
                        let (winners, scores, reason) = match &stats.outcome {
                            Some(o) => (o.winners, o.scores.clone(), reason_name(o.reason)),
                            None => (0, vec![0; players], "abandoned"),
                        };
                        (stats.plies, stats.decisions, winners, returns_of(state, players), scores, reason)
                    },
                )
                .collect()
        });
        let mut out = (Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (plies, decisions, winners, returns, mut scores, reason) in games {
            out.0.push(plies);
            out.1.push(decisions);
            out.2.push(winners);
            out.3.extend(returns);
            scores.resize(players, 0);
            out.4.extend(scores);
            out.5.push(reason);
        }
        out
    }

    fn __repr__(&self) -> String {
        let r = &self.shared.engine.rules;
        match &self.shared.variant {
            Some(v) => format!("<mancala.Game {:?} variant {:?}, {} players>", r.game, v, r.players),
            None => format!("<mancala.Game {:?}, {} players>", r.game, r.players),
        }
    }
}

fn no_such_action(action: i64, shared: &Shared) -> PyErr {
    PyValueError::new_err(format!(
        "{action} is not an action of this game: actions are 0 to {}",
        shared.codec.size() - 1
    ))
}

/// A position of a game in play, with the ply in progress and the last ply played (for `explain`).
#[pyclass(name = "State", module = "mancala._mancala")]
struct GameState {
    shared: Arc<Shared>,
    st: State,
    /// The position where the ply in progress began (meaningful while `partial` is not empty).
    ply_start: State,
    partial: Vec<Move>,
    /// The last ply played: the position before it and its decisions (`has_last`: one was played).
    last_before: State,
    last_moves: Vec<Move>,
    has_last: bool,
    /// The legal decisions of `st`, while `legal_known`.
    legal: Vec<Move>,
    legal_known: bool,
}

impl Clone for GameState {
    fn clone(&self) -> GameState {
        GameState {
            shared: self.shared.clone(),
            st: self.st.clone(),
            ply_start: self.ply_start.clone(),
            partial: self.partial.clone(),
            last_before: self.last_before.clone(),
            last_moves: self.last_moves.clone(),
            has_last: self.has_last,
            legal: self.legal.clone(),
            legal_known: self.legal_known,
        }
    }
}

impl GameState {
    fn new(shared: Arc<Shared>, st: State) -> GameState {
        GameState {
            ply_start: st.clone(),
            last_before: st.clone(),
            st,
            shared,
            partial: Vec::new(),
            last_moves: Vec::new(),
            has_last: false,
            legal: Vec::new(),
            legal_known: false,
        }
    }

    fn ensure_legal(&mut self) {
        if !self.legal_known {
            self.legal.clear();
            self.shared.engine.legal_moves(&self.st, &mut self.legal);
            self.legal_known = true;
        }
    }

    /// Makes one decision known to be legal.
    fn step(&mut self, mv: Move) {
        if self.partial.is_empty() {
            self.ply_start.reset_to(&self.st);
        }
        let ply = self.st.ply;
        self.shared.engine.apply_unchecked(&mut self.st, mv);
        self.legal_known = false;
        self.partial.push(mv);
        if self.st.ply != ply || self.st.result.is_some() {
            std::mem::swap(&mut self.last_before, &mut self.ply_start);
            std::mem::swap(&mut self.last_moves, &mut self.partial);
            self.partial.clear();
            self.has_last = true;
        }
    }

    fn game_over_error(&self) -> PyErr {
        IllegalMoveError::new_err("the game is over")
    }
}

#[pymethods]
impl GameState {
    /// The game this state belongs to.
    fn game(&self) -> Game {
        Game { shared: self.shared.clone() }
    }

    /// The player who decides next, from 0; -4 (OpenSpiel's terminal id) once the game is over. The
    /// language has no chance nor simultaneous decisions, so it is never -1 or -2. In the middle of a ply
    /// the same player usually decides on (a direction, a piece); in an `opponent may` answer, the
    /// opponent does.
    fn current_player(&self) -> i64 {
        if self.st.result.is_some() {
            -4
        } else {
            self.shared.engine.decider(&self.st) as i64
        }
    }

    fn is_terminal(&self) -> bool {
        self.st.result.is_some()
    }

    /// Whether a ply is in progress: decisions were made since the last ply ended.
    fn in_ply(&self) -> bool {
        !self.partial.is_empty()
    }

    /// Plies played so far.
    fn ply(&self) -> u32 {
        self.st.ply
    }

    /// The legal decisions as integers, stable for the game (see `Game.action_to_string`), ascending.
    fn legal_actions(&mut self) -> Vec<i64> {
        self.ensure_legal();
        let codec = self.shared.codec;
        let mut out: Vec<i64> = self.legal.iter().map(|&m| codec.encode(m)).collect();
        out.sort_unstable();
        out
    }

    /// Makes one decision.
    fn apply_action(&mut self, action: i64) -> PyResult<()> {
        if self.st.result.is_some() {
            return Err(self.game_over_error());
        }
        let mv = self.shared.codec.decode(action).ok_or_else(|| no_such_action(action, &self.shared))?;
        self.ensure_legal();
        if !self.legal.contains(&mv) {
            let legal: Vec<String> = self.legal.iter().map(|&m| self.shared.label(&self.st, m)).collect();
            return Err(IllegalMoveError::new_err(format!(
                "action {action} ({}) is not legal here; legal: {}",
                self.shared.label(&self.st, mv),
                legal.join(", ")
            )));
        }
        self.step(mv);
        Ok(())
    }

    /// The legal plies in move notation, as `mancala play` takes them (`c`, `7cw:RBR take 3,9`). In the
    /// middle of a ply, the whole plies that go on from the decisions made.
    fn legal_moves(&self) -> PyResult<Vec<String>> {
        if self.st.result.is_some() {
            return Ok(Vec::new());
        }
        let engine = &self.shared.engine;
        let found = enumerate_plies(engine, &self.st, MAX_LISTED_PLIES);
        if found.partial || found.plies.len() >= MAX_LISTED_PLIES {
            return Err(MancalaError::new_err(
                "the plies from this position are too many to list; play it by its decisions (legal_actions)",
            ));
        }
        let (before, made) =
            if self.partial.is_empty() { (&self.st, &[][..]) } else { (&self.ply_start, &self.partial[..]) };
        Ok(found
            .plies
            .iter()
            .map(|rest| {
                let mut whole = made.to_vec();
                whole.extend_from_slice(rest);
                format_ply(engine, before, &whole)
            })
            .collect())
    }

    /// Plays a ply written in move notation (`c`, `7cw:RBR take 3,9`). In the middle of a ply, the whole
    /// ply is written, and must begin with the decisions made.
    #[pyo3(name = "apply")]
    fn apply_move(&mut self, text: &str) -> PyResult<()> {
        if self.st.result.is_some() {
            return Err(self.game_over_error());
        }
        let engine = &self.shared.engine;
        let start = if self.partial.is_empty() { &self.st } else { &self.ply_start };
        let moves = parse_ply(engine, start, text).map_err(|e| IllegalMoveError::new_err(format!("{e}")))?;
        if !moves.starts_with(&self.partial) {
            let so_far = format_ply(engine, &self.ply_start, &self.partial);
            return Err(IllegalMoveError::new_err(format!(
                "`{text}` does not go on from the decisions made in this ply (`{so_far}`)"
            )));
        }
        let rest = moves[self.partial.len()..].to_vec();
        for mv in rest {
            self.step(mv);
        }
        Ok(())
    }

    /// One float per player: 0 while the game goes on; at its end, for two or more players, -1 for each
    /// loser and an equal share of what they lose for each winner (sum 0; a draw is 0 for all); for a
    /// solitaire, 1 won, 0 lost.
    fn returns(&self) -> Vec<f64> {
        returns_of(&self.st, self.shared.players())
    }

    /// The scores of a finished game (the rule file's `score`), else `None`.
    fn scores(&self) -> Option<Vec<i32>> {
        self.st.result.as_ref().map(|o| o.scores.clone())
    }

    /// The winners of a finished game, from 0 (empty for a draw or a solitaire lost), else `None`.
    fn winners(&self) -> Option<Vec<u8>> {
        self.st.result.as_ref().map(|o| o.winner_list())
    }

    /// Why the game ended (`condition`, `repetition`, `stuck`, `limit`, ...), else `None`.
    fn end_reason(&self) -> Option<&'static str> {
        self.st.result.as_ref().map(|o| reason_name(o.reason))
    }

    /// A copy that moves on its own.
    fn clone(&self) -> GameState {
        Clone::clone(self)
    }

    fn __copy__(&self) -> GameState {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: Bound<'_, PyAny>) -> GameState {
        Clone::clone(self)
    }

    /// The position in the `--position` notation, which `Game.from_position` reads back (at a ply's start).
    fn position(&self) -> String {
        format_position(&self.shared.engine, &self.st)
    }

    /// The board drawn as `mancala play` draws it, without colour.
    fn board(&self) -> String {
        mancala::board::render(&self.shared.engine, &self.st, false)
    }

    /// The state as `observation_size()` floats: the pieces of each place and kind (`place * kinds + kind`,
    /// places in `Game.place_labels()` order), the player to decide (one-hot, all 0 once over), the phase
    /// (one-hot), the stage of the ply (one-hot of 14: start, respond, direction, sow-from, drop, take, then,
    /// put, offer, capture, lap direction, relay, answer, lift pick), each pit's owner (its number from 1, 0
    /// for nobody), and each mark's pits (`mark * pits + pit`: 0 unmarked, else the player it is for plus 1,
    /// or 1).
    fn observation(&self) -> Vec<f32> {
        let shared = &self.shared;
        let r = &shared.engine.rules;
        let mut out = Vec::with_capacity(shared.observation_size());
        let kinds = shared.codec.kinds;
        out.extend(self.st.counts.iter().take(r.places.len() * kinds).map(|&c| c as f32));
        let decider = if self.st.result.is_some() { usize::MAX } else { shared.engine.decider(&self.st) as usize };
        out.extend((0..shared.players()).map(|p| if p == decider { 1.0 } else { 0.0 }));
        out.extend((0..r.phases.len()).map(|p| if p == self.st.phase as usize { 1.0 } else { 0.0 }));
        let stage = stage_index(self.st.stage);
        out.extend((0..STAGES).map(|s| if s == stage { 1.0 } else { 0.0 }));
        out.extend(self.st.owner.iter().take(r.n_pits).map(|&o| if (o as usize) < 8 { o as f32 + 1.0 } else { 0.0 }));
        out.extend(self.st.marks.iter().take(r.marks.len() * r.n_pits).map(|&m| m as f32));
        out.resize(shared.observation_size(), 0.0);
        out
    }

    /// How the last ply played went, rule by rule, as `mancala explain` tells it.
    fn explain(&self) -> PyResult<String> {
        if !self.has_last {
            return Err(MancalaError::new_err("no ply has been played yet"));
        }
        let e =
            mancala::explain::explain(&self.shared.engine, &self.shared.source, &self.last_before, &self.last_moves);
        Ok(mancala::explain::render(&e))
    }

    /// The last ply played in move notation, else `None`.
    fn last_move(&self) -> Option<String> {
        self.has_last.then(|| format_ply(&self.shared.engine, &self.last_before, &self.last_moves))
    }

    /// The state as JSON (the tool's `State`; its format may change between versions).
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.st).map_err(|e| MancalaError::new_err(e.to_string()))
    }

    fn __str__(&self) -> String {
        self.position()
    }

    fn __repr__(&self) -> String {
        format!("<mancala.State {}>", self.position())
    }
}

/// The mancala rule-description language: every `.mancala` rule file a game for Python.
#[pymodule]
fn _mancala(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(shipped_games, m)?)?;
    m.add_function(wrap_pyfunction!(variants, m)?)?;
    m.add_class::<Game>()?;
    m.add_class::<GameState>()?;
    let py = m.py();
    m.add("MancalaError", py.get_type::<MancalaError>())?;
    m.add("RuleError", py.get_type::<RuleError>())?;
    m.add("IllegalMoveError", py.get_type::<IllegalMoveError>())?;
    m.add("PositionError", py.get_type::<PositionError>())?;
    Ok(())
}
