//! Diagnostics: problems in a rule file as data, with spans, rendered only at the edge.
//!
//! Every stage reports `Diagnostic`s; `render` turns them into the text a person reads (through miette's
//! graphical handler) and `to_json` into the records tools read. Codes are stable: `mancala::check::unknown_name`.

use std::fmt;

use miette::{
    GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError, MietteSpanContents, SourceCode, SpanContents,
};
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
    pub code: SyntaxCode,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub help: Option<String>,
    /// Other places that explain this one, such as a `{` that is probably not closed.
    pub related: Vec<(Span, String)>,
}

/// What kind of syntax error: its stable code is `mancala::` followed by [`SyntaxCode::as_str`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntaxCode {
    /// The text stops making sense here: `syntax::unexpected`.
    Unexpected,
    /// A string runs to the end of its line: `syntax::unterminated_string`.
    UnterminatedString,
    /// A number past `u32::MAX`: `syntax::number_too_large`.
    NumberTooLarge,
    /// Nesting past `syntax::MAX_NESTING`: `syntax::too_deep`.
    TooDeep,
    /// A file past `syntax::MAX_SOURCE_BYTES`: `syntax::too_large`.
    TooLarge,
    /// Bytes that are not UTF-8: `syntax::not_utf8`.
    NotUtf8,
    /// A bug in the parser: `syntax::internal`.
    Internal,
}

impl SyntaxCode {
    pub fn as_str(self) -> &'static str {
        match self {
            SyntaxCode::Unexpected => "syntax::unexpected",
            SyntaxCode::UnterminatedString => "syntax::unterminated_string",
            SyntaxCode::NumberTooLarge => "syntax::number_too_large",
            SyntaxCode::TooDeep => "syntax::too_deep",
            SyntaxCode::TooLarge => "syntax::too_large",
            SyntaxCode::NotUtf8 => "syntax::not_utf8",
            SyntaxCode::Internal => "syntax::internal",
        }
    }
}

impl SyntaxError {
    /// A shape the grammar promised and the parser did not find: a bug in `syntax`, not in the user's file.
    pub(crate) fn internal(what: &str) -> SyntaxError {
        SyntaxError {
            code: SyntaxCode::Internal,
            message: format!("internal error in the parser ({what}); this is a bug, please report it"),
            span: Span::default(),
            label: "here".into(),
            help: None,
            related: Vec::new(),
        }
    }
}

impl std::fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

impl From<SyntaxError> for Diagnostic {
    fn from(e: SyntaxError) -> Diagnostic {
        let mut d = Diagnostic::error(e.code.as_str(), e.message, e.span, e.label);
        d.help = e.help;
        d.related = e.related;
        d
    }
}

/// Whether a word is one of the language's keywords.
pub(crate) fn is_keyword(word: &str) -> bool {
    KEYWORDS.contains(&word)
}

/// The words of the language that cannot be names.
pub const KEYWORDS: &[&str] = &[
    "game",
    "about",
    "players",
    "default",
    "board",
    "two_rows",
    "ring",
    "with",
    "stores",
    "place",
    "per",
    "player",
    "shared",
    "pieces",
    "seeds",
    "value",
    "setup",
    "every",
    "turn",
    "phase",
    "sow",
    "from",
    "where",
    "direction",
    "order",
    "choose",
    "last",
    "skip",
    "origin",
    "relay",
    "require",
    "capture",
    "when",
    "chain",
    "while",
    "cancel",
    "again",
    "then",
    "may",
    "must",
    "take",
    "to",
    "each",
    "chosen",
    "else",
    "put",
    "into",
    "times",
    "offer",
    "keeping",
    "on",
    "accept",
    "give",
    "pass",
    "cannot",
    "until",
    "end",
    "repetition",
    "stuck",
    "nobody",
    "can",
    "move",
    "draw",
    "no",
    "for",
    "rounds",
    "turns",
    "eliminate",
    "sweep",
    "limit",
    "plies",
    "score",
    "winner",
    "most",
    "ties",
    "goal",
    "variant",
    "extends",
    "and",
    "or",
    "not",
    "in",
    "all",
    "any",
    "backward",
    "forward",
    "both",
    "ccw",
    "cw",
    "own",
    "foreign",
    "mover",
    "opponent",
    "here",
    "opposite",
    "count",
    "before",
    "dropped",
    "owner",
    "size",
    "offered",
    "pits",
    "lose",
    "win",
];

/// A diagnostic bound to its source, in the form miette renders.
struct Bound<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a Named<'a>,
}

/// A borrowed source with its file name and line starts.
///
/// miette's `NamedSource` would copy the text for every diagnostic, and a plain `&str` is searched from its
/// beginning for every span: on a file of megabytes with many diagnostics, that is slow. This hands miette
/// only the lines around each span.
struct Named<'a> {
    name: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Named<'a> {
    fn new(name: &'a str, text: &'a str) -> Named<'a> {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Named { name, text, line_starts }
    }

    /// The 0-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }
}

impl SourceCode for Named<'_> {
    fn read_span<'b>(
        &'b self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'b> + 'b>, MietteError> {
        let start = span.offset().min(self.text.len());
        let end = (start + span.len()).min(self.text.len());
        // One line more than asked on each side, so that miette finds the same context in the window.
        let first = self.line_of(start).saturating_sub(context_lines_before + 1);
        let past = self.line_of(end) + context_lines_after + 2;
        let lo = self.line_starts[first];
        let hi = self.line_starts.get(past).copied().unwrap_or(self.text.len());
        let window = &self.text[lo..hi];
        let local = miette::SourceSpan::new((start - lo).into(), end - start);
        let inner = window.read_span(&local, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            miette::SourceSpan::new((inner.span().offset() + lo).into(), inner.span().len()),
            inner.line() + first,
            inner.column(),
            inner.line_count(),
        )))
    }
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
        Some(self.source)
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
///
/// Spans are clamped to the source and widened to whole characters first, so that any span can be drawn,
/// even one pointing into the replacement character of a file that was not UTF-8.
pub fn render(file_name: &str, source: &str, diagnostics: &[Diagnostic], style: Style) -> String {
    let theme = match style {
        Style::Plain => GraphicalTheme::unicode_nocolor(),
        Style::Colour => GraphicalTheme::unicode(),
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(80);
    let named = Named::new(file_name, source);
    let mut out = String::new();
    for d in diagnostics {
        let mut d = d.clone();
        d.span = fit(source, d.span);
        for (span, _) in &mut d.related {
            *span = fit(source, *span);
        }
        let bound = Bound { diagnostic: &d, source: &named };
        if handler.render_report(&mut out, &bound).is_err() {
            out.push_str(&d.message);
            out.push('\n');
        }
    }
    out
}

/// A span clamped to the source, on character boundaries.
fn fit(source: &str, span: Span) -> Span {
    let mut start = span.start.min(source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = span.end.clamp(start, source.len());
    while !source.is_char_boundary(end) {
        end += 1;
    }
    Span::new(start, end)
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
