//! Hand-written engines of two shipped rule files, the yardstick for the interpreter's speed.
//!
//! Each engine plays exactly the game of one file in `games/` (the tests in `tests/baseline.rs` replay random
//! games on both, decision by decision) and nothing else: no rule is read, every number is a constant. They
//! exist only so that `mancala bench` and `cargo bench` can report the interpreter's speed as a ratio to code
//! written by hand for one game, measured in the same run on the same machine.
//!
//! - [`kalah::Plain`]: Kalah(6,4) as anyone would write it first, a drop loop with a modulo.
//! - [`kalah::Tight`]: the same game sown by arithmetic over a precomputed track (whole laps at once).
//! - [`oware::Tight`]: Oware abapa, sown the same way, with the feeding rule, the grand slam and the
//!   repetition rule of the rule file.

use rand::Rng;

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
    pub random_game: fn(&mut rand::rngs::SmallRng) -> u32,
}

/// Every baseline, the tightest first for each game.
pub fn all() -> [Baseline; 3] {
    [
        Baseline { name: "hand-written Kalah, tight", mirrors: "kalah", random_game: kalah::random_tight },
        Baseline { name: "hand-written Kalah, plain", mirrors: "kalah", random_game: kalah::random_plain },
        Baseline { name: "hand-written Oware, tight", mirrors: "oware", random_game: oware::random_tight },
    ]
}

/// A uniformly random element of a short list, drawn as the interpreter's random player draws.
#[inline]
fn pick<R: Rng + ?Sized>(rng: &mut R, moves: &[u8]) -> u8 {
    moves[rng.gen_range(0..moves.len())]
}
