//! The full dump of the lowered rules: every part, one per line, conditions in the language's own syntax.

use std::fmt::Write;

use super::{dir_short, dir_word, ending_words, op_text, region_name};
use crate::ir::*;

/// Every part of the lowered rules, one per line: for snapshot tests and `--dump`.
pub fn dump(rules: &Rules) -> String {
    let p = Printer { rules };
    let mut out = String::new();
    let _ = writeln!(out, "game {:?} variant {:?} players {}", rules.game, rules.variant, rules.players);
    let _ = writeln!(out, "board {}", p.board());
    let _ = writeln!(out, "pieces {}", p.pieces());
    for m in &rules.marks {
        let per = if m.per_player { " per player" } else { "" };
        let ply = match (m.one_ply, m.plies) {
            (true, _) => " for one ply".to_string(),
            (false, 0) => String::new(),
            (false, n) => format!(" for {n} plies"),
        };
        let empty = if m.until_empty { " until empty" } else { "" };
        let _ = writeln!(out, "mark {}{per}{ply}{empty}", m.name);
    }
    let labels: Vec<&str> = rules.places.iter().map(|i| i.label.as_str()).collect();
    let _ = writeln!(out, "places {}", labels.join(" "));
    let track: Vec<&str> = rules.track.iter().map(|&i| p.place_label(i)).collect();
    let _ = writeln!(out, "track ccw {}", track.join(" "));
    for region in &rules.regions {
        let pits = |mask: PitSet| -> String {
            let labels: Vec<&str> = pits_of(mask).map(|p| rules.places[p as usize].label.as_str()).collect();
            labels.join(" ")
        };
        let parts: Vec<String> = region.masks.iter().map(|&m| pits(m)).collect();
        let per = if region.per_player { " per player" } else { "" };
        let _ = writeln!(out, "region {}{per}: {}", region.name, parts.join(" | "));
    }
    let setup: Vec<String> = (0..rules.places.len())
        .filter_map(|i| {
            let k = rules.kinds.len().max(1);
            let cells = &rules.setup[i * k..i * k + k];
            (cells.iter().any(|&c| c > 0)).then(|| format!("{}={}", rules.places[i].label, p.contents(cells)))
        })
        .collect();
    let _ = writeln!(out, "setup {}", setup.join(" "));
    if !rules.setup_marks.is_empty() {
        let n = rules.n_pits;
        let marked: Vec<String> = (0..rules.setup_marks.len())
            .filter(|&i| rules.setup_marks[i] != UNMARKED)
            .map(|i| {
                let name = rules.marks.get(i / n).map_or("?", |m| m.name.as_str());
                format!("{}={name}", rules.places[i % n].label)
            })
            .collect();
        let _ = writeln!(out, "setup marks {}", marked.join(" "));
    }
    let _ = writeln!(out, "needs {:?} limit {}", rules.needs, rules.limit);
    for phase in &rules.phases {
        let _ = writeln!(out, "phase {}", phase.name);
        for action in &phase.actions {
            let _ = writeln!(out, "{}", p.action(action));
        }
        if let Some(pass) = &phase.pass {
            let _ = writeln!(out, "  pass unless actions {:?}", pass.unless);
        }
        if !phase.prefer.is_empty() {
            let _ = writeln!(out, "  prefer actions {:?}", phase.prefer);
        }
        if let Some(m) = &phase.must {
            let _ = writeln!(
                out,
                "  must {} when {} else {}",
                p.cond(&m.after),
                p.cond(&m.when),
                if m.otherwise_end { "end" } else { "any" }
            );
        }
        if let Some(a) = &phase.again {
            let _ = writeln!(out, "  again when {}", p.cond(a));
        }
        if let Some(u) = &phase.until {
            let _ = writeln!(out, "  until {}", p.cond(u));
        }
        out.push_str(&p.end(&phase.end, "  "));
    }
    out.push_str(&p.end(&rules.end, ""));
    if let Some(rounds) = &rules.rounds {
        out.push_str(&p.rounds(rounds));
    }
    let _ = writeln!(out, "score {} ties {:?}", p.num(&rules.score), rules.ties);
    if let Some(g) = &rules.goal {
        let _ = writeln!(out, "goal {}", p.cond(g));
    }
    out
}

struct Printer<'r> {
    rules: &'r Rules,
}

impl Printer<'_> {
    fn board(&self) -> String {
        match self.rules.shape {
            Shape::TwoRows { pits, stores } => {
                let stores = if stores { ", with a store at each player's right end" } else { "" };
                format!("two rows of {pits} pits{stores}")
            }
            Shape::Ring { pits } => format!("a ring of {pits} pits, numbered clockwise"),
            Shape::OneRow { pits, store } => {
                format!("one row of {pits} pits{}", if store { ", with a store at its right end" } else { "" })
            }
            Shape::ThreeRows { pits } => {
                format!("three rows of {pits} pits, a row and half the middle row for each player, one circuit")
            }
            Shape::FourRows { pits } => format!("four rows of {pits} pits, two for each player, a circuit each"),
        }
    }

    fn pieces(&self) -> String {
        let kinds = &self.rules.kinds;
        if kinds.len() == 1 && kinds[0].owner == NO_PLAYER {
            return "plain seeds".into();
        }
        kinds
            .iter()
            .map(|k| {
                let value =
                    if k.value != 1 && k.owner == NO_PLAYER { format!(" worth {}", k.value) } else { String::new() };
                let owner = if k.owner != NO_PLAYER { format!(" of player {}", k.owner + 1) } else { String::new() };
                format!("{} \"{}\"{value}{owner}", k.name, k.symbol)
            })
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn contents(&self, cells: &[u8]) -> String {
        if cells.len() == 1 {
            return cells[0].to_string();
        }
        cells
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(k, &c)| format!("{c}{}", self.rules.kinds[k].symbol))
            .collect::<Vec<_>>()
            .join("+")
    }

    fn place_label(&self, p: PlaceId) -> &str {
        self.rules.places.get(p as usize).map_or("?", |i| i.label.as_str())
    }

    fn action(&self, action: &Action) -> String {
        let mut out = String::new();
        match &action.kind {
            ActionKind::Sow(s) => {
                let dir = match s.dir {
                    DirRule::Fixed(Dir::Ccw) => "counter-clockwise".to_string(),
                    DirRule::Fixed(Dir::Cw) => "clockwise".to_string(),
                    DirRule::Choose => "either way, as the mover chooses".to_string(),
                    DirRule::PerLap(usual) => format!(
                        "each lap {}, or {} as the mover chooses when then {}",
                        dir_word(usual),
                        dir_word(usual.reverse()),
                        s.lap_dir.as_ref().map_or("always".to_string(), |c| self.cond(c))
                    ),
                };
                let filter = if matches!(s.filter, Cond::True) {
                    String::new()
                } else {
                    format!(" where {}", self.cond(&s.filter))
                };
                let _ = write!(out, "  - {}: sow from {}{filter}, {dir}", action.name, self.set(&s.from));
                if let Some(t) = &s.take_first {
                    let count = t.count.map_or("all".to_string(), |n| n.to_string());
                    let _ =
                        write!(out, ", after a take of {count} from {} to {}", self.set(&t.from), self.place(&t.to));
                }
                if s.order_chosen {
                    out.push_str(if s.last_own {
                        ", in an order the mover chooses with his own colour last"
                    } else {
                        ", in an order the mover chooses"
                    });
                }
                if s.skip_origin {
                    out.push_str(", skipping the pit sown from");
                }
                for (set, filter) in &s.from_else {
                    let _ = write!(out, "\n      else from {} where {}", self.set(set), self.cond(filter));
                }
                if let Some(c) = &s.dir_filter {
                    let _ = write!(out, "\n      only the ways where {}", self.cond(c));
                }
                if s.must_capture {
                    out.push_str("\n      only the ways whose first lap captures");
                }
                for l in &s.lifts {
                    let from = l.from.as_ref().map_or(String::new(), |p| format!(" from {}", self.place(p)));
                    let _ = write!(out, "\n      lift {}{from} when {}", l.count, self.cond(&l.when));
                }
                if let Some(r) = &s.relay_may {
                    let _ = write!(out, "\n      relay if the mover wants when {}", self.cond(r));
                }
                for m in (0..self.rules.marks.len()).filter(|m| s.skip_marks & (1 << m) != 0) {
                    let _ = write!(out, ", skipping pits marked {}", self.mark_name(m as MarkId));
                }
                if let Some(w) = &s.skip_where {
                    let except = if w.except_last { " except last" } else { "" };
                    let _ = write!(out, "\n      skip {} where {}{except}", self.set(&w.set), self.cond(&w.cond));
                }
                if let Some(c) = &s.start_origin {
                    let _ = write!(out, "\n      start at origin when {}", self.cond(c));
                }
                for (mark, to) in &s.divert {
                    let _ = write!(out, "\n      divert {} to {}", self.mark_name(*mark), self.place(to));
                }
                for step in &s.lift_steps {
                    let _ = write!(out, "\n      on lifting: {}", self.step(step));
                }
                if let Some(r) = &s.relay {
                    let what = if s.relay_next { "the pit after the last" } else { "the last pit" };
                    let _ = write!(out, "\n      relay: lift {what} and sow on when {}", self.cond(r));
                }
                if let Some(r) = &s.require {
                    let _ = write!(out, "\n      allowed only if {}", self.cond(r));
                }
                let lifts = s.lift_captures.iter().map(|c| (c, " at every lift"));
                let drops = lifts.chain(s.drop_captures.iter().map(|c| (c, " at every drop")));
                let answers = s.answers.iter().map(|c| (c, " (the opponent's answer)"));
                for (c, at) in drops.chain(s.captures.iter().map(|c| (c, ""))).chain(answers) {
                    let mut takes: Vec<String> = c.takes.iter().map(|t| self.take(t)).collect();
                    for step in c.steps.iter().rev() {
                        takes.insert((step.before as usize).min(takes.len()), self.step(&step.action));
                    }
                    if let Some(t) = &c.pick {
                        takes.push(format!("{} (a pit chosen)", self.take_action(t)));
                    }
                    let may = if c.may { " may" } else { "" };
                    let _ = write!(out, "\n      capture{at}{may} when {}: {}", self.cond(&c.when), takes.join("; "));
                    if let Some(chain) = &c.chain {
                        let dir = match (chain.backward, chain.forward) {
                            (true, true) => "both ways",
                            (true, false) => "backward",
                            _ => "forward",
                        };
                        let _ = write!(out, "; then the same {dir} while {}", self.cond(&chain.cond));
                    }
                    if let Some(cancel) = &c.cancel {
                        let _ = write!(out, "; but nothing is taken if then {}", self.cond(cancel));
                    }
                    if let Some(from) = &c.resow {
                        let how = if c.resow_into { "into" } else { "from" };
                        let _ = write!(out, "; then sow the hand on {how} {}", self.place(from));
                        if let Some(d) = c.resow_dir {
                            let _ = write!(out, " {}", dir_short(d));
                        }
                    }
                    if let Some(at) = &c.go_on {
                        let _ = write!(out, "; then continue at {}", self.place(at));
                    }
                }
                if let Some(a) = &s.again {
                    let _ = write!(out, "\n      move again when {}", self.cond(a));
                }
                if let Some(t) = &s.then {
                    let how = if t.must { "must" } else { "may" };
                    let _ = write!(
                        out,
                        "\n      afterwards the mover {how} take the pits of {} where {} to {}",
                        self.set(&t.set),
                        self.cond(&t.filter),
                        self.place(&t.to)
                    );
                }
                for t in &s.then_marks {
                    let whose = t.player.as_ref().map_or(String::new(), |w| format!("({})", self.player(w)));
                    let _ = write!(
                        out,
                        "\n      then mark {} as {}{whose} where {}",
                        self.set(&t.set),
                        self.mark_name(t.mark),
                        self.cond(&t.filter)
                    );
                }
            }
            ActionKind::Put(put) => {
                let times = match (put.min_times, put.max_times) {
                    (1, Some(1)) => String::new(),
                    (a, Some(b)) if a == b => format!(", {a} times"),
                    (a, None) => format!(", {a} or more times"),
                    (a, Some(b)) => format!(", {a} to {b} times"),
                };
                let filter = if matches!(put.filter, Cond::True) {
                    String::new()
                } else {
                    format!(" where {}", self.cond(&put.filter))
                };
                let _ = write!(
                    out,
                    "  - {}: put {} {} from {} into {}{filter}{times}",
                    action.name,
                    put.count,
                    self.kinds(&put.kinds),
                    self.place(&put.from),
                    self.set(&put.into)
                );
            }
            ActionKind::Take(take) => {
                let _ = write!(out, "  - {}: {}", action.name, self.take_action(take));
            }
            ActionKind::Offer(o) => {
                let requires: Vec<String> = o.requires.iter().map(|c| self.cond(c)).collect();
                let _ = write!(
                    out,
                    "  - {}: offer {} to {} of {}, keeping {}",
                    action.name,
                    o.min,
                    o.max,
                    self.set(&o.from),
                    o.keeping
                );
                if !requires.is_empty() {
                    let _ = write!(out, ", only if {}", requires.join(" and "));
                }
                let effects: Vec<String> = o
                    .on_accept
                    .iter()
                    .map(|e| match e {
                        Effect::Take(t) => self.take(t),
                        Effect::GiveOffered(who) => format!("give offered to {}", self.player(who)),
                    })
                    .collect();
                let _ = write!(out, "\n      the opponent accepts or declines; on accept: {}", effects.join("; "));
            }
        }
        out
    }

    fn mark_name(&self, m: MarkId) -> &str {
        self.rules.marks.get(m as usize).map_or("?", |m| m.name.as_str())
    }

    fn step(&self, s: &MarkStep) -> String {
        match s {
            MarkStep::Mark { place, mark, player } => {
                let who = player.as_ref().map_or(String::new(), |w| format!("({})", self.player(w)));
                format!("mark {} as {}{who}", self.place(place), self.mark_name(*mark))
            }
            MarkStep::Unmark { place, mark } => {
                let name = mark.map_or(String::new(), |m| format!(" {}", self.mark_name(m)));
                format!("unmark {}{name}", self.place(place))
            }
            MarkStep::UnmarkSet { set, mark } => {
                let name = mark.map_or(String::new(), |m| format!(" {}", self.mark_name(m)));
                format!("unmark {}{name}", self.set(set))
            }
            MarkStep::Give { place, to } => format!("give {} to {}", self.place(place), self.player(to)),
        }
    }

    fn take(&self, t: &TakeRule) -> String {
        let count = t.count.map_or(String::new(), |c| format!("{c} "));
        let kinds = match &t.kinds {
            KindSel::All => String::new(),
            k => format!("{} ", self.kinds(k)),
        };
        let chosen = if t.chosen { "chosen " } else { "" };
        let from: Vec<String> =
            t.from.iter().map(|g| g.iter().map(|s| self.set(s)).collect::<Vec<_>>().join(", ")).collect();
        let to = match &t.to {
            TakeTo::Place(p) => self.place(p),
            TakeTo::Each(s) => format!("each {}", self.set(s)),
            TakeTo::Hand => "hand".into(),
        };
        let filter = t.filter.as_ref().map_or(String::new(), |c| format!(" where {}", self.cond(c)));
        format!("take {count}{kinds}{chosen}from {}{filter} to {to}", from.join(" else "))
    }

    fn rounds(&self, rounds: &RoundRules) -> String {
        let mut out = String::from("rounds\n");
        for r in &rounds.refills {
            let order = if r.backward { " backward" } else { "" };
            let borrow =
                r.borrow.as_ref().map_or(String::new(), |(k, p)| format!(" borrow {k} from {}", self.place(p)));
            let claim = r.claim.as_ref().map_or(String::new(), |c| format!(" claim from {}", self.place(c)));
            let mark = r.mark.map_or(String::new(), |m| format!(" else mark {}", self.mark_name(m)));
            let _ = writeln!(
                out,
                "  refill {} from {} with {}{borrow}{order}{claim}{mark}",
                self.set(&r.set),
                self.place(&r.from),
                r.count
            );
        }
        let _ = writeln!(out, "  first {:?}", rounds.first);
        if let Some(c) = &rounds.match_when {
            let _ = writeln!(out, "  match when {}", self.cond(c));
        }
        if let Some(n) = rounds.limit {
            let _ = writeln!(out, "  limit {n} rounds");
        }
        out
    }

    fn end(&self, end: &EndRules, indent: &str) -> String {
        let mut out = String::new();
        for item in &end.items {
            let line = match item {
                EndRule::When(c) => format!("The game ends when {}.", self.cond(c)),
                EndRule::AtEveryLap(c) => format!("The game ends when {}, tested at every lap too.", self.cond(c)),
                EndRule::Repetition => "The game ends when a position repeats.".into(),
                EndRule::Stuck => "The game ends when the player to move cannot move.".into(),
                EndRule::NobodyCanMove => "The game ends when nobody can move.".into(),
                EndRule::Draw { count, rounds } => {
                    format!(
                        "The game is drawn after {count} {} without a capture.",
                        if *rounds { "rounds" } else { "turns" }
                    )
                }
                EndRule::Eliminate(c) => format!("A player is out when {}.", self.cond(c)),
                EndRule::EliminateStuck => "A player who cannot move is out.".into(),
                EndRule::Endless => "A move that would never end draws the game.".into(),
                EndRule::EliminateEndless => "A player whose move would never end is out.".into(),
                EndRule::CutEndless => {
                    "A move that would never end stops where that is found, and play goes on.".into()
                }
                EndRule::DrawRepetition => "A position that comes back draws the game.".into(),
                EndRule::DrawWhen(c) => format!("The game is drawn when {}.", self.cond(c)),
            };
            let _ = writeln!(out, "{indent}{line}");
        }
        for (i, (set, to)) in end.sweeps.iter().enumerate() {
            let after = ending_words(end.sweep_after.get(i).copied().flatten());
            let _ =
                writeln!(out, "{indent}At the end{after}, the pieces of {} go to {}.", self.set(set), self.place(to));
        }
        if let Some(limit) = end.limit {
            let _ = writeln!(out, "{indent}The game stops after {limit} plies.");
        }
        out
    }

    fn cond(&self, c: &Cond) -> String {
        match c {
            Cond::True => "always".into(),
            Cond::And(cs) => cs.iter().map(|c| self.paren(c)).collect::<Vec<_>>().join(" and "),
            Cond::Or(cs) => cs.iter().map(|c| self.paren(c)).collect::<Vec<_>>().join(" or "),
            Cond::Not(c) => format!("not {}", self.paren(c)),
            Cond::Cmp(a, op, b) => format!("{} {} {}", self.num(a), op_text(*op), self.num(b)),
            Cond::InInts(n, set) => {
                let ints: Vec<String> = set.iter().map(|i| i.to_string()).collect();
                format!("{} in {{{}}}", self.num(n), ints.join(", "))
            }
            Cond::InSet(p, s) => format!("{} in {}", self.place(p), self.set(s)),
            Cond::HereOwnedBy(who) => format!("here in pits({})", self.player(who)),
            Cond::Direction(d, eq) => format!("direction {} {}", if *eq { "=" } else { "!=" }, dir_short(*d)),
            Cond::PlaceEq(a, b, eq) => format!("{} {} {}", self.place(a), if *eq { "=" } else { "!=" }, self.place(b)),
            Cond::PlayerEq(a, b, eq) => {
                format!("{} {} {}", self.player(a), if *eq { "=" } else { "!=" }, self.player(b))
            }
            Cond::Dropped(p, k, eq) => {
                format!("dropped({}) {} {}", self.place(p), if *eq { "=" } else { "!=" }, self.kinds(k))
            }
            Cond::AllPits(s, c) => format!("all {}({})", self.set(s), self.cond(c)),
            Cond::AnyPits(s, c) => format!("any {}({})", self.set(s), self.cond(c)),
            Cond::AllPlayers(c) => format!("all players({})", self.cond(c)),
            Cond::AnyPlayers(c) => format!("any players({})", self.cond(c)),
            Cond::Compiled(i) => format!("<compiled #{i}>"),
        }
    }

    fn paren(&self, c: &Cond) -> String {
        match c {
            Cond::And(_) | Cond::Or(_) => format!("({})", self.cond(c)),
            _ => self.cond(c),
        }
    }

    fn num(&self, n: &Num) -> String {
        match n {
            Num::Const(v) => v.to_string(),
            Num::Count(Set::One(PlaceExpr::Here), KindSel::All) => "count".into(),
            Num::Count(Set::One(PlaceExpr::Here), k) => format!("count({})", self.kinds(k)),
            Num::Count(s, k) => match k {
                KindSel::All => format!("count({})", self.set(s)),
                k => format!("count({}, {})", self.set(s), self.kinds(k)),
            },
            Num::Value(s) => format!("value({})", self.set(s)),
            Num::Before(p) => format!("before({})", self.place(p)),
            Num::Size(s) => format!("size({})", self.set(s)),
            Num::SizeWhere(s, c) => format!("size({} where {})", self.set(s), self.cond(c)),
            Num::Seat(p) => format!("seat({})", self.player(p)),
            Num::Add(ns) => ns.iter().map(|n| self.operand(n, 1)).collect::<Vec<_>>().join(" + "),
            Num::Mul(ns) => ns.iter().map(|n| self.operand(n, 2)).collect::<Vec<_>>().join(" * "),
            Num::HereCount => "count".into(),
            Num::PlaceCount(p) => format!("count({})", self.place(p)),
            Num::PitsCount(who) => format!("count(pits({}))", self.player(who)),
            Num::Lap => "lap".into(),
            Num::Round => "round".into(),
            Num::Passed(p) => format!("passed({})", self.place(p)),
            Num::Captures(p) => format!("captures({})", self.player(p)),
            Num::Moves(p) => format!("moves({})", self.player(p)),
            Num::Number(p) => format!("number({})", self.place(p)),
            Num::Lifted => "lifted".into(),
            Num::Sub(a, b) => format!("{} - {}", self.operand(a, 1), self.operand(b, 2)),
            Num::Div(a, b) => format!("{} / {}", self.operand(a, 2), self.operand(b, 3)),
            Num::Rem(a, b) => format!("{} % {}", self.operand(a, 2), self.operand(b, 3)),
        }
    }

    /// A number as the operand of an operator that binds at `level` (1: `+ -`, 2: `* / %`), in parentheses
    /// where it binds more loosely, so that the text reads back as the same number.
    fn operand(&self, n: &Num, level: u8) -> String {
        let binds = match n {
            Num::Add(_) | Num::Sub(..) => 1,
            Num::Mul(_) | Num::Div(..) | Num::Rem(..) => 2,
            _ => 3,
        };
        if binds < level {
            format!("({})", self.num(n))
        } else {
            self.num(n)
        }
    }

    fn place(&self, p: &PlaceExpr) -> String {
        match p {
            PlaceExpr::Here => "here".into(),
            PlaceExpr::Last => "last".into(),
            PlaceExpr::Origin => "origin".into(),
            PlaceExpr::Opposite(p) => match **p {
                PlaceExpr::Here => "opposite".into(),
                ref q => format!("opposite({})", self.place(q)),
            },
            PlaceExpr::Fixed(i) => self.place_label(*i).to_string(),
            PlaceExpr::OfPlayer(base, who) => {
                let name = self.rules.places.get(*base as usize).map_or("?", |i| i.name.as_str());
                format!("{name}({})", self.player(who))
            }
            PlaceExpr::Twin(p) => format!("twin({})", self.place(p)),
            PlaceExpr::RegionPit(id, who) => format!("{}({})", region_name(self.rules, *id), self.player(who)),
            PlaceExpr::Next(p, ..) => match **p {
                PlaceExpr::Here => "next".into(),
                ref q => format!("next({})", self.place(q)),
            },
            PlaceExpr::Previous(p, ..) => match **p {
                PlaceExpr::Here => "previous".into(),
                ref q => format!("previous({})", self.place(q)),
            },
            PlaceExpr::Start => "start".into(),
            PlaceExpr::Behind(p) => match **p {
                PlaceExpr::Here => "behind".into(),
                ref q => format!("behind({})", self.place(q)),
            },
            PlaceExpr::Ahead(p) => match **p {
                PlaceExpr::Here => "ahead".into(),
                ref q => format!("ahead({})", self.place(q)),
            },
        }
    }

    fn player(&self, p: &PlayerExpr) -> String {
        match p {
            PlayerExpr::Mover => "mover".into(),
            PlayerExpr::Opponent => "opponent".into(),
            PlayerExpr::Bound => "player".into(),
            PlayerExpr::Owner(p) => match **p {
                PlaceExpr::Here => "owner".into(),
                ref q => format!("owner({})", self.place(q)),
            },
        }
    }

    /// `take [N] [KIND] from SET [where C] to PLACE`: a take of a chosen pit.
    fn take_action(&self, take: &TakeAction) -> String {
        let filter = if matches!(take.filter, Cond::True) {
            String::new()
        } else {
            format!(" where {}", self.cond(&take.filter))
        };
        let count = take.count.map_or(String::new(), |n| format!("{n} "));
        let kinds = match take.kinds {
            KindSel::All => String::new(),
            _ => format!("{} ", self.kinds(&take.kinds)),
        };
        format!("take {count}{kinds}from {}{filter} to {}", self.set(&take.from), self.place(&take.to))
    }

    fn set(&self, s: &Set) -> String {
        match s {
            Set::AllPits => "pits".into(),
            Set::PitsOf(who) => format!("pits({})", self.player(who)),
            Set::Offered => "offered".into(),
            Set::One(p) => self.place(p),
            Set::EveryPlayer(base) => self.rules.places.get(*base as usize).map_or("?".into(), |i| i.name.clone()),
            Set::Facing(p) => format!("facing({})", self.place(p)),
            Set::Region(id) => region_name(self.rules, *id).into(),
            Set::RegionOf(id, who) => format!("{}({})", region_name(self.rules, *id), self.player(who)),
            Set::Marked(m, None) => self.mark_name(*m).to_string(),
            Set::Marked(m, Some(who)) => format!("{}({})", self.mark_name(*m), self.player(who)),
            Set::Threats(who) => format!("threats({})", self.player(who)),
            Set::TakenFirst => "taken_first".into(),
        }
    }

    fn kinds(&self, k: &KindSel) -> String {
        match k {
            KindSel::All => "pieces".into(),
            KindSel::Own => "own".into(),
            KindSel::Foreign => "foreign".into(),
            KindSel::Colour(who) => format!("colour({})", self.player(who)),
            KindSel::Mask(m) => {
                let names: Vec<String> = self
                    .rules
                    .kinds
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| m & (1u64 << i) != 0)
                    .map(|(_, k)| k.name.clone())
                    .collect::<std::collections::BTreeSet<_>>()
                    .into_iter()
                    .collect();
                let all_of_class = self
                    .rules
                    .kinds
                    .iter()
                    .enumerate()
                    .filter(|(_, k)| names.contains(&k.name))
                    .all(|(i, _)| m & (1u64 << i) != 0);
                if all_of_class {
                    names.join(" or ")
                } else {
                    let symbols: Vec<String> = self
                        .rules
                        .kinds
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| m & (1u64 << i) != 0)
                        .map(|(_, k)| format!("{} {}", k.name, k.value))
                        .collect();
                    symbols.join(" or ")
                }
            }
        }
    }
}
