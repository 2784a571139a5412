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

mod answers;
mod drops;
mod enumerate;
mod position;
mod reachable;
mod read;
mod replay;
mod write;

pub use answers::{answer_words, AnswerWords, Question};
pub use enumerate::{enumerate_plies, Plies, ENUMERATION_BUDGET};
pub use position::{format_position, parse_position, parse_start_position, read_position};
pub use read::{parse_ply, parse_ply_until_answer};
pub use write::format_ply;

use answers::named_answer;
use drops::{chosen_drops, full_drops, lifted};
use reachable::{check_pieces, check_reachable};
use read::{did_you_mean, not_a_place, start_options, PlyText};
use replay::replay;

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
