//! `mancala fmt`: the canonical layout keeps what a file says and is a fixed point.
//!
//! For every shipped game, every fixture that parses and a few thousand of the fuzzer's mutants that
//! parse: the formatted text parses to the same AST (spans aside), and formatting it again changes nothing.
//! Snapshots show the layout of a file written carelessly, comments and all.

mod fuzzer;

use std::path::{Path, PathBuf};

use mancala::fmt::format_source;
use mancala::syntax;
use serde_json::Value;

/// The AST as JSON without its positions: `span` and `target` fields, and bare spans (`{start, end}`).
fn without_spans(v: Value) -> Value {
    match v {
        Value::Object(map) => {
            let is_span = map.len() == 2 && map.contains_key("start") && map.contains_key("end");
            if is_span {
                return Value::Null;
            }
            Value::Object(
                map.into_iter()
                    .filter(|(k, _)| k != "span" && k != "target")
                    .map(|(k, v)| (k, without_spans(v)))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.into_iter().map(without_spans).collect()),
        other => other,
    }
}

fn ast_of(source: &str) -> Value {
    let file = syntax::parse(source).unwrap_or_else(|e| panic!("does not parse: {e}\n{source}"));
    without_spans(serde_json::to_value(file).expect("the AST serializes"))
}

/// Formats `source` (which parses), and checks that the result means the same and is a fixed point.
fn assert_formats_faithfully(name: &str, source: &str) {
    let formatted = format_source(source).unwrap_or_else(|d| panic!("{name}: {d:?}"));
    let (before, after) = (ast_of(source), ast_of(&formatted));
    if before != after {
        panic!("{name}: the formatted file parses to another AST\n--- formatted:\n{formatted}");
    }
    let again = format_source(&formatted).unwrap_or_else(|d| panic!("{name}, formatted: {d:?}"));
    if again != formatted {
        let first = formatted.lines().zip(again.lines()).position(|(a, b)| a != b).unwrap_or(0);
        panic!(
            "{name}: formatting twice changes the file, from line {}:\n{}\n--- then:\n{}",
            first + 1,
            formatted.lines().skip(first).take(6).collect::<Vec<_>>().join("\n"),
            again.lines().skip(first).take(6).collect::<Vec<_>>().join("\n")
        );
    }
}

fn mancala_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.filter_map(Result::ok) {
        let path = entry.path();
        if path.is_dir() {
            mancala_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "mancala") {
            out.push(path);
        }
    }
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn shipped_games_format_faithfully() {
    let mut files = Vec::new();
    mancala_files(&root().join("games"), &mut files);
    assert!(files.len() >= 10, "the shipped games are found");
    for path in files {
        assert_formats_faithfully(&path.display().to_string(), &std::fs::read_to_string(&path).unwrap());
    }
}

#[test]
fn every_fixture_that_parses_formats_faithfully() {
    let mut files = Vec::new();
    mancala_files(&root().join("tests/data"), &mut files);
    let mut parsed = 0;
    for path in files {
        let Ok(source) = String::from_utf8(std::fs::read(&path).unwrap()) else { continue };
        if syntax::parse(&source).is_err() {
            continue;
        }
        parsed += 1;
        assert_formats_faithfully(&path.display().to_string(), &source);
    }
    assert!(parsed >= 50, "only {parsed} fixtures parse");
}

#[test]
fn mutants_that_parse_format_faithfully() {
    use fuzzer::mutate::{mutant, shipped_seeds, Rng64};
    let seeds = shipped_seeds();
    let mut parsed = 0;
    for i in 0..3000u64 {
        let bytes = mutant(&seeds, &mut Rng64::for_input(22, i));
        let Ok(source) = std::str::from_utf8(&bytes) else { continue };
        if syntax::parse(source).is_err() {
            continue;
        }
        parsed += 1;
        assert_formats_faithfully(&format!("mutant {i}"), source);
    }
    assert!(parsed >= 300, "only {parsed} mutants parse");
}

#[test]
fn a_file_with_a_syntax_error_is_not_formatted() {
    let errors = format_source("game \"x\"\nboard two_rows\n").unwrap_err();
    assert!(!errors.is_empty());
    assert!(errors[0].is_error());
}

/// A file written carelessly: everything on few lines, comments everywhere, odd indentation.
const MESSY: &str = r#"# A header comment.
game "Messy"   # its name
about "A test of the layout."
players 2
board two_rows 6 with store
pieces seeds
place captured per player   # set aside
region left per player: a, b,c


setup { every pit: 4 }
turn { sow { from pits(mover) where count > 0 direction ccw
  # a comment before skip
        skip store(opponent)
  /// Capture: a long condition that has to be wrapped somewhere, because it is far too long for one line.
  capture when here in pits(mover) and count = 1 and count(opposite) > 0 and not (here in left(mover)) and (count(store(mover)) > 3 or count(store(opponent)) < 2) {
    take from here, opposite to store(mover)   # both
    # nothing after the take
  }
  again when last = store(mover) and ((count(pits(mover)) + 1) * 2 > 3 - (1 - 1)) and ( # parentheses
    # the meaning needs, with comments inside
    count = 2 or count = 3) and ( # again
    count + 1) * 2 > 3
  }
  must count(pits(opponent)) > 0 when count(pits(opponent)) = 0 else end }
end { when any players(count(pits(player)) = 0)
sweep pits to store(owner) }
score count(store(player))
winner most score
variant "v" {}
variant "w" extends "v" {
  # only a comment
}
# The end.
"#;

#[test]
fn a_messy_file_gets_the_canonical_layout() {
    let formatted = format_source(MESSY).unwrap();
    insta::assert_snapshot!(formatted);
    assert_formats_faithfully("messy", MESSY);
}

#[test]
fn the_shipped_games_are_formatted() {
    let mut files = Vec::new();
    mancala_files(&root().join("games"), &mut files);
    let unformatted: Vec<String> = files
        .iter()
        .filter(|p| {
            let source = std::fs::read_to_string(p).unwrap();
            format_source(&source).unwrap() != source
        })
        .map(|p| p.display().to_string())
        .collect();
    assert!(unformatted.is_empty(), "run `mancala fmt games/*.mancala`: {unformatted:?}");
}

/// A mark's life and `until empty` may come in either order (a new author wrote `until empty for 2 plies`);
/// `fmt` writes the life first.
#[test]
fn a_marks_parts_in_either_order_format_to_the_life_first() {
    let source = "game \"Marks\"\nplayers 2\nboard two_rows 6\npieces seeds\nmark pair until empty for 2 plies\n\
                  mark made until empty for one ply\n";
    let formatted = format_source(source).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(formatted.contains("mark pair for 2 plies until empty\n"), "{formatted}");
    assert!(formatted.contains("mark made for one ply until empty\n"), "{formatted}");
    assert_eq!(ast_of(source), ast_of(&formatted));
}
