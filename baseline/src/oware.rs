//! Oware abapa, the game of `games/oware.mancala`: sow counter-clockwise, skipping the emptied house; a last
//! seed that makes 2 or 3 in an opponent's house captures it and the unbroken run of 2s and 3s before it,
//! unless that would take all his seeds; an empty opponent must be fed, and when he cannot be the game ends;
//! it ends too at 25 captured, when a position repeats, or when the player to move cannot move, and then each
//! player takes the seeds on his side.
//!
//! Layout: South's houses `0..6` (a..f), North's `6..12` (A..F), in counter-clockwise order.
//!
//! Two engines of the one game: [`Oware`], an array sown over a track per house, its history a list; and
//! [`Tight`], the board in one 128-bit word sown by adding words from tables, its history a hash set.

/// The interpreter's guard for games that set no ply limit.
pub const PLY_LIMIT: u32 = 20_000;
/// The houses a lap sows into: all but the one it was lifted from.
const LAP: usize = 11;

/// A position and what the tests compare with the interpreter: the plain engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Oware {
    pub pits: [u8; 12],
    pub captured: [u8; 2],
    pub to_move: u8,
    pub ply: u32,
    pub captures: u32,
    pub over: bool,
    /// The positions since the number of seeds on the board last changed, packed (see `key`).
    history: Vec<u128>,
}

impl Default for Oware {
    fn default() -> Oware {
        let mut o = Oware {
            pits: [4; 12],
            captured: [0; 2],
            to_move: 0,
            ply: 0,
            captures: 0,
            over: false,
            history: Vec::new(),
        };
        o.history.push(o.key());
        o
    }
}

impl Oware {
    /// The houses the player to move may sow from, in order: any non-empty one, and only those that reach the
    /// opponent when he has no seeds.
    pub fn legal_moves(&self, out: &mut Vec<u8>) {
        let mut moves = [0u8; 6];
        out.extend_from_slice(self.moves(&mut moves));
    }

    fn moves<'m>(&self, out: &'m mut [u8; 6]) -> &'m [u8] {
        let first = self.to_move as usize * 6;
        let must_feed = self.side(1 - self.to_move as usize) == 0;
        let mut n = 0;
        for p in first..first + 6 {
            out[n] = p as u8;
            // From house p, the opponent's row starts 6 - (p - first) places on.
            let reach = (self.pits[p] as usize) + (p - first) >= 6;
            n += (self.pits[p] > 0 && (!must_feed || reach)) as usize;
        }
        &out[..n]
    }

    /// The winners as bits (1 = South, 2 = North), none for a draw.
    pub fn winners(&self) -> u8 {
        match self.captured[0].cmp(&self.captured[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 0,
        }
    }

    fn side(&self, player: usize) -> u8 {
        self.pits[player * 6..player * 6 + 6].iter().sum()
    }

    /// Everything a repetition compares: the houses and the player to move (the captured seeds cannot differ
    /// while the number of seeds on the board stays the same).
    fn key(&self) -> u128 {
        let mut k = self.to_move as u128;
        for &n in &self.pits {
            k = (k << 8) | n as u128;
        }
        k
    }

    /// Sows by arithmetic: every other house gets one seed per whole lap, the next few one more.
    pub fn apply(&mut self, pit: u8) {
        let me = self.to_move as usize;
        let origin = pit as usize;
        let seeds = std::mem::take(&mut self.pits[origin]) as usize;
        let (laps, rest) = ((seeds - 1) / LAP, (seeds - 1) % LAP + 1);
        let track = &TRACK[origin];
        if laps > 0 {
            for &p in &track[..LAP] {
                self.pits[p as usize] += laps as u8;
            }
        }
        for &p in &track[..rest] {
            self.pits[p as usize] += 1;
        }
        let last = track[rest - 1] as usize;
        if self.capture(me, last) {
            self.captures += 1;
            self.history.clear();
        }
        self.ply += 1;
        self.to_move ^= 1;
        self.end_of_ply();
    }

    /// Takes the run of 2s and 3s ending at `last` on the opponent's side, unless it is all he has.
    fn capture(&mut self, me: usize, last: usize) -> bool {
        let theirs = (1 - me) * 6..(1 - me) * 6 + 6;
        let mut take = 0u8;
        let mut p = last;
        while theirs.contains(&p) && matches!(self.pits[p], 2 | 3) {
            take += self.pits[p];
            if p == theirs.start {
                break;
            }
            p -= 1;
        }
        if take == 0 || take == self.side(1 - me) {
            return false;
        }
        let mut p = last;
        while theirs.contains(&p) && matches!(self.pits[p], 2 | 3) {
            self.pits[p] = 0;
            if p == theirs.start {
                break;
            }
            p -= 1;
        }
        self.captured[me] += take;
        true
    }

    /// The end rules in the rule file's order: 25 captured, a repetition, no move; then the ply limit.
    fn end_of_ply(&mut self) {
        let key = self.key();
        let repeated = self.history.contains(&key);
        self.history.push(key);
        let mut moves = [0u8; 6];
        if self.captured.iter().any(|&c| c >= 25)
            || repeated
            || self.moves(&mut moves).is_empty()
            || self.ply >= PLY_LIMIT
        {
            for player in 0..2 {
                self.captured[player] += self.side(player);
            }
            self.pits = [0; 12];
            self.over = true;
        }
    }
}

/// From each house, the eleven others in counter-clockwise order.
const TRACK: [[u8; LAP]; 12] = {
    let mut t = [[0u8; LAP]; 12];
    let mut origin = 0;
    while origin < 12 {
        let mut j = 0;
        while j < LAP {
            t[origin][j] = ((origin + 1 + j) % 12) as u8;
            j += 1;
        }
        origin += 1;
    }
    t
};

/// One random game with the plain engine; returns its plies.
pub fn random_plain(rng: &mut fastrand::Rng) -> u32 {
    let mut o = Oware::default();
    let mut moves = [0u8; 6];
    while !o.over {
        let pit = super::pick(rng, o.moves(&mut moves));
        o.apply(pit);
    }
    o.ply
}

/// Oware as fast as we can write it: the board is sixteen bytes, byte `i` the seeds of house `i` (never more than
/// the 48 seeds of the game, so no byte carries into the next). A sowing is one addition of a word from a
/// table (the houses its last lap reaches) and another for the whole laps before it; the starts, the houses
/// in a run of 2s and 3s and the seeds of a row are found for a whole row at once. The positions since the
/// last capture are a hash set emptied by a new stamp.
#[derive(Debug, Clone)]
pub struct Tight {
    board: [u8; 16],
    pub captured: [u8; 2],
    pub to_move: u8,
    pub ply: u32,
    pub captures: u32,
    pub over: bool,
    /// The starts of the player to move (bits, how many), found by the end rule about moves.
    starts: (usize, u32),
    seen: Seen,
}

/// A one in each byte of a row of six houses.
const ROW_ONES: u64 = 0x0101_0101_0101;
/// Per house `i` of a row, `0x80 - (6 - i)`: added to its seeds, it sets the high bit of the byte when they
/// reach the opponent's row.
const REACH: u64 = 0x7f7e_7d7c_7b7a;

/// A word with `n` in the byte of house `p`.
const fn at(p: usize, n: u128) -> u128 {
    n << (8 * p)
}

/// Per house and `rest` (1..=11): the word of one seed in each of the first `rest` houses after it (the
/// house itself passed over), and the house of the last of them.
static PARTS: ([[u128; LAP + 1]; 12], [[u8; LAP + 1]; 12]) = {
    let mut words = [[0u128; LAP + 1]; 12];
    let mut last = [[0u8; LAP + 1]; 12];
    let mut p = 0;
    while p < 12 {
        let (mut word, mut rest) = (0u128, 1);
        while rest <= LAP {
            let pos = (p + rest) % 12;
            word += at(pos, 1);
            words[p][rest] = word;
            last[p][rest] = pos as u8;
            rest += 1;
        }
        p += 1;
    }
    (words, last)
};

impl Default for Tight {
    fn default() -> Tight {
        Tight::with_seen(Seen::default())
    }
}

impl Tight {
    /// The first position, its history kept in `seen` (emptied first).
    fn with_seen(mut seen: Seen) -> Tight {
        seen.clear();
        let mut board = [0; 16];
        board[..12].fill(4);
        let mut t =
            Tight { board, captured: [0; 2], to_move: 0, ply: 0, captures: 0, over: false, starts: (0, 0), seen };
        t.seen.insert(t.key());
        t.starts = t.find_starts();
        t
    }

    /// The seeds of every house, as the plain engine has them.
    pub fn pits(&self) -> [u8; 12] {
        std::array::from_fn(|p| self.count(p))
    }

    #[inline(always)]
    fn count(&self, p: usize) -> u8 {
        self.board[p]
    }

    /// The houses of `player`'s row as the low six bytes of a word.
    #[inline(always)]
    fn row(&self, player: usize) -> u64 {
        super::kalah::word_at(&self.board, 6 * player) & 0xffff_ffff_ffff
    }

    /// The starts of the player to move as bits (bit `i`: his `i`-th house), and how many: his non-empty
    /// houses, or those that reach the opponent when the opponent has no seeds.
    #[inline(always)]
    fn find_starts(&self) -> (usize, u32) {
        let me = self.to_move as usize;
        let row = self.row(me);
        let add = if self.row(1 - me) == 0 { REACH } else { 0x7f * ROW_ONES };
        let ok = ((row + add) >> 7) & ROW_ONES;
        let bits = (ok.wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
        (bits, (ok.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32)
    }

    /// The starts of the player to move, as bits and how many.
    #[inline(always)]
    pub fn starts(&self) -> (usize, u32) {
        self.starts
    }

    /// The `k`-th start (from 0) of `bits` as a house.
    #[inline(always)]
    pub fn nth_start(&self, bits: usize, k: usize) -> u8 {
        super::nth_bit(bits, k) + 6 * self.to_move
    }

    /// The houses the player to move may sow from, in order.
    pub fn legal_moves(&self, out: &mut Vec<u8>) {
        let (bits, n) = self.starts();
        out.extend((0..n as usize).map(|k| self.nth_start(bits, k)));
    }

    /// The winners as bits (1 = South, 2 = North), none for a draw.
    pub fn winners(&self) -> u8 {
        match self.captured[0].cmp(&self.captured[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// The houses and the player to move: everything a repetition compares (the captured seeds cannot
    /// differ while the seeds on the board stay the same).
    #[inline(always)]
    fn key(&self) -> u128 {
        u128::from_le_bytes(self.board) | (self.to_move as u128) << 96
    }

    /// Adds a word to the board, byte by byte (no byte carries into the next).
    #[inline(always)]
    fn add(&mut self, word: u128) {
        self.board = (u128::from_le_bytes(self.board) + word).to_le_bytes();
    }

    /// Sows from `house`: a word added for the whole laps, one for the last; then the capture and the end
    /// rules.
    #[inline(always)]
    pub fn apply(&mut self, house: u8) {
        let (me, p) = (self.to_move as usize, house as usize);
        let seeds = std::mem::take(&mut self.board[p]) as usize;
        let (laps, rest) = if seeds <= LAP { (0, seeds) } else { ((seeds - 1) / LAP, (seeds - 1) % LAP + 1) };
        if laps > 0 {
            let whole = PARTS.0[p][LAP];
            self.add(whole * laps as u128);
        }
        self.add(PARTS.0[p][rest]);
        let last = PARTS.1[p][rest] as usize;
        if last / 6 != me && self.count(last) & !1 == 2 {
            self.capture(me, last);
        }
        self.ply += 1;
        self.to_move ^= 1;
        self.end_of_ply();
    }

    /// Takes the run of 2s and 3s ending at `last` on the opponent's side, unless it is all he has.
    #[inline(always)]
    fn capture(&mut self, me: usize, last: usize) {
        let them = 1 - me;
        let row = self.row(them);
        // A zero byte where a house holds 2 or 3; the byte's high bit set where it does not.
        let other = ((((row & (0xfe * ROW_ONES)) ^ (2 * ROW_ONES)) + 0x7f * ROW_ONES) >> 7) & ROW_ONES;
        let other = (other.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        // The run ends at `last` and begins after the nearest house before it that holds neither.
        let j = (last - 6 * them) as u32;
        let up_to_last = (2u32 << j) - 1;
        let before = other & up_to_last;
        let first = if before == 0 { 0 } else { 32 - before.leading_zeros() };
        let bytes = (u64::MAX >> (64 - 8 * (j + 1))) & !((1u64 << (8 * first)) - 1);
        let sum = |w: u64| (w.wrapping_mul(ROW_ONES) >> 40) as u8;
        let take = sum(row & bytes);
        if take == sum(row) {
            return; // Grand slam: a capture of every seed he has takes nothing.
        }
        let bytes = if them == 0 { bytes as u128 } else { (bytes as u128) << 48 };
        self.board = (u128::from_le_bytes(self.board) & !bytes).to_le_bytes();
        self.captured[me] += take;
        self.captures += 1;
        self.seen.clear();
    }

    /// The end rules in the rule file's order: 25 captured, a repetition, no move; then the ply limit.
    #[inline(always)]
    fn end_of_ply(&mut self) {
        self.starts = self.find_starts();
        let repeated = self.seen.insert(self.key());
        if self.captured[0] >= 25 || self.captured[1] >= 25 || repeated || self.starts.1 == 0 || self.ply >= PLY_LIMIT {
            self.end();
        }
    }

    /// Each player takes the seeds on his side.
    #[cold]
    fn end(&mut self) {
        self.captured[0] += (self.row(0).wrapping_mul(ROW_ONES) >> 40) as u8;
        self.captured[1] += (self.row(1).wrapping_mul(ROW_ONES) >> 40) as u8;
        self.board = [0; 16];
        self.over = true;
    }
}

/// The positions since the last capture: an open-addressed hash set of keys (13 bytes) whose slots count as
/// empty unless they bear the current stamp in their top three bytes, so that emptying it is one increment.
#[derive(Debug, Clone, Default)]
struct Seen {
    slots: Vec<u128>,
    stamp: u128,
    len: usize,
}

/// Where a slot's stamp begins.
const STAMP: u32 = 104;

impl Seen {
    /// Empties the set, making its slots at first.
    fn clear(&mut self) {
        if self.slots.is_empty() {
            self.slots = vec![0; 64];
        }
        self.len = 0;
        self.stamp = (self.stamp + 1) & 0xff_ffff;
        if self.stamp == 0 {
            self.slots.fill(0);
            self.stamp = 1;
        }
    }

    /// Adds `key`; returns whether it was there already.
    #[inline(always)]
    fn insert(&mut self, key: u128) -> bool {
        let mask = self.slots.len() - 1;
        let stamped = key | self.stamp << STAMP;
        let hash = ((key as u64) ^ ((key >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .wrapping_mul(0xff51_afd7_ed55_8ccd);
        let mut i = (hash >> 40) as usize & mask;
        loop {
            let slot = &mut self.slots[i];
            if *slot >> STAMP != self.stamp {
                *slot = stamped;
                self.len += 1;
                if self.len * 2 > mask {
                    self.grow();
                }
                return false;
            }
            if *slot == stamped {
                return true;
            }
            i = (i + 1) & mask;
        }
    }

    #[cold]
    fn grow(&mut self) {
        let bigger = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, bigger);
        let stamp = self.stamp;
        self.len = 0;
        for slot in old {
            if slot >> STAMP == stamp {
                self.insert(slot & ((1 << STAMP) - 1));
            }
        }
    }
}

thread_local! {
    /// The set of the last game, kept for the next (emptied by a stamp, it costs nothing to reuse).
    static SPARE: std::cell::Cell<Seen> = std::cell::Cell::default();
}

/// One random game with the tight engine; returns its plies.
pub fn random_tight(rng: &mut fastrand::Rng) -> u32 {
    let mut o = Tight::with_seen(SPARE.take());
    while !o.over {
        let (bits, n) = o.starts();
        let house = o.nth_start(bits, super::draw(rng, n as usize));
        o.apply(house);
    }
    SPARE.set(o.seen);
    o.ply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tight_and_plain_play_the_same_games() {
        let mut rng = fastrand::Rng::with_seed(4);
        let (mut moves, mut tight_moves) = (Vec::new(), Vec::new());
        let mut repetitions = 0;
        for _ in 0..2000 {
            let (mut a, mut b) = (Oware::default(), Tight::default());
            loop {
                assert_eq!(
                    (a.pits, a.captured, a.to_move, a.ply, a.captures, a.over),
                    (b.pits(), b.captured, b.to_move, b.ply, b.captures, b.over)
                );
                if a.over {
                    assert_eq!(a.winners(), b.winners());
                    let (last, earlier) = a.history.split_last().expect("the history holds the last position");
                    repetitions += earlier.contains(last) as u32;
                    break;
                }
                moves.clear();
                a.legal_moves(&mut moves);
                tight_moves.clear();
                b.legal_moves(&mut tight_moves);
                assert_eq!(moves, tight_moves);
                let pit = super::super::pick(&mut rng, &moves);
                a.apply(pit);
                b.apply(pit);
            }
        }
        assert!(repetitions > 0, "no game ended by a repetition");
    }
}
