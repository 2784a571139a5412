//! Starting a game, in two halves, so that the long one runs away from the thread that owns the games:
//! [`Playground::begin`](super::Playground::begin) reads the request and the rule file into a
//! [`Starting`] (and finds rules already compiled for the same text, variant and number of players);
//! whoever serves runs [`Starting::run`] (the compile, the seats, the start position) on a thread of its
//! own, bounded in number; [`Playground::started`](super::Playground::started) makes room and keeps the
//! game.
//!
//! Games of the same rules share one compiled rule set and one copy of their text ([`RuleSets`]): the
//! playground remembers each rule set by a hash of its text, variant and number of players (the text
//! compared too), for as long as a game holds it. The text of the distinct rule sets held is bounded by
//! [`MAX_RULE_BYTES`]: past it, the games of the client that holds the most of it make room, its game
//! left alone longest first.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::sync::{Arc, Weak};
use std::time::Duration;

use super::{compile, seats, session_error, Live, NewGame, Origin, Reply};
use crate::engine::Engine;
use crate::session::{HintLimits, Session};

/// The most text of distinct rule sets the games in progress may hold (their compiled forms are some
/// twenty times larger).
pub const MAX_RULE_BYTES: usize = 8 << 20;

/// A game to start: the request as read on the playground's thread, to be compiled elsewhere.
pub struct Starting {
    pub(super) client: Option<String>,
    name: String,
    origin: Origin,
    text: Arc<str>,
    request: NewGame,
    seed: u64,
    key: u64,
    /// The rules of a game of the same text, variant and number of players, when one is in progress.
    shared: Option<Arc<Engine>>,
}

/// What came of a [`Starting`]: the game, or why it cannot start.
pub struct Started {
    pub(super) client: Option<String>,
    pub(super) key: u64,
    pub(super) variant: Option<String>,
    pub(super) players: Option<u8>,
    pub(super) game: Result<Live, Reply>,
}

impl Starting {
    pub(super) fn new(
        client: Option<&str>,
        (name, text, origin): (String, Arc<str>, Origin),
        request: NewGame,
        seed: u64,
        sets: &RuleSets,
    ) -> Starting {
        let key = sets.key(&text, request.variant.as_deref(), request.players);
        let (shared, text) = match sets.find(key, &text, request.variant.as_deref(), request.players) {
            Some((engine, text)) => (Some(engine), text),
            None => (None, text),
        };
        Starting { client: client.map(str::to_string), name, origin, text, request, seed, key, shared }
    }

    /// Compiles the rules (unless they are shared), seats the players and sets the start position: long,
    /// on whatever thread calls it.
    pub fn run(self) -> Started {
        let Starting { client, name, origin, text, request, seed, key, shared } = self;
        let game = (|| {
            let engine = match shared {
                Some(engine) => engine,
                None => Arc::new(compile(&name, &text, request.variant.as_deref(), request.players)?),
            };
            let seats = seats(engine.rules.players, request.seats.as_deref())?;
            let mut session = Session::new_shared(engine, &name, text.clone(), seats, seed).map_err(session_error)?;
            session.set_hint_limits(HintLimits {
                time: Duration::from_secs(2),
                search: crate::solve::SolveOptions { max_bytes: 64 << 20, ..crate::solve::SolveOptions::default() },
            });
            if let Some(position) = &request.position {
                session.start_from(position).map_err(|e| Reply::error(400, "position", format!("position: {e}")))?;
            }
            Ok(Live::new(session, name, origin, text, client.clone()))
        })();
        Started { client, key, variant: request.variant, players: request.players, game }
    }
}

/// The rule sets of the games in progress, by a hash of their text, variant and number of players.
pub(super) struct RuleSets {
    hasher: RandomState,
    sets: HashMap<u64, RuleSet>,
}

struct RuleSet {
    engine: Weak<Engine>,
    text: Weak<str>,
    variant: Option<String>,
    players: Option<u8>,
}

impl RuleSets {
    pub(super) fn new() -> RuleSets {
        RuleSets { hasher: RandomState::new(), sets: HashMap::new() }
    }

    fn key(&self, text: &str, variant: Option<&str>, players: Option<u8>) -> u64 {
        self.hasher.hash_one((text, variant, players))
    }

    /// The rules and text of a game in progress with the same text, variant and number of players.
    fn find(
        &self,
        key: u64,
        text: &str,
        variant: Option<&str>,
        players: Option<u8>,
    ) -> Option<(Arc<Engine>, Arc<str>)> {
        let set = self.sets.get(&key)?;
        let (engine, kept) = (set.engine.upgrade()?, set.text.upgrade()?);
        (*kept == *text && set.variant.as_deref() == variant && set.players == players).then_some((engine, kept))
    }

    /// Remembers the rules of a new game (while a game holds them), and forgets those no game holds.
    pub(super) fn keep(&mut self, key: u64, live: &Live, variant: Option<&str>, players: Option<u8>) {
        self.sets.retain(|_, set| set.engine.strong_count() > 0);
        self.sets.entry(key).or_insert_with(|| RuleSet {
            engine: Arc::downgrade(&live.session.engine),
            text: Arc::downgrade(&live.text),
            variant: variant.map(str::to_string),
            players,
        });
    }
}

/// The bytes of text of the distinct rule sets `games` hold.
pub(super) fn rule_bytes<'a>(games: impl Iterator<Item = &'a Live>) -> usize {
    let mut seen: Vec<*const Engine> = Vec::new();
    let mut bytes = 0;
    for live in games {
        let engine = Arc::as_ptr(&live.session.engine);
        if !seen.contains(&engine) {
            seen.push(engine);
            bytes += live.text.len();
        }
    }
    bytes
}
