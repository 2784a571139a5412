//! Rule scenarios for Mangala that data cannot say: MG-6 over random games. Every position-and-ply scenario
//! (MG-1 .. MG-5) is in the corpus, `tests/data/scenarios/mangala.txt`, run by `tests/scenarios.rs`.

mod common;

use common::*;
use mancala::engine::Engine;

fn mangala() -> Engine {
    engine("mangala", None, None)
}

#[test]
fn mg6_no_move_ever_puts_a_stone_back_on_the_board() {
    // MG-6 rests on the stores only growing: over random games, no store ever loses a stone.
    let e = mangala();
    let store = |st: &mancala::engine::State, n: usize| {
        let p = e.rules.places.iter().position(|i| i.label == format!("store({n})")).expect("store");
        st.counts[p]
    };
    for seed in 0..20u64 {
        let mut st = e.initial_state();
        let mut dice = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        while st.result.is_none() {
            let moves = plies(&e, &st);
            dice = dice.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let ply = &moves[(dice >> 33) as usize % moves.len()];
            let before = (store(&st, 1), store(&st, 2));
            play(&e, &mut st, ply);
            assert!(store(&st, 1) >= before.0 && store(&st, 2) >= before.1, "a store lost stones after {ply}");
        }
    }
}
