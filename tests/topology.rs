//! The topology of boards: the tracks of one, two, three and four rows, the relations `opposite`, `facing`, `twin`
//! and `number`, named rows and regions. The games are small test files in `tests/data/topology/`.
//!
//! Four rows (docs/language.md §4, four rows): each player has an outer row O1..O8 nearest him and an inner
//! row I1..I8, both numbered from his own left; the first player's are written `o1..o8`, `i1..i8`. His
//! counter-clockwise circuit is O1..O8, I8..I1, O1; own Ik faces the opponent's I(9-k) and O(9-k).

mod common;

use common::*;
use mancala::engine::Engine;
use mancala::ir::{Dir, PitSet, PlaceId};

fn file(name: &str) -> Engine {
    let path = format!("{}/tests/data/topology/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

fn source(text: &str) -> Engine {
    mancala::compile(text, None, None).unwrap_or_else(|d| panic!("{d:?}"))
}

fn id(e: &Engine, label: &str) -> PlaceId {
    e.rules.places.iter().position(|p| p.label == label).unwrap_or_else(|| panic!("no place `{label}`")) as PlaceId
}

fn label(e: &Engine, p: PlaceId) -> String {
    e.rules.places[p as usize].label.clone()
}

/// The places a mover's sowing visits from `start`, one whole circuit, in direction `dir`.
fn circuit(e: &Engine, mover: usize, dir: Dir, start: &str) -> Vec<String> {
    let places = e.rules.places.len();
    let row = (mover * 2 + dir as usize) * places;
    let first = id(e, start);
    let mut out = vec![label(e, first)];
    let mut p = e.rules.next[row + first as usize];
    while p != first && out.len() <= places {
        out.push(label(e, p));
        p = e.rules.next[row + p as usize];
    }
    out
}

fn labels(e: &Engine, text: &str) -> Vec<String> {
    text.split_whitespace().map(|l| label(e, id(e, l))).collect()
}

/// The labels of the pits in a set of bits.
fn pits_of(e: &Engine, mask: PitSet) -> Vec<String> {
    (0..e.rules.n_pits).filter(|p| mask & (1 << p) != 0).map(|p| label(e, p as PlaceId)).collect()
}

// ================================================================ four rows

#[test]
fn four_rows_label_every_row_from_its_owners_left() {
    let e = file("four-rows");
    let st = e.initial_state();
    // `every outer: 4` fills each player's outer row.
    assert_eq!(
        show(&e, &st),
        "o1=4 o2=4 o3=4 o4=4 o5=4 o6=4 o7=4 o8=4 i1=0 i2=0 i3=0 i4=0 i5=0 i6=0 i7=0 i8=0 \
         O1=4 O2=4 O3=4 O4=4 O5=4 O6=4 O7=4 O8=4 I1=0 I2=0 I3=0 I4=0 I5=0 I6=0 I7=0 I8=0 to_move=1"
    );
    let owners: Vec<u8> = e.rules.initial_owner.clone();
    assert!(owners[..16].iter().all(|&o| o == 0) && owners[16..].iter().all(|&o| o == 1), "{owners:?}");
    assert_eq!(plies(&e, &st), ["o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8"]);
}

#[test]
fn four_rows_circuits_stay_on_each_players_side_both_ways() {
    let e = file("four-rows");
    let south_ccw = "o1 o2 o3 o4 o5 o6 o7 o8 i8 i7 i6 i5 i4 i3 i2 i1";
    let north_ccw = "O1 O2 O3 O4 O5 O6 O7 O8 I8 I7 I6 I5 I4 I3 I2 I1";
    assert_eq!(circuit(&e, 0, Dir::Ccw, "o1"), labels(&e, south_ccw));
    assert_eq!(circuit(&e, 1, Dir::Ccw, "O1"), labels(&e, north_ccw));
    let reversed = |text: &str| {
        let mut l = labels(&e, text);
        l[1..].reverse();
        l
    };
    assert_eq!(circuit(&e, 0, Dir::Cw, "o1"), reversed(south_ccw));
    assert_eq!(circuit(&e, 1, Dir::Cw, "O1"), reversed(north_ccw));
    // The first player's track is his circuit.
    let track: Vec<String> = e.rules.track.iter().map(|&p| label(&e, p)).collect();
    assert_eq!(track, labels(&e, south_ccw));
}

#[test]
fn four_rows_a_sowing_turns_from_the_outer_row_into_the_inner_row() {
    let e = file("four-rows");
    // o6's 2 seeds: o7, o8; o8 held 1, so relay its 2: i8, i7, which was empty.
    let after = "o1=0 o2=0 o3=0 o4=0 o5=0 o6=0 o7=1 o8=0 i1=0 i2=0 i3=0 i4=0 i5=0 i6=0 i7=1 i8=1 \
                 O1=1 O2=0 O3=0 O4=0 O5=0 O6=0 O7=0 O8=0 I1=0 I2=0 I3=0 I4=0 I5=0 I6=0 I7=0 I8=0 to_move=2";
    scenario(&e, "o6=2 o8=1 O1=1 to_move=1", "o6", after);
    // North's the same way round his own side.
    let after = "o1=1 o2=0 o3=0 o4=0 o5=0 o6=0 o7=0 o8=0 i1=0 i2=0 i3=0 i4=0 i5=0 i6=0 i7=0 i8=0 \
                 O1=0 O2=0 O3=0 O4=0 O5=0 O6=0 O7=1 O8=0 I1=0 I2=0 I3=0 I4=0 I5=0 I6=0 I7=1 I8=1 to_move=1";
    scenario(&e, "O6=2 O8=1 o1=1 to_move=2", "O6", after);
}

#[test]
fn four_rows_a_long_sowing_goes_round_its_own_circuit_only() {
    let e = file("four-rows");
    // 16 seeds from o2: once round the 16 pits, the last into o2 itself (emptied by the lift).
    let after = "o1=1 o2=1 o3=1 o4=1 o5=1 o6=1 o7=1 o8=1 i1=1 i2=1 i3=1 i4=1 i5=1 i6=1 i7=1 i8=1 \
                 O1=1 O2=0 O3=0 O4=0 O5=0 O6=0 O7=0 O8=0 I1=0 I2=0 I3=0 I4=0 I5=0 I6=0 I7=0 I8=0 to_move=2";
    scenario(&e, "o2=16 O1=1 to_move=1", "o2", after);
}

#[test]
fn four_rows_relations() {
    let e = file("four-rows");
    let r = &e.rules;
    let opposite = |l: &str| label(&e, r.opposite[id(&e, l) as usize]);
    let twin = |l: &str| label(&e, r.twin[id(&e, l) as usize]);
    let facing = |l: &str| pits_of(&e, r.facing[id(&e, l) as usize]);
    let number = |l: &str| r.number[id(&e, l) as usize];
    // Own i3 faces the opponent's I6 and, behind it, O6; the nearest across the middle is I6.
    assert_eq!(opposite("i3"), "I6");
    assert_eq!(opposite("o3"), "I6");
    assert_eq!(opposite("I6"), "i3");
    assert_eq!(opposite("O1"), "i8");
    assert_eq!(facing("i3"), ["O6", "I6"]);
    assert_eq!(facing("o8"), ["O1", "I1"]);
    assert_eq!(facing("I1"), ["o8", "i8"]);
    assert_eq!(twin("i3"), "I3");
    assert_eq!(twin("O7"), "o7");
    assert_eq!((number("o1"), number("i8"), number("I6"), number("O2")), (1, 8, 6, 2));
}

#[test]
fn four_rows_capture_from_both_facing_pits() {
    let e = file("four-rows");
    // i5's 2 seeds: i4, i3; i3 held 1 and both pits facing it (I6, O6) hold seeds: take them into i3.
    let after = "o1=0 o2=0 o3=0 o4=0 o5=0 o6=0 o7=0 o8=0 i1=0 i2=0 i3=7 i4=1 i5=0 i6=0 i7=0 i8=0 \
                 O1=1 O2=0 O3=0 O4=0 O5=0 O6=0 O7=0 O8=0 I1=0 I2=0 I3=0 I4=0 I5=0 I6=0 I7=0 I8=0 to_move=2";
    scenario(&e, "i5=2 i3=1 I6=2 O6=3 O1=1 to_move=1", "i5", after);
    // With the outer pit facing empty, nothing is taken.
    let mut st = position(&e, "i5=2 i3=1 I6=2 O1=1 to_move=1");
    play(&e, &mut st, "i5");
    assert!(show(&e, &st).contains("i3=2"), "{}", show(&e, &st));
}

#[test]
fn four_rows_regions_per_player() {
    let e = file("four-rows");
    let region = |name: &str| e.rules.regions.iter().find(|r| r.name == name).expect(name);
    assert_eq!(pits_of(&e, region("leftmost").masks[0]), ["o1", "o2", "i1", "i2"]);
    assert_eq!(pits_of(&e, region("leftmost").masks[1]), ["O1", "O2", "I1", "I2"]);
    assert_eq!(pits_of(&e, region("inner").masks[1]), labels(&e, "I1 I2 I3 I4 I5 I6 I7 I8"));
    assert_eq!(region("outer").all.count_ones(), 16);
}

/// The four-row test game on the widest board, 4 x 32: its sets of pits need more than one word.
fn four_rows_of_32() -> Engine {
    let path = format!("{}/tests/data/topology/four-rows.mancala", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    source(&text.replace("rows 4 of 8", "rows 4 of 32").replace("every outer: 4", "every outer: 1"))
}

#[test]
fn four_rows_of_32_label_relate_and_group_pits_past_the_64th() {
    let e = four_rows_of_32();
    let r = &e.rules;
    assert_eq!(r.n_pits, 128);
    // South's o1..o32, i1..i32 are places 0..63, North's O1..O32, I1..I32 places 64..127.
    assert_eq!((id(&e, "o32"), id(&e, "i32"), id(&e, "O1"), id(&e, "I32")), (31, 63, 64, 127));
    let south = (1..=32).map(|k| format!("o{k}")).chain((1..=32).rev().map(|k| format!("i{k}"))).collect::<Vec<_>>();
    assert_eq!(circuit(&e, 0, Dir::Ccw, "o1"), south);
    let north = (1..=32).map(|k| format!("O{k}")).chain((1..=32).rev().map(|k| format!("I{k}"))).collect::<Vec<_>>();
    assert_eq!(circuit(&e, 1, Dir::Ccw, "O1"), north);
    let opposite = |l: &str| label(&e, r.opposite[id(&e, l) as usize]);
    let facing = |l: &str| pits_of(&e, r.facing[id(&e, l) as usize]);
    // Own ik faces the opponent's I(33-k) and O(33-k).
    assert_eq!((opposite("i3"), opposite("i32"), opposite("I1")), ("I30".into(), "I1".into(), "i32".into()));
    assert_eq!(facing("i3"), ["O30", "I30"]);
    assert_eq!(facing("I17"), ["o16", "i16"]);
    assert_eq!(r.number[id(&e, "I32") as usize], 32);
    let region = |name: &str| r.regions.iter().find(|g| g.name == name).expect(name);
    assert_eq!(pits_of(&e, region("leftmost").masks[1]), ["O1", "O2", "I1", "I2"]);
    assert_eq!(pits_of(&e, region("inner").masks[1]), (1..=32).map(|k| format!("I{k}")).collect::<Vec<_>>());
    assert_eq!((region("outer").all.count_ones(), region("inner").all.count_ones()), (64, 64));
    // North's I32 (place 127) sown into I31, I30; I30 held 1 and the pits facing it (i3, o3, in the first
    // word of a set) hold seeds: they are taken into I30 (in the second).
    let mut st = position(&e, "I32=2 I30=1 i3=2 o3=3 o1=1 to_move=2");
    play(&e, &mut st, "I32");
    assert_eq!(seeds_of(&e, &st, &["I32", "I31", "I30", "i3", "o3"]), [0, 1, 7, 0, 0]);
}

fn seeds_of(e: &Engine, st: &mancala::engine::State, labels: &[&str]) -> Vec<u8> {
    labels.iter().map(|l| st.counts[id(e, l) as usize]).collect()
}

#[test]
fn four_rows_draw_the_viewers_side_nearest() {
    let e = file("four-rows");
    let st = position(&e, "o1=1 i8=2 O1=3 I8=4 to_move=1");
    let board = mancala::board::render(&e, &st, false);
    let lines: Vec<&str> = board.lines().collect();
    // Far side on top, right to left: O8..O1 then I8..I1; own inner row, then own outer row nearest.
    assert!(lines[0].trim_start().starts_with("O8") && lines[0].trim_end().ends_with("O1"), "{board}");
    assert!(lines[3].trim_start().starts_with("I8"), "{board}");
    assert!(lines[5].trim_start().starts_with("i1") && lines[8].trim_start().starts_with("o1"), "{board}");
    // Each column holds pits that face each other: I1 above i8, O1 above it.
    let col = |line: &str, label: &str| line.find(label).unwrap_or_else(|| panic!("{label} in {line}"));
    assert_eq!(col(lines[0], "O1"), col(lines[5], "i8"));
    assert_eq!(col(lines[3], "I1"), col(lines[5], "i8"));
    insta::assert_snapshot!("four_rows_board", board);
}

// ================================================================ three rows

// Three rows of 6 (docs/games/gabata.md): columns 1..6 from South's left. South owns his outer row
// o1..o6 (columns 1..6) and the right half of the middle row i1..i3 (columns 4..6); North owns O1..O6
// (columns 6..1) and I1..I3 (columns 3..1), each row numbered from its owner's left.

/// The position of `text`, every pit not named empty, as `show` writes it.
fn full(e: &Engine, text: &str) -> String {
    show(e, &position(e, text))
}

#[test]
fn three_rows_label_each_players_row_and_half_row_from_his_left() {
    let e = file("three-rows");
    let st = e.initial_state();
    assert_eq!(
        show(&e, &st),
        "o1=2 o2=2 o3=2 o4=2 o5=2 o6=2 i1=2 i2=2 i3=2 O1=2 O2=2 O3=2 O4=2 O5=2 O6=2 I1=2 I2=2 I3=2 to_move=1"
    );
    let owners = e.rules.initial_owner.clone();
    assert!(owners[..9].iter().all(|&o| o == 0) && owners[9..].iter().all(|&o| o == 1), "{owners:?}");
    assert_eq!(plies(&e, &st), ["o1", "o2", "o3", "o4", "o5", "o6", "i1", "i2", "i3"]);
}

#[test]
fn three_rows_one_circuit_through_both_stretches_both_ways() {
    let e = file("three-rows");
    let ccw = "o1 o2 o3 o4 o5 o6 i3 i2 i1 O1 O2 O3 O4 O5 O6 I3 I2 I1";
    // One circuit, whoever sows: South's stretch, then North's.
    assert_eq!(circuit(&e, 0, Dir::Ccw, "o1"), labels(&e, ccw));
    let from_north: Vec<String> = labels(&e, ccw).into_iter().cycle().skip(9).take(18).collect();
    assert_eq!(circuit(&e, 1, Dir::Ccw, "O1"), from_north);
    let mut cw = labels(&e, ccw);
    cw[1..].reverse();
    assert_eq!(circuit(&e, 0, Dir::Cw, "o1"), cw);
    assert_eq!(circuit(&e, 1, Dir::Cw, "o1"), cw);
    let track: Vec<String> = e.rules.track.iter().map(|&p| label(&e, p)).collect();
    assert_eq!(track, labels(&e, ccw));
    // The pit chains run the same way.
    let n = e.rules.n_pits;
    assert_eq!(label(&e, e.rules.pit_next[id(&e, "i1") as usize]), "O1");
    assert_eq!(label(&e, e.rules.pit_next[n + id(&e, "O1") as usize]), "i1");
    assert_eq!(label(&e, e.rules.pit_next[id(&e, "I1") as usize]), "o1");
}

#[test]
fn three_rows_a_lap_crosses_from_one_stretch_into_the_other() {
    let e = file("three-rows");
    // South's i2: i1, then North's O1 and O2 (not his, so no relay).
    scenario(&e, "i2=3 O6=1 to_move=1", "i2", &full(&e, "i1=1 O1=1 O2=1 O6=1 to_move=2"));
    // North's I2: I1, then South's o1 and o2.
    scenario(&e, "I2=3 o6=1 to_move=2", "I2", &full(&e, "I1=1 o1=1 o2=1 o6=1 to_move=1"));
    // 18 seeds from o2: once round all 18 pits, the last into o2 itself.
    let every_one = "o1=1 o2=1 o3=1 o4=1 o5=1 o6=1 i1=1 i2=1 i3=1 O1=1 O2=1 O3=1 O4=1 O5=1 O6=1 I1=1 I2=1 I3=1";
    scenario(&e, "o2=18 to_move=1", "o2", &full(&e, &format!("{every_one} to_move=2")));
}

#[test]
fn three_rows_relations() {
    let e = file("three-rows");
    let r = &e.rules;
    let opposite = |l: &str| label(&e, r.opposite[id(&e, l) as usize]);
    let twin = |l: &str| label(&e, r.twin[id(&e, l) as usize]);
    let facing = |l: &str| pits_of(&e, r.facing[id(&e, l) as usize]);
    let number = |l: &str| r.number[id(&e, l) as usize];
    // Column 1 holds South's o1, North's I3 and O6: both of North's face o1, and I3 is the nearer.
    assert_eq!(facing("o1"), ["O6", "I3"]);
    assert_eq!(opposite("o1"), "I3");
    // Column 5 holds o5, South's own i2, and O2: only O2 is North's.
    assert_eq!(facing("o5"), ["O2"]);
    assert_eq!(opposite("o5"), "O2");
    assert_eq!((facing("i1"), opposite("i1")), (vec!["O3".to_string()], "O3".to_string()));
    assert_eq!((facing("I1"), opposite("I1")), (vec!["o3".to_string()], "o3".to_string()));
    assert_eq!(facing("O1"), ["o6", "i3"]);
    assert_eq!(opposite("O1"), "i3");
    // The twin is the pit of the same label on the other side: the board turned half round.
    assert_eq!((twin("o1"), twin("i2"), twin("O6"), twin("I3")), ("O1".into(), "I2".into(), "o6".into(), "i3".into()));
    assert_eq!((number("o6"), number("i3"), number("I1"), number("O5")), (6, 3, 1, 5));
}

#[test]
fn three_rows_capture_from_the_pits_facing_an_inner_pit() {
    let e = file("three-rows");
    // o5's 2 seeds: o6, then i3, empty, in South's half: North's O1 faces it (column 6), taken into i3.
    scenario(&e, "o5=2 O1=4 O3=1 to_move=1", "o5", &full(&e, "o6=1 i3=5 O3=1 to_move=2"));
}

#[test]
fn three_rows_regions_per_player() {
    let e = file("three-rows");
    let region = |name: &str| e.rules.regions.iter().find(|r| r.name == name).expect(name);
    assert_eq!(pits_of(&e, region("inner").masks[0]), ["i1", "i2", "i3"]);
    assert_eq!(pits_of(&e, region("inner").masks[1]), ["I1", "I2", "I3"]);
    assert_eq!(pits_of(&e, region("outer").masks[1]), labels(&e, "O1 O2 O3 O4 O5 O6"));
    assert_eq!(pits_of(&e, region("first").masks[1]), ["O1"]);
}

#[test]
fn three_rows_drawn_with_each_column_in_line() {
    let e = file("three-rows");
    let st = position(&e, "o1=1 i3=2 O1=3 I3=4 to_move=1");
    let board = mancala::board::render(&e, &st, false);
    let lines: Vec<&str> = board.lines().collect();
    // North's row on top, right to left; the middle row I3 I2 I1 i1 i2 i3; South's row nearest.
    assert!(lines[0].trim_start().starts_with("O6") && lines[0].trim_end().ends_with("O1"), "{board}");
    assert!(lines[2].trim_start().starts_with("I3") && lines[2].trim_end().ends_with("i3"), "{board}");
    assert!(lines[5].trim_start().starts_with("o1") && lines[5].trim_end().ends_with("o6"), "{board}");
    let col = |line: &str, label: &str| line.find(label).unwrap_or_else(|| panic!("{label} in {line}"));
    assert_eq!(col(lines[0], "O6"), col(lines[5], "o1"));
    assert_eq!(col(lines[2], "I3"), col(lines[5], "o1"));
    assert_eq!(col(lines[2], "i3"), col(lines[0], "O1"));
    insta::assert_snapshot!("three_rows_board", board);
    // North sees the board turned half round: his row nearest, O1..O6 from his left.
    let view = mancala::board::View { viewer: Some(1), ..mancala::board::View::plain(false) };
    let board = mancala::board::render_view(&e, &st, &view);
    let lines: Vec<&str> = board.lines().collect();
    assert!(lines[0].trim_start().starts_with("o6") && lines[5].trim_start().starts_with("O1"), "{board}");
    assert!(lines[2].trim_start().starts_with("i3") && lines[2].trim_end().ends_with("I3"), "{board}");
    insta::assert_snapshot!("three_rows_board_for_north", board);
}

#[test]
fn three_rows_rules_in_words() {
    let e = file("three-rows");
    insta::assert_snapshot!("three_rows_words", mancala::summary::summarize(&e));
}

// ================================================================ two rows and other boards

#[test]
fn two_rows_relations() {
    let e = source(
        "game \"t\"\nboard rows 2 of 6 with stores\nsetup { every pit: 4 }\nturn { sow { from pits(mover) } }\n\
         end { when stuck }\nscore count(store(player))",
    );
    let r = &e.rules;
    let at = |l: &str| id(&e, l) as usize;
    assert_eq!(label(&e, r.opposite[at("a")]), "F");
    assert_eq!(pits_of(&e, r.facing[at("a")]), ["F"]);
    assert_eq!(label(&e, r.twin[at("a")]), "A");
    assert_eq!(label(&e, r.twin[at("D")]), "d");
    assert_eq!((r.number[at("a")], r.number[at("f")], r.number[at("A")], r.number[at("E")]), (1, 6, 1, 5));
    // `rows 2 of N` is `two_rows N`: the same track.
    let track: Vec<String> = r.track.iter().map(|&p| label(&e, p)).collect();
    assert_eq!(track.join(" "), "a b c d e f store(1) A B C D E F store(2)");
}

#[test]
fn relations_in_conditions() {
    // A capture that reads `twin` and `number`: take the twin of an odd-numbered pit.
    let e = source(
        "game \"t\"\nboard rows 2 of 4\nplace bank per player\nsetup { every pit: 1 }\n\
         turn { sow { from pits(mover) where count > 0\n capture when number(here) in {1, 3} and count(twin(here)) > 0 {\n\
         take from twin(here) to bank(mover) } } }\nend { when stuck }\nscore count(bank(player))",
    );
    // a's seed falls into b (number 2): nothing; b's into c (number 3): its twin C is taken.
    scenario(&e, "a1 b1 C2 A1 to_move=1", "a", "a0 b2 c0 d0 A1 B0 C2 D0 to_move=2");
    scenario(&e, "a1 b1 C2 A1 to_move=1", "b", "a1 b0 c1 d0 A1 B0 C0 D0 bank(1)=2 to_move=2");
}

#[test]
fn one_row_with_a_store_is_a_ring_through_the_store() {
    let e = file("one-row");
    let track: Vec<String> = e.rules.track.iter().map(|&p| label(&e, p)).collect();
    assert_eq!(track.join(" "), "1 2 3 4 store");
    assert_eq!(circuit(&e, 0, Dir::Ccw, "4"), ["4", "store", "1", "2", "3"]);
    assert_eq!(e.rules.initial_owner, [0, 0, 0, 0]);
    assert_eq!(e.rules.number[..5], [1, 2, 3, 4, 0]);
    // 3 seeds from 4: the store, 1, and 2 (empty): the sowing ends.
    scenario(&e, "4=3 3=1", "4", "1=1 2=1 3=1 4=0 store=1 to_move=1");
    // Ending in the store: sow again.
    let st = scenario(&e, "3=2 1=1", "3", "1=1 2=0 3=0 4=1 store=1 to_move=1");
    assert_eq!(plies(&e, &st), ["1", "4"]);
    let board = mancala::board::render(&e, &st, false);
    insta::assert_snapshot!("one_row_board", board);
}

#[test]
fn four_rows_rules_in_words_and_dump() {
    let e = file("four-rows");
    insta::assert_snapshot!("four_rows_dump", mancala::summary::dump(&e.lowered));
    insta::assert_snapshot!("four_rows_words", mancala::summary::summarize(&e));
}

#[test]
fn four_rows_drawn_for_the_second_player() {
    // Seen by North: his rows nearest, O1..O8 along the bottom from his left; South's rows above, o8..o1.
    let e = file("four-rows");
    let st = position(&e, "o1=1 i8=2 O1=3 I8=4 to_move=2");
    let view = mancala::board::View { viewer: Some(1), ..mancala::board::View::plain(false) };
    let board = mancala::board::render_view(&e, &st, &view);
    let lines: Vec<&str> = board.lines().collect();
    assert!(lines[0].trim_start().starts_with("o8") && lines[0].trim_end().ends_with("o1"), "{board}");
    assert!(lines[8].trim_start().starts_with("O1") && lines[8].trim_end().ends_with("O8"), "{board}");
    let col = |line: &str, label: &str| line.find(label).unwrap_or_else(|| panic!("{label} in {line}"));
    assert_eq!(col(lines[3], "i8"), col(lines[5], "I1"));
}

#[test]
fn a_region_of_one_pit_is_a_place() {
    // `corner(mover)` is the mover's pit of the same number as `d`: South's d, North's D.
    let e = source(
        "game \"t\"\nboard rows 2 of 4\nregion corner per player: d\nsetup { every pit: 1 }\n\
         turn { sow { from pits(mover) where count > 0\n capture when here in pits(opponent) and count = 2 {\n\
         take from here to corner(mover) } } }\nend { when stuck }\nscore count(pits(player))",
    );
    scenario(&e, "c2 A1 B1", "c", "a0 b0 c0 d3 A0 B1 C0 D0 to_move=2");
    scenario(&e, "C2 a1 D1 to_move=2", "C", "a0 b0 c0 d0 A0 B0 C0 D4 to_move=1");
}
