//! The engine: legal moves, moves applied, outcomes. General over every construct of the language.
//!
//! A turn runs as a small state machine (`Stage`): it pauses wherever the mover has a real choice (a
//! direction, the kind of the next piece, a piece to take, further pits to select) and runs straight through
//! everything else. The engine is sans-IO and deterministic; randomness comes from the caller.
//!
//! Legality that depends on how a move plays out (`require`, relay loops, `must`) is decided by probing:
//! the candidate is played on a copy until the ply ends. Only rules that need it pay for it.

mod compile;
mod eval;
mod state;

use std::fmt;

use crate::ir::*;

pub(crate) use eval::Ctx;
pub use state::{CaptureCursor, EndReason, Move, Outcome, Stage, State};

/// The rules of one game, variant and player count, ready to play.
#[derive(Debug, Clone)]
pub struct Engine {
    /// The rules as the engine runs them: optimized, conditions compiled.
    pub rules: Rules,
    /// The rules as lowered, before optimization: for printing them.
    pub lowered: Rules,
    pub(crate) k: usize,
    pub(crate) all_kinds: KindMask,
    pub(crate) colour_masks: Vec<KindMask>,
    /// Each player's pits, when no rule can change who owns a pit (no offers): then `pits(P)` is a fixed list.
    pub(crate) fixed_pits: Option<Vec<Vec<PlaceId>>>,
    /// The ply limit of each phase.
    limits: Vec<u32>,
    /// The rules' conditions, compiled (`Cond::Compiled(i)` is `compiled.0[i]`).
    pub(crate) compiled: Compiled,
    /// Per phase: no action needs probing.
    probe_free: Vec<bool>,
    /// Per phase: no probing and no pass, so the legal starts are simply every action's starts.
    simple_phase: Vec<bool>,
    /// Per phase: the phase is one plain sowing from any non-empty pit of the mover's fixed pits (most
    /// games), so its starts are found without evaluating anything.
    plain_starts: Vec<bool>,
    /// Per phase: besides plain starts, a plain sowing in a fixed direction, with nothing to choose or check
    /// before its captures (no relay, `require`, `then`, obligation or per-drop records): `plain_ply` plays
    /// its plies in one go.
    plain_sow: Vec<Option<Dir>>,
    /// Per phase and action: an offer whose `require`, once false, stays false as pits are added
    /// (`ir::fails_for_more_pits`), so the search for a completion stops there.
    offer_prunes: Vec<Vec<bool>>,
}

#[derive(Clone)]
pub(crate) struct Compiled(pub Vec<compile::CondFn>, pub Vec<Cond>);

impl fmt::Debug for Compiled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} compiled conditions", self.0.len())
    }
}

/// A move that cannot be made in this position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    GameOver,
    Illegal { legal: Vec<Move> },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => f.write_str("the game is over"),
            MoveError::Illegal { .. } => f.write_str("that move is not legal here"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The longest relay sowing followed, in laps: a longer one counts as endless, and the move is illegal, as
/// for a relay that comes back to a position it has been in. Relays that end are far shorter (at most 122
/// laps in 200,000 random games of Gulek Single), so the verdict is the same either way; the bound keeps a
/// rule whose relay always goes on (each of 30 candidate sowings running until its loop is found, which can
/// take 45,000 laps) from making one list of legal moves take half a second.
pub const MAX_RELAY_LAPS: u32 = 20_000;
/// The most continuations looked at to decide whether one move can be completed into a legal ply: a move
/// that needs more is not offered. This bounds the work of a decision where a rule makes the look-ahead
/// combinatorial; shipped games need at most a few dozen.
pub const MAX_PROBE_STEPS: u32 = 10_000;
/// The default ply limit of a game whose file sets none: a guard, never meant to decide a real game.
pub const DEFAULT_LIMIT: u32 = 20_000;

/// How a ply ends: whose turn is next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Next {
    Switch,
    Keep,
    Respond,
}

impl Engine {
    pub fn new(mut rules: Rules) -> Engine {
        let lowered = rules.clone();
        crate::ir::optimize(&mut rules);
        let k = rules.kinds.len().max(1);
        let all_kinds = if k >= 64 { u64::MAX } else { (1u64 << k) - 1 };
        let colour_masks = (0..rules.players)
            .map(|p| {
                rules.kinds.iter().enumerate().filter(|(_, info)| info.owner == p).fold(0u64, |m, (i, _)| m | (1 << i))
            })
            .collect();
        let owners_change =
            rules.phases.iter().flat_map(|p| &p.actions).any(|a| matches!(a.kind, ActionKind::Offer(_)));
        let fixed_pits = (!owners_change).then(|| {
            (0..rules.players)
                .map(|p| (0..rules.n_pits as PlaceId).filter(|&i| rules.initial_owner[i as usize] == p).collect())
                .collect()
        });
        let limits = rules.phases.iter().map(|p| p.end.limit.or(rules.end.limit).unwrap_or(rules.limit)).collect();
        let shape = compile::Shape { plain: k == 1, fixed_pits: fixed_pits.clone(), n_pits: rules.n_pits };
        let offer_prunes = rules
            .phases
            .iter()
            .map(|p| {
                p.actions
                    .iter()
                    .map(|a| match &a.kind {
                        ActionKind::Offer(o) => o.requires.iter().all(crate::ir::fails_for_more_pits),
                        _ => false,
                    })
                    .collect()
            })
            .collect();
        let (table, sources) = compile::compile_rules(&mut rules, &shape);
        let compiled = Compiled(table, sources);
        let probe_free: Vec<bool> = rules
            .phases
            .iter()
            .map(|p| {
                p.actions.iter().all(|a| match &a.kind {
                    ActionKind::Sow(s) => !s.lookahead,
                    ActionKind::Put(p) => !p.lookahead,
                    ActionKind::Offer(_) => false,
                })
            })
            .collect();
        let simple_phase: Vec<bool> =
            rules.phases.iter().zip(&probe_free).map(|(p, &free)| free && p.pass.is_none()).collect();
        let plain_starts = rules
            .phases
            .iter()
            .zip(&simple_phase)
            .map(|(p, &simple)| {
                simple
                    && fixed_pits.is_some()
                    && matches!(p.actions.as_slice(), [Action { kind: ActionKind::Sow(sow), .. }]
                        if k == 1 && is_plain_start(sow))
            })
            .collect::<Vec<bool>>();
        let plain_sow = rules
            .phases
            .iter()
            .zip(&plain_starts)
            .map(|(p, &plain)| match p.actions.as_slice() {
                [Action { kind: ActionKind::Sow(sow), .. }]
                    if plain && !rules.needs.drops && p.must.is_none() && is_plain_sow(sow) =>
                {
                    match sow.dir {
                        DirRule::Fixed(dir) => Some(dir),
                        DirRule::Choose => None,
                    }
                }
                _ => None,
            })
            .collect();
        Engine {
            rules,
            lowered,
            k,
            all_kinds,
            colour_masks,
            fixed_pits,
            limits,
            compiled,
            probe_free,
            simple_phase,
            plain_starts,
            plain_sow,
            offer_prunes,
        }
    }

    /// The same engine without its fast paths for plain phases (`plain_starts`, `plain_ply`): every ply
    /// goes through the general stages. For tests, which compare the two.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Engine {
        self.plain_starts.fill(false);
        self.plain_sow.fill(None);
        self
    }

    /// A player's pits when they never change hands (`fixed_pits`); none otherwise.
    #[inline]
    pub(crate) fn fixed_pits_of(&self, player: u8) -> &[PlaceId] {
        self.fixed_pits.as_ref().and_then(|lists| lists.get(player as usize)).map_or(&[], |l| &l[..])
    }

    /// Evaluates a rule's condition: straight to its compiled closure when it has one.
    #[inline]
    pub(crate) fn test(&self, st: &State, cx: Ctx, c: &Cond) -> bool {
        match c {
            Cond::Compiled(i) => (self.compiled.0[*i as usize])(self, st, cx),
            Cond::True => true,
            _ => self.cond(st, cx, c),
        }
    }

    pub fn kinds(&self) -> usize {
        self.k
    }

    /// The position before the first move.
    pub fn initial_state(&self) -> State {
        let places = self.rules.places.len();
        let drops = if self.rules.needs.drops { places } else { 0 };
        let mut st = State {
            counts: self.rules.setup.clone(),
            owner: self.rules.initial_owner.clone(),
            to_move: 0,
            phase: 0,
            eliminated: 0,
            ply: 0,
            last_mover: 0,
            stage: Stage::Start,
            offered: 0,
            origin: 0,
            last: 0,
            dir: Dir::Ccw,
            cursor: 0,
            hand: vec![0; self.k],
            before: vec![0; drops],
            dropped: vec![NO_KIND; drops],
            obliged: false,
            illegal: false,
            captured: false,
            again: false,
            quiet: 0,
            round_seen: 0,
            history: Vec::new(),
            history_total: 0,
            captures: 0,
            result: None,
        };
        self.advance_phase(&mut st);
        self.begin_turn(&mut st);
        st
    }

    /// Redoes the bookkeeping of a turn's start for a state built by hand (a parsed position): the
    /// obligation of the player to move, the record of the position for repetitions, and the end of the game
    /// when he cannot move.
    pub fn refresh(&self, st: &mut State) {
        st.obliged = false;
        if st.result.is_some() {
            return;
        }
        // A position with an offer to answer is a position of the game too (its stage is part of the key).
        if self.rules.needs.repetition && matches!(st.stage, Stage::Start | Stage::Respond) {
            self.seen_before(st);
        }
        if matches!(st.stage, Stage::Start) && !self.compute_obligation(st) {
            return self.finish(st, EndReason::Obligation);
        }
        if matches!(st.stage, Stage::Start) && !self.has_any_move(st) {
            self.finish(st, EndReason::Stuck);
        }
    }

    pub fn outcome<'s>(&self, st: &'s State) -> Option<&'s Outcome> {
        st.result.as_ref()
    }

    pub fn phase(&self, st: &State) -> &PhaseRules {
        &self.rules.phases[st.phase as usize]
    }

    /// The legal decisions at this point, appended to `out`.
    pub fn legal_moves(&self, st: &State, out: &mut Vec<Move>) {
        if st.result.is_some() {
            return;
        }
        match st.stage {
            Stage::Start => self.start_options(st, out, true),
            _ => {
                let start = out.len();
                self.mid_options(st, out);
                if self.current_needs_probe(st) {
                    self.retain_completable(st, out, start);
                }
            }
        }
    }

    /// Applies a decision after checking that it is legal.
    pub fn apply(&self, st: &mut State, mv: Move) -> Result<(), MoveError> {
        if st.result.is_some() {
            return Err(MoveError::GameOver);
        }
        let mut legal = Vec::new();
        self.legal_moves(st, &mut legal);
        if !legal.contains(&mv) {
            return Err(MoveError::Illegal { legal });
        }
        self.step(st, mv, false);
        Ok(())
    }

    /// Applies a decision taken from `legal_moves` for this very state.
    #[inline]
    pub fn apply_unchecked(&self, st: &mut State, mv: Move) {
        self.step(st, mv, false);
    }

    // ------------------------------------------------------------ options

    fn start_options(&self, st: &State, out: &mut Vec<Move>, with_pass: bool) {
        if matches!(st.stage, Stage::Respond) {
            out.extend([Move::Accept, Move::Decline]);
            return;
        }
        let phase = self.phase(st);
        if self.plain_starts[st.phase as usize] && !st.obliged {
            let pits = self.fixed_pits_of(st.to_move);
            out.reserve(pits.len());
            for &place in pits {
                if st.counts[place as usize] > 0 {
                    out.push(Move::Begin { action: 0, place });
                }
            }
            return;
        }
        if self.simple_phase[st.phase as usize] && !st.obliged {
            for (a, action) in phase.actions.iter().enumerate() {
                self.begins(st, a as u8, action, out);
            }
            return;
        }
        let begin = out.len();
        let mut counts = [0usize; 16];
        for (a, action) in phase.actions.iter().enumerate() {
            let start = out.len();
            self.begins(st, a as u8, action, out);
            if self.action_needs_probe(action) || st.obliged {
                self.retain_completable(st, out, start);
            }
            if a < counts.len() {
                counts[a] = out.len() - start;
            }
        }
        if with_pass {
            if let Some(pass) = &phase.pass {
                if pass.unless.iter().all(|&a| counts.get(a as usize).copied().unwrap_or(0) == 0) {
                    out.push(Move::Pass);
                }
            }
        }
        debug_assert!(out.len() >= begin);
    }

    fn begins(&self, st: &State, a: u8, action: &Action, out: &mut Vec<Move>) {
        self.each_begin(st, a, action, |m| {
            out.push(m);
            true
        });
    }

    /// Calls `emit` with each start of `action` while it returns true; returns false when stopped early.
    fn each_begin(&self, st: &State, a: u8, action: &Action, emit: impl FnMut(Move) -> bool) -> bool {
        self.each_begin_for(st, st.to_move, a, action, emit)
    }

    /// `each_begin` as if it were `mover`'s turn.
    fn each_begin_for(
        &self,
        st: &State,
        mover: u8,
        a: u8,
        action: &Action,
        mut emit: impl FnMut(Move) -> bool,
    ) -> bool {
        let mut go = true;
        let cx = Ctx::new(mover);
        match &action.kind {
            ActionKind::Sow(sow) => {
                // The common case, a plain sowing from one's own fixed pits, without evaluating anything.
                if self.fixed_pits.is_some() && self.k == 1 && is_plain_start(sow) {
                    for &p in self.fixed_pits_of(mover) {
                        if st.counts[p as usize] > 0 && !emit(Move::Begin { action: a, place: p }) {
                            return false;
                        }
                    }
                    return true;
                }
                let own = self.colour_mask(mover);
                self.for_each_in_set(st, cx, &sow.from, |p| {
                    if (p as usize) < self.rules.n_pits
                        && self.count(st, p) > 0
                        && (!sow.last_own || self.count_masked(st, p, own) > 0)
                        && (matches!(sow.filter, Cond::True) || self.test(st, cx.at(p), &sow.filter))
                    {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
            ActionKind::Put(put) => {
                if !self.put_source_ready(st, cx, put, put.start_needs()) {
                    return true;
                }
                self.for_each_in_set(st, cx, &put.into, |p| {
                    if self.test(st, cx.at(p), &put.filter) {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
            ActionKind::Offer(offer) => {
                let owned = self.owned_pits(st, mover);
                if owned < offer.keeping + offer.min.max(1) {
                    return true;
                }
                self.for_each_in_set(st, cx, &offer.from, |p| {
                    if (p as usize) < self.rules.n_pits && st.owner[p as usize] == mover {
                        go = emit(Move::Begin { action: a, place: p });
                    }
                    go
                });
            }
        }
        go
    }

    /// The options in the middle of a turn, before any probing.
    fn mid_options(&self, st: &State, out: &mut Vec<Move>) {
        let mover = st.to_move;
        let cx = Ctx::new(mover);
        match st.stage {
            Stage::Start | Stage::Respond => self.start_options(st, out, true),
            Stage::Direction { .. } => out.extend([Move::Direction(Dir::Ccw), Move::Direction(Dir::Cw)]),
            Stage::Drop { action } => {
                let mask = self.drop_mask(st, self.sow_rule(st, action));
                out.extend((0..self.k as u8).filter(|k| mask & (1 << k) != 0).map(Move::Drop));
            }
            Stage::Take { action, cursor } => {
                let take = &self.sow_rule(st, action).captures[cursor.rule as usize].takes[cursor.take as usize];
                self.take_options(st, cx.at(cursor.here), take, cursor.min_choice, out);
            }
            Stage::Then { action, from } => {
                let then = self.sow_rule(st, action).then.as_ref();
                if let Some(then) = then {
                    let mask = self.kind_mask(st, cx, &then.kinds);
                    self.for_each_in_set(st, cx, &then.set, |p| {
                        if p >= from && self.count_masked(st, p, mask) > 0 && self.test(st, cx.at(p), &then.filter) {
                            out.push(Move::Pick(p));
                        }
                        true
                    });
                }
                out.push(Move::Stop);
            }
            Stage::Put { action, done, from } => {
                let ActionKind::Put(put) = &self.phase(st).actions[action as usize].kind else {
                    return;
                };
                let more = put.max_times.map_or(true, |m| (done as u32) < m);
                if more && self.put_source_ready(st, cx, put, put.count) {
                    self.for_each_in_set(st, cx, &put.into, |p| {
                        if p >= from && self.test(st, cx.at(p), &put.filter) {
                            out.push(Move::Pick(p));
                        }
                        true
                    });
                }
                if done as u32 >= put.min_times {
                    out.push(Move::Stop);
                }
            }
            Stage::Offer { action, from } => {
                let ActionKind::Offer(offer) = &self.phase(st).actions[action as usize].kind else {
                    return;
                };
                self.offer_candidates(st, offer, from, |p| out.push(Move::Pick(p)));
                if self.offer_can_stop(st, offer) {
                    out.push(Move::Stop);
                }
            }
        }
    }

    /// The pits that may join the offer being made (the pits in `offered`), at or after `from`.
    fn offer_candidates(&self, st: &State, offer: &Offer, from: PlaceId, mut f: impl FnMut(PlaceId)) {
        let mover = st.to_move;
        let size = st.offered.count_ones();
        if size >= offer.max || self.owned_pits(st, mover) < size + 1 + offer.keeping {
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
    fn offer_can_stop(&self, st: &State, offer: &Offer) -> bool {
        let cx = Ctx::new(st.to_move);
        st.offered.count_ones() >= offer.min && offer.requires.iter().all(|c| self.test(st, cx, c))
    }

    /// The pieces a chosen take may take next: those of the first group of places that holds any, at or after
    /// `min_choice` in the order of `choice_code` — the pieces of one capture form a set, so they are chosen
    /// in that order only. Returns how many pieces of that group there are before filtering: when some are
    /// there but none is left after `min_choice`, the earlier choices were made in the wrong order.
    fn take_options(&self, st: &State, cx: Ctx, take: &TakeRule, min_choice: u32, out: &mut Vec<Move>) -> usize {
        let mask = self.kind_mask(st, cx, &take.kinds);
        for (g, group) in self.source_groups(take).iter().enumerate() {
            let mut found = 0;
            for set in group {
                self.for_each_in_set(st, cx, set, |p| {
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
    fn take_code(&self, st: &State, cx: Ctx, take: &TakeRule, place: PlaceId, kind: u8) -> u32 {
        let group = self.source_groups(take).iter().position(|g| g.iter().any(|s| self.set_contains(st, cx, s, place)));
        choice_code(group.unwrap_or(0), place, kind)
    }

    /// The alternative groups of places a take draws from; `check` fills in `here` when the file names none.
    fn source_groups<'r>(&self, take: &'r TakeRule) -> &'r [Vec<Set>] {
        &take.from
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

    /// Whether the source of a put holds at least `needed` pieces of its kinds.
    fn put_source_ready(&self, st: &State, cx: Ctx, put: &Put, needed: u32) -> bool {
        match self.place(st, cx, &put.from) {
            Some(src) => self.count_masked(st, src, self.kind_mask(st, cx, &put.kinds)) >= needed,
            None => false,
        }
    }

    fn owned_pits(&self, st: &State, player: u8) -> u32 {
        st.owner.iter().filter(|&&o| o == player).count() as u32
    }

    /// The sowing rules of an action; the stages that call this only exist for sowing actions.
    fn sow_rule(&self, st: &State, action: u8) -> &Sow {
        match self.phase(st).actions.get(action as usize).map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => s,
            _ => unreachable!("a sowing stage always belongs to a sowing action"),
        }
    }

    fn action_needs_probe(&self, action: &Action) -> bool {
        match &action.kind {
            ActionKind::Sow(s) => s.lookahead,
            ActionKind::Put(p) => p.lookahead,
            ActionKind::Offer(_) => true,
        }
    }

    fn current_needs_probe(&self, st: &State) -> bool {
        let action = match st.stage {
            Stage::Start | Stage::Respond => return false,
            Stage::Direction { action }
            | Stage::Drop { action }
            | Stage::Take { action, .. }
            | Stage::Then { action, .. }
            | Stage::Put { action, .. }
            | Stage::Offer { action, .. } => action,
        };
        if matches!(st.stage, Stage::Then { .. }) && !st.obliged {
            // The sowing is over and `stop` is always there: every pick can be completed.
            return false;
        }
        st.obliged
            || matches!(st.stage, Stage::Take { .. })
            || self.action_needs_probe(&self.phase(st).actions[action as usize])
    }

    /// Keeps in `out[start..]` only the moves that can be completed into a legal ply.
    fn retain_completable(&self, st: &State, out: &mut Vec<Move>, start: usize) {
        let mut keep = start;
        for i in start..out.len() {
            let mv = out[i];
            if self.completable(st, mv) {
                out[keep] = mv;
                keep += 1;
            }
        }
        out.truncate(keep);
    }

    fn completable(&self, st: &State, mv: Move) -> bool {
        if let Some(ok) = self.offer_completable_after(st, mv) {
            debug_assert_eq!(ok, self.completable_by_probing(st, mv), "offer shortcut for {mv:?}");
            return ok;
        }
        self.completable_by_probing(st, mv)
    }

    fn completable_by_probing(&self, st: &State, mv: Move) -> bool {
        let mut probe = st.probe_copy();
        let ply = probe.ply;
        self.step(&mut probe, mv, true);
        let mut budget = MAX_PROBE_STEPS;
        self.probe_rest(&probe, ply, &mut budget)
    }

    /// Whether the ply under way in `st` can be completed, looking at no more than `budget` continuations.
    fn probe_rest(&self, st: &State, ply: u32, budget: &mut u32) -> bool {
        if st.illegal || *budget == 0 {
            return false;
        }
        *budget -= 1;
        if st.ply != ply {
            return true;
        }
        // Once the sowing is over, a `then may` selection can always stop: nothing left can fail.
        if matches!(st.stage, Stage::Then { .. }) && !st.obliged {
            return true;
        }
        let mut options = Vec::new();
        self.mid_options(st, &mut options);
        // Latest first: a selection lists `stop` last, and stopping is the quickest way to a whole ply.
        options.into_iter().rev().any(|mv| {
            let mut next = st.probe_copy();
            self.step(&mut next, mv, true);
            self.probe_rest(&next, ply, budget)
        })
    }

    /// The look-ahead of an offer, which only ever adds pits to `offered`: searched on one copy of the
    /// position instead of a copy per step. `None` for any other move, and under an obligation (whose test
    /// at the end of the ply needs the whole machine).
    fn offer_completable_after(&self, st: &State, mv: Move) -> Option<bool> {
        if st.obliged {
            return None;
        }
        let (action, place) = match (st.stage, mv) {
            (Stage::Start, Move::Begin { action, place }) => (action, place),
            (Stage::Offer { action, .. }, Move::Pick(place)) => (action, place),
            _ => return None,
        };
        let ActionKind::Offer(offer) = &self.phase(st).actions.get(action as usize)?.kind else {
            return None;
        };
        let mut probe = st.probe_copy();
        if matches!(st.stage, Stage::Start) {
            probe.offered = 0;
        }
        probe.offered |= 1 << place;
        let prunes = self.offer_prunes[st.phase as usize][action as usize];
        let mut budget = MAX_PROBE_STEPS;
        Some(self.offer_completable(&mut probe, offer, prunes, place + 1, &mut budget))
    }

    /// Whether the offer in `offered` can be completed with pits at or after `from`, looking at no more than
    /// `budget` offers. `prunes`: a `require` that fails now fails with more pits too.
    fn offer_completable(&self, st: &mut State, offer: &Offer, prunes: bool, from: PlaceId, budget: &mut u32) -> bool {
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        if self.offer_can_stop(st, offer) {
            return true;
        }
        if prunes && st.offered.count_ones() >= offer.min {
            // Big enough, so a `require` failed: more pits cannot mend it.
            return false;
        }
        let mut picks = Places::default();
        self.offer_candidates(st, offer, from, |p| {
            picks.push(p);
        });
        picks.as_slice().iter().any(|&p| {
            st.offered |= 1 << p;
            let ok = self.offer_completable(st, offer, prunes, p + 1, budget);
            st.offered &= !(1 << p);
            ok
        })
    }

    // ------------------------------------------------------------ the turn machine

    /// Runs one decision. `probe`: we are only looking ahead, so the ply's aftermath (turn passing, end rules)
    /// is skipped.
    fn step(&self, st: &mut State, mv: Move, probe: bool) {
        if let (Stage::Start, Move::Begin { action: 0, place }) = (st.stage, mv) {
            if let Some(dir) = self.plain_sow[st.phase as usize] {
                return self.plain_ply(st, dir, place, probe);
            }
        }
        match (st.stage, mv) {
            (Stage::Respond, Move::Accept) => {
                self.accept_offer(st);
                self.end_ply(st, Next::Keep, probe);
            }
            (Stage::Respond, Move::Decline) => {
                st.offered = 0;
                self.end_ply(st, Next::Keep, probe);
            }
            (Stage::Start, Move::Pass) => self.end_ply(st, Next::Switch, probe),
            (Stage::Start, Move::Begin { action, place }) => self.begin(st, action, place, probe),
            (Stage::Direction { action }, Move::Direction(dir)) => self.start_sow(st, action, dir, probe),
            (Stage::Drop { action }, Move::Drop(kind)) => {
                self.drop_one(st, kind, self.sow_rule(st, action).skip_origin);
                self.continue_sow(st, action, probe);
            }
            (Stage::Take { action, mut cursor }, Move::Take { place, kind }) => {
                let take = &self.sow_rule(st, action).captures[cursor.rule as usize].takes[cursor.take as usize];
                let cx = Ctx::new(st.to_move).at(cursor.here);
                if let Some(to) = self.take_target(st, cx, take) {
                    self.move_pieces(st, place, to, 1u64 << kind, 1);
                }
                cursor.left = cursor.left.saturating_sub(1);
                cursor.min_choice = self.take_code(st, cx, take, place, kind);
                if cursor.left == 0 {
                    cursor.take += 1;
                }
                self.run_capture(st, action, cursor, probe);
            }
            (Stage::Then { action, .. }, Move::Pick(p)) => {
                if let Some(then) = &self.sow_rule(st, action).then {
                    self.then_take(st, then, p);
                }
                st.stage = Stage::Then { action, from: p + 1 };
                self.settle_selection(st, probe);
            }
            (Stage::Then { .. }, Move::Stop) => self.end_sow_turn(st, probe),
            (Stage::Put { action, done, .. }, Move::Pick(p)) => {
                self.put_once(st, action, p);
                st.stage = Stage::Put { action, done: done.saturating_add(1), from: p };
                self.settle_selection(st, probe);
            }
            (Stage::Put { .. }, Move::Stop) => self.end_ply(st, Next::Switch, probe),
            (Stage::Offer { action, .. }, Move::Pick(p)) => {
                st.offered |= 1 << p;
                st.stage = Stage::Offer { action, from: p + 1 };
                self.settle_selection(st, probe);
            }
            (Stage::Offer { .. }, Move::Stop) => self.end_ply(st, Next::Respond, probe),
            _ => st.illegal = true,
        }
    }

    /// A ply of a `plain_sow` phase: the sowing of `begin` .. `after_sow` without the checks for what such a
    /// sowing cannot have; captures and what follows take the general road.
    fn plain_ply(&self, st: &mut State, dir: Dir, place: PlaceId, probe: bool) {
        let sow = self.sow_rule(st, 0);
        st.origin = place;
        st.dir = dir;
        st.cursor = place;
        self.lift(st, place);
        self.drop_plain(st, sow.skip_origin);
        st.last = st.cursor;
        st.stage = Stage::Start;
        self.capture_after_sow(st, 0, sow, probe);
    }

    fn begin(&self, st: &mut State, action: u8, place: PlaceId, probe: bool) {
        let phase = self.phase(st);
        let Some(act) = phase.actions.get(action as usize) else {
            st.illegal = true;
            return;
        };
        match &act.kind {
            ActionKind::Sow(sow) => {
                st.origin = place;
                match sow.dir {
                    DirRule::Fixed(dir) => self.start_sow(st, action, dir, probe),
                    DirRule::Choose => st.stage = Stage::Direction { action },
                }
            }
            ActionKind::Put(_) => {
                self.put_once(st, action, place);
                st.stage = Stage::Put { action, done: 1, from: place };
                self.settle_selection(st, probe);
            }
            ActionKind::Offer(_) => {
                st.offered = 1 << place;
                st.stage = Stage::Offer { action, from: place + 1 };
                self.settle_selection(st, probe);
            }
        }
    }

    /// In a selection (`then may`, `put`, `offer`), stops by itself when stopping is the only option left.
    fn settle_selection(&self, st: &mut State, probe: bool) {
        let mut options = Vec::new();
        self.mid_options(st, &mut options);
        match options.as_slice() {
            [Move::Stop] => self.step(st, Move::Stop, probe),
            [] => st.illegal = true,
            _ => {}
        }
    }

    fn start_sow(&self, st: &mut State, action: u8, dir: Dir, probe: bool) {
        st.dir = dir;
        st.cursor = st.origin;
        if self.rules.needs.drops {
            st.dropped.fill(NO_KIND);
        }
        self.lift(st, st.origin);
        self.continue_sow(st, action, probe);
    }

    #[inline]
    fn lift(&self, st: &mut State, p: PlaceId) {
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
    fn continue_sow(&self, st: &mut State, action: u8, probe: bool) {
        let sow = self.sow_rule(st, action);
        if !self.drop_hand(st, action, sow) {
            return;
        }
        st.last = st.cursor;
        if sow.relay.is_some() && !self.relay(st, action, sow) {
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
    fn relay(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
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
            self.lift(st, last);
            if !self.drop_hand(st, action, sow) {
                return false;
            }
            st.last = st.cursor;
        }
        // Endless, or longer than any relay we follow: not a line of play.
        st.illegal = true;
        st.stage = Stage::Start;
        st.ply += 1;
        false
    }

    /// Drops the pieces in hand; returns false when it paused for the mover to choose the next kind.
    #[inline]
    fn drop_hand(&self, st: &mut State, action: u8, sow: &Sow) -> bool {
        if self.k == 1 && !self.rules.needs.drops {
            self.drop_plain(st, sow.skip_origin);
        } else if self.k == 1 {
            while st.hand[0] > 0 {
                self.drop_one(st, 0, sow.skip_origin);
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
                self.drop_one(st, kind, sow.skip_origin);
            }
        }
        true
    }

    /// Drops every seed in hand, one per place: the inner loop of plain games.
    #[inline]
    fn drop_plain(&self, st: &mut State, skip_origin: bool) {
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

    #[inline]
    fn drop_one(&self, st: &mut State, kind: u8, skip_origin: bool) {
        let row = (st.to_move as usize * 2 + st.dir as usize) * self.rules.places.len();
        let mut pos = self.rules.next[row + st.cursor as usize];
        if pos == st.origin && skip_origin {
            pos = self.rules.next[row + pos as usize];
        }
        let i = pos as usize * self.k + kind as usize;
        if self.rules.needs.drops {
            st.before[pos as usize] = self.count(st, pos);
            st.dropped[pos as usize] = kind;
        }
        st.counts[i] = st.counts[i].saturating_add(1);
        st.hand[kind as usize] -= 1;
        st.cursor = pos;
    }

    fn after_sow(&self, st: &mut State, action: u8, probe: bool) {
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

    /// The first capture rule whose condition holds at the end of the sowing, then what follows captures.
    #[inline(always)]
    fn capture_after_sow(&self, st: &mut State, action: u8, sow: &Sow, probe: bool) {
        let cx = Ctx::new(st.to_move).at(st.last);
        for (r, rule) in sow.captures.iter().enumerate() {
            if self.test(st, cx, &rule.when) {
                let cursor =
                    CaptureCursor { rule: r as u8, walk: 0, here: st.last, take: 0, left: 0, steps: 0, min_choice: 0 };
                return self.run_capture(st, action, cursor, probe);
            }
        }
        self.after_capture(st, action, sow, probe);
    }

    /// Applies the takes of a capture at each pit of its chain, pausing where the mover chooses a piece.
    fn run_capture(&self, st: &mut State, action: u8, mut cur: CaptureCursor, probe: bool) {
        let sow = self.sow_rule(st, action);
        let rule = &sow.captures[cur.rule as usize];
        let snapshot = rule.cancel.as_ref().map(|_| st.counts.clone());
        let mover = st.to_move;
        loop {
            while (cur.take as usize) < rule.takes.len() {
                let take = &rule.takes[cur.take as usize];
                let cx = Ctx::new(mover).at(cur.here);
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
                    return;
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
                        return;
                    }
                }
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
        if let (Some(cancel), Some(snapshot)) = (&rule.cancel, snapshot) {
            if self.test(st, Ctx::new(mover).at(st.last), cancel) {
                st.counts = snapshot;
                st.captured = false;
            }
        }
        st.stage = Stage::Start;
        self.after_capture(st, action, sow, probe);
    }

    /// The next pit of the chain, walking backward then forward from the last pit.
    fn next_chain_pit(&self, st: &State, rule: &CaptureRule, cur: &mut CaptureCursor) -> Option<PlaceId> {
        let chain = rule.chain.as_ref()?;
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
            if p != st.last && (cur.steps as usize) < n && self.test(st, Ctx::new(st.to_move).at(p), &chain.cond) {
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
    fn after_capture(&self, st: &mut State, action: u8, sow: &Sow, probe: bool) {
        let cx = Ctx::new(st.to_move).at(st.last);
        st.again = sow.again.as_ref().is_some_and(|c| self.test(st, cx, c));
        match &sow.then {
            Some(then) => self.then_after_sow(st, action, then, probe),
            None => self.end_sow_turn(st, probe),
        }
    }

    /// A sowing's `then`: taken at once when it must be, else chosen pit by pit.
    fn then_after_sow(&self, st: &mut State, action: u8, then: &ThenRule, probe: bool) {
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
        self.end_sow_turn(st, probe);
    }

    fn end_sow_turn(&self, st: &mut State, probe: bool) {
        let next = if st.again { Next::Keep } else { Next::Switch };
        self.end_ply(st, next, probe);
    }

    fn then_take(&self, st: &mut State, then: &ThenRule, p: PlaceId) {
        let cx = Ctx::new(st.to_move).at(p);
        let mask = self.kind_mask(st, cx, &then.kinds);
        if let Some(to) = self.place(st, cx, &then.to) {
            self.move_pieces(st, p, to, mask, u32::MAX);
        }
    }

    fn put_once(&self, st: &mut State, action: u8, p: PlaceId) {
        let ActionKind::Put(put) = &self.phase(st).actions[action as usize].kind else {
            return;
        };
        let cx = Ctx::new(st.to_move).at(p);
        let mask = self.kind_mask(st, cx, &put.kinds);
        if let Some(src) = self.place(st, cx, &put.from) {
            self.move_pieces(st, src, p, mask, put.count);
        }
    }

    fn accept_offer(&self, st: &mut State) {
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

    fn take_target(&self, st: &State, cx: Ctx, take: &TakeRule) -> Option<PlaceId> {
        match &take.to {
            TakeTo::Place(p) => self.place(st, cx, p),
            TakeTo::Each(_) => None,
        }
    }

    /// Moves the pieces of a (non-chosen) take; returns how many moved.
    fn take_all(&self, st: &mut State, cx: Ctx, take: &TakeRule) -> u32 {
        let mask = self.kind_mask(st, cx, &take.kinds);
        let limit = take.count.unwrap_or(u32::MAX);
        let mut targets = Places::default();
        match &take.to {
            TakeTo::Place(p) => targets.extend(self.place(st, cx, p)),
            TakeTo::Each(set) => self.for_each_in_set(st, cx, set, |p| targets.push(p)),
        }
        let mut moved = 0;
        for &to in targets.as_slice() {
            let mut left = limit;
            for group in self.source_groups(take) {
                let mut sources = Places::default();
                for set in group {
                    self.for_each_in_set(st, cx, set, |p| sources.push(p));
                }
                if sources.as_slice().iter().all(|&p| self.count_masked(st, p, mask) == 0) {
                    continue;
                }
                for &p in sources.as_slice() {
                    if left == 0 {
                        break;
                    }
                    let n = self.move_pieces(st, p, to, mask, left);
                    left -= n;
                    moved += n;
                }
                break;
            }
        }
        moved
    }

    /// Moves up to `limit` pieces of the kinds in `mask` from one place to another, kinds in order.
    fn move_pieces(&self, st: &mut State, from: PlaceId, to: PlaceId, mask: KindMask, limit: u32) -> u32 {
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
        }
        limit - left
    }

    // ------------------------------------------------------------ between plies

    fn end_ply(&self, st: &mut State, next: Next, probe: bool) {
        let mover = st.to_move;
        if st.obliged {
            if let Some(must) = &self.phase(st).must {
                if !self.test(st, Ctx::new(mover), &must.after) {
                    st.illegal = true;
                }
            }
        }
        st.ply += 1;
        st.stage = Stage::Start;
        if probe {
            return;
        }
        st.last_mover = mover;
        if st.captured {
            st.captures += 1;
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
        st.captured = false;
        st.again = false;
        st.obliged = false;
        self.advance_phase(st);
        self.begin_turn(st);
    }

    fn count_quiet_round(&self, st: &mut State, mover: u8) {
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

    fn complete_round(&self, st: &mut State) {
        if self.counts_turns(st) {
            return;
        }
        let active = self.active_mask(st);
        if st.round_seen & active == active {
            st.quiet += 1;
            st.round_seen = 0;
        }
    }

    fn counts_turns(&self, st: &State) -> bool {
        self.end_rules(st).any(|r| matches!(r, EndRule::Draw { rounds: false, .. }))
    }

    fn active_mask(&self, st: &State) -> u8 {
        let all = if self.rules.players >= 8 { u8::MAX } else { (1u8 << self.rules.players) - 1 };
        all & !st.eliminated
    }

    #[inline]
    fn advance_phase(&self, st: &mut State) {
        if self.rules.phases.len() == 1 {
            return;
        }
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

    fn end_rules<'a>(&'a self, st: &State) -> impl Iterator<Item = &'a EndRule> {
        self.rules.phases[st.phase as usize].end.items.iter().chain(self.rules.end.items.iter())
    }

    /// The end rules (in the order written), the ply limit, obligations, and whether the player to move can
    /// move at all, checked as a new turn begins.
    fn begin_turn(&self, st: &mut State) {
        if st.ply > 0 {
            if self.check_end_rules(st) {
                return;
            }
        } else if self.rules.needs.repetition {
            // The starting position counts for repetitions too.
            self.seen_before(st);
        }
        if st.ply >= self.limits[st.phase as usize] {
            return self.finish(st, EndReason::Limit);
        }
        if matches!(st.stage, Stage::Start) && !self.compute_obligation(st) {
            return self.finish(st, EndReason::Obligation);
        }
        if matches!(st.stage, Stage::Start) && !self.has_any_move(st) {
            self.finish(st, EndReason::Stuck);
        }
    }

    /// Returns true when the game ended. A player put out changes what the other rules see (the round set,
    /// the player to move), so after an elimination the end rules are looked at again from the first; players
    /// only ever leave, so this stops.
    fn check_end_rules(&self, st: &mut State) -> bool {
        let phase = &self.rules.phases[st.phase as usize];
        loop {
            let out_before = st.eliminated;
            for rules in [&phase.end.items, &self.rules.end.items] {
                for rule in rules {
                    if let Some(reason) = self.end_rule_fires(st, rule) {
                        self.finish(st, reason);
                        return true;
                    }
                }
            }
            if st.eliminated == out_before {
                return false;
            }
        }
    }

    /// Why the game ends by this end rule now, if it does.
    #[inline]
    fn end_rule_fires(&self, st: &mut State, rule: &EndRule) -> Option<EndReason> {
        let cx = Ctx::new(st.to_move);
        match rule {
            EndRule::When(c) => self.test(st, cx, c).then_some(EndReason::Condition),
            EndRule::Repetition => self.seen_before(st).then_some(EndReason::Repetition),
            EndRule::Stuck => (matches!(st.stage, Stage::Start) && !self.has_any_move(st)).then_some(EndReason::Stuck),
            EndRule::NobodyCanMove => {
                let st: &State = st;
                self.active_players(st).all(|p| !self.can_begin(st, p)).then_some(EndReason::NobodyCanMove)
            }
            EndRule::Draw { count, .. } => (st.quiet >= *count).then_some(EndReason::NoCapture),
            EndRule::Eliminate(c) => {
                // Everyone the rule takes out is found first, then taken out in turn.
                let out = self.active_players(st).filter(|&p| self.test(st, Ctx::new(p).bound(p), c));
                let out = out.fold(0u8, |bits, p| bits | 1 << p);
                (0..self.rules.players).filter(|p| out & (1 << p) != 0).find_map(|p| self.eliminate(st, p))
            }
            EndRule::EliminateStuck => {
                let mut reason = None;
                while reason.is_none() && matches!(st.stage, Stage::Start) && !self.can_begin(st, st.to_move) {
                    let p = st.to_move;
                    reason = self.eliminate(st, p);
                }
                reason
            }
        }
    }

    /// Takes a player out; returns `LastStanding` when only one is left.
    fn eliminate(&self, st: &mut State, p: u8) -> Option<EndReason> {
        st.eliminated |= 1 << p;
        st.round_seen &= !(1 << p);
        if self.rules.needs.rounds {
            self.complete_round(st);
        }
        if st.to_move == p {
            st.to_move = self.next_active(st, p);
        }
        (self.rules.players > 1 && self.active_mask(st).count_ones() <= 1).then_some(EndReason::LastStanding)
    }

    /// Whether `player`, were it his turn, could start an action (passing aside).
    fn can_begin(&self, st: &State, player: u8) -> bool {
        // Without look-ahead, a start is a start: nothing to play out on a copy.
        if self.probe_free[st.phase as usize] {
            let actions = self.phase(st).actions.iter().enumerate();
            return actions.into_iter().any(|(a, action)| !self.each_begin_for(st, player, a as u8, action, |_| false));
        }
        let mut probe = st.probe_copy();
        probe.to_move = player;
        probe.stage = Stage::Start;
        probe.obliged = false;
        let mut out = Vec::new();
        self.start_options(&probe, &mut out, false);
        !out.is_empty()
    }

    fn has_any_move(&self, st: &State) -> bool {
        if self.plain_starts[st.phase as usize] && !st.obliged && matches!(st.stage, Stage::Start) {
            let pits = self.fixed_pits_of(st.to_move);
            return pits.iter().any(|&p| st.counts[p as usize] > 0);
        }
        let phase = self.phase(st);
        // With a pass rule there is always a move: an action, or else the pass.
        if phase.pass.is_some() && matches!(st.stage, Stage::Start) && !st.obliged {
            return true;
        }
        let simple = !st.obliged && matches!(st.stage, Stage::Start) && self.probe_free[st.phase as usize];
        if simple {
            return phase
                .actions
                .iter()
                .enumerate()
                .any(|(a, action)| !self.each_begin(st, a as u8, action, |_| false));
        }
        let mut out = Vec::new();
        self.start_options(st, &mut out, true);
        !out.is_empty()
    }

    /// Sets `obliged` for the mover; returns false when an obligation with `else end` cannot be met.
    #[inline]
    fn compute_obligation(&self, st: &mut State) -> bool {
        let Some(must) = &self.phase(st).must else {
            return true;
        };
        st.obliged = false;
        if !self.test(st, Ctx::new(st.to_move), &must.when) {
            return true;
        }
        st.obliged = true;
        let mut out = Vec::new();
        self.start_options(st, &mut out, false);
        if out.is_empty() {
            st.obliged = false;
            return !must.otherwise_end;
        }
        true
    }

    fn seen_before(&self, st: &mut State) -> bool {
        // Where pieces never come back onto the board, their number there never goes up: a position with
        // another number cannot come back, and the history can start afresh.
        if !self.rules.needs.refills {
            let n = self.rules.n_pits * self.k;
            let total: u32 = st.counts[..n].iter().map(|&c| c as u32).sum();
            if total != st.history_total {
                st.history.clear();
                st.history_total = total;
            }
        }
        let flags = [st.to_move, st.phase, st.eliminated, (matches!(st.stage, Stage::Respond)) as u8];
        let key = hash_parts(&[&st.counts, &st.owner, &flags], st.offered);
        if st.history.contains(&key) {
            return true;
        }
        st.history.push(key);
        false
    }

    /// Ends the game: sweeps the board, scores, and decides the winners.
    fn finish(&self, st: &mut State, reason: EndReason) {
        let phase_sweeps = &self.rules.phases[st.phase as usize].end.sweeps;
        for (set, to) in phase_sweeps.iter().chain(&self.rules.end.sweeps) {
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
        let scores: Vec<i32> =
            (0..self.rules.players).map(|p| self.num(st, Ctx::new(p).bound(p), &self.rules.score)).collect();
        let winners = self.winners(st, reason, &scores);
        st.stage = Stage::Start;
        st.result = Some(Outcome { winners, scores, reason });
    }

    fn winners(&self, st: &State, reason: EndReason, scores: &[i32]) -> u8 {
        if let Some(goal) = &self.rules.goal {
            return if self.test(st, Ctx::new(0), goal) { 1 } else { 0 };
        }
        match reason {
            EndReason::NoCapture => return 0,
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

/// A few places, on the stack: the hot paths collect places without allocating.
struct Places {
    items: [PlaceId; 64],
    len: usize,
}

impl Default for Places {
    fn default() -> Self {
        Places { items: [0; 64], len: 0 }
    }
}

impl Places {
    /// Adds a place; returns false (stop) when full, which no board of at most 64 pits reaches.
    fn push(&mut self, p: PlaceId) -> bool {
        if self.len < self.items.len() {
            self.items[self.len] = p;
            self.len += 1;
        }
        self.len < self.items.len()
    }
    fn extend(&mut self, p: Option<PlaceId>) {
        if let Some(p) = p {
            self.push(p);
        }
    }
    fn as_slice(&self) -> &[PlaceId] {
        &self.items[..self.len]
    }
}

/// The order in which the pieces of one capture are chosen: by group of places, place, kind.
/// A sowing with nothing to decide or check between its start and its captures.
fn is_plain_sow(sow: &Sow) -> bool {
    is_plain_start(sow)
        && !sow.lookahead
        && sow.relay.is_none()
        && sow.require.is_none()
        && sow.then.is_none()
        && matches!(sow.dir, DirRule::Fixed(_))
}

/// A sowing that may start from any non-empty pit of the mover, whatever it holds.
fn is_plain_start(sow: &Sow) -> bool {
    matches!((&sow.from, &sow.filter, sow.last_own), (Set::PitsOf(PlayerExpr::Mover), Cond::True, false))
}

fn choice_code(group: usize, place: PlaceId, kind: u8) -> u32 {
    ((group as u32) << 24) | ((place as u32) << 6) | kind as u32
}

/// The key of a position within a relay: everything its next lap depends on (the pieces, the pit to lift
/// from, and the records of this move's drops, which a relay condition may read).
fn relay_key(st: &State) -> u64 {
    hash_parts(&[&st.counts, &st.before, &st.dropped], st.last as u64)
}

/// FNV-1a over byte slices and one extra word: a cheap, stable position key.
fn hash_parts(parts: &[&[u8]], extra: u64) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in parts.iter().flat_map(|p| p.iter()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    for b in extra.to_le_bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}
