//! Perft: counts the leaves of the legal move tree. Like Stockfish and Fairy-Stockfish it
//! bulk-counts: at the last ply it adds the number of legal moves without playing them.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::board::make::Op;
use crate::board::moves::Move;
use crate::board::position::Position;

/// Leaf count of the legal move tree of `depth` plies (bulk-counted at the last ply).
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    let mut ops = Vec::with_capacity(1024);
    let mut lists = Vec::new();
    count(pos, depth, &mut ops, &mut lists, &AtomicBool::new(false))
}

/// `lists[d]` is the move list reused at every node `d` plies above the leaves.
/// `stop` abandons the count (the result is then meaningless).
fn count(
    pos: &mut Position,
    depth: u32,
    ops: &mut Vec<Op>,
    lists: &mut Vec<Vec<Move>>,
    stop: &AtomicBool,
) -> u64 {
    if depth == 0 || stop.load(Ordering::Relaxed) {
        return 1;
    }
    let d = depth as usize;
    while lists.len() <= d {
        lists.push(Vec::with_capacity(64));
    }
    let mut moves = std::mem::take(&mut lists[d]);
    moves.clear();
    pos.legal_moves(&mut moves, ops);
    let total = if depth == 1 {
        moves.len() as u64
    } else {
        let mut sum = 0;
        for m in &moves {
            let saved = pos.make(m, ops);
            sum += count(pos, depth - 1, ops, lists, stop);
            pos.unmake(saved, ops);
        }
        sum
    };
    lists[d] = moves;
    total
}

/// Perft per root move: (move, leaves).
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &AtomicBool::new(false))
}

/// [`divide`] that gives up when `stop` is set (the counts are then meaningless): protocol
/// commands can cancel a perft.
pub fn divide_until(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Vec<(Move, u64)> {
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
                let n = count(pos, depth - 1, &mut ops, &mut Vec::new(), stop);
                pos.unmake(saved, &mut ops);
                n
            };
            (m, n)
        })
        .collect()
}

/// Options of `locust perft`.
#[derive(Clone, Debug, Default)]
pub struct PerftArgs {
    /// Depth in plies.
    pub depth: u32,
    /// Start position in FEN, if not the variant's.
    pub fen: Option<String>,
    /// Print the count below every root move.
    pub divide: bool,
    /// Count with the slow reference generator instead of the attack map.
    pub reference: bool,
}

/// `locust perft`: prints the divide (if asked), the time, and `Nodes searched: N` last.
pub fn run_cli(all: &[variants::Variant], name: &str, args: &PerftArgs) -> std::process::ExitCode {
    use std::process::ExitCode;
    let Some(v) = all
        .iter()
        .find(|v| v.name == name || v.aliases.iter().any(|a| a == name))
    else {
        eprintln!("unknown variant '{name}' (see `locust variants`)");
        return ExitCode::FAILURE;
    };
    let pos = Position::new_game(v.clone()).and_then(|p| match &args.fen {
        Some(f) => p.with_fen(f),
        None => Ok(p),
    });
    let mut pos = match pos {
        Ok(p) => p,
        Err(e) => {
            eprintln!("bad FEN: {e}");
            return ExitCode::FAILURE;
        }
    };
    let t = std::time::Instant::now();
    let rows = if args.depth == 0 {
        Vec::new()
    } else if args.reference {
        let board = crate::board::reference::RefBoard::from_position(&pos);
        crate::board::reference::divide(&board, v, args.depth)
    } else {
        divide(&mut pos, args.depth)
    };
    let nodes: u64 = if args.depth == 0 {
        1
    } else {
        rows.iter().map(|r| r.1).sum()
    };
    if args.divide {
        let letter = |p: variants::PieceId| v.pieces.get(p as usize).map_or('?', |t| t.letter);
        for (m, n) in &rows {
            println!("{}: {n}", m.text(letter));
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "Time: {secs:.3} s, {:.0} leaves/s",
        nodes as f64 / secs.max(1e-9)
    );
    println!("Nodes searched: {nodes}");
    ExitCode::SUCCESS
}
