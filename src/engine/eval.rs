//! Evaluation of lowered conditions and numbers against a state.

use crate::ir::*;

use super::state::State;
use super::Engine;

/// What names mean while evaluating: the mover, the place `here`, the player bound by a quantifier, and
/// the way a start being considered would go (`direction`, where not the state's).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx {
    pub mover: u8,
    pub here: PlaceId,
    pub bound: u8,
    pub way: Option<Dir>,
}

impl Ctx {
    pub fn new(mover: u8) -> Ctx {
        Ctx { mover, here: PlaceId::MAX, bound: mover, way: None }
    }
    pub fn way(self, dir: Dir) -> Ctx {
        Ctx { way: Some(dir), ..self }
    }
    pub fn at(self, here: PlaceId) -> Ctx {
        Ctx { here, ..self }
    }
    pub fn bound(self, player: u8) -> Ctx {
        Ctx { bound: player, ..self }
    }
}

impl Engine {
    /// Evaluates a condition. The common shapes are handled here, in a small function the compiler keeps
    /// cheap to call; the rest in `cond_rare`.
    #[inline]
    pub(crate) fn cond(&self, st: &State, cx: Ctx, c: &Cond) -> bool {
        match c {
            Cond::Compiled(i) => (self.compiled.0[*i as usize])(self, st, cx),
            Cond::True => true,
            Cond::And(cs) => cs.iter().all(|c| self.cond(st, cx, c)),
            Cond::Cmp(a, op, b) => {
                let (a, b) = (self.num(st, cx, a), self.num(st, cx, b));
                match op {
                    CmpOp::Eq => a == b,
                    CmpOp::Ne => a != b,
                    CmpOp::Lt => a < b,
                    CmpOp::Le => a <= b,
                    CmpOp::Gt => a > b,
                    CmpOp::Ge => a >= b,
                }
            }
            Cond::InInts(n, set) => set.contains(self.num(st, cx, n)),
            Cond::HereOwnedBy(who) => {
                (cx.here as usize) < self.rules.n_pits && st.owner[cx.here as usize] == self.player(st, cx, who)
            }
            _ => self.cond_rare(st, cx, c),
        }
    }

    #[inline(never)]
    fn cond_rare(&self, st: &State, cx: Ctx, c: &Cond) -> bool {
        match c {
            Cond::True => true,
            Cond::And(cs) => cs.iter().all(|c| self.cond(st, cx, c)),
            Cond::Or(cs) => cs.iter().any(|c| self.cond(st, cx, c)),
            Cond::Not(c) => !self.cond(st, cx, c),
            Cond::Cmp(..) | Cond::InInts(..) | Cond::HereOwnedBy(_) | Cond::Compiled(_) => self.cond(st, cx, c),
            Cond::InSet(p, set) => match self.place(st, cx, p) {
                Some(p) => self.set_contains(st, cx, set, p),
                None => false,
            },
            Cond::PlaceEq(a, b, eq) => (self.place(st, cx, a) == self.place(st, cx, b)) == *eq,
            Cond::PlayerEq(a, b, eq) => (self.player(st, cx, a) == self.player(st, cx, b)) == *eq,
            Cond::Direction(dir, eq) => (cx.way.unwrap_or(st.dir) == *dir) == *eq,
            Cond::Dropped(p, sel, eq) => {
                let kind = self.place(st, cx, p).and_then(|p| st.dropped.get(p as usize).copied()).unwrap_or(NO_KIND);
                let hit = kind != NO_KIND && self.kind_mask(st, cx, sel) & (1u64 << kind) != 0;
                hit == *eq
            }
            Cond::AllPits(set, body) => {
                let mut all = true;
                self.for_each_in_set(st, cx, set, |p| {
                    all &= self.cond(st, cx.at(p), body);
                    all
                });
                all
            }
            Cond::AnyPits(set, body) => {
                let mut any = false;
                self.for_each_in_set(st, cx, set, |p| {
                    any |= self.cond(st, cx.at(p), body);
                    !any
                });
                any
            }
            Cond::AllPlayers(body) => self.active_players(st).all(|p| self.cond(st, cx.bound(p), body)),
            Cond::AnyPlayers(body) => self.active_players(st).any(|p| self.cond(st, cx.bound(p), body)),
        }
    }

    pub(crate) fn num(&self, st: &State, cx: Ctx, n: &Num) -> i32 {
        match n {
            Num::Const(v) => *v,
            Num::HereCount => self.count(st, cx.here) as i32,
            Num::PlaceCount(p) => self.place(st, cx, p).map_or(0, |p| self.count(st, p) as i32),
            Num::PitsCount(_) => self.pits_count(st, cx, n),
            _ => self.num_rare(st, cx, n),
        }
    }

    #[inline(never)]
    fn pits_count(&self, st: &State, cx: Ctx, n: &Num) -> i32 {
        self.num_rare(st, cx, n)
    }

    #[inline(never)]
    fn num_rare(&self, st: &State, cx: Ctx, n: &Num) -> i32 {
        match n {
            Num::Const(v) => *v,
            Num::Count(set, sel) => {
                let mask = self.kind_mask(st, cx, sel);
                let mut total = 0i32;
                self.for_each_in_set(st, cx, set, |p| {
                    total += self.count_masked(st, p, mask) as i32;
                    true
                });
                total
            }
            Num::Value(set) => {
                let mut total = 0i32;
                self.for_each_in_set(st, cx, set, |p| {
                    for (k, info) in self.rules.kinds.iter().enumerate() {
                        total += info.value * st.counts[p as usize * self.k + k] as i32;
                    }
                    true
                });
                total
            }
            Num::Before(p) => match self.place(st, cx, p) {
                Some(p) => self.before(st, p) as i32,
                None => 0,
            },
            Num::Size(set) => {
                let mut n = 0;
                self.for_each_in_set(st, cx, set, |_| {
                    n += 1;
                    true
                });
                n
            }
            Num::SizeWhere(set, body) => {
                let mut n = 0;
                self.for_each_in_set(st, cx, set, |p| {
                    n += i32::from(self.cond(st, cx.at(p), body));
                    true
                });
                n
            }
            Num::Seat(p) => i32::from(self.player(st, cx, p)) + 1,
            Num::Lap => st.lap.min(i32::MAX as u32) as i32,
            Num::Round => st.round as i32,
            Num::Passed(p) => self.place(st, cx, p).map_or(0, |p| super::state::passed(st, p) as i32),
            Num::Captures(p) => st.capture_plies.get(self.player(st, cx, p) as usize).map_or(0, |&n| n as i32),
            Num::Moves(p) => st.plies_made.get(self.player(st, cx, p) as usize).map_or(0, |&n| n as i32),
            Num::Add(ns) => ns.iter().map(|n| self.num(st, cx, n)).sum(),
            Num::Mul(ns) => ns.iter().map(|n| self.num(st, cx, n)).product(),
            Num::Sub(a, b) => self.num(st, cx, a).wrapping_sub(self.num(st, cx, b)),
            Num::Div(a, b) => div(self.num(st, cx, a), self.num(st, cx, b)),
            Num::Rem(a, b) => rem(self.num(st, cx, a), self.num(st, cx, b)),
            Num::HereCount => self.count(st, cx.here) as i32,
            Num::PlaceCount(p) => self.place(st, cx, p).map_or(0, |p| self.count(st, p) as i32),
            Num::Number(p) => self.place(st, cx, p).map_or(0, |p| self.rules.number[p as usize] as i32),
            Num::Lifted => st.lifted as i32,
            Num::PitsCount(who) => {
                let who = self.player(st, cx, who);
                let n = self.rules.n_pits;
                if let (Some(lists), 1) = (&self.fixed_pits, self.k) {
                    return lists
                        .get(who as usize)
                        .map_or(0, |l| l.iter().map(|&p| st.counts[p as usize] as i32).sum());
                }
                if self.k == 1 {
                    st.owner.iter().zip(&st.counts[..n]).filter(|(&o, _)| o == who).map(|(_, &c)| c as i32).sum()
                } else {
                    (0..n as PlaceId).filter(|&p| st.owner[p as usize] == who).map(|p| self.count(st, p) as i32).sum()
                }
            }
        }
    }

    /// The count of a place just before this move's last drop into it, or its count now if none fell there.
    pub(crate) fn before(&self, st: &State, p: PlaceId) -> u8 {
        match st.dropped.get(p as usize) {
            Some(&k) if k != NO_KIND => st.before[p as usize],
            _ => self.count(st, p),
        }
    }

    #[inline]
    pub(crate) fn place(&self, st: &State, cx: Ctx, p: &PlaceExpr) -> Option<PlaceId> {
        let id = match p {
            PlaceExpr::Here => cx.here,
            PlaceExpr::Last => st.last,
            PlaceExpr::Origin => st.origin,
            PlaceExpr::Opposite(p) => {
                let p = self.place(st, cx, p)?;
                *self.rules.opposite.get(p as usize)?
            }
            PlaceExpr::Fixed(p) => *p,
            PlaceExpr::OfPlayer(base, who) => {
                let who = self.player(st, cx, who);
                if who as usize >= self.rules.players as usize {
                    return None;
                }
                base + who as PlaceId
            }
            PlaceExpr::Twin(p) => {
                let p = self.place(st, cx, p)?;
                *self.rules.twin.get(p as usize)?
            }
            PlaceExpr::RegionPit(id, who) => {
                let mask = self.region_mask(st, cx, *id, who);
                if mask == 0 {
                    return None;
                }
                mask.trailing_zeros() as PlaceId
            }
            PlaceExpr::Next(p, skip_origin, skip_marks) => return self.next_of(st, cx, p, *skip_origin, *skip_marks),
            PlaceExpr::Previous(p, skip_origin, skip_marks) => {
                return self.previous_of(st, cx, p, *skip_origin, *skip_marks)
            }
            PlaceExpr::Start => st.start,
            PlaceExpr::Behind(p) => {
                let p = self.place(st, cx, p)?;
                *self.rules.behind.get(p as usize)?
            }
            PlaceExpr::Ahead(p) => {
                let p = self.place(st, cx, p)?;
                *self.rules.ahead.get(p as usize)?
            }
        };
        ((id as usize) < self.rules.places.len()).then_some(id)
    }

    #[inline]
    pub(crate) fn player(&self, st: &State, cx: Ctx, p: &PlayerExpr) -> u8 {
        match p {
            PlayerExpr::Mover => cx.mover,
            PlayerExpr::Opponent => self.next_active(st, cx.mover),
            PlayerExpr::Bound => cx.bound,
            PlayerExpr::Owner(place) => match self.place(st, cx, place) {
                Some(p) => self.owner_of(st, p),
                None => NO_PLAYER,
            },
        }
    }

    pub(crate) fn owner_of(&self, st: &State, p: PlaceId) -> u8 {
        if (p as usize) < self.rules.n_pits {
            st.owner[p as usize]
        } else {
            self.rules.places[p as usize].owner
        }
    }

    pub(crate) fn kind_mask(&self, st: &State, cx: Ctx, sel: &KindSel) -> KindMask {
        match sel {
            KindSel::All => self.all_kinds,
            KindSel::Own => self.colour_mask(cx.mover),
            KindSel::Foreign => self.all_kinds & !self.colour_mask(cx.mover),
            KindSel::Colour(p) => self.colour_mask(self.player(st, cx, p)),
            KindSel::Mask(m) => *m,
        }
    }

    pub(crate) fn colour_mask(&self, player: u8) -> KindMask {
        self.colour_masks.get(player as usize).copied().unwrap_or(0)
    }

    pub(crate) fn set_contains(&self, st: &State, cx: Ctx, set: &Set, p: PlaceId) -> bool {
        let pit = (p as usize) < self.rules.n_pits;
        match set {
            Set::AllPits => pit,
            Set::PitsOf(who) => pit && st.owner[p as usize] == self.player(st, cx, who),
            Set::Offered => pit && has_pit(st.offered, p),
            Set::One(q) => self.place(st, cx, q) == Some(p),
            Set::EveryPlayer(base) => p >= *base && p < base + self.rules.players as PlaceId,
            Set::Facing(_) | Set::Region(_) | Set::RegionOf(..) => pit && has_pit(self.set_mask(st, cx, set), p),
            Set::Marked(mark, who) => self.carries(st, cx, *mark, who, p),
            Set::Threats(_) | Set::TakenFirst => pit && has_pit(self.looked_up_set(st, cx, set), p),
        }
    }

    /// The pits of a set that is a fixed pattern of pits (facing pits, a region), as bits.
    fn set_mask(&self, st: &State, cx: Ctx, set: &Set) -> PitSet {
        match set {
            Set::Facing(q) => self.place(st, cx, q).map_or(0, |p| self.rules.facing[p as usize]),
            Set::Region(id) => self.rules.regions[*id as usize].all,
            Set::RegionOf(id, who) => self.region_mask(st, cx, *id, who),
            _ => 0,
        }
    }

    /// A player's pits of a region, as bits (a fixed region's pits whoever the player is).
    fn region_mask(&self, st: &State, cx: Ctx, id: u16, who: &PlayerExpr) -> PitSet {
        let region = &self.rules.regions[id as usize];
        if !region.per_player {
            return region.all;
        }
        let who = self.player(st, cx, who);
        region.masks.get(who as usize).copied().unwrap_or(0)
    }

    /// Calls `f` for each place of the set, in board order, while it returns true.
    pub(crate) fn for_each_in_set(&self, st: &State, cx: Ctx, set: &Set, mut f: impl FnMut(PlaceId) -> bool) {
        let n = self.rules.n_pits as PlaceId;
        match set {
            Set::AllPits => {
                for p in 0..n {
                    if !f(p) {
                        return;
                    }
                }
            }
            Set::PitsOf(who) => {
                let who = self.player(st, cx, who);
                if self.fixed_pits.is_some() {
                    for &p in self.fixed_pits_of(who) {
                        if !f(p) {
                            return;
                        }
                    }
                    return;
                }
                for p in 0..n {
                    if st.owner[p as usize] == who && !f(p) {
                        return;
                    }
                }
            }
            Set::Offered => {
                for p in 0..n {
                    if has_pit(st.offered, p) && !f(p) {
                        return;
                    }
                }
            }
            Set::One(q) => {
                if let Some(p) = self.place(st, cx, q) {
                    f(p);
                }
            }
            Set::EveryPlayer(base) => {
                for p in *base..base + self.rules.players as PlaceId {
                    if !f(p) {
                        return;
                    }
                }
            }
            Set::Facing(_) | Set::Region(_) | Set::RegionOf(..) => {
                let mut mask = self.set_mask(st, cx, set);
                while mask != 0 {
                    let p = mask.trailing_zeros() as PlaceId;
                    mask &= mask - 1;
                    if !f(p) {
                        return;
                    }
                }
            }
            Set::Marked(mark, who) => {
                for p in 0..n {
                    if self.carries(st, cx, *mark, who, p) && !f(p) {
                        return;
                    }
                }
            }
            Set::Threats(_) | Set::TakenFirst => {
                let mut mask = self.looked_up_set(st, cx, set);
                while mask != 0 {
                    let p = mask.trailing_zeros() as PlaceId;
                    mask &= mask - 1;
                    if !f(p) {
                        return;
                    }
                }
            }
        }
    }

    /// The pits of `threats(PLAYER)` or `taken_first`, as bits.
    #[cold]
    fn looked_up_set(&self, st: &State, cx: Ctx, set: &Set) -> PitSet {
        match set {
            Set::Threats(who) => self.threats(st, self.player(st, cx, who)),
            Set::TakenFirst => st.taken_first,
            _ => 0,
        }
    }

    /// `next(p)`, out of line so that `place` stays as small as on the paths that never meet it.
    #[cold]
    #[inline(never)]
    fn next_of(&self, st: &State, cx: Ctx, p: &PlaceExpr, skip_origin: bool, skip_marks: u32) -> Option<PlaceId> {
        let p = self.place(st, cx, p)?;
        self.next_place(st, cx.mover, p, skip_origin, skip_marks)
    }

    /// `previous(P)`: walks the track from P, `next` after `next`, to the place whose `next` is P; none
    /// where the walk does not come back to P within a lap of the whole board (P passed over, or off the
    /// track). No allocation: at most one step per place.
    fn previous_of(&self, st: &State, cx: Ctx, p: &PlaceExpr, skip_origin: bool, skip_marks: u32) -> Option<PlaceId> {
        let target = self.place(st, cx, p)?;
        let mut q = target;
        for _ in 0..=self.rules.places.len() {
            let after = self.next_place(st, cx.mover, q, skip_origin, skip_marks)?;
            if after == target {
                return Some(q);
            }
            q = after;
        }
        None
    }

    /// `next` under `skip NAME`: from `q` on, the first place that carries none of the marks in `skip_marks`
    /// (nor is the origin `skip origin` passes over), as the sowing's drops go; `q` itself where every place
    /// of the track is passed over.
    fn past_marked(&self, st: &State, mover: u8, q: PlaceId, skip_origin: bool, skip_marks: u32) -> PlaceId {
        let (n, places) = (self.rules.n_pits, self.rules.places.len());
        let row = (mover as usize * 2 + st.dir as usize) * places;
        let skipped = |p: PlaceId| {
            (p == st.origin && skip_origin)
                || ((p as usize) < n
                    && (0..self.rules.marks.len())
                        .any(|m| skip_marks & (1 << m) != 0 && st.marks[m * n + p as usize] != UNMARKED))
        };
        let mut p = q;
        for _ in 0..places {
            if !skipped(p) {
                return p;
            }
            p = self.rules.next[row + p as usize];
        }
        q
    }

    /// The place after `p` along the mover's track in the lap's direction (`next`): the place the next
    /// piece of a lap would fall into, so past the places the mover's sowing skips, and past the lap's origin
    /// with `skip_origin`, and past the pits carrying a mark of `skip_marks` (`skip NAME`). `None` for a place
    /// off the track.
    pub(crate) fn next_place(
        &self,
        st: &State,
        mover: u8,
        p: PlaceId,
        skip_origin: bool,
        skip_marks: u32,
    ) -> Option<PlaceId> {
        let row = (mover as usize * 2 + st.dir as usize) * self.rules.places.len();
        let after = |q: PlaceId| self.rules.next.get(row + q as usize).copied();
        let mut q = after(p)?;
        if q == p {
            return None;
        }
        if skip_origin && q == st.origin {
            q = after(q)?;
        }
        Some(if skip_marks == 0 { q } else { self.past_marked(st, mover, q, skip_origin, skip_marks) })
    }

    #[inline]
    pub(crate) fn count(&self, st: &State, p: PlaceId) -> u8 {
        if self.k == 1 {
            return st.counts[p as usize];
        }
        let base = p as usize * self.k;
        st.counts[base..base + self.k].iter().sum()
    }

    #[inline]
    pub(crate) fn count_masked(&self, st: &State, p: PlaceId, mask: KindMask) -> u32 {
        if self.k == 1 {
            return if mask & 1 != 0 { st.counts[p as usize] as u32 } else { 0 };
        }
        let base = p as usize * self.k;
        let mut total = 0;
        for k in 0..self.k {
            if mask & (1 << k) != 0 {
                total += st.counts[base + k] as u32;
            }
        }
        total
    }

    pub(crate) fn active_players(&self, st: &State) -> impl Iterator<Item = u8> + '_ {
        let eliminated = st.eliminated;
        (0..self.rules.players).filter(move |p| eliminated & (1 << p) == 0)
    }

    /// The next player after `p` still in the game (`p` itself when it is the only one).
    #[inline]
    pub(crate) fn next_active(&self, st: &State, p: u8) -> u8 {
        let n = self.rules.players;
        // Nobody out (every game but those that eliminate): the next seat, without a division.
        if st.eliminated == 0 && p < n {
            return if p + 1 == n { 0 } else { p + 1 };
        }
        for i in 1..=n {
            let q = (p + i) % n;
            if st.eliminated & (1 << q) == 0 {
                return q;
            }
        }
        p
    }
}
