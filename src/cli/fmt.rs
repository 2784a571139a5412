//! `mancala fmt`: rule files rewritten in the canonical layout (`mancala::fmt`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::{render, style_for, Failure, Status};
use mancala::plural;

/// Rewrite rule files in the one canonical layout.
///
/// One rule a line, two spaces per block, a blank line around each item with a block, long conditions
/// wrapped before `and` and `or` at 100 columns; comments, `///` sentences, the blank lines between rules
/// and the parentheses written around conditions are kept. The rules themselves never change: the result
/// parses to the same rules. A file with a syntax error is reported and left as it is.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala fmt games/*.mancala
  mancala fmt --check games/*.mancala        (in CI: lists the files that would change)
  mancala fmt - < my-game.mancala            (the formatted text on standard output)

Exit status: 0 when every file is formatted (or, with --check, already was), 1 when a file has a syntax
error or, with --check, would change, 2 when a file cannot be read or written.")]
pub struct Args {
    /// Change nothing: name the files that are not formatted, and exit with 1 if there are any.
    #[arg(long)]
    pub check: bool,
    /// The rule files to format; `-` reads standard input and writes the result to standard output.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// What became of one file.
enum Done {
    Unchanged,
    Changed,
    Invalid,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let mut status = Status::Ok;
    let (mut changed, mut unchanged) = (Vec::new(), 0u64);
    for path in &args.files {
        match format_file(path, args.check) {
            Ok(Done::Changed) => changed.push(path.display().to_string()),
            Ok(Done::Unchanged) => unchanged += 1,
            Ok(Done::Invalid) => status = status.max(Status::Invalid),
            Err(failure) => status = status.max(failure.report()),
        }
    }
    if args.files.iter().any(|p| p == Path::new("-")) {
        return Ok(status);
    }
    if args.check {
        for name in &changed {
            println!("{name}");
        }
        if !changed.is_empty() {
            eprintln!("{} not formatted: run `mancala fmt` on {}", plural(changed.len() as u64, "file", "files"), {
                if changed.len() == 1 {
                    "it"
                } else {
                    "them"
                }
            });
            status = status.max(Status::Invalid);
        }
    } else if !changed.is_empty() {
        eprintln!("formatted {}, {} already formatted", plural(changed.len() as u64, "file", "files"), unchanged);
    }
    Ok(status)
}

fn format_file(path: &Path, check: bool) -> Result<Done, Failure> {
    let stdin = path == Path::new("-");
    let name = if stdin { "<stdin>".to_string() } else { path.display().to_string() };
    let limit = mancala::syntax::MAX_SOURCE_BYTES;
    let read = if stdin {
        mancala::io::read_limited_from(std::io::stdin().lock(), limit)
    } else {
        mancala::io::read_limited(path, limit)
    };
    let bytes = read.map_err(|e| Failure::usage(format!("cannot read {name}: {e}")))?;
    let text = match mancala::syntax::decode(&bytes) {
        Ok(text) => text,
        Err(e) => {
            let lossy = String::from_utf8_lossy(&bytes).into_owned();
            Failure::Invalid { file: name, source: lossy, diagnostics: vec![e.into()] }.report();
            return Ok(Done::Invalid);
        }
    };
    let formatted = match mancala::fmt::format_source(text) {
        Ok(formatted) => formatted,
        Err(diagnostics) => {
            eprint!("{}", render(&name, text, &diagnostics, style_for(std::io::stderr().is_terminal())));
            return Ok(Done::Invalid);
        }
    };
    if stdin {
        print!("{formatted}");
        return Ok(if formatted == text { Done::Unchanged } else { Done::Changed });
    }
    if formatted == text {
        return Ok(Done::Unchanged);
    }
    if !check {
        // All or nothing: a failure keeps the file as it was.
        mancala::io::write_atomic(path, formatted.as_bytes()).map_err(|e| {
            Failure::usage(format!("cannot write {name}: {}; it is as it was", mancala::io::io_message(&e)))
        })?;
    }
    Ok(Done::Changed)
}
