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

mod command;
mod computer;
mod play;
mod save;

use command::{shadowed_command, COMMANDS, HELP};
pub use command::{Command, Seat, SessionError};
pub use computer::HintLimits;
use play::or_list;
pub use save::{parse_save, rules_hash, source_hash, SaveFile};

/// The most plies `moves` lists before it lists first decisions instead.
const MAX_LISTED: usize = 60;

/// One ply played: who, what, and the position before it (for undo).
#[derive(Debug, Clone)]
struct PlyRecord {
    before: State,
    moves: Vec<Move>,
    text: String,
    mover: u8,
}

/// The game being played, and how to play it.
pub struct Session {
    pub engine: Arc<Engine>,
    rules_path: String,
    /// What the rules mean (see [`rules_hash`]), and the hash of the rule file's text that saves before it
    /// held, still accepted.
    rules_hash: String,
    text_hash: String,
    /// The rule file's text, for the lines of the rules that `explain` names.
    source: Arc<str>,
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
        Session::new_shared(Arc::new(engine), rules_path, Arc::from(source), seats, seed)
    }

    /// A new game of rules shared with other games (the playground's games of one text share them).
    pub fn new_shared(
        engine: Arc<Engine>,
        rules_path: &str,
        source: Arc<str>,
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
            text_hash: source_hash(&source),
            source,
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

    /// Whether a person decides next: the player to move, or his opponent where he answers in the middle
    /// of the move (`Engine::decider`).
    pub fn human_to_move(&self) -> bool {
        !self.is_over() && self.seats.get(self.decider() as usize) == Some(&Seat::Human)
    }

    /// The seat that makes the decision at hand.
    pub fn decider(&self) -> u8 {
        self.engine.decider(&self.state)
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
            Command::Position => Ok(Output::text(self.position_text())),
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

    /// The computer seats' decisions until the ply is over: the ply's text and whether it is over, which it
    /// is not where a person must decide in the middle of it (an answer to the computer's move, `opponent
    /// may`): the decisions so far are then the turn in progress. `None` when the computer cannot choose. A
    /// turn in progress is taken up.
    fn computer_ply(&mut self) -> Option<(String, bool)> {
        let start = self.partial_start.take().unwrap_or_else(|| self.state.clone());
        let ply = start.ply;
        let mover = start.to_move;
        let mut moves = std::mem::take(&mut self.partial);
        while self.state.ply == ply && !self.is_over() {
            let seat = self.engine.decider(&self.state) as usize;
            let Some(player) = self.computers.get_mut(seat).and_then(Option::as_mut) else {
                // A person answers: the ply waits for him, its decisions so far the turn in progress.
                let text = format_ply(&self.engine, &start, &moves);
                self.partial = moves;
                self.partial_start = Some(start);
                return Some((text, false));
            };
            let mv = player.choose(&self.engine, &self.state).ok()?;
            self.engine.apply(&mut self.state, mv).ok()?;
            moves.push(mv);
        }
        let text = format_ply(&self.engine, &start, &moves);
        self.plies.push(PlyRecord { before: start, moves, text: text.clone(), mover });
        self.redo.clear();
        Some((text, true))
    }

    /// Lets the computer seat to move play one ply; the line that says what it did, or `None` when a
    /// person is to move or the game is over. The web playground shows the computer's plies one by one.
    pub fn computer_turn(&mut self) -> Option<String> {
        if self.is_over() || self.human_to_move() {
            return None;
        }
        self.cancel.store(false, Ordering::Relaxed);
        let mover = self.partial_start.as_ref().unwrap_or(&self.state).to_move;
        let (text, over) = self.computer_ply()?;
        let names = self.seat_names();
        let who = &names[mover as usize];
        if !over {
            // A person decides in the middle of the ply: the opponent answering the computer's move, or the
            // mover going on after the computer answered his.
            let decider = self.decider();
            if decider != mover {
                let answerer = &names[decider as usize];
                return Some(format!(
                    "{who} ({}) is playing {text}: {answerer} may answer",
                    self.seats[mover as usize]
                ));
            }
            return Some(format!("{who} going on: {text}"));
        }
        if self.seats[mover as usize] == Seat::Human {
            // A person's ply, ended by the computer's answer in it.
            return Some(format!("{who} played {text}: {}", self.told()));
        }
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

    /// The position in the notation `--position` reads: where a turn is in progress, its start (the middle
    /// of a move is no position one can start from).
    fn position_text(&self) -> String {
        let at = crate::notation::format_position(&self.engine, self.partial_start.as_ref().unwrap_or(&self.state));
        if self.in_turn() {
            format!("position at the start of this turn: {at}")
        } else {
            format!("position: {at}")
        }
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
        let who = self.seat_names().swap_remove(self.decider() as usize);
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

    // ------------------------------------------------------------ rules

    fn rules_summary(&self) -> String {
        crate::summary::summarize(&self.engine)
    }
}
