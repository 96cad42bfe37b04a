//! Extinction of men that are not royal (Fairy-Stockfish's `extinction*` keys without
//! `extinctionPseudoRoyal`), compiled into [`Extinction`]: the rule of extinction chess,
//! horde and the losing games, where a side wins or loses by running out of men.

use super::compile::Build;
use super::values;
use crate::rules::{Extinction, Outcome, PieceId};

/// Most men a count key may name.
const MAX_COUNT: u32 = 1 << 16;

/// The rule for `value` over `types` (empty: all men together, FSF's `*`) with at most
/// `count` men left; reads `extinctionOpponentPieceCount`.
pub fn rule(b: &mut Build, value: Outcome, types: Vec<PieceId>, count: u32) -> Option<Extinction> {
    let opponent_count = b
        .ctx
        .parsed("extinctionOpponentPieceCount", |v| {
            values::integer(v, MAX_COUNT)
        })
        .unwrap_or(0);
    Some(Extinction {
        value,
        all_men: types.is_empty(),
        types,
        count,
        opponent_count,
    })
}
