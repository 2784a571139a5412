//! Rule scenarios for Bao la Kiswahili (`games/bao-la-kiswahili.mancala`), one per decision of
//! `shared/rules/family.md`, section 3 (BAO-1 .. BAO-14), the Check paragraph, ENGINE-1 and ENGINE-2.
//!
//! The board: South (player 1) has his outer row `o1..o8` and inner row `i1..i8`, North `O1..O8` and
//! `I1..I8`, each numbered from its owner's left. South's counter-clockwise circuit is o1..o8, i8..i1, so
//! clockwise from his left kichwa `i1` runs along the inner row to `i2`; his `ik` faces North's `I(9-k)`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine, State};

fn bao(variant: Option<&str>) -> Engine {
    engine("bao-la-kiswahili", variant, None)
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

/// The plies of a position text, in the engine's order.
fn plies_of(e: &Engine, text: &str) -> Vec<String> {
    plies(e, &position(e, text))
}

/// The capture test: the last seed falls into an occupied pit of the mover's inner row, facing an occupied
/// pit of the opponent's inner row. Here no first lap of South's does so, so he has no capturing move.
#[test]
fn capture_test_needs_an_occupied_landing_pit_and_an_occupied_facing_inner_pit() {
    let e = bao(Some("kujifunza"));
    // i3 clockwise ends in i5, empty before; counter-clockwise in i1, empty before: no capture either way.
    assert_eq!(plies_of(&e, "i3=2 I4=3 I1=2"), ["takasa i3ccw", "takasa i3cw"]);
    // i5 is occupied now, but the pit facing it (I4) is empty, and North's outer row is never captured.
    assert_eq!(plies_of(&e, "i3=2 i5=1 O4=3 I1=2"), ["takasa i3ccw", "takasa i3cw"]);
    // Both hold: only the capturing way is allowed.
    assert_eq!(plies_of(&e, "i3=2 i5=1 I4=3 I1=2"), ["i3cw"]);
}

/// BAO-3, BAO-2: a capture outside the kimbi keeps the move's direction: clockwise, the seeds go into the
/// inner row from the left kichwa, the first into i1 itself.
#[test]
fn bao3_bao2_a_central_capture_keeps_clockwise_and_sows_from_the_left_kichwa() {
    let e = bao(Some("kujifunza"));
    // i3 clockwise: i4, i5 (held 1): capture I4's 3, sown into i1, i2, i3; i3 was empty, the move ends.
    let st = scenario_seeds(&e, "i3=2 i5=1 I4=3 I1=2", "i3cw", &["i1", "i2", "i3", "i4", "i5", "I4", "I1"]);
    assert_eq!(st, [1, 1, 1, 1, 2, 0, 2]);
}

/// BAO-3: counter-clockwise, the captured seeds go in from the right kichwa, the first into i8.
#[test]
fn bao3_a_central_capture_keeps_counter_clockwise_and_sows_from_the_right_kichwa() {
    let e = bao(Some("kujifunza"));
    // i6 counter-clockwise: i5, i4 (held 1): capture I5's 3, sown into i8, i7, i6; i6 was empty.
    let st = scenario_seeds(&e, "i6=2 i4=1 I5=3 I1=2", "i6ccw", &["i8", "i7", "i6", "i5", "i4", "I5"]);
    assert_eq!(st, [1, 1, 1, 1, 2, 0]);
}

/// BAO-1: a capture in the left kimbi (i1, i2) is sown from the left kichwa clockwise, whichever way the
/// move went; the move goes on clockwise.
#[test]
fn bao1_a_capture_in_the_left_kimbi_turns_the_move_clockwise() {
    let e = bao(Some("kujifunza"));
    // i4 counter-clockwise: i3, i2 (held 1): capture I7's 2, sown clockwise into i1, i2. i2 is occupied
    // and I7 now empty: relay i2's 3 clockwise: i3, i4, i5; i5 was empty.
    assert_eq!(plies_of(&e, "i4=2 i2=1 I7=2 I1=2"), ["i4ccw"]);
    let st = scenario_seeds(&e, "i4=2 i2=1 I7=2 I1=2", "i4ccw", &["i1", "i2", "i3", "i4", "i5", "I7"]);
    assert_eq!(st, [1, 0, 2, 1, 1, 0]);
}

/// BAO-1: a capture in the right kimbi (i7, i8) is sown from the right kichwa counter-clockwise.
#[test]
fn bao1_a_capture_in_the_right_kimbi_turns_the_move_counter_clockwise() {
    let e = bao(Some("kujifunza"));
    // i5 clockwise: i6, i7 (held 1): capture I2's 2, sown into i8, i7. i7 holds 3: relay counter-clockwise
    // into i6, i5, i4; i4 was empty.
    assert_eq!(plies_of(&e, "i5=2 i7=1 I2=2 I8=2"), ["i5cw"]);
    let st = scenario_seeds(&e, "i5=2 i7=1 I2=2 I8=2", "i5cw", &["i4", "i5", "i6", "i7", "i8", "I2"]);
    assert_eq!(st, [1, 1, 2, 0, 1, 0]);
}

/// BAO-10: capturing moves come first; without one, a takasa from the inner row, and only without one of
/// those from the outer row.
#[test]
fn bao10_capturing_moves_before_inner_takasa_before_outer_takasa() {
    let e = bao(Some("kujifunza"));
    // o1 could be sown, but i3 captures.
    assert_eq!(plies_of(&e, "i3=2 i5=1 I4=3 I1=2 o1=4"), ["i3cw"]);
    // No capture: the inner row's pits of 2 or more only.
    assert_eq!(plies_of(&e, "i3=2 o4=3 I1=2"), ["takasa i3ccw", "takasa i3cw"]);
    // No inner pit of 2 or more: the outer row.
    assert_eq!(plies_of(&e, "i3=1 o4=3 I1=2"), ["takasa o4ccw", "takasa o4cw"]);
}

/// BAO-10: a pit of 16 or more never starts a capturing move, even where its first lap would capture.
#[test]
fn bao10_a_pit_of_16_or_more_is_sown_only_as_takasa() {
    let e = bao(Some("kujifunza"));
    // i1's 17 seeds clockwise go round the circuit and end in i2, which got a seed on the way, facing I7.
    let text = "i1=17 i5=1 I7=2 I1=2";
    assert_eq!(plies_of(&e, text), ["takasa i1ccw", "takasa i1cw"]);
    let mut st = position(&e, text);
    play(&e, &mut st, "takasa i1cw");
    assert_eq!(seeds(&e, &st, &["I7"]), [2], "a takasa captures nothing");
}

/// BAO-9: a kichwa that is the only occupied pit of the inner row may not be sown toward the outer row.
#[test]
fn bao9_a_lone_kichwa_is_not_sown_toward_the_outer_row() {
    let e = bao(Some("kujifunza"));
    assert_eq!(plies_of(&e, "i1=3 I1=2"), ["takasa i1cw"]);
    assert_eq!(plies_of(&e, "i8=3 I1=2"), ["takasa i8ccw"]);
    // Not alone, it may.
    assert_eq!(plies_of(&e, "i1=3 i4=1 I1=2"), ["takasa i1ccw", "takasa i1cw"]);
}

/// BAO-12: a capture that empties the opponent's inner row wins at once, in the middle of the move: the
/// captured seeds are sown, and the move stops at that lap's end.
#[test]
fn bao12_emptying_the_opponents_inner_row_wins_at_once() {
    let e = bao(Some("kujifunza"));
    // i3 clockwise captures I4, North's only inner seeds, sown into i1, i2; i2 now holds 2, which would
    // relay, but the move has stopped.
    let mut st = position(&e, "i3=2 i5=1 i2=1 I4=2 O1=5");
    play(&e, &mut st, "i3cw");
    assert_eq!(seeds(&e, &st, &["i1", "i2", "i3", "i4", "i5", "I4"]), [1, 2, 0, 1, 2, 0]);
    assert_over(&st, &[1], &[6, 0], EndReason::Condition);
}

/// BAO-12: when both inner rows are empty, the mover wins (his opponent's row is tested first).
#[test]
fn bao12_when_both_inner_rows_are_empty_the_mover_wins() {
    let e = bao(Some("kujifunza"));
    let mut st = position(&e, "o5=2 O1=3");
    play(&e, &mut st, "takasa o5cw");
    assert_over(&st, &[1], &[0, 0], EndReason::Condition);
    // With North's inner row occupied, South loses.
    let mut st = position(&e, "o5=2 O1=3 I4=1");
    play(&e, &mut st, "takasa o5cw");
    assert_over(&st, &[2], &[0, 1], EndReason::Condition);
}

/// A player with no legal move at his turn loses.
#[test]
fn a_player_who_cannot_move_loses() {
    let e = bao(Some("kujifunza"));
    // North's takasa leaves South with no pit of two seeds.
    let mut st = position(&e, "i5=1 I3=2 I8=1 to_move=2");
    play(&e, &mut st, "takasa I3cw");
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![2], EndReason::LastStanding)));
}

/// ENGINE-1, BAO-13: a move that would never end (here a takasa found in random games) is annulled: a draw.
#[test]
fn engine1_a_never_ending_move_is_a_draw() {
    let e = bao(Some("kujifunza"));
    let text = "o1=1 o2=2 o3=3 o4=2 o5=1 o6=4 o8=1 i2=5 i3=4 i5=5 i7=1 i8=2 \
                O1=3 O3=4 O4=1 O5=4 O7=1 O8=1 I1=1 I5=7 I6=10 I8=1";
    let mut st = position(&e, text);
    play(&e, &mut st, "takasa i3cw");
    assert_over(&st, &[], &result(&st).unwrap().1, EndReason::Endless);
}

/// ENGINE-2: a position that comes back is a draw (the game is won by leaving the opponent without a move).
#[test]
fn engine2_every_variant_draws_a_repeated_position_and_a_never_ending_move() {
    for v in mancala::check::variant_names(&mancala::syntax::parse(&source()).unwrap()) {
        let e = bao(Some(&v));
        let rules = e.rules.end.items.iter().chain(e.rules.phases.iter().flat_map(|p| &p.end.items));
        assert!(rules.clone().any(|r| matches!(r, mancala::ir::EndRule::DrawRepetition)), "{v}: ENGINE-2");
        let endless = |r: &mancala::ir::EndRule| matches!(r, mancala::ir::EndRule::Endless);
        assert!(rules.clone().any(endless) || v != "default" && v != "kujifunza", "{v}: ENGINE-1");
    }
}

fn source() -> String {
    std::fs::read_to_string(format!("{}/games/bao-la-kiswahili.mancala", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// Plays `ply` from `before` and returns the seeds of the pits named.
fn scenario_seeds(e: &Engine, before: &str, ply: &str, labels: &[&str]) -> Vec<u8> {
    let mut st = position(e, before);
    play(e, &mut st, ply);
    assert_not_over(e, &st);
    seeds(e, &st, labels)
}
