//! Fairy-Stockfish's gating keys: `gating` (gate marks in the FEN's castling field) and
//! `seirawanGating` (S-chess: a man from hand put on the square a gate man leaves).
//! `cambodianMoves` is read in `unmodelled` (refused when on).

use super::compile::Build;
use crate::rules::{Castling, Gating, Walling};

const GATING_KEY: &str = "gating";
const SEIRAWAN_KEY: &str = "seirawanGating";

/// Reads the gating keys; `None` without gates. Combinations Locust does not model refuse
/// the section by name.
pub fn gating(
    b: &mut Build,
    castling: Option<&Castling>,
    walling: Option<&Walling>,
) -> Option<Gating> {
    let on = b.ctx.flag(GATING_KEY, false);
    let seirawan = b.ctx.flag(SEIRAWAN_KEY, false);
    if seirawan && !on {
        b.ctx.fail_section(
            SEIRAWAN_KEY,
            "`seirawanGating = true` requires `gating = true` (Fairy-Stockfish keeps no gates \
             without it); the variant is refused rather than played without gating",
        );
        return None;
    }
    if !on {
        return None;
    }
    if walling.is_some() {
        // FSF keeps a move's wall and its gate in one field: the pair is not one game.
        b.ctx.fail_section(
            GATING_KEY,
            "gating together with a walling rule is not modelled by Locust; the variant is \
             refused",
        );
        return None;
    }
    Some(Gating {
        // FSF's gates lie on its castling rank, with or without castling.
        rank: castling.map_or(0, |c| c.rank),
        seirawan,
    })
}
