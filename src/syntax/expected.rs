//! What may come next at a place in a file, for editors (completion in the language server and the
//! playground).

use super::*;

/// What the grammar can read at a point of a file: the keywords, and the kinds of names, that an editor
/// may offer there (`ide`'s completion).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Expected {
    /// The keywords that may stand there, sorted, each once.
    pub keywords: Vec<&'static str>,
    /// The kinds of names that may stand there.
    pub slots: Vec<Slot>,
}

/// A kind of name the grammar expects.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Slot {
    /// A new or declared name (a declaration, a mark in `mark here as NAME`).
    Name,
    /// A place, a region, a row, a mark, or a pit's label.
    Place,
    /// A kind of piece.
    Kind,
    /// An action of the phase (`pass when cannot NAME`, `prefer`).
    Action,
    /// A pit's label (in a region or the setup).
    Label,
    /// A quoted string (a variant's name after `extends`).
    String,
}

/// What may come at `offset`, judged from the text before it alone (so an unfinished file is fine).
///
/// The text before `offset` is parsed with a character no rule reads put after it: where everything
/// before reads well, pest's error is at `offset` and its expected rules are what may come. Where an
/// earlier part does not read, the item that `offset` is in is read alone (from the last line that starts
/// with an item's keyword). `None` when neither reads up to `offset`, or `offset` is inside a word, a
/// string or a comment.
pub fn expected_at(source: &str, offset: usize) -> Option<Expected> {
    let before = source.get(..offset)?;
    if before.len() > MAX_SOURCE_BYTES || check_nesting(before).is_err() {
        return None;
    }
    let item_start = last_item_start(before).unwrap_or(0);
    let positives = positives_at(before).or_else(|| positives_at(&before[item_start..]))?;
    let mut expected = Expected::default();
    for rule in positives.iter().map(|r| lead_rule(*r)) {
        expected.keywords.extend(rule_keywords(rule).iter().copied().filter(|w| w.len() > 1));
        expected.slots.extend(rule_slot(rule));
        if matches!(rule, Rule::cond | Rule::disj | Rule::conj | Rule::neg | Rule::quant) {
            expected.keywords.extend(["capturing", "direction", "players"]);
        }
        if matches!(rule, Rule::cond | Rule::term | Rule::product | Rule::disj | Rule::conj | Rule::neg) {
            expected.keywords.extend(TERM_WORDS);
            expected.slots.extend([Slot::Place, Slot::Kind]);
        }
    }
    // Plain strings of a rule (`and`, `or`; `ties draw|shared`; a kind `own|foreign`), which pest leaves out
    // of its expected rules: try them.
    for word in ["and", "or", "draw", "shared", "own", "foreign"] {
        if reads_past(before, word) {
            expected.keywords.push(word);
        }
    }
    // Right after `take`, pest reports the words after its optional count and kind (`chosen`, `from`), not
    // the kind: add what a kind may be.
    let last_word = before.trim_end().rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).next();
    if last_word == Some("take") && expected.keywords.contains(&"from") {
        expected.keywords.extend(["own", "foreign", "mover", "opponent", "player"]);
        expected.slots.push(Slot::Kind);
    }
    expected.keywords.sort_unstable();
    expected.keywords.dedup();
    expected.slots.sort_unstable();
    expected.slots.dedup();
    Some(expected)
}

/// The words that may start a number or a count.
pub(super) const TERM_WORDS: &[&str] = &[
    "count", "value", "before", "dropped", "size", "owner", "number", "lifted", "lap", "round", "passed", "captures",
    "mover", "opponent", "player", "own", "foreign", "here", "last", "origin", "opposite", "twin", "next",
];

/// The rules pest expected at the end of `text`, or `None` when it stopped reading earlier.
pub(super) fn positives_at(text: &str) -> Option<Vec<Rule>> {
    // U+0000 is never part of a token, so the parse fails there at the latest.
    let probe = format!("{text}\u{0}");
    match MancalaParser::parse(Rule::file, &probe) {
        Ok(_) => None,
        Err(e) => {
            let pos = match e.location {
                InputLocation::Pos(p) => p,
                InputLocation::Span((s, _)) => s,
            };
            match e.variant {
                ErrorVariant::ParsingError { positives, .. } if pos == text.len() => Some(positives),
                _ => None,
            }
        }
    }
}

/// Whether the grammar reads `word` at the end of `text` (and fails only after it).
pub(super) fn reads_past(text: &str, word: &str) -> bool {
    let probe = format!("{text} {word} \u{0}");
    match MancalaParser::parse(Rule::file, &probe) {
        Ok(_) => true,
        Err(e) => match e.location {
            InputLocation::Pos(p) | InputLocation::Span((p, _)) => p > text.len() + word.len(),
        },
    }
}

/// Where the last line that starts with an item's keyword starts.
pub(super) fn last_item_start(text: &str) -> Option<usize> {
    let mut at = text.len();
    loop {
        let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
        if MancalaParser::parse(Rule::item_start, &text[line..]).is_ok() {
            return Some(line);
        }
        if line == 0 {
            return None;
        }
        at = line - 1;
    }
}

/// The kind of name a rule reads, if it reads one.
pub(super) fn rule_slot(rule: Rule) -> Option<Slot> {
    Some(match rule {
        Rule::name => Slot::Name,
        Rule::action_ref | Rule::move_word => Slot::Action,
        Rule::place | Rule::named_place | Rule::set | Rule::sources | Rule::places | Rule::domain => Slot::Place,
        Rule::term | Rule::product | Rule::cond | Rule::disj | Rule::conj | Rule::neg => Slot::Place,
        Rule::count_fn => Slot::Kind,
        Rule::kind_sel | Rule::kind_name => Slot::Kind,
        Rule::label | Rule::target | Rule::targets | Rule::setup_line => Slot::Label,
        Rule::string => Slot::String,
        _ => return None,
    })
}
