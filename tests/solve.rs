//! The solvers (issue 32): the seed's solitaires answered from their start, each line replayed to its win;
//! the value of small two-player boards, checked against a plain minimax over the reference interpreter
//! (`tests/reference/`, written from the docs alone); `mancala solve --json` as scripts read it.

#[allow(unused_imports, dead_code)]
mod reference;

use std::collections::HashMap;
use std::process::Command;
use std::time::Duration;

use mancala::engine::{Engine, Move, State};
use mancala::solve::duel::{solve_duel, DuelError, DuelOptions};
use mancala::solve::{solve_with, Shorten, SolveOptions, Symmetry, Verdict, Watch};
use reference::{Game, Reference, Step};

fn source(name: &str) -> String {
    let path = format!("{}/games/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn game(name: &str, variant: Option<&str>) -> Engine {
    mancala::compile(&source(name), variant, None).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// Kalah on `pits` pits a side with `seeds` seeds in each, written from the shipped file.
fn small_kalah(pits: usize, seeds: usize) -> String {
    let text = source("kalah");
    assert!(text.contains("board two_rows 6 with stores") && text.contains("every pit: 4"));
    text.replace("board two_rows 6 with stores", &format!("board two_rows {pits} with stores"))
        .replace("every pit: 4", &format!("every pit: {seeds}"))
}

/// Plays a line with checked moves; it must end the game won.
fn replay(engine: &Engine, start: &State, line: &[Vec<Move>]) {
    let mut st = start.clone();
    for (i, ply) in line.iter().enumerate() {
        for &mv in ply {
            engine.apply(&mut st, mv).unwrap_or_else(|e| panic!("ply {}: {mv:?}: {e}", i + 1));
        }
    }
    let outcome = st.result.as_ref().expect("the line ends the game");
    assert_ne!(outcome.winners, 0, "the line wins");
}

#[test]
fn every_variant_of_the_seed_solitaires_is_won_from_its_start() {
    // A winning line, found depth-first in well under a second each (docs/games/gulek.md, "Solved").
    let cases = [
        ("gulek-solo", None),
        ("gulek-solo", Some("v1")),
        ("gulek-solo", Some("v2")),
        ("gulek-solo", Some("v3")),
        ("gulek-single", None),
        ("gulek-single", Some("compulsory")),
    ];
    for (name, variant) in cases {
        let engine = game(name, variant);
        let start = engine.initial_state();
        let options = SolveOptions { symmetry: Symmetry::Ring, shorten: Shorten::No, ..SolveOptions::default() };
        let r = solve_with(&engine, &start, &options);
        let line = r.line().unwrap_or_else(|| panic!("{name} {variant:?}: {:?} {:?}", r.verdict, r.limit));
        assert!(r.states < 100_000, "{name} {variant:?}: {} positions", r.states);
        replay(&engine, &start, line);
    }
}

#[test]
fn a_line_is_shortened_until_it_is_proven_shortest() {
    // From (5, _, _, _, _, 3) on the ring, V1: depth-first finds a win; the bounded searches after it prove
    // that no line of fewer plies wins.
    let engine = game("gulek-solo", Some("v1"));
    let start = mancala::notation::parse_position(&engine, "1=5 6=3").expect("a position");
    let first = solve_with(&engine, &start, &SolveOptions { shorten: Shorten::No, ..SolveOptions::default() });
    let best = solve_with(&engine, &start, &SolveOptions::default());
    let (first, best_line) = (first.line().expect("a win").len(), best.line().expect("a win"));
    assert!(best.shortest);
    assert!(best_line.len() <= first, "{} > {first}", best_line.len());
    replay(&engine, &start, best_line);
}

#[test]
fn a_solitaire_with_no_winning_line_is_proven_lost() {
    // (3, 1) side by side: lost in V1 (docs/games/gulek.md): every reachable position searched.
    let engine = game("gulek-solo", Some("v1"));
    let start = mancala::notation::parse_position(&engine, "1=3 2=1").expect("a position");
    let r = solve_with(&engine, &start, &SolveOptions::default());
    assert_eq!(r.verdict, Verdict::Unsolvable);
    assert_eq!(r.limit, None);
}

// ---------------------------------------------------------------- two players

/// The value (outcome first, then margin, for the first player) by plain minimax over the reference
/// interpreter's plies, positions remembered by their pieces and the player to move (Kalah has no other state
/// that decides the rest).
fn reference_value(r: &Reference, g: &Game, memo: &mut HashMap<String, (i8, i32)>) -> (i8, i32) {
    if let Some(o) = &g.result {
        let margin = o.scores[0] - o.scores[1];
        let outcome = match o.winners.as_slice() {
            [0] => 1,
            [1] => -1,
            _ => 0,
        };
        return (outcome, margin);
    }
    let key = format!("{:?} {}", g.pieces, g.to_move);
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let mut children = Vec::new();
    plies(r, g, &mut Vec::new(), &mut children);
    assert!(!children.is_empty(), "a position of a game not over has a ply");
    let values = children.iter().map(|h| reference_value(r, h, memo));
    let v = if g.to_move == 0 { values.max() } else { values.min() }.expect("children");
    memo.insert(key, v);
    v
}

fn plies(r: &Reference, g: &Game, made: &mut Vec<reference::Decision>, out: &mut Vec<Game>) {
    match r.step(g, made) {
        Step::Done(h) => out.push(*h),
        Step::Ask(options) => {
            for d in options {
                made.push(d);
                plies(r, g, made, out);
                made.pop();
            }
        }
    }
}

#[test]
fn small_kalah_boards_have_the_values_a_plain_minimax_of_the_reference_finds() {
    for (pits, seeds) in [(1, 1), (2, 2), (3, 1), (3, 2), (3, 3), (4, 1), (4, 2)] {
        for variant in [None, Some("empty-capture")] {
            let text = small_kalah(pits, seeds);
            let file = mancala::syntax::parse(&text).expect("parses");
            let rules = mancala::check::lower(&file, variant, None).expect("lowers");
            let engine = Engine::new(rules.clone());
            let reference = Reference::new(rules);
            let expected = reference_value(&reference, &reference.initial(), &mut HashMap::new());
            let r = solve_duel(&engine, &engine.initial_state(), &DuelOptions::default(), Watch::default())
                .unwrap_or_else(|e| panic!("Kalah({pits},{seeds}) {variant:?}: {e}"));
            assert_eq!((r.outcome, r.margin), expected, "Kalah({pits},{seeds}) {variant:?}");
            // The line keeps the value to the end.
            let mut st = engine.initial_state();
            for ply in &r.line {
                for &mv in ply {
                    engine.apply(&mut st, mv).expect("a legal move of the line");
                }
            }
            let o = st.result.as_ref().expect("the line ends the game");
            assert_eq!(o.scores[0] - o.scores[1], r.margin, "Kalah({pits},{seeds}) {variant:?}");
        }
    }
}

#[test]
fn kalah_four_by_three_is_a_first_player_win_and_every_opening_is_valued() {
    let engine = mancala::compile(&small_kalah(4, 3), Some("empty-capture"), None).expect("compiles");
    let options = DuelOptions { root_moves: true, ..DuelOptions::default() };
    let r = solve_duel(&engine, &engine.initial_state(), &options, Watch::default()).expect("solved");
    assert_eq!(r.outcome, 1);
    assert_eq!(r.root.len(), 4, "{:?}", r.root);
    // The value of the position is the best opening's.
    let best = r.root.iter().map(|(_, o, m)| (*o, *m)).max().expect("openings");
    assert_eq!(best, (r.outcome, r.margin));
}

#[test]
fn a_search_out_of_time_says_so() {
    let engine = game("kalah", None);
    let deadline = Some(std::time::Instant::now() + Duration::from_millis(200));
    let options = DuelOptions { search: SolveOptions { deadline, ..SolveOptions::default() }, root_moves: false };
    let t = std::time::Instant::now();
    let r = solve_duel(&engine, &engine.initial_state(), &options, Watch::default());
    assert!(matches!(r, Err(DuelError::Stopped(mancala::solve::Limit::Time))), "{r:?}");
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
}

#[test]
fn solve_json_for_a_solitaire_and_a_two_player_game() {
    let run = |args: &[&str]| -> (Option<i32>, serde_json::Value) {
        let out = Command::new(env!("CARGO_BIN_EXE_mancala")).args(args).output().expect("the binary runs");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        (out.status.code(), serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}")))
    };
    let (code, v) = run(&["solve", "gulek-solo", "--variant", "v1", "--json", "--shorten", "0"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["result"], "win");
    assert!(v["line"].as_array().is_some_and(|l| !l.is_empty()), "{v}");
    assert!(v["positions"].as_u64().is_some_and(|n| n > 0), "{v}");

    let (code, v) = run(&["solve", "gulek-solo", "--variant", "v1", "--position", "1=3 2=1", "--json"]);
    assert_eq!(code, Some(0));
    assert_eq!(v["result"], "loss");

    let dir = tempfile::tempdir().expect("a folder");
    let path = dir.path().join("kalah-3-3.mancala");
    std::fs::write(&path, small_kalah(3, 3)).expect("written");
    let path = path.to_string_lossy().into_owned();
    let (code, v) = run(&["solve", &path, "--json", "--moves"]);
    assert_eq!(code, Some(0));
    assert!(["win", "loss", "draw"].contains(&v["result"].as_str().unwrap_or("")), "{v}");
    assert!(v["value"].is_i64(), "{v}");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(3), "{v}");

    let (code, v) = run(&["solve", "kalah", "--json", "--time", "0.3"]);
    assert_eq!(code, Some(3), "a search stopped by its time exits 3");
    assert_eq!(v["result"], "unknown");
}
