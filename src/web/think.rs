//! The computer's long work — its plies (`computer`) and `hint` — away from the thread that owns the
//! games, so that no game's thinking holds up the page or the other games.
//!
//! [`Playground::begin`](super::Playground::begin) takes the game out of the playground into a
//! [`Thinking`]; whoever serves runs it on a thread of its own ([`Thinking::run`]) and hands the
//! [`Thought`] back to [`Playground::finish`](super::Playground::finish), which puts the game back and
//! answers. Meanwhile the game is *away*: its view is the one it had (with what the computer is doing),
//! `stop` asks the computer to decide now, and any other change to it is refused with a 409.
//!
//! The time budget is the server's: past [`Watch::budget`] it calls [`Watch::hurry`], and the computer
//! decides with what it has found (MCTS after its current playout, a solitaire's search at once).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::{Answer, Live, Reply};
use crate::session::Command;

/// How long the computer may think about one request (a ply, a hint) before it is asked to decide now,
/// unless the playground is given another budget.
pub const THINKING_BUDGET: Duration = Duration::from_secs(10);

/// What the computer was asked to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Task {
    /// Play the ply of a computer seat, or the decision at hand when a person is to move.
    Computer,
    /// A hint, at a level (`{"level": "hard"}`) or the session's default.
    Hint(Option<crate::ai::Level>),
}

impl Task {
    pub(super) fn from_action(action: &str) -> Option<Task> {
        match action {
            "computer" => Some(Task::Computer),
            "hint" => Some(Task::Hint(None)),
            _ => None,
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Task::Computer => "computer",
            Task::Hint(_) => "hint",
        }
    }
}

/// A game taken out of the playground for the computer to think about.
pub struct Thinking {
    pub(super) id: String,
    pub(super) task: Task,
    pub(super) live: Live,
    watch: Watch,
}

/// What came of a [`Thinking`]: the game, to be put back, and the answer to the request.
pub struct Thought {
    pub(super) id: String,
    pub(super) live: Live,
    pub(super) answer: Answer,
}

/// The shared view of one game's thinking: how long it has thought, and the flags that stop it.
#[derive(Clone)]
pub struct Watch(Arc<Shared>);

struct Shared {
    task: Task,
    started: Instant,
    budget: Duration,
    /// The session's own cancel flag: once set, the computer decides with what it has found.
    cancel: Arc<AtomicBool>,
    /// The person asked to stop (rather than the budget running out).
    stopped: AtomicBool,
    /// The search's last progress line, where it gives one (a solitaire's hint).
    detail: Mutex<String>,
}

impl Watch {
    /// The time the computer has before it is asked to decide now.
    pub fn budget(&self) -> Duration {
        self.0.budget
    }

    pub fn elapsed(&self) -> Duration {
        self.0.started.elapsed()
    }

    /// Asks the computer to decide now with what it has found. Safe to call again and again: the session
    /// clears its flag as a command starts, so a caller repeats it until the thought comes back.
    pub fn hurry(&self) {
        self.0.cancel.store(true, Ordering::Relaxed);
    }

    /// A person's stop: the computer decides now.
    pub fn stop(&self) {
        self.0.stopped.store(true, Ordering::Relaxed);
        self.hurry();
    }

    pub fn stopped(&self) -> bool {
        self.0.stopped.load(Ordering::Relaxed)
    }

    /// What the page shows while the computer thinks.
    pub(super) fn json(&self) -> Value {
        let detail = self.0.detail.lock().map(|d| d.clone()).unwrap_or_default();
        json!({
            "thinking": true,
            "action": self.0.task.as_str(),
            "elapsed_ms": self.elapsed().as_millis() as u64,
            "budget_ms": self.budget().as_millis() as u64,
            "stopping": self.stopped(),
            "detail": detail,
        })
    }
}

impl Thinking {
    /// Takes `live` away for the computer to think about `task`.
    pub(super) fn new(id: &str, task: Task, mut live: Live, budget: Duration) -> Thinking {
        let watch = Watch(Arc::new(Shared {
            task,
            started: Instant::now(),
            budget,
            cancel: live.session.cancel_flag(),
            stopped: AtomicBool::new(false),
            detail: Mutex::new(String::new()),
        }));
        let shared = watch.clone();
        live.session.set_progress(Box::new(move |line: &str| {
            if let Ok(mut detail) = shared.0.detail.lock() {
                *detail = line.to_string();
            }
        }));
        Thinking { id: id.to_string(), task, live, watch }
    }

    pub fn watch(&self) -> Watch {
        self.watch.clone()
    }

    /// Thinks: long, on whatever thread calls it. Everything else about the game waits for the thought.
    pub fn run(mut self) -> Thought {
        let command = match self.task {
            Task::Computer => None,
            Task::Hint(level) => Some(Command::Hint(level)),
        };
        let answer = if self.watch.stopped() {
            Err(Reply::error(409, "stopped", "stopped before the computer began"))
        } else {
            super::perform(&self.id, &mut self.live, command, None)
        };
        Thought { id: self.id, live: self.live, answer }
    }

    /// Gives the game back unchanged, answering the request with `reply` (no thread was free, say).
    pub fn give_back(self, reply: Reply) -> Thought {
        Thought { id: self.id, live: self.live, answer: Err(reply) }
    }
}

/// A game that is away, as the playground keeps it meanwhile.
pub(super) struct Away {
    pub(super) watch: Watch,
    /// The game's view as it was when the computer began, for a reload of the page meanwhile.
    pub(super) view: Value,
    /// Deleted meanwhile: the game is dropped when it comes back.
    pub(super) deleted: bool,
}

impl Away {
    pub(super) fn view(&self) -> Value {
        let mut view = self.view.clone();
        view["thinking"] = self.watch.json();
        view
    }
}

/// A game is thought about on another thread: all it holds must be sendable.
const _: fn() = || {
    fn sendable<T: Send>() {}
    sendable::<Thinking>();
    sendable::<Thought>();
};
