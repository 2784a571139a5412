//! The mechanics of laps on a small two-row game (`tests/data/laps/laps.mancala`): the end of each lap with
//! captures before relays, a capture that sows its seeds on from the capturing lap's origin (OM-4), a
//! direction chosen per lap (OM-6, OM-7), a move that would never end (ENGINE-1), and a phase whose mover
//! plays again (OM-3).
//!
//! The board: player 1's pits `a b c d`, player 2's `A B C D`; counter-clockwise `a b c d A B C D a`; pit `a`
//! faces `D`, `b` faces `C`, and so on.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn laps(variant: Option<&str>) -> Engine {
    let path = format!("{}/tests/data/laps/laps.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, variant, None).unwrap_or_else(|d| panic!("laps {variant:?}: {d:?}"))
}

#[test]
fn a_capture_sows_its_seeds_from_the_lap_origin() {
    // The lap from a ends in c, which held 1, facing B with 3: B's seeds are sown on from a, the first into
    // b, so that they retrace the lap (OM-4). The last falls in the empty d: the move ends.
    let e = laps(None);
    scenario(&e, "a2 c1 B3", "a", "a0 b2 c3 d1 A0 B0 C0 D0 to_move=2 phase=playing");
}

#[test]
fn the_capture_comes_before_the_relay() {
    // In c both the capture and the relay apply; the capture wins, and without it the relay would have
    // lifted c. With the capture banked instead of sown, the sowing ends there.
    let e = laps(Some("banked"));
    scenario(&e, "a2 c1 B3", "a", "a0 b1 c2 d0 A0 B0 C0 D0 captured(1)=3 to_move=2 phase=playing");
}

#[test]
fn a_capture_after_a_relay_sows_from_the_relay_lap_origin() {
    // a to b (held 1, facing an empty C): relay from b, to c and d; d held 1 and faces A with 2: A's seeds
    // are sown from b, the relay lap's origin, into c and d; d held 2: relay from d into A, B, C; C was empty.
    let e = laps(None);
    scenario(&e, "a1 b1 d1 A2", "a", "a0 b0 c2 d0 A1 B1 C1 D0 to_move=2 phase=playing");
}

#[test]
fn an_optional_capture_at_a_laps_end_may_be_declined_and_the_relay_goes_on() {
    // `capture may` in a sowing of laps: the mover is asked, at the end of whichever lap the capture applies.
    // The lap from a ends in c, which held 1, facing B with 3.
    let e = laps(Some("optional"));
    let st = position(&e, "a2 c1 B3");
    assert_eq!(plies(&e, &st), ["a x", "a -x", "c"]);
    // Made: B's seeds are sown on from a, into b, c and d; d was empty, the move ends.
    scenario(&e, "a2 c1 B3", "a x", "a0 b2 c3 d1 A0 B0 C0 D0 to_move=2 phase=playing");
    // Declined: as if the capture did not apply, so c (which held 1) relays its 2 into d and A.
    scenario(&e, "a2 c1 B3", "a -x", "a0 b1 c0 d1 A1 B3 C0 D0 to_move=2 phase=playing");
    // At a relay lap's end: a to b (facing an empty C), relay b into c and d, which held 1 and faces A.
    let st = position(&e, "a1 b1 d1 A2");
    assert_eq!(plies(&e, &st), ["a x", "a -x", "b", "d"]);
    scenario(&e, "a1 b1 d1 A2", "a -x", "a0 b0 c1 d0 A3 B1 C0 D0 to_move=2 phase=playing");
    assert_illegal(&e, &st, "a");
    // Banked instead of sown on: the same choice, and declined the relay lifts c.
    let e = laps(Some("optional banked"));
    let st = position(&e, "a2 c1 B3");
    assert_eq!(plies(&e, &st), ["a x", "a -x", "c"]);
    scenario(&e, "a2 c1 B3", "a x", "a0 b1 c2 d0 A0 B0 C0 D0 captured(1)=3 to_move=2 phase=playing");
    scenario(&e, "a2 c1 B3", "a -x", "a0 b1 c0 d1 A1 B3 C0 D0 to_move=2 phase=playing");
}

#[test]
fn a_lap_may_turn_only_where_it_then_captures() {
    // From b a lap may go clockwise: into a, which held 1 and faces D. From a clockwise it would end in D,
    // not the mover's: no choice. So: `a`, and `b` either way, the direction written since the mover chooses it.
    let e = laps(None);
    let st = position(&e, "a1 b1 D2");
    assert_eq!(plies(&e, &st), ["a", "bccw", "bcw"]);
    // Clockwise b captures D's 2, sown from b as a new lap: clockwise it would end in D (not capturing), so it
    // goes counter-clockwise, into c and d.
    scenario(&e, "a1 b1 D2", "bcw", "a2 b0 c1 d1 A0 B0 C0 D0 to_move=2 phase=playing");
    scenario(&e, "a1 b1 D2", "bccw", "a1 b0 c1 d0 A0 B0 C0 D2 to_move=2 phase=playing");
    // A lap that may not turn refuses the direction.
    assert_illegal(&e, &st, "acw");
    assert_illegal(&e, &st, "b");
}

#[test]
fn the_direction_a_capture_writes_wins_over_the_direction_per_lap() {
    // `sow from origin cw` with a direction per lap: the lap from a ends in c (held 1, facing B with 3), and
    // B's seeds are sown on clockwise from a, into D, C and B, although the direction per lap would sow
    // that lap counter-clockwise (clockwise it does not capture). B was empty: the move ends.
    let e = laps(Some("directed"));
    let st = position(&e, "a2 c1 B3");
    assert_eq!(plies(&e, &st), ["a", "c"]);
    scenario(&e, "a2 c1 B3", "a", "a0 b1 c2 d0 A0 B1 C1 D1 to_move=2 phase=playing");
    // The lap after it follows the direction per lap again: B's 2 go into D and C, which held 1; C's 2 are
    // relayed counter-clockwise (C is no pit that turns), into D and a; a was empty.
    scenario(&e, "a2 c1 B2 C1", "a", "a1 b1 c2 d0 A0 B0 C0 D2 to_move=2 phase=playing");
}

#[test]
fn a_later_lap_may_turn_and_the_notation_says_so() {
    // `lap >= 2`: the first lap goes counter-clockwise; the relay from b chooses, written after the pit.
    let e = laps(Some("turning"));
    let st = position(&e, "a1 b1");
    assert_eq!(plies(&e, &st), ["a ccw", "a cw", "b"]);
    scenario(&e, "a1 b1", "a cw", "a1 b0 c0 d0 A0 B0 C0 D1 to_move=2 phase=playing");
    scenario(&e, "a1 b1", "a ccw", "a0 b0 c1 d1 A0 B0 C0 D0 to_move=2 phase=playing");
    // The choice must be written, and only once.
    assert_illegal(&e, &st, "a");
    assert_illegal(&e, &st, "a cw cw");
}

#[test]
fn a_move_that_never_ends_is_illegal_unless_declared() {
    // `relay when count >= 1` never stops on a board without stores: every move goes round for ever.
    let e = laps(Some("endless"));
    let st = e.initial_state();
    assert_over(&st, &[], &[8, 8], EndReason::Stuck);
    // ENGINE-1: under `draw when endless` the move is played and the game is drawn.
    let e = laps(Some("endless draw"));
    let mut st = e.initial_state();
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d"]);
    play(&e, &mut st, "a");
    let (winners, scores, reason) = result(&st).expect("the game is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
    assert_eq!(scores.iter().sum::<i32>(), 16, "no seed is lost");
}

#[test]
fn a_phase_may_let_the_mover_play_again() {
    // OM-3: with `again when count(supply(mover)) > 0` player 1 places both his seeds, then player 2 both
    // his; then player 1 sows first (OM-2).
    let e = laps(Some("placement"));
    let mut st = e.initial_state();
    play(&e, &mut st, "a");
    assert_eq!(to_move(&st), 1);
    play(&e, &mut st, "a");
    assert_eq!(to_move(&st), 2);
    play_all(&e, &mut st, &["B", "C"]);
    assert_eq!(show(&e, &st), "a2 b0 c0 d0 A0 B1 C1 D0 to_move=1 phase=playing");
}

#[test]
fn the_narration_tells_each_lap() {
    // Each lap as it went, its direction where it turned, and the captures sown on.
    let e = laps(Some("turning"));
    let before = position(&e, "a1 b1");
    let moves = mancala::notation::parse_ply(&e, &before, "a cw").expect("legal");
    let after = after_moves(&e, &before, &moves);
    let names = ["you".to_string(), "computer".to_string()];
    let told = mancala::narrate::ply(&e, &before, &moves, &after, &names);
    assert_eq!(told.text, "sowed 1 from a counter-clockwise, relaying from b (clockwise), ending in D");
}

#[test]
fn the_narration_tells_captures_sown_on() {
    let e = laps(None);
    let before = position(&e, "a1 b1 D2");
    let moves = mancala::notation::parse_ply(&e, &before, "bcw").expect("legal");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert_eq!(
        told.text,
        "sowed 1 from b clockwise, ending in a; captured 2 from D, sown on from b counter-clockwise, ending in d"
    );
}

#[test]
fn the_narration_tells_a_capture_that_ends_a_relay() {
    let e = laps(Some("banked"));
    let before = position(&e, "a2 c1 B3");
    let moves = mancala::notation::parse_ply(&e, &before, "a").expect("legal");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert_eq!(told.text, "sowed 2 from a, ending in c; captured 3 from B to captured(1)");
}

#[test]
fn random_games_of_every_variant_keep_their_seeds_and_end() {
    for variant in
        ["default", "banked", "turning", "endless draw", "placement", "optional", "optional banked", "directed"]
    {
        let e = laps(Some(variant));
        for seed in 0..30 {
            let mut rng = mancala::playout::game_rng(seed, 0);
            let mut st = e.initial_state();
            let total = |st: &mancala::engine::State| st.counts.iter().map(|&c| c as u32).sum::<u32>();
            let pieces = total(&st);
            let mut legal = Vec::new();
            while st.result.is_none() {
                legal.clear();
                e.legal_moves(&st, &mut legal);
                assert!(!legal.is_empty(), "{variant} seed {seed}: no move in {}", show(&e, &st));
                let mv = legal[mancala::playout::draw(&mut rng, legal.len())];
                e.apply(&mut st, mv).expect("a legal move");
                assert!(!st.illegal, "{variant} seed {seed}: {mv:?} was illegal");
                if st.hand.iter().all(|&n| n == 0) {
                    assert_eq!(total(&st), pieces, "{variant} seed {seed}: pieces lost in {}", show(&e, &st));
                }
            }
            // Where every relay lap may turn, or where a capture that would put seeds back on the board may be
            // declined (`optional`: its seeds stay on the board either way), the players can shuffle seeds for
            // ever: that game may reach its ply limit.
            if !["turning", "optional"].contains(&variant) {
                assert_ne!(result(&st).map(|r| r.2), Some(EndReason::Limit), "{variant} seed {seed}");
            }
        }
    }
}
