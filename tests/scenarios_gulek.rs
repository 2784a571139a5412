//! Rule scenarios for Gulek (standard and shorter game), Gulek Solo (simple, V1, V2, V3) and Gulek Single
//! (simple, compulsory): one position, one ply (or a few), the exact position after it.
//! Rules: `docs/games/gulek.md`, decisions GU-1 .. GU-25.
//!
//! The ring: pits `1`..`15` clockwise (`7cw` sows 8, 9, ...; `7ccw` sows 6, 5, ...). Balls: `R` player 1,
//! `B` player 2, `G` player 3. `7cw:BRR` drops blue, red, red; `take 3,9` parks (Gulek) or removes (Solo,
//! Single) those pits after the sowing; `enter 4,11` re-enters parked pairs.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn gulek() -> Engine {
    engine("gulek", None, None)
}

fn gulek3() -> Engine {
    engine("gulek", None, Some(3))
}

fn short() -> Engine {
    engine("gulek", Some("short"), None)
}

// ================================================================ Gulek: stage 1, placement

#[test]
fn placement_one_ball_into_any_pit() {
    // 1.2 Stage 1: player 1 puts one ball from his supply into any of the 15 pits.
    let e = gulek();
    let st = e.initial_state();
    assert_eq!(
        show(&e, &st),
        "1=- 2=- 3=- 4=- 5=- 6=- 7=- 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- supply(1)=R*20 supply(2)=B*20 to_move=1 \
         phase=placing"
    );
    assert_eq!(plies(&e, &st).len(), 15);
    let mut st = st;
    play(&e, &mut st, "4");
    assert_eq!(
        show(&e, &st),
        "1=- 2=- 3=- 4=R 5=- 6=- 7=- 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- supply(1)=R*19 supply(2)=B*20 to_move=2 \
         phase=placing"
    );
    // The pit may already hold balls of any colour.
    play(&e, &mut st, "4");
    assert!(show(&e, &st).starts_with("1=- 2=- 3=- 4=RB 5=-"), "{}", show(&e, &st));
}

#[test]
fn short_game_places_two_balls_a_turn() {
    // 1.2 Variant (ii), GU-14, GU-25: two balls, each into any pit, the same pit allowed: 120 unordered pairs.
    let e = short();
    let mut st = e.initial_state();
    assert_eq!(plies(&e, &st).len(), 120);
    play(&e, &mut st, "3,7");
    play(&e, &mut st, "5,5");
    assert_eq!(
        show(&e, &st),
        "1=- 2=- 3=R 4=- 5=BB 6=- 7=R 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- supply(1)=R*18 supply(2)=B*18 to_move=1 \
         phase=placing"
    );
}

#[test]
fn the_last_placement_starts_stage_2_with_player_1() {
    // 1.2 Stage 2, GU-15: player 2 places the last ball; the rotation goes on to player 1, who sows first.
    let e = gulek();
    let st = scenario(
        &e,
        "1=RR 2=B 3=B supply(2)=B to_move=2 phase=placing",
        "5",
        "1=RR 2=B 3=B 4=- 5=B 6=- 7=- 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- to_move=1 phase=playing",
    );
    assert_eq!(to_move(&st), 1);
    assert_eq!(plies(&e, &st), ["1ccw:RR", "1cw:RR"]);
}

// ================================================================ Gulek: sowing

#[test]
fn sowing_direction_is_chosen() {
    // 1.2 Sow: the same balls, the same order, either way round.
    let e = gulek();
    let before = "1=B 7=RRB phase=playing to_move=1";
    scenario(
        &e,
        before,
        "7cw:BRR",
        "1=B 2=- 3=- 4=- 5=- 6=- 7=- 8=B 9=R 10=R 11=- 12=- 13=- 14=- 15=- to_move=2 phase=playing",
    );
    scenario(
        &e,
        before,
        "7ccw:BRR",
        "1=B 2=- 3=- 4=R 5=R 6=B 7=- 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- to_move=2 phase=playing",
    );
}

#[test]
fn the_last_ball_must_be_the_movers_colour() {
    // 1.2 Sow, GU-2: the mover orders the balls, his colour last: RBR or BRR, each way; never RRB.
    let e = gulek();
    let before = "1=B 7=RRB phase=playing to_move=1";
    assert_eq!(legal(&e, before), ["7ccw:BRR", "7ccw:RBR", "7cw:BRR", "7cw:RBR"]);
    let st = position(&e, before);
    assert_illegal(&e, &st, "7cw:RRB");
    // A pit without a ball of his colour cannot be sown, nor a single ball.
    assert_illegal(&e, &st, "1cw");
}

#[test]
fn sowing_a_second_lap_does_not_skip_the_start_pit() {
    // GU-1: 16 balls from 1 clockwise: 2..15, 1 again, and the 16th in 2. Blue's 9 gets a ball but is not
    // the last pit: nothing is captured. 2 then holds a red pair, which may be parked.
    let e = gulek();
    let before = "1=R*16 9=B 12=B phase=playing to_move=1";
    let st = scenario(
        &e,
        before,
        "1cw",
        "1=R 2=RR 3=R 4=R 5=R 6=R 7=R 8=R 9=RB 10=R 11=R 12=RB 13=R 14=R 15=R to_move=2 phase=playing",
    );
    assert_not_over(&e, &st);
    assert!(legal(&e, before).contains(&"1cw:RRRRRRRRRRRRRRRR take 2".to_string()));
}

#[test]
fn capture_of_every_foreign_ball_in_the_last_pit_three_players() {
    // 1.2 Capture, GU-3: the last ball (red) lands in 9 holding blue, blue, green: all three go to the centre.
    // 8, which got the blue ball, is not the last pit.
    let e = gulek3();
    scenario(
        &e,
        "1=R 2=GG 7=BR 9=BBG 12=B phase=playing to_move=1",
        "7cw:BR",
        "1=R 2=GG 3=- 4=- 5=- 6=- 7=- 8=B 9=R 10=- 11=- 12=B 13=- 14=- 15=- centre=BBG to_move=2 phase=playing",
    );
}

#[test]
fn no_capture_when_the_last_pit_holds_only_own_balls() {
    // 1.2 Capture: only foreign balls are taken.
    let e = gulek();
    scenario(
        &e,
        "1=RR 2=R 9=B phase=playing to_move=1",
        "1cw",
        "1=- 2=RR 3=R 4=- 5=- 6=- 7=- 8=- 9=B 10=- 11=- 12=- 13=- 14=- 15=- to_move=2 phase=playing",
    );
}

// ================================================================ Gulek: parking and re-entry

#[test]
fn parking_own_pairs_is_optional() {
    // 1.2 Parking, GU-22: after the sowing, any pits holding exactly two balls, both red, may be parked:
    // 3 (an old pair) and 9 (made by this sowing); not 4 (red and blue).
    let e = gulek();
    let before = "3=RR 4=RB 7=RR 9=R 12=B phase=playing to_move=1";
    let all = legal(&e, before);
    for ply in ["7cw:RR", "7cw:RR take 3", "7cw:RR take 9", "7cw:RR take 3,9"] {
        assert!(all.contains(&ply.to_string()), "{ply} in {all:?}");
    }
    assert!(!all.iter().any(|p| p.contains("take 4") || p.contains(",4")), "{all:?}");
    scenario(
        &e,
        before,
        "7cw take 3,9",
        "1=- 2=- 3=- 4=RB 5=- 6=- 7=- 8=R 9=- 10=- 11=- 12=B 13=- 14=- 15=- furrow(1)=R*4 to_move=2 phase=playing",
    );
    scenario(
        &e,
        before,
        "7cw",
        "1=- 2=- 3=RR 4=RB 5=- 6=- 7=- 8=R 9=RR 10=- 11=- 12=B 13=- 14=- 15=- to_move=2 phase=playing",
    );
}

#[test]
fn reentry_of_pairs_into_distinct_empty_pits() {
    // 1.2 Re-enter, GU-5: k >= 1 parked pairs, each into a different pit that is empty.
    let e = gulek();
    let before = "1=R 2=RB 3=B 6=B 7=B furrow(1)=R*4 phase=playing to_move=1";
    let st = position(&e, before);
    scenario(
        &e,
        before,
        "enter 4,11",
        "1=R 2=RB 3=B 4=RR 5=- 6=B 7=B 8=- 9=- 10=- 11=RR 12=- 13=- 14=- 15=- to_move=2 phase=playing",
    );
    scenario(
        &e,
        before,
        "enter 4",
        "1=R 2=RB 3=B 4=RR 5=- 6=B 7=B 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- furrow(1)=RR to_move=2 phase=playing",
    );
    assert_illegal(&e, &st, "enter 4,4");
    assert_illegal(&e, &st, "enter 1");
    // 10 empty pits: 10 single re-entries and 45 pairs of pits; plus sowing 2 either way.
    assert_eq!(plies(&e, &st).len(), 2 + 10 + 45);
}

#[test]
fn no_parking_after_a_reentry() {
    // GU-4: re-entry is instead of a move: no parking on that turn, so the re-entered pairs stay on the ring.
    let e = gulek();
    let st = position(&e, "1=R 2=RB 3=B 6=B 7=B furrow(1)=R*4 phase=playing to_move=1");
    let all = plies(&e, &st);
    assert!(all.iter().filter(|p| p.starts_with("enter")).all(|p| !p.contains("take")), "{all:?}");
    assert_illegal(&e, &st, "enter 4,11 take 4");
}

#[test]
fn reentry_is_forced_when_it_is_the_only_move() {
    // GU-16: red cannot sow (a single ball) but has a parked pair and empty pits: he must re-enter, not pass.
    let e = gulek();
    let all = legal(&e, "1=R 3=B 6=BB furrow(1)=RR phase=playing to_move=1");
    assert_eq!(all.len(), 12, "{all:?}");
    assert!(all.iter().all(|p| p.starts_with("enter ")), "{all:?}");
}

#[test]
fn pass_only_when_neither_sowing_nor_reentry_is_possible() {
    // 1.2 Pass, GU-16, GU-19: only single red balls, nothing parked: red passes, blue plays on.
    let e = gulek();
    let before = "1=R 2=R 3=B 6=BB 7=B phase=playing to_move=1";
    assert_eq!(legal(&e, before), ["pass"]);
    let st = scenario(
        &e,
        before,
        "pass",
        "1=R 2=R 3=B 4=- 5=- 6=BB 7=B 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=- to_move=2 phase=playing",
    );
    assert_not_over(&e, &st);
    // With a pit to sow, no pass.
    assert_illegal(&e, &position(&e, "1=RR 3=B 6=BB phase=playing to_move=1"), "pass");
}

// ================================================================ Gulek: elimination and the end

#[test]
fn elimination_leaves_the_last_player_standing_the_winner() {
    // 1.2 Elimination, GU-17, GU-21: red's last ball captures blue's only ball; blue has nothing on the ring and
    // nothing parked: he is out, and red, the last one standing, wins at once.
    let e = gulek();
    let st = scenario(
        &e,
        "1=R 7=RR 9=B phase=playing to_move=1",
        "7cw",
        "1=R 2=- 3=- 4=- 5=- 6=- 7=- 8=R 9=R 10=- 11=- 12=- 13=- 14=- 15=- centre=B to_move=1 phase=playing eliminated=2",
    );
    assert_over(&st, &[1], &[3, 0], EndReason::LastStanding);
}

#[test]
fn elimination_with_three_players_skips_the_eliminated_player() {
    // 1.2 Elimination: blue is out; the turn goes to green.
    let e = gulek3();
    let st = scenario(
        &e,
        "1=R 2=GG 7=RR 9=B phase=playing to_move=1",
        "7cw",
        "1=R 2=GG 3=- 4=- 5=- 6=- 7=- 8=R 9=R 10=- 11=- 12=- 13=- 14=- 15=- centre=B to_move=3 phase=playing eliminated=2",
    );
    assert_not_over(&e, &st);
}

#[test]
fn a_parked_pair_keeps_a_player_in_the_game() {
    // 1.2 Elimination, GU-7: blue's last ball on the ring is captured, but he has a parked pair.
    let e = gulek3();
    let st = scenario(
        &e,
        "1=R 2=G 7=RR 9=B furrow(2)=BB phase=playing to_move=1",
        "7cw",
        "1=R 2=G 3=- 4=- 5=- 6=- 7=- 8=R 9=R 10=- 11=- 12=- 13=- 14=- 15=- centre=B furrow(2)=BB to_move=2 phase=playing",
    );
    assert_not_over(&e, &st);
}

#[test]
fn draw_after_five_complete_rounds_without_capture() {
    // 1.2 End (b), GU-6, GU-20: red moves a pair along the ring without capturing; blue, with single balls
    // only, passes (passes count). After the 5th complete round the game is drawn, whatever the scores.
    let e = gulek();
    let mut st = position(&e, "1=RR 2=R 14=B 15=B phase=playing to_move=1");
    let rounds = ["1cw", "pass", "2cw", "pass", "3cw", "pass", "4cw", "pass", "5cw"];
    play_all(&e, &mut st, &rounds);
    assert_not_over(&e, &st);
    play(&e, &mut st, "pass");
    assert_eq!(
        show(&e, &st),
        "1=- 2=- 3=- 4=- 5=- 6=RR 7=R 8=- 9=- 10=- 11=- 12=- 13=- 14=B 15=B to_move=1 phase=playing"
    );
    assert_over(&st, &[], &[3, 2], EndReason::NoCapture);
}

#[test]
fn a_capture_resets_the_no_capture_count() {
    // GU-6, GU-20: four quiet rounds, then red's 5th sowing captures blue's ball in 7: the count starts again.
    // A round then completes once both have played since the capture: blue's pass and red's sowing.
    let e = gulek();
    let mut st = position(&e, "1=RR 2=R 7=B 15=B phase=playing to_move=1");
    play_all(&e, &mut st, &["1cw", "pass", "2cw", "pass", "3cw", "pass", "4cw", "pass"]);
    play(&e, &mut st, "5cw");
    assert_eq!(
        show(&e, &st),
        "1=- 2=- 3=- 4=- 5=- 6=RR 7=R 8=- 9=- 10=- 11=- 12=- 13=- 14=- 15=B centre=B to_move=2 phase=playing"
    );
    play_all(&e, &mut st, &["pass", "6cw", "pass", "7cw", "pass", "8cw", "pass", "9cw", "pass"]);
    assert_not_over(&e, &st);
    play(&e, &mut st, "10cw");
    assert_over(&st, &[], &[3, 1], EndReason::NoCapture);
}

#[test]
fn rounds_count_only_players_still_in_the_game() {
    // GU-6, GU-20: with blue out, a round is red's turn and green's.
    let e = gulek3();
    let mut st = position(&e, "1=RR 2=R 14=G 15=G phase=playing eliminated=2 to_move=1");
    play_all(&e, &mut st, &["1cw", "pass", "2cw", "pass", "3cw", "pass", "4cw", "pass", "5cw"]);
    assert_not_over(&e, &st);
    play(&e, &mut st, "pass");
    assert_over(&st, &[], &[3, 0, 2], EndReason::NoCapture);
}

#[test]
fn nobody_can_move_ends_the_game_scoring_ring_plus_furrow() {
    // 1.2 End (a), GU-7: every pit holds one ball, so nobody can sow, and no pit is empty for a re-entry:
    // red 8 on the ring + 2 parked = 10, blue 7 + 4 = 11: blue wins. The end rules are tested before the first
    // ply as after every ply, so the game is over at once: no pass is offered first.
    let e = gulek();
    let before = "1=R 2=B 3=R 4=B 5=R 6=B 7=R 8=B 9=R 10=B 11=R 12=B 13=R 14=B 15=R furrow(1)=RR furrow(2)=B*4 \
                  phase=playing to_move=1";
    let st = position(&e, before);
    assert!(plies(&e, &st).is_empty());
    assert_over(&st, &[2], &[10, 11], EndReason::NobodyCanMove);
}

#[test]
fn tied_leaders_share_the_win() {
    // GU-8: red sows his last pair; nobody can move; 2 - 2: both win.
    let e = gulek();
    let st = scenario(
        &e,
        "1=B 7=RRB phase=playing to_move=1",
        "7cw:BRR",
        "1=B 2=- 3=- 4=- 5=- 6=- 7=- 8=B 9=R 10=R 11=- 12=- 13=- 14=- 15=- to_move=2 phase=playing",
    );
    assert_over(&st, &[1, 2], &[2, 2], EndReason::NobodyCanMove);
}

// ================================================================ Gulek: the shorter game

#[test]
fn short_game_a_player_who_cannot_move_loses_with_two_players() {
    // 1.2 Variant (i), GU-13, GU-19: after red's sowing blue has single balls only and nothing parked: he is
    // out, automatically, and red wins.
    let e = short();
    let st = scenario(
        &e,
        "1=RR 2=R 10=B 12=B phase=playing to_move=1",
        "1cw",
        "1=- 2=RR 3=R 4=- 5=- 6=- 7=- 8=- 9=- 10=B 11=- 12=B 13=- 14=- 15=- to_move=1 phase=playing eliminated=2",
    );
    assert_over(&st, &[1], &[3, 2], EndReason::LastStanding);
    // In the standard game the same blue player simply passes.
    let e = gulek();
    let st = scenario(
        &e,
        "1=RR 2=R 10=B 12=B phase=playing to_move=1",
        "1cw",
        "1=- 2=RR 3=R 4=- 5=- 6=- 7=- 8=- 9=- 10=B 11=- 12=B 13=- 14=- 15=- to_move=2 phase=playing",
    );
    assert_eq!(plies(&e, &st), ["pass"]);
}

#[test]
fn short_game_with_three_players_the_stuck_player_is_eliminated_and_his_balls_stay() {
    // GU-13, GU-19: blue cannot move: he is out, his balls stay on the ring as foreign balls; green plays.
    let e = engine("gulek", Some("short"), Some(3));
    let st = scenario(
        &e,
        "1=RR 2=R 5=GG 10=B 12=B phase=playing to_move=1",
        "1cw",
        "1=- 2=RR 3=R 4=- 5=GG 6=- 7=- 8=- 9=- 10=B 11=- 12=B 13=- 14=- 15=- to_move=3 phase=playing eliminated=2",
    );
    assert_not_over(&e, &st);
}

#[test]
fn short_game_ends_on_scores_when_nobody_can_move() {
    // GU-18: when nobody can move the game ends on the scores (end (a) is checked before putting anyone out):
    // red 3, blue 2.
    let e = short();
    let st = scenario(
        &e,
        "1=RR 6=R 9=B 12=B phase=playing to_move=1",
        "1cw",
        "1=- 2=R 3=R 4=- 5=- 6=R 7=- 8=- 9=B 10=- 11=- 12=B 13=- 14=- 15=- to_move=2 phase=playing",
    );
    assert_over(&st, &[1], &[3, 2], EndReason::NobodyCanMove);
}

#[test]
fn short_game_a_player_put_out_can_complete_the_fifth_quiet_round_and_draw_at_once() {
    // GU-13, GU-20, GU-6, GU-18: with three players, nobody captures for four rounds and four turns. Then blue
    // plays, and green, to move, cannot: he is put out, which completes the fifth round without a capture
    // (he leaves the round set). The end rules are looked at again after the elimination: the game is drawn at
    // once, red does not move first.
    let e = engine("gulek", Some("short"), Some(3));
    let mut st =
        position(&e, "centre=R*16B*16G*16 furrow(1)=RRRR furrow(2)=BBBB furrow(3)=GGGG to_move=1 phase=playing");
    let plies = [
        "enter 1", "enter 5", "enter 10", "1cw:RR", "5cw:BB", "enter 13", "enter 1", "enter 5", "10cw:GG", "1cw:RR",
        "5cw:BB", "13cw:GG", "2cw:RR", "6cw:BB",
    ];
    for ply in &plies[..plies.len() - 1] {
        play(&e, &mut st, ply);
        assert_not_over(&e, &st);
    }
    play(&e, &mut st, plies[plies.len() - 1]);
    assert_eq!(result(&st).map(|r| (r.0, r.2)), Some((vec![], EndReason::NoCapture)), "{}", show(&e, &st));
    assert_eq!(st.eliminated, 0b100, "green is out");
}

/// Gulek with re-entry of at least three pairs at once (`3.. times`): a rule a file may say, under which a
/// started re-entry can run out of parked pairs.
fn gulek_entering_three_pairs() -> Engine {
    let path = format!("{}/games/gulek.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("games/gulek.mancala");
    assert!(source.contains("1.. times"), "the re-entry rule of games/gulek.mancala changed");
    mancala::compile(&source.replace("1.. times", "3.. times"), None, None).expect("the changed file compiles")
}

#[test]
fn a_put_that_cannot_be_made_often_enough_is_not_offered() {
    // With two parked pairs, a re-entry of three cannot be completed: red may not start one, so with nothing
    // to sow he passes (GU-16) instead of being left half-way through a re-entry with no decision to make.
    let e = gulek_entering_three_pairs();
    let st = position(&e, "5=BB 9=B furrow(1)=RRRR to_move=1 phase=playing");
    assert_eq!(plies(&e, &st), ["pass"]);
    // With three pairs, the re-entry is there (into three different empty pits, or more).
    let st = position(&e, "5=B 9=B furrow(1)=R*6 to_move=1 phase=playing");
    let plies = plies(&e, &st);
    assert!(plies.contains(&"enter 1,2,3".to_string()), "{plies:?}");
    assert!(!plies.contains(&"pass".to_string()), "{plies:?}");
}

#[test]
fn short_game_placing_two_balls_needs_two_in_the_supply() {
    // GU-14: the shorter game places two balls a turn. A supply of one ball (a set-up position) cannot make a
    // whole turn, so no placing is offered rather than one left half done: red cannot move.
    let e = short();
    let st = position(&e, "1=B supply(1)=R supply(2)=B to_move=1 phase=placing");
    assert_eq!(plies(&e, &st), Vec::<String>::new());
    assert_eq!(result(&st).map(|r| r.2), Some(EndReason::Stuck));
    let st = position(&e, "1=B supply(1)=RR supply(2)=B to_move=1 phase=placing");
    assert!(plies(&e, &st).contains(&"1,1".to_string()), "{:?}", plies(&e, &st));
}

#[test]
fn a_look_ahead_that_would_search_for_minutes_is_bounded() {
    // Placing 21 balls a turn, at most three in a pit, from a supply of 20: no start can be completed, but
    // proving it means trying every way of spreading 20 balls over the ring (millions). The engine looks at a
    // bounded number of continuations per move (`MAX_PROBE_STEPS`) and offers none: red cannot move.
    let path = format!("{}/games/gulek.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("games/gulek.mancala");
    let rule = "put { 1 own from supply(mover) into pits }";
    assert!(source.contains(rule), "the placing rule of games/gulek.mancala changed");
    let changed = source.replace(rule, "put { 1 own from supply(mover) into pits where count <= 2, 21.. times }");
    let start = std::time::Instant::now();
    let e = mancala::compile(&changed, None, None).expect("the changed file compiles");
    let st = e.initial_state();
    assert_eq!(result(&st).map(|r| r.2), Some(EndReason::Stuck));
    let elapsed = start.elapsed();
    assert!(elapsed < std::time::Duration::from_secs(3), "the start took {elapsed:?}");
}

// ================================================================ Gulek Solo

fn solo(variant: Option<&str>) -> Engine {
    engine("gulek-solo", variant, None)
}

#[test]
fn solo_pair_removal_is_optional() {
    // 1.4 Move 3, GU-9: after sowing 9's three balls clockwise, the pairs in 1 and 5 (old ones, anywhere) may
    // be removed, or not.
    let e = solo(None);
    let before = "1=2 5=2 9=3";
    let all = legal(&e, before);
    for ply in ["9cw", "9cw take 1", "9cw take 5", "9cw take 1,5"] {
        assert!(all.contains(&ply.to_string()), "{ply} in {all:?}");
    }
    scenario(
        &e,
        before,
        "9cw take 5",
        "1=2 2=0 3=0 4=0 5=0 6=0 7=0 8=0 9=0 10=1 11=1 12=1 13=0 14=0 15=0 removed=2 to_move=1",
    );
}

#[test]
fn solo_v1_pair_removal_is_compulsory() {
    // 1.4 V1, GU-10: every pit holding exactly 2 after the move is emptied: 1 and 5.
    let e = solo(Some("v1"));
    let before = "1=2 5=2 9=3";
    assert_eq!(legal(&e, before), ["1ccw", "1cw", "5ccw", "5cw", "9ccw", "9cw"]);
    let st = scenario(
        &e,
        before,
        "9cw",
        "1=0 2=0 3=0 4=0 5=0 6=0 7=0 8=0 9=0 10=1 11=1 12=1 13=0 14=0 15=0 removed=4 to_move=1",
    );
    // Three single balls, no move: lost.
    assert_over(&st, &[], &[0], EndReason::Stuck);
}

#[test]
fn solo_v2_the_last_ball_may_not_land_in_an_empty_pit() {
    // 1.4 V2: 1cw would end in 3 (empty): illegal; with a ball in 3 it is allowed.
    let e = solo(Some("v2"));
    assert!(legal(&e, "1=2 5=2").is_empty());
    assert_eq!(legal(&e, "1=2 3=1 5=1"), ["1cw", "1cw take 3"]);
    scenario(&e, "1=2 3=1 5=1", "1cw", "1=0 2=1 3=2 4=0 5=1 6=0 7=0 8=0 9=0 10=0 11=0 12=0 13=0 14=0 15=0 to_move=1");
}

#[test]
fn solo_v2_a_pit_that_got_a_ball_earlier_in_the_sowing_is_not_empty() {
    // GU-23: 16 balls from 1 clockwise: 2..15, 1, and the last in 2, which got a ball on the first lap: legal.
    // 15 balls end in 1 itself, emptied by the lift and empty when the ball drops: illegal.
    let e = solo(Some("v2"));
    assert_eq!(legal(&e, "1=16"), ["1ccw", "1ccw take 15", "1cw", "1cw take 2"]);
    scenario(&e, "1=16", "1cw", "1=1 2=2 3=1 4=1 5=1 6=1 7=1 8=1 9=1 10=1 11=1 12=1 13=1 14=1 15=1 to_move=1");
    assert!(legal(&e, "1=15").is_empty());
}

#[test]
fn solo_v3_compulsory_removal_and_no_last_ball_in_an_empty_pit() {
    // 1.4 V3: only 1cw (ending in 3, not empty) is legal; both pairs, 3 and 8, must then go: 2 singles left.
    let e = solo(Some("v3"));
    assert_eq!(legal(&e, "1=2 3=1 5=1 8=2"), ["1cw"]);
    let st = scenario(
        &e,
        "1=2 3=1 5=1 8=2",
        "1cw",
        "1=0 2=1 3=0 4=0 5=1 6=0 7=0 8=0 9=0 10=0 11=0 12=0 13=0 14=0 15=0 removed=4 to_move=1",
    );
    assert_over(&st, &[], &[0], EndReason::Stuck);
}

#[test]
fn solo_win_on_an_empty_ring() {
    // 1.4 Goal: 1cw makes 2 and 3 pairs; removing both empties the ring: won.
    let e = solo(None);
    let st = scenario(
        &e,
        "1=2 2=1 3=1",
        "1cw take 2,3",
        "1=0 2=0 3=0 4=0 5=0 6=0 7=0 8=0 9=0 10=0 11=0 12=0 13=0 14=0 15=0 removed=4 to_move=1",
    );
    assert_eq!(result(&st).map(|r| r.0), Some(vec![1]));
}

#[test]
fn solo_loss_when_stuck_with_balls_left() {
    // 1.4 Goal: two single balls and no move: lost.
    let e = solo(None);
    let st = scenario(&e, "1=2", "1cw", "1=0 2=1 3=1 4=0 5=0 6=0 7=0 8=0 9=0 10=0 11=0 12=0 13=0 14=0 15=0 to_move=1");
    assert_over(&st, &[], &[0], EndReason::Stuck);
}

// ================================================================ Gulek Single

fn single(variant: Option<&str>) -> Engine {
    engine("gulek-single", variant, None)
}

#[test]
fn single_relay_continues_on_a_pit_that_held_two_or_more() {
    // 1.5, GU-11: 1cw drops in 2 and 3; 3 held 2 and now 3: lift them and sow on, 4 5 6; 6 was empty: stop.
    // 4 and 5 held 2 and got a ball each on the way, but only the last pit of a lap relays.
    let e = single(None);
    scenario(
        &e,
        "1=2 3=2 4=2 5=2",
        "1cw",
        "1=0 2=1 3=0 4=3 5=3 6=1 7=0 8=0 9=0 10=0 11=0 12=0 13=0 14=0 15=0 to_move=1",
    );
}

#[test]
fn single_relay_stops_on_an_empty_pit() {
    // 1.5: the relay from 3 ends in 6, which was empty.
    let e = single(None);
    let st = scenario(
        &e,
        "1=2 3=2 10=1",
        "1cw",
        "1=0 2=1 3=0 4=1 5=1 6=1 7=0 8=0 9=0 10=1 11=0 12=0 13=0 14=0 15=0 to_move=1",
    );
    assert_over(&st, &[], &[0], EndReason::Stuck);
}

#[test]
fn single_stops_on_a_singleton_and_pair_removal_is_optional() {
    // 1.5, GU-11: the last ball makes 3 a pair (it held 1): the move ends; the pair may be removed.
    let e = single(None);
    assert_eq!(legal(&e, "1=2 3=1 10=1"), ["1ccw", "1cw", "1cw take 3"]);
    scenario(&e, "1=2 3=1 10=1", "1cw", "1=0 2=1 3=2 4=0 5=0 6=0 7=0 8=0 9=0 10=1 11=0 12=0 13=0 14=0 15=0 to_move=1");
    scenario(
        &e,
        "1=2 3=1 10=1",
        "1cw take 3",
        "1=0 2=1 3=0 4=0 5=0 6=0 7=0 8=0 9=0 10=1 11=0 12=0 13=0 14=0 15=0 removed=2 to_move=1",
    );
}

#[test]
fn single_compulsory_variant_removes_every_pair() {
    // 1.5 Variant: the pair in 3 must go.
    let e = single(Some("compulsory"));
    assert_eq!(legal(&e, "1=2 3=1 10=1"), ["1ccw", "1cw"]);
    scenario(
        &e,
        "1=2 3=1 10=1",
        "1cw",
        "1=0 2=1 3=0 4=0 5=0 6=0 7=0 8=0 9=0 10=1 11=0 12=0 13=0 14=0 15=0 removed=2 to_move=1",
    );
}

#[test]
fn single_a_lap_round_the_ring_reads_before_at_its_last_drop() {
    // GU-11 on a lap of 17 from 1: round the ring once (2 .. 15, then 1 itself), then 2 and 3 again. 3 held
    // 1, got a ball on the first round and the last ball on the second: it held 2 just before the last
    // drop, so the lap relays from 3 (its 3 balls into 4, 5, 6). 6 held 1 before its ball: stop. What 3
    // held before the lap (1), or before its first ball of the lap (1), would not relay.
    let e = single(None);
    scenario(&e, "1=17 3=1", "1cw", "1=1 2=2 3=0 4=2 5=2 6=2 7=1 8=1 9=1 10=1 11=1 12=1 13=1 14=1 15=1 to_move=1");
    // The other way round: 1, 15 .. 2, then 1 again and 15; 15 held 1 before the lap and 2 before its
    // last ball: relay from 15 into 14, 13, 12.
    scenario(&e, "1=16 15=1", "1ccw", "1=1 2=1 3=1 4=1 5=1 6=1 7=1 8=1 9=1 10=1 11=1 12=2 13=2 14=2 15=0 to_move=1");
}

#[test]
fn single_a_lap_round_the_ring_ending_where_it_held_one_does_not_relay() {
    // 3 empty before a lap of 17 from 1: one ball on the first round, the last on the second, so it held 1
    // before the last drop and the move ends there with a pair in 3.
    let e = single(None);
    scenario(&e, "1=17", "1cw", "1=1 2=2 3=2 4=1 5=1 6=1 7=1 8=1 9=1 10=1 11=1 12=1 13=1 14=1 15=1 to_move=1");
}

/// Gulek Single relaying whatever the last pit held (`before >= 0`): every sowing relays for ever.
fn single_relaying_always() -> (String, Engine) {
    let path = format!("{}/games/gulek-single.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("games/gulek-single.mancala");
    assert!(source.contains("relay when before >= 2"), "the relay rule of games/gulek-single.mancala changed");
    let source = source.replace("relay when before >= 2", "relay when before >= 0");
    let engine = mancala::compile(&source, None, None).expect("the changed file compiles");
    (source, engine)
}

#[test]
fn single_an_endless_relay_is_found_at_once() {
    // GU-12, GU-24: when every relay goes on, every sowing is endless, so none is legal and the solitaire is
    // lost before the first move. Finding that out takes a moment, not the many seconds of following each
    // sowing through hundreds of thousands of laps.
    let start = std::time::Instant::now();
    let (_, e) = single_relaying_always();
    let st = e.initial_state();
    assert_over(&st, &[], &[0], EndReason::Stuck);
    let elapsed = start.elapsed();
    assert!(elapsed < std::time::Duration::from_secs(3), "the start took {elapsed:?}");
}

#[test]
fn single_check_warns_of_a_relay_condition_that_always_holds() {
    let (source, _) = single_relaying_always();
    let file = mancala::syntax::parse(&source).expect("parses");
    let warnings: Vec<_> =
        mancala::check::check(&file).into_iter().filter(|d| d.code == "mancala::check::relay_always").collect();
    // Once for the base game and once for the compulsory variant, each at its `relay` line.
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    for w in &warnings {
        assert!(!w.is_error());
        assert_eq!(&source[w.span.start..w.span.end], "relay when before >= 0");
        assert!(w.help.as_deref().is_some_and(|h| h.contains("before >= 2")), "{w:?}");
    }
}

#[test]
fn single_a_looping_relay_is_illegal() {
    // 1.5 Guard, GU-12, GU-24: from this position (found by simulating random games) sowing 3 clockwise relays
    // for ever: after its first lap it comes back to the same (board, pit) every 1,185 laps. That sowing is
    // illegal; 3 counter-clockwise ends normally.
    let e = single(None);
    let before = "1=5 2=1 3=6 4=4 6=2 7=1 9=6 10=5 12=9 13=2 14=1";
    let st = position(&e, before);
    let all = plies(&e, &st);
    assert!(all.iter().any(|p| p.starts_with("3ccw")), "{all:?}");
    assert!(!all.iter().any(|p| p.starts_with("3cw")), "{all:?}");
    assert_illegal(&e, &st, "3cw");
    // The mirror image (pit k becomes 16 - k) loops counter-clockwise: 13ccw is illegal, 13cw is not.
    let st = position(&e, "2=1 3=2 4=9 6=5 7=6 9=1 10=2 12=4 13=6 14=1 15=5");
    let all = plies(&e, &st);
    assert!(all.iter().any(|p| p.starts_with("13cw")), "{all:?}");
    assert!(!all.iter().any(|p| p.starts_with("13ccw")), "{all:?}");
    // The compulsory variant has the same guard.
    let e = single(Some("compulsory"));
    assert_illegal(&e, &position(&e, before), "3cw");
}
