//! Sowing: its direction, laps, lifts, relays and captures (and the answers that name them).

use super::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum DirRule {
    Fixed(Dir),
    Choose,
    /// Chosen per lap: each lap is sown this way, or the other way where `Sow::lap_dir` holds at the end
    /// of that lap sown the other way, as the mover chooses.
    PerLap(Dir),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub enum Dir {
    Ccw = 0,
    Cw = 1,
}

impl Dir {
    pub fn reverse(self) -> Dir {
        match self {
            Dir::Ccw => Dir::Cw,
            Dir::Cw => Dir::Ccw,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Sow {
    /// `take { ... }` written first in the sowing: a take made before it, in the same ply. The ply's starts
    /// are then the pits the take can be made from; once it is made the mover picks the pit to sow from
    /// (`Stage::SowFrom`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub take_first: Option<TakeAction>,
    pub from: Set,
    pub filter: Cond,
    pub dir: DirRule,
    /// The mover picks each piece's kind as it is dropped.
    pub order_chosen: bool,
    /// With `order_chosen`: the last piece must be of the mover's colour.
    pub last_own: bool,
    pub skip_origin: bool,
    pub relay: Option<Cond>,
    /// `relay from next`: a relay lifts the place after the last one (`next`) and sows on from the place
    /// after that, rather than lifting the last pit.
    pub relay_next: bool,
    pub require: Option<Cond>,
    pub captures: Vec<CaptureRule>,
    /// `capture at every drop`: tried, the first that holds, at each place a piece is dropped into (`here`),
    /// as the piece falls; only takes, marks and gifts.
    pub drop_captures: Vec<CaptureRule>,
    /// `capture at every lift`: tried, the first that holds, at the pit each lap is about to be lifted from
    /// (`here` and `origin`: the first lap's and each relay's), before its pieces are lifted; only takes,
    /// marks and gifts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lift_captures: Vec<CaptureRule>,
    /// `opponent may [when COND] { ... }`: where a lap ends without a capture (none applies, or an optional
    /// one is declined), the first whose condition holds at the last place is offered to the opponent, who
    /// makes it or not before the move goes on (to its relay); `mover` in it is still the player making the
    /// move. Only takes, marks and gifts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub answers: Vec<CaptureRule>,
    pub again: Option<Cond>,
    pub then: Option<ThenRule>,
    /// The legality of a start depends on how the move plays out (`require`, `relay`): simulate it.
    pub lookahead: bool,
    /// The words of the choice of `relay may` (`as "safari" or "stop"`), and its own sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relay_answers: Option<Answers>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relay_may_doc: Option<String>,
    /// The rule file's own sentences for the relay, the requirement and the extra turn.
    pub relay_doc: Option<String>,
    pub require_doc: Option<String>,
    pub again_doc: Option<String>,
    /// `start at origin [when COND]`: when the condition holds as a lap starts, its first piece goes back
    /// into the pit the lap was lifted from.
    pub start_origin: Option<Cond>,
    /// `divert NAME to PLACE`: a piece dropped into a pit carrying the mark goes on to the place at once
    /// (`here` is that pit); such a last piece triggers no capture, relay or extra turn.
    pub divert: Vec<(MarkId, PlaceExpr)>,
    /// `mark` and `unmark` written in the sowing itself: made as each lap is lifted from a pit (the first
    /// and each relay), with `here` and `origin` that pit.
    pub lift_steps: Vec<MarkStep>,
    /// `skip NAME`: the marks (as bits of their indices) whose pits every lap passes over.
    pub skip_marks: u32,
    /// `skip SET where COND [except last]`: tested at each drop.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skip_where: Option<SkipWhere>,
    /// `skip PLACE`: the places written, as written (`store(opponent)`). The engine reads them already folded
    /// into `Rules::next`; they are kept here for readers of the plain rules (the reference semantics). Not
    /// serialized: `next` holds their meaning already, so the hash of the rules (`session::rules_hash`) stays.
    #[serde(skip)]
    pub skip_places: Vec<PlaceExpr>,
    /// With `DirRule::PerLap`: when a lap may go the other way, tested at the end of that lap sown so.
    pub lap_dir: Option<Cond>,
    /// What ends a lap may start another (a relay, a capture that sows its pieces, a direction per lap):
    /// the end of each lap is decided lap by lap (`Engine::end_lap`).
    pub laps: bool,
    /// `from A else B ...`: further groups of pits and their filters, each used only when no pit of the
    /// groups before can start.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub from_else: Vec<(Set, Cond)>,
    /// `direction ... where COND`: the ways a start may go (`direction` in it is the way considered).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dir_filter: Option<Cond>,
    /// `must capture`: a start may go only the ways whose first lap ends where a capture applies.
    #[serde(skip_serializing_if = "is_false")]
    pub must_capture: bool,
    /// `lift N [from PLACE] [when COND]`: the first whose condition holds as a lap starts says how many
    /// pieces it lifts, and from where; without one, a lap lifts all the pieces of its pit.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub lifts: Vec<LiftRule>,
    /// `relay may when COND`: where it holds at a lap's end (after the captures), the mover chooses whether
    /// to relay; declined, `relay` is tried.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub relay_may: Option<Cond>,
    /// `then mark SET as NAME[(PLAYER)] [where COND]`: made in the order written as the sowing's move ends,
    /// after its captures and its `then` selection.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub then_marks: Vec<ThenMark>,
}

/// `then mark SET as NAME[(PLAYER)] [where COND]`: the pits of the set (all worked out before any is marked)
/// that pass the condition, with `here` each pit, carry the mark.
#[derive(Debug, Clone, Serialize)]
pub struct ThenMark {
    pub set: Set,
    pub mark: MarkId,
    pub player: Option<PlayerExpr>,
    pub filter: Cond,
    pub doc: Option<String>,
}

/// `lift N [from PLACE] [when COND]`
#[derive(Debug, Clone, Serialize)]
pub struct LiftRule {
    pub count: u32,
    /// Where the pieces come from: the lap's own pit when `None`.
    pub from: Option<PlaceExpr>,
    /// Tested at the pit to be lifted (`here`), with `lap` the number of the lap that starts.
    pub when: Cond,
}

/// `skip SET where COND [except last]`: at each drop, the place the piece would fall into (past the fixed skips)
/// is passed over while it is in the set and the condition holds there (`here` that place), unless, with
/// `except_last`, the piece is the last in hand.
#[derive(Debug, Clone, Serialize)]
pub struct SkipWhere {
    pub set: Set,
    pub cond: Cond,
    pub except_last: bool,
}

impl Sow {
    /// Whether a lap passes over places it can only tell drop by drop (`skip NAME`, `skip ... where`): such a
    /// sowing is sown piece by piece.
    pub fn skips_by_piece(&self) -> bool {
        self.skip_marks != 0 || self.skip_where.is_some()
    }

    /// Whether a first lap may lift nothing: a `lift` from another place, which may be empty (§9.1: such a
    /// start is no move, found by playing it out).
    pub fn may_lift_nothing(&self) -> bool {
        self.lifts.iter().any(|l| l.from.is_some())
    }

    /// Whether which ways a start may go depends on more than the direction rule: a filter on the
    /// direction, or the first lap's capture.
    pub fn ways_checked(&self) -> bool {
        self.dir_filter.is_some() || self.must_capture
    }
}

/// The words that answer an optional relay or capture (`may as "safari" or "stop"`): typed at the prompt
/// (as `yes` and `no` are) and written in plies. `no` is `-` and the first word when the file gives none.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Answers {
    pub yes: String,
    pub no: String,
}

/// Words the notation and the REPL read for themselves, so that no answer (`may as "WORD"`) can be one:
/// the notation's tokens, the answers every yes/no question takes, and the REPL's commands.
pub const RESERVED_ANSWERS: &[&str] = &[
    "x", "-x", "relay", "-relay", "take", "pass", "accept", "decline", "cw", "ccw", "yes", "no", "y", "n", "moves",
    "m", "list", "undo", "u", "redo", "show", "board", "rules", "hint", "ai", "cancel", "save", "load", "new",
    "restart", "help", "h", "quit", "exit", "q", "history", "explain", "why",
];

#[derive(Debug, Clone, Serialize)]
pub struct CaptureRule {
    pub when: Cond,
    pub takes: Vec<TakeRule>,
    pub chain: Option<ChainRule>,
    pub cancel: Option<Cond>,
    pub doc: Option<String>,
    /// `capture may`: the mover chooses whether it happens; declined, the rules after it are tried.
    pub may: bool,
    /// The words of that choice (`may as "tuzdyk"`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answers: Option<Answers>,
    /// The marks and gifts of the capture, at each of its pits, in the order written among the takes.
    pub steps: Vec<Step>,
    /// `sow from PLACE`: the pieces taken to the hand are sown as a new lap from this place.
    pub resow: Option<PlaceExpr>,
    /// `continue at PLACE`: after the capture, the lap ends again at this place, as if its last piece had
    /// fallen there (its captures and relay are tried anew).
    pub go_on: Option<PlaceExpr>,
    /// `sow into PLACE`: the first of them goes into the place itself.
    #[serde(skip_serializing_if = "is_false")]
    pub resow_into: bool,
    /// `sow ... cw|ccw`: the new lap goes this way (and the sowing from then on); otherwise the way it went.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resow_dir: Option<Dir>,
    /// `take { ... }` in an answer (`opponent may`) or a capture at every lift: the pit is chosen (by the
    /// opponent, by the mover) among the pits of the set that qualify, `here` in its condition and place;
    /// such a rule holds this take alone (no `takes`, no `steps`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pick: Option<super::TakeAction>,
}

/// A mark or gift of a capture, made just before take number `before` of the pit (after them all when
/// `before` is the number of takes).
#[derive(Debug, Clone, Serialize)]
pub struct Step {
    pub before: u8,
    pub action: MarkStep,
}

#[derive(Debug, Clone, Serialize)]
pub enum MarkStep {
    /// `mark PLACE as NAME[(PLAYER)]`
    Mark { place: PlaceExpr, mark: MarkId, player: Option<PlayerExpr> },
    /// `unmark PLACE [NAME]`: every mark when `None`.
    Unmark { place: PlaceExpr, mark: Option<MarkId> },
    /// `unmark SET [NAME]`: the same at every pit of the set (read before any mark is taken off).
    UnmarkSet { set: Set, mark: Option<MarkId> },
    /// `give PLACE to PLAYER`
    Give { place: PlaceExpr, to: PlayerExpr },
}

#[derive(Debug, Clone, Serialize)]
pub struct ChainRule {
    pub backward: bool,
    pub forward: bool,
    pub cond: Cond,
}

#[derive(Debug, Clone, Serialize)]
pub struct TakeRule {
    /// `None`: every matching piece.
    pub count: Option<u32>,
    pub kinds: KindSel,
    /// The mover chooses which place (and kind) each piece comes from.
    pub chosen: bool,
    /// Alternatives in order: the first that holds a matching piece is used.
    pub from: Vec<Vec<Set>>,
    /// `where COND`: only the places of the sources for which it holds (`here` each of them), tested on the
    /// position before the take.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub filter: Option<Cond>,
    pub to: TakeTo,
}

#[derive(Debug, Clone, Serialize)]
pub enum TakeTo {
    Place(PlaceExpr),
    Each(Set),
    /// The mover's hand, sown on by the capture's `sow from`.
    Hand,
}

#[derive(Debug, Clone, Serialize)]
pub struct ThenRule {
    pub must: bool,
    pub kinds: KindSel,
    pub set: Set,
    pub filter: Cond,
    pub to: PlaceExpr,
    pub doc: Option<String>,
}
