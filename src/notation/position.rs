//! Positions as text: printing them (`format_position`) and reading them, or a state's JSON
//! (`parse_position`, `read_position`, `parse_start_position`).

use super::*;

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
        // `I3/2`: a mark `for N plies` with the plies it has left, the ply about to be played counting as one;
        // without, as the ply just played made it. A mark for one ply is the coming ply's: `/1` or nothing.
        let (l, left) = match entry.split_once('/') {
            Some((l, left)) if info.plies > 0 => match left.parse::<u32>() {
                Ok(left) if left >= 1 && left < info.plies => (l, left),
                _ => return Some(Err(plies_left_error(entry, key, l, info.plies))),
            },
            Some((l, "1")) if info.one_ply => (l, 0),
            Some((l, _)) if info.one_ply => {
                return Some(Err(NotationError::new(format!(
                    "`{entry}`: the mark `{key}` lasts one ply, the ply about to be played: write `{key}={l}` \
                     (or `{l}/1`)"
                ))))
            }
            Some((l, _)) => {
                return Some(Err(NotationError::new(format!(
                    "`{entry}`: the mark `{key}` is not for a number of plies (it stays until a rule takes it \
                     off), so it has no plies left to write: `{key}={l}`"
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

/// `pair=A/2` for a mark `for 2 plies`: the plies a mark `for N plies` may have left in a position.
fn plies_left_error(entry: &str, key: &str, l: &str, plies: u32) -> NotationError {
    let why = "a position stands between plies, and the ply that made the mark was the first of its";
    let most = plies - 1;
    if most == 1 {
        return NotationError::new(format!(
            "`{entry}`: the mark `{key}` lasts {plies} plies, so in a position it has 1 left, the ply about to be \
             played ({why} {plies}): write `{key}={l}/1`, or `{key}={l}`"
        ));
    }
    NotationError::new(format!(
        "`{entry}`: the mark `{key}` lasts {plies} plies, so in a position it has 1 to {most} left, the ply about \
         to be played counting as one ({why} {plies}): write `{l}/1` to `{l}/{most}`, or `{l}` alone for {most}"
    ))
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
    // Glued (`=RRB`, `=R*4B*3`) where the reader splits them back without doubt: one-letter symbols, and no
    // digit that a repeat count could swallow. Apart, a later item such as `BB` would read as pit B's entry.
    let one_char = engine.rules.kinds.iter().all(|k| k.symbol.chars().count() == 1);
    let digits = engine.rules.kinds.iter().any(|k| k.symbol.starts_with(|c: char| c.is_ascii_digit()));
    let glue = one_char && (!digits || items.iter().all(|i| !i.contains('*')));
    format!("{label}={}", items.join(if glue { "" } else { " " }))
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
