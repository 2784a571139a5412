//! Rule scenarios for Kisolo (`games/kisolo.mancala`), one per decision of `docs/games/kisolo.md`
//! (KS-1 .. KS-6).
//!
//! The board: South (player 1) has his outer row `o1..o7` and inner row `i1..i7`, North `O1..O7` and
//! `I1..I7`, each numbered from its owner's left. South's counter-clockwise circuit is o1..o7, i7..i1 (and
//! on to o1); his `ik` faces North's `I(8-k)` and, behind it, `O(8-k)`; his `ok` is behind his `ik`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine, State};

fn kisolo() -> Engine {
    engine("kisolo", None, None)
}

/// The seeds in the pits named, in order.
fn seeds(e: &Engine, st: &State, labels: &[&str]) -> Vec<u8> {
    labels
        .iter()
        .map(|l| {
            let p = e.rules.places.iter().position(|i| i.label == *l).unwrap_or_else(|| panic!("no pit {l}"));
            st.counts[p]
        })
        .collect()
}

fn total(st: &State) -> u32 {
    st.counts.iter().map(|&c| c as u32).sum()
}

#[test]
fn ks1_three_seeds_in_each_outer_pit() {
    let e = kisolo();
    let st = e.initial_state();
    assert_eq!(seeds(&e, &st, &["o1", "o7", "i1", "i7", "O1", "O7", "I1", "I7"]), [3, 3, 0, 0, 3, 3, 0, 0]);
    assert_eq!(total(&st), 42);
    assert_eq!(to_move(&st), 1);
    assert_eq!(plies(&e, &st), ["o1", "o2", "o3", "o4", "o5", "o6", "o7"]);
}

#[test]
fn ks2_the_pit_after_the_last_seed_is_lifted_and_sown_on() {
    // o1's 2 seeds: o2, o3. The pit after o3 is o4, holding 1: lifted and sown into o5. The pit after o5,
    // o6, is empty: the move is over.
    let e = kisolo();
    let mut st = position(&e, "o1=2 o4=1 O1=1");
    play(&e, &mut st, "o1");
    assert_eq!(seeds(&e, &st, &["o1", "o2", "o3", "o4", "o5", "o6"]), [0, 1, 1, 0, 1, 0]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn ks2_a_single_seed_is_sown_and_the_circuit_turns_into_the_inner_row() {
    // o7's single seed goes on into i7 (the circuit turns at the end of the outer row); i6 after it is
    // empty: the move is over.
    let e = kisolo();
    let mut st = position(&e, "o1=1 o7=1 O1=1");
    assert_eq!(plies(&e, &st), ["o1", "o7"]);
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o7", "i7", "i6"]), [0, 1, 0]);
}

#[test]
fn ks3_before_the_first_lap_the_facing_pits_go_into_the_outer_pit_behind() {
    // i3 faces I5 (1) and O5 (2): both go into o3, behind i3. Then i3's own 2 seeds are sown into i2, i1;
    // the pit after i1 is o1, empty: the move is over.
    let e = kisolo();
    let mut st = position(&e, "i3=2 o6=1 I5=1 O5=2 O1=1");
    play(&e, &mut st, "i3");
    assert_eq!(seeds(&e, &st, &["i3", "i2", "i1", "o3", "o1", "I5", "O5", "O1"]), [0, 1, 1, 3, 0, 0, 0, 1]);
    assert_eq!(total(&st), 7, "seeds never leave the board");
}

#[test]
fn ks3_nothing_is_captured_when_the_inner_pit_across_is_empty() {
    // O5 holds seeds but I5 in front of it is empty: no capture; i3 is sown into i2, i1.
    let e = kisolo();
    let mut st = position(&e, "i3=2 o6=1 O5=2 O1=1");
    play(&e, &mut st, "i3");
    assert_eq!(seeds(&e, &st, &["i3", "i2", "i1", "o3", "O5"]), [0, 1, 1, 0, 2]);
}

#[test]
fn ks3_the_inner_pit_alone_when_the_outer_pit_behind_it_is_empty() {
    let e = kisolo();
    let mut st = position(&e, "i3=2 o6=1 I5=2 O1=1");
    play(&e, &mut st, "i3");
    assert_eq!(seeds(&e, &st, &["o3", "I5", "O5", "O1"]), [2, 0, 0, 1]);
}

#[test]
fn ks3_no_capture_before_a_lap_from_the_outer_row() {
    // o5 is an outer pit: North's pits across from i5 (I3, O3) are not touched when it is lifted.
    let e = kisolo();
    let mut st = position(&e, "o5=1 i5=1 I3=1 O3=1");
    play(&e, &mut st, "o5");
    assert_eq!(seeds(&e, &st, &["o5", "o6", "I3", "O3"]), [0, 1, 1, 1]);
}

#[test]
fn ks4_a_capture_before_a_lap_the_move_goes_on_from() {
    // o6's seed falls into o7; the pit after it, i7, holds 2 and is lifted: before that, I1 (1) and O1 (2)
    // across from i7 go into o7, behind it. i7's 2 seeds then go into i6, i5; i4 after them is empty.
    let e = kisolo();
    let mut st = position(&e, "o6=1 i7=2 I1=1 O1=2 O2=1");
    play(&e, &mut st, "o6");
    assert_eq!(seeds(&e, &st, &["o6", "o7", "i7", "i6", "i5", "i4", "I1", "O1", "O2"]), [0, 4, 0, 1, 1, 0, 0, 0, 1]);
}

#[test]
fn ks5_emptying_the_opponents_outer_row_wins() {
    // The capture before the lap takes O5, North's last outer seeds: South wins, 4 seeds in his outer row
    // (o3, o6) against none, although North still has I1.
    let e = kisolo();
    let mut st = position(&e, "i3=2 o6=1 I5=1 O5=2 I1=1");
    play(&e, &mut st, "i3");
    assert_over(&st, &[1], &[4, 0], EndReason::Condition);
}

#[test]
fn ks5_emptying_ones_own_outer_row_loses() {
    // South sows his last outer seed into his inner row: his outer row is empty, and North wins.
    let e = kisolo();
    let mut st = position(&e, "o7=1 i5=1 O1=1");
    play(&e, &mut st, "o7");
    assert_over(&st, &[2], &[0, 1], EndReason::Condition);
}

#[test]
fn ks5_the_game_goes_on_while_both_outer_rows_hold_seeds() {
    let e = kisolo();
    let mut st = position(&e, "o1=2 o4=1 O1=1");
    play(&e, &mut st, "o1");
    assert_not_over(&e, &st);
}

#[test]
fn ks6_a_move_that_would_never_end_draws_the_game() {
    // Found in random play: North's move from O4 goes round his circuit, lap after lap, back to a position
    // it has been in. It is played up to there and the game is drawn (ENGINE-1).
    let e = kisolo();
    let mut st = position(&e, "o3=2 O1=1 O3=8 O4=4 O5=15 O6=2 O7=1 I2=1 I4=1 I6=3 I7=4 to_move=2");
    play(&e, &mut st, "O4");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
}
