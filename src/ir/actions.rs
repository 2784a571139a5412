//! A phase and its actions: how a turn may pass or must be played, and the actions other than
//! sowing (put, take, offer).

use super::*;

#[derive(Debug, Clone, Serialize)]
pub struct PhaseRules {
    pub name: String,
    pub actions: Vec<Action>,
    /// `pass when cannot ...`: the actions whose impossibility allows a pass (all when `None`).
    pub pass: Option<PassRule>,
    pub must: Option<MustRule>,
    pub until: Option<Cond>,
    pub end: EndRules,
    pub until_doc: Option<String>,
    /// `again when COND`: after a ply of this phase, the mover plays again while it holds.
    pub again: Option<Cond>,
    pub again_doc: Option<String>,
    /// `prefer A, B, ...`: actions by rank (indices); of these, only the first that can start is allowed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub prefer: Vec<u8>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PassRule {
    /// Indices of the actions that must all be impossible.
    pub unless: Vec<u8>,
    pub doc: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct MustRule {
    pub after: Cond,
    pub when: Cond,
    pub otherwise_end: bool,
    pub doc: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Action {
    pub name: String,
    pub kind: ActionKind,
    /// The rule file's own sentence for this action (a `///` line before it), for the summary.
    pub doc: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub enum ActionKind {
    Sow(Sow),
    Put(Put),
    Take(TakeAction),
    Offer(Offer),
}

#[derive(Debug, Clone, Serialize)]
pub struct Put {
    pub count: u32,
    pub kinds: KindSel,
    pub from: PlaceExpr,
    pub into: Set,
    pub filter: Cond,
    pub min_times: u32,
    /// `None`: as many as the mover likes and can.
    pub max_times: Option<u32>,
    /// A started put may not reach `min_times` (the pits to put into run out first): the legality of a start
    /// depends on how it plays out, so it is simulated. Only when `min_times > 1` and a pit may refuse pieces
    /// (a filter) or the source is a pit (see `Put::start_needs`).
    pub lookahead: bool,
}

impl Put {
    /// The pieces the source must hold for a start. Without a filter and from a place off the board, a put
    /// can always go on into the pit it last filled, so only the source can run out: a start needs the pieces
    /// of every put it must make.
    pub fn start_needs(&self) -> u32 {
        if self.lookahead {
            self.count
        } else {
            self.count.saturating_mul(self.min_times)
        }
    }

    /// Whether a started put can fail to be made `min_times` times for want of a pit to put into.
    pub fn can_get_stuck(&self, n_pits: usize) -> bool {
        let from_off_board = match &self.from {
            PlaceExpr::Fixed(id) | PlaceExpr::OfPlayer(id, _) => (*id as usize) >= n_pits,
            _ => false,
        };
        self.min_times > 1 && !(matches!(self.filter, Cond::True) && from_off_board)
    }
}

/// `take [NAME] { [N] [KIND] from SET [where COND] to PLACE }`, a whole ply: the mover chooses a pit of `from`
/// that passes `filter` (`here` the pit) and holds `count` (at least one) such pieces; they go to `to`, worked
/// out with `here` the chosen pit.
#[derive(Debug, Clone, Serialize)]
pub struct TakeAction {
    /// `None`: every such piece of the pit.
    pub count: Option<u32>,
    pub kinds: KindSel,
    pub from: Set,
    pub filter: Cond,
    pub to: PlaceExpr,
}

#[derive(Debug, Clone, Serialize)]
pub struct Offer {
    pub min: u32,
    pub max: u32,
    pub from: Set,
    pub keeping: u32,
    pub requires: Vec<Cond>,
    pub on_accept: Vec<Effect>,
}

#[derive(Debug, Clone, Serialize)]
pub enum Effect {
    Take(TakeRule),
    GiveOffered(PlayerExpr),
}
