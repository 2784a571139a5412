//! mancala: a rule-description language for mancala games.
pub mod ast;
pub mod diag;
pub mod syntax;
