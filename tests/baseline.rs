//! The hand-written engines that `mancala bench` times the interpreter against play exactly the games of
//! their rule files: random games are replayed on both, decision by decision, comparing the positions, the
//! legal moves and the results. Without this, a ratio could compare the interpreter with a simpler game.

use mancala::engine::{EndReason, Engine, Move, State};
use mancala::playout::{draw, Dice};
use mancala_baseline::{kalah, oware};

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

/// What the tests compare of a hand-written Kalah with the interpreter.
trait KalahEngine: Default {
    fn pits(&self) -> [u8; 14];
    fn view(&self) -> (u8, u32, u32, bool, u8);
    fn legal(&self, out: &mut Vec<u8>);
    fn sow(&mut self, pit: u8);
}

impl KalahEngine for kalah::Kalah {
    fn pits(&self) -> [u8; 14] {
        self.pits
    }
    fn view(&self) -> (u8, u32, u32, bool, u8) {
        (self.to_move, self.ply, self.captures, self.over, self.winners())
    }
    fn legal(&self, out: &mut Vec<u8>) {
        self.legal_moves(out)
    }
    fn sow(&mut self, pit: u8) {
        self.apply(pit)
    }
}

impl KalahEngine for kalah::Tight {
    fn pits(&self) -> [u8; 14] {
        kalah::Tight::pits(self)
    }
    fn view(&self) -> (u8, u32, u32, bool, u8) {
        (self.to_move, self.ply, self.captures, self.over, self.winners())
    }
    fn legal(&self, out: &mut Vec<u8>) {
        self.legal_moves(out)
    }
    fn sow(&mut self, pit: u8) {
        self.apply(pit)
    }
}

fn check_kalah<K: KalahEngine>(seed: u64) {
    let engine = engine("kalah");
    let mut rng = Dice::with_seed(seed);
    let mut expected = Vec::new();
    for _ in 0..300 {
        let mut st = engine.initial_state();
        let mut k = K::default();
        loop {
            let mut board = [0u8; 14];
            for (place, &n) in st.counts.iter().enumerate() {
                board[kalah_place(place as u16)] = n;
            }
            let pits = k.pits();
            assert_eq!(board, pits, "boards differ");
            let (to_move, ply, captures, over, winners) = k.view();
            assert_eq!((st.ply, st.captures), (ply, captures), "plies or captures differ at {pits:?}");
            assert_eq!(st.result.is_some(), over, "the end differs at {pits:?}");
            if over {
                assert_eq!(self::winners(&st), winners, "winners differ at {pits:?}");
                break;
            }
            assert_eq!(st.to_move, to_move, "the turn differs at {pits:?}");
            let legal = interpreter_moves(&engine, &st);
            expected.clear();
            k.legal(&mut expected);
            let as_baseline: Vec<u8> = legal.iter().map(|&p| kalah_place(p) as u8).collect();
            assert_eq!(as_baseline, expected, "legal moves differ at {pits:?}");
            let pit = legal[draw(&mut rng, legal.len())];
            engine.apply_unchecked(&mut st, Move::Begin { action: 0, place: pit });
            k.sow(kalah_place(pit) as u8);
        }
    }
}

#[test]
fn plain_kalah_plays_the_rule_file() {
    check_kalah::<kalah::Kalah>(7);
}

#[test]
fn tight_kalah_plays_the_rule_file() {
    check_kalah::<kalah::Tight>(8);
}

/// What the tests compare of a hand-written Oware with the interpreter.
trait OwareEngine: Default {
    fn pits(&self) -> [u8; 12];
    fn view(&self) -> ([u8; 2], u8, u32, u32, bool, u8);
    fn legal(&self, out: &mut Vec<u8>);
    fn sow(&mut self, pit: u8);
}

impl OwareEngine for oware::Oware {
    fn pits(&self) -> [u8; 12] {
        self.pits
    }
    fn view(&self) -> ([u8; 2], u8, u32, u32, bool, u8) {
        (self.captured, self.to_move, self.ply, self.captures, self.over, self.winners())
    }
    fn legal(&self, out: &mut Vec<u8>) {
        self.legal_moves(out)
    }
    fn sow(&mut self, pit: u8) {
        self.apply(pit)
    }
}

impl OwareEngine for oware::Tight {
    fn pits(&self) -> [u8; 12] {
        oware::Tight::pits(self)
    }
    fn view(&self) -> ([u8; 2], u8, u32, u32, bool, u8) {
        (self.captured, self.to_move, self.ply, self.captures, self.over, self.winners())
    }
    fn legal(&self, out: &mut Vec<u8>) {
        self.legal_moves(out)
    }
    fn sow(&mut self, pit: u8) {
        self.apply(pit)
    }
}

fn check_oware<O: OwareEngine>(seed: u64) {
    let engine = engine("oware");
    let mut rng = Dice::with_seed(seed);
    let mut expected = Vec::new();
    let (mut repetitions, mut fed) = (0, 0);
    for _ in 0..300 {
        let mut st = engine.initial_state();
        let mut o = O::default();
        loop {
            let pits = o.pits();
            let (captured, to_move, ply, captures, over, winners) = o.view();
            assert_eq!(&st.counts[..12], &pits, "boards differ");
            assert_eq!(&st.counts[12..14], &captured, "captured seeds differ at {pits:?}");
            assert_eq!((st.ply, st.captures), (ply, captures), "plies or captures differ at {pits:?}");
            assert_eq!(st.result.is_some(), over, "the end differs at {pits:?}");
            if over {
                assert_eq!(self::winners(&st), winners, "winners differ at {pits:?}");
                repetitions += st.result.as_ref().is_some_and(|r| r.reason == EndReason::Repetition) as u32;
                break;
            }
            assert_eq!(st.to_move, to_move, "the turn differs at {pits:?}");
            let legal = interpreter_moves(&engine, &st);
            expected.clear();
            o.legal(&mut expected);
            let as_baseline: Vec<u8> = legal.iter().map(|&p| p as u8).collect();
            assert_eq!(as_baseline, expected, "legal moves differ at {pits:?}");
            let opponent = (1 - to_move as usize) * 6;
            fed += pits[opponent..opponent + 6].iter().all(|&n| n == 0) as u32;
            let pit = legal[draw(&mut rng, legal.len())];
            engine.apply_unchecked(&mut st, Move::Begin { action: 0, place: pit });
            o.sow(pit as u8);
        }
    }
    // The rules that random games rarely meet were met: the comparison covered them.
    assert!(repetitions > 0, "no game ended by a repetition");
    assert!(fed > 0, "no position needed feeding");
}

#[test]
fn plain_oware_plays_the_rule_file() {
    check_oware::<oware::Oware>(9);
}

#[test]
fn tight_oware_plays_the_rule_file() {
    check_oware::<oware::Tight>(10);
}
