//! Scenarios of a match of rounds (`rounds { ... }`, docs/language.md section 10), on a small game of its
//! own (`tests/data/rounds/match.mancala`): Kalah's sowing on two rows of three pits, `a b c` South's and
//! `A B C` North's, each player's store after his `c`; a round ends when a row is empty, the pits are
//! swept to their owners' stores, and each player refills his pits with 2 seeds each.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn rounds(variant: Option<&str>) -> Engine {
    let path = format!("{}/tests/data/rounds/match.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).expect("the test game");
    mancala::compile(&source, variant, None).unwrap_or_else(|d| panic!("{variant:?}: {d:?}"))
}

#[test]
fn a_round_that_ends_is_scored_refilled_and_started_by_its_winner() {
    // South's last seed goes into his store and leaves his row empty: the round ends, North's A is swept to
    // his store, 5 against 7. `backward` fills c, then b; a's turn finds 1 seed: a is burnt, the seed stays.
    // North fills C, B, A and keeps 1. North won the round, so he starts round 2.
    let e = rounds(None);
    let st = scenario(
        &e,
        "c1 A1 store(1)=4 store(2)=6 to_move=1",
        "c",
        "a0 b2 c2 A2 B2 C2 store(1)=1 store(2)=1 burnt=a to_move=2 round=2 starter=2",
    );
    assert!(st.result.is_none());
    assert_eq!(st.rounds.len(), 1);
    assert_eq!((st.rounds[0].winners, st.rounds[0].scores.clone()), (0b10, vec![5, 7]));
    assert_eq!(st.rounds[0].reason, EndReason::Condition);
}

#[test]
fn a_burnt_pit_is_passed_over_by_every_sowing() {
    // `skip burnt`: North's track is A B C store(2) a b c (South's store skipped). C's two seeds go into his
    // store and, passing over South's burnt a and b, into c.
    let e = rounds(None);
    scenario(
        &e,
        "c2 C2 A1 burnt=a,b to_move=2 round=2",
        "C",
        "a0 b0 c3 A1 B0 C0 store(1)=0 store(2)=1 burnt=a,b to_move=1 round=2 starter=2",
    );
}

#[test]
fn a_refilled_pit_loses_its_mark_and_the_refill_runs_in_number_order() {
    // Without `backward`, South fills a, then b; c cannot be filled (1 seed left) and is burnt; a, burnt
    // before, is filled and loses the mark. `first loser`: South, who lost 5 to 7, starts.
    let e = rounds(Some("forward-loser"));
    scenario(
        &e,
        "c1 A1 store(1)=4 store(2)=6 burnt=a to_move=1 round=2",
        "c",
        "a2 b2 c0 A2 B2 C2 store(1)=1 store(2)=1 burnt=c to_move=1 round=3 starter=1",
    );
}

#[test]
fn after_a_drawn_round_the_other_player_starts() {
    // 6 all: a drawn round. North started it, so South starts the next, whatever `first winner` says.
    let e = rounds(None);
    let st = scenario(
        &e,
        "c1 A1 store(1)=5 store(2)=5 to_move=1 starter=2",
        "c",
        "a2 b2 c2 A2 B2 C2 store(1)=0 store(2)=0 to_move=1 round=2 starter=1",
    );
    assert_eq!(st.rounds[0].winners, 0);
}

#[test]
fn first_alternate_and_match_when_round() {
    // `first alternate`: South won round 1, which South started; North starts round 2. North's 3 seeds fill
    // only C, and A and B are burnt. The match rule `round = 3` does not hold after round 1.
    let e = rounds(Some("alternate"));
    let st = scenario(
        &e,
        "c1 A1 store(1)=8 store(2)=2 to_move=1",
        "c",
        "a2 b2 c2 A0 B0 C2 store(1)=3 store(2)=1 burnt=A,B to_move=2 round=2 starter=2",
    );
    assert!(st.result.is_none());
    // After round 3 the match is over: the scores after the refill decide.
    let mut st = position(&e, "c1 A1 store(1)=8 store(2)=2 to_move=1 round=3");
    play(&e, &mut st, "c");
    let (winners, scores, reason) = result(&st).expect("the match is over");
    assert_eq!((winners, scores, reason), (vec![1], vec![9, 3], EndReason::Match));
    assert_eq!(st.result.as_ref().map(|o| o.rounds.len()), Some(1));
}

#[test]
fn the_match_is_over_when_a_player_cannot_fill_one_pit() {
    // North ends the round with a single seed: he cannot fill even one pit, and loses the match. The final
    // position is the refilled one (North started the round, so he is its starter).
    let e = rounds(None);
    let mut st = position(&e, "a1 C1 store(1)=10 to_move=2");
    play(&e, &mut st, "C");
    let (winners, scores, reason) = result(&st).expect("the match is over");
    assert_eq!((winners, scores, reason), (vec![1], vec![11, 1], EndReason::Match));
    assert_eq!(show(&e, &st), "a2 b2 c2 A0 B0 C0 store(1)=5 store(2)=1 burnt=A,B,C to_move=1 round=1 starter=2");
}

#[test]
fn a_match_of_one_round_ends_with_it() {
    // `limit 1 rounds`: the first round's end is the match's, on the round's scores; nothing is refilled.
    let e = rounds(Some("one-round"));
    let mut st = position(&e, "c1 A1 store(1)=4 store(2)=6 to_move=1");
    play(&e, &mut st, "c");
    let (winners, scores, reason) = result(&st).expect("the match is over");
    assert_eq!((winners, scores, reason), (vec![2], vec![5, 7], EndReason::RoundLimit));
}

#[test]
fn the_board_shows_the_round_the_rounds_won_and_the_burnt_pits() {
    // What the REPL draws between plies: the round under way, the rounds each player won, the marked pits.
    let e = rounds(None);
    let mut st = position(&e, "c1 A1 store(1)=4 store(2)=6 to_move=1");
    play(&e, &mut st, "c");
    let board = mancala::board::render(&e, &st, false);
    assert!(board.contains("burnt: a\n"), "{board}");
    assert!(board.contains("player 2 to move; round 2 (won: player 1 0, player 2 1)"), "{board}");
}
