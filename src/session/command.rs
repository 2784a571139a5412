//! The commands typed at the prompt, who plays a seat, and what goes wrong with a command.

use super::*;

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
    /// The position in the notation of `--position`, at the start of the turn in progress.
    Position,
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
            "position" => no_args(Command::Position),
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

/// Short forms of commands, which give way to a place of the same label, and the commands' full names.
const SHORT_FORMS: &[(&str, &str)] = &[("m", "moves"), ("u", "undo"), ("h", "help"), ("q", "quit"), ("q!", "quit!")];

pub(super) fn shadowed_command(text: &str) -> Option<&'static str> {
    SHORT_FORMS.iter().find(|(short, _)| *short == text).map(|&(_, full)| full)
}

pub(super) const COMMANDS: &[&str] = &[
    "moves", "history", "explain", "undo", "redo", "show", "position", "rules", "hint", "ai", "cancel", "save", "load",
    "new", "help", "quit",
];

pub(super) const HELP: &str = "\
Type a move in notation, or one of these commands:
  moves          list the legal moves, numbered; type a number to play one
                 (where the pits themselves are numbered, as on a ring, a
                 number is a pit: `#3` plays the third listed move)
  history        the moves played so far, and who played each
  explain [N]    the last move (or move N of the history) step by step,
                 with the rule of each step
  undo, redo     take back your last move (and the computer's replies), or
                 play it again
  show           draw the board again
  position       the position in the notation `--position` reads, to start
                 a game or `explain` from it
  rules          a summary of the rules of this game
  hint [LEVEL]   what the computer would play, and what it does: at level
                 easy, normal (the default) or hard; the same position gets
                 the same hint (a solitaire without a level is searched for
                 a win, for a few seconds)
  ai             let the computer make this decision for you
  cancel         abandon the choices made so far in this turn
  save FILE      save the game as JSON;  load FILE  loads one saved with
                 these rules
  new            start again;  help  this text;  quit  leave (`new!`,
                 `quit!`: without asking)
Short forms `m`, `u`, `h`, `q` work where no pit has that label. Ctrl-C stops
a long command.
Moves: a pit label sows from it (`c`, `7`); add a direction (`7cw`), the order
of the pieces (`7cw:RBR`), pits to take away (`take 3,9`, or `take none`),
pieces to capture (`x B5`); other actions by name (`enter 4,11`, `offer c,d`,
`accept`, `decline`, `pass`). Type just the pit to be asked for the rest, one
choice at a time; a choice left out that could be made is asked for too.";

#[cfg(test)]
mod tests {
    /// The help fits a terminal of 80 columns as it is, so that one of 80 (or a pipe) shows it unbroken.
    #[test]
    fn the_help_fits_80_columns() {
        for line in super::HELP.lines() {
            assert!(line.chars().count() <= 80, "{} columns: {line:?}", line.chars().count());
        }
    }
}
