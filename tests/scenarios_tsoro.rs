//! Rule scenarios for Tsoro (`games/tsoro.mancala`), one per decision of `docs/games/tsoro.md`
//! (TS-1 .. TS-7).
//!
//! The board: South (player 1) has his outer row `o1..o8` and inner row `i1..i8`, North `O1..O8` and
//! `I1..I8`, each numbered from its owner's left. South's counter-clockwise circuit is o1..o8, i8..i1 (and
//! on to o1); his `ik` faces North's `I(9-k)` and, behind it, `O(9-k)`. South's head is `o8`, North's `O8`.
//! Taken stones go to `taken(1)`, `taken(2)`.
//!
//! The variant `21-holes` (TS-8) plays the same rules on four rows of 21: South's circuit is o1..o21,
//! i21..i1, his `ik` faces `I(22-k)` and `O(22-k)`, and the heads are `o21` and `O21`. North's pits lie at
//! places 42..83, so its scenarios reach the pits past the 64th (`ts8_*`).

mod common;

use common::*;
use mancala::engine::{EndReason, Engine, State};

fn tsoro() -> Engine {
    engine("tsoro", None, None)
}

/// The stones in the places named, in order.
fn seeds(e: &Engine, st: &State, labels: &[&str]) -> Vec<u8> {
    labels
        .iter()
        .map(|l| {
            let p = e.rules.places.iter().position(|i| i.label == *l).unwrap_or_else(|| panic!("no place {l}"));
            st.counts[p]
        })
        .collect()
}

#[test]
fn ts1_two_stones_in_each_outer_pit() {
    let e = tsoro();
    let st = e.initial_state();
    assert_eq!(seeds(&e, &st, &["o1", "o8", "i1", "i8", "O1", "O8", "I1", "I8"]), [2, 2, 0, 0, 2, 2, 0, 0]);
    assert_eq!(st.counts.iter().map(|&c| c as u32).sum::<u32>(), 32);
    // From o3 and o6 the last stone falls into the head, o8, which holds stones: stop there or sow on (TS-3).
    assert_eq!(plies(&e, &st), ["o1", "o2", "o3 relay", "o3 -relay", "o4", "o5", "o6 relay", "o6 -relay", "o7", "o8"]);
}

#[test]
fn ts2_a_last_stone_in_an_occupied_pit_sows_on() {
    // o1's 2 stones: o2, o3; o3 held 1: its 2 stones go on into o4, o5; o5 was empty: over.
    let e = tsoro();
    let mut st = position(&e, "o1=2 o3=1 O1=2");
    play(&e, &mut st, "o1");
    assert_eq!(seeds(&e, &st, &["o1", "o2", "o3", "o4", "o5"]), [0, 1, 0, 1, 1]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn ts3_an_occupied_head_lets_the_mover_stop_or_sow_on() {
    // o6's 2 stones: o7, o8. o8, the head, held 1: stop there (`-relay`) or sow its 2 on into i8, i7.
    let e = tsoro();
    let st = position(&e, "o6=2 o8=1 O1=2");
    let mut stop = st.clone();
    play(&e, &mut stop, "o6 -relay");
    assert_eq!(seeds(&e, &stop, &["o6", "o7", "o8", "i8", "i7"]), [0, 1, 2, 0, 0]);
    let mut on = st.clone();
    play(&e, &mut on, "o6 relay");
    assert_eq!(seeds(&e, &on, &["o6", "o7", "o8", "i8", "i7"]), [0, 1, 0, 1, 1]);
}

#[test]
fn ts3_an_empty_head_ends_the_move() {
    let e = tsoro();
    assert_eq!(legal(&e, "o6=2 O1=2"), ["o6"]);
}

#[test]
fn ts4_single_stones_wait_while_a_pit_holds_two() {
    let e = tsoro();
    assert_eq!(legal(&e, "o1=1 o4=2 O1=2"), ["o4"]);
}

#[test]
fn ts4_a_single_stone_only_into_an_empty_pit() {
    // o1's stone would fall into o2, which holds a stone: not allowed; o2's falls into o3, empty.
    let e = tsoro();
    assert_eq!(legal(&e, "o1=1 o2=1 O1=2"), ["single o2"]);
}

#[test]
fn ts5_an_empty_inner_pit_takes_the_inner_pit_across_and_the_outer_behind_it() {
    // o7's 2 stones: o8, i8. i8 was empty and I1 across holds 1: I1 and O1 behind it (3) are taken.
    let e = tsoro();
    let mut st = position(&e, "o7=2 I1=1 O1=3 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o8", "i8", "I1", "O1", "O5", "taken(1)"]), [1, 1, 0, 0, 2, 4]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn ts5_the_inner_pit_across_empty_protects_the_outer_pit() {
    let e = tsoro();
    let mut st = position(&e, "o7=2 O1=3 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o8", "i8", "O1", "taken(1)"]), [1, 1, 3, 0]);
}

#[test]
fn ts5_a_single_stone_captures_too() {
    // i2's single stone falls into i1, empty; I8 across holds 2, O8 behind it 1: 3 taken.
    let e = tsoro();
    let mut st = position(&e, "i2=1 I8=2 O8=1 O1=1");
    play(&e, &mut st, "single i2");
    assert_eq!(seeds(&e, &st, &["i2", "i1", "I8", "O8", "taken(1)"]), [0, 1, 0, 0, 3]);
}

#[test]
fn ts6_a_player_who_cannot_move_loses() {
    // North has a single stone in each of his 16 pits: none has an empty pit after it, so he cannot move
    // although he has stones, and South wins.
    let e = tsoro();
    let north: Vec<String> = (1..=8).flat_map(|k| [format!("O{k}=1"), format!("I{k}=1")]).collect();
    let st = position(&e, &format!("o1=2 {} to_move=2", north.join(" ")));
    let (winners, _, reason) = result(&st).expect("the game is over before North moves");
    assert_eq!((winners, reason), (vec![1], EndReason::LastStanding));
}

#[test]
fn ts7_a_position_that_comes_back_draws_the_game() {
    // Found in random play: sixteen plies without a capture bring this position back (ENGINE-2). On the
    // way, a lap ends in each player's head once: North stops there (`-relay`), South sows on (`relay`).
    let e = tsoro();
    let mut st = position(
        &e,
        "o5=1 o7=2 i2=1 i4=1 i7=1 i8=1 O2=2 O3=1 O4=1 O7=1 I1=2 I5=1 I7=1 taken(1)=7 taken(2)=9 to_move=2",
    );
    play_all(
        &e,
        &mut st,
        &["O2", "o7", "I1", "i7", "O3", "i6", "O6 -relay", "i5", "O8", "o1", "I8", "o2", "I3", "o3", "I2"],
    );
    assert_not_over(&e, &st);
    play(&e, &mut st, "o4 relay");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::RepetitionDraw));
}

#[test]
fn ts7_a_move_that_would_never_end_draws_the_game() {
    // South's o1 lifts 2 into o2 and o3 (2): its 3 go into o4, o5 and o6 (1), and from there a pair of stones
    // runs round his circuit over pits holding 1, 0, 1, 0, ... A lap that never ends must lift every pit of
    // the circuit, the head o8 too, and a lap ending in the head asks South whether to sow on (TS-3): so the
    // move never ends only if he sows on every time, and, watched from his last choice, it is found so at its
    // 10001st lap (ENGINE-1, docs/language.md `draw when endless`), after his 625th `relay`. It is played up
    // to there and the game is drawn.
    let e = tsoro();
    let text = "o1=2 o3=2 o4=1 o6=1 o8=1 i7=1 i5=1 i3=1 i1=1 O1=2";
    let mut st = position(&e, text);
    play(&e, &mut st, &format!("o1{}", " relay".repeat(625)));
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
    // Stopping at the head at the last chance ends the move there, and the game goes on.
    let mut st = position(&e, text);
    play(&e, &mut st, &format!("o1{} -relay", " relay".repeat(624)));
    assert_not_over(&e, &st);
    assert_eq!(to_move(&st), 2);
}

// ---------------------------------------------------------------- TS-8: the board of 21 pits a row

fn tsoro21() -> Engine {
    engine("tsoro", Some("21-holes"), None)
}

#[test]
fn ts8_the_board_has_21_pits_a_row_with_two_stones_in_each_outer_pit() {
    let e = tsoro21();
    assert_eq!(e.rules.n_pits, 84);
    let st = e.initial_state();
    assert_eq!(seeds(&e, &st, &["o1", "o17", "o21", "i21", "O17", "O21", "I1", "I21"]), [2, 2, 2, 0, 2, 2, 0, 0]);
    assert_eq!(st.counts.iter().map(|&c| c as u32).sum::<u32>(), 84);
    // Pits 17..21 are named like the others, in positions and in moves.
    let st = position(&e, "o17=2 o21=1 i18=3 O19=2 I20=1");
    assert_eq!(seeds(&e, &st, &["o17", "o21", "i18", "O19", "I20", "i17"]), [2, 1, 3, 2, 1, 0]);
    let text = show(&e, &st);
    assert!(text.contains(" o17=2 ") && text.contains(" i18=3 ") && text.contains(" I20=1 "), "{text}");
    assert_eq!(plies(&e, &st), ["o17", "i18"]);
}

#[test]
fn ts8_the_circuit_turns_from_o21_into_i21() {
    // o20's 3 stones: o21, i21, i20. i20 held 1: its 2 go on into i19, i18; i18 was empty: over (I4 across
    // is empty: no capture).
    let e = tsoro21();
    let mut st = position(&e, "o20=3 i20=1 O1=2");
    play(&e, &mut st, "o20");
    assert_eq!(seeds(&e, &st, &["o20", "o21", "i21", "i20", "i19", "i18", "taken(1)"]), [0, 1, 1, 0, 1, 1, 0]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn ts8_the_head_is_the_21st_outer_pit() {
    // o19's 2 stones: o20, o21. o21, the head, held 1: stop there or sow its 2 on into i21, i20.
    let e = tsoro21();
    let st = position(&e, "o19=2 o21=1 O1=2");
    assert_eq!(plies(&e, &st), ["o19 relay", "o19 -relay"]);
    let mut stop = st.clone();
    play(&e, &mut stop, "o19 -relay");
    assert_eq!(seeds(&e, &stop, &["o19", "o20", "o21", "i21", "i20"]), [0, 1, 2, 0, 0]);
    let mut on = st;
    play(&e, &mut on, "o19 relay");
    assert_eq!(seeds(&e, &on, &["o19", "o20", "o21", "i21", "i20"]), [0, 1, 0, 1, 1]);
    // o8 is a pit like any other on this board: a last stone there sows on.
    assert_eq!(legal(&e, "o6=2 o8=1 O1=2"), ["o6"]);
}

#[test]
fn ts8_single_stones_only_into_an_empty_pit() {
    // o17's stone would fall into o18, which holds one; o18's and o20's fall into empty pits.
    let e = tsoro21();
    assert_eq!(legal(&e, "o17=1 o18=1 o20=1 O1=2"), ["single o18", "single o20"]);
    // While o19 holds two, the single stone of o17 waits.
    assert_eq!(legal(&e, "o17=1 o19=2 O1=2"), ["o19"]);
}

#[test]
fn ts8_a_capture_across_the_columns_past_16() {
    // i5's 2 stones: i4, i3. i3 was empty; I19 across holds 2 and O19 behind it 3: 5 taken.
    let e = tsoro21();
    let mut st = position(&e, "i5=2 I19=2 O19=3 O2=2");
    play(&e, &mut st, "i5");
    assert_eq!(seeds(&e, &st, &["i4", "i3", "I19", "O19", "O2", "taken(1)"]), [1, 1, 0, 0, 2, 5]);
    // North's i1 faces South's i21 and o21: his I3 sown into I2, I1 takes them.
    let mut st = position(&e, "I3=2 i21=1 o21=4 o1=2 to_move=2");
    play(&e, &mut st, "I3");
    assert_eq!(seeds(&e, &st, &["I2", "I1", "i21", "o21", "o1", "taken(2)"]), [1, 1, 0, 0, 2, 5]);
    // The inner pit across empty protects the outer pit behind it.
    let mut st = position(&e, "i5=2 O19=3 O2=2");
    play(&e, &mut st, "i5");
    assert_eq!(seeds(&e, &st, &["O19", "taken(1)"]), [3, 0]);
}

#[test]
fn ts8_a_single_stone_captures_into_the_last_column() {
    // i2's single stone falls into i1, empty; I21 across holds 2, O21 behind it 1: 3 taken.
    let e = tsoro21();
    let mut st = position(&e, "i2=1 I21=2 O21=1 O1=1");
    play(&e, &mut st, "single i2");
    assert_eq!(seeds(&e, &st, &["i2", "i1", "I21", "O21", "taken(1)"]), [0, 1, 0, 0, 3]);
}

#[test]
fn ts8_a_player_who_cannot_move_loses() {
    // North has a single stone in each of his 42 pits: none can move, and South wins.
    let e = tsoro21();
    let north: Vec<String> = (1..=21).flat_map(|k| [format!("O{k}=1"), format!("I{k}=1")]).collect();
    let st = position(&e, &format!("o1=2 {} to_move=2", north.join(" ")));
    let (winners, _, reason) = result(&st).expect("the game is over before North moves");
    assert_eq!((winners, reason), (vec![1], EndReason::LastStanding));
}

#[test]
fn ts8_two_single_stones_race_round_until_one_is_taken() {
    // One single stone each, South's in o1, North's in O2: every move is forced, each stone one pit on.
    // After his 31st move South's stone lies in i11 (31 pits on from o1) and North's, 30 pits on from O2,
    // in I11 across from it: South takes it (TS-5), and North, without a stone, cannot move and loses
    // (TS-6). The stones pass pits 64 to 83 on the way.
    let e = tsoro21();
    let mut st = position(&e, "o1=1 O2=1");
    let mut n = 0;
    while st.result.is_none() {
        let only = plies(&e, &st);
        assert_eq!(only.len(), 1, "{}", show(&e, &st));
        play(&e, &mut st, &only[0]);
        n += 1;
    }
    assert_eq!(seeds(&e, &st, &["i11", "I11", "taken(1)"]), [1, 0, 1]);
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason, n), (vec![1], EndReason::LastStanding, 61));
}

#[test]
fn ts8_a_move_that_would_never_end_draws_the_game_on_the_long_board_too() {
    // TS-7 on 4x21: South's circuit holds one stone in every other pit (o2, o4, .., o20, i21, i19, .., i1)
    // and 3 in o1. Those 3 go into o2 (1), o3 and o4 (1): o4's 2 relay, and from there a pair of stones runs
    // round the 42 pits over 1, 0, 1, 0, ... for ever, each lap leaving 0, 1 behind it. Every second round a
    // lap ends in the head o21, and South sows on from it each time: the move is found never to end at its
    // 10001st lap, after his 238th `relay`, and the game is drawn (ENGINE-1).
    let e = tsoro21();
    let south: Vec<String> =
        (2..=20).step_by(2).map(|k| format!("o{k}=1")).chain((1..=21).step_by(2).map(|k| format!("i{k}=1"))).collect();
    let text = format!("o1=3 {} O1=2", south.join(" "));
    let mut st = position(&e, &text);
    play(&e, &mut st, &format!("o1{}", " relay".repeat(238)));
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
    // Stopping in the head at the last chance ends the move there, and the game goes on.
    let mut st = position(&e, &text);
    play(&e, &mut st, &format!("o1{} -relay", " relay".repeat(237)));
    assert_not_over(&e, &st);
}
