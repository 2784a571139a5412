//! The words of the language, each with what it means and a one-line example: the one table that the
//! editor tools (hover, completion in `ide`, the playground's highlighting) and the syntax errors ("did you
//! mean") read.
//!
//! The tests below hold it to the grammar and the reference: every word of the grammar (the reserved words
//! of its `keyword` rule and every other word it matches, such as `as` or `store`) has exactly one entry, no
//! entry is a word the grammar lacks, an entry is `reserved` exactly when the grammar's `keyword` rule has
//! it, and the list of keywords in `docs/language.md` §1 is the list of reserved words.

/// One word of the language.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keyword {
    pub word: &'static str,
    /// The word cannot be a name (the grammar's `keyword` rule); the others mean something only where the
    /// grammar expects them (`as` in `mark here as tuzdyk`, `store` in `with store`).
    pub reserved: bool,
    /// What it means, in a sentence or two.
    pub meaning: &'static str,
    /// One line of a rule file that uses it.
    pub example: &'static str,
}

/// The entry of a word, if it is one of the language's.
pub fn lookup(word: &str) -> Option<&'static Keyword> {
    KEYWORDS.iter().find(|k| k.word == word)
}

/// Whether a word is reserved: it cannot be a name.
pub fn is_reserved(word: &str) -> bool {
    lookup(word).is_some_and(|k| k.reserved)
}

/// The reserved words, in the table's order.
pub fn reserved() -> impl Iterator<Item = &'static str> {
    KEYWORDS.iter().filter(|k| k.reserved).map(|k| k.word)
}

/// The words that name how one place stands to another, offered wherever a place or a set can be written.
pub const RELATIONS: &[&str] =
    &["here", "last", "origin", "start", "opposite", "twin", "next", "behind", "ahead", "facing", "pits", "owner"];

const fn kw(word: &'static str, meaning: &'static str, example: &'static str) -> Keyword {
    Keyword { word, reserved: true, meaning, example }
}

/// A word that means something only where the grammar expects it, and may also be a name elsewhere.
const fn ctx(word: &'static str, meaning: &'static str, example: &'static str) -> Keyword {
    Keyword { word, reserved: false, meaning, example }
}

/// Every word of the language, in alphabetical order.
pub const KEYWORDS: &[Keyword] = &[
    kw("about", "A one-line description of the game, shown to players.", "about \"Sow counter-clockwise into your own store.\""),
    kw("accept", "In `on accept { ... }` of an offer: what happens when the opponent accepts it.", "on accept { give offered to opponent }"),
    kw("after", "`sweep SET to PLACE after repetition | stuck | limit`: the sweep is made only when the game ended that way.", "sweep pits to store(owner) after repetition"),
    kw("again", "`again when CONDITION`: the mover plays again after the sowing (or, in a phase, after any ply of it) while the condition holds.", "again when last = store(mover)"),
    kw("ahead", "`ahead` or `ahead(PLACE)`: the pit in front of `here` (or the place) in its column, one row nearer the middle of the board (boards of three or four rows): `ahead(o3)` is `i3`.", "capture when count(ahead(here)) > 0 { take from ahead(here) to store(mover) }"),
    kw("all", "`all SET(CONDITION)` or `all players(CONDITION)`: the condition holds at every place of the set (as `here`) or for every player (as `player`).", "goal all pits(count = 0)"),
    ctx("alternate", "`first alternate`: the rounds of a match are started by each player in turn.", "first alternate"),
    kw("and", "Joins two conditions: both must hold. Binds tighter than `or`.", "when here in pits(mover) and count = 1"),
    kw("any", "`any SET(CONDITION)` or `any players(CONDITION)`: the condition holds at some place of the set or for some player. In `must ... else any`: the obligation is dropped when no move meets it.", "when any players(count(pits(player)) = 0)"),
    ctx("as", "In `mark PLACE as NAME`: the mark the place gets.", "mark here as tuzdyk(mover)"),
    ctx("at", "`start at origin`, `capture at every drop`, `when ... at every lap` and `continue at PLACE`.", "start at origin when lifted >= 2"),
    kw("backward", "A chain of captures that goes on against the direction of the sowing (`chain backward`); in `refill ... backward`, from the pit of the highest number down.", "chain backward while count in {2, 3}"),
    kw("before", "`before` or `before(PLACE)`: how many pieces the place (`here` when not given) held just before the last piece of this move fell into it.", "relay when before >= 2"),
    kw("behind", "`behind` or `behind(PLACE)`: the pit behind `here` (or the place) in its column, one row further from the middle of the board (boards of three or four rows): `behind(i3)` is `o3`.", "take from facing(here) to behind(here)"),
    kw("board", "The shape of the board: `two_rows N [with stores]`, `rows R of N [with stores]` or `ring N`.", "board two_rows 6 with stores"),
    ctx("borrow", "`refill ... with N borrow K from PLACE`: a player whose source holds at most K pieces too few for one more pit fills it all the same, the pieces he lacks taken from the place.", "refill pits from store(player) with 3 borrow 1 from store(opponent) claim from corner(player) else mark out"),
    kw("both", "`chain both`: a chain of captures that goes on in both directions from the capture pit.", "chain both while count = 4"),
    kw("can", "In `when nobody can move`: the game ends when no player has a legal move.", "when nobody can move"),
    kw("cancel", "`cancel when CONDITION` inside a capture: the whole capture is called off when the condition holds after it.", "cancel when count(pits(opponent)) = 0"),
    kw("cannot", "`pass when cannot move` / `pass when cannot ACTION`, `eliminate when cannot move`: the player has no legal move (of that action).", "pass when cannot move"),
    kw("capture", "`capture [at every drop | at every lift] [may [as \"WORD\" or \"WORD\"]] [when CONDITION] { ... }`: what a sowing captures where its last piece falls (at every drop: where each piece falls; at every lift: at each pit a lap is about to be lifted from); `must capture`: the first lap must end in a capture.", "capture when here in pits(opponent) and count in {2, 3} { take to captured(mover) }"),
    kw("captures", "`captures(PLAYER)`: how many of that player's plies so far made a capture.", "eliminate when player = mover and captures(opponent) >= 2"),
    kw("capturing", "In `direction ccw or cw when ...`: a capture rule of the sowing applies at `here`.", "direction ccw or cw when capturing and lap = 1"),
    kw("ccw", "Counter-clockwise: the direction of sowing along each player's track.", "direction ccw"),
    kw("chain", "`chain backward|forward|both [while CONDITION]` inside a capture: the capture goes on to the neighbouring pits while the condition holds there.", "chain backward while here in pits(opponent) and count in {2, 3}"),
    kw("choose", "`direction choose`: the mover chooses the direction; `order choose`: he chooses the order of the pieces he drops; `choose N..M from SET` in an offer: the pits he offers.", "direction choose"),
    kw("chosen", "`take ... chosen`: the mover chooses which pieces (or which place) are taken.", "take 1 gem chosen from pits(opponent) to cup(mover)"),
    ctx("claim", "`refill ... claim from PLACE`: each player in turn walks the track from the place, filling the empty pits he reaches and taking them as his own.", "refill pits from store(player) with 7 claim from store(player)"),
    ctx("continue", "`continue at PLACE` inside a capture: the lap ends again at that place, as if its last piece had fallen there.", "continue at next(next)"),
    kw("count", "`count`, `count(PLACES)`, `count(PLACES, KIND)` or `count(KIND)`: how many pieces (of that kind) there are in `here` or in the places.", "capture when count = 1 and count(opposite) > 0 { take from here, opposite to store(mover) }"),
    ctx("cut", "`cut when endless`: a move that would never end stops where that is found, and play goes on.", "cut when endless"),
    kw("cw", "Clockwise: the other direction of sowing.", "direction cw"),
    kw("default", "In `players MIN..MAX default N`: the number of players when none is chosen.", "players 2..6 default 2"),
    kw("direction", "`direction ccw|cw|choose [where CONDITION]` or `direction ccw or cw when CONDITION`: the way a sowing goes; in a condition, `direction = cw` tests the way the lap goes.", "direction ccw"),
    kw("divert", "`divert NAME to PLACE`: a piece dropped into a pit carrying the mark goes on to the place at once.", "divert tuzdyk to kazan(owner)"),
    kw("draw", "`draw when CONDITION`, `draw when no capture for N rounds|turns`, `draw when endless`, `draw when repetition`: an end rule that ends the game in a draw, whatever the scores; in `ties draw`, a tie of the scores is a draw.", "draw when all pits(count <= 1)"),
    kw("drop", "In `capture at every drop`: the capture is tried at each pit a piece falls into.", "capture at every drop when count = 4 { take to store(mover) }"),
    kw("dropped", "`dropped` or `dropped(PLACE)`: the kind of the last piece this move dropped into `here` (or that place).", "capture when dropped = stone and before = 1 { take gem to cup(mover) }"),
    kw("each", "`take ... to each SET`: the pieces taken are shared out, one to each place of the set.", "take from here to each pits(mover)"),
    kw("eliminate", "`eliminate when CONDITION`, `eliminate when cannot move` or `eliminate when endless`: the player for whom it holds is out of the game.", "eliminate when count(pits(player)) = 0 and count(supply(player)) = 0"),
    kw("else", "`must ... else end|any`, `from SET else SET`, `take from PLACES else PLACES`, `refill ... else mark NAME`: what applies when what comes before cannot.", "from inner(mover) where count >= 2 else outer(mover) where count >= 2"),
    ctx("empty", "In `mark NAME until empty`: the pit loses the mark as soon as it is left empty.", "mark nyumba per player until empty"),
    kw("end", "`end { ... }`: the end rules (when the game, or a round, is over); in `must ... else end`, the game ends when no move meets the obligation.", "end { when count(pits(mover)) = 0 }"),
    kw("endless", "`draw when endless`, `eliminate when endless`, `cut when endless`: what happens to a move that would never end.", "draw when endless"),
    kw("every", "`every pit` / `every NAME` in a setup; `at every drop` (a capture), `at every lap` (an end rule).", "every pit: 4"),
    ctx("exactly", "`TARGETS: exactly CONTENTS` in a setup: the places hold just these contents, whatever the lines before put there (setup lines otherwise add up).", "a, A: exactly 0"),
    ctx("except", "In `skip SET where CONDITION except last`: the last piece of a lap is never passed over by the condition.", "skip pits where count >= 3 except last"),
    kw("extends", "`variant \"NAME\" extends \"OTHER\"`: the variant starts from another variant instead of the base game.", "variant \"short\" extends \"empty-capture\" { setup { every pit: 3 } }"),
    kw("facing", "`facing` or `facing(PLACE)`: every pit across the middle of the board in the column of `here` (or of the place).", "take from facing(here) to here"),
    ctx("first", "`first winner|loser|alternate` in `rounds { ... }`: who starts the next round.", "first winner"),
    kw("for", "`draw when no capture for N rounds|turns`; `mark NAME for one ply` / `for N plies`: how long a mark lasts.", "mark raided for one ply"),
    kw("foreign", "The pieces of every colour but the mover's (with `pieces per player`).", "take foreign to centre"),
    kw("forward", "`chain forward`: a chain of captures that goes on in the direction of the sowing.", "chain forward while count = 2"),
    kw("from", "`from SET [where CONDITION]`: the pits a sowing may start from; in `take`, `then`, `put`, `refill`, `lift`: where the pieces come from.", "from pits(mover) where count > 0"),
    kw("game", "The game's name; every file starts with it.", "game \"Kalah\""),
    kw("give", "`give PLACE to PLAYER` inside a capture: the pit changes hands; `give offered to PLAYER` in an offer.", "give here to mover"),
    kw("goal", "`goal CONDITION`: what a solitaire player must reach to win.", "goal all pits(count = 0)"),
    kw("hand", "`take ... to hand`: the pieces go to the mover's hand, to be sown on by the capture's `sow from`.", "take from facing(here) to hand"),
    kw("here", "The place being looked at: the candidate pit in `where`, the capture pit, the place of a quantifier or a sweep.", "capture when here in pits(mover) and count = 1 { take to store(mover) }"),
    kw("in", "`PLACE in SET` (a place belongs to a set) or `TERM in {N, M}` (a number is one of those listed).", "capture when count in {2, 3} { take to store(mover) }"),
    kw("into", "`put N from PLACE into SET`: the pits a put may choose; `sow into PLACE`: a capture's pieces are sown from that place itself.", "put { 1 from supply(mover) into pits where count = 0 }"),
    kw("keeping", "In an offer's `choose N..M from SET, keeping K`: the offerer keeps at least K pits.", "choose 1..3 from pits(mover), keeping 1"),
    kw("lap", "`lap`: the number of the lap being sown in this move, 1 for the first; `at every lap` in an end rule.", "direction ccw or cw when capturing and lap = 1"),
    kw("last", "The place where the last piece of the sowing fell; `order choose last own`; `ties last mover`.", "again when last = store(mover)"),
    kw("lift", "`lift N [from PLACE] [when CONDITION]`: a lap lifts N pieces (from the place instead of its pit) where the condition holds as it starts.", "lift 1 from hand(mover) when lap = 1"),
    kw("lifted", "In `start at origin when ...`: the pieces lifted for the lap being started.", "start at origin when lifted >= 2"),
    kw("limit", "`limit N plies` in `end`: the game stops after N plies; `limit N rounds` in `rounds`: the match stops after N rounds.", "limit 1000 plies"),
    kw("lose", "Reserved for later; it means nothing yet.", "# (no example: reserved)"),
    ctx("loser", "`first loser` in `rounds { ... }`: the loser of a round starts the next.", "first loser"),
    kw("mark", "`mark NAME [per player] [for one ply | for N plies] [until empty]` declares a mark that pits carry; `mark PLACE as NAME` sets it (in a capture, a sowing, or the setup).", "mark tuzdyk per player"),
    ctx("match", "`match when CONDITION` in `rounds { ... }`: after a round and its refill, the match is over when it holds.", "match when any players(count(pits(player)) = 0)"),
    kw("may", "`capture may`: the mover chooses whether the capture happens; `opponent may`: the opponent chooses whether he answers the move; `then may take`, `relay may when`: optional.", "then may take from pits where count = 2 to furrow(mover)"),
    kw("most", "`winner most score`: the player with the highest score wins.", "winner most score, ties draw"),
    kw("move", "`pass when cannot move`, `eliminate when cannot move`, `when nobody can move`.", "pass when cannot move"),
    kw("mover", "The player making the move (in end rules and `until`, the player about to move); as a kind, his colour.", "again when last = store(mover)"),
    kw("moves", "`moves(PLAYER)`: how many plies that player has made so far; 0 during his first.", "from pits(mover) where moves(mover) > 0 or here in first(mover)"),
    kw("must", "`must AFTER when WHEN else end|any`: an obligation on the mover; `must capture`: the first lap must capture; `then must take`.", "must count(pits(opponent)) > 0 when count(pits(opponent)) = 0 else end"),
    kw("next", "`next` or `next(PLACE)`: the place after `here` (or the place) along the lap's track and direction; `relay from next`.", "continue at next(next)"),
    kw("no", "`no SET(CONDITION)` / `no players(CONDITION)`: the condition holds nowhere; `draw when no capture for N rounds`.", "when no pits(mover)(count > 1)"),
    kw("nobody", "`when nobody can move`: the game ends when no player has a legal move.", "when nobody can move"),
    kw("not", "`not CONDITION`: the condition does not hold. Binds tightest.", "where not (count = 1 or count > 10)"),
    kw("number", "`number` or `number(PLACE)`: a pit's number in its row, from its owner's left, from 1.", "from pits where count > 0 and count <= 5 - number(here)"),
    kw("of", "In `board rows R of N`: R rows of N pits.", "board rows 4 of 8"),
    kw("offer", "`offer [NAME] { choose ... require ... on accept { ... } }`: the mover offers pits, which the opponent accepts or not.", "offer { choose 1..3 from pits(mover), keeping 1 on accept { give offered to opponent } }"),
    kw("offered", "The pits of the offer being made (inside an `offer` only).", "require count(captured(opponent)) >= 6 * size(offered)"),
    kw("on", "`on accept { ... }` in an offer: what happens when the opponent accepts.", "on accept { give offered to opponent }"),
    ctx("one", "`mark NAME for one ply`: the mark lasts until the ply that made it is over (the end rules after it see it).", "mark raided for one ply"),
    kw("opponent", "The next player after the mover, in seat order, who is still in the game; `opponent may [when CONDITION] { ... }` in a sowing: the opponent's answer in the middle of the move, which he makes or lets be.", "opponent may when all facing(here)(count > 0) { take from opposite to behind(opposite) }"),
    kw("opposite", "`opposite` or `opposite(PLACE)`: the nearest pit across the middle of the board, in the column of `here` (or of the place).", "take from here, opposite to store(mover)"),
    kw("or", "Joins two conditions: either may hold. `direction ccw or cw when ...`: a direction per lap.", "when count = 2 or count = 3"),
    kw("order", "`order choose [last own]`: the mover chooses the order of the pieces he drops (with `last own`, his own colour last).", "order choose last own"),
    kw("origin", "The pit the current lap was lifted from; `skip origin`, `start at origin`.", "skip origin"),
    kw("own", "The pieces of the mover's colour (with `pieces per player`); `order choose last own`.", "take own to furrow(mover)"),
    kw("owner", "`owner` or `owner(PLACE)`: the owner of `here` (or of the place).", "sweep pits to store(owner)"),
    kw("pass", "`pass when cannot move` or `pass when cannot ACTION, ...`: the player may sit out his turn when he can play none of those actions.", "pass when cannot sow, enter"),
    kw("passed", "`passed(PLACE)`: 1 when a piece was dropped into the place during this turn, else 0.", "again when last = store(mover) and passed(store(mover)) = 1"),
    kw("per", "`per player`: one for every player (a place, a region, a mark, the colours of the pieces).", "place captured per player"),
    kw("phase", "`phase NAME { ... }`: one stage of play, with its actions and `until`; phases follow one another in the order written.", "phase placing { put { 1 from supply(mover) into pits } until count(supply) = 0 }"),
    kw("pieces", "What the pieces are: `pieces seeds`, `pieces per player { ... }` (one colour each) or `pieces { ... }` (kinds with values).", "pieces seeds"),
    kw("pits", "`pits` or `pits(PLAYER)`: every pit of the board, or the pits the player owns now.", "from pits(mover) where count > 0"),
    kw("place", "`place NAME per player|shared`: a place off the board, such as a pile of captured seeds.", "place captured per player"),
    kw("player", "The player being tested in `score`, `eliminate when` and `all/any/no players(...)`; `per player`.", "score count(store(player))"),
    kw("players", "`players N` or `players MIN..MAX default N`: how many players; `all/any/no players(...)`: a quantifier over them.", "players 2"),
    kw("plies", "`limit N plies`; `mark NAME for N plies`.", "limit 1000 plies"),
    ctx("ply", "`mark NAME for one ply`.", "mark raided for one ply"),
    kw("prefer", "`prefer A, B, ...`: of these actions, only the first that can start is allowed.", "prefer mtaji, takasa"),
    kw("previous", "`previous` or `previous(PLACE)`: the place before it along the lap's track and direction (the place whose `next` it is).", "capture when count = 2 and count(previous(last)) = 2 { take from here, previous(last) to store(mover) }"),
    kw("put", "`put [NAME] { N [KIND] from PLACE into SET [where CONDITION] [, RANGE times] }`: the mover places pieces.", "put { 1 from supply(mover) into pits where count = 0 }"),
    ctx("refill", "`refill SET from PLACE with N [borrow K from PLACE] [backward] [claim from PLACE] [else mark NAME]` in `rounds { ... }`: how pits are filled for the next round.", "refill pits(player) from store(player) with 7 backward else mark burnt"),
    kw("region", "`region NAME [per player]: LABEL, ...`: a named set of pits (per player: the first player's labels).", "region leftmost per player: o1, o2, i1, i2"),
    kw("relay", "`relay [from next | may] when CONDITION`: where the last piece falls and the condition holds, that pit is lifted and sown on.", "relay when count > 1"),
    kw("repetition", "`when repetition` / `draw when repetition`: a position that comes back ends the game.", "draw when repetition"),
    kw("require", "`require CONDITION` in a sowing: a move after which it does not hold is not allowed; in an offer: when it may be made.", "require before > 0"),
    kw("ring", "`board ring N`: N pits in a ring, numbered clockwise from 1, owned by nobody.", "board ring 15"),
    kw("round", "`round`: the number of the round being played in a match of rounds, from 1.", "match when round = 5"),
    kw("rounds", "`rounds { ... }`: the game is a match of rounds; `limit N rounds`; `draw when no capture for N rounds`.", "draw when no capture for 5 rounds"),
    kw("rows", "`board rows R of N [with stores] [{ rows NAME, ... }]`: R rows of N pits, and names for each player's rows from his own edge inward.", "board rows 4 of 8 { rows outer, inner }"),
    kw("score", "`score TERM`: what each player scores (`player` is the one scored); `winner most score`.", "score count(store(player))"),
    kw("seat", "`seat(PLAYER)`: the player's seat, 1 for the player who moves first.", "from pits(mover) where seat(mover) = 1 or count >= 2"),
    kw("seeds", "`pieces seeds`: all pieces are alike, only their number matters.", "pieces seeds"),
    kw("setup", "`setup { ... }`: what is where before the first move.", "setup { every pit: 4 }"),
    kw("shared", "`place NAME shared`: a single place that belongs to nobody; `ties shared`: a tie is shared.", "place centre shared"),
    kw("size", "`size(SET)`: how many places the set has; `size(SET where CONDITION)`: how many of its pits pass the condition.", "when size(pits(mover) where count > 0) = 1"),
    kw("skip", "`skip origin`, `skip PLACE` or `skip SET where CONDITION [except last]`: the sowing passes over that place (or, drop by drop, the pits of the set where the condition holds).", "skip pits(opponent) where count >= 3 except last"),
    kw("sow", "`sow [NAME] { ... }`: a sowing action; in a capture, `sow from PLACE` / `sow into PLACE` sows the pieces taken to the hand.", "sow { from pits(mover) where count > 0  direction ccw }"),
    kw("start", "`start`: the pit the move began from, whatever lap is being sown (`sow from start`); `start at origin [when CONDITION]`: each lap's first piece goes back into the pit it was lifted from.", "sow from start"),
    ctx("store", "`with store`: the one store of a board of one row.", "board rows 1 of 4 with store"),
    kw("stores", "`with stores`: a store at each player's right end, on the track.", "board two_rows 6 with stores"),
    kw("stuck", "`when stuck`: the game ends when the player to move has no legal move.", "when stuck"),
    kw("sweep", "`sweep SET to PLACE [after repetition | stuck | limit]` in `end`: when the game ends (that way), the pieces of the set go to the place.", "sweep pits to store(owner)"),
    kw("take", "`take [N] [KIND] [chosen] [from PLACES] to [each] PLACE` in a capture or an offer; `then may|must take`; as a turn's action, `take [NAME] { [N] [KIND] from SET [where CONDITION] to PLACE }`: the pieces of a pit the mover chooses go to a place, without sowing.", "take from here, opposite to store(mover)"),
    kw("taken_first", "The pits the first capture of the move being made took pieces from.", "must any taken_first(here in takasia(opponent)) when size(takasia(opponent)) > 0 else any"),
    kw("then", "`then may|must take ...` or `then mark SET as NAME`: what follows the sowing's move.", "then must take from pits where count = 2 to furrow(mover)"),
    kw("threats", "`threats(PLAYER)`: the pits the first capture of each move the player could make now would take from.", "then mark threats(opponent) as takasia(opponent)"),
    kw("ties", "`winner most score, ties draw|shared|last mover`: what a tie of the scores means.", "winner most score, ties draw"),
    kw("times", "`, N times` / `, N..M times` in a put: how often it is made in one ply.", "put { 1 from supply(mover) into pits, 2 times }"),
    kw("to", "Where pieces go: `take ... to PLACE`, `sweep SET to PLACE`, `divert NAME to PLACE`; `give PLACE to PLAYER`.", "sweep pits to store(owner)"),
    kw("turn", "`turn { ... }`: what a player does on his turn, for a game of one phase.", "turn { sow { from pits(mover) where count > 0 } }"),
    kw("turns", "`draw when no capture for N turns`.", "draw when no capture for 50 turns"),
    kw("twin", "`twin` or `twin(PLACE)`: the pit of the same number on the other player's rows.", "take from twin(here) to here"),
    kw("two_rows", "`board two_rows N [with stores]`: two rows of N pits, one row each.", "board two_rows 6 with stores"),
    kw("unmark", "`unmark PLACE [NAME]` or `unmark SET [NAME]`: the place, or every pit of the set, loses the mark (every mark without a name).", "unmark pits(mover) locked"),
    kw("until", "`until CONDITION`: the phase ends and the next begins; `mark NAME until empty`.", "until count(supply) = 0"),
    kw("value", "`value(PLACES)`: the total value of the pieces; `NAME \"S\" value N` gives a kind its value.", "score value(cup(player))"),
    kw("variant", "`variant \"NAME\" [extends \"OTHER\"] { ... }`: a variant of the game, replacing the items it writes.", "variant \"empty-capture\" { turn { sow { from pits(mover) where count > 0 } } }"),
    kw("when", "The condition of a rule: `capture when`, `again when`, `relay when`, an end rule `when ...`, `pass when`, `must ... when`.", "when count(pits(mover)) = 0"),
    kw("where", "`where CONDITION`: only the places for which it holds (`from`, `put`, `take`, `then`, `direction`).", "from pits(mover) where count > 0"),
    kw("while", "`chain ... while CONDITION`: the chain goes on while it holds.", "chain backward while count in {2, 3}"),
    kw("win", "Reserved for later; it means nothing yet.", "# (no example: reserved)"),
    kw("winner", "`winner most score, ties ...`: how the scores decide the winner; `first winner`: the winner of a round starts the next.", "winner most score, ties draw"),
    kw("with", "`with stores` on a board; `refill ... with N`: N pieces a pit.", "board two_rows 6 with stores"),
];

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    const GRAMMAR: &str = include_str!("../grammar/mancala.pest");
    const REFERENCE: &str = include_str!("../docs/language.md");

    /// The grammar without its comments.
    fn rules() -> String {
        GRAMMAR.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
    }

    /// The quoted words of a grammar text: `"capture"`, not `"\""` or `"{"`.
    fn quoted_words(text: &str) -> BTreeSet<String> {
        let mut words = BTreeSet::new();
        let mut chars = text.chars();
        while let Some(c) = chars.next() {
            if c != '"' {
                continue;
            }
            let mut word = String::new();
            while let Some(c) = chars.next() {
                match c {
                    '\\' => word.extend(chars.next()),
                    '"' => break,
                    c => word.push(c),
                }
            }
            if word.len() > 1 && word.bytes().all(|b| b.is_ascii_lowercase() || b == b'_') {
                words.insert(word);
            }
        }
        words
    }

    /// The words of the grammar's `keyword` rule: the ones that cannot be names.
    fn grammar_reserved() -> BTreeSet<String> {
        let rules = rules();
        let start = rules.find("keyword = @{").expect("the grammar has a keyword rule");
        let end = start + rules[start..].find("\n}").expect("the keyword rule ends");
        quoted_words(&rules[start..end])
    }

    fn table() -> BTreeSet<String> {
        KEYWORDS.iter().map(|k| k.word.to_string()).collect()
    }

    #[test]
    fn every_word_of_the_grammar_has_one_entry_and_no_entry_is_not_a_word() {
        let grammar = quoted_words(&rules());
        let table = table();
        let missing: Vec<_> = grammar.difference(&table).collect();
        let extra: Vec<_> = table.difference(&grammar).collect();
        assert!(missing.is_empty(), "words of the grammar without an entry in keywords.rs: {missing:?}");
        assert!(extra.is_empty(), "entries of keywords.rs that are not words of the grammar: {extra:?}");
        assert_eq!(table.len(), KEYWORDS.len(), "a word has two entries");
        let mut sorted: Vec<&str> = KEYWORDS.iter().map(|k| k.word).collect();
        sorted.sort_unstable();
        assert_eq!(sorted, KEYWORDS.iter().map(|k| k.word).collect::<Vec<_>>(), "keep the table in alphabetical order");
    }

    #[test]
    fn an_entry_is_reserved_exactly_when_the_grammar_reserves_the_word() {
        let reserved: BTreeSet<String> = reserved().map(str::to_string).collect();
        assert_eq!(reserved, grammar_reserved());
    }

    #[test]
    fn the_reference_lists_the_reserved_words() {
        let start = REFERENCE.find("The full list of keywords is: `").expect("docs/language.md §1 lists the keywords");
        let list = &REFERENCE[start..].split('`').nth(1).expect("the list is quoted");
        let listed: BTreeSet<String> = list.split_whitespace().map(str::to_string).collect();
        let reserved: BTreeSet<String> = reserved().map(str::to_string).collect();
        let missing: Vec<_> = reserved.difference(&listed).collect();
        let extra: Vec<_> = listed.difference(&reserved).collect();
        assert!(missing.is_empty(), "reserved words missing from docs/language.md §1: {missing:?}");
        assert!(extra.is_empty(), "words listed in docs/language.md §1 that are not reserved: {extra:?}");
        let start = REFERENCE.find("may still be names: `").expect("docs/language.md §1 lists the other words");
        let list = &REFERENCE[start..].split('`').nth(1).expect("the list is quoted");
        let listed: BTreeSet<&str> = list.split_whitespace().collect();
        let contextual: BTreeSet<&str> = KEYWORDS.iter().filter(|k| !k.reserved).map(|k| k.word).collect();
        assert_eq!(listed, contextual, "the words of docs/language.md §1 that may still be names");
    }

    #[test]
    fn the_textmate_grammar_highlights_the_words_of_the_table() {
        let grammar: serde_json::Value =
            serde_json::from_str(include_str!("../editors/vscode/syntaxes/mancala.tmLanguage.json")).unwrap();
        let words = |key: &str| -> BTreeSet<String> {
            let pattern = grammar["repository"][key]["match"].as_str().unwrap_or_default();
            let inner = pattern.split("(?:").nth(1).and_then(|p| p.split(')').next()).unwrap_or_default();
            inner.split('|').map(str::to_string).collect()
        };
        let reserved: BTreeSet<String> = reserved().map(str::to_string).collect();
        let contextual: BTreeSet<String> =
            KEYWORDS.iter().filter(|k| !k.reserved).map(|k| k.word.to_string()).collect();
        assert_eq!(words("keyword"), reserved, "editors/vscode/syntaxes/mancala.tmLanguage.json: reserved words");
        assert_eq!(words("word"), contextual, "editors/vscode/syntaxes/mancala.tmLanguage.json: contextual words");
    }

    #[test]
    fn every_entry_says_something_and_shows_it() {
        for k in KEYWORDS {
            assert!(k.meaning.len() > 10, "{} has no meaning", k.word);
            assert!(
                k.example.contains(k.word) || k.example.starts_with('#'),
                "the example of {} does not use it",
                k.word
            );
        }
    }
}
