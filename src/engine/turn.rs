//! The turn machine: one decision handed to the stage it answers, and the selections that stop by
//! themselves when stopping is all that is left.

use crate::ir::*;

use super::{CaptureCursor, Ctx, Engine, Move, Next, Stage, State};

impl Engine {
    /// Runs one decision. `probe`: we are only looking ahead, so the ply's aftermath (turn passing, end rules)
    /// is skipped.
    pub(super) fn step(&self, st: &mut State, mv: Move, probe: bool) {
        if !probe && self.try_whole_ply(st, mv) {
            return;
        }
        if let (Stage::Start, Move::Begin { action: 0, place }) = (st.stage, mv) {
            if let Some(dir) = self.phase_plan(st).plain_sow {
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
            (Stage::SowFrom { action }, Move::Pick(place)) => {
                if self.trace.is_some() {
                    self.note(st, super::Event::SowFrom { place });
                }
                st.stage = Stage::Start;
                self.begin_sow(st, action, self.sow_rule(st, action), place, probe);
            }
            (Stage::Direction { action }, Move::Direction(dir)) => self.start_sow(st, action, dir, probe),
            (Stage::LapDirection { action }, Move::Direction(dir)) => {
                st.dir = dir;
                st.stage = Stage::Start;
                self.continue_sow(st, action, probe);
            }
            (Stage::Drop { action }, Move::Drop(kind)) => {
                self.drop_one(st, kind, self.sow_rule(st, action));
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
            (Stage::Then { action, .. }, Move::Stop) => self.end_sow_turn(st, self.sow_rule(st, action), probe),
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
            (Stage::Relay { action }, Move::Relay(relay)) => self.answer_relay(st, action, relay, probe),
            (Stage::Answer { action, rule }, Move::Answer(make))
                if !make || self.sow_rule(st, action).answers[rule as usize].pick.is_none() =>
            {
                self.opponents_answer(st, action, rule, make, probe)
            }
            (Stage::Answer { action, rule }, Move::Pick(pit)) => self.opponents_pick(st, action, rule, pit, probe),
            (Stage::LiftPick { action, rule, chosen }, Move::Pick(pit)) => {
                self.lift_pick(st, action, rule, pit, chosen, probe)
            }
            (Stage::Capture { action, rule }, Move::Capture(make)) => {
                let sow = self.sow_rule(st, action);
                st.stage = Stage::Start;
                if sow.laps {
                    self.answer_lap_capture(st, action, rule, make, probe);
                } else if make {
                    self.run_capture(st, action, CaptureCursor::at(rule, st.last), probe);
                } else {
                    self.capture_from(st, action, sow, rule as usize + 1, probe);
                }
            }
            _ => st.illegal = true,
        }
    }

    pub(super) fn begin(&self, st: &mut State, action: u8, place: PlaceId, probe: bool) {
        if self.trace.is_some() {
            self.note(st, super::Event::Begin { rule: RuleRef::Action { phase: st.phase, action }, place });
        }
        let phase = self.phase(st);
        let Some(act) = phase.actions.get(action as usize) else {
            st.illegal = true;
            return;
        };
        match &act.kind {
            ActionKind::Sow(sow) => match &sow.take_first {
                Some(take) => {
                    self.take_action(st, take, place);
                    st.stage = Stage::SowFrom { action };
                    let any = super::probe::with_list(|options| {
                        self.mid_options(st, options);
                        !options.is_empty()
                    });
                    st.illegal |= !any;
                }
                None => self.begin_sow(st, action, sow, place, probe),
            },
            ActionKind::Take(take) => {
                self.take_action(st, take, place);
                self.end_ply(st, Next::Switch, probe);
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

    /// A sowing from `place`, begun.
    fn begin_sow(&self, st: &mut State, action: u8, sow: &Sow, place: PlaceId, probe: bool) {
        st.origin = place;
        st.start = place;
        st.before_sowing = false;
        match sow.dir {
            DirRule::Fixed(dir) => self.start_sow(st, action, dir, probe),
            DirRule::Choose => st.stage = Stage::Direction { action },
            DirRule::PerLap(usual) => self.start_lap_sow(st, action, usual, probe),
        }
    }

    /// In a selection (`then may`, `put`, `offer`), stops by itself when stopping is the only option left.
    pub(super) fn settle_selection(&self, st: &mut State, probe: bool) {
        let only = super::probe::with_list(|options| {
            self.mid_options(st, options);
            match options.as_slice() {
                [Move::Stop] => Some(true),
                [] => Some(false),
                _ => None,
            }
        });
        match only {
            Some(true) => self.step(st, Move::Stop, probe),
            Some(false) => st.illegal = true,
            None => {}
        }
    }
}
