//! Marks: their declarations, the sets of pits that carry one, the marks and gifts of a capture, and the
//! sowing rules that read them (`divert`) or shape a lap (`start at origin`).

use crate::ast::{self, Span};
use crate::diag::Diagnostic;
use crate::ir::*;

use super::{Lowerer, Scope, Typed};

/// The most marks a game may declare: a state keeps one byte per mark and pit.
pub(crate) const MAX_MARKS: usize = 16;

/// The longest life of a mark `for N plies`: a state keeps the plies left in one byte per pit.
pub(crate) const MAX_MARK_PLIES: u32 = 255;

impl<'g> Lowerer<'g> {
    /// The declared marks, the lasting ones first so that a position's key can leave out the others.
    pub(super) fn lower_marks(&mut self) {
        let mut decls = self.game.marks.clone();
        decls.sort_by_key(|d| d.node.one_ply);
        for decl in &decls {
            let name = &decl.node.name;
            let taken = if self.place_names.contains_key(&name.node) {
                Some("a place")
            } else if self.labels.contains_key(&name.node) {
                Some("a pit")
            } else if self.kinds.iter().any(|k| k.name == name.node) {
                Some("a kind of piece")
            } else {
                None
            };
            if let Some(what) = taken {
                self.error(
                    "check::duplicate",
                    format!("`{}` is already the name of {what}", name.node),
                    name.span,
                    "ambiguous name",
                    Some("give this mark another name".into()),
                );
                continue;
            }
            if self.marks.len() == MAX_MARKS {
                self.error(
                    "check::too_large",
                    format!("this game declares more than {MAX_MARKS} marks"),
                    name.span,
                    "one mark too many",
                    Some(format!("a game has at most {MAX_MARKS} marks")),
                );
                return;
            }
            let plies = self.mark_plies(decl.node.plies.as_ref());
            self.mark_names.insert(name.node.clone(), self.marks.len() as MarkId);
            self.marks.push(MarkInfo {
                name: name.node.clone(),
                per_player: decl.node.per_player,
                one_ply: decl.node.one_ply,
                plies,
                until_empty: decl.node.until_empty,
            });
        }
    }

    /// `for N plies`: 2 or more (one ply is `for one ply`, which is no part of a position), and no more
    /// plies than a game can have.
    fn mark_plies(&mut self, plies: Option<&ast::Spanned<u32>>) -> u32 {
        let Some(n) = plies else { return 0 };
        if n.node < 2 {
            self.error(
                "check::bad_range",
                format!("a mark for {} plies is not a lasting mark", n.node),
                n.span,
                "fewer than 2",
                Some("write `for one ply` for a mark cleared as the next ply starts, or a number of 2 or more".into()),
            );
            return 0;
        }
        if n.node > MAX_MARK_PLIES {
            self.error(
                "check::too_large",
                format!("a mark lasts at most {MAX_MARK_PLIES} plies"),
                n.span,
                "too many plies",
                Some("for a mark that lasts the whole game, leave out `for N plies`".into()),
            );
            return MAX_MARK_PLIES;
        }
        n.node
    }

    /// `then mark SET as NAME[(PLAYER)] [where COND]`: the set and the condition are worked out as the move
    /// ends, after its sowing (`last` known), where `threats` may look ahead.
    pub(super) fn lower_then_mark(&mut self, t: &ast::ThenMark, after: Scope) -> Option<ThenMark> {
        let scope = Scope { threats: true, ..after };
        let set = self.set(&t.set, scope);
        if !self.set_holds_pits_only(&set) && self.board_ok {
            self.error(
                "check::not_a_pit",
                "only pits carry marks, and this set holds other places",
                t.set.span,
                "not only pits",
                Some("name a set of pits: `threats(mover)`, `pits(opponent)`, a region".into()),
            );
        }
        let filter = t.filter.as_ref().map_or(Cond::True, |f| self.cond(f, scope.here()));
        let mark = self.mark_id(&t.mark)?;
        let player = self.mark_player(mark, t.player.as_ref(), t.mark.span, scope, true);
        Some(ThenMark { set, mark, player, filter, doc: None })
    }

    /// The mark of this name, or an error at its span.
    pub(super) fn mark_id(&mut self, name: &ast::Name) -> Option<MarkId> {
        if let Some(&id) = self.mark_names.get(&name.node) {
            self.used_names.insert(name.node.clone());
            return Some(id);
        }
        let candidates = self.marks.iter().map(|m| m.name.clone()).collect();
        let declare = format!("declare it: `mark {}`, or `mark {} per player`", name.node, name.node);
        self.unknown_with(&name.node, name.span, "mark", candidates, Some(declare));
        None
    }

    /// `NAME` or `NAME(PLAYER)` as a set, when NAME is a mark: the pits that carry it.
    pub(super) fn mark_set(&mut self, name: &ast::Name, player: Option<&ast::PlayerRef>, scope: Scope) -> Option<Set> {
        let &id = self.mark_names.get(&name.node)?;
        self.used_names.insert(name.node.clone());
        let who = self.mark_player(id, player, name.span, scope, false);
        Some(Set::Marked(id, who))
    }

    /// The player of a mark written `NAME(PLAYER)`, checked against the mark's declaration. A mark per player
    /// may be written alone in a set (carried for anyone), but must say for whom when a pit is marked.
    fn mark_player(
        &mut self,
        id: MarkId,
        player: Option<&ast::PlayerRef>,
        span: Span,
        scope: Scope,
        marking: bool,
    ) -> Option<PlayerExpr> {
        let info = &self.marks[id as usize];
        let (name, per_player) = (info.name.clone(), info.per_player);
        match (per_player, player) {
            (true, Some(who)) => Some(self.player(who, scope)),
            (false, Some(who)) => {
                self.error(
                    "check::bad_context",
                    format!("the mark `{name}` is not carried for a player"),
                    who.span,
                    "no player here",
                    Some(format!("write `{name}` alone, or declare `mark {name} per player`")),
                );
                None
            }
            (true, None) if marking => {
                self.error(
                    "check::bad_context",
                    format!("the mark `{name}` is carried for a player: say whose"),
                    span,
                    "whose?",
                    Some(format!("write `{name}(mover)` or `{name}(opponent)`")),
                );
                None
            }
            _ => None,
        }
    }

    /// A mark's name where one place is expected.
    pub(super) fn mark_as_place(&mut self, name: &ast::Name, span: Span) -> Option<Typed> {
        if !self.mark_names.contains_key(&name.node) {
            return None;
        }
        self.error(
            "check::bad_type",
            format!("`{}` is a mark: the set of pits that carry it, not one place", name.node),
            span,
            "a set of pits",
            Some(format!("test a pit with `here in {0}`, or count the pits with `size({0})`", name.node)),
        );
        Some(Typed::Bad)
    }

    /// A place that a mark or a gift applies to: it must be able to be a pit.
    fn marked_place(&mut self, p: &ast::Place, scope: Scope, what: &str) -> PlaceExpr {
        match self.place(p, scope) {
            Typed::Place(place) => {
                let off = match &place {
                    PlaceExpr::Fixed(id) => (*id as usize) >= self.n_pits,
                    PlaceExpr::OfPlayer(base, _) => (*base as usize) >= self.n_pits,
                    _ => false,
                };
                if off && self.board_ok {
                    self.error(
                        "check::not_a_pit",
                        format!("only a pit can be {what}"),
                        p.span,
                        "not a pit",
                        Some("name a pit: `here`, `last`, `opposite` or a pit's label".into()),
                    );
                }
                place
            }
            other => {
                self.expect_place(&other, p.span);
                PlaceExpr::Here
            }
        }
    }

    pub(super) fn lower_mark_action(&mut self, m: &ast::MarkAction, scope: Scope) -> Option<MarkStep> {
        let place = self.marked_place(&m.place, scope, "marked");
        let mark = self.mark_id(&m.mark)?;
        let player = self.mark_player(mark, m.player.as_ref(), m.mark.span, scope, true);
        Some(MarkStep::Mark { place, mark, player })
    }

    /// `unmark PLACE [NAME]`, or `unmark SET [NAME]` over a set of pits: one written as a set
    /// (`pits(opponent)`), or a region's or a mark's name, which reads as a place.
    pub(super) fn lower_unmark(&mut self, u: &ast::Unmark, scope: Scope) -> Option<MarkStep> {
        let set = match &u.set {
            Some(s) => Some(self.set(s, scope)),
            None if self.names_pits(&u.place) => {
                Some(self.set(&ast::Spanned::new(ast::SetKind::Place(u.place.clone()), u.place.span), scope))
            }
            None => None,
        };
        let place = match set {
            Some(_) => None,
            None => Some(self.marked_place(&u.place, scope, "unmarked")),
        };
        let mark = match &u.mark {
            Some(name) => Some(self.mark_id(name)?),
            None => None,
        };
        Some(match (place, set) {
            (Some(place), _) => MarkStep::Unmark { place, mark },
            (None, Some(set)) => MarkStep::UnmarkSet { set, mark },
            (None, None) => MarkStep::Unmark { place: PlaceExpr::Here, mark },
        })
    }

    /// Whether a place as written is the name of a region or of a mark: a set of pits.
    fn names_pits(&self, p: &ast::Place) -> bool {
        let ast::PlaceKind::Named { name, .. } = &p.node else { return false };
        self.region_names.contains_key(&name.node) || self.marks.iter().any(|m| m.name == name.node)
    }

    pub(super) fn lower_give(&mut self, g: &ast::GivePlace, scope: Scope) -> MarkStep {
        let place = self.marked_place(&g.place, scope, "given to a player");
        let to = self.player(&g.to, scope);
        MarkStep::Give { place, to }
    }

    /// `divert NAME to PLACE`: in PLACE, `here` is the marked pit the piece fell into.
    pub(super) fn lower_divert(&mut self, d: &ast::Divert) -> Option<(MarkId, PlaceExpr)> {
        let mark = self.mark_id(&d.mark);
        let to = self.target_place(&d.to, Scope::default().here());
        self.refuse_to_here(
            &d.to,
            "a piece diverted to `here` would stay in the pit it fell into",
            "the marked pit itself",
            "in a divert's place, `here` is the marked pit the piece fell into: divert it to another place, such as `to store(owner)`",
        );
        Some((mark?, to))
    }

    /// `start at origin [when COND]`: the condition is tested as each lap starts, with `lifted` known.
    pub(super) fn lower_start_at(&mut self, c: Option<&ast::Cond>) -> Cond {
        let scope = Scope { lap: true, ..Scope::default() };
        c.map_or(Cond::True, |c| self.cond(c, scope))
    }

    /// `lifted`, which only a lap's start knows.
    pub(super) fn lifted(&mut self, span: Span, scope: Scope) -> Typed {
        if !scope.lap {
            self.push(
                Diagnostic::error(
                    "check::bad_context",
                    "there is no `lifted` at this point",
                    span,
                    "no lap is starting here",
                )
                .with_help(
                    "`lifted` is the number of pieces lifted for a lap; it is known in `start at origin when ...`",
                ),
            );
        }
        Typed::Num(Num::Lifted)
    }
}
