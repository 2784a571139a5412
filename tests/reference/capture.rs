//! §9.1 `capture`, §9.2 `take`, and the marks and gifts a capture makes: which capture applies
//! (`first_capture`, asking about a `capture may`), the capture at its pit and along its chain (`capture`),
//! `cancel`, each `take` (`take`, chosen pieces one at a time), `mark`/`unmark`/`give` (`mark_step`), and
//! `until empty` (`lose_if_emptied`).

use std::collections::BTreeSet;

use mancala::ir::*;

use super::eval::Cx;
use super::state::MarkCell;
use super::turn::{Halt, Ply, Run};
use super::{Decision, Game, Player, Reference};

impl Reference {
    /// The first capture rule whose condition holds at the last place; a `capture may` is the mover's choice,
    /// and declined, the rules after it are tried.
    pub(super) fn first_capture(&self, g: &Game, run: &mut Run, sow: &Sow, cx: Cx) -> Result<Option<usize>, Halt> {
        for (i, rule) in sow.captures.iter().enumerate() {
            if !self.test(g, cx, &rule.when) {
                continue;
            }
            if !rule.may || run.ask(vec![Decision::Capture(true), Decision::Capture(false)])? == Decision::Capture(true)
            {
                return Ok(Some(i));
            }
        }
        Ok(None)
    }

    /// A capture carried out at `last` and along its chain, then called off if its `cancel` holds. The first
    /// capture of the move that takes pieces records the pits it took from (`taken_first`); in a trial of
    /// `threats`, the move stops there.
    pub(super) fn capture(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        rule: &CaptureRule,
        last: PlaceId,
        dir: Dir,
    ) -> Result<(), Halt> {
        let saved = rule.cancel.as_ref().map(|_| (g.clone(), ply.hand.clone()));
        ply.picked = None;
        let mut taken: BTreeSet<PlaceId> = BTreeSet::new();
        let mut took_any = false;
        self.capture_at(g, run, ply, rule, last, &mut taken, &mut took_any)?;
        // A chain starts from a pit: a lap that ended in a store has none.
        let from_a_pit = (last as usize) < self.board.n_pits;
        if let Some(chain) = rule.chain.as_ref().filter(|_| from_a_pit) {
            // Backward (against the sowing) first, then forward, each from the last pit, over pits only.
            let walks = [(chain.backward, dir.reverse()), (chain.forward, dir)];
            for (_, way) in walks.into_iter().filter(|(on, _)| *on) {
                let mut at = last;
                for _ in 1..self.board.n_pits {
                    let Some(p) = self.board.pit_step(at, way) else { break };
                    if p == last || !self.test(g, Cx::mover(ply.mover).at(p), &chain.cond) {
                        break;
                    }
                    self.capture_at(g, run, ply, rule, p, &mut taken, &mut took_any)?;
                    at = p;
                }
            }
        }
        if let (Some(cancel), Some((before, hand))) = (&rule.cancel, saved) {
            if self.test(g, Cx::mover(ply.mover).at(last), cancel) {
                *g = before;
                ply.hand = hand;
                return Ok(());
            }
        }
        // A capture is made when it takes pieces (§10 `draw when no capture`, §13 `captures(P)`).
        ply.captured |= took_any;
        if took_any && !ply.first_taken {
            ply.first_taken = true;
            g.taken_first = taken.into_iter().filter(|&p| (p as usize) < self.board.n_pits).collect();
            if run.trial {
                return Err(Halt::TrialOver);
            }
        }
        Ok(())
    }

    /// The capture's marks, gifts and takes at one pit, in the order written.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn capture_at(
        &self,
        g: &mut Game,
        run: &mut Run,
        ply: &mut Ply,
        rule: &CaptureRule,
        here: PlaceId,
        taken: &mut BTreeSet<PlaceId>,
        took_any: &mut bool,
    ) -> Result<(), Halt> {
        let cx = Cx::mover(ply.mover).at(here);
        for t in 0..=rule.takes.len() {
            for step in rule.steps.iter().filter(|s| s.before as usize == t) {
                self.mark_step(g, cx, &step.action);
            }
            if let Some(take) = rule.takes.get(t) {
                let from = self.take(g, run, &mut ply.hand, &mut ply.picked, take, cx)?;
                *took_any |= !from.is_empty();
                taken.extend(from);
            }
        }
        Ok(())
    }

    /// §9.2 `take`: the pieces of the first group of places that holds any, to a place, to each place of a set,
    /// or to the mover's hand; `chosen` pieces one at a time. Returns the places pieces were taken from.
    pub(super) fn take(
        &self,
        g: &mut Game,
        run: &mut Run,
        hand: &mut [u8],
        picked: &mut Option<(usize, PlaceId, KindId)>,
        take: &TakeRule,
        cx: Cx,
    ) -> Result<BTreeSet<PlaceId>, Halt> {
        let kinds = self.kinds_of(g, cx, &take.kinds);
        let mut from = BTreeSet::new();
        match &take.to {
            // Every place of the set receives its pieces, each from the first group that holds any then.
            TakeTo::Each(set) => {
                for target in self.set(g, cx, set) {
                    let sources = self.first_group(g, cx, take, &kinds, Some(target));
                    let n = take.count.unwrap_or(u32::MAX);
                    self.move_pieces(g, &sources, &kinds, n, Dest::Place(target), &mut from);
                }
            }
            // Chosen pieces, one at a time, each from the first group that holds any then. The pieces a
            // capture takes (at its pit and along its chain) form a set, so they are picked in one order only
            // (by group, place, then kind: `picked` is the last); a line that leaves a piece it could have
            // taken is not one.
            to if take.chosen => {
                let target = self.target(g, cx, to);
                for _ in 0..take.count.unwrap_or(1) {
                    let group = self.first_group_index(g, cx, take, &kinds, target);
                    let sources = self.first_group(g, cx, take, &kinds, target);
                    let pieces: Vec<(usize, PlaceId, KindId)> = sources
                        .iter()
                        .flat_map(|&p| kinds.iter().map(move |&k| (group, p, k)))
                        .filter(|&(_, p, k)| g.pieces[p as usize][k as usize] > 0)
                        .collect();
                    if pieces.is_empty() {
                        break;
                    }
                    let options: Vec<Decision> = pieces
                        .into_iter()
                        .filter(|&pk| picked.is_none_or(|q| pk >= q))
                        .map(|(_, place, kind)| Decision::Take { place, kind })
                        .collect();
                    if options.is_empty() {
                        return Err(Halt::Illegal);
                    }
                    let Decision::Take { place, kind } = run.ask(options)? else { unreachable!() };
                    *picked = Some((group, place, kind));
                    let dest = self.dest(g, cx, to, hand);
                    self.move_pieces(g, &[place], &[kind], 1, dest, &mut from);
                }
            }
            to => {
                let sources = self.first_group(g, cx, take, &kinds, self.target(g, cx, to));
                let dest = self.dest(g, cx, to, hand);
                self.move_pieces(g, &sources, &kinds, take.count.unwrap_or(u32::MAX), dest, &mut from);
            }
        }
        for &p in &from {
            self.lose_if_emptied(g, p);
        }
        Ok(from)
    }

    /// The place a take's pieces go to, where it is one.
    fn target(&self, g: &Game, cx: Cx, to: &TakeTo) -> Option<PlaceId> {
        match to {
            TakeTo::Place(p) => self.place(g, cx, p),
            TakeTo::Hand | TakeTo::Each(_) => None,
        }
    }

    /// `from A else B ...`: the places of each group (`from here` when no `from` is written), but the place
    /// the pieces go to: no place is a source of its own pieces (§9.2).
    fn groups(&self, g: &Game, cx: Cx, take: &TakeRule, target: Option<PlaceId>) -> Vec<Vec<PlaceId>> {
        let here_only = vec![vec![Set::One(PlaceExpr::Here)]];
        let groups = if take.from.is_empty() { &here_only } else { &take.from };
        groups
            .iter()
            .map(|group| {
                let mut places: Vec<PlaceId> = Vec::new();
                for s in group {
                    for p in self.set(g, cx, s) {
                        // §9.2 `take ... where`: only the places for which the condition holds, `here` being each.
                        let passes = take.filter.as_ref().is_none_or(|c| self.test(g, cx.at(p), c));
                        if !places.contains(&p) && Some(p) != target && passes {
                            places.push(p);
                        }
                    }
                }
                places
            })
            .collect()
    }

    /// The index of the first group that holds a piece of these kinds.
    fn first_group_index(&self, g: &Game, cx: Cx, take: &TakeRule, kinds: &[KindId], target: Option<PlaceId>) -> usize {
        let holds =
            |places: &Vec<PlaceId>| places.iter().any(|&p| kinds.iter().any(|&k| g.pieces[p as usize][k as usize] > 0));
        self.groups(g, cx, take, target).iter().position(holds).unwrap_or(0)
    }

    /// The places of the first group that holds a piece of these kinds (none when no group does).
    fn first_group(
        &self,
        g: &Game,
        cx: Cx,
        take: &TakeRule,
        kinds: &[KindId],
        target: Option<PlaceId>,
    ) -> Vec<PlaceId> {
        let holds =
            |places: &Vec<PlaceId>| places.iter().any(|&p| kinds.iter().any(|&k| g.pieces[p as usize][k as usize] > 0));
        self.groups(g, cx, take, target).into_iter().find(holds).unwrap_or_default()
    }

    fn dest<'h>(&self, g: &Game, cx: Cx, to: &TakeTo, hand: &'h mut [u8]) -> Dest<'h> {
        match to {
            TakeTo::Place(p) => self.place(g, cx, p).map_or(Dest::Nowhere, Dest::Place),
            TakeTo::Hand => Dest::Hand(hand),
            TakeTo::Each(_) => unreachable!("`to each` is handled by `take`"),
        }
    }

    /// Up to `n` pieces of `kinds` from `sources`, place by place and kind by kind, to `dest`.
    fn move_pieces(
        &self,
        g: &mut Game,
        sources: &[PlaceId],
        kinds: &[KindId],
        n: u32,
        mut dest: Dest,
        from: &mut BTreeSet<PlaceId>,
    ) {
        let mut left = n;
        for &p in sources {
            for &k in kinds {
                if left == 0 {
                    return;
                }
                let there = g.pieces[p as usize][k as usize] as u32;
                let moved = there.min(left) as u8;
                if moved == 0 {
                    continue;
                }
                g.pieces[p as usize][k as usize] -= moved;
                match &mut dest {
                    Dest::Place(to) => g.pieces[*to as usize][k as usize] += moved,
                    Dest::Hand(hand) => hand[k as usize] += moved,
                    Dest::Nowhere => g.pieces[p as usize][k as usize] += moved,
                }
                if !matches!(dest, Dest::Nowhere) {
                    from.insert(p);
                }
                left -= moved as u32;
            }
        }
    }

    /// A capture's (or a sowing's) `mark`, `unmark`, `give`.
    pub(super) fn mark_step(&self, g: &mut Game, cx: Cx, step: &MarkStep) {
        match step {
            MarkStep::Mark { place, mark, player } => {
                let who = player.as_ref().and_then(|w| self.player(g, cx, w));
                if let Some(p) = self.place(g, cx, place) {
                    self.put_mark(g, p, *mark, who);
                }
            }
            MarkStep::Unmark { place, mark } => {
                if let Some(p) = self.place(g, cx, place).filter(|&p| (p as usize) < self.board.n_pits) {
                    for m in 0..self.rules.marks.len() {
                        if mark.is_none_or(|x| x as usize == m) {
                            g.marks[m][p as usize] = None;
                        }
                    }
                }
            }
            // §9.1 `unmark SET`: every pit of the set, as it was before any mark came off.
            MarkStep::UnmarkSet { set, mark } => {
                let pits: Vec<PlaceId> =
                    self.set(g, cx, set).into_iter().filter(|&p| (p as usize) < self.board.n_pits).collect();
                for p in pits {
                    for m in 0..self.rules.marks.len() {
                        if mark.is_none_or(|x| x as usize == m) {
                            g.marks[m][p as usize] = None;
                        }
                    }
                }
            }
            MarkStep::Give { place, to } => {
                let who = self.player(g, cx, to);
                if let Some(p) = self.place(g, cx, place).filter(|&p| (p as usize) < self.board.n_pits) {
                    g.owner[p as usize] = who;
                }
            }
        }
    }

    /// Pit `p` carries mark `m` (for `who`, a mark per player), with the plies of a mark `for N plies`.
    pub(super) fn put_mark(&self, g: &mut Game, p: PlaceId, m: MarkId, who: Option<Player>) {
        if (p as usize) >= self.board.n_pits {
            return;
        }
        let info = &self.rules.marks[m as usize];
        let player = if info.per_player { who } else { None };
        g.marks[m as usize][p as usize] = Some(MarkCell { player, lives: info.plies });
    }

    /// `until empty`: a pit left empty by a lift, a take or a sweep loses such marks.
    pub(super) fn lose_if_emptied(&self, g: &mut Game, p: PlaceId) {
        if (p as usize) >= self.board.n_pits || g.total(p) > 0 {
            return;
        }
        for (m, info) in self.rules.marks.iter().enumerate() {
            if info.until_empty {
                g.marks[m][p as usize] = None;
            }
        }
    }
}

/// Where taken pieces go.
enum Dest<'h> {
    Place(PlaceId),
    Hand(&'h mut [u8]),
    /// A place that does not exist here: the pieces stay.
    Nowhere,
}
