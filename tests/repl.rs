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
    // A save killed midway left its hidden temporary file; the load removes it.
    let leftover = dir.join(".game.json.aB3dE9.tmp");
    std::fs::write(&leftover, "{ half a save").expect("write");
    let second = session(&["games/kalah.mancala", "--ai", "2=random"], &format!("load {save}\nundo\nquit\n"));
    assert!(second.contains("loaded"), "{second}");
    assert!(!leftover.exists(), "a killed save's temporary file is removed at the next load");
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
        assert_eq!(three_one.starts_with("a win in"), variant == "default", "{variant}: {three_one}");
        if variant != "default" {
            assert!(three_one.starts_with("no line wins: every reachable position was searched"), "{three_one}");
        }
        let five_three = solve(variant, "1=5 6=3");
        assert!(five_three.starts_with("a win in"), "{variant}: {five_three}");
        assert!(five_three.contains("(shortest)"), "{variant}: {five_three}");
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
    assert!(loaded.contains("ply 4: you to move"), "{loaded}");

    // A save without a position (as every save was before) starts from the game's start.
    let plain = session_in(&dir, &[&kalah, "--ai", "2=greedy"], "c\nsave plain.json\nquit\n");
    assert!(plain.contains("saved to plain.json"), "{plain}");
    let text = std::fs::read_to_string(dir.join("plain.json")).expect("saved");
    assert!(!text.contains("position"), "{text}");
    let reloaded = session_in(&dir, &[&kalah, "--ai", "2=greedy", "--position", position], "load plain.json\nquit\n");
    assert!(reloaded.contains("loaded plain.json (1 ply)"), "{reloaded}");
    assert!(
        reloaded.contains("computer     4    4    4    4    4    4"),
        "the game's start, not the position: {reloaded}"
    );

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

// ---------------------------------------------------------------- what a typed line means

/// On a numbered board a bare number is always a pit, at every prompt, and says why it cannot be played;
/// `#N` is the N-th listed move (issue 8, item 10).
#[test]
fn a_bare_number_is_a_pit_on_a_numbered_board() {
    // Pit 1 is empty: it must not play the first listed move (`2ccw take 9`).
    let solo = session(&["games/gulek-solo.mancala", "--position", "2=4 5=3 9=2"], "moves\n1\n#2\nquit\n");
    insta::assert_snapshot!("numbered_solo", solo);
    // Pit 9 holds one foreign ball; at the direction prompt a number is a pit, not the second direction.
    let position = "1=RR 2=RB 9=B 5=BB centre=R*17 B*16 to_move=1 phase=playing";
    let gulek = session(&["games/gulek.mancala", "--human", "2", "--position", position], "9\n2\n2\nmoves\n#1\nquit\n");
    insta::assert_snapshot!("numbered_gulek", gulek);
    // The short game's "next pit" prompt: `2` is pit 2, not the second choice.
    let short = session(&["games/gulek.mancala", "--variant", "short", "--human", "2"], "3\n2\nquit\n");
    assert!(short.contains("played 2,3"), "{short}");
}

/// Pit labels that are also short forms of commands (`h` on rows of eight) are moves; the commands keep
/// their full names (issue 8, item 11).
#[test]
fn a_pit_label_wins_over_a_short_command() {
    let eight = format!("{}/tests/data/repl/kalah-eight.mancala", env!("CARGO_MANIFEST_DIR"));
    let out = session(&[&eight, "--human", "2"], "h\nh\nH\nu\nhelp\nundo\nquit\n");
    insta::assert_snapshot!(out);
}

/// A whole ply typed without its optional `then may take` asks for it; `take none` declines at once
/// (issue 8, item 16).
#[test]
fn an_optional_take_not_typed_is_asked_for() {
    let out = session(
        &["games/gulek-solo.mancala", "--position", "2=4 9=2 13=2"],
        "2ccw\nstop\nundo\n2ccw take none\nundo\n2ccw\n9\nquit\n",
    );
    insta::assert_snapshot!(out);
}

// ---------------------------------------------------------------- history, saving and loading

/// `redo` in the middle of a turn is refused, and the game saved afterwards loads (issue 8, item 17).
#[test]
fn redo_only_at_the_start_of_a_ply_and_a_save_always_loads() {
    let dir = temp_dir("redo");
    let perlen = format!("{}/games/perlen.mancala", env!("CARGO_MANIFEST_DIR"));
    let script = "moves\n#1\nundo\nb\nredo\n#1\n#1\nsave game.json\nload game.json\nquit\n";
    let out = session_in(&dir, &[&perlen, "--human", "2"], script);
    assert!(out.contains("error: a turn is in progress: finish it, or `cancel` it and then `redo`"), "{out}");
    assert!(out.contains("loaded game.json (2 plies)"), "{out}");
    assert!(!out.contains("replayed"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save holds a hash of what the rules mean: a comment added to the rule file does not stop it loading,
/// a changed rule does (issue 8, item 17).
#[test]
fn a_save_loads_after_a_comment_is_added_to_its_rules() {
    let dir = temp_dir("hash");
    let kalah = std::fs::read_to_string(format!("{}/games/kalah.mancala", env!("CARGO_MANIFEST_DIR"))).expect("kalah");
    std::fs::write(dir.join("kalah.mancala"), &kalah).expect("write");
    std::fs::write(dir.join("commented.mancala"), format!("# A comment, and a blank line.\n\n{kalah}")).expect("write");
    std::fs::write(dir.join("changed.mancala"), kalah.replace("every pit: 4", "every pit: 5")).expect("write");
    let saved = session_in(&dir, &["kalah.mancala", "--human", "2"], "c\nsave game.json\nquit\n");
    assert!(saved.contains("saved to game.json"), "{saved}");
    let commented = session_in(&dir, &["commented.mancala", "--human", "2"], "load game.json\nquit\n");
    assert!(commented.contains("loaded game.json (1 ply)"), "{commented}");
    let changed = session_in(&dir, &["changed.mancala", "--human", "2"], "load game.json\nquit\n");
    assert!(changed.contains("error: game.json was saved with other rules than changed.mancala"), "{changed}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A save file with a byte order mark loads (issue 12, item 7).
#[test]
fn a_save_with_a_byte_order_mark_loads() {
    let dir = temp_dir("bom");
    let kalah = format!("{}/games/kalah.mancala", env!("CARGO_MANIFEST_DIR"));
    let saved = session_in(&dir, &[&kalah, "--human", "2"], "c\nsave game.json\nquit\n");
    assert!(saved.contains("saved to game.json"), "{saved}");
    let text = std::fs::read_to_string(dir.join("game.json")).expect("saved");
    std::fs::write(dir.join("bom.json"), format!("\u{feff}{text}")).expect("write");
    let loaded = session_in(&dir, &[&kalah, "--human", "2"], "load bom.json\nquit\n");
    assert!(loaded.contains("loaded bom.json (1 ply)"), "{loaded}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `load` reads no more than its limit, refuses a larger file (an endless device too) and keeps the game
/// in progress (issue 12, item 4).
#[test]
fn a_bad_load_keeps_the_game_in_progress() {
    let dir = temp_dir("large");
    let kalah = format!("{}/games/kalah.mancala", env!("CARGO_MANIFEST_DIR"));
    std::fs::write(dir.join("large.json"), vec![b' '; 5 << 20]).expect("write");
    let mut script = String::from("c\nload large.json\n");
    if cfg!(unix) {
        script.push_str("load /dev/zero\n");
    }
    script.push_str("load missing.json\nundo\nquit\n");
    let out = session_in(&dir, &[&kalah, "--human", "2"], &script);
    assert!(out.contains("error: large.json is larger than the limit of 4.0 MiB, too large for a saved game"), "{out}");
    if cfg!(unix) {
        assert!(out.contains("error: cannot read /dev/zero: it is a device, not a regular file"), "{out}");
    }
    assert!(out.contains("error: cannot read missing.json"), "{out}");
    assert!(out.contains("took back c"), "the game was kept: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("mancala-repl-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

// ---------------------------------------------------------------- the session as a library

fn engine(game: &str, variant: Option<&str>) -> (mancala::engine::Engine, String) {
    let path = format!("{}/games/{game}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).expect("game");
    (mancala::compile(&source, variant, None).expect("compiles"), source)
}

fn run(session: &mut mancala::session::Session, line: &str) -> String {
    match session.parse_command(line).and_then(|c| session.execute(c)) {
        Ok(out) => format!("{}{}", out.text, if out.quit { " [quit]" } else { "" }),
        Err(e) => format!("error: {e}"),
    }
}

/// On a terminal, `new` and `quit` ask before dropping a game in progress; typing them again, or `quit!`,
/// goes ahead (issue 8, item 17). Scripts are not asked.
#[test]
fn new_and_quit_ask_before_dropping_a_game() {
    use mancala::session::{Seat, Session};
    let (kalah, source) = engine("kalah.mancala", None);
    let mut s = Session::new(kalah, "kalah.mancala", &source, vec![Seat::Human, Seat::Human], 1).expect("session");
    s.set_confirm_drops(true);
    assert_eq!(run(&mut s, "quit"), " [quit]", "nothing to lose yet");
    run(&mut s, "c");
    assert!(run(&mut s, "quit").starts_with("the game in progress will be lost: type `quit` again"));
    assert_eq!(run(&mut s, "quit"), " [quit]");
    assert!(run(&mut s, "new").starts_with("the game in progress will be lost: type `new` again"));
    run(&mut s, "show");
    assert!(run(&mut s, "new").starts_with("the game in progress will be lost"), "asked again after another command");
    assert_eq!(run(&mut s, "new"), "new game");
    run(&mut s, "c");
    assert_eq!(run(&mut s, "quit!"), " [quit]");
    s.set_confirm_drops(false);
    assert_eq!(run(&mut s, "quit"), " [quit]");
}

/// A solitaire's hint that cannot finish its search within its limits still names a move: the one whose
/// line comes closest to the goal (issue 8, item 15; issue 12, item 11).
#[test]
fn a_hint_that_gives_up_names_the_most_promising_move() {
    use mancala::session::{HintLimits, Seat, Session};
    use mancala::solve::SolveOptions;
    // Gulek Solo's V1 needs some 2,000 positions before its first win.
    let (solo, source) = engine("gulek-solo.mancala", Some("v1"));
    let mut s = Session::new(solo, "gulek-solo.mancala", &source, vec![Seat::Human], 1).expect("session");
    let limits =
        HintLimits { search: SolveOptions { max_states: 500, ..SolveOptions::default() }, ..HintLimits::default() };
    s.set_hint_limits(limits);
    let lines = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let seen = lines.clone();
    s.set_progress(Box::new(move |_| {
        seen.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }));
    let hint = run(&mut s, "hint");
    assert!(
        hint.starts_with(
            "no win found yet: the search stopped after 500 positions, as the limit of 500 positions was reached; \
             the most promising move found is "
        ),
        "{hint}"
    );
    let memory =
        HintLimits { search: SolveOptions { max_bytes: 16 << 10, ..SolveOptions::default() }, ..HintLimits::default() };
    s.set_hint_limits(memory);
    let hint = run(&mut s, "hint");
    assert!(hint.contains("as the limit of 16 KiB of memory was reached; the most promising move found is "), "{hint}");
    // The move named plays.
    let ply = hint.split("found is ").nth(1).and_then(|r| r.split(" (").next()).expect("a move");
    assert!(run(&mut s, ply).starts_with("you played"), "{ply}");
}

/// `mancala solve` says which bound stopped it (issue 12, item 11).
#[test]
fn solve_says_when_its_memory_bound_stops_it() {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["solve", "games/gulek-single.mancala", "--max-memory", "4", "--shortest"])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    // A win is found at once; the search for a shorter one fills the memory.
    assert!(text.starts_with("a win in"), "{text}");
    assert!(text.contains("(not proven shortest)"), "{text}");
    assert!(
        text.contains(
            "the search for a shorter line stopped: the limit of 4 MiB of memory was reached (raise --max-memory)"
        ),
        "{text}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["solve", "games/gulek-solo.mancala", "--variant", "v1", "--max-states", "100"])
        .output()
        .expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(
        text.contains("unknown: gave up, as the limit of 100 positions was reached (raise --max-states)"),
        "{text}"
    );
}

/// `play --help` says how long the computer thinks: per decision, not per move (issue 8, item 18).
#[test]
fn play_help_says_the_computer_thinks_per_decision() {
    let out = Command::new(env!("CARGO_BIN_EXE_mancala")).args(["play", "--help"]).output().expect("the binary runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("It thinks about a second\nper decision"), "{text}");
    assert!(!text.contains("a second a move"), "{text}");
}

// ---------------------------------------------------------------- questions in the game's words (issue 24)

const BAO_SAFARI: &str = "i3=1 i5=6 I6=5 I1=1 ghala(1)=5 ghala(2)=5 nyumba(1)=i5 phase=namua";

/// Bao's safari and Toguz's tuzdyk are asked in the games' own words, with the `///` sentence of the rule;
/// `yes`, `no` and the words answer; a direction names the next pit each way; the pit alone starts an entry.
#[test]
fn mid_move_questions_are_asked_in_the_games_words() {
    // `stop` and `no` decline the safari, `yes` and `safari` make it; `i6` alone is the entry `takasa i6`.
    let bao = session(
        &["games/bao-la-kiswahili.mancala", "--human", "2", "--position", BAO_SAFARI],
        "i3\ncw\nstop\nundo\ni3cw\nyes\nhistory\nquit\n",
    );
    insta::assert_snapshot!("bao_safari", bao);
    let entry = session(&["games/bao-la-kiswahili.mancala", "--human", "2"], "i6\nccw\nquit\n");
    assert!(entry.contains("player 1, direction from i6: ccw (towards i5) or cw (towards i7)> ccw"), "{entry}");
    assert!(
        entry.contains("played takasa i6ccw: put 1 from player 1's ghala into i6, then sowed 3 from i6"),
        "{entry}"
    );
    let toguz = session(
        &[
            "games/toguz-kumalak.mancala",
            "--variant",
            "tuzdyk-optional",
            "--human",
            "2",
            "--position",
            "h5 C2 D1 to_move=1",
        ],
        "h\nmaybe\nno\nundo\nh\ntuzdyk\nquit\n",
    );
    insta::assert_snapshot!("toguz_tuzdyk", toguz);
}

/// Commands get "did you mean", `history` lists who played what, the other side's pit is named as his,
/// a second word after a Kalah pit says what a move here is (no other game's grammar), and `hint` says the
/// same thing for the same position, with a reason, at a level.
#[test]
fn commands_hints_and_refusals_in_plain_words() {
    let script = "c d\nmvoes\nA\nhistory\nhint\nhint\nhint hard\nhint expert\nc\nf\nhistory\nquit\n";
    let out = session(&["games/kalah.mancala", "--ai", "2=random"], script);
    assert!(out.contains("error: unexpected `d`: a move here is one pit (type one move at a time)"), "{out}");
    assert!(!out.contains("x PLACE KIND"), "{out}");
    assert!(out.contains("error: `mvoes` is neither a move nor a command (did you mean `moves`?)"), "{out}");
    assert!(out.contains("error: pit A is not yours: it is computer's"), "{out}");
    assert!(out.contains("no move has been played yet"), "{out}");
    let hints: Vec<&str> = out.lines().filter(|l| l.starts_with("hint (normal): ")).collect();
    assert_eq!(hints.len(), 2, "{out}");
    assert_eq!(hints[0], hints[1], "the same position, the same hint");
    assert!(hints[0].contains(" — sowed "), "a reason in words: {}", hints[0]);
    assert!(out.contains("hint (hard): "), "{out}");
    assert!(out.contains("error: `hint expert`: the levels are easy, normal and hard"), "{out}");
    assert!(out.contains("  1. you: c\n  2. you: f\n  3. computer: "), "{out}");
}

/// `explain` tells the last ply step by step with the rule of each step (`explain N`, ply N), in the seats'
/// names; before any ply, or past the last, it says why it cannot.
#[test]
fn explain_tells_the_last_ply_with_its_rules() {
    let out = session(&["games/kalah.mancala", "--human", "2"], "explain\nc\nf\nexplain\nwhy 1\nexplain 3\nquit!\n");
    assert!(out.contains("error: no move has been played yet: `explain` tells a move played"), "{out}");
    assert!(
        out.contains("ply f by player 1:\n  1. lift 5 from f (line 19: from pits(mover) where count > 0)\n"),
        "{out}"
    );
    assert!(out.contains("ply c by player 1:\n  1. lift 4 from c (line 19: "), "{out}");
    assert!(out.contains("player 1 moves again (line 26: again when last = store(mover))"), "{out}");
    assert!(out.contains("error: no move 3: 2 moves have been played (`history` lists them)"), "{out}");
    // Bao's safari, in the file's words and with its `///` sentence.
    let bao = session(
        &["games/bao-la-kiswahili.mancala", "--human", "2", "--position", BAO_SAFARI],
        "i3cw\nsafari\nexplain\nquit!\n",
    );
    assert!(bao.contains("ply i3cw safari by player 1:"), "{bao}");
    assert!(bao.contains("relay may as \"safari\" or \"stop\""), "{bao}");
}

/// A move cut as never ending (ENGINE-1; 475 laps here) is told in one short line: the first relays
/// named, the rest counted, and the cut (issue 21 §3; before, every lap was named).
#[test]
fn a_never_ending_move_is_told_in_one_short_line() {
    let position = "o1=1 o2=2 o3=3 o4=2 o5=1 o6=4 o8=1 i2=5 i3=4 i5=5 i7=1 i8=2 \
                    O1=3 O3=4 O4=1 O5=4 O7=1 O8=1 I1=1 I5=7 I6=10 I8=1 phase=mtaji";
    let args = ["games/bao-la-kiswahili.mancala", "--variant", "kujifunza", "--human", "2", "--position", position];
    let out = session(&args, "takasa i3cw\nquit!\n");
    let told = out.lines().find(|l| l.contains("played takasa i3cw")).expect("the ply is told");
    assert!(
        told.ends_with("and 462 more, ending in i5; the move would never end: it was cut after 475 laps"),
        "{told}"
    );
    assert!(told.len() < 300, "one short line: {} bytes", told.len());
}

/// `position` prints the game's position as `--position` reads it: started from, it is the same game; in the
/// middle of a turn, it is the turn's start.
#[test]
fn position_prints_what_a_game_can_start_from() {
    use mancala::session::{Seat, Session};
    let (kalah, source) = engine("kalah.mancala", None);
    let mut s = Session::new(kalah, "kalah.mancala", &source, vec![Seat::Human, Seat::Human], 1).expect("session");
    for ply in ["c", "d", "A"] {
        run(&mut s, ply);
    }
    let printed = run(&mut s, "position");
    let text = printed.strip_prefix("position: ").unwrap_or_else(|| panic!("{printed}"));
    let (kalah, _) = engine("kalah.mancala", None);
    let read = mancala::notation::parse_position(&kalah, text).expect("reads back");
    assert_eq!(mancala::notation::format_position(&kalah, &read), text);
    assert!(text.contains("to_move=1") && text.contains("store(1)=2"), "{text}");

    let (gulek, source) = engine("gulek.mancala", None);
    let mut s = Session::new(gulek, "gulek.mancala", &source, vec![Seat::Human, Seat::Human], 1).expect("session");
    s.start_from("1=B 7=RRB phase=playing to_move=1").expect("position");
    run(&mut s, "7");
    let printed = run(&mut s, "position");
    assert!(printed.starts_with("position at the start of this turn: ") && printed.contains("7=RRB"), "{printed}");
    assert_eq!(run(&mut s, "position 3"), "error: `position` takes no argument");
}

/// Gulek's piece prompt takes a whole order at once (`RBR`), all or nothing.
#[test]
fn a_whole_piece_order_at_the_piece_prompt() {
    use mancala::session::{Seat, Session};
    let (gulek, source) = engine("gulek.mancala", None);
    let mut s = Session::new(gulek, "gulek.mancala", &source, vec![Seat::Human, Seat::Human], 1).expect("session");
    s.start_from("1=B 7=RRB phase=playing to_move=1").expect("position");
    run(&mut s, "7");
    run(&mut s, "cw");
    // RRB would leave the own colour last but one: refused, and nothing chosen.
    let refused = run(&mut s, "RRB");
    assert!(refused.starts_with("error: `RRB`: piece 2 cannot be R"), "refused whole: {refused}");
    assert!(s.in_turn());
    let played = run(&mut s, "rbr");
    assert!(played.contains("played 7cw:RBR: sowed 2 red and 1 blue from 7"), "lower case, a whole order: {played}");
}

/// On a terminal (a pty through `script`): what is said is wrapped to its width, the board has colour, and
/// the pit chosen is marked while the move waits for a decision.
#[test]
fn a_terminal_gets_wrapped_text_colour_and_the_pit_marked() {
    let command = format!(
        "stty cols 60 rows 60; {} play games/bao-la-kiswahili.mancala --human 2 --position '{BAO_SAFARI}'",
        env!("CARGO_BIN_EXE_mancala")
    );
    let Some(mut child) = on_a_pty(&command, true) else { return };
    let mut stdin = child.stdin.take().expect("stdin");
    // A line at a time, as a person types, so that the line editor reads each at its prompt.
    for line in ["i3", "cw", "help", "safari", "quit"] {
        std::thread::sleep(std::time::Duration::from_millis(700));
        stdin.write_all(format!("{line}\r").as_bytes()).expect("typed");
        stdin.flush().expect("flushed");
    }
    std::thread::sleep(std::time::Duration::from_millis(700));
    drop(stdin);
    let out = child.wait_with_output().expect("the session ends");
    let raw = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(raw.contains("\u{1b}[31mplayer 1\u{1b}[0m"), "the seat in colour: {raw}");
    assert!(raw.contains("\u{1b}[1;4m1\u{1b}[0m*"), "the pit chosen, marked in colour: {raw}");
    let plain = strip_escapes(&raw);
    // The help's and the narration's lines fit in 60 columns; the help hangs under its second column.
    let said: Vec<&str> = plain.lines().filter(|l| !l.contains("   0 ") && !l.starts_with("player 1")).collect();
    for line in &said {
        assert!(line.chars().count() <= 60, "wider than the terminal: {line:?}\n{plain}");
    }
    assert!(
        plain.contains("  undo, redo     take back your last move (and the\n                 computer's replies)"),
        "{plain}"
    );
    assert!(plain.contains("             0    0    1*   0    6"), "i3 marked while the move waits: {plain}");
    assert!(plain.contains("Safari: a lap that ends in your functional nyumba stops\nthere,"), "{plain}");
    assert!(plain.contains("played i3cw safari: put 1 from player 1's ghala into i3;"), "{plain}");
}

/// Lines typed ahead on a terminal (a paste of moves, or fast typing) are each read at their prompt, none
/// dropped. Before, the line editor read them all at its first prompt and dropped all but the first.
#[test]
fn lines_typed_ahead_on_a_terminal_are_each_played() {
    let command = format!("{} play games/kalah.mancala --human 2", env!("CARGO_BIN_EXE_mancala"));
    let Some(mut child) = on_a_pty(&command, false) else { return };
    let mut stdin = child.stdin.take().expect("stdin");
    std::thread::sleep(std::time::Duration::from_millis(700));
    // One write: the terminal hands the editor all of it at once.
    stdin.write_all(b"c\rd\rA\rquit\r").expect("typed");
    stdin.flush().expect("flushed");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    drop(stdin);
    let out = child.wait_with_output().expect("the session ends");
    let plain = strip_escapes(&String::from_utf8_lossy(&out.stdout));
    for played in ["player 1 played c:", "player 1 played d:", "player 2 played A:"] {
        assert!(plain.contains(played), "{played:?} missing: {plain}");
    }
}

/// `command` run on a pty (through `script`), with or without colour; `None`, said, where there is no
/// `script`.
fn on_a_pty(command: &str, colour: bool) -> Option<std::process::Child> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!("skipped: no `script` to run the REPL on a pty");
        return None;
    }
    let mut script = Command::new("script");
    script.args(["-qfec", command, "/dev/null"]).current_dir(env!("CARGO_MANIFEST_DIR")).env("TERM", "xterm");
    if colour {
        script.env_remove("NO_COLOR");
    } else {
        script.env("NO_COLOR", "1");
    }
    Some(script.stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().expect("script runs"))
}

/// Text without ANSI escapes and carriage returns.
fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\u{1b}' => {
                if chars.peek() == Some(&'[') {
                    chars.next();
                    while let Some(&n) = chars.peek() {
                        chars.next();
                        if n.is_ascii_alphabetic() {
                            break;
                        }
                    }
                }
            }
            '\r' => {}
            c => out.push(c),
        }
    }
    out
}

#[test]
fn the_opponent_answers_in_the_middle_of_a_move() {
    let position = "o3=2 i4=1 I1=2 O1=1 O3=2";
    // A person declines his capture; the computer, answering, lets it be.
    let answering = "tests/data/family/answering.mancala";
    let person_moves = session(&[answering, "--ai", "2=greedy", "--position", position], "o3\n-x\nquit!\n");
    // The computer moves; a person answers it.
    let answered = "tests/data/family/answered.mancala";
    let person_answers =
        session(&[answered, "--ai", "1=greedy", "--human", "2", "--position", position], "moves\nanswer\nquit!\n");
    // Two people at one keyboard: the second answers the first's move.
    let two_people = session(&[answering, "--human", "2", "--position", position], "o3 -x\n-answer\nquit!\n");
    // A person moves; the computer answers from a pit it chooses ("computer to answer your move").
    let chosen = "tests/data/reference/answer-from-a-chosen-pit.mancala";
    let from_a_pit = session(&[chosen, "--ai", "2=greedy", "--position", "d=2 A=1 B=1 C=2"], "d\nquit!\n");
    insta::assert_snapshot!(format!("{person_moves}\n{person_answers}\n{two_people}\n{from_a_pit}"));
}

// ---------------------------------------------------------------- saves that hold (issue 23)

/// `mancala play ARGS` in `dir` with SCRIPT as its input, started by `sh` after `setup` (`ulimit -f 1`);
/// its output and exit code (`None` when a signal ended it).
#[cfg(unix)]
fn session_under(dir: &std::path::Path, setup: &str, args: &[&str], script: &str) -> (String, Option<i32>) {
    let mut child = Command::new("sh")
        .current_dir(dir)
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" play \"$@\""))
        .arg(env!("CARGO_BIN_EXE_mancala"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("script written");
    let out = child.wait_with_output().expect("the session ends");
    let text = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    (text, out.status.code())
}

/// A game of Kalah between two computers (of a seed), saved to `save.json` in `dir`; the file's text.
#[cfg(unix)]
fn saved_game(dir: &std::path::Path, seed: &str) -> String {
    let args = ["kalah", "--ai", "1=greedy", "--ai", "2=greedy", "--seed", seed];
    let (out, code) = session_under(dir, "true", &args, "save save.json\nquit!\n");
    assert_eq!(code, Some(0), "{out}");
    std::fs::read_to_string(dir.join("save.json")).unwrap()
}

/// A save that cannot be written whole (the file size limit stands for a full disk: writes past it fail
/// as they would there) keeps the file that was there and the game, and says so; killed midway (the same
/// limit's signal kills the process as it writes), it keeps the file too. Before, the file was truncated
/// first and rewritten in place.
#[cfg(unix)]
#[test]
fn a_save_that_fails_midway_keeps_the_file_that_was_there() {
    let dir = temp_dir("save-fails");
    let old = saved_game(&dir, "1");
    assert!(old.len() < 512, "the old save is smaller than the limit: {}", old.len());
    // Another game, whose save is larger than 512 bytes (one block of `ulimit -f`, 512 or 1024 bytes).
    let args = ["kalah", "--ai", "1=greedy", "--ai", "2=random", "--seed", "2"];
    let script = "save save.json\nundo\nquit!\n";
    let (out, code) = session_under(&dir, "trap '' XFSZ; ulimit -f 1", &args, script);
    assert!(out.contains("error: cannot save to save.json: file too large; save.json is as it was"), "{out}");
    assert!(out.contains("took back"), "the game goes on: {out}");
    assert_eq!(code, Some(0), "{out}");
    assert_eq!(std::fs::read_to_string(dir.join("save.json")).unwrap(), old);

    let (out, code) = session_under(&dir, "ulimit -f 1", &args, script);
    assert_eq!(code, None, "killed as it wrote past the limit: {out}");
    assert_eq!(std::fs::read_to_string(dir.join("save.json")).unwrap(), old);
    let _ = std::fs::remove_dir_all(&dir);
}

/// On a full disk (a small tmpfs, where this test may mount one: as root) a save fails, and the file
/// that was there is whole.
#[cfg(target_os = "linux")]
#[test]
fn a_save_on_a_full_disk_keeps_the_file_that_was_there() {
    let dir = temp_dir("full-disk");
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=16k", "tmpfs"])
        .arg(&dir)
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !mounted {
        // Not root: `a_save_that_fails_midway_keeps_the_file_that_was_there` stands for a full disk.
        eprintln!("no tmpfs could be mounted: the full disk is not tried");
        return;
    }
    let old = saved_game(&dir, "1");
    // Fill the disk.
    let mut filler = std::fs::File::create(dir.join("filler")).unwrap();
    while filler.write_all(&[0; 512]).is_ok() {}
    let args = ["kalah", "--ai", "1=greedy", "--ai", "2=random", "--seed", "2"];
    let (out, _) = session_under(&dir, "true", &args, "save save.json\nquit!\n");
    let kept = std::fs::read_to_string(dir.join("save.json"));
    let _ = Command::new("umount").arg(&dir).status();
    assert!(out.contains("error: cannot save to save.json: no space left on device; save.json is as it was"), "{out}");
    assert_eq!(kept.unwrap(), old);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `load` of a FIFO is refused at once, and the game goes on (before, it waited for a writer for ever).
#[cfg(unix)]
#[test]
fn load_refuses_a_fifo_at_once() {
    let dir = temp_dir("fifo");
    let _ = std::fs::remove_file(dir.join("pipe.json"));
    assert!(Command::new("mkfifo").arg(dir.join("pipe.json")).status().unwrap().success());
    let kalah = format!("{}/games/kalah.mancala", env!("CARGO_MANIFEST_DIR"));
    let out = session_in(&dir, &[&kalah, "--human", "2"], "c\nload pipe.json\nundo\nquit!\n");
    assert!(out.contains("error: cannot read pipe.json: it is a FIFO, not a regular file"), "{out}");
    assert!(out.contains("took back c"), "the game was kept: {out}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// After a mistake, a solitaire's hint says so and names the last ply played from a position that could
/// still be won (issue 32).
#[test]
fn a_hint_after_a_mistake_names_the_last_winnable_position() {
    use mancala::session::{Seat, Session};
    use mancala::solve::{solve, Verdict};
    let (solo, source) = engine("gulek-solo.mancala", Some("v1"));
    // A ply from (5, _, _, _, _, 3) after which no line wins: found by the solver itself.
    let start = mancala::notation::parse_position(&solo, "1=5 6=3").expect("a position");
    let after = |moves: &[mancala::engine::Move]| {
        let mut st = start.clone();
        moves.iter().for_each(|&mv| solo.apply_unchecked(&mut st, mv));
        st
    };
    let losing = mancala::notation::enumerate_plies(&solo, &start, 100)
        .plies
        .into_iter()
        .find(|moves| solve(&solo, &after(moves), 1_000_000).verdict == Verdict::Unsolvable)
        .map(|moves| mancala::notation::format_ply(&solo, &start, &moves))
        .expect("a ply that loses");
    let mut s = Session::new(solo, "gulek-solo.mancala", &source, vec![Seat::Human], 1).expect("session");
    s.start_from("1=5 6=3").expect("the position");
    assert!(run(&mut s, "hint").starts_with("play "));
    assert!(run(&mut s, &losing).starts_with("you played"), "{losing}");
    let hint = run(&mut s, "hint");
    assert!(hint.starts_with("no line wins from here"), "{hint}");
    assert!(hint.ends_with("the last winnable position was before ply 1 (`undo` goes back)"), "{hint}");
}
