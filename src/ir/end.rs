//! The end rules: when a game or phase ends, its sweeps, and how ties are decided.

use super::*;

/// Why a game ended, as a sweep names it (`sweep ... after repetition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Ending {
    /// A position came back (`when repetition` or `draw when repetition`).
    Repetition,
    /// The player to move could not move.
    Stuck,
    /// The ply limit was reached.
    Limit,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct EndRules {
    pub items: Vec<EndRule>,
    pub sweeps: Vec<(Set, PlaceExpr)>,
    /// For each sweep, why the game must have ended for it to be made (`after repetition`); any way when
    /// `None`.
    #[serde(skip_serializing_if = "all_none")]
    pub sweep_after: Vec<Option<Ending>>,
    pub limit: Option<u32>,
    /// The rule file's own sentences for the items and the sweeps, by index.
    pub docs: Vec<Option<String>>,
    pub sweep_docs: Vec<Option<String>>,
}

#[derive(Debug, Clone, Serialize)]
pub enum EndRule {
    When(Cond),
    Repetition,
    Stuck,
    NobodyCanMove,
    Draw {
        count: u32,
        rounds: bool,
    },
    Eliminate(Cond),
    EliminateStuck,
    /// `draw when endless`: a move that would never end is played, and the game is drawn.
    Endless,
    /// `eliminate when endless`: a move that would never end is played, and its mover is out.
    EliminateEndless,
    /// `cut when endless`: a move that would never end is played up to where that is found; play goes on.
    CutEndless,
    /// `draw when repetition`: a position that comes back draws the game (ENGINE-2 for games won by leaving
    /// the opponent without a move, where comparing scores would mean nothing).
    DrawRepetition,
    /// `when COND at every lap`: as `When`, and also tested at the end of each lap of a sowing of laps, where
    /// it stops the move (`mover` there is the player making it).
    AtEveryLap(Cond),
    /// `draw when COND`: the game (or the round) ends in a draw when the condition holds, whatever the scores.
    DrawWhen(Cond),
}

impl EndRule {
    /// Whether the rule says how a move that would never end ends (such a move is then played).
    pub fn is_endless(&self) -> bool {
        matches!(self, EndRule::Endless | EndRule::EliminateEndless | EndRule::CutEndless)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Ties {
    Draw,
    Shared,
    LastMover,
}
