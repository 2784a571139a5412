//! The shape of a file: which items it has, and each variant's items merged over the base.

use std::collections::{HashMap, HashSet};

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
    /// Named sets of pits (`region`), in source order.
    pub regions: Vec<Spanned<RegionDecl>>,
    pub marks: Vec<Spanned<MarkDecl>>,
    pub setup: Option<Spanned<Vec<SetupLine>>>,
    pub phases: Vec<Spanned<Phase>>,
    pub end: Option<Spanned<Vec<EndItem>>>,
    /// `rounds { ... }`: the game is a match of rounds.
    pub rounds: Option<Spanned<Vec<RoundsItem>>>,
    pub score: Option<Term>,
    pub winner: Option<Spanned<TieRule>>,
    pub goal: Option<Cond>,
    /// The file's `///` sentences by the start of the rule each tells (variants share the base's).
    pub docs: std::collections::BTreeMap<usize, String>,
    /// The variants laid over the base game, in the order applied (a parent before its child), with their
    /// blocks: where each rule of this game was written.
    pub chain: Vec<(String, Span)>,
    /// Set when a variant replaced the base game's board.
    pub new_board: Option<NewBoard>,
}

/// A variant's own board: the rules it inherits were written for another board, and are checked on this one.
#[derive(Debug, Clone)]
pub(crate) struct NewBoard {
    /// The variant whose `board` is this game's.
    pub variant: String,
    /// That variant's `board` line.
    pub span: Span,
    /// The blocks of that variant and of the variants extending it: rules written there know this board.
    pub own: Vec<Span>,
}

impl Game {
    /// Whether the rule at `span` was written for another board than this game's: it comes from the base
    /// game, or from a variant that a variant with its own board extends.
    pub fn written_for_another_board(&self, span: Span) -> bool {
        self.new_board.as_ref().is_some_and(|b| !b.own.iter().any(|o| o.start <= span.start && span.end <= o.end))
    }

    /// Who wrote the rule at `span`: "the base game" or "variant `NAME`".
    pub fn author_of(&self, span: Span) -> String {
        self.chain
            .iter()
            .find(|(_, o)| o.start <= span.start && span.end <= o.end)
            .map_or("the base game".to_string(), |(name, _)| format!("variant `{name}`"))
    }

    /// The rule that holds `span`, in words, and the item a variant writes to replace it.
    pub fn rule_at(&self, span: Span) -> (String, String) {
        let inside = |o: Span| o.start <= span.start && span.end <= o.end;
        if self.setup.as_ref().is_some_and(|s| inside(s.span)) {
            return ("the `setup`".into(), "`setup { ... }`".into());
        }
        if let Some(r) = self.regions.iter().find(|r| inside(r.span)) {
            let name = &r.node.name.node;
            return (format!("region `{name}`"), format!("`region {name}: ...`"));
        }
        for phase in &self.phases {
            if !inside(phase.span) {
                continue;
            }
            let (of, block) = match &phase.node.name {
                Some(n) => (format!("phase `{}`", n.node), format!("phase {} {{ ... }}", n.node)),
                None => ("the `turn`".to_string(), "turn { ... }".to_string()),
            };
            let item = phase.node.items.iter().find(|i| inside(phase_item_span(i)));
            let (what, write) = match item.map(|i| (i, action_name(i))) {
                Some((PhaseItem::Sow(_), Some((name, _)))) => (format!("the sowing `{name}`"), "sow { ... }".into()),
                Some((PhaseItem::Put(_), Some((name, _)))) => (format!("the put `{name}`"), "put { ... }".into()),
                Some((PhaseItem::Take(_), Some((name, _)))) => (format!("the take `{name}`"), "take { ... }".into()),
                Some((PhaseItem::Offer(_), Some((name, _)))) => (format!("the offer `{name}`"), "offer { ... }".into()),
                Some((i, _)) => {
                    let key = phase_key(i);
                    (format!("the `{key}` rule"), format!("{key} ..."))
                }
                None => return (of, format!("`{block}`")),
            };
            let block = block.replace("...", &write);
            return (format!("{what} of {of}"), format!("`{block}`"));
        }
        if self.end.as_ref().is_some_and(|e| inside(e.span)) {
            return ("the `end` block".into(), "`end { ... }`".into());
        }
        if self.rounds.as_ref().is_some_and(|r| inside(r.span)) {
            return ("the `rounds` block".into(), "`rounds { ... }`".into());
        }
        if self.score.as_ref().is_some_and(|s| inside(s.span)) {
            return ("the `score`".into(), "`score ...`".into());
        }
        if self.goal.as_ref().is_some_and(|g| inside(g.span)) {
            return ("the `goal`".into(), "`goal ...`".into());
        }
        ("a rule".into(), "it".into())
    }
}

/// The span of a phase's item, whatever its kind.
fn phase_item_span(item: &PhaseItem) -> Span {
    match item {
        PhaseItem::Sow(s) => s.span,
        PhaseItem::Put(p) => p.span,
        PhaseItem::Take(t) => t.span,
        PhaseItem::Offer(o) => o.span,
        PhaseItem::Pass(p) => p.span,
        PhaseItem::Must(m) => m.span,
        PhaseItem::Until(c) => c.span,
        PhaseItem::End(e) => e.span,
        PhaseItem::Again(a) => a.span,
        PhaseItem::Prefer(p) => p.span,
    }
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
    let mut game = Game { docs: file.docs.iter().map(|d| (d.target, d.text.clone())).collect(), ..Game::default() };
    let mut place_names = HashMap::new();
    for item in &file.items {
        add_item(&mut game, &mut place_names, item, diags);
    }
    if game.name.is_none() {
        diags.push(
            Diagnostic::error(
                "check::missing_item",
                "the file has no `game` line",
                Span::new(0, 0),
                "expected `game \"Name\"`",
            )
            .with_help("start the file with the game's name, e.g. `game \"My game\"`"),
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
        || game
            .phases
            .iter()
            .any(|p| p.node.items.iter().any(|i| matches!(i, PhaseItem::End(e) if !e.node.is_empty())));
    if !has_end {
        diags.push(missing(at, "end", "add an end rule such as `end { when stuck }`"));
    }
    let named: Vec<&Name> = game.phases.iter().filter_map(|p| p.node.name.as_ref()).collect();
    if !named.is_empty() && named.len() != game.phases.len() {
        let turn = game.phases.iter().find(|p| p.node.name.is_none()).map(|p| head(p.span, "turn")).unwrap_or(at);
        diags.push(
            Diagnostic::error(
                "check::turn_and_phases",
                "a file has either one `turn` or named phases, not both",
                turn,
                "this `turn`",
            )
            .with_related(named[0].span, "a named phase")
            .with_help("write the turn as `phase NAME { ... }` too, with an `until` to end each phase but the last"),
        );
    }
    check_phase_names(&game.phases, diags);
    game
}

fn missing(at: Span, what: &str, help: &str) -> Diagnostic {
    let article = if what.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" };
    Diagnostic::error(
        "check::missing_item",
        format!("the game has no `{what}`"),
        at,
        format!("this game needs {article} `{what}`"),
    )
    .with_help(help)
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
        diags.push(given_twice("turn", head(unnamed[1].span, "turn"), head(unnamed[0].span, "turn")));
    }
}

pub(crate) fn duplicate(what: &str, name: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error("check::duplicate", format!("{what} `{name}` is defined twice"), span, "defined again here")
        .with_related(first, "first defined here")
        .with_help(format!("remove one of the two, or give the {what} another name"))
}

/// An item a game has once, given twice.
fn given_twice(what: &str, span: Span, first: Span) -> Diagnostic {
    Diagnostic::error("check::duplicate", format!("`{what}` is given twice"), span, "given again here")
        .with_related(first, "first given here")
        .with_help(format!("a game has one `{what}`: remove one of them"))
}

fn set_once<T: Clone>(
    slot: &mut Option<T>,
    value: &T,
    what: &str,
    span: Span,
    first: impl Fn(&T) -> Span,
    diags: &mut Vec<Diagnostic>,
) {
    match slot {
        Some(old) => diags.push(given_twice(what, span, first(old))),
        None => *slot = Some(value.clone()),
    }
}

fn add_item(game: &mut Game, place_names: &mut HashMap<String, Span>, item: &Item, diags: &mut Vec<Diagnostic>) {
    match item {
        Item::Game(n) => set_once(&mut game.name, n, "game", n.span, |o| o.span, diags),
        Item::About(a) => set_once(&mut game.about, a, "about", a.span, |o| o.span, diags),
        Item::Players(p) => set_once(&mut game.players, p, "players", p.span, |o| o.span, diags),
        Item::Board(b) => set_once(&mut game.board, b, "board", b.span, |o| o.span, diags),
        Item::Pieces(p) => {
            set_once(&mut game.pieces, p, "pieces", head(p.span, "pieces"), |o| head(o.span, "pieces"), diags)
        }
        Item::Setup(s) => {
            set_once(&mut game.setup, s, "setup", head(s.span, "setup"), |o| head(o.span, "setup"), diags)
        }
        Item::End(e) => set_once(&mut game.end, e, "end", head(e.span, "end"), |o| head(o.span, "end"), diags),
        Item::Rounds(r) => {
            set_once(&mut game.rounds, r, "rounds", head(r.span, "rounds"), |o| head(o.span, "rounds"), diags)
        }
        Item::Score(s) => set_once(&mut game.score, s, "score", s.span, |o| o.span, diags),
        Item::Winner(w) => set_once(&mut game.winner, w, "winner", w.span, |o| o.span, diags),
        Item::Goal(g) => set_once(&mut game.goal, g, "goal", g.span, |o| o.span, diags),
        Item::Place(p) => {
            let name = &p.node.name;
            match place_names.get(&name.node) {
                Some(&first) => diags.push(duplicate("place", &name.node, name.span, first)),
                None => {
                    place_names.insert(name.node.clone(), name.span);
                    game.places.push(p.clone());
                }
            }
        }
        Item::Phase(p) => game.phases.push(p.clone()),
        Item::Variant(_) => {}
        // Regions and places share one namespace: `NAME(mover)` must mean one thing.
        Item::Region(r) => {
            let name = &r.node.name;
            match place_names.get(&name.node) {
                Some(&first) => diags.push(duplicate("place or region", &name.node, name.span, first)),
                None => {
                    place_names.insert(name.node.clone(), name.span);
                    game.regions.push(r.clone());
                }
            }
        }
        Item::Mark(m) => {
            let name = &m.node.name;
            match game.marks.iter().find(|o| o.node.name.node == name.node) {
                Some(first) => diags.push(duplicate("mark", &name.node, name.span, first.node.name.span)),
                None => game.marks.push(m.clone()),
            }
        }
    }
}

/// The variants of the file by name, reporting duplicates.
/// The most variants a file may have; each is checked at several player counts.
pub(crate) const MAX_VARIANTS: usize = 100;

pub(crate) fn variants(file: &File, diags: &mut Vec<Diagnostic>) -> Vec<Spanned<Variant>> {
    let mut out: Vec<Spanned<Variant>> = Vec::new();
    let mut names: HashMap<&str, Span> = HashMap::new();
    for item in &file.items {
        let Item::Variant(v) = item else { continue };
        let name = &v.node.name;
        if out.len() == MAX_VARIANTS {
            diags.push(
                Diagnostic::error(
                    "check::too_large",
                    format!("this file has more than {MAX_VARIANTS} variants"),
                    name.span,
                    "one too many",
                )
                .with_help(format!("a file has at most {MAX_VARIANTS} variants")),
            );
            break;
        }
        if name.node == "default" {
            diags.push(
                Diagnostic::error(
                    "check::bad_variant",
                    "a variant cannot be called `default`",
                    name.span,
                    "reserved name",
                )
                .with_help("`default` names the base game; choose another name"),
            );
        }
        if let Some(&first) = names.get(name.node.as_str()) {
            diags.push(duplicate("variant", &name.node, name.span, first));
            continue;
        }
        names.insert(&name.node, name.span);
        out.push(v.clone());
    }
    out
}

/// The game a variant describes: the base with the variant's items laid over it (its parent's first).
pub(crate) fn apply_variant(
    base: &Game,
    all: &[Spanned<Variant>],
    name: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<Game> {
    let mut chain: Vec<&Spanned<Variant>> = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    let mut current = all.iter().find(|v| v.node.name.node == name)?;
    loop {
        if !seen.insert(&current.node.name.node) {
            // A circle. Report it once, from its first variant in the file; a variant that only leads into
            // a circle is not reported again.
            let start = chain.iter().position(|v| v.node.name.node == current.node.name.node).unwrap_or(0);
            let circle = &chain[start..];
            let first_in_file = circle.iter().min_by_key(|v| v.span.start).map(|v| v.node.name.node.as_str());
            if start == 0 && first_in_file == Some(name) {
                diags.push(circle_error(circle));
            }
            return None;
        }
        chain.push(current);
        let Some(parent) = &current.node.extends else {
            break;
        };
        match all.iter().find(|v| v.node.name.node == parent.node) {
            Some(p) => current = p,
            None => {
                let names: Vec<&str> = all.iter().map(|v| v.node.name.node.as_str()).collect();
                let mut d = Diagnostic::error(
                    "check::unknown_name",
                    format!("there is no variant called `{}`", parent.node),
                    parent.span,
                    "unknown variant",
                );
                if let Some(s) = did_you_mean(&parent.node, names.iter().copied()) {
                    // The name inside the quotes.
                    let inner =
                        Span::new(parent.span.start + 1, parent.span.end.saturating_sub(1).max(parent.span.start + 1));
                    d = d.with_fix(inner, s);
                } else if parent.node == "default" {
                    d = d.with_help("every variant extends the base game already: leave out `extends`");
                } else if !names.is_empty() {
                    d = d.with_help(format!("the variants are: {}", names.join(", ")));
                }
                // The variant at the end of the chain is reported once, not once per variant extending it.
                if current.node.name.node == name {
                    diags.push(d);
                }
                return None;
            }
        }
    }
    let mut game = base.clone();
    for v in chain.into_iter().rev() {
        game.chain.push((v.node.name.node.clone(), v.span));
        if let Some(b) = &mut game.new_board {
            b.own.push(v.span);
        }
        let mut given: HashMap<String, Span> = HashMap::new();
        for item in &v.node.items {
            if let Some((what, span)) = once_per_variant(item) {
                if let Some(&first) = given.get(&what) {
                    diags.push(
                        given_twice(&what, span, first)
                            .with_help(format!("a variant gives `{what}` once: remove one of them")),
                    );
                    continue;
                }
                given.insert(what, span);
            }
            if let Item::Board(b) = item {
                game.new_board = Some(NewBoard { variant: v.node.name.node.clone(), span: b.span, own: vec![v.span] });
            }
            override_item(&mut game, item, diags);
        }
    }
    Some(game)
}

fn circle_error(circle: &[&Spanned<Variant>]) -> Diagnostic {
    let first = circle[0];
    let at = first.node.extends.as_ref().map_or(first.node.name.span, |e| e.span);
    if circle.len() == 1 {
        return Diagnostic::error(
            "check::bad_variant",
            format!("variant `{}` extends itself", first.node.name.node),
            at,
            "itself",
        )
        .with_help("a variant may extend another, but not itself: remove `extends`");
    }
    let names: Vec<String> =
        circle.iter().chain(std::iter::once(&first)).map(|v| format!("`{}`", v.node.name.node)).collect();
    let mut d = Diagnostic::error(
        "check::bad_variant",
        format!("these variants extend each other in a circle: {}", names.join(" -> ")),
        at,
        format!("`{}` extends `{}`", first.node.name.node, circle[1].node.name.node),
    )
    .with_help("a variant may extend another, but not in a circle: remove one `extends`");
    for (i, v) in circle.iter().enumerate().skip(1) {
        if let Some(e) = &v.node.extends {
            let next = circle.get(i + 1).unwrap_or(&first);
            d = d.with_related(e.span, format!("`{}` extends `{}`", v.node.name.node, next.node.name.node));
        }
    }
    d
}

fn not_in_base(what: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        "check::bad_variant",
        format!("this variant changes `{what}`, which the base game does not have"),
        span,
        "nothing to change",
    )
    .with_help("a variant can only replace parts of the base game; add it to the base game first")
}

/// An item a variant may give once, as its keyword (and name), and where it is given.
fn once_per_variant(item: &Item) -> Option<(String, Span)> {
    let (what, span) = match item {
        Item::About(a) => ("about", a.span),
        Item::Players(p) => ("players", p.span),
        Item::Board(b) => ("board", b.span),
        Item::Region(r) => return Some((format!("region {}", r.node.name.node), r.node.name.span)),
        Item::Setup(s) => ("setup", head(s.span, "setup")),
        Item::End(e) => ("end", head(e.span, "end")),
        Item::Rounds(r) => ("rounds", head(r.span, "rounds")),
        Item::Score(s) => ("score", s.span),
        Item::Winner(w) => ("winner", w.span),
        Item::Goal(g) => ("goal", g.span),
        _ => return None,
    };
    Some((what.to_string(), span))
}

fn override_item(game: &mut Game, item: &Item, diags: &mut Vec<Diagnostic>) {
    match item {
        Item::About(a) => game.about = Some(a.clone()),
        Item::Board(b) => game.board = Some(b.clone()),
        // A region of the base game's name replaces it; another is added.
        Item::Region(r) => match game.regions.iter_mut().find(|q| q.node.name.node == r.node.name.node) {
            Some(slot) => *slot = r.clone(),
            None => game.regions.push(r.clone()),
        },
        Item::Players(p) => game.players = Some(p.clone()),
        Item::Setup(s) => game.setup = Some(s.clone()),
        Item::End(e) => {
            diags.extend(dropped_guards(game.end.as_ref().map(|b| &b.node[..]), &e.node, head(e.span, "end")));
            game.end = Some(e.clone());
        }
        Item::Rounds(r) => game.rounds = Some(r.clone()),
        Item::Score(s) => game.score = Some(s.clone()),
        Item::Winner(w) => game.winner = Some(w.clone()),
        Item::Goal(g) => {
            if game.goal.is_none() {
                diags.push(not_in_base("goal", g.span));
            }
            game.goal = Some(g.clone());
        }
        Item::Phase(p) => {
            let target = game
                .phases
                .iter_mut()
                .find(|q| q.node.name.as_ref().map(|n| &n.node) == p.node.name.as_ref().map(|n| &n.node));
            match target {
                Some(base) => merge_phase(&mut base.node, &p.node, diags),
                None => match &p.node.name {
                    Some(name) => {
                        let names: Vec<&str> =
                            game.phases.iter().filter_map(|q| q.node.name.as_ref()).map(|n| n.node.as_str()).collect();
                        let mut d = not_in_base(&format!("phase {}", name.node), name.span);
                        if let Some(s) = did_you_mean(&name.node, names.iter().copied()) {
                            d = d
                                .with_help(format!(
                                    "did you mean `{s}`? The phases of the base game are {}",
                                    names.join(", ")
                                ))
                                .with_suggestion(name.span, s);
                        } else if names.is_empty() {
                            d = d.with_help("the base game has a `turn`: change it with `turn { ... }`");
                        } else {
                            d = d.with_help(format!("the phases of the base game are {}", names.join(", ")));
                        }
                        diags.push(d);
                    }
                    None => diags.push(
                        not_in_base("turn", head(p.span, "turn"))
                            .with_help("the base game has named phases: change one with `phase NAME { ... }`"),
                    ),
                },
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
        PhaseItem::Take(t) => format!("action {}", t.node.name.as_ref().map_or("take", |n| n.node.as_str())),
        PhaseItem::Offer(o) => format!("action {}", o.node.name.as_ref().map_or("offer", |n| n.node.as_str())),
        PhaseItem::Pass(_) => "pass".into(),
        PhaseItem::Must(_) => "must".into(),
        PhaseItem::Until(_) => "until".into(),
        PhaseItem::End(_) => "end".into(),
        PhaseItem::Again(_) => "again".into(),
        PhaseItem::Prefer(_) => "prefer".into(),
    }
}

fn merge_phase(base: &mut Phase, over: &Phase, diags: &mut Vec<Diagnostic>) {
    for item in &over.items {
        let key = phase_key(item);
        match base.items.iter_mut().find(|i| phase_key(i) == key) {
            Some(slot) => {
                if let (PhaseItem::End(old), PhaseItem::End(new)) = (&*slot, item) {
                    diags.extend(dropped_guards(Some(&old.node[..]), &new.node, head(new.span, "end")));
                }
                *slot = item.clone();
            }
            None => base.items.push(item.clone()),
        }
    }
}

/// A variant's `end` block replaces the base's whole, so the guards of the base's block (its `limit N
/// plies`, its rule on a position that comes back, its rule on a move that never ends) are lost unless the
/// variant writes them again: said as a warning each, for it is seldom meant.
fn dropped_guards(old: Option<&[EndItem]>, new: &[EndItem], at: Span) -> Vec<Diagnostic> {
    let Some(old) = old else { return Vec::new() };
    let mut out = Vec::new();
    let limit =
        |items: &[EndItem]| items.iter().find_map(|i| if let EndItem::Limit(n) = i { Some(n.clone()) } else { None });
    if let (Some(kept), None) = (limit(old), limit(new)) {
        out.push(
            Diagnostic::warning(
                "check::limit_dropped",
                format!("this `end` block replaces one with `limit {} plies`, and has no limit of its own", kept.node),
                at,
                "replaces the whole `end` block",
            )
            .with_related(kept.span, "the limit it drops")
            .with_help(format!("write `limit {} plies` in this block too to keep it", kept.node)),
        );
    }
    for guard in [Guard::Repetition, Guard::Endless] {
        let Some((text, span)) = old.iter().find_map(|i| guard.rule(i)) else { continue };
        if new.iter().any(|i| guard.rule(i).is_some()) {
            continue;
        }
        out.push(
            Diagnostic::warning(
                "check::guard_dropped",
                format!("this `end` block replaces one with `{text}`, and has no rule on {} of its own", guard.what()),
                at,
                "replaces the whole `end` block",
            )
            .with_related(span, "the rule it drops")
            .with_help(format!("write `{text}` in this block too to keep it: without it, {}", guard.without())),
        );
    }
    out
}

/// The rules of an `end` block that keep a game from going on for ever, besides its limit.
#[derive(Clone, Copy)]
enum Guard {
    /// `when repetition`, `draw when repetition`.
    Repetition,
    /// `draw when endless`, `eliminate when endless`, `cut when endless`.
    Endless,
}

impl Guard {
    /// The rule of this kind that `item` is, as written, with its span.
    fn rule(self, item: &EndItem) -> Option<(&'static str, Span)> {
        match (self, item) {
            (Guard::Repetition, EndItem::When(w)) if matches!(w.node, EndWhen::Repetition) => {
                Some(("when repetition", w.span))
            }
            (Guard::Repetition, EndItem::DrawRepetition(s)) => Some(("draw when repetition", *s)),
            (Guard::Endless, EndItem::Endless(s)) => Some(("draw when endless", *s)),
            (Guard::Endless, EndItem::CutEndless(s)) => Some(("cut when endless", *s)),
            (Guard::Endless, EndItem::Eliminate(e)) if matches!(e.node, Eliminate::Endless) => {
                Some(("eliminate when endless", e.span))
            }
            _ => None,
        }
    }

    fn what(self) -> &'static str {
        match self {
            Guard::Repetition => "a position that comes back",
            Guard::Endless => "a move that never ends",
        }
    }

    fn without(self) -> &'static str {
        match self {
            Guard::Repetition => "a position that comes back plays on, and a game may never end",
            Guard::Endless => "a move that would never end is not allowed, whatever the base game said",
        }
    }
}

/// The name of an action as written, for `pass when cannot NAME` and notation.
pub(crate) fn action_name(item: &PhaseItem) -> Option<(String, Span)> {
    match item {
        PhaseItem::Sow(s) => Some((s.node.name.as_ref().map_or("sow".into(), |n| n.node.clone()), s.span)),
        PhaseItem::Put(p) => Some((p.node.name.as_ref().map_or("put".into(), |n| n.node.clone()), p.span)),
        PhaseItem::Take(t) => Some((t.node.name.as_ref().map_or("take".into(), |n| n.node.clone()), t.span)),
        PhaseItem::Offer(o) => Some((o.node.name.as_ref().map_or("offer".into(), |n| n.node.clone()), o.span)),
        _ => None,
    }
}

/// The start of an item's span, as long as its keyword: `setup` rather than the whole block.
pub(crate) fn head(span: Span, keyword: &str) -> Span {
    Span::new(span.start, (span.start + keyword.len()).min(span.end))
}
