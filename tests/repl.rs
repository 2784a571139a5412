//! Scripted sessions of `mancala play`: standard input is not a terminal, so the binary reads commands line
//! by line and prints plain text. Each session is a snapshot of exactly what a person would see.

use std::io::Write;
use std::process::{Command, Stdio};

fn session(args: &[&str], script: &str) -> String {
    session_in(std::path::Path::new(env!("CARGO_MANIFEST_DIR")), args, script)
}

/// A session run in `dir`, for files written by the session (rule files are then given by full path).
fn session_in(dir: &std::path::Path, args: &[&str], script: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .current_dir(dir)
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
    // `1` is pit 1 (empty), not the first listed move: that is `#1`.
    let script = "moves\n1cw\n1\n#1\ncw\nrules\nquit\n";
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

// ---------------------------------------------------------------- a full short game of every shipped game
//
// Each starts from a position near the end (`--position`; most are a few plies before the end of a seeded
// random game) and is played to the result, by people typing moves or by seeded computer players.

#[test]
fn kalah_from_a_late_position_against_greedy() {
    let position = "a0 b0 c0 d0 e1 f2 A1 B0 C0 D0 E0 F1 store(1)=22 store(2)=21";
    // The last `new` starts again from the position, not from the game's start.
    let script = "moves\nf\ne\nmoves\n1\nnew\nquit\n";
    insta::assert_snapshot!(session(&["games/kalah.mancala", "--position", position, "--ai", "2=greedy"], script));
}

#[test]
fn oware_two_people_to_the_end() {
    let position = "a0 b0 c1 d0 e0 f0 A0 B2 C1 D2 E0 F1 captured(1)=18 captured(2)=23 to_move=1";
    let script = "moves\nc\nF\nd\nmoves\n1\ne\nD\nquit\n";
    insta::assert_snapshot!(session(&["games/oware.mancala", "--human", "2", "--position", position], script));
}

#[test]
fn gore_offers_declined_until_the_position_repeats() {
    // North must answer South's offer of c first; the game ends when a position comes back (GO-13).
    let position = "a0 b6 c4 d4 A8 B3 C5 D0 captured(1)=8 captured(2)=10 owner(b)=2 to_move=2 offered=c";
    let script = "moves\ndecline\nb\nmoves\noffer a\ndecline\noffer B\nmoves\ndecline\nquit\n";
    insta::assert_snapshot!(session(&["games/gore.mancala", "--human", "2", "--position", position], script));
}

#[test]
fn perlen_two_people_to_the_end() {
    // Sowings with the order of the beads typed (`c:0`), and an indirect capture chosen one decision at a time.
    let position = "a=- b=- c=0 d=- e=0 A=0 B=- C=0 D=00 E=0*4 cup(1)=1122335 cup(2)=445 to_move=1";
    let script = "c:0\nC:0\nd:0\nA:0\ne\nmoves\n1\nB:00\nquit\n";
    insta::assert_snapshot!(session(&["games/perlen.mancala", "--human", "2", "--position", position], script));
}

#[test]
fn gulek_three_players_with_computers_to_the_end() {
    // Seats 2 and 3 are seeded computer players; seat 1 sows once, then can only pass until the others have
    // taken his last balls and he is out.
    let position = "1=- 2=RB 3=GG 4=G 5=- 6=B 7=B 8=- 9=B 10=B 11=- 12=B 13=G 14=G 15=BB centre=R*19 B*12 G*15 \
                    to_move=1 phase=playing";
    let args = [
        "games/gulek.mancala",
        "--players",
        "3",
        "--ai",
        "2=greedy",
        "--ai",
        "3=mcts:200",
        "--seed",
        "7",
        "--position",
        position,
    ];
    let script = "moves\n2cw\nmoves\npass\npass\npass\npass\nquit\n";
    insta::assert_snapshot!(session(&args, script));
}

#[test]
fn gulek_solo_solved_with_hints() {
    // gulek.md 1.4: five and three balls, five pits apart.
    let script = "hint\n1cw\nhint\n6ccw take 2,3,4,5\nquit\n";
    insta::assert_snapshot!(session(&["games/gulek-solo.mancala", "--position", "1=5 6=3"], script));
}

#[test]
fn gulek_single_won_after_a_mistake_is_taken_back() {
    let position = "5=1 7=2 8=1 11=1 12=1 removed=54";
    // Sowings that could take pairs away and do not: asked once (`stop`), then said at once (`take none`).
    let script = "hint\n7ccw\nstop\n5cw take none\n6cw take none\n7cw take none\n8cw take none\nhint\nundo\n\
                  8cw take 11\n9cw take none\nhint\n10cw take 11,12\nnew\nquit\n";
    insta::assert_snapshot!(session(&["games/gulek-single.mancala", "--position", position], script));
}

#[test]
fn gulek_single_lost() {
    let script = "moves\n1cw\nmoves\nundo\nhint\nquit\n";
    insta::assert_snapshot!(session(&["games/gulek-single.mancala", "--position", "1=2 3=2"], script));
}

#[test]
fn saving_and_loading_a_game_from_a_position() {
    let dir = std::env::temp_dir().join(format!("mancala-repl-position-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let kalah = format!("{}/games/kalah.mancala", env!("CARGO_MANIFEST_DIR"));
    let position = "a0 b0 c0 d0 e1 f2 A1 B0 C0 D0 E0 F1 store(1)=22 store(2)=21";

    let first = session_in(&dir, &[&kalah, "--position", position, "--ai", "2=greedy"], "f\nsave game.json\nquit\n");
    assert!(first.contains("saved to game.json"), "{first}");
    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("game.json")).expect("saved")).expect("JSON");
    assert_eq!(saved["format"], "mancala-game/1");
    assert_eq!(saved["position"], position);
    assert_eq!(saved["moves"], serde_json::json!(["f", "F", "A"]));

    // Loaded into a session that started from the game's own start: the moves replay from the position, and
    // `undo` and `new` go back to it.
    let loaded = session_in(&dir, &[&kalah, "--ai", "2=greedy"], "load game.json\nundo\nnew\nquit\n");
    insta::assert_snapshot!(loaded);
    // As does --load.
    let loaded = session_in(&dir, &[&kalah, "--ai", "2=greedy", "--load", "game.json"], "quit\n");
    assert!(loaded.contains("Starting from the position a0 b0 c0 d0 e1 f2"), "{loaded}");
    assert!(loaded.contains("ply 4: player 1 to move"), "{loaded}");

    // A save without a position (as every save was before) starts from the game's start.
    let plain = session_in(&dir, &[&kalah, "--ai", "2=greedy"], "c\nsave plain.json\nquit\n");
    assert!(plain.contains("saved to plain.json"), "{plain}");
    let text = std::fs::read_to_string(dir.join("plain.json")).expect("saved");
    assert!(!text.contains("position"), "{text}");
    let reloaded = session_in(&dir, &[&kalah, "--ai", "2=greedy", "--position", position], "load plain.json\nquit\n");
    assert!(reloaded.contains("loaded plain.json (1 ply)"), "{reloaded}");
    assert!(reloaded.contains("[  0]    4   4   4   4   4   4"), "the game's start, not the position: {reloaded}");

    // A save whose position does not fit the game is refused, and nothing changes.
    let broken = serde_json::to_string(&{
        let mut s = saved.clone();
        s["position"] = serde_json::json!("a4 zz=1");
        s
    })
    .expect("JSON");
    std::fs::write(dir.join("broken.json"), broken).expect("write");
    let refused = session_in(&dir, &[&kalah, "--ai", "2=greedy"], "load broken.json\nquit\n");
    assert!(refused.contains("error: broken.json: the starting position `a4 zz=1` does not fit"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A bare number picks a listed move where pits have letters; `#N` always does; a bad `#` is explained.
#[test]
fn numbers_and_hashes_pick_listed_moves() {
    let script = "moves\n2\nmoves\n#1\n#0\n#x\n99\nquit\n";
    insta::assert_snapshot!(session(&["games/kalah.mancala", "--human", "2"], script));
}
