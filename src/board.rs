//! Drawing a position as text, in a layout that fits the board: two rows with the stores at the players'
//! right ends, or a ring drawn as a ring. Every pit shows the label the move notation uses.

use crate::engine::{Engine, State};
use crate::ir::{Shape, NO_PLAYER};

/// ANSI colours for the pieces of seats 1..8.
const SEAT_COLOURS: [&str; 8] = ["31", "34", "32", "33", "37", "35", "36", "91"];

/// Draws the position. `colour`: ANSI colours for coloured pieces and the player to move.
pub fn render(engine: &Engine, st: &State, colour: bool) -> String {
    let painter = Painter { engine, colour };
    let mut out = match engine.rules.shape {
        Shape::TwoRows { pits, stores } => painter.two_rows(st, pits as usize, stores),
        Shape::Ring { pits } => painter.ring(st, pits as usize),
    };
    out.push_str(&painter.off_board(st));
    out.push_str(&painter.status(st));
    out
}

struct Painter<'e> {
    engine: &'e Engine,
    colour: bool,
}

impl Painter<'_> {
    /// The contents of a place: a count for plain seeds, symbols for pieces that differ (`RRB`, `0 5`).
    fn contents(&self, st: &State, place: usize) -> (String, usize) {
        let k = self.engine.kinds();
        let counts = &st.counts[place * k..place * k + k];
        if k == 1 {
            let s = counts[0].to_string();
            let w = s.len();
            return (s, w);
        }
        let total: usize = counts.iter().map(|&c| c as usize).sum();
        if total == 0 {
            return ("-".into(), 1);
        }
        let mut text = String::new();
        let mut width = 0;
        let spaced = self.engine.rules.kinds.iter().any(|kind| kind.symbol.len() > 1) || total > 8;
        for (i, &n) in counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let info = &self.engine.rules.kinds[i];
            let piece = if spaced || n > 4 { format!("{}{}", n, info.symbol) } else { info.symbol.repeat(n as usize) };
            if width > 0 && spaced {
                text.push(' ');
                width += 1;
            }
            width += piece.chars().count();
            text.push_str(&self.paint(&piece, info.owner));
        }
        (text, width)
    }

    fn paint(&self, text: &str, owner: u8) -> String {
        if !self.colour || owner == NO_PLAYER {
            return text.to_string();
        }
        format!("\x1b[{}m{}\x1b[0m", SEAT_COLOURS[owner as usize % SEAT_COLOURS.len()], text)
    }

    fn cell(&self, st: &State, place: usize, width: usize) -> String {
        let (text, w) = self.contents(st, place);
        format!("{}{}", " ".repeat(width.saturating_sub(w)), text)
    }

    fn width(&self, st: &State, places: impl Iterator<Item = usize>) -> usize {
        places.map(|p| self.contents(st, p).1).chain(std::iter::once(2)).max().unwrap_or(2)
    }

    fn two_rows(&self, st: &State, n: usize, stores: bool) -> String {
        let rules = &self.engine.rules;
        let w = self.width(st, 0..rules.places.len()) + 1;
        let store = |p: usize| rules.places.iter().position(|i| i.name == "store" && i.on_track && i.owner == p as u8);
        let (s1, s2) = if stores { (store(0), store(1)) } else { (None, None) };
        let margin = if stores { w + 3 } else { 0 };
        let mut out = String::new();
        let label_row = |labels: Vec<String>| -> String {
            let mut line = " ".repeat(margin);
            for l in labels {
                line.push_str(&format!(" {:>w$}", l, w = w));
            }
            line.trim_end().to_string() + "\n"
        };
        // North sits across the table: his pits A.. run from right to left as South sees them.
        let north: Vec<usize> = (n..2 * n).rev().collect();
        let south: Vec<usize> = (0..n).collect();
        out.push_str(&label_row(north.iter().map(|&p| rules.places[p].label.clone()).collect()));
        let mut line = String::new();
        if let Some(s) = s2 {
            line.push_str(&format!("[{}] ", self.cell(st, s, w)));
        }
        for &p in &north {
            line.push_str(&format!(" {}", self.cell(st, p, w)));
        }
        out.push_str(&self.owner_marks(st, line));
        let mut line = " ".repeat(margin);
        for &p in &south {
            line.push_str(&format!(" {}", self.cell(st, p, w)));
        }
        if let Some(s) = s1 {
            line.push_str(&format!("  [{}]", self.cell(st, s, w)));
        }
        out.push_str(&line);
        out.push('\n');
        out.push_str(&label_row(south.iter().map(|&p| rules.places[p].label.clone()).collect()));
        out
    }

    /// Marks pits whose owner is not the one across the table from the start (after trades).
    fn owner_marks(&self, st: &State, line: String) -> String {
        let traded: Vec<String> = (0..self.engine.rules.n_pits)
            .filter(|&p| st.owner[p] != self.engine.rules.initial_owner[p])
            .map(|p| format!("{}→{}", self.engine.rules.places[p].label, st.owner[p] + 1))
            .collect();
        if traded.is_empty() {
            line + "\n"
        } else {
            format!("{line}    (traded: {})\n", traded.join(", "))
        }
    }

    fn ring(&self, st: &State, n: usize) -> String {
        let w = self.width(st, 0..n) + 4;
        let side = (n / 5).max(1);
        let top = (n - 2 * side).div_ceil(2);
        let bottom = n - 2 * side - top;
        let cell = |p: usize| -> String {
            let label = &self.engine.rules.places[p].label;
            let (text, tw) = self.contents(st, p);
            let body = format!("{label}:");
            let pad = w.saturating_sub(body.len() + tw);
            format!("{body}{}{text}", " ".repeat(pad))
        };
        // A grid of columns: the left side, `top` columns, the right side. Pits are numbered clockwise:
        // along the top, down the right, back along the bottom, up the left.
        let line = |cells: &[(usize, usize)]| -> String {
            let mut cells = cells.to_vec();
            cells.sort_unstable();
            let mut text = String::new();
            for &(col, p) in &cells {
                let at = col * (w + 2);
                text.push_str(&" ".repeat(at.saturating_sub(text.chars().count())));
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
            let (text, _) = self.contents(st, i);
            if place.name != last_name {
                if !last_name.is_empty() {
                    out.push('\n');
                }
                out.push_str(&format!("{}:", place.name));
                last_name = place.name.clone();
            }
            if place.owner == NO_PLAYER {
                out.push_str(&format!(" {text}"));
            } else {
                out.push_str(&format!("  {}={}", place.owner + 1, text));
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
                outcome.scores.iter().enumerate().map(|(i, s)| format!("{}: {}", i + 1, s)).collect();
            return format!("game over — scores {}\n", scores.join(", "));
        }
        let phase = &self.engine.phase(st).name;
        let phase = if self.engine.rules.phases.len() > 1 { format!(" ({phase})") } else { String::new() };
        let who = self.paint(&format!("player {}", st.to_move + 1), st.to_move);
        format!("ply {}: {who} to move{phase}\n", st.ply + 1)
    }
}
