//! Move and position notation: whole plies and positions as short texts a person can read and write.
//!
//! # Plies
//!
//! A ply (one player's action) is the sequence of engine decisions ([`Move`]s) from a start-of-ply point
//! (`Stage::Start` or `Stage::Respond`) until the ply count increases. Its notation is a few tokens separated
//! by spaces, in the order the decisions are made:
//!
//! | Text | Meaning |
//! |---|---|
//! | `c` | the phase's first action (usually `sow`) at place `c` |
//! | `enter 4` | another action of the phase, named, at place `4` |
//! | `enter 4,11`, `offer c,d`, `3,7` | a selection: the first place and the further picks (`put ... times`, `offer`), commas between |
//! | `7cw`, `7ccw` | a chosen direction, glued to the pit |
//! | `7cw:RBR`, `e:250` | the kinds of the pieces dropped, in order, one symbol each, after a colon |
//! | `x B5 E4 cup(2)3` | chosen captures: place label and kind symbol, one piece each (`D55` is two pieces from `D`) |
//! | `take 3,9` | the pits picked for a `then may take` (left out when nothing is picked) |
//! | `pass`, `accept`, `decline` | passing, answering an offer |
//! | `relay`, `-relay`, `x`, `-x` | answering an optional relay or capture; the rule file may name the answers (`safari`, `stop`) |
//!
//! So a whole Gulek sowing reads `7cw:RBR take 3,9`, a Glass Bead Game sowing `e:250 x B5`.
//!
//! Drops: [`format_ply`] prints the kind of *every* piece of an order-chosen sowing, forced ones included
//! (with a relay sowing, where pieces are lifted again mid-move, only the chosen ones). [`parse_ply`] accepts
//! either every piece or only the chosen ones: when the number of symbols equals the number of pieces lifted,
//! they are read as every piece (and the forced ones are checked), otherwise as the chosen ones only.
//!
//! Captures: [`format_ply`] prints the chosen pieces only, in the order the engine takes them. [`parse_ply`]
//! reads them in any order (the pieces of one capture are a set: each token that fits is tried in turn), and
//! also accepts the pieces a capture took without asking because only one was there (Freeling lists every
//! pick: `e0000 x E4 E55 3`); such extra tokens must name pieces the ply really took.
//!
//! Parsing is forgiving where it costs nothing: the first action may also be named (`sow 7cw`), or left out
//! where the first action can start nowhere and only one other can start at the place (`i6` for `takasa
//! i6`), a direction may
//! stand alone (`7 cw`), Freeling's glued drops are read (`e250`), selections may be in any order
//! (`take 9,3`), a capture from a store may leave out the place when only one place fits (`x 3`), kind
//! symbols may be typed in either case when that is unambiguous (`7cw:rbr`).
//!
//! Parsing works by replaying: at each decision point the text must supply what the stage needs, the move
//! must be among `engine.legal_moves`, and it is applied on a copy. Errors ([`NotationError`]) say what was
//! wrong and list a few legal options in notation.
//!
//! # Positions
//!
//! A position is a list of entries separated by spaces:
//!
//! ```text
//! a4 b4 c4 d4 e4 f4 A4 B4 C4 D4 E4 F4 store(1)=0 store(2)=0 to_move=1
//! ```
//!
//! * `LABEL=CONTENTS`, or `LABELCONTENTS` glued when that reads unambiguously (`a4`, `a05`): the pieces in a place.
//!   * With one kind of piece, the contents are a number (`a4`, `a=4`, `store(1)=0`, `7=4`).
//!   * With several kinds, the kind symbols, one per piece (`7=RRB`, `a=05` for a stone and gem 5); a symbol
//!     may carry a repeat count (`supply(1)=R*20`), and the contents may go on in further tokens
//!     (`a=0 5`, `cup(1)=1*3 5`).
//!   * `-` (or `0` with one kind) is an empty place. Places not written are empty.
//! * `to_move=N`: the player to move, numbered from 1 (default 1).
//! * `phase=NAME` (or its number from 1): the phase; when left out, the first phase whose `until` does not
//!   hold yet.
//! * `owner(LABEL)=N`: a pit owned by another player than at the start (`-` for nobody).
//! * `eliminated=2` or `eliminated=2,3`: players out of the game.
//! * `offered=c,d`: an offer of these pits waits for an answer from the player to move, made by the player
//!   before him.
//! * `NAME=c,d` (a mark) or `NAME(N)=c,d` (a mark per player, carried for player N): the pits that carry
//!   the mark; pits not written carry none. A mark `for N plies` writes the plies each pit has it for still,
//!   the ply about to be played counting as one (`blocked(2)=C/2`); written without, N - 1, as if the ply
//!   that led to the position had just made it.
//! * `round=N` and `starter=N`, in a match of rounds: the round being played (from 1, the default) and the
//!   player who started it (by default the player to move).
//! * `moves=A,B`: the plies each player has made so far (`moves(PLAYER)`), 0 each when left out; printed
//!   only where a rule reads them.
//!
//! [`format_position`] prints every pit and every store on the track, other places (captures, supplies) only
//! when not empty, `to_move`, and `phase`, `owner`, marks, `eliminated`, `offered` only when they say something. It
//! glues the contents to the label only for one kind of piece and a pit whose label ends in a letter (`a4`,
//! but `7=4`, `store(1)=0`, `captured(1)=5`).
//!
//! [`parse_position`] starts from the setup's position with every place empty and no mark, and overrides what the
//! text says; the result is at the start of a ply (stage `Start`, or `Respond` with `offered`), ply 0, with the
//! end rules tested as before a first ply (a position where one holds is over) and the obligation (`must`)
//! worked out for the player to move. A text starting with `{` is read as the state's JSON
//! (kept as it is, with its ply count and history), which must also be at the start of a ply with nothing in
//! hand.
//!
//! Both forms are refused where no game of these rules could reach them:
//! * more than 255 pieces in all: a place counts its pieces in one byte, and pieces only move, so they could
//!   all come together in one place;
//! * an `owner(...)` other than at the start in a game where pits never change hands (no `offer`), or a pit
//!   owned by nobody that was owned at the start (a trade always gives pits to a player);
//! * `eliminated` in a game where nobody is put out, the player to move eliminated, or a single player left;
//! * `offered` in a phase without an offer, of pits that are not the offering player's (the player before the
//!   one to move), or of a number of pits no offer of the phase allows.
//!
//! [`parse_start_position`] is the same, for commands that start games.

use std::fmt;

use crate::engine::{Ctx, Engine, Move, Stage, State};
use crate::ir::{pit_bit, pits_of, ActionKind, Dir, DirRule, PitSet, PlaceId, Sow, NO_PLAYER, UNMARKED};

/// How many options an error lists before it says how many more there are.
const MAX_OPTIONS: usize = 12;

/// A ply or position text that does not fit: what was wrong, and what would have fitted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotationError {
    /// What went wrong, e.g. "`z` is not a pit".
    pub message: String,
    /// Some texts that would fit at that point, in notation (may be empty).
    pub expected: Vec<String>,
    /// Where the text merely ran out before the ply was over (a direction, a piece, an answer still to
    /// choose): the decisions it did make, in order, so that a front end can make them and ask for the rest.
    /// Empty otherwise.
    pub started: Vec<Move>,
}

impl NotationError {
    fn new(message: impl Into<String>) -> NotationError {
        NotationError { message: message.into(), expected: Vec::new(), started: Vec::new() }
    }

    fn expecting(message: impl Into<String>, expected: Vec<String>) -> NotationError {
        NotationError { message: message.into(), expected, started: Vec::new() }
    }

    /// The text ran out after the decisions of `r`: the rest is to be asked.
    fn ran_out(mut self, r: &Replay<'_>) -> NotationError {
        self.started = r.moves.clone();
        self
    }
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.expected.is_empty() {
            let shown = &self.expected[..self.expected.len().min(MAX_OPTIONS)];
            write!(f, "; expected one of: {}", shown.join(", "))?;
            if self.expected.len() > shown.len() {
                write!(f, ", ... ({} more)", self.expected.len() - shown.len())?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for NotationError {}

// ================================================================ small helpers

fn label(engine: &Engine, p: PlaceId) -> &str {
    engine.rules.places.get(p as usize).map_or("?", |info| info.label.as_str())
}

fn symbol(engine: &Engine, k: u8) -> &str {
    engine.rules.kinds.get(k as usize).map_or("?", |info| info.symbol.as_str())
}

fn find_label(engine: &Engine, text: &str) -> Option<PlaceId> {
    engine.rules.places.iter().position(|info| info.label == text).map(|p| p as PlaceId)
}

/// The places whose label starts `text`, longest label first, with the rest of the text.
fn label_prefixes<'t>(engine: &Engine, text: &'t str) -> Vec<(PlaceId, &'t str)> {
    let mut found: Vec<(PlaceId, &str)> = engine
        .rules
        .places
        .iter()
        .enumerate()
        .filter(|(_, info)| !info.label.is_empty() && text.starts_with(info.label.as_str()))
        .map(|(p, info)| (p as PlaceId, &text[info.label.len()..]))
        .collect();
    found.sort_by_key(|(_, rest)| rest.len());
    found
}

fn kinds(engine: &Engine) -> usize {
    engine.kinds()
}

fn place_count(engine: &Engine, st: &State, p: PlaceId) -> u32 {
    let k = kinds(engine);
    let base = p as usize * k;
    st.counts.get(base..base + k).map_or(0, |c| c.iter().map(|&n| n as u32).sum())
}

fn player_mask(engine: &Engine, player: u8) -> u64 {
    engine.rules.kinds.iter().enumerate().filter(|(_, info)| info.owner == player).fold(0, |m, (k, _)| m | (1 << k))
}

fn legal(engine: &Engine, st: &State) -> Vec<Move> {
    let mut out = Vec::new();
    engine.legal_moves(st, &mut out);
    out
}

fn dir_text(dir: Dir) -> &'static str {
    match dir {
        Dir::Ccw => "ccw",
        Dir::Cw => "cw",
    }
}

/// The sowing rules of action `action` of the current phase, if it is a sowing.
/// The words that answer a yes/no question of a ply: the rule file's own (`may as "safari" or "stop"`), or
/// `relay` and `-relay` for a relay, `x` and `-x` for a capture.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerWords {
    pub question: Question,
    pub yes: String,
    pub no: String,
    /// The rule file gave the words.
    pub named: bool,
}

/// What a yes/no question of a ply asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Question {
    /// Whether to relay from the last pit (`relay may`).
    Relay,
    /// Whether to make a capture (`capture may`).
    Capture,
}

impl AnswerWords {
    pub fn word(&self, yes: bool) -> &str {
        if yes {
            &self.yes
        } else {
            &self.no
        }
    }

    fn of(question: Question, answers: Option<&crate::ir::Answers>) -> AnswerWords {
        let (yes, no) = match question {
            Question::Relay => ("relay", "-relay"),
            Question::Capture => ("x", "-x"),
        };
        match answers {
            Some(a) => AnswerWords { question, yes: a.yes.clone(), no: a.no.clone(), named: true },
            None => AnswerWords { question, yes: yes.into(), no: no.into(), named: false },
        }
    }
}

impl Default for AnswerWords {
    fn default() -> AnswerWords {
        AnswerWords::of(Question::Capture, None)
    }
}

/// The words of the yes/no question the position `st` waits for, or `None` when it asks none.
pub fn answer_words(engine: &Engine, st: &State) -> Option<AnswerWords> {
    match st.stage {
        Stage::Relay { action } => {
            Some(AnswerWords::of(Question::Relay, sow_of(engine, st, action)?.relay_answers.as_ref()))
        }
        Stage::Capture { action, rule } => {
            let rule = sow_of(engine, st, action)?.captures.get(rule as usize)?;
            Some(AnswerWords::of(Question::Capture, rule.answers.as_ref()))
        }
        _ => None,
    }
}

/// A rule file's answer word (`may as "safari" or "stop"`), case aside: which question it answers, and
/// whether it says yes. `check` makes sure a word answers one kind of question only.
fn named_answer(engine: &Engine, token: &str) -> Option<(Question, bool)> {
    let sows = engine.rules.phases.iter().flat_map(|p| &p.actions).filter_map(|a| match &a.kind {
        ActionKind::Sow(sow) => Some(sow),
        _ => None,
    });
    for sow in sows {
        let relay = sow.relay_answers.iter().map(|a| (Question::Relay, a));
        let captures = sow.captures.iter().filter_map(|c| c.answers.as_ref()).map(|a| (Question::Capture, a));
        for (question, a) in relay.chain(captures) {
            if a.yes.eq_ignore_ascii_case(token) {
                return Some((question, true));
            }
            if a.no.eq_ignore_ascii_case(token) {
                return Some((question, false));
            }
        }
    }
    None
}

fn sow_of<'e>(engine: &'e Engine, st: &State, action: u8) -> Option<&'e Sow> {
    match engine.rules.phases.get(st.phase as usize)?.actions.get(action as usize).map(|a| &a.kind) {
        Some(ActionKind::Sow(sow)) => Some(sow),
        _ => None,
    }
}

/// Splits a run of kind symbols into kinds, each symbol optionally followed by `*N` (a repeat count) when
/// `repeats` is set. Symbols match exactly, or else ignoring ASCII case when that is unambiguous.
fn split_symbols(engine: &Engine, text: &str, repeats: bool) -> Option<Vec<(u8, u32)>> {
    fn go(engine: &Engine, text: &str, repeats: bool, fold: bool, out: &mut Vec<(u8, u32)>) -> bool {
        if text.is_empty() {
            return true;
        }
        let mut candidates: Vec<(u8, usize)> = engine
            .rules
            .kinds
            .iter()
            .enumerate()
            .filter(|(_, info)| {
                let s = info.symbol.as_str();
                !s.is_empty()
                    && text.len() >= s.len()
                    && text.is_char_boundary(s.len())
                    && if fold { text[..s.len()].eq_ignore_ascii_case(s) } else { text.starts_with(s) }
            })
            .map(|(k, info)| (k as u8, info.symbol.len()))
            .collect();
        candidates.sort_by_key(|&(_, len)| std::cmp::Reverse(len));
        for (k, len) in candidates {
            let mut rest = &text[len..];
            let mut n = 1u32;
            if repeats {
                if let Some(after) = rest.strip_prefix('*') {
                    let digits = after.bytes().take_while(u8::is_ascii_digit).count();
                    match after[..digits].parse::<u32>() {
                        Ok(v) => n = v,
                        Err(_) => continue,
                    }
                    rest = &after[digits..];
                }
            }
            out.push((k, n));
            if go(engine, rest, repeats, fold, out) {
                return true;
            }
            out.pop();
        }
        false
    }
    let mut out = Vec::new();
    if go(engine, text, repeats, false, &mut out) {
        return Some(out);
    }
    let lower: Vec<String> = engine.rules.kinds.iter().map(|k| k.symbol.to_ascii_lowercase()).collect();
    let unique = lower.iter().enumerate().all(|(i, s)| !lower[..i].contains(s));
    if unique && go(engine, text, repeats, true, &mut out) {
        return Some(out);
    }
    None
}

/// Kind symbols one per piece (no repeat counts).
fn symbol_run(engine: &Engine, text: &str) -> Option<Vec<u8>> {
    split_symbols(engine, text, false).map(|v| v.into_iter().map(|(k, _)| k).collect())
}

fn all_symbols(engine: &Engine) -> Vec<String> {
    engine.rules.kinds.iter().map(|k| k.symbol.clone()).collect()
}

fn dedup(mut v: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    v.retain(|s| seen.insert(s.clone()));
    v
}

// ================================================================ drops

/// The kinds the mover may drop next with `hand` in hand, as the engine decides it for an order-chosen sowing.
fn drop_mask(engine: &Engine, mover: u8, sow: &Sow, hand: &[u32]) -> u64 {
    let mut mask = 0u64;
    let mut total = 0u32;
    for (k, &n) in hand.iter().enumerate() {
        if n > 0 {
            mask |= 1 << k;
            total += n;
        }
    }
    if sow.last_own {
        let own = player_mask(engine, mover);
        if total == 1 {
            mask &= own;
        } else {
            for (k, &n) in hand.iter().enumerate() {
                if own & (1 << k) != 0 && n == 1 && (own & mask).count_ones() == 1 {
                    mask &= !(1 << k);
                }
            }
        }
    }
    mask
}

/// The pieces lifted when sowing starts from `place`, per kind.
fn lifted(engine: &Engine, st: &State, place: PlaceId) -> Vec<u32> {
    let k = kinds(engine);
    (0..k)
        .map(|i| {
            st.counts.get(place as usize * k + i).copied().unwrap_or(0) as u32
                + st.hand.get(i).copied().unwrap_or(0) as u32
        })
        .collect()
}

/// Every piece of an order-chosen sowing (without relay) in order, from the chosen ones; `None` when the chosen
/// ones do not fit.
fn full_drops(engine: &Engine, mover: u8, sow: &Sow, mut hand: Vec<u32>, chosen: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut next = chosen.iter();
    loop {
        let mask = drop_mask(engine, mover, sow, &hand);
        let kind = match mask.count_ones() {
            0 => break,
            1 => mask.trailing_zeros() as u8,
            _ => *next.next()?,
        };
        let slot = hand.get_mut(kind as usize)?;
        if *slot == 0 || mask & (1 << kind) == 0 {
            return None;
        }
        *slot -= 1;
        out.push(kind);
    }
    next.next().is_none().then_some(out)
}

/// The chosen pieces from every piece of an order-chosen sowing, checking the forced ones.
fn chosen_drops(
    engine: &Engine,
    mover: u8,
    sow: &Sow,
    mut hand: Vec<u32>,
    full: &[u8],
) -> Result<Vec<u8>, NotationError> {
    let mut chosen = Vec::new();
    for (i, &kind) in full.iter().enumerate() {
        let mask = drop_mask(engine, mover, sow, &hand);
        let options: Vec<String> =
            (0..kinds(engine) as u8).filter(|k| mask & (1 << k) != 0).map(|k| symbol(engine, k).to_string()).collect();
        if mask & (1 << kind) == 0 {
            let what = if mask.count_ones() == 1 { "must be" } else { "can be" };
            return Err(NotationError::expecting(
                format!(
                    "piece {} cannot be {}: it {what} one of the pieces still in hand",
                    i + 1,
                    symbol(engine, kind)
                ),
                options,
            ));
        }
        if mask.count_ones() > 1 {
            chosen.push(kind);
        }
        if let Some(slot) = hand.get_mut(kind as usize) {
            *slot = slot.saturating_sub(1);
        }
    }
    Ok(chosen)
}

// ================================================================ printing plies

/// Prints one ply in notation. `before` is the state at the start of the ply, `moves` its decisions.
///
/// Moves that are not legal where they stand, or that come after the end of the ply, are printed in the
/// engine's debug form with a leading `?`, so that nothing is silently lost.
pub fn format_ply(engine: &Engine, before: &State, moves: &[Move]) -> String {
    let mut st = before.clone();
    let ply0 = st.ply;
    let mut word: Option<&str> = None;
    let mut start: Option<(u8, u8, PlaceId)> = None; // (action, mover, place)
    let mut lift: Vec<u32> = Vec::new();
    let mut places: Vec<PlaceId> = Vec::new();
    // Each chosen direction, and whether it was chosen right at the start (so it reads glued to the pit).
    let mut dirs: Vec<(Dir, bool)> = Vec::new();
    let mut chosen: Vec<u8> = Vec::new();
    let mut captures: Vec<(PlaceId, u8)> = Vec::new();
    let mut picks: Vec<PlaceId> = Vec::new();
    let mut extra: Vec<String> = Vec::new();
    // The optional captures made (`x`) or declined (`-x`), the capture pieces chosen after each, and the
    // word of the answer (the rule file's own, `may as "tuzdyk"`, or `x` and `-x`).
    let mut optional: Vec<(bool, usize, String)> = Vec::new();
    // The answers to optional relays (`relay` or `-relay`, or the rule file's words), in order.
    let mut relays: Vec<String> = Vec::new();
    // The opponent's answers made (`answer`) or declined (`-answer`), in order.
    let mut answers: Vec<bool> = Vec::new();
    let mut broken = false;
    for &mv in moves {
        if broken || st.ply != ply0 || st.result.is_some() {
            broken = true;
            extra.push(format!("?{mv:?}"));
            continue;
        }
        let stage = st.stage;
        let mover = st.to_move;
        let lap = st.lap;
        let lift_here = if let Move::Begin { place, .. } = mv { lifted(engine, &st, place) } else { Vec::new() };
        let answer = match mv {
            Move::Relay(yes) | Move::Capture(yes) => answer_words(engine, &st).map(|w| w.word(yes).to_string()),
            _ => None,
        };
        if engine.apply(&mut st, mv).is_err() {
            broken = true;
            extra.push(format!("?{mv:?}"));
            continue;
        }
        match (stage, mv) {
            (_, Move::Pass) => word = Some("pass"),
            (_, Move::Accept) => word = Some("accept"),
            (_, Move::Decline) => word = Some("decline"),
            (_, Move::Begin { action, place }) => {
                start = Some((action, mover, place));
                places.push(place);
                lift = lift_here;
            }
            (Stage::LapDirection { .. }, Move::Direction(d)) => dirs.push((d, lap == 1)),
            (_, Move::Direction(d)) => dirs.push((d, true)),
            (_, Move::Drop(k)) => chosen.push(k),
            (_, Move::Take { place, kind }) => captures.push((place, kind)),
            (Stage::Then { .. }, Move::Pick(p)) => picks.push(p),
            (_, Move::Pick(p)) => places.push(p),
            (_, Move::Stop) => {}
            (_, Move::Capture(make)) => optional.push((make, captures.len(), answer.unwrap_or_default())),
            (_, Move::Relay(_)) => relays.push(answer.unwrap_or_default()),
            (_, Move::Answer(made)) => answers.push(made),
        }
    }
    let mut tokens: Vec<String> = Vec::new();
    if let Some(w) = word {
        tokens.push(w.to_string());
    }
    if let Some((action, mover, _)) = start {
        if action != 0 {
            let name = engine.phase(before).actions.get(action as usize).map_or("?", |a| a.name.as_str());
            tokens.push(name.to_string());
        }
        let mut head: Vec<String> = places.iter().map(|&p| label(engine, p).to_string()).collect();
        let glued = matches!(dirs.first(), Some((_, true)));
        if let (true, Some(first)) = (glued, head.first_mut()) {
            first.push_str(dir_text(dirs[0].0));
        }
        let mut text = head.join(",");
        if let Some(sow) = sow_of(engine, before, action) {
            if sow.order_chosen && kinds(engine) > 1 {
                let full = if sow.relay.is_none() { full_drops(engine, mover, sow, lift, &chosen) } else { None };
                let drops = full.unwrap_or(chosen);
                if !drops.is_empty() {
                    text.push(':');
                    for k in drops {
                        text.push_str(symbol(engine, k));
                    }
                }
            }
        }
        tokens.push(text);
        // The directions chosen for later laps of a sowing with a direction per lap, in order.
        tokens.extend(dirs.iter().skip(glued as usize).map(|&(d, _)| dir_text(d).to_string()));
        tokens.extend(relays);
    }
    let piece = |&(p, k): &(PlaceId, u8)| format!("{}{}", label(engine, p), symbol(engine, k));
    let mut shown = 0;
    for (make, at, word) in &optional {
        let (make, at) = (*make, *at);
        if at > shown {
            tokens.push("x".to_string());
            tokens.extend(captures[shown..at].iter().map(piece));
            shown = at;
        }
        tokens.push(word.clone());
        if make {
            // The pieces this capture chose follow its `x`.
            let upto = optional.iter().find(|(_, a, _)| *a > at).map_or(captures.len(), |(_, a, _)| *a);
            tokens.extend(captures[at..upto].iter().map(piece));
            shown = upto;
        }
    }
    if captures.len() > shown {
        tokens.push("x".to_string());
        tokens.extend(captures[shown..].iter().map(piece));
    }
    // The opponent's answers came after the mover's captures declined, at the ends of laps.
    tokens.extend(answers.iter().map(|&made| if made { "answer" } else { "-answer" }.to_string()));
    if !picks.is_empty() {
        tokens.push("take".to_string());
        tokens.push(picks.iter().map(|&p| label(engine, p)).collect::<Vec<_>>().join(","));
    }
    tokens.extend(extra);
    tokens.join(" ")
}

// ================================================================ reading plies

/// The parts of a ply text, before they are checked against the position.
#[derive(Default)]
struct PlyText<'t> {
    action: Option<u8>,
    places: Vec<PlaceId>,
    dir: Option<Dir>,
    /// Directions after the first, for the later laps of a sowing with a direction per lap.
    lap_dirs: Vec<Dir>,
    drops: Option<&'t str>,
    captures: Vec<&'t str>,
    picks: Vec<PlaceId>,
    /// The answers to optional captures, in order: `x` makes one, `-x` declines it.
    optional: Vec<bool>,
    /// The answers to optional relays, in order: `relay` relays, `-relay` stops.
    relays: Vec<bool>,
    /// The opponent's answers in the middle of the move, in order: `answer` makes one, `-answer` declines it.
    answers: Vec<bool>,
    /// Stop at an answer the text leaves out, rather than ask for it (`parse_ply_until_answer`).
    until_answer: bool,
}

/// The first move of each legal ply from a start-of-ply state, in notation (`a`, `enter 4`, `pass`).
fn start_options(engine: &Engine, st: &State) -> Vec<String> {
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
            mode = Mode::None;
            ply.answers.push(!tok.starts_with('-'));
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
        } else {
            match mode {
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

fn not_a_place(engine: &Engine, text: &str) -> NotationError {
    let labels: Vec<&str> = engine.rules.places.iter().map(|p| p.label.as_str()).collect();
    let msg = format!("`{text}` is not a place on this board{}", did_you_mean(text, &labels));
    NotationError::expecting(msg, labels.iter().map(|s| s.to_string()).collect())
}

/// ` (did you mean `x`?)` for a longer word close to one of the candidates; nothing for short ones, where
/// every label is close.
fn did_you_mean(text: &str, candidates: &[&str]) -> String {
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
        if i == 0 {
            let lower = part.to_ascii_lowercase();
            let mut found = None;
            for (suffix, d) in [("ccw", Dir::Ccw), ("cw", Dir::Cw)] {
                if lower.ends_with(suffix) {
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

/// How many branches the search over the order of capture tokens may try before it gives up: each capture
/// token is tried at each capture, so a few tokens make a small tree.
const CAPTURE_SEARCH_BUDGET: u32 = 10_000;

/// What a ply text says, checked against one replay: the parts fixed before the replay starts.
struct Plan<'e, 't> {
    engine: &'e Engine,
    /// The start of the ply.
    state: &'t State,
    /// The place the ply starts at, and the sowing it starts, if it is one.
    place: PlaceId,
    sow: Option<&'e Sow>,
    dir: Option<Dir>,
    drops_given: bool,
    /// Branches the capture search may still try.
    budget: std::cell::Cell<u32>,
    /// Stop at an answer the text leaves out.
    until_answer: bool,
}

/// A ply being replayed: the state, the decisions so far, and what of the text is still to be used.
#[derive(Clone)]
struct Replay<'e> {
    engine: &'e Engine,
    st: State,
    moves: Vec<Move>,
    /// The drops the mover chose, in order.
    chosen: std::collections::VecDeque<u8>,
    /// Further places of the selection (`put`, `offer`), in board order.
    selection: std::collections::VecDeque<PlaceId>,
    /// The pits for `then may take`, in board order.
    then_picks: std::collections::VecDeque<PlaceId>,
    /// The capture tokens not used yet (`D5` is left of `D55` after one piece).
    captures: Vec<String>,
    dir_used: bool,
    /// The directions for the laps of a sowing with a direction per lap, in order.
    lap_dirs: std::collections::VecDeque<Dir>,
    /// The answers to optional captures not used yet.
    optional: std::collections::VecDeque<bool>,
    /// The answers to optional relays not used yet.
    relays: std::collections::VecDeque<bool>,
    /// The opponent's answers not used yet.
    answers: std::collections::VecDeque<bool>,
}

impl Replay<'_> {
    fn legal(&self) -> Vec<Move> {
        legal(self.engine, &self.st)
    }

    fn apply(&mut self, mv: Move) {
        self.engine.apply_unchecked(&mut self.st, mv);
        self.moves.push(mv);
    }
}

fn replay(engine: &Engine, state: &State, mut ply: PlyText<'_>) -> Result<Vec<Move>, NotationError> {
    let action = ply.action.unwrap_or(0);
    // A selection is a set (or, for `put`, a multiset): the engine takes it in board order.
    ply.places.sort_unstable();
    let Some(&place) = ply.places.first() else {
        return Err(NotationError::expecting("no place given", start_options(engine, state)));
    };
    let mover = state.to_move;
    let start_legal = legal(engine, state);
    // An action left out is the phase's first, or, where the first can start nowhere (Bao's entries when no
    // capture can be made), the only one that can start at the place.
    let first_starts = start_legal.iter().any(|m| matches!(m, Move::Begin { action: a, .. } if *a == action));
    let action = match ply.action {
        None if !first_starts => {
            let here: Vec<u8> = start_legal
                .iter()
                .filter_map(|m| match m {
                    Move::Begin { action, place: p } if *p == place => Some(*action),
                    _ => None,
                })
                .collect();
            if let [only] = here[..] {
                only
            } else {
                action
            }
        }
        _ => action,
    };
    let begin = Move::Begin { action, place };
    if !start_legal.contains(&begin) {
        return Err(begin_error(engine, state, action, place, &start_legal));
    }
    let sow = sow_of(engine, state, action);
    // In a sowing with a direction per lap, every direction written is a lap's, the first one included.
    let per_lap = sow.is_some_and(|s| matches!(s.dir, DirRule::PerLap(_)));
    let mut lap_dirs: std::collections::VecDeque<Dir> = Default::default();
    if per_lap {
        lap_dirs.extend(ply.dir.take());
        lap_dirs.extend(ply.lap_dirs.drain(..));
    } else if !ply.lap_dirs.is_empty() {
        return Err(NotationError::new(format!(
            "`{}`: this action has at most one direction to choose",
            dir_text(ply.lap_dirs[0])
        )));
    }
    // The drops the mover chose, in order, from every piece or the chosen ones.
    let mut chosen: std::collections::VecDeque<u8> = Default::default();
    if let Some(text) = ply.drops {
        let Some(sow) = sow.filter(|s| s.order_chosen && kinds(engine) > 1) else {
            return Err(NotationError::new(format!(
                "`:{text}`: the order of the pieces is not chosen in this {}",
                if sow.is_some() { "sowing" } else { "action" }
            )));
        };
        let Some(kinds_given) = symbol_run(engine, text) else {
            return Err(NotationError::expecting(
                format!("`{text}` is not a run of piece symbols"),
                all_symbols(engine),
            ));
        };
        let hand = lifted(engine, state, place);
        let total: u32 = hand.iter().sum();
        if sow.relay.is_none() && kinds_given.len() as u32 == total {
            chosen.extend(chosen_drops(engine, mover, sow, hand, &kinds_given)?);
        } else {
            chosen.extend(kinds_given);
        }
    }
    ply.picks.sort_unstable();
    let mut r = Replay {
        engine,
        st: state.clone(),
        moves: Vec::new(),
        chosen,
        selection: ply.places[1..].iter().copied().collect(),
        then_picks: ply.picks.iter().copied().collect(),
        captures: ply.captures.iter().map(|s| s.to_string()).collect(),
        dir_used: false,
        lap_dirs,
        optional: ply.optional.iter().copied().collect(),
        relays: ply.relays.iter().copied().collect(),
        answers: ply.answers.iter().copied().collect(),
    };
    let plan = Plan {
        engine,
        state,
        place,
        sow,
        dir: ply.dir,
        drops_given: ply.drops.is_some(),
        budget: std::cell::Cell::new(CAPTURE_SEARCH_BUDGET),
        until_answer: ply.until_answer,
    };
    r.apply(begin);
    plan.run(r)
}

impl<'e> Plan<'e, '_> {
    /// Replays the rest of the ply from `r`, then checks that everything written was used. Where several
    /// capture tokens fit a capture, each is tried in turn: the pieces of a capture are a set, written in any
    /// order, and the engine takes them in one order only.
    fn run(&self, mut r: Replay<'e>) -> Result<Vec<Move>, NotationError> {
        let engine = self.engine;
        let ply0 = self.state.ply;
        while r.st.ply == ply0 && r.st.result.is_none() {
            let options = r.legal();
            let here = label(engine, self.place).to_string();
            match r.st.stage {
                Stage::Start | Stage::Respond => break,
                Stage::Direction { .. } => {
                    let opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| {
                            if let Move::Direction(d) = m {
                                Some(format!("{here}{}", dir_text(*d)))
                            } else {
                                None
                            }
                        })
                        .collect();
                    let Some(d) = self.dir else {
                        return Err(
                            NotationError::expecting(format!("choose a direction for {here}"), opts).ran_out(&r)
                        );
                    };
                    if !options.contains(&Move::Direction(d)) {
                        return Err(NotationError::expecting(
                            format!("sowing {here} {} is not allowed", dir_text(d)),
                            opts,
                        ));
                    }
                    r.dir_used = true;
                    r.apply(Move::Direction(d));
                }
                Stage::LapDirection { .. } => {
                    let from = label(engine, r.st.origin).to_string();
                    let opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| if let Move::Direction(d) = m { Some(dir_text(*d).to_string()) } else { None })
                        .collect();
                    let Some(d) = r.lap_dirs.pop_front() else {
                        return Err(NotationError::expecting(
                            format!("choose a direction for the lap from {from}"),
                            opts,
                        )
                        .ran_out(&r));
                    };
                    if !options.contains(&Move::Direction(d)) {
                        return Err(NotationError::expecting(
                            format!("the lap from {from} cannot go {}", dir_text(d)),
                            opts,
                        ));
                    }
                    r.apply(Move::Direction(d));
                }
                Stage::Drop { .. } => {
                    let opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| if let Move::Drop(k) = m { Some(symbol(engine, *k).to_string()) } else { None })
                        .collect();
                    let Some(k) = r.chosen.pop_front() else {
                        let done = r.moves.iter().filter(|m| matches!(m, Move::Drop(_))).count();
                        let msg = if self.drops_given {
                            "more piece symbols are needed after the colon".to_string()
                        } else {
                            format!(
                                "the order of the pieces must be given, e.g. `{here}{}:...`",
                                self.dir.map_or("", dir_text)
                            )
                        };
                        let error = NotationError::expecting(format!("{msg} (choice {})", done + 1), opts);
                        return Err(if self.drops_given { error } else { error.ran_out(&r) });
                    };
                    if !options.contains(&Move::Drop(k)) {
                        return Err(NotationError::expecting(
                            format!("a piece {} cannot be dropped next", symbol(engine, k)),
                            opts,
                        ));
                    }
                    r.apply(Move::Drop(k));
                }
                Stage::Take { .. } => {
                    let opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| match m {
                            Move::Take { place, kind } => {
                                Some(format!("x {}{}", label(engine, *place), symbol(engine, *kind)))
                            }
                            _ => None,
                        })
                        .collect();
                    if r.captures.is_empty() {
                        return Err(NotationError::expecting("a capture must be chosen", opts).ran_out(&r));
                    }
                    let mut fits = capture_fits(engine, &r.captures, &options)?;
                    if fits.len() > 1 {
                        return self.search(r, fits);
                    }
                    let Some(fit) = fits.pop() else {
                        return Err(NotationError::expecting(
                            format!("`{}` cannot be taken here", r.captures[0]),
                            opts,
                        ));
                    };
                    take_capture(&mut r, fit);
                }
                Stage::Relay { .. } => {
                    let at = label(engine, r.st.last).to_string();
                    let words = answer_words(engine, &r.st).unwrap_or_default();
                    let opts =
                        vec![format!("{} (sow on from {at})", words.yes), format!("{} (stop in {at})", words.no)];
                    let Some(go) = r.relays.pop_front() else {
                        return Err(
                            NotationError::expecting(format!("say whether to relay from {at}"), opts).ran_out(&r)
                        );
                    };
                    r.apply(Move::Relay(go));
                }
                Stage::Answer { .. } => {
                    let at = label(engine, r.st.last).to_string();
                    let opts = vec![
                        format!("answer (the opponent answers at {at})"),
                        format!("-answer (the opponent lets it be)"),
                    ];
                    if r.answers.is_empty() && self.until_answer {
                        break;
                    }
                    let Some(made) = r.answers.pop_front() else {
                        return Err(NotationError::expecting(
                            format!("say whether the opponent answers at {at}"),
                            opts,
                        ));
                    };
                    r.apply(Move::Answer(made));
                }
                Stage::Capture { .. } => {
                    let words = answer_words(engine, &r.st).unwrap_or_default();
                    let opts = vec![
                        format!("{here} {} (capture)", words.yes),
                        format!("{here} {} (do not capture)", words.no),
                    ];
                    let Some(make) = r.optional.pop_front() else {
                        return Err(NotationError::expecting("say whether the capture is made", opts).ran_out(&r));
                    };
                    r.apply(Move::Capture(make));
                }
                Stage::Then { .. } => match r.then_picks.pop_front() {
                    Some(p) => {
                        if !options.contains(&Move::Pick(p)) {
                            let opts = options
                                .iter()
                                .filter_map(|m| {
                                    if let Move::Pick(q) = m {
                                        Some(format!("take {}", label(engine, *q)))
                                    } else {
                                        None
                                    }
                                })
                                .collect();
                            let why = if place_count(engine, &r.st, p) == 0 { " (it is empty)" } else { "" };
                            return Err(NotationError::expecting(
                                format!("pit {} cannot be taken{why}", label(engine, p)),
                                opts,
                            ));
                        }
                        r.apply(Move::Pick(p));
                    }
                    None => r.apply(Move::Stop),
                },
                Stage::Put { .. } | Stage::Offer { .. } => {
                    let opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| if let Move::Pick(q) = m { Some(label(engine, *q).to_string()) } else { None })
                        .collect();
                    match r.selection.pop_front() {
                        Some(p) => {
                            if !options.contains(&Move::Pick(p)) {
                                return Err(NotationError::expecting(
                                    format!("{} cannot be added to the selection", label(engine, p)),
                                    opts,
                                ));
                            }
                            r.apply(Move::Pick(p));
                        }
                        None => {
                            if !options.contains(&Move::Stop) {
                                return Err(NotationError::expecting("more places must be chosen", opts).ran_out(&r));
                            }
                            r.apply(Move::Stop);
                        }
                    }
                }
            }
        }
        self.all_used(&r)?;
        Ok(r.moves)
    }

    /// Tries each capture token that fits the capture at hand, in the order written; the first reading that
    /// replays the whole ply wins, else the error of the first.
    fn search(&self, r: Replay<'e>, fits: Vec<Fit>) -> Result<Vec<Move>, NotationError> {
        let mut first_error = None;
        for fit in fits {
            let left = self.budget.get();
            if left == 0 {
                break;
            }
            self.budget.set(left - 1);
            let mut branch = r.clone();
            take_capture(&mut branch, fit);
            match self.run(branch) {
                Ok(moves) => return Ok(moves),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        Err(first_error.unwrap_or_else(|| NotationError::new("the captures cannot be read in any order")))
    }

    /// Everything written must have been used: the direction, the drops, the selection, the picks, and the
    /// captures (beyond the chosen ones, only pieces the ply took without asking may be written).
    fn all_used(&self, r: &Replay<'e>) -> Result<(), NotationError> {
        let engine = self.engine;
        if let Some(d) = self.dir.filter(|_| !r.dir_used) {
            match self.sow.map(|s| s.dir) {
                Some(DirRule::Fixed(fixed)) if fixed == d => {}
                Some(DirRule::Fixed(fixed)) => {
                    return Err(NotationError::new(format!(
                        "the direction of this sowing is fixed: {}",
                        dir_text(fixed)
                    )))
                }
                _ => {
                    return Err(NotationError::new(format!(
                        "`{}`: this action has no direction to choose",
                        dir_text(d)
                    )))
                }
            }
        }
        if let Some(&d) = r.lap_dirs.front() {
            return Err(NotationError::new(format!(
                "unexpected `{}`: no (more) lap has a direction to choose",
                dir_text(d)
            )));
        }
        if let Some(&go) = r.relays.front() {
            let word = if go { "to relay" } else { "to stop" };
            return Err(NotationError::new(format!(
                "unexpected answer ({word}): no (more) relay is for the mover to choose"
            )));
        }
        if let Some(&made) = r.answers.front() {
            let word = if made { "answer" } else { "-answer" };
            return Err(NotationError::new(format!("unexpected `{word}`: the opponent has no (more) answer to give")));
        }
        if !r.chosen.is_empty() {
            return Err(NotationError::new(format!(
                "too many piece symbols: `{}` left over",
                r.chosen.iter().map(|&k| symbol(engine, k)).collect::<String>()
            )));
        }
        if !r.captures.is_empty() {
            self.forced_captures(r)?;
        }
        if let Some(&p) = r.then_picks.front() {
            return Err(NotationError::new(format!(
                "unexpected `take {}`: no (more) pits can be taken",
                label(engine, p)
            )));
        }
        if let Some(&p) = r.selection.front() {
            return Err(NotationError::new(format!("unexpected `{}`: no more places can be chosen", label(engine, p))));
        }
        Ok(())
    }

    /// Checks that the capture tokens left over name pieces the ply captured without a choice (a take of a
    /// single piece, which the engine makes without asking): Freeling's notation lists them too.
    fn forced_captures(&self, r: &Replay<'e>) -> Result<(), NotationError> {
        let engine = self.engine;
        let unexpected = |tok: &str| {
            NotationError::new(format!("unexpected capture `x {tok}`: nothing (more) is captured by choice"))
        };
        let mut taken = self.taken_without_asking(r);
        for tok in &r.captures {
            if !take_pieces(engine, tok, &mut taken) {
                return Err(unexpected(tok));
            }
        }
        Ok(())
    }

    /// The pieces the ply took off each place other than by a chosen take, per place and kind: what each place
    /// lost between the end of the sowing and the end of the ply, less the chosen takes.
    fn taken_without_asking(&self, r: &Replay<'e>) -> Vec<u32> {
        let sown = self.after_sowing(r);
        let mut taken: Vec<u32> =
            sown.iter().zip(&r.st.counts).map(|(&a, &b)| u32::from(a).saturating_sub(u32::from(b))).collect();
        let k = kinds(self.engine);
        for mv in &r.moves {
            if let Move::Take { place, kind } = *mv {
                if let Some(n) = taken.get_mut(place as usize * k + kind as usize) {
                    *n = n.saturating_sub(1);
                }
            }
        }
        taken
    }

    /// The counts once the sowing is over and before any capture: the sowing's decisions replayed by an engine
    /// made of the same rules (as lowered, before the engine's own rewriting) without captures.
    fn after_sowing(&self, r: &Replay<'e>) -> Vec<u8> {
        let mut rules = self.engine.lowered.clone();
        for phase in &mut rules.phases {
            for action in &mut phase.actions {
                if let ActionKind::Sow(sow) = &mut action.kind {
                    sow.captures.clear();
                }
            }
        }
        let sowing = Engine::new(rules);
        let mut st = self.state.clone();
        for &mv in &r.moves {
            if !matches!(mv, Move::Begin { .. } | Move::Direction(_) | Move::Drop(_)) || st.ply != self.state.ply {
                break;
            }
            sowing.apply_unchecked(&mut st, mv);
        }
        st.counts
    }
}

/// The capture tokens that fit a legal take here: the token's index, the take, and what is left of the token
/// (`D5` of `D55`). Tokens that read alike are one reading.
fn capture_fits(engine: &Engine, captures: &[String], options: &[Move]) -> Result<Vec<Fit>, NotationError> {
    let mut fits: Vec<Fit> = Vec::new();
    for (i, tok) in captures.iter().enumerate() {
        if let Some((mv, rest)) = resolve_capture(engine, tok, options)? {
            if !fits.iter().any(|(j, m, r)| *m == mv && *r == rest && captures[*j] == *tok) {
                fits.push((i, mv, rest));
            }
        }
    }
    Ok(fits)
}

/// One reading of a capture token: its index, the take, and what is left of the token.
type Fit = (usize, Move, Option<String>);

/// Takes the piece of one fitting capture token: a token such as `D55` stands for several pieces; one is
/// taken, `D5` stays.
fn take_capture(r: &mut Replay<'_>, (i, mv, rest): Fit) {
    match rest {
        Some(rest) => r.captures[i] = rest,
        None => {
            r.captures.remove(i);
        }
    }
    r.apply(mv);
}

/// Removes the pieces a capture token names (`E55`, `cup(2)3`, or a bare `3` for a place off the board) from
/// `taken` (per place and kind); false when they are not all there.
fn take_pieces(engine: &Engine, tok: &str, taken: &mut [u32]) -> bool {
    let k = kinds(engine);
    let try_take = |place: PlaceId, ks: &[u8], taken: &mut [u32]| {
        let mut need = vec![0u32; k];
        for &kind in ks {
            need[kind as usize] += 1;
        }
        let base = place as usize * k;
        let fits = need.iter().enumerate().all(|(kind, &n)| taken.get(base + kind).is_some_and(|&t| t >= n));
        if fits {
            for (kind, &n) in need.iter().enumerate() {
                taken[base + kind] -= n;
            }
        }
        fits
    };
    for (p, rest) in label_prefixes(engine, tok) {
        if let Some(ks) = symbol_run(engine, rest).filter(|ks| !ks.is_empty()) {
            if try_take(p, &ks, taken) {
                return true;
            }
        }
    }
    if let Some(ks) = symbol_run(engine, tok) {
        let off_board = engine.rules.places.iter().enumerate().filter(|(_, info)| !info.is_pit);
        for (p, _) in off_board {
            if try_take(p as PlaceId, &ks, taken) {
                return true;
            }
        }
    }
    false
}

/// Resolves a capture token (`B5`, `cup(2)3`, `D55`, `B`, `3`) to a legal take, if one fits, with what is left
/// of the token (`D5` after one piece of `D55`).
fn resolve_capture(
    engine: &Engine,
    tok: &str,
    options: &[Move],
) -> Result<Option<(Move, Option<String>)>, NotationError> {
    let takes: Vec<(PlaceId, u8)> = options
        .iter()
        .filter_map(|m| if let Move::Take { place, kind } = m { Some((*place, *kind)) } else { None })
        .collect();
    let mut any_reading = false;
    for (p, rest) in label_prefixes(engine, tok) {
        if rest.is_empty() {
            any_reading = true;
            let at: Vec<&(PlaceId, u8)> = takes.iter().filter(|(q, _)| *q == p).collect();
            if let [&(_, k)] = at.as_slice() {
                return Ok(Some((Move::Take { place: p, kind: k }, None)));
            }
            continue;
        }
        if let Some(ks) = symbol_run(engine, rest) {
            any_reading = true;
            if let Some(&k) = ks.first() {
                if takes.contains(&(p, k)) {
                    let left =
                        (ks.len() > 1).then(|| format!("{}{}", label(engine, p), &rest[symbol(engine, k).len()..]));
                    return Ok(Some((Move::Take { place: p, kind: k }, left)));
                }
            }
        }
    }
    if let Some(ks) = symbol_run(engine, tok) {
        any_reading = true;
        if let [k] = ks.as_slice() {
            let off_board = takes.iter().find(|(p, kind)| kind == k && !engine.rules.places[*p as usize].is_pit);
            if let Some(&(p, k)) = off_board {
                return Ok(Some((Move::Take { place: p, kind: k }, None)));
            }
        }
    }
    if !any_reading {
        return Err(NotationError::expecting(
            format!("`{tok}` is not a capture: write a place and a piece symbol"),
            takes.iter().map(|&(p, k)| format!("x {}{}", label(engine, p), symbol(engine, k))).collect(),
        ));
    }
    Ok(None)
}

fn begin_error(engine: &Engine, st: &State, action: u8, place: PlaceId, legal: &[Move]) -> NotationError {
    let options = start_options(engine, st);
    let phase = engine.phase(st);
    let Some(act) = phase.actions.get(action as usize) else {
        return NotationError::expecting("no such action", options);
    };
    let l = label(engine, place);
    let info = &engine.rules.places[place as usize];
    let mut msg = match &act.kind {
        ActionKind::Sow(_) if !info.is_pit => format!("{l} is not a pit"),
        ActionKind::Sow(_) if place_count(engine, st, place) == 0 => format!("pit {l} is empty"),
        ActionKind::Sow(_) | ActionKind::Offer(_)
            if st.owner.get(place as usize).is_some_and(|&o| o != NO_PLAYER && o != st.to_move) =>
        {
            let owner = st.owner[place as usize];
            format!("pit {l} belongs to player {}", owner as u32 + 1)
        }
        ActionKind::Sow(_) => format!("you cannot sow from {l} here"),
        ActionKind::Put(_) => format!("you cannot {} into {l} here", act.name),
        ActionKind::Take(_) => format!("you cannot {} from {l} here", act.name),
        ActionKind::Offer(_) => format!("you cannot {} {l} here", act.name),
    };
    let others: Vec<String> = legal
        .iter()
        .filter_map(|m| match m {
            Move::Begin { action: a, place: p } if *p == place && *a != action => {
                phase.actions.get(*a as usize).map(|x| if *a == 0 { l.to_string() } else { format!("{} {l}", x.name) })
            }
            _ => None,
        })
        .collect();
    if let Some(o) = others.first() {
        msg.push_str(&format!(" (did you mean `{o}`?)"));
    }
    NotationError::expecting(msg, options)
}

// ================================================================ enumerating plies

/// The most decisions [`enumerate_plies`] tries before it stops: a rule file can make the plies from one
/// position astronomically many (twenty puts over fifteen pits) or make every path a dead end, and a listing
/// must come back at once.
pub const ENUMERATION_BUDGET: u32 = 200_000;

/// The plies [`enumerate_plies`] found.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plies {
    pub plies: Vec<Vec<Move>>,
    /// The search spent its [`ENUMERATION_BUDGET`] before it had seen every ply: there may be others, and
    /// the list may be empty although plies exist. (Stopping at `limit` plies found is not partial: the
    /// caller asked for no more.)
    pub partial: bool,
}

/// Complete legal plies from `state` (normally a start-of-ply state; from the middle of a ply, the rest of
/// it), depth-first over the decisions in the engine's order: at most `limit` of them, and at most
/// [`ENUMERATION_BUDGET`] decisions tried.
pub fn enumerate_plies(engine: &Engine, state: &State, limit: usize) -> Plies {
    struct Search<'e> {
        engine: &'e Engine,
        ply0: u32,
        limit: usize,
        budget: u32,
        path: Vec<Move>,
        found: Plies,
    }
    impl Search<'_> {
        fn dfs(&mut self, st: &State) {
            for mv in legal(self.engine, st) {
                if self.found.plies.len() >= self.limit {
                    return;
                }
                if self.budget == 0 {
                    self.found.partial = true;
                    return;
                }
                self.budget -= 1;
                let mut next = st.clone();
                self.engine.apply_unchecked(&mut next, mv);
                if next.illegal {
                    continue;
                }
                self.path.push(mv);
                if next.ply != self.ply0 || next.result.is_some() {
                    self.found.plies.push(self.path.clone());
                } else {
                    self.dfs(&next);
                }
                self.path.pop();
            }
        }
    }
    let mut search = Search {
        engine,
        ply0: state.ply,
        limit,
        budget: ENUMERATION_BUDGET,
        path: Vec::new(),
        found: Plies::default(),
    };
    if state.result.is_none() && limit > 0 {
        search.dfs(state);
    }
    search.found
}

// ================================================================ positions

/// Prints a position in the position format (see the module docs).
pub fn format_position(engine: &Engine, st: &State) -> String {
    let rules = &engine.rules;
    let k = kinds(engine);
    let mut out: Vec<String> = Vec::new();
    for (p, info) in rules.places.iter().enumerate() {
        let counts: Vec<u32> = (0..k).map(|i| st.counts.get(p * k + i).copied().unwrap_or(0) as u32).collect();
        let total: u32 = counts.iter().sum();
        if total == 0 && !info.is_pit && !info.on_track {
            continue;
        }
        out.push(place_entry(engine, info, &counts));
    }
    for (p, &owner) in st.owner.iter().enumerate() {
        if rules.initial_owner.get(p) != Some(&owner) {
            let who = if owner == NO_PLAYER { "-".to_string() } else { (owner as u32 + 1).to_string() };
            out.push(format!("owner({})={who}", label(engine, p as PlaceId)));
        }
    }
    out.extend(mark_entries(engine, st));
    out.push(format!("to_move={}", st.to_move as u32 + 1));
    if rules.rounds.is_some() {
        out.push(format!("round={}", st.round));
        out.push(format!("starter={}", st.round_starter as u32 + 1));
    }
    if rules.phases.len() > 1 {
        let name =
            rules.phases.get(st.phase as usize).map_or_else(|| (st.phase as u32 + 1).to_string(), |ph| ph.name.clone());
        out.push(format!("phase={name}"));
    }
    if st.eliminated != 0 {
        let list: Vec<String> = (0..8).filter(|p| st.eliminated & (1 << p) != 0).map(|p| (p + 1).to_string()).collect();
        out.push(format!("eliminated={}", list.join(",")));
    }
    let players = rules.players as usize;
    if rules.needs.moves && st.plies_made[..players.min(8)].iter().any(|&n| n > 0) {
        let list: Vec<String> = st.plies_made[..players.min(8)].iter().map(|n| n.to_string()).collect();
        out.push(format!("moves={}", list.join(",")));
    }
    if st.stage == Stage::Respond && st.offered != 0 {
        let list: Vec<&str> = pits_of(st.offered).map(|p| label(engine, p)).collect();
        out.push(format!("offered={}", list.join(",")));
    }
    out.join(" ")
}

/// The marks of a position: `tuzdyk(1)=C` (player 1's tuzdyk is pit C), `burnt=a,F`; none when no pit
/// carries the mark.
fn mark_entries(engine: &Engine, st: &State) -> Vec<String> {
    let rules = &engine.rules;
    let n = rules.n_pits;
    let mut out = Vec::new();
    for (m, info) in rules.marks.iter().enumerate() {
        let cells = st.marks.get(m * n..(m + 1) * n).unwrap_or(&[]);
        let holders: Vec<u8> = if info.per_player { (1..=rules.players).collect() } else { vec![1] };
        for cell in holders {
            // A mark `for N plies` says how many plies each pit has it for still: `blocked(2)=C/2`.
            let pits: Vec<String> = (0..n)
                .filter(|&p| cells.get(p) == Some(&cell))
                .map(|p| match engine.mark_plies_left(st, m as crate::ir::MarkId, p as PlaceId) {
                    Some(left) => format!("{}/{left}", label(engine, p as PlaceId)),
                    None => label(engine, p as PlaceId).to_string(),
                })
                .collect();
            if pits.is_empty() {
                continue;
            }
            let key = if info.per_player { format!("{}({cell})", info.name) } else { info.name.clone() };
            out.push(format!("{key}={}", pits.join(",")));
        }
    }
    out
}

/// Reads a mark entry (`tuzdyk(1)=C`, `burnt=a,F`) into the state, if `key` names a mark.
fn read_mark_entry(engine: &Engine, st: &mut State, key: &str, value: &str) -> Option<Result<(), NotationError>> {
    let rules = &engine.rules;
    let (name, player) = match key.split_once('(') {
        Some((name, rest)) => (name, Some(rest.strip_suffix(')').unwrap_or(rest))),
        None => (key, None),
    };
    let m = rules.marks.iter().position(|info| info.name == name)?;
    let info = &rules.marks[m];
    let cell = match (info.per_player, player) {
        (true, Some(v)) => match parse_player(engine, v, key) {
            Ok(p) => p + 1,
            Err(e) => return Some(Err(e)),
        },
        (false, None) => 1,
        (true, None) => {
            return Some(Err(NotationError::new(format!("`{name}` is a mark for a player: write `{name}(1)=PITS`"))))
        }
        (false, Some(_)) => {
            return Some(Err(NotationError::new(format!("`{name}` is not a mark for a player: write `{name}=PITS`"))))
        }
    };
    for entry in value.split(',').filter(|s| !s.is_empty() && *s != "-") {
        // `I3/2`: a mark `for N plies` with the plies it has left; without, as the ply just played made it.
        let (l, left) = match entry.split_once('/') {
            Some((l, left)) if info.plies > 0 => match left.parse::<u32>() {
                Ok(left) if left >= 1 && left < info.plies => (l, left),
                _ => {
                    return Some(Err(NotationError::new(format!(
                        "`{entry}`: a mark for {} plies has 1 to {} plies left",
                        info.plies,
                        info.plies - 1
                    ))))
                }
            },
            Some(_) => {
                return Some(Err(NotationError::new(format!(
                    "`{entry}`: the mark `{name}` lasts, so it has no plies left to write"
                ))))
            }
            None => (entry, info.plies.saturating_sub(1)),
        };
        match find_label(engine, l) {
            Some(p) if (p as usize) < rules.n_pits => {
                st.marks[m * rules.n_pits + p as usize] = cell;
                if info.plies > 0 {
                    engine.set_mark_plies_left(st, m as crate::ir::MarkId, p, left);
                }
            }
            Some(_) => return Some(Err(NotationError::new(format!("only pits carry marks, and {l} is not a pit")))),
            None => return Some(Err(not_a_place(engine, l))),
        }
    }
    Some(Ok(()))
}

fn place_entry(engine: &Engine, info: &crate::ir::PlaceInfo, counts: &[u32]) -> String {
    let label = info.label.as_str();
    if counts.len() == 1 {
        let glue = info.is_pit && label.chars().last().is_some_and(|c| c.is_alphabetic());
        return if glue { format!("{label}{}", counts[0]) } else { format!("{label}={}", counts[0]) };
    }
    let items: Vec<String> = counts
        .iter()
        .enumerate()
        .filter(|(_, &n)| n > 0)
        .map(|(k, &n)| {
            let s = symbol(engine, k as u8);
            match n {
                1 => s.to_string(),
                2 => format!("{s}{s}"),
                _ => format!("{s}*{n}"),
            }
        })
        .collect();
    if items.is_empty() {
        return format!("{label}=-");
    }
    let simple =
        engine.rules.kinds.iter().all(|k| k.symbol.chars().count() == 1) && items.iter().all(|i| !i.contains('*'));
    format!("{label}={}", items.join(if simple { "" } else { " " }))
}

/// Reads contents: a number (one kind of piece), `-`, or kind symbols with optional `*N` repeats.
fn parse_contents(engine: &Engine, text: &str) -> Option<Vec<u32>> {
    let k = kinds(engine);
    let mut counts = vec![0u32; k];
    if text == "-" || text.is_empty() {
        return Some(counts);
    }
    if k == 1 && text.bytes().all(|b| b.is_ascii_digit()) {
        counts[0] = text.parse().ok()?;
        return Some(counts);
    }
    for (kind, n) in split_symbols(engine, text, true)? {
        let slot = counts.get_mut(kind as usize)?;
        *slot = slot.checked_add(n)?;
    }
    Some(counts)
}

fn parse_player(engine: &Engine, text: &str, what: &str) -> Result<u8, NotationError> {
    let n = engine.rules.players as u32;
    match text.parse::<u32>() {
        Ok(v) if (1..=n).contains(&v) => Ok((v - 1) as u8),
        _ => Err(NotationError::expecting(
            format!("`{text}` is not a player for {what}: players are numbered 1 to {n}"),
            (1..=n).map(|p| p.to_string()).collect(),
        )),
    }
}

/// Reads a position (see the module docs), or a state's JSON when the text starts with `{`.
pub fn parse_position(engine: &Engine, text: &str) -> Result<State, NotationError> {
    let text = text.trim();
    if text.starts_with('{') {
        return parse_json(engine, text);
    }
    let mut st = read_position(engine, text)?;
    engine.refresh(&mut st);
    Ok(st)
}

/// A position as written (not JSON), before the checks of a turn's start that [`parse_position`] makes
/// ([`Engine::refresh`]: the end rules, the obligation, whether the player to move can move): what another
/// reading of the rules (the differential tests' reference) starts from.
pub fn read_position(engine: &Engine, text: &str) -> Result<State, NotationError> {
    let text = text.trim();
    let rules = &engine.rules;
    let k = kinds(engine);
    let mut st = engine.setup_state();
    st.counts.iter_mut().for_each(|c| *c = 0);
    // Pits not written carry no mark, whatever the setup marks.
    st.marks.fill(UNMARKED);
    let mut counts: Vec<u32> = vec![0; rules.places.len() * k];
    let mut given: Vec<bool> = vec![false; rules.places.len()];
    let mut last_place: Option<usize> = None;
    let mut phase_given = false;
    let mut starter: Option<u8> = None;
    let mut offered: Option<PitSet> = None;
    for tok in text.split_whitespace() {
        let key_value = tok.split_once('=');
        if let Some((key, value)) = key_value {
            let lower = key.to_ascii_lowercase();
            match lower.as_str() {
                "to_move" | "turn" => {
                    st.to_move = parse_player(engine, value, "to_move")?;
                    last_place = None;
                    continue;
                }
                "phase" => {
                    let by_name = rules.phases.iter().position(|ph| ph.name.eq_ignore_ascii_case(value));
                    let by_number =
                        value.parse::<usize>().ok().filter(|&n| (1..=rules.phases.len()).contains(&n)).map(|n| n - 1);
                    let Some(ph) = by_name.or(by_number) else {
                        return Err(NotationError::expecting(
                            format!("`{value}` is not a phase of this game"),
                            rules.phases.iter().map(|ph| ph.name.clone()).collect(),
                        ));
                    };
                    st.phase = ph as u8;
                    phase_given = true;
                    last_place = None;
                    continue;
                }
                "round" | "starter" if rules.rounds.is_some() => {
                    if lower == "starter" {
                        starter = Some(parse_player(engine, value, "starter")?);
                    } else {
                        st.round = value.parse::<u16>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                            NotationError::new(format!("`round={value}`: a round is numbered from 1"))
                        })?;
                    }
                    last_place = None;
                    continue;
                }
                "moves" => {
                    st.plies_made = [0; 8];
                    let counts: Vec<&str> = value.split(',').collect();
                    if counts.len() != rules.players as usize {
                        return Err(NotationError::new(format!(
                            "`moves={value}`: give the plies made by each of the {} players, such as `moves=3,2`",
                            rules.players
                        )));
                    }
                    for (slot, n) in st.plies_made.iter_mut().zip(counts) {
                        *slot = n.parse::<u16>().map_err(|_| {
                            NotationError::new(format!("`{n}` in `moves={value}` is not a number of plies"))
                        })?;
                    }
                    last_place = None;
                    continue;
                }
                "eliminated" => {
                    st.eliminated = 0;
                    if value != "-" && !value.is_empty() {
                        for v in value.split(',') {
                            let p = parse_player(engine, v, "eliminated")?;
                            st.eliminated |= 1u8.checked_shl(p as u32).unwrap_or(0);
                        }
                    }
                    last_place = None;
                    continue;
                }
                "offered" => {
                    let mut bits: PitSet = 0;
                    for l in value.split(',').filter(|s| !s.is_empty()) {
                        match find_label(engine, l) {
                            Some(p) if (p as usize) < rules.n_pits => bits |= pit_bit(p),
                            Some(_) => return Err(NotationError::new(format!("only pits can be offered, not {l}"))),
                            None => return Err(not_a_place(engine, l)),
                        }
                    }
                    offered = Some(bits);
                    last_place = None;
                    continue;
                }
                _ => {}
            }
            if lower.starts_with("owner(") && key.ends_with(')') {
                let l = &key[6..key.len() - 1];
                let p = find_label(engine, l).ok_or_else(|| not_a_place(engine, l))?;
                if (p as usize) >= rules.n_pits {
                    return Err(NotationError::new(format!("only a pit's owner can be set, and {l} is not a pit")));
                }
                st.owner[p as usize] = match value {
                    "-" | "0" | "none" => NO_PLAYER,
                    v => parse_player(engine, v, &format!("owner({l})"))?,
                };
                last_place = None;
                continue;
            }
            if find_label(engine, key).is_none() {
                if let Some(read) = read_mark_entry(engine, &mut st, key, value) {
                    read?;
                    last_place = None;
                    continue;
                }
            }
            let p = match find_label(engine, key) {
                Some(p) => p as usize,
                None => {
                    let mut names: Vec<String> = rules.places.iter().map(|p| p.label.clone()).collect();
                    names.extend(rules.marks.iter().map(|m| {
                        if m.per_player {
                            format!("{}(N)", m.name)
                        } else {
                            m.name.clone()
                        }
                    }));
                    names
                        .extend(["to_move", "phase", "owner(PIT)", "eliminated", "offered", "moves"].map(String::from));
                    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
                    let msg = format!("`{key}` is not a place or a setting{}", did_you_mean(key, &refs));
                    return Err(NotationError::expecting(msg, names));
                }
            };
            let c = parse_contents(engine, value).ok_or_else(|| contents_error(engine, key, value))?;
            set_place(engine, &mut counts, &mut given, p, &c, key)?;
            last_place = Some(p);
            continue;
        }
        // No `=`: a glued place entry (`a4`, `a05`), or more pieces for the place just written (`a=0 5`).
        let mut done = false;
        for (p, rest) in label_prefixes(engine, tok) {
            if rest.is_empty() {
                continue;
            }
            if let Some(c) = parse_contents(engine, rest) {
                set_place(engine, &mut counts, &mut given, p as usize, &c, label(engine, p))?;
                last_place = Some(p as usize);
                done = true;
                break;
            }
        }
        if done {
            continue;
        }
        if let (Some(p), true) = (last_place, k > 1) {
            if let Some(c) = split_symbols(engine, tok, true) {
                for (kind, n) in c {
                    let slot = &mut counts[p * k + kind as usize];
                    *slot = slot.saturating_add(n);
                }
                continue;
            }
        }
        return Err(NotationError::expecting(
            format!("`{tok}` is neither a place with its pieces nor a setting"),
            vec![
                "LABEL=CONTENTS".into(),
                "to_move=N".into(),
                "phase=NAME".into(),
                "owner(PIT)=N".into(),
                "eliminated=N".into(),
            ],
        ));
    }
    check_pieces(counts.iter().map(|&n| u64::from(n)).sum())?;
    for (slot, &n) in st.counts.iter_mut().zip(&counts) {
        // Within the total just checked.
        *slot = u8::try_from(n).unwrap_or(u8::MAX);
    }
    if !phase_given {
        advance_phase(engine, &mut st);
    }
    st.round_starter = starter.unwrap_or(st.to_move);
    st.ply = 0;
    st.result = None;
    st.hand.iter_mut().for_each(|h| *h = 0);
    st.last_mover = previous_player(engine, &st);
    st.stage = Stage::Start;
    st.offered = 0;
    if let Some(bits) = offered {
        if bits != 0 {
            st.offered = bits;
            st.stage = Stage::Respond;
        }
    }
    check_reachable(engine, &st)?;
    // A position read from text has no past: its repetitions count from here (GO-13), and the engine redoes
    // the bookkeeping of a turn's start (the obligation of the player to move, or the end when he cannot move).
    st.history.clear();
    st.history_total = u32::MAX;
    st.result = None;
    Ok(st)
}

/// Reads a position to start games from (`--position` of `play` and `simulate`): [`parse_position`], which
/// only gives positions at the start of a turn.
pub fn parse_start_position(engine: &Engine, text: &str) -> Result<State, NotationError> {
    parse_position(engine, text)
}

fn contents_error(engine: &Engine, place: &str, value: &str) -> NotationError {
    if kinds(engine) == 1 {
        NotationError::expecting(format!("`{value}` is not a number of pieces for {place}"), vec![format!("{place}=4")])
    } else {
        NotationError::expecting(format!("`{value}` is not a run of piece symbols for {place}"), all_symbols(engine))
    }
}

fn set_place(
    engine: &Engine,
    counts: &mut [u32],
    given: &mut [bool],
    p: usize,
    c: &[u32],
    name: &str,
) -> Result<(), NotationError> {
    if given[p] {
        return Err(NotationError::new(format!("{name} is given twice")));
    }
    given[p] = true;
    let k = kinds(engine);
    counts[p * k..p * k + k].copy_from_slice(c);
    Ok(())
}

/// The active player before the one to move: the one who just moved (and made the offer, if one waits).
fn previous_player(engine: &Engine, st: &State) -> u8 {
    let n = engine.rules.players.max(1);
    for i in 1..=n {
        let q = ((st.to_move as u32 + n as u32 - i as u32) % n as u32) as u8;
        if st.eliminated & 1u8.checked_shl(q as u32).unwrap_or(0) == 0 {
            return q;
        }
    }
    st.to_move
}

/// Moves on to the first phase whose `until` does not hold, as the engine does between plies.
fn advance_phase(engine: &Engine, st: &mut State) {
    while (st.phase as usize) + 1 < engine.rules.phases.len() {
        let Some(until) = &engine.phase(st).until else {
            break;
        };
        if !engine.cond(st, Ctx::new(st.to_move), until) {
            break;
        }
        st.phase += 1;
    }
}

fn parse_json(engine: &Engine, text: &str) -> Result<State, NotationError> {
    let mut st: State = serde_json::from_str(text)
        .map_err(|e| NotationError::new(format!("the position's JSON does not read: {e}")))?;
    let rules = &engine.rules;
    // A position saved before marks existed, or with none marked, holds no cells: every pit is unmarked.
    let cells = rules.marks.len() * rules.n_pits;
    if st.marks.is_empty() {
        st.marks = vec![UNMARKED; cells];
    }
    // The lives of marks `for N plies`, one per mark cell where a mark is timed.
    let timed = engine.mark_life_cells();
    let places = rules.places.len();
    let k = kinds(engine);
    let drops = if rules.needs.drops { places } else { 0 };
    let checks = [
        (st.counts.len() == places * k, "counts", places * k),
        (st.owner.len() == rules.n_pits, "owner", rules.n_pits),
        (st.hand.len() == k, "hand", k),
        (st.before.len() == drops, "before", drops),
        (st.dropped.len() == drops, "dropped", drops),
        (st.marks.len() == cells, "marks", cells),
        (st.mark_lives.len() == timed, "mark_lives", timed),
    ];
    for (ok, field, want) in checks {
        if !ok {
            return Err(NotationError::new(format!(
                "the position's JSON does not fit this game: `{field}` must have {want} entries"
            )));
        }
    }
    if st.phase as usize >= rules.phases.len() {
        return Err(NotationError::new(format!("the position's JSON does not fit this game: no phase {}", st.phase)));
    }
    if st.to_move >= rules.players {
        return Err(NotationError::new(format!(
            "the position's JSON does not fit this game: no player {}",
            st.to_move
        )));
    }
    let positions = [st.origin, st.last, st.cursor];
    if positions.iter().any(|&p| p as usize >= places) {
        return Err(NotationError::new("the position's JSON does not fit this game: a place index is out of range"));
    }
    if st.last_mover >= rules.players {
        return Err(NotationError::new(format!(
            "the position's JSON does not fit this game: no player {} made the last move",
            st.last_mover
        )));
    }
    // The rest is what a position in text cannot get wrong: it starts a turn, with nothing in hand.
    if !matches!(st.stage, Stage::Start | Stage::Respond) || st.illegal {
        return Err(NotationError::new(
            "this position is in the middle of a turn; give one at the start of a turn (a position in text always is)",
        ));
    }
    if st.hand.iter().any(|&n| n > 0) {
        return Err(NotationError::new(
            "the position's JSON has pieces in hand; at the start of a turn every piece lies in a place",
        ));
    }
    if st.stage == Stage::Respond && st.offered == 0 {
        return Err(NotationError::new("the position's JSON waits for an answer to an offer of no pit"));
    }
    if st.stage == Stage::Start && st.offered != 0 {
        return Err(NotationError::new(
            "the position's JSON has pits offered but no offer waiting for an answer (stage `Respond`)",
        ));
    }
    if let Some(outcome) = &st.result {
        let winners_fit = rules.players >= 8 || outcome.winners >> rules.players == 0;
        if outcome.scores.len() != rules.players as usize || !winners_fit {
            return Err(NotationError::new(
                "the position's JSON does not fit this game: its result names other players",
            ));
        }
    }
    let pieces = st.counts.iter().chain(&st.hand).map(|&n| u64::from(n)).sum();
    check_pieces(pieces)?;
    check_reachable(engine, &st)?;
    // The bookkeeping of a turn's start, on a copy that leaves the history as it was: whether the player to
    // move is bound by an obligation, and whether he can move at all.
    let mut fresh = st.clone();
    fresh.history.clear();
    engine.refresh(&mut fresh);
    st.obliged = fresh.obliged;
    if st.result.is_none() {
        st.result = fresh.result;
    }
    Ok(st)
}

/// The most pieces a position may hold: a place counts its pieces in one byte, and since pieces only move,
/// all of them could come together in one place.
const MAX_PIECES: u64 = u8::MAX as u64;

fn check_pieces(pieces: u64) -> Result<(), NotationError> {
    if pieces > MAX_PIECES {
        return Err(NotationError::new(format!(
            "this position holds {pieces} pieces, more than the {MAX_PIECES} a place can count; since pieces only \
             move, they could all come together in one place"
        )));
    }
    Ok(())
}

/// The checks of every position, from text or JSON, against what a game of these rules can reach: owners
/// that only trades change, eliminations only where players can be put out, an offer only where the rules
/// have one, of the offering player's pits.
fn check_reachable(engine: &Engine, st: &State) -> Result<(), NotationError> {
    check_owners(engine, st)?;
    check_marks(engine, st)?;
    check_eliminated(engine, st)?;
    check_offer(engine, st)
}

fn player_name(player: u8) -> String {
    if player == NO_PLAYER {
        "nobody".to_string()
    } else {
        format!("player {}", player as u32 + 1)
    }
}

/// The offer actions of a phase.
fn offers_of(phase: &crate::ir::PhaseRules) -> impl Iterator<Item = &crate::ir::Offer> {
    phase.actions.iter().filter_map(|a| match &a.kind {
        ActionKind::Offer(offer) => Some(offer),
        _ => None,
    })
}

/// Each mark cell holds nobody, or (for a mark per player) one of the players.
fn check_marks(engine: &Engine, st: &State) -> Result<(), NotationError> {
    let rules = &engine.rules;
    for (m, info) in rules.marks.iter().enumerate() {
        let most = if info.per_player { rules.players } else { 1 };
        let cells = st.marks.get(m * rules.n_pits..(m + 1) * rules.n_pits).unwrap_or(&[]);
        if let Some(p) = cells.iter().position(|&c| c > most) {
            return Err(NotationError::new(format!(
                "the mark `{}` of {} is held for no player of this game",
                info.name,
                label(engine, p as PlaceId)
            )));
        }
    }
    Ok(())
}

fn check_owners(engine: &Engine, st: &State) -> Result<(), NotationError> {
    let rules = &engine.rules;
    // Only an accepted offer, a `give` or a refill that claims changes who owns a pit; only the last leaves
    // a pit to nobody (one that nobody fills).
    let trades = rules.owners_can_change();
    let claims = rules.rounds.as_ref().is_some_and(|r| r.refills.iter().any(|f| f.claim.is_some()));
    for (p, (&owner, &initial)) in st.owner.iter().zip(&rules.initial_owner).enumerate() {
        if owner == initial {
            continue;
        }
        let l = label(engine, p as PlaceId);
        if owner != NO_PLAYER && owner >= rules.players {
            return Err(NotationError::new(format!("owner({l}): there is no player {}", owner as u32 + 1)));
        }
        if !trades {
            return Err(NotationError::new(format!(
                "owner({l}): pits never change hands in this game (no action trades them), so {l} belongs to {}",
                player_name(initial)
            )));
        }
        if owner == NO_PLAYER && !claims {
            return Err(NotationError::new(format!(
                "owner({l}): a trade always gives a pit to a player, so {l} cannot belong to nobody"
            )));
        }
    }
    Ok(())
}

fn check_eliminated(engine: &Engine, st: &State) -> Result<(), NotationError> {
    let rules = &engine.rules;
    if st.eliminated == 0 {
        return Ok(());
    }
    if !rules.needs.elimination {
        return Err(NotationError::new("nobody is ever put out in this game, so no player can be eliminated"));
    }
    if rules.players < 8 && st.eliminated >> rules.players != 0 {
        return Err(NotationError::new(format!("eliminated: players are numbered 1 to {}", rules.players)));
    }
    if st.result.is_some() {
        return Ok(());
    }
    if st.eliminated & 1u8.checked_shl(st.to_move as u32).unwrap_or(0) != 0 {
        return Err(NotationError::new(format!("player {} is to move but eliminated", st.to_move as u32 + 1)));
    }
    let active = (0..rules.players).filter(|&p| st.eliminated & (1 << p) == 0).count();
    if active < 2 {
        return Err(NotationError::new(
            "only one player is left in the game, and then the game is over: eliminate fewer players",
        ));
    }
    Ok(())
}

/// An offer waiting for an answer: the phase must have an offer of that many pits, all of them the offering
/// player's (the one who moved last), who keeps as many as the offer requires.
fn check_offer(engine: &Engine, st: &State) -> Result<(), NotationError> {
    if st.offered == 0 {
        return Ok(());
    }
    let rules = &engine.rules;
    let phase = engine.phase(st);
    if offers_of(phase).next().is_none() {
        let anywhere = rules.phases.iter().any(|ph| offers_of(ph).next().is_some());
        return Err(NotationError::new(if anywhere {
            format!("offered: no offer can be made in phase {}", phase.name)
        } else {
            "offered: nobody can offer pits in this game".to_string()
        }));
    }
    let offerer = st.last_mover;
    let mut size = 0u32;
    for p in pits_of(st.offered) {
        let l = label(engine, p);
        let owner = st.owner.get(p as usize).copied();
        match owner {
            None => return Err(NotationError::new(format!("offered: only pits can be offered, not {l}"))),
            Some(o) if o != offerer => {
                let whose =
                    if o == st.to_move { format!("{}, who answers the offer", player_name(o)) } else { player_name(o) };
                return Err(NotationError::new(format!(
                    "offered: pit {l} belongs to {whose}; an offer is of the pits of the player who made it, {}",
                    player_name(offerer)
                )));
            }
            Some(_) => size += 1,
        }
    }
    let owned = st.owner.iter().filter(|&&o| o == offerer).count() as u32;
    let fits = offers_of(phase).any(|o| (o.min..=o.max).contains(&size) && owned >= size + o.keeping);
    if !fits {
        let sizes: Vec<String> = offers_of(phase)
            .map(|o| {
                let keep = if o.keeping > 0 { format!(", keeping at least {}", o.keeping) } else { String::new() };
                if o.min == o.max {
                    format!("{} pits{keep}", o.min)
                } else {
                    format!("{} to {} pits{keep}", o.min, o.max)
                }
            })
            .collect();
        return Err(NotationError::new(format!(
            "offered: an offer of {size} of the {owned} pits of {} cannot be made here; an offer is of {}",
            player_name(offerer),
            sizes.join(" or ")
        )));
    }
    Ok(())
}
