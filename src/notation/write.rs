//! Printing a ply in notation (`format_ply`).

use super::*;

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
    // The opponent's answers made (`answer`, `answer A` from a pit he chose) or declined (`-answer`), in order.
    let mut answers: Vec<String> = Vec::new();
    // The pits chosen before laps were lifted (`take { ... }` in a capture at every lift), in order.
    let mut lift_picks: Vec<PlaceId> = Vec::new();
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
        // The pieces lifted at the start; after a take made before the sowing, those of the pit sown from.
        let lift_here = match (stage, mv) {
            (_, Move::Begin { place, .. }) | (Stage::SowFrom { .. }, Move::Pick(place)) => lifted(engine, &st, place),
            _ => Vec::new(),
        };
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
            (Stage::SowFrom { .. }, Move::Pick(p)) => {
                places.push(p);
                lift = lift_here;
            }
            (Stage::LiftPick { .. }, Move::Pick(p)) => lift_picks.push(p),
            (Stage::Answer { .. }, Move::Pick(p)) => answers.push(format!("answer {}", label(engine, p))),
            (_, Move::Pick(p)) => places.push(p),
            (_, Move::Stop) => {}
            (_, Move::Capture(make)) => optional.push((make, captures.len(), answer.unwrap_or_default())),
            (_, Move::Relay(_)) => relays.push(answer.unwrap_or_default()),
            (_, Move::Answer(made)) => answers.push(if made { "answer" } else { "-answer" }.to_string()),
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
        // After a take made before the sowing, the direction goes with the pit sown from, the last.
        let take_first = sow_of(engine, before, action).is_some_and(|s| s.take_first.is_some());
        let dir_pit = if take_first { head.last_mut() } else { head.first_mut() };
        if let (true, Some(pit)) = (glued, dir_pit) {
            pit.push_str(dir_text(dirs[0].0));
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
    for p in lift_picks {
        tokens.push(format!("pick {}", label(engine, p)));
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
    tokens.extend(answers);
    if !picks.is_empty() {
        tokens.push("take".to_string());
        tokens.push(picks.iter().map(|&p| label(engine, p)).collect::<Vec<_>>().join(","));
    }
    tokens.extend(extra);
    tokens.join(" ")
}
