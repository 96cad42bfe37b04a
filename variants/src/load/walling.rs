//! Fairy-Stockfish's walling rules: `wallingRule` (arrow, duck, edge, past, static),
//! `wallingRegion`, `wallingRegionWhite`, `wallingRegionBlack` and `wallOrMove`. A move
//! of such a variant also places a wall (FSF's `*`) on an empty square the rule allows.

use super::compile::Build;
use crate::geometry::SquareSet;
use crate::rules::{Drops, GameEnd, Walling, WallingRule};

const RULE_KEY: &str = "wallingRule";

/// The rule's word as FSF spells it.
fn rule(v: &str) -> Result<Option<WallingRule>, String> {
    Ok(Some(match v.trim() {
        "arrow" => WallingRule::Arrow,
        "duck" => WallingRule::Duck,
        "edge" => WallingRule::Edge,
        "past" => WallingRule::Past,
        "static" => WallingRule::Static,
        "none" => return Ok(None),
        other => {
            return Err(format!(
                "expected arrow, duck, edge, past, static or none, found `{other}`"
            ))
        }
    }))
}

/// Reads the walling keys; `None` without a rule. Combinations Fairy-Stockfish itself
/// rejects, or plays by a rule Locust does not model, refuse the section by name.
pub fn walling(b: &mut Build, drops: &Drops, end: &GameEnd) -> Option<Walling> {
    let rule = b.ctx.parsed(RULE_KEY, rule).flatten();
    let full = SquareSet::ranks(b.files, 0, b.ranks - 1);
    let both = b.squares("wallingRegion", full);
    let region = [
        b.squares("wallingRegionWhite", both),
        b.squares("wallingRegionBlack", both),
    ];
    let or_move = b.ctx.flag("wallOrMove", false);
    let Some(rule) = rule else {
        if or_move {
            b.ctx.fail_section(
                "wallOrMove",
                "`wallOrMove = true` without a `wallingRule` is a bare pass in Fairy-Stockfish; \
                 not modelled by Locust, the variant is refused",
            );
        }
        // Without a rule the regions have no effect, in Fairy-Stockfish as here.
        return None;
    };
    let royal = b.pieces.iter().any(|p| p.royal);
    let pseudo_royal = !end.extinction_types.is_empty() && royal;
    let refusal = if drops.enabled {
        Some("Fairy-Stockfish rejects drops together with walls")
    } else if rule == WallingRule::Duck && royal && !pseudo_royal {
        Some("Fairy-Stockfish rejects royal kings with `wallingRule = duck`")
    } else {
        None
    };
    if let Some(why) = refusal {
        b.ctx.fail_section(RULE_KEY, why);
        return None;
    }
    Some(Walling {
        rule,
        region,
        or_move,
        shields: pseudo_royal,
    })
}
