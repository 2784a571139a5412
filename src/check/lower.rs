//! Name resolution and lowering: one game (base or variant) at one player count, to `ir::Rules`.
//!
//! Every problem becomes a diagnostic and lowering goes on with a placeholder, so that one run reports
//! every error it can find.

use std::collections::{BTreeSet, HashMap};

use crate::ast::{self, Span, Spanned};
use crate::diag::{did_you_mean, Diagnostic};
use crate::engine::DEFAULT_LIMIT;
use crate::ir::*;

use super::merge::{action_name, duplicate, Game};

pub(crate) const MAX_PITS: usize = 64;
pub(crate) const MAX_PLAYERS: u32 = 8;
pub(crate) const MAX_KINDS: usize = 64;
pub(crate) const MAX_PIECES: u32 = 255;
/// Places in all: pits, stores and declared places, each per-player place counted once per player.
pub(crate) const MAX_PLACES: usize = 256;
/// The most diagnostics one lowering records. A file may repeat one mistake thousands of times, and
/// `check` lowers it for every variant and several player counts; past this, errors are only counted, and
/// no time is spent on their words (such as the nearest name).
pub(crate) const MAX_RECORDED: usize = 4 * super::MAX_DIAGNOSTICS;

/// Where an expression stands, and so which names it may use.
#[derive(Debug, Clone, Copy, Default)]
struct Scope {
    /// `here` is bound: a candidate pit, a capture's pit, a swept pit.
    here: bool,
    /// `last` and `origin` are known: we are inside a sowing, after the pieces are down.
    last: bool,
    /// `player` is bound: a quantifier over players, `score`, `eliminate`.
    player: bool,
    /// `offered` is known: inside an offer.
    offered: bool,
}

impl Scope {
    fn here(self) -> Scope {
        Scope { here: true, ..self }
    }
    fn player(self) -> Scope {
        Scope { player: true, ..self }
    }
}

/// A lowered term, typed.
enum Typed {
    Num(Num),
    Player(PlayerExpr),
    Place(PlaceExpr),
    Kind(KindSel),
    /// `dropped(P)`: comparable with a kind only.
    Dropped(PlaceExpr),
    Bad,
}

impl Typed {
    fn describe(&self) -> &'static str {
        match self {
            Typed::Num(_) => "a number",
            Typed::Player(_) => "a player",
            Typed::Place(_) => "a place",
            Typed::Kind(_) => "a kind of piece",
            Typed::Dropped(_) => "the kind of a dropped piece",
            Typed::Bad => "an unknown term",
        }
    }
}

#[derive(Debug, Clone)]
struct PlaceName {
    id: PlaceId,
    per_player: bool,
    span: Span,
}

pub(crate) struct Lowerer<'g> {
    game: &'g Game,
    pub diags: Vec<Diagnostic>,
    players: u8,
    shape: Shape,
    n_pits: usize,
    places: Vec<PlaceInfo>,
    labels: HashMap<String, PlaceId>,
    place_names: HashMap<String, PlaceName>,
    kinds: Vec<KindInfo>,
    coloured: bool,
    /// The board was declared and usable: without it, errors about pits would only repeat that one.
    board_ok: bool,
    /// Something that puts pieces in a place could not be checked, so "never filled" cannot be trusted.
    fill_unknown: bool,
    /// Errors found, recorded or not (see [`MAX_RECORDED`]).
    errors: usize,
    pub needs: Needs,
    /// Places something can put pieces into, and places a condition reads, for the "never filled" check.
    pub filled: BTreeSet<PlaceId>,
    pub read: Vec<(PlaceId, Span)>,
    pub used_names: BTreeSet<String>,
}

impl<'g> Lowerer<'g> {
    pub fn new(game: &'g Game) -> Lowerer<'g> {
        Lowerer {
            game,
            diags: Vec::new(),
            players: 2,
            shape: Shape::Ring { pits: 0 },
            n_pits: 0,
            places: Vec::new(),
            labels: HashMap::new(),
            place_names: HashMap::new(),
            kinds: Vec::new(),
            coloured: false,
            board_ok: false,
            fill_unknown: false,
            errors: 0,
            needs: Needs::default(),
            filled: BTreeSet::new(),
            read: Vec::new(),
            used_names: BTreeSet::new(),
        }
    }

    /// Records a diagnostic, unless this lowering has recorded [`MAX_RECORDED`] already.
    fn push(&mut self, d: Diagnostic) {
        if d.is_error() {
            self.errors += 1;
        }
        if self.diags.len() < MAX_RECORDED {
            self.diags.push(d);
        }
    }

    /// Whether no more diagnostics are recorded: a caller may then skip the work of wording one.
    fn full(&self) -> bool {
        self.diags.len() >= MAX_RECORDED
    }

    fn error(
        &mut self,
        code: &str,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
        help: Option<String>,
    ) {
        let mut d = Diagnostic::error(code, message, span, label);
        if let Some(h) = help {
            d = d.with_help(h);
        }
        self.push(d);
    }

    /// The player counts this game allows: (min, max, default).
    pub fn player_range(&mut self) -> (u32, u32, u32) {
        let Some(p) = &self.game.players else {
            return (2, 2, 2);
        };
        let min = p.node.min.node;
        let max = p.node.max.as_ref().map_or(min, |m| m.node);
        let default = p.node.default.as_ref().map_or(min, |d| d.node);
        if min == 0 || max > MAX_PLAYERS || min > max {
            let (message, help) = if min > max {
                (
                    format!("the range `{min}..{max}` goes backwards"),
                    format!("write the smaller number first: `players {max}..{min}`"),
                )
            } else if min == 0 {
                ("a game needs at least one player".to_string(), format!("players go from 1 to {MAX_PLAYERS}"))
            } else {
                (
                    format!("{max} players are more than the {MAX_PLAYERS} this language supports"),
                    format!("players go from 1 to {MAX_PLAYERS}"),
                )
            };
            self.error("check::players_range", message, p.span, "not a usable number of players", Some(help));
            return (
                min.clamp(1, MAX_PLAYERS),
                max.clamp(1, MAX_PLAYERS).max(min.clamp(1, MAX_PLAYERS)),
                default.clamp(1, MAX_PLAYERS),
            );
        }
        if default < min || default > max {
            let span = p.node.default.as_ref().map_or(p.span, |d| d.span);
            self.error(
                "check::players_range",
                format!("the default of {default} players is outside {min}..{max}"),
                span,
                "outside the range",
                Some(format!("choose a default from {min} to {max}")),
            );
        }
        (min, max, default.clamp(min, max))
    }

    pub fn lower(mut self, variant: &str, players: u8) -> (Option<Rules>, Vec<Diagnostic>, Lints) {
        self.players = players;
        self.lower_board();
        self.lower_pieces();
        self.lower_places();
        let setup = self.lower_setup();
        let phases = self.lower_phases();
        let end = match &self.game.end {
            Some(e) => self.lower_end(&e.node),
            None => EndRules::default(),
        };
        let score = match &self.game.score {
            Some(t) => self.num(t, Scope::default().player()),
            None => Num::Const(0),
        };
        let goal = self.game.goal.as_ref().map(|g| self.cond(g, Scope::default()));
        let ties = match self.game.winner.as_ref().map(|w| w.node) {
            Some(ast::TieRule::Shared) => Ties::Shared,
            Some(ast::TieRule::LastMover) => Ties::LastMover,
            _ => Ties::Draw,
        };
        let limit = phases.iter().filter_map(|p| p.end.limit).chain(end.limit).min().unwrap_or(DEFAULT_LIMIT);
        let total_pieces: u32 = setup.iter().map(|&c| c as u32).sum();
        let read = if self.fill_unknown { Vec::new() } else { self.read.clone() };
        let lints = Lints { filled: self.filled.clone(), read, used: self.used_names.clone() };
        // Without a usable board there is no track to build. A missing board is reported by `merge`, a bad
        // one by `lower_board`; the rules are never made either way.
        if self.errors > 0 || !self.board_ok {
            return (None, self.diags, lints);
        }
        let (track, next, pit_next, opposite, initial_owner) = self.topology(&phases);
        let score_doc = self.game.score.as_ref().and_then(|t| self.doc(t.span));
        let goal_doc = self.game.goal.as_ref().and_then(|g| self.doc(g.span));
        let mut rules = Rules {
            game: self.game.name.as_ref().map_or(String::new(), |n| n.node.clone()),
            variant: variant.to_string(),
            about: self.game.about.as_ref().map_or(String::new(), |a| a.node.clone()),
            players,
            shape: self.shape,
            n_pits: self.n_pits,
            places: self.places,
            kinds: self.kinds,
            track,
            next,
            pit_next,
            opposite,
            initial_owner,
            setup,
            phases,
            end,
            score,
            ties,
            goal,
            needs: self.needs,
            limit,
            total_pieces,
            score_doc,
            goal_doc,
        };
        rules.needs.refills = crate::ir::pieces_can_return(&rules);
        (Some(rules), self.diags, lints)
    }

    /// The file's own sentence (`///`) for the rule whose AST node starts where `span` does.
    fn doc(&self, span: Span) -> Option<String> {
        self.game.docs.get(&span.start).cloned()
    }

    // ------------------------------------------------------------ board, pieces, places

    fn lower_board(&mut self) {
        let Some(board) = &self.game.board else {
            return;
        };
        let (pits, stores, rows) = match &board.node {
            ast::Board::TwoRows { pits, stores } => (pits, *stores, true),
            ast::Board::Ring { pits } => (pits, false, false),
        };
        let n = pits.node as usize;
        let total = if rows { 2 * n } else { n };
        if n == 0 || total > MAX_PITS || (rows && n > 26) {
            let (label, help) = if rows {
                ("1 to 26 pits a row", "a board of two rows has 1 to 26 pits in each row")
            } else {
                ("1 to 64 pits", "a ring has 1 to 64 pits")
            };
            let message = if n == 0 {
                "a board needs at least one pit".to_string()
            } else {
                format!("a board of {n} pits is not supported")
            };
            self.error(
                if n == 0 { "check::empty" } else { "check::too_large" },
                message,
                pits.span,
                label,
                Some(help.into()),
            );
            return;
        }
        self.board_ok = true;
        self.n_pits = total;
        self.shape = if rows { Shape::TwoRows { pits: n as u16, stores } } else { Shape::Ring { pits: n as u16 } };
        for i in 0..total {
            let label = if !rows {
                (i + 1).to_string()
            } else if i < n {
                ((b'a' + i as u8) as char).to_string()
            } else {
                ((b'A' + (i - n) as u8) as char).to_string()
            };
            let owner = if !rows {
                NO_PLAYER
            } else if i < n {
                0
            } else {
                1
            };
            self.labels.insert(label.clone(), i as PlaceId);
            self.places.push(PlaceInfo { name: label.clone(), label, is_pit: true, on_track: true, owner });
        }
        if rows && self.players != 2 {
            let mut d = Diagnostic::error(
                "check::players_range",
                format!("a board of two rows is for 2 players, not {}", self.players),
                board.span,
                "two sides",
            )
            .with_help("use `players 2`, or a `ring` board for other numbers of players");
            if let Some(p) = &self.game.players {
                d = d.with_related(p.span, format!("{} players allowed here", self.players));
            }
            self.push(d);
        }
        if stores {
            let id = self.places.len() as PlaceId;
            self.place_names.insert("store".into(), PlaceName { id, per_player: true, span: board.span });
            // One store per player, as for any place per player, so that `every store` and `store(player)`
            // index within the stores even when the count of players is wrong for the board (an error above).
            for p in 0..self.players {
                self.places.push(PlaceInfo {
                    label: format!("store({})", p + 1),
                    name: "store".into(),
                    is_pit: false,
                    on_track: true,
                    owner: p,
                });
                self.filled.insert(id + p as PlaceId);
            }
        }
    }

    fn lower_pieces(&mut self) {
        let Some(pieces) = &self.game.pieces else {
            self.kinds.push(KindInfo { name: "seed".into(), symbol: "o".into(), value: 1, owner: NO_PLAYER });
            return;
        };
        match &pieces.node {
            ast::Pieces::Seeds => {
                self.kinds.push(KindInfo { name: "seed".into(), symbol: "o".into(), value: 1, owner: NO_PLAYER })
            }
            ast::Pieces::PerPlayer(colours) => {
                self.coloured = true;
                if (colours.len() as u32) < self.players as u32 {
                    let span = self.game.players.as_ref().map_or(pieces.span, |p| p.span);
                    let declared = match colours.len() {
                        1 => "1 colour is declared".to_string(),
                        n => format!("{n} colours are declared"),
                    };
                    self.push(
                        Diagnostic::error(
                            "check::players_range",
                            format!("{} players need {} colours, but only {declared}", self.players, self.players),
                            span,
                            "too many players for the colours",
                        )
                        .with_related(head(pieces.span, "pieces"), declared)
                        .with_help(
                            "declare a colour for every seat in `pieces per player { ... }`, or allow fewer players",
                        ),
                    );
                }
                self.check_kind_decls(colours);
                for (i, c) in colours.iter().take(self.players as usize).enumerate() {
                    self.kinds.push(KindInfo {
                        name: c.name.node.clone(),
                        symbol: c.symbol.node.clone(),
                        value: 1,
                        owner: i as u8,
                    });
                }
            }
            ast::Pieces::Kinds(kinds) => {
                self.check_kind_decls(kinds);
                for k in kinds.iter().take(MAX_KINDS) {
                    let value = k.value.as_ref().map_or(0, |v| v.node as i32);
                    self.kinds.push(KindInfo {
                        name: k.name.node.clone(),
                        symbol: k.symbol.node.clone(),
                        value,
                        owner: NO_PLAYER,
                    });
                }
                if kinds.is_empty() {
                    self.error(
                        "check::empty",
                        "no kinds of pieces are declared",
                        pieces.span,
                        "empty",
                        Some("write `pieces seeds` for plain seeds".into()),
                    );
                    self.kinds.push(KindInfo { name: "seed".into(), symbol: "o".into(), value: 1, owner: NO_PLAYER });
                }
            }
        }
    }

    fn check_kind_decls(&mut self, kinds: &[ast::KindDecl]) {
        if kinds.len() > MAX_KINDS {
            self.error(
                "check::too_large",
                format!("{} kinds of pieces is more than {MAX_KINDS}", kinds.len()),
                kinds[MAX_KINDS].span,
                "too many",
                None,
            );
        }
        let mut symbols: HashMap<&str, Span> = HashMap::new();
        let mut pairs: HashMap<(String, u32), Span> = HashMap::new();
        for k in kinds {
            if k.symbol.node.is_empty() || k.symbol.node.chars().any(|c| c.is_whitespace() || c == ',' || c == ':') {
                self.error(
                    "check::bad_symbol",
                    format!("`\"{}\"` cannot be a piece symbol", k.symbol.node),
                    k.symbol.span,
                    "not usable in move notation",
                    Some("use one or two letters or digits, such as \"R\" or \"5\"".into()),
                );
            }
            if let Some(first) = symbols.insert(&k.symbol.node, k.symbol.span) {
                self.push(
                    Diagnostic::error(
                        "check::duplicate",
                        format!("two kinds of piece share the symbol \"{}\"", k.symbol.node),
                        k.symbol.span,
                        "used again here",
                    )
                    .with_related(first, "first used here")
                    .with_help("move notation tells pieces apart by their symbols, so each kind needs its own"),
                );
            }
            let key = (k.name.node.clone(), k.value.as_ref().map_or(0, |v| v.node));
            if let Some(first) = pairs.insert(key, k.span) {
                self.push(duplicate("kind", &k.name.node, k.span, first));
            }
        }
    }

    fn lower_places(&mut self) {
        for decl in &self.game.places.clone() {
            let name = &decl.node.name;
            if let Some(first) = self.place_names.get(&name.node) {
                // Only `store` can be here: duplicates among declared places are reported by `merge`.
                let first = first.span;
                self.push(
                    Diagnostic::error(
                        "check::duplicate",
                        format!("`{}` is already the name of a place", name.node),
                        name.span,
                        "defined again here",
                    )
                    .with_related(first, "the board's `with stores` makes a `store` for each player")
                    .with_help("give this place another name"),
                );
                continue;
            }
            if self.labels.contains_key(&name.node) {
                self.error(
                    "check::duplicate",
                    format!("`{}` is already the name of a pit", name.node),
                    name.span,
                    "a pit of this board",
                    Some(format!("give this place another name; {}", self.board_labels_help())),
                );
                continue;
            }
            if self.kinds.iter().any(|k| k.name == name.node) {
                self.error(
                    "check::duplicate",
                    format!("`{}` is already the name of a kind of piece", name.node),
                    name.span,
                    "ambiguous name",
                    Some("give this place another name".into()),
                );
            }
            let copies = if decl.node.per_player { self.players as usize } else { 1 };
            if self.places.len() + copies > MAX_PLACES {
                self.error(
                    "check::too_large",
                    format!("this game has more than {MAX_PLACES} places"),
                    name.span,
                    "one place too many",
                    Some(format!("a game has at most {MAX_PLACES} pits, stores and places in all")),
                );
                return;
            }
            let id = self.places.len() as PlaceId;
            self.place_names
                .insert(name.node.clone(), PlaceName { id, per_player: decl.node.per_player, span: name.span });
            if decl.node.per_player {
                for p in 0..self.players {
                    self.places.push(PlaceInfo {
                        label: format!("{}({})", name.node, p + 1),
                        name: name.node.clone(),
                        is_pit: false,
                        on_track: false,
                        owner: p,
                    });
                }
            } else {
                self.places.push(PlaceInfo {
                    label: name.node.clone(),
                    name: name.node.clone(),
                    is_pit: false,
                    on_track: false,
                    owner: NO_PLAYER,
                });
            }
        }
    }

    // ------------------------------------------------------------ setup

    fn lower_setup(&mut self) -> Vec<u8> {
        let k = self.kinds.len().max(1);
        // u64: a line's count is a u32, and many of them must add up without overflowing.
        let mut counts = vec![0u64; self.places.len() * k];
        let Some(setup) = &self.game.setup else {
            let span = self.game.name.as_ref().map_or(Span::default(), |n| n.span);
            self.error(
                "check::missing_item",
                "the game has no `setup`",
                span,
                "this game needs a `setup`",
                Some("add `setup { every pit: 4 }`".into()),
            );
            return vec![0; counts.len()];
        };
        let errors_before = self.error_count();
        for line in &setup.node {
            let targets = self.setup_targets(line);
            for content in &line.contents {
                for &(place, owner) in &targets {
                    if let Some(kind) = self.setup_kind(content, owner) {
                        counts[place as usize * k + kind as usize] += u64::from(content.node.count.node);
                        self.filled.insert(place);
                    }
                }
            }
        }
        let line_failed = self.error_count() > errors_before;
        self.fill_unknown |= line_failed;
        let total: u64 = counts.iter().sum();
        let at = head(setup.span, "setup");
        if total > u64::from(MAX_PIECES) {
            self.error(
                "check::too_large",
                format!("the setup puts {total} pieces in play, more than {MAX_PIECES}"),
                at,
                format!("{total} pieces"),
                Some(format!("a game has at most {MAX_PIECES} pieces in all")),
            );
        }
        // With no usable board or a line in error, an empty setup is only an echo of that error.
        if total == 0 && self.board_ok && !line_failed {
            self.error(
                "check::bad_setup",
                "the setup puts no pieces anywhere",
                at,
                "nothing to play with",
                Some("add a line such as `every pit: 4`".into()),
            );
        }
        counts.into_iter().map(|c| c.min(255) as u8).collect()
    }

    fn error_count(&self) -> usize {
        self.errors
    }

    /// The places of a setup line, each with the player it belongs to (for `own`).
    fn setup_targets(&mut self, line: &ast::SetupLine) -> Vec<(PlaceId, u8)> {
        let mut out = Vec::new();
        for t in &line.targets {
            match &t.node {
                ast::Target::Every(name) if name.node == "pit" || name.node == "pits" => {
                    if !self.board_ok {
                        self.fill_unknown = true;
                    }
                    out.extend((0..self.n_pits as PlaceId).map(|p| (p, self.places[p as usize].owner)));
                }
                ast::Target::Every(name) => match self.place_names.get(&name.node).cloned() {
                    Some(pn) if pn.per_player => {
                        self.used_names.insert(name.node.clone());
                        out.extend((0..self.players).map(|p| (pn.id + p as PlaceId, p)));
                    }
                    Some(pn) => {
                        self.used_names.insert(name.node.clone());
                        out.push((pn.id, NO_PLAYER));
                    }
                    None => self.unknown(&name.node, name.span, "place", self.every_candidates()),
                },
                ast::Target::Label(label) => match self.labels.get(&label.node) {
                    Some(&p) => out.push((p, self.places[p as usize].owner)),
                    None if self.board_ok => self.off_board(label),
                    None => self.fill_unknown = true,
                },
            }
        }
        out
    }

    fn every_candidates(&self) -> Vec<String> {
        let mut c: Vec<String> = self.place_names.keys().cloned().collect();
        c.push("pit".into());
        c
    }

    fn off_board(&mut self, label: &ast::Name) {
        let help = self.board_labels_help();
        self.error(
            "check::off_board",
            format!("there is no pit `{}` on this board", label.node),
            label.span,
            "not a pit of this board",
            Some(help),
        );
    }

    /// A name that can only be meant as a pit: a number, or a single letter.
    fn looks_like_label(name: &str) -> bool {
        name.chars().all(|c| c.is_ascii_digit()) || (name.len() == 1 && name.chars().all(|c| c.is_ascii_alphabetic()))
    }

    fn board_labels_help(&self) -> String {
        match self.shape {
            Shape::TwoRows { pits, .. } => {
                let last = (b'a' + pits as u8 - 1) as char;
                format!("the pits of this board are a..{last} and A..{}", last.to_ascii_uppercase())
            }
            Shape::Ring { pits } => format!("the pits of this board are 1..{pits}"),
        }
    }

    fn setup_kind(&mut self, content: &Spanned<ast::Content>, owner: u8) -> Option<KindId> {
        match &content.node.kind {
            None if self.kinds.len() == 1 => Some(0),
            None => {
                let n = content.node.count.node;
                let examples: Vec<String> = if self.coloured {
                    vec![format!("`{n} own`"), format!("`{n} {}`", self.kinds[0].name)]
                } else {
                    let mut seen = BTreeSet::new();
                    self.kinds
                        .iter()
                        .filter(|k| seen.insert(k.name.clone()))
                        .map(|k| {
                            let several = self.kinds.iter().filter(|o| o.name == k.name).count() > 1;
                            if several {
                                format!("`{n} {} {}`", k.name, k.value)
                            } else {
                                format!("`{n} {}`", k.name)
                            }
                        })
                        .collect()
                };
                self.error(
                    "check::bad_setup",
                    format!("{n} pieces of which kind?"),
                    content.span,
                    "the kind is missing",
                    Some(format!("the pieces of this game differ: name the kind, such as {}", or_list(&examples))),
                );
                None
            }
            Some(sel) => match &sel.node {
                ast::KindSel::Own | ast::KindSel::Player(_) => {
                    if !self.coloured {
                        self.error(
                            "check::bad_setup",
                            "`own` needs pieces with a colour per player",
                            sel.span,
                            "these pieces have no owner",
                            Some("declare `pieces per player { ... }`".into()),
                        );
                        return None;
                    }
                    if owner == NO_PLAYER {
                        self.error(
                            "check::bad_setup",
                            "`own` needs a place that belongs to a player",
                            sel.span,
                            "whose colour?",
                            Some("use `every NAME` with a place declared `per player`".into()),
                        );
                        return None;
                    }
                    self.kinds.iter().position(|k| k.owner == owner).map(|k| k as KindId)
                }
                ast::KindSel::Foreign => {
                    self.error(
                        "check::bad_setup",
                        "`foreign` cannot be used in a setup",
                        sel.span,
                        "which colour?",
                        None,
                    );
                    None
                }
                ast::KindSel::Named { name, value } => {
                    let mask = self.kind_mask_named(name, value.as_ref())?;
                    if mask.count_ones() != 1 {
                        let values: Vec<String> = self
                            .kinds
                            .iter()
                            .filter(|k| k.name == name.node)
                            .map(|k| format!("`{} {}`", name.node, k.value))
                            .collect();
                        self.error(
                            "check::bad_setup",
                            format!("`{}` names several kinds of piece", name.node),
                            sel.span,
                            "which one?",
                            Some(format!("add the value: {}", or_list(&values))),
                        );
                        return None;
                    }
                    Some(mask.trailing_zeros() as KindId)
                }
            },
        }
    }

    fn kind_mask_named(&mut self, name: &ast::Name, value: Option<&Spanned<u32>>) -> Option<KindMask> {
        let mut mask = 0u64;
        for (i, k) in self.kinds.iter().enumerate() {
            if k.name == name.node && value.map_or(true, |v| k.value == v.node as i32) {
                mask |= 1 << i;
            }
        }
        if mask != 0 {
            return Some(mask);
        }
        if self.kinds.iter().any(|k| k.name == name.node) {
            let v = value.map_or(0, |v| v.node);
            let values: Vec<String> =
                self.kinds.iter().filter(|k| k.name == name.node).map(|k| k.value.to_string()).collect();
            self.error(
                "check::unknown_name",
                format!("there is no `{} {v}`", name.node),
                value.map_or(name.span, |v| Span::new(name.span.start, v.span.end)),
                "no such kind",
                Some(format!("the values of `{}` are {}", name.node, and_list(&values))),
            );
            return None;
        }
        let names: Vec<String> = self.kinds.iter().map(|k| k.name.clone()).collect();
        self.unknown(&name.node, name.span, "kind of piece", names);
        None
    }

    fn unknown(&mut self, name: &str, span: Span, what: &str, candidates: Vec<String>) {
        self.unknown_with(name, span, what, candidates, None);
    }

    /// An unknown name, with the closest known one as help, or else `fallback`, or else the known names.
    fn unknown_with(&mut self, name: &str, span: Span, what: &str, candidates: Vec<String>, fallback: Option<String>) {
        if self.full() {
            self.errors += 1;
            return;
        }
        let mut d = Diagnostic::error(
            "check::unknown_name",
            format!("there is no {what} called `{name}`"),
            span,
            format!("unknown {what}"),
        );
        if let Some(s) = did_you_mean(name, candidates.iter().map(String::as_str)) {
            d = d.with_help(format!("did you mean `{s}`?"));
        } else if let Some(help) = fallback {
            d = d.with_help(help);
        } else if !candidates.is_empty() {
            let mut c = candidates.clone();
            c.sort();
            c.dedup();
            let c: Vec<String> = c.iter().map(|c| format!("`{c}`")).collect();
            d = d.with_help(format!("the known names are {}", and_list(&c)));
        }
        self.push(d);
    }

    // ------------------------------------------------------------ phases and actions

    fn lower_phases(&mut self) -> Vec<PhaseRules> {
        let phases = self.game.phases.clone();
        let mut out = Vec::new();
        for (i, phase) in phases.iter().enumerate() {
            let name = phase.node.name.as_ref().map_or("play".to_string(), |n| n.node.clone());
            let mut rules = PhaseRules {
                name,
                actions: Vec::new(),
                pass: None,
                must: None,
                until: None,
                until_doc: None,
                end: EndRules::default(),
            };
            let mut names: HashMap<String, Span> = HashMap::new();
            for item in &phase.node.items {
                if let Some((name, span)) = action_name(item) {
                    if let Some(first) = names.insert(name.clone(), span) {
                        self.push(duplicate("action", &name, span, first));
                    }
                }
            }
            for item in &phase.node.items {
                match item {
                    ast::PhaseItem::Sow(s) => {
                        let sow = self.lower_sow(&s.node, s.span);
                        rules.actions.push(Action {
                            name: s.node.name.as_ref().map_or("sow".into(), |n| n.node.clone()),
                            kind: ActionKind::Sow(sow),
                            doc: self.doc(s.span),
                        });
                    }
                    ast::PhaseItem::Put(p) => {
                        let put = self.lower_put(&p.node);
                        rules.actions.push(Action {
                            name: p.node.name.as_ref().map_or("put".into(), |n| n.node.clone()),
                            kind: ActionKind::Put(put),
                            doc: self.doc(p.span),
                        });
                    }
                    ast::PhaseItem::Offer(o) => {
                        let offer = self.lower_offer(&o.node, o.span);
                        rules.actions.push(Action {
                            name: o.node.name.as_ref().map_or("offer".into(), |n| n.node.clone()),
                            kind: ActionKind::Offer(offer),
                            doc: self.doc(o.span),
                        });
                    }
                    ast::PhaseItem::Pass(_) | ast::PhaseItem::End(_) => {}
                    ast::PhaseItem::Must(m) => {
                        let after = self.cond(&m.node.after, Scope::default());
                        let when = self.cond(&m.node.when, Scope::default());
                        rules.must = Some(MustRule {
                            after,
                            when,
                            otherwise_end: m.node.otherwise == ast::MustElse::End,
                            doc: self.doc(m.span),
                        });
                    }
                    ast::PhaseItem::Until(c) => {
                        if i + 1 == phases.len() {
                            self.push(
                                Diagnostic::warning(
                                    "check::last_until",
                                    "the last phase has nowhere to go after `until`",
                                    c.span,
                                    "never used",
                                )
                                .with_help("`until` starts the next phase; the last phase ends only by the end rules"),
                            );
                        }
                        rules.until = Some(self.cond(c, Scope::default()));
                        rules.until_doc = self.doc(c.span);
                    }
                }
            }
            let at = phase.node.name.as_ref().map_or(head(phase.span, "turn"), |n| n.span);
            if rules.actions.is_empty() {
                self.error(
                    "check::empty",
                    "this phase has no action",
                    at,
                    "nothing to do",
                    Some("add `sow { ... }`, `put { ... }` or `offer { ... }`".into()),
                );
            }
            for item in &phase.node.items {
                match item {
                    ast::PhaseItem::Pass(p) => {
                        let mut pass = self.lower_pass(&p.node, &rules.actions);
                        pass.doc = self.doc(p.span);
                        rules.pass = Some(pass);
                    }
                    ast::PhaseItem::End(e) => rules.end = self.lower_end(&e.node),
                    _ => {}
                }
            }
            // A `turn` among named phases is reported by `merge`; its order means nothing.
            let mixed = phases.iter().any(|p| p.node.name.is_none()) && phases.len() > 1;
            if i + 1 < phases.len() && rules.until.is_none() && !mixed {
                self.error(
                    "check::missing_item",
                    format!("phase `{}` never ends", rules.name),
                    at,
                    "no `until`",
                    Some("add `until CONDITION` so the next phase can begin".into()),
                );
            }
            out.push(rules);
        }
        out
    }

    fn lower_pass(&mut self, pass: &ast::PassWhen, actions: &[Action]) -> PassRule {
        match &pass.action {
            None => PassRule { unless: (0..actions.len() as u8).collect(), doc: None },
            Some(name) => match actions.iter().position(|a| a.name == name.node) {
                Some(i) => PassRule { unless: vec![i as u8], doc: None },
                None => {
                    self.unknown(&name.node, name.span, "action", actions.iter().map(|a| a.name.clone()).collect());
                    PassRule { unless: Vec::new(), doc: None }
                }
            },
        }
    }

    fn lower_sow(&mut self, sow: &ast::Sow, span: Span) -> Sow {
        let mut out = Sow {
            from: Set::AllPits,
            filter: Cond::True,
            dir: DirRule::Fixed(Dir::Ccw),
            order_chosen: false,
            last_own: false,
            skip_origin: false,
            relay: None,
            require: None,
            captures: Vec::new(),
            again: None,
            then: None,
            lookahead: false,
            relay_doc: None,
            require_doc: None,
            again_doc: None,
        };
        let mut seen: HashMap<&'static str, Span> = HashMap::new();
        let mut has_from = false;
        let after = Scope { last: true, here: true, ..Scope::default() };
        for item in &sow.items {
            let (key, item_span) = sow_item_key(item);
            if key != "capture" && key != "skip" {
                if let Some(first) = seen.insert(key, item_span) {
                    self.push(
                        Diagnostic::error(
                            "check::duplicate",
                            format!("this sowing says `{key}` twice"),
                            head(item_span, key),
                            "said again here",
                        )
                        .with_related(head(first, key), "first said here")
                        .with_help(format!("a sowing has one `{key}`: remove one of them")),
                    );
                }
            }
            match item {
                ast::SowItem::From { set, filter, .. } => {
                    has_from = true;
                    out.from = self.set(set, Scope::default());
                    out.filter = filter.as_ref().map_or(Cond::True, |f| self.cond(f, Scope::default().here()));
                }
                ast::SowItem::Direction(d) => {
                    out.dir = match d.node {
                        ast::DirWord::Ccw => DirRule::Fixed(Dir::Ccw),
                        ast::DirWord::Cw => DirRule::Fixed(Dir::Cw),
                        ast::DirWord::Choose => DirRule::Choose,
                    }
                }
                ast::SowItem::Order { last_own, span } => {
                    out.order_chosen = true;
                    out.last_own = *last_own;
                    if *last_own && !self.coloured {
                        self.error(
                            "check::no_colours",
                            "`last own` needs pieces with a colour per player",
                            *span,
                            "whose colour?",
                            Some("declare `pieces per player { ... }`".into()),
                        );
                    }
                }
                ast::SowItem::Skip(s) => match &s.node {
                    ast::SkipTarget::Origin => out.skip_origin = true,
                    ast::SkipTarget::Place(p) => {
                        // Lowered per mover in `topology`; here we only check the names.
                        let place = self.place(p, Scope::default());
                        if let Typed::Place(PlaceExpr::Fixed(id)) | Typed::Place(PlaceExpr::OfPlayer(id, _)) = &place {
                            if !self.places.get(*id as usize).is_some_and(|i| i.on_track) {
                                self.error(
                                    "check::off_track",
                                    "this place is not on the sowing track",
                                    s.span,
                                    "never sown into anyway",
                                    Some("only pits and the stores of `with stores` are on the track".into()),
                                );
                            }
                        }
                    }
                },
                ast::SowItem::Relay(c) => {
                    let cond = self.cond(&c.node, after);
                    if crate::ir::relay_always_holds(&cond) {
                        self.diags.push(relay_always_warning(c.span));
                    }
                    out.relay = Some(cond);
                    out.relay_doc = self.doc(c.span);
                }
                ast::SowItem::Require(c) => {
                    out.require = Some(self.cond(&c.node, after));
                    out.require_doc = self.doc(c.span);
                }
                ast::SowItem::Capture(c) => {
                    let rule = self.lower_capture(&c.node, c.span);
                    out.captures.push(rule);
                }
                ast::SowItem::Again(c) => {
                    out.again = Some(self.cond(&c.node, after));
                    out.again_doc = self.doc(c.span);
                }
                ast::SowItem::Then(t) => {
                    let kinds = t.node.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k));
                    let set = self.set(&t.node.set, after);
                    let filter = t.node.filter.as_ref().map_or(Cond::True, |f| self.cond(f, after.here()));
                    let to = self.target_place(&t.node.to, after);
                    out.then = Some(ThenRule { must: t.node.must, kinds, set, filter, to, doc: self.doc(t.span) });
                }
            }
        }
        if !has_from {
            self.error(
                "check::missing_item",
                "this sowing does not say where it starts",
                span,
                "no `from`",
                Some("add `from pits(mover) where count > 0`".into()),
            );
        }
        if out.relay.is_some() && out.order_chosen {
            self.error(
                "check::unsupported",
                "a relay sowing cannot also let the mover choose the order",
                span,
                "relay and order together",
                Some("drop either `relay` or `order choose`".into()),
            );
        }
        out.lookahead = out.require.is_some() || out.relay.is_some();
        out
    }

    fn lower_capture(&mut self, cap: &ast::Capture, span: Span) -> CaptureRule {
        let scope = Scope { last: true, here: true, ..Scope::default() };
        let when = cap.when.as_ref().map_or(Cond::True, |c| self.cond(c, scope));
        let mut rule = CaptureRule { when, takes: Vec::new(), chain: None, cancel: None, doc: self.doc(span) };
        for item in &cap.items {
            match item {
                ast::CaptureItem::Take(t) => {
                    let take = self.lower_take(&t.node, t.span, scope);
                    rule.takes.push(take);
                }
                ast::CaptureItem::Chain(c) => {
                    if rule.chain.is_some() {
                        self.error(
                            "check::duplicate",
                            "a capture has at most one `chain`",
                            c.span,
                            "second chain",
                            None,
                        );
                    }
                    let cond = match &c.node.while_ {
                        Some(w) => self.cond(w, scope),
                        None => cap.when.as_ref().map_or(Cond::True, |w| self.cond(w, scope)),
                    };
                    let (backward, forward) = match c.node.dir {
                        ast::ChainDir::Backward => (true, false),
                        ast::ChainDir::Forward => (false, true),
                        ast::ChainDir::Both => (true, true),
                    };
                    rule.chain = Some(ChainRule { backward, forward, cond });
                }
                ast::CaptureItem::Cancel(c) => rule.cancel = Some(self.cond(&c.node, scope)),
            }
        }
        if rule.takes.is_empty() {
            self.error(
                "check::empty",
                "this capture takes nothing",
                span,
                "no `take`",
                Some("add `take to captured(mover)`".into()),
            );
        }
        if rule.cancel.is_some() && rule.takes.iter().any(|t| t.chosen) {
            self.error(
                "check::unsupported",
                "`cancel` cannot be combined with a `chosen` take",
                span,
                "cancel and chosen together",
                None,
            );
        }
        rule
    }

    fn lower_take(&mut self, take: &ast::Take, span: Span, scope: Scope) -> TakeRule {
        let kinds = take.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k));
        let from: Vec<Vec<Set>> = if take.from.is_empty() {
            if !scope.here {
                self.error(
                    "check::bad_context",
                    "take from where?",
                    span,
                    "no place to take from",
                    Some("add `from PLACE`".into()),
                );
            }
            vec![vec![Set::One(PlaceExpr::Here)]]
        } else {
            take.from.iter().map(|group| group.iter().map(|s| self.set(s, scope)).collect()).collect()
        };
        let to = match &take.to {
            ast::TakeTarget::Place(p) => TakeTo::Place(self.target_place(p, scope)),
            ast::TakeTarget::Each(s) => {
                let set = self.set(s, scope);
                self.mark_filled_set(&set);
                TakeTo::Each(set)
            }
        };
        if take.chosen && matches!(to, TakeTo::Each(_)) {
            self.error(
                "check::unsupported",
                "a `chosen` take goes to one place, not to each of a set",
                span,
                "chosen and each together",
                None,
            );
        }
        TakeRule { count: take.count.as_ref().map(|c| c.node), kinds, chosen: take.chosen, from, to }
    }

    fn lower_put(&mut self, put: &ast::Put) -> Put {
        let kinds = put.kind.as_ref().map_or(KindSel::All, |k| self.kind_sel(k));
        let from = match self.place(&put.from, Scope::default()) {
            Typed::Place(p) => p,
            other => {
                self.expect_place(&other, put.from.span);
                PlaceExpr::Fixed(0)
            }
        };
        let into = self.set(&put.into, Scope::default());
        self.mark_filled_set(&into);
        let filter = put.filter.as_ref().map_or(Cond::True, |f| self.cond(f, Scope::default().here()));
        let (min_times, max_times) = match &put.times {
            Some(t) => (t.node.min, t.node.max),
            None => (1, Some(1)),
        };
        if let Some(t) = &put.times {
            if t.node.min == 0 || t.node.max.is_some_and(|m| m < t.node.min) {
                self.error(
                    "check::bad_range",
                    "this number of times cannot be met",
                    t.span,
                    "empty range",
                    Some("write `, 2 times`, `, 1.. times` or `, 1..3 times`".into()),
                );
            }
        }
        if put.count.node == 0 {
            self.error("check::bad_range", "putting 0 pieces does nothing", put.count.span, "zero", None);
        }
        let mut put = Put {
            count: put.count.node,
            kinds,
            from,
            into,
            filter,
            min_times: min_times.max(1),
            max_times,
            lookahead: false,
        };
        put.lookahead = put.can_get_stuck(self.n_pits);
        put
    }

    fn lower_offer(&mut self, offer: &ast::Offer, span: Span) -> Offer {
        let scope = Scope { offered: true, ..Scope::default() };
        let from = self.set(&offer.from, Scope::default());
        let min = offer.size.node.min;
        let max = offer.size.node.max.unwrap_or(self.n_pits as u32);
        if min == 0 || max < min {
            self.error(
                "check::bad_range",
                "this offer size cannot be met",
                offer.size.span,
                "empty range",
                Some("write `choose 1..3 from pits(mover)`".into()),
            );
        }
        if self.players != 2 {
            self.error(
                "check::players_range",
                "offers are made between two players",
                span,
                "more than two players",
                Some("use `players 2` with `offer`".into()),
            );
        }
        let requires = offer.requires.iter().map(|r| self.cond(&r.node, scope)).collect();
        let mut on_accept = Vec::new();
        for effect in &offer.on_accept {
            match effect {
                ast::Effect::Take(t) => on_accept.push(Effect::Take(self.lower_take(&t.node, t.span, scope))),
                ast::Effect::Give(p) => on_accept.push(Effect::GiveOffered(self.player(&p.node, scope))),
            }
        }
        Offer {
            min: min.max(1),
            max: max.max(1),
            from,
            keeping: offer.keeping.as_ref().map_or(0, |k| k.node),
            requires,
            on_accept,
        }
    }

    fn lower_end(&mut self, items: &[ast::EndItem]) -> EndRules {
        let mut end = EndRules::default();
        for item in items {
            let span = match item {
                ast::EndItem::When(w) => w.span,
                ast::EndItem::Draw(d) => d.span,
                ast::EndItem::Eliminate(e) => e.span,
                ast::EndItem::Sweep(s) => s.span,
                ast::EndItem::Limit(l) => l.span,
            };
            match item {
                ast::EndItem::When(_) | ast::EndItem::Draw(_) | ast::EndItem::Eliminate(_) => {
                    end.docs.resize(end.items.len(), None);
                    end.docs.push(self.doc(span));
                }
                ast::EndItem::Sweep(_) => {
                    end.sweep_docs.resize(end.sweeps.len(), None);
                    end.sweep_docs.push(self.doc(span));
                }
                ast::EndItem::Limit(_) => {}
            }
            match item {
                ast::EndItem::When(w) => end.items.push(match &w.node {
                    ast::EndWhen::Cond(c) => EndRule::When(self.cond(c, Scope::default())),
                    ast::EndWhen::Repetition => {
                        self.needs.repetition = true;
                        EndRule::Repetition
                    }
                    ast::EndWhen::Stuck => EndRule::Stuck,
                    ast::EndWhen::NobodyCanMove => EndRule::NobodyCanMove,
                }),
                ast::EndItem::Draw(d) => {
                    self.needs.rounds = true;
                    end.items.push(EndRule::Draw {
                        count: d.node.count.node,
                        rounds: d.node.unit == ast::RoundUnit::Rounds,
                    });
                }
                ast::EndItem::Eliminate(e) => {
                    self.needs.elimination = true;
                    end.items.push(match &e.node {
                        ast::Eliminate::Cond(c) => EndRule::Eliminate(self.cond(c, Scope::default().player())),
                        ast::Eliminate::CannotMove => EndRule::EliminateStuck,
                    });
                }
                ast::EndItem::Sweep(s) => {
                    let set = self.set(&s.node.set, Scope::default());
                    let to = self.target_place(&s.node.to, Scope::default().here());
                    end.sweeps.push((set, to));
                }
                ast::EndItem::Limit(l) => {
                    if l.node == 0 {
                        self.error(
                            "check::bad_range",
                            "a limit of 0 plies ends the game before it starts",
                            l.span,
                            "zero",
                            None,
                        );
                    }
                    end.limit = Some(end.limit.map_or(l.node, |old: u32| old.min(l.node)));
                }
            }
        }
        end
    }

    // ------------------------------------------------------------ conditions and terms

    fn cond(&mut self, c: &ast::Cond, scope: Scope) -> Cond {
        match &c.node {
            ast::CondKind::Or(cs) => Cond::Or(cs.iter().map(|c| self.cond(c, scope)).collect()),
            ast::CondKind::And(cs) => Cond::And(cs.iter().map(|c| self.cond(c, scope)).collect()),
            ast::CondKind::Not(c) => Cond::Not(Box::new(self.cond(c, scope))),
            ast::CondKind::Quant { quant, domain, body } => {
                let (inner, all) = match domain {
                    ast::Domain::Players => {
                        let body = self.cond(body, scope.player());
                        (body, None)
                    }
                    ast::Domain::Set(s) => {
                        let set = self.set(s, scope);
                        let body = self.cond(body, scope.here());
                        (body, Some(set))
                    }
                };
                let body = Box::new(inner);
                match (quant, all) {
                    (ast::Quant::All, None) => Cond::AllPlayers(body),
                    (ast::Quant::Any, None) => Cond::AnyPlayers(body),
                    (ast::Quant::No, None) => Cond::Not(Box::new(Cond::AnyPlayers(body))),
                    (ast::Quant::All, Some(set)) => Cond::AllPits(set, body),
                    (ast::Quant::Any, Some(set)) => Cond::AnyPits(set, body),
                    (ast::Quant::No, Some(set)) => Cond::Not(Box::new(Cond::AnyPits(set, body))),
                }
            }
            ast::CondKind::InInts { term, ints } => {
                let n = self.num(term, scope);
                let mut bits = 0u64;
                for &i in ints {
                    if i > 63 {
                        self.error(
                            "check::too_large",
                            format!("{i} is too large for a set of numbers"),
                            c.span,
                            "numbers in `{...}` go up to 63",
                            None,
                        );
                    } else {
                        bits |= 1 << i;
                    }
                }
                Cond::InInts(n, bits)
            }
            ast::CondKind::InSet { term, set } => {
                let place = match self.term(term, scope) {
                    Typed::Place(p) => p,
                    other => {
                        self.expect_place(&other, term.span);
                        PlaceExpr::Here
                    }
                };
                Cond::InSet(place, self.set(set, scope))
            }
            ast::CondKind::Cmp { lhs, op, rhs } => self.compare(lhs, *op, rhs, c.span, scope),
        }
    }

    fn compare(&mut self, lhs: &ast::Term, op: ast::CmpOp, rhs: &ast::Term, span: Span, scope: Scope) -> Cond {
        let (a, b) = (self.term(lhs, scope), self.term(rhs, scope));
        let eq = match op {
            ast::CmpOp::Eq => Some(true),
            ast::CmpOp::Ne => Some(false),
            _ => None,
        };
        match (a, b, eq) {
            (Typed::Num(a), Typed::Num(b), _) => Cond::Cmp(a, cmp_op(op), b),
            (Typed::Player(a), Typed::Player(b), Some(eq)) => Cond::PlayerEq(a, b, eq),
            (Typed::Place(a), Typed::Place(b), Some(eq)) => Cond::PlaceEq(a, b, eq),
            (Typed::Dropped(p), Typed::Kind(k), Some(eq)) | (Typed::Kind(k), Typed::Dropped(p), Some(eq)) => {
                Cond::Dropped(p, k, eq)
            }
            (Typed::Bad, _, _) | (_, Typed::Bad, _) => Cond::True,
            (a, b, _) => {
                let same = std::mem::discriminant(&a) == std::mem::discriminant(&b);
                let (message, help) = if eq.is_none() && same {
                    (
                        format!("{} cannot be compared with `{}`", plural(a.describe()), op_text(op)),
                        format!("{} can only be compared with `=` or `!=`", plural(a.describe())),
                    )
                } else {
                    let help = match (&a, &b) {
                        (Typed::Player(_), Typed::Num(_)) | (Typed::Num(_), Typed::Player(_)) => {
                            "a player is not a number: compare players with players (`owner(last) = mover`), or count a player's pieces: `count(pits(mover))`".to_string()
                        }
                        (Typed::Place(_), Typed::Num(_)) | (Typed::Num(_), Typed::Place(_)) => {
                            "a place is not a number: compare places with places (`last = store(mover)`), or count its pieces: `count(last)`".to_string()
                        }
                        _ => "both sides of a comparison must be of the same sort: numbers, players, places, or a dropped piece and a kind".to_string(),
                    };
                    (format!("cannot compare {} with {}", a.describe(), b.describe()), help)
                };
                self.push(
                    Diagnostic::error("check::bad_type", message, lhs.span, a.describe())
                        .with_related(rhs.span, b.describe())
                        .with_help(help),
                );
                let _ = span;
                Cond::True
            }
        }
    }

    fn num(&mut self, t: &ast::Term, scope: Scope) -> Num {
        match self.term(t, scope) {
            Typed::Num(n) => n,
            Typed::Bad => Num::Const(0),
            other => {
                self.error(
                    "check::bad_type",
                    format!("expected a number, found {}", other.describe()),
                    t.span,
                    "not a number",
                    Some("use `count(...)` to count the pieces of a place".into()),
                );
                Num::Const(0)
            }
        }
    }

    fn term(&mut self, t: &ast::Term, scope: Scope) -> Typed {
        match &t.node {
            ast::TermKind::Int(v) => Typed::Num(Num::Const((*v).min(i32::MAX as u32) as i32)),
            ast::TermKind::Add(ts) => Typed::Num(Num::Add(ts.iter().map(|t| self.num(t, scope)).collect())),
            ast::TermKind::Mul(ts) => Typed::Num(Num::Mul(ts.iter().map(|t| self.num(t, scope)).collect())),
            ast::TermKind::Count { arg, kind } => {
                let (set, mut sel) = match arg {
                    None => (self.here_set(t.span, scope), KindSel::All),
                    Some(ast::CountArg::Kind(k)) => (self.here_set(t.span, scope), self.kind_sel(k)),
                    Some(ast::CountArg::Set(s)) => match self.kind_named_set(s) {
                        Some(k) => (self.here_set(t.span, scope), k),
                        None => (self.set(s, scope), KindSel::All),
                    },
                };
                if let Some(k) = kind {
                    sel = self.kind_sel(k);
                }
                self.mark_read_set(&set, t.span);
                Typed::Num(Num::Count(set, sel))
            }
            ast::TermKind::Value(s) => {
                let set = self.set(s, scope);
                self.mark_read_set(&set, t.span);
                Typed::Num(Num::Value(set))
            }
            ast::TermKind::Before(p) => {
                self.needs.drops = true;
                let place = self.optional_place(p.as_ref(), t.span, scope);
                Typed::Num(Num::Before(place))
            }
            ast::TermKind::Dropped(p) => {
                self.needs.drops = true;
                Typed::Dropped(self.optional_place(p.as_ref(), t.span, scope))
            }
            ast::TermKind::Size(s) => Typed::Num(Num::Size(self.set(s, scope))),
            ast::TermKind::Player(p) => Typed::Player(self.player(p, scope)),
            ast::TermKind::Place(p) => self.place(p, scope),
            ast::TermKind::Kind(k) => Typed::Kind(self.kind_sel(&Spanned::new(k.clone(), t.span))),
        }
    }

    fn here_set(&mut self, span: Span, scope: Scope) -> Set {
        if !scope.here {
            self.no_here(span);
        }
        Set::One(PlaceExpr::Here)
    }

    fn no_here(&mut self, span: Span) {
        self.error(
            "check::bad_context",
            "there is no `here` at this point",
            span,
            "count of which place?",
            Some("`count` alone means the pit being looked at, inside `where`, `capture` and quantifiers such as `all pits(...)`; name the place here: `count(store(mover))`".into()),
        );
    }

    /// A set expression that is really a kind name (`count(gem)`), if it is one.
    fn kind_named_set(&mut self, s: &ast::SetExpr) -> Option<KindSel> {
        let ast::SetKind::Place(p) = &s.node else {
            return None;
        };
        let ast::PlaceKind::Named { name, player: None } = &p.node else {
            return None;
        };
        if self.place_names.contains_key(&name.node) || self.labels.contains_key(&name.node) {
            return None;
        }
        if self.kinds.iter().any(|k| k.name == name.node) {
            return Some(self.kind_sel(&Spanned::new(ast::KindSel::Named { name: name.clone(), value: None }, s.span)));
        }
        None
    }

    fn optional_place(&mut self, p: Option<&ast::Place>, span: Span, scope: Scope) -> PlaceExpr {
        match p {
            None => {
                if !scope.here {
                    self.no_here(span);
                }
                PlaceExpr::Here
            }
            Some(p) => match self.place(p, scope) {
                Typed::Place(p) => p,
                other => {
                    self.expect_place(&other, span);
                    PlaceExpr::Here
                }
            },
        }
    }

    fn expect_place(&mut self, t: &Typed, span: Span) {
        if !matches!(t, Typed::Bad) {
            self.error(
                "check::bad_type",
                format!("expected a place, found {}", t.describe()),
                span,
                "not a place",
                None,
            );
        }
    }

    fn player(&mut self, p: &ast::PlayerRef, scope: Scope) -> PlayerExpr {
        match &p.node {
            ast::PlayerKind::Mover => PlayerExpr::Mover,
            ast::PlayerKind::Opponent => PlayerExpr::Opponent,
            ast::PlayerKind::Player => {
                if !scope.player {
                    self.error(
                        "check::bad_context",
                        "there is no `player` at this point",
                        p.span,
                        "which player?",
                        Some("`player` is bound in `score`, `eliminate when` and `any players(...)`; here use `mover` or `opponent`".into()),
                    );
                }
                PlayerExpr::Bound
            }
            ast::PlayerKind::Owner(place) => {
                let place = self.optional_place(place.as_deref(), p.span, scope);
                PlayerExpr::Owner(Box::new(place))
            }
        }
    }

    fn place(&mut self, p: &ast::Place, scope: Scope) -> Typed {
        match &p.node {
            ast::PlaceKind::Here => {
                if !scope.here {
                    self.no_here(p.span);
                }
                Typed::Place(PlaceExpr::Here)
            }
            ast::PlaceKind::Last | ast::PlaceKind::Origin => {
                if !scope.last {
                    let word = if matches!(p.node, ast::PlaceKind::Last) { "last" } else { "origin" };
                    self.error(
                        "check::bad_context",
                        format!("there is no `{word}` at this point"),
                        p.span,
                        "nothing has been sown yet",
                        Some(format!("`{word}` is known once the pieces of a sowing are down: in its `require`, `relay`, `capture`, `again` and `then`")),
                    );
                }
                Typed::Place(if matches!(p.node, ast::PlaceKind::Last) { PlaceExpr::Last } else { PlaceExpr::Origin })
            }
            ast::PlaceKind::Opposite(of) => {
                if self.board_ok && !matches!(self.shape, Shape::TwoRows { .. }) {
                    self.error(
                        "check::bad_context",
                        "`opposite` needs a board of two rows",
                        p.span,
                        "no opposite pit on a ring",
                        None,
                    );
                }
                let of = self.optional_place(of.as_deref(), p.span, scope);
                Typed::Place(PlaceExpr::Opposite(Box::new(of)))
            }
            ast::PlaceKind::Named { name, player } => self.named_place(name, player.as_ref(), p.span, scope),
        }
    }

    fn named_place(&mut self, name: &ast::Name, player: Option<&ast::PlayerRef>, span: Span, scope: Scope) -> Typed {
        if let Some(pn) = self.place_names.get(&name.node).cloned() {
            self.used_names.insert(name.node.clone());
            return match (pn.per_player, player) {
                (true, Some(who)) => Typed::Place(PlaceExpr::OfPlayer(pn.id, self.player(who, scope))),
                (false, None) => Typed::Place(PlaceExpr::Fixed(pn.id)),
                (true, None) => {
                    self.error(
                        "check::bad_context",
                        format!("`{}` is a place of each player: say whose", name.node),
                        span,
                        "whose?",
                        Some(format!(
                            "write `{}(mover)`, `{}(opponent)` or `{}(player)`",
                            name.node, name.node, name.node
                        )),
                    );
                    Typed::Bad
                }
                (false, Some(_)) => {
                    self.error(
                        "check::bad_context",
                        format!("`{}` is shared: it belongs to no player", name.node),
                        span,
                        "no owner",
                        Some(format!("write `{}` alone", name.node)),
                    );
                    Typed::Bad
                }
            };
        }
        if player.is_none() {
            if let Some(&id) = self.labels.get(&name.node) {
                return Typed::Place(PlaceExpr::Fixed(id));
            }
            if self.kinds.iter().any(|k| k.name == name.node) {
                return Typed::Kind(
                    self.kind_sel(&Spanned::new(ast::KindSel::Named { name: name.clone(), value: None }, span)),
                );
            }
        }
        if player.is_none() && Self::looks_like_label(&name.node) {
            if self.board_ok {
                self.off_board(name);
            }
            return Typed::Bad;
        }
        if self.full() {
            self.errors += 1;
            return Typed::Bad;
        }
        let mut candidates: Vec<String> = self.place_names.keys().cloned().collect();
        // `pit(mover)` is a slip for the set `pits(mover)`, and `cuont` for the function `count`.
        candidates.extend(crate::syntax::FUNCTIONS.iter().map(|f| f.to_string()));
        // Plain seeds have a kind name nobody writes; other kinds can stand where a place can (`count(gem)`).
        let kinds_named = player.is_none() && !(self.kinds.len() == 1 && self.kinds[0].name == "seed");
        if kinds_named {
            candidates.extend(self.kinds.iter().map(|k| k.name.clone()));
        }
        let what = if kinds_named { "place or kind of piece" } else { "place" };
        let declare = match player {
            Some(_) => format!("declare it: `place {} per player`", name.node),
            None => format!("declare it: `place {} shared`, or `place {} per player`", name.node, name.node),
        };
        self.unknown_with(&name.node, name.span, what, candidates, Some(declare));
        Typed::Bad
    }

    /// A place pieces are moved to.
    fn target_place(&mut self, p: &ast::Place, scope: Scope) -> PlaceExpr {
        match self.place(p, scope) {
            Typed::Place(place) => {
                self.mark_filled(&place);
                place
            }
            other => {
                self.fill_unknown = true;
                self.expect_place(&other, p.span);
                PlaceExpr::Here
            }
        }
    }

    fn set(&mut self, s: &ast::SetExpr, scope: Scope) -> Set {
        match &s.node {
            ast::SetKind::Pits(None) => Set::AllPits,
            ast::SetKind::Pits(Some(p)) => {
                if self.board_ok && matches!(self.shape, Shape::Ring { .. }) {
                    self.error(
                        "check::empty_region",
                        "nobody owns a pit of a ring, so this set is always empty",
                        s.span,
                        "empty region",
                        Some("use `pits`, with a condition such as `where count(own) >= 1`".into()),
                    );
                }
                Set::PitsOf(self.player(p, scope))
            }
            ast::SetKind::Offered => {
                if !scope.offered {
                    self.error(
                        "check::bad_context",
                        "`offered` is only known inside an offer",
                        s.span,
                        "no offer here",
                        None,
                    );
                }
                Set::Offered
            }
            ast::SetKind::Place(p) => {
                if let ast::PlaceKind::Named { name, player: None } = &p.node {
                    if let Some(pn) = self.place_names.get(&name.node).cloned() {
                        if pn.per_player {
                            self.used_names.insert(name.node.clone());
                            return Set::EveryPlayer(pn.id);
                        }
                    }
                }
                match self.place(p, scope) {
                    Typed::Place(place) => Set::One(place),
                    other => {
                        self.expect_place(&other, p.span);
                        Set::AllPits
                    }
                }
            }
        }
    }

    fn kind_sel(&mut self, k: &Spanned<ast::KindSel>) -> KindSel {
        let colour_only = |this: &mut Self, word: &str| {
            if !this.coloured {
                this.error(
                    "check::no_colours",
                    format!("`{word}` needs pieces with a colour per player"),
                    k.span,
                    "these pieces belong to nobody",
                    Some("declare `pieces per player { ... }`, or count all pieces".into()),
                );
            }
        };
        match &k.node {
            ast::KindSel::Own => {
                colour_only(self, "own");
                KindSel::Own
            }
            ast::KindSel::Foreign => {
                colour_only(self, "foreign");
                KindSel::Foreign
            }
            ast::KindSel::Player(p) => {
                colour_only(self, "a player's colour");
                let who = self.player(p, Scope { player: true, here: true, last: true, offered: true });
                KindSel::Colour(who)
            }
            ast::KindSel::Named { name, value } => {
                KindSel::Mask(self.kind_mask_named(name, value.as_ref()).unwrap_or(0))
            }
        }
    }

    // ------------------------------------------------------------ what is filled and read

    fn mark_filled(&mut self, p: &PlaceExpr) {
        match p {
            PlaceExpr::Fixed(id) => {
                self.filled.insert(*id);
            }
            PlaceExpr::OfPlayer(base, _) => {
                for i in 0..self.players {
                    self.filled.insert(base + i as PlaceId);
                }
            }
            _ => {}
        }
    }

    fn mark_filled_set(&mut self, s: &Set) {
        if let Set::One(p) = s {
            self.mark_filled(p);
        }
    }

    fn mark_read_set(&mut self, s: &Set, span: Span) {
        match s {
            Set::One(PlaceExpr::Fixed(id)) => self.read.push((*id, span)),
            Set::One(PlaceExpr::OfPlayer(base, _)) | Set::EveryPlayer(base) => self.read.push((*base, span)),
            _ => {}
        }
    }

    // ------------------------------------------------------------ topology

    #[allow(clippy::type_complexity)]
    fn topology(&self, phases: &[PhaseRules]) -> (Vec<PlaceId>, Vec<PlaceId>, Vec<PlaceId>, Vec<PlaceId>, Vec<u8>) {
        let n = self.n_pits;
        let places = self.places.len();
        let (track, opposite): (Vec<PlaceId>, Vec<PlaceId>) = match self.shape {
            Shape::TwoRows { pits, stores } => {
                let m = pits as usize;
                let mut track: Vec<PlaceId> = (0..m as PlaceId).collect();
                let store = self.place_names.get("store").map(|s| s.id);
                if let (true, Some(s)) = (stores, store) {
                    track.push(s);
                }
                track.extend(m as PlaceId..2 * m as PlaceId);
                if let (true, Some(s)) = (stores, store) {
                    track.push(s + 1);
                }
                let opposite = (0..places).map(|p| if p < n { (n - 1 - p) as PlaceId } else { p as PlaceId }).collect();
                (track, opposite)
            }
            Shape::Ring { pits } => {
                // Pits are numbered clockwise; the track lists places counter-clockwise.
                let m = pits as PlaceId;
                let track = std::iter::once(0).chain((1..m).rev()).collect();
                (track, (0..places as PlaceId).collect())
            }
        };
        let skips: Vec<Vec<PlaceId>> = (0..self.players).map(|mover| self.skipped_places(phases, mover)).collect();
        let mut next = vec![0 as PlaceId; self.players as usize * 2 * places];
        for (mover, skipped) in skips.iter().enumerate() {
            let kept: Vec<PlaceId> = track.iter().copied().filter(|p| !skipped.contains(p)).collect();
            for dir in 0..2 {
                let row = (mover * 2 + dir) * places;
                for p in 0..places {
                    next[row + p] = p as PlaceId;
                }
                for (i, &p) in track.iter().enumerate() {
                    next[row + p as usize] = step_along(&track, &kept, i, dir == 0);
                }
            }
        }
        let pits_only: Vec<PlaceId> = track.iter().copied().filter(|&p| (p as usize) < n).collect();
        let mut pit_next = vec![0 as PlaceId; 2 * n];
        for (i, &p) in pits_only.iter().enumerate() {
            let len = pits_only.len();
            pit_next[p as usize] = pits_only[(i + 1) % len];
            pit_next[n + p as usize] = pits_only[(i + len - 1) % len];
        }
        let owner = self.places[..n].iter().map(|p| p.owner).collect();
        (track, next, pit_next, opposite, owner)
    }

    /// Places a mover's sowing passes over (`skip store(opponent)`), resolved for that mover.
    fn skipped_places(&self, phases: &[PhaseRules], mover: u8) -> Vec<PlaceId> {
        let mut out = Vec::new();
        for phase in &self.game.phases {
            for item in &phase.node.items {
                let ast::PhaseItem::Sow(s) = item else {
                    continue;
                };
                for si in &s.node.items {
                    let ast::SowItem::Skip(sk) = si else { continue };
                    let ast::SkipTarget::Place(p) = &sk.node else {
                        continue;
                    };
                    if let ast::PlaceKind::Named { name, player } = &p.node {
                        let Some(pn) = self.place_names.get(&name.node) else {
                            continue;
                        };
                        let who = match player.as_ref().map(|w| &w.node) {
                            Some(ast::PlayerKind::Mover) => Some(mover),
                            Some(ast::PlayerKind::Opponent) => Some((mover + 1) % self.players.max(1)),
                            _ => None,
                        };
                        match (pn.per_player, who) {
                            (true, Some(w)) => out.push(pn.id + w as PlaceId),
                            (false, _) => out.push(pn.id),
                            _ => {}
                        }
                    } else if let ast::PlaceKind::Named { .. } = &p.node {
                    }
                }
            }
        }
        let _ = phases;
        out
    }
}

/// The next kept place after `track[i]`, going forward (counter-clockwise) or backward along the track.
fn step_along(track: &[PlaceId], kept: &[PlaceId], i: usize, forward: bool) -> PlaceId {
    let len = track.len();
    for step in 1..=len {
        let j = if forward { (i + step) % len } else { (i + len * step - step) % len };
        let p = track[j];
        if kept.contains(&p) {
            return p;
        }
    }
    track[i]
}

/// A relay whose condition always holds goes on after every lap: it stops only where the last piece lands
/// off the pits, and elsewhere never ends, so the sowing is not allowed.
fn relay_always_warning(span: Span) -> Diagnostic {
    Diagnostic::warning("check::relay_always", "this relay condition always holds", span, "true after every lap")
        .with_help(format!(
            "the sowing relays again whatever the last pit holds, so it stops only when its last piece lands in a \
         store; otherwise it never ends (or passes {} laps) and the move is not allowed. Test what the last pit \
         held, as in `relay when before >= 2`",
            crate::engine::MAX_RELAY_LAPS
        ))
}

fn cmp_op(op: ast::CmpOp) -> CmpOp {
    match op {
        ast::CmpOp::Eq => CmpOp::Eq,
        ast::CmpOp::Ne => CmpOp::Ne,
        ast::CmpOp::Lt => CmpOp::Lt,
        ast::CmpOp::Le => CmpOp::Le,
        ast::CmpOp::Gt => CmpOp::Gt,
        ast::CmpOp::Ge => CmpOp::Ge,
    }
}

fn sow_item_key(item: &ast::SowItem) -> (&'static str, Span) {
    match item {
        ast::SowItem::From { span, .. } => ("from", *span),
        ast::SowItem::Direction(d) => ("direction", d.span),
        ast::SowItem::Order { span, .. } => ("order", *span),
        ast::SowItem::Skip(s) => ("skip", s.span),
        ast::SowItem::Relay(r) => ("relay", r.span),
        ast::SowItem::Require(r) => ("require", r.span),
        ast::SowItem::Capture(c) => ("capture", c.span),
        ast::SowItem::Again(a) => ("again", a.span),
        ast::SowItem::Then(t) => ("then", t.span),
    }
}

/// What lowering saw, for the warnings that need the whole file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lints {
    pub filled: BTreeSet<PlaceId>,
    pub read: Vec<(PlaceId, Span)>,
    pub used: BTreeSet<String>,
}

/// The start of an item's span, as long as its keyword: `setup` rather than the whole block.
pub(crate) fn head(span: Span, keyword: &str) -> Span {
    Span::new(span.start, (span.start + keyword.len()).min(span.end))
}

fn op_text(op: ast::CmpOp) -> &'static str {
    match op {
        ast::CmpOp::Eq => "=",
        ast::CmpOp::Ne => "!=",
        ast::CmpOp::Lt => "<",
        ast::CmpOp::Le => "<=",
        ast::CmpOp::Gt => ">",
        ast::CmpOp::Ge => ">=",
    }
}

/// "a player" -> "players".
fn plural(what: &str) -> String {
    let word = what.strip_prefix("a ").or_else(|| what.strip_prefix("an ")).unwrap_or(what);
    format!("{word}s")
}

/// "`a`, `b` or `c`".
pub(crate) fn or_list(items: &[String]) -> String {
    join_list(items, "or")
}

/// "`a`, `b` and `c`".
pub(crate) fn and_list(items: &[String]) -> String {
    join_list(items, "and")
}

fn join_list(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {word} {last}", init.join(", ")),
    }
}
