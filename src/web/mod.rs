//! The back end of the web playground (`mancala serve`): a small JSON API over the library, with no HTTP
//! in it. The binary's HTTP layer hands each request's method, path and body to [`Playground::handle`]
//! and sends back the [`Reply`]; tests call it directly.
//!
//! Every game in progress lives here, in a [`Session`] as the REPL's does, so a reload of the page keeps
//! the game and the page and the REPL share one back end. Rule files are read from one folder (`DIR`),
//! and from the games shipped in the binary; the only file written is a rule file saved into that folder,
//! under a plain name, so no request can reach a path outside it (and only regular files inside it: a link
//! that leads out, a FIFO, are refused). Bad requests get a JSON error and a 4xx status; nothing a request
//! holds can make the server panic or think without bound (the computer's budgets are capped, and its
//! thinking runs away from the other games: [`Playground::begin`], `think.rs`).
//!
//! Live games are bounded by [`MAX_GAMES`], fairly. A client (as the server names it: an address) keeps
//! at most [`MAX_GAMES_PER_CLIENT`] games: a new one past that drops its own game left alone longest, and
//! it may start [`CREATION_BURST`] games at once and [`CREATIONS_PER_MINUTE`] a minute after that (else
//! 429). Past the cap of all games, the game left alone longest beyond [`KEEP_IDLE`] makes room; else the
//! game left alone longest of the client with the most games, when that client has more than the one
//! asking (so that no client can take the others' games away by starting many, nor lock them out); and
//! when there is none, a new game is refused (503).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::ai::{AiKind, Budget};
use crate::diag::Diagnostic;
use crate::session::{Command, Seat, Session, SessionError};

pub mod assets;
mod editor;
mod start;
mod think;
mod view;

pub use start::{Started, Starting, MAX_RULE_BYTES};
pub use think::{Thinking, Thought, Watch, THINKING_BUDGET};

/// The largest request body: a rule file (at most [`crate::syntax::MAX_SOURCE_BYTES`]) in JSON, or a save.
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// How many games may be in progress at once; a new game beyond it drops the one left alone longest, if
/// that one was left alone for [`KEEP_IDLE`] at least.
pub const MAX_GAMES: usize = 64;
/// How long a game is kept for its players whatever the number of games started since, unless its
/// client has more games than another that asks for one.
pub const KEEP_IDLE: Duration = Duration::from_secs(10 * 60);
/// How many games one client may have in progress; a new one beyond it drops the client's own game left
/// alone longest.
pub const MAX_GAMES_PER_CLIENT: usize = 16;
/// How many games a client may start at once, and then how many a minute.
pub const CREATION_BURST: u32 = 120;
pub const CREATIONS_PER_MINUTE: u32 = 60;
/// The most clients whose starts are counted; past it, those whose count is back to the full burst are
/// forgotten.
const MAX_COUNTED_CLIENTS: usize = 4096;
/// The longest game name a request may use (a file name in `DIR` without `.mancala`).
const MAX_NAME_CHARS: usize = 64;
/// The longest move text `play` reads.
const MAX_MOVE_CHARS: usize = 1000;
/// The most time and work a computer seat may be given, so that no request makes the server think for long.
const MAX_THINKING: Duration = Duration::from_secs(5);
const MAX_PLAYOUTS: u32 = 200_000;
const MAX_DEPTH: u32 = 8;
/// The computer a seat gets when the request names none: about half a second per decision.
const DEFAULT_COMPUTER: AiKind = AiKind::Mcts(Budget::Time(Duration::from_secs(1)));

/// An answer to a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        let body = serde_json::to_vec(value).unwrap_or_else(|_| b"{}".to_vec());
        Reply { status, content_type: "application/json", body }
    }

    fn ok(value: Value) -> Reply {
        Reply::json(200, &value)
    }

    /// An error as JSON: `{"error": "...", "kind": "..."}`.
    pub fn error(status: u16, kind: &str, message: impl Into<String>) -> Reply {
        Reply::json(status, &json!({ "error": message.into(), "kind": kind }))
    }

    fn not_found(what: impl Into<String>) -> Reply {
        Reply::error(404, "not_found", what)
    }
}

/// A request's failure, turned into a [`Reply`] at the end of [`Playground::handle`].
type Answer = Result<Reply, Reply>;

/// Where a rule file came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// A `.mancala` file of `DIR`.
    Dir,
    /// A game built into the binary.
    Shipped,
    /// Text sent by the page (an edited variant).
    Text,
}

impl Origin {
    fn as_str(self) -> &'static str {
        match self {
            Origin::Dir => "dir",
            Origin::Shipped => "shipped",
            Origin::Text => "text",
        }
    }
}

/// A game in progress, with what the page needs to show it again after a reload.
struct Live {
    session: Session,
    /// The rule file's name (a game of the picker, or the name the page gave an edited text).
    name: String,
    origin: Origin,
    /// The rules' text, shared with the session and the other games of the same text.
    text: Arc<str>,
    /// What the players were told, newest last: narrations, the computer's plies, answers to commands.
    log: Vec<LogLine>,
    /// When it was last used, to drop the oldest game past [`MAX_GAMES`].
    used: Instant,
    /// Who started it, as the server names a client (an address); `None` without a server.
    client: Option<String>,
}

/// The most lines a game's log keeps.
const MAX_LOG: usize = 200;

/// A line of a game's log: what was said, and the ply it tells (its number from 1 and its notation, for
/// the page's "why?"), when it tells one.
#[derive(Debug, Clone, serde::Serialize)]
struct LogLine {
    text: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<usize>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    notation: Option<String>,
}

impl Live {
    fn new(session: Session, name: String, origin: Origin, text: Arc<str>, client: Option<String>) -> Live {
        Live { session, name, origin, text, log: Vec::new(), used: Instant::now(), client }
    }

    /// Says `line`; `ply`, the number of the ply it tells (the page asks why it did what it did).
    fn tell(&mut self, line: impl Into<String>, ply: Option<usize>) {
        let text = line.into();
        if text.is_empty() {
            return;
        }
        let notation = ply.and_then(|n| self.session.history().get(n.wrapping_sub(1)).cloned());
        self.log.push(LogLine { text, ply: notation.as_ref().and(ply), notation });
        if self.log.len() > MAX_LOG {
            self.log.drain(..self.log.len() - MAX_LOG);
        }
    }
}

/// Every game in progress, and the folder of rule files.
pub struct Playground {
    dir: PathBuf,
    games: HashMap<String, Live>,
    /// The games the computer is thinking about, away on another thread.
    away: HashMap<String, think::Away>,
    rng: SmallRng,
    max_games: usize,
    keep_idle: Duration,
    max_per_client: usize,
    /// Per client: the starts it may still make at once, and when that was counted.
    creations: HashMap<String, (f64, Instant)>,
    /// The rule sets of the games in progress, shared by the games of one text.
    rule_sets: start::RuleSets,
    thinking_budget: Duration,
}

/// What [`Playground::begin`] made of a request: its answer, or a game to think about first.
pub enum Step {
    Done(Reply),
    Think(Thinking),
    /// A game to start: compile it elsewhere ([`Starting::run`]) and hand it to
    /// [`Playground::started`].
    Start(Starting),
    /// Long work that needs no game (a rule file's parse and compile): run it elsewhere, and its reply
    /// is the answer.
    Work(Work),
}

/// Work of a [`Step::Work`].
pub type Work = Box<dyn FnOnce() -> Reply + Send>;

/// `POST /api/sessions`: which game, and how to play it.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct NewGame {
    /// A game of the picker (a file of `DIR`, or a shipped game).
    game: Option<String>,
    /// Or the rules as text, with a name for them.
    text: Option<String>,
    name: Option<String>,
    variant: Option<String>,
    players: Option<u8>,
    /// Who plays each seat: `human`, `random`, `greedy`, `mcts:500ms`, `alphabeta:4`.
    seats: Option<Vec<String>>,
    /// A start position in the position format.
    position: Option<String>,
    seed: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Text {
    text: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveRules {
    text: String,
    #[serde(default)]
    overwrite: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayMove {
    #[serde(rename = "move")]
    text: String,
}

impl Playground {
    /// A playground over the rule files of `dir` (which need not exist: the shipped games are there still).
    pub fn new(dir: PathBuf, seed: u64) -> Playground {
        // The folder as it really is, so that a file's real path can be compared with it.
        let dir = dir.canonicalize().unwrap_or(dir);
        Playground {
            dir,
            games: HashMap::new(),
            away: HashMap::new(),
            rng: SmallRng::seed_from_u64(seed),
            max_games: MAX_GAMES,
            keep_idle: KEEP_IDLE,
            max_per_client: MAX_GAMES_PER_CLIENT,
            creations: HashMap::new(),
            rule_sets: start::RuleSets::new(),
            thinking_budget: THINKING_BUDGET,
        }
    }

    /// The same, giving the computer `budget` to think about one request (see [`Watch::budget`]).
    pub fn with_thinking_budget(mut self, budget: Duration) -> Playground {
        self.thinking_budget = budget;
        self
    }

    /// The same, keeping at most `max_games` games (at least one), each for `keep_idle` at least.
    pub fn with_game_limits(mut self, max_games: usize, keep_idle: Duration) -> Playground {
        self.max_games = max_games.max(1);
        self.keep_idle = keep_idle;
        self
    }

    /// The same, keeping at most `per_client` games (at least one) for each client.
    pub fn with_client_limit(mut self, per_client: usize) -> Playground {
        self.max_per_client = per_client.max(1);
        self
    }

    /// Answers one request. `path` may carry a query, which is ignored; `body` is the request's body.
    /// The computer's thinking is done here, before the answer; a server runs it elsewhere with [`begin`].
    ///
    /// [`begin`]: Playground::begin
    pub fn handle(&mut self, method: &str, path: &str, body: &[u8]) -> Reply {
        self.handle_for(None, method, path, body)
    }

    /// Answers a request of `client` (as the server names it: an address), whose games and starts are
    /// counted apart from the others'.
    pub fn handle_for(&mut self, client: Option<&str>, method: &str, path: &str, body: &[u8]) -> Reply {
        if let Some(reply) = fixed(method, path) {
            return reply;
        }
        let parts = path_parts(path);
        self.route(client, method, &parts, body).unwrap_or_else(|e| e)
    }

    /// Answers a request as [`handle`](Playground::handle) does, except that the computer's thinking
    /// (`computer`, `hint`) is handed back as a [`Thinking`], to run on another thread and to end in
    /// [`finish`](Playground::finish). Meanwhile the game is away: see `think.rs`.
    pub fn begin(&mut self, method: &str, path: &str, body: &[u8]) -> Step {
        self.begin_for(None, method, path, body)
    }

    /// [`begin`](Playground::begin) for a request of `client` (see [`handle_for`](Playground::handle_for)).
    pub fn begin_for(&mut self, client: Option<&str>, method: &str, path: &str, body: &[u8]) -> Step {
        let parts = path_parts(path);
        if let ("POST", ["api", "sessions"]) = (method, parts.as_slice()) {
            return match self.begin_start(client, body) {
                Ok(starting) => Step::Start(starting),
                Err(reply) => Step::Done(reply),
            };
        }
        if let ("GET", ["api", "games", name]) = (method, parts.as_slice()) {
            return match self.begin_game_file(name) {
                Ok(work) => Step::Work(work),
                Err(reply) => Step::Done(reply),
            };
        }
        if let ("POST", ["api", "sessions", id, action]) = (method, parts.as_slice()) {
            if let Some(task) = think::Task::from_action(action) {
                let task = match task {
                    think::Task::Hint(_) => match hint_level(body) {
                        Ok(level) => think::Task::Hint(level),
                        Err(reply) => return Step::Done(reply),
                    },
                    task => task,
                };
                return match self.take_away(id, task) {
                    Ok(thinking) => Step::Think(thinking),
                    Err(reply) => Step::Done(reply),
                };
            }
        }
        Step::Done(self.handle_for(client, method, path, body))
    }

    /// Puts a game back after its thinking, and answers the request that began it.
    pub fn finish(&mut self, thought: Thought) -> Reply {
        let Thought { id, mut live, answer } = thought;
        if self.away.remove(&id).is_some_and(|away| away.deleted) {
            return Reply::not_found(format!("game `{id}` was deleted while the computer was thinking"));
        }
        live.used = Instant::now();
        self.games.insert(id, live);
        answer.unwrap_or_else(|e| e)
    }

    /// Takes a game out for the computer to think about.
    fn take_away(&mut self, id: &str, task: think::Task) -> Result<Thinking, Reply> {
        let live = self.games.remove(id).ok_or_else(|| self.missing(id))?;
        let thinking = Thinking::new(id, task, live, self.thinking_budget);
        let view = view::game(id, &thinking.live);
        self.away.insert(id.to_string(), think::Away { watch: thinking.watch(), view, deleted: false });
        Ok(thinking)
    }

    /// Why a request names no game here: none of that id, or the computer has it.
    fn missing(&self, id: &str) -> Reply {
        match self.away.get(id) {
            Some(_) => Reply::error(
                409,
                "thinking",
                "the computer is thinking about this game: wait for it, or stop it (`stop`)",
            ),
            None => unknown_game(id),
        }
    }

    fn route(&mut self, client: Option<&str>, method: &str, parts: &[&str], body: &[u8]) -> Answer {
        match (method, parts) {
            ("GET", ["api", "games"]) => Ok(Reply::ok(json!({ "games": self.list_games() }))),
            ("GET", ["api", "games", name]) => self.game_file(name),
            ("PUT", ["api", "games", name]) => self.save_rules(name, parse_body(body)?),
            ("POST", ["api", "check" | "hover" | "complete"]) => editor_answer(&parts[1], body),
            ("POST", ["api", "sessions"]) => {
                let starting = self.begin_start(client, body)?;
                Ok(self.started(starting.run()))
            }
            ("GET", ["api", "sessions", id]) => match self.away.get(*id) {
                Some(away) => Ok(Reply::ok(away.view())),
                None => self.with(id, |live| Ok(Reply::ok(view::game(id, live)))),
            },
            ("GET", ["api", "sessions", id, "thinking"]) => self.thinking(id),
            ("POST", ["api", "sessions", id, "stop"]) => self.stop(id),
            ("DELETE", ["api", "sessions", id]) => self.delete(id),
            ("GET", ["api", "sessions", id, "save"]) => self.with(id, |live| {
                let json = live.session.save_json().map_err(session_error)?;
                Ok(Reply { status: 200, content_type: "application/json", body: json.into_bytes() })
            }),
            ("GET", ["api", "sessions", id, "rules"]) => self
                .with(id, |live| Ok(Reply::ok(json!({ "summary": crate::summary::summarize(&live.session.engine) })))),
            ("GET", ["api", "sessions", id, "moves"]) => self.with(id, |live| Ok(Reply::ok(view::moves(live)))),
            ("GET", ["api", "sessions", id, "plies", n]) => self.with(id, |live| {
                let n: usize =
                    n.parse().map_err(|_| Reply::error(400, "bad_ply", format!("`{n}` is not a number of plies")))?;
                view::ply(live, n)
                    .map(Reply::ok)
                    .ok_or_else(|| Reply::not_found(format!("there are {} plies", live.session.history().len())))
            }),
            ("GET", ["api", "sessions", id, "explain", n]) => self.with(id, |live| {
                let n: usize =
                    n.parse().map_err(|_| Reply::error(400, "bad_ply", format!("`{n}` is not a number of a ply")))?;
                let e = live.session.explain(Some(n)).map_err(|e| Reply::not_found(e.to_string()))?;
                let who = live.session.seat_names()[e.mover as usize - 1].clone();
                let text = crate::explain::render_by(&e, &who);
                Ok(Reply::ok(json!({ "ply": n, "who": who, "explanation": e, "text": text.trim_end() })))
            }),
            ("POST", ["api", "sessions", id, action]) => self.act(id, action, body),
            (_, ["api", ..]) | (_, ["assets", ..]) | (_, [""]) if known_path(parts) => {
                Err(Reply::error(405, "method", format!("{method} is not allowed here")))
            }
            _ => Err(Reply::not_found("no such page")),
        }
    }

    /// Runs `f` on a game in progress, marking it used.
    fn with(&mut self, id: &str, f: impl FnOnce(&mut Live) -> Answer) -> Answer {
        let Some(live) = self.games.get_mut(id) else {
            return Err(self.missing(id));
        };
        live.used = Instant::now();
        f(live)
    }

    /// `GET /api/sessions/ID/thinking`: what the computer is doing for the game, if anything.
    fn thinking(&mut self, id: &str) -> Answer {
        match self.away.get(id) {
            Some(away) => Ok(Reply::ok(away.watch.json())),
            None => self.with(id, |_| Ok(Reply::ok(json!({ "thinking": false })))),
        }
    }

    /// `POST /api/sessions/ID/stop`: the computer decides now with what it has found (nothing to stop is
    /// no error: the thought may have come back meanwhile).
    fn stop(&mut self, id: &str) -> Answer {
        match self.away.get(id) {
            Some(away) => {
                away.watch.stop();
                Ok(Reply::ok(json!({ "stopping": true })))
            }
            None => self.with(id, |_| Ok(Reply::ok(json!({ "stopping": false })))),
        }
    }

    fn delete(&mut self, id: &str) -> Answer {
        if let Some(away) = self.away.get_mut(id) {
            away.deleted = true;
            away.watch.stop();
            return Ok(Reply::ok(json!({ "deleted": id })));
        }
        match self.games.remove(id) {
            Some(_) => Ok(Reply::ok(json!({ "deleted": id }))),
            None => Err(unknown_game(id)),
        }
    }

    // ------------------------------------------------------------ rule files

    /// The games of the picker: the files of `DIR`, then the shipped games no file of `DIR` replaces.
    fn list_games(&self) -> Vec<Value> {
        let mut names = self.dir_names();
        let mut games: Vec<Value> = names.iter().map(|n| json!({ "name": n, "origin": "dir" })).collect();
        for g in crate::shipped::GAMES {
            if !names.iter().any(|n| n == g.name) {
                games.push(json!({ "name": g.name, "origin": "shipped" }));
                names.push(g.name.to_string());
            }
        }
        games
    }

    /// The names of the rule files of `DIR` that a request can name, sorted.
    fn dir_names(&self) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return Vec::new();
        };
        let mut names: Vec<String> = entries
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|e| e.file_name().to_str()?.strip_suffix(".mancala").map(str::to_string))
            .filter(|n| valid_name(n).is_ok())
            .collect();
        names.sort();
        names
    }

    /// The rule file called `name`: `DIR/name.mancala`, or else the shipped game of that name.
    fn read_rules(&self, name: &str) -> Result<(String, Origin), Reply> {
        valid_name(name)?;
        let path = self.inside_dir(name)?;
        match crate::io::read_limited(&path, crate::syntax::MAX_SOURCE_BYTES) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(text) => Ok((text, Origin::Dir)),
                Err(_) => Err(Reply::error(422, "encoding", format!("{name}.mancala is not UTF-8 text"))),
            },
            Err(crate::io::ReadError::Io(e)) if e.kind() == std::io::ErrorKind::NotFound => {
                match crate::shipped::find(name) {
                    Some(game) => Ok((game.text.to_string(), Origin::Shipped)),
                    None => Err(Reply::not_found(format!(
                        "there is no game `{name}`; the games are: {}",
                        self.list_games().iter().filter_map(|g| g["name"].as_str()).collect::<Vec<_>>().join(", ")
                    ))),
                }
            }
            Err(e) => Err(Reply::error(422, "file", format!("cannot read {name}.mancala: {e}"))),
        }
    }

    /// The path of `DIR/name.mancala`, refused when it is a link that leads out of `DIR` (its real path is
    /// compared with the folder's). A path that does not exist is `DIR/name.mancala` itself.
    fn inside_dir(&self, name: &str) -> Result<PathBuf, Reply> {
        let path = self.dir.join(format!("{name}.mancala"));
        match path.canonicalize() {
            Ok(real) if real.parent() == Some(self.dir.as_path()) => Ok(real),
            Ok(_) => {
                Err(Reply::error(403, "outside", format!("{name}.mancala leads outside the folder of rule files")))
            }
            Err(_) => Ok(path),
        }
    }

    fn game_file(&self, name: &str) -> Answer {
        Ok(self.begin_game_file(name)?())
    }

    /// `GET /api/games/NAME` in two halves: the file read here, and its parse and compile (for its variants
    /// and players), long for a large file, in the work returned.
    fn begin_game_file(&self, name: &str) -> Result<Work, Reply> {
        let (text, origin) = self.read_rules(name)?;
        let name = name.to_string();
        Ok(Box::new(move || {
            let variants = crate::syntax::parse(&text).map(|f| crate::check::variant_names(&f)).unwrap_or_default();
            // The base game's number of players, for the page's seats; none when the file has errors.
            let players = crate::compile(&text, None, None).ok().map(|e| e.rules.players);
            Reply::ok(json!({
                "name": name,
                "origin": origin.as_str(),
                "text": text,
                "variants": variants,
                "players": players,
            }))
        }))
    }

    /// Writes a rule file into `DIR` under a plain name: never elsewhere, never over a file unless asked.
    fn save_rules(&self, name: &str, request: SaveRules) -> Answer {
        valid_name(name)?;
        if request.text.len() > crate::syntax::MAX_SOURCE_BYTES {
            return Err(Reply::error(413, "too_large", "the rules are larger than a rule file may be"));
        }
        if !self.dir.is_dir() {
            return Err(Reply::error(
                409,
                "no_dir",
                format!("there is no folder {} to save into; start `mancala serve DIR` with one", self.dir.display()),
            ));
        }
        let path = self.dir.join(format!("{name}.mancala"));
        // What is there now, the entry itself (a link is not followed): only a regular file is replaced.
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if !meta.file_type().is_file() => {
                return Err(Reply::error(
                    409,
                    "not_a_file",
                    format!("{name}.mancala is not a regular file (a link, a FIFO, a folder); it is left alone"),
                ))
            }
            Ok(_) if !request.overwrite => {
                return Err(Reply::error(
                    409,
                    "exists",
                    format!("{name}.mancala exists already; choose another name, or overwrite it"),
                ))
            }
            _ => {}
        }
        crate::io::write_atomic(&path, request.text.as_bytes()).map_err(|e| {
            let e = crate::io::io_message(&e);
            Reply::error(500, "file", format!("cannot write {name}.mancala: {e}; the file that was there is kept"))
        })?;
        Ok(Reply::ok(json!({ "name": name, "saved": true })))
    }

    // ------------------------------------------------------------ games in progress

    /// The first half of starting a game, on the playground's thread: the request read, the rule file
    /// found, the rules of a game of the same text looked for.
    fn begin_start(&mut self, client: Option<&str>, body: &[u8]) -> Result<Starting, Reply> {
        self.count_creation(client)?;
        let request: NewGame = parse_body(body)?;
        let (name, text, origin) = match (&request.game, &request.text) {
            (Some(game), None) => {
                let (text, origin) = self.read_rules(game)?;
                (game.clone(), text, origin)
            }
            (None, Some(text)) => {
                let name = request.name.clone().unwrap_or_else(|| "variant".into());
                if name.chars().count() > MAX_NAME_CHARS {
                    return Err(Reply::error(400, "bad_name", "the name is too long"));
                }
                if text.len() > crate::syntax::MAX_SOURCE_BYTES {
                    return Err(Reply::error(413, "too_large", "the rules are larger than a rule file may be"));
                }
                (name, text.clone(), Origin::Text)
            }
            _ => return Err(Reply::error(400, "bad_request", "give either `game` (a name) or `text` (the rules)")),
        };
        let seed = request.seed.unwrap_or_else(|| self.rng.gen());
        Ok(Starting::new(client, (name, Arc::from(text), origin), request, seed, &self.rule_sets))
    }

    /// Keeps a game that [`Starting::run`] made, making room for it, and answers the request that
    /// began it.
    pub fn started(&mut self, started: Started) -> Reply {
        let Started { client, key, variant, players, game } = started;
        let live = match game {
            Ok(live) => live,
            Err(reply) => return reply,
        };
        let client = client.as_deref();
        if let Err(reply) = self.make_room(client).and_then(|()| self.make_rule_room(&live)) {
            return reply;
        }
        self.rule_sets.keep(key, &live, variant.as_deref(), players);
        let id = format!("{:016x}", self.rng.gen::<u64>());
        let reply = Reply::json(201, &view::game(&id, &live));
        self.games.insert(id, live);
        reply
    }

    /// Makes room for the rules of `live`, unless a game holds them already: while the text of the
    /// distinct rule sets held would pass [`MAX_RULE_BYTES`], the client holding the most of it loses its
    /// game left alone longest (none the computer is thinking about); when none is left to lose, the new
    /// game is refused.
    fn make_rule_room(&mut self, live: &Live) -> Result<(), Reply> {
        let engine = &live.session.engine;
        if self.games.values().any(|g| Arc::ptr_eq(&g.session.engine, engine)) {
            return Ok(());
        }
        while start::rule_bytes(self.games.values()) + live.text.len() > MAX_RULE_BYTES {
            let mut clients: Vec<Option<&str>> = self.games.values().map(|g| g.client.as_deref()).collect();
            clients.sort();
            clients.dedup();
            let heaviest = clients
                .into_iter()
                .max_by_key(|c| start::rule_bytes(self.games.values().filter(|g| g.client.as_deref() == *c)))
                .map(|c| c.map(str::to_string));
            if !self.drop_idlest_of(heaviest) {
                return Err(Reply::error(
                    503,
                    "full",
                    "the games in progress hold as many large rule files as this server keeps; try again later",
                ));
            }
        }
        Ok(())
    }

    /// Drops the game of `holder` (a client, or `None` for games of no known client) left alone longest,
    /// as `games_of` orders them; false when there is none to drop.
    fn drop_idlest_of(&mut self, holder: Option<Option<String>>) -> bool {
        let victim = holder.and_then(|h| self.games_of(h.as_deref()).first().map(|(_, id)| id.clone()));
        victim.is_some_and(|id| self.games.remove(&id).is_some())
    }

    /// Counts a start of `client`'s: refused (429) past its burst and rate.
    fn count_creation(&mut self, client: Option<&str>) -> Result<(), Reply> {
        let Some(client) = client else { return Ok(()) };
        let burst = CREATION_BURST as f64;
        let refill = |(left, since): (f64, Instant)| {
            (burst.min(left + since.elapsed().as_secs_f64() * CREATIONS_PER_MINUTE as f64 / 60.0), Instant::now())
        };
        if self.creations.len() >= MAX_COUNTED_CLIENTS && !self.creations.contains_key(client) {
            self.creations.retain(|_, counted| refill(*counted).0 < burst);
        }
        let counted = self.creations.get(client).copied().map_or((burst, Instant::now()), refill);
        if counted.0 < 1.0 {
            self.creations.insert(client.to_string(), counted);
            return Err(Reply::error(
                429,
                "too_many",
                format!("too many games started from here; at most {CREATIONS_PER_MINUTE} a minute: try again soon"),
            ));
        }
        self.creations.insert(client.to_string(), (counted.0 - 1.0, counted.1));
        Ok(())
    }

    /// The games in progress of `client` (not those away with the computer), left alone longest first.
    fn games_of(&self, client: Option<&str>) -> Vec<(Instant, String)> {
        let mut games: Vec<(Instant, String)> = self
            .games
            .iter()
            .filter(|(_, g)| g.client.as_deref() == client)
            .map(|(id, g)| (g.used, id.clone()))
            .collect();
        games.sort();
        games
    }

    /// Makes room for one more game of `client`'s. Its own game left alone longest goes when it has its
    /// share already. Past the cap of all games: the game left alone longest, if it was for `keep_idle`
    /// at least; else the game left alone longest of the client with the most games, if that one has more
    /// than `client` (none the computer is thinking about); when that is not enough, the new game is
    /// refused.
    fn make_room(&mut self, client: Option<&str>) -> Result<(), Reply> {
        let own = self.games_of(client);
        if own.len() >= self.max_per_client {
            for (_, id) in &own[..=own.len() - self.max_per_client] {
                self.games.remove(id);
            }
        }
        while self.games.len() + self.away.len() >= self.max_games {
            let oldest = self.games.iter().min_by_key(|(_, g)| g.used).map(|(id, g)| (id.clone(), g.used));
            if let Some((id, _)) = oldest.filter(|(_, used)| used.elapsed() >= self.keep_idle) {
                self.games.remove(&id);
                continue;
            }
            let mut held: HashMap<Option<&str>, usize> = HashMap::new();
            for g in self.games.values() {
                *held.entry(g.client.as_deref()).or_default() += 1;
            }
            let mine = held.get(&client).copied().unwrap_or(0);
            let most = held.into_iter().max_by_key(|(_, n)| *n).filter(|(_, n)| *n > mine + 1);
            let most = most.map(|(holder, _)| holder.map(str::to_string));
            if !self.drop_idlest_of(most) {
                return Err(Reply::error(
                    503,
                    "full",
                    format!(
                        "{} games are in progress here, all played in the last {} minutes; \
                         delete one, or try again later",
                        self.max_games,
                        self.keep_idle.as_secs() / 60
                    ),
                ));
            }
        }
        Ok(())
    }

    /// `POST /api/sessions/ID/ACTION`: a move, or a command of the REPL (never one that touches files).
    fn act(&mut self, id: &str, action: &str, body: &[u8]) -> Answer {
        let command = match action {
            "play" => {
                let PlayMove { text } = parse_body(body)?;
                if text.chars().count() > MAX_MOVE_CHARS {
                    return Err(Reply::error(400, "bad_move", "the move is too long"));
                }
                // Only moves: a typed `save FILE` must not reach the session, which would write the file.
                Some(Command::Play(text))
            }
            "undo" => Some(Command::Undo),
            "redo" => Some(Command::Redo),
            "cancel" => Some(Command::Cancel),
            "new" => {
                // A game started again starts its story again.
                if let Some(live) = self.games.get_mut(id) {
                    live.log.clear();
                }
                Some(Command::New { force: true })
            }
            "hint" => Some(Command::Hint(hint_level(body)?)),
            "computer" | "load" => None,
            _ => return Err(Reply::not_found(format!("no action `{action}`"))),
        };
        let save = if action == "load" { Some(load_body(body)?) } else { None };
        self.with(id, |live| perform(id, live, command, save))
    }
}

/// Runs a command on a game, or loads a save into it (`save`), or else lets the computer play; answers
/// with the game's view and what was said. The hint is said to the page alone, not to the game's log.
fn perform(id: &str, live: &mut Live, command: Option<Command>, save: Option<String>) -> Answer {
    let hint = matches!(command, Some(Command::Hint(_)));
    let plies_before = live.session.history().len();
    let text = match (command, save) {
        (Some(command), _) => live.session.execute(command).map_err(session_error)?.text,
        (None, Some(save)) => {
            let n = live.session.load_json(&save, "the saved game").map_err(session_error)?;
            // What happened in the game before is not this game's.
            live.log.clear();
            format!("loaded the saved game ({})", crate::plural(n as u64, "ply", "plies"))
        }
        (None, None) => computer(&mut live.session)?,
    };
    if !hint {
        // A ply just made (or made again) is told with its number, for the page's "why?".
        let plies = live.session.history().len();
        let made = (plies == plies_before + 1).then_some(plies);
        live.tell(text.clone(), made);
    }
    let mut value = view::game(id, live);
    value["message"] = json!(text);
    Ok(Reply::ok(value))
}

/// The request's path without its query, in parts: `/api/games/x` is `["api", "games", "x"]`.
fn path_parts(path: &str) -> Vec<&str> {
    let path = path.split(['?', '#']).next().unwrap_or("");
    path.trim_start_matches('/').split('/').collect()
}

/// The answers that are the same for every game and every playground: the page, its files and the words
/// of the language. A server may give them without asking the playground (they are never held up).
pub fn fixed(method: &str, path: &str) -> Option<Reply> {
    match (method, path_parts(path).as_slice()) {
        ("GET" | "HEAD", [""] | ["index.html"]) => Some(assets::page()),
        ("GET" | "HEAD", ["assets", name]) => {
            Some(assets::file(name).unwrap_or_else(|| Reply::not_found("no such file")))
        }
        ("GET", ["api", "language"]) => Some(Reply::ok(json!({ "keywords": assets::keywords() }))),
        _ => None,
    }
}

/// Whether a request is the editor's (`check`, `hover`, `complete`): answered from its body alone, with no
/// game, so that a server may answer it on a thread of its own ([`editor_request`]).
pub fn is_editor_request(method: &str, path: &str) -> bool {
    matches!((method, path_parts(path).as_slice()), ("POST", ["api", "check" | "hover" | "complete"]))
}

/// The answer to a request of the editor (see [`is_editor_request`]): the text's diagnostics, a hover, the
/// completions. Long for a large text.
pub fn editor_request(path: &str, body: &[u8]) -> Reply {
    match path_parts(path).as_slice() {
        ["api", what] => editor_answer(what, body).unwrap_or_else(|e| e),
        _ => Reply::not_found("no such page"),
    }
}

fn editor_answer(what: &str, body: &[u8]) -> Answer {
    match what {
        "check" => Ok(check_text(&parse_body::<Text>(body)?.text)),
        "hover" => Ok(editor::hover(parse_body(body)?)),
        "complete" => Ok(editor::complete(parse_body(body)?)),
        _ => Err(Reply::not_found("no such page")),
    }
}

/// The level a hint is asked at: `{"level": "hard"}`, or none (an empty body).
fn hint_level(body: &[u8]) -> Result<Option<crate::ai::Level>, Reply> {
    #[derive(Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Hint {
        level: Option<String>,
    }
    let hint: Hint = parse_body(body)?;
    match hint.level.as_deref() {
        None | Some("") => Ok(None),
        Some(name) => crate::ai::Level::named(name)
            .map(Some)
            .ok_or_else(|| Reply::error(400, "bad_level", format!("`{name}`: the levels are easy, normal and hard"))),
    }
}

/// The computer's move: one ply of a computer seat, or, when a person is to move, the decision at hand.
fn computer(session: &mut Session) -> Result<String, Reply> {
    if session.is_over() {
        return Err(session_error(SessionError::GameOver));
    }
    if session.human_to_move() {
        return session.execute(Command::Ai).map(|o| o.text).map_err(session_error);
    }
    session.computer_turn().ok_or_else(|| Reply::error(500, "computer", "the computer found no move; this is a bug"))
}

/// A save file sent as the body: either the save's JSON itself or `{"save": "..."}`.
fn load_body(body: &[u8]) -> Result<String, Reply> {
    let text = std::str::from_utf8(body).map_err(|_| Reply::error(400, "bad_json", "the body is not UTF-8"))?;
    let value: Value =
        serde_json::from_str(text).map_err(|e| Reply::error(400, "bad_json", format!("bad JSON: {e}")))?;
    Ok(match value.get("save").and_then(Value::as_str) {
        Some(save) => save.to_string(),
        None => text.to_string(),
    })
}

/// The body as JSON of type `T`, or a 400 that says what is wrong with it.
fn parse_body<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, Reply> {
    if body.len() > MAX_BODY_BYTES {
        return Err(Reply::error(413, "too_large", format!("the body is larger than {} bytes", MAX_BODY_BYTES)));
    }
    let body = if body.iter().all(u8::is_ascii_whitespace) { b"{}" } else { body };
    serde_json::from_slice(body).map_err(|e| Reply::error(400, "bad_json", format!("bad JSON: {e}")))
}

/// Whether a path is one the playground answers for some method (for 405 rather than 404).
fn known_path(parts: &[&str]) -> bool {
    matches!(
        parts,
        [""] | ["api", "games"]
            | ["api", "language"]
            | ["api", "games", _]
            | ["api", "check"]
            | ["api", "hover"]
            | ["api", "complete"]
            | ["api", "sessions"]
            | ["api", "sessions", _]
            | ["api", "sessions", _, _]
            | ["api", "sessions", _, "plies", _]
            | ["api", "sessions", _, "explain", _]
            | ["assets", _]
    )
}

/// A game's name as a request may give it: letters, digits, `-` and `_`, so that it names a file of `DIR`
/// and nothing else (no `/`, no `..`, no hidden file).
fn valid_name(name: &str) -> Result<(), Reply> {
    let ok = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && !name.starts_with('-');
    if ok {
        Ok(())
    } else {
        Err(Reply::error(
            400,
            "bad_name",
            format!("`{name}` is not a game name: use letters, digits, `-` and `_` (at most {MAX_NAME_CHARS})"),
        ))
    }
}

fn unknown_game(id: &str) -> Reply {
    Reply::not_found(format!("no game `{id}` is in progress (it ended, or the server was restarted)"))
}

/// A session's error as a reply: the command was refused and nothing changed.
fn session_error(e: SessionError) -> Reply {
    let (status, kind) = match e {
        SessionError::Usage(_) => (400, "usage"),
        SessionError::Illegal(_) => (409, "illegal"),
        SessionError::GameOver => (409, "game_over"),
        SessionError::File(_) => (422, "file"),
    };
    Reply::error(status, kind, e.to_string())
}

/// `POST /api/check`: every diagnostic of the text, as `mancala check --format json` gives them.
fn check_text(text: &str) -> Reply {
    let diagnostics = crate::check::check_source(text);
    Reply::ok(json!({ "diagnostics": diagnostics_json(text, &diagnostics) }))
}

fn diagnostics_json(text: &str, diagnostics: &[Diagnostic]) -> Value {
    let records: Vec<_> = diagnostics.iter().map(|d| crate::diag::to_json("rules", text, d)).collect();
    serde_json::to_value(records).unwrap_or_default()
}

/// Lowers one variant for a number of players; a file with errors is a 422 with its diagnostics, and an
/// unknown variant or player count a 400.
fn compile(name: &str, text: &str, variant: Option<&str>, players: Option<u8>) -> Result<crate::engine::Engine, Reply> {
    let variant = variant.filter(|v| *v != "default");
    crate::compile(text, variant, players).map_err(|diagnostics| {
        let option = diagnostics
            .iter()
            .find(|d| d.code == "mancala::check::unknown_variant" || d.code == "mancala::check::players_range");
        match option {
            Some(d) => Reply::json(400, &json!({ "error": d.message, "help": d.help, "kind": "options" })),
            None => Reply::json(
                422,
                &json!({
                    "error": format!("{name} has errors"),
                    "kind": "invalid",
                    "diagnostics": diagnostics_json(text, &diagnostics),
                }),
            ),
        }
    })
}

/// Who plays each seat: as asked (`human`, `mcts:500ms`), within the server's budgets; by default a person
/// plays seat 1 and the computer the others.
fn seats(players: u8, asked: Option<&[String]>) -> Result<Vec<Seat>, Reply> {
    let Some(asked) = asked else {
        return Ok((0..players).map(|p| if p == 0 { Seat::Human } else { Seat::Computer(DEFAULT_COMPUTER) }).collect());
    };
    if asked.len() > players as usize {
        return Err(Reply::error(400, "seats", format!("{} seats given for a game of {players}", asked.len())));
    }
    asked
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let seat: Seat = match s.as_str() {
                "computer" => Seat::Computer(DEFAULT_COMPUTER),
                _ => s.parse().map_err(|e| Reply::error(400, "seats", format!("seat {}: {e}", i + 1)))?,
            };
            within_budget(seat).map_err(|e| Reply::error(400, "seats", format!("seat {}: {e}", i + 1)))
        })
        .collect()
}

/// A computer seat's budget, refused when it could keep the server busy for long.
fn within_budget(seat: Seat) -> Result<Seat, String> {
    match seat {
        Seat::Computer(AiKind::Mcts(Budget::Time(t))) if t > MAX_THINKING => {
            Err(format!("at most {} s per decision here", MAX_THINKING.as_secs()))
        }
        Seat::Computer(AiKind::Mcts(Budget::Playouts(n))) if n > MAX_PLAYOUTS => {
            Err(format!("at most {MAX_PLAYOUTS} playouts per decision here"))
        }
        Seat::Computer(AiKind::AlphaBeta(d)) if d > MAX_DEPTH => Err(format!("at most depth {MAX_DEPTH} here")),
        _ => Ok(seat),
    }
}

/// The folder of rule files `mancala serve` uses when none is given.
pub fn default_dir() -> &'static Path {
    Path::new("games")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(playground: &mut Playground) -> Reply {
        playground.handle("POST", "/api/sessions", br#"{"game": "kalah"}"#)
    }

    fn id(reply: &Reply) -> String {
        let view: Value = serde_json::from_slice(&reply.body).unwrap();
        view["id"].as_str().unwrap().to_string()
    }

    #[test]
    fn past_the_cap_the_game_left_alone_longest_makes_room_once_it_is_old_enough() {
        let mut playground = Playground::new(PathBuf::from("no-such-dir"), 1).with_game_limits(2, Duration::ZERO);
        let first = id(&start(&mut playground));
        let second = id(&start(&mut playground));
        // The first is played again: the second is now the one left alone longest.
        assert_eq!(playground.handle("GET", &format!("/api/sessions/{first}"), b"").status, 200);
        let third = start(&mut playground);
        assert_eq!(third.status, 201);
        assert_eq!(playground.handle("GET", &format!("/api/sessions/{second}"), b"").status, 404);
        assert_eq!(playground.handle("GET", &format!("/api/sessions/{first}"), b"").status, 200);

        let mut playground = Playground::new(PathBuf::from("no-such-dir"), 1).with_game_limits(1, KEEP_IDLE);
        let only = id(&start(&mut playground));
        assert_eq!(start(&mut playground).status, 503);
        assert_eq!(playground.handle("GET", &format!("/api/sessions/{only}"), b"").status, 200);
    }

    #[test]
    fn a_game_away_with_the_computer_answers_with_its_view_and_refuses_changes() {
        let mut playground = Playground::new(PathBuf::from("no-such-dir"), 1);
        let body = br#"{"game": "kalah", "seats": ["random", "random"]}"#;
        let id = id(&playground.handle("POST", "/api/sessions", body));
        let Step::Think(thinking) = playground.begin("POST", &format!("/api/sessions/{id}/computer"), b"{}") else {
            panic!("the computer's ply is thought about away");
        };
        let view: Value =
            serde_json::from_slice(&playground.handle("GET", &format!("/api/sessions/{id}"), b"").body).unwrap();
        assert_eq!(view["thinking"]["action"], "computer", "{view}");
        let undo = playground.handle("POST", &format!("/api/sessions/{id}/undo"), b"{}");
        assert_eq!(undo.status, 409);
        assert_eq!(playground.handle("POST", &format!("/api/sessions/{id}/stop"), b"{}").status, 200);
        assert!(thinking.watch().stopped());
        // Stopped before it began: the game comes back as it was.
        let reply = playground.finish(thinking.run());
        assert_eq!(reply.status, 409);
        let view: Value =
            serde_json::from_slice(&playground.handle("GET", &format!("/api/sessions/{id}"), b"").body).unwrap();
        assert_eq!((view["history"].clone(), view.get("thinking")), (json!([]), None));
        let Step::Think(thinking) = playground.begin("POST", &format!("/api/sessions/{id}/computer"), b"{}") else {
            panic!("the computer's ply is thought about away");
        };
        let reply = playground.finish(thinking.run());
        assert_eq!(reply.status, 200);
        let view: Value = serde_json::from_slice(&reply.body).unwrap();
        assert_eq!(view["history"].as_array().unwrap().len(), 1);
    }

    fn start_for(playground: &mut Playground, client: &str, body: &[u8]) -> Reply {
        playground.handle_for(Some(client), "POST", "/api/sessions", body)
    }

    #[test]
    fn games_of_one_text_share_its_rules_and_its_text() {
        let mut playground = Playground::new(PathBuf::from("no-such-dir"), 1);
        let (a, b) = (id(&start(&mut playground)), id(&start(&mut playground)));
        let body = br#"{"game": "kalah", "variant": "empty-capture"}"#;
        let c = id(&playground.handle("POST", "/api/sessions", body));
        let (a, b, c) = (&playground.games[&a], &playground.games[&b], &playground.games[&c]);
        assert!(Arc::ptr_eq(&a.session.engine, &b.session.engine));
        assert!(Arc::ptr_eq(&a.text, &b.text));
        assert!(!Arc::ptr_eq(&a.session.engine, &c.session.engine), "another variant, other rules");
    }

    #[test]
    fn a_client_with_many_games_gives_way_to_one_with_fewer() {
        let mut playground =
            Playground::new(PathBuf::from("no-such-dir"), 1).with_game_limits(4, KEEP_IDLE).with_client_limit(3);
        let kalah = br#"{"game": "kalah"}"#;
        let mine = id(&start_for(&mut playground, "a", kalah));
        // b keeps three, its own idlest dropped for its next.
        let first_of_b = id(&start_for(&mut playground, "b", kalah));
        for _ in 0..4 {
            assert_eq!(start_for(&mut playground, "b", kalah).status, 201);
        }
        assert_eq!(playground.handle("GET", &format!("/api/sessions/{first_of_b}"), b"").status, 404);
        // Full (a 1, b 3): c gets room from b, then b has no more than c and c is refused.
        assert_eq!(start_for(&mut playground, "c", kalah).status, 201);
        assert_eq!(start_for(&mut playground, "c", kalah).status, 503);
        assert_eq!(playground.handle("GET", &format!("/api/sessions/{mine}"), b"").status, 200);
        assert_eq!(playground.games_of(Some("b")).len(), 2);
    }
}
