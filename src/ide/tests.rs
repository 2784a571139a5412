use super::*;

const KALAH: &str = include_str!("../../games/kalah.mancala");

fn at(text: &str, needle: &str) -> usize {
    text.find(needle).unwrap_or_else(|| panic!("{needle} in the text"))
}

#[test]
fn a_keyword_hover_gives_its_meaning_and_example() {
    let a = Analysis::new(KALAH);
    let h = a.hover(at(KALAH, "capture when") + 2).expect("a hover");
    assert!(h.markdown.contains("**`capture`**"), "{}", h.markdown);
    assert!(h.markdown.contains("```mancala"), "{}", h.markdown);
}

#[test]
fn nothing_is_explained_in_a_comment() {
    let a = Analysis::new(KALAH);
    assert_eq!(a.hover(at(KALAH, "owns pits") + 1), None);
}

#[test]
fn a_store_and_a_pit_say_where_they_come_from() {
    let a = Analysis::new(KALAH);
    let h = a.hover(at(KALAH, "store(mover)") + 1).expect("a hover on store");
    assert!(h.markdown.contains("with stores"), "{}", h.markdown);
    let text = KALAH.replace("take from here, opposite", "take from a, opposite");
    let a = Analysis::new(&text);
    let h = a.hover(at(&text, "from a,") + 5).expect("a hover on a pit");
    assert!(h.markdown.contains("player 1's"), "{}", h.markdown);
}

#[test]
fn completion_offers_what_the_grammar_reads_there() {
    let text = "game \"G\"\nplace bank shared\nregion left: a, b\nboard two_rows 6\nturn {\n  sow {\n    from pits(mover) where count > 0\n    direction \n";
    let a = Analysis::new(text);
    let labels: Vec<String> = a.completions(text.len()).items.into_iter().map(|c| c.label).collect();
    assert!(labels.contains(&"ccw".to_string()) && labels.contains(&"choose".to_string()), "{labels:?}");
    assert!(!labels.contains(&"game".to_string()), "{labels:?}");
    let text = text.replace("direction \n", "skip ");
    let a = Analysis::new(&text);
    let labels: Vec<String> = a.completions(text.len()).items.into_iter().map(|c| c.label).collect();
    for word in ["origin", "opposite", "bank", "left"] {
        assert!(labels.contains(&word.to_string()), "{word} in {labels:?}");
    }
}

#[test]
fn and_and_or_follow_a_whole_condition() {
    let text = "game \"G\"\nboard two_rows 6\nturn {\n  sow {\n    from pits(mover) where count > 0 ";
    let labels: Vec<String> = Analysis::new(text).completions(text.len()).items.into_iter().map(|c| c.label).collect();
    assert!(labels.contains(&"and".to_string()) && labels.contains(&"or".to_string()), "{labels:?}");
    let text = "game \"G\"\n";
    let labels: Vec<String> = Analysis::new(text).completions(text.len()).items.into_iter().map(|c| c.label).collect();
    assert!(!labels.contains(&"and".to_string()) && labels.contains(&"board".to_string()), "{labels:?}");
}

#[test]
fn a_name_is_renamed_everywhere_and_only_to_a_name() {
    let text = "game \"G\"\nplace bank shared\nboard two_rows 6\nend { sweep pits to bank }\nscore count(bank)\n";
    let a = Analysis::new(text);
    let edits = a.rename(at(text, "bank }"), "pot").expect("a rename");
    assert_eq!(edits.len(), 3);
    assert!(a.rename(at(text, "bank }"), "sow").is_err());
    assert!(a.rename(at(text, "bank }"), "2x").is_err());
    assert_eq!(a.definition(at(text, "count(bank") + 7), vec![Span::new(at(text, "bank"), at(text, "bank") + 4)]);
}

#[test]
fn a_misspelt_name_gets_a_fix() {
    let text = KALAH.replace("skip store(opponent)", "skip stor(opponent)");
    let a = Analysis::new(&text);
    let fixes = a.fixes(Span::new(0, text.len()));
    assert_eq!(fixes.len(), 1, "{fixes:?}");
    assert_eq!(fixes[0].replacement, "store");
}

const TOGUZ: &str = include_str!("../../games/toguz-kumalak.mancala");
const BAO: &str = include_str!("../../games/bao-la-kiswahili.mancala");

#[test]
fn a_new_name_that_is_taken_a_keyword_or_a_pit_is_refused() {
    let a = Analysis::new(TOGUZ);
    let kazan = at(TOGUZ, "kazan per player");
    // `a` is a pit of the board: the rename made 13 edits and a broken file.
    let refused = a.rename(kazan, "a").unwrap_err();
    assert!(refused.contains("pit of the board"), "{refused}");
    let refused = a.rename(kazan, "tuzdyk").unwrap_err();
    assert!(refused.contains("already the name of a mark"), "{refused}");
    assert!(a.rename(kazan, "capture").unwrap_err().contains("keyword"));
    assert!(a.rename(kazan, "bank").is_ok());
}

#[test]
fn actions_are_named_within_their_phase() {
    let a = Analysis::new(BAO);
    // The action `mtaji` of the phase `namua` is not the action `mtaji` of the phase `mtaji`.
    let namua_mtaji = at(BAO, "sow mtaji {") + 4;
    let edits = a.rename(namua_mtaji, "kamata").expect("a rename");
    let prefer = at(BAO, "prefer mtaji") + 7;
    let spans: Vec<usize> = edits.iter().map(|(s, _)| s.start).collect();
    assert_eq!(spans, [namua_mtaji, prefer], "{edits:?}");
    // The phase `mtaji`'s action, and the variants' that replace it, are one action.
    let mtaji_phase = at(BAO, "phase mtaji {");
    let mtaji_mtaji = mtaji_phase + BAO[mtaji_phase..].find("sow mtaji {").unwrap() + 4;
    let edits = a.rename(mtaji_mtaji, "kamata").expect("a rename");
    let variant = at(BAO, "variant \"nyumba-until-first-capture\"");
    assert!(edits.iter().any(|(s, _)| s.start > variant), "{edits:?}");
    assert!(edits.iter().all(|(s, _)| s.start > mtaji_phase), "{edits:?}");
    // Hover says which phase, once.
    let hover = a.hover(mtaji_mtaji).expect("a hover").markdown;
    assert_eq!(hover.matches("a sowing of the phase `mtaji`").count(), 1, "{hover}");
    let hover = a.hover(namua_mtaji).expect("a hover").markdown;
    assert!(hover.contains("a sowing of the phase `namua`"), "{hover}");
    // A name taken by an action of another phase is free in this one; of the same phase it is not.
    let refused = a.rename(namua_mtaji, "takasa").unwrap_err();
    assert!(refused.contains("action in the phase `namua`"), "{refused}");
}

fn labels_at_end(text: &str) -> Vec<String> {
    Analysis::new(text).completions(text.len()).items.into_iter().map(|c| c.label).collect()
}

#[test]
fn completion_after_ties_take_and_inside_extends() {
    let labels = labels_at_end("game \"G\"\nboard two_rows 6\nwinner most score, ties ");
    for word in ["draw", "shared", "last"] {
        assert!(labels.contains(&word.to_string()), "{word} in {labels:?}");
    }
    let text = "game \"G\"\nboard two_rows 6 with stores\npieces {\n  stone \"0\"\n  gem \"1\" value 1\n}\nsetup { every pit: 4 }\nturn {\n  sow {\n    from pits(mover) where count > 0\n    capture when count = 1 {\n      take ";
    let labels = labels_at_end(text);
    for word in ["own", "foreign", "from", "to", "gem", "chosen"] {
        assert!(labels.contains(&word.to_string()), "{word} in {labels:?}");
    }
    let text = "game \"G\"\nboard two_rows 6\nvariant \"slow\" { }\nvariant \"fast\" extends \"s";
    let c = Analysis::new(text).completions(text.len());
    let labels: Vec<&str> = c.items.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["slow"]);
    assert_eq!(c.span, Span::new(text.len() - 1, text.len()), "the string's text is replaced, not its quote");
}

#[test]
fn a_variant_name_has_a_hover() {
    let text = "game \"G\"\nboard two_rows 6\nsetup { every pit: 4 }\nturn { sow { from pits(mover) where count > 0 } }\nend { when count(pits(mover)) = 0 }\nvariant \"slow\" { }\nvariant \"fast\" extends \"slow\" { }\n";
    let a = Analysis::new(text);
    let hover = a.hover(text.rfind("slow").unwrap() + 1).expect("a hover on the variant's name").markdown;
    assert!(hover.contains("**variant** `slow`"), "{hover}");
}

#[test]
fn a_mark_for_three_plies_says_third() {
    let text = "game \"G\"\nboard two_rows 6\nmark hot for 3 plies\n";
    let hover = Analysis::new(text).hover(at(text, "hot") + 1).expect("a hover").markdown;
    assert!(hover.contains("the 3rd ply after"), "{hover}");
}
