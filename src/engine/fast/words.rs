//! The board as eight-byte words of `counts`: whether a player's pits hold a piece in a few loads
//! (`PitWords`), and a plan's sowings as additions of words (`SowWords`).

use super::tracks::Tracks;
use crate::ir::*;

/// The sowings of a plan as additions of words, where the board has 9 to 16 places: a sowing of `n` pieces
/// from `origin` adds to the two eight-byte chunks of `counts` (the first eight bytes and the last eight)
/// `n / len` times the words of a whole lap plus the words of the first `n % len` places of the track (`len`
/// the track's length); the words of the last chunk leave the bytes it shares with the first alone. No byte
/// carries into the next: the board never holds more pieces than a byte counts (`SowWords::new`).
#[derive(Debug, Clone)]
pub(super) struct SowWords {
    /// Where the last chunk begins in `counts`.
    last_chunk: usize,
    /// Per `mover * places + origin`: where its words begin in `words` (for rests 0..=len), its track's
    /// length, and where the track begins in `cells`.
    spans: Vec<(u32, u16, u32)>,
    words: Vec<[u64; 2]>,
    /// The tracks (`Tracks::cells`), for the place of the last piece.
    cells: Vec<PlaceId>,
}

impl SowWords {
    /// The words of `tracks`, where the board has 9 to 16 places and the pieces of the setup fit in a byte
    /// (one kind of piece; no rule of a plan adds pieces).
    pub(super) fn new(rules: &Rules, tracks: &Tracks) -> Option<SowWords> {
        let len = rules.places.len();
        let pieces: u32 = rules.setup.iter().map(|&n| n as u32).sum();
        if !(9..=16).contains(&len) || pieces > 255 || rules.setup.len() != len || !tracks.any() {
            return None;
        }
        let last_chunk = len - 8;
        let mut sw = SowWords {
            last_chunk,
            spans: vec![(0, 0, 0); tracks.spans.len()],
            words: Vec::new(),
            cells: tracks.cells.clone(),
        };
        let word = |bytes: &[u8], from: usize, skip: usize| {
            (from..from + 8).fold(0u64, |w, i| if i < skip { w } else { w | (bytes[i] as u64) << (8 * (i - from)) })
        };
        for (at, &(start, cycle)) in tracks.spans.iter().enumerate() {
            if cycle == 0 {
                continue;
            }
            let track = &tracks.cells[start as usize..start as usize + cycle as usize];
            sw.spans[at] = (sw.words.len() as u32, cycle, start);
            let mut bytes = vec![0u8; len];
            for rest in 0..=track.len() {
                if rest > 0 {
                    bytes[track[rest - 1] as usize] += 1;
                }
                sw.words.push([word(&bytes, 0, 0), word(&bytes, last_chunk, 8)]);
            }
        }
        Some(sw)
    }

    /// Sows `n` pieces (at least one) from `origin` by `mover` (`at`: `mover * places + origin`); returns
    /// the place of the last piece, none where the origin has no track (nothing done).
    #[inline(always)]
    pub(super) fn sow(&self, counts: &mut [u8], at: usize, n: usize) -> Option<PlaceId> {
        let &(start, len, cells) = self.spans.get(at)?;
        let len = len as usize;
        if len == 0 {
            return None;
        }
        let words = self.words.get(start as usize..start as usize + len + 1)?;
        let (laps, rest) = if n < len { (0, n) } else { (n / len, n % len) };
        let (Some(part), Some(whole)) = (words.get(rest), words.last()) else { return None };
        for (from, part, whole) in [(0, part[0], whole[0]), (self.last_chunk, part[1], whole[1])] {
            if let Some(bytes) = counts.get_mut(from..from + 8).and_then(|b| <&mut [u8; 8]>::try_from(b).ok()) {
                let w = u64::from_le_bytes(*bytes).wrapping_add(part).wrapping_add(whole.wrapping_mul(laps as u64));
                *bytes = w.to_le_bytes();
            }
        }
        // The last piece went into the place before the first without an extra piece.
        let last = if rest == 0 { len - 1 } else { rest - 1 };
        self.cells.get(cells as usize + last).copied()
    }
}

/// The pits of one player as masked eight-byte words of `counts`: whether any holds a piece in a few loads.
/// Rows of up to 16 pits in a row take one or two words, kept inline; longer or scattered ones a list.
#[derive(Debug, Clone, Default)]
pub(crate) struct PitWords {
    first: (usize, u64),
    second: (usize, u64),
    rest: Vec<(usize, u64)>,
}

impl PitWords {
    /// The words covering `pits` in a `counts` of `len` bytes (one byte per pit: one kind of piece).
    pub(crate) fn new(pits: &[PlaceId], len: usize) -> PitWords {
        let mut sorted = pits.to_vec();
        sorted.sort_unstable();
        let mut words: Vec<(usize, u64)> = Vec::new();
        for p in sorted.into_iter().map(|p| p as usize) {
            match words.last_mut() {
                Some((start, mask)) if p < *start + 8 => *mask |= 0xff << ((p - *start) * 8),
                _ => {
                    // A word starts at the pit, or earlier where it would run past the end.
                    let start = p.min(len.saturating_sub(8));
                    words.push((start, 0xff << ((p - start) * 8)));
                }
            }
        }
        let mut words = words.into_iter();
        let first = words.next().unwrap_or((0, 0));
        let second = words.next().unwrap_or((0, 0));
        PitWords { first, second, rest: words.collect() }
    }

    /// Whether some pit holds a piece.
    #[inline(always)]
    pub(crate) fn any(&self, counts: &[u8]) -> bool {
        let (a, b) = (self.first, self.second);
        word_at(counts, a.0) & a.1 != 0
            || (b.1 != 0 && word_at(counts, b.0) & b.1 != 0)
            || self.rest.iter().any(|&(start, mask)| word_at(counts, start) & mask != 0)
    }
}

/// Eight bytes of `counts` from `start` as a little-endian word, zeros past its end.
#[inline(always)]
pub(super) fn word_at(counts: &[u8], start: usize) -> u64 {
    match counts.get(start..).and_then(<[u8]>::first_chunk::<8>) {
        Some(w) => u64::from_le_bytes(*w),
        None => counts.get(start..).unwrap_or(&[]).iter().rev().fold(0u64, |w, &b| w << 8 | b as u64),
    }
}
