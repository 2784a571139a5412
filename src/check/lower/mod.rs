//! Name resolution and lowering: one game (base or variant) at one player count, to `ir::Rules`.
//!
//! Every problem becomes a diagnostic and lowering goes on with a placeholder, so that one run reports
//! every error it can find.

mod actions;
mod answers;
mod board;
mod end;
mod marks;
mod rounds;
mod terms;
mod tracks;

use std::collections::{BTreeSet, HashMap};

use crate::ast::{self, Span};
use crate::diag::{did_you_mean, Diagnostic};
use crate::engine::DEFAULT_LIMIT;
use crate::ir::*;

use super::merge::Game;

/// Pits in all: every set of pits fits in one `PitSet` (four rows of 32).
pub(crate) const MAX_PITS: usize = PIT_BITS;
/// Pits of a ring or of a board of one row.
pub(crate) const MAX_RING_PITS: usize = 64;
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
    /// `lifted` is known: a lap is starting (`start at origin when ...`).
    lap: bool,
    /// `origin` is known but `last` is not: a lap is being lifted (a sowing's own `mark` and `unmark`).
    origin: bool,
    /// `direction` is known: inside a sowing, or the way a start considers (`direction choose where`).
    way: bool,
    /// `threats(PLAYER)` is known: after a move (`then mark`, `must`), where looking ahead at the next
    /// moves cannot start looking ahead again from within the moves it tries.
    threats: bool,
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
    /// Named sets of pits (named rows and `region`s), by name: indices into `regions`.
    region_names: HashMap<String, u16>,
    regions: Vec<Region>,
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
    /// While lowering a per-lap direction's condition: what `capturing` means there (any capture rule of the
    /// sowing holds at `here`).
    capturing: Option<Cond>,
    /// While lowering a sowing: it says `skip origin`, so its `next` passes over the lap's origin too.
    skips_origin: bool,
    /// While lowering a sowing: the marks it skips (`skip NAME`), which its `next` passes over too.
    skips_marks: u32,
    /// Where a sweep waits for a repetition (`sweep ... after repetition`), to say so when no rule ends
    /// the game by one.
    sweeps_after_repetition: Vec<Span>,
    /// The declared marks, lasting ones first (`Rules::marks`), by name.
    marks: Vec<MarkInfo>,
    mark_names: HashMap<String, MarkId>,
    /// The marks the setup puts on pits (`mark TARGETS as NAME`), laid out as `State::marks`.
    setup_marks: Vec<u8>,
    /// The answers of `may` choices met so far, with the question each answers and where.
    answer_words: Vec<(String, answers::Answering, Span)>,
    /// Where the rules that `RuleRef` names stand in the file (`Rules::sources`).
    sources: Vec<RuleSource>,
    /// While lowering a phase: its index (`None` for the game's own `end`); and the action being lowered.
    at_phase: Option<u8>,
    at_action: u8,
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
            region_names: HashMap::new(),
            regions: Vec::new(),
            kinds: Vec::new(),
            coloured: false,
            board_ok: false,
            fill_unknown: false,
            errors: 0,
            needs: Needs::default(),
            capturing: None,
            skips_origin: false,
            skips_marks: 0,
            sweeps_after_repetition: Vec::new(),
            filled: BTreeSet::new(),
            read: Vec::new(),
            used_names: BTreeSet::new(),
            marks: Vec::new(),
            mark_names: HashMap::new(),
            setup_marks: Vec::new(),
            answer_words: Vec::new(),
            sources: Vec::new(),
            at_phase: None,
            at_action: 0,
        }
    }

    /// Notes where a rule stands (`Rules::sources`), with its sentence.
    fn note(&mut self, rule: RuleRef, span: Span) {
        let doc = self.doc(span);
        self.sources.push(RuleSource { rule, span, doc });
    }

    /// The phase and action being lowered, for `note`.
    fn at(&self) -> (u8, u8) {
        (self.at_phase.unwrap_or(0), self.at_action)
    }

    /// Records a diagnostic, unless this lowering has recorded [`MAX_RECORDED`] already.
    fn push(&mut self, mut d: Diagnostic) {
        if d.is_error() {
            self.errors += 1;
            d = self.note_new_board(d);
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
        self.lower_regions();
        self.lower_marks();
        let setup = self.lower_setup();
        let phases = self.lower_phases();
        self.mark_sown(&phases);
        let end = match &self.game.end {
            Some(e) => {
                let end = self.lower_end(&e.node);
                if end::tests_repetition(&end) && phases.iter().any(|p| end::tests_repetition(&p.end)) {
                    self.one_repetition_rule(e.span);
                }
                if end::tests_endless(&end) && phases.iter().any(|p| end::tests_endless(&p.end)) {
                    self.one_endless_rule(e.span);
                }
                end
            }
            None => EndRules::default(),
        };
        if !end::tests_repetition(&end) && !phases.iter().any(|p| end::tests_repetition(&p.end)) {
            for span in std::mem::take(&mut self.sweeps_after_repetition) {
                self.error(
                    "check::never_made",
                    "this sweep is never made: no rule ends the game by a repetition",
                    span,
                    "waits for a repetition",
                    Some("add `when repetition` (or `draw when repetition`) to an `end` block, or remove `after repetition`".into()),
                );
            }
        }
        let rounds = self.lower_rounds(&phases, &end);
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
        if self.board_ok {
            self.check_same_skips();
        }
        if self.errors > 0 || !self.board_ok {
            return (None, self.diags, lints);
        }
        let tracks::Topology {
            track,
            next,
            pit_next,
            opposite,
            owner: initial_owner,
            twin,
            number,
            facing,
            behind,
            ahead,
        } = self.topology();
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
            twin,
            number,
            facing,
            behind,
            ahead,
            regions: self.regions,
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
            marks: self.marks,
            setup_marks: std::mem::take(&mut self.setup_marks),
            rounds,
            sources: std::mem::take(&mut self.sources),
        };
        rules.needs.refills = crate::ir::pieces_can_return(&rules);
        (Some(rules), self.diags, lints)
    }

    /// The file's own sentence (`///`) for the rule whose AST node starts where `span` does.
    fn doc(&self, span: Span) -> Option<String> {
        self.game.docs.get(&span.start).cloned()
    }

    // ------------------------------------------------------------ board, pieces, places

    // ------------------------------------------------------------ setup

    fn error_count(&self) -> usize {
        self.errors
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
        if self.lacks_on_new_board(&format!("the {what} `{name}`"), span) {
            return;
        }
        let mut d = Diagnostic::error(
            "check::unknown_name",
            format!("there is no {what} called `{name}`"),
            span,
            format!("unknown {what}"),
        );
        if let Some(s) = did_you_mean(name, candidates.iter().map(String::as_str)) {
            d = d.with_fix(span, s);
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

    /// An error in a rule written for another board than this game's says where the board changed, and
    /// that the variant may have to write the rule again for it. The same error in the base game itself is
    /// reported first, without the note, and `tidy` keeps that one.
    fn note_new_board(&self, d: Diagnostic) -> Diagnostic {
        let Some(board) = &self.game.new_board else { return d };
        if d.code == "mancala::check::variant_board" || !self.game.written_for_another_board(d.span) {
            return d;
        }
        let (rule, write) = self.game.rule_at(d.span);
        let variant = &board.variant;
        let note = format!(
            "{rule} comes from {}, written for another board: variant `{variant}` may need its own {write}",
            self.game.author_of(d.span)
        );
        let help = match &d.help {
            Some(h) => format!("{h}; {note}"),
            None => note,
        };
        d.with_related(board.span, format!("variant `{variant}` changes the board here")).with_help(help)
    }

    /// Reports a name that a rule written for another board uses and this game's board lacks, as that:
    /// which rule, and that the variant with the new board must write its own. Whether it did.
    ///
    /// The same name may be unknown in the base game itself; `tidy` then keeps only the plain error.
    fn lacks_on_new_board(&mut self, what: &str, span: Span) -> bool {
        let Some(board) = &self.game.new_board else { return false };
        if !self.game.written_for_another_board(span) {
            return false;
        }
        let (rule, write) = self.game.rule_at(span);
        let author = self.game.author_of(span);
        let variant = board.variant.clone();
        let d = Diagnostic::error(
            "check::variant_board",
            format!("in {author}, {rule} names {what}, which the board of variant `{variant}` lacks"),
            span,
            format!("not on the board of `{variant}`"),
        )
        .with_related(board.span, format!("variant `{variant}` changes the board here"))
        .with_help(format!(
            "variant `{variant}` must write its own {write} for its board; {}",
            self.board_labels_help()
        ));
        self.push(d);
        true
    }

    // ------------------------------------------------------------ phases and actions

    // ------------------------------------------------------------ conditions and terms

    // ------------------------------------------------------------ what is filled and read

    // ------------------------------------------------------------ topology
}

/// What lowering saw, for the warnings that need the whole file.
#[derive(Debug, Clone, Default)]
pub(crate) struct Lints {
    pub filled: BTreeSet<PlaceId>,
    pub read: Vec<(PlaceId, Span)>,
    pub used: BTreeSet<String>,
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
