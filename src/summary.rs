//! Lowered rules as text: a summary a player reads (`rules` in the REPL) and a full dump that tests
//! snapshot, so that changes to lowering show up as readable diffs. Conditions print back in the
//! language's own syntax, with names resolved (`store(mover)`, `pits(opponent)`).

use std::fmt::Write;

use crate::engine::Engine;
use crate::ir::*;

/// A summary of the rules for a player.
pub fn summarize(engine: &Engine) -> String {
    let r = &engine.lowered;
    let p = Printer { rules: r };
    let mut out = String::new();
    let variant = if r.variant == "default" { String::new() } else { format!(" (variant {})", r.variant) };
    let _ = writeln!(out, "{}{variant}", r.game);
    if !r.about.is_empty() {
        let _ = writeln!(out, "{}", wrap(&r.about, 78));
    }
    let _ = writeln!(out, "\nPlayers: {}. Board: {}.", r.players, p.board());
    let _ = writeln!(out, "Pieces: {}; {} in all.", p.pieces(), r.total_pieces);
    for phase in &r.phases {
        let title =
            if r.phases.len() > 1 { format!("\nPhase {}:", phase.name) } else { "\nOn your turn, one of:".to_string() };
        let _ = writeln!(out, "{title}");
        for action in &phase.actions {
            let _ = writeln!(out, "{}", p.action(action));
        }
        if let Some(pass) = &phase.pass {
            let names: Vec<&str> =
                pass.unless.iter().filter_map(|&i| phase.actions.get(i as usize).map(|a| a.name.as_str())).collect();
            let _ = writeln!(out, "  - pass, only when you cannot {}", names.join(" or "));
        }
        if let Some(m) = &phase.must {
            let otherwise = if m.otherwise_end { "the game ends" } else { "any move is allowed" };
            let _ = writeln!(
                out,
                "  You must leave {} when {}; if you cannot, {otherwise}.",
                p.cond(&m.after),
                p.cond(&m.when)
            );
        }
        if let Some(u) = &phase.until {
            let _ = writeln!(out, "  The phase ends when {}.", p.cond(u));
        }
        out.push_str(&p.end(&phase.end, "  "));
    }
    out.push_str(&p.end(&r.end, ""));
    match &r.goal {
        Some(goal) => {
            let _ = writeln!(out, "Goal: {}.", p.cond(goal));
        }
        None => {
            let ties = match r.ties {
                Ties::Draw => "a tie is a draw",
                Ties::Shared => "tied leaders share the win",
                Ties::LastMover => "a tie goes to the player who moved last",
            };
            let _ = writeln!(out, "Score: {}; the highest score wins, {ties}.", p.num(&r.score));
        }
    }
    out
}

/// Every part of the lowered rules, one per line: for snapshot tests and `--dump`.
pub fn dump(rules: &Rules) -> String {
    let p = Printer { rules };
    let mut out = String::new();
    let _ = writeln!(out, "game {:?} variant {:?} players {}", rules.game, rules.variant, rules.players);
    let _ = writeln!(out, "board {}", p.board());
    let _ = writeln!(out, "pieces {}", p.pieces());
    let labels: Vec<&str> = rules.places.iter().map(|i| i.label.as_str()).collect();
    let _ = writeln!(out, "places {}", labels.join(" "));
    let track: Vec<&str> = rules.track.iter().map(|&i| p.place_label(i)).collect();
    let _ = writeln!(out, "track ccw {}", track.join(" "));
    let setup: Vec<String> = (0..rules.places.len())
        .filter_map(|i| {
            let k = rules.kinds.len().max(1);
            let cells = &rules.setup[i * k..i * k + k];
            (cells.iter().any(|&c| c > 0)).then(|| format!("{}={}", rules.places[i].label, p.contents(cells)))
        })
        .collect();
    let _ = writeln!(out, "setup {}", setup.join(" "));
    let _ = writeln!(out, "needs {:?} limit {}", rules.needs, rules.limit);
    for phase in &rules.phases {
        let _ = writeln!(out, "phase {}", phase.name);
        for action in &phase.actions {
            let _ = writeln!(out, "{}", p.action(action));
        }
        if let Some(pass) = &phase.pass {
            let _ = writeln!(out, "  pass unless actions {:?}", pass.unless);
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
        if let Some(u) = &phase.until {
            let _ = writeln!(out, "  until {}", p.cond(u));
        }
        out.push_str(&p.end(&phase.end, "  "));
    }
    out.push_str(&p.end(&rules.end, ""));
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
                    DirRule::Fixed(Dir::Ccw) => "counter-clockwise",
                    DirRule::Fixed(Dir::Cw) => "clockwise",
                    DirRule::Choose => "either way, as the mover chooses",
                };
                let filter = if matches!(s.filter, Cond::True) {
                    String::new()
                } else {
                    format!(" where {}", self.cond(&s.filter))
                };
                let _ = write!(out, "  - {}: sow from {}{filter}, {dir}", action.name, self.set(&s.from));
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
                if let Some(r) = &s.relay {
                    let _ = write!(out, "\n      relay: lift the last pit and sow on when {}", self.cond(r));
                }
                if let Some(r) = &s.require {
                    let _ = write!(out, "\n      allowed only if {}", self.cond(r));
                }
                for c in &s.captures {
                    let takes: Vec<String> = c.takes.iter().map(|t| self.take(t)).collect();
                    let _ = write!(out, "\n      capture when {}: {}", self.cond(&c.when), takes.join("; "));
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
        };
        format!("take {count}{kinds}{chosen}from {} to {to}", from.join(" else "))
    }

    fn end(&self, end: &EndRules, indent: &str) -> String {
        let mut out = String::new();
        for item in &end.items {
            let line = match item {
                EndRule::When(c) => format!("The game ends when {}.", self.cond(c)),
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
            };
            let _ = writeln!(out, "{indent}{line}");
        }
        for (set, to) in &end.sweeps {
            let _ = writeln!(out, "{indent}At the end, the pieces of {} go to {}.", self.set(set), self.place(to));
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
            Cond::InInts(n, bits) => {
                let ints: Vec<String> = (0..64).filter(|i| bits & (1u64 << i) != 0).map(|i| i.to_string()).collect();
                format!("{} in {{{}}}", self.num(n), ints.join(", "))
            }
            Cond::InSet(p, s) => format!("{} in {}", self.place(p), self.set(s)),
            Cond::HereOwnedBy(who) => format!("here in pits({})", self.player(who)),
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
            Num::Add(ns) => ns.iter().map(|n| self.num(n)).collect::<Vec<_>>().join(" + "),
            Num::Mul(ns) => ns.iter().map(|n| self.num(n)).collect::<Vec<_>>().join(" * "),
            Num::HereCount => "count".into(),
            Num::PlaceCount(p) => format!("count({})", self.place(p)),
            Num::PitsCount(who) => format!("count(pits({}))", self.player(who)),
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

    fn set(&self, s: &Set) -> String {
        match s {
            Set::AllPits => "pits".into(),
            Set::PitsOf(who) => format!("pits({})", self.player(who)),
            Set::Offered => "offered".into(),
            Set::One(p) => self.place(p),
            Set::EveryPlayer(base) => self.rules.places.get(*base as usize).map_or("?".into(), |i| i.name.clone()),
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

fn op_text(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "=",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = 0;
    for word in text.split_whitespace() {
        if line > 0 && line + 1 + word.len() > width {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}
