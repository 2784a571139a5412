//! A match of rounds: the refills of the next round and who starts it.

use super::*;

/// A match of rounds: what happens when the end rules end a round.
#[derive(Debug, Clone, Serialize)]
pub struct RoundRules {
    /// The refills of the next round's pits, in the order written.
    pub refills: Vec<Refill>,
    pub first: FirstRule,
    /// `match when COND`: checked after the refills; when it holds, the match is over.
    pub match_when: Option<Cond>,
    /// `limit N rounds`: the match is over after this many rounds.
    pub limit: Option<u32>,
    /// The rule file's own sentences for the refills, the starter rule and the match rule.
    pub refill_docs: Vec<Option<String>>,
    pub first_doc: Option<String>,
    pub match_doc: Option<String>,
}

/// `refill SET from PLACE with N [backward] [else mark MARK]`.
#[derive(Debug, Clone, Serialize)]
pub struct Refill {
    /// The pits to fill, evaluated for each player in turn (`player` bound).
    pub set: Set,
    /// Where the pieces come from (`player` bound, `here` the pit being filled).
    pub from: PlaceExpr,
    pub count: u32,
    /// `borrow K from PLACE` (`player` bound, `here` the pit): a source holding 1 to K pieces fewer than
    /// `count` still fills one more pit, the pieces lacking taken from this place when it holds them.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub borrow: Option<(u32, PlaceExpr)>,
    /// From the pit of the highest number (`Rules::number`) down, instead of up from the lowest.
    pub backward: bool,
    /// `claim from PLACE` (`player` bound): each player in turn walks the track from this pit (against it,
    /// with `backward`), fills the empty pits of the set he reaches and owns them; the pits of the sets
    /// nobody fills are nobody's (and carry the mark).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<PlaceExpr>,
    /// The mark a pit carries when it cannot be filled (for its owner, for a mark per player); a filled pit
    /// loses it.
    pub mark: Option<MarkId>,
}

/// Who starts the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum FirstRule {
    /// The round's winner; after a drawn round, the player after the one who started it.
    Winner,
    /// The round's loser (the lowest score); after a drawn round, the player after the one who started it.
    Loser,
    /// The player after the one who started the round.
    Alternate,
}
