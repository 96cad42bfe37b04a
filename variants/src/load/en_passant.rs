//! Where en passant may be taken (Fairy-Stockfish's `enPassantRegion`,
//! `enPassantRegionWhite`, `enPassantRegionBlack`): the squares a capturing side may take on
//! en passant, so that a double step passing other squares gives no e.p. right (horde's
//! pawns stepping from the first rank).

use super::compile::Build;
use crate::geometry::SquareSet;

/// The regions, White's first; `None` when no key narrows them (every square).
pub fn region(b: &mut Build) -> Option<[SquareSet; 2]> {
    let any = [
        "enPassantRegion",
        "enPassantRegionWhite",
        "enPassantRegionBlack",
    ]
    .iter()
    .any(|k| b.ctx.peek(k).is_some());
    let full = SquareSet::ranks(b.files, 0, b.ranks - 1);
    let both = b.squares("enPassantRegion", full);
    let region = [
        b.squares("enPassantRegionWhite", both),
        b.squares("enPassantRegionBlack", both),
    ];
    (any && region != [full, full]).then_some(region)
}
