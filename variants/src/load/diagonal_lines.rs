//! Fairy-Stockfish's `diagonalLines` (janggi's palace diagonals; elgam's two long diagonals
//! on each side): while a man of certain FSF types stands on one of these squares it may
//! also move diagonally to another square of the set. FSF gives the moves by type, as its
//! janggi pieces have them: its `wazir` steps as a fers (`F`), its `soldier` as a pawn
//! takes (`fF`, moving or taking), its `rook` slides as a bishop (`B`) and its
//! `janggiCannon` hops as a diagonal cannon (`pB`; like its other moves, never over or onto
//! a janggi cannon). FSF masks only the end square, so a path may pass squares off the set;
//! a man confined to a region (`mobilityRegion*`, `confine`) also ends these moves in it.
//! FSF's janggi king (its king type wazir) has the fers step too, but a file cannot give
//! FSF's king that type (`king = k:W` is a custom royal), so Locust's `king` gets none.
//! A promoted form that stands for one of these types (`promotedPieceType`) has its moves.

use super::compile::{append, Build};
use super::piece_defs::{compile_moves, is_predefined};
use super::rules_keys::{split_ends, PASSING_ZONE};
use super::values;
use crate::geometry::SquareSet;
use crate::rules::PieceId;

/// The key, also the name of the zone of its squares (the same squares for both sides:
/// FSF's are absolute).
const KEY: &str = "diagonalLines";

/// FSF's types with moves along the lines, and those moves in XBetza.
const LINE_MOVES: [(&str, &str); 4] = [
    ("wazir", "F"),
    ("soldier", "fF"),
    ("rook", "B"),
    ("janggiCannon", "pB"),
];

/// Reads `diagonalLines` and adds the line moves to the types FSF gives them to.
pub(super) fn diagonal_lines(b: &mut Build) {
    let Some(entry) = b.ctx.take(KEY) else {
        return;
    };
    let lines = match values::squares(&entry.value, b.files, b.ranks) {
        Ok(s) => s,
        Err(msg) => return b.ctx.fail(&entry, msg),
    };
    if lines.is_empty() {
        return;
    }
    if let Some(why) = unmodelled_with(b) {
        let msg = format!("{why}; the variant is refused rather than played under other rules");
        return b.ctx.fail(&entry, msg);
    }
    let zone = b.zones.add(KEY, lines, lines);
    for (name, betza) in LINE_MOVES {
        for piece in types_named(b, name) {
            add_line_moves(b, piece, zone, betza);
        }
    }
}

/// What FSF does with the lines beside another key that Locust does not model.
fn unmodelled_with(b: &mut Build) -> Option<&'static str> {
    let soldier = (0..b.defs.len()).any(|i| is_predefined(&b.defs[i], "soldier"));
    let rank = b.ctx.peek("soldierPromotionRank").map(values::rank);
    if soldier && matches!(rank, Some(Ok(r)) if r > 1) {
        return Some(
            "with `soldierPromotionRank`, FSF's soldier steps diagonally on the lines below \
             that rank but does not attack there (its check test drops such attacks), which \
             Locust does not model",
        );
    }
    // Locust's janggi gives its palace diagonals by `zoneMoves`; FSF's child would replace
    // them with these lines, Locust would add these to them.
    if b.ctx.take("zoneMoves").is_some_and(|e| e.depth > 0) {
        return Some(
            "with `zoneMoves` inherited from a parent (Locust's janggi palace diagonals), \
             which FSF's diagonalLines would replace and Locust would keep",
        );
    }
    None
}

/// The types FSF calls `name`: the predefined piece and any promoted form standing for it.
fn types_named(b: &Build, name: &str) -> Vec<PieceId> {
    let Some(base) = (0..b.defs.len()).find(|&i| is_predefined(&b.defs[i], name)) else {
        return Vec::new();
    };
    let symbol = b.defs[base].symbol;
    (0..b.defs.len())
        .filter(|&i| i == base || b.defs[i].stands_for == Some(symbol))
        .map(|i| i as PieceId)
        .collect()
}

/// Adds `betza` from the lines (`zone`) to the lines: ends bound to them (and to the man's
/// region), the squares passed free, as FSF masks the end square only.
fn add_line_moves(b: &mut Build, piece: PieceId, zone: u8, betza: &str) {
    let def = b.defs[piece as usize].clone();
    let Some(mut extra) = compile_moves(b.ctx, &def, betza, b.max_range()) else {
        return;
    };
    let all = SquareSet::ranks(b.files, 0, b.ranks - 1);
    let passing = b
        .zones
        .index(PASSING_ZONE)
        .unwrap_or_else(|| b.zones.add(PASSING_ZONE, all, all));
    let ends = ends_zone(b, piece, zone);
    split_ends(&mut extra, passing);
    for n in extra.nodes.iter_mut() {
        n.zone = Some(if n.can_end() { ends } else { passing });
    }
    append(
        &mut b.pieces[piece as usize].moves,
        &extra,
        Some(zone),
        None,
    );
}

/// The lines, less what lies outside the man's region when it is confined.
fn ends_zone(b: &mut Build, piece: PieceId, lines: u8) -> u8 {
    let Some(region) = b.pieces[piece as usize].confined else {
        return lines;
    };
    let (l, r) = (
        &b.zones.list[lines as usize],
        &b.zones.list[region as usize],
    );
    let (white, black) = (
        values::intersection(l.white, r.white),
        values::intersection(l.black, r.black),
    );
    let name = format!("{KEY}.{}", b.defs[piece as usize].name);
    b.zones.add(&name, white, black)
}
