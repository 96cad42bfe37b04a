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

/// `locust perft`: prints the divide (if asked), the time, and `Nodes searched: N` last.
pub fn run_cli(
    all: &[variants::Variant],
    name: &str,
    depth: u32,
    fen: Option<&str>,
    show_divide: bool,
) -> std::process::ExitCode {
    use std::process::ExitCode;
    let Some(v) = all
        .iter()
        .find(|v| v.name == name || v.aliases.iter().any(|a| a == name))
    else {
        eprintln!("unknown variant '{name}' (see `locust variants`)");
        return ExitCode::FAILURE;
    };
    let start = Position::new_game(v.clone());
    let pos = match (start, fen) {
        (Ok(p), None) => Ok(p),
        (Ok(p), Some(f)) => p.with_fen(f),
        (Err(e), _) => Err(e),
    };
    let mut pos = match pos {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t = std::time::Instant::now();
    let nodes = if show_divide {
        let letter = |p: variants::PieceId| {
            pos.lay
                .variant
                .pieces
                .get(p as usize)
                .map(|t| t.letter)
                .unwrap_or('?')
        };
        let rows: Vec<(String, u64)> = divide(&mut pos.clone(), depth)
            .into_iter()
            .map(|(m, n)| (m.text(letter), n))
            .collect();
        for (m, n) in &rows {
            println!("{m}: {n}");
        }
        rows.iter().map(|r| r.1).sum()
    } else {
        perft(&mut pos, depth)
    };
    let secs = t.elapsed().as_secs_f64();
    println!(
        "Time: {:.3} s, {:.0} leaves/s",
        secs,
        nodes as f64 / secs.max(1e-9)
    );
    println!("Nodes searched: {nodes}");
    ExitCode::SUCCESS
}
