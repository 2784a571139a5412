//! The `rules` text: every shipped game and variant told in plain words, and a rule file's own sentences.

mod common;

#[test]
fn rules_of_every_shipped_game_in_words() {
    for (name, engine) in common::shipped_variants() {
        let text = mancala::summary::summarize(&engine);
        // Words, not the rule language.
        for fragment in ["pits(", "count(", "store(mover)", "when always", "players("] {
            assert!(!text.contains(fragment), "{name}: `{fragment}` in\n{text}");
        }
        assert!(text.lines().all(|l| l.chars().count() <= 78), "{name}: a line is too long\n{text}");
        insta::assert_snapshot!(format!("rules-{name}"), text);
    }
}

const DOCUMENTED: &str = r#"game "Documented"
players 2
board two_rows 3 with stores
pieces seeds
setup {
  every pit: 2
}
turn {
  /// Sow from any pit of yours, round to the right.
  /// Two lines make one sentence.
  sow {
    from pits(mover) where count > 0
    /// Land in your store and you go again.
    again when last = store(mover)
    ///
  }
}
end {
  when any players(count(pits(player)) = 0)
  /// What is left goes to its owner.
  sweep pits to store(owner)
}
/// Most seeds in the store wins.
score count(store(player))
winner most score
"#;

#[test]
fn a_rule_file_tells_its_own_sentences() {
    let engine = mancala::compile(DOCUMENTED, None, None).expect("compiles");
    let text = mancala::summary::summarize_width(&engine, 40);
    assert!(
        text.contains("  - Sow from any pit of yours, round to\n    the right. Two lines make one\n    sentence."),
        "{text}"
    );
    assert!(text.contains("Land in your store and you go again."), "{text}");
    assert!(text.contains("What is left goes to its owner."), "{text}");
    assert!(text.contains("Most seeds in the store wins."), "{text}");
    assert!(text.contains("The game ends when some player's pits"), "{text}");
    assert!(text.lines().all(|l| l.chars().count() <= 40), "{text}");
    let file = mancala::syntax::parse(DOCUMENTED).expect("parses");
    assert_eq!(file.docs.len(), 4, "an empty `///` before `}}` tells nothing: {:?}", file.docs);
}

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
    capture when count % 2 = 0 and count(opposite) - (count - 1) >= 2 * (count(pits(mover)) + 1) / 3 {
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
fn arithmetic_is_printed_back_with_its_parentheses_and_told_in_words() {
    let engine = mancala::compile(ARITHMETIC, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let dump = mancala::summary::dump(&engine.lowered);
    assert!(dump.contains("score count(store(player)) - count(store(opponent)) % 7"), "{dump}");
    let words = mancala::summary::summarize(&engine);
    let words = words.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("if the number of seeds in the last pit is even"), "{words}");
    assert!(words.contains("minus (the number of seeds in the last pit minus 1)"), "{words}");
    assert!(words.contains("2 times (the number of seeds in your pits plus 1) divided by 3 (rounded down)"), "{words}");
}

/// A refill that deals the pits anew (`claim from START`) and has no `///` sentence is told in words made
/// from the rule, and printed back with its `claim`.
#[test]
fn a_claiming_refill_without_a_sentence_is_told_in_words() {
    let path = format!("{}/tests/data/rounds/claim.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("the fixture");
    let engine = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let dump = mancala::summary::dump(&engine.lowered);
    assert!(dump.contains("refill pits from store(player) with 2 claim from corner(player) else mark out"), "{dump}");
    insta::assert_snapshot!("rules-claim-without-sentence", mancala::summary::summarize(&engine));
}

#[test]
fn a_mark_made_as_a_piece_falls_is_told_of_that_pit() {
    // Lamlameta's capture at every drop marks the pit the piece fell into, not the last pit.
    let path = format!("{}/tests/data/unseen/lamlameta.mancala", env!("CARGO_MANIFEST_DIR"));
    let engine = mancala::compile(&std::fs::read_to_string(path).unwrap(), None, None).unwrap();
    let text = mancala::summary::summarize(&engine).replace('\n', " ");
    assert!(!text.contains("the last pit becomes made"), "{text}");
    assert!(text.contains("it becomes made at once"), "{text}");
}

#[test]
fn a_mark_that_lasts_is_not_told_with_the_life_of_another() {
    // A lasting mark beside one for one ply: each is said on its own, and only `raided` lasts one move (the
    // list used to read "burnt and raided, until the next move", of both).
    let source = std::fs::read_to_string(format!(
        "{}/tests/data/reference/mark-for-one-ply.mancala",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("the fixture")
    .replace("mark raided for one ply", "mark burnt\nmark raided for one ply");
    let engine = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let text = mancala::summary::summarize(&engine).replace('\n', " ");
    assert!(
        text.contains("Pits can be marked burnt. Pits can be marked raided, for the move that marks a pit only."),
        "{text}"
    );
}
