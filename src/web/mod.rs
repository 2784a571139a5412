//! The back end of the web playground (`mancala serve`): a small JSON API over the library, with no HTTP
//! in it. The binary's HTTP layer hands each request's method, path and body to [`Playground::handle`]
//! and sends back the [`Reply`]; tests call it directly.
//!
//! Every game in progress lives here, in a [`Session`] as the REPL's does, so a reload of the page keeps
//! the game and the page and the REPL share one back end. Rule files are read from one folder (`DIR`),
//! and from the games shipped in the binary; the only file written is a rule file saved into that folder,
//! under a plain name, so no request can reach a path outside it. Bad requests get a JSON error and a 4xx
//! status; nothing a request holds can make the server panic or think without bound (the computer's
//! budgets are capped).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::ai::{AiKind, Budget};
use crate::diag::Diagnostic;
use crate::session::{Command, HintLimits, Seat, Session, SessionError};

pub mod assets;
mod view;

/// The largest request body: a rule file (at most [`crate::syntax::MAX_SOURCE_BYTES`]) in JSON, or a save.
pub const MAX_BODY_BYTES: usize = 1 << 20;
/// How many games may be in progress at once; a new game beyond it drops the one left alone longest.
pub const MAX_GAMES: usize = 64;
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
    text: String,
    /// What the players were told, newest last: narrations, the computer's plies, answers to commands.
    log: Vec<String>,
    /// When it was last used, on the playground's own clock, to drop the oldest game past [`MAX_GAMES`].
    used: u64,
}

/// The most lines a game's log keeps.
const MAX_LOG: usize = 200;

impl Live {
    fn tell(&mut self, line: impl Into<String>) {
        let line = line.into();
        if line.is_empty() {
            return;
        }
        self.log.push(line);
        if self.log.len() > MAX_LOG {
            self.log.drain(..self.log.len() - MAX_LOG);
        }
    }
}

/// Every game in progress, and the folder of rule files.
pub struct Playground {
    dir: PathBuf,
    games: HashMap<String, Live>,
    clock: u64,
    rng: SmallRng,
    max_games: usize,
}

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
        Playground { dir, games: HashMap::new(), clock: 0, rng: SmallRng::seed_from_u64(seed), max_games: MAX_GAMES }
    }

    /// The same, keeping at most `max_games` games (at least one).
    pub fn with_max_games(mut self, max_games: usize) -> Playground {
        self.max_games = max_games.max(1);
        self
    }

    /// Answers one request. `path` may carry a query, which is ignored; `body` is the request's body.
    pub fn handle(&mut self, method: &str, path: &str, body: &[u8]) -> Reply {
        let path = path.split(['?', '#']).next().unwrap_or("");
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        self.clock += 1;
        self.route(method, &parts, body).unwrap_or_else(|e| e)
    }

    fn route(&mut self, method: &str, parts: &[&str], body: &[u8]) -> Answer {
        match (method, parts) {
            ("GET" | "HEAD", [""] | ["index.html"]) => Ok(assets::page()),
            ("GET" | "HEAD", ["assets", name]) => assets::file(name).ok_or_else(|| Reply::not_found("no such file")),
            ("GET", ["api", "language"]) => Ok(Reply::ok(json!({ "keywords": assets::keywords() }))),
            ("GET", ["api", "games"]) => Ok(Reply::ok(json!({ "games": self.list_games() }))),
            ("GET", ["api", "games", name]) => self.game_file(name),
            ("PUT", ["api", "games", name]) => self.save_rules(name, parse_body(body)?),
            ("POST", ["api", "check"]) => Ok(check_text(&parse_body::<Text>(body)?.text)),
            ("POST", ["api", "sessions"]) => self.start(parse_body(body)?),
            ("GET", ["api", "sessions", id]) => self.with(id, |live| Ok(Reply::ok(view::game(id, live)))),
            ("DELETE", ["api", "sessions", id]) => match self.games.remove(*id) {
                Some(_) => Ok(Reply::ok(json!({ "deleted": id }))),
                None => Err(unknown_game(id)),
            },
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
            ("POST", ["api", "sessions", id, action]) => self.act(id, action, body),
            (_, ["api", ..]) | (_, ["assets", ..]) | (_, [""]) if known_path(parts) => {
                Err(Reply::error(405, "method", format!("{method} is not allowed here")))
            }
            _ => Err(Reply::not_found("no such page")),
        }
    }

    /// Runs `f` on a game in progress, marking it used.
    fn with(&mut self, id: &str, f: impl FnOnce(&mut Live) -> Answer) -> Answer {
        let clock = self.clock;
        let live = self.games.get_mut(id).ok_or_else(|| unknown_game(id))?;
        live.used = clock;
        f(live)
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
        let path = self.dir.join(format!("{name}.mancala"));
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

    fn game_file(&self, name: &str) -> Answer {
        let (text, origin) = self.read_rules(name)?;
        let variants = crate::syntax::parse(&text).map(|f| crate::check::variant_names(&f)).unwrap_or_default();
        // The base game's number of players, for the page's seats; none when the file has errors.
        let players = crate::compile(&text, None, None).ok().map(|e| e.rules.players);
        Ok(Reply::ok(json!({
            "name": name,
            "origin": origin.as_str(),
            "text": text,
            "variants": variants,
            "players": players,
        })))
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
        if path.exists() && !request.overwrite {
            return Err(Reply::error(
                409,
                "exists",
                format!("{name}.mancala exists already; choose another name, or overwrite it"),
            ));
        }
        std::fs::write(&path, &request.text)
            .map_err(|e| Reply::error(500, "file", format!("cannot write {name}.mancala: {e}")))?;
        Ok(Reply::ok(json!({ "name": name, "saved": true })))
    }

    // ------------------------------------------------------------ games in progress

    fn start(&mut self, request: NewGame) -> Answer {
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
        let engine = compile(&name, &text, request.variant.as_deref(), request.players)?;
        let seats = seats(engine.rules.players, request.seats.as_deref())?;
        let seed = request.seed.unwrap_or_else(|| self.rng.gen());
        let mut session = Session::new(engine, &name, &text, seats, seed).map_err(session_error)?;
        session.set_hint_limits(HintLimits {
            time: Duration::from_secs(2),
            search: crate::solve::SolveOptions { max_bytes: 64 << 20, ..crate::solve::SolveOptions::default() },
        });
        if let Some(position) = &request.position {
            session.start_from(position).map_err(|e| Reply::error(400, "position", format!("position: {e}")))?;
        }
        self.make_room();
        let id = format!("{:016x}", self.rng.gen::<u64>());
        let live = Live { session, name, origin, text, log: Vec::new(), used: self.clock };
        let reply = Reply::json(201, &view::game(&id, &live));
        self.games.insert(id, live);
        Ok(reply)
    }

    /// Drops the games left alone longest until there is room for one more.
    fn make_room(&mut self) {
        while self.games.len() >= self.max_games {
            let Some(oldest) = self.games.iter().min_by_key(|(_, g)| g.used).map(|(id, _)| id.clone()) else {
                return;
            };
            self.games.remove(&oldest);
        }
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
        self.with(id, |live| {
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
            let hint = action == "hint";
            if !hint {
                live.tell(text.clone());
            }
            let mut value = view::game(id, live);
            value["message"] = json!(text);
            Ok(Reply::ok(value))
        })
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
            | ["api", "sessions"]
            | ["api", "sessions", _]
            | ["api", "sessions", _, _]
            | ["api", "sessions", _, "plies", _]
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
