//! Fairy-Stockfish's `enclosingDrop` rules that narrow where a drop may go (`top`, `snort`,
//! `anyside`, `reversi`, `ataxx`), as a mask of the squares they allow, from the board's
//! occupancy alone, and the men a landing flips (`flipEnclosedPieces`). The engine's
//! `drops.rs` and `make.rs` and the reference's `reference_drops.rs` ask these functions with
//! their own boards; the rule's other drop restrictions stay theirs.

use variants::geometry::SquareSet;
use variants::rules::{EnclosingDrop, Flip};
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
    /// A wall (`*`): no man, and no square a man may go to.
    Wall,
}

/// The eight directions of a king's step.
const KING_STEPS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The squares the rule allows a drop on (indexed `rank * files + file`), or `None` when
/// it allows every square (no rule). `held(c)` reads the board for the side to drop.
pub fn allowed(
    rule: EnclosingDrop,
    files: u8,
    ranks: u8,
    held: impl Fn(Coord) -> Held,
) -> Option<Vec<bool>> {
    let (fi, ri) = (files as i32, ranks as i32);
    let on_board = move |f: i32, r: i32| (0..fi).contains(&f) && (0..ri).contains(&r);
    let at = |f: i32, r: i32| -> Held {
        if on_board(f, r) {
            held(Coord::new(f as u8, r as u8))
        } else {
            Held::Empty
        }
    };
    // The rules other than `reversi` see a wall as FSF's occupancy does: no man.
    let man = |f: i32, r: i32| matches!(at(f, r), Held::Ours | Held::Theirs);
    let squares = (0..ri).flat_map(|r| (0..fi).map(move |f| (f, r)));
    let mask = match rule {
        EnclosingDrop::None => return None,
        EnclosingDrop::Top => squares.map(|(f, r)| r == 0 || man(f, r - 1)).collect(),
        EnclosingDrop::Ataxx => squares
            .map(|(f, r)| (KING_STEPS.iter()).any(|&(df, dr)| at(f + df, r + dr) == Held::Ours))
            .collect(),
        EnclosingDrop::Reversi => squares
            .map(|(f, r)| encloses(&at, &on_board, f, r))
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

/// `reversi`'s drop test, FSF's reading: the square is next to an enemy man, and on some
/// line from it the first square that holds neither an enemy man nor a wall holds a man of
/// ours, two or more steps away. (Walls are stepped over here, as FSF's drop filter does,
/// though they stop a flipped line: such a drop may flip less than the line it was allowed
/// by, or nothing.)
fn encloses(
    at: &impl Fn(i32, i32) -> Held,
    on_board: &impl Fn(i32, i32) -> bool,
    f: i32,
    r: i32,
) -> bool {
    let near_enemy = (KING_STEPS.iter()).any(|&(df, dr)| at(f + df, r + dr) == Held::Theirs);
    near_enemy
        && KING_STEPS.iter().any(|&(df, dr)| {
            let mut k = 1;
            while on_board(f + k * df, r + k * dr)
                && matches!(at(f + k * df, r + k * dr), Held::Theirs | Held::Wall)
            {
                k += 1;
            }
            k >= 2 && at(f + k * df, r + k * dr) == Held::Ours
        })
}

/// The enemy men that change colour when a man of ours lands on `to` (the move made: the
/// board shows it there, and a jump's start square empty). `dropped`: the man came from
/// the hand.
pub fn flipped(
    rule: Flip,
    files: u8,
    ranks: u8,
    to: Coord,
    dropped: bool,
    held: impl Fn(Coord) -> Held,
) -> Vec<Coord> {
    let (fi, ri) = (files as i32, ranks as i32);
    let at = |f: i32, r: i32| -> Held {
        if (0..fi).contains(&f) && (0..ri).contains(&r) {
            held(Coord::new(f as u8, r as u8))
        } else {
            Held::Empty
        }
    };
    let (f, r) = (to.file as i32, to.rank as i32);
    let coord = |f: i32, r: i32| Coord::new(f as u8, r as u8);
    let neighbours = |want: Held| {
        (KING_STEPS.iter())
            .map(|&(df, dr)| (f + df, r + dr))
            .filter(move |&(nf, nr)| at(nf, nr) == want)
    };
    match rule {
        Flip::None => Vec::new(),
        Flip::Quadwrangle if dropped && neighbours(Held::Ours).next().is_none() => Vec::new(),
        Flip::Ataxx | Flip::Quadwrangle => neighbours(Held::Theirs)
            .map(|(nf, nr)| coord(nf, nr))
            .collect(),
        Flip::Reversi => {
            let mut out = Vec::new();
            for &(df, dr) in &KING_STEPS {
                let mut k = 1;
                while at(f + k * df, r + k * dr) == Held::Theirs {
                    k += 1;
                }
                if k >= 2 && at(f + k * df, r + k * dr) == Held::Ours {
                    out.extend((1..k).map(|i| coord(f + i * df, r + i * dr)));
                }
            }
            out
        }
    }
}

/// FSF's `anyside`: for each rank whose first square is empty, the lowest-file empty square
/// that has a man to its east or is on the last file; for each file whose first-rank
/// square is empty, the lowest empty square with a man above it or on the last rank; for
/// each file whose last-rank square is empty, the lowest empty square with a man below it
/// or on the first rank; for each rank whose last square is empty, the lowest-file empty
/// square with a man to its west or on the first file.
fn any_side(files: i32, ranks: i32, at: &impl Fn(i32, i32) -> Held) -> Vec<bool> {
    let full = |f: i32, r: i32| matches!(at(f, r), Held::Ours | Held::Theirs);
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

/// `enclosingDropStart`: while one of the `start` squares is empty, the squares a drop may
/// go to are those alone (`None`: the opening is over, or the variant has none).
pub fn opening(
    start: &SquareSet,
    files: u8,
    ranks: u8,
    held: impl Fn(Coord) -> Held,
) -> Option<Vec<bool>> {
    if !start.iter().any(|c| held(c) == Held::Empty) {
        return None;
    }
    let mut mask = vec![false; files as usize * ranks as usize];
    for c in start.iter() {
        mask[c.rank as usize * files as usize + c.file as usize] = true;
    }
    Some(mask)
}

/// `c` held by `us`, the enemy or nobody, from an occupant's colour.
pub fn held_by(occupant: Option<Colour>, us: Colour) -> Held {
    match occupant {
        None => Held::Empty,
        Some(c) if c == us => Held::Ours,
        Some(_) => Held::Theirs,
    }
}
