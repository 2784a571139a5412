//! Rule scenarios for Ayoayo that data cannot say: `skip origin` alone, on a changed rule file. Every
//! scenario of the shipped file (AY-1 .. AY-6, ENGINE-2) is in the corpus, `tests/data/scenarios/ayoayo.txt`,
//! run by `tests/scenarios.rs`.

mod common;

use common::*;

#[test]
fn skip_origin_passes_over_each_relay_laps_own_origin() {
    // AY-2, the construct alone: Ayoayo with a relay only from a pit that held 11, so that one relay lap of
    // 12 seeds is all there is. a's seed makes 12 in b; b's lap goes round c..F and a, passes over b (its
    // own origin, not a, the move's) and ends in c, which the lap already reached: c holds 2, a holds 1.
    let source = mancala::shipped::GAMES
        .iter()
        .find(|g| g.name == "ayoayo")
        .map(|g| g.text.replace("relay when before > 0", "relay when before = 11"))
        .expect("Ayoayo is shipped");
    let e = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    scenario(&e, "a1 b11 A1 to_move=1", "a", "a1 b0 c2 d1 e1 f1 A2 B1 C1 D1 E1 F1 to_move=2");
}
