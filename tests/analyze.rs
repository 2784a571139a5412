//! `mancala analyze`, run as a user runs it: its JSON, its solved openings, its report page.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `mancala analyze ARGS --json` and reads its object; panics with stderr when it fails.
fn analyze_json(args: &[&str]) -> serde_json::Value {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("analyze")
        .args(args)
        .arg("--json")
        .current_dir(root())
        .output()
        .expect("the mancala binary runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("analyze").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const QUICK: &[&str] = &["--games", "200", "--strong", "mcts:20", "--strong-games", "4", "--playouts", "5"];

#[test]
fn win_rates_lengths_rules_and_openings_of_random_greedy_and_strong_play() {
    let a = analyze_json(&[&["kalah", "--solve-seconds", "0"], QUICK].concat());
    let rate = a["first_player_win_rate"].as_f64().unwrap();
    assert!((0.0..=1.0).contains(&rate));
    let matchups = a["matchups"].as_array().unwrap();
    let kinds: Vec<&str> = matchups.iter().map(|m| m["players"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["random", "greedy", "mcts:20"]);
    assert_eq!(matchups[0]["first_player_win_rate"].as_f64(), Some(rate));
    for m in matchups {
        let r = m["first_player_win_rate"].as_f64().unwrap();
        let [lo, hi] = [0, 1].map(|i| m["first_player_interval"][i].as_f64().unwrap());
        assert!(lo <= r && r <= hi, "{m}");
    }
    let histogram = a["lengths"]["histogram"].as_array().unwrap();
    let games: u64 = histogram.iter().map(|b| b[1].as_u64().unwrap()).sum();
    assert_eq!(games, 200);
    let lengths = &a["lengths"];
    assert!(lengths["p10"].as_u64() <= lengths["median"].as_u64());
    assert!(lengths["median"].as_u64() <= lengths["p90"].as_u64());
    assert!(lengths["p90"].as_u64() <= lengths["max"].as_u64());
    // Kalah's every rule fires in random play; its sowing in every ply.
    let rules = a["rules"].as_array().unwrap();
    assert!(rules.iter().all(|r| r["fired"].as_u64().unwrap() > 0), "{rules:?}");
    assert_eq!(a["openings"]["method"], "playouts");
    let openings: Vec<&str> =
        a["openings"]["moves"].as_array().unwrap().iter().map(|m| m["move"].as_str().unwrap()).collect();
    assert_eq!(openings, ["a", "b", "c", "d", "e", "f"]);
    // The same seed, the same figures.
    assert_eq!(analyze_json(&[&["kalah", "--solve-seconds", "0"], QUICK].concat()), a);
}

#[test]
fn openings_of_a_small_board_are_solved_and_the_best_is_the_games_value() {
    // Kalah on three pits of two seeds: a first-player win by 4 (docs/solved.md).
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    let small = kalah
        .replace("board two_rows 6 with stores", "board two_rows 3 with stores")
        .replace("  every pit: 4", "  every pit: 2");
    let dir = temp_dir("small");
    let file = dir.join("kalah-3-2.mancala");
    std::fs::write(&file, small).unwrap();
    let a = analyze_json(&[&[file.to_str().unwrap()], QUICK].concat());
    assert_eq!(a["openings"]["method"], "solve");
    let moves = a["openings"]["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 3);
    let best = moves.iter().map(|m| m["value"].as_i64().unwrap()).max();
    assert_eq!(best, Some(4));
    assert!(moves.iter().any(|m| m["result"] == "win"));
}

#[test]
fn a_solitaire_says_whether_its_start_can_be_won() {
    let a = analyze_json(&["tchuka-ruma", "--games", "100", "--strong-games", "0", "--playouts", "5"]);
    assert_eq!(a["players"], 1);
    assert_eq!(a["openings"]["winnable"], true);
    assert_eq!(a["matchups"].as_array().unwrap().len(), 2);
}

#[test]
fn the_report_is_a_page_with_its_charts() {
    let dir = temp_dir("report");
    let page = dir.join("oware.html");
    let a = analyze_json(&[&["oware", "--solve-seconds", "0", "--report", page.to_str().unwrap()], QUICK].concat());
    assert_eq!(a["game"], "Oware");
    let html = std::fs::read_to_string(&page).unwrap();
    assert_eq!(html.matches("<svg").count(), 2, "two charts: win rates and lengths");
    assert!(html.contains("Rules fired") && html.trim_end().ends_with("</html>"));
    assert!(!html.contains("could not be drawn"));
}

#[test]
fn a_bad_argument_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["analyze", "kalah", "--strong", "wizard"])
        .current_dir(root())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("wizard"));
}
