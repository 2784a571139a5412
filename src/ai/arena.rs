//! Whole games between computer players, one kind per seat, from any position: `mancala simulate --ai`.
//!
//! [`Arena`] is to computer players what [`Playout`](crate::playout::Playout) is to random ones, and gives the
//! same [`GameStats`] and [`Ply`] callbacks, so the same [`Summary`](crate::playout::Summary) and traces work
//! for both. The `random` seats draw from the game's generator ([`game_rng`]) exactly as `Playout` does, so
//! an arena of random players plays the very games `Playout` plays; every other seat gets a player of its own,
//! made afresh for each game and seeded by [`seat_seed`]. With playout or depth budgets a game is the same
//! for the same seed; a time budget (`mcts:500ms`) makes it depend on the machine.

use super::{AiError, AiKind, Player};
use crate::engine::{Engine, Move, State};
use crate::playout::{draw, game_rng, splitmix, GameStats, Ply, MAX_DECISIONS};

/// Games between computer players, with reused buffers.
pub struct Arena<'e> {
    engine: &'e Engine,
    start: State,
    state: State,
    kinds: Vec<AiKind>,
    legal: Vec<Move>,
    ply_moves: Vec<Move>,
}

impl<'e> Arena<'e> {
    /// Games from `start`, seat `i` played by `kinds[i]` (seats left out of the list are `random`). Fails when
    /// a kind cannot play this game.
    pub fn new(engine: &'e Engine, start: State, kinds: &[AiKind]) -> Result<Arena<'e>, AiError> {
        let mut kinds = kinds.to_vec();
        kinds.resize(engine.rules.players as usize, AiKind::Random);
        for kind in &kinds {
            kind.check(engine)?;
        }
        Ok(Arena {
            engine,
            state: start.clone(),
            start,
            kinds,
            legal: Vec::with_capacity(64),
            ply_moves: Vec::with_capacity(16),
        })
    }

    /// The kind of player at each seat.
    pub fn kinds(&self) -> &[AiKind] {
        &self.kinds
    }

    /// The position every game starts from.
    pub fn start(&self) -> &State {
        &self.start
    }

    /// The position where the last game stopped.
    pub fn state(&self) -> &State {
        &self.state
    }

    /// Plays game `game` (from 0) of a run seeded with `seed`; calls `on_ply` after every ply, the plies
    /// numbered from 1 from the start position. Fails only when a player cannot be made.
    pub fn run(&mut self, seed: u64, game: u64, mut on_ply: impl FnMut(Ply<'_>)) -> Result<GameStats, AiError> {
        let engine = self.engine;
        let mut rng = game_rng(seed, game);
        let mut players: Vec<Option<Box<dyn Player>>> = Vec::with_capacity(self.kinds.len());
        for (seat, kind) in self.kinds.iter().enumerate() {
            players.push(match kind {
                AiKind::Random => None,
                kind => Some(kind.player_seeded(engine, seat_seed(seed, game, seat as u8))?),
            });
        }
        let st = &mut self.state;
        st.clone_from(&self.start);
        self.ply_moves.clear();
        let first_ply = st.ply;
        let first_captures = st.captures;
        let mut decisions = 0u64;
        let mut mover = st.to_move;
        let mut phase = st.phase;
        let mut abandoned = false;
        while st.result.is_none() {
            self.legal.clear();
            engine.legal_moves(st, &mut self.legal);
            if self.legal.is_empty() || decisions >= MAX_DECISIONS {
                abandoned = true;
                break;
            }
            let mv = match players.get_mut(engine.decider(st) as usize).and_then(Option::as_mut) {
                // A forced decision is not worth a search.
                Some(_) if self.legal.len() == 1 => self.legal[0],
                Some(player) => match player.choose(engine, st) {
                    Ok(mv) => mv,
                    Err(_) => {
                        abandoned = true;
                        break;
                    }
                },
                None => self.legal[draw(&mut rng, self.legal.len())],
            };
            let ply = st.ply;
            engine.apply_unchecked(st, mv);
            decisions += 1;
            self.ply_moves.push(mv);
            if st.ply != ply {
                let number = st.ply.saturating_sub(first_ply);
                on_ply(Ply { number, mover, phase, moves: &self.ply_moves, state: st });
                self.ply_moves.clear();
                mover = st.to_move;
                phase = st.phase;
            }
        }
        Ok(GameStats {
            plies: st.ply.saturating_sub(first_ply),
            decisions,
            captures: st.captures.saturating_sub(first_captures),
            outcome: if abandoned { None } else { st.result.clone() },
        })
    }
}

/// The seed of the player at `seat` (from 0) in game `game` (from 0) of a run seeded with `seed`: every seat
/// of every game has its own, unrelated to the others and to the game's generator.
pub fn seat_seed(seed: u64, game: u64, seat: u8) -> u64 {
    splitmix(splitmix(splitmix(seed) ^ game) ^ (seat as u64 + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ai::Budget;
    use crate::playout::{Playout, Summary};

    const KALAH: &str = include_str!("../../games/kalah.mancala");

    #[test]
    fn random_seats_play_the_games_of_playout() {
        let engine = crate::compile(KALAH, None, None).unwrap();
        let mut arena = Arena::new(&engine, engine.initial_state(), &[]).unwrap();
        let mut playout = Playout::new(&engine);
        let (mut a, mut b) = (Summary::new(&engine), Summary::new(&engine));
        for game in 0..20 {
            let mut arena_plies = Vec::new();
            a.add(&arena.run(5, game, |p| arena_plies.push((p.number, p.mover, p.moves.to_vec()))).unwrap());
            let mut playout_plies = Vec::new();
            b.add(&playout.run(&mut game_rng(5, game), |p| playout_plies.push((p.number, p.mover, p.moves.to_vec()))));
            assert_eq!(arena_plies, playout_plies, "game {game}");
        }
        assert_eq!(a, b);
    }

    #[test]
    fn computer_seats_are_deterministic_for_a_seed() {
        let engine = crate::compile(KALAH, None, None).unwrap();
        let kinds = [AiKind::Greedy, AiKind::Mcts(Budget::Playouts(30))];
        let play = |seed| {
            let mut arena = Arena::new(&engine, engine.initial_state(), &kinds).unwrap();
            let mut s = Summary::new(&engine);
            for game in 0..4 {
                s.add(&arena.run(seed, game, |_| {}).unwrap());
            }
            s
        };
        let first = play(9);
        assert_eq!(first, play(9));
        assert_eq!(first.games, 4);
        assert_eq!(first.abandoned, 0);
    }

    #[test]
    fn alphabeta_needs_two_players() {
        let gulek = include_str!("../../games/gulek.mancala");
        let engine = crate::compile(gulek, None, Some(3)).unwrap();
        assert!(matches!(
            Arena::new(&engine, engine.initial_state(), &[AiKind::AlphaBeta(2)]),
            Err(AiError::TooManyPlayers { players: 3 })
        ));
    }

    #[test]
    fn seat_seeds_differ() {
        let seeds = [seat_seed(1, 0, 0), seat_seed(1, 0, 1), seat_seed(1, 1, 0), seat_seed(2, 0, 0)];
        for (i, a) in seeds.iter().enumerate() {
            for b in &seeds[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}
