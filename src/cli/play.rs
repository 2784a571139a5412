//! `mancala play`: the REPL. A thin front end over `session::Session`: it reads lines (rustyline on a
//! terminal, plain lines from a pipe), prints the board and what the session answers.

use std::cell::RefCell;
use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Duration;

use mancala::ai::{seat_kinds, SeatAi};
use mancala::engine::Engine;
use mancala::session::{Command, Seat, Session};

/// Play a game: you against the computer, against friends at one keyboard, or a solitaire.
///
/// By default you play seat 1 and the computer (normal) plays every other seat. It thinks about a second
/// per decision, so a move made of several decisions (a direction, the order of the pieces) takes a few
/// seconds. Ctrl-C stops a long command (the computer's thinking, a hint's search), not the game.
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
    /// A computer player for a seat: a level (`2=easy`, `2=normal`, `2=hard`: 0.2, 1 or 3 seconds per
    /// decision), or a kind with its budget (`2=mcts:2000`, `3=greedy`, `2=alphabeta:6`).
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
    // A person at a terminal is asked before `new` or `quit` drops a game; a script says what it means.
    session.set_confirm_drops(interactive);
    if interactive {
        watch_interrupts(&mut session);
    }
    let colour = interactive && std::env::var_os("NO_COLOR").is_none();
    let mut input: Box<dyn Input> = if interactive {
        match Terminal::new() {
            Some(t) => Box::new(t),
            None => Box::new(Lines { stdin: std::io::stdin().lock() }),
        }
    } else {
        Box::new(Lines { stdin: std::io::stdin().lock() })
    };
    repl(&mut session, input.as_mut(), colour, interactive);
    ExitCode::SUCCESS
}

/// On a terminal: Ctrl-C while a command runs (the line editor has the terminal otherwise, and reads
/// Ctrl-C as a key) sets the session's cancel flag, which stops that command. Should the command not
/// notice within a few seconds (one that does not look at the flag), another Ctrl-C leaves; presses in
/// quick succession never do, so the game is not lost to an impatient hand. Long commands report their
/// progress on one line of standard error.
fn watch_interrupts(session: &mut Session) {
    const UNNOTICED: Duration = Duration::from_secs(3);
    let cancel = session.cancel_flag();
    let mut first_press = std::time::Instant::now();
    let handler = ctrlc::set_handler(move || {
        let now = std::time::Instant::now();
        if !cancel.swap(true, std::sync::atomic::Ordering::Relaxed) {
            first_press = now;
        } else if now.duration_since(first_press) >= UNNOTICED {
            eprintln!("\ninterrupted");
            std::process::exit(130);
        }
    });
    if handler.is_err() {
        return;
    }
    session.set_progress(Box::new(|line: &str| {
        let mut err = std::io::stderr();
        let _ = write!(err, "\r\x1b[K{line}");
        let _ = err.flush();
    }));
}

/// Clears the progress line of a long command, if one was drawn.
fn clear_progress(interactive: bool) {
    if interactive {
        let mut err = std::io::stderr();
        let _ = write!(err, "\r\x1b[K");
        let _ = err.flush();
    }
}

/// Who plays each seat: the computer players of `--ai`, people where asked, seat 1 by default, the
/// computer elsewhere.
fn seats(engine: &Engine, ai: &[SeatAi], human: &[u8]) -> Result<Vec<Seat>, String> {
    let players = engine.rules.players;
    let default_ai = mancala::ai::Level::Normal.kind();
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
    /// The width of the terminal, when there is one.
    fn width(&mut self) -> Option<usize> {
        None
    }
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
    fn width(&mut self) -> Option<usize> {
        self.editor.dimensions().map(|(w, _)| w)
    }

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

fn repl(session: &mut Session, input: &mut dyn Input, colour: bool, interactive: bool) {
    let rules = &session.engine.rules;
    let seats: Vec<String> = session.seats().iter().enumerate().map(|(i, s)| format!("{}: {s}", i + 1)).collect();
    // Everything said is wrapped to the terminal's width (a pipe gets whole lines).
    let say = |input: &mut dyn Input, text: &str| match input.width() {
        Some(width) => println!("{}", wrap(text, width.saturating_sub(1).max(20))),
        None => println!("{text}"),
    };
    say(
        input,
        &format!(
            "{} — {} player{}: {}. Type `help` for the commands.",
            rules.game,
            rules.players,
            if rules.players == 1 { "" } else { "s" },
            seats.join(", ")
        ),
    );
    if let Some(position) = session.position() {
        say(input, &format!("Starting from the position {position}"));
    }
    if let Some(goal) = mancala::summary::goal(&session.engine) {
        say(input, &format!("{goal} `hint` searches for a winning line."));
    }
    let mut show_board = true;
    loop {
        for line in session.computer_turns() {
            say(input, &line);
            show_board = true;
        }
        if show_board {
            let width = input.width().unwrap_or_else(terminal_width);
            print!("{}", board(session, colour, width));
            show_board = false;
            if session.is_over() {
                say(input, &result_text(session));
                say(input, "Type `new` to play again, `undo` to take back the last move, or `quit`.");
            }
        }
        if session.human_to_move() {
            let names = session.seat_names();
            if let Some(offer) = mancala::narrate::pending_offer(&session.engine, &session.state, &names) {
                say(input, &format!("{offer} Type `accept` or `decline`."));
            }
        }
        let _ = std::io::stdout().flush();
        let Some(line) = input.read(&session.prompt(), session.completions()) else {
            break;
        };
        if line.trim().is_empty() {
            continue;
        }
        // The rules are wrapped to the terminal, which only the front end knows.
        if line.parse::<Command>() == Ok(Command::Rules) {
            println!(
                "{}",
                mancala::summary::summarize_width(&session.engine, input.width().unwrap_or(78).saturating_sub(2))
            );
            continue;
        }
        let result = session.parse_command(&line).and_then(|cmd| session.execute(cmd));
        clear_progress(interactive);
        match result {
            Ok(out) => {
                // A turn in progress shows the board with the pit chosen, then what is asked about it.
                if out.board_changed && session.in_turn() {
                    let width = input.width().unwrap_or_else(terminal_width);
                    print!("{}", board(session, colour, width));
                }
                if !out.text.is_empty() {
                    say(input, &out.text);
                }
                if out.quit {
                    break;
                }
                show_board |= out.board_changed && !session.in_turn();
            }
            Err(e) => say(input, &format!("error: {e}")),
        }
    }
}

/// `text` wrapped to `width` columns, line by line: each line keeps its indentation, and the lines of a
/// two-column list (`  moves           list the legal moves`) hang under the second column.
fn wrap(text: &str, width: usize) -> String {
    let lines: Vec<String> = text.lines().map(|line| wrap_line(line, width)).collect();
    lines.join("\n")
}

fn wrap_line(line: &str, width: usize) -> String {
    if textwrap::core::display_width(line) <= width {
        return line.to_string();
    }
    let body = line.trim_start();
    let indent = line.len() - body.len();
    // The second column starts after the first gap of two spaces or more, within the first 30 columns; a
    // numbered step (`  3. last in A: ...`, as `explain` tells a ply) hangs under its text.
    let hang = body
        .find("  ")
        .filter(|&gap| indent + gap < 30)
        .map(|gap| indent + gap + body[gap..].len() - body[gap..].trim_start().len())
        .or_else(|| numbered_step(body).map(|marker| indent + marker))
        .filter(|&h| h + 20 <= width)
        .unwrap_or(indent);
    let (first, rest) = (" ".repeat(indent), " ".repeat(hang));
    let options = textwrap::Options::new(width).initial_indent(&first).subsequent_indent(&rest);
    textwrap::wrap(body, options).join("\n")
}

/// The length of the number that starts a numbered step (`12. `), with its point and space.
fn numbered_step(body: &str) -> Option<usize> {
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0 && body[digits..].starts_with(". ")).then_some(digits + 2)
}

/// The board as the person to move sees it (or the first person, while the computer moves), in the
/// seats' names, with the pits of the last ply marked.
fn board(session: &Session, colour: bool, width: usize) -> String {
    let humans: Vec<u8> =
        (0..session.seats().len() as u8).filter(|&s| session.seats()[s as usize] == Seat::Human).collect();
    let to_move = session.decider();
    let viewer = if humans.contains(&to_move) { Some(to_move) } else { humans.first().copied() };
    // While a move waits for a decision, the pit it is about is marked; otherwise the last ply's.
    let marks = match session.chosen_place() {
        Some(chosen) => vec![chosen],
        None => session.last_ply().map_or(Vec::new(), |(before, moves)| {
            mancala::narrate::ply(&session.engine, before, moves, &session.state, &[]).marks
        }),
    };
    let view = mancala::board::View { colour, viewer, names: session.seat_names(), marks, width };
    mancala::board::render_view(&session.engine, &session.state, &view)
}

/// The terminal's width from `COLUMNS`, else 80.
fn terminal_width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(80)
}

/// The result of a finished game, in plain words: who won, the scores, and why the game ended where that
/// is not just the rules' own end.
fn result_text(session: &Session) -> String {
    let Some(outcome) = &session.state.result else {
        return String::new();
    };
    let why = reason_words(session, outcome.reason);
    if session.engine.rules.goal.is_some() {
        return if outcome.winners != 0 {
            "Solved: you win!".into()
        } else {
            format!("The game is lost: {}.", why.unwrap_or_else(|| "the goal cannot be reached".into()))
        };
    }
    // The scores stand on the board's last line just above; this line says who won, in the seats' names.
    let names = session.seat_names();
    let verdict = match outcome.winner_list().as_slice() {
        [] => "a draw".to_string(),
        [w] if names[*w as usize] == "you" => "you win".to_string(),
        [w] => format!("{} wins", names[*w as usize]),
        ws => format!(
            "{} share the win",
            ws.iter().map(|&w| names[w as usize].as_str()).collect::<Vec<_>>().join(" and ")
        ),
    };
    let why = why.map_or_else(String::new, |w| format!(" ({w})"));
    format!("Game over{why}: {verdict}.")
}

/// Why the game ended, when it was not an end rule of the game's own (whose ending the board shows).
fn reason_words(session: &Session, reason: mancala::engine::EndReason) -> Option<String> {
    use mancala::engine::EndReason;
    let player = &session.seat_names()[session.state.to_move as usize];
    let solitaire = session.engine.rules.players == 1;
    Some(match reason {
        EndReason::Condition => return None,
        EndReason::Repetition => "a position came back".into(),
        EndReason::Stuck if solitaire => "no move is left".into(),
        EndReason::Stuck => format!("{player} cannot move"),
        EndReason::NobodyCanMove => "nobody can move".into(),
        EndReason::NoCapture => "nothing was captured for too long".into(),
        EndReason::LastStanding if solitaire => format!("{player} is out"),
        EndReason::LastStanding => "the other players are out".into(),
        EndReason::Obligation => format!("{player} cannot make the move the rules demand"),
        EndReason::Limit => format!("the game reached its limit of {} plies", session.engine.rules.limit),
        EndReason::Endless => "the last move would never have ended".into(),
        EndReason::RepetitionDraw => "a position came back, which draws the game".into(),
        EndReason::ConditionDraw => "a `draw when` rule held, which draws the game".into(),
        EndReason::Match => format!("the match is over after {} rounds", session.state.rounds.len()),
        EndReason::RoundLimit => format!("the match's {} rounds are played", session.state.rounds.len()),
    })
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn a_numbered_step_hangs_under_its_text_and_a_list_under_its_second_column() {
        let step = "   3. last in A: capture tested: it does not hold (line 23: capture when here in pits)";
        assert_eq!(
            wrap(step, 50),
            "   3. last in A: capture tested: it does not hold\n      (line 23: capture when here in pits)"
        );
        let entry = "  undo, redo     take back your last move (and the computer's replies), or";
        assert_eq!(
            wrap(entry, 60),
            "  undo, redo     take back your last move (and the\n                 computer's replies), or"
        );
    }
}
