//! Fairy-Stockfish's `countingRule` key: which counting rule, and the men it counts by FSF's
//! piece names.

use super::compile::Build;
use super::rules_keys::named;
use crate::rules::{Counting, CountingRule};

/// The counting rule of the section, if any (`none`, FSF's default, is none).
pub fn counting(b: &mut Build) -> Option<Counting> {
    let rule = b.ctx.parsed("countingRule", |v| match v {
        "makruk" => Ok(Some(CountingRule::Makruk)),
        "cambodian" => Ok(Some(CountingRule::Cambodian)),
        "asean" => Ok(Some(CountingRule::Asean)),
        "none" => Ok(None),
        _ => Err(format!(
            "expected makruk, cambodian, asean or none, found `{v}`"
        )),
    })??;
    Some(Counting {
        rule,
        pawns: named(b, &["pawn"]),
        rooks: named(b, &["rook"]),
        khons: named(b, &["khon"]),
        knights: named(b, &["knight"]),
    })
}
