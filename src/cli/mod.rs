//! The command-line front end: argument parsing, file reading, and rendering at the edge.
//!
//! Every command returns a [`Status`] or a [`Failure`] as data; only [`main`] prints failures and turns
//! them into exit codes: 0 all good, 1 a rule file has errors, 2 a usage or I/O problem.

use std::io::IsTerminal;
use std::path::Path;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use mancala::diag::{self, Diagnostic, Style};
use mancala::engine::Engine;

mod analyze;
mod bench;
mod check;
mod explain;
mod fmt;
mod games;
mod lsp;
mod merge;
mod play;
mod serve;
mod simulate;
mod solve;
mod variants;

const EXAMPLES: &str = "\
Examples:
  mancala check games/*.mancala
  mancala check --format json games/kalah.mancala
  mancala fmt --check games/*.mancala
  mancala explain games/kalah.mancala c      (one ply, step by step, with the rules that made it)
  mancala variants games/gulek-solo.mancala
  mancala games --rows 4              (the shipped games, filtered)
  mancala play games/kalah.mancala
  mancala play kalah                  (a shipped game, by name, from anywhere)
  mancala play games/kalah.mancala --ai 2=alphabeta:6 --position 'a1 f2 A1 F1 store(1)=22 store(2)=21'
  mancala simulate games/kalah.mancala --games 1000 --seed 7
  mancala simulate games/kalah.mancala --ai 1=greedy --ai 2=mcts:2000 --games 20
  mancala simulate games/gulek.mancala --players 4 --json
  mancala simulate kalah --games 100000 --shard 2/4 --json   (a part of a run; `mancala merge` adds them)
  mancala bench games/oware.mancala --seconds 5
  mancala solve games/gulek-solo.mancala --position '1=3 2=1'
  mancala solve kalah --position 'a2 b1 A1 B2' --moves   (two players: the value under perfect play)
  mancala analyze kalah --report kalah.html   (who wins at three strengths, lengths, rules, openings)
  mancala serve                       (the web playground: open the printed address)
  mancala lsp                         (the language server, for editors: see the README)

A FILE may also name a game shipped with the tool: a file name of games/ without `.mancala`. It works
from any directory, also after `cargo install`; a file of that name, where there is one, wins.

Exit status: 0 success, 1 a rule file has errors, 2 a usage or I/O error, 3 a search stopped before it
could answer (`solve`).";

/// Write the rules of a mancala game as text, check them, and play them.
#[derive(Debug, Parser)]
#[command(name = "mancala", version, after_help = EXAMPLES, arg_required_else_help = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Check(check::Args),
    Fmt(fmt::Args),
    Explain(explain::Args),
    Variants(variants::Args),
    Games(games::Args),
    Play(play::PlayArgs),
    Simulate(simulate::Args),
    Merge(merge::Args),
    Bench(bench::Args),
    Solve(solve::Args),
    Analyze(analyze::Args),
    Serve(serve::Args),
    Lsp(lsp::Args),
}

/// How a command ended, when it could run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Status {
    /// Exit 0.
    Ok,
    /// Exit 1: a rule file has errors.
    Invalid,
    /// Exit 2: an argument was wrong or a file could not be read or written (already reported).
    Usage,
    /// Exit 3: a search stopped at its bound before it could answer (`solve`).
    Incomplete,
}

impl From<Status> for ExitCode {
    fn from(s: Status) -> ExitCode {
        ExitCode::from(match s {
            Status::Ok => 0,
            Status::Invalid => 1,
            Status::Usage => 2,
            Status::Incomplete => 3,
        })
    }
}

/// Why a command could not do its work.
#[derive(Debug)]
pub enum Failure {
    /// A bad argument, or a file that cannot be read or written: exit 2.
    Usage { message: String, help: Option<String> },
    /// A rule file with errors: exit 1, its diagnostics drawn on stderr.
    Invalid { file: String, source: String, diagnostics: Vec<Diagnostic> },
}

impl Failure {
    pub fn usage(message: impl Into<String>) -> Failure {
        Failure::Usage { message: message.into(), help: None }
    }

    /// Prints the failure on stderr; returns the status to exit with.
    fn report(self) -> Status {
        match self {
            Failure::Usage { message, help } => {
                eprintln!("error: {message}");
                if let Some(help) = help {
                    eprintln!("  help: {help}");
                }
                Status::Usage
            }
            Failure::Invalid { file, source, diagnostics } => {
                eprint!("{}", render(&file, &source, &diagnostics, style_for(std::io::stderr().is_terminal())));
                Status::Invalid
            }
        }
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        // The REPL reports its own failures.
        Command::Play(args) => return play::run(&args),
        Command::Check(args) => check::run(args),
        Command::Fmt(args) => fmt::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Variants(args) => variants::run(args),
        Command::Games(args) => games::run(args),
        Command::Simulate(args) => simulate::run(args),
        Command::Merge(args) => merge::run(args),
        Command::Solve(args) => solve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Lsp(args) => lsp::run(args),
    };
    result.unwrap_or_else(Failure::report).into()
}

/// Colour only on a terminal, and never when `NO_COLOR` is set to something (<https://no-color.org>).
pub fn style_for(is_terminal: bool) -> Style {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    if is_terminal && !no_color {
        Style::Colour
    } else {
        Style::Plain
    }
}

/// Renders diagnostics (see [`diag::render`]).
pub fn render(file: &str, source: &str, diagnostics: &[Diagnostic], style: Style) -> String {
    diag::render(file, source, diagnostics, style)
}

/// A rule file as read from disk.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as the user gave it, for messages.
    pub name: String,
    /// The text; bytes that are not UTF-8 are replaced by U+FFFD (and reported in `encoding`).
    pub text: String,
    /// The error for a file that is not UTF-8, its span in bytes of the file.
    pub encoding: Option<Diagnostic>,
}

/// Reads a rule file: the file at `path`, or else the shipped game of that name (`kalah`), so that the
/// shipped games work anywhere; a real file wins over a name. A file that cannot be read is a usage
/// failure; one that is not UTF-8 is read anyway, with a diagnostic.
pub fn read_source(path: &Path) -> Result<Source, Failure> {
    let name = path.display().to_string();
    let bytes = match mancala::io::read_limited(path, mancala::syntax::MAX_SOURCE_BYTES) {
        Ok(bytes) => bytes,
        Err(mancala::io::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
            return match mancala::shipped::find(&name) {
                Some(game) => Ok(Source { name, text: game.text.to_string(), encoding: None }),
                None => Err(Failure::Usage {
                    message: format!("cannot read {name}: {}", io_message(&e)),
                    help: Some(format!("a shipped game can be named instead of a file: {}", mancala::shipped::names())),
                }),
            };
        }
        Err(e) => {
            let help = match e {
                mancala::io::ReadError::TooLarge { .. } => {
                    Some("is this the right file? Rule files are text of a few kilobytes".to_string())
                }
                mancala::io::ReadError::NotAFile { .. } => Some("give the path of a rule file".to_string()),
                mancala::io::ReadError::Io(_) => None,
            };
            return Err(Failure::Usage { message: format!("cannot read {name}: {e}"), help });
        }
    };
    match String::from_utf8(bytes) {
        Ok(text) => Ok(Source { name, text, encoding: None }),
        Err(e) => {
            let d = mancala::syntax::decode(e.as_bytes()).err().map(Diagnostic::from);
            Ok(Source { name, text: String::from_utf8_lossy(e.as_bytes()).into_owned(), encoding: d })
        }
    }
}

pub use mancala::io::io_message;

/// Reads, checks and lowers one variant of a rule file for a number of players.
pub fn load_engine(path: &Path, variant: Option<&str>, players: Option<u8>) -> Result<Engine, Failure> {
    load_engine_and_source(path, variant, players).map(|(engine, _)| engine)
}

/// [`load_engine`], with the text of the rules as well. Every command that plays a rule file loads it
/// here, so that a bad file is reported the same way (and with the same limits) by each of them.
pub fn load_engine_and_source(
    path: &Path,
    variant: Option<&str>,
    players: Option<u8>,
) -> Result<(Engine, String), Failure> {
    let source = read_source(path)?;
    if let Some(d) = source.encoding {
        return Err(Failure::Invalid { file: source.name, source: source.text, diagnostics: vec![d] });
    }
    match mancala::compile(&source.text, variant, players) {
        Ok(engine) => Ok((engine, source.text)),
        Err(diagnostics) => {
            // Unknown variants and player counts are about the command line, not the file.
            let option = diagnostics
                .iter()
                .find(|d| d.code == "mancala::check::unknown_variant" || d.code == "mancala::check::players_range");
            Err(match option {
                Some(d) => Failure::Usage { message: format!("{}: {}", source.name, d.message), help: d.help.clone() },
                None => Failure::Invalid { file: source.name, source: source.text, diagnostics },
            })
        }
    }
}
