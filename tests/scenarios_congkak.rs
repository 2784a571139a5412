//! Rule scenarios for Congkak: one position, one ply, the exact position after it.
//! Rules: the family rules, section 4 (CK-1 .. CK-7); in words in `docs/games/congkak.md`.
//!
//! The board is the mirror image of the traditional one (same game): South owns `a..g`, `g` next to his
//! store; North owns `A..G`, `G` next to his. South's track is `a..g store(1) A..G` (North's store skipped),
//! North's `A..G store(2) a..g`. Opposite houses: `a`-`G`, `b`-`F`, `c`-`E`, `d`-`D`, `e`-`C`, `f`-`B`, `g`-`A`.

mod common;

use common::*;
use mancala::engine::{EndReason, Engine};

fn congkak(variant: Option<&str>) -> Engine {
    engine("congkak", variant, None)
}

#[test]
fn congkak_start() {
    // Setup: 7 seeds in each of the 14 houses, 98 in all; the first round is player 1's.
    let e = congkak(None);
    let st = e.initial_state();
    assert_eq!(
        show(&e, &st),
        "a7 b7 c7 d7 e7 f7 g7 A7 B7 C7 D7 E7 F7 G7 store(1)=0 store(2)=0 to_move=1 round=1 starter=1"
    );
    assert_eq!(plies(&e, &st), ["a", "b", "c", "d", "e", "f", "g"]);
}

#[test]
fn ck1_the_players_alternate_whole_turns_from_the_start() {
    // CK-1: no simultaneous opening: South plays his whole first turn, then North his. (Which sowings g's
    // turn makes is another scenario's business: it ends, and North is to move.)
    let e = congkak(None);
    let mut st = e.initial_state();
    play(&e, &mut st, "g");
    assert_eq!(to_move(&st), 2);
}

#[test]
fn a_capture_from_an_own_empty_house_takes_the_opposite_house_and_the_last_seed() {
    // b's seed falls into c, empty and South's; E opposite holds 3: 3 + 1 go to South's store.
    let e = congkak(None);
    scenario(
        &e,
        "b1 E3 G1 to_move=1",
        "b",
        "a0 b0 c0 d0 e0 f0 g0 A0 B0 C0 D0 E0 F0 G1 store(1)=4 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn ck2_an_own_empty_house_with_the_opposite_empty_captures_nothing() {
    // CK-2: b's seed falls into c, empty and South's, but E opposite is empty: the seed stays, the turn ends.
    let e = congkak(None);
    scenario(
        &e,
        "b1 G1 to_move=1",
        "b",
        "a0 b0 c1 d0 e0 f0 g0 A0 B0 C0 D0 E0 F0 G1 store(1)=0 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn ck2_flag_bank_lone_seed_stores_the_last_seed_alone() {
    // CK-2 flag `bank_lone_seed`: the same sowing banks the lone seed.
    let e = congkak(Some("bank-lone-seed"));
    scenario(
        &e,
        "b1 G1 to_move=1",
        "b",
        "a0 b0 c0 d0 e0 f0 g0 A0 B0 C0 D0 E0 F0 G1 store(1)=1 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn ck3_a_capture_needs_no_lap_past_the_store() {
    // CK-3: the capture of the first scenario happens though the sowing never reached South's store.
    let e = congkak(None);
    let st = position(&e, "b1 E3 G1 to_move=1");
    assert_eq!(
        outcomes_of_plies(&e, &st),
        ["a0 b0 c0 d0 e0 f0 g0 A0 B0 C0 D0 E0 F0 G1 store(1)=4 store(2)=0 to_move=2 round=1 starter=1"]
    );
}

#[test]
fn ck3_flag_capture_after_lap_captures_only_after_passing_the_own_store() {
    // CK-3 flag `capture_after_lap`: without a seed into store(1) this turn, c's seed just stays ...
    let e = congkak(Some("capture-after-lap"));
    scenario(
        &e,
        "b1 E3 G1 to_move=1",
        "b",
        "a0 b0 c1 d0 e0 f0 g0 A0 B0 C0 D0 E3 F0 G1 store(1)=0 store(2)=0 to_move=2 round=1 starter=1",
    );
    // ... while g's 9 seeds pass the store (store(1), A..G) and end in a, empty, with G opposite: captured.
    scenario(
        &e,
        "g9 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A1 B1 C1 D1 E1 F1 G0 store(1)=3 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn a_relay_goes_on_from_an_occupied_house_of_the_mover() {
    // a's seed makes 3 in b: b is lifted and sown into c, d, e; e was empty and South's, C opposite holds
    // 5: e's seed and C's 5 are stored.
    let e = congkak(None);
    scenario(
        &e,
        "a1 b2 C5 G1 to_move=1",
        "a",
        "a0 b0 c1 d1 e0 f0 g0 A0 B0 C0 D0 E0 F0 G1 store(1)=6 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn a_relay_goes_on_from_an_occupied_house_of_the_opponent() {
    // g's 2 seeds: store(1), then A, which held 3: A's 4 are sown into B..E; E was empty and North's: the
    // turn ends, the seed stays.
    let e = congkak(None);
    scenario(
        &e,
        "g2 A3 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A0 B1 C1 D1 E1 F0 G0 store(1)=1 store(2)=0 to_move=2 round=1 starter=1",
    );
}

#[test]
fn ck4_a_last_seed_in_the_own_store_sows_again_and_the_store_is_never_lifted() {
    // CK-4: g's seed ends in South's store: no relay from it; South sows again, from a, his only house left.
    let e = congkak(None);
    let st = scenario(
        &e,
        "g1 a1 A1 to_move=1",
        "g",
        "a1 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=1 store(2)=0 to_move=1 round=1 starter=1",
    );
    assert_eq!(plies(&e, &st), ["a"]);
    // With no seed left in his houses, the turn passes instead.
    let st = scenario(
        &e,
        "g1 A1 to_move=1",
        "g",
        "a0 b0 c0 d0 e0 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=1 store(2)=0 to_move=2 round=1 starter=1",
    );
    assert!(st.result.is_none());
}

#[test]
fn ck5_a_round_ends_and_is_refilled_from_the_store_end_the_winner_starting() {
    // The round ends when the player to move has no seeds in his houses: after North's A, South has none.
    // North stores his own (B's seed): 41 against 51. CK-5: South fills g, f, e, d, c with his 41 and keeps
    // 6: a and b, which he cannot fill, are burnt (CK-6). North fills all seven and keeps 2. North won the
    // round and starts round 2.
    let e = congkak(None);
    let mut st = position(&e, "g1 A1 store(1)=40 store(2)=50 to_move=1");
    play_all(&e, &mut st, &["g", "A"]);
    assert_eq!(
        show(&e, &st),
        "a0 b0 c7 d7 e7 f7 g7 A7 B7 C7 D7 E7 F7 G7 store(1)=6 store(2)=2 burnt=a,b to_move=2 round=2 starter=2"
    );
    assert_eq!(st.rounds.len(), 1);
    assert_eq!((st.rounds[0].winners, st.rounds[0].scores.clone()), (0b10, vec![41, 51]));
}

#[test]
fn ck5_after_a_drawn_round_the_other_player_starts() {
    // 49-49: nobody won the round South started, so North starts the next; each fills all his houses.
    let e = congkak(None);
    let mut st = position(&e, "g1 A1 store(1)=48 store(2)=48 to_move=1");
    play_all(&e, &mut st, &["g", "A"]);
    assert_eq!(
        show(&e, &st),
        "a7 b7 c7 d7 e7 f7 g7 A7 B7 C7 D7 E7 F7 G7 store(1)=0 store(2)=0 to_move=2 round=2 starter=2"
    );
    assert_eq!(st.rounds[0].winners, 0);
}

#[test]
fn ck5_a_player_who_cannot_fill_one_house_loses_the_match() {
    // North ends the round with 6 seeds: not one house can be filled, and South wins the match, 92 to 6.
    let e = congkak(None);
    let mut st = position(&e, "g1 A1 store(1)=91 store(2)=5 to_move=1");
    play_all(&e, &mut st, &["g", "A"]);
    assert_eq!(result(&st), Some((vec![1], vec![92, 6], EndReason::Match)));
}

#[test]
fn ck5_flag_one_round_a_single_round_49_all_is_a_draw() {
    // CK-5 flag `rounds: 1`: the round's end is the game's; 49-49 is a draw, and nothing is refilled.
    let e = congkak(Some("one-round"));
    let mut st = position(&e, "g1 A1 store(1)=48 store(2)=48 to_move=1");
    play_all(&e, &mut st, &["g", "A"]);
    assert_eq!(result(&st), Some((vec![], vec![49, 49], EndReason::RoundLimit)));
    assert_eq!(
        show(&e, &st),
        "a0 b0 c0 d0 e0 f0 g0 A0 B0 C0 D0 E0 F0 G0 store(1)=49 store(2)=49 to_move=1 round=1 starter=1"
    );
}

#[test]
fn ck6_a_burnt_house_is_skipped_by_every_sowing() {
    // CK-6: North's G sows into his store, passes over South's burnt a and b, and lands in c, which held 1:
    // relay into d and e; e was empty and South's: the turn ends.
    let e = congkak(None);
    scenario(
        &e,
        "G2 c1 A1 burnt=a,b to_move=2 round=2",
        "G",
        "a0 b0 c0 d1 e1 f0 g0 A1 B0 C0 D0 E0 F0 G0 store(1)=0 store(2)=1 burnt=a,b to_move=1 round=2 starter=2",
    );
}

#[test]
fn ck6_a_burnt_house_revives_only_when_a_later_refill_fills_it() {
    // CK-6: South won 51 to 41: his refill fills every house, a and b too, which lose the mark; North's 41
    // fill G..C and burn B and A.
    let e = congkak(None);
    let mut st = position(&e, "g1 A1 store(1)=50 store(2)=40 burnt=a,b to_move=1 round=2");
    play_all(&e, &mut st, &["g", "A"]);
    assert_eq!(
        show(&e, &st),
        "a7 b7 c7 d7 e7 f7 g7 A0 B0 C7 D7 E7 F7 G7 store(1)=2 store(2)=6 burnt=A,B to_move=1 round=3 starter=1"
    );
}

#[test]
fn ck7_a_player_with_burnt_houses_plays_in_turn() {
    // CK-7 (the 1908 waiting custom not adopted): South, with a and b burnt, moves as soon as it is his turn,
    // from any of his houses with seeds.
    let e = congkak(None);
    let st = position(&e, "c7 d7 e7 f7 g7 A7 B7 C7 D7 E7 F7 G7 store(1)=6 store(2)=2 burnt=a,b to_move=1 round=2");
    assert_eq!(plies(&e, &st), ["c", "d", "e", "f", "g"]);
}

#[test]
fn ck1_flag_opening_from_the_house_next_to_the_store() {
    // CK-1 flag `opening_from: pit_next_to_store`: each player's first sowing of the match is from house 7.
    let e = congkak(Some("opening-from-pit-next-to-store"));
    let mut st = e.initial_state();
    assert_eq!(plies(&e, &st), ["g"]);
    play(&e, &mut st, "g");
    assert_eq!(plies(&e, &st), ["G"]);
}
