//! One ply told step by step, each step with the rule of the file that made it (`mancala explain`, the
//! REPL's `explain`, the playground's "why?").
//!
//! The ply is replayed on an engine `with_trace` (the general stages, never the fast paths of play), which
//! writes down each step as it makes it (`engine::Event`): the lap lifted, the pieces dropped, the capture
//! and what it took or marked, the opponent's answer, the relay, the capture and relay rules that did not hold
//! at the last pit, another turn, the `then` take and `then mark`, each end rule tested and whether it held,
//! the sweeps. The
//! rules are found by `ir::RuleRef` in `Rules::sources`, which says where each stands in the file; its line
//! and text are read from the file, with its `///` sentence. No printing here.

use serde::Serialize;

use crate::engine::{EndReason, Engine, Event, Move, State, Traced};
use crate::ir::{ActionKind, PlaceId, RuleRef};

/// A ply told step by step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Explanation {
    /// The ply in move notation.
    pub ply: String,
    /// The seat that made it, from 1.
    pub mover: u8,
    pub steps: Vec<Step>,
}

/// One step, in words, with the rule that made it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Step {
    /// What kind of step: `lift`, `sow`, `capture`, `answer`, `relay`, `not_held` (a capture or relay rule
    /// whose condition did not hold at the last pit), `again`, `then_take`, `then_mark`, `end_rule`, `sweep`,
    /// ...
    pub step: &'static str,
    pub text: String,
    /// The places it is about (labels), for a front end to mark.
    pub places: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<RuleText>,
}

/// A rule as the file says it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleText {
    /// Its line in the file, from 1.
    pub line: usize,
    /// Its head as one line (up to the `{` of its block, its wrapped lines joined), ending with "…" when
    /// elided for length.
    pub text: String,
    /// Its `///` sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc: Option<String>,
}

/// Plays the ply `moves` from `before` with the engine's rules traced, and tells it. `source` is the text
/// of the rule file the engine was made from, for the rules' lines.
pub fn explain(engine: &Engine, source: &str, before: &State, moves: &[Move]) -> Explanation {
    let tracer = engine.clone().with_trace();
    let mut st = before.clone();
    tracer.trace(&st);
    for &mv in moves {
        tracer.apply_unchecked(&mut st, mv);
    }
    let traced = tracer.take_trace();
    let teller = Teller { engine, source };
    let mut steps = teller.steps(before, &traced, &st);
    steps.extend(teller.outcome(&st));
    Explanation { ply: crate::notation::format_ply(engine, before, moves), mover: before.to_move + 1, steps }
}

/// The explanation as text: one numbered line a step, the rule after it.
pub fn render(e: &Explanation) -> String {
    render_by(e, &format!("player {}", e.mover))
}

/// The explanation as text, the mover called `who` (the REPL's `you`, `computer`).
pub fn render_by(e: &Explanation, who: &str) -> String {
    let mut out = format!("ply {} by {who}:\n", e.ply);
    let n = e.steps.len();
    for (i, step) in e.steps.iter().enumerate() {
        if n > TOLD_STEPS && i == TOLD_FIRST {
            let left_out = n - TOLD_STEPS;
            out.push_str(&format!("     ... {left_out} steps left out (`--format json` lists every step)\n"));
        }
        if n > TOLD_STEPS && (TOLD_FIRST..n - (TOLD_STEPS - TOLD_FIRST)).contains(&i) {
            continue;
        }
        out.push_str(&format!("{:>3}. {}", i + 1, step.text));
        if let Some(rule) = &step.rule {
            out.push_str(&format!(" (line {}: {})", rule.line, rule.text));
            if let Some(doc) = &rule.doc {
                out.push_str(&format!("\n       \"{doc}\""));
            }
        }
        out.push('\n');
    }
    out
}

/// The most steps the text form tells: a move that never ends (10,000 laps) would print a megabyte. Past it
/// the text keeps the first `TOLD_FIRST` steps and the last ones (how the move ended), and says how many
/// were left out; the JSON form keeps them all.
const TOLD_STEPS: usize = 240;
const TOLD_FIRST: usize = 200;

struct Teller<'a> {
    engine: &'a Engine,
    source: &'a str,
}

impl Teller<'_> {
    fn steps(&self, before: &State, traced: &[Traced], after: &State) -> Vec<Step> {
        let mut out = Vec::new();
        let mut i = 0;
        let mut prev: &[u8] = &before.counts;
        while i < traced.len() {
            let t = &traced[i];
            // What a step moved shows at the next one (or at the end of the ply).
            let next = traced.get(i + 1).map_or(&after.counts[..], |n| &n.counts[..]);
            match &t.event {
                Event::Begin { rule, place } => {
                    if self.is_take(*rule) {
                        // A take (`take { ... }`) is the whole ply: what it moved shows at the next step.
                        let name = self.action_name(*rule);
                        let text = format!("{name} at {}: takes {}", self.label(*place), self.moved(&t.counts, next));
                        out.push(self.step("take", text, vec![*place], Some(*rule)));
                    } else if self.is_sowing(*rule)
                        && matches!(traced.get(i + 1).map(|n| &n.event), Some(Event::SowFrom { .. }))
                    {
                        // A take before the sowing (`take { ... }` first in it): the sowing's start follows.
                        let text = format!("take at {}: takes {}", self.label(*place), self.moved(&t.counts, next));
                        let take = match *rule {
                            RuleRef::Action { phase, action } => RuleRef::TakeFirst { phase, action },
                            other => other,
                        };
                        out.push(self.step("take", text, vec![*place], Some(take)));
                    } else if !self.is_sowing(*rule) {
                        let name = self.action_name(*rule);
                        out.push(self.step(
                            "begin",
                            format!("{name} at {}", self.label(*place)),
                            vec![*place],
                            Some(*rule),
                        ));
                    }
                }
                Event::Lift { pit, from, rule, .. } => {
                    let n = self.pieces_left(prev, &t.counts, *from);
                    let text = if from == pit {
                        format!("lift {n} from {}", self.label(*pit))
                    } else {
                        format!("lift {n} from {} for {}", self.label(*from), self.label(*pit))
                    };
                    out.push(self.step("lift", text, vec![*pit], Some(*rule)));
                }
                // The lift that follows tells the pit sown from after the take.
                Event::SowFrom { .. } => {}
                Event::Drop { .. } => {
                    let run: Vec<&Traced> =
                        traced[i..].iter().take_while(|t| matches!(t.event, Event::Drop { .. })).collect();
                    out.push(self.drops(&run));
                    i += run.len();
                    prev = &run[run.len() - 1].counts;
                    continue;
                }
                Event::Capture { rule, at } => {
                    // A capture before a lift is written down once made, the others before.
                    let (taken, marked) = match rule {
                        RuleRef::LiftCapture { .. } => {
                            let marks_before = traced.get(i.wrapping_sub(1)).map_or(&before.marks, |p| &p.marks);
                            (self.moved(prev, &t.counts), self.marks_changed(marks_before, &t.marks))
                        }
                        _ => {
                            let marks_next = traced.get(i + 1).map_or(&after.marks, |n| &n.marks);
                            (self.moved(&t.counts, next), self.marks_changed(&t.marks, marks_next))
                        }
                    };
                    // A capture may mark pits (`mark here as NAME`) as well as, or instead of, taking.
                    let taken = match (taken.is_empty(), marked.is_empty()) {
                        (true, true) => " takes nothing".to_string(),
                        (true, false) => format!(": {}", marked.join("; ")),
                        (false, true) => format!(" takes {taken}"),
                        (false, false) => format!(" takes {taken}; {}", marked.join("; ")),
                    };
                    let text = match rule {
                        RuleRef::DropCapture { .. } => {
                            format!("as a piece falls in {}: capture{taken}", self.label(*at))
                        }
                        RuleRef::LiftCapture { .. } => format!("before {} is lifted: capture{taken}", self.label(*at)),
                        _ => format!("last in {}: capture{taken}", self.label(*at)),
                    };
                    out.push(self.step("capture", text, vec![*at], Some(*rule)));
                }
                Event::Answer { rule, at, pit } => {
                    // The opponent's answer (`opponent may`), made in the mover's move, at a pit he chose for
                    // an answer that takes from one.
                    let taken = self.moved(&t.counts, next);
                    let taken = if taken.is_empty() { "takes nothing".to_string() } else { format!("takes {taken}") };
                    let opponent = self.engine.next_active(before, before.to_move) + 1;
                    let (chosen, places) = match pit {
                        Some(p) => (format!(" from {}", self.label(*p)), vec![*at, *p]),
                        None => (String::new(), vec![*at]),
                    };
                    let text = format!("last in {}: player {opponent} answers{chosen}: {taken}", self.label(*at));
                    out.push(self.step("answer", text, places, Some(*rule)));
                }
                Event::Cancel { rule } => out.push(self.step(
                    "cancel",
                    "the capture is cancelled: nothing is taken".into(),
                    vec![],
                    Some(*rule),
                )),
                Event::Resow { from } => out.push(self.step(
                    "resow",
                    format!("the pieces taken are sown on from {}", self.label(*from)),
                    vec![*from],
                    None,
                )),
                Event::ContinueAt { at } => out.push(self.step(
                    "continue",
                    format!("the lap ends again at {}", self.label(*at)),
                    vec![*at],
                    None,
                )),
                Event::Relay { rule, pit } => {
                    // The lift that follows a relay is the relay's.
                    let mut text = format!("relay from {}", self.label(*pit));
                    if let Some(Traced { event: Event::Lift { from, .. }, counts, .. }) = traced.get(i + 1) {
                        text.push_str(&format!(": lift {}", self.pieces_left(&t.counts, counts, *from)));
                        prev = counts;
                        i += 2;
                        out.push(self.step("relay", text, vec![*pit], Some(*rule)));
                        continue;
                    }
                    out.push(self.step("relay", text, vec![*pit], Some(*rule)));
                }
                Event::Again { rule } => {
                    let text = format!("player {} moves again", before.to_move + 1);
                    out.push(self.step("again", text, vec![], Some(*rule)));
                }
                Event::EndRule { rule, held } => {
                    // In a match, an end rule ends the round; the outcome tells the end of the match.
                    let text = match (*held, self.engine.rules.rounds.is_some()) {
                        (true, true) => "end rule holds: the round ends",
                        (true, false) => "end rule holds: the game ends",
                        (false, _) => "end rule tested: it does not hold",
                    };
                    out.push(self.step("end_rule", text.into(), vec![], Some(*rule)));
                }
                Event::NotHeld { rule, at } => {
                    let what = match rule {
                        RuleRef::Capture { .. } => "capture",
                        _ => "relay",
                    };
                    // One line each: the rule's head, without its sentence.
                    let text = format!("last in {}: {what} tested: it does not hold", self.label(*at));
                    let mut step = self.step("not_held", text, vec![*at], Some(*rule));
                    if let Some(r) = &mut step.rule {
                        r.doc = None;
                    }
                    out.push(step);
                }
                Event::ThenTake { rule, .. } => {
                    // The pits one `then` take takes from follow one another: one step for them all.
                    let run: Vec<&Traced> = traced[i..]
                        .iter()
                        .take_while(|n| matches!(&n.event, Event::ThenTake { rule: r, .. } if r == rule))
                        .collect();
                    let end = traced.get(i + run.len()).map_or(&after.counts[..], |n| &n.counts[..]);
                    let pits: Vec<PlaceId> = run
                        .iter()
                        .filter_map(|n| match n.event {
                            Event::ThenTake { pit, .. } => Some(pit),
                            _ => None,
                        })
                        .collect();
                    let taken = self.moved(&t.counts, end);
                    let text =
                        if taken.is_empty() { "then take nothing".to_string() } else { format!("then take {taken}") };
                    out.push(self.step("then_take", text, pits, Some(*rule)));
                    i += run.len();
                    prev = &run[run.len() - 1].counts;
                    continue;
                }
                Event::ThenMark { rule, mark, pits, player } => {
                    let names: Vec<String> = pits.iter().map(|&p| self.label(p)).collect();
                    let text = format!("then mark {} as {}", list(&names), self.mark_name(*mark, *player));
                    out.push(self.step("then_mark", text, pits.clone(), Some(*rule)));
                }
                Event::Sweep { rule } => {
                    let swept = self.moved(&t.counts, next);
                    let when = if self.engine.rules.rounds.is_some() { "at the round's end" } else { "at the end" };
                    if !swept.is_empty() {
                        out.push(self.step("sweep", format!("{when}, sweep {swept}"), vec![], Some(*rule)));
                    }
                }
                Event::RoundEnds { round, scores } => {
                    let scores: Vec<String> = scores.iter().map(i32::to_string).collect();
                    let text = format!("round {round} is over: scores {}", scores.join("-"));
                    out.push(self.step("round_ends", text, vec![], None));
                }
                Event::Refill { rule } => {
                    // Each refill on its own line, with what it alone moved (a sweep that it undoes included).
                    let dealt = self.moved(&t.counts, next);
                    let text = if dealt.is_empty() {
                        "for the next round, refill: nothing moves".to_string()
                    } else {
                        format!("for the next round, refill {dealt}")
                    };
                    out.push(self.step("refill", text, vec![], Some(*rule)));
                }
                Event::NextRound { round, starter } => {
                    let text = format!("round {round} begins: player {} moves first", starter + 1);
                    out.push(self.step("next_round", text, vec![], None));
                }
            }
            prev = &t.counts;
            i += 1;
        }
        out
    }

    /// The drops of one lap (or the part of it until something else happened): where each piece went.
    fn drops(&self, run: &[&Traced]) -> Step {
        let mut names = Vec::new();
        let mut places = Vec::new();
        for t in run {
            if let Event::Drop { place, into, .. } = t.event {
                places.push(place);
                if into == place {
                    names.push(self.label(place));
                } else {
                    names.push(format!("{} (sent on to {})", self.label(place), self.label(into)));
                }
            }
        }
        let last = places.last().map(|&p| self.label(p)).unwrap_or_default();
        let text = match names.len() {
            1 => format!("drop 1 into {last}"),
            n => format!("drop {n}, one at a time, into {}; the last into {last}", names.join(", ")),
        };
        places.dedup();
        self.step("sow", text, places, None)
    }

    /// The end of the game, if the ply ended it.
    fn outcome(&self, after: &State) -> Option<Step> {
        let o = after.result.as_ref()?;
        let why = match o.reason {
            EndReason::Condition => "an end rule held",
            EndReason::Repetition => "a position came back",
            EndReason::Stuck => "the player to move cannot move",
            EndReason::NobodyCanMove => "nobody can move",
            EndReason::NoCapture => "no capture for too long",
            EndReason::LastStanding if self.engine.rules.players == 1 => "the player is out",
            EndReason::LastStanding => "one player is left",
            EndReason::Obligation => "an obligation cannot be met",
            EndReason::Limit => "the ply limit is reached",
            EndReason::Endless => "a move would never end",
            EndReason::RepetitionDraw => "a position came back",
            EndReason::ConditionDraw => "a rule says the game is drawn",
            EndReason::Match => "the match is decided",
            EndReason::RoundLimit => "the last round is played",
        };
        let scores: Vec<String> = o.scores.iter().map(i32::to_string).collect();
        let verdict = match (0..8).filter(|p| o.winners & (1 << p) != 0).collect::<Vec<u8>>().as_slice() {
            [] => "a draw".to_string(),
            [w] => format!("player {} wins", w + 1),
            ws => format!(
                "players {} share the win",
                ws.iter().map(|w| (w + 1).to_string()).collect::<Vec<_>>().join(", ")
            ),
        };
        Some(self.step(
            "outcome",
            format!("the game is over ({why}): {verdict}, {}", scores.join(" to ")),
            vec![],
            None,
        ))
    }

    fn step(&self, step: &'static str, text: String, places: Vec<PlaceId>, rule: Option<RuleRef>) -> Step {
        Step {
            step,
            text,
            places: places.into_iter().map(|p| self.label(p)).collect(),
            rule: rule.and_then(|r| self.rule_text(r)),
        }
    }

    /// Where a rule stands in the file, its head (elided past `RULE_CHARS`), and its sentence.
    fn rule_text(&self, rule: RuleRef) -> Option<RuleText> {
        let src = self.engine.rules.source(rule)?;
        let head = rule_head(self.source, src.span)?;
        let (line, _) = crate::diag::line_column(self.source, src.span.start);
        Some(RuleText { line, text: elide(&head, RULE_CHARS, "…"), doc: src.doc.clone() })
    }

    fn is_sowing(&self, rule: RuleRef) -> bool {
        let RuleRef::Action { phase, action } = rule else { return false };
        let kind = self.engine.rules.phases.get(phase as usize).and_then(|p| p.actions.get(action as usize));
        matches!(kind.map(|a| &a.kind), Some(ActionKind::Sow(_)))
    }

    fn is_take(&self, rule: RuleRef) -> bool {
        let RuleRef::Action { phase, action } = rule else { return false };
        let kind = self.engine.rules.phases.get(phase as usize).and_then(|p| p.actions.get(action as usize));
        matches!(kind.map(|a| &a.kind), Some(ActionKind::Take(_)))
    }

    fn action_name(&self, rule: RuleRef) -> String {
        let RuleRef::Action { phase, action } = rule else { return String::new() };
        let action = self.engine.rules.phases.get(phase as usize).and_then(|p| p.actions.get(action as usize));
        action.map_or_else(String::new, |a| a.name.clone())
    }

    /// A mark by its declared name, with the player it is carried for (seat from 0): `made`, `player 1's
    /// tuzdyk`.
    fn mark_name(&self, mark: u8, player: Option<u8>) -> String {
        let name = self.engine.rules.marks.get(mark as usize).map_or_else(|| mark.to_string(), |m| m.name.clone());
        match player {
            Some(seat) => format!("player {}'s {name}", seat as u32 + 1),
            None => name,
        }
    }

    /// The marks that changed from one position's marks to the next's, in words: `A and K become made`,
    /// `c is no longer made`.
    fn marks_changed(&self, from: &[u8], to: &[u8]) -> Vec<String> {
        let rules = &self.engine.rules;
        let n = rules.n_pits;
        let mut out = Vec::new();
        for (m, info) in rules.marks.iter().enumerate() {
            // The pits that took each new value of the mark (0: unmarked), in board order.
            let mut changes: Vec<(u8, Vec<String>)> = Vec::new();
            for p in 0..n {
                let (Some(&was), Some(&now)) = (from.get(m * n + p), to.get(m * n + p)) else { continue };
                if was == now {
                    continue;
                }
                let label = self.label(p as PlaceId);
                match changes.iter_mut().find(|(v, _)| *v == now) {
                    Some((_, pits)) => pits.push(label),
                    None => changes.push((now, vec![label])),
                }
            }
            for (now, pits) in changes {
                let several = pits.len() > 1;
                let pits = list(&pits);
                let player = (info.per_player && now != 0).then(|| now - 1);
                let name = self.mark_name(m as u8, player);
                out.push(match (now, several) {
                    (0, false) => format!("{pits} is no longer {}", info.name),
                    (0, true) => format!("{pits} are no longer {}", info.name),
                    (_, false) => format!("{pits} becomes {name}"),
                    (_, true) => format!("{pits} become {name}"),
                });
            }
        }
        out
    }

    /// How many pieces left `place` from one position to the next.
    fn pieces_left(&self, from: &[u8], to: &[u8], place: PlaceId) -> i32 {
        let k = self.engine.kinds();
        (0..k).map(|i| from[place as usize * k + i] as i32 - to[place as usize * k + i] as i32).sum::<i32>().max(0)
    }

    /// Pieces that moved between two positions, in words: `3 from D and 1 from f to store(1)`; pieces that
    /// went nowhere on the board went to the hand.
    fn moved(&self, from: &[u8], to: &[u8]) -> String {
        let k = self.engine.kinds();
        let places = self.engine.rules.places.len();
        let delta = |p: usize| (0..k).map(|i| to[p * k + i] as i32 - from[p * k + i] as i32).sum::<i32>();
        let losses: Vec<String> = (0..places)
            .filter(|&p| delta(p) < 0)
            .map(|p| format!("{} from {}", -delta(p), self.label(p as PlaceId)))
            .collect();
        let gains: Vec<String> = (0..places).filter(|&p| delta(p) > 0).map(|p| self.label(p as PlaceId)).collect();
        if losses.is_empty() {
            return String::new();
        }
        let to = if gains.is_empty() { "into the hand".to_string() } else { format!("to {}", list(&gains)) };
        format!("{} {to}", list(&losses))
    }

    fn label(&self, p: PlaceId) -> String {
        self.engine.rules.places.get(p as usize).map_or_else(|| p.to_string(), |i| i.label.clone())
    }
}

/// The most characters of a rule quoted in a step; a longer one ends with "…".
const RULE_CHARS: usize = 240;

/// The head of the rule at `span` of `source` as one line: the statement up to the `{` that opens its block
/// (a `{` ending a line), or the whole statement, its lines (which `mancala fmt` wraps past 100 columns)
/// joined, comments left out and spaces collapsed.
pub fn rule_head(source: &str, span: crate::ast::Span) -> Option<String> {
    let text = source.get(span.start..span.end)?;
    let mut words: Vec<&str> = Vec::new();
    for line in text.lines() {
        let line = line[..crate::syntax::comment_start(line).unwrap_or(line.len())].trim_end();
        match line.strip_suffix('{') {
            Some(head) => {
                words.extend(head.split_whitespace());
                break;
            }
            None => words.extend(line.split_whitespace()),
        }
    }
    Some(words.join(" "))
}

/// `text` cut to at most `most` characters, ending with `ellipsis` when cut.
pub fn elide(text: &str, most: usize, ellipsis: &str) -> String {
    if text.chars().count() <= most {
        return text.to_string();
    }
    let keep = most.saturating_sub(ellipsis.chars().count());
    format!("{}{ellipsis}", text.chars().take(keep).collect::<String>().trim_end())
}

/// `a`, `a and b`, `a, b and c`.
fn list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
