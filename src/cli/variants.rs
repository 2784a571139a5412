//! `mancala variants`: the variant names of a rule file.

use std::path::PathBuf;

use mancala::diag::Diagnostic;

use super::{read_source, Failure, Status};

/// List the variants of a rule file, one per line, `default` (the base game) first.
///
/// The names are what `--variant` of `simulate` and `bench` accept.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala variants games/gulek-solo.mancala
  for v in $(mancala variants games/kalah.mancala); do mancala simulate games/kalah.mancala --variant $v; done")]
pub struct Args {
    /// The rule file.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let source = read_source(&args.file)?;
    let invalid = |diagnostics: Vec<Diagnostic>| Failure::Invalid {
        file: source.name.clone(),
        source: source.text.clone(),
        diagnostics,
    };
    if let Some(d) = source.encoding.clone() {
        return Err(invalid(vec![d]));
    }
    // A file with errors has no variants to play: the verdict is `check`'s, so that every command agrees.
    let errors: Vec<Diagnostic> =
        mancala::check::check_source(&source.text).into_iter().filter(Diagnostic::is_error).collect();
    if !errors.is_empty() {
        return Err(invalid(errors));
    }
    let file = mancala::syntax::parse(&source.text).map_err(|e| invalid(vec![Diagnostic::from(e)]))?;
    for name in mancala::check::variant_names(&file) {
        println!("{name}");
    }
    Ok(Status::Ok)
}
