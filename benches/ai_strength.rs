//! The strength of the computer players: `mcts` and `alphabeta` against `random`, 100 games per game and
//! player, seats alternating. Prints win rates; not run by `cargo test`.
//!
//! `cargo bench --bench ai_strength`; settings from the environment: `AI_GAMES` (100), `AI_MCTS` (the mcts
//! budget, `1000`), `AI_DEPTH` (the alphabeta depth, 4), `AI_GAMES_LIST` (`kalah,oware,gore,perlen`).

use std::time::Instant;

use mancala::ai::{self, AiKind, Player};
use mancala::engine::Engine;
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn env_or(name: &str, default: &str) -> String {
    std::env::var(name).unwrap_or_else(|_| default.to_string())
}

fn main() {
    // `cargo bench` passes `--bench`; any other argument filters the games by name.
    let filter: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let games: u64 = env_or("AI_GAMES", "100").parse().expect("AI_GAMES: a number");
    let mcts: AiKind = format!("mcts:{}", env_or("AI_MCTS", "1000")).parse().expect("AI_MCTS: a budget");
    let ab: AiKind = format!("alphabeta:{}", env_or("AI_DEPTH", "4")).parse().expect("AI_DEPTH: a depth");
    let list = env_or("AI_GAMES_LIST", "kalah,oware,gore,perlen");
    println!("{games} games per line against random, seats alternating; won / drawn / lost by the player named");
    for name in list.split(',').filter(|n| filter.is_empty() || filter.iter().any(|f| n.contains(f.as_str()))) {
        let path = format!("{}/../games/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let engine = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{name}: {d:?}"));
        for kind in [mcts, ab] {
            let t = Instant::now();
            let (w, d, l, plies) = versus_random(&engine, kind, games);
            println!(
                "{name:8} {:14} won {w:3}  drawn {d:3}  lost {l:3}  win rate {:5.1}%  (mean {:.0} plies, {:.1} s)",
                kind.to_string(),
                100.0 * w as f64 / games as f64,
                plies as f64 / games as f64,
                t.elapsed().as_secs_f64()
            );
        }
    }
}

/// (won, drawn, lost, plies) for `kind` against `random` over `games` games.
fn versus_random(engine: &Engine, kind: AiKind, games: u64) -> (u32, u32, u32, u64) {
    let (mut won, mut drawn, mut lost, mut plies) = (0, 0, 0, 0u64);
    for g in 0..games {
        let seat = (g % 2) as u8;
        let mut rng = SmallRng::seed_from_u64(0x5eed_0000 + g);
        let kinds = if seat == 0 { [kind, AiKind::Random] } else { [AiKind::Random, kind] };
        let mut players: Vec<Box<dyn Player>> =
            kinds.iter().map(|k| k.player(engine, &mut rng).expect("player")).collect();
        let st = ai::play_game(engine, &engine.initial_state(), &mut players, 10_000_000);
        plies += st.ply as u64;
        match st.result {
            Some(o) if o.winners == 1 << seat => won += 1,
            Some(o) if o.winners == 0 || o.winners & (1 << seat) != 0 => drawn += 1,
            Some(_) => lost += 1,
            None => drawn += 1,
        }
    }
    (won, drawn, lost, plies)
}
