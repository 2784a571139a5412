//! Rule scenarios for Bao la Kiswahili (`games/bao-la-kiswahili.mancala`), one per decision of
//! `docs/games/bao-la-kiswahili.md` (BAO-1 .. BAO-14, ENGINE-1 and ENGINE-2).
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

/// BAO-12, tested before the first ply as after every ply: a position typed in where an inner row is already
/// empty is over at once. When both are (no move leads there: emptying the opponent's inner row captures into
/// the mover's), the tie goes to the player who moved last, the one before the player to move.
#[test]
fn bao12_a_start_position_with_an_empty_inner_row_is_over() {
    let e = bao(Some("kujifunza"));
    let st = position(&e, "i3=2 i5=1 O4=3");
    assert_over(&st, &[1], &[3, 0], EndReason::Condition);
    assert!(plies(&e, &st).is_empty());
    let st = position(&e, "o5=2 O1=3 I4=1");
    assert_over(&st, &[2], &[0, 1], EndReason::Condition);
    let st = position(&e, "o5=2 O1=3");
    assert_over(&st, &[2], &[0, 0], EndReason::Condition);
    let st = position(&e, "o5=2 O1=3 to_move=2");
    assert_over(&st, &[1], &[0, 0], EndReason::Condition);
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
    let mut st = position(&e, NEVER_ENDING);
    play(&e, &mut st, "takasa i3cw");
    assert_over(&st, &[], &result(&st).unwrap().1, EndReason::Endless);
}

/// A stage-2 position, found in random games, where South's `takasa i3cw` would never end (ENGINE-1).
const NEVER_ENDING: &str = "o1=1 o2=2 o3=3 o4=2 o5=1 o6=4 o8=1 i2=5 i3=4 i5=5 i7=1 i8=2 \
                            O1=3 O3=4 O4=1 O5=4 O7=1 O8=1 I1=1 I5=7 I6=10 I8=1 phase=mtaji";

/// BAO-11: after a takasia, a capturing move that *first* captures the blocked pit must be played if one
/// exists. `i6ccw` first takes I5 (then I1, and wins); `i6cw` first takes I1: only `i6cw` is legal, though
/// both moves end the game.
#[test]
fn bao11_the_obliged_capture_is_of_the_blocked_pit_first_even_in_a_winning_move() {
    let e = bao(None);
    assert_eq!(legal(&e, "i6=2 i4=1 i8=1 o1=2 I5=1 I1=1 O4=2 takasia(2)=I1/1 to_move=1"), ["i6cw"]);
}

/// BAO-11: no capturing move takes the blocked pit I8 first (`i7ccw` takes it later, in a move that ends the
/// game): there is no obligation, and every capturing move is legal.
#[test]
fn bao11_no_move_first_captures_the_blocked_pit_so_every_capture_is_legal() {
    let e = bao(None);
    let text = "o1=10 o2=1 o4=8 o5=2 o8=3 i1=2 i2=7 i5=7 i7=5 O2=6 O4=2 O6=1 O7=3 I2=1 I4=1 I7=3 I8=2 \
                takasia(2)=I8/1 to_move=1";
    assert_eq!(legal(&e, text), ["i7ccw", "o4ccw", "o4cw"]);
}

/// ENGINE-1 and a stuck opponent: South's `takasa i8cw` would never end, and stops where North has no pit
/// of two seeds. The move is annulled before North's turn comes: a draw, not a win for South.
#[test]
fn engine1_a_never_ending_move_is_a_draw_even_when_the_opponent_could_not_move() {
    let e = bao(None);
    let mut st = position(
        &e,
        "o1=4 o2=1 o3=4 o4=1 o5=2 o6=1 o7=2 i1=1 i2=4 i3=5 i5=5 i6=4 i7=8 i8=2 O1=1 O3=1 O5=1 I4=1 I5=1 to_move=1",
    );
    play(&e, &mut st, "takasa i8cw");
    let (winners, _, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
}

/// BAO-13 flag, variant `never-ending-mover-loses`: the never-ending move loses for South, who made it.
#[test]
fn bao13_flag_a_never_ending_move_loses_for_its_mover() {
    let e = bao(Some("never-ending-mover-loses"));
    let mut st = position(&e, NEVER_ENDING);
    play(&e, &mut st, "takasa i3cw");
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![2], EndReason::LastStanding)));
}

/// BAO-13 flag, variant `never-ending-truncate`: the never-ending move stops where that is found, no seed
/// lost, and North moves next.
#[test]
fn bao13_flag_a_never_ending_move_is_cut_and_play_goes_on() {
    let e = bao(Some("never-ending-truncate"));
    let mut st = position(&e, NEVER_ENDING);
    let before: u32 = st.counts.iter().map(|&c| u32::from(c)).sum();
    play(&e, &mut st, "takasa i3cw");
    assert_not_over(&e, &st);
    assert_eq!(to_move(&st), 2);
    assert_eq!(st.counts.iter().map(|&c| u32::from(c)).sum::<u32>(), before);
    assert_ne!(show(&e, &st), show(&e, &position(&e, NEVER_ENDING)), "the move was played up to the cut");
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

/// The Check paragraph: the opening position has no capturing entry (South's occupied i5, i6, i7 face
/// North's empty I4, I3, I2) and exactly 4 legal moves: enter at i6 or i7 and sow the 3 seeds either way.
/// i5, the functional nyumba, may not be chosen while other inner pits are occupied.
#[test]
fn check_the_opening_has_exactly_four_moves() {
    let e = bao(None);
    let st = e.initial_state();
    assert_eq!(
        show(&e, &st),
        "o1=0 o2=0 o3=0 o4=0 o5=0 o6=0 o7=0 o8=0 i1=0 i2=0 i3=0 i4=0 i5=6 i6=2 i7=2 i8=0 \
         O1=0 O2=0 O3=0 O4=0 O5=0 O6=0 O7=0 O8=0 I1=0 I2=0 I3=0 I4=0 I5=6 I6=2 I7=2 I8=0 \
         ghala(1)=22 ghala(2)=22 nyumba(1)=i5 nyumba(2)=I5 to_move=1 phase=namua"
    );
    assert_eq!(plies(&e, &st), ["takasa i6ccw", "takasa i6cw", "takasa i7ccw", "takasa i7cw"]);
    // i6 then clockwise: the 3 seeds go into i7, i8, o8; o8 was empty, the move ends.
    let mut st = st;
    play(&e, &mut st, "takasa i6cw");
    assert_eq!(seeds(&e, &st, &["i5", "i6", "i7", "i8", "o8", "ghala(1)"]), [6, 0, 3, 1, 1, 21]);
    assert_eq!(to_move(&st), 2);
}

/// Stage 1 ends for a player when his hand is empty; after the 44th ply both hands are empty and stage 2
/// begins with South.
#[test]
fn the_hand_stage_lasts_until_both_hands_are_empty() {
    let e = bao(None);
    let mut st = position(&e, "i6=3 i2=2 I6=3 ghala(1)=1 ghala(2)=1 to_move=1 phase=namua");
    play(&e, &mut st, "takasa i6cw");
    assert!(show(&e, &st).ends_with("phase=namua"), "North still has a seed in hand: {}", show(&e, &st));
    play(&e, &mut st, "takasa I6cw");
    assert!(show(&e, &st).ends_with("phase=mtaji"), "{}", show(&e, &st));
    assert_eq!(to_move(&st), 1);
}

/// A capturing entry is compulsory when there is one: the entered pit is occupied and faces an occupied
/// pit of the opponent's inner row; the entered seed stays, the facing pit's seeds are sown from a kichwa.
/// Outside the kimbi, the mover chooses the kichwa, that is, the direction (BAO-3).
#[test]
fn a_capturing_entry_is_compulsory_and_its_kichwa_is_chosen() {
    let e = bao(None);
    // i3 (1) faces I6 (2); i6 could be sown as a takasa, but the capture comes first.
    let text = "i3=1 i6=2 I6=2 I1=1 ghala(1)=5 ghala(2)=5 phase=namua";
    assert_eq!(plies_of(&e, text), ["i3ccw", "i3cw"]);
    // Clockwise: the entered seed stays in i3 (now 2), I6's 2 go into i1, i2; i2 was empty.
    let mut st = position(&e, text);
    play(&e, &mut st, "i3cw");
    assert_eq!(seeds(&e, &st, &["i1", "i2", "i3", "I6", "ghala(1)"]), [1, 1, 2, 0, 4]);
    // Counter-clockwise: into i8, i7; i7 was empty.
    let mut st = position(&e, text);
    play(&e, &mut st, "i3ccw");
    assert_eq!(seeds(&e, &st, &["i8", "i7", "i3", "I6"]), [1, 1, 2, 0]);
}

/// BAO-1: an entry that captures in a kimbi has its direction forced: only that way is offered.
#[test]
fn bao1_a_capturing_entry_in_a_kimbi_has_no_choice_of_kichwa() {
    let e = bao(None);
    // i2 (1) faces I7 (1): from i1 clockwise, into i1; i1 was empty.
    assert_eq!(plies_of(&e, "i2=1 I7=1 I1=1 ghala(1)=5 ghala(2)=5 phase=namua"), ["i2cw"]);
    assert_eq!(plies_of(&e, "i7=1 I2=1 I1=1 ghala(1)=5 ghala(2)=5 phase=namua"), ["i7ccw"]);
}

/// Stage 1, a capturing move's lap ending in the mover's functional nyumba (BAO-6: 6 or more once the
/// last seed is in): he stops there, or goes on safari, relaying from the nyumba, which is destroyed.
#[test]
fn bao6_safari_is_a_choice_and_destroys_the_nyumba() {
    let e = bao(None);
    // i3's entry captures I6's 5, sown clockwise into i1..i5: the nyumba i5 now holds 7.
    let text = "i3=1 i5=6 I6=5 I1=1 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua";
    let mut all = plies_of(&e, text);
    all.sort();
    // The choice is written in the game's words (`relay may as "safari" or "stop"`).
    assert_eq!(all, ["i3ccw", "i3cw safari", "i3cw stop"]);
    let mut st = position(&e, text);
    play(&e, &mut st, "i3cw stop");
    assert_eq!(seeds(&e, &st, &["i1", "i2", "i3", "i4", "i5"]), [1, 1, 3, 1, 7]);
    assert!(show(&e, &st).contains("nyumba(1)=i5"), "stopping keeps the nyumba: {}", show(&e, &st));
    // Safari: i5's 7 go on clockwise into i6, i7, i8, o8, o7, o6, o5; the nyumba is emptied, destroyed.
    let mut st = position(&e, text);
    play(&e, &mut st, "i3cw safari");
    assert_eq!(seeds(&e, &st, &["i5", "i6", "i8", "o5"]), [0, 1, 1, 1]);
    assert!(!show(&e, &st).contains("nyumba(1)"), "the nyumba is destroyed: {}", show(&e, &st));
    // The plain words still read, as plies saved before the choice had its name were written.
    let st = position(&e, text);
    let named = mancala::notation::parse_ply(&e, &st, "i3cw safari").expect("safari");
    assert_eq!(mancala::notation::parse_ply(&e, &st, "i3cw relay").expect("relay"), named);
    assert_ne!(mancala::notation::parse_ply(&e, &st, "i3cw -relay").expect("-relay"), named);
}

/// Stage 1: a takasa lap that ends in the mover's functional nyumba ends the move there.
#[test]
fn a_takasa_ends_in_the_functional_nyumba() {
    let e = bao(None);
    // i3's entry makes 2: i4, i5 (6 -> 7, functional), where the move ends; elsewhere i5 would relay.
    let mut st = position(&e, "i3=1 i5=6 I1=1 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua");
    play(&e, &mut st, "takasa i3cw");
    assert_eq!(seeds(&e, &st, &["i3", "i4", "i5", "i6"]), [0, 1, 7, 0]);
}

/// BAO-5: the functional nyumba may be chosen for a takasa entry only when it is the only occupied pit of
/// the inner row; it is then taxed: only 2 seeds are sown, either way, and it stays owned. BAO-7: left
/// with fewer than 6 it is idle, not destroyed.
#[test]
fn bao5_bao7_the_lone_functional_nyumba_is_taxed() {
    let e = bao(None);
    let text = "i5=6 I1=1 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua";
    assert_eq!(plies_of(&e, text), ["takasa i5ccw", "takasa i5cw"]);
    let mut st = position(&e, text);
    play(&e, &mut st, "takasa i5cw");
    assert_eq!(seeds(&e, &st, &["i5", "i6", "i7"]), [5, 1, 1]);
    assert!(show(&e, &st).contains("nyumba(1)=i5"), "a taxed nyumba stays owned: {}", show(&e, &st));
    // With another pit occupied, the functional nyumba is not a takasa entry.
    assert_eq!(
        plies_of(&e, "i5=6 i2=2 I1=1 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua"),
        ["takasa i2ccw", "takasa i2cw"]
    );
    // Idle (5), it is an entry like any pit, sown whole, and emptied: destroyed.
    let text = "i5=5 i2=2 I1=1 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua";
    assert_eq!(plies_of(&e, text), ["takasa i2ccw", "takasa i2cw", "takasa i5ccw", "takasa i5cw"]);
    let mut st = position(&e, text);
    play(&e, &mut st, "takasa i5cw");
    assert_eq!(seeds(&e, &st, &["i5", "i6", "i7", "i8", "o8", "o7", "o6"]), [0, 1, 1, 1, 1, 1, 1]);
    assert!(!show(&e, &st).contains("nyumba(1)"), "{}", show(&e, &st));
}

/// BAO-8: with the nyumba destroyed, a pit of one seed is a takasa entry only when every occupied inner
/// pit holds one; while the nyumba stands, singletons may be chosen.
#[test]
fn bao8_singletons_only_when_all_are_singletons_once_the_nyumba_is_gone() {
    let e = bao(None);
    assert_eq!(plies_of(&e, "i2=1 i4=3 I1=2 ghala(1)=5 ghala(2)=5 phase=namua"), ["takasa i4ccw", "takasa i4cw"]);
    assert_eq!(
        plies_of(&e, "i2=1 i4=1 I1=2 ghala(1)=5 ghala(2)=5 phase=namua"),
        ["takasa i2ccw", "takasa i2cw", "takasa i4ccw", "takasa i4cw"]
    );
    // The nyumba stands (holding a seed: emptied, it would be destroyed), so the singleton i2 may be chosen.
    assert_eq!(
        plies_of(&e, "i2=1 i4=3 i5=1 I1=2 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua"),
        ["takasa i2ccw", "takasa i2cw", "takasa i4ccw", "takasa i4cw", "takasa i5ccw", "takasa i5cw"]
    );
}

/// BAO-4: in stage 2 the nyumba has no rules of its own: a lap ending there relays like any pit.
#[test]
fn bao4_in_stage_2_the_nyumba_relays_like_any_pit() {
    let e = bao(None);
    // i3 clockwise: i4, i5 (6 -> 7): relay 7 from i5 without a choice: i6, i7, i8, o8, o7, o6, o5.
    let mut st = position(&e, "i3=2 i5=6 I1=1 nyumba(1)=i5 phase=mtaji");
    assert_eq!(plies(&e, &st), ["takasa i3ccw", "takasa i3cw", "takasa i5ccw", "takasa i5cw"]);
    play(&e, &mut st, "takasa i3cw");
    assert_eq!(seeds(&e, &st, &["i4", "i5", "i6", "o5"]), [1, 0, 1, 1]);
    assert!(!show(&e, &st).contains("nyumba(1)"), "emptied, the nyumba is destroyed: {}", show(&e, &st));
}

/// The nyumba is destroyed whenever it is emptied, by the opponent's capture too.
#[test]
fn a_captured_nyumba_is_destroyed() {
    let e = bao(None);
    // North's I3 clockwise: I4, I5... North's I4 (1) faces South's i5: capture it.
    let mut st = position(&e, "I2=2 I4=1 i5=6 i1=1 nyumba(1)=i5 to_move=2 phase=mtaji");
    play(&e, &mut st, "I2cw");
    assert_eq!(seeds(&e, &st, &["i5"]), [0]);
    assert!(!show(&e, &st).contains("nyumba(1)"), "{}", show(&e, &st));
}

/// BAO-14: Bao la Kujifunza has two seeds in every pit, nothing in hand (so no hand stage) and no nyumba.
#[test]
fn bao14_kujifunza_starts_in_stage_2_with_two_seeds_everywhere() {
    let e = bao(Some("kujifunza"));
    let st = e.initial_state();
    assert!(show(&e, &st).ends_with("to_move=1 phase=mtaji"), "{}", show(&e, &st));
    assert!(!show(&e, &st).contains("nyumba"));
    assert_eq!(st.counts.iter().take(32).filter(|&&c| c == 2).count(), 32);
}

/// BAO-4 flag, variant `nyumba-until-first-capture`: in stage 2 the nyumba keeps its stage-1 rules for a
/// player until his first capture there. Before it, a takasa lap ending in the functional nyumba ends the
/// move, and the nyumba starts no takasa while another inner pit is occupied; after it, the nyumba relays
/// like any pit, as in the base game (`bao4_in_stage_2_the_nyumba_relays_like_any_pit`).
#[test]
fn bao4_flag_the_nyumba_keeps_its_rules_until_the_first_stage_2_capture() {
    let e = bao(Some("nyumba-until-first-capture"));
    let text = "i3=2 i5=6 I1=1 nyumba(1)=i5 phase=mtaji";
    assert_eq!(plies_of(&e, text), ["takasa i3ccw", "takasa i3cw"]);
    // i3 clockwise: i4, i5 (6 -> 7, functional): the move ends there, the nyumba still owned.
    let mut st = position(&e, text);
    play(&e, &mut st, "takasa i3cw");
    assert_eq!(seeds(&e, &st, &["i3", "i4", "i5", "i6"]), [0, 1, 7, 0]);
    assert!(show(&e, &st).contains("nyumba(1)=i5"), "{}", show(&e, &st));
    // Once South has captured in stage 2 (the marked pit), his nyumba relays like any pit.
    let text = "i3=2 i5=6 I1=1 nyumba(1)=i5 captured_in_mtaji(1)=i1 phase=mtaji";
    assert_eq!(plies_of(&e, text), ["takasa i3ccw", "takasa i3cw", "takasa i5ccw", "takasa i5cw"]);
    let mut st = position(&e, text);
    play(&e, &mut st, "takasa i3cw");
    assert_eq!(seeds(&e, &st, &["i4", "i5", "i6", "o5"]), [1, 0, 1, 1]);
}

/// BAO-4 flag: the lone functional nyumba is taxed in stage 2 before the first capture, and a capture
/// there marks the capturer's pit, which frees his nyumba.
#[test]
fn bao4_flag_the_lone_nyumba_is_taxed_and_a_capture_ends_the_house_rules() {
    let e = bao(Some("nyumba-until-first-capture"));
    let mut st = position(&e, "i5=6 I1=1 nyumba(1)=i5 phase=mtaji");
    play(&e, &mut st, "takasa i5cw");
    assert_eq!(seeds(&e, &st, &["i5", "i6", "i7"]), [4, 1, 1]);
    // i3 clockwise captures I4 from i5 (no nyumba here): the pit i5 is marked for South.
    let mut st = position(&e, "i3=2 i5=1 I4=3 I1=2 phase=mtaji");
    play(&e, &mut st, "i3cw");
    assert!(show(&e, &st).contains("captured_in_mtaji(1)=i5"), "{}", show(&e, &st));
}

/// BAO-11, the position of the takasia scenarios, South to move in stage 2 with no nyumba: South has no
/// capture, so he sows a takasa: i6 counter-clockwise into i5, i4, which ends there. After it, South's only
/// capturing move would be i2 clockwise (i3, i4), capturing North's I5 (facing i4); i3 clockwise would end in
/// i5 facing the empty I4. North has no capturing move: I1 clockwise ends in I3, facing the empty i6.
const TAKASIA: &str = "i2=2 i3=2 i6=2 I1=2 I3=1 I5=2 phase=mtaji";

/// The takasa move of `TAKASIA` played in `variant` and `position`: the position after it.
fn after_takasa(variant: Option<&str>, position_text: &str) -> String {
    let e = bao(variant);
    let mut st = position(&e, position_text);
    play(&e, &mut st, "takasa i6ccw");
    show(&e, &st)
}

/// BAO-11: after South's takasa, every capture South could make first captures I5, and North has none:
/// I5 is blocked for North's next move (the mark has 2 plies left: North's and South's next). North may
/// not sow from it, and his lap landing there ends the move.
#[test]
fn bao11_a_takasa_blocks_the_one_pit_all_captures_would_take() {
    let e = bao(None);
    let mut st = position(&e, TAKASIA);
    play(&e, &mut st, "takasa i6ccw");
    assert!(show(&e, &st).contains("takasia(2)=I5/2"), "{}", show(&e, &st));
    // I5 holds 2, but North sows only I1.
    assert_eq!(plies(&e, &st), ["takasa I1ccw", "takasa I1cw"]);
    // I1 clockwise: I2, I3 (1 -> 2): relay I3's 2: I4, I5 (2 -> 3): blocked, the move ends there.
    play(&e, &mut st, "takasa I1cw");
    assert_eq!(seeds(&e, &st, &["I1", "I2", "I3", "I4", "I5", "I6"]), [0, 1, 0, 1, 3, 0]);
    // Without the block (Bao la Kujifunza has none) the lap in I5 relays: I6, I7, I8.
    let k = bao(Some("kujifunza"));
    let mut free = position(&k, &after_takasa(Some("kujifunza"), TAKASIA));
    play(&k, &mut free, "takasa I1cw");
    assert_eq!(seeds(&k, &free, &["I1", "I2", "I3", "I4", "I5", "I6", "I7", "I8"]), [0, 1, 0, 1, 0, 1, 1, 1]);
}

/// BAO-11: no block where the pit would be North's functional nyumba (6 or more); an owned nyumba of 5 is
/// idle, and is blocked.
#[test]
fn bao11_the_functional_nyumba_is_never_blocked() {
    let functional = "i2=2 i3=2 i6=2 I1=2 I3=1 I5=6 nyumba(2)=I5 phase=mtaji";
    assert!(!after_takasa(None, functional).contains("takasia"), "{}", after_takasa(None, functional));
    let idle = "i2=2 i3=2 i6=2 I1=2 I3=1 I5=5 nyumba(2)=I5 phase=mtaji";
    assert!(after_takasa(None, idle).contains("takasia(2)=I5/2"), "{}", after_takasa(None, idle));
}

/// BAO-11: no block on North's only occupied inner pit, nor on his only inner pit of 2 or more.
#[test]
fn bao11_the_only_occupied_inner_pit_and_the_only_one_of_two_or_more_are_never_blocked() {
    let only_occupied = "i2=2 i3=2 i6=2 I5=2 O1=2 phase=mtaji";
    assert!(!after_takasa(None, only_occupied).contains("takasia"), "{}", after_takasa(None, only_occupied));
    let only_two = "i2=2 i3=2 i6=2 I1=1 I3=1 I5=2 phase=mtaji";
    assert!(!after_takasa(None, only_two).contains("takasia"), "{}", after_takasa(None, only_two));
    // A blocked pit of one seed is fine where another inner pit holds 2 or more.
    let one_seed = "i2=2 i3=2 i6=2 I1=2 I3=1 I5=1 phase=mtaji";
    assert!(after_takasa(None, one_seed).contains("takasia(2)=I5/2"), "{}", after_takasa(None, one_seed));
}

/// BAO-11: no block when North has a capturing move (I7 counter-clockwise ends in I5, facing the i4 the
/// takasa filled), nor when South's captures would take from two pits (with I4 occupied, i3 clockwise
/// ending in i5 captures it).
#[test]
fn bao11_no_block_when_the_opponent_can_capture_or_the_captures_take_two_pits() {
    let north_captures = "i2=2 i3=2 i6=2 I1=2 I3=1 I5=2 I7=2 phase=mtaji";
    assert!(!after_takasa(None, north_captures).contains("takasia"), "{}", after_takasa(None, north_captures));
    let two_pits = "i2=2 i3=2 i6=2 I1=2 I3=1 I4=1 I5=2 phase=mtaji";
    assert!(!after_takasa(None, two_pits).contains("takasia"), "{}", after_takasa(None, two_pits));
}

/// BAO-11: on the move after the block, South must play a capture whose first capture takes the blocked
/// pit if there is one (North's move filled I4, so i3 clockwise could now capture I4 instead); where none
/// takes it, any legal move.
#[test]
fn bao11_the_next_move_must_capture_the_blocked_pit_when_it_can() {
    let e = bao(None);
    let mut st = position(&e, TAKASIA);
    play_all(&e, &mut st, &["takasa i6ccw", "takasa I1cw"]);
    assert!(show(&e, &st).contains("takasia(2)=I5/1"), "{}", show(&e, &st));
    assert_eq!(plies(&e, &st), ["i2cw"]);
    // The same position without the block: both captures.
    let free = show(&e, &st).replace(" takasia(2)=I5/1", "");
    assert_eq!(plies_of(&e, &free), ["i2cw", "i3cw"]);
    // Blocked, but no capture takes I5 first (i2 is empty): any capture.
    let none_takes_it = "i3=2 i4=1 i5=1 I2=1 I4=1 I5=3 takasia(2)=I5/1 phase=mtaji";
    assert_eq!(plies_of(&e, none_takes_it), ["i3cw"]);
}

/// BAO-11: the block lapses after North's move: once South has moved again, North may sow from the pit.
#[test]
fn bao11_the_block_lapses_after_the_opponents_move() {
    let e = bao(None);
    // South, under the block's obligation, has no capture: he sows a takasa, which blocks nothing new.
    let mut st = position(&e, "i7=2 I1=2 I3=1 I5=2 takasia(2)=I5/1 phase=mtaji");
    play(&e, &mut st, "takasa i7cw");
    assert!(!show(&e, &st).contains("takasia"), "{}", show(&e, &st));
    assert!(plies(&e, &st).iter().any(|p| p.starts_with("takasa I5")), "{:?}", plies(&e, &st));
}

/// BAO-14: Bao la Kujifunza has no takasia.
#[test]
fn bao14_kujifunza_has_no_takasia() {
    let text = after_takasa(Some("kujifunza"), TAKASIA);
    assert!(!text.contains("takasia"), "{text}");
    assert!(after_takasa(Some("nyumba-until-first-capture"), TAKASIA).contains("takasia(2)=I5/2"));
}

/// BAO-11 in the position format: a block is written with the plies it has left (1 or 2), and without them
/// it has 2, as right after the takasa that made it; a lasting mark takes no plies.
#[test]
fn bao11_the_position_format_writes_the_plies_a_block_has_left() {
    let e = bao(None);
    let text = "i2=2 I1=2 I5=2 takasia(2)=I5 phase=mtaji to_move=2";
    assert!(show(&e, &position(&e, text)).contains("takasia(2)=I5/2"));
    let err = |text: &str| mancala::notation::parse_position(&e, text).err().map(|e| e.to_string());
    assert!(err("i2=2 I1=2 I5=2 takasia(2)=I5/3 phase=mtaji").is_some_and(|m| m.contains("it has 1 to 2 left")));
    assert!(
        err("i2=2 I1=2 I5=2 nyumba(2)=I5/1 phase=mtaji").is_some_and(|m| m.contains("is not for a number of plies"))
    );
    // The plies left are part of the position a repetition compares.
    let two = position(&e, "i2=2 I1=2 I5=2 takasia(2)=I5/2 phase=mtaji");
    let one = position(&e, "i2=2 I1=2 I5=2 takasia(2)=I5/1 phase=mtaji");
    assert_ne!(two.mark_lives, one.mark_lives);
}
