//! The engine: legal moves, moves applied, outcomes. General over every construct of the language.
//!
//! A turn runs as a small state machine (`Stage`): it pauses wherever the mover has a real choice (a
//! direction, the kind of the next piece, a piece to take, further pits to select) and runs straight through
//! everything else. The engine is sans-IO and deterministic; randomness comes from the caller.
//!
//! Legality that depends on how a move plays out (`require`, relay loops, `must`) is decided by probing:
//! the candidate is played on a copy until the ply ends. Only rules that need it pay for it.

mod capture;
mod compile;
mod end;
mod eval;
mod fast;
mod marks;
mod moves;
mod offer;
mod plan;
mod probe;
mod put;
mod sow;
mod state;
mod trace;
mod turn;
mod ways;

use std::fmt;

use crate::ir::*;

pub(crate) use eval::Ctx;
pub use state::{CaptureCursor, EndReason, Move, Outcome, RoundResult, Rounds, Stage, State, KEPT_ROUNDS};
pub use trace::{Event, RuleCounts, Traced};

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
    /// The rules' conditions, compiled (`Cond::Compiled(i)` is `compiled.0[i]`).
    pub(crate) compiled: Compiled,
    /// Per phase, everything known of it before play (`plan::PhasePlan`).
    phases: Vec<plan::PhasePlan>,
    /// Some mark lasts one ply only: a ply's start clears it.
    ply_marks: bool,
    /// Some phase has `again when`.
    phase_again: bool,
    /// The marks lost when their pit is emptied (`until empty`); none in most games.
    empty_marks: Vec<MarkId>,
    /// The marks `for N plies`, with their N; none in most games.
    timed_marks: Vec<(MarkId, u32)>,
    /// Some rule reads `taken_first` or `threats`: the first capture of each ply records its pits.
    record_first: bool,
    /// For the narration only: where each lap of a sowing of laps went (`with_lap_log`); `None` in play.
    lap_log: Option<std::sync::Arc<std::sync::Mutex<LapLog>>>,
    /// For `explain` and `simulate`'s rule counts only: the steps of the plies of one position
    /// (`with_trace`); `None` in play.
    trace: Option<trace::TraceLog>,
    /// The starts of a plain sowing where pits change hands are read off the owners and counts
    /// (`fast::each_owned_start`) instead of walking the set `pits(mover)`.
    owned_starts: bool,
    /// Each player's fixed pits as words of `counts` (one kind of piece), for the plans' end rules.
    pit_words: Vec<fast::PitWords>,
    /// Tells this engine's rules from those of every other engine made (its clones share them), for what
    /// is remembered across calls (`ways::FirstLaps`).
    id: u64,
    /// What first laps found in a position is remembered for the next question about it (`ways::FirstLaps`).
    first_lap_memo: bool,
    /// A first lap tried on a copy is undone by putting back only what it can change, where that is little
    /// (`ways::first_lap_undoable`), instead of copying the whole position again.
    quick_first_laps: bool,
}

/// The number of engines made so far: the next one's `id`.
static ENGINES_MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// One lap of a sowing of laps, as the narration tells it: its origin and direction, where it ended, the
/// pieces everywhere then, and, when a capture applied there, the pieces everywhere after it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LapRecord {
    pub origin: PlaceId,
    pub dir: Dir,
    pub last: PlaceId,
    pub counts: Vec<u8>,
    pub captured: Option<Vec<u8>>,
    /// Not a lap sown but the lap ending again at `last` after a capture (`continue at`).
    pub goes_on: bool,
    /// The pieces the lap lifted, per kind, and the place they came from (the lap's pit, or the place of a
    /// `lift N from PLACE`); empty for a lap not lifted (a capture's pieces sown on).
    pub lifted: Vec<u8>,
    pub lifted_from: Option<PlaceId>,
    /// The lap is a relay the mover chose (`relay may`).
    pub chosen: bool,
}

/// The laps written down, and what the lap being sown lifted (until it ends).
#[derive(Debug, Default)]
pub(crate) struct LapLog {
    laps: Vec<LapRecord>,
    /// The lap in hand: its pit and number, what it lifted and from where, and whether the mover chose it.
    lift: Option<(PlaceId, u32, PlaceId, Vec<u8>, bool)>,
    /// The last lift of any lap, look-ahead on copies included: the sowing's own stage makes it the lap in
    /// hand (`keep_lift`) where it is not a probe.
    candidate: Option<(PlaceId, u32, PlaceId, Vec<u8>, bool)>,
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
/// ENGINE-1: under a rule about never-ending moves (`draw`, `eliminate` or `cut when endless`), a move of more
/// laps than this never ends; it is played up to there, and the rule decides what follows.
pub const ENDLESS_LAPS: u32 = 10_000;
/// The most continuations looked at to decide whether one move can be completed into a legal ply: a move
/// that needs more is not offered. This bounds the work of a decision where a rule makes the look-ahead
/// combinatorial; shipped games need at most a few dozen.
pub const MAX_PROBE_STEPS: u32 = 10_000;
/// The most decisions looked ahead in one line of a ply: a move needing more is not offered. This bounds the
/// depth of the look-ahead (and its stack) where decisions could go on and on, as a relay whose every lap
/// chooses its direction; shipped games need at most a few dozen (a Gulek sowing picks each ball's colour).
pub const MAX_PROBE_DEPTH: u32 = 1_000;
/// The default ply limit of a game whose file sets none: a guard, never meant to decide a real game.
pub const DEFAULT_LIMIT: u32 = 20_000;
/// The most positions `repetition` remembers (512 KiB of keys): past it, the older half is forgotten, so
/// that a round that never repeats keeps bounded memory up to its ply limit. Shipped games keep fewer than
/// 1,024 in 300 random games of each.
pub const MAX_HISTORY: usize = 1 << 16;

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
        let owners_change = rules.owners_can_change();
        let fixed_pits = (!owners_change).then(|| {
            (0..rules.players)
                .map(|p| (0..rules.n_pits as PlaceId).filter(|&i| rules.initial_owner[i as usize] == p).collect())
                .collect()
        });
        let shape = compile::Shape {
            plain: k == 1,
            fixed_pits: fixed_pits.clone(),
            n_pits: rules.n_pits,
            places: rules.places.len(),
            regions: rules.regions.clone(),
        };
        let written: Vec<plan::Written> = (0..rules.phases.len()).map(|p| plan::Written::of(&rules, p)).collect();
        // Under a rule about never-ending moves a sowing that would never end is played (and cut) instead of
        // being illegal, so a relay or a capture that sows on no longer makes the legality of a start depend
        // on how it plays out: only a `require` still does, a take before the sowing, which is offered only
        // where a sowing can follow it (§9.2), and a lift from another place, which may lift nothing (§9.1);
        // only they are looked ahead.
        for (phase, _) in rules.phases.iter_mut().zip(&written).filter(|(_, w)| w.endless_played()) {
            for action in &mut phase.actions {
                if let ActionKind::Sow(sow) = &mut action.kind {
                    sow.lookahead &= sow.require.is_some() || sow.take_first.is_some() || sow.may_lift_nothing();
                }
            }
        }
        let phase_again = rules.phases.iter().any(|p| p.again.is_some());
        let (table, sources) = compile::compile_rules(&mut rules, &shape);
        let compiled = Compiled(table, sources);
        let basics = plan::Basics { rules: &rules, compiled: &compiled, k, fixed_pits: fixed_pits.as_ref() };
        let phases = written.into_iter().enumerate().map(|(p, w)| plan::PhasePlan::new(&basics, p, w)).collect();
        let ply_marks = rules.marks.iter().any(|m| m.one_ply);
        let empty_marks = (0..rules.marks.len() as MarkId).filter(|&m| rules.marks[m as usize].until_empty).collect();
        let timed_marks = (0..rules.marks.len() as MarkId)
            .filter_map(|m| Some((m, rules.marks[m as usize].plies)).filter(|&(_, n)| n > 0))
            .collect();
        let record_first = rules.needs.taken_first;
        let mut engine = Engine {
            rules,
            lowered,
            k,
            all_kinds,
            colour_masks,
            fixed_pits,
            compiled,
            phases,
            phase_again,
            empty_marks,
            timed_marks,
            record_first,
            lap_log: None,
            trace: None,
            ply_marks,
            owned_starts: true,
            pit_words: Vec::new(),
            id: ENGINES_MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            first_lap_memo: true,
            quick_first_laps: true,
        };
        if let (Some(pits), 1) = (&engine.fixed_pits, engine.k) {
            let len = engine.rules.places.len();
            engine.pit_words = pits.iter().map(|own| fast::PitWords::new(own, len)).collect();
        }
        for phase in 0..engine.phases.len() {
            engine.complete_plan(phase);
        }
        engine
    }

    /// The same engine, writing down each lap of its sowings of laps (see `lap_log`), for the narration.
    #[doc(hidden)]
    pub fn with_lap_log(mut self) -> Engine {
        self.lap_log = Some(Default::default());
        self
    }

    /// The laps written down since the last call, and a fresh log.
    #[doc(hidden)]
    pub fn take_lap_log(&self) -> Vec<LapRecord> {
        self.lap_log
            .as_ref()
            .map_or_else(Vec::new, |log| log.lock().map(|mut l| std::mem::take(&mut l.laps)).unwrap_or_default())
    }

    /// What the last lap lifted that no lap's end has taken yet (a sowing of one lap, which writes down no
    /// laps): the place the pieces came from and the pieces, per kind.
    #[doc(hidden)]
    pub fn last_lift(&self) -> Option<(PlaceId, Vec<u8>)> {
        let log = self.lap_log.as_ref()?.lock().ok()?;
        log.lift.as_ref().map(|(_, _, from, lifted, _)| (*from, lifted.clone()))
    }

    /// Writes down what the lap about to be sown from `pit` lifted: the pieces now in hand, more than
    /// `hand_before`, from the place whose count went down (the pit, or a `lift ... from` place).
    #[cold]
    pub(crate) fn log_lift(&self, st: &State, pit: PlaceId, hand_before: &[u8], counts_before: &[u8]) {
        let Some(log) = &self.lap_log else { return };
        let Ok(mut log) = log.lock() else { return };
        let lifted: Vec<u8> = st.hand.iter().zip(hand_before).map(|(a, b)| a.saturating_sub(*b)).collect();
        let k = self.k.max(1);
        let from = (0..counts_before.len() / k)
            .find(|&p| (0..k).any(|i| st.counts[p * k + i] < counts_before[p * k + i]))
            .map_or(pit, |p| p as PlaceId);
        log.candidate = Some((pit, st.lap, from, lifted, false));
    }

    /// Makes the last lift written down the lap in hand's: the lap just lifted by the sowing itself, not by a
    /// probe. `chosen`: a relay the mover chose (`relay may`).
    #[cold]
    pub(crate) fn keep_lift(&self, chosen: bool) {
        let Some(log) = &self.lap_log else { return };
        let Ok(mut log) = log.lock() else { return };
        log.lift = log.candidate.take().map(|mut lift| {
            lift.4 = chosen;
            lift
        });
    }

    /// Writes down the end of a lap, or (`captured`) the capture that followed it.
    #[cold]
    pub(crate) fn log_lap(&self, st: &State, captured: bool, goes_on: bool) {
        let Some(log) = &self.lap_log else { return };
        let Ok(mut log) = log.lock() else { return };
        if captured {
            if let Some(last) = log.laps.last_mut() {
                last.captured = Some(st.counts.clone());
            }
            return;
        }
        // What this lap lifted, when the lift written down is this lap's (probes lift on copies too).
        let lift = match log.lift.take() {
            Some((pit, lap, from, lifted, chosen)) if pit == st.origin && lap == st.lap && !goes_on => {
                Some((from, lifted, chosen))
            }
            _ => None,
        };
        let (lifted_from, lifted, chosen) = match lift {
            Some((from, lifted, chosen)) => (Some(from), lifted, chosen),
            None => (None, Vec::new(), false),
        };
        log.laps.push(LapRecord {
            origin: st.origin,
            dir: st.dir,
            last: st.last,
            counts: st.counts.clone(),
            captured: None,
            goes_on,
            lifted,
            lifted_from,
            chosen,
        });
    }

    /// The plan of the phase `st` is in.
    #[inline(always)]
    fn phase_plan(&self, st: &State) -> &plan::PhasePlan {
        &self.phases[st.phase as usize]
    }

    /// The same engine without its fast paths for plain phases (`plain_starts`, `plain_ply` and its
    /// tracks, `moves_known`, `owned_starts`), without remembering first laps (`ways::FirstLaps`), without
    /// what is settled in advance about ways (`ways::WayPlan`: first laps found without sowing) or undoing a
    /// first lap in place (`quick_first_laps`), and without the gates of per-lap directions (`lap_gates`):
    /// every ply goes through the general stages. For tests, which compare the two.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Engine {
        self.phases.iter_mut().for_each(plan::PhasePlan::without_fast_paths);
        self.owned_starts = false;
        self.first_lap_memo = false;
        self.quick_first_laps = false;
        self
    }

    /// Whether the plies of a phase are sown by `plain_ply`, the fast path of plain games. For tests, which
    /// check that the games meant to take it do.
    #[doc(hidden)]
    pub fn sows_plainly(&self, phase: usize) -> bool {
        self.phases.get(phase).is_some_and(|p| p.plain_sow.is_some())
    }

    /// Which of the compiled forms of plain phases a phase takes: sowing by whole laps (some origin has a
    /// track), and a stuck check made needless by an end rule. For tests, which check that the games meant
    /// to take them do.
    #[doc(hidden)]
    pub fn fast_forms(&self, phase: usize) -> (bool, bool) {
        let Some(plan) = self.phases.get(phase) else { return (false, false) };
        let laps = (plan.plain_sow.is_some() && plan.tracks.any()) || plan.actions.iter().any(|a| a.lap_tracks.any());
        (laps, plan.moves_known)
    }

    /// Whether the plies of a phase are played whole by `whole_ply` (its `fast::PlyPlan`). For tests, which
    /// check that the games meant to take it do, so that it cannot be lost without notice.
    #[doc(hidden)]
    pub fn plays_whole_plies(&self, phase: usize) -> bool {
        self.phases.get(phase).is_some_and(|p| p.ply_plan.is_some())
    }

    /// Whether the end sweeps of a phase go by a table made with the engine (`fast::sweep_table`). For
    /// tests, which check that the games meant to take it do.
    #[doc(hidden)]
    pub fn sweeps_by_table(&self, phase: usize) -> bool {
        self.phases.get(phase).is_some_and(|p| p.sweep_table.is_some())
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

    /// The position before the first move, with the checks of the first turn's start made (the end rules,
    /// the obligation, whether the first player can move).
    pub fn initial_state(&self) -> State {
        let mut st = self.setup_state();
        self.begin_turn(&mut st);
        st
    }

    /// The setup's position, before the checks of the first turn's start: what a position typed in is made
    /// from.
    pub(crate) fn setup_state(&self) -> State {
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
            history_filter: Default::default(),
            captures: 0,
            capture_plies: [0; 8],
            result: None,
            lap: 0,
            endless: false,
            marks: self.initial_marks(),
            lifted: 0,
            diverted: false,
            at_origin: false,
            round: 1,
            round_starter: 0,
            round_start_ply: 0,
            rounds: Rounds::default(),
            passed: [0; 2],
            mark_lives: Vec::new(),
            taken_first: 0,
            recording: false,
            trial: false,
            start: 0,
            before_sowing: true,
            plies_made: [0; 8],
        };
        self.start_mark_lives(&mut st);
        self.advance_phase(&mut st);
        st
    }

    /// The marks of the pits at the start: the setup's, or none.
    fn initial_marks(&self) -> Vec<u8> {
        let cells = self.rules.marks.len() * self.rules.n_pits;
        if self.rules.setup_marks.len() == cells {
            return self.rules.setup_marks.clone();
        }
        vec![UNMARKED; cells]
    }

    /// Redoes the bookkeeping of a turn's start for a state built by hand (a parsed position): the end rules
    /// (those that read the last sowing only after a ply, as there is none before the first), the record of
    /// the position for repetitions, the obligation of the player to move, and the end of the game when he
    /// cannot move.
    pub fn refresh(&self, st: &mut State) {
        st.obliged = false;
        if st.result.is_some() {
            return;
        }
        // A position with an offer to answer is a position of the game too (its stage is part of the key).
        if matches!(st.stage, Stage::Start | Stage::Respond) {
            let ended = if st.ply > 0 { self.check_end_rules(st) } else { self.check_start_end_rules(st) };
            if ended {
                return;
            }
        }
        self.check_can_move(st, false);
    }

    pub fn outcome<'s>(&self, st: &'s State) -> Option<&'s Outcome> {
        st.result.as_ref()
    }

    /// The player who makes the decision at hand: the player to move, except where the opponent answers in
    /// the middle of his move (`opponent may`, `Stage::Answer`).
    #[inline]
    pub fn decider(&self, st: &State) -> u8 {
        match st.stage {
            Stage::Answer { .. } => self.next_active(st, st.to_move),
            _ => st.to_move,
        }
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
            Stage::Start if self.phase_plan(st).plain_starts && !st.obliged => self.plain_start_list(st, out),
            Stage::Start if self.owned_starts && self.phase_plan(st).owned_plain_starts && !st.obliged => {
                self.owned_start_list(st, out)
            }
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

    /// The position right after the take of the pit `pit` chosen at `st` (`Move::Pick` where an answer or a
    /// capture at every lift takes from a chosen pit: `Stage::Answer`, `Stage::LiftPick`), before anything
    /// else the ply does: for the front ends that tell it. `None` at any other stage.
    pub fn chosen_take_only(&self, st: &State, pit: PlaceId) -> Option<State> {
        let rule = match st.stage {
            Stage::Answer { action, rule } => self.sow_rule(st, action).answers.get(rule as usize)?,
            Stage::LiftPick { action, rule, .. } => self.sow_rule(st, action).lift_captures.get(rule as usize)?,
            _ => return None,
        };
        let mut out = st.clone();
        self.take_action(&mut out, rule.pick.as_ref()?, pit);
        Some(out)
    }

    /// Applies a decision taken from `legal_moves` for this very state.
    #[inline]
    pub fn apply_unchecked(&self, st: &mut State, mv: Move) {
        if !self.try_whole_ply(st, mv) {
            self.step(st, mv, false);
        }
    }
}

/// A few places, on the stack: the hot paths collect places without allocating.
struct Places {
    items: [PlaceId; PIT_BITS],
    len: usize,
}

impl Default for Places {
    fn default() -> Self {
        Places { items: [0; PIT_BITS], len: 0 }
    }
}

impl Places {
    /// Adds a place; returns false (stop) when full, which no board of at most `PIT_BITS` pits reaches.
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

/// A cheap, stable key of a position: byte slices and one extra word (`fast::position_key`).
fn hash_parts(parts: &[&[u8]], extra: u64) -> u64 {
    fast::position_key(parts, extra)
}
