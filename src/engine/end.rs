//! The end of a ply and the start of the next turn: passing the turn, phases, quiet rounds, obligations,
//! end rules, eliminations, repetitions, and the outcome with its scores.

use crate::ir::*;

use super::{hash_parts, Ctx, EndReason, Engine, Next, Outcome, Places, RoundResult, Stage, State};

/// What an obligation makes of a turn that begins.
pub(super) enum Bound {
    /// No obligation binds the mover (none applies, or none can be met and the game goes on).
    Free,
    /// The mover is bound, and some start meets the obligation.
    Met,
    /// No start meets an obligation that ends the game then.
    Ends,
}

impl Engine {
    /// Whether an end rule tested at every lap (`when ... at every lap`) holds now: their conditions are
    /// listed per phase when the engine is made, so a lap does not look through the other rules.
    #[inline]
    pub(super) fn lap_end_holds(&self, st: &State) -> bool {
        let cx = Ctx::new(st.to_move);
        self.phase_plan(st).lap_end_conds.iter().any(|c| self.test(st, cx, c))
    }

    pub(super) fn end_ply(&self, st: &mut State, next: Next, probe: bool) {
        if self.hand_over(st, next, probe) {
            self.begin_turn(st);
        }
    }

    /// A ply made under an obligation (`must AFTER`) that does not meet it is no legal ply: tested as the
    /// ply ends, whether at its last lap or at a lap where an end rule stops the move.
    #[inline]
    pub(super) fn check_obligation_met(&self, st: &mut State) {
        if st.obliged {
            if let Some(must) = &self.phase(st).must {
                if !self.test(st, Ctx::new(st.to_move), &must.after) {
                    st.illegal = true;
                }
            }
        }
    }

    /// The end of a ply up to the next turn's checks: the obligation it had to meet, the ply counted, the
    /// turn passed (or kept), phases advanced. Returns false when only looking ahead (`probe`), where the
    /// ply's aftermath is skipped.
    #[inline(always)]
    pub(super) fn hand_over(&self, st: &mut State, next: Next, probe: bool) -> bool {
        let mover = st.to_move;
        self.check_obligation_met(st);
        st.ply += 1;
        st.stage = Stage::Start;
        self.expire_marks(st);
        st.taken_first = 0;
        if probe {
            return false;
        }
        st.last_mover = mover;
        if self.rules.needs.moves {
            if let Some(n) = st.plies_made.get_mut(mover as usize) {
                *n = n.saturating_add(1);
            }
        }
        let next = if self.phase_again && next == Next::Switch { self.phase_again(st, mover) } else { next };
        if st.captured {
            st.captures += 1;
            if let Some(n) = st.capture_plies.get_mut(mover as usize) {
                *n = n.saturating_add(1);
            }
        }
        if self.rules.needs.rounds {
            self.count_quiet_round(st, mover);
        }
        match next {
            Next::Switch => st.to_move = self.next_active(st, mover),
            Next::Keep => {}
            Next::Respond => {
                st.to_move = self.next_active(st, mover);
                st.stage = Stage::Respond;
            }
        }
        // A turn is all the plies of one player in a row: what it dropped into is forgotten when it ends.
        if self.rules.needs.passed && st.to_move != mover {
            st.passed = [0; 2];
        }
        st.captured = false;
        st.again = false;
        st.obliged = false;
        self.advance_phase(st);
        true
    }

    /// `again when` of the phase: the mover keeps the turn while it holds.
    #[cold]
    fn phase_again(&self, st: &State, mover: u8) -> Next {
        match &self.phase(st).again {
            Some(again) if self.test(st, Ctx::new(mover), again) => {
                if self.trace.is_some() {
                    self.note(st, super::Event::Again { rule: RuleRef::PhaseAgain { phase: st.phase } });
                }
                Next::Keep
            }
            _ => Next::Switch,
        }
    }

    pub(super) fn count_quiet_round(&self, st: &mut State, mover: u8) {
        if st.captured {
            st.quiet = 0;
            st.round_seen = 0;
            return;
        }
        st.round_seen |= 1 << mover;
        self.complete_round(st);
        if self.counts_turns(st) {
            st.quiet += 1;
        }
    }

    pub(super) fn complete_round(&self, st: &mut State) {
        if self.counts_turns(st) {
            return;
        }
        let active = self.active_mask(st);
        if st.round_seen & active == active {
            st.quiet += 1;
            st.round_seen = 0;
        }
    }

    pub(super) fn counts_turns(&self, st: &State) -> bool {
        self.end_rules(st).any(|r| matches!(r, EndRule::Draw { rounds: false, .. }))
    }

    pub(super) fn active_mask(&self, st: &State) -> u8 {
        let all = if self.rules.players >= 8 { u8::MAX } else { (1u8 << self.rules.players) - 1 };
        all & !st.eliminated
    }

    /// The next phases whose turn has come: none to look at in a game of one phase, the common case.
    #[inline(always)]
    pub(super) fn advance_phase(&self, st: &mut State) {
        if self.rules.phases.len() > 1 {
            self.advance_phases(st);
        }
    }

    fn advance_phases(&self, st: &mut State) {
        while (st.phase as usize) + 1 < self.rules.phases.len() {
            let Some(until) = &self.phase(st).until else {
                break;
            };
            if !self.test(st, Ctx::new(st.to_move), until) {
                break;
            }
            st.phase += 1;
            st.quiet = 0;
            st.round_seen = 0;
        }
    }

    /// The records of the last move's drops (`before`, `dropped`), forgotten as a new move or round begins.
    #[inline]
    pub(super) fn forget_drops(&self, st: &mut State) {
        if self.rules.needs.drops {
            st.dropped.fill(NO_KIND);
        }
    }

    /// `f` on the position with the last move's drops set aside: the moves it looks at have dropped nothing
    /// yet (`when stuck` and the like, read among end rules that may read those drops). On the stack, as the
    /// places are at most `MAX_PLACES`.
    #[inline]
    fn without_drops<R>(&self, st: &mut State, f: impl FnOnce(&mut State) -> R) -> R {
        if !self.rules.needs.drops {
            return f(st);
        }
        let mut saved = [NO_KIND; 256];
        let n = st.dropped.len().min(saved.len());
        saved[..n].copy_from_slice(&st.dropped[..n]);
        st.dropped.fill(NO_KIND);
        let r = f(st);
        st.dropped[..n].copy_from_slice(&saved[..n]);
        r
    }

    pub(super) fn end_rules<'a>(&'a self, st: &State) -> impl Iterator<Item = &'a EndRule> {
        self.rules.phases[st.phase as usize].end.items.iter().chain(self.rules.end.items.iter())
    }

    /// The end rules (in the order written), the ply limit, obligations, and whether the player to move can
    /// move at all, checked as a new turn begins: the first too, before any ply (where a rule about
    /// repetitions records the starting position).
    pub(super) fn begin_turn(&self, st: &mut State) {
        let ended = if st.ply > 0 { self.check_end_rules(st) } else { self.check_start_end_rules(st) };
        if ended {
            return;
        }
        // The end rules have seen the last ply's marks for one ply; the next is chosen and played without
        // them (§5). Before the first ply, those of the setup are the first ply's, as those of a position
        // typed in are the coming ply's. (Its drops are forgotten as its moves are looked at:
        // `check_can_move`.)
        if self.ply_marks && st.ply > 0 {
            self.clear_ply_marks(st);
        }
        st.endless = false;
        if st.ply >= self.phase_plan(st).limit {
            return self.finish(st, EndReason::Limit);
        }
        self.check_can_move(st, true);
    }

    /// At the start of a turn: the obligation of the mover, and whether he can move at all. An obligation
    /// met by some start says that he can, so its list of starts is not made twice; so does an end rule
    /// that has just looked (`after_end_rules`, `moves_known`).
    ///
    /// The new move has dropped nothing yet, so the last move's drops are forgotten first (`before` in its
    /// `from ... where` is a pit's count now, §13); a game that ends here is scored with them all the same,
    /// as after any end rule.
    #[inline]
    pub(super) fn check_can_move(&self, st: &mut State, after_end_rules: bool) {
        if !matches!(st.stage, Stage::Start) {
            return self.forget_drops(st);
        }
        if !self.rules.needs.drops {
            if let Some(reason) = self.cannot_go_on(st, after_end_rules) {
                self.finish(st, reason);
            }
            return;
        }
        let mut saved = [NO_KIND; 256];
        let n = st.dropped.len().min(saved.len());
        saved[..n].copy_from_slice(&st.dropped[..n]);
        self.forget_drops(st);
        if let Some(reason) = self.cannot_go_on(st, after_end_rules) {
            st.dropped[..n].copy_from_slice(&saved[..n]);
            self.finish(st, reason);
        }
    }

    /// Why the game ends as a turn begins (an obligation none can meet, a mover who cannot move), if it does.
    #[inline]
    fn cannot_go_on(&self, st: &mut State, after_end_rules: bool) -> Option<EndReason> {
        match self.compute_obligation(st) {
            Bound::Ends => Some(EndReason::Obligation),
            Bound::Met => None,
            Bound::Free if after_end_rules && self.phase_plan(st).moves_known => None,
            Bound::Free if !self.has_any_move(st) => Some(EndReason::Stuck),
            Bound::Free => None,
        }
    }

    /// Returns true when the game ended. A player put out changes what the other rules see (the round set,
    /// the player to move), so after an elimination the end rules are looked at again from the first; players
    /// only ever leave, so this stops.
    pub(super) fn check_end_rules(&self, st: &mut State) -> bool {
        self.end_rules_end(st, false)
    }

    /// `check_end_rules` before the first ply of a game (its start, or a position typed in): there is no
    /// last sowing yet, so the rules that read where it was (`PhasePlan::sowing_end_rules`) are left out.
    pub(super) fn check_start_end_rules(&self, st: &mut State) -> bool {
        self.end_rules_end(st, true)
    }

    fn end_rules_end(&self, st: &mut State, at_start: bool) -> bool {
        if st.endless && self.endless_judged(st) {
            return true;
        }
        let reads_sowing = &self.phase_plan(st).sowing_end_rules;
        loop {
            let out_before = st.eliminated;
            for (i, (rule, rule_ref)) in self.named_end_rules(st.phase).enumerate() {
                if (at_start || st.before_sowing) && reads_sowing[i] {
                    continue;
                }
                if self.end_rule_ends(st, rule, rule_ref) {
                    return true;
                }
            }
            if st.eliminated == out_before {
                return false;
            }
        }
    }

    /// The end rules of a phase (its own, then the top level's, in the order written), each with its name
    /// for a traced ply.
    fn named_end_rules(&self, phase: u8) -> impl Iterator<Item = (&EndRule, RuleRef)> {
        let own = self.rules.phases[phase as usize].end.items.iter().enumerate();
        let own = own.map(move |(index, rule)| (rule, RuleRef::End { phase: Some(phase), index: index as u8 }));
        let top = self.rules.end.items.iter().enumerate();
        own.chain(top.map(|(index, rule)| (rule, RuleRef::End { phase: None, index: index as u8 })))
    }

    /// Tests one end rule (noted on a traced ply) and ends the game when it fires; returns true then.
    #[inline]
    fn end_rule_ends(&self, st: &mut State, rule: &EndRule, rule_ref: RuleRef) -> bool {
        let fires = self.end_rule_fires(st, rule);
        if self.trace.is_some() {
            self.note(st, super::Event::EndRule { rule: rule_ref, held: fires.is_some() });
        }
        match fires {
            Some(reason) => {
                self.finish(st, reason);
                true
            }
            None => false,
        }
    }

    /// After a move that would never end, the rule about such moves first, wherever it is written (ENGINE-1):
    /// the move is annulled (a draw) or its mover put out before anything it left on the board is looked at,
    /// such as a player it left without a move. Returns true when the game ended.
    #[cold]
    fn endless_judged(&self, st: &mut State) -> bool {
        let rules = self.named_end_rules(st.phase).filter(|(rule, _)| rule.is_endless());
        rules.into_iter().any(|(rule, rule_ref)| self.end_rule_ends(st, rule, rule_ref))
    }

    /// Why the game ends by this end rule now, if it does.
    #[inline]
    pub(super) fn end_rule_fires(&self, st: &mut State, rule: &EndRule) -> Option<EndReason> {
        let cx = Ctx::new(st.to_move);
        match rule {
            EndRule::When(c) | EndRule::AtEveryLap(c) => self.test(st, cx, c).then_some(EndReason::Condition),
            EndRule::DrawWhen(c) => self.test(st, cx, c).then_some(EndReason::ConditionDraw),
            EndRule::Repetition => self.seen_before(st).then_some(EndReason::Repetition),
            EndRule::Stuck => self
                .without_drops(st, |st| matches!(st.stage, Stage::Start) && !self.has_any_move(st))
                .then_some(EndReason::Stuck),
            // An offer waiting for its answer: the player who must answer can move (his answer is his
            // ply); the rule is looked at again after it.
            EndRule::NobodyCanMove => (!matches!(st.stage, Stage::Respond)
                && self.without_drops(st, |st| self.active_players(st).all(|p| !self.can_begin(st, p))))
            .then_some(EndReason::NobodyCanMove),
            EndRule::Draw { count, .. } => (st.quiet >= *count).then_some(EndReason::NoCapture),
            EndRule::Eliminate(c) => {
                // Everyone the rule takes out is found first, then taken out in turn. `mover` is the player
                // about to move, as in every end rule; `player` the one tested.
                let out = self.active_players(st).filter(|&p| self.test(st, cx.bound(p), c));
                let out = out.fold(0u8, |bits, p| bits | 1 << p);
                (0..self.rules.players).filter(|p| out & (1 << p) != 0).find_map(|p| self.eliminate(st, p))
            }
            // The cut move is annulled before the next player's turn begins (§10): a game it ends is still
            // the cut mover's turn, so he is `mover` in the sweeps and the score, as where an end rule `at
            // every lap` stops a move.
            EndRule::Endless if st.endless => {
                st.to_move = st.last_mover;
                Some(EndReason::Endless)
            }
            EndRule::Endless => None,
            // The mover of the ply just played, whose move would never end, is out.
            // The flag is spent, so the end rules looked at again after the elimination do not repeat it.
            EndRule::EliminateEndless if st.endless => {
                st.endless = false;
                let ends = self.eliminate(st, st.last_mover);
                if ends.is_some() {
                    st.to_move = st.last_mover;
                }
                ends
            }
            // The move was cut where it was found to go on for ever; the game goes on.
            EndRule::EliminateEndless | EndRule::CutEndless => None,
            EndRule::DrawRepetition => self.seen_before(st).then_some(EndReason::RepetitionDraw),
            EndRule::EliminateStuck => {
                let mut reason = None;
                while reason.is_none()
                    && matches!(st.stage, Stage::Start)
                    && !self.without_drops(st, |st| self.can_begin(st, st.to_move))
                {
                    let p = st.to_move;
                    reason = self.eliminate(st, p);
                }
                reason
            }
        }
    }

    /// Takes a player out; returns `LastStanding` when only one is left, or none: a solitaire's player put out
    /// ends the game (judged by its goal), which would otherwise wait for a turn nobody can take.
    pub(super) fn eliminate(&self, st: &mut State, p: u8) -> Option<EndReason> {
        st.eliminated |= 1 << p;
        st.round_seen &= !(1 << p);
        if self.rules.needs.rounds {
            self.complete_round(st);
        }
        if st.to_move == p {
            st.to_move = self.next_active(st, p);
        }
        (self.active_mask(st).count_ones() <= 1).then_some(EndReason::LastStanding)
    }

    /// Sets `obliged` for the mover, and says whether the obligation binds him (`Met`: he has a start that
    /// meets it) or ends the game (`else end`, and no start meets it).
    #[inline]
    pub(super) fn compute_obligation(&self, st: &mut State) -> Bound {
        let Some(must) = &self.phase(st).must else {
            return Bound::Free;
        };
        st.obliged = false;
        if !self.test(st, Ctx::new(st.to_move), &must.when) {
            return Bound::Free;
        }
        st.obliged = true;
        if self.any_start(st) {
            return Bound::Met;
        }
        st.obliged = false;
        if must.otherwise_end {
            Bound::Ends
        } else {
            Bound::Free
        }
    }

    pub(super) fn seen_before(&self, st: &mut State) -> bool {
        // Where pieces never come back onto the board, their number there never goes up: a position with
        // another number cannot come back, and the history can start afresh.
        if !self.rules.needs.refills {
            self.restart_history_if_board_changed(st, self.rules.n_pits * self.k);
        }
        // Marks that last one ply are not part of the position.
        let marks = &st.marks[..(self.rules.lasting_marks() * self.rules.n_pits).min(st.marks.len())];
        // Owners that never change tell no position from another.
        let owner: &[u8] = if self.fixed_pits.is_some() { &[] } else { &st.owner };
        let key = if owner.is_empty() && marks.is_empty() && !self.rules.needs.passed {
            counts_position_key(st)
        } else {
            let flags = position_flags(st).to_le_bytes();
            // What this turn has dropped into changes what a rule reading `passed` does next.
            let mut passed = [0u8; 16];
            if self.rules.needs.passed {
                passed[..8].copy_from_slice(&st.passed[0].to_le_bytes());
                passed[8..].copy_from_slice(&st.passed[1].to_le_bytes());
            }
            if self.timed_marks.is_empty() {
                hash_parts(&[&st.counts, owner, marks, &flags, &passed], set_word(st.offered))
            } else {
                // A mark `for N plies` is part of the position with the plies it has left.
                hash_parts(&[&st.counts, owner, marks, &flags, &passed, &st.mark_lives], set_word(st.offered))
            }
        };
        remember_position(st, key)
    }

    /// `seen_before` where the pieces and the flags are the whole position (`counts_position_key`): no
    /// owners that change, no lasting marks, no records of the places passed. `board` is the number of
    /// bytes of the board whose sum restarts the history when it changes (`Needs::refills` off), 0 where
    /// it never restarts. What `seen_before` does there, without its tests of the rules' shape: the whole-ply
    /// form checks it once, when the engine is made (`fast::PlyPlan`).
    #[inline(never)]
    pub(super) fn seen_before_counts(&self, st: &mut State, board: usize) -> bool {
        if board > 0 {
            self.restart_history_if_board_changed(st, board);
        }
        remember_position(st, counts_position_key(st))
    }

    /// Empties the history where the number of pieces in the first `board` bytes of `counts` has changed.
    #[inline(always)]
    fn restart_history_if_board_changed(&self, st: &mut State, board: usize) {
        let total = super::fast::byte_sum(&st.counts[..board.min(st.counts.len())]);
        if total != st.history_total {
            st.history.clear();
            st.history_total = total;
        }
    }

    /// Ends the game, or in a match of rounds the round: sweeps the board, scores, and decides the winners.
    /// A round that does not end the match is followed at once by the next one (`next_round`).
    pub(super) fn finish(&self, st: &mut State, reason: EndReason) {
        let Some(rounds) = &self.rules.rounds else {
            return self.finish_game(st, reason);
        };
        // The ply limit and a move that would never end stop the whole match; a player left alone wins it. So
        // does a round that ends before its first ply: the next one would too, and the match would never end.
        let stops = matches!(reason, EndReason::Limit | EndReason::Endless | EndReason::LastStanding);
        if stops || (st.round > 1 && st.ply == st.round_start_ply) {
            return self.finish_game(st, reason);
        }
        self.sweep(st, reason);
        let scores = self.scores(st);
        let winners = self.winners(st, reason, &scores);
        if self.trace.is_some() {
            self.note(st, super::Event::RoundEnds { round: u32::from(st.round), scores: scores.clone() });
        }
        st.rounds.push(RoundResult { winners, scores, reason });
        if rounds.limit.is_some_and(|n| st.rounds.len() >= n as usize) {
            return self.finish_game(st, EndReason::RoundLimit);
        }
        self.refill(st, rounds);
        let starter = self.next_starter(st, rounds.first, winners);
        if rounds.match_when.as_ref().is_some_and(|c| self.test(st, Ctx::new(starter), c)) {
            return self.finish_game(st, EndReason::Match);
        }
        self.next_round(st, starter);
    }

    /// The scores of every player, as `score` says.
    fn scores(&self, st: &State) -> Vec<i32> {
        (0..self.rules.players).map(|p| self.num(st, Ctx::new(p).bound(p), &self.rules.score)).collect()
    }

    /// The refills between two rounds, in the order written, once the marks are back to the setup's (a
    /// round starts with the marks of the game's start, but for those the refills give).
    #[cold]
    fn refill(&self, st: &mut State, rounds: &RoundRules) {
        let marks = self.initial_marks();
        st.marks.clone_from(&marks);
        for (index, refill) in rounds.refills.iter().enumerate() {
            if self.trace.is_some() {
                self.note(st, super::Event::Refill { rule: RuleRef::Refill { index: index as u8 } });
            }
            match &refill.claim {
                Some(start) => self.claim_refill(st, refill, start),
                None => self.own_refill(st, refill),
            }
        }
    }

    /// A refill of each player's own pits: for each player in turn, his pits of the set, in the order of
    /// their numbers, get their pieces while the source holds enough; a pit that cannot be filled carries the
    /// refill's mark, and one that is filled loses it.
    fn own_refill(&self, st: &mut State, refill: &Refill) {
        let n = self.rules.n_pits;
        for p in 0..self.rules.players {
            let cx = Ctx::new(p).bound(p);
            let mut pits = Places::default();
            self.for_each_in_set(st, cx, &refill.set, |q| {
                if (q as usize) < n && st.owner[q as usize] == p {
                    pits.push(q);
                }
                true
            });
            let mut pits = pits.as_slice().to_vec();
            pits.sort_by_key(|&q| (self.rules.number[q as usize], q));
            if refill.backward {
                pits.reverse();
            }
            for q in pits {
                let filled = self.fill_from(st, cx.at(q), refill, q);
                self.mark_refilled(st, refill, q, filled, p + 1);
            }
        }
    }

    /// `claim from START`: each player in turn goes along the track from his start (against it with
    /// `backward`), fills every pit of his set that nobody has claimed yet while his source holds enough,
    /// and owns it. The pits of the sets that nobody fills are nobody's, and carry the refill's mark.
    fn claim_refill(&self, st: &mut State, refill: &Refill, start: &PlaceExpr) {
        let n = self.rules.n_pits;
        let track = &self.rules.track;
        let (mut claimable, mut claimed) = (vec![false; n], vec![false; n]);
        for p in 0..self.rules.players {
            let cx = Ctx::new(p).bound(p);
            let mut mine = vec![false; n];
            self.for_each_in_set(st, cx, &refill.set, |q| {
                if let Some(m) = mine.get_mut(q as usize) {
                    *m = true;
                }
                true
            });
            claimable.iter_mut().zip(&mine).for_each(|(c, m)| *c |= *m);
            let Some(at) = self.place(st, cx, start).and_then(|s| track.iter().position(|&q| q == s)) else {
                continue;
            };
            let len = track.len();
            for i in 0..len {
                let q = track[if refill.backward { (at + len - i) % len } else { (at + i) % len }];
                if !mine.get(q as usize).copied().unwrap_or(false) || claimed[q as usize] {
                    continue;
                }
                if !self.fill_from(st, cx.at(q), refill, q) {
                    break;
                }
                claimed[q as usize] = true;
                st.owner[q as usize] = p;
            }
        }
        for q in (0..n).filter(|&q| claimable[q]) {
            if !claimed[q] {
                st.owner[q] = NO_PLAYER;
            }
            self.mark_refilled(st, refill, q as PlaceId, claimed[q], 1);
        }
    }

    /// Moves the refill's pieces into pit `q` from its source, if that holds enough, or with `borrow` what it
    /// holds and the pieces it lacks from the other place, if that holds them; whether it did.
    fn fill_from(&self, st: &mut State, cx: Ctx, refill: &Refill, q: PlaceId) -> bool {
        let Some(from) = self.place(st, cx, &refill.from) else { return false };
        let held = self.count(st, from) as u32;
        if held >= refill.count {
            self.move_pieces(st, from, q, self.all_kinds, refill.count);
            return true;
        }
        let Some((most, lender)) = &refill.borrow else { return false };
        let lacking = refill.count - held;
        let lender = self.place(st, cx, lender).filter(|&l| l != from && self.count(st, l) as u32 >= lacking);
        match lender {
            Some(lender) if held > 0 && lacking <= *most => {
                self.move_pieces(st, from, q, self.all_kinds, held);
                self.move_pieces(st, lender, q, self.all_kinds, lacking);
                true
            }
            _ => false,
        }
    }

    /// A refilled pit loses the refill's mark; one that could not be filled carries it (with the value
    /// `holder`, the player's number plus one, for a mark per player).
    fn mark_refilled(&self, st: &mut State, refill: &Refill, q: PlaceId, filled: bool, holder: u8) {
        let Some(mark) = refill.mark else { return };
        let info = &self.rules.marks[mark as usize];
        let cell = match (filled, info.per_player) {
            (true, _) => UNMARKED,
            (false, true) => holder,
            (false, false) => 1,
        };
        self.set_mark(st, mark, q, cell);
    }

    /// Who starts the round after one won by `winners` (none: a draw): the round's winner or loser, or the
    /// player after the one who started it, which is also who starts after a drawn round.
    fn next_starter(&self, st: &State, first: FirstRule, winners: u8) -> u8 {
        let after = self.next_active(st, st.round_starter);
        let last = st.rounds.last();
        match first {
            FirstRule::Alternate => after,
            _ if winners == 0 => after,
            FirstRule::Winner => winners.trailing_zeros() as u8,
            FirstRule::Loser => {
                let scores = last.map_or(&[][..], |r| &r.scores[..]);
                self.active_players(st).min_by_key(|&p| scores.get(p as usize).copied().unwrap_or(0)).unwrap_or(after)
            }
        }
    }

    /// The start of the next round: its first phase, its starter to move, nothing remembered of the round
    /// before but the pieces, their owners and marks (the marks of one ply and the repetitions forgotten);
    /// then the turn begins as a game's first does.
    #[cold]
    fn next_round(&self, st: &mut State, starter: u8) {
        st.round = st.round.saturating_add(1);
        st.round_starter = starter;
        st.to_move = starter;
        st.phase = 0;
        st.stage = Stage::Start;
        st.quiet = 0;
        st.round_seen = 0;
        st.history.clear();
        st.history_total = 0;
        st.captured = false;
        st.again = false;
        st.obliged = false;
        st.endless = false;
        st.passed = [0; 2];
        if self.ply_marks {
            let lasting = self.rules.lasting_marks() * self.rules.n_pits;
            st.marks[lasting..].fill(UNMARKED);
        }
        st.round_start_ply = st.ply;
        self.forget_drops(st);
        self.advance_phase(st);
        if self.trace.is_some() {
            self.note(st, super::Event::NextRound { round: u32::from(st.round), starter });
        }
        // The end rules look at the new round's first position as at any other turn's start (a rule about
        // repetitions records it there).
        if self.check_end_rules(st) {
            return;
        }
        if st.ply >= self.phase_plan(st).limit {
            return self.finish(st, EndReason::Limit);
        }
        self.check_can_move(st, true);
    }

    /// The sweeps of the end rules (the phase's, then the top level's), in the order written; a sweep `after`
    /// an ending only when the game (the round) ended so.
    fn sweep(&self, st: &mut State, reason: EndReason) {
        // Where the mover fixes what goes where, the table made with the engine says it.
        if let Some(table) = &self.phase_plan(st).sweep_table {
            for &(p, to) in table.get(st.to_move as usize).map_or(&[][..], |t| &t[..]) {
                if self.count(st, p) > 0 {
                    self.move_pieces(st, p, to, self.all_kinds, u32::MAX);
                }
            }
            return;
        }
        let phase_end = &self.rules.phases[st.phase as usize].end;
        let sweeps = phase_end.sweeps.iter().zip(after_each(phase_end));
        let sweeps = sweeps.chain(self.rules.end.sweeps.iter().zip(after_each(&self.rules.end)));
        // Which rule each sweep is, for a traced ply.
        let phase = st.phase;
        let refs = (0..phase_end.sweeps.len()).map(|i| (Some(phase), i));
        let refs = refs.chain((0..self.rules.end.sweeps.len()).map(|i| (None, i)));
        for (((set, to), after), (of, index)) in sweeps.zip(refs) {
            if after.is_some_and(|after| !ended_so(after, reason)) {
                continue;
            }
            if self.trace.is_some() {
                self.note(st, super::Event::Sweep { rule: RuleRef::Sweep { phase: of, index: index as u8 } });
            }
            let mut places = Places::default();
            self.for_each_in_set(st, Ctx::new(st.to_move), set, |p| places.push(p));
            for &p in places.as_slice() {
                if self.count(st, p) == 0 {
                    continue;
                }
                if let Some(dest) = self.place(st, Ctx::new(st.to_move).at(p), to) {
                    self.move_pieces(st, p, dest, self.all_kinds, u32::MAX);
                }
            }
        }
    }

    /// Ends the game (the match): sweeps, scores, and the winners; the rounds played go into the outcome.
    fn finish_game(&self, st: &mut State, reason: EndReason) {
        // A match that ends between rounds was swept when its last round ended.
        if !matches!(reason, EndReason::Match | EndReason::RoundLimit) {
            self.sweep(st, reason);
        }
        let scores = self.scores(st);
        let winners = self.winners(st, reason, &scores);
        st.stage = Stage::Start;
        st.result = Some(Outcome { winners, scores, reason, rounds: st.rounds.clone() });
    }

    pub(super) fn winners(&self, st: &State, reason: EndReason, scores: &[i32]) -> u8 {
        if let Some(goal) = &self.rules.goal {
            return if self.test(st, Ctx::new(0), goal) { 1 } else { 0 };
        }
        match reason {
            EndReason::NoCapture | EndReason::Endless | EndReason::RepetitionDraw | EndReason::ConditionDraw => {
                return 0
            }
            EndReason::LastStanding => return self.active_mask(st),
            _ => {}
        }
        let Some(best) = self.active_players(st).map(|p| scores[p as usize]).max() else {
            return 0;
        };
        let top = self.active_players(st).filter(|&p| scores[p as usize] == best).fold(0u8, |m, p| m | (1 << p));
        if top.count_ones() == 1 {
            return top;
        }
        match self.rules.ties {
            Ties::Draw => 0,
            Ties::Shared => top,
            Ties::LastMover if top & (1 << st.last_mover) != 0 => 1 << st.last_mover,
            Ties::LastMover => 0,
        }
    }
}

/// The ending each sweep of an `end` block waits for (`after`), or `None`.
fn after_each(end: &EndRules) -> impl Iterator<Item = Option<Ending>> + '_ {
    (0..end.sweeps.len()).map(|i| end.sweep_after.get(i).copied().flatten())
}

/// Whether a game that ended for `reason` ended as `after` says.
fn ended_so(after: Ending, reason: EndReason) -> bool {
    match after {
        Ending::Repetition => matches!(reason, EndReason::Repetition | EndReason::RepetitionDraw),
        Ending::Stuck => reason == EndReason::Stuck,
        Ending::Limit => reason == EndReason::Limit,
    }
}

/// The flags of a position that a repetition compares besides its pieces: the player to move, the phase,
/// the players out, and whether an offer awaits its answer.
#[inline(always)]
fn position_flags(st: &State) -> u32 {
    u32::from_le_bytes([st.to_move, st.phase, st.eliminated, (matches!(st.stage, Stage::Respond)) as u8])
}

/// The key of a position whose pieces and flags are the whole of it (most games; the same parts for every
/// key of a game, so keys made so compare only with each other).
#[inline(always)]
fn counts_position_key(st: &State) -> u64 {
    super::fast::counts_key(&st.counts, set_word(st.offered)) ^ (position_flags(st) as u64 * 0x9e37_79b9_7f4a_7c15)
}

/// Whether the history holds `key`; if not, `key` is added to it.
#[inline(always)]
fn remember_position(st: &mut State, key: u64) -> bool {
    st.history_filter.fit(&st.history);
    if st.history_filter.may_hold(key) && contains(&st.history, key) {
        return true;
    }
    st.history.push(key);
    st.history_filter.add(key);
    // A round that never repeats a position would keep every one until its ply limit: past
    // `MAX_HISTORY`, the older half is forgotten (docs/language.md, Limits).
    if st.history.len() > super::MAX_HISTORY {
        forget_older_half(&mut st.history);
    }
    false
}

#[cold]
fn forget_older_half(history: &mut Vec<u64>) {
    history.drain(..super::MAX_HISTORY / 2);
}

/// A set of pits in one word for a position's key: the set itself where it lies in the first 64 pits.
#[inline(always)]
fn set_word(set: PitSet) -> u64 {
    set as u64 ^ ((set >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
}

/// Whether `keys` holds `key`: eight keys compared at a time without a branch between them, which the
/// compiler can do side by side (a position seldom comes back, so the whole list is read almost every time).
#[inline]
fn contains(keys: &[u64], key: u64) -> bool {
    let mut chunks = keys.chunks_exact(8);
    let found = chunks.any(|c| c.iter().fold(false, |found, &k| found | (k == key)));
    found || chunks.remainder().contains(&key)
}
