//! Semantic checking and lowering: AST in, `ir::Rules` or diagnostics out.
//!
//! `check` validates a whole file — the base game and every variant, at the smallest and largest player
//! counts — and reports every problem in one run. `lower` builds the rules of one variant at one player
//! count; it is the only way to make an `ir::Rules`.

mod lower;
mod merge;

use std::collections::{BTreeSet, HashMap};

use crate::ast::{File, Item, Span};
use crate::diag::Diagnostic;
use crate::ir::Rules;
use crate::syntax;

use lower::{Lints, Lowerer};
pub use merge::variant_names;

/// The most diagnostics `check` returns; past it, a last one says how many more there were.
pub const MAX_DIAGNOSTICS: usize = 100;

/// Every diagnostic of the file, errors and warnings, in source order.
///
/// The same problem found in several variants or player counts is reported once, and the uses of one
/// unknown name are reported together. A file with thousands of problems gets the first
/// [`MAX_DIAGNOSTICS`] and a count of the rest.
pub fn check(file: &File) -> Vec<Diagnostic> {
    if file.items.is_empty() {
        return vec![empty_file()];
    }
    let mut diags = Vec::new();
    let base = merge::base_game(file, &mut diags);
    let variants = merge::variants(file, &mut diags);
    let mut games = vec![("default".to_string(), Some(base.clone()))];
    for v in &variants {
        let name = v.node.name.node.clone();
        games.push((name.clone(), merge::apply_variant(&base, &variants, &name, &mut diags)));
    }
    let mut lints = Vec::new();
    for (name, game) in games {
        let Some(game) = game else { continue };
        // Enough to show already: lowering the other variants would cost time for problems nobody sees
        // (a file can have 100 variants, each lowered at three player counts).
        if diags.len() >= lower::MAX_RECORDED {
            break;
        }
        let mut probe = Lowerer::new(&game);
        let (min, max, default) = probe.player_range();
        diags.append(&mut probe.diags);
        for players in BTreeSet::from([min, max, default]) {
            let (_, mut d, l) = Lowerer::new(&game).lower(&name, players as u8);
            diags.append(&mut d);
            lints.push(l);
        }
    }
    diags.extend(whole_file_lints(file, &lints));
    tidy(&mut diags);
    limit(&mut diags);
    diags
}

/// Keeps the first [`MAX_DIAGNOSTICS`] diagnostics, and says how many more there were. Every list of
/// diagnostics this module returns goes through it, so that every command shows the same.
fn limit(diags: &mut Vec<Diagnostic>) {
    if diags.len() <= MAX_DIAGNOSTICS {
        return;
    }
    let rest = diags.split_off(MAX_DIAGNOSTICS);
    let errors = rest.iter().filter(|d| d.is_error()).count();
    let last = diags.last().map_or(Span::default(), |d| d.span);
    let message = format!("{} more problems ({errors} errors) are not shown", rest.len());
    let d = if errors > 0 {
        Diagnostic::error("check::too_many", message, last, "and more after this")
    } else {
        Diagnostic::warning("check::too_many", message, last, "and more after this")
    };
    diags.push(d.with_help(format!("fix the first {MAX_DIAGNOSTICS} and check again")));
}

/// Every diagnostic of a rule file's text: an error for each item that does not parse, and what [`check`]
/// finds in the items that do.
///
/// The checker cannot see the items that did not parse, so what it would say about them is left out:
/// that the game lacks an item (it will be said once the file parses), that a variant changes an item
/// the base game lacks when a bad item may be that one, that a place is unused or never filled, and that
/// a name is unknown when the name appears in a bad item, which may declare it.
pub fn check_source(source: &str) -> Vec<Diagnostic> {
    let recovered = syntax::parse_recovering(source);
    if recovered.errors.is_empty() {
        return check(&recovered.file);
    }
    let skipped: Vec<&str> = recovered.skipped.iter().filter_map(|s| source.get(s.start..s.end)).collect();
    let mut diags: Vec<Diagnostic> = recovered.errors.into_iter().map(Diagnostic::from).collect();
    if !recovered.file.items.is_empty() {
        let checked = check(&recovered.file);
        diags.extend(checked.into_iter().filter(|d| !may_echo_skipped(source, d, &skipped)));
    }
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    limit(&mut diags);
    diags
}

/// Whether a checker's diagnostic may only say that some items were skipped.
fn may_echo_skipped(source: &str, d: &Diagnostic, skipped: &[&str]) -> bool {
    match d.code.as_str() {
        "mancala::check::missing_item" => {
            d.message.starts_with("the game has no") || d.message.starts_with("the file has no")
        }
        "mancala::check::bad_variant" if d.message.contains("which the base game does not have") => {
            let Some(what) = d.message.split('`').nth(1) else { return false };
            let could_be = |w: &str| w == what || !ITEM_KEYWORDS.contains(&w) || (what == "turn" && w == "phase");
            skipped.iter().any(|s| could_be(first_word(s)))
        }
        "mancala::check::never_filled" | "mancala::check::unused_place" => true,
        "mancala::check::unknown_name" => {
            let name = source.get(d.span.start..d.span.end).unwrap_or("");
            let has_name =
                |text: &str| text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).any(|w| w == name);
            skipped.iter().any(|s| has_name(s))
        }
        _ => false,
    }
}

const ITEM_KEYWORDS: &[&str] = &[
    "game", "about", "players", "board", "place", "pieces", "setup", "turn", "phase", "end", "score", "winner", "goal",
    "variant",
];

fn first_word(text: &str) -> &str {
    let text = text.trim_start();
    let end = text.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(text.len());
    &text[..end]
}

/// Removes repeats, groups the uses of one unknown name, and sorts by position.
///
/// A name that a variant's new board lacks and that is wrong in the base game as well is only the base
/// game's error: the variant's word for it goes.
fn tidy(diags: &mut Vec<Diagnostic>) {
    let mut seen = BTreeSet::new();
    diags.retain(|d| seen.insert((d.span.start, d.span.end, d.code.clone(), d.message.clone())));
    let new_board = "mancala::check::variant_board";
    let plain: BTreeSet<(usize, usize)> =
        diags.iter().filter(|d| d.is_error() && d.code != new_board).map(|d| (d.span.start, d.span.end)).collect();
    diags.retain(|d| d.code != new_board || !plain.contains(&(d.span.start, d.span.end)));
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    let mut first_of: HashMap<String, usize> = HashMap::new();
    let mut keep = vec![true; diags.len()];
    for i in 0..diags.len() {
        if diags[i].code != "mancala::check::unknown_name" && diags[i].code != new_board {
            continue;
        }
        match first_of.get(&diags[i].message) {
            Some(&first) => {
                keep[i] = false;
                let span = diags[i].span;
                if diags[first].related.len() < 8 {
                    diags[first].related.push((span, "also used here".into()));
                }
            }
            None => {
                first_of.insert(diags[i].message.clone(), i);
            }
        }
    }
    let mut keep = keep.into_iter();
    diags.retain(|_| keep.next().unwrap_or(true));
}

fn empty_file() -> Diagnostic {
    Diagnostic::error("check::empty", "this file has no rules", Span::new(0, 0), "empty file")
        .with_help("a rule file starts with `game \"Name\"`, then `players`, `board`, `pieces`, `setup`, `turn`, `end` and `score`; see docs/language.md")
}

/// The rules of one variant (`None`: the base game) for a number of players (`None`: the default).
pub fn lower(file: &File, variant: Option<&str>, players: Option<u8>) -> Result<Rules, Vec<Diagnostic>> {
    if file.items.is_empty() {
        return Err(vec![empty_file()]);
    }
    let mut diags = Vec::new();
    let base = merge::base_game(file, &mut diags);
    let variants = merge::variants(file, &mut diags);
    let game = match variant {
        None | Some("default") => Some(base),
        Some(name) => {
            if !variants.iter().any(|v| v.node.name.node == name) {
                let names = variant_names(file);
                let mut d = Diagnostic::error(
                    "check::unknown_variant",
                    format!("this file has no variant `{name}`"),
                    Span::default(),
                    "unknown variant",
                )
                .with_help(format!("the variants are: {}", names.join(", ")));
                if let Some(s) = crate::diag::did_you_mean(name, names.iter().map(String::as_str)) {
                    d = d.with_help(format!("did you mean `{s}`? The variants are: {}", names.join(", ")));
                }
                return Err(vec![d]);
            }
            let game = merge::apply_variant(&base, &variants, name, &mut diags);
            if game.is_none() && !diags.iter().any(Diagnostic::is_error) {
                // The variant leads into a broken chain, which is reported from the variant where it breaks.
                for v in &variants {
                    merge::apply_variant(&base, &variants, &v.node.name.node, &mut diags);
                }
            }
            game
        }
    };
    let Some(game) = game else {
        return Err(errors_only(diags));
    };
    let mut probe = Lowerer::new(&game);
    let (min, max, default) = probe.player_range();
    diags.append(&mut probe.diags);
    let players = players.map_or(default, u32::from);
    if players < min || players > max {
        let range = if min == max { format!("{min}") } else { format!("{min} to {max}") };
        return Err(vec![Diagnostic::error(
            "check::players_range",
            format!("this game is for {range} players, not {players}"),
            Span::default(),
            "players",
        )
        .with_help(format!("choose --players {range}"))]);
    }
    let (rules, mut d, _) = Lowerer::new(&game).lower(variant.unwrap_or("default"), players as u8);
    diags.append(&mut d);
    match rules {
        Some(rules) if !diags.iter().any(Diagnostic::is_error) => Ok(rules),
        _ => {
            let mut errors = errors_only(diags);
            if errors.is_empty() {
                errors.push(Diagnostic::error(
                    "check::internal",
                    "lowering failed without saying why; this is a bug, please report it",
                    Span::default(),
                    "here",
                ));
            }
            Err(errors)
        }
    }
}

/// The errors among `diags`, tidied and limited as `check` does it.
fn errors_only(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    let mut errors: Vec<Diagnostic> = diags.into_iter().filter(Diagnostic::is_error).collect();
    tidy(&mut errors);
    limit(&mut errors);
    errors
}

/// Warnings that need every variant: unused places, and places read but never filled.
fn whole_file_lints(file: &File, lints: &[Lints]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let used: BTreeSet<&String> = lints.iter().flat_map(|l| l.used.iter()).collect();
    for item in &file.items {
        if let Item::Place(p) = item {
            if !used.contains(&p.node.name.node) {
                out.push(
                    Diagnostic::warning(
                        "check::unused_place",
                        format!("the place `{}` is never used", p.node.name.node),
                        p.node.name.span,
                        "declared here",
                    )
                    .with_help("remove it, or use it in a rule"),
                );
            }
        }
    }
    // A rule shared by variants (the same text) may read a place that only some of them fill, such as a
    // phase that one setup skips: only a read that no variant ever fills is reported. A warning, never an
    // error: what can fill a place is worked out from the rules as written, not by playing them, so it may
    // miss a way in.
    let filled_somewhere: BTreeSet<(crate::ir::PlaceId, usize, usize)> = lints
        .iter()
        .flat_map(|l| l.read.iter().filter(|(p, _)| l.filled.contains(p)).map(|(p, s)| (*p, s.start, s.end)))
        .collect();
    for l in lints {
        for (place, span) in &l.read {
            if !filled_somewhere.contains(&(*place, span.start, span.end)) {
                out.push(
                    Diagnostic::warning(
                        "check::never_filled",
                        "this condition reads a place that seems never to hold pieces",
                        *span,
                        "always empty?",
                    )
                    .with_help(
                        "no setup line, sowing, `take`, `put`, `then`, `sweep` or refill seems to put a piece there",
                    ),
                );
            }
        }
    }
    out
}
