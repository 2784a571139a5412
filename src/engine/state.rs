//! The state of a game in play, and the decisions a player can make.

use serde::{Deserialize, Serialize};

use crate::ir::{Dir, PitSet, PlaceId};

/// Everything that decides what happens next. Flat arrays, indexed by place (and kind).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct State {
    /// Pieces per place and kind: `counts[place * kinds + kind]`.
    pub counts: Vec<u8>,
    /// The current owner of each pit (`NO_PLAYER` for nobody); trades change it.
    pub owner: Vec<u8>,
    /// The player who decides next.
    pub to_move: u8,
    pub phase: u8,
    /// Eliminated players, as bits.
    pub eliminated: u8,
    /// Plies played so far.
    pub ply: u32,
    /// The player who made the last ply.
    pub last_mover: u8,
    /// Where in a turn we are: its start, or a decision in the middle of it.
    pub stage: Stage,
    /// Pits of a pending or partly made offer, as bits.
    pub offered: PitSet,
    /// The sowing in progress or just ended: the origin of its current lap (the pit the move started from, or
    /// the pit a relay lifted last), its last place, direction and pieces still in hand.
    pub origin: PlaceId,
    pub last: PlaceId,
    pub dir: Dir,
    pub cursor: PlaceId,
    pub hand: Vec<u8>,
    /// Per place: its count just before, and the kind of, the last piece dropped there this move
    /// (kept only when a rule reads `before` or `dropped`).
    pub before: Vec<u8>,
    pub dropped: Vec<u8>,
    /// The mover is bound by an obligation (`must`) this turn.
    pub obliged: bool,
    /// A `require` failed or a relay looped: this line of play is illegal (only seen while looking ahead).
    pub illegal: bool,
    /// Pieces were captured during the current ply.
    pub captured: bool,
    /// The current sowing gives the mover another turn.
    pub again: bool,
    /// For `draw when no capture for N rounds|turns`: rounds (or turns) without capture, and who has moved
    /// in the current round.
    pub quiet: u32,
    pub round_seen: u8,
    /// Hashes of earlier positions at the start of a turn (or of an answer to an offer), for `repetition`.
    /// Where pieces never come back onto the board (`Needs::refills` off), only those since the number of
    /// pieces on the board last changed: a position with another number cannot come back.
    pub history: Vec<u64>,
    pub history_total: u32,
    /// Which keys `history` may hold, so that most new positions are found new without a search of it.
    #[serde(skip)]
    pub history_filter: HistoryFilter,
    /// Plies with a capture so far, for statistics.
    pub captures: u32,
    /// Each seat's plies with a capture so far (`captures(PLAYER)`). Not part of the position a repetition
    /// compares, as the ply count is not.
    #[serde(default)]
    pub capture_plies: [u16; 8],
    pub result: Option<Outcome>,
    /// The marks of the pits: `marks[mark * n_pits + pit]` is `UNMARKED`, or the player the pit carries the
    /// mark for plus one (1 for a mark that is not per player). Empty in games without marks.
    #[serde(default)]
    pub marks: Vec<u8>,
    /// The pieces lifted for the current lap, for `lifted`.
    #[serde(default)]
    pub lifted: u8,
    /// The last piece of the sowing went on elsewhere (`divert`): nothing looks at where it fell.
    #[serde(default)]
    pub diverted: bool,
    /// The next piece dropped goes into the lap's origin (`start at origin`).
    #[serde(default)]
    pub at_origin: bool,
    /// The lap of the sowing in progress or just ended, from 1 (`lap`).
    #[serde(default)]
    pub lap: u32,
    /// The ply just played was a move that would never end, under a rule about such moves (`... when endless`).
    #[serde(default)]
    pub endless: bool,
    /// In a match of rounds: the round being played (from 1), who started it, and the rounds played so far.
    #[serde(default = "first_round")]
    pub round: u16,
    #[serde(default)]
    pub round_starter: u8,
    /// The plies played before the current round began.
    #[serde(default)]
    pub round_start_ply: u32,
    #[serde(default, skip_serializing_if = "Rounds::is_empty")]
    pub rounds: Rounds,
    /// The places a piece was dropped into during the current turn, as bits of their indices (`passed`;
    /// places on the track come first, so 128 bits hold them all). Kept only when a rule reads it.
    #[serde(default)]
    pub passed: [u64; 2],
    /// The plies each pit's mark `for N plies` has left, the ply under way included:
    /// `mark_lives[t * n_pits + pit]` for the t-th such mark (in the order of `Rules::marks`), 0 where the pit
    /// does not carry it. The end of each ply takes one off, and clears the mark with its last. Empty in games
    /// without such marks.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mark_lives: Vec<u8>,
    /// The pits the first capture of the ply under way took pieces from, as bits (`taken_first`); kept only
    /// when a rule reads it (`Needs::taken_first`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub taken_first: PitSet,
    /// The first capture of the ply is being made: the pits its takes take from go into `taken_first`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub recording: bool,
    /// A trial of `threats`: the sowing stops after its first capture, or as it ends, before what follows.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trial: bool,
    /// The pit the sowing under way (or the last one) began from: its first lap's origin (`start`).
    #[serde(default)]
    pub start: PlaceId,
    /// No sowing has been made yet this game (only puts, offers or takes so far): the end rules that read
    /// where the last sowing was (`PhasePlan::sowing_end_rules`) are not tested yet.
    #[serde(default, skip_serializing_if = "is_false")]
    pub before_sowing: bool,
    /// Each seat's plies so far (`moves(PLAYER)`), counted only where a rule reads them (`Needs::moves`). Not
    /// part of the position a repetition compares, as the ply count is not.
    #[serde(default, skip_serializing_if = "no_plies")]
    pub plies_made: [u16; 8],
}

/// A summary of `State::history` that tells at once of most keys that the history lacks them: one bit per
/// value of a key's top eight bits, set as keys are added. It says "maybe" of every key the history holds and
/// of about `len / 256` of those it lacks, so `seen_before` searches the list only then. It covers the
/// first `keys` keys of the history; where the history has another length (cleared elsewhere, or read from a
/// save) it is made again from the list before it is used (`HistoryFilter::fit`). A cache of the history, not
/// part of the position: every two filters are equal, and none is saved.
#[derive(Debug, Clone, Copy, Default)]
pub struct HistoryFilter {
    bits: [u64; 4],
    keys: usize,
}

impl HistoryFilter {
    /// Makes the filter cover `history`, where it covers a history of another length.
    #[inline(always)]
    pub(crate) fn fit(&mut self, history: &[u64]) {
        if self.keys != history.len() {
            *self = HistoryFilter::default();
            history.iter().for_each(|&key| self.add(key));
        }
    }

    /// Whether the history may hold `key`.
    #[inline(always)]
    pub(crate) fn may_hold(&self, key: u64) -> bool {
        let top = (key >> 56) as usize;
        self.bits[top >> 6] >> (top & 63) & 1 != 0
    }

    /// Records a key added to the history.
    #[inline(always)]
    pub(crate) fn add(&mut self, key: u64) {
        let top = (key >> 56) as usize;
        self.bits[top >> 6] |= 1 << (top & 63);
        self.keys += 1;
    }
}

impl PartialEq for HistoryFilter {
    fn eq(&self, _: &HistoryFilter) -> bool {
        true
    }
}

impl Eq for HistoryFilter {}

impl std::hash::Hash for HistoryFilter {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

fn no_plies(n: &[u16; 8]) -> bool {
    n.iter().all(|&p| p == 0)
}

fn first_round() -> u16 {
    1
}

fn is_zero(n: &PitSet) -> bool {
    *n == 0
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// `from` copied into `to`, in place when they are as long (as the lists of one game's states are): eight
/// bytes at a time and the rest byte by byte, which for the short lists of a position is quicker than a
/// call to `memcpy`.
#[inline]
fn copy_bytes(to: &mut Vec<u8>, from: &[u8]) {
    if to.len() != from.len() {
        to.clear();
        return to.extend_from_slice(from);
    }
    let mut words = to.chunks_exact_mut(8);
    let mut from_words = from.chunks_exact(8);
    for (t, f) in (&mut words).zip(&mut from_words) {
        let word: [u8; 8] = f.try_into().unwrap_or([0; 8]);
        t.copy_from_slice(&word);
    }
    for (t, &f) in words.into_remainder().iter_mut().zip(from_words.remainder()) {
        *t = f;
    }
}

/// Whether a piece was dropped into place `p` during the current turn.
#[inline]
pub(crate) fn passed(st: &State, p: PlaceId) -> bool {
    let p = p as usize;
    p < 128 && st.passed[p / 64] & (1 << (p % 64)) != 0
}

/// Records a drop into place `p` for `passed`.
#[inline]
pub(crate) fn record_passed(st: &mut State, p: PlaceId) {
    let p = p as usize;
    if p < 128 {
        st.passed[p / 64] |= 1 << (p % 64);
    }
}

/// How one round of a match ended: its winners (as bits; none for a drawn round), the scores, and why.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct RoundResult {
    pub winners: u8,
    pub scores: Vec<i32>,
    pub reason: EndReason,
}

/// How many rounds' results a match keeps in full, from its first; the counts cover every round.
pub const KEPT_ROUNDS: usize = 256;

/// The rounds of a match played so far: how many, each seat's wins and the drawn rounds, and the results
/// of the first [`KEPT_ROUNDS`] rounds and of the last one. A match whose end never comes (a rule file
/// whose `match when` never holds) plays on to its ply limit in bounded memory.
/// It reads as the list of the results kept (`rounds[0]`, `iter`); [`len`](Rounds::len) counts them all.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(from = "Vec<RoundResult>", into = "Vec<RoundResult>")]
pub struct Rounds {
    played: u32,
    wins: [u32; 8],
    draws: u32,
    first: Vec<RoundResult>,
    last: Option<RoundResult>,
}

impl Rounds {
    /// The number of rounds played.
    pub fn len(&self) -> usize {
        self.played as usize
    }

    pub fn is_empty(&self) -> bool {
        self.played == 0
    }

    pub fn last(&self) -> Option<&RoundResult> {
        self.last.as_ref()
    }

    /// The results kept: those of the first [`KEPT_ROUNDS`] rounds.
    pub fn iter(&self) -> std::slice::Iter<'_, RoundResult> {
        self.first.iter()
    }

    /// The rounds `seat` won (alone or shared).
    pub fn wins(&self, seat: u8) -> usize {
        self.wins.get(seat as usize).map_or(0, |&n| n as usize)
    }

    /// The rounds no one won.
    pub fn draws(&self) -> usize {
        self.draws as usize
    }

    pub fn push(&mut self, round: RoundResult) {
        self.played = self.played.saturating_add(1);
        if round.winners == 0 {
            self.draws = self.draws.saturating_add(1);
        }
        for (seat, n) in self.wins.iter_mut().enumerate() {
            if round.winners & (1 << seat) != 0 {
                *n = n.saturating_add(1);
            }
        }
        if self.first.len() < KEPT_ROUNDS {
            self.first.push(round.clone());
        }
        self.last = Some(round);
    }

    pub fn clear(&mut self) {
        self.played = 0;
        self.wins = [0; 8];
        self.draws = 0;
        self.first.clear();
        self.last = None;
    }

    /// The same rounds in these buffers.
    pub fn clone_from_rounds(&mut self, other: &Rounds) {
        self.played = other.played;
        self.wins = other.wins;
        self.draws = other.draws;
        self.first.clone_from(&other.first);
        self.last.clone_from(&other.last);
    }
}

impl std::ops::Index<usize> for Rounds {
    type Output = RoundResult;

    fn index(&self, i: usize) -> &RoundResult {
        &self.first[i]
    }
}

impl From<Vec<RoundResult>> for Rounds {
    fn from(results: Vec<RoundResult>) -> Rounds {
        let mut rounds = Rounds::default();
        for r in results {
            rounds.push(r);
        }
        rounds
    }
}

/// As a list: the results kept, and the last round's when it is not among them.
impl From<Rounds> for Vec<RoundResult> {
    fn from(rounds: Rounds) -> Vec<RoundResult> {
        let mut results = rounds.first;
        if rounds.played as usize > results.len() {
            results.extend(rounds.last);
        }
        results
    }
}

impl<'a> IntoIterator for &'a Rounds {
    type Item = &'a RoundResult;
    type IntoIter = std::slice::Iter<'a, RoundResult>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl State {
    /// Makes this state a probe copy of `from` (`probe_copy`), reusing its own buffers: a look-ahead that
    /// tries one candidate after another allocates once, not once per candidate.
    pub(crate) fn reset_probe(&mut self, from: &State) {
        self.reuse_for(from, false);
    }

    /// Makes this state a copy of `from`, reusing its own buffers: a playout starts each game so without
    /// allocating.
    pub fn reset_to(&mut self, from: &State) {
        self.reuse_for(from, true);
    }

    /// A copy of `from` in this state's buffers; its history and rounds too (`whole`), or left empty, as a
    /// probe copy has them (a ply never reads the positions before it, nor the rounds played before it).
    fn reuse_for(&mut self, from: &State, whole: bool) {
        // Field by field, in place: the lists are copied into the buffers already there, and nothing is
        // built or dropped. Every field is named, so that a new one must be copied too.
        let State {
            counts,
            owner,
            to_move,
            phase,
            eliminated,
            ply,
            last_mover,
            stage,
            offered,
            origin,
            last,
            dir,
            cursor,
            hand,
            before,
            dropped,
            obliged,
            illegal,
            captured,
            again,
            quiet,
            round_seen,
            history,
            history_total,
            history_filter,
            captures,
            capture_plies,
            result,
            marks,
            lifted,
            diverted,
            at_origin,
            lap,
            endless,
            round,
            round_starter,
            round_start_ply,
            rounds,
            passed,
            mark_lives,
            taken_first,
            recording,
            trial,
            start,
            before_sowing,
            plies_made,
        } = from;
        copy_bytes(&mut self.counts, counts);
        copy_bytes(&mut self.owner, owner);
        copy_bytes(&mut self.hand, hand);
        copy_bytes(&mut self.before, before);
        copy_bytes(&mut self.dropped, dropped);
        copy_bytes(&mut self.marks, marks);
        copy_bytes(&mut self.mark_lives, mark_lives);
        self.history.clear();
        self.rounds.clear();
        if whole {
            self.history.extend_from_slice(history);
            self.rounds.clone_from_rounds(rounds);
        }
        self.result.clone_from(result);
        (self.to_move, self.phase, self.eliminated, self.ply, self.last_mover) =
            (*to_move, *phase, *eliminated, *ply, *last_mover);
        (self.stage, self.offered, self.origin, self.last, self.dir, self.cursor) =
            (*stage, *offered, *origin, *last, *dir, *cursor);
        (self.obliged, self.illegal, self.captured, self.again, self.quiet, self.round_seen) =
            (*obliged, *illegal, *captured, *again, *quiet, *round_seen);
        (self.history_total, self.captures, self.capture_plies) = (*history_total, *captures, *capture_plies);
        if whole {
            self.history_filter = *history_filter;
        }
        // A probe's filter is left as it was: its history is empty, and a filter covers an empty history
        // only as made afresh (no key added), so one that covers another is made again before it is used
        // (`HistoryFilter::fit`).
        (self.lifted, self.diverted, self.at_origin, self.lap, self.endless) =
            (*lifted, *diverted, *at_origin, *lap, *endless);
        (self.round, self.round_starter, self.round_start_ply, self.passed) =
            (*round, *round_starter, *round_start_ply, *passed);
        (self.taken_first, self.recording, self.trial) = (*taken_first, *recording, *trial);
        (self.start, self.before_sowing, self.plies_made) = (*start, *before_sowing, *plies_made);
    }

    /// Whether a first lap tried from `self` finds what it finds from `other` (`ways::FirstLaps`): the two
    /// agree on everything but what a trial sets before it sows (the mover, the stage, the lap's origin and
    /// the move's start, direction, cursor and number, `last`, `diverted`, `at_origin`) and what no ply reads (the history,
    /// the rounds played, the result, the count of captures). Every field is named, so that a new one must
    /// be placed on one side or the other.
    pub(crate) fn same_for_first_laps(&self, other: &State) -> bool {
        let State {
            counts,
            owner,
            to_move: _,
            phase,
            eliminated,
            ply,
            last_mover,
            stage: _,
            offered,
            origin: _,
            last: _,
            dir: _,
            cursor: _,
            hand,
            before,
            dropped,
            obliged,
            illegal,
            captured,
            again,
            quiet,
            round_seen,
            history: _,
            history_total: _,
            history_filter: _,
            captures: _,
            capture_plies,
            result: _,
            marks,
            lifted,
            diverted: _,
            at_origin: _,
            lap: _,
            endless,
            round,
            round_starter,
            round_start_ply,
            rounds: _,
            passed,
            mark_lives,
            taken_first,
            recording,
            trial,
            start: _,
            before_sowing: _,
            plies_made,
        } = self;
        *counts == other.counts
            && *marks == other.marks
            && *owner == other.owner
            && *hand == other.hand
            && *before == other.before
            && *dropped == other.dropped
            && (*phase, *eliminated, *last_mover, *lifted, *round_starter)
                == (other.phase, other.eliminated, other.last_mover, other.lifted, other.round_starter)
            && (*ply, *offered, *quiet, *round_seen, *round, *round_start_ply)
                == (other.ply, other.offered, other.quiet, other.round_seen, other.round, other.round_start_ply)
            && (*obliged, *illegal, *captured, *again, *endless)
                == (other.obliged, other.illegal, other.captured, other.again, other.endless)
            && *capture_plies == other.capture_plies
            && *passed == other.passed
            && *mark_lives == other.mark_lives
            && (*taken_first, *recording, *trial) == (other.taken_first, other.recording, other.trial)
            && *plies_made == other.plies_made
    }

    /// A copy for looking ahead within one ply: everything but the history of positions, which a ply
    /// never reads.
    pub(crate) fn probe_copy(&self) -> State {
        State {
            counts: self.counts.clone(),
            owner: self.owner.clone(),
            hand: self.hand.clone(),
            before: self.before.clone(),
            dropped: self.dropped.clone(),
            marks: self.marks.clone(),
            mark_lives: self.mark_lives.clone(),
            history: Vec::new(),
            history_filter: HistoryFilter::default(),
            // A ply never reads the rounds played before it.
            rounds: Rounds::default(),
            result: self.result.clone(),
            // The remaining fields are plain values.
            ..*self
        }
    }
}

/// The point of decision within a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Stage {
    /// A turn begins: choose an action (and where), pass, or answer an offer.
    Start,
    /// Answer the offer in `offered`, made by `last_mover`.
    Respond,
    /// Choose the direction of the sowing from `origin`.
    Direction { action: u8 },
    /// The take written first in the sowing is made: choose the pit to sow from (`Move::Pick`).
    SowFrom { action: u8 },
    /// Choose the kind of the next piece to drop.
    Drop { action: u8 },
    /// Choose a piece to take in a capture.
    Take { action: u8, cursor: CaptureCursor },
    /// Choose further pits for `then may take`, from pit `from` on, or stop.
    Then { action: u8, from: PlaceId },
    /// Choose a further pit to put pieces into, from pit `from` on, or stop.
    Put { action: u8, done: u8, from: PlaceId },
    /// Choose a further pit to offer, from pit `from` on, or stop.
    Offer { action: u8, from: PlaceId },
    /// Choose whether the capture `rule` (a `capture may`) happens at the end of the sowing.
    Capture { action: u8, rule: u8 },
    /// Choose the direction of the next lap of a sowing with a direction per lap, its pieces in hand.
    LapDirection { action: u8 },
    /// Choose whether to relay from the last pit (`relay may`), or to stop there.
    Relay { action: u8 },
    /// The opponent chooses whether to make the answer `rule` (`opponent may`) at the end of a lap of the
    /// mover's sowing; the move then goes on.
    Answer { action: u8, rule: u8 },
    /// The mover chooses the pit of the capture at every lift `rule` that takes from a chosen pit (`take { ...
    /// }` in it, `Move::Pick`), before the lap from `origin` is lifted; the lap is then lifted and sown.
    /// `chosen`: the lap is a relay the mover chose (`relay may`), for the account of the ply.
    LiftPick { action: u8, rule: u8, chosen: bool },
}

/// Where a capture stands: which rule, which walk of its chain, which pit, which take.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CaptureCursor {
    pub rule: u8,
    /// 0: the last pit; 1: walking backward; 2: walking forward.
    pub walk: u8,
    pub here: PlaceId,
    pub take: u8,
    /// Pieces still to take for this take.
    pub left: u8,
    pub steps: u8,
    /// The smallest choice allowed next (by group of places, place, kind): the pieces taken in one capture
    /// form a set, so they are chosen in one order only.
    pub min_choice: u32,
}

impl CaptureCursor {
    /// The start of capture rule `rule` at the pit `here`.
    pub(crate) fn at(rule: u8, here: PlaceId) -> CaptureCursor {
        CaptureCursor { rule, walk: 0, here, take: 0, left: 0, steps: 0, min_choice: 0 }
    }
}

/// One decision. A ply is one or more of them; `notation` prints and reads whole plies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Move {
    /// Start action `action` of the phase at `place` (the pit to sow from, put into, or offer).
    Begin {
        action: u8,
        place: PlaceId,
    },
    Pass,
    Accept,
    Decline,
    Direction(Dir),
    /// Drop a piece of this kind next.
    Drop(u8),
    /// Take one piece of `kind` from `place`.
    Take {
        place: PlaceId,
        kind: u8,
    },
    /// Add a pit to the current selection.
    Pick(PlaceId),
    /// End the current selection.
    Stop,
    /// Make (`true`) or decline an optional capture.
    Capture(bool),
    /// Relay from the last pit (`true`) or stop there, where the relay is optional.
    Relay(bool),
    /// The opponent makes (`true`) or declines his answer (`opponent may`) in the middle of a move.
    Answer(bool),
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Outcome {
    /// The winners as bits; none for a draw or a lost solitaire.
    pub winners: u8,
    pub scores: Vec<i32>,
    pub reason: EndReason,
    /// In a match of rounds, how each round ended (the last one included); empty otherwise.
    #[serde(default, skip_serializing_if = "Rounds::is_empty")]
    pub rounds: Rounds,
}

impl Outcome {
    pub fn is_draw(&self) -> bool {
        self.winners == 0
    }
    pub fn winner_list(&self) -> Vec<u8> {
        (0..8).filter(|p| self.winners & (1 << p) != 0).collect()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// An `end when CONDITION` rule held.
    Condition,
    Repetition,
    /// The player to move could not move (`when stuck`, or no rule covered it).
    Stuck,
    NobodyCanMove,
    /// `draw when no capture for ...`
    NoCapture,
    /// All other players were eliminated.
    LastStanding,
    /// An obligation (`must ... else end`) could not be met.
    Obligation,
    /// The ply limit was reached.
    Limit,
    /// A move would never end (`draw when endless`).
    Endless,
    /// A position came back under `draw when repetition`.
    RepetitionDraw,
    /// A `draw when CONDITION` rule held.
    ConditionDraw,
    /// A match of rounds: `match when` held after a round.
    Match,
    /// A match of rounds: its `limit N rounds` were played.
    RoundLimit,
}
