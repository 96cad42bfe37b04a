//! Fairy-Stockfish's `enclosingDrop` rules that narrow where a drop may go (`top`, `snort`,
//! `anyside`), as a mask of the squares they allow, from the board's occupancy alone. The
//! engine's `drops.rs` and the reference's `reference_drops.rs` both ask this function with
//! their own boards; the rule's other drop restrictions stay theirs.

use variants::rules::EnclosingDrop;
use variants::Coord;

use crate::board::types::Colour;

/// What a square holds, as the rules ask it.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Held {
    /// No man.
    Empty,
    /// A man of the side to drop.
    Ours,
    /// An enemy man.
    Theirs,
}

/// The squares the rule allows a drop on (indexed `rank * files + file`), or `None` when
/// it allows every square (no rule). `held(c)` reads the board for the side to drop.
pub fn allowed(
    rule: EnclosingDrop,
    files: u8,
    ranks: u8,
    held: impl Fn(Coord) -> Held,
) -> Option<Vec<bool>> {
    let (fi, ri) = (files as i32, ranks as i32);
    let at = |f: i32, r: i32| -> Held {
        if (0..fi).contains(&f) && (0..ri).contains(&r) {
            held(Coord::new(f as u8, r as u8))
        } else {
            Held::Empty
        }
    };
    let squares = (0..ri).flat_map(|r| (0..fi).map(move |f| (f, r)));
    let mask = match rule {
        EnclosingDrop::None => return None,
        EnclosingDrop::Top => squares
            .map(|(f, r)| r == 0 || at(f, r - 1) != Held::Empty)
            .collect(),
        EnclosingDrop::Snort => squares
            .map(|(f, r)| {
                let steps = [(1, 0), (-1, 0), (0, 1), (0, -1)];
                !steps
                    .iter()
                    .any(|&(df, dr)| at(f + df, r + dr) == Held::Theirs)
            })
            .collect(),
        EnclosingDrop::AnySide => any_side(fi, ri, &at),
    };
    Some(mask)
}

/// FSF's `anyside`: for each rank whose first square is empty, the lowest-file empty square
/// that has a man to its east or is on the last file; for each file whose first-rank
/// square is empty, the lowest empty square with a man above it or on the last rank; for
/// each file whose last-rank square is empty, the lowest empty square with a man below it
/// or on the first rank; for each rank whose last square is empty, the lowest-file empty
/// square with a man to its west or on the first file.
fn any_side(files: i32, ranks: i32, at: &impl Fn(i32, i32) -> Held) -> Vec<bool> {
    let full = |f: i32, r: i32| at(f, r) != Held::Empty;
    let mut mask = vec![false; (files * ranks) as usize];
    let mut mark = |f: i32, r: i32| mask[(r * files + f) as usize] = true;
    let first = |cells: Vec<(i32, i32)>, cand: &dyn Fn(i32, i32) -> bool| {
        cells.into_iter().find(|&(f, r)| !full(f, r) && cand(f, r))
    };
    for r in 0..ranks {
        if !full(0, r) {
            let cand = |f: i32, r: i32| f == files - 1 || full(f + 1, r);
            if let Some((f, r)) = first((0..files).map(|f| (f, r)).collect(), &cand) {
                mark(f, r);
            }
        }
        if !full(files - 1, r) {
            let cand = |f: i32, r: i32| f == 0 || full(f - 1, r);
            if let Some((f, r)) = first((0..files).map(|f| (f, r)).collect(), &cand) {
                mark(f, r);
            }
        }
    }
    for f in 0..files {
        if !full(f, 0) {
            let cand = |f: i32, r: i32| r == ranks - 1 || full(f, r + 1);
            if let Some((f, r)) = first((0..ranks).map(|r| (f, r)).collect(), &cand) {
                mark(f, r);
            }
        }
        if !full(f, ranks - 1) {
            let cand = |f: i32, r: i32| r == 0 || full(f, r - 1);
            if let Some((f, r)) = first((0..ranks).map(|r| (f, r)).collect(), &cand) {
                mark(f, r);
            }
        }
    }
    mask
}

/// `c` held by `us`, the enemy or nobody, from an occupant's colour.
pub fn held_by(occupant: Option<Colour>, us: Colour) -> Held {
    match occupant {
        None => Held::Empty,
        Some(c) if c == us => Held::Ours,
        Some(_) => Held::Theirs,
    }
}
