//! Table indexing: one factor per man over the squares that man can stand on, the first man
//! (White's royal) over one square of each orbit of the board symmetries the material allows,
//! so that a position and its mirror images share one entry.

use super::board::{bit, Bits, Board};

/// Local index of a square outside a man's domain.
const OUTSIDE: u16 = u16::MAX;

/// Maps positions (one square per man, in material order) to table indices and back.
#[derive(Clone, Debug)]
pub struct Indexer {
    /// The symmetry maps in use (`maps[0]` the identity), as board-square permutations.
    pub maps: Vec<Vec<u8>>,
    /// For each square of the first man: which map brings it into the fundamental region.
    canon: Vec<u8>,
    /// Per man: board square to local index.
    local: Vec<Vec<u16>>,
    /// Per man: local index to board square.
    squares: Vec<Vec<u8>>,
    /// Per square of the first man's region: the maps other than the identity that keep it in
    /// place (a position and these images of it are all stored).
    stab: Vec<Vec<u8>>,
    /// Per man: the index distance between neighbouring squares of its factor.
    stride: Vec<usize>,
    /// Per map other than the identity: the squares it keeps in place.
    fixed: Vec<Bits>,
    /// The maps other than the identity that keep some square in place: (those squares, the
    /// map's index, its inverse's index).
    fixing: Vec<(Bits, u8, u8)>,
    /// Per board square: how many indices store a position whose first man moved there (its
    /// images), when no other map keeps the position in place (see [`Indexer::may_repeat`]).
    first_images: Vec<u8>,
    /// Per board square: the size of its orbit under the maps.
    orbit: Vec<u8>,
    /// Per board square: the maps other than the identity that keep it in place.
    fixers: Vec<Vec<u8>>,
    /// Number of entries per side to move.
    pub size: usize,
}

impl Indexer {
    /// An indexer for men with the given domains (board-square lists), under the board maps
    /// selected by `group` (bit `k` = `board.maps[k]`; bit 0 must be set).
    pub fn new(board: &Board, domains: &[Vec<u8>], group: u8) -> Indexer {
        let maps: Vec<Vec<u8>> = (0..board.maps.len())
            .filter(|k| group & (1 << k) != 0)
            .map(|k| board.maps[k].clone())
            .collect();
        let mut canon = vec![0u8; board.n];
        for (sq, c) in canon.iter_mut().enumerate() {
            let mut best = sq as u8;
            for (k, m) in maps.iter().enumerate() {
                if m[sq] < best {
                    best = m[sq];
                    *c = k as u8;
                }
            }
        }
        let mut squares: Vec<Vec<u8>> = domains.to_vec();
        if let Some(first) = squares.first_mut() {
            first.retain(|&s| canon[s as usize] == 0);
        }
        let local = squares
            .iter()
            .map(|list| {
                let mut l = vec![OUTSIDE; board.n];
                for (i, &s) in list.iter().enumerate() {
                    l[s as usize] = i as u16;
                }
                l
            })
            .collect();
        let size = squares.iter().map(Vec::len).product();
        let stab: Vec<Vec<u8>> = (0..board.n)
            .map(|sq| {
                (1..maps.len())
                    .filter(|&k| canon[sq] == 0 && maps[k][sq] as usize == sq)
                    .map(|k| k as u8)
                    .collect()
            })
            .collect();
        let mut stride = vec![1usize; squares.len()];
        for i in (0..squares.len().saturating_sub(1)).rev() {
            stride[i] = stride[i + 1] * squares[i + 1].len();
        }
        let fixed: Vec<Bits> = maps
            .iter()
            .skip(1)
            .map(|m| {
                (0..board.n)
                    .filter(|&sq| m[sq] as usize == sq)
                    .fold(0, |acc, sq| acc | bit(sq as u8))
            })
            .collect();
        let first_images = (0..board.n)
            .map(|sq| {
                let c = maps[canon[sq] as usize][sq] as usize;
                1 + stab[c].len() as u8
            })
            .collect();
        let orbit = (0..board.n)
            .map(|sq| {
                let mut seen: Vec<u8> = maps.iter().map(|m| m[sq]).collect();
                seen.sort_unstable();
                seen.dedup();
                seen.len() as u8
            })
            .collect();
        let fixers = (0..board.n)
            .map(|sq| {
                (1..maps.len())
                    .filter(|&k| maps[k][sq] as usize == sq)
                    .map(|k| k as u8)
                    .collect()
            })
            .collect();
        let inverse = |k: usize| {
            let map = &maps[k];
            let undoes = |u: &Vec<u8>| (0..map.len()).all(|s| u[map[s] as usize] as usize == s);
            maps.iter().position(undoes).unwrap_or(0) as u8
        };
        let fixing = fixed
            .iter()
            .enumerate()
            .filter(|(_, &f)| f != 0)
            .map(|(k, &f)| (f, k as u8 + 1, inverse(k + 1)))
            .collect();
        Indexer {
            fixing,
            orbit,
            fixers,
            maps,
            canon,
            local,
            squares,
            stab,
            stride,
            fixed,
            first_images,
            size,
        }
    }

    /// The index of a position, or `None` when a man stands outside its domain.
    #[inline]
    pub fn encode(&self, sq: &[u8]) -> Option<usize> {
        self.encode_mapped(sq, self.canon[sq[0] as usize] as usize)
    }

    /// The index after man `i` of the canonical position at `idx` moves from `from` to `to`:
    /// one factor changes, the symmetry map stays the identity. `None` when the first man
    /// would leave the fundamental region, or for a square outside the man's domain.
    #[inline]
    pub fn step(&self, idx: usize, i: usize, from: u8, to: u8) -> Option<usize> {
        if i == 0 && self.canon[to as usize] != 0 {
            return None;
        }
        let lt = self.local[i][to as usize];
        if lt == OUTSIDE {
            return None;
        }
        let lf = self.local[i][from as usize] as usize;
        Some(idx - lf * self.stride[i] + lt as usize * self.stride[i])
    }

    /// True when more than one stored index holds positions whose first man stands on `sq`
    /// (a square of the fundamental region that some map keeps in place).
    #[inline]
    pub fn shared(&self, sq: u8) -> bool {
        !self.stab[sq as usize].is_empty()
    }

    /// False when no two positions one move away from `sq` (before or after a move of one
    /// man) can share an index: that needs a map other than the identity keeping all men but
    /// the two movers in place. When true, lists of neighbouring indices may repeat one.
    #[inline]
    pub fn may_repeat(&self, sq: &[u8]) -> bool {
        if self.fixed.is_empty() {
            return false;
        }
        if sq.len() <= 2 {
            return true;
        }
        let occ = sq.iter().fold(0, |acc: Bits, &s| acc | bit(s));
        self.fixed
            .iter()
            .any(|&f| (occ & f).count_ones() as usize + 2 >= sq.len())
    }

    /// The number of indices storing a position after the first man moves to `sq`, when the
    /// position before the move has no repeating neighbours ([`Indexer::may_repeat`]).
    #[inline]
    pub fn first_images(&self, sq: u8) -> usize {
        self.first_images[sq as usize] as usize
    }

    /// Per map other than the identity that keeps some square in place: those squares, the
    /// map, and the map undoing it.
    #[inline]
    pub fn fixed_maps(&self) -> impl Iterator<Item = (Bits, &[u8], &[u8])> {
        self.fixing.iter().map(|&(f, k, u)| {
            (
                f,
                self.maps[k as usize].as_slice(),
                self.maps[u as usize].as_slice(),
            )
        })
    }

    /// Calls `f` with `idx` and every other index storing the same position (its images,
    /// when the first man stands on a square some map keeps in place).
    #[inline]
    pub fn images(&self, idx: usize, mut f: impl FnMut(usize)) {
        let first = self.squares[0][idx / self.stride[0]];
        if !self.shared(first) {
            f(idx);
            return;
        }
        let mut sq = [0u8; super::material::MAX_MEN];
        let m = self.squares.len();
        self.decode(idx, &mut sq[..m]);
        self.encode_all(&sq[..m], f);
    }

    /// Calls `f` with every index storing the position: its canonical form and, when the
    /// first man stands on a square some map keeps in place, the images under those maps.
    #[inline]
    pub fn encode_all(&self, sq: &[u8], mut f: impl FnMut(usize)) {
        let Some(idx) = self.encode(sq) else {
            return;
        };
        f(idx);
        let map = &self.maps[self.canon[sq[0] as usize] as usize];
        let first = map[sq[0] as usize] as usize;
        if self.stab[first].is_empty() {
            return;
        }
        let mut canon = [0u8; super::material::MAX_MEN];
        for (c, &s) in canon.iter_mut().zip(sq) {
            *c = map[s as usize];
        }
        for &k in &self.stab[first] {
            if let Some(other) = self.encode_mapped(&canon[..sq.len()], k as usize) {
                if other != idx {
                    f(other);
                }
            }
        }
    }

    /// The index of a position under map `k` (0: a position already in canonical form).
    #[inline]
    pub fn encode_mapped(&self, sq: &[u8], k: usize) -> Option<usize> {
        let map = &self.maps[k];
        let mut idx = 0usize;
        for (i, &s) in sq.iter().enumerate() {
            let l = self.local[i][map[s as usize] as usize];
            if l == OUTSIDE {
                return None;
            }
            idx = idx * self.squares[i].len() + l as usize;
        }
        Some(idx)
    }

    /// The squares of the position at `idx` (in material order) into `out`.
    #[inline]
    pub fn decode(&self, mut idx: usize, out: &mut [u8]) {
        for i in (0..self.squares.len()).rev() {
            let n = self.squares[i].len();
            out[i] = self.squares[i][idx % n];
            idx /= n;
        }
    }

    /// Turns the squares of the position at some index into those at the next index (the
    /// squares of index 0 after the last): an odometer, cheaper than [`Indexer::decode`].
    #[inline]
    pub fn advance(&self, sq: &mut [u8]) {
        for i in (0..sq.len()).rev() {
            let d = self.local[i][sq[i] as usize] as usize + 1;
            if d < self.squares[i].len() {
                sq[i] = self.squares[i][d];
                return;
            }
            sq[i] = self.squares[i][0];
        }
    }

    /// The map that brings a first man standing on `sq` into the fundamental region.
    #[inline]
    pub fn canon_of(&self, sq: u8) -> usize {
        self.canon[sq as usize] as usize
    }

    /// The squares man `i` may stand on, by local index (its factor of the index).
    #[inline]
    pub fn domain(&self, i: usize) -> &[u8] {
        &self.squares[i]
    }

    /// The local index of `sq` in man `i`'s factor, if `sq` is in its domain.
    #[inline]
    pub fn local_of(&self, i: usize, sq: u8) -> Option<usize> {
        let l = self.local[i][sq as usize];
        (l != OUTSIDE).then_some(l as usize)
    }

    /// Number of board squares the first man's square stands for (its orbit under the maps).
    #[inline]
    pub fn orbit_len(&self, sq: u8) -> usize {
        self.orbit[sq as usize] as usize
    }

    /// The maps other than the identity that leave `sq` in place.
    #[inline]
    pub fn stabilizer(&self, sq: u8) -> &[u8] {
        &self.fixers[sq as usize]
    }
}
