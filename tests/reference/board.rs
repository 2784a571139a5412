//! The board as `docs/language.md` §4 draws it, worked out again from the pits' labels and the shape: where
//! each pit stands, the track (or the circuits) pieces go round, and the relations of pits (`opposite`,
//! `twin`, `facing`, `number`). Nothing here reads the tables the lowering made (`Rules::next`, `opposite`,
//! `twin`, `facing`, `number`, `track`), so a wrong table there shows up as a disagreement.

use mancala::ir::{Dir, PlaceId, Rules, Shape, NO_PLAYER};

use super::Player;

/// A side of a board of rows: South (player 1) or North (player 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    South,
    North,
}

/// Where a pit stands: its side (nobody's on a ring), its row counted from its owner's edge (0 for his first
/// row), and its number in that row, from its owner's left, from 1.
#[derive(Debug, Clone, Copy)]
struct Spot {
    side: Option<Side>,
    row: usize,
    number: usize,
}

#[derive(Debug, Clone)]
pub struct Board {
    pub shape: Shape,
    pub n_pits: usize,
    /// The circuits pieces go round, each counter-clockwise: one for the whole board, or on four rows one per
    /// player. Pits and the stores on the track.
    pub circuits: Vec<Vec<PlaceId>>,
    /// Who owns each pit at the start (§4), `None` for nobody (a ring).
    pub first_owner: Vec<Option<Player>>,
    spots: Vec<Spot>,
}

impl Board {
    pub fn new(rules: &Rules) -> Board {
        let shape = rules.shape;
        let n_pits = rules.n_pits;
        let spots: Vec<Spot> = (0..n_pits).map(|p| spot(shape, &rules.places[p].label)).collect();
        let first_owner = spots
            .iter()
            .map(|s| match s.side {
                Some(Side::South) => Some(0),
                Some(Side::North) => Some(1),
                None if matches!(shape, Shape::OneRow { .. }) => Some(0),
                None => None,
            })
            .collect();
        let mut board = Board { shape, n_pits, circuits: Vec::new(), first_owner, spots };
        board.circuits = board.make_circuits(rules);
        board
    }

    /// The pit of a label (as §4 names pits), if the board has it.
    fn find(&self, side: Option<Side>, row: usize, number: usize) -> Option<PlaceId> {
        (0..self.n_pits)
            .find(|&p| {
                let s = self.spots[p];
                s.side == side && s.row == row && s.number == number
            })
            .map(|p| p as PlaceId)
    }

    fn row(&self, side: Option<Side>, row: usize, numbers: impl Iterator<Item = usize>) -> Vec<PlaceId> {
        numbers.filter_map(|k| self.find(side, row, k)).collect()
    }

    /// §4: the track, counter-clockwise.
    fn make_circuits(&self, rules: &Rules) -> Vec<Vec<PlaceId>> {
        let store_of = |label: &str| {
            rules.places.iter().position(|p| p.on_track && !p.is_pit && p.label == label).map(|p| p as PlaceId)
        };
        let m = self.shape.row_len();
        let (s, n) = (Some(Side::South), Some(Side::North));
        match self.shape {
            // a b c d e f store(1) A B C D E F store(2)
            Shape::TwoRows { .. } => {
                let mut t = self.row(s, 0, 1..=m);
                t.extend(store_of("store(1)"));
                t.extend(self.row(n, 0, 1..=m));
                t.extend(store_of("store(2)"));
                vec![t]
            }
            // 1 2 3 4 store
            Shape::OneRow { .. } => {
                let mut t = self.row(None, 0, 1..=m);
                t.extend(store_of("store"));
                vec![t]
            }
            // Numbered clockwise: counter-clockwise from 7 goes to 6, 5, ...
            Shape::Ring { .. } => vec![self.row(None, 0, std::iter::once(1).chain((2..=m).rev()))],
            // Each player's first row left to right, then his second row right to left.
            Shape::FourRows { .. } => [s, n]
                .into_iter()
                .map(|side| {
                    let mut t = self.row(side, 0, 1..=m);
                    t.extend(self.row(side, 1, (1..=m).rev()));
                    t
                })
                .collect(),
            // One circuit: each player's row left to right, then his half of the middle row back.
            Shape::ThreeRows { .. } => {
                let mut t = Vec::new();
                for side in [s, n] {
                    t.extend(self.row(side, 0, 1..=m));
                    t.extend(self.row(side, 1, (1..=m / 2).rev()));
                }
                vec![t]
            }
        }
    }

    /// The circuit a place lies on, and its index there.
    fn on_circuit(&self, p: PlaceId) -> Option<(&Vec<PlaceId>, usize)> {
        self.circuits.iter().find_map(|c| c.iter().position(|&q| q == p).map(|i| (c, i)))
    }

    /// The place after `p` along its circuit, in direction `dir` (counter-clockwise is the circuit's order),
    /// passing over the places `skipped` says, round to `p` itself when it is the only one not passed over;
    /// when every place would be passed over, the next place all the same (§9.1 `skip`). `None` for a place off
    /// the track.
    pub fn step(&self, p: PlaceId, dir: Dir, skipped: impl Fn(PlaceId) -> bool) -> Option<PlaceId> {
        let (c, i) = self.on_circuit(p)?;
        let len = c.len();
        let at = |k: usize| match dir {
            Dir::Ccw => c[(i + k) % len],
            Dir::Cw => c[(i + len - k % len) % len],
        };
        (1..=len).map(at).find(|&q| !skipped(q)).or(Some(at(1)))
    }

    /// The pit after `p` along its circuit with the stores left out (the walk of a chain, §9.1 `chain`).
    pub fn pit_step(&self, p: PlaceId, dir: Dir) -> Option<PlaceId> {
        let n = self.n_pits;
        self.step(p, dir, |q| (q as usize) >= n)
    }

    /// The pits of the other side in the column of pit `p`, nearest first (§4, §13 `facing`, `opposite`).
    pub fn facing(&self, p: PlaceId) -> Vec<PlaceId> {
        let Some(spot) = self.spots.get(p as usize).copied() else { return Vec::new() };
        let Some(side) = spot.side else { return Vec::new() };
        let column = self.column(spot);
        let mut theirs: Vec<(usize, PlaceId)> = (0..self.n_pits)
            .filter(|&q| {
                let s = self.spots[q];
                s.side.is_some_and(|x| x != side) && self.column(s) == column
            })
            .map(|q| (self.middle_distance(spot, self.spots[q]), q as PlaceId))
            .collect();
        theirs.sort();
        theirs.into_iter().map(|(_, q)| q).collect()
    }

    /// `opposite(p)`: the nearest pit across the middle in its column.
    pub fn opposite(&self, p: PlaceId) -> Option<PlaceId> {
        self.facing(p).first().copied()
    }

    /// `twin(p)`: the pit of the same row and number on the other side.
    pub fn twin(&self, p: PlaceId) -> Option<PlaceId> {
        let s = *self.spots.get(p as usize)?;
        let other = match s.side? {
            Side::South => Side::North,
            Side::North => Side::South,
        };
        self.find(Some(other), s.row, s.number)
    }

    /// `behind(p)`: the pit of its own side in its column one row further from the middle (§4): none
    /// behind a pit of the row nearest its side's edge.
    pub fn behind(&self, p: PlaceId) -> Option<PlaceId> {
        let s = *self.spots.get(p as usize)?;
        s.side?;
        let row = s.row.checked_sub(1)?;
        let column = self.column(s);
        (0..self.n_pits)
            .find(|&q| {
                let t = self.spots[q];
                t.side == s.side && t.row == row && self.column(t) == column
            })
            .map(|q| q as PlaceId)
    }

    /// `ahead(p)`: the pit in its column one row nearer the middle (§4): on four rows the inner pit of its own
    /// side, on three rows the middle pit of its column, whoever's; none ahead of a pit of a middle row.
    pub fn ahead(&self, p: PlaceId) -> Option<PlaceId> {
        let s = *self.spots.get(p as usize)?;
        s.side?;
        if !matches!(self.shape, Shape::ThreeRows { .. } | Shape::FourRows { .. }) {
            return None;
        }
        let column = self.column(s);
        let three = matches!(self.shape, Shape::ThreeRows { .. });
        (0..self.n_pits)
            .find(|&q| {
                let t = self.spots[q];
                t.row == s.row + 1 && self.column(t) == column && (three || t.side == s.side)
            })
            .map(|q| q as PlaceId)
    }

    /// `number(p)`: a pit's number in its row from its owner's left (a ring's or one row's label); 0 for a
    /// place that is not a pit.
    pub fn number(&self, p: PlaceId) -> u32 {
        self.spots.get(p as usize).map_or(0, |s| s.number as u32)
    }

    /// The column of a pit on a board of rows, from South's left, from 0.
    fn column(&self, s: Spot) -> usize {
        let m = self.shape.row_len();
        match (self.shape, s.side, s.row) {
            // The middle row of three: South's half on the right, North's on the left (§4).
            (Shape::ThreeRows { .. }, Some(Side::South), 1) => m / 2 + s.number - 1,
            (Shape::ThreeRows { .. }, Some(Side::North), 1) => m / 2 - s.number,
            (_, Some(Side::South), _) => s.number - 1,
            (_, Some(Side::North), _) => m - s.number,
            _ => 0,
        }
    }

    /// How far apart two pits of one column are, counted in rows across the board (nearest first).
    fn middle_distance(&self, a: Spot, b: Spot) -> usize {
        let line = |s: Spot| -> usize {
            // Rows from South's edge: South's rows first, then North's from the middle out.
            match (self.shape, s.side) {
                (Shape::ThreeRows { .. }, Some(Side::North)) => 2 - s.row,
                (Shape::ThreeRows { .. }, _) => s.row,
                (Shape::FourRows { .. }, Some(Side::North)) => 3 - s.row,
                (Shape::TwoRows { .. }, Some(Side::North)) => 1,
                _ => s.row,
            }
        };
        line(a).abs_diff(line(b))
    }
}

/// Where the pit labelled `label` stands (§4's labels).
fn spot(shape: Shape, label: &str) -> Spot {
    let numbered = |label: &str| label.parse::<usize>().unwrap_or(0);
    match shape {
        Shape::Ring { .. } | Shape::OneRow { .. } => Spot { side: None, row: 0, number: numbered(label) },
        Shape::TwoRows { .. } => {
            let c = label.chars().next().unwrap_or('a');
            let side = if c.is_ascii_lowercase() { Side::South } else { Side::North };
            let number = (c.to_ascii_lowercase() as u8 - b'a') as usize + 1;
            Spot { side: Some(side), row: 0, number }
        }
        Shape::ThreeRows { .. } | Shape::FourRows { .. } => {
            let c = label.chars().next().unwrap_or('o');
            let side = if c.is_ascii_lowercase() { Side::South } else { Side::North };
            let row = if c.eq_ignore_ascii_case(&'o') { 0 } else { 1 };
            Spot { side: Some(side), row, number: numbered(&label[1..]) }
        }
    }
}

/// The owner of a place that is not a pit (a store, a declared place), `None` for a shared place.
pub fn fixed_owner(rules: &Rules, p: PlaceId) -> Option<Player> {
    let o = rules.places[p as usize].owner;
    (o != NO_PLAYER).then_some(o)
}
