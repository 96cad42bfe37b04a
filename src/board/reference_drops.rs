//! The reference generator's drops, written apart from the engine's `drops.rs`: where a man
//! in hand may be dropped (regions, pawn ranks, doubled pawns by count, confinement, the
//! promoted form under `dropPromoted`), which hand a drop empties, and the legality rules on
//! drops (`dropChecks = false`, `mustDrop`, `mustDropType`); the men a landing flips
//! (`flipEnclosedPieces`), found here by walking the plain board.

use variants::geometry::Coord;
use variants::rules::{EnclosingDrop, Flip};
use variants::{PieceId, Variant};

use crate::board::enclosing::{self, held_by, Held};
use crate::board::moves::{Move, MoveKind};
use crate::board::reference::{in_check, RefBoard};
use crate::board::types::Colour;

/// Drops from the hand of the side to move onto empty squares the rules allow.
pub fn drop_moves(b: &RefBoard, v: &Variant, out: &mut Vec<Move>) {
    if !v.drops.enabled {
        return;
    }
    let us = b.stm;
    let hand = &b.hands[us.index()];
    let only = v
        .drops
        .must_drop_type
        .filter(|&t| v.drops.must_drop && hand[t as usize] > 0);
    let held = |c: Coord| match b.walls[c.index()] {
        true => Held::Wall,
        false => held_by(b.at(c).map(|m| m.colour), us),
    };
    let d = &v.drops;
    let enclosing = enclosing::opening(&d.enclosing_start, b.files, b.ranks, held)
        .or_else(|| enclosing::allowed(d.enclosing, b.files, b.ranks, held));
    for (p, &n) in hand.iter().enumerate() {
        let p = p as PieceId;
        if (n == 0 && !d.free) || only.is_some_and(|t| t != p) {
            continue;
        }
        let mut forms = vec![p];
        if let Some(q) = v.pieces[p as usize].promoted {
            // Held as such, the promoted form is dropped from its own count.
            if v.drops.promoted && hand[q as usize] == 0 {
                forms.push(q);
            }
        }
        for c in b.coords().filter(|&c| b.at(c).is_none()) {
            let index = c.rank as usize * b.files as usize + c.file as usize;
            if enclosing.as_ref().is_some_and(|mask| !mask[index]) {
                continue;
            }
            let any_side = v.drops.enclosing == EnclosingDrop::AnySide;
            if (!any_side && !may_drop(b, v, p, c)) || !bishops_ok(b, v, p, c) {
                continue;
            }
            for &placed in &forms {
                let rel = b.relative(c, us);
                if v.pieces[placed as usize].dead_squares.contains(rel) {
                    continue;
                }
                let mut m = Move::normal(c, c);
                m.kind = MoveKind::Drop;
                m.piece = placed;
                out.push(m);
            }
        }
    }
}

/// The rules on the type in hand `p` for a drop on `c`.
pub(super) fn may_drop(b: &RefBoard, v: &Variant, p: PieceId, c: Coord) -> bool {
    let us = b.stm;
    if !v.drops.region[us.index()].contains(c) {
        return false;
    }
    if let Some(z) = v.pieces[p as usize].confined {
        let zone = &v.zones[z as usize];
        let inside = match us {
            Colour::White => zone.white.contains(c),
            Colour::Black => zone.black.contains(c),
        };
        if !inside {
            return false;
        }
    }
    let rel = b.relative(c, us);
    if v.drops.pawn_types.contains(&p) && v.drops.pawn_drop_forbidden.contains(rel) {
        return false;
    }
    if v.drops.first_rank_only.contains(&p) && rel.rank > 0 {
        return false; // sittuyin's rooks
    }
    if !v.drops.no_doubled.contains(&p) {
        return true;
    }
    let on_file = b
        .men()
        .filter(|(sq, m)| m.colour == us && m.piece == p && sq.file == c.file)
        .count();
    (on_file as u32) < v.drops.no_doubled_count
}

/// `dropOppositeColoredBishop`, counted afresh: after dropping `p` on `c`, the side to
/// move must still be able to have half its bishops (rounded down) on each square colour,
/// and no colour may hold more than half of them (rounded up).
fn bishops_ok(b: &RefBoard, v: &Variant, p: PieceId, c: Coord) -> bool {
    let Some(bishop) = v.drops.opposite_bishops else {
        return true;
    };
    let us = b.stm;
    let dark = |x: Coord| (x.file + x.rank) % 2 == 0;
    let ours = |x: Coord| b.at(x).is_some_and(|m| m.colour == us && m.piece == bishop);
    let total =
        b.hands[us.index()][bishop as usize] as usize + b.coords().filter(|&x| ours(x)).count();
    if p == bishop {
        let same = b
            .coords()
            .filter(|&x| ours(x) && dark(x) == dark(c))
            .count();
        return same < total.div_ceil(2);
    }
    [true, false].iter().all(|&shade| {
        let room = b
            .coords()
            .filter(|&x| dark(x) == shade)
            .filter(|&x| ours(x) || x != c && b.at(x).is_none() && may_drop(b, v, bishop, x))
            .count();
        room >= total / 2
    })
}

/// The hand type a drop of `placed` by the side to move takes: a promoted form not held as
/// such comes from its base type's count (`dropPromoted`).
pub fn drop_source(b: &RefBoard, v: &Variant, placed: PieceId) -> PieceId {
    let held = b.hands[b.stm.index()][placed as usize] > 0;
    match v.pieces[placed as usize].demotes_to {
        Some(base) if v.drops.promoted && !held => base,
        _ => placed,
    }
}

/// `dropChecks = false`: `after` is the board after `m`; false when `m` is a checking drop.
pub fn check_ok(after: &RefBoard, v: &Variant, m: &Move) -> bool {
    m.kind != MoveKind::Drop || !v.drops.no_checks || !in_check(after, v, after.stm)
}

/// `mustDrop`: keeps only the drops among the legal moves `legal` when the side to move
/// holds men it must drop (of `mustDropType`, if given) and one of them is legal.
pub fn must_drop_filter(b: &RefBoard, v: &Variant, legal: Vec<Move>) -> Vec<Move> {
    if !v.drops.must_drop {
        return legal;
    }
    let hand = &b.hands[b.stm.index()];
    let holds = match v.drops.must_drop_type {
        Some(t) => hand[t as usize] > 0,
        None => hand.iter().any(|&n| n > 0),
    };
    if !holds || !legal.iter().any(|m| m.kind == MoveKind::Drop) {
        return legal;
    }
    legal
        .into_iter()
        .filter(|m| m.kind == MoveKind::Drop)
        .collect()
}

/// `castlingDroppedPiece`: whether a man of type `piece` that the side to move drops on `c`
/// gets a castling right (the king on the e-file of its first rank; a rook on a corner of
/// that rank while its king stands on that e-square).
pub fn castles_when_dropped(b: &RefBoard, v: &Variant, piece: PieceId, c: Coord) -> bool {
    let Some(cas) = v.castling.as_ref().filter(|_| v.drops.castling_dropped) else {
        return false;
    };
    let us = b.stm;
    let first = b.relative(c, us).rank == 0;
    if !first {
        return false;
    }
    let e = Coord::new(crate::board::make::CASTLING_KING_FILE, c.rank);
    if piece == cas.king_type {
        return c == e;
    }
    let king_home = b
        .at(e)
        .is_some_and(|m| m.colour == us && m.piece == cas.king_type);
    cas.rook_types.contains(&piece) && (c.file == 0 || c.file + 1 == v.files) && king_home
}

/// After a castling man was dropped with its right on `c`: its partners on that rank (the
/// corner rooks of a dropped king, the king of a dropped rook) get theirs.
pub fn grant_castling_partners(b: &mut RefBoard, v: &Variant, c: Coord) {
    let Some(cas) = v.castling.as_ref() else {
        return;
    };
    let us = b.stm;
    for file in 0..v.files {
        let x = Coord::new(file, c.rank);
        let Some(mut m) = b.at(x) else {
            continue;
        };
        let partner = if b.at(c).is_some_and(|d| d.piece == cas.king_type) {
            cas.rook_types.contains(&m.piece) && (file == 0 || file + 1 == v.files)
        } else {
            m.piece == cas.king_type && file == crate::board::make::CASTLING_KING_FILE
        };
        if m.colour == us && partner {
            m.virgin = true;
            b.squares[x.index()] = Some(m);
        }
    }
}

/// The men of the other side that change colour after `us` landed on `to` (the move
/// played on `b`), by `flipEnclosedPieces`: walked here on the plain board, apart from the
/// engine's `enclosing::flipped`.
pub fn flips(b: &RefBoard, v: &Variant, to: Coord, dropped: bool) -> Vec<Coord> {
    let us = b.stm;
    let owner = |f: i32, r: i32| b.square(f, r).and_then(|c| b.at(c)).map(|m| m.colour);
    let (f, r) = (to.file as i32, to.rank as i32);
    let around: Vec<(i32, i32)> = (-1..=1)
        .flat_map(|df| (-1..=1).map(move |dr| (df, dr)))
        .filter(|&d| d != (0, 0))
        .collect();
    let at = |(df, dr): (i32, i32), k: i32| owner(f + k * df, r + k * dr);
    let coord = |(df, dr): (i32, i32), k: i32| Coord::new((f + k * df) as u8, (r + k * dr) as u8);
    match v.flip {
        Flip::None => Vec::new(),
        Flip::Ataxx | Flip::Quadwrangle => {
            let friend = around.iter().any(|&d| at(d, 1) == Some(us));
            if v.flip == Flip::Quadwrangle && dropped && !friend {
                return Vec::new();
            }
            (around.iter().filter(|&&d| at(d, 1) == Some(us.flip())))
                .map(|&d| coord(d, 1))
                .collect()
        }
        Flip::Reversi => {
            let mut out = Vec::new();
            for &d in &around {
                let run = (1..).take_while(|&k| at(d, k) == Some(us.flip())).count() as i32;
                if run > 0 && at(d, run + 1) == Some(us) {
                    out.extend((1..=run).map(|k| coord(d, k)));
                }
            }
            out
        }
    }
}
