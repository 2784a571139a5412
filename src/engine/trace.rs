//! The account of a ply step by step, with the rule that made each step: for `explain` and the rule counts
//! of `simulate`, never for play.
//!
//! An engine `with_trace` plays every ply through the general stages (as `without_fast_paths`), and where
//! a step is made (a lap lifted, a piece dropped, a capture, the opponent's answer, a relay, another turn, an
//! end rule tested, a sweep, a round's end, a refill, the next round, a `then` take, a `then mark`) it writes
//! down an [`Event`]. Only the position that `trace` names is followed, so the copies that
//! look-ahead plays write nothing. In play the engine has no trace: each of these places costs a test of
//! one field that is `None`.

use std::sync::{Arc, Mutex};

use serde::Serialize;

use crate::ir::*;

use super::{Engine, State};

/// A step of a ply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "step", rename_all = "snake_case")]
pub enum Event {
    /// An action begun at `place`: its rule is the action (for a sowing, its `from`).
    Begin { rule: RuleRef, place: PlaceId },
    /// After a take made before the sowing (the `Begin` at the pit taken from), the pit sown from.
    SowFrom { place: PlaceId },
    /// The pieces of lap `lap` lifted for the pit `pit`, from `from` (the pit itself unless a `lift` rule
    /// names another place); `rule` is the `lift` rule that said how many, else the action or relay.
    Lift { lap: u32, pit: PlaceId, from: PlaceId, rule: RuleRef },
    /// A piece of kind `kind` dropped into `place`, and sent on from there to `into` by a marked pit
    /// (`divert`); `into` is `place` otherwise.
    Drop { place: PlaceId, into: PlaceId, kind: u8 },
    /// A capture at `at`: what it takes is what changes from here to the next step.
    Capture { rule: RuleRef, at: PlaceId },
    /// The opponent's answer (`opponent may`) made at `at`, the last place, at the pit he chose (`pit`, for an
    /// answer that takes from a chosen pit): what it takes is what changes from here to the next step.
    Answer { rule: RuleRef, at: PlaceId, pit: Option<PlaceId> },
    /// A capture undone by its `cancel`.
    Cancel { rule: RuleRef },
    /// The pieces a capture took to the hand are sown on from `from`.
    Resow { from: PlaceId },
    /// After a capture, the lap ends again at `at` (`continue at`).
    ContinueAt { at: PlaceId },
    /// A relay lifts `pit` and sows on.
    Relay { rule: RuleRef, pit: PlaceId },
    /// The mover plays again.
    Again { rule: RuleRef },
    /// An end rule tested as a turn begins, and whether it held.
    EndRule { rule: RuleRef, held: bool },
    /// A sweep at the end: what it moves is what changes from here to the next step.
    Sweep { rule: RuleRef },
    /// A round of a match is over, its sweeps made: round `round` (from 1), with these scores.
    RoundEnds { round: u32, scores: Vec<i32> },
    /// A refill between two rounds: what it moves is what changes from here to the next step.
    Refill { rule: RuleRef },
    /// The next round begins, `starter` (from 0) to move: round `round` (from 1).
    NextRound { round: u32, starter: u8 },
    /// A capture or relay rule of the sowing whose condition did not hold at `at`, the last pit of the move
    /// (told when nothing happened there after the last drop).
    NotHeld { rule: RuleRef, at: PlaceId },
    /// A sowing's `then may take` or `then must take` takes from `pit`: what it takes (and where to) is
    /// what changes from here to the next step. One step per pit taken.
    ThenTake { rule: RuleRef, pit: PlaceId },
    /// A sowing's `then mark` marks `pits` (those of its set that passed its condition), as mark `mark`,
    /// for seat `player` (from 0) when the mark is carried for a player.
    ThenMark { rule: RuleRef, mark: MarkId, pits: Vec<PlaceId>, player: Option<u8> },
}

/// A step and the pieces everywhere when it was written down (`State::counts`), and the marks of the pits
/// (`State::marks`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Traced {
    #[serde(flatten)]
    pub event: Event,
    pub counts: Vec<u8>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub marks: Vec<u8>,
}

/// The steps written down, and the position they are written for (its address: a copy made to look ahead
/// is another position).
#[derive(Debug, Default)]
pub(crate) struct Trace {
    target: usize,
    steps: Vec<Traced>,
    /// Only count the rules that fire (`with_rule_counts`), writing no step down.
    counting: bool,
    counts: RuleCounts,
}

/// How often each rule fired in the plies followed (`Engine::with_rule_counts`): each action begun, capture,
/// answer made, relay, another turn, end rule that held, sweep, pit taken by a `then` take and `then mark`
/// that marked a pit; and the end rule that ended the game, if one did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RuleCounts {
    pub fired: std::collections::BTreeMap<RuleRef, u64>,
    pub ended_by: Option<RuleRef>,
}

pub(crate) type TraceLog = Arc<Mutex<Trace>>;

impl Engine {
    /// The same engine, writing down the steps of the plies of the position named by [`Engine::trace`].
    /// It plays every ply through the general stages, as [`Engine::without_fast_paths`] does.
    pub fn with_trace(self) -> Engine {
        let mut engine = self.without_fast_paths();
        engine.trace = Some(Arc::default());
        engine
    }

    /// The same engine, counting the rules that fire in the plies of the position named by
    /// [`Engine::trace`] (see [`RuleCounts`]) instead of writing the steps down. Like `with_trace`, it takes
    /// the general stages only.
    pub fn with_rule_counts(self) -> Engine {
        let engine = self.with_trace();
        if let Some(Ok(mut t)) = engine.trace.as_ref().map(|t| t.lock()) {
            t.counting = true;
        }
        engine
    }

    /// Follows `st` from now on (and no other position), with no step written down nor rule counted yet.
    pub fn trace(&self, st: &State) {
        if let Some(Ok(mut t)) = self.trace.as_ref().map(|t| t.lock()) {
            t.target = st as *const State as usize;
            t.steps.clear();
            t.counts = RuleCounts::default();
        }
    }

    /// The rules counted since `trace` or the last call.
    pub fn take_rule_counts(&self) -> RuleCounts {
        match self.trace.as_ref().map(|t| t.lock()) {
            Some(Ok(mut t)) => std::mem::take(&mut t.counts),
            _ => RuleCounts::default(),
        }
    }

    /// The steps written down since `trace` or the last call.
    pub fn take_trace(&self) -> Vec<Traced> {
        match self.trace.as_ref().map(|t| t.lock()) {
            Some(Ok(mut t)) => std::mem::take(&mut t.steps),
            _ => Vec::new(),
        }
    }

    /// Writes a step down if `st` is the position followed. Callers test `self.trace.is_some()` first.
    #[cold]
    #[inline(never)]
    pub(super) fn note(&self, st: &State, event: Event) {
        let Some(Ok(mut t)) = self.trace.as_ref().map(|t| t.lock()) else { return };
        if t.target != st as *const State as usize {
            return;
        }
        if !t.counting {
            return t.steps.push(Traced { event, counts: st.counts.clone(), marks: st.marks.clone() });
        }
        let fired = match event {
            Event::Begin { rule, .. }
            | Event::Capture { rule, .. }
            | Event::Answer { rule, .. }
            | Event::Relay { rule, .. }
            | Event::Again { rule }
            | Event::EndRule { rule, held: true }
            | Event::Sweep { rule }
            | Event::Refill { rule }
            | Event::ThenTake { rule, .. }
            | Event::ThenMark { rule, .. } => rule,
            _ => return,
        };
        *t.counts.fired.entry(fired).or_default() += 1;
        if matches!(event, Event::EndRule { .. }) {
            t.counts.ended_by = Some(fired);
        }
    }

    /// How many steps are written down: a trial on the followed position itself (a lap tried the other
    /// way) forgets its steps with [`Engine::forget_since`].
    #[cold]
    pub(super) fn steps_noted(&self) -> usize {
        self.trace.as_ref().and_then(|t| t.lock().ok().map(|t| t.steps.len())).unwrap_or(0)
    }

    #[cold]
    pub(super) fn forget_since(&self, n: usize) {
        if let Some(Ok(mut t)) = self.trace.as_ref().map(|t| t.lock()) {
            t.steps.truncate(n);
        }
    }

    /// The end rule tested at every lap that holds at the end of this lap, as a step.
    pub(super) fn note_lap_end(&self, st: &State) {
        let cx = super::Ctx::new(st.to_move);
        let phase = &self.rules.phases[st.phase as usize];
        for (of, rules) in [(Some(st.phase), &phase.end.items), (None, &self.rules.end.items)] {
            for (index, rule) in rules.iter().enumerate() {
                if matches!(rule, EndRule::AtEveryLap(c) if self.test(st, cx, c)) {
                    let rule = RuleRef::End { phase: of, index: index as u8 };
                    return self.note(st, Event::EndRule { rule, held: true });
                }
            }
        }
    }

    /// The index of a sowing among its phase's actions (for the rule of a step), found by address: the
    /// sowing rules are the engine's own.
    pub(super) fn action_of(&self, st: &State, sow: &Sow) -> u8 {
        let actions = &self.phase(st).actions;
        let i = actions.iter().position(|a| matches!(&a.kind, ActionKind::Sow(s) if std::ptr::eq(s, sow)));
        i.unwrap_or(0) as u8
    }

    /// As a sowing ends, when nothing happened at its last pit after the last drop: its capture and relay
    /// rules whose condition does not hold there, as steps (why it did not capture or relay). Only when steps
    /// are written down (not when rules are counted).
    #[cold]
    #[inline(never)]
    pub(super) fn note_not_held(&self, st: &State, action: u8, sow: &Sow) {
        {
            let Some(Ok(t)) = self.trace.as_ref().map(|t| t.lock()) else { return };
            let last_is_drop = matches!(t.steps.last(), Some(Traced { event: Event::Drop { .. }, .. }));
            if t.counting || t.target != st as *const State as usize || !last_is_drop {
                return;
            }
        }
        let (phase, at) = (st.phase, st.last);
        let cx = super::Ctx::new(st.to_move).at(at);
        for (index, rule) in sow.captures.iter().enumerate() {
            if !self.test(st, cx, &rule.when) {
                let rule = RuleRef::Capture { phase, action, index: index as u8 };
                self.note(st, Event::NotHeld { rule, at });
            }
        }
        let on_board = (at as usize) < self.rules.n_pits;
        if sow.relay_may.as_ref().is_some_and(|r| !on_board || !self.test(st, cx, r)) {
            self.note(st, Event::NotHeld { rule: RuleRef::RelayMay { phase, action }, at });
        }
        if sow.relay.is_some() && self.relay_pit(st, cx, sow).is_none() {
            self.note(st, Event::NotHeld { rule: RuleRef::Relay { phase, action }, at });
        }
    }

    /// A `then` take from `p` about to be made, as a step. Its sowing is found by the address of its rule.
    #[cold]
    #[inline(never)]
    pub(super) fn note_then_take(&self, st: &State, then: &ThenRule, p: PlaceId) {
        let actions = &self.phase(st).actions;
        let action = actions.iter().position(
            |a| matches!(&a.kind, ActionKind::Sow(s) if s.then.as_ref().is_some_and(|t| std::ptr::eq(t, then))),
        );
        let rule = RuleRef::Then { phase: st.phase, action: action.unwrap_or(0) as u8 };
        self.note(st, Event::ThenTake { rule, pit: p });
    }

    /// The `then mark` number `index` of `sow` just made, marking the pits of `picks` for `cell` (the seat
    /// plus one, or 1 for a mark carried for nobody), as a step.
    #[cold]
    #[inline(never)]
    pub(super) fn note_then_mark(&self, st: &State, sow: &Sow, index: usize, picks: PitSet, cell: u8) {
        let rule = RuleRef::ThenMark { phase: st.phase, action: self.action_of(st, sow), index: index as u8 };
        let mark = sow.then_marks[index].mark;
        let pits = (0..self.rules.n_pits as PlaceId).filter(|&p| picks & (1 << p) != 0).collect();
        let player = sow.then_marks[index].player.as_ref().map(|_| cell.wrapping_sub(1));
        self.note(st, Event::ThenMark { rule, mark, pits, player });
    }

    /// The lift of a lap from pit `p` about to be made, as a step: from where, by which rule (`otherwise`
    /// when no `lift` rule applies). Made before the lift, whose `lift` rule is tested on the pit as it is.
    pub(super) fn lift_event(&self, st: &State, sow: &Sow, p: PlaceId, otherwise: RuleRef) -> Event {
        let cx = super::Ctx::new(st.to_move).at(p);
        let (phase, action) = (st.phase, self.action_of(st, sow));
        let lap = st.lap;
        match sow.lifts.iter().position(|l| self.test(st, cx, &l.when)) {
            Some(i) => {
                let from = sow.lifts[i].from.as_ref().and_then(|place| self.place(st, cx, place)).unwrap_or(p);
                Event::Lift { lap, pit: p, from, rule: RuleRef::Lift { phase, action, index: i as u8 } }
            }
            None => Event::Lift { lap, pit: p, from: p, rule: otherwise },
        }
    }
}
