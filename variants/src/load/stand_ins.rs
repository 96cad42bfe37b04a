//! FSF's promoted types are the types they name (`promotedPieceType = q:k` makes a promoted
//! queen a `k`), while Locust's `+Q` is a type of its own that moves like `k`. Moves and
//! mobility regions carry over (piece_defs, rules_keys); here the promoted form is marked as
//! standing for its target (`PieceType::stands_for`), so that extinction, the flag and
//! `promotionLimit` count it as the target, and royalty follows FSF where Locust can.
//!
//! Royalty: FSF's pseudo-royal men (`extinctionPseudoRoyal`) are royal while their side has
//! at most `extinctionPieceCount` + 1 men of the type, and a piece promotion carries the
//! moving man's royalty with it. So a royal man's promoted form is royal; a man that is not
//! royal may promote into a royal type only where that promotion reaches the flag at once
//! (the game ends there, as in backrank and mandala); a royal type that is royal otherwise
//! (a king) is refused.

use super::compile::Build;
use crate::rules::{GameEnd, Promotion};
use crate::PieceId;

/// Marks every promoted form that stands for another type, and gives it royalty where FSF's
/// rules do; refuses what Locust would play as another game.
pub fn resolve(b: &mut Build, end: &GameEnd, promotion: &Promotion) {
    for i in 0..b.defs.len() {
        let Some(symbol) = b.defs[i].stands_for else {
            continue;
        };
        let Some(target) = b.id(symbol) else {
            continue;
        };
        b.pieces[i].stands_for = Some(target);
        // Our `royalPieces` may name the promoted form too (shoshogi's crown prince).
        if !b.pieces[target as usize].royal || b.pieces[i].royal {
            continue;
        }
        let bases: Vec<usize> = (0..b.pieces.len())
            .filter(|&j| b.pieces[j].promoted == Some(i as PieceId))
            .collect();
        let pseudo = end.extinction_types.contains(&target);
        let why = if !pseudo {
            Some("is royal other than by extinctionPseudoRoyal")
        } else if bases.iter().all(|&j| b.pieces[j].royal) {
            b.pieces[i].royal = true;
            None
        } else if bases
            .iter()
            .all(|&j| b.pieces[j].royal || promotes_onto_flag(end, promotion, target))
        {
            None
        } else {
            Some("is royal, and a man that is not royal may promote into it off the flag")
        };
        if let Some(role) = why {
            refuse(b, i, target, role);
        }
    }
}

/// True when a promotion into `target` always lands on its flag region and the flag wins
/// at once (no `flagMove`): the promoted man never plays on.
fn promotes_onto_flag(end: &GameEnd, promotion: &Promotion, target: PieceId) -> bool {
    let Some(flag) = &end.flag else {
        return false;
    };
    let zones = [&promotion.zone_white, &promotion.zone_black];
    !flag.flag_move
        && (0..2).all(|c| {
            flag.piece[c] == Some(target) && zones[c].iter().all(|s| flag.region[c].contains(s))
        })
}

fn refuse(b: &mut Build, i: usize, target: PieceId, role: &str) {
    let entry = b.defs[i].entry.clone();
    let name = b.defs[target as usize].name.clone();
    b.ctx.fail(
        &entry,
        format!(
            "a promoted man stands for `{name}`, which {role}: Fairy-Stockfish counts it as a \
             `{name}` there, which Locust does not model; refused rather than played as \
             another game"
        ),
    );
}

/// True when a man of type `p` counts as `t`, or is royal and may turn into a form that does.
pub fn may_become(b: &Build, p: PieceId, t: PieceId) -> bool {
    let counts = |q: PieceId| b.pieces[q as usize].stands_for.unwrap_or(q) == t;
    let piece = &b.pieces[p as usize];
    let forms = [piece.promoted, piece.demotes_to];
    counts(p) || piece.royal && forms.iter().flatten().any(|&q| counts(q))
}
