//! Rule scenarios for Tchuka Ruma that data cannot say: the track's listing and the solver's six-ply win
//! (`docs/games/tchuka-ruma.md`, TR-2, TR-5). Every position-and-ply scenario is in the corpus,
//! `tests/data/scenarios/tchuka-ruma.txt`, run by `tests/scenarios.rs`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};
use mancala::solve::{solve, Verdict};

fn tchuka() -> Engine {
    engine("tchuka-ruma", None, None)
}

#[test]
fn tchuka_tr2_the_track_runs_toward_the_ruma_and_round() {
    // TR-2: left to right, toward the ruma, then round to hole 1.
    let e = tchuka();
    assert_eq!(
        e.rules.track.iter().map(|&p| e.rules.places[p as usize].label.as_str()).collect::<Vec<_>>(),
        ["1", "2", "3", "4", "store"]
    );
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
