//! A game in progress as the page draws it: the board's places from the lowered rules (whatever the
//! shape), the position, whose turn, the options of the decision at hand, the history and what was said.

use serde_json::{json, Value};

use super::Live;
use crate::engine::{Move, State};
use crate::ir::{Rules, NO_PLAYER, UNMARKED};
use crate::notation::{enumerate_plies, format_ply, format_position};

/// The most whole plies `moves` lists.
const MAX_LISTED: usize = 60;
/// The most boards of the last ply sent for its animation, piece by piece.
const MAX_FRAMES: usize = 400;
/// The most options previewed (where the last piece of each lands, what it does).
const MAX_PREVIEWS: usize = 40;

/// Everything the page shows of one game.
pub fn game(id: &str, live: &Live) -> Value {
    let session = &live.session;
    let engine = &session.engine;
    let rules = &engine.rules;
    let st = &session.state;
    let names = session.seat_names();
    let seats: Vec<Value> = session
        .seats()
        .iter()
        .zip(&names)
        .map(|(seat, name)| json!({ "kind": seat.to_string(), "name": name }))
        .collect();
    let told = session.last_told();
    // The boards the last ply passed through, for the page to show it step by step, and piece by piece.
    let k = engine.kinds().max(1);
    let boards = session.last_steps();
    let steps: Vec<Vec<&[u8]>> = boards.iter().map(|s| s.counts.chunks(k).collect()).collect();
    let frames: Vec<Value> = session
        .last_ply()
        .map(|(before, moves)| crate::narrate::frames(engine, before, moves, st, MAX_FRAMES))
        .unwrap_or_default()
        .iter()
        .map(|f| json!({ "counts": f.counts.chunks(k).collect::<Vec<_>>(), "at": f.at, "hand": f.hand }))
        .collect();
    let asking = session.human_to_move() && session.in_turn();
    json!({
        "id": id,
        "name": live.name,
        "origin": live.origin.as_str(),
        "text": &*live.text,
        "game": rules.game,
        "variant": rules.variant,
        "players": rules.players,
        "board": board(rules),
        "position": position(engine, st),
        "seats": seats,
        "human_to_move": session.human_to_move(),
        "decision": session.decision(),
        "question": asking.then(|| session.question()),
        "question_doc": if asking { session.question_doc() } else { None },
        "chosen": session.chosen_place(),
        "in_turn": session.in_turn(),
        "options": options(session),
        "offer": crate::narrate::pending_offer(engine, st, &names),
        "goal": rules.goal.is_some(),
        "history": session.history(),
        "movers": session.history_movers(),
        "redo": session.redo_len(),
        "last": told.map(|t| json!({ "text": t.text, "marks": t.marks, "steps": steps, "frames": frames })),
        "log": live.log,
    })
}

/// The board's layout from the lowered rules: the shape as the rules name it (the page lays out the
/// shapes it knows and falls back to a grid), every place with its label, owner and role, the kinds.
fn board(rules: &Rules) -> Value {
    let places: Vec<Value> = rules
        .places
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let owner = if p.is_pit { rules.initial_owner.get(i).copied().unwrap_or(NO_PLAYER) } else { p.owner };
            json!({
                "label": p.label,
                "name": p.name,
                "pit": p.is_pit,
                "on_track": p.on_track,
                "owner": seat(owner),
            })
        })
        .collect();
    let kinds: Vec<Value> = rules
        .kinds
        .iter()
        .map(|k| json!({ "name": k.name, "symbol": k.symbol, "value": k.value, "owner": seat(k.owner) }))
        .collect();
    json!({
        "shape": serde_json::to_value(rules.shape).unwrap_or(Value::Null),
        "pits": rules.n_pits,
        "places": places,
        "kinds": kinds,
    })
}

/// A seat by number from 0, or null for nobody.
fn seat(owner: u8) -> Value {
    if owner == NO_PLAYER {
        Value::Null
    } else {
        json!(owner)
    }
}

fn position(engine: &crate::engine::Engine, st: &State) -> Value {
    let k = engine.kinds();
    let counts: Vec<&[u8]> = st.counts.chunks(k.max(1)).collect();
    let owners: Vec<Value> = st.owner.iter().map(|&o| seat(o)).collect();
    let eliminated: Vec<u8> = (0..engine.rules.players).filter(|p| st.eliminated & (1 << p) != 0).collect();
    // A solitaire with a goal is won or lost, never drawn.
    let goal = engine.rules.goal.is_some();
    let result = st.result.as_ref().map(|r| {
        let lost = goal && r.winner_list().is_empty();
        json!({ "winners": r.winner_list(), "scores": r.scores, "reason": r.reason, "draw": r.is_draw() && !goal, "lost": lost })
    });
    let phase = (engine.rules.phases.len() > 1).then(|| engine.phase(st).name.clone());
    json!({
        "counts": counts,
        "owners": owners,
        "to_move": st.to_move,
        // Who makes the decision at hand: the player to move, or his opponent answering in his move.
        "decider": engine.decider(st),
        "ply": st.ply,
        "phase": phase,
        "eliminated": eliminated,
        "marks": pit_marks(engine, st),
        "result": result,
        "notation": format_position(engine, st),
    })
}

/// For each pit, the marks it carries, each with the seat it is carried for (null for a mark not per
/// player): `[{ "name": "wegue", "seat": 0 }]`.
fn pit_marks(engine: &crate::engine::Engine, st: &State) -> Vec<Vec<Value>> {
    let rules = &engine.rules;
    let n = rules.n_pits;
    (0..n)
        .map(|p| {
            rules
                .marks
                .iter()
                .enumerate()
                .filter_map(|(m, info)| {
                    let cell = st.marks.get(m * n + p).copied().unwrap_or(UNMARKED);
                    let seat = if info.per_player { json!(cell.wrapping_sub(1)) } else { Value::Null };
                    (cell != UNMARKED).then(|| json!({ "name": info.name, "seat": seat }))
                })
                .collect()
        })
        .collect()
}

/// The options of the decision at hand: the label to send back, and the place it is about (a pit to
/// sow from, to pick, to take from), so that a click on the place can choose it; for a direction, the
/// place it goes towards; for a start that is a whole ply, what it would do (`preview`).
fn options(session: &crate::session::Session) -> Vec<Value> {
    let rules = &session.engine.rules;
    let options = session.options();
    let preview = options.len() <= MAX_PREVIEWS && !session.in_turn();
    options
        .into_iter()
        .map(|(label, mv)| {
            let (kind, place, piece) = match mv {
                Move::Begin { place, .. } => ("begin", Some(place), None),
                Move::Pick(place) => ("pick", Some(place), None),
                Move::Take { place, kind } => ("take", Some(place), Some(kind)),
                Move::Drop(kind) => ("drop", None, Some(kind)),
                Move::Direction(_) => ("direction", None, None),
                Move::Pass => ("pass", None, None),
                Move::Accept => ("accept", None, None),
                Move::Decline => ("decline", None, None),
                Move::Stop => ("stop", None, None),
                Move::Capture(_) => ("capture", None, None),
                Move::Relay(_) => ("relay", None, None),
                Move::Answer(_) => ("answer", None, None),
            };
            let place = place.filter(|&p| (p as usize) < rules.places.len());
            let towards = session.towards(mv);
            let preview = if preview { preview_of(session, mv) } else { Value::Null };
            json!({ "label": label, "kind": kind, "place": place, "piece": piece, "towards": towards, "preview": preview })
        })
        .collect()
}

/// What a decision that makes a whole ply by itself would do: where its last piece lands, whether it
/// captures, whether the mover plays again, and the ply in words; null for one that needs more decisions.
fn preview_of(session: &crate::session::Session, mv: Move) -> Value {
    let engine = &session.engine;
    let before = &session.state;
    let mut st = before.clone();
    if engine.apply(&mut st, mv).is_err() || st.ply == before.ply {
        return Value::Null;
    }
    let told = crate::narrate::ply(engine, before, &[mv], &st, &session.seat_names());
    let again = st.result.is_none() && engine.rules.players > 1 && st.to_move == before.to_move;
    json!({
        "last": st.last,
        "captures": told.text.contains("captured"),
        "again": again,
        "text": told.text,
    })
}

/// `GET /api/sessions/ID/plies/N`: the position after the first N plies, for the page to step through the
/// game without changing it, with the pits of the ply that led there and who played it.
pub fn ply(live: &Live, n: usize) -> Option<Value> {
    let session = &live.session;
    let (st, last) = session.position_after(n)?;
    let engine = &session.engine;
    let names = session.seat_names();
    let told = last.map(|(before, moves)| crate::narrate::ply(engine, before, moves, &st, &names));
    let mover = n.checked_sub(1).and_then(|i| session.history_movers().get(i).copied());
    Some(json!({
        "ply": n,
        "position": position(engine, &st),
        "marks": told.as_ref().map(|t| t.marks.clone()).unwrap_or_default(),
        "text": told.map(|t| t.text),
        "mover": mover,
    }))
}

/// `GET /api/sessions/ID/moves`: the whole plies in notation, where they are few enough to list.
pub fn moves(live: &Live) -> Value {
    let session = &live.session;
    if session.is_over() || session.in_turn() {
        return json!({ "plies": [], "partial": session.in_turn(), "decision": session.decision() });
    }
    let found = enumerate_plies(&session.engine, &session.state, MAX_LISTED + 1);
    let plies: Vec<String> =
        found.plies.iter().take(MAX_LISTED).map(|p| format_ply(&session.engine, &session.state, p)).collect();
    json!({
        "plies": plies,
        "partial": found.partial || found.plies.len() > MAX_LISTED,
        "decision": session.decision(),
    })
}
