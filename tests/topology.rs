//! The topology of boards: tracks of one, two and four rows, the relations `opposite`, `facing`, `twin`
//! and `number`, named rows and regions; each checked on small test files (`tests/data/topology/`).

mod common;

use common::*;
use mancala::engine::Engine;

fn file(name: &str) -> Engine {
    let path = format!("{}/tests/data/topology/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

#[test]
fn explore() {
    let e = file("four-rows");
    let st = e.initial_state();
    println!("{}", show(&e, &st));
    println!("{}", mancala::board::render(&e, &st, false));
    println!("{:?}", plies(&e, &st));
    let mut st2 = st.clone();
    play(&e, &mut st2, "o1");
    println!("{}", mancala::board::render(&e, &st2, false));
    let e = file("one-row");
    let st = e.initial_state();
    println!("{}", show(&e, &st));
    println!("{}", mancala::board::render(&e, &st, false));
    println!("{}", mancala::summary::dump(&e.lowered));
}
