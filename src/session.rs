//! The back end of `mancala play`: one game in progress, driven by typed commands.
//!
//! A thin front end (the REPL in the binary) reads lines, turns them into `Command`s, and prints what
//! `Session::execute` returns. Everything a player can do — moves in notation or one decision at a time,
//! undo and redo, hints, saving and loading — lives here, so tests drive it without a terminal.
//! A bad command or an illegal move returns an error and changes nothing.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::SeedableRng;
use serde::{Deserialize, Serialize};

use crate::ai::{AiKind, Player};
use crate::engine::{Engine, Move, State};
use crate::ir::PlaceId;
use crate::notation::{enumerate_plies, format_ply, parse_ply, parse_start_position};

/// The most plies `moves` lists before it lists first decisions instead.
const MAX_LISTED: usize = 60;
/// The format tag of save files.
const SAVE_FORMAT: &str = "mancala-game/1";
/// The largest save file `load` reads: far more than the longest game's plies in notation.
const MAX_SAVE_BYTES: usize = 4 << 20;

/// Who plays a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seat {
    Human,
    Computer(AiKind),
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Seat::Human => f.write_str("human"),
            Seat::Computer(kind) => write!(f, "{kind}"),
        }
    }
}

impl FromStr for Seat {
    type Err = String;
    fn from_str(s: &str) -> Result<Seat, String> {
        if s == "human" {
            return Ok(Seat::Human);
        }
        s.parse::<AiKind>().map(Seat::Computer).map_err(|e| e.to_string())
    }
}

/// A command typed at the prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// A ply in notation (`c`, `7cw:RBR take 3,9`), or one decision of a turn in progress.
    Play(String),
    /// A bare number. Where pits are numbered (a ring), it is always that pit, or a choice of the decision
    /// in progress with that label (a kind of piece); elsewhere it is the n-th entry (from 1) of the last
    /// `moves` listing.
    Choose(usize),
    /// `#n`: the n-th entry of the last `moves` listing, always.
    Listed(usize),
    Moves,
    /// The plies played so far, and who played each.
    History,
    /// Ply N (from 1) told step by step with the rule that made each step; the last ply without N.
    Explain(Option<usize>),
    Undo,
    Redo,
    Show,
    Rules,
    /// What the computer would play, at a level (`hint hard`); a solitaire without a level is searched for
    /// a win.
    Hint(Option<crate::ai::Level>),
    /// Let the computer make the current decision.
    Ai,
    /// Abandon the decisions made so far in this turn.
    Cancel,
    Save(PathBuf),
    Load(PathBuf),
    /// Start the same game again; `force` (`new!`) drops a game in progress without asking.
    New {
        force: bool,
    },
    Help,
    /// Leave; `force` (`quit!`) drops a game in progress without asking.
    Quit {
        force: bool,
    },
}

impl FromStr for Command {
    type Err = SessionError;
    fn from_str(line: &str) -> Result<Command, SessionError> {
        let line = line.trim();
        let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(w, r)| (w, r.trim()));
        let needs_file = |cmd: &str| -> Result<PathBuf, SessionError> {
            if rest.is_empty() {
                Err(SessionError::Usage(format!("`{cmd}` needs a file name, e.g. `{cmd} game.json`")))
            } else {
                Ok(PathBuf::from(rest))
            }
        };
        let no_args = |cmd: Command| -> Result<Command, SessionError> {
            if rest.is_empty() {
                Ok(cmd)
            } else {
                Err(SessionError::Usage(format!("`{word}` takes no argument")))
            }
        };
        match word {
            "" => Err(SessionError::Usage("type a move, or `help`".into())),
            "moves" | "m" | "list" => no_args(Command::Moves),
            "history" => no_args(Command::History),
            "explain" | "why" if rest.is_empty() => Ok(Command::Explain(None)),
            "explain" | "why" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Command::Explain(Some(n))),
                _ => Err(SessionError::Usage(format!(
                    "`{word} {rest}`: `{word}` tells the last move; `{word} N`, move N of the history"
                ))),
            },
            "undo" | "u" => no_args(Command::Undo),
            "redo" => no_args(Command::Redo),
            "show" | "board" => no_args(Command::Show),
            "rules" => no_args(Command::Rules),
            "hint" if rest.is_empty() => Ok(Command::Hint(None)),
            "hint" => match crate::ai::Level::named(rest) {
                Some(level) => Ok(Command::Hint(Some(level))),
                None => Err(SessionError::Usage(format!("`hint {rest}`: the levels are easy, normal and hard"))),
            },
            "ai" => no_args(Command::Ai),
            "cancel" => no_args(Command::Cancel),
            "save" => needs_file("save").map(Command::Save),
            "load" => needs_file("load").map(Command::Load),
            "new" | "restart" => no_args(Command::New { force: false }),
            "new!" | "restart!" => no_args(Command::New { force: true }),
            "help" | "?" | "h" => no_args(Command::Help),
            "quit" | "exit" | "q" => no_args(Command::Quit { force: false }),
            "quit!" | "exit!" | "q!" => no_args(Command::Quit { force: true }),
            _ if word.starts_with('#') && rest.is_empty() => match word[1..].parse::<usize>() {
                Ok(n) if n >= 1 => Ok(Command::Listed(n)),
                _ => Err(SessionError::Usage(format!("`{word}`: after `#`, the number of a listed move (from 1)"))),
            },
            _ => match line.parse::<usize>() {
                Ok(n) if n >= 1 && rest.is_empty() => Ok(Command::Choose(n)),
                _ => Ok(Command::Play(line.to_string())),
            },
        }
    }
}

/// What went wrong with a command. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionError {
    /// The command itself is malformed.
    Usage(String),
    /// The move is not legal here.
    Illegal(String),
    GameOver,
    /// A save file could not be written, read or replayed.
    File(String),
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Usage(m) | SessionError::Illegal(m) | SessionError::File(m) => f.write_str(m),
            SessionError::GameOver => {
                f.write_str("the game is over: `new` starts another, `undo` takes back the last move")
            }
        }
    }
}

impl std::error::Error for SessionError {}

/// One ply played: who, what, and the position before it (for undo).
#[derive(Debug, Clone)]
struct PlyRecord {
    before: State,
    moves: Vec<Move>,
    text: String,
    mover: u8,
}

/// A saved game: enough to replay it on the same rules.
///
/// `position` was added to format `mancala-game/1` without a new tag: a file without it starts from the
/// game's own start, as files written before it did.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SaveFile {
    pub format: String,
    /// The rule file, as given on the command line.
    pub rules: String,
    /// A hash of what the rules mean ([`rules_hash`]), to notice when they changed; files written before it
    /// hold a hash of the rule file's text, which still loads while the text is unchanged.
    pub rules_hash: String,
    pub variant: String,
    pub players: u8,
    pub seed: u64,
    pub seats: Vec<String>,
    /// The position the game started from, in the position format, when it was not the game's own start
    /// (`mancala play --position`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The plies in notation, from the start position.
    pub moves: Vec<String>,
}

/// The game being played, and how to play it.
pub struct Session {
    pub engine: Engine,
    rules_path: String,
    /// What the rules mean (see [`rules_hash`]), and the hash of the rule file's text that saves before it
    /// held, still accepted.
    rules_hash: String,
    text_hash: String,
    /// The rule file's text, for the lines of the rules that `explain` names.
    source: String,
    variant: String,
    seed: u64,
    /// Where the game starts: the game's own start, or a given position (its text in `position`).
    start: State,
    position: Option<String>,
    pub state: State,
    seats: Vec<Seat>,
    computers: Vec<Option<Box<dyn Player>>>,
    plies: Vec<PlyRecord>,
    redo: Vec<PlyRecord>,
    /// The decisions made so far in the turn in progress, and the position it started from.
    partial: Vec<Move>,
    partial_start: Option<State>,
    /// The last `moves` listing, for `Choose`.
    listing: Vec<Vec<Move>>,
    /// Ask before `new` or `quit` drops a game in progress (on a terminal), and what was last asked about.
    confirm_drops: bool,
    asked: Option<Discard>,
    hint_limits: HintLimits,
    cancel: Arc<AtomicBool>,
    progress: Option<ProgressLine>,
}

/// A ply played: the position before it and its decisions.
pub type PlyMoves<'a> = (&'a State, &'a [Move]);

/// Where a long command reports its progress: a line of text that replaces the last.
pub type ProgressLine = Box<dyn FnMut(&str) + Send>;

/// How far a solitaire's `hint` searches before it gives its best guess.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HintLimits {
    pub time: Duration,
    /// The search's other bounds (positions, memory); its deadline is set from `time`.
    pub search: crate::solve::SolveOptions,
}

impl Default for HintLimits {
    fn default() -> HintLimits {
        HintLimits {
            time: Duration::from_secs(5),
            search: crate::solve::SolveOptions { max_bytes: 256 << 20, ..crate::solve::SolveOptions::default() },
        }
    }
}

/// A command that drops the game in progress.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Discard {
    New,
    Quit,
}

/// What a command produced, for the front end to print.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Output {
    pub text: String,
    /// The board changed: draw it again.
    pub board_changed: bool,
    pub quit: bool,
}

impl Output {
    fn text(text: impl Into<String>) -> Output {
        Output { text: text.into(), ..Output::default() }
    }
    fn moved(text: impl Into<String>) -> Output {
        Output { text: text.into(), board_changed: true, quit: false }
    }
}

impl Session {
    /// A new game. `seats[i]` plays seat i+1; seats beyond the list are human.
    pub fn new(
        engine: Engine,
        rules_path: &str,
        source: &str,
        seats: Vec<Seat>,
        seed: u64,
    ) -> Result<Session, SessionError> {
        let mut seats = seats;
        seats.resize(engine.rules.players as usize, Seat::Human);
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut computers = Vec::new();
        for seat in &seats {
            computers.push(match seat {
                Seat::Human => None,
                Seat::Computer(kind) => {
                    Some(kind.player(&engine, &mut rng).map_err(|e| SessionError::Usage(e.to_string()))?)
                }
            });
        }
        let cancel = Arc::new(AtomicBool::new(false));
        for player in computers.iter_mut().flatten() {
            player.set_cancel(cancel.clone());
        }
        let state = engine.initial_state();
        let rules_hash = rules_hash(&engine);
        Ok(Session {
            variant: engine.rules.variant.clone(),
            engine,
            rules_path: rules_path.to_string(),
            rules_hash,
            text_hash: source_hash(source),
            source: source.to_string(),
            seed,
            start: state.clone(),
            position: None,
            state,
            seats,
            computers,
            plies: Vec::new(),
            redo: Vec::new(),
            partial: Vec::new(),
            partial_start: None,
            listing: Vec::new(),
            confirm_drops: false,
            asked: None,
            hint_limits: HintLimits::default(),
            cancel,
            progress: None,
        })
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Starts the game again from a position in the position format (or a state's JSON) instead of the
    /// game's own start; `new` and saved games start from it too. Fails, changing nothing, when the text
    /// is not a position of this game.
    pub fn start_from(&mut self, position: &str) -> Result<(), SessionError> {
        let start = parse_start_position(&self.engine, position).map_err(|e| SessionError::Usage(e.to_string()))?;
        self.start = start;
        self.position = Some(position.trim().to_string());
        self.restart();
        Ok(())
    }

    /// The position the game started from, as given, when it was not the game's own start.
    pub fn position(&self) -> Option<&str> {
        self.position.as_deref()
    }

    pub fn is_over(&self) -> bool {
        self.state.result.is_some()
    }

    /// Whether a person decides next.
    pub fn human_to_move(&self) -> bool {
        !self.is_over() && self.seats[self.state.to_move as usize] == Seat::Human
    }

    /// The plies played so far, in notation.
    pub fn history(&self) -> Vec<String> {
        self.plies.iter().map(|p| p.text.clone()).collect()
    }

    /// Runs one command.
    pub fn execute(&mut self, cmd: Command) -> Result<Output, SessionError> {
        if !matches!(cmd, Command::New { .. } | Command::Quit { .. }) {
            self.asked = None;
        }
        self.cancel.store(false, Ordering::Relaxed);
        match cmd {
            Command::Play(text) => self.play_text(&text),
            Command::Choose(n) if self.pits_are_numbered() || self.names_move(&n.to_string()) => {
                self.play_text(&n.to_string())
            }
            Command::Choose(n) | Command::Listed(n) => self.choose(n),
            Command::Moves => Ok(Output::text(self.list_moves())),
            Command::History => Ok(Output::text(self.history_text())),
            Command::Explain(n) => self.explain(n).map(|e| {
                let who = &self.seat_names()[e.mover as usize - 1];
                Output::text(crate::explain::render_by(&e, who).trim_end())
            }),
            Command::Undo => self.undo(),
            Command::Redo => self.redo(),
            Command::Show => Ok(Output::moved(String::new())),
            Command::Rules => Ok(Output::text(self.rules_summary())),
            Command::Hint(level) => self.hint(level).map(Output::text),
            Command::Ai => self.ai_move(),
            Command::Cancel => {
                if self.partial.is_empty() {
                    return Err(SessionError::Usage("no turn in progress to cancel".into()));
                }
                self.cancel_partial();
                Ok(Output::moved("turn cancelled"))
            }
            Command::Save(path) => self.save(&path).map(|_| Output::text(format!("saved to {}", path.display()))),
            Command::Load(path) => {
                let n = self.load(&path)?;
                let plies = crate::plural(n as u64, "ply", "plies");
                Ok(Output::moved(match &self.position {
                    Some(position) => format!("loaded {} ({plies} from the position {position})", path.display()),
                    None => format!("loaded {} ({plies})", path.display()),
                }))
            }
            Command::New { force } => {
                if let Some(question) = self.confirm_drop(Discard::New, force) {
                    return Ok(Output::text(question));
                }
                self.restart();
                Ok(Output::moved("new game"))
            }
            Command::Help => Ok(Output::text(HELP)),
            Command::Quit { force } => {
                if let Some(question) = self.confirm_drop(Discard::Quit, force) {
                    return Ok(Output::text(question));
                }
                Ok(Output { quit: true, ..Output::default() })
            }
        }
    }

    /// Reads a typed line as a command of this game. A short form of a command (`h`, `m`, `q`, `u`) that is
    /// also a place label here is the place: the move wins, and the command keeps its full name.
    pub fn parse_command(&self, line: &str) -> Result<Command, SessionError> {
        let word = line.trim();
        if shadowed_command(word).is_some() && self.engine.rules.places.iter().any(|p| p.label == word) {
            return Ok(Command::Play(word.to_string()));
        }
        line.parse()
    }

    /// Whether a person should be asked before `new` or `quit` drops the game in progress.
    pub fn set_confirm_drops(&mut self, confirm: bool) {
        self.confirm_drops = confirm;
    }

    /// The question to ask before dropping the game in progress, or `None` to go ahead: when asking is
    /// off, forced, nothing would be lost, or the same command was just asked about (typing it again
    /// confirms).
    fn confirm_drop(&mut self, what: Discard, force: bool) -> Option<String> {
        let asked = self.asked.take();
        let in_progress = !self.is_over() && (!self.plies.is_empty() || !self.partial.is_empty());
        if !self.confirm_drops || force || !in_progress || asked == Some(what) {
            return None;
        }
        self.asked = Some(what);
        let (word, does) = match what {
            Discard::New => ("new", "start again"),
            Discard::Quit => ("quit", "leave"),
        };
        Some(format!(
            "the game in progress will be lost: type `{word}` again to {does}, or `save FILE` first (`{word}!` never asks)"
        ))
    }

    /// Lets the computer seats play until a person must decide or the game ends; returns their plies.
    pub fn computer_turns(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(line) = self.computer_turn() {
            out.push(line);
        }
        out
    }

    fn computer_ply(&mut self) -> Option<String> {
        let start = self.state.clone();
        let ply = self.state.ply;
        let mover = self.state.to_move;
        let mut moves = Vec::new();
        while self.state.ply == ply && !self.is_over() {
            let seat = self.state.to_move as usize;
            let player = self.computers.get_mut(seat)?.as_mut()?;
            let mv = player.choose(&self.engine, &self.state).ok()?;
            self.engine.apply(&mut self.state, mv).ok()?;
            moves.push(mv);
        }
        let text = format_ply(&self.engine, &start, &moves);
        self.plies.push(PlyRecord { before: start, moves, text: text.clone(), mover });
        self.redo.clear();
        Some(text)
    }

    /// Lets the computer seat to move play one ply; the line that says what it did, or `None` when a
    /// person is to move or the game is over. The web playground shows the computer's plies one by one.
    pub fn computer_turn(&mut self) -> Option<String> {
        if self.is_over() || self.human_to_move() {
            return None;
        }
        self.cancel.store(false, Ordering::Relaxed);
        let mover = self.state.to_move;
        let text = self.computer_ply()?;
        let who = &self.seat_names()[mover as usize];
        Some(format!("{who} ({}) played {text}: {}", self.seats[mover as usize], self.told()))
    }

    /// The options of the decision at hand, each with the label a person types (and `Play` accepts).
    pub fn options(&self) -> Vec<(String, Move)> {
        if self.is_over() {
            return Vec::new();
        }
        self.decision_options()
    }

    /// What the decision at hand is called: `move`, `direction`, `next piece`, `safari or stop`, ...
    pub fn decision(&self) -> String {
        self.decision_name()
    }

    /// The decision at hand as a question, in the game's words, with what may be answered: `direction
    /// from i3: ccw (towards i2) or cw (towards i4)`, `safari from i5? safari or stop (or yes, no)`.
    pub fn question(&self) -> String {
        use crate::engine::Stage;
        use crate::notation::Question;
        let here = |p: PlaceId| self.place_label(p);
        match self.state.stage {
            Stage::Direction { .. } | Stage::LapDirection { .. } => {
                let ways: Vec<String> = self
                    .decision_options()
                    .into_iter()
                    .map(|(label, mv)| match self.towards(mv) {
                        Some(p) => format!("{label} (towards {})", here(p)),
                        None => label,
                    })
                    .collect();
                format!("{} from {}: {}", self.decision_name(), here(self.state.origin), or_list(&ways))
            }
            Stage::Relay { .. } | Stage::Capture { .. } => {
                let words = crate::notation::answer_words(&self.engine, &self.state).unwrap_or_default();
                let at = here(self.state.last);
                let ask = match (words.question, words.named) {
                    (Question::Relay, true) => format!("{} from {at}?", words.yes),
                    (Question::Relay, false) => format!("relay from {at}?"),
                    (Question::Capture, true) => format!("{} at {at}?", words.yes),
                    (Question::Capture, false) => format!("capture at {at}?"),
                };
                let yes = self.answer_label(words.question, true);
                let no = self.answer_label(words.question, false);
                format!("{ask} {yes} or {no} (or yes, no)")
            }
            _ => format!("{}: {}", self.decision_name(), self.option_labels().join(", ")),
        }
    }

    /// The rule file's own sentence (`///`) for the question at hand, where it has one: the optional relay's
    /// or capture's.
    pub fn question_doc(&self) -> Option<String> {
        use crate::engine::Stage;
        let sow = |action: u8| match self.engine.phase(&self.state).actions.get(action as usize).map(|a| &a.kind) {
            Some(crate::ir::ActionKind::Sow(sow)) => Some(sow),
            _ => None,
        };
        match self.state.stage {
            Stage::Relay { action } => sow(action)?.relay_may_doc.clone(),
            Stage::Capture { action, rule } => sow(action)?.captures.get(rule as usize)?.doc.clone(),
            _ => None,
        }
    }

    /// The place the first piece of a lap would go to, for a direction of the decision at hand: the place
    /// after the lap's pit that way along the mover's track.
    pub fn towards(&self, mv: Move) -> Option<PlaceId> {
        let Move::Direction(d) = mv else { return None };
        let rules = &self.engine.rules;
        let places = rules.places.len();
        let row = (self.state.to_move as usize * 2 + d as usize) * places;
        let next = *rules.next.get(row + self.state.origin as usize)?;
        (next != self.state.origin && (next as usize) < places).then_some(next)
    }

    /// The pit a decision in progress is about: the pit chosen to start from, or the pit an optional relay
    /// or capture asks about; for the board to mark while the move waits.
    pub fn chosen_place(&self) -> Option<PlaceId> {
        use crate::engine::Stage;
        if self.partial.is_empty() || self.is_over() {
            return None;
        }
        match self.state.stage {
            Stage::Relay { .. } | Stage::Capture { .. } => Some(self.state.last),
            Stage::LapDirection { .. } => Some(self.state.origin),
            _ => self.partial.iter().find_map(|m| if let Move::Begin { place, .. } = m { Some(*place) } else { None }),
        }
    }

    fn place_label(&self, p: PlaceId) -> String {
        self.engine.rules.places.get(p as usize).map_or_else(|| p.to_string(), |i| i.label.clone())
    }

    /// Whether a turn is in progress: some of its decisions made, the rest still to come.
    pub fn in_turn(&self) -> bool {
        !self.partial.is_empty()
    }

    /// How many plies `redo` could play again.
    pub fn redo_len(&self) -> usize {
        self.redo.len()
    }

    /// The boards the last ply passed through, step by step ([`crate::narrate::steps`]).
    pub fn last_steps(&self) -> Vec<State> {
        self.last_ply()
            .map_or_else(Vec::new, |(before, moves)| crate::narrate::steps(&self.engine, before, moves, &self.state))
    }

    /// What the last ply did, in words, and the places it marks.
    pub fn last_told(&self) -> Option<crate::narrate::Told> {
        self.last_ply()
            .map(|(before, moves)| crate::narrate::ply(&self.engine, before, moves, &self.state, &self.seat_names()))
    }

    /// The last ply played: the position before it and its decisions.
    pub fn last_ply(&self) -> Option<(&State, &[Move])> {
        self.plies.last().map(|r| (&r.before, &r.moves[..]))
    }

    /// What to call each seat: `you`, `computer`, `player N`.
    pub fn seat_names(&self) -> Vec<String> {
        crate::narrate::seat_names(&self.seats.iter().map(|s| *s == Seat::Human).collect::<Vec<_>>())
    }

    /// What the last ply did, in words.
    fn told(&self) -> String {
        self.last_ply().map_or(String::new(), |(before, moves)| {
            crate::narrate::ply(&self.engine, before, moves, &self.state, &self.seat_names()).text
        })
    }

    /// The prompt: who decides, and what.
    pub fn prompt(&self) -> String {
        if self.is_over() {
            return "game over> ".into();
        }
        // The seat's name as the board and the narration call it ("you", "player 2", "computer").
        let who = self.seat_names().swap_remove(self.state.to_move as usize);
        if self.partial.is_empty() {
            return format!("{who}> ");
        }
        use crate::engine::Stage;
        match self.state.stage {
            Stage::Relay { .. } | Stage::Capture { .. } | Stage::Direction { .. } | Stage::LapDirection { .. } => {
                format!("{who}, {}> ", self.question())
            }
            _ => {
                let options = self.decision_options();
                let shown: Vec<&str> = options.iter().take(10).map(|(l, _)| l.as_str()).collect();
                let more = if options.len() > 10 { ", ..." } else { "" };
                format!("{who}, {} ({}{more})> ", self.decision_name(), shown.join(" "))
            }
        }
    }

    /// Words that may be typed now: commands, and the legal moves in notation; for tab completion.
    pub fn completions(&self) -> Vec<String> {
        let mut words: Vec<String> = COMMANDS.iter().map(|s| s.to_string()).collect();
        if self.partial.is_empty() && !self.is_over() {
            // A partial list still completes the plies it has; the first decisions below cover the rest.
            let plies = enumerate_plies(&self.engine, &self.state, MAX_LISTED + 1).plies;
            if plies.len() <= MAX_LISTED {
                words.extend(plies.iter().map(|p| format_ply(&self.engine, &self.state, p)));
            }
        }
        words.extend(self.decision_options().into_iter().map(|(l, _)| l));
        words.sort();
        words.dedup();
        words
    }

    // ------------------------------------------------------------ moves

    fn play_text(&mut self, text: &str) -> Result<Output, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.partial.is_empty() {
            return self.play_decision(text);
        }
        if let Some(answer) = self.offer_answer(text) {
            return self.play_ply(vec![answer]);
        }
        // `take none` says outright that no pit is taken (the notation writes nothing for that).
        let (text, none_taken) = strip_take_none(text);
        match parse_ply(&self.engine, &self.state, text) {
            Ok(moves) if none_taken => self.play_ply(moves),
            Ok(moves) => match self.untyped_optional_choice(text, &moves) {
                Some(asked) => {
                    let mut out = self.start_turn(&moves[..asked])?;
                    out.text = format!(
                        "{text} is played; {}: {} (`stop` takes none; `{text} take none` says so at once)",
                        self.decision_name(),
                        self.option_labels().join(", ")
                    );
                    Ok(out)
                }
                None => self.play_ply(moves),
            },
            Err(full_error) => {
                // A first decision alone starts the turn; the rest is asked for.
                if self.decision_options().iter().any(|(l, _)| l == text) {
                    return self.play_decision(text);
                }
                // A ply typed in part (`i6`, `i3cw`) is started, and the rest asked for.
                if !full_error.started.is_empty() {
                    let mut out = self.start_turn(&full_error.started)?;
                    out.text = self.asking();
                    return Ok(out);
                }
                Err(SessionError::Illegal(self.explain_refusal(text, full_error.to_string())))
            }
        }
    }

    /// Where a ply read from `text` stops a `then may take` that could have taken pits, though the text
    /// says nothing of taking: the notation reads that as "take none", but a person who typed only the
    /// sowing has not chosen yet, so the choice is asked for. The index of that `Stop` in `moves`.
    fn untyped_optional_choice(&self, text: &str, moves: &[Move]) -> Option<usize> {
        if text.split_whitespace().any(|t| t.eq_ignore_ascii_case("take")) {
            return None;
        }
        let mut probe = self.state.clone();
        let mut legal = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            if matches!(probe.stage, crate::engine::Stage::Then { .. }) && mv == Move::Stop {
                legal.clear();
                self.engine.legal_moves(&probe, &mut legal);
                if legal.iter().any(|m| matches!(m, Move::Pick(_))) {
                    return Some(i);
                }
            }
            self.engine.apply(&mut probe, mv).ok()?;
        }
        None
    }

    /// Makes the first decisions of a turn, leaving the rest to be asked for.
    fn start_turn(&mut self, moves: &[Move]) -> Result<Output, SessionError> {
        let start = self.state.clone();
        let mut out = Output::text(String::new());
        for &mv in moves {
            match self.decide(mv) {
                Ok(o) => out = o,
                Err(e) => {
                    self.partial.clear();
                    self.partial_start = None;
                    self.state = start;
                    return Err(e);
                }
            }
        }
        out.board_changed = true;
        Ok(out)
    }

    fn play_ply(&mut self, moves: Vec<Move>) -> Result<Output, SessionError> {
        let before = self.state.clone();
        let mover = self.state.to_move;
        let mut next = self.state.clone();
        for &mv in &moves {
            self.engine.apply(&mut next, mv).map_err(|e| SessionError::Illegal(e.to_string()))?;
        }
        let text = format_ply(&self.engine, &before, &moves);
        self.state = next;
        self.plies.push(PlyRecord { before, moves, text: text.clone(), mover });
        self.redo.clear();
        self.listing.clear();
        let who = &self.seat_names()[mover as usize];
        Ok(Output::moved(format!("{who} played {text}: {}", self.told())))
    }

    /// One decision of a turn, by its label (`cw`, `R`, `stop`, `B5`), or by a word that answers a yes/no
    /// question (`yes`, `no`, and the rule file's words); at a choice of pieces, a run of symbols makes a
    /// choice for each (`GGRRB`).
    fn play_decision(&mut self, text: &str) -> Result<Output, SessionError> {
        if let Some(yes) = self.yes_or_no(text) {
            let mv = match self.state.stage {
                crate::engine::Stage::Relay { .. } => Move::Relay(yes),
                _ => Move::Capture(yes),
            };
            return self.decide(mv);
        }
        if let Some(out) = self.drop_run(text) {
            return out;
        }
        let options = self.decision_options();
        if !options.iter().any(|(l, _)| l == text) {
            if let Some(out) = self.pick_out_of_order(text) {
                return Ok(out);
            }
        }
        let Some(&(_, mv)) = options.iter().find(|(l, _)| l == text) else {
            let labels: Vec<&str> = options.iter().map(|(l, _)| l.as_str()).collect();
            let what = match self.engine.rules.places.iter().find(|p| p.label == text) {
                Some(p) if p.is_pit => format!("pit {text} cannot be chosen now"),
                Some(_) => format!("{text} cannot be chosen now"),
                None => format!("`{text}` is not a choice here"),
            };
            let hash = if self.pits_are_numbered() { "; `#N` picks the N-th" } else { "" };
            let asked = match self.state.stage {
                crate::engine::Stage::Relay { .. }
                | crate::engine::Stage::Capture { .. }
                | crate::engine::Stage::Direction { .. }
                | crate::engine::Stage::LapDirection { .. } => self.question(),
                _ => format!("{}: {}", self.decision_name(), labels.join(", ")),
            };
            return Err(SessionError::Illegal(format!("{what}; {asked} (or `cancel`{hash})")));
        };
        self.decide(mv)
    }

    /// A pit typed into a selection (pits to put into, offer, or take) before pits already chosen: the
    /// engine takes a selection in board order, but a person need not, so the selection is made again
    /// in order with the new pit. `None`, changing nothing, when that is not legal either.
    fn pick_out_of_order(&mut self, text: &str) -> Option<Output> {
        use crate::engine::Stage;
        let rules = &self.engine.rules;
        let pit = rules.places.iter().position(|p| p.label == text && p.is_pit)? as u16;
        let with_begin = match self.state.stage {
            Stage::Put { .. } | Stage::Offer { .. } => true,
            Stage::Then { .. } => false,
            _ => return None,
        };
        let picks = self.partial.iter().rev().take_while(|m| matches!(m, Move::Pick(_))).count();
        let mut prefix = self.partial.len() - picks;
        let mut places: Vec<u16> =
            self.partial[prefix..].iter().filter_map(|m| if let Move::Pick(p) = m { Some(*p) } else { None }).collect();
        let mut action = None;
        if with_begin {
            let Some(&Move::Begin { action: a, place }) = prefix.checked_sub(1).map(|i| &self.partial[i]) else {
                return None;
            };
            prefix -= 1;
            action = Some(a);
            places.push(place);
        }
        places.push(pit);
        places.sort_unstable();
        let mut moves = self.partial[..prefix].to_vec();
        let mut rest = places.into_iter();
        if let Some(action) = action {
            moves.push(Move::Begin { action, place: rest.next()? });
        }
        moves.extend(rest.map(Move::Pick));
        let saved = (self.state.clone(), self.partial.clone(), self.partial_start.clone());
        self.cancel_partial();
        match self.start_turn(&moves) {
            Ok(out) => Some(out),
            Err(_) => {
                (self.state, self.partial, self.partial_start) = saved;
                None
            }
        }
    }

    /// Whether `text` answers the yes/no question at hand (an optional relay or capture), and how: `yes`,
    /// `y`, the rule file's yes word (or `relay`, `x`); `no`, `n`, its no word (or `-relay`, `stop`, `-x`).
    fn yes_or_no(&self, text: &str) -> Option<bool> {
        let words = crate::notation::answer_words(&self.engine, &self.state)?;
        let t = text.trim().to_ascii_lowercase();
        let plain = match words.question {
            crate::notation::Question::Relay => ("relay", "-relay"),
            crate::notation::Question::Capture => ("x", "-x"),
        };
        if ["yes", "y", plain.0].contains(&t.as_str()) || t.eq_ignore_ascii_case(&words.yes) {
            Some(true)
        } else if ["no", "n", "stop", plain.1].contains(&t.as_str()) || t.eq_ignore_ascii_case(&words.no) {
            Some(false)
        } else {
            None
        }
    }

    /// `yes` or `no` to an offer that waits for an answer: `accept` or `decline`.
    fn offer_answer(&self, text: &str) -> Option<Move> {
        if !matches!(self.state.stage, crate::engine::Stage::Respond) {
            return None;
        }
        match text.trim().to_ascii_lowercase().as_str() {
            "yes" | "y" => Some(Move::Accept),
            "no" | "n" => Some(Move::Decline),
            _ => None,
        }
    }

    /// A run of piece symbols typed where the next piece is chosen (`GGRRBBGG`): the rest of the order, read
    /// as the notation reads the drops of a whole ply (every piece, or the chosen ones only), all or nothing.
    /// `None` when `text` is not such a run (a single symbol is an ordinary choice).
    fn drop_run(&mut self, text: &str) -> Option<Result<Output, SessionError>> {
        if !matches!(self.state.stage, crate::engine::Stage::Drop { .. }) || text.chars().count() < 2 {
            return None;
        }
        let symbols: Vec<&str> = self.engine.rules.kinds.iter().map(|k| k.symbol.as_str()).collect();
        // A hand holds at most 255 pieces: a longer run is no order of them (and is not searched).
        if text.len() > 255 || split_run(text.trim(), &symbols).is_none() {
            return None;
        }
        let start = self.partial_start.clone()?;
        let so_far = format_ply(&self.engine, &start, &self.partial);
        let glue = if so_far.contains(':') { "" } else { ":" };
        let whole = format!("{so_far}{glue}{}", text.trim());
        Some(match parse_ply(&self.engine, &start, &whole) {
            Ok(moves) => {
                self.cancel_partial();
                self.play_ply(moves)
            }
            Err(e) => Err(SessionError::Illegal(format!("`{}`: {e}", text.trim()))),
        })
    }

    /// Why a typed move was refused, in the player's words: the notation's reason, or that the pit is
    /// another player's, or the command it looks like (`mvoes`).
    fn explain_refusal(&self, text: &str, reason: String) -> String {
        let word = text.trim();
        if let Some(command) = shadowed_command(word) {
            return format!("{reason} (`{word}` is a place here; the command is `{command}`)");
        }
        let head = word.split_whitespace().next().unwrap_or("");
        let bare = head.strip_suffix("ccw").or_else(|| head.strip_suffix("cw")).unwrap_or(head);
        let rules = &self.engine.rules;
        let pit = rules.places.iter().position(|p| p.is_pit && (p.label == head || p.label == bare));
        if let Some(p) = pit {
            let owner = self.state.owner.get(p).copied().unwrap_or(crate::ir::NO_PLAYER);
            let startable = self
                .start_options()
                .iter()
                .any(|(_, m)| matches!(m, Move::Begin { place, .. } if *place as usize == p));
            if owner != crate::ir::NO_PLAYER && owner != self.state.to_move && !startable {
                let names = self.seat_names();
                let whose = match names[owner as usize].as_str() {
                    "you" => "yours".to_string(),
                    name => format!("{name}'s"),
                };
                let mine = if names[self.state.to_move as usize] == "you" { "yours" } else { "theirs" };
                return format!("pit {} is not {mine}: it is {whose}", rules.places[p].label);
            }
        }
        let known = rules.places.iter().any(|p| p.label == head || p.label == bare);
        if !known && word.len() >= 3 && word.chars().all(|c| c.is_ascii_alphabetic()) {
            if let Some(command) = crate::diag::did_you_mean(word, COMMANDS.iter().copied()) {
                return format!("`{word}` is neither a move nor a command (did you mean `{command}`?)");
            }
        }
        reason
    }

    fn decide(&mut self, mv: Move) -> Result<Output, SessionError> {
        let ply = self.state.ply;
        let first = self.partial.is_empty();
        if first {
            self.partial_start = Some(self.state.clone());
        }
        self.engine.apply(&mut self.state, mv).map_err(|e| SessionError::Illegal(e.to_string()))?;
        self.partial.push(mv);
        if self.state.ply == ply && !self.is_over() {
            // The board is drawn again as a turn starts, with the pit chosen marked.
            return Ok(Output { text: self.asking(), board_changed: first, quit: false });
        }
        let before = self.partial_start.take().unwrap_or_else(|| self.state.clone());
        let mover = before.to_move;
        let moves = std::mem::take(&mut self.partial);
        let text = format_ply(&self.engine, &before, &moves);
        self.plies.push(PlyRecord { before, moves, text: text.clone(), mover });
        self.redo.clear();
        self.listing.clear();
        Ok(Output::moved(format!("played {text}: {}", self.told())))
    }

    /// What is said when a decision is asked for, besides the question the prompt asks: the rule's own
    /// sentence, where it has one.
    fn asking(&self) -> String {
        self.question_doc().unwrap_or_default()
    }

    fn cancel_partial(&mut self) {
        if let Some(start) = self.partial_start.take() {
            self.state = start;
        }
        self.partial.clear();
    }

    fn choose(&mut self, n: usize) -> Result<Output, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.partial.is_empty() {
            let options = self.decision_options();
            return match options.get(n - 1) {
                Some(&(_, mv)) => self.decide(mv),
                None => Err(SessionError::Usage(format!(
                    "there are {} choices; pick 1 to {}",
                    options.len(),
                    options.len()
                ))),
            };
        }
        if self.listing.is_empty() {
            self.list_moves();
        }
        match self.listing.get(n - 1).cloned() {
            Some(moves) if moves.len() == 1 && self.needs_more(&moves) => self.decide(moves[0]),
            Some(moves) => self.play_ply(moves),
            None => Err(SessionError::Usage(format!("there is no move {n}; `moves` lists {}", self.listing.len()))),
        }
    }

    /// Whether some pit is labelled with a number (as on a ring): a bare number is then always a pit.
    fn pits_are_numbered(&self) -> bool {
        let rules = &self.engine.rules;
        rules
            .places
            .iter()
            .take(rules.n_pits)
            .any(|p| !p.label.is_empty() && p.label.bytes().all(|b| b.is_ascii_digit()))
    }

    /// Whether `text` is a move or a decision in its own right here (a pit of a numbered ring).
    fn names_move(&self, text: &str) -> bool {
        if self.is_over() {
            return false;
        }
        self.decision_options().iter().any(|(label, _)| label == text)
            || (self.partial.is_empty() && parse_ply(&self.engine, &self.state, text).is_ok())
    }

    /// A listed first decision that does not finish the ply.
    fn needs_more(&self, moves: &[Move]) -> bool {
        let mut probe = self.state.clone();
        let ply = probe.ply;
        moves.iter().all(|&m| self.engine.apply(&mut probe, m).is_ok()) && probe.ply == ply && probe.result.is_none()
    }

    /// The legal moves, numbered: whole plies when there are few, else the first decisions.
    fn list_moves(&mut self) -> String {
        let listing = self.list_moves_plain();
        let count = if self.partial.is_empty() { self.listing.len() } else { self.decision_options().len() };
        if count > 0 && (self.pits_are_numbered() || (1..=count).any(|i| self.names_move(&i.to_string()))) {
            return format!("{listing}\n(a number alone is a pit here: type #3 to play the third)");
        }
        listing
    }

    fn list_moves_plain(&mut self) -> String {
        if self.is_over() {
            return "the game is over".into();
        }
        if !self.partial.is_empty() {
            let labels = self.option_labels();
            return format!("{}:\n{}", self.decision_name(), numbered(&labels));
        }
        let found = enumerate_plies(&self.engine, &self.state, MAX_LISTED + 1);
        if found.plies.len() <= MAX_LISTED && !found.partial {
            let texts: Vec<String> = found.plies.iter().map(|p| format_ply(&self.engine, &self.state, p)).collect();
            self.listing = found.plies;
            return format!("legal moves:\n{}", numbered(&texts));
        }
        // Too many whole plies, or too many to search for: the first decisions are always known in full.
        let options = self.start_options();
        self.listing = options.iter().map(|(_, m)| vec![*m]).collect();
        let labels: Vec<String> = options.into_iter().map(|(l, _)| l).collect();
        let why = if found.partial {
            "the moves are too many to search through".to_string()
        } else {
            format!("more than {MAX_LISTED} moves")
        };
        format!("{why}; choose where to start (the rest is asked for):\n{}", numbered(&labels))
    }

    fn start_options(&self) -> Vec<(String, Move)> {
        let mut moves = Vec::new();
        self.engine.legal_moves(&self.state, &mut moves);
        moves.into_iter().map(|m| (self.label(m), m)).collect()
    }

    /// The options of the current decision, each with the label a person types.
    fn decision_options(&self) -> Vec<(String, Move)> {
        self.start_options()
    }

    fn option_labels(&self) -> Vec<String> {
        self.decision_options().into_iter().map(|(l, _)| l).collect()
    }

    fn decision_name(&self) -> String {
        use crate::engine::Stage;
        let can_stop = self.decision_options().iter().any(|&(_, m)| m == Move::Stop);
        if let Some(words) = crate::notation::answer_words(&self.engine, &self.state).filter(|w| w.named) {
            return format!("{} or {}", words.yes, words.no);
        }
        let name = match self.state.stage {
            Stage::Put { .. } if !can_stop => "next pit",
            Stage::Offer { .. } if !can_stop => "next pit to offer",
            Stage::Start => "move",
            Stage::Respond => "accept or decline the offer",
            Stage::Direction { .. } => "direction",
            Stage::LapDirection { .. } => "direction of the next lap",
            Stage::Drop { .. } => "next piece",
            Stage::Take { .. } => "piece to take",
            Stage::Then { .. } => "pits to take (or stop)",
            Stage::Put { .. } => "next pit (or stop)",
            Stage::Offer { .. } => "next pit to offer (or stop)",
            Stage::Capture { .. } => "capture or not",
            Stage::Relay { .. } => "relay or stop",
        };
        name.to_string()
    }

    /// The text of one decision.
    fn label(&self, mv: Move) -> String {
        let rules = &self.engine.rules;
        let place = |p: u16| rules.places.get(p as usize).map_or_else(|| p.to_string(), |i| i.label.clone());
        match mv {
            Move::Begin { action, place: p } => {
                let actions = &self.engine.phase(&self.state).actions;
                if action == 0 {
                    place(p)
                } else {
                    format!("{} {}", actions.get(action as usize).map_or("?", |a| a.name.as_str()), place(p))
                }
            }
            Move::Pass => "pass".into(),
            Move::Accept => "accept".into(),
            Move::Decline => "decline".into(),
            Move::Direction(crate::ir::Dir::Cw) => "cw".into(),
            Move::Direction(crate::ir::Dir::Ccw) => "ccw".into(),
            Move::Drop(k) => rules.kinds.get(k as usize).map_or("?".into(), |k| k.symbol.clone()),
            Move::Take { place: p, kind } => {
                format!("{}{}", place(p), rules.kinds.get(kind as usize).map_or("?", |k| k.symbol.as_str()))
            }
            Move::Pick(p) => place(p),
            Move::Stop => "stop".into(),
            Move::Capture(yes) => self.answer_label(crate::notation::Question::Capture, yes),
            Move::Relay(yes) => self.answer_label(crate::notation::Question::Relay, yes),
        }
    }

    /// The word that answers a yes/no question: the rule file's, where the question at hand has them, else
    /// `relay` and `stop`, `x` and `-x`.
    fn answer_label(&self, question: crate::notation::Question, yes: bool) -> String {
        use crate::notation::Question;
        match crate::notation::answer_words(&self.engine, &self.state) {
            Some(words) if words.named && words.question == question => words.word(yes).to_string(),
            _ => match (question, yes) {
                (Question::Relay, true) => "relay".into(),
                (Question::Relay, false) => "stop".into(),
                (Question::Capture, true) => "x".into(),
                (Question::Capture, false) => "-x".into(),
            },
        }
    }

    // ------------------------------------------------------------ history

    /// The plies played, numbered, each with who played it.
    /// Ply `n` of the history (from 1; the last without it) told step by step, each step with the rule of
    /// the file that made it (`crate::explain`).
    pub fn explain(&self, n: Option<usize>) -> Result<crate::explain::Explanation, SessionError> {
        if self.plies.is_empty() {
            return Err(SessionError::Usage("no move has been played yet: `explain` tells a move played".into()));
        }
        let n = n.unwrap_or(self.plies.len());
        let Some(ply) = n.checked_sub(1).and_then(|i| self.plies.get(i)) else {
            let played = crate::plural(self.plies.len() as u64, "move has", "moves have");
            return Err(SessionError::Usage(format!("no move {n}: {played} been played (`history` lists them)")));
        };
        Ok(crate::explain::explain(&self.engine, &self.source, &ply.before, &ply.moves))
    }

    pub fn history_text(&self) -> String {
        if self.plies.is_empty() {
            return "no move has been played yet".into();
        }
        let names = self.seat_names();
        let lines: Vec<String> = self
            .plies
            .iter()
            .enumerate()
            .map(|(i, p)| format!("{:>3}. {}: {}", i + 1, names[p.mover as usize], p.text))
            .collect();
        lines.join("\n")
    }

    /// The position after the first `n` plies of [`Session::history`] (the start for 0), and the ply that led
    /// to it (the position before it and its decisions); `None` past the plies played.
    pub fn position_after(&self, n: usize) -> Option<(State, Option<PlyMoves<'_>>)> {
        match n {
            0 => Some((self.start.clone(), None)),
            n if n < self.plies.len() => {
                let ply = &self.plies[n - 1];
                Some((self.plies[n].before.clone(), Some((&ply.before, &ply.moves[..]))))
            }
            n if n == self.plies.len() => {
                let at = if self.partial.is_empty() { self.state.clone() } else { self.partial_start.clone()? };
                Some((at, self.last_ply()))
            }
            _ => None,
        }
    }

    /// Who played each ply of [`Session::history`], by seat from 0.
    pub fn history_movers(&self) -> Vec<u8> {
        self.plies.iter().map(|p| p.mover).collect()
    }

    fn undo(&mut self) -> Result<Output, SessionError> {
        if !self.partial.is_empty() {
            self.cancel_partial();
            return Ok(Output::moved("turn cancelled"));
        }
        // Take back plies until a person's ply has been taken back, so the person is to move again.
        let mut undone = Vec::new();
        while let Some(record) = self.plies.pop() {
            self.state = record.before.clone();
            let human = self.seats[record.mover as usize] == Seat::Human;
            undone.push(record.text.clone());
            self.redo.push(record);
            if human {
                break;
            }
        }
        if undone.is_empty() {
            return Err(SessionError::Usage("nothing to undo".into()));
        }
        self.listing.clear();
        Ok(Output::moved(format!("took back {}", undone.join(", "))))
    }

    fn redo(&mut self) -> Result<Output, SessionError> {
        // A ply taken back is replayed from the position it was played in: the start of a ply.
        if !self.partial.is_empty() {
            return Err(SessionError::Usage("a turn is in progress: finish it, or `cancel` it and then `redo`".into()));
        }
        let mut redone = Vec::new();
        while let Some(record) = self.redo.pop() {
            // The record was taken back from this very position, so it replays; should it not, the rest of
            // the redo list is dropped rather than a ply recorded that was never played.
            if record.before != self.state {
                self.redo.clear();
                break;
            }
            let mut next = self.state.clone();
            if record.moves.iter().any(|&mv| self.engine.apply(&mut next, mv).is_err()) {
                self.redo.clear();
                break;
            }
            self.state = next;
            redone.push(record.text.clone());
            self.plies.push(record);
            if self.human_to_move() {
                break;
            }
        }
        if redone.is_empty() {
            return Err(SessionError::Usage("nothing to redo".into()));
        }
        Ok(Output::moved(format!("replayed {}", redone.join(", "))))
    }

    fn restart(&mut self) {
        self.state = self.start.clone();
        self.plies.clear();
        self.redo.clear();
        self.partial.clear();
        self.partial_start = None;
        self.listing.clear();
    }

    // ------------------------------------------------------------ help from the computer

    /// What the computer would play here, at `level` (normal by default), and what it does, in words: the
    /// same answer for the same position, as the search is seeded by the position. A solitaire without a
    /// level is searched for a win instead.
    fn hint(&mut self, level: Option<crate::ai::Level>) -> Result<String, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if self.engine.rules.players == 1 && self.partial.is_empty() && level.is_none() {
            return self.solve_hint();
        }
        let level = level.unwrap_or(crate::ai::Level::Normal);
        let first = self.hint_move_at(&self.state, level)?;
        let label = self.label(first);
        // The rest of the ply as the computer would play it, to say what the whole ply does.
        let start = self.partial_start.clone().unwrap_or_else(|| self.state.clone());
        let mut moves = self.partial.clone();
        let mut st = self.state.clone();
        let mut next = Some(first);
        while let Some(mv) = next.take() {
            self.engine.apply(&mut st, mv).map_err(|e| SessionError::Illegal(e.to_string()))?;
            moves.push(mv);
            if st.ply == start.ply && st.result.is_none() {
                next = Some(self.hint_move_at(&st, level)?);
            }
        }
        let told = crate::narrate::ply(&self.engine, &start, &moves, &st, &self.seat_names()).text;
        let what = if self.partial.is_empty() { self.typed_ply(&moves) } else { label };
        Ok(format!("hint ({}): {what} — {told}", level.name()))
    }

    /// A solitaire's hint: the first ply of a shortest win, within the hint's limits; when the search
    /// stops first, the most promising ply it found (or the computer player's choice).
    fn solve_hint(&mut self) -> Result<String, SessionError> {
        let options = crate::solve::SolveOptions {
            deadline: Some(std::time::Instant::now() + self.hint_limits.time),
            ..self.hint_limits.search
        };
        let cancel = self.cancel.clone();
        let mut progress = self.progress.take();
        let result = {
            let mut report = |p: crate::solve::Progress| {
                if let Some(f) = progress.as_mut() {
                    f(&format!(
                        "searching: {} positions, {} MiB, {:.1} s (Ctrl-C stops)",
                        p.states,
                        p.bytes >> 20,
                        p.elapsed.as_secs_f64()
                    ));
                }
            };
            let watch = crate::solve::Watch { cancel: Some(&cancel), progress: Some(&mut report) };
            crate::solve::solve_watched(&self.engine, &self.state, &options, watch)
        };
        self.progress = progress;
        let states = crate::plural(result.states as u64, "position", "positions");
        Ok(match (&result.verdict, result.line()) {
            (_, Some([])) => "the goal is already reached".into(),
            (_, Some(line)) => {
                let first = self.typed_ply(&line[0]);
                let plies = crate::plural(line.len() as u64, "ply", "plies");
                format!("play {first} ({plies} to win; {states} searched)")
            }
            (crate::solve::Verdict::Unsolvable, _) => format!("no line wins from here ({states} searched)"),
            _ => {
                let why = result.limit.map_or_else(|| "it stopped".to_string(), |l| l.describe(&options));
                let advice = match &result.best {
                    Some(ply) => format!(
                        "the most promising move found is {} (it leads closest to the goal)",
                        self.typed_ply(ply)
                    ),
                    None => {
                        let mv = self.hint_move()?;
                        format!("the computer would choose {}", self.label(mv))
                    }
                };
                format!("no win found yet: the search stopped after {states}, as {why}; {advice}")
            }
        })
    }

    /// A ply from the current position as a person types it: in notation, with `take none` where the
    /// notation's silence would be asked about.
    fn typed_ply(&self, moves: &[Move]) -> String {
        let text = format_ply(&self.engine, &self.state, moves);
        if self.untyped_optional_choice(&text, moves).is_some() {
            format!("{text} take none")
        } else {
            text
        }
    }

    /// Limits of a solitaire's `hint`: how long it searches, and its other bounds.
    pub fn set_hint_limits(&mut self, limits: HintLimits) {
        self.hint_limits = limits;
    }

    /// The flag that stops a long command (a hint's search, the computer's thinking) when set, as a
    /// Ctrl-C handler does. It is cleared when such a command starts.
    pub fn cancel_flag(&self) -> Arc<AtomicBool> {
        self.cancel.clone()
    }

    /// Where a long command reports its progress, as a line of text that replaces the last.
    pub fn set_progress(&mut self, progress: ProgressLine) {
        self.progress = Some(progress);
    }

    fn hint_move(&mut self) -> Result<Move, SessionError> {
        self.hint_move_at(&self.state, crate::ai::Level::Normal)
    }

    /// The computer's choice at `st` at `level`: a search of the level's playouts seeded by the position
    /// (and the game's seed), so the same position gets the same answer.
    fn hint_move_at(&self, st: &State, level: crate::ai::Level) -> Result<Move, SessionError> {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        st.hash(&mut hasher);
        self.seed.hash(&mut hasher);
        let kind = AiKind::Mcts(crate::ai::Budget::Playouts(level.playouts()));
        let mut player =
            kind.player_seeded(&self.engine, hasher.finish()).map_err(|e| SessionError::Usage(e.to_string()))?;
        player.set_cancel(self.cancel.clone());
        player.choose(&self.engine, st).map_err(|e| SessionError::Usage(e.to_string()))
    }

    fn ai_move(&mut self) -> Result<Output, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        let mv = self.hint_move()?;
        let label = self.label(mv);
        let out = self.decide(mv)?;
        Ok(Output::moved(format!("the computer chose {label}; {}", out.text)))
    }

    // ------------------------------------------------------------ saving

    /// Writes the game to `path` all or nothing ([`crate::io::write_atomic`]): on a failure the file that
    /// was there is kept, and so is the game.
    fn save(&self, path: &Path) -> Result<(), SessionError> {
        let json = self.save_json()?;
        crate::io::write_atomic(path, (json + "\n").as_bytes()).map_err(|e| {
            let kept =
                if path.exists() { format!("{} is as it was", path.display()) } else { "nothing was written".into() };
            SessionError::File(format!(
                "cannot save to {}: {}; {kept}, and the game goes on",
                path.display(),
                crate::io::io_message(&e)
            ))
        })
    }

    /// The game as a save file's JSON (`mancala-game/1`), as `save` writes it; the web playground hands it
    /// to the browser instead of writing a file.
    pub fn save_json(&self) -> Result<String, SessionError> {
        let file = SaveFile {
            format: SAVE_FORMAT.into(),
            rules: self.rules_path.clone(),
            rules_hash: self.rules_hash.clone(),
            variant: self.variant.clone(),
            players: self.engine.rules.players,
            seed: self.seed,
            seats: self.seats.iter().map(|s| s.to_string()).collect(),
            position: self.position.clone(),
            moves: self.history(),
        };
        // A save must load: its plies are replayed before it is written.
        if let Err(e) = replay(&self.engine, &self.start, &file.moves) {
            return Err(SessionError::File(format!(
                "the game cannot be saved, as it would not load ({e}); this is a bug"
            )));
        }
        serde_json::to_string_pretty(&file).map_err(|e| SessionError::File(format!("cannot write the game: {e}")))
    }

    /// Loads a saved game of these same rules, replacing the game in progress only if it all replays.
    fn load(&mut self, path: &Path) -> Result<usize, SessionError> {
        let text = read_save_text(path, MAX_SAVE_BYTES)?;
        self.load_json(&text, &path.display().to_string())
    }

    /// Loads a saved game from its JSON text, as `load` does from a file; `name` names it in messages.
    /// Returns the number of plies replayed.
    pub fn load_json(&mut self, text: &str, name: &str) -> Result<usize, SessionError> {
        let file = parse_save(text).map_err(|e| SessionError::File(format!("{}: {e}", name)))?;
        if file.variant != self.variant || file.players != self.engine.rules.players {
            return Err(SessionError::File(format!(
                "{} is a game of variant `{}` with {} players, but this session plays variant `{}` with {}; restart with --variant {} --players {}",
                name,
                file.variant,
                file.players,
                self.variant,
                self.engine.rules.players,
                file.variant,
                file.players
            )));
        }
        if file.rules_hash != self.rules_hash && file.rules_hash != self.text_hash {
            return Err(SessionError::File(format!(
                "{} was saved with other rules than {} (the rules changed, or it is another game); start `mancala play` with the rules it was saved with",
                name,
                self.rules_path
            )));
        }
        let start = match &file.position {
            Some(text) => parse_start_position(&self.engine, text).map_err(|e| {
                SessionError::File(format!("{}: the starting position `{text}` does not fit: {e}", name))
            })?,
            None => self.engine.initial_state(),
        };
        let records =
            replay(&self.engine, &start, &file.moves).map_err(|e| SessionError::File(format!("{}: {e}", name)))?;
        self.start = start;
        self.position = file.position;
        self.restart();
        if let Some(last) = records.last() {
            let mut state = last.before.clone();
            for &mv in &last.moves {
                self.engine.apply_unchecked(&mut state, mv);
            }
            self.state = state;
        }
        let n = records.len();
        self.plies = records;
        Ok(n)
    }

    // ------------------------------------------------------------ rules

    fn rules_summary(&self) -> String {
        crate::summary::summarize(&self.engine)
    }
}

/// The text without a final `take none`, and whether it had one.
fn strip_take_none(text: &str) -> (&str, bool) {
    let trimmed = text.trim_end();
    let lower = trimmed.to_ascii_lowercase();
    match lower.strip_suffix("none").map(str::trim_end) {
        Some(rest) if rest.ends_with(" take") => (trimmed[..rest.len() - " take".len()].trim_end(), true),
        _ => (text, false),
    }
}

/// Reads a saved game's file as text, bounded by `limit` bytes (a device such as `/dev/zero` never ends).
fn read_save_text(path: &Path, limit: usize) -> Result<String, SessionError> {
    let bytes = crate::io::read_limited(path, limit).map_err(|e| match e {
        crate::io::ReadError::TooLarge { .. } => {
            SessionError::File(format!("{} is {e}, too large for a saved game", path.display()))
        }
        _ => SessionError::File(format!("cannot read {}: {e}", path.display())),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        SessionError::File(format!("{} is not UTF-8 text (byte {})", path.display(), e.utf8_error().valid_up_to()))
    })
}

/// Reads a save file, with a clear message for what is wrong with it. A leading byte order mark, as some
/// editors write, is skipped.
pub fn parse_save(text: &str) -> Result<SaveFile, String> {
    let text = crate::io::strip_bom(text);
    let file: SaveFile = serde_json::from_str(text).map_err(|e| format!("not a saved game ({e})"))?;
    if file.format != SAVE_FORMAT {
        return Err(format!("unknown save format `{}` (expected `{SAVE_FORMAT}`)", file.format));
    }
    Ok(file)
}

fn replay(engine: &Engine, start: &State, moves: &[String]) -> Result<Vec<PlyRecord>, String> {
    let mut state = start.clone();
    let mut records = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        let moves =
            parse_ply(engine, &state, text).map_err(|e| format!("ply {} (`{text}`) cannot be played: {e}", i + 1))?;
        let before = state.clone();
        for &mv in &moves {
            engine.apply(&mut state, mv).map_err(|e| format!("ply {} (`{text}`): {e}", i + 1))?;
        }
        records.push(PlyRecord { mover: before.to_move, before, moves, text: text.clone() });
    }
    Ok(records)
}

/// A stable hash of a rule file's text (FNV-1a), as hex.
pub fn source_hash(source: &str) -> String {
    fnv_hex(source.as_bytes())
}

/// A stable hash of what the rules mean: the lowered rules, serialized, without the game's description.
/// Comments, layout and the `about` text do not change it; any change to how the game plays does.
pub fn rules_hash(engine: &Engine) -> String {
    let mut rules = engine.lowered.clone();
    rules.about.clear();
    let json = serde_json::to_vec(&rules).unwrap_or_default();
    fnv_hex(&json)
}

fn fnv_hex(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// `a`, `a or b`, `a, b or c`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// `text` as a run of piece symbols (`GGRRB`; symbols of any length, matched exactly or else ignoring
/// case), or `None`.
fn split_run(text: &str, symbols: &[&str]) -> Option<Vec<u8>> {
    fn go(text: &str, symbols: &[&str], fold: bool, out: &mut Vec<u8>) -> bool {
        if text.is_empty() {
            return true;
        }
        for (k, s) in symbols.iter().enumerate() {
            let fits = !s.is_empty()
                && text.len() >= s.len()
                && text.is_char_boundary(s.len())
                && if fold { text[..s.len()].eq_ignore_ascii_case(s) } else { &text[..s.len()] == *s };
            if fits {
                out.push(k as u8);
                if go(&text[s.len()..], symbols, fold, out) {
                    return true;
                }
                out.pop();
            }
        }
        false
    }
    let mut out = Vec::new();
    if go(text, symbols, false, &mut out) {
        return Some(out);
    }
    out.clear();
    go(text, symbols, true, &mut out).then_some(out)
}

fn numbered(items: &[String]) -> String {
    items.iter().enumerate().map(|(i, s)| format!("{:>3}. {s}", i + 1)).collect::<Vec<_>>().join("\n")
}

/// Short forms of commands, which give way to a place of the same label, and the commands' full names.
const SHORT_FORMS: &[(&str, &str)] = &[("m", "moves"), ("u", "undo"), ("h", "help"), ("q", "quit"), ("q!", "quit!")];

fn shadowed_command(text: &str) -> Option<&'static str> {
    SHORT_FORMS.iter().find(|(short, _)| *short == text).map(|&(_, full)| full)
}

const COMMANDS: &[&str] = &[
    "moves", "history", "explain", "undo", "redo", "show", "rules", "hint", "ai", "cancel", "save", "load", "new",
    "help", "quit",
];

const HELP: &str = "\
Type a move in notation, or one of these commands:
  moves           list the legal moves, numbered; then type a number to play one
                  (where the pits themselves are numbered, as on a ring, a number is a pit: `#3` plays
                  the third listed move)
  history         the moves played so far, and who played each
  explain [N]     the last move (or move N of the history) step by step, with the rule of each step
  undo, redo      take back your last move (and the computer's replies), or play it again
  show            draw the board again
  rules           a summary of the rules of this game
  hint [LEVEL]    what the computer would play, and what it does: at level easy, normal (the default) or
                  hard; the same position gets the same hint (a solitaire without a level is searched
                  for a win, for a few seconds)
  ai              let the computer make this decision for you
  cancel          abandon the choices made so far in this turn
  save FILE       save the game as JSON;  load FILE  loads one saved with these rules
  new             start again;  help  this text;  quit  leave (`new!`, `quit!`: without asking)
Short forms `m`, `u`, `h`, `q` work where no pit has that label. Ctrl-C stops a long command.
Moves: a pit label sows from it (`c`, `7`); add a direction (`7cw`), the order of the pieces (`7cw:RBR`),
pits to take away (`take 3,9`, or `take none`), pieces to capture (`x B5`); other actions by name
(`enter 4,11`, `offer c,d`, `accept`, `decline`, `pass`). Type just the pit to be asked for the rest, one
choice at a time; a choice left out that could be made is asked for too.";
