//! The smaller constructs of issue 30 (§2.4, §2.6), each on a small rule file written here or in
//! `tests/data/reference/`, played from constructed positions.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn reference(file: &str) -> Engine {
    let path = format!("{}/tests/data/reference/{file}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{file}: {d:?}"))
}

// ---------------------------------------------------------------- `draw when CONDITION`

#[test]
fn a_draw_when_rule_draws_whatever_the_scores() {
    // a's seeds fall into b and c; c held none and faces B: both are banked. Every pit now holds at most one
    // seed and the stores differ: drawn, though South leads 5 to 1.
    let e = reference("draw-when-a-condition");
    // The end's sweep banks what is left.
    let after = "a0 b0 c0 d0 A0 B0 C0 D0 store(1)=6 store(2)=2 to_move=2";
    let st = scenario(&e, "a2 A1 B1 store(1)=3 store(2)=1", "a", after);
    assert_over(&st, &[], &[6, 2], EndReason::ConditionDraw);
}

#[test]
fn the_draw_when_rule_waits_while_its_condition_fails() {
    // c's opposite B empty, no capture: every pit holds at most one seed, but the stores are level, and
    // nobody's row is empty: the game goes on.
    let e = reference("draw-when-a-condition");
    let after = "a0 b1 c1 d0 A1 B0 C0 D1 store(1)=2 store(2)=2 to_move=2";
    let st = scenario(&e, "a2 A1 D1 store(1)=2 store(2)=2", "a", after);
    assert_not_over(&e, &st);
}

// ---------------------------------------------------------------- `pass when cannot A, B`

#[test]
fn a_pass_when_none_of_the_actions_named_can_be_played() {
    // South can neither sow (no pit of 2) nor enter (an empty store); he may bank A, or pass.
    let e = reference("pass-when-cannot-two-actions");
    assert_eq!(legal(&e, "a1 A3"), vec!["bank A", "pass"]);
    // With a piece in his store he can enter it: no pass.
    assert_eq!(legal(&e, "a1 A3 store(1)=1"), vec!["bank A", "enter b", "enter c", "enter d"]);
}

// ---------------------------------------------------------------- `seat(PLAYER)`

#[test]
fn the_second_seat_sows_only_pits_of_two_or_more() {
    let e = reference("size-where-and-seat");
    // South (seat 1) may sow any pit that holds a seed; North (seat 2) only one of 2 or more.
    assert_eq!(legal(&e, "a1 b2 A1 B2"), vec!["a", "b"]);
    assert_eq!(legal(&e, "a1 b2 A1 B2 to_move=2"), vec!["B"]);
}

// ---------------------------------------------------------------- `size(SET where CONDITION)`

#[test]
fn a_capture_waits_for_an_empty_pit_of_the_opponent() {
    // d's two seeds go into the store and A, which then holds 2; North has no empty pit: no capture.
    let e = reference("size-where-and-seat");
    scenario(&e, "d2 A1 B3 C3 D3", "d", "a0 b0 c0 d0 A2 B3 C3 D3 store(1)=1 store(2)=0 to_move=2");
    // C empty: North has one empty pit, and A's 2 are captured.
    scenario(&e, "d2 A1 B3 D3", "d", "a0 b0 c0 d0 A0 B3 C0 D3 store(1)=3 store(2)=0 to_move=2");
}

#[test]
fn the_game_ends_when_the_mover_has_no_pit_he_may_sow() {
    // South's last seed goes into the store; North's pits hold one seed each: none he may sow (seat 2).
    let e = reference("size-where-and-seat");
    let st = scenario(&e, "d1 A1 B1", "d", "a0 b0 c0 d0 A0 B0 C0 D0 store(1)=1 store(2)=2 to_move=2");
    assert!(st.result.is_some());
}

// ---------------------------------------------------------------- `previous(PLACE)`

#[test]
fn the_last_two_pits_are_captured_when_each_holds_two() {
    // d's 3 seeds fall into the store, A and B: B and A, the pit before it, hold 2 each: both are captured.
    let e = reference("previous-place");
    scenario(&e, "a1 d3 A1 B1 C1", "d", "a1 b0 c0 d0 A0 B0 C1 D0 store(1)=5 store(2)=0 to_move=2");
    // d's 6 seeds go round past North's store, which South's sowing skips: the last falls into a, and the
    // seed before it into D.
    scenario(&e, "a1 b1 d6 D1", "d", "a0 b1 c0 d0 A1 B1 C1 D0 store(1)=5 store(2)=0 to_move=2");
    // The pit before the last holds 1: no capture.
    scenario(&e, "a1 d3 A0 B1 C1", "d", "a1 b0 c0 d0 A1 B2 C1 D0 store(1)=1 store(2)=0 to_move=2");
}

// ---------------------------------------------------------------- `take ... where` in a capture

#[test]
fn a_capture_takes_the_pits_of_the_set_that_pass_its_condition() {
    // a's seed falls into the empty b: North's pits of 2 or 3 (A and C) are banked, B (1) and D (4) stay.
    let e = reference("capture-take-where");
    scenario(&e, "a1 c1 A2 B1 C3 D4", "a", "a0 b1 c1 d0 A0 B1 C0 D4 store(1)=5 store(2)=0 to_move=2");
}

// ---------------------------------------------------------------- `unmark SET`

#[test]
fn a_capture_unlocks_every_pit_of_the_mover() {
    // d's 2 seeds go into the store and A, which then holds 2: captured, and A is locked; a and b, locked by
    // North's earlier captures, are free again, while North's C stays locked.
    let e = reference("unmark-a-set");
    let after = "a1 b0 c0 d0 A0 B3 C0 D0 store(1)=3 store(2)=0 locked=A,C to_move=2";
    scenario(&e, "a1 d2 A1 B3 locked=a,b,C", "d", after);
}

// ---------------------------------------------------------------- `skip SET where CONDITION [except last]`

#[test]
fn a_pit_of_three_is_passed_over_but_by_the_last_seed() {
    // d's seeds: one into the store; A (3) is passed over; one into B; the last falls into C (3) all the same,
    // which holds 4 and is captured.
    let e = reference("skip-where");
    scenario(&e, "a1 d3 A3 C3", "d", "a1 b0 c0 d0 A3 B1 C0 D0 store(1)=5 store(2)=0 to_move=2");
}

#[test]
fn without_except_last_every_seed_passes_the_pit_over() {
    // The last seed passes C over too and falls into D: nothing is captured.
    let path = format!("{}/tests/data/reference/skip-where.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap();
    let e = mancala::compile(&source, Some("always"), None).unwrap();
    scenario(&e, "a1 d3 A3 C3", "d", "a1 b0 c0 d0 A3 B1 C3 D1 store(1)=1 store(2)=0 to_move=2");
}
