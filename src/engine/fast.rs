//! The compiled form of plain sowing phases: whole laps sown by arithmetic over a track per mover and
//! origin, the landing pit found by index. Everything here must end in exactly the state the general
//! stages would reach (`tests/properties.rs` plays every shipped game both ways, `Engine::without_fast_paths`).

use crate::ir::*;

use super::compile::CountTests;
use super::{EndReason, Engine, Move, State};

/// The places a plain sowing visits, for every mover and origin of one phase: where the sowing from
/// `origin` drops its i-th piece is `cells[start + i % len]`, skips (of the rules and of the origin) already
/// left out. A track exists only where the walk from the origin is a pure cycle, which is what makes the
/// arithmetic exact; elsewhere the sowing goes piece by piece.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracks {
    /// Per `mover * places + origin`: the start and length of its cycle in `cells` (length 0: none).
    spans: Vec<(u32, u16)>,
    cells: Vec<PlaceId>,
}

impl Tracks {
    /// The tracks of a plain sowing in direction `dir`, from every pit of each player's (`pits`).
    pub(crate) fn new(rules: &Rules, pits: &[Vec<PlaceId>], dir: Dir, skip_origin: bool) -> Tracks {
        let places = rules.places.len();
        let mut t = Tracks { spans: vec![(0, 0); rules.players as usize * places], cells: Vec::new() };
        for (mover, own) in pits.iter().enumerate() {
            let row = (mover * 2 + dir as usize) * places;
            let next = &rules.next[row..row + places];
            for &origin in own {
                let start = t.cells.len();
                if let Some(len) = cycle_from(next, origin, skip_origin, &mut t.cells) {
                    t.spans[mover * places + origin as usize] = (start as u32, len);
                } else {
                    t.cells.truncate(start);
                }
            }
        }
        t
    }

    /// Whether some origin has a track.
    pub(crate) fn any(&self) -> bool {
        self.spans.iter().any(|&(_, len)| len > 0)
    }

    /// The cycle of places sown from `origin` by `mover`, when there is one.
    #[inline]
    fn get(&self, places: usize, mover: u8, origin: PlaceId) -> Option<&[PlaceId]> {
        let (start, len) = *self.spans.get(mover as usize * places + origin as usize)?;
        (len > 0).then(|| &self.cells[start as usize..start as usize + len as usize])
    }
}

/// The tracks of one sowing's laps, per direction (`Dir as usize`): none where the laps cannot go that way
/// or their walk is no cycle.
#[derive(Debug, Clone, Default)]
pub(crate) struct LapTracks([Option<Tracks>; 2]);

impl LapTracks {
    pub(crate) fn set(&mut self, dir: Dir, tracks: Option<Tracks>) {
        self.0[dir as usize] = tracks;
    }

    /// Whether some direction has a track from some origin.
    pub(crate) fn any(&self) -> bool {
        self.0.iter().flatten().any(Tracks::any)
    }
}

/// Follows the sowing from `origin` piece by piece, pushing the places onto `out`, until it comes back to
/// its first place (then it is a cycle, and its length is returned) or has gone longer than any cycle can.
fn cycle_from(next: &[PlaceId], origin: PlaceId, skip_origin: bool, out: &mut Vec<PlaceId>) -> Option<u16> {
    let step = |pos: PlaceId| {
        let p = next[pos as usize];
        if skip_origin && p == origin {
            next[p as usize]
        } else {
            p
        }
    };
    let first = step(origin);
    let mut pos = first;
    for len in 1..=next.len() {
        out.push(pos);
        pos = step(pos);
        if pos == first {
            return u16::try_from(len).ok();
        }
    }
    None
}

impl Engine {
    /// The starts of a plain sowing where pits change hands: every non-empty pit `mover` owns now, in
    /// order, as `for_each_in_set` would find them; calls `emit` while it returns true, and returns false
    /// when stopped early.
    #[inline]
    pub(super) fn each_owned_start(
        &self,
        st: &State,
        mover: u8,
        action: u8,
        mut emit: impl FnMut(Move) -> bool,
    ) -> bool {
        let n = self.rules.n_pits;
        for (p, (&owner, &count)) in st.owner[..n].iter().zip(&st.counts[..n]).enumerate() {
            if owner == mover && count > 0 && !emit(Move::Begin { action, place: p as PlaceId }) {
                return false;
            }
        }
        true
    }

    /// The starts of a phase of plain starts where pits change hands (`owned_plain_starts`): what
    /// `each_owned_start` finds, pushed in one loop.
    #[inline]
    pub(super) fn owned_start_list(&self, st: &State, out: &mut Vec<Move>) {
        let n = self.rules.n_pits;
        let (owners, counts) = (&st.owner[..n.min(st.owner.len())], &st.counts[..n.min(st.counts.len())]);
        for (p, (&owner, &count)) in owners.iter().zip(counts).enumerate() {
            if owner == st.to_move && count > 0 {
                out.push(Move::Begin { action: 0, place: p as PlaceId });
            }
        }
    }

    /// Drops every seed in hand along the mover's track in whole laps (each place gets `n / len`, the first
    /// `n % len` one more): what `drop_plain` does piece by piece, for a phase with tracks.
    #[inline(always)]
    pub(super) fn sow_laps(&self, st: &mut State, tracks: &Tracks, skip_origin: bool) {
        let Some(track) = tracks.get(self.rules.places.len(), st.to_move, st.origin) else {
            return self.drop_plain(st, skip_origin);
        };
        let n = std::mem::take(&mut st.hand[0]) as usize;
        if n == 0 {
            return;
        }
        // Most sowings go less than a lap: no division for them.
        let (laps, rest) = if n < track.len() { (0, n) } else { (n / track.len(), n % track.len()) };
        if laps > 0 {
            for &p in track {
                st.counts[p as usize] = st.counts[p as usize].wrapping_add(laps as u8);
            }
        }
        for &p in &track[..rest] {
            st.counts[p as usize] = st.counts[p as usize].wrapping_add(1);
        }
        // The last piece went into the place before the first without an extra piece.
        st.cursor = track[if rest == 0 { track.len() - 1 } else { rest - 1 }];
    }
}

impl Engine {
    /// Drops every piece in hand as a lap from its origin by arithmetic, for a sowing that is not plain
    /// (`lap_tracks`): what `drop_one` does piece by piece, the first piece back into the origin when the lap
    /// starts there (`start at origin`), each piece for a pit with a `divert` mark sent on. Neither the marks
    /// nor the owners change while a lap is sown, so where a pit sends its pieces holds for the whole lap,
    /// and only the last pit says whether the last piece went on. The records of drops are made as the
    /// last drop into each pit would leave them: with one kind and no pit sending pieces on, the count
    /// before the last drop into a pit is its count after the lap less one, however often the lap passed
    /// it (`before`), and the pits passed are those the lap reached (`passed`). Returns false, having done
    /// nothing, where there is no track (the lap does not start at its origin, or goes a way without one).
    #[inline(always)]
    pub(super) fn sow_track(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
        let Some(laps) = self.phase_plan(st).actions.get(action as usize).map(|a| &a.lap_tracks) else {
            return false;
        };
        let Some(tracks) = &laps.0[st.dir as usize] else { return false };
        if st.cursor != st.origin {
            return false;
        }
        let Some(track) = tracks.get(self.rules.places.len(), st.to_move, st.origin) else { return false };
        let mut n = st.hand[0] as usize;
        if n == 0 {
            return true;
        }
        st.hand[0] = 0;
        let mut last = st.origin;
        let records = self.rules.needs.passed || self.rules.needs.drops;
        if std::mem::take(&mut st.at_origin) {
            if records {
                self.record_drops(st, last, 1);
            }
            self.drop_into(st, sow, last, 1);
            n -= 1;
        }
        if n > 0 {
            // Most laps go less than once round: no division for them.
            let (laps, rest) = if n < track.len() { (0, n) } else { (n / track.len(), n % track.len()) };
            let reached = if laps > 0 { track.len() } else { rest };
            if sow.divert.is_empty() && !self.rules.needs.passed {
                // The first `rest` places of the track get one piece more than the others reached.
                let (more, fewer) = track[..reached].split_at(rest);
                let laps = laps.min(254) as u8;
                let records = self.rules.needs.drops;
                for (places, n) in [(more, laps + 1), (fewer, laps)] {
                    if records {
                        lap_with_records(st, places, n);
                    } else {
                        for &p in places {
                            st.counts[p as usize] = st.counts[p as usize].saturating_add(n);
                        }
                    }
                }
            } else {
                for (i, &p) in track[..reached].iter().enumerate() {
                    let n = laps + (i < rest) as usize;
                    if records {
                        self.record_drops(st, p, n);
                    }
                    self.drop_into(st, sow, p, n);
                }
            }
            last = track[if rest == 0 { track.len() - 1 } else { rest - 1 }];
        }
        st.diverted = !sow.divert.is_empty() && self.diverted_to(st, sow, last).is_some();
        st.cursor = last;
        true
    }

    /// `n` pieces (at least one) dropped into pit `p`, or where its marks send them.
    #[inline(always)]
    fn drop_into(&self, st: &mut State, sow: &Sow, p: PlaceId, n: usize) {
        let to = if sow.divert.is_empty() { p } else { self.diverted_to(st, sow, p).unwrap_or(p) };
        st.counts[to as usize] = st.counts[to as usize].saturating_add(n.min(255) as u8);
    }

    /// The records a rule reads of `n` pieces (at least one) about to be dropped into pit `p`: that a piece
    /// passed it, and its count before the last of them.
    #[inline]
    fn record_drops(&self, st: &mut State, p: PlaceId, n: usize) {
        if self.rules.needs.passed {
            super::state::record_passed(st, p);
        }
        if self.rules.needs.drops {
            // `lap_tracks` leaves out the sowings that divert where drops are recorded, so the pieces stay in `p`.
            st.before[p as usize] = st.counts[p as usize].saturating_add(n.min(255) as u8 - 1);
            st.dropped[p as usize] = 0;
        }
    }
}

/// `n` pieces (at least one) dropped into each of `places`, with the records of drops as `record_drops`
/// makes them.
#[inline]
fn lap_with_records(st: &mut State, places: &[PlaceId], n: u8) {
    // The three lists cut to one length, so that one test of each place's index serves all three.
    let len = st.counts.len().min(st.before.len()).min(st.dropped.len());
    let (counts, before, dropped) = (&mut st.counts[..len], &mut st.before[..len], &mut st.dropped[..len]);
    let less_one = n.saturating_sub(1);
    for &p in places {
        let p = p as usize;
        if p < len {
            let count = counts[p];
            before[p] = count.saturating_add(less_one);
            dropped[p] = 0;
            counts[p] = count.saturating_add(n);
        }
    }
}

/// A position key over byte slices and one extra word, eight bytes at a time: what `seen_before` hashes at
/// every turn of a game with a repetition rule. Each part is mixed with its length, so that parts of other
/// lengths cannot line up into the same words.
pub(super) fn position_key(parts: &[&[u8]], extra: u64) -> u64 {
    let mut h = mix(KEY_SEED, extra);
    for part in parts {
        let mut words = part.chunks_exact(8);
        for w in &mut words {
            h = mix(h, u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        }
        let rest = words.remainder().len();
        let tail = if rest > 0 && part.len() >= 8 {
            // The last eight bytes, some of them mixed in already: one load, where the length tells apart.
            u64::from_le_bytes(part[part.len() - 8..].try_into().unwrap_or([0; 8]))
        } else {
            // A short part byte by byte: a copy of a few bytes would call memcpy.
            words.remainder().iter().rev().fold(0u64, |w, &b| w << 8 | b as u64)
        };
        h = mix(h, tail ^ ((part.len() as u64) << 56));
    }
    avalanche(h)
}

/// `position_key(&[bytes], extra)`, with no loop where `bytes` has 9 to 15 of them (the boards of most games
/// with a repetition rule): their first eight and their last eight.
#[inline(always)]
pub(super) fn counts_key(bytes: &[u8], extra: u64) -> u64 {
    let len = bytes.len();
    match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        (Some(first), Some(last)) if len > 8 && len < 16 => {
            let h = mix(mix(KEY_SEED, extra), u64::from_le_bytes(*first));
            avalanche(mix(h, u64::from_le_bytes(*last) ^ ((len as u64) << 56)))
        }
        _ => position_key(&[bytes], extra),
    }
}

const KEY_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// One step of `position_key`: a word mixed into the hash.
#[inline(always)]
fn mix(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// The last step of `position_key`, so that every input bit reaches every output bit.
#[inline(always)]
fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// The sum of some bytes, eight at a time: the pieces on the board, which `seen_before` counts every turn.
#[inline(always)]
pub(super) fn byte_sum(bytes: &[u8]) -> u32 {
    // Two bytes side by side in each 16-bit lane, then the four lanes added up by one multiplication
    // (at most 4 * 510, so no lane carries into the next).
    let word_sum = |w: u64| {
        const LANES: u64 = 0x00ff_00ff_00ff_00ff;
        let pairs = (w & LANES) + ((w >> 8) & LANES);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    };
    if let (Some(first), Some(last), 9..=16) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>(), bytes.len()) {
        // No loop for the boards of most games: the first eight bytes, and the last eight less those.
        return word_sum(u64::from_le_bytes(*first)) + word_sum(u64::from_le_bytes(*last) >> (8 * (16 - bytes.len())));
    }
    let mut words = bytes.chunks_exact(8);
    let mut total = 0;
    for w in &mut words {
        total += word_sum(u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
    }
    let rest = words.remainder();
    if rest.is_empty() {
        total
    } else if bytes.len() >= 8 {
        // The last eight bytes, without those counted already.
        let last = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]));
        total + word_sum(last >> (8 * (8 - rest.len())))
    } else {
        total + rest.iter().map(|&b| b as u32).sum::<u32>()
    }
}

/// The part of a per-lap direction's condition (`Sow::lap_dir`) that a lap cannot change: its conjuncts
/// about the lap's origin and the mover alone (`origin in REGION(mover)`), which stay as they are whichever
/// way the lap is sown. Where it is false, the lap need not be tried the other way.
pub(super) fn lap_gate(c: &Cond, sources: &[Cond]) -> Option<Cond> {
    let c = match c {
        Cond::Compiled(i) => sources.get(*i as usize)?,
        c => c,
    };
    let fixed =
        |c: &Cond| matches!(c, Cond::InSet(PlaceExpr::Origin, Set::RegionOf(_, PlayerExpr::Mover) | Set::Region(_)));
    let parts: Vec<Cond> = match c {
        Cond::And(cs) => cs.iter().filter(|c| fixed(c)).cloned().collect(),
        c if fixed(c) => vec![c.clone()],
        _ => Vec::new(),
    };
    (!parts.is_empty()).then_some(Cond::And(parts))
}

/// Whether the end rules of a phase, once they have let a turn begin, say that the mover can move: a
/// `when stuck` or an `eliminate when cannot move` has just looked (the latter takes out every mover who
/// cannot start an action until one can, and a pass of the rules with an elimination is looked at again
/// from the first), or (in a phase whose starts are the mover's non-empty pits, `plain`)
/// `any players(count(pits(player)) = 0)` or `count(pits(mover)) = 0` has found a piece in the mover's pits.
/// Then `has_any_move` need not look again.
pub(super) fn end_rules_say_mover_can_move(rules: &Rules, phase: &PhaseRules, sources: &[Cond], plain: bool) -> bool {
    let source = |c: &'_ Cond| -> Option<Cond> {
        match c {
            Cond::Compiled(i) => sources.get(*i as usize).cloned(),
            other => Some(other.clone()),
        }
    };
    let none_left = |c: &Cond, bound: bool| match c {
        Cond::Cmp(Num::PitsCount(who), CmpOp::Eq | CmpOp::Le, Num::Const(0)) => {
            matches!((who, bound), (PlayerExpr::Bound, true) | (PlayerExpr::Mover, false))
        }
        _ => false,
    };
    phase.end.items.iter().chain(&rules.end.items).any(|rule| match rule {
        EndRule::Stuck | EndRule::EliminateStuck => true,
        EndRule::When(c) => {
            plain
                && match source(c) {
                    Some(Cond::AnyPlayers(body)) => none_left(&body, true),
                    Some(c) => none_left(&c, false),
                    None => false,
                }
        }
        _ => false,
    })
}

/// What a capture with `cancel` may have to put back (pieces, marks, owners, and the lives of marks `for N
/// plies`), kept on the stack when the board is small and no mark is timed: the capture of most games with a
/// grand-slam rule then allocates nothing.
pub(super) enum Saved {
    Inline { bytes: [u8; 192], counts: usize, marks: usize, owner: usize },
    Heap(Vec<u8>, Vec<u8>, Vec<u8>, Vec<u8>),
}

impl Saved {
    pub(super) fn take(st: &State) -> Saved {
        let (counts, marks, owner) = (st.counts.len(), st.marks.len(), st.owner.len());
        let mut bytes = [0u8; 192];
        if counts + marks + owner > bytes.len() || !st.mark_lives.is_empty() {
            return Saved::Heap(st.counts.clone(), st.marks.clone(), st.owner.clone(), st.mark_lives.clone());
        }
        bytes[..counts].copy_from_slice(&st.counts);
        bytes[counts..counts + marks].copy_from_slice(&st.marks);
        bytes[counts + marks..counts + marks + owner].copy_from_slice(&st.owner);
        Saved::Inline { bytes, counts, marks, owner }
    }

    /// Puts the saved pieces, marks and owners back.
    pub(super) fn restore(&self, st: &mut State) {
        match self {
            Saved::Heap(counts, marks, owner, until) => {
                st.counts.copy_from_slice(counts);
                st.marks.copy_from_slice(marks);
                st.owner.copy_from_slice(owner);
                st.mark_lives.copy_from_slice(until);
            }
            Saved::Inline { bytes, counts, marks, owner } => {
                let (counts, marks, owner) = (*counts, *marks, *owner);
                st.counts.copy_from_slice(&bytes[..counts]);
                st.marks.copy_from_slice(&bytes[counts..counts + marks]);
                st.owner.copy_from_slice(&bytes[counts + marks..counts + marks + owner]);
            }
        }
    }
}

impl Engine {
    /// Checks the shortcuts of the turn's start against the long way in this position, and describes the
    /// first disagreement: whether the mover can start (`any_start`, which stops at the first start that
    /// completes) against the whole list of starts, for the mover and, unobliged, for every player; and
    /// that a turn the end rules let begin has a start where `moves_known` says so. For tests.
    #[doc(hidden)]
    pub fn lookahead_disagreement(&self, st: &State) -> Option<String> {
        if st.result.is_some() {
            return None;
        }
        let mut out = Vec::new();
        self.start_options(st, &mut out, false);
        if self.any_start(st) == out.is_empty() {
            return Some(format!("any_start says {}, the list of starts is {out:?}", self.any_start(st)));
        }
        if matches!(st.stage, super::Stage::Start) {
            for player in 0..self.rules.players {
                let mut probe = st.probe_copy();
                (probe.to_move, probe.obliged) = (player, false);
                out.clear();
                self.start_options(&probe, &mut out, false);
                if self.can_begin(st, player) == out.is_empty() {
                    return Some(format!("can_begin({player}) disagrees with the starts {out:?}"));
                }
            }
            let phase = self.phase(st);
            out.clear();
            self.start_options(st, &mut out, true);
            if st.ply > 0 && self.phase_plan(st).moves_known && out.is_empty() && phase.pass.is_none() {
                return Some("the end rules let a turn begin without a move".into());
            }
        }
        None
    }
}

/// The whole-ply compiled form of a plain sowing phase: what its captures and its extra turn can do at the
/// end of a sowing, found once per mover and last place when the engine is made, so that a ply tests only
/// what the position can change. Everything static in the mover and the last place (`here in pits(mover)`
/// with fixed pits, `last = store(mover)`) is settled by the tables; the rest is the compiled conditions.
/// A capture of a shape the plan does not know hands the ply over to the general stages at that capture.
#[derive(Debug, Clone)]
pub(crate) struct PlyPlan {
    phase: u8,
    places: usize,
    /// The phase's one direction of sowing.
    dir: Dir,
    /// Per player: the starts of a turn, the player's non-empty fixed pits, as bits (`start_bits`).
    starts: Vec<StartRow>,
    /// The phase's tracks (`Engine::tracks`), and whether its sowing skips the origin.
    tracks: Tracks,
    skip_origin: bool,
    /// The phase has an obligation (`must`), which the turn's start looks at.
    must: bool,
    /// The obligation applies only when the opponent's pits are empty (`when count(pits(opponent)) = 0`,
    /// Oware's feeding): read off the pits' words before anything else is looked at.
    must_when_opponent_empty: bool,
    /// The end rules of the phase and the game, in order, as the turn after a ply checks them; none where
    /// one can take a player out (the general loop then looks at them all again).
    ends: Option<Vec<FastEnd>>,
    /// Per `mover * places + last`: the capture rules (as bits) whose condition can hold there, and whether
    /// the mover plays again.
    capture_at: Vec<(u32, Again)>,
    /// Per capture rule: its compiled form, when it has one.
    captures: Vec<Option<FastCapture>>,
    /// Per capture rule: what is left to test of its condition where `capture_at` says it can hold, as
    /// tests of counts, when it is made of them (else its compiled condition is tested).
    residues: Vec<Option<CountTests>>,
    /// Nothing in the rules needs the general bookkeeping of a ply's end (`hand_over`): one phase, no marks,
    /// no `again when` of the phase, no rounds, no records of the places passed; then `plain_hand_over` does
    /// what is left of it (an obligation still takes the general road).
    plain_end: bool,
    /// One kind of piece and no mark that an emptied pit loses: a start lifts its pit and nothing else.
    plain_lift: bool,
    /// The phase's ply limit, and whether the end rules say that the mover can move (`Engine::moves_known`).
    limit: u32,
    moves_known: bool,
    /// The sowings as additions of words to `counts`, where the board is small (`SowWords`).
    words: Option<SowWords>,
}

/// The sowings of a plan as additions of words, where the board has 9 to 16 places: a sowing of `n` pieces
/// from `origin` adds to the two eight-byte chunks of `counts` (the first eight bytes and the last eight)
/// `n / len` times the words of a whole lap plus the words of the first `n % len` places of the track (`len`
/// the track's length); the words of the last chunk leave the bytes it shares with the first alone. No byte
/// carries into the next: the board never holds more pieces than a byte counts (`SowWords::new`).
#[derive(Debug, Clone)]
struct SowWords {
    /// Where the last chunk begins in `counts`.
    last_chunk: usize,
    /// Per `mover * places + origin`: where its words begin in `words` (for rests 0..=len), its track's
    /// length, and where the track begins in `cells`.
    spans: Vec<(u32, u16, u32)>,
    words: Vec<[u64; 2]>,
    /// The tracks (`Tracks::cells`), for the place of the last piece.
    cells: Vec<PlaceId>,
}

impl SowWords {
    /// The words of `tracks`, where the board has 9 to 16 places and the pieces of the setup fit in a byte
    /// (one kind of piece; no rule of a plan adds pieces).
    fn new(rules: &Rules, tracks: &Tracks) -> Option<SowWords> {
        let len = rules.places.len();
        let pieces: u32 = rules.setup.iter().map(|&n| n as u32).sum();
        if !(9..=16).contains(&len) || pieces > 255 || rules.setup.len() != len || !tracks.any() {
            return None;
        }
        let last_chunk = len - 8;
        let mut sw = SowWords {
            last_chunk,
            spans: vec![(0, 0, 0); tracks.spans.len()],
            words: Vec::new(),
            cells: tracks.cells.clone(),
        };
        let word = |bytes: &[u8], from: usize, skip: usize| {
            (from..from + 8).fold(0u64, |w, i| if i < skip { w } else { w | (bytes[i] as u64) << (8 * (i - from)) })
        };
        for (at, &(start, cycle)) in tracks.spans.iter().enumerate() {
            if cycle == 0 {
                continue;
            }
            let track = &tracks.cells[start as usize..start as usize + cycle as usize];
            sw.spans[at] = (sw.words.len() as u32, cycle, start);
            let mut bytes = vec![0u8; len];
            for rest in 0..=track.len() {
                if rest > 0 {
                    bytes[track[rest - 1] as usize] += 1;
                }
                sw.words.push([word(&bytes, 0, 0), word(&bytes, last_chunk, 8)]);
            }
        }
        Some(sw)
    }

    /// Sows `n` pieces (at least one) from `origin` by `mover` (`at`: `mover * places + origin`); returns
    /// the place of the last piece, none where the origin has no track (nothing done).
    #[inline(always)]
    fn sow(&self, counts: &mut [u8], at: usize, n: usize) -> Option<PlaceId> {
        let &(start, len, cells) = self.spans.get(at)?;
        let len = len as usize;
        if len == 0 {
            return None;
        }
        let words = self.words.get(start as usize..start as usize + len + 1)?;
        let (laps, rest) = if n < len { (0, n) } else { (n / len, n % len) };
        let (Some(part), Some(whole)) = (words.get(rest), words.last()) else { return None };
        for (from, part, whole) in [(0, part[0], whole[0]), (self.last_chunk, part[1], whole[1])] {
            if let Some(bytes) = counts.get_mut(from..from + 8).and_then(|b| <&mut [u8; 8]>::try_from(b).ok()) {
                let w = u64::from_le_bytes(*bytes).wrapping_add(part).wrapping_add(whole.wrapping_mul(laps as u64));
                *bytes = w.to_le_bytes();
            }
        }
        // The last piece went into the place before the first without an extra piece.
        let last = if rest == 0 { len - 1 } else { rest - 1 };
        self.cells.get(cells as usize + last).copied()
    }
}

/// An end rule as the whole-ply form checks it.
#[derive(Debug, Clone)]
enum FastEnd {
    /// `when any players(count(pits(player)) = 0)` (`any`) or `when count(pits(mover)) = 0`.
    RowEmpty { any: bool },
    /// `when stuck` where the starts are the mover's non-empty pits: whether they are all empty.
    Stuck,
    /// `when any players(TESTS)` where the tests read single places' counts (`count(store(player)) >= 25`).
    AnyPlayerCounts(CountTests),
    /// `when repetition` (`draw`: `draw when repetition`).
    Repetition { draw: bool },
    /// `when CONDITION` of another shape, its compiled condition.
    When(Cond),
    /// Any other rule, as written (its conditions are the engine's compiled ones).
    Rule(EndRule),
}

/// The pits of one player as masked eight-byte words of `counts`: whether any holds a piece in a few loads.
/// Rows of up to 16 pits in a row take one or two words, kept inline; longer or scattered ones a list.
#[derive(Debug, Clone, Default)]
pub(crate) struct PitWords {
    first: (usize, u64),
    second: (usize, u64),
    rest: Vec<(usize, u64)>,
}

impl PitWords {
    /// The words covering `pits` in a `counts` of `len` bytes (one byte per pit: one kind of piece).
    pub(crate) fn new(pits: &[PlaceId], len: usize) -> PitWords {
        let mut sorted = pits.to_vec();
        sorted.sort_unstable();
        let mut words: Vec<(usize, u64)> = Vec::new();
        for p in sorted.into_iter().map(|p| p as usize) {
            match words.last_mut() {
                Some((start, mask)) if p < *start + 8 => *mask |= 0xff << ((p - *start) * 8),
                _ => {
                    // A word starts at the pit, or earlier where it would run past the end.
                    let start = p.min(len.saturating_sub(8));
                    words.push((start, 0xff << ((p - start) * 8)));
                }
            }
        }
        let mut words = words.into_iter();
        let first = words.next().unwrap_or((0, 0));
        let second = words.next().unwrap_or((0, 0));
        PitWords { first, second, rest: words.collect() }
    }

    /// Whether some pit holds a piece.
    #[inline]
    pub(crate) fn any(&self, counts: &[u8]) -> bool {
        let (a, b) = (self.first, self.second);
        word_at(counts, a.0) & a.1 != 0
            || (b.1 != 0 && word_at(counts, b.0) & b.1 != 0)
            || self.rest.iter().any(|&(start, mask)| word_at(counts, start) & mask != 0)
    }
}

/// Eight bytes of `counts` from `start` as a little-endian word, zeros past its end.
#[inline(always)]
fn word_at(counts: &[u8], start: usize) -> u64 {
    match counts.get(start..).and_then(<[u8]>::first_chunk::<8>) {
        Some(w) => u64::from_le_bytes(*w),
        None => counts.get(start..).unwrap_or(&[]).iter().rev().fold(0u64, |w, &b| w << 8 | b as u64),
    }
}

/// One player's fixed pits, whose non-empty ones are the starts of a plain phase, read as bits: bit `i` says
/// that `pits[i]` holds a piece. Where the pits are at most 8 places in a row of `counts`, in order, one word
/// of `counts` gives every bit at once.
#[derive(Debug, Clone)]
struct StartRow {
    pits: Vec<PlaceId>,
    /// The word of `counts` that holds the row: where it starts, the row's first byte in it, and the mask of
    /// the row's bytes. A word starts before the row where it would run past the end of `counts`.
    word: Option<(usize, u32, u64)>,
}

impl StartRow {
    fn new(pits: &[PlaceId], len: usize) -> StartRow {
        let first = pits.first().map_or(0, |&p| p as usize);
        let in_a_row = pits.iter().enumerate().all(|(i, &p)| p as usize == first + i);
        let fits = !pits.is_empty() && pits.len() <= 8 && first + pits.len() <= len && len >= 8;
        let word = (in_a_row && fits).then(|| {
            let start = first.min(len - 8);
            let shift = (first - start) as u32;
            let lanes = (u64::MAX >> (64 - 8 * pits.len())) << (8 * shift);
            (start, shift, lanes)
        });
        StartRow { pits: pits.to_vec(), word }
    }

    /// Which pits hold a piece, as bits in the order of `pits`, and how many do.
    #[inline(always)]
    fn bits(&self, counts: &[u8]) -> (u64, usize) {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        match self.word {
            Some((start, shift, lanes)) => {
                let w = word_at(counts, start) & lanes;
                // The high bit of each byte says whether the byte is not zero. Moved down to each byte's
                // low bit, one multiplication gathers them into the top byte, one bit per place, and
                // another adds them up there (a count without the instruction for it).
                let nonzero = ((((w & LOW7) + LOW7) | w) & !LOW7) >> 7;
                let bits = (nonzero.wrapping_mul(0x0102_0408_1020_4080) >> 56) >> shift;
                (bits, (nonzero.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize)
            }
            None => {
                let bits = self.pits.iter().enumerate().fold(0, |bits, (i, &p)| {
                    bits | ((counts.get(p as usize).is_some_and(|&n| n > 0) as u64) << (i % 64))
                });
                (bits, bits.count_ones() as usize)
            }
        }
    }
}

/// The place of the `k`-th set bit of `bits` (from 0) in `pits`: the `k`-th start of the list.
#[inline(always)]
fn nth_start(pits: &[PlaceId], mut bits: u64, k: usize) -> PlaceId {
    if let Some(&i) = NTH_BIT.get(bits as usize).and_then(|row| row.get(k)) {
        return pits.get(i as usize).copied().unwrap_or(0);
    }
    for _ in 0..k {
        bits &= bits.wrapping_sub(1);
    }
    pits.get(bits.trailing_zeros() as usize).copied().unwrap_or(0)
}

/// Per eight bits and `k`: the place of the `k`-th set bit (from 0), for `nth_start` without a loop.
static NTH_BIT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if bits >> i & 1 == 1 {
                t[bits][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        bits += 1;
    }
    t
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Again {
    Never,
    Always,
    Test,
}

/// A capture made only of takes of every piece from a few places fixed by the mover and the pit (`here`,
/// `opposite`, a store) to one such place, with its chain and `cancel` as written.
#[derive(Debug, Clone)]
struct FastCapture {
    /// Per take, per `mover * places + here`: the places taken from, and where to.
    takes: Vec<Vec<FastTake>>,
    /// The chain's condition where it is made of parts that the mover and the pit settle and tests of
    /// counts: per `mover * places + pit`, whether the settled parts hold there; and the tests left.
    chain: Option<(Vec<bool>, CountTests)>,
    /// A `cancel` is undone from the log of the takes made (`TakeLog`): the chain cannot make more takes
    /// than it holds. Otherwise from a copy of the position (`Saved`).
    logged: bool,
}

/// The takes of a `FastCapture` as they were made, on the stack: each the place taken from, the place
/// taken to, the pieces taken and what the place taken to held before, undone last first when the
/// capture's `cancel` holds. Takes move pieces and nothing else, so this puts back all they changed.
struct TakeLog {
    takes: [(PlaceId, PlaceId, u8, u8); TakeLog::CAP],
    len: usize,
}

impl TakeLog {
    const CAP: usize = 16;

    fn new() -> TakeLog {
        TakeLog { takes: [(0, 0, 0, 0); TakeLog::CAP], len: 0 }
    }

    #[inline(always)]
    fn push(&mut self, take: (PlaceId, PlaceId, u8, u8)) {
        if let Some(slot) = self.takes.get_mut(self.len) {
            *slot = take;
            self.len += 1;
        }
    }

    fn undo(&self, counts: &mut [u8]) {
        for &(from, to, n, held) in self.takes[..self.len].iter().rev() {
            counts[to as usize] = held;
            counts[from as usize] = n;
        }
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct FastTake {
    from: [PlaceId; 4],
    len: u8,
    to: Option<PlaceId>,
}

impl PlyPlan {
    /// The plan of a phase whose single action is `sow`, a plain sowing (`plain_sow`); none where the
    /// rules can take a player out (then `opponent` is not fixed by the mover) or owners change.
    pub(crate) fn new(engine: &Engine, phase: usize, sow: &Sow) -> Option<PlyPlan> {
        let rules = &engine.rules;
        if rules.needs.elimination || engine.fixed_pits.is_none() || sow.then.is_some() || sow.laps {
            return None;
        }
        if sow.captures.len() > 32 {
            return None;
        }
        let places = rules.places.len();
        let source = |c: &Cond| source(engine, c);
        let mut probe = engine.initial_state();
        let phase_plan = engine.phases.get(phase)?;
        let dir = phase_plan.plain_sow?;
        let starts = (0..rules.players).map(|p| StartRow::new(engine.fixed_pits_of(p), rules.places.len())).collect();
        let mut plan = PlyPlan {
            phase: phase as u8,
            places,
            dir,
            starts,
            tracks: phase_plan.tracks.clone(),
            skip_origin: sow.skip_origin,
            must: rules.phases[phase].must.is_some(),
            must_when_opponent_empty: rules.phases[phase].must.as_ref().is_some_and(|m| {
                matches!(
                    source(&m.when),
                    Cond::Cmp(Num::PitsCount(PlayerExpr::Opponent), CmpOp::Eq | CmpOp::Le, Num::Const(0))
                )
            }),
            ends: fast_ends(engine, phase, &source),
            capture_at: vec![(0, Again::Never); rules.players as usize * places],
            captures: sow.captures.iter().map(|c| FastCapture::new(engine, &mut probe, c)).collect(),
            residues: Vec::new(),
            plain_end: rules.phases.len() == 1
                && rules.marks.is_empty()
                && rules.phases[phase].again.is_none()
                && !rules.needs.rounds
                && !rules.needs.passed
                && !rules.needs.moves,
            plain_lift: engine.k == 1 && engine.empty_marks.is_empty(),
            limit: phase_plan.limit,
            moves_known: phase_plan.moves_known,
            words: None,
        };
        if engine.k == 1 {
            plan.words = SowWords::new(rules, &plan.tracks);
        }
        let whens: Vec<Cond> = sow.captures.iter().map(|c| source(&c.when)).collect();
        plan.residues = whens.iter().map(residue).collect();
        let again = sow.again.as_ref().map(source);
        for mover in 0..rules.players {
            for last in 0..places as PlaceId {
                let at = mover as usize * places + last as usize;
                probe.last = last;
                let cx = super::Ctx::new(mover).at(last);
                for (r, when) in whens.iter().enumerate() {
                    if may_hold(engine, &probe, cx, when) {
                        plan.capture_at[at].0 |= 1 << r;
                    }
                }
                plan.capture_at[at].1 = match &again {
                    None => Again::Never,
                    Some(c) if is_static(c) => {
                        if engine.cond(&probe, cx, c) {
                            Again::Always
                        } else {
                            Again::Never
                        }
                    }
                    Some(_) => Again::Test,
                };
            }
        }
        Some(plan)
    }
}

/// The end rules of a phase in the whole-ply form; none where a rule can take a player out.
fn fast_ends(engine: &Engine, phase: usize, source: &dyn Fn(&Cond) -> Cond) -> Option<Vec<FastEnd>> {
    let rules = &engine.rules;
    let items = rules.phases[phase].end.items.iter().chain(&rules.end.items);
    let row_empty = |c: &Cond, bound: bool| match c {
        Cond::Cmp(Num::PitsCount(who), CmpOp::Eq | CmpOp::Le, Num::Const(0)) => {
            matches!((who, bound), (PlayerExpr::Bound, true) | (PlayerExpr::Mover, false))
        }
        _ => false,
    };
    items
        .map(|rule| match rule {
            EndRule::Eliminate(_) | EndRule::EliminateStuck | EndRule::EliminateEndless => None,
            EndRule::Stuck if engine.phases[phase].plain_starts => Some(FastEnd::Stuck),
            EndRule::When(c) => Some(match source(c) {
                Cond::AnyPlayers(body) if row_empty(&body, true) => FastEnd::RowEmpty { any: true },
                Cond::AnyPlayers(body) => match CountTests::of(&[&*body]) {
                    Some(tests) => FastEnd::AnyPlayerCounts(tests),
                    None => FastEnd::When(c.clone()),
                },
                source if row_empty(&source, false) => FastEnd::RowEmpty { any: false },
                _ => FastEnd::When(c.clone()),
            }),
            EndRule::Repetition => Some(FastEnd::Repetition { draw: false }),
            EndRule::DrawRepetition => Some(FastEnd::Repetition { draw: true }),
            _ => Some(FastEnd::Rule(rule.clone())),
        })
        .collect()
}

impl FastCapture {
    fn new(engine: &Engine, probe: &mut State, rule: &CaptureRule) -> Option<FastCapture> {
        let rules = &engine.rules;
        if rule.may || !rule.steps.is_empty() || rule.resow.is_some() {
            return None;
        }
        let places = rules.places.len();
        let mut takes = Vec::new();
        for take in &rule.takes {
            let simple = !take.chosen && take.count.is_none() && matches!(take.kinds, KindSel::All);
            let (TakeTo::Place(to), [group]) = (&take.to, take.from.as_slice()) else { return None };
            // Along a chain `here` moves on while `last` stays: only places fixed by `here` are tabled.
            if !simple || group.len() > 4 || !static_place(to) || mentions_last(to) {
                return None;
            }
            let mut from = Vec::new();
            for set in group {
                let Set::One(p) = set else { return None };
                if !static_place(p) || mentions_last(p) {
                    return None;
                }
                from.push(p);
            }
            let mut table = vec![FastTake::default(); rules.players as usize * places];
            for mover in 0..rules.players {
                for here in 0..places as PlaceId {
                    probe.last = here;
                    let cx = super::Ctx::new(mover).at(here);
                    let t = &mut table[mover as usize * places + here as usize];
                    t.to = engine.place(probe, cx, to);
                    for p in from.iter().filter_map(|p| engine.place(probe, cx, p)) {
                        t.from[t.len as usize] = p;
                        t.len += 1;
                    }
                }
            }
            takes.push(table);
        }
        // Along the chain every pit but the last, each with every place of every take.
        let most_takes = rules.n_pits * rule.takes.iter().map(|t| t.from.first().map_or(0, Vec::len)).sum::<usize>();
        let chain = rule.chain.as_ref().and_then(|c| chain_table(engine, probe, &source(engine, &c.cond)));
        Some(FastCapture { takes, chain, logged: most_takes <= TakeLog::CAP })
    }
}

/// A chain's condition (`ChainRule::cond`) as a table of its parts that the mover and the pit settle, per
/// `mover * places + pit`, and the tests of counts left; none where it has other parts, or reads `last`
/// (which stays where the sowing ended as the chain walks on).
fn chain_table(engine: &Engine, probe: &State, c: &Cond) -> Option<(Vec<bool>, CountTests)> {
    let parts: Vec<&Cond> = match c {
        Cond::And(cs) => cs.iter().collect(),
        c => vec![c],
    };
    let (settled, rest): (Vec<&Cond>, Vec<&Cond>) = parts.into_iter().partition(|c| is_static(c));
    if settled.iter().any(|c| cond_mentions_last(c)) {
        return None;
    }
    let tests = CountTests::of(&rest)?;
    let places = engine.rules.places.len();
    let mut table = vec![false; engine.rules.players as usize * places];
    for mover in 0..engine.rules.players {
        for here in 0..places as PlaceId {
            let cx = super::Ctx::new(mover).at(here);
            table[mover as usize * places + here as usize] = settled.iter().all(|c| engine.cond(probe, cx, c));
        }
    }
    Some((table, tests))
}

/// Whether a condition that `is_static` reads `last`.
fn cond_mentions_last(c: &Cond) -> bool {
    match c {
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(cond_mentions_last),
        Cond::Not(c) => cond_mentions_last(c),
        Cond::PlaceEq(a, b, _) => mentions_last(a) || mentions_last(b),
        _ => false,
    }
}

/// A condition as written, where the engine has compiled it (`Cond::Compiled`).
fn source(engine: &Engine, c: &Cond) -> Cond {
    match c {
        Cond::Compiled(i) => engine.compiled.1.get(*i as usize).cloned().unwrap_or(Cond::True),
        other => other.clone(),
    }
}

/// Per mover, the pits an end sweep empties and where their pieces go.
pub(super) type SweepTable = Vec<Vec<(PlaceId, PlaceId)>>;

/// Per mover, the pits an end sweep of `phase` empties and where each goes, in the order `sweep` takes
/// them, where the sets and the places are fixed by the mover and the pit (owners never change, no player
/// is taken out, one kind of piece and no mark lost as a pit empties); none otherwise.
pub(super) fn sweep_table(engine: &Engine, phase: usize) -> Option<SweepTable> {
    let rules = &engine.rules;
    if engine.fixed_pits.is_none() || rules.needs.elimination || engine.k != 1 || !engine.empty_marks.is_empty() {
        return None;
    }
    let phase_end = &rules.phases.get(phase)?.end;
    // A sweep made only after some endings depends on why the game ended, which no table says.
    if phase_end.sweep_after.iter().chain(&rules.end.sweep_after).any(Option::is_some) {
        return None;
    }
    let sweeps: Vec<&(Set, PlaceExpr)> = phase_end.sweeps.iter().chain(&rules.end.sweeps).collect();
    if !sweeps.iter().all(|(set, to)| sweep_static_set(set) && sweep_static_place(to)) {
        return None;
    }
    let probe = engine.initial_state();
    let table = (0..rules.players)
        .map(|mover| {
            let mut moves = Vec::new();
            for (set, to) in &sweeps {
                let mut places = Vec::new();
                engine.for_each_in_set(&probe, super::Ctx::new(mover), set, |p| {
                    places.push(p);
                    true
                });
                for p in places {
                    if let Some(dest) = engine.place(&probe, super::Ctx::new(mover).at(p), to) {
                        moves.push((p, dest));
                    }
                }
            }
            moves
        })
        .collect();
    Some(table)
}

/// A set of places that the mover alone fixes, owners never changing.
fn sweep_static_set(set: &Set) -> bool {
    match set {
        Set::AllPits | Set::EveryPlayer(_) | Set::Region(_) => true,
        Set::PitsOf(who) | Set::RegionOf(_, who) => sweep_static_player(who),
        Set::One(p) | Set::Facing(p) => sweep_static_place(p),
        Set::Offered | Set::Marked(..) | Set::Threats(_) | Set::TakenFirst => false,
    }
}

/// A place that the mover and the pit swept (`here`) fix, owners never changing.
fn sweep_static_place(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Here | PlaceExpr::Fixed(_) => true,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => {
            sweep_static_place(p)
        }
        PlaceExpr::OfPlayer(_, who) => sweep_static_player(who),
        PlaceExpr::Last | PlaceExpr::Origin | PlaceExpr::Start | PlaceExpr::RegionPit(..) | PlaceExpr::Next(..) => {
            false
        }
    }
}

fn sweep_static_player(who: &PlayerExpr) -> bool {
    match who {
        PlayerExpr::Mover | PlayerExpr::Opponent => true,
        PlayerExpr::Owner(p) => sweep_static_place(p),
        PlayerExpr::Bound => false,
    }
}

/// Whether a player expression names the same player whatever the position, given the mover: no player
/// can be taken out, so the opponent is the next seat.
fn static_player(p: &PlayerExpr) -> bool {
    matches!(p, PlayerExpr::Mover | PlayerExpr::Opponent)
}

/// Whether a place expression names a place fixed by the mover and `here` (= `last` at a sowing's end).
fn static_place(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Here | PlaceExpr::Last | PlaceExpr::Fixed(_) => true,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => static_place(p),
        PlaceExpr::OfPlayer(_, who) => static_player(who),
        PlaceExpr::Origin | PlaceExpr::Start | PlaceExpr::RegionPit(..) | PlaceExpr::Next(..) => false,
    }
}

/// Whether a place expression reads `last`.
fn mentions_last(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Last => true,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => mentions_last(p),
        _ => false,
    }
}

/// Whether a condition is fixed by the mover and the last place, with pits that never change hands.
fn is_static(c: &Cond) -> bool {
    match c {
        Cond::True => true,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(is_static),
        Cond::Not(c) => is_static(c),
        Cond::HereOwnedBy(who) => static_player(who),
        Cond::PlaceEq(a, b, _) => static_place(a) && static_place(b),
        _ => false,
    }
}

/// What is left to test of a capture's condition where the mover and the last place let it hold: its
/// parts that they do not settle, when those are tests of counts.
fn residue(c: &Cond) -> Option<CountTests> {
    let parts: Vec<&Cond> = match c {
        Cond::And(cs) => cs.iter().collect(),
        c => vec![c],
    };
    CountTests::of(&parts.into_iter().filter(|c| !is_static(c)).collect::<Vec<_>>())
}

/// Whether a condition can hold at the end of a sowing by `cx.mover` ending at `cx.here`: false only
/// when a part of it that the position cannot change rules it out.
fn may_hold(engine: &Engine, probe: &State, cx: super::Ctx, c: &Cond) -> bool {
    match c {
        c if is_static(c) => engine.cond(probe, cx, c),
        Cond::And(cs) => cs.iter().all(|c| may_hold(engine, probe, cx, c)),
        Cond::Or(cs) => cs.iter().any(|c| may_hold(engine, probe, cx, c)),
        _ => true,
    }
}

/// A turn that begins in a phase with a `PlyPlan`: its starts as bits (`StartRow::bits`), in the order in
/// which `legal_moves` lists them, so that a random player picks the k-th without a list.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlainTurn<'e> {
    plan: &'e PlyPlan,
    pits: &'e [PlaceId],
    bits: u64,
    /// The number of starts: the length of the list of `legal_moves`.
    pub(crate) len: usize,
}

impl PlainTurn<'_> {
    /// The `k`-th start, from 0: `legal_moves(..)[k]`.
    #[inline(always)]
    pub(crate) fn nth(&self, k: usize) -> Move {
        Move::Begin { action: 0, place: nth_start(self.pits, self.bits, k) }
    }
}

impl Engine {
    /// The turn that begins, where it is one of a phase with a `PlyPlan` and no obligation binds the mover
    /// (then `legal_moves` lists the mover's non-empty pits, and each is played as a whole ply); none
    /// elsewhere, and where a player has more pits than bits.
    #[inline(always)]
    pub(crate) fn plain_turn(&self, st: &State) -> Option<PlainTurn<'_>> {
        if !matches!(st.stage, super::Stage::Start) || st.obliged || st.result.is_some() {
            return None;
        }
        let plan = self.phases.get(st.phase as usize)?.ply_plan.as_ref()?;
        let row = plan.starts.get(st.to_move as usize).filter(|r| r.pits.len() <= 64)?;
        let (bits, len) = row.bits(&st.counts);
        Some(PlainTurn { plan, pits: &row.pits, bits, len })
    }

    /// Plays a start of a `plain_turn`, as `apply_unchecked` would.
    #[inline(always)]
    pub(crate) fn play_plain_turn(&self, st: &mut State, turn: &PlainTurn<'_>, mv: Move) {
        let Move::Begin { place, .. } = mv else { return self.apply_unchecked(st, mv) };
        if self.ply_marks {
            self.clear_ply_marks(st);
        }
        self.whole_ply(st, turn.plan, place);
    }

    /// Plays `mv` as a whole ply when it starts one in a phase with a `PlyPlan`; false otherwise.
    #[inline(always)]
    pub(super) fn try_whole_ply(&self, st: &mut State, mv: Move) -> bool {
        let (super::Stage::Start, Move::Begin { action: 0, place }) = (st.stage, mv) else { return false };
        let phase = st.phase as usize;
        let Some(plan) = self.phases.get(phase).and_then(|p| p.ply_plan.as_ref()) else { return false };
        if self.ply_marks {
            self.clear_ply_marks(st);
        }
        self.whole_ply(st, plan, place);
        true
    }

    /// A whole ply of a phase with a `PlyPlan`: the sowing of `plain_ply`, then its captures and extra
    /// turn off the plan's tables, then the end of the ply. What the general stages would do, step for step.
    /// Inlined: it is the whole of a ply of most games, and a call costs a tenth of it.
    #[inline(always)]
    fn whole_ply(&self, st: &mut State, plan: &PlyPlan, place: PlaceId) {
        self.sow_planned(st, plan, place);
        let mover = st.to_move;
        let at = mover as usize * plan.places + st.last as usize;
        let cx = super::Ctx::new(mover).at(st.last);
        let (mut rules, again) = plan.capture_at.get(at).copied().unwrap_or((0, Again::Never));
        while rules != 0 {
            let r = rules.trailing_zeros() as usize;
            rules &= rules - 1;
            let holds = match &plan.residues[r] {
                Some(tests) => tests.hold(self, st, cx),
                None => self.test(st, cx, &self.planned_sow(plan).captures[r].when),
            };
            if !holds {
                continue;
            }
            match &plan.captures[r] {
                Some(fast) => {
                    self.fast_capture(st, &self.planned_sow(plan).captures[r], fast, plan.places);
                    break;
                }
                // The general stages take the ply on from this capture (which may wait for a choice).
                None => return self.capture_from(st, 0, self.planned_sow(plan), r, false),
            }
        }
        st.again = match again {
            Again::Never => false,
            Again::Always => true,
            Again::Test => self.planned_sow(plan).again.as_ref().is_some_and(|c| self.test(st, cx, c)),
        };
        if plan.plain_end && !st.obliged {
            plain_hand_over(st, self.rules.players);
        } else {
            let next = if st.again { super::Next::Keep } else { super::Next::Switch };
            if !self.hand_over(st, next, false) {
                return;
            }
        }
        self.begin_planned_turn(st, plan);
    }

    /// The sowing of a whole ply: `sow_plain_lap`, by the plan's words where it has them.
    #[inline(always)]
    fn sow_planned(&self, st: &mut State, plan: &PlyPlan, place: PlaceId) {
        let (Some(words), true) = (&plan.words, plan.plain_lift) else {
            return self.sow_plain_lap(st, plan.dir, place, &plan.tracks, plan.skip_origin);
        };
        let at = st.to_move as usize * plan.places + place as usize;
        let Some(hand) = st.hand.first_mut() else { return };
        let n = hand.saturating_add(std::mem::take(&mut st.counts[place as usize])) as usize;
        *hand = 0;
        let last = match n {
            0 => place,
            n => match words.sow(&mut st.counts, at, n) {
                Some(last) => last,
                None => {
                    // No track from this pit: the general sowing, its pieces back where they were.
                    st.hand[0] = n as u8;
                    return self.sow_plain_lap(st, plan.dir, place, &plan.tracks, plan.skip_origin);
                }
            },
        };
        (st.origin, st.start, st.dir, st.lap, st.diverted) = (place, place, plan.dir, 1, false);
        (st.cursor, st.last, st.stage) = (last, last, super::Stage::Start);
    }

    /// The sowing of a plan's phase, looked up only where a capture or the extra turn needs it.
    #[inline]
    fn planned_sow(&self, plan: &PlyPlan) -> &Sow {
        match self.rules.phases[plan.phase as usize].actions.first().map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => s,
            _ => unreachable!("a plan is made for a phase whose one action is a sowing"),
        }
    }

    /// `begin_turn` after a ply of a phase with a plan: its end rules off the plan, then the ply limit
    /// and whether the mover can move.
    #[inline(always)]
    fn begin_planned_turn(&self, st: &mut State, plan: &PlyPlan) {
        let (Some(ends), true) = (&plan.ends, st.phase == plan.phase) else {
            return self.begin_turn(st);
        };
        for end in ends {
            let reason = match end {
                FastEnd::RowEmpty { any: true } => {
                    let pits = &self.pit_words;
                    pits.iter().any(|p| !p.any(&st.counts)).then_some(EndReason::Condition)
                }
                FastEnd::RowEmpty { any: false } | FastEnd::Stuck => {
                    let reason = if matches!(end, FastEnd::Stuck) { EndReason::Stuck } else { EndReason::Condition };
                    (!self.row_holds(st, st.to_move)).then_some(reason)
                }
                FastEnd::AnyPlayerCounts(tests) => {
                    let cx = super::Ctx::new(st.to_move);
                    (0..self.rules.players).any(|p| tests.hold(self, st, cx.bound(p))).then_some(EndReason::Condition)
                }
                FastEnd::Repetition { draw: false } => self.seen_before(st).then_some(EndReason::Repetition),
                FastEnd::Repetition { draw: true } => self.seen_before(st).then_some(EndReason::RepetitionDraw),
                FastEnd::When(c) => self.test(st, super::Ctx::new(st.to_move), c).then_some(EndReason::Condition),
                FastEnd::Rule(rule) => self.end_rule_fires(st, rule),
            };
            if let Some(reason) = reason {
                return self.finish(st, reason);
            }
        }
        st.endless = false;
        if st.ply >= plan.limit {
            return self.finish(st, EndReason::Limit);
        }
        // Without an obligation, `check_can_move` comes down to the stuck check, when one is needed.
        let free = plan.must_when_opponent_empty && self.row_holds(st, self.next_active(st, st.to_move));
        if plan.must && !free {
            self.check_can_move(st, true);
        } else if !plan.moves_known && !self.has_any_move(st) {
            self.finish(st, EndReason::Stuck);
        }
    }

    /// Whether `player`'s pits hold a piece.
    #[inline(always)]
    fn row_holds(&self, st: &State, player: u8) -> bool {
        self.pit_words.get(player as usize).is_some_and(|p| p.any(&st.counts))
    }

    /// `next_chain_pit`, the chain's condition read off a `FastCapture`'s table. Not inlined: the walk's
    /// state would crowd the registers of captures without a chain.
    #[inline(never)]
    fn tabled_chain_pit(
        &self,
        st: &State,
        chain: &ChainRule,
        (settled, tests): &(Vec<bool>, CountTests),
        places: usize,
        cur: &mut super::CaptureCursor,
    ) -> Option<PlaceId> {
        let mover = st.to_move;
        self.next_chain_pit_where(st, chain, cur, |p| {
            settled[mover as usize * places + p as usize] && tests.hold(self, st, super::Ctx::new(mover).at(p))
        })
    }

    /// A capture with a `FastCapture`: `capture_steps` without the choices it cannot have.
    fn fast_capture(&self, st: &mut State, rule: &CaptureRule, fast: &FastCapture, places: usize) {
        let snapshot = rule.cancel.as_ref().filter(|_| !fast.logged).map(|_| Saved::take(st));
        let mut log = rule.cancel.as_ref().filter(|_| fast.logged).map(|_| TakeLog::new());
        let mover = st.to_move;
        let mut cur = super::CaptureCursor::at(0, st.last);
        loop {
            for take in &fast.takes {
                let t = take[mover as usize * places + cur.here as usize];
                let Some(to) = t.to else { continue };
                for &p in &t.from[..t.len as usize] {
                    if p != to {
                        let (n, held) = (std::mem::take(&mut st.counts[p as usize]), st.counts[to as usize]);
                        st.counts[to as usize] = held.saturating_add(n);
                        st.captured |= n > 0;
                        if let Some(log) = &mut log {
                            log.push((p, to, n, held));
                        }
                    }
                }
            }
            let Some(chain) = &rule.chain else { break };
            let next = match &fast.chain {
                Some(table) => self.tabled_chain_pit(st, chain, table, places, &mut cur),
                None => self.next_chain_pit(st, rule, &mut cur),
            };
            match next {
                Some(p) => cur.here = p,
                None => break,
            }
        }
        if let Some(cancel) = &rule.cancel {
            if self.test(st, super::Ctx::new(mover).at(st.last), cancel) {
                // By reference: moving the snapshot would copy it, there or not.
                match (&snapshot, &log) {
                    (Some(snapshot), _) => snapshot.restore(st),
                    (None, Some(log)) => log.undo(&mut st.counts),
                    (None, None) => {}
                }
                st.captured = false;
            }
        }
        st.stage = super::Stage::Start;
    }
}

/// `hand_over` after a whole ply of a plan with `plain_end`, where nobody is obliged and nobody can be taken
/// out: the ply counted, the turn passed unless the mover plays again, the ply's flags cleared.
#[inline(always)]
fn plain_hand_over(st: &mut State, players: u8) {
    let mover = st.to_move;
    st.ply += 1;
    st.stage = super::Stage::Start;
    st.taken_first = 0;
    st.last_mover = mover;
    if st.captured {
        st.captures += 1;
        if let Some(n) = st.capture_plies.get_mut(mover as usize) {
            *n = n.saturating_add(1);
        }
    }
    if !st.again {
        st.to_move = if mover + 1 >= players { 0 } else { mover + 1 };
    }
    (st.captured, st.again, st.obliged) = (false, false, false);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bytes that look like a board: small counts, zeros, and the largest count a byte holds.
    fn board(len: usize, seed: u64) -> Vec<u8> {
        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        (0..len)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                match x % 5 {
                    0 => 0,
                    1 => 255,
                    _ => (x >> 8) as u8 % 12,
                }
            })
            .collect()
    }

    #[test]
    fn byte_sums_add_every_byte() {
        for len in 0..40 {
            for seed in 0..20 {
                let bytes = board(len, seed);
                let sum: u32 = bytes.iter().map(|&b| b as u32).sum();
                assert_eq!(byte_sum(&bytes), sum, "{bytes:?}");
            }
        }
    }

    #[test]
    fn counts_keys_are_position_keys() {
        for len in 0..40 {
            let bytes = board(len, len as u64 + 7);
            assert_eq!(counts_key(&bytes, 5), position_key(&[&bytes], 5), "{len} bytes");
        }
    }

    #[test]
    fn position_keys_tell_apart_boards_that_differ_in_one_byte() {
        for len in 1..24 {
            let bytes = board(len, len as u64);
            let key = position_key(&[&bytes, &[1, 0, 0, 0]], 0);
            for i in 0..len {
                let mut other = bytes.clone();
                other[i] = other[i].wrapping_add(1);
                assert_ne!(position_key(&[&other, &[1, 0, 0, 0]], 0), key, "byte {i} of {len}");
            }
            assert_ne!(position_key(&[&bytes, &[0, 0, 0, 0]], 0), key);
            assert_ne!(position_key(&[&bytes, &[1, 0, 0, 0]], 1), key);
        }
    }

    #[test]
    fn start_bits_say_which_pits_hold_pieces() {
        for (len, pits) in [
            (14, vec![0u16, 1, 2, 3, 4, 5]),
            (14, vec![7, 8, 9, 10, 11, 12]),
            (12, vec![6, 7, 8, 9, 10, 11]),
            (9, vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (6, vec![0, 1, 2]),
            (20, vec![5, 3, 1]),
            (80, (0..64).collect()),
        ] {
            let row = StartRow::new(&pits, len);
            for seed in 0..50 {
                let counts = board(len, seed);
                let held: Vec<bool> = pits.iter().map(|&p| counts[p as usize] > 0).collect();
                let (bits, n) = row.bits(&counts);
                assert_eq!(n, held.iter().filter(|&&h| h).count(), "{pits:?} {counts:?}");
                for (i, &h) in held.iter().enumerate() {
                    assert_eq!(bits >> i & 1 == 1, h, "pit {} of {pits:?} in {counts:?}", pits[i]);
                }
                // The k-th start is the k-th pit that holds a piece.
                let starts: Vec<PlaceId> = pits.iter().zip(&held).filter(|(_, &h)| h).map(|(&p, _)| p).collect();
                for (k, &p) in starts.iter().enumerate() {
                    assert_eq!(nth_start(&pits, bits, k), p);
                }
            }
        }
    }
}
