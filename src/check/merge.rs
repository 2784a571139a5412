//! The shape of a file: which items it has, and each variant's items merged over the base.

use std::collections::HashMap;

use crate::ast::*;
use crate::diag::{did_you_mean, Diagnostic};

/// The items of one game, base or variant, with at most one of each singleton.
#[derive(Debug, Clone, Default)]
pub(crate) struct Game {
    pub name: Option<Name>,
    pub about: Option<Spanned<String>>,
    pub players: Option<Spanned<Players>>,
    pub board: Option<Spanned<Board>>,
    pub pieces: Option<Spanned<Pieces>>,
    pub places: Vec<Spanned<PlaceDecl>>,
    pub setup: Option<Spanned<Vec<SetupLine>>>,
    pub phases: Vec<Spanned<Phase>>,
    pub end: Option<Spanned<Vec<EndItem>>>,
    pub score: Option<Term>,
    pub winner: Option<Spanned<TieRule>>,
    pub goal: Option<Cond>,
}

/// The variant names of a file, default first.
pub fn variant_names(file: &File) -> Vec<String> {
    let mut names = vec!["default".to_string()];
    for item in &file.items {
        if let Item::Variant(v) = item {
            names.push(v.node.name.node.clone());
        }
    }
    names
}

/// Collects the base game's items, reporting duplicates and missing essentials.
pub(crate) fn base_game(file: &File, diags: &mut Vec<Diagnostic>) -> Game {
    let mut game = Game::default();
    for item in &file.items {
        add_item(&mut game, item, diags);
    }
    if game.name.is_none() {
        diags.push(
            Diagnostic::error("check::missing_item", "the file has no `game` line", Span::new(0, 0), "expected `game \"Name\"`")
                .with_help("start the file with the game's name, e.g. `game \"Kalah\"`"),
        );
    }
    let first = Span::new(0, 0);
    let at = game.name.as_ref().map(|n| n.span).unwrap_or(first);
    if game.board.is_none() {
        diags.push(missing(at, "board", "add `board two_rows 6` or `board ring 15`"));
    }
    if game.phases.is_empty() {
        diags.push(missing(at, "turn", "add `turn { sow { from pits(mover) where count > 0 } }`"));
    }
    if game.score.is_none() && game.goal.is_none() {
        diags.push(missing(at, "score", "add `score count(store(player))`, or `goal ...` for a solitaire"));
    }
    let has_end = game.end.as_ref().is_some_and(|e| !e.node.is_empty())
        || game.phases.iter().any(|p| p.node.items.iter().any(|i| matches!(i, PhaseItem::End(e) if !e.node.is_empty())));
    if !has_end {
        diags.push(missing(at, "end", "add an end rule such as `end { when stuck }`"));
    }
    let named: Vec<&Spanned<Phase>> = game.phases.iter().filter(|p| p.node.name.is_some()).collect();
    if !named.is_empty() && named.len() != game.phases.len() {
        let turn = game.phases.iter().find(|p| p.node.name.is_none()).map(|p| p.span).unwrap_or(at);
        diags.push(
            Diagnostic::error("check::turn_and_phases", "a file has either one `turn` or named phases, not both", turn, "this `turn`")
                .with_related(named[0].span, "a named phase")
                .with_help("write the turn as `phase NAME { ... }` too"),
        );
    }
    check_phase_names(&game.phases, diags);
    game
}

fn missing(at: Span, what: &str, help: &str) -> Diagnostic {
    Diagnostic::error("check::missing_item", format!("the game has no `{what}`"), at, format!("this game needs a `{what}`")).with_help(help)
}

fn check_phase_names(phases: &[Spanned<Phase>], diags: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for p in phases {
        let Some(name) = &p.node.name else { continue };
        if let Some(first) = seen.insert(&name.node, name.span) {
            diags.push(duplicate("phase", &name.node, name.span, first));
        }
    }
    let unnamed: Vec<&Spanned<Phase>> = phases.iter().filter(|p| p.node.name.is_none()).collect();
    if unnamed.len() > 1 {
        diags.push(duplicate("turn", "turn", unnamed[1].span, unnamed[0].span));
    }
}

pub(crate) fn duplicate(what: &str, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error("check::duplicate", format!("{what} `{name}` is defined twice"), span, "defined again here")
        .with_related(first, "first defined here")
        .with_help(format!("remove one of the two, or give the {what} another name"))
}

fn set_once<T: Clone>(slot: &mut Option<T>, value: &T, what: &str, span: Span, first: impl Fn(&T) -> Span, diags: &mut Vec<Diagnostic>) {
    match slot {
        Some(old) => diags.push(duplicate(what, what, span, first(old))),
        None => *slot = Some(value.clone()),
    }
}

fn add_item(game: &mut Game, item: &Item, diags: &mut Vec<Diagnostic>) {
    match item {
        Item::Game(n) => set_once(&mut game.name, n, "game", n.span, |o| o.span, diags),
        Item::About(a) => set_once(&mut game.about, a, "about", a.span, |o| o.span, diags),
        Item::Players(p) => set_once(&mut game.players, p, "players", p.span, |o| o.span, diags),
        Item::Board(b) => set_once(&mut game.board, b, "board", b.span, |o| o.span, diags),
        Item::Pieces(p) => set_once(&mut game.pieces, p, "pieces", p.span, |o| o.span, diags),
        Item::Setup(s) => set_once(&mut game.setup, s, "setup", s.span, |o| o.span, diags),
        Item::End(e) => set_once(&mut game.end, e, "end", e.span, |o| o.span, diags),
        Item::Score(s) => set_once(&mut game.score, s, "score", s.span, |o| o.span, diags),
        Item::Winner(w) => set_once(&mut game.winner, w, "winner", w.span, |o| o.span, diags),
        Item::Goal(g) => set_once(&mut game.goal, g, "goal", g.span, |o| o.span, diags),
        Item::Place(p) => {
            if let Some(first) = game.places.iter().find(|q| q.node.name.node == p.node.name.node) {
                diags.push(duplicate("place", &p.node.name.node, p.node.name.span, first.node.name.span));
            } else {
                game.places.push(p.clone());
            }
        }
        Item::Phase(p) => game.phases.push(p.clone()),
        Item::Variant(_) => {}
    }
}

/// The variants of the file by name, reporting duplicates.
pub(crate) fn variants(file: &File, diags: &mut Vec<Diagnostic>) -> Vec<Spanned<Variant>> {
    let mut out: Vec<Spanned<Variant>> = Vec::new();
    for item in &file.items {
        let Item::Variant(v) = item else { continue };
        let name = &v.node.name;
        if name.node == "default" {
            diags.push(
                Diagnostic::error("check::bad_variant", "a variant cannot be called `default`", name.span, "reserved name")
                    .with_help("`default` names the base game; choose another name"),
            );
        }
        if let Some(first) = out.iter().find(|o| o.node.name.node == name.node) {
            diags.push(duplicate("variant", &name.node, name.span, first.node.name.span));
            continue;
        }
        out.push(v.clone());
    }
    out
}

/// The game a variant describes: the base with the variant's items laid over it (its parent's first).
pub(crate) fn apply_variant(base: &Game, all: &[Spanned<Variant>], name: &str, diags: &mut Vec<Diagnostic>) -> Option<Game> {
    let mut chain: Vec<&Spanned<Variant>> = Vec::new();
    let mut current = all.iter().find(|v| v.node.name.node == name)?;
    loop {
        if chain.iter().any(|v| v.node.name.node == current.node.name.node) {
            diags.push(
                Diagnostic::error("check::bad_variant", format!("variant `{name}` extends itself"), current.node.name.span, "in this chain")
                    .with_help("a variant may extend another, but not in a circle"),
            );
            return None;
        }
        chain.push(current);
        let Some(parent) = &current.node.extends else { break };
        match all.iter().find(|v| v.node.name.node == parent.node) {
            Some(p) => current = p,
            None => {
                let names: Vec<&str> = all.iter().map(|v| v.node.name.node.as_str()).collect();
                let mut d = Diagnostic::error("check::unknown_name", format!("no variant is called `{}`", parent.node), parent.span, "unknown variant");
                if let Some(s) = did_you_mean(&parent.node, names) {
                    d = d.with_help(format!("did you mean `{s}`?"));
                }
                diags.push(d);
                return None;
            }
        }
    }
    let mut game = base.clone();
    for v in chain.into_iter().rev() {
        for item in &v.node.items {
            override_item(&mut game, item, diags);
        }
    }
    Some(game)
}

fn not_in_base(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        "check::bad_variant",
        format!("this variant overrides `{what}`, which the base game does not have"),
        span,
        "nothing to override",
    )
    .with_help("a variant can only replace parts of the base game; add it to the base game first")
}

fn override_item(game: &mut Game, item: &Item, diags: &mut Vec<Diagnostic>) {
    match item {
        Item::About(a) => game.about = Some(a.clone()),
        Item::Players(p) => game.players = Some(p.clone()),
        Item::Setup(s) => game.setup = Some(s.clone()),
        Item::End(e) => game.end = Some(e.clone()),
        Item::Score(s) => game.score = Some(s.clone()),
        Item::Winner(w) => game.winner = Some(w.clone()),
        Item::Goal(g) => {
            if game.goal.is_none() {
                diags.push(not_in_base("goal", g.span));
            }
            game.goal = Some(g.clone());
        }
        Item::Phase(p) => {
            let target = game.phases.iter_mut().find(|q| q.node.name.as_ref().map(|n| &n.node) == p.node.name.as_ref().map(|n| &n.node));
            match target {
                Some(base) => merge_phase(&mut base.node, &p.node, diags),
                None => {
                    let what = p.node.name.as_ref().map(|n| format!("phase {}", n.node)).unwrap_or_else(|| "turn".into());
                    diags.push(not_in_base(&what, p.span));
                }
            }
        }
        // The grammar allows only the items above in a variant.
        _ => {}
    }
}

/// The key under which a phase item replaces another in a variant.
fn phase_key(item: &PhaseItem) -> String {
    match item {
        PhaseItem::Sow(s) => format!("action {}", s.node.name.as_ref().map_or("sow", |n| n.node.as_str())),
        PhaseItem::Put(p) => format!("action {}", p.node.name.as_ref().map_or("put", |n| n.node.as_str())),
        PhaseItem::Offer(o) => format!("action {}", o.node.name.as_ref().map_or("offer", |n| n.node.as_str())),
        PhaseItem::Pass(_) => "pass".into(),
        PhaseItem::Must(_) => "must".into(),
        PhaseItem::Until(_) => "until".into(),
        PhaseItem::End(_) => "end".into(),
    }
}

fn merge_phase(base: &mut Phase, over: &Phase, _diags: &mut [Diagnostic]) {
    for item in &over.items {
        let key = phase_key(item);
        match base.items.iter_mut().find(|i| phase_key(i) == key) {
            Some(slot) => *slot = item.clone(),
            None => base.items.push(item.clone()),
        }
    }
}

/// The name of an action as written, for `pass when cannot NAME` and notation.
pub(crate) fn action_name(item: &PhaseItem) -> Option<(String, Span)> {
    match item {
        PhaseItem::Sow(s) => Some((s.node.name.as_ref().map_or("sow".into(), |n| n.node.clone()), s.span)),
        PhaseItem::Put(p) => Some((p.node.name.as_ref().map_or("put".into(), |n| n.node.clone()), p.span)),
        PhaseItem::Offer(o) => Some((o.node.name.as_ref().map_or("offer".into(), |n| n.node.clone()), o.span)),
        _ => None,
    }
}
