//! The starts of plain phases without a list: where pits change hands, the mover's non-empty pits in one
//! loop (`each_owned_start`, `owned_start_list`); where they are fixed, a row of them read as bits
//! (`StartRow`) and the k-th start picked off the bits (`nth_start`).

use super::words::word_at;
use crate::engine::{Engine, Move, State};
use crate::ir::*;

impl Engine {
    /// The starts of a plain sowing where pits change hands: every non-empty pit `mover` owns now, in
    /// order, as `for_each_in_set` would find them; calls `emit` while it returns true, and returns false
    /// when stopped early.
    #[inline]
    pub(crate) fn each_owned_start(
        &self,
        st: &State,
        mover: u8,
        action: u8,
        mut emit: impl FnMut(Move) -> bool,
    ) -> bool {
        let n = self.rules.n_pits;
        for (p, (&owner, &count)) in st.owner[..n].iter().zip(&st.counts[..n]).enumerate() {
            if owner == mover && count > 0 && !emit(Move::Begin { action, place: p as PlaceId }) {
                return false;
            }
        }
        true
    }

    /// The starts of a phase of plain starts where pits change hands (`owned_plain_starts`): what
    /// `each_owned_start` finds, pushed in one loop.
    #[inline]
    pub(crate) fn owned_start_list(&self, st: &State, out: &mut Vec<Move>) {
        let n = self.rules.n_pits;
        let (owners, counts) = (&st.owner[..n.min(st.owner.len())], &st.counts[..n.min(st.counts.len())]);
        for (p, (&owner, &count)) in owners.iter().zip(counts).enumerate() {
            if owner == st.to_move && count > 0 {
                out.push(Move::Begin { action: 0, place: p as PlaceId });
            }
        }
    }
}

/// One player's fixed pits, whose non-empty ones are the starts of a plain phase, read as bits: bit `i` says
/// that `pits[i]` holds a piece. Where the pits are at most 8 places in a row of `counts`, in order, one word
/// of `counts` gives every bit at once.
#[derive(Debug, Clone)]
pub(super) struct StartRow {
    pub(super) pits: Vec<PlaceId>,
    /// The word of `counts` that holds the row: where it starts, the row's first byte in it, and the mask of
    /// the row's bytes. A word starts before the row where it would run past the end of `counts`.
    word: Option<(usize, u32, u64)>,
}

impl StartRow {
    pub(super) fn new(pits: &[PlaceId], len: usize) -> StartRow {
        let first = pits.first().map_or(0, |&p| p as usize);
        let in_a_row = pits.iter().enumerate().all(|(i, &p)| p as usize == first + i);
        let fits = !pits.is_empty() && pits.len() <= 8 && first + pits.len() <= len && len >= 8;
        let word = (in_a_row && fits).then(|| {
            let start = first.min(len - 8);
            let shift = (first - start) as u32;
            let lanes = (u64::MAX >> (64 - 8 * pits.len())) << (8 * shift);
            (start, shift, lanes)
        });
        StartRow { pits: pits.to_vec(), word }
    }

    /// Which pits hold a piece, as bits in the order of `pits`, and how many do.
    #[inline(always)]
    pub(super) fn bits(&self, counts: &[u8]) -> (u64, usize) {
        const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
        match self.word {
            Some((start, shift, lanes)) => {
                let w = word_at(counts, start) & lanes;
                // The high bit of each byte says whether the byte is not zero. Moved down to each byte's
                // low bit, one multiplication gathers them into the top byte, one bit per place, and
                // another adds them up there (a count without the instruction for it).
                let nonzero = ((((w & LOW7) + LOW7) | w) & !LOW7) >> 7;
                let bits = (nonzero.wrapping_mul(0x0102_0408_1020_4080) >> 56) >> shift;
                (bits, (nonzero.wrapping_mul(0x0101_0101_0101_0101) >> 56) as usize)
            }
            None => {
                let bits = self.pits.iter().enumerate().fold(0, |bits, (i, &p)| {
                    bits | ((counts.get(p as usize).is_some_and(|&n| n > 0) as u64) << (i % 64))
                });
                (bits, bits.count_ones() as usize)
            }
        }
    }
}

/// The place of the `k`-th set bit of `bits` (from 0) in `pits`: the `k`-th start of the list.
#[inline(always)]
pub(super) fn nth_start(pits: &[PlaceId], mut bits: u64, k: usize) -> PlaceId {
    if let Some(&i) = NTH_BIT.get(bits as usize).and_then(|row| row.get(k)) {
        return pits.get(i as usize).copied().unwrap_or(0);
    }
    for _ in 0..k {
        bits &= bits.wrapping_sub(1);
    }
    pits.get(bits.trailing_zeros() as usize).copied().unwrap_or(0)
}

/// Per eight bits and `k`: the place of the `k`-th set bit (from 0), for `nth_start` without a loop.
static NTH_BIT: [[u8; 8]; 256] = {
    let mut t = [[0u8; 8]; 256];
    let mut bits = 0;
    while bits < 256 {
        let (mut i, mut k) = (0, 0);
        while i < 8 {
            if bits >> i & 1 == 1 {
                t[bits][k] = i as u8;
                k += 1;
            }
            i += 1;
        }
        bits += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fast::board;

    #[test]
    fn start_bits_say_which_pits_hold_pieces() {
        for (len, pits) in [
            (14, vec![0u16, 1, 2, 3, 4, 5]),
            (14, vec![7, 8, 9, 10, 11, 12]),
            (12, vec![6, 7, 8, 9, 10, 11]),
            (9, vec![1, 2, 3, 4, 5, 6, 7, 8]),
            (6, vec![0, 1, 2]),
            (20, vec![5, 3, 1]),
            (80, (0..64).collect()),
        ] {
            let row = StartRow::new(&pits, len);
            for seed in 0..50 {
                let counts = board(len, seed);
                let held: Vec<bool> = pits.iter().map(|&p| counts[p as usize] > 0).collect();
                let (bits, n) = row.bits(&counts);
                assert_eq!(n, held.iter().filter(|&&h| h).count(), "{pits:?} {counts:?}");
                for (i, &h) in held.iter().enumerate() {
                    assert_eq!(bits >> i & 1 == 1, h, "pit {} of {pits:?} in {counts:?}", pits[i]);
                }
                // The k-th start is the k-th pit that holds a piece.
                let starts: Vec<PlaceId> = pits.iter().zip(&held).filter(|(_, &h)| h).map(|(&p, _)| p).collect();
                for (k, &p) in starts.iter().enumerate() {
                    assert_eq!(nth_start(&pits, bits, k), p);
                }
            }
        }
    }
}
