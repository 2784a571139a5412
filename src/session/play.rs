//! Moves typed at the prompt: a whole ply in notation, or one decision at a time, and the lists and
//! words of what may be played.

use super::*;

impl Session {
    // ------------------------------------------------------------ moves

    pub(super) fn play_text(&mut self, text: &str) -> Result<Output, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.partial.is_empty() {
            return self.play_decision(text);
        }
        if let Some(answer) = self.offer_answer(text) {
            return self.play_ply(vec![answer]);
        }
        // `take none` says outright that no pit is taken (the notation writes nothing for that).
        let (text, none_taken) = strip_take_none(text);
        if let Some(out) = self.play_until_answer(text) {
            return out;
        }
        match parse_ply(&self.engine, &self.state, text) {
            Ok(moves) if none_taken => self.play_ply(moves),
            Ok(moves) => match self.untyped_optional_choice(text, &moves) {
                Some(asked) => {
                    let mut out = self.start_turn(&moves[..asked])?;
                    out.text = format!(
                        "{text} is played; {}: {} (`stop` takes none; `{text} take none` says so at once)",
                        self.decision_name(),
                        self.option_labels().join(", ")
                    );
                    Ok(out)
                }
                None => self.play_ply(moves),
            },
            Err(full_error) => {
                // A first decision alone starts the turn; the rest is asked for.
                if self.decision_options().iter().any(|(l, _)| l == text) {
                    return self.play_decision(text);
                }
                // A ply typed in part (`i6`, `i3cw`) is started, and the rest asked for.
                if !full_error.started.is_empty() {
                    let mut out = self.start_turn(&full_error.started)?;
                    out.text = self.asking();
                    return Ok(out);
                }
                Err(SessionError::Illegal(self.explain_refusal(text, full_error.to_string())))
            }
        }
    }

    /// A ply typed up to the point where the opponent answers (`opponent may`): the decisions typed are
    /// made, and the ply waits there for his answer (a person's, asked for; or the computer's,
    /// `computer_turns`). `None` when the text is a whole ply or reads otherwise.
    pub(super) fn play_until_answer(&mut self, text: &str) -> Option<Result<Output, SessionError>> {
        let moves = crate::notation::parse_ply_until_answer(&self.engine, &self.state, text).ok()?;
        let mut probe = self.state.clone();
        for &mv in &moves {
            self.engine.apply(&mut probe, mv).ok()?;
        }
        let waits = matches!(probe.stage, crate::engine::Stage::Answer { .. }) && probe.ply == self.state.ply;
        if !waits {
            return None;
        }
        Some(self.start_turn(&moves))
    }

    /// Where a ply read from `text` stops a `then may take` that could have taken pits, though the text
    /// says nothing of taking: the notation reads that as "take none", but a person who typed only the
    /// sowing has not chosen yet, so the choice is asked for. The index of that `Stop` in `moves`.
    pub(super) fn untyped_optional_choice(&self, text: &str, moves: &[Move]) -> Option<usize> {
        if text.split_whitespace().any(|t| t.eq_ignore_ascii_case("take")) {
            return None;
        }
        let mut probe = self.state.clone();
        let mut legal = Vec::new();
        for (i, &mv) in moves.iter().enumerate() {
            if matches!(probe.stage, crate::engine::Stage::Then { .. }) && mv == Move::Stop {
                legal.clear();
                self.engine.legal_moves(&probe, &mut legal);
                if legal.iter().any(|m| matches!(m, Move::Pick(_))) {
                    return Some(i);
                }
            }
            self.engine.apply(&mut probe, mv).ok()?;
        }
        None
    }

    /// Makes the first decisions of a turn, leaving the rest to be asked for.
    pub(super) fn start_turn(&mut self, moves: &[Move]) -> Result<Output, SessionError> {
        let start = self.state.clone();
        let mut out = Output::text(String::new());
        for &mv in moves {
            match self.decide(mv) {
                Ok(o) => out = o,
                Err(e) => {
                    self.partial.clear();
                    self.partial_start = None;
                    self.state = start;
                    return Err(e);
                }
            }
        }
        out.board_changed = true;
        Ok(out)
    }

    pub(super) fn play_ply(&mut self, moves: Vec<Move>) -> Result<Output, SessionError> {
        let before = self.state.clone();
        let mover = self.state.to_move;
        let mut next = self.state.clone();
        for &mv in &moves {
            self.engine.apply(&mut next, mv).map_err(|e| SessionError::Illegal(e.to_string()))?;
        }
        let text = format_ply(&self.engine, &before, &moves);
        self.state = next;
        self.plies.push(PlyRecord { before, moves, text: text.clone(), mover });
        self.redo.clear();
        self.listing.clear();
        let who = &self.seat_names()[mover as usize];
        Ok(Output::moved(format!("{who} played {text}: {}", self.told())))
    }

    /// One decision of a turn, by its label (`cw`, `R`, `stop`, `B5`), or by a word that answers a yes/no
    /// question (`yes`, `no`, and the rule file's words); at a choice of pieces, a run of symbols makes a
    /// choice for each (`GGRRB`).
    pub(super) fn play_decision(&mut self, text: &str) -> Result<Output, SessionError> {
        if let Some(yes) = self.yes_or_no(text) {
            let mv = match self.state.stage {
                crate::engine::Stage::Relay { .. } => Move::Relay(yes),
                _ => Move::Capture(yes),
            };
            return self.decide(mv);
        }
        if let Some(out) = self.drop_run(text) {
            return out;
        }
        let options = self.decision_options();
        if !options.iter().any(|(l, _)| l == text) {
            if let Some(out) = self.pick_out_of_order(text) {
                return Ok(out);
            }
        }
        let Some(&(_, mv)) = options.iter().find(|(l, _)| l == text) else {
            let labels: Vec<&str> = options.iter().map(|(l, _)| l.as_str()).collect();
            let what = match self.engine.rules.places.iter().find(|p| p.label == text) {
                Some(p) if p.is_pit => format!("pit {text} cannot be chosen now"),
                Some(_) => format!("{text} cannot be chosen now"),
                None => format!("`{text}` is not a choice here"),
            };
            let hash = if self.pits_are_numbered() { "; `#N` picks the N-th" } else { "" };
            let asked = match self.state.stage {
                crate::engine::Stage::Relay { .. }
                | crate::engine::Stage::Capture { .. }
                | crate::engine::Stage::Direction { .. }
                | crate::engine::Stage::LapDirection { .. } => self.question(),
                _ => format!("{}: {}", self.decision_name(), labels.join(", ")),
            };
            return Err(SessionError::Illegal(format!("{what}; {asked} (or `cancel`{hash})")));
        };
        self.decide(mv)
    }

    /// A pit typed into a selection (pits to put into, offer, or take) before pits already chosen: the
    /// engine takes a selection in board order, but a person need not, so the selection is made again
    /// in order with the new pit. `None`, changing nothing, when that is not legal either.
    pub(super) fn pick_out_of_order(&mut self, text: &str) -> Option<Output> {
        use crate::engine::Stage;
        let rules = &self.engine.rules;
        let pit = rules.places.iter().position(|p| p.label == text && p.is_pit)? as u16;
        let with_begin = match self.state.stage {
            Stage::Put { .. } | Stage::Offer { .. } => true,
            Stage::Then { .. } => false,
            _ => return None,
        };
        let picks = self.partial.iter().rev().take_while(|m| matches!(m, Move::Pick(_))).count();
        let mut prefix = self.partial.len() - picks;
        let mut places: Vec<u16> =
            self.partial[prefix..].iter().filter_map(|m| if let Move::Pick(p) = m { Some(*p) } else { None }).collect();
        let mut action = None;
        if with_begin {
            let Some(&Move::Begin { action: a, place }) = prefix.checked_sub(1).map(|i| &self.partial[i]) else {
                return None;
            };
            prefix -= 1;
            action = Some(a);
            places.push(place);
        }
        places.push(pit);
        places.sort_unstable();
        let mut moves = self.partial[..prefix].to_vec();
        let mut rest = places.into_iter();
        if let Some(action) = action {
            moves.push(Move::Begin { action, place: rest.next()? });
        }
        moves.extend(rest.map(Move::Pick));
        let saved = (self.state.clone(), self.partial.clone(), self.partial_start.clone());
        self.cancel_partial();
        match self.start_turn(&moves) {
            Ok(out) => Some(out),
            Err(_) => {
                (self.state, self.partial, self.partial_start) = saved;
                None
            }
        }
    }

    /// Whether `text` answers the yes/no question at hand (an optional relay or capture), and how: `yes`,
    /// `y`, the rule file's yes word (or `relay`, `x`); `no`, `n`, its no word (or `-relay`, `stop`, `-x`).
    pub(super) fn yes_or_no(&self, text: &str) -> Option<bool> {
        let words = crate::notation::answer_words(&self.engine, &self.state)?;
        let t = text.trim().to_ascii_lowercase();
        let plain = match words.question {
            crate::notation::Question::Relay => ("relay", "-relay"),
            crate::notation::Question::Capture => ("x", "-x"),
        };
        if ["yes", "y", plain.0].contains(&t.as_str()) || t.eq_ignore_ascii_case(&words.yes) {
            Some(true)
        } else if ["no", "n", "stop", plain.1].contains(&t.as_str()) || t.eq_ignore_ascii_case(&words.no) {
            Some(false)
        } else {
            None
        }
    }

    /// `yes` or `no` to an offer that waits for an answer: `accept` or `decline`.
    pub(super) fn offer_answer(&self, text: &str) -> Option<Move> {
        if !matches!(self.state.stage, crate::engine::Stage::Respond) {
            return None;
        }
        match text.trim().to_ascii_lowercase().as_str() {
            "yes" | "y" => Some(Move::Accept),
            "no" | "n" => Some(Move::Decline),
            _ => None,
        }
    }

    /// A run of piece symbols typed where the next piece is chosen (`GGRRBBGG`): the rest of the order, read
    /// as the notation reads the drops of a whole ply (every piece, or the chosen ones only), all or nothing.
    /// `None` when `text` is not such a run (a single symbol is an ordinary choice).
    pub(super) fn drop_run(&mut self, text: &str) -> Option<Result<Output, SessionError>> {
        if !matches!(self.state.stage, crate::engine::Stage::Drop { .. }) || text.chars().count() < 2 {
            return None;
        }
        let symbols: Vec<&str> = self.engine.rules.kinds.iter().map(|k| k.symbol.as_str()).collect();
        // A hand holds at most 255 pieces: a longer run is no order of them (and is not searched).
        if text.len() > 255 || split_run(text.trim(), &symbols).is_none() {
            return None;
        }
        let start = self.partial_start.clone()?;
        let so_far = format_ply(&self.engine, &start, &self.partial);
        let glue = if so_far.contains(':') { "" } else { ":" };
        let whole = format!("{so_far}{glue}{}", text.trim());
        Some(match parse_ply(&self.engine, &start, &whole) {
            Ok(moves) => {
                self.cancel_partial();
                self.play_ply(moves)
            }
            Err(e) => Err(SessionError::Illegal(format!("`{}`: {e}", text.trim()))),
        })
    }

    /// Why a typed move was refused, in the player's words: the notation's reason, or that the pit is
    /// another player's, or the command it looks like (`mvoes`).
    pub(super) fn explain_refusal(&self, text: &str, reason: String) -> String {
        let word = text.trim();
        if let Some(command) = shadowed_command(word) {
            return format!("{reason} (`{word}` is a place here; the command is `{command}`)");
        }
        let head = word.split_whitespace().next().unwrap_or("");
        let bare = head.strip_suffix("ccw").or_else(|| head.strip_suffix("cw")).unwrap_or(head);
        let rules = &self.engine.rules;
        let pit = rules.places.iter().position(|p| p.is_pit && (p.label == head || p.label == bare));
        if let Some(p) = pit {
            let owner = self.state.owner.get(p).copied().unwrap_or(crate::ir::NO_PLAYER);
            let startable = self
                .start_options()
                .iter()
                .any(|(_, m)| matches!(m, Move::Begin { place, .. } if *place as usize == p));
            if owner != crate::ir::NO_PLAYER && owner != self.state.to_move && !startable {
                let names = self.seat_names();
                let whose = match names[owner as usize].as_str() {
                    "you" => "yours".to_string(),
                    name => format!("{name}'s"),
                };
                let mine = if names[self.state.to_move as usize] == "you" { "yours" } else { "theirs" };
                return format!("pit {} is not {mine}: it is {whose}", rules.places[p].label);
            }
        }
        let known = rules.places.iter().any(|p| p.label == head || p.label == bare);
        if !known && word.len() >= 3 && word.chars().all(|c| c.is_ascii_alphabetic()) {
            if let Some(command) = crate::diag::did_you_mean(word, COMMANDS.iter().copied()) {
                return format!("`{word}` is neither a move nor a command (did you mean `{command}`?)");
            }
        }
        reason
    }

    pub(super) fn decide(&mut self, mv: Move) -> Result<Output, SessionError> {
        let ply = self.state.ply;
        let first = self.partial.is_empty();
        if first {
            self.partial_start = Some(self.state.clone());
        }
        self.engine.apply(&mut self.state, mv).map_err(|e| SessionError::Illegal(e.to_string()))?;
        self.partial.push(mv);
        if self.state.ply == ply && !self.is_over() {
            if !self.human_to_move() {
                // The opponent, a computer seat, answers in the middle of the move (`opponent may`):
                // `computer_turns` takes the turn up.
                let who = self.seat_names().swap_remove(self.decider() as usize);
                let at = self.engine.rules.places.get(self.state.last as usize).map_or("?", |i| i.label.as_str());
                return Ok(Output::text(format!("{who} may answer at {at}")));
            }
            // The board is drawn again as a turn starts, with the pit chosen marked.
            return Ok(Output { text: self.asking(), board_changed: first, quit: false });
        }
        let before = self.partial_start.take().unwrap_or_else(|| self.state.clone());
        let mover = before.to_move;
        let moves = std::mem::take(&mut self.partial);
        let text = format_ply(&self.engine, &before, &moves);
        self.plies.push(PlyRecord { before, moves, text: text.clone(), mover });
        self.redo.clear();
        self.listing.clear();
        if self.seats.get(mover as usize) != Some(&Seat::Human) {
            // The ply of a computer seat, ended by a person's answer in it (`opponent may`).
            let who = self.seat_names().swap_remove(mover as usize);
            return Ok(Output::moved(format!("{who} ({}) played {text}: {}", self.seats[mover as usize], self.told())));
        }
        Ok(Output::moved(format!("played {text}: {}", self.told())))
    }

    /// What is said when a decision is asked for, besides the question the prompt asks: the rule's own
    /// sentence, where it has one.
    pub(super) fn asking(&self) -> String {
        self.question_doc().unwrap_or_default()
    }

    pub(super) fn cancel_partial(&mut self) {
        if let Some(start) = self.partial_start.take() {
            self.state = start;
        }
        self.partial.clear();
    }

    pub(super) fn choose(&mut self, n: usize) -> Result<Output, SessionError> {
        if self.is_over() {
            return Err(SessionError::GameOver);
        }
        if !self.partial.is_empty() {
            let options = self.decision_options();
            return match options.get(n - 1) {
                Some(&(_, mv)) => self.decide(mv),
                None => Err(SessionError::Usage(format!(
                    "there are {} choices; pick 1 to {}",
                    options.len(),
                    options.len()
                ))),
            };
        }
        if self.listing.is_empty() {
            self.list_moves();
        }
        match self.listing.get(n - 1).cloned() {
            Some(moves) if moves.len() == 1 && self.needs_more(&moves) => self.decide(moves[0]),
            Some(moves) => self.play_ply(moves),
            None => Err(SessionError::Usage(format!("there is no move {n}; `moves` lists {}", self.listing.len()))),
        }
    }

    /// Whether some pit is labelled with a number (as on a ring): a bare number is then always a pit.
    pub(super) fn pits_are_numbered(&self) -> bool {
        let rules = &self.engine.rules;
        rules
            .places
            .iter()
            .take(rules.n_pits)
            .any(|p| !p.label.is_empty() && p.label.bytes().all(|b| b.is_ascii_digit()))
    }

    /// Whether `text` is a move or a decision in its own right here (a pit of a numbered ring).
    pub(super) fn names_move(&self, text: &str) -> bool {
        if self.is_over() {
            return false;
        }
        self.decision_options().iter().any(|(label, _)| label == text)
            || (self.partial.is_empty() && parse_ply(&self.engine, &self.state, text).is_ok())
    }

    /// A listed first decision that does not finish the ply.
    pub(super) fn needs_more(&self, moves: &[Move]) -> bool {
        let mut probe = self.state.clone();
        let ply = probe.ply;
        moves.iter().all(|&m| self.engine.apply(&mut probe, m).is_ok()) && probe.ply == ply && probe.result.is_none()
    }

    /// The legal moves, numbered: whole plies when there are few, else the first decisions.
    pub(super) fn list_moves(&mut self) -> String {
        let listing = self.list_moves_plain();
        let count = if self.partial.is_empty() { self.listing.len() } else { self.decision_options().len() };
        if count > 0 && (self.pits_are_numbered() || (1..=count).any(|i| self.names_move(&i.to_string()))) {
            return format!("{listing}\n(a number alone is a pit here: type #3 to play the third)");
        }
        listing
    }

    pub(super) fn list_moves_plain(&mut self) -> String {
        if self.is_over() {
            return "the game is over".into();
        }
        if !self.partial.is_empty() {
            let labels = self.option_labels();
            return format!("{}:\n{}", self.decision_name(), numbered(&labels));
        }
        let found = enumerate_plies(&self.engine, &self.state, MAX_LISTED + 1);
        if found.plies.len() <= MAX_LISTED && !found.partial {
            let texts: Vec<String> = found.plies.iter().map(|p| format_ply(&self.engine, &self.state, p)).collect();
            self.listing = found.plies;
            return format!("legal moves:\n{}", numbered(&texts));
        }
        // Too many whole plies, or too many to search for: the first decisions are always known in full.
        let options = self.start_options();
        self.listing = options.iter().map(|(_, m)| vec![*m]).collect();
        let labels: Vec<String> = options.into_iter().map(|(l, _)| l).collect();
        let why = if found.partial {
            "the moves are too many to search through".to_string()
        } else {
            format!("more than {MAX_LISTED} moves")
        };
        format!("{why}; choose where to start (the rest is asked for):\n{}", numbered(&labels))
    }

    pub(super) fn start_options(&self) -> Vec<(String, Move)> {
        let mut moves = Vec::new();
        self.engine.legal_moves(&self.state, &mut moves);
        moves.into_iter().map(|m| (self.label(m), m)).collect()
    }

    /// The options of the current decision, each with the label a person types.
    pub(super) fn decision_options(&self) -> Vec<(String, Move)> {
        self.start_options()
    }

    pub(super) fn option_labels(&self) -> Vec<String> {
        self.decision_options().into_iter().map(|(l, _)| l).collect()
    }

    pub(super) fn decision_name(&self) -> String {
        use crate::engine::Stage;
        let can_stop = self.decision_options().iter().any(|&(_, m)| m == Move::Stop);
        if let Some(words) = crate::notation::answer_words(&self.engine, &self.state).filter(|w| w.named) {
            return format!("{} or {}", words.yes, words.no);
        }
        let name = match self.state.stage {
            Stage::Put { .. } if !can_stop => "next pit",
            Stage::Offer { .. } if !can_stop => "next pit to offer",
            Stage::Start => "move",
            Stage::Respond => "accept or decline the offer",
            Stage::Direction { .. } => "direction",
            Stage::SowFrom { .. } => "pit to sow",
            Stage::LapDirection { .. } => "direction of the next lap",
            Stage::Drop { .. } => "next piece",
            Stage::Take { .. } => "piece to take",
            Stage::Then { .. } => "pits to take (or stop)",
            Stage::Put { .. } => "next pit (or stop)",
            Stage::Offer { .. } => "next pit to offer (or stop)",
            Stage::Capture { .. } => "capture or not",
            Stage::Relay { .. } => "relay or stop",
            Stage::Answer { action, rule } if self.answer_picks(action, rule) => {
                "pit to answer from (or -answer to let it be)"
            }
            Stage::Answer { .. } => "answer the move or let it be",
            Stage::LiftPick { .. } => "pit to take from before the lap is lifted",
        };
        name.to_string()
    }

    /// The text of one decision.
    pub(super) fn label(&self, mv: Move) -> String {
        let rules = &self.engine.rules;
        let place = |p: u16| rules.places.get(p as usize).map_or_else(|| p.to_string(), |i| i.label.clone());
        match mv {
            Move::Begin { action, place: p } => {
                let actions = &self.engine.phase(&self.state).actions;
                if action == 0 {
                    place(p)
                } else {
                    format!("{} {}", actions.get(action as usize).map_or("?", |a| a.name.as_str()), place(p))
                }
            }
            Move::Pass => "pass".into(),
            Move::Accept => "accept".into(),
            Move::Decline => "decline".into(),
            Move::Direction(crate::ir::Dir::Cw) => "cw".into(),
            Move::Direction(crate::ir::Dir::Ccw) => "ccw".into(),
            Move::Drop(k) => rules.kinds.get(k as usize).map_or("?".into(), |k| k.symbol.clone()),
            Move::Take { place: p, kind } => {
                format!("{}{}", place(p), rules.kinds.get(kind as usize).map_or("?", |k| k.symbol.as_str()))
            }
            Move::Pick(p) => place(p),
            Move::Stop => "stop".into(),
            Move::Capture(yes) => self.answer_label(crate::notation::Question::Capture, yes),
            Move::Relay(yes) => self.answer_label(crate::notation::Question::Relay, yes),
            Move::Answer(true) => "answer".into(),
            Move::Answer(false) => "-answer".into(),
        }
    }

    /// Whether answer `rule` of sowing `action` takes from a pit the opponent chooses (`take { ... }` in
    /// `opponent may`): he is asked for the pit.
    fn answer_picks(&self, action: u8, rule: u8) -> bool {
        match self.engine.phase(&self.state).actions.get(action as usize).map(|a| &a.kind) {
            Some(crate::ir::ActionKind::Sow(s)) => s.answers.get(rule as usize).is_some_and(|a| a.pick.is_some()),
            _ => false,
        }
    }

    /// The word that answers a yes/no question: the rule file's, where the question at hand has them, else
    /// `relay` and `stop`, `x` and `-x`.
    pub(super) fn answer_label(&self, question: crate::notation::Question, yes: bool) -> String {
        use crate::notation::Question;
        match crate::notation::answer_words(&self.engine, &self.state) {
            Some(words) if words.named && words.question == question => words.word(yes).to_string(),
            _ => match (question, yes) {
                (Question::Relay, true) => "relay".into(),
                (Question::Relay, false) => "stop".into(),
                (Question::Capture, true) => "x".into(),
                (Question::Capture, false) => "-x".into(),
            },
        }
    }
}

/// The text without a final `take none`, and whether it had one.
pub(super) fn strip_take_none(text: &str) -> (&str, bool) {
    let trimmed = text.trim_end();
    let lower = trimmed.to_ascii_lowercase();
    match lower.strip_suffix("none").map(str::trim_end) {
        Some(rest) if rest.ends_with(" take") => (trimmed[..rest.len() - " take".len()].trim_end(), true),
        _ => (text, false),
    }
}

/// `a`, `a or b`, `a, b or c`.
pub(super) fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
    }
}

/// `text` as a run of piece symbols (`GGRRB`; symbols of any length, matched exactly or else ignoring
/// case), or `None`.
pub(super) fn split_run(text: &str, symbols: &[&str]) -> Option<Vec<u8>> {
    pub(super) fn go(text: &str, symbols: &[&str], fold: bool, out: &mut Vec<u8>) -> bool {
        if text.is_empty() {
            return true;
        }
        for (k, s) in symbols.iter().enumerate() {
            let fits = !s.is_empty()
                && text.len() >= s.len()
                && text.is_char_boundary(s.len())
                && if fold { text[..s.len()].eq_ignore_ascii_case(s) } else { &text[..s.len()] == *s };
            if fits {
                out.push(k as u8);
                if go(&text[s.len()..], symbols, fold, out) {
                    return true;
                }
                out.pop();
            }
        }
        false
    }
    let mut out = Vec::new();
    if go(text, symbols, false, &mut out) {
        return Some(out);
    }
    out.clear();
    go(text, symbols, true, &mut out).then_some(out)
}

pub(super) fn numbered(items: &[String]) -> String {
    items.iter().enumerate().map(|(i, s)| format!("{:>3}. {s}", i + 1)).collect::<Vec<_>>().join("\n")
}
