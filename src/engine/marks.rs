//! Marks on pits: reading them (`here in tuzdyk(mover)`), the marks and gifts of a capture, the marks
//! that last one ply, and the pieces a marked pit sends on (`divert`).

use crate::ir::*;

use super::{Ctx, Engine, State};

impl Engine {
    /// What the cell of `mark` and pit `p` holds: `UNMARKED`, or the player it is carried for plus one.
    #[inline]
    pub(crate) fn mark_cell(&self, st: &State, mark: MarkId, p: PlaceId) -> u8 {
        st.marks.get(mark as usize * self.rules.n_pits + p as usize).copied().unwrap_or(UNMARKED)
    }

    /// Whether pit `p` carries `mark`, for player `who` (for anyone when `None`).
    #[inline]
    pub(crate) fn carries(&self, st: &State, cx: Ctx, mark: MarkId, who: &Option<PlayerExpr>, p: PlaceId) -> bool {
        if (p as usize) >= self.rules.n_pits {
            return false;
        }
        let cell = self.mark_cell(st, mark, p);
        match who {
            None => cell != UNMARKED,
            Some(w) => cell != UNMARKED && cell == self.player(st, cx, w).wrapping_add(1),
        }
    }

    /// A mark or gift of a capture, at the capture's pit `cx.here`.
    pub(super) fn apply_step(&self, st: &mut State, cx: Ctx, step: &MarkStep) {
        let n = self.rules.n_pits;
        let pit = |place: &PlaceExpr, st: &State| self.place(st, cx, place).filter(|&p| (p as usize) < n);
        match step {
            MarkStep::Mark { place, mark, player } => {
                if let Some(p) = pit(place, st) {
                    let cell = player.as_ref().map_or(1, |w| self.player(st, cx, w).wrapping_add(1));
                    st.marks[*mark as usize * n + p as usize] = cell;
                }
            }
            MarkStep::Unmark { place, mark } => {
                if let Some(p) = pit(place, st) {
                    match mark {
                        Some(m) => st.marks[*m as usize * n + p as usize] = UNMARKED,
                        None => (0..self.rules.marks.len()).for_each(|m| st.marks[m * n + p as usize] = UNMARKED),
                    }
                }
            }
            MarkStep::Give { place, to } => {
                if let Some(p) = pit(place, st) {
                    st.owner[p as usize] = self.player(st, cx, to);
                }
            }
        }
    }

    /// The steps of a capture made just before its take number `before`.
    pub(super) fn apply_steps(&self, st: &mut State, cx: Ctx, rule: &CaptureRule, before: u8) {
        for step in rule.steps.iter().filter(|s| s.before == before) {
            self.apply_step(st, cx, &step.action);
        }
    }

    /// A pit just left empty loses its marks `until empty`. Only games with such marks call this.
    #[cold]
    pub(super) fn emptied(&self, st: &mut State, p: PlaceId) {
        let n = self.rules.n_pits;
        if (p as usize) >= n || self.count(st, p) > 0 {
            return;
        }
        for &m in &self.empty_marks {
            if let Some(cell) = st.marks.get_mut(m as usize * n + p as usize) {
                *cell = UNMARKED;
            }
        }
    }

    /// Clears the marks that last one ply, as a new ply starts.
    pub(super) fn clear_ply_marks(&self, st: &mut State) {
        let from = self.rules.lasting_marks() * self.rules.n_pits;
        if let Some(cells) = st.marks.get_mut(from..) {
            cells.fill(UNMARKED);
        }
    }

    /// Where a piece dropped into `pos` goes on to under the sowing's `divert` rules, if anywhere.
    #[inline]
    pub(super) fn diverted_to(&self, st: &State, sow: &Sow, pos: PlaceId) -> Option<PlaceId> {
        if (pos as usize) >= self.rules.n_pits {
            return None;
        }
        let (mark, to) = sow.divert.iter().find(|(m, _)| self.mark_cell(st, *m, pos) != UNMARKED)?;
        let _ = mark;
        self.place(st, Ctx::new(st.to_move).at(pos), to).filter(|&to| to != pos)
    }
}
