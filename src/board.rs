//! Drawing a position as text, in a layout that fits the board: two rows with the stores at the players'
//! right ends, one row with its store at the right, three rows with the shared middle row between the
//! sides, four rows with each side's two rows, or a ring drawn as a ring. Every pit shows the label the move notation uses.
//!
//! Widths are measured on the visible text, without the colour escapes, so a coloured board lines up as
//! a plain one does. Seats are named as the front end wants (`you`, `computer`), and a two-row board is
//! drawn from the side of the person looking at it.

use crate::engine::{Engine, State};
use crate::ir::{three_row_pit, PlaceId, Shape, NO_PLAYER, UNMARKED};

/// ANSI colours for the pieces of seats 1..8.
const SEAT_COLOURS: [&str; 8] = ["31", "34", "32", "33", "37", "35", "36", "91"];

/// How to draw: for whom, in which words, what to mark.
#[derive(Debug, Clone, Default)]
pub struct View {
    /// ANSI colours for coloured pieces, the player to move and the marked pits.
    pub colour: bool,
    /// The seat whose side of a two-row board is drawn at the bottom (the first seat when `None`).
    pub viewer: Option<u8>,
    /// What to call each seat (`you`, `computer`); `player N` where missing.
    pub names: Vec<String>,
    /// Places to mark, such as the pit sown from and the last pit of the last ply.
    pub marks: Vec<PlaceId>,
    /// The width of the terminal, to keep a ring within it when it can be; 80 when 0.
    pub width: usize,
}

impl View {
    /// A plain view: seats by number, seat 1 at the bottom, nothing marked.
    pub fn plain(colour: bool) -> View {
        View { colour, ..View::default() }
    }

    /// The name of a seat.
    pub fn name(&self, seat: u8) -> String {
        self.names.get(seat as usize).cloned().unwrap_or_else(|| format!("player {}", seat as u32 + 1))
    }
}

/// Draws the position with seats by number, seat 1 at the bottom. `colour`: ANSI colours.
pub fn render(engine: &Engine, st: &State, colour: bool) -> String {
    render_view(engine, st, &View::plain(colour))
}

/// Draws the position as `view` asks.
pub fn render_view(engine: &Engine, st: &State, view: &View) -> String {
    let painter = Painter { engine, view };
    let mut out = match engine.rules.shape {
        Shape::TwoRows { pits, stores } => painter.two_rows(st, pits as usize, stores),
        Shape::Ring { pits } => painter.ring(st, pits as usize),
        Shape::OneRow { pits, .. } => painter.one_row(st, pits as usize),
        Shape::ThreeRows { pits } => painter.three_rows(st, pits as usize),
        Shape::FourRows { pits } => painter.four_rows(st, pits as usize),
    };
    out.push_str(&painter.off_board(st));
    out.push_str(&painter.marks(st));
    out.push_str(&painter.status(st));
    out
}

/// The width of text as a terminal shows it: colour escapes (`ESC [ ... m`) take no room.
pub fn visible_width(text: &str) -> usize {
    let mut width = 0;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            // Skip to the end of the escape sequence: its final byte is a letter.
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            width += 1;
        }
    }
    width
}

/// `text` padded on the left to `width` visible columns.
fn pad_left(text: &str, width: usize) -> String {
    format!("{}{text}", " ".repeat(width.saturating_sub(visible_width(text))))
}

/// `text` padded on the right to `width` visible columns.
fn pad_right(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(visible_width(text))))
}

struct Painter<'e> {
    engine: &'e Engine,
    view: &'e View,
}

impl Painter<'_> {
    /// The contents of a place: a count for plain seeds, symbols for pieces that differ (`RRB`, `5R 2B`).
    /// Symbols that are digits (`0` for a stone, `2` for a gem of 2) are kept apart (`0·2`), so that
    /// they never read as a number.
    fn contents(&self, st: &State, place: usize) -> String {
        let k = self.engine.kinds();
        let counts = &st.counts[place * k..place * k + k];
        if k == 1 {
            return counts[0].to_string();
        }
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        if total == 0 {
            return "-".into();
        }
        let kinds = &self.engine.rules.kinds;
        let digits = kinds.iter().any(|kind| kind.symbol.starts_with(|c: char| c.is_ascii_digit()));
        let spaced = !digits && (kinds.iter().any(|kind| kind.symbol.len() > 1) || total > 8);
        let mut pieces = Vec::new();
        for (i, &n) in counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let info = &kinds[i];
            let piece = if digits {
                let one = vec![info.symbol.as_str(); n as usize];
                if n > 3 {
                    format!("{n}×{}", info.symbol)
                } else {
                    one.join("·")
                }
            } else if spaced || n > 4 {
                format!("{}{}", n, info.symbol)
            } else {
                info.symbol.repeat(n as usize)
            };
            pieces.push(self.paint(&piece, info.owner));
        }
        pieces.join(if digits {
            "·"
        } else if spaced {
            " "
        } else {
            ""
        })
    }

    fn paint(&self, text: &str, owner: u8) -> String {
        if !self.view.colour || owner == NO_PLAYER {
            return text.to_string();
        }
        format!("\x1b[{}m{}\x1b[0m", SEAT_COLOURS[owner as usize % SEAT_COLOURS.len()], text)
    }

    fn marked(&self, place: usize) -> bool {
        self.view.marks.iter().any(|&m| m as usize == place)
    }

    /// A place's contents right-aligned in `width`, then one column for the mark of the last ply.
    fn cell(&self, st: &State, place: usize, width: usize) -> String {
        let text = self.contents(st, place);
        let pad = " ".repeat(width.saturating_sub(visible_width(&text)));
        if !self.marked(place) {
            return format!("{pad}{text} ");
        }
        if self.view.colour {
            format!("{pad}\x1b[1;4m{text}\x1b[0m*")
        } else {
            format!("{pad}{text}*")
        }
    }

    fn width(&self, st: &State, places: impl Iterator<Item = usize>) -> usize {
        places.map(|p| visible_width(&self.contents(st, p))).chain(std::iter::once(2)).max().unwrap_or(2)
    }

    fn store_of(&self, seat: u8) -> Option<usize> {
        let places = &self.engine.rules.places;
        places.iter().position(|i| i.name == "store" && i.on_track && i.owner == seat)
    }

    /// Two rows, the viewer's at the bottom running left to right; the other side's pits run right to
    /// left across the table. Each row is named after its owner at the start; each store sits at its
    /// owner's right end with its label under it.
    fn two_rows(&self, st: &State, n: usize, stores: bool) -> String {
        let rules = &self.engine.rules;
        let w = self.width(st, 0..rules.places.len()) + 1;
        let viewer = self.view.viewer.filter(|&v| v < 2).unwrap_or(0);
        let (near, far) = if viewer == 0 { (0, n) } else { (n, 0) };
        let top: Vec<usize> = (far..far + n).rev().collect();
        let bottom: Vec<usize> = (near..near + n).collect();
        let row_owner = |row: &[usize]| {
            let owner = rules.initial_owner.get(row[0]).copied().unwrap_or(NO_PLAYER);
            if owner == NO_PLAYER {
                String::new()
            } else {
                self.view.name(owner)
            }
        };
        let (top_name, bottom_name) = (row_owner(&top), row_owner(&bottom));
        let name_w = visible_width(&top_name).max(visible_width(&bottom_name));
        let (near_store, far_store) = if stores {
            (self.store_of(rules.initial_owner[near]), self.store_of(rules.initial_owner[far]))
        } else {
            (None, None)
        };
        let store_text = |s: usize| {
            let mark = if self.marked(s) { "*" } else { "" };
            format!("[{}]{mark}", pad_left(&self.contents(st, s), w))
        };
        let store_w = [near_store, far_store].iter().flatten().map(|&s| visible_width(&store_text(s))).max();
        let store_w = store_w.unwrap_or(0);
        // The left margin holds the row names, then the far side's store.
        let margin = (name_w + 2).max(store_w + 1);
        let pits_w = n * (w + 2);
        let mut out = String::new();
        let labels = |row: &[usize]| -> String {
            let cells: Vec<String> =
                row.iter().map(|&p| format!(" {} ", pad_left(&rules.places[p].label, w))).collect();
            format!("{}{}", " ".repeat(margin), cells.concat())
        };
        let pits = |row: &[usize]| -> String { row.iter().map(|&p| format!(" {}", self.cell(st, p, w))).collect() };
        let line = |text: String| text.trim_end().to_string() + "\n";
        out.push_str(&line(labels(&top)));
        out.push_str(&line(format!("{}{}{}", pad_right(&top_name, margin), pits(&top), self.traded(st))));
        if stores {
            let left = far_store.map_or(String::new(), store_text);
            let right = near_store.map_or(String::new(), store_text);
            out.push_str(&line(format!("{}{}{right}", pad_right(&left, margin), " ".repeat(pits_w + 2))));
        }
        out.push_str(&line(format!("{}{}", pad_right(&bottom_name, margin), pits(&bottom))));
        out.push_str(&line(labels(&bottom)));
        if stores {
            let label = |s: Option<usize>| s.map_or(String::new(), |s| rules.places[s].label.clone());
            out.push_str(&line(format!(
                "{}{}{}",
                pad_right(&label(far_store), margin),
                " ".repeat(pits_w + 2),
                label(near_store)
            )));
        }
        out
    }

    /// One row, left to right, with its store (if any) at the right end, labels above.
    fn one_row(&self, st: &State, n: usize) -> String {
        let rules = &self.engine.rules;
        let w = self.width(st, 0..rules.places.len()) + 1;
        let name = self.view.name(0);
        let margin = visible_width(&name) + 2;
        let store = self.store_of(0);
        let mut labels: String = (0..n).map(|p| format!(" {} ", pad_left(&rules.places[p].label, w))).collect();
        let mut pits: String = (0..n).map(|p| format!(" {}", self.cell(st, p, w))).collect();
        if let Some(s) = store {
            labels.push_str(&format!("  {}", rules.places[s].label));
            let mark = if self.marked(s) { "*" } else { "" };
            pits.push_str(&format!(" [{}]{mark}", pad_left(&self.contents(st, s), w)));
        }
        let line = |text: String| text.trim_end().to_string() + "\n";
        let mut out = line(format!("{}{labels}", " ".repeat(margin)));
        out.push_str(&line(format!("{}{pits}{}", pad_right(&name, margin), self.traded(st))));
        out
    }

    /// Four rows: the viewer's two rows at the bottom, his first row nearest him, running left to right;
    /// the other side's rows above, running right to left across the table, so that each column holds the
    /// pits that face each other. Each row's labels are on its outer side of the pair.
    fn four_rows(&self, st: &State, n: usize) -> String {
        let rules = &self.engine.rules;
        let w = self.width(st, 0..rules.n_pits) + 1;
        let viewer = self.view.viewer.filter(|&v| v < 2).unwrap_or(0) as usize;
        let row = |side: usize, inner: usize, reversed: bool| -> Vec<usize> {
            let first = side * 2 * n + inner * n;
            let pits: Vec<usize> = (first..first + n).collect();
            if reversed {
                pits.into_iter().rev().collect()
            } else {
                pits
            }
        };
        let far = 1 - viewer;
        let rows = [row(far, 0, true), row(far, 1, true), row(viewer, 1, false), row(viewer, 0, false)];
        let (far_name, near_name) = (self.view.name(far as u8), self.view.name(viewer as u8));
        let margin = visible_width(&far_name).max(visible_width(&near_name)) + 2;
        let labels = |row: &[usize]| self.row_labels(row, w, margin);
        let pits = |name: &str, row: &[usize]| self.row_cells(st, name, row, w, margin);
        let line = |text: String| text.trim_end().to_string() + "\n";
        let mut out = String::new();
        // Rows wider than the terminal are drawn in bands of whole columns, one under the other, so that
        // each column still holds the pits that face each other.
        let width = if self.view.width == 0 { 80 } else { self.view.width };
        let fit = (width.saturating_sub(margin) / (w + 2)).max(1);
        let bands = n.div_ceil(fit);
        let band = n.div_ceil(bands);
        for (b, start) in (0..n).step_by(band).enumerate() {
            let cols = start..(start + band).min(n);
            let part = |r: usize| &rows[r][cols.clone()];
            if b > 0 {
                out.push('\n');
            }
            out.push_str(&line(labels(part(0))));
            let traded = if b == 0 { self.traded(st) } else { String::new() };
            out.push_str(&line(format!("{}{traded}", pits(&far_name, part(0)))));
            out.push_str(&line(pits("", part(1))));
            out.push_str(&line(labels(part(1))));
            out.push('\n');
            out.push_str(&line(labels(part(2))));
            out.push_str(&line(pits("", part(2))));
            out.push_str(&line(pits(&near_name, part(3))));
            out.push_str(&line(labels(part(3))));
        }
        out
    }

    /// A row's labels, each centred over its cell, after a margin as wide as the seat names.
    fn row_labels(&self, row: &[usize], w: usize, margin: usize) -> String {
        let cells: String =
            row.iter().map(|&p| format!(" {} ", pad_left(&self.engine.rules.places[p].label, w))).collect();
        format!("{}{cells}", " ".repeat(margin))
    }

    /// A row's cells, after `name` (a seat's name, or nothing) padded to the margin.
    fn row_cells(&self, st: &State, name: &str, row: &[usize], w: usize, margin: usize) -> String {
        let cells: String = row.iter().map(|&p| format!(" {}", self.cell(st, p, w))).collect();
        format!("{}{cells}", pad_right(name, margin))
    }

    /// Three rows: the viewer's outer row at the bottom, running left to right, the other side's at the
    /// top, and the shared middle row between, each half labelled by its owner's numbers. The far row's
    /// and the middle row's labels are above them, the near row's below.
    fn three_rows(&self, st: &State, n: usize) -> String {
        let rules = &self.engine.rules;
        let w = self.width(st, 0..rules.n_pits) + 1;
        let viewer = self.view.viewer.filter(|&v| v < 2).unwrap_or(0);
        // The second player sees the board turned half round.
        let at = |column: usize, row: usize| -> usize {
            let p = if viewer == 0 { three_row_pit(n, column, row) } else { three_row_pit(n, n - 1 - column, 2 - row) };
            p as usize
        };
        let rows: Vec<Vec<usize>> = (0..3).rev().map(|row| (0..n).map(|c| at(c, row)).collect()).collect();
        let (far_name, near_name) = (self.view.name(1 - viewer), self.view.name(viewer));
        let margin = visible_width(&far_name).max(visible_width(&near_name)) + 2;
        let labels = |row: &[usize]| self.row_labels(row, w, margin);
        let pits = |name: &str, row: &[usize]| self.row_cells(st, name, row, w, margin);
        let line = |text: String| text.trim_end().to_string() + "\n";
        let mut out = String::new();
        out.push_str(&line(labels(&rows[0])));
        out.push_str(&line(format!("{}{}", pits(&far_name, &rows[0]), self.traded(st))));
        out.push_str(&line(labels(&rows[1])));
        out.push_str(&line(pits("", &rows[1])));
        out.push_str(&line(pits(&near_name, &rows[2])));
        out.push_str(&line(labels(&rows[2])));
        out
    }

    /// The pits that carry a mark, one line per mark: `tuzdyk: C (you), d (computer)`, `burnt: a, F`.
    fn marks(&self, st: &State) -> String {
        let rules = &self.engine.rules;
        let n = rules.n_pits;
        let mut out = String::new();
        for (m, info) in rules.marks.iter().enumerate() {
            let marked: Vec<String> = (0..n)
                .filter_map(|p| {
                    let cell = st.marks.get(m * n + p).copied().unwrap_or(UNMARKED);
                    let label = &rules.places[p].label;
                    match cell {
                        UNMARKED => None,
                        _ if !info.per_player => Some(label.clone()),
                        c => Some(format!("{label} ({})", self.view.name(c - 1))),
                    }
                })
                .collect();
            if !marked.is_empty() {
                out.push_str(&format!("{}: {}\n", info.name, marked.join(", ")));
            }
        }
        out
    }

    /// Pits whose owner is not the one of their row at the start, as a note: `(C is yours; a and b are
    /// computer's)`. A pit that carries a mark of its owner's (a tuzdyk given with the mark) is told by the
    /// line of that mark instead.
    fn traded(&self, st: &State) -> String {
        let rules = &self.engine.rules;
        let n = rules.n_pits;
        let marked_for_owner = |p: usize| {
            rules.marks.iter().enumerate().any(|(m, info)| {
                info.per_player && st.marks.get(m * n + p).copied().unwrap_or(UNMARKED) == st.owner[p].wrapping_add(1)
            })
        };
        let mut by_owner: Vec<(u8, Vec<&str>)> = Vec::new();
        for p in (0..n).filter(|&p| st.owner[p] != rules.initial_owner[p] && !marked_for_owner(p)) {
            let label = rules.places[p].label.as_str();
            match by_owner.iter_mut().find(|(o, _)| *o == st.owner[p]) {
                Some((_, pits)) => pits.push(label),
                None => by_owner.push((st.owner[p], vec![label])),
            }
        }
        if by_owner.is_empty() {
            return String::new();
        }
        let notes: Vec<String> = by_owner
            .into_iter()
            .map(|(owner, pits)| {
                let whose = match owner {
                    NO_PLAYER => "nobody's".to_string(),
                    o => match self.view.name(o).as_str() {
                        "you" => "yours".to_string(),
                        name => format!("{name}'s"),
                    },
                };
                let verb = if pits.len() == 1 { "is" } else { "are" };
                let pits = match pits.as_slice() {
                    [rest @ .., last] if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
                    _ => pits.join(""),
                };
                format!("{pits} {verb} now {whose}")
            })
            .collect();
        format!("    ({})", notes.join("; "))
    }

    /// A ring: the pits numbered clockwise along the top, down the right, back along the bottom and up the
    /// left. A ring too small for four sides is one line.
    fn ring(&self, st: &State, n: usize) -> String {
        let label_w = self.engine.rules.places[..n].iter().map(|p| p.label.len()).max().unwrap_or(1) + 1;
        let w = self.width(st, 0..n) + 1;
        let cell = |p: usize| -> String {
            let label = format!("{}:", self.engine.rules.places[p].label);
            format!("{}{}", pad_right(&label, label_w), self.cell(st, p, w))
        };
        let cell_w = label_w + w + 1;
        if n < 5 {
            return (0..n).map(cell).collect::<Vec<_>>().join("  ").trim_end().to_string() + "\n";
        }
        let (side, top, bottom) = ring_sides(n, cell_w + 2, if self.view.width == 0 { 80 } else { self.view.width });
        // A grid of columns: the left side, `top` columns, the right side.
        let line = |cells: &[(usize, usize)]| -> String {
            let mut cells = cells.to_vec();
            cells.sort_unstable();
            let mut text = String::new();
            for &(col, p) in &cells {
                let at = col * (cell_w + 2);
                text.push_str(&" ".repeat(at.saturating_sub(visible_width(&text))));
                text.push_str(&cell(p));
            }
            text.trim_end().to_string() + "\n"
        };
        let mut out = String::new();
        out.push_str(&line(&(0..top).map(|i| (i + 1, i)).collect::<Vec<_>>()));
        for i in 0..side {
            let right = top + i;
            let left = n - 1 - i;
            out.push_str(&line(&[(0, left), (top + 1, right)]));
        }
        // The bottom row runs right to left, ending under the last column of the top row.
        let first_bottom = top + side;
        out.push_str(&line(&(0..bottom).map(|i| (top - i, first_bottom + i)).collect::<Vec<_>>()));
        out
    }

    fn off_board(&self, st: &State) -> String {
        let rules = &self.engine.rules;
        let mut out = String::new();
        let mut last_name = String::new();
        for (i, place) in rules.places.iter().enumerate() {
            if place.is_pit || place.on_track {
                continue;
            }
            let text = self.contents(st, i);
            let first = place.name != last_name;
            if first {
                if !last_name.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!("{}:", place.name));
                last_name = place.name.clone();
            }
            if place.owner == NO_PLAYER {
                out.push_str(&format!(" {text}"));
            } else {
                let sep = if first { " " } else { ", " };
                out.push_str(&format!("{sep}{} {text}", self.view.name(place.owner)));
            }
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out
    }

    fn status(&self, st: &State) -> String {
        if let Some(outcome) = &st.result {
            let scores: Vec<String> =
                outcome.scores.iter().enumerate().map(|(i, s)| format!("{} {s}", self.view.name(i as u8))).collect();
            let rounds = if self.engine.rules.rounds.is_some() {
                format!("; {} rounds{}", st.rounds.len(), self.rounds_won(st))
            } else {
                String::new()
            };
            return format!("game over — scores: {}{rounds}\n", scores.join(", "));
        }
        let phase = &self.engine.phase(st).name;
        let phase = if self.engine.rules.phases.len() > 1 { format!(" ({phase})") } else { String::new() };
        // In the middle of a move the opponent may be the one to decide (`opponent may`).
        let decider = self.engine.decider(st);
        let who = self.paint(&self.view.name(decider), decider);
        let doing = if decider == st.to_move {
            "to move".to_string()
        } else {
            // `you` is the REPL's name for a person at the keyboard: "to answer your move".
            let whose = match self.view.name(st.to_move).as_str() {
                "you" => "your".to_string(),
                name => format!("{name}'s"),
            };
            format!("to answer {whose} move")
        };
        let out: Vec<String> = (0..self.engine.rules.players)
            .filter(|p| st.eliminated & (1 << p) != 0)
            .map(|p| self.view.name(p))
            .collect();
        let out = if out.is_empty() { String::new() } else { format!("; out: {}", out.join(", ")) };
        let round = if self.engine.rules.rounds.is_some() {
            format!("; round {}{}", st.round, self.rounds_won(st))
        } else {
            String::new()
        };
        format!("ply {}: {who} {doing}{phase}{out}{round}\n", st.ply + 1)
    }

    /// In a match of rounds, the rounds each player has won so far: ` (won: you 2, computer 1, drawn 1)`.
    fn rounds_won(&self, st: &State) -> String {
        if st.rounds.is_empty() {
            return String::new();
        }
        let mut parts: Vec<String> = (0..self.engine.rules.players)
            .map(|p| {
                let won = st.rounds.wins(p);
                format!("{} {won}", self.view.name(p))
            })
            .collect();
        let drawn = st.rounds.draws();
        if drawn > 0 {
            parts.push(format!("drawn {drawn}"));
        }
        format!(" (won: {})", parts.join(", "))
    }
}

/// How many pits go on each side of a ring of `n >= 5` pits, on the top and on the bottom: about a fifth
/// on each side, more when the top row would not fit in `width` columns of `cell` each.
fn ring_sides(n: usize, cell: usize, width: usize) -> (usize, usize, usize) {
    let split = |side: usize| {
        let top = (n - 2 * side).div_ceil(2);
        (side, top, n - 2 * side - top)
    };
    let mut side = (n / 5).max(1);
    while 2 * (side + 1) + 2 <= n && (split(side).1 + 2) * cell > width {
        side += 1;
    }
    split(side)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_escapes_take_no_room() {
        assert_eq!(visible_width("\x1b[31mRR\x1b[0m\x1b[34mG\x1b[0m"), 3);
        assert_eq!(pad_left("\x1b[31mR\x1b[0m", 3), "  \x1b[31mR\x1b[0m");
    }

    #[test]
    fn every_ring_has_a_top_row() {
        for n in 5..=64 {
            for width in [20, 80, 200] {
                let (side, top, bottom) = ring_sides(n, 12, width);
                assert!(side >= 1 && top >= 1 && top >= bottom, "{n}: {side} {top} {bottom}");
                assert_eq!(2 * side + top + bottom, n);
            }
        }
    }
}
