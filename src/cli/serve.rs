//! `mancala serve`: the web playground. HTTP only: every request goes to `mancala::web::Playground`.
//!
//! One thread owns the playground and answers requests one at a time (a game's session is not shared
//! between threads). Each connection's request is read on a thread of its own, bounded in size and in
//! number, so a client that sends its body slowly or never holds up only itself.

use std::io::Read;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};

use mancala::web::{Playground, Reply, MAX_BODY_BYTES};
use tiny_http::{Header, Request, Response, Server};

use super::{Failure, Status};

/// The most requests read or waiting at once; more get a 503 at once.
const MAX_IN_FLIGHT: usize = 32;

/// Serve the web playground: edit a rule file with its diagnostics as you type, and play it.
///
/// Open the printed address in a browser. The games are the `.mancala` files of DIR and the games
/// shipped with the tool; a variant saved from the page is written into DIR, and nowhere else.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  mancala serve                  (then open http://127.0.0.1:8421/)
  mancala serve --port 0 my-games")]
pub struct Args {
    /// The port to listen on; 0 picks a free one (the address is printed).
    #[arg(long, default_value_t = 8421)]
    pub port: u16,
    /// The address to listen on. The default is reachable from this machine only.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    pub host: IpAddr,
    /// Open the page in the default browser.
    #[arg(long)]
    pub open: bool,
    /// The folder of rule files [default: games, when there is one].
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// A request read in full, for the playground's thread, and where its answer goes.
struct Job {
    method: String,
    url: String,
    body: Vec<u8>,
    reply: mpsc::Sender<Reply>,
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
    let server = Server::http(SocketAddr::new(args.host, args.port)).map_err(|e| Failure::Usage {
        message: format!("cannot listen on {}:{}: {e}", args.host, args.port),
        help: Some("another program may use the port: `--port 0` picks a free one".into()),
    })?;
    let port = server.server_addr().to_ip().map_or(args.port, |a| a.port());
    let address = match args.host {
        IpAddr::V6(host) => format!("http://[{host}]:{port}/"),
        IpAddr::V4(host) => format!("http://{host}:{port}/"),
    };
    println!("mancala playground at {address} (Ctrl-C stops it)");
    if args.open {
        open_browser(&address);
    }
    let jobs = spawn_playground(dir, seed());
    let in_flight = Arc::new(AtomicUsize::new(0));
    let loopback = args.host.is_loopback();
    for request in server.incoming_requests() {
        if in_flight.load(Ordering::Acquire) >= MAX_IN_FLIGHT {
            respond(request, Reply::error(503, "busy", "too many requests at once; try again"));
            continue;
        }
        in_flight.fetch_add(1, Ordering::AcqRel);
        let (jobs, in_flight) = (jobs.clone(), in_flight.clone());
        std::thread::spawn(move || {
            serve_one(request, &jobs, loopback, port);
            in_flight.fetch_sub(1, Ordering::AcqRel);
        });
    }
    Ok(Status::Ok)
}

/// The thread that owns every game: it answers the jobs in the order they come.
fn spawn_playground(dir: PathBuf, seed: u64) -> mpsc::Sender<Job> {
    let (send, receive) = mpsc::channel::<Job>();
    std::thread::spawn(move || {
        let mut playground = Playground::new(dir, seed);
        for job in receive {
            // A bug that panics answers its own request with a 500 and leaves the other games playing.
            let handled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                playground.handle(&job.method, &job.url, &job.body)
            }));
            let reply = handled
                .unwrap_or_else(|_| Reply::error(500, "internal", "the server failed on this request; this is a bug"));
            // The connection may have gone meanwhile; the game has moved on all the same.
            let _ = job.reply.send(reply);
        }
    });
    send
}

/// Reads one request, hands it to the playground, and sends its answer.
fn serve_one(mut request: Request, jobs: &mpsc::Sender<Job>, loopback: bool, port: u16) {
    if let Err(reply) = admit(&request, loopback, port) {
        return respond(request, reply);
    }
    let body = match read_body(&mut request) {
        Ok(body) => body,
        Err(reply) => return respond(request, reply),
    };
    let (send, receive) = mpsc::channel();
    let job = Job { method: request.method().as_str().to_string(), url: request.url().to_string(), body, reply: send };
    let reply = match jobs.send(job).ok().and_then(|_| receive.recv().ok()) {
        Some(reply) => reply,
        None => Reply::error(500, "internal", "the playground stopped; this is a bug"),
    };
    respond(request, reply);
}

/// Refuses requests a page of another site could make: on a loopback address, only a `Host` of this
/// machine (no DNS rebinding), and a body only as JSON (no plain form posted from elsewhere).
fn admit(request: &Request, loopback: bool, port: u16) -> Result<(), Reply> {
    let header = |name: &str| {
        request
            .headers()
            .iter()
            .find(|h| h.field.as_str().as_str().eq_ignore_ascii_case(name))
            .map(|h| h.value.as_str())
    };
    if loopback {
        let host = header("Host").unwrap_or("");
        let allowed = ["127.0.0.1", "localhost", "[::1]"].iter().any(|h| host == *h || host == format!("{h}:{port}"));
        if !allowed {
            return Err(Reply::error(403, "host", "this server answers requests for 127.0.0.1 or localhost only"));
        }
    }
    let has_body = request.body_length().is_some_and(|n| n > 0) || header("Transfer-Encoding").is_some();
    let json = header("Content-Type").is_some_and(|t| t.trim_start().starts_with("application/json"));
    if has_body && !json {
        return Err(Reply::error(415, "content_type", "send the body as JSON (Content-Type: application/json)"));
    }
    Ok(())
}

/// The body, at most [`MAX_BODY_BYTES`]: a larger declared length is refused before anything is read.
fn read_body(request: &mut Request) -> Result<Vec<u8>, Reply> {
    let too_large = || Reply::error(413, "too_large", format!("the body is larger than {MAX_BODY_BYTES} bytes"));
    if request.body_length().is_some_and(|n| n > MAX_BODY_BYTES) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    let limit = MAX_BODY_BYTES as u64 + 1;
    request
        .as_reader()
        .take(limit)
        .read_to_end(&mut body)
        .map_err(|e| Reply::error(400, "body", format!("cannot read the body: {e}")))?;
    if body.len() > MAX_BODY_BYTES {
        return Err(too_large());
    }
    Ok(body)
}

fn respond(request: Request, reply: Reply) {
    let mut response = Response::from_data(reply.body).with_status_code(reply.status);
    let headers = [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
        // The page needs nothing but this server: no script, style or request goes anywhere else.
        (
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
        ),
    ];
    for (name, value) in headers {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    // A client that left before its answer needs none.
    let _ = request.respond(response);
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
