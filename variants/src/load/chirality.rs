//! Left-right asymmetric pieces (XBetza `l`/`r` on oblique directions, as in gethenian's
//! bishops or torishogi's quails). Fairy-Stockfish gives Black such a piece's moves turned
//! through 180 degrees; Locust mirrors White's moves across the board's middle rank, which
//! is the same only for pieces whose moves are symmetric left to right. An asymmetric piece
//! defined with Fairy-Stockfish's keys (`customPieceN`, `promotedPieceType`) is refused by
//! name rather than played with Black's moves mirrored the wrong way; Locust's own
//! `piece.NAME` keys keep Locust's mirrored reading (docs/variants.md).

use std::collections::HashSet;

use super::compile::Build;
use crate::trajectory::{NodeId, Trajectories};

/// One path from a root: its steps, each with its rights and whether it is taken over an
/// occupied square.
type Path = Vec<(i8, i8, u16, bool)>;

/// Every path of the piece's trajectory forest, with steps mirrored left to right when
/// `mirror` is set.
fn paths(t: &Trajectories, mirror: bool) -> HashSet<Path> {
    let mut out = HashSet::new();
    let mut stack: Vec<(NodeId, bool, Path)> =
        t.roots.iter().map(|&r| (r, false, Vec::new())).collect();
    while let Some((id, occupied, mut path)) = stack.pop() {
        let Some(n) = t.nodes.get(id as usize) else {
            continue;
        };
        let dx = if mirror { -n.step.0 } else { n.step.0 };
        path.push((dx, n.step.1, n.rights, occupied));
        out.insert(path.clone());
        for &c in &n.on_empty {
            stack.push((c, false, path.clone()));
        }
        for &c in &n.on_occupied {
            stack.push((c, true, path.clone()));
        }
    }
    out
}

/// Refuses every piece defined by an FSF key whose moves differ from their left-right mirror
/// image.
pub fn refuse_asymmetric(b: &mut Build) {
    // With `blackRotated` Black's men are White's turned half round, as FSF has them.
    if b.ctx
        .peek("blackRotated")
        .is_some_and(|v| v.trim() == "true")
    {
        return;
    }
    for i in 0..b.pieces.len() {
        let t = &b.pieces[i].moves;
        if paths(t, false) == paths(t, true) {
            continue;
        }
        let entry = b.defs[i].entry.clone();
        if entry.key.starts_with("piece.") {
            continue; // Locust's own key: Black's moves are White's mirrored, as documented
        }
        let name = b.pieces[i].name.clone();
        b.ctx.fail(
            &entry,
            format!(
                "`{name}` moves differently to its left and right: Fairy-Stockfish turns such \
                 a piece's moves through 180 degrees for Black, which Locust does not model"
            ),
        );
    }
}
