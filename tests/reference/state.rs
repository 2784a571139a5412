//! The position of a game, and what a move in progress keeps, as plainly as they can be written: pieces per
//! place and kind, owners, marks, whose turn, the phase, the records the rules can read.

use std::collections::BTreeSet;

use mancala::ir::{Dir, KindId, PlaceId};

use super::Player;

/// A table of rows of one width, in one list: `table[row]` is a row (the pieces of a place, one count per
/// kind; the pits of a mark). One list rather than a list of lists, so that the many copies a look-ahead makes
/// cost one allocation each.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Table<T> {
    width: usize,
    cells: Vec<T>,
}

impl<T: Clone> Table<T> {
    pub fn new(rows: usize, width: usize, fill: T) -> Table<T> {
        Table { width, cells: vec![fill; rows * width] }
    }

    pub fn from_rows(width: usize, rows: Vec<Vec<T>>) -> Table<T> {
        Table { width, cells: rows.into_iter().flatten().collect() }
    }

    pub fn rows(&self) -> impl Iterator<Item = &[T]> {
        self.cells.chunks(self.width.max(1)).take(if self.width == 0 { 0 } else { usize::MAX })
    }

    /// The first `n` rows.
    pub fn first_rows(&self, n: usize) -> Table<T> {
        Table { width: self.width, cells: self.cells[..(n * self.width).min(self.cells.len())].to_vec() }
    }

    pub fn cells(&self) -> &[T] {
        &self.cells
    }
}

impl<T> std::ops::Index<usize> for Table<T> {
    type Output = [T];
    fn index(&self, row: usize) -> &[T] {
        &self.cells[row * self.width..(row + 1) * self.width]
    }
}

impl<T> std::ops::IndexMut<usize> for Table<T> {
    fn index_mut(&mut self, row: usize) -> &mut [T] {
        &mut self.cells[row * self.width..(row + 1) * self.width]
    }
}

impl<T: std::fmt::Debug + Clone> std::fmt::Debug for Table<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.rows()).finish()
    }
}

/// A pit's mark: for whom (a mark per player), and the plies it has left (the ply under way counting as one;
/// 0 for a mark that lasts).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MarkCell {
    pub player: Option<Player>,
    pub lives: u32,
}

/// The sowing being made, or the last one of the game (for end rules): its mover and rule, the current lap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sowing {
    pub mover: Player,
    pub phase: usize,
    pub action: usize,
    /// The pit the lap was lifted from (`origin`).
    pub origin: PlaceId,
    /// The pit the move began from (`start`), whatever the lap.
    pub start: PlaceId,
    /// Where the last piece fell (`last`).
    pub last: Option<PlaceId>,
    pub dir: Dir,
    /// `lap`, from 1.
    pub lap: u32,
    /// `lifted`: the pieces lifted for the lap.
    pub lifted: u32,
}

/// An offer waiting for an answer (§9.4).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Offer {
    pub by: Player,
    pub action: usize,
    pub pits: Vec<PlaceId>,
}

/// How one round of a match ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RoundEnd {
    pub winners: Vec<Player>,
    pub scores: Vec<i32>,
    pub reason: Reason,
}

/// Why a game (or a round) ended: the reasons the docs give (§10, §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    Condition,
    Repetition,
    Stuck,
    NobodyCanMove,
    NoCapture,
    LastStanding,
    Obligation,
    Limit,
    Endless,
    RepetitionDraw,
    ConditionDraw,
    Match,
    RoundLimit,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub winners: Vec<Player>,
    pub scores: Vec<i32>,
    pub reason: Reason,
    pub rounds: Vec<RoundEnd>,
}

/// What a repetition compares (§10 `when repetition`): pieces everywhere, owners, the marks that last (with
/// their plies left), who is to move, the phase, who is still in, an offer waiting.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Position {
    pub pieces: Table<u8>,
    pub owner: Vec<Option<Player>>,
    pub marks: Table<Option<MarkCell>>,
    pub to_move: Player,
    pub phase: usize,
    pub out: Vec<bool>,
    pub offer: Option<Offer>,
}

#[derive(Debug, Clone)]
pub struct Game {
    /// Pieces of each kind in each place: `pieces[place][kind]`.
    pub pieces: Table<u8>,
    /// Who owns each pit now.
    pub owner: Vec<Option<Player>>,
    /// `marks[mark][pit]`.
    pub marks: Table<Option<MarkCell>>,
    pub to_move: Player,
    pub phase: usize,
    /// Plies played (in the whole match).
    pub ply: u32,
    pub last_mover: Player,
    /// Players out of the game.
    pub out: Vec<bool>,
    /// An offer waiting for the answer of `to_move`.
    pub offer: Option<Offer>,
    /// The sowing under way, or the last one of the game.
    pub sowing: Option<Sowing>,
    /// This move: per place, the pieces it held before the last drop into it, and that piece's kind.
    pub drops: Vec<Option<(u8, KindId)>>,
    /// This turn: per place, whether a piece was dropped into it.
    pub passed: Vec<bool>,
    /// This move: the pits its first capture took from.
    pub taken_first: BTreeSet<PlaceId>,
    /// Each player's plies that made a capture.
    pub capture_plies: Vec<u32>,
    /// Each player's plies (`moves(PLAYER)`).
    pub plies_made: Vec<u32>,
    /// `draw when no capture`: rounds (or turns) without a capture, and who has played in the round under way.
    pub quiet: u32,
    pub quiet_movers: BTreeSet<Player>,
    pub quiet_turns: u32,
    /// The positions seen (for `repetition`), this one included; shared by the copies a look-ahead makes
    /// (none of which adds to it), so that copying a game costs nothing for its length.
    pub history: std::rc::Rc<Vec<Position>>,
    /// The player to move is bound by the phase's `must` this turn.
    pub obliged: bool,
    pub round: u32,
    pub round_starter: Player,
    /// The plies played before this round began.
    pub round_start_ply: u32,
    pub rounds: Vec<RoundEnd>,
    pub result: Option<Outcome>,
    /// The legal starts of this position, once worked out (the end of the last ply looks for them); a ply
    /// played on the game forgets them.
    pub starts: Option<Vec<super::Decision>>,
}

impl Game {
    pub fn position(&self, lasting_marks: usize) -> Position {
        Position {
            pieces: self.pieces.clone(),
            owner: self.owner.clone(),
            marks: self.marks.first_rows(lasting_marks),
            to_move: self.to_move,
            phase: self.phase,
            out: self.out.clone(),
            offer: self.offer.clone(),
        }
    }

    pub fn total(&self, place: PlaceId) -> u32 {
        self.pieces[place as usize].iter().map(|&c| c as u32).sum()
    }

    pub fn active(&self) -> impl Iterator<Item = Player> + '_ {
        (0..self.out.len() as Player).filter(|&p| !self.out[p as usize])
    }

    /// The next player after `p` in seat order who is still in the game (`p` itself when nobody else is).
    pub fn next_active(&self, p: Player) -> Player {
        let n = self.out.len() as Player;
        (1..=n).map(|i| (p + i) % n).find(|&q| !self.out[q as usize]).unwrap_or(p)
    }
}
