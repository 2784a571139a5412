//! `explain`: a ply told step by step with the rules that made it, for every shipped game (a snapshot each:
//! the first ply of a seeded game, its first ply with a capture, and the ply that ended it), and the
//! account agrees with the game: the drops it tells are the pieces lifted.

use mancala::engine::{Engine, Move, State};
use mancala::explain::{explain, render, Explanation};
use mancala::playout::{draw, game_rng, Dice};

/// The most plies of a game looked through for the plies to tell.
const PLIES: u32 = 3000;

/// One ply of a random game: the position before it, its decisions, and the position after.
fn random_ply(engine: &Engine, st: &mut State, rng: &mut Dice) -> (State, Vec<Move>) {
    let before = st.clone();
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    while st.ply == before.ply && st.result.is_none() {
        legal.clear();
        engine.legal_moves(st, &mut legal);
        let mv = legal[draw(rng, legal.len())];
        engine.apply_unchecked(st, mv);
        moves.push(mv);
    }
    (before, moves)
}

fn has_step(e: &Explanation, step: &str) -> bool {
    e.steps.iter().any(|s| s.step == step)
}

/// The drops a lap tells are as many as the pieces it lifted (a lap is told as its lift, then its drops).
fn assert_drops_match_lifts(game: &str, e: &Explanation) {
    let lifted = |text: &str| text.split_whitespace().nth(1).and_then(|n| n.parse::<usize>().ok());
    let dropped = |text: &str| -> usize {
        text.split_whitespace().nth(1).and_then(|n| n.trim_end_matches(',').parse().ok()).unwrap_or_default()
    };
    for pair in e.steps.windows(2) {
        let n = match pair[0].step {
            "lift" => lifted(&pair[0].text),
            "relay" => pair[0].text.rsplit("lift ").next().and_then(|n| n.parse().ok()),
            _ => None,
        };
        if let (Some(n), "sow") = (n, pair[1].step) {
            assert!(dropped(&pair[1].text) <= n, "{game}, ply {}: {} then {}", e.ply, pair[0].text, pair[1].text);
        }
    }
}

#[test]
fn every_shipped_game_explains_its_plies() {
    for game in mancala::shipped::GAMES {
        let engine = mancala::compile(game.text, None, None).expect("a shipped game compiles");
        let mut rng = game_rng(22, 0);
        let mut st = engine.initial_state();
        let mut told = Vec::new();
        let mut capture_told = false;
        while st.result.is_none() && st.ply < PLIES {
            let (before, moves) = random_ply(&engine, &mut st, &mut rng);
            let e = explain(&engine, game.text, &before, &moves);
            // The traced engine plays the very same ply.
            let tracer = engine.clone().with_trace();
            let mut traced = before.clone();
            tracer.trace(&traced);
            moves.iter().for_each(|&mv| tracer.apply_unchecked(&mut traced, mv));
            assert_eq!((&traced.counts, &traced.result), (&st.counts, &st.result), "{}: ply {}", game.name, e.ply);
            assert!(!e.steps.is_empty(), "{}: ply {} tells nothing", game.name, e.ply);
            assert_drops_match_lifts(game.name, &e);
            let first = before.ply == 0;
            let capture = !capture_told && has_step(&e, "capture");
            if first || capture || st.result.is_some() {
                capture_told |= capture;
                told.push(format!("--- ply {}\n{}", before.ply + 1, render(&e)));
            }
        }
        insta::assert_snapshot!(format!("explain-{}", game.name), told.join("\n"));
    }
}

#[test]
fn the_json_form_names_each_step_and_rule() {
    let game = mancala::shipped::find("kalah").expect("kalah is shipped");
    let engine = mancala::compile(game.text, None, None).unwrap();
    let st = engine.initial_state();
    let moves = mancala::notation::parse_ply(&engine, &st, "c").unwrap();
    let json = serde_json::to_value(explain(&engine, game.text, &st, &moves)).unwrap();
    insta::assert_json_snapshot!(json);
}

#[test]
fn a_take_before_the_sowing_cites_its_own_line() {
    // The take's step names the `take { ... }` line, not the sowing's `from`, which the next step cites.
    let path = format!("{}/tests/data/reference/take-before-sowing.mancala", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    let engine = mancala::compile(&text, None, None).unwrap();
    let st = engine.initial_state();
    let moves = mancala::notation::parse_ply(&engine, &st, "steal A,bcw").unwrap();
    let told = render(&explain(&engine, &text, &st, &moves));
    let lines: Vec<&str> = told.lines().collect();
    assert!(lines[1].starts_with("  1. take at A") && lines[1].contains(": take { 1 from"), "{told}");
    assert!(lines[2].contains(": from pits(mover)"), "{told}");
}

/// The text of `explain` for the ply `ply` of the file `path` (from the crate's root) from `position`.
fn told_from_file(path: &str, position: &str, ply: &str) -> String {
    let text = std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    told(&text, position, ply)
}

fn told(text: &str, position: &str, ply: &str) -> String {
    let engine = mancala::compile(text, None, None).unwrap();
    let st = mancala::notation::parse_start_position(&engine, position).unwrap();
    let moves = mancala::notation::parse_ply(&engine, &st, ply).unwrap();
    render(&explain(&engine, text, &st, &moves))
}

#[test]
fn a_then_take_is_told_with_its_line() {
    // Lamlameta's only capture is a `then must take`: each pair taken, and where to.
    let t = told_from_file("tests/data/unseen/lamlameta.mancala", "a1 c3 K2 A2 C1 moves=3,3", "a");
    assert!(t.contains(". then take 2 from A and 2 from K to captured(1) (line 67: then must take from"), "{t}");
    // Gulek's parking, a `then may take` chosen pit by pit.
    let gulek = mancala::shipped::find("gulek-solo").unwrap();
    let t = told(gulek.text, "1=1 3=2 4=1 9=3", "3cw take 4");
    assert!(t.contains(". then take 2 from 4 to removed (line 20: then may take from pits where count = 2"), "{t}");
}

#[test]
fn a_then_mark_is_told_with_the_pits_it_marks() {
    let t = told_from_file("tests/data/unseen/lamlameta.mancala", "l2 A1 B23 moves=3,3", "l");
    assert!(t.contains(". then mark b, d, f, h, j and l as pair (line 70: then mark pits(mover) as pair"), "{t}");
}

#[test]
fn a_capture_that_marks_says_what_it_marked() {
    // Lamlameta's capture at every drop only marks the pit: it does not "take nothing".
    let t = told_from_file("tests/data/unseen/lamlameta.mancala", "l2 A1 B23 moves=3,3", "l");
    assert!(t.contains("  3. as a piece falls in A: capture: A becomes made (line 59:"), "{t}");
    assert!(!t.contains("takes nothing"), "{t}");
    // Toguz kumalak's capture takes and marks: both are told.
    let toguz = mancala::shipped::find("toguz-kumalak").unwrap();
    let t = told(toguz.text, "a10 A2 C5 moves=3,3", "a");
    assert!(t.contains("last in A: capture takes 3 from A to kazan(1); A becomes player 1's tuzdyk (line"), "{t}");
}

#[test]
fn a_wrapped_rule_is_quoted_whole() {
    // `mancala fmt` wraps Omweso's capture over two lines: its `and direction = ccw` is quoted too, so that
    // its two captures do not look the same.
    let omweso = mancala::shipped::find("omweso").unwrap();
    let t = told(omweso.text, "o7=2 i8=1 I1=2 O1=3 o1=2", "o7");
    assert!(
        t.contains("(line 48: capture when here in inner(mover) and before >= 1 and all facing(here)(count > 0) and direction = ccw)"),
        "{t}"
    );
    // A rule too long to quote whole ends with "…".
    let kalah = mancala::shipped::find("kalah").unwrap();
    let long = format!("count = 1{}", " and count(opposite) > 0".repeat(12));
    let text = kalah.text.replacen("count = 1 and count(opposite) > 0", &long, 1);
    let t = told(&text, "a1 f2 A1 E1 F1 store(1)=22 store(2)=20", "a");
    let quoted = t.lines().find(|l| l.contains("capture takes")).unwrap();
    assert!(quoted.ends_with(" and count(opposite) > 0…)"), "{quoted}");
    let rule = quoted.split_once("(line 23: ").unwrap().1;
    assert!(rule.chars().count() <= 241, "{quoted}");
}

#[test]
fn the_capture_and_relay_rules_that_did_not_hold_at_the_last_pit_are_listed() {
    // Why did it not capture? Each capture and relay rule of the sowing whose condition failed at the last
    // pit, in one short line with its line number.
    let kalah = mancala::shipped::find("kalah").unwrap();
    let t = told(kalah.text, "a4 A1 E1 F1", "a");
    assert!(
        t.contains("  3. last in e: capture tested: it does not hold (line 23: capture when here in pits(mover) and count = 1 and count(opposite) > 0)\n"),
        "{t}"
    );
    let t = told_from_file("tests/data/unseen/lamlameta.mancala", "a1 c3 K3 A2 C1 moves=3,3", "a");
    assert!(t.contains("  3. last in b: relay tested: it does not hold (line 64: relay when before > 0)\n"), "{t}");
    // Not where the rule held: a capture made is not listed as failing.
    let t = told(kalah.text, "a1 f2 A1 E1 F1 store(1)=22 store(2)=20", "a");
    assert!(!t.contains("does not hold (line 23"), "{t}");
}

#[test]
fn a_rounds_end_is_told_step_by_step_with_the_next_rounds_deal() {
    // South's last seed ends the round, not the game: the sweep is told with what it alone moved (North's
    // seeds into his store), then the round's result, each refill on its own line with what it dealt (back
    // out of the stores), and the next round's start. It used to say "the game ends" and tell sweep and
    // refill as one net move, in the wrong direction, under the sweep's line.
    let t = told_from_file("tests/data/rounds/match.mancala", "a0 b0 c1 A1 B1 C0 store(1)=5 store(2)=4 to_move=1", "c");
    let expected = "  3. end rule holds: the round ends (line 24: when any players(count(pits(player)) = 0))
  4. at the round's end, sweep 1 from A and 1 from B to store(2) (line 25: sweep pits to store(owner))
  5. round 1 is over: scores 6-6
  6. for the next round, refill 6 from store(1) and 6 from store(2) to a, b, c, A, B and C (line 29: refill pits(player) from store(player) with 2 backward else mark burnt)
  7. round 2 begins: player 2 moves first
";
    assert!(t.contains(expected), "{t}");
    assert!(!t.contains("the game ends"), "{t}");
}

#[test]
fn play_tells_a_rounds_sweep_and_the_next_rounds_deal_apart() {
    // The same ply as told in `play`: North's A and B are swept into his store, which the refill deals out
    // again (into A, B and C): the two partly undo each other, and neither was told before; what the refill
    // dealt was told as taken by the sowing.
    let path = format!("{}/tests/data/rounds/match.mancala", env!("CARGO_MANIFEST_DIR"));
    let engine = mancala::compile(&std::fs::read_to_string(path).unwrap(), None, None).unwrap();
    let before =
        mancala::notation::parse_start_position(&engine, "a0 b0 c1 A1 B1 C0 store(1)=5 store(2)=4 to_move=1").unwrap();
    let moves = mancala::notation::parse_ply(&engine, &before, "c").unwrap();
    let mut after = before.clone();
    for &mv in &moves {
        engine.apply(&mut after, mv).unwrap();
    }
    let names = vec!["player 1".to_string(), "player 2".to_string()];
    let told = mancala::narrate::ply(&engine, &before, &moves, &after, &names).text;
    assert!(
        told.starts_with(
            "sowed 1 from c, ending in store(1); at the round's end, swept 2 (1 each from A and B) to store(2); "
        ),
        "{told}"
    );
    assert!(
        told.contains("for the next round, dealt 2 from store(1) into each of a, b and c and 2 from store(2) into each of A, B and C"),
        "{told}"
    );
}
