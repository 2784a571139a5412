//! The scenario corpus (`tests/data/scenarios/*.txt`, its format in `docs/scenarios.md`): each scenario sets
//! up a position of a shipped game, plays plies in move notation and checks what must follow. One harness runs
//! every scenario against the engine, and plays the same plies on the reference interpreter
//! (`tests/reference/`) beside it, decision by decision (`differ::Pair::scripted_game`). Every failure is
//! collected and reported by file and line; `SCENARIO=TEXT` runs only the scenarios whose file, ID or why
//! contains TEXT.
//!
//! What data cannot say (a solver's line, a track's listing, random games) stays in Rust tests.

mod differ;
mod reference;

use std::collections::BTreeSet;

use mancala::engine::{EndReason, Engine, Move, State};
use mancala::notation::{enumerate_plies, format_ply, format_position, parse_ply, parse_position};

/// One line of a scenario: what to do or check, and its line number.
#[derive(Debug, Clone)]
struct Step {
    line: usize,
    kind: StepKind,
}

#[derive(Debug, Clone)]
enum StepKind {
    Play(String),
    Position(String),
    Has(Vec<String>),
    ToMove(u8),
    Legal(Vec<String>),
    Illegal(String),
    Over { winners: Vec<u8>, scores: Option<Vec<i32>>, reason: Option<String> },
    GoesOn,
    Told(String),
}

/// One scenario: the rule set, the position it starts from, its steps.
#[derive(Debug, Clone)]
struct Scenario {
    file: String,
    line: usize,
    ids: Vec<String>,
    why: String,
    game: String,
    variant: Option<String>,
    players: Option<u8>,
    from: Option<String>,
    reference: bool,
    steps: Vec<Step>,
}

impl Scenario {
    fn name(&self) -> String {
        format!("{}:{}: {} ({})", self.file, self.line, self.ids.join(" "), self.why)
    }
}

/// A corpus file: its scenarios, and the decisions of its games no scenario reaches, with why.
#[derive(Debug, Default)]
struct Corpus {
    scenarios: Vec<Scenario>,
    uncovered: Vec<(String, String)>,
    games: BTreeSet<String>,
}

fn corpus_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/scenarios")
}

/// Every corpus file, as (file name, text), in name order.
fn corpus_files() -> Vec<(String, String)> {
    let dir = corpus_dir();
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .map(|p| {
            let name = format!("tests/data/scenarios/{}", p.file_name().unwrap_or_default().to_string_lossy());
            (name, std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
        })
        .collect();
    files.sort();
    files
}

/// Reads one corpus file; a line it cannot read is an error naming the file and line.
fn parse_corpus(file: &str, text: &str) -> Result<Corpus, String> {
    let mut corpus = Corpus::default();
    let (mut game, mut variant, mut players): (Option<String>, Option<String>, Option<u8>) = (None, None, None);
    let mut current: Option<Scenario> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let at = |msg: String| format!("{file}:{line}: {msg}");
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (key, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
        let rest = rest.trim();
        if key == "scenario" {
            if let Some(s) = current.take() {
                corpus.scenarios.push(s);
            }
            let (ids, why) = rest.split_once(':').ok_or_else(|| at("write `scenario ID ...: why`".into()))?;
            let ids: Vec<String> = ids.split_whitespace().map(str::to_string).collect();
            if ids.is_empty() || why.trim().is_empty() {
                return Err(at("a scenario needs its decision IDs and a one-line why".into()));
            }
            let game = game.clone().ok_or_else(|| at("no `game` before the first scenario".into()))?;
            corpus.games.insert(game.clone());
            current = Some(Scenario {
                file: file.to_string(),
                line,
                ids,
                why: why.trim().to_string(),
                game,
                variant: variant.clone(),
                players,
                from: None,
                reference: true,
                steps: Vec::new(),
            });
            continue;
        }
        let Some(s) = current.as_mut() else {
            // The file's header: defaults for the scenarios below, and the decisions no scenario reaches.
            match key {
                "game" => game = Some(rest.to_string()),
                "variant" => variant = Some(rest.to_string()),
                "players" => players = Some(rest.parse().map_err(|_| at(format!("`{rest}` is no player count")))?),
                "uncovered" => {
                    let (id, why) = rest.split_once(':').ok_or_else(|| at("write `uncovered ID: why`".into()))?;
                    corpus.uncovered.push((id.trim().to_string(), why.trim().to_string()));
                }
                _ => {
                    return Err(at(format!(
                        "`{key}` before the first scenario: only game, variant, players, uncovered"
                    )))
                }
            }
            continue;
        };
        let step = |kind| Step { line, kind };
        match key {
            "game" if s.steps.is_empty() => {
                s.game = rest.to_string();
                corpus.games.insert(rest.to_string());
            }
            "variant" if s.steps.is_empty() => s.variant = Some(rest.to_string()),
            "players" if s.steps.is_empty() => {
                s.players = Some(rest.parse().map_err(|_| at(format!("`{rest}` is no player count")))?)
            }
            "from" if s.steps.is_empty() => s.from = Some(rest.to_string()),
            "game" | "variant" | "players" | "from" => return Err(at(format!("`{key}` after the first step"))),
            "reference" => {
                if !rest.starts_with("skip:") {
                    return Err(at("write `reference skip: why`".into()));
                }
                s.reference = false;
            }
            "play" => {
                for ply in rest.split(';').map(str::trim).filter(|p| !p.is_empty()) {
                    s.steps.push(step(StepKind::Play(ply.to_string())));
                }
            }
            "position" => s.steps.push(step(StepKind::Position(rest.to_string()))),
            "has" => s.steps.push(step(StepKind::Has(rest.split_whitespace().map(str::to_string).collect()))),
            "to-move" => {
                s.steps.push(step(StepKind::ToMove(rest.parse().map_err(|_| at(format!("`{rest}` is no player")))?)))
            }
            "legal" => s.steps.push(step(StepKind::Legal(
                rest.split(',').map(str::trim).filter(|p| !p.is_empty()).map(str::to_string).collect(),
            ))),
            "illegal" => s.steps.push(step(StepKind::Illegal(rest.to_string()))),
            "goes-on" => s.steps.push(step(StepKind::GoesOn)),
            "told" => s.steps.push(step(StepKind::Told(rest.to_string()))),
            "over" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let winners = match words.first() {
                    None | Some(&"-") => Vec::new(),
                    Some(w) => w
                        .split(',')
                        .map(|p| p.parse().map_err(|_| at(format!("`{w}`: winners are players, as 1,2 or -"))))
                        .collect::<Result<_, _>>()?,
                };
                let scores = match words.get(1) {
                    None | Some(&"*") => None,
                    Some(w) => Some(
                        w.split(',')
                            .map(|p| p.parse().map_err(|_| at(format!("`{w}`: scores are numbers, as 3,4"))))
                            .collect::<Result<_, _>>()?,
                    ),
                };
                let reason = words.get(2).map(|r| r.to_string());
                if let Some(r) = &reason {
                    if reason_named(r).is_none() {
                        return Err(at(format!("`{r}` is no end reason (as condition, stuck, repetition, ...)")));
                    }
                }
                s.steps.push(step(StepKind::Over { winners, scores, reason }));
            }
            _ => return Err(at(format!("`{key}` is no step of a scenario"))),
        }
    }
    if let Some(s) = current.take() {
        corpus.scenarios.push(s);
    }
    Ok(corpus)
}

/// The engine's end reasons by the words the corpus writes (`nobody-can-move` for `NobodyCanMove`).
const REASONS: &[(&str, EndReason)] = &[
    ("condition", EndReason::Condition),
    ("repetition", EndReason::Repetition),
    ("stuck", EndReason::Stuck),
    ("nobody-can-move", EndReason::NobodyCanMove),
    ("no-capture", EndReason::NoCapture),
    ("last-standing", EndReason::LastStanding),
    ("obligation", EndReason::Obligation),
    ("limit", EndReason::Limit),
    ("endless", EndReason::Endless),
    ("repetition-draw", EndReason::RepetitionDraw),
    ("match", EndReason::Match),
    ("round-limit", EndReason::RoundLimit),
];

fn reason_named(word: &str) -> Option<EndReason> {
    REASONS.iter().find(|(w, _)| *w == word).map(|&(_, r)| r)
}

fn reason_word(reason: EndReason) -> &'static str {
    REASONS.iter().find(|(_, r)| *r == reason).map_or("?", |(w, _)| w)
}

fn source_of(game: &str) -> Result<&'static str, String> {
    mancala::shipped::find(game).map(|g| g.text).ok_or_else(|| format!("no shipped game `{game}`"))
}

/// Every legal ply of a position in notation, sorted.
fn legal_plies(e: &Engine, st: &State) -> Vec<String> {
    let found = enumerate_plies(e, st, 10_000);
    let mut v: Vec<String> = found.plies.iter().map(|p| format_ply(e, st, p)).collect();
    if found.partial {
        v.push("...".into());
    }
    v.sort();
    v
}

/// Runs one scenario on the engine; returns the decisions for the reference (as `Pair::scripted_game` takes
/// them) and the number of plies played, or the first failure with its line.
fn run_on_engine(s: &Scenario) -> Result<(Vec<Move>, u32), (usize, String)> {
    let source = source_of(&s.game).map_err(|e| (s.line, e))?;
    let e = mancala::compile(source, s.variant.as_deref(), s.players)
        .map_err(|d| (s.line, format!("{} does not compile: {d:?}", s.game)))?;
    let mut st = match &s.from {
        None => e.initial_state(),
        Some(text) => parse_position(&e, text).map_err(|err| (s.line, format!("`{text}` does not read: {err}")))?,
    };
    let mut script = Vec::new();
    let mut plies = 0;
    let mut last: Option<(State, Vec<Move>)> = None;
    let mut legal = Vec::new();
    for step in &s.steps {
        let fail = |msg: String| (step.line, msg);
        let shown = format_position(&e, &st);
        match &step.kind {
            StepKind::Play(ply) => {
                let moves =
                    parse_ply(&e, &st, ply).map_err(|err| fail(format!("`{ply}` is not legal in `{shown}`: {err}")))?;
                let before = st.clone();
                let ply0 = st.ply;
                for (i, &mv) in moves.iter().enumerate() {
                    legal.clear();
                    e.legal_moves(&st, &mut legal);
                    if i == 0 || legal.len() > 1 {
                        script.push(mv);
                    }
                    e.apply(&mut st, mv).map_err(|err| fail(format!("`{ply}` in `{shown}`: {err}")))?;
                }
                if st.ply == ply0 && st.result.is_none() {
                    return Err(fail(format!("`{ply}` in `{shown}` did not complete a ply")));
                }
                plies += 1;
                last = Some((before, moves));
            }
            StepKind::Position(want) => {
                if shown != *want {
                    return Err(fail(format!("the position is\n    {shown}\n  not\n    {want}")));
                }
            }
            StepKind::Has(tokens) => {
                let have: BTreeSet<&str> = shown.split_whitespace().collect();
                let missing: Vec<&String> = tokens.iter().filter(|t| !have.contains(t.as_str())).collect();
                if !missing.is_empty() {
                    return Err(fail(format!("the position `{shown}` lacks {missing:?}")));
                }
            }
            StepKind::ToMove(p) => {
                if st.to_move + 1 != *p {
                    return Err(fail(format!("player {} is to move, not {p}, in `{shown}`", st.to_move + 1)));
                }
            }
            StepKind::Legal(want) => {
                let mut want = want.clone();
                want.sort();
                let have = legal_plies(&e, &st);
                if have != want {
                    return Err(fail(format!("the legal plies are {have:?}, not {want:?}, in `{shown}`")));
                }
            }
            StepKind::Illegal(ply) => {
                if let Ok(moves) = parse_ply(&e, &st, ply) {
                    return Err(fail(format!("`{ply}` is legal in `{shown}` (as {moves:?})")));
                }
            }
            StepKind::GoesOn => {
                if let Some(o) = &st.result {
                    return Err(fail(format!("the game ended ({:?}) in `{shown}`", o.reason)));
                }
            }
            StepKind::Over { winners, scores, reason } => {
                let Some(o) = &st.result else {
                    return Err(fail(format!("the game goes on in `{shown}`")));
                };
                let got: Vec<u8> = o.winner_list().iter().map(|p| p + 1).collect();
                let bad_scores = scores.as_ref().is_some_and(|s| *s != o.scores);
                let bad_reason = reason.as_ref().is_some_and(|r| reason_named(r) != Some(o.reason));
                if got != *winners || bad_scores || bad_reason {
                    return Err(fail(format!(
                        "the game is over: winners {got:?}, scores {:?}, reason {}",
                        o.scores,
                        reason_word(o.reason)
                    )));
                }
            }
            StepKind::Told(text) => {
                let Some((before, moves)) = &last else {
                    return Err(fail("`told` before any ply".into()));
                };
                let told = mancala::narrate::ply(&e, before, moves, &st, &["you".into(), "computer".into()]);
                if !told.text.contains(text.as_str()) {
                    return Err(fail(format!("the ply is told as\n    {}\n  without `{text}`", told.text)));
                }
            }
        }
    }
    Ok((script, plies))
}

/// Plays the scenario's plies on the reference beside the engine.
fn run_on_reference(s: &Scenario, script: &[Move], plies: u32) -> Result<(), String> {
    let source = source_of(&s.game)?;
    let pair = differ::Pair::new(source, s.variant.as_deref(), s.players).ok_or("the file does not lower")?;
    let mut tally = differ::Tally::default();
    match differ::catch(|| pair.scripted_game(s.from.as_deref(), script, plies, &mut tally)) {
        Ok(Ok(())) => Ok(()),
        Ok(Err(d)) => Err(format!("the reference disagrees: {d}")),
        Err(panic) => Err(format!("the reference panicked: {panic}")),
    }
}

/// Every scenario of every corpus file, or the files that do not read.
fn all_scenarios() -> (Vec<(String, Corpus)>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (file, text) in corpus_files() {
        match parse_corpus(&file, &text) {
            Ok(c) => out.push((file, c)),
            Err(e) => errors.push(e),
        }
    }
    (out, errors)
}

#[test]
fn every_scenario_of_the_corpus_holds_on_the_engine_and_the_reference() {
    let (corpora, mut failures) = all_scenarios();
    let only = std::env::var("SCENARIO").ok();
    let mut ran = 0;
    for (_, corpus) in &corpora {
        for s in &corpus.scenarios {
            if only.as_ref().is_some_and(|o| !s.name().contains(o.as_str())) {
                continue;
            }
            ran += 1;
            match run_on_engine(s) {
                Err((line, msg)) => failures.push(format!("{}:{line}: {} {}: {msg}", s.file, s.ids.join(" "), s.why)),
                Ok((script, plies)) => {
                    if s.reference {
                        if let Err(msg) = run_on_reference(s, &script, plies) {
                            failures.push(format!("{}: {msg}", s.name()));
                        }
                    }
                }
            }
        }
    }
    eprintln!("{ran} scenarios");
    assert!(ran > 0 || only.is_some(), "no scenario in {}", corpus_dir().display());
    assert!(failures.is_empty(), "{} failures:\n{}", failures.len(), failures.join("\n\n"));
}

/// The decision IDs a game file cites in its comments, such as `TR-3` or `ENGINE-1`.
fn cited_ids(source: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for line in source.lines() {
        let Some((_, comment)) = line.split_once('#') else { continue };
        for word in comment.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')) {
            let Some((head, tail)) = word.split_once('-') else { continue };
            let is_id = head.len() >= 2
                && head.chars().all(|c| c.is_ascii_uppercase())
                && !tail.is_empty()
                && tail.chars().all(|c| c.is_ascii_digit());
            if is_id {
                ids.insert(word.to_string());
            }
        }
    }
    ids
}

#[test]
fn every_decision_a_corpus_game_cites_has_a_scenario_or_says_why_not() {
    let (corpora, mut failures) = all_scenarios();
    for (file, corpus) in &corpora {
        let covered: BTreeSet<&str> = corpus
            .scenarios
            .iter()
            .flat_map(|s| s.ids.iter().map(String::as_str))
            .chain(corpus.uncovered.iter().map(|(id, _)| id.as_str()))
            .collect();
        for game in &corpus.games {
            let Ok(source) = source_of(game) else {
                failures.push(format!("{file}: no shipped game `{game}`"));
                continue;
            };
            for id in cited_ids(source) {
                if !covered.contains(id.as_str()) {
                    failures.push(format!("{file}: games/{game}.mancala cites {id}, which no scenario checks"));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_bad_corpus_line_is_reported_with_its_file_and_line() {
    let bad = "game tchuka-ruma\nscenario TR-1: fine\nplay 4\nfrobnicate 3\n";
    assert_eq!(parse_corpus("x.txt", bad).unwrap_err(), "x.txt:4: `frobnicate` is no step of a scenario");
    let no_why = "game tchuka-ruma\nscenario TR-1\n";
    assert!(parse_corpus("x.txt", no_why).unwrap_err().starts_with("x.txt:2: "));
    // A scenario that fails says where: the line of the failing step.
    let wrong = "game tchuka-ruma\nscenario TR-1: wrong on purpose\nfrom 4=4\nplay 4\nto-move 2\n";
    let corpus = parse_corpus("x.txt", wrong).expect("reads");
    let (line, msg) = run_on_engine(&corpus.scenarios[0]).unwrap_err();
    assert_eq!((line, msg.as_str()), (5, "player 1 is to move, not 2, in `1=1 2=1 3=1 4=0 store=1 to_move=1`"));
}
