//! §8 (phases, `until`, `again`), §10 (end rules, built-in ends, a match of rounds) and §11 (score, winner,
//! goal): what happens between one ply and the next. `end_ply` is the order the docs give: the ply counted,
//! the marks' plies taken down, the turn passed, the quiet rounds counted, the phase advanced; then
//! `after_ply` checks the end rules in the order written (again from the first after an elimination), the
//! ply limit, the obligation, and whether the player to move can move at all.

use mancala::ir::*;

use super::eval::Cx;
use super::state::{Outcome, Reason, RoundEnd};
use super::turn::{Done, Next, Stop};
use super::{Game, Player, Reference};

/// The most plies of a game whose file sets no limit (§10 `limit`).
pub const DEFAULT_LIMIT: u32 = 20_000;

/// What the end rules found.
enum EndCheck {
    Over(Reason),
    /// Someone was eliminated: the rules are looked at again from the first.
    Eliminated,
    GoesOn,
}

impl Reference {
    /// The rule about never-ending moves in force (`draw`, `eliminate` or `cut when endless`), if any.
    pub(super) fn endless_rule(&self, phase: usize) -> Option<&EndRule> {
        self.rules.phases[phase].end.items.iter().chain(&self.rules.end.items).find(|r| r.is_endless())
    }

    /// The end of a ply.
    pub fn end_ply(&self, g: &mut Game, done: Done) {
        let mover = done.mover;
        g.ply += 1;
        g.last_mover = mover;
        g.plies_made[mover as usize] += 1;
        if done.captured {
            g.capture_plies[mover as usize] += 1;
        }
        g.taken_first.clear();
        g.obliged = false;
        // An end rule `at every lap` stopped the move: the game ends at once, as the move stopped.
        if done.stop == Some(Stop::AtEveryLap) {
            return self.finish(g, Reason::Condition);
        }
        self.take_down_timed_marks(g);
        match done.stop {
            Some(Stop::Endless) => match self.endless_rule(g.phase) {
                Some(EndRule::EliminateEndless) => {
                    g.out[mover as usize] = true;
                    if g.active().count() <= 1 {
                        return self.finish(g, Reason::LastStanding);
                    }
                }
                Some(EndRule::CutEndless) => {}
                _ => return self.finish(g, Reason::Endless),
            },
            Some(Stop::AtEveryLap) | None => {}
        }
        // Whose turn: the mover again (`again`, or he answered an offer), the answerer, or the next player.
        let phase = &self.rules.phases[g.phase];
        let again = phase.again.as_ref().is_some_and(|c| self.test(g, Cx::mover(mover), c));
        g.to_move = match done.next {
            Next::Respond => g.next_active(mover),
            Next::Keep if !g.out[mover as usize] => mover,
            _ if again && !g.out[mover as usize] => mover,
            _ => g.next_active(mover),
        };
        // The ply counts for the quiet rounds of its own phase; a new phase starts the count at 0 (§10).
        self.count_quiet(g, mover, done.captured);
        self.advance_phases(g);
        self.after_ply(g);
    }

    /// §8: while the phase's `until` holds (the player about to move is `mover`), the next phase begins.
    pub(super) fn advance_phases(&self, g: &mut Game) {
        while g.phase + 1 < self.rules.phases.len() {
            let Some(until) = &self.rules.phases[g.phase].until else { break };
            if !self.test(g, Cx::mover(g.to_move), until) {
                break;
            }
            g.phase += 1;
            g.quiet = 0;
            g.quiet_turns = 0;
            g.quiet_movers.clear();
        }
    }

    /// `for N plies`: each pit's mark loses a ply as a ply ends, and goes with its last.
    fn take_down_timed_marks(&self, g: &mut Game) {
        for (m, info) in self.rules.marks.iter().enumerate() {
            if info.plies == 0 {
                continue;
            }
            for cell in g.marks[m].iter_mut() {
                if let Some(c) = cell {
                    c.lives = c.lives.saturating_sub(1);
                    if c.lives == 0 {
                        *cell = None;
                    }
                }
            }
        }
    }

    /// `draw when no capture for N rounds | turns`: a round is complete when every player still in has had a
    /// turn; any capture starts the count again.
    fn count_quiet(&self, g: &mut Game, mover: Player, captured: bool) {
        if captured {
            g.quiet = 0;
            g.quiet_turns = 0;
            g.quiet_movers.clear();
            return;
        }
        g.quiet_turns += 1;
        g.quiet_movers.insert(mover);
        if g.active().all(|p| g.quiet_movers.contains(&p)) {
            g.quiet += 1;
            g.quiet_movers.clear();
        }
    }

    /// After a ply (or as a round begins): the end rules, the ply limit, the obligation, the player to move's
    /// moves; then the position is one seen.
    pub(super) fn after_ply(&self, g: &mut Game) {
        self.turn_checks(g, false);
    }

    /// The checks as a turn begins, after a ply or (`at_start`) before the first, where there is no last
    /// sowing yet and the end rules that read where it was wait (§10).
    pub(super) fn turn_checks(&self, g: &mut Game, at_start: bool) {
        loop {
            match self.end_rules(g, at_start) {
                EndCheck::Over(reason) => return self.finish(g, reason),
                EndCheck::Eliminated if g.active().count() <= 1 => return self.finish(g, Reason::LastStanding),
                EndCheck::Eliminated => continue,
                EndCheck::GoesOn => break,
            }
        }
        // §5: a mark for one ply lasts until the ply that made it is over: the end rules after it have seen
        // it, and the next ply is chosen and played without it. Those of a position typed in (`at_start`) are
        // the coming ply's.
        if !at_start {
            for (m, info) in self.rules.marks.iter().enumerate() {
                if info.one_ply {
                    g.marks[m].iter_mut().for_each(|c| *c = None);
                }
            }
        }
        if g.ply >= self.limit(g.phase) {
            return self.finish(g, Reason::Limit);
        }
        if !self.begin_turn(g) {
            return self.finish(g, Reason::Obligation);
        }
        let starts = self.starts(g);
        if starts.is_empty() {
            return self.finish(g, Reason::Stuck);
        }
        g.starts = Some(starts);
        let lasting = self.lasting_marks();
        let now = g.position(lasting);
        std::rc::Rc::make_mut(&mut g.history).push(now);
    }

    /// The ply limit of a phase: its own, else the top level's, else the smallest written anywhere, else
    /// [`DEFAULT_LIMIT`].
    fn limit(&self, phase: usize) -> u32 {
        let written = self.rules.phases.iter().filter_map(|p| p.end.limit).chain(self.rules.end.limit).min();
        self.rules.phases[phase].end.limit.or(self.rules.end.limit).or(written).unwrap_or(DEFAULT_LIMIT)
    }

    /// §9.6 `must`, at the start of a turn: bound when `WHEN` holds; when no move meets it, the game ends
    /// (`else end`, false) or the obligation is dropped (`else any`).
    pub(super) fn begin_turn(&self, g: &mut Game) -> bool {
        g.obliged = false;
        if g.offer.is_some() {
            return true;
        }
        let Some(must) = &self.rules.phases[g.phase].must else { return true };
        if !self.test(g, Cx::mover(g.to_move), &must.when) {
            return true;
        }
        g.obliged = true;
        if self.starts(g).iter().any(|d| matches!(d, super::Decision::Begin { .. })) {
            return true;
        }
        g.obliged = false;
        !must.otherwise_end
    }

    /// The end rules, the phase's then the top level's, in the order written: the first that fires. Before
    /// the first ply (`at_start`) and until a sowing has been made, those that read the last sowing are passed over.
    fn end_rules(&self, g: &mut Game, at_start: bool) -> EndCheck {
        let phase = &self.rules.phases[g.phase];
        let rules: Vec<&EndRule> = phase.end.items.iter().chain(&self.rules.end.items).collect();
        let cx = Cx::mover(g.to_move);
        for rule in rules {
            let waits = match rule {
                EndRule::When(c) | EndRule::AtEveryLap(c) | EndRule::Eliminate(c) | EndRule::DrawWhen(c) => {
                    reads_last_sowing(c)
                }
                _ => false,
            };
            // Before the first sowing of the game (before the first ply, or after plies that only put, offer
            // or take), there is no last sowing: those rules wait.
            if (at_start || g.sowing.is_none()) && waits {
                continue;
            }
            let fired = match rule {
                EndRule::When(c) | EndRule::AtEveryLap(c) => self.test(g, cx, c).then_some(Reason::Condition),
                EndRule::DrawWhen(c) => self.test(g, cx, c).then_some(Reason::ConditionDraw),
                EndRule::Repetition | EndRule::DrawRepetition => {
                    let now = g.position(self.lasting_marks());
                    let seen = g.history.contains(&now);
                    let reason =
                        if matches!(rule, EndRule::Repetition) { Reason::Repetition } else { Reason::RepetitionDraw };
                    seen.then_some(reason)
                }
                EndRule::Stuck => self.starts(g).is_empty().then_some(Reason::Stuck),
                // §10: a player with an offer to answer can move (his answer is his ply): nobody is stuck
                // while an offer waits; the rule is looked at again after the answer.
                EndRule::NobodyCanMove => {
                    (g.offer.is_none() && g.active().all(|p| !self.can_start(g, p))).then_some(Reason::NobodyCanMove)
                }
                EndRule::Draw { count, rounds } => {
                    let quiet = if *rounds { g.quiet } else { g.quiet_turns };
                    (quiet >= *count).then_some(Reason::NoCapture)
                }
                EndRule::Eliminate(c) => {
                    let out: Vec<Player> = g.active().filter(|&p| self.test(g, cx.with_player(p), c)).collect();
                    if !out.is_empty() {
                        self.eliminate(g, &out);
                        return EndCheck::Eliminated;
                    }
                    None
                }
                EndRule::EliminateStuck => {
                    let mut any = false;
                    // §10: a player with an offer to answer can move (his answer); he is tested at his own
                    // turn, after it.
                    // The last player in is not tested (he wins), but a solitaire's player is.
                    let last_kept = if self.rules.players == 1 { 0 } else { 1 };
                    while g.offer.is_none() && g.active().count() > last_kept && !self.can_start(g, g.to_move) {
                        let p = g.to_move;
                        self.eliminate(g, &[p]);
                        any = true;
                    }
                    if any {
                        return EndCheck::Eliminated;
                    }
                    None
                }
                EndRule::Endless | EndRule::EliminateEndless | EndRule::CutEndless => None,
            };
            if let Some(reason) = fired {
                return EndCheck::Over(reason);
            }
        }
        EndCheck::GoesOn
    }

    /// Players out of the game, one at a time in seat order until one is left (§10: he wins, and those
    /// after him stay in); the turn passes on from one who is out.
    fn eliminate(&self, g: &mut Game, players: &[Player]) {
        let mut players = players.to_vec();
        players.sort();
        // §10: the last player in wins, so he is never put out; but a solitaire's player is, which ends it.
        let last_kept = if self.rules.players == 1 { 0 } else { 1 };
        for p in players {
            if g.active().count() <= last_kept {
                break;
            }
            g.out[p as usize] = true;
        }
        if g.out[g.to_move as usize] {
            g.to_move = g.next_active(g.to_move);
        }
    }

    /// The game (or, in a match, the round) ends: the sweeps, the scores, the winners.
    pub(super) fn finish(&self, g: &mut Game, reason: Reason) {
        let match_ends = matches!(reason, Reason::Limit | Reason::Endless | Reason::LastStanding);
        if self.rules.rounds.is_some() && !match_ends {
            return self.end_round(g, reason);
        }
        self.sweep(g, reason);
        let (winners, scores) = self.judge(g, reason);
        g.result = Some(Outcome { winners, scores, reason, rounds: g.rounds.clone() });
    }

    /// `sweep SET to PLACE [after ENDING]`: the phase's, then the top level's, in the order written; one made
    /// `after` an ending only when the game ended so (§10).
    fn sweep(&self, g: &mut Game, reason: Reason) {
        let phase = &self.rules.phases[g.phase];
        let cx = Cx::mover(g.to_move);
        let made = |end: &EndRules, i: usize| match end.sweep_after.get(i).copied().flatten() {
            None => true,
            Some(Ending::Repetition) => matches!(reason, Reason::Repetition | Reason::RepetitionDraw),
            Some(Ending::Stuck) => reason == Reason::Stuck,
            Some(Ending::Limit) => reason == Reason::Limit,
        };
        let phase_sweeps = phase.end.sweeps.iter().enumerate().filter(|&(i, _)| made(&phase.end, i));
        let top_sweeps = self.rules.end.sweeps.iter().enumerate().filter(|&(i, _)| made(&self.rules.end, i));
        for (_, (set, to)) in phase_sweeps.chain(top_sweeps) {
            for p in self.set(g, cx, set) {
                let Some(dest) = self.place(g, cx.at(p), to) else { continue };
                if dest == p {
                    continue;
                }
                for k in 0..self.kinds() {
                    let n = g.pieces[p as usize][k];
                    g.pieces[p as usize][k] = 0;
                    g.pieces[dest as usize][k] += n;
                }
                self.lose_if_emptied(g, p);
            }
        }
    }

    /// §11: each player's score (`player`, and `mover`, the player scored), and who wins: the goal of a
    /// solitaire however it ends; else a draw for the endings that draw, the last player standing, or the most
    /// score among the players still in (`ties ...`).
    fn judge(&self, g: &Game, reason: Reason) -> (Vec<Player>, Vec<i32>) {
        let cx = Cx::mover(g.to_move);
        let scores: Vec<i32> = (0..self.rules.players)
            .map(|p| self.num(g, Cx::mover(p).with_player(p), &self.rules.score) as i32)
            .collect();
        let winners = match (reason, &self.rules.goal) {
            (_, Some(goal)) => {
                if self.test(g, cx, goal) {
                    vec![0]
                } else {
                    Vec::new()
                }
            }
            (Reason::NoCapture | Reason::Endless | Reason::RepetitionDraw | Reason::ConditionDraw, None) => Vec::new(),
            (Reason::LastStanding, None) => g.active().collect(),
            (_, None) => self.most_score(g, &scores),
        };
        (winners, scores)
    }

    /// `winner most score, ties ...`: among the players still in.
    fn most_score(&self, g: &Game, scores: &[i32]) -> Vec<Player> {
        let best = g.active().map(|p| scores[p as usize]).max().unwrap_or(0);
        let top: Vec<Player> = g.active().filter(|&p| scores[p as usize] == best).collect();
        match (top.len(), self.rules.ties) {
            (1, _) | (_, Ties::Shared) => top,
            (_, Ties::LastMover) if top.contains(&g.last_mover) => vec![g.last_mover],
            _ => Vec::new(),
        }
    }

    /// §10 A match of rounds: the round is scored; unless the match is over, the refills, the next starter,
    /// `match when`, and the next round.
    fn end_round(&self, g: &mut Game, reason: Reason) {
        let rounds = self.rules.rounds.as_ref().expect("a match of rounds");
        if g.round > 1 && g.ply == g.round_start_ply {
            // A round after the first that ends before a ply of it is played: the next would too, for ever.
            // It stops the match.
            self.sweep(g, reason);
            let (winners, scores) = self.judge(g, reason);
            g.result = Some(Outcome { winners, scores, reason, rounds: g.rounds.clone() });
            return;
        }
        self.sweep(g, reason);
        let (winners, scores) = self.judge(g, reason);
        g.rounds.push(RoundEnd { winners: winners.clone(), scores: scores.clone(), reason });
        let over = |g: &mut Game, winners: Vec<Player>, scores: Vec<i32>, reason: Reason| {
            g.result = Some(Outcome { winners, scores, reason, rounds: g.rounds.clone() });
        };
        if rounds.limit.is_some_and(|l| g.round >= l) {
            return over(g, winners, scores, Reason::RoundLimit);
        }
        // The marks go back to the setup's, then the refills.
        g.marks = self.setup_marks();
        for refill in &rounds.refills {
            self.refill(g, refill);
        }
        // The next starter: the player after this round's starter, after a drawn round too; the winner (the
        // first in seat order when several share the win); the loser (the first in seat order with the lowest
        // score).
        let after = g.next_active(g.round_starter);
        let starter = match rounds.first {
            FirstRule::Alternate => after,
            _ if winners.is_empty() => after,
            FirstRule::Winner => winners[0],
            FirstRule::Loser => {
                let low = g.active().map(|p| scores[p as usize]).min().unwrap_or(0);
                g.active().find(|&p| scores[p as usize] == low).unwrap_or(after)
            }
        };
        if let Some(m) = &rounds.match_when {
            if self.test(g, Cx::mover(starter), m) {
                let (winners, scores) = self.judge(g, Reason::Match);
                return over(g, winners, scores, Reason::Match);
            }
        }
        // The next round: the first phase, the starter to move, nothing kept but pieces and owners.
        g.round += 1;
        g.round_starter = starter;
        g.round_start_ply = g.ply;
        g.phase = 0;
        g.to_move = starter;
        g.history = Default::default();
        g.quiet = 0;
        g.quiet_turns = 0;
        g.quiet_movers.clear();
        g.passed.fill(false);
        g.drops.fill(None);
        g.offer = None;
        self.advance_phases(g);
        self.after_ply(g);
    }

    /// `refill SET from PLACE with N [borrow K from LENDER] [backward] [claim from START] [else mark MARK]`.
    fn refill(&self, g: &mut Game, refill: &Refill) {
        let n = refill.count;
        let take = |g: &mut Game, source: PlaceId, pit: PlaceId, mut left: u32| {
            for k in 0..self.kinds() {
                let m = (g.pieces[source as usize][k] as u32).min(left) as u8;
                g.pieces[source as usize][k] -= m;
                g.pieces[pit as usize][k] += m;
                left -= m as u32;
            }
        };
        let fill = |g: &mut Game, player: Player, pit: PlaceId| -> bool {
            let cx = Cx::mover(player).with_player(player).at(pit);
            let Some(source) = self.place(g, cx, &refill.from) else { return false };
            let has = g.total(source);
            if has >= n {
                take(g, source, pit, n);
                return true;
            }
            // `borrow`: a source short of 1 to K pieces, not empty, fills the pit with what it has and the
            // rest from the lender, when the lender (another place) has them.
            let Some((most, lender)) = &refill.borrow else { return false };
            let Some(lender) = self.place(g, cx, lender) else { return false };
            if has == 0 || n - has > *most || lender == source || g.total(lender) < n - has {
                return false;
            }
            take(g, source, pit, has);
            take(g, lender, pit, n - has);
            true
        };
        let pits_of = |g: &Game, player: Player| -> Vec<PlaceId> {
            let cx = Cx::mover(player).with_player(player);
            self.set(g, cx, &refill.set).into_iter().filter(|&p| (p as usize) < self.board.n_pits).collect()
        };
        match &refill.claim {
            None => {
                for player in 0..self.rules.players {
                    // His pits of the set, by their numbers (the board's order among pits of one number).
                    let mut pits: Vec<PlaceId> =
                        pits_of(g, player).into_iter().filter(|&p| g.owner[p as usize] == Some(player)).collect();
                    pits.sort_by_key(|&p| (self.board.number(p), p));
                    if refill.backward {
                        pits.reverse();
                    }
                    for pit in pits {
                        let filled = fill(g, player, pit);
                        if let Some(m) = refill.mark {
                            if filled {
                                g.marks[m as usize][pit as usize] = None;
                            } else {
                                let owner = g.owner[pit as usize];
                                self.put_mark(g, pit, m, owner);
                            }
                        }
                    }
                }
            }
            Some(start) => {
                let mut filled: Vec<PlaceId> = Vec::new();
                let mut every: Vec<PlaceId> = Vec::new();
                for player in 0..self.rules.players {
                    let pits = pits_of(g, player);
                    every.extend(pits.iter().copied());
                    let cx = Cx::mover(player).with_player(player);
                    let Some(first) = self.place(g, cx, start) else { continue };
                    let dir = if refill.backward { Dir::Cw } else { Dir::Ccw };
                    let mut at = first;
                    for _ in 0..self.board.n_pits * 2 + 2 {
                        if pits.contains(&at) && !filled.contains(&at) {
                            if !fill(g, player, at) {
                                break;
                            }
                            g.owner[at as usize] = Some(player);
                            if let Some(m) = refill.mark {
                                g.marks[m as usize][at as usize] = None;
                            }
                            filled.push(at);
                        }
                        match self.board.step(at, dir, |_| false) {
                            Some(q) if q != first => at = q,
                            _ => break,
                        }
                    }
                }
                for p in every {
                    if !filled.contains(&p) {
                        g.owner[p as usize] = None;
                        if let Some(m) = refill.mark {
                            self.put_mark(g, p, m, None);
                        }
                    }
                }
            }
        }
    }
}
