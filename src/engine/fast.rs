//! The compiled form of plain sowing phases: whole laps sown by arithmetic over a track per mover and
//! origin, the landing pit found by index. Everything here must end in exactly the state the general
//! stages would reach (`tests/properties.rs` plays every shipped game both ways, `Engine::without_fast_paths`).

use crate::ir::*;

use super::{Engine, Move, State};

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

    /// Drops every seed in hand along the mover's track in whole laps (each place gets `n / len`, the first
    /// `n % len` one more): what `drop_plain` does piece by piece, for a phase with tracks.
    #[inline]
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

/// A position key over byte slices and one extra word, eight bytes at a time: what `seen_before` hashes at
/// every turn of a game with a repetition rule. Each part is mixed with its length, so that parts of other
/// lengths cannot line up into the same words.
pub(super) fn position_key(parts: &[&[u8]], extra: u64) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(29);
    let mut h = mix(0xcbf2_9ce4_8422_2325, extra);
    for part in parts {
        let mut words = part.chunks_exact(8);
        for w in &mut words {
            h = mix(h, u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        }
        let mut tail = [0u8; 8];
        tail[..words.remainder().len()].copy_from_slice(words.remainder());
        h = mix(h, u64::from_le_bytes(tail) ^ ((part.len() as u64) << 56));
    }
    // A last avalanche, so that every input bit reaches every output bit.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// Whether the end rules of a phase, once they have let a turn begin, say that the mover can move: a
/// `when stuck` has just looked, or (in a phase whose starts are the mover's non-empty pits, `plain`)
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
        EndRule::Stuck => true,
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

/// What a capture with `cancel` may have to put back (pieces, marks, owners), kept on the stack when the
/// board is small: the capture of most games with a grand-slam rule then allocates nothing.
pub(super) enum Saved {
    Inline { bytes: [u8; 192], counts: usize, marks: usize, owner: usize },
    Heap(Vec<u8>, Vec<u8>, Vec<u8>),
}

impl Saved {
    pub(super) fn take(st: &State) -> Saved {
        let (counts, marks, owner) = (st.counts.len(), st.marks.len(), st.owner.len());
        let mut bytes = [0u8; 192];
        if counts + marks + owner > bytes.len() {
            return Saved::Heap(st.counts.clone(), st.marks.clone(), st.owner.clone());
        }
        bytes[..counts].copy_from_slice(&st.counts);
        bytes[counts..counts + marks].copy_from_slice(&st.marks);
        bytes[counts + marks..counts + marks + owner].copy_from_slice(&st.owner);
        Saved::Inline { bytes, counts, marks, owner }
    }

    /// Puts the saved pieces, marks and owners back.
    pub(super) fn restore(self, st: &mut State) {
        match self {
            Saved::Heap(counts, marks, owner) => (st.counts, st.marks, st.owner) = (counts, marks, owner),
            Saved::Inline { bytes, counts, marks, owner } => {
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
            if st.ply > 0 && self.moves_known[st.phase as usize] && out.is_empty() && phase.pass.is_none() {
                return Some("the end rules let a turn begin without a move".into());
            }
        }
        None
    }
}
