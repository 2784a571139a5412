//! `mancala check`: parse and check rule files, print their diagnostics.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use mancala::diag::{self, Diagnostic};

use super::{read_source, render, style_for, Failure, Status};
use mancala::plural;

/// Check rule files and print every error and warning.
///
/// Each file is parsed and checked as a whole: the base game and every variant, at the smallest, largest
/// and default player counts. Warnings do not make a file invalid.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala check games/*.mancala
  mancala check --format json games/kalah.mancala > diagnostics.json

Exit status: 0 when every file is valid (warnings allowed), 1 when a file has an error, 2 when a file cannot
be read.")]
pub struct Args {
    /// How to print the diagnostics: `text` for people, `json` for tools (one array of all files).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
    /// The rule files to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The diagnostics of one file, or why it could not be read.
struct Checked {
    name: String,
    text: String,
    diagnostics: Vec<Diagnostic>,
}

fn check_file(path: &Path) -> Result<Checked, Failure> {
    let source = read_source(path)?;
    let diagnostics = match source.encoding {
        Some(d) => vec![d],
        None => mancala::check::check_source(&source.text),
    };
    Ok(Checked { name: source.name, text: source.text, diagnostics })
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let mut status = Status::Ok;
    let mut checked = Vec::new();
    let mut unreadable = 0u64;
    for path in &args.files {
        match check_file(path) {
            Ok(c) => checked.push(c),
            Err(failure) => {
                // Report it now and go on with the other files.
                status = status.max(failure.report());
                unreadable += 1;
            }
        }
    }
    let errors: u64 = checked.iter().flat_map(|c| &c.diagnostics).filter(|d| d.is_error()).count() as u64;
    let warnings: u64 = checked.iter().flat_map(|c| &c.diagnostics).filter(|d| !d.is_error()).count() as u64;
    if errors > 0 {
        status = status.max(Status::Invalid);
    }
    match args.format {
        Format::Json => {
            let all: Vec<diag::JsonDiagnostic> =
                checked.iter().flat_map(|c| c.diagnostics.iter().map(|d| diag::to_json(&c.name, &c.text, d))).collect();
            let json =
                serde_json::to_string_pretty(&all).map_err(|e| Failure::usage(format!("cannot write JSON: {e}")))?;
            println!("{json}");
        }
        Format::Text => {
            let style = style_for(std::io::stdout().is_terminal());
            for c in &checked {
                print!("{}", render(&c.name, &c.text, &c.diagnostics, style));
            }
            eprintln!("{}", summary_line(args.files.len() as u64, errors, warnings, unreadable, &checked));
        }
    }
    Ok(status)
}

/// "checked 7 files: no errors", "checked 3 files: 1 error in 1 file, 2 warnings, 1 could not be read".
fn summary_line(files: u64, errors: u64, warnings: u64, unreadable: u64, checked: &[Checked]) -> String {
    let mut parts = Vec::new();
    if errors > 0 {
        let bad = checked.iter().filter(|c| c.diagnostics.iter().any(Diagnostic::is_error)).count() as u64;
        parts.push(format!("{} in {}", plural(errors, "error", "errors"), plural(bad, "file", "files")));
    } else if !checked.is_empty() {
        parts.push("no errors".to_string());
    }
    if warnings > 0 {
        parts.push(plural(warnings, "warning", "warnings"));
    }
    if unreadable > 0 {
        parts.push(format!("{unreadable} could not be read"));
    }
    format!("checked {}: {}", plural(files, "file", "files"), parts.join(", "))
}
