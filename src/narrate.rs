//! What a ply did, in words: the pit sown, relays, captures, pieces taken or put, offers and their terms,
//! extra turns, the sweep at the end, players put out.
//!
//! Everything is derived from the engine's states before and after the ply and from its decisions; the
//! engine is not asked to report anything, except the laps of a sowing whose laps and captures interleave
//! (a capture that sows its pieces on, a direction per lap, a relay with captures), which an engine made
//! `with_lap_log` writes down as it plays them. Where one decision does several things (a sowing and its
//! captures), the ply is replayed on engines made from the same rules with parts left out: without captures
//! and what follows them (the board after the sowing alone), without relays (each lap), without sweeps
//! (the board before the game's end). This is for people reading a game, never on the engine's hot path.

use crate::engine::{Engine, Move, Stage, State};
use crate::ir::{ActionKind, EndRules, PlaceId, Rules, NO_PLAYER};

/// What a ply did: a sentence, and the places to mark on the board.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Told {
    pub text: String,
    pub marks: Vec<PlaceId>,
}

/// Names for the seats, given which are played by people: `you` for the only person, `computer` for the
/// only computer, else `player N` and `computer N`.
pub fn seat_names(humans: &[bool]) -> Vec<String> {
    let people = humans.iter().filter(|&&h| h).count();
    let computers = humans.len() - people;
    humans
        .iter()
        .enumerate()
        .map(|(i, &human)| match (human, people, computers) {
            (true, 1, _) => "you".to_string(),
            (true, _, _) => format!("player {}", i + 1),
            (false, _, 1) => "computer".to_string(),
            (false, _, _) => format!("computer {}", i + 1),
        })
        .collect()
}

/// Tells what the ply `moves`, played from `before`, did; `after` is the position it led to.
pub fn ply(engine: &Engine, before: &State, moves: &[Move], after: &State, names: &[String]) -> Told {
    Narrator { engine, names }.ply(before, moves, after)
}

/// The offer waiting for an answer at `st`, with its terms, for the player who must answer; `None` when no
/// offer waits.
pub fn pending_offer(engine: &Engine, st: &State, names: &[String]) -> Option<String> {
    if !matches!(st.stage, Stage::Respond) || st.result.is_some() {
        return None;
    }
    let n = Narrator { engine, names };
    let pits: Vec<PlaceId> = (0..engine.rules.n_pits as PlaceId).filter(|&p| st.offered & (1 << p) != 0).collect();
    Some(format!("{} offers {}; {}.", n.name(st.last_mover), n.list(pits.iter().map(|&p| n.label(p))), n.terms(st)))
}

struct Narrator<'a> {
    engine: &'a Engine,
    names: &'a [String],
}

/// The most relay laps named one by one in a run of relays; the rest are counted.
const MAX_RELAYS_TOLD: usize = 12;
/// The most captures that sow on told one by one in a sowing; the rest of the laps are summed up.
const MAX_CLAUSES_TOLD: usize = 8;

/// Whether a mark's name, in words, says what a pit is (`burnt`, `fresh`, `captured in mtaji`) rather than
/// what it becomes (`tuzdyk`, `nyumba`): then a pit "is now" it.
fn reads_as_adjective(words: &str) -> bool {
    let first = words.split_whitespace().next().unwrap_or("");
    ["fresh", "out", "open", "free", "safe", "dead", "empty", "closed"].contains(&first)
        || first.ends_with("ed")
        || first.ends_with("en")
        || first.ends_with("nt")
}

/// ` clockwise` or ` counter-clockwise`.
fn dir_words(d: crate::ir::Dir) -> &'static str {
    match d {
        crate::ir::Dir::Cw => " clockwise",
        crate::ir::Dir::Ccw => " counter-clockwise",
    }
}

impl Narrator<'_> {
    fn ply(&self, before: &State, moves: &[Move], after: &State) -> Told {
        let mut told = Told::default();
        let mut clauses = Vec::new();
        let no_sweep = self.variant(|r| strip_end(r, false));
        let mut states = vec![before.clone()];
        for &mv in moves {
            let mut next = states.last().cloned().unwrap_or_else(|| before.clone());
            no_sweep.apply_unchecked(&mut next, mv);
            states.push(next);
        }
        let end_of_ply = states.last().cloned().unwrap_or_else(|| before.clone());
        match moves.first() {
            Some(Move::Begin { action, place }) => {
                let actions = &self.engine.phase(before).actions;
                match actions.get(*action as usize).map(|a| &a.kind) {
                    // A take before the sowing: what it took, then the sowing from the pit picked after it.
                    Some(ActionKind::Sow(s)) if s.take_first.is_some() => {
                        if let (Some(Move::Pick(from)), Some(taken)) = (moves.get(1), states.get(1)) {
                            clauses.push(self.moved("took", before, taken));
                            told.marks.push(*place);
                            self.sowing(before, moves, &states, *from, &mut clauses, &mut told);
                        }
                    }
                    Some(ActionKind::Sow(_)) => self.sowing(before, moves, &states, *place, &mut clauses, &mut told),
                    Some(ActionKind::Put(_)) => {
                        let picked = picked(moves);
                        clauses.push(self.moved("put", before, &end_of_ply));
                        told.marks.extend(picked);
                    }
                    Some(ActionKind::Take(_)) => {
                        clauses.push(self.moved("took", before, &end_of_ply));
                        told.marks.push(*place);
                    }
                    Some(ActionKind::Offer(_)) => {
                        let pits = picked(moves);
                        clauses.push(format!("offered {}", self.list(pits.iter().map(|&p| self.label(p)))));
                        if matches!(end_of_ply.stage, Stage::Respond) {
                            clauses.push(format!("{} must answer", self.name(end_of_ply.to_move)));
                        }
                        told.marks.extend(pits);
                    }
                    None => {}
                }
            }
            Some(Move::Pass) => clauses.push("passed".into()),
            Some(Move::Accept) => {
                let pits: Vec<PlaceId> =
                    (0..self.engine.rules.n_pits as PlaceId).filter(|&p| before.offered & (1 << p) != 0).collect();
                clauses.push(format!("accepted the offer of {}", self.list(pits.iter().map(|&p| self.label(p)))));
                clauses.extend(self.owners_changed(before, &end_of_ply));
                let moved = self.moved("", before, &end_of_ply);
                if !moved.is_empty() {
                    clauses.push(moved.trim_start().to_string());
                }
                told.marks.extend(pits);
            }
            Some(Move::Decline) => clauses.push("declined the offer".into()),
            _ => {}
        }
        clauses.extend(self.answers(moves, &states));
        if ended_round(before, after) {
            clauses.extend(self.round_end(before, moves, after));
        } else if after.result.is_some() {
            let swept = self.moved("at the end,", &end_of_ply, after);
            if !swept.is_empty() {
                clauses.push(swept);
            }
        }
        for p in 0..self.engine.rules.players {
            if after.eliminated & !before.eliminated & (1 << p) != 0 {
                clauses.push(format!("{} {} out", self.name(p), if self.name(p) == "you" { "are" } else { "is" }));
            }
        }
        if after.phase != before.phase && after.result.is_none() {
            clauses.push(format!("the {} phase begins", self.engine.rules.phases[after.phase as usize].name));
        }
        told.text = clauses.into_iter().filter(|c| !c.is_empty()).collect::<Vec<_>>().join("; ");
        told
    }

    /// In a match of rounds, the round this ply ended: what its sweeps moved, who won it and by how much,
    /// then what the refills dealt, what they marked (`a becomes burnt`, `c is no longer burnt`) and the
    /// pits that changed hands, and who starts the next round. The sweeps and the refills are told apart,
    /// even where one undoes the other.
    fn round_end(&self, before: &State, moves: &[Move], after: &State) -> Vec<String> {
        let (swept, dealt) = self.sweep_and_refill(before, moves);
        let Some(round) = after.rounds.last() else { return Vec::new() };
        let number = after.rounds.len();
        let scores: Vec<String> = round.scores.iter().map(|s| s.to_string()).collect();
        let score = scores.join(" to ");
        let winners: Vec<u8> = (0..self.engine.rules.players).filter(|p| round.winners & (1 << p) != 0).collect();
        let verdict = match winners.as_slice() {
            [] => format!("round {number} is drawn, {score}"),
            [w] => format!(
                "{} {} round {number}, {score}",
                self.name(*w),
                if self.name(*w) == "you" { "win" } else { "wins" }
            ),
            ws => format!("{} share round {number}, {score}", self.list(ws.iter().map(|&w| self.name(w)))),
        };
        let mut out = vec![swept, verdict, dealt];
        out.extend(self.marks_changed(before, after));
        out.extend(self.owners_changed(before, after));
        if after.result.is_none() {
            out.push(format!("round {} begins, {} to move", after.round, self.name(after.to_move)));
        }
        out
    }

    /// What the sweeps at the end of the round the ply ended moved, and what the refills of the next round
    /// dealt, each in words: read off the ply played again by an engine that writes its steps down (a round's
    /// end is rare enough).
    fn sweep_and_refill(&self, before: &State, moves: &[Move]) -> (String, String) {
        let Some((at_end, after_sweeps, dealt)) = self.round_counts(before, moves) else { return Default::default() };
        let with_counts = |counts: Vec<u8>| State { counts, ..before.clone() };
        let (at_end, after_sweeps, dealt) = (with_counts(at_end), with_counts(after_sweeps), with_counts(dealt));
        (self.moved("at the round's end, swept", &at_end, &after_sweeps), self.dealt(&after_sweeps, &dealt))
    }

    /// The pieces everywhere as the round the ply ended ends (before its sweeps), after its sweeps, and after
    /// the refills of the next round: read off the ply played again by an engine that writes its steps down.
    fn round_counts(&self, before: &State, moves: &[Move]) -> Option<(Vec<u8>, Vec<u8>, Vec<u8>)> {
        use crate::engine::Event;
        let tracer = self.engine.clone().with_trace();
        let mut st = before.clone();
        tracer.trace(&st);
        for &mv in moves {
            tracer.apply_unchecked(&mut st, mv);
        }
        let steps = tracer.take_trace();
        let at = |f: &dyn Fn(&Event) -> bool| steps.iter().position(|t| f(&t.event));
        let ends = at(&|e| matches!(e, Event::RoundEnds { .. }))?;
        let swept_from = at(&|e| matches!(e, Event::Sweep { .. })).filter(|&i| i < ends).unwrap_or(ends);
        let next = at(&|e| matches!(e, Event::NextRound { .. }));
        let dealt = next.map_or_else(|| st.counts.clone(), |i| steps[i].counts.clone());
        Some((steps[swept_from].counts.clone(), steps[ends].counts.clone(), dealt))
    }

    /// What the refills dealt, player by player where each player's pieces went into his own places (`7 from
    /// store(1) into each of a, b and c`), else as one move.
    fn dealt(&self, from: &State, to: &State) -> String {
        let (k, rules) = (self.engine.kinds(), &self.engine.rules);
        let owner = |p: usize| if p < rules.n_pits { to.owner[p] } else { rules.places[p].owner };
        let mut parts = Vec::new();
        let mut covered = from.counts.clone();
        for player in 0..rules.players {
            let mut part = from.clone();
            for p in (0..rules.places.len()).filter(|&p| owner(p) == player) {
                part.counts[p * k..(p + 1) * k].copy_from_slice(&to.counts[p * k..(p + 1) * k]);
                covered[p * k..(p + 1) * k].copy_from_slice(&to.counts[p * k..(p + 1) * k]);
            }
            let text = self.moved("", from, &part);
            if !text.is_empty() {
                parts.push(text);
            }
        }
        if covered != to.counts || parts.is_empty() {
            return self.moved("for the next round, dealt", from, to);
        }
        format!("for the next round, dealt {}", parts.join(" and "))
    }

    /// A sowing: where from, how many, relays, where it ended; then captures, pits taken, another turn.
    fn sowing(
        &self,
        before: &State,
        moves: &[Move],
        states: &[State],
        origin: PlaceId,
        clauses: &mut Vec<String>,
        told: &mut Told,
    ) {
        let sow_moves = moves.iter().take(opening(self.engine, before, moves));
        let sow_moves: Vec<Move> = sow_moves.copied().collect();
        if self.told_lap_by_lap(before, moves) {
            return self.laps(before, moves, states, clauses, told);
        }
        let sown_only = self
            .variant(|r| {
                strip_end(r, true);
                strip_sow(r, false);
            })
            .with_lap_log();
        let mut sown = before.clone();
        for &mv in &sow_moves {
            sown_only.apply_unchecked(&mut sown, mv);
        }
        let dir = match sow_moves.iter().find_map(|m| if let Move::Direction(d) = m { Some(*d) } else { None }) {
            Some(d) => dir_words(d),
            None => "",
        };
        let mut text = self.lap_start(before, origin, dir, sown_only.last_lift(), sown.last);
        text.push_str(&format!(", ending in {}", self.label(sown.last)));
        clauses.push(text);
        told.marks.extend([origin, sown.last]);
        // The captures come with the sowing's decisions and the pieces chosen to take.
        let takes =
            moves[sow_moves.len()..].iter().take_while(|m| matches!(m, Move::Take { .. } | Move::Capture(_))).count();
        let captured = &states[sow_moves.len() + takes];
        let action = match sow_moves.first() {
            Some(Move::Begin { action, .. }) => *action,
            _ => 0,
        };
        let has_captures = match &self.engine.phase(before).actions.get(action as usize).map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => !s.captures.is_empty(),
            _ => false,
        };
        let verb = if has_captures { "captured" } else { "took" };
        // Where the ply ended a round, what follows the sowing is told up to the round's sweeps: the refills
        // of the next round are told with the round's end.
        match self.round_counts(before, moves).filter(|_| ended_round(before, captured)) {
            Some((at_end, _, _)) => clauses.push(self.moved(verb, &sown, &State { counts: at_end, ..sown.clone() })),
            None => clauses.push(self.moved(verb, &sown, captured)),
        }
        // A ply that ends a round tells its marks and owners after the round's result (`round_end`).
        if !ended_round(before, captured) {
            clauses.extend(self.marks_changed(&sown, captured));
            clauses.extend(self.owners_changed(&sown, captured));
        }
        let end_of_ply = states.last().unwrap_or(captured);
        let picks: Vec<PlaceId> = picked(&moves[sow_moves.len() + takes..]);
        if !picks.is_empty() {
            clauses.push(self.moved("took", captured, end_of_ply));
            told.marks.extend(picks);
        }
        let ended = end_of_ply.ply != before.ply;
        if ended
            && end_of_ply.result.is_none()
            && self.engine.rules.players > 1
            && end_of_ply.to_move == before.to_move
            && end_of_ply.rounds.len() == before.rounds.len()
        {
            clauses.push(format!("{} again", if self.name(before.to_move) == "you" { "you move" } else { "moves" }));
        }
    }

    /// The opponent's answers in the move (`opponent may`), by whoever gave them, with what each moved:
    /// `computer answered at i4: 2 from I1 into O1`, `computer let i4 be`. What an answer moved is found by
    /// making it where nothing else follows it (no relay, no capture).
    fn answers(&self, moves: &[Move], states: &[State]) -> Vec<String> {
        let mut out = Vec::new();
        let mut answer_only: Option<Engine> = None;
        for (i, &mv) in moves.iter().enumerate() {
            let Some(at) = states.get(i) else { continue };
            // An answer from a pit the opponent chose (`take { ... }` in `opponent may`) is a pick.
            let (made, chosen) = match (mv, at.stage) {
                (Move::Answer(made), _) => (made, String::new()),
                (Move::Pick(p), crate::engine::Stage::Answer { .. }) => (true, format!(" from {}", self.label(p))),
                _ => continue,
            };
            let who = self.name(self.engine.decider(at));
            let place = self.label(at.last);
            if !made {
                out.push(format!("{who} let {place} be"));
                continue;
            }
            let engine = answer_only.get_or_insert_with(|| {
                self.variant(|r| {
                    let kept: Vec<_> = answers_of(r);
                    strip_end(r, true);
                    strip_sow(r, true);
                    restore_answers(r, kept);
                })
            });
            let mut answered = at.clone();
            engine.apply_unchecked(&mut answered, mv);
            let moved = self.moved("", at, &answered);
            out.push(if moved.is_empty() {
                format!("{who} answered at {place}{chosen}")
            } else {
                format!("{who} answered at {place}{chosen}: {moved}")
            });
        }
        out
    }

    /// Whether the sowing of this ply is told lap by lap from the engine's log: one of several laps (relays,
    /// captures that sow their pieces on or go on elsewhere, laps that choose their direction), or that
    /// captures as the pieces fall, where laps and captures interleave.
    fn told_lap_by_lap(&self, before: &State, moves: &[Move]) -> bool {
        let Some(Move::Begin { action, .. }) = moves.first() else { return false };
        match self.engine.phase(before).actions.get(*action as usize).map(|a| &a.kind) {
            Some(ActionKind::Sow(s)) => {
                s.laps
                    || s.captures.iter().any(|c| c.resow.is_some() || c.go_on.is_some())
                    || matches!(s.dir, crate::ir::DirRule::PerLap(_))
                    || (s.relay.is_some() && !s.captures.is_empty())
                    || !s.drop_captures.is_empty()
                    || !s.lift_captures.is_empty()
                    || !s.answers.is_empty()
            }
            _ => false,
        }
    }

    /// A sowing told lap by lap: `sowed 3 from b clockwise, ending in a; captured 2 from D, sown on from b
    /// counter-clockwise, ending in d`.
    fn laps(&self, before: &State, moves: &[Move], states: &[State], clauses: &mut Vec<String>, told: &mut Told) {
        let first_clause = clauses.len();
        // Every lap goes through the general stages, which write it down.
        let logger = self.engine.clone().without_fast_paths().with_lap_log();
        let mut st = before.clone();
        for &mv in moves {
            logger.apply_unchecked(&mut st, mv);
        }
        let laps = logger.take_lap_log();
        let with_counts = |counts: &[u8]| State { counts: counts.to_vec(), ..before.clone() };
        // A fixed direction goes without saying.
        let fixed = match moves.first() {
            Some(Move::Begin { action, .. }) => {
                match self.engine.phase(before).actions.get(*action as usize).map(|a| &a.kind) {
                    Some(ActionKind::Sow(s)) => matches!(s.dir, crate::ir::DirRule::Fixed(_)),
                    _ => true,
                }
            }
            _ => true,
        };
        let dir_word = |d: crate::ir::Dir| if fixed { "" } else { dir_words(d) };
        let Some(first) = laps.first() else { return };
        let lift_of = |lap: &crate::engine::LapRecord| lap.lifted_from.map(|from| (from, lap.lifted.clone()));
        // Each clause: the laps up to a capture that sows its pieces on, then the capture and its laps.
        let mut parts = vec![self.lap_start(before, first.origin, dir_word(first.dir), lift_of(first), first.last)];
        let mut relays: Vec<String> = Vec::new();
        let flush = |parts: &mut Vec<String>, relays: &mut Vec<String>| {
            if relays.is_empty() {
                return;
            }
            let more = relays.len().saturating_sub(MAX_RELAYS_TOLD);
            let shown: Vec<String> = relays.drain(..).take(MAX_RELAYS_TOLD).collect();
            parts.push(match more {
                0 => format!("relaying from {}", self.list(shown.into_iter())),
                more => format!("relaying from {} and {more} more", shown.join(", ")),
            });
        };
        let mut clauses_told = 0;
        for (i, lap) in laps.iter().enumerate() {
            if i > 0 {
                let prev = &laps[i - 1];
                // A lap that put its pieces into its own pit (a seed from the hand) is sown on from there.
                let put = prev.lifted_from.is_some_and(|f| f != prev.origin) && prev.last == prev.origin;
                match prev.captured.is_some() {
                    // After a capture that goes on elsewhere (`continue at`), the lap ends again there.
                    true if lap.goes_on => parts.push(format!("going on from {}", self.label(lap.last))),
                    true => parts.push(self.resown(before, lap, dir_word(lap.dir))),
                    // A relay the rule names (Bao's safari) is told by its name; another chosen relay
                    // stays in the list of relays, marked as chosen.
                    false if lap.chosen => match self.relay_word(before) {
                        Some(word) => {
                            flush(&mut parts, &mut relays);
                            parts.push(format!("{word} from {}", self.label(lap.origin)));
                        }
                        None => relays.push(format!("{} (by choice)", self.label(lap.origin))),
                    },
                    false if put && lap.origin == prev.origin => {
                        let n = self.pieces(&lap.lifted.iter().map(|&n| n as i32).collect::<Vec<_>>());
                        parts.push(format!("then sowed {n} from {}{}", self.label(lap.origin), dir_word(lap.dir)));
                    }
                    // A relay lap that turned says so.
                    false if lap.dir != prev.dir && !fixed => {
                        relays.push(format!("{} ({})", self.label(lap.origin), dir_word(lap.dir).trim_start()))
                    }
                    false => relays.push(self.label(lap.origin)),
                }
            }
            let next_resows = laps.get(i + 1).is_some() && lap.captured.is_some();
            if next_resows || i + 1 == laps.len() {
                flush(&mut parts, &mut relays);
                // A lap that put its pieces into its own pit has said where it ended.
                let put_there = lap.lifted_from.is_some_and(|f| f != lap.origin) && lap.last == lap.origin;
                // So has a lap that went on elsewhere and was not sown on from there.
                let went_there = lap.goes_on && parts.last().is_some_and(|p| p.starts_with("going on from"));
                if !put_there && !went_there {
                    parts.push(format!("ending in {}", self.label(lap.last)));
                }
                told.marks.push(lap.last);
            }
            if let (true, Some(after)) = (next_resows, &lap.captured) {
                clauses.push(std::mem::take(&mut parts).join(", "));
                clauses_told += 1;
                if clauses_told >= MAX_CLAUSES_TOLD {
                    let last = laps.last().map_or(lap.last, |l| l.last);
                    parts.push(format!("and so on: {} laps in all, ending in {}", laps.len(), self.label(last)));
                    told.marks.push(last);
                    break;
                }
                let taken = self.moved("captured", &with_counts(&lap.counts), &with_counts(after));
                let taken = if taken.is_empty() { self.lost("captured", &lap.counts, after) } else { taken };
                if !taken.is_empty() {
                    parts.push(taken);
                }
            }
        }
        if !parts.is_empty() {
            clauses.push(parts.join(", "));
        }
        // The pits the mover chose before laps were lifted (`take { ... }` in a capture at every lift): the
        // first lap's before the laps, the relays' after them.
        let mut before_laps = 0;
        for (i, &mv) in moves.iter().enumerate() {
            let (Move::Pick(p), Some(at)) = (mv, states.get(i)) else { continue };
            if !matches!(at.stage, crate::engine::Stage::LiftPick { .. }) {
                continue;
            }
            if let Some(taken) = self.engine.chosen_take_only(at, p) {
                let moved = self.moved("took", at, &taken);
                if !moved.is_empty() {
                    let clause = format!("{moved} before lifting {}", self.label(at.origin));
                    if at.lap <= 1 {
                        clauses.insert(first_clause + before_laps, clause);
                        before_laps += 1;
                    } else {
                        clauses.push(clause);
                    }
                }
                told.marks.push(p);
            }
        }
        told.marks.push(first.origin);
        // What the ply took after its laps and their captures (`then may take`, `then must take`).
        if let (Some(last), Some(end)) = (laps.last(), states.last()) {
            let mut laps_end = with_counts(last.captured.as_ref().unwrap_or(&last.counts));
            // An answer of the opponent's made where the last lap ended is told with the answers.
            let answered = moves.iter().enumerate().rposition(|(i, m)| {
                let at_answer = states.get(i).is_some_and(|s| matches!(s.stage, crate::engine::Stage::Answer { .. }));
                at_answer && matches!(m, Move::Answer(true) | Move::Pick(_))
            });
            if let Some(i) = answered.filter(|&i| states.get(i).is_some_and(|s| s.counts == laps_end.counts)) {
                if let Some(after) = states.get(i + 1) {
                    laps_end = with_counts(&after.counts);
                }
            }
            // A ply that ends a round tells its refills with the round's end.
            if laps_end.counts != end.counts && !ended_round(before, end) {
                clauses.push(self.moved("took", &laps_end, end));
            }
            if let Some(at) = moves.iter().position(|m| matches!(m, Move::Pick(_) | Move::Stop)) {
                told.marks.extend(picked(&moves[at..]));
            }
        }
        let end_of_ply = states.last().unwrap_or(before);
        if end_of_ply.result.as_ref().is_some_and(|r| r.reason == crate::engine::EndReason::Endless) {
            clauses.push(format!("the move would never end: it was cut after {} laps", laps.len()));
        }
        if let Some(after) = laps.last().and_then(|l| l.captured.as_ref().map(|a| (l, a))) {
            clauses.push(self.moved("captured", &with_counts(&after.0.counts), &with_counts(after.1)));
        }
        if let Some(taken) = self.taken_as_they_fell(before, &laps) {
            clauses.push(taken);
        }
        // The lasting marks the move made (`O1 becomes your wegue`) and the pits that changed hands; the
        // marks its laps took off as they lifted pits would only repeat the relays.
        if !ended_round(before, end_of_ply) {
            clauses.extend(self.marks_made(before, end_of_ply));
            clauses.extend(self.owners_changed(before, end_of_ply));
        }
        if end_of_ply.ply != before.ply
            && end_of_ply.result.is_none()
            && self.engine.rules.players > 1
            && end_of_ply.to_move == before.to_move
            && end_of_ply.rounds.len() == before.rounds.len()
        {
            clauses.push(format!("{} again", if self.name(before.to_move) == "you" { "you move" } else { "moves" }));
        }
    }

    /// What the captures at every drop took in a sowing told lap by lap, in words: `took 8 as they fell, to
    /// store(1)`. Sowing never drops into a place off the track, so what such places gained during the laps
    /// (not at their ends, where the captures are told) was taken as the pieces fell.
    fn taken_as_they_fell(&self, before: &State, laps: &[crate::engine::LapRecord]) -> Option<String> {
        let takes_as_they_fall = self.engine.rules.phases.iter().flat_map(|p| &p.actions).any(|a| match &a.kind {
            ActionKind::Sow(s) => !s.drop_captures.is_empty() || !s.lift_captures.is_empty(),
            _ => false,
        });
        if !takes_as_they_fall {
            return None;
        }
        let (k, places) = (self.engine.kinds(), &self.engine.rules.places);
        let mut gained = vec![0i32; places.len()];
        let mut prev = &before.counts;
        for lap in laps {
            for (p, _) in places.iter().enumerate().filter(|(_, i)| !i.on_track) {
                let n: i32 = (0..k).map(|i| lap.counts[p * k + i] as i32 - prev[p * k + i] as i32).sum();
                gained[p] += n.max(0);
            }
            prev = lap.captured.as_ref().unwrap_or(&lap.counts);
        }
        let total: i32 = gained.iter().sum();
        if total == 0 {
            return None;
        }
        let to: Vec<(usize, i32)> = gained.iter().copied().enumerate().filter(|&(_, n)| n > 0).collect();
        let to = match to.as_slice() {
            [(p, _)] => format!("to {}", self.label(*p as PlaceId)),
            _ => self.list(to.iter().map(|&(p, n)| format!("{n} to {}", self.label(p as PlaceId)))),
        };
        Some(format!("took {total} as they fell, {to}"))
    }

    /// Pieces that left places (for a hand, not another place), in words: `captured 2 from D`.
    fn lost(&self, verb: &str, from: &[u8], to: &[u8]) -> String {
        let k = self.engine.kinds();
        let places = self.engine.rules.places.len();
        let mut total = vec![0i32; k];
        let mut sources = Vec::new();
        for p in 0..places {
            let lost: Vec<i32> = (0..k).map(|i| (from[p * k + i] as i32 - to[p * k + i] as i32).max(0)).collect();
            if lost.iter().any(|&n| n > 0) {
                total.iter_mut().zip(&lost).for_each(|(t, n)| *t += n);
                sources.push(self.label(p as PlaceId));
            }
        }
        if sources.is_empty() {
            return String::new();
        }
        format!("{verb} {} from {}", self.pieces(&total), self.list(sources.into_iter()))
    }

    /// How a lap starts, in words: `sowed 4 from c clockwise`; where its pieces came from elsewhere (`lift 1
    /// from ghala(mover)`), `put 1 from your ghala into i3` (a lap that ended in its own pit) or `sowed 3
    /// from your ghala, starting at i3`. `lift` is what the lap lifted and from where, when known; otherwise
    /// it lifted the whole pit.
    fn lap_start(
        &self,
        before: &State,
        origin: PlaceId,
        dir: &str,
        lift: Option<(PlaceId, Vec<u8>)>,
        last: PlaceId,
    ) -> String {
        let k = self.engine.kinds();
        let held = || before.counts[origin as usize * k..origin as usize * k + k].to_vec();
        let (from, lifted) = lift.unwrap_or_else(|| (origin, held()));
        let n = self.pieces(&lifted.iter().map(|&n| n as i32).collect::<Vec<_>>());
        let at = self.label(origin);
        match (from == origin, last == origin) {
            (true, _) => format!("sowed {n} from {at}{dir}"),
            (false, true) => format!("put {n} from {} into {at}", self.place_words(from)),
            (false, false) => format!("sowed {n} from {}, starting at {at}{dir}", self.place_words(from)),
        }
    }

    /// The start of a lap that sows a capture's pieces on: `sown into i1 and on clockwise` (`sow into`, the
    /// first piece into the place itself) or `sown on from i1 clockwise`.
    fn resown(&self, before: &State, lap: &crate::engine::LapRecord, dir: &str) -> String {
        let into = match self.engine.phase(before).actions.iter().find_map(|a| match &a.kind {
            ActionKind::Sow(s) if s.captures.iter().any(|c| c.resow.is_some()) => Some(s),
            _ => None,
        }) {
            Some(s) => s.captures.iter().filter(|c| c.resow.is_some()).all(|c| c.resow_into),
            None => false,
        };
        if into {
            format!("sown into {} and on{dir}", self.label(lap.origin))
        } else {
            format!("sown on from {}{dir}", self.label(lap.origin))
        }
    }

    /// The rule file's word for the optional relay of the sowing of this ply (`safari`), if it names one.
    fn relay_word(&self, before: &State) -> Option<String> {
        self.engine.phase(before).actions.iter().find_map(|a| match &a.kind {
            ActionKind::Sow(s) => s.relay_answers.as_ref().map(|w| w.yes.clone()),
            _ => None,
        })
    }

    /// A place as the narration names it: a pit by its label; a place of a player's by its name and whose it
    /// is (`your ghala`, `computer's store`); any other by its label.
    fn place_words(&self, p: PlaceId) -> String {
        let info = &self.engine.rules.places[p as usize];
        if info.is_pit || info.owner == NO_PLAYER || info.name.is_empty() {
            return info.label.clone();
        }
        let whose = match self.name(info.owner).as_str() {
            "you" => "your".to_string(),
            name => format!("{name}'s"),
        };
        format!("{whose} {}", info.name)
    }

    /// Pieces that left some places for others between two states, in words: `captured 5 (3 from b, 2 from
    /// B) into store(1)`. Each destination gets its own sources: the owner's place when sources and
    /// destinations belong to players, else all of them.
    fn moved(&self, verb: &str, from: &State, to: &State) -> String {
        let places = self.engine.rules.places.len();
        let losses: Vec<(PlaceId, Vec<i32>)> = (0..places as PlaceId)
            .map(|p| (p, self.delta(from, to, p).iter().map(|&d| (-d).max(0)).collect::<Vec<i32>>()))
            .filter(|(_, d)| d.iter().any(|&n| n > 0))
            .collect();
        let gains: Vec<(PlaceId, Vec<i32>)> = (0..places as PlaceId)
            .map(|p| (p, self.delta(from, to, p).iter().map(|&d| d.max(0)).collect::<Vec<i32>>()))
            .filter(|(_, d)| d.iter().any(|&n| n > 0))
            .collect();
        if losses.is_empty() || gains.is_empty() {
            return String::new();
        }
        let owner = |p: PlaceId, st: &State| -> u8 {
            let p = p as usize;
            if p < self.engine.rules.n_pits {
                st.owner[p]
            } else {
                self.engine.rules.places[p].owner
            }
        };
        let paired = gains.len() > 1
            && gains.iter().all(|(g, _)| owner(*g, to) != NO_PLAYER)
            && losses.iter().all(|(l, _)| gains.iter().any(|(g, _)| owner(*g, to) == owner(*l, from)));
        let prep = |dest: PlaceId| if self.engine.rules.places[dest as usize].is_pit { "into" } else { "to" };
        if losses.len() == 1 && gains.len() > 1 {
            let (src, lost) = &losses[0];
            let dests = self.list(gains.iter().map(|(p, _)| self.label(*p)));
            let first = &gains[0].1;
            let text = if gains.iter().all(|(_, g)| g == first) {
                format!("{} from {} {} each of {dests}", self.pieces(first), self.label(*src), prep(gains[0].0))
            } else {
                let each = gains.iter().map(|(p, g)| format!("{} {} {}", self.pieces(g), prep(*p), self.label(*p)));
                format!("{} from {}: {}", self.pieces(lost), self.label(*src), self.list(each))
            };
            return format!("{verb} {text}").trim_start().to_string();
        }
        let mut parts = Vec::new();
        for (dest, gained) in &gains {
            let sources: Vec<&(PlaceId, Vec<i32>)> =
                losses.iter().filter(|(l, _)| !paired || owner(*l, from) == owner(*dest, to)).collect();
            if sources.is_empty() {
                continue;
            }
            let from_text = if sources.len() == 1 {
                format!("{} from {}", self.pieces(gained), self.label(sources[0].0))
            } else if sources.iter().all(|(_, d)| *d == sources[0].1) {
                let places = self.list(sources.iter().map(|(p, _)| self.label(*p)));
                format!("{} ({} each from {places})", self.pieces(gained), self.pieces(&sources[0].1))
            } else {
                let each: Vec<String> =
                    sources.iter().map(|(p, d)| format!("{} from {}", self.pieces(d), self.label(*p))).collect();
                format!("{} ({})", self.pieces(gained), each.join(", "))
            };
            parts.push(format!("{from_text} {} {}", prep(*dest), self.label(*dest)));
        }
        if gains.len() > 1 && !paired {
            // Sources and destinations cannot be paired: say what each destination got.
            let lost: Vec<String> =
                losses.iter().map(|(p, d)| format!("{} from {}", self.pieces(d), self.label(*p))).collect();
            let got: Vec<String> =
                gains.iter().map(|(p, d)| format!("{} to {}", self.pieces(d), self.label(*p))).collect();
            return format!("{verb} {}: {}", lost.join(", "), got.join(", ")).trim_start().to_string();
        }
        format!("{verb} {}", parts.join(", ")).trim_start().to_string()
    }

    /// The pits that changed hands, in words.
    /// A pit given with a mark of its new owner's (`C becomes your tuzdyk`) is told by the mark alone.
    fn owners_changed(&self, from: &State, to: &State) -> Vec<String> {
        let rules = &self.engine.rules;
        let n = rules.n_pits;
        let marked_for_owner = |p: usize| {
            rules.marks.iter().enumerate().any(|(m, info)| {
                info.per_player
                    && to.marks.get(m * n + p) == Some(&to.owner[p].wrapping_add(1))
                    && from.marks.get(m * n + p) != to.marks.get(m * n + p)
            })
        };
        let mut by_owner: Vec<(u8, Vec<PlaceId>)> = Vec::new();
        for p in 0..n {
            if from.owner[p] != to.owner[p] && !marked_for_owner(p) {
                match by_owner.iter_mut().find(|(o, _)| *o == to.owner[p]) {
                    Some((_, pits)) => pits.push(p as PlaceId),
                    None => by_owner.push((to.owner[p], vec![p as PlaceId])),
                }
            }
        }
        by_owner
            .into_iter()
            .map(|(owner, pits)| {
                let whose = if owner == NO_PLAYER { "nobody's".to_string() } else { self.possessive(owner) };
                let verb = if pits.len() == 1 { "is" } else { "are" };
                format!("{} {verb} now {whose}", self.list(pits.iter().map(|&p| self.label(p))))
            })
            .collect()
    }

    /// The marks a ply made or removed: `C becomes your tuzdyk`, `a is no longer burnt`.
    fn marks_changed(&self, from: &State, to: &State) -> Vec<String> {
        self.mark_changes(from, to, self.engine.rules.marks.len(), true)
    }

    /// The lasting marks a ply made, none it removed.
    fn marks_made(&self, from: &State, to: &State) -> Vec<String> {
        self.mark_changes(from, to, self.engine.rules.lasting_marks(), false)
    }

    /// The changes of the first `marks` marks (the lasting ones come first), removals too or not.
    fn mark_changes(&self, from: &State, to: &State, marks: usize, removals: bool) -> Vec<String> {
        let rules = &self.engine.rules;
        let n = rules.n_pits;
        // Each change is a pit and what it became; the pits that became the same are told in one clause.
        let mut changes: Vec<(Vec<String>, (String, String))> = Vec::new();
        for (m, info) in rules.marks.iter().enumerate().take(marks) {
            for p in 0..n {
                let (was, now) = (from.marks.get(m * n + p), to.marks.get(m * n + p));
                let (Some(&was), Some(&now)) = (was, now) else { continue };
                if was == now || (now == 0 && !removals) {
                    continue;
                }
                let label = self.label(p as PlaceId);
                let words = info.name.replace('_', " ");
                let whose = |seat: u8| match self.name(seat).as_str() {
                    "you" => "your".to_string(),
                    name => format!("{name}'s"),
                };
                let held_for = if was != 0 && info.per_player { was - 1 } else { 0 };
                // What the pit became, said of one pit and of several.
                let (verb, verbs, what) = match (now, info.per_player, reads_as_adjective(&words)) {
                    (0, true, false) => ("is", "are", format!("no longer {} {words}", whose(held_for))),
                    (0, _, _) => ("is", "are", format!("no longer {words}")),
                    (_, false, true) => ("is", "are", format!("now {words}")),
                    (_, false, false) => ("becomes", "become", words.clone()),
                    (c, true, true) => ("is", "are", format!("now {words} for {}", self.name(c - 1))),
                    (c, true, false) => ("becomes", "become", format!("{} {words}", whose(c - 1))),
                };
                // A player's mark named by a noun takes an s for several pits (`o1 and o3 are no longer North's
                // wegues`); another reads as a mass noun (`B and C are no longer rubbish`).
                let countable = info.per_player && !reads_as_adjective(&words);
                let plural = if countable { format!("{what}s") } else { what.clone() };
                let said = (format!("{verb} {what}"), format!("{verbs} {plural}"));
                match changes.iter_mut().find(|(_, s)| *s == said) {
                    Some((pits, _)) => pits.push(label),
                    None => changes.push((vec![label], said)),
                }
            }
        }
        changes
            .into_iter()
            .map(|(pits, (one, several))| match pits.len() {
                1 => format!("{} {one}", pits[0]),
                k if k == n => format!("every pit {one}"),
                _ => format!("{} {several}", self.list(pits.into_iter())),
            })
            .collect()
    }

    /// What accepting the offer pending at `st` would do, found by accepting it on a copy.
    fn terms(&self, st: &State) -> String {
        let mut accepted = st.clone();
        self.engine.apply_unchecked(&mut accepted, Move::Accept);
        let mut parts = self.owners_changed(st, &accepted);
        let moved = self.moved("", st, &accepted);
        if !moved.is_empty() {
            parts.push(moved);
        }
        if parts.is_empty() {
            "accepting changes nothing".into()
        } else {
            format!("accepting it: {}", parts.join(", "))
        }
    }

    /// An engine for the same rules with some parts left out.
    fn variant(&self, strip: impl FnOnce(&mut Rules)) -> Engine {
        let mut rules = self.engine.lowered.clone();
        strip(&mut rules);
        Engine::new(rules)
    }

    /// Per kind, how the count of `place` changed from `a` to `b`.
    fn delta(&self, a: &State, b: &State, place: PlaceId) -> Vec<i32> {
        let k = self.engine.kinds();
        let i = place as usize * k;
        (0..k).map(|j| b.counts[i + j] as i32 - a.counts[i + j] as i32).collect()
    }

    /// Pieces in words: `3` for plain seeds, `2 red and 1 blue`, `gem 5`, `2 stone`.
    fn pieces(&self, counts: &[i32]) -> String {
        let kinds = &self.engine.rules.kinds;
        if counts.len() == 1 {
            return counts[0].to_string();
        }
        let class = |i: usize| kinds.iter().filter(|k| k.name == kinds[i].name).count() > 1;
        let words: Vec<String> = counts
            .iter()
            .enumerate()
            .filter(|(_, &n)| n > 0)
            .map(|(i, &n)| {
                // Colours are adjectives (`2 red`); other kinds are nouns (`2 stones`, `1 gem of 5`).
                let noun = kinds[i].owner == NO_PLAYER;
                let name = if noun && n > 1 { format!("{}s", kinds[i].name) } else { kinds[i].name.clone() };
                let value = if class(i) { format!(" of {}", kinds[i].value) } else { String::new() };
                format!("{n} {name}{value}")
            })
            .collect();
        self.list(words.into_iter())
    }

    fn label(&self, p: PlaceId) -> String {
        self.engine.rules.places.get(p as usize).map_or_else(|| p.to_string(), |i| i.label.clone())
    }

    fn name(&self, seat: u8) -> String {
        self.names.get(seat as usize).cloned().unwrap_or_else(|| format!("player {}", seat as u32 + 1))
    }

    fn possessive(&self, seat: u8) -> String {
        match self.name(seat).as_str() {
            "you" => "yours".into(),
            name => format!("{name}'s"),
        }
    }

    /// `a`, `a and b`, `a, b and c`.
    fn list(&self, items: impl Iterator<Item = String>) -> String {
        let items: Vec<String> = items.collect();
        match items.as_slice() {
            [] => String::new(),
            [one] => one.clone(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// The pits picked in a selection (`then`, `put`, `offer`), the first decision's place included.
/// Whether a round of the match ended between these two states.
fn ended_round(before: &State, after: &State) -> bool {
    after.rounds.len() > before.rounds.len()
}

fn picked(moves: &[Move]) -> Vec<PlaceId> {
    moves
        .iter()
        .filter_map(|m| match m {
            Move::Pick(p) => Some(*p),
            Move::Begin { place, .. } => Some(*place),
            _ => None,
        })
        .collect()
}

/// Leaves out the sweeps at the end, and with `all` every end rule too, so that a replayed sowing never
/// ends the game.
fn strip_end(rules: &mut Rules, all: bool) {
    let strip = |end: &mut EndRules| {
        end.sweeps.clear();
        if all {
            end.items.clear();
            end.limit = None;
        }
    };
    strip(&mut rules.end);
    for phase in &mut rules.phases {
        strip(&mut phase.end);
    }
}

/// Leaves out what follows a sowing (captures, `then`, another turn), and with `relays` the relays too.
/// Captures at every drop go too: they take as the pieces fall, so they are what follows each drop.
fn strip_sow(rules: &mut Rules, relays: bool) {
    for phase in &mut rules.phases {
        phase.must = None;
        for action in &mut phase.actions {
            if let ActionKind::Sow(sow) = &mut action.kind {
                sow.captures.clear();
                sow.drop_captures.clear();
                sow.lift_captures.clear();
                sow.answers.clear();
                sow.then = None;
                sow.again = None;
                sow.require = None;
                if relays {
                    sow.relay = None;
                }
            }
        }
    }
}

/// The answers of every sowing (`opponent may`), phase by phase and action by action.
fn answers_of(rules: &Rules) -> Vec<Vec<Vec<crate::ir::CaptureRule>>> {
    let of = |a: &crate::ir::Action| match &a.kind {
        ActionKind::Sow(sow) => sow.answers.clone(),
        _ => Vec::new(),
    };
    rules.phases.iter().map(|p| p.actions.iter().map(of).collect()).collect()
}

/// Puts back the answers `answers_of` kept.
fn restore_answers(rules: &mut Rules, kept: Vec<Vec<Vec<crate::ir::CaptureRule>>>) {
    for (phase, kept) in rules.phases.iter_mut().zip(kept) {
        for (action, answers) in phase.actions.iter_mut().zip(kept) {
            if let ActionKind::Sow(sow) = &mut action.kind {
                sow.answers = answers;
            }
        }
    }
}

/// How many of a ply's first decisions make its sowing, before any capture: the start, the pit sown from
/// after a take made before the sowing, the direction and the pieces dropped.
fn opening(engine: &Engine, before: &State, moves: &[Move]) -> usize {
    let take_first = match moves.first() {
        Some(Move::Begin { action, .. }) => matches!(
            engine.phase(before).actions.get(*action as usize).map(|a| &a.kind),
            Some(ActionKind::Sow(s)) if s.take_first.is_some()
        ),
        _ => false,
    };
    moves
        .iter()
        .enumerate()
        .take_while(|&(i, m)| {
            matches!(m, Move::Begin { .. } | Move::Direction(_) | Move::Drop(_))
                || (i == 1 && take_first && matches!(m, Move::Pick(_)))
        })
        .count()
}

/// The boards a ply passes through, for a front end that shows it step by step: after the sowing alone
/// (before its captures and what follows them), after the whole ply, and after the sweep when the ply ended
/// the game; a board equal to the one before it is left out. The last is `after`.
pub fn steps(engine: &Engine, before: &State, moves: &[Move], after: &State) -> Vec<State> {
    let n = Narrator { engine, names: &[] };
    let mut out = Vec::new();
    if let Some(Move::Begin { action, .. }) = moves.first() {
        let kind = engine.phase(before).actions.get(*action as usize).map(|a| &a.kind);
        if matches!(kind, Some(ActionKind::Sow(_))) {
            let sown_only = n.variant(|r| {
                strip_end(r, true);
                strip_sow(r, false);
            });
            let mut sown = before.clone();
            let sowing = moves.iter().take(opening(engine, before, moves));
            for &mv in sowing {
                sown_only.apply_unchecked(&mut sown, mv);
            }
            out.push(sown);
        }
    }
    if after.result.is_some() {
        let no_sweep = n.variant(|r| strip_end(r, false));
        let mut end_of_ply = before.clone();
        for &mv in moves {
            no_sweep.apply_unchecked(&mut end_of_ply, mv);
        }
        out.push(end_of_ply);
    }
    out.push(after.clone());
    out.dedup_by(|later, earlier| later.counts == earlier.counts);
    out
}

/// One board of a ply shown seed by seed: the pieces everywhere, the place a piece just went into (or was
/// lifted from), and the pieces in hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    pub counts: Vec<u8>,
    pub at: Option<PlaceId>,
    pub hand: u32,
}

/// The boards a ply passes through piece by piece, for a front end that animates it: each lap's lift, a
/// board per piece dropped, the board after each capture, and `after` last. Where that would take more
/// than `max` boards (a sowing of many laps), one board per lap's end instead, the last `max` of them.
/// A lap's drops are found by walking the mover's track from the lap's pit and dropping a piece wherever
/// the lap's end has more than the board so far; pieces sent elsewhere (`divert`) appear with the lap's
/// end.
pub fn frames(engine: &Engine, before: &State, moves: &[Move], after: &State, max: usize) -> Vec<Frame> {
    let board = |counts: &[u8], at: Option<PlaceId>, hand: u32| Frame { counts: counts.to_vec(), at, hand };
    let Some(&Move::Begin { action, place }) = moves.first() else {
        return vec![board(&after.counts, None, 0)];
    };
    let Some(ActionKind::Sow(sow)) = engine.phase(before).actions.get(action as usize).map(|a| &a.kind) else {
        return vec![board(&after.counts, None, 0)];
    };
    let mut out = Vec::new();
    let mut cur = before.counts.clone();
    // A take before the sowing shows as a board of its own; the laps start from the pit picked after it.
    let mut place = place;
    if let (Some(_), Some(&Move::Pick(from))) = (&sow.take_first, moves.get(1)) {
        let mut taken = before.clone();
        engine.apply_unchecked(&mut taken, moves[0]);
        cur = taken.counts;
        out.push(board(&cur, Some(place), 0));
        place = from;
    }
    let laps = lap_records(engine, before, moves, sow, place);
    let walker = Walker { engine, mover: before.to_move, starts_at_origin: sow.start_origin.is_some() };
    for lap in &laps {
        walker.lap(&mut out, &mut cur, lap);
        if out.len() > max {
            break;
        }
    }
    if out.len() > max {
        // Too many pieces to show one by one: the end of each lap and capture.
        out = laps
            .iter()
            .flat_map(|l| {
                std::iter::once(board(&l.counts, Some(l.last), 0)).chain(l.captured.as_ref().map(|c| board(c, None, 0)))
            })
            .collect();
        let skip = out.len().saturating_sub(max.saturating_sub(1));
        out.drain(..skip);
    }
    if out.last().is_none_or(|f| f.counts != after.counts) {
        out.push(board(&after.counts, None, 0));
    }
    out
}

/// The laps of the sowing of a ply as the engine writes them down; a sowing of one lap, which writes none,
/// as one lap read off the board after it (before its captures).
fn lap_records(
    engine: &Engine,
    before: &State,
    moves: &[Move],
    sow: &crate::ir::Sow,
    origin: PlaceId,
) -> Vec<crate::engine::LapRecord> {
    let logger = engine.clone().without_fast_paths().with_lap_log();
    let mut st = before.clone();
    for &mv in moves {
        logger.apply_unchecked(&mut st, mv);
    }
    let laps = logger.take_lap_log();
    if sow.laps && !laps.is_empty() {
        return laps;
    }
    let n = Narrator { engine, names: &[] };
    let sown_only = n
        .variant(|r| {
            strip_end(r, true);
            strip_sow(r, false);
        })
        .with_lap_log();
    let mut sown = before.clone();
    for &mv in moves.iter().take(opening(engine, before, moves)) {
        sown_only.apply_unchecked(&mut sown, mv);
    }
    let k = engine.kinds();
    let (from, lifted) = sown_only
        .last_lift()
        .unwrap_or_else(|| (origin, before.counts[origin as usize * k..origin as usize * k + k].to_vec()));
    vec![crate::engine::LapRecord {
        origin,
        dir: sown.dir,
        last: sown.last,
        counts: sown.counts,
        captured: None,
        goes_on: false,
        lifted,
        lifted_from: Some(from),
        chosen: false,
    }]
}

/// Walks laps along the mover's track, a board per piece.
struct Walker<'e> {
    engine: &'e Engine,
    mover: u8,
    starts_at_origin: bool,
}

impl Walker<'_> {
    fn lap(&self, out: &mut Vec<Frame>, cur: &mut Vec<u8>, lap: &crate::engine::LapRecord) {
        let k = self.engine.kinds();
        let places = self.engine.rules.places.len();
        let mut hand: Vec<u32> = lap.lifted.iter().map(|&n| n as u32).collect();
        hand.resize(k, 0);
        if let Some(from) = lap.lifted_from {
            for (i, h) in hand.iter().enumerate() {
                let c = &mut cur[from as usize * k + i];
                *c = c.saturating_sub(*h as u8);
            }
            out.push(Frame { counts: cur.clone(), at: Some(from), hand: hand.iter().sum() });
        }
        let row = (self.mover as usize * 2 + lap.dir as usize) * places;
        let needs = |cur: &[u8], q: PlaceId, hand: &[u32]| {
            (0..k).find(|&i| hand[i] > 0 && lap.counts[q as usize * k + i] > cur[q as usize * k + i])
        };
        let total: u32 = hand.iter().sum();
        let mut q = lap.origin;
        // The first piece back into the lap's pit (`start at origin`), where a lap too short to come round
        // to it left it more than it had.
        let cycle = self.cycle_len(row, lap.origin);
        let mut first = self.starts_at_origin && (total as usize) < cycle;
        let mut steps = 0usize;
        while hand.iter().sum::<u32>() > 0 && steps < places * 300 {
            steps += 1;
            if !first {
                let Some(&next) = self.engine.rules.next.get(row + q as usize) else { break };
                if next == q || next as usize >= places {
                    break;
                }
                q = next;
            }
            first = false;
            if let Some(i) = needs(cur, q, &hand) {
                cur[q as usize * k + i] += 1;
                hand[i] -= 1;
                out.push(Frame { counts: cur.clone(), at: Some(q), hand: hand.iter().sum() });
            }
        }
        if *cur != lap.counts {
            cur.clone_from(&lap.counts);
            out.push(Frame { counts: cur.clone(), at: Some(lap.last), hand: 0 });
        }
        if let Some(captured) = &lap.captured {
            cur.clone_from(captured);
            out.push(Frame { counts: cur.clone(), at: None, hand: 0 });
        }
    }

    /// The number of places a lap from `origin` passes before it comes back to it.
    fn cycle_len(&self, row: usize, origin: PlaceId) -> usize {
        let places = self.engine.rules.places.len();
        let mut q = origin;
        for n in 1..=places {
            match self.engine.rules.next.get(row + q as usize) {
                Some(&next) if next as usize >= places || next == q => return n,
                Some(&next) if next == origin => return n,
                Some(&next) => q = next,
                None => return n,
            }
        }
        places
    }
}
