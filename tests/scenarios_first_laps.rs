//! `must capture` decided without sowing the first lap (`ways::FirstLapStarts`, `ways::FirstLapScan`): where
//! the lap ends and the counts its captures read are worked out from the lap's cycle, so each test here has
//! a lap whose end a careless count would get wrong, and checks the engine without its fast paths agrees.
//!
//! The board (`tests/data/first_laps/first_laps.mancala`): player 1's pits `a b c d`, player 2's `A B C D`;
//! counter-clockwise `a b c d A B C D a`; pit `a` faces `D`, `b` faces `C`. A capture needs the last pit, one
//! of the mover's, to hold exactly 3 after the lap, facing an occupied pit.

mod common;

use common::*;
use mancala::engine::Engine;

fn first_laps(variant: Option<&str>) -> Engine {
    let path = format!("{}/tests/data/first_laps/first_laps.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, variant, None).unwrap_or_else(|d| panic!("first laps {variant:?}: {d:?}"))
}

/// The legal plies of a position, with and without the fast paths, which must agree.
fn starts(variant: Option<&str>, text: &str) -> Vec<String> {
    let fast = first_laps(variant);
    let general = fast.clone().without_fast_paths();
    let (a, b) = (legal(&fast, text), legal(&general, text));
    assert_eq!(a, b, "{variant:?} `{text}`: the fast paths disagree with the general stages");
    a
}

#[test]
fn a_first_lap_that_goes_round_twice_counts_both_of_its_seeds() {
    // Nine seeds from a counter-clockwise: b c d A B C D a b. The last falls in b, which gets two of them
    // (1 + 2 = 3), facing C with one: a capture. Clockwise the lap ends in D, not the mover's; b's single
    // seed ends in c (1) or a (10).
    assert_eq!(starts(None, "a9 b1"), ["accw"]);
    // With b empty it ends at 2: no capture anywhere, no move.
    assert!(starts(None, "a9").is_empty());
}

#[test]
fn a_first_lap_that_passes_over_its_origin_ends_one_pit_further() {
    // Eight seeds from a counter-clockwise, passing over a: b c d A B C D b. The last falls in b (1 + 2),
    // facing C with one. Without `skip origin` the eighth seed falls back into a, which then holds 1.
    assert_eq!(starts(Some("skipping"), "a8 b1"), ["accw"]);
    assert!(starts(None, "a8 b1").is_empty());
}

#[test]
fn an_entry_lap_ends_in_its_own_pit_with_the_seed_from_the_supply() {
    // One seed from the supply into b (2 + 1 = 3), facing C with one: a capture. Into c (2 + 1) it faces an
    // empty B; into a (1 + 1) it holds 2.
    assert_eq!(starts(Some("entering"), "a1 b2 c2 C1 supply(1)=5"), ["b"]);
    // With an empty supply nothing is entered: b keeps 2, no capture.
    assert!(starts(Some("entering"), "a1 b2 c2 C1").is_empty());
}
