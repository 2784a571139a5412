//! The structure-aware fuzzer's parts, shared by the long-running driver (`examples/fuzz.rs`) and the
//! bounded tests (`tests/fuzz.rs`): the mutator, the harness that runs an input through the whole
//! pipeline, and the reducer.

#![allow(dead_code)]

pub mod harness;
pub mod mutate;
pub mod reduce;
