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
    /// A fix a tool can apply: the "did you mean" of a misspelt name or keyword, as an edit.
    pub suggestion: Option<Suggestion>,
}

/// An edit that fixes a diagnostic: the text of `span` replaced by `replacement`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Suggestion {
    pub span: Span,
    pub replacement: String,
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
            suggestion: None,
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
    /// The "did you mean" of a misspelt word: `did you mean `REPLACEMENT`?` as help, and the edit that makes it.
    pub fn with_fix(mut self, span: Span, replacement: &str) -> Diagnostic {
        self.help = Some(format!("did you mean `{replacement}`?"));
        self.suggestion = Some(Suggestion { span, replacement: replacement.to_string() });
        self
    }
    /// An edit that fixes the problem, leaving the help as it is.
    pub fn with_suggestion(mut self, span: Span, replacement: &str) -> Diagnostic {
        self.suggestion = Some(Suggestion { span, replacement: replacement.to_string() });
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
    /// (A `Box<str>`, as the suggestion is boxed: every `Result` of the parser carries this error.)
    pub label: Box<str>,
    pub help: Option<String>,
    /// Other places that explain this one, such as a `{` that is probably not closed.
    pub related: Vec<(Span, String)>,
    /// The edit that fixes it, where the error is a misspelt word (boxed: a `Result` carries the error).
    pub suggestion: Option<Box<Suggestion>>,
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
            suggestion: None,
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
        d.suggestion = e.suggestion.map(|s| *s);
        d
    }
}

/// A diagnostic bound to its source, in the form miette renders.
struct Bound<'a> {
    diagnostic: &'a Diagnostic,
    source: &'a Named<'a>,
}

/// A source with its file name and line starts, as miette reads it.
///
/// miette's `NamedSource` would copy the text for every diagnostic, and a plain `&str` is searched from its
/// beginning for every span: on a file of megabytes with many diagnostics, that is slow. This hands miette
/// only the lines around each span. The text is the file's, or a [`Clipped`] view of it where some lines
/// are too long to draw; line numbers and columns are always those of the file.
struct Named<'a> {
    name: &'a str,
    text: &'a str,
    line_starts: Vec<usize>,
    /// The file, when `text` is a clipped view of it: columns are counted there.
    clipped: Option<(&'a str, &'a Clipped)>,
}

impl<'a> Named<'a> {
    fn new(name: &'a str, text: &'a str, clipped: Option<(&'a str, &'a Clipped)>) -> Named<'a> {
        let line_starts = std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
        Named { name, text, line_starts, clipped }
    }

    /// The 0-based line of a byte offset.
    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    /// The 0-based column, in characters of the file, of an offset into `text`.
    fn column_of(&self, offset: usize) -> usize {
        let (file, offset) = match self.clipped {
            Some((file, clipped)) => (file, clipped.to_file(offset)),
            None => (self.text, offset),
        };
        let offset = offset.min(file.len());
        let line_start = file[..offset].rfind('\n').map_or(0, |i| i + 1);
        file.get(line_start..offset).map_or(0, |s| s.chars().count())
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
        let offset = inner.span().offset() + lo;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            miette::SourceSpan::new(offset.into(), inner.span().len()),
            inner.line() + first,
            self.column_of(offset),
            inner.line_count(),
        )))
    }
}

/// Lines longer than this (in bytes) are drawn clipped around the spans on them: miette cannot draw a
/// column past 65535, and nobody reads a line of a thousand characters in an error message.
const MAX_DRAWN_LINE: usize = 400;

/// How much of a clipped line is kept on each side of a span's start and end, in bytes.
const CLIP_CONTEXT: usize = 60;

/// What stands for the parts of a line left out.
const ELLIPSIS: &str = "…";

/// A view of a source with its long lines clipped, and the map between offsets of the file and of the view.
///
/// The view keeps every line break, so line numbers are the file's. Each segment is a run of the file
/// copied as it is; an ellipsis stands between two segments where text was left out.
struct Clipped {
    text: String,
    /// `(offset in the file, offset in the view, length)`, in order.
    segments: Vec<(usize, usize, usize)>,
}

impl Clipped {
    /// The view of `source` in which every span end in `points` is drawn with some context around it, or
    /// `None` when no line is too long to draw.
    fn new(source: &str, points: &[usize]) -> Option<Clipped> {
        let mut lines = Vec::new();
        let mut start = 0;
        for line in source.split_inclusive('\n') {
            lines.push((start, start + line.len()));
            start += line.len();
        }
        if lines.iter().all(|(s, e)| e - s <= MAX_DRAWN_LINE) {
            return None;
        }
        let mut points = points.to_vec();
        points.sort_unstable();
        let mut view = Clipped { text: String::new(), segments: vec![(0, 0, 0)] };
        for (start, end) in lines {
            if end - start <= MAX_DRAWN_LINE {
                view.copy(source, start, end);
                continue;
            }
            let on_line = &points[points.partition_point(|&p| p < start)..points.partition_point(|&p| p <= end)];
            let mut kept: Vec<(usize, usize)> = Vec::new();
            for &p in on_line {
                let (lo, hi) = (p.saturating_sub(CLIP_CONTEXT).max(start), (p + CLIP_CONTEXT).min(end));
                match kept.last_mut() {
                    Some(last) if lo <= last.1 => last.1 = last.1.max(hi),
                    _ => kept.push((lo, hi)),
                }
            }
            if kept.is_empty() {
                kept.push((start, start + 2 * CLIP_CONTEXT));
            }
            let mut at = start;
            for (lo, hi) in kept {
                let (lo, hi) = (char_floor(source, lo), char_ceil(source, hi));
                if lo > at {
                    view.text.push_str(ELLIPSIS);
                }
                view.copy(source, lo.max(at), hi);
                at = hi.max(at);
            }
            if at < end {
                // Keep the line break, so that the lines stay the file's.
                view.text.push_str(ELLIPSIS);
                let newline = if source[..end].ends_with('\n') { end - 1 } else { end };
                view.copy(source, newline.max(at), end);
            }
        }
        Some(view)
    }

    fn copy(&mut self, source: &str, from: usize, to: usize) {
        if from >= to {
            return;
        }
        let view = self.text.len();
        self.text.push_str(&source[from..to]);
        match self.segments.last_mut() {
            Some((f, v, len)) if *f + *len == from && *v + *len == view => *len += to - from,
            _ => self.segments.push((from, view, to - from)),
        }
    }

    /// The offset in the view of an offset into the file; a left-out offset goes to the ellipsis after it.
    fn to_view(&self, offset: usize) -> usize {
        let i = self.segments.partition_point(|s| s.0 <= offset).saturating_sub(1);
        let (f, v, len) = self.segments[i];
        v + (offset - f).min(len)
    }

    /// The offset in the file of an offset into the view; an ellipsis stands where the text it replaces starts.
    fn to_file(&self, offset: usize) -> usize {
        let i = self.segments.partition_point(|s| s.1 <= offset).saturating_sub(1);
        let (f, v, len) = self.segments[i];
        f + (offset - v).min(len)
    }

    fn span(&self, span: Span) -> Span {
        Span::new(self.to_view(span.start), self.to_view(span.end))
    }
}

fn char_floor(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn char_ceil(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
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
    let fitted: Vec<Diagnostic> = diagnostics
        .iter()
        .map(|d| {
            let mut d = d.clone();
            d.span = fit(source, d.span);
            for (span, _) in &mut d.related {
                *span = fit(source, *span);
            }
            d
        })
        .collect();
    let points: Vec<usize> = fitted
        .iter()
        .flat_map(|d| std::iter::once(d.span).chain(d.related.iter().map(|r| r.0)))
        .flat_map(|s| [s.start, s.end])
        .collect();
    let clipped = Clipped::new(source, &points);
    let named = match &clipped {
        Some(view) => Named::new(file_name, &view.text, Some((source, view))),
        None => Named::new(file_name, source, None),
    };
    let mut out = String::new();
    for mut d in fitted {
        if let Some(view) = &clipped {
            d.span = view.span(d.span);
            for (span, _) in &mut d.related {
                *span = view.span(*span);
            }
        }
        let bound = Bound { diagnostic: &d, source: &named };
        if handler.render_report(&mut out, &bound).is_err() {
            out.push_str(&d.message);
        }
        // miette ends a report without a line break; the next report, or the shell prompt, needs one.
        if !out.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}

/// A span clamped to the source, on character boundaries.
fn fit(source: &str, span: Span) -> Span {
    let start = char_floor(source, span.start);
    Span::new(start, char_ceil(source, span.end.max(start)))
}

/// One diagnostic as tools read it (`mancala check --format json`).
#[derive(Debug, Clone, Serialize)]
pub struct JsonDiagnostic {
    pub file: String,
    /// The primary span: byte offsets, then 1-based lines and columns (in characters) of its two ends.
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub severity: Severity,
    pub code: String,
    pub message: String,
    pub label: String,
    pub help: Option<String>,
    /// The secondary labels, such as the first definition of a duplicate.
    pub related: Vec<JsonLabel>,
    /// The edit that fixes it ("did you mean"), located as the primary span is.
    pub suggestion: Option<JsonSuggestion>,
}

/// The edit of a [`JsonDiagnostic`]: its span's text replaced by `replacement`.
#[derive(Debug, Clone, Serialize)]
pub struct JsonSuggestion {
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub replacement: String,
}

/// A secondary label of a [`JsonDiagnostic`], located as its primary span is.
#[derive(Debug, Clone, Serialize)]
pub struct JsonLabel {
    pub start: usize,
    pub end: usize,
    pub line: usize,
    pub column: usize,
    pub end_line: usize,
    pub end_column: usize,
    pub label: String,
}

pub fn to_json(file_name: &str, source: &str, d: &Diagnostic) -> JsonDiagnostic {
    let (line, column) = line_column(source, d.span.start);
    let (end_line, end_column) = line_column(source, d.span.end);
    JsonDiagnostic {
        file: file_name.to_string(),
        start: d.span.start,
        end: d.span.end,
        line,
        column,
        end_line,
        end_column,
        severity: d.severity,
        code: d.code.clone(),
        message: d.message.clone(),
        label: d.label.clone(),
        help: d.help.clone(),
        related: d
            .related
            .iter()
            .map(|(span, label)| {
                let (line, column) = line_column(source, span.start);
                let (end_line, end_column) = line_column(source, span.end);
                JsonLabel { start: span.start, end: span.end, line, column, end_line, end_column, label: label.clone() }
            })
            .collect(),
        suggestion: d.suggestion.as_ref().map(|s| {
            let (line, column) = line_column(source, s.span.start);
            let (end_line, end_column) = line_column(source, s.span.end);
            JsonSuggestion {
                start: s.span.start,
                end: s.span.end,
                line,
                column,
                end_line,
                end_column,
                replacement: s.replacement.clone(),
            }
        }),
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
