//! Move and position notation: random games round-trip through `format_ply`/`parse_ply` and
//! `format_position`/`parse_position` for every shipped game and variant, plus hand-written examples and
//! error messages.

use mancala::engine::{EndReason, Engine, Move, Stage, State};
use mancala::ir::Dir;
use mancala::notation::{enumerate_plies, format_ply, format_position, parse_ply, parse_position};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

const GAMES: usize = 200;

/// A shipped game by name, or another rule file by its path without `.mancala` (`tests/data/...`).
fn source(name: &str) -> String {
    let path = if name.contains('/') {
        format!("{}/{name}.mancala", env!("CARGO_MANIFEST_DIR"))
    } else {
        format!("{}/games/{name}.mancala", env!("CARGO_MANIFEST_DIR"))
    };
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn engine(name: &str, variant: Option<&str>, players: Option<u8>) -> Engine {
    mancala::compile(&source(name), variant, players).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

fn variants(name: &str) -> Vec<String> {
    let file = mancala::syntax::parse(&source(name)).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    mancala::check::variant_names(&file)
}

fn seed(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x0100_0000_01b3))
}

fn place(engine: &Engine, label: &str) -> u16 {
    engine.rules.places.iter().position(|p| p.label == label).unwrap_or_else(|| panic!("no place {label}")) as u16
}

fn kind(engine: &Engine, symbol: &str) -> u8 {
    engine.rules.kinds.iter().position(|k| k.symbol == symbol).unwrap_or_else(|| panic!("no kind {symbol}")) as u8
}

fn legal_sorted(engine: &Engine, st: &State) -> Vec<Move> {
    let mut out = Vec::new();
    engine.legal_moves(st, &mut out);
    out.sort();
    out
}

/// The position round-trips through its text (board, owners, mover, phase, eliminations, offer, legal moves)
/// and through its JSON (exactly).
fn check_position(engine: &Engine, st: &State, what: &str) {
    check_text_position(engine, st, what);
    let json = serde_json::to_string(st).expect("a state serializes");
    let back = parse_position(engine, &json).unwrap_or_else(|e| panic!("{what}: JSON does not parse: {e}"));
    assert_eq!(&back, st, "{what}: JSON");
}

/// The position round-trips through its text, as `--position` reads what the tool prints.
fn check_text_position(engine: &Engine, st: &State, what: &str) {
    let text = format_position(engine, st);
    let back = parse_position(engine, &text).unwrap_or_else(|e| panic!("{what}: `{text}` does not parse: {e}"));
    // The end rules judge a position read anew, as before a first ply: where a finished game ended on what the
    // text does not hold (its count of quiet rounds, its history), another rule may end it, putting out the
    // player to move first.
    let judged_anew = st.result.is_some() && back.eliminated != st.eliminated;
    assert_eq!(back.counts, st.counts, "{what}: board of `{text}`");
    assert_eq!(back.owner, st.owner, "{what}: owners of `{text}`");
    assert_eq!(back.phase, st.phase, "{what}: phase of `{text}`");
    assert_eq!(back.stage, st.stage, "{what}: stage of `{text}`");
    assert_eq!(back.offered, st.offered, "{what}: offer of `{text}`");
    if !judged_anew {
        assert_eq!(back.to_move, st.to_move, "{what}: mover of `{text}`");
        assert_eq!(back.eliminated, st.eliminated, "{what}: eliminated of `{text}`");
        assert_eq!(format_position(engine, &back), text, "{what}: printing again");
    }
    if st.result.is_none() {
        assert_eq!(back.result, None, "{what}: `{text}` is over when read back");
        assert_eq!(back.obliged, st.obliged, "{what}: obligation of `{text}`");
        assert_eq!(legal_sorted(engine, &back), legal_sorted(engine, st), "{what}: legal moves of `{text}`");
    }
}

/// Every enumerated ply is distinct and round-trips; the played ply is among them when the list is complete.
fn check_enumeration(engine: &Engine, st: &State, played: &[Move], what: &str) {
    const LIMIT: usize = 300;
    let found = enumerate_plies(engine, st, LIMIT);
    let plies = found.plies;
    assert!(!plies.is_empty(), "{what}: no plies");
    if plies.len() < LIMIT && !found.partial {
        assert!(plies.iter().any(|p| p == played), "{what}: the played ply {played:?} is not enumerated");
    }
    let mut texts = std::collections::HashSet::new();
    for ply in &plies {
        let text = format_ply(engine, st, ply);
        assert!(texts.insert(text.clone()), "{what}: `{text}` printed twice");
        let back = parse_ply(engine, st, &text).unwrap_or_else(|e| panic!("{what}: `{text}` does not parse: {e}"));
        assert_eq!(&back, ply, "{what}: `{text}`");
    }
}

/// Plays seeded random games, checking every ply and some positions.
fn round_trip(name: &str, players: Option<u8>, games: usize) {
    for variant in variants(name) {
        let engine = engine(name, Some(&variant), players);
        let mut rng = SmallRng::seed_from_u64(seed(&format!("{name}/{variant}/{players:?}")));
        let mut buf = Vec::new();
        let (mut plies, mut positions) = (0usize, 0usize);
        for game in 0..games {
            let mut st = engine.initial_state();
            while st.result.is_none() {
                let before = st.clone();
                let mut moves = Vec::new();
                while st.ply == before.ply && st.result.is_none() {
                    buf.clear();
                    engine.legal_moves(&st, &mut buf);
                    assert!(!buf.is_empty(), "{name}/{variant}: no legal move and no result");
                    let mv = buf[rng.gen_range(0..buf.len())];
                    engine.apply_unchecked(&mut st, mv);
                    moves.push(mv);
                }
                let what = format!("{name}/{variant} game {game} ply {}", before.ply);
                let text = format_ply(&engine, &before, &moves);
                let back = parse_ply(&engine, &before, &text)
                    .unwrap_or_else(|e| panic!("{what}: `{text}` does not parse: {e}"));
                assert_eq!(back, moves, "{what}: `{text}`");
                plies += 1;
                if before.ply.is_multiple_of(9) {
                    check_position(&engine, &before, &what);
                    positions += 1;
                }
                if game < 3 && before.ply.is_multiple_of(17) {
                    check_enumeration(&engine, &before, &moves, &what);
                }
            }
            let what = format!("{name}/{variant} game {game}: the end");
            if st.result.as_ref().is_some_and(|r| r.reason == EndReason::LastStanding) {
                // With one player left the game is over: no position to play from.
                let err = parse_position(&engine, &format_position(&engine, &st)).expect_err(&what);
                assert!(err.message.starts_with("only one player is left"), "{what}: {err}");
                let json = serde_json::to_string(&st).expect("a state serializes");
                assert_eq!(parse_position(&engine, &json).as_ref(), Ok(&st), "{what}: JSON");
            } else {
                check_position(&engine, &st, &what);
            }
        }
        eprintln!("{name}/{variant}: {games} games, {plies} plies, {positions} positions");
    }
}

#[test]
fn takes_before_the_sowing_round_trip() {
    // The pit taken from, then the pit sown from with its direction (`steal A,bcw`), and with `order choose`
    // the pieces of the pit sown from after the take (`grab a,a:RBR`).
    for stem in ["sowing", "must-capture", "direction-where", "else", "order-choose"] {
        round_trip(&format!("tests/data/reference/take-before-{stem}"), None, GAMES);
    }
}

#[test]
fn setup_marks_for_plies_round_trip() {
    // The start position of a setup with marks for one ply and for N plies is written as it is read.
    round_trip("tests/data/reference/setup-marks-for-plies", None, 20);
}

/// Every position of random games of every shipped game and variant is written so that `--position` reads
/// it back: the same board, marks, mover and legal moves, and the same text printed again.
#[test]
fn every_position_of_every_shipped_game_reads_back() {
    const GAMES_EACH: usize = 3;
    const MOST_PLIES: u32 = 300;
    let dir = format!("{}/games", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("games/")
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".mancala").map(str::to_string))
        .collect();
    names.sort();
    for name in names {
        for variant in variants(&name) {
            let engine = engine(&name, Some(&variant), None);
            let mut rng = SmallRng::seed_from_u64(seed(&format!("every/{name}/{variant}")));
            let mut buf = Vec::new();
            for game in 0..GAMES_EACH {
                let mut st = engine.initial_state();
                while st.result.is_none() && st.ply < MOST_PLIES {
                    if matches!(st.stage, Stage::Start | Stage::Respond) {
                        check_text_position(&engine, &st, &format!("{name}/{variant} game {game} ply {}", st.ply));
                    }
                    buf.clear();
                    engine.legal_moves(&st, &mut buf);
                    assert!(!buf.is_empty(), "{name}/{variant}: no legal move and no result");
                    let mv = buf[rng.gen_range(0..buf.len())];
                    engine.apply_unchecked(&mut st, mv);
                }
                // A finished game's position is judged anew when read (a match's round ends again, §14): it
                // need only read.
                if st.result.as_ref().is_some_and(|r| r.reason != EndReason::LastStanding) {
                    let text = format_position(&engine, &st);
                    if let Err(e) = parse_position(&engine, &text) {
                        panic!("{name}/{variant} game {game}: the end: `{text}` does not parse: {e}");
                    }
                }
            }
        }
    }
}

#[test]
fn kalah_round_trips() {
    round_trip("kalah", None, GAMES);
}

#[test]
fn oware_round_trips() {
    round_trip("oware", None, GAMES);
}

#[test]
fn gore_round_trips() {
    round_trip("gore", None, GAMES);
}

#[test]
fn perlen_round_trips() {
    round_trip("perlen", None, GAMES);
}

#[test]
fn gulek_round_trips() {
    round_trip("gulek", None, GAMES);
}

#[test]
fn gulek_three_players_round_trips() {
    round_trip("gulek", Some(3), 20);
}

#[test]
fn gulek_solo_round_trips() {
    round_trip("gulek-solo", None, GAMES);
}

#[test]
fn gulek_single_round_trips() {
    round_trip("gulek-single", None, GAMES);
}

// ---------------------------------------------------------------- hand-written examples

#[test]
fn kalah_examples() {
    let e = engine("kalah", None, None);
    let st = e.initial_state();
    assert_eq!(format_position(&e, &st), "a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4 store(1)=0 store(2)=0 to_move=1");
    let moves = parse_ply(&e, &st, "c").expect("c");
    assert_eq!(moves, vec![Move::Begin { action: 0, place: place(&e, "c") }]);
    assert_eq!(format_ply(&e, &st, &moves), "c");
    let mut next = st.clone();
    for &m in &moves {
        e.apply(&mut next, m).expect("legal");
    }
    // The last seed lands in the store: South moves again.
    assert_eq!(format_position(&e, &next), "a4 b4 c0 d5 e5 f5 A4 B4 C4 D4 E4 F4 store(1)=1 store(2)=0 to_move=1");
    assert_eq!(enumerate_plies(&e, &st, 100).plies.len(), 6);
    assert_eq!(enumerate_plies(&e, &st, 4).plies.len(), 4);

    // Positions: glued or with `=`, empty places left out, whitespace anywhere.
    let p = parse_position(&e, "  a=4 b4 store(1)=40 F1\tto_move=2 ").expect("position");
    assert_eq!(p.counts[place(&e, "a") as usize], 4);
    assert_eq!(p.counts[place(&e, "c") as usize], 0);
    assert_eq!(p.counts[place(&e, "store(1)") as usize], 40);
    assert_eq!(p.to_move, 1);
    assert_eq!(p.ply, 0);
    assert_eq!(p.stage, Stage::Start);
    assert_eq!(legal_sorted(&e, &p), vec![Move::Begin { action: 0, place: place(&e, "F") }]);
}

#[test]
fn gulek_examples() {
    let e = engine("gulek", None, None);
    let st = parse_position(&e, "7=RRB 8=B 3=BB 12=R phase=playing to_move=1").expect("position");
    assert_eq!(st.phase, 1);
    let (seven, r, b) = (place(&e, "7"), kind(&e, "R"), kind(&e, "B"));
    let expected = vec![Move::Begin { action: 0, place: seven }, Move::Direction(Dir::Cw), Move::Drop(r)];
    assert_eq!(parse_ply(&e, &st, "7cw:RBR").expect("every piece"), expected);
    assert_eq!(parse_ply(&e, &st, "7cw:R").expect("the chosen piece only"), expected);
    assert_eq!(parse_ply(&e, &st, "sow 7cw:rbr").expect("named, lower case"), expected);
    assert!(parse_ply(&e, &st, "7 cw:RBR").is_err());
    assert_eq!(format_ply(&e, &st, &expected), "7cw:RBR");
    let other = parse_ply(&e, &st, "7ccw:BRR").expect("blue first");
    assert_eq!(other, vec![Move::Begin { action: 0, place: seven }, Move::Direction(Dir::Ccw), Move::Drop(b)]);
    assert_eq!(format_ply(&e, &st, &other), "7ccw:BRR");
    // Red, blue, red, blue, ... every order with red last: RBR and BRR each way.
    let plies: Vec<String> = enumerate_plies(&e, &st, 100).plies.iter().map(|p| format_ply(&e, &st, p)).collect();
    assert_eq!(plies, ["7ccw:RBR", "7ccw:BRR", "7cw:RBR", "7cw:BRR"]);

    let err = parse_ply(&e, &st, "7cw:RRB").expect_err("blue last");
    assert!(err.to_string().starts_with("piece 2 cannot be R"), "{err}");
    let err = parse_ply(&e, &st, "7").expect_err("no direction");
    assert_eq!(err.to_string(), "choose a direction for 7; expected one of: 7ccw, 7cw");
    let err = parse_ply(&e, &st, "8cw").expect_err("no own ball");
    assert!(err.to_string().starts_with("you cannot sow from 8 here"), "{err}");
    let err = parse_ply(&e, &st, "7cw:RBRB").expect_err("too many");
    assert!(err.to_string().contains("too many piece symbols"), "{err}");

    // The placing phase: a put is just the pit; the short game puts two balls: `3,7`.
    let start = e.initial_state();
    assert_eq!(format_ply(&e, &start, &[Move::Begin { action: 0, place: place(&e, "4") }]), "4");
    let short = engine("gulek", Some("short"), None);
    let start = short.initial_state();
    let moves = parse_ply(&short, &start, "7,3").expect("two balls");
    assert_eq!(moves, vec![Move::Begin { action: 0, place: place(&e, "3") }, Move::Pick(place(&e, "7"))]);
    assert_eq!(format_ply(&short, &start, &moves), "3,7");
    assert_eq!(parse_ply(&short, &start, "5,5").expect("same pit twice").len(), 2);

    // Re-entering parked pairs: `enter 4,11`.
    // No `phase`: every ball is placed, so it is the playing phase.
    let st = parse_position(&e, "1=RB 2=B furrow(1)=R*4").expect("position");
    assert_eq!(st.phase, 1);
    let moves = parse_ply(&e, &st, "enter 4,11").expect("enter");
    assert_eq!(moves, vec![Move::Begin { action: 1, place: place(&e, "4") }, Move::Pick(place(&e, "11"))]);
    assert_eq!(format_ply(&e, &st, &moves), "enter 4,11");
    let one = parse_ply(&e, &st, "enter 4").expect("enter one");
    assert_eq!(one, vec![Move::Begin { action: 1, place: place(&e, "4") }, Move::Stop]);
    let err = parse_ply(&e, &st, "4").expect_err("sowing from an empty pit");
    assert_eq!(err.message, "pit 4 is empty (did you mean `enter 4`?)");
    assert_eq!(format_position(&e, &st).split(' ').find(|t| t.starts_with("furrow")), Some("furrow(1)=R*4"));
}

#[test]
fn gulek_solo_picks() {
    let e = engine("gulek-solo", None, None);
    let st = parse_position(&e, "1=2 5=2 9=3").expect("position");
    let (one, five, nine) = (place(&e, "1"), place(&e, "5"), place(&e, "9"));
    let base = vec![Move::Begin { action: 0, place: nine }, Move::Direction(Dir::Cw)];
    let both = [base.clone(), vec![Move::Pick(one), Move::Pick(five)]].concat();
    assert_eq!(parse_ply(&e, &st, "9cw take 1,5").expect("both"), both);
    assert_eq!(parse_ply(&e, &st, "9cw take 5,1").expect("any order"), both);
    assert_eq!(format_ply(&e, &st, &both), "9cw take 1,5");
    let none = [base.clone(), vec![Move::Stop]].concat();
    assert_eq!(parse_ply(&e, &st, "9cw").expect("none"), none);
    assert_eq!(format_ply(&e, &st, &none), "9cw");
    let err = parse_ply(&e, &st, "9cw take 9").expect_err("not a pair");
    assert!(
        err.to_string().starts_with("pit 9 cannot be taken (it is empty); expected one of: take 1, take 5"),
        "{err}"
    );
}

#[test]
fn perlen_examples() {
    let e = engine("perlen", None, None);
    // Freeling's `e250 x B5`: a stone lands on a lone stone in C, and South picks the gem to take.
    let st = parse_position(&e, "a=0 e=025 C=0 D=3 to_move=1").expect("position");
    let expected = vec![
        Move::Begin { action: 0, place: place(&e, "e") },
        Move::Drop(kind(&e, "2")),
        Move::Drop(kind(&e, "5")),
        Move::Take { place: place(&e, "B"), kind: kind(&e, "5") },
    ];
    assert_eq!(parse_ply(&e, &st, "e:250 x B5").expect("with colon"), expected);
    assert_eq!(parse_ply(&e, &st, "e250 x B5").expect("Freeling's glued form"), expected);
    assert_eq!(parse_ply(&e, &st, "e:25 x B5").expect("chosen pieces only"), expected);
    assert_eq!(format_ply(&e, &st, &expected), "e:250 x B5");
    let err = parse_ply(&e, &st, "e:250").expect_err("no capture");
    assert_eq!(err.to_string(), "a capture must be chosen; expected one of: x A2, x B5, x D3");
    let err = parse_ply(&e, &st, "e:250 x C5").expect_err("no such gem");
    assert!(err.to_string().starts_with("`C5` cannot be taken here"), "{err}");
    let err = parse_ply(&e, &st, "e:250 x B5 D3").expect_err("one gem only");
    assert!(err.to_string().contains("unexpected capture `x D3`"), "{err}");

    // Gems from the cup when the opponent's pits hold none: `x cup(2)3`, or Freeling's bare `x 3`.
    let st = parse_position(&e, "a=0 e=0 A=0 cup(2)=35 to_move=1").expect("position");
    let expected = vec![
        Move::Begin { action: 0, place: place(&e, "e") },
        Move::Take { place: place(&e, "cup(2)"), kind: kind(&e, "3") },
    ];
    assert_eq!(parse_ply(&e, &st, "e x cup(2)3").expect("cup"), expected);
    assert_eq!(parse_ply(&e, &st, "e x 3").expect("bare"), expected);
    assert_eq!(format_ply(&e, &st, &expected), "e:0 x cup(2)3");

    // Several kinds in one place: symbols glued, spread over tokens, or repeated.
    let st = parse_position(&e, "a=0 5 b05 cup(1)=1*3 5 to_move=2").expect("position");
    let a = place(&e, "a") as usize * e.kinds();
    assert_eq!(&st.counts[a..a + 6], &[1, 0, 0, 0, 0, 1]);
    let cup = place(&e, "cup(1)") as usize * e.kinds();
    assert_eq!(&st.counts[cup..cup + 6], &[0, 3, 0, 0, 0, 1]);
    let text = format_position(&e, &st);
    assert_eq!(text, "a=05 b=05 c=- d=- e=- A=- B=- C=- D=- E=- cup(1)=1*3 5 to_move=2");
    assert_eq!(parse_position(&e, &text).expect("again").counts, st.counts);
}

#[test]
fn perlen_captures_in_any_order() {
    // Two indirect captures (stones on lone stones in A and B): the gems taken form a set, in any order.
    let e = engine("perlen", None, None);
    let st =
        parse_position(&e, "a=00 b=00 c=00 e=00 A=0 B=0 C=33 D=55 cup(1)=1122 cup(2)=44 to_move=1").expect("position");
    let expected = vec![
        Move::Begin { action: 0, place: place(&e, "e") },
        Move::Take { place: place(&e, "C"), kind: kind(&e, "3") },
        Move::Take { place: place(&e, "D"), kind: kind(&e, "5") },
    ];
    assert_eq!(parse_ply(&e, &st, "e:00 x C3 D5").expect("board order"), expected);
    assert_eq!(parse_ply(&e, &st, "e:00 x D5 C3").expect("the other order"), expected);
    assert_eq!(format_ply(&e, &st, &expected), "e:00 x C3 D5");
    let err = parse_ply(&e, &st, "e:00 x D5 C3 C3").expect_err("three gems for two captures");
    assert!(err.to_string().contains("cannot be taken here"), "{err}");
}

#[test]
fn perlen_forced_picks_may_be_written() {
    // Four indirect captures: E4 is chosen, then E5 and E5 are the only gems left in North's pits (taken without
    // asking), then a gem from his cup. Freeling writes every pick; the chosen ones alone also do.
    let e = engine("perlen", None, None);
    let st = parse_position(&e, "a=00 b=00 e=0000 A=0 B=0 C=0 D=0 E=455 cup(1)=11223 cup(2)=34 to_move=1")
        .expect("position");
    let expected = vec![
        Move::Begin { action: 0, place: place(&e, "e") },
        Move::Take { place: place(&e, "E"), kind: kind(&e, "4") },
        Move::Take { place: place(&e, "cup(2)"), kind: kind(&e, "3") },
    ];
    assert_eq!(parse_ply(&e, &st, "e0000 x E4 E55 3").expect("every pick, Freeling's way"), expected);
    assert_eq!(parse_ply(&e, &st, "e:0000 x E4 cup(2)3").expect("the chosen picks"), expected);
    assert_eq!(parse_ply(&e, &st, "e x 3 E5 E4 E5").expect("any order"), expected);
    assert_eq!(format_ply(&e, &st, &expected), "e:0000 x E4 cup(2)3");
    let err = parse_ply(&e, &st, "e x E4 3 E555").expect_err("one 5 too many");
    assert!(err.to_string().starts_with("unexpected capture `x E555`"), "{err}");
    let err = parse_ply(&e, &st, "e x E4 3 D5").expect_err("D holds no gem");
    assert!(err.to_string().starts_with("unexpected capture `x D5`"), "{err}");
}

#[test]
fn gore_offer_and_accept() {
    let e = engine("gore", None, None);
    let st = parse_position(&e, "a6 b6 c6 d6 A6 B6 C6 D6 captured(2)=12 to_move=1").expect("position");
    let (c, d) = (place(&e, "c"), place(&e, "d"));
    let offer = parse_ply(&e, &st, "offer c,d").expect("offer");
    // Nothing can be added after d (a, b come before it): the offer ends by itself.
    assert_eq!(offer, vec![Move::Begin { action: 1, place: c }, Move::Pick(d)]);
    assert_eq!(format_ply(&e, &st, &offer), "offer c,d");
    let mut st = st;
    for &m in &offer {
        e.apply(&mut st, m).expect("legal");
    }
    assert_eq!(st.stage, Stage::Respond);
    let text = format_position(&e, &st);
    assert!(text.ends_with("to_move=2 offered=c,d"), "{text}");
    check_position(&e, &st, "Goré offer");
    let err = parse_ply(&e, &st, "A").expect_err("must answer");
    assert!(err.to_string().contains("expected one of: accept, decline"), "{err}");
    assert_eq!(parse_ply(&e, &st, "accept").expect("accept"), vec![Move::Accept]);
    assert_eq!(format_ply(&e, &st, &[Move::Accept]), "accept");
    e.apply(&mut st, Move::Accept).expect("legal");
    let text = format_position(&e, &st);
    assert!(text.contains("c12 d12"), "{text}");
    assert!(text.contains("owner(c)=2 owner(d)=2"), "{text}");
    let back = parse_position(&e, &text).expect("owners");
    assert_eq!(back.owner, st.owner);
    // One pit kept: at most three of four, and only while North could pay.
    let st = parse_position(&e, "a6 b6 c6 d6 A6 captured(2)=12 to_move=1").expect("position");
    let err = parse_ply(&e, &st, "offer a,b,c").expect_err("too dear");
    assert!(err.message.starts_with("more places must be chosen") || err.message.contains("cannot be added"), "{err}");
}

#[test]
fn error_messages() {
    let e = engine("kalah", None, None);
    let st = e.initial_state();
    let err = parse_ply(&e, &st, "z").expect_err("z");
    assert_eq!(err.to_string(), "`z` is not a pit; expected one of: a, b, c, d, e, f");
    let err = parse_ply(&e, &st, "A").expect_err("A");
    assert!(err.to_string().starts_with("pit A belongs to player 2; expected one of: a, b"), "{err}");
    let err = parse_ply(&e, &st, "").expect_err("nothing");
    assert!(err.to_string().starts_with("no move given; expected one of: a"), "{err}");
    let err = parse_ply(&e, &st, "c d").expect_err("two");
    assert!(err.to_string().starts_with("unexpected `d`"), "{err}");
    let err = parse_ply(&e, &st, "ccw").expect_err("c clockwise");
    assert_eq!(err.to_string(), "the direction of this sowing is fixed: ccw");
    assert_eq!(
        parse_ply(&e, &st, "cccw").expect("fixed direction written out"),
        vec![Move::Begin { action: 0, place: place(&e, "c") }]
    );
    let err = parse_ply(&e, &st, "ccw2").expect_err("bad");
    assert!(err.to_string().starts_with("`ccw2` is not a pit"), "{err}");
    let err = parse_ply(&e, &st, "c:o").expect_err("no order");
    assert!(err.to_string().contains("not chosen"), "{err}");
    let err = parse_ply(&e, &st, "pass").expect_err("no pass");
    assert!(err.to_string().starts_with("passing is not allowed here"), "{err}");
    let mut after = st.clone();
    e.apply(&mut after, Move::Begin { action: 0, place: place(&e, "c") }).expect("legal");
    let err = parse_ply(&e, &after, "c").expect_err("empty");
    assert!(err.to_string().starts_with("pit c is empty; expected one of: a, b, d, e, f"), "{err}");

    let err = parse_position(&e, "q4").expect_err("q");
    assert!(err.to_string().starts_with("`q4` is neither a place"), "{err}");
    let err = parse_position(&e, "q=4").expect_err("q");
    assert!(err.to_string().starts_with("`q` is not a place or a setting"), "{err}");
    let err = parse_position(&e, "a4 to_move=3").expect_err("player 3");
    assert!(err.to_string().starts_with("`3` is not a player for to_move: players are numbered 1 to 2"), "{err}");
    let err = parse_position(&e, "a=300").expect_err("too many");
    assert!(err.to_string().starts_with("this position holds 300 pieces, more than the 255"), "{err}");
    let err = parse_position(&e, "a=x").expect_err("not a number");
    assert!(err.to_string().starts_with("`x` is not a number of pieces for a"), "{err}");
    let err = parse_position(&e, "a4 a=5").expect_err("twice");
    assert_eq!(err.to_string(), "a is given twice");
    let err = parse_position(&e, "{\"counts\": 1}").expect_err("bad JSON");
    assert!(err.to_string().starts_with("the position's JSON does not read"), "{err}");
    let solo = engine("gulek-solo", None, None);
    let json = serde_json::to_string(&solo.initial_state()).expect("json");
    let err = parse_position(&e, &json).expect_err("another game");
    assert!(err.to_string().contains("does not fit this game"), "{err}");

    let g = engine("gulek", None, None);
    let err = parse_position(&g, "7=RX").expect_err("X");
    assert!(err.to_string().starts_with("`RX` is not a run of piece symbols for 7; expected one of: R, B"), "{err}");
    let err = parse_position(&g, "phase=sleeping").expect_err("phase");
    assert_eq!(err.to_string(), "`sleeping` is not a phase of this game; expected one of: placing, playing");
}

#[test]
fn oware_obligation_is_worked_out() {
    let e = engine("oware", None, None);
    // North is empty: South must feed him, so only f (which reaches A) is legal.
    let st = parse_position(&e, "a3 f2 captured(1)=20 captured(2)=23 to_move=1").expect("position");
    assert!(st.obliged);
    assert_eq!(legal_sorted(&e, &st), vec![Move::Begin { action: 0, place: place(&e, "f") }]);
    let err = parse_ply(&e, &st, "a").expect_err("does not feed");
    assert!(err.to_string().contains("expected one of: f"), "{err}");
}

#[test]
fn garbage_does_not_panic() {
    let pieces = [
        "a",
        "A",
        "c",
        "7",
        "15",
        "cw",
        "ccw",
        ":",
        ",",
        "=",
        "*",
        " ",
        "x",
        "take",
        "0",
        "5",
        "R",
        "B",
        "RB",
        "cup(2)",
        "store(1)",
        "owner(",
        ")",
        "to_move=",
        "phase=",
        "eliminated=",
        "offered=",
        "-",
        "enter",
        "offer",
        "pass",
        "999",
        "{",
        "é",
    ];
    let mut rng = SmallRng::seed_from_u64(7);
    for name in ["kalah", "perlen", "gulek", "gore", "gulek-solo"] {
        let e = engine(name, None, None);
        let st = e.initial_state();
        let playing = parse_position(&e, &format_position(&e, &st)).expect("initial");
        for _ in 0..3000 {
            let n = rng.gen_range(1..8);
            let text: String = (0..n).map(|_| pieces[rng.gen_range(0..pieces.len())]).collect();
            let _ = parse_ply(&e, &st, &text);
            let _ = parse_ply(&e, &playing, &text);
            if let Ok(p) = parse_position(&e, &text) {
                // A position where the end rules put out all players but one is over: as at the end of such a
                // game, its text (one player left) is not a position to play from.
                if p.result.as_ref().is_some_and(|r| r.reason == EndReason::LastStanding) {
                    continue;
                }
                let again = parse_position(&e, &format_position(&e, &p)).expect("a parsed position prints back");
                assert_eq!(again.counts, p.counts, "`{text}`");
                if p.result.is_none() {
                    for ply in enumerate_plies(&e, &p, 20).plies {
                        let s = format_ply(&e, &p, &ply);
                        assert_eq!(parse_ply(&e, &p, &s).as_ref(), Ok(&ply), "`{text}`: `{s}`");
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------- positions no game can reach

#[test]
fn positions_whose_pieces_could_overflow_a_place_are_refused() {
    // 257 seeds could all meet in one store, whose counter holds 255: `a` would wrap b to 0.
    let e = engine("kalah", None, None);
    let err = parse_position(&e, "a1 b255 A1").expect_err("257 pieces");
    assert_eq!(
        err.message,
        "this position holds 257 pieces, more than the 255 a place can count; since pieces only move, they could \
         all come together in one place"
    );
    assert!(parse_position(&e, "a1 b253 A1").is_ok());
    // Several kinds count together: one place counts all its pieces in one byte.
    let p = engine("perlen", None, None);
    let err = parse_position(&p, "a=0*200 5*56").expect_err("256 beads");
    assert!(err.message.starts_with("this position holds 256 pieces"), "{err}");
    // The same for a position given as JSON.
    let mut st = e.initial_state();
    st.counts[place(&e, "b") as usize] = 250;
    let err = parse_position(&e, &serde_json::to_string(&st).expect("json")).expect_err("294 pieces");
    assert!(err.message.starts_with("this position holds 294 pieces"), "{err}");
}

#[test]
fn offers_are_refused_where_none_can_be_made() {
    let kalah = engine("kalah", None, None);
    let err = parse_position(&kalah, "a4 A4 offered=a").expect_err("Kalah has no offers");
    assert_eq!(err.message, "offered: nobody can offer pits in this game");
    let gore = engine("gore", None, None);
    let board = "a3 b3 c3 d3 A3 B3 C3 D3 captured(1)=12 captured(2)=12 to_move=2";
    assert_eq!(parse_position(&gore, &format!("{board} offered=a")).expect("South offers a").stage, Stage::Respond);
    let err = parse_position(&gore, &format!("{board} offered=A")).expect_err("North's own pit");
    assert_eq!(
        err.message,
        "offered: pit A belongs to player 2, who answers the offer; an offer is of the pits of the player who made \
         it, player 1"
    );
    let err = parse_position(&gore, &format!("{board} offered=a,b,c,d")).expect_err("every pit");
    assert!(err.message.contains("an offer is of 1 to 3 pits, keeping at least 1"), "{err}");
}

#[test]
fn owners_and_eliminations_no_game_can_reach_are_refused() {
    let gulek = engine("gulek", None, Some(3));
    let err = parse_position(&gulek, "owner(7)=1 7=R phase=playing").expect_err("nobody owns pits in Gulek");
    assert_eq!(
        err.message,
        "owner(7): pits never change hands in this game (no action trades them), so 7 belongs to nobody"
    );
    assert!(parse_position(&gulek, "owner(7)=- 7=R phase=playing").is_ok(), "as at the start");
    let err = parse_position(&gulek, "7=R phase=playing eliminated=2,3").expect_err("one player left");
    assert!(err.message.starts_with("only one player is left"), "{err}");
    let kalah = engine("kalah", None, None);
    let err = parse_position(&kalah, "a4 A4 eliminated=2").expect_err("nobody is put out in Kalah");
    assert_eq!(err.message, "nobody is ever put out in this game, so no player can be eliminated");
    let err = parse_position(&kalah, "a4 A4 owner(a)=2").expect_err("pits never change hands in Kalah");
    assert!(err.message.starts_with("owner(a): pits never change hands"), "{err}");
    let gore = engine("gore", None, None);
    let err = parse_position(&gore, "a3 A3 owner(a)=-").expect_err("a trade gives pits to a player");
    assert!(err.message.contains("cannot belong to nobody"), "{err}");
    assert!(parse_position(&gore, "a3 A3 owner(a)=2").is_ok(), "after a trade");
}

#[test]
fn json_positions_are_checked_as_text_ones_are() {
    let kalah = engine("kalah", None, None);
    let refused = |change: &dyn Fn(&mut State), engine: &Engine| {
        let mut st = engine.initial_state();
        change(&mut st);
        parse_position(engine, &serde_json::to_string(&st).expect("json")).expect_err("refused").message
    };
    let msg = refused(&|st| st.hand[0] = 3, &kalah);
    assert_eq!(msg, "the position's JSON has pieces in hand; at the start of a turn every piece lies in a place");
    let msg = refused(&|st| st.illegal = true, &kalah);
    assert!(msg.starts_with("this position is in the middle of a turn"), "{msg}");
    let msg = refused(&|st| st.stage = Stage::Drop { action: 0 }, &kalah);
    assert!(msg.starts_with("this position is in the middle of a turn"), "{msg}");
    let msg = refused(&|st| st.eliminated = 2, &kalah);
    assert_eq!(msg, "nobody is ever put out in this game, so no player can be eliminated");
    let msg = refused(&|st| st.owner[0] = 1, &kalah);
    assert!(msg.starts_with("owner(a): pits never change hands"), "{msg}");
    let msg = refused(
        &|st| {
            st.stage = Stage::Respond;
            st.offered = 1;
        },
        &kalah,
    );
    assert_eq!(msg, "offered: nobody can offer pits in this game");
    let msg = refused(&|st| st.last_mover = 5, &kalah);
    assert!(msg.contains("does not fit this game"), "{msg}");
    let gulek = engine("gulek", None, Some(3));
    let msg = refused(&|st| st.owner[6] = 0, &gulek);
    assert!(msg.starts_with("owner(7): pits never change hands"), "{msg}");
    let msg = refused(&|st| st.eliminated = 0b110, &gulek);
    assert!(msg.starts_with("only one player is left"), "{msg}");
    let msg = refused(&|st| st.eliminated = 0b1000, &gulek);
    assert_eq!(msg, "eliminated: players are numbered 1 to 3");
    let gore = engine("gore", None, None);
    let msg = refused(
        &|st| {
            st.stage = Stage::Respond;
            st.to_move = 1;
            st.last_mover = 0;
            st.offered = 1 << 4;
        },
        &gore,
    );
    assert!(msg.starts_with("offered: pit A belongs to player 2, who answers the offer"), "{msg}");
}

/// Ten puts a turn over fifteen pits make 1,961,256 plies (the puts of a ply are a multiset): listing them
/// all stops at the search's budget of decisions, at once, and says that the list is partial.
#[test]
fn an_astronomical_ply_list_stops_at_its_budget_and_says_so() {
    let rules = r#"game "Ten puts"
board ring 15
place supply per player
setup {
  every supply: 40
}
turn {
  put { 1 from supply(mover) into pits, 10 times }
}
end {
  when all players(count(supply(player)) = 0)
}
score count(pits)
"#;
    let e = mancala::compile(rules, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let st = e.initial_state();
    let start = std::time::Instant::now();
    let found = enumerate_plies(&e, &st, usize::MAX);
    assert!(found.partial, "{} plies and not partial", found.plies.len());
    assert!(!found.plies.is_empty() && found.plies.len() < 1_961_256, "{} plies", found.plies.len());
    assert!(start.elapsed() < std::time::Duration::from_secs(5), "took {:?}", start.elapsed());
    // A few plies are all there is to find when only a few are asked for: not partial.
    let few = enumerate_plies(&e, &st, 10);
    assert_eq!((few.plies.len(), few.partial), (10, false));
}

#[test]
fn an_offer_of_pits_past_the_64th_reads_writes_and_is_accepted() {
    // Goré's offers on four rows of 32: North's pits are places 64..127, past one word of bits.
    let source = include_str!("../games/gore.mancala")
        .replace("board two_rows 4", "board rows 4 of 32")
        .replace("every pit: 6", "every pit: 1");
    let e = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let st = parse_position(&e, "o1=5 O30=1 I32=1 O1=3 captured(1)=12 to_move=1 offered=O30,I32")
        .expect("North's offer of O30 and I32 reads");
    assert_eq!(st.stage, Stage::Respond);
    assert_eq!(st.offered, (1u128 << place(&e, "O30")) | (1u128 << place(&e, "I32")));
    assert!(place(&e, "O30") >= 64 && place(&e, "I32") == 127);
    assert!(format_position(&e, &st).ends_with("to_move=1 offered=O30,I32"), "{}", format_position(&e, &st));
    check_position(&e, &st, "an offer past the 64th pit");
    let mut accepted = st.clone();
    e.apply(&mut accepted, Move::Accept).expect("South may accept");
    assert_eq!((accepted.owner[place(&e, "O30") as usize], accepted.owner[place(&e, "I32") as usize]), (0, 0));
    assert_eq!(accepted.offered, 0);
}

#[test]
fn a_piece_symbol_that_is_also_a_pit_label_reads_back() {
    // Blue balls `B` on a board with a pit B: written apart, `store(1)=R*4 BB` read `BB` as pit B's entry
    // (one blue ball), and the position did not read back ("B is given twice"). One-letter symbols are glued.
    let source = "game \"Blue\"\nplayers 2\nboard two_rows 4 with stores\n\
                  pieces per player {\n  red \"R\"\n  blue \"B\"\n}\n\
                  setup {\n  a, b, c, d: 1 red\n  A, B, C, D: 1 blue\n}\n\
                  turn {\n  sow {\n    from pits where count(own) > 0\n  }\n}\n\
                  end {\n  when stuck\n}\nscore count(store(player))\n";
    let e = mancala::compile(source, None, None).expect("the file compiles");
    let st = parse_position(&e, "a=R B=B store(1)=R*4B*2 to_move=1").expect("glued kinds read");
    let text = format_position(&e, &st);
    assert!(text.contains("store(1)=R*4BB"), "{text}");
    check_position(&e, &st, "a blue symbol beside pit B");
}

// ---------------------------------------------------------------- marks in a position (§14)

/// Lamlameta, written from the docs by a new author: `pair` lasts 2 plies and `made` one, both `until empty`.
fn lamlameta() -> Engine {
    engine("tests/data/unseen/lamlameta", None, None)
}

/// Plays a ply written in move notation.
fn play(engine: &Engine, st: &State, ply: &str) -> State {
    let mut next = st.clone();
    for m in parse_ply(engine, st, ply).unwrap_or_else(|e| panic!("`{ply}`: {e}")) {
        engine.apply(&mut next, m).expect("legal");
    }
    next
}

/// A mark for one ply written in a position is the coming ply's: `made=A` says the move about to be made has
/// made A a pair, so its laps jump A (`skip made`), as `pair=A` makes the opponent's do. It was read, then
/// cleared before the ply, and did nothing.
#[test]
fn a_mark_for_one_ply_in_a_position_lasts_through_the_coming_ply() {
    let e = lamlameta();
    let (a, b, d) = (place(&e, "A") as usize, place(&e, "B") as usize, place(&e, "D") as usize);
    for marks in ["made=A", "made=A/1", "pair=A", "pair=A/1"] {
        let st = parse_position(&e, &format!("l3 A2 a1 {marks} moves=3,3")).unwrap_or_else(|e| panic!("{marks}: {e}"));
        let next = play(&e, &st, "l");
        assert_eq!((next.counts[a], next.counts[b], next.counts[d]), (2, 1, 1), "{marks}: A is jumped");
    }
    // Unmarked, the lap sows A (which relays, being occupied).
    let next = play(&e, &parse_position(&e, "l3 A2 a1 moves=3,3").expect("position"), "l");
    assert_ne!(next.counts[a], 2, "A is sown");
    // `made=A` and `made=A/1` are one position, and it writes as `made=A`.
    let st = parse_position(&e, "l3 A2 a1 made=A/1 moves=3,3").expect("position");
    assert!(format_position(&e, &st).contains(" made=A "), "{}", format_position(&e, &st));
    // Once the ply is over (and the end rules have seen them), the marks for one ply are gone: what the
    // next ply sees is what the position after it writes.
    let st = parse_position(&e, "l2 A1 B23 moves=3,3").expect("position");
    let next = play(&e, &st, "l");
    assert!(!format_position(&e, &next).contains("made="), "{}", format_position(&e, &next));
}

/// What `/N` a mark takes in a position, and why, each said as it is.
#[test]
fn the_plies_a_mark_has_left_are_refused_with_the_range_and_the_reason() {
    let e = lamlameta();
    let err = |text: &str| parse_position(&e, text).expect_err(text).to_string();
    assert_eq!(
        err("l3 A2 a1 made=A/2 moves=3,3"),
        "`A/2`: the mark `made` lasts one ply, the ply about to be played: write `made=A` (or `A/1`)"
    );
    assert_eq!(
        err("l3 A2 a1 pair=A/2 moves=3,3"),
        "`A/2`: the mark `pair` lasts 2 plies, so in a position it has 1 left, the ply about to be played (a \
         position stands between plies, and the ply that made the mark was the first of its 2): write \
         `pair=A/1`, or `pair=A`"
    );
    assert!(err("l3 A2 a1 pair=A/0 moves=3,3").contains("it has 1 left"));
    let bao = engine("bao-la-kiswahili", None, None);
    let err = parse_position(&bao, "i2=2 I1=2 I5=2 takasia(2)=I5/3 phase=mtaji").expect_err("3 of 3").to_string();
    assert!(err.contains("1 to 2 left") && err.contains("`I5/1` to `I5/2`, or `I5` alone for 2"), "{err}");
    let err = parse_position(&bao, "i2=2 I1=2 I5=2 nyumba(2)=I5/1 phase=mtaji").expect_err("lasting").to_string();
    assert_eq!(
        err,
        "`I5/1`: the mark `nyumba(2)` is not for a number of plies (it stays until a rule takes it off), so it \
         has no plies left to write: `nyumba(2)=I5`"
    );
}

/// A mark `until empty` on an empty pit: no game of Lamlameta can reach it (its pairs are made on pits of 2,
/// and lost as they are emptied), so it is refused with the reason. Where a rule may mark an empty pit, it
/// is a position like any other.
#[test]
fn a_mark_until_empty_on_an_empty_pit_no_rule_makes_is_refused() {
    let e = lamlameta();
    for marks in ["pair=A", "made=A"] {
        let err = parse_position(&e, &format!("l3 a1 {marks} moves=3,3")).expect_err(marks).to_string();
        let name = &marks[..marks.find('=').expect("=")];
        assert_eq!(
            err,
            format!(
                "A carries the mark `{name}` but is empty: `{name}` is lost when its pit is left empty (`until \
                 empty`), and no rule of this game makes it on an empty pit, so no game can reach this position"
            )
        );
    }
    assert!(parse_position(&e, "l3 A2 a1 pair=A moves=3,3").is_ok());
}
