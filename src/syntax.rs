//! Text to AST. The only module that knows pest.
//!
//! Each `build_*` function takes a pair of one grammar rule and returns the AST node for it. The grammar
//! guarantees the shape of the pairs, so a missing child is a bug in this file, never a user error:
//! `next_pair` says so instead of panicking.

use pest::iterators::{Pair, Pairs};
use pest::Parser;

use crate::ast::*;
use crate::diag::SyntaxError;

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/mancala.pest"]
struct MancalaParser;

/// The deepest nesting of parentheses and quantifiers we accept; deeper input gets an error, not a stack overflow.
const MAX_NESTING: usize = 64;

/// Parses a rule file into its AST.
pub fn parse(source: &str) -> Result<File, SyntaxError> {
    check_nesting(source)?;
    let mut pairs = MancalaParser::parse(Rule::file, source).map_err(|e| syntax_error(source, e))?;
    let file = pairs.next().ok_or_else(|| SyntaxError::internal("no file pair"))?;
    let items = file
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .map(build_item)
        .collect::<Result<Vec<_>, _>>()?;
    Ok(File { items })
}

/// Rejects input nested too deeply before pest, whose recursive descent would exhaust the stack.
fn check_nesting(source: &str) -> Result<(), SyntaxError> {
    let mut depth = 0usize;
    let mut in_comment = false;
    let mut in_string = false;
    for (i, c) in source.char_indices() {
        match c {
            '\n' => in_comment = false,
            _ if in_comment => {}
            '"' => in_string = !in_string,
            _ if in_string => {}
            '#' => in_comment = true,
            '(' | '{' => {
                depth += 1;
                if depth > MAX_NESTING {
                    return Err(SyntaxError {
                        message: format!("nesting deeper than {MAX_NESTING} levels"),
                        span: Span::new(i, i + 1),
                        label: "too deep".into(),
                        help: Some("split the condition into simpler parts".into()),
                    });
                }
            }
            ')' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(())
}

fn syntax_error(source: &str, e: pest::error::Error<Rule>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let found = found_at(source, pos);
    let span = Span::new(pos, pos + found.len().max(usize::from(pos < source.len())));
    let (message, label, help) = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut words: Vec<&str> = positives.iter().filter_map(|r| rule_word(*r)).collect();
            words.sort_unstable();
            words.dedup();
            let found_word = if found.is_empty() { "the end of the file".to_string() } else { format!("`{found}`") };
            let message = format!("unexpected {found_word}");
            let label = if words.is_empty() { "not understood here".to_string() } else { format!("expected {}", one_of(&words)) };
            let help = hint_for(&words, &found);
            (message, label, help)
        }
        ErrorVariant::CustomError { message } => (message.clone(), "here".to_string(), None),
    };
    SyntaxError { message, span, label, help }
}

/// The token at `pos`, for messages: a word, a number, or one character.
fn found_at(source: &str, pos: usize) -> String {
    let rest = source.get(pos..).unwrap_or("");
    let word: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    if !word.is_empty() {
        return word;
    }
    rest.chars().next().map(String::from).unwrap_or_default()
}

fn one_of(words: &[&str]) -> String {
    match words {
        [one] => one.to_string(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
        [] => String::new(),
    }
}

fn hint_for(expected: &[&str], found: &str) -> Option<String> {
    if found == "=" && expected.iter().any(|w| w.contains(':')) {
        return Some("setup lines use a colon: `every pit: 4`".into());
    }
    if expected.contains(&"a top-level item") {
        return Some("a file is a list of items such as `game \"Name\"`, `board two_rows 6`, `turn { ... }`, `end { ... }`; see docs/language.md".into());
    }
    if expected.iter().any(|w| w.starts_with("a sowing rule")) {
        return Some("inside `sow { ... }`: from, direction, order, skip, relay, require, capture, again, then".into());
    }
    if expected.contains(&"a name") && crate::diag::is_keyword(found) {
        return Some(format!("`{found}` is a keyword of the language and cannot be used as a name"));
    }
    None
}

/// The words for a grammar rule in an error message, or `None` for rules too small to mention.
pub(crate) fn rule_word(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::EOI => "the end of the file",
        Rule::game | Rule::about | Rule::players | Rule::board | Rule::place_decl | Rule::pieces | Rule::setup => {
            "a top-level item"
        }
        Rule::turn | Rule::phase | Rule::end | Rule::score | Rule::winner | Rule::goal | Rule::variant => "a top-level item",
        Rule::name => "a name",
        Rule::int => "a number",
        Rule::string => "a quoted string",
        Rule::two_rows | Rule::ring => "a board shape (`two_rows N` or `ring N`)",
        Rule::with_stores => "`with stores`",
        Rule::place_owner | Rule::per_player | Rule::shared => "`per player` or `shared`",
        Rule::seeds | Rule::colours | Rule::kinds => "`seeds`, `per player { ... }` or `{ ... }`",
        Rule::kind_decl => "a piece kind (`NAME \"SYMBOL\" [value N]`)",
        Rule::setup_line | Rule::targets | Rule::target | Rule::every | Rule::label => "a setup line (`every pit: 4`)",
        Rule::content => "a number of pieces",
        Rule::sow | Rule::put | Rule::offer | Rule::pass | Rule::must | Rule::until => {
            "an action (`sow`, `put`, `offer`, `pass`), `must`, `until` or `end`"
        }
        Rule::from | Rule::direction | Rule::order | Rule::skip | Rule::relay | Rule::require | Rule::capture | Rule::again | Rule::then => {
            "a sowing rule (`from`, `direction`, `order`, `skip`, `relay`, `require`, `capture`, `again`, `then`)"
        }
        Rule::filter => "`where`",
        Rule::dir_word => "`ccw`, `cw` or `choose`",
        Rule::last_own => "`last own`",
        Rule::origin => "`origin`",
        Rule::take | Rule::chain | Rule::cancel => "`take`, `chain` or `cancel`",
        Rule::chain_dir => "`backward`, `forward` or `both`",
        Rule::may_must => "`may` or `must`",
        Rule::chosen => "`chosen`",
        Rule::times | Rule::range_to => "a count such as `, 2 times`",
        Rule::offer_choose => "`choose N..M from SET`",
        Rule::on_accept => "`on accept { ... }`",
        Rule::give => "`give` or `take`",
        Rule::action_ref | Rule::move_word => "`move` or an action's name",
        Rule::must_else => "`end` or `any`",
        Rule::end_when | Rule::draw_when | Rule::eliminate | Rule::sweep | Rule::limit => {
            "an end rule (`when`, `draw when`, `eliminate when`, `sweep`, `limit`)"
        }
        Rule::repetition | Rule::stuck | Rule::nobody => "a condition",
        Rule::round_unit => "`rounds` or `turns`",
        Rule::cannot_move => "`cannot move`",
        Rule::tie_rule | Rule::last_mover => "`draw`, `shared` or `last mover`",
        Rule::cond | Rule::disj | Rule::conj | Rule::neg | Rule::not_op | Rule::quant | Rule::membership | Rule::comparison => "a condition",
        Rule::quant_word => "`all`, `any` or `no`",
        Rule::domain | Rule::players_word => "`players` or a set of places",
        Rule::int_set => "`{N, M, ...}`",
        Rule::cmp_op => "a comparison (`=`, `!=`, `<`, `<=`, `>`, `>=`)",
        Rule::term | Rule::product => "a number or a count",
        Rule::count_fn | Rule::value_fn | Rule::before_fn | Rule::dropped_fn | Rule::size_fn | Rule::owner_fn => {
            "a number or a count"
        }
        Rule::kind_word | Rule::kind_sel | Rule::kind_name => "a kind of piece",
        Rule::player | Rule::player_word => "a player (`mover`, `opponent`, `player`, `owner`)",
        Rule::place | Rule::here | Rule::last | Rule::opposite | Rule::named_place => "a place",
        Rule::set | Rule::set_fn | Rule::pits_set | Rule::offered => "a set of places (`pits`, `pits(mover)`, ...)",
        Rule::to_each => "`each`",
        Rule::sources | Rule::places => "a place",
        Rule::variant_item => "a variant item",
        _ => return None,
    })
}

// ---------------------------------------------------------------- helpers

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn next_pair<'a>(pairs: &mut Pairs<'a, Rule>, what: &str) -> Result<Pair<'a, Rule>, SyntaxError> {
    pairs.next().ok_or_else(|| SyntaxError::internal(&format!("missing {what}")))
}

fn int_of(pair: &Pair<Rule>) -> Result<Spanned<u32>, SyntaxError> {
    let span = span_of(pair);
    pair.as_str().parse::<u32>().map(|n| Spanned::new(n, span)).map_err(|_| SyntaxError {
        message: format!("the number `{}` is too large", pair.as_str()),
        span,
        label: "too large".into(),
        help: Some("numbers in rule files go up to 4294967295".into()),
    })
}

fn name_of(pair: &Pair<Rule>) -> Name {
    Spanned::new(pair.as_str().to_string(), span_of(pair))
}

fn string_of(pair: Pair<Rule>) -> Spanned<String> {
    let span = span_of(&pair);
    let text = pair.into_inner().next().map(|t| t.as_str().to_string()).unwrap_or_default();
    Spanned::new(text, span)
}

// ---------------------------------------------------------------- items

fn build_item(pair: Pair<Rule>) -> Result<Item, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
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
            let is_rows = shape.as_rule() == Rule::two_rows;
            let mut parts = shape.into_inner();
            let pits = int_of(&next_pair(&mut parts, "pit count")?)?;
            let board = if is_rows { Board::TwoRows { pits, stores: parts.next().is_some() } } else { Board::Ring { pits } };
            Item::Board(Spanned::new(board, span))
        }
        Rule::place_decl => {
            let name = name_of(&next_pair(&mut inner, "place name")?);
            let owner = next_pair(&mut inner, "place owner")?;
            let per_player = owner.into_inner().next().map(|p| p.as_rule() == Rule::per_player).unwrap_or(false);
            Item::Place(Spanned::new(PlaceDecl { name, per_player }, span))
        }
        Rule::pieces => {
            let body = next_pair(&mut inner, "pieces")?;
            let pieces = match body.as_rule() {
                Rule::seeds => Pieces::Seeds,
                Rule::colours => Pieces::PerPlayer(body.into_inner().map(build_kind).collect::<Result<_, _>>()?),
                _ => Pieces::Kinds(body.into_inner().map(build_kind).collect::<Result<_, _>>()?),
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

fn build_kind(pair: Pair<Rule>) -> Result<KindDecl, SyntaxError> {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let name = name_of(&next_pair(&mut inner, "kind name")?);
    let symbol = string_of(next_pair(&mut inner, "kind symbol")?);
    let value = inner.next().map(|p| int_of(&p)).transpose()?;
    Ok(KindDecl { name, symbol, value, span })
}

fn build_setup_line(pair: Pair<Rule>) -> Result<SetupLine, SyntaxError> {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let targets = next_pair(&mut inner, "targets")?
        .into_inner()
        .map(|t| {
            let tspan = span_of(&t);
            let first = t.into_inner().next().ok_or_else(|| SyntaxError::internal("empty target"))?;
            Ok(Spanned::new(
                match first.as_rule() {
                    Rule::every => {
                        let n = first.into_inner().next().ok_or_else(|| SyntaxError::internal("every"))?;
                        Target::Every(name_of(&n))
                    }
                    _ => Target::Label(name_of(&first)),
                },
                tspan,
            ))
        })
        .collect::<Result<_, SyntaxError>>()?;
    let contents = inner
        .map(|c| {
            let cspan = span_of(&c);
            let mut parts = c.into_inner();
            let count = int_of(&next_pair(&mut parts, "count")?)?;
            let kind = parts.next().map(build_kind_sel).transpose()?;
            Ok(Spanned::new(Content { count, kind }, cspan))
        })
        .collect::<Result<_, SyntaxError>>()?;
    Ok(SetupLine { targets, contents, span })
}

fn build_kind_sel(pair: Pair<Rule>) -> Result<Spanned<KindSel>, SyntaxError> {
    let span = span_of(&pair);
    let text = pair.as_str();
    let sel = match pair.into_inner().next() {
        None if text == "own" => KindSel::Own,
        None if text == "foreign" => KindSel::Foreign,
        None => return Err(SyntaxError::internal("kind selector")),
        Some(inner) => match inner.as_rule() {
            Rule::player_word => KindSel::Player(build_player_word(&inner)),
            _ => {
                let mut parts = inner.into_inner();
                let name = name_of(&next_pair(&mut parts, "kind name")?);
                let value = parts.next().map(|p| int_of(&p)).transpose()?;
                KindSel::Named { name, value }
            }
        },
    };
    Ok(Spanned::new(sel, span))
}

// ---------------------------------------------------------------- phases and actions

fn build_phase_items(pairs: Pairs<Rule>) -> Result<Vec<PhaseItem>, SyntaxError> {
    pairs.map(build_phase_item).collect()
}

fn build_phase_item(pair: Pair<Rule>) -> Result<PhaseItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
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
        Rule::offer => PhaseItem::Offer(Spanned::new(build_offer(inner)?, span)),
        Rule::pass => {
            let what = next_pair(&mut inner, "pass")?;
            let action = (what.as_rule() == Rule::action_ref).then(|| name_of(&what));
            PhaseItem::Pass(Spanned::new(PassWhen { action }, span))
        }
        Rule::must => {
            let after = build_cond(next_pair(&mut inner, "must")?)?;
            let when = build_cond(next_pair(&mut inner, "must when")?)?;
            let otherwise = if next_pair(&mut inner, "must else")?.as_str() == "end" { MustElse::End } else { MustElse::Any };
            PhaseItem::Must(Spanned::new(Must { after, when, otherwise }, span))
        }
        Rule::until => PhaseItem::Until(build_cond(next_pair(&mut inner, "until")?)?),
        Rule::end => PhaseItem::End(Spanned::new(build_end_items(inner)?, span)),
        other => return Err(SyntaxError::internal(&format!("unexpected phase item {other:?}"))),
    })
}

fn build_sow_item(pair: Pair<Rule>) -> Result<SowItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let text = pair.as_str();
    let mut inner = pair.into_inner();
    Ok(match rule {
        Rule::from => {
            let set = build_set(next_pair(&mut inner, "from set")?)?;
            let filter = inner.next().map(build_filter).transpose()?;
            SowItem::From { set, filter, span }
        }
        Rule::direction => {
            let word = next_pair(&mut inner, "direction")?;
            let dir = match word.as_str() {
                "ccw" => DirWord::Ccw,
                "cw" => DirWord::Cw,
                _ => DirWord::Choose,
            };
            SowItem::Direction(Spanned::new(dir, span))
        }
        Rule::order => SowItem::Order { last_own: inner.next().is_some(), span },
        Rule::skip => {
            let what = next_pair(&mut inner, "skip")?;
            let target = if what.as_rule() == Rule::origin { SkipTarget::Origin } else { SkipTarget::Place(build_place(what)?) };
            SowItem::Skip(Spanned::new(target, span))
        }
        Rule::relay => SowItem::Relay(Spanned::new(build_cond(next_pair(&mut inner, "relay")?)?, span)),
        Rule::require => SowItem::Require(Spanned::new(build_cond(next_pair(&mut inner, "require")?)?, span)),
        Rule::again => SowItem::Again(Spanned::new(build_cond(next_pair(&mut inner, "again")?)?, span)),
        Rule::capture => {
            let mut when = None;
            let mut items = Vec::new();
            for p in inner {
                let pspan = span_of(&p);
                match p.as_rule() {
                    Rule::cond => when = Some(build_cond(p)?),
                    Rule::take => items.push(CaptureItem::Take(Spanned::new(build_take(p.into_inner())?, pspan))),
                    Rule::chain => {
                        let mut parts = p.into_inner();
                        let dir = match next_pair(&mut parts, "chain direction")?.as_str() {
                            "backward" => ChainDir::Backward,
                            "forward" => ChainDir::Forward,
                            _ => ChainDir::Both,
                        };
                        let while_ = parts.next().map(build_cond).transpose()?;
                        items.push(CaptureItem::Chain(Spanned::new(Chain { dir, while_ }, pspan)));
                    }
                    Rule::cancel => {
                        let c = build_cond(next_pair(&mut p.into_inner(), "cancel")?)?;
                        items.push(CaptureItem::Cancel(Spanned::new(c, pspan)));
                    }
                    other => return Err(SyntaxError::internal(&format!("capture item {other:?}"))),
                }
            }
            SowItem::Capture(Spanned::new(Capture { when, items }, span))
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
        other => return Err(SyntaxError::internal(&format!("unexpected sow item {other:?} in `{text}`"))),
    })
}

fn build_filter(pair: Pair<Rule>) -> Result<Cond, SyntaxError> {
    build_cond(next_pair(&mut pair.into_inner(), "filter")?)
}

fn build_take(pairs: Pairs<Rule>) -> Result<Take, SyntaxError> {
    let mut take = Take { count: None, kind: None, chosen: false, from: Vec::new(), to: TakeTarget::Place(Spanned::new(PlaceKind::Here, Span::default())) };
    for p in pairs {
        match p.as_rule() {
            Rule::int => take.count = Some(int_of(&p)?),
            Rule::kind_sel => take.kind = Some(build_kind_sel(p)?),
            Rule::chosen => take.chosen = true,
            Rule::sources => {
                for places in p.into_inner() {
                    let group = places.into_inner().map(build_set_or_place).collect::<Result<Vec<_>, _>>()?;
                    take.from.push(group);
                }
            }
            Rule::to_each => take.to = TakeTarget::Each(build_set(next_pair(&mut p.into_inner(), "each")?)?),
            Rule::place => take.to = TakeTarget::Place(build_place(p)?),
            other => return Err(SyntaxError::internal(&format!("take part {other:?}"))),
        }
    }
    Ok(take)
}

fn build_put(pairs: Pairs<Rule>) -> Result<Put, SyntaxError> {
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
    Ok(Put { name, count: count.ok_or_else(missing)?, kind, from: from.ok_or_else(missing)?, into: into.ok_or_else(missing)?, filter, times })
}

/// Reads `N`, `N..`, `N..M` from a pair holding an int and an optional `range_to`.
fn build_range(pair: Pair<Rule>) -> Result<Spanned<Range>, SyntaxError> {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let min = int_of(&next_pair(&mut inner, "range")?)?.node;
    let max = match inner.next() {
        None => Some(min),
        Some(to) => to.into_inner().next().map(|p| int_of(&p)).transpose()?.map(|n| n.node),
    };
    Ok(Spanned::new(Range { min, max }, span))
}

fn build_offer(pairs: Pairs<Rule>) -> Result<Offer, SyntaxError> {
    let mut name = None;
    let mut choose = None;
    let mut requires = Vec::new();
    let mut on_accept = Vec::new();
    for p in pairs {
        let span = span_of(&p);
        match p.as_rule() {
            Rule::name => name = Some(name_of(&p)),
            Rule::offer_choose => choose = Some(p),
            Rule::require => requires.push(Spanned::new(build_cond(next_pair(&mut p.into_inner(), "require")?)?, span)),
            Rule::on_accept => {
                for e in p.into_inner() {
                    let espan = span_of(&e);
                    match e.as_rule() {
                        Rule::take => on_accept.push(Effect::Take(Spanned::new(build_take(e.into_inner())?, espan))),
                        _ => {
                            let who = build_player(next_pair(&mut e.into_inner(), "give")?)?;
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
    let mut parts = choose.into_inner();
    let min = int_of(&next_pair(&mut parts, "offer size")?)?.node;
    let mut max = Some(min);
    let mut next = next_pair(&mut parts, "offer set")?;
    if next.as_rule() == Rule::range_to {
        max = next.into_inner().next().map(|p| int_of(&p)).transpose()?.map(|n| n.node);
        next = next_pair(&mut parts, "offer set")?;
    }
    let from = build_set(next)?;
    let keeping = parts.next().map(|p| int_of(&p)).transpose()?;
    Ok(Offer { name, size: Spanned::new(Range { min, max }, cspan), from, keeping, requires, on_accept })
}

fn build_end_items(pairs: Pairs<Rule>) -> Result<Vec<EndItem>, SyntaxError> {
    pairs.map(build_end_item).collect()
}

fn build_end_item(pair: Pair<Rule>) -> Result<EndItem, SyntaxError> {
    let span = span_of(&pair);
    let rule = pair.as_rule();
    let mut inner = pair.into_inner();
    Ok(match rule {
        Rule::end_when => {
            let what = next_pair(&mut inner, "end when")?;
            let when = match what.as_rule() {
                Rule::repetition => EndWhen::Repetition,
                Rule::stuck => EndWhen::Stuck,
                Rule::nobody => EndWhen::NobodyCanMove,
                _ => EndWhen::Cond(build_cond(what)?),
            };
            EndItem::When(Spanned::new(when, span))
        }
        Rule::draw_when => {
            let count = int_of(&next_pair(&mut inner, "draw count")?)?;
            let unit = if next_pair(&mut inner, "draw unit")?.as_str() == "rounds" { RoundUnit::Rounds } else { RoundUnit::Turns };
            EndItem::Draw(Spanned::new(DrawWhen { count, unit }, span))
        }
        Rule::eliminate => {
            let what = next_pair(&mut inner, "eliminate")?;
            let e = if what.as_rule() == Rule::cannot_move { Eliminate::CannotMove } else { Eliminate::Cond(build_cond(what)?) };
            EndItem::Eliminate(Spanned::new(e, span))
        }
        Rule::sweep => {
            let set = build_set(next_pair(&mut inner, "sweep set")?)?;
            let to = build_place(next_pair(&mut inner, "sweep target")?)?;
            EndItem::Sweep(Spanned::new(Sweep { set, to }, span))
        }
        Rule::limit => EndItem::Limit(int_of(&next_pair(&mut inner, "limit")?)?),
        other => return Err(SyntaxError::internal(&format!("unexpected end item {other:?}"))),
    })
}

// ---------------------------------------------------------------- conditions

fn build_cond(pair: Pair<Rule>) -> Result<Cond, SyntaxError> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::cond => build_cond(next_pair(&mut pair.into_inner(), "condition")?),
        Rule::disj | Rule::conj => {
            let is_or = pair.as_rule() == Rule::disj;
            let mut parts = pair.into_inner().map(build_cond).collect::<Result<Vec<_>, _>>()?;
            if parts.len() == 1 {
                return parts.pop().ok_or_else(|| SyntaxError::internal("condition"));
            }
            Ok(Spanned::new(if is_or { CondKind::Or(parts) } else { CondKind::And(parts) }, span))
        }
        Rule::neg => {
            let mut nots = 0;
            let mut atom = None;
            for p in pair.into_inner() {
                if p.as_rule() == Rule::not_op {
                    nots += 1;
                } else {
                    atom = Some(build_cond(p)?);
                }
            }
            let mut cond = atom.ok_or_else(|| SyntaxError::internal("negation"))?;
            for _ in 0..nots {
                cond = Spanned::new(CondKind::Not(Box::new(cond)), span);
            }
            Ok(cond)
        }
        Rule::quant => {
            let mut inner = pair.into_inner();
            let quant = match next_pair(&mut inner, "quantifier")?.as_str() {
                "all" => Quant::All,
                "any" => Quant::Any,
                _ => Quant::No,
            };
            let domain_pair = next_pair(&mut inner, "domain")?;
            let first = next_pair(&mut domain_pair.into_inner(), "domain")?;
            let domain = if first.as_rule() == Rule::players_word { Domain::Players } else { Domain::Set(build_set(first)?) };
            let body = build_cond(next_pair(&mut inner, "quantified condition")?)?;
            Ok(Spanned::new(CondKind::Quant { quant, domain, body: Box::new(body) }, span))
        }
        Rule::membership => {
            let mut inner = pair.into_inner();
            let term = build_term(next_pair(&mut inner, "member")?)?;
            let what = next_pair(&mut inner, "membership")?;
            if what.as_rule() == Rule::int_set {
                let ints = what.into_inner().map(|p| int_of(&p).map(|n| n.node)).collect::<Result<_, _>>()?;
                Ok(Spanned::new(CondKind::InInts { term, ints }, span))
            } else {
                Ok(Spanned::new(CondKind::InSet { term, set: build_set(what)? }, span))
            }
        }
        Rule::comparison => {
            let mut inner = pair.into_inner();
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
    let mut inner = pair.into_inner();
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
        Rule::size_fn => TermKind::Size(build_set(next_pair(&mut inner, "size")?)?),
        Rule::owner_fn => TermKind::Player(Spanned::new(PlayerKind::Owner(inner.next().map(build_place).transpose()?.map(Box::new)), span)),
        Rule::player_word => TermKind::Player(Spanned::new(player_kind(text), span)),
        Rule::place => TermKind::Place(build_place_inner(span, inner)?),
        Rule::kind_word => TermKind::Kind(if text == "own" { KindSel::Own } else { KindSel::Foreign }),
        other => return Err(SyntaxError::internal(&format!("unexpected term {other:?}"))),
    };
    Ok(Spanned::new(kind, span))
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
    let inner = next_pair(&mut pair.into_inner(), "player")?;
    if inner.as_rule() == Rule::player_word {
        return Ok(build_player_word(&inner));
    }
    let place = inner.into_inner().next().map(build_place).transpose()?.map(Box::new);
    Ok(Spanned::new(PlayerKind::Owner(place), span))
}

fn build_place(pair: Pair<Rule>) -> Result<Place, SyntaxError> {
    let span = span_of(&pair);
    build_place_inner(span, pair.into_inner())
}

fn build_place_inner(span: Span, mut inner: Pairs<Rule>) -> Result<Place, SyntaxError> {
    let what = next_pair(&mut inner, "place")?;
    let kind = match what.as_rule() {
        Rule::here => PlaceKind::Here,
        Rule::last => PlaceKind::Last,
        Rule::origin => PlaceKind::Origin,
        Rule::opposite => PlaceKind::Opposite(what.into_inner().next().map(build_place).transpose()?.map(Box::new)),
        _ => {
            let mut parts = what.into_inner();
            let name = name_of(&next_pair(&mut parts, "place name")?);
            let player = parts.next().map(build_player).transpose()?;
            PlaceKind::Named { name, player }
        }
    };
    Ok(Spanned::new(kind, span))
}

fn build_set(pair: Pair<Rule>) -> Result<SetExpr, SyntaxError> {
    match pair.as_rule() {
        Rule::set => build_set_or_place(next_pair(&mut pair.into_inner(), "set")?),
        _ => build_set_or_place(pair),
    }
}

fn build_set_or_place(pair: Pair<Rule>) -> Result<SetExpr, SyntaxError> {
    let span = span_of(&pair);
    match pair.as_rule() {
        Rule::set => build_set(pair),
        Rule::set_fn => {
            let inner = next_pair(&mut pair.into_inner(), "set")?;
            Ok(Spanned::new(
                match inner.as_rule() {
                    Rule::offered => SetKind::Offered,
                    _ => SetKind::Pits(inner.into_inner().next().map(build_player).transpose()?),
                },
                span,
            ))
        }
        Rule::place => Ok(Spanned::new(SetKind::Place(build_place(pair)?), span)),
        other => Err(SyntaxError::internal(&format!("unexpected set {other:?}"))),
    }
}
