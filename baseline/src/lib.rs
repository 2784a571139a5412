//! Hand-written engines of two shipped rule files, the yardstick for the interpreter's speed.
//!
//! Each engine plays exactly the game of one file in `games/` (the tests in `tests/baseline.rs` replay random
//! games on both, decision by decision) and nothing else: no rule is read, every number is a constant. They
//! exist only so that `mancala bench` and `cargo bench` can report the interpreter's speed as a ratio to code
//! written by hand for one game, measured in the same run on the same machine.
//!
//! - [`kalah::Tight`]: Kalah(6,4) as fast as we can write it: the board in one 128-bit word, sown by adding
//!   words from tables (whole laps at once), the starts picked off a mask of the mover's row.
//! - [`kalah::Kalah`]: the same game as anyone would write it first, a drop loop with a modulo.
//! - [`oware::Tight`]: Oware abapa with the feeding rule, the grand slam and the repetition rule of the rule
//!   file, written as the tight Kalah, its positions since the last capture in a hash set.
//! - [`oware::Oware`]: the same game over an array, sown by a track per house, its history a list.
//!
//! Every random player draws as the interpreter's does: one [`fastrand::Rng`] (wyrand) and a draw below
//! the number of moves by Lemire's multiply-shift ([`draw`]).

pub mod kalah;
pub mod oware;

/// A hand-written engine that `mancala bench` times against the interpreter.
#[derive(Debug, Clone, Copy)]
pub struct Baseline {
    /// What the table calls it.
    pub name: &'static str,
    /// The stem of the rule file in `games/` that it plays (`kalah` for `games/kalah.mancala`).
    pub mirrors: &'static str,
    /// Plays one random game and returns its plies.
    pub random_game: fn(&mut fastrand::Rng) -> u32,
}

/// Every baseline, the tightest first for each game.
pub fn all() -> [Baseline; 4] {
    [
        Baseline { name: "hand-written Kalah, tight", mirrors: "kalah", random_game: kalah::random_tight },
        Baseline { name: "hand-written Kalah, plain", mirrors: "kalah", random_game: kalah::random_plain },
        Baseline { name: "hand-written Oware, tight", mirrors: "oware", random_game: oware::random_tight },
        Baseline { name: "hand-written Oware, plain", mirrors: "oware", random_game: oware::random_plain },
    ]
}

/// A uniformly random number below `n` (at least 1), drawn as the interpreter's random player draws.
#[inline(always)]
pub fn draw(rng: &mut fastrand::Rng, n: usize) -> usize {
    rng.usize(..n)
}

/// A uniformly random element of a short list.
#[inline]
fn pick(rng: &mut fastrand::Rng, moves: &[u8]) -> u8 {
    moves[draw(rng, moves.len())]
}

/// Per six bits (which pits of a row hold seeds) and `k`: the place in the row of the `k`-th of them.
static NTH_BIT: [[u8; 8]; 64] = {
    let mut t = [[0u8; 8]; 64];
    let mut bits = 0;
    while bits < 64 {
        let (mut i, mut k) = (0, 0);
        while i < 6 {
            if bits >> i & 1 == 1 {
                t[bits][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        bits += 1;
    }
    t
};

/// The place in a row of six of the `k`-th set bit (from 0) of `bits`.
#[inline(always)]
fn nth_bit(bits: usize, k: usize) -> u8 {
    NTH_BIT[bits & 63][k & 7]
}
