//! Rule scenarios for the Glass Bead Game (Glass Perlen Spiel): one position, one ply, the exact position after.
//! Rules: `docs/games/perlen.md`, decisions GB-1 .. GB-16.
//!
//! The track, counter-clockwise: `a b c d e A B C D E` (South owns a..e, North A..E; cups off the track).
//! Beads: `0` a stone, `1`..`5` a gem of that value. `e:30` sows e dropping gem 3 then a stone; `x C4` takes
//! gem 4 from C in an indirect capture; `cup(2)5` a gem from North's cup.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn perlen() -> Engine {
    engine("perlen", None, None)
}

#[test]
fn start() {
    // 3.2 Setup, GB-6: a stone and a gem in every pit, gems 5..1 along each row; South first.
    let e = perlen();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a=05 b=04 c=03 d=02 e=01 A=05 B=04 C=03 D=02 E=01 to_move=1");
    assert_eq!(plies(&e, &st).len(), 10, "five pits, two orders each");
}

// ---------------------------------------------------------------- the order and direct capture

#[test]
fn the_mover_chooses_the_order_and_orders_differ() {
    // 3.2 Move 2, GB-12: e holds a stone and gem 3; they go to A and B in the order South chooses.
    let e = perlen();
    let before = "a=0 e=03 B=4 D=0 to_move=1";
    assert_eq!(legal(&e, before), ["a:0", "e:03", "e:30"]);
    // Gem first, stone last: the stone lands on B's lone gem 4: direct capture.
    scenario(&e, before, "e:30", "a=0 b=- c=- d=- e=- A=3 B=0 C=- D=0 E=- cup(1)=4 to_move=2");
    // Stone first, gem last: the last bead is a gem, so nothing is captured.
    scenario(&e, before, "e:03", "a=0 b=- c=- d=- e=- A=0 B=34 C=- D=0 E=- to_move=2");
}

#[test]
fn direct_capture_of_a_lone_gem() {
    // 3.2 Capture: d's stones go to e and A; the last lands in A (North's) holding only gem 2: it goes to South's
    // cup. The pit before, e, is South's own: no chain.
    let e = perlen();
    scenario(&e, "d=00 A=2 C=1 to_move=1", "d", "a=- b=- c=- d=- e=0 A=0 B=- C=1 D=- E=- cup(1)=2 to_move=2");
}

#[test]
fn direct_capture_of_a_gem_sown_earlier_in_the_same_move() {
    // GB-2, GB-11, GB-14: 10 beads from e skip e on the second lap, so the 1st and the 10th both go to A.
    // Gem 3 first, nine stones after: the 10th, a stone, finds A holding just the gem 3 dropped this move.
    let e = perlen();
    scenario(&e, "e=0*9 3 to_move=1", "e:3000000000", "a=0 b=0 c=0 d=0 e=- A=0 B=0 C=0 D=0 E=0 cup(1)=3 to_move=2");
}

// ---------------------------------------------------------------- indirect capture

#[test]
fn indirect_capture_chooses_a_gem_from_the_opponents_pits() {
    // 3.2 Capture, GB-7, GB-13: the stone lands on B's lone stone: South takes one gem of his choice from
    // North's pits: A3 (just sown there, GB-10), C4 or D2.
    let e = perlen();
    let before = "a=0 e=03 B=0 C=4 D=2 to_move=1";
    assert_eq!(legal(&e, before), ["a:0", "e:03", "e:30 x A3", "e:30 x C4", "e:30 x D2"]);
    scenario(&e, before, "e:30 x C4", "a=0 b=- c=- d=- e=- A=3 B=00 C=- D=2 E=- cup(1)=4 to_move=2");
    scenario(&e, before, "e:30 x A3", "a=0 b=- c=- d=- e=- A=- B=00 C=4 D=2 E=- cup(1)=3 to_move=2");
    // Freeling's own example, `e250 x B5`: gem 2 to A, gem 5 to B, the stone on C's lone stone; South takes
    // the 5 he has just dropped in B.
    scenario(
        &e,
        "a=0 e=025 C=0 D=3 to_move=1",
        "e250 x B5",
        "a=0 b=- c=- d=- e=- A=2 B=- C=00 D=3 E=- cup(1)=5 to_move=2",
    );
}

#[test]
fn indirect_capture_from_the_cup_when_his_pits_hold_no_gem() {
    // 3.2 Capture, GB-9, GB-13: North's pits hold no gem: South takes one from North's cup, his choice.
    let e = perlen();
    let before = "a=0 e=0 A=0 cup(2)=35 to_move=1";
    assert_eq!(legal(&e, before), ["a:0", "e:0 x cup(2)3", "e:0 x cup(2)5"]);
    scenario(&e, before, "e:0 x cup(2)5", "a=0 b=- c=- d=- e=- A=00 B=- C=- D=- E=- cup(1)=5 cup(2)=3 to_move=2");
}

#[test]
fn indirect_capture_with_nothing_to_take_takes_nothing() {
    // 3.2 Capture: no gem in North's pits or cup: no capture.
    let e = perlen();
    scenario(&e, "a=0 e=0 A=0 cup(1)=5 to_move=1", "e", "a=0 b=- c=- d=- e=- A=00 B=- C=- D=- E=- cup(1)=5 to_move=2");
}

// ---------------------------------------------------------------- no capture

#[test]
fn no_capture_on_own_side() {
    // 3.2 Capture: the stone lands on e's lone gem, but e is South's own pit.
    let e = perlen();
    scenario(&e, "d=0 e=3 A=0 to_move=1", "d", "a=- b=- c=- d=- e=03 A=0 B=- C=- D=- E=- to_move=2");
}

#[test]
fn no_capture_when_the_pit_held_two_beads() {
    // 3.2 Capture: A held a stone and a gem: not a lone bead.
    let e = perlen();
    scenario(&e, "e=0 A=05 B=0 to_move=1", "e", "a=- b=- c=- d=- e=- A=005 B=0 C=- D=- E=- to_move=2");
}

// ---------------------------------------------------------------- chains

#[test]
fn chain_of_direct_captures() {
    // 3.2 Chain, GB-5: three stones from e to A, B, C, each on a lone gem: C (3) first, then B (2) and A (1)
    // going back; e, South's own, ends the chain.
    let e = perlen();
    scenario(
        &e,
        "e=000 A=1 B=2 C=3 D=0 to_move=1",
        "e",
        "a=- b=- c=- d=- e=- A=0 B=0 C=0 D=0 E=- cup(1)=123 to_move=2",
    );
}

#[test]
fn chain_stops_when_the_capture_type_would_change() {
    // 3.2 Chain, GB-5: C's lone gem 3 is taken directly; B held a lone stone (an indirect capture): the types
    // never mix, so the chain stops there and A's lone gem 1 is not reached.
    let e = perlen();
    scenario(
        &e,
        "e=000 A=1 B=0 C=3 D=4 to_move=1",
        "e",
        "a=- b=- c=- d=- e=- A=01 B=00 C=0 D=4 E=- cup(1)=3 to_move=2",
    );
}

#[test]
fn chain_needs_a_stone_dropped_in_the_earlier_pit() {
    // GB-5, GB-14: gem 2 to A, stones to B and C. C and B each held a lone gem and got a stone: both taken.
    // A held a lone gem too, but got a gem this move: the chain stops.
    let e = perlen();
    let before = "e=002 A=1 B=4 C=3 D=0 to_move=1";
    assert_eq!(legal(&e, before), ["e:002", "e:020", "e:200"]);
    scenario(&e, before, "e:200", "a=- b=- c=- d=- e=- A=12 B=0 C=0 D=0 E=- cup(1)=34 to_move=2");
}

#[test]
fn chain_of_indirect_captures_is_one_choice_of_gems() {
    // 3.2 Chain, GB-13: stones land on C's and B's lone stones: two indirect captures. The gems taken form a
    // multiset: {A5, D4}, {A5, E3} or {D4, E3}: three moves, whatever the order of choosing.
    let e = perlen();
    let st = position(&e, "e=000 A=5 B=0 C=0 D=4 E=3 to_move=1");
    let outcomes = outcomes_of_plies(&e, &st);
    assert_eq!(
        outcomes,
        [
            "a=- b=- c=- d=- e=- A=0 B=00 C=00 D=- E=3 cup(1)=45 to_move=2",
            "a=- b=- c=- d=- e=- A=0 B=00 C=00 D=4 E=- cup(1)=35 to_move=2",
            "a=- b=- c=- d=- e=- A=05 B=00 C=00 D=- E=- cup(1)=34 to_move=2",
        ]
    );
    // A indirect capture of two chosen gems, written in either order, is the same move.
    scenario(&e, "e=000 A=5 B=0 C=0 D=4 E=3 to_move=1", "e x D4 E3", &outcomes[2]);
    assert_eq!(&plies(&e, &st).len(), &3, "Perlen: one ply per multiset of indirect captures (GB-13)");
}

#[test]
fn chain_of_indirect_captures_takes_from_pits_then_from_the_cup() {
    // GB-9: three stones on three lone stones (C, B, A): three indirect captures. The first takes D's gem 4,
    // the only gem in North's pits; the next two come from his cup, which holds just 3 and 5: one outcome.
    let e = perlen();
    let before = "e=000 A=0 B=0 C=0 D=4 cup(2)=35 to_move=1";
    let st = position(&e, before);
    let after = "a=- b=- c=- d=- e=- A=00 B=00 C=00 D=- E=- cup(1)=345 to_move=2";
    assert_eq!(outcomes_of_plies(&e, &st), [after]);
    scenario(&e, before, "e x cup(2)3", after);
    assert_eq!(&plies(&e, &st).len(), &1, "Perlen: one ply per multiset of indirect captures (GB-9, GB-13)");
}

#[test]
fn chain_of_indirect_captures_with_two_alike_gems() {
    // GB-13: the pit and the value identify a choice: {D5, D5} or {D5, E4}: two moves.
    let e = perlen();
    let st = position(&e, "e=00 A=0 B=0 D=55 E=4 to_move=1");
    assert_eq!(
        outcomes_of_plies(&e, &st),
        [
            "a=- b=- c=- d=- e=- A=00 B=00 C=- D=- E=4 cup(1)=55 to_move=2",
            "a=- b=- c=- d=- e=- A=00 B=00 C=- D=5 E=- cup(1)=45 to_move=2",
        ]
    );
    assert_eq!(&plies(&e, &st).len(), &2, "Perlen: one ply per multiset of indirect captures (GB-13)");
}

// ---------------------------------------------------------------- origin skip

#[test]
fn ten_beads_skip_the_start_pit() {
    // GB-1, GB-2: ten stones from a: b..E (9 pits, no cup), then a is skipped and the 10th goes to b.
    let e = perlen();
    scenario(&e, "a=0*10 E=0 to_move=1", "a", "a=- b=00 c=0 d=0 e=0 A=0 B=0 C=0 D=0 E=00 to_move=2");
}

// ---------------------------------------------------------------- feeding

#[test]
fn must_feed_an_empty_opponent_while_gems_remain_in_pits() {
    // 3.2 Feeding, GB-3, GB-16: North has no beads and gem 3 is still in c: only e (reaching A) feeds him.
    let e = perlen();
    let before = "a=0 c=03 e=0 to_move=1";
    assert_eq!(legal(&e, before), ["e:0"]);
    scenario(&e, before, "e", "a=0 b=- c=03 d=- e=- A=0 B=- C=- D=- E=- to_move=2");
}

#[test]
fn no_feeding_duty_in_the_endgame() {
    // 3.2 Feeding, GB-4: no gem left in any pit (gems in cups do not count): no duty, every move is legal.
    // c's stone stays on South's side, so North, to move, has no beads: the game ends, 16 - 14.
    let e = perlen();
    let before = "a=0 c=0 e=0 cup(1)=1122334 cup(2)=455 to_move=1";
    assert_eq!(legal(&e, before), ["a:0", "c:0", "e:0"]);
    let st = scenario(&e, before, "c", "a=0 b=- c=- d=0 e=0 A=- B=- C=- D=- E=- cup(1)=1122334 cup(2)=455 to_move=2");
    assert_over(&st, &[1], &[16, 14], EndReason::Condition);
}

#[test]
fn feeding_impossible_allows_any_move_and_gems_left_in_pits_score_for_nobody() {
    // 3.2 Feeding, GB-3, GB-8: a's two beads cannot reach North: any order is allowed. North is then to move
    // with no beads: the game ends; gem 3 left in b scores for nobody: 15 - 12.
    let e = perlen();
    let before = "a=03 cup(1)=1455 cup(2)=12234 to_move=1";
    assert_eq!(legal(&e, before), ["a:03", "a:30"]);
    let st = scenario(&e, before, "a:30", "a=- b=3 c=0 d=- e=- A=- B=- C=- D=- E=- cup(1)=1455 cup(2)=12234 to_move=2");
    assert_over(&st, &[1], &[15, 12], EndReason::Condition);
}

// ---------------------------------------------------------------- the end and scoring

#[test]
fn end_when_the_player_to_move_has_no_beads_scoring_gem_values() {
    // 3.2 End: North to move with no beads. South's cup: 5 5 4 3 = 17 points in 4 gems; North's: 4 3 2 2 1 1 =
    // 13 in 6 gems. Points count, not gems: South wins.
    let e = perlen();
    let st = scenario(
        &e,
        "a=0 b=0 cup(1)=5 5 4 3 cup(2)=4 3 2 2 1 1 to_move=1",
        "a",
        "a=- b=00 c=- d=- e=- A=- B=- C=- D=- E=- cup(1)=3455 cup(2)=112234 to_move=2",
    );
    assert_over(&st, &[1], &[17, 13], EndReason::Condition);
}

#[test]
fn tie_15_15_goes_to_the_last_mover_south() {
    // 3.2 End, GB-8: 15 - 15 and South moved last: South wins. Draws are impossible.
    let e = perlen();
    let st = scenario(
        &e,
        "a=0 b=0 cup(1)=5 5 4 1 cup(2)=4 3 3 2 2 1 to_move=1",
        "a",
        "a=- b=00 c=- d=- e=- A=- B=- C=- D=- E=- cup(1)=1455 cup(2)=122334 to_move=2",
    );
    assert_over(&st, &[1], &[15, 15], EndReason::Condition);
}

#[test]
fn tie_15_15_goes_to_the_last_mover_north() {
    // 3.2 End, GB-8: the same points, North moved last (South, to move, has no beads): North wins.
    let e = perlen();
    let st = scenario(
        &e,
        "D=0 E=0 cup(1)=5 5 4 1 cup(2)=4 3 3 2 2 1 to_move=2",
        "D",
        "a=- b=- c=- d=- e=- A=- B=- C=- D=- E=00 cup(1)=1455 cup(2)=122334 to_move=1",
    );
    assert_over(&st, &[2], &[15, 15], EndReason::Condition);
}

#[test]
fn random_games_end_on_their_own_before_the_guard() {
    // GB-15: no repetition rule; random games end by the rules, and the ply cap (5000) never decides one.
    let e = perlen();
    let mut longest = 0;
    for game in 0..300 {
        let stats = mancala::playout::random_game(&e, &mut mancala::playout::game_rng(15, game), |_| {});
        let outcome = stats.outcome.expect("every game ends");
        assert_eq!(outcome.reason, EndReason::Condition, "game {game} ended by {:?}", outcome.reason);
        longest = longest.max(stats.plies);
    }
    assert!(longest < 2500, "the longest of 300 random games took {longest} plies");
}
