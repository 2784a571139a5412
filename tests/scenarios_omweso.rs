//! Rule scenarios for Omweso (`games/omweso.mancala`), one per decision of `docs/games/omweso.md`
//! (OM-1 .. OM-10, ENGINE-1).
//!
//! The board: South (player 1) has his outer row `o1..o8` and inner row `i1..i8`, North `O1..O8` and
//! `I1..I8`, each numbered from its owner's left. South's counter-clockwise circuit is o1..o8, i8..i1; his
//! `ik` faces North's `I(9-k)` and, behind it, `O(9-k)`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine, State};

fn omweso(variant: Option<&str>) -> Engine {
    engine("omweso", variant, None)
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

#[test]
fn om1_standard_setup_fills_the_outer_rows() {
    let e = omweso(None);
    let st = e.initial_state();
    assert_eq!(seeds(&e, &st, &["o1", "o8", "i1", "i8", "O1", "O8", "I1", "I8"]), [4, 4, 0, 0, 4, 4, 0, 0]);
    assert_eq!(st.counts.iter().map(|&c| c as u32).sum::<u32>(), 64);
    // From o8 the 4 seeds go into i8, i7, i6, i5: the circuit turns from the outer row into the inner.
    assert_eq!(plies(&e, &st), ["o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8"]);
}

#[test]
fn om1_om3_placement_player_1_places_all_then_player_2() {
    let e = omweso(Some("placement"));
    let mut st = e.initial_state();
    // One seed a ply into any of his 16 pits.
    assert_eq!(plies(&e, &st).len(), 16);
    for _ in 0..32 {
        assert_eq!(to_move(&st), 1);
        play(&e, &mut st, "i4");
    }
    for _ in 0..32 {
        assert_eq!(to_move(&st), 2);
        play(&e, &mut st, "O1");
    }
    // OM-2: then player 1 sows first.
    assert_eq!(to_move(&st), 1);
    assert_eq!(seeds(&e, &st, &["i4", "O1"]), [32, 32]);
    assert_eq!(plies(&e, &st), ["i4"]);
}

#[test]
fn om2_flag_the_second_arranger_sows_first() {
    let e = omweso(Some("placement-second-sows"));
    let mut st = e.initial_state();
    for _ in 0..32 {
        play(&e, &mut st, "o1");
    }
    for _ in 0..32 {
        play(&e, &mut st, "O2");
    }
    assert_eq!(to_move(&st), 2);
    assert_eq!(plies(&e, &st), ["O2"]);
}

#[test]
fn om3_flag_placements_alternate() {
    let e = omweso(Some("placement-alternate"));
    let mut st = e.initial_state();
    play(&e, &mut st, "o1");
    assert_eq!(to_move(&st), 2);
    play(&e, &mut st, "O1");
    assert_eq!(to_move(&st), 1);
}

#[test]
fn om4_captured_seeds_are_sown_from_the_capturing_laps_origin() {
    // o7 into o8, i8; i8 held 1 and faces I1 and O1, both occupied: their 3 seeds are sown from o7 again,
    // into o8, i8, i7, retracing the lap; i7 was empty, the move ends.
    let e = omweso(None);
    let mut st = position(&e, "o7=2 i8=1 I1=1 O1=2 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o7", "o8", "i8", "i7", "I1", "O1", "O5"]), [0, 2, 3, 1, 0, 0, 2]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn om4_after_a_relay_the_seeds_are_sown_from_the_relay_laps_origin() {
    let e = omweso(None);
    let mut st = position(&e, "o1=2 o3=5 o5=0 i8=1 I1=1 O1=1 O5=2");
    play(&e, &mut st, "o1");
    // Lap 1: o2=1, o3=6. Lap 2 from o3 (6): o4..o8, i8 (held 1): capture I1+O1, sown from o3: o4, o5.
    // o5 held 1: relay 2 from o5: o6, o7; o7 held 1: relay 2: o8, i8; i8 held 2, facing nothing: relay 3
    // from i8: i7, i6, i5, all empty before: the move ends in i5.
    assert_eq!(
        seeds(&e, &st, &["o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "i8", "i7", "i6", "i5", "I1", "O1"]),
        [0, 1, 0, 2, 0, 2, 0, 2, 0, 1, 1, 1, 0, 0]
    );
}

#[test]
fn om5_no_capture_from_an_empty_last_pit() {
    // o7 into o8, i8; i8 was empty: no capture although I1 and O1 hold seeds; the move ends.
    let e = omweso(None);
    let mut st = position(&e, "o7=2 I1=1 O1=2 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o8", "i8", "I1", "O1"]), [1, 1, 1, 2]);
}

#[test]
fn capture_needs_both_facing_pits() {
    // i8 held 1 but only I1 faces it with seeds: no capture; relay from i8 instead (2 seeds: i7, i6).
    let e = omweso(None);
    let mut st = position(&e, "o7=2 i8=1 I1=1 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o8", "i8", "i7", "i6", "I1"]), [1, 0, 1, 1, 1]);
}

#[test]
fn relay_from_an_occupied_pit() {
    // o1 into o2, o3 (held 1): relay 2 from o3 into o4, o5; o5 was empty.
    let e = omweso(None);
    let mut st = position(&e, "o1=2 o3=1 O5=2");
    play(&e, &mut st, "o1");
    assert_eq!(seeds(&e, &st, &["o1", "o2", "o3", "o4", "o5"]), [0, 1, 0, 1, 1]);
}

#[test]
fn om6_reverse_lap_only_from_the_four_leftmost_pits_and_only_when_it_captures() {
    let e = omweso(None);
    // o2 clockwise: o1, i1; i1 held 1 and faces I8 and O8: a capture, so the mover may choose.
    let st = position(&e, "o2=2 i1=1 I8=1 O8=1 O4=2");
    assert_eq!(plies(&e, &st), ["o2ccw", "o2cw"]);
    let mut cw = st.clone();
    play(&e, &mut cw, "o2cw");
    // I8 and O8's 2 seeds are sown from o2: clockwise they would not capture, so counter-clockwise: o3, o4.
    assert_eq!(seeds(&e, &cw, &["o2", "o1", "i1", "o3", "o4", "I8", "O8"]), [0, 1, 2, 1, 1, 0, 0]);
    // i3 is not one of the four: clockwise it would capture in i5, but it goes counter-clockwise only.
    let st = position(&e, "i3=2 i5=1 I4=1 O4=1 O5=2");
    assert_eq!(plies(&e, &st), ["i3"]);
    // o1 is one of them, but clockwise (i1, i2) it would not capture: no choice.
    let st = position(&e, "o1=2 O5=2");
    assert_eq!(plies(&e, &st), ["o1"]);
}

#[test]
fn om7_a_relay_lap_from_a_leftmost_pit_may_turn() {
    // i4 into i3, i2, i1 (held 1): relay 2 from i1, one of the four: clockwise (i2, i3) it ends in i3,
    // which held 1, facing I6 and O6: it may go clockwise. The choice is written after the pit.
    let e = omweso(None);
    let st = position(&e, "i4=3 i1=1 I6=1 O6=1 O4=2");
    assert_eq!(plies(&e, &st), ["i4 ccw", "i4 cw"]);
    // OM-7 flag `reverse: first_lap_only`: no choice after the first lap.
    let e = omweso(Some("reverse-first-lap"));
    let st = position(&e, "i4=3 i1=1 I6=1 O6=1 O4=2");
    assert_eq!(plies(&e, &st), ["i4"]);
}

#[test]
fn singletons_are_never_sown_and_a_player_without_a_pair_loses() {
    let e = omweso(None);
    // After player 1's move, player 2 has two single seeds only: he cannot move and loses (OM-10: tested
    // at his turn).
    let mut st = position(&e, "o1=2 O1=1 O2=1");
    play(&e, &mut st, "o1");
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![1], EndReason::LastStanding)));
    // A single seed is never sown.
    let st = position(&e, "o1=1 o2=2 O1=2");
    assert_eq!(plies(&e, &st), ["o2"]);
}

#[test]
fn om8_capturing_at_both_ends_of_the_inner_row_wins() {
    // o7 into o8, i8 (held 1, facing I1, O1): capture, sown from o7 into o8, i8; i8 relays 3 into i7, i6,
    // i5 (held 1): relay into i4, i3 (held 1): relay into i2, i1 (held 1, facing I8, O8): capture at the
    // other end. The move captured at both ends: player 2 is out, player 1 wins at once.
    let e = omweso(None);
    let mut st = position(&e, "o7=2 i8=1 I1=1 O1=1 i5=1 i3=1 i1=1 I8=1 O8=1 O4=2");
    play(&e, &mut st, "o7");
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![1], EndReason::LastStanding)));
    // OM-8 off: the game goes on.
    let e = omweso(Some("no-special-win"));
    let mut st = position(&e, "o7=2 i8=1 I1=1 O1=1 i5=1 i3=1 i1=1 I8=1 O8=1 O4=2");
    play(&e, &mut st, "o7");
    assert_not_over(&e, &st);
}

/// ENGINE-2: in a game won by leaving the opponent without a move, a position that comes back is a draw,
/// whatever the seeds on each side say. On a board of one pit a side, 2 seeds against 1 come back after two
/// plies: `a` sows into A and a, then A sows into a and A.
#[test]
fn engine2_a_repeated_position_draws_under_draw_when_repetition() {
    let rules = |rule: &str| {
        format!(
            "game \"Loop\"\nplayers 2\nboard two_rows 1\npieces seeds\nsetup {{\n  a: 2\n  A: 1\n}}\n\
             turn {{\n  sow {{\n    from pits(mover) where count > 0\n    direction ccw\n  }}\n}}\n\
             end {{\n  {rule}\n}}\nscore count(pits(player))\nwinner most score, ties draw\n"
        )
    };
    let drawn = mancala::compile(&rules("draw when repetition"), None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let mut st = drawn.initial_state();
    play_all(&drawn, &mut st, &["a", "A"]);
    assert_over(&st, &[], &[2, 1], EndReason::RepetitionDraw);
    // `when repetition` ends the same game on the scores instead.
    let scored = mancala::compile(&rules("when repetition"), None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let mut st = scored.initial_state();
    play_all(&scored, &mut st, &["a", "A"]);
    assert_over(&st, &[1], &[2, 1], EndReason::Repetition);
    // Omweso says so.
    let e = omweso(None);
    assert!(e.rules.end.items.iter().any(|r| matches!(r, mancala::ir::EndRule::DrawRepetition)));
}

/// OM-10: a capture that takes the opponent's last seeds does not stop the move: its seeds are sown on, and
/// only at the opponent's turn is he found without a move, and out.
#[test]
fn om10_a_capture_of_the_last_seeds_completes_the_move_and_the_end_comes_at_the_opponents_turn() {
    let e = omweso(None);
    // o7 into o8, i8 (held 1): I1 and O1, all North has, are taken and sown from o7: o8, i8, i7.
    let mut st = position(&e, "o7=2 i8=1 I1=1 O1=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o7", "o8", "i8", "i7", "I1", "O1"]), [0, 2, 3, 1, 0, 0]);
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![1], EndReason::LastStanding)));
}

/// OM-9, ENGINE-1: the three-minute limit of tournaments becomes the engine's lap cap, and a move past it
/// (or one that comes back to a position) is annulled: a draw. How the rule plays is tested on a small board
/// in `scenarios_laps.rs`; here, that Omweso declares it in every variant.
#[test]
fn om9_engine1_a_never_ending_move_is_a_draw_in_every_variant() {
    let variants = [
        "default",
        "placement",
        "placement-alternate",
        "placement-second-sows",
        "reverse-first-lap",
        "no-special-win",
        "second-capture-wins",
    ];
    for v in variants {
        let e = omweso(Some(v));
        let rules = e.rules.end.items.iter().chain(e.rules.phases.iter().flat_map(|p| &p.end.items));
        assert!(rules.clone().any(|r| matches!(r, mancala::ir::EndRule::Endless)), "{v}");
        assert!(rules.clone().any(|r| matches!(r, mancala::ir::EndRule::DrawRepetition)), "{v}: ENGINE-2");
    }
}

/// OM-8 flag: a second capturing move while the opponent has not yet captured wins. `captures(PLAYER)`
/// counts a player's plies that made a capture; a position typed by hand starts them at 0, so the first
/// capture is set by hand here.
#[test]
fn om8_flag_a_second_capturing_move_before_the_opponent_captures_wins() {
    let e = omweso(Some("second-capture-wins"));
    let start = position(&e, "o7=2 i8=1 I1=1 O1=2 O5=2");
    // South has captured once already, North never: South's second capture (as in OM-4) wins at once.
    let mut st = start.clone();
    st.capture_plies[0] = 1;
    play(&e, &mut st, "o7");
    assert_eq!(st.capture_plies[0], 2);
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![1], EndReason::LastStanding)));
    // Not when North has captured too, nor with South's first capture.
    for (south, north) in [(1, 1), (0, 0)] {
        let mut st = start.clone();
        st.capture_plies[0] = south;
        st.capture_plies[1] = north;
        play(&e, &mut st, "o7");
        assert_not_over(&e, &st);
    }
    // Nor in the default game.
    let e = omweso(None);
    let mut st = position(&e, "o7=2 i8=1 I1=1 O1=2 O5=2");
    st.capture_plies[0] = 1;
    play(&e, &mut st, "o7");
    assert_not_over(&e, &st);
}

/// ENGINE-1 and a stuck opponent: South's `o1` would never end, and stops where North has no pit of two
/// seeds. The move is annulled before North's turn comes, so "cannot move" is never tested: a draw.
#[test]
fn engine1_a_never_ending_move_is_a_draw_even_when_the_opponent_could_not_move() {
    let e = omweso(None);
    let mut st = position(
        &e,
        "o1=3 o2=1 o3=2 o4=8 o6=1 o8=2 i1=4 i2=14 i3=3 i4=14 i6=4 i7=2 i8=1 O2=1 O4=1 O5=1 O7=1 O8=1 to_move=1",
    );
    play(&e, &mut st, "o1");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
}

/// OM-4: the seeds captured by a counter-clockwise lap are sown on from its origin the same way, retracing
/// it: that lap is never asked to turn clockwise, even from a leftmost pit (here o1, where a clockwise
/// resowing would capture again).
#[test]
fn om4_a_resowing_retraces_the_capturing_lap_and_never_turns() {
    let e = omweso(None);
    assert_eq!(legal(&e, "o1=9 i2=1 i7=1 I2=1 O2=1 I7=1 O7=1 O5=2"), ["o1"]);
}
