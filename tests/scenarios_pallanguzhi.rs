//! Rule scenarios for Pallanguzhi: one position, one ply, the exact position after it.
//! Rules: the family rules, section 6 (PG-1 .. PG-7); in words in `docs/games/pallanguzhi.md`.
//!
//! The track: `a b c d e f g A B C D E F G` round the board, counter-clockwise; seeds go to `store(1)`,
//! `store(2)`, off the board. South (player 1) owns a..g, North (player 2) A..G.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn pallanguzhi(variant: Option<&str>) -> Engine {
    engine("pallanguzhi", variant, None)
}

#[test]
fn pallanguzhi_start() {
    // Setup: 6 seeds in each of the 14 pits (84), South moves first from any pit of his.
    let e = pallanguzhi(None);
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a6 b6 c6 d6 e6 f6 g6 A6 B6 C6 D6 E6 F6 G6 to_move=1 round=1 starter=1");
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d", "e", "f", "g"]);
}

#[test]
fn seeds_5_flag_starts_with_five_a_pit() {
    // Setup flag `seeds: 5`: 70 seeds.
    let e = pallanguzhi(Some("seeds-5"));
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a5 b5 c5 d5 e5 f5 g5 A5 B5 C5 D5 E5 F5 G5 to_move=1 round=1 starter=1");
}

#[test]
fn pg1_the_next_pit_is_lifted_and_sown_on_from_the_pit_after_it() {
    // PG-1: a's seed falls into b. The next pit, c, holds 2: c is lifted (b keeps its seed) and sown from d,
    // into d and e. After e come f and g, both empty: the turn ends.
    let e = pallanguzhi(None);
    scenario(&e, "a1 c2 A1 to_move=1", "a", "a0 b1 c0 d1 e1 f0 g0 A1 B0 C0 D0 E0 F0 G0 to_move=2 round=1 starter=1");
}

#[test]
fn pg1_flag_relay_landing_lifts_the_pit_the_last_seed_fell_into() {
    // PG-1 flag (Durai, Ludii): a's seed falls into b, which held 1: b's 2 are lifted and sown into c and d.
    // d was empty: its next pit, e, is empty too, so nothing is captured and the turn ends.
    let e = pallanguzhi(Some("relay-landing"));
    scenario(
        &e,
        "a1 b1 A1 to_move=1 round=1 starter=1",
        "a",
        "a0 b0 c1 d1 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 to_move=2 round=1 starter=1",
    );
    // The same position in the default game: b is not lifted, and c and d, both empty, end the turn.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a1 b1 A1 to_move=1 round=1 starter=1",
        "a",
        "a0 b2 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg1_flag_relay_landing_captures_the_next_pit_after_an_empty_one() {
    // PG-1 flag: a's seed falls into b, empty: the next pit, c, is captured (3). Play goes on as if the last
    // seed had fallen into c, now empty: its next pit d is empty, so the turn ends.
    let e = pallanguzhi(Some("relay-landing"));
    scenario(
        &e,
        "a1 c3 A1 to_move=1",
        "a",
        "a0 b1 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=3 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg2_an_empty_next_pit_captures_the_pit_after_it_and_play_goes_on_from_there() {
    // PG-2: a's seed falls into b; c is empty and d holds 2: d's 2 go to South's store. Play goes on as if
    // the last seed had fallen into d: its next pit e holds 3, so e is lifted and sown from f: f, g, A. After
    // A come B and C, both empty: the turn ends.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a1 d2 e3 A1 to_move=1",
        "a",
        "a0 b1 c0 d0 e0 f1 g1 A2 B0 C0 D0 E0 F0 G0 store(1)=2 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg2_flag_capture_ends_turn() {
    // PG-2 flag (Durai, Ludii): the same capture of d's 2, and the turn ends there: e keeps its 3.
    let e = pallanguzhi(Some("capture-ends-turn"));
    scenario(
        &e,
        "a1 d2 e3 A1 to_move=1",
        "a",
        "a0 b1 c0 d0 e3 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=2 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg2_two_empty_pits_end_the_turn() {
    // PG-2, case 3: a's seed falls into b; c and d are both empty: nothing is lifted or captured.
    let e = pallanguzhi(None);
    scenario(&e, "a1 A1 to_move=1", "a", "a0 b1 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 to_move=2 round=1 starter=1");
}

#[test]
fn pg3_pasu_on_an_intermediate_drop_goes_to_the_sower() {
    // PG-3: a's first seed makes 4 in b: those 4 go to South's store at once, and the second seed falls into
    // c. d and e are empty: the turn ends.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a2 b3 A1 to_move=1",
        "a",
        "a0 b0 c1 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=4 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg3_pasu_in_the_opponents_pit_goes_to_the_sower() {
    // PG-3: g's first seed makes 4 in North's A: South takes them. The last seed falls into B; its next pit
    // C holds 1, which is lifted and sown into D; E and F are empty: the turn ends.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "g2 A3 C1 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A0 B1 C0 D1 E0 F0 G0 store(1)=4 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg3_flag_pasu_to_owner_goes_to_the_owner_of_the_pit() {
    // PG-3 flag (Durai, Ludii): the same move; the 4 made in A go to North, whose pit it is.
    let e = pallanguzhi(Some("pasu-to-owner"));
    scenario(
        &e,
        "g2 A3 C1 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A0 B1 C0 D1 E0 F0 G0 store(2)=4 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg4_pasu_on_the_last_drop_then_the_next_pit_rule_from_the_emptied_pit() {
    // PG-4: a's only seed makes 4 in b: they go to the store, and b is empty. The next-pit rule looks on from
    // b: c is empty and d holds 2, which are captured; from d, e and f are empty: the turn ends.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a1 b3 d2 A1 to_move=1",
        "a",
        "a0 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=6 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg4_pasu_on_the_last_drop_then_a_relay_from_the_next_pit() {
    // PG-4: a's only seed makes 4 in b, taken; b's next pit c holds 2: c is lifted and sown into d and e.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a1 b3 c2 A1 to_move=1",
        "a",
        "a0 b0 c0 d1 e1 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=4 to_move=2 round=1 starter=1",
    );
}

#[test]
fn pg5_a_single_seed_may_be_sown() {
    // PG-5: every pit of South's with a seed is a move, a lone seed too.
    let e = pallanguzhi(None);
    assert_eq!(legal(&e, "a1 c5 A1 to_move=1"), ["a", "c"]);
}

#[test]
fn pg6_a_lap_of_fourteen_drops_its_last_seed_into_its_origin() {
    // PG-6: a's 14 seeds go round b..g and A..G and the 14th falls back into a: the origin is not skipped.
    // Then relays of one seed from b, d, f, A, C, E and G make 2 in c, e, g, B, D, F and a; from a, b is empty
    // and c holds 2: captured, and from there e, g, B, D, F and a in turn. Everything is South's, and North,
    // left without a seed, ends the round. At the refill South fills a and b (2 left over), North nothing:
    // he cannot fill a single pit and loses the match, 14 to 0.
    let e = pallanguzhi(None);
    let st = scenario(
        &e,
        "a14 to_move=1",
        "a",
        "a6 b6 c0 d0 e0 f0 g0 A0 B0 C0 D0 E0 F0 G0 store(1)=2 rubbish=c,d,e,f,g,A,B,C,D,E,F,G to_move=2 round=1 starter=1",
    );
    assert_over(&st, &[1], &[14, 0], EndReason::Match);
}

#[test]
fn pg7_146_shells_starts_with_two_in_each_middle_pit() {
    // PG-7: 12 seeds a pit, but 2 in d and D, the middle pit of each row.
    let e = pallanguzhi(Some("146-shells"));
    let st = e.initial_state();
    assert_eq!(show(&e, &st), "a12 b12 c12 d2 e12 f12 g12 A12 B12 C12 D2 E12 F12 G12 to_move=1 round=1 starter=1");
}

#[test]
fn pg7_146_shells_later_rounds_refill_as_at_the_setup() {
    // PG-7: South to move has no seed: the first round ends at once, North banks A's seed. Each refills from
    // his left as at the setup, 12 a pit and 2 in the middle one: South's 80 fill his row (74), 6 left over;
    // North's 68 fill A..F (62), G is rubbish.
    let e = pallanguzhi(Some("146-shells"));
    let st = position(&e, "A1 store(1)=80 store(2)=67 to_move=1");
    assert_eq!(
        show(&e, &st),
        "a12 b12 c12 d2 e12 f12 g12 A12 B12 C12 D2 E12 F12 G0 store(1)=6 store(2)=6 rubbish=G to_move=2 round=2 \
         starter=2"
    );
    // From the left: with 12 left after c, d takes its 2 and e cannot be filled (10 left), however the
    // seeds would have sufficed for e alone.
    let st = position(&e, "A1 store(1)=48 store(2)=99 to_move=1");
    assert!(show(&e, &st).starts_with("a12 b12 c12 d2 e0 f0 g0 "), "{}", show(&e, &st));
    assert!(show(&e, &st).contains("store(1)=10 "), "{}", show(&e, &st));
}

#[test]
fn pg7_146_shells_makes_pasu_at_six() {
    // PG-7: a's seed makes 6 in b: those 6 go to the store (at 4 nothing happens). From b, c and d are
    // empty: the turn ends.
    let e = pallanguzhi(Some("146-shells"));
    scenario(
        &e,
        "a1 b5 A1 to_move=1",
        "a",
        "a0 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=6 to_move=2 round=1 starter=1",
    );
    scenario(&e, "a1 b3 A1 to_move=1", "a", "a0 b4 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 to_move=2 round=1 starter=1");
}

#[test]
fn rubbish_pits_are_passed_over_by_the_sowing() {
    // Rounds: c is out of play (rubbish). a's 2 seeds go into b and, passing over c, into d; e and f are
    // empty: the turn ends.
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a2 b1 d1 A1 rubbish=c to_move=1",
        "a",
        "a0 b2 c0 d2 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 rubbish=c to_move=2 round=1 starter=1",
    );
}

#[test]
fn rubbish_pits_are_passed_over_by_next() {
    // Rounds: a's seed falls into b; with c out of play, the next pit is d, holding 2: d is lifted and sown
    // into e and f. (Were c in play, it would be the empty next pit, and d would be captured.)
    let e = pallanguzhi(None);
    scenario(
        &e,
        "a1 d2 B1 rubbish=c to_move=1",
        "a",
        "a0 b1 c0 d0 e1 f1 g0 A0 B1 C0 D0 E0 F0 G0 rubbish=c to_move=2 round=1 starter=1",
    );
}

#[test]
fn the_round_ends_when_the_player_to_move_has_no_seed_and_the_other_takes_his_own() {
    // Round end: f's seed falls into g; A is empty and B holds North's last 2, captured. North, to move, has
    // no seed: the round ends, and South takes g's seed into his store: 33 against 40. Refill: South fills
    // a..e with 6 each (3 left over), f and g are rubbish; North fills A..F (4 left over), G is rubbish. The
    // first mover alternates: North starts round 2.
    let e = pallanguzhi(None);
    let st = scenario(
        &e,
        "f1 B2 store(1)=30 store(2)=40 to_move=1",
        "f",
        "a6 b6 c6 d6 e6 f0 g0 A6 B6 C6 D6 E6 F6 G0 store(1)=3 store(2)=4 rubbish=f,g,G to_move=2 round=2 starter=2",
    );
    assert_not_over(&e, &st);
}

#[test]
fn engine1_a_continue_that_comes_back_to_its_position_draws_the_game() {
    // ENGINE-1, the guard of `continue at`: a capture that takes nothing and goes on where it was would go
    // round for ever. The sowing comes back to a position it has been in, and under `draw when endless` the
    // game is drawn (without it, the move would not be allowed).
    let source = mancala::shipped::GAMES
        .iter()
        .find(|g| g.name == "pallanguzhi")
        .map(|g| {
            g.text
                .replacen("capture when count(next) = 0 and count(next(next)) > 0", "capture when count(next) = 0", 1)
                .replacen("continue at next(next)", "continue at here", 1)
        })
        .expect("Pallanguzhi is shipped");
    let e = mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    // a's seed falls into b; c is empty: the capture takes c's nothing and goes on at b, again and again.
    let mut st = position(&e, "a1 A1 to_move=1");
    play(&e, &mut st, "a");
    assert_eq!(result(&st).map(|r| r.2), Some(EndReason::Endless));
    // Without `draw when endless`, such a sowing is not a move: here no sowing ends, so none is offered.
    let e =
        mancala::compile(&source.replacen("draw when endless", "", 1), None, None).unwrap_or_else(|d| panic!("{d:?}"));
    assert!(legal(&e, "a1 A1 to_move=1").is_empty());
}

#[test]
fn engine1_a_never_ending_move_draws_the_match_before_the_round_ends() {
    // ENGINE-1 before a round's end rules: South's `f` would never end. It stops with North's row empty,
    // which would end the round (and, North unable to refill a pit, the match, to South); the never-ending
    // move is judged first: the match is a draw, whatever the end rules written before `draw when endless`.
    let e = pallanguzhi(None);
    let mut st =
        position(&e, "a13 b18 c2 d6 e0 f4 g12 store(1)=12 store(2)=3 rubbish=B,C,D,E,F,G to_move=1 round=2 starter=2");
    play(&e, &mut st, "f");
    let (winners, _, reason) = result(&st).expect("the match is over");
    assert_eq!((winners, reason), (vec![], EndReason::Endless));
}

/// A small board with stores on the track, for `next` past what a sowing skips.
fn next_past_skips(skip_origin: bool) -> Engine {
    let source = format!(
        "game \"Next\"
players 2
board two_rows 3 with stores
pieces seeds
setup {{
  every pit: 1
}}
turn {{
  sow {{
    from pits(mover) where count > 0
    skip store(opponent)
    {}
    capture when next = store(mover) {{
      take to store(mover)
    }}
    capture when count(next) > 0 {{
      take from next to store(mover)
    }}
  }}
}}
end {{
  when count(pits(mover)) = 0
  sweep pits to store(owner)
}}
score count(store(player))
",
        if skip_origin { "skip origin" } else { "" }
    );
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"))
}

#[test]
fn next_passes_over_the_store_the_sowing_skips() {
    // `next`: c's 4 seeds go into store(1), A, B, C. After C, South's sowing passes over North's store, so
    // `next` is a: its seed is taken. Were the store not passed over, `next` would be the empty store(2).
    let e = next_past_skips(false);
    scenario(&e, "c4 a1 A0 B0 C0 to_move=1", "c", "a0 b0 c0 A1 B1 C1 store(1)=2 store(2)=0 to_move=2");
}

#[test]
fn next_passes_over_the_origin_under_skip_origin() {
    // `next` with `skip origin`: c's 6 seeds go into store(1), A, B, C, a, b. After b comes c, the origin,
    // which the lap passes over: `next` is store(1), so b's seed goes to the store. Without `skip origin`,
    // `next` is c, empty: nothing is taken.
    let e = next_past_skips(true);
    scenario(&e, "c6 a0 b0 A1 B0 C0 to_move=1", "c", "a1 b0 c0 A2 B1 C1 store(1)=2 store(2)=0 to_move=2");
    let e = next_past_skips(false);
    scenario(&e, "c6 a0 b0 A1 B0 C0 to_move=1", "c", "a1 b1 c0 A2 B1 C1 store(1)=1 store(2)=0 to_move=2");
}
