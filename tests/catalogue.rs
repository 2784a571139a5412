//! The catalogue (`docs/games/README.md`) kept true: every shipped game has one row, its board, players and
//! variants are those of its compiled rules, its page exists and names each of its sources, and every cell a
//! person writes is filled.

use mancala::catalogue::{board_text, entries, players_text, Entry};

/// The player counts a game file allows: every count from 1 to 8 it compiles at.
fn player_range(text: &str) -> (u32, u32) {
    let ok: Vec<u32> = (1..=8).filter(|&n| mancala::compile(text, None, Some(n as u8)).is_ok()).collect();
    (ok.first().copied().unwrap_or(0), ok.last().copied().unwrap_or(0))
}

/// The cells the rules decide, as the table must write them.
fn computed(text: &str) -> (String, String, String) {
    let engine = mancala::compile(text, None, None).expect("a shipped game compiles");
    let file = mancala::syntax::parse(text).expect("a shipped game parses");
    let variants: Vec<String> = mancala::check::variant_names(&file).into_iter().skip(1).collect();
    let variants = if variants.is_empty() { "—".to_string() } else { variants.join(", ") };
    let (lo, hi) = player_range(text);
    (board_text(engine.rules.shape), players_text(lo, hi), variants)
}

/// FIXME (issue 31 §2): the pages that name no published source yet, only the project's own readings; take a
/// game off when its page cites its sources.
const UNSOURCED: &[&str] = &["congkak", "dakon", "gore", "mangala", "pallanguzhi"];

fn docs() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/games")
}

#[test]
fn every_shipped_game_has_one_true_row_in_the_catalogue() {
    let rows = entries().unwrap_or_else(|e| panic!("docs/games/README.md: {e}"));
    let mut failures = Vec::new();
    for game in mancala::shipped::GAMES {
        let mine: Vec<&Entry> = rows.iter().filter(|e| e.file == game.name).collect();
        let [row] = mine.as_slice() else {
            failures.push(format!("{}: {} rows in the catalogue, not one", game.name, mine.len()));
            continue;
        };
        let (board, players, variants) = computed(game.text);
        for (what, written, true_cell) in
            [("board", &row.board, &board), ("players", &row.players, &players), ("variants", &row.variants, &variants)]
        {
            if written != true_cell {
                failures.push(format!("{}: the {what} is `{true_cell}`, the table says `{written}`", game.name));
            }
        }
    }
    for row in &rows {
        if mancala::shipped::find(&row.file).is_none() {
            failures.push(format!("{}: no such shipped game", row.file));
        }
    }
    assert!(failures.is_empty(), "docs/games/README.md:\n{}", failures.join("\n"));
}

#[test]
fn every_row_names_a_page_that_cites_its_sources() {
    let rows = entries().unwrap_or_else(|e| panic!("docs/games/README.md: {e}"));
    let mut failures = Vec::new();
    for row in &rows {
        for (what, cell) in [("region", &row.region), ("laps", &row.laps), ("captures", &row.captures)] {
            if cell.is_empty() {
                failures.push(format!("{}: no {what}", row.file));
            }
        }
        let path = docs().join(&row.page);
        let Ok(page) = std::fs::read_to_string(&path) else {
            failures.push(format!("{}: no page {}", row.file, path.display()));
            continue;
        };
        if !page.contains(&format!("games/{}.mancala", row.file)) {
            failures.push(format!("{}: its page {} does not name its file", row.file, row.page));
        }
        // `—`: the page names no published source yet; only the games of UNSOURCED may say so.
        if row.sources == "—" {
            if !UNSOURCED.contains(&row.file.as_str()) {
                failures.push(format!("{}: no sources (and not among UNSOURCED)", row.file));
            }
            continue;
        }
        if UNSOURCED.contains(&row.file.as_str()) {
            failures.push(format!("{}: has sources now: take it off UNSOURCED", row.file));
        }
        // Each source is written `Author year`; the page names the author and the year.
        let sources: Vec<&str> = row.sources.split(';').map(str::trim).filter(|s| !s.is_empty()).collect();
        if sources.is_empty() {
            failures.push(format!("{}: no sources", row.file));
        }
        for source in sources {
            let words: Vec<&str> = source.split_whitespace().collect();
            let missing: Vec<&&str> = words.iter().filter(|w| !page.contains(**w)).collect();
            if !missing.is_empty() {
                failures.push(format!("{}: its page does not cite `{source}` (no {missing:?})", row.file));
            }
        }
    }
    assert!(failures.is_empty(), "docs/games/README.md:\n{}", failures.join("\n"));
}

/// The matches of rounds: 100 random matches of these take from seconds to many minutes (Dakon on 2×9, about
/// twenty), past the budget of a test; `mancala simulate FILE --games 100` shows none of them cut by the ply
/// limit (measured 2026-12-07).
const MATCHES: &[&str] = &["congkak", "dakon", "gabata", "pallanguzhi"];

/// FIXME: the variants where random play is cut by the ply limit more than twice in 100 games, each with what
/// was seen: each must still be cut more than twice, until its file gets a guard that ends it honestly (or
/// the reason is found).
const KNOWN_LIMIT_CUTS: &[(&str, &str)] =
    &[("igisoro-singletons", "9 of 100 (seed 1): singletons sown into empty pits only can shuffle for ever")];

#[test]
fn every_shipped_game_ends_by_a_rule_in_100_random_games() {
    let mut failures = Vec::new();
    for game in mancala::shipped::GAMES.iter().filter(|g| !MATCHES.contains(&g.name)) {
        let file = mancala::syntax::parse(game.text).expect("a shipped game parses");
        for variant in mancala::check::variant_names(&file) {
            let engine = mancala::compile(game.text, Some(&variant), None).expect("a shipped game compiles");
            let mut dice = mancala::playout::Dice::with_seed(1);
            let cut = (0..100)
                .filter(|_| {
                    let stats = mancala::playout::random_game(&engine, &mut dice, |_| {});
                    stats.outcome.is_none_or(|o| o.reason == mancala::engine::EndReason::Limit)
                })
                .count();
            let name = format!("{}-{variant}", game.name);
            match KNOWN_LIMIT_CUTS.iter().find(|(n, _)| *n == name) {
                Some(_) if cut <= 2 => failures.push(format!("{name}: {cut} cut now; take it off KNOWN_LIMIT_CUTS")),
                Some(_) => {}
                None if cut > 2 => failures.push(format!("{name}: {cut} of 100 random games cut by the ply limit")),
                None => {}
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
