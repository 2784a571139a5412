//! The tracks pieces are sown along: each player's next place in each direction, skipping what the
//! phases skip, and the pit opposite each pit.

use crate::ast;
use crate::check::merge::head;
use crate::diag::Diagnostic;
use crate::ir::*;

use super::Lowerer;

/// The lowered topology of a board: its tracks and the relations between its pits.
pub(super) struct Topology {
    pub track: Vec<PlaceId>,
    pub next: Vec<PlaceId>,
    pub pit_next: Vec<PlaceId>,
    pub opposite: Vec<PlaceId>,
    pub owner: Vec<u8>,
    pub twin: Vec<PlaceId>,
    pub number: Vec<u8>,
    pub facing: Vec<PitSet>,
    pub behind: Vec<PlaceId>,
    pub ahead: Vec<PlaceId>,
}

impl<'g> Lowerer<'g> {
    pub(super) fn topology(&self) -> Topology {
        let n = self.n_pits;
        let places = self.places.len();
        let circuits = self.circuits();
        let skips: Vec<Vec<PlaceId>> = (0..self.players).map(|mover| self.skipped_places(mover)).collect();
        let mut next = vec![0 as PlaceId; self.players as usize * 2 * places];
        for (mover, skipped) in skips.iter().enumerate() {
            for dir in 0..2 {
                let row = (mover * 2 + dir) * places;
                for p in 0..places {
                    next[row + p] = p as PlaceId;
                }
                // A board with a circuit per player has disjoint circuits: a sowing stays on the one it
                // starts on, whoever sows.
                for track in &circuits {
                    let kept: Vec<PlaceId> = track.iter().copied().filter(|p| !skipped.contains(p)).collect();
                    for (i, &p) in track.iter().enumerate() {
                        next[row + p as usize] = step_along(track, &kept, i, dir == 0);
                    }
                }
            }
        }
        let mut pit_next = vec![0 as PlaceId; 2 * n];
        for track in &circuits {
            let pits_only: Vec<PlaceId> = track.iter().copied().filter(|&p| (p as usize) < n).collect();
            let len = pits_only.len();
            for (i, &p) in pits_only.iter().enumerate() {
                pit_next[p as usize] = pits_only[(i + 1) % len];
                pit_next[n + p as usize] = pits_only[(i + len - 1) % len];
            }
        }
        let owner = self.places[..n].iter().map(|p| p.owner).collect();
        let relations = (0..places).map(|p| relations(self.shape, n, p));
        let (mut opposite, mut twin, mut number, mut facing) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (o, t, num, f) in relations {
            opposite.push(o);
            twin.push(t);
            number.push(num);
            facing.push(f);
        }
        let (behind, ahead) = (0..places).map(|p| columns(self.shape, n, p)).unzip();
        let track = circuits.into_iter().next().unwrap_or_default();
        Topology { track, next, pit_next, opposite, owner, twin, number, facing, behind, ahead }
    }

    /// The tracks of the board, each in counter-clockwise order: one shared by every player, or on four
    /// rows one circuit per player over his own pits (first row left to right, second row back). Three
    /// rows have one circuit made of each player's stretch in turn: his outer row left to right, then his
    /// half of the middle row back.
    fn circuits(&self) -> Vec<Vec<PlaceId>> {
        let store = self.place_names.get("store").map(|s| s.id);
        match self.shape {
            Shape::TwoRows { pits, stores } => {
                let m = pits as PlaceId;
                let mut track: Vec<PlaceId> = (0..m).collect();
                if let (true, Some(s)) = (stores, store) {
                    track.push(s);
                }
                track.extend(m..2 * m);
                if let (true, Some(s)) = (stores, store) {
                    track.push(s + 1);
                }
                vec![track]
            }
            Shape::Ring { pits } => {
                // Pits are numbered clockwise; the track lists places counter-clockwise.
                let m = pits as PlaceId;
                vec![std::iter::once(0).chain((1..m).rev()).collect()]
            }
            Shape::OneRow { pits, store: with_store } => {
                // Counter-clockwise is toward the store: left to right, then round to the first pit.
                let mut track: Vec<PlaceId> = (0..pits as PlaceId).collect();
                if let (true, Some(s)) = (with_store, store) {
                    track.push(s);
                }
                vec![track]
            }
            Shape::ThreeRows { pits } => {
                let (m, half) = (pits as PlaceId, pits as PlaceId / 2);
                let stretch = |first: PlaceId| (first..first + m).chain((first + m..first + m + half).rev());
                vec![stretch(0).chain(stretch(m + half)).collect()]
            }
            Shape::FourRows { pits } => {
                let m = pits as PlaceId;
                (0..2)
                    .map(|side| {
                        let first = side * 2 * m;
                        (first..first + m).chain((first + m..first + 2 * m).rev()).collect()
                    })
                    .collect()
            }
        }
    }

    /// Places a mover's sowing passes over (`skip store(opponent)`), resolved for that mover: those of every
    /// sowing, which `check_same_skips` makes one and the same list.
    pub(super) fn skipped_places(&self, mover: u8) -> Vec<PlaceId> {
        let mut out: Vec<PlaceId> = self.sowings().flat_map(|s| self.sowing_skips(&s.node, mover)).collect();
        out.sort_unstable();
        out.dedup();
        out
    }

    /// `skip PLACE` is folded into the one track (`Rules::next`) that every sowing of the game follows, so
    /// every sowing must pass over the same places: one that skips others is refused, rather than sown along
    /// a track it did not write.
    pub(super) fn check_same_skips(&mut self) {
        let mut first: Option<(Vec<Vec<PlaceId>>, ast::Span)> = None;
        let mut differ = Vec::new();
        for s in self.sowings() {
            let skips: Vec<Vec<PlaceId>> = (0..self.players.max(1))
                .map(|mover| {
                    let mut v = self.sowing_skips(&s.node, mover);
                    v.sort_unstable();
                    v.dedup();
                    v
                })
                .collect();
            match &first {
                None => first = Some((skips, s.span)),
                Some((theirs, at)) if *theirs != skips => differ.push((s.span, *at)),
                Some(_) => {}
            }
        }
        for (at, first) in differ {
            self.push(
                Diagnostic::error(
                    "check::unsupported",
                    "this sowing passes over other places than the first sowing does",
                    head(at, "sow"),
                    "other `skip` places",
                )
                .with_related(head(first, "sow"), "the first sowing")
                .with_help(
                    "write the same `skip PLACE` lines in every sowing: the places passed over make one track for all \
                     the game's sowings",
                ),
            );
        }
    }

    /// The sowings of the game, every phase, in the order written.
    fn sowings(&self) -> impl Iterator<Item = &'g ast::Spanned<ast::Sow>> + 'g {
        self.game.phases.iter().flat_map(|phase| {
            phase.node.items.iter().filter_map(|item| match item {
                ast::PhaseItem::Sow(s) => Some(s),
                _ => None,
            })
        })
    }

    /// The places one sowing's `skip PLACE` lines name, resolved for `mover`.
    fn sowing_skips(&self, sow: &ast::Sow, mover: u8) -> Vec<PlaceId> {
        let mut out = Vec::new();
        for si in &sow.items {
            let ast::SowItem::Skip(sk) = si else { continue };
            let ast::SkipTarget::Place(p) = &sk.node else {
                continue;
            };
            let ast::PlaceKind::Named { name, player } = &p.node else {
                continue;
            };
            let Some(pn) = self.place_names.get(&name.node) else {
                continue;
            };
            let who = match player.as_ref().map(|w| &w.node) {
                Some(ast::PlayerKind::Mover) => Some(mover),
                Some(ast::PlayerKind::Opponent) => Some((mover + 1) % self.players.max(1)),
                _ => None,
            };
            match (pn.per_player, who) {
                (true, Some(w)) => out.push(pn.id + w as PlaceId),
                (false, _) => out.push(pn.id),
                _ => {}
            }
        }
        out
    }
}

/// The next kept place after `track[i]`, going forward (counter-clockwise) or backward along the track.
fn step_along(track: &[PlaceId], kept: &[PlaceId], i: usize, forward: bool) -> PlaceId {
    let len = track.len();
    for step in 1..=len {
        let j = if forward { (i + step) % len } else { (i + len * step - step) % len };
        let p = track[j];
        if kept.contains(&p) {
            return p;
        }
    }
    track[i]
}

/// The relations of place `p` on a board of `n` pits: its opposite pit, its twin, its number in its row
/// and the pits facing it (as bits). A place off the rows, or a board without the relation, gives the place
/// itself, number 0 and no facing pits.
fn relations(shape: Shape, n: usize, p: usize) -> (PlaceId, PlaceId, u8, PitSet) {
    let me = p as PlaceId;
    if p >= n {
        return (me, me, 0, 0);
    }
    let m = shape.row_len();
    let bit = |q: usize| pit_bit(q as PlaceId);
    match shape {
        Shape::Ring { .. } | Shape::OneRow { .. } => (me, me, (p + 1) as u8, 0),
        Shape::TwoRows { .. } => {
            let opposite = n - 1 - p;
            let twin = if p < m { p + m } else { p - m };
            (opposite as PlaceId, twin as PlaceId, (p % m + 1) as u8, bit(opposite))
        }
        Shape::FourRows { .. } => {
            // Pit k (from its owner's left) of a row stands in the column that is k from the first
            // player's left, or m - 1 - k for the second player's rows.
            let k = p % m;
            let (their_outer, their_inner) = if p < 2 * m { (2 * m, 3 * m) } else { (0, m) };
            let across = m - 1 - k;
            let twin = if p < 2 * m { p + 2 * m } else { p - 2 * m };
            let inner = their_inner + across;
            (inner as PlaceId, twin as PlaceId, (k + 1) as u8, bit(inner) | bit(their_outer + across))
        }
        Shape::ThreeRows { .. } => three_row_relations(m, p),
    }
}

/// The pits behind and in front of place `p` in its column (`behind`, `ahead`), or `NO_PLACE`. Behind is one
/// row further from the middle of the board on the pit's side, in front one row nearer it; on four rows a
/// player's inner pit has his outer pit behind it and nothing in front (across the middle is `opposite`),
/// on three rows a pit of the middle row has behind it the outer pit on its owner's side, and an outer pit
/// has in front of it the middle pit of its column, whoever's it is. Boards of one or two rows and rings have
/// no columns of a side.
fn columns(shape: Shape, n: usize, p: usize) -> (PlaceId, PlaceId) {
    if p >= n {
        return (NO_PLACE, NO_PLACE);
    }
    let m = shape.row_len();
    match shape {
        Shape::FourRows { .. } => {
            // Each side is its outer row (pits 0..m of the side) then its inner row, numbered alike.
            let k = p % (2 * m);
            if k < m {
                (NO_PLACE, (p + m) as PlaceId)
            } else {
                ((p - m) as PlaceId, NO_PLACE)
            }
        }
        Shape::ThreeRows { .. } => {
            let (column, row) = three_row_place(m, p);
            match row {
                1 => {
                    let side = if p < 3 * m / 2 { 0 } else { 2 };
                    (three_row_pit(m, column, side), NO_PLACE)
                }
                _ => (NO_PLACE, three_row_pit(m, column, 1)),
            }
        }
        Shape::TwoRows { .. } | Shape::Ring { .. } | Shape::OneRow { .. } => (NO_PLACE, NO_PLACE),
    }
}

/// The relations of pit `p` on three rows of `m` pits. Its twin is the pit of the same label on the other
/// player's side (the board turned half round); its number is its number in its row; the pits facing it
/// are the other player's pits in its column, and the opposite one is the nearest of them.
fn three_row_relations(m: usize, p: usize) -> (PlaceId, PlaceId, u8, PitSet) {
    let side = 3 * m / 2;
    let twin = if p < side { p + side } else { p - side };
    let number = if p % side < m { p % side + 1 } else { p % side - m + 1 };
    // Columns 0..m from the first player's left; rows 0 (his outer row) to 2 (the far row).
    let (column, row) = three_row_place(m, p);
    let theirs: Vec<usize> = (0..3)
        .filter(|&r| r != row)
        .map(|r| three_row_pit(m, column, r) as usize)
        .filter(|&q| (q < side) != (p < side))
        .collect();
    let opposite = theirs.iter().copied().min_by_key(|&q| three_row_place(m, q).1.abs_diff(row)).unwrap_or(p);
    let facing = theirs.iter().fold(0, |f, &q| f | pit_bit(q as PlaceId));
    (opposite as PlaceId, twin as PlaceId, number as u8, facing)
}

/// The column (from the first player's left) and the row (from his edge) of pit `p` on three rows of `m`.
fn three_row_place(m: usize, p: usize) -> (usize, usize) {
    let (side, half) = (3 * m / 2, m / 2);
    let k = p % side;
    match (p < side, k < m) {
        (true, true) => (k, 0),
        (true, false) => (half + k - m, 1),
        (false, true) => (m - 1 - k, 2),
        (false, false) => (half - 1 - (k - m), 1),
    }
}
