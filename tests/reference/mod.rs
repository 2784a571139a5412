//! An executable reference semantics of the rule language: a second interpreter, written from
//! `docs/language.md` and nothing else, as plainly as it can be: no fast paths, no shortcuts when looking
//! ahead, no tables worked out in advance, copies of the game wherever that is simpler. It shares with the
//! engine only what comes before it in the pipeline, the lowered rules (`ir::Rules`, read as `check::lower`
//! makes them, before `ir::optimize`), and even of those it re-derives the board (`board.rs`) instead of
//! reading the lowering's tables. It is not part of the `mancala` binary: the differential tests
//! (`tests/differential.rs`) and the differential fuzzer (`examples/fuzz.rs --reference`) include it.
//!
//! A ply is one function (`turn.rs`, `act`) that asks for each decision as it comes; what is legal is found
//! by playing the ply again from its start on a copy with one more decision, and trying every way of going
//! on until one completes a legal ply (`Reference::step`, `completable`).
//!
//! Where each construct of `docs/language.md` is:
//!
//! | construct (§ of the docs) | where |
//! |---|---|
//! | §3 `players`; §4 boards: two rows, one row, three rows, four rows, a ring; labels, owners | `board.rs` `Board::new`, `spot`, `first_owner` |
//! | §4 the track and circuits, `skip` passing over places | `board.rs` `make_circuits`, `Board::step` |
//! | §4, §13 `opposite`, `twin`, `facing`, `number`, `behind`, `ahead` | `board.rs` `facing`, `opposite`, `twin`, `number`, `behind`, `ahead` |
//! | §4 regions, named rows | `eval.rs` `region_pits` (the lowered masks) |
//! | §5 places, stores, `NAME(PLAYER)` | `eval.rs` `place`, `set` |
//! | §5 marks: `per player`, `for one ply`, `for N plies`, `until empty` | `capture.rs` `put_mark`, `lose_if_emptied`; `turn.rs` `start_ply`; `end.rs` `take_down_timed_marks` |
//! | §6 pieces: seeds, colours, kinds and classes | `eval.rs` `kinds_of` |
//! | §7 setup (pieces, owners, `mark ... as`) | `mod.rs` `initial`, `setup_marks` |
//! | §8 `turn`, `phase`, `until`, phase `again when` | `end.rs` `end_ply` |
//! | §9 actions, their names; §14 the decisions of a ply | `turn.rs` `act`, `Run::ask`, `step`, `completable` |
//! | §9.1 `from ... where`, `from ... else ...`, `last own` | `turn.rs` `candidates` |
//! | §9.1 `direction ccw/cw/choose`, `direction ... where`, `must capture` | `sow.rs` `ways`, `first_lap_captures` |
//! | §9.1 `direction ccw or cw when` (per lap), `capturing` | `sow.rs` `lap_way` |
//! | §9.1 laps, `lap`, `origin`, `last` | `sow.rs` `sow`, `set_sowing` |
//! | §9.1 `lift`, the sowing's own `mark`/`unmark`, `lifted` | `sow.rs` `lift` |
//! | §9.1 `start at origin [when]`, `skip origin`, `skip PLACE`, `skip MARK` | `sow.rs` `sow_lap` |
//! | §9.1 `order choose [last own]`, the order of kinds | `sow.rs` `next_kind` |
//! | §9.1 `divert`, `capture at every drop`, `before`, `dropped`, `passed` | `sow.rs` `drop` |
//! | §9.1 `capture at every lift`, and its `take { ... }` from a pit the mover chooses | `sow.rs` `lift` |
//! | §9.1 `opponent may`, and its `take { ... }` from a pit the opponent chooses | `sow.rs` `end_of_lap` |
//! | §9.1 the end of a lap: `relay`, `relay from next`, `relay may`, `sow from`, `sow into`, `continue at`, `require` | `sow.rs` `end_of_lap`, `require` |
//! | §9.1 relays that never end, 20000 laps; §10 `draw`/`eliminate`/`cut when endless` | `sow.rs` `seen_before`, `endless`; `end.rs` `end_ply` |
//! | §9.1 `capture [may] [when]`, first that holds | `capture.rs` `first_capture` |
//! | §9.1 `chain backward/forward/both [while]`, `cancel` | `capture.rs` `capture` |
//! | §9.1 `mark`, `unmark` (of a place or a set), `give` in a capture | `capture.rs` `capture_at`, `mark_step` |
//! | §9.2 `take` (`N`, kind, `chosen`, `from ... else`, `where`, `to`, `to each`, `to hand`) | `capture.rs` `take`, `groups`, `move_pieces` |
//! | §9.1 `again when` | `sow.rs` `sow` |
//! | §9.1 `then may/must take` | `sow.rs` `then_take` |
//! | §9.1 `then mark`; §13 `threats(PLAYER)` | `sow.rs` `then_marks`; `turn.rs` `threats`, `trial` |
//! | §9.2 `take [NAME] { ... }`: a turn's action, and first in a sowing (the pit sown from chosen after it) | `turn.rs` `candidates`, `act`, `can_take`, `take_pit` |
//! | §9.3 `put` (`times`; into pits only) | `turn.rs` `put`, `can_put` |
//! | §9.4 `offer`, `on accept`, answers | `turn.rs` `offer`, `accept` |
//! | §9.5 `pass when cannot ...` (one action, several, or `move`) | `turn.rs` `starts` |
//! | §9.6 `must ... else end/any`, `taken_first` | `end.rs` `begin_turn`; `turn.rs` `act`; `capture.rs` `capture` |
//! | §9.7 `prefer` | `turn.rs` `rank` |
//! | §10 `when`, `draw when CONDITION`, `at every lap`; the end rules before the first ply (those reading the last sowing wait) | `end.rs` `end_rules`, `turn_checks`; `mod.rs` `resume`; `sow.rs` `lap_end_rule_holds` |
//! | §10 `when repetition`, `draw when repetition` | `end.rs` `end_rules`, `state.rs` `Position` |
//! | §10 `when stuck`, `when nobody can move`, `eliminate when [cannot move]` | `end.rs` `end_rules`; `turn.rs` `can_start` |
//! | §10 `draw when no capture for N rounds/turns` | `end.rs` `count_quiet` |
//! | §10 `sweep`, `sweep ... after repetition/stuck/limit`, `limit N plies`, built-in ends | `end.rs` `sweep`, `limit`, `turn_checks` |
//! | §10 `rounds`: `refill` (`borrow`, `backward`, `claim from`, `else mark`), `first`, `match when`, `limit N rounds`, `round` | `end.rs` `end_round`, `refill` |
//! | §11 `score`, `winner ... ties`, `goal` | `end.rs` `judge` |
//! | §13 conditions, numbers (`/`, `%`), `count`, `value`, `size`, `size(SET where ...)`, `seat(P)`, `before`, `dropped`, quantifiers, `captures(P)`, `moves(P)` | `eval.rs` `test`, `num`; `end.rs` `end_ply` |
//! | §13 players (`mover`, `opponent`, `player`, `owner`), places (`here`, `last`, `origin`, `start`, `next`, `previous`), sets | `eval.rs` `player`, `place`, `next_place`, `set`; `sow.rs` `sow` (`start`) |

#![allow(dead_code)]

pub mod board;
mod capture;
mod end;
pub mod eval;
mod sow;
pub mod state;
pub mod turn;

use mancala::ir::{Dir, KindId, PlaceId, Rules};

pub use state::{Game, MarkCell, Reason, Table};
pub use turn::Step;

pub type Player = u8;

/// One decision of a ply (§14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decision {
    /// Start action `action` of the phase at `place`.
    Begin {
        action: usize,
        place: PlaceId,
    },
    Pass,
    Accept,
    Decline,
    /// The direction of the sowing, or of a lap.
    Dir(Dir),
    /// The kind of the next piece dropped (`order choose`).
    Drop(KindId),
    /// A piece taken (`chosen`).
    Take {
        place: PlaceId,
        kind: KindId,
    },
    /// A further pit (`then may take`, `put ... times`, `offer`).
    Pick(PlaceId),
    /// No further pit.
    Stop,
    /// An optional capture made or declined.
    Capture(bool),
    /// An optional relay made or declined.
    Relay(bool),
    /// The opponent's answer (`opponent may`) made or declined.
    Answer(bool),
}

pub struct Reference {
    pub rules: Rules,
    pub board: board::Board,
    /// While a `then mark` is made: each player's `threats`, worked out once for it (§13).
    threats_made: std::cell::RefCell<Option<Vec<Option<Vec<PlaceId>>>>>,
    /// While `threats` is worked out: the moves it tries to see which can be made never ask it again (§13).
    threats_busy: std::cell::Cell<bool>,
}

impl Reference {
    /// The reference of the rules as lowered (`check::lower`), before any optimisation.
    pub fn new(rules: Rules) -> Reference {
        let board = board::Board::new(&rules);
        Reference { rules, board, threats_made: Default::default(), threats_busy: Default::default() }
    }

    pub fn kinds(&self) -> usize {
        self.rules.kinds.len()
    }

    /// The marks kept from ply to ply (not those `for one ply`): they are part of a position.
    pub fn lasting_marks(&self) -> usize {
        self.rules.marks.iter().filter(|m| !m.one_ply).count()
    }

    /// The marks of the setup (`mark TARGETS as NAME`). §5, §7: the setup is a position as one typed in
    /// without plies left: a mark `for N plies` has N - 1 left (the first N - 1 plies carry it), and a mark
    /// for one ply is the first ply's.
    pub fn setup_marks(&self) -> Table<Option<MarkCell>> {
        let n = self.board.n_pits;
        let rows = (0..self.rules.marks.len())
            .map(|m| {
                (0..n)
                    .map(|p| match self.rules.setup_marks.get(m * n + p).copied().unwrap_or(0) {
                        0 => None,
                        v => {
                            let info = &self.rules.marks[m];
                            let player = info.per_player.then_some(v - 1);
                            Some(MarkCell { player, lives: info.plies.saturating_sub(1) })
                        }
                    })
                    .collect()
            })
            .collect();
        Table::from_rows(n, rows)
    }

    /// A game before its first ply: the setup, player 1 to move in the first phase.
    pub fn initial(&self) -> Game {
        let pieces = Table::from_rows(self.kinds(), vec![self.rules.setup.clone()]);
        let mut g = self.empty_game(pieces);
        g.owner = self.board.first_owner.clone();
        g.marks = self.setup_marks();
        self.advance_phases(&mut g);
        self.resume(&mut g);
        g
    }

    /// A game with these pieces and nothing else yet: to be filled in by a caller that reads a position.
    pub fn empty_game(&self, pieces: Table<u8>) -> Game {
        let players = self.rules.players as usize;
        let places = self.rules.places.len();
        Game {
            pieces,
            owner: self.board.first_owner.clone(),
            marks: Table::new(self.rules.marks.len(), self.board.n_pits, None),
            to_move: 0,
            phase: 0,
            ply: 0,
            last_mover: 0,
            out: vec![false; players],
            offer: None,
            sowing: None,
            drops: vec![None; places],
            passed: vec![false; places],
            taken_first: Default::default(),
            capture_plies: vec![0; players],
            plies_made: vec![0; players],
            quiet: 0,
            quiet_movers: Default::default(),
            quiet_turns: 0,
            history: Default::default(),
            starts: None,
            obliged: false,
            round: 1,
            round_starter: 0,
            round_start_ply: 0,
            rounds: Vec::new(),
            result: None,
        }
    }

    /// The start of a turn in a position given (the setup, or one read), before the first ply: the end rules
    /// (but those that read the last sowing, §10), the obligation, whether the player to move can move at
    /// all; the position is the first one seen.
    pub fn resume(&self, g: &mut Game) {
        self.turn_checks(g, true);
    }
}
