//! The differential check: the engine and the reference semantics (`tests/reference/`) play the same game
//! side by side, and must agree at every decision: on the legal decisions (compared as neutral words, one
//! per decision: `sow@c`, `cw`, `drop R`, `take D/5`, `pick 3`, `stop`, `x`, `-x`, `relay`, `-relay`,
//! `pass`, `accept`, `decline`), and at the end of every ply on the position (pieces per place and kind,
//! owners, marks with their plies left, who moves, the phase, who is out, an offer waiting, each player's
//! captures, the round) and the outcome. Decisions are picked at random under a seed, the same for both.
//!
//! Where the mover has one option in the middle of a ply, each side takes it by itself (§14: he is asked
//! only where the rules leave him a real choice); the starts of a ply are always compared.

#![allow(dead_code)]

use mancala::engine::{EndReason, Engine, Move, Stage, State};
use mancala::ir::{PitSet, PlaceId, UNMARKED};
use rand::{Rng, SeedableRng};

use crate::reference::{Decision, Game, MarkCell, Reason, Reference, Step, Table};

/// The engine and the reference of one rule set (one variant, one player count).
pub struct Pair {
    pub engine: Engine,
    pub reference: Reference,
}

/// Counts of what was compared.
#[derive(Debug, Clone, Copy, Default)]
pub struct Tally {
    pub games: u64,
    pub plies: u64,
    pub decisions: u64,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, o: Tally) {
        self.games += o.games;
        self.plies += o.plies;
        self.decisions += o.decisions;
    }
}

/// Where the two disagree, with what it takes to see it again.
#[derive(Debug, Clone)]
pub struct Disagreement {
    /// What differs, in a few words that stay the same for one cause (for grouping findings).
    pub kind: String,
    /// The details: both sides' options or positions.
    pub detail: String,
    /// The position at the start of the ply (the engine's position format).
    pub position: String,
    /// The plies from the start of the game (or of the position), in the engine's notation.
    pub plies: Vec<String>,
    /// The decisions of the ply so far, as words.
    pub made: Vec<String>,
}

impl std::fmt::Display for Disagreement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "{}", self.kind)?;
        writeln!(f, "  after plies: {}", self.plies.join(" | "))?;
        writeln!(f, "  position:    {}", self.position)?;
        writeln!(f, "  decisions:   {}", self.made.join(" "))?;
        write!(f, "  {}", self.detail.replace('\n', "\n  "))
    }
}

impl Pair {
    /// Both interpreters of `source`, one variant, one player count; `None` when the file does not lower.
    pub fn new(source: &str, variant: Option<&str>, players: Option<u8>) -> Option<Pair> {
        let file = mancala::syntax::parse(source).ok()?;
        let rules = mancala::check::lower(&file, variant, players).ok()?;
        Some(Pair { engine: Engine::new(rules.clone()), reference: Reference::new(rules) })
    }

    /// A random game from the start, decision by decision, for at most `max_plies` plies.
    pub fn random_game(&self, seed: u64, max_plies: u32, tally: &mut Tally) -> Result<(), Box<Disagreement>> {
        let st = self.engine.initial_state();
        let g = self.reference.initial();
        self.play(st, g, seed, max_plies, tally)
    }

    /// A random game from a position in the position format.
    pub fn random_game_from(
        &self,
        position: &str,
        seed: u64,
        max_plies: u32,
        tally: &mut Tally,
    ) -> Result<(), Box<Disagreement>> {
        self.game_from(position, None, seed, max_plies, tally)
    }

    /// A game from a position, its first ply given in move notation (`None`: at random too), then random.
    pub fn game_from(
        &self,
        position: &str,
        first: Option<&str>,
        seed: u64,
        max_plies: u32,
        tally: &mut Tally,
    ) -> Result<(), Box<Disagreement>> {
        // The reference starts from the position as written, and makes the checks of the turn's start itself.
        let written = mancala::notation::read_position(&self.engine, position)
            .unwrap_or_else(|e| panic!("position `{position}`: {e}"));
        let mut st = written.clone();
        self.engine.refresh(&mut st);
        let script = first.map_or_else(Vec::new, |ply| {
            mancala::notation::parse_ply(&self.engine, &st, ply).unwrap_or_else(|e| panic!("ply `{ply}`: {e}"))
        });
        let g = self.game_of(&written);
        self.play_until(st, g, seed, max_plies, None, &script, tally).map(|_| ())
    }

    /// The reference's game at the engine's position as read from text (before the engine's checks of the
    /// turn's start): the pieces, owners, marks and settings it writes, and the start of a turn there.
    pub fn game_of(&self, st: &State) -> Game {
        let r = &self.reference;
        let k = r.kinds();
        let places = r.rules.places.len();
        let pieces = Table::from_rows(k, vec![st.counts[..places * k].to_vec()]);
        let mut g = r.empty_game(pieces);
        g.owner = st.owner.iter().map(|&o| (o != mancala::ir::NO_PLAYER).then_some(o)).collect();
        g.marks = self.marks_of(st);
        g.to_move = st.to_move;
        g.phase = st.phase as usize;
        g.ply = st.ply;
        g.last_mover = st.last_mover;
        g.out = (0..r.rules.players).map(|p| st.eliminated & (1 << p) != 0).collect();
        g.capture_plies = st.capture_plies[..r.rules.players as usize].iter().map(|&c| c as u32).collect();
        g.round = st.round as u32;
        g.round_starter = st.round_starter;
        g.round_start_ply = st.round_start_ply;
        if st.stage == Stage::Respond {
            let phase = &r.rules.phases[g.phase];
            let action =
                phase.actions.iter().position(|a| matches!(a.kind, mancala::ir::ActionKind::Offer(_))).unwrap_or(0);
            let pits = (0..r.board.n_pits as PlaceId).filter(|&p| st.offered & (1 << p) != 0).collect();
            g.offer = Some(crate::reference::state::Offer { by: st.last_mover, action, pits });
        }
        r.resume(&mut g);
        g
    }

    /// The engine's marks, cell by cell: for whom, and the plies left of a mark `for N plies`.
    fn marks_of(&self, st: &State) -> Table<Option<MarkCell>> {
        let rules = &self.reference.rules;
        let n = rules.n_pits;
        let mut timed = 0;
        let rows = rules
            .marks
            .iter()
            .enumerate()
            .map(|(m, info)| {
                let t = timed;
                if info.plies > 0 {
                    timed += 1;
                }
                (0..n)
                    .map(|p| {
                        let v = st.marks.get(m * n + p).copied().unwrap_or(UNMARKED);
                        (v != UNMARKED).then(|| MarkCell {
                            player: info.per_player.then_some(v - 1),
                            lives: if info.plies > 0 {
                                st.mark_lives.get(t * n + p).copied().unwrap_or(0) as u32
                            } else {
                                0
                            },
                        })
                    })
                    .collect()
            })
            .collect();
        Table::from_rows(n, rows)
    }

    /// Both sides play the same random decisions from these positions, compared at every decision.
    fn play(&self, st: State, g: Game, seed: u64, max_plies: u32, tally: &mut Tally) -> Result<(), Box<Disagreement>> {
        self.play_until(st, g, seed, max_plies, None, &[], tally).map(|_| ())
    }

    /// As `play`, given up (`Ok(false)`) at a ply's start past `deadline`; the engine's decisions `script`
    /// are made first, where they are options.
    #[allow(clippy::too_many_arguments)]
    fn play_until(
        &self,
        mut st: State,
        mut g: Game,
        seed: u64,
        max_plies: u32,
        deadline: Option<std::time::Instant>,
        script: &[Move],
        tally: &mut Tally,
    ) -> Result<bool, Box<Disagreement>> {
        let mut script = script.iter();
        let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
        let mut plies: Vec<String> = Vec::new();
        tally.games += 1;
        let at = |what: &str, detail: String, before: &State, plies: &[String], made: &[String]| {
            Box::new(Disagreement {
                kind: what.to_string(),
                detail,
                position: mancala::notation::format_position(&self.engine, before),
                plies: plies.to_vec(),
                made: made.to_vec(),
            })
        };
        if let Some(diff) = self.compare(&st, &g) {
            return Err(at("the positions differ at the start", diff, &st, &plies, &[]));
        }
        for _ in 0..max_plies {
            if st.result.is_some() {
                break;
            }
            if deadline.is_some_and(|d| std::time::Instant::now() > d) {
                return Ok(false);
            }
            let before = st.clone();
            let ply0 = st.ply;
            let mut moves: Vec<Move> = Vec::new();
            let mut made: Vec<Decision> = Vec::new();
            let mut words: Vec<String> = Vec::new();
            loop {
                let engine_done = st.ply != ply0 || st.result.is_some();
                let mut legal = Vec::new();
                if !engine_done {
                    self.engine.legal_moves(&st, &mut legal);
                    if !moves.is_empty() && legal.len() == 1 {
                        // One option in the middle of a ply: taken by itself.
                        self.engine.apply_unchecked(&mut st, legal[0]);
                        moves.push(legal[0]);
                        continue;
                    }
                }
                let step = self.reference.step(&g, &made);
                if let Step::Ask(options) = &step {
                    if !made.is_empty() && options.len() == 1 {
                        made.push(options[0]);
                        continue;
                    }
                }
                match (engine_done, step) {
                    (true, Step::Done(next)) => {
                        g = *next;
                        break;
                    }
                    (true, Step::Ask(options)) => {
                        let detail =
                            format!("the engine's ply is over; the reference asks {:?}", self.ref_words(&g, &options));
                        return Err(at(
                            "the engine's ply ends where the reference's goes on",
                            detail,
                            &before,
                            &plies,
                            &words,
                        ));
                    }
                    (false, Step::Done(_)) => {
                        let detail = format!(
                            "the reference's ply is over; the engine asks {:?}",
                            self.engine_words(&st, &legal)
                        );
                        return Err(at(
                            "the reference's ply ends where the engine's goes on",
                            detail,
                            &before,
                            &plies,
                            &words,
                        ));
                    }
                    (false, Step::Ask(options)) => {
                        let mut ours: Vec<(String, Move)> =
                            legal.iter().map(|&m| (self.engine_word(&st, m), m)).collect();
                        let mut theirs: Vec<(String, Decision)> =
                            options.iter().map(|&d| (self.ref_word(&g, d), d)).collect();
                        ours.sort_by(|a, b| a.0.cmp(&b.0));
                        ours.dedup_by(|a, b| a.0 == b.0);
                        theirs.sort_by(|a, b| a.0.cmp(&b.0));
                        theirs.dedup_by(|a, b| a.0 == b.0);
                        let e: Vec<&String> = ours.iter().map(|(w, _)| w).collect();
                        let r: Vec<&String> = theirs.iter().map(|(w, _)| w).collect();
                        if e != r {
                            let only_e: Vec<&&String> = e.iter().filter(|w| !r.contains(w)).collect();
                            let only_r: Vec<&&String> = r.iter().filter(|w| !e.contains(w)).collect();
                            let detail = format!(
                                "engine only: {only_e:?}\nreference only: {only_r:?}\nengine: {e:?}\nreference: {r:?}"
                            );
                            let kind =
                                if made.is_empty() { "the legal starts differ" } else { "the legal decisions differ" };
                            return Err(at(kind, detail, &before, &plies, &words));
                        }
                        if ours.is_empty() {
                            // Both stuck in a game not over: nothing more to compare.
                            return Ok(true);
                        }
                        tally.decisions += 1;
                        let scripted = script.next().and_then(|m| ours.iter().position(|(_, o)| o == m));
                        let i = scripted.unwrap_or_else(|| rng.gen_range(0..ours.len()));
                        self.engine.apply_unchecked(&mut st, ours[i].1);
                        moves.push(ours[i].1);
                        made.push(theirs[i].1);
                        words.push(ours[i].0.clone());
                    }
                }
            }
            tally.plies += 1;
            plies.push(mancala::notation::format_ply(&self.engine, &before, &moves));
            if let Some(diff) = self.compare(&st, &g) {
                return Err(at("the positions after a ply differ", diff, &before, &plies, &words));
            }
        }
        Ok(true)
    }

    /// What differs between the engine's position and the reference's, if anything.
    pub fn compare(&self, st: &State, g: &Game) -> Option<String> {
        let a = self.engine_view(st);
        let b = self.ref_view(g);
        let diffs: Vec<String> =
            a.iter().zip(&b).filter(|(x, y)| x != y).map(|(x, y)| format!("engine:    {x}\nreference: {y}")).collect();
        (!diffs.is_empty()).then(|| diffs.join("\n"))
    }

    /// A position as lines of text, one per part, for comparing and showing.
    fn engine_view(&self, st: &State) -> Vec<String> {
        let r = &self.reference.rules;
        let k = r.kinds.len();
        let pieces: Vec<String> = (0..r.places.len())
            .map(|p| format!("{}={:?}", r.places[p].label, &st.counts[p * k..(p + 1) * k]))
            .collect();
        let owners: Vec<Option<u8>> = st.owner.iter().map(|&o| (o != mancala::ir::NO_PLAYER).then_some(o)).collect();
        let out: Vec<bool> = (0..r.players).map(|p| st.eliminated & (1 << p) != 0).collect();
        let offer = match st.stage {
            Stage::Respond => format!("offer {:?} by {}", self.pits_of_bits(st.offered), st.last_mover),
            _ => "no offer".into(),
        };
        let result = st.result.as_ref().map(|o| {
            let winners = o.winner_list();
            let rounds: Vec<String> = o
                .rounds
                .iter()
                .map(|r| format!("{:?} {:?} {}", bits(r.winners), r.scores, engine_reason(r.reason)))
                .collect();
            format!("{winners:?} {:?} {} rounds {rounds:?}", o.scores, engine_reason(o.reason))
        });
        vec![
            format!("pieces {}", pieces.join(" ")),
            format!("owners {owners:?}"),
            format!("marks {:?}", self.marks_of(st)),
            format!("to move {}", if st.result.is_some() { "-".into() } else { st.to_move.to_string() }),
            format!("phase {}", st.phase),
            format!("out {out:?}"),
            offer,
            format!("captures {:?}", &st.capture_plies[..r.players as usize]),
            format!("round {} started by {}", st.round, st.round_starter),
            format!("result {result:?}"),
        ]
    }

    fn ref_view(&self, g: &Game) -> Vec<String> {
        let r = &self.reference.rules;
        let pieces: Vec<String> =
            (0..r.places.len()).map(|p| format!("{}={:?}", r.places[p].label, &g.pieces[p])).collect();
        let offer = match &g.offer {
            Some(o) if g.result.is_none() => format!("offer {:?} by {}", o.pits, o.by),
            _ => "no offer".into(),
        };
        let result = g.result.as_ref().map(|o| {
            let rounds: Vec<String> =
                o.rounds.iter().map(|r| format!("{:?} {:?} {}", r.winners, r.scores, ref_reason(r.reason))).collect();
            format!("{:?} {:?} {} rounds {rounds:?}", o.winners, o.scores, ref_reason(o.reason))
        });
        let captures: Vec<u16> = g.capture_plies.iter().map(|&c| c as u16).collect();
        vec![
            format!("pieces {}", pieces.join(" ")),
            format!("owners {:?}", g.owner),
            format!("marks {:?}", g.marks),
            format!("to move {}", if g.result.is_some() { "-".into() } else { g.to_move.to_string() }),
            format!("phase {}", g.phase),
            format!("out {:?}", g.out),
            offer,
            format!("captures {captures:?}"),
            format!("round {} started by {}", g.round, g.round_starter),
            format!("result {result:?}"),
        ]
    }

    fn pits_of_bits(&self, bits: PitSet) -> Vec<PlaceId> {
        (0..self.reference.rules.n_pits as PlaceId).filter(|&p| bits & (1 << p) != 0).collect()
    }

    fn label(&self, p: PlaceId) -> String {
        self.reference.rules.places.get(p as usize).map_or_else(|| format!("#{p}"), |i| i.label.clone())
    }

    fn symbol(&self, k: u8) -> String {
        self.reference.rules.kinds.get(k as usize).map_or_else(|| format!("#{k}"), |i| i.symbol.clone())
    }

    /// An engine decision as a neutral word.
    fn engine_word(&self, st: &State, mv: Move) -> String {
        match mv {
            Move::Begin { action, place } => {
                let name = &self.reference.rules.phases[st.phase as usize].actions[action as usize].name;
                format!("{name}@{}", self.label(place))
            }
            Move::Pass => "pass".into(),
            Move::Accept => "accept".into(),
            Move::Decline => "decline".into(),
            Move::Direction(d) => dir_word(d),
            Move::Drop(k) => format!("drop {}", self.symbol(k)),
            Move::Take { place, kind } => format!("take {}/{}", self.label(place), self.symbol(kind)),
            Move::Pick(p) => format!("pick {}", self.label(p)),
            Move::Stop => "stop".into(),
            Move::Capture(b) => (if b { "x" } else { "-x" }).into(),
            Move::Relay(b) => (if b { "relay" } else { "-relay" }).into(),
            Move::Answer(b) => (if b { "answer" } else { "-answer" }).into(),
        }
    }

    fn engine_words(&self, st: &State, moves: &[Move]) -> Vec<String> {
        moves.iter().map(|&m| self.engine_word(st, m)).collect()
    }

    /// A reference decision as a neutral word.
    fn ref_word(&self, g: &Game, d: Decision) -> String {
        match d {
            Decision::Begin { action, place } => {
                let name = &self.reference.rules.phases[g.phase].actions[action].name;
                format!("{name}@{}", self.label(place))
            }
            Decision::Pass => "pass".into(),
            Decision::Accept => "accept".into(),
            Decision::Decline => "decline".into(),
            Decision::Dir(d) => dir_word(d),
            Decision::Drop(k) => format!("drop {}", self.symbol(k)),
            Decision::Take { place, kind } => format!("take {}/{}", self.label(place), self.symbol(kind)),
            Decision::Pick(p) => format!("pick {}", self.label(p)),
            Decision::Stop => "stop".into(),
            Decision::Capture(b) => (if b { "x" } else { "-x" }).into(),
            Decision::Relay(b) => (if b { "relay" } else { "-relay" }).into(),
            Decision::Answer(b) => (if b { "answer" } else { "-answer" }).into(),
        }
    }

    fn ref_words(&self, g: &Game, ds: &[Decision]) -> Vec<String> {
        ds.iter().map(|&d| self.ref_word(g, d)).collect()
    }
}

fn dir_word(d: mancala::ir::Dir) -> String {
    match d {
        mancala::ir::Dir::Ccw => "ccw".into(),
        mancala::ir::Dir::Cw => "cw".into(),
    }
}

fn bits(b: u8) -> Vec<u8> {
    (0..8).filter(|p| b & (1 << p) != 0).collect()
}

/// The reasons a game ends, by the docs' names, the same words for both sides.
fn engine_reason(r: EndReason) -> &'static str {
    match r {
        EndReason::Condition => "condition",
        EndReason::Repetition => "repetition",
        EndReason::Stuck => "stuck",
        EndReason::NobodyCanMove => "nobody can move",
        EndReason::NoCapture => "no capture",
        EndReason::LastStanding => "last standing",
        EndReason::Obligation => "obligation",
        EndReason::Limit => "limit",
        EndReason::Endless => "endless",
        EndReason::RepetitionDraw => "repetition draw",
        EndReason::ConditionDraw => "condition draw",
        EndReason::Match => "match",
        EndReason::RoundLimit => "round limit",
    }
}

fn ref_reason(r: Reason) -> &'static str {
    match r {
        Reason::Condition => "condition",
        Reason::Repetition => "repetition",
        Reason::Stuck => "stuck",
        Reason::NobodyCanMove => "nobody can move",
        Reason::NoCapture => "no capture",
        Reason::LastStanding => "last standing",
        Reason::Obligation => "obligation",
        Reason::Limit => "limit",
        Reason::Endless => "endless",
        Reason::RepetitionDraw => "repetition draw",
        Reason::ConditionDraw => "condition draw",
        Reason::Match => "match",
        Reason::RoundLimit => "round limit",
    }
}

/// What one rule file gave in a differential run.
#[derive(Debug, Clone, Default)]
pub struct FileReport {
    /// `check` found no error: only such files are compared.
    pub clean: bool,
    /// Variants compared.
    pub engines: u32,
    pub tally: Tally,
    /// Games cut short because the reference took too long on them.
    pub slow: u32,
    /// Each disagreement (or panic) as a signature that stays the same for one cause, with what it takes to
    /// see it again.
    pub findings: Vec<(String, String)>,
}

/// How a differential run of one file goes.
#[derive(Debug, Clone, Copy)]
pub struct FileOptions {
    pub games: u32,
    pub max_plies: u32,
    pub max_variants: usize,
    /// A game is given up (not a finding) past this.
    pub game_time: std::time::Duration,
}

impl Default for FileOptions {
    fn default() -> FileOptions {
        FileOptions { games: 2, max_plies: 100, max_variants: 3, game_time: std::time::Duration::from_secs(1) }
    }
}

/// Compares the engine with the reference on random games of each variant of a rule file that checks clean.
pub fn run_file(bytes: &[u8], seed: u64, opts: &FileOptions) -> FileReport {
    let mut report = FileReport::default();
    let Ok(file) = mancala::syntax::parse_bytes(bytes) else { return report };
    let diags = mancala::check::check(&file);
    if diags.iter().any(mancala::diag::Diagnostic::is_error) {
        return report;
    }
    report.clean = true;
    let mut variants = vec!["default".to_string()];
    variants.extend(mancala::check::variant_names(&file).into_iter().filter(|n| n != "default"));
    variants.truncate(opts.max_variants);
    for (v, variant) in variants.iter().enumerate() {
        let Ok(rules) = mancala::check::lower(&file, Some(variant), None) else { continue };
        let pair = match catch(|| Pair { engine: Engine::new(rules.clone()), reference: Reference::new(rules) }) {
            Ok(pair) => pair,
            Err(panic) => {
                report.findings.push((format!("panic making the pair: {panic}"), format!("variant {variant}")));
                continue;
            }
        };
        report.engines += 1;
        for game in 0..opts.games {
            let game_seed = seed ^ ((v as u64) << 32) ^ game as u64;
            let deadline = std::time::Instant::now() + opts.game_time;
            let mut tally = Tally::default();
            // A look-ahead of the reference that takes longer than the game's time leaves the game too.
            crate::reference::turn::give_up_after(Some(deadline + opts.game_time));
            let outcome = catch(|| pair.random_game_until(game_seed, opts.max_plies, deadline, &mut tally));
            crate::reference::turn::give_up_after(None);
            report.tally += tally;
            match outcome {
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => report.slow += 1,
                Err(panic) if panic.starts_with(crate::reference::turn::OUT_OF_TIME) => report.slow += 1,
                Ok(Err(d)) => {
                    let detail = format!("variant {variant}, game seed {game_seed}: {d}");
                    report.findings.push((d.signature(), detail));
                    break;
                }
                Err(panic) => {
                    report
                        .findings
                        .push((format!("panic: {panic}"), format!("variant {variant}, game seed {game_seed}")));
                    break;
                }
            }
        }
    }
    report
}

impl Disagreement {
    /// What stays the same for one cause: the kind, and the sorts of decisions or the parts of the position
    /// that differ.
    pub fn signature(&self) -> String {
        let sorts = |line: &str| -> String {
            let mut words: Vec<String> = line
                .split('"')
                .skip(1)
                .step_by(2)
                .map(|w| w.split(['@', ' ']).next().unwrap_or("").to_string())
                .collect();
            words.sort();
            words.dedup();
            words.join(",")
        };
        let parts: Vec<String> = self
            .detail
            .lines()
            .filter_map(|l| {
                if let Some(rest) = l.strip_prefix("engine only: ") {
                    Some(format!("engine only [{}]", sorts(rest)))
                } else if let Some(rest) = l.strip_prefix("reference only: ") {
                    Some(format!("reference only [{}]", sorts(rest)))
                } else {
                    l.strip_prefix("engine:    ").map(|rest| rest.split_whitespace().next().unwrap_or("").to_string())
                }
            })
            .collect();
        let mut parts = parts;
        parts.dedup();
        format!("{}: {}", self.kind, parts.join(" "))
    }
}

impl Pair {
    /// A game from `position` (`None`: the start) along the engine's decisions `script`, given as
    /// `play_until` asks for them (each ply's start and every real option; a lone option in the middle of a
    /// ply is taken by itself), for at most `plies` plies: the scenario corpus's plies, compared decision
    /// by decision.
    pub fn scripted_game(
        &self,
        position: Option<&str>,
        script: &[Move],
        plies: u32,
        tally: &mut Tally,
    ) -> Result<(), Box<Disagreement>> {
        let Some(position) = position else {
            let st = self.engine.initial_state();
            let g = self.reference.initial();
            return self.play_until(st, g, 0, plies, None, script, tally).map(|_| ());
        };
        let written = mancala::notation::read_position(&self.engine, position)
            .unwrap_or_else(|e| panic!("position `{position}`: {e}"));
        let mut st = written.clone();
        self.engine.refresh(&mut st);
        let g = self.game_of(&written);
        self.play_until(st, g, 0, plies, None, script, tally).map(|_| ())
    }
}

impl Pair {
    /// As `random_game`, given up (`Ok(false)`) past `deadline`.
    pub fn random_game_until(
        &self,
        seed: u64,
        max_plies: u32,
        deadline: std::time::Instant,
        tally: &mut Tally,
    ) -> Result<bool, Box<Disagreement>> {
        let st = self.engine.initial_state();
        let g = self.reference.initial();
        self.play_until(st, g, seed, max_plies, Some(deadline), &[], tally)
    }
}

thread_local! {
    /// Set while `catch` runs: the panic hook writes the message and place here instead of printing.
    static CAUGHT: std::cell::RefCell<Option<String>> = const { std::cell::RefCell::new(None) };
    static CATCHING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f`, turning a panic into its message and place (quietly).
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    static HOOK: std::sync::Once = std::sync::Once::new();
    HOOK.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if CATCHING.with(|c| c.get()) {
                let message = match info.payload().downcast_ref::<&str>() {
                    Some(s) => s.to_string(),
                    None => info.payload().downcast_ref::<String>().cloned().unwrap_or_default(),
                };
                let place = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
                CAUGHT.with(|c| *c.borrow_mut() = Some(format!("{message} at {place}")));
            } else {
                default(info);
            }
        }));
    });
    let outer = CATCHING.with(|c| c.replace(true));
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(f));
    CATCHING.with(|c| c.set(outer));
    result.map_err(|_| CAUGHT.with(|c| c.borrow_mut().take()).unwrap_or_default())
}
