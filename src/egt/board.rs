//! The table generator's board: dense square numbers (`rank * files + file`), 256-bit
//! square sets and the board's symmetries (the dihedral maps that carry it onto itself).

use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};

use variants::Coord;

/// Largest board the generator indexes (16x16 and smaller: a square is a byte).
pub const MAX_SQUARES: usize = 256;

/// A set of squares on a board of at most [`MAX_SQUARES`] squares: bit `s` for square `s`,
/// squares 0..128 in the low half. The halves are tested by a branch on the square, not by
/// indexing, so sets stay in registers, and on boards of up to 128 squares the branch always
/// goes the same way. (The row solver keeps its own words of 64 or 128 bits: see `word`.)
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Bits {
    low: u128,
    high: u128,
}

impl Bits {
    /// No square.
    pub const EMPTY: Bits = Bits { low: 0, high: 0 };
    /// Every square (and the bits past the board).
    pub const ALL: Bits = Bits {
        low: u128::MAX,
        high: u128::MAX,
    };

    /// True when square `sq` is in the set.
    #[inline(always)]
    pub fn has(self, sq: u8) -> bool {
        if sq < 128 {
            self.low >> sq & 1 != 0
        } else {
            self.high >> (sq - 128) & 1 != 0
        }
    }

    /// True when the set holds no square.
    #[inline(always)]
    pub fn is_empty(self) -> bool {
        self.low | self.high == 0
    }

    /// True when the set holds some square.
    #[inline(always)]
    pub fn any(self) -> bool {
        !self.is_empty()
    }

    /// True when the sets share a square.
    #[inline(always)]
    pub fn meets(self, other: Bits) -> bool {
        (self & other).any()
    }

    /// The first `n` squares.
    pub fn first(n: usize) -> Bits {
        let ones = |k: usize| match k {
            0 => 0,
            k if k >= 128 => u128::MAX,
            k => u128::MAX >> (128 - k),
        };
        Bits {
            low: ones(n.min(128)),
            high: ones(n.saturating_sub(128)),
        }
    }

    /// The squares of the set, lowest first.
    pub fn squares(self) -> impl Iterator<Item = u8> {
        [(self.low, 0u8), (self.high, 128)]
            .into_iter()
            .flat_map(|(mut w, base)| {
                std::iter::from_fn(move || {
                    (w != 0).then(|| {
                        let s = w.trailing_zeros() as u8;
                        w &= w - 1;
                        base + s
                    })
                })
            })
    }

    /// The number of squares.
    pub fn count(self) -> u32 {
        self.low.count_ones() + self.high.count_ones()
    }

    /// The squares below 128 (the row solver's boards have no others).
    #[inline(always)]
    pub fn low128(self) -> u128 {
        self.low
    }
}

impl BitAnd for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitand(self, o: Bits) -> Bits {
        Bits {
            low: self.low & o.low,
            high: self.high & o.high,
        }
    }
}

impl BitOr for Bits {
    type Output = Bits;
    #[inline(always)]
    fn bitor(self, o: Bits) -> Bits {
        Bits {
            low: self.low | o.low,
            high: self.high | o.high,
        }
    }
}

impl Not for Bits {
    type Output = Bits;
    #[inline(always)]
    fn not(self) -> Bits {
        Bits {
            low: !self.low,
            high: !self.high,
        }
    }
}

impl BitAndAssign for Bits {
    #[inline(always)]
    fn bitand_assign(&mut self, o: Bits) {
        *self = *self & o;
    }
}

impl BitOrAssign for Bits {
    #[inline(always)]
    fn bitor_assign(&mut self, o: Bits) {
        *self = *self | o;
    }
}

impl FromIterator<u8> for Bits {
    fn from_iter<I: IntoIterator<Item = u8>>(squares: I) -> Bits {
        squares.into_iter().fold(Bits::EMPTY, |acc, s| acc | bit(s))
    }
}

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
    /// `near[sq]`: the (up to eight) squares next to `sq`, where a burner landing on `sq`
    /// burns.
    pub near: Vec<Bits>,
    /// `product[a][b]`: the map `a` after `b` (the maps form a group).
    product: Vec<Vec<u8>>,
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
            near: Vec::new(),
            product: Vec::new(),
        };
        b.near = (0..n)
            .map(|sq| {
                let (f, r) = ((sq % files as usize) as i32, (sq / files as usize) as i32);
                let around = (-1..=1).flat_map(|df| (-1..=1).map(move |dr| (df, dr)));
                around
                    .filter(|&d| d != (0, 0))
                    .filter_map(|(df, dr)| b.at(f + df, r + dr))
                    .collect()
            })
            .collect();
        for &(transpose, mf, mr) in &MAPS {
            if transpose && files != ranks {
                continue;
            }
            let map = (0..n)
                .map(|sq| {
                    let sq = sq as u8;
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
        let k = b.maps.len();
        b.product = (0..k)
            .map(|x| {
                (0..k)
                    .map(|y| {
                        let after = |s: usize| b.maps[x][b.maps[y][s] as usize];
                        (0..k).find(|&z| (0..n).all(|s| b.maps[z][s] == after(s)))
                    })
                    .map(|z| z.unwrap_or(0) as u8)
                    .collect()
            })
            .collect();
        Some(b)
    }

    /// The maps `keeps` holds for, as bits (bit `k` for map `k`), where the maps it holds
    /// for are a subgroup (as those that leave a piece's moves unchanged are): each answer
    /// decides the maps it implies (the product of two kept maps is kept; of a kept and a
    /// lost one, lost), so a piece kept by every map is asked two or three times, not seven.
    pub fn subgroup(&self, mut keeps: impl FnMut(usize) -> bool) -> u8 {
        let k = self.maps.len();
        let (mut kept, mut lost) = (1u8, 0u8);
        // The transpose early: with a file mirror it makes the whole group.
        let order = [1, 4, 2, 3, 5, 6, 7].into_iter().filter(|&m| m < k);
        for m in order {
            if (kept | lost) & (1 << m) != 0 {
                continue;
            }
            if keeps(m) {
                kept |= 1 << m;
            } else {
                lost |= 1 << m;
            }
            // Closed under products: a few rounds over at most eight maps.
            loop {
                let before = (kept, lost);
                for x in 0..k {
                    if kept & (1 << x) == 0 {
                        continue;
                    }
                    for y in 0..k {
                        let (xy, yx) = (self.product[x][y], self.product[y][x]);
                        if kept & (1 << y) != 0 {
                            kept |= 1 << xy;
                        } else if lost & (1 << y) != 0 {
                            lost |= (1 << xy) | (1 << yx);
                        }
                    }
                }
                if (kept, lost) == before {
                    break;
                }
            }
        }
        kept
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

    /// The squares a move from `a` to `b` passes on a straight or diagonal line (none for a
    /// step or a leap): where a man that passed may be taken en passant.
    pub fn passed(&self, a: u8, b: u8) -> impl Iterator<Item = u8> + '_ {
        let (fa, ra) = ((a % self.files) as i32, (a / self.files) as i32);
        let (df, dr) = ((b % self.files) as i32 - fa, (b / self.files) as i32 - ra);
        let n = df.abs().max(dr.abs());
        let line = n >= 2 && (df == 0 || dr == 0 || df.abs() == dr.abs());
        let (sf, sr) = if line { (df / n, dr / n) } else { (0, 0) };
        (1..if line { n } else { 1 }).filter_map(move |k| self.at(fa + sf * k, ra + sr * k))
    }

    /// The image of a square set under map `k`.
    pub fn map_bits(&self, k: usize, bits: Bits) -> Bits {
        bits.squares().map(|sq| self.maps[k][sq as usize]).collect()
    }
}

/// The set holding one square.
#[inline(always)]
pub fn bit(sq: u8) -> Bits {
    if sq < 128 {
        Bits {
            low: 1 << sq,
            high: 0,
        }
    } else {
        Bits {
            low: 0,
            high: 1 << (sq - 128),
        }
    }
}
