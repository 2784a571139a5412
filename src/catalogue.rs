//! The catalogue of the shipped games: the table of `docs/games/README.md`, built into the binary, one row a
//! game file (name, region, board, laps, captures, players, variants, file, sources), read for `mancala
//! games`. The table is written by people; `tests/catalogue.rs` holds it to the game files (each file has
//! exactly one row, and the board, players and variants of a row are those of its compiled rules) and to the
//! pages (each row's page exists and names its sources), so what the command lists stays true.

use crate::ir::Shape;

/// The table's text: `docs/games/README.md`.
pub const TABLE: &str = include_str!("../docs/games/README.md");

/// One row of the catalogue, its cells as written (Markdown links and code marks taken off).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The game's name as people write it.
    pub game: String,
    /// The page of `docs/games/`, from the game's link.
    pub page: String,
    pub region: String,
    /// As [`board_text`] writes it: `2×6, 2 stores`, `4×8`, `ring of 15`.
    pub board: String,
    pub laps: String,
    pub captures: String,
    /// As [`players_text`] writes it: `2`, `2–6`.
    pub players: String,
    /// The variants' names, comma-separated, or `—`.
    pub variants: String,
    /// The game file's stem: the name of the shipped game.
    pub file: String,
    pub sources: String,
}

impl Entry {
    /// The rows of pits of the board (0 for a ring), read from the board cell.
    pub fn rows(&self) -> Option<usize> {
        if self.board.starts_with("ring") {
            return Some(0);
        }
        self.board.split('×').next()?.trim().parse().ok()
    }

    /// The player counts the game allows, read from the players cell.
    pub fn player_range(&self) -> Option<(u32, u32)> {
        match self.players.split_once('–') {
            Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
            None => {
                let n = self.players.trim().parse().ok()?;
                Some((n, n))
            }
        }
    }

    /// Whether the game may be played by `n` players.
    pub fn allows_players(&self, n: u32) -> bool {
        self.player_range().is_some_and(|(lo, hi)| (lo..=hi).contains(&n))
    }
}

/// The rows of the catalogue's table, in the order written; a line of the table that does not read is
/// returned as an error naming it.
pub fn entries() -> Result<Vec<Entry>, String> {
    parse_table(TABLE)
}

/// The header the table must have, cell by cell.
pub const COLUMNS: [&str; 9] =
    ["game", "region", "board", "laps", "captures", "players", "variants", "file", "sources"];

/// Reads the catalogue table out of a Markdown text: the first table whose header is [`COLUMNS`].
pub fn parse_table(text: &str) -> Result<Vec<Entry>, String> {
    let mut lines = text.lines().enumerate().skip_while(|(_, l)| cells(l) != COLUMNS);
    if lines.next().is_none() {
        return Err(format!("no table with the columns {}", COLUMNS.join(" | ")));
    }
    let mut out = Vec::new();
    for (i, line) in lines.skip(1) {
        if !line.trim_start().starts_with('|') {
            break;
        }
        let c = cells(line);
        if c.len() != COLUMNS.len() {
            return Err(format!("line {}: {} cells, not {}", i + 1, c.len(), COLUMNS.len()));
        }
        let (game, page) = link(&c[0]).ok_or_else(|| format!("line {}: the game is not a link to its page", i + 1))?;
        let (file, _) = link(&c[7]).ok_or_else(|| format!("line {}: the file is not a link", i + 1))?;
        let file = file.trim_matches('`').trim_end_matches(".mancala").to_string();
        out.push(Entry {
            game,
            page,
            region: c[1].clone(),
            board: c[2].clone(),
            laps: c[3].clone(),
            captures: c[4].clone(),
            players: c[5].clone(),
            variants: c[6].replace('`', ""),
            file,
            sources: c[8].clone(),
        });
    }
    Ok(out)
}

/// A table line's cells, trimmed.
fn cells(line: &str) -> Vec<String> {
    let line = line.trim();
    let Some(inner) = line.strip_prefix('|').and_then(|l| l.strip_suffix('|')) else {
        return Vec::new();
    };
    inner.split('|').map(|c| c.trim().to_string()).collect()
}

/// `[text](target)`: the text and the target.
fn link(cell: &str) -> Option<(String, String)> {
    let rest = cell.strip_prefix('[')?;
    let (text, rest) = rest.split_once("](")?;
    let target = rest.strip_suffix(')')?;
    Some((text.to_string(), target.to_string()))
}

/// The board cell of a game's rules: rows × pits, and the stores on the track.
pub fn board_text(shape: Shape) -> String {
    match shape {
        Shape::TwoRows { pits, stores: true } => format!("2×{pits}, 2 stores"),
        Shape::TwoRows { pits, stores: false } => format!("2×{pits}"),
        Shape::OneRow { pits, store: true } => format!("1×{pits}, 1 store"),
        Shape::OneRow { pits, store: false } => format!("1×{pits}"),
        Shape::Ring { pits } => format!("ring of {pits}"),
        Shape::ThreeRows { pits } => format!("3×{pits}"),
        Shape::FourRows { pits } => format!("4×{pits}"),
    }
}

/// The players cell of a range of player counts.
pub fn players_text(min: u32, max: u32) -> String {
    if min == max {
        min.to_string()
    } else {
        format!("{min}–{max}")
    }
}

/// One line of `mancala games`: the file's name, the game, its board, players and region.
pub fn line(e: &Entry) -> String {
    let players = match e.players.as_str() {
        "1" => "solitaire".to_string(),
        p => format!("{p} players"),
    };
    format!("{:<18} {:<22} {:<15} {:<11} {}", e.file, e.game, e.board, players, e.region)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_reads_and_a_bad_row_is_named() {
        let rows = entries().expect("the catalogue reads");
        assert!(rows.iter().any(|e| e.file == "kalah" && e.rows() == Some(2) && e.allows_players(2)));
        let bad =
            "| game | region | board | laps | captures | players | variants | file | sources |\n|---|\n| x | y |\n";
        assert_eq!(parse_table(bad), Err("line 3: 2 cells, not 9".to_string()));
        assert!(parse_table("no table").is_err());
    }

    #[test]
    fn cells_read_as_numbers() {
        let e = Entry {
            game: "G".into(),
            page: "g.md".into(),
            region: "r".into(),
            board: "ring of 15".into(),
            laps: String::new(),
            captures: String::new(),
            players: "2–6".into(),
            variants: "—".into(),
            file: "g".into(),
            sources: String::new(),
        };
        assert_eq!((e.rows(), e.player_range()), (Some(0), Some((2, 6))));
        assert!(e.allows_players(3) && !e.allows_players(1));
    }
}
