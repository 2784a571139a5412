//! mancala: a rule-description language for mancala games.
//!
//! The pipeline: text -> [`syntax::parse`] -> [`ast::File`] -> [`check::check`] / [`check::lower`] ->
//! [`ir::Rules`] -> [`engine::Engine`]. [`compile`] does it all in one call.

pub mod ai;
pub mod ast;
pub mod board;
pub mod catalogue;
pub mod check;
pub mod diag;
pub mod engine;
pub mod explain;
pub mod fmt;
pub mod ide;
pub mod io;
pub mod ir;
pub mod keywords;
pub mod lsp;
pub mod narrate;
pub mod notation;
pub mod playout;
pub mod session;
pub mod shipped;
pub mod solve;
pub mod summary;
pub mod syntax;
pub mod web;

use diag::Diagnostic;

/// A count in words for messages: "1 ply", "2 plies".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Parses and lowers a rule file to a ready engine: one variant (`None`: the base game), one player count
/// (`None`: the file's default).
pub fn compile(source: &str, variant: Option<&str>, players: Option<u8>) -> Result<engine::Engine, Vec<Diagnostic>> {
    let recovered = syntax::parse_recovering(source);
    if !recovered.errors.is_empty() {
        return Err(recovered.errors.into_iter().map(Diagnostic::from).collect());
    }
    let file = recovered.file;
    let rules = check::lower(&file, variant, players)?;
    Ok(engine::Engine::new(rules))
}
