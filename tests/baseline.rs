//! The hand-written engines that `mancala bench` times the interpreter against play exactly the games of
//! their rule files: random games are replayed on both, decision by decision, comparing the positions, the
//! legal moves and the results. Without this, a ratio could compare the interpreter with a simpler game.

use mancala::engine::{EndReason, Engine, Move, State};
use mancala_baseline::{kalah::Kalah, oware::Oware};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

fn engine(game: &str) -> Engine {
    let text = mancala::shipped::find(game).expect("a shipped game").text;
    mancala::compile(text, None, None).expect("the shipped game compiles")
}

/// The interpreter's legal sowings as pit indices, sorted.
fn interpreter_moves(engine: &Engine, st: &State) -> Vec<u16> {
    let mut legal = Vec::new();
    engine.legal_moves(st, &mut legal);
    let mut pits: Vec<u16> = legal
        .iter()
        .map(|m| match m {
            Move::Begin { place, .. } => *place,
            other => panic!("a plain sowing game offers only sowings, not {other:?}"),
        })
        .collect();
    pits.sort();
    pits
}

fn winners(st: &State) -> u8 {
    st.result.as_ref().map(|o| o.winners).unwrap_or(0)
}

/// Kalah's places in the interpreter: pits a..f, A..F, then store(1), store(2); in the baseline South's pits,
/// his store, North's pits, his store.
fn kalah_place(interp: u16) -> usize {
    match interp {
        0..=5 => interp as usize,
        6..=11 => interp as usize + 1,
        12 => 6,
        _ => 13,
    }
}

fn check_kalah(apply: fn(&mut Kalah, u8), seed: u64) {
    let engine = engine("kalah");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut expected = Vec::new();
    for _ in 0..300 {
        let mut st = engine.initial_state();
        let mut k = Kalah::default();
        loop {
            let mut board = [0u8; 14];
            for (place, &n) in st.counts.iter().enumerate() {
                board[kalah_place(place as u16)] = n;
            }
            assert_eq!(board, k.pits, "boards differ");
            assert_eq!(st.result.is_some(), k.over, "the end differs at {:?}", k.pits);
            if k.over {
                assert_eq!(winners(&st), k.winners(), "winners differ at {:?}", k.pits);
                break;
            }
            assert_eq!(st.to_move, k.to_move, "the turn differs at {:?}", k.pits);
            let legal = interpreter_moves(&engine, &st);
            expected.clear();
            k.legal_moves(&mut expected);
            let as_baseline: Vec<u8> = legal.iter().map(|&p| kalah_place(p) as u8).collect();
            assert_eq!(as_baseline, expected, "legal moves differ at {:?}", k.pits);
            let pit = legal[rng.gen_range(0..legal.len())];
            engine.apply_unchecked(&mut st, Move::Begin { action: 0, place: pit });
            apply(&mut k, kalah_place(pit) as u8);
        }
        assert_eq!((st.ply, st.captures), (k.ply, k.captures));
    }
}

#[test]
fn plain_kalah_plays_the_rule_file() {
    check_kalah(Kalah::apply_plain, 7);
}

#[test]
fn tight_kalah_plays_the_rule_file() {
    check_kalah(Kalah::apply_tight, 8);
}

#[test]
fn tight_oware_plays_the_rule_file() {
    let engine = engine("oware");
    let mut rng = SmallRng::seed_from_u64(9);
    let mut expected = Vec::new();
    let (mut repetitions, mut fed) = (0, 0);
    for _ in 0..300 {
        let mut st = engine.initial_state();
        let mut o = Oware::default();
        loop {
            assert_eq!(&st.counts[..12], &o.pits, "boards differ");
            assert_eq!(&st.counts[12..14], &o.captured, "captured seeds differ at {:?}", o.pits);
            assert_eq!(st.result.is_some(), o.over, "the end differs at {:?}", o.pits);
            if o.over {
                assert_eq!(winners(&st), o.winners(), "winners differ at {:?}", o.pits);
                repetitions += st.result.as_ref().is_some_and(|r| r.reason == EndReason::Repetition) as u32;
                break;
            }
            assert_eq!(st.to_move, o.to_move, "the turn differs at {:?}", o.pits);
            let legal = interpreter_moves(&engine, &st);
            expected.clear();
            o.legal_moves(&mut expected);
            let as_baseline: Vec<u8> = legal.iter().map(|&p| p as u8).collect();
            assert_eq!(as_baseline, expected, "legal moves differ at {:?}", o.pits);
            let opponent = (1 - o.to_move as usize) * 6;
            fed += o.pits[opponent..opponent + 6].iter().all(|&n| n == 0) as u32;
            let pit = legal[rng.gen_range(0..legal.len())];
            engine.apply_unchecked(&mut st, Move::Begin { action: 0, place: pit });
            o.apply(pit as u8);
        }
        assert_eq!((st.ply, st.captures), (o.ply, o.captures));
    }
    // The rules that random games rarely meet were met: the comparison covered them.
    assert!(repetitions > 0, "no game ended by a repetition");
    assert!(fed > 0, "no position needed feeding");
}
