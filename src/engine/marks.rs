//! Marks on pits: reading them (`here in tuzdyk(mover)`), the marks and gifts of a capture, the marks
//! that last one ply or N plies, the marks a move makes as it ends (`then mark`), and the pieces a marked pit
//! sends on (`divert`).

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
                    self.set_mark(st, *mark, p, cell);
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
            MarkStep::UnmarkSet { set, mark } => {
                // The set is read first: a set of marked pits shrinks as their marks come off.
                let mut pits: PitSet = 0;
                self.for_each_in_set(st, cx, set, |p| {
                    if (p as usize) < n {
                        pits |= pit_bit(p);
                    }
                    true
                });
                for p in pits_of(pits) {
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

    /// Pit `p` carries `mark` for the holder in `cell` (the player plus one, or 1); a mark `for N plies`
    /// lives from this ply on.
    #[inline]
    pub(super) fn set_mark(&self, st: &mut State, mark: MarkId, p: PlaceId, cell: u8) {
        let i = mark as usize * self.rules.n_pits + p as usize;
        if let Some(c) = st.marks.get_mut(i) {
            *c = cell;
        }
        if !self.timed_marks.is_empty() {
            self.start_life(st, mark, i);
        }
    }

    /// The cell of `st.mark_lives` for mark `mark` and pit `p`, when the mark is timed (`for N plies`), with
    /// its N.
    #[inline]
    fn life_cell(&self, mark: MarkId, p: PlaceId) -> Option<(usize, u32)> {
        let t = self.timed_marks.iter().position(|(m, _)| *m == mark)?;
        Some((t * self.rules.n_pits + p as usize, self.timed_marks[t].1))
    }

    /// A mark `for N plies` made on pit `p` during this ply has N plies to live, this one included.
    #[cold]
    fn start_life(&self, st: &mut State, mark: MarkId, i: usize) {
        let p = (i % self.rules.n_pits) as PlaceId;
        let Some((cell, plies)) = self.life_cell(mark, p) else { return };
        if let Some(life) = st.mark_lives.get_mut(cell) {
            *life = plies.min(u8::MAX as u32) as u8;
        }
    }

    /// The lives of the marks `for N plies` in a new state: those the setup makes have N - 1 plies left, as
    /// a position typed in without them says (§5: as if the move that led to it had made them), so that the
    /// start position is written as it is read.
    pub(super) fn start_mark_lives(&self, st: &mut State) {
        if self.timed_marks.is_empty() {
            return;
        }
        let n = self.rules.n_pits;
        st.mark_lives = vec![0; self.timed_marks.len() * n];
        for (t, &(m, plies)) in self.timed_marks.iter().enumerate() {
            for p in 0..n {
                if st.marks.get(m as usize * n + p).is_some_and(|&c| c != UNMARKED) {
                    st.mark_lives[t * n + p] = plies.saturating_sub(1).min(u8::MAX as u32) as u8;
                }
            }
        }
    }

    /// As a ply ends: each mark `for N plies` has one ply less to live, and is cleared with its last. The
    /// lives of pits no longer marked (unmarked, emptied) are cleared too, so that they tell no position
    /// from another.
    #[inline]
    pub(super) fn expire_marks(&self, st: &mut State) {
        if self.timed_marks.is_empty() {
            return;
        }
        self.age_marks(st);
    }

    #[cold]
    fn age_marks(&self, st: &mut State) {
        let n = self.rules.n_pits;
        for (t, &(m, _)) in self.timed_marks.iter().enumerate() {
            for p in 0..n {
                let (cell, life) = (m as usize * n + p, t * n + p);
                let (Some(c), Some(l)) = (st.marks.get(cell).copied(), st.mark_lives.get(life).copied()) else {
                    continue;
                };
                let left = if c == UNMARKED { 0 } else { l.saturating_sub(1) };
                st.mark_lives[life] = left;
                if left == 0 {
                    st.marks[cell] = UNMARKED;
                }
            }
        }
    }

    /// How many plies the mark `mark` of pit `p` has left, the ply about to be played counting as one (for
    /// the position format); `None` for a mark that lasts.
    pub fn mark_plies_left(&self, st: &State, mark: MarkId, p: PlaceId) -> Option<u32> {
        let (cell, _) = self.life_cell(mark, p)?;
        Some(st.mark_lives.get(cell).copied().unwrap_or(0) as u32)
    }

    /// Sets how many plies the mark `mark` of pit `p` has left (`for N plies`), for a position typed by hand.
    pub fn set_mark_plies_left(&self, st: &mut State, mark: MarkId, p: PlaceId, left: u32) {
        let Some((cell, _)) = self.life_cell(mark, p) else { return };
        if st.mark_lives.len() != self.timed_marks.len() * self.rules.n_pits {
            st.mark_lives = vec![0; self.timed_marks.len() * self.rules.n_pits];
        }
        if let Some(life) = st.mark_lives.get_mut(cell) {
            *life = left.min(u8::MAX as u32) as u8;
        }
    }

    /// The number of cells of `State::mark_lives`: one per pit for each mark `for N plies`.
    pub fn mark_life_cells(&self) -> usize {
        self.timed_marks.len() * self.rules.n_pits
    }

    /// `then mark` of a sowing, as its move ends: for each rule in turn, the pits of its set that pass its
    /// condition are worked out first (so marking one does not change what the next sees), then marked.
    /// `threats` is worked out once per rule (`probe::ThreatsMemo`).
    pub(super) fn then_marks(&self, st: &mut State, sow: &Sow) {
        let n = self.rules.n_pits;
        for (index, rule) in sow.then_marks.iter().enumerate() {
            let cx = Ctx::new(st.to_move).at(st.last);
            let picks = {
                let _memo = super::probe::ThreatsMemo::open();
                let mut picks: PitSet = 0;
                self.for_each_in_set(st, cx, &rule.set, |p| {
                    if (p as usize) < n && self.test(st, cx.at(p), &rule.filter) {
                        picks |= 1 << p;
                    }
                    true
                });
                picks
            };
            let cell = rule.player.as_ref().map_or(1, |w| self.player(st, cx, w).wrapping_add(1));
            if self.trace.is_some() && picks != 0 {
                self.note_then_mark(st, sow, index, picks, cell);
            }
            let mut bits = picks;
            while bits != 0 {
                let p = bits.trailing_zeros() as PlaceId;
                bits &= bits - 1;
                self.set_mark(st, rule.mark, p, cell);
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

    /// Clears the marks that last one ply, once the end rules after the ply have seen them. Out of line: few
    /// games have such marks, and the ends of plies of the others stay small.
    #[cold]
    #[inline(never)]
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
