//! The web playground's API, through `mancala serve` on a free loopback port, without a browser: every
//! endpoint, and bad requests of every sort (bad JSON, oversized bodies, paths that leave DIR, unknown
//! game ids, foreign hosts), each answered with a JSON error and a 4xx while the server goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Value};

/// A running `mancala serve`, stopped when dropped.
struct Server {
    child: Child,
    port: u16,
    dir: PathBuf,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A fresh directory of rule files for one test: a copy of Kalah as `mine`.
fn temp_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("serve").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let kalah = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("games/kalah.mancala")).unwrap();
    std::fs::write(dir.join("mine.mancala"), kalah).unwrap();
    dir
}

fn serve(name: &str) -> Server {
    let dir = temp_dir(name);
    let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
        .args(["serve", "--port", "0"])
        .arg(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("mancala serve starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let port = line
        .split("127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Server { child, port, dir }
}

/// One HTTP/1.1 request, sent raw so that any malformed request can be sent; the status and the body.
fn raw(server: &Server, request: &[u8]) -> (u16, Vec<u8>) {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    stream.write_all(request).unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").expect("a whole response");
    let head = String::from_utf8_lossy(&response[..split]).to_string();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    let body = &response[split + 4..];
    // A long view (a match of many rounds has a long history) comes in chunks.
    let chunked = head.to_ascii_lowercase().contains("transfer-encoding: chunked");
    (status, if chunked { unchunk(body) } else { body.to_vec() })
}

/// The body of a response sent with `Transfer-Encoding: chunked`: each chunk's size in hex, a line end, the
/// chunk, a line end, until a chunk of size 0.
fn unchunk(mut body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(end) = body.windows(2).position(|w| w == b"\r\n") {
        let size = usize::from_str_radix(String::from_utf8_lossy(&body[..end]).trim(), 16).expect("a chunk size");
        if size == 0 {
            break;
        }
        out.extend_from_slice(&body[end + 2..end + 2 + size]);
        body = &body[end + 2 + size + 2..];
    }
    out
}

fn request(server: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let body_part = match body {
        Some(b) => format!("Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{b}", b.len()),
        None => "\r\n".to_string(),
    };
    let text =
        format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n{body_part}", server.port);
    let (status, body) = raw(server, text.as_bytes());
    let value = serde_json::from_slice(&body).unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&body).into()));
    (status, value)
}

fn get(server: &Server, path: &str) -> (u16, Value) {
    request(server, "GET", path, None)
}

fn post(server: &Server, path: &str, body: Value) -> (u16, Value) {
    request(server, "POST", path, Some(&body.to_string()))
}

/// Starts a game and returns its view.
fn start(server: &Server, body: Value) -> Value {
    let (status, view) = post(server, "/api/sessions", body);
    assert_eq!(status, 201, "{view}");
    view
}

fn play(server: &Server, id: &str, text: &str) -> (u16, Value) {
    post(server, &format!("/api/sessions/{id}/play"), json!({ "move": text }))
}

fn error_kind(v: &Value) -> &str {
    v["kind"].as_str().unwrap_or_else(|| panic!("no error kind in {v}"))
}

#[test]
fn the_page_and_its_assets_are_served() {
    let s = serve("page");
    let (status, page) = get(&s, "/");
    assert_eq!(status, 200);
    assert!(page.as_str().unwrap().contains("<!doctype html>"), "{page}");
    for asset in ["app.js", "board.js", "editor.js", "style.css"] {
        let (status, _) = get(&s, &format!("/assets/{asset}"));
        assert_eq!(status, 200, "{asset}");
    }
    assert_eq!(get(&s, "/assets/nothing.js").0, 404);
    assert_eq!(get(&s, "/nowhere").0, 404);
    assert_eq!(request(&s, "DELETE", "/api/games", None).0, 405);
}

#[test]
fn games_are_listed_read_and_saved_into_dir_only() {
    let s = serve("games");
    let (status, list) = get(&s, "/api/games");
    assert_eq!(status, 200);
    let names: Vec<(&str, &str)> = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| (g["name"].as_str().unwrap(), g["origin"].as_str().unwrap()))
        .collect();
    assert_eq!(names[0], ("mine", "dir"));
    assert!(names.contains(&("kalah", "shipped")) && names.contains(&("gore", "shipped")), "{names:?}");

    let (status, gulek) = get(&s, "/api/games/gulek-solo");
    assert_eq!(status, 200);
    assert!(gulek["text"].as_str().unwrap().contains("game \""));
    assert_eq!(gulek["variants"][0], "default");
    assert!(gulek["variants"].as_array().unwrap().len() > 1, "{}", gulek["variants"]);

    let (status, e) = get(&s, "/api/games/nothing");
    assert_eq!((status, error_kind(&e)), (404, "not_found"));

    // A new variant is saved under a plain name, in DIR, never over a file unless asked.
    let text = gulek["text"].as_str().unwrap();
    let (status, _) = request(&s, "PUT", "/api/games/my-variant", Some(&json!({ "text": text }).to_string()));
    assert_eq!(status, 200);
    assert_eq!(std::fs::read_to_string(s.dir.join("my-variant.mancala")).unwrap(), text);
    let (status, e) = request(&s, "PUT", "/api/games/my-variant", Some(&json!({ "text": "x" }).to_string()));
    assert_eq!((status, error_kind(&e)), (409, "exists"));
    let body = json!({ "text": "x", "overwrite": true }).to_string();
    assert_eq!(request(&s, "PUT", "/api/games/my-variant", Some(&body)).0, 200);
    assert_eq!(std::fs::read_to_string(s.dir.join("my-variant.mancala")).unwrap(), "x");
}

#[test]
fn paths_that_leave_dir_are_refused() {
    let s = serve("traversal");
    let body = json!({ "text": "x" }).to_string();
    for name in ["..%2f..%2fescape", "..", ".hidden", "a.b", "%2e%2e", "-rf", &"x".repeat(65)] {
        let (status, e) = get(&s, &format!("/api/games/{name}"));
        assert_eq!((status, error_kind(&e)), (400, "bad_name"), "{name}");
        let (status, _) = request(&s, "PUT", &format!("/api/games/{name}"), Some(&body));
        assert_eq!(status, 400, "{name}");
        let (status, _) = post(&s, "/api/sessions", json!({ "game": name }));
        assert_eq!(status, 400, "{name}");
    }
    // Paths with more parts than a route never reach a file.
    for path in ["/api/games/../../Cargo.toml", "/assets/../Cargo.toml", "/assets/../../etc/passwd"] {
        let (status, _) = request(&s, "GET", path, None);
        assert_eq!(status, 404, "{path}");
    }
    let written: Vec<_> = std::fs::read_dir(&s.dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(written, vec![std::ffi::OsString::from("mine.mancala")]);
    assert!(!s.dir.parent().unwrap().join("escape.mancala").exists());
}

#[test]
fn check_gives_the_diagnostics_of_mancala_check() {
    let s = serve("check");
    let (status, v) = post(&s, "/api/check", json!({ "text": "game \"x\"\nboard nonsense\n" }));
    assert_eq!(status, 200);
    let d = &v["diagnostics"][0];
    assert_eq!((d["severity"].as_str(), d["line"].as_u64(), d["column"].as_u64()), (Some("error"), Some(2), Some(7)));
    assert_eq!(d["message"], "unexpected `nonsense`");
    let kalah = std::fs::read_to_string(s.dir.join("mine.mancala")).unwrap();
    let (_, v) = post(&s, "/api/check", json!({ "text": kalah }));
    assert_eq!(v["diagnostics"], json!([]));
}

#[test]
fn a_game_is_played_undone_redone_saved_and_loaded() {
    let s = serve("play");
    let view = start(&s, json!({ "game": "kalah", "seats": ["human", "human"] }));
    let id = view["id"].as_str().unwrap().to_string();
    assert_eq!(view["board"]["shape"], json!({ "TwoRows": { "pits": 6, "stores": true } }));
    assert_eq!(view["position"]["counts"][0], json!([4]));
    // Each start previews where its last seed lands and what it does.
    let preview = json!({ "last": 12, "captures": false, "again": true, "text": "sowed 4 from c, ending in store(1); moves again" });
    assert_eq!(
        view["options"][2],
        json!({ "label": "c", "kind": "begin", "place": 2, "piece": null, "towards": null, "preview": preview })
    );

    // c ends in the store: another turn.
    let (status, v) = play(&s, &id, "c");
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["history"], json!(["c"]));
    assert!(v["message"].as_str().unwrap().contains("played c"), "{}", v["message"]);
    assert_eq!(v["position"]["to_move"], 0);
    let (status, e) = play(&s, &id, "z");
    assert_eq!((status, error_kind(&e)), (409, "illegal"));
    play(&s, &id, "f");
    // A reload finds the game as it was.
    let (_, again) = get(&s, &format!("/api/sessions/{id}"));
    assert_eq!(again["history"], json!(["c", "f"]));
    assert!(again["log"].as_array().unwrap().len() >= 2);

    let (_, v) = post(&s, &format!("/api/sessions/{id}/undo"), json!({}));
    assert_eq!((v["history"].clone(), v["redo"].clone()), (json!(["c"]), json!(1)));
    let (_, v) = post(&s, &format!("/api/sessions/{id}/redo"), json!({}));
    assert_eq!(v["history"], json!(["c", "f"]));

    let (status, save) = get(&s, &format!("/api/sessions/{id}/save"));
    assert_eq!(status, 200);
    assert_eq!(save["format"], "mancala-game/1");
    assert_eq!(save["moves"], json!(["c", "f"]));
    post(&s, &format!("/api/sessions/{id}/new"), json!({}));
    let (_, v) = get(&s, &format!("/api/sessions/{id}"));
    assert_eq!(v["history"], json!([]));
    let (status, v) = post(&s, &format!("/api/sessions/{id}/load"), json!({ "save": save.to_string() }));
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["history"], json!(["c", "f"]));
    let (status, e) = post(&s, &format!("/api/sessions/{id}/load"), json!({ "format": "x" }));
    assert_eq!((status, error_kind(&e)), (422, "file"));

    let (_, rules) = get(&s, &format!("/api/sessions/{id}/rules"));
    assert!(rules["summary"].as_str().unwrap().contains("Kalah"), "{rules}");
    let (_, moves) = get(&s, &format!("/api/sessions/{id}/moves"));
    assert!(!moves["plies"].as_array().unwrap().is_empty());
    let (status, hint) = post(&s, &format!("/api/sessions/{id}/hint"), json!({}));
    assert_eq!(status, 200);
    let said = hint["message"].as_str().unwrap().to_string();
    assert!(said.starts_with("hint (normal): ") && said.contains(" — sowed "), "{said}");
    // The same position, the same hint; a level by name.
    let (_, again) = post(&s, &format!("/api/sessions/{id}/hint"), json!({}));
    assert_eq!(again["message"], hint["message"]);
    let (status, hard) = post(&s, &format!("/api/sessions/{id}/hint"), json!({ "level": "hard" }));
    assert_eq!(status, 200);
    assert!(hard["message"].as_str().unwrap().starts_with("hint (hard): "), "{}", hard["message"]);
    let (status, bad) = post(&s, &format!("/api/sessions/{id}/hint"), json!({ "level": "expert" }));
    assert_eq!((status, error_kind(&bad)), (400, "bad_level"));

    // Stepping through the game: the position after each ply, and who played it.
    let (status, first) = get(&s, &format!("/api/sessions/{id}/plies/1"));
    assert_eq!(status, 200, "{first}");
    assert_eq!((first["ply"].clone(), first["mover"].clone()), (json!(1), json!(0)));
    assert_eq!(first["position"]["counts"][2], json!([0]), "c was sown: {first}");
    assert_eq!(get(&s, &format!("/api/sessions/{id}/plies/0")).1["position"]["counts"][2], json!([4]));
    assert_eq!(get(&s, &format!("/api/sessions/{id}/plies/99")).0, 404);

    let (status, _) = request(&s, "DELETE", &format!("/api/sessions/{id}"), None);
    assert_eq!(status, 200);
    assert_eq!(get(&s, &format!("/api/sessions/{id}")).0, 404);
}

#[test]
fn the_computer_plays_one_ply_at_a_time_to_the_end() {
    let s = serve("computer");
    let view = start(&s, json!({ "game": "kalah", "seats": ["random", "greedy"], "seed": 3 }));
    let id = view["id"].as_str().unwrap();
    let mut plies = 0;
    loop {
        let (status, v) = post(&s, &format!("/api/sessions/{id}/computer"), json!({}));
        if status == 409 {
            assert_eq!(error_kind(&v), "game_over");
            break;
        }
        assert_eq!(status, 200, "{v}");
        assert_eq!(v["history"].as_array().unwrap().len(), plies + 1);
        plies += 1;
        assert!(plies < 500);
    }
    let (_, v) = get(&s, &format!("/api/sessions/{id}"));
    assert!(v["position"]["result"]["scores"].is_array(), "{}", v["position"]);
    assert_eq!(v["options"], json!([]));
}

#[test]
fn a_multi_step_turn_is_asked_for_one_decision_at_a_time() {
    let s = serve("steps");
    let position = "1=B 7=RRB phase=playing to_move=1";
    let view = start(&s, json!({ "game": "gulek", "seats": ["human", "human"], "position": position }));
    let id = view["id"].as_str().unwrap();
    let (status, v) = play(&s, id, "7");
    assert_eq!(status, 200, "{v}");
    // A turn of Gulek asks for a direction, then for each piece to drop.
    assert_eq!(v["in_turn"], true, "{v}");
    let mut v = v;
    while v["in_turn"] == true {
        let label = v["options"][0]["label"].as_str().unwrap().to_string();
        let (status, next) = play(&s, id, &label);
        assert_eq!(status, 200, "{next}");
        v = next;
    }
    assert_eq!(v["history"].as_array().unwrap().len(), 1, "{v}");
    let (_, v) = post(&s, &format!("/api/sessions/{id}/undo"), json!({}));
    assert_eq!(v["history"], json!([]));
}

#[test]
fn an_edited_text_plays_and_a_bad_one_gives_its_diagnostics() {
    let s = serve("text");
    let kalah = std::fs::read_to_string(s.dir.join("mine.mancala")).unwrap();
    let view = start(&s, json!({ "text": kalah.replace("setup 4", "setup 3"), "name": "three" }));
    assert_eq!(view["name"], "three");
    assert_eq!(view["origin"], "text");
    let (status, e) = post(&s, "/api/sessions", json!({ "text": "game \"x\"\n" }));
    assert_eq!((status, error_kind(&e)), (422, "invalid"));
    assert!(!e["diagnostics"].as_array().unwrap().is_empty());
    let (status, e) = post(&s, "/api/sessions", json!({ "game": "kalah", "variant": "nope" }));
    assert_eq!((status, error_kind(&e)), (400, "options"), "{e}");
    let (status, e) = post(&s, "/api/sessions", json!({ "game": "kalah", "players": 7 }));
    assert_eq!((status, error_kind(&e)), (400, "options"), "{e}");
    let (status, e) = post(&s, "/api/sessions", json!({ "game": "kalah", "seats": ["human", "mcts:100000s"] }));
    assert_eq!((status, error_kind(&e)), (400, "seats"), "{e}");
    let (status, e) = post(&s, "/api/sessions", json!({ "game": "kalah", "seats": ["human", "alphabeta:60"] }));
    assert_eq!((status, error_kind(&e)), (400, "seats"), "{e}");
    let (status, e) = post(&s, "/api/sessions", json!({ "game": "kalah", "seats": ["a", "b", "c"] }));
    assert_eq!((status, error_kind(&e)), (400, "seats"), "{e}");
    let (status, e) = post(&s, "/api/sessions", json!({ "game": "kalah", "position": "nonsense" }));
    assert_eq!((status, error_kind(&e)), (400, "position"), "{e}");
    let (status, _) = post(&s, "/api/sessions", json!({ "game": "kalah", "text": "x" }));
    assert_eq!(status, 400);
}

#[test]
fn bad_requests_get_json_errors_and_the_server_goes_on() {
    let s = serve("bad");
    for body in ["{", "[]", "null", "{\"text\": 5}", "{\"text\": \"x\", \"extra\": 1}", "\u{0}\u{1}"] {
        let (status, e) = request(&s, "POST", "/api/check", Some(body));
        assert_eq!((status, error_kind(&e)), (400, "bad_json"), "{body}");
    }
    let (status, e) = request(&s, "POST", "/api/sessions", Some("{\"game\": [1]}"));
    assert_eq!((status, error_kind(&e)), (400, "bad_json"));

    // Unknown game ids, and unknown actions.
    for path in ["/api/sessions/0000/play", "/api/sessions/../undo", "/api/sessions/x/computer"] {
        let (status, e) = post(&s, path, json!({ "move": "a" }));
        assert_eq!((status, error_kind(&e)), (404, "not_found"), "{path}");
    }
    assert_eq!(get(&s, "/api/sessions/nope").0, 404);
    assert_eq!(get(&s, "/api/sessions/nope/save").0, 404);
    let id = start(&s, json!({ "game": "kalah" }))["id"].as_str().unwrap().to_string();
    let (status, _) = post(&s, &format!("/api/sessions/{id}/fly"), json!({}));
    assert_eq!(status, 404);
    let (status, e) = play(&s, &id, &"a".repeat(5000));
    assert_eq!((status, error_kind(&e)), (400, "bad_move"));
    // A move is only a move: the REPL's `save FILE` never writes a file from here.
    let (status, _) = play(&s, &id, "save /tmp/mancala-serve-test.json");
    assert_eq!(status, 409);
    assert!(!Path::new("/tmp/mancala-serve-test.json").exists());

    // A body that is not JSON, from a form of another site, or a request for another host.
    let form = format!(
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: text/plain\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi",
        s.port
    );
    assert_eq!(raw(&s, form.as_bytes()).0, 415);
    let foreign = "GET /api/games HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n";
    assert_eq!(raw(&s, foreign.as_bytes()).0, 403);
    assert_eq!(raw(&s, b"garbage\r\n\r\n").0, 400);

    // Oversized bodies, declared or sent.
    let huge = format!(
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\nConnection: close\r\n\r\n{{",
        s.port
    );
    assert_eq!(raw(&s, huge.as_bytes()).0, 413);
    let big = json!({ "text": "x".repeat(2 << 20) }).to_string();
    assert_eq!(request(&s, "POST", "/api/check", Some(&big)).0, 413);

    // A client that never sends the body it announced holds up nobody else.
    let mut stalled = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    let stall = format!(
        "POST /api/check HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{",
        s.port
    );
    stalled.write_all(stall.as_bytes()).unwrap();
    assert_eq!(get(&s, "/api/games").0, 200);
    assert_eq!(get(&s, &format!("/api/sessions/{id}")).0, 200);
}

#[test]
fn live_games_are_bounded_and_the_oldest_is_dropped() {
    let s = serve("bounded");
    let first = start(&s, json!({ "game": "kalah" }))["id"].as_str().unwrap().to_string();
    let mut ids = Vec::new();
    for _ in 0..mancala::web::MAX_GAMES {
        ids.push(start(&s, json!({ "game": "kalah" }))["id"].as_str().unwrap().to_string());
    }
    assert_eq!(get(&s, &format!("/api/sessions/{first}")).0, 404);
    assert_eq!(get(&s, &format!("/api/sessions/{}", ids[0])).0, 200);
}

#[test]
fn the_language_words_come_from_the_grammar() {
    let s = serve("language");
    let (status, v) = get(&s, "/api/language");
    assert_eq!(status, 200);
    let words: Vec<&str> = v["keywords"].as_array().unwrap().iter().map(|w| w.as_str().unwrap()).collect();
    for word in ["game", "board", "sow", "capture", "two_rows", "ring", "variant", "offer"] {
        assert!(words.contains(&word), "{word} in {words:?}");
    }
    assert!(words.iter().all(|w| w.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')), "{words:?}");
}

/// Every variant of every shipped game plays to its end as the page plays it: a person choosing among the
/// options the page shows, by their labels, one decision at a time, and the computer for the other seats.
#[test]
fn every_shipped_game_plays_to_the_end_by_its_options() {
    let s = serve("every");
    for game in mancala::shipped::GAMES {
        let (_, file) = get(&s, &format!("/api/games/{}", game.name));
        for variant in file["variants"].as_array().unwrap() {
            let view = start(&s, json!({ "game": game.name, "variant": variant, "seed": 5 }));
            let id = view["id"].as_str().unwrap().to_string();
            let players = view["players"].as_u64().unwrap() as usize;
            // Quick computers, so that the test is fast.
            let seats: Vec<&str> = (0..players).map(|i| if i == 0 { "human" } else { "random" }).collect();
            let mut v = start(&s, json!({ "game": game.name, "variant": variant, "seats": seats, "seed": 5 }));
            request(&s, "DELETE", &format!("/api/sessions/{id}"), None);
            let id = v["id"].as_str().unwrap().to_string();
            let mut steps = 0usize;
            // A match of rounds is played to the end of its first round: random matches are thousands of plies.
            let round_over = |v: &Value| v["position"]["notation"].as_str().is_some_and(|n| n.contains("round=2"));
            while v["position"]["result"].is_null() && !round_over(&v) && steps < 3000 {
                steps += 1;
                let (status, next) = if v["human_to_move"] == true {
                    let options = v["options"].as_array().unwrap();
                    assert!(!options.is_empty(), "{} {variant}: nothing to choose: {v}", game.name);
                    let label = options[steps % options.len()]["label"].as_str().unwrap().to_string();
                    play(&s, &id, &label)
                } else {
                    post(&s, &format!("/api/sessions/{id}/computer"), json!({}))
                };
                assert_eq!(status, 200, "{} {variant}: {next}", game.name);
                v = next;
            }
            assert!(
                !v["position"]["result"].is_null() || round_over(&v),
                "{} {variant} did not end in {steps} steps",
                game.name
            );
            request(&s, "DELETE", &format!("/api/sessions/{id}"), None);
        }
    }
}

#[test]
fn a_ply_is_shown_step_by_step_the_sowing_then_the_capture() {
    let s = serve("steps-of-a-ply");
    let view = start(&s, json!({ "game": "kalah", "seats": ["human", "human"], "position": "a2 A1 D3 to_move=1" }));
    let id = view["id"].as_str().unwrap();
    // a sows into b and c; the last seed, in c, takes D's 3 with it into the store.
    let (_, v) = play(&s, id, "a");
    let steps = v["last"]["steps"].as_array().unwrap();
    assert_eq!(steps.len(), 2, "{steps:?}");
    let (c, d, store) = (2, 9, 12);
    assert_eq!((&steps[0][c], &steps[0][d], &steps[0][store]), (&json!([1]), &json!([3]), &json!([0])));
    assert_eq!((&steps[1][c], &steps[1][d], &steps[1][store]), (&json!([0]), &json!([0]), &json!([4])));
    assert_eq!(steps[1], v["position"]["counts"]);
}

#[test]
fn the_marks_of_each_pit_are_in_the_view() {
    // Gabata's holes are all fresh at the start; a wegue is carried for the seat that made it.
    let s = serve("marks");
    let view = start(&s, json!({ "game": "gabata" }));
    let marks = view["position"]["marks"].as_array().expect("marks per pit");
    assert_eq!(marks.len(), 18);
    assert_eq!(marks[0], json!([{ "name": "fresh", "seat": null }]));
    let view = start(&s, json!({ "game": "gabata", "position": "i1=1 O1=3 O6=2 to_move=1" }));
    let id = view["id"].as_str().unwrap().to_string();
    let (status, view) = play(&s, &id, "i1");
    assert_eq!(status, 200, "{view}");
    let o1 = view["board"]["places"].as_array().unwrap().iter().position(|p| p["label"] == "O1").unwrap();
    assert_eq!(view["position"]["marks"][o1], json!([{ "name": "wegue", "seat": 0 }]));
}
