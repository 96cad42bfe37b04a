//! Fairy-Stockfish's `countingRule` and `materialCounting` keys: which rule, and the men it
//! counts by FSF's piece names.

use super::compile::Build;
use super::rules_keys::named;
use crate::rules::{Counting, CountingRule, MaterialCounting};

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

/// Janggi's points per man by FSF's piece names (FSF's material counting weights).
const JANGGI_POINTS: &[(&str, i32)] = &[
    ("rook", 13),
    ("janggiCannon", 7),
    ("horse", 5),
    ("janggiElephant", 3),
    ("wazir", 3),
    ("soldier", 2),
];

/// The material counting of the section, if any (`none`, FSF's default, is none).
pub fn material_counting(b: &mut Build) -> Option<MaterialCounting> {
    let word = b.ctx.parsed("materialCounting", |v| match v {
        "janggi" | "unweighted" | "whitedrawodds" | "blackdrawodds" | "none" => Ok(v.to_string()),
        _ => Err(format!(
            "expected janggi, unweighted, whitedrawodds, blackdrawodds or none, found `{v}`"
        )),
    })?;
    match word.as_str() {
        "janggi" => Some(MaterialCounting::Janggi(
            JANGGI_POINTS
                .iter()
                .filter_map(|&(name, points)| b.id_named(name).map(|p| (p, points)))
                .collect(),
        )),
        "unweighted" => Some(MaterialCounting::Unweighted),
        "whitedrawodds" => Some(MaterialCounting::WhiteDrawOdds),
        "blackdrawodds" => Some(MaterialCounting::BlackDrawOdds),
        _ => None,
    }
}
