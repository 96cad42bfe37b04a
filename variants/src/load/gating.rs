//! Fairy-Stockfish's gating keys: `gating` (gate marks in the FEN's castling field) and
//! `seirawanGating` (S-chess: a man from hand put on the square a gate man leaves) and
//! `cambodianMoves` (cambodian chess: the king's and the met's first leaps from their gates).

use super::compile::Build;
use super::rules_keys::named;
use crate::rules::{CambodianMoves, Castling, Gating, Walling};

const GATING_KEY: &str = "gating";
const SEIRAWAN_KEY: &str = "seirawanGating";
const CAMBODIAN_KEY: &str = "cambodianMoves";

/// Reads the gating keys; `None` without gates. Combinations Locust does not model refuse
/// the section by name.
pub fn gating(
    b: &mut Build,
    castling: Option<&Castling>,
    walling: Option<&Walling>,
) -> Option<Gating> {
    let on = b.ctx.flag(GATING_KEY, false);
    let seirawan = b.ctx.flag(SEIRAWAN_KEY, false);
    let cambodian = b.ctx.flag(CAMBODIAN_KEY, false);
    for (key, set) in [(SEIRAWAN_KEY, seirawan), (CAMBODIAN_KEY, cambodian)] {
        if set && !on {
            b.ctx.fail_section(
                key,
                format!(
                    "`{key} = true` requires `gating = true` (Fairy-Stockfish keeps no gates \
                     without it); the variant is refused rather than played without them"
                ),
            );
            return None;
        }
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
        cambodian: cambodian.then(|| CambodianMoves {
            king: b.id_named("king"),
            met: named(b, &["met", "fers"]),
            rook: named(b, &["rook"]),
        }),
    })
}
