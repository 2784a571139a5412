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

/// Removes repeats, groups the uses of one unknown name, and sorts by position.
fn tidy(diags: &mut Vec<Diagnostic>) {
    let mut seen = BTreeSet::new();
    diags.retain(|d| seen.insert((d.span.start, d.span.end, d.code.clone(), d.message.clone())));
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    let mut first_of: HashMap<String, usize> = HashMap::new();
    let mut keep = vec![true; diags.len()];
    for i in 0..diags.len() {
        if diags[i].code != "mancala::check::unknown_name" {
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

/// Warnings and errors that need every variant: unused places, and places read but never filled.
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
    for l in lints {
        for (place, span) in &l.read {
            if !l.filled.contains(place) {
                out.push(
                    Diagnostic::error(
                        "check::never_filled",
                        "this condition reads a place that can never hold pieces",
                        *span,
                        "always empty",
                    )
                    .with_help("no setup line, `take`, `put`, `then` or `sweep` ever puts a piece there"),
                );
            }
        }
    }
    out
}
