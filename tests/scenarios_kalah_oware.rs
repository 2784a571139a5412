//! Rule scenarios for Kalah(6,4) and Oware (abapa): one position, one ply, the exact position after it.
//! Rules: `docs/games/kalah.md` (K1-K5 below) and `docs/games/oware.md` (O1-O6).
//!
//! Kalah's track: `a b c d e f store(1) A B C D E F store(2)`; pit `a` faces `F`, `c` faces `D`.
//! Oware's: `a b c d e f A B C D E F`, captured seeds in `captured(1)`, `captured(2)`.

mod common;

use common::*;
use mancala::engine::EndReason;

fn kalah() -> mancala::engine::Engine {
    engine("kalah", None, None)
}

fn kalah_empty_capture() -> mancala::engine::Engine {
    engine("kalah", Some("empty-capture"), None)
}

fn oware() -> mancala::engine::Engine {
    engine("oware", None, None)
}

// ================================================================ Kalah

#[test]
fn kalah_start() {
    // 4.1 K1: 4 seeds in each of the 12 pits, South moves first, any non-empty own pit.
    let e = kalah();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4 store(1)=0 store(2)=0 to_move=1");
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d", "e", "f"]);
}

#[test]
fn kalah_sowing_enters_own_store_and_skips_the_opponents() {
    // 4.1 K2: South's 10 seeds from f: his store, A..F, then (skipping store(2)) a, b, c.
    // The last seed lands in c, which was not empty: no capture.
    let e = kalah();
    scenario(&e, "a1 c1 f10 A1 to_move=1", "f", "a2 b1 c2 d0 e0 f0 A2 B1 C1 D1 E1 F1 store(1)=1 store(2)=0 to_move=2");
}

#[test]
fn kalah_north_skips_souths_store() {
    // 4.1 K2, for North: from F into store(2), a..f, then (skipping store(1)) A, B, C.
    let e = kalah();
    scenario(&e, "a1 A1 C1 F10 to_move=2", "F", "a2 b1 c1 d1 e1 f1 A2 B1 C2 D0 E0 F0 store(1)=0 store(2)=1 to_move=1");
}

#[test]
fn kalah_lap_of_13_does_not_skip_the_start_pit() {
    // 4.1 K2: 13 seeds from a go round and the 13th falls back into a (no origin skip).
    // a was emptied by the lift, so it is an empty own pit: K4 captures it with F (1 seed) into the store.
    let e = kalah();
    scenario(&e, "a13 A1 to_move=1", "a", "a0 b1 c1 d1 e1 f1 A2 B1 C1 D1 E1 F0 store(1)=3 store(2)=0 to_move=2");
}

#[test]
fn kalah_last_seed_in_own_store_moves_again_without_limit() {
    // 4.1 K3: f's seed ends in the store: South again; then e's last seed ends in the store: South again.
    let e = kalah();
    let mut st =
        scenario(&e, "e2 f1 A1 to_move=1", "f", "a0 b0 c0 d0 e2 f0 A1 B0 C0 D0 E0 F0 store(1)=1 store(2)=0 to_move=1");
    assert_eq!(to_move(&st), 1);
    play(&e, &mut st, "e");
    assert_eq!(show(&e, &st), "a0 b0 c0 d0 e0 f1 A1 B0 C0 D0 E0 F0 store(1)=2 store(2)=0 to_move=1");
    assert_eq!(to_move(&st), 1);
    assert_not_over(&e, &st);
}

#[test]
fn kalah_last_seed_in_an_empty_opponent_pit_does_nothing() {
    // 4.1 K3/K4: f's 2 seeds: store, A. A was empty but is the opponent's: no capture, no extra turn.
    let e = kalah();
    scenario(&e, "a1 f2 B1 to_move=1", "f", "a1 b0 c0 d0 e0 f0 A1 B1 C0 D0 E0 F0 store(1)=1 store(2)=0 to_move=2");
}

#[test]
fn kalah_capture_into_empty_own_pit_with_opposite_non_empty() {
    // 4.1 K4: a's last seed lands in c, empty and South's; D opposite holds 3: 1 + 3 go to the store.
    let e = kalah();
    scenario(&e, "a2 A1 D3 to_move=1", "a", "a0 b1 c0 d0 e0 f0 A1 B0 C0 D0 E0 F0 store(1)=4 store(2)=0 to_move=2");
}

#[test]
fn kalah_no_capture_when_the_opposite_pit_is_empty() {
    // 4.1 K4: c is empty and South's, but D opposite is empty: the seed stays in c.
    let e = kalah();
    scenario(&e, "a2 A1 to_move=1", "a", "a0 b1 c1 d0 e0 f0 A1 B0 C0 D0 E0 F0 store(1)=0 store(2)=0 to_move=2");
}

#[test]
fn kalah_empty_capture_variant_banks_the_lone_seed() {
    // 4.1 K4, variant "empty capture": the single seed is banked even though D opposite is empty.
    let e = kalah_empty_capture();
    scenario(&e, "a2 A1 to_move=1", "a", "a0 b1 c0 d0 e0 f0 A1 B0 C0 D0 E0 F0 store(1)=1 store(2)=0 to_move=2");
}

#[test]
fn kalah_empty_capture_variant_still_takes_the_opposite_pit() {
    // 4.1 K4, variant: with D non-empty the capture is the usual one.
    let e = kalah_empty_capture();
    scenario(&e, "a2 A1 D3 to_move=1", "a", "a0 b1 c0 d0 e0 f0 A1 B0 C0 D0 E0 F0 store(1)=4 store(2)=0 to_move=2");
}

#[test]
fn kalah_game_ends_when_the_movers_side_is_empty_and_north_sweeps() {
    // 4.1 K5: f's seed goes to the store and South's pits are all empty: the game ends at once (the extra
    // turn is moot), North adds A2 + B3 to his store: 21 - 27.
    let e = kalah();
    let st = scenario(
        &e,
        "f1 A2 B3 store(1)=20 store(2)=22 to_move=1",
        "f",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=21 store(2)=27 to_move=1",
    );
    assert_over(&st, &[2], &[21, 27], EndReason::Condition);
}

#[test]
fn kalah_game_ends_when_a_capture_empties_the_opponent_and_equal_is_a_draw() {
    // 4.1 K4 + K5: a's seed lands in empty b and takes E's 2 seeds: North is empty, the game ends, South adds
    // c's seed to his store: 24 - 24 is a draw.
    let e = kalah();
    let st = scenario(
        &e,
        "a1 c1 E2 store(1)=20 store(2)=24 to_move=1",
        "a",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=24 store(2)=24 to_move=2",
    );
    assert_over(&st, &[], &[24, 24], EndReason::Condition);
}

// ================================================================ Oware

#[test]
fn oware_twelve_seeds_skip_the_start_house() {
    // 4.2 O2: 12 seeds from a: b..f, A..F, then a is skipped and the 12th goes to b. a ends empty.
    let e = oware();
    scenario(&e, "a12 B1 to_move=1", "a", "a0 b2 c1 d1 e1 f1 A1 B2 C1 D1 E1 F1 to_move=2");
}

#[test]
fn oware_no_capture_in_own_row() {
    // 4.2 O3: a's seed makes b hold 2, but b is South's own house.
    let e = oware();
    scenario(&e, "a1 b1 C4 to_move=1", "a", "a0 b2 c0 d0 e0 f0 A0 B0 C4 D0 E0 F0 to_move=2");
}

#[test]
fn oware_capture_of_2_and_3_with_backward_chain_stopping_at_own_row() {
    // 4.2 O3: e's last seed makes B 3: captured; A (2) before it too; then f is South's own (even holding 2):
    // the chain stops. C1 and F4 keep North from a grand slam.
    let e = oware();
    scenario(&e, "e3 f1 A1 B2 C1 F4 to_move=1", "e", "a0 b0 c0 d0 e0 f2 A0 B0 C1 D0 E0 F4 captured(1)=5 to_move=2");
}

#[test]
fn oware_chain_stops_at_a_house_not_holding_2_or_3_and_only_goes_backward() {
    // 4.2 O3: d's last seed makes B 2: captured; A before it now holds 4: the chain stops.
    // C (2) after it is not looked at: the chain only goes backward.
    let e = oware();
    scenario(&e, "d4 A3 B1 C2 F2 to_move=1", "d", "a0 b0 c0 d0 e1 f1 A4 B0 C2 D0 E0 F2 captured(1)=2 to_move=2");
}

#[test]
fn oware_north_captures_in_souths_row() {
    // 4.2 O3, for North: F's 2 seeds make a 2 and b 3; b (last) and a before it are captured: 5. F before
    // them is North's own: the chain stops.
    let e = oware();
    scenario(&e, "a1 b2 c1 D5 F2 to_move=2", "F", "a0 b0 c1 d0 e0 f0 A0 B0 C0 D5 E0 F0 captured(2)=5 to_move=1");
}

#[test]
fn oware_grand_slam_captures_nothing() {
    // 4.2 O4: B (3) and A (2) would be all of North's seeds: the move is allowed but captures nothing.
    let e = oware();
    scenario(
        &e,
        "e3 A1 B2 captured(1)=10 to_move=1",
        "e",
        "a0 b0 c0 d0 e0 f1 A2 B3 C0 D0 E0 F0 captured(1)=10 to_move=2",
    );
}

#[test]
fn oware_must_feed_an_empty_opponent() {
    // 4.2 O5: North has no seeds: only f (reaching A, B) gives him some; a does not.
    let e = oware();
    let before = "a3 f2 captured(1)=20 captured(2)=23 to_move=1";
    assert_eq!(legal(&e, before), ["f"]);
    assert_illegal(&e, &position(&e, before), "a");
    let st = scenario(&e, before, "f", "a3 b0 c0 d0 e0 f0 A1 B1 C0 D0 E0 F0 captured(1)=20 captured(2)=23 to_move=2");
    assert_not_over(&e, &st);
}

#[test]
fn oware_feeding_impossible_ends_the_game_and_each_side_takes_its_own_seeds() {
    // 4.2 O5: North's last seed goes to a, leaving North empty; no South move (a1 b1 c1) reaches North, so the
    // game ends and South takes the 3 seeds of his own row: 24 - 24, a draw.
    let e = oware();
    let st = scenario(
        &e,
        "b1 c1 F1 captured(1)=21 captured(2)=24 to_move=2",
        "F",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 captured(1)=24 captured(2)=24 to_move=1",
    );
    assert_over(&st, &[], &[24, 24], EndReason::Obligation);
}

#[test]
fn oware_25_captured_ends_the_game() {
    // 4.2 O6: e's last seed makes A 2: captured, 23 + 2 = 25: South wins at once. The engine then sweeps the
    // houses left to their owners (f1 to South, B1 C2 to North); the rules are silent on it and it cannot
    // change the winner.
    let e = oware();
    let st = scenario(
        &e,
        "e2 A1 B1 C2 captured(1)=23 captured(2)=20 to_move=1",
        "e",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 captured(1)=26 captured(2)=23 to_move=2",
    );
    assert_over(&st, &[1], &[26, 23], EndReason::Condition);
}

#[test]
fn oware_repetition_ends_the_game_and_each_side_takes_its_own_seeds() {
    // 4.2 O6 (OpenSpiel: any repeat since the last capture): one seed each, chasing round the board. After 12
    // plies the position is the starting one again (the seeds are alike).
    let e = oware();
    let start = "a1 A1 captured(1)=23 captured(2)=23 to_move=1";
    let cycle = ["a", "A", "b", "B", "c", "C", "d", "D", "e", "E", "f", "F", "a"];
    let mut st = position(&e, start);
    let mut played = 0;
    for ply in cycle {
        if st.result.is_some() {
            break;
        }
        play(&e, &mut st, ply);
        played += 1;
        if played < 12 {
            assert_not_over(&e, &st);
        }
    }
    assert_eq!(st.result.as_ref().map(|o| o.reason), Some(EndReason::Repetition));
    // Each side takes the seed in its own row: 24 - 24.
    assert_eq!(result(&st).map(|r| (r.0, r.1)), Some((vec![], vec![24, 24])));
    assert_eq!(
        &(played, show(&e, &st)),
        &(12, "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 captured(1)=24 captured(2)=24 to_move=1".to_string()),
        "Oware: a return to the starting position ends the game"
    );
}

/// The end rules are tested before the first ply too: a position typed in where North's row is already
/// empty is over at once (each player banks what is left in his pits), although South could move.
#[test]
fn kalah_a_start_position_with_an_empty_row_is_over() {
    let e = kalah();
    let st = position(&e, "a1 store(1)=20 store(2)=27 to_move=1");
    assert_over(&st, &[2], &[21, 27], EndReason::Condition);
    assert!(plies(&e, &st).is_empty());
}
