//! §13 Conditions and terms: what each condition, number, place, set, player and kind means, evaluated by
//! walking the rule's tree over a `Game`. A place or player a rule names that does not exist here (`last`
//! before any sowing, the owner of a ring's pit) is `None`; a count of nothing is 0.

use mancala::ir::*;

use super::state::Game;
use super::{Player, Reference};

/// What the words of a rule refer to where it is evaluated.
#[derive(Debug, Clone, Copy, Default)]
pub struct Cx<'a> {
    /// `mover`: the player making the move (in end rules and `until`, the player about to move).
    pub mover: Player,
    /// `here`.
    pub here: Option<PlaceId>,
    /// `player`: bound by `score`, `eliminate`, a quantifier over players, a refill.
    pub player: Option<Player>,
    /// `direction` in `direction ... where`: the way considered (elsewhere, the sowing's).
    pub way: Option<Dir>,
    /// `offered`: the pits of the offer being made.
    pub offered: Option<&'a [PlaceId]>,
}

impl<'a> Cx<'a> {
    pub fn mover(mover: Player) -> Cx<'a> {
        Cx { mover, ..Cx::default() }
    }
    pub fn at(self, here: PlaceId) -> Cx<'a> {
        Cx { here: Some(here), ..self }
    }
    pub fn with_player(self, player: Player) -> Cx<'a> {
        Cx { player: Some(player), ..self }
    }
}

impl Reference {
    pub fn test(&self, g: &Game, cx: Cx, c: &Cond) -> bool {
        match c {
            Cond::True => true,
            Cond::And(cs) => cs.iter().all(|c| self.test(g, cx, c)),
            Cond::Or(cs) => cs.iter().any(|c| self.test(g, cx, c)),
            Cond::Not(c) => !self.test(g, cx, c),
            Cond::Cmp(a, op, b) => {
                let (a, b) = (self.num(g, cx, a), self.num(g, cx, b));
                match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                }
            }
            Cond::InInts(n, set) => {
                let v = self.num(g, cx, n);
                set.iter().any(|k| k as i64 == v)
            }
            Cond::InSet(p, set) => match self.place(g, cx, p) {
                Some(p) => self.set(g, cx, set).contains(&p),
                None => false,
            },
            Cond::PlaceEq(a, b, eq) => {
                let same = match (self.place(g, cx, a), self.place(g, cx, b)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                };
                same == *eq
            }
            Cond::PlayerEq(a, b, eq) => {
                let same = match (self.player(g, cx, a), self.player(g, cx, b)) {
                    (Some(a), Some(b)) => a == b,
                    _ => false,
                };
                same == *eq
            }
            // `dropped(P) = KIND`: the kind of the last piece dropped into P this move; no drop, no kind.
            Cond::Dropped(p, kinds, eq) => {
                let kind = self.place(g, cx, p).and_then(|p| g.drops[p as usize].as_ref()).map(|&(_, k)| k);
                let is = kind.is_some_and(|k| self.kinds_of(g, cx, kinds).contains(&k));
                is == *eq
            }
            Cond::AllPits(set, c) => self.set(g, cx, set).into_iter().all(|p| self.test(g, cx.at(p), c)),
            Cond::AnyPits(set, c) => self.set(g, cx, set).into_iter().any(|p| self.test(g, cx.at(p), c)),
            Cond::AllPlayers(c) => g.active().all(|p| self.test(g, cx.with_player(p), c)),
            Cond::AnyPlayers(c) => g.active().any(|p| self.test(g, cx.with_player(p), c)),
            // The optimiser's form of `here in pits(P)`, read for what it means.
            Cond::HereOwnedBy(p) => self.test(g, cx, &Cond::InSet(PlaceExpr::Here, Set::PitsOf(p.clone()))),
            Cond::Direction(d, eq) => (self.direction(g, cx) == Some(*d)) == *eq,
            Cond::Compiled(_) => unreachable!("the reference reads the rules as lowered, before any compiling"),
        }
    }

    /// `direction`: the way considered by `direction ... where`, else the way the lap goes.
    fn direction(&self, g: &Game, cx: Cx) -> Option<Dir> {
        cx.way.or(g.sowing.as_ref().map(|s| s.dir))
    }

    /// Numbers, in 64 bits (no rule file can overflow them).
    pub fn num(&self, g: &Game, cx: Cx, n: &Num) -> i64 {
        match n {
            Num::Const(v) => *v as i64,
            Num::Count(set, kinds) => {
                let kinds = self.kinds_of(g, cx, kinds);
                let places = self.set(g, cx, set);
                places
                    .iter()
                    .map(|&p| kinds.iter().map(|&k| g.pieces[p as usize][k as usize] as i64).sum::<i64>())
                    .sum()
            }
            Num::Value(set) => self
                .set(g, cx, set)
                .iter()
                .map(|&p| {
                    (0..self.kinds())
                        .map(|k| g.pieces[p as usize][k] as i64 * self.rules.kinds[k].value as i64)
                        .sum::<i64>()
                })
                .sum(),
            // `before(P)`: what P held before the last drop into it this move; else what it holds now.
            Num::Before(p) => match self.place(g, cx, p) {
                Some(p) => match g.drops[p as usize].as_ref() {
                    Some(&(before, _)) => before as i64,
                    None => g.total(p) as i64,
                },
                None => 0,
            },
            Num::Size(set) => self.set(g, cx, set).len() as i64,
            // §13: the pits of the set for which the condition holds, each being `here` in it.
            Num::SizeWhere(set, body) => {
                self.set(g, cx, set).into_iter().filter(|&p| self.test(g, cx.at(p), body)).count() as i64
            }
            // §13: players are numbered from 1 in seat order.
            Num::Seat(p) => self.player(g, cx, p).map_or(0, |p| p as i64 + 1),
            Num::Add(ns) => ns.iter().map(|n| self.num(g, cx, n)).sum(),
            Num::Mul(ns) => ns.iter().map(|n| self.num(g, cx, n)).product(),
            Num::Sub(a, b) => self.num(g, cx, a) - self.num(g, cx, b),
            // §13: `/` rounds down; `%` is the remainder of that division; by a divisor of 0, 0 and the number.
            Num::Div(a, b) => {
                let (a, b) = (self.num(g, cx, a), self.num(g, cx, b));
                if b == 0 {
                    0
                } else {
                    a.div_euclid(b)
                }
            }
            Num::Rem(a, b) => {
                let (a, b) = (self.num(g, cx, a), self.num(g, cx, b));
                if b == 0 {
                    a
                } else {
                    a.rem_euclid(b)
                }
            }
            Num::HereCount => self.num(g, cx, &Num::Count(Set::One(PlaceExpr::Here), KindSel::All)),
            Num::PlaceCount(p) => self.num(g, cx, &Num::Count(Set::One(p.clone()), KindSel::All)),
            Num::PitsCount(p) => self.num(g, cx, &Num::Count(Set::PitsOf(p.clone()), KindSel::All)),
            Num::Number(p) => self.place(g, cx, p).map_or(0, |p| self.board.number(p) as i64),
            Num::Lifted => g.sowing.as_ref().map_or(0, |s| s.lifted as i64),
            Num::Lap => g.sowing.as_ref().map_or(0, |s| s.lap as i64),
            Num::Round => g.round as i64,
            Num::Passed(p) => self.place(g, cx, p).is_some_and(|p| g.passed[p as usize]) as i64,
            Num::Captures(p) => self.player(g, cx, p).map_or(0, |p| g.capture_plies[p as usize] as i64),
            Num::Moves(p) => self.player(g, cx, p).map_or(0, |p| g.plies_made[p as usize] as i64),
        }
    }

    pub fn place(&self, g: &Game, cx: Cx, p: &PlaceExpr) -> Option<PlaceId> {
        match p {
            PlaceExpr::Here => cx.here,
            PlaceExpr::Last => g.sowing.as_ref().and_then(|s| s.last),
            PlaceExpr::Origin => g.sowing.as_ref().map(|s| s.origin),
            // §13: across from a place that is not a pit (a store) is that place itself; so is its twin.
            PlaceExpr::Opposite(p) => match self.place(g, cx, p)? {
                p if (p as usize) >= self.board.n_pits => Some(p),
                p => self.board.opposite(p),
            },
            PlaceExpr::Fixed(id) => Some(*id),
            PlaceExpr::OfPlayer(base, who) => Some(base + self.player(g, cx, who)? as PlaceId),
            PlaceExpr::Twin(p) => match self.place(g, cx, p)? {
                p if (p as usize) >= self.board.n_pits => Some(p),
                p => self.board.twin(p),
            },
            PlaceExpr::Behind(p) => self.board.behind(self.place(g, cx, p)?),
            PlaceExpr::Ahead(p) => self.board.ahead(self.place(g, cx, p)?),
            PlaceExpr::Start => g.sowing.as_ref().map(|s| s.start),
            PlaceExpr::RegionPit(r, who) => {
                let who = self.player(g, cx, who)?;
                self.region_pits(*r, Some(who)).first().copied()
            }
            PlaceExpr::Next(p, skip_origin, skip_marks) => {
                let from = self.place(g, cx, p)?;
                self.next_place(g, cx.mover, from, *skip_origin, *skip_marks)
            }
            // §13 `previous(P)`: the place whose `next` is P, found going along the track from P; none when
            // the walk never comes back to P (P passed over by the lap, or off the track).
            PlaceExpr::Previous(p, skip_origin, skip_marks) => {
                let target = self.place(g, cx, p)?;
                let mut q = target;
                for _ in 0..=self.rules.places.len() {
                    let after = self.next_place(g, cx.mover, q, *skip_origin, *skip_marks)?;
                    if after == target {
                        return Some(q);
                    }
                    q = after;
                }
                None
            }
        }
    }

    /// `next(P)`: the place the next piece would fall into after P, along the track in the sowing's direction,
    /// past what the sowing skips (its places, its lap's origin with `skip origin`, its marked pits).
    fn next_place(
        &self,
        g: &Game,
        mover: Player,
        from: PlaceId,
        skip_origin: bool,
        skip_marks: u32,
    ) -> Option<PlaceId> {
        let sowing = g.sowing.as_ref();
        let dir = sowing.map_or(Dir::Ccw, |s| s.dir);
        let skipped_places = match sowing {
            Some(s) => self.skipped_places(g, s.phase, s.action, mover),
            None => Vec::new(),
        };
        let origin = sowing.map(|s| s.origin);
        self.board.step(from, dir, |q| {
            skipped_places.contains(&q) || (skip_origin && Some(q) == origin) || self.carries_any(g, q, skip_marks)
        })
    }

    /// Whether pit `q` carries one of the marks whose bits are set (for anyone).
    pub fn carries_any(&self, g: &Game, q: PlaceId, marks: u32) -> bool {
        (q as usize) < self.board.n_pits
            && (0..self.rules.marks.len()).any(|m| marks & (1 << m) != 0 && g.marks[m][q as usize].is_some())
    }

    pub fn player(&self, g: &Game, cx: Cx, p: &PlayerExpr) -> Option<Player> {
        match p {
            PlayerExpr::Mover => Some(cx.mover),
            // The next player after the mover, in seat order, who is still in the game.
            PlayerExpr::Opponent => Some(g.next_active(cx.mover)),
            PlayerExpr::Bound => cx.player,
            PlayerExpr::Owner(place) => self.owner_of(g, self.place(g, cx, place)?),
        }
    }

    /// The owner of a place: a pit's current owner, or the fixed owner of another place.
    pub fn owner_of(&self, g: &Game, p: PlaceId) -> Option<Player> {
        if (p as usize) < self.board.n_pits {
            g.owner[p as usize]
        } else {
            super::board::fixed_owner(&self.rules, p)
        }
    }

    /// The places of a set, each once, in the order of the places.
    pub fn set(&self, g: &Game, cx: Cx, s: &Set) -> Vec<PlaceId> {
        let n = self.board.n_pits;
        let pits = || (0..n as PlaceId).collect::<Vec<_>>();
        let mut out: Vec<PlaceId> = match s {
            Set::AllPits => pits(),
            Set::PitsOf(who) => match self.player(g, cx, who) {
                Some(who) => pits().into_iter().filter(|&p| g.owner[p as usize] == Some(who)).collect(),
                None => Vec::new(),
            },
            Set::Offered => cx.offered.map(<[PlaceId]>::to_vec).unwrap_or_default(),
            Set::One(p) => self.place(g, cx, p).into_iter().collect(),
            Set::EveryPlayer(base) => (0..self.rules.players as PlaceId).map(|i| base + i).collect(),
            Set::Facing(p) => self.place(g, cx, p).map(|p| self.board.facing(p)).unwrap_or_default(),
            Set::Region(r) => self.region_pits(*r, None),
            Set::RegionOf(r, who) => match self.player(g, cx, who) {
                Some(who) => self.region_pits(*r, Some(who)),
                None => Vec::new(),
            },
            Set::Marked(m, who) => {
                let who = match who {
                    Some(w) => match self.player(g, cx, w) {
                        Some(w) => Some(w),
                        None => return Vec::new(),
                    },
                    None => None,
                };
                pits()
                    .into_iter()
                    .filter(|&p| match &g.marks[*m as usize][p as usize] {
                        Some(cell) => who.is_none() || cell.player == who,
                        None => false,
                    })
                    .collect()
            }
            Set::Threats(who) => match self.player(g, cx, who) {
                Some(who) => self.threats(g, who),
                None => Vec::new(),
            },
            Set::TakenFirst => g.taken_first.iter().copied().collect(),
        };
        out.sort();
        out.dedup();
        out
    }

    /// A region's pits: one player's part, or (`None`) everybody's.
    pub fn region_pits(&self, r: u16, who: Option<Player>) -> Vec<PlaceId> {
        let region = &self.rules.regions[r as usize];
        let mask = match who {
            Some(p) if region.per_player => region.masks.get(p as usize).copied().unwrap_or(0),
            _ => region.all,
        };
        (0..self.board.n_pits as PlaceId).filter(|&p| mask & (1 << p) != 0).collect()
    }

    /// The kinds a kind word selects (§13 Kinds of pieces).
    pub fn kinds_of(&self, g: &Game, cx: Cx, sel: &KindSel) -> Vec<KindId> {
        let all = 0..self.kinds() as KindId;
        let colour = |k: KindId| {
            let o = self.rules.kinds[k as usize].owner;
            (o != NO_PLAYER).then_some(o)
        };
        match sel {
            KindSel::All => all.collect(),
            KindSel::Own => all.filter(|&k| colour(k) == Some(cx.mover)).collect(),
            KindSel::Foreign => all.filter(|&k| colour(k).is_some_and(|o| o != cx.mover)).collect(),
            KindSel::Colour(who) => {
                let who = self.player(g, cx, who);
                all.filter(|&k| who.is_some() && colour(k) == who).collect()
            }
            KindSel::Mask(mask) => all.filter(|&k| mask & (1 << k) != 0).collect(),
        }
    }
}
