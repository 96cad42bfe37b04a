//! The table generator's board: dense square numbers (`rank * files + file`), 128-bit
//! occupancy sets and the board's symmetries (the dihedral maps that carry it onto itself).

use variants::Coord;

/// A set of squares on a board of at most [`MAX_SQUARES`] squares.
pub type Bits = u128;

/// Largest board the generator indexes (12x10, 11x11 and smaller).
pub const MAX_SQUARES: usize = 128;

/// The most symmetry maps a board has.
pub const MAX_MAPS: usize = 8;

/// The eight maps of the square onto itself, as (transpose, mirror files, mirror ranks).
const MAPS: [(bool, bool, bool); MAX_MAPS] = [
    (false, false, false),
    (false, true, false),
    (false, false, true),
    (false, true, true),
    (true, false, false),
    (true, true, false),
    (true, false, true),
    (true, true, true),
];

/// Board size and the square maps that carry the board onto itself.
#[derive(Clone, Debug)]
pub struct Board {
    /// Files.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Number of squares.
    pub n: usize,
    /// `maps[k][sq]`: where map `k` sends `sq`; `maps[0]` is the identity. Only maps valid for
    /// the board's shape are listed (no transposes on a rectangle).
    pub maps: Vec<Vec<u8>>,
}

impl Board {
    /// The board of `files` x `ranks`, or `None` when it has more than [`MAX_SQUARES`] squares.
    pub fn new(files: u8, ranks: u8) -> Option<Board> {
        let n = files as usize * ranks as usize;
        if n > MAX_SQUARES {
            return None;
        }
        let mut b = Board {
            files,
            ranks,
            n,
            maps: Vec::new(),
        };
        for &(transpose, mf, mr) in &MAPS {
            if transpose && files != ranks {
                continue;
            }
            let map = (0..n as u8)
                .map(|sq| {
                    let (mut f, mut r) = (sq % files, sq / files);
                    if transpose {
                        std::mem::swap(&mut f, &mut r);
                    }
                    if mf {
                        f = files - 1 - f;
                    }
                    if mr {
                        r = ranks - 1 - r;
                    }
                    r * files + f
                })
                .collect();
            b.maps.push(map);
        }
        Some(b)
    }

    /// The dense square of a coordinate.
    pub fn sq(&self, c: Coord) -> u8 {
        c.rank * self.files + c.file
    }

    /// The coordinate of a dense square.
    pub fn coord(&self, sq: u8) -> Coord {
        Coord::new(sq % self.files, sq / self.files)
    }

    /// The dense square at (file, rank), if on the board.
    pub fn at(&self, f: i32, r: i32) -> Option<u8> {
        (f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32)
            .then(|| (r * self.files as i32 + f) as u8)
    }

    /// The image of a square set under map `k`.
    pub fn map_bits(&self, k: usize, bits: Bits) -> Bits {
        let mut out = 0;
        let mut rest = bits;
        while rest != 0 {
            let sq = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= bit(self.maps[k][sq]);
        }
        out
    }
}

/// The set holding one square.
#[inline]
pub fn bit(sq: u8) -> Bits {
    1u128 << sq
}
