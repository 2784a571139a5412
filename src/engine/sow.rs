//! Sowing: lifting, dropping piece by piece or in one go (`plain_ply`, the fast path of plain games),
//! choosing the kind to drop, relay laps and their cycle check, and the `require` of a finished sowing.

use crate::ir::*;

use super::{hash_parts, Ctx, Engine, Stage, State, MAX_RELAY_LAPS};

impl Engine {
    /// The sowing rules of an action; the stages that call this only exist for sowing actions.
    pub(super) fn sow_rule(&self, st: &State, action: u8) -> &Sow {
        match self.phase(st).actions.get(action as usize).map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => s,
            _ => unreachable!("a sowing stage always belongs to a sowing action"),
        }
    }

    /// The kinds the mover may drop next, as bits (with one bit set, the drop is forced).
    pub fn drop_mask(&self, st: &State, sow: &Sow) -> KindMask {
        let mut mask = 0u64;
        let mut total = 0u32;
        for k in 0..self.k {
            if st.hand[k] > 0 {
                mask |= 1 << k;
                total += st.hand[k] as u32;
            }
        }
        if sow.last_own {
            let own = self.colour_mask(st.to_move);
            if total == 1 {
                mask &= own;
            } else {
                // Keep one piece of his own colour for last.
                for k in 0..self.k {
                    if own & (1 << k) != 0 && st.hand[k] == 1 && (own & mask).count_ones() == 1 {
                        mask &= !(1 << k);
                    }
                }
            }
        }
        mask
    }

    /// A ply of a `plain_sow` phase: the sowing of `begin` .. `after_sow` without the checks for what such a
    /// sowing cannot have; captures and what follows take the general road.
    pub(super) fn plain_ply(&self, st: &mut State, dir: Dir, place: PlaceId, probe: bool) {
        let sow = self.sow_rule(st, 0);
        st.origin = place;
        st.dir = dir;
        st.cursor = place;
        st.diverted = false;
        self.lift(st, place);
        self.sow_laps(st, &self.tracks[st.phase as usize], sow.skip_origin);
        st.last = st.cursor;
        st.stage = Stage::Start;
        self.capture_after_sow(st, 0, sow, probe);
    }

    pub(super) fn start_sow(&self, st: &mut State, action: u8, dir: Dir, probe: bool) {
        st.dir = dir;
        st.cursor = st.origin;
        st.diverted = false;
        if self.rules.needs.drops {
            st.dropped.fill(NO_KIND);
        }
        self.lift(st, st.origin);
        let sow = self.sow_rule(st, action);
        self.start_lap(st, sow);
        self.continue_sow(st, action, probe);
    }

    /// The start of a lap, once its pieces are lifted from `cursor`: `lifted`, and whether the first piece
    /// goes back into that pit (`start at origin`).
    #[inline]
    pub(super) fn start_lap(&self, st: &mut State, sow: &Sow) {
        if let Some(cond) = &sow.start_origin {
            st.lifted = st.hand.iter().fold(0u8, |n, &h| n.saturating_add(h));
            st.at_origin = self.test(st, Ctx::new(st.to_move).at(st.cursor), cond);
        }
    }

    #[inline]
    pub(super) fn lift(&self, st: &mut State, p: PlaceId) {
        if self.k == 1 {
            st.hand[0] = st.hand[0].saturating_add(std::mem::take(&mut st.counts[p as usize]));
            return;
        }
        let base = p as usize * self.k;
        for k in 0..self.k {
            st.hand[k] = st.hand[k].saturating_add(st.counts[base + k]);
            st.counts[base + k] = 0;
        }
    }

    /// Drops the pieces in hand, pausing where the mover chooses a kind, relaying where the rules say.
    pub(super) fn continue_sow(&self, st: &mut State, action: u8, probe: bool) {
        let sow = self.sow_rule(st, action);
        if !self.drop_hand(st, action, sow) {
            return;
        }
        st.last = st.cursor;
        if sow.relay.is_some() && !st.diverted && !self.relay(st, action, sow) {
            return;
        }
        self.after_sow(st, action, probe);
    }

    /// Relays from the last pit while the relay condition holds there; returns false when the sowing paused
    /// for a choice or turned out illegal (a relay that would never end).
    ///
    /// A relay is a walk through positions, each decided by the one before; one that comes back to a
    /// position would go round for ever. Brent's cycle finding notices the return without remembering every
    /// position: it keeps the key of the position at the last power of two laps and compares each new one with
    /// it, so a loop is found within a few times its length, in constant memory.
    #[cold]
    pub(super) fn relay(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
        let Some(relay) = &sow.relay else { return true };
        let (mut mark, mut power, mut since) = (None, 1u32, 0u32);
        for _ in 0..MAX_RELAY_LAPS {
            let last = st.last;
            if (last as usize) >= self.rules.n_pits || !self.test(st, Ctx::new(st.to_move).at(last), relay) {
                return true;
            }
            let key = relay_key(st);
            if mark == Some(key) {
                break;
            }
            since += 1;
            if since == power {
                (mark, power, since) = (Some(key), power.saturating_mul(2), 0);
            }
            // The relay lap starts here: it is this lap's origin (`origin`, and what `skip origin` skips).
            st.origin = last;
            self.lift(st, last);
            self.start_lap(st, sow);
            if !self.drop_hand(st, action, sow) {
                return false;
            }
            st.last = st.cursor;
            if st.diverted {
                return true;
            }
        }
        // Endless, or longer than any relay we follow: not a line of play.
        st.illegal = true;
        st.stage = Stage::Start;
        st.ply += 1;
        false
    }

    /// Drops the pieces in hand; returns false when it paused for the mover to choose the next kind.
    #[inline]
    pub(super) fn drop_hand(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
        let plain = sow.start_origin.is_none() && sow.divert.is_empty();
        if self.k == 1 && !self.rules.needs.drops && plain {
            self.drop_plain(st, sow.skip_origin);
        } else if self.k == 1 {
            while st.hand[0] > 0 {
                self.drop_one(st, 0, sow);
            }
        } else {
            loop {
                let kind = if sow.order_chosen {
                    let mask = self.drop_mask(st, sow);
                    match mask.count_ones() {
                        0 => break,
                        1 => mask.trailing_zeros() as u8,
                        _ => {
                            st.stage = Stage::Drop { action };
                            return false;
                        }
                    }
                } else {
                    match st.hand.iter().position(|&n| n > 0) {
                        Some(k) => k as u8,
                        None => break,
                    }
                };
                self.drop_one(st, kind, sow);
            }
        }
        true
    }

    /// Drops every seed in hand, one per place: the inner loop of plain games.
    #[inline]
    pub(super) fn drop_plain(&self, st: &mut State, skip_origin: bool) {
        let places = self.rules.places.len();
        let row = (st.to_move as usize * 2 + st.dir as usize) * places;
        let next = &self.rules.next[row..row + places];
        let (origin, mut pos) = (st.origin, st.cursor);
        for _ in 0..st.hand[0] {
            pos = next[pos as usize];
            if skip_origin && pos == origin {
                pos = next[pos as usize];
            }
            st.counts[pos as usize] = st.counts[pos as usize].wrapping_add(1);
        }
        st.hand[0] = 0;
        st.cursor = pos;
    }

    /// Drops one piece of `kind` into the next place (or back into the lap's origin, `start at origin`),
    /// from where a marked pit may send it on (`divert`).
    #[inline]
    pub(super) fn drop_one(&self, st: &mut State, kind: u8, sow: &Sow) {
        let row = (st.to_move as usize * 2 + st.dir as usize) * self.rules.places.len();
        let pos = if std::mem::take(&mut st.at_origin) {
            st.cursor
        } else {
            let pos = self.rules.next[row + st.cursor as usize];
            if pos == st.origin && sow.skip_origin {
                self.rules.next[row + pos as usize]
            } else {
                pos
            }
        };
        if self.rules.needs.drops {
            st.before[pos as usize] = self.count(st, pos);
            st.dropped[pos as usize] = kind;
        }
        let to = if sow.divert.is_empty() { None } else { self.diverted_to(st, sow, pos) };
        st.diverted = to.is_some();
        let i = to.unwrap_or(pos) as usize * self.k + kind as usize;
        st.counts[i] = st.counts[i].saturating_add(1);
        st.hand[kind as usize] -= 1;
        st.cursor = pos;
    }

    pub(super) fn after_sow(&self, st: &mut State, action: u8, probe: bool) {
        st.stage = Stage::Start;
        let sow = self.sow_rule(st, action);
        let cx = Ctx::new(st.to_move).at(st.last);
        if let Some(req) = &sow.require {
            if !self.test(st, cx, req) {
                st.illegal = true;
            }
        }
        self.capture_after_sow(st, action, sow, probe);
    }
}

/// The key of a position within a relay: everything its next lap depends on (the pieces, the pit to lift
/// from, which is also that lap's origin, and the records of this move's drops, which a relay condition may
/// read).
fn relay_key(st: &State) -> u64 {
    hash_parts(&[&st.counts, &st.before, &st.dropped], st.last as u64)
}
