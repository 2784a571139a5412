//! Checking a ply text against the position by replaying it on a copy: each decision from the text, the
//! capture tokens tried in any order, and the errors that list the legal options.

use super::*;

impl NotationError {
    /// The text ran out after the decisions of `r`: the rest is to be asked.
    fn ran_out(mut self, r: &Replay<'_>) -> NotationError {
        self.started = r.moves.clone();
        self
    }
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
    /// The pits chosen before laps are lifted not used yet.
    lift_picks: std::collections::VecDeque<PlaceId>,
    /// The opponent's answers not used yet (with the pit he chose, where written).
    answers: std::collections::VecDeque<(bool, Option<PlaceId>)>,
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

pub(super) fn replay(engine: &Engine, state: &State, mut ply: PlyText<'_>) -> Result<Vec<Move>, NotationError> {
    let action = ply.action.unwrap_or(0);
    // A selection is a set (or, for `put`, a multiset): the engine takes it in board order. After a take
    // made before a sowing, the second pit is the one sown from: the order written stays.
    let take_first = sow_of(engine, state, ply.action.unwrap_or(0)).is_some_and(|s| s.take_first.is_some());
    if !take_first {
        ply.places.sort_unstable();
    }
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
        // After a take made before the sowing, the pieces of the pit sown from, once the take is made.
        let hand = match (sow.take_first.is_some(), ply.places.get(1)) {
            (true, Some(&from)) => {
                let mut taken = state.clone();
                engine.apply_unchecked(&mut taken, begin);
                lifted(engine, &taken, from)
            }
            (true, None) => Vec::new(),
            (false, _) => lifted(engine, state, place),
        };
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
        lift_picks: ply.lift_picks.iter().copied().collect(),
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
            // After a take made before the sowing, the direction and the drops go with the pit sown from.
            let sown = match self.sow {
                Some(s) if s.take_first.is_some() => format!("{here},{}", label(engine, r.st.start)),
                _ => here.clone(),
            };
            match r.st.stage {
                Stage::Start | Stage::Respond => break,
                Stage::Direction { .. } => {
                    let here = sown;
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
                                "the order of the pieces must be given, e.g. `{sown}{}:...`",
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
                Stage::Answer { action, rule } => {
                    let at = label(engine, r.st.last).to_string();
                    // An answer that takes from a pit the opponent chooses: `answer PIT`.
                    let picks = sow_of(engine, &r.st, action)
                        .and_then(|s| s.answers.get(rule as usize))
                        .is_some_and(|a| a.pick.is_some());
                    let mut opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| match m {
                            Move::Pick(p) => Some(format!("answer {} (the opponent takes from it)", label(engine, *p))),
                            _ => None,
                        })
                        .collect();
                    if !picks {
                        opts.push(format!("answer (the opponent answers at {at})"));
                    }
                    opts.push("-answer (the opponent lets it be)".to_string());
                    if r.answers.is_empty() && self.until_answer {
                        break;
                    }
                    let Some((made, pit)) = r.answers.pop_front() else {
                        return Err(NotationError::expecting(
                            format!("say whether the opponent answers at {at}"),
                            opts,
                        ));
                    };
                    let mv = match (made, pit, picks) {
                        (false, None, _) => Move::Answer(false),
                        (true, None, false) => Move::Answer(true),
                        (true, Some(p), true) => Move::Pick(p),
                        // The one pit he could choose need not be written.
                        (true, None, true) => match options.iter().filter(|m| matches!(m, Move::Pick(_))).count() {
                            1 => options.iter().copied().find(|m| matches!(m, Move::Pick(_))).unwrap_or(Move::Stop),
                            _ => {
                                return Err(NotationError::expecting(
                                    format!("say which pit the opponent answers from, after the lap in {at}"),
                                    opts,
                                ))
                            }
                        },
                        (_, Some(p), _) => {
                            return Err(NotationError::expecting(
                                format!(
                                    "this answer takes from no pit of the opponent's choice: `{}`",
                                    label(engine, p)
                                ),
                                opts,
                            ))
                        }
                    };
                    if !options.contains(&mv) {
                        return Err(NotationError::expecting(
                            match mv {
                                Move::Pick(p) => format!("the opponent cannot answer from {}", label(engine, p)),
                                _ => format!("the opponent cannot answer so at {at}"),
                            },
                            opts,
                        ));
                    }
                    r.apply(mv);
                }
                Stage::LiftPick { .. } => {
                    let from = label(engine, r.st.origin).to_string();
                    let picks: Vec<Move> = options.iter().copied().filter(|m| matches!(m, Move::Pick(_))).collect();
                    let opts: Vec<String> = picks
                        .iter()
                        .filter_map(|m| {
                            if let Move::Pick(p) = m {
                                Some(format!("pick {}", label(engine, *p)))
                            } else {
                                None
                            }
                        })
                        .collect();
                    let mv = match r.lift_picks.pop_front() {
                        Some(p) => Move::Pick(p),
                        // The one pit he could choose need not be written.
                        None if picks.len() == 1 => picks[0],
                        None => {
                            return Err(NotationError::expecting(
                                format!("choose the pit to take from before the lap from {from} is lifted"),
                                opts,
                            )
                            .ran_out(&r))
                        }
                    };
                    if !options.contains(&mv) {
                        let Move::Pick(p) = mv else { unreachable!("a pick") };
                        return Err(NotationError::expecting(
                            format!("{} cannot be taken from before the lap from {from} is lifted", label(engine, p)),
                            opts,
                        ));
                    }
                    r.apply(mv);
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
                Stage::SowFrom { .. } => {
                    let opts: Vec<String> = options
                        .iter()
                        .filter_map(|m| {
                            if let Move::Pick(q) = m {
                                Some(format!("{here},{}", label(engine, *q)))
                            } else {
                                None
                            }
                        })
                        .collect();
                    let Some(p) = r.selection.pop_front() else {
                        return Err(NotationError::expecting(
                            format!("after the take from {here}, the pit to sow from must follow"),
                            opts,
                        )
                        .ran_out(&r));
                    };
                    if !options.contains(&Move::Pick(p)) {
                        return Err(NotationError::expecting(
                            format!("{} cannot be sown from after the take from {here}", label(engine, p)),
                            opts,
                        ));
                    }
                    r.apply(Move::Pick(p));
                }
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
        if let Some(&p) = r.lift_picks.front() {
            return Err(NotationError::new(format!(
                "unexpected `pick {}`: no (more) lap is lifted after a pit to choose",
                label(engine, p)
            )));
        }
        if let Some(&(made, _)) = r.answers.front() {
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
