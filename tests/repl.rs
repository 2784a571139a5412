//! Scripted sessions of `mancala play`: standard input is not a terminal, so the binary reads commands line
//! by line and prints plain text. Each session is a snapshot of exactly what a person would see.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .arg("play")
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("script written");
    let out = child.wait_with_output().expect("the session ends");
    let mut text = String::from_utf8_lossy(&out.stdout).into_owned();
    let err = String::from_utf8_lossy(&out.stderr);
    if !err.is_empty() {
        text.push_str("\n[stderr]\n");
        text.push_str(&err);
    }
    text.push_str(&format!("\n[exit {}]\n", out.status.code().unwrap_or(-1)));
    text
}

#[test]
fn kalah_commands_and_bad_input() {
    let script = "moves\n3\nz\nA\nfoo bar\nundo\nredo\nshow\nrules\nhint\nai\nmoves 2\nsave\n99\nquit\n";
    insta::assert_snapshot!(session(&["games/kalah.mancala", "--ai", "2=random"], script));
}

#[test]
fn kalah_played_to_the_end_by_the_hint_player() {
    let mut script = "ai\n".repeat(80);
    script.push_str("ai\nnew\nquit\n");
    insta::assert_snapshot!(session(&["games/kalah.mancala", "--ai", "2=random", "--seed", "3"], &script));
}

#[test]
fn gulek_turn_asked_one_decision_at_a_time() {
    // Forty placements by two computer players... no: seat 1 places by hand, seat 2 at random.
    let mut script = String::new();
    for i in 0..20 {
        script.push_str(&format!("{}\n", i % 15 + 1));
    }
    script.push_str("moves\n1\ncw\ncancel\n1cw:RB\nquit\n");
    insta::assert_snapshot!(session(&["games/gulek.mancala", "--ai", "2=random"], &script));
}

#[test]
fn gore_offer_answered_by_a_person() {
    let script = "a\nA\nmoves\nquit\n";
    insta::assert_snapshot!(session(&["games/gore.mancala", "--human", "2"], script));
}

#[test]
fn solitaire_and_variants() {
    let script = "moves\n1cw\n1\ncw\nrules\nquit\n";
    insta::assert_snapshot!(session(&["games/gulek-solo.mancala", "--variant", "v1"], script));
}

#[test]
fn saving_and_loading_round_trip() {
    let dir = std::env::temp_dir().join(format!("mancala-repl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let save = dir.join("game.json");
    let save = save.to_str().expect("utf-8 path");
    let first = session(&["games/kalah.mancala", "--ai", "2=random"], &format!("c\nf\nsave {save}\nquit\n"));
    assert!(first.contains("saved to"), "{first}");
    let second = session(&["games/kalah.mancala", "--ai", "2=random"], &format!("load {save}\nundo\nquit\n"));
    assert!(second.contains("loaded"), "{second}");
    // The same save file refuses to load into another game.
    let other = session(&["games/oware.mancala", "--ai", "2=random"], &format!("load {save}\nquit\n"));
    assert!(other.contains("saved with other rules"), "{other}");
    // A corrupt save file gets a clear error and changes nothing.
    std::fs::write(dir.join("bad.json"), "{ not json").expect("write");
    let bad = session(
        &["games/kalah.mancala", "--ai", "2=random"],
        &format!("load {}\nshow\nquit\n", dir.join("bad.json").display()),
    );
    assert!(bad.contains("not a saved game"), "{bad}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_arguments_exit_with_usage_errors() {
    let missing = session(&["games/no-such-game.mancala"], "");
    assert!(missing.contains("[exit 2]"), "{missing}");
    let seat = session(&["games/kalah.mancala", "--ai", "5=random"], "");
    assert!(seat.contains("[exit 2]"), "{seat}");
    let variant = session(&["games/kalah.mancala", "--variant", "nope"], "");
    assert!(!variant.contains("[exit 0]"), "{variant}");
}

#[test]
fn solve_finds_the_lines_of_the_rules() {
    // gulek.md 1.4: (3, 1) adjacent is solvable only in the simple variant; (5, 3) five apart in every variant.
    let solve = |variant: &str, position: &str| -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .args(["solve", "games/gulek-solo.mancala", "--variant", variant, "--position", position])
            .output()
            .expect("the binary runs");
        assert!(out.status.success());
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    for variant in ["default", "v1", "v2", "v3"] {
        let three_one = solve(variant, "1=3 2=1");
        assert_eq!(three_one.starts_with("solvable"), variant == "default", "{variant}: {three_one}");
        let five_three = solve(variant, "1=5 6=3");
        assert!(five_three.starts_with("solvable"), "{variant}: {five_three}");
    }
}
