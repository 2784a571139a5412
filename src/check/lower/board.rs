//! The board and what is on it: pits and stores, kinds of pieces, declared places, and the setup.

use std::collections::{BTreeSet, HashMap};

use crate::ast::{self, Span, Spanned};
use crate::check::merge::{duplicate, head};
use crate::diag::Diagnostic;
use crate::ir::*;

use super::{and_list, or_list, Lowerer, PlaceName, MAX_KINDS, MAX_PIECES, MAX_PITS, MAX_PLACES, MAX_RING_PITS};

impl<'g> Lowerer<'g> {
    pub(super) fn lower_board(&mut self) {
        let Some(board) = &self.game.board else {
            return;
        };
        let (rows, pits, stores) = match &board.node {
            ast::Board::TwoRows { pits, stores } => (2, pits, *stores),
            ast::Board::Ring { pits } => (0, pits, false),
            ast::Board::Rows { rows, pits, stores, .. } => {
                if !self.rows_supported(rows, *stores, board.span) {
                    return;
                }
                (rows.node as usize, pits, *stores)
            }
        };
        let n = pits.node as usize;
        let total = if rows == 0 { n } else { rows * n };
        // The most pits a row (a ring: in all). Two rows are lettered `a..z`; the middle row of three is split
        // in halves, so its length is even; four rows fill a `PitSet` (`MAX_PITS`).
        let most = match rows {
            0 | 1 => MAX_RING_PITS,
            2 => 26,
            3 => 20,
            _ => MAX_PITS / rows,
        };
        if n == 0 || total > MAX_PITS || n > most {
            let (label, help) = match rows {
                0 => (format!("1 to {most} pits"), format!("a ring has 1 to {most} pits")),
                1 => (format!("1 to {most} pits"), format!("a board of one row has 1 to {most} pits")),
                _ => (
                    format!("1 to {most} pits a row"),
                    format!("a board of {} rows has 1 to {most} pits in each row", number_word(rows)),
                ),
            };
            let message = if n == 0 {
                "a board needs at least one pit".to_string()
            } else {
                format!("a board of {total} pits is not supported")
            };
            self.error(if n == 0 { "check::empty" } else { "check::too_large" }, message, pits.span, label, Some(help));
            return;
        }
        if rows == 3 && n % 2 == 1 {
            self.error(
                "check::bad_board",
                format!("a board of three rows needs an even number of pits in a row, not {n}"),
                pits.span,
                "an odd number",
                Some("each player owns half of the middle row: use `rows 3 of 6`, `rows 3 of 8`, ...".into()),
            );
            return;
        }
        self.board_ok = true;
        self.n_pits = total;
        let m = n as u16;
        self.shape = match rows {
            0 => Shape::Ring { pits: m },
            1 => Shape::OneRow { pits: m, store: stores },
            2 => Shape::TwoRows { pits: m, stores },
            3 => Shape::ThreeRows { pits: m },
            _ => Shape::FourRows { pits: m },
        };
        for i in 0..total {
            let (label, owner) = pit_label(self.shape, i);
            self.labels.insert(label.clone(), i as PlaceId);
            self.places.push(PlaceInfo { name: label.clone(), label, is_pit: true, on_track: true, owner });
        }
        self.check_board_players(rows, board.span);
        if stores && rows == 1 {
            // The one player's store is a place of its own on the track: `store`, as the notation writes it.
            let id = self.places.len() as PlaceId;
            self.place_names.insert("store".into(), PlaceName { id, per_player: false, span: board.span });
            self.places.push(PlaceInfo {
                label: "store".into(),
                name: "store".into(),
                is_pit: false,
                on_track: true,
                owner: 0,
            });
            self.filled.insert(id);
        } else if stores {
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

    /// Whether `rows R of N` has a number of rows this language supports, with the stores it allows.
    fn rows_supported(&mut self, rows: &Spanned<u32>, stores: bool, span: Span) -> bool {
        let (message, label, help) = match rows.node {
            1 | 2 => return true,
            3 | 4 if !stores => return true,
            3 => (
                "a board of three rows has no stores on its track".to_string(),
                "the circuit runs through the pits only",
                "remove `with stores`; for stores off the track, declare `place store per player`".to_string(),
            ),
            4 => (
                "a board of four rows has no stores on its track".to_string(),
                "each player sows round his own two rows",
                "remove `with stores`; for stores off the track, declare `place store per player`".to_string(),
            ),
            r => (
                format!("a board of {r} rows is not supported"),
                "1 to 4 rows",
                "boards have 1 to 4 rows: `rows 1 of 4 with store`, `rows 2 of 6`, `rows 3 of 6`, `rows 4 of 8`"
                    .to_string(),
            ),
        };
        let at = if matches!(rows.node, 3 | 4) { span } else { rows.span };
        self.error("check::bad_board", message, at, label, Some(help));
        false
    }

    /// A board of rows is for as many players as it has sides: one row for one player, two or more
    /// rows for two.
    fn check_board_players(&mut self, rows: usize, span: Span) {
        let wanted = match rows {
            0 => return,
            1 => 1,
            _ => 2,
        };
        if self.players == wanted {
            return;
        }
        let (message, label, help) = if wanted == 1 {
            (
                format!("a board of one row is for 1 player, not {}", self.players),
                "one side",
                "use `players 1`, or a board of two rows for two players",
            )
        } else {
            (
                format!("a board of {} rows is for 2 players, not {}", number_word(rows), self.players),
                "two sides",
                "use `players 2`, or a `ring` board for other numbers of players",
            )
        };
        let mut d = Diagnostic::error("check::players_range", message, span, label).with_help(help);
        if let Some(p) = &self.game.players {
            d = d.with_related(p.span, format!("{} players allowed here", self.players));
        }
        self.push(d);
    }

    /// The board's named rows (`{ rows outer, inner }`) and the `region` declarations, as regions.
    pub(super) fn lower_regions(&mut self) {
        if !self.board_ok {
            return self.name_regions_of_refused_board();
        }
        if let Some(ast::Board::Rows { names, .. }) = self.game.board.as_ref().map(|b| &b.node) {
            let per_side = match self.shape {
                Shape::ThreeRows { .. } | Shape::FourRows { .. } => 2,
                _ => 1,
            };
            for (row, name) in names.iter().enumerate() {
                if row >= per_side {
                    self.error(
                        "check::bad_board",
                        format!("each player has {per_side} row{} on this board", if per_side == 1 { "" } else { "s" }),
                        name.span,
                        "one name too many",
                        Some(format!("name at most {per_side}, from each player's edge of the board inward")),
                    );
                    break;
                }
                let first: Vec<PlaceId> = first_players_row(self.shape, row).map(|p| p as PlaceId).collect();
                self.add_region(name, true, &first);
            }
        }
        for decl in &self.game.regions.clone() {
            let mut pits = Vec::new();
            for label in &decl.node.labels {
                match self.labels.get(&label.node) {
                    Some(&p) => pits.push(p),
                    None => self.off_board(label),
                }
            }
            if decl.node.per_player {
                if let Some(bad) = decl
                    .node
                    .labels
                    .iter()
                    .find(|l| self.labels.get(&l.node).is_some_and(|&p| self.places[p as usize].owner != 0))
                {
                    let mine = match self.shape {
                        Shape::Ring { .. } => "nobody owns a pit of a ring; declare the region without `per player`".to_string(),
                        _ => format!("list the first player's pits: every other player gets the pits of the same numbers on his rows; {}", self.board_labels_help()),
                    };
                    self.error(
                        "check::bad_region",
                        format!("`{}` is not a pit of the first player", bad.node),
                        bad.span,
                        "not the first player's",
                        Some(mine),
                    );
                    continue;
                }
            }
            self.add_region(&decl.node.name, decl.node.per_player, &pits);
        }
    }

    /// A board that was refused still names its rows, and the `region`s still name theirs: they are recorded
    /// without pits, so that the rules using them raise no follow-on error ("there is no place called
    /// `outer`") after the one about the board.
    fn name_regions_of_refused_board(&mut self) {
        let names = match self.game.board.as_ref().map(|b| &b.node) {
            Some(ast::Board::Rows { names, .. }) => names.iter().map(|n| (n.clone(), true)).collect(),
            _ => Vec::new(),
        };
        let declared = self.game.regions.iter().map(|d| (d.node.name.clone(), d.node.per_player));
        for (name, per_player) in names.into_iter().chain(declared.collect::<Vec<_>>()) {
            if self.region_names.contains_key(&name.node) || self.place_names.contains_key(&name.node) {
                continue;
            }
            let masks = vec![0; if per_player { self.players as usize } else { 1 }];
            self.region_names.insert(name.node.clone(), self.regions.len() as u16);
            self.regions.push(Region { name: name.node, per_player, masks, all: 0 });
        }
    }

    /// Records a region: `first` are its pits, the first player's when it is per player.
    fn add_region(&mut self, name: &ast::Name, per_player: bool, first: &[PlaceId]) {
        if self.place_names.contains_key(&name.node) || self.region_names.contains_key(&name.node) {
            let first_span = self.place_names.get(&name.node).map(|p| p.span);
            let mut d = Diagnostic::error(
                "check::duplicate",
                format!("`{}` is already the name of a place", name.node),
                name.span,
                "defined again here",
            )
            .with_help("give this region another name");
            if let Some(s) = first_span {
                d = d.with_related(s, "first defined here");
            }
            self.push(d);
            return;
        }
        if self.labels.contains_key(&name.node) || self.kinds.iter().any(|k| k.name == name.node) {
            self.error(
                "check::duplicate",
                format!("`{}` is already the name of a pit or a kind of piece", name.node),
                name.span,
                "ambiguous name",
                Some("give this region another name".into()),
            );
            return;
        }
        let mask_of = |pits: &mut dyn Iterator<Item = PlaceId>| pits.fold(0, |m, p| m | pit_bit(p));
        let masks: Vec<PitSet> = if per_player {
            (0..self.players).map(|player| mask_of(&mut first.iter().map(|&p| self.pit_of_player(p, player)))).collect()
        } else {
            vec![mask_of(&mut first.iter().copied())]
        };
        let all = masks.iter().fold(0, |a, m| a | m);
        let id = self.regions.len() as u16;
        self.regions.push(Region { name: name.node.clone(), per_player, masks, all });
        self.region_names.insert(name.node.clone(), id);
    }

    /// The pit of `player` with the same number as the first player's pit `p`.
    fn pit_of_player(&self, p: PlaceId, player: u8) -> PlaceId {
        if player == 0 {
            return p;
        }
        let m = self.shape.row_len() as PlaceId;
        match self.shape {
            Shape::TwoRows { .. } => p + m,
            Shape::ThreeRows { .. } => p + 3 * m / 2,
            Shape::FourRows { .. } => p + 2 * m,
            Shape::Ring { .. } | Shape::OneRow { .. } => p,
        }
    }

    pub(super) fn lower_pieces(&mut self) {
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

    pub(super) fn check_kind_decls(&mut self, kinds: &[ast::KindDecl]) {
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

    pub(super) fn lower_places(&mut self) {
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

    pub(super) fn lower_setup(&mut self) -> Vec<u8> {
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
            if let Some(mark) = &line.mark {
                self.setup_mark(mark, &targets, line.span);
                continue;
            }
            if line.exactly {
                for &(place, _) in &targets {
                    counts[place as usize * k..(place as usize + 1) * k].fill(0);
                }
            } else if line.contents.iter().all(|c| c.node.count.node == 0) {
                self.push(
                    Diagnostic::warning(
                        "check::setup_adds_nothing",
                        "this setup line adds nothing",
                        line.span,
                        "adds 0",
                    )
                    .with_help(
                        "setup lines add up, so this leaves these places as the lines before made them; to empty \
                         them, write `exactly 0` after the colon (or leave them out of the line that fills them)",
                    ),
                );
            }
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

    /// `mark TARGETS as NAME` in the setup: each target pit carries the mark (a mark per player, for the
    /// pit's owner).
    fn setup_mark(&mut self, mark: &ast::Name, targets: &[(PlaceId, u8)], span: Span) {
        let Some(id) = self.mark_id(mark) else { return };
        let n = self.n_pits;
        if self.setup_marks.is_empty() {
            self.setup_marks = vec![UNMARKED; self.marks.len() * n];
        }
        let per_player = self.marks[id as usize].per_player;
        for &(place, owner) in targets {
            if (place as usize) >= n {
                self.error(
                    "check::not_a_pit",
                    "only pits can carry a mark",
                    span,
                    "not a pit",
                    Some("mark pits of the board: `mark i5, I5 as NAME`, or `mark every REGION as NAME`".into()),
                );
                return;
            }
            let cell = if !per_player {
                1
            } else if owner == NO_PLAYER {
                self.error(
                    "check::bad_setup",
                    "this pit has no owner to carry the mark for",
                    span,
                    "whose mark?",
                    Some("a mark per player goes on pits that belong to a player".into()),
                );
                return;
            } else {
                owner + 1
            };
            self.setup_marks[id as usize * n + place as usize] = cell;
        }
    }

    /// The places of a setup line, each with the player it belongs to (for `own`).
    pub(super) fn setup_targets(&mut self, line: &ast::SetupLine) -> Vec<(PlaceId, u8)> {
        let mut out = Vec::new();
        for t in &line.targets {
            match &t.node {
                ast::Target::Every(name) if name.node == "pit" || name.node == "pits" => {
                    if !self.board_ok {
                        self.fill_unknown = true;
                    }
                    out.extend((0..self.n_pits as PlaceId).map(|p| (p, self.places[p as usize].owner)));
                }
                ast::Target::Every(name) if self.region_names.contains_key(&name.node) => {
                    let id = self.region_names[&name.node];
                    out.extend(self.region_targets(id));
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

    pub(super) fn every_candidates(&self) -> Vec<String> {
        let mut c: Vec<String> = self.place_names.keys().chain(self.region_names.keys()).cloned().collect();
        c.push("pit".into());
        c
    }

    pub(super) fn off_board(&mut self, label: &ast::Name) {
        if self.lacks_on_new_board(&format!("pit `{}`", label.node), label.span) {
            return;
        }
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
    pub(super) fn looks_like_label(name: &str) -> bool {
        name.chars().all(|c| c.is_ascii_digit()) || (name.len() == 1 && name.chars().all(|c| c.is_ascii_alphabetic()))
    }

    pub(super) fn board_labels_help(&self) -> String {
        match self.shape {
            Shape::TwoRows { pits, .. } => {
                let last = (b'a' + pits as u8 - 1) as char;
                format!("the pits of this board are a..{last} and A..{}", last.to_ascii_uppercase())
            }
            Shape::Ring { pits } | Shape::OneRow { pits, .. } => format!("the pits of this board are 1..{pits}"),
            Shape::ThreeRows { pits } => format!(
                "the first player's pits are o1..o{pits} and i1..i{half}, the second player's O1..O{pits} and I1..I{half}",
                half = pits / 2
            ),
            Shape::FourRows { pits } => format!(
                "the first player's pits are o1..o{pits} and i1..i{pits}, the second player's O1..O{pits} and I1..I{pits}"
            ),
        }
    }

    /// The places of `every NAME` in a setup when NAME is a region, each with its owner.
    fn region_targets(&self, id: u16) -> Vec<(PlaceId, u8)> {
        let all = self.regions[id as usize].all;
        (0..self.n_pits as PlaceId).filter(|&p| has_pit(all, p)).map(|p| (p, self.places[p as usize].owner)).collect()
    }

    pub(super) fn setup_kind(&mut self, content: &Spanned<ast::Content>, owner: u8) -> Option<KindId> {
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

    pub(super) fn kind_mask_named(&mut self, name: &ast::Name, value: Option<&Spanned<u32>>) -> Option<KindMask> {
        let mut mask = 0u64;
        for (i, k) in self.kinds.iter().enumerate() {
            if k.name == name.node && value.is_none_or(|v| k.value == v.node as i32) {
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
}

/// The label of pit `i` of a board of this shape, and the player who owns it at the start.
///
/// One row: `1..N`, the first player's. Two rows: `a..` for the first player's row, `A..` for the second's.
/// Four rows: the first player's first row `o1..oN` and second `i1..iN`, the second player's `O1..` and
/// `I1..`, each numbered from its owner's left. Three rows: the same letters, but each player's inner row
/// is his half of the middle row, `i1..iN/2` and `I1..IN/2`. A ring: `1..N`, nobody's.
fn pit_label(shape: Shape, i: usize) -> (String, u8) {
    let n = shape.row_len();
    match shape {
        Shape::ThreeRows { .. } => {
            // Each player's pits are N + N/2 places in a row: his outer row, then his half of the middle.
            let (owner, k) = (i / (3 * n / 2), i % (3 * n / 2));
            let (row, k) = if k < n { (["o", "O"][owner], k) } else { (["i", "I"][owner], k - n) };
            (format!("{row}{}", k + 1), owner as u8)
        }
        Shape::Ring { .. } => ((i + 1).to_string(), NO_PLAYER),
        Shape::OneRow { .. } => ((i + 1).to_string(), 0),
        Shape::TwoRows { .. } if i < n => (((b'a' + i as u8) as char).to_string(), 0),
        Shape::TwoRows { .. } => (((b'A' + (i - n) as u8) as char).to_string(), 1),
        Shape::FourRows { .. } => {
            let row = ["o", "i", "O", "I"][i / n];
            (format!("{row}{}", i % n + 1), (i / (2 * n)) as u8)
        }
    }
}

/// The places of the first player's row `row` (0 for his outer row, 1 for the next) on a board of rows.
fn first_players_row(shape: Shape, row: usize) -> std::ops::Range<usize> {
    let m = shape.row_len();
    match shape {
        Shape::ThreeRows { .. } if row == 1 => m..m + m / 2,
        _ => row * m..(row + 1) * m,
    }
}

/// "two", "four": the number of rows in words.
fn number_word(n: usize) -> String {
    match n {
        1 => "one".into(),
        2 => "two".into(),
        3 => "three".into(),
        4 => "four".into(),
        n => n.to_string(),
    }
}
