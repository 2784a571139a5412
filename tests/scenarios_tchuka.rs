//! Rule scenarios for Tchuka Ruma, the solitaire: `docs/games/tchuka-ruma.md` (TR-1..TR-5)
//! and its worked check.
//!
//! The board: holes `1 2 3 4` and the ruma, `store`, at the right; the track is the ring
//! `1 2 3 4 store 1 ...`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};
use mancala::solve::{solve, Verdict};

fn tchuka() -> Engine {
    engine("tchuka-ruma", None, None)
}

fn no_wrap() -> Engine {
    engine("tchuka-ruma", Some("no-wrap"), None)
}

fn lost(e: &Engine, st: &mancala::engine::State) -> bool {
    let _ = e;
    st.result.as_ref().is_some_and(|o| o.winners == 0 && o.reason == EndReason::Condition)
}

#[test]
fn tchuka_start() {
    // Setup: 2 seeds in each hole, the ruma empty; any non-empty hole may be sown, never the ruma.
    let e = tchuka();
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "1=2 2=2 3=2 4=2 store=0 to_move=1");
    assert_eq!(plies(&e, &st), ["1", "2", "3", "4"]);
}

#[test]
fn tchuka_check_hole_3_ends_in_the_ruma_and_sows_again() {
    // The worked check: from the start, hole 3 puts one seed in hole 4 and one in the ruma: sow again.
    let e = tchuka();
    let st = scenario(&e, "1=2 2=2 3=2 4=2", "3", "1=2 2=2 3=0 4=3 store=1 to_move=1");
    assert!(st.result.is_none());
    assert_eq!(plies(&e, &st), ["1", "2", "4"]);
}

#[test]
fn tchuka_check_hole_1_relays_then_loses() {
    // The worked check: hole 1 ends in hole 3 (occupied): relay its 3 seeds into 4, the ruma, 1; hole 1
    // was emptied at the start, so the game is lost.
    let e = tchuka();
    let st = scenario(&e, "1=2 2=2 3=2 4=2", "1", "1=1 2=3 3=0 4=3 store=1 to_move=1");
    assert!(lost(&e, &st), "{:?}", st.result);
}

#[test]
fn tchuka_tr1_the_ruma_is_sown_on_every_pass() {
    // TR-1: 4 seeds from hole 4 go into the ruma, 1, 2, 3; hole 3 held a seed, so its 2 are lifted and
    // sown into 4 and the ruma again: a second seed in the ruma, and the player sows again.
    let e = tchuka();
    let st = scenario(&e, "4=4 2=1 3=1", "4", "1=1 2=2 3=0 4=1 store=2 to_move=1");
    assert!(st.result.is_none());
}

#[test]
fn tchuka_tr2_the_seeds_go_toward_the_ruma() {
    // TR-2: left to right, toward the ruma, then round to hole 1.
    let e = tchuka();
    let st = scenario(&e, "2=2 1=1", "2", "1=1 2=0 3=1 4=1 store=0 to_move=1");
    assert!(lost(&e, &st), "the last seed fell into the empty hole 4");
    assert_eq!(
        e.rules.track.iter().map(|&p| e.rules.places[p as usize].label.as_str()).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "store"]
    );
}

#[test]
fn tchuka_tr3_variant_no_wrapping() {
    // TR-3, flag `wrap: false`: a lap never passes the ruma. From the start hole 4 (2 seeds) may not be
    // sown; hole 1's lap ends in hole 3, whose 3 seeds would pass the ruma: no relay, and the game is lost.
    let e = no_wrap();
    let st = e.initial_state();
    assert_eq!(plies(&e, &st), ["1", "2", "3"]);
    let st = scenario(&e, "1=2 2=2 3=2 4=2", "1", "1=0 2=3 3=3 4=2 store=0 to_move=1");
    assert!(lost(&e, &st));
    // A relay that fits is made: 1 into 2, 3; hole 3 held 1, and its 2 seeds reach the ruma exactly.
    let st = scenario(&e, "1=2 3=1", "1", "1=0 2=1 3=0 4=1 store=1 to_move=1");
    assert!(st.result.is_none());
    // Hole 4's 2 seeds would pass the ruma: no relay, lost; wrapping, they go on round to hole 1 and beyond.
    let st = scenario(&e, "2=2 4=1 1=1", "2", "1=1 2=0 3=1 4=2 store=0 to_move=1");
    assert!(lost(&e, &st));
    scenario(&tchuka(), "2=2 4=1 1=1", "2", "1=0 2=1 3=0 4=1 store=2 to_move=1");
}

#[test]
fn tchuka_tr4_a_chain_of_laps_is_one_ply() {
    // TR-4: hole 1's sowing and its relay from hole 3 are one ply, written `1`.
    let e = tchuka();
    let mut st = e.initial_state();
    play(&e, &mut st, "1");
    assert_eq!(st.ply, 1);
}

#[test]
fn tchuka_tr5_every_game_ends_and_the_start_is_solvable() {
    // TR-5: no draw or limit is needed; the solver finds the known six-ply win.
    let e = tchuka();
    let st = e.initial_state();
    let result = solve(&e, &st, 100_000);
    let Verdict::Solved(line) = result.verdict else { panic!("{result:?}") };
    assert_eq!(line.len(), 6);
    let mut st = e.initial_state();
    for ply in &line {
        for &mv in ply {
            e.apply(&mut st, mv).expect("a legal decision");
        }
    }
    assert_eq!(show(&e, &st), "1=0 2=0 3=0 4=0 store=8 to_move=1");
    assert_eq!(st.result.as_ref().map(|o| o.winners), Some(1));
    // Random games all end, none by the ply limit.
    let mut rng = mancala::playout::Dice::with_seed(1);
    for _ in 0..200 {
        let stats = mancala::playout::random_game(&e, &mut rng, |_| {});
        let outcome = stats.outcome.expect("an end");
        assert_ne!(outcome.reason, EndReason::Limit);
    }
}

/// Before the first ply there is no last sowing: the end rule about where it ended (`when last in pits`)
/// is tested from the first ply on, in the game's own start and in a position typed in.
#[test]
fn the_rule_about_the_last_seed_waits_for_a_sowing() {
    let e = tchuka();
    assert_not_over(&e, &e.initial_state());
    assert_not_over(&e, &position(&e, "1=1 2=0 3=2 4=2 store=3"));
}
