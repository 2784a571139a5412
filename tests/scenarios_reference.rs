//! Scenarios of the rule language found by the differential check against the reference semantics
//! (`tests/differential.rs`): each rule file of `tests/data/reference/` is also played there, decision by
//! decision, against the reference; these tests pin what the docs say of each.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn file(name: &str) -> Engine {
    let path = format!("{}/tests/data/reference/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

#[test]
fn an_elimination_tests_the_player_about_to_move_as_mover() {
    // §10: in end rules `mover` is the player about to move; in `eliminate when`, `player` is the player
    // tested. After South's `a`, both have 3 seeds or fewer, but only North, about to move, is `mover`: he is
    // out, and South wins as the last player standing. (South, about to move at the start, has 4: the end
    // rules are tested before the first ply too.)
    let e = file("eliminate-mover");
    let mut st = position(&e, "a4 A1 to_move=1");
    play(&e, &mut st, "a");
    assert_over(&st, &[1], &[2, 3], EndReason::LastStanding);
}

#[test]
fn a_lap_sown_into_a_pit_and_a_relay_from_it_are_not_a_loop() {
    // a's seed ends in the empty b: the capture takes it to the hand and sows it into b (lap 2), and the
    // relay of lap 2 lifts b and sows it into c (lap 3). Laps 2 and 3 start with the same seeds everywhere and
    // in hand, from b, but lap 2's first seed goes into b and lap 3's past it: the move is not endless.
    let e = file("sow-into-then-relay");
    let st = scenario(&e, "a1 A1 B1 to_move=1", "a", "a0 b0 c1 d0 A1 B1 C0 D0 to_move=2");
    assert_not_over(&e, &st);
}

#[test]
fn a_solitaire_player_put_out_ends_the_game_and_the_goal_decides() {
    // §10 `eliminate when cannot move`, §11 goal: after `1`, no pit holds 3 seeds; the one player is put out,
    // nobody is left to move, and the game ends at once. The engine used to wait for a turn nobody could
    // take, for ever (a fuzz finding). Won when every pit then holds one seed or none, lost otherwise.
    let e = file("solitaire-put-out");
    let mut won = position(&e, "1=3");
    play(&e, &mut won, "1");
    assert_over(&won, &[1], &[0], EndReason::LastStanding);
    let mut lost = position(&e, "1=3 2=1");
    play(&e, &mut lost, "1");
    assert_over(&lost, &[], &[0], EndReason::LastStanding);
}

#[test]
fn nobody_can_move_waits_for_the_answer_to_an_offer() {
    // §10 `when nobody can move`: South has offered his empty b. Nobody could sow (no pit of 2) nor offer
    // (neither could pay 3 a pit), but North, who must answer, can move: his answer is his ply, and the game
    // goes on until it is made.
    let e = file("nobody-can-move-with-an-offer-waiting");
    let text = "a1 A1 captured(1)=2 captured(2)=2 offered=b to_move=2";
    let st = position(&e, text);
    assert_not_over(&e, &st);
    assert_eq!(plies(&e, &st), ["accept", "decline"]);
    // Declined: nobody can move now, and the game ends, each player banking his own pits.
    let mut declined = st.clone();
    play(&e, &mut declined, "decline");
    assert_over(&declined, &[], &[3, 3], EndReason::NobodyCanMove);
    // Accepted: b is North's, filled with the 2 seeds he could pay, and he sows it in his own turn.
    let mut accepted = st.clone();
    play(&e, &mut accepted, "accept");
    assert_not_over(&e, &accepted);
    assert_eq!((to_move(&accepted), plies(&e, &accepted)), (2, vec!["b".to_string()]));
}

#[test]
fn an_action_ruled_out_by_prefer_is_still_possible_for_pass() {
    // §9.5 `pass when cannot sow`, §9.7 `prefer big, sow`: with a pit of 3, only `big` is allowed, but `sow`
    // could start, so there is no pass (the engine used to offer one: a fuzz finding); with no pit of 3,
    // `sow` is allowed; with no seed on his side, he passes.
    let e = file("pass-when-an-action-is-ranked-out");
    assert_eq!(legal(&e, "a3 b1 A1 to_move=1"), ["a"]);
    assert_eq!(legal(&e, "a1 b1 A1 to_move=1"), ["sow a", "sow b"]);
    assert_eq!(legal(&e, "A1 to_move=1"), ["pass"]);
}

#[test]
fn before_in_the_score_reads_the_last_ply_whatever_ended_the_game() {
    // §13 `before`: in `score`, "this move" is the ply just played. South's b drops its seed into his store
    // (3 -> 4), and North, with no seed, cannot move: the game ends there, and South's store is scored as it
    // was before that seed (3), North's as it is (4). The engine used to forget the ply's drops before it
    // found North stuck, and scored 4 to 4 (a fuzz finding).
    let e = file("before-in-the-score");
    let mut st = position(&e, "a1 b1 store(1)=3 store(2)=4 to_move=1");
    play(&e, &mut st, "b");
    assert_over(&st, &[2], &[3, 4], EndReason::Stuck);
    // Ended by its end rule, the same.
    let mut st = position(&e, "b1 store(1)=3 store(2)=4 to_move=1");
    play(&e, &mut st, "b");
    assert_over(&st, &[2], &[3, 4], EndReason::Condition);
}

#[test]
fn a_take_passes_over_the_place_it_fills() {
    // §9.2: North accepts South's offer of c: c is given to him, and 3 seeds from his pits go into it. c is
    // one of his pits now, but no place is a source of its own pieces: the seeds come from B (2, all there
    // is), and c's own 5 stay. The engine and the reference used to read it two ways (a fuzz finding).
    let e = file("take-to-a-place-among-its-sources");
    let st = position(&e, "a2 b0 c5 A0 B2 C0 captured(2)=9 offered=c to_move=2");
    let mut accepted = st.clone();
    play(&e, &mut accepted, "accept");
    assert!(show(&e, &accepted).starts_with("a2 b0 c7 A0 B0 C0 "), "{}", show(&e, &accepted));
}

#[test]
fn the_sweeps_after_an_endless_move_see_its_mover_as_mover() {
    // §10 `draw when endless`: South's d relays for ever and is cut; the next player's turn never began, so
    // `sweep pits(opponent) to store(mover)` sends North's seeds to South's store (the engine had handed the
    // turn to North first, and sent South's to North's: a fuzz finding).
    let e = file("endless-sweep-to-the-mover");
    let mut st = position(&e, "a1 b0 c1 d3 e1 f0 A1 B0 C1 D0 E1 F2 store(1)=21 store(2)=16 to_move=1");
    play(&e, &mut st, "d");
    assert_over(&st, &[], &[32, 16], EndReason::Endless);
}

#[test]
fn threats_count_only_the_starts_that_can_be_made() {
    // §13 `threats(PLAYER)`: after South's takasa i3cw, his one capturing start (o2cw, which would first take
    // I8) fails `require before(last) > 0` at its last lap, so it is no move he could make: no threat, and no
    // takasia on I8. The reference tried every start by its own rules and marked one (a fuzz finding).
    let e = file("threats-of-moves-that-can-be-made");
    let mut st = position(&e, "o1=0 o2=2 o3=1 o4=0 o5=0 o6=0 o7=0 o8=1 i1=2 i2=0 i3=2 i4=0 i5=1 i6=0 i7=0 i8=1 O1=1 O2=1 O3=1 O4=1 O5=0 O6=0 O7=0 O8=0 I1=1 I2=1 I3=1 I4=0 I5=1 I6=0 I7=1 I8=1 ghala(1)=22 ghala(2)=22 to_move=1");
    play(&e, &mut st, "takasa i3cw");
    assert!(!show(&e, &st).contains("takasia"), "{}", show(&e, &st));
}

#[test]
fn a_sowing_that_would_lift_nothing_is_no_move() {
    // §9.1 `lift`: each lap lifts one seed from the mover's store. With his store empty, a start would lift
    // nothing and drop nothing (a pass in disguise, which the engine used to offer): no start is a move, and
    // he passes. With one seed there, every non-empty pit of his is a start again.
    let e = file("lift-from-an-empty-place");
    assert_eq!(legal(&e, "a2 b2 A2 B2 store(1)=0 store(2)=1 to_move=1"), ["pass"]);
    assert_eq!(legal(&e, "a2 b2 A2 B2 store(1)=1 store(2)=1 to_move=1"), ["a", "b"]);
}

#[test]
fn a_setup_line_with_exactly_sets_what_a_place_holds() {
    // §7: lines add up, and `exactly` sets: a and A are emptied, b holds 5, c 2 + 1.
    let e = file("setup-exactly");
    let st = e.initial_state();
    assert!(show(&e, &st).starts_with("a0 b5 c3 d2 A0 B2 C2 D2 "), "{}", show(&e, &st));
}

#[test]
fn a_group_whose_starts_all_fail_require_hands_over_to_the_next() {
    // §9.1 `else`: c (3 seeds) is the only pit of the first group, and its last seed falls on North's side,
    // which `require last in pits(mover)` refuses: the group has no legal start, so the next group's pits
    // are the starts, and b (its last seed into c) is one. Only a pass was offered before.
    let e = file("else-after-a-group-that-fails-require");
    assert_eq!(legal(&e, "b1 c3 A2 to_move=1"), ["b"]);
}

#[test]
fn the_setups_marks_for_plies_are_the_first_plies() {
    // §5, §7: the setup is read as a position typed in. `blocked` (for 2 plies) has one ply left: the first
    // ply may not start from a, the second may; `fresh` (for one ply) is the first ply's, and gives South
    // another turn after it, not after the second.
    let e = file("setup-marks-for-plies");
    let mut st = e.initial_state();
    let text = show(&e, &st);
    assert!(text.contains("blocked=a/1,A/1 fresh=b "), "{text}");
    let back = mancala::notation::parse_position(&e, &text).expect("the start position reads back");
    assert_eq!((&back.marks, &back.mark_lives, show(&e, &back)), (&st.marks, &st.mark_lives, text.clone()));
    let mut first = plies(&e, &st);
    first.sort();
    assert_eq!(first, ["b", "c", "d"]);
    play(&e, &mut st, "b");
    assert_eq!(to_move(&st), 1);
    assert!(plies(&e, &st).contains(&"a".to_string()), "{}", show(&e, &st));
    play(&e, &mut st, "a");
    assert_eq!(to_move(&st), 2);
}
