//! The constructs of the four-row and two-row games of the family added with issue 21, each on a small test
//! game of `tests/data/family/`: the pits behind and in front of a pit in its column, the pit a move began
//! from, each player's count of plies.

mod common;

use common::*;
use mancala::engine::Engine;

fn family(file: &str, variant: Option<&str>) -> Engine {
    let path = format!("{}/tests/data/family/{file}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, variant, None).unwrap_or_else(|d| panic!("{file} {variant:?}: {d:?}"))
}

// ---------------------------------------------------------------- columns: `behind`, `ahead`

#[test]
fn captured_seeds_go_into_the_pit_behind() {
    // o3's two seeds fall into o4 and i4; i4 was empty and faces I1 and O1: their 4 seeds go into o4, the
    // outer pit behind i4.
    let e = family("columns", None);
    scenario(
        &e,
        "o1=2 o3=2 I1=3 O1=1 moves=1,1",
        "o3",
        "o1=2 o2=0 o3=0 o4=5 i1=0 i2=0 i3=0 i4=1 O1=0 O2=0 O3=0 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2 moves=2,1",
    );
}

#[test]
fn the_pit_in_front_is_the_inner_pit_of_the_column() {
    // o1's seeds end in the empty o3: the 3 seeds of i3, in front of it, are banked.
    let e = family("columns", None);
    scenario(
        &e,
        "o1=2 i3=3 moves=1,1",
        "o1",
        "o1=0 o2=1 o3=1 o4=0 i1=0 i2=0 i3=0 i4=0 O1=0 O2=0 O3=0 O4=0 I1=0 I2=0 I3=0 I4=0 store(1)=3 to_move=2 moves=2,1",
    );
}

#[test]
fn behind_and_ahead_on_three_rows_follow_the_columns() {
    let source =
        std::fs::read_to_string(format!("{}/tests/data/topology/three-rows.mancala", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    let e = mancala::compile(&source, None, None).unwrap();
    let label =
        |p: u16| if p == mancala::ir::NO_PLACE { "-".to_string() } else { e.rules.places[p as usize].label.clone() };
    let of = |l: &str| e.rules.places.iter().position(|p| p.label == l).unwrap();
    // rows 3 of 6: o1..o6 left to right, the middle row I3 I2 I1 i1 i2 i3, North's O6 .. O1.
    assert_eq!(label(e.rules.behind[of("i2")]), "o5");
    assert_eq!(label(e.rules.behind[of("I2")]), "O5");
    assert_eq!(label(e.rules.ahead[of("o1")]), "I3");
    assert_eq!(label(e.rules.ahead[of("o6")]), "i3");
    assert_eq!(label(e.rules.ahead[of("O1")]), "i3");
    assert_eq!(label(e.rules.behind[of("o1")]), "-");
    assert_eq!(label(e.rules.ahead[of("i1")]), "-");
}

// ---------------------------------------------------------------- `start`: the pit the move began from

#[test]
fn captured_seeds_are_sown_from_where_the_move_began() {
    // o1's seeds fall into o2 and o3; o3 held 1: relay from o3 into o4 and i4. i4 held 1 and faces I1 with
    // 2: those are sown on from o1, where the move began, into o2 and o3 (emptied by the relay); o3 was
    // empty, and i3 in front of it too: the move ends.
    let e = family("columns", None);
    scenario(
        &e,
        "o1=2 o3=1 i4=1 I1=2 moves=1,1",
        "o1",
        "o1=0 o2=2 o3=1 o4=1 i1=0 i2=0 i3=0 i4=2 O1=0 O2=0 O3=0 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2 moves=2,1",
    );
    // Sown from the origin of the lap that captured (o3), they fall into o4 and i4 instead; i4 now holds 3
    // and faces nothing: it relays into i3, i2, i1, all empty.
    let e = family("columns", Some("from-origin"));
    scenario(
        &e,
        "o1=2 o3=1 i4=1 I1=2 moves=1,1",
        "o1",
        "o1=0 o2=1 o3=0 o4=2 i1=1 i2=1 i3=1 i4=0 O1=0 O2=0 O3=0 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2 moves=2,1",
    );
}

// ---------------------------------------------------------------- `moves(PLAYER)`: a player's first move

#[test]
fn a_rule_for_each_players_first_move() {
    // `moves(mover) = 0` on each player's first move: only his first outer pit may be sown.
    let e = family("columns", None);
    let mut st = e.initial_state();
    assert_eq!(plies(&e, &st), ["o1"]);
    play(&e, &mut st, "o1");
    assert_eq!(plies(&e, &st), ["O1"]);
    play(&e, &mut st, "O1");
    assert!(show(&e, &st).contains("moves=1,1"), "{}", show(&e, &st));
    // From his second move on, any pit of 2 or more.
    assert_eq!(plies(&e, &st), ["o2", "o4"]);
}

#[test]
fn a_typed_position_says_the_moves_made() {
    let e = family("columns", None);
    assert_eq!(legal(&e, "o1=2 o2=2"), ["o1"]);
    assert_eq!(legal(&e, "o1=2 o2=2 moves=1,0"), ["o1", "o2"]);
    assert!(mancala::notation::parse_position(&e, "o1=2 moves=1").is_err());
}

// ---------------------------------------------------------------- sweeps by the way the game ended

#[test]
fn after_a_repetition_the_leftovers_go_one_way() {
    // The seed goes round: 1 to 2, 3, 4 and back to 1 with player 1 to move, the first position again. The
    // sweep `after repetition` gives it to the player to move; the one after it finds nothing left.
    let e = family("endings", None);
    let mut st = e.initial_state();
    play_all(&e, &mut st, &["1", "2", "3", "4"]);
    assert_eq!(result(&st), Some((vec![1], vec![1, 0], mancala::engine::EndReason::Repetition)));
}

#[test]
fn after_another_ending_the_leftovers_go_the_other_way() {
    // At the ply limit (2 plies), player 1 to move: the sweep `after repetition` is not made, the other gives
    // the seed to player 2.
    let e = family("endings", Some("short"));
    let mut st = e.initial_state();
    play_all(&e, &mut st, &["1", "2"]);
    assert_eq!(result(&st), Some((vec![2], vec![0, 1], mancala::engine::EndReason::Limit)));
}

// ---------------------------------------------------------------- captures as a lap is lifted

#[test]
fn a_capture_before_the_first_lap_is_lifted() {
    // Before i2 is lifted, the seeds of I3 and O3 facing it go into o2 behind it; then i2's seed falls into
    // i1, and o1 after it is empty: the move ends.
    let e = family("lifting", None);
    scenario(
        &e,
        "o1=0 o2=1 i2=1 I3=2 O3=1 O1=1",
        "i2",
        "o1=0 o2=4 o3=0 o4=0 i1=1 i2=0 i3=0 i4=0 O1=1 O2=0 O3=0 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2",
    );
}

#[test]
fn a_capture_before_each_relay_is_lifted() {
    // o4's seed falls into i4; i3 after it holds a seed: it relays, and before it is lifted the seeds of I2
    // facing it go into o3 behind it. Its seed falls into i2; i1 after it is empty.
    let e = family("lifting", None);
    scenario(
        &e,
        "o2=1 o4=1 i3=1 I2=2 O1=1",
        "o4",
        "o1=0 o2=1 o3=2 o4=0 i1=0 i2=1 i3=0 i4=1 O1=1 O2=0 O3=0 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2",
    );
}

// ---------------------------------------------------------------- the opponent's answer in a move

#[test]
fn the_opponent_answers_a_declined_capture() {
    // o3's seeds fall into o4 and i4, which held one and faces I1 and O1: South may capture them. He
    // declines, and North, answering, pulls I1's seeds back into O1 behind it; South's move then goes on:
    // i4 relays into i3 and i2.
    let e = family("answering", None);
    let before = "o3=2 i4=1 I1=2 O1=1 O3=2";
    let st = position(&e, before);
    let mut listed = plies(&e, &st);
    listed.sort();
    assert_eq!(listed, ["o3 -x -answer", "o3 -x answer", "o3 x"]);
    scenario(
        &e,
        before,
        "o3 -x answer",
        "o1=0 o2=0 o3=0 o4=1 i1=0 i2=1 i3=1 i4=0 O1=3 O2=0 O3=2 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2",
    );
    // Not answered, I1 stays where it was.
    scenario(
        &e,
        before,
        "o3 -x -answer",
        "o1=0 o2=0 o3=0 o4=1 i1=0 i2=1 i3=1 i4=0 O1=1 O2=0 O3=2 O4=0 I1=2 I2=0 I3=0 I4=0 to_move=2",
    );
    // Captured, nothing is left to answer for: the seeds are sown on from o3, where the move began.
    scenario(
        &e,
        before,
        "o3 x",
        "o1=0 o2=0 o3=0 o4=2 i1=0 i2=0 i3=1 i4=3 O1=0 O2=0 O3=2 O4=0 I1=0 I2=0 I3=0 I4=0 to_move=2",
    );
}

#[test]
fn the_answer_is_the_opponents_decision() {
    // Mid-move, the decision at hand is North's, though South is still the player to move.
    let e = family("answering", None);
    let mut st = position(&e, "o3=2 i4=1 I1=2 O1=1 O3=2");
    for mv in mancala::notation::parse_ply_until_answer(&e, &st, "o3 -x").unwrap() {
        e.apply(&mut st, mv).unwrap();
    }
    assert_eq!((st.to_move, e.decider(&st)), (0, 1));
    let mut options = Vec::new();
    e.legal_moves(&st, &mut options);
    assert_eq!(options, [mancala::engine::Move::Answer(true), mancala::engine::Move::Answer(false)]);
    // Without the answer written, a whole ply does not read.
    assert!(mancala::notation::parse_ply(&e, &position(&e, "o3=2 i4=1 I1=2 O1=1 O3=2"), "o3 -x").is_err());
}

// ---------------------------------------------------------------- a take as a turn's action

fn taking() -> Engine {
    let path = format!("{}/tests/data/reference/take-a-chosen-pit.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("take-a-chosen-pit: {d:?}"))
}

#[test]
fn a_take_moves_a_chosen_pit_without_sowing() {
    // `pick`: North's A holds 3, so South may bank it whole; B (1) and the other pits may not be picked.
    // `hand_over`: one seed of a pit of South's holding 2 or more into the pit across.
    let e = taking();
    let before = "a=2 b=3 A=3 B=1";
    assert_eq!(legal(&e, before), ["a", "b", "hand_over a", "hand_over b", "pick A"]);
    let st = scenario(&e, before, "pick A", "a2 b3 c0 d0 A0 B1 C0 D0 store(1)=3 store(2)=0 to_move=2");
    assert_eq!(st.ply, 1);
    // `here` in the place is the chosen pit: b's seed goes to the pit across from b.
    let mut st = position(&e, before);
    play(&e, &mut st, "hand_over b");
    let across = |label: &str| e.rules.places.iter().position(|i| i.label == label).unwrap();
    let b = across("b");
    let opposite = e.rules.opposite[b] as usize;
    assert_eq!((st.counts[b], st.counts[opposite]), (2, position(&e, before).counts[opposite] + 1));
}

#[test]
fn a_take_is_told_and_explained() {
    let e = taking();
    let before = position(&e, "a=2 b=3 A=3 B=1");
    let moves = mancala::notation::parse_ply(&e, &before, "pick A").expect("legal");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert_eq!(told.text, "took 3 from A to store(1)");
    let path = format!("{}/tests/data/reference/take-a-chosen-pit.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap();
    let explained = mancala::explain::explain(&e, &source, &before, &moves);
    assert_eq!(explained.steps[0].step, "take");
    assert_eq!(explained.steps[0].text, "pick at A: takes 3 from A to store(1)");
}

#[test]
fn a_take_is_summarised() {
    let e = taking();
    let words = mancala::summary::summarize_width(&e, 200);
    let dump = mancala::summary::dump(&e.lowered);
    assert!(words.contains("Pick: move all the seeds of"), "{words}");
    assert!(dump.contains("  - pick: take from pits(opponent) where count = 3 to store(mover)"), "{dump}");
}

// ---------------------------------------------------------------- a take before the sowing, in the same ply

fn taking_first() -> (Engine, String) {
    let path = format!("{}/tests/data/reference/take-before-sowing.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("take-before-sowing: {d:?}")), source)
}

/// The labels of the decisions at hand in the middle of a ply.
fn options_here(e: &Engine, st: &mancala::engine::State) -> Vec<String> {
    let mut options = Vec::new();
    e.legal_moves(st, &mut options);
    let label = |p: u16| e.rules.places[p as usize].label.clone();
    options
        .iter()
        .map(|m| match *m {
            mancala::engine::Move::Pick(p) => label(p),
            other => format!("{other:?}"),
        })
        .collect()
}

/// The first decision of `steal` at the pit labelled `pit`.
fn steal_at(e: &Engine, pit: &str) -> mancala::engine::Move {
    let place = e.rules.places.iter().position(|i| i.label == pit).expect("a place") as u16;
    mancala::engine::Move::Begin { action: 1, place }
}

#[test]
fn a_take_before_the_sowing_is_made_then_a_pit_is_sown_in_the_same_ply() {
    // `steal`: one seed of a pit of North's holding 2 or more (A, not B) to South's store, then South sows
    // a pit of his own, in the direction he chooses.
    let (e, _) = taking_first();
    let before = "a=2 b=1 A=3 B=1 C=1 D=1";
    assert_eq!(legal(&e, before), ["a", "b", "steal A,accw", "steal A,acw", "steal A,bccw", "steal A,bcw"]);
    let mut st = position(&e, before);
    e.apply(&mut st, steal_at(&e, "A")).expect("legal");
    // The take is made; the mover picks the pit to sow: his own non-empty pits.
    assert_eq!(st.ply, 0);
    assert_eq!(st.counts[e.rules.places.iter().position(|i| i.label == "A").unwrap()], 2);
    assert_eq!(options_here(&e, &st), ["a", "b"]);
    // `A,bcw`: b's seed goes clockwise into a, which held 2 (no capture); one seed of A went to store(1).
    let st = scenario(&e, before, "steal A,bcw", "a3 b0 c0 d0 A2 B1 C1 D1 store(1)=1 store(2)=0 to_move=2");
    assert_eq!(st.ply, 1);
    // The same ply counter-clockwise: b's seed lands in the empty c, across from B (1): both are captured.
    scenario(&e, before, "steal A,bccw", "a2 b0 c0 d0 A2 B0 C1 D1 store(1)=3 store(2)=0 to_move=2");
}

#[test]
fn a_take_before_the_sowing_is_offered_only_where_a_sowing_can_follow() {
    // The take can be made from C (2) or D (2); after it, South sows a pit of his own: only a holds seeds.
    let (e, _) = taking_first();
    let before = "a=1 C=2 D=2";
    assert_eq!(legal(&e, before), ["a", "steal C,accw", "steal C,acw", "steal D,accw", "steal D,acw"]);
    let mut st = position(&e, before);
    e.apply(&mut st, steal_at(&e, "C")).expect("legal");
    assert_eq!(options_here(&e, &st), ["a"]);
}

#[test]
fn a_take_before_the_sowing_is_written_read_told_and_explained() {
    let (e, source) = taking_first();
    let before = position(&e, "a=2 b=1 A=3 B=1 C=1 D=1");
    let moves = mancala::notation::parse_ply(&e, &before, "steal A,bccw").expect("legal");
    assert_eq!(mancala::notation::format_ply(&e, &before, &moves), "steal A,bccw");
    // The pit to sow from must follow the take.
    let err = mancala::notation::parse_ply(&e, &before, "steal A").unwrap_err();
    assert!(err.to_string().contains("the pit to sow from must follow"), "{err}");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert!(told.text.starts_with("took 1 from A to store(1); sowed 1 from b"), "{}", told.text);
    let explained = mancala::explain::explain(&e, &source, &before, &moves);
    assert_eq!(explained.steps[0].step, "take");
    assert_eq!(explained.steps[0].text, "take at A: takes 1 from A to store(1)");
    assert_eq!(explained.steps[1].text, "lift 1 from b");
    let words = mancala::summary::summarize_width(&e, 200);
    assert!(words.contains("Steal: move 1 seed of"), "{words}");
    assert!(words.contains("to your store; then take all the"), "{words}");
}

/// A small rule file of `tests/data/reference/`, compiled.
fn reference_file(stem: &str) -> Engine {
    reference_file_and_text(stem).0
}

#[test]
fn a_take_before_a_capturing_sowing_is_offered_only_where_a_capture_follows_it() {
    // `steal`: all of an opponent's pit to South's store, then a sowing whose first lap captures (`must
    // capture`), ranked first (`prefer steal, sow`). From a, counter-clockwise, the seed lands in the empty b
    // across from C: banking C first leaves nothing to capture there, so C is not offered; B and D are.
    let e = reference_file("take-before-must-capture");
    let before = "a=1 B=1 C=2 D=1";
    assert_eq!(legal(&e, before), ["steal B,accw", "steal D,accw"]);
    // After the take from B, the mover may sow a only counter-clockwise: clockwise, it ends in D.
    let mut st = position(&e, before);
    let b = e.rules.places.iter().position(|i| i.label == "B").unwrap() as u16;
    e.apply(&mut st, mancala::engine::Move::Begin { action: 1, place: b }).expect("legal");
    assert_eq!(options_here(&e, &st), ["a"]);
    // B's seed is banked, then b and C (2) are captured.
    scenario(&e, before, "steal B,accw", "a0 b0 c0 d0 A0 B0 C0 D1 store(1)=4 store(2)=0 to_move=2");
    // The only take is C's, after which no sowing captures: `prefer` falls back to the plain sowing.
    assert_eq!(legal(&e, "a=1 C=1"), ["a"]);
}

#[test]
fn a_take_before_the_sowing_is_followed_by_the_ways_allowed_after_it() {
    // `bank`: one seed of a pit of South's holding 2 or more to his store, then any pit of his sown
    // counter-clockwise, or clockwise from a pit holding 2 or more after the take: a, left with 1, goes
    // counter-clockwise only; c, left with 2, either way.
    let e = reference_file("take-before-direction-where");
    let plies = legal(&e, "a=2 b=1 c=3 A=1");
    let banks: Vec<&String> = plies.iter().filter(|p| p.starts_with("bank a,")).collect();
    assert_eq!(banks, ["bank a,accw", "bank a,bccw", "bank a,cccw", "bank a,ccw"]);
    let banks: Vec<&String> = plies.iter().filter(|p| p.starts_with("bank c,")).collect();
    assert_eq!(banks, ["bank c,accw", "bank c,acw", "bank c,bccw", "bank c,cccw", "bank c,ccw"]);
}

#[test]
fn a_take_before_the_sowing_is_followed_by_the_groups_after_else_read_after_it() {
    // `bank`, ranked first: one seed of a pit of South's holding 3 or more to his store, then a pit of his
    // holding 3 or more, else any of his. Banking a's seed leaves no pit of 3: the group after `else` applies
    // (a or b); banking b's leaves b with 2, a with 4: a only.
    let e = reference_file("take-before-else");
    assert_eq!(legal(&e, "a=3 b=1 A=1"), ["a,a", "a,b"]);
    assert_eq!(legal(&e, "a=4 b=3 A=1"), ["a,a", "a,b", "b,a"]);
    scenario(&e, "a=3 b=1 A=1", "a,b", "a2 b0 c1 d0 A1 B0 C0 D0 store(1)=1 store(2)=0 to_move=2");
    // No pit of 3: `bank` cannot start, the plain sowing can.
    assert_eq!(legal(&e, "a=2 b=1 A=1"), ["sow a", "sow b"]);
}

#[test]
fn a_take_before_a_sowing_in_an_order_chosen_drops_the_pieces_left_after_it() {
    // `grab`: one ball (a red first) of any pit holding 2 or more to South's store, then a pit holding a red
    // sown in the order he chooses, red last. Taking from a leaves R R W there: W R R or R W R.
    let e = reference_file("take-before-order-choose");
    let before = position(&e, "a=RRRW A=W");
    let plies = plies(&e, &before);
    let mut grabs: Vec<&String> = plies.iter().filter(|p| p.starts_with("grab ")).collect();
    grabs.sort();
    assert_eq!(grabs, ["grab a,a:RWR", "grab a,a:WRR"]);
    let moves = mancala::notation::parse_ply(&e, &before, "grab a,a:RWR").expect("legal");
    assert_eq!(mancala::notation::format_ply(&e, &before, &moves), "grab a,a:RWR");
    // The chosen pieces alone read too; four pieces (a's before the take) do not.
    let chosen = mancala::notation::parse_ply(&e, &before, "grab a,a:R").expect("legal");
    assert_eq!(chosen, moves);
    assert!(mancala::notation::parse_ply(&e, &before, "grab a,a:RRWR").is_err());
    // Left out, the order is asked for with the pit sown from after the take.
    let err = mancala::notation::parse_ply(&e, &before, "grab a,a").unwrap_err();
    assert!(err.to_string().contains("e.g. `a,a:...`"), "{err}");
    let after = after_moves(&e, &before, &moves);
    assert_eq!(show(&e, &after), "a=- b=R c=W d=R A=W B=- C=- D=- store(1)=R store(2)=- to_move=2");
    let told = narrate(&e, &before, &moves, &after);
    assert!(told.text.starts_with("took 1 red from a to store(1); sowed 2 red and 1 white from a"), "{}", told.text);
}

// ---------------------------------------------------------------- the opponent's answer from a pit he chooses

/// A rule file of `tests/data/reference/` with its text (for `explain`).
fn reference_file_and_text(name: &str) -> (Engine, String) {
    let path = format!("{}/tests/data/reference/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    (mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{name}: {d:?}")), source)
}

#[test]
fn the_opponent_answers_from_a_pit_he_chooses() {
    // d's two seeds go into store(1) and A, which held 1: the lap ends in North's A (2), no capture. North may
    // bank one seed of any of his pits holding 2 or more (A and C, not B), or let it be; A then holds 1 or 2,
    // so it never relays (3 or more).
    let (e, _) = reference_file_and_text("answer-from-a-chosen-pit");
    let before = "d=2 A=1 B=1 C=2";
    let mut listed = plies(&e, &position(&e, before));
    listed.sort();
    assert_eq!(listed, ["d -answer", "d answer A", "d answer C"]);
    scenario(&e, before, "d answer C", "a0 b0 c0 d0 A2 B1 C1 D0 store(1)=1 store(2)=1 to_move=2");
    // From the last pit itself: `here` is the chosen pit, `last` still the lap's last place.
    scenario(&e, before, "d answer A", "a0 b0 c0 d0 A1 B1 C2 D0 store(1)=1 store(2)=1 to_move=2");
    scenario(&e, before, "d -answer", "a0 b0 c0 d0 A2 B1 C2 D0 store(1)=1 store(2)=0 to_move=2");
}

#[test]
fn an_answer_with_no_pit_to_take_from_is_not_offered() {
    // The lap ends in A, which held nothing: `count(last) > 1` fails at every pit, so no pit qualifies and
    // North is not asked at all.
    let (e, _) = reference_file_and_text("answer-from-a-chosen-pit");
    let before = "d=2 B=3 C=2";
    assert_eq!(plies(&e, &position(&e, before)), ["d"]);
    scenario(&e, before, "d", "a0 b0 c0 d0 A1 B3 C2 D0 store(1)=1 store(2)=0 to_move=2");
}

#[test]
fn the_answer_from_a_chosen_pit_is_the_opponents_decision() {
    let (e, _) = reference_file_and_text("answer-from-a-chosen-pit");
    let mut st = position(&e, "d=2 A=1 B=1 C=2");
    for mv in mancala::notation::parse_ply_until_answer(&e, &st, "d").unwrap() {
        e.apply(&mut st, mv).unwrap();
    }
    assert_eq!((st.to_move, e.decider(&st)), (0, 1));
    assert_eq!(options_here(&e, &st), ["A", "C", "Answer(false)"]);
}

#[test]
fn the_look_ahead_offers_only_the_pits_after_which_the_move_is_allowed() {
    // d's seeds end in A (1): North may bank A (1) or B (2). The sowing is allowed only if North keeps 2 or
    // more in his pits: banking B leaves him 1, so B is not offered.
    let (e, _) = reference_file_and_text("answer-from-a-chosen-pit-required");
    let before = "a=1 d=2 B=2";
    let mut listed = plies(&e, &position(&e, before));
    listed.sort();
    assert_eq!(listed, ["a", "d -answer", "d answer A"]);
    let mut st = position(&e, before);
    for mv in mancala::notation::parse_ply_until_answer(&e, &st, "d").unwrap() {
        e.apply(&mut st, mv).unwrap();
    }
    assert_eq!(options_here(&e, &st), ["A", "Answer(false)"]);
    assert!(mancala::notation::parse_ply(&e, &position(&e, before), "d answer B").is_err());
}

#[test]
fn an_answer_from_a_chosen_pit_is_written_read_told_and_explained() {
    let (e, source) = reference_file_and_text("answer-from-a-chosen-pit");
    let before = position(&e, "d=2 A=1 B=1 C=2");
    let moves = mancala::notation::parse_ply(&e, &before, "d answer C").expect("legal");
    assert_eq!(mancala::notation::format_ply(&e, &before, &moves), "d answer C");
    // With two pits to choose from, the pit must be written.
    let err = mancala::notation::parse_ply(&e, &before, "d answer").unwrap_err();
    assert!(err.to_string().contains("say which pit the opponent answers from"), "{err}");
    let err = mancala::notation::parse_ply(&e, &before, "d answer B").unwrap_err();
    assert!(err.to_string().contains("the opponent cannot answer from B"), "{err}");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert!(told.text.contains("computer answered at A from C: 1 from C to store(2)"), "{}", told.text);
    let explained = mancala::explain::explain(&e, &source, &before, &moves);
    let answer = explained.steps.iter().find(|s| s.step == "answer").expect("an answer step");
    assert_eq!(answer.text, "last in A: player 2 answers from C: takes 1 from C to store(2)");
    let words = mancala::summary::summarize_width(&e, 200).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("your opponent may answer: move 1 seed of"), "{words}");
    assert!(words.contains("(a pit of his choice)"), "{words}");
    let dump = mancala::summary::dump(&e.lowered);
    assert!(dump.contains("take 1 from pits(opponent) where"), "{dump}");
}

// ---------------------------------------------------------------- a pit chosen before each lap is lifted

#[test]
fn the_mover_chooses_a_pit_before_a_lap_is_lifted() {
    // Before b (2) is lifted, South banks one seed of any of North's pits holding more than b: A or B (3), not
    // C or D (1). b is then lifted and sown into c, d; d (4) relays: before it is lifted no pit of North's
    // holds more than 4, so nothing is asked.
    let (e, _) = reference_file_and_text("lift-from-a-chosen-pit");
    let before = "b2 c1 d3 A3 B3 C1 D1";
    let mut listed: Vec<String> = plies(&e, &position(&e, before)).into_iter().filter(|p| p.starts_with('b')).collect();
    listed.sort();
    assert_eq!(listed, ["b pick A", "b pick B"]);
    scenario(&e, before, "b pick A", "a0 b0 c2 d0 A3 B4 C2 D1 store(1)=2 store(2)=0 to_move=2");
    scenario(&e, before, "b pick B", "a0 b0 c2 d0 A4 B3 C2 D1 store(1)=2 store(2)=0 to_move=2");
    // The decision is the mover's, in the middle of his move, before anything is lifted.
    let mut st = position(&e, before);
    let b = e.rules.places.iter().position(|i| i.label == "b").unwrap() as u16;
    e.apply(&mut st, mancala::engine::Move::Begin { action: 0, place: b }).unwrap();
    assert_eq!((st.to_move, e.decider(&st), st.counts[b as usize]), (0, 0, 2));
    assert_eq!(options_here(&e, &st), ["A", "B"]);
}

#[test]
fn a_pit_is_chosen_before_a_relay_is_lifted_too() {
    // Before a (2) is lifted, B (5) is the one pit of North's holding more: South banks one of its seeds.
    // a's seeds end in c (3), which relays: before c is lifted, B (4) holds more than c again, and one more
    // seed of it is banked. c's 3 seeds then go into d, store(1) and A.
    let (e, _) = reference_file_and_text("lift-from-a-chosen-pit");
    let before = "a2 c2 B5";
    assert_eq!(plies(&e, &position(&e, before)), ["a pick B pick B", "c pick B"]);
    let st = scenario(&e, before, "a pick B pick B", "a0 b1 c0 d1 A1 B3 C0 D0 store(1)=3 store(2)=0 to_move=2");
    assert_eq!(st.ply, 1);
    // A forced pit may be left out when typed.
    scenario(&e, before, "a", "a0 b1 c0 d1 A1 B3 C0 D0 store(1)=3 store(2)=0 to_move=2");
    // Told in order: the first lap's pit before the laps, the relay's after them.
    let before = position(&e, before);
    let moves = mancala::notation::parse_ply(&e, &before, "a pick B pick B").expect("legal");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert_eq!(
        told.text,
        "took 1 from B to store(1) before lifting a; sowed 2 from a, relaying from c, ending in A; took 1 from B to \
         store(1) before lifting c"
    );
}

#[test]
fn no_pit_to_choose_before_a_lift_asks_nothing() {
    // Every pit of North's holds no more than b: the capture does not hold, and b is lifted at once.
    let (e, _) = reference_file_and_text("lift-from-a-chosen-pit");
    let before = "b2 A2 B1";
    assert_eq!(plies(&e, &position(&e, before)), ["b"]);
    // b's seeds end in the empty d, across from A: the capture at the end of the lap takes both.
    scenario(&e, before, "b", "a0 b0 c1 d0 A0 B1 C0 D0 store(1)=3 store(2)=0 to_move=2");
}

#[test]
fn a_pit_chosen_before_a_lift_is_written_read_told_and_explained() {
    let (e, source) = reference_file_and_text("lift-from-a-chosen-pit");
    let before = position(&e, "b2 c1 d3 A3 B3 C1 D1");
    let moves = mancala::notation::parse_ply(&e, &before, "b pick B").expect("legal");
    assert_eq!(mancala::notation::format_ply(&e, &before, &moves), "b pick B");
    let err = mancala::notation::parse_ply(&e, &before, "b").unwrap_err();
    assert!(err.to_string().contains("choose the pit to take from before the lap from b is lifted"), "{err}");
    let err = mancala::notation::parse_ply(&e, &before, "b pick C").unwrap_err();
    assert!(err.to_string().contains("C cannot be taken from before the lap from b is lifted"), "{err}");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert!(told.text.contains("took 1 from B to store(1) before lifting b"), "{}", told.text);
    let explained = mancala::explain::explain(&e, &source, &before, &moves);
    assert_eq!(explained.steps[0].text, "before b is lifted: capture takes 1 from B to store(1)");
    let words = mancala::summary::summarize_width(&e, 200).split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(words.contains("(a pit of your choice)"), "{words}");
}

#[test]
fn a_chosen_relay_that_waits_for_a_pit_is_told_as_chosen() {
    // `relay may` beside a pit chosen before each lift: the relay from b, chosen, waits for the pit taken
    // before its lift; it is still told "(by choice)", as one that does not wait.
    let source = std::fs::read_to_string(format!(
        "{}/tests/data/reference/lift-from-a-chosen-pit.mancala",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("    relay when count >= 3", "    relay may when count >= 3");
    let e = mancala::compile(&source, None, None).expect("the file compiles");
    let before = position(&e, "b2 c1 d3 A3 B3 C1 D1");
    let moves = mancala::notation::parse_ply(&e, &before, "d relay relay pick A").expect("legal");
    let after = after_moves(&e, &before, &moves);
    let told = narrate(&e, &before, &moves, &after);
    assert!(told.text.contains("relaying from B (by choice) and b (by choice)"), "{}", told.text);
}
