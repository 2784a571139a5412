//! Kalah(6,4), the game of `games/kalah.mancala`: sow counter-clockwise into your own store, never the
//! opponent's; land in your store to move again; land in an empty pit of yours opposite a non-empty one to
//! capture both; when a row is empty each player banks his own seeds.
//!
//! Layout: South's pits `0..6` and store `6`, North's pits `7..13` and store `13`, in counter-clockwise order.

use rand::Rng;

/// Each player's store.
pub const STORE: [usize; 2] = [6, 13];
/// The places a player sows into: his pits, his store and the opponent's pits.
const LAP: usize = 13;

/// A position and what the tests compare with the interpreter.
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
        match self.pits[STORE[0]].cmp(&self.pits[STORE[1]]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => 2,
            std::cmp::Ordering::Equal => 0,
        }
    }

    /// Sows seed by seed, skipping the opponent's store with a test at every drop.
    #[inline]
    pub fn apply_plain(&mut self, pit: u8) {
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

    /// Sows by arithmetic: every place of the mover's track gets one seed per whole lap, the next few one more.
    #[inline]
    pub fn apply_tight(&mut self, pit: u8) {
        let me = self.to_move as usize;
        let track = &TRACK[me];
        let start = INDEX[me][pit as usize] as usize;
        let seeds = std::mem::take(&mut self.pits[pit as usize]) as usize;
        let (laps, rest) = (seeds / LAP, seeds % LAP);
        if laps > 0 {
            for &p in &track[..LAP] {
                self.pits[p as usize] += laps as u8;
            }
        }
        for &p in &track[start + 1..=start + rest] {
            self.pits[p as usize] += 1;
        }
        self.finish(track[start + rest] as usize);
    }

    /// The seeds in South's and in North's pits, each row read as one word and its bytes added by a
    /// multiplication (no row holds more than 255 seeds).
    #[inline]
    fn sides(&self) -> (u8, u8) {
        let word = |from: usize| u64::from_le_bytes(self.pits[from..from + 8].try_into().unwrap_or([0; 8]));
        let sum = |w: u64| (w.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u8;
        (sum(word(0) & 0x0000_FFFF_FFFF_FFFF), sum(word(6) & 0x00FF_FFFF_FFFF_FF00))
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
        let (south, north) = self.sides();
        if south == 0 || north == 0 {
            self.pits[STORE[0]] += south;
            self.pits[STORE[1]] += north;
            self.pits[0..6].fill(0);
            self.pits[7..13].fill(0);
            self.over = true;
        }
    }
}

/// Each player's track twice over, so that a lap from any place reads on without wrapping.
const TRACK: [[u8; 2 * LAP]; 2] = {
    let mut t = [[0u8; 2 * LAP]; 2];
    let mut i = 0;
    while i < 2 * LAP {
        t[0][i] = (i % LAP) as u8; // 0..=12: South's pits, his store, North's pits
        t[1][i] = ((7 + i % LAP) % 14) as u8; // 7..=13, 0..=5: North's pits, his store, South's pits
        i += 1;
    }
    t
};

/// Where each pit stands on each player's track.
const INDEX: [[u8; 14]; 2] = {
    let mut idx = [[0u8; 14]; 2];
    let mut i = 0;
    while i < LAP {
        idx[0][TRACK[0][i] as usize] = i as u8;
        idx[1][TRACK[1][i] as usize] = i as u8;
        i += 1;
    }
    idx
};

/// One random game with [`Kalah::apply_plain`]; returns its plies.
pub fn random_plain(rng: &mut rand::rngs::SmallRng) -> u32 {
    random_game(rng, Kalah::apply_plain).ply
}

/// One random game with [`Kalah::apply_tight`]; returns its plies.
pub fn random_tight(rng: &mut rand::rngs::SmallRng) -> u32 {
    random_game(rng, Kalah::apply_tight).ply
}

/// One game between random players, the same loop as the interpreter's `Playout::run`.
pub fn random_game<R: Rng + ?Sized>(rng: &mut R, apply: impl Fn(&mut Kalah, u8)) -> Kalah {
    let mut k = Kalah::default();
    let mut moves = [0u8; 6];
    while !k.over {
        let first = k.to_move as usize * 7;
        let mut n = 0;
        for p in first..first + 6 {
            moves[n] = p as u8;
            n += (k.pits[p] > 0) as usize;
        }
        apply(&mut k, super::pick(rng, &moves[..n]));
    }
    k
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn tight_and_plain_play_the_same_games() {
        let mut rng = rand::rngs::SmallRng::seed_from_u64(3);
        let mut moves = Vec::new();
        for _ in 0..500 {
            let (mut a, mut b) = (Kalah::default(), Kalah::default());
            while !a.over {
                moves.clear();
                a.legal_moves(&mut moves);
                let pit = super::super::pick(&mut rng, &moves);
                a.apply_plain(pit);
                b.apply_tight(pit);
                assert_eq!(a, b);
            }
        }
    }
}
