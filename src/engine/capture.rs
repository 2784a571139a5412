//! What follows a sowing: captures and their chains, the takes (chosen piece by piece or all at once),
//! another turn, and the `then` selection.

use crate::ir::*;

use super::{CaptureCursor, Ctx, Engine, Move, Next, Places, Stage, State};

impl Engine {
    /// The first capture rule whose condition holds at the end of the sowing, then what follows captures.
    /// A last piece sent on by a marked pit (`divert`) triggers nothing.
    #[inline(always)]
    pub(super) fn capture_after_sow(&self, st: &mut State, action: u8, sow: &Sow, probe: bool) {
        if st.diverted {
            return self.after_capture(st, action, sow, probe);
        }
        self.capture_from(st, action, sow, 0, probe);
    }

    /// The first capture rule from number `first` on whose condition holds; an optional one (`capture
    /// may`) waits for the mover's choice, and when declined the rules after it are tried.
    #[inline(always)]
    pub(super) fn capture_from(&self, st: &mut State, action: u8, sow: &Sow, first: usize, probe: bool) {
        let cx = Ctx::new(st.to_move).at(st.last);
        for (r, rule) in sow.captures.iter().enumerate().skip(first) {
            if self.test(st, cx, &rule.when) {
                if rule.may {
                    st.stage = Stage::Capture { action, rule: r as u8 };
                    return;
                }
                return self.run_capture(st, action, CaptureCursor::at(r as u8, st.last), probe);
            }
        }
        self.after_capture(st, action, sow, probe);
    }

    /// Applies the takes of a capture at each pit of its chain, pausing where the mover chooses a piece;
    /// then what follows the capture.
    pub(super) fn run_capture(&self, st: &mut State, action: u8, cur: CaptureCursor, probe: bool) {
        let rule = cur.rule;
        if self.capture_steps(st, action, cur) {
            self.after_capture_rule(st, action, rule, probe);
        }
    }

    /// What follows a capture that is done: in a sowing of laps, a capture that sows its pieces starts a new
    /// lap, and one that says `continue at` ends the lap again there; otherwise the sowing is over.
    pub(super) fn after_capture_rule(&self, st: &mut State, action: u8, rule: u8, probe: bool) {
        let sow = self.sow_rule(st, action);
        if sow.laps {
            let end = self.after_lap_capture(st, action, sow, rule, probe);
            return self.laps_after(st, action, end, probe);
        }
        self.after_capture(st, action, sow, probe);
    }

    /// The takes of a capture at each pit of its chain. Returns false when it paused for the mover to choose
    /// a piece, or found this line of play illegal.
    pub(super) fn capture_steps(&self, st: &mut State, action: u8, mut cur: CaptureCursor) -> bool {
        let sow = self.sow_rule(st, action);
        let rule = &sow.captures[cur.rule as usize];
        let snapshot = rule.cancel.as_ref().map(|_| super::fast::Saved::take(st));
        let mover = st.to_move;
        let traced = RuleRef::Capture { phase: st.phase, action, index: cur.rule };
        if self.trace.is_some() && cur.take == 0 && cur.left == 0 && cur.walk == 0 {
            self.note(st, super::Event::Capture { rule: traced, at: cur.here });
        }
        // The ply's first capture (nothing taken yet, and this capture not begun): its pits are recorded.
        if self.record_first && !st.captured && cur.take == 0 && cur.left == 0 && cur.walk == 0 {
            st.recording = true;
        }
        loop {
            while (cur.take as usize) < rule.takes.len() {
                let take = &rule.takes[cur.take as usize];
                let cx = Ctx::new(mover).at(cur.here);
                // A take not begun yet: the marks and gifts written before it come first.
                if cur.left == 0 && !rule.steps.is_empty() {
                    self.apply_steps(st, cx, rule, cur.take);
                }
                if !take.chosen {
                    if self.take_all(st, cx, take) > 0 {
                        st.captured = true;
                    }
                    cur.take += 1;
                    continue;
                }
                if cur.left == 0 {
                    cur.left = take.count.unwrap_or(1).min(255) as u8;
                }
                let mut options = Vec::new();
                let available = self.take_options(st, cx, take, cur.min_choice, &mut options);
                if available > 0 && options.is_empty() {
                    // Earlier choices in another order would have left a piece to take: not a line of play.
                    st.illegal = true;
                    st.stage = Stage::Start;
                    return false;
                }
                // Only a piece that is the only one there is taken without asking; choices narrowed by the
                // order of choosing are still asked for, so that every chosen piece shows in the notation.
                match (options.as_slice(), available) {
                    ([], _) => {
                        cur.left = 0;
                        cur.take += 1;
                    }
                    ([Move::Take { place, kind }], 1) => {
                        let code = self.take_code(st, cx, take, *place, *kind);
                        if let Some(to) = self.take_target(st, cx, take) {
                            self.move_pieces(st, *place, to, 1 << kind, 1);
                            st.captured = true;
                        }
                        cur.min_choice = code;
                        cur.left -= 1;
                        if cur.left == 0 {
                            cur.take += 1;
                        }
                    }
                    _ => {
                        st.captured = true;
                        st.stage = Stage::Take { action, cursor: cur };
                        return false;
                    }
                }
            }
            if !rule.steps.is_empty() {
                self.apply_steps(st, Ctx::new(mover).at(cur.here), rule, cur.take);
            }
            match self.next_chain_pit(st, rule, &mut cur) {
                Some(p) => {
                    cur.here = p;
                    cur.take = 0;
                    cur.left = 0;
                }
                None => break,
            }
        }
        if let (Some(cancel), Some(snapshot)) = (&rule.cancel, &snapshot) {
            if self.test(st, Ctx::new(mover).at(st.last), cancel) {
                if self.trace.is_some() {
                    self.note(st, super::Event::Cancel { rule: traced });
                }
                snapshot.restore(st);
                st.captured = false;
                if st.recording {
                    st.taken_first = 0;
                }
            }
        }
        st.recording = false;
        st.stage = Stage::Start;
        // A trial of `threats` has what it looks for once the first capture is made.
        if st.trial && st.captured {
            return false;
        }
        true
    }

    /// The next pit of the chain, walking backward then forward from the last pit.
    pub(super) fn next_chain_pit(&self, st: &State, rule: &CaptureRule, cur: &mut CaptureCursor) -> Option<PlaceId> {
        let chain = rule.chain.as_ref()?;
        self.next_chain_pit_where(st, chain, cur, |p| self.test(st, Ctx::new(st.to_move).at(p), &chain.cond))
    }

    /// `next_chain_pit`, with `holds` telling whether the chain's condition holds at a pit (`fast_capture`
    /// reads it off tables).
    #[inline(always)]
    pub(super) fn next_chain_pit_where(
        &self,
        st: &State,
        chain: &ChainRule,
        cur: &mut CaptureCursor,
        holds: impl Fn(PlaceId) -> bool,
    ) -> Option<PlaceId> {
        let n = self.rules.n_pits;
        if (st.last as usize) >= n {
            return None;
        }
        if cur.walk == 0 {
            cur.walk = if chain.backward { 1 } else { 2 };
            cur.here = st.last;
            cur.steps = 0;
        }
        loop {
            if cur.walk == 2 && !chain.forward {
                return None;
            }
            let dir = if cur.walk == 1 { st.dir.reverse() } else { st.dir };
            let p = self.rules.pit_next[dir as usize * n + cur.here as usize];
            cur.steps = cur.steps.saturating_add(1);
            if p != st.last && (cur.steps as usize) < n && holds(p) {
                return Some(p);
            }
            if cur.walk == 1 && chain.forward {
                cur.walk = 2;
                cur.here = st.last;
                cur.steps = 0;
                continue;
            }
            return None;
        }
    }

    /// After the captures: another turn or not, then the `then` selection if the sowing has one.
    #[inline(always)]
    pub(super) fn after_capture(&self, st: &mut State, action: u8, sow: &Sow, probe: bool) {
        // A trial of `threats` stops as the sowing ends: what follows it cannot capture.
        if st.trial {
            st.stage = Stage::Start;
            return;
        }
        if self.trace.is_some() && !st.diverted {
            self.note_not_held(st, action, sow);
        }
        let cx = Ctx::new(st.to_move).at(st.last);
        st.again = !st.diverted && sow.again.as_ref().is_some_and(|c| self.test(st, cx, c));
        if st.again && self.trace.is_some() {
            self.note(st, super::Event::Again { rule: RuleRef::Again { phase: st.phase, action } });
        }
        match &sow.then {
            Some(then) => self.then_after_sow(st, action, then, probe),
            None => self.end_sow_turn(st, sow, probe),
        }
    }

    /// A sowing's `then`: taken at once when it must be, else chosen pit by pit.
    pub(super) fn then_after_sow(&self, st: &mut State, action: u8, then: &ThenRule, probe: bool) {
        let cx = Ctx::new(st.to_move).at(st.last);
        if !then.must {
            st.stage = Stage::Then { action, from: 0 };
            // Looking ahead, the selection is as good as made (see `probe_rest`).
            if !probe || st.obliged {
                self.settle_selection(st, probe);
            }
            return;
        }
        let mut picks = Vec::new();
        let mask = self.kind_mask(st, cx, &then.kinds);
        self.for_each_in_set(st, cx, &then.set, |p| {
            if self.count_masked(st, p, mask) > 0 && self.test(st, cx.at(p), &then.filter) {
                picks.push(p);
            }
            true
        });
        for p in picks {
            self.then_take(st, then, p);
        }
        self.end_sow_turn(st, self.sow_rule(st, action), probe);
    }

    /// The end of a sowing's move: its `then mark` rules, then the end of the ply.
    pub(super) fn end_sow_turn(&self, st: &mut State, sow: &Sow, probe: bool) {
        if !sow.then_marks.is_empty() {
            self.then_marks(st, sow);
        }
        let next = if st.again { Next::Keep } else { Next::Switch };
        self.end_ply(st, next, probe);
    }

    pub(super) fn then_take(&self, st: &mut State, then: &ThenRule, p: PlaceId) {
        if self.trace.is_some() {
            self.note_then_take(st, then, p);
        }
        let cx = Ctx::new(st.to_move).at(p);
        let mask = self.kind_mask(st, cx, &then.kinds);
        if let Some(to) = self.place(st, cx, &then.to) {
            self.move_pieces(st, p, to, mask, u32::MAX);
        }
    }

    /// The pieces a chosen take may take next: those of the first group of places that holds any, at or after
    /// `min_choice` in the order of `choice_code` — the pieces of one capture form a set, so they are chosen
    /// in that order only. Returns how many pieces of that group there are before filtering: when some are
    /// there but none is left after `min_choice`, the earlier choices were made in the wrong order.
    pub(super) fn take_options(
        &self,
        st: &State,
        cx: Ctx,
        take: &TakeRule,
        min_choice: u32,
        out: &mut Vec<Move>,
    ) -> usize {
        let mask = self.kind_mask(st, cx, &take.kinds);
        // A place is no source of its own pieces (§9.2).
        let target = self.take_target(st, cx, take);
        for (g, group) in self.source_groups(take).iter().enumerate() {
            let mut found = 0;
            for set in group {
                self.for_each_in_set(st, cx, set, |p| {
                    if Some(p) == target || !self.take_passes(st, cx, take, p) {
                        return true;
                    }
                    for k in 0..self.k as u8 {
                        if mask & (1 << k) != 0 && st.counts[p as usize * self.k + k as usize] > 0 {
                            found += 1;
                            if choice_code(g, p, k) >= min_choice {
                                out.push(Move::Take { place: p, kind: k });
                            }
                        }
                    }
                    true
                });
            }
            if found > 0 {
                return found;
            }
        }
        0
    }

    /// The `choice_code` of taking `kind` from `place` in a take.
    pub(super) fn take_code(&self, st: &State, cx: Ctx, take: &TakeRule, place: PlaceId, kind: u8) -> u32 {
        let group = self.source_groups(take).iter().position(|g| g.iter().any(|s| self.set_contains(st, cx, s, place)));
        choice_code(group.unwrap_or(0), place, kind)
    }

    /// Whether place `p` of a take's sources passes its `where` (`here` being `p`); every place does without one.
    #[inline]
    fn take_passes(&self, st: &State, cx: Ctx, take: &TakeRule, p: PlaceId) -> bool {
        take.filter.as_ref().is_none_or(|c| self.cond(st, cx.at(p), c))
    }

    /// The alternative groups of places a take draws from; `check` fills in `here` when the file names none.
    pub(super) fn source_groups<'r>(&self, take: &'r TakeRule) -> &'r [Vec<Set>] {
        &take.from
    }

    pub(super) fn take_target(&self, st: &State, cx: Ctx, take: &TakeRule) -> Option<PlaceId> {
        match &take.to {
            TakeTo::Place(p) => self.place(st, cx, p),
            TakeTo::Each(_) | TakeTo::Hand => None,
        }
    }

    /// Moves the pieces of a (non-chosen) take; returns how many moved.
    pub(super) fn take_all(&self, st: &mut State, cx: Ctx, take: &TakeRule) -> u32 {
        let mask = self.kind_mask(st, cx, &take.kinds);
        let limit = take.count.unwrap_or(u32::MAX);
        let mut targets = Places::default();
        match &take.to {
            TakeTo::Place(p) => targets.extend(self.place(st, cx, p)),
            TakeTo::Each(set) => self.for_each_in_set(st, cx, set, |p| targets.push(p)),
            TakeTo::Hand => return self.take_to_hand(st, cx, take, mask, limit),
        }
        let mut moved = 0;
        for &to in targets.as_slice() {
            let mut sources = Places::default();
            if !self.first_source_group(st, cx, take, mask, Some(to), &mut sources) {
                continue;
            }
            let mut left = limit;
            for &p in sources.as_slice() {
                if left == 0 {
                    break;
                }
                let n = self.move_pieces(st, p, to, mask, left);
                left -= n;
                moved += n;
            }
        }
        moved
    }

    /// Collects into `sources` the places of a take's first group of sources (`from A else B`) that holds any
    /// matching piece; false when none does. The place the pieces go to is no source of its own (§9.2): it is
    /// left out. An out-parameter: the hot path of captures copies no list.
    #[inline]
    fn first_source_group(
        &self,
        st: &State,
        cx: Ctx,
        take: &TakeRule,
        mask: KindMask,
        target: Option<PlaceId>,
        sources: &mut Places,
    ) -> bool {
        for group in self.source_groups(take) {
            sources.len = 0;
            for set in group {
                self.for_each_in_set(st, cx, set, |p| {
                    Some(p) == target || !self.take_passes(st, cx, take, p) || sources.push(p)
                });
            }
            if sources.as_slice().iter().any(|&p| self.count_masked(st, p, mask) > 0) {
                return true;
            }
        }
        false
    }

    /// A take to the mover's hand (for a capture's `sow from`): from the first group of places holding any
    /// matching piece, up to `limit` pieces.
    fn take_to_hand(&self, st: &mut State, cx: Ctx, take: &TakeRule, mask: KindMask, limit: u32) -> u32 {
        let mut sources = Places::default();
        if !self.first_source_group(st, cx, take, mask, None, &mut sources) {
            return 0;
        }
        let mut left = limit;
        for &p in sources.as_slice() {
            for k in 0..self.k {
                let i = p as usize * self.k + k;
                if mask & (1 << k) == 0 || left == 0 {
                    continue;
                }
                let n = (st.counts[i] as u32).min(left);
                st.counts[i] -= n as u8;
                st.hand[k] = st.hand[k].saturating_add(n as u8);
                left -= n;
                if n > 0 && st.recording {
                    record_taken(st, p, self.rules.n_pits);
                }
            }
            if !self.empty_marks.is_empty() {
                self.emptied(st, p);
            }
        }
        limit - left
    }

    /// Moves up to `limit` pieces of the kinds in `mask` from one place to another, kinds in order.
    pub(super) fn move_pieces(&self, st: &mut State, from: PlaceId, to: PlaceId, mask: KindMask, limit: u32) -> u32 {
        if from == to {
            return 0;
        }
        let mut left = limit;
        for k in 0..self.k {
            if mask & (1 << k) == 0 || left == 0 {
                continue;
            }
            let (fi, ti) = (from as usize * self.k + k, to as usize * self.k + k);
            let n = (st.counts[fi] as u32).min(left);
            st.counts[fi] -= n as u8;
            st.counts[ti] = st.counts[ti].saturating_add(n as u8);
            left -= n;
            if n > 0 && st.recording {
                record_taken(st, from, self.rules.n_pits);
            }
        }
        if !self.empty_marks.is_empty() {
            self.emptied(st, from);
        }
        limit - left
    }
}

/// Records that the first capture of the ply took pieces from place `p`, if it is a pit.
#[cold]
fn record_taken(st: &mut State, p: PlaceId, n_pits: usize) {
    if (p as usize) < n_pits {
        st.taken_first |= pit_bit(p);
    }
}

/// The order in which the pieces of one capture are chosen: by group of places, place, kind.
fn choice_code(group: usize, place: PlaceId, kind: u8) -> u32 {
    ((group as u32) << 24) | ((place as u32) << 6) | kind as u32
}
