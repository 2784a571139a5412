//! What the engine knows of each phase before play: one `PhasePlan` per phase, with one `ActionPlan` per
//! action of it, so that every fast fact of a phase is found in one struct and a new shortcut has an obvious
//! home. A phase's plan is made in one go when the engine is built: first what its rules say (`PhasePlan::new`,
//! for every phase, since the first turn's start already reads them), then what needs an engine to work out
//! (`Engine::complete_plan`: the whole-ply form, the sweep table, the tracks of laps and the ways of starts).

use crate::ir::*;

use super::{fast, ways, Compiled, Engine};

/// What is known of one phase before play (`Engine::phases`).
#[derive(Debug, Clone, Default)]
pub(crate) struct PhasePlan {
    /// The phase's ply limit.
    pub(super) limit: u32,
    /// No action needs probing.
    pub(super) probe_free: bool,
    /// No probing and no pass, so the legal starts are simply every action's starts.
    pub(super) simple: bool,
    /// The phase is one plain sowing from any non-empty pit of the mover's fixed pits (most games), so its
    /// starts are found without evaluating anything.
    pub(super) plain_starts: bool,
    /// One plain sowing from any non-empty pit of the mover, and nothing to probe, where pits change hands:
    /// its starts are listed straight off the owners and counts (`owned_start_list`).
    pub(super) owned_plain_starts: bool,
    /// Besides plain starts, a plain sowing in a fixed direction, with nothing to choose or check before its
    /// captures (no relay, `require`, `then` or per-drop records): `plain_ply` plays its plies in one go. An
    /// obligation (`must`) is still checked where the general stages check it, at the ply's end.
    pub(super) plain_sow: Option<Dir>,
    /// With a `plain_sow`: the places its sowings visit, for sowing whole laps by arithmetic.
    pub(super) tracks: fast::Tracks,
    /// A turn that the end rules let begin always has a start, so the stuck check after them is needless
    /// (`fast::end_rules_say_mover_can_move`).
    pub(super) moves_known: bool,
    /// A rule about never-ending moves applies (`draw`, `eliminate` or `cut when endless`), so such a move is
    /// played, and the end rules decide what follows.
    pub(super) endless_played: bool,
    /// The conditions of the end rules tested at every lap (`when ... at every lap`), in order
    /// (`Engine::lap_end_holds`); none in most games.
    pub(super) lap_end_conds: Vec<Cond>,
    /// For each end rule of the phase and then of the game, in order: the rule reads where the last sowing
    /// was (`ir::reads_last_sowing`), so it is not tested before the first ply.
    pub(super) sowing_end_rules: Vec<bool>,
    /// With a `plain_sow`: its whole-ply form (`fast::PlyPlan`), which `whole_ply` plays.
    pub(super) ply_plan: Option<fast::PlyPlan>,
    /// Per mover, where its end sweeps fix what goes where: the pits and their destinations
    /// (`fast::sweep_table`).
    pub(super) sweep_table: Option<fast::SweepTable>,
    /// Per action, in the order they are written.
    pub(super) actions: Vec<ActionPlan>,
}

/// What is known of one action of a phase before play (`PhasePlan::actions`).
#[derive(Debug, Clone, Default)]
pub(crate) struct ActionPlan {
    /// An offer whose `require`, once false, stays false as pits are added (`ir::fails_for_more_pits`), so
    /// the search for a completion stops there.
    pub(super) offer_prunes: bool,
    /// A sowing of one kind of piece, but not by `plain_ply` (its laps may relay, start at the origin, go
    /// either way; a marked pit may divert pieces; pits may change hands): per direction, the places its laps
    /// visit from every pit, so that `drop_hand` sows whole laps by arithmetic there too (`fast::sow_track`).
    pub(super) lap_tracks: fast::LapTracks,
    /// What a per-lap direction's condition says before the lap is tried the other way (`fast::lap_gate`).
    pub(super) lap_gate: Option<Cond>,
    /// What is settled in advance about the ways it may start in (`ways::WayPlan`).
    pub(super) way_plan: Option<ways::WayPlan>,
}

/// The facts of a phase that read its conditions as written: found before they are compiled
/// (`compile::compile_rules` puts compiled ones in their place).
pub(super) struct Written {
    endless_played: bool,
    sowing_end_rules: Vec<bool>,
    offer_prunes: Vec<bool>,
}

impl Written {
    pub(super) fn of(rules: &Rules, phase: usize) -> Written {
        let p = &rules.phases[phase];
        let end_rules = || p.end.items.iter().chain(&rules.end.items);
        let reads_sowing = |r: &EndRule| match r {
            EndRule::When(c) | EndRule::AtEveryLap(c) | EndRule::Eliminate(c) | EndRule::DrawWhen(c) => {
                crate::ir::reads_last_sowing(c)
            }
            _ => false,
        };
        Written {
            endless_played: end_rules().any(EndRule::is_endless),
            sowing_end_rules: end_rules().map(reads_sowing).collect(),
            offer_prunes: p
                .actions
                .iter()
                .map(|a| match &a.kind {
                    ActionKind::Offer(o) => o.requires.iter().all(crate::ir::fails_for_more_pits),
                    _ => false,
                })
                .collect(),
        }
    }

    /// A rule about never-ending moves applies (`PhasePlan::endless_played`).
    pub(super) fn endless_played(&self) -> bool {
        self.endless_played
    }
}

/// What the plans of phases read of the engine being built, before it is.
pub(super) struct Basics<'a> {
    pub(super) rules: &'a Rules,
    pub(super) compiled: &'a Compiled,
    pub(super) k: usize,
    pub(super) fixed_pits: Option<&'a Vec<Vec<PlaceId>>>,
}

impl PhasePlan {
    /// What the rules say of phase `phase`, with what they said as written: every fact of its plan but those
    /// `Engine::complete_plan` adds.
    pub(super) fn new(b: &Basics, phase: usize, written: Written) -> PhasePlan {
        let rules = b.rules;
        let p = &rules.phases[phase];
        let probe_free = p.actions.iter().all(|a| match &a.kind {
            ActionKind::Sow(s) => !s.lookahead,
            ActionKind::Put(p) => !p.lookahead,
            ActionKind::Take(_) => true,
            ActionKind::Offer(_) => false,
        });
        let simple = probe_free && p.pass.is_none();
        let one_plain_start = b.k == 1
            && matches!(p.actions.as_slice(), [Action { kind: ActionKind::Sow(sow), .. }] if is_plain_start(sow));
        let plain_starts = simple && b.fixed_pits.is_some() && one_plain_start;
        let plain_sow = match p.actions.as_slice() {
            [Action { kind: ActionKind::Sow(sow), .. }]
                if plain_starts
                    && !rules.needs.drops
                    && !rules.needs.passed
                    && !rules.needs.taken_first
                    && !rules.marks.iter().any(|m| m.plies > 0 || m.one_ply)
                    && is_plain_sow(sow) =>
            {
                match sow.dir {
                    DirRule::Fixed(dir) => Some(dir),
                    DirRule::Choose | DirRule::PerLap(_) => None,
                }
            }
            _ => None,
        };
        let tracks = match (p.actions.as_slice(), plain_sow, b.fixed_pits) {
            ([Action { kind: ActionKind::Sow(sow), .. }], Some(dir), Some(pits)) => {
                fast::Tracks::new(rules, pits, dir, sow.skip_origin)
            }
            _ => fast::Tracks::default(),
        };
        // The starts are the mover's non-empty pits, whoever owns which.
        let moves_known = fast::end_rules_say_mover_can_move(rules, p, &b.compiled.1, simple && one_plain_start);
        let end_rules = || p.end.items.iter().chain(&rules.end.items);
        let actions = p
            .actions
            .iter()
            .zip(written.offer_prunes)
            .map(|(a, offer_prunes)| ActionPlan {
                offer_prunes,
                lap_gate: match &a.kind {
                    ActionKind::Sow(sow) => sow.lap_dir.as_ref().and_then(|c| fast::lap_gate(c, &b.compiled.1)),
                    _ => None,
                },
                ..ActionPlan::default()
            })
            .collect();
        PhasePlan {
            limit: p.end.limit.or(rules.end.limit).unwrap_or(rules.limit),
            probe_free,
            simple,
            plain_starts,
            owned_plain_starts: b.fixed_pits.is_none() && simple && one_plain_start,
            plain_sow,
            tracks,
            moves_known,
            endless_played: written.endless_played,
            lap_end_conds: end_rules()
                .filter_map(|r| if let EndRule::AtEveryLap(c) = r { Some(c.clone()) } else { None })
                .collect(),
            sowing_end_rules: written.sowing_end_rules,
            ply_plan: None,
            sweep_table: None,
            actions,
        }
    }

    /// The plan without its fast paths (`Engine::without_fast_paths`).
    pub(super) fn without_fast_paths(&mut self) {
        (self.plain_starts, self.plain_sow, self.moves_known) = (false, None, false);
        (self.ply_plan, self.sweep_table) = (None, None);
        for action in &mut self.actions {
            (action.lap_tracks, action.lap_gate, action.way_plan) = Default::default();
        }
    }

    /// Whether some end rule is tested at every lap (`when ... at every lap`).
    #[inline(always)]
    pub(super) fn lap_ends(&self) -> bool {
        !self.lap_end_conds.is_empty()
    }
}

impl Engine {
    /// Adds to the plan of phase `phase` what needs the engine to work out: the whole-ply form, the sweep
    /// table, and per action the tracks of its laps and what is settled of its ways.
    pub(super) fn complete_plan(&mut self, phase: usize) {
        let lap_tracks = self.lap_tracks_of(phase);
        let ply_plan = self.ply_plan(phase);
        let sweep_table = fast::sweep_table(self, phase);
        let way_plans: Vec<Option<ways::WayPlan>> = self.rules.phases[phase]
            .actions
            .iter()
            .map(|a| match &a.kind {
                ActionKind::Sow(sow) => ways::WayPlan::new(self, sow),
                _ => None,
            })
            .collect();
        let plan = &mut self.phases[phase];
        (plan.ply_plan, plan.sweep_table) = (ply_plan, sweep_table);
        for (i, (action, way_plan)) in plan.actions.iter_mut().zip(way_plans).enumerate() {
            action.lap_tracks = lap_tracks.get(i).cloned().unwrap_or_default();
            action.way_plan = way_plan;
        }
    }

    /// The tracks of every pit, per direction it may go, for each sowing of a phase that does not sow plainly
    /// but could go by whole laps: one kind of piece, no pieces taken as they fall, no pits passed over by
    /// their marks (those need the piece-by-piece walk), and no pit that diverts pieces where the drops are
    /// recorded (`before` of a pit that sends its pieces on is not its count after the lap less one). A phase
    /// that sows plainly has its own.
    fn lap_tracks_of(&self, phase: usize) -> Vec<fast::LapTracks> {
        if self.phases[phase].plain_sow.is_some() || self.k != 1 {
            return Vec::new();
        }
        let every_pit: Vec<PlaceId> = (0..self.rules.n_pits as PlaceId).collect();
        let pits = vec![every_pit; self.rules.players as usize];
        let actions = &self.rules.phases[phase].actions;
        actions
            .iter()
            .map(|action| {
                let ActionKind::Sow(sow) = &action.kind else { return fast::LapTracks::default() };
                let by_piece = !sow.drop_captures.is_empty()
                    || sow.skips_by_piece()
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
            .collect()
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
        let plan = &self.phases[phase];
        match (plan.plain_sow, self.rules.phases[phase].actions.as_slice()) {
            (Some(_), [Action { kind: ActionKind::Sow(sow), .. }]) => fast::PlyPlan::new(self, phase, sow),
            _ => None,
        }
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
        && sow.answers.is_empty()
        && sow.lift_steps.is_empty()
        && !sow.skips_by_piece()
        && matches!(sow.dir, DirRule::Fixed(_))
}

/// A sowing that may start from any non-empty pit of the mover, whatever it holds.
pub(super) fn is_plain_start(sow: &Sow) -> bool {
    matches!((&sow.from, &sow.filter, sow.last_own), (Set::PitsOf(PlayerExpr::Mover), Cond::True, false))
        && sow.from_else.is_empty()
        && !sow.ways_checked()
        && sow.take_first.is_none()
}
