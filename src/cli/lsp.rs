//! `mancala lsp`: the language server on stdin and stdout, for editors (see the README).

use super::{Failure, Status};

/// Run the language server on stdin and stdout (for editors: VS Code, Neovim, Helix, ...).
///
/// It checks rule files as you type (the diagnostics of `mancala check`), explains every keyword and name
/// on hover, completes keywords and names, goes to definitions and references, renames names, outlines
/// the phases, actions and variants, offers the "did you mean" fixes, and formats as `mancala fmt` does.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Accepted for editors that pass it (VS Code's language clients do); stdio is the only transport.
    #[arg(long, hide = true)]
    pub stdio: bool,
}

/// Exit 0 after `shutdown` and `exit`, 1 where the client exits (or goes) without `shutdown`, as the
/// protocol says; 2 where stdin or stdout fails.
pub fn run(_args: Args) -> Result<Status, Failure> {
    match mancala::lsp::serve(std::io::stdin(), std::io::stdout()) {
        Ok(mancala::lsp::Exit::Clean) => Ok(Status::Ok),
        Ok(mancala::lsp::Exit::Unclean) => Ok(Status::Invalid),
        Err(e) => Err(Failure::usage(format!("the language server stopped: {e}"))),
    }
}
