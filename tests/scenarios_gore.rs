//! Rule scenarios for Goré: one position, one ply (or a few), the exact position after it.
//! Rules: `docs/games/gore.md`, decisions GO-1 .. GO-16.
//!
//! The track, counter-clockwise: `a b c d A B C D` (South starts owning a..d, North A..D); `d` is followed by
//! `A`, and `D` by `a`. Captured seeds are in `captured(1)`, `captured(2)`; `owner(X)=N` marks a traded hole.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine, Stage};

fn gore() -> Engine {
    engine("gore", None, None)
}

// ---------------------------------------------------------------- sowing and capture

#[test]
fn start() {
    // 2.2 Setup, GO-9: 6 seeds per hole, South first.
    let e = gore();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a6 b6 c6 d6 A6 B6 C6 D6 to_move=1");
    // Nobody has captured anything: no offer can be paid for (GO-2), only sowings.
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d"]);
}

#[test]
fn capture_of_2_in_an_opponent_hole() {
    // 2.2 Capture: d's seed makes A 2: captured. Backward, d (emptied) stops; forward, B (3) stops.
    let e = gore();
    scenario(&e, "a6 d1 A1 B3 C6 to_move=1", "d", "a6 b0 c0 d0 A0 B3 C6 D0 captured(1)=2 to_move=2");
}

#[test]
fn capture_of_4_in_an_opponent_hole() {
    // 2.2 Capture: A becomes 4: captured. B (1) stops the forward walk.
    let e = gore();
    scenario(&e, "a6 d1 A3 B1 C6 to_move=1", "d", "a6 b0 c0 d0 A0 B1 C6 D0 captured(1)=4 to_move=2");
}

#[test]
fn no_capture_of_3() {
    // 2.2 Capture: only exactly 2 or 4.
    let e = gore();
    scenario(&e, "a6 d1 A2 C6 to_move=1", "d", "a6 b0 c0 d0 A3 B0 C6 D0 to_move=2");
}

#[test]
fn no_capture_in_an_own_hole() {
    // 2.2 Capture: d becomes 2 but is South's own hole.
    let e = gore();
    scenario(&e, "c1 d1 A6 to_move=1", "c", "a0 b0 c0 d2 A6 B0 C0 D0 to_move=2");
}

#[test]
fn capture_in_a_hole_the_opponent_owns_now() {
    // GO-1: "opponent's" means owned now. d has been traded to North: South's seed making it 2 captures it.
    let e = gore();
    let st = position(&e, "c1 d1 A6 owner(d)=2 to_move=1");
    // South cannot sow from d any more.
    assert_illegal(&e, &st, "d");
    scenario(&e, "c1 d1 A6 owner(d)=2 to_move=1", "c", "a0 b0 c0 d0 A6 B0 C0 D0 captured(1)=2 owner(d)=2 to_move=2");
}

#[test]
fn chains_backward_and_forward_wrapping_into_own_holes() {
    // 2.2 Capture, GO-6: c's 3 seeds go to d, A, B. B (last, 2): captured.
    // Backward: A (4) captured, d (South's own, 2) captured too (the walks ignore ownership), c (emptied) stops.
    // Forward: C (4), D (2), then round the corner to a (South's own, 2), all captured; b (5) stops.
    // 2 + 4 + 2 + 4 + 2 + 2 = 16.
    let e = gore();
    scenario(&e, "a2 b5 c3 d1 A3 B1 C4 D2 to_move=1", "c", "a0 b5 c0 d0 A0 B0 C0 D0 captured(1)=16 to_move=2");
}

#[test]
fn a_walk_round_the_board_and_a_captured_hole_stopping_the_other_walk() {
    // GO-5: 20 seeds from a go round twice and on (the start hole is not skipped: a gets 2), the last in A (4).
    // Backward the walk captures d c b (4 each), a (2), D C B (2 each); forward the first hole, B, was just
    // captured, so it is empty and stops that walk (GO-15). All 24 seeds are captured; every hole now holds
    // at most 2, so the game ends (nothing left to sweep).
    let e = gore();
    let st = scenario(&e, "a20 b1 c1 d1 A1 to_move=1", "a", "a0 b0 c0 d0 A0 B0 C0 D0 captured(1)=24 to_move=2");
    assert_over(&st, &[1], &[24, 0], EndReason::Condition);
}

#[test]
fn eight_seeds_go_round_without_skipping_the_start_hole() {
    // GO-5: 8 seeds from a reach every other hole and the 8th falls back into a (South's own: no capture).
    let e = gore();
    scenario(&e, "a8 A6 to_move=1", "a", "a1 b1 c1 d1 A7 B1 C1 D1 to_move=2");
}

#[test]
fn a_single_seed_may_be_sown() {
    // GO-11: any non-empty owned hole, even a single seed; with one, there is nothing else to do (no pass).
    let e = gore();
    assert_eq!(legal(&e, "a1 A6 B6 C6 D6 captured(1)=12 captured(2)=2 to_move=1"), ["a"]);
}

// ---------------------------------------------------------------- offers

#[test]
fn offer_one_to_three_holes_keeping_one() {
    // 2.2 Turn 2, GO-4, GO-10: with 4 holes and North able to pay 18, South may offer any 1, 2 or 3 of them
    // (4 + 6 + 4 = 14 offers) as well as sow.
    let e = gore();
    let all = legal(&e, "a6 b6 c6 d6 A6 B6 C6 D6 captured(2)=18 to_move=1");
    let offers: Vec<&String> = all.iter().filter(|p| p.starts_with("offer")).collect();
    assert_eq!(offers.len(), 14, "{all:?}");
    assert!(all.contains(&"offer a,b,c".to_string()) && !all.contains(&"offer a,b,c,d".to_string()));
    assert_eq!(all.len(), 18);
}

#[test]
fn offer_only_when_the_opponent_could_pay() {
    // GO-2: North has 12 captured: offers of 1 or 2 holes only (4 + 6).
    let e = gore();
    let all = legal(&e, "a6 b6 c6 d6 A6 B6 C6 D6 captured(2)=12 to_move=1");
    assert_eq!(all.iter().filter(|p| p.starts_with("offer")).count(), 10, "{all:?}");
    assert!(all.iter().all(|p| p.matches(',').count() <= 1), "{all:?}");
    // With 5 he could not pay for one: no offer at all.
    assert_eq!(legal(&e, "a6 b6 c6 d6 A6 B6 C6 D6 captured(2)=5 to_move=1"), ["a", "b", "c", "d"]);
}

#[test]
fn offer_must_keep_one_hole() {
    // GO-10: owning two holes, South may offer only one of them.
    let e = gore();
    assert_eq!(
        legal(&e, "a6 b6 A6 B6 C6 D6 owner(c)=2 owner(d)=2 captured(2)=18 to_move=1"),
        ["a", "b", "offer a", "offer b"]
    );
}

#[test]
fn accepted_offer_transfers_the_hole_with_six_seeds_then_the_responder_plays() {
    // 2.2 Turn 2, GO-2, GO-3, GO-16: the offer is South's whole ply; North answers (a ply) and then plays his
    // normal turn (another ply), from any hole he owns now, the received one included.
    let e = gore();
    let mut st = scenario(
        &e,
        "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=4 captured(2)=8 to_move=1",
        "offer c",
        "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=4 captured(2)=8 to_move=2 offered=c",
    );
    assert_eq!((to_move(&st), st.stage, st.ply), (2, Stage::Respond, 1));
    assert_eq!(plies(&e, &st), ["accept", "decline"]);

    // Accept: c becomes North's and gets 6 of North's captured seeds on top of its 6.
    play(&e, &mut st, "accept");
    assert_eq!(show(&e, &st), "a3 b6 c12 d6 A6 B6 C6 D6 captured(1)=4 captured(2)=2 owner(c)=2 to_move=2");
    assert_eq!((to_move(&st), st.stage, st.ply), (2, Stage::Start, 2));
    // North's own turn: he may sow from c now (and cannot offer: South has only 4 captured).
    assert_eq!(plies(&e, &st), ["c", "A", "B", "C", "D"]);

    // North sows c's 12 seeds: d A B C D a b, c itself (no skip), d A B C. The last lands in C, his own.
    play(&e, &mut st, "c");
    assert_eq!(show(&e, &st), "a4 b7 c1 d8 A8 B8 C8 D7 captured(1)=4 captured(2)=2 owner(c)=2 to_move=1");
    assert_eq!(to_move(&st), 1);
}

#[test]
fn declined_offer_changes_nothing_then_the_responder_plays_and_may_offer() {
    // 2.2 Turn 2, GO-3, GO-14, GO-7: after a refusal the board is unchanged and North takes his normal turn,
    // which may itself be an offer.
    let e = gore();
    let mut st = position(&e, "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=6 captured(2)=8 to_move=1");
    play(&e, &mut st, "offer c");
    assert_eq!(to_move(&st), 2);
    play(&e, &mut st, "decline");
    assert_eq!(show(&e, &st), "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=6 captured(2)=8 to_move=2");
    assert_eq!((to_move(&st), st.stage, st.ply), (2, Stage::Start, 2));
    let options = plies(&e, &st);
    assert!(options.contains(&"A".to_string()) && options.contains(&"offer C".to_string()), "{options:?}");
    play(&e, &mut st, "offer C");
    assert_eq!(show(&e, &st), "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=6 captured(2)=8 to_move=1 offered=C");
    assert_eq!(to_move(&st), 1);
}

// ---------------------------------------------------------------- passing

#[test]
fn pass_only_without_a_non_empty_owned_hole_and_offering_instead() {
    // 2.2 Turn 3, GO-4: South's holes are all empty: he passes or offers (North could pay for 2 holes).
    let e = gore();
    let before = "A6 B6 C6 D6 captured(1)=12 captured(2)=12 to_move=1";
    let all = legal(&e, before);
    assert!(all.contains(&"pass".to_string()), "{all:?}");
    assert_eq!(all.iter().filter(|p| p.starts_with("offer")).count(), 10, "{all:?}");
    assert_eq!(all.len(), 11);
    let st = scenario(&e, before, "pass", "a0 b0 c0 d0 A6 B6 C6 D6 captured(1)=12 captured(2)=12 to_move=2");
    assert_not_over(&e, &st);
}

#[test]
fn pass_is_the_only_move_when_no_offer_can_be_paid() {
    // 2.2 Turn 3, GO-2: nothing to sow and North has only 2 captured: pass alone.
    let e = gore();
    assert_eq!(legal(&e, "A6 B6 C6 D6 captured(1)=12 captured(2)=2 to_move=1"), ["pass"]);
}

#[test]
fn no_pass_while_a_hole_can_be_sown() {
    // 2.2 Turn 3.
    let e = gore();
    let st = position(&e, "a1 A6 B6 C6 D6 captured(1)=12 captured(2)=12 to_move=1");
    assert_illegal(&e, &st, "pass");
}

// ---------------------------------------------------------------- the end

#[test]
fn end_when_every_hole_holds_two_or_fewer_with_the_sweep_to_the_owners() {
    // 2.2 End, GO-12: a's 3 seeds go to b, c, d (own holes, no capture); every hole then holds at most 2: the
    // game ends. South owns b c d and B (traded): 4 seeds; North A: 1. 24 - 21.
    let e = gore();
    let st = scenario(
        &e,
        "a3 A1 B1 owner(B)=1 captured(1)=20 captured(2)=20 to_move=1",
        "a",
        "a0 b0 c0 d0 A0 B0 C0 D0 captured(1)=24 captured(2)=21 owner(B)=1 to_move=2",
    );
    assert_over(&st, &[1], &[24, 21], EndReason::Condition);
}

#[test]
fn repetition_of_offers_and_refusals_ends_the_game() {
    // GO-8, GO-13: the position includes the pending offer, so a refusal does not end the game by itself.
    // South offers c, North refuses, North offers C, South refuses: the starting position (South to move, no
    // offer) is back, and the initial position counts: the game ends with the normal sweep.
    let e = gore();
    let start = "a3 b6 c6 d6 A6 B6 C6 D6 captured(1)=6 captured(2)=6 to_move=1";
    let mut st = position(&e, start);
    let mut played = 0;
    for ply in ["offer c", "decline", "offer C", "decline", "offer c"] {
        if st.result.is_some() {
            break;
        }
        play(&e, &mut st, ply);
        played += 1;
        if played < 4 {
            assert_not_over(&e, &st);
        }
    }
    assert_eq!(st.result.as_ref().map(|o| o.reason), Some(EndReason::Repetition));
    // The sweep: South a..d 21 + 6, North A..D 24 + 6.
    assert_eq!(result(&st).map(|r| (r.0, r.1)), Some((vec![2], vec![27, 30])));
    assert_eq!(
        &(played, show(&e, &st)),
        &(4, "a0 b0 c0 d0 A0 B0 C0 D0 captured(1)=27 captured(2)=30 to_move=1".to_string()),
        "Goré: a return to the starting position ends the game (GO-13)"
    );
}

#[test]
fn reaching_the_standard_start_position_from_a_set_up_one_is_no_repetition() {
    // GO-8, GO-13: North sows 48 seeds from A: six laps, 6 in every hole (no skip, GO-5), the last in A, his own.
    // That is the standard start position, but in this game it has never occurred: play goes on.
    let e = gore();
    let mut st = position(&e, "A48 to_move=2");
    play(&e, &mut st, "A");
    assert_eq!(
        &(show(&e, &st), st.result.as_ref().map(|o| o.reason)),
        &("a6 b6 c6 d6 A6 B6 C6 D6 to_move=1".to_string(), None),
        "Goré: a set-up position does not inherit the standard start position's history"
    );
}

#[test]
fn a_position_that_comes_back_after_trades_put_seeds_back_on_the_board_ends_the_game() {
    // GO-8, GO-13: accepted trades put captured seeds back on the board, so the number of seeds on the board
    // goes down and up again, and a position can come back after such changes. These 40 plies (captures,
    // trades, refusals) return to the start position, North to move: the game ends there, with the sweep.
    let e = gore();
    let start = "a0 b0 c0 d3 A0 B0 C0 D0 captured(1)=21 captured(2)=24 to_move=2";
    let plies = "offer A|accept|A|offer B|decline|offer A|accept|A|offer a|accept|a|b|offer a|accept|d|D|a|B|d|C|\
                 offer a|accept|a|offer b|decline|offer a|accept|a|offer A|accept|A|B|offer A|accept|D|d|A|b|D|c";
    let plies: Vec<&str> = plies.split('|').collect();
    assert_eq!(plies.len(), 40);
    let mut st = position(&e, start);
    for (i, ply) in plies.iter().enumerate() {
        assert_not_over(&e, &st);
        play(&e, &mut st, ply);
        if i + 1 < plies.len() {
            assert_not_over(&e, &st);
        }
    }
    // The sweep: South's d (3) to South; 24-24.
    assert_over(&st, &[], &[24, 24], EndReason::Repetition);
}

#[test]
fn a_start_position_with_an_offer_pending_counts_for_repetition() {
    // GO-8, GO-13: the start position has South's offer of a pending, North to answer. North declines, offers
    // A, South declines, North offers a again: the start position is back at the fourth ply, and the game ends.
    let e = gore();
    let mut st = position(&e, "a3 b3 c3 d3 A3 B3 C3 D3 captured(1)=12 captured(2)=12 to_move=2 offered=a");
    play_all(&e, &mut st, &["decline", "offer A", "decline"]);
    assert_not_over(&e, &st);
    play(&e, &mut st, "offer a");
    assert_eq!(st.result.as_ref().map(|o| o.reason), Some(EndReason::Repetition));
}
