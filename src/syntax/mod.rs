//! Text to AST. The only module that knows pest.
//!
//! Each `build_*` function takes a pair of one grammar rule and returns the AST node for it. The grammar
//! guarantees the shape of the pairs, so a missing child is a bug in this file, never a user error:
//! `next_pair` says so instead of panicking. Punctuation and some keywords are rules of their own so that
//! errors can name them (see the end of the grammar); `children` skips their pairs.
//!
//! Errors are made readable here: pest's expected rules become words (`rule_word`), and a few common
//! mistakes get a hint (a misspelt keyword, `=` for `:`, an unclosed string or brace).

use std::iter::Filter;

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::{Pair, Pairs};
use pest::Parser;

mod errors;
mod expected;

pub(crate) use errors::FUNCTIONS;
use errors::*;
pub use expected::{expected_at, Expected, Slot};

use crate::ast::*;
use crate::diag::{did_you_mean, Suggestion, SyntaxCode, SyntaxError};
use crate::io::size;
use crate::keywords::is_reserved as is_keyword;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/mancala.pest"]
struct MancalaParser;

/// The deepest nesting of parentheses, braces and `not`s we accept; deeper input gets an error, not a stack
/// overflow.
pub const MAX_NESTING: usize = 64;

/// The largest rule file we parse. Real ones are a few kilobytes; pest's memory and time grow with the
/// input, and past this a file is a mistake (or an attack), not a game.
pub const MAX_SOURCE_BYTES: usize = 512 * 1024;

/// Parses a rule file into its AST.
pub fn parse(source: &str) -> Result<File, SyntaxError> {
    check_size(source.len())?;
    check_nesting(source)?;
    let mut pairs = MancalaParser::parse(Rule::file, source).map_err(|e| syntax_error(source, e))?;
    // `file` is the only top rule, so a successful parse has exactly one pair.
    let file = pairs.next().ok_or_else(|| SyntaxError::internal("no file pair"))?;
    let docs = collect_docs(file.clone());
    let items = children(file).filter(|p| p.as_rule() != Rule::EOI).map(build_item).collect::<Result<Vec<_>, _>>()?;
    Ok(File { items, docs })
}

/// A rule file read as far as it can be: the items that parse, and an error for each one that does not.
#[derive(Debug, Clone)]
pub struct Recovered {
    /// The items that parsed, in source order.
    pub file: File,
    /// One error per item that did not parse, in source order; empty when the whole file parsed.
    pub errors: Vec<SyntaxError>,
    /// The text that was skipped, one span per bad item (from the bad item to the next item's keyword at
    /// the start of a line).
    pub skipped: Vec<Span>,
}

/// The most syntax errors [`parse_recovering`] reports; the checker's limit then applies to all.
pub const MAX_SYNTAX_ERRORS: usize = 100;

/// Parses a rule file, reading on after an item that does not parse: the text up to the next line that
/// starts with an item's keyword (`game`, `players`, `board`, ..., `variant`) is skipped, and the items
/// after it are read. The first error is the one [`parse`] reports; each later bad item gets its own.
///
/// A file too large or nested too deeply is not read at all: its one error is the only one.
pub fn parse_recovering(source: &str) -> Recovered {
    let first = match parse(source) {
        Ok(file) => return Recovered { file, errors: Vec::new(), skipped: Vec::new() },
        Err(e) => e,
    };
    let unreadable = Recovered {
        file: File { items: Vec::new(), docs: Vec::new() },
        errors: vec![first.clone()],
        skipped: Vec::new(),
    };
    if matches!(first.code, SyntaxCode::TooLarge | SyntaxCode::TooDeep | SyntaxCode::NotUtf8) {
        return unreadable;
    }
    let Some(file) = MancalaParser::parse(Rule::recovering_file, source).ok().and_then(|mut p| p.next()) else {
        return unreadable;
    };
    let pairs: Vec<Pair<Rule>> = children(file).filter(|p| p.as_rule() != Rule::EOI).collect();
    let mut recovered =
        Recovered { file: File { items: Vec::new(), docs: Vec::new() }, errors: Vec::new(), skipped: Vec::new() };
    let mut first_bad = None;
    for pair in pairs {
        if pair.as_rule() != Rule::bad_item {
            let span = span_of(&pair);
            match build_item(pair) {
                Ok(item) => recovered.file.items.push(item),
                Err(e) => {
                    recovered.skipped.push(span);
                    recovered.errors.push(e);
                }
            }
            continue;
        }
        let span = span_of(&pair);
        recovered.skipped.push(span);
        first_bad.get_or_insert(recovered.errors.len());
        if recovered.errors.len() < MAX_SYNTAX_ERRORS {
            recovered.errors.push(bad_item_error(source, span));
        }
    }
    // The whole file's parse says best what went wrong first: it saw the first bad item in its context.
    match recovered.errors.iter().position(|e| e.span.start == first.span.start).or(first_bad) {
        Some(i) => recovered.errors[i] = first,
        None => recovered.errors.push(first),
    }
    recovered.errors.sort_by_key(|e| (e.span.start, e.span.end));
    recovered.errors.dedup_by_key(|e| e.span.start);
    recovered.errors.truncate(MAX_SYNTAX_ERRORS);
    recovered
}

/// The error in a bad item, found by parsing it as a file of its own; its positions are the file's.
fn bad_item_error(source: &str, span: Span) -> SyntaxError {
    match MancalaParser::parse(Rule::file, &source[span.start..span.end]) {
        Err(mut e) => {
            e.location = match e.location {
                InputLocation::Pos(p) => InputLocation::Pos(p + span.start),
                InputLocation::Span((a, b)) => InputLocation::Span((a + span.start, b + span.start)),
            };
            syntax_error(source, e)
        }
        // It reads as items on its own but not where it stands, as after a keyword that ended too soon.
        Ok(_) => {
            let found = found_at(source, span.start);
            SyntaxError {
                code: SyntaxCode::Unexpected,
                message: format!("unexpected {}", found.describe()),
                span: Span::new(span.start, span.start + found.len()),
                label: "not understood here".into(),
                help: None,
                related: Vec::new(),
                suggestion: None,
            }
        }
    }
}

/// A comment of a rule file: a `# ...` line or the end of a line, or a `/// ...` sentence. The grammar
/// skips the first kind and the AST keeps the second only joined to the rule it tells, so a tool that
/// writes the file back (`fmt`) finds both here, with their exact text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Comment {
    /// From the `#` or the first `/` to the end of the line, the line break left out.
    pub span: Span,
    /// A `///` sentence rather than a `#` comment.
    pub doc: bool,
}

/// The comments of a rule file that parses, in order. It reads the text as the grammar does: a string ends
/// at its closing quote or the end of its line, and outside strings `#` and `///` run to the end of the line.
pub fn comments(source: &str) -> Vec<Comment> {
    let bytes = source.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += 1;
                }
                i += 1;
            }
            b'#' => i = push_comment(source, i, false, &mut out),
            b'/' if source[i..].starts_with("///") => i = push_comment(source, i, true, &mut out),
            _ => i += 1,
        }
    }
    out
}

/// Records the comment that starts at `start` and runs to the end of its line; returns where it ends.
fn push_comment(source: &str, start: usize, doc: bool, out: &mut Vec<Comment>) -> usize {
    let end = source[start..].find('\n').map_or(source.len(), |n| start + n);
    let end = start + source[start..end].trim_end().len();
    out.push(Comment { span: Span::new(start, end), doc });
    end
}

/// Parses a rule file as read from disk. A file that is not UTF-8 is an error (`mancala::syntax::not_utf8`)
/// at its first bad byte: see [`decode`].
pub fn parse_bytes(bytes: &[u8]) -> Result<File, SyntaxError> {
    check_size(bytes.len())?;
    parse(decode(bytes)?)
}

fn check_size(len: usize) -> Result<(), SyntaxError> {
    if len <= MAX_SOURCE_BYTES {
        return Ok(());
    }
    Err(SyntaxError {
        code: SyntaxCode::TooLarge,
        message: format!("this file is {}, more than the {} a rule file may have", size(len), size(MAX_SOURCE_BYTES)),
        span: Span::new(0, 0),
        label: "too large to be a rule file".into(),
        help: Some("is this the right file? Rule files are text of a few kilobytes".into()),
        related: Vec::new(),
        suggestion: None,
    })
}

/// The text of a rule file, or an error at the first byte that is not UTF-8.
///
/// The error's span starts at that byte's offset in the file. Render it against
/// `String::from_utf8_lossy(bytes)`: the text is the same up to that offset, and the span covers the
/// replacement character (`U+FFFD`, three bytes) that stands for the bad bytes.
pub fn decode(bytes: &[u8]) -> Result<&str, SyntaxError> {
    let e = match std::str::from_utf8(bytes) {
        Ok(text) => return Ok(text),
        Err(e) => e,
    };
    let at = e.valid_up_to();
    let bad = bytes[at..]
        .iter()
        .take(e.error_len().unwrap_or(bytes.len() - at))
        .map(|b| format!("0x{b:02X}"))
        .collect::<Vec<_>>();
    let help = if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        "this file looks like UTF-16; rule files are UTF-8 text: save it as UTF-8"
    } else {
        "rule files are UTF-8 text; this one may be Latin-1 or Windows-1252: save it as UTF-8"
    };
    Err(SyntaxError {
        code: SyntaxCode::NotUtf8,
        message: format!("this file is not UTF-8: byte {} at offset {at} is not valid text", bad.join(" ")),
        span: Span::new(at, at + '\u{FFFD}'.len_utf8()),
        label: "not UTF-8".into(),
        help: Some(help.into()),
        related: Vec::new(),
        suggestion: None,
    })
}

/// Rejects input nested too deeply before pest, whose recursive descent would exhaust the stack.
fn check_nesting(source: &str) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut in_string = false;
    for (i, c) in source.char_indices() {
        match c {
            // Neither strings nor comments go past the end of a line.
            '\n' => {
                in_comment = false;
                in_string = false;
            }
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => in_comment = true,
            '(' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(too_deep(Span::new(i, i + 1)));
                }
            }
            ')' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn too_deep(span: Span) -> SyntaxError {
    SyntaxError {
        code: SyntaxCode::TooDeep,
        message: format!("this is nested more than {MAX_NESTING} levels deep"),
        span,
        label: "too deep".into(),
        help: Some("split the condition into simpler parts".into()),
        related: Vec::new(),
        suggestion: None,
    }
}

// ---------------------------------------------------------------- helpers

/// The `///` lines of the file, consecutive ones joined, each with the start of the rule it tells. A
/// `///` line with no rule after it in its block tells nothing and is left out.
fn collect_docs(file: Pair<Rule>) -> Vec<Doc> {
    let mut docs = Vec::new();
    let mut pending: Option<(String, Span)> = None;
    for pair in file.into_inner().flatten() {
        match pair.as_rule() {
            Rule::doc_text => {}
            Rule::doc => {
                let text = pair.as_str().trim_start_matches('/').trim().to_string();
                let span = span_of(&pair);
                pending = Some(match pending.take() {
                    Some((before, first)) => (format!("{before} {text}"), Span::new(first.start, span.end)),
                    None => (text, span),
                });
            }
            _ => {
                if let Some((text, span)) = pending.take() {
                    if !is_token(pair.as_rule()) && pair.as_rule() != Rule::EOI {
                        docs.push(Doc { text, span, target: doc_target(pair) });
                    }
                }
            }
        }
    }
    docs
}

/// Where the AST node of a documented rule starts: `until`, `score` and `goal` keep only their condition
/// or term.
fn doc_target(pair: Pair<Rule>) -> usize {
    match pair.as_rule() {
        Rule::until | Rule::score | Rule::goal => {
            children(pair.clone()).next().map_or(pair.as_span().start(), |c| c.as_span().start())
        }
        _ => pair.as_span().start(),
    }
}

/// The span of a pair, without the whitespace and comments pest skips after a rule that ends in an
/// optional part (`count > 0  # note` is `count > 0`).
fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.start() + trim_end(pair.as_str()).len())
}

fn trim_end(mut text: &str) -> &str {
    loop {
        text = text.trim_end();
        let line_start = text.rfind('\n').map_or(0, |i| i + 1);
        match comment_start(&text[line_start..]) {
            Some(i) => text = &text[..line_start + i],
            None => return text,
        }
    }
}

/// Where a comment starts in one line, outside strings.
pub(crate) fn comment_start(line: &str) -> Option<usize> {
    let mut in_string = false;
    for (i, c) in line.char_indices() {
        match c {
            '"' => in_string = !in_string,
            '#' if !in_string => return Some(i),
            _ => {}
        }
    }
    None
}

fn next_pair<'a>(pairs: &mut impl Iterator<Item = Pair<'a, Rule>>, what: &str) -> Result<Pair<'a, Rule>, SyntaxError> {
    pairs.next().ok_or_else(|| SyntaxError::internal(&format!("missing {what}")))
}

fn int_of(pair: &Pair<Rule>) -> Result<Spanned<u32>, SyntaxError> {
    let span = span_of(pair);
    pair.as_str().parse::<u32>().map(|n| Spanned::new(n, span)).map_err(|_| SyntaxError {
        code: SyntaxCode::NumberTooLarge,
        message: format!("the number `{}` is too large", pair.as_str()),
        span,
        label: "too large".into(),
        help: Some(format!("numbers in rule files go up to {}", u32::MAX)),
        related: Vec::new(),
        suggestion: None,
    })
}

fn name_of(pair: &Pair<Rule>) -> Name {
    Spanned::new(pair.as_str().to_string(), span_of(pair))
}

/// `as "YES" [or "NO"]`: strings only, by the grammar.
fn build_answers(pair: Pair<Rule>) -> Answers {
    let mut words = children(pair).filter(|p| p.as_rule() == Rule::string).map(string_of);
    let yes = words.next().unwrap_or_else(|| Spanned::new(String::new(), Span::default()));
    Answers { yes, no: words.next() }
}

fn string_of(pair: Pair<Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let text = children(pair).next().map(|t| t.as_str().to_string()).unwrap_or_default();
    Spanned::new(text, span)
}

// ---------------------------------------------------------------- items

fn build_item(pair: Pair<Rule>) -> Result<Item, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = children(pair);
    Ok(match rule {
        Rule::game => Item::Game(string_of(next_pair(&mut inner, "game name")?)),
        Rule::about => Item::About(string_of(next_pair(&mut inner, "about text")?)),
        Rule::players => {
            let min = int_of(&next_pair(&mut inner, "players")?)?;
            let max = inner.next().map(|p| int_of(&p)).transpose()?;
            let default = inner.next().map(|p| int_of(&p)).transpose()?;
            Item::Players(Spanned::new(Players { min, max, default }, span))
        }
        Rule::board => {
            let shape = next_pair(&mut inner, "board shape")?;
            let board = match shape.as_rule() {
                Rule::rows => build_rows(shape)?,
                rule => {
                    let mut parts = children(shape);
                    let pits = int_of(&next_pair(&mut parts, "pit count")?)?;
                    if rule == Rule::two_rows {
                        Board::TwoRows { pits, stores: parts.next().is_some() }
                    } else {
                        Board::Ring { pits }
                    }
                }
            };
            Item::Board(Spanned::new(board, span))
        }
        Rule::region_decl => {
            let name = name_of(&next_pair(&mut inner, "region name")?);
            let mut per_player = false;
            let mut labels = Vec::new();
            for part in inner {
                match part.as_rule() {
                    Rule::per_player => per_player = true,
                    _ => labels.push(name_of(&part)),
                }
            }
            Item::Region(Spanned::new(RegionDecl { name, per_player, labels }, span))
        }
        Rule::place_decl => {
            let name = name_of(&next_pair(&mut inner, "place name")?);
            let owner = next_pair(&mut inner, "place owner")?;
            let per_player = children(owner).next().map(|p| p.as_rule() == Rule::per_player).unwrap_or(false);
            Item::Place(Spanned::new(PlaceDecl { name, per_player }, span))
        }
        Rule::mark_decl => {
            let name = name_of(&next_pair(&mut inner, "mark name")?);
            let (mut per_player, mut one_ply, mut until_empty, mut plies) = (false, false, false, None);
            for p in inner {
                match p.as_rule() {
                    Rule::per_player => per_player = true,
                    Rule::until_empty => until_empty = true,
                    Rule::for_plies => {
                        plies = Some(int_of(&next_pair(&mut children(p), "plies")?)?);
                    }
                    _ => one_ply = true,
                }
            }
            Item::Mark(Spanned::new(MarkDecl { name, per_player, one_ply, plies, until_empty }, span))
        }
        Rule::pieces => {
            let body = next_pair(&mut inner, "pieces")?;
            let pieces = match body.as_rule() {
                Rule::seeds => Pieces::Seeds,
                Rule::colours => Pieces::PerPlayer(children(body).map(build_kind).collect::<Result<_, _>>()?),
                _ => Pieces::Kinds(children(body).map(build_kind).collect::<Result<_, _>>()?),
            };
            Item::Pieces(Spanned::new(pieces, span))
        }
        Rule::setup => Item::Setup(Spanned::new(inner.map(build_setup_line).collect::<Result<_, _>>()?, span)),
        Rule::turn => Item::Phase(Spanned::new(Phase { name: None, items: build_phase_items(inner)? }, span)),
        Rule::phase => {
            let name = name_of(&next_pair(&mut inner, "phase name")?);
            Item::Phase(Spanned::new(Phase { name: Some(name), items: build_phase_items(inner)? }, span))
        }
        Rule::end => Item::End(Spanned::new(build_end_items(inner)?, span)),
        Rule::rounds => Item::Rounds(Spanned::new(inner.map(build_rounds_item).collect::<Result<_, _>>()?, span)),
        Rule::score => Item::Score(build_term(next_pair(&mut inner, "score")?)?),
        Rule::winner => {
            let tie = match inner.next().map(|t| t.as_str().to_string()).as_deref() {
                Some("shared") => TieRule::Shared,
                Some(t) if t.starts_with("last") => TieRule::LastMover,
                _ => TieRule::Draw,
            };
            Item::Winner(Spanned::new(tie, span))
        }
        Rule::goal => Item::Goal(build_cond(next_pair(&mut inner, "goal")?)?),
        Rule::variant => {
            let name = string_of(next_pair(&mut inner, "variant name")?);
            let mut rest: Vec<Pair<Rule>> = inner.collect();
            let extends = match rest.first() {
                Some(p) if p.as_rule() == Rule::string => Some(string_of(rest.remove(0))),
                _ => None,
            };
            let items = rest.into_iter().map(build_item).collect::<Result<_, _>>()?;
            Item::Variant(Spanned::new(Variant { name, extends, items }, span))
        }
        other => return Err(SyntaxError::internal(&format!("unexpected item {other:?}"))),
    })
}

/// `rows R of N [with stores] [{ rows NAME, ... }]`.
fn build_rows(pair: Pair<Rule>) -> Result<Board, SyntaxError> {
    let mut parts = children(pair);
    let rows = int_of(&next_pair(&mut parts, "row count")?)?;
    let pits = int_of(&next_pair(&mut parts, "pit count")?)?;
    let mut stores = false;
    let mut names = Vec::new();
    for part in parts {
        match part.as_rule() {
            Rule::with_stores => stores = true,
            _ => names.extend(children(part).map(|n| name_of(&n))),
        }
    }
    Ok(Board::Rows { rows, pits, stores, names })
}

fn build_kind(pair: Pair<Rule>) -> Result<KindDecl, SyntaxError> {
    let span = span_of(&pair);
    let mut inner = children(pair);
    let name = name_of(&next_pair(&mut inner, "kind name")?);
    let symbol = string_of(next_pair(&mut inner, "kind symbol")?);
    let value = inner.next().map(|p| int_of(&p)).transpose()?;
    Ok(KindDecl { name, symbol, value, span })
}

fn build_setup_line(pair: Pair<Rule>) -> Result<SetupLine, SyntaxError> {
    let span = span_of(&pair);
    let is_mark = pair.as_rule() == Rule::setup_mark;
    let mut inner = children(pair);
    let targets = children(next_pair(&mut inner, "targets")?)
        .map(|t| {
            let tspan = span_of(&t);
            let first = children(t).next().ok_or_else(|| SyntaxError::internal("empty target"))?;
            Ok(Spanned::new(
                match first.as_rule() {
                    Rule::every => {
                        let n = children(first).next().ok_or_else(|| SyntaxError::internal("every"))?;
                        Target::Every(name_of(&n))
                    }
                    _ => Target::Label(name_of(&first)),
                },
                tspan,
            ))
        })
        .collect::<Result<_, SyntaxError>>()?;
    if is_mark {
        let mark = name_of(&next_pair(&mut inner, "setup mark")?);
        return Ok(SetupLine { targets, contents: Vec::new(), span, mark: Some(mark), exactly: false });
    }
    let mut inner = inner.peekable();
    let exactly = inner.next_if(|p| p.as_rule() == Rule::exactly).is_some();
    let contents = inner
        .map(|c| {
            let cspan = span_of(&c);
            let mut parts = children(c);
            let count = int_of(&next_pair(&mut parts, "count")?)?;
            let kind = parts.next().map(build_kind_sel).transpose()?;
            Ok(Spanned::new(Content { count, kind }, cspan))
        })
        .collect::<Result<_, SyntaxError>>()?;
    Ok(SetupLine { targets, contents, span, mark: None, exactly })
}

/// `mark PLACE as NAME[(PLAYER)]`, in a capture or a sowing.
fn build_mark_action(pair: Pair<Rule>) -> Result<MarkAction, SyntaxError> {
    let mut parts = children(pair);
    let place = build_place(next_pair(&mut parts, "mark place")?)?;
    let mark = name_of(&next_pair(&mut parts, "mark name")?);
    let player = parts.next().map(build_player).transpose()?;
    Ok(MarkAction { place, mark, player })
}

/// `unmark PLACE [NAME]`, in a capture or a sowing.
fn build_unmark(pair: Pair<Rule>) -> Result<Unmark, SyntaxError> {
    let mut parts = children(pair);
    let what = next_pair(&mut parts, "unmark place")?;
    let (place, set) = if what.as_rule() == Rule::set_fn {
        let span = span_of(&what);
        (Spanned::new(PlaceKind::Here, span), Some(build_set_or_place(what)?))
    } else {
        (build_place(what)?, None)
    };
    let mark = parts.next().map(|n| name_of(&n));
    Ok(Unmark { place, set, mark })
}

fn build_kind_sel(pair: Pair<Rule>) -> Result<Spanned<KindSel>, SyntaxError> {
    let span = span_of(&pair);
    let text = pair.as_str();
    let sel = match children(pair).next() {
        None if text == "own" => KindSel::Own,
        None if text == "foreign" => KindSel::Foreign,
        None => return Err(SyntaxError::internal("kind selector")),
        Some(inner) => match inner.as_rule() {
            Rule::player_word => KindSel::Player(build_player_word(&inner)),
            _ => {
                let mut parts = children(inner);
                let name = name_of(&next_pair(&mut parts, "kind name")?);
                let value = parts.next().map(|p| int_of(&p)).transpose()?;
                KindSel::Named { name, value }
            }
        },
    };
    Ok(Spanned::new(sel, span))
}

// ---------------------------------------------------------------- phases and actions

fn build_phase_items(pairs: Children) -> Result<Vec<PhaseItem>, SyntaxError> {
    pairs.map(build_phase_item).collect()
}

fn build_phase_item(pair: Pair<Rule>) -> Result<PhaseItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = children(pair);
    Ok(match rule {
        Rule::sow => {
            let mut name = None;
            let mut items = Vec::new();
            for p in inner {
                if p.as_rule() == Rule::name {
                    name = Some(name_of(&p));
                } else {
                    items.push(build_sow_item(p)?);
                }
            }
            PhaseItem::Sow(Spanned::new(Sow { name, items }, span))
        }
        Rule::put => PhaseItem::Put(Spanned::new(build_put(inner)?, span)),
        Rule::take_action => PhaseItem::Take(Spanned::new(build_take_action(inner)?, span)),
        Rule::offer => PhaseItem::Offer(Spanned::new(build_offer(inner)?, span)),
        Rule::pass => {
            let what = next_pair(&mut inner, "pass")?;
            let action = (what.as_rule() == Rule::action_ref).then(|| name_of(&what));
            let others = inner.filter(|p| p.as_rule() == Rule::action_ref).map(|p| name_of(&p)).collect();
            PhaseItem::Pass(Spanned::new(PassWhen { action, others }, span))
        }
        Rule::must => {
            let after = build_cond(next_pair(&mut inner, "must")?)?;
            let when = build_cond(next_pair(&mut inner, "must when")?)?;
            let otherwise =
                if next_pair(&mut inner, "must else")?.as_str() == "end" { MustElse::End } else { MustElse::Any };
            PhaseItem::Must(Spanned::new(Must { after, when, otherwise }, span))
        }
        Rule::until => PhaseItem::Until(build_cond(next_pair(&mut inner, "until")?)?),
        Rule::phase_again => PhaseItem::Again(Spanned::new(build_cond(next_pair(&mut inner, "again")?)?, span)),
        Rule::prefer => PhaseItem::Prefer(Spanned::new(inner.map(|p| name_of(&p)).collect(), span)),
        Rule::end => PhaseItem::End(Spanned::new(build_end_items(inner)?, span)),
        other => return Err(SyntaxError::internal(&format!("unexpected phase item {other:?}"))),
    })
}

fn build_sow_item(pair: Pair<Rule>) -> Result<SowItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let text = pair.as_str();
    let pair_again = pair.clone();
    let mut inner = children(pair);
    Ok(match rule {
        Rule::from => {
            let set = build_set(next_pair(&mut inner, "from set")?)?;
            let mut filter = None;
            let mut alternatives = Vec::new();
            for p in inner {
                match p.as_rule() {
                    Rule::filter => filter = Some(build_filter(p)?),
                    _ => {
                        let mut parts = children(p);
                        let set = build_set(next_pair(&mut parts, "else set")?)?;
                        let filter = parts.next().map(build_filter).transpose()?;
                        alternatives.push((set, filter));
                    }
                }
            }
            SowItem::From { set, filter, span, alternatives }
        }
        Rule::must_capture => SowItem::MustCapture(span),
        Rule::sow_take => SowItem::Take(Spanned::new(build_take_action(inner)?, span)),
        Rule::direction => {
            let word = next_pair(&mut inner, "direction")?;
            if word.as_rule() == Rule::lap_dir {
                let mut parts = children(word);
                let usual = dir_word_of(&next_pair(&mut parts, "direction")?);
                let other = dir_word_of(&next_pair(&mut parts, "other direction")?);
                let when = build_cond(next_pair(&mut parts, "direction condition")?)?;
                return Ok(SowItem::LapDirection(Spanned::new(LapDirection { usual, other, when }, span)));
            }
            let dir = match word.as_str() {
                "ccw" => DirWord::Ccw,
                "cw" => DirWord::Cw,
                _ => DirWord::Choose,
            };
            if let Some(filter) = inner.next() {
                return Ok(SowItem::DirectionWhere(Spanned::new((dir, build_filter(filter)?), span)));
            }
            SowItem::Direction(Spanned::new(dir, span))
        }
        Rule::order => SowItem::Order { last_own: inner.next().is_some(), span },
        Rule::skip => {
            let what = next_pair(&mut inner, "skip")?;
            let target = match what.as_rule() {
                Rule::origin => SkipTarget::Origin,
                Rule::skip_where => {
                    let mut parts = children(what);
                    let set = build_set(next_pair(&mut parts, "skip set")?)?;
                    let cond = build_filter(next_pair(&mut parts, "skip where")?)?;
                    SkipTarget::Where { set, cond, except_last: parts.next().is_some() }
                }
                _ => SkipTarget::Place(build_place(what)?),
            };
            SowItem::Skip(Spanned::new(target, span))
        }
        Rule::relay => {
            let first = next_pair(&mut inner, "relay")?;
            match first.as_rule() {
                Rule::from_next => {
                    SowItem::RelayFromNext(Spanned::new(build_cond(next_pair(&mut inner, "relay")?)?, span))
                }
                Rule::may_word => {
                    let mut next = next_pair(&mut inner, "relay")?;
                    let mut answers = None;
                    if next.as_rule() == Rule::answers {
                        answers = Some(build_answers(next));
                        next = next_pair(&mut inner, "relay")?;
                    }
                    SowItem::RelayMay { when: Spanned::new(build_cond(next)?, span), answers }
                }
                _ => SowItem::Relay(Spanned::new(build_cond(first)?, span)),
            }
        }
        Rule::lift => {
            let count = int_of(&next_pair(&mut inner, "lift count")?)?;
            let (mut from, mut when) = (None, None);
            for p in inner {
                match p.as_rule() {
                    Rule::place => from = Some(build_place(p)?),
                    _ => when = Some(build_cond(p)?),
                }
            }
            SowItem::Lift(Spanned::new(Lift { count, from, when }, span))
        }
        Rule::require => SowItem::Require(Spanned::new(build_cond(next_pair(&mut inner, "require")?)?, span)),
        Rule::again => SowItem::Again(Spanned::new(build_cond(next_pair(&mut inner, "again")?)?, span)),
        Rule::start_at => {
            let _origin = next_pair(&mut inner, "start at")?;
            SowItem::StartAt(Spanned::new(inner.next().map(build_cond).transpose()?, span))
        }
        Rule::lift_mark => SowItem::Mark(Spanned::new(build_mark_action(pair_again)?, span)),
        Rule::lift_unmark => SowItem::Unmark(Spanned::new(build_unmark(pair_again)?, span)),
        Rule::divert => {
            let mark = name_of(&next_pair(&mut inner, "divert mark")?);
            let to = build_place(next_pair(&mut inner, "divert target")?)?;
            SowItem::Divert(Spanned::new(Divert { mark, to }, span))
        }
        Rule::capture | Rule::answer => {
            let by_opponent = rule == Rule::answer;
            let mut when = None;
            let mut may = false;
            let mut answers = None;
            let mut every_drop = false;
            let mut every_lift = false;
            let mut items = Vec::new();
            for p in inner {
                let pspan = span_of(&p);
                match p.as_rule() {
                    Rule::may_word => may = true,
                    Rule::answers => answers = Some(build_answers(p)),
                    Rule::every_drop => every_drop = true,
                    Rule::every_lift => every_lift = true,
                    Rule::cond => when = Some(build_cond(p)?),
                    Rule::mark_action => items.push(CaptureItem::Mark(Spanned::new(build_mark_action(p)?, pspan))),
                    Rule::unmark => items.push(CaptureItem::Unmark(Spanned::new(build_unmark(p)?, pspan))),
                    Rule::give_place => {
                        let mut parts = children(p);
                        let place = build_place(next_pair(&mut parts, "give place")?)?;
                        let to = build_player(next_pair(&mut parts, "give to")?)?;
                        items.push(CaptureItem::Give(Spanned::new(GivePlace { place, to }, pspan)));
                    }
                    Rule::take => items.push(CaptureItem::Take(Spanned::new(build_take(children(p))?, pspan))),
                    Rule::capture_take => {
                        items.push(CaptureItem::Pick(Spanned::new(build_take_action(children(p))?, pspan)))
                    }
                    Rule::chain => {
                        let mut parts = children(p);
                        let dir = match next_pair(&mut parts, "chain direction")?.as_str() {
                            "backward" => ChainDir::Backward,
                            "forward" => ChainDir::Forward,
                            _ => ChainDir::Both,
                        };
                        let while_ = parts.next().map(build_cond).transpose()?;
                        items.push(CaptureItem::Chain(Spanned::new(Chain { dir, while_ }, pspan)));
                    }
                    Rule::cancel => {
                        let c = build_cond(next_pair(&mut children(p), "cancel")?)?;
                        items.push(CaptureItem::Cancel(Spanned::new(c, pspan)));
                    }
                    Rule::resow => {
                        let mut parts = children(p);
                        let mut first = next_pair(&mut parts, "sow from")?;
                        let into = first.as_rule() == Rule::resow_into;
                        if into {
                            first = next_pair(&mut parts, "sow into")?;
                        }
                        let place = build_place(first)?;
                        let dir = parts.next().map(|d| dir_word_of(&d));
                        // The plain form keeps its old shape in the syntax tree.
                        if !into && dir.is_none() {
                            items.push(CaptureItem::Sow(Spanned::new(place, pspan)));
                        } else {
                            items.push(CaptureItem::Resow(Spanned::new(Resow { place, into, dir }, pspan)));
                        }
                    }
                    Rule::go_on => {
                        let at = build_place(next_pair(&mut children(p), "continue at")?)?;
                        items.push(CaptureItem::ContinueAt(Spanned::new(at, pspan)));
                    }
                    other => return Err(SyntaxError::internal(&format!("capture item {other:?}"))),
                }
            }
            SowItem::Capture(Spanned::new(
                Capture { may, answers, every_drop, every_lift, by_opponent, when, items },
                span,
            ))
        }
        Rule::then => {
            let must = next_pair(&mut inner, "may/must")?.as_str() == "must";
            let mut kind = None;
            let mut next = next_pair(&mut inner, "then")?;
            if next.as_rule() == Rule::kind_sel {
                kind = Some(build_kind_sel(next)?);
                next = next_pair(&mut inner, "then set")?;
            }
            let set = build_set(next)?;
            let mut next = next_pair(&mut inner, "then target")?;
            let mut filter = None;
            if next.as_rule() == Rule::filter {
                filter = Some(build_filter(next)?);
                next = next_pair(&mut inner, "then target")?;
            }
            let to = build_place(next)?;
            SowItem::Then(Spanned::new(Then { must, kind, set, filter, to }, span))
        }
        Rule::then_mark => {
            let set = build_set(next_pair(&mut inner, "then mark set")?)?;
            let mark = name_of(&next_pair(&mut inner, "then mark name")?);
            let (mut player, mut filter) = (None, None);
            for p in inner {
                match p.as_rule() {
                    Rule::filter => filter = Some(build_filter(p)?),
                    _ => player = Some(build_player(p)?),
                }
            }
            SowItem::ThenMark(Spanned::new(ThenMark { set, mark, player, filter }, span))
        }
        other => return Err(SyntaxError::internal(&format!("unexpected sow item {other:?} in `{text}`"))),
    })
}

fn dir_word_of(pair: &Pair<Rule>) -> DirWord {
    if pair.as_str() == "cw" {
        DirWord::Cw
    } else {
        DirWord::Ccw
    }
}

fn build_filter(pair: Pair<Rule>) -> Result<Cond, SyntaxError> {
    build_cond(next_pair(&mut children(pair), "filter")?)
}

fn build_take(pairs: Children) -> Result<Take, SyntaxError> {
    let mut take = Take {
        count: None,
        kind: None,
        chosen: false,
        from: Vec::new(),
        filter: None,
        to: TakeTarget::Place(Spanned::new(PlaceKind::Here, Span::default())),
    };
    for p in pairs {
        match p.as_rule() {
            Rule::int => take.count = Some(int_of(&p)?),
            Rule::kind_sel => take.kind = Some(build_kind_sel(p)?),
            Rule::chosen => take.chosen = true,
            Rule::sources => {
                for places in children(p) {
                    let group = children(places).map(build_set_or_place).collect::<Result<Vec<_>, _>>()?;
                    take.from.push(group);
                }
            }
            Rule::filter => take.filter = Some(build_filter(p)?),
            Rule::to_each => take.to = TakeTarget::Each(build_set(next_pair(&mut children(p), "each")?)?),
            Rule::hand => take.to = TakeTarget::Hand,
            Rule::place => take.to = TakeTarget::Place(build_place(p)?),
            other => return Err(SyntaxError::internal(&format!("take part {other:?}"))),
        }
    }
    Ok(take)
}

fn build_put(pairs: Children) -> Result<Put, SyntaxError> {
    let mut name = None;
    let mut count = None;
    let mut kind = None;
    let mut from = None;
    let mut into = None;
    let mut filter = None;
    let mut times = None;
    for p in pairs {
        match p.as_rule() {
            Rule::name => name = Some(name_of(&p)),
            Rule::int => count = Some(int_of(&p)?),
            Rule::kind_sel => kind = Some(build_kind_sel(p)?),
            Rule::place => from = Some(build_place(p)?),
            Rule::set => into = Some(build_set(p)?),
            Rule::filter => filter = Some(build_filter(p)?),
            Rule::times => times = Some(build_range(p)?),
            other => return Err(SyntaxError::internal(&format!("put part {other:?}"))),
        }
    }
    let missing = || SyntaxError::internal("put");
    Ok(Put {
        name,
        count: count.ok_or_else(missing)?,
        kind,
        from: from.ok_or_else(missing)?,
        into: into.ok_or_else(missing)?,
        filter,
        times,
    })
}

fn build_take_action(pairs: Children) -> Result<TakeAction, SyntaxError> {
    let mut name = None;
    let mut count = None;
    let mut kind = None;
    let mut from = None;
    let mut filter = None;
    let mut to = None;
    for p in pairs {
        match p.as_rule() {
            Rule::name => name = Some(name_of(&p)),
            Rule::int => count = Some(int_of(&p)?),
            Rule::kind_sel => kind = Some(build_kind_sel(p)?),
            Rule::set => from = Some(build_set(p)?),
            Rule::filter => filter = Some(build_filter(p)?),
            Rule::place => to = Some(build_place(p)?),
            other => return Err(SyntaxError::internal(&format!("take part {other:?}"))),
        }
    }
    let missing = || SyntaxError::internal("take");
    Ok(TakeAction { name, count, kind, from: from.ok_or_else(missing)?, filter, to: to.ok_or_else(missing)? })
}

/// Reads `N`, `N..`, `N..M` from a pair holding an int and an optional `range_to`.
fn build_range(pair: Pair<Rule>) -> Result<Spanned<Range>, SyntaxError> {
    let span = span_of(&pair);
    let mut inner = children(pair);
    let min = int_of(&next_pair(&mut inner, "range")?)?.node;
    let max = match inner.next() {
        None => Some(min),
        Some(to) => children(to).next().map(|p| int_of(&p)).transpose()?.map(|n| n.node),
    };
    Ok(Spanned::new(Range { min, max }, span))
}

fn build_offer(pairs: Children) -> Result<Offer, SyntaxError> {
    let mut name = None;
    let mut choose = None;
    let mut requires = Vec::new();
    let mut on_accept = Vec::new();
    for p in pairs {
        let span = span_of(&p);
        match p.as_rule() {
            Rule::name => name = Some(name_of(&p)),
            Rule::offer_choose => choose = Some(p),
            Rule::require => requires.push(Spanned::new(build_cond(next_pair(&mut children(p), "require")?)?, span)),
            Rule::on_accept => {
                for e in children(p) {
                    let espan = span_of(&e);
                    match e.as_rule() {
                        Rule::take => on_accept.push(Effect::Take(Spanned::new(build_take(children(e))?, espan))),
                        _ => {
                            let who = build_player(next_pair(&mut children(e), "give")?)?;
                            on_accept.push(Effect::Give(Spanned::new(who, espan)))
                        }
                    }
                }
            }
            other => return Err(SyntaxError::internal(&format!("offer part {other:?}"))),
        }
    }
    let choose = choose.ok_or_else(|| SyntaxError::internal("offer choose"))?;
    let cspan = span_of(&choose);
    let mut parts = children(choose);
    let min = int_of(&next_pair(&mut parts, "offer size")?)?.node;
    let mut max = Some(min);
    let mut next = next_pair(&mut parts, "offer set")?;
    if next.as_rule() == Rule::range_to {
        max = children(next).next().map(|p| int_of(&p)).transpose()?.map(|n| n.node);
        next = next_pair(&mut parts, "offer set")?;
    }
    let from = build_set(next)?;
    let keeping = parts.next().map(|p| int_of(&p)).transpose()?;
    Ok(Offer { name, size: Spanned::new(Range { min, max }, cspan), from, keeping, requires, on_accept })
}

/// A rule of a `rounds { ... }` block.
fn build_rounds_item(pair: Pair<Rule>) -> Result<RoundsItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = children(pair);
    Ok(match rule {
        Rule::refill => {
            let set = build_set(next_pair(&mut inner, "refill set")?)?;
            let from = build_place(next_pair(&mut inner, "refill source")?)?;
            let count = int_of(&next_pair(&mut inner, "refill count")?)?;
            let (mut borrow, mut backward, mut claim, mut mark) = (None, false, None, None);
            for part in inner {
                match part.as_rule() {
                    Rule::refill_borrow => {
                        let mut parts = children(part);
                        let lacking = int_of(&next_pair(&mut parts, "borrow count")?)?;
                        borrow = Some((lacking, build_place(next_pair(&mut parts, "borrow source")?)?));
                    }
                    Rule::backward => backward = true,
                    Rule::refill_claim => claim = Some(build_place(next_pair(&mut children(part), "claim start")?)?),
                    _ => mark = children(part).next().map(|n| name_of(&n)),
                }
            }
            RoundsItem::Refill(Spanned::new(Refill { set, from, count, borrow, backward, claim, mark }, span))
        }
        Rule::first => {
            let word = next_pair(&mut inner, "first")?;
            let first = match word.as_str() {
                "winner" => FirstRule::Winner,
                "loser" => FirstRule::Loser,
                _ => FirstRule::Alternate,
            };
            RoundsItem::First(Spanned::new(first, span))
        }
        Rule::match_when => RoundsItem::MatchWhen(build_cond(next_pair(&mut inner, "match when")?)?),
        Rule::round_limit => RoundsItem::Limit(int_of(&next_pair(&mut inner, "round limit")?)?),
        other => return Err(SyntaxError::internal(&format!("unexpected rounds item {other:?}"))),
    })
}

fn build_end_items(pairs: Children) -> Result<Vec<EndItem>, SyntaxError> {
    pairs.map(build_end_item).collect()
}

fn build_end_item(pair: Pair<Rule>) -> Result<EndItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = children(pair);
    Ok(match rule {
        Rule::end_when => {
            let what = next_pair(&mut inner, "end when")?;
            let when = match what.as_rule() {
                Rule::repetition => EndWhen::Repetition,
                Rule::stuck => EndWhen::Stuck,
                Rule::nobody => EndWhen::NobodyCanMove,
                _ if inner.next().is_some() => EndWhen::AtEveryLap(build_cond(what)?),
                _ => EndWhen::Cond(build_cond(what)?),
            };
            EndItem::When(Spanned::new(when, span))
        }
        Rule::draw_when => {
            match inner.clone().next().map(|p| p.as_rule()) {
                Some(Rule::endless) => return Ok(EndItem::Endless(span)),
                Some(Rule::repetition) => return Ok(EndItem::DrawRepetition(span)),
                Some(Rule::cond) => {
                    return Ok(EndItem::DrawCond(Spanned::new(build_cond(next_pair(&mut inner, "draw when")?)?, span)))
                }
                _ => {}
            }
            let count = int_of(&next_pair(&mut inner, "draw count")?)?;
            let unit = if next_pair(&mut inner, "draw unit")?.as_str() == "rounds" {
                RoundUnit::Rounds
            } else {
                RoundUnit::Turns
            };
            EndItem::Draw(Spanned::new(DrawWhen { count, unit }, span))
        }
        Rule::eliminate => {
            let what = next_pair(&mut inner, "eliminate")?;
            let e = match what.as_rule() {
                Rule::cannot_move => Eliminate::CannotMove,
                Rule::endless => Eliminate::Endless,
                _ => Eliminate::Cond(build_cond(what)?),
            };
            EndItem::Eliminate(Spanned::new(e, span))
        }
        Rule::cut_when => EndItem::CutEndless(span),
        Rule::sweep => {
            let set = build_set(next_pair(&mut inner, "sweep set")?)?;
            let to = build_place(next_pair(&mut inner, "sweep target")?)?;
            let after = match inner.next() {
                Some(after) => {
                    let word = next_pair(&mut children(after), "ending")?;
                    let ending = match word.as_str() {
                        "repetition" => Ending::Repetition,
                        "stuck" => Ending::Stuck,
                        _ => Ending::Limit,
                    };
                    Some(Spanned::new(ending, span_of(&word)))
                }
                None => None,
            };
            EndItem::Sweep(Spanned::new(Sweep { set, to, after }, span))
        }
        Rule::limit => EndItem::Limit(int_of(&next_pair(&mut inner, "limit")?)?),
        other => return Err(SyntaxError::internal(&format!("unexpected end item {other:?}"))),
    })
}

// ---------------------------------------------------------------- conditions

fn build_cond(pair: Pair<Rule>) -> Result<Cond, SyntaxError> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::cond => build_cond(next_pair(&mut children(pair), "condition")?),
        Rule::disj | Rule::conj => {
            let is_or = pair.as_rule() == Rule::disj;
            let mut parts = children(pair).map(build_cond).collect::<Result<Vec<_>, _>>()?;
            if parts.len() == 1 {
                return parts.pop().ok_or_else(|| SyntaxError::internal("condition"));
            }
            Ok(Spanned::new(if is_or { CondKind::Or(parts) } else { CondKind::And(parts) }, span))
        }
        Rule::neg => {
            let mut nots = 0;
            let mut atom = None;
            for p in children(pair) {
                if p.as_rule() == Rule::not_op {
                    nots += 1;
                } else {
                    atom = Some(build_cond(p)?);
                }
            }
            let mut cond = atom.ok_or_else(|| SyntaxError::internal("negation"))?;
            // `not not not ...` nests without parentheses, so `check_nesting` cannot see it.
            if nots > MAX_NESTING {
                return Err(too_deep(span));
            }
            for _ in 0..nots {
                cond = Spanned::new(CondKind::Not(Box::new(cond)), span);
            }
            Ok(cond)
        }
        Rule::quant => {
            let mut inner = children(pair);
            let quant = match next_pair(&mut inner, "quantifier")?.as_str() {
                "all" => Quant::All,
                "any" => Quant::Any,
                _ => Quant::No,
            };
            let domain_pair = next_pair(&mut inner, "domain")?;
            let first = next_pair(&mut children(domain_pair), "domain")?;
            let domain =
                if first.as_rule() == Rule::players_word { Domain::Players } else { Domain::Set(build_set(first)?) };
            let body = build_cond(next_pair(&mut inner, "quantified condition")?)?;
            Ok(Spanned::new(CondKind::Quant { quant, domain, body: Box::new(body) }, span))
        }
        Rule::membership => {
            let mut inner = children(pair);
            let term = build_term(next_pair(&mut inner, "member")?)?;
            let what = next_pair(&mut inner, "membership")?;
            if what.as_rule() == Rule::int_set {
                let ints = children(what).map(|p| int_of(&p).map(|n| n.node)).collect::<Result<_, _>>()?;
                Ok(Spanned::new(CondKind::InInts { term, ints }, span))
            } else {
                Ok(Spanned::new(CondKind::InSet { term, set: build_set(what)? }, span))
            }
        }
        Rule::comparison => {
            let mut inner = children(pair);
            let lhs = build_term(next_pair(&mut inner, "left side")?)?;
            let op = match next_pair(&mut inner, "comparison")?.as_str() {
                "=" => CmpOp::Eq,
                "!=" => CmpOp::Ne,
                "<" => CmpOp::Lt,
                "<=" => CmpOp::Le,
                ">" => CmpOp::Gt,
                _ => CmpOp::Ge,
            };
            let rhs = build_term(next_pair(&mut inner, "right side")?)?;
            Ok(Spanned::new(CondKind::Cmp { lhs, op, rhs }, span))
        }
        Rule::capturing => Ok(Spanned::new(CondKind::Capturing, span)),
        Rule::direction_is => {
            let mut inner = children(pair);
            let eq = next_pair(&mut inner, "comparison")?.as_str() == "=";
            let dir = dir_word_of(&next_pair(&mut inner, "direction")?);
            Ok(Spanned::new(CondKind::Direction { dir, eq }, span))
        }
        other => Err(SyntaxError::internal(&format!("unexpected condition {other:?}"))),
    }
}

fn build_term(pair: Pair<Rule>) -> Result<Term, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let text = pair.as_str();
    if rule == Rule::int {
        return Ok(Spanned::new(TermKind::Int(int_of(&pair)?.node), span));
    }
    if matches!(rule, Rule::term | Rule::product) && pair.clone().into_inner().any(|p| is_inverse_op(p.as_rule())) {
        return build_arithmetic(pair);
    }
    let mut inner = children(pair);
    let kind = match rule {
        Rule::term | Rule::product => {
            let mut parts = inner.map(build_term).collect::<Result<Vec<_>, _>>()?;
            if parts.len() == 1 {
                return parts.pop().ok_or_else(|| SyntaxError::internal("term"));
            }
            if rule == Rule::term {
                TermKind::Add(parts)
            } else {
                TermKind::Mul(parts)
            }
        }
        Rule::count_fn => {
            let arg = match inner.next() {
                None => None,
                Some(p) => Some(match p.as_rule() {
                    Rule::kind_sel => CountArg::Kind(build_kind_sel(p)?),
                    _ => CountArg::Set(build_set_or_place(p)?),
                }),
            };
            let kind = inner.next().map(build_kind_sel).transpose()?;
            TermKind::Count { arg, kind }
        }
        Rule::value_fn => TermKind::Value(build_set_or_place(next_pair(&mut inner, "value")?)?),
        Rule::before_fn => TermKind::Before(inner.next().map(build_place).transpose()?),
        Rule::dropped_fn => TermKind::Dropped(inner.next().map(build_place).transpose()?),
        Rule::size_fn => {
            let set = build_set(next_pair(&mut inner, "size")?)?;
            match inner.find(|p| p.as_rule() == Rule::filter) {
                Some(filter) => TermKind::SizeWhere(set, Box::new(build_filter(filter)?)),
                None => TermKind::Size(set),
            }
        }
        Rule::number_fn => TermKind::Number(inner.next().map(build_place).transpose()?),
        Rule::owner_fn => TermKind::Player(Spanned::new(
            PlayerKind::Owner(inner.next().map(build_place).transpose()?.map(Box::new)),
            span,
        )),
        Rule::player_word => TermKind::Player(Spanned::new(player_kind(text), span)),
        Rule::place => TermKind::Place(build_place_inner(span, inner)?),
        Rule::kind_word => TermKind::Kind(if text == "own" { KindSel::Own } else { KindSel::Foreign }),
        Rule::lifted => TermKind::Lifted,
        Rule::lap_word => TermKind::Lap,
        Rule::round_word => TermKind::Round,
        Rule::passed_fn => TermKind::Passed(Box::new(build_place(next_pair(&mut inner, "passed")?)?)),
        Rule::captures_fn => TermKind::Captures(build_player(next_pair(&mut inner, "captures")?)?),
        Rule::moves_fn => TermKind::Moves(build_player(next_pair(&mut inner, "moves")?)?),
        Rule::seat_fn => TermKind::Seat(build_player(next_pair(&mut inner, "seat")?)?),
        other => return Err(SyntaxError::internal(&format!("unexpected term {other:?}"))),
    };
    Ok(Spanned::new(kind, span))
}

/// `-`, `/` and `%`: the operators that do not gather their operands into one list as `+` and `*` do.
fn is_inverse_op(rule: Rule) -> bool {
    matches!(rule, Rule::minus | Rule::slash | Rule::percent)
}

/// A sum or product with `-`, `/` or `%` in it, read from the left: `a - b + c` is `(a - b) + c`, and a run
/// of `+` (or `*`) still makes one list, as it does without them.
fn build_arithmetic(pair: Pair<Rule>) -> Result<Term, SyntaxError> {
    // Operands and operators in turn; the parentheses around an operand are tokens of no meaning.
    let mut inner = pair.into_inner().filter(|p| !matches!(p.as_rule(), Rule::lparen | Rule::rparen));
    let mut acc = build_term(next_pair(&mut inner, "operand")?)?;
    // Whether `acc` is a list this fold made (and may extend), not one written in parentheses.
    let mut open_list = false;
    while let Some(op) = inner.next() {
        let rhs = build_term(next_pair(&mut inner, "operand")?)?;
        let span = Span::new(acc.span.start, rhs.span.end);
        let kind = match (op.as_rule(), acc.node) {
            (Rule::plus, TermKind::Add(mut parts)) if open_list => {
                parts.push(rhs);
                TermKind::Add(parts)
            }
            (Rule::star, TermKind::Mul(mut parts)) if open_list => {
                parts.push(rhs);
                TermKind::Mul(parts)
            }
            (Rule::plus, node) => TermKind::Add(vec![Spanned::new(node, acc.span), rhs]),
            (Rule::star, node) => TermKind::Mul(vec![Spanned::new(node, acc.span), rhs]),
            (Rule::minus, node) => TermKind::Sub(Box::new(Spanned::new(node, acc.span)), Box::new(rhs)),
            (Rule::slash, node) => TermKind::Div(Box::new(Spanned::new(node, acc.span)), Box::new(rhs)),
            (Rule::percent, node) => TermKind::Rem(Box::new(Spanned::new(node, acc.span)), Box::new(rhs)),
            (other, _) => return Err(SyntaxError::internal(&format!("unexpected operator {other:?}"))),
        };
        open_list = matches!(op.as_rule(), Rule::plus | Rule::star);
        acc = Spanned::new(kind, span);
    }
    Ok(acc)
}

fn player_kind(text: &str) -> PlayerKind {
    match text {
        "mover" => PlayerKind::Mover,
        "opponent" => PlayerKind::Opponent,
        _ => PlayerKind::Player,
    }
}

fn build_player_word(pair: &Pair<Rule>) -> PlayerRef {
    Spanned::new(player_kind(pair.as_str()), span_of(pair))
}

fn build_player(pair: Pair<Rule>) -> Result<PlayerRef, SyntaxError> {
    let span = span_of(&pair);
    let inner = next_pair(&mut children(pair), "player")?;
    if inner.as_rule() == Rule::player_word {
        return Ok(build_player_word(&inner));
    }
    let place = children(inner).next().map(build_place).transpose()?.map(Box::new);
    Ok(Spanned::new(PlayerKind::Owner(place), span))
}

fn build_place(pair: Pair<Rule>) -> Result<Place, SyntaxError> {
    let span = span_of(&pair);
    build_place_inner(span, children(pair))
}

fn build_place_inner(span: Span, mut inner: Children) -> Result<Place, SyntaxError> {
    let what = next_pair(&mut inner, "place")?;
    let kind = match what.as_rule() {
        Rule::here => PlaceKind::Here,
        Rule::last => PlaceKind::Last,
        Rule::origin => PlaceKind::Origin,
        Rule::opposite => PlaceKind::Opposite(children(what).next().map(build_place).transpose()?.map(Box::new)),
        Rule::twin => PlaceKind::Twin(children(what).next().map(build_place).transpose()?.map(Box::new)),
        Rule::next => PlaceKind::Next(children(what).next().map(build_place).transpose()?.map(Box::new)),
        Rule::previous => PlaceKind::Previous(children(what).next().map(build_place).transpose()?.map(Box::new)),
        Rule::behind => PlaceKind::Behind(children(what).next().map(build_place).transpose()?.map(Box::new)),
        Rule::ahead => PlaceKind::Ahead(children(what).next().map(build_place).transpose()?.map(Box::new)),
        Rule::start => PlaceKind::Start,
        _ => {
            let mut parts = children(what);
            let name = name_of(&next_pair(&mut parts, "place name")?);
            let player = parts.next().map(build_player).transpose()?;
            PlaceKind::Named { name, player }
        }
    };
    Ok(Spanned::new(kind, span))
}

fn build_set(pair: Pair<Rule>) -> Result<SetExpr, SyntaxError> {
    match pair.as_rule() {
        Rule::set => build_set_or_place(next_pair(&mut children(pair), "set")?),
        _ => build_set_or_place(pair),
    }
}

fn build_set_or_place(pair: Pair<Rule>) -> Result<SetExpr, SyntaxError> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::set => build_set(pair),
        Rule::set_fn => {
            let inner = next_pair(&mut children(pair), "set")?;
            Ok(Spanned::new(
                match inner.as_rule() {
                    Rule::offered => SetKind::Offered,
                    Rule::taken_first => SetKind::TakenFirst,
                    Rule::threats => SetKind::Threats(build_player(next_pair(&mut children(inner), "threats")?)?),
                    Rule::facing => SetKind::Facing(children(inner).next().map(build_place).transpose()?),
                    _ => SetKind::Pits(children(inner).next().map(build_player).transpose()?),
                },
                span,
            ))
        }
        Rule::place => Ok(Spanned::new(SetKind::Place(build_place(pair)?), span)),
        other => Err(SyntaxError::internal(&format!("unexpected set {other:?}"))),
    }
}
