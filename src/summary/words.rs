//! The rules told in plain words, for a player (`rules` in the REPL).

use std::fmt::Write;

use super::{dir_word, ending_words, region_name, wrap};
use crate::engine::Engine;
use crate::ir::*;

/// A summary of the rules for a player, in plain words, wrapped to 78 columns.
pub fn summarize(engine: &Engine) -> String {
    summarize_width(engine, 78)
}

/// A solitaire's goal in one sentence ("You win when every pit holds no piece."), or `None` for a game
/// without one.
pub fn goal(engine: &Engine) -> Option<String> {
    let r = &engine.lowered;
    let w = Words { rules: r };
    let goal = r.goal.as_ref()?;
    Some(doc_or(&r.goal_doc, || format!("You win when {}.", w.cond(goal, Here::Each))))
}

/// A summary of the rules for a player, in plain words, wrapped to `width` columns. A rule with a sentence
/// of its own in the rule file (a `///` line before it) is told in that sentence.
pub fn summarize_width(engine: &Engine, width: usize) -> String {
    let r = &engine.lowered;
    let w = Words { rules: r };
    let width = width.clamp(30, 120);
    let mut out = String::new();
    let para = |out: &mut String, indent: usize, text: &str| {
        let _ = writeln!(out, "{}", wrap_indented(text, width, indent));
    };
    let item = |out: &mut String, text: &str| {
        let body = wrap_indented(text, width, 4);
        let _ = writeln!(out, "  -{}", &body[3..]);
    };
    let variant = if r.variant == "default" { String::new() } else { format!(" (variant {})", r.variant) };
    para(&mut out, 0, &format!("{}{variant}", r.game));
    if !r.about.is_empty() {
        para(&mut out, 0, &r.about);
    }
    para(&mut out, 0, "");
    para(&mut out, 0, &format!("{}. {}. {}.", w.players(), w.board(), w.pieces()));
    if !r.marks.is_empty() {
        para(&mut out, 0, &w.marks());
    }
    for phase in &r.phases {
        para(&mut out, 0, "");
        let title = if r.phases.len() > 1 {
            format!("Phase \"{}\". On your turn, do one of these:", phase.name)
        } else if phase.actions.len() + phase.pass.is_some() as usize > 1 {
            "On your turn, do one of these:".to_string()
        } else {
            "On your turn:".to_string()
        };
        para(&mut out, 0, &title);
        for action in &phase.actions {
            for (i, line) in w.action(action).iter().enumerate() {
                if i == 0 {
                    item(&mut out, line);
                } else {
                    let _ = writeln!(out, "{}", wrap_indented(line, width, 4));
                }
            }
        }
        if let Some(pass) = &phase.pass {
            let names: Vec<&str> =
                pass.unless.iter().filter_map(|&i| phase.actions.get(i as usize).map(|a| a.name.as_str())).collect();
            let text = doc_or(&pass.doc, || format!("Pass, only when you cannot {}.", or_list(&names)));
            item(&mut out, &text);
        }
        if !phase.prefer.is_empty() {
            let names: Vec<&str> =
                phase.prefer.iter().filter_map(|&i| phase.actions.get(i as usize).map(|a| a.name.as_str())).collect();
            para(&mut out, 2, &format!("Of {}, play the first you can.", or_list(&names)));
        }
        if let Some(m) = &phase.must {
            let otherwise = if m.otherwise_end { "the game ends" } else { "you may play any move" };
            para(
                &mut out,
                2,
                &doc_or(&m.doc, || {
                    format!(
                        "When {}, you must play so that {}; if you cannot, {otherwise}.",
                        w.cond(&m.when, Here::None),
                        w.cond(&m.after, Here::None)
                    )
                }),
            );
        }
        if let Some(a) = &phase.again {
            para(&mut out, 2, &doc_or(&phase.again_doc, || format!("You play again while {}.", w.cond(a, Here::None))));
        }
        if let Some(u) = &phase.until {
            para(&mut out, 2, &doc_or(&phase.until_doc, || format!("This phase ends when {}.", w.cond(u, Here::None))));
        }
        for line in w.end(&phase.end) {
            para(&mut out, 2, &line);
        }
    }
    let end = w.end(&r.end);
    if !end.is_empty() {
        para(&mut out, 0, "");
    }
    for line in end {
        para(&mut out, 0, &line);
    }
    if let Some(rounds) = &r.rounds {
        para(&mut out, 0, "");
        for line in w.rounds(rounds) {
            para(&mut out, 0, &line);
        }
    }
    match &r.goal {
        Some(goal) => para(&mut out, 0, &doc_or(&r.goal_doc, || format!("You win when {}.", w.cond(goal, Here::Each)))),
        None => {
            let ties = match r.ties {
                Ties::Draw => "a tie is a draw",
                Ties::Shared => "tied leaders share the win",
                Ties::LastMover => "a tie goes to the player who moved last",
            };
            let text = doc_or(&r.score_doc, || {
                let score = w.num(&r.score, Here::None).replace("the player's", "their");
                format!("Each player scores {score}; the highest score wins, {ties}.")
            });
            para(&mut out, 0, &text);
        }
    }
    out
}

/// What `here` stands for where a condition is told.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Here {
    /// No pit in view (end rules, scores).
    None,
    /// The pit where the sowing ended.
    Last,
    /// The pit being looked at (a filter, a chain, a quantifier).
    Each,
}

/// The rules told in words: `your store`, `the last pit holds exactly 1 seed`.
struct Words<'r> {
    rules: &'r Rules,
}

impl Words<'_> {
    fn players(&self) -> String {
        match self.rules.players {
            1 => "One player (a solitaire)".into(),
            n => format!("{n} players"),
        }
    }

    fn board(&self) -> String {
        match self.rules.shape {
            Shape::TwoRows { pits, stores } => {
                let stores = if stores { ", and a store at each player's right end" } else { "" };
                format!("The board has two rows of {pits} pits, one row for each player{stores}")
            }
            Shape::Ring { pits } => format!("The board is a ring of {pits} pits, numbered clockwise"),
            Shape::OneRow { pits, store } => {
                let store = if store { ", and a store at its right end that the sowing passes through" } else { "" };
                format!("The board is one row of {pits} pits, numbered from the left{store}")
            }
            Shape::ThreeRows { pits } => format!(
                "The board has three rows of {pits} pits: each player owns the row nearest him and the right half of the middle row as he sees it, and both sow round one circuit through all {} pits",
                3 * pits
            ),
            Shape::FourRows { pits } => format!(
                "The board has four rows of {pits} pits: each player owns the two rows on his side, the first nearest him, and sows only round his own {} pits",
                2 * pits
            ),
        }
    }

    fn pieces(&self) -> String {
        let kinds = &self.rules.kinds;
        let total = self.rules.total_pieces;
        if kinds.len() == 1 && kinds[0].owner == NO_PLAYER {
            return format!("There are {total} seeds, all alike");
        }
        if kinds.iter().all(|k| k.owner != NO_PLAYER) {
            let colours: Vec<String> =
                kinds.iter().map(|k| format!("player {} {} ({})", k.owner + 1, k.name, k.symbol)).collect();
            return format!("There are {total} balls, one colour for each player: {}", and_list(&colours));
        }
        // Kinds sharing a name are one class: `gems (1 to 5), worth 1 to 5`.
        let mut names: Vec<String> = Vec::new();
        let mut seen: Vec<&str> = Vec::new();
        for k in kinds {
            if seen.contains(&k.name.as_str()) {
                continue;
            }
            seen.push(&k.name);
            let class: Vec<_> = kinds.iter().filter(|o| o.name == k.name).collect();
            let symbols: Vec<String> = class.iter().map(|o| o.symbol.clone()).collect();
            let values: Vec<String> = class.iter().map(|o| o.value.to_string()).collect();
            let worth = if class.iter().all(|o| o.value == 1) {
                String::new()
            } else {
                format!(", worth {}", or_list(&values))
            };
            let name = if class.len() > 1 { format!("{}s", k.name) } else { k.name.clone() };
            names.push(format!("{name} (written {}){worth}", or_list(&symbols)));
        }
        format!("There are {total} pieces: {}", and_list(&names))
    }

    /// The lines of an action: what it does, then each of its rules.
    fn action(&self, action: &Action) -> Vec<String> {
        let mut lines = Vec::new();
        match &action.kind {
            ActionKind::Sow(s) => {
                lines.push(doc_or(&action.doc, || self.sowing(action, s)));
                for c in &s.lift_captures {
                    lines.push(doc_or(&c.doc, || self.lift_capture(c)));
                }
                for c in &s.drop_captures {
                    lines.push(doc_or(&c.doc, || self.drop_capture(c)));
                }
                if let Some(r) = &s.relay_may {
                    lines.push(format!(
                        "If {}, you may lift all the {} there and sow on from it, or stop.",
                        self.cond(r, Here::Last),
                        self.piece_word()
                    ));
                }
                if let Some(r) = &s.relay {
                    lines.push(doc_or(&s.relay_doc, || {
                        let (from, on) = if s.relay_next {
                            ("from the place after the last pit", "the place after that")
                        } else {
                            ("there", "it")
                        };
                        format!(
                            "If {}, lift all the {} {from} and sow on from {on}.",
                            self.cond(r, Here::Last),
                            self.piece_word()
                        )
                    }));
                }
                if let Some(r) = &s.require {
                    lines.push(doc_or(&s.require_doc, || {
                        format!("A sowing is allowed only if, at its end, {}.", self.cond(r, Here::Last))
                    }));
                }
                for c in &s.captures {
                    lines.push(doc_or(&c.doc, || self.capture(c)));
                }
                for c in &s.answers {
                    lines.push(doc_or(&c.doc, || self.answer(c)));
                }
                if let Some(a) = &s.again {
                    lines.push(doc_or(&s.again_doc, || format!("You move again if {}.", self.cond(a, Here::Last))));
                }
                if let Some(t) = &s.then {
                    lines.push(doc_or(&t.doc, || {
                        let how = if t.must { "must" } else { "may" };
                        let filter = if matches!(t.filter, Cond::True) {
                            String::new()
                        } else {
                            format!(" where {}", self.cond(&t.filter, Here::Each))
                        };
                        format!(
                            "Afterwards you {how} take the {} of any of {}{filter} to {}.",
                            self.kinds(&t.kinds),
                            self.set(&t.set),
                            self.place(&t.to, Here::Each)
                        )
                    }));
                }
                for t in &s.then_marks {
                    lines.push(doc_or(&t.doc, || {
                        let filter = if matches!(t.filter, Cond::True) {
                            String::new()
                        } else {
                            format!(" where {}", self.cond(&t.filter, Here::Each))
                        };
                        let whose = t.player.as_ref().map_or(String::new(), |w| format!(" for {}", self.player(w)));
                        format!(
                            "As the move ends, {}{filter} become {}{whose}.",
                            self.set(&t.set),
                            self.mark_name(t.mark)
                        )
                    }));
                }
            }
            ActionKind::Put(put) => lines.push(doc_or(&action.doc, || self.put(action, put))),
            ActionKind::Take(take) => lines.push(doc_or(&action.doc, || self.take_action(action, take))),
            ActionKind::Offer(o) => lines.push(doc_or(&action.doc, || self.offer(action, o))),
        }
        lines
    }

    fn sowing(&self, action: &Action, s: &Sow) -> String {
        let one_row = matches!(self.rules.shape, Shape::OneRow { .. });
        let dir = match s.dir {
            // On one row, counter-clockwise is left to right, toward the store, and round to the first pit.
            DirRule::Fixed(Dir::Ccw) if one_row => "to the right, round to the first pit after the last".to_string(),
            DirRule::Fixed(Dir::Cw) if one_row => "to the left, round to the last pit after the first".to_string(),
            DirRule::Fixed(Dir::Ccw) => "counter-clockwise".to_string(),
            DirRule::Fixed(Dir::Cw) => "clockwise".to_string(),
            DirRule::Choose => "either way round, as you choose".to_string(),
            DirRule::PerLap(usual) => format!(
                "{}, lap by lap; a lap may go {} instead, as you choose, when {} at its end",
                dir_word(usual),
                dir_word(usual.reverse()),
                s.lap_dir.as_ref().map_or("always".to_string(), |c| self.cond(c, Here::Last))
            ),
        };
        let filter = if matches!(s.filter, Cond::True) {
            String::new()
        } else {
            format!(" where {}", self.cond(&s.filter, Here::Each))
        };
        let mut text = format!(
            "{}: take all the {} of {}{filter} and sow them {dir}, one into each place in turn",
            capitalise(&action.name),
            self.piece_word(),
            self.one_of(&s.from)
        );
        if let Some(take) = &s.take_first {
            // A take before the sowing, in the same ply: told first.
            let first = self.take_action(action, take);
            let first = first.trim_end_matches(", without sowing.").to_string();
            let sowing = text.split_once(": ").map_or(text.as_str(), |(_, rest)| rest);
            text = format!("{first}; then {sowing}");
        }
        if s.order_chosen {
            text.push_str(if s.last_own {
                ", in an order you choose, your own colour last"
            } else {
                ", in an order you choose"
            });
        }
        if s.skip_origin {
            text.push_str(", skipping the pit they came from");
        }
        for (set, filter) in &s.from_else {
            let filter = if matches!(filter, Cond::True) {
                String::new()
            } else {
                format!(" where {}", self.cond(filter, Here::Each))
            };
            let _ = write!(text, "; only if none of those can, {}{filter}", self.one_of(set));
        }
        if let Some(c) = &s.dir_filter {
            let _ = write!(text, "; only in a direction where {}", self.cond(c, Here::Each));
        }
        if s.must_capture {
            text.push_str("; only in a direction whose first lap ends in a capture");
        }
        for l in &s.lifts {
            let what = singular(self.piece_word(), l.count as i32);
            let from = l.from.as_ref().map_or(String::new(), |p| format!(" from {}", self.place(p, Here::Each)));
            let when = match &l.when {
                Cond::True => String::new(),
                c => format!(" when {}", self.cond(c, Here::Each)),
            };
            let _ = write!(text, "; a lap lifts only {} {what}{from}{when}", l.count);
        }
        for m in (0..self.rules.marks.len()).filter(|m| s.skip_marks & (1 << m) != 0) {
            let _ = write!(text, ", passing over the pits marked {}", self.mark_name(m as MarkId));
        }
        if let Some(w) = &s.skip_where {
            let except = if w.except_last { " (but never the last)" } else { "" };
            let _ = write!(
                text,
                ", passing over each of {} where, as a piece comes to it, {}{except}",
                self.set(&w.set),
                self.cond(&w.cond, Here::Each)
            );
        }
        match &s.start_origin {
            Some(Cond::True) => text.push_str(", the first back into the pit they came from"),
            Some(c) => {
                let _ = write!(text, ", the first back into the pit they came from when {}", self.cond(c, Here::None));
            }
            None => {}
        }
        for step in &s.lift_steps {
            let _ = write!(text, "; as a pit is lifted, {}", self.step(step, Here::Each));
        }
        for (mark, to) in &s.divert {
            let _ = write!(
                text,
                "; a {} dropped into a pit marked {} goes on at once to {}",
                self.piece_word().trim_end_matches('s'),
                self.mark_name(*mark),
                self.place(to, Here::Each).replace("the pit's owner's", "its owner's")
            );
        }
        let skipped = self.skipped_places();
        if !skipped.is_empty() {
            let _ = write!(text, ", never into {}", skipped.join(" or "));
        }
        text.push('.');
        text
    }

    /// The places on the track that the first player's sowings pass over (`skip store(opponent)`), in his
    /// words: the skips are built into the per-mover tracks, so they are read back from there.
    fn skipped_places(&self) -> Vec<String> {
        let rules = self.rules;
        // `next[place]` is the first player's counter-clockwise step; every place he sows into follows one.
        let reached = |p: PlaceId| rules.track.iter().any(|&q| rules.next.get(q as usize) == Some(&p));
        rules
            .track
            .iter()
            .filter(|&&p| !reached(p))
            .map(|&p| {
                let info = &rules.places[p as usize];
                match info.owner {
                    _ if info.is_pit => info.label.clone(),
                    0 => format!("your {}", info.name),
                    _ if rules.players == 2 => format!("your opponent's {}", info.name),
                    _ => info.label.clone(),
                }
            })
            .collect()
    }

    fn capture(&self, c: &CaptureRule) -> String {
        let mut takes: Vec<String> = c.takes.iter().map(|t| self.take(t, Here::Last)).collect();
        for step in c.steps.iter().rev() {
            takes.insert((step.before as usize).min(takes.len()), self.step(&step.action, Here::Last));
        }
        let when = match c.when {
            Cond::True => "After every sowing".to_string(),
            ref when => format!("Capture: if {}", self.cond(when, Here::Last)),
        };
        let when = if c.may { format!("{when}, you may choose that") } else { when };
        let mut text = format!("{when}, {}", and_list(&takes));
        if let Some(chain) = &c.chain {
            let dir = match (chain.backward, chain.forward) {
                (true, true) => "on both sides of it",
                (true, false) => "before it",
                _ => "after it",
            };
            let _ = write!(
                text,
                "; then the same for each pit {dir}, one after another, while {}",
                self.cond(&chain.cond, Here::Each)
            );
        }
        if let Some(cancel) = &c.cancel {
            let _ = write!(text, "; but nothing is taken if, after it, {}", self.cond(cancel, Here::None));
        }
        if let Some(from) = &c.resow {
            let first = if c.resow_into { "itself" } else { "the pit after it" };
            let way = c.resow_dir.map_or(String::new(), |d| format!(", {}", dir_word(d)));
            let _ = write!(
                text,
                "; then sow them on as a new lap from {}{way}, the first into {first}",
                self.place(from, Here::Last)
            );
        }
        if let Some(at) = &c.go_on {
            let _ = write!(
                text,
                "; then go on as if the last {} had fallen in {}",
                self.piece_word().trim_end_matches('s'),
                self.place(at, Here::Last)
            );
        }
        text.push('.');
        text
    }

    /// A capture at every drop, in words: `Whenever a drop makes a pit hold 4, ...`.
    fn drop_capture(&self, c: &CaptureRule) -> String {
        let mut takes: Vec<String> = c.takes.iter().map(|t| self.take(t, Here::Each)).collect();
        for step in c.steps.iter().rev() {
            takes.insert((step.before as usize).min(takes.len()), self.step(&step.action, Here::Each));
        }
        let when = match c.when {
            Cond::True => "As each piece falls".to_string(),
            ref when => format!("As each piece falls, if then {}", self.cond(when, Here::Each)),
        };
        format!("{when}, {} at once.", and_list(&takes))
    }

    /// A capture at every lift in words: `As each lap is about to be lifted from a pit, if then ..., take ...`.
    /// `opponent may`: the opponent's answer where a lap ends without a capture.
    fn answer(&self, c: &CaptureRule) -> String {
        let mut takes: Vec<String> = c.takes.iter().map(|t| self.take(t, Here::Last)).collect();
        for step in c.steps.iter().rev() {
            takes.insert((step.before as usize).min(takes.len()), self.step(&step.action, Here::Last));
        }
        if let Some(t) = &c.pick {
            takes.push(format!("{} (a pit of his choice)", self.picked(t)));
        }
        let when = match c.when {
            Cond::True => "Where a lap ends without a capture".to_string(),
            ref when => format!("Where a lap ends without a capture and {}", self.cond(when, Here::Last)),
        };
        format!("{when}, your opponent may answer: {}; then your move goes on.", and_list(&takes))
    }

    fn lift_capture(&self, c: &CaptureRule) -> String {
        let mut takes: Vec<String> = c.takes.iter().map(|t| self.take(t, Here::Each)).collect();
        for step in c.steps.iter().rev() {
            takes.insert((step.before as usize).min(takes.len()), self.step(&step.action, Here::Each));
        }
        if let Some(t) = &c.pick {
            takes.push(format!("{} (a pit of your choice)", self.picked(t)));
        }
        let when = match c.when {
            Cond::True => "Before each lap is lifted from its pit".to_string(),
            ref when => format!("Before each lap is lifted from its pit, if {}", self.cond(when, Here::Each)),
        };
        format!("{when}, {}.", and_list(&takes))
    }

    /// The marks, each said once: the plain ones in one sentence (`Pits can be marked burnt and out.`), each
    /// with more to say in its own (`Pits can be marked raided, for the move that marks a pit only.`), so that
    /// what is said of one mark is never read of the marks listed beside it.
    fn marks(&self) -> String {
        let mut plain = Vec::new();
        let mut own = Vec::new();
        for m in &self.rules.marks {
            let per = if m.per_player { ", for one player" } else { "" };
            let ply = match (m.one_ply, m.plies) {
                (true, _) => ", for the move that marks a pit only".to_string(),
                (false, 0) => String::new(),
                (false, n) => format!(", for {n} plies (the move that marks a pit and the {} after it)", n - 1),
            };
            let empty = if m.until_empty { ", until its pit is emptied" } else { "" };
            if per.is_empty() && ply.is_empty() && empty.is_empty() {
                plain.push(m.name.clone());
            } else {
                own.push(format!("Pits can be marked {}{per}{ply}{empty}.", m.name));
            }
        }
        let mut said = Vec::new();
        if !plain.is_empty() {
            said.push(format!("Pits can be marked {}.", and_list(&plain)));
        }
        said.extend(own);
        let mut text = said.join(" ");
        let n = self.rules.n_pits;
        for (m, info) in self.rules.marks.iter().enumerate() {
            let Some(cells) = self.rules.setup_marks.get(m * n..m * n + n) else { continue };
            let marked: Vec<String> =
                (0..n).filter(|&p| cells[p] != UNMARKED).map(|p| self.rules.places[p].label.clone()).collect();
            if marked.len() == n {
                let _ = write!(text, " At the start every pit is {}.", info.name);
            } else if !marked.is_empty() {
                let _ = write!(
                    text,
                    " At the start {} {} {}.",
                    and_list(&marked),
                    if marked.len() == 1 { "is" } else { "are" },
                    info.name
                );
            }
        }
        text
    }

    fn mark_name(&self, m: MarkId) -> &str {
        self.rules.marks.get(m as usize).map_or("?", |m| m.name.as_str())
    }

    /// A capture's step; `here` is the pit the capture looks at (the last pit, or the pit a piece falls into
    /// or that is about to be lifted).
    fn step(&self, s: &MarkStep, here: Here) -> String {
        match s {
            MarkStep::Mark { place, mark, player } => {
                let whose = player.as_ref().map_or(String::new(), |w| format!("{} ", self.whose(w)));
                format!("{} becomes {whose}{}", self.place(place, here), self.mark_name(*mark))
            }
            MarkStep::Unmark { place, mark: Some(m) } => {
                format!("{} is no longer {}", self.place(place, here), self.mark_name(*m))
            }
            MarkStep::Unmark { place, mark: None } => format!("{} loses its marks", self.place(place, here)),
            MarkStep::UnmarkSet { set, mark: Some(m) } => {
                format!("each of {} is no longer {}", self.set(set), self.mark_name(*m))
            }
            MarkStep::UnmarkSet { set, mark: None } => format!("each of {} loses its marks", self.set(set)),
            MarkStep::Give { place, to } => {
                format!("{} becomes {}", self.place(place, here), self.whose_own(to))
            }
        }
    }

    /// `yours`, `your opponent's`.
    fn whose_own(&self, p: &PlayerExpr) -> String {
        match p {
            PlayerExpr::Mover => "yours".into(),
            other => self.whose(other),
        }
    }

    fn take(&self, t: &TakeRule, here: Here) -> String {
        let what = match (t.count, &t.kinds) {
            (None, KindSel::All) => format!("the {}", self.piece_word()),
            (None, k) => format!("the {}", self.kinds(k)),
            (Some(n), k) => format!("{n} {}", singular(&self.kinds(k), n as i32)),
        };
        let chosen = if t.chosen { ", chosen by you," } else { "" };
        let from: Vec<String> =
            t.from.iter().map(|g| and_list(&g.iter().map(|s| self.set_at(s, here)).collect::<Vec<_>>())).collect();
        let from = if from.is_empty() {
            self.place(&PlaceExpr::Here, here)
        } else {
            from.join(", or if there are none there, from ")
        };
        let from = match &t.filter {
            Some(c) => format!("{from} (those of them where {})", self.cond(c, Here::Each)),
            None => from,
        };
        let to = match &t.to {
            TakeTo::Place(p) => self.place(p, here),
            TakeTo::Each(s) => format!("each of {}", self.set(s)),
            TakeTo::Hand => "your hand".into(),
        };
        format!("{what}{chosen} from {from} go to {to}")
    }

    fn put(&self, action: &Action, put: &Put) -> String {
        let times = match (put.min_times, put.max_times) {
            (1, Some(1)) => String::new(),
            (a, Some(b)) if a == b => format!(", {a} times, each time into another pit"),
            (a, None) => format!(", {a} or more times, each time into another pit"),
            (a, Some(b)) => format!(", {a} to {b} times, each time into another pit"),
        };
        let filter = if matches!(put.filter, Cond::True) {
            String::new()
        } else {
            format!(" where {}", self.cond(&put.filter, Here::Each))
        };
        format!(
            "{}: put {} {} from {} into {}{filter}{times}.",
            capitalise(&action.name),
            put.count,
            singular(&self.kinds(&put.kinds), put.count as i32),
            self.place(&put.from, Here::None),
            self.one_of(&put.into)
        )
    }

    fn take_action(&self, action: &Action, take: &TakeAction) -> String {
        format!("{}: {}, without sowing.", capitalise(&action.name), self.picked(take))
    }

    /// `move N seeds of any of SET where C to PLACE`: a take of a chosen pit.
    fn picked(&self, take: &TakeAction) -> String {
        let filter = if matches!(take.filter, Cond::True) {
            String::new()
        } else {
            format!(" where {}", self.cond(&take.filter, Here::Each))
        };
        let what = match take.count {
            Some(n) => format!("{n} {}", singular(&self.kinds(&take.kinds), n as i32)),
            None => format!("all the {}", self.kinds(&take.kinds)),
        };
        format!("move {what} of {}{filter} to {}", self.one_of(&take.from), self.place(&take.to, Here::Each))
    }

    fn offer(&self, action: &Action, o: &Offer) -> String {
        let count = if o.min == o.max { o.min.to_string() } else { format!("{} to {}", o.min, o.max) };
        let mut text = format!("{}: offer {count} of {}", capitalise(&action.name), self.set(&o.from));
        if o.keeping > 0 {
            let _ = write!(text, ", keeping at least {}", o.keeping);
        }
        if !o.requires.is_empty() {
            let requires: Vec<String> = o.requires.iter().map(|c| self.cond(c, Here::None)).collect();
            let _ = write!(text, ", only if {}", and_list(&requires));
        }
        let effects: Vec<String> = o
            .on_accept
            .iter()
            .map(|e| match e {
                Effect::Take(t) => self.take(t, Here::None),
                Effect::GiveOffered(who) => format!("the offered pits become {}", self.whose(who)),
            })
            .collect();
        let _ = write!(text, ". Your opponent accepts or declines; if accepted, {}.", and_list(&effects));
        text
    }

    /// A refill that deals the pits anew (`claim from START`), in words.
    fn claim(&self, r: &Refill, start: &PlaceExpr) -> String {
        let way = if r.backward { "against the sowing track" } else { "along the sowing track" };
        let nobody = r.mark.map_or(String::new(), |m| format!(" and are marked {}", self.mark_name(m)));
        format!(
            "For the next round, the pits are dealt anew: each player in turn goes {way} from {}, and fills each of {} that nobody has taken yet with {} {} taken from {}, while it has enough; the pits a player fills are theirs for the round, and those nobody fills belong to nobody{nobody}.",
            self.place(start, Here::Each),
            self.set(&r.set),
            r.count,
            self.piece_word(),
            self.place(&r.from, Here::Each)
        )
    }

    /// A match of rounds in words: what happens when the end rules end a round.
    fn rounds(&self, rounds: &RoundRules) -> Vec<String> {
        let mut lines = vec![
            "The game is a match of rounds: when the end rules end a round, it is scored as a game would be, and its winner noted.".to_string(),
        ];
        for (i, r) in rounds.refills.iter().enumerate() {
            let doc = rounds.refill_docs.get(i).cloned().flatten();
            lines.push(doc_or(&doc, || {
                let borrow = r.borrow.as_ref().map_or(String::new(), |(most, lender)| {
                    format!(
                        " A player whose {} lack at most {most} for one more pit fills it all the same, the {} he lacks taken from {}.",
                        self.piece_word(),
                        self.piece_word(),
                        self.place(lender, Here::Each)
                    )
                });
                if let Some(start) = &r.claim {
                    return self.claim(r, start) + &borrow;
                }
                let order = if r.backward { "from the highest number down" } else { "from number 1 up" };
                let mark = r.mark.map_or(String::new(), |m| {
                    format!("; a pit that cannot be filled is marked {} for the round, a filled one loses the mark", self.mark_name(m))
                });
                format!(
                    "For the next round, each player fills each of {} ({order}) with {} {} taken from {}, while it has enough{mark}.{borrow}",
                    self.set(&r.set),
                    r.count,
                    self.piece_word(),
                    self.place(&r.from, Here::Each)
                )
            }));
        }
        if let Some(c) = &rounds.match_when {
            lines.push(doc_or(&rounds.match_doc, || {
                format!("After the refill, the match is over when {}.", self.cond(c, Here::None))
            }));
        }
        if let Some(n) = rounds.limit {
            lines.push(format!("The match is over after {n} rounds."));
        }
        lines.push(doc_or(&rounds.first_doc, || {
            match rounds.first {
                FirstRule::Winner => "The winner of a round starts the next; after a drawn round, the player after the one who started it.",
                FirstRule::Loser => "The loser of a round starts the next; after a drawn round, the player after the one who started it.",
                FirstRule::Alternate => "Each round is started by the player after the one who started the round before.",
            }
            .to_string()
        }));
        lines
    }

    fn end(&self, end: &EndRules) -> Vec<String> {
        let mut lines = Vec::new();
        for (i, item) in end.items.iter().enumerate() {
            let doc = end.docs.get(i).cloned().flatten();
            lines.push(doc_or(&doc, || match item {
                EndRule::When(c) => format!("The game ends when {}.", self.cond(c, Here::None)),
                EndRule::AtEveryLap(c) => {
                    format!("The game ends as soon as {}, even in the middle of a move.", self.cond(c, Here::None))
                }
                EndRule::Repetition => "The game ends when a position comes back.".into(),
                EndRule::Stuck => "The game ends when the player to move cannot move.".into(),
                EndRule::NobodyCanMove => "The game ends when nobody can move.".into(),
                EndRule::Draw { count, rounds } => format!(
                    "The game is drawn after {count} {} without a capture.",
                    if *rounds { "rounds" } else { "turns" }
                ),
                EndRule::Eliminate(c) => {
                    format!("A player is out when {}.", self.cond(c, Here::None).replace("the player's", "their"))
                }
                EndRule::EliminateStuck => "A player who cannot move is out.".into(),
                EndRule::Endless => "A move that would never end is a draw.".into(),
                EndRule::EliminateEndless => "A player whose move would never end is out.".into(),
                EndRule::CutEndless => "A move that would never end stops there, and play goes on.".into(),
                EndRule::DrawRepetition => "A position that comes back is a draw.".into(),
                EndRule::DrawWhen(c) => {
                    format!("The game ends in a draw, whatever the scores, when {}.", self.cond(c, Here::None))
                }
            }));
        }
        for (i, (set, to)) in end.sweeps.iter().enumerate() {
            let doc = end.sweep_docs.get(i).cloned().flatten();
            lines.push(doc_or(&doc, || {
                format!(
                    "When the game ends{}, the pieces left in each of {} go to {}.",
                    ending_words(end.sweep_after.get(i).copied().flatten()),
                    self.set(set),
                    self.place(to, Here::Each)
                )
            }));
        }
        if let Some(limit) = end.limit {
            lines.push(format!("The game stops after {limit} plies."));
        }
        lines
    }

    fn piece_word(&self) -> &'static str {
        let kinds = &self.rules.kinds;
        if kinds.len() == 1 && kinds[0].owner == NO_PLAYER {
            "seeds"
        } else {
            "pieces"
        }
    }

    // ------------------------------------------------------------ conditions

    fn cond(&self, c: &Cond, here: Here) -> String {
        match c {
            Cond::True => "always".into(),
            Cond::And(cs) => and_list(&cs.iter().map(|c| self.cond(c, here)).collect::<Vec<_>>()),
            Cond::Or(cs) => or_list(&cs.iter().map(|c| self.cond(c, here)).collect::<Vec<_>>()),
            Cond::Not(c) => format!("not ({})", self.cond(c, here)),
            Cond::Cmp(a, op, b) => self.compare(a, *op, b, here),
            Cond::InInts(n, set) => {
                let ints: Vec<String> = set.iter().map(|i| i.to_string()).collect();
                match self.holder(n, here) {
                    Some((place, kinds)) => format!("{place} {} {} {kinds}", holds(&place), or_list(&ints)),
                    None => format!("{} is {}", self.num(n, here), or_list(&ints)),
                }
            }
            Cond::InSet(p, s) => format!("{} is {}", self.place(p, here), self.one_of(s)),
            Cond::HereOwnedBy(who) => {
                format!("{} is {}", self.place(&PlaceExpr::Here, here), self.one_of(&Set::PitsOf(who.clone())))
            }
            Cond::PlaceEq(a, b, eq) => {
                let verb = if *eq { "is" } else { "is not" };
                match a {
                    PlaceExpr::Last => {
                        format!("the sowing ends {} {}", if *eq { "in" } else { "elsewhere than" }, self.place(b, here))
                    }
                    _ => format!("{} {verb} {}", self.place(a, here), self.place(b, here)),
                }
            }
            Cond::PlayerEq(a, b, eq) => {
                format!("{} {} {}", self.player(a), if *eq { "is" } else { "is not" }, self.player(b))
            }
            Cond::Direction(d, eq) => {
                format!("the sowing goes {}{}", if *eq { "" } else { "other than " }, dir_word(*d))
            }
            Cond::Dropped(p, k, eq) => format!(
                "the last piece dropped into {} {} {}",
                self.place(p, here),
                if *eq { "is" } else { "is not" },
                article(&self.kinds_one(k))
            ),
            Cond::AllPits(s, c) => {
                subject(self.cond(c, Here::Each), "it ", &format!("each of {} ", self.set(s)), "for each of them, ")
            }
            Cond::AnyPits(s, c) => {
                subject(self.cond(c, Here::Each), "it ", &format!("one of {} ", self.set(s)), "for one of them, ")
            }
            Cond::AllPlayers(c) => {
                subject(self.cond(c, here), "the player's ", "every player's ", "for every player, ")
            }
            Cond::AnyPlayers(c) => subject(self.cond(c, here), "the player's ", "some player's ", "for some player, "),
            Cond::Compiled(_) => "a compiled condition".into(),
        }
    }

    /// A comparison; counts of one place against a number read as what the place holds.
    fn compare(&self, a: &Num, op: CmpOp, b: &Num, here: Here) -> String {
        // `N % 2 = 0` and `N % 2 = 1`: the way a rule says even and odd.
        if let (Num::Rem(n, two), CmpOp::Eq | CmpOp::Ne, Some(r @ (0 | 1))) = (a, op, b.constant()) {
            if two.constant() == Some(2) {
                let even = (r == 0) == (op == CmpOp::Eq);
                return format!("{} is {}", self.num(n, here), if even { "even" } else { "odd" });
            }
        }
        if let (Some((place, kinds)), Num::Const(n)) = (self.holder(a, here), b) {
            let n = *n;
            let verb = holds(&place);
            let empty = if verb == "hold" { "are empty" } else { "is empty" };
            let not_empty = if verb == "hold" { "are not all empty" } else { "is not empty" };
            return match (op, n) {
                (CmpOp::Eq, 0) | (CmpOp::Le, 0) | (CmpOp::Lt, 1) if kinds == self.piece_word() => {
                    format!("{place} {empty}")
                }
                (CmpOp::Gt, 0) | (CmpOp::Ge, 1) | (CmpOp::Ne, 0) if kinds == self.piece_word() => {
                    format!("{place} {not_empty}")
                }
                (CmpOp::Eq, 0) | (CmpOp::Le, 0) => format!("{place} {verb} no {kinds}"),
                (CmpOp::Gt, 0) => format!("{place} {verb} at least 1 {}", singular(&kinds, 1)),
                (CmpOp::Eq, n) => format!("{place} {verb} exactly {n} {}", singular(&kinds, n)),
                (CmpOp::Ne, n) => format!("{place} {verb} other than {n} {kinds}"),
                (CmpOp::Ge, n) => format!("{place} {verb} at least {n} {}", singular(&kinds, n)),
                (CmpOp::Gt, n) => format!("{place} {verb} more than {n} {kinds}"),
                (CmpOp::Le, n) => format!("{place} {verb} at most {n} {}", singular(&kinds, n)),
                (CmpOp::Lt, n) => format!("{place} {verb} fewer than {n} {kinds}"),
            };
        }
        let op = match op {
            CmpOp::Eq => "is",
            CmpOp::Ne => "is not",
            CmpOp::Lt => "is less than",
            CmpOp::Le => "is at most",
            CmpOp::Gt => "is more than",
            CmpOp::Ge => "is at least",
        };
        format!("{} {op} {}", self.num(a, here), self.num(b, here))
    }

    /// For a count of the pieces of one place or set: the place in words, and the pieces counted.
    fn holder(&self, n: &Num, here: Here) -> Option<(String, String)> {
        match n {
            Num::HereCount => Some((self.place(&PlaceExpr::Here, here), self.piece_word().into())),
            Num::PlaceCount(p) => Some((self.place(p, here), self.piece_word().into())),
            Num::PitsCount(who) => Some((self.set(&Set::PitsOf(who.clone())), self.piece_word().into())),
            Num::Count(s, k) => Some((self.set_at(s, here), self.kinds(k))),
            Num::Before(p) => Some((format!("{} (before the drop)", self.place(p, here)), self.piece_word().into())),
            _ => None,
        }
    }

    fn num(&self, n: &Num, here: Here) -> String {
        match n {
            Num::Const(v) => v.to_string(),
            Num::Count(s, k) => format!("the number of {} in {}", self.kinds(k), self.set_at(s, here)),
            Num::Value(s) => format!("the value of the pieces in {}", self.set_at(s, here)),
            Num::Before(p) => format!("the number of pieces in {} before the drop", self.place(p, here)),
            Num::Size(Set::Offered) => "the number of pits offered".into(),
            Num::Size(s) => format!("the number of {}", self.set(s)),
            Num::SizeWhere(s, c) => format!("the number of {} where {}", self.set(s), self.cond(c, Here::Each)),
            Num::Seat(p) => format!("the seat of {} (1 for the first to move)", self.player(p)),
            Num::Add(ns) => ns.iter().map(|n| self.operand(n, 1, here)).collect::<Vec<_>>().join(" plus "),
            Num::Mul(ns) => ns.iter().map(|n| self.operand(n, 2, here)).collect::<Vec<_>>().join(" times "),
            Num::HereCount => format!("the number of {} in {}", self.piece_word(), self.place(&PlaceExpr::Here, here)),
            Num::PlaceCount(p) => format!("the number of {} in {}", self.piece_word(), self.place(p, here)),
            Num::PitsCount(who) => {
                format!("the number of {} in {}", self.piece_word(), self.set(&Set::PitsOf(who.clone())))
            }
            Num::Lap => "the number of the lap (1 for the first)".into(),
            Num::Round => "the number of the round (1 for the first)".into(),
            Num::Passed(p) => format!("1 if a piece fell into {} this turn (else 0)", self.place(p, here)),
            Num::Captures(p) => format!("the number of {} turns that made a capture", self.whose(p)),
            Num::Moves(p) => format!("the number of {} turns so far", self.whose(p)),
            Num::Number(p) => format!("the number of {} in its row", self.place(p, here)),
            Num::Lifted => format!("the number of {} lifted", self.piece_word()),
            Num::Sub(a, b) => format!("{} minus {}", self.operand(a, 1, here), self.operand(b, 2, here)),
            Num::Div(a, b) => {
                format!("{} divided by {} (rounded down)", self.operand(a, 2, here), self.operand(b, 3, here))
            }
            Num::Rem(a, b) => {
                format!("the remainder of {} divided by {}", self.operand(a, 2, here), self.operand(b, 3, here))
            }
        }
    }

    /// A number as the operand of `plus`/`minus` (level 1) or `times`/`divided by` (level 2), in parentheses
    /// where the words alone would group it otherwise.
    fn operand(&self, n: &Num, level: u8, here: Here) -> String {
        let binds = match n {
            Num::Add(_) | Num::Sub(..) => 1,
            Num::Mul(_) | Num::Div(..) | Num::Rem(..) => 2,
            _ => 3,
        };
        if binds < level {
            format!("({})", self.num(n, here))
        } else {
            self.num(n, here)
        }
    }

    fn place(&self, p: &PlaceExpr, here: Here) -> String {
        match p {
            PlaceExpr::Here => match here {
                Here::Last => "the last pit".into(),
                Here::Each => "it".into(),
                Here::None => "the pit".into(),
            },
            PlaceExpr::Last => "the place where the sowing ended".into(),
            PlaceExpr::Origin => "the pit sown from".into(),
            PlaceExpr::Opposite(p) => match **p {
                PlaceExpr::Here => "the pit opposite".into(),
                ref q => format!("the pit opposite {}", self.place(q, here)),
            },
            PlaceExpr::Fixed(i) => match self.rules.places.get(*i as usize) {
                Some(place) if !place.is_pit => format!("the {}", place.label),
                Some(place) => place.label.clone(),
                None => "?".into(),
            },
            PlaceExpr::OfPlayer(base, who) => {
                let name = self.rules.places.get(*base as usize).map_or("?", |i| i.name.as_str());
                format!("{} {name}", self.whose(who))
            }
            PlaceExpr::Twin(p) => format!("the pit of the same number as {} on the other side", self.place(p, here)),
            PlaceExpr::RegionPit(id, who) => format!("{} {}", self.whose(who), region_name(self.rules, *id)),
            PlaceExpr::Next(p, ..) => format!("the place after {}", self.place(p, here)),
            PlaceExpr::Previous(p, ..) => format!("the place before {}", self.place(p, here)),
            PlaceExpr::Start => "the pit the move began from".into(),
            PlaceExpr::Behind(p) => format!("the pit behind {}", self.place(p, here)),
            PlaceExpr::Ahead(p) => format!("the pit in front of {}", self.place(p, here)),
        }
    }

    fn set(&self, s: &Set) -> String {
        self.set_at(s, Here::None)
    }

    fn set_at(&self, s: &Set, here: Here) -> String {
        match s {
            Set::AllPits => "the pits".into(),
            Set::PitsOf(who) => format!("{} pits", self.whose(who)),
            Set::Offered => "the offered pits".into(),
            Set::One(p) => self.place(p, here),
            Set::EveryPlayer(base) => {
                let name = self.rules.places.get(*base as usize).map_or("?", |i| i.name.as_str());
                format!("every player's {name}")
            }
            Set::Facing(p) => format!("the pits facing {}", self.place(p, here)),
            Set::Region(id) => format!("the {} pits", region_name(self.rules, *id)),
            Set::RegionOf(id, who) => format!("{} {} pits", self.whose(who), region_name(self.rules, *id)),
            Set::Marked(m, None) => format!("the pits marked {}", self.mark_name(*m)),
            Set::Marked(m, Some(who)) => format!("the pits marked {} for {}", self.mark_name(*m), self.player(who)),
            Set::Threats(who) => {
                format!(
                    "the pits that the first capture of each move {} could make now would take from",
                    self.player(who)
                )
            }
            Set::TakenFirst => "the pits this move's first capture took from".into(),
        }
    }

    /// `one of your pits`, `any pit`.
    fn one_of(&self, s: &Set) -> String {
        match s {
            Set::AllPits => "any pit".into(),
            s => format!("one of {}", self.set(s)),
        }
    }

    fn player(&self, p: &PlayerExpr) -> String {
        match p {
            PlayerExpr::Mover => "you".into(),
            PlayerExpr::Opponent => "your opponent".into(),
            PlayerExpr::Bound => "the player".into(),
            PlayerExpr::Owner(p) => match **p {
                PlaceExpr::Here => "the pit's owner".into(),
                ref q => format!("the owner of {}", self.place(q, Here::None)),
            },
        }
    }

    /// `your`, `your opponent's`, `their owner's`.
    fn whose(&self, p: &PlayerExpr) -> String {
        match p {
            PlayerExpr::Mover => "your".into(),
            PlayerExpr::Opponent => "your opponent's".into(),
            PlayerExpr::Bound => "the player's".into(),
            PlayerExpr::Owner(p) => match **p {
                PlaceExpr::Here => "its owner's".into(),
                ref q => format!("the owner of {}'s", self.place(q, Here::None)),
            },
        }
    }

    fn kinds(&self, k: &KindSel) -> String {
        match k {
            KindSel::All => self.piece_word().into(),
            KindSel::Own => "balls of your colour".into(),
            KindSel::Foreign => "balls of other colours".into(),
            KindSel::Colour(who) => format!("balls of {} colour", self.whose(who)),
            KindSel::Mask(_) => format!("{}s", self.kinds_one(k)),
        }
    }

    /// One piece of the kinds: `a stone`, `a gem`, `a gem of 5`.
    fn kinds_one(&self, k: &KindSel) -> String {
        match k {
            KindSel::Mask(m) => {
                let kinds = &self.rules.kinds;
                let chosen: Vec<usize> = (0..kinds.len()).filter(|i| m & (1u64 << i) != 0).collect();
                let mut names: Vec<String> = Vec::new();
                for &i in &chosen {
                    let whole = kinds
                        .iter()
                        .enumerate()
                        .filter(|(_, o)| o.name == kinds[i].name)
                        .all(|(j, _)| chosen.contains(&j));
                    let name =
                        if whole { kinds[i].name.clone() } else { format!("{} of {}", kinds[i].name, kinds[i].value) };
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                or_list(&names)
            }
            k => self.kinds(k),
        }
    }
}

/// The rule file's own sentence for a rule, else the generated words.
fn doc_or(doc: &Option<String>, words: impl FnOnce() -> String) -> String {
    match doc {
        Some(d) if !d.trim().is_empty() => d.trim().to_string(),
        _ => words(),
    }
}

/// `holds` or `hold`, as the place is one or several.
fn holds(place: &str) -> &'static str {
    if place.ends_with("pits") {
        "hold"
    } else {
        "holds"
    }
}

/// The kinds for a count of `n`: `1 ball of your colour`, `2 balls of your colour`.
fn singular(kinds: &str, n: i32) -> String {
    let (first, rest) = kinds.split_once(' ').map_or((kinds, ""), |(f, r)| (f, r));
    match (n, first.strip_suffix('s')) {
        (1, Some(one)) if rest.is_empty() => one.to_string(),
        (1, Some(one)) => format!("{one} {rest}"),
        _ => kinds.to_string(),
    }
}

/// `a stone`, `an egg`.
fn article(noun: &str) -> String {
    let an = noun.starts_with(|c: char| "aeiou".contains(c));
    format!("{} {noun}", if an { "an" } else { "a" })
}

/// A quantified condition with its subject put first where the words allow (`each of the pits holds ...`),
/// else after a lead-in (`for each of them, ...`).
fn subject(words: String, placeholder: &str, subject: &str, lead: &str) -> String {
    match words.strip_prefix(placeholder) {
        Some(rest) if !rest.contains(placeholder.trim_end()) => format!("{subject}{rest}"),
        _ => format!("{lead}{words}"),
    }
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn and_list(items: &[String]) -> String {
    joined(items, "and")
}

fn or_list<S: AsRef<str>>(items: &[S]) -> String {
    let items: Vec<String> = items.iter().map(|s| s.as_ref().to_string()).collect();
    joined(&items, "or")
}

fn joined(items: &[String], word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

/// Text wrapped to `width`, every line indented by `indent` (the first included).
fn wrap_indented(text: &str, width: usize, indent: usize) -> String {
    let pad = " ".repeat(indent);
    wrap(text, width.saturating_sub(indent).max(20)).lines().map(|l| format!("{pad}{l}")).collect::<Vec<_>>().join("\n")
}
