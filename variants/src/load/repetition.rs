//! Fairy-Stockfish's `moveRepetitionIllegal` key: whether the rule holds, and which men's
//! trips it counts (those that may stand where the enemy king may).

use super::compile::Build;
use crate::geometry::SquareSet;
use crate::rules::{MoveRepetition, PieceId};

/// The rule of the section, if `moveRepetitionIllegal = true`. Runs once the men's regions
/// (`confine`, `mobilityRegion*`) are final.
pub fn move_repetition(b: &mut Build) -> Option<MoveRepetition> {
    if !b.ctx.flag("moveRepetitionIllegal", false) {
        return None;
    }
    let king = b.id_named("king");
    let counted = [0, 1].map(|mover| {
        let enemy_king = king.map_or(all(b), |k| region(b, k, 1 - mover));
        (0..b.pieces.len())
            .map(|p| meets(region(b, p as PieceId, mover), enemy_king))
            .collect()
    });
    Some(MoveRepetition { counted })
}

/// The squares where a man of type `p` and colour `colour` (0: White) may stand: its
/// confinement zone, or the whole board.
fn region(b: &Build, p: PieceId, colour: usize) -> SquareSet {
    let zone = b.pieces[p as usize].confined;
    match zone.and_then(|z| b.zones.list.get(z as usize)) {
        Some(z) if colour == 0 => z.white,
        Some(z) => z.black,
        None => all(b),
    }
}

fn all(b: &Build) -> SquareSet {
    SquareSet::ranks(b.files, 0, b.ranks - 1)
}

/// True when the two sets share a square.
fn meets(a: SquareSet, b: SquareSet) -> bool {
    a.0.iter().zip(b.0.iter()).any(|(x, y)| x & y != 0)
}
