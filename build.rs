//! Lists the shipped games (`games/*.mancala`) for `mancala::shipped`, so that the binary carries them
//! and no game's name is written in the source.

use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut games: Vec<(String, String)> = std::fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "mancala"))
                .filter_map(|p| {
                    let name = p.file_stem()?.to_str()?.to_string();
                    Some((name, p.display().to_string()))
                })
                .collect()
        })
        .unwrap_or_default();
    games.sort();
    let mut out = String::from("&[\n");
    for (name, path) in &games {
        println!("cargo:rerun-if-changed={path}");
        out.push_str(&format!("    Game {{ name: {name:?}, text: include_str!({path:?}) }},\n"));
    }
    out.push_str("]\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR")).join("shipped_games.rs");
    std::fs::write(target, out).expect("OUT_DIR is writable");
}
