//! Offers: the pits that may be offered, when an offer may stand, and its effects once accepted.

use crate::ir::*;

use super::{Ctx, Engine, State};

impl Engine {
    /// The pits that may join the offer being made (the pits in `offered`), at or after `from`.
    pub(super) fn offer_candidates(&self, st: &State, offer: &Offer, from: PlaceId, mut f: impl FnMut(PlaceId)) {
        let mover = st.to_move;
        let size = st.offered.count_ones();
        if size >= offer.max || self.owned_pits(st, mover) < (size + 1).saturating_add(offer.keeping) {
            return;
        }
        self.for_each_in_set(st, Ctx::new(mover), &offer.from, |p| {
            if p >= from
                && (p as usize) < self.rules.n_pits
                && st.owner[p as usize] == mover
                && st.offered & (1 << p) == 0
            {
                f(p);
            }
            true
        });
    }

    /// Whether the offer being made may be made as it stands.
    pub(super) fn offer_can_stop(&self, st: &State, offer: &Offer) -> bool {
        let cx = Ctx::new(st.to_move);
        st.offered.count_ones() >= offer.min && offer.requires.iter().all(|c| self.test(st, cx, c))
    }

    pub(super) fn owned_pits(&self, st: &State, player: u8) -> u32 {
        st.owner.iter().filter(|&&o| o == player).count() as u32
    }

    pub(super) fn accept_offer(&self, st: &mut State) {
        let offerer = st.last_mover;
        let cx = Ctx::new(offerer);
        let offer = self.phase(st).actions.iter().find_map(|a| match &a.kind {
            ActionKind::Offer(o) => Some(o),
            _ => None,
        });
        if let Some(offer) = offer {
            for effect in &offer.on_accept {
                match effect {
                    Effect::GiveOffered(who) => {
                        let who = self.player(st, cx, who);
                        for p in 0..self.rules.n_pits {
                            if st.offered & (1 << p) != 0 {
                                st.owner[p] = who;
                            }
                        }
                    }
                    Effect::Take(take) => {
                        self.take_all(st, cx, take);
                    }
                }
            }
        }
        st.offered = 0;
    }
}
