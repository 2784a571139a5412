//! Visiting every condition of the rules, and `optimize`, which rewrites common shapes into fast forms.

use super::*;

/// Calls `f` on every top-level condition of the rules: filters, capture conditions, end rules, goals.
pub fn visit_conds_mut(rules: &mut Rules, f: &mut impl FnMut(&mut Cond)) {
    for phase in &mut rules.phases {
        for action in &mut phase.actions {
            match &mut action.kind {
                ActionKind::Sow(sow) => {
                    f(&mut sow.filter);
                    for c in [&mut sow.relay, &mut sow.require, &mut sow.again].into_iter().flatten() {
                        f(c);
                    }
                    let all = sow.captures.iter_mut().chain(&mut sow.drop_captures).chain(&mut sow.lift_captures);
                    for cap in all.chain(&mut sow.answers) {
                        f(&mut cap.when);
                        if let Some(chain) = &mut cap.chain {
                            f(&mut chain.cond);
                        }
                        if let Some(c) = &mut cap.cancel {
                            f(c);
                        }
                        if let Some(pick) = &mut cap.pick {
                            f(&mut pick.filter);
                        }
                    }
                    if let Some(then) = &mut sow.then {
                        f(&mut then.filter);
                    }
                    if let Some(c) = &mut sow.start_origin {
                        f(c);
                    }
                    if let Some(c) = &mut sow.dir_filter {
                        f(c);
                    }
                    if let Some(c) = &mut sow.relay_may {
                        f(c);
                    }
                    for lift in &mut sow.lifts {
                        f(&mut lift.when);
                    }
                    for (_, c) in &mut sow.from_else {
                        f(c);
                    }
                }
                ActionKind::Put(put) => f(&mut put.filter),
                ActionKind::Take(take) => f(&mut take.filter),
                ActionKind::Offer(offer) => offer.requires.iter_mut().for_each(&mut *f),
            }
        }
        if let Some(m) = &mut phase.must {
            f(&mut m.after);
            f(&mut m.when);
        }
        if let Some(u) = &mut phase.until {
            f(u);
        }
        visit_end(&mut phase.end, f);
    }
    visit_end(&mut rules.end, f);
    if let Some(g) = &mut rules.goal {
        f(g);
    }
}

fn visit_end(end: &mut EndRules, f: &mut impl FnMut(&mut Cond)) {
    for item in &mut end.items {
        if let EndRule::When(c) | EndRule::Eliminate(c) | EndRule::AtEveryLap(c) | EndRule::DrawWhen(c) = item {
            f(c);
        }
    }
}

/// Rewrites the common shapes of conditions into the fast forms the engine evaluates directly.
/// It changes no meaning.
pub fn optimize(rules: &mut Rules) {
    for phase in &mut rules.phases {
        for action in &mut phase.actions {
            if let ActionKind::Sow(sow) = &mut action.kind {
                // Sowing always needs a non-empty pit, so `count > 0` says nothing more.
                if is_nonempty_test(&sow.filter) {
                    sow.filter = Cond::True;
                }
            }
        }
    }
    visit_conds_mut(rules, &mut opt_cond);
    opt_num(&mut rules.score);
}

fn is_nonempty_test(c: &Cond) -> bool {
    matches!(
        c,
        Cond::Cmp(Num::Count(Set::One(PlaceExpr::Here), KindSel::All), CmpOp::Gt, Num::Const(0))
            | Cond::Cmp(Num::Count(Set::One(PlaceExpr::Here), KindSel::All), CmpOp::Ge, Num::Const(1))
    )
}

fn opt_cond(c: &mut Cond) {
    match c {
        Cond::And(cs) | Cond::Or(cs) => cs.iter_mut().for_each(opt_cond),
        Cond::Not(c) | Cond::AllPits(_, c) | Cond::AnyPits(_, c) | Cond::AllPlayers(c) | Cond::AnyPlayers(c) => {
            opt_cond(c)
        }
        Cond::Cmp(a, _, b) => {
            opt_num(a);
            opt_num(b);
        }
        Cond::InInts(n, _) => opt_num(n),
        Cond::InSet(PlaceExpr::Here, Set::PitsOf(p)) => *c = Cond::HereOwnedBy(p.clone()),
        _ => {}
    }
}

fn opt_num(n: &mut Num) {
    match n {
        Num::Count(Set::One(PlaceExpr::Here), KindSel::All) => *n = Num::HereCount,
        Num::Count(Set::One(p), KindSel::All) => *n = Num::PlaceCount(p.clone()),
        Num::Count(Set::PitsOf(p), KindSel::All) => *n = Num::PitsCount(p.clone()),
        Num::Add(ns) | Num::Mul(ns) => ns.iter_mut().for_each(opt_num),
        Num::Sub(a, b) | Num::Div(a, b) | Num::Rem(a, b) => {
            opt_num(a);
            opt_num(b);
        }
        _ => {}
    }
}
