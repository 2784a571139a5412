//! Rule scenarios for Dakon: one position, one ply (or a turn of several), the exact position after it.
//! Rules: the family rules, section 10 (DK-1 .. DK-5); in words in `docs/games/dakon.md`.
//!
//! As in Congkak, the board is the mirror image of the traditional one: South owns `a..g`, `g` next to his
//! store; South's track is `a..g store(1) A..G`, North's `A..G store(2) a..g`. Opposite holes: `a`-`G`,
//! `b`-`F`, `c`-`E`, `d`-`D`, `e`-`C`, `f`-`B`, `g`-`A`.

mod common;

use common::*;
use mancala::engine::Engine;

fn dakon(variant: Option<&str>) -> Engine {
    engine("dakon", variant, None)
}

#[test]
fn dk4_dk5_the_board_is_two_rows_of_seven_with_seven_seeds_a_hole() {
    // DK-4: n = 7, the usual board, n seeds a hole (98 in all); DK-5: not the blog's 2x6 with 72 seeds.
    let e = dakon(None);
    let st = e.initial_state();
    assert_eq!(
        show(&e, &st),
        "a7 b7 c7 d7 e7 f7 g7 A7 B7 C7 D7 E7 F7 G7 store(1)=0 store(2)=0 to_move=1 round=1 starter=1"
    );
    assert_eq!(e.rules.total_pieces, 98);
}

#[test]
fn dk1_no_capture_before_the_own_store_is_passed_this_turn() {
    // DK-1: b's seed falls into c, empty and South's, with E's 3 opposite, but this turn has not passed
    // South's store: nothing is captured and the turn ends.
    let e = dakon(None);
    scenario(
        &e,
        "b1 E3 A1 to_move=1",
        "b",
        "a0 b0 c1 d0 e0 f0 g0 A1 B0 C0 D0 E3 F0 G0 store(1)=0 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn dk1_an_extra_sowing_after_passing_the_store_captures() {
    // DK-1: g's seed ends in South's store (an extra sowing follows); the same turn then sows b into c: the
    // store has been passed this turn, so c's seed and E's 3 are captured.
    let e = dakon(None);
    let mut st = position(&e, "g1 b1 E3 A1 to_move=1");
    play(&e, &mut st, "g");
    assert_eq!(to_move(&st), 1);
    play(&e, &mut st, "b");
    assert_eq!(
        show(&e, &st),
        "a0 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=5 store(2)=0 to_move=2 round=1 starter=1"
    );
}

#[test]
fn dk1_a_pass_of_the_store_is_forgotten_when_the_turn_ends() {
    // DK-1: "this turn" is the mover's plies in a row: g's two seeds pass South's store and end in North's
    // empty A, so the turn ends, and what it passed is not carried into the next turn.
    let e = dakon(None);
    let mut st = position(&e, "g2 b1 E3 G1 to_move=1");
    play(&e, &mut st, "g");
    assert_eq!(to_move(&st), 2);
    assert_eq!(st.passed, [0, 0]);
}

#[test]
fn dk1_flag_off_captures_as_congkak_does() {
    // DK-1 flag off (`capture-without-lap`): the first scenario's c captures c and E.
    let e = dakon(Some("capture-without-lap"));
    scenario(
        &e,
        "b1 E3 A1 to_move=1",
        "b",
        "a0 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=4 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn dk2_without_mikul_an_empty_opponent_hole_ends_the_turn() {
    // g's 4 seeds: store(1), A, B, C; C was empty and North's: the turn ends, the seed stays.
    let e = dakon(None);
    scenario(
        &e,
        "g4 B2 D3 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A1 B3 C1 D3 E0 F0 G0 store(1)=1 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn dk2_flag_mikul_takes_the_empty_opponent_hole_and_both_neighbours() {
    // DK-2 flag `mikul`: the same last seed in C takes C's seed, B's 3 and D's 3 into South's store; A, not
    // a neighbour of C, keeps its seed.
    let e = dakon(Some("mikul"));
    scenario(
        &e,
        "g4 B2 D3 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=8 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn dk3_the_round_winner_starts_the_next_round() {
    // DK-3, and the rounds as Congkak's: North wins the round 51 to 41 and starts round 2; South's 41 fill
    // g..c from the store end, a and b are burnt.
    let e = dakon(None);
    let mut st = position(&e, "g1 A1 store(1)=40 store(2)=50 to_move=1");
    play_all(&e, &mut st, &["g", "A"]);
    assert_eq!(
        show(&e, &st),
        "a0 b0 c7 d7 e7 f7 g7 A7 B7 C7 D7 E7 F7 G7 store(1)=6 store(2)=2 burnt=a,b to_move=2 round=2 starter=2"
    );
}

#[test]
fn dakon_a_burnt_hole_is_never_sown_into() {
    // North's G sows into his store, over South's burnt a and b, into c (which held 1): relay into d, e.
    let e = dakon(None);
    scenario(
        &e,
        "G2 c1 A1 burnt=a,b to_move=2 round=2",
        "G",
        "a0 b0 c0 d1 e1 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=0 store(2)=1 burnt=a,b to_move=1 round=2 starter=2",
    );
}

/// The letters of the first `n` holes of a row: `a b c ...`, or `A B C ...` for North's.
fn holes(n: usize, north: bool) -> Vec<char> {
    let first = if north { b'A' } else { b'a' };
    (0..n as u8).map(|i| (first + i) as char).collect()
}

/// DK-4 on a board of `n` holes a row: `n` seeds in each, `2 n n` in all; South's first sowing from `a`
/// drops its `n` seeds into `b` .. and his store, the last seed in the store, so he sows again.
fn dk4_opening(variant: &str, n: usize) {
    let e = dakon(Some(variant));
    let st = e.initial_state();
    let row = |north: bool, count: &dyn Fn(usize) -> usize| -> Vec<String> {
        holes(n, north).iter().enumerate().map(|(i, h)| format!("{h}{}", count(i))).collect()
    };
    let start = [row(false, &|_| n), row(true, &|_| n)].concat().join(" ");
    assert_eq!(show(&e, &st), format!("{start} store(1)=0 store(2)=0 to_move=1 round=1 starter=1"), "{variant}");
    assert_eq!(e.rules.total_pieces, (2 * n * n) as u32, "{variant}");
    let after = [row(false, &|i| if i == 0 { 0 } else { n + 1 }), row(true, &|_| n)].concat().join(" ");
    scenario(&e, &start, "a", &format!("{after} store(1)=1 store(2)=0 to_move=1 round=1 starter=1"));
}

#[test]
fn dk4_five_holes_a_row_with_five_seeds_each() {
    dk4_opening("5-holes", 5);
    // Then e's 6 seeds: South's store, A..E; E held 5, so its 6 are lifted and sown on, over North's store,
    // into a..e (e emptied a moment ago) and South's store: he sows again.
    let e = dakon(Some("5-holes"));
    scenario(
        &e,
        "a0 b6 c6 d6 e6 A5 B5 C5 D5 E5 store(1)=1 to_move=1",
        "e",
        "a1 b7 c7 d7 e1 A6 B6 C6 D6 E0 store(1)=3 store(2)=0 to_move=1 round=1 starter=1",
    );
}

#[test]
fn dk4_five_holes_refill_five_seeds_a_hole() {
    // North wins the round 29 to 21 and starts round 2; South's 21 fill e..b with 5 each from the store end
    // (1 stays in his store) and a is burnt; North's 29 fill all five holes, 4 stay in his store.
    let e = dakon(Some("5-holes"));
    let mut st = position(&e, "e1 A1 store(1)=20 store(2)=28 to_move=1");
    play_all(&e, &mut st, &["e", "A"]);
    assert_eq!(
        show(&e, &st),
        "a0 b5 c5 d5 e5 A5 B5 C5 D5 E5 store(1)=1 store(2)=4 burnt=a to_move=2 round=2 starter=2"
    );
}

#[test]
fn dk4_six_holes_a_row_with_six_seeds_each() {
    dk4_opening("6-holes", 6);
}

#[test]
fn dk4_eight_holes_a_row_with_eight_seeds_each() {
    dk4_opening("8-holes", 8);
}

#[test]
fn dk4_nine_holes_a_row_with_nine_seeds_each() {
    dk4_opening("9-holes", 9);
}
