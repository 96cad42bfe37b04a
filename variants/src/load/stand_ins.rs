//! FSF's promoted types are the types they name (`promotedPieceType = q:k` makes a promoted
//! queen a `k`), while Locust's `+Q` is a type of its own that moves like `k`. Moves and
//! mobility regions carry over (piece_defs, rules_keys); a rule that FSF keys by type and
//! Locust applies to the named type alone would read another game, so it is refused.

use super::compile::Build;
use crate::rules::{GameEnd, Promotion};
use crate::PieceId;

/// Refuses the section when a promoted form stands for a type that is royal, an extinction
/// type, a flag piece or limited by `promotionLimit`.
pub fn refuse_split_types(b: &mut Build, end: &GameEnd, promotion: &Promotion) {
    for i in 0..b.defs.len() {
        let Some(symbol) = b.defs[i].stands_for else {
            continue;
        };
        let Some(target) = b.defs.iter().position(|d| d.symbol == symbol) else {
            continue;
        };
        let id = target as PieceId;
        // Our `royalPieces` may name the promoted form too (shoshogi's crown prince).
        let role = if b.pieces[target].royal && !b.pieces[i].royal {
            "is royal"
        } else if (end.extinction.as_ref()).is_some_and(|e| e.types.contains(&id)) {
            "is an extinction type"
        } else if (end.flag.as_ref()).is_some_and(|f| f.piece.contains(&Some(id))) {
            "is the flag piece"
        } else if promotion.limits.iter().any(|&(p, _)| p == id) {
            "is counted by promotionLimit"
        } else {
            continue;
        };
        let (entry, name) = (b.defs[i].entry.clone(), b.defs[target].name.clone());
        b.ctx.fail(
            &entry,
            format!(
                "a promoted man stands for `{name}`, which {role}: Fairy-Stockfish counts it as \
                 a `{name}` there, Locust's promoted form is a type of its own; refused rather \
                 than played as another game"
            ),
        );
    }
}
