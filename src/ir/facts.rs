//! What the rules imply, read off their conditions: offers that only get harder with more pits, pieces
//! that can come back onto the board, relays that always happen, conditions that read the last sowing.

use super::*;

// ---------------------------------------------------------------- offers

/// How a number moves while an offer is being chosen, when only the set of offered pits grows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Trend {
    Fixed,
    Grows,
    Unknown,
}

fn join(a: Trend, b: Trend) -> Trend {
    match (a, b) {
        (Trend::Unknown, _) | (_, Trend::Unknown) => Trend::Unknown,
        (Trend::Fixed, Trend::Fixed) => Trend::Fixed,
        _ => Trend::Grows,
    }
}

fn num_trend(n: &Num) -> Trend {
    match n {
        Num::Const(_)
        | Num::Before(_)
        | Num::HereCount
        | Num::PlaceCount(_)
        | Num::PitsCount(_)
        | Num::Number(_)
        | Num::Lifted
        | Num::Lap
        | Num::Round
        | Num::Passed(_)
        | Num::Captures(_)
        | Num::Moves(_)
        | Num::Seat(_) => Trend::Fixed,
        // The pits that pass a condition that may read the offer itself: no trend known.
        Num::SizeWhere(..) => Trend::Unknown,
        // Counts and sizes are never negative: over more pits they can only grow.
        Num::Count(Set::Offered, _) | Num::Size(Set::Offered) => Trend::Grows,
        // A piece's value may be negative.
        Num::Value(Set::Offered) => Trend::Unknown,
        Num::Count(..) | Num::Size(_) | Num::Value(_) => Trend::Fixed,
        Num::Add(ns) => ns.iter().map(num_trend).fold(Trend::Fixed, join),
        // A difference or quotient of numbers that do not move does not move; otherwise it may go either way.
        Num::Sub(a, b) | Num::Div(a, b) | Num::Rem(a, b) => {
            if num_trend(a) == Trend::Fixed && num_trend(b) == Trend::Fixed {
                Trend::Fixed
            } else {
                Trend::Unknown
            }
        }
        Num::Mul(ns) => {
            let trend = ns.iter().map(num_trend).fold(Trend::Fixed, join);
            let non_negative = |n: &Num| match n {
                Num::Const(c) => *c >= 0,
                Num::Count(..) | Num::Size(_) => true,
                _ => false,
            };
            if trend == Trend::Grows && !ns.iter().all(non_negative) {
                Trend::Unknown
            } else {
                trend
            }
        }
    }
}

/// Whether the condition cannot depend on which pits are offered.
fn offer_blind(c: &Cond) -> bool {
    match c {
        Cond::True
        | Cond::PlaceEq(..)
        | Cond::PlayerEq(..)
        | Cond::Dropped(..)
        | Cond::HereOwnedBy(_)
        | Cond::Direction(..) => true,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(offer_blind),
        Cond::Not(c) | Cond::AllPlayers(c) | Cond::AnyPlayers(c) => offer_blind(c),
        Cond::Cmp(a, _, b) => num_trend(a) == Trend::Fixed && num_trend(b) == Trend::Fixed,
        Cond::InInts(n, _) => num_trend(n) == Trend::Fixed,
        Cond::InSet(_, set) => !matches!(set, Set::Offered),
        Cond::AllPits(set, c) | Cond::AnyPits(set, c) => !matches!(set, Set::Offered) && offer_blind(c),
        Cond::Compiled(_) => false,
    }
}

/// Whether a `require` of an offer, once false, stays false as more pits are offered: then the search for a
/// completion of the offer can stop there (`count(captured(opponent)) >= 6 * size(offered)`).
pub fn fails_for_more_pits(c: &Cond) -> bool {
    match c {
        Cond::And(cs) | Cond::Or(cs) => cs.iter().all(fails_for_more_pits),
        Cond::Cmp(a, op, b) => matches!(
            (num_trend(a), op, num_trend(b)),
            (Trend::Fixed, _, Trend::Fixed)
                | (Trend::Fixed, CmpOp::Ge | CmpOp::Gt, Trend::Grows)
                | (Trend::Grows, CmpOp::Le | CmpOp::Lt, Trend::Fixed)
        ),
        other => offer_blind(other),
    }
}

// ---------------------------------------------------------------- pieces coming back

/// Whether any rule can move pieces from a place off the board (not a pit) onto a pit. Sowing never
/// does (it lifts from a pit and drops along the track), nor do end sweeps (the game is over); puts, takes
/// and `then` selections can. Where a place is only known while playing (`here`, `last`), both are assumed.
pub fn pieces_can_return(rules: &Rules) -> bool {
    let w = Where { n_pits: rules.n_pits, players: rules.players };
    rules.phases.iter().flat_map(|p| &p.actions).any(|a| match &a.kind {
        ActionKind::Put(put) => w.may_be_off(&put.from) && w.set_may_be_pit(&put.into),
        // Only pits are chosen: pieces go from a pit, never onto one from off the board.
        ActionKind::Take(_) => false,
        ActionKind::Sow(sow) => {
            let takes = sow
                .captures
                .iter()
                .chain(&sow.drop_captures)
                .chain(&sow.lift_captures)
                .chain(&sow.answers)
                .flat_map(|c| &c.takes);
            let then = sow.then.as_ref().is_some_and(|t| w.set_may_be_off(&t.set) && w.may_be_pit(&t.to));
            // A lap lifted from a place off the board sows its pieces onto the track.
            let lifts = sow.lifts.iter().any(|l| l.from.as_ref().is_some_and(|p| w.may_be_off(p)));
            then || lifts || takes.into_iter().any(|t| w.take_returns(t))
        }
        ActionKind::Offer(offer) => offer.on_accept.iter().any(|e| matches!(e, Effect::Take(t) if w.take_returns(t))),
    })
}

/// What kinds of place an expression can stand for: pits, other places, or both.
struct Where {
    n_pits: usize,
    players: u8,
}

impl Where {
    fn may_be_pit(&self, p: &PlaceExpr) -> bool {
        match p {
            PlaceExpr::Fixed(id) => (*id as usize) < self.n_pits,
            PlaceExpr::OfPlayer(base, _) => (*base as usize) < self.n_pits,
            _ => true,
        }
    }

    fn may_be_off(&self, p: &PlaceExpr) -> bool {
        match p {
            PlaceExpr::Fixed(id) => (*id as usize) >= self.n_pits,
            PlaceExpr::OfPlayer(base, _) => (*base as usize) + self.players as usize > self.n_pits,
            PlaceExpr::Origin
            | PlaceExpr::Start
            | PlaceExpr::Opposite(_)
            | PlaceExpr::Twin(_)
            | PlaceExpr::Behind(_)
            | PlaceExpr::Ahead(_)
            | PlaceExpr::RegionPit(..) => false,
            PlaceExpr::Here | PlaceExpr::Last | PlaceExpr::Next(..) | PlaceExpr::Previous(..) => true,
        }
    }

    fn set_may_be_pit(&self, s: &Set) -> bool {
        match s {
            Set::One(p) => self.may_be_pit(p),
            Set::EveryPlayer(base) => (*base as usize) < self.n_pits,
            Set::AllPits | Set::PitsOf(_) | Set::Offered => true,
            Set::Facing(_) | Set::Region(_) | Set::RegionOf(..) => true,
            Set::Marked(..) | Set::Threats(_) | Set::TakenFirst => true,
        }
    }

    fn set_may_be_off(&self, s: &Set) -> bool {
        match s {
            Set::One(p) => self.may_be_off(p),
            Set::EveryPlayer(base) => (*base as usize) + self.players as usize > self.n_pits,
            Set::AllPits | Set::PitsOf(_) | Set::Offered => false,
            Set::Facing(_) | Set::Region(_) | Set::RegionOf(..) => false,
            Set::Marked(..) | Set::Threats(_) | Set::TakenFirst => false,
        }
    }

    fn take_returns(&self, take: &TakeRule) -> bool {
        let from_off = take.from.iter().flatten().any(|s| self.set_may_be_off(s));
        let to_pit = match &take.to {
            TakeTo::Place(p) => self.may_be_pit(p),
            TakeTo::Each(s) => self.set_may_be_pit(s),
            // The hand is sown onto the track.
            TakeTo::Hand => true,
        };
        from_off && to_pit
    }
}

// ---------------------------------------------------------------- relays

/// Whether a relay condition holds at the last pit of every sowing, whatever the position: then every
/// sowing relays again after each lap and can stop only in a place that is not a pit (a store on the track).
/// Only sure cases count: comparisons that the bounds of their numbers decide (a count is never negative, and
/// the last pit holds at least the piece just dropped), and `and`/`or` of them.
pub fn relay_always_holds(c: &Cond) -> bool {
    match c {
        Cond::True => true,
        Cond::And(cs) => cs.iter().all(relay_always_holds),
        Cond::Or(cs) => cs.iter().any(relay_always_holds),
        Cond::Cmp(a, op, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (bounds_at_last(a), bounds_at_last(b));
            match op {
                CmpOp::Ge => matches!((a_lo, b_hi), (Some(x), Some(y)) if x >= y),
                CmpOp::Gt => matches!((a_lo, b_hi), (Some(x), Some(y)) if x > y),
                CmpOp::Le => matches!((a_hi, b_lo), (Some(x), Some(y)) if x <= y),
                CmpOp::Lt => matches!((a_hi, b_lo), (Some(x), Some(y)) if x < y),
                CmpOp::Eq | CmpOp::Ne => false,
            }
        }
        _ => false,
    }
}

/// The least and greatest values a number can take at the last pit of a sowing (`None`: no bound known).
fn bounds_at_last(n: &Num) -> (Option<i64>, Option<i64>) {
    let at_last = |p: &PlaceExpr| matches!(p, PlaceExpr::Here | PlaceExpr::Last);
    match n {
        Num::Const(c) => (Some(*c as i64), Some(*c as i64)),
        // The last pit holds the piece just dropped there.
        Num::HereCount => (Some(1), None),
        Num::Count(Set::One(p), KindSel::All) | Num::PlaceCount(p) if at_last(p) => (Some(1), None),
        Num::Count(..)
        | Num::Size(_)
        | Num::SizeWhere(..)
        | Num::Before(_)
        | Num::PlaceCount(_)
        | Num::PitsCount(_)
        | Num::Lifted => (Some(0), None),
        Num::Seat(_) => (Some(1), Some(8)),
        Num::Number(_) => (Some(0), Some(64)),
        Num::Value(_) => (None, None),
        Num::Lap | Num::Round => (Some(1), None),
        Num::Passed(_) => (Some(0), Some(1)),
        Num::Captures(_) | Num::Moves(_) => (Some(0), None),
        Num::Add(ns) => ns.iter().map(bounds_at_last).fold((Some(0), Some(0)), |(lo, hi), (l, h)| {
            (lo.zip(l).map(|(a, b)| a.saturating_add(b)), hi.zip(h).map(|(a, b)| a.saturating_add(b)))
        }),
        Num::Sub(a, b) => {
            let ((a_lo, a_hi), (b_lo, b_hi)) = (bounds_at_last(a), bounds_at_last(b));
            (a_lo.zip(b_hi).map(|(x, y)| x.saturating_sub(y)), a_hi.zip(b_lo).map(|(x, y)| x.saturating_sub(y)))
        }
        // A remainder by a positive constant lies between 0 and that constant less one.
        Num::Rem(_, b) => match b.constant() {
            Some(d) if d > 0 => (Some(0), Some(d as i64 - 1)),
            _ => (None, None),
        },
        Num::Div(..) => (None, None),
        Num::Mul(ns) => {
            // Only a product of numbers that are never negative has a known least value.
            let bounds: Vec<_> = ns.iter().map(bounds_at_last).collect();
            if bounds.iter().all(|(lo, _)| lo.is_some_and(|l| l >= 0)) {
                let lo = bounds.iter().map(|(lo, _)| lo.unwrap_or(0)).fold(1i64, i64::saturating_mul);
                let hi = bounds.iter().try_fold(1i64, |acc, (_, hi)| hi.map(|h| acc.saturating_mul(h)));
                (Some(lo), hi)
            } else {
                (None, None)
            }
        }
    }
}

// ---------------------------------------------------------------- the last sowing

/// Whether a condition reads where the last sowing was (`last`, `origin`, `next`, `before`, `dropped`):
/// before the first ply there is none, so an end rule that does is not tested there.
pub fn reads_last_sowing(c: &Cond) -> bool {
    match c {
        Cond::True | Cond::Direction(..) | Cond::Compiled(_) => false,
        Cond::And(cs) | Cond::Or(cs) => cs.iter().any(reads_last_sowing),
        Cond::Not(c) | Cond::AllPlayers(c) | Cond::AnyPlayers(c) => reads_last_sowing(c),
        Cond::Cmp(a, _, b) => num_reads_sowing(a) || num_reads_sowing(b),
        Cond::InInts(n, _) => num_reads_sowing(n),
        Cond::InSet(p, s) => place_reads_sowing(p) || set_reads_sowing(s),
        Cond::PlaceEq(a, b, _) => place_reads_sowing(a) || place_reads_sowing(b),
        Cond::PlayerEq(a, b, _) => player_reads_sowing(a) || player_reads_sowing(b),
        Cond::Dropped(..) => true,
        Cond::AllPits(s, c) | Cond::AnyPits(s, c) => set_reads_sowing(s) || reads_last_sowing(c),
        Cond::HereOwnedBy(p) => player_reads_sowing(p),
    }
}

fn num_reads_sowing(n: &Num) -> bool {
    match n {
        Num::Const(_) | Num::HereCount | Num::Lifted | Num::Lap | Num::Round => false,
        Num::Before(_) => true,
        Num::Count(s, k) => set_reads_sowing(s) || kind_reads_sowing(k),
        Num::Value(s) | Num::Size(s) => set_reads_sowing(s),
        Num::Add(ns) | Num::Mul(ns) => ns.iter().any(num_reads_sowing),
        Num::Sub(a, b) | Num::Div(a, b) | Num::Rem(a, b) => num_reads_sowing(a) || num_reads_sowing(b),
        Num::PlaceCount(p) | Num::Number(p) | Num::Passed(p) => place_reads_sowing(p),
        Num::PitsCount(p) | Num::Captures(p) | Num::Moves(p) | Num::Seat(p) => player_reads_sowing(p),
        Num::SizeWhere(s, c) => set_reads_sowing(s) || reads_last_sowing(c),
    }
}

fn place_reads_sowing(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Last | PlaceExpr::Origin | PlaceExpr::Start | PlaceExpr::Next(..) | PlaceExpr::Previous(..) => true,
        PlaceExpr::Here | PlaceExpr::Fixed(_) => false,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => {
            place_reads_sowing(p)
        }
        PlaceExpr::OfPlayer(_, who) | PlaceExpr::RegionPit(_, who) => player_reads_sowing(who),
    }
}

fn player_reads_sowing(p: &PlayerExpr) -> bool {
    matches!(p, PlayerExpr::Owner(place) if place_reads_sowing(place))
}

fn set_reads_sowing(s: &Set) -> bool {
    match s {
        Set::AllPits | Set::Offered | Set::EveryPlayer(_) | Set::Region(_) | Set::TakenFirst => false,
        Set::One(p) | Set::Facing(p) => place_reads_sowing(p),
        Set::PitsOf(who) | Set::RegionOf(_, who) | Set::Threats(who) => player_reads_sowing(who),
        Set::Marked(_, who) => who.as_ref().is_some_and(player_reads_sowing),
    }
}

fn kind_reads_sowing(k: &KindSel) -> bool {
    matches!(k, KindSel::Colour(who) if player_reads_sowing(who))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size() -> Num {
        Num::Size(Set::Offered)
    }

    #[test]
    fn relay_conditions_that_always_hold() {
        let before = || Num::Before(PlaceExpr::Here);
        let c = |a: Num, op, b: i32| Cond::Cmp(a, op, Num::Const(b));
        assert!(relay_always_holds(&c(before(), CmpOp::Ge, 0)));
        assert!(relay_always_holds(&c(Num::Count(Set::One(PlaceExpr::Here), KindSel::All), CmpOp::Ge, 1)));
        assert!(relay_always_holds(&Cond::Or(vec![c(before(), CmpOp::Ge, 2), c(before(), CmpOp::Gt, -1)])));
        // These can fail.
        assert!(!relay_always_holds(&c(before(), CmpOp::Ge, 2)));
        assert!(!relay_always_holds(&c(Num::Count(Set::One(PlaceExpr::Here), KindSel::Own), CmpOp::Ge, 1)));
        assert!(!relay_always_holds(&c(Num::Value(Set::AllPits), CmpOp::Ge, 0)));
        assert!(!relay_always_holds(&Cond::And(vec![c(before(), CmpOp::Ge, 0), c(before(), CmpOp::Le, 3)])));
    }

    #[test]
    fn offers_that_only_get_harder() {
        let bank = Num::PlaceCount(PlaceExpr::Fixed(9));
        // Goré: the opponent must be able to pay 6 per offered pit.
        let pays = Cond::Cmp(bank.clone(), CmpOp::Ge, Num::Mul(vec![Num::Const(6), size()]));
        assert!(fails_for_more_pits(&pays));
        assert!(fails_for_more_pits(&Cond::Cmp(size(), CmpOp::Le, Num::Const(2))));
        assert!(fails_for_more_pits(&Cond::And(vec![pays.clone(), Cond::HereOwnedBy(PlayerExpr::Mover)])));
        // More pits can make these true.
        assert!(!fails_for_more_pits(&Cond::Cmp(size(), CmpOp::Ge, Num::Const(2))));
        assert!(!fails_for_more_pits(&Cond::Cmp(size(), CmpOp::Eq, Num::Const(2))));
        assert!(!fails_for_more_pits(&Cond::Not(Box::new(pays))));
        assert!(!fails_for_more_pits(&Cond::Cmp(Num::Value(Set::Offered), CmpOp::Le, Num::Const(3))));
        let negative = Num::Mul(vec![Num::Const(-1), size()]);
        assert!(!fails_for_more_pits(&Cond::Cmp(bank, CmpOp::Ge, negative)));
    }
}
