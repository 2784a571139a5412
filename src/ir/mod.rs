//! Lowered rules: the simplest form that runs.
//!
//! `check` is the only producer of `Rules`: names are resolved to indices, the chosen variant and player
//! count are applied, tracks and opposite pits are precomputed. The engine reads nothing else: no AST, no
//! strings while playing (names are kept only for printing).

use serde::Serialize;

mod actions;
mod board;
mod end;
mod expr;
mod facts;
mod optimize;
mod refs;
mod rounds;
mod sow;

pub use actions::{Action, ActionKind, Effect, MustRule, Offer, PassRule, PhaseRules, Put, TakeAction};
pub use board::{three_row_pit, KindInfo, MarkId, MarkInfo, PlaceInfo, Region, Shape, UNMARKED};
pub use end::{EndRule, EndRules, Ending, Ties};
pub use expr::{div, rem, CmpOp, Cond, IntSet, KindSel, Num, PlaceExpr, PlayerExpr, Set};
pub use facts::{fails_for_more_pits, pieces_can_return, reads_last_sowing, relay_always_holds};
pub use optimize::{optimize, visit_conds_mut};
pub use refs::{RuleRef, RuleSource};
pub use rounds::{FirstRule, Refill, RoundRules};
pub use sow::{
    Answers, CaptureRule, ChainRule, Dir, DirRule, LiftRule, MarkStep, SkipWhere, Sow, Step, TakeRule, TakeTo,
    ThenMark, ThenRule, RESERVED_ANSWERS,
};

/// A place index: pits first (`0..n_pits`), then on-track stores, then off-board places.
pub type PlaceId = u16;
/// A kind-of-piece index.
pub type KindId = u8;
/// A set of kinds as bits.
pub type KindMask = u64;
/// A set of pits as bits of their indices (bit `p` for pit `p`): regions, `facing`, an offer, `threats`,
/// `taken_first`. The one place the width is decided: a board has at most `PIT_BITS` pits
/// (`check::lower::MAX_PITS`). A pit at or past `PIT_BITS` is in no set (`pit_bit` gives no bit).
pub type PitSet = u128;
/// The number of pits a `PitSet` holds.
pub const PIT_BITS: usize = PitSet::BITS as usize;

/// The set of pit `p` alone; empty where `p` is past `PIT_BITS` (a place beyond the pits).
#[inline(always)]
pub fn pit_bit(p: PlaceId) -> PitSet {
    if (p as usize) < PIT_BITS {
        1 << p
    } else {
        0
    }
}

/// Whether pit `p` is in `set`.
#[inline(always)]
pub fn has_pit(set: PitSet, p: PlaceId) -> bool {
    (p as usize) < PIT_BITS && set >> p & 1 != 0
}

/// The pits of `set`, lowest first.
pub fn pits_of(set: PitSet) -> impl Iterator<Item = PlaceId> {
    let mut bits = set;
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let p = bits.trailing_zeros() as PlaceId;
            bits &= bits - 1;
            p
        })
    })
}

pub const NO_PLAYER: u8 = u8::MAX;
/// In a table of places (`Rules::behind`, `Rules::ahead`): no such place.
pub const NO_PLACE: PlaceId = PlaceId::MAX;
pub const NO_KIND: u8 = u8::MAX;

#[derive(Debug, Clone, Serialize)]
pub struct Rules {
    pub game: String,
    pub variant: String,
    pub about: String,
    pub players: u8,
    pub shape: Shape,
    pub n_pits: usize,
    pub places: Vec<PlaceInfo>,
    pub kinds: Vec<KindInfo>,
    /// The pits and stores in counter-clockwise order around the board; on a board with a circuit per
    /// player (four rows), the first player's circuit.
    pub track: Vec<PlaceId>,
    /// For each place on the track, the next on-track place in each direction (`[ccw, cw]`), per mover:
    /// places a mover's sowing skips (`skip store(opponent)`) are already left out. Indexed
    /// `[(mover * 2 + dir) * places + place]`.
    pub next: Vec<PlaceId>,
    /// The next pit (stores left out) in each direction, indexed `[dir * n_pits + pit]`; for chains.
    pub pit_next: Vec<PlaceId>,
    /// The pit across the board, or the pit itself on a ring.
    pub opposite: Vec<PlaceId>,
    /// For each place, the pit of the same number on the other player's rows (`twin`), or the place itself.
    pub twin: Vec<PlaceId>,
    /// For each place, its number in its row counted from its first owner's left (`number`); 0 off the rows.
    pub number: Vec<u8>,
    /// For each place, the pits across the middle of the board in its column (`facing`), as bits.
    pub facing: Vec<PitSet>,
    /// For each place, the pit behind it in its column, one row further from the middle of the board on its
    /// side (`behind`), and the pit in front of it, one row nearer the middle (`ahead`); `NO_PLACE` where
    /// there is none (an outer pit has none behind it, a pit of the middle rows none in front).
    pub behind: Vec<PlaceId>,
    pub ahead: Vec<PlaceId>,
    /// Named sets of pits: the board's named rows, then the `region` declarations.
    pub regions: Vec<Region>,
    pub initial_owner: Vec<u8>,
    pub setup: Vec<u8>,
    pub phases: Vec<PhaseRules>,
    pub end: EndRules,
    pub score: Num,
    pub ties: Ties,
    pub goal: Option<Cond>,
    /// What the engine must keep track of, decided once here so plain games pay for nothing else.
    pub needs: Needs,
    pub limit: u32,
    pub total_pieces: u32,
    /// The rule file's own sentences (`///` lines) for the score and the goal, for the summary.
    pub score_doc: Option<String>,
    pub goal_doc: Option<String>,
    /// The marks pits can carry (`mark NAME ...`), by index: the ones kept for the whole game first, then
    /// those `for one ply`. A state keeps them in `State::marks`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<MarkInfo>,
    /// The marks of the pits at the start (`mark TARGETS as NAME` in the setup), laid out as
    /// `State::marks`; empty when the setup marks nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub setup_marks: Vec<u8>,
    /// `rounds { ... }`: the game is a match of rounds; `None` for a game of one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rounds: Option<RoundRules>,
    /// Where the rules that a traced ply tells of stand in the file, and their sentences (`RuleRef`). Not
    /// part of what the rules mean: left out of their serialization, so of `session::rules_hash` too.
    #[serde(skip)]
    pub sources: Vec<RuleSource>,
}

impl Rules {
    /// Where a rule stands in the file, when lowering noted it.
    pub fn source(&self, rule: RuleRef) -> Option<&RuleSource> {
        self.sources.iter().find(|s| s.rule == rule)
    }

    /// The number of marks kept from ply to ply: they are part of a position.
    pub fn lasting_marks(&self) -> usize {
        self.marks.iter().take_while(|m| !m.one_ply).count()
    }

    /// Whether any rule can change who owns a pit: an offer, a `give` in a capture, or a refill that claims.
    pub fn owners_can_change(&self) -> bool {
        let claims = self.rounds.as_ref().is_some_and(|r| r.refills.iter().any(|f| f.claim.is_some()));
        claims
            || self.phases.iter().flat_map(|p| &p.actions).any(|a| match &a.kind {
                ActionKind::Offer(_) => true,
                ActionKind::Sow(sow) => sow
                    .captures
                    .iter()
                    .chain(&sow.drop_captures)
                    .chain(&sow.lift_captures)
                    .chain(&sow.answers)
                    .flat_map(|c| &c.steps)
                    .any(|s| matches!(s.action, MarkStep::Give { .. })),
                ActionKind::Put(_) | ActionKind::Take(_) => false,
            })
    }
}

#[derive(Clone, Copy, Default, Serialize)]
pub struct Needs {
    /// Record, per place, the count before and the kind of the last drop of this move (`before`, `dropped`).
    pub drops: bool,
    pub repetition: bool,
    /// Some rule can move pieces from off the board (a store, a supply, the captured pieces) back onto its
    /// pits, so the number of pieces on the board can go up again (`pieces_can_return`). Without it, that
    /// number never goes up, and the history of positions for `repetition` can start afresh whenever it
    /// changes.
    pub refills: bool,
    pub rounds: bool,
    pub elimination: bool,
    /// Record the places dropped into during the current turn (`passed`).
    pub passed: bool,
    /// Record the pits the first capture of each ply takes from (`taken_first`, `threats`).
    pub taken_first: bool,
    /// Count each player's plies (`moves(PLAYER)`).
    pub moves: bool,
}

/// As derived, but `passed` is written only when set, so that the dumps of games without it read as before.
impl std::fmt::Debug for Needs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut d = f.debug_struct("Needs");
        d.field("drops", &self.drops)
            .field("repetition", &self.repetition)
            .field("refills", &self.refills)
            .field("rounds", &self.rounds)
            .field("elimination", &self.elimination);
        if self.passed {
            d.field("passed", &self.passed);
        }
        if self.taken_first {
            d.field("taken_first", &self.taken_first);
        }
        if self.moves {
            d.field("moves", &self.moves);
        }
        d.finish()
    }
}

/// For serde's `skip_serializing_if` in the files of this module.
fn all_none<T>(v: &[Option<T>]) -> bool {
    v.iter().all(Option::is_none)
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}
