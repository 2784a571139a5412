//! `mancala serve`: the web playground over HTTP. Every request goes to `mancala::web::Playground`.
//!
//! The HTTP server is hyper's HTTP/1 server on tokio's single-threaded runtime. hyper, not a framework
//! over it (axum): the playground routes its own requests (`Playground::handle`, without HTTP, which the
//! tests call too), so a router and extractors would only add compile time, while every limit below is
//! hyper's own or a few lines around it. HTTP/1 only (browsers speak it to a local server), and only the
//! features of tokio that this needs (`rt`, `net`, `time`, `sync`, `io-util`).
//!
//! Threads: the runtime's one thread reads and writes every connection; one thread owns the playground and
//! answers requests one at a time (a game's session is not shared between threads); the computer thinks
//! on threads of its own, at most [`THINKERS`] at once, each game for `--think-limit` seconds (10)
//! before it is asked to decide now (see `web/think.rs`). The long work of a rule text, the editor's
//! check, hover and completion, a rule file's variants and players (`Step::Work`) and the compile of a new
//! game (`web/start.rs`), runs on the runtime's
//! blocking pool, at most [`WORKERS`] at once, so that a large text posted again and again holds up no
//! game. The page and its files are answered on the runtime's thread, so a busy playground never holds
//! them up.
//!
//! Limits, so that no client can stop the server or hold it up for the others:
//! - a request's head: at most [`MAX_HEAD_BYTES`] bytes and [`MAX_HEADERS`] headers (else 431), read
//!   within [`HEAD_TIMEOUT`], which is also how long a connection may wait idle for its next request;
//! - its body: a declared length over [`MAX_BODY_BYTES`] is refused (413) before a byte is read or
//!   kept, and the connection is closed without reading it; a body sent in chunks is cut at the same
//!   size; the body must start within [`BODY_START`] and keep up [`MIN_BODY_RATE`] (else 408, and the
//!   connection is closed);
//! - connections: at most [`MAX_CONNECTIONS`], fewer where the limit on open files is lower. Each is
//!   waiting for a request (never sent one, or kept alive after an answer), receiving a body, or being
//!   answered (`Phase`). A new one past the cap closes, oldest first, one that never sent a request, else
//!   one whose body is still coming, else one kept alive, so that a flood of idle connections closes its
//!   own before a browser's; when every one is being answered, it is answered 503 and closed. At most
//!   half the cap ([`RECEIVING_SHARE`]) may be receiving bodies: past it, the one receiving longest is
//!   closed, so bodies that never come cannot keep out clients that send whole requests. Errors of
//!   `accept` (too many open files) are waited out, never fatal. A connection that has not sent a request
//!   for [`IDLE_TIMEOUT`] is closed, one that does not read its answer too.

use std::collections::HashMap;
use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, CONNECTION, CONTENT_LENGTH, CONTENT_TYPE, HOST, TRANSFER_ENCODING};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use mancala::web::{Playground, Reply, Step, Thought, MAX_BODY_BYTES};
use tokio::io::AsyncWriteExt;
use tokio::sync::{oneshot, Semaphore};
use tokio::task::AbortHandle;

use super::{Failure, Status};

/// The largest head of a request (its request line and headers), and the most headers.
const MAX_HEAD_BYTES: usize = 16 << 10;
const MAX_HEADERS: usize = 64;
/// How long a request's head may take to come, and how long a connection may wait for its next request.
const HEAD_TIMEOUT: Duration = Duration::from_secs(15);
/// How long a request's body may take to come: this, and a second more for each [`MIN_BODY_RATE`] bytes
/// (a whole body of [`MAX_BODY_BYTES`] within 21 s).
const BODY_START: Duration = Duration::from_secs(5);
const MIN_BODY_RATE: u64 = 64 << 10;
/// The share of the connections that may be receiving bodies at once (a half): the rest is kept for
/// clients that send whole requests.
const RECEIVING_SHARE: (usize, usize) = (1, 2);
/// A connection with no request in hand for this long is closed (it does not read its answer, say).
const IDLE_TIMEOUT: Duration = Duration::from_secs(60);
/// The most connections open at once, where the limit on open files allows.
const MAX_CONNECTIONS: usize = 256;
/// Open files kept for other things than connections: rule files, the refusals in progress, threads.
const RESERVED_FILES: usize = 48;
/// The most connections being told 503 at once; more are closed without a word.
const MAX_REFUSING: usize = 16;
/// The most games the computer thinks about at once (the machine's cores are few); more wait.
const THINKERS: usize = 2;
/// How long a request for the computer waits for a thinker before it is answered 503.
const THINKER_WAIT: Duration = Duration::from_secs(20);
/// The most rule texts checked or compiled at once, away from the playground's thread; more wait, for at
/// most [`WORKER_WAIT`].
const WORKERS: usize = 2;
const WORKER_WAIT: Duration = Duration::from_secs(10);
/// How long past its budget the computer may take to decide, before the request is answered without it.
const THINKING_GRACE: Duration = Duration::from_secs(5);

/// Serve the web playground: edit a rule file with its diagnostics as you type, and play it.
///
/// Open the printed address in a browser. The games are the `.mancala` files of DIR and the games
/// shipped with the tool; a variant saved from the page is written into DIR, and nowhere else.
///
/// Requests must name this server in their `Host` header (so that a page of another site cannot reach
/// it through a DNS name of its own): on a loopback address 127.0.0.1, localhost or [::1], and the names
/// given with `--allow-host`. On any other address (`--host 0.0.0.0`) there is no name the server can
/// know: give the names people will use with `--allow-host`, or turn the check off with `--any-host`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala serve                  (then open http://127.0.0.1:8421/)
  mancala serve --port 0 my-games
  mancala serve --host 0.0.0.0 --allow-host mybox.local my-games")]
pub struct Args {
    /// The port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, default_value_t = 8421)]
    pub port: u16,
    /// The address to listen on. The default is reachable from this machine only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// A name (or address) the page is reached by, accepted in the `Host` header; may be repeated.
    #[arg(long, value_name = "NAME")]
    pub allow_host: Vec<String>,
    /// Accept any `Host` header: only where no browser of this machine's users visits other sites.
    #[arg(long, conflicts_with = "allow_host")]
    pub any_host: bool,
    /// How long the computer may think about one move or hint, in seconds; then it plays the best it has
    /// found (a person can stop it sooner).
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub think_limit: u64,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The folder of rule files [default: games, when there is one].
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<Status, Failure> {
    let dir = match &args.dir {
        Some(dir) if !dir.is_dir() => {
            return Err(Failure::Usage {
                message: format!("{} is not a folder", dir.display()),
                help: Some("give a folder of .mancala files, or none for games/ and the shipped games".into()),
            })
        }
        Some(dir) => dir.clone(),
        None => mancala::web::default_dir().to_path_buf(),
    };
    if !args.host.is_loopback() && args.allow_host.is_empty() && !args.any_host {
        return Err(Failure::Usage {
            message: format!("on {} the server cannot tell which names it is reached by", args.host),
            help: Some(
                "give them with `--allow-host NAME` (repeated for each), or accept any `Host` header with \
                 `--any-host`; a page of another site could otherwise reach the playground"
                    .into(),
            ),
        });
    }
    let listener = std::net::TcpListener::bind(SocketAddr::new(args.host, args.port))
        .and_then(|l| l.set_nonblocking(true).map(|_| l))
        .map_err(|e| Failure::Usage {
            message: format!("cannot listen on {}:{}: {}", args.host, args.port, mancala::io::io_message(&e)),
            help: Some("another program may use the port: `--port 0` picks a free one".into()),
        })?;
    let port = listener.local_addr().map_or(args.port, |a| a.port());
    let address = match args.host {
        IpAddr::V6(host) => format!("http://[{host}]:{port}/"),
        IpAddr::V4(host) => format!("http://{host}:{port}/"),
    };
    let hosts = Hosts::new(&args, port);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| Failure::Usage { message: format!("cannot start the server: {e}"), help: None })?;
    let cap = connection_cap();
    println!("mancala playground at {address} (Ctrl-C stops it)");
    if args.any_host {
        println!("any Host header is accepted (--any-host)");
    }
    if args.open {
        open_browser(&address);
    }
    let shared = Arc::new(Shared {
        playground: spawn_playground(dir, seed(), Duration::from_secs(args.think_limit)),
        hosts,
        connections: Connections::new(cap),
        thinkers: Arc::new(Semaphore::new(THINKERS)),
        workers: Arc::new(Semaphore::new(WORKERS)),
        refusing: AtomicUsize::new(0),
    });
    runtime.block_on(serve(listener, shared));
    Ok(Status::Ok)
}

/// What every connection shares.
struct Shared {
    playground: mpsc::Sender<Job>,
    hosts: Hosts,
    connections: Arc<Connections>,
    thinkers: Arc<Semaphore>,
    workers: Arc<Semaphore>,
    refusing: AtomicUsize,
}

/// Accepts connections for ever; each is served by a task of its own.
async fn serve(listener: std::net::TcpListener, shared: Arc<Shared>) {
    let listener = match tokio::net::TcpListener::from_std(listener) {
        Ok(listener) => listener,
        Err(e) => return eprintln!("cannot listen: {e}"),
    };
    tokio::spawn(sweep(shared.connections.clone()));
    let mut last_complaint: Option<Instant> = None;
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Too many open files, say: wait for connections to close rather than give up.
                if last_complaint.is_none_or(|t| t.elapsed() > Duration::from_secs(10)) {
                    eprintln!("cannot accept a connection ({}); waiting", mancala::io::io_message(&e));
                    last_complaint = Some(Instant::now());
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        match shared.connections.admit() {
            Some(slot) => {
                let id = slot.id;
                let task = tokio::spawn(connection(stream, slot, shared.clone()));
                shared.connections.set_abort(id, task.abort_handle());
            }
            None => refuse(stream, &shared),
        }
    }
}

/// Serves the requests of one connection until it closes, times out or is closed to make room.
async fn connection(stream: tokio::net::TcpStream, slot: Slot, shared: Arc<Shared>) {
    let id = slot.id;
    let client: Arc<str> = stream.peer_addr().map_or_else(|_| "unknown".into(), |a| client_name(a.ip()).into());
    let service = hyper::service::service_fn(move |request| {
        let shared = shared.clone();
        let client = client.clone();
        async move {
            let busy = shared.connections.busy(id, has_body(&request));
            Ok::<_, Infallible>(answer(request, &shared, &busy, &client).await)
        }
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_header_size(MAX_HEAD_BYTES)
        .max_headers(MAX_HEADERS)
        .max_buf_size(MAX_HEAD_BYTES.max(8192));
    // Errors here are the client's (a malformed request, a closed socket): hyper has answered what it could.
    let _ = http.serve_connection(TokioIo::new(stream), service).await;
    drop(slot);
}

/// A connection past the cap, with none to close for it: a short 503, then closed.
fn refuse(mut stream: tokio::net::TcpStream, shared: &Arc<Shared>) {
    if shared.refusing.fetch_add(1, Ordering::AcqRel) >= MAX_REFUSING {
        shared.refusing.fetch_sub(1, Ordering::AcqRel);
        return;
    }
    let shared = shared.clone();
    tokio::spawn(async move {
        let body = r#"{"error":"too many connections at once; try again","kind":"busy"}"#;
        let text = format!(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
             Retry-After: 1\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            let _ = stream.write_all(text.as_bytes()).await;
            let _ = stream.shutdown().await;
        })
        .await;
        shared.refusing.fetch_sub(1, Ordering::AcqRel);
    });
}

/// A client as the playground counts its games: its address, or for IPv6 its network (the first 64 bits),
/// which one machine may fill with addresses.
fn client_name(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Whether a request says a body follows (a length above 0, or chunks).
fn has_body(request: &Request<Incoming>) -> bool {
    let length = request.headers().get(CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.trim().parse::<u64>().ok());
    length.is_some_and(|n| n > 0) || request.headers().contains_key(TRANSFER_ENCODING)
}

/// The answer to one request: refused by [`admit`], or the playground's.
async fn answer(request: Request<Incoming>, shared: &Shared, busy: &Busy<'_>, client: &str) -> Response<Full<Bytes>> {
    let (reply, close) = match admit(&request, &shared.hosts) {
        // The body is not read: the connection is closed after the answer.
        Err(reply) => (reply, true),
        // A body that did not come whole, or not in time: what is left of it is not read.
        Ok(()) => reply_to(request, shared, busy, client).await,
    };
    response(reply, close)
}

/// The playground's answer, and whether the request's body was left unread.
async fn reply_to(request: Request<Incoming>, shared: &Shared, busy: &Busy<'_>, client: &str) -> (Reply, bool) {
    let method = request.method().as_str().to_string();
    let path = request.uri().path_and_query().map_or("/", |p| p.as_str()).to_string();
    if let Some(reply) = mancala::web::fixed(&method, &path) {
        busy.answering();
        return (reply, false);
    }
    let body = match read_body(request.into_body()).await {
        Ok(body) => body,
        Err(reply) => return (reply, true),
    };
    busy.answering();
    if mancala::web::is_editor_request(&method, &path) {
        let reply = work_off_thread(shared, move || mancala::web::editor_request(&path, &body)).await;
        return (reply.unwrap_or_else(|busy| busy), false);
    }
    let reply = match ask(&shared.playground, Work::Begin { client: client.to_string(), method, path, body }).await {
        Answered::Reply(reply) => reply,
        Answered::Think(thinking) => think(thinking, shared).await,
        Answered::Work(work) => work_off_thread(shared, work).await.unwrap_or_else(|busy| busy),
        Answered::Start(starting) => match work_off_thread(shared, move || starting.run()).await {
            Ok(started) => match ask(&shared.playground, Work::Started(started)).await {
                Answered::Reply(reply) => reply,
                _ => Reply::error(500, "internal", "the playground answered a new game with more work; this is a bug"),
            },
            Err(busy) => busy,
        },
    };
    (reply, false)
}

/// Runs the long work of a rule text (a check, a compile) on a thread of the runtime's blocking pool, at
/// most [`WORKERS`] at once; a request that waits longer than [`WORKER_WAIT`] for one is answered 503.
async fn work_off_thread<T: Send + 'static>(
    shared: &Shared,
    work: impl FnOnce() -> T + Send + 'static,
) -> Result<T, Reply> {
    let busy = || Reply::error(503, "busy", "the server is busy with other rule texts; try again");
    let permit = match tokio::time::timeout(WORKER_WAIT, shared.workers.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        _ => return Err(busy()),
    };
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        // A bug that panics answers its own request with a 500.
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
    })
    .await;
    match done {
        Ok(Ok(value)) => Ok(value),
        _ => Err(Reply::error(500, "internal", "the server failed on this request; this is a bug")),
    }
}

/// The body, at most [`MAX_BODY_BYTES`], coming at least as fast as [`BODY_START`] and [`MIN_BODY_RATE`]
/// allow: by any moment, all but the bytes of that rate since [`BODY_START`] must have come.
async fn read_body(body: Incoming) -> Result<Vec<u8>, Reply> {
    let too_large = || Reply::error(413, "too_large", format!("the body is larger than {MAX_BODY_BYTES} bytes"));
    let start = tokio::time::Instant::now();
    let mut body = Limited::new(body, MAX_BODY_BYTES);
    let mut got: Vec<u8> = Vec::new();
    loop {
        let deadline = start + BODY_START + Duration::from_millis(got.len() as u64 * 1000 / MIN_BODY_RATE);
        match tokio::time::timeout_at(deadline, body.frame()).await {
            Err(_) => return Err(Reply::error(408, "timeout", "the body did not come in time")),
            Ok(None) => return Ok(got),
            Ok(Some(Err(e))) if e.is::<http_body_util::LengthLimitError>() => return Err(too_large()),
            Ok(Some(Err(e))) => return Err(Reply::error(400, "body", format!("cannot read the body: {e}"))),
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    got.extend_from_slice(&data);
                }
            }
        }
    }
}

/// Lets the computer think about a game on a thread of its own, within its budget, and puts the game
/// back. A person's `stop` (another request) or the budget makes it decide now; if it still has not
/// after [`THINKING_GRACE`] (one playout of a huge rule file can be long), the request is answered 503
/// and the game comes back when the thought does.
async fn think(thinking: mancala::web::Thinking, shared: &Shared) -> Reply {
    let permit = match tokio::time::timeout(THINKER_WAIT, shared.thinkers.clone().acquire_owned()).await {
        Ok(Ok(permit)) => permit,
        _ => {
            let busy = Reply::error(503, "busy", "the computer is busy with other games; try again");
            return finish(&shared.playground, thinking.give_back(busy)).await;
        }
    };
    let watch = thinking.watch();
    let (send, mut thought) = oneshot::channel();
    let spawned = std::thread::Builder::new().name("thinker".into()).spawn(move || {
        let _ = send.send(thinking.run());
        drop(permit);
    });
    if spawned.is_err() {
        return Reply::error(503, "busy", "the computer cannot think now (no thread); try again");
    }
    let deadline = watch.budget() + THINKING_GRACE;
    loop {
        match tokio::time::timeout(Duration::from_millis(100), &mut thought).await {
            Ok(Ok(thought)) => return finish(&shared.playground, thought).await,
            Ok(Err(_)) => return Reply::error(500, "internal", "the computer failed on this game; this is a bug"),
            Err(_) if watch.elapsed() > deadline => break,
            Err(_) if watch.elapsed() > watch.budget() || watch.stopped() => watch.hurry(),
            Err(_) => {}
        }
    }
    // The game stays away until the thought comes; then it is put back.
    let playground = shared.playground.clone();
    tokio::spawn(async move {
        if let Ok(thought) = thought.await {
            finish(&playground, thought).await;
        }
    });
    Reply::error(503, "thinking", "the computer is still thinking about this game; the game is kept, ask again later")
}

async fn finish(playground: &mpsc::Sender<Job>, thought: Thought) -> Reply {
    match ask(playground, Work::Finish(thought)).await {
        Answered::Reply(reply) => reply,
        _ => Reply::error(500, "internal", "the playground answered a thought with more work; this is a bug"),
    }
}

// ------------------------------------------------------------ the playground's thread

/// What the playground's thread is asked to do.
enum Work {
    Begin { client: String, method: String, path: String, body: Vec<u8> },
    Finish(Thought),
    Started(mancala::web::Started),
}

enum Answered {
    Reply(Reply),
    Think(mancala::web::Thinking),
    Start(mancala::web::Starting),
    Work(mancala::web::Work),
}

struct Job {
    work: Work,
    reply: oneshot::Sender<Answered>,
}

async fn ask(playground: &mpsc::Sender<Job>, work: Work) -> Answered {
    let (send, receive) = oneshot::channel();
    if playground.send(Job { work, reply: send }).is_err() {
        return Answered::Reply(Reply::error(500, "internal", "the playground stopped; this is a bug"));
    }
    receive
        .await
        .unwrap_or_else(|_| Answered::Reply(Reply::error(500, "internal", "the playground stopped; this is a bug")))
}

/// The thread that owns every game: it answers the jobs in the order they come.
fn spawn_playground(dir: PathBuf, seed: u64, thinking_budget: Duration) -> mpsc::Sender<Job> {
    let (send, receive) = mpsc::channel::<Job>();
    std::thread::spawn(move || {
        let mut playground = Playground::new(dir, seed).with_thinking_budget(thinking_budget);
        for job in receive {
            // A bug that panics answers its own request with a 500 and leaves the other games playing.
            let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| match job.work {
                Work::Begin { client, method, path, body } => {
                    match playground.begin_for(Some(&client), &method, &path, &body) {
                        Step::Done(reply) => Answered::Reply(reply),
                        Step::Think(thinking) => Answered::Think(thinking),
                        Step::Start(starting) => Answered::Start(starting),
                        Step::Work(work) => Answered::Work(work),
                    }
                }
                Work::Finish(thought) => Answered::Reply(playground.finish(thought)),
                Work::Started(started) => Answered::Reply(playground.started(started)),
            }));
            let answered = handled.unwrap_or_else(|_| {
                Answered::Reply(Reply::error(500, "internal", "the server failed on this request; this is a bug"))
            });
            // The connection may have gone meanwhile; the game has moved on all the same.
            let _ = job.reply.send(answered);
        }
    });
    send
}

// ------------------------------------------------------------ requests

/// The names a request's `Host` may give; `None` accepts any (`--any-host`).
struct Hosts(Option<Vec<String>>);

impl Hosts {
    fn new(args: &Args, port: u16) -> Hosts {
        if args.any_host {
            return Hosts(None);
        }
        let mut names: Vec<String> = args.allow_host.iter().map(|h| h.to_ascii_lowercase()).collect();
        if args.host.is_loopback() {
            names.extend(["127.0.0.1", "localhost", "[::1]"].map(String::from));
        }
        if !args.host.is_unspecified() {
            names.push(match args.host {
                IpAddr::V6(host) => format!("[{host}]"),
                IpAddr::V4(host) => host.to_string(),
            });
        }
        let with_port: Vec<String> = names.iter().map(|n| format!("{n}:{port}")).collect();
        names.extend(with_port);
        Hosts(Some(names))
    }

    fn allows(&self, host: &str) -> bool {
        match &self.0 {
            None => true,
            Some(names) => names.iter().any(|n| n.eq_ignore_ascii_case(host)),
        }
    }
}

/// Refuses requests a page of another site could make: only a `Host` this server is reached by (no DNS
/// rebinding), and a body only as JSON (no plain form posted from elsewhere), of a declared size within
/// the limit.
fn admit(request: &Request<Incoming>, hosts: &Hosts) -> Result<(), Reply> {
    let header = |name| request.headers().get(name).and_then(|v: &HeaderValue| v.to_str().ok());
    // HTTP/1.1 requires the header; the request line's own authority, when given in full, stands for it.
    let host = header(HOST).or_else(|| request.uri().authority().map(|a| a.as_str())).unwrap_or("");
    if !hosts.allows(host) {
        return Err(Reply::error(403, "host", "this server does not answer for that host name"));
    }
    let length = header(CONTENT_LENGTH).and_then(|n| n.trim().parse::<u64>().ok());
    if length.is_some_and(|n| n > MAX_BODY_BYTES as u64) {
        return Err(Reply::error(413, "too_large", format!("the body is larger than {MAX_BODY_BYTES} bytes")));
    }
    let has_body = length.is_some_and(|n| n > 0) || request.headers().contains_key(TRANSFER_ENCODING);
    let json = header(CONTENT_TYPE).is_some_and(|t| t.trim_start().starts_with("application/json"));
    if has_body && !json {
        return Err(Reply::error(415, "content_type", "send the body as JSON (Content-Type: application/json)"));
    }
    Ok(())
}

fn response(reply: Reply, close: bool) -> Response<Full<Bytes>> {
    let mut response = Response::new(Full::new(Bytes::from(reply.body)));
    *response.status_mut() =
        hyper::StatusCode::from_u16(reply.status).unwrap_or(hyper::StatusCode::INTERNAL_SERVER_ERROR);
    let headers = response.headers_mut();
    let fixed = [
        ("cache-control", "no-store"),
        ("x-content-type-options", "nosniff"),
        // The page needs nothing but this server: no script, style or request goes anywhere else, and no
        // other site may show it in a frame (where it could be made to click for someone).
        (
            "content-security-policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; \
             frame-ancestors 'none'",
        ),
        ("x-frame-options", "DENY"),
        ("referrer-policy", "no-referrer"),
    ];
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(reply.content_type));
    for (name, value) in fixed {
        headers.insert(name, HeaderValue::from_static(value));
    }
    if close {
        headers.insert(CONNECTION, HeaderValue::from_static("close"));
    }
    response
}

// ------------------------------------------------------------ connections

/// The open connections, with what each is doing (waiting for a request, receiving a body, being
/// answered) and since when, so that the one that holds a place for least good can be closed to make room.
struct Connections {
    cap: usize,
    table: Mutex<Table>,
}

#[derive(Default)]
struct Table {
    next: u64,
    open: HashMap<u64, Open>,
}

struct Open {
    phase: Phase,
    abort: Option<AbortHandle>,
}

/// What a connection is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Waiting for a request, since then; `served` once it has had an answer (a browser's keep-alive).
    Waiting { since: Instant, served: bool },
    /// A request's head came and its body is coming, since then.
    Receiving { since: Instant },
    /// A whole request is being answered.
    Answering,
}

impl Phase {
    /// The order in which connections are closed to make room, lowest first, and among equals the oldest:
    /// those that never sent a request, then those whose body has not come yet, then a client's idle
    /// connection kept alive after an answer. A connection being answered is never closed for another.
    fn closing_rank(self) -> Option<(u8, Instant)> {
        match self {
            Phase::Waiting { since, served: false } => Some((0, since)),
            Phase::Receiving { since } => Some((1, since)),
            Phase::Waiting { since, served: true } => Some((2, since)),
            Phase::Answering => None,
        }
    }
}

/// A connection's place in [`Connections`], given up when dropped.
struct Slot {
    id: u64,
    connections: Arc<Connections>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.connections.lock().open.remove(&self.id);
    }
}

/// A request in hand on a connection; the connection waits again, served, when dropped.
struct Busy<'a> {
    id: u64,
    connections: &'a Connections,
}

impl Busy<'_> {
    /// The body has come (or none was to come): the request is being answered.
    fn answering(&self) {
        self.connections.set_phase(self.id, Phase::Answering);
    }
}

impl Drop for Busy<'_> {
    fn drop(&mut self) {
        self.connections.set_phase(self.id, Phase::Waiting { since: Instant::now(), served: true });
    }
}

impl Connections {
    fn new(cap: usize) -> Arc<Connections> {
        Arc::new(Connections { cap, table: Mutex::new(Table::default()) })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        // A panic while the table was held left it whole (each change is one map operation).
        self.table.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A place for a new connection: within the cap, or made by closing the connection that holds its
    /// place for least good ([`Phase::closing_rank`]); `None` when every connection is being answered.
    fn admit(self: &Arc<Connections>) -> Option<Slot> {
        let mut table = self.lock();
        if table.open.len() >= self.cap {
            let victim = table
                .open
                .iter()
                .filter_map(|(id, open)| open.phase.closing_rank().map(|rank| (rank, *id)))
                .min()
                .map(|(_, id)| id)?;
            table.close(victim);
        }
        table.next += 1;
        let id = table.next;
        table.open.insert(id, Open { phase: Phase::Waiting { since: Instant::now(), served: false }, abort: None });
        Some(Slot { id, connections: self.clone() })
    }

    fn set_abort(&self, id: u64, abort: AbortHandle) {
        match self.lock().open.get_mut(&id) {
            Some(open) => open.abort = Some(abort),
            // Closed already to make room, before its task was known.
            None => abort.abort(),
        }
    }

    fn set_phase(&self, id: u64, phase: Phase) {
        if let Some(open) = self.lock().open.get_mut(&id) {
            open.phase = phase;
        }
    }

    /// A request's head has come: its body is to be received (`body`), or it is answered at once. The
    /// connections receiving bodies keep to their share of the cap ([`RECEIVING_SHARE`]): past it, the
    /// one receiving longest is closed, so that clients that send whole requests always find room.
    fn busy(&self, id: u64, body: bool) -> Busy<'_> {
        let mut table = self.lock();
        if body {
            let share = (self.cap * RECEIVING_SHARE.0 / RECEIVING_SHARE.1).max(1);
            let receiving = table.open.values().filter(|o| matches!(o.phase, Phase::Receiving { .. })).count();
            if receiving >= share {
                let oldest = table
                    .open
                    .iter()
                    .filter_map(|(other, o)| match o.phase {
                        Phase::Receiving { since } if *other != id => Some((since, *other)),
                        _ => None,
                    })
                    .min()
                    .map(|(_, other)| other);
                if let Some(oldest) = oldest {
                    table.close(oldest);
                }
            }
        }
        let phase = if body { Phase::Receiving { since: Instant::now() } } else { Phase::Answering };
        if let Some(open) = table.open.get_mut(&id) {
            open.phase = phase;
        }
        Busy { id, connections: self }
    }
}

impl Table {
    /// Closes a connection: its task is ended and its place given up.
    fn close(&mut self, id: u64) {
        if let Some(abort) = self.open.remove(&id).and_then(|open| open.abort) {
            abort.abort();
        }
    }
}

/// Closes, now and then, the connections that have waited longer than [`IDLE_TIMEOUT`] for a request.
async fn sweep(connections: Arc<Connections>) {
    loop {
        tokio::time::sleep(Duration::from_secs(5)).await;
        let mut table = connections.lock();
        table.open.retain(|_, open| match (open.phase, &open.abort) {
            (Phase::Waiting { since, .. }, Some(abort)) if since.elapsed() > IDLE_TIMEOUT => {
                abort.abort();
                false
            }
            _ => true,
        });
    }
}

/// The most connections: [`MAX_CONNECTIONS`], or fewer where the limit on open files is lower.
fn connection_cap() -> usize {
    let files = open_files_limit().unwrap_or(1024);
    MAX_CONNECTIONS.min(files.saturating_sub(RESERVED_FILES)).max(4)
}

#[cfg(unix)]
fn open_files_limit() -> Option<usize> {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the limit into the struct it is given, which lives for the call.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    ok.then(|| usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
}

#[cfg(not(unix))]
fn open_files_limit() -> Option<usize> {
    None
}

/// A seed for the games' computer players and ids, different at each start.
fn seed() -> u64 {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    now.as_nanos() as u64 ^ (std::process::id() as u64) << 32
}

/// Asks the desktop to open the page; a failure only means the address must be opened by hand.
fn open_browser(address: &str) {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else if cfg!(windows) {
        "explorer"
    } else {
        "xdg-open"
    };
    if std::process::Command::new(opener).arg(address).spawn().is_err() {
        eprintln!("could not open a browser: open {address} by hand");
    }
}
