//! Rule scenarios for Moruba (`games/moruba.mancala`), one per decision of `docs/games/moruba.md`
//! (MR-1 .. MR-6).
//!
//! The board: South (player 1) has his outer row `o1..o8` and inner row `i1..i8`, North `O1..O8` and
//! `I1..I8`, each numbered from its owner's left. South's counter-clockwise circuit is o1..o8, i8..i1 (and
//! on to o1); his `ik` faces North's `I(9-k)` and, behind it, `O(9-k)`. Eaten stones go to `eaten(1)`,
//! `eaten(2)`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine, State};

fn moruba() -> Engine {
    engine("moruba", None, None)
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
fn mr1_two_stones_a_pit_but_the_two_leftmost_of_the_inner_row() {
    let e = moruba();
    let st = e.initial_state();
    assert_eq!(seeds(&e, &st, &["o1", "o8", "i1", "i2", "i3", "i8"]), [2, 2, 0, 1, 2, 2]);
    assert_eq!(seeds(&e, &st, &["O1", "O8", "I1", "I2", "I3", "I8"]), [2, 2, 0, 1, 2, 2]);
    assert_eq!(st.counts.iter().map(|&c| c as u32).sum::<u32>(), 58);
    assert_eq!(to_move(&st), 1);
    assert_eq!(plies(&e, &st).len(), 14, "every pit of 2: not i1, not i2");
}

#[test]
fn mr2_sowing_turns_from_the_outer_row_into_the_inner_row() {
    // o7's 3 stones: o8, i8, i7. i7 was empty and I2 across is empty too: the move is over.
    let e = moruba();
    let mut st = position(&e, "o7=3 O1=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o7", "o8", "i8", "i7", "O1"]), [0, 1, 1, 1, 2]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn mr3_a_last_stone_in_an_occupied_pit_sows_on() {
    // o1's 2 stones: o2, o3; o3 held 1: its 2 stones go on into o4, o5; o5 was an empty outer pit: over.
    let e = moruba();
    let mut st = position(&e, "o1=2 o3=1 O1=2");
    play(&e, &mut st, "o1");
    assert_eq!(seeds(&e, &st, &["o1", "o2", "o3", "o4", "o5"]), [0, 1, 0, 1, 1]);
}

#[test]
fn mr4_an_empty_inner_pit_eats_both_pits_across() {
    // o7's 2 stones: o8, i8. i8 was empty and I1 across holds 1: I1 and O1 behind it (3) are eaten.
    let e = moruba();
    let mut st = position(&e, "o7=2 I1=1 O1=3 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o8", "i8", "I1", "O1", "O5", "eaten(1)"]), [1, 1, 0, 0, 2, 4]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn mr4_the_inner_pit_across_empty_nothing_is_eaten() {
    // The same move with I1 empty: O1 behind it is safe, and the move is over.
    let e = moruba();
    let mut st = position(&e, "o7=2 O1=3 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["o8", "i8", "O1", "eaten(1)"]), [1, 1, 3, 0]);
    assert_eq!(to_move(&st), 2);
}

#[test]
fn mr4_the_inner_pit_alone_when_the_outer_pit_behind_is_empty() {
    let e = moruba();
    let mut st = position(&e, "o7=2 I1=2 O5=2");
    play(&e, &mut st, "o7");
    assert_eq!(seeds(&e, &st, &["I1", "O1", "eaten(1)"]), [0, 0, 2]);
}

#[test]
fn mr5_single_stones_wait_while_a_pit_holds_two() {
    let e = moruba();
    assert_eq!(legal(&e, "o1=1 o4=2 O1=2"), ["o4"]);
    assert_eq!(legal(&e, "o1=1 o4=1 O1=2"), ["single o1", "single o4"]);
}

#[test]
fn mr5_a_single_stone_moves_like_any_sowing() {
    // o3's stone falls into o4, which held 1: its 2 stones go on into o5, o6.
    let e = moruba();
    let mut st = position(&e, "o3=1 o4=1 O1=2");
    play(&e, &mut st, "single o3");
    assert_eq!(seeds(&e, &st, &["o3", "o4", "o5", "o6"]), [0, 0, 1, 1]);
}

#[test]
fn mr6_a_player_left_without_stones_loses() {
    // South eats North's last stones (I1 and O1): North cannot move and is out.
    let e = moruba();
    let mut st = position(&e, "o7=2 I1=1 O1=3");
    play(&e, &mut st, "o7");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![1], EndReason::LastStanding));
}

#[test]
fn mr6_a_move_that_would_never_end_draws_the_game() {
    // Found in random play: North's move from I7 goes round his circuit, lap after lap, back to a position
    // it has been in. It is played up to there and the game is drawn (ENGINE-1).
    let e = moruba();
    let mut st = position(&e, "o1=1 o2=2 o4=1 o5=2 o6=1 o7=5 o8=1 i5=1 i6=1 O2=2 O3=1 O5=1 O6=2 O7=3 O8=1 I1=1 I3=1 I5=1 I7=4 I8=2 eaten(1)=10 eaten(2)=14 to_move=2");
    play(&e, &mut st, "I7");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
}

#[test]
fn mr6_a_position_that_comes_back_draws_the_game() {
    // Found in random play: eight plies without eating bring this position back (ENGINE-2).
    let e = moruba();
    let mut st = position(&e, "o2=1 o3=1 o4=1 o7=1 i1=1 i3=2 i5=1 i7=1 O1=2 O3=1 O4=1 O5=1 O7=1 I2=1 I4=1 I6=1 I8=1 eaten(1)=19 eaten(2)=20 to_move=2");
    let plies = ["O1", "i3", "O4", "o3", "O1", "o6", "O4"];
    play_all(&e, &mut st, &plies);
    assert_not_over(&e, &st);
    play(&e, &mut st, "i8");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::RepetitionDraw));
}
