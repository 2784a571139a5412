//! The pieces dropped in an order-chosen sowing: which kinds may come next, and every piece from the
//! chosen ones and back.

use super::*;

/// The kinds the mover may drop next with `hand` in hand, as the engine decides it for an order-chosen sowing.
fn drop_mask(engine: &Engine, mover: u8, sow: &Sow, hand: &[u32]) -> u64 {
    let mut mask = 0u64;
    let mut total = 0u32;
    for (k, &n) in hand.iter().enumerate() {
        if n > 0 {
            mask |= 1 << k;
            total += n;
        }
    }
    if sow.last_own {
        let own = player_mask(engine, mover);
        if total == 1 {
            mask &= own;
        } else {
            for (k, &n) in hand.iter().enumerate() {
                if own & (1 << k) != 0 && n == 1 && (own & mask).count_ones() == 1 {
                    mask &= !(1 << k);
                }
            }
        }
    }
    mask
}

/// The pieces lifted when sowing starts from `place`, per kind.
pub(super) fn lifted(engine: &Engine, st: &State, place: PlaceId) -> Vec<u32> {
    let k = kinds(engine);
    (0..k)
        .map(|i| {
            st.counts.get(place as usize * k + i).copied().unwrap_or(0) as u32
                + st.hand.get(i).copied().unwrap_or(0) as u32
        })
        .collect()
}

/// Every piece of an order-chosen sowing (without relay) in order, from the chosen ones; `None` when the chosen
/// ones do not fit.
pub(super) fn full_drops(engine: &Engine, mover: u8, sow: &Sow, mut hand: Vec<u32>, chosen: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::new();
    let mut next = chosen.iter();
    loop {
        let mask = drop_mask(engine, mover, sow, &hand);
        let kind = match mask.count_ones() {
            0 => break,
            1 => mask.trailing_zeros() as u8,
            _ => *next.next()?,
        };
        let slot = hand.get_mut(kind as usize)?;
        if *slot == 0 || mask & (1 << kind) == 0 {
            return None;
        }
        *slot -= 1;
        out.push(kind);
    }
    next.next().is_none().then_some(out)
}

/// The chosen pieces from every piece of an order-chosen sowing, checking the forced ones.
pub(super) fn chosen_drops(
    engine: &Engine,
    mover: u8,
    sow: &Sow,
    mut hand: Vec<u32>,
    full: &[u8],
) -> Result<Vec<u8>, NotationError> {
    let mut chosen = Vec::new();
    for (i, &kind) in full.iter().enumerate() {
        let mask = drop_mask(engine, mover, sow, &hand);
        let options: Vec<String> =
            (0..kinds(engine) as u8).filter(|k| mask & (1 << k) != 0).map(|k| symbol(engine, k).to_string()).collect();
        if mask & (1 << kind) == 0 {
            let what = if mask.count_ones() == 1 { "must be" } else { "can be" };
            return Err(NotationError::expecting(
                format!(
                    "piece {} cannot be {}: it {what} one of the pieces still in hand",
                    i + 1,
                    symbol(engine, kind)
                ),
                options,
            ));
        }
        if mask.count_ones() > 1 {
            chosen.push(kind);
        }
        if let Some(slot) = hand.get_mut(kind as usize) {
            *slot = slot.saturating_sub(1);
        }
    }
    Ok(chosen)
}
