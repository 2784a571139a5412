//! Terms and conditions: numbers, players, places, sets and kinds, typed and checked for their scope; and
//! the records of which places are filled and read.

use crate::ast::{self, Span, Spanned};
use crate::diag::Diagnostic;
use crate::ir::*;

use super::{Lowerer, Scope, Typed};

impl<'g> Lowerer<'g> {
    pub(super) fn cond(&mut self, c: &ast::Cond, scope: Scope) -> Cond {
        match &c.node {
            ast::CondKind::Or(cs) => Cond::Or(cs.iter().map(|c| self.cond(c, scope)).collect()),
            ast::CondKind::And(cs) => Cond::And(cs.iter().map(|c| self.cond(c, scope)).collect()),
            ast::CondKind::Not(c) => Cond::Not(Box::new(self.cond(c, scope))),
            ast::CondKind::Quant { quant, domain, body } => {
                let (inner, all) = match domain {
                    ast::Domain::Players => {
                        let body = self.cond(body, scope.player());
                        (body, None)
                    }
                    ast::Domain::Set(s) => {
                        let set = self.pit_set(s, scope);
                        let body = self.cond(body, scope.here());
                        (body, Some(set))
                    }
                };
                let body = Box::new(inner);
                match (quant, all) {
                    (ast::Quant::All, None) => Cond::AllPlayers(body),
                    (ast::Quant::Any, None) => Cond::AnyPlayers(body),
                    (ast::Quant::No, None) => Cond::Not(Box::new(Cond::AnyPlayers(body))),
                    (ast::Quant::All, Some(set)) => Cond::AllPits(set, body),
                    (ast::Quant::Any, Some(set)) => Cond::AnyPits(set, body),
                    (ast::Quant::No, Some(set)) => Cond::Not(Box::new(Cond::AnyPits(set, body))),
                }
            }
            ast::CondKind::InInts { term, ints } => {
                let n = self.num(term, scope);
                let mut set = IntSet::default();
                for &i in ints {
                    if !set.insert(i) {
                        self.error(
                            "check::too_large",
                            format!("{i} is too large for a set of numbers"),
                            c.span,
                            "a number past 255",
                            Some(format!(
                                "numbers in `{{...}}` go up to {}, the most pieces a place can hold",
                                IntSet::MAX
                            )),
                        );
                    }
                }
                Cond::InInts(n, set)
            }
            ast::CondKind::InSet { term, set } => {
                let place = match self.term(term, scope) {
                    Typed::Place(p) => p,
                    other => {
                        self.expect_place(&other, term.span);
                        PlaceExpr::Here
                    }
                };
                Cond::InSet(place, self.pit_set(set, scope))
            }
            ast::CondKind::Cmp { lhs, op, rhs } => self.compare(lhs, *op, rhs, c.span, scope),
            ast::CondKind::Direction { dir, eq } => {
                if !scope.last && !scope.way {
                    self.error(
                        "check::bad_context",
                        "there is no direction at this point",
                        c.span,
                        "which way?",
                        Some("`direction = cw` is known inside a sowing (its current lap) and in `direction choose where ...` (the way considered)".into()),
                    );
                }
                let dir = if *dir == ast::DirWord::Cw { Dir::Cw } else { Dir::Ccw };
                Cond::Direction(dir, *eq)
            }
            ast::CondKind::Capturing => match &self.capturing {
                Some(any) => any.clone(),
                None => {
                    self.error(
                        "check::bad_context",
                        "`capturing` is only known in a per-lap direction's condition",
                        c.span,
                        "capturing what?",
                        Some("use it in `direction ccw or cw when capturing`, or write the capture's condition".into()),
                    );
                    Cond::True
                }
            },
        }
    }

    pub(super) fn compare(
        &mut self,
        lhs: &ast::Term,
        op: ast::CmpOp,
        rhs: &ast::Term,
        span: Span,
        scope: Scope,
    ) -> Cond {
        let (a, b) = (self.term(lhs, scope), self.term(rhs, scope));
        let eq = match op {
            ast::CmpOp::Eq => Some(true),
            ast::CmpOp::Ne => Some(false),
            _ => None,
        };
        match (a, b, eq) {
            (Typed::Num(a), Typed::Num(b), _) => Cond::Cmp(a, cmp_op(op), b),
            (Typed::Player(a), Typed::Player(b), Some(eq)) => Cond::PlayerEq(a, b, eq),
            (Typed::Place(a), Typed::Place(b), Some(eq)) => Cond::PlaceEq(a, b, eq),
            (Typed::Dropped(p), Typed::Kind(k), Some(eq)) | (Typed::Kind(k), Typed::Dropped(p), Some(eq)) => {
                Cond::Dropped(p, k, eq)
            }
            (Typed::Bad, _, _) | (_, Typed::Bad, _) => Cond::True,
            (a, b, _) => {
                let same = std::mem::discriminant(&a) == std::mem::discriminant(&b);
                let (message, help) = if eq.is_none() && same {
                    (
                        format!("{} cannot be compared with `{}`", plural(a.describe()), op_text(op)),
                        format!("{} can only be compared with `=` or `!=`", plural(a.describe())),
                    )
                } else {
                    let help = match (&a, &b) {
                        (Typed::Player(_), Typed::Num(_)) | (Typed::Num(_), Typed::Player(_)) => {
                            "a player is not a number: compare players with players (`owner(last) = mover`), a player's seat with a number (`seat(mover) = 2`), or count a player's pieces: `count(pits(mover))`".to_string()
                        }
                        (Typed::Place(_), Typed::Num(_)) | (Typed::Num(_), Typed::Place(_)) => {
                            "a place is not a number: compare places with places (`last = store(mover)`), or count its pieces: `count(last)`".to_string()
                        }
                        _ => "both sides of a comparison must be of the same sort: numbers, players, places, or a dropped piece and a kind".to_string(),
                    };
                    (format!("cannot compare {} with {}", a.describe(), b.describe()), help)
                };
                self.push(
                    Diagnostic::error("check::bad_type", message, lhs.span, a.describe())
                        .with_related(rhs.span, b.describe())
                        .with_help(help),
                );
                let _ = span;
                Cond::True
            }
        }
    }

    pub(super) fn num(&mut self, t: &ast::Term, scope: Scope) -> Num {
        match self.term(t, scope) {
            Typed::Num(n) => n,
            Typed::Bad => Num::Const(0),
            other => {
                self.error(
                    "check::bad_type",
                    format!("expected a number, found {}", other.describe()),
                    t.span,
                    "not a number",
                    Some("use `count(...)` to count the pieces of a place".into()),
                );
                Num::Const(0)
            }
        }
    }

    /// A term lowered, with arithmetic over constants only (`48 / 2`) folded into its value, so that what
    /// reads a rule (the compiled forms, the summary) sees the number the author meant.
    pub(super) fn term(&mut self, t: &ast::Term, scope: Scope) -> Typed {
        match self.unfolded_term(t, scope) {
            Typed::Num(n) if !matches!(n, Num::Const(_)) => match n.constant() {
                Some(v) => Typed::Num(Num::Const(v)),
                None => Typed::Num(n),
            },
            other => other,
        }
    }

    fn unfolded_term(&mut self, t: &ast::Term, scope: Scope) -> Typed {
        match &t.node {
            ast::TermKind::Int(v) => Typed::Num(Num::Const((*v).min(i32::MAX as u32) as i32)),
            ast::TermKind::Add(ts) => Typed::Num(Num::Add(ts.iter().map(|t| self.num(t, scope)).collect())),
            ast::TermKind::Mul(ts) => Typed::Num(Num::Mul(ts.iter().map(|t| self.num(t, scope)).collect())),
            ast::TermKind::Count { arg, kind } => {
                let (set, mut sel) = match arg {
                    None => (self.here_set(t.span, scope), KindSel::All),
                    Some(ast::CountArg::Kind(k)) => (self.here_set(t.span, scope), self.kind_sel(k, scope.player)),
                    Some(ast::CountArg::Set(s)) => match self.kind_named_set(s) {
                        Some(k) => (self.here_set(t.span, scope), k),
                        None => (self.set(s, scope), KindSel::All),
                    },
                };
                if let Some(k) = kind {
                    sel = self.kind_sel(k, scope.player);
                }
                self.mark_read_set(&set, t.span);
                Typed::Num(Num::Count(set, sel))
            }
            ast::TermKind::Value(s) => {
                let set = self.set(s, scope);
                self.mark_read_set(&set, t.span);
                Typed::Num(Num::Value(set))
            }
            ast::TermKind::Before(p) => {
                self.needs.drops = true;
                let place = self.optional_place(p.as_ref(), t.span, scope);
                Typed::Num(Num::Before(place))
            }
            ast::TermKind::Dropped(p) => {
                self.needs.drops = true;
                Typed::Dropped(self.optional_place(p.as_ref(), t.span, scope))
            }
            ast::TermKind::Size(s) => Typed::Num(Num::Size(self.set(s, scope))),
            // As in a quantifier over pits: the condition is tested at each pit of the set, `here` being it.
            ast::TermKind::SizeWhere(s, c) => {
                let set = self.pit_set(s, scope);
                self.mark_read_set(&set, t.span);
                Typed::Num(Num::SizeWhere(set, Box::new(self.cond(c, scope.here()))))
            }
            ast::TermKind::Seat(p) => Typed::Num(Num::Seat(self.player(p, scope))),
            ast::TermKind::Player(p) => Typed::Player(self.player(p, scope)),
            ast::TermKind::Place(p) => self.place(p, scope),
            ast::TermKind::Kind(k) => Typed::Kind(self.kind_sel(&Spanned::new(k.clone(), t.span), scope.player)),
            ast::TermKind::Number(p) => {
                let place = self.optional_place(p.as_ref(), t.span, scope);
                Typed::Num(Num::Number(place))
            }
            ast::TermKind::Lifted => self.lifted(t.span, scope),
            ast::TermKind::Sub(a, b) => {
                Typed::Num(Num::Sub(Box::new(self.num(a, scope)), Box::new(self.num(b, scope))))
            }
            ast::TermKind::Div(a, b) => {
                let (a, b) = (self.num(a, scope), self.divisor(b, "/", scope));
                Typed::Num(Num::Div(Box::new(a), Box::new(b)))
            }
            ast::TermKind::Rem(a, b) => {
                let (a, b) = (self.num(a, scope), self.divisor(b, "%", scope));
                Typed::Num(Num::Rem(Box::new(a), Box::new(b)))
            }
            ast::TermKind::Captures(p) => Typed::Num(Num::Captures(self.player(p, scope))),
            ast::TermKind::Moves(p) => {
                self.needs.moves = true;
                Typed::Num(Num::Moves(self.player(p, scope)))
            }
            ast::TermKind::Round => Typed::Num(Num::Round),
            ast::TermKind::Passed(p) => self.passed(p, scope),
            ast::TermKind::Lap => {
                if !scope.last && !scope.lap {
                    self.error(
                        "check::bad_context",
                        "there is no lap at this point",
                        t.span,
                        "which lap?",
                        Some("`lap` is known inside a sowing: in `relay`, `capture`, `direction ... when`, `again`, `then` and `require`".into()),
                    );
                }
                Typed::Num(Num::Lap)
            }
        }
    }

    /// The right side of `/` or `%`, refused when it is a constant 0: such a rule can never mean anything.
    fn divisor(&mut self, t: &ast::Term, op: &str, scope: Scope) -> Num {
        let n = self.num(t, scope);
        if n.constant() == Some(0) {
            let what = if op == "/" { "division" } else { "remainder" };
            self.error(
                "check::division_by_zero",
                format!("a {what} by zero"),
                t.span,
                "this is always 0",
                Some(format!(
                    "divide by a number that is never 0: `count {op} 2` (with `%`, `count % 2 = 0` says the count is even)"
                )),
            );
            return Num::Const(1);
        }
        n
    }

    pub(super) fn here_set(&mut self, span: Span, scope: Scope) -> Set {
        if !scope.here {
            self.no_here(span);
        }
        Set::One(PlaceExpr::Here)
    }

    pub(super) fn no_here(&mut self, span: Span) {
        self.error(
            "check::bad_context",
            "there is no `here` at this point",
            span,
            "count of which place?",
            Some("`count` alone means the pit being looked at, inside `where`, `capture` and quantifiers such as `all pits(...)`; name the place here: `count(store(mover))`".into()),
        );
    }

    /// A set expression that is really a kind name (`count(gem)`), if it is one.
    pub(super) fn kind_named_set(&mut self, s: &ast::SetExpr) -> Option<KindSel> {
        let ast::SetKind::Place(p) = &s.node else {
            return None;
        };
        let ast::PlaceKind::Named { name, player: None } = &p.node else {
            return None;
        };
        if self.place_names.contains_key(&name.node) || self.labels.contains_key(&name.node) {
            return None;
        }
        if self.kinds.iter().any(|k| k.name == name.node) {
            return Some(
                self.kind_sel(&Spanned::new(ast::KindSel::Named { name: name.clone(), value: None }, s.span), false),
            );
        }
        None
    }

    pub(super) fn optional_place(&mut self, p: Option<&ast::Place>, span: Span, scope: Scope) -> PlaceExpr {
        match p {
            None => {
                if !scope.here {
                    self.no_here(span);
                }
                PlaceExpr::Here
            }
            Some(p) => match self.place(p, scope) {
                Typed::Place(p) => p,
                other => {
                    self.expect_place(&other, span);
                    PlaceExpr::Here
                }
            },
        }
    }

    pub(super) fn expect_place(&mut self, t: &Typed, span: Span) {
        if !matches!(t, Typed::Bad) {
            self.error(
                "check::bad_type",
                format!("expected a place, found {}", t.describe()),
                span,
                "not a place",
                None,
            );
        }
    }

    pub(super) fn player(&mut self, p: &ast::PlayerRef, scope: Scope) -> PlayerExpr {
        match &p.node {
            ast::PlayerKind::Mover => PlayerExpr::Mover,
            ast::PlayerKind::Opponent => PlayerExpr::Opponent,
            ast::PlayerKind::Player => {
                if !scope.player {
                    self.error(
                        "check::bad_context",
                        "there is no `player` at this point",
                        p.span,
                        "which player?",
                        Some("`player` is bound in `score`, `eliminate when` and `any players(...)`; here use `mover` or `opponent`".into()),
                    );
                }
                PlayerExpr::Bound
            }
            ast::PlayerKind::Owner(place) => {
                let place = self.optional_place(place.as_deref(), p.span, scope);
                PlayerExpr::Owner(Box::new(place))
            }
        }
    }

    pub(super) fn place(&mut self, p: &ast::Place, scope: Scope) -> Typed {
        match &p.node {
            ast::PlaceKind::Here => {
                if !scope.here {
                    self.error(
                        "check::bad_context",
                        "there is no `here` at this point",
                        p.span,
                        "no pit is being looked at",
                        Some("`here` is the pit a rule looks at: in a `where`, a capture, a quantifier such as `all pits(...)`, and the place of a take, a sweep or a divert; where no pit is looked at, name the place you mean".into()),
                    );
                }
                Typed::Place(PlaceExpr::Here)
            }
            ast::PlaceKind::Last | ast::PlaceKind::Origin => {
                let origin_known = scope.origin && matches!(p.node, ast::PlaceKind::Origin);
                if !scope.last && !origin_known {
                    let word = if matches!(p.node, ast::PlaceKind::Last) { "last" } else { "origin" };
                    let help = if scope.origin {
                        "a sowing's own `mark` and `unmark` are made as a lap is lifted: name that pit `origin` or `here`".to_string()
                    } else {
                        format!("`{word}` is known once the pieces of a sowing are down: in its `require`, `relay`, `capture`, `again` and `then`, and in the `when` of an end rule (the last sowing's)")
                    };
                    self.error(
                        "check::bad_context",
                        format!("there is no `{word}` at this point"),
                        p.span,
                        "nothing has been sown yet",
                        Some(help),
                    );
                }
                Typed::Place(if matches!(p.node, ast::PlaceKind::Last) { PlaceExpr::Last } else { PlaceExpr::Origin })
            }
            ast::PlaceKind::Start => {
                if !scope.last && !scope.origin {
                    self.error(
                        "check::bad_context",
                        "there is no `start` at this point",
                        p.span,
                        "no move is being made",
                        Some("`start` is the pit the move began from, known once it has begun: in a sowing's rules (`relay`, `capture`, `sow from`, `again`, ...), its own `mark`, and an end rule's `when` (the last sowing's)".into()),
                    );
                }
                Typed::Place(PlaceExpr::Start)
            }
            ast::PlaceKind::Behind(of) | ast::PlaceKind::Ahead(of) => {
                let behind = matches!(p.node, ast::PlaceKind::Behind(_));
                self.needs_columns(if behind { "behind" } else { "ahead" }, p.span);
                let of = Box::new(self.optional_place(of.as_deref(), p.span, scope));
                Typed::Place(if behind { PlaceExpr::Behind(of) } else { PlaceExpr::Ahead(of) })
            }
            ast::PlaceKind::Opposite(of) => {
                self.needs_two_sides("opposite", p.span);
                let of = self.optional_place(of.as_deref(), p.span, scope);
                Typed::Place(PlaceExpr::Opposite(Box::new(of)))
            }
            ast::PlaceKind::Twin(of) => {
                self.needs_two_sides("twin", p.span);
                let of = self.optional_place(of.as_deref(), p.span, scope);
                Typed::Place(PlaceExpr::Twin(Box::new(of)))
            }
            ast::PlaceKind::Next(of) => {
                if !scope.last {
                    self.error(
                        "check::bad_context",
                        "there is no `next` at this point",
                        p.span,
                        "no lap is being sown",
                        Some("`next` follows the track and direction of a lap, so it is known once the pieces of a sowing are down: in its `require`, `relay`, `capture`, `again` and `then`".into()),
                    );
                }
                let of = self.optional_place(of.as_deref(), p.span, scope);
                Typed::Place(PlaceExpr::Next(Box::new(of), self.skips_origin, self.skips_marks))
            }
            ast::PlaceKind::Previous(of) => {
                if !scope.last {
                    self.error(
                        "check::bad_context",
                        "there is no `previous` at this point",
                        p.span,
                        "no lap is being sown",
                        Some("`previous` goes back along the track and direction of a lap, so it is known once the pieces of a sowing are down: in its `require`, `relay`, `capture`, `again` and `then` (`previous(last)` is where the piece before the last fell)".into()),
                    );
                }
                let of = self.optional_place(of.as_deref(), p.span, scope);
                Typed::Place(PlaceExpr::Previous(Box::new(of), self.skips_origin, self.skips_marks))
            }
            ast::PlaceKind::Named { name, player } => self.named_place(name, player.as_ref(), p.span, scope),
        }
    }

    /// `opposite`, `facing` and `twin` relate the pits of two sides of a board of rows: a ring or a single
    /// row has no such relation.
    fn needs_two_sides(&mut self, word: &str, span: Span) {
        let board = match self.shape {
            _ if !self.board_ok => return,
            Shape::TwoRows { .. } | Shape::ThreeRows { .. } | Shape::FourRows { .. } => return,
            Shape::Ring { .. } => "a ring",
            Shape::OneRow { .. } => "a board of one row",
        };
        let help = match word {
            "twin" => "`twin` is the pit of the same number on the other player's rows, on boards of two, three or four rows; `number(here)` gives a pit's number on any board",
            _ => "boards of two, three or four rows have pits across the middle; on this board, name the pits you mean, or declare a `region` of them",
        };
        self.error(
            "check::no_relation",
            format!("`{word}` needs a board of two, three or four rows"),
            span,
            format!("{board} has no `{word}`"),
            Some(help.into()),
        );
    }

    /// `behind` and `ahead` walk a column of one side of the board: boards of three or four rows only.
    fn needs_columns(&mut self, word: &str, span: Span) {
        let board = match self.shape {
            _ if !self.board_ok => return,
            Shape::ThreeRows { .. } | Shape::FourRows { .. } => return,
            Shape::Ring { .. } => "a ring",
            Shape::OneRow { .. } => "a board of one row",
            Shape::TwoRows { .. } => "a board of two rows",
        };
        self.error(
            "check::no_relation",
            format!("`{word}` needs a board of three or four rows"),
            span,
            format!("{board} has no `{word}`"),
            Some(format!("`{word}` is the pit {} in the same column of a player's side, which has two rows on boards of three or four rows; across the middle of the board is `opposite`", if word == "behind" { "one row further from the middle" } else { "one row nearer the middle" })),
        );
    }

    /// `NAME` or `NAME(PLAYER)` as a place, where NAME is a region: only a region of one pit is a place.
    fn region_place(&mut self, id: u16, player: Option<&ast::PlayerRef>, span: Span, scope: Scope) -> Typed {
        let region = &self.regions[id as usize];
        let (name, per_player) = (region.name.clone(), region.per_player);
        let size = region.masks.first().map_or(0, |m| m.count_ones());
        // The regions of a refused board have no pits: the error about the board is enough.
        if !self.board_ok {
            return Typed::Bad;
        }
        if size != 1 {
            self.error(
                "check::bad_type",
                format!("`{name}` is a set of {size} pits, not one place"),
                span,
                "a set of pits",
                Some(format!("use it where a set can stand: `here in {name}`, `count({name}(mover))`; a place is a region of one pit")),
            );
            return Typed::Bad;
        }
        match (per_player, player) {
            (true, Some(who)) => Typed::Place(PlaceExpr::RegionPit(id, self.player(who, scope))),
            (false, None) => Typed::Place(PlaceExpr::Fixed(region.all.trailing_zeros() as PlaceId)),
            (true, None) => self.whose(&name, span),
            (false, Some(_)) => self.not_whose(&name, span),
        }
    }

    fn whose(&mut self, name: &str, span: Span) -> Typed {
        self.error(
            "check::bad_context",
            format!("`{name}` is a place of each player: say whose"),
            span,
            "whose?",
            Some(format!("write `{name}(mover)`, `{name}(opponent)` or `{name}(player)`")),
        );
        Typed::Bad
    }

    fn not_whose(&mut self, name: &str, span: Span) -> Typed {
        self.error(
            "check::bad_context",
            format!("`{name}` is shared: it belongs to no player"),
            span,
            "no owner",
            Some(format!("write `{name}` alone")),
        );
        Typed::Bad
    }

    pub(super) fn named_place(
        &mut self,
        name: &ast::Name,
        player: Option<&ast::PlayerRef>,
        span: Span,
        scope: Scope,
    ) -> Typed {
        if let Some(&id) = self.region_names.get(&name.node) {
            self.used_names.insert(name.node.clone());
            return self.region_place(id, player, span, scope);
        }
        if let Some(pn) = self.place_names.get(&name.node).cloned() {
            self.used_names.insert(name.node.clone());
            return match (pn.per_player, player) {
                (true, Some(who)) => Typed::Place(PlaceExpr::OfPlayer(pn.id, self.player(who, scope))),
                (false, None) => Typed::Place(PlaceExpr::Fixed(pn.id)),
                (true, None) => self.whose(&name.node, span),
                (false, Some(_)) => self.not_whose(&name.node, span),
            };
        }
        if let Some(bad) = self.mark_as_place(name, span) {
            return bad;
        }
        if player.is_none() {
            if let Some(&id) = self.labels.get(&name.node) {
                return Typed::Place(PlaceExpr::Fixed(id));
            }
            if self.kinds.iter().any(|k| k.name == name.node) {
                return Typed::Kind(
                    self.kind_sel(&Spanned::new(ast::KindSel::Named { name: name.clone(), value: None }, span), false),
                );
            }
        }
        if player.is_none() && Self::looks_like_label(&name.node) {
            if self.board_ok {
                self.off_board(name);
            }
            return Typed::Bad;
        }
        if self.full() {
            self.errors += 1;
            return Typed::Bad;
        }
        let mut candidates: Vec<String> = self.place_names.keys().chain(self.region_names.keys()).cloned().collect();
        // `pit(mover)` is a slip for the set `pits(mover)`, and `cuont` for the function `count`.
        candidates.extend(crate::syntax::FUNCTIONS.iter().map(|f| f.to_string()));
        // Plain seeds have a kind name nobody writes; other kinds can stand where a place can (`count(gem)`).
        let kinds_named = player.is_none() && !(self.kinds.len() == 1 && self.kinds[0].name == "seed");
        if kinds_named {
            candidates.extend(self.kinds.iter().map(|k| k.name.clone()));
        }
        let what = if kinds_named { "place or kind of piece" } else { "place" };
        let declare = match player {
            Some(_) => format!("declare it: `place {} per player`", name.node),
            None => format!("declare it: `place {} shared`, or `place {} per player`", name.node, name.node),
        };
        self.unknown_with(&name.node, name.span, what, candidates, Some(declare));
        Typed::Bad
    }

    /// `to here` where `here` is the very place the pieces leave, so that they would stay where they are:
    /// refused with `message`, the label at `here`, and `help`. Whether it is so is the caller's to say.
    pub(super) fn refuse_to_here(&mut self, to: &ast::Place, message: &str, label: &str, help: &str) {
        if matches!(to.node, ast::PlaceKind::Here) {
            self.error("check::bad_context", message, to.span, label, Some(help.into()));
        }
    }

    /// A place pieces are moved to.
    pub(super) fn target_place(&mut self, p: &ast::Place, scope: Scope) -> PlaceExpr {
        match self.place(p, scope) {
            Typed::Place(place) => {
                self.mark_filled(&place);
                place
            }
            other => {
                self.fill_unknown = true;
                self.expect_place(&other, p.span);
                PlaceExpr::Here
            }
        }
    }

    pub(super) fn set(&mut self, s: &ast::SetExpr, scope: Scope) -> Set {
        match &s.node {
            ast::SetKind::Pits(None) => Set::AllPits,
            ast::SetKind::Pits(Some(p)) => {
                if self.board_ok && matches!(self.shape, Shape::Ring { .. }) {
                    self.error(
                        "check::empty_region",
                        "nobody owns a pit of a ring, so this set is always empty",
                        s.span,
                        "empty region",
                        Some("use `pits`, with a condition such as `where count(own) >= 1`".into()),
                    );
                }
                Set::PitsOf(self.player(p, scope))
            }
            ast::SetKind::Offered => {
                if !scope.offered {
                    self.error(
                        "check::bad_context",
                        "`offered` is only known inside an offer",
                        s.span,
                        "no offer here",
                        None,
                    );
                }
                Set::Offered
            }
            ast::SetKind::TakenFirst => {
                self.needs.taken_first = true;
                Set::TakenFirst
            }
            ast::SetKind::Threats(who) => {
                if !scope.threats {
                    self.error(
                        "check::bad_context",
                        "`threats` is only known after a move: in `then mark` and `must`",
                        s.span,
                        "no look-ahead here",
                        Some(
                            "the rules of a sowing are tried while `threats` looks ahead, so they cannot use it".into(),
                        ),
                    );
                }
                self.needs.taken_first = true;
                Set::Threats(self.player(who, scope))
            }
            ast::SetKind::Facing(of) => {
                self.needs_two_sides("facing", s.span);
                Set::Facing(self.optional_place(of.as_ref(), s.span, scope))
            }
            ast::SetKind::Place(p) => {
                if let ast::PlaceKind::Named { name, player } = &p.node {
                    if let Some(&id) = self.region_names.get(&name.node) {
                        self.used_names.insert(name.node.clone());
                        return match (self.regions[id as usize].per_player, player) {
                            (_, None) => Set::Region(id),
                            (true, Some(who)) => Set::RegionOf(id, self.player(who, scope)),
                            (false, Some(_)) => {
                                self.not_whose(&name.node, p.span);
                                Set::Region(id)
                            }
                        };
                    }
                    if let Some(set) = self.mark_set(name, player.as_ref(), scope) {
                        return set;
                    }
                }
                if let ast::PlaceKind::Named { name, player: None } = &p.node {
                    if let Some(pn) = self.place_names.get(&name.node).cloned() {
                        if pn.per_player {
                            self.used_names.insert(name.node.clone());
                            return Set::EveryPlayer(pn.id);
                        }
                    }
                }
                match self.place(p, scope) {
                    Typed::Place(place) => Set::One(place),
                    other => {
                        self.expect_place(&other, p.span);
                        Set::AllPits
                    }
                }
            }
        }
    }

    /// A set that is tested or walked pit by pit (`here in SET`, `all SET(...)`): an unknown name there is
    /// meant as a set of pits, and the help says how to declare one.
    pub(super) fn pit_set(&mut self, s: &ast::SetExpr, scope: Scope) -> Set {
        if let ast::SetKind::Place(p) = &s.node {
            if let ast::PlaceKind::Named { name, player } = &p.node {
                if self.unknown_set_name(name, player.is_some()) {
                    return Set::AllPits;
                }
            }
        }
        self.set(s, scope)
    }

    /// A name used as a set of pits that nothing declares: reported with the help that fits a set (a region,
    /// or the board's named rows), not a place's. Returns whether it was.
    fn unknown_set_name(&mut self, name: &ast::Name, whose: bool) -> bool {
        let n = &name.node;
        let known = self.region_names.contains_key(n)
            || self.place_names.contains_key(n)
            || self.labels.contains_key(n)
            || self.marks.iter().any(|m| &m.name == n)
            || self.kinds.iter().any(|k| &k.name == n)
            || (!whose && Self::looks_like_label(n));
        if known {
            return false;
        }
        if self.full() {
            self.errors += 1;
            return true;
        }
        let mut candidates: Vec<String> = self.place_names.keys().chain(self.region_names.keys()).cloned().collect();
        candidates.extend(self.marks.iter().map(|m| m.name.clone()));
        candidates.extend(crate::syntax::FUNCTIONS.iter().map(|f| f.to_string()));
        let rows = matches!(self.shape, Shape::ThreeRows { .. } | Shape::FourRows { .. }) || !self.board_ok;
        let declare = match (whose, rows) {
            (true, true) => format!(
                "name the board's rows (`board rows 4 of 8 {{ rows outer, {n} }}`), or declare a set of pits: `region {n} per player: LABEL, ...`"
            ),
            (true, false) => format!("declare a set of pits: `region {n} per player: LABEL, ...`"),
            (false, _) => format!("declare a set of pits: `region {n}: LABEL, ...`, or `region {n} per player: LABEL, ...`"),
        };
        self.unknown_with(n, name.span, "set of pits", candidates, Some(declare));
        true
    }

    /// A kind of piece; `player_bound` says whether `player` means someone here (a player's colour may be
    /// `player`'s only inside `players(...)`, `score` and the like).
    pub(super) fn kind_sel(&mut self, k: &Spanned<ast::KindSel>, player_bound: bool) -> KindSel {
        let colour_only = |this: &mut Self, word: &str| {
            if !this.coloured {
                this.error(
                    "check::no_colours",
                    format!("`{word}` needs pieces with a colour per player"),
                    k.span,
                    "these pieces belong to nobody",
                    Some("declare `pieces per player { ... }`, or count all pieces".into()),
                );
            }
        };
        match &k.node {
            ast::KindSel::Own => {
                colour_only(self, "own");
                KindSel::Own
            }
            ast::KindSel::Foreign => {
                colour_only(self, "foreign");
                KindSel::Foreign
            }
            ast::KindSel::Player(p) => {
                colour_only(self, "a player's colour");
                let who = self.player(
                    p,
                    Scope {
                        player: player_bound,
                        here: true,
                        last: true,
                        offered: true,
                        lap: false,
                        origin: false,
                        way: false,
                        threats: false,
                    },
                );
                KindSel::Colour(who)
            }
            ast::KindSel::Named { name, value } => {
                KindSel::Mask(self.kind_mask_named(name, value.as_ref()).unwrap_or(0))
            }
        }
    }

    pub(super) fn mark_filled(&mut self, p: &PlaceExpr) {
        match p {
            PlaceExpr::Fixed(id) => {
                self.filled.insert(*id);
            }
            PlaceExpr::OfPlayer(base, _) => {
                for i in 0..self.players {
                    self.filled.insert(base + i as PlaceId);
                }
            }
            _ => {}
        }
    }

    /// The places of a set pieces are moved into: a place, each player's place of a name, or pits (which
    /// pits a set of them holds can change as the game goes, so every pit).
    pub(super) fn mark_filled_set(&mut self, s: &Set) {
        match s {
            Set::One(p) => self.mark_filled(p),
            Set::EveryPlayer(base) => self.mark_filled(&PlaceExpr::OfPlayer(*base, PlayerExpr::Mover)),
            _ => self.filled.extend(0..self.n_pits as PlaceId),
        }
    }

    /// A game that sows puts pieces into every place on the track (every pit, and the stores on it) once
    /// any piece is there: pieces are lifted and sown round it, whatever the setup filled.
    pub(super) fn mark_sown(&mut self, phases: &[PhaseRules]) {
        let sows = phases.iter().flat_map(|p| &p.actions).any(|a| matches!(a.kind, ActionKind::Sow(_)));
        if sows {
            let on_track = self.places.iter().enumerate().filter(|(_, p)| p.on_track).map(|(i, _)| i as PlaceId);
            self.filled.extend(on_track.collect::<Vec<_>>());
        }
    }

    pub(super) fn mark_read_set(&mut self, s: &Set, span: Span) {
        match s {
            Set::One(PlaceExpr::Fixed(id)) => self.read.push((*id, span)),
            Set::One(PlaceExpr::OfPlayer(base, _)) | Set::EveryPlayer(base) => self.read.push((*base, span)),
            _ => {}
        }
    }
}

fn cmp_op(op: ast::CmpOp) -> CmpOp {
    match op {
        ast::CmpOp::Eq => CmpOp::Eq,
        ast::CmpOp::Ne => CmpOp::Ne,
        ast::CmpOp::Lt => CmpOp::Lt,
        ast::CmpOp::Le => CmpOp::Le,
        ast::CmpOp::Gt => CmpOp::Gt,
        ast::CmpOp::Ge => CmpOp::Ge,
    }
}

fn op_text(op: ast::CmpOp) -> &'static str {
    match op {
        ast::CmpOp::Eq => "=",
        ast::CmpOp::Ne => "!=",
        ast::CmpOp::Lt => "<",
        ast::CmpOp::Le => "<=",
        ast::CmpOp::Gt => ">",
        ast::CmpOp::Ge => ">=",
    }
}

/// "a player" -> "players".
fn plural(what: &str) -> String {
    let word = what.strip_prefix("a ").or_else(|| what.strip_prefix("an ")).unwrap_or(what);
    format!("{word}s")
}
