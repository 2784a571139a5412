//! Rule scenarios for Mangala (`games/mangala.mancala`): one position, one ply, the exact position after it.
//! Rules: `docs/games/mangala.md` (MG-1 .. MG-6).
//!
//! The track: `a b c d e f store(1) A B C D E F store(2)`; South's store is passed over by North and North's
//! by South. Pit `a` faces `F`, `f` faces `A`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn mangala() -> Engine {
    engine("mangala", None, None)
}

#[test]
fn mg1_four_stones_in_every_pit_south_first() {
    let e = mangala();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4 store(1)=0 store(2)=0 to_move=1");
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d", "e", "f"]);
}

#[test]
fn mg2_the_first_stone_goes_back_into_the_pit_lifted() {
    // a's 4 stones: a (back into it), b, c, d; d holds 5, South's own: nothing more.
    let e = mangala();
    scenario(
        &e,
        "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4",
        "a",
        "a1 b5 c5 d5 e4 f4 A4 B4 C4 D4 E4 F4 store(1)=0 store(2)=0 to_move=2",
    );
}

#[test]
fn mg2_a_lone_stone_moves_on() {
    // b's single stone goes into c, not back into b; c was empty but D across is empty: no capture.
    let e = mangala();
    scenario(&e, "b1 e1 A1", "b", "a0 b0 c1 d0 e1 f0 A1 B0 C0 D0 E0 F0 store(1)=0 store(2)=0 to_move=2");
}

#[test]
fn mg2_the_opponents_store_is_passed_over() {
    // f's 10 stones: f, store(1), A..F, (store(2) passed over) a, b. b held 1: own and not empty, no capture.
    let e = mangala();
    scenario(&e, "b1 f10 A1", "f", "a1 b2 c0 d0 e0 f1 A2 B1 C1 D1 E1 F1 store(1)=1 store(2)=0 to_move=2");
    // North likewise passes over South's store: F, store(2), a..f, A, B; B held 1, his own: no capture.
    scenario(&e, "a1 B1 F10 to_move=2", "F", "a2 b1 c1 d1 e1 f1 A1 B2 C0 D0 E0 F1 store(1)=0 store(2)=1 to_move=1");
}

#[test]
fn mg3_the_last_stone_in_ones_store_moves_again() {
    // f's single stone ends in South's store: South moves again. e's 2 stones then go into e and f, and
    // the move ends there (f was empty, but A across is empty).
    let e = mangala();
    let mut st = scenario(&e, "e2 f1 B1", "f", "a0 b0 c0 d0 e2 f0 A0 B1 C0 D0 E0 F0 store(1)=1 store(2)=0 to_move=1");
    play(&e, &mut st, "e");
    assert_eq!(show(&e, &st), "a0 b0 c0 d0 e1 f1 A0 B1 C0 D0 E0 F0 store(1)=1 store(2)=0 to_move=2");
    assert_not_over(&e, &st);
}

#[test]
fn mg4_making_an_opponents_pit_even_captures_it() {
    // e's 3 stones: e, f, store(1)... one short; e4: e, f, store(1), A. A held 1, now 2: even, captured.
    let e = mangala();
    scenario(&e, "e4 A1 B1", "e", "a0 b0 c0 d0 e1 f1 A0 B1 C0 D0 E0 F0 store(1)=3 store(2)=0 to_move=2");
}

#[test]
fn mg4_an_odd_opponents_pit_is_not_captured() {
    // A held 2, now 3: odd, nothing.
    let e = mangala();
    scenario(&e, "e4 A2 B1", "e", "a0 b0 c0 d0 e1 f1 A3 B1 C0 D0 E0 F0 store(1)=1 store(2)=0 to_move=2");
}

#[test]
fn mg4_an_empty_own_pit_captures_the_pit_across() {
    // a's 3 stones: a, b, c; c was empty and D across holds 2: c's stone and D's 2 go to South's store.
    let e = mangala();
    scenario(&e, "a3 D2 F1", "a", "a1 b1 c0 d0 e0 f0 A0 B0 C0 D0 E0 F1 store(1)=3 store(2)=0 to_move=2");
}

#[test]
fn mg4_across_empty_nothing_is_captured() {
    // The same move with D empty: the stone stays in c.
    let e = mangala();
    scenario(&e, "a3 E2 F1", "a", "a1 b1 c1 d0 e0 f0 A0 B0 C0 D0 E2 F1 store(1)=0 store(2)=0 to_move=2");
}

#[test]
fn mg5_the_player_to_move_ran_out_and_takes_what_is_left() {
    // a's 2 stones: a, b; b was empty and E across holds 2: South captures 3, which empties North's row.
    // North, to move, has run out, so South's stone left in a goes to North's store: 1 + 3 = 4 against
    // 1 + 1 = 2.
    let e = mangala();
    let st = scenario(
        &e,
        "a2 E2 store(1)=1 store(2)=1",
        "a",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=4 store(2)=2 to_move=2",
    );
    assert_over(&st, &[1], &[4, 2], EndReason::Condition);
}

#[test]
fn mg5_the_player_who_just_moved_ran_out_and_takes_what_is_left() {
    // South's last stone goes into his store, which would give him another move, but his row is now
    // empty: the game is over and North's 6 stones go to South: 1 + 6 = 7 against 0.
    let e = mangala();
    let st = scenario(&e, "f1 A2 C4", "f", "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=7 store(2)=0 to_move=1");
    assert_over(&st, &[1], &[7, 0], EndReason::Condition);
}

#[test]
fn mg5_equal_stores_draw() {
    let e = mangala();
    let st =
        scenario(&e, "f1 A2 store(2)=3", "f", "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=3 store(2)=3 to_move=1");
    assert_over(&st, &[], &[3, 3], EndReason::Condition);
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
