//! Puts: pieces placed from a source into chosen places.

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
}
