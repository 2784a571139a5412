//! `mancala play`: the REPL. A thin front end over `session::Session`: it reads lines (rustyline on a
//! terminal, plain lines from a pipe), prints the board and what the session answers.

use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

use mancala::ai::{seat_kinds, AiKind, Budget, SeatAi};
use mancala::engine::Engine;
use mancala::session::{Command, Seat, Session};

/// Play a game: you against the computer, against friends at one keyboard, or a solitaire.
///
/// By default you play seat 1 and the computer (mcts, about a second a move) plays every other seat.
/// Type `help` at the prompt for the commands, `moves` for the legal moves.
///
/// Examples:
///   mancala play games/kalah.mancala
///   mancala play games/gulek.mancala --players 3 --ai 2=greedy
///   mancala play games/gore.mancala --human 2          (two people)
///   mancala play games/gulek-solo.mancala --variant v1
///   mancala play games/kalah.mancala --position 'a0 b0 c0 d0 e1 f2 A1 B0 C0 D0 E0 F1 store(1)=22 store(2)=21'
#[derive(Debug, clap::Args)]
#[command(verbatim_doc_comment)]
pub struct PlayArgs {
    /// The rule file.
    pub file: PathBuf,
    /// The variant to play (see `mancala variants FILE`).
    #[arg(long)]
    pub variant: Option<String>,
    /// The number of players, for games that allow several.
    #[arg(long)]
    pub players: Option<u8>,
    /// Seed for the computer players.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A computer player for a seat, e.g. `2=mcts:2000`, `3=greedy`, `2=alphabeta:6`.
    #[arg(long = "ai", value_name = "SEAT=KIND")]
    pub ai: Vec<SeatAi>,
    /// A seat played by a person (seat 1 is, unless given to the computer).
    #[arg(long = "human", value_name = "SEAT")]
    pub human: Vec<u8>,
    /// Start from this position instead of the game's start, in the position format (as `mancala solve
    /// --position`); `new` and saved games start from it too.
    #[arg(long, value_name = "POS", conflicts_with = "load")]
    pub position: Option<String>,
    /// Load a saved game first.
    #[arg(long)]
    pub load: Option<PathBuf>,
}

pub fn run(args: &PlayArgs) -> ExitCode {
    // The rule file is read, checked and reported as every command does it.
    let (engine, source) = match super::load_engine_and_source(&args.file, args.variant.as_deref(), args.players) {
        Ok(loaded) => loaded,
        Err(failure) => return failure.report().into(),
    };
    let name = args.file.display().to_string();
    let seats = match seats(&engine, &args.ai, &args.human) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let mut session = match Session::new(engine, &name, &source, seats, args.seed) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(position) = &args.position {
        if let Err(e) = session.start_from(position) {
            eprintln!("error: --position: {e}");
            return ExitCode::from(2);
        }
    }
    if let Some(path) = &args.load {
        if let Err(e) = session.execute(Command::Load(path.clone())) {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
    }
    let interactive = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    let colour = interactive && std::env::var_os("NO_COLOR").is_none();
    let mut input: Box<dyn Input> = if interactive {
        match Terminal::new() {
            Some(t) => Box::new(t),
            None => Box::new(Lines { stdin: std::io::stdin().lock() }),
        }
    } else {
        Box::new(Lines { stdin: std::io::stdin().lock() })
    };
    repl(&mut session, input.as_mut(), colour);
    ExitCode::SUCCESS
}

/// Who plays each seat: the computer players of `--ai`, people where asked, seat 1 by default, the
/// computer elsewhere.
fn seats(engine: &Engine, ai: &[SeatAi], human: &[u8]) -> Result<Vec<Seat>, String> {
    let players = engine.rules.players;
    let default_ai = AiKind::Mcts(Budget::Time(Duration::from_millis(900)));
    let computers = seat_kinds(engine, ai).map_err(|e| format!("--ai: {e}"))?;
    let mut seats: Vec<Seat> =
        (0..players).map(|p| if p == 0 { Seat::Human } else { Seat::Computer(default_ai) }).collect();
    for &h in human {
        if h == 0 || h > players {
            return Err(format!("--human {h}: the seats are 1 to {players}"));
        }
        if let Some(kind) = computers[h as usize - 1] {
            return Err(format!(
                "seat {h} is given both to a person (--human {h}) and to the computer (--ai {h}={kind})"
            ));
        }
        seats[h as usize - 1] = Seat::Human;
    }
    for (seat, kind) in seats.iter_mut().zip(computers) {
        if let Some(kind) = kind {
            *seat = Seat::Computer(kind);
        }
    }
    Ok(seats)
}

/// Where lines come from.
trait Input {
    /// The next line, or `None` at the end of input.
    fn read(&mut self, prompt: &str, completions: Vec<String>) -> Option<String>;
}

/// Plain lines from standard input, for scripts and tests: the prompt is printed, the line echoed.
struct Lines<'a> {
    stdin: std::io::StdinLock<'a>,
}

impl Input for Lines<'_> {
    fn read(&mut self, prompt: &str, _completions: Vec<String>) -> Option<String> {
        let mut line = String::new();
        match self.stdin.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                println!("{prompt}{line}");
                Some(line)
            }
        }
    }
}

/// A terminal, with line editing, history and tab completion of commands and legal moves.
struct Terminal {
    editor: rustyline::Editor<Completions, rustyline::history::DefaultHistory>,
    words: Rc<RefCell<Vec<String>>>,
}

impl Terminal {
    fn new() -> Option<Terminal> {
        let words = Rc::new(RefCell::new(Vec::new()));
        let config = rustyline::Config::builder()
            .completion_type(rustyline::CompletionType::List)
            .auto_add_history(true)
            .build();
        let mut editor = rustyline::Editor::with_config(config).ok()?;
        editor.set_helper(Some(Completions { words: words.clone() }));
        Some(Terminal { editor, words })
    }
}

impl Input for Terminal {
    fn read(&mut self, prompt: &str, completions: Vec<String>) -> Option<String> {
        *self.words.borrow_mut() = completions;
        loop {
            match self.editor.readline(prompt) {
                Ok(line) => return Some(line),
                Err(rustyline::error::ReadlineError::Interrupted) => {
                    println!("(type `quit` to leave)");
                }
                Err(_) => return None,
            }
        }
    }
}

struct Completions {
    words: Rc<RefCell<Vec<String>>>,
}

impl rustyline::completion::Completer for Completions {
    type Candidate = String;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &rustyline::Context<'_>,
    ) -> rustyline::Result<(usize, Vec<String>)> {
        let typed = &line[..pos];
        let matches = self.words.borrow().iter().filter(|w| w.starts_with(typed)).cloned().collect();
        Ok((0, matches))
    }
}

impl rustyline::hint::Hinter for Completions {
    type Hint = String;
}
impl rustyline::highlight::Highlighter for Completions {}
impl rustyline::validate::Validator for Completions {}
impl rustyline::Helper for Completions {}

fn repl(session: &mut Session, input: &mut dyn Input, colour: bool) {
    let rules = &session.engine.rules;
    let seats: Vec<String> = session.seats().iter().enumerate().map(|(i, s)| format!("{}: {s}", i + 1)).collect();
    println!(
        "{} — {} player{}: {}. Type `help` for the commands.",
        rules.game,
        rules.players,
        if rules.players == 1 { "" } else { "s" },
        seats.join(", ")
    );
    if let Some(position) = session.position() {
        println!("Starting from the position {position}");
    }
    let mut show_board = true;
    loop {
        for line in session.computer_turns() {
            println!("{line}");
            show_board = true;
        }
        if show_board {
            print!("{}", mancala::board::render(&session.engine, &session.state, colour));
            show_board = false;
            if session.is_over() {
                println!("{}", result_text(session));
                println!("Type `new` to play again, `undo` to take back the last move, or `quit`.");
            }
        }
        let _ = std::io::stdout().flush();
        let Some(line) = input.read(&session.prompt(), session.completions()) else {
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        match line.parse::<Command>().and_then(|cmd| session.execute(cmd)) {
            Ok(out) => {
                if !out.text.is_empty() {
                    println!("{}", out.text);
                }
                if out.quit {
                    break;
                }
                show_board |= out.board_changed;
            }
            Err(e) => println!("error: {e}"),
        }
    }
}

fn result_text(session: &Session) -> String {
    let Some(outcome) = &session.state.result else {
        return String::new();
    };
    let reason = reason_words(outcome.reason);
    if session.engine.rules.goal.is_some() {
        return if outcome.winners != 0 {
            "Solved: you win!".into()
        } else {
            format!("No move is left: the game is lost ({reason}).")
        };
    }
    let winners = outcome.winner_list();
    let scores: Vec<String> =
        outcome.scores.iter().enumerate().map(|(i, s)| format!("player {}: {s}", i + 1)).collect();
    let verdict = match winners.as_slice() {
        [] => "a draw".to_string(),
        [w] => format!("player {} wins", w + 1),
        ws => {
            format!("players {} share the win", ws.iter().map(|w| (w + 1).to_string()).collect::<Vec<_>>().join(", "))
        }
    };
    format!("Game over ({reason}): {verdict} — {}.", scores.join(", "))
}

fn reason_words(reason: mancala::engine::EndReason) -> &'static str {
    use mancala::engine::EndReason;
    match reason {
        EndReason::Condition => "an end rule holds",
        EndReason::Repetition => "the position repeated",
        EndReason::Stuck => "the player to move cannot move",
        EndReason::NobodyCanMove => "nobody can move",
        EndReason::NoCapture => "no capture for too long",
        EndReason::LastStanding => "one player is left",
        EndReason::Obligation => "an obligation cannot be met",
        EndReason::Limit => "the ply limit was reached",
    }
}
