//! Conditions and the numbers, places, players, sets and kinds they are made of.

use super::*;

#[derive(Debug, Clone, Serialize)]
pub enum Cond {
    True,
    And(Vec<Cond>),
    Or(Vec<Cond>),
    Not(Box<Cond>),
    Cmp(Num, CmpOp, Num),
    /// The number is one of a set of numbers up to 255.
    InInts(Num, IntSet),
    InSet(PlaceExpr, Set),
    PlaceEq(PlaceExpr, PlaceExpr, bool),
    PlayerEq(PlayerExpr, PlayerExpr, bool),
    /// `dropped(P) = KIND`: the kind of the last piece dropped into P this move is in the set.
    Dropped(PlaceExpr, KindSel, bool),
    AllPits(Set, Box<Cond>),
    AnyPits(Set, Box<Cond>),
    AllPlayers(Box<Cond>),
    AnyPlayers(Box<Cond>),
    /// Fast form of `here in pits(P)`, made by `optimize`.
    HereOwnedBy(PlayerExpr),
    /// `direction = D` (or `!=` with `false`): the way the current lap goes, or the way a start considered
    /// by `direction ... where` would go (`Ctx::dir`).
    Direction(Dir, bool),
    /// A condition the engine compiled to a closure (its index in the engine's table).
    Compiled(u32),
}

/// A set of the numbers 0..=255 (every count a place can hold), as bits.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct IntSet(pub [u64; 4]);

impl IntSet {
    pub const MAX: u32 = 255;

    /// Adds `n`; false when it is past `MAX` (and is left out).
    pub fn insert(&mut self, n: u32) -> bool {
        if n > Self::MAX {
            return false;
        }
        self.0[(n / 64) as usize] |= 1 << (n % 64);
        true
    }

    #[inline]
    pub fn contains(&self, v: i32) -> bool {
        (0..=Self::MAX as i32).contains(&v) && self.0[(v / 64) as usize] & (1 << (v % 64)) != 0
    }

    /// The numbers of the set, smallest first.
    pub fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        (0..=Self::MAX).filter(|&n| self.contains(n as i32))
    }
}

/// `a / b` in rule files: rounds down, and a division by zero (which a check refuses where the divisor is
/// a constant) gives 0 rather than stopping the game.
#[inline]
pub fn div(a: i32, b: i32) -> i32 {
    a.checked_div_euclid(b).unwrap_or(0)
}

/// `a % b` in rule files: the remainder of `div`, never negative; by zero, `a` itself (so that
/// `b * (a / b) + a % b = a` always holds).
#[inline]
pub fn rem(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        a.checked_rem_euclid(b).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Debug, Clone, Serialize)]
pub enum Num {
    Const(i32),
    Count(Set, KindSel),
    Value(Set),
    Before(PlaceExpr),
    Size(Set),
    Add(Vec<Num>),
    Mul(Vec<Num>),
    /// Fast forms made by `optimize`: all pieces of `here`, of one place, of the pits a player owns.
    HereCount,
    PlaceCount(PlaceExpr),
    PitsCount(PlayerExpr),
    /// The number of a pit in its row (`number(X)`, see `Rules::number`).
    Number(PlaceExpr),
    /// The pieces lifted for the lap being started (`lifted`).
    Lifted,
    Sub(Box<Num>, Box<Num>),
    Div(Box<Num>, Box<Num>),
    Rem(Box<Num>, Box<Num>),
    /// `lap`: the lap of the move being sown, from 1.
    Lap,
    /// `captures(P)`: the plies of player P so far that made a capture (`State::capture_plies`).
    Captures(PlayerExpr),
    /// `moves(P)`: the plies player P has made so far (`State::plies_made`); 0 during his first.
    Moves(PlayerExpr),
    /// `round`: the round being played, from 1 (`State::round`).
    Round,
    /// `passed(P)`: 1 when a piece was dropped into P during this turn (`State::passed`), else 0.
    Passed(PlaceExpr),
    /// `size(SET where COND)`: how many pits of the set pass the condition, `here` each of them.
    SizeWhere(Set, Box<Cond>),
    /// `seat(P)`: the player's seat, 1 for the first.
    Seat(PlayerExpr),
}

impl Num {
    /// The value of a number made of constants only (`2 - 2`), which needs no position.
    pub fn constant(&self) -> Option<i32> {
        match self {
            Num::Const(v) => Some(*v),
            Num::Add(ns) => ns.iter().try_fold(0i32, |acc, n| Some(acc.wrapping_add(n.constant()?))),
            Num::Mul(ns) => ns.iter().try_fold(1i32, |acc, n| Some(acc.wrapping_mul(n.constant()?))),
            Num::Sub(a, b) => Some(a.constant()?.wrapping_sub(b.constant()?)),
            Num::Div(a, b) => Some(div(a.constant()?, b.constant()?)),
            Num::Rem(a, b) => Some(rem(a.constant()?, b.constant()?)),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub enum PlaceExpr {
    Here,
    Last,
    Origin,
    Opposite(Box<PlaceExpr>),
    Fixed(PlaceId),
    /// A per-player place: `base + player`.
    OfPlayer(PlaceId, PlayerExpr),
    /// The pit of the same number on the other player's rows (`Rules::twin`).
    Twin(Box<PlaceExpr>),
    /// The one pit of a player's region (`kichwa(mover)`): the lowest bit of its mask.
    RegionPit(u16, PlayerExpr),
    /// The place after this one along the mover's track in the lap's direction (`next`), past the lap's
    /// origin too when the sowing skips it (the bool), and past the pits carrying a mark the sowing skips
    /// (`skip NAME`, the bits of `Sow::skip_marks`).
    Next(Box<PlaceExpr>, bool, u32),
    /// The place before this one along the mover's track in the lap's direction (`previous`): the place
    /// whose `Next` (with the same skips) it is, found by walking the track from it; none for a place the
    /// lap passes over or off the track.
    Previous(Box<PlaceExpr>, bool, u32),
    /// The pit behind this one in its column (`Rules::behind`); no place where there is none.
    Behind(Box<PlaceExpr>),
    /// The pit in front of this one in its column (`Rules::ahead`); no place where there is none.
    Ahead(Box<PlaceExpr>),
    /// `start`: the pit the move began from (the first lap's origin), whatever lap is being sown
    /// (`State::start`).
    Start,
}

impl PlaceExpr {
    /// Whether the place is the same before a sowing starts as at its first lift: it names no place the
    /// sowing moves (`here`, `last`, `origin`, `start`) and no relation of one.
    pub fn known_before_sowing(&self) -> bool {
        match self {
            PlaceExpr::Fixed(_) => true,
            PlaceExpr::OfPlayer(_, who) | PlaceExpr::RegionPit(_, who) => who.known_before_sowing(),
            _ => false,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub enum PlayerExpr {
    Mover,
    Opponent,
    /// The player bound by a quantifier, `score` or `eliminate`.
    Bound,
    Owner(Box<PlaceExpr>),
}

impl PlayerExpr {
    /// Whether the player is known before a sowing starts: the mover, or the player after him.
    pub fn known_before_sowing(&self) -> bool {
        matches!(self, PlayerExpr::Mover | PlayerExpr::Opponent)
    }
}

#[derive(Debug, Clone, Serialize)]
pub enum Set {
    AllPits,
    PitsOf(PlayerExpr),
    Offered,
    One(PlaceExpr),
    /// Every player's place of one name: `base .. base + players`.
    EveryPlayer(PlaceId),
    /// The pits across the middle of the board from a place (`Rules::facing`).
    Facing(PlaceExpr),
    /// A region, every player's part of it (`inner`, or a fixed `region`).
    Region(u16),
    /// A player's part of a region (`inner(mover)`).
    RegionOf(u16, PlayerExpr),
    /// The pits carrying a mark: for one player, or (`None`) for anyone.
    Marked(MarkId, Option<PlayerExpr>),
    /// `threats(PLAYER)`: the pits that the first capture of each start the player could make now (as if he
    /// were to move, in the current phase) would take pieces from.
    Threats(PlayerExpr),
    /// `taken_first`: the pits the first capture of the ply being made took pieces from (`State::taken_first`).
    TakenFirst,
}

#[derive(Debug, Clone, Serialize)]
pub enum KindSel {
    All,
    Own,
    Foreign,
    Colour(PlayerExpr),
    Mask(KindMask),
}
