//! Puts: pieces placed from a source into chosen places; takes (`take { ... }`): the pieces of a chosen pit
//! moved to a place.

use crate::ir::*;

use super::{Ctx, Engine, State};

impl Engine {
    /// Whether the source of a put holds at least `needed` pieces of its kinds.
    pub(super) fn put_source_ready(&self, st: &State, cx: Ctx, put: &Put, needed: u32) -> bool {
        match self.place(st, cx, &put.from) {
            Some(src) => self.count_masked(st, src, self.kind_mask(st, cx, &put.kinds)) >= needed,
            None => false,
        }
    }

    pub(super) fn put_once(&self, st: &mut State, action: u8, p: PlaceId) {
        let ActionKind::Put(put) = &self.phase(st).actions[action as usize].kind else {
            return;
        };
        let cx = Ctx::new(st.to_move).at(p);
        let mask = self.kind_mask(st, cx, &put.kinds);
        if let Some(src) = self.place(st, cx, &put.from) {
            self.move_pieces(st, src, p, mask, put.count);
        }
    }

    /// Whether the mover may choose pit `p` for a take: a pit that passes the condition and holds the pieces
    /// to take (`N` of them, or at least one), going to a place other than itself.
    pub(super) fn take_action_can_start(&self, st: &State, cx: Ctx, take: &TakeAction, p: PlaceId) -> bool {
        if p as usize >= self.rules.n_pits {
            return false;
        }
        let cx = cx.at(p);
        let needed = take.count.unwrap_or(1);
        self.count_masked(st, p, self.kind_mask(st, cx, &take.kinds)) >= needed
            && self.place(st, cx, &take.to).is_some_and(|to| to != p)
            && self.test(st, cx, &take.filter)
    }

    /// A take: the pieces of pit `p` to the take's place, worked out with `here` the pit.
    pub(super) fn take_action(&self, st: &mut State, take: &TakeAction, p: PlaceId) {
        let cx = Ctx::new(st.to_move).at(p);
        let mask = self.kind_mask(st, cx, &take.kinds);
        if let Some(to) = self.place(st, cx, &take.to) {
            self.move_pieces(st, p, to, mask, take.count.unwrap_or(u32::MAX));
        }
    }
}
