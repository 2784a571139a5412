//! The end sweeps of a phase as a table made with the engine: per mover, the pits swept and where their
//! pieces go, where the mover fixes them (`sweep_table`).

use crate::engine::{Ctx, Engine};
use crate::ir::*;

/// Per mover, the pits an end sweep empties and where their pieces go.
pub(crate) type SweepTable = Vec<Vec<(PlaceId, PlaceId)>>;

/// Per mover, the pits an end sweep of `phase` empties and where each goes, in the order `sweep` takes
/// them, where the sets and the places are fixed by the mover and the pit (owners never change, no player
/// is taken out, one kind of piece and no mark lost as a pit empties); none otherwise.
pub(crate) fn sweep_table(engine: &Engine, phase: usize) -> Option<SweepTable> {
    let rules = &engine.rules;
    if engine.fixed_pits.is_none() || rules.needs.elimination || engine.k != 1 || !engine.empty_marks.is_empty() {
        return None;
    }
    let phase_end = &rules.phases.get(phase)?.end;
    // A sweep made only after some endings depends on why the game ended, which no table says.
    if phase_end.sweep_after.iter().chain(&rules.end.sweep_after).any(Option::is_some) {
        return None;
    }
    let sweeps: Vec<&(Set, PlaceExpr)> = phase_end.sweeps.iter().chain(&rules.end.sweeps).collect();
    if !sweeps.iter().all(|(set, to)| sweep_static_set(set) && sweep_static_place(to)) {
        return None;
    }
    let probe = engine.initial_state();
    let table = (0..rules.players)
        .map(|mover| {
            let mut moves = Vec::new();
            for (set, to) in &sweeps {
                let mut places = Vec::new();
                engine.for_each_in_set(&probe, Ctx::new(mover), set, |p| {
                    places.push(p);
                    true
                });
                for p in places {
                    if let Some(dest) = engine.place(&probe, Ctx::new(mover).at(p), to) {
                        moves.push((p, dest));
                    }
                }
            }
            moves
        })
        .collect();
    Some(table)
}

/// A set of places that the mover alone fixes, owners never changing.
fn sweep_static_set(set: &Set) -> bool {
    match set {
        Set::AllPits | Set::EveryPlayer(_) | Set::Region(_) => true,
        Set::PitsOf(who) | Set::RegionOf(_, who) => sweep_static_player(who),
        Set::One(p) | Set::Facing(p) => sweep_static_place(p),
        Set::Offered | Set::Marked(..) | Set::Threats(_) | Set::TakenFirst => false,
    }
}

/// A place that the mover and the pit swept (`here`) fix, owners never changing.
fn sweep_static_place(p: &PlaceExpr) -> bool {
    match p {
        PlaceExpr::Here | PlaceExpr::Fixed(_) => true,
        PlaceExpr::Opposite(p) | PlaceExpr::Twin(p) | PlaceExpr::Behind(p) | PlaceExpr::Ahead(p) => {
            sweep_static_place(p)
        }
        PlaceExpr::OfPlayer(_, who) => sweep_static_player(who),
        PlaceExpr::Last
        | PlaceExpr::Origin
        | PlaceExpr::Start
        | PlaceExpr::RegionPit(..)
        | PlaceExpr::Next(..)
        | PlaceExpr::Previous(..) => false,
    }
}

fn sweep_static_player(who: &PlayerExpr) -> bool {
    match who {
        PlayerExpr::Mover | PlayerExpr::Opponent => true,
        PlayerExpr::Owner(p) => sweep_static_place(p),
        PlayerExpr::Bound => false,
    }
}
