//! Rule scenarios for Ayoayo: one position, one ply, the exact position after it.
//! Rules: the family rules, section 9 (AY-1 .. AY-6); in words in `docs/games/ayoayo.md`.
//!
//! The track: `a b c d e f A B C D E F` round the board; seeds go to `store(1)`, `store(2)`, off the track.
//! Pit `b` faces `E`, `c` faces `D`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn ayoayo() -> Engine {
    engine("ayoayo", None, None)
}

#[test]
fn ayoayo_start() {
    // Setup: 4 seeds in each of the 12 pits, South moves first from any non-empty pit of his.
    let e = ayoayo();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4 to_move=1");
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d", "e", "f"]);
}

#[test]
fn ay1_a_capture_takes_the_opposite_pit_and_the_capturing_seed() {
    // AY-1: b's seed falls into c, empty and South's; D opposite holds 3: 3 + 1 go to the store.
    let e = ayoayo();
    scenario(&e, "b1 e1 D3 A1 to_move=1", "b", "a0 b0 c0 d0 e1 f0 A1 B0 C0 D0 E0 F0 store(1)=4 to_move=2");
}

#[test]
fn ay1_flag_keep_capturing_seed_leaves_it_on_the_board() {
    // AY-1 flag (Pratt): only D's 3 seeds are taken; the capturing seed stays in c.
    let e = engine("ayoayo", Some("keep-capturing-seed"), None);
    scenario(&e, "b1 e1 D3 A1 to_move=1", "b", "a0 b0 c1 d0 e1 f0 A1 B0 C0 D0 E0 F0 store(1)=3 to_move=2");
}

#[test]
fn ay2_every_lap_passes_over_its_own_origin() {
    // AY-2: a's 12 seeds go round b..F, pass over a and make 2 in b. Relays of 2 follow from b, d, f, B
    // and D, each landing on a pit that got a seed in the first lap. The relay from F passes nothing (its
    // origin is F, not a): it drops into a, still empty from the lift, and b, emptied by its relay. b was
    // empty, it is South's, and E opposite holds 2: b and E are taken (3 seeds).
    let e = ayoayo();
    scenario(&e, "a12 to_move=1", "a", "a1 b0 c2 d0 e2 f0 A2 B0 C2 D0 E0 F0 store(1)=3 to_move=2");
}

#[test]
fn ay3_a_relay_goes_on_from_an_occupied_pit_of_the_opponent() {
    // AY-3: f's seed makes 3 in North's A: A is lifted and sown into B, C, D. D was empty: the move ends, and
    // D being North's, nothing is captured.
    let e = ayoayo();
    scenario(&e, "b1 f1 A2 to_move=1", "f", "a0 b1 c0 d0 e0 f0 A0 B1 C1 D1 E0 F0 to_move=2");
}

#[test]
fn ay3_a_relay_goes_on_from_an_occupied_pit_of_the_mover() {
    // AY-3: a's seed makes 2 in b, South's own: b is lifted and sown into c, d; d was empty and is South's,
    // with C opposite empty: the move ends there.
    let e = ayoayo();
    scenario(&e, "a1 b1 A1 to_move=1", "a", "a0 b0 c1 d1 e0 f0 A1 B0 C0 D0 E0 F0 to_move=2");
}

#[test]
fn ay4_an_empty_opposite_pit_captures_nothing() {
    // AY-4: b's seed falls into c, empty and South's, but D opposite is empty: nothing is taken.
    let e = ayoayo();
    scenario(&e, "b1 A1 to_move=1", "b", "a0 b0 c1 d0 e0 f0 A1 B0 C0 D0 E0 F0 to_move=2");
}

#[test]
fn ayoayo_a_player_must_feed_an_opponent_who_emptied_his_row() {
    // Feeding: North's row is empty. a's seed stays in South's row (b), so only f, which reaches A, is legal.
    let e = ayoayo();
    assert_eq!(legal(&e, "a1 f1 store(1)=20 store(2)=26 to_move=1"), ["f"]);
}

#[test]
fn ay5_feeding_impossible_ends_the_game_and_the_mover_keeps_his_seeds() {
    // AY-5: North's F sows into a and leaves his own row empty. South cannot reach it (a relays through b
    // into c, d; b goes to c), so the game ends and South adds a and b to his store: 24 - 24, a draw.
    let e = ayoayo();
    let st = scenario(
        &e,
        "b1 F1 store(1)=22 store(2)=24 to_move=2",
        "F",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=24 store(2)=24 to_move=1",
    );
    assert_over(&st, &[], &[24, 24], EndReason::Obligation);
}

#[test]
fn ay6_capturing_the_opponents_last_seeds_ends_the_game() {
    // AY-6: b's seed falls into empty c and takes it with D, North's last seed. North cannot move: the game
    // ends and South adds e's seed to his store: 23 - 25.
    let e = ayoayo();
    let st = scenario(
        &e,
        "b1 e1 D1 store(1)=20 store(2)=25 to_move=1",
        "b",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=23 store(2)=25 to_move=2",
    );
    assert_over(&st, &[2], &[23, 25], EndReason::Condition);
}

#[test]
fn skip_origin_passes_over_each_relay_laps_own_origin() {
    // AY-2, the construct alone: Ayoayo with a relay only from a pit that held 11, so that one relay lap of
    // 12 seeds is all there is. a's seed makes 12 in b; b's lap goes round c..F and a, passes over b (its
    // own origin, not a, the move's) and ends in c, which the lap already reached: c holds 2, a holds 1.
    let source = mancala::shipped::GAMES
        .iter()
        .find(|g| g.name == "ayoayo")
        .map(|g| g.text.replace("relay when before > 0", "relay when before = 11"))
        .expect("Ayoayo is shipped");
    let e = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    scenario(&e, "a1 b11 A1 to_move=1", "a", "a1 b0 c2 d1 e1 f1 A2 B1 C1 D1 E1 F1 to_move=2");
}

/// ENGINE-2: a position that comes back ends the game, each player adding the seeds on his side to his store.
/// A random game from the start (0.2 % of them repeat a position): its 32nd ply brings back an earlier position.
#[test]
fn engine2_a_repeated_position_ends_the_game_each_banking_his_side() {
    let e = ayoayo();
    let plies: Vec<&str> =
        "b B f A b D a F c D a A d D f C a D e E d D f F b D d B b D f F".split_whitespace().collect();
    let mut st = e.initial_state();
    play_all(&e, &mut st, &plies[..31]);
    assert_not_over(&e, &st);
    play(&e, &mut st, plies[31]);
    assert_over(&st, &[2], &[17, 31], EndReason::Repetition);
}
