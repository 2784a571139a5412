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
    /// before its captures (no relay, `require`, `then` or per-drop records): `plain_ply` plays its plies in
    /// one go. An obligation (`must`) is still checked where the general stages check it, at the ply's end.
    plain_sow: Vec<Option<Dir>>,
    /// Per phase with a `plain_sow`: the places its sowings visit, for sowing whole laps by arithmetic.
    tracks: Vec<fast::Tracks>,
    /// Per phase: a turn that the end rules let begin always has a start, so the stuck check after them
    /// is needless (`fast::end_rules_say_mover_can_move`).
    moves_known: Vec<bool>,
    /// Per phase and action: an offer whose `require`, once false, stays false as pits are added
    /// (`ir::fails_for_more_pits`), so the search for a completion stops there.
    offer_prunes: Vec<Vec<bool>>,
    /// Some mark lasts one ply only: a ply's start clears it.
    ply_marks: bool,
    /// Per phase: a rule about never-ending moves applies (`draw`, `eliminate` or `cut when endless`), so such
    /// a move is played, and the end rules decide what follows.
    endless_played: Vec<bool>,
    /// Some phase has `again when`.
    phase_again: bool,
    /// Per phase: some end rule is tested at every lap (`when ... at every lap`).
    lap_ends: Vec<bool>,
    /// Per phase: the conditions of those rules, in order (`Engine::lap_end_holds`).
    lap_end_conds: Vec<Vec<Cond>>,
    /// Per phase, for each of its end rules and then the top level's, in order: the rule reads where the last
    /// sowing was (`ir::reads_last_sowing`), so it is not tested before the first ply.
    sowing_end_rules: Vec<Vec<bool>>,
    /// The marks lost when their pit is emptied (`until empty`); none in most games.
    empty_marks: Vec<MarkId>,
    /// The marks `for N plies`, with their N; none in most games.
    timed_marks: Vec<(MarkId, u32)>,
    /// Some rule reads `taken_first` or `threats`: the first capture of each ply records its pits.
    record_first: bool,
    /// For the narration only: where each lap of a sowing of laps went (`with_lap_log`); `None` in play.
    lap_log: Option<std::sync::Arc<std::sync::Mutex<Vec<LapRecord>>>>,
    /// For `explain` and `simulate`'s rule counts only: the steps of the plies of one position
    /// (`with_trace`); `None` in play.
    trace: Option<trace::TraceLog>,
    /// The starts of a plain sowing where pits change hands are read off the owners and counts
    /// (`fast::each_owned_start`) instead of walking the set `pits(mover)`.
    owned_starts: bool,
    /// Per phase with a `plain_sow`: its whole-ply form (`fast::PlyPlan`), which `whole_ply` plays.
    ply_plans: Vec<Option<fast::PlyPlan>>,
    /// Each player's fixed pits as words of `counts` (one kind of piece), for the plans' end rules.
    pit_words: Vec<fast::PitWords>,
    /// Per phase and mover, where its end sweeps fix what goes where: the pits and their destinations
    /// (`fast::sweep_table`).
    sweep_tables: Vec<Option<fast::SweepTable>>,
    /// Per phase and action that sows one kind of piece, but not by `plain_ply` (its laps may relay, start
    /// at the origin, go either way; a marked pit may divert pieces; pits may change hands): per direction,
    /// the places its laps visit from every pit, so that `drop_hand` sows whole laps by arithmetic there
    /// too (`fast::sow_track`).
    lap_tracks: Vec<Vec<fast::LapTracks>>,
    /// Per phase: one plain sowing from any non-empty pit of the mover, and nothing to probe, where pits
    /// change hands: its starts are listed straight off the owners and counts (`owned_start_list`).
    owned_plain_starts: Vec<bool>,
    /// Per phase and action: what a per-lap direction's condition says before the lap is tried the other
    /// way (`fast::lap_gate`).
    lap_gates: Vec<Vec<Option<Cond>>>,
    /// Tells this engine's rules from those of every other engine made (its clones share them), for what
    /// is remembered across calls (`ways::FirstLaps`).
    id: u64,
    /// What first laps found in a position is remembered for the next question about it (`ways::FirstLaps`).
    first_lap_memo: bool,
    /// A first lap tried on a copy is undone by putting back only what it can change, where that is little
    /// (`ways::first_lap_undoable`), instead of copying the whole position again.
    quick_first_laps: bool,
    /// Per phase and action: what is settled in advance about the ways it may start in (`ways::WayPlan`).
    way_plans: Vec<Vec<Option<ways::WayPlan>>>,
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
        let limits = rules.phases.iter().map(|p| p.end.limit.or(rules.end.limit).unwrap_or(rules.limit)).collect();
        let shape = compile::Shape {
            plain: k == 1,
            fixed_pits: fixed_pits.clone(),
            n_pits: rules.n_pits,
            places: rules.places.len(),
            regions: rules.regions.clone(),
        };
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
        let endless_played: Vec<bool> =
            rules.phases.iter().map(|p| p.end.items.iter().chain(&rules.end.items).any(EndRule::is_endless)).collect();
        // Under a rule about never-ending moves a sowing that would never end is played (and cut) instead of
        // being illegal, so a relay or a capture that sows on no longer makes the legality of a start depend
        // on how it plays out: only a `require` still does, and only it is looked ahead.
        for (phase, _) in rules.phases.iter_mut().zip(&endless_played).filter(|(_, &endless)| endless) {
            for action in &mut phase.actions {
                if let ActionKind::Sow(sow) = &mut action.kind {
                    sow.lookahead &= sow.require.is_some();
                }
            }
        }
        let phase_again = rules.phases.iter().any(|p| p.again.is_some());
        let lap_ends = rules
            .phases
            .iter()
            .map(|p| p.end.items.iter().chain(&rules.end.items).any(|r| matches!(r, EndRule::AtEveryLap(_))))
            .collect();
        let sowing_end_rules = rules
            .phases
            .iter()
            .map(|p| {
                let reads = |r: &EndRule| match r {
                    EndRule::When(c) | EndRule::AtEveryLap(c) | EndRule::Eliminate(c) => {
                        crate::ir::reads_last_sowing(c)
                    }
                    _ => false,
                };
                p.end.items.iter().chain(&rules.end.items).map(reads).collect()
            })
            .collect();
        let (table, sources) = compile::compile_rules(&mut rules, &shape);
        let compiled = Compiled(table, sources);
        let lap_end_conds = rules
            .phases
            .iter()
            .map(|p| {
                let items = p.end.items.iter().chain(&rules.end.items);
                items.filter_map(|r| if let EndRule::AtEveryLap(c) = r { Some(c.clone()) } else { None }).collect()
            })
            .collect();
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
        let plain_sow: Vec<Option<Dir>> = rules
            .phases
            .iter()
            .zip(&plain_starts)
            .map(|(p, &plain)| match p.actions.as_slice() {
                [Action { kind: ActionKind::Sow(sow), .. }]
                    if plain
                        && !rules.needs.drops
                        && !rules.needs.passed
                        && !rules.needs.taken_first
                        && !rules.marks.iter().any(|m| m.plies > 0)
                        && is_plain_sow(sow) =>
                {
                    match sow.dir {
                        DirRule::Fixed(dir) => Some(dir),
                        DirRule::Choose | DirRule::PerLap(_) => None,
                    }
                }
                _ => None,
            })
            .collect();
        let tracks = rules
            .phases
            .iter()
            .zip(&plain_sow)
            .map(|(p, dir)| match (p.actions.as_slice(), dir, &fixed_pits) {
                ([Action { kind: ActionKind::Sow(sow), .. }], Some(dir), Some(pits)) => {
                    fast::Tracks::new(&rules, pits, *dir, sow.skip_origin)
                }
                _ => fast::Tracks::default(),
            })
            .collect();
        let moves_known = rules
            .phases
            .iter()
            .zip(&simple_phase)
            .map(|(p, &simple)| {
                // The starts are the mover's non-empty pits, whoever owns which.
                let plain = simple
                    && k == 1
                    && matches!(p.actions.as_slice(), [Action { kind: ActionKind::Sow(sow), .. }] if is_plain_start(sow));
                fast::end_rules_say_mover_can_move(&rules, p, &compiled.1, plain)
            })
            .collect();
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
            limits,
            compiled,
            probe_free,
            simple_phase,
            plain_starts,
            plain_sow,
            tracks,
            moves_known,
            offer_prunes,
            endless_played,
            phase_again,
            lap_ends,
            lap_end_conds,
            sowing_end_rules,
            empty_marks,
            timed_marks,
            record_first,
            lap_log: None,
            trace: None,
            ply_marks,
            owned_starts: true,
            ply_plans: Vec::new(),
            pit_words: Vec::new(),
            sweep_tables: Vec::new(),
            lap_tracks: Vec::new(),
            owned_plain_starts: Vec::new(),
            lap_gates: Vec::new(),
            id: ENGINES_MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            first_lap_memo: true,
            quick_first_laps: true,
            way_plans: Vec::new(),
        };
        engine.owned_plain_starts = (0..engine.rules.phases.len())
            .map(|p| {
                engine.fixed_pits.is_none()
                    && engine.k == 1
                    && engine.simple_phase[p]
                    && matches!(engine.rules.phases[p].actions.as_slice(),
                        [Action { kind: ActionKind::Sow(sow), .. }] if is_plain_start(sow))
            })
            .collect();
        engine.lap_tracks = (0..engine.rules.phases.len()).map(|p| engine.lap_tracks_of(p)).collect();
        engine.lap_gates = per_sow_action(&engine.rules, |sow| {
            sow.lap_dir.as_ref().and_then(|c| fast::lap_gate(c, &engine.compiled.1))
        });
        if let (Some(pits), 1) = (&engine.fixed_pits, engine.k) {
            let len = engine.rules.places.len();
            engine.pit_words = pits.iter().map(|own| fast::PitWords::new(own, len)).collect();
        }
        engine.ply_plans = (0..engine.rules.phases.len()).map(|p| engine.ply_plan(p)).collect();
        engine.sweep_tables = (0..engine.rules.phases.len()).map(|p| fast::sweep_table(&engine, p)).collect();
        engine.way_plans = per_sow_action(&engine.rules, |sow| ways::WayPlan::new(&engine, sow));
        engine
    }

    /// The tracks of every pit, per direction it may go, for each sowing of a phase that does not sow plainly
    /// but could go by whole laps: one kind of piece, no pieces taken as they fall, no pits passed over by
    /// their marks (those need the piece-by-piece walk), and no pit that diverts pieces where the drops are
    /// recorded (`before` of a pit that sends its pieces on is not its count after the lap less one). A phase
    /// that sows plainly has its own.
    fn lap_tracks_of(&self, phase: usize) -> Vec<fast::LapTracks> {
        let none = || Vec::new();
        if self.plain_sow[phase].is_some() || self.k != 1 {
            return none();
        }
        let every_pit: Vec<PlaceId> = (0..self.rules.n_pits as PlaceId).collect();
        let pits = vec![every_pit; self.rules.players as usize];
        let actions = &self.rules.phases[phase].actions;
        let tracks: Vec<fast::LapTracks> = actions
            .iter()
            .map(|action| {
                let ActionKind::Sow(sow) = &action.kind else { return fast::LapTracks::default() };
                let by_piece = !sow.drop_captures.is_empty()
                    || sow.skip_marks != 0
                    || (self.rules.needs.drops && !sow.divert.is_empty());
                if by_piece {
                    return fast::LapTracks::default();
                }
                let mut laps = fast::LapTracks::default();
                for &dir in Self::ways_of_laps(sow) {
                    let tracks = fast::Tracks::new(&self.rules, &pits, dir, sow.skip_origin);
                    laps.set(dir, tracks.any().then_some(tracks));
                }
                laps
            })
            .collect();
        if tracks.iter().any(fast::LapTracks::any) {
            tracks
        } else {
            none()
        }
    }

    /// The directions the laps of a sowing may go: its fixed one, or both (chosen, or per lap).
    fn ways_of_laps(sow: &Sow) -> &'static [Dir] {
        match sow.dir {
            DirRule::Fixed(Dir::Ccw) => &[Dir::Ccw],
            DirRule::Fixed(Dir::Cw) => &[Dir::Cw],
            DirRule::Choose | DirRule::PerLap(_) => &[Dir::Ccw, Dir::Cw],
        }
    }

    /// The whole-ply form of a phase that sows plainly, where its rules allow one.
    fn ply_plan(&self, phase: usize) -> Option<fast::PlyPlan> {
        self.plain_sow[phase]?;
        match self.rules.phases[phase].actions.as_slice() {
            [Action { kind: ActionKind::Sow(sow), .. }] => fast::PlyPlan::new(self, phase, sow),
            _ => None,
        }
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
            .map_or_else(Vec::new, |log| log.lock().map(|mut l| std::mem::take(&mut *l)).unwrap_or_default())
    }

    /// Writes down the end of a lap, or (`captured`) the capture that followed it.
    #[cold]
    pub(crate) fn log_lap(&self, st: &State, captured: bool, goes_on: bool) {
        let Some(log) = &self.lap_log else { return };
        let Ok(mut log) = log.lock() else { return };
        if captured {
            if let Some(last) = log.last_mut() {
                last.captured = Some(st.counts.clone());
            }
            return;
        }
        log.push(LapRecord {
            origin: st.origin,
            dir: st.dir,
            last: st.last,
            counts: st.counts.clone(),
            captured: None,
            goes_on,
        });
    }

    /// The same engine without its fast paths for plain phases (`plain_starts`, `plain_ply` and its
    /// tracks, `moves_known`, `owned_starts`), without remembering first laps (`ways::FirstLaps`), without
    /// what is settled in advance about ways (`ways::WayPlan`: first laps found without sowing) or undoing a
    /// first lap in place (`quick_first_laps`), and without the gates of per-lap directions (`lap_gates`):
    /// every ply goes through the general stages. For tests, which compare the two.
    #[doc(hidden)]
    pub fn without_fast_paths(mut self) -> Engine {
        self.plain_starts.fill(false);
        self.plain_sow.fill(None);
        self.moves_known.fill(false);
        self.owned_starts = false;
        self.ply_plans.iter_mut().for_each(|plan| *plan = None);
        self.sweep_tables.iter_mut().for_each(|t| *t = None);
        self.lap_tracks.clear();
        self.lap_gates.iter_mut().flatten().for_each(|g| *g = None);
        self.first_lap_memo = false;
        self.quick_first_laps = false;
        self.way_plans.clear();
        self
    }

    /// Whether the plies of a phase are sown by `plain_ply`, the fast path of plain games. For tests, which
    /// check that the games meant to take it do.
    #[doc(hidden)]
    pub fn sows_plainly(&self, phase: usize) -> bool {
        self.plain_sow.get(phase).is_some_and(|d| d.is_some())
    }

    /// Which of the compiled forms of plain phases a phase takes: sowing by whole laps (some origin has a
    /// track), and a stuck check made needless by an end rule. For tests, which check that the games meant
    /// to take them do.
    #[doc(hidden)]
    pub fn fast_forms(&self, phase: usize) -> (bool, bool) {
        let laps = (self.sows_plainly(phase) && self.tracks.get(phase).is_some_and(|t| t.any()))
            || self.lap_tracks.get(phase).is_some_and(|t| t.iter().any(fast::LapTracks::any));
        (laps, self.moves_known.get(phase).copied().unwrap_or(false))
    }

    /// Whether the plies of a phase are played whole by `whole_ply` (its `fast::PlyPlan`). For tests, which
    /// check that the games meant to take it do, so that it cannot be lost without notice.
    #[doc(hidden)]
    pub fn plays_whole_plies(&self, phase: usize) -> bool {
        self.ply_plans.get(phase).is_some_and(|p| p.is_some())
    }

    /// Whether the end sweeps of a phase go by a table made with the engine (`fast::sweep_table`). For
    /// tests, which check that the games meant to take it do.
    #[doc(hidden)]
    pub fn sweeps_by_table(&self, phase: usize) -> bool {
        self.sweep_tables.get(phase).is_some_and(|t| t.is_some())
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

    pub fn phase(&self, st: &State) -> &PhaseRules {
        &self.rules.phases[st.phase as usize]
    }

    /// The legal decisions at this point, appended to `out`.
    pub fn legal_moves(&self, st: &State, out: &mut Vec<Move>) {
        if st.result.is_some() {
            return;
        }
        match st.stage {
            Stage::Start if self.plain_starts[st.phase as usize] && !st.obliged => self.plain_start_list(st, out),
            Stage::Start if self.owned_starts && self.owned_plain_starts[st.phase as usize] && !st.obliged => {
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

    /// Applies a decision taken from `legal_moves` for this very state.
    #[inline]
    pub fn apply_unchecked(&self, st: &mut State, mv: Move) {
        if !self.try_whole_ply(st, mv) {
            self.step(st, mv, false);
        }
    }
}

/// A table per phase and action, made by `make` for each sowing action (none for the others).
fn per_sow_action<T>(rules: &Rules, mut make: impl FnMut(&Sow) -> Option<T>) -> Vec<Vec<Option<T>>> {
    let entry = |a: &Action, make: &mut dyn FnMut(&Sow) -> Option<T>| match &a.kind {
        ActionKind::Sow(sow) => make(sow),
        _ => None,
    };
    rules.phases.iter().map(|p| p.actions.iter().map(|a| entry(a, &mut make)).collect()).collect()
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

/// A sowing with nothing to decide or check between its start and its captures.
fn is_plain_sow(sow: &Sow) -> bool {
    is_plain_start(sow)
        && !sow.lookahead
        && sow.relay.is_none()
        && sow.require.is_none()
        && sow.then.is_none()
        && sow.then_marks.is_empty()
        && sow.start_origin.is_none()
        && sow.divert.is_empty()
        && sow.drop_captures.is_empty()
        && sow.lift_captures.is_empty()
        && sow.lift_steps.is_empty()
        && sow.skip_marks == 0
        && matches!(sow.dir, DirRule::Fixed(_))
}

/// A sowing that may start from any non-empty pit of the mover, whatever it holds.
fn is_plain_start(sow: &Sow) -> bool {
    matches!((&sow.from, &sow.filter, sow.last_own), (Set::PitsOf(PlayerExpr::Mover), Cond::True, false))
        && sow.from_else.is_empty()
        && !sow.ways_checked()
}

/// A cheap, stable key of a position: byte slices and one extra word (`fast::position_key`).
fn hash_parts(parts: &[&[u8]], extra: u64) -> u64 {
    fast::position_key(parts, extra)
}
