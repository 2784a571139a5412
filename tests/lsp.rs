//! `mancala lsp` driven by a scripted client over stdio, as an editor drives it: initialize, open, change,
//! hover, completion, definition, references, rename, outline, quick fixes, shutdown and exit. Messages are
//! framed with `Content-Length` headers, as the protocol says; the client is written here by hand so that
//! the test sees the bytes an editor would.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

const URI: &str = "file:///tmp/gulek.mancala";
const GULEK: &str = include_str!("../games/gulek.mancala");

struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// The notifications received while waiting for responses, oldest first.
    notifications: Vec<Value>,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mancala"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("mancala lsp starts");
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Client { child, stdin, stdout, next_id: 1, notifications: Vec::new() }
    }

    fn send(&mut self, message: &Value) {
        let body = serde_json::to_string(message).unwrap();
        write!(self.stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        self.stdin.flush().unwrap();
    }

    fn receive(&mut self) -> Value {
        let mut length = None;
        loop {
            let mut line = String::new();
            assert!(self.stdout.read_line(&mut line).unwrap() > 0, "the server closed its output");
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            if let Some(n) = line.strip_prefix("Content-Length: ") {
                length = Some(n.parse::<usize>().unwrap());
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        self.stdout.read_exact(&mut body).unwrap();
        serde_json::from_slice(&body).unwrap()
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its response, keeping the notifications that come first.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// The result of a request that must succeed.
    fn call(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method} failed: {response}");
        response["result"].clone()
    }

    /// The next diagnostics published for the document.
    fn diagnostics(&mut self) -> Vec<Value> {
        loop {
            if let Some(i) = self.notifications.iter().position(|n| n["method"] == "textDocument/publishDiagnostics") {
                let n = self.notifications.remove(i);
                assert_eq!(n["params"]["uri"], URI);
                return n["params"]["diagnostics"].as_array().unwrap().clone();
            }
            let message = self.receive();
            self.notifications.push(message);
        }
    }
}

/// The 0-based line and UTF-16 column of the first `needle` in `text`, plus `shift` characters.
fn position(text: &str, needle: &str, shift: usize) -> Value {
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle} in the text")) + shift;
    let line = text[..at].matches('\n').count();
    let column = text[..at].rsplit('\n').next().unwrap().encode_utf16().count();
    json!({ "line": line, "character": column })
}

fn at(text: &str, needle: &str, shift: usize) -> Value {
    json!({ "textDocument": { "uri": URI }, "position": position(text, needle, shift) })
}

fn initialized() -> Client {
    let mut c = Client::start();
    let result = c.call("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {} }));
    let caps = &result["capabilities"];
    assert_eq!(caps["positionEncoding"], "utf-16", "{caps}");
    for cap in ["hoverProvider", "completionProvider", "definitionProvider", "referencesProvider", "renameProvider"] {
        assert!(caps.get(cap).is_some(), "{cap} in {caps}");
    }
    assert_eq!(result["serverInfo"]["name"], "mancala");
    c.notify("initialized", json!({}));
    c
}

fn open(c: &mut Client, text: &str) {
    c.notify(
        "textDocument/didOpen",
        json!({ "textDocument": { "uri": URI, "languageId": "mancala", "version": 1, "text": text } }),
    );
}

fn shutdown(mut c: Client) {
    assert_eq!(c.call("shutdown", Value::Null), Value::Null);
    c.notify("exit", Value::Null);
    drop(c.stdin);
    let status = c.child.wait().unwrap();
    assert!(status.success(), "the server exits with 0 after shutdown and exit: {status}");
}

#[test]
fn a_session_of_an_editor() {
    let mut c = initialized();
    let typo = GULEK.replacen("take foreign to centre", "take foreign to centr", 1);
    open(&mut c, &typo);

    // Diagnostics on open: the same as `mancala check`, with the "did you mean" as a quick fix.
    // (The centre is then never used: `check` warns of that too.)
    let diagnostics = c.diagnostics();
    assert_eq!(diagnostics.len(), 2, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "mancala::check::unused_place");
    let d = &diagnostics[1];
    assert_eq!(d["code"], "mancala::check::unknown_name");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"]["start"], position(&typo, "centr\n", 0));
    assert!(d["message"].as_str().unwrap().contains("did you mean `centre`?"), "{d}");
    let actions = c.call(
        "textDocument/codeAction",
        json!({ "textDocument": { "uri": URI }, "range": d["range"], "context": { "diagnostics": [d] } }),
    );
    assert_eq!(actions[0]["kind"], "quickfix", "{actions}");
    assert_eq!(actions[0]["edit"]["changes"][URI][0]["newText"], "centre", "{actions}");

    // A change: the fixed text has no diagnostics.
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 2 }, "contentChanges": [{ "text": GULEK }] }),
    );
    assert_eq!(c.diagnostics(), Vec::<Value>::new());

    // Hover: a keyword's meaning and example; a declared name's declaration.
    let hover = c.call("textDocument/hover", at(GULEK, "capture {", 1));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**`capture`**") && text.contains("```mancala"), "{text}");
    let hover = c.call("textDocument/hover", at(GULEK, "furrow(mover)", 2));
    let text = hover["contents"]["value"].as_str().unwrap();
    assert!(text.contains("**place** `furrow`") && text.contains("one for every player"), "{text}");
    assert_eq!(hover["range"]["start"], position(GULEK, "furrow(mover)", 0));

    // Completion: what the grammar reads after `direction`, and the names where a place may stand.
    let edited = GULEK.replacen("direction choose", "direction ", 1);
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 3 }, "contentChanges": [{ "text": edited }] }),
    );
    let items = c.call("textDocument/completion", at(&edited, "direction \n", 10));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    assert!(labels.contains(&"ccw") && labels.contains(&"cw") && labels.contains(&"choose"), "{labels:?}");
    assert!(!labels.contains(&"game"), "{labels:?}");
    let items = c.call("textDocument/completion", at(&edited, "to centre", 3));
    let labels: Vec<&str> = items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap()).collect();
    for word in ["centre", "furrow", "supply", "opposite", "here"] {
        assert!(labels.contains(&word), "{word} in {labels:?}");
    }
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 4 }, "contentChanges": [{ "text": GULEK }] }),
    );

    // Definition and references of a place.
    let definition = c.call("textDocument/definition", at(GULEK, "furrow(mover)", 1));
    assert_eq!(definition[0]["uri"], URI);
    assert_eq!(definition[0]["range"]["start"], position(GULEK, "furrow per player", 0));
    let mut params = at(GULEK, "furrow(mover)", 1);
    params["context"] = json!({ "includeDeclaration": true });
    let references = c.call("textDocument/references", params);
    let uses = GULEK.matches("furrow(").count() + 1;
    assert_eq!(references.as_array().unwrap().len(), uses, "{references}");

    // Rename: every use and the declaration; a keyword is refused.
    let mut params = at(GULEK, "furrow(mover)", 1);
    params["newName"] = json!("park");
    let edit = c.call("textDocument/rename", params);
    let edits = edit["changes"][URI].as_array().unwrap();
    assert_eq!(edits.len(), uses);
    assert!(edits.iter().all(|e| e["newText"] == "park"));
    let mut params = at(GULEK, "furrow(mover)", 1);
    params["newName"] = json!("sow");
    let refused = c.request("textDocument/rename", params);
    assert!(refused["error"]["message"].as_str().unwrap().contains("keyword"), "{refused}");
    let prepared = c.call("textDocument/prepareRename", at(GULEK, "furrow(mover)", 1));
    assert_eq!(prepared["start"], position(GULEK, "furrow(mover)", 0));

    // The outline: the phases with their actions, the variants.
    let symbols = c.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } }));
    let names: Vec<&str> = symbols.as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    for name in ["placing", "playing", "supply", "centre", "furrow"] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let playing = symbols.as_array().unwrap().iter().find(|s| s["name"] == "playing").unwrap();
    let actions: Vec<&str> =
        playing["children"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(actions, ["sow", "enter"]);

    // Folding: the phases, their actions and captures, each from its first line to its last.
    let folds = c.call("textDocument/foldingRange", json!({ "textDocument": { "uri": URI } }));
    let starts: Vec<u64> = folds.as_array().unwrap().iter().map(|f| f["startLine"].as_u64().unwrap()).collect();
    for needle in ["phase playing", "capture {", "setup {"] {
        let line = position(GULEK, needle, 0)["line"].as_u64().unwrap();
        assert!(starts.contains(&line), "a fold at {needle} (line {line}) in {folds}");
    }
    assert!(folds.as_array().unwrap().iter().all(|f| f["endLine"].as_u64() > f["startLine"].as_u64()), "{folds}");

    // Formatting: `mancala fmt`'s layout as one edit of the whole text; none for a file laid out so.
    let untidy = GULEK.replacen("place centre shared", "place   centre\n   shared", 1);
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 5 }, "contentChanges": [{ "text": untidy }] }),
    );
    let options = json!({ "tabSize": 2, "insertSpaces": true });
    let edits = c.call("textDocument/formatting", json!({ "textDocument": { "uri": URI }, "options": options }));
    let expected = mancala::fmt::format_source(&untidy).expect("the text formats");
    assert_eq!(edits.as_array().unwrap().len(), 1, "{edits}");
    assert_eq!(edits[0]["newText"], expected);
    assert_eq!(edits[0]["range"]["start"], json!({ "line": 0, "character": 0 }));
    c.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": URI, "version": 6 }, "contentChanges": [{ "text": expected }] }),
    );
    let edits = c.call("textDocument/formatting", json!({ "textDocument": { "uri": URI }, "options": options }));
    assert_eq!(edits, json!([]));

    shutdown(c);
}

#[test]
fn columns_count_utf16_units_and_a_closed_file_loses_its_diagnostics() {
    let mut c = initialized();
    // Strings may hold any character: the columns after them count UTF-16 units.
    let text = "game \"G 🎲 é\"  players 2\nboard two_rows 6\nsetup { every pit: 4 }\nturn { sow { from pits(mover) where count > 0 } }\nend { when count(pits(mover)) = 0 }\nabout \"∑ é 🎲\" score count(pits(player)) + cuont\n";
    open(&mut c, text);
    let diagnostics = c.diagnostics();
    assert!(diagnostics.iter().any(|d| d["range"]["start"] == position(text, "cuont", 0)), "{diagnostics:?}");
    let hover = c.call("textDocument/hover", at(text, "players 2", 2));
    assert_eq!(hover["range"]["start"], position(text, "players 2", 0), "{hover}");
    assert!(hover["contents"]["value"].as_str().unwrap().contains("**`players`**"), "{hover}");
    c.notify("textDocument/didClose", json!({ "textDocument": { "uri": URI } }));
    assert_eq!(c.diagnostics(), Vec::<Value>::new());
    shutdown(c);
}

impl Client {
    /// Writes raw bytes to the server's input, as a client that does not follow the protocol would.
    fn send_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).unwrap();
        self.stdin.flush().unwrap();
    }

    /// The next message the server sends that is not a notification (an answer, with or without an id).
    fn answer(&mut self) -> Value {
        loop {
            let message = self.receive();
            if message.get("method").is_none() {
                return message;
            }
            self.notifications.push(message);
        }
    }

    /// Closes the server's input and waits for it to exit; its exit code.
    fn close(self) -> Option<i32> {
        let Client { mut child, stdin, .. } = self;
        drop(stdin);
        child.wait().unwrap().code()
    }
}

#[test]
fn a_declared_length_past_the_limit_is_refused_without_reading_it() {
    // 10^11 aborted the server (it allocated the length first), 2^63 panicked ("capacity overflow").
    for length in ["100000000000", "9223372036854775808"] {
        let mut c = initialized();
        c.send_raw(format!("Content-Length: {length}\r\n\r\n{{}}").as_bytes());
        let answer = c.answer();
        assert_eq!(answer["id"], Value::Null, "{answer}");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("more than the 1.1 MiB the server reads"), "{message}");
        // The client goes without `shutdown`: exit 1, as the protocol says, not a crash.
        assert_eq!(c.close(), Some(1), "length {length}");
    }
}

#[test]
fn a_frame_that_is_not_json_is_answered_and_the_server_reads_on() {
    let mut c = initialized();
    let garbage = "garbage ".repeat(100_000);
    c.send_raw(format!("Content-Length: {}\r\n\r\n{garbage}", garbage.len()).as_bytes());
    let answer = c.answer();
    assert_eq!(answer["id"], Value::Null, "{answer}");
    assert_eq!(answer["error"]["code"], -32700, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.len() < 200 && message.contains("garbage"), "a short quote: {message}");
    // JSON that is no message is answered too, with its id.
    c.send(&json!({ "jsonrpc": "2.0", "id": 99, "params": 3 }));
    let answer = c.answer();
    assert_eq!((answer["id"].clone(), answer["error"]["code"].clone()), (json!(99), json!(-32600)), "{answer}");
    // And the server still serves.
    open(&mut c, GULEK);
    let hover = c.call("textDocument/hover", at(GULEK, "capture {", 1));
    assert!(hover["contents"]["value"].as_str().unwrap().contains("**`capture`**"), "{hover}");
    shutdown(c);
}

#[test]
fn requests_after_shutdown_are_refused_and_exit_without_shutdown_is_exit_1() {
    let mut c = initialized();
    assert_eq!(c.call("shutdown", Value::Null), Value::Null);
    let refused = c.request("textDocument/hover", at(GULEK, "capture {", 1));
    assert_eq!(refused["error"]["code"], -32600, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("shut down"), "{refused}");
    c.notify("exit", Value::Null);
    assert_eq!(c.close(), Some(0), "exit after shutdown");

    let mut c = initialized();
    c.notify("exit", Value::Null);
    assert_eq!(c.close(), Some(1), "exit without shutdown");

    // Before `initialize`, a request is refused, and the server still initializes after it.
    let mut c = Client::start();
    let refused = c.request("textDocument/hover", at(GULEK, "capture {", 1));
    assert_eq!(refused["error"]["code"], -32002, "{refused}");
    c.call("initialize", json!({ "processId": null, "rootUri": null, "capabilities": {} }));
    c.notify("initialized", json!({}));
    shutdown(c);
}

#[test]
fn a_burst_of_edits_is_checked_once_at_its_latest_text() {
    let mut c = initialized();
    // A large file, so that one check takes long enough for the edits behind it to wait.
    let bao = include_str!("../games/bao-la-kiswahili.mancala");
    let big: String = std::iter::repeat_n(bao, 1).chain(std::iter::repeat_n("# a comment line\n", 5_000)).collect();
    open(&mut c, &big);
    const EDITS: i32 = 60;
    for version in 2..=EDITS + 1 {
        // Each edit is the whole text again, with a typo in all but the last.
        let text = if version == EDITS + 1 { big.clone() } else { format!("{big}\nscore cuont{version}\n") };
        c.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": URI, "version": version }, "contentChanges": [{ "text": text }] }),
        );
    }
    // A request after the burst: its answer comes after every edit was read.
    c.call("textDocument/documentSymbol", json!({ "textDocument": { "uri": URI } }));
    let mut published = Vec::new();
    loop {
        let n = c.diagnostics_notification();
        let version = n["params"]["version"].as_i64().unwrap();
        published.push(version);
        if version == i64::from(EDITS + 1) {
            assert_eq!(n["params"]["diagnostics"], json!([]), "the latest text has no errors");
            break;
        }
    }
    // Each check was of the latest text then: a few checks, not one for every edit.
    eprintln!("versions checked: {published:?}");
    assert!(published.len() <= 5, "checked {} times, versions {published:?}", published.len());
    shutdown(c);
}

impl Client {
    /// The next publishDiagnostics notification, whole.
    fn diagnostics_notification(&mut self) -> Value {
        loop {
            if let Some(i) = self.notifications.iter().position(|n| n["method"] == "textDocument/publishDiagnostics") {
                return self.notifications.remove(i);
            }
            let message = self.receive();
            self.notifications.push(message);
        }
    }
}
