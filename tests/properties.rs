//! Invariants over many seeded random games of every shipped game and variant: pieces are conserved at
//! every ply, every legal move applies, every game ends, and a seed replays the same game.
//!
//! `PROPTEST_CASES` (also read by the property tests of the front end) scales the number of games.

use mancala::engine::{Engine, Move, State};
use mancala::playout::{draw, game_rng};

fn games_per_variant() -> u64 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).map_or(150, |n: u64| (n / 2).max(20))
}

/// Every (file, variant, players) the shipped games offer; Gulek at 2, 3 and 6 players.
fn engines() -> Vec<(String, Engine)> {
    let mut out = Vec::new();
    let mut paths: Vec<_> = std::fs::read_dir("games").expect("games/").map(|e| e.expect("entry").path()).collect();
    paths.sort();
    for path in paths {
        let source = std::fs::read_to_string(&path).expect("readable game");
        let file = mancala::syntax::parse(&source).expect("shipped games parse");
        for variant in mancala::check::variant_names(&file) {
            let counts: Vec<Option<u8>> =
                if source.contains("players 2..6") { vec![Some(2), Some(3), Some(6)] } else { vec![None] };
            for players in counts {
                let engine = mancala::compile(&source, Some(&variant), players).expect("shipped games compile");
                let engine = capped(engine);
                let name = format!("{} {variant} {}p", path.display(), engine.rules.players);
                out.push((name, engine));
            }
        }
    }
    out
}

/// The most plies a random game of these tests lasts. Random players need millions of plies to end some
/// matches of rounds (Dakon on 2x9); past this many plies a game only repeats what its rounds have done
/// already, so the tests end it there, as its own ply limit would.
const TEST_PLIES: u32 = 50_000;

/// The engine with its ply limits lowered to [`TEST_PLIES`].
fn capped(engine: Engine) -> Engine {
    let mut rules = engine.lowered;
    rules.limit = rules.limit.min(TEST_PLIES);
    rules.end.limit = rules.end.limit.map(|l| l.min(TEST_PLIES));
    for phase in &mut rules.phases {
        phase.end.limit = phase.end.limit.map(|l| l.min(TEST_PLIES));
    }
    Engine::new(rules)
}

fn total(st: &State) -> u32 {
    st.counts.iter().map(|&c| c as u32).sum::<u32>() + st.hand.iter().map(|&c| c as u32).sum::<u32>()
}

/// Plays one random game, checking the invariants at every decision; returns the decisions made.
fn checked_game(name: &str, engine: &Engine, seed: u64) -> Vec<Move> {
    let mut rng = game_rng(seed, 0);
    let mut st = engine.initial_state();
    let pieces = total(&st);
    let mut moves = Vec::new();
    let mut legal = Vec::new();
    let mut decisions = 0u64;
    while st.result.is_none() {
        legal.clear();
        engine.legal_moves(&st, &mut legal);
        assert!(!legal.is_empty(), "{name} seed {seed}: no legal move in an unfinished game at ply {}", st.ply);
        let mv = legal[draw(&mut rng, legal.len())];
        let ply = st.ply;
        engine.apply(&mut st, mv).unwrap_or_else(|e| panic!("{name} seed {seed}: legal move {mv:?} refused: {e}"));
        assert_eq!(total(&st), pieces, "{name} seed {seed}: pieces not conserved after {mv:?} at ply {ply}");
        assert!(st.ply >= ply, "{name}: the ply count went back");
        moves.push(mv);
        decisions += 1;
        assert!(decisions < 2_000_000, "{name} seed {seed}: the game does not end");
    }
    let outcome = st.result.as_ref().expect("finished");
    assert_eq!(outcome.scores.len(), engine.rules.players as usize, "{name}: one score per player");
    assert!(st.ply <= engine.rules.limit, "{name}: the game ran past its ply limit");
    moves
}

#[test]
fn random_games_conserve_pieces_and_end() {
    for (name, engine) in engines() {
        let games = if engine.rules.players > 3 { games_per_variant() / 5 } else { games_per_variant() };
        for seed in 0..games {
            checked_game(&name, &engine, seed);
        }
    }
}

/// The conditions compiled to closures agree with the evaluator they stand for, in every context, at every
/// ply of random games.
#[test]
fn compiled_conditions_agree_with_the_evaluator() {
    at_every_decision_of_random_games(Engine::compiled_disagreement);
}

/// The shortcuts of look-ahead at a turn's start (stopping at the first start that completes, a stuck check
/// made needless by the end rules) say what the whole list of starts says, at every ply of random games.
#[test]
fn lookahead_shortcuts_agree_with_the_list_of_starts() {
    at_every_decision_of_random_games(Engine::lookahead_disagreement);
}

/// The first laps tried for `must capture`, walked back or undone on a copy kept from lap to lap, find what
/// a fresh copy finds, and leave the kept copy as it was, at every ply of random games.
#[test]
fn first_lap_shortcuts_agree_with_a_fresh_copy() {
    at_every_decision_of_random_games(Engine::first_lap_disagreement);
}

/// Plays up to 20 random games of every variant and fails at the first position where `check` finds
/// something wrong.
fn at_every_decision_of_random_games(check: impl Fn(&Engine, &State) -> Option<String>) {
    for (name, engine) in engines() {
        for seed in 0..games_per_variant().min(20) {
            let mut rng = game_rng(seed, 0);
            let mut st = engine.initial_state();
            let mut legal = Vec::new();
            while st.result.is_none() {
                if let Some(why) = check(&engine, &st) {
                    panic!("{name} seed {seed} ply {}: {why}", st.ply);
                }
                legal.clear();
                engine.legal_moves(&st, &mut legal);
                engine.apply_unchecked(&mut st, legal[draw(&mut rng, legal.len())]);
            }
        }
    }
}

/// The fast paths for plain phases play exactly as the general turn machine: same legal moves, same
/// positions, ply after ply. The general engine remembers no first laps either (`must capture`), so that
/// what the fast one remembers from one question about a position to the next is checked too.
#[test]
fn fast_paths_play_as_the_general_stages() {
    for (name, fast) in engines() {
        let general = fast.clone().without_fast_paths();
        for seed in 0..games_per_variant().min(50) {
            let mut rng = game_rng(seed, 0);
            let (mut a, mut b) = (fast.initial_state(), general.initial_state());
            let (mut la, mut lb) = (Vec::new(), Vec::new());
            while a.result.is_none() {
                la.clear();
                lb.clear();
                fast.legal_moves(&a, &mut la);
                general.legal_moves(&b, &mut lb);
                assert_eq!(la, lb, "{name} seed {seed} ply {}: legal moves differ", a.ply);
                let mv = la[draw(&mut rng, la.len())];
                fast.apply_unchecked(&mut a, mv);
                general.apply_unchecked(&mut b, mv);
                assert_eq!(a, b, "{name} seed {seed}: positions differ after {mv:?}");
            }
        }
    }
}

/// A random playout picks a start of a plain turn off the bits of the mover's pits, without listing them
/// (`Playout::run`): it must play the very games the list would, ply by ply, each ply's decisions and
/// position alike, and one `Playout` must start every game afresh.
#[test]
fn playouts_pick_as_from_the_list_of_moves() {
    use mancala::playout::Playout;
    // Only phases that play whole plies pick so; the other games take the list either way.
    let whole = |e: &Engine| (0..e.rules.phases.len()).any(|p| e.plays_whole_plies(p));
    for (name, fast) in engines().into_iter().filter(|(_, e)| whole(e)) {
        let general = fast.clone().without_fast_paths();
        let (mut pa, mut pb) = (Playout::new(&fast), Playout::new(&general));
        for seed in 0..games_per_variant().min(30) {
            let mut plies: Vec<(Vec<Move>, State)> = Vec::new();
            let a = pa.run(&mut game_rng(seed, 1), |ply| plies.push((ply.moves.to_vec(), ply.state.clone())));
            let mut i = 0;
            let b = pb.run(&mut game_rng(seed, 1), |ply| {
                let (moves, state) = &plies[i];
                assert_eq!(moves.as_slice(), ply.moves, "{name} seed {seed} ply {}: decisions differ", ply.number);
                assert_eq!(state, ply.state, "{name} seed {seed} ply {}: positions differ", ply.number);
                i += 1;
            });
            assert_eq!((a, i), (b, plies.len()), "{name} seed {seed}: the games differ");
        }
    }
}

#[test]
fn a_seed_replays_the_same_game() {
    for (name, engine) in engines() {
        for seed in [3, 17] {
            let first = checked_game(&name, &engine, seed);
            let second = checked_game(&name, &engine, seed);
            assert_eq!(first, second, "{name}: seed {seed} played two different games");
        }
    }
}

#[test]
fn illegal_moves_are_refused_and_change_nothing() {
    for (name, engine) in engines() {
        let mut st = engine.initial_state();
        let before = st.clone();
        let mut legal = Vec::new();
        engine.legal_moves(&st, &mut legal);
        for mv in [Move::Pass, Move::Accept, Move::Stop, Move::Pick(0), Move::Begin { action: 9, place: 0 }] {
            if !legal.contains(&mv) {
                assert!(engine.apply(&mut st, mv).is_err(), "{name}: {mv:?} accepted");
                assert_eq!(st, before, "{name}: a refused move changed the state");
            }
        }
    }
}

#[test]
fn finished_games_refuse_moves() {
    let source = std::fs::read_to_string("games/kalah.mancala").expect("kalah");
    let engine = mancala::compile(&source, None, None).expect("kalah compiles");
    let mut rng = game_rng(5, 0);
    let mut st = engine.initial_state();
    let mut legal = Vec::new();
    while st.result.is_none() {
        legal.clear();
        engine.legal_moves(&st, &mut legal);
        engine.apply_unchecked(&mut st, legal[draw(&mut rng, legal.len())]);
    }
    legal.clear();
    engine.legal_moves(&st, &mut legal);
    assert!(legal.is_empty());
    assert_eq!(engine.apply(&mut st, Move::Pass), Err(mancala::engine::MoveError::GameOver));
}

/// A shipped game with one rule changed, as a rule author might change it.
fn changed_game(file: &str, from: &str, to: &str, players: Option<u8>) -> Engine {
    let source = std::fs::read_to_string(file).expect("a shipped game");
    assert!(source.contains(from), "{file} no longer says `{from}`");
    mancala::compile(&source.replace(from, to), None, players).expect("the changed file compiles")
}

/// Gulek re-entering at least three parked pairs at once: a started re-entry can run out of pairs, so it must
/// not be offered. Random games never leave the player to move without a decision, and no computer player
/// fails to choose one.
#[test]
fn a_put_that_can_get_stuck_never_leaves_a_player_without_a_decision() {
    use mancala::ai::{AiKind, Arena, Budget};
    for players in [2, 3] {
        let engine = changed_game("games/gulek.mancala", "1.. times", "3.. times", Some(players));
        let name = format!("gulek `3.. times` {players}p");
        for seed in 0..games_per_variant().min(60) {
            checked_game(&name, &engine, seed);
        }
        let kinds = [AiKind::Greedy, AiKind::Mcts(Budget::Playouts(20)), AiKind::Random];
        let mut arena = Arena::new(&engine, engine.initial_state(), &kinds[..players as usize]).expect("players");
        for game in 0..3 {
            let stats = arena.run(7, game, |_| {}).expect("the players are made");
            assert!(stats.outcome.is_some(), "{name}: game {game} abandoned at ply {}", stats.plies);
        }
    }
}

/// The games meant to take the compiled forms of plain phases do: Kalah, Oware (whose feeding obligation is
/// checked at the ply's end), Bohnenspiel and Toguz Kumalak sow by whole laps; Kalah's empty-row end rule and Oware's
/// `when stuck` make the stuck check after the end rules needless, as the `count(pits(mover)) = 0` of
/// Bohnenspiel and Toguz Kumalak does.
#[test]
fn plain_games_take_the_compiled_forms() {
    let form = |file: &str| {
        let src = std::fs::read_to_string(format!("games/{file}.mancala")).expect("shipped game");
        mancala::compile(&src, None, None).expect("valid rules").fast_forms(0)
    };
    assert_eq!(form("kalah"), (true, true));
    assert_eq!(form("oware"), (true, true));
    assert_eq!(form("bohnenspiel"), (true, true));
    // Its pits change hands, its laps start at the origin and a tuzdyk diverts pieces: it is not a plain
    // sowing, but its laps still go by arithmetic over the track of every pit (`fast::sow_track`), and its
    // end rule `count(pits(mover)) = 0` says the mover can move.
    assert_eq!(form("toguz-kumalak"), (true, true));
    // Its laps relay and capture and go either way, but each still goes by arithmetic over its track
    // (`fast::sow_track`), and its `eliminate when cannot move` has just looked when a turn begins.
    assert_eq!(form("bao-la-kiswahili"), (true, true));
    // Its relays read `before`, which the laps by arithmetic record as the last drop into each pit would.
    assert_eq!(form("gulek-single"), (true, true));
}

/// The plain games play each ply whole (`whole_ply`: captures, extra turns and end rules off tables made
/// once), so that the fast form cannot be lost without notice; `fast_paths_play_as_the_general_stages`
/// checks that it plays as the general stages.
#[test]
fn plain_games_play_whole_plies() {
    let whole = |file: &str, variant: Option<&str>| {
        let src = std::fs::read_to_string(format!("games/{file}.mancala")).expect("shipped game");
        mancala::compile(&src, variant, None).expect("valid rules").plays_whole_plies(0)
    };
    assert!(whole("kalah", None));
    assert!(whole("kalah", Some("empty-capture")));
    assert!(whole("oware", None));
    assert!(whole("bohnenspiel", None));
    assert!(whole("bohnenspiel", Some("skip-origin")));
    // The general stages themselves never take it.
    let src = std::fs::read_to_string("games/kalah.mancala").expect("kalah");
    assert!(!mancala::compile(&src, None, None).expect("valid rules").without_fast_paths().plays_whole_plies(0));
}

/// The end sweeps of games whose pits never change hands go by a table (`sweep pits to store(owner)`), and
/// the general stages, which `fast_paths_play_as_the_general_stages` compares with, never do.
#[test]
fn plain_games_sweep_by_table() {
    let engine = |file: &str| {
        let src = std::fs::read_to_string(format!("games/{file}.mancala")).expect("shipped game");
        mancala::compile(&src, None, None).expect("valid rules")
    };
    for file in ["kalah", "oware", "bohnenspiel"] {
        assert!(engine(file).sweeps_by_table(0), "{file}");
        assert!(!engine(file).without_fast_paths().sweeps_by_table(0), "{file}");
    }
}

/// A game of two sowings, one ranked over the other: `grab` (a capture is a must) before `plain`. `first` is
/// the action written first.
fn ranked_game(first: &str) -> String {
    let grab = "  sow grab {\n    from pits(mover) where count > 0\n    direction choose\n    must capture\n    \
                skip store(opponent)\n    \
                capture when here in pits(mover) and count = 1 and count(opposite) > 0 {\n      \
                take from here, opposite to store(mover)\n    }\n  }\n";
    let plain =
        "  sow plain {\n    from pits(mover) where count > 1\n    direction ccw\n    skip store(opponent)\n  }\n";
    let actions = if first == "grab" { format!("{grab}{plain}") } else { format!("{plain}{grab}") };
    format!(
        "game \"Ranked\"\nplayers 2\nboard two_rows 6 with stores\npieces seeds\nsetup {{\n  every pit: 3\n}}\n\
         turn {{\n{actions}  prefer grab, plain\n}}\nend {{\n  when any players(count(pits(player)) = 0)\n  \
         sweep pits to store(owner)\n}}\nscore count(store(player))\nwinner most score, ties draw\n"
    )
}

/// `prefer` gives the same starts whether it ranks the actions in the order they are written (the ranked
/// actions are then ruled out as the list is made) or not (they are found first): the same game written
/// both ways offers the same moves, action for action, at every decision of random games.
#[test]
fn prefer_rules_out_the_same_actions_in_any_order_written() {
    let in_order = mancala::compile(&ranked_game("grab"), None, None).expect("the ranked game compiles");
    let reversed = mancala::compile(&ranked_game("plain"), None, None).expect("the ranked game compiles");
    // Action 0 of one is action 1 of the other.
    let swap = |mv: Move| match mv {
        Move::Begin { action, place } => Move::Begin { action: 1 - action, place },
        other => other,
    };
    let mut takes = [0usize; 2];
    for seed in 0..games_per_variant().min(50) {
        let mut rng = game_rng(seed, 0);
        let (mut a, mut b) = (in_order.initial_state(), reversed.initial_state());
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        while a.result.is_none() {
            la.clear();
            lb.clear();
            in_order.legal_moves(&a, &mut la);
            reversed.legal_moves(&b, &mut lb);
            let mut lb: Vec<Move> = lb.iter().map(|&m| swap(m)).collect();
            let mut sorted = la.clone();
            sorted.sort();
            lb.sort();
            assert_eq!(sorted, lb, "seed {seed} ply {}: the starts differ", a.ply);
            let mv = la[draw(&mut rng, la.len())];
            if let Move::Begin { action, .. } = mv {
                takes[action as usize] += 1;
            }
            in_order.apply_unchecked(&mut a, mv);
            reversed.apply_unchecked(&mut b, swap(mv));
            assert_eq!(a.counts, b.counts, "seed {seed}: positions differ after {mv:?}");
        }
    }
    // Both actions were played, so each ruled the other out some time.
    assert!(takes[0] > 0 && takes[1] > 0, "{takes:?}");
}
