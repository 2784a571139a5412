//! Oware abapa, the game of `games/oware.mancala`: sow counter-clockwise, skipping the emptied house; a last
//! seed that makes 2 or 3 in an opponent's house captures it and the unbroken run of 2s and 3s before it,
//! unless that would take all his seeds; an empty opponent must be fed, and when he cannot be the game ends;
//! it ends too at 25 captured, when a position repeats, or when the player to move cannot move, and then each
//! player takes the seeds on his side.
//!
//! Layout: South's houses `0..6` (a..f), North's `6..12` (A..F), in counter-clockwise order.

use rand::Rng;

/// The interpreter's guard for games that set no ply limit.
pub const PLY_LIMIT: u32 = 20_000;
/// The houses a lap sows into: all but the one it was lifted from.
const LAP: usize = 11;

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

/// One random game; returns its plies.
pub fn random_tight(rng: &mut rand::rngs::SmallRng) -> u32 {
    random_game(rng).ply
}

/// One game between random players, the same loop as the interpreter's `Playout::run`.
pub fn random_game<R: Rng + ?Sized>(rng: &mut R) -> Oware {
    let mut o = Oware::default();
    let mut moves = [0u8; 6];
    while !o.over {
        let pit = super::pick(rng, o.moves(&mut moves));
        o.apply(pit);
    }
    o
}
