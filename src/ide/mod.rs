//! What an editor asks about a rule file, answered from the text alone: diagnostics, hovers, completions,
//! definitions, references, renames, an outline and quick fixes. Positions are byte offsets; the language
//! server (`lsp`) and the playground (`web`) turn them into their editors' positions.
//!
//! One parser for all the tools: the text is read by `syntax` (with `parse_recovering`, so that a file
//! with a bad item still has its other names), checked by `check::check_source` exactly as `mancala check`
//! does, and the names are found by walking the AST (`symbols`). Completion asks `syntax::expected_at`
//! what the grammar reads at the cursor. Keywords are explained from the one table, `keywords`.

mod symbols;

use serde::Serialize;

use crate::ast::{File, Item, PhaseItem, Span};
use crate::diag::Diagnostic;
use crate::ir::NO_PLAYER;
use crate::keywords::{self, Keyword};
use crate::syntax::{self, Slot};

pub use symbols::{Decl, Namespace, SymbolKind, Symbols, Use};

/// A rule file's text, read and checked once, ready for an editor's questions.
pub struct Analysis {
    source: String,
    file: File,
    symbols: Symbols,
    diagnostics: Vec<Diagnostic>,
    /// The pits of the base game's board, when its rules lower: label, owner at the start, number in its row.
    pits: Vec<(String, u8, u8)>,
}

/// What the mouse is over, in Markdown, and the span it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Hover {
    pub span: Span,
    pub markdown: String,
}

/// What a completion offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum CompletionKind {
    Keyword,
    /// A declared name.
    Name,
    /// A pit's label.
    Pit,
}

/// One word that may be written at the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Completion {
    pub label: String,
    pub kind: CompletionKind,
    /// A few words: "keyword", "region", "pit of player 1".
    pub detail: String,
    /// The keyword's meaning and example, or the name's declaration, in Markdown.
    pub documentation: String,
}

/// The completions at a point, and the span of the word being typed, which a chosen completion replaces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Completions {
    pub span: Span,
    pub items: Vec<Completion>,
}

/// A node of the outline: a phase, an action, a variant, a declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Outline {
    pub name: String,
    pub kind: OutlineKind,
    /// The whole item.
    pub span: Span,
    /// Its name (or keyword).
    pub selection: Span,
    pub children: Vec<Outline>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OutlineKind {
    Phase,
    Action,
    Variant,
    Place,
    Region,
    Mark,
    Kind,
}

/// A quick fix: one edit, from a diagnostic's suggestion.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Fix {
    pub title: String,
    pub span: Span,
    pub replacement: String,
    /// The index of the diagnostic it fixes, in [`Analysis::diagnostics`].
    pub diagnostic: usize,
}

impl Analysis {
    pub fn new(source: &str) -> Analysis {
        let diagnostics = crate::check::check_source(source);
        let file = syntax::parse_recovering(source).file;
        let symbols = Symbols::of(&file);
        let pits = if diagnostics.iter().any(Diagnostic::is_error) { Vec::new() } else { pits_of(&file) };
        Analysis { source: source.to_string(), file, symbols, diagnostics, pits }
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    /// Every diagnostic of the file, as `mancala check` gives them.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    pub fn symbols(&self) -> &Symbols {
        &self.symbols
    }

    // ------------------------------------------------------------ hover

    /// What the word at `offset` is: a declared name's declaration, a pit, or a keyword's meaning.
    pub fn hover(&self, offset: usize) -> Option<Hover> {
        // A variant's name is a string: it is found before strings are passed over.
        if let Some((ns, name, span)) = self.symbols.at(offset) {
            if let Some(markdown) = self.describe_name(ns, name) {
                return Some(Hover { span, markdown });
            }
        }
        if in_comment_or_string(&self.source, offset) {
            return None;
        }
        let span = word_at(&self.source, offset)?;
        let entry = keywords::lookup(&self.source[span.start..span.end])?;
        Some(Hover { span, markdown: keyword_markdown(entry) })
    }

    /// A name's declarations in words, with their text; a pit's owner and number.
    fn describe_name(&self, ns: Namespace, name: &str) -> Option<String> {
        let decls: Vec<&Decl> = self.symbols.decls_of(ns, name).collect();
        if decls.is_empty() {
            let (_, owner, number) = self.pits.iter().find(|(label, _, _)| label == name)?;
            return Some(format!("**pit** `{name}`\n\n{}", pit_words(*owner, *number)));
        }
        let mut out = format!("**{}** `{name}`", decls[0].kind.word());
        // A name declared again alike (an action a variant replaces) is described once.
        let mut blocks = Vec::new();
        for d in &decls {
            let block = format!("\n\n{}\n\n```mancala\n{}\n```", d.detail, self.first_line(d.item));
            if !blocks.contains(&block) {
                out.push_str(&block);
                blocks.push(block);
            }
        }
        Some(out)
    }

    /// The first line of a span's text, shortened when long.
    fn first_line(&self, span: Span) -> String {
        let text = self.source.get(span.start..span.end).unwrap_or("");
        let line = text.lines().next().unwrap_or("").trim_end();
        match line.char_indices().nth(120) {
            Some((i, _)) => format!("{} …", &line[..i]),
            None => line.to_string(),
        }
    }

    // ------------------------------------------------------------ completion

    /// The words that may be written at `offset`: the keywords the grammar reads there, and the names of
    /// the file of the kinds it reads there (with the relation words wherever a place may stand).
    pub fn completions(&self, offset: usize) -> Completions {
        let offset = floor_boundary(&self.source, offset);
        let start = word_start(&self.source, offset);
        let span = Span::new(start, offset);
        if in_comment_or_string(&self.source, offset) {
            return self.variant_completions(offset);
        }
        let expected = syntax::expected_at(&self.source, start)
            .unwrap_or_else(|| syntax::Expected { keywords: keywords::RELATIONS.to_vec(), slots: vec![Slot::Place] });
        let mut items: Vec<Completion> = expected
            .keywords
            .iter()
            .filter_map(|w| keywords::lookup(w))
            .map(|k| Completion {
                label: k.word.to_string(),
                kind: CompletionKind::Keyword,
                detail: "keyword".into(),
                documentation: keyword_markdown(k),
            })
            .collect();
        for slot in &expected.slots {
            self.names_for(*slot, &self.source[..start], &mut items);
        }
        let mut seen = std::collections::BTreeSet::new();
        items.retain(|c| seen.insert(c.label.clone()));
        Completions { span, items }
    }

    /// Inside the string after `extends`: the names of the file's variants, as the string's text.
    fn variant_completions(&self, offset: usize) -> Completions {
        let line_start = self.source[..offset].rfind('\n').map_or(0, |i| i + 1);
        let line = &self.source[line_start..offset];
        let Some(quote) = line.rfind('"') else {
            return Completions { span: Span::new(offset, offset), items: vec![] };
        };
        let span = Span::new(line_start + quote + 1, offset);
        if !line[..quote].trim_end().ends_with("extends") {
            return Completions { span, items: Vec::new() };
        }
        let items = self
            .symbols
            .decls
            .iter()
            .filter(|d| d.kind == SymbolKind::Variant)
            .map(|d| Completion {
                label: d.name.clone(),
                kind: CompletionKind::Name,
                detail: d.kind.word().into(),
                documentation: self.describe_name(d.ns, &d.name).unwrap_or_default(),
            })
            .collect();
        Completions { span, items }
    }

    fn names_for(&self, slot: Slot, before: &str, items: &mut Vec<Completion>) {
        let kinds: &[SymbolKind] = match slot {
            Slot::Place => {
                &[SymbolKind::Place, SymbolKind::Region, SymbolKind::Row, SymbolKind::Mark, SymbolKind::Store]
            }
            Slot::Kind => &[SymbolKind::Kind],
            // A mark after `as`, `divert` or `unmark`; a phase of the base game that a variant changes.
            Slot::Name => &[SymbolKind::Mark, SymbolKind::Phase],
            Slot::Action => &[SymbolKind::Action],
            Slot::Label => &[SymbolKind::Place, SymbolKind::Store],
            Slot::String if before.trim_end().ends_with("extends") => &[SymbolKind::Variant],
            Slot::String => &[],
        };
        for d in self.symbols.decls.iter().filter(|d| kinds.contains(&d.kind)) {
            let label = if d.kind == SymbolKind::Variant { format!("\"{}\"", d.name) } else { d.name.clone() };
            items.push(Completion {
                label,
                kind: CompletionKind::Name,
                detail: d.kind.word().into(),
                documentation: self.describe_name(d.ns, &d.name).unwrap_or_default(),
            });
        }
        if matches!(slot, Slot::Place | Slot::Label) {
            for (label, owner, number) in &self.pits {
                items.push(Completion {
                    label: label.clone(),
                    kind: CompletionKind::Pit,
                    detail: "pit".into(),
                    documentation: pit_words(*owner, *number),
                });
            }
        }
    }

    // ------------------------------------------------------------ names

    /// Where the name at `offset` is declared: its declarations, or the board for a pit's label or a store.
    pub fn definition(&self, offset: usize) -> Vec<Span> {
        let Some((ns, name, _)) = self.symbols.at(offset) else { return Vec::new() };
        let decls: Vec<Span> =
            self.symbols.decls_of(ns, name).map(|d| if d.span.is_empty() { d.item } else { d.span }).collect();
        if decls.is_empty() && ns == Namespace::Place && self.pits.iter().any(|(label, _, _)| label == name) {
            return self.symbols.boards.clone();
        }
        decls
    }

    /// Every place the name at `offset` is written, its declarations first when asked.
    pub fn references(&self, offset: usize, with_declarations: bool) -> Vec<Span> {
        let Some((ns, name, _)) = self.symbols.at(offset) else { return Vec::new() };
        let declared: Vec<Span> = self.symbols.decls_of(ns, name).map(|d| d.span).collect();
        self.symbols
            .occurrences(ns, name)
            .into_iter()
            .filter(|s| !s.is_empty() && (with_declarations || !declared.contains(s)))
            .collect()
    }

    /// The span of the name at `offset` when it can be renamed: a name the file declares.
    pub fn rename_target(&self, offset: usize) -> Result<(Span, Namespace, String), String> {
        let (ns, name, span) = self.symbols.at(offset).ok_or("there is no name here to rename")?;
        let decls: Vec<&Decl> = self.symbols.decls_of(ns, name).collect();
        if decls.is_empty() {
            return Err(format!("`{name}` is not declared in this file (a pit's label is the board's)"));
        }
        if decls.iter().all(|d| d.kind == SymbolKind::Store) {
            return Err("the stores are named `store` by the board".into());
        }
        Ok((span, ns, name.to_string()))
    }

    /// The edits that rename the name at `offset` (its declarations and every use) to `new_name`.
    pub fn rename(&self, offset: usize, new_name: &str) -> Result<Vec<(Span, String)>, String> {
        let (_, ns, name) = self.rename_target(offset)?;
        valid_new_name(ns, new_name)?;
        if new_name == name {
            return Ok(Vec::new());
        }
        if let Some(d) = self.symbols.decls_of(ns, new_name).next() {
            let whose = match ns {
                Namespace::Action(_) => format!(" in {}", self.symbols.phase_words(ns)),
                _ => String::new(),
            };
            return Err(format!("`{new_name}` is already the name of a {}{whose}", d.kind.word()));
        }
        if ns == Namespace::Place {
            if self.pits.iter().any(|(label, _, _)| label == new_name) {
                return Err(format!("`{new_name}` is a pit of the board: a name cannot be a pit's label"));
            }
            // An undeclared name where a place stands is a pit's label (or a mistake `check` reports):
            // renaming onto it would make the two one.
            if self.symbols.uses.iter().any(|u| u.ns == ns && u.name == new_name) {
                return Err(format!(
                    "`{new_name}` is already written in this file where a place stands (a pit's label?)"
                ));
            }
        }
        Ok(self.symbols.occurrences(ns, &name).into_iter().map(|s| (s, new_name.to_string())).collect())
    }

    // ------------------------------------------------------------ layout, outline and fixes

    /// The file in `mancala fmt`'s layout: `None` when it is laid out so already; an error when it does not
    /// parse (what the first syntax error says).
    pub fn formatted(&self) -> Result<Option<String>, String> {
        match crate::fmt::format_source(&self.source) {
            Ok(text) if text == self.source => Ok(None),
            Ok(text) => Ok(Some(text)),
            Err(diagnostics) => Err(diagnostics
                .first()
                .map_or_else(|| "the file does not parse".to_string(), |d| format!("cannot format: {}", d.message))),
        }
    }

    /// What an editor may fold: every block over more than one line (the setup, phases, their actions and
    /// captures, end rules, variants, rounds, kinds of pieces), outermost first.
    pub fn folding_ranges(&self) -> Vec<Span> {
        let mut spans = Vec::new();
        fold_items(&self.file.items, &mut spans);
        spans.retain(|s| self.source.get(s.start..s.end).is_some_and(|t| t.trim_end().contains('\n')));
        spans
    }

    /// The phases with their actions, the variants with the phases they change, and the declarations.
    pub fn outline(&self) -> Vec<Outline> {
        outline_of(&self.file.items, &self.symbols)
    }

    /// The quick fixes of the diagnostics whose span meets `range`.
    pub fn fixes(&self, range: Span) -> Vec<Fix> {
        self.diagnostics
            .iter()
            .enumerate()
            .filter(|(_, d)| d.span.start <= range.end && range.start <= d.span.end)
            .filter_map(|(i, d)| {
                let s = d.suggestion.as_ref()?;
                let old = self.source.get(s.span.start..s.span.end).unwrap_or("");
                Some(Fix {
                    title: format!("Replace `{old}` with `{}`", s.replacement),
                    span: s.span,
                    replacement: s.replacement.clone(),
                    diagnostic: i,
                })
            })
            .collect()
    }
}

fn outline_of(items: &[Item], symbols: &Symbols) -> Vec<Outline> {
    let mut out = Vec::new();
    for item in items {
        match item {
            Item::Phase(p) => {
                let (name, selection) = match &p.node.name {
                    Some(n) => (n.node.clone(), n.span),
                    None => ("turn".to_string(), Span::new(p.span.start, p.span.start + 4)),
                };
                let children = p.node.items.iter().filter_map(action_outline).collect();
                out.push(Outline { name, kind: OutlineKind::Phase, span: p.span, selection, children });
            }
            Item::Variant(v) => {
                let selection = v.node.name.span;
                out.push(Outline {
                    name: v.node.name.node.clone(),
                    kind: OutlineKind::Variant,
                    span: v.span,
                    selection,
                    children: outline_of(&v.node.items, symbols),
                });
            }
            Item::Place(p) => out.push(leaf(&p.node.name.node, OutlineKind::Place, p.span, p.node.name.span)),
            Item::Region(r) => out.push(leaf(&r.node.name.node, OutlineKind::Region, r.span, r.node.name.span)),
            Item::Mark(m) => out.push(leaf(&m.node.name.node, OutlineKind::Mark, m.span, m.node.name.span)),
            Item::Pieces(p) => {
                let kinds = symbols.decls.iter().filter(|d| d.kind == SymbolKind::Kind && p.span.start <= d.span.start);
                for d in kinds.filter(|d| d.span.end <= p.span.end) {
                    out.push(leaf(&d.name, OutlineKind::Kind, d.item, d.span));
                }
            }
            _ => {}
        }
    }
    out
}

fn action_outline(item: &PhaseItem) -> Option<Outline> {
    let (word, name, span) = match item {
        PhaseItem::Sow(s) => ("sow", &s.node.name, s.span),
        PhaseItem::Put(p) => ("put", &p.node.name, p.span),
        PhaseItem::Offer(o) => ("offer", &o.node.name, o.span),
        _ => return None,
    };
    let (name, selection) = match name {
        Some(n) => (n.node.clone(), n.span),
        None => (word.to_string(), Span::new(span.start, span.start + word.len())),
    };
    Some(leaf(&name, OutlineKind::Action, span, selection))
}

fn leaf(name: &str, kind: OutlineKind, span: Span, selection: Span) -> Outline {
    Outline { name: name.to_string(), kind, span, selection, children: Vec::new() }
}

/// A keyword's hover: its meaning and example.
fn keyword_markdown(k: &Keyword) -> String {
    format!("**`{}`** — {}\n\n```mancala\n{}\n```", k.word, k.meaning, k.example)
}

fn pit_words(owner: u8, number: u8) -> String {
    let owner =
        if owner == NO_PLAYER { "nobody's".to_string() } else { format!("player {}'s at the start", owner + 1) };
    format!("a pit of the board, {owner}, number {number} in its row")
}

/// The pits of the base game's board, at its default number of players.
fn pits_of(file: &File) -> Vec<(String, u8, u8)> {
    let Ok(rules) = crate::check::lower(file, None, None) else { return Vec::new() };
    rules
        .places
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_pit)
        .map(|(i, p)| {
            let owner = rules.initial_owner.get(i).copied().unwrap_or(NO_PLAYER);
            (p.label.clone(), owner, rules.number.get(i).copied().unwrap_or(0))
        })
        .collect()
}

fn fold_items(items: &[Item], spans: &mut Vec<Span>) {
    for item in items {
        match item {
            Item::Setup(s) => spans.push(s.span),
            Item::End(e) => spans.push(e.span),
            Item::Rounds(r) => spans.push(r.span),
            Item::Pieces(p) => spans.push(p.span),
            Item::Variant(v) => {
                spans.push(v.span);
                fold_items(&v.node.items, spans);
            }
            Item::Phase(p) => {
                spans.push(p.span);
                for item in &p.node.items {
                    match item {
                        PhaseItem::Sow(s) => {
                            spans.push(s.span);
                            for item in &s.node.items {
                                if let crate::ast::SowItem::Capture(c) = item {
                                    spans.push(c.span);
                                }
                            }
                        }
                        PhaseItem::Put(x) => spans.push(x.span),
                        PhaseItem::Take(x) => spans.push(x.span),
                        PhaseItem::Offer(x) => spans.push(x.span),
                        PhaseItem::End(x) => spans.push(x.span),
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether a new name can be written where the old one stands.
fn valid_new_name(ns: Namespace, name: &str) -> Result<(), String> {
    if ns == Namespace::Variant {
        return if name.is_empty() || name.contains(['"', '\n']) || name == "default" {
            Err(format!(
                "`{name}` cannot name a variant: write a string on one line, without `\"`, other than `default`"
            ))
        } else {
            Ok(())
        };
    }
    let mut chars = name.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    if !first_ok || !chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        return Err(format!(
            "`{name}` is not a name: a name starts with a letter or `_` and goes on with letters, digits, `_` or `-`"
        ));
    }
    if keywords::is_reserved(name) {
        return Err(format!("`{name}` is a keyword of the language and cannot be a name"));
    }
    Ok(())
}

fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Where the word that ends at `offset` starts (`offset` itself when none does).
fn word_start(source: &str, offset: usize) -> usize {
    source[..offset].char_indices().rev().take_while(|&(_, c)| is_word_char(c)).last().map_or(offset, |(i, _)| i)
}

/// The word around `offset`, if any.
fn word_at(source: &str, offset: usize) -> Option<Span> {
    let offset = floor_boundary(source, offset);
    let start = word_start(source, offset);
    let end = offset + source[offset..].find(|c: char| !is_word_char(c)).unwrap_or(source.len() - offset);
    (start < end).then(|| Span::new(start, end))
}

/// Whether `offset` is inside a `#` comment, a `///` sentence or a string (which stay on one line).
fn in_comment_or_string(source: &str, offset: usize) -> bool {
    let offset = floor_boundary(source, offset);
    let line_start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let line = &source[line_start..offset];
    if line.trim_start().starts_with("///") {
        return true;
    }
    let mut in_string = false;
    for c in line.chars() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return true,
            _ => {}
        }
    }
    in_string
}

#[cfg(test)]
mod tests;
