//! Syntax errors in words: pest's expected rules turned into the language's words, and hints for the
//! common mistakes (a misspelt keyword, `=` for `:`, an unclosed string or brace).

use super::*;

pub(super) fn syntax_error(source: &str, e: pest::error::Error<Rule>) -> SyntaxError {
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    match &e.variant {
        ErrorVariant::ParsingError { positives, negatives } => unexpected(source, pos, positives, negatives),
        // pest's own guards: the native stack or its call budget ran out.
        ErrorVariant::CustomError { message } if message.contains("limit reached") => too_deep(Span::new(pos, pos)),
        ErrorVariant::CustomError { message } => SyntaxError {
            code: SyntaxCode::Unexpected,
            message: message.clone(),
            span: Span::new(pos, pos),
            label: "here".into(),
            help: None,
            related: Vec::new(),
            suggestion: None,
        },
    }
}

/// What stands at an error's position, for messages.
pub(super) enum Found<'s> {
    End,
    EndOfLine,
    Token(&'s str),
}

impl Found<'_> {
    pub(super) fn describe(&self) -> String {
        match self {
            Found::End => "end of file".into(),
            Found::EndOfLine => "end of line".into(),
            Found::Token(t) => format!("`{t}`"),
        }
    }
    pub(super) fn len(&self) -> usize {
        match self {
            Found::End => 0,
            Found::EndOfLine => 1,
            Found::Token(t) => t.len(),
        }
    }
    fn text(&self) -> &str {
        match self {
            Found::Token(t) => t,
            _ => "",
        }
    }
}

/// The token at `pos`: a word or number, a comparison, or one character.
pub(super) fn found_at(source: &str, pos: usize) -> Found<'_> {
    let rest = source.get(pos..).unwrap_or("");
    let Some(c) = rest.chars().next() else {
        return Found::End;
    };
    if c == '\n' || c == '\r' {
        return Found::EndOfLine;
    }
    let len = if c.is_alphanumeric() || c == '_' {
        rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len())
    } else if "=!<>".contains(c) {
        rest.find(|c: char| !"=!<>".contains(c)).unwrap_or(rest.len())
    } else {
        c.len_utf8()
    };
    Found::Token(&rest[..len])
}

pub(super) fn unexpected(source: &str, pos: usize, positives: &[Rule], negatives: &[Rule]) -> SyntaxError {
    let positives: Vec<Rule> = positives.iter().map(|&r| lead_rule(r)).collect();
    let positives = &positives[..];
    let found = found_at(source, pos);
    // At the end of the file, point just after the last word rather than at an empty last line.
    let pos = if matches!(found, Found::End) { source.trim_end().len() } else { pos };
    let mut span = Span::new(pos, pos + found.len());
    if positives.contains(&Rule::quote) && matches!(found, Found::End | Found::EndOfLine) {
        let open = source[..pos].rfind('"').unwrap_or(pos);
        return SyntaxError {
            code: SyntaxCode::UnterminatedString,
            message: "this string is never closed".into(),
            span: Span::new(open, pos),
            label: "no closing `\"` on this line".into(),
            help: Some("a string ends with `\"` on the line where it starts".into()),
            related: Vec::new(),
            suggestion: None,
        };
    }
    if let Some(e) = word_cut_short(source, pos, &found) {
        return e;
    }
    if let Some(e) = unknown_relation(source, pos, positives, &found) {
        return e;
    }
    let words = expected_words(positives);
    let names_expected = ["a name", "a place", "a set of places (`pits`, `pits(mover)`, ...)", "a kind of piece"];
    let keyword_as_name = is_keyword(found.text())
        && (negatives.contains(&Rule::keyword) || words.iter().any(|w| names_expected.contains(w)));
    let label = match (keyword_as_name, words.is_empty()) {
        (true, true) => "expected a name, found a keyword".to_string(),
        (true, false) if words.contains(&"a name") => "expected a name, found a keyword".to_string(),
        (false, true) => "not understood here".to_string(),
        (_, false) => format!("expected {}", one_of(&words)),
    };
    let mut related = Vec::new();
    let mut help = None;
    let mut suggestion = None;
    let mut message = format!("unexpected {}", found.describe());
    if positives.contains(&Rule::rbrace) {
        let (labels, brace_help) = unclosed_brace(source, pos);
        // The innermost open brace is worth showing when a `}` is the likely fix: at the end of the file,
        // at a top-level keyword, or when the indentation says so.
        let top_level = [
            "game", "players", "board", "place", "pieces", "setup", "turn", "phase", "score", "winner", "goal",
            "variant",
        ];
        if brace_help.is_some() || matches!(found, Found::End) || top_level.contains(&found.text()) {
            related = labels;
        }
        help = brace_help;
        if help.is_none() && matches!(found, Found::End) {
            help = Some("the file ends inside a block: a `}` is missing".into());
        }
    }
    // `count => 1`: the `=` was read as a comparison, the `>` is what failed.
    if source[..pos].ends_with('=') && (found.text().starts_with('>') || found.text().starts_with('<')) {
        span = Span::new(pos - 1, pos + 1);
        let fix = if found.text().starts_with('>') { ">=" } else { "<=" };
        help = Some(format!("did you mean `{fix}`?"));
        suggestion = Some(Box::new(Suggestion { span, replacement: fix.to_string() }));
        message = format!("unexpected `={}`", found.text());
    }
    if keyword_as_name {
        help = Some(format!(
            "`{}` is a keyword of the language and cannot be used as a name; choose another name",
            found.text()
        ));
    }
    // What the construct at hand takes, where a keyword is not a name being written (`skip pits(...)`).
    if let Some(h) = construct_hint(source, pos, &words, &found) {
        help = Some(h);
    }
    if let Some((word, function)) = misspelt_function(source, pos) {
        help = Some(format!("`{}` is not a function of the language: did you mean `{function}`?", word.node));
        suggestion = Some(Box::new(Suggestion { span: word.span, replacement: function.to_string() }));
        related.push((word.span, "not a function".into()));
    }
    if help.is_none() {
        suggestion = misspelt_keyword(positives, found.text())
            .map(|k| Box::new(Suggestion { span, replacement: k.to_string() }));
    }
    let help = help.or_else(|| hint(source, pos, positives, &words, found.text()));
    SyntaxError { code: SyntaxCode::Unexpected, message, span, label: label.into(), help, related, suggestion }
}

/// A hint about the construct the error is in, where the usual hints would mislead: after `skip`, a set without
/// `where` or a condition without a set (`skip pits(opponent)`, `skip when ...`); `to hand` outside a capture's
/// take.
fn construct_hint(source: &str, pos: usize, words: &[&str], found: &Found) -> Option<String> {
    // The line of the last word before the error: `skip pits(opponent)` then `}` on the next line is still
    // about the `skip`.
    let before = source[..pos].trim_end();
    let last_line = before.rfind('\n').map_or(0, |i| i + 1);
    let first_word = source[last_line..before.len()].split_whitespace().next();
    if first_word == Some("skip") {
        return Some(
            "`skip` takes one place, `origin`, a mark's name, or a set of pits with a condition tested at each drop: \
             `skip origin`, `skip store(opponent)`, `skip burnt` (every pit carrying the mark `burnt`), `skip \
             pits(opponent) where count = 2` (add `except last` for the last piece to fall there all the same)"
                .into(),
        );
    }
    if found.text() == "hand" && words.contains(&"a place") {
        return Some(
            "`to hand` exists only in a capture's `take`, whose pieces its `sow from PLACE` sows on; here the \
             pieces go to a place, such as `to store(mover)`"
                .into(),
        );
    }
    None
}

/// An error inside a word: a keyword matched its start and the rest did not fit (`ties draww`, `direction
/// cwc`). The whole word is what the user wrote, so the error is about it, with the nearest keyword.
pub(super) fn word_cut_short(source: &str, pos: usize, found: &Found) -> Option<SyntaxError> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let before = source[..pos].chars().next_back()?;
    if !is_word(before) || !found.text().starts_with(is_word) {
        return None;
    }
    let start = source[..pos].char_indices().rev().take_while(|&(_, c)| is_word(c)).last().map_or(pos, |(i, _)| i);
    let word = &source[start..pos + found.len()];
    let nearest = did_you_mean(word, crate::keywords::KEYWORDS.iter().map(|k| k.word));
    Some(SyntaxError {
        code: SyntaxCode::Unexpected,
        message: format!("unexpected `{word}`"),
        span: Span::new(start, pos + found.len()),
        label: if nearest.is_some() { "not a keyword".into() } else { "not understood here".into() },
        help: nearest.map(|k| format!("did you mean `{k}`?")),
        related: Vec::new(),
        suggestion: nearest
            .map(|k| Box::new(Suggestion { span: Span::new(start, pos + found.len()), replacement: k.to_string() })),
    })
}

/// The relations of places: each takes a place in parentheses and names a place (or, `facing`, a set).
pub(crate) const RELATIONS: &[&str] = &["opposite", "twin", "next", "behind", "ahead", "facing"];

/// `beside(next)`: a word that is no function before a `(`, followed by a place where only a player could
/// stand (`NAME(PLAYER)` is a player's place). The word was meant as a relation of places: the error names
/// it and lists the relations there are, instead of asking for a player.
pub(super) fn unknown_relation(source: &str, pos: usize, positives: &[Rule], found: &Found) -> Option<SyntaxError> {
    if !positives.contains(&Rule::player) || !found.text().starts_with(|c: char| c.is_alphanumeric()) {
        return None;
    }
    let before = source[..pos].trim_end().strip_suffix('(')?.trim_end();
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_alphanumeric() || c == '_' || c == '-')
        .last()
        .map(|(i, _)| i)?;
    let word = &before[start..];
    if is_keyword(word) || did_you_mean(word, FUNCTIONS.iter().copied()).is_some() {
        return None;
    }
    let listed: Vec<String> = RELATIONS.iter().map(|r| format!("`{r}(PLACE)`")).collect();
    let nearest = did_you_mean(word, RELATIONS.iter().copied());
    let help = match nearest {
        Some(r) => format!("did you mean `{r}`? The relations of places are {}", listed.join(", ")),
        None => format!(
            "the relations of places are {}; `{word}(PLAYER)` would be a player's place, such as `store(mover)`",
            listed.join(", ")
        ),
    };
    Some(SyntaxError {
        code: SyntaxCode::Unexpected,
        message: format!("there is no relation called `{word}`"),
        span: Span::new(start, before.len()),
        label: "not a relation of places".into(),
        help: Some(help),
        related: vec![(Span::new(pos, pos + found.len()), "a place, where a player was expected".into())],
        suggestion: nearest
            .map(|r| Box::new(Suggestion { span: Span::new(start, before.len()), replacement: r.to_string() })),
    })
}

/// The functions of the language, which take a place or a player in parentheses: `count(opposite)`.
pub(crate) const FUNCTIONS: &[&str] = &[
    "count", "value", "before", "dropped", "size", "owner", "opposite", "pits", "twin", "facing", "number", "threats",
];

/// A word just before the `(` that the error follows, when it is not a keyword but close to a function:
/// `cuont(opposite)` reads as a place of a player, and fails at `opposite`.
pub(super) fn misspelt_function(source: &str, pos: usize) -> Option<(Spanned<String>, &'static str)> {
    let before = source[..pos].trim_end().strip_suffix('(')?.trim_end();
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| c.is_alphanumeric() || c == '_' || c == '-')
        .last()
        .map(|(i, _)| i)?;
    let word = &before[start..];
    if is_keyword(word) {
        return None;
    }
    let function = did_you_mean(word, FUNCTIONS.iter().copied())?;
    Some((Spanned::new(word.to_string(), Span::new(start, before.len())), function))
}

/// The words for what the parser expected, shortest list first: `+`, `*` and `..` that could only extend
/// something already complete are left out when anything else was possible.
pub(super) fn expected_words(positives: &[Rule]) -> Vec<&'static str> {
    // Inside a variant, the items that may follow are the ones a variant can change.
    let in_variant = positives.contains(&Rule::about) && !positives.contains(&Rule::game);
    let mut words: Vec<&str> = positives
        .iter()
        .filter_map(|r| match r {
            Rule::about
            | Rule::players
            | Rule::board
            | Rule::region_decl
            | Rule::setup
            | Rule::turn
            | Rule::phase
            | Rule::end
            | Rule::rounds
            | Rule::score
            | Rule::winner
            | Rule::goal
                if in_variant =>
            {
                Some(VARIANT_ITEMS)
            }
            _ => rule_word(*r),
        })
        .collect();
    words.sort_unstable();
    words.dedup();
    let extensions = ["`+`", "`-`", "`*`", "`/`", "`%`", "`..`", "the end of the file"];
    if words.iter().any(|w| !extensions.contains(w)) {
        words.retain(|w| !extensions.contains(w) || (*w == "the end of the file" && !words_have_items(positives)));
    }
    words
}

pub(super) const VARIANT_ITEMS: &str =
    "an item a variant can change (`about`, `players`, `board`, `region`, `setup`, `turn`, `phase`, `end`, `rounds`, `score`, `winner`, `goal`)";

pub(super) fn words_have_items(positives: &[Rule]) -> bool {
    positives.contains(&Rule::game) || positives.contains(&Rule::about)
}

pub(super) fn one_of(words: &[&str]) -> String {
    match words {
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
        [] => String::new(),
    }
}

pub(super) fn hint(source: &str, pos: usize, positives: &[Rule], words: &[&str], found: &str) -> Option<String> {
    let expects = |w: &str| words.contains(&w);
    match found {
        "=" if expects("`:`") => return Some("setup lines use a colon: `every pit: 4`".into()),
        "==" => return Some("write `=` to compare: `count = 2`".into()),
        "=>" => return Some("did you mean `>=`?".into()),
        "=<" => return Some("did you mean `<=`?".into()),
        ";" => return Some("rules need no `;` between them: remove it".into()),
        _ => {}
    }
    if let Some(k) = misspelt_keyword(positives, found) {
        return Some(format!("did you mean `{k}`?"));
    }
    if expects(VARIANT_ITEMS) && ["pieces", "place", "mark", "game", "variant"].contains(&found) {
        return Some(format!("a variant cannot change the `{found}`: write another game file for that"));
    }
    if expects("a top-level item") && source[..pos].trim().trim_start_matches('\u{FEFF}').is_empty() {
        return Some("a rule file starts with `game \"Name\"`, then `players`, `board`, `pieces`, `setup`, `turn`, `end` and `score`".into());
    }
    if expects("a top-level item") {
        return Some("the items of a file are `game`, `about`, `players`, `board`, `place`, `pieces`, `setup`, `turn`, `phase`, `end`, `score`, `winner`, `goal` and `variant`".into());
    }
    None
}

/// The keyword that a misspelt word most likely is, among those the parser expected.
pub(super) fn misspelt_keyword(positives: &[Rule], found: &str) -> Option<&'static str> {
    if !found.starts_with(|c: char| c.is_alphabetic() || c == '_') {
        return None;
    }
    did_you_mean(found, positives.iter().flat_map(|r| rule_keywords(*r).iter().copied()))
}

/// For an error that a `}` could fix: the brace that is probably not closed, and a hint.
///
/// A `}` indented differently from the line of the `{` it closes suggests that an inner `{` lost its `}`
/// (rustc's trick); otherwise we point at the innermost `{` still open.
pub(super) fn unclosed_brace(source: &str, pos: usize) -> (Vec<(Span, String)>, Option<String>) {
    let line_start = |at: usize| source[..at].rfind('\n').map_or(0, |i| i + 1);
    let indent_of = |at: usize| source[line_start(at)..].chars().take_while(|c| *c == ' ' || *c == '\t').count();
    let first_on_line = |at: usize| source[line_start(at)..at].trim().is_empty();
    let mut open: Vec<usize> = Vec::new();
    let mut mismatch: Option<(usize, usize)> = None;
    let (mut in_comment, mut in_string) = (false, false);
    for (i, c) in source[..pos.min(source.len())].char_indices() {
        match c {
            '\n' => (in_comment, in_string) = (false, false),
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => in_comment = true,
            '{' => open.push(i),
            '}' => {
                if let Some(o) = open.pop() {
                    if mismatch.is_none() && first_on_line(i) && indent_of(i) != indent_of(o) {
                        mismatch = Some((o, i));
                    }
                }
            }
            _ => {}
        }
    }
    match (mismatch, open.last()) {
        (Some((o, c)), _) => {
            let line = source[..c].matches('\n').count() + 1;
            (
                vec![
                    (Span::new(o, o + 1), "this `{` may be missing its `}`".into()),
                    (Span::new(c, c + 1), "this `}` is indented like an outer block".into()),
                ],
                Some(format!("a `}}` seems to be missing before line {line}")),
            )
        }
        (None, Some(&o)) => (vec![(Span::new(o, o + 1), "the innermost `{` still open".into())], None),
        (None, None) => (Vec::new(), None),
    }
}

/// The words for a grammar rule in an error message, or `None` for rules too small to mention.
pub(crate) fn rule_word(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the file",
        Rule::game | Rule::about | Rule::players | Rule::board | Rule::place_decl | Rule::pieces | Rule::setup => {
            "a top-level item"
        }
        Rule::mark_decl => "a top-level item",
        Rule::rounds => "a top-level item",
        Rule::refill | Rule::first | Rule::match_when | Rule::round_limit => {
            "a rule of the rounds (`refill`, `first`, `match when`, `limit N rounds`)"
        }
        Rule::backward => "`backward`",
        Rule::refill_else => "`else mark NAME`",
        Rule::refill_claim => "`claim from PLACE`",
        Rule::refill_borrow => "`borrow N from PLACE`",
        Rule::first_word => "`winner`, `loser` or `alternate`",
        Rule::round_word => "`round`",
        Rule::passed_fn => "a number or a count",
        Rule::one_ply => "`for one ply`",
        Rule::for_plies => "`for N plies`",
        Rule::turn | Rule::phase | Rule::score | Rule::winner | Rule::goal | Rule::variant => "a top-level item",
        // `end { ... }` is both an item and a phase item: the words for its neighbours cover it.
        Rule::end => return None,
        Rule::name | Rule::action_ref => "a name",
        Rule::int => "a number",
        Rule::string => "a quoted string",
        Rule::two_rows | Rule::ring | Rule::rows => "a board shape (`two_rows N`, `rows R of N` or `ring N`)",
        Rule::with_stores => "`with stores`",
        Rule::row_names => "`{ rows NAME, ... }`",
        Rule::region_decl => "a top-level item",
        Rule::place_owner | Rule::per_player | Rule::shared => "`per player` or `shared`",
        Rule::seeds | Rule::colours | Rule::kinds => "`seeds`, `per player { ... }` or `{ ... }`",
        Rule::kind_decl => "a piece kind (`NAME \"SYMBOL\" [value N]`)",
        Rule::setup_line | Rule::targets | Rule::target | Rule::every | Rule::label => "a setup line (`every pit: 4`)",
        Rule::content => "a number of pieces",
        Rule::sow
        | Rule::put
        | Rule::take_action
        | Rule::offer
        | Rule::pass
        | Rule::must
        | Rule::until
        | Rule::phase_again
        | Rule::prefer => {
            "an action (`sow`, `put`, `take`, `offer`, `pass`), `must`, `until`, `again`, `prefer` or `end`"
        }
        Rule::from
        | Rule::direction
        | Rule::order
        | Rule::skip
        | Rule::start_at
        | Rule::divert
        | Rule::relay
        | Rule::lift
        | Rule::require
        | Rule::must_capture
        | Rule::capture
        | Rule::answer
        | Rule::again
        | Rule::lift_mark
        | Rule::lift_unmark
        | Rule::then_mark
        | Rule::sow_take
        | Rule::then => {
            "a sowing rule (`take`, `from`, `direction`, `order`, `skip`, `start`, `divert`, `lift`, `relay`, `require`, `must capture`, `capture`, `opponent may`, `again`, `then`, `mark`, `unmark`)"
        }
        Rule::from_else => "`else`",
        Rule::until_empty => "`until empty`",
        Rule::setup_mark => "a setup line (`every pit: 4` or `mark i5 as NAME`)",
        Rule::resow_into => "`from` or `into`",
        Rule::at_every_lap => "`at every lap`",
        Rule::direction_is => "a condition",
        Rule::eq_op => "`=` or `!=`",
        Rule::filter => "`where`",
        Rule::except_last => "`except last`",
        Rule::dir_word => "`ccw`, `cw` or `choose`",
        Rule::lap_dir => "`ccw or cw when CONDITION`",
        Rule::lap_dir_word => "`ccw` or `cw`",
        Rule::hand => "`hand`",
        Rule::endless => "`endless`",
        Rule::capturing => "`capturing`",
        Rule::lap_word => "`lap`",
        Rule::last_own => "`last own`",
        Rule::origin => "`origin`",
        Rule::take
        | Rule::capture_take
        | Rule::chain
        | Rule::cancel
        | Rule::mark_action
        | Rule::unmark
        | Rule::give_place
        | Rule::resow
        | Rule::go_on => "`take`, `chain`, `cancel`, `mark`, `unmark`, `give`, `sow from` or `continue at`",
        Rule::may_word => "`may`",
        Rule::answers => "`as \"WORD\"`",
        Rule::every_drop => "`at every drop`",
        Rule::every_lift => "`at every lift`",
        Rule::from_next => "`from next`",
        Rule::lifted => "a number or a count",
        Rule::chain_dir => "`backward`, `forward` or `both`",
        Rule::may_must => "`may` or `must`",
        Rule::chosen => "`chosen`",
        Rule::times => "a count such as `, 2 times`",
        Rule::range_to => "a range such as `..3`",
        Rule::offer_choose => "`choose N..M from SET`",
        Rule::on_accept => "`on accept { ... }`",
        Rule::give => "`give` or `take`",
        Rule::move_word => "`move` or an action's name",
        Rule::must_else => "`end` or `any`",
        Rule::end_when | Rule::draw_when | Rule::eliminate | Rule::cut_when | Rule::sweep | Rule::limit => {
            "an end rule (`when`, `draw when`, `eliminate when`, `cut when endless`, `sweep`, `limit`)"
        }
        Rule::repetition => "`repetition`",
        Rule::stuck => "`stuck`",
        Rule::sweep_after => "`after repetition`, `after stuck` or `after limit`",
        Rule::ending => "`repetition`, `stuck` or `limit`",
        Rule::nobody => "`nobody can move`",
        Rule::round_unit => "`rounds` or `turns`",
        Rule::cannot_move => "`cannot move`",
        Rule::tie_rule | Rule::last_mover => "`draw`, `shared` or `last mover`",
        Rule::cond
        | Rule::disj
        | Rule::conj
        | Rule::neg
        | Rule::not_op
        | Rule::quant
        | Rule::membership
        | Rule::comparison => "a condition",
        Rule::quant_word => "`all`, `any` or `no`",
        Rule::domain | Rule::players_word => "`players` or a set of places",
        Rule::int_set => "`{N, M, ...}`",
        Rule::cmp_op => "a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)",
        Rule::term | Rule::product => "a number or a count",
        Rule::count_fn
        | Rule::value_fn
        | Rule::before_fn
        | Rule::dropped_fn
        | Rule::size_fn
        | Rule::captures_fn
        | Rule::moves_fn
        | Rule::seat_fn
        | Rule::owner_fn
        | Rule::number_fn => "a number or a count",
        Rule::kind_word | Rule::kind_sel | Rule::kind_name => "a kind of piece",
        Rule::player | Rule::player_word => "a player (`mover`, `opponent`, `player`, `owner`)",
        Rule::place
        | Rule::here
        | Rule::last
        | Rule::start
        | Rule::opposite
        | Rule::twin
        | Rule::next
        | Rule::previous
        | Rule::behind
        | Rule::ahead
        | Rule::named_place => "a place",
        Rule::set | Rule::set_fn | Rule::pits_set | Rule::offered | Rule::facing | Rule::threats | Rule::taken_first => {
            "a set of places (`pits`, `pits(mover)`, ...)"
        }
        Rule::to_each => "`each`",
        Rule::sources | Rule::places | Rule::pit_number => "a place",
        Rule::colon => "`:`",
        Rule::comma => "`,`",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::dotdot => "`..`",
        Rule::plus => "`+`",
        Rule::minus => "`-`",
        Rule::star => "`*`",
        Rule::slash => "`/`",
        Rule::percent => "`%`",
        Rule::quote => "`\"`",
        _ => return token_keyword(rule).map(|(_, word)| word),
    })
}

/// The rule whose opening keyword a `lead_` look-ahead checks: errors name the rule, as before the check.
pub(super) fn lead_rule(rule: Rule) -> Rule {
    match rule {
        Rule::lead_game => Rule::game,
        Rule::lead_about => Rule::about,
        Rule::lead_players => Rule::players,
        Rule::lead_board => Rule::board,
        Rule::lead_two_rows => Rule::two_rows,
        Rule::lead_rows => Rule::rows,
        Rule::lead_region => Rule::region_decl,
        Rule::lead_number_fn => Rule::number_fn,
        Rule::lead_twin => Rule::twin,
        Rule::lead_next => Rule::next,
        Rule::lead_previous => Rule::previous,
        Rule::lead_behind => Rule::behind,
        Rule::lead_ahead => Rule::ahead,
        Rule::lead_moves_fn => Rule::moves_fn,
        Rule::lead_seat_fn => Rule::seat_fn,
        Rule::lead_from_next => Rule::from_next,
        Rule::lead_every_drop => Rule::every_drop,
        Rule::lead_every_lift => Rule::every_lift,
        Rule::lead_answer => Rule::answer,
        Rule::lead_go_on => Rule::go_on,
        Rule::lead_facing => Rule::facing,
        Rule::lead_with_stores => Rule::with_stores,
        Rule::lead_ring => Rule::ring,
        Rule::lead_place_decl => Rule::place_decl,
        Rule::lead_per_player => Rule::per_player,
        Rule::lead_pieces => Rule::pieces,
        Rule::lead_mark_decl => Rule::mark_decl,
        Rule::lead_one_ply => Rule::one_ply,
        Rule::lead_for_plies => Rule::for_plies,
        Rule::lead_start_at => Rule::start_at,
        Rule::lead_divert => Rule::divert,
        Rule::lead_mark_action => Rule::mark_action,
        Rule::lead_unmark => Rule::unmark,
        Rule::lead_lift_mark => Rule::lift_mark,
        Rule::lead_lift_unmark => Rule::lift_unmark,
        Rule::lead_give_place => Rule::give_place,
        Rule::lead_colours => Rule::colours,
        Rule::lead_setup => Rule::setup,
        Rule::lead_every => Rule::every,
        Rule::lead_setup_mark => Rule::setup_mark,
        Rule::lead_turn => Rule::turn,
        Rule::lead_phase => Rule::phase,
        Rule::lead_sow => Rule::sow,
        Rule::lead_from => Rule::from,
        Rule::lead_filter => Rule::filter,
        Rule::lead_direction => Rule::direction,
        Rule::lead_order => Rule::order,
        Rule::lead_last_own => Rule::last_own,
        Rule::lead_skip => Rule::skip,
        Rule::lead_relay => Rule::relay,
        Rule::lead_require => Rule::require,
        Rule::lead_capture => Rule::capture,
        Rule::lead_chain => Rule::chain,
        Rule::lead_resow => Rule::resow,
        Rule::lead_cancel => Rule::cancel,
        Rule::lead_again => Rule::again,
        Rule::lead_then => Rule::then,
        Rule::lead_then_mark => Rule::then_mark,
        Rule::lead_threats => Rule::threats,
        Rule::lead_take => Rule::take,
        Rule::lead_take_action => Rule::take_action,
        Rule::lead_sow_take => Rule::sow_take,
        Rule::lead_capture_take => Rule::capture_take,
        Rule::lead_to_each => Rule::to_each,
        Rule::lead_put => Rule::put,
        Rule::lead_offer => Rule::offer,
        Rule::lead_offer_choose => Rule::offer_choose,
        Rule::lead_on_accept => Rule::on_accept,
        Rule::lead_give => Rule::give,
        Rule::lead_pass => Rule::pass,
        Rule::lead_must => Rule::must,
        Rule::lead_until => Rule::until,
        Rule::lead_phase_again => Rule::phase_again,
        Rule::lead_end => Rule::end,
        Rule::lead_end_when => Rule::end_when,
        Rule::lead_nobody => Rule::nobody,
        Rule::lead_draw_when => Rule::draw_when,
        Rule::lead_eliminate => Rule::eliminate,
        Rule::lead_cut_when => Rule::cut_when,
        Rule::lead_cannot_move => Rule::cannot_move,
        Rule::lead_sweep => Rule::sweep,
        Rule::lead_sweep_after => Rule::sweep_after,
        Rule::lead_limit => Rule::limit,
        Rule::lead_score => Rule::score,
        Rule::lead_winner => Rule::winner,
        Rule::lead_last_mover => Rule::last_mover,
        Rule::lead_goal => Rule::goal,
        Rule::lead_variant => Rule::variant,
        Rule::lead_count_fn => Rule::count_fn,
        Rule::lead_value_fn => Rule::value_fn,
        Rule::lead_before_fn => Rule::before_fn,
        Rule::lead_dropped_fn => Rule::dropped_fn,
        Rule::lead_size_fn => Rule::size_fn,
        Rule::lead_captures_fn => Rule::captures_fn,
        Rule::lead_passed_fn => Rule::passed_fn,
        Rule::lead_rounds => Rule::rounds,
        Rule::lead_refill => Rule::refill,
        Rule::lead_refill_else => Rule::refill_else,
        Rule::lead_claim => Rule::refill_claim,
        Rule::lead_borrow => Rule::refill_borrow,
        Rule::lead_first => Rule::first,
        Rule::lead_match_when => Rule::match_when,
        Rule::lead_owner_fn => Rule::owner_fn,
        Rule::lead_opposite => Rule::opposite,
        Rule::lead_pits_set => Rule::pits_set,
        Rule::lead_must_capture => Rule::must_capture,
        Rule::lead_lift => Rule::lift,
        Rule::lead_until_empty => Rule::until_empty,
        Rule::lead_prefer => Rule::prefer,
        Rule::lead_at_every_lap => Rule::at_every_lap,
        Rule::lead_direction_is => Rule::direction_is,
        other => other,
    }
}

/// The keyword tokens of the grammar: the keyword, and the keyword in backquotes.
pub(super) fn token_keyword(rule: Rule) -> Option<(&'static [&'static str], &'static str)> {
    Some(match rule {
        Rule::kw_accept => (&["accept"], "`accept`"),
        Rule::kw_as => (&["as"], "`as`"),
        Rule::kw_at => (&["at"], "`at`"),
        Rule::kw_one => (&["one"], "`one`"),
        Rule::kw_ply => (&["ply"], "`ply`"),
        Rule::kw_can => (&["can"], "`can`"),
        Rule::kw_cannot => (&["cannot"], "`cannot`"),
        Rule::kw_capture => (&["capture"], "`capture`"),
        Rule::kw_choose => (&["choose"], "`choose`"),
        Rule::kw_default => (&["default"], "`default`"),
        Rule::kw_drop => (&["drop"], "`drop`"),
        Rule::kw_every => (&["every"], "`every`"),
        Rule::kw_next => (&["next"], "`next`"),
        Rule::kw_else => (&["else"], "`else`"),
        Rule::kw_except => (&["except"], "`except`"),
        Rule::kw_with => (&["with"], "`with`"),
        Rule::kw_mark => (&["mark"], "`mark`"),
        Rule::kw_rounds_word => (&["rounds"], "`rounds`"),
        Rule::kw_extends => (&["extends"], "`extends`"),
        Rule::kw_for => (&["for"], "`for`"),
        Rule::kw_from => (&["from"], "`from`"),
        Rule::kw_in => (&["in"], "`in`"),
        Rule::kw_into => (&["into"], "`into`"),
        Rule::kw_keeping => (&["keeping"], "`keeping`"),
        Rule::kw_most => (&["most"], "`most`"),
        Rule::kw_move => (&["move"], "`move`"),
        Rule::kw_mover => (&["mover"], "`mover`"),
        Rule::kw_no => (&["no"], "`no`"),
        Rule::kw_or => (&["or"], "`or`"),
        Rule::kw_offered => (&["offered"], "`offered`"),
        Rule::kw_own => (&["own"], "`own`"),
        Rule::kw_player => (&["player"], "`player`"),
        Rule::kw_plies => (&["plies"], "`plies`"),
        Rule::kw_score => (&["score"], "`score`"),
        Rule::kw_stores => (&["stores"], "`stores`"),
        Rule::kw_store => (&["store"], "`store`"),
        Rule::kw_of => (&["of"], "`of`"),
        Rule::kw_rows => (&["rows"], "`rows`"),
        Rule::kw_take => (&["take"], "`take`"),
        Rule::kw_ties => (&["ties"], "`ties`"),
        Rule::kw_times => (&["times"], "`times`"),
        Rule::kw_to => (&["to"], "`to`"),
        Rule::kw_value => (&["value"], "`value`"),
        Rule::kw_when => (&["when"], "`when`"),
        Rule::kw_empty => (&["empty"], "`empty`"),
        Rule::kw_lap => (&["lap"], "`lap`"),
        Rule::kw_while => (&["while"], "`while`"),
        _ => return None,
    })
}

/// The keywords a rule can start with, to suggest one for a misspelt word.
pub(super) fn rule_keywords(rule: Rule) -> &'static [&'static str] {
    match rule {
        Rule::game => &["game"],
        Rule::about => &["about"],
        Rule::players => &["players"],
        Rule::board => &["board"],
        Rule::place_decl => &["place"],
        Rule::pieces => &["pieces"],
        Rule::mark_decl | Rule::mark_action | Rule::setup_mark | Rule::lift_mark => &["mark"],
        Rule::one_ply | Rule::for_plies => &["for"],
        Rule::start_at => &["start"],
        Rule::divert => &["divert"],
        Rule::unmark | Rule::lift_unmark => &["unmark"],
        Rule::give_place => &["give"],
        Rule::may_word => &["may"],
        Rule::lifted => &["lifted"],
        Rule::setup => &["setup"],
        Rule::turn => &["turn"],
        Rule::phase => &["phase"],
        Rule::end => &["end"],
        Rule::score => &["score"],
        Rule::winner => &["winner"],
        Rule::goal => &["goal"],
        Rule::variant => &["variant"],
        Rule::two_rows => &["two_rows"],
        Rule::rows => &["rows"],
        Rule::region_decl => &["region"],
        Rule::number_fn => &["number"],
        Rule::twin => &["twin"],
        Rule::next => &["next"],
        Rule::previous => &["previous"],
        Rule::behind => &["behind"],
        Rule::ahead => &["ahead"],
        Rule::start => &["start"],
        Rule::moves_fn => &["moves"],
        Rule::seat_fn => &["seat"],
        Rule::from_next => &["from"],
        Rule::every_drop => &["at"],
        Rule::every_lift => &["at"],
        Rule::answer => &["opponent"],
        Rule::go_on => &["continue"],
        Rule::facing => &["facing"],
        Rule::ring => &["ring"],
        Rule::with_stores => &["with"],
        Rule::per_player | Rule::colours => &["per"],
        Rule::shared => &["shared"],
        Rule::seeds => &["seeds"],
        Rule::every => &["every"],
        Rule::exactly => &["exactly"],
        Rule::sow => &["sow"],
        Rule::put => &["put"],
        Rule::take_action | Rule::sow_take | Rule::capture_take => &["take"],
        Rule::offer => &["offer"],
        Rule::pass => &["pass"],
        Rule::must => &["must"],
        Rule::until => &["until"],
        Rule::from => &["from"],
        Rule::filter => &["where"],
        Rule::except_last => &["except"],
        Rule::direction => &["direction"],
        Rule::dir_word => &["ccw", "cw", "choose"],
        Rule::order => &["order"],
        Rule::last_own | Rule::last_mover | Rule::last => &["last"],
        Rule::skip => &["skip"],
        Rule::origin => &["origin"],
        Rule::relay => &["relay"],
        Rule::require => &["require"],
        Rule::capture => &["capture"],
        Rule::chain => &["chain"],
        Rule::resow => &["sow"],
        Rule::must_capture => &["must"],
        Rule::lift => &["lift"],
        Rule::until_empty => &["until"],
        Rule::prefer => &["prefer"],
        Rule::at_every_lap => &["at"],
        Rule::direction_is => &["direction"],
        Rule::resow_into => &["into"],
        Rule::lap_dir | Rule::lap_dir_word => &["ccw", "cw"],
        Rule::hand => &["hand"],
        Rule::endless => &["endless"],
        Rule::capturing => &["capturing"],
        Rule::lap_word => &["lap"],
        Rule::chain_dir => &["backward", "forward", "both"],
        Rule::cancel => &["cancel"],
        Rule::again | Rule::phase_again => &["again"],
        Rule::then | Rule::then_mark => &["then"],
        Rule::may_must => &["may", "must"],
        Rule::take => &["take"],
        Rule::to_each => &["each"],
        Rule::chosen => &["chosen"],
        Rule::offer_choose => &["choose"],
        Rule::on_accept => &["on"],
        Rule::give => &["give"],
        Rule::move_word => &["move"],
        Rule::must_else => &["end", "any"],
        Rule::end_when => &["when"],
        Rule::repetition => &["repetition"],
        Rule::stuck => &["stuck"],
        Rule::nobody => &["nobody"],
        Rule::draw_when => &["draw"],
        Rule::round_unit => &["rounds", "turns"],
        Rule::eliminate => &["eliminate"],
        Rule::cut_when => &["cut"],
        Rule::cannot_move => &["cannot"],
        Rule::sweep => &["sweep"],
        Rule::sweep_after => &["after"],
        Rule::ending => &["repetition", "stuck", "limit"],
        Rule::limit => &["limit"],
        Rule::tie_rule => &["draw", "shared", "last"],
        Rule::not_op => &["not"],
        Rule::quant | Rule::quant_word => &["all", "any", "no"],
        Rule::players_word | Rule::domain => &["players"],
        Rule::count_fn => &["count"],
        Rule::value_fn => &["value"],
        Rule::before_fn => &["before"],
        Rule::dropped_fn => &["dropped"],
        Rule::size_fn => &["size"],
        Rule::captures_fn => &["captures"],
        Rule::passed_fn => &["passed"],
        Rule::round_word => &["round"],
        Rule::rounds => &["rounds"],
        Rule::refill => &["refill"],
        Rule::backward => &["backward"],
        Rule::refill_else => &["else"],
        Rule::refill_claim => &["claim"],
        Rule::refill_borrow => &["borrow"],
        Rule::first => &["first"],
        Rule::first_word => &["winner", "loser", "alternate"],
        Rule::match_when => &["match"],
        Rule::round_limit => &["limit"],
        Rule::owner_fn => &["owner"],
        Rule::kind_word => &["own", "foreign"],
        Rule::player | Rule::player_word => &["mover", "opponent", "player", "owner"],
        Rule::here => &["here"],
        Rule::opposite => &["opposite"],
        Rule::pits_set => &["pits"],
        Rule::offered => &["offered"],
        Rule::threats => &["threats"],
        Rule::taken_first => &["taken_first"],
        Rule::set | Rule::set_fn => &["pits", "offered", "facing", "threats", "taken_first"],
        Rule::place => &["here", "last", "origin", "opposite", "twin", "next"],
        Rule::cond | Rule::disj | Rule::conj | Rule::neg => {
            &["not", "all", "any", "no", "count", "value", "before", "dropped", "size", "owner"]
        }
        Rule::term | Rule::product => {
            &["count", "value", "before", "dropped", "size", "owner", "mover", "opponent", "player"]
        }
        _ => token_keyword(rule).map_or(&[], |(words, _)| words),
    }
}

/// Token rules carry no meaning in the AST: the builders skip them.
pub(super) fn is_token(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::colon
            | Rule::comma
            | Rule::lbrace
            | Rule::rbrace
            | Rule::lparen
            | Rule::rparen
            | Rule::dotdot
            | Rule::plus
            | Rule::minus
            | Rule::star
            | Rule::slash
            | Rule::percent
            | Rule::quote
    ) || token_keyword(rule).is_some()
}

pub(super) type Children<'i> = Filter<Pairs<'i, Rule>, fn(&Pair<'i, Rule>) -> bool>;

/// The inner pairs of a pair that mean something: tokens left out.
pub(super) fn children(pair: Pair<'_, Rule>) -> Children<'_> {
    fn meaningful(p: &Pair<'_, Rule>) -> bool {
        !is_token(p.as_rule()) && p.as_rule() != Rule::doc
    }
    pair.into_inner().filter(meaningful as fn(&Pair<'_, Rule>) -> bool)
}
