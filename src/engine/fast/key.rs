//! The position key of repetitions and relay cycles, hashed eight bytes at a time (`position_key`,
//! `counts_key`), and the sum of the board's bytes (`byte_sum`), which `seen_before` computes every turn.

/// A position key over byte slices and one extra word, eight bytes at a time: what `seen_before` hashes at
/// every turn of a game with a repetition rule. Each part is mixed with its length, so that parts of other
/// lengths cannot line up into the same words.
pub(crate) fn position_key(parts: &[&[u8]], extra: u64) -> u64 {
    let mut h = mix(KEY_SEED, extra);
    for part in parts {
        let mut words = part.chunks_exact(8);
        for w in &mut words {
            h = mix(h, u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
        }
        let rest = words.remainder().len();
        let tail = if rest > 0 && part.len() >= 8 {
            // The last eight bytes, some of them mixed in already: one load, where the length tells apart.
            u64::from_le_bytes(part[part.len() - 8..].try_into().unwrap_or([0; 8]))
        } else {
            // A short part byte by byte: a copy of a few bytes would call memcpy.
            words.remainder().iter().rev().fold(0u64, |w, &b| w << 8 | b as u64)
        };
        h = mix(h, tail ^ ((part.len() as u64) << 56));
    }
    avalanche(h)
}

/// `position_key(&[bytes], extra)`, with no loop where `bytes` has 9 to 15 of them (the boards of most games
/// with a repetition rule): their first eight and their last eight.
#[inline(always)]
pub(crate) fn counts_key(bytes: &[u8], extra: u64) -> u64 {
    let len = bytes.len();
    match (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        (Some(first), Some(last)) if len > 8 && len < 16 => {
            let h = mix(mix(KEY_SEED, extra), u64::from_le_bytes(*first));
            avalanche(mix(h, u64::from_le_bytes(*last) ^ ((len as u64) << 56)))
        }
        _ => position_key(&[bytes], extra),
    }
}

const KEY_SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// One step of `position_key`: a word mixed into the hash.
#[inline(always)]
fn mix(h: u64, w: u64) -> u64 {
    (h ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

/// The last step of `position_key`, so that every input bit reaches every output bit.
#[inline(always)]
fn avalanche(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

/// The sum of some bytes, eight at a time: the pieces on the board, which `seen_before` counts every turn.
#[inline(always)]
pub(crate) fn byte_sum(bytes: &[u8]) -> u32 {
    // Two bytes side by side in each 16-bit lane, then the four lanes added up by one multiplication
    // (at most 4 * 510, so no lane carries into the next).
    let word_sum = |w: u64| {
        const LANES: u64 = 0x00ff_00ff_00ff_00ff;
        let pairs = (w & LANES) + ((w >> 8) & LANES);
        (pairs.wrapping_mul(0x0001_0001_0001_0001) >> 48) as u32
    };
    if let (Some(first), Some(last), 9..=16) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>(), bytes.len()) {
        // No loop for the boards of most games: the first eight bytes, and the last eight less those.
        return word_sum(u64::from_le_bytes(*first)) + word_sum(u64::from_le_bytes(*last) >> (8 * (16 - bytes.len())));
    }
    let mut words = bytes.chunks_exact(8);
    let mut total = 0;
    for w in &mut words {
        total += word_sum(u64::from_le_bytes(w.try_into().unwrap_or([0; 8])));
    }
    let rest = words.remainder();
    if rest.is_empty() {
        total
    } else if bytes.len() >= 8 {
        // The last eight bytes, without those counted already.
        let last = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().unwrap_or([0; 8]));
        total + word_sum(last >> (8 * (8 - rest.len())))
    } else {
        total + rest.iter().map(|&b| b as u32).sum::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::fast::board;

    #[test]
    fn byte_sums_add_every_byte() {
        for len in 0..40 {
            for seed in 0..20 {
                let bytes = board(len, seed);
                let sum: u32 = bytes.iter().map(|&b| b as u32).sum();
                assert_eq!(byte_sum(&bytes), sum, "{bytes:?}");
            }
        }
    }

    #[test]
    fn counts_keys_are_position_keys() {
        for len in 0..40 {
            let bytes = board(len, len as u64 + 7);
            assert_eq!(counts_key(&bytes, 5), position_key(&[&bytes], 5), "{len} bytes");
        }
    }

    #[test]
    fn position_keys_tell_apart_boards_that_differ_in_one_byte() {
        for len in 1..24 {
            let bytes = board(len, len as u64);
            let key = position_key(&[&bytes, &[1, 0, 0, 0]], 0);
            for i in 0..len {
                let mut other = bytes.clone();
                other[i] = other[i].wrapping_add(1);
                assert_ne!(position_key(&[&other, &[1, 0, 0, 0]], 0), key, "byte {i} of {len}");
            }
            assert_ne!(position_key(&[&bytes, &[0, 0, 0, 0]], 0), key);
            assert_ne!(position_key(&[&bytes, &[1, 0, 0, 0]], 1), key);
        }
    }
}
