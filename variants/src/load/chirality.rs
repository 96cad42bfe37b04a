//! Pieces whose moves differ to the left and to the right (`rW`, `lF`): Fairy-Stockfish
//! turns such a move half a turn for Black (White's right is Black's right as Black sees
//! the board), while Locust mirrors Black's moves in the ranks only. The two conventions
//! agree for every piece that moves alike both ways, so only a lopsided piece defined with
//! FSF's keys is refused, rather than played as another game.

use super::compile::Build;
use crate::trajectory::{NodeId, Trajectories};

/// A path from a root, as its steps and the rights of its last node.
type Path = (Vec<(i8, i8)>, u16);

/// Refuses the section when one of its pieces defined with Fairy-Stockfish's keys (not our
/// `piece.NAME`, whose moves are Locust's by definition) moves differently to the left and
/// the right.
pub fn check(b: &mut Build) {
    let fsf_defined =
        |i: usize| (b.defs.get(i)).is_some_and(|d| !d.entry.key.starts_with("piece."));
    let lopsided: Vec<String> = (b.pieces.iter().enumerate())
        .filter(|&(i, p)| fsf_defined(i) && !symmetric(&p.moves))
        .map(|(_, p)| p.name.clone())
        .collect();
    for name in lopsided {
        let msg = "its moves differ to the left and to the right: Fairy-Stockfish turns them \
                   half a turn for Black, Locust mirrors them in the ranks; refused rather \
                   than played as another game";
        b.ctx.fail_section(&name, msg);
    }
}

/// True when the piece's paths, with every file step negated, are its paths again.
fn symmetric(t: &Trajectories) -> bool {
    let mut paths = Vec::new();
    for &r in &t.roots {
        collect(t, r, &mut Vec::new(), &mut paths);
    }
    let mut mirrored: Vec<Path> = (paths.iter())
        .map(|(steps, rights)| (steps.iter().map(|&(f, r)| (-f, r)).collect(), *rights))
        .collect();
    paths.sort_unstable();
    mirrored.sort_unstable();
    paths == mirrored
}

fn collect(t: &Trajectories, id: NodeId, prefix: &mut Vec<(i8, i8)>, out: &mut Vec<Path>) {
    let Some(node) = t.nodes.get(id as usize) else {
        return;
    };
    prefix.push(node.step);
    out.push((prefix.clone(), node.rights));
    for &c in node.on_empty.iter().chain(&node.on_occupied) {
        collect(t, c, prefix, out);
    }
    prefix.pop();
}
