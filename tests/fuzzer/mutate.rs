//! A structure-aware mutator of rule files: the text is cut into tokens (words, numbers, strings,
//! punctuation, braces) and items (a line and the block it opens), and mutants are made by deleting,
//! duplicating, swapping and splicing those, by changing numbers, and by a few byte-level edits.
//!
//! Everything is deterministic for a seed: [`Rng64`] is a small generator of our own, so that a seed names
//! the same mutant on every machine and with every version of the `rand` crate.

/// SplitMix64: small, fast, and good enough to choose mutations.
#[derive(Debug, Clone)]
pub struct Rng64(u64);

impl Rng64 {
    pub fn new(seed: u64) -> Rng64 {
        Rng64(seed ^ 0x5851_F42D_4C95_7F2D)
    }

    /// The generator of input `index` of a run with seed `seed`: any input can be made again alone.
    pub fn for_input(seed: u64, index: u64) -> Rng64 {
        let mut r = Rng64::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index.rotate_left(17));
        r.next();
        r
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Word,
    Number,
    Str,
    Punct,
    Open,
    Close,
}

/// One token and the whitespace and comments before it, so that a file prints back as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    pub pre: String,
    pub text: String,
    pub kind: Kind,
}

impl Token {
    /// Whether the token starts a line: items start at line starts.
    pub fn line_start(&self) -> bool {
        self.pre.contains('\n')
    }
}

/// Cuts a text into tokens; whatever trails the last token (a comment, a newline) is the second value.
pub fn tokenize(text: &str) -> (Vec<Token>, String) {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut pre = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            pre.push(c);
            i += 1;
            continue;
        }
        if c == '#' {
            while i < chars.len() && chars[i] != '\n' {
                pre.push(chars[i]);
                i += 1;
            }
            continue;
        }
        let start = i;
        let kind = if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_' || chars[i] == '-') {
                i += 1;
            }
            Kind::Word
        } else if c.is_ascii_digit() {
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            Kind::Number
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' && chars[i] != '\n' {
                i += 1;
            }
            if i < chars.len() && chars[i] == '"' {
                i += 1;
            }
            Kind::Str
        } else if c == '{' || c == '(' {
            i += 1;
            Kind::Open
        } else if c == '}' || c == ')' {
            i += 1;
            Kind::Close
        } else if ".<>=!:".contains(c) {
            while i < chars.len() && ".<>=!:".contains(chars[i]) {
                i += 1;
            }
            Kind::Punct
        } else {
            i += 1;
            Kind::Punct
        };
        tokens.push(Token { pre: std::mem::take(&mut pre), text: chars[start..i].iter().collect(), kind });
    }
    (tokens, pre)
}

/// Prints tokens back as text.
pub fn render(tokens: &[Token], tail: &str) -> String {
    let mut s = String::with_capacity(tokens.iter().map(|t| t.pre.len() + t.text.len()).sum::<usize>() + tail.len());
    for t in tokens {
        s.push_str(&t.pre);
        s.push_str(&t.text);
    }
    s.push_str(tail);
    s
}

/// An item: the tokens `start..end`, at brace depth `depth` (0: a top-level item such as `turn { ... }`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    pub start: usize,
    pub end: usize,
    pub depth: usize,
}

/// The brace depth of each token: a `{` and its `}` are at the depth of the item they belong to.
fn depths(tokens: &[Token]) -> Vec<usize> {
    let mut d = 0usize;
    tokens
        .iter()
        .map(|t| match t.text.as_str() {
            "{" => {
                d += 1;
                d - 1
            }
            "}" => {
                d = d.saturating_sub(1);
                d
            }
            _ => d,
        })
        .collect()
}

/// The items of a token list, nested ones included: an item starts at a token that starts a line (or the
/// first token) and is not a closing brace, and runs to the next such token at its depth or shallower.
pub fn items(tokens: &[Token]) -> Vec<Item> {
    let depth = depths(tokens);
    let starts_item = |i: usize| (i == 0 || tokens[i].line_start()) && tokens[i].text != "}";
    let mut items = Vec::new();
    for s in 0..tokens.len() {
        if !starts_item(s) {
            continue;
        }
        let d = depth[s];
        let mut e = s + 1;
        while e < tokens.len() && depth[e] >= d && !(depth[e] == d && starts_item(e)) {
            e += 1;
        }
        items.push(Item { start: s, end: e, depth: d });
    }
    items
}

/// A parsed seed file, ready to mutate.
#[derive(Debug, Clone)]
pub struct Seed {
    pub name: String,
    pub tokens: Vec<Token>,
    pub tail: String,
    pub items: Vec<Item>,
}

impl Seed {
    pub fn new(name: &str, text: &str) -> Seed {
        let (tokens, tail) = tokenize(text);
        let items = items(&tokens);
        Seed { name: name.to_string(), tokens, tail, items }
    }
}

/// The shipped games, read from `games/`.
pub fn shipped_seeds() -> Vec<Seed> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/games");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("the games folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "mancala"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("a readable game");
            Seed::new(&p.file_stem().unwrap().to_string_lossy(), &text)
        })
        .collect()
}

/// Numbers at the edges of counters and tables.
const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "8",
    "9",
    "16",
    "63",
    "64",
    "65",
    "127",
    "128",
    "255",
    "256",
    "1000",
    "4096",
    "65535",
    "65536",
    "2147483647",
    "4294967295",
    "4294967296",
    "18446744073709551615",
    "99999999999999999999999999",
    "-1",
    "-64",
    "00",
    "007",
];

/// Words and symbols that the grammar knows, to put where they do not belong.
const WORDS: &[&str] = &[
    "repetition",
    "direction",
    "eliminate",
    "backward",
    "opponent",
    "opposite",
    "two_rows",
    "capture",
    "default",
    "dropped",
    "extends",
    "foreign",
    "forward",
    "keeping",
    "offered",
    "players",
    "require",
    "variant",
    "accept",
    "before",
    "cancel",
    "cannot",
    "choose",
    "chosen",
    "nobody",
    "origin",
    "pieces",
    "player",
    "rounds",
    "shared",
    "stores",
    "winner",
    "about",
    "again",
    "board",
    "chain",
    "count",
    "every",
    "limit",
    "mover",
    "offer",
    "order",
    "owner",
    "phase",
    "place",
    "plies",
    "relay",
    "score",
    "seeds",
    "setup",
    "stuck",
    "sweep",
    "times",
    "turns",
    "until",
    "value",
    "where",
    "while",
    "both",
    "draw",
    "unmark",
    "next",
    "each",
    "else",
    "from",
    "game",
    "give",
    "goal",
    "here",
    "into",
    "last",
    "lose",
    "most",
    "move",
    "must",
    "pass",
    "pits",
    "ring",
    "size",
    "seat",
    "previous",
    "skip",
    "take",
    "then",
    "ties",
    "turn",
    "when",
    "with",
    "all",
    "and",
    "any",
    "can",
    "ccw",
    "end",
    "for",
    "may",
    "not",
    "own",
    "per",
    "put",
    "sow",
    "win",
    "cw",
    "in",
    "no",
    "on",
    "or",
    "to",
    "store",
    "pit",
    "{",
    "}",
    "(",
    ")",
    ",",
    ":",
    "..",
    "=",
    "<",
    ">",
    ">=",
    "<=",
    "!=",
    "+",
    "-",
    "*",
    "/",
    "%",
    "|",
    "\"\"",
    "\"x\"",
    "x",
    "A",
    "a",
];

/// Builds one mutant of `seeds[base]`: one to a few mutations, stacked.
pub fn mutant(seeds: &[Seed], rng: &mut Rng64) -> Vec<u8> {
    let seed = rng.pick(seeds);
    let mut tokens = seed.tokens.clone();
    let tail = seed.tail.clone();
    let mut n = 1;
    while n < 6 && rng.chance(45) {
        n += 1;
    }
    let mut bytes_edits = 0;
    for _ in 0..n {
        if rng.chance(6) {
            bytes_edits += 1;
        } else {
            structural(&mut tokens, seeds, rng);
        }
    }
    let mut bytes = render(&tokens, &tail).into_bytes();
    for _ in 0..bytes_edits {
        byte_level(&mut bytes, rng);
    }
    bytes
}

/// One token- or item-level mutation.
fn structural(tokens: &mut Vec<Token>, seeds: &[Seed], rng: &mut Rng64) {
    if tokens.is_empty() {
        tokens.push(Token { pre: String::new(), text: rng.pick(WORDS).to_string(), kind: Kind::Word });
        return;
    }
    let len = tokens.len();
    match rng.below(13) {
        0 => {
            tokens.remove(rng.below(len));
        }
        1 => {
            let i = rng.below(len);
            let t = tokens[i].clone();
            tokens.insert(i, t);
        }
        2 => {
            let (i, j) = (rng.below(len), rng.below(len));
            tokens.swap(i, j);
        }
        3 => {
            // A token from another place or another file.
            let other = rng.pick(seeds);
            if !other.tokens.is_empty() {
                let mut t = rng.pick(&other.tokens).clone();
                let i = rng.below(len);
                t.pre = tokens[i].pre.clone();
                tokens[i] = t;
            }
        }
        4 => {
            let i = rng.below(len);
            tokens[i].text = rng.pick(WORDS).to_string();
        }
        5 | 6 => change_number(tokens, rng),
        7 => {
            let it = items(tokens);
            let item = *rng.pick(&it);
            tokens.drain(item.start..item.end);
        }
        8 => {
            let it = items(tokens);
            let item = *rng.pick(&it);
            let copy: Vec<Token> = tokens[item.start..item.end].to_vec();
            let at = if rng.chance(50) { item.end } else { item.start };
            tokens.splice(at..at, copy);
        }
        9 => swap_items(tokens, rng),
        10 | 11 => splice_item(tokens, seeds, rng),
        _ => {
            // An item moved elsewhere, at any depth.
            let it = items(tokens);
            let item = *rng.pick(&it);
            let moved: Vec<Token> = tokens.drain(item.start..item.end).collect();
            let rest = items(tokens);
            let at = if rest.is_empty() { 0 } else { rng.pick(&rest).start };
            tokens.splice(at..at, moved);
        }
    }
}

fn change_number(tokens: &mut [Token], rng: &mut Rng64) {
    let numbers: Vec<usize> = (0..tokens.len()).filter(|&i| tokens[i].kind == Kind::Number).collect();
    if numbers.is_empty() {
        return;
    }
    let i = *rng.pick(&numbers);
    let old: u128 = tokens[i].text.parse().unwrap_or(1);
    tokens[i].text = match rng.below(4) {
        0 => old.saturating_add(1).to_string(),
        1 => old.saturating_sub(1).to_string(),
        2 => old.saturating_mul(2 + rng.below(30) as u128).to_string(),
        _ => rng.pick(NUMBERS).to_string(),
    };
}

/// Two items at the same depth that do not overlap change places.
fn swap_items(tokens: &mut Vec<Token>, rng: &mut Rng64) {
    let it = items(tokens);
    let a = *rng.pick(&it);
    let others: Vec<Item> =
        it.iter().copied().filter(|b| b.depth == a.depth && (b.start >= a.end || b.end <= a.start)).collect();
    if others.is_empty() {
        return;
    }
    let b = *rng.pick(&others);
    let (x, y) = if a.start < b.start { (a, b) } else { (b, a) };
    let mut out = Vec::with_capacity(tokens.len());
    out.extend_from_slice(&tokens[..x.start]);
    out.extend_from_slice(&tokens[y.start..y.end]);
    out.extend_from_slice(&tokens[x.end..y.start]);
    out.extend_from_slice(&tokens[x.start..x.end]);
    out.extend_from_slice(&tokens[y.end..]);
    *tokens = out;
}

/// An item of another file inserted at an item boundary, or in place of an item.
fn splice_item(tokens: &mut Vec<Token>, seeds: &[Seed], rng: &mut Rng64) {
    let other = rng.pick(seeds);
    if other.items.is_empty() {
        return;
    }
    let from = *rng.pick(&other.items);
    let copy = other.tokens[from.start..from.end].to_vec();
    let it = items(tokens);
    if it.is_empty() {
        tokens.extend(copy);
        return;
    }
    // Prefer a place at the same depth, where the item may make sense.
    let same: Vec<Item> = it.iter().copied().filter(|i| i.depth == from.depth).collect();
    let at = if same.is_empty() || rng.chance(20) { *rng.pick(&it) } else { *rng.pick(&same) };
    if rng.chance(40) {
        tokens.splice(at.start..at.end, copy);
    } else {
        tokens.splice(at.start..at.start, copy);
    }
}

/// A byte-level edit of the printed text: a changed, inserted or deleted byte, a byte order mark, a long
/// line or a deep nesting.
fn byte_level(bytes: &mut Vec<u8>, rng: &mut Rng64) {
    let len = bytes.len();
    let at = rng.below(len + 1);
    match rng.below(9) {
        0 if len > 0 => bytes[at.min(len - 1)] = rng.next() as u8,
        1 => bytes.insert(at, rng.next() as u8),
        2 if len > 0 => {
            let start = at.min(len - 1);
            let end = (start + 1 + rng.below(8)).min(len);
            bytes.drain(start..end);
        }
        3 => bytes.splice(0..0, "\u{feff}".bytes()).for_each(drop),
        4 => {
            let weird: &[&str] = &["\u{feff}", "\0", "\r", "\u{e9}", "\u{1F600}", "\u{202e}", "\t", "\u{a0}"];
            let w = rng.pick(weird);
            bytes.splice(at..at, w.bytes()).for_each(drop);
        }
        5 => {
            // A very long line: renderers and column counters meet columns past 65535 here.
            let filler = rng.pick(&["x", " ", "a ", "1", "#"]).repeat(70_000);
            bytes.splice(at..at, filler.bytes()).for_each(drop);
        }
        6 => {
            let depth = 1 + rng.below(200);
            let open = rng.pick(&["(", "{", "not ", "[", "-"]).repeat(depth);
            bytes.splice(at..at, open.bytes()).for_each(drop);
        }
        7 => bytes.truncate(at),
        _ => {
            let w = rng.pick(WORDS);
            bytes.splice(at..at, format!(" {w} ").bytes()).for_each(drop);
        }
    }
}
