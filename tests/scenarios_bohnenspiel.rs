//! Rule scenarios for Das Bohnenspiel: one position, one ply, the exact position after it.
//! Rules: the family rules, section 7 (BS-1 .. BS-6); in words in `docs/games/bohnenspiel.md`.
//!
//! The track: `a b c d e f A B C D E F` round the board; beans go to `store(1)`, `store(2)`, off the track.
//! A chain walks backward: the pit before `A` is `f`, the pit before `a` is `F`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn bohnenspiel() -> Engine {
    engine("bohnenspiel", None, None)
}

#[test]
fn bohnenspiel_start() {
    // Setup: 6 beans in each of the 12 pits, South moves first from any non-empty pit of his.
    let e = bohnenspiel();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a6 b6 c6 d6 e6 f6 A6 B6 C6 D6 E6 F6 to_move=1");
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d", "e", "f"]);
}

#[test]
fn bohnenspiel_plays_on_the_plain_fast_path() {
    // A plain sowing with a capture and a chain: its plies are sown by `plain_ply`, as Kalah's are.
    assert!(bohnenspiel().sows_plainly(0));
    assert!(engine("bohnenspiel", Some("skip-origin"), None).sows_plainly(0));
}

#[test]
fn bs1_capture_in_the_movers_own_row() {
    // BS-1: e's bean makes 2 in f, South's own pit: it is taken. e, emptied, ends the chain.
    let e = bohnenspiel();
    scenario(&e, "e1 f1 A1 to_move=1", "e", "a0 b0 c0 d0 e0 f0 A1 B0 C0 D0 E0 F0 store(1)=2 to_move=2");
}

#[test]
fn bs1_no_capture_on_an_odd_count() {
    // The last bean makes 3: nothing is taken.
    let e = bohnenspiel();
    scenario(&e, "e1 f2 A1 to_move=1", "e", "a0 b0 c0 d0 e0 f3 A1 B0 C0 D0 E0 F0 to_move=2");
}

#[test]
fn bs2_the_chain_crosses_from_the_opponents_row_into_the_movers() {
    // BS-2: d's 3 beans make e2 f4 A2. A (2) is taken, then backward f (4) and e (2), across the row
    // boundary; d, emptied by the lift, stops the chain: 8 beans.
    let e = bohnenspiel();
    scenario(&e, "d3 e1 f3 A1 B1 to_move=1", "d", "a0 b0 c0 d0 e0 f0 A0 B1 C0 D0 E0 F0 store(1)=8 to_move=2");
}

#[test]
fn bs2_the_chain_goes_round_the_end_of_the_track() {
    // BS-2: North's E (2 beans) makes F2 and a2; a is taken, then backward F, the pit before a round the
    // board; E, emptied, stops the chain.
    let e = bohnenspiel();
    scenario(&e, "a1 b1 E2 F1 to_move=2", "E", "a0 b1 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(2)=4 to_move=1");
}

#[test]
fn bs2_the_chain_stops_at_the_first_pit_that_does_not_hold_2_4_or_6() {
    // c's 2 beans make d2 e2; e and d are taken, c (0) stops the chain though b holds 2.
    let e = bohnenspiel();
    scenario(&e, "b2 c2 d1 e1 A1 to_move=1", "c", "a0 b2 c0 d0 e0 f0 A1 B0 C0 D0 E0 F0 store(1)=4 to_move=2");
}

#[test]
fn bs3_a_lap_of_12_drops_a_bean_back_into_its_start_pit() {
    // BS-3: a's 12 beans go round b..F and the 12th falls into a itself (no origin skip): a holds 1.
    let e = bohnenspiel();
    scenario(&e, "a12 B1 to_move=1", "a", "a1 b1 c1 d1 e1 f1 A1 B2 C1 D1 E1 F1 to_move=2");
}

#[test]
fn bs3_flag_skip_origin_passes_the_start_pit() {
    // BS-3 flag: a is passed over, so the 12th bean makes 2 in b, which is taken; a (0) stops the chain.
    let e = engine("bohnenspiel", Some("skip-origin"), None);
    scenario(&e, "a12 B1 to_move=1", "a", "a0 b0 c1 d1 e1 f1 A1 B2 C1 D1 E1 F1 store(1)=2 to_move=2");
}

#[test]
fn bs4_a_player_without_beans_ends_the_game_and_the_other_takes_the_board() {
    // BS-4: f's bean takes A (2), North's last beans. North cannot move: the game ends and the beans on the
    // board (a's 3) go to the other player, South: 35 - 37.
    let e = bohnenspiel();
    let st = scenario(
        &e,
        "a3 f1 A1 store(1)=30 store(2)=37 to_move=1",
        "f",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=35 store(2)=37 to_move=2",
    );
    assert_over(&st, &[2], &[35, 37], EndReason::Condition);
}

#[test]
fn bs4_a_player_who_emptied_his_own_row_loses_the_beans_left() {
    // BS-4: South's f takes A and leaves his own row empty; North plays B. South cannot move: North's
    // bean on C goes to North.
    let e = bohnenspiel();
    let mut st = position(&e, "f1 A1 B1 store(1)=34 store(2)=35 to_move=1");
    play(&e, &mut st, "f");
    assert_not_over(&e, &st);
    play(&e, &mut st, "B");
    assert_eq!(show(&e, &st), "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=36 store(2)=36 to_move=1");
    assert_over(&st, &[], &[36, 36], EndReason::Condition);
}

#[test]
fn bs5_the_chain_takes_the_pit_the_sowing_started_from() {
    // BS-5: a's 25 beans go round twice (a gets one back on each lap) and the 25th makes 4 in b. b is
    // taken, then backward a, the start pit, now holding 2; F (3) stops the chain: 6 beans.
    let e = bohnenspiel();
    scenario(&e, "a25 b1 A1 F1 to_move=1", "a", "a0 b0 c2 d2 e2 f2 A3 B2 C2 D2 E2 F3 store(1)=6 to_move=2");
}

#[test]
fn bs6_by_default_37_beans_do_not_end_the_game() {
    // BS-6: South reaches 37 but the game goes on to its end, which gives the same winner.
    let e = bohnenspiel();
    let st = scenario(
        &e,
        "e1 f1 A1 B1 store(1)=35 store(2)=33 to_move=1",
        "e",
        "a0 b0 c0 d0 e0 f0 A1 B1 C0 D0 E0 F0 store(1)=37 store(2)=33 to_move=2",
    );
    assert_not_over(&e, &st);
}

#[test]
fn bs6_flag_end_at_majority_stops_at_37() {
    // BS-6 flag: 37 beans end the game at once; the beans left (A, B) go to South, who has just moved.
    let e = engine("bohnenspiel", Some("end-at-majority"), None);
    let st = scenario(
        &e,
        "e1 f1 A1 B1 store(1)=35 store(2)=33 to_move=1",
        "e",
        "a0 b0 c0 d0 e0 f0 A0 B0 C0 D0 E0 F0 store(1)=39 store(2)=33 to_move=2",
    );
    assert_over(&st, &[1], &[39, 33], EndReason::Condition);
}

/// ENGINE-2: a position that comes back ends the game, each player adding the beans on his side to his store.
/// From the start, the position after ply 37 is back after ply 49 (found in random play, where 6.5 % of the
/// games repeat a position).
#[test]
fn engine2_a_repeated_position_ends_the_game_each_banking_his_side() {
    let e = bohnenspiel();
    let plies: Vec<&str> = "f D a F e D a C a B d C e E d B f E c F f B a D b F d A c C d A a B b C c E e F f A a B b \
                            C c D d"
        .split_whitespace()
        .collect();
    assert_eq!(plies.len(), 49);
    let mut st = e.initial_state();
    play_all(&e, &mut st, &plies[..37]);
    let seen = show(&e, &st);
    play_all(&e, &mut st, &plies[37..48]);
    assert_not_over(&e, &st);
    play(&e, &mut st, plies[48]);
    let (winners, scores, reason) = result(&st).expect("the game is over");
    assert_eq!(reason, EndReason::Repetition);
    assert_eq!((winners, scores), (vec![2], vec![28 + 1, 42 + 1]), "after `{seen}`");
}
