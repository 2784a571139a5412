//! Conditions compiled once into closures.
//!
//! The tree-walking evaluator in `eval` pays a large dispatch for each node; random playouts evaluate the
//! same few conditions millions of times. So when an `Engine` is made, every top-level condition becomes a
//! closure specialised to its shape (a count of `here` compared with a constant, `here` owned by the mover,
//! a sum over a player's fixed pits, ...), with a fallback to the evaluator for the rare shapes. The
//! closures compute exactly what `Engine::cond` computes; `tests/properties.rs` compares both at every ply
//! of random games of every shipped game (`Engine::compiled_disagreement`).

use std::sync::Arc;

use crate::ir::*;

use super::eval::Ctx;
use super::fast::PitWords;
use super::state::State;
use super::Engine;

pub(crate) type CondFn = Arc<dyn Fn(&Engine, &State, Ctx) -> bool + Send + Sync>;
type NumFn = Arc<dyn Fn(&Engine, &State, Ctx) -> i32 + Send + Sync>;

/// What the compiled forms may assume about the game.
pub(crate) struct Shape {
    /// One kind of piece: a place's count is one byte.
    pub plain: bool,
    /// Each player's pits never change.
    pub fixed_pits: Option<Vec<Vec<PlaceId>>>,
    pub n_pits: usize,
    /// The places of the board: the length of `counts` with one kind of piece.
    pub places: usize,
    /// The regions of the board (`Rules::regions`).
    pub regions: Vec<Region>,
}

/// Replaces every top-level condition of the rules by a compiled one, returning the table and the
/// conditions as they were (for [`Engine::compiled_disagreement`]).
pub(crate) fn compile_rules(rules: &mut Rules, shape: &Shape) -> (Vec<CondFn>, Vec<Cond>) {
    let (mut table, mut sources) = (Vec::new(), Vec::new());
    visit_conds_mut(rules, &mut |c: &mut Cond| {
        if matches!(c, Cond::True) {
            return;
        }
        table.push(cond(c, shape));
        sources.push(std::mem::replace(c, Cond::Compiled(table.len() as u32 - 1)));
    });
    (table, sources)
}

impl Engine {
    /// Evaluates every compiled condition in `st`, with each player as mover and as bound player and each
    /// place as `here`, and compares it with the tree-walking evaluator; describes the first disagreement.
    /// For tests: the two must always agree.
    #[doc(hidden)]
    pub fn compiled_disagreement(&self, st: &State) -> Option<String> {
        let players = self.rules.players.max(1);
        for (i, (f, source)) in self.compiled.0.iter().zip(&self.compiled.1).enumerate() {
            for mover in 0..players {
                for bound in 0..players {
                    for here in 0..self.rules.places.len() as PlaceId {
                        let cx = Ctx::new(mover).bound(bound).at(here);
                        let (fast, slow) = (f(self, st, cx), self.cond(st, cx, source));
                        if fast != slow {
                            return Some(format!(
                                "condition {i} ({source:?}) with mover {mover}, bound {bound}, here {here}: \
                                 compiled {fast}, evaluated {slow}"
                            ));
                        }
                    }
                }
            }
        }
        None
    }
}

fn cond(c: &Cond, shape: &Shape) -> CondFn {
    match c {
        Cond::True => Arc::new(|_, _, _| true),
        Cond::And(cs) => {
            // Up to three tests of single places' counts (`count >= 2 and count <= 15`, a start's filter
            // tested at every pit): one closure, each test a bit of a set of counts.
            if let Some(tests) = CountTests::of(&cs.iter().collect::<Vec<_>>()).filter(|_| shape.plain) {
                return Arc::new(move |e, st, cx| tests.hold(e, st, cx));
            }
            let fs: Vec<CondFn> = cs.iter().map(|c| cond(c, shape)).collect();
            match fs.as_slice() {
                [a, b] => {
                    let (a, b) = (a.clone(), b.clone());
                    Arc::new(move |e, st, cx| a(e, st, cx) && b(e, st, cx))
                }
                [a, b, c] => {
                    let (a, b, c) = (a.clone(), b.clone(), c.clone());
                    Arc::new(move |e, st, cx| a(e, st, cx) && b(e, st, cx) && c(e, st, cx))
                }
                _ => Arc::new(move |e, st, cx| fs.iter().all(|f| f(e, st, cx))),
            }
        }
        Cond::Or(cs) => {
            let fs: Vec<CondFn> = cs.iter().map(|c| cond(c, shape)).collect();
            Arc::new(move |e, st, cx| fs.iter().any(|f| f(e, st, cx)))
        }
        Cond::Not(c) => {
            let f = cond(c, shape);
            Arc::new(move |e, st, cx| !f(e, st, cx))
        }
        // `count(pits(P)) = 0` and its negations: stop at the first pit that holds something instead of
        // summing them all (the end test of most games, run at every ply).
        Cond::Cmp(Num::PitsCount(who), op @ (CmpOp::Eq | CmpOp::Le | CmpOp::Ne | CmpOp::Gt), Num::Const(0))
            if shape.fixed_pits.is_some() =>
        {
            let lists = shape.fixed_pits.clone().unwrap_or_default();
            let empty = matches!(op, CmpOp::Eq | CmpOp::Le);
            if shape.plain {
                pits_empty_words(words_of(&lists, shape.places), who, empty)
            } else {
                pits_empty::<false>(lists, who, empty)
            }
        }
        // The same where pits change hands: the pits a player owns now.
        Cond::Cmp(Num::PitsCount(who), op @ (CmpOp::Eq | CmpOp::Le | CmpOp::Ne | CmpOp::Gt), Num::Const(0))
            if shape.plain =>
        {
            owned_pits_empty(shape.n_pits, who, matches!(op, CmpOp::Eq | CmpOp::Le))
        }
        // `count(REGION(P)) = 0` and its negations with one kind of piece: the region's pits as words of
        // `counts` (Bao's `when any players(count(inner(player)) = 0) at every lap`, tested at every lap).
        Cond::Cmp(
            Num::Count(Set::RegionOf(id, who), KindSel::All),
            op @ (CmpOp::Eq | CmpOp::Le | CmpOp::Ne | CmpOp::Gt),
            Num::Const(0),
        ) if shape.plain && shape.regions.get(*id as usize).is_some() => {
            let region = &shape.regions[*id as usize];
            let empty = matches!(op, CmpOp::Eq | CmpOp::Le);
            let list = |mask: PitSet| pits_of(mask).collect::<Vec<PlaceId>>();
            if region.per_player {
                let words: Vec<PitWords> =
                    region.masks.iter().map(|&m| PitWords::new(&list(m), shape.places)).collect();
                player_test(who, empty, move |_: &Engine, st: &State, p: u8| {
                    words.get(p as usize).is_none_or(|w| !w.any(&st.counts))
                })
            } else {
                let words = PitWords::new(&list(region.all), shape.places);
                Arc::new(move |_, st, _| words.any(&st.counts) != empty)
            }
        }
        Cond::Cmp(a, op, Num::Const(v)) => {
            // The count of one place compared with a number, in one closure: the capture tests of most games.
            if let Some(at) = CountAt::of(a).filter(|_| shape.plain) {
                return compare_count(at, *op, *v);
            }
            let (a, v) = (num(a, shape), *v);
            match op {
                CmpOp::Eq => Arc::new(move |e, st, cx| a(e, st, cx) == v),
                CmpOp::Ne => Arc::new(move |e, st, cx| a(e, st, cx) != v),
                CmpOp::Lt => Arc::new(move |e, st, cx| a(e, st, cx) < v),
                CmpOp::Le => Arc::new(move |e, st, cx| a(e, st, cx) <= v),
                CmpOp::Gt => Arc::new(move |e, st, cx| a(e, st, cx) > v),
                CmpOp::Ge => Arc::new(move |e, st, cx| a(e, st, cx) >= v),
            }
        }
        Cond::Cmp(a, op, b) => {
            let (a, b, op) = (num(a, shape), num(b, shape), *op);
            Arc::new(move |e, st, cx| {
                let (x, y) = (a(e, st, cx), b(e, st, cx));
                match op {
                    CmpOp::Eq => x == y,
                    CmpOp::Ne => x != y,
                    CmpOp::Lt => x < y,
                    CmpOp::Le => x <= y,
                    CmpOp::Gt => x > y,
                    CmpOp::Ge => x >= y,
                }
            })
        }
        Cond::InInts(n, set) => {
            let (n, set) = (num(n, shape), *set);
            Arc::new(move |e, st, cx| set.contains(n(e, st, cx)))
        }
        Cond::HereOwnedBy(PlayerExpr::Mover) => {
            let n = shape.n_pits;
            Arc::new(move |_, st, cx| (cx.here as usize) < n && st.owner[cx.here as usize] == cx.mover)
        }
        Cond::HereOwnedBy(PlayerExpr::Opponent) => {
            let n = shape.n_pits;
            Arc::new(move |e, st, cx| {
                (cx.here as usize) < n && st.owner[cx.here as usize] == e.next_active(st, cx.mover)
            })
        }
        // `here in REGION(mover)`, `here in REGION`: a bit of the region's mask (the four-row games' tests).
        Cond::InSet(PlaceExpr::Here, Set::RegionOf(id, PlayerExpr::Mover)) => {
            let id = *id as usize;
            Arc::new(move |e, _, cx| {
                let region = &e.rules.regions[id];
                let mask = if region.per_player {
                    region.masks.get(cx.mover as usize).copied().unwrap_or(0)
                } else {
                    region.all
                };
                has_pit(mask, cx.here)
            })
        }
        Cond::InSet(PlaceExpr::Here, Set::Region(id)) => {
            let id = *id as usize;
            Arc::new(move |e, _, cx| has_pit(e.rules.regions[id].all, cx.here))
        }
        // `here in MARK(mover)`: the pit's cell of the mark.
        Cond::InSet(PlaceExpr::Here, Set::Marked(mark, Some(PlayerExpr::Mover))) => {
            let mark = *mark;
            Arc::new(move |e, st, cx| {
                (cx.here as usize) < e.rules.n_pits && e.mark_cell(st, mark, cx.here) == cx.mover.wrapping_add(1)
            })
        }
        Cond::Direction(dir, eq) => {
            let (dir, eq) = (*dir, *eq);
            Arc::new(move |_, st, cx| (cx.way.unwrap_or(st.dir) == dir) == eq)
        }
        Cond::PlaceEq(PlaceExpr::Last, PlaceExpr::OfPlayer(base, PlayerExpr::Mover), eq) => {
            let (base, eq) = (*base, *eq);
            Arc::new(move |_, st, cx| (st.last == base + cx.mover as PlaceId) == eq)
        }
        // `any players(count(pits(player)) = 0)`, the end of most two-row games, in one loop.
        Cond::AnyPlayers(body)
            if shape.fixed_pits.is_some()
                && matches!(
                    **body,
                    Cond::Cmp(Num::PitsCount(PlayerExpr::Bound), CmpOp::Eq | CmpOp::Le, Num::Const(0))
                ) =>
        {
            let lists = shape.fixed_pits.clone().unwrap_or_default();
            if shape.plain {
                let words = words_of(&lists, shape.places);
                Arc::new(move |e, st, _| {
                    e.active_players(st).any(|p| words.get(p as usize).is_none_or(|w| !w.any(&st.counts)))
                })
            } else {
                any_player_empty::<false>(lists)
            }
        }
        // A test of one place's count per player (`count(captured(player)) >= 25`): in one loop.
        Cond::AnyPlayers(body) => match CountTests::of(&[&**body]).filter(|_| shape.plain) {
            Some(tests) => Arc::new(move |e, st, cx| {
                let (players, out) = (e.rules.players, st.eliminated);
                (0..players).any(|p| out & (1 << p) == 0 && tests.hold(e, st, cx.bound(p)))
            }),
            None => {
                let f = cond(body, shape);
                Arc::new(move |e, st, cx| e.active_players(st).any(|p| f(e, st, cx.bound(p))))
            }
        },
        Cond::AllPlayers(body) => {
            let f = cond(body, shape);
            Arc::new(move |e, st, cx| e.active_players(st).all(|p| f(e, st, cx.bound(p))))
        }
        // `player = mover` and the like: the two players compared, without the evaluator's dispatch.
        Cond::PlayerEq(a, b, eq) => {
            let (a, b, eq) = (a.clone(), b.clone(), *eq);
            Arc::new(move |e, st, cx| (e.player(st, cx, &a) == e.player(st, cx, &b)) == eq)
        }
        // `PLACE in SET` of the shapes not compiled above (`here in MARK`, Omweso's raided pits).
        Cond::InSet(p, set) => {
            let (p, set) = (p.clone(), set.clone());
            Arc::new(move |e, st, cx| e.place(st, cx, &p).is_some_and(|q| e.set_contains(st, cx, &set, q)))
        }
        // `all SET(COND)` and `any SET(COND)`: the set walked as the evaluator walks it, the body compiled
        // (Omweso's `all ends(opponent)(here in raided)`, tested at every ply).
        Cond::AllPits(set, body) => {
            let (set, f) = (set.clone(), cond(body, shape));
            Arc::new(move |e, st, cx| {
                let mut all = true;
                e.for_each_in_set(st, cx, &set, |p| {
                    all &= f(e, st, cx.at(p));
                    all
                });
                all
            })
        }
        Cond::AnyPits(set, body) => {
            let (set, f) = (set.clone(), cond(body, shape));
            Arc::new(move |e, st, cx| {
                let mut any = false;
                e.for_each_in_set(st, cx, &set, |p| {
                    any |= f(e, st, cx.at(p));
                    !any
                });
                any
            })
        }
        other => {
            let c = other.clone();
            Arc::new(move |e, st, cx| e.cond(st, cx, &c))
        }
    }
}

/// What a pit holds: straight from `counts` when there is one kind of piece (`PLAIN`).
#[inline(always)]
fn pit_count<const PLAIN: bool>(e: &Engine, st: &State, pit: PlaceId) -> u8 {
    if PLAIN {
        st.counts[pit as usize]
    } else {
        e.count(st, pit)
    }
}

/// Whether every pit of player `p` is empty, stopping at the first pit with something in it.
#[inline(always)]
fn all_empty<const PLAIN: bool>(lists: &[Vec<PlaceId>], e: &Engine, st: &State, p: u8) -> bool {
    lists.get(p as usize).is_none_or(|l| l.iter().all(|&i| pit_count::<PLAIN>(e, st, i) == 0))
}

/// Each player's pits as words of `counts` (`fast::PitWords`).
fn words_of(lists: &[Vec<PlaceId>], places: usize) -> Vec<PitWords> {
    lists.iter().map(|l| PitWords::new(l, places)).collect()
}

/// `count(pits(WHO)) = 0` (or, with `empty` false, `> 0`) with one kind of piece, a few words at a time.
fn pits_empty_words(words: Vec<PitWords>, who: &PlayerExpr, empty: bool) -> CondFn {
    player_test(who, empty, move |_: &Engine, st: &State, p: u8| {
        words.get(p as usize).is_none_or(|w| !w.any(&st.counts))
    })
}

/// `count(pits(WHO)) = 0` (or, with `empty` false, `> 0`).
fn pits_empty<const PLAIN: bool>(lists: Vec<Vec<PlaceId>>, who: &PlayerExpr, empty: bool) -> CondFn {
    player_test(who, empty, move |e: &Engine, st: &State, p: u8| all_empty::<PLAIN>(&lists, e, st, p))
}

/// `count(pits(WHO)) = 0` (or, with `empty` false, `> 0`) with one kind of piece, where pits change hands:
/// no pit that `WHO` owns now holds a piece.
fn owned_pits_empty(n_pits: usize, who: &PlayerExpr, empty: bool) -> CondFn {
    player_test(who, empty, move |_: &Engine, st: &State, p: u8| {
        let (owners, counts) = (&st.owner[..n_pits.min(st.owner.len())], &st.counts[..n_pits.min(st.counts.len())]);
        owners.iter().zip(counts).all(|(&o, &c)| o != p || c == 0)
    })
}

/// `is_empty` of the player `who` is `empty`; the usual players are read straight off the context.
fn player_test<F>(who: &PlayerExpr, empty: bool, is_empty: F) -> CondFn
where
    F: Fn(&Engine, &State, u8) -> bool + Send + Sync + 'static,
{
    match who {
        PlayerExpr::Mover => Arc::new(move |e, st, cx| is_empty(e, st, cx.mover) == empty),
        PlayerExpr::Bound => Arc::new(move |e, st, cx| is_empty(e, st, cx.bound) == empty),
        PlayerExpr::Opponent => Arc::new(move |e, st, cx| is_empty(e, st, e.next_active(st, cx.mover)) == empty),
        other => {
            let who = other.clone();
            Arc::new(move |e, st, cx| is_empty(e, st, e.player(st, cx, &who)) == empty)
        }
    }
}

/// `any players(count(pits(player)) = 0)`.
fn any_player_empty<const PLAIN: bool>(lists: Vec<Vec<PlaceId>>) -> CondFn {
    Arc::new(move |e, st, _| e.active_players(st).any(|p| all_empty::<PLAIN>(&lists, e, st, p)))
}

/// `count(pits(WHO))`.
fn pits_sum<const PLAIN: bool>(lists: Vec<Vec<PlaceId>>, who: &PlayerExpr) -> NumFn {
    let sum = move |e: &Engine, st: &State, p: u8| -> i32 {
        lists.get(p as usize).map_or(0, |l| l.iter().map(|&i| pit_count::<PLAIN>(e, st, i) as i32).sum())
    };
    match who {
        PlayerExpr::Mover => Arc::new(move |e, st, cx| sum(e, st, cx.mover)),
        PlayerExpr::Bound => Arc::new(move |e, st, cx| sum(e, st, cx.bound)),
        PlayerExpr::Opponent => Arc::new(move |e, st, cx| sum(e, st, e.next_active(st, cx.mover))),
        other => {
            let who = other.clone();
            Arc::new(move |e, st, cx| sum(e, st, e.player(st, cx, &who)))
        }
    }
}

/// The pieces of the kinds in `mask` at `here`; none when `here` is no place.
fn here_count(e: &Engine, st: &State, cx: Ctx, mask: KindMask) -> i32 {
    if (cx.here as usize) < e.rules.places.len() {
        e.count_masked(st, cx.here, mask) as i32
    } else {
        0
    }
}

fn compare_count(at: CountAt, op: CmpOp, v: i32) -> CondFn {
    match op {
        CmpOp::Eq => Arc::new(move |e, st, cx| at.count(e, st, cx) == v),
        CmpOp::Ne => Arc::new(move |e, st, cx| at.count(e, st, cx) != v),
        CmpOp::Lt => Arc::new(move |e, st, cx| at.count(e, st, cx) < v),
        CmpOp::Le => Arc::new(move |e, st, cx| at.count(e, st, cx) <= v),
        CmpOp::Gt => Arc::new(move |e, st, cx| at.count(e, st, cx) > v),
        CmpOp::Ge => Arc::new(move |e, st, cx| at.count(e, st, cx) >= v),
    }
}

fn num(n: &Num, shape: &Shape) -> NumFn {
    match n {
        Num::Const(v) => {
            let v = *v;
            Arc::new(move |_, _, _| v)
        }
        Num::HereCount if shape.plain => Arc::new(|_, st, cx| st.counts[cx.here as usize] as i32),
        // Pieces of several kinds: what `here` holds, of the kinds asked for (`count`, `count(own)`).
        Num::HereCount => Arc::new(|e, st, cx| here_count(e, st, cx, e.all_kinds)),
        Num::Count(Set::One(PlaceExpr::Here), sel) => {
            let sel = sel.clone();
            Arc::new(move |e, st, cx| here_count(e, st, cx, e.kind_mask(st, cx, &sel)))
        }
        Num::PlaceCount(PlaceExpr::Opposite(p)) if shape.plain && matches!(**p, PlaceExpr::Here) => {
            Arc::new(|e, st, cx| st.counts[e.rules.opposite[cx.here as usize] as usize] as i32)
        }
        Num::PlaceCount(PlaceExpr::Fixed(p)) if shape.plain => {
            let p = *p as usize;
            Arc::new(move |_, st, _| st.counts[p] as i32)
        }
        Num::PlaceCount(PlaceExpr::OfPlayer(base, PlayerExpr::Mover)) if shape.plain => {
            let base = *base as usize;
            Arc::new(move |_, st, cx| st.counts[base + cx.mover as usize] as i32)
        }
        Num::PlaceCount(PlaceExpr::OfPlayer(base, PlayerExpr::Opponent)) if shape.plain => {
            let base = *base as usize;
            Arc::new(move |e, st, cx| st.counts[base + e.next_active(st, cx.mover) as usize] as i32)
        }
        Num::Size(Set::Offered) => Arc::new(|_, st, _| st.offered.count_ones() as i32),
        // `before`: what `here` held before the last piece fell there (a relay's test at every lap's end).
        Num::Before(PlaceExpr::Here) => Arc::new(|e, st, cx| e.before(st, cx.here) as i32),
        // `lap` and `lifted`, read by the lifts and relays of sowings of laps at every lap.
        Num::Lap => Arc::new(|_, st, _| st.lap.min(i32::MAX as u32) as i32),
        Num::Lifted => Arc::new(|_, st, _| st.lifted as i32),
        // `size(MARK(P))`, `size(MARK)`: the cells of the mark that hold that player (or anyone), in one pass
        // over the mark's row of cells (an obligation's `when`, tested at every turn's start).
        Num::Size(Set::Marked(mark, who)) => {
            let (mark, who) = (*mark as usize, who.clone());
            Arc::new(move |e, st, cx| {
                let n = e.rules.n_pits;
                let cells = st.marks.get(mark * n..(mark + 1) * n).unwrap_or(&[]);
                match &who {
                    None => cells.iter().filter(|&&c| c != UNMARKED).count() as i32,
                    Some(w) => {
                        let cell = e.player(st, cx, w).wrapping_add(1);
                        cells.iter().filter(|&&c| c != UNMARKED && c == cell).count() as i32
                    }
                }
            })
        }
        // `count(REGION(P))` with one kind of piece: the pits of the region's mask for that player.
        Num::Count(Set::RegionOf(id, who), KindSel::All) if shape.plain => {
            let (id, who) = (*id as usize, who.clone());
            Arc::new(move |e, st, cx| {
                let region = &e.rules.regions[id];
                let mut mask = if region.per_player {
                    let p = match who {
                        PlayerExpr::Mover => cx.mover,
                        PlayerExpr::Bound => cx.bound,
                        ref other => e.player(st, cx, other),
                    };
                    region.masks.get(p as usize).copied().unwrap_or(0)
                } else {
                    region.all
                };
                let mut total = 0i32;
                while mask != 0 {
                    total += st.counts[mask.trailing_zeros() as usize] as i32;
                    mask &= mask - 1;
                }
                total
            })
        }
        Num::Mul(ns) => {
            let fs: Vec<NumFn> = ns.iter().map(|n| num(n, shape)).collect();
            Arc::new(move |e, st, cx| fs.iter().map(|f| f(e, st, cx)).product())
        }
        Num::PlaceCount(PlaceExpr::OfPlayer(base, PlayerExpr::Bound)) if shape.plain => {
            let base = *base as usize;
            Arc::new(move |_, st, cx| st.counts[base + cx.bound as usize] as i32)
        }
        Num::PitsCount(who) if shape.fixed_pits.is_some() => {
            let lists = shape.fixed_pits.clone().unwrap_or_default();
            if shape.plain {
                pits_sum::<true>(lists, who)
            } else {
                pits_sum::<false>(lists, who)
            }
        }
        Num::Add(ns) => {
            let fs: Vec<NumFn> = ns.iter().map(|n| num(n, shape)).collect();
            Arc::new(move |e, st, cx| fs.iter().map(|f| f(e, st, cx)).sum())
        }
        Num::Sub(a, b) => {
            let (a, b) = (num(a, shape), num(b, shape));
            Arc::new(move |e, st, cx| a(e, st, cx).wrapping_sub(b(e, st, cx)))
        }
        // Parity (`count % 2`) and other remainders by a constant, the usual shape.
        Num::Rem(a, b) if b.constant().is_some_and(|d| d > 0) => {
            let (a, d) = (num(a, shape), b.constant().unwrap_or(1));
            Arc::new(move |e, st, cx| a(e, st, cx).rem_euclid(d))
        }
        Num::Rem(a, b) => {
            let (a, b) = (num(a, shape), num(b, shape));
            Arc::new(move |e, st, cx| rem(a(e, st, cx), b(e, st, cx)))
        }
        Num::Div(a, b) => {
            let (a, b) = (num(a, shape), num(b, shape));
            Arc::new(move |e, st, cx| div(a(e, st, cx), b(e, st, cx)))
        }
        other => {
            let n = other.clone();
            Arc::new(move |e, st, cx| e.num(st, cx, &n))
        }
    }
}

/// A place whose count a condition reads, found without evaluating anything (plain pieces only).
#[derive(Clone, Copy)]
enum CountAt {
    Here,
    OppositeHere,
    Fixed(usize),
    OfMover(usize),
    OfBound(usize),
}

impl CountAt {
    fn of(n: &Num) -> Option<CountAt> {
        Some(match n {
            Num::HereCount => CountAt::Here,
            Num::PlaceCount(PlaceExpr::Opposite(p)) if matches!(**p, PlaceExpr::Here) => CountAt::OppositeHere,
            Num::PlaceCount(PlaceExpr::Fixed(p)) => CountAt::Fixed(*p as usize),
            Num::PlaceCount(PlaceExpr::OfPlayer(base, PlayerExpr::Mover)) => CountAt::OfMover(*base as usize),
            Num::PlaceCount(PlaceExpr::OfPlayer(base, PlayerExpr::Bound)) => CountAt::OfBound(*base as usize),
            _ => return None,
        })
    }

    #[inline(always)]
    fn count(self, e: &Engine, st: &State, cx: Ctx) -> i32 {
        st.counts[self.place(e, cx)] as i32
    }

    /// The place whose count is read.
    #[inline(always)]
    fn place(self, e: &Engine, cx: Ctx) -> usize {
        match self {
            CountAt::Here => cx.here as usize,
            CountAt::OppositeHere => e.rules.opposite[cx.here as usize] as usize,
            CountAt::Fixed(p) => p,
            CountAt::OfMover(base) => base + cx.mover as usize,
            CountAt::OfBound(base) => base + cx.bound as usize,
        }
    }
}

/// A conjunction of up to three tests of single places' counts (`count = 1`, `count(opposite) > 0`,
/// `count in {2, 3}`), evaluated in one loop without a closure per part: the residue of a capture's
/// condition once what the mover and the last place settle is taken out (`fast::PlyPlan`). One kind of
/// piece only, so a count is a byte, and every test is the set of the bytes that pass it.
#[derive(Clone)]
pub(crate) struct CountTests {
    tests: [(CountAt, IntSet); 3],
    len: usize,
}

impl CountTests {
    /// The tests of `conds`, all to hold; none when one of them is of another shape, or past three.
    pub(crate) fn of(conds: &[&Cond]) -> Option<CountTests> {
        let passing = |test: &dyn Fn(i32) -> bool| {
            let mut set = IntSet::default();
            (0..=IntSet::MAX).filter(|&n| test(n as i32)).for_each(|n| _ = set.insert(n));
            set
        };
        let test = |c: &Cond| match c {
            Cond::Cmp(a, op, Num::Const(v)) => {
                let (op, v) = (*op, *v);
                Some((CountAt::of(a)?, passing(&|n| compare(n, op, v))))
            }
            Cond::InInts(a, set) => Some((CountAt::of(a)?, *set)),
            _ => None,
        };
        let mut tests = CountTests { tests: [(CountAt::Here, IntSet::default()); 3], len: 0 };
        for c in conds {
            *tests.tests.get_mut(tests.len)? = test(c)?;
            tests.len += 1;
        }
        Some(tests)
    }

    /// `hold` with the count of each place read from `count` (a position not made: `ways::FirstLapStarts`);
    /// none where a place is off the board.
    #[inline(always)]
    pub(crate) fn hold_with(&self, e: &Engine, cx: Ctx, count: impl Fn(usize) -> Option<u8>) -> Option<bool> {
        for (at, set) in &self.tests[..self.len.min(3)] {
            let n = count(at.place(e, cx))?;
            if set.0[(n >> 6) as usize] >> (n & 63) & 1 == 0 {
                return Some(false);
            }
        }
        Some(true)
    }

    /// Where these are one test of a place that the bound player alone fixes (`count(store(player)) >= 25`):
    /// per player, the place it reads and the counts that pass, so that `any players(...)` reads one byte
    /// per player. None for tests of another shape.
    pub(crate) fn one_place_per_player(&self, players: u8) -> Option<Vec<(usize, IntSet)>> {
        let [(at, set)] = &self.tests[..self.len.min(3)] else { return None };
        (0..players as usize)
            .map(|p| match *at {
                CountAt::Fixed(place) => Some((place, *set)),
                CountAt::OfBound(base) => Some((base + p, *set)),
                _ => None,
            })
            .collect()
    }

    #[inline(always)]
    pub(crate) fn hold(&self, e: &Engine, st: &State, cx: Ctx) -> bool {
        self.tests[..self.len.min(3)].iter().all(|(at, set)| {
            let n = at.count(e, st, cx) as u8;
            set.0[(n >> 6) as usize] >> (n & 63) & 1 != 0
        })
    }
}

/// `n OP v`.
fn compare(n: i32, op: CmpOp, v: i32) -> bool {
    match op {
        CmpOp::Eq => n == v,
        CmpOp::Ne => n != v,
        CmpOp::Lt => n < v,
        CmpOp::Le => n <= v,
        CmpOp::Gt => n > v,
        CmpOp::Ge => n >= v,
    }
}

impl std::fmt::Debug for CountTests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} count tests", self.len)
    }
}
