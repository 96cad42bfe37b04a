//! The reference generator's own reading of gating (S-chess): a board keeps each side's gate
//! squares as a plain list; a move's gated forms are one per type in hand and square the
//! move leaves (for castling, the king's and the rook's), kept only where the man would
//! stand on an empty square once the move is played; legality is the ungated move's.
//! The engine's reading (`gating.rs`) keeps gates as file masks and filters castling by its
//! ends; the two are compared by perft and the walk tests. Cambodian chess's first moves
//! (`cambodianMoves`) are read here from the gate list too.

use variants::geometry::Coord;
use variants::{CambodianMoves, PieceId, Variant};

use super::moves::{Move, MoveKind};
use super::reference::{in_check, play, RefBoard, RefMan};
use super::reference_drops::may_drop;
use crate::board::types::Colour;

/// `moves` with the gated forms of each added (under `seirawanGating`).
pub(super) fn with_gates(b: &RefBoard, v: &Variant, moves: Vec<Move>) -> Vec<Move> {
    if !v.gating.as_ref().is_some_and(|g| g.seirawan) {
        return moves;
    }
    let us = b.stm;
    let mut out = Vec::new();
    for m in moves {
        out.push(m);
        let squares: Vec<(Coord, bool)> = match m.kind {
            MoveKind::Normal => vec![(m.from_coord(), false)],
            MoveKind::Castle => {
                let rook = m.extras().next().map(|r| (r, true));
                [(m.from_coord(), false)].into_iter().chain(rook).collect()
            }
            _ => Vec::new(),
        };
        for (c, on_rook) in squares {
            if !b.gates[us.index()].contains(&c) {
                continue;
            }
            for p in gate_types(b, v, c) {
                out.push(m.with_gate(Some(p), on_rook));
            }
        }
    }
    out
}

fn gate_types(b: &RefBoard, v: &Variant, c: Coord) -> Vec<PieceId> {
    let hand = &b.hands[b.stm.index()];
    (0..hand.len() as PieceId)
        .filter(|&p| hand[p as usize] > 0 && may_drop(b, v, p, c))
        .collect()
}

/// True when the gated man of `m` would land on a square the ungated move leaves empty.
pub(super) fn gate_free(b: &RefBoard, v: &Variant, m: &Move) -> bool {
    let Some(c) = m.gate_coord() else {
        return true;
    };
    play(b, v, &m.with_gate(None, false)).at(c).is_none()
}

/// The gating part of `m` on `n` (the board after the rest of the move, the mover still to
/// move): the gated man placed, then the gates kept.
pub(super) fn play_gates(n: &mut RefBoard, v: &Variant, m: &Move) {
    let Some(g) = &v.gating else { return };
    let us = n.stm;
    if let (Some(p), Some(c)) = (m.gate_piece(), m.gate_coord()) {
        let held = &mut n.hands[us.index()][p as usize];
        *held = held.saturating_sub(1);
        n.squares[c.index()] = Some(RefMan {
            piece: p,
            colour: us,
            virgin: false,
            promoted: false,
        });
    }
    let mut left = Vec::new();
    if matches!(
        m.kind,
        MoveKind::Normal | MoveKind::Promotion | MoveKind::EnPassant
    ) {
        left.push(m.from_coord());
    }
    if m.kind == MoveKind::Castle {
        left.push(m.from_coord());
        left.extend(m.extras().next());
    }
    n.gates[us.index()].retain(|c| !left.contains(c));
    if m.kind != MoveKind::Pass {
        n.gates[us.flip().index()].retain(|&c| c != m.to_coord());
    }
    let empty_for_good = n.hands[us.index()].iter().all(|&k| k == 0);
    if g.seirawan && !v.drops.captures_to_hand && empty_for_good {
        n.gates[us.index()].clear();
    }
    if let (Some(c), MoveKind::Normal) = (&g.cambodian, m.kind) {
        rook_takes_leap(n, c, m.to_coord());
    }
}

/// A rook's plain move to `to` on the enemy king's file or rank closes the king's gate.
fn rook_takes_leap(n: &mut RefBoard, c: &CambodianMoves, to: Coord) {
    let them = n.stm.flip();
    if !n.at(to).is_some_and(|x| c.rook.contains(&x.piece)) {
        return;
    }
    let kings: Vec<Coord> = (n.men())
        .filter(|(_, x)| x.colour == them && Some(x.piece) == c.king)
        .map(|(sq, _)| sq)
        .collect();
    for k in kings {
        if k != to && (k.file == to.file || k.rank == to.rank) {
            n.gates[them.index()].retain(|&g| g != k);
        }
    }
}

/// Cambodian first moves of the side to move: a gated king not in check leaps as a knight
/// one rank forward, a gated met two squares straight forward, onto empty squares.
pub(super) fn cambodian_moves(b: &RefBoard, v: &Variant, out: &mut Vec<Move>) {
    let Some(c) = v.gating.as_ref().and_then(|g| g.cambodian.as_ref()) else {
        return;
    };
    let us = b.stm;
    let forward = if us == Colour::White { 1 } else { -1 };
    for &at in &b.gates[us.index()] {
        let Some(man) = b.at(at).filter(|x| x.colour == us) else {
            continue;
        };
        let mut ends = Vec::new();
        if Some(man.piece) == c.king && !in_check(b, v, us) {
            ends.push((at.file as i32 - 2, at.rank as i32 + forward));
            ends.push((at.file as i32 + 2, at.rank as i32 + forward));
        }
        if c.met.contains(&man.piece) {
            ends.push((at.file as i32, at.rank as i32 + 2 * forward));
        }
        for (f, r) in ends {
            if let Some(to) = b.square(f, r).filter(|&to| b.at(to).is_none()) {
                out.push(Move::normal(at, to));
            }
        }
    }
}

/// The gates of a FEN as squares per side (the castling field's marks; see
/// `gating::split_gate_marks`).
pub(super) fn gate_squares(v: &Variant, masks: [u16; 2]) -> [Vec<Coord>; 2] {
    let Some(g) = &v.gating else {
        return [Vec::new(), Vec::new()];
    };
    let side = |colour: Colour| {
        let rank = g.home_rank(colour == Colour::White, v.ranks);
        (0..v.files)
            .filter(|&f| masks[colour.index()] >> f & 1 != 0)
            .map(|f| Coord::new(f, rank))
            .collect()
    };
    [side(Colour::White), side(Colour::Black)]
}
