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
