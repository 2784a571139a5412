//! The compiled form of plain sowing phases: whole laps sown by arithmetic over a track per mover and
//! origin, the landing pit found by index. Everything here must end in exactly the state the general
//! stages would reach (`tests/properties.rs` plays every shipped game both ways, `Engine::without_fast_paths`).
//!
//! One job per file:
//! - `tracks.rs`: the cycles of places a sowing visits (`Tracks`, `LapTracks`) and the laps sown along them
//!   by arithmetic (`sow_laps` for plain sowings, `sow_track` for the laps of every other sowing of one kind).
//! - `starts.rs`: the starts of plain phases without a list: the owned pits where pits change hands
//!   (`each_owned_start`), a row of fixed pits as bits (`StartRow`) and the k-th of them (`nth_start`).
//! - `words.rs`: the board as eight-byte words: a player's pits (`PitWords`), a plan's sowings as additions
//!   of words (`SowWords`).
//! - `ply_plan.rs`: the whole-ply form of a plain phase as the engine makes it (`PlyPlan`: per mover and last
//!   pit, which captures can hold and whether the mover plays again; simple takes by table; its end rules).
//! - `whole_ply.rs`: a ply played off its `PlyPlan` (`whole_ply`, `plain_turn` for random playouts).
//! - `sweep.rs`: the end sweeps' pits and destinations as a table per mover (`sweep_table`).
//! - `cancel.rs`: what a capture's `cancel` puts back, kept on the stack (`Saved`, `TakeLog`).
//! - `key.rs`: the word-wise position key of repetitions and relay cycles, and the board's sum.
//! - `lookahead.rs`: what spares a look ahead (`lap_gate`, `end_rules_say_mover_can_move`) and the test hook
//!   that checks the look-ahead shortcuts against the long way (`lookahead_disagreement`).

mod cancel;
mod key;
mod lookahead;
mod ply_plan;
mod starts;
mod sweep;
mod tracks;
mod whole_ply;
mod words;

pub(super) use cancel::Saved;
pub(super) use key::{byte_sum, counts_key, position_key};
pub(super) use lookahead::{end_rules_say_mover_can_move, lap_gate};
pub(crate) use ply_plan::PlyPlan;
pub(super) use sweep::{sweep_table, SweepTable};
pub(crate) use tracks::{LapTracks, Tracks};
pub(crate) use words::PitWords;

/// Bytes that look like a board, for the tests: small counts, zeros, and the largest count a byte holds.
#[cfg(test)]
fn board(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            match x % 5 {
                0 => 0,
                1 => 255,
                _ => (x >> 8) as u8 % 12,
            }
        })
        .collect()
}
