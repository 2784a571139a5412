//! Diagnostics: problems in a rule file as data, with spans, rendered only at the edge.
//!
//! Every stage reports `Diagnostic`s; `render` turns them into the text a person reads (through miette's
//! graphical handler) and `to_json` into the records tools read. Codes are stable: `mancala::check::unknown_name`.

use std::fmt;

use miette::{GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource};
use serde::Serialize;

use crate::ast::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

/// One problem found in a rule file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Other places that explain this one, such as the first definition of a duplicate.
    pub related: Vec<(Span, String)>,
}

impl Diagnostic {
    pub fn error(code: &str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code: format!("mancala::{code}"),
            severity: Severity::Error,
            message: message.into(),
            span,
            label: label.into(),
            help: None,
            related: Vec::new(),
        }
    }
    pub fn warning(code: &str, message: impl Into<String>, span: Span, label: impl Into<String>) -> Diagnostic {
        Diagnostic { severity: Severity::Warning, ..Diagnostic::error(code, message, span, label) }
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }
    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Diagnostic {
        self.related.push((span, label.into()));
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A syntax error from the parser: the first place where the text stops making sense.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
}

impl SyntaxError {
    /// A shape the grammar promised and the parser did not find: a bug in `syntax`, not in the user's file.
    pub(crate) fn internal(what: &str) -> SyntaxError {
        SyntaxError {
            message: format!("internal error in the parser ({what}); this is a bug, please report it"),
            span: Span::default(),
            label: "here".into(),
            help: None,
        }
    }
}

impl From<SyntaxError> for Diagnostic {
    fn from(e: SyntaxError) -> Diagnostic {
        let d = Diagnostic::error("syntax", e.message, e.span, e.label);
        match e.help {
            Some(h) => d.with_help(h),
            None => d,
        }
    }
}

/// The words of the language that cannot be names.
pub(crate) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

pub(crate) const KEYWORDS: &[&str] = &[
    "game", "about", "players", "default", "board", "two_rows", "ring", "with", "stores", "place", "per", "player",
    "shared", "pieces", "seeds", "value", "setup", "every", "turn", "phase", "sow", "from", "where", "direction",
    "order", "choose", "last", "skip", "origin", "relay", "require", "capture", "when", "chain", "while", "cancel",
    "again", "then", "may", "must", "take", "to", "each", "chosen", "else", "put", "into", "times", "offer", "keeping",
    "on", "accept", "give", "pass", "cannot", "until", "end", "repetition", "stuck", "nobody", "can", "move", "draw",
    "no", "for", "rounds", "turns", "eliminate", "sweep", "limit", "plies", "score", "winner", "most", "ties", "goal",
    "variant", "extends", "and", "or", "not", "in", "all", "any", "backward", "forward", "both", "ccw", "cw", "own",
    "foreign", "mover", "opponent", "here", "opposite", "count", "before", "dropped", "owner", "size", "offered",
    "pits", "lose", "win",
];

/// A diagnostic bound to its source, in the form miette renders.
struct Bound<'a> {
    diagnostic: &'a Diagnostic,
    source: NamedSource<String>,
}

impl fmt::Debug for Bound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl fmt::Display for Bound<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diagnostic.message)
    }
}

impl std::error::Error for Bound<'_> {}

impl miette::Diagnostic for Bound<'_> {
    fn code<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        Some(Box::new(&self.diagnostic.code))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
        })
    }
    fn help<'b>(&'b self) -> Option<Box<dyn fmt::Display + 'b>> {
        self.diagnostic.help.as_ref().map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let primary = LabeledSpan::new_primary_with_span(Some(d.label.clone()), d.span);
        let related = d.related.iter().map(|(s, l)| LabeledSpan::new_with_span(Some(l.clone()), *s));
        Some(Box::new(std::iter::once(primary).chain(related)))
    }
}

/// How diagnostics are drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Unicode without colour, 80 columns: stable, for snapshots and pipes.
    Plain,
    /// With colour, for a terminal.
    Colour,
}

/// Renders diagnostics of one file as a person reads them.
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic], style: Style) -> String {
    let theme = match style {
        Style::Plain => GraphicalTheme::unicode_nocolor(),
        Style::Colour => GraphicalTheme::unicode(),
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(80);
    let mut out = String::new();
    for d in diagnostics {
        let bound = Bound { diagnostic: d, source: NamedSource::new(file_name, source.to_string()) };
        if handler.render_report(&mut out, &bound).is_err() {
            out.push_str(&d.message);
            out.push('\n');
        }
    }
    out
}

/// One diagnostic as tools read it (`mancala check --format json`).
#[derive(Debug, Clone, Serialize)]
pub struct JsonDiagnostic {
    pub file: String,
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
}

pub fn to_json(file_name: &str, source: &str, d: &Diagnostic) -> JsonDiagnostic {
    let (line, column) = line_column(source, d.span.start);
    JsonDiagnostic {
        file: file_name.to_string(),
        start: d.span.start,
        end: d.span.end,
        line,
        column,
        severity: d.severity,
        code: d.code.clone(),
        message: d.message.clone(),
        label: d.label.clone(),
        help: d.help.clone(),
    }
}

/// 1-based line and column (in characters) of a byte offset.
pub fn line_column(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let before = source.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map(|l| l.chars().count()).unwrap_or(0) + 1;
    (line, column)
}

/// The closest of `candidates` to `word`, if close enough to be a likely typo.
pub fn did_you_mean<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(word, c), c))
        .filter(|(d, c)| *d <= (word.len().max(c.len()) / 3).max(1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}
