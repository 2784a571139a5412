//! The `mancala` binary, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `mancala` in `dir` without colour.
fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .output()
        .expect("the mancala binary runs")
}

fn run(args: &[&str]) -> Output {
    run_in(root(), args)
}

/// Runs `mancala` with no input; `None` when it has not ended within `limit` (it is killed then).
fn run_within(args: &[&str], limit: Duration) -> Option<Output> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the mancala binary runs");
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    Some(child.wait_with_output().unwrap())
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("stdout is UTF-8")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("stderr is UTF-8")
}

/// A fresh directory for one test's files.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn shipped_games() -> Vec<String> {
    let mut games: Vec<String> = std::fs::read_dir(root().join("games"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".mancala"))
        .map(|n| format!("games/{n}"))
        .collect();
    games.sort();
    games
}

/// Kalah with a typo in its score: one error.
fn kalah_with_typo() -> String {
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    assert!(kalah.contains("score count(store(player))"));
    kalah.replace("score count(store(player))", "score count(stor(player))")
}

#[test]
fn check_accepts_every_shipped_game_without_warnings() {
    let games = shipped_games();
    assert!(games.len() >= 7, "{games:?}");
    let mut args = vec!["check"];
    args.extend(games.iter().map(String::as_str));
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "", "no diagnostics, not even warnings");
    assert_eq!(stderr(&o).trim(), format!("checked {} files: no errors", games.len()));
}

#[test]
fn check_of_a_missing_file_is_a_usage_error() {
    let o = run(&["check", "games/no-such-game.mancala"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    let first = err.lines().next().unwrap();
    assert!(first.contains("games/no-such-game.mancala"), "{err}");
    assert!(first.contains("no such file"), "{err}");
}

#[test]
fn a_missing_file_does_not_hide_the_others() {
    let o = run(&["check", "games/no-such-game.mancala", "games/kalah.mancala"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("checked 2 files: no errors, 1 could not be read"), "{}", stderr(&o));
}

#[test]
fn check_reports_an_error_with_its_code() {
    let dir = temp_dir("error");
    std::fs::write(dir.join("bad.mancala"), kalah_with_typo()).unwrap();
    let o = run_in(&dir, &["check", "bad.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("mancala::check::unknown_name"), "{out}");
    assert_eq!(stderr(&o).trim(), "checked 1 file: 1 error in 1 file");
    insta::assert_snapshot!("check_bad_file", out);
}

#[test]
fn warnings_alone_leave_a_file_valid() {
    let dir = temp_dir("warning");
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    let with_unused = kalah.replace("pieces seeds\n", "pieces seeds\nplace pot shared\n");
    assert_ne!(kalah, with_unused);
    std::fs::write(dir.join("unused.mancala"), with_unused).unwrap();
    let o = run_in(&dir, &["check", "unused.mancala"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert!(stdout(&o).contains("mancala::check::unused_place"), "{}", stdout(&o));
    assert_eq!(stderr(&o).trim(), "checked 1 file: no errors, 1 warning");
}

/// A place read by a rule that nothing seems to fill is a warning (the analysis may miss a way in), never an
/// error; and a pit the setup leaves empty is filled by sowing, on two rows and on four.
#[test]
fn a_place_never_filled_is_a_warning_and_sowing_fills_every_pit() {
    let o = run(&["check", "tests/data/check/never-filled.mancala"]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stderr(&o).trim(), "checked 1 file: no errors, 1 warning");
    insta::assert_snapshot!("check_never_filled", stdout(&o));
    for file in ["sown-pit-read", "sown-inner-pit-read"] {
        let o = run(&["check", &format!("tests/data/check/{file}.mancala")]);
        assert_eq!(o.status.code(), Some(0), "{file}: {}", stdout(&o));
        assert_eq!(stdout(&o), "", "{file}: no diagnostics");
    }
}

#[test]
fn check_reports_a_syntax_error() {
    let dir = temp_dir("syntax");
    std::fs::write(dir.join("broken.mancala"), "game \"Broken\"\nplayers two\n").unwrap();
    let o = run_in(&dir, &["check", "broken.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("mancala::syntax"), "{}", stdout(&o));
}

#[test]
fn a_file_that_is_not_utf8_is_an_error_at_its_byte_offset() {
    let dir = temp_dir("not-utf8");
    let mut bytes = b"game \"Latin-1\"\nabout \"caf".to_vec();
    let offset = bytes.len();
    bytes.extend_from_slice(b"\xe9\"\n");
    std::fs::write(dir.join("latin1.mancala"), &bytes).unwrap();

    let o = run_in(&dir, &["check", "latin1.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("mancala::syntax::not_utf8"), "{out}");
    assert!(out.contains(&format!("offset {offset}")), "{out}");

    let o = run_in(&dir, &["check", "--format", "json", "latin1.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json[0]["code"], "mancala::syntax::not_utf8");
    assert_eq!(json[0]["start"], offset);
    assert_eq!(json[0]["line"], 2);
}

#[test]
fn check_json_lists_every_diagnostic_of_every_file() {
    let dir = temp_dir("json");
    std::fs::write(dir.join("bad.mancala"), kalah_with_typo()).unwrap();
    let kalah = root().join("games/kalah.mancala");
    let o = run_in(&dir, &["check", "--format", "json", "bad.mancala", kalah.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "", "no summary line in JSON mode");
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("one JSON document");
    let all = json.as_array().expect("an array");
    assert_eq!(all.len(), 1);
    let d = all[0].as_object().unwrap();
    let mut keys: Vec<&str> = d.keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "code",
            "column",
            "end",
            "end_column",
            "end_line",
            "file",
            "help",
            "label",
            "line",
            "message",
            "related",
            "severity",
            "start",
            "suggestion"
        ]
    );
    assert_eq!(d["file"], "bad.mancala");
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "mancala::check::unknown_name");
    assert_eq!(d["line"], 36);
    assert_eq!(d["column"], 13);

    let o = run(&["check", "--format", "json", "games/kalah.mancala"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(serde_json::from_str::<serde_json::Value>(&stdout(&o)).unwrap(), serde_json::json!([]));
}

#[test]
fn variants_lists_default_first() {
    let o = run(&["variants", "games/gulek-solo.mancala"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stdout(&o), "default\nv1\nv2\nv3\n");
}

#[test]
fn games_lists_every_shipped_game_and_filters_them() {
    let o = run(&["games"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let names: Vec<&str> = out.lines().filter_map(|l| l.split_whitespace().next()).collect();
    let mut shipped: Vec<&str> = mancala::shipped::GAMES.iter().map(|g| g.name).collect();
    shipped.sort();
    let mut listed = names.clone();
    listed.sort();
    assert_eq!(listed, shipped, "{out}");
    // Each line: the name to give as FILE, the game, the board, the players, the region.
    let kalah = out.lines().find(|l| l.starts_with("kalah ")).expect("kalah is listed");
    assert!(kalah.contains("Kalah(6,4)") && kalah.contains("2×6, 2 stores") && kalah.contains("Americas"), "{kalah}");
    // Filters: every one given must hold.
    let four = stdout(&run(&["games", "--rows", "4"]));
    assert!(four.lines().count() >= 5 && four.lines().all(|l| l.contains(" 4×")), "{four}");
    let three = stdout(&run(&["games", "--players", "3"]));
    assert_eq!(three.lines().map(|l| l.split(' ').next().unwrap_or("")).collect::<Vec<_>>(), ["gulek"], "{three}");
    let solitaires = stdout(&run(&["games", "--players", "1"]));
    assert!(solitaires.lines().all(|l| l.contains("solitaire")) && solitaires.contains("tchuka-ruma"), "{solitaires}");
    let both = stdout(&run(&["games", "--region", "AFRICA", "--rows", "2"]));
    assert!(both.contains("oware") && both.contains("ayoayo") && !both.contains("omweso"), "{both}");
    // Nothing matches: said, with the way back, and exit 2.
    let none = run(&["games", "--rows", "9"]);
    assert_eq!(none.status.code(), Some(2));
    assert!(stderr(&none).contains("no shipped game matches"), "{}", stderr(&none));
    let help = stdout(&run(&["games", "--help"]));
    assert!(help.contains("--rows") && help.contains("--players") && help.contains("--region"), "{help}");
}

#[test]
fn simulate_rounds_stops_each_match_after_so_many_rounds() {
    let args = ["simulate", "games/dakon.mancala", "--rounds", "1", "--games", "40", "--seed", "1", "--json"];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["max_rounds"], 1, "{json}");
    assert_eq!(json["reasons"]["round_limit"], 40, "{json}");
    // A game that is not a match of rounds has nothing to stop.
    let o = run(&["simulate", "games/kalah.mancala", "--rounds", "1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("not a match of rounds"), "{}", stderr(&o));
}

#[test]
fn simulate_json_is_deterministic() {
    let args = ["simulate", "games/kalah.mancala", "--games", "50", "--seed", "1", "--json"];
    let a = run(&args);
    let b = run(&args);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b));
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    for key in ["games", "players", "wins", "draws", "mean_plies", "max_plies", "capped", "mean_captures", "reasons"] {
        assert!(json.get(key).is_some(), "missing {key} in {json}");
    }
    assert_eq!(json["games"], 50);
    assert_eq!(json["players"], 2);
    let wins: u64 = json["wins"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).sum();
    assert_eq!(wins + json["draws"].as_u64().unwrap(), 50);
    assert_eq!(json["reasons"]["condition"], 50);

    let other = run(&["simulate", "games/kalah.mancala", "--games", "50", "--seed", "2", "--json"]);
    assert_ne!(stdout(&a), stdout(&other), "another seed, other games");
}

#[test]
fn simulate_prints_a_summary() {
    let o = run(&["simulate", "games/kalah.mancala", "--games", "200", "--seed", "3", "--threads", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("simulate_kalah", stdout(&o));
    let args =
        ["simulate", "games/gulek-solo.mancala", "--variant", "v2", "--games", "50", "--seed", "3", "--threads", "2"];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("simulate_gulek_solo_v2", stdout(&o));
}

#[test]
fn simulate_summary_says_why_wins_pass_100_percent() {
    // Gulek shares ties between the winners: the seats' wins add up to more than the games, and the summary
    // says so; end reasons are in words.
    let o =
        run(&["simulate", "games/gulek.mancala", "--players", "3", "--games", "200", "--seed", "3", "--threads", "2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("simulate_gulek_shared_wins", stdout(&o));
}

#[test]
fn simulate_summary_gives_the_share_of_each_kind_of_move() {
    // Bao's two stages have two actions each: the summary tells how many plies began with each, by phase,
    // and the JSON has the counts, which add up to the plies.
    let args = ["simulate", "games/bao-la-kiswahili.mancala", "--games", "100", "--seed", "1", "--threads", "2"];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    insta::assert_snapshot!("simulate_bao_moves", stdout(&o));
    let json = summary_without_threads(&run(&[&args[..], &["--json"]].concat()));
    let counts = json["actions"].as_object().expect("the JSON counts the actions");
    let sum: u64 = counts.values().map(|n| n.as_u64().unwrap()).sum();
    assert_eq!(sum, json["total_plies"].as_u64().unwrap());
    assert!(counts.contains_key("namua takasa") && counts.contains_key("mtaji mtaji"), "{counts:?}");
}

/// The JSON summary of a run without the number of threads, which is all that may differ.
fn summary_without_threads(o: &std::process::Output) -> serde_json::Value {
    assert_eq!(o.status.code(), Some(0), "{}", stderr(o));
    let mut json: serde_json::Value = serde_json::from_str(&stdout(o)).unwrap();
    json.as_object_mut().unwrap().remove("threads").expect("the summary says how many threads ran");
    json
}

#[test]
fn simulate_gives_the_same_games_at_any_number_of_threads() {
    let dir = temp_dir("simulate-threads");
    let runs: [&[&str]; 3] = [
        &["simulate", "games/kalah.mancala", "--games", "300", "--seed", "11"],
        &["simulate", "games/gulek.mancala", "--players", "3", "--games", "60", "--seed", "2"],
        &["simulate", "games/oware.mancala", "--position", OWARE_LATE, "--ai", "1=greedy", "--games", "40"],
    ];
    for args in runs {
        let mut outputs = Vec::new();
        for threads in ["1", "2", "3"] {
            let trace = dir.join(format!("trace-{threads}.jsonl"));
            let mut full = args.to_vec();
            full.extend(["--json", "--threads", threads, "--trace", trace.to_str().unwrap()]);
            let o = run(&full);
            let json = summary_without_threads(&o);
            let ran: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
            assert_eq!(ran["threads"], threads.parse::<u64>().unwrap(), "{args:?}");
            outputs.push((json, std::fs::read_to_string(&trace).unwrap()));
        }
        assert_eq!(outputs[0], outputs[1], "{args:?}: 1 and 2 threads");
        assert_eq!(outputs[0], outputs[2], "{args:?}: 1 and 3 threads");
    }
    let o = run(&["simulate", "games/kalah.mancala", "--threads", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn simulate_matches_computer_players() {
    let args = ["simulate", "games/kalah.mancala", "--ai", "1=greedy", "--games", "20", "--json", "--threads", "2"];
    let a = run(&args);
    let b = run(&args);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&b), "the same seed, the same games");
    let json: serde_json::Value = serde_json::from_str(&stdout(&a)).unwrap();
    for key in ["games", "players", "wins", "draws", "mean_plies", "max_plies", "capped", "seats"] {
        assert!(json.get(key).is_some(), "missing {key} in {json}");
    }
    assert_eq!(json["seats"], serde_json::json!(["greedy", "random"]));
    assert!(json.get("position").is_none(), "{json}");
    let wins: Vec<u64> = json["wins"].as_array().unwrap().iter().map(|w| w.as_u64().unwrap()).collect();
    assert_eq!(wins.iter().sum::<u64>() + json["draws"].as_u64().unwrap(), 20);
    assert!(wins[0] > wins[1], "greedy beats random: {json}");
    insta::assert_snapshot!("simulate_kalah_greedy_json", stdout(&a));

    // Every kind, seeded: the text summary says who sat where.
    let args = [
        "simulate",
        "games/kalah.mancala",
        "--ai",
        "2=mcts:200",
        "--ai",
        "1=alphabeta:2",
        "--games",
        "4",
        "--seed",
        "5",
        "--threads",
        "2",
    ];
    let a = run(&args);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    assert_eq!(stdout(&a), stdout(&run(&args)));
    insta::assert_snapshot!("simulate_kalah_alphabeta_mcts", stdout(&a));

    // Random seats alone: the JSON names them too, and the games are those of a plain run.
    let plain = run(&["simulate", "games/kalah.mancala", "--games", "30", "--json"]);
    let named = run(&["simulate", "games/kalah.mancala", "--games", "30", "--json", "--ai", "2=random"]);
    let plain: serde_json::Value = serde_json::from_str(&stdout(&plain)).unwrap();
    let named: serde_json::Value = serde_json::from_str(&stdout(&named)).unwrap();
    assert_eq!(plain["seats"], serde_json::json!(["random", "random"]));
    assert_eq!(plain, named);

    // A solitaire has one seat.
    let o = run(&["simulate", "games/gulek-single.mancala", "--ai", "1=greedy", "--games", "5", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["seats"], serde_json::json!(["greedy"]));
}

#[test]
fn simulate_time_budgets_are_announced_as_not_reproducible() {
    let o = run(&["simulate", "games/kalah.mancala", "--ai", "1=mcts:2ms", "--games", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("1: mcts:2ms, 2: random"), "{}", stdout(&o));
    assert!(stderr(&o).contains("time budget"), "{}", stderr(&o));
}

#[test]
fn simulate_rejects_bad_players() {
    let cases: [&[&str]; 7] = [
        &["games/kalah.mancala", "--ai", "2=foo"],
        &["games/kalah.mancala", "--ai", "2"],
        &["games/kalah.mancala", "--ai", "1=mcts:lots"],
        &["games/kalah.mancala", "--ai", "3=greedy"],
        &["games/gulek-solo.mancala", "--ai", "2=greedy"],
        &["games/kalah.mancala", "--ai", "1=greedy", "--ai", "1=random"],
        &["games/gulek.mancala", "--players", "3", "--ai", "2=alphabeta"],
    ];
    let mut all = String::new();
    for args in cases {
        let mut full = vec!["simulate"];
        full.extend_from_slice(args);
        let o = run(&full);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
        all.push_str(&format!("$ mancala {}\n{}\n", full.join(" "), stderr(&o).trim_end()));
    }
    insta::assert_snapshot!("simulate_bad_players", all);
}

/// Oware, six plies from the end of a random game: South to move, 18 to 23.
const OWARE_LATE: &str = "a0 b0 c1 d0 e0 f0 A0 B2 C1 D2 E0 F1 captured(1)=18 captured(2)=23 to_move=1";

#[test]
fn simulate_from_a_position() {
    let args =
        ["simulate", "games/oware.mancala", "--position", OWARE_LATE, "--games", "40", "--seed", "4", "--threads", "2"];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), stdout(&run(&args)));
    insta::assert_snapshot!("simulate_oware_position", stdout(&o));

    // With computer players and as JSON, where the position is the one written back in the position format.
    let dir = temp_dir("simulate-position");
    let trace = dir.join("trace.jsonl");
    let o = run(&[
        "simulate",
        "games/oware.mancala",
        "--position",
        OWARE_LATE,
        "--ai",
        "2=alphabeta:6",
        "--games",
        "10",
        "--json",
        "--trace",
        trace.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["seats"], serde_json::json!(["random", "alphabeta:6"]));
    assert_eq!(json["position"], "a0 b0 c1 d0 e0 f0 A0 B2 C1 D2 E0 F1 captured(1)=18 captured(2)=23 to_move=1");
    assert!(json["max_plies"].as_u64().unwrap() < 100, "{json}");
    // The trace counts plies from the position, and every game's first ply is South's.
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len() as u64, json["total_plies"].as_u64().unwrap());
    for line in lines.iter().filter(|l| l["ply"] == 1) {
        assert_eq!(line["mover"], 1, "{line}");
    }
    assert_eq!(lines.iter().filter(|l| l["ply"] == 1).count(), 10);
}

#[test]
fn bad_positions_are_usage_errors() {
    let cases: [&[&str]; 6] = [
        &["simulate", "games/kalah.mancala", "--position", "a4 zz=3"],
        &["simulate", "games/kalah.mancala", "--position", "a=lots"],
        &["simulate", "games/gulek.mancala", "--position", "1=RX phase=playing"],
        &["play", "games/kalah.mancala", "--position", "a4 a5"],
        &["play", "games/oware.mancala", "--position", "a1 to_move=3"],
        &["play", "games/kalah.mancala", "--position", "{ not json"],
    ];
    let mut all = String::new();
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
        all.push_str(&format!("$ mancala {}\n{}\n", args.join(" "), stderr(&o).trim_end()));
    }
    insta::assert_snapshot!("bad_positions", all);
    // A position and a saved game both say where to start.
    let o = run(&["play", "games/kalah.mancala", "--position", "a4", "--load", "game.json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
}

#[test]
fn play_starts_from_a_position() {
    // Standard input is empty: the game is drawn and the session ends.
    let position = "a0 b0 c0 d0 e1 f2 A1 B0 C0 D0 E0 F1 store(1)=22 store(2)=21";
    let o = run(&["play", "games/kalah.mancala", "--position", position, "--ai", "2=greedy"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    insta::assert_snapshot!("play_kalah_position", stdout(&o));
}

#[test]
fn play_rejects_bad_players() {
    let cases: [&[&str]; 5] = [
        &["play", "games/kalah.mancala", "--ai", "2=mcts:0"],
        &["play", "games/kalah.mancala", "--ai", "3=greedy"],
        &["play", "games/kalah.mancala", "--ai", "2=greedy", "--ai", "2=mcts"],
        &["play", "games/kalah.mancala", "--ai", "2=greedy", "--human", "2"],
        &["play", "games/gulek.mancala", "--players", "4", "--ai", "3=alphabeta:3"],
    ];
    let mut all = String::new();
    for args in cases {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        all.push_str(&format!("$ mancala {}\n{}\n", args.join(" "), stderr(&o).trim_end()));
    }
    insta::assert_snapshot!("play_bad_players", all);
}

#[test]
fn simulate_rejects_unknown_variants_and_player_counts() {
    let o = run(&["simulate", "games/kalah.mancala", "--variant", "empty-captures"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("empty-capture"), "{}", stderr(&o));
    let o = run(&["simulate", "games/kalah.mancala", "--players", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("2 players"), "{}", stderr(&o));
}

#[test]
fn simulate_of_an_invalid_file_shows_its_errors() {
    let dir = temp_dir("simulate-invalid");
    std::fs::write(dir.join("bad.mancala"), kalah_with_typo()).unwrap();
    let o = run_in(&dir, &["simulate", "bad.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("mancala::check::unknown_name"), "{}", stderr(&o));
}

#[test]
fn simulate_writes_a_trace_of_every_ply() {
    let dir = temp_dir("trace");
    let trace = dir.join("kalah.jsonl");
    let o = run(&["simulate", "games/kalah.mancala", "--games", "3", "--json", "--trace", trace.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let summary: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let text = std::fs::read_to_string(&trace).unwrap();
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
    assert_eq!(lines.len() as u64, summary["total_plies"].as_u64().unwrap());
    let first = &lines[0];
    assert_eq!(first["game"], 1);
    assert_eq!(first["ply"], 1);
    assert_eq!(first["mover"], 1);
    let notation = first["move"].as_str().expect("the ply in notation");
    assert!(["a", "b", "c", "d", "e", "f"].contains(&notation), "{notation}");
    let places = first["state"]["places"].as_object().unwrap();
    assert_eq!(places.len(), 14);
    assert_eq!(places.values().map(|v| v.as_u64().unwrap()).sum::<u64>(), 48);
    assert!(places.contains_key("store(2)"));
    // Each game's last line is the end of it.
    for (i, line) in lines.iter().enumerate() {
        let last = lines.get(i + 1).is_none_or(|next| next["game"] != line["game"]);
        assert_eq!(line["state"]["over"], last, "{line}");
        if last {
            assert_eq!(line["state"]["scores"].as_array().unwrap().len(), 2);
        }
    }
    assert_eq!(lines.last().unwrap()["game"], 3);

    // Pieces of several kinds are counted per kind.
    let o = run(&["simulate", "games/perlen.mancala", "--games", "1", "--trace", trace.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&trace).unwrap();
    let first: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert!(first["state"]["places"]["a"].is_object(), "{first}");
}

#[test]
fn bench_reports_throughput() {
    let o = run(&["bench", "games/kalah.mancala", "--seconds", "0.2"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    // The game and the hand-written engines in one run, with the ratios.
    for what in ["plies/s", "games/s", "÷ ref", "÷ twin", "hand-written Kalah, tight", "hand-written Oware, tight"] {
        assert!(out.contains(what), "{out}");
    }
    let kalah = out.lines().find(|l| l.trim_start().starts_with("Kalah")).unwrap_or_else(|| panic!("{out}"));
    let ratios: Vec<f64> = kalah.split_whitespace().rev().take(2).map(|x| x.parse().unwrap()).collect();
    assert!(ratios.iter().all(|r| *r > 0.0 && *r < 10.0), "{kalah}");
    let o = run(&["bench", "games/kalah.mancala", "--seconds", "-1"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bench_without_a_file_measures_every_shipped_game() {
    let o = run(&["bench", "--seconds", "0.1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    for game in mancala::shipped::GAMES {
        let name = mancala::compile(game.text, None, None).unwrap().rules.game;
        assert!(out.contains(&name), "{name} missing from\n{out}");
    }
    let o = run(&["bench", "--variant", "short"]);
    assert_eq!(o.status.code(), Some(2), "a variant needs a file");
}

#[test]
fn help_has_examples() {
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("Examples:"));
    for cmd in ["check", "variants", "games", "simulate", "bench"] {
        let o = run(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0));
        assert!(stdout(&o).contains("Examples:"), "{cmd}");
    }
    assert_eq!(run(&["simulate"]).status.code(), Some(2));
}

#[test]
fn check_reads_no_more_than_the_size_limit() {
    // `/dev/zero` never ends: reading it whole would exhaust memory. It is no regular file either.
    let o = run(&["check", "/dev/zero"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("cannot read /dev/zero: it is a device, not a regular file"), "{err}");
    assert!(err.contains("help: give the path of a rule file"), "{err}");
}

/// A FIFO (or any file that is not a regular file) is refused at once by `check`, `variants` and the REPL's
/// `load`: opening one would wait for a writer for ever (issue 23).
#[cfg(unix)]
#[test]
fn a_fifo_is_refused_at_once() {
    let dir = temp_dir("fifo");
    let fifo = dir.join("rules.mancala");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let fifo = fifo.to_str().unwrap();
    for args in [vec!["check", fifo], vec!["variants", fifo], vec!["play", fifo]] {
        let o = run_within(&args, Duration::from_secs(20)).unwrap_or_else(|| panic!("{args:?} waits on the FIFO"));
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("it is a FIFO, not a regular file"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_file_past_the_size_limit_is_refused_by_every_command_with_a_short_message() {
    let dir = temp_dir("too-large");
    let big = dir.join("big.mancala");
    // One long line: the message must not quote it.
    std::fs::write(&big, format!("# {}\n", "x".repeat(600 * 1024))).unwrap();
    let big = big.to_str().unwrap();
    for args in [vec!["check", big], vec!["variants", big], vec!["simulate", big], vec!["play", big]] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(err.contains("larger than the limit of 512 KiB"), "{args:?}: {err}");
        assert!(err.len() < 1000, "{args:?}: a short message, not {} bytes", err.len());
    }
}

#[test]
fn every_command_shows_at_most_as_many_errors_as_check() {
    let dir = temp_dir("many-errors");
    let path = dir.join("many.mancala");
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    std::fs::write(&path, kalah + &"board two_rows 6 with stores\n".repeat(300)).unwrap();
    let path = path.to_str().unwrap();
    for args in [vec!["check", path], vec!["simulate", path], vec!["play", path], vec!["bench", path]] {
        let o = run(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let shown = format!("{}{}", stdout(&o), stderr(&o));
        assert_eq!(shown.matches('×').count(), 101, "{args:?}: 100 errors and a count of the rest");
        assert!(shown.contains("200 more problems (200 errors) are not shown"), "{args:?}: {shown}");
    }
}

#[test]
fn a_file_without_rules_gets_the_same_verdict_from_every_command() {
    let dir = temp_dir("no-rules");
    std::fs::write(dir.join("empty.mancala"), "").unwrap();
    std::fs::write(dir.join("comments.mancala"), "# nothing yet\n\n# still nothing\n").unwrap();
    for file in ["empty.mancala", "comments.mancala"] {
        for cmd in ["check", "variants", "simulate", "bench", "play", "solve"] {
            let o = run_in(&dir, &[cmd, file]);
            let shown = format!("{}{}", stdout(&o), stderr(&o));
            assert_eq!(o.status.code(), Some(1), "{cmd} {file}: {shown}");
            assert!(shown.contains("this file has no rules"), "{cmd} {file}: {shown}");
            assert!(!stdout(&o).contains("default"), "{cmd} {file}: {shown}");
        }
    }
}

#[test]
fn variants_of_a_file_with_errors_shows_the_errors() {
    let dir = temp_dir("variants-errors");
    std::fs::write(dir.join("typo.mancala"), kalah_with_typo()).unwrap();
    let o = run_in(&dir, &["variants", "typo.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("stor"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}

#[test]
fn check_json_has_secondary_labels_and_end_positions() {
    let dir = temp_dir("json-related");
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    // A second board: an error with the first board as its secondary label.
    std::fs::write(dir.join("twice.mancala"), format!("{kalah}\nboard two_rows 6\n")).unwrap();
    let o = run_in(&dir, &["check", "--format", "json", "twice.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let d = &json[0];
    let lines = kalah.lines().count() as u64;
    assert_eq!(d["line"], lines + 2, "{d}");
    assert_eq!(d["end_line"], lines + 2, "{d}");
    assert!(d["end_column"].as_u64().unwrap() > d["column"].as_u64().unwrap(), "{d}");
    let related = d["related"].as_array().expect("secondary labels");
    assert_eq!(related.len(), 1, "{d}");
    assert_eq!(related[0]["line"], 10, "the first board: {d}");
    assert!(related[0]["label"].as_str().unwrap().contains("first"), "{d}");
    for key in ["start", "end", "column", "end_line", "end_column"] {
        assert!(related[0][key].is_u64(), "{key}: {d}");
    }
}

#[test]
fn check_reports_an_error_in_each_bad_item_and_checks_the_rest() {
    let dir = temp_dir("recovery");
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    let broken = kalah.replacen("ties draw", "ties draww", 1).replacen("pieces seeds", "pieces seedz", 1).replacen(
        "score count(store(player))",
        "score count(stor(player))",
        1,
    );
    std::fs::write(dir.join("broken.mancala"), broken).unwrap();
    let o = run_in(&dir, &["check", "--format", "json", "broken.mancala"]);
    assert_eq!(o.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let messages: Vec<&str> = json.as_array().unwrap().iter().map(|d| d["message"].as_str().unwrap()).collect();
    assert_eq!(messages, ["unexpected `seedz`", "there is no place called `stor`", "unexpected `draww`"], "{json}");
    let helps: Vec<&str> = json.as_array().unwrap().iter().map(|d| d["help"].as_str().unwrap()).collect();
    assert_eq!(helps, ["did you mean `seeds`?", "did you mean `store`?", "did you mean `draw`?"]);
}

#[test]
fn a_shipped_game_can_be_named_from_any_directory() {
    let dir = temp_dir("shipped");
    let o = run_in(&dir, &["check", "kalah", "gulek-solo.mancala"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_in(&dir, &["variants", "gulek-solo"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("default\n"), "{}", stdout(&o));
    let o = run_in(&dir, &["simulate", "oware", "--games", "3", "--seed", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let position = "a0 b0 c0 d0 e1 f2 A1 B0 C0 D0 E0 F1 store(1)=22 store(2)=21";
    let o = run_in(&dir, &["play", "kalah", "--position", position, "--ai", "2=greedy"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run_in(&dir, &["bench", "kalah", "--seconds", "0.1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    // A file of that name wins over the shipped game.
    std::fs::write(dir.join("kalah"), "game \"Mine\"\n").unwrap();
    let o = run_in(&dir, &["check", "kalah"]);
    assert_eq!(o.status.code(), Some(1), "the file is read: {}", stdout(&o));

    // Neither a file nor a shipped game: the names are listed.
    let o = run_in(&dir, &["check", "kalha"]);
    assert_eq!(o.status.code(), Some(2));
    // In name order; the list grows with every game shipped, so only its start and one name are checked.
    let listed = stderr(&o);
    assert!(listed.contains("a shipped game can be named instead of a file: ayoayo, "), "{listed}");
    assert!(listed.contains(", kalah, "), "{listed}");
}

/// A match whose end never comes (a Dakon whose `match when` never holds) checks clean and plays on to its
/// ply limit in bounded memory: the rounds' results are counted, not all kept (issue 23). Before, one game
/// grew by about 30 MB per second of CPU.
#[cfg(target_os = "linux")]
#[test]
fn a_match_that_never_ends_plays_in_bounded_memory() {
    let dir = temp_dir("endless-match");
    let dakon = std::fs::read_to_string(root().join("games/dakon.mancala")).unwrap();
    let never = "match when any players(count(pits(player)) = 99)";
    let endless = dakon.replacen("match when any players(count(pits(player)) = 0)", never, 1);
    assert!(endless.contains(never));
    let file = dir.join("endless.mancala");
    std::fs::write(&file, endless).unwrap();
    let file = file.to_str().unwrap();
    assert_eq!(run(&["check", file]).status.code(), Some(0));
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["simulate", file, "--games", "1", "--threads", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let rss = |pid: u32| {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let line = status.lines().find(|l| l.starts_with("VmRSS:")).map(str::to_string).unwrap_or_default();
        line.split_whitespace().nth(1).and_then(|n| n.parse::<u64>().ok()).unwrap_or(0)
    };
    std::thread::sleep(Duration::from_secs(1));
    let early = rss(child.id());
    std::thread::sleep(Duration::from_secs(3));
    let late = rss(child.id());
    let still_playing = child.try_wait().unwrap().is_none();
    let _ = child.kill();
    let _ = child.wait();
    assert!(still_playing, "the match ended");
    assert!(late < early + 8 * 1024, "grew from {early} KiB to {late} KiB in 3 s");
}

#[test]
fn fmt_check_names_the_files_that_would_change_and_fmt_rewrites_them() {
    let dir = temp_dir("fmt");
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    let messy = kalah.replace("  sow {\n    from pits(mover)", "  sow { from pits(mover)");
    std::fs::write(dir.join("messy.mancala"), &messy).unwrap();
    let tidy = mancala::fmt::format_source(&kalah).unwrap();
    std::fs::write(dir.join("tidy.mancala"), &tidy).unwrap();

    let out = run_in(&dir, &["fmt", "--check", "messy.mancala", "tidy.mancala"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(stdout(&out), "messy.mancala\n");
    assert!(stderr(&out).contains("1 file not formatted"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("messy.mancala")).unwrap(), messy, "--check changes nothing");

    let out = run_in(&dir, &["fmt", "messy.mancala", "tidy.mancala"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(dir.join("messy.mancala")).unwrap(), tidy);
    let out = run_in(&dir, &["fmt", "--check", "messy.mancala", "tidy.mancala"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));

    std::fs::write(dir.join("bad.mancala"), "game \"x\"\nboard two_rows\n").unwrap();
    let out = run_in(&dir, &["fmt", "bad.mancala"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("bad.mancala"), "{}", stderr(&out));
    let out = run_in(&dir, &["fmt", "missing.mancala"]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn explain_tells_a_ply_with_its_rules_and_refuses_a_bad_one() {
    let out = run(&["explain", "games/kalah.mancala", "--position", "a1 f2 A1 E1 F1 store(1)=22 store(2)=20", "a"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("last in b: capture takes 1 from b and 1 from E to store(1) (line 23: capture when"),
        "{text}"
    );
    let out = run(&["explain", "kalah", "c", "--format", "json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["steps"][0]["rule"]["line"], 19);
    let out = run(&["explain", "kalah", "z"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

/// A capture made before a lap is lifted (`capture at every lift`) is counted and named as a capture
/// (Kisolo KS-3), as one made at the end of a lap or at a drop is.
#[test]
fn simulate_counts_the_captures_made_before_a_lift() {
    let out = run(&["simulate", "kisolo", "--games", "20", "--seed", "1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rules = json["rules"].as_array().expect("rules");
    let lift = rules
        .iter()
        .find(|r| r["text"].as_str().is_some_and(|t| t.starts_with("capture at every lift")))
        .expect("the capture at every lift is listed");
    assert_eq!(lift["kind"], "capture");
    assert!(lift["fired"].as_u64().unwrap() > 0, "{lift}");
    let out = run(&["explain", "kisolo", "--format", "json", "--position", "o1=2 i2=2 I6=1 O6=1 O1=2", "i2"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("\"text\": \"before i2 is lifted: capture takes 1 from O6 and 1 from I6 to o2\""), "{text}");
    assert!(
        text.contains("\"text\": \"capture at every lift when here in inner(mover) and count(opposite) > 0\""),
        "{text}"
    );
}

/// The opponent's answer in the middle of a move (`opponent may`, Igisoro IG-4) is a step of `explain`, with
/// its rule and line, and a rule that `simulate` counts when made, or names as never made.
#[test]
fn explain_and_simulate_tell_the_opponent_s_answer() {
    let out = run(&["explain", "igisoro", "--position", "o8=2 i7=1 I2=1 O2=1 O5=2", "o8 -x answer"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "3. last in i7: player 2 answers: takes 1 from I2 to O2 (line 35: opponent may when here in inner(mover)"
        ),
        "{text}"
    );
    assert!(text.contains("4. relay from i7: lift 2 (line 39"), "{text}");
    // Declined, no answer is told.
    let out = run(&["explain", "igisoro", "--position", "o8=2 i7=1 I2=1 O2=1 O5=2", "o8 -x -answer"]);
    assert!(!stdout(&out).contains("answers"), "{}", stdout(&out));
    let out =
        run(&["explain", "igisoro", "--format", "json", "--position", "o8=2 i7=1 I2=1 O2=1 O5=2", "o8 -x answer"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).expect("JSON");
    assert_eq!(json["steps"][2]["step"], "answer");
    assert_eq!(json["steps"][2]["rule"]["line"], 35);

    let out = run(&["simulate", "igisoro", "--games", "20", "--seed", "1", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rules = json["rules"].as_array().expect("rules");
    let answer = rules.iter().find(|r| r["kind"] == "answer").expect("the answer is listed");
    assert_eq!(answer["line"], 35);
    assert!(answer["fired"].as_u64().unwrap() > 0, "{answer}");

    let dir = temp_dir("simulate-answer");
    let igisoro = std::fs::read_to_string(root().join("games/igisoro.mancala")).unwrap();
    let never = igisoro.replacen("opponent may when here in inner(mover) and", "opponent may when count = 99 and", 1);
    assert_ne!(never, igisoro);
    std::fs::write(dir.join("never.mancala"), never).unwrap();
    let out = run_in(&dir, &["simulate", "never.mancala", "--games", "10", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("note: the answer at line 35 (opponent may when count = 99 and before >= 1 and all...) was never made in 10 games"),
        "{text}"
    );
}

#[test]
fn simulate_counts_the_rules_that_fired_and_names_those_that_never_did() {
    let dir = temp_dir("simulate-rules");
    let kalah = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap();
    let never = kalah.replace("and count = 1 and count(opposite) > 0 {", "and count = 99 {");
    assert_ne!(never, kalah);
    std::fs::write(dir.join("never.mancala"), never).unwrap();
    let out = run_in(&dir, &["simulate", "never.mancala", "--games", "50", "--seed", "1"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains(
            "note: the capture at line 23 (capture when here in pits(mover) and count = 99) never happened in 50 games"
        ),
        "{text}"
    );
    assert!(text.contains("the end rules that ended them\n    line 32"), "{text}");
    let out = run(&["simulate", "kalah", "--games", "50", "--seed", "1", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let rules = json["rules"].as_array().expect("rules");
    let again = rules.iter().find(|r| r["kind"] == "again").expect("the extra turn");
    assert_eq!(again["line"], 26);
    assert!(again["fired"].as_u64().unwrap() > 0);
    let ended: u64 = rules.iter().map(|r| r["ended"].as_u64().unwrap()).sum();
    assert_eq!(ended, 50);
    let out = run(&["simulate", "kalah", "--games", "50", "--seed", "1", "--json", "--no-rules"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(json.get("rules").is_none());
}

/// Every code block of the docs is closed: one left open turns the rest of a page into code (it happened to
/// `relay may` in docs/language.md).
#[test]
fn the_docs_code_blocks_are_closed() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
    for dir in ["docs", "docs/games"] {
        for entry in std::fs::read_dir(root.join(dir)).expect("docs") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "md") {
                pages.push(path);
            }
        }
    }
    for page in pages {
        let text = std::fs::read_to_string(&page).expect("page");
        let mut open: Option<usize> = None;
        for (i, line) in text.lines().enumerate() {
            let fence = line.trim_start().strip_prefix("```");
            match (fence, open) {
                (Some(_), Some(_)) => open = None,
                (Some(_), None) => open = Some(i + 1),
                // A heading inside a code block is the sign of a block left open.
                (None, Some(at)) if line.starts_with("#### ") || line.starts_with("## ") => {
                    panic!("{}: the code block of line {at} is still open at line {}", page.display(), i + 1)
                }
                _ => {}
            }
        }
        assert!(open.is_none(), "{}: the code block of line {} is never closed", page.display(), open.unwrap_or(0));
    }
}

#[test]
fn simulate_counts_then_takes_and_then_marks() {
    // Lamlameta's only capture is a `then must take`, and its pairs are marked by a `then mark`: both fire.
    let o = run(&["simulate", "tests/data/unseen/lamlameta.mancala", "--games", "20", "--seed", "1", "--threads", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let fired = |line: &str| {
        out.lines()
            .find(|l| l.trim_start().starts_with(&format!("line {line} ")))
            .and_then(|l| l.split_whitespace().last()?.parse::<u64>().ok())
    };
    assert!(fired("67").is_some_and(|n| n > 0), "{out}");
    assert!(fired("70").is_some_and(|n| n > 0), "{out}");
    assert!(!out.contains("note: the `then"), "{out}");
    // The captures line says what it counts: a `then` take is not a capture.
    assert!(out.contains("`then` takes are not captures"), "{out}");

    // A `then` take and a `then mark` that never happen are noted as such.
    let dir = temp_dir("simulate-then");
    let text = std::fs::read_to_string(root().join("games/kalah.mancala")).unwrap().replacen(
        "    again when last = store(mover)\n",
        "    again when last = store(mover)\n    then must take from pits where count = 99 to store(mover)\n    \
         then mark pits as gone where count = 99\n",
        1,
    );
    let text = text.replacen("pieces seeds\n", "pieces seeds\nmark gone\n", 1);
    std::fs::write(dir.join("k.mancala"), text).unwrap();
    let o = run_in(&dir, &["simulate", "k.mancala", "--games", "5", "--seed", "1", "--threads", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("note: the `then` take at line 28 (then must take from pits where count = 99 to store(mo...) never happened in 5 games"), "{out}");
    assert!(
        out.contains(
            "note: the `then mark` at line 29 (then mark pits as gone where count = 99) never happened in 5 games"
        ),
        "{out}"
    );
}

#[test]
fn simulate_from_a_position_over_already_shows_it_as_given() {
    // South's row is empty: the game ends as it starts and the sweep moves North's seeds, but the `from`
    // line is the position given.
    let args = ["simulate", "games/kalah.mancala", "--position", "A4 B2 store(1)=10", "--games", "3", "--threads", "1"];
    let o = run(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let from = "a0 b0 c0 d0 e0 f0 A4 B2 C0 D0 E0 F0 store(1)=10 store(2)=0 to_move=1";
    assert!(stdout(&o).contains(&format!("  from            {from}\n")), "{}", stdout(&o));
    let o = run(&[&args[..], &["--json"]].concat());
    let json: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(json["position"], from);
}

// ---------------------------------------------------------------- parts of a run (issue 32, item 4)

/// `simulate --shard I/N` plays the I-th part of a run's games with the seeds the whole run gives them, and
/// `merge` adds the parts' summaries up into exactly the whole run's (but `threads`): for plain random games
/// (with the rules' counts) and for a match of rounds with computer players.
#[test]
fn parts_of_a_run_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().expect("a folder");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        serde_json::from_slice(&out.stdout).expect("JSON")
    };
    let runs: [&[&str]; 2] = [
        &["simulate", "kalah", "--games", "301", "--seed", "4", "--json"],
        &["simulate", "dakon", "--rounds", "1", "--games", "13", "--ai", "2=greedy", "--json"],
    ];
    for whole_args in runs {
        let mut whole = json(whole_args);
        let mut parts = Vec::new();
        for i in 1..=4 {
            let shard = format!("{i}/4");
            let mut args = whole_args.to_vec();
            args.extend(["--shard", &shard]);
            let part = json(&args);
            assert_eq!(part["shard"]["index"], i);
            let path = dir.path().join(format!("part-{i}.json"));
            std::fs::write(&path, serde_json::to_string(&part).expect("JSON")).expect("written");
            parts.push(path.to_string_lossy().into_owned());
        }
        let mut args = vec!["merge", "--json"];
        args.extend(parts.iter().map(String::as_str));
        let mut merged = json(&args);
        for v in [&mut whole, &mut merged] {
            v.as_object_mut().expect("an object").remove("threads");
        }
        assert_eq!(merged, whole, "{whole_args:?}");

        // A part missing, or given twice, is an error that says which.
        let out = run(&["merge", &parts[0], &parts[1], &parts[3]]);
        assert_eq!(out.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&out.stderr).contains("the parts 3/4 are missing"));
        let out = run(&["merge", &parts[0], &parts[0], &parts[1], &parts[2], &parts[3]]);
        assert!(String::from_utf8_lossy(&out.stderr).contains("part 1/4 is given twice"));
    }
    // Parts of runs of other seeds do not add up.
    let other = json(&["simulate", "kalah", "--games", "301", "--seed", "5", "--json", "--shard", "2/2"]);
    let first = json(&["simulate", "kalah", "--games", "301", "--seed", "4", "--json", "--shard", "1/2"]);
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    std::fs::write(&a, first.to_string()).expect("written");
    std::fs::write(&b, other.to_string()).expect("written");
    let out = run(&["merge", &a.to_string_lossy(), &b.to_string_lossy()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("`seed` differs"), "{out:?}");
    let out = run(&["simulate", "kalah", "--shard", "5/4"]);
    assert_eq!(out.status.code(), Some(2));
}
