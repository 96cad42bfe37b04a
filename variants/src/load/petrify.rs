//! Fairy-Stockfish's `petrifyOnCaptureTypes` (petrified, nuclear): a man of these types that
//! captures is turned to stone, a wall where it landed. The loader checks the combinations
//! in which Locust's reading (the mover's type before the move decides) is FSF's, and
//! takes the captures away from a pseudo-royal type of the set, which FSF forbids to
//! capture (it would petrify its own royal) and never counts as attacking.

use super::compile::Build;
use crate::rights;
use crate::rules::{Blast, Drops, Guard, PieceId};

const KEY: &str = "petrifyOnCaptureTypes";

/// Rights that end a path on an enemy man (removed from a pseudo-royal type of the set).
const CAPTURING: u16 = rights::CAPTURE | rights::DESTROY | rights::EN_PASSANT;
/// Rights that take men on the way, which a capture-less man may not keep.
const LOCUST: u16 = rights::LOCUST_FOE | rights::LOCUST_FRIEND;

/// Reads the key: the types that petrify (empty without it), and the pseudo-royal ones
/// among them with the steps they no longer capture along (see [`Guard`]).
pub fn petrify(b: &mut Build, drops: &Drops, blast: Option<&Blast>) -> (Vec<PieceId>, Vec<Guard>) {
    let Some(types) = b.id_set(KEY).filter(|t| !t.is_empty()) else {
        return (Vec::new(), Vec::new());
    };
    if let Some(msg) = refusal(b, &types, drops, blast) {
        if let Some(entry) = b.ctx.take(KEY) {
            b.ctx.fail(&entry, msg);
        }
        return (Vec::new(), Vec::new());
    }
    let mut guards = Vec::new();
    for &t in &types {
        let piece = &mut b.pieces[t as usize];
        if !piece.royal {
            continue;
        }
        let moves = &mut piece.moves;
        let steps = (moves.nodes.iter())
            .filter(|n| n.rights & CAPTURING != 0)
            .map(|n| n.step)
            .collect();
        for node in &mut moves.nodes {
            node.rights &= !CAPTURING;
        }
        guards.push(Guard { piece: t, steps });
    }
    (types, guards)
}

/// Why the set cannot be played as Fairy-Stockfish plays it, if it cannot.
fn refusal(b: &Build, types: &[PieceId], drops: &Drops, blast: Option<&Blast>) -> Option<String> {
    if drops.captures_to_hand {
        // FSF sends the petrified man to the opponent's hand as well.
        return Some(
            "with capturesToHand Fairy-Stockfish puts the petrified man in hand too; \
                     not modelled by Locust"
                .into(),
        );
    }
    let pseudo_royal = b.ctx.peek("extinctionPseudoRoyal") == Some("true");
    for (t, p) in b.pieces.iter().enumerate() {
        let t = t as PieceId;
        let inside = types.contains(&t);
        let forms = p.promotions.iter().chain(p.promoted.iter());
        for &q in forms {
            // The wall depends on the type before the move (FSF: and after it, in atomic
            // games only after it): the two must agree.
            let into = types.contains(&q);
            if inside && !into || blast.is_some() && !inside && into {
                return Some(format!(
                    "`{}` promotes across the set: Fairy-Stockfish's wall would depend on the \
                     promotion, which Locust does not model",
                    p.name
                ));
            }
        }
        if !inside || !p.royal {
            continue;
        }
        // Only one-step captures: their squares are what FSF's castling test still counts.
        let long = (p.moves.nodes.iter()).any(|n| n.parent.is_some() && n.rights & CAPTURING != 0);
        let locust = long || p.moves.nodes.iter().any(|n| n.rights & LOCUST != 0);
        let gained = drops.enabled
            || (b.pieces.iter()).any(|o| o.promotions.contains(&t) || o.promoted == Some(t));
        if !pseudo_royal || locust || gained {
            return Some(format!(
                "`{}` is royal: only a pseudo-royal type that no drop or promotion adds \
                 (extinctionPseudoRoyal), with one-step captures only, may petrify (it may not \
                 capture)",
                p.name
            ));
        }
    }
    None
}
