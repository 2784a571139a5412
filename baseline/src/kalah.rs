//! Kalah(6,4), the game of `games/kalah.mancala`: sow counter-clockwise into your own store, never the
//! opponent's; land in your store to move again; land in an empty pit of yours opposite a non-empty one to
//! capture both; when a row is empty each player banks his own seeds.
//!
//! Layout: South's pits `0..6` and store `6`, North's pits `7..13` and store `13`, in counter-clockwise order.
//!
//! Two engines of the one game: [`Kalah`], a drop loop with a modulo over an array, as anyone would write it
//! first; and [`Tight`], the whole board in one 128-bit word, sown by adding words from tables.

/// Each player's store.
pub const STORE: [usize; 2] = [6, 13];

/// A position and what the tests compare with the interpreter: the plain engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kalah {
    pub pits: [u8; 14],
    pub to_move: u8,
    pub ply: u32,
    pub captures: u32,
    pub over: bool,
}

impl Default for Kalah {
    fn default() -> Kalah {
        Kalah { pits: [4, 4, 4, 4, 4, 4, 0, 4, 4, 4, 4, 4, 4, 0], to_move: 0, ply: 0, captures: 0, over: false }
    }
}

impl Kalah {
    /// The pits the player to move may sow from, in order.
    pub fn legal_moves(&self, out: &mut Vec<u8>) {
        let first = self.to_move as usize * 7;
        out.extend((first..first + 6).filter(|&p| self.pits[p] > 0).map(|p| p as u8));
    }

    /// The winners as bits (1 = South, 2 = North), none for a draw.
    pub fn winners(&self) -> u8 {
        winners(self.pits[STORE[0]], self.pits[STORE[1]])
    }

    /// Sows seed by seed, skipping the opponent's store with a test at every drop.
    #[inline]
    pub fn apply(&mut self, pit: u8) {
        let me = self.to_move as usize;
        let mut pos = pit as usize;
        let mut seeds = self.pits[pos];
        self.pits[pos] = 0;
        while seeds > 0 {
            pos = (pos + 1) % 14;
            if pos == STORE[1 - me] {
                continue;
            }
            self.pits[pos] += 1;
            seeds -= 1;
        }
        self.finish(pos);
    }

    /// The capture, the extra turn and the end of the game, once the last seed fell at `last`.
    #[inline]
    fn finish(&mut self, last: usize) {
        let me = self.to_move as usize;
        if (me * 7..me * 7 + 6).contains(&last) && self.pits[last] == 1 {
            let opposite = 12 - last;
            if self.pits[opposite] > 0 {
                self.pits[STORE[me]] += self.pits[opposite] + 1;
                self.pits[opposite] = 0;
                self.pits[last] = 0;
                self.captures += 1;
            }
        }
        self.ply += 1;
        if last != STORE[me] {
            self.to_move ^= 1;
        }
        let south: u8 = self.pits[0..6].iter().sum();
        let north: u8 = self.pits[7..13].iter().sum();
        if south == 0 || north == 0 {
            self.pits[STORE[0]] += south;
            self.pits[STORE[1]] += north;
            self.pits[0..6].fill(0);
            self.pits[7..13].fill(0);
            self.over = true;
        }
    }
}

fn winners(south: u8, north: u8) -> u8 {
    match south.cmp(&north) {
        std::cmp::Ordering::Greater => 1,
        std::cmp::Ordering::Less => 2,
        std::cmp::Ordering::Equal => 0,
    }
}

/// One random game with the plain engine; returns its plies.
pub fn random_plain(rng: &mut fastrand::Rng) -> u32 {
    let mut k = Kalah::default();
    let mut moves = [0u8; 6];
    while !k.over {
        let first = k.to_move as usize * 7;
        let mut n = 0;
        for p in first..first + 6 {
            moves[n] = p as u8;
            n += (k.pits[p] > 0) as usize;
        }
        k.apply(super::pick(rng, &moves[..n]));
    }
    k.ply
}

/// Kalah as fast as we can write it: the board is sixteen bytes, byte `i` the seeds of place `i` (never more than
/// the 48 seeds of the game, so no byte carries into the next). A sowing is one addition of a word from a
/// table (the places its last partial lap reaches), and another for each whole lap; the mover's starts are
/// the non-empty bytes of his row, found for all six pits at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tight {
    board: [u8; 16],
    pub to_move: u8,
    pub ply: u32,
    pub captures: u32,
    pub over: bool,
}

impl Default for Tight {
    fn default() -> Tight {
        let pits = Kalah::default().pits;
        let mut board = [0; 16];
        board[..14].copy_from_slice(&pits);
        Tight { board, to_move: 0, ply: 0, captures: 0, over: false }
    }
}

/// Eight bytes of a board from `at` (at most 8) as a word.
#[inline(always)]
pub(crate) fn word_at(board: &[u8; 16], at: usize) -> u64 {
    let at = at.min(8);
    u64::from_le_bytes(board[at..at + 8].try_into().unwrap_or([0; 8]))
}

/// The places a sowing reaches: every place but the opponent's store.
const LAP: usize = 13;
/// A one in each byte of a row of six pits.
const ROW_ONES: u64 = 0x0101_0101_0101;

/// A word with `n` in the byte of place `p`.
const fn at(p: usize, n: u128) -> u128 {
    n << (8 * p)
}

/// The place after `p` on `mover`'s track.
const fn next(mover: usize, p: usize) -> usize {
    let q = (p + 1) % 14;
    if q == STORE[1 - mover] {
        (q + 1) % 14
    } else {
        q
    }
}

/// Per pit and `rest` (0..13): the word of one seed in each of the first `rest` places after the pit, and
/// the place of the last seed of a sowing of `rest` seeds more than whole laps (the pit itself for none).
static PARTS: ([[u128; LAP]; 14], [[u8; LAP]; 14]) = {
    let mut words = [[0u128; LAP]; 14];
    let mut last = [[0u8; LAP]; 14];
    let mut p = 0;
    while p < 14 {
        last[p][0] = p as u8;
        let (mut word, mut pos, mut rest) = (0u128, p, 1);
        while rest < LAP {
            pos = next(p / 7, pos);
            word += at(pos, 1);
            words[p][rest] = word;
            last[p][rest] = pos as u8;
            rest += 1;
        }
        p += 1;
    }
    (words, last)
};

/// Per mover: one seed in every place of a whole lap.
static WHOLE_LAP: [u128; 2] = {
    let mut all = 0u128;
    let mut p = 0;
    while p < 14 {
        all += at(p, 1);
        p += 1;
    }
    [all - at(STORE[1], 1), all - at(STORE[0], 1)]
};

impl Tight {
    /// The seeds of every place, as the plain engine has them.
    pub fn pits(&self) -> [u8; 14] {
        std::array::from_fn(|p| self.count(p))
    }

    #[inline(always)]
    fn count(&self, p: usize) -> u8 {
        self.board[p]
    }

    /// The pits of `player`'s row as the low six bytes of a word.
    #[inline(always)]
    fn row(&self, player: usize) -> u64 {
        word_at(&self.board, 7 * player) & 0xffff_ffff_ffff
    }

    /// The mover's starts, his non-empty pits, as bits (bit `i`: his `i`-th pit), and how many.
    #[inline(always)]
    pub fn starts(&self) -> (usize, u32) {
        let row = self.row(self.to_move as usize);
        // Adding 0x7f to a byte of at most 48 sets its high bit exactly when it is not zero.
        let nonzero = ((row + 0x7f * ROW_ONES) >> 7) & ROW_ONES;
        let bits = (nonzero.wrapping_mul(0x0102_0408_1020_4080) >> 56) as usize;
        (bits, (nonzero.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32)
    }

    /// The `k`-th start (from 0) of `bits` as a place.
    #[inline(always)]
    pub fn nth_start(&self, bits: usize, k: usize) -> u8 {
        super::nth_bit(bits, k) + 7 * self.to_move
    }

    /// The pits the player to move may sow from, in order.
    pub fn legal_moves(&self, out: &mut Vec<u8>) {
        let (bits, n) = self.starts();
        out.extend((0..n as usize).map(|k| self.nth_start(bits, k)));
    }

    /// The winners as bits (1 = South, 2 = North), none for a draw.
    pub fn winners(&self) -> u8 {
        winners(self.count(STORE[0]), self.count(STORE[1]))
    }

    /// Adds a word to the board, byte by byte (no byte carries into the next).
    #[inline(always)]
    fn add(&mut self, word: u128) {
        self.board = (u128::from_le_bytes(self.board) + word).to_le_bytes();
    }

    /// Sows from `pit`: one word added for the last partial lap, one more per whole lap; then the capture, the
    /// extra turn and the end.
    #[inline(always)]
    pub fn apply(&mut self, pit: u8) {
        let (me, p) = (self.to_move as usize, pit as usize);
        let seeds = std::mem::take(&mut self.board[p]) as usize;
        let (laps, rest) = if seeds < LAP { (0, seeds) } else { (seeds / LAP, seeds % LAP) };
        if laps > 0 {
            self.add(WHOLE_LAP[me] * laps as u128);
        }
        self.add(PARTS.0[p][rest]);
        let last = PARTS.1[p][rest] as usize;
        // The last seed made an empty pit of the mover's 1, opposite a pit with seeds.
        if last.wrapping_sub(7 * me) < 6 && self.count(last) == 1 {
            let opposite = 12 - last;
            let taken = self.count(opposite);
            if taken > 0 {
                (self.board[last], self.board[opposite]) = (0, 0);
                self.board[STORE[me]] += taken + 1;
                self.captures += 1;
            }
        }
        self.ply += 1;
        self.to_move ^= (last != STORE[me]) as u8;
        let (south, north) = (self.row(0), self.row(1));
        if south == 0 || north == 0 {
            self.bank(south, north);
        }
    }

    /// The end: each player banks the seeds of his row.
    #[cold]
    fn bank(&mut self, south: u64, north: u64) {
        let sum = |row: u64| (row.wrapping_mul(ROW_ONES) >> 40) as u8;
        let stores = [self.count(STORE[0]) + sum(south), self.count(STORE[1]) + sum(north)];
        self.board = [0; 16];
        (self.board[STORE[0]], self.board[STORE[1]]) = (stores[0], stores[1]);
        self.over = true;
    }
}

/// One random game with the tight engine; returns its plies.
pub fn random_tight(rng: &mut fastrand::Rng) -> u32 {
    let mut k = Tight::default();
    while !k.over {
        let (bits, n) = k.starts();
        let pit = k.nth_start(bits, super::draw(rng, n as usize));
        k.apply(pit);
    }
    k.ply
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tight_and_plain_play_the_same_games() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut moves = Vec::new();
        let mut tight_moves = Vec::new();
        for _ in 0..2000 {
            let (mut a, mut b) = (Kalah::default(), Tight::default());
            loop {
                assert_eq!(
                    (a.pits, a.to_move, a.ply, a.captures, a.over),
                    (b.pits(), b.to_move, b.ply, b.captures, b.over)
                );
                if a.over {
                    assert_eq!(a.winners(), b.winners());
                    break;
                }
                moves.clear();
                a.legal_moves(&mut moves);
                tight_moves.clear();
                b.legal_moves(&mut tight_moves);
                assert_eq!(moves, tight_moves);
                let pit = super::super::pick(&mut rng, &moves);
                let before = a.pits;
                a.apply(pit);
                b.apply(pit);
                assert_eq!(a.pits, b.pits(), "from {before:?} sowing {pit}");
            }
        }
    }
}
