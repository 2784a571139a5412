//! Semantic checking and lowering: AST in, `ir::Rules` or diagnostics out.
//!
//! `check` validates a whole file — the base game and every variant, at the smallest and largest player
//! counts — and reports every problem in one run. `lower` builds the rules of one variant at one player
//! count; it is the only way to make an `ir::Rules`.

mod lower;
mod merge;

use std::collections::BTreeSet;

use crate::ast::{File, Item, Span};
use crate::diag::Diagnostic;
use crate::ir::Rules;

use lower::{Lints, Lowerer};
pub use merge::variant_names;

/// Every diagnostic of the file, errors and warnings, in source order.
pub fn check(file: &File) -> Vec<Diagnostic> {
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
    let mut seen = BTreeSet::new();
    diags.retain(|d| seen.insert((d.span.start, d.span.end, d.code.clone(), d.message.clone())));
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    diags
}

/// The rules of one variant (`None`: the base game) for a number of players (`None`: the default).
pub fn lower(file: &File, variant: Option<&str>, players: Option<u8>) -> Result<Rules, Vec<Diagnostic>> {
    let mut diags = Vec::new();
    let base = merge::base_game(file, &mut diags);
    let variants = merge::variants(file, &mut diags);
    let game = match variant {
        None | Some("default") => Some(base),
        Some(name) => {
            if !variants.iter().any(|v| v.node.name.node == name) {
                let names = variant_names(file);
                let mut d = Diagnostic::error("check::unknown_variant", format!("this file has no variant `{name}`"), Span::default(), "unknown variant")
                    .with_help(format!("the variants are: {}", names.join(", ")));
                if let Some(s) = crate::diag::did_you_mean(name, names.iter().map(String::as_str)) {
                    d = d.with_help(format!("did you mean `{s}`? The variants are: {}", names.join(", ")));
                }
                return Err(vec![d]);
            }
            merge::apply_variant(&base, &variants, name, &mut diags)
        }
    };
    let Some(game) = game else { return Err(errors_only(diags)) };
    let mut probe = Lowerer::new(&game);
    let (min, max, default) = probe.player_range();
    diags.append(&mut probe.diags);
    let players = players.map_or(default, u32::from);
    if players < min || players > max {
        let range = if min == max { format!("{min}") } else { format!("{min} to {max}") };
        return Err(vec![Diagnostic::error("check::players_range", format!("this game is for {range} players, not {players}"), Span::default(), "players")
            .with_help(format!("choose --players {range}"))]);
    }
    let (rules, mut d, _) = Lowerer::new(&game).lower(variant.unwrap_or("default"), players as u8);
    diags.append(&mut d);
    match rules {
        Some(rules) if !diags.iter().any(Diagnostic::is_error) => Ok(rules),
        _ => Err(errors_only(diags)),
    }
}

fn errors_only(diags: Vec<Diagnostic>) -> Vec<Diagnostic> {
    diags.into_iter().filter(Diagnostic::is_error).collect()
}

/// Warnings and errors that need every variant: unused places, and places read but never filled.
fn whole_file_lints(file: &File, lints: &[Lints]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let used: BTreeSet<&String> = lints.iter().flat_map(|l| l.used.iter()).collect();
    for item in &file.items {
        if let Item::Place(p) = item {
            if !used.contains(&p.node.name.node) {
                out.push(
                    Diagnostic::warning("check::unused_place", format!("the place `{}` is never used", p.node.name.node), p.node.name.span, "declared here")
                        .with_help("remove it, or use it in a rule"),
                );
            }
        }
    }
    for l in lints {
        for (place, span) in &l.read {
            if !l.filled.contains(place) {
                out.push(
                    Diagnostic::error("check::never_filled", "this condition reads a place that can never hold pieces", *span, "always empty")
                        .with_help("no setup line, `take`, `put`, `then` or `sweep` ever puts a piece there"),
                );
            }
        }
    }
    out
}
