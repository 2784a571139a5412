//! End rules: when the game ends, the sweeps, and the ply limit.

use crate::ast;
use crate::ir::*;

use super::{Lowerer, Scope};

impl<'g> Lowerer<'g> {
    pub(super) fn lower_end(&mut self, items: &[ast::EndItem]) -> EndRules {
        let mut end = EndRules::default();
        let (mut repetition, mut endless): (Option<ast::Span>, Option<ast::Span>) = (None, None);
        for item in items {
            if let Some(span) = repetition_span(item) {
                if repetition.is_some() {
                    self.one_repetition_rule(span);
                }
                repetition = Some(span);
            }
            if let Some(span) = endless_span(item) {
                if endless.is_some() {
                    self.one_endless_rule(span);
                }
                endless = Some(span);
            }
            let span = match item {
                ast::EndItem::When(w) => w.span,
                ast::EndItem::Draw(d) => d.span,
                ast::EndItem::Eliminate(e) => e.span,
                ast::EndItem::Sweep(s) => s.span,
                ast::EndItem::Limit(l) => l.span,
                ast::EndItem::Endless(s) | ast::EndItem::DrawRepetition(s) | ast::EndItem::CutEndless(s) => *s,
                ast::EndItem::DrawCond(c) => c.span,
            };
            match item {
                ast::EndItem::When(_)
                | ast::EndItem::Draw(_)
                | ast::EndItem::Eliminate(_)
                | ast::EndItem::Endless(_)
                | ast::EndItem::CutEndless(_)
                | ast::EndItem::DrawRepetition(_)
                | ast::EndItem::DrawCond(_) => {
                    self.note(RuleRef::End { phase: self.at_phase, index: end.items.len() as u8 }, span);
                    end.docs.resize(end.items.len(), None);
                    end.docs.push(self.doc(span));
                }
                ast::EndItem::Sweep(_) => {
                    self.note(RuleRef::Sweep { phase: self.at_phase, index: end.sweeps.len() as u8 }, span);
                    end.sweep_docs.resize(end.sweeps.len(), None);
                    end.sweep_docs.push(self.doc(span));
                }
                ast::EndItem::Limit(_) => {}
            }
            match item {
                ast::EndItem::When(w) => end.items.push(match &w.node {
                    // The end rules are looked at after each ply: `last` and `origin` are the last sowing's.
                    ast::EndWhen::Cond(c) => EndRule::When(self.cond(c, Scope { last: true, ..Scope::default() })),
                    ast::EndWhen::Repetition => {
                        self.needs.repetition = true;
                        EndRule::Repetition
                    }
                    // At the end of a lap `last` and `origin` are that lap's; after a ply, the last sowing's.
                    ast::EndWhen::AtEveryLap(c) => {
                        EndRule::AtEveryLap(self.cond(c, Scope { last: true, ..Scope::default() }))
                    }
                    ast::EndWhen::Stuck => EndRule::Stuck,
                    ast::EndWhen::NobodyCanMove => EndRule::NobodyCanMove,
                }),
                ast::EndItem::Draw(d) => {
                    self.needs.rounds = true;
                    end.items.push(EndRule::Draw {
                        count: d.node.count.node,
                        rounds: d.node.unit == ast::RoundUnit::Rounds,
                    });
                }
                ast::EndItem::Eliminate(e) => {
                    self.needs.elimination = true;
                    end.items.push(match &e.node {
                        ast::Eliminate::Cond(c) => EndRule::Eliminate(self.cond(c, Scope::default().player())),
                        ast::Eliminate::CannotMove => EndRule::EliminateStuck,
                        ast::Eliminate::Endless => EndRule::EliminateEndless,
                    });
                }
                ast::EndItem::Sweep(s) => {
                    let set = self.set(&s.node.set, Scope::default());
                    let to = self.target_place(&s.node.to, Scope::default().here());
                    self.refuse_to_here(
                        &s.node.to,
                        "the pieces would stay in the place they are swept from",
                        "the place swept itself",
                        "in a sweep's place, `here` is the place swept: sweep the pieces to another place, such as `to store(owner)` (the store of the pit's owner)",
                    );
                    end.sweeps.push((set, to));
                    if let Some(a) = s.node.after.as_ref().filter(|a| a.node == ast::Ending::Repetition) {
                        self.sweeps_after_repetition.push(a.span);
                    }
                    end.sweep_after.push(s.node.after.as_ref().map(|a| match a.node {
                        ast::Ending::Repetition => Ending::Repetition,
                        ast::Ending::Stuck => Ending::Stuck,
                        ast::Ending::Limit => Ending::Limit,
                    }));
                }
                // Looked at where `when CONDITION` is: `last` and `origin` are the last sowing's.
                ast::EndItem::DrawCond(c) => {
                    end.items.push(EndRule::DrawWhen(self.cond(&c.node, Scope { last: true, ..Scope::default() })))
                }
                ast::EndItem::Endless(_) => end.items.push(EndRule::Endless),
                ast::EndItem::CutEndless(_) => end.items.push(EndRule::CutEndless),
                ast::EndItem::DrawRepetition(_) => {
                    self.needs.repetition = true;
                    end.items.push(EndRule::DrawRepetition);
                }
                ast::EndItem::Limit(l) => {
                    if l.node == 0 {
                        self.error(
                            "check::bad_range",
                            "a limit of 0 plies ends the game before it starts",
                            l.span,
                            "zero",
                            None,
                        );
                    }
                    end.limit = Some(end.limit.map_or(l.node, |old: u32| old.min(l.node)));
                }
            }
        }
        end
    }
}

/// The span of a `when repetition` or `draw when repetition`.
fn repetition_span(item: &ast::EndItem) -> Option<ast::Span> {
    match item {
        ast::EndItem::When(w) if matches!(w.node, ast::EndWhen::Repetition) => Some(w.span),
        ast::EndItem::DrawRepetition(s) => Some(*s),
        _ => None,
    }
}

/// The span of a rule about never-ending moves, which decides how such a move ends.
fn endless_span(item: &ast::EndItem) -> Option<ast::Span> {
    match item {
        ast::EndItem::Eliminate(e) if matches!(e.node, ast::Eliminate::Endless) => Some(e.span),
        ast::EndItem::Endless(s) | ast::EndItem::CutEndless(s) => Some(*s),
        _ => None,
    }
}

/// Whether end rules say how a never-ending move ends.
pub(super) fn tests_endless(end: &EndRules) -> bool {
    end.items.iter().any(EndRule::is_endless)
}

/// Whether end rules test for a repeated position.
pub(super) fn tests_repetition(end: &EndRules) -> bool {
    end.items.iter().any(|r| matches!(r, EndRule::Repetition | EndRule::DrawRepetition))
}

impl<'g> Lowerer<'g> {
    /// A position is recorded as it is tested, so a second test of the same position would find it seen:
    /// one rule about repetitions is in force at a time.
    pub(super) fn one_repetition_rule(&mut self, span: ast::Span) {
        self.error(
            "check::duplicate",
            "a second rule about repeated positions",
            span,
            "another one is already in force",
            Some("keep one of `when repetition` and `draw when repetition`, in the phase or at the top level".into()),
        );
    }

    /// A never-ending move ends in one way: one rule about such moves is in force at a time.
    pub(super) fn one_endless_rule(&mut self, span: ast::Span) {
        self.error(
            "check::duplicate",
            "a second rule about never-ending moves",
            span,
            "another one is already in force",
            Some(
                "keep one of `draw when endless`, `eliminate when endless` and `cut when endless`, in the phase or at the top level"
                    .into(),
            ),
        );
    }
}
