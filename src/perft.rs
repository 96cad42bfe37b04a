//! Perft: counts the leaves of the legal move tree. Like Stockfish and Fairy-Stockfish it
//! bulk-counts: at the last ply it adds the number of legal moves without playing them.

use crate::make::Op;
use crate::moves::Move;
use crate::position::Position;

/// Leaf count of the legal move tree of `depth` plies (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut ops = Vec::with_capacity(1024);
    count(pos, depth, &mut ops)
}

fn count(pos: &mut Position, depth: u32, ops: &mut Vec<Op>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::with_capacity(64);
    pos.legal_moves(&mut moves, ops);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for m in &moves {
        let saved = pos.make(m, ops);
        total += count(pos, depth - 1, ops);
        pos.unmake(saved, ops);
    }
    total
}

/// Perft per root move: (move, leaves).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let mut ops = Vec::with_capacity(1024);
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves, &mut ops);
    moves
        .into_iter()
        .map(|m| {
            let n = if depth <= 1 {
                1
            } else {
                let saved = pos.make(&m, &mut ops);
                let n = count(pos, depth - 1, &mut ops);
                pos.unmake(saved, &mut ops);
                n
            };
            (m, n)
        })
        .collect()
}
