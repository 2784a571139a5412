//! The abstract syntax tree: the rule file as written, with byte spans and unresolved names.
//!
//! The AST never imports pest; `syntax` builds it, `check` resolves it. It serializes with serde so that
//! tools (and our snapshot tests) can look at exactly what the parser understood.

use serde::{Deserialize, Serialize};

/// A byte range in the source text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    pub fn len(&self) -> usize {
        self.end - self.start
    }
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }
}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> Self {
        (span.start, span.len()).into()
    }
}

/// A node with the span of its text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spanned<T> {
    pub node: T,
    pub span: Span,
}

impl<T> Spanned<T> {
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// A name or a label as written, resolved later by `check`.
pub type Name = Spanned<String>;

/// A whole rule file: its items in source order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct File {
    pub items: Vec<Item>,
    /// The `///` sentences, each for the rule that follows it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub docs: Vec<Doc>,
}

/// A `///` sentence (consecutive lines joined) and where the rule it tells starts: the start of the rule's
/// span in the AST (for `until`, `score` and `goal`, of their condition or term).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Doc {
    pub text: String,
    pub span: Span,
    pub target: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Item {
    Game(Name),
    About(Spanned<String>),
    Players(Spanned<Players>),
    Board(Spanned<Board>),
    Place(Spanned<PlaceDecl>),
    Pieces(Spanned<Pieces>),
    Setup(Spanned<Vec<SetupLine>>),
    Phase(Spanned<Phase>),
    End(Spanned<Vec<EndItem>>),
    Score(Term),
    Winner(Spanned<TieRule>),
    Goal(Cond),
    Variant(Spanned<Variant>),
    /// `region NAME [per player]: LABEL, ...`
    Region(Spanned<RegionDecl>),
    /// `mark NAME [per player] [for one ply]`
    Mark(Spanned<MarkDecl>),
    /// `rounds { ... }`: the game is a match of rounds.
    Rounds(Spanned<Vec<RoundsItem>>),
}

/// A rule of a `rounds { ... }` block.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RoundsItem {
    Refill(Spanned<Refill>),
    First(Spanned<FirstRule>),
    /// `match when CONDITION`
    MatchWhen(Cond),
    /// `limit N rounds`
    Limit(Spanned<u32>),
}

/// `refill SET from PLACE with N [borrow K from PLACE] [backward] [claim from PLACE] [else mark NAME]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Refill {
    pub set: SetExpr,
    pub from: Place,
    pub count: Spanned<u32>,
    /// `borrow K from PLACE`: up to K pieces lacking for one more pit are taken from this place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub borrow: Option<(Spanned<u32>, Place)>,
    /// From the pit of the highest number down.
    #[serde(default, skip_serializing_if = "is_false")]
    pub backward: bool,
    /// `claim from PLACE`: the pits are taken along the track from this place, each player's in turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim: Option<Place>,
    /// The mark a pit that cannot be filled carries.
    pub mark: Option<Name>,
}

/// Who starts the next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum FirstRule {
    Winner,
    Loser,
    Alternate,
}

/// `mark NAME [per player] [for one ply | for N plies] [until empty]`: a mark that pits carry or not.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarkDecl {
    pub name: Name,
    /// The mark is carried for one player (`tuzdyk(mover)`), not just carried.
    pub per_player: bool,
    /// The mark lasts until the ply that made it is over (the end rules after it see it).
    pub one_ply: bool,
    /// `for N plies`: each pit's mark is cleared when the Nth ply after the one that made it starts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plies: Option<Spanned<u32>>,
    /// `until empty`: the mark is lost when its pit is emptied.
    #[serde(default, skip_serializing_if = "is_false")]
    pub until_empty: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Players {
    pub min: Spanned<u32>,
    pub max: Option<Spanned<u32>>,
    pub default: Option<Spanned<u32>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Board {
    /// Two rows of `pits` pits each, optionally with a store at each player's right end.
    TwoRows { pits: Spanned<u32>, stores: bool },
    /// A ring of `pits` pits, numbered clockwise from 1.
    Ring { pits: Spanned<u32> },
    /// `rows R of N`: `rows` rows of `pits` pits each, optionally with stores on the track, and names for
    /// each player's rows from his own edge inward (`{ rows outer, inner }`).
    Rows { rows: Spanned<u32>, pits: Spanned<u32>, stores: bool, names: Vec<Name> },
}

/// A named set of pits: `region leftmost per player: o1, o2, i1, i2`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionDecl {
    pub name: Name,
    /// The labels are the first player's; every other player gets the pits of the same numbers on his rows.
    pub per_player: bool,
    pub labels: Vec<Name>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PlaceDecl {
    pub name: Name,
    pub per_player: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Pieces {
    /// Plain seeds: only counts matter.
    Seeds,
    /// One colour per player, in seat order.
    PerPlayer(Vec<KindDecl>),
    /// Kinds of pieces, possibly with values; kinds sharing a name form a class (`gem`).
    Kinds(Vec<KindDecl>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct KindDecl {
    pub name: Name,
    pub symbol: Spanned<String>,
    pub value: Option<Spanned<u32>>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SetupLine {
    pub targets: Vec<Spanned<Target>>,
    pub contents: Vec<Spanned<Content>>,
    pub span: Span,
    /// `mark TARGETS as NAME`: the targets carry this mark at the start (and `contents` is empty).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mark: Option<Name>,
    /// `TARGETS: exactly CONTENTS`: what the lines before put on the targets is taken off first.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exactly: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Target {
    /// `every pit` or `every NAME` (each player's place of that name).
    Every(Name),
    /// A pit label: `a`, `F`, `7`.
    Label(Name),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Content {
    pub count: Spanned<u32>,
    pub kind: Option<Spanned<KindSel>>,
}

/// Which pieces: `own`, `foreign`, a player's colour, a kind or class (`gem`), or one kind of a class (`gem 5`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum KindSel {
    Own,
    Foreign,
    Player(PlayerRef),
    Named { name: Name, value: Option<Spanned<u32>> },
}

/// A phase of play; `turn { ... }` is a phase with no name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Phase {
    pub name: Option<Name>,
    pub items: Vec<PhaseItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PhaseItem {
    Sow(Spanned<Sow>),
    Put(Spanned<Put>),
    /// `take [NAME] { ... }`: a chosen pit's pieces moved to a place, as a turn's action.
    Take(Spanned<TakeAction>),
    Offer(Spanned<Offer>),
    Pass(Spanned<PassWhen>),
    Must(Spanned<Must>),
    Until(Cond),
    End(Spanned<Vec<EndItem>>),
    /// `again when COND`: the mover plays again after a ply of this phase while it holds.
    Again(Spanned<Cond>),
    /// `prefer A, B, ...`: of these actions, only the first that can start is allowed.
    Prefer(Spanned<Vec<Name>>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sow {
    pub name: Option<Name>,
    pub items: Vec<SowItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SowItem {
    From {
        set: SetExpr,
        filter: Option<Cond>,
        span: Span,
        /// `else SET [where COND]`: further groups of pits, each used only when none before can start.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        alternatives: Vec<(SetExpr, Option<Cond>)>,
    },
    Direction(Spanned<DirWord>),
    /// `take { [N] [KIND] from SET [where COND] to PLACE }` as a sowing's first step: a take made before the
    /// sowing, in the same ply.
    Take(Spanned<TakeAction>),
    Order {
        last_own: bool,
        span: Span,
    },
    Skip(Spanned<SkipTarget>),
    Relay(Spanned<Cond>),
    /// `relay from next when COND`: the pit after the last one is lifted and sown on from the pit after it.
    RelayFromNext(Spanned<Cond>),
    /// `relay may [as "WORD" [or "WORD"]] when COND`: the mover chooses whether to relay there.
    RelayMay {
        when: Spanned<Cond>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        answers: Option<Answers>,
    },
    /// `lift N [from PLACE] [when COND]`
    Lift(Spanned<Lift>),
    Require(Spanned<Cond>),
    Capture(Spanned<Capture>),
    Again(Spanned<Cond>),
    Then(Spanned<Then>),
    /// `then mark SET as NAME[(PLAYER)] [where COND]`: marks made as the sowing's move ends.
    ThenMark(Spanned<ThenMark>),
    /// `start at origin [when COND]`
    StartAt(Spanned<Option<Cond>>),
    /// `divert NAME to PLACE`
    Divert(Spanned<Divert>),
    /// `direction ccw or cw when COND`: a direction per lap.
    LapDirection(Spanned<LapDirection>),
    /// `mark PLACE as NAME[(PLAYER)]` outside a capture: made as each lap is lifted.
    Mark(Spanned<MarkAction>),
    /// `unmark PLACE [NAME]` outside a capture: made as each lap is lifted.
    Unmark(Spanned<Unmark>),
    /// `direction choose where COND` (or a fixed direction with `where`): a start may go only the ways for
    /// which the condition holds.
    DirectionWhere(Spanned<(DirWord, Cond)>),
    /// `must capture`: the first lap must end where a capture of the sowing applies.
    MustCapture(Span),
}

/// `lift N [from PLACE] [when COND]`: where the condition holds as a lap starts, the lap lifts `count`
/// pieces, from `from` instead of its own pit when given.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Lift {
    pub count: Spanned<u32>,
    pub from: Option<Place>,
    pub when: Option<Cond>,
}

/// `divert NAME to PLACE`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Divert {
    pub mark: Name,
    pub to: Place,
}

/// `direction USUAL or OTHER when COND`: each lap is sown `usual`, or `other` where `when` holds at the end
/// of that lap sown `other`; then the mover chooses.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LapDirection {
    pub usual: DirWord,
    pub other: DirWord,
    pub when: Cond,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DirWord {
    Ccw,
    Cw,
    Choose,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SkipTarget {
    Origin,
    Place(Place),
    /// `skip SET where CONDITION [except last]`: tested at each drop, `here` the place the piece would fall into.
    Where {
        set: SetExpr,
        cond: Cond,
        except_last: bool,
    },
}

/// `as "YES" [or "NO"]` after `may`: the words a person types to answer the choice, which the notation
/// writes in plies; the first also names the choice.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answers {
    pub yes: Spanned<String>,
    pub no: Option<Spanned<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Capture {
    /// `capture may`: the mover chooses whether it happens.
    #[serde(default, skip_serializing_if = "is_false")]
    pub may: bool,
    /// `may as "WORD" [or "WORD"]`: the words of that choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<Answers>,
    /// `capture at every drop`: tried at each pit a piece is dropped into, not only at the end of the lap.
    #[serde(default, skip_serializing_if = "is_false")]
    pub every_drop: bool,
    /// `capture at every lift`: tried at each pit a lap is about to be lifted from, before it is lifted.
    #[serde(default, skip_serializing_if = "is_false")]
    pub every_lift: bool,
    /// `opponent may [when CONDITION] { ... }`: not a capture of the mover's but the opponent's answer, made
    /// if he chooses where a lap ends without a capture.
    #[serde(default, skip_serializing_if = "is_false")]
    pub by_opponent: bool,
    pub when: Option<Cond>,
    pub items: Vec<CaptureItem>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CaptureItem {
    Take(Spanned<Take>),
    /// `take { [N] [KIND] from SET [where COND] to PLACE }` in an answer (`opponent may`) or a capture at every
    /// lift: the player deciding there chooses one pit of the set, whose pieces go to the place.
    Pick(Spanned<TakeAction>),
    Chain(Spanned<Chain>),
    Cancel(Spanned<Cond>),
    /// `mark PLACE as NAME[(PLAYER)]`
    Mark(Spanned<MarkAction>),
    /// `unmark PLACE [NAME]`
    Unmark(Spanned<Unmark>),
    /// `give PLACE to PLAYER`
    Give(Spanned<GivePlace>),
    /// `sow from PLACE`: the pieces taken to the hand are sown as a new lap from that place.
    Sow(Spanned<Place>),
    /// `continue at PLACE`: after the capture the lap ends again at that place, as if its last piece had
    /// fallen there.
    ContinueAt(Spanned<Place>),
    /// `sow into PLACE [cw|ccw]` or `sow from PLACE cw|ccw`: the same with the first piece into the place
    /// itself (`into`), or in the direction given.
    Resow(Spanned<Resow>),
}

/// `sow from|into PLACE [cw|ccw]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Resow {
    pub place: Place,
    /// The first piece goes into the place itself, not the one after it.
    pub into: bool,
    pub dir: Option<DirWord>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// `mark PLACE as NAME[(PLAYER)]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MarkAction {
    pub place: Place,
    pub mark: Name,
    pub player: Option<PlayerRef>,
}

/// `unmark PLACE [NAME]` or `unmark SET [NAME]`: without a name, every mark of the place. A set written as one
/// (`pits(opponent)`, `facing`) is in `set`, and `place` is then `here` at its span; a region's or a mark's
/// name, which reads as a place, is told apart by `check`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unmark {
    pub place: Place,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<SetExpr>,
    pub mark: Option<Name>,
}

/// `give PLACE to PLAYER`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GivePlace {
    pub place: Place,
    pub to: PlayerRef,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Chain {
    pub dir: ChainDir,
    pub while_: Option<Cond>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum ChainDir {
    Backward,
    Forward,
    Both,
}

/// `take [N] [KIND] [chosen] [from PLACES [else PLACES]] to [each] PLACE`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Take {
    pub count: Option<Spanned<u32>>,
    pub kind: Option<Spanned<KindSel>>,
    pub chosen: bool,
    /// Alternatives tried in order: the first that holds matching pieces is used. Empty means `here`.
    pub from: Vec<Vec<SetExpr>>,
    /// `where CONDITION`: only the places of the sources for which it holds, `here` being each of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filter: Option<Cond>,
    pub to: TakeTarget,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TakeTarget {
    Place(Place),
    Each(SetExpr),
    /// `to hand`: into the mover's hand, for the capture's `sow from`.
    Hand,
}

/// `then may|must take [KIND] from SET [where COND] to PLACE`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Then {
    pub must: bool,
    pub kind: Option<Spanned<KindSel>>,
    pub set: SetExpr,
    pub filter: Option<Cond>,
    pub to: Place,
}

/// `then mark SET as NAME[(PLAYER)] [where COND]`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThenMark {
    pub set: SetExpr,
    pub mark: Name,
    pub player: Option<PlayerRef>,
    pub filter: Option<Cond>,
}

/// `put [NAME] { N [KIND] from PLACE into SET [where COND] [, RANGE times] }`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Put {
    pub name: Option<Name>,
    pub count: Spanned<u32>,
    pub kind: Option<Spanned<KindSel>>,
    pub from: Place,
    pub into: SetExpr,
    pub filter: Option<Cond>,
    pub times: Option<Spanned<Range>>,
}

/// `take [NAME] { [N] [KIND] from SET [where COND] to PLACE }`: the mover chooses a pit of `SET` that passes
/// the condition and holds such pieces; they go to `PLACE` (worked out with `here` the chosen pit).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TakeAction {
    pub name: Option<Name>,
    pub count: Option<Spanned<u32>>,
    pub kind: Option<Spanned<KindSel>>,
    pub from: SetExpr,
    pub filter: Option<Cond>,
    pub to: Place,
}

/// An inclusive range; `max: None` means "as many as possible".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Range {
    pub min: u32,
    pub max: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Offer {
    pub name: Option<Name>,
    pub size: Spanned<Range>,
    pub from: SetExpr,
    pub keeping: Option<Spanned<u32>>,
    pub requires: Vec<Spanned<Cond>>,
    pub on_accept: Vec<Effect>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Effect {
    Take(Spanned<Take>),
    /// `give offered to PLAYER`
    Give(Spanned<PlayerRef>),
}

/// `pass when cannot move` (`action: None`) or `pass when cannot ACTION, ACTION, ...` (the first in `action`,
/// the rest in `others`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PassWhen {
    pub action: Option<Name>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<Name>,
}

impl PassWhen {
    /// The actions named, in the order written (none for `pass when cannot move`).
    pub fn actions(&self) -> impl Iterator<Item = &Name> {
        self.action.iter().chain(&self.others)
    }
}

/// `must COND when COND else end|any`
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Must {
    pub after: Cond,
    pub when: Cond,
    pub otherwise: MustElse,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum MustElse {
    End,
    Any,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EndItem {
    When(Spanned<EndWhen>),
    Draw(Spanned<DrawWhen>),
    Eliminate(Spanned<Eliminate>),
    Sweep(Spanned<Sweep>),
    Limit(Spanned<u32>),
    /// `draw when endless`: a move that would never end ends the game in a draw.
    Endless(Span),
    /// `draw when repetition`: a position that comes back ends the game in a draw.
    DrawRepetition(Span),
    /// `draw when CONDITION`: the game ends in a draw when the condition holds, whatever the scores.
    DrawCond(Spanned<Cond>),
    /// `cut when endless`: a move that would never end stops where that is found, and play goes on.
    CutEndless(Span),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EndWhen {
    Cond(Cond),
    /// `when COND at every lap`: also tested at the end of every lap of a sowing.
    AtEveryLap(Cond),
    Repetition,
    Stuck,
    NobodyCanMove,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawWhen {
    pub count: Spanned<u32>,
    pub unit: RoundUnit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum RoundUnit {
    Rounds,
    Turns,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Eliminate {
    Cond(Cond),
    CannotMove,
    /// `eliminate when endless`: the player whose move would never end is out.
    Endless,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Sweep {
    pub set: SetExpr,
    pub to: Place,
    /// `after repetition | stuck | limit`: made only when the game ended so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Spanned<Ending>>,
}

/// Why a game ended, as a sweep names it (`sweep ... after repetition`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Ending {
    /// A position came back (`when repetition`, `draw when repetition`).
    Repetition,
    /// The player to move could not move.
    Stuck,
    /// The ply limit was reached.
    Limit,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum TieRule {
    Draw,
    Shared,
    LastMover,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub name: Spanned<String>,
    pub extends: Option<Spanned<String>>,
    pub items: Vec<Item>,
}

// ---------------------------------------------------------------- conditions and terms

pub type Cond = Spanned<CondKind>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CondKind {
    Or(Vec<Cond>),
    And(Vec<Cond>),
    Not(Box<Cond>),
    Quant {
        quant: Quant,
        domain: Domain,
        body: Box<Cond>,
    },
    InInts {
        term: Term,
        ints: Vec<u32>,
    },
    InSet {
        term: Term,
        set: SetExpr,
    },
    Cmp {
        lhs: Term,
        op: CmpOp,
        rhs: Term,
    },
    /// `capturing`: a capture rule of the sowing applies at `here`.
    Capturing,
    /// `direction = cw` (`eq`) or `direction != cw`: the way the current lap goes.
    Direction {
        dir: DirWord,
        eq: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Quant {
    All,
    Any,
    No,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Domain {
    Players,
    Set(SetExpr),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

pub type Term = Spanned<TermKind>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum TermKind {
    Int(u32),
    Add(Vec<Term>),
    Mul(Vec<Term>),
    /// `count`, `count(X)`, `count(X, KIND)`; `count(KIND)` parses as `arg: Some(..)` and is told apart by `check`.
    Count {
        arg: Option<CountArg>,
        kind: Option<Spanned<KindSel>>,
    },
    Value(SetExpr),
    Before(Option<Place>),
    Dropped(Option<Place>),
    Size(SetExpr),
    /// `size(SET where CONDITION)`: how many places of the set pass the condition (`here` each of them).
    SizeWhere(SetExpr, Box<Cond>),
    Player(PlayerRef),
    Place(Place),
    /// `own` or `foreign` standing alone, e.g. in `dropped = own`.
    Kind(KindSel),
    /// `number` or `number(X)`: a pit's position in its row.
    Number(Option<Place>),
    /// `lifted`: the pieces lifted for the lap being started.
    Lifted,
    /// `A - B`
    Sub(Box<Term>, Box<Term>),
    /// `A / B`: integer division, rounding down.
    Div(Box<Term>, Box<Term>),
    /// `A % B`: the remainder of `A / B`, never negative.
    Rem(Box<Term>, Box<Term>),
    /// `lap`: the number of the lap being sown in this move, from 1.
    Lap,
    /// `captures(PLAYER)`: how many of that player's plies so far made a capture.
    Captures(PlayerRef),
    /// `moves(PLAYER)`: the plies that player has made so far.
    Moves(PlayerRef),
    /// `seat(PLAYER)`: the player's seat, from 1.
    Seat(PlayerRef),
    /// `round`: the number of the round being played, from 1.
    Round,
    /// `passed(PLACE)`: 1 when a piece was dropped into the place during this turn.
    Passed(Box<Place>),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum CountArg {
    Set(SetExpr),
    Kind(Spanned<KindSel>),
}

pub type PlayerRef = Spanned<PlayerKind>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PlayerKind {
    Mover,
    Opponent,
    /// The player bound by `any players(...)`, `score`, `eliminate`.
    Player,
    /// `owner` or `owner(PLACE)`
    Owner(Option<Box<Place>>),
}

pub type Place = Spanned<PlaceKind>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PlaceKind {
    Here,
    Last,
    Origin,
    Opposite(Option<Box<Place>>),
    /// A pit label, a shared place, a kind name used as a term, or `NAME(PLAYER)`.
    Named {
        name: Name,
        player: Option<PlayerRef>,
    },
    /// `twin` or `twin(X)`: the pit of the same number on the other player's rows.
    Twin(Option<Box<Place>>),
    /// `next` or `next(X)`: the place after X along the lap's track and direction, past what the sowing skips.
    Next(Option<Box<Place>>),
    /// `previous` or `previous(X)`: the place before X along the lap's track and direction (X is its `next`).
    Previous(Option<Box<Place>>),
    /// `behind` or `behind(X)`: the pit behind X in its column, one row further from the middle.
    Behind(Option<Box<Place>>),
    /// `ahead` or `ahead(X)`: the pit in front of X in its column, one row nearer the middle.
    Ahead(Option<Box<Place>>),
    /// `start`: the pit the move began from, whatever lap is being sown.
    Start,
}

pub type SetExpr = Spanned<SetKind>;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum SetKind {
    Pits(Option<PlayerRef>),
    Offered,
    Place(Place),
    /// `facing` or `facing(X)`: the pits across the middle of the board in X's column.
    Facing(Option<Place>),
    /// `threats(PLAYER)`: the pits the first capture of each move the player could make now would take from.
    Threats(PlayerRef),
    /// `taken_first`: the pits the first capture of the move being made took pieces from.
    TakenFirst,
}
