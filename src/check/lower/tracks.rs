//! The tracks pieces are sown along: each player's next place in each direction, skipping what the
//! phases skip, and the pit opposite each pit.

use crate::ast;
use crate::ir::*;

use super::Lowerer;

impl<'g> Lowerer<'g> {
    #[allow(clippy::type_complexity)]
    pub(super) fn topology(
        &self,
        phases: &[PhaseRules],
    ) -> (Vec<PlaceId>, Vec<PlaceId>, Vec<PlaceId>, Vec<PlaceId>, Vec<u8>) {
        let n = self.n_pits;
        let places = self.places.len();
        let (track, opposite): (Vec<PlaceId>, Vec<PlaceId>) = match self.shape {
            Shape::TwoRows { pits, stores } => {
                let m = pits as usize;
                let mut track: Vec<PlaceId> = (0..m as PlaceId).collect();
                let store = self.place_names.get("store").map(|s| s.id);
                if let (true, Some(s)) = (stores, store) {
                    track.push(s);
                }
                track.extend(m as PlaceId..2 * m as PlaceId);
                if let (true, Some(s)) = (stores, store) {
                    track.push(s + 1);
                }
                let opposite = (0..places).map(|p| if p < n { (n - 1 - p) as PlaceId } else { p as PlaceId }).collect();
                (track, opposite)
            }
            Shape::Ring { pits } => {
                // Pits are numbered clockwise; the track lists places counter-clockwise.
                let m = pits as PlaceId;
                let track = std::iter::once(0).chain((1..m).rev()).collect();
                (track, (0..places as PlaceId).collect())
            }
        };
        let skips: Vec<Vec<PlaceId>> = (0..self.players).map(|mover| self.skipped_places(phases, mover)).collect();
        let mut next = vec![0 as PlaceId; self.players as usize * 2 * places];
        for (mover, skipped) in skips.iter().enumerate() {
            let kept: Vec<PlaceId> = track.iter().copied().filter(|p| !skipped.contains(p)).collect();
            for dir in 0..2 {
                let row = (mover * 2 + dir) * places;
                for p in 0..places {
                    next[row + p] = p as PlaceId;
                }
                for (i, &p) in track.iter().enumerate() {
                    next[row + p as usize] = step_along(&track, &kept, i, dir == 0);
                }
            }
        }
        let pits_only: Vec<PlaceId> = track.iter().copied().filter(|&p| (p as usize) < n).collect();
        let mut pit_next = vec![0 as PlaceId; 2 * n];
        for (i, &p) in pits_only.iter().enumerate() {
            let len = pits_only.len();
            pit_next[p as usize] = pits_only[(i + 1) % len];
            pit_next[n + p as usize] = pits_only[(i + len - 1) % len];
        }
        let owner = self.places[..n].iter().map(|p| p.owner).collect();
        (track, next, pit_next, opposite, owner)
    }

    /// Places a mover's sowing passes over (`skip store(opponent)`), resolved for that mover.
    pub(super) fn skipped_places(&self, phases: &[PhaseRules], mover: u8) -> Vec<PlaceId> {
        let mut out = Vec::new();
        for phase in &self.game.phases {
            for item in &phase.node.items {
                let ast::PhaseItem::Sow(s) = item else {
                    continue;
                };
                for si in &s.node.items {
                    let ast::SowItem::Skip(sk) = si else { continue };
                    let ast::SkipTarget::Place(p) = &sk.node else {
                        continue;
                    };
                    if let ast::PlaceKind::Named { name, player } = &p.node {
                        let Some(pn) = self.place_names.get(&name.node) else {
                            continue;
                        };
                        let who = match player.as_ref().map(|w| &w.node) {
                            Some(ast::PlayerKind::Mover) => Some(mover),
                            Some(ast::PlayerKind::Opponent) => Some((mover + 1) % self.players.max(1)),
                            _ => None,
                        };
                        match (pn.per_player, who) {
                            (true, Some(w)) => out.push(pn.id + w as PlaceId),
                            (false, _) => out.push(pn.id),
                            _ => {}
                        }
                    } else if let ast::PlaceKind::Named { .. } = &p.node {
                    }
                }
            }
        }
        let _ = phases;
        out
    }
}

/// The next kept place after `track[i]`, going forward (counter-clockwise) or backward along the track.
fn step_along(track: &[PlaceId], kept: &[PlaceId], i: usize, forward: bool) -> PlaceId {
    let len = track.len();
    for step in 1..=len {
        let j = if forward { (i + step) % len } else { (i + len * step - step) % len };
        let p = track[j];
        if kept.contains(&p) {
            return p;
        }
    }
    track[i]
}
