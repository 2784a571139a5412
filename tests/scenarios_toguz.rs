//! Rule scenarios for Toguz Kumalak: one position, one ply, the exact position after it.
//! Rules: `docs/games/toguz-kumalak.md` (TK-1 .. TK-8) and two worked checks.
//!
//! The track: `a b c d e f g h i A B C D E F G H I` (South's holes 1..9 are `a..i`, North's are `A..I`,
//! each numbered from its owner's left). Kazans are `kazan(1)`, `kazan(2)`, off the track; a tuzdyk made
//! by player N is written `tuzdyk(N)=PIT` and the pit is then owned by N (`owner(PIT)=N`).

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};
use mancala::notation::parse_ply;

fn toguz() -> Engine {
    engine("toguz-kumalak", None, None)
}

const START: &str = "a9 b9 c9 d9 e9 f9 g9 h9 i9 A9 B9 C9 D9 E9 F9 G9 H9 I9 to_move=1";

#[test]
fn check_hole_1_from_the_start_captures_nothing() {
    // Worked check 1: hole 1 covers holes 1..9, the first stone back into it; hole 9 then holds 10, own side.
    let e = toguz();
    assert_eq!(show(&e, &e.initial_state()), START);
    scenario(&e, START, "a", "a1 b10 c10 d10 e10 f10 g10 h10 i10 A9 B9 C9 D9 E9 F9 G9 H9 I9 to_move=2");
}

#[test]
fn check_hole_9_from_the_start_captures_10() {
    // Worked check 2: hole 9 covers hole 9 and the opponent's 1..8; his hole 8 now holds 10, even: captured.
    let e = toguz();
    scenario(&e, START, "i", "a9 b9 c9 d9 e9 f9 g9 h9 i1 A10 B10 C10 D10 E10 F10 G10 H0 I9 kazan(1)=10 to_move=2");
}

#[test]
fn tk_lone_stone_moves_on() {
    // Move: a single stone goes to the next hole, not back into its own.
    let e = toguz();
    scenario(&e, "c1 A1 to_move=1", "c", "a0 b0 c0 d1 e0 f0 g0 h0 i0 A1 B0 C0 D0 E0 F0 G0 H0 I0 to_move=2");
}

#[test]
fn tk1_tuzdyk_is_made_automatically() {
    // TK-1: the last stone makes 3 in the opponent's hole C: it becomes South's tuzdyk, given to him, and
    // its 3 stones go to his kazan.
    let e = toguz();
    let st = scenario(
        &e,
        "h5 C2 D1 to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C0 D1 E0 F0 G0 H0 I0 kazan(1)=3 owner(C)=1 tuzdyk(1)=C to_move=2",
    );
    // North cannot sow from C, which is now South's.
    assert_eq!(plies(&e, &st), ["A", "B", "D"]);
}

#[test]
fn tk1_flag_tuzdyk_may_be_declined() {
    // TK-1 flag `tuzdyk: optional`: the mover chooses; `tuzdyk` makes the tuzdyk, `-tuzdyk` leaves the 3
    // stones (the rule's own words, `capture may as "tuzdyk"`; the plain `x` and `-x` still read).
    let e = engine("toguz-kumalak", Some("tuzdyk-optional"), None);
    let before = "h5 C2 D1 to_move=1";
    let st = position(&e, before);
    assert_eq!(plies(&e, &st).iter().filter(|p| p.starts_with('h')).collect::<Vec<_>>(), ["h tuzdyk", "h -tuzdyk"]);
    assert_eq!(parse_ply(&e, &st, "h x").unwrap(), parse_ply(&e, &st, "h tuzdyk").unwrap());
    assert_eq!(parse_ply(&e, &st, "h -x").unwrap(), parse_ply(&e, &st, "h -tuzdyk").unwrap());
    scenario(
        &e,
        before,
        "h tuzdyk",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C0 D1 E0 F0 G0 H0 I0 kazan(1)=3 owner(C)=1 tuzdyk(1)=C to_move=2",
    );
    scenario(&e, before, "h -tuzdyk", "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C3 D1 E0 F0 G0 H0 I0 to_move=2");
    // Without the answer the ply is incomplete, and the error says how to give it.
    let err = parse_ply(&e, &st, "h").unwrap_err();
    assert!(err.to_string().contains("capture"), "{err}");
}

#[test]
fn tk2_same_number_ban() {
    // TK-2: North's tuzdyk is South's hole 3 (c); South may not make North's hole 3 (C) a tuzdyk.
    let e = toguz();
    scenario(
        &e,
        "h5 C2 D1 owner(c)=2 tuzdyk(2)=c to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C3 D1 E0 F0 G0 H0 I0 owner(c)=2 tuzdyk(2)=c to_move=2",
    );
    // Another number is allowed: North's tuzdyk on d does not forbid C.
    scenario(
        &e,
        "h5 C2 D1 owner(d)=2 tuzdyk(2)=d to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C0 D1 E0 F0 G0 H0 I0 kazan(1)=3 owner(d)=2 owner(C)=1 tuzdyk(1)=C \
         tuzdyk(2)=d to_move=2",
    );
}

#[test]
fn tk2_flag_facing_ban() {
    // TK-2 flag `tuzdyk_ban: facing`: the hole facing North's tuzdyk is banned instead. C faces g.
    let e = engine("toguz-kumalak", Some("tuzdyk-ban-facing"), None);
    scenario(
        &e,
        "h5 C2 D1 owner(g)=2 tuzdyk(2)=g to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C3 D1 E0 F0 G0 H0 I0 owner(g)=2 tuzdyk(2)=g to_move=2",
    );
    // The same number is allowed there.
    scenario(
        &e,
        "h5 C2 D1 owner(c)=2 tuzdyk(2)=c to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C0 D1 E0 F0 G0 H0 I0 kazan(1)=3 owner(c)=2 owner(C)=1 tuzdyk(1)=C \
         tuzdyk(2)=c to_move=2",
    );
}

#[test]
fn tuzdyk_at_most_one() {
    // A player with a tuzdyk makes no second one: the 3 in C stays.
    let e = toguz();
    scenario(
        &e,
        "h5 C2 D1 owner(E)=1 tuzdyk(1)=E to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h1 i1 A1 B1 C3 D1 E0 F0 G0 H0 I0 owner(E)=1 tuzdyk(1)=E to_move=2",
    );
}

#[test]
fn tuzdyk_never_the_ninth_hole() {
    // North's 9th hole (I) never becomes a tuzdyk: i's 10 stones make I hold 3, and nothing happens.
    let e = toguz();
    scenario(&e, "i10 I2 to_move=1", "i", "a0 b0 c0 d0 e0 f0 g0 h0 i1 A1 B1 C1 D1 E1 F1 G1 H1 I3 to_move=2");
}

#[test]
fn tk3_tk4_stones_into_a_tuzdyk_reach_its_owners_kazan_at_once() {
    // TK-3, TK-4: South sows g (5 stones): g, h, i, A, B. North's tuzdyk h is not skipped; its stone goes
    // to North's kazan at once. B ends with 1: nothing.
    let e = toguz();
    scenario(
        &e,
        "g5 A1 owner(h)=2 tuzdyk(2)=h to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g1 h0 i1 A2 B1 C0 D0 E0 F0 G0 H0 I0 kazan(2)=1 owner(h)=2 tuzdyk(2)=h to_move=2",
    );
}

#[test]
fn tk3_last_stone_into_a_tuzdyk_triggers_nothing() {
    // TK-3: the last stone falls into South's own tuzdyk B (on North's row): it goes to South's kazan, and
    // nothing else happens, though B is an opponent's hole and would now hold... nothing.
    let e = toguz();
    scenario(
        &e,
        "i3 A1 owner(B)=1 tuzdyk(1)=B to_move=1",
        "i",
        "a0 b0 c0 d0 e0 f0 g0 h0 i1 A2 B0 C0 D0 E0 F0 G0 H0 I0 kazan(1)=1 owner(B)=1 tuzdyk(1)=B to_move=2",
    );
    // A lone last stone diverted by the opponent's tuzdyk on the mover's own row: North's tuzdyk is i.
    scenario(
        &e,
        "h1 A1 owner(i)=2 tuzdyk(2)=i to_move=1",
        "h",
        "a0 b0 c0 d0 e0 f0 g0 h0 i0 A1 B0 C0 D0 E0 F0 G0 H0 I0 kazan(2)=1 owner(i)=2 tuzdyk(2)=i to_move=2",
    );
}

#[test]
fn tk5_stuck_player_ends_the_game_and_the_other_banks_his_side() {
    // TK-5: North has no stone at his turn: South adds the stones of his own holes to his kazan.
    let e = toguz();
    // South's sowing stays on his side; North, to move, has nothing.
    let mut st = position(&e, "a5 b2 kazan(1)=70 kazan(2)=81 to_move=1");
    play(&e, &mut st, "a");
    let out = st.result.as_ref().expect("the game is over");
    assert_eq!(out.scores, vec![77, 81]);
    assert_eq!(out.winners, 0b10);
    assert_eq!(out.reason, EndReason::Condition);
}

#[test]
fn tk6_82_wins_at_once() {
    // TK-6: South's capture brings his kazan to 82; the game ends though both sides still have stones.
    let e = toguz();
    let mut st = position(&e, "a3 i2 A1 E1 kazan(1)=80 kazan(2)=20 to_move=1");
    play(&e, &mut st, "i");
    let out = st.result.as_ref().expect("the game is over");
    assert_eq!(out.winners, 0b01);
    assert_eq!(out.scores, vec![82 + 4, 21], "then the board is swept: South's a and i, North's E");
}

#[test]
fn tk7_nothing_on_own_side() {
    // TK-7: a last stone making 2 (even) or 3 in the mover's own hole does nothing.
    let e = toguz();
    scenario(&e, "a3 c1 A1 to_move=1", "a", "a1 b1 c2 d0 e0 f0 g0 h0 i0 A1 B0 C0 D0 E0 F0 G0 H0 I0 to_move=2");
    scenario(&e, "a3 c2 A1 to_move=1", "a", "a1 b1 c3 d0 e0 f0 g0 h0 i0 A1 B0 C0 D0 E0 F0 G0 H0 I0 to_move=2");
}

#[test]
fn tk8_nineteen_stones_give_the_origin_a_second_stone() {
    // TK-8: 19 stones from a: a, b..i, A..I (18 holes), then a again: a holds 2, nothing is skipped.
    let e = toguz();
    scenario(&e, "a19 A1 to_move=1", "a", "a2 b1 c1 d1 e1 f1 g1 h1 i1 A2 B1 C1 D1 E1 F1 G1 H1 I1 to_move=2");
}

#[test]
fn marks_survive_the_json_position_and_old_json_still_reads() {
    let e = toguz();
    let st = position(&e, "h5 C2 D1 owner(c)=2 tuzdyk(2)=c to_move=1");
    let json = serde_json::to_string(&st).unwrap();
    assert_eq!(show(&e, &position(&e, &json)), show(&e, &st));
    // A state written before marks existed has no `marks` field: no pit is marked.
    let mut value: serde_json::Value = serde_json::from_str(&json).unwrap();
    let obj = value.as_object_mut().unwrap();
    for field in ["marks", "lifted", "diverted", "at_origin"] {
        obj.remove(field);
    }
    obj.insert("owner".into(), serde_json::json!(e.rules.initial_owner));
    let old = position(&e, &value.to_string());
    assert_eq!(show(&e, &old), "a0 b0 c0 d0 e0 f0 g0 h5 i0 A0 B0 C2 D1 E0 F0 G0 H0 I0 to_move=1");
}

#[test]
fn a_new_tuzdyk_is_told_and_drawn() {
    let e = toguz();
    let before = position(&e, "h5 C2 D1 to_move=1");
    let moves = parse_ply(&e, &before, "h").unwrap();
    let mut after = before.clone();
    for &mv in &moves {
        e.apply(&mut after, mv).unwrap();
    }
    let names = vec!["you".to_string(), "computer".to_string()];
    let told = mancala::narrate::ply(&e, &before, &moves, &after, &names);
    assert_eq!(told.text, "sowed 5 from h, ending in C; captured 3 from C to kazan(1); C becomes your tuzdyk");
    let view = mancala::board::View { names, ..mancala::board::View::plain(false) };
    let drawn = mancala::board::render_view(&e, &after, &view);
    assert!(drawn.contains("tuzdyk: C (you)\n"), "{drawn}");
}

/// ENGINE-2: a position that comes back ends the game, each player adding the stones on his side to his
/// kazan. One stone on each side: after these 18 plies the start is back.
#[test]
fn engine2_a_repeated_position_ends_the_game_each_banking_his_side() {
    let e = toguz();
    let start = "a0 b0 c0 d0 e1 f0 g0 h0 i0 A0 B0 C0 D0 E0 F1 G0 H0 I0 kazan(1)=80 kazan(2)=80 to_move=1";
    let mut st = position(&e, start);
    let plies = ["e", "F", "f", "G", "g", "H", "h", "I", "i", "A", "a", "B", "b", "C", "c", "D", "d", "E"];
    play_all(&e, &mut st, &plies[..17]);
    assert_not_over(&e, &st);
    play(&e, &mut st, plies[17]);
    assert_over(&st, &[], &[81, 81], EndReason::Repetition);
}
