//! The games shipped with the tool (`games/*.mancala`), built into the binary: a game's name (its file
//! name without `.mancala`) works as a rule file anywhere, also after `cargo install`.

/// One shipped game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Game {
    /// The file name without `.mancala`.
    pub name: &'static str,
    /// The rule file.
    pub text: &'static str,
}

/// Every shipped game, by name (listed by `build.rs`).
pub const GAMES: &[Game] = include!(concat!(env!("OUT_DIR"), "/shipped_games.rs"));

/// The shipped game called `name`, with or without `.mancala`.
pub fn find(name: &str) -> Option<&'static Game> {
    let name = name.strip_suffix(".mancala").unwrap_or(name);
    GAMES.iter().find(|g| g.name == name)
}

/// The names of the shipped games, for messages: "gore, kalah, oware".
pub fn names() -> String {
    GAMES.iter().map(|g| g.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_file_is_shipped() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
        let files = std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "mancala"));
        assert_eq!(files.count(), GAMES.len());
        for g in GAMES {
            assert_eq!(find(g.name), Some(g));
            assert_eq!(find(&format!("{}.mancala", g.name)), Some(g));
            assert!(g.text.contains("game \""), "{}", g.name);
        }
        assert_eq!(find("no-such-game"), None);
    }
}
