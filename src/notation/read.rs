//! Reading a ply's text into its parts (`parse_ply`): the start token, the words after it, and the
//! errors for words that do not fit.

use super::*;

/// The parts of a ply text, before they are checked against the position.
#[derive(Default)]
pub(super) struct PlyText<'t> {
    pub(super) action: Option<u8>,
    pub(super) places: Vec<PlaceId>,
    pub(super) dir: Option<Dir>,
    /// Directions after the first, for the later laps of a sowing with a direction per lap.
    pub(super) lap_dirs: Vec<Dir>,
    pub(super) drops: Option<&'t str>,
    pub(super) captures: Vec<&'t str>,
    pub(super) picks: Vec<PlaceId>,
    /// The answers to optional captures, in order: `x` makes one, `-x` declines it.
    pub(super) optional: Vec<bool>,
    /// The answers to optional relays, in order: `relay` relays, `-relay` stops.
    pub(super) relays: Vec<bool>,
    /// The opponent's answers in the middle of the move, in order: `answer` makes one (`answer A`, from the pit
    /// he chose), `-answer` declines it.
    pub(super) answers: Vec<(bool, Option<PlaceId>)>,
    /// The pits chosen before laps are lifted (`take { ... }` in a capture at every lift), in order: `pick A`.
    pub(super) lift_picks: Vec<PlaceId>,
    /// Stop at an answer the text leaves out, rather than ask for it (`parse_ply_until_answer`).
    pub(super) until_answer: bool,
}

/// The first move of each legal ply from a start-of-ply state, in notation (`a`, `enter 4`, `pass`).
pub(super) fn start_options(engine: &Engine, st: &State) -> Vec<String> {
    let opts = legal(engine, st)
        .into_iter()
        .map(|mv| match mv {
            Move::Begin { action: 0, place } => label(engine, place).to_string(),
            Move::Begin { action, place } => {
                let name = engine.phase(st).actions.get(action as usize).map_or("?", |a| a.name.as_str());
                format!("{name} {}", label(engine, place))
            }
            Move::Pass => "pass".to_string(),
            Move::Accept => "accept".to_string(),
            Move::Decline => "decline".to_string(),
            other => format!("{other:?}"),
        })
        .collect();
    dedup(opts)
}

/// Reads one ply from `text` at the start-of-ply state `state`, returning its decisions.
///
/// Every decision is checked against `engine.legal_moves` while the ply is replayed on a copy of the state.
pub fn parse_ply(engine: &Engine, state: &State, text: &str) -> Result<Vec<Move>, NotationError> {
    parse_ply_in(engine, state, text, false)
}

/// Reads the decisions of a ply up to the opponent's first answer that the text leaves out (`opponent may`):
/// the mover's decisions, when another player, not the one who typed them, is to answer. A text that goes
/// past that point, or a ply without such an answer, reads as with [`parse_ply`].
pub fn parse_ply_until_answer(engine: &Engine, state: &State, text: &str) -> Result<Vec<Move>, NotationError> {
    parse_ply_in(engine, state, text, true)
}

fn parse_ply_in(engine: &Engine, state: &State, text: &str, until_answer: bool) -> Result<Vec<Move>, NotationError> {
    if state.result.is_some() {
        return Err(NotationError::new("the game is over"));
    }
    if !matches!(state.stage, Stage::Start | Stage::Respond) {
        return Err(NotationError::new("the position is in the middle of a ply; a ply is read from its start"));
    }
    let mut tokens = text.split_whitespace().peekable();
    let Some(first) = tokens.next() else {
        return Err(NotationError::expecting("no move given", start_options(engine, state)));
    };
    let lower = first.to_ascii_lowercase();
    let word = match lower.as_str() {
        "pass" => Some(Move::Pass),
        "accept" => Some(Move::Accept),
        "decline" => Some(Move::Decline),
        _ => None,
    };
    if let Some(mv) = word {
        if let Some(extra) = tokens.next() {
            return Err(NotationError::new(format!("unexpected `{extra}` after `{first}`")));
        }
        if !legal(engine, state).contains(&mv) {
            let msg = match (state.stage, mv) {
                (Stage::Respond, _) => {
                    format!("an offer is waiting for an answer: `{first}` is not possible")
                }
                (_, Move::Pass) => "passing is not allowed here".to_string(),
                _ => "there is no offer to answer".to_string(),
            };
            return Err(NotationError::expecting(msg, start_options(engine, state)));
        }
        return Ok(vec![mv]);
    }
    if state.stage == Stage::Respond {
        return Err(NotationError::expecting(
            format!("an offer is waiting for an answer, `{first}` is not one"),
            start_options(engine, state),
        ));
    }
    let mut ply = PlyText { until_answer, ..PlyText::default() };
    let phase = engine.phase(state);
    let mut head = first;
    if find_label(engine, first).is_none() {
        if let Some(a) = phase.actions.iter().position(|a| a.name.eq_ignore_ascii_case(first)) {
            ply.action = Some(a as u8);
            head = tokens.next().ok_or_else(|| {
                NotationError::expecting(format!("`{first}` needs a place"), start_options(engine, state))
            })?;
        }
    }
    read_head(engine, state, &mut ply, head)?;
    if ply.dir.is_none() {
        if let Some(&t) = tokens.peek() {
            let t = t.to_ascii_lowercase();
            if t == "cw" || t == "ccw" {
                ply.dir = Some(if t == "cw" { Dir::Cw } else { Dir::Ccw });
                tokens.next();
            }
        }
    }
    #[derive(PartialEq)]
    enum Mode {
        None,
        Captures,
        Picks,
        /// After `answer`: the pit the opponent chose, if one is written.
        AnswerPit,
        /// After `pick`: the pit chosen before a lap is lifted.
        LiftPit,
    }
    let mut mode = Mode::None;
    let mut raw_picks: Vec<&str> = Vec::new();
    for tok in tokens {
        if tok.eq_ignore_ascii_case("x") {
            mode = Mode::Captures;
            ply.optional.push(true);
        } else if tok.eq_ignore_ascii_case("-x") {
            mode = Mode::None;
            ply.optional.push(false);
        } else if tok.eq_ignore_ascii_case("relay") || tok.eq_ignore_ascii_case("-relay") {
            mode = Mode::None;
            ply.relays.push(!tok.starts_with('-'));
        } else if tok.eq_ignore_ascii_case("answer") || tok.eq_ignore_ascii_case("-answer") {
            let made = !tok.starts_with('-');
            mode = if made { Mode::AnswerPit } else { Mode::None };
            ply.answers.push((made, None));
        } else if let Some((question, yes)) = named_answer(engine, tok) {
            match question {
                Question::Relay => {
                    mode = Mode::None;
                    ply.relays.push(yes);
                }
                Question::Capture => {
                    mode = if yes { Mode::Captures } else { Mode::None };
                    ply.optional.push(yes);
                }
            }
        } else if tok.eq_ignore_ascii_case("take") {
            mode = Mode::Picks;
        } else if tok.eq_ignore_ascii_case("pick") {
            mode = Mode::LiftPit;
        } else {
            if mode == Mode::AnswerPit {
                mode = Mode::None;
                if let (Some(p), Some(answer)) = (find_label(engine, tok), ply.answers.last_mut()) {
                    answer.1 = Some(p);
                    continue;
                }
            }
            if mode == Mode::LiftPit {
                mode = Mode::None;
                ply.lift_picks.push(find_label(engine, tok).ok_or_else(|| not_a_place(engine, tok))?);
                continue;
            }
            match mode {
                Mode::AnswerPit | Mode::LiftPit => unreachable!("left just above"),
                Mode::Captures => ply.captures.push(tok),
                Mode::Picks => raw_picks.extend(tok.split(',').filter(|s| !s.is_empty())),
                Mode::None if tok.eq_ignore_ascii_case("cw") => ply.lap_dirs.push(Dir::Cw),
                Mode::None if tok.eq_ignore_ascii_case("ccw") => ply.lap_dirs.push(Dir::Ccw),
                Mode::None => return Err(unexpected_token(engine, tok)),
            }
        }
    }
    for p in raw_picks {
        let place = find_label(engine, p).ok_or_else(|| not_a_place(engine, p))?;
        ply.picks.push(place);
    }
    replay(engine, state, ply)
}

/// A word after the start of a ply that means nothing there: the words that could follow, of this game's
/// rules only (a game without chosen captures or `then may take` has none).
fn unexpected_token(engine: &Engine, tok: &str) -> NotationError {
    let sows: Vec<&Sow> = engine
        .rules
        .phases
        .iter()
        .flat_map(|p| &p.actions)
        .filter_map(|a| if let ActionKind::Sow(s) = &a.kind { Some(s) } else { None })
        .collect();
    let mut words = Vec::new();
    if sows.iter().any(|s| s.captures.iter().chain(&s.drop_captures).any(|c| c.takes.iter().any(|t| t.chosen))) {
        words.push("x PLACE KIND (a piece to capture)".to_string());
    }
    if sows.iter().any(|s| s.then.is_some()) {
        words.push("take PITS (pits taken after the sowing)".to_string());
    }
    for s in &sows {
        if s.relay_may.is_some() {
            let w = AnswerWords::of(Question::Relay, s.relay_answers.as_ref());
            words.push(format!("{} or {} (an optional relay)", w.yes, w.no));
        }
        for c in s.captures.iter().filter(|c| c.may) {
            let w = AnswerWords::of(Question::Capture, c.answers.as_ref());
            words.push(format!("{} or {} (an optional capture)", w.yes, w.no));
        }
    }
    if sows.iter().any(|s| matches!(s.dir, DirRule::PerLap(_))) {
        words.push("cw or ccw (the direction of a later lap)".to_string());
    }
    words.dedup();
    if words.is_empty() {
        return NotationError::new(format!("unexpected `{tok}`: a move here is one pit (type one move at a time)"));
    }
    NotationError::expecting(format!("unexpected `{tok}`"), words)
}

pub(super) fn not_a_place(engine: &Engine, text: &str) -> NotationError {
    let labels: Vec<&str> = engine.rules.places.iter().map(|p| p.label.as_str()).collect();
    let msg = format!("`{text}` is not a place on this board{}", did_you_mean(text, &labels));
    NotationError::expecting(msg, labels.iter().map(|s| s.to_string()).collect())
}

/// ` (did you mean `x`?)` for a longer word close to one of the candidates; nothing for short ones, where
/// every label is close.
pub(super) fn did_you_mean(text: &str, candidates: &[&str]) -> String {
    if text.chars().count() < 3 {
        return String::new();
    }
    crate::diag::did_you_mean(text, candidates.iter().copied())
        .map_or_else(String::new, |s| format!(" (did you mean `{s}`?)"))
}

/// Reads the start token: `LABEL[DIR][,LABEL...][:SYMBOLS]`, or Freeling's glued `LABEL SYMBOLS`.
fn read_head<'t>(engine: &Engine, state: &State, ply: &mut PlyText<'t>, head: &'t str) -> Result<(), NotationError> {
    let (places_text, drops) = match head.split_once(':') {
        Some((a, b)) => (a, Some(b)),
        None => (head, None),
    };
    ply.drops = drops;
    let not_a_pit = |part: &str| {
        let labels: Vec<&str> = engine.rules.places.iter().map(|p| p.label.as_str()).collect();
        NotationError::expecting(
            format!("`{part}` is not a pit{}", did_you_mean(part, &labels)),
            start_options(engine, state),
        )
    };
    for (i, part) in places_text.split(',').enumerate() {
        if part.is_empty() {
            return Err(NotationError::expecting(
                format!("a place is missing in `{places_text}`"),
                start_options(engine, state),
            ));
        }
        if let Some(p) = find_label(engine, part) {
            ply.places.push(p);
            continue;
        }
        // A direction glued to a pit: the first, or the pit sown from after a take (`A,bcw`).
        let lower = part.to_ascii_lowercase();
        let mut found = None;
        for (suffix, d) in [("ccw", Dir::Ccw), ("cw", Dir::Cw)] {
            if lower.ends_with(suffix) && ply.dir.is_none() {
                if let Some(p) = find_label(engine, &part[..part.len() - suffix.len()]) {
                    found = Some((p, d));
                    break;
                }
            }
        }
        if let Some((p, d)) = found {
            ply.places.push(p);
            ply.dir = Some(d);
            continue;
        }
        if i == 0 {
            // Freeling's glued form: `e250`, `7cwRBR` (only where pieces differ: `foo` is no pit `f` and drops).
            if drops.is_none() && !places_text.contains(',') && kinds(engine) > 1 {
                for (p, rest) in label_prefixes(engine, part) {
                    let lower_rest = rest.to_ascii_lowercase();
                    let (d, rest) = if lower_rest.starts_with("ccw") {
                        (Some(Dir::Ccw), &rest[3..])
                    } else if lower_rest.starts_with("cw") {
                        (Some(Dir::Cw), &rest[2..])
                    } else {
                        (None, rest)
                    };
                    if !rest.is_empty() && symbol_run(engine, rest).is_some() {
                        ply.places.push(p);
                        ply.dir = d;
                        ply.drops = Some(rest);
                        return Ok(());
                    }
                }
            }
        }
        return Err(not_a_pit(part));
    }
    Ok(())
}
