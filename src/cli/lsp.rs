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

pub fn run(_args: Args) -> Result<Status, Failure> {
    let (connection, io_threads) = lsp_server::Connection::stdio();
    mancala::lsp::run(&connection).map_err(|e| Failure::usage(format!("the language server stopped: {e}")))?;
    // The writer thread ends once every sender is gone.
    drop(connection);
    io_threads.join().map_err(|e| Failure::usage(format!("the language server stopped: {e}")))?;
    Ok(Status::Ok)
}
