//! Lowered rules: the simplest form that runs.
//!
//! `check` is the only producer of `Rules`: names are resolved to indices, the chosen variant and player
//! count are applied, tracks and opposite pits are precomputed. The engine reads nothing else: no AST, no
//! strings while playing (names are kept only for printing).

use serde::Serialize;

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

/// A rule named by where it stands in the lowered rules: for the account of a ply step by step
/// (`engine::Event`, `explain`) and the counts of `simulate`, which tell it by its line and sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum RuleRef {
    /// An action of a phase: for a sowing, its `from` (the pits it may start from).
    Action { phase: u8, action: u8 },
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
    /// `end.items[index]` of a phase, or of the game (`phase: None`).
    End { phase: Option<u8>, index: u8 },
    /// `end.sweeps[index]` of a phase, or of the game (`phase: None`).
    Sweep { phase: Option<u8>, index: u8 },
}

/// Where a rule stands in the file, and its `///` sentence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleSource {
    pub rule: RuleRef,
    pub span: crate::ast::Span,
    pub doc: Option<String>,
}

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

fn all_none<T>(v: &[Option<T>]) -> bool {
    v.iter().all(Option::is_none)
}

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

fn is_zero(n: &u32) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl Sow {
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

// ---------------------------------------------------------------- expressions

#[derive(Debug, Clone, Serialize)]
pub enum Cond {
    True,
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
    Cmp(Num, CmpOp, Num),
    /// The number is one of a set of numbers up to 255.
    InInts(Num, IntSet),
    InSet(PlaceExpr, Set),
    PlaceEq(PlaceExpr, PlaceExpr, bool),
    PlayerEq(PlayerExpr, PlayerExpr, bool),
    /// `dropped(P) = KIND`: the kind of the last piece dropped into P this move is in the set.
    Dropped(PlaceExpr, KindSel, bool),
    AllPits(Set, Box<Cond>),
    AnyPits(Set, Box<Cond>),
    AllPlayers(Box<Cond>),
    AnyPlayers(Box<Cond>),
    /// Fast form of `here in pits(P)`, made by `optimize`.
    HereOwnedBy(PlayerExpr),
    /// `direction = D` (or `!=` with `false`): the way the current lap goes, or the way a start considered
    /// by `direction ... where` would go (`Ctx::dir`).
    Direction(Dir, bool),
    /// A condition the engine compiled to a closure (its index in the engine's table).
    Compiled(u32),
}

/// A set of the numbers 0..=255 (every count a place can hold), as bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IntSet(pub [u64; 4]);

impl IntSet {
    pub const MAX: u32 = 255;

    /// Adds `n`; false when it is past `MAX` (and is left out).
    pub fn insert(&mut self, n: u32) -> bool {
        if n > Self::MAX {
            return false;
        }
        self.0[(n / 64) as usize] |= 1 << (n % 64);
        true
    }

    #[inline]
    pub fn contains(&self, v: i32) -> bool {
        (0..=Self::MAX as i32).contains(&v) && self.0[(v / 64) as usize] & (1 << (v % 64)) != 0
    }

    /// The numbers of the set, smallest first.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..=Self::MAX).filter(|&n| self.contains(n as i32))
    }
}

/// `a / b` in rule files: rounds down, and a division by zero (which a check refuses where the divisor is
/// a constant) gives 0 rather than stopping the game.
#[inline]
pub fn div(a: i32, b: i32) -> i32 {
    a.checked_div_euclid(b).unwrap_or(0)
}

/// `a % b` in rule files: the remainder of `div`, never negative; by zero, `a` itself (so that
/// `b * (a / b) + a % b = a` always holds).
#[inline]
pub fn rem(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.checked_rem_euclid(b).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Serialize)]
pub enum Num {
    Const(i32),
    Count(Set, KindSel),
    Value(Set),
    Before(PlaceExpr),
    Size(Set),
    Add(Vec<Num>),
    Mul(Vec<Num>),
    /// Fast forms made by `optimize`: all pieces of `here`, of one place, of the pits a player owns.
    HereCount,
    PlaceCount(PlaceExpr),
    PitsCount(PlayerExpr),
    /// The number of a pit in its row (`number(X)`, see `Rules::number`).
    Number(PlaceExpr),
    /// The pieces lifted for the lap being started (`lifted`).
    Lifted,
    Sub(Box<Num>, Box<Num>),
    Div(Box<Num>, Box<Num>),
    Rem(Box<Num>, Box<Num>),
    /// `lap`: the lap of the move being sown, from 1.
    Lap,
    /// `captures(P)`: the plies of player P so far that made a capture (`State::capture_plies`).
    Captures(PlayerExpr),
    /// `moves(P)`: the plies player P has made so far (`State::plies_made`); 0 during his first.
    Moves(PlayerExpr),
    /// `round`: the round being played, from 1 (`State::round`).
    Round,
    /// `passed(P)`: 1 when a piece was dropped into P during this turn (`State::passed`), else 0.
    Passed(PlaceExpr),
}

impl Num {
    /// The value of a number made of constants only (`2 - 2`), which needs no position.
    pub fn constant(&self) -> Option<i32> {
        match self {
            Num::Const(v) => Some(*v),
            Num::Add(ns) => ns.iter().try_fold(0i32, |acc, n| Some(acc.wrapping_add(n.constant()?))),
            Num::Mul(ns) => ns.iter().try_fold(1i32, |acc, n| Some(acc.wrapping_mul(n.constant()?))),
            Num::Sub(a, b) => Some(a.constant()?.wrapping_sub(b.constant()?)),
            Num::Div(a, b) => Some(div(a.constant()?, b.constant()?)),
            Num::Rem(a, b) => Some(rem(a.constant()?, b.constant()?)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub enum PlaceExpr {
    Here,
    Last,
    Origin,
    Opposite(Box<PlaceExpr>),
    Fixed(PlaceId),
    /// A per-player place: `base + player`.
    OfPlayer(PlaceId, PlayerExpr),
    /// The pit of the same number on the other player's rows (`Rules::twin`).
    Twin(Box<PlaceExpr>),
    /// The one pit of a player's region (`kichwa(mover)`): the lowest bit of its mask.
    RegionPit(u16, PlayerExpr),
    /// The place after this one along the mover's track in the lap's direction (`next`), past the lap's
    /// origin too when the sowing skips it (the bool), and past the pits carrying a mark the sowing skips
    /// (`skip NAME`, the bits of `Sow::skip_marks`).
    Next(Box<PlaceExpr>, bool, u32),
    /// The pit behind this one in its column (`Rules::behind`); no place where there is none.
    Behind(Box<PlaceExpr>),
    /// The pit in front of this one in its column (`Rules::ahead`); no place where there is none.
    Ahead(Box<PlaceExpr>),
    /// `start`: the pit the move began from (the first lap's origin), whatever lap is being sown
    /// (`State::start`).
    Start,
}

#[derive(Debug, Clone, Serialize)]
pub enum PlayerExpr {
    Mover,
    Opponent,
    /// The player bound by a quantifier, `score` or `eliminate`.
    Bound,
    Owner(Box<PlaceExpr>),
}

#[derive(Debug, Clone, Serialize)]
pub enum Set {
    AllPits,
    PitsOf(PlayerExpr),
    Offered,
    One(PlaceExpr),
    /// Every player's place of one name: `base .. base + players`.
    EveryPlayer(PlaceId),
    /// The pits across the middle of the board from a place (`Rules::facing`).
    Facing(PlaceExpr),
    /// A region, every player's part of it (`inner`, or a fixed `region`).
    Region(u16),
    /// A player's part of a region (`inner(mover)`).
    RegionOf(u16, PlayerExpr),
    /// The pits carrying a mark: for one player, or (`None`) for anyone.
    Marked(MarkId, Option<PlayerExpr>),
    /// `threats(PLAYER)`: the pits that the first capture of each start the player could make now (as if he
    /// were to move, in the current phase) would take pieces from.
    Threats(PlayerExpr),
    /// `taken_first`: the pits the first capture of the ply being made took pieces from (`State::taken_first`).
    TakenFirst,
}

#[derive(Debug, Clone, Serialize)]
pub enum KindSel {
    All,
    Own,
    Foreign,
    Colour(PlayerExpr),
    Mask(KindMask),
}

// ---------------------------------------------------------------- offers

/// How a number moves while an offer is being chosen, when only the set of offered pits grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trend {
    Fixed,
    Grows,
    Unknown,
}

fn join(a: Trend, b: Trend) -> Trend {
    match (a, b) {
        (Trend::Unknown, _) | (_, Trend::Unknown) => Trend::Unknown,
        (Trend::Fixed, Trend::Fixed) => Trend::Fixed,
        _ => Trend::Grows,
    }
}

fn num_trend(n: &Num) -> Trend {
    match n {
        Num::Const(_)
        | Num::Before(_)
        | Num::HereCount
        | Num::PlaceCount(_)
        | Num::PitsCount(_)
        | Num::Number(_)
        | Num::Lifted
        | Num::Lap
        | Num::Round
        | Num::Passed(_)
        | Num::Captures(_)
        | Num::Moves(_) => Trend::Fixed,
        // Counts and sizes are never negative: over more pits they can only grow.
        Num::Count(Set::Offered, _) | Num::Size(Set::Offered) => Trend::Grows,
        // A piece's value may be negative.
        Num::Value(Set::Offered) => Trend::Unknown,
        Num::Count(..) | Num::Size(_) | Num::Value(_) => Trend::Fixed,
        Num::Add(ns) => ns.iter().map(num_trend).fold(Trend::Fixed, join),
        // A difference or quotient of numbers that do not move does not move; otherwise it may go either way.
        Num::Sub(a, b) | Num::Div(a, b) | Num::Rem(a, b) => {
            if num_trend(a) == Trend::Fixed && num_trend(b) == Trend::Fixed {
                Trend::Fixed
            } else {
                Trend::Unknown
            }
        }
        Num::Mul(ns) => {
            let trend = ns.iter().map(num_trend).fold(Trend::Fixed, join);
            let non_negative = |n: &Num| match n {
                Num::Const(c) => *c >= 0,
                Num::Count(..) | Num::Size(_) => true,
                _ => false,
            };
            if trend == Trend::Grows && !ns.iter().all(non_negative) {
                Trend::Unknown
            } else {
                trend
            }
        }
    }
}

/// Whether the condition cannot depend on which pits are offered.
fn offer_blind(c: &Cond) -> bool {
    match c {
        Cond::True
        | Cond::PlaceEq(..)
        | Cond::PlayerEq(..)
        | Cond::Dropped(..)
        | Cond::HereOwnedBy(_)
        | Cond::Direction(..) => true,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(offer_blind),
        Cond::Not(c) | Cond::AllPlayers(c) | Cond::AnyPlayers(c) => offer_blind(c),
        Cond::Cmp(a, _, b) => num_trend(a) == Trend::Fixed && num_trend(b) == Trend::Fixed,
        Cond::InInts(n, _) => num_trend(n) == Trend::Fixed,
        Cond::InSet(_, set) => !matches!(set, Set::Offered),
        Cond::AllPits(set, c) | Cond::AnyPits(set, c) => !matches!(set, Set::Offered) && offer_blind(c),
        Cond::Compiled(_) => false,
    }
}

/// Whether a `require` of an offer, once false, stays false as more pits are offered: then the search for a
/// completion of the offer can stop there (`count(captured(opponent)) >= 6 * size(offered)`).
pub fn fails_for_more_pits(c: &Cond) -> bool {
    match c {
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(fails_for_more_pits),
        Cond::Cmp(a, op, b) => matches!(
            (num_trend(a), op, num_trend(b)),
            (Trend::Fixed, _, Trend::Fixed)
                | (Trend::Fixed, CmpOp::Ge | CmpOp::Gt, Trend::Grows)
                | (Trend::Grows, CmpOp::Le | CmpOp::Lt, Trend::Fixed)
        ),
        other => offer_blind(other),
    }
}

// ---------------------------------------------------------------- pieces coming back

/// Whether any rule can move pieces from a place off the board (not a pit) onto a pit. Sowing never
/// does (it lifts from a pit and drops along the track), nor do end sweeps (the game is over); puts, takes
/// and `then` selections can. Where a place is only known while playing (`here`, `last`), both are assumed.
pub fn pieces_can_return(rules: &Rules) -> bool {
    let w = Where { n_pits: rules.n_pits, players: rules.players };
    rules.phases.iter().flat_map(|p| &p.actions).any(|a| match &a.kind {
        ActionKind::Put(put) => w.may_be_off(&put.from) && w.set_may_be_pit(&put.into),
        // Only pits are chosen: pieces go from a pit, never onto one from off the board.
        ActionKind::Take(_) => false,
        ActionKind::Sow(sow) => {
            let takes = sow
                .captures
                .iter()
                .chain(&sow.drop_captures)
                .chain(&sow.lift_captures)
                .chain(&sow.answers)
                .flat_map(|c| &c.takes);
            let then = sow.then.as_ref().is_some_and(|t| w.set_may_be_off(&t.set) && w.may_be_pit(&t.to));
            // A lap lifted from a place off the board sows its pieces onto the track.
            let lifts = sow.lifts.iter().any(|l| l.from.as_ref().is_some_and(|p| w.may_be_off(p)));
            then || lifts || takes.into_iter().any(|t| w.take_returns(t))
        }
        ActionKind::Offer(offer) => offer.on_accept.iter().any(|e| matches!(e, Effect::Take(t) if w.take_returns(t))),
    })
}

/// What kinds of place an expression can stand for: pits, other places, or both.
struct Where {
    n_pits: usize,
    players: u8,
}

impl Where {
    fn may_be_pit(&self, p: &PlaceExpr) -> bool {
        match p {
            PlaceExpr::Fixed(id) => (*id as usize) < self.n_pits,
            PlaceExpr::OfPlayer(base, _) => (*base as usize) < self.n_pits,
            _ => true,
        }
    }

    fn may_be_off(&self, p: &PlaceExpr) -> bool {
        match p {
            PlaceExpr::Fixed(id) => (*id as usize) >= self.n_pits,
            PlaceExpr::OfPlayer(base, _) => (*base as usize) + self.players as usize > self.n_pits,
            PlaceExpr::Origin
            | PlaceExpr::Start
            | PlaceExpr::Opposite(_)
            | PlaceExpr::Twin(_)
            | PlaceExpr::Behind(_)
            | PlaceExpr::Ahead(_)
            | PlaceExpr::RegionPit(..) => false,
            PlaceExpr::Here | PlaceExpr::Last | PlaceExpr::Next(..) => true,
        }
    }

    fn set_may_be_pit(&self, s: &Set) -> bool {
        match s {
            Set::One(p) => self.may_be_pit(p),
            Set::EveryPlayer(base) => (*base as usize) < self.n_pits,
            Set::AllPits | Set::PitsOf(_) | Set::Offered => true,
            Set::Facing(_) | Set::Region(_) | Set::RegionOf(..) => true,
            Set::Marked(..) | Set::Threats(_) | Set::TakenFirst => true,
        }
    }

    fn set_may_be_off(&self, s: &Set) -> bool {
        match s {
            Set::One(p) => self.may_be_off(p),
            Set::EveryPlayer(base) => (*base as usize) + self.players as usize > self.n_pits,
            Set::AllPits | Set::PitsOf(_) | Set::Offered => false,
            Set::Facing(_) | Set::Region(_) | Set::RegionOf(..) => false,
            Set::Marked(..) | Set::Threats(_) | Set::TakenFirst => false,
        }
    }

    fn take_returns(&self, take: &TakeRule) -> bool {
        let from_off = take.from.iter().flatten().any(|s| self.set_may_be_off(s));
        let to_pit = match &take.to {
            TakeTo::Place(p) => self.may_be_pit(p),
            TakeTo::Each(s) => self.set_may_be_pit(s),
            // The hand is sown onto the track.
            TakeTo::Hand => true,
        };
        from_off && to_pit
    }
}

// ---------------------------------------------------------------- relays

/// Whether a relay condition holds at the last pit of every sowing, whatever the position: then every
/// sowing relays again after each lap and can stop only in a place that is not a pit (a store on the track).
/// Only sure cases count: comparisons that the bounds of their numbers decide (a count is never negative, and
/// the last pit holds at least the piece just dropped), and `and`/`or` of them.
pub fn relay_always_holds(c: &Cond) -> bool {
    match c {
        Cond::True => true,
        Cond::And(cs) => cs.iter().all(relay_always_holds),
        Cond::Or(cs) => cs.iter().any(relay_always_holds),
        Cond::Cmp(a, op, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (bounds_at_last(a), bounds_at_last(b));
            match op {
                CmpOp::Ge => matches!((a_lo, b_hi), (Some(x), Some(y)) if x >= y),
                CmpOp::Gt => matches!((a_lo, b_hi), (Some(x), Some(y)) if x > y),
                CmpOp::Le => matches!((a_hi, b_lo), (Some(x), Some(y)) if x <= y),
                CmpOp::Lt => matches!((a_hi, b_lo), (Some(x), Some(y)) if x < y),
                CmpOp::Eq | CmpOp::Ne => false,
            }
        }
        _ => false,
    }
}

/// The least and greatest values a number can take at the last pit of a sowing (`None`: no bound known).
fn bounds_at_last(n: &Num) -> (Option<i64>, Option<i64>) {
    let at_last = |p: &PlaceExpr| matches!(p, PlaceExpr::Here | PlaceExpr::Last);
    match n {
        Num::Const(c) => (Some(*c as i64), Some(*c as i64)),
        // The last pit holds the piece just dropped there.
        Num::HereCount => (Some(1), None),
        Num::Count(Set::One(p), KindSel::All) | Num::PlaceCount(p) if at_last(p) => (Some(1), None),
        Num::Count(..) | Num::Size(_) | Num::Before(_) | Num::PlaceCount(_) | Num::PitsCount(_) | Num::Lifted => {
            (Some(0), None)
        }
        Num::Number(_) => (Some(0), Some(64)),
        Num::Value(_) => (None, None),
        Num::Lap | Num::Round => (Some(1), None),
        Num::Passed(_) => (Some(0), Some(1)),
        Num::Captures(_) | Num::Moves(_) => (Some(0), None),
        Num::Add(ns) => ns.iter().map(bounds_at_last).fold((Some(0), Some(0)), |(lo, hi), (l, h)| {
            (lo.zip(l).map(|(a, b)| a.saturating_add(b)), hi.zip(h).map(|(a, b)| a.saturating_add(b)))
        }),
        Num::Sub(a, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (bounds_at_last(a), bounds_at_last(b));
            (a_lo.zip(b_hi).map(|(x, y)| x.saturating_sub(y)), a_hi.zip(b_lo).map(|(x, y)| x.saturating_sub(y)))
        }
        // A remainder by a positive constant lies between 0 and that constant less one.
        Num::Rem(_, b) => match b.constant() {
            Some(d) if d > 0 => (Some(0), Some(d as i64 - 1)),
            _ => (None, None),
        },
        Num::Div(..) => (None, None),
        Num::Mul(ns) => {
            // Only a product of numbers that are never negative has a known least value.
            let bounds: Vec<_> = ns.iter().map(bounds_at_last).collect();
            if bounds.iter().all(|(lo, _)| lo.is_some_and(|l| l >= 0)) {
                let lo = bounds.iter().map(|(lo, _)| lo.unwrap_or(0)).fold(1i64, i64::saturating_mul);
                let hi = bounds.iter().try_fold(1i64, |acc, (_, hi)| hi.map(|h| acc.saturating_mul(h)));
                (Some(lo), hi)
            } else {
                (None, None)
            }
        }
    }
}

// ---------------------------------------------------------------- the last sowing

/// Whether a condition reads where the last sowing was (`last`, `origin`, `next`, `before`, `dropped`):
/// before the first ply there is none, so an end rule that does is not tested there.
pub fn reads_last_sowing(c: &Cond) -> bool {
    match c {
        Cond::True | Cond::Direction(..) | Cond::Compiled(_) => false,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(reads_last_sowing),
        Cond::Not(c) | Cond::AllPlayers(c) | Cond::AnyPlayers(c) => reads_last_sowing(c),
        Cond::Cmp(a, _, b) => num_reads_sowing(a) || num_reads_sowing(b),
        Cond::InInts(n, _) => num_reads_sowing(n),
        Cond::InSet(p, s) => place_reads_sowing(p) || set_reads_sowing(s),
        Cond::PlaceEq(a, b, _) => place_reads_sowing(a) || place_reads_sowing(b),
        Cond::PlayerEq(a, b, _) => player_reads_sowing(a) || player_reads_sowing(b),
        Cond::Dropped(..) => true,
        Cond::AllPits(s, c) | Cond::AnyPits(s, c) => set_reads_sowing(s) || reads_last_sowing(c),
        Cond::HereOwnedBy(p) => player_reads_sowing(p),
    }
}

fn num_reads_sowing(n: &Num) -> bool {
    match n {
        Num::Const(_) | Num::HereCount | Num::Lifted | Num::Lap | Num::Round => false,
        Num::Before(_) => true,
        Num::Count(s, k) => set_reads_sowing(s) || kind_reads_sowing(k),
        Num::Value(s) | Num::Size(s) => set_reads_sowing(s),
        Num::Add(ns) | Num::Mul(ns) => ns.iter().any(num_reads_sowing),
        Num::Sub(a, b) | Num::Div(a, b) | Num::Rem(a, b) => num_reads_sowing(a) || num_reads_sowing(b),
        Num::PlaceCount(p) | Num::Number(p) | Num::Passed(p) => place_reads_sowing(p),
        Num::PitsCount(p) | Num::Captures(p) | Num::Moves(p) => player_reads_sowing(p),
    }
}

fn place_reads_sowing(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Last | PlaceExpr::Origin | PlaceExpr::Start | PlaceExpr::Next(..) => true,
        PlaceExpr::Here | PlaceExpr::Fixed(_) => false,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => {
            place_reads_sowing(p)
        }
        PlaceExpr::OfPlayer(_, who) | PlaceExpr::RegionPit(_, who) => player_reads_sowing(who),
    }
}

fn player_reads_sowing(p: &PlayerExpr) -> bool {
    matches!(p, PlayerExpr::Owner(place) if place_reads_sowing(place))
}

fn set_reads_sowing(s: &Set) -> bool {
    match s {
        Set::AllPits | Set::Offered | Set::EveryPlayer(_) | Set::Region(_) | Set::TakenFirst => false,
        Set::One(p) | Set::Facing(p) => place_reads_sowing(p),
        Set::PitsOf(who) | Set::RegionOf(_, who) | Set::Threats(who) => player_reads_sowing(who),
        Set::Marked(_, who) => who.as_ref().is_some_and(player_reads_sowing),
    }
}

fn kind_reads_sowing(k: &KindSel) -> bool {
    matches!(k, KindSel::Colour(who) if player_reads_sowing(who))
}

// ---------------------------------------------------------------- optimization

/// Calls `f` on every top-level condition of the rules: filters, capture conditions, end rules, goals.
pub fn visit_conds_mut(rules: &mut Rules, f: &mut impl FnMut(&mut Cond)) {
    for phase in &mut rules.phases {
        for action in &mut phase.actions {
            match &mut action.kind {
                ActionKind::Sow(sow) => {
                    f(&mut sow.filter);
                    for c in [&mut sow.relay, &mut sow.require, &mut sow.again].into_iter().flatten() {
                        f(c);
                    }
                    let all = sow.captures.iter_mut().chain(&mut sow.drop_captures).chain(&mut sow.lift_captures);
                    for cap in all.chain(&mut sow.answers) {
                        f(&mut cap.when);
                        if let Some(chain) = &mut cap.chain {
                            f(&mut chain.cond);
                        }
                        if let Some(c) = &mut cap.cancel {
                            f(c);
                        }
                    }
                    if let Some(then) = &mut sow.then {
                        f(&mut then.filter);
                    }
                    if let Some(c) = &mut sow.start_origin {
                        f(c);
                    }
                    if let Some(c) = &mut sow.dir_filter {
                        f(c);
                    }
                    if let Some(c) = &mut sow.relay_may {
                        f(c);
                    }
                    for lift in &mut sow.lifts {
                        f(&mut lift.when);
                    }
                    for (_, c) in &mut sow.from_else {
                        f(c);
                    }
                }
                ActionKind::Put(put) => f(&mut put.filter),
                ActionKind::Take(take) => f(&mut take.filter),
                ActionKind::Offer(offer) => offer.requires.iter_mut().for_each(&mut *f),
            }
        }
        if let Some(m) = &mut phase.must {
            f(&mut m.after);
            f(&mut m.when);
        }
        if let Some(u) = &mut phase.until {
            f(u);
        }
        visit_end(&mut phase.end, f);
    }
    visit_end(&mut rules.end, f);
    if let Some(g) = &mut rules.goal {
        f(g);
    }
}

fn visit_end(end: &mut EndRules, f: &mut impl FnMut(&mut Cond)) {
    for item in &mut end.items {
        if let EndRule::When(c) | EndRule::Eliminate(c) | EndRule::AtEveryLap(c) = item {
            f(c);
        }
    }
}

/// Rewrites the common shapes of conditions into the fast forms the engine evaluates directly.
/// It changes no meaning.
pub fn optimize(rules: &mut Rules) {
    for phase in &mut rules.phases {
        for action in &mut phase.actions {
            if let ActionKind::Sow(sow) = &mut action.kind {
                // Sowing always needs a non-empty pit, so `count > 0` says nothing more.
                if is_nonempty_test(&sow.filter) {
                    sow.filter = Cond::True;
                }
            }
        }
    }
    visit_conds_mut(rules, &mut opt_cond);
    opt_num(&mut rules.score);
}

fn is_nonempty_test(c: &Cond) -> bool {
    matches!(
        c,
        Cond::Cmp(Num::Count(Set::One(PlaceExpr::Here), KindSel::All), CmpOp::Gt, Num::Const(0))
            | Cond::Cmp(Num::Count(Set::One(PlaceExpr::Here), KindSel::All), CmpOp::Ge, Num::Const(1))
    )
}

fn opt_cond(c: &mut Cond) {
    match c {
        Cond::And(cs) | Cond::Or(cs) => cs.iter_mut().for_each(opt_cond),
        Cond::Not(c) | Cond::AllPits(_, c) | Cond::AnyPits(_, c) | Cond::AllPlayers(c) | Cond::AnyPlayers(c) => {
            opt_cond(c)
        }
        Cond::Cmp(a, _, b) => {
            opt_num(a);
            opt_num(b);
        }
        Cond::InInts(n, _) => opt_num(n),
        Cond::InSet(PlaceExpr::Here, Set::PitsOf(p)) => *c = Cond::HereOwnedBy(p.clone()),
        _ => {}
    }
}

fn opt_num(n: &mut Num) {
    match n {
        Num::Count(Set::One(PlaceExpr::Here), KindSel::All) => *n = Num::HereCount,
        Num::Count(Set::One(p), KindSel::All) => *n = Num::PlaceCount(p.clone()),
        Num::Count(Set::PitsOf(p), KindSel::All) => *n = Num::PitsCount(p.clone()),
        Num::Add(ns) | Num::Mul(ns) => ns.iter_mut().for_each(opt_num),
        Num::Sub(a, b) | Num::Div(a, b) | Num::Rem(a, b) => {
            opt_num(a);
            opt_num(b);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size() -> Num {
        Num::Size(Set::Offered)
    }

    #[test]
    fn relay_conditions_that_always_hold() {
        let before = || Num::Before(PlaceExpr::Here);
        let c = |a: Num, op, b: i32| Cond::Cmp(a, op, Num::Const(b));
        assert!(relay_always_holds(&c(before(), CmpOp::Ge, 0)));
        assert!(relay_always_holds(&c(Num::Count(Set::One(PlaceExpr::Here), KindSel::All), CmpOp::Ge, 1)));
        assert!(relay_always_holds(&Cond::Or(vec![c(before(), CmpOp::Ge, 2), c(before(), CmpOp::Gt, -1)])));
        // These can fail.
        assert!(!relay_always_holds(&c(before(), CmpOp::Ge, 2)));
        assert!(!relay_always_holds(&c(Num::Count(Set::One(PlaceExpr::Here), KindSel::Own), CmpOp::Ge, 1)));
        assert!(!relay_always_holds(&c(Num::Value(Set::AllPits), CmpOp::Ge, 0)));
        assert!(!relay_always_holds(&Cond::And(vec![c(before(), CmpOp::Ge, 0), c(before(), CmpOp::Le, 3)])));
    }

    #[test]
    fn offers_that_only_get_harder() {
        let bank = Num::PlaceCount(PlaceExpr::Fixed(9));
        // Goré: the opponent must be able to pay 6 per offered pit.
        let pays = Cond::Cmp(bank.clone(), CmpOp::Ge, Num::Mul(vec![Num::Const(6), size()]));
        assert!(fails_for_more_pits(&pays));
        assert!(fails_for_more_pits(&Cond::Cmp(size(), CmpOp::Le, Num::Const(2))));
        assert!(fails_for_more_pits(&Cond::And(vec![pays.clone(), Cond::HereOwnedBy(PlayerExpr::Mover)])));
        // More pits can make these true.
        assert!(!fails_for_more_pits(&Cond::Cmp(size(), CmpOp::Ge, Num::Const(2))));
        assert!(!fails_for_more_pits(&Cond::Cmp(size(), CmpOp::Eq, Num::Const(2))));
        assert!(!fails_for_more_pits(&Cond::Not(Box::new(pays))));
        assert!(!fails_for_more_pits(&Cond::Cmp(Num::Value(Set::Offered), CmpOp::Le, Num::Const(3))));
        let negative = Num::Mul(vec![Num::Const(-1), size()]);
        assert!(!fails_for_more_pits(&Cond::Cmp(bank, CmpOp::Ge, negative)));
    }
}
