//! The cycles of places a sowing visits (`Tracks`, per mover and origin; `LapTracks`, per direction of a
//! sowing's laps) and the laps sown along them by arithmetic: `sow_laps` for plain sowings, `sow_track` for
//! the laps of every other sowing of one kind of piece, with the records of drops a rule reads.

use crate::engine::{Engine, State};
use crate::ir::*;

/// The places a plain sowing visits, for every mover and origin of one phase: where the sowing from
/// `origin` drops its i-th piece is `cells[start + i % len]`, skips (of the rules and of the origin) already
/// left out. A track exists only where the walk from the origin is a pure cycle, which is what makes the
/// arithmetic exact; elsewhere the sowing goes piece by piece.
#[derive(Debug, Clone, Default)]
pub(crate) struct Tracks {
    /// Per `mover * places + origin`: the start and length of its cycle in `cells` (length 0: none).
    pub(super) spans: Vec<(u32, u16)>,
    pub(super) cells: Vec<PlaceId>,
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
    /// Drops every seed in hand along the mover's track in whole laps (each place gets `n / len`, the first
    /// `n % len` one more): what `drop_plain` does piece by piece, for a phase with tracks.
    #[inline(always)]
    pub(crate) fn sow_laps(&self, st: &mut State, tracks: &Tracks, skip_origin: bool) {
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
    pub(crate) fn sow_track(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
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
            crate::engine::state::record_passed(st, p);
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
