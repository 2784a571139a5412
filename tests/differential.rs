//! The engine against the reference semantics (`tests/reference/`), decision by decision: random games of
//! every shipped game and variant, and games from positions random play rarely reaches.

mod differ;
mod reference;

use std::time::{Duration, Instant};

use differ::{Pair, Tally};

/// Each game and variant is played for about this long (a few random games, whole or cut at `PLIES`).
const BUDGET: Duration = Duration::from_millis(2500);
const PLIES: u32 = 300;

/// Every shipped game and variant at its default player count, as (`stem-variant`, source, variant).
fn shipped() -> Vec<(String, &'static str, String)> {
    let mut out = Vec::new();
    for game in mancala::shipped::GAMES {
        let file = mancala::syntax::parse(game.text).unwrap_or_else(|e| panic!("{}: {e:?}", game.name));
        for variant in mancala::check::variant_names(&file) {
            out.push((format!("{}-{variant}", game.name), game.text, variant));
        }
    }
    out
}

#[test]
fn every_shipped_game_and_variant_agrees_with_the_reference() {
    let mut failures = Vec::new();
    let mut total = Tally::default();
    for (name, source, variant) in shipped() {
        if std::env::var("DIFF_ONLY").is_ok_and(|only| !name.contains(&only)) {
            continue;
        }
        let pair = Pair::new(source, Some(&variant), None).expect("a shipped game lowers");
        let start = Instant::now();
        let mut tally = Tally::default();
        let mut seed = 0;
        while start.elapsed() < BUDGET && seed < 50 {
            if let Err(d) = pair.random_game(seed, PLIES, &mut tally) {
                failures.push(format!("{name} (seed {seed}): {d}"));
                break;
            }
            seed += 1;
        }
        eprintln!("{name}: {} games, {} plies, {} decisions", tally.games, tally.plies, tally.decisions);
        total += tally;
    }
    eprintln!("in all: {} games, {} plies, {} decisions", total.games, total.plies, total.decisions);
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n\n"));
}

/// The test games of the family's constructs (`tests/data/family/`), which no shipped game may use yet.
#[test]
fn the_family_test_games_agree_with_the_reference() {
    let mut failures = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir("tests/data/family").unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths {
        let source = std::fs::read_to_string(&path).unwrap();
        let name = path.display().to_string();
        let file = mancala::syntax::parse(&source).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        for variant in mancala::check::variant_names(&file) {
            let pair = Pair::new(&source, Some(&variant), None).unwrap_or_else(|| panic!("{name} lowers"));
            let mut tally = Tally::default();
            for seed in 0..20 {
                if let Err(d) = pair.random_game(seed, PLIES, &mut tally) {
                    failures.push(format!("{name} {variant} (seed {seed}): {d}"));
                    break;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n\n"));
}
