//! The language front end: parsing, checking, and the diagnostics a person reads.
//!
//! The cases are data. Each game in `games/` has a snapshot of its AST and of its variant names, and must
//! check without a single diagnostic. Each file in `tests/data/invalid/` is snapshotted as its source, a
//! `---` line, and the diagnostics as `mancala check` draws them; each must have at least one error.
//! Adding a case means adding a file, then accepting its snapshot after reading it.

use std::path::Path;
use std::time::{Duration, Instant};

use mancala::diag::{self, Diagnostic, Severity, Style, SyntaxCode};
use mancala::{check, syntax};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// Parses and checks a source, returning every diagnostic, as `mancala check` does: the syntax errors of
/// each bad item, and what the checker found in the others.
fn diagnostics(source: &str) -> Vec<Diagnostic> {
    check::check_source(source)
}

/// What a person sees: the source, then the diagnostics as drawn without colour.
fn front(name: &str, source: &str) -> String {
    let rendered = diag::render(name, source, &diagnostics(source), Style::Plain);
    format!("{source}\n---\n{rendered}")
}

fn file_name(path: &Path) -> String {
    path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

fn read(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    String::from_utf8(bytes).unwrap_or_else(|e| panic!("{} is not UTF-8: {e}", path.display()))
}

// ---------------------------------------------------------------- the shipped games

#[test]
fn games_parse_and_check_clean() {
    insta::glob!("../games", "*.mancala", |path| {
        let source = read(path);
        let file = syntax::parse(&source).unwrap_or_else(|e| {
            panic!("{}:\n{}", path.display(), diag::render(&file_name(path), &source, &[e.into()], Style::Plain))
        });
        let diags = check::check(&file);
        assert!(
            diags.is_empty(),
            "{} should check without diagnostics:\n{}",
            path.display(),
            diag::render(&file_name(path), &source, &diags, Style::Plain)
        );
        insta::assert_json_snapshot!("ast", file);
        insta::assert_snapshot!("variants", check::variant_names(&file).join("\n"));
    });
}

#[test]
fn every_variant_of_every_game_lowers() {
    insta::glob!("../games", "*.mancala", |path| {
        let source = read(path);
        let file = syntax::parse(&source).expect("the game parses");
        for variant in check::variant_names(&file) {
            if let Err(diags) = check::lower(&file, Some(&variant), None) {
                panic!(
                    "{} {variant}:\n{}",
                    path.display(),
                    diag::render(&file_name(path), &source, &diags, Style::Plain)
                );
            }
        }
    });
}

// ---------------------------------------------------------------- invalid files

#[test]
fn invalid_files() {
    insta::glob!("data/invalid/*.mancala", |path| {
        let source = read(path);
        let diags = diagnostics(&source);
        assert!(diags.iter().any(Diagnostic::is_error), "{} should have at least one error", path.display());
        insta::assert_snapshot!(front(&file_name(path), &source));
    });
}

/// Codes are stable and namespaced; every diagnostic has a label, and a warning is never an error.
#[test]
fn diagnostics_are_well_formed() {
    insta::glob!("data/invalid/*.mancala", |path| {
        let source = read(path);
        for d in diagnostics(&source) {
            assert!(
                d.code.starts_with("mancala::syntax") || d.code.starts_with("mancala::check::"),
                "{}: code {}",
                path.display(),
                d.code
            );
            assert!(!d.label.is_empty(), "{}: `{}` has no label", path.display(), d.message);
            assert!(d.span.start <= d.span.end && d.span.end <= source.len(), "{}: span {:?}", path.display(), d.span);
            assert_eq!(d.is_error(), d.severity == Severity::Error);
        }
    });
}

/// The checker reports every error of a file in one run, in source order.
#[test]
fn all_errors_in_one_run() {
    let source = read(Path::new("tests/data/invalid/several-errors.mancala"));
    let diags = diagnostics(&source);
    let errors = diags.iter().filter(|d| d.is_error()).count();
    assert!(errors >= 5, "expected every error at once, got {errors}:\n{diags:#?}");
    assert!(diags.windows(2).all(|w| w[0].span.start <= w[1].span.start), "diagnostics are in source order");
}

#[test]
fn warnings_stay_warnings() {
    let source = read(Path::new("tests/data/invalid/warning-and-error.mancala"));
    let diags = diagnostics(&source);
    assert!(diags.iter().any(|d| d.severity == Severity::Warning && d.code == "mancala::check::unused_place"));
    assert!(diags.iter().any(|d| d.severity == Severity::Error));
    let rendered = diag::render("warning-and-error.mancala", &source, &diags, Style::Plain);
    assert!(rendered.contains("⚠"), "a warning is drawn as a warning:\n{rendered}");
}

/// Files that check with warnings only: each is valid, and its warnings are snapshotted as drawn.
#[test]
fn files_with_warnings_only() {
    insta::glob!("data/warnings/*.mancala", |path| {
        let source = read(path);
        let diags = diagnostics(&source);
        assert!(!diags.is_empty(), "{} should have a warning", path.display());
        assert!(diags.iter().all(|d| !d.is_error()), "{} should have warnings only", path.display());
        insta::assert_snapshot!(front(&file_name(path), &source));
    });
}

// ---------------------------------------------------------------- generated inputs

/// A file that is not UTF-8 is reported at the byte where it stops being text.
#[test]
fn not_utf8() {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("front");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("latin1.mancala");
    let mut bytes = b"game \"Gor".to_vec();
    bytes.push(0xE9); // "é" in Latin-1
    bytes.extend_from_slice(b"\"\nplayers 2\nboard two_rows 4\n");
    std::fs::write(&path, &bytes).unwrap();

    let bytes = std::fs::read(&path).unwrap();
    let err = syntax::parse_bytes(&bytes).expect_err("Latin-1 is not UTF-8");
    assert_eq!(err.span.start, 9, "the offset of the first byte that is not UTF-8");
    let d = Diagnostic::from(err);
    assert_eq!(d.code, "mancala::syntax::not_utf8");
    let text = String::from_utf8_lossy(&bytes);
    insta::assert_snapshot!(diag::render("latin1.mancala", &text, &[d], Style::Plain));

    // The same file, saved as UTF-8, is fine as far as the parser goes.
    assert!(syntax::parse_bytes("game \"Goré\"\nplayers 2\n".as_bytes()).is_ok());
    // A sequence cut short by the end of the file.
    let err = syntax::parse_bytes(b"game \"G\xC3").expect_err("a truncated sequence");
    assert_eq!(err.span.start, 7);
}

/// Five megabytes of input neither panic nor take long: past `MAX_SOURCE_BYTES` a file is refused at once.
#[test]
fn five_megabytes() {
    let header = read(Path::new("games/oware.mancala")).replace("setup {\n  every pit: 4\n}", "");
    let huge = format!("{header}\nsetup {{\n{}}}\n", "  every pit: 4\n  a, b, c, d, e, f: 1\n".repeat(5_000_000 / 36));
    assert!(huge.len() >= 5_000_000);
    let start = Instant::now();
    let err = syntax::parse(&huge).expect_err("5 MB is too large");
    assert_eq!(err.code, SyntaxCode::TooLarge);
    assert_eq!(syntax::parse_bytes(huge.as_bytes()).expect_err("5 MB is too large").code, SyntaxCode::TooLarge);
    let rendered = diag::render("huge.mancala", &huge, &[err.into()], Style::Plain);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(2), "refusing 5 MB took {took:?}");
    insta::assert_snapshot!("five_megabytes", rendered);
}

/// The worst files just under the size limit: every stage finishes in a couple of seconds.
#[test]
fn just_under_the_size_limit() {
    let header = read(Path::new("games/oware.mancala")).replace("setup {\n  every pit: 4\n}", "");
    let room = syntax::MAX_SOURCE_BYTES - header.len() - 100;
    let fill = |line: &str| line.repeat(room / line.len());
    let numbered = |line: &dyn Fn(usize) -> String| {
        let mut out = String::new();
        for i in 0.. {
            let next = line(i);
            if out.len() + next.len() > room {
                break;
            }
            out.push_str(&next);
        }
        out
    };
    let cases = [
        ("setup lines", format!("{header}\nsetup {{\n{}}}\n", fill("  a: 1\n"))),
        ("places", format!("{header}\nsetup {{ every pit: 4 }}\n{}", numbered(&|i| format!("place p{i} shared\n")))),
        (
            "variants",
            format!("{header}\nsetup {{ every pit: 4 }}\n{}", numbered(&|i| format!("variant \"v{i}\" {{ }}\n"))),
        ),
        ("a long sum", format!("{header}\nsetup {{ every pit: 4 }}\nscore 1{}", fill(" + count(captured(player))"))),
        ("junk", format!("{header}\n{}", fill("pits( ) { : 7 # \"x\n"))),
        ("comments", format!("{header}\nsetup {{ every pit: 4 }}\n{}", fill("# a comment\n"))),
        // Each line a bad item: the parser reads on after each one.
        ("bad items", format!("{header}\n{}", fill("score +\n"))),
        ("bad items in braces", format!("{header}\n{}", fill("turn { sow { from } }\nend {\n"))),
    ];
    for (what, source) in cases {
        assert!(source.len() <= syntax::MAX_SOURCE_BYTES, "{what}: {} bytes", source.len());
        let start = Instant::now();
        let diags = diagnostics(&source);
        let _ = diag::render("big.mancala", &source, &diags, Style::Plain);
        let took = start.elapsed();
        assert!(took < Duration::from_secs(3), "{what} took {took:?}");
        assert!(diags.len() <= check::MAX_DIAGNOSTICS + 1, "{what}: {} diagnostics", diags.len());
    }
}

/// Nesting far past the limit, in every form the grammar nests, is an error and not a stack overflow.
#[test]
fn deep_nesting_is_an_error() {
    let deep = |open: &str, inner: &str, close: &str| {
        format!("game \"x\"\ngoal {}{inner}{}\n", open.repeat(10_000), close.repeat(10_000))
    };
    for source in [
        deep("(", "count = 0", ")"),
        deep("not (", "count = 0", ")"),
        deep("any pits(", "count = 0", ")"),
        deep("count(opposite(", "a", "))"),
        deep("{", "", "}"),
        format!("game \"x\"\nscore {}1", "1 + (".repeat(10_000)),
        format!("game \"x\"\ngoal {}count = 0", "not ".repeat(100_000)),
    ] {
        let err = syntax::parse(&source).expect_err("too deep");
        assert_eq!(Diagnostic::from(err).code, "mancala::syntax::too_deep");
    }
}

// ---------------------------------------------------------------- no panics on any input

/// The number of cases per strategy: 256, or `PROPTEST_CASES` when set (CI raises it).
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(256)
}

fn runner() -> TestRunner {
    TestRunner::new(Config { cases: cases(), failure_persistence: None, ..Config::default() })
}

/// Every stage a user can reach, on one input: parse, check, and lower every variant at several player counts.
fn run_front(source: &str) {
    let diags = check::check_source(source);
    let _ = diag::render("fuzz.mancala", source, &diags, Style::Plain);
    let Ok(file) = syntax::parse(source) else {
        return;
    };
    let diags = check::check(&file);
    let _ = diag::render("fuzz.mancala", source, &diags, Style::Plain);
    for variant in check::variant_names(&file) {
        for players in [None, Some(1), Some(3), Some(8)] {
            let _ = check::lower(&file, Some(&variant), players);
        }
    }
}

fn game_sources() -> Vec<String> {
    let mut paths: Vec<_> = std::fs::read_dir("games")
        .expect("games/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mancala"))
        .collect();
    paths.sort();
    // Without comments, more mutations land on rules.
    paths
        .iter()
        .map(|p| read(p).lines().map(|l| l.split('#').next().unwrap_or("")).collect::<Vec<_>>().join("\n"))
        .collect()
}

/// The words of the grammar (the table of `keywords`) and its punctuation, numbers and names, for token soups
/// and token mutations.
static TOKENS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    mancala::keywords::KEYWORDS.iter().map(|k| k.word).chain(EXTRA_TOKENS.iter().copied()).collect()
});

const EXTRA_TOKENS: &[&str] = &[
    "pit",
    "store",
    "captured",
    "cup",
    "gem",
    "stone",
    "supply",
    "a",
    "F",
    "g",
    "1",
    "15",
    "16",
    "0",
    "2",
    "255",
    "4294967295",
    "4294967296",
    "\"x\"",
    "\"\"",
    "\"default\"",
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    "..",
    "+",
    "*",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "#",
    "\n",
    "\"",
];

/// Splits a source into tokens (words, numbers, strings, single characters) that join back to it.
fn tokens(source: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = source;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_alphanumeric() || c == '_' {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-')).unwrap_or(rest.len())
        } else if c == '"' {
            rest[1..].find(['"', '\n']).map_or(rest.len(), |i| i + 2)
        } else {
            c.len_utf8()
        };
        let len = len.min(rest.len());
        out.push(&rest[..len]);
        rest = &rest[len..];
    }
    out
}

#[derive(Debug, Clone)]
enum Mutation {
    /// Delete the bytes `[a, a+n)`.
    DeleteBytes(usize, usize),
    /// Insert a copy of `[a, a+n)` at `b`.
    DuplicateBytes(usize, usize, usize),
    /// Swap `[a, a+n)` with `[b, b+n)`.
    SwapBytes(usize, usize, usize),
    DeleteToken(usize),
    DuplicateToken(usize),
    SwapTokens(usize, usize),
    ReplaceToken(usize, usize),
    InsertToken(usize, usize),
    /// Replace the `a`-th number with another: the file still parses, the checker sees odd values.
    ReplaceNumber(usize, u32),
    /// Replace the `a`-th word with a word of the grammar or a name: often still parses.
    ReplaceWord(usize, usize),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let i = any::<usize>();
    prop_oneof![
        1 => (i, 0..64usize).prop_map(|(a, n)| Mutation::DeleteBytes(a, n)),
        1 => (i, 0..64usize, i).prop_map(|(a, n, b)| Mutation::DuplicateBytes(a, n, b)),
        1 => (i, 0..64usize, i).prop_map(|(a, n, b)| Mutation::SwapBytes(a, n, b)),
        1 => i.prop_map(Mutation::DeleteToken),
        1 => i.prop_map(Mutation::DuplicateToken),
        1 => (i, i).prop_map(|(a, b)| Mutation::SwapTokens(a, b)),
        1 => (i, 0..TOKENS.len()).prop_map(|(a, t)| Mutation::ReplaceToken(a, t)),
        1 => (i, 0..TOKENS.len()).prop_map(|(a, t)| Mutation::InsertToken(a, t)),
        8 => (i, prop_oneof![Just(0u32), Just(1), Just(2), Just(26), Just(27), Just(64), Just(65), Just(255), Just(256), Just(u32::MAX), any::<u32>()])
            .prop_map(|(a, n)| Mutation::ReplaceNumber(a, n)),
        8 => (i, 0..TOKENS.len()).prop_map(|(a, t)| Mutation::ReplaceWord(a, t)),
    ]
}

fn mutate(source: &str, mutations: &[Mutation]) -> Vec<u8> {
    let mut bytes = source.as_bytes().to_vec();
    for m in mutations {
        let len = bytes.len().max(1);
        let range = |a: usize, n: usize| {
            let a = a % len;
            (a.min(bytes.len()), (a + n).min(bytes.len()))
        };
        match *m {
            Mutation::DeleteBytes(a, n) => {
                let (a, b) = range(a, n);
                bytes.drain(a..b);
            }
            Mutation::DuplicateBytes(a, n, at) => {
                let (a, b) = range(a, n);
                let copy = bytes[a..b].to_vec();
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, copy);
            }
            Mutation::SwapBytes(a, n, b) => {
                let (a, a_end) = range(a, n);
                let (b, b_end) = range(b, n);
                let (first, first_end, second, second_end) =
                    if a <= b { (a, a_end, b, b_end) } else { (b, b_end, a, a_end) };
                if first_end <= second {
                    let mut out = bytes[..first].to_vec();
                    out.extend_from_slice(&bytes[second..second_end]);
                    out.extend_from_slice(&bytes[first_end..second]);
                    out.extend_from_slice(&bytes[first..first_end]);
                    out.extend_from_slice(&bytes[second_end..]);
                    bytes = out;
                }
            }
            _ => {
                let text = String::from_utf8_lossy(&bytes).into_owned();
                let mut toks: Vec<String> = tokens(&text).into_iter().map(String::from).collect();
                let n = toks.len().max(1);
                match *m {
                    Mutation::DeleteToken(a) if !toks.is_empty() => {
                        toks.remove(a % n);
                    }
                    Mutation::DuplicateToken(a) if !toks.is_empty() => {
                        let t = toks[a % n].clone();
                        toks.insert(a % n, t);
                    }
                    Mutation::SwapTokens(a, b) if !toks.is_empty() => toks.swap(a % n, b % n),
                    Mutation::ReplaceToken(a, t) if !toks.is_empty() => toks[a % n] = TOKENS[t].to_string(),
                    Mutation::InsertToken(a, t) => toks.insert(a % (toks.len() + 1), TOKENS[t].to_string()),
                    Mutation::ReplaceNumber(a, value) => {
                        let numbers: Vec<usize> =
                            (0..toks.len()).filter(|&i| toks[i].starts_with(|c: char| c.is_ascii_digit())).collect();
                        if !numbers.is_empty() {
                            toks[numbers[a % numbers.len()]] = value.to_string();
                        }
                    }
                    Mutation::ReplaceWord(a, t) => {
                        let words: Vec<usize> =
                            (0..toks.len()).filter(|&i| toks[i].starts_with(|c: char| c.is_alphabetic())).collect();
                        let word = TOKENS[t];
                        if !words.is_empty() && word.starts_with(|c: char| c.is_alphanumeric()) {
                            toks[words[a % words.len()]] = word.to_string();
                        }
                    }
                    _ => {}
                }
                bytes = toks.concat().into_bytes();
            }
        }
    }
    bytes
}

#[test]
fn no_panic_on_arbitrary_strings() {
    runner()
        .run(&prop_oneof![any::<String>(), "[ -~\n]{0,200}", "\\PC{0,100}"], |s| {
            run_front(&s);
            Ok(())
        })
        .unwrap();
}

#[test]
fn no_panic_on_mutated_games() {
    let games = game_sources();
    runner()
        .run(&(0..games.len(), prop::collection::vec(mutation(), 1..5)), |(g, mutations)| {
            let bytes = mutate(&games[g], &mutations);
            match syntax::parse_bytes(&bytes) {
                Ok(_) => run_front(std::str::from_utf8(&bytes).expect("parse_bytes accepted it")),
                Err(e) => {
                    let text = String::from_utf8_lossy(&bytes);
                    let _ = diag::render("fuzz.mancala", &text, &[e.into()], Style::Plain);
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn no_panic_on_token_soup() {
    let soup = prop::collection::vec((0..TOKENS.len(), prop_oneof![Just(" "), Just("\n"), Just("")]), 0..120)
        .prop_map(|ts| ts.into_iter().map(|(t, sep)| format!("{}{sep}", TOKENS[t])).collect::<String>());
    runner()
        .run(&soup, |s| {
            run_front(&s);
            Ok(())
        })
        .unwrap();
}

// ---------------------------------------------------------------- byte order marks

/// A leading UTF-8 byte order mark (as Windows editors save files) is accepted, and spans still count it.
#[test]
fn a_leading_byte_order_mark_is_accepted() {
    let kalah = read(Path::new("games/kalah.mancala"));
    let with_bom = format!("\u{FEFF}{kalah}");
    let file = syntax::parse(&with_bom).expect("a BOM is not an error");
    assert!(check::check(&file).is_empty());
    let plain = syntax::parse(&kalah).unwrap();
    let span = |f: &mancala::ast::File| serde_json::to_value(&f.items[0]).unwrap()["Game"]["span"].clone();
    assert_eq!(span(&file)["start"].as_u64().unwrap(), span(&plain)["start"].as_u64().unwrap() + 3);
    assert!(syntax::parse_bytes(with_bom.as_bytes()).is_ok());
    // Only at the start: anywhere else it is a character like any other.
    assert!(syntax::parse(&format!("{kalah}\u{FEFF}")).is_err());
}

// ---------------------------------------------------------------- long lines

/// An error past column 65535 is drawn (miette cannot draw such a column): the line is clipped around
/// the span, and the line and column in the header are still the file's.
#[test]
fn errors_on_very_long_lines_are_drawn_clipped() {
    let kalah = read(Path::new("games/kalah.mancala"));
    let long = kalah.replacen("players 2", &format!("players 2{}@ oops {}", " ".repeat(70_000), "x".repeat(500)), 1);
    let diags = diagnostics(&long);
    assert!(diags.iter().any(Diagnostic::is_error));
    let rendered = diag::render("long.mancala", &long, &diags, Style::Plain);
    assert!(rendered.contains("long.mancala:5:70010"), "{rendered}");
    assert!(rendered.lines().all(|l| l.chars().count() < 200), "clipped:\n{rendered}");
    insta::assert_snapshot!("long_line_syntax_error", rendered);

    // A checker error with a related span, both on one long line, far apart.
    let far =
        kalah.replacen("pieces seeds", &format!("pieces seeds place p shared{}place p shared", " ".repeat(100_000)), 1);
    let diags = diagnostics(&far);
    assert!(diags.iter().any(|d| d.code == "mancala::check::duplicate"), "{diags:#?}");
    let rendered = diag::render("far.mancala", &far, &diags, Style::Plain);
    assert!(rendered.lines().all(|l| l.chars().count() < 200), "clipped:\n{rendered}");
    insta::assert_snapshot!("long_line_related_spans", rendered);
}

/// One mistake repeated in every term of a large file with many variants: the checker lowers the file
/// for every variant at several player counts, so each lowering must stop wording errors once it has
/// enough to show (this took minutes when every use of an unknown name looked for the nearest name).
#[test]
fn a_mistake_repeated_in_every_variant_is_checked_quickly() {
    let header = read(Path::new("games/oware.mancala"));
    let places: String = (0..150).map(|i| format!("place p{i} shared\n")).collect();
    let variants: String =
        (0..95).map(|i| format!("variant \"w{i}\" {{\n  setup {{ every pit: {} }}\n}}\n", 1 + i % 5)).collect();
    let room = syntax::MAX_SOURCE_BYTES - header.len() - places.len() - variants.len() - 100;
    let sum: String = (0..room / 14).map(|i| format!(" + count(q{})", i % 1000)).collect();
    let source = format!("{}{places}{variants}", header.replacen("score ", &format!("score 0{sum} + "), 1));
    assert!(source.len() <= syntax::MAX_SOURCE_BYTES, "{} bytes", source.len());
    let start = Instant::now();
    let diags = diagnostics(&source);
    let took = start.elapsed();
    // About 2 s on a busy machine; lowering all 95 variants, each with its 400 diagnostics, would take minutes.
    // The bound is loose on purpose: it tells unbounded work from a busy machine, not fast from slow.
    assert!(took < Duration::from_secs(30), "took {took:?}");
    assert!(diags.iter().any(|d| d.code == "mancala::check::unknown_name"), "{:#?}", &diags[..3]);
    assert!(diags.len() <= check::MAX_DIAGNOSTICS + 1, "{} diagnostics", diags.len());
}

// ---------------------------------------------------------------- arithmetic

/// A rule file that uses every operator, with the usual precedence: `* / %` bind tighter than `+ -`, and
/// each level reads from the left.
const ARITHMETIC: &str = r#"game "Arithmetic"
players 2
board two_rows 6
pieces seeds
place store per player
setup {
  every pit: 4
}
turn {
  sow {
    from pits(mover) where count > 0
    direction ccw
    capture when count % 2 = 0 and count(opposite) - count / 2 + 1 >= 2 * count(pits(mover)) / 3 - (1 - 2) {
      take to store(mover)
    }
  }
}
end {
  when count(pits(mover)) = 0
  sweep pits to store(owner)
}
score count(store(player)) - count(store(opponent)) % 7
"#;

#[test]
fn arithmetic_parses_with_the_usual_precedence() {
    let file = syntax::parse(ARITHMETIC).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(check::check(&file).is_empty(), "{:#?}", check::check(&file));
    insta::assert_json_snapshot!("arithmetic_ast", file);
}

#[test]
fn a_run_of_plus_signs_is_one_sum_as_before() {
    // `a + b - c + d` is `((a + b) - c) + d`: the first two terms still make one list.
    let shape = |text: &str| {
        let source = ARITHMETIC.replace("count(store(player)) - count(store(opponent)) % 7", text);
        let file = syntax::parse(&source).unwrap_or_else(|e| panic!("{e:?}"));
        let score = file.items.iter().find_map(|i| match i {
            mancala::ast::Item::Score(s) => Some(s.clone()),
            _ => None,
        });
        serde_json::to_string(&score).map(|s| {
            ["\"Add\"", "\"Sub\"", "\"Mul\"", "\"Div\"", "\"Rem\""]
                .iter()
                .map(|op| s.matches(op).count().to_string())
                .collect::<Vec<_>>()
                .join(",")
        })
    };
    // (Add, Sub, Mul, Div, Rem) counts.
    assert_eq!(shape("1 + 2 + 3").ok().as_deref(), Some("1,0,0,0,0"));
    assert_eq!(shape("1 + 2 - 3 + 4").ok().as_deref(), Some("2,1,0,0,0"));
    assert_eq!(shape("1 * 2 / 3 * 4 % 5").ok().as_deref(), Some("0,0,2,1,1"));
    assert_eq!(shape("(1 + 2) + 3").ok().as_deref(), Some("2,0,0,0,0"));
}
