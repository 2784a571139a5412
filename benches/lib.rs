//! Nothing but the benches (`playouts.rs`, `ai_strength.rs`): a package of their own, so that criterion, a
//! dev-dependency, does not change the features of the crates the tool itself is built with.
