//! Left-right asymmetric pieces (XBetza `l`/`r` on oblique directions, as in gethenian's
//! bishops or torishogi's quails). Fairy-Stockfish gives Black such a piece's moves turned
//! through 180 degrees; Locust mirrors White's moves across the board's middle rank unless
//! the variant has `blackRotated`. The two are the same only for pieces whose moves are
//! symmetric left to right, so a variant with an asymmetric piece defined by
//! Fairy-Stockfish's keys (`customPieceN`, ...) is played rotated, as FSF plays it; one that
//! also has an asymmetric piece of Locust's own `piece.NAME` keys (mirrored, as documented),
//! or says `blackRotated = false`, cannot be both and is refused by name.

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

/// Whether Black's men must be turned half round: true when `blackRotated` says so, or
/// when a piece defined by an FSF key moves differently to its left and right (FSF's own
/// reading). Refuses the section when that contradicts an explicit `blackRotated = false`
/// or an asymmetric piece of Locust's own keys.
pub fn black_rotated(b: &mut Build) -> bool {
    let explicit = b.ctx.peek("blackRotated").map(|v| v.trim() == "true");
    let lopsided: Vec<usize> = (0..b.pieces.len())
        .filter(|&i| {
            let t = &b.pieces[i].moves;
            paths(t, false) != paths(t, true)
        })
        .collect();
    let (ours, fsf): (Vec<usize>, Vec<usize>) = lopsided
        .into_iter()
        .partition(|&i| b.defs[i].entry.key.starts_with("piece."));
    let Some(&first_fsf) = fsf.first() else {
        return b.ctx.flag("blackRotated", false);
    };
    let conflict = match (explicit, ours.first()) {
        (Some(false), _) => Some("the section says `blackRotated = false`".to_string()),
        (None, Some(&i)) => Some(format!(
            "`{}` (Locust's `piece.` key) is mirrored for Black without `blackRotated`",
            b.pieces[i].name
        )),
        _ => None,
    };
    if let Some(why) = conflict {
        let entry = b.defs[first_fsf].entry.clone();
        let name = b.pieces[first_fsf].name.clone();
        b.ctx.fail(
            &entry,
            format!(
                "`{name}` moves differently to its left and right: Fairy-Stockfish turns such \
                 a piece's moves through 180 degrees for Black, but {why}"
            ),
        );
    }
    b.ctx.flag("blackRotated", true)
}
