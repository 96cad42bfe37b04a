//! Fairy-Stockfish's connect keys (`connectN`, `connectNxN`, `collinearN`, the chain regions
//! `connectRegion1White` ..., the directions, `connectPieceTypes`, `connectValue`),
//! compiled into [`Connect`]; the game ends when the side that moved has made one.

use super::compile::Build;
use super::values;
use crate::geometry::SquareSet;
use crate::rules::{Connect, Outcome};

/// Largest line or block a key may ask for (the widest board).
const MAX_LINE: u32 = 16;

/// The connect rule, or `None` when no key asks for a connection.
pub fn connect(b: &mut Build) -> Option<Connect> {
    let mut count = |key: &str| (b.ctx.parsed(key, |v| values::integer(v, MAX_LINE))).unwrap_or(0);
    let (n, nxn, collinear) = (count("connectN"), count("connectNxN"), count("collinearN"));
    let region1 = [
        b.squares("connectRegion1White", SquareSet::EMPTY),
        b.squares("connectRegion1Black", SquareSet::EMPTY),
    ];
    let region2 = [
        b.squares("connectRegion2White", SquareSet::EMPTY),
        b.squares("connectRegion2Black", SquareSet::EMPTY),
    ];
    let rule = Connect {
        n,
        nxn,
        collinear,
        horizontal: b.ctx.flag("connectHorizontal", true),
        vertical: b.ctx.flag("connectVertical", true),
        diagonal: b.ctx.flag("connectDiagonal", true),
        pieces: b.id_set("connectPieceTypes"),
        region1,
        region2,
        value: (b.ctx.parsed("connectValue", values::outcome)).unwrap_or(Outcome::Win),
    };
    let any = n > 0 || nxn > 0 || collinear > 0 || rule.region1.iter().any(|r| !r.is_empty());
    any.then_some(rule)
}
