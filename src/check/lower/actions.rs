//! Phases and their actions: sowings (with their captures, relays and `then`), puts, offers, passes.

use std::collections::HashMap;

use crate::ast::{self, Span};
use crate::check::merge::{action_name, duplicate, head};
use crate::diag::Diagnostic;
use crate::ir::*;

use super::answers::Answering;
use super::{Lowerer, Scope, Typed, MAX_PIECES};

impl<'g> Lowerer<'g> {
    pub(super) fn lower_phases(&mut self) -> Vec<PhaseRules> {
        let phases = self.game.phases.clone();
        let mut out = Vec::new();
        for (i, phase) in phases.iter().enumerate() {
            let name = phase.node.name.as_ref().map_or("play".to_string(), |n| n.node.clone());
            self.at_phase = Some(i as u8);
            let mut rules = PhaseRules {
                name,
                actions: Vec::new(),
                pass: None,
                must: None,
                until: None,
                until_doc: None,
                end: EndRules::default(),
                again: None,
                again_doc: None,
                prefer: Vec::new(),
            };
            let mut names: HashMap<String, Span> = HashMap::new();
            for item in &phase.node.items {
                if let Some((name, span)) = action_name(item) {
                    if let Some(first) = names.insert(name.clone(), span) {
                        self.push(duplicate("action", &name, span, first));
                    }
                }
            }
            for item in &phase.node.items {
                match item {
                    ast::PhaseItem::Sow(s) => {
                        self.at_action = rules.actions.len() as u8;
                        let from = s.node.items.iter().find_map(|i| match i {
                            ast::SowItem::From { span, .. } => Some(*span),
                            _ => None,
                        });
                        self.note(RuleRef::Action { phase: i as u8, action: self.at_action }, from.unwrap_or(s.span));
                        let sow = self.lower_sow(&s.node, s.span);
                        rules.actions.push(Action {
                            name: s.node.name.as_ref().map_or("sow".into(), |n| n.node.clone()),
                            kind: ActionKind::Sow(sow),
                            doc: self.doc(s.span),
                        });
                    }
                    ast::PhaseItem::Put(p) => {
                        self.note(RuleRef::Action { phase: i as u8, action: rules.actions.len() as u8 }, p.span);
                        let put = self.lower_put(&p.node);
                        rules.actions.push(Action {
                            name: p.node.name.as_ref().map_or("put".into(), |n| n.node.clone()),
                            kind: ActionKind::Put(put),
                            doc: self.doc(p.span),
                        });
                    }
                    ast::PhaseItem::Take(t) => {
                        self.note(RuleRef::Action { phase: i as u8, action: rules.actions.len() as u8 }, t.span);
                        let take = self.lower_take_action(&t.node);
                        rules.actions.push(Action {
                            name: t.node.name.as_ref().map_or("take".into(), |n| n.node.clone()),
                            kind: ActionKind::Take(take),
                            doc: self.doc(t.span),
                        });
                    }
                    ast::PhaseItem::Offer(o) => {
                        self.note(RuleRef::Action { phase: i as u8, action: rules.actions.len() as u8 }, o.span);
                        let offer = self.lower_offer(&o.node, o.span);
                        rules.actions.push(Action {
                            name: o.node.name.as_ref().map_or("offer".into(), |n| n.node.clone()),
                            kind: ActionKind::Offer(offer),
                            doc: self.doc(o.span),
                        });
                    }
                    ast::PhaseItem::Pass(_) | ast::PhaseItem::End(_) | ast::PhaseItem::Prefer(_) => {}
                    ast::PhaseItem::Must(m) => {
                        let scope = Scope { threats: true, ..Scope::default() };
                        let after = self.cond(&m.node.after, scope);
                        let when = self.cond(&m.node.when, scope);
                        rules.must = Some(MustRule {
                            after,
                            when,
                            otherwise_end: m.node.otherwise == ast::MustElse::End,
                            doc: self.doc(m.span),
                        });
                    }
                    ast::PhaseItem::Again(c) => {
                        self.note(RuleRef::PhaseAgain { phase: i as u8 }, c.span);
                        rules.again = Some(self.cond(&c.node, Scope::default()));
                        rules.again_doc = self.doc(c.span);
                    }
                    ast::PhaseItem::Until(c) => {
                        if i + 1 == phases.len() {
                            self.push(
                                Diagnostic::warning(
                                    "check::last_until",
                                    "the last phase has nowhere to go after `until`",
                                    c.span,
                                    "never used",
                                )
                                .with_help("`until` starts the next phase; the last phase ends only by the end rules"),
                            );
                        }
                        rules.until = Some(self.cond(c, Scope::default()));
                        rules.until_doc = self.doc(c.span);
                    }
                }
            }
            let at = phase.node.name.as_ref().map_or(head(phase.span, "turn"), |n| n.span);
            if rules.actions.is_empty() {
                self.error(
                    "check::empty",
                    "this phase has no action",
                    at,
                    "nothing to do",
                    Some("add `sow { ... }`, `put { ... }` or `offer { ... }`".into()),
                );
            }
            for item in &phase.node.items {
                match item {
                    ast::PhaseItem::Pass(p) => {
                        let mut pass = self.lower_pass(&p.node, &rules.actions);
                        pass.doc = self.doc(p.span);
                        rules.pass = Some(pass);
                    }
                    ast::PhaseItem::End(e) => rules.end = self.lower_end(&e.node),
                    ast::PhaseItem::Prefer(p) => rules.prefer = self.lower_prefer(&p.node, &rules.actions),
                    _ => {}
                }
            }
            // A `turn` among named phases is reported by `merge`; its order means nothing.
            let mixed = phases.iter().any(|p| p.node.name.is_none()) && phases.len() > 1;
            if i + 1 < phases.len() && rules.until.is_none() && !mixed {
                self.error(
                    "check::missing_item",
                    format!("phase `{}` never ends", rules.name),
                    at,
                    "no `until`",
                    Some("add `until CONDITION` so the next phase can begin".into()),
                );
            }
            out.push(rules);
        }
        self.at_phase = None;
        out
    }

    /// `pass when cannot move` (every action of the phase) or `pass when cannot A, B, ...` (each named once).
    pub(super) fn lower_pass(&mut self, pass: &ast::PassWhen, actions: &[Action]) -> PassRule {
        if pass.action.is_none() {
            return PassRule { unless: (0..actions.len() as u8).collect(), doc: None };
        }
        let mut unless: Vec<u8> = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for name in pass.actions() {
            if let Some(first) = seen.insert(name.node.as_str(), name.span) {
                self.push(
                    Diagnostic::error(
                        "check::duplicate",
                        format!("`{}` is named twice", name.node),
                        name.span,
                        "named again here",
                    )
                    .with_related(first, "first named here")
                    .with_help("name each action once: the player passes when he can play none of those named"),
                );
                continue;
            }
            match actions.iter().position(|a| a.name == name.node) {
                Some(i) => unless.push(i as u8),
                None => {
                    self.unknown(&name.node, name.span, "action", actions.iter().map(|a| a.name.clone()).collect());
                }
            }
        }
        PassRule { unless, doc: None }
    }

    /// `prefer A, B, ...`: the actions by rank, each named once.
    fn lower_prefer(&mut self, names: &[ast::Name], actions: &[Action]) -> Vec<u8> {
        let mut ranks: Vec<u8> = Vec::new();
        let mut seen: HashMap<&str, Span> = HashMap::new();
        for name in names {
            if let Some(first) = seen.insert(name.node.as_str(), name.span) {
                self.push(
                    Diagnostic::error(
                        "check::duplicate",
                        format!("`{}` is ranked twice", name.node),
                        name.span,
                        "ranked again here",
                    )
                    .with_related(first, "first ranked here")
                    .with_help("name each action once, from the most preferred to the least"),
                );
                continue;
            }
            match actions.iter().position(|a| a.name == name.node) {
                Some(i) => ranks.push(i as u8),
                None => self.unknown(&name.node, name.span, "action", actions.iter().map(|a| a.name.clone()).collect()),
            }
        }
        ranks
    }

    /// `skip NAME` where NAME is a mark: every lap passes over the pits carrying it, for anyone. Said of one
    /// player's (`NAME(PLAYER)`), it is refused: a lap skips a burnt pit whoever it is burnt for.
    fn skipped_mark(&mut self, p: &ast::Place) -> Option<MarkId> {
        let ast::PlaceKind::Named { name, player } = &p.node else { return None };
        let &id = self.mark_names.get(&name.node)?;
        self.used_names.insert(name.node.clone());
        if let Some(who) = player {
            if !self.full() {
                self.error(
                    "check::bad_context",
                    format!("a sowing skips the pits carrying `{}` for anyone", name.node),
                    who.span,
                    "no player here",
                    Some(format!("write `skip {}`", name.node)),
                );
            }
        }
        Some(id)
    }

    pub(super) fn lower_sow(&mut self, sow: &ast::Sow, span: Span) -> Sow {
        let mut out = Sow {
            take_first: None,
            from: Set::AllPits,
            filter: Cond::True,
            dir: DirRule::Fixed(Dir::Ccw),
            order_chosen: false,
            last_own: false,
            skip_origin: false,
            relay: None,
            relay_next: false,
            require: None,
            captures: Vec::new(),
            drop_captures: Vec::new(),
            lift_captures: Vec::new(),
            answers: Vec::new(),
            again: None,
            then: None,
            lookahead: false,
            relay_doc: None,
            require_doc: None,
            again_doc: None,
            lap_dir: None,
            laps: false,
            start_origin: None,
            divert: Vec::new(),
            lift_steps: Vec::new(),
            from_else: Vec::new(),
            dir_filter: None,
            must_capture: false,
            lifts: Vec::new(),
            relay_may: None,
            relay_answers: None,
            relay_may_doc: None,
            skip_marks: 0,
            skip_where: None,
            skip_places: Vec::new(),
            then_marks: Vec::new(),
        };
        let mut must_capture: Option<Span> = None;
        let mut skip_where: Option<Span> = None;
        let mut lap_dir: Option<&ast::Cond> = None;
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        let mut has_from = false;
        let after = Scope { last: true, here: true, ..Scope::default() };
        self.skips_origin =
            sow.items.iter().any(|i| matches!(i, ast::SowItem::Skip(s) if s.node == ast::SkipTarget::Origin));
        self.skips_marks = sow
            .items
            .iter()
            .filter_map(|i| match i {
                // Only a lookup: the `skip` itself is checked, and its mistakes told, below.
                ast::SowItem::Skip(s) => match &s.node {
                    ast::SkipTarget::Place(ast::Spanned { node: ast::PlaceKind::Named { name, .. }, .. }) => {
                        self.mark_names.get(&name.node).copied()
                    }
                    _ => None,
                },
                _ => None,
            })
            .fold(0, |bits, mark| bits | 1 << mark);
        for (index, item) in sow.items.iter().enumerate() {
            let (key, item_span) = sow_item_key(item);
            if !matches!(key, "capture" | "skip" | "divert" | "mark" | "unmark" | "lift" | "then mark") {
                if let Some(first) = seen.insert(key, item_span) {
                    self.push(
                        Diagnostic::error(
                            "check::duplicate",
                            format!("this sowing says `{key}` twice"),
                            head(item_span, key),
                            "said again here",
                        )
                        .with_related(head(first, key), "first said here")
                        .with_help(format!("a sowing has one `{key}`: remove one of them")),
                    );
                }
            }
            match item {
                ast::SowItem::Take(t) => {
                    if index > 0 {
                        self.error(
                            "check::bad_context",
                            "a take before the sowing is its first step",
                            head(t.span, "take"),
                            "after other steps",
                            Some("write `take { ... }` first in the sowing".into()),
                        );
                    }
                    if let Some(name) = &t.node.name {
                        self.error(
                            "check::bad_context",
                            "a take made before the sowing has no name of its own",
                            name.span,
                            "the sowing's name names the move",
                            Some("name the sowing instead: `sow NAME { take { ... } ... }`".into()),
                        );
                    }
                    let (phase, action) = self.at();
                    self.note(RuleRef::TakeFirst { phase, action }, t.span);
                    out.take_first = Some(self.lower_take_action(&t.node));
                }
                ast::SowItem::From { set, filter, alternatives, .. } => {
                    has_from = true;
                    out.from = self.set(set, Scope::default());
                    out.filter = filter.as_ref().map_or(Cond::True, |f| self.cond(f, Scope::default().here()));
                    for (set, filter) in alternatives {
                        let set = self.set(set, Scope::default());
                        let filter = filter.as_ref().map_or(Cond::True, |f| self.cond(f, Scope::default().here()));
                        out.from_else.push((set, filter));
                    }
                }
                ast::SowItem::DirectionWhere(d) => {
                    let (word, filter) = &d.node;
                    out.dir = match word {
                        ast::DirWord::Ccw => DirRule::Fixed(Dir::Ccw),
                        ast::DirWord::Cw => DirRule::Fixed(Dir::Cw),
                        ast::DirWord::Choose => DirRule::Choose,
                    };
                    let scope = Scope { here: true, way: true, ..Scope::default() };
                    out.dir_filter = Some(self.cond(filter, scope));
                }
                ast::SowItem::MustCapture(s) => {
                    out.must_capture = true;
                    must_capture = Some(*s);
                }
                ast::SowItem::Direction(d) => {
                    out.dir = match d.node {
                        ast::DirWord::Ccw => DirRule::Fixed(Dir::Ccw),
                        ast::DirWord::Cw => DirRule::Fixed(Dir::Cw),
                        ast::DirWord::Choose => DirRule::Choose,
                    }
                }
                ast::SowItem::Order { last_own, span } => {
                    out.order_chosen = true;
                    out.last_own = *last_own;
                    if *last_own && !self.coloured {
                        self.error(
                            "check::no_colours",
                            "`last own` needs pieces with a colour per player",
                            *span,
                            "whose colour?",
                            Some("declare `pieces per player { ... }`".into()),
                        );
                    }
                }
                ast::SowItem::Skip(s) => match &s.node {
                    ast::SkipTarget::Origin => out.skip_origin = true,
                    ast::SkipTarget::Where { set, cond, except_last } => {
                        if let Some(first) = skip_where.replace(s.span) {
                            self.push(
                                Diagnostic::error(
                                    "check::duplicate",
                                    "this sowing has two `skip ... where`",
                                    s.span,
                                    "a second one",
                                )
                                .with_related(first, "the first")
                                .with_help("join the conditions in one: `skip pits where count >= 4 or here in burnt`"),
                            );
                        }
                        // Tested at each drop: `here` is the place the piece would fall into.
                        let set = self.pit_set(set, Scope::default());
                        let cond = self.cond(cond, Scope::default().here());
                        out.skip_where = Some(SkipWhere { set, cond, except_last: *except_last });
                    }
                    ast::SkipTarget::Place(p) if self.skipped_mark(p).is_some() => {
                        if let Some(mark) = self.skipped_mark(p) {
                            out.skip_marks |= 1 << mark;
                        }
                    }
                    ast::SkipTarget::Place(p) => {
                        // Lowered per mover in `topology`; here we only check the names.
                        let place = self.place(p, Scope::default());
                        if let Typed::Place(expr) = &place {
                            out.skip_places.push(expr.clone());
                        }
                        if let Typed::Place(PlaceExpr::Fixed(id)) = &place {
                            if (*id as usize) < self.n_pits {
                                self.error(
                                    "check::skip_pit",
                                    "a sowing cannot skip a pit by its label",
                                    s.span,
                                    "a pit",
                                    Some("`skip` passes over a store (`skip store(opponent)`), the lap's origin (`skip origin`) or the pits carrying a mark (`skip burnt`)".into()),
                                );
                            }
                        }
                        if let Typed::Place(PlaceExpr::Fixed(id)) | Typed::Place(PlaceExpr::OfPlayer(id, _)) = &place {
                            if !self.places.get(*id as usize).is_some_and(|i| i.on_track) {
                                self.error(
                                    "check::off_track",
                                    "this place is not on the sowing track",
                                    s.span,
                                    "never sown into anyway",
                                    Some("only pits and the stores of `with stores` are on the track".into()),
                                );
                            }
                        }
                    }
                },
                ast::SowItem::Relay(c) => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::Relay { phase, action }, c.span);
                    let cond = self.cond(&c.node, after);
                    if crate::ir::relay_always_holds(&cond) {
                        self.diags.push(relay_always_warning(c.span));
                    }
                    out.relay = Some(cond);
                    out.relay_doc = self.doc(c.span);
                }
                ast::SowItem::RelayFromNext(c) => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::Relay { phase, action }, c.span);
                    out.relay = Some(self.cond(&c.node, after));
                    out.relay_next = true;
                    out.relay_doc = self.doc(c.span);
                }
                ast::SowItem::RelayMay { when, answers } => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::RelayMay { phase, action }, when.span);
                    out.relay_may = Some(self.cond(&when.node, after));
                    out.relay_may_doc = self.doc(when.span);
                    out.relay_answers = answers.as_ref().map(|a| self.lower_answers(a, Answering::Relay));
                }
                ast::SowItem::Lift(l) => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::Lift { phase, action, index: out.lifts.len() as u8 }, l.span);
                    let lift = self.lower_lift(&l.node);
                    out.lifts.push(lift);
                }
                ast::SowItem::Require(c) => {
                    out.require = Some(self.cond(&c.node, after));
                    out.require_doc = self.doc(c.span);
                }
                ast::SowItem::Capture(c) if c.node.every_drop => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::DropCapture { phase, action, index: out.drop_captures.len() as u8 }, c.span);
                    let rule = self.lower_capture(&c.node, c.span);
                    self.check_drop_capture(&rule, &c.node, c.span, "drop");
                    out.drop_captures.push(rule);
                }
                ast::SowItem::Capture(c) if c.node.by_opponent => {
                    if self.players != 2 && self.board_ok {
                        self.error(
                            "check::players_range",
                            "an answer of the opponent is for games of 2 players",
                            head(c.span, "opponent"),
                            "whose answer?",
                            Some("with more players, `opponent` would be the next one alone: write the rule for a game of 2".into()),
                        );
                    }
                    let (phase, action) = self.at();
                    self.note(RuleRef::Answer { phase, action, index: out.answers.len() as u8 }, c.span);
                    let rule = self.lower_capture(&c.node, c.span);
                    self.check_drop_capture(&rule, &c.node, c.span, "answer");
                    out.answers.push(rule);
                }
                ast::SowItem::Capture(c) if c.node.every_lift => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::LiftCapture { phase, action, index: out.lift_captures.len() as u8 }, c.span);
                    let lifting = Scope { here: true, origin: true, ..Scope::default() };
                    let rule = self.lower_capture_in(&c.node, c.span, lifting);
                    self.check_drop_capture(&rule, &c.node, c.span, "lift");
                    out.lift_captures.push(rule);
                }
                ast::SowItem::Capture(c) => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::Capture { phase, action, index: out.captures.len() as u8 }, c.span);
                    let rule = self.lower_capture(&c.node, c.span);
                    out.captures.push(rule);
                }
                ast::SowItem::Again(c) => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::Again { phase, action }, c.span);
                    out.again = Some(self.cond(&c.node, after));
                    out.again_doc = self.doc(c.span);
                }
                ast::SowItem::LapDirection(d) => {
                    let usual = lap_dir_of(d.node.usual);
                    if d.node.usual == d.node.other {
                        self.error(
                            "check::same_direction",
                            "both directions of this rule are the same",
                            d.span,
                            "no other way to go",
                            Some("write `direction ccw or cw when CONDITION`".into()),
                        );
                    }
                    out.dir = DirRule::PerLap(usual);
                    lap_dir = Some(&d.node.when);
                }
                ast::SowItem::Then(t) => {
                    let (phase, action) = self.at();
                    self.note(RuleRef::Then { phase, action }, t.span);
                    let kinds = t.node.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k, false));
                    let set = self.set(&t.node.set, after);
                    let filter = t.node.filter.as_ref().map_or(Cond::True, |f| self.cond(f, after.here()));
                    let to = self.target_place(&t.node.to, after);
                    self.refuse_to_here(
                        &t.node.to,
                        "the pieces would stay in the pit they are taken from",
                        "the pit taken from itself",
                        "in a `then` take's place, `here` is the pit taken from: take the pieces to another place, such as `to store(mover)`",
                    );
                    out.then = Some(ThenRule { must: t.node.must, kinds, set, filter, to, doc: self.doc(t.span) });
                }
                ast::SowItem::ThenMark(t) => {
                    if let Some(mut mark) = self.lower_then_mark(&t.node, after) {
                        let (phase, action) = self.at();
                        self.note(RuleRef::ThenMark { phase, action, index: out.then_marks.len() as u8 }, t.span);
                        mark.doc = self.doc(t.span);
                        out.then_marks.push(mark);
                    }
                }
                ast::SowItem::StartAt(c) => out.start_origin = Some(self.lower_start_at(c.node.as_ref())),
                ast::SowItem::Divert(d) => {
                    if let Some(divert) = self.lower_divert(&d.node) {
                        out.divert.push(divert);
                    }
                }
                ast::SowItem::Mark(m) => {
                    if let Some(step) = self.lower_mark_action(&m.node, LIFTING) {
                        out.lift_steps.push(step);
                    }
                }
                ast::SowItem::Unmark(u) => {
                    if let Some(step) = self.lower_unmark(&u.node, LIFTING) {
                        out.lift_steps.push(step);
                    }
                }
            }
        }
        if !has_from {
            self.error(
                "check::missing_item",
                "this sowing does not say where it starts",
                span,
                "no `from`",
                Some("add `from pits(mover) where count > 0`".into()),
            );
        }
        if out.relay.is_some() && out.order_chosen {
            self.error(
                "check::unsupported",
                "a relay sowing cannot also let the mover choose the order",
                span,
                "relay and order together",
                Some("drop either `relay` or `order choose`".into()),
            );
        }
        if let Some(when) = lap_dir {
            // `capturing` there: any capture rule of this sowing holds at the end of the lap.
            self.capturing = Some(Cond::Or(out.captures.iter().map(|c| c.when.clone()).collect()));
            out.lap_dir = Some(self.cond(when, after));
            self.capturing = None;
            if out.order_chosen {
                self.error(
                    "check::unsupported",
                    "a direction per lap cannot be combined with `order choose`",
                    span,
                    "per-lap direction and order together",
                    Some("use `direction choose` or drop `order choose`".into()),
                );
            }
        }
        self.skips_origin = false;
        self.skips_marks = 0;
        if let Some(at) = must_capture {
            self.check_must_capture(&out, at);
        }
        // A capture that goes on (`sow from`, `continue at`) can go on for ever, as a relay can: such a move is
        // illegal (unless `draw when endless`), which only playing it out shows.
        let resows = out.captures.iter().any(|c| c.resow.is_some() || c.go_on.is_some());
        let relays = out.relay.is_some() || out.relay_may.is_some();
        // An answer waits at the end of a lap, a pit chosen before a lap is lifted before it: the laps are
        // decided one by one.
        let lift_picks = out.lift_captures.iter().any(|c| c.pick.is_some());
        out.laps = relays || resows || out.lap_dir.is_some() || !out.answers.is_empty() || lift_picks;
        if lift_picks {
            self.check_lift_pick(sow);
        }
        // A take before the sowing is offered only where a sowing can follow it: found by playing it out.
        // A lap that lifts from another place may find it empty, and a first lap that lifts nothing is no
        // move: found by playing it out.
        out.lookahead = out.require.is_some() || relays || resows || out.take_first.is_some() || out.may_lift_nothing();
        out
    }

    /// A pit chosen before a lap is lifted pauses the first lap: not where a start's ways are tried by sowing
    /// their first lap (`must capture`, `direction ... where`).
    fn check_lift_pick(&mut self, sow: &ast::Sow) {
        for item in &sow.items {
            let (key, at) = match item {
                ast::SowItem::MustCapture(s) => ("must capture", *s),
                ast::SowItem::DirectionWhere(d) => ("direction ... where", d.span),
                _ => continue,
            };
            self.error(
                "check::unsupported",
                format!("a capture at every lift that chooses a pit cannot be combined with `{key}`"),
                at,
                "tries the first lap, which waits for the pit",
                Some("drop one of them".into()),
            );
        }
    }

    /// `lift N [from PLACE] [when COND]`: the condition is tested as a lap starts, at the pit to be lifted.
    fn lower_lift(&mut self, lift: &ast::Lift) -> LiftRule {
        let scope = Scope { here: true, lap: true, way: true, ..Scope::default() };
        let when = lift.when.as_ref().map_or(Cond::True, |c| self.cond(c, scope));
        let from = lift.from.as_ref().map(|p| match self.place(p, scope) {
            Typed::Place(place) => place,
            other => {
                self.expect_place(&other, p.span);
                PlaceExpr::Here
            }
        });
        if lift.count.node == 0 || lift.count.node > MAX_PIECES {
            self.error(
                "check::bad_range",
                format!("a lap cannot lift {} pieces", lift.count.node),
                lift.count.span,
                "out of range",
                Some(format!("lift 1 to {MAX_PIECES} pieces")),
            );
        }
        LiftRule { count: lift.count.node.clamp(1, MAX_PIECES), from, when }
    }

    /// `must capture` tries the first lap of each start on a copy, so that lap must run without a choice,
    /// and some capture must be there to apply.
    fn check_must_capture(&mut self, sow: &Sow, at: Span) {
        let problem = if sow.captures.is_empty() {
            Some((
                "this sowing has no capture to make",
                "add a `capture when ... { ... }` rule, or drop `must capture`",
            ))
        } else if sow.order_chosen {
            Some(("`must capture` cannot be combined with `order choose`", "drop one of them"))
        } else if matches!(sow.dir, DirRule::PerLap(_)) {
            Some((
                "`must capture` cannot be combined with a direction per lap",
                "use `direction choose` (with `where` to rule out ways)",
            ))
        } else if sow.captures.iter().any(|c| c.may) {
            Some(("`must capture` cannot be combined with `capture may`", "make the captures compulsory"))
        } else {
            None
        };
        if let Some((message, help)) = problem {
            self.error("check::unsupported", message, at, "must capture", Some(help.into()));
        }
    }

    pub(super) fn lower_capture(&mut self, cap: &ast::Capture, span: Span) -> CaptureRule {
        self.lower_capture_in(cap, span, Scope { last: true, here: true, ..Scope::default() })
    }

    /// A capture whose conditions and places know what `scope` says (a capture at every lift knows no `last`).
    pub(super) fn lower_capture_in(&mut self, cap: &ast::Capture, span: Span, scope: Scope) -> CaptureRule {
        let when = cap.when.as_ref().map_or(Cond::True, |c| self.cond(c, scope));
        let mut rule = CaptureRule {
            when,
            takes: Vec::new(),
            chain: None,
            cancel: None,
            doc: self.doc(span),
            may: cap.may,
            answers: cap.answers.as_ref().map(|a| self.lower_answers(a, Answering::Capture)),
            steps: Vec::new(),
            resow: None,
            go_on: None,
            resow_into: false,
            resow_dir: None,
            pick: None,
        };
        for item in &cap.items {
            match item {
                ast::CaptureItem::Pick(t) => self.lower_capture_pick(&mut rule, cap, t, scope),
                ast::CaptureItem::Take(t) => {
                    let take = self.lower_take(&t.node, t.span, scope);
                    rule.takes.push(take);
                }
                ast::CaptureItem::Chain(c) => {
                    if rule.chain.is_some() {
                        self.error(
                            "check::duplicate",
                            "a capture has at most one `chain`",
                            c.span,
                            "second chain",
                            None,
                        );
                    }
                    let cond = match &c.node.while_ {
                        Some(w) => self.cond(w, scope),
                        None => cap.when.as_ref().map_or(Cond::True, |w| self.cond(w, scope)),
                    };
                    let (backward, forward) = match c.node.dir {
                        ast::ChainDir::Backward => (true, false),
                        ast::ChainDir::Forward => (false, true),
                        ast::ChainDir::Both => (true, true),
                    };
                    rule.chain = Some(ChainRule { backward, forward, cond });
                }
                ast::CaptureItem::Cancel(c) => rule.cancel = Some(self.cond(&c.node, scope)),
                ast::CaptureItem::Mark(m) => {
                    let step = self.lower_mark_action(&m.node, scope);
                    rule.steps.extend(step.map(|action| Step { before: rule.takes.len() as u8, action }));
                }
                ast::CaptureItem::Unmark(u) => {
                    let step = self.lower_unmark(&u.node, scope);
                    rule.steps.extend(step.map(|action| Step { before: rule.takes.len() as u8, action }));
                }
                ast::CaptureItem::Give(g) => {
                    let action = self.lower_give(&g.node, scope);
                    rule.steps.push(Step { before: rule.takes.len() as u8, action });
                }
                ast::CaptureItem::Sow(p) => self.lower_resow(&mut rule, &p.node, false, None, p.span, scope),
                ast::CaptureItem::Resow(r) => {
                    let dir = r.node.dir.map(lap_dir_of);
                    self.lower_resow(&mut rule, &r.node.place, r.node.into, dir, r.span, scope)
                }
                ast::CaptureItem::ContinueAt(p) => {
                    if rule.go_on.is_some() {
                        self.error(
                            "check::duplicate",
                            "a capture has at most one `continue at`",
                            p.span,
                            "second",
                            None,
                        );
                    }
                    rule.go_on = Some(match self.place(&p.node, scope) {
                        Typed::Place(place) => place,
                        other => {
                            self.expect_place(&other, p.node.span);
                            PlaceExpr::Here
                        }
                    });
                }
            }
        }
        if rule.takes.is_empty() && rule.steps.is_empty() && rule.pick.is_none() {
            self.error(
                "check::empty",
                if cap.by_opponent { "this answer takes nothing" } else { "this capture takes nothing" },
                span,
                "no `take`",
                Some("add `take to captured(mover)`, or `mark here as NAME`".into()),
            );
        }
        if rule.may && rule.cancel.is_some() {
            self.error(
                "check::unsupported",
                "an optional capture cannot also be cancelled",
                span,
                "`may` and `cancel` together",
                Some("the mover declines it himself: drop the `cancel`".into()),
            );
        }
        if !cap.by_opponent {
            // An answer cannot take to the hand at all (`check_drop_capture` says so).
            self.check_resow(&rule, cap, span);
        }
        if rule.cancel.is_some() && rule.takes.iter().any(|t| t.chosen) {
            self.error(
                "check::unsupported",
                "`cancel` cannot be combined with a `chosen` take",
                span,
                "cancel and chosen together",
                None,
            );
        }
        rule
    }

    /// `take { ... }` in a capture: only in an answer (the opponent chooses the pit) or a capture at every lift
    /// (the mover does), and alone there. Its set reads the capture's `here` (the lap's last place, the pit
    /// about to be lifted); its condition and place read the chosen pit as `here`.
    fn lower_capture_pick(
        &mut self,
        rule: &mut CaptureRule,
        cap: &ast::Capture,
        take: &ast::Spanned<ast::TakeAction>,
        scope: Scope,
    ) {
        if !cap.by_opponent && !cap.every_lift {
            self.error(
                "check::bad_context",
                "a take of a chosen pit, in braces, is made only in an answer or a capture at every lift",
                head(take.span, "take"),
                "not in this capture",
                Some(
                    "write the take without braces (`take from PLACE to PLACE`), or move it into `opponent may` or \
                     `capture at every lift`"
                        .into(),
                ),
            );
        }
        if let Some(name) = &take.node.name {
            self.error(
                "check::bad_context",
                "a take in a capture has no name of its own",
                name.span,
                "a name",
                Some("leave the name out: `take { from ... to ... }`".into()),
            );
        }
        if rule.pick.is_some() {
            self.error(
                "check::duplicate",
                "a capture or answer chooses at most one pit",
                head(take.span, "take"),
                "second take of a chosen pit",
                None,
            );
        }
        if let Some(other) = cap.items.iter().find(|i| !matches!(i, ast::CaptureItem::Pick(_))) {
            let what = if cap.by_opponent { "an answer" } else { "a capture" };
            self.error(
                "check::unsupported",
                format!("{what} that chooses a pit holds that take alone"),
                capture_item_span(other),
                "beside the take of a chosen pit",
                Some("write this in a rule of its own".into()),
            );
        }
        rule.pick = Some(self.lower_take_action_in(&take.node, scope, scope.here()));
    }

    /// `sow from|into PLACE [cw|ccw]`.
    fn lower_resow(
        &mut self,
        rule: &mut CaptureRule,
        place: &ast::Place,
        into: bool,
        dir: Option<Dir>,
        span: Span,
        scope: Scope,
    ) {
        if rule.resow.is_some() {
            self.error("check::duplicate", "a capture has at most one `sow from`", span, "second", None);
        }
        rule.resow = Some(match self.place(place, scope) {
            Typed::Place(place) => place,
            other => {
                self.expect_place(&other, place.span);
                PlaceExpr::Origin
            }
        });
        rule.resow_into = into;
        rule.resow_dir = dir;
    }

    /// Pieces taken to the hand must be sown (`sow from`), and a `sow from` needs pieces in the hand; only a
    /// capture at the end of a sowing can sow.
    fn check_resow(&mut self, rule: &CaptureRule, cap: &ast::Capture, span: Span) {
        let to_hand = rule.takes.iter().any(|t| matches!(t.to, TakeTo::Hand));
        let sow_span = cap.items.iter().find_map(|i| match i {
            ast::CaptureItem::Sow(p) => Some(p.span),
            ast::CaptureItem::Resow(r) => Some(r.span),
            _ => None,
        });
        match (to_hand, sow_span) {
            (true, None) => self.error(
                "check::missing_item",
                "this capture takes pieces to the hand but never sows them",
                span,
                "no `sow from`",
                Some("add `sow from origin` to sow them on as a new lap".into()),
            ),
            (false, Some(s)) => self.error(
                "check::empty",
                "this capture sows from an empty hand",
                s,
                "nothing taken to the hand",
                Some("take the pieces to the hand: `take from opposite(here) to hand`".into()),
            ),
            _ => {}
        }
        let go_on_span = cap.items.iter().find_map(|i| match i {
            ast::CaptureItem::ContinueAt(p) => Some(p.span),
            _ => None,
        });
        if let (Some(at), Some(_)) = (go_on_span, sow_span) {
            self.push(
                Diagnostic::error(
                    "check::unsupported",
                    "a capture cannot both sow its pieces and continue elsewhere",
                    at,
                    "`continue at` with `sow from`",
                )
                .with_help("`sow from` already starts a new lap: drop either `continue at` or `sow from`"),
            );
        }
        if rule.chain.is_some() && sow_span.is_some() {
            self.error(
                "check::unsupported",
                "a capture that sows its pieces cannot also chain",
                span,
                "chain and sow from together",
                Some("drop either `chain` or `sow from`".into()),
            );
        }
    }

    /// A capture at every drop happens while the pieces are still being dropped, one at every lift as a lap
    /// is about to be lifted: it can only take, mark and give, with nothing to choose and nothing that goes
    /// on from it. `at` is `drop` or `lift`.
    fn check_drop_capture(&mut self, rule: &CaptureRule, cap: &ast::Capture, span: Span, at: &str) {
        let lift = at == "lift";
        let what = if cap.may && !cap.by_opponent {
            Some((head(span, "capture"), "`may`", "the mover is not asked in the middle of a lap: drop `may`"))
        } else if let Some(t) = rule.takes.iter().position(|t| t.chosen || matches!(t.to, TakeTo::Hand)) {
            let item_span = cap
                .items
                .iter()
                .filter_map(|i| match i {
                    ast::CaptureItem::Take(t) => Some(t.span),
                    _ => None,
                })
                .nth(t)
                .unwrap_or(span);
            Some((
                item_span,
                "a `chosen` take or a take `to hand`",
                "take every piece to a place: `take to store(mover)`",
            ))
        } else {
            cap.items.iter().find_map(|i| match i {
                ast::CaptureItem::Chain(c) => Some((
                    c.span,
                    "`chain`",
                    if lift {
                        "a capture at every lift takes at the pit about to be lifted: drop the `chain`"
                    } else {
                        "a capture at every drop takes at the pit just sown: drop the `chain`"
                    },
                )),
                ast::CaptureItem::Cancel(c) => {
                    Some((c.span, "`cancel`", "such a capture cannot be undone: drop the `cancel`"))
                }
                ast::CaptureItem::Sow(p) => Some((
                    p.span,
                    "`sow from`",
                    "the lap is still being sown: write the `sow from` in a capture at the end of the lap",
                )),
                ast::CaptureItem::ContinueAt(p) => Some((
                    p.span,
                    "`continue at`",
                    "the lap is still being sown: write the `continue at` in a capture at the end of the lap",
                )),
                _ => None,
            })
        };
        if let Some((where_, word, help)) = what {
            self.push(
                Diagnostic::error(
                    "check::unsupported",
                    if cap.by_opponent {
                        format!("an answer of the opponent cannot have {word}")
                    } else {
                        format!("a capture at every {at} cannot have {word}")
                    },
                    where_,
                    match at {
                        "lift" => "not as a lap is lifted",
                        "answer" => "not in an answer",
                        _ => "not while the pieces are dropped",
                    },
                )
                .with_help(help),
            );
        }
    }

    pub(super) fn lower_take(&mut self, take: &ast::Take, span: Span, scope: Scope) -> TakeRule {
        let kinds = take.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k, false));
        let from: Vec<Vec<Set>> = if take.from.is_empty() {
            if !scope.here {
                self.error(
                    "check::bad_context",
                    "take from where?",
                    span,
                    "no place to take from",
                    Some("add `from PLACE`".into()),
                );
            }
            vec![vec![Set::One(PlaceExpr::Here)]]
        } else {
            take.from.iter().map(|group| group.iter().map(|s| self.set(s, scope)).collect()).collect()
        };
        if let ast::TakeTarget::Place(to) = &take.to {
            self.take_to_here(take, to, scope);
        }
        let to = match &take.to {
            ast::TakeTarget::Place(p) => TakeTo::Place(self.target_place(p, scope)),
            ast::TakeTarget::Each(s) => {
                let set = self.set(s, scope);
                self.mark_filled_set(&set);
                TakeTo::Each(set)
            }
            ast::TakeTarget::Hand => TakeTo::Hand,
        };
        if take.chosen && matches!(to, TakeTo::Hand) {
            self.error(
                "check::unsupported",
                "a `chosen` take cannot go to the hand",
                span,
                "chosen and hand together",
                Some("take every piece to the hand: leave out `chosen`".into()),
            );
        }
        if take.chosen && matches!(to, TakeTo::Each(_)) {
            self.error(
                "check::unsupported",
                "a `chosen` take goes to one place, not to each of a set",
                span,
                "chosen and each together",
                None,
            );
        }
        if let Some(count) = take.count.as_ref().filter(|c| c.node == 0) {
            self.error(
                "check::bad_range",
                "taking 0 pieces takes nothing",
                count.span,
                "zero",
                Some("write how many, 1 or more, or leave the number out to take every matching piece".into()),
            );
        }
        // In its `where`, `here` is each place of the sources in turn.
        let filter = take.filter.as_ref().map(|c| self.cond(c, scope.here()));
        TakeRule { count: take.count.as_ref().map(|c| c.node), kinds, chosen: take.chosen, from, filter, to }
    }

    /// A capture's take `to here` that takes from `here` (no `from`, or `here` among the places): those pieces
    /// would stay where they are. Taking other places into `here` (`take from opposite to here`) is a take.
    fn take_to_here(&mut self, take: &ast::Take, to: &ast::Place, scope: Scope) {
        if !scope.here || !matches!(to.node, ast::PlaceKind::Here) {
            return;
        }
        let is_here =
            |s: &&ast::SetExpr| matches!(&s.node, ast::SetKind::Place(p) if matches!(p.node, ast::PlaceKind::Here));
        if take.from.is_empty() {
            self.error(
                "check::bad_context",
                "the pieces would stay in the pit they are taken from",
                to.span,
                "a take without `from` takes from `here`",
                Some("take them to another place, such as `to store(mover)`; to gather other pits into this one, name them: `take from opposite to here`".into()),
            );
        } else if let Some(from) = take.from.iter().flatten().find(is_here) {
            self.push(
                Diagnostic::error(
                    "check::bad_context",
                    "the pieces of `here` would stay where they are",
                    to.span,
                    "taken to `here`",
                )
                .with_related(from.span, "taken from `here`")
                .with_help("leave `here` out of `from` (`take from opposite to here`), or take to another place, such as `to store(mover)`"),
            );
        }
    }

    /// `take [NAME] { ... }`, a turn's action: the chosen pit is `here` in its condition and its place.
    pub(super) fn lower_take_action(&mut self, take: &ast::TakeAction) -> TakeAction {
        self.lower_take_action_in(take, Scope::default(), Scope::default().here())
    }

    /// A take of a chosen pit whose set knows what `set_scope` says, and whose condition and place what
    /// `pit_scope` says (`here` there is the chosen pit).
    fn lower_take_action_in(&mut self, take: &ast::TakeAction, set_scope: Scope, pit_scope: Scope) -> TakeAction {
        let kinds = take.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k, false));
        let from = self.set(&take.from, set_scope);
        let filter = take.filter.as_ref().map_or(Cond::True, |f| self.cond(f, pit_scope));
        let to = self.target_place(&take.to, pit_scope);
        if let Some(c) = take.count.as_ref().filter(|c| c.node == 0) {
            self.error("check::bad_range", "taking 0 pieces does nothing", c.span, "zero", None);
        }
        if matches!(to, PlaceExpr::Here) && matches!(take.to.node, ast::PlaceKind::Here) {
            self.error(
                "check::bad_context",
                "the pieces would stay in the pit they are taken from",
                take.to.span,
                "the chosen pit itself",
                Some("take them to another place: `to store(mover)`, `to behind(here)`".into()),
            );
        }
        if self.board_ok && self.set_is_off_board(&from) {
            self.error(
                "check::bad_context",
                "a take chooses a pit, and this set holds none",
                take.from.span,
                "no pit to choose",
                Some("take from pits: `from pits(opponent)`, a row or a region".into()),
            );
        }
        TakeAction { count: take.count.as_ref().map(|c| c.node), kinds, from, filter, to }
    }

    /// Whether a set names only places off the board (a store, `store(mover)`, every player's store).
    fn set_is_off_board(&self, s: &Set) -> bool {
        match s {
            Set::One(PlaceExpr::Fixed(id)) | Set::One(PlaceExpr::OfPlayer(id, _)) | Set::EveryPlayer(id) => {
                *id as usize >= self.n_pits
            }
            _ => false,
        }
    }

    pub(super) fn lower_put(&mut self, put: &ast::Put) -> Put {
        let kinds = put.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k, false));
        let from = match self.place(&put.from, Scope::default()) {
            Typed::Place(p) => p,
            other => {
                self.expect_place(&other, put.from.span);
                PlaceExpr::Fixed(0)
            }
        };
        let into = self.set(&put.into, Scope::default());
        if self.board_ok && self.set_is_off_board(&into) {
            self.error(
                "check::bad_context",
                "a put goes into pits, and this set holds none",
                put.into.span,
                "no pit to put into",
                Some("put into pits: `into pits`, `into pits(mover)`, a row or a region".into()),
            );
        }
        self.mark_filled_set(&into);
        let filter = put.filter.as_ref().map_or(Cond::True, |f| self.cond(f, Scope::default().here()));
        let (min_times, max_times) = match &put.times {
            Some(t) => (t.node.min, t.node.max),
            None => (1, Some(1)),
        };
        if let Some(t) = &put.times {
            if t.node.min == 0 || t.node.max.is_some_and(|m| m < t.node.min) {
                self.error(
                    "check::bad_range",
                    "this number of times cannot be met",
                    t.span,
                    "empty range",
                    Some("write `, 2 times`, `, 1.. times` or `, 1..3 times`".into()),
                );
            }
        }
        if put.count.node == 0 {
            self.error("check::bad_range", "putting 0 pieces does nothing", put.count.span, "zero", None);
        }
        let mut put = Put {
            count: put.count.node,
            kinds,
            from,
            into,
            filter,
            min_times: min_times.max(1),
            max_times,
            lookahead: false,
        };
        put.lookahead = put.can_get_stuck(self.n_pits);
        put
    }

    pub(super) fn lower_offer(&mut self, offer: &ast::Offer, span: Span) -> Offer {
        let scope = Scope { offered: true, ..Scope::default() };
        let from = self.set(&offer.from, Scope::default());
        let min = offer.size.node.min;
        let max = offer.size.node.max.unwrap_or(self.n_pits as u32);
        if min == 0 || max < min {
            self.error(
                "check::bad_range",
                "this offer size cannot be met",
                offer.size.span,
                "empty range",
                Some("write `choose 1..3 from pits(mover)`".into()),
            );
        }
        if self.players != 2 {
            self.error(
                "check::players_range",
                "offers are made between two players",
                span,
                "more than two players",
                Some("use `players 2` with `offer`".into()),
            );
        }
        let requires = offer.requires.iter().map(|r| self.cond(&r.node, scope)).collect();
        let mut on_accept = Vec::new();
        for effect in &offer.on_accept {
            match effect {
                ast::Effect::Take(t) => on_accept.push(Effect::Take(self.lower_take(&t.node, t.span, scope))),
                ast::Effect::Give(p) => on_accept.push(Effect::GiveOffered(self.player(&p.node, scope))),
            }
        }
        Offer {
            min: min.max(1),
            max: max.max(1),
            from,
            // More pits than any board has keeps every pit just as well, and cannot overflow a sum.
            keeping: offer.keeping.as_ref().map_or(0, |k| k.node.min(super::MAX_PITS as u32 + 1)),
            requires,
            on_accept,
        }
    }
}

/// A relay whose condition always holds goes on after every lap: it stops only where the last piece lands
/// off the pits, and elsewhere never ends, so the sowing is not allowed.
fn relay_always_warning(span: Span) -> Diagnostic {
    Diagnostic::warning("check::relay_always", "this relay condition always holds", span, "true after every lap")
        .with_help(format!(
            "the sowing relays again whatever the last pit holds, so it stops only when its last piece lands in a \
         store; otherwise it never ends (or passes {} laps) and the move is not allowed. Test what the last pit \
         held, as in `relay when before >= 2`",
            crate::engine::MAX_RELAY_LAPS
        ))
}

/// Where a capture's item is written.
fn capture_item_span(item: &ast::CaptureItem) -> Span {
    match item {
        ast::CaptureItem::Take(t) => t.span,
        ast::CaptureItem::Pick(t) => t.span,
        ast::CaptureItem::Chain(c) => c.span,
        ast::CaptureItem::Cancel(c) => c.span,
        ast::CaptureItem::Mark(m) => m.span,
        ast::CaptureItem::Unmark(u) => u.span,
        ast::CaptureItem::Give(g) => g.span,
        ast::CaptureItem::Sow(p) => p.span,
        ast::CaptureItem::ContinueAt(p) => p.span,
        ast::CaptureItem::Resow(r) => r.span,
    }
}

fn sow_item_key(item: &ast::SowItem) -> (&'static str, Span) {
    match item {
        ast::SowItem::Take(t) => ("take", t.span),
        ast::SowItem::From { span, .. } => ("from", *span),
        ast::SowItem::Direction(d) => ("direction", d.span),
        ast::SowItem::Order { span, .. } => ("order", *span),
        ast::SowItem::Skip(s) => ("skip", s.span),
        ast::SowItem::Relay(r) | ast::SowItem::RelayFromNext(r) => ("relay", r.span),
        ast::SowItem::Require(r) => ("require", r.span),
        ast::SowItem::Capture(c) => ("capture", c.span),
        ast::SowItem::Again(a) => ("again", a.span),
        ast::SowItem::Then(t) => ("then", t.span),
        ast::SowItem::ThenMark(t) => ("then mark", t.span),
        ast::SowItem::StartAt(s) => ("start", s.span),
        ast::SowItem::Divert(d) => ("divert", d.span),
        ast::SowItem::LapDirection(d) => ("direction", d.span),
        ast::SowItem::Mark(m) => ("mark", m.span),
        ast::SowItem::Unmark(u) => ("unmark", u.span),
        ast::SowItem::DirectionWhere(d) => ("direction", d.span),
        ast::SowItem::MustCapture(s) => ("must capture", *s),
        ast::SowItem::RelayMay { when, .. } => ("relay may", when.span),
        ast::SowItem::Lift(l) => ("lift", l.span),
    }
}

/// Where a sowing's own `mark` and `unmark` are made: as a lap is lifted, `here` and `origin` being the pit
/// it is lifted from.
const LIFTING: Scope = Scope {
    here: true,
    last: false,
    player: false,
    offered: false,
    lap: false,
    origin: true,
    way: false,
    threats: false,
};

fn lap_dir_of(word: ast::DirWord) -> Dir {
    match word {
        ast::DirWord::Cw => Dir::Cw,
        _ => Dir::Ccw,
    }
}
