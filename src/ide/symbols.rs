//! The names of a rule file: where each is declared and where it is used, found by one walk over the AST.
//!
//! Names live in four namespaces, as `check` resolves them: the names of places and what is written where
//! a place may stand (places, regions, rows, marks, kinds, the board's stores and pit labels), actions
//! (one namespace for each phase: two phases may each have an action `mtaji`, and a variant's phase of the
//! same name shares its base phase's), phases and variants. A use is bound to the declarations of its namespace with the same text; a place
//! name that nothing declares is a pit's label (or a mistake, which `check` reports).

use crate::ast::*;

/// What a declared name is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SymbolKind {
    Place,
    Region,
    Row,
    Mark,
    Kind,
    /// The stores of `with stores`, declared by the board.
    Store,
    Phase,
    Action,
    Variant,
}

impl SymbolKind {
    /// The word for it in messages and hovers.
    pub fn word(self) -> &'static str {
        match self {
            SymbolKind::Place => "place",
            SymbolKind::Region => "region",
            SymbolKind::Row => "row",
            SymbolKind::Mark => "mark",
            SymbolKind::Kind => "kind of piece",
            SymbolKind::Store => "store",
            SymbolKind::Phase => "phase",
            SymbolKind::Action => "action",
            SymbolKind::Variant => "variant",
        }
    }
}

/// Where a name is looked up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Namespace {
    Place,
    /// The actions of one phase: an index into [`Symbols::phases`].
    Action(usize),
    Phase,
    Variant,
}

/// A declaration: the name, its span, and the span of the whole declaration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decl {
    pub kind: SymbolKind,
    pub ns: Namespace,
    pub name: String,
    pub span: Span,
    pub item: Span,
    /// What the declaration says, in words: a region's pits, a mark's lifetime, a place's owner.
    pub detail: String,
}

/// A use of a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    pub ns: Namespace,
    pub name: String,
    pub span: Span,
}

/// Every declaration and use of a file, in the order of the walk.
#[derive(Debug, Clone, Default)]
pub struct Symbols {
    pub decls: Vec<Decl>,
    pub uses: Vec<Use>,
    /// The spans of the `board` items, where pit labels are declared.
    pub boards: Vec<Span>,
    /// The phases whose actions have a namespace, by name (`None`: the phase without one, `turn`).
    pub phases: Vec<Option<String>>,
    /// The namespace of the actions of the phase being walked.
    actions: usize,
}

impl Symbols {
    pub fn of(file: &File) -> Symbols {
        let mut s = Symbols::default();
        for item in &file.items {
            s.item(item);
        }
        s
    }

    /// The declarations a name of a namespace refers to.
    pub fn decls_of<'a>(&'a self, ns: Namespace, name: &'a str) -> impl Iterator<Item = &'a Decl> + 'a {
        self.decls.iter().filter(move |d| d.ns == ns && d.name == name)
    }

    /// The name at a byte offset (a declaration's or a use's), with its namespace and span.
    pub fn at(&self, offset: usize) -> Option<(Namespace, &str, Span)> {
        let within = |s: Span| s.start <= offset && offset <= s.end;
        self.decls
            .iter()
            .find(|d| !d.span.is_empty() && within(d.span))
            .map(|d| (d.ns, d.name.as_str(), d.span))
            .or_else(|| self.uses.iter().find(|u| within(u.span)).map(|u| (u.ns, u.name.as_str(), u.span)))
    }

    /// Every span where the name of this namespace is written: declarations, then uses, in source order.
    pub fn occurrences(&self, ns: Namespace, name: &str) -> Vec<Span> {
        let mut spans: Vec<Span> = self.decls_of(ns, name).map(|d| d.span).collect();
        spans.extend(self.uses.iter().filter(|u| u.ns == ns && u.name == name).map(|u| u.span));
        spans.sort_by_key(|s| (s.start, s.end));
        spans.dedup();
        spans
    }

    fn declare(&mut self, kind: SymbolKind, name: &Name, item: Span, detail: String) {
        let ns = match kind {
            SymbolKind::Phase => Namespace::Phase,
            SymbolKind::Action => Namespace::Action(self.actions),
            SymbolKind::Variant => Namespace::Variant,
            _ => Namespace::Place,
        };
        let detail = if kind == SymbolKind::Action { format!("{detail} of {}", self.phase_words(ns)) } else { detail };
        self.decls.push(Decl { kind, ns, name: name.node.clone(), span: name.span, item, detail });
    }

    /// Walks the actions of a phase named `name` in its namespace.
    fn enter_phase(&mut self, name: Option<&Name>) {
        let name = name.map(|n| n.node.clone());
        self.actions = match self.phases.iter().position(|p| *p == name) {
            Some(i) => i,
            None => {
                self.phases.push(name);
                self.phases.len() - 1
            }
        };
    }

    /// The phase whose actions are the namespace `ns`, in words: "the phase `mtaji`".
    pub fn phase_words(&self, ns: Namespace) -> String {
        match ns {
            Namespace::Action(i) => match self.phases.get(i) {
                Some(Some(name)) => format!("the phase `{name}`"),
                _ => "the turn".into(),
            },
            _ => String::new(),
        }
    }

    fn use_name(&mut self, ns: Namespace, name: &Name) {
        self.uses.push(Use { ns, name: name.node.clone(), span: name.span });
    }

    fn item(&mut self, item: &Item) {
        match item {
            Item::Game(_) | Item::About(_) | Item::Players(_) | Item::Winner(_) => {}
            Item::Board(b) => self.board(b),
            Item::Place(p) => {
                let owner = if p.node.per_player { "one for every player" } else { "shared: it belongs to nobody" };
                self.declare(SymbolKind::Place, &p.node.name, p.span, format!("a place off the board, {owner}"));
            }
            Item::Region(r) => {
                let labels: Vec<&str> = r.node.labels.iter().map(|l| l.node.as_str()).collect();
                let detail = if r.node.per_player {
                    format!(
                        "a region per player: the pits {} of the first player, the pits of the same numbers for the others",
                        labels.join(", ")
                    )
                } else {
                    format!("a region: the pits {}", labels.join(", "))
                };
                self.declare(SymbolKind::Region, &r.node.name, r.span, detail);
                for label in &r.node.labels {
                    self.use_name(Namespace::Place, label);
                }
            }
            Item::Mark(m) => self.declare(SymbolKind::Mark, &m.node.name, m.span, mark_detail(&m.node)),
            Item::Pieces(p) => self.pieces(p),
            Item::Setup(lines) => {
                for line in &lines.node {
                    self.setup_line(line);
                }
            }
            Item::Phase(p) => self.phase(p),
            Item::End(items) => self.end_items(&items.node),
            Item::Score(t) => self.term(t),
            Item::Goal(c) => self.cond(c),
            Item::Variant(v) => self.variant(v),
            Item::Rounds(items) => {
                for item in &items.node {
                    self.rounds_item(item);
                }
            }
        }
    }

    fn board(&mut self, b: &Spanned<Board>) {
        self.boards.push(b.span);
        match &b.node {
            Board::TwoRows { stores: true, .. } | Board::Rows { stores: true, .. } => {
                let store = Spanned::new("store".to_string(), b.span);
                self.decls.push(Decl {
                    kind: SymbolKind::Store,
                    ns: Namespace::Place,
                    name: store.node,
                    span: Span::new(b.span.start, b.span.start),
                    item: b.span,
                    detail: "each player's store, on the track (declared by the board's `with stores`)".into(),
                });
            }
            _ => {}
        }
        if let Board::Rows { names, rows, .. } = &b.node {
            for (i, name) in names.iter().enumerate() {
                let detail = format!(
                    "a named row: each player's row {} of {}, counted from his own edge of the board",
                    i + 1,
                    rows.node
                );
                self.declare(SymbolKind::Row, name, b.span, detail);
            }
        }
    }

    fn pieces(&mut self, p: &Spanned<Pieces>) {
        let (kinds, colours) = match &p.node {
            Pieces::Seeds => return,
            Pieces::PerPlayer(k) => (k, true),
            Pieces::Kinds(k) => (k, false),
        };
        for (i, k) in kinds.iter().enumerate() {
            let detail = match (colours, &k.value) {
                (true, _) => format!("the colour of player {} (symbol `{}`)", i + 1, k.symbol.node),
                (false, Some(v)) => format!("a kind of piece (symbol `{}`, value {})", k.symbol.node, v.node),
                (false, None) => format!("a kind of piece (symbol `{}`)", k.symbol.node),
            };
            // Kinds sharing a name form a class: the first declares it, the others are uses of it.
            if self.decls_of(Namespace::Place, &k.name.node).any(|d| d.kind == SymbolKind::Kind) {
                self.use_name(Namespace::Place, &k.name);
            } else {
                self.declare(SymbolKind::Kind, &k.name, k.span, detail);
            }
        }
    }

    fn setup_line(&mut self, line: &SetupLine) {
        for target in &line.targets {
            match &target.node {
                // `every pit` names no declared thing; `every NAME` does.
                Target::Every(name) if name.node == "pit" => {}
                Target::Every(name) | Target::Label(name) => self.use_name(Namespace::Place, name),
            }
        }
        for content in &line.contents {
            if let Some(kind) = &content.node.kind {
                self.kind_sel(kind);
            }
        }
        if let Some(mark) = &line.mark {
            self.use_name(Namespace::Place, mark);
        }
    }

    fn phase(&mut self, p: &Spanned<Phase>) {
        if let Some(name) = &p.node.name {
            self.declare(SymbolKind::Phase, name, p.span, phase_detail(&p.node));
        }
        self.enter_phase(p.node.name.as_ref());
        self.phase_items(&p.node.items);
    }

    fn phase_items(&mut self, items: &[PhaseItem]) {
        for item in items {
            match item {
                PhaseItem::Sow(s) => {
                    if let Some(name) = &s.node.name {
                        self.declare(SymbolKind::Action, name, s.span, "a sowing".into());
                    }
                    for item in &s.node.items {
                        self.sow_item(item);
                    }
                }
                PhaseItem::Put(put) => {
                    if let Some(name) = &put.node.name {
                        self.declare(SymbolKind::Action, name, put.span, "a put".into());
                    }
                    if let Some(kind) = &put.node.kind {
                        self.kind_sel(kind);
                    }
                    self.place(&put.node.from);
                    self.set(&put.node.into);
                    self.opt_cond(&put.node.filter);
                }
                PhaseItem::Take(take) => {
                    if let Some(name) = &take.node.name {
                        self.declare(SymbolKind::Action, name, take.span, "a take".into());
                    }
                    if let Some(kind) = &take.node.kind {
                        self.kind_sel(kind);
                    }
                    self.set(&take.node.from);
                    self.opt_cond(&take.node.filter);
                    self.place(&take.node.to);
                }
                PhaseItem::Offer(o) => {
                    if let Some(name) = &o.node.name {
                        self.declare(SymbolKind::Action, name, o.span, "an offer".into());
                    }
                    self.set(&o.node.from);
                    for r in &o.node.requires {
                        self.cond(&r.node);
                    }
                    for effect in &o.node.on_accept {
                        match effect {
                            Effect::Take(t) => self.take(&t.node),
                            Effect::Give(p) => self.player(&p.node),
                        }
                    }
                }
                PhaseItem::Pass(p) => {
                    for action in p.node.actions() {
                        self.use_name(Namespace::Action(self.actions), action);
                    }
                }
                PhaseItem::Must(m) => {
                    self.cond(&m.node.after);
                    self.cond(&m.node.when);
                }
                PhaseItem::Until(c) => self.cond(c),
                PhaseItem::End(items) => self.end_items(&items.node),
                PhaseItem::Again(c) => self.cond(&c.node),
                PhaseItem::Prefer(names) => {
                    for name in &names.node {
                        self.use_name(Namespace::Action(self.actions), name);
                    }
                }
            }
        }
    }

    fn sow_item(&mut self, item: &SowItem) {
        match item {
            SowItem::From { set, filter, alternatives, .. } => {
                self.set(set);
                self.opt_cond(filter);
                for (set, filter) in alternatives {
                    self.set(set);
                    self.opt_cond(filter);
                }
            }
            SowItem::Direction(_) | SowItem::Order { .. } | SowItem::MustCapture(_) => {}
            SowItem::Take(take) => {
                if let Some(kind) = &take.node.kind {
                    self.kind_sel(kind);
                }
                self.set(&take.node.from);
                self.opt_cond(&take.node.filter);
                self.place(&take.node.to);
            }
            SowItem::Skip(s) => match &s.node {
                SkipTarget::Place(p) => self.place(p),
                SkipTarget::Where { set, cond, .. } => {
                    self.set(set);
                    self.cond(cond);
                }
                SkipTarget::Origin => {}
            },
            SowItem::RelayMay { when, .. } => self.cond(&when.node),
            SowItem::Relay(c) | SowItem::RelayFromNext(c) | SowItem::Require(c) | SowItem::Again(c) => {
                self.cond(&c.node)
            }
            SowItem::Lift(l) => {
                if let Some(p) = &l.node.from {
                    self.place(p);
                }
                self.opt_cond(&l.node.when);
            }
            SowItem::Capture(c) => {
                self.opt_cond(&c.node.when);
                for item in &c.node.items {
                    self.capture_item(item);
                }
            }
            SowItem::Then(t) => {
                if let Some(kind) = &t.node.kind {
                    self.kind_sel(kind);
                }
                self.set(&t.node.set);
                self.opt_cond(&t.node.filter);
                self.place(&t.node.to);
            }
            SowItem::ThenMark(t) => {
                self.set(&t.node.set);
                self.use_name(Namespace::Place, &t.node.mark);
                if let Some(p) = &t.node.player {
                    self.player(p);
                }
                self.opt_cond(&t.node.filter);
            }
            SowItem::StartAt(c) => self.opt_cond(&c.node),
            SowItem::Divert(d) => {
                self.use_name(Namespace::Place, &d.node.mark);
                self.place(&d.node.to);
            }
            SowItem::LapDirection(l) => self.cond(&l.node.when),
            SowItem::Mark(m) => self.mark_action(&m.node),
            SowItem::Unmark(u) => self.unmark(&u.node),
            SowItem::DirectionWhere(d) => self.cond(&d.node.1),
        }
    }

    fn capture_item(&mut self, item: &CaptureItem) {
        match item {
            CaptureItem::Take(t) => self.take(&t.node),
            CaptureItem::Pick(take) => {
                if let Some(kind) = &take.node.kind {
                    self.kind_sel(kind);
                }
                self.set(&take.node.from);
                self.opt_cond(&take.node.filter);
                self.place(&take.node.to);
            }
            CaptureItem::Chain(c) => self.opt_cond(&c.node.while_),
            CaptureItem::Cancel(c) => self.cond(&c.node),
            CaptureItem::Mark(m) => self.mark_action(&m.node),
            CaptureItem::Unmark(u) => self.unmark(&u.node),
            CaptureItem::Give(g) => {
                self.place(&g.node.place);
                self.player(&g.node.to);
            }
            CaptureItem::Sow(p) | CaptureItem::ContinueAt(p) => self.place(&p.node),
            CaptureItem::Resow(r) => self.place(&r.node.place),
        }
    }

    fn take(&mut self, t: &Take) {
        if let Some(kind) = &t.kind {
            self.kind_sel(kind);
        }
        for sets in &t.from {
            for set in sets {
                self.set(set);
            }
        }
        match &t.to {
            TakeTarget::Place(p) => self.place(p),
            TakeTarget::Each(s) => self.set(s),
            TakeTarget::Hand => {}
        }
    }

    fn mark_action(&mut self, m: &MarkAction) {
        self.place(&m.place);
        self.use_name(Namespace::Place, &m.mark);
        if let Some(p) = &m.player {
            self.player(p);
        }
    }

    fn unmark(&mut self, u: &Unmark) {
        match &u.set {
            Some(s) => self.set(s),
            None => self.place(&u.place),
        }
        if let Some(mark) = &u.mark {
            self.use_name(Namespace::Place, mark);
        }
    }

    fn end_items(&mut self, items: &[EndItem]) {
        for item in items {
            match item {
                EndItem::When(w) => match &w.node {
                    EndWhen::Cond(c) | EndWhen::AtEveryLap(c) => self.cond(c),
                    EndWhen::Repetition | EndWhen::Stuck | EndWhen::NobodyCanMove => {}
                },
                EndItem::DrawCond(c) => self.cond(&c.node),
                EndItem::Eliminate(e) => {
                    if let Eliminate::Cond(c) = &e.node {
                        self.cond(c);
                    }
                }
                EndItem::Sweep(s) => {
                    self.set(&s.node.set);
                    self.place(&s.node.to);
                }
                EndItem::Draw(_)
                | EndItem::Limit(_)
                | EndItem::Endless(_)
                | EndItem::DrawRepetition(_)
                | EndItem::CutEndless(_) => {}
            }
        }
    }

    fn rounds_item(&mut self, item: &RoundsItem) {
        match item {
            RoundsItem::Refill(r) => {
                self.set(&r.node.set);
                self.place(&r.node.from);
                if let Some((_, p)) = &r.node.borrow {
                    self.place(p);
                }
                if let Some(p) = &r.node.claim {
                    self.place(p);
                }
                if let Some(mark) = &r.node.mark {
                    self.use_name(Namespace::Place, mark);
                }
            }
            RoundsItem::MatchWhen(c) => self.cond(c),
            RoundsItem::First(_) | RoundsItem::Limit(_) => {}
        }
    }

    fn variant(&mut self, v: &Spanned<Variant>) {
        let name = inner_name(&v.node.name);
        let detail = match &v.node.extends {
            Some(parent) => format!("a variant of the variant \"{}\"", parent.node),
            None => "a variant of the base game".to_string(),
        };
        self.declare(SymbolKind::Variant, &name, v.span, detail);
        if let Some(parent) = &v.node.extends {
            self.use_name(Namespace::Variant, &inner_name(parent));
        }
        for item in &v.node.items {
            match item {
                // A variant's phase of the same name replaces the base game's: it is a use of that name.
                Item::Phase(p) => {
                    if let Some(name) = &p.node.name {
                        let replaced = self.decls_of(Namespace::Phase, &name.node).next().is_some();
                        if replaced {
                            self.use_name(Namespace::Phase, name);
                            self.enter_phase(Some(name));
                            self.phase_items(&p.node.items);
                            continue;
                        }
                    }
                    self.phase(p);
                }
                other => self.item(other),
            }
        }
    }

    // ------------------------------------------------------------ conditions and terms

    fn opt_cond(&mut self, c: &Option<Cond>) {
        if let Some(c) = c {
            self.cond(c);
        }
    }

    fn cond(&mut self, c: &Cond) {
        match &c.node {
            CondKind::Or(cs) | CondKind::And(cs) => {
                for c in cs {
                    self.cond(c);
                }
            }
            CondKind::Not(c) => self.cond(c),
            CondKind::Quant { domain, body, .. } => {
                if let Domain::Set(s) = domain {
                    self.set(s);
                }
                self.cond(body);
            }
            CondKind::InInts { term, .. } => self.term(term),
            CondKind::InSet { term, set } => {
                self.term(term);
                self.set(set);
            }
            CondKind::Cmp { lhs, rhs, .. } => {
                self.term(lhs);
                self.term(rhs);
            }
            CondKind::Capturing | CondKind::Direction { .. } => {}
        }
    }

    fn term(&mut self, t: &Term) {
        match &t.node {
            TermKind::Int(_) | TermKind::Lifted | TermKind::Lap | TermKind::Round => {}
            TermKind::Add(ts) | TermKind::Mul(ts) => {
                for t in ts {
                    self.term(t);
                }
            }
            TermKind::Sub(a, b) | TermKind::Div(a, b) | TermKind::Rem(a, b) => {
                self.term(a);
                self.term(b);
            }
            TermKind::Count { arg, kind } => {
                match arg {
                    Some(CountArg::Set(s)) => self.set(s),
                    Some(CountArg::Kind(k)) => self.kind_sel(k),
                    None => {}
                }
                if let Some(k) = kind {
                    self.kind_sel(k);
                }
            }
            TermKind::Value(s) | TermKind::Size(s) => self.set(s),
            TermKind::SizeWhere(s, c) => {
                self.set(s);
                self.cond(c);
            }
            TermKind::Before(p) | TermKind::Dropped(p) | TermKind::Number(p) => {
                if let Some(p) = p {
                    self.place(p);
                }
            }
            TermKind::Player(p) | TermKind::Captures(p) | TermKind::Moves(p) | TermKind::Seat(p) => self.player(p),
            TermKind::Place(p) => self.place(p),
            TermKind::Kind(k) => self.kind(k),
            TermKind::Passed(p) => self.place(p),
        }
    }

    fn place(&mut self, p: &Place) {
        match &p.node {
            PlaceKind::Here | PlaceKind::Last | PlaceKind::Origin | PlaceKind::Start => {}
            PlaceKind::Opposite(inner)
            | PlaceKind::Twin(inner)
            | PlaceKind::Next(inner)
            | PlaceKind::Previous(inner)
            | PlaceKind::Behind(inner)
            | PlaceKind::Ahead(inner) => {
                if let Some(inner) = inner {
                    self.place(inner);
                }
            }
            PlaceKind::Named { name, player } => {
                self.use_name(Namespace::Place, name);
                if let Some(p) = player {
                    self.player(p);
                }
            }
        }
    }

    fn set(&mut self, s: &SetExpr) {
        match &s.node {
            SetKind::Pits(p) => {
                if let Some(p) = p {
                    self.player(p);
                }
            }
            SetKind::Offered | SetKind::TakenFirst => {}
            SetKind::Place(p) => self.place(p),
            SetKind::Facing(p) => {
                if let Some(p) = p {
                    self.place(p);
                }
            }
            SetKind::Threats(p) => self.player(p),
        }
    }

    fn player(&mut self, p: &PlayerRef) {
        if let PlayerKind::Owner(Some(place)) = &p.node {
            self.place(place);
        }
    }

    fn kind_sel(&mut self, k: &Spanned<KindSel>) {
        self.kind(&k.node);
    }

    fn kind(&mut self, k: &KindSel) {
        match k {
            KindSel::Own | KindSel::Foreign => {}
            KindSel::Player(p) => self.player(p),
            KindSel::Named { name, .. } => self.use_name(Namespace::Place, name),
        }
    }
}

/// A string's text with the span inside its quotes.
fn inner_name(s: &Spanned<String>) -> Name {
    let start = (s.span.start + 1).min(s.span.end);
    Spanned::new(s.node.clone(), Span::new(start, start + s.node.len()))
}

fn mark_detail(m: &MarkDecl) -> String {
    let whose =
        if m.per_player { "a mark carried for one player (`NAME(PLAYER)`)" } else { "a mark a pit carries or not" };
    let mut lifetime = Vec::new();
    if m.one_ply {
        lifetime.push(
            "gone once the ply that made it is over and the end rules after it have seen it (for one ply)".to_string(),
        );
    }
    if let Some(n) = &m.plies {
        lifetime.push(format!(
            "cleared when the {} ply after the one that made it starts (for {} plies)",
            ordinal(n.node),
            n.node
        ));
    }
    if m.until_empty {
        lifetime.push("lost as soon as its pit is left empty (until empty)".to_string());
    }
    if lifetime.is_empty() {
        lifetime.push("kept until a rule takes it away".to_string());
    }
    format!("{whose}; {}", lifetime.join("; "))
}

fn phase_detail(p: &Phase) -> String {
    let actions =
        p.items.iter().filter(|i| matches!(i, PhaseItem::Sow(_) | PhaseItem::Put(_) | PhaseItem::Offer(_))).count();
    let until = p.items.iter().any(|i| matches!(i, PhaseItem::Until(_)));
    format!(
        "a phase of play with {actions} action{}{}",
        if actions == 1 { "" } else { "s" },
        if until { ", until its condition holds" } else { ", to the end of the game" }
    )
}

/// `1st`, `2nd`, `3rd`, `4th`, `11th`, `12th`, `13th`, `21st`, ...
fn ordinal(n: impl std::fmt::Display) -> String {
    let digits = n.to_string();
    let last_two = digits.len().checked_sub(2).map_or(digits.as_str(), |i| &digits[i..]);
    let suffix = match (last_two, digits.chars().last()) {
        ("11" | "12" | "13", _) => "th",
        (_, Some('1')) => "st",
        (_, Some('2')) => "nd",
        (_, Some('3')) => "rd",
        _ => "th",
    };
    format!("{digits}{suffix}")
}

#[cfg(test)]
#[test]
fn ordinals_read_as_english() {
    let words: Vec<String> = [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111].iter().map(ordinal).collect();
    assert_eq!(words, ["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th"]);
}
