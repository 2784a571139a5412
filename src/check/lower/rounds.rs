//! A match of rounds (`rounds { ... }`): the refills between rounds, who starts the next, when the match is
//! over; and `passed(PLACE)`, which the turns of such games read.

use crate::ast::{self, Span};
use crate::diag::Diagnostic;
use crate::ir::*;

use super::{Lowerer, Scope, Typed};
use crate::check::merge::head;

impl<'g> Lowerer<'g> {
    /// The `rounds` block, checked against the end rules that end each round.
    pub(super) fn lower_rounds(&mut self, phases: &[PhaseRules], end: &EndRules) -> Option<RoundRules> {
        let block = self.game.rounds.as_ref()?;
        let mut rounds = RoundRules {
            refills: Vec::new(),
            first: FirstRule::Winner,
            match_when: None,
            limit: None,
            refill_docs: Vec::new(),
            first_doc: None,
            match_doc: None,
        };
        let (mut first_at, mut match_at): (Option<Span>, Option<Span>) = (None, None);
        for item in &block.node {
            match item {
                ast::RoundsItem::Refill(r) => {
                    rounds.refill_docs.push(self.doc(r.span));
                    if let Some(refill) = self.lower_refill(&r.node) {
                        self.note(RuleRef::Refill { index: rounds.refills.len() as u8 }, r.span);
                        rounds.refills.push(refill);
                    }
                }
                ast::RoundsItem::First(f) => {
                    self.once_in_rounds("first", f.span, &mut first_at);
                    rounds.first_doc = self.doc(f.span);
                    rounds.first = match f.node {
                        ast::FirstRule::Winner => FirstRule::Winner,
                        ast::FirstRule::Loser => FirstRule::Loser,
                        ast::FirstRule::Alternate => FirstRule::Alternate,
                    };
                }
                ast::RoundsItem::MatchWhen(c) => {
                    self.once_in_rounds("match", c.span, &mut match_at);
                    rounds.match_doc = self.doc(c.span);
                    rounds.match_when = Some(self.cond(c, Scope::default()));
                }
                ast::RoundsItem::Limit(l) => {
                    if l.node == 0 {
                        self.error(
                            "check::bad_range",
                            "a limit of 0 rounds ends the match before it starts",
                            l.span,
                            "zero",
                            Some("a match has at least one round: `limit 1 rounds` plays a single one".into()),
                        );
                    }
                    rounds.limit = Some(rounds.limit.map_or(l.node, |old: u32| old.min(l.node)));
                }
            }
        }
        let ends_rounds = |e: &EndRules| !e.items.is_empty();
        if !ends_rounds(end) && !phases.iter().any(|p| ends_rounds(&p.end)) {
            self.push(
                Diagnostic::error(
                    "check::rounds_without_end",
                    "no end rule ends a round of this match",
                    head(block.span, "rounds"),
                    "when does a round end?",
                )
                .with_help(
                    "a round ends when the end rules end it: add one, e.g. `end { when count(pits(mover)) = 0 }`",
                ),
            );
        }
        Some(rounds)
    }

    /// `first` and `match when` are said once in a `rounds` block.
    fn once_in_rounds(&mut self, key: &str, span: Span, seen: &mut Option<Span>) {
        match seen {
            Some(first) => {
                let first = *first;
                self.push(
                    Diagnostic::error(
                        "check::duplicate",
                        format!("the rounds say `{key}` twice"),
                        head(span, key),
                        "said again here",
                    )
                    .with_related(head(first, key), "first said here")
                    .with_help(format!("a `rounds` block has one `{key}`: remove one of them")),
                );
            }
            None => *seen = Some(span),
        }
    }

    /// `refill SET from PLACE with N [backward] [else mark NAME]`: the set is each player's (`player` bound),
    /// and must hold pits only; the source is a place of that player's (`here` is the pit being filled).
    fn lower_refill(&mut self, r: &ast::Refill) -> Option<Refill> {
        let set = self.set(&r.set, Scope::default().player());
        self.mark_filled_set(&set);
        if !self.set_holds_pits_only(&set) {
            self.error(
                "check::not_a_pit",
                "only pits can be refilled",
                r.set.span,
                "not pits",
                Some("refill a set of pits, such as `pits(player)` or a region: `refill pits(player) from store(player) with 7`".into()),
            );
        }
        let from = match self.place(&r.from, Scope::default().player().here()) {
            Typed::Place(p) => p,
            other => {
                self.expect_place(&other, r.from.span);
                PlaceExpr::Here
            }
        };
        if r.count.node == 0 || r.count.node > super::MAX_PIECES {
            self.error(
                "check::bad_range",
                format!("a refill of {} pieces a pit", r.count.node),
                r.count.span,
                "not a usable number",
                Some(format!("each pit gets 1 to {} pieces", super::MAX_PIECES)),
            );
        }
        let mark = match &r.mark {
            Some(name) => Some(self.mark_id(name)?),
            None => None,
        };
        let claim = r.claim.as_ref().map(|start| self.claim_start(start, mark, r));
        let borrow = r.borrow.as_ref().map(|(lacking, from)| self.borrow(lacking, from, r.count.node));
        let count = r.count.node.min(super::MAX_PIECES);
        Some(Refill { set, from, count, borrow, backward: r.backward, claim, mark })
    }

    /// `borrow K from PLACE`: the pieces lacking for one more pit, 1 to one fewer than the refill's count (a pit
    /// is never filled from nothing), and where they come from (`player` bound, `here` the pit).
    fn borrow(&mut self, lacking: &ast::Spanned<u32>, from: &ast::Place, count: u32) -> (u32, PlaceExpr) {
        if lacking.node == 0 || lacking.node >= count {
            self.error(
                "check::bad_range",
                format!("borrowing {} of the {count} pieces of a pit", lacking.node),
                lacking.span,
                "not a usable number",
                Some(match count {
                    1 => "a pit of 1 piece has nothing to borrow: remove `borrow`".to_string(),
                    _ => format!("a player may lack 1 to {} of a pit's {count} pieces", count - 1),
                }),
            );
        }
        let place = match self.place(from, Scope::default().player().here()) {
            Typed::Place(p) => p,
            other => {
                self.expect_place(&other, from.span);
                PlaceExpr::Here
            }
        };
        (lacking.node, place)
    }

    /// `claim from PLACE`: each player's first pit on the track (`player` bound), which must be a pit of the
    /// track; the pits nobody claims are nobody's, so the mark they carry cannot be a player's.
    fn claim_start(&mut self, start: &ast::Place, mark: Option<MarkId>, r: &ast::Refill) -> PlaceExpr {
        let place = match self.place(start, Scope::default().player()) {
            Typed::Place(p) => p,
            other => {
                self.expect_place(&other, start.span);
                return PlaceExpr::Here;
            }
        };
        if let PlaceExpr::Fixed(id) | PlaceExpr::OfPlayer(id, _) = place {
            let on_track = self.places.get(id as usize).is_some_and(|i| i.on_track);
            if ((id as usize) >= self.n_pits || !on_track) && self.board_ok {
                self.error(
                    "check::not_a_pit",
                    "a claim starts from a pit of the sowing track",
                    start.span,
                    "not a pit of the track",
                    Some("name each player's first pit, e.g. a region of one pit per player: `region start per player: a` and `claim from start(player)`".into()),
                );
            }
        }
        if let Some(id) = mark.filter(|&m| self.marks.get(m as usize).is_some_and(|m| m.per_player)) {
            let name = self.marks[id as usize].name.clone();
            let span = r.mark.as_ref().map_or(start.span, |m| m.span);
            self.error(
                "check::bad_type",
                format!("the mark `{name}` is a player's, but a pit nobody claims is nobody's"),
                span,
                "a mark per player",
                Some(format!("declare the mark for every pit alike: `mark {name}`")),
            );
        }
        place
    }

    /// Whether every place a set can hold is a pit.
    pub(super) fn set_holds_pits_only(&self, set: &Set) -> bool {
        match set {
            Set::AllPits
            | Set::PitsOf(_)
            | Set::Facing(_)
            | Set::Region(_)
            | Set::RegionOf(..)
            | Set::Marked(..)
            | Set::Threats(_)
            | Set::TakenFirst
            | Set::Offered => true,
            Set::One(PlaceExpr::Fixed(id)) | Set::One(PlaceExpr::OfPlayer(id, _)) => (*id as usize) < self.n_pits,
            Set::One(_) => true,
            Set::EveryPlayer(id) => (*id as usize) < self.n_pits,
        }
    }

    /// `passed(PLACE)`: a place on the track, since only those are dropped into.
    pub(super) fn passed(&mut self, p: &ast::Place, scope: Scope) -> Typed {
        self.needs.passed = true;
        match self.place(p, scope) {
            Typed::Place(place) => {
                let id = match &place {
                    PlaceExpr::Fixed(id) | PlaceExpr::OfPlayer(id, _) => Some(*id),
                    _ => None,
                };
                if let Some(id) = id {
                    if !self.places.get(id as usize).is_some_and(|i| i.on_track) && self.board_ok {
                        self.error(
                            "check::off_track",
                            "this place is not on the sowing track, so no sowing passes it",
                            p.span,
                            "never sown into",
                            Some("only pits and the stores of `with stores` are on the track".into()),
                        );
                    }
                }
                Typed::Num(Num::Passed(place))
            }
            other => {
                self.expect_place(&other, p.span);
                Typed::Bad
            }
        }
    }
}
