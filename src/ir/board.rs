//! The board: its shape, regions, places, kinds of pieces and marks.

use super::*;

/// A mark that pits can carry.
#[derive(Debug, Clone, Serialize)]
pub struct MarkInfo {
    pub name: String,
    /// Carried for a player (`tuzdyk(mover)`), not just carried.
    pub per_player: bool,
    /// Cleared when the next ply starts.
    pub one_ply: bool,
    /// `for N plies` (N >= 2; 0 otherwise): a pit's mark is cleared when the Nth ply after the one that made
    /// it starts. Such a mark is part of a position, with the plies it has left.
    #[serde(skip_serializing_if = "is_zero")]
    pub plies: u32,
    /// `until empty`: lost when its pit is emptied (by a lift, a take or a sweep).
    #[serde(skip_serializing_if = "is_false")]
    pub until_empty: bool,
}

/// A mark's index in `Rules::marks`.
pub type MarkId = u8;

/// What a state's mark cell holds when the pit does not carry the mark; otherwise it holds the player the
/// pit carries it for, plus one (1 for a mark that is not per player).
pub const UNMARKED: u8 = 0;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Shape {
    TwoRows {
        pits: u16,
        stores: bool,
    },
    Ring {
        pits: u16,
    },
    /// One row of pits, the first player's, numbered from the left; with `store`, a store at its right
    /// end, on the track.
    OneRow {
        pits: u16,
        store: bool,
    },
    /// Four rows of pits: each player owns the two rows on his side (his first, nearest him, and his second)
    /// and sows round a circuit of his own pits.
    FourRows {
        pits: u16,
    },
    /// Three rows of an even number of pits: the first player owns the row nearest him (`o1..oN`) and
    /// the right half of the middle row as he sees it (`i1..iN/2`), the second player the far row and the
    /// other half (`O..`, `I..`), each row numbered from its owner's left. One circuit runs round both
    /// players' pits, each player's a stretch of it: his outer row, then his half of the middle row back.
    ThreeRows {
        pits: u16,
    },
}

impl Shape {
    /// The number of rows of pits (a ring counts as none).
    pub fn rows(self) -> usize {
        match self {
            Shape::Ring { .. } => 0,
            Shape::OneRow { .. } => 1,
            Shape::TwoRows { .. } => 2,
            Shape::ThreeRows { .. } => 3,
            Shape::FourRows { .. } => 4,
        }
    }

    /// The number of pits in each row (of the ring).
    pub fn row_len(self) -> usize {
        match self {
            Shape::TwoRows { pits, .. }
            | Shape::Ring { pits }
            | Shape::OneRow { pits, .. }
            | Shape::ThreeRows { pits }
            | Shape::FourRows { pits } => pits as usize,
        }
    }
}

/// The pit in `column` (from the first player's left, from 0) and `row` (0 for the row nearest the first
/// player, 2 for the far one) on a board of three rows of `m` pits; the pits are numbered as the lowering
/// lays them out: the first player's outer row, his half of the middle row, then the second player's.
pub fn three_row_pit(m: usize, column: usize, row: usize) -> PlaceId {
    let (side, half) = (3 * m / 2, m / 2);
    let p = match row {
        0 => column,
        2 => side + m - 1 - column,
        _ if column >= half => m + column - half,
        _ => side + m + half - 1 - column,
    };
    p as PlaceId
}

/// A named set of pits: a named row (`inner`) or a `region`.
#[derive(Debug, Clone, Serialize)]
pub struct Region {
    pub name: String,
    /// A set per player (`inner(mover)`), or one fixed set.
    pub per_player: bool,
    /// For each player, his pits of the region, as bits; one entry for a fixed set.
    pub masks: Vec<PitSet>,
    /// Every pit of the region, whoever's.
    pub all: PitSet,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlaceInfo {
    /// The label used in move notation: `a`, `F`, `7`, `store(1)`, `centre`.
    pub label: String,
    /// The declared name without the player: `store`, `centre`; a pit's label for pits.
    pub name: String,
    pub is_pit: bool,
    pub on_track: bool,
    /// The fixed owner of an off-board place or store; for pits the owner lives in the state.
    pub owner: u8,
}

#[derive(Debug, Clone, Serialize)]
pub struct KindInfo {
    pub name: String,
    pub symbol: String,
    pub value: i32,
    /// For coloured pieces, the seat whose colour this is.
    pub owner: u8,
}
