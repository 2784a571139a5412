//! Rule scenarios for Gabata (`games/gabata.mancala`), one per decision of `docs/games/gabata.md`
//! (GA-1 .. GA-7).
//!
//! The board (`rows 3 of 6`): South (player 1) owns his row `o1..o6` and the right half of the middle row
//! `i1..i3`; North owns `O1..O6` and `I1..I3`. One counter-clockwise circuit runs o1..o6, i3..i1, O1..O6,
//! I3..I1 and back to o1. A wegue is marked `wegue(P)` for the player P who made it, and owned by him.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn gabata(variant: Option<&str>) -> Engine {
    engine("gabata", variant, None)
}

/// The position text of a board where only these holes hold counters (every other hole is written 0), in
/// the first round of the match.
fn board(pits: &[(&str, u8)], rest: &str) -> String {
    in_round(pits, &format!("{rest} round=1 starter=1"))
}

/// The position text of a board where only these holes hold counters, `rest` saying the round.
fn in_round(pits: &[(&str, u8)], rest: &str) -> String {
    let labels =
        ["o1", "o2", "o3", "o4", "o5", "o6", "i1", "i2", "i3", "O1", "O2", "O3", "O4", "O5", "O6", "I1", "I2", "I3"];
    let mut words: Vec<String> =
        labels.iter().map(|l| format!("{l}={}", pits.iter().find(|(p, _)| p == l).map_or(0, |(_, n)| *n))).collect();
    if !rest.is_empty() {
        words.push(rest.to_string());
    }
    words.join(" ")
}

#[test]
fn setup_three_counters_in_every_fresh_hole() {
    let e = gabata(None);
    let st = e.initial_state();
    assert_eq!(st.counts.iter().map(|&c| c as u32).sum::<u32>(), 54);
    let every = "o1,o2,o3,o4,o5,o6,i1,i2,i3,O1,O2,O3,O4,O5,O6,I1,I2,I3";
    let three = in_round(&[], &format!("fresh={every} to_move=1 round=1 starter=1")).replace("=0 ", "=3 ");
    assert_eq!(show(&e, &st), three);
    // South starts, from any of his nine holes.
    assert_eq!(plies(&e, &st), ["o1", "o2", "o3", "o4", "o5", "o6", "i1", "i2", "i3"]);
}

#[test]
fn ga1_a_fresh_hole_reaching_4_does_not_become_a_wegue() {
    // South's i1 drops its counter into North's fresh O1, which now holds 4: no wegue. O1 was occupied, so
    // it relays: lifted (and no longer fresh), its 4 go into O2..O5, and O5 was empty.
    let e = gabata(None);
    scenario(
        &e,
        &board(&[("i1", 1), ("O1", 3), ("O6", 2)], "fresh=O1,O6 to_move=1"),
        "i1",
        &board(&[("O2", 1), ("O3", 1), ("O4", 1), ("O5", 1), ("O6", 2)], "fresh=O6 to_move=2"),
    );
}

#[test]
fn ga1_a_lifted_hole_is_no_longer_fresh_and_a_played_hole_can_become_a_wegue() {
    // South lifts the fresh i3 by a relay: o6's counter makes it 3, its 3 go to i2, i1 and O1, which has
    // been played (not fresh) and now holds 4: South's wegue, and the move ends there.
    let e = gabata(None);
    scenario(
        &e,
        &board(&[("o6", 1), ("i3", 2), ("O1", 3)], "fresh=o6,i3 to_move=1"),
        "o6",
        &board(&[("i1", 1), ("i2", 1), ("O1", 4)], "owner(O1)=1 wegue(1)=O1 to_move=2"),
    );
}

#[test]
fn ga1_wegue_made_ends_the_move() {
    // O1 held 3 and was not fresh: the last counter makes 4, the hole becomes South's wegue (and his), and
    // there is no relay though it was occupied.
    let e = gabata(None);
    scenario(
        &e,
        &board(&[("i1", 1), ("O1", 3), ("O6", 2)], "to_move=1"),
        "i1",
        &board(&[("O1", 4), ("O6", 2)], "owner(O1)=1 wegue(1)=O1 to_move=2"),
    );
    // A hole of his own that reaches 4 is no wegue: i3 relays.
    scenario(
        &e,
        &board(&[("o6", 1), ("i3", 3), ("O6", 2)], "to_move=1"),
        "o6",
        &board(&[("i1", 1), ("i2", 1), ("O1", 1), ("O2", 1), ("O6", 2)], "to_move=2"),
    );
}

#[test]
fn ga1_flag_fresh_none_lets_the_first_move_make_a_wegue() {
    // Without the rule, no hole is fresh: from the setup, South's i1 sows its 3 into O1, O2 and O3, the last
    // making 4 there: a wegue at once.
    let e = gabata(Some("fresh-none"));
    let mut st = e.initial_state();
    play(&e, &mut st, "i1");
    let text = show(&e, &st);
    assert!(text.contains("O3=4") && text.contains("wegue(1)=O3"), "{text}");
    // In the default game the same move relays on from O3.
    let e = gabata(None);
    let mut st = e.initial_state();
    play(&e, &mut st, "i1");
    assert!(!show(&e, &st).contains("wegue"), "{}", show(&e, &st));
}

#[test]
fn ga1_flag_fresh_global_no_wegue_while_any_hole_is_fresh() {
    // O1 is not fresh, but South's o5 still is: no wegue anywhere yet, and O1 relays.
    let e = gabata(Some("fresh-global"));
    scenario(
        &e,
        &board(&[("i1", 1), ("O1", 3), ("O6", 2), ("o5", 1)], "fresh=o5 to_move=1"),
        "i1",
        &board(&[("o5", 1), ("O2", 1), ("O3", 1), ("O4", 1), ("O5", 1), ("O6", 2)], "fresh=o5 to_move=2"),
    );
    // Once no hole is fresh, O1 becomes the wegue.
    scenario(
        &e,
        &board(&[("i1", 1), ("O1", 3), ("O6", 2)], "to_move=1"),
        "i1",
        &board(&[("O1", 4), ("O6", 2)], "owner(O1)=1 wegue(1)=O1 to_move=2"),
    );
}

#[test]
fn ga2_landing_in_the_opponents_wegue_takes_2_into_the_hand() {
    // North's wegue o3 (on South's row, North's hole) held 5; South's last counter makes 6: he takes 2.
    let e = gabata(None);
    scenario(
        &e,
        &board(&[("o2", 1), ("o3", 5), ("O1", 2)], "owner(o3)=2 wegue(2)=o3 to_move=1"),
        "o2",
        &board(&[("o3", 4), ("O1", 2)], "store(1)=2 owner(o3)=2 wegue(2)=o3 to_move=2"),
    );
}

#[test]
fn ga2_an_opponents_wegue_with_1_counter_gives_all_it_has() {
    // The wegue was empty: the last counter is all it holds, and South takes that 1.
    let e = gabata(None);
    scenario(
        &e,
        &board(&[("o2", 1), ("O1", 2)], "owner(o3)=2 wegue(2)=o3 to_move=1"),
        "o2",
        &board(&[("O1", 2)], "store(1)=1 owner(o3)=2 wegue(2)=o3 to_move=2"),
    );
}

#[test]
fn ga2_landing_in_his_own_wegue_ends_the_move() {
    // South's wegue O1 held 4: his last counter makes 5 and nothing else happens.
    let e = gabata(None);
    scenario(
        &e,
        &board(&[("i1", 1), ("O1", 4), ("O6", 2)], "owner(O1)=1 wegue(1)=O1 to_move=1"),
        "i1",
        &board(&[("O1", 5), ("O6", 2)], "owner(O1)=1 wegue(1)=O1 to_move=2"),
    );
}

#[test]
fn ga3_nobody_sows_from_a_wegue() {
    // O1 is South's wegue: North does not own it any more, and South may not sow it.
    let e = gabata(None);
    let rest = "owner(O1)=1 wegue(1)=O1";
    assert_eq!(legal(&e, &board(&[("i1", 1), ("O1", 4), ("O6", 2)], &format!("{rest} to_move=1"))), ["i1"]);
    assert_eq!(legal(&e, &board(&[("i1", 1), ("O1", 4), ("O6", 2)], &format!("{rest} to_move=2"))), ["O6"]);
}

#[test]
fn ga4_a_player_with_no_hole_to_sow_passes() {
    // South's only counters lie in his wegue O1: he passes, and North plays on.
    let e = gabata(None);
    let mut st = position(&e, &board(&[("O1", 4), ("O6", 2)], "owner(O1)=1 wegue(1)=O1 to_move=1"));
    assert_eq!(plies(&e, &st), ["pass"]);
    play(&e, &mut st, "pass");
    assert_not_over(&e, &st);
    assert_eq!(to_move(&st), 2);
    assert_eq!(plies(&e, &st), ["O6"]);
}

/// South's last counter lands in North's wegue i3 (3 -> 4) and takes 2; now every counter left is in a wegue
/// (GA-4: so neither player can move), and the round ends: each player takes the counters of his own wegue,
/// South `south` + 2 + his O2's 4, North `north` + i3's 2.
fn end_the_round(e: &Engine, south: u8, north: u8) -> mancala::engine::State {
    let rest = format!("store(1)={south} store(2)={north} owner(i3)=2 owner(O2)=1 wegue(1)=O2 wegue(2)=i3 to_move=1");
    let mut st = position(e, &board(&[("o6", 1), ("i3", 3), ("O2", 4)], &rest));
    play(e, &mut st, "o6");
    st
}

#[test]
fn round_ends_when_every_counter_lies_in_a_wegue() {
    let e = gabata(None);
    let st = end_the_round(&e, 10, 20);
    assert_eq!(st.rounds.len(), 1);
    assert_eq!((st.rounds[0].winners, st.rounds[0].scores.clone()), (0b10, vec![16, 22]));
    assert_eq!(st.rounds[0].reason, EndReason::Condition);
}

#[test]
fn next_round_each_deals_3_a_hole_along_the_circuit_and_owns_what_he_fills() {
    // South (40) goes first from o1: his nine holes, then North's O1..O4, 1 counter left in hand. North (13)
    // goes from O1, passes the holes South took, fills O5, O6, I3, I2 and keeps 1 (a remainder of 1 buys
    // nothing). I1, filled by nobody, is nobody's and out of play. Wegues are gone and every hole is fresh
    // again (the setup's marks); North starts the round (`first alternate`).
    let e = gabata(None);
    let st = end_the_round(&e, 34, 11);
    assert_eq!(st.rounds[0].scores, [40, 13]);
    assert_not_over(&e, &st);
    let every = "o1,o2,o3,o4,o5,o6,i1,i2,i3,O1,O2,O3,O4,O5,O6,I1,I2,I3";
    let three: Vec<(&str, u8)> = every.split(',').filter(|&l| l != "I1").map(|l| (l, 3)).collect();
    let rest = format!(
        "store(1)=1 store(2)=1 owner(O1)=1 owner(O2)=1 owner(O3)=1 owner(O4)=1 owner(I1)=- fresh={every} out=I1 \
         to_move=2 round=2 starter=2"
    );
    assert_eq!(show(&e, &st), in_round(&three, &rest));
    // North sows only his own holes; South's holes on North's side are South's to sow.
    assert_eq!(plies(&e, &st), ["O5", "O6", "I2", "I3"]);
}

#[test]
fn a_remainder_of_2_buys_one_more_hole_with_a_counter_of_the_opponents() {
    // As above, but North has 14: after O5, O6, I3 and I2 his remainder of 2 buys I1, the third counter
    // given from South's hand (his remainder of 1). Every hole is dealt, no hand keeps a counter.
    let e = gabata(None);
    let st = end_the_round(&e, 34, 12);
    assert_eq!(st.rounds[0].scores, [40, 14]);
    let every = "o1,o2,o3,o4,o5,o6,i1,i2,i3,O1,O2,O3,O4,O5,O6,I1,I2,I3";
    let three: Vec<(&str, u8)> = every.split(',').map(|l| (l, 3)).collect();
    let rest = format!("owner(O1)=1 owner(O2)=1 owner(O3)=1 owner(O4)=1 fresh={every} to_move=2 round=2 starter=2");
    assert_eq!(show(&e, &st), in_round(&three, &rest));
    assert_eq!(plies(&e, &st), ["O5", "O6", "I1", "I2", "I3"]);
}

#[test]
fn a_remainder_of_2_buys_a_hole_in_the_issues_position() {
    // South plays i1 into O1 (empty: the move ends); North's O1 lands in South's wegue O2 (5) and takes 2.
    // Every counter left lies in a wegue: South has 20 + O2's 3 = 23, North 25 + 2 + I1's 4 = 31. South deals
    // o1..o6, i3 (21 counters), and his remainder of 2 buys i2 with a counter of North's; North deals the
    // other 10 holes from his 30. All 18 holes are dealt.
    let e = gabata(None);
    let mut st = position(
        &e,
        "i1=1 O2=4 wegue(1)=O2 owner(O2)=1 I1=4 wegue(2)=I1 store(1)=20 store(2)=25 round=1 starter=1 to_move=1",
    );
    play(&e, &mut st, "i1");
    play(&e, &mut st, "O1");
    assert_eq!(st.rounds[0].scores, [23, 31]);
    assert_not_over(&e, &st);
    let text = show(&e, &st);
    assert!(!text.contains("out="), "a hole is out of play: {text}");
    assert!(!text.contains("store("), "a hand keeps a counter: {text}");
    let south: Vec<&str> = ["o1", "o2", "o3", "o4", "o5", "o6", "i3", "i2"].to_vec();
    for pit in south {
        assert!(!text.contains(&format!("owner({pit})=")), "{pit} is not South's: {text}");
    }
    assert!(text.contains("owner(i1)=2"), "{text}");
}

#[test]
fn a_hole_out_of_play_is_passed_over_by_sowing() {
    // o6's 2 counters pass over i3 and i2, out of play, into i1 and O1 (empty: the move ends).
    let e = gabata(None);
    scenario(
        &e,
        &in_round(&[("o6", 2), ("O2", 1)], "owner(i3)=- owner(i2)=- out=i2,i3 to_move=1 round=2 starter=1"),
        "o6",
        &in_round(&[("i1", 1), ("O1", 1), ("O2", 1)], "owner(i2)=- owner(i3)=- out=i2,i3 to_move=2 round=2 starter=1"),
    );
}

#[test]
fn a_player_with_2_counters_borrows_the_third_and_plays_on() {
    // North has 2 counters after the round: South's 16 fill five holes and keep 1, which North borrows to fill
    // one hole. The match goes on, North with one hole to sow.
    let e = gabata(None);
    let st = end_the_round(&e, 10, 0);
    assert_eq!(st.rounds[0].scores, [16, 2]);
    assert_not_over(&e, &st);
    let text = show(&e, &st);
    assert!(!text.contains("store("), "a hand keeps a counter: {text}");
    assert_eq!(plies(&e, &st).len(), 1, "{text}");
}

/// South's last counter lands in North's empty wegue i3 and takes the 1 it then holds: every counter left is
/// in South's wegue O2 (4), and the round ends with South at `south` + 5 and North at `north`.
fn end_the_round_with_an_empty_wegue(e: &Engine, south: u8, north: u8) -> mancala::engine::State {
    let rest = format!("store(1)={south} store(2)={north} owner(i3)=2 owner(O2)=1 wegue(1)=O2 wegue(2)=i3 to_move=1");
    let mut st = position(e, &board(&[("o6", 1), ("O2", 4)], &rest));
    play(e, &mut st, "o6");
    st
}

#[test]
fn ga5_a_player_left_with_1_counter_gives_it_and_loses_the_match() {
    // South's 17 fill five holes and his remainder of 2 buys a sixth with North's last counter: North has no
    // hole and loses. GA-5: Pankhurst's last-hole nicety is not adopted.
    let e = gabata(None);
    let st = end_the_round_with_an_empty_wegue(&e, 12, 1);
    assert_eq!(st.rounds[0].scores, [17, 1]);
    assert_over(&st, &[1], &[18, 0], EndReason::Match);
}

#[test]
fn a_player_left_with_1_counter_and_nobody_to_borrow_from_loses_too() {
    // South's 15 fill five holes exactly; North's 1 buys nothing (a remainder of 1 borrows nothing).
    let e = gabata(None);
    let st = end_the_round_with_an_empty_wegue(&e, 10, 1);
    assert_eq!(st.rounds[0].scores, [15, 1]);
    assert_over(&st, &[1], &[15, 1], EndReason::Match);
}

/// ENGINE-2: a position that comes back ends the round (scored as a round ends), in every variant.
#[test]
fn engine2_a_repeated_position_ends_the_round_in_every_variant() {
    let source = std::fs::read_to_string(format!("{}/games/gabata.mancala", env!("CARGO_MANIFEST_DIR"))).unwrap();
    for v in mancala::check::variant_names(&mancala::syntax::parse(&source).unwrap()) {
        let e = gabata(Some(&v));
        let rules = e.rules.end.items.iter().chain(e.rules.phases.iter().flat_map(|p| &p.end.items));
        assert!(rules.clone().any(|r| matches!(r, mancala::ir::EndRule::Repetition)), "{v}: ENGINE-2");
    }
}

/// ENGINE-1: a move that never ends is played up to where it is found so, and draws the whole match. A
/// second round: South holds o1..i1, O1 and O2, North O3..O6, and I3..I1 are out of play, so the circuit is
/// 15 holes long. South's O1 lifts 2 into O2 (empty) and O3 (1): O3 relays its 2 into O4 and O5 (1), and so
/// on: a pair of counters runs round the circuit over holes holding 1, 0, 1, 0, ..., each lap leaving 0, 1
/// behind it. On an odd circuit the pattern it leaves is the one it meets on the next round, so the move
/// comes back to a position it has been in. Each lap ends at 2 (never a wegue's 4), nothing stops it.
#[test]
fn engine1_a_move_that_never_ends_draws_the_match() {
    let e = gabata(None);
    let text = in_round(
        &[("o1", 1), ("o3", 1), ("o5", 1), ("i3", 1), ("i1", 1), ("O1", 2), ("O3", 1), ("O5", 1)],
        "owner(O1)=1 owner(O2)=1 owner(I1)=- owner(I2)=- owner(I3)=- out=I1,I2,I3 to_move=1 round=2 starter=1",
    );
    // The move is allowed (without `draw when endless` it would not be).
    assert_eq!(legal(&e, &text), ["O1", "i1", "i3", "o1", "o3", "o5"]);
    let mut st = position(&e, &text);
    play(&e, &mut st, "O1");
    let (winners, _, reason) = result(&st).expect("the match is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
    // Any other hole's lap ends in an empty hole, and the round goes on.
    let mut st = position(&e, &text);
    play(&e, &mut st, "o5");
    assert_not_over(&e, &st);
}

#[test]
fn round_goes_on_while_a_counter_lies_outside_the_wegues() {
    let e = gabata(None);
    let mut st = position(&e, &board(&[("o6", 1), ("O2", 4), ("O5", 1)], "owner(O2)=1 wegue(1)=O2 to_move=1"));
    play(&e, &mut st, "o6");
    assert_not_over(&e, &st);
}

#[test]
fn ga6_aksum_the_first_bottom_hole_only_with_more_than_3_or_alone() {
    let e = gabata(Some("aksum"));
    // With 3 counters in o1 and another move, o1 may not be sown.
    assert_eq!(legal(&e, &board(&[("o1", 3), ("o2", 1), ("O1", 2)], "to_move=1")), ["o2"]);
    // With 4 it may.
    assert_eq!(legal(&e, &board(&[("o1", 4), ("o2", 1), ("O1", 2)], "to_move=1")), ["o1", "o2"]);
    // With no other move it may: the other hole with counters is North's wegue on South's side.
    assert_eq!(legal(&e, &board(&[("o1", 3), ("i1", 1), ("O1", 2)], "owner(i1)=2 wegue(2)=i1 to_move=1")), ["o1"]);
    // North's hole 1 of his own row is O1.
    assert_eq!(legal(&e, &board(&[("O1", 3), ("O2", 1), ("o1", 2)], "to_move=2")), ["O2"]);
    // The default game has no such rule.
    assert_eq!(legal(&gabata(None), &board(&[("o1", 3), ("o2", 1), ("O1", 2)], "to_move=1")), ["o1", "o2"]);
}

#[test]
fn ga7_the_three_row_game_of_eighteen_holes() {
    // GA-7: the two-row games also called gabata are not this one.
    let e = gabata(None);
    assert_eq!(e.rules.n_pits, 18);
    assert_eq!(e.rules.players, 2);
}
