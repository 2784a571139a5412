//! `explain`: a ply told step by step with the rules that made it, for every shipped game (a snapshot each:
//! the first ply of a seeded game, its first ply with a capture, and the ply that ended it), and the
//! account agrees with the game: the drops it tells are the pieces lifted.

use mancala::engine::{Engine, Move, State};
use mancala::explain::{explain, render, Explanation};
use mancala::playout::{draw, game_rng, Dice};

/// The most plies of a game looked through for the plies to tell.
const PLIES: u32 = 3000;

/// One ply of a random game: the position before it, its decisions, and the position after.
fn random_ply(engine: &Engine, st: &mut State, rng: &mut Dice) -> (State, Vec<Move>) {
    let before = st.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    while st.ply == before.ply && st.result.is_none() {
        legal.clear();
        engine.legal_moves(st, &mut legal);
        let mv = legal[draw(rng, legal.len())];
        engine.apply_unchecked(st, mv);
        moves.push(mv);
    }
    (before, moves)
}

fn has_step(e: &Explanation, step: &str) -> bool {
    e.steps.iter().any(|s| s.step == step)
}

/// The drops a lap tells are as many as the pieces it lifted (a lap is told as its lift, then its drops).
fn assert_drops_match_lifts(game: &str, e: &Explanation) {
    let lifted = |text: &str| text.split_whitespace().nth(1).and_then(|n| n.parse::<usize>().ok());
    let dropped = |text: &str| -> usize {
        text.split_whitespace().nth(1).and_then(|n| n.trim_end_matches(',').parse().ok()).unwrap_or_default()
    };
    for pair in e.steps.windows(2) {
        let n = match pair[0].step {
            "lift" => lifted(&pair[0].text),
            "relay" => pair[0].text.rsplit("lift ").next().and_then(|n| n.parse().ok()),
            _ => None,
        };
        if let (Some(n), "sow") = (n, pair[1].step) {
            assert!(dropped(&pair[1].text) <= n, "{game}, ply {}: {} then {}", e.ply, pair[0].text, pair[1].text);
        }
    }
}

#[test]
fn every_shipped_game_explains_its_plies() {
    for game in mancala::shipped::GAMES {
        let engine = mancala::compile(game.text, None, None).expect("a shipped game compiles");
        let mut rng = game_rng(22, 0);
        let mut st = engine.initial_state();
        let mut told = Vec::new();
        let mut capture_told = false;
        while st.result.is_none() && st.ply < PLIES {
            let (before, moves) = random_ply(&engine, &mut st, &mut rng);
            let e = explain(&engine, game.text, &before, &moves);
            // The traced engine plays the very same ply.
            let tracer = engine.clone().with_trace();
            let mut traced = before.clone();
            tracer.trace(&traced);
            moves.iter().for_each(|&mv| tracer.apply_unchecked(&mut traced, mv));
            assert_eq!((&traced.counts, &traced.result), (&st.counts, &st.result), "{}: ply {}", game.name, e.ply);
            assert!(!e.steps.is_empty(), "{}: ply {} tells nothing", game.name, e.ply);
            assert_drops_match_lifts(game.name, &e);
            let first = before.ply == 0;
            let capture = !capture_told && has_step(&e, "capture");
            if first || capture || st.result.is_some() {
                capture_told |= capture;
                told.push(format!("--- ply {}\n{}", before.ply + 1, render(&e)));
            }
        }
        insta::assert_snapshot!(format!("explain-{}", game.name), told.join("\n"));
    }
}

#[test]
fn the_json_form_names_each_step_and_rule() {
    let game = mancala::shipped::find("kalah").expect("kalah is shipped");
    let engine = mancala::compile(game.text, None, None).unwrap();
    let st = engine.initial_state();
    let moves = mancala::notation::parse_ply(&engine, &st, "c").unwrap();
    let json = serde_json::to_value(explain(&engine, game.text, &st, &moves)).unwrap();
    insta::assert_json_snapshot!(json);
}

#[test]
fn a_take_before_the_sowing_cites_its_own_line() {
    // The take's step names the `take { ... }` line, not the sowing's `from`, which the next step cites.
    let path = format!("{}/tests/data/reference/take-before-sowing.mancala", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let engine = mancala::compile(&text, None, None).unwrap();
    let st = engine.initial_state();
    let moves = mancala::notation::parse_ply(&engine, &st, "steal A,bcw").unwrap();
    let told = render(&explain(&engine, &text, &st, &moves));
    let lines: Vec<&str> = told.lines().collect();
    assert!(lines[1].starts_with("  1. take at A") && lines[1].contains(": take { 1 from"), "{told}");
    assert!(lines[2].contains(": from pits(mover)"), "{told}");
}
