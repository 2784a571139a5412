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

/// FIXME: engine bugs the differential check finds by itself, not fixed on this branch (another helper fixes
/// them): the rule files of `tests/data/reference/` that must still disagree, each with the item of issue 20
/// it shows. Empty a line when its fix reaches main (the test then says so), and the file joins the others.
const KNOWN: &[(&str, &str)] = &[
    ("capture-may-with-relay", "issue 20 item 1: `capture may` made compulsory by a relay"),
    ("sow-from-way-per-lap", "issue 20 item 2: `sow from PLACE cw` overridden by a direction per lap"),
];

/// The small rule files of `tests/data/reference/`, each written to show one construct or combination.
fn reference_files() -> Vec<(String, String)> {
    let dir = format!("{}/tests/data/reference", env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mancala"))
        .map(|p| {
            let name = p.file_stem().unwrap_or_default().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        })
        .collect();
    files.sort();
    files
}

/// Random games of every variant of `source`, for about `budget`: the first disagreement, if any.
fn first_disagreement(source: &str, budget: Duration, tally: &mut Tally) -> Option<String> {
    let file = mancala::syntax::parse(source).expect("the file parses");
    for variant in mancala::check::variant_names(&file) {
        let pair = Pair::new(source, Some(&variant), None).expect("the file lowers");
        let start = Instant::now();
        for seed in 0..200 {
            if start.elapsed() > budget {
                break;
            }
            if let Err(d) = pair.random_game(seed, PLIES, tally) {
                return Some(format!("{variant} (seed {seed}): {d}"));
            }
        }
    }
    None
}

#[test]
fn small_rule_files_agree_with_the_reference() {
    let mut failures = Vec::new();
    let mut tally = Tally::default();
    for (name, source) in reference_files() {
        if KNOWN.iter().any(|(k, _)| *k == name) {
            continue;
        }
        if let Some(d) = first_disagreement(&source, Duration::from_millis(700), &mut tally) {
            failures.push(format!("{name} {d}"));
        }
    }
    eprintln!("{} games, {} plies, {} decisions", tally.games, tally.plies, tally.decisions);
    assert!(failures.is_empty(), "{} disagreements:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn the_known_engine_bugs_are_found_by_the_differential_check() {
    let files = reference_files();
    for (name, item) in KNOWN {
        let (_, source) = files.iter().find(|(n, _)| n == name).unwrap_or_else(|| panic!("no file {name}"));
        let found = first_disagreement(source, Duration::from_secs(5), &mut Tally::default());
        match found {
            Some(d) => eprintln!("{name} ({item}):\n{d}\n"),
            None => panic!("{name} agrees with the reference now: {item} is fixed; take it off KNOWN"),
        }
    }
}
