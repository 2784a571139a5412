//! `mancala lsp` in a real editor: Neovim, headless, with its built-in LSP client, driven by
//! `tests/nvim/session.lua` on the Gulek file with one misspelt name. The session (diagnostics, hovers,
//! completions and a rename, as Neovim got them) is printed, and checked.
//!
//! Needs `nvim` (Debian's `neovim`, which `.ci/run` installs). Where it is missing the test says so and
//! passes, unless `MANCALA_NVIM_TESTS=1` (as `.ci/run` sets it) asks for it.

use std::path::Path;
use std::process::Command;

#[test]
fn neovim_gets_diagnostics_hovers_completions_and_a_rename() {
    if Command::new("nvim").arg("--version").output().is_err() {
        assert_ne!(std::env::var("MANCALA_NVIM_TESTS").as_deref(), Ok("1"), "nvim is not installed");
        eprintln!("skipped: install Neovim (`apt-get install neovim`) to run the editor test");
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("nvim");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let gulek = std::fs::read_to_string(root.join("games/gulek.mancala")).unwrap();
    let file = dir.join("gulek.mancala");
    std::fs::write(&file, gulek.replacen("count(supply(player))", "count(suply(player))", 1)).unwrap();
    let out = dir.join("session.txt");
    let status = Command::new("nvim")
        .args(["--headless", "-u", "NONE", "-i", "NONE", "-n", "-c"])
        .arg(format!("luafile {}", root.join("tests/nvim/session.lua").display()))
        .arg(&file)
        .current_dir(&dir)
        .env("MANCALA_BIN", env!("CARGO_BIN_EXE_mancala"))
        .env("MANCALA_OUT", &out)
        .status()
        .expect("nvim runs");
    let session = std::fs::read_to_string(&out).unwrap_or_default();
    println!("{session}");
    assert!(status.success(), "Neovim's session failed: {session}");
    for expected in [
        "diagnostic 32:",
        "there is no place called `suply`",
        "hover on `capture {`:",
        "**`capture`**",
        "**place** `furrow`",
        "completion after `direction `: ccw choose cw",
        "completion of names at `to |centre`: ",
        "centre",
        "rename furrow -> park: 6 edits",
        "to park(mover)",
    ] {
        assert!(session.contains(expected), "{expected:?} in the session:\n{session}");
    }
}
