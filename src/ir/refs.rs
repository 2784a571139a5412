//! Rules named by where they stand in the lowered rules (`RuleRef`), and where they stand in the file.

use super::*;

/// A rule named by where it stands in the lowered rules: for the account of a ply step by step
/// (`engine::Event`, `explain`) and the counts of `simulate`, which tell it by its line and sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum RuleRef {
    /// An action of a phase: for a sowing, its `from` (the pits it may start from).
    Action { phase: u8, action: u8 },
    /// A sowing's `take { ... }`, made before it (`take_first`).
    TakeFirst { phase: u8, action: u8 },
    /// `captures[index]` of a sowing.
    Capture { phase: u8, action: u8, index: u8 },
    /// `drop_captures[index]` of a sowing (`capture at every drop`).
    DropCapture { phase: u8, action: u8, index: u8 },
    /// `lift_captures[index]` of a sowing (`capture at every lift`).
    LiftCapture { phase: u8, action: u8, index: u8 },
    /// `answers[index]` of a sowing (`opponent may`): the opponent's answer, made.
    Answer { phase: u8, action: u8, index: u8 },
    /// `lifts[index]` of a sowing.
    Lift { phase: u8, action: u8, index: u8 },
    /// `relay when` or `relay from next when`.
    Relay { phase: u8, action: u8 },
    /// `relay may when`.
    RelayMay { phase: u8, action: u8 },
    /// A sowing's `again when`.
    Again { phase: u8, action: u8 },
    /// A phase's `again when`.
    PhaseAgain { phase: u8 },
    /// A sowing's `then may take` or `then must take`.
    Then { phase: u8, action: u8 },
    /// `then_marks[index]` of a sowing (`then mark`).
    ThenMark { phase: u8, action: u8, index: u8 },
    /// `end.items[index]` of a phase, or of the game (`phase: None`).
    End { phase: Option<u8>, index: u8 },
    /// `end.sweeps[index]` of a phase, or of the game (`phase: None`).
    Sweep { phase: Option<u8>, index: u8 },
    /// `rounds.refills[index]`: a refill between two rounds.
    Refill { index: u8 },
}

/// Where a rule stands in the file, and its `///` sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    pub rule: RuleRef,
    pub span: crate::ast::Span,
    pub doc: Option<String>,
}
