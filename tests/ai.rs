//! Computer players and the solitaire solver.

use std::time::{Duration, Instant};

use mancala::ai::{self, AiError, AiKind, Budget, Player, SeatAi};
use mancala::engine::{Engine, Move, State};
use mancala::solve::{ring_symmetric, solve, solve_with, SolveOptions, SolveResult, Symmetry, Verdict};
use rand::rngs::SmallRng;
use rand::SeedableRng;

fn game(name: &str, variant: Option<&str>, players: Option<u8>) -> Engine {
    let path = format!("{}/games/{name}.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    mancala::compile(&source, variant, players).unwrap_or_else(|d| panic!("{name}: {d:?}"))
}

/// The Gulek Solo start with only these pits (numbered from 1, as on the board) filled.
fn solo_position(engine: &Engine, pits: &[(usize, u8)]) -> State {
    let text: Vec<String> = pits.iter().map(|(p, n)| format!("{p}={n}")).collect();
    let st = mancala::notation::parse_position(engine, &text.join(" ")).expect("a Gulek Solo position");
    for (p, n) in pits {
        assert_eq!(st.counts[p - 1], *n, "pit {p}");
    }
    assert_eq!(
        st.counts[..15].iter().map(|&c| c as u32).sum::<u32>(),
        pits.iter().map(|&(_, n)| n as u32).sum::<u32>()
    );
    st
}

/// Replays a solver's line with checked moves: it must end in a won game, which the solver sees as solved.
fn replay(engine: &Engine, start: &State, line: &[Vec<Move>]) {
    let mut st = start.clone();
    for (i, ply) in line.iter().enumerate() {
        let before = st.ply;
        for &mv in ply {
            engine.apply(&mut st, mv).unwrap_or_else(|e| panic!("ply {i}: {mv:?}: {e}"));
        }
        assert!(st.ply > before || st.result.is_some(), "ply {i} did not end");
    }
    let outcome = st.result.as_ref().expect("the line ends the game");
    assert_ne!(outcome.winners, 0, "the line wins");
    assert_eq!(solve(engine, &st, 10).verdict, Verdict::Solved(Vec::new()));
}

const SOLO_VARIANTS: [Option<&str>; 4] = [None, Some("v1"), Some("v2"), Some("v3")];

/// Solves without and with symmetry: the verdicts must agree (the lines may differ, not their lengths).
fn solve_both(engine: &Engine, start: &State, what: &str) -> SolveResult {
    let t = Instant::now();
    let plain = solve(engine, start, 1_000_000);
    let elapsed = t.elapsed();
    let sym = solve_with(
        engine,
        start,
        &SolveOptions { max_states: 1_000_000, symmetry: Symmetry::Ring, ..SolveOptions::default() },
    );
    eprintln!(
        "{what}: {} plies, {} states in {elapsed:?} ({} with symmetry)",
        plain.line().map_or("-".to_string(), |l| l.len().to_string()),
        plain.states,
        sym.states
    );
    assert_eq!(plain.line().map(|l| l.len()), sym.line().map(|l| l.len()), "{what}");
    assert_eq!(plain.is_solved(), sym.is_solved(), "{what}");
    assert!(sym.states <= plain.states, "{what}");
    if let Some(line) = sym.line() {
        replay(engine, start, line);
    }
    plain
}

#[test]
fn solver_three_one_adjacent_is_solvable_in_the_simple_variant_only() {
    for variant in SOLO_VARIANTS {
        let engine = game("gulek-solo", variant, None);
        let start = solo_position(&engine, &[(1, 3), (2, 1)]);
        let r = solve_both(&engine, &start, &format!("(3,1) {variant:?}"));
        match variant {
            None => {
                let line = r.line().unwrap_or_else(|| panic!("(3,1) simple: {:?}", r.verdict));
                replay(&engine, &start, line);
            }
            _ => assert_eq!(r.verdict, Verdict::Unsolvable, "(3,1) {variant:?}"),
        }
    }
}

#[test]
fn solver_five_three_five_apart_is_solvable_in_every_variant() {
    for variant in SOLO_VARIANTS {
        let engine = game("gulek-solo", variant, None);
        let start = solo_position(&engine, &[(1, 5), (6, 3)]);
        let r = solve_both(&engine, &start, &format!("(5,3) {variant:?}"));
        let line = r.line().unwrap_or_else(|| panic!("(5,3) {variant:?}: {:?}", r.verdict));
        replay(&engine, &start, line);
    }
}

/// The same positions elsewhere on the ring, the other way round: the same verdicts.
#[test]
fn solver_verdicts_do_not_depend_on_where_the_pits_are() {
    for variant in SOLO_VARIANTS {
        let engine = game("gulek-solo", variant, None);
        for (pits, solvable) in [([(9, 3), (8, 1)], variant.is_none()), ([(12, 5), (2, 3)], true)] {
            let start = solo_position(&engine, &pits);
            assert_eq!(solve(&engine, &start, 1_000_000).is_solved(), solvable, "{pits:?} {variant:?}");
        }
        // Three apart: (3,1) is solvable in the simple variant and V2, (5,3) in the simple variant only.
        let start = solo_position(&engine, &[(4, 3), (1, 1)]);
        assert_eq!(solve(&engine, &start, 1_000_000).is_solved(), matches!(variant, None | Some("v2")), "{variant:?}");
    }
}

/// Merging rotations and reflections changes no verdict and searches fewer positions.
#[test]
fn solver_with_ring_symmetry() {
    let engine = game("gulek-solo", Some("v2"), None);
    let start = solo_position(&engine, &[(1, 3), (3, 2), (6, 4), (10, 1)]);
    let r = solve_both(&engine, &start, "(3,_,2,_,_,4,_,_,_,1) v2");
    assert_eq!(r.line().map(|l| l.len()), Some(13));
    // Exhaustive: about 850,000 positions one by one, 30 times fewer up to symmetry.
    let engine = game("gulek-solo", None, None);
    let start = solo_position(&engine, &[(1, 3), (3, 2), (6, 4)]);
    let r = solve_with(
        &engine,
        &start,
        &SolveOptions { max_states: 100_000, symmetry: Symmetry::Ring, ..SolveOptions::default() },
    );
    assert_eq!(r.verdict, Verdict::Unsolvable);
    assert!(r.states < 50_000, "{}", r.states);
}

#[test]
fn ring_symmetry_only_where_every_pit_is_alike() {
    assert!(ring_symmetric(&game("gulek-solo", Some("v3"), None)));
    assert!(ring_symmetric(&game("gulek-single", None, None)));
    assert!(!ring_symmetric(&game("kalah", None, None)));
}

#[test]
fn solver_stops_at_the_state_limit() {
    // Gulek Solo's V1 needs some 2,000 positions before its first win.
    let engine = game("gulek-solo", Some("v1"), None);
    let r = solve(&engine, &engine.initial_state(), 500);
    assert_eq!(r.verdict, Verdict::Unknown);
    assert_eq!(r.states, 500);
}

// ---------------------------------------------------------------- players

/// Plays one game; returns the final state.
fn play(engine: &Engine, kinds: &[AiKind], seed: u64) -> State {
    play_some(engine, kinds, seed, 1_000_000)
}

/// Plays at most `decisions` decisions of a game; returns the state reached.
fn play_some(engine: &Engine, kinds: &[AiKind], seed: u64, decisions: u64) -> State {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut players: Vec<Box<dyn Player>> = kinds.iter().map(|k| k.player(engine, &mut rng).expect("player")).collect();
    ai::play_game(engine, &engine.initial_state(), &mut players, decisions)
}

/// Games won by `kind` against `random`, alternating seats: (won, drawn, lost).
fn match_vs_random(engine: &Engine, kind: AiKind, games: u64) -> (u32, u32, u32) {
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    for g in 0..games {
        let seat = (g % 2) as u8;
        let kinds = if seat == 0 { [kind, AiKind::Random] } else { [AiKind::Random, kind] };
        let st = play(engine, &kinds, 1000 + g);
        let o = st.result.expect("the game ends");
        if o.winners == 1 << seat {
            won += 1;
        } else if o.winners == 0 || o.winners & (1 << seat) != 0 {
            drawn += 1;
        } else {
            lost += 1;
        }
    }
    (won, drawn, lost)
}

#[test]
fn mcts_beats_random_at_kalah() {
    let engine = game("kalah", None, None);
    let t = Instant::now();
    let (w, d, l) = match_vs_random(&engine, AiKind::Mcts(Budget::Playouts(400)), 20);
    eprintln!("mcts:400 vs random at Kalah: {w}-{d}-{l} in {:?}", t.elapsed());
    assert!(w >= 18, "mcts won {w} of 20 ({d} drawn, {l} lost)");
}

#[test]
fn alphabeta_beats_random_at_kalah() {
    let engine = game("kalah", None, None);
    let t = Instant::now();
    let (w, d, l) = match_vs_random(&engine, AiKind::AlphaBeta(4), 20);
    eprintln!("alphabeta:4 vs random at Kalah: {w}-{d}-{l} in {:?}", t.elapsed());
    assert!(w >= 18, "alphabeta won {w} of 20 ({d} drawn, {l} lost)");
}

#[test]
fn greedy_beats_random_at_kalah() {
    let engine = game("kalah", None, None);
    let (w, d, l) = match_vs_random(&engine, AiKind::Greedy, 20);
    eprintln!("greedy vs random at Kalah: {w}-{d}-{l}");
    assert!(w >= 14, "greedy won {w} of 20 ({d} drawn, {l} lost)");
}

/// Every kind finishes a game of every two-player game, multi-decision turns (Perlen's order of beads and
/// chosen captures, Goré's offers) included.
#[test]
fn every_kind_plays_every_game() {
    for name in ["kalah", "oware", "gore", "perlen", "gulek"] {
        let engine = game(name, None, None);
        for kind in [AiKind::Greedy, AiKind::Mcts(Budget::Playouts(20)), AiKind::AlphaBeta(2)] {
            let st = play(&engine, &[kind, AiKind::Random], 7);
            assert!(st.result.is_some(), "{name}: {kind} did not finish");
        }
    }
}

#[test]
fn mcts_plays_solitaires_and_many_players() {
    let engine = game("gulek-solo", None, None);
    let st = play(&engine, &[AiKind::Mcts(Budget::Playouts(20))], 3);
    assert!(st.result.is_some());
    let engine = game("gulek", Some("short"), Some(4));
    let kinds = [AiKind::Mcts(Budget::Playouts(10)), AiKind::Random, AiKind::Greedy, AiKind::Random];
    let st = play(&engine, &kinds, 3);
    assert!(st.result.is_some());
}

#[test]
fn alphabeta_refuses_more_than_two_players() {
    let engine = game("gulek", None, Some(3));
    let mut rng = SmallRng::seed_from_u64(1);
    let err = AiKind::AlphaBeta(3).player(&engine, &mut rng).err();
    assert_eq!(err, Some(AiError::TooManyPlayers { players: 3 }));
    assert!(AiKind::Mcts(Budget::Playouts(10)).player(&engine, &mut rng).is_ok());
}

#[test]
fn same_seed_same_choices() {
    for name in ["kalah", "perlen", "gore"] {
        let engine = game(name, None, None);
        for kind in [AiKind::Random, AiKind::Greedy, AiKind::Mcts(Budget::Playouts(50)), AiKind::AlphaBeta(3)] {
            // Self-play between good players can go on for thousands of plies: the first 80 decisions will do.
            let a = play_some(&engine, &[kind, kind], 42, 80);
            let b = play_some(&engine, &[kind, kind], 42, 80);
            assert_eq!(a, b, "{name}: {kind}");
            assert!(a.ply > 0);
        }
        // A different seed plays a different random game (the check that seeds are used at all).
        let a = play(&engine, &[AiKind::Random, AiKind::Random], 1);
        let b = play(&engine, &[AiKind::Random, AiKind::Random], 2);
        assert_ne!(a, b, "{name}");
    }
}

#[test]
fn a_time_budget_stops_in_time() {
    let engine = game("kalah", None, None);
    let mut rng = SmallRng::seed_from_u64(5);
    let mut p = AiKind::Mcts(Budget::Time(Duration::from_millis(50))).player(&engine, &mut rng).unwrap();
    let st = engine.initial_state();
    let t = Instant::now();
    let mv = p.choose(&engine, &st).expect("a decision");
    assert!(t.elapsed() < Duration::from_millis(500), "{:?}", t.elapsed());
    engine.apply(&mut st.clone(), mv).expect("a legal move");
}

#[test]
fn kinds_from_text() {
    let cases = [
        ("random", AiKind::Random),
        ("greedy", AiKind::Greedy),
        ("mcts", AiKind::Mcts(Budget::Playouts(ai::DEFAULT_PLAYOUTS))),
        ("mcts:2000", AiKind::Mcts(Budget::Playouts(2000))),
        ("MCTS:2k", AiKind::Mcts(Budget::Playouts(2000))),
        ("mcts:500ms", AiKind::Mcts(Budget::Time(Duration::from_millis(500)))),
        ("mcts:2s", AiKind::Mcts(Budget::Time(Duration::from_secs(2)))),
        ("alphabeta", AiKind::AlphaBeta(ai::DEFAULT_DEPTH)),
        ("alphabeta:6", AiKind::AlphaBeta(6)),
        ("ab:2", AiKind::AlphaBeta(2)),
    ];
    for (text, kind) in cases {
        assert_eq!(text.parse::<AiKind>(), Ok(kind), "{text}");
        assert_eq!(kind.to_string().parse::<AiKind>(), Ok(kind), "{kind}");
    }
    for bad in ["", "minimax", "mcts:", "mcts:0", "mcts:-3", "mcts:fast", "alphabeta:0", "random:3", "greedy:1"] {
        assert!(bad.parse::<AiKind>().is_err(), "{bad:?}");
    }
    assert_eq!("2=mcts:2000".parse::<SeatAi>(), Ok(SeatAi { seat: 1, kind: AiKind::Mcts(Budget::Playouts(2000)) }));
    assert_eq!("1=random".parse::<SeatAi>().map(|s| s.to_string()), Ok("1=random".to_string()));
    for bad in ["mcts", "0=random", "9=random", "x=random", "2=foo"] {
        assert!(bad.parse::<SeatAi>().is_err(), "{bad:?}");
    }
}

#[test]
fn a_whole_ply_by_one_player() {
    let engine = game("perlen", None, None);
    let mut rng = SmallRng::seed_from_u64(9);
    let mut p = AiKind::Greedy.player(&engine, &mut rng).unwrap();
    let mut st = engine.initial_state();
    let moves = ai::play_ply(p.as_mut(), &engine, &mut st);
    assert!(!moves.is_empty());
    assert_eq!(st.ply, 1);
}

// ---------------------------------------------------------------- the solver's bounds

/// Every bound stops the search and says which: before a win is found, with the most promising first ply
/// (issue 12, item 11; issue 8, item 15), or while a found line is being shortened, keeping it.
#[test]
fn solver_bounds_memory_time_and_cancellation() {
    use mancala::solve::{solve_watched, Limit, Shorten, Watch};
    use std::sync::atomic::AtomicBool;
    let engine = game("gulek-solo", Some("v1"), None);
    let start = engine.initial_state();
    let legal = |ply: &[Move]| {
        let mut st = start.clone();
        ply.iter().all(|&mv| engine.apply(&mut st, mv).is_ok()) && st.ply == 1
    };
    let first_win = SolveOptions { shorten: Shorten::No, ..SolveOptions::default() };

    let memory = SolveOptions { max_bytes: 16 << 10, ..first_win };
    let r = solve_with(&engine, &start, &memory);
    assert_eq!((r.verdict.clone(), r.limit), (Verdict::Unknown, Some(Limit::Memory)));
    assert!((100..2_000).contains(&r.states), "about 16 KiB of positions: {}", r.states);
    assert!(legal(r.best.as_deref().expect("a best ply")));

    let cancel = AtomicBool::new(true);
    let r = solve_watched(&engine, &start, &first_win, Watch { cancel: Some(&cancel), progress: None });
    assert_eq!((r.verdict, r.limit), (Verdict::Unknown, Some(Limit::Cancelled)));

    // Gulek Single: a win of 30-odd plies at once, then shorter ones, until a bound stops the search.
    let engine = game("gulek-single", None, None);
    let start = engine.initial_state();
    let memory = SolveOptions { max_bytes: 4 << 20, ..SolveOptions::default() };
    let r = solve_with(&engine, &start, &memory);
    assert_eq!(r.limit, Some(Limit::Memory));
    assert!(r.is_solved() && !r.shortest);

    let mut reports = Vec::new();
    let mut progress = |p: mancala::solve::Progress| reports.push(p);
    let timed = SolveOptions { deadline: Some(Instant::now() + Duration::from_millis(400)), ..SolveOptions::default() };
    let t = Instant::now();
    let r = solve_watched(&engine, &start, &timed, Watch { cancel: None, progress: Some(&mut progress) });
    assert_eq!(r.limit, Some(Limit::Time));
    assert!(r.is_solved() && !r.shortest);
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert!(!reports.is_empty(), "progress is reported about every tenth of a second");
    assert!(reports.windows(2).all(|w| w[0].states <= w[1].states));
}

/// A game whose random plays never end before its ply limit (sowing in a ring with nothing ever captured):
/// one MCTS decision of a few playouts stops each playout at its horizon and takes milliseconds, not the
/// seconds of 4 playouts of 20,000 plies each (tests/data/fuzz/slow-mcts-endless-playouts.mancala).
#[test]
fn mcts_playouts_of_an_endless_game_stop_at_their_horizon() {
    let rules = r#"game "Round and round"
board ring 15
setup {
  every pit: 4
}
turn {
  sow {
    from pits where count >= 2
    direction choose
    require before > 0
  }
}
goal all pits(count = 0)
end {
  when stuck
}
"#;
    let e = mancala::compile(rules, None, None).unwrap_or_else(|d| panic!("{d:?}"));
    let st = e.initial_state();
    let config = ai::MctsConfig { budget: Budget::Playouts(8), ..ai::MctsConfig::default() };
    let mut rng = SmallRng::seed_from_u64(3);
    let start = Instant::now();
    let mv = ai::mcts_choose(&e, &st, &config, &mut rng).expect("a decision");
    let took = start.elapsed();
    let mut legal = Vec::new();
    e.legal_moves(&st, &mut legal);
    assert!(legal.contains(&mv), "{mv:?}");
    // Without the horizon the playouts of this endless game would never end; with it they take well under a
    // second. The bound is loose on purpose: it tells a hang from a busy machine, not fast from slow.
    assert!(took < Duration::from_secs(30), "8 playouts took {took:?}");
}

/// Kalah on 26 places (twelve pits a side and two stores), six seeds a pit: a board where a deep search
/// takes minutes.
fn big_kalah() -> Engine {
    let path = format!("{}/games/kalah.mancala", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(&path).unwrap();
    let source = source.replace("board two_rows 6 with stores", "board two_rows 12 with stores");
    let source = source.replace("every pit: 4", "every pit: 6");
    mancala::compile(&source, None, None).unwrap_or_else(|d| panic!("{d:?}"))
}

/// Every computer player honours its cancel flag (the playground's think limit, the REPL's Ctrl-C) inside
/// its search: set 300 ms into a search that would take minutes, the player chooses a legal decision
/// within a second. Before, `alphabeta:12` on this board ignored the flag and searched for minutes.
#[test]
fn every_player_decides_soon_after_its_cancel_flag_is_set() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::{mpsc, Arc};
    let engine = Arc::new(big_kalah());
    assert_eq!(engine.rules.places.len(), 26);
    for kind in [AiKind::AlphaBeta(12), AiKind::Mcts(Budget::Playouts(100_000_000)), AiKind::Greedy] {
        let flag = Arc::new(AtomicBool::new(false));
        let mut player = kind.player_seeded(&engine, 5).unwrap();
        player.set_cancel(flag.clone());
        let (send, receive) = mpsc::channel();
        let engine2 = engine.clone();
        std::thread::spawn(move || {
            let st = engine2.initial_state();
            let _ = send.send(player.choose(&engine2, &st));
        });
        std::thread::sleep(Duration::from_millis(300));
        let set = Instant::now();
        flag.store(true, Ordering::Relaxed);
        let chosen = receive.recv_timeout(Duration::from_secs(5)).unwrap_or_else(|_| panic!("{kind} went on"));
        let waited = set.elapsed();
        let mv = chosen.unwrap();
        let st = engine.initial_state();
        let mut legal = Vec::new();
        engine.legal_moves(&st, &mut legal);
        assert!(legal.contains(&mv), "{kind}: {mv:?}");
        assert!(waited < Duration::from_secs(1), "{kind} took {waited:?} to stop");
    }
}

/// The deepening that makes `alphabeta` stoppable does not change its choice: with a flag that is never set
/// it chooses what it chooses without one, for the same seed.
#[test]
fn alphabeta_with_a_flag_never_set_chooses_as_without_one() {
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let engine = game("kalah", None, None);
    let mut st = engine.initial_state();
    let mut rng = SmallRng::seed_from_u64(9);
    for _ in 0..30 {
        if st.result.is_some() {
            break;
        }
        let mut plain = AiKind::AlphaBeta(5).player_seeded(&engine, 3).unwrap();
        let mut watched = AiKind::AlphaBeta(5).player_seeded(&engine, 3).unwrap();
        watched.set_cancel(Arc::new(AtomicBool::new(false)));
        assert_eq!(plain.choose(&engine, &st).unwrap(), watched.choose(&engine, &st).unwrap());
        let mv = ai::random_choose(&engine, &st, &mut rng).unwrap();
        engine.apply(&mut st, mv).unwrap();
    }
}
