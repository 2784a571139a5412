//! The canonical layout of a rule file (`mancala fmt`).
//!
//! The file is parsed by `syntax` and printed back from its AST, one rule a line, each block indented by
//! [`INDENT`] spaces. A rule longer than [`WIDTH`] wraps its conditions before an `and` or `or` (as many
//! operands a line as fit), the continuation lines indented [`CONTINUE`] spaces further; a parenthesized
//! part that does not fit on a line of its own wraps inside its parentheses. Strings, comments and `///`
//! sentences are never wrapped.
//!
//! What the AST does not keep comes from the text: the comments (`syntax::comments`), each put back before
//! the first rule that follows it (or at the end of its line, for a comment that ends a line of rules), the
//! blank lines an author left between two rules (one at most), and the parentheses written around a
//! condition or a number, which are kept even where the meaning does not need them. Every item that has a
//! block (`setup`, `turn`, `phase`, `end`, `rounds`, `variant`, `pieces { ... }`) is set apart from the items
//! around it by a blank line. The result parses to the same AST, spans aside, and formatting it again
//! changes nothing (`tests/fmt.rs`).

use crate::ast::*;
use crate::diag::Diagnostic;
use crate::syntax::{self, Comment};

/// The widest a line of rules gets before its conditions wrap.
pub const WIDTH: usize = 100;
/// Spaces per level of blocks.
pub const INDENT: usize = 2;
/// Further spaces for the continuation lines of a wrapped rule.
pub const CONTINUE: usize = 4;

/// The file in its canonical layout, or the syntax errors that keep it from being read.
pub fn format_source(source: &str) -> Result<String, Vec<Diagnostic>> {
    let file = syntax::parse(source)
        .map_err(|_| syntax::parse_recovering(source).errors.into_iter().map(Diagnostic::from).collect::<Vec<_>>())?;
    let comments = syntax::comments(source);
    let mut printer = Printer { src: source, comments: &comments, lines: Vec::new(), depth: 0 };
    printer.items(&file.items);
    Ok(layout(source, printer.lines, &comments))
}

// ---------------------------------------------------------------- documents

/// A rule as pieces of text with the places where it may break, rendered by [`render`]: the algorithm of
/// Wadler's "prettier printer", with Prettier's `fill` for chains of `and` and `or`.
#[derive(Debug, Clone)]
enum Doc {
    /// Text, and where it starts in the source (for the comments put back before or after it).
    Text(String, Option<usize>),
    /// A space, or a line break at the current indentation.
    Line,
    Concat(Vec<Doc>),
    /// Flat if it all fits on the line, else its own `Line`s break.
    Group(Vec<Doc>),
    /// Its lines break [`CONTINUE`] spaces further in.
    Indent(Box<Doc>),
    /// Parts separated by `Line`s: each `Line` breaks only where the next part does not fit.
    Fill(Vec<Doc>),
}

fn text(s: impl Into<String>) -> Doc {
    Doc::Text(s.into(), None)
}

fn text_at(s: impl Into<String>, at: usize) -> Doc {
    Doc::Text(s.into(), Some(at))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Flat,
    Break,
}

#[derive(Debug, Clone, Copy)]
enum Cmd<'a> {
    Doc(&'a Doc),
    /// The rest of a `Fill`.
    Fill(&'a [Doc]),
}

type Frame<'a> = (usize, Mode, Cmd<'a>);

/// One line of a rendered rule: its indentation, its text, and where its first piece starts in the source.
#[derive(Debug, Clone)]
struct Rendered {
    indent: usize,
    text: String,
    src: Option<usize>,
}

/// A document on one line, as a term that holds a condition (`size(SET where CONDITION)`) prints it.
fn flat(doc: &Doc, out: &mut String) {
    match doc {
        Doc::Text(s, _) => out.push_str(s),
        Doc::Line => out.push(' '),
        Doc::Concat(ds) | Doc::Group(ds) | Doc::Fill(ds) => ds.iter().for_each(|d| flat(d, out)),
        Doc::Indent(d) => flat(d, out),
    }
}

fn width_of(s: &str) -> usize {
    s.chars().count()
}

/// Lays a document out at `indent`, breaking it where it does not fit in [`WIDTH`].
fn render(doc: &Doc, indent: usize) -> Vec<Rendered> {
    let mut out = vec![Rendered { indent, text: String::new(), src: None }];
    let mut stack: Vec<Frame> = vec![(indent, Mode::Break, Cmd::Doc(doc))];
    while let Some((ind, mode, cmd)) = stack.pop() {
        let line = out.last().map_or(0, |l| l.indent + width_of(&l.text));
        let room = WIDTH as isize - line as isize;
        match cmd {
            Cmd::Doc(Doc::Text(s, src)) => {
                if let Some(last) = out.last_mut() {
                    last.src = last.src.or(*src);
                    last.text.push_str(s);
                }
            }
            Cmd::Doc(Doc::Line) if mode == Mode::Flat => {
                if let Some(last) = out.last_mut() {
                    last.text.push(' ');
                }
            }
            Cmd::Doc(Doc::Line) => out.push(Rendered { indent: ind, text: String::new(), src: None }),
            Cmd::Doc(Doc::Concat(ds)) => stack.extend(ds.iter().rev().map(|d| (ind, mode, Cmd::Doc(d)))),
            Cmd::Doc(Doc::Indent(d)) => stack.push((ind + CONTINUE, mode, Cmd::Doc(d))),
            Cmd::Doc(Doc::Group(ds)) => {
                let flat = mode == Mode::Flat || fits(&[(ind, Mode::Flat, cmd)], &stack, room);
                let mode = if flat { Mode::Flat } else { Mode::Break };
                stack.extend(ds.iter().rev().map(|d| (ind, mode, Cmd::Doc(d))));
            }
            Cmd::Doc(Doc::Fill(ds)) => stack.push((ind, mode, Cmd::Fill(ds))),
            Cmd::Fill(ds) if mode == Mode::Flat => stack.extend(ds.iter().rev().map(|d| (ind, mode, Cmd::Doc(d)))),
            Cmd::Fill(ds) => fill_step(ds, ind, room, &mut stack),
        }
    }
    out
}

/// The next part of a `Fill` in break mode: the part flat if it fits, and the `Line` after it broken
/// unless the part after that fits too. The last part counts what follows the fill on its line.
fn fill_step<'a>(ds: &'a [Doc], ind: usize, room: isize, stack: &mut Vec<Frame<'a>>) {
    let Some(content) = ds.first() else { return };
    let mode_if = |fit: bool| if fit { Mode::Flat } else { Mode::Break };
    if ds.len() < 3 {
        let fit = fits(&[(ind, Mode::Flat, Cmd::Doc(content))], stack, room);
        return stack.push((ind, mode_if(fit), Cmd::Doc(content)));
    }
    let (sep, second) = (&ds[1], &ds[2]);
    let content_fits = fits(&[(ind, Mode::Flat, Cmd::Doc(content))], &[], room);
    let pair =
        [(ind, Mode::Flat, Cmd::Doc(second)), (ind, Mode::Flat, Cmd::Doc(sep)), (ind, Mode::Flat, Cmd::Doc(content))];
    let rest: &[Frame] = if ds.len() == 3 { stack } else { &[] };
    let pair_fits = fits(&pair, rest, room);
    stack.push((ind, Mode::Break, Cmd::Fill(&ds[2..])));
    stack.push((ind, mode_if(pair_fits), Cmd::Doc(sep)));
    stack.push((ind, mode_if(content_fits), Cmd::Doc(content)));
}

/// Whether `next` (flat), then what follows it on the stack `rest` up to its next line break, fits in `room`.
fn fits(next: &[Frame], rest: &[Frame], mut room: isize) -> bool {
    let mut stack: Vec<Frame> = next.to_vec();
    let mut rest_at = rest.len();
    loop {
        if room < 0 {
            return false;
        }
        let (ind, mode, cmd) = match stack.pop() {
            Some(frame) => frame,
            None if rest_at == 0 => return true,
            None => {
                rest_at -= 1;
                rest[rest_at]
            }
        };
        match cmd {
            Cmd::Doc(Doc::Text(s, _)) => room -= width_of(s) as isize,
            Cmd::Doc(Doc::Line) if mode == Mode::Break => return true,
            Cmd::Doc(Doc::Line) => room -= 1,
            Cmd::Doc(Doc::Concat(ds)) | Cmd::Doc(Doc::Fill(ds)) => {
                stack.extend(ds.iter().rev().map(|d| (ind, mode, Cmd::Doc(d))))
            }
            Cmd::Fill(ds) => stack.extend(ds.iter().rev().map(|d| (ind, mode, Cmd::Doc(d)))),
            Cmd::Doc(Doc::Group(ds)) => stack.extend(ds.iter().rev().map(|d| (ind, Mode::Flat, Cmd::Doc(d)))),
            Cmd::Doc(Doc::Indent(d)) => stack.push((ind, mode, Cmd::Doc(d))),
        }
    }
}

// ---------------------------------------------------------------- lines

/// Whether a blank line may go before a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Blank {
    /// Never (a continuation line, a closing brace).
    Never,
    /// Where the author left one.
    Keep,
    /// Always: an item with a block, or the item after one.
    Force,
}

/// A line of the formatted file before the comments are put back.
#[derive(Debug, Clone)]
struct Line {
    indent: usize,
    text: String,
    /// Where the line's rule (or its part on this line) starts in the source.
    src: usize,
    blank: Blank,
    /// A closing brace: a comment just before it belongs inside its block, a level further in.
    closing: bool,
}

struct Printer<'a> {
    src: &'a str,
    comments: &'a [Comment],
    lines: Vec<Line>,
    depth: usize,
}

impl Printer<'_> {
    /// A rule of one or more lines, at the current depth.
    fn rule(&mut self, doc: Doc, src: usize, blank: Blank) {
        let before = self.lines.last().map_or(0, |l| l.src);
        for (i, r) in render(&Doc::Group(vec![doc]), self.depth * INDENT).into_iter().enumerate() {
            let src = if i == 0 { src } else { r.src.unwrap_or(before).max(src) };
            let blank = if i == 0 { blank } else { Blank::Never };
            self.lines.push(Line { indent: r.indent, text: r.text, src, blank, closing: false });
        }
    }

    /// A block: its header line (which `head` ends before ` {`), its body, and its closing brace at
    /// `span`'s end. A block with nothing in it, comments included, is `{}` on the header's line.
    fn block(&mut self, head: Doc, span: Span, blank: Blank, empty: bool, body: impl FnOnce(&mut Self)) {
        let close = span.end.saturating_sub(1);
        let commented = self.comments.iter().any(|c| c.span.start > span.start && c.span.start < close);
        if empty && !commented {
            return self.rule(Doc::Concat(vec![head, text(" {}")]), span.start, blank);
        }
        self.rule(Doc::Concat(vec![head, text(" {")]), span.start, blank);
        self.depth += 1;
        body(self);
        self.depth -= 1;
        self.close(close);
    }

    fn close(&mut self, at: usize) {
        let indent = self.depth * INDENT;
        self.lines.push(Line { indent, text: "}".into(), src: at, blank: Blank::Never, closing: true });
    }

    /// Where the next token after `pos` starts: past spaces and comments.
    fn next_token(&self, mut pos: usize) -> usize {
        loop {
            let rest = &self.src[pos..];
            let trimmed = rest.trim_start();
            pos += rest.len() - trimmed.len();
            match self.comments.iter().find(|c| c.span.start == pos) {
                Some(c) => pos = c.span.end,
                None => return pos,
            }
        }
    }

    /// Whether the text has parentheses right around `span`.
    fn parenthesized(&self, span: Span) -> bool {
        self.src[..span.start].trim_end().ends_with('(') && self.src[span.end..].trim_start().starts_with(')')
    }

    // ------------------------------------------------------------ items

    fn items(&mut self, items: &[Item]) {
        let mut after_block = false;
        for item in items {
            let block = has_block(item);
            let blank = if block || after_block { Blank::Force } else { Blank::Keep };
            self.item(item, blank);
            after_block = block;
        }
    }

    fn item(&mut self, item: &Item, blank: Blank) {
        match item {
            Item::Game(name) => self.rule(text(format!("game {}", quoted(&name.node))), name.span.start, blank),
            Item::About(about) => self.rule(text(format!("about {}", quoted(&about.node))), about.span.start, blank),
            Item::Players(p) => self.rule(text(players(&p.node)), p.span.start, blank),
            Item::Board(b) => self.rule(text(board(&b.node)), b.span.start, blank),
            Item::Place(p) => {
                let owner = if p.node.per_player { "per player" } else { "shared" };
                self.rule(text(format!("place {} {owner}", p.node.name.node)), p.span.start, blank)
            }
            Item::Pieces(p) => self.pieces(p, blank),
            Item::Setup(s) => self.block(text("setup"), s.span, blank, s.node.is_empty(), |me| {
                for line in &s.node {
                    me.rule(text(setup_line(line)), line.span.start, Blank::Keep);
                }
            }),
            Item::Phase(p) => {
                let head = match &p.node.name {
                    Some(name) => format!("phase {}", name.node),
                    None => "turn".into(),
                };
                self.block(text(head), p.span, blank, p.node.items.is_empty(), |me| {
                    for it in &p.node.items {
                        me.phase_item(it);
                    }
                })
            }
            Item::End(e) => self.end(e, blank),
            Item::Score(t) => self.rule(Doc::Concat(vec![text("score "), self.term(t)]), t.span.start, blank),
            Item::Winner(w) => {
                let ties = match w.node {
                    TieRule::Draw => "draw",
                    TieRule::Shared => "shared",
                    TieRule::LastMover => "last mover",
                };
                self.rule(text(format!("winner most score, ties {ties}")), w.span.start, blank)
            }
            Item::Goal(c) => self.rule(self.keyword_cond("goal ", c), c.span.start, blank),
            Item::Variant(v) => {
                let mut head = format!("variant {}", quoted(&v.node.name.node));
                if let Some(base) = &v.node.extends {
                    head.push_str(&format!(" extends {}", quoted(&base.node)));
                }
                self.block(text(head), v.span, blank, v.node.items.is_empty(), |me| me.items(&v.node.items))
            }
            Item::Region(r) => {
                let per = if r.node.per_player { " per player" } else { "" };
                let labels = r.node.labels.iter().map(|l| l.node.as_str()).collect::<Vec<_>>().join(", ");
                self.rule(text(format!("region {}{per}: {labels}", r.node.name.node)), r.span.start, blank)
            }
            Item::Mark(m) => self.rule(text(mark_decl(&m.node)), m.span.start, blank),
            Item::Rounds(r) => self.block(text("rounds"), r.span, blank, r.node.is_empty(), |me| {
                for it in &r.node {
                    me.rounds_item(it);
                }
            }),
        }
    }

    fn pieces(&mut self, p: &Spanned<Pieces>, blank: Blank) {
        let (head, kinds) = match &p.node {
            Pieces::Seeds => return self.rule(text("pieces seeds"), p.span.start, blank),
            Pieces::PerPlayer(kinds) => ("pieces per player", kinds),
            Pieces::Kinds(kinds) => ("pieces", kinds),
        };
        self.block(text(head), p.span, blank, kinds.is_empty(), |me| {
            for k in kinds {
                let value = k.value.as_ref().map_or(String::new(), |v| format!(" value {}", v.node));
                me.rule(text(format!("{} {}{value}", k.name.node, quoted(&k.symbol.node))), k.span.start, Blank::Keep);
            }
        })
    }

    fn end(&mut self, e: &Spanned<Vec<EndItem>>, blank: Blank) {
        self.block(text("end"), e.span, blank, e.node.is_empty(), |me| {
            for it in &e.node {
                me.end_item(it);
            }
        })
    }

    fn rounds_item(&mut self, item: &RoundsItem) {
        match item {
            RoundsItem::Refill(r) => {
                let f = &r.node;
                let mut s = format!("refill {} from {} with {}", set(&f.set), place(&f.from), f.count.node);
                if let Some((lacking, from)) = &f.borrow {
                    s.push_str(&format!(" borrow {} from {}", lacking.node, place(from)));
                }
                if f.backward {
                    s.push_str(" backward");
                }
                if let Some(c) = &f.claim {
                    s.push_str(&format!(" claim from {}", place(c)));
                }
                if let Some(m) = &f.mark {
                    s.push_str(&format!(" else mark {}", m.node));
                }
                self.rule(text(s), r.span.start, Blank::Keep)
            }
            RoundsItem::First(f) => {
                let word = match f.node {
                    FirstRule::Winner => "winner",
                    FirstRule::Loser => "loser",
                    FirstRule::Alternate => "alternate",
                };
                self.rule(text(format!("first {word}")), f.span.start, Blank::Keep)
            }
            RoundsItem::MatchWhen(c) => self.rule(self.keyword_cond("match when ", c), c.span.start, Blank::Keep),
            RoundsItem::Limit(n) => self.rule(text(format!("limit {} rounds", n.node)), n.span.start, Blank::Keep),
        }
    }

    fn end_item(&mut self, item: &EndItem) {
        let keep = Blank::Keep;
        match item {
            EndItem::When(w) => match &w.node {
                EndWhen::Cond(c) => self.rule(self.keyword_cond("when ", c), w.span.start, keep),
                EndWhen::AtEveryLap(c) => {
                    let doc = Doc::Concat(vec![self.keyword_cond("when ", c), text(" at every lap")]);
                    self.rule(doc, w.span.start, keep)
                }
                EndWhen::Repetition => self.rule(text("when repetition"), w.span.start, keep),
                EndWhen::Stuck => self.rule(text("when stuck"), w.span.start, keep),
                EndWhen::NobodyCanMove => self.rule(text("when nobody can move"), w.span.start, keep),
            },
            EndItem::Draw(d) => {
                let unit = match d.node.unit {
                    RoundUnit::Rounds => "rounds",
                    RoundUnit::Turns => "turns",
                };
                self.rule(text(format!("draw when no capture for {} {unit}", d.node.count.node)), d.span.start, keep)
            }
            EndItem::Eliminate(e) => match &e.node {
                Eliminate::Cond(c) => self.rule(self.keyword_cond("eliminate when ", c), e.span.start, keep),
                Eliminate::CannotMove => self.rule(text("eliminate when cannot move"), e.span.start, keep),
                Eliminate::Endless => self.rule(text("eliminate when endless"), e.span.start, keep),
            },
            EndItem::Sweep(s) => {
                let after = match s.node.after.as_ref().map(|a| a.node) {
                    None => "",
                    Some(Ending::Repetition) => " after repetition",
                    Some(Ending::Stuck) => " after stuck",
                    Some(Ending::Limit) => " after limit",
                };
                let line = format!("sweep {} to {}{after}", set(&s.node.set), place(&s.node.to));
                self.rule(text(line), s.span.start, keep)
            }
            EndItem::Limit(n) => self.rule(text(format!("limit {} plies", n.node)), n.span.start, keep),
            EndItem::Endless(span) => self.rule(text("draw when endless"), span.start, keep),
            EndItem::DrawRepetition(span) => self.rule(text("draw when repetition"), span.start, keep),
            EndItem::DrawCond(c) => self.rule(self.keyword_cond("draw when ", &c.node), c.span.start, keep),
            EndItem::CutEndless(span) => self.rule(text("cut when endless"), span.start, keep),
        }
    }

    // ------------------------------------------------------------ phases and actions

    fn phase_item(&mut self, item: &PhaseItem) {
        let keep = Blank::Keep;
        match item {
            PhaseItem::Sow(s) => {
                let head = match &s.node.name {
                    Some(n) => format!("sow {}", n.node),
                    None => "sow".into(),
                };
                self.block(text(head), s.span, keep, s.node.items.is_empty(), |me| {
                    for it in &s.node.items {
                        me.sow_item(it);
                    }
                })
            }
            PhaseItem::Put(p) => self.rule(self.put(&p.node), p.span.start, keep),
            PhaseItem::Take(t) => self.rule(self.take_action(&t.node), t.span.start, keep),
            PhaseItem::Offer(o) => self.offer(o),
            PhaseItem::Pass(p) => {
                let names: Vec<&str> = p.node.actions().map(|a| a.node.as_str()).collect();
                let what = if names.is_empty() { "move".to_string() } else { names.join(", ") };
                self.rule(text(format!("pass when cannot {what}")), p.span.start, keep)
            }
            PhaseItem::Must(m) => {
                let otherwise = match m.node.otherwise {
                    MustElse::End => " else end",
                    MustElse::Any => " else any",
                };
                let rest = Doc::Concat(vec![
                    self.cond_fill(&m.node.after),
                    Doc::Line,
                    text("when "),
                    self.cond_fill(&m.node.when),
                    text(otherwise),
                ]);
                self.rule(Doc::Concat(vec![text("must "), Doc::Indent(Box::new(rest))]), m.span.start, keep)
            }
            PhaseItem::Until(c) => self.rule(self.keyword_cond("until ", c), c.span.start, keep),
            PhaseItem::End(e) => self.end(e, keep),
            PhaseItem::Again(c) => self.rule(self.keyword_cond("again when ", &c.node), c.span.start, keep),
            PhaseItem::Prefer(p) => {
                let names = p.node.iter().map(|n| n.node.as_str()).collect::<Vec<_>>().join(", ");
                self.rule(text(format!("prefer {names}")), p.span.start, keep)
            }
        }
    }

    fn put(&self, p: &Put) -> Doc {
        let mut head = String::from("put ");
        if let Some(n) = &p.name {
            head.push_str(&format!("{} ", n.node));
        }
        head.push_str(&format!(
            "{{ {}{} from {} into {}",
            p.count.node,
            kind_suffix(&p.kind),
            place(&p.from),
            set(&p.into)
        ));
        let mut parts = vec![text(head)];
        if let Some(f) = &p.filter {
            parts.push(text(" where "));
            parts.push(Doc::Indent(Box::new(self.cond_fill(f))));
        }
        if let Some(t) = &p.times {
            parts.push(text(format!(", {} times", range(t.node))));
        }
        parts.push(text(" }"));
        Doc::Concat(parts)
    }

    fn take_action(&self, t: &TakeAction) -> Doc {
        let mut head = String::from("take ");
        if let Some(n) = &t.name {
            head.push_str(&format!("{} ", n.node));
        }
        let count = t.count.as_ref().map_or(String::new(), |c| format!("{} ", c.node));
        let kind = t.kind.as_ref().map_or(String::new(), |k| format!("{} ", kind_sel(&k.node)));
        head.push_str(&format!("{{ {count}{kind}from {}", set(&t.from)));
        let mut parts = vec![text(head)];
        if let Some(f) = &t.filter {
            parts.push(text(" where "));
            parts.push(Doc::Indent(Box::new(self.cond_fill(f))));
        }
        parts.push(text(format!(" to {} }}", place(&t.to))));
        Doc::Concat(parts)
    }

    fn offer(&mut self, o: &Spanned<Offer>) {
        let offer = &o.node;
        let head = match &offer.name {
            Some(n) => format!("offer {}", n.node),
            None => "offer".into(),
        };
        self.block(text(head), o.span, Blank::Keep, false, |me| {
            let keeping = offer.keeping.as_ref().map_or(String::new(), |k| format!(", keeping {}", k.node));
            let choose = format!("choose {} from {}{keeping}", range(offer.size.node), set(&offer.from));
            me.rule(text(choose), offer.size.span.start, Blank::Keep);
            let mut end = offer.size.span.end;
            for r in &offer.requires {
                me.rule(me.keyword_cond("require ", &r.node), r.span.start, Blank::Keep);
                end = r.span.end;
            }
            let on = me.next_token(end);
            me.block(text("on accept"), Span::new(on, me.on_accept_end(offer, on)), Blank::Keep, false, |me| {
                for e in &offer.on_accept {
                    match e {
                        Effect::Take(t) => {
                            let line = take(&t.node, t.node.filter.as_ref().map(|c| me.flat_cond(c)));
                            me.rule(text(line), t.span.start, Blank::Keep)
                        }
                        Effect::Give(p) => me.rule(
                            text(format!("give offered to {}", player(&p.node.node))),
                            p.span.start,
                            Blank::Keep,
                        ),
                    }
                }
            });
        })
    }

    /// Where the `on accept { ... }` block that starts at `on` ends: just past its closing brace.
    fn on_accept_end(&self, offer: &Offer, on: usize) -> usize {
        let last = offer.on_accept.last().map(|e| match e {
            Effect::Take(t) => t.span.end,
            Effect::Give(p) => p.span.end,
        });
        // Without effects, the brace after `on accept {`.
        let after = last.unwrap_or_else(|| self.src[on..].find('{').map_or(on, |i| on + i + 1));
        self.next_token(after) + 1
    }

    fn sow_item(&mut self, item: &SowItem) {
        let keep = Blank::Keep;
        match item {
            SowItem::From { set: s, filter, span, alternatives } => {
                let mut rest = Vec::new();
                let mut first = vec![text_at(format!("from {}", set(s)), span.start)];
                if let Some(f) = filter {
                    first.push(text(" where "));
                    rest.push(self.cond_fill(f));
                }
                for (alt, f) in alternatives {
                    rest.push(Doc::Line);
                    rest.push(text_at(format!("else {}", set(alt)), alt.span.start));
                    if let Some(f) = f {
                        rest.push(text(" where "));
                        rest.push(self.cond_fill(f));
                    }
                }
                first.push(Doc::Indent(Box::new(Doc::Concat(rest))));
                self.rule(Doc::Concat(first), span.start, keep)
            }
            SowItem::Direction(d) => self.rule(text(format!("direction {}", dir_word(d.node))), d.span.start, keep),
            SowItem::Order { last_own, span } => {
                let s = if *last_own { "order choose last own" } else { "order choose" };
                self.rule(text(s), span.start, keep)
            }
            SowItem::Skip(s) => {
                let what = match &s.node {
                    SkipTarget::Origin => "origin".to_string(),
                    SkipTarget::Place(p) => place(p),
                    SkipTarget::Where { set: s, cond, except_last } => {
                        let except = if *except_last { " except last" } else { "" };
                        format!("{} where {}{except}", set(s), self.flat_cond(cond))
                    }
                };
                self.rule(text(format!("skip {what}")), s.span.start, keep)
            }
            SowItem::Relay(c) => self.rule(self.keyword_cond("relay when ", &c.node), c.span.start, keep),
            SowItem::RelayFromNext(c) => {
                self.rule(self.keyword_cond("relay from next when ", &c.node), c.span.start, keep)
            }
            SowItem::RelayMay { when, answers } => {
                let head = format!("relay may{} when ", answers_text(answers.as_ref()));
                self.rule(self.keyword_cond(&head, &when.node), when.span.start, keep)
            }
            SowItem::Lift(l) => {
                let mut head = format!("lift {}", l.node.count.node);
                if let Some(from) = &l.node.from {
                    head.push_str(&format!(" from {}", place(from)));
                }
                let doc = match &l.node.when {
                    Some(c) => self.keyword_cond(&format!("{head} when "), c),
                    None => text(head),
                };
                self.rule(doc, l.span.start, keep)
            }
            SowItem::Take(t) => self.rule(self.take_action(&t.node), t.span.start, keep),
            SowItem::Require(c) => self.rule(self.keyword_cond("require ", &c.node), c.span.start, keep),
            SowItem::Capture(c) => self.capture(c),
            SowItem::Again(c) => self.rule(self.keyword_cond("again when ", &c.node), c.span.start, keep),
            SowItem::Then(t) => {
                let th = &t.node;
                let word = if th.must { "must" } else { "may" };
                let head = format!("then {word} take{} from {}", kind_suffix(&th.kind), set(&th.set));
                let to = text(format!(" to {}", place(&th.to)));
                let doc = match &th.filter {
                    Some(f) => Doc::Concat(vec![self.keyword_cond(&format!("{head} where "), f), to]),
                    None => Doc::Concat(vec![text(head), to]),
                };
                self.rule(doc, t.span.start, keep)
            }
            SowItem::ThenMark(t) => {
                let m = &t.node;
                let head = format!("then mark {} as {}{}", set(&m.set), m.mark.node, player_suffix(&m.player));
                let doc = match &m.filter {
                    Some(f) => self.keyword_cond(&format!("{head} where "), f),
                    None => text(head),
                };
                self.rule(doc, t.span.start, keep)
            }
            SowItem::StartAt(s) => {
                let doc = match &s.node {
                    Some(c) => self.keyword_cond("start at origin when ", c),
                    None => text("start at origin"),
                };
                self.rule(doc, s.span.start, keep)
            }
            SowItem::Divert(d) => {
                self.rule(text(format!("divert {} to {}", d.node.mark.node, place(&d.node.to))), d.span.start, keep)
            }
            SowItem::LapDirection(l) => {
                let head = format!("direction {} or {} when ", dir_word(l.node.usual), dir_word(l.node.other));
                self.rule(self.keyword_cond(&head, &l.node.when), l.span.start, keep)
            }
            SowItem::Mark(m) => self.rule(text(mark_action(&m.node)), m.span.start, keep),
            SowItem::Unmark(u) => self.rule(text(unmark(&u.node)), u.span.start, keep),
            SowItem::DirectionWhere(d) => {
                let head = format!("direction {} where ", dir_word(d.node.0));
                self.rule(self.keyword_cond(&head, &d.node.1), d.span.start, keep)
            }
            SowItem::MustCapture(span) => self.rule(text("must capture"), span.start, keep),
        }
    }

    fn capture(&mut self, c: &Spanned<Capture>) {
        let cap = &c.node;
        let mut head = String::from(if cap.by_opponent { "opponent" } else { "capture" });
        if cap.every_lift {
            head.push_str(" at every lift");
        }
        if cap.every_drop {
            head.push_str(" at every drop");
        }
        if cap.may {
            head.push_str(" may");
            head.push_str(&answers_text(cap.answers.as_ref()));
        }
        let head = match &cap.when {
            Some(w) => self.keyword_cond(&format!("{head} when "), w),
            None => text(head),
        };
        self.block(head, c.span, Blank::Keep, cap.items.is_empty(), |me| {
            for it in &cap.items {
                me.capture_item(it);
            }
        })
    }

    fn capture_item(&mut self, item: &CaptureItem) {
        let keep = Blank::Keep;
        match item {
            CaptureItem::Take(t) => {
                let line = take(&t.node, t.node.filter.as_ref().map(|c| self.flat_cond(c)));
                self.rule(text(line), t.span.start, keep)
            }
            CaptureItem::Pick(t) => self.rule(self.take_action(&t.node), t.span.start, keep),
            CaptureItem::Chain(ch) => {
                let dir = match ch.node.dir {
                    ChainDir::Backward => "backward",
                    ChainDir::Forward => "forward",
                    ChainDir::Both => "both",
                };
                let doc = match &ch.node.while_ {
                    Some(w) => self.keyword_cond(&format!("chain {dir} while "), w),
                    None => text(format!("chain {dir}")),
                };
                self.rule(doc, ch.span.start, keep)
            }
            CaptureItem::Cancel(w) => self.rule(self.keyword_cond("cancel when ", &w.node), w.span.start, keep),
            CaptureItem::Mark(m) => self.rule(text(mark_action(&m.node)), m.span.start, keep),
            CaptureItem::Unmark(u) => self.rule(text(unmark(&u.node)), u.span.start, keep),
            CaptureItem::Give(g) => self.rule(
                text(format!("give {} to {}", place(&g.node.place), player(&g.node.to.node))),
                g.span.start,
                keep,
            ),
            CaptureItem::Sow(p) => self.rule(text(format!("sow from {}", place(&p.node))), p.span.start, keep),
            CaptureItem::ContinueAt(p) => {
                self.rule(text(format!("continue at {}", place(&p.node))), p.span.start, keep)
            }
            CaptureItem::Resow(r) => {
                let word = if r.node.into { "into" } else { "from" };
                let dir = r.node.dir.map_or(String::new(), |d| format!(" {}", dir_word(d)));
                self.rule(text(format!("sow {word} {}{dir}", place(&r.node.place))), r.span.start, keep)
            }
        }
    }

    // ------------------------------------------------------------ conditions

    /// `KEYWORDS CONDITION`, the condition wrapping onto continuation lines.
    fn keyword_cond(&self, head: &str, c: &Cond) -> Doc {
        Doc::Concat(vec![text(head), Doc::Indent(Box::new(self.cond_fill(c)))])
    }

    /// A condition as a chain that wraps before its `and`s or `or`s.
    fn cond_fill(&self, c: &Cond) -> Doc {
        self.cond(c, Within::Top, None)
    }

    /// A condition on one line, for the rules that hold one inside a term or a take.
    fn flat_cond(&self, c: &Cond) -> String {
        let mut out = String::new();
        flat(&self.cond(c, Within::Top, None), &mut out);
        out
    }

    /// A condition where it stands (`within`); `parent` is the span of the condition it is part of.
    fn cond(&self, c: &Cond, within: Within, parent: Option<Span>) -> Doc {
        let written = within != Within::Body && parent != Some(c.span) && self.parenthesized(c.span);
        let needed = matches!(
            (&c.node, within),
            (CondKind::Or(_), Within::Or | Within::And | Within::Not) | (CondKind::And(_), Within::And | Within::Not)
        );
        let doc = match &c.node {
            CondKind::Or(parts) => self.chain(parts, "or ", Within::Or, c.span),
            CondKind::And(parts) => self.chain(parts, "and ", Within::And, c.span),
            CondKind::Not(inner) => Doc::Concat(vec![text("not "), self.cond(inner, Within::Not, Some(c.span))]),
            CondKind::Quant { quant, domain, body } => {
                let q = match quant {
                    Quant::All => "all",
                    Quant::Any => "any",
                    Quant::No => "no",
                };
                let d = match domain {
                    Domain::Players => "players".to_string(),
                    Domain::Set(s) => set(s),
                };
                Doc::Concat(vec![
                    text(format!("{q} {d}(")),
                    Doc::Indent(Box::new(self.cond(body, Within::Body, Some(c.span)))),
                    text(")"),
                ])
            }
            CondKind::InInts { term, ints } => {
                let ints = ints.iter().map(u32::to_string).collect::<Vec<_>>().join(", ");
                Doc::Concat(vec![self.term(term), text(format!(" in {{{ints}}}"))])
            }
            CondKind::InSet { term, set: s } => Doc::Concat(vec![self.term(term), text(format!(" in {}", set(s)))]),
            CondKind::Cmp { lhs, op, rhs } => {
                Doc::Concat(vec![self.term(lhs), text(format!(" {} ", cmp_op(*op))), self.term(rhs)])
            }
            CondKind::Capturing => text("capturing"),
            CondKind::Direction { dir, eq } => {
                text(format!("direction {} {}", if *eq { "=" } else { "!=" }, dir_word(*dir)))
            }
        };
        let doc = Doc::Concat(vec![Doc::Text(String::new(), Some(c.span.start)), doc]);
        if written || needed {
            Doc::Concat(vec![text("("), Doc::Indent(Box::new(doc)), text(")")])
        } else {
            doc
        }
    }

    /// `a and b and c`: the operands filled onto lines, each line after the first starting with the word.
    fn chain(&self, parts: &[Cond], word: &str, within: Within, span: Span) -> Doc {
        let mut items = Vec::new();
        for (i, p) in parts.iter().enumerate() {
            let operand = self.cond(p, within, Some(span));
            if i == 0 {
                items.push(operand);
            } else {
                items.push(Doc::Line);
                items.push(Doc::Concat(vec![text(word), operand]));
            }
        }
        Doc::Fill(items)
    }

    // ------------------------------------------------------------ terms

    fn term(&self, t: &Term) -> Doc {
        text(self.term_text(t, None))
    }

    /// A term as text; `parent` is the span of the term it is an operand of.
    fn term_text(&self, t: &Term, parent: Option<Span>) -> String {
        let s = match &t.node {
            TermKind::Int(n) => n.to_string(),
            TermKind::Add(parts) => self.operands(parts, " + ", t.span, |i, p| match p {
                TermKind::Add(_) => true,
                TermKind::Sub(..) => i > 0,
                _ => false,
            }),
            TermKind::Mul(parts) => self.operands(parts, " * ", t.span, |i, p| match p {
                TermKind::Add(_) | TermKind::Sub(..) | TermKind::Mul(_) => true,
                TermKind::Div(..) | TermKind::Rem(..) => i > 0,
                _ => false,
            }),
            TermKind::Sub(a, b) => self.binary(
                a,
                " - ",
                b,
                t.span,
                |p| matches!(p, TermKind::Add(_) | TermKind::Sub(..)),
                is_sum_or_product,
            ),
            TermKind::Div(a, b) => self.binary(a, " / ", b, t.span, is_sum, is_sum_or_product),
            TermKind::Rem(a, b) => self.binary(a, " % ", b, t.span, is_sum, is_sum_or_product),
            TermKind::Count { arg, kind } => {
                let mut args = Vec::new();
                match arg {
                    Some(CountArg::Set(s)) => args.push(set(s)),
                    Some(CountArg::Kind(k)) => args.push(kind_sel(&k.node)),
                    None => {}
                }
                if let Some(k) = kind {
                    args.push(kind_sel(&k.node));
                }
                if args.is_empty() {
                    "count".into()
                } else {
                    format!("count({})", args.join(", "))
                }
            }
            TermKind::Value(s) => format!("value({})", set(s)),
            TermKind::Before(p) => optional_arg("before", p.as_ref()),
            TermKind::Dropped(p) => optional_arg("dropped", p.as_ref()),
            TermKind::Size(s) => format!("size({})", set(s)),
            TermKind::SizeWhere(s, c) => format!("size({} where {})", set(s), self.flat_cond(c)),
            TermKind::Player(p) => player(&p.node),
            TermKind::Place(p) => place(p),
            TermKind::Kind(k) => kind_sel(k),
            TermKind::Number(p) => optional_arg("number", p.as_ref()),
            TermKind::Lifted => "lifted".into(),
            TermKind::Lap => "lap".into(),
            TermKind::Captures(p) => format!("captures({})", player(&p.node)),
            TermKind::Moves(p) => format!("moves({})", player(&p.node)),
            TermKind::Seat(p) => format!("seat({})", player(&p.node)),
            TermKind::Round => "round".into(),
            TermKind::Passed(p) => format!("passed({})", place(p)),
        };
        if parent != Some(t.span) && self.parenthesized(t.span) {
            format!("({s})")
        } else {
            s
        }
    }

    /// The operands of `+` or `*`, each in parentheses where `needs(index, operand)` says.
    fn operands(&self, parts: &[Term], op: &str, span: Span, needs: impl Fn(usize, &TermKind) -> bool) -> String {
        let texts: Vec<String> =
            parts.iter().enumerate().map(|(i, p)| self.operand(p, span, needs(i, &p.node))).collect();
        texts.join(op)
    }

    /// `a - b`, `a / b`, `a % b`: read from the left, so the right operand needs parentheses sooner.
    fn binary(
        &self,
        a: &Term,
        op: &str,
        b: &Term,
        span: Span,
        left: impl Fn(&TermKind) -> bool,
        right: impl Fn(&TermKind) -> bool,
    ) -> String {
        format!("{}{op}{}", self.operand(a, span, left(&a.node)), self.operand(b, span, right(&b.node)))
    }

    fn operand(&self, t: &Term, parent: Span, needed: bool) -> String {
        let s = self.term_text(t, Some(parent));
        let written = parent != t.span && self.parenthesized(t.span);
        if needed && !written {
            format!("({s})")
        } else {
            s
        }
    }
}

/// Where a condition stands, for the parentheses it needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Within {
    /// The whole condition of a rule.
    Top,
    /// An operand of `or`.
    Or,
    /// An operand of `and`.
    And,
    /// After `not`.
    Not,
    /// The body of `all SET(...)`, inside the quantifier's own parentheses.
    Body,
}

fn is_sum(t: &TermKind) -> bool {
    matches!(t, TermKind::Add(_) | TermKind::Sub(..))
}

fn is_sum_or_product(t: &TermKind) -> bool {
    matches!(t, TermKind::Add(_) | TermKind::Sub(..) | TermKind::Mul(_) | TermKind::Div(..) | TermKind::Rem(..))
}

fn has_block(item: &Item) -> bool {
    matches!(item, Item::Setup(_) | Item::Phase(_) | Item::End(_) | Item::Variant(_) | Item::Rounds(_))
        || matches!(item, Item::Pieces(p) if !matches!(p.node, Pieces::Seeds))
}

// ---------------------------------------------------------------- words

fn quoted(s: &str) -> String {
    format!("\"{s}\"")
}

fn players(p: &Players) -> String {
    let mut s = format!("players {}", p.min.node);
    if let Some(max) = &p.max {
        s.push_str(&format!("..{}", max.node));
        if let Some(d) = &p.default {
            s.push_str(&format!(" default {}", d.node));
        }
    }
    s
}

fn board(b: &Board) -> String {
    let stores = |on: bool| if on { " with stores" } else { "" };
    match b {
        Board::TwoRows { pits, stores: s } => format!("board two_rows {}{}", pits.node, stores(*s)),
        Board::Ring { pits } => format!("board ring {}", pits.node),
        Board::Rows { rows, pits, stores: s, names } => {
            let mut out = format!("board rows {} of {}{}", rows.node, pits.node, stores(*s));
            if !names.is_empty() {
                let names = names.iter().map(|n| n.node.as_str()).collect::<Vec<_>>().join(", ");
                out.push_str(&format!(" {{ rows {names} }}"));
            }
            out
        }
    }
}

fn mark_decl(m: &MarkDecl) -> String {
    let mut s = format!("mark {}", m.name.node);
    if m.per_player {
        s.push_str(" per player");
    }
    if m.one_ply {
        s.push_str(" for one ply");
    }
    if let Some(n) = &m.plies {
        s.push_str(&format!(" for {} plies", n.node));
    }
    if m.until_empty {
        s.push_str(" until empty");
    }
    s
}

fn setup_line(line: &SetupLine) -> String {
    let targets: Vec<String> = line
        .targets
        .iter()
        .map(|t| match &t.node {
            Target::Every(n) => format!("every {}", n.node),
            Target::Label(l) => l.node.clone(),
        })
        .collect();
    let targets = targets.join(", ");
    if let Some(mark) = &line.mark {
        return format!("mark {targets} as {}", mark.node);
    }
    let contents: Vec<String> =
        line.contents.iter().map(|c| format!("{}{}", c.node.count.node, kind_suffix(&c.node.kind))).collect();
    let exactly = if line.exactly { "exactly " } else { "" };
    format!("{targets}: {exactly}{}", contents.join(" + "))
}

/// A take as text; `filter` is its `where` condition, printed on one line.
fn take(t: &Take, filter: Option<String>) -> String {
    let mut s = String::from("take");
    if let Some(n) = &t.count {
        s.push_str(&format!(" {}", n.node));
    }
    s.push_str(&kind_suffix(&t.kind));
    if t.chosen {
        s.push_str(" chosen");
    }
    if !t.from.is_empty() {
        let groups: Vec<String> = t.from.iter().map(|g| g.iter().map(set).collect::<Vec<_>>().join(", ")).collect();
        s.push_str(&format!(" from {}", groups.join(" else ")));
    }
    if let Some(filter) = filter {
        s.push_str(&format!(" where {filter}"));
    }
    let to = match &t.to {
        TakeTarget::Place(p) => place(p),
        TakeTarget::Each(e) => format!("each {}", set(e)),
        TakeTarget::Hand => "hand".into(),
    };
    s.push_str(&format!(" to {to}"));
    s
}

fn mark_action(m: &MarkAction) -> String {
    format!("mark {} as {}{}", place(&m.place), m.mark.node, player_suffix(&m.player))
}

fn unmark(u: &Unmark) -> String {
    let what = u.set.as_ref().map_or_else(|| place(&u.place), set);
    match &u.mark {
        Some(m) => format!("unmark {what} {}", m.node),
        None => format!("unmark {what}"),
    }
}

fn player_suffix(p: &Option<PlayerRef>) -> String {
    p.as_ref().map_or(String::new(), |p| format!("({})", player(&p.node)))
}

fn kind_suffix(k: &Option<Spanned<KindSel>>) -> String {
    k.as_ref().map_or(String::new(), |k| format!(" {}", kind_sel(&k.node)))
}

fn range(r: Range) -> String {
    match r.max {
        Some(max) if max == r.min => r.min.to_string(),
        Some(max) => format!("{}..{max}", r.min),
        None => format!("{}..", r.min),
    }
}

fn dir_word(d: DirWord) -> &'static str {
    match d {
        DirWord::Ccw => "ccw",
        DirWord::Cw => "cw",
        DirWord::Choose => "choose",
    }
}

fn cmp_op(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

fn kind_sel(k: &KindSel) -> String {
    match k {
        KindSel::Own => "own".into(),
        KindSel::Foreign => "foreign".into(),
        KindSel::Player(p) => player(&p.node),
        KindSel::Named { name, value: Some(v) } => format!("{} {}", name.node, v.node),
        KindSel::Named { name, value: None } => name.node.clone(),
    }
}

fn player(p: &PlayerKind) -> String {
    match p {
        PlayerKind::Mover => "mover".into(),
        PlayerKind::Opponent => "opponent".into(),
        PlayerKind::Player => "player".into(),
        PlayerKind::Owner(at) => optional_arg("owner", at.as_deref()),
    }
}

fn optional_arg(word: &str, p: Option<&Place>) -> String {
    match p {
        Some(p) => format!("{word}({})", place(p)),
        None => word.to_string(),
    }
}

fn place(p: &Place) -> String {
    match &p.node {
        PlaceKind::Here => "here".into(),
        PlaceKind::Last => "last".into(),
        PlaceKind::Origin => "origin".into(),
        PlaceKind::Opposite(at) => optional_arg("opposite", at.as_deref()),
        PlaceKind::Twin(at) => optional_arg("twin", at.as_deref()),
        PlaceKind::Next(at) => optional_arg("next", at.as_deref()),
        PlaceKind::Previous(at) => optional_arg("previous", at.as_deref()),
        PlaceKind::Behind(at) => optional_arg("behind", at.as_deref()),
        PlaceKind::Ahead(at) => optional_arg("ahead", at.as_deref()),
        PlaceKind::Start => "start".into(),
        PlaceKind::Named { name, player: who } => format!("{}{}", name.node, player_suffix(who)),
    }
}

fn set(s: &SetExpr) -> String {
    match &s.node {
        SetKind::Pits(None) => "pits".into(),
        SetKind::Pits(Some(p)) => format!("pits({})", player(&p.node)),
        SetKind::Offered => "offered".into(),
        SetKind::Place(p) => place(p),
        SetKind::Facing(at) => optional_arg("facing", at.as_ref()),
        SetKind::Threats(p) => format!("threats({})", player(&p.node)),
        SetKind::TakenFirst => "taken_first".into(),
    }
}

// ---------------------------------------------------------------- comments and blank lines

/// The lines with the comments put back and the blank lines decided: the formatted text.
fn layout(src: &str, lines: Vec<Line>, comments: &[Comment]) -> String {
    // A comment that ends a line of rules goes back to the end of the line that holds the rule before it;
    // any other (a second one for the same line, a `///` sentence, a comment on a line of its own) on a
    // line of its own before the first line that starts after it.
    let mut trailing: Vec<Option<Comment>> = vec![None; lines.len()];
    let mut leading: Vec<Vec<Comment>> = vec![Vec::new(); lines.len() + 1];
    for c in comments {
        let ends_line = !c.doc && !line_before(src, c.span.start).trim().is_empty();
        let at = lines.partition_point(|l| l.src <= c.span.start);
        if ends_line && at > 0 && trailing[at - 1].is_none() {
            trailing[at - 1] = Some(*c);
            continue;
        }
        leading[lines.partition_point(|l| l.src < c.span.start)].push(*c);
    }
    let mut out: Vec<OutLine> = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let mut blank = line.blank;
        let indent = line.indent + if line.closing { INDENT } else { 0 };
        for (j, c) in leading[i].iter().enumerate() {
            let comment_blank = if j == 0 && blank == Blank::Force { Blank::Force } else { Blank::Keep };
            out.push(OutLine::new(
                indent,
                &src[c.span.start..c.span.end],
                comment_blank,
                blank_above(src, c.span.start),
            ));
        }
        if !leading[i].is_empty() && blank == Blank::Force {
            blank = Blank::Keep;
        }
        let mut o = OutLine::new(line.indent, &line.text, blank, blank_above(src, line.src));
        o.comment = trailing[i].map(|c| src[c.span.start..c.span.end].to_string());
        out.push(o);
    }
    for c in &leading[lines.len()] {
        out.push(OutLine::new(0, &src[c.span.start..c.span.end], Blank::Keep, blank_above(src, c.span.start)));
    }
    write_lines(&out)
}

/// A line of the result.
struct OutLine {
    indent: usize,
    text: String,
    comment: Option<String>,
    /// Whether a blank line goes before it (where one may).
    blank: bool,
}

impl OutLine {
    fn new(indent: usize, text: &str, blank: Blank, author_blank: bool) -> OutLine {
        let blank = match blank {
            Blank::Never => false,
            Blank::Keep => author_blank,
            Blank::Force => true,
        };
        OutLine { indent, text: text.trim_end().to_string(), comment: None, blank }
    }
}

/// The lines as text: no blank line at the start, after an opening brace or before a closing one; the
/// comments at the ends of consecutive lines lined up two spaces past the longest of them.
fn write_lines(lines: &[OutLine]) -> String {
    let mut out = String::new();
    let mut opened = true;
    let mut i = 0;
    while i < lines.len() {
        // A run of consecutive lines with comments at their ends.
        let mut j = i;
        while j < lines.len() && lines[j].comment.is_some() && (j == i || !blank_before(lines, j, false)) {
            j += 1;
        }
        let column = lines[i..j].iter().map(|l| l.indent + width_of(&l.text)).max().unwrap_or(0) + 2;
        for (k, line) in lines.iter().enumerate().take(j.max(i + 1)).skip(i) {
            if blank_before(lines, k, opened) {
                out.push('\n');
            }
            let mut text = format!("{}{}", " ".repeat(line.indent), line.text);
            if let Some(c) = &line.comment {
                let pad = column.saturating_sub(width_of(&text));
                text.push_str(&" ".repeat(pad));
                text.push_str(c);
            }
            out.push_str(text.trim_end());
            out.push('\n');
            opened = line.text.ends_with('{');
        }
        i = j.max(i + 1);
    }
    out
}

fn blank_before(lines: &[OutLine], k: usize, opened: bool) -> bool {
    k > 0 && lines[k].blank && !opened && lines[k].text != "}"
}

/// The text of the source line that holds `pos`, up to `pos`.
fn line_before(src: &str, pos: usize) -> &str {
    let start = src[..pos].rfind('\n').map_or(0, |i| i + 1);
    &src[start..pos]
}

/// Whether the source line above the one that holds `pos` is blank.
fn blank_above(src: &str, pos: usize) -> bool {
    let Some(start) = src[..pos.min(src.len())].rfind('\n') else { return false };
    let above = src[..start].rfind('\n').map_or(0, |i| i + 1);
    src[above..start].trim().is_empty()
}

/// ` as "YES" or "NO"` after `may`, as written (nothing without it).
fn answers_text(answers: Option<&Answers>) -> String {
    match answers {
        None => String::new(),
        Some(a) => match &a.no {
            Some(no) => format!(" as \"{}\" or \"{}\"", a.yes.node, no.node),
            None => format!(" as \"{}\"", a.yes.node),
        },
    }
}
