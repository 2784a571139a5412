//! Helpers for the rule scenario tests (`tests/scenarios_*.rs`): set up a position in the position format,
//! play plies in move notation, compare the resulting position text.
//!
//! Each scenario cites the rule it checks (the IDs and sections of the project's rules as decided, such as
//! GO-13 or GB-9) and asserts exactly what those rules require.

#![allow(dead_code)]

use mancala::engine::{EndReason, Engine, Move, State};
use mancala::notation::{enumerate_plies, format_ply, format_position, parse_ply, parse_position};

/// The engine of a shipped game file (`games/NAME.mancala`), one variant, one player count.
pub fn engine(name: &str, variant: Option<&str>, players: Option<u8>) -> Engine {
    let path = format!("{}/games/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, variant, players).unwrap_or_else(|d| panic!("{name} {variant:?}: {d:?}"))
}

/// Every shipped game and variant at its default player count, as (`stem-variant`, engine), in name order.
pub fn shipped_variants() -> Vec<(String, Engine)> {
    let mut out = Vec::new();
    for game in mancala::shipped::GAMES {
        let file = mancala::syntax::parse(game.text).unwrap_or_else(|e| panic!("{}: {e:?}", game.name));
        for variant in mancala::check::variant_names(&file) {
            let engine = mancala::compile(game.text, Some(&variant), None)
                .unwrap_or_else(|d| panic!("{} {variant}: {d:?}", game.name));
            out.push((format!("{}-{variant}", game.name), engine));
        }
    }
    out
}

/// Reads a position text.
pub fn position(e: &Engine, text: &str) -> State {
    parse_position(e, text).unwrap_or_else(|err| panic!("position `{text}` does not parse: {err}"))
}

/// The position text of a state.
pub fn show(e: &Engine, st: &State) -> String {
    format_position(e, st)
}

/// Plays one ply written in move notation; panics when it is not legal or does not complete a ply.
pub fn play(e: &Engine, st: &mut State, ply: &str) {
    let before = show(e, st);
    let moves = parse_ply(e, st, ply).unwrap_or_else(|err| panic!("`{ply}` is not legal in `{before}`: {err}"));
    let ply0 = st.ply;
    for mv in moves {
        e.apply(st, mv).unwrap_or_else(|err| panic!("`{ply}` in `{before}`: {mv:?}: {err}"));
    }
    assert!(st.ply > ply0 || st.result.is_some(), "`{ply}` in `{before}` did not complete a ply");
}

/// Plays several plies in turn.
pub fn play_all(e: &Engine, st: &mut State, plies: &[&str]) {
    for ply in plies {
        play(e, st, ply);
    }
}

/// The scenario: from the position `before`, the ply `ply` leads to the position `after` (exactly).
pub fn scenario(e: &Engine, before: &str, ply: &str, after: &str) -> State {
    let mut st = position(e, before);
    play(e, &mut st, ply);
    assert_eq!(show(e, &st), after, "from `{before}`, after `{ply}`");
    st
}

/// Every legal ply in notation, in the engine's order.
pub fn plies(e: &Engine, st: &State) -> Vec<String> {
    all_plies(e, st).iter().map(|p| format_ply(e, st, p)).collect()
}

/// Every legal ply, as decisions: the scenarios' positions are small enough to list in full.
fn all_plies(e: &Engine, st: &State) -> Vec<Vec<Move>> {
    let found = enumerate_plies(e, st, 10_000);
    assert!(!found.partial, "the plies of {} are too many to list", show(e, st));
    found.plies
}

/// Every legal ply of a position text, sorted.
pub fn legal(e: &Engine, text: &str) -> Vec<String> {
    let st = position(e, text);
    let mut v = plies(e, &st);
    v.sort();
    v
}

/// The distinct positions the legal plies lead to, sorted.
pub fn outcomes_of_plies(e: &Engine, st: &State) -> Vec<String> {
    let mut v: Vec<String> = all_plies(e, st)
        .iter()
        .map(|ply| {
            let mut next = st.clone();
            for &mv in ply {
                e.apply(&mut next, mv).expect("an enumerated ply is legal");
            }
            show(e, &next)
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Asserts that a ply text is not legal here.
pub fn assert_illegal(e: &Engine, st: &State, ply: &str) {
    if let Ok(moves) = parse_ply(e, st, ply) {
        panic!("`{ply}` should not be legal in `{}`, but reads as {moves:?}", show(e, st));
    }
}

/// The player to move, numbered from 1 as in the position format.
pub fn to_move(st: &State) -> u8 {
    st.to_move + 1
}

/// The game's result: the winners numbered from 1 (none for a draw or a lost solitaire), the scores, why it ended.
pub fn result(st: &State) -> Option<(Vec<u8>, Vec<i32>, EndReason)> {
    st.result.as_ref().map(|o| (o.winner_list().iter().map(|p| p + 1).collect(), o.scores.clone(), o.reason))
}

/// Asserts that the game is over with these winners (from 1), scores and reason.
pub fn assert_over(st: &State, winners: &[u8], scores: &[i32], reason: EndReason) {
    assert_eq!(result(st), Some((winners.to_vec(), scores.to_vec(), reason)), "the result");
}

/// Asserts that the game goes on.
pub fn assert_not_over(e: &Engine, st: &State) {
    assert!(st.result.is_none(), "the game should go on in `{}`, but ended: {:?}", show(e, st), st.result);
}

/// The position after the decisions `moves`, played from `before`.
pub fn after_moves(e: &Engine, before: &State, moves: &[Move]) -> State {
    let mut after = before.clone();
    for &mv in moves {
        e.apply(&mut after, mv).expect("legal");
    }
    after
}

/// The ply told as the REPL tells it, player 1 as `you` and player 2 as `computer`.
pub fn narrate(e: &Engine, before: &State, moves: &[Move], after: &State) -> mancala::narrate::Told {
    mancala::narrate::ply(e, before, moves, after, &["you".into(), "computer".into()])
}
