//! One seeded random game of every shipped game and variant, as a person would read it: the lowered rules,
//! then each ply in notation, what it did in words, and the board after it with the pits of the ply marked. Any change in how a game plays shows up as a diff.

mod common;

use mancala::engine::Engine;
use mancala::notation::format_ply;
use mancala::playout::{draw, game_rng};

/// At most this many plies are written out; the rest of the game is summed up.
const SHOWN_PLIES: u32 = 70;

fn transcript(engine: &Engine, seed: u64) -> String {
    let mut out = mancala::summary::dump(&engine.lowered);
    out.push_str("\n--- game, seed ");
    out.push_str(&seed.to_string());
    out.push_str(" ---\n");
    out.push_str(&mancala::board::render(engine, &engine.initial_state(), false));
    let mut rng = game_rng(seed, 0);
    let mut st = engine.initial_state();
    let mut legal = Vec::new();
    while st.result.is_none() {
        if st.ply >= SHOWN_PLIES {
            // The rest of the game is only summed up: no copy of each position (a long match's list of
            // rounds makes one dear).
            legal.clear();
            engine.legal_moves(&st, &mut legal);
            engine.apply_unchecked(&mut st, legal[draw(&mut rng, legal.len())]);
            continue;
        }
        let before = st.clone();
        let mut moves = Vec::new();
        while st.ply == before.ply && st.result.is_none() {
            legal.clear();
            engine.legal_moves(&st, &mut legal);
            let mv = legal[draw(&mut rng, legal.len())];
            engine.apply_unchecked(&mut st, mv);
            moves.push(mv);
        }
        out.push_str(&format!(
            "\n{}. player {}: {}\n",
            before.ply + 1,
            before.to_move + 1,
            format_ply(engine, &before, &moves)
        ));
        let names: Vec<String> = (1..=engine.rules.players).map(|p| format!("player {p}")).collect();
        let told = mancala::narrate::ply(engine, &before, &moves, &st, &names);
        out.push_str(&format!("   {}\n", told.text));
        let view = mancala::board::View { marks: told.marks, ..mancala::board::View::plain(false) };
        out.push_str(&mancala::board::render_view(engine, &st, &view));
    }
    let outcome = st.result.as_ref().expect("finished");
    // A match's rounds are told by their number and the wins, not one by one.
    let rounds = &outcome.rounds;
    out.push_str(&format!(
        "\n{} plies in all; Outcome {{ winners: {}, scores: {:?}, reason: {:?} }}\n",
        st.ply, outcome.winners, outcome.scores, outcome.reason
    ));
    if !rounds.is_empty() {
        let won: Vec<String> =
            (0..engine.rules.players).map(|p| format!("player {} {}", p + 1, rounds.wins(p))).collect();
        out.push_str(&format!("{} rounds; won: {}\n", rounds.len(), won.join(", ")));
    }
    out
}

#[test]
fn seeded_games() {
    for (name, engine) in common::shipped_variants() {
        insta::assert_snapshot!(name, transcript(&engine, 1));
    }
}
