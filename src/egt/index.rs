//! Table indexing: one factor per man over the squares that man can stand on, the first man
//! (White's royal) over one square of each orbit of the board symmetries the material allows,
//! so that a position and its mirror images share one entry; alike men (a run of the same
//! piece of one side, neither the first man nor the last) share one factor over the sets of
//! distinct squares they can stand on, so that swapping them gives the same entry.

use super::board::{Bits, Board, MAX_MAPS};
use super::material::MAX_MEN;

/// Local index of a square outside a man's domain.
const OUTSIDE: u16 = u16::MAX;

/// One factor of the index: one man, or a run of alike men ranked as a set of squares.
#[derive(Clone, Debug)]
struct Factor {
    /// The first man it covers.
    first: usize,
    /// The number of men it covers (consecutive in material order).
    men: usize,
    /// Its number of values.
    size: usize,
    /// For a run of alike men: per rank, the men's local indices, ascending (`men` each).
    unrank: Vec<u8>,
    /// For a pair: the rank of local indices `a`, `b` at `a * n + b` (`NO_RANK` when equal),
    /// one load instead of a sort.
    pair: Vec<u32>,
}

/// A pair's rank for two men on one square.
const NO_RANK: u32 = u32::MAX;

/// `C(n, k)` for every `n` up to a board's squares and `k` up to `MAX_MEN`.
fn binomials(n: usize) -> Vec<[usize; MAX_MEN + 1]> {
    let mut c = vec![[0usize; MAX_MEN + 1]; n + 1];
    c[0][0] = 1;
    for i in 1..=n {
        c[i][0] = 1;
        for k in 1..=MAX_MEN {
            c[i][k] = c[i - 1][k - 1] + c[i - 1][k];
        }
    }
    c
}

/// A position's index with one man's square left open, to be completed for many squares of
/// that man (see [`Indexer::partial`]): a conversion looks up the sub-table position of each
/// entry of a row, and only one man differs between them.
#[derive(Clone, Copy, Debug)]
pub struct Partial<'a> {
    /// The map that brings the first man into the fundamental region.
    map: &'a [u8],
    /// The open man's local index by board square.
    local: &'a [u16],
    /// The open man's stride.
    stride: usize,
    /// The other men's share of the index.
    base: usize,
    /// When the open man is the first: its square picks the map, and per map the other
    /// men's share (`usize::MAX` where one stands outside its domain).
    first: Option<(&'a Indexer, [usize; MAX_MAPS])>,
}

impl<'a> Partial<'a> {
    /// When the open man is not the first (no map to pick per square): its local index by
    /// board square (after the position's map), that map, its stride and the other men's
    /// share, for a caller that completes many squares in a loop of its own.
    #[inline]
    pub fn plain(&self) -> Option<(&'a [u8], &'a [u16], usize, usize)> {
        self.first
            .is_none()
            .then_some((self.map, self.local, self.stride, self.base))
    }

    /// The local index of a square that [`Partial::plain`]'s table says is outside the
    /// open man's domain.
    pub const OUTSIDE: u16 = OUTSIDE;

    /// The index with the open man on `sq`: what [`Indexer::encode`] gives for the whole
    /// position.
    #[inline]
    pub fn complete(&self, sq: u8) -> Option<usize> {
        if let Some((ix, bases)) = &self.first {
            let k = ix.canon[sq as usize] as usize;
            let l = self.local[ix.maps[k][sq as usize] as usize];
            let base = bases[k];
            return (l != OUTSIDE && base != usize::MAX).then(|| base + l as usize * self.stride);
        }
        let l = self.local[self.map[sq as usize] as usize];
        (l != OUTSIDE).then(|| self.base + l as usize * self.stride)
    }
}

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
    /// Per man: the index distance between neighbouring values of its factor.
    stride: Vec<usize>,
    /// The factors, first (slowest) to last.
    factors: Vec<Factor>,
    /// Per man: its factor.
    factor_of: Vec<usize>,
    /// `C(n, k)` (see [`binomials`]).
    binom: Vec<[usize; MAX_MEN + 1]>,
    /// True when some men share a factor; false keeps the plain per-man loops (the factor
    /// loops cost more instructions where no man shares one).
    grouped: bool,
    /// The placements with men told apart that each entry stands for.
    orderings: usize,
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

/// The factors of an index over men with these domains: one per man, but one per run of
/// alike men (equal kinds and domains, neither the first man nor the last) when `kinds` is
/// given. The last man stays alone: the row solver takes its factor as a row.
fn factors(
    squares: &[Vec<u8>],
    kinds: Option<&[u32]>,
    binom: &[[usize; MAX_MEN + 1]],
) -> Vec<Factor> {
    let m = squares.len();
    let mut out = Vec::new();
    let mut i = 0;
    while i < m {
        let mut men = 1;
        if let Some(kinds) = kinds.filter(|_| i > 0) {
            while i + men + 1 < m && kinds[i + men] == kinds[i] && squares[i + men] == squares[i] {
                men += 1;
            }
        }
        let n = squares[i].len();
        let (size, unrank) = if men == 1 {
            (n, Vec::new())
        } else {
            (binom[n][men], sets(n, men))
        };
        let pair = if men == 2 {
            pairs(n, binom)
        } else {
            Vec::new()
        };
        out.push(Factor {
            first: i,
            men,
            size,
            unrank,
            pair,
        });
        i += men;
    }
    out
}

/// The ranks of ordered pairs of local indices below `n` (see [`Factor::pair`]).
fn pairs(n: usize, binom: &[[usize; MAX_MEN + 1]]) -> Vec<u32> {
    let mut out = vec![NO_RANK; n * n];
    for a in 0..n {
        for b in 0..n {
            let (lo, hi) = (a.min(b), a.max(b));
            if lo != hi {
                out[a * n + b] = (binom[lo][1] + binom[hi][2]) as u32;
            }
        }
    }
    out
}

/// Every set of `k` distinct local indices below `n`, each as its `k` members ascending, in
/// the order of their ranks (colex: the rank of `l_0 < ... < l_(k-1)` is the sum of
/// `C(l_j, j + 1)`, the combinatorial number system).
fn sets(n: usize, k: usize) -> Vec<u8> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.extend(c.iter().map(|&l| l as u8));
        // The next set: raise the lowest member that can rise, reset those below it.
        let Some(j) = (0..k).find(|&j| c[j] + 1 < if j + 1 < k { c[j + 1] } else { n }) else {
            return out;
        };
        c[j] += 1;
        for (t, x) in c.iter_mut().enumerate().take(j) {
            *x = t;
        }
    }
}

impl Indexer {
    /// An indexer for men with the given domains (board-square lists) and kinds (men of one
    /// kind are interchangeable: same side and piece), under the board maps selected by
    /// `group` (bit `k` = `board.maps[k]`; bit 0 must be set). Runs of alike men other than
    /// the first and the last man share one factor (`kinds`: `None` keeps one per man).
    pub fn new(board: &Board, domains: &[Vec<u8>], kinds: Option<&[u32]>, group: u8) -> Indexer {
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
        let binom = binomials(board.n);
        let factors = factors(&squares, kinds, &binom);
        let size = factors.iter().map(|f| f.size).product();
        let grouped = factors.len() < squares.len();
        let orderings = factors
            .iter()
            .map(|f| (1..=f.men).product::<usize>())
            .product();
        let stab: Vec<Vec<u8>> = (0..board.n)
            .map(|sq| {
                (1..maps.len())
                    .filter(|&k| canon[sq] == 0 && maps[k][sq] as usize == sq)
                    .map(|k| k as u8)
                    .collect()
            })
            .collect();
        let mut factor_of = vec![0usize; squares.len()];
        let mut stride = vec![1usize; squares.len()];
        let mut below = 1usize;
        for (k, f) in factors.iter().enumerate().rev() {
            for i in f.first..f.first + f.men {
                factor_of[i] = k;
                stride[i] = below;
            }
            below *= f.size;
        }
        let fixed: Vec<Bits> = maps
            .iter()
            .skip(1)
            .map(|m| {
                (0..board.n)
                    .filter(|&sq| m[sq] as usize == sq)
                    .map(|sq| sq as u8)
                    .collect()
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
            .filter(|(_, f)| f.any())
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
            factors,
            factor_of,
            grouped,
            orderings,
            binom,
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

    /// The index of the position `sq` with man `v` left open (its square in `sq` is ignored).
    /// `None` when it cannot be done by one addition per square: the open man shares its
    /// factor with alike men; and when another man stands outside its domain, or alike men
    /// share a square (`encode` fails for every square of the open man). When the open man
    /// is the first, its square picks the symmetry map: the others' share is made once per
    /// map.
    #[inline]
    pub fn partial(&self, sq: &[u8], v: usize) -> Option<Partial<'_>> {
        if self.alike(v) {
            return None;
        }
        if v == 0 {
            return Some(self.partial_first(sq));
        }
        let map = &self.maps[self.canon[sq[0] as usize] as usize];
        let base = self.share(map, sq, v)?;
        Some(Partial {
            map,
            local: &self.local[v],
            stride: self.stride[v],
            base,
            first: None,
        })
    }

    /// The index share of every man but `open` under `map`; `None` when one stands outside
    /// its domain.
    #[inline]
    fn share(&self, map: &[u8], sq: &[u8], open: usize) -> Option<usize> {
        if self.grouped {
            return self.share_sets(map, sq, open);
        }
        let mut sum = 0;
        for (i, &s) in sq.iter().enumerate().filter(|&(i, _)| i != open) {
            let l = self.local[i][map[s as usize] as usize];
            if l == OUTSIDE {
                return None;
            }
            sum += l as usize * self.stride[i];
        }
        Some(sum)
    }

    /// [`Indexer::share`] with alike men: a share per factor but the open man's (alone in
    /// its factor), a run's share by the rank of its set.
    fn share_sets(&self, map: &[u8], sq: &[u8], open: usize) -> Option<usize> {
        let mut sum = 0;
        for f in self.factors.iter().filter(|f| f.first != open) {
            let i = f.first;
            let mut l = [0usize; MAX_MEN];
            for (d, &s) in l.iter_mut().zip(&sq[i..i + f.men]) {
                *d = self.local[i][map[s as usize] as usize] as usize;
            }
            let v = if f.men == 1 {
                (l[0] != OUTSIDE as usize).then_some(l[0])?
            } else {
                self.rank(f, &mut l[..f.men])?
            };
            sum += v * self.stride[i];
        }
        Some(sum)
    }

    /// [`Indexer::partial`] with the first man open.
    fn partial_first(&self, sq: &[u8]) -> Partial<'_> {
        let mut bases = [usize::MAX; MAX_MAPS];
        for (base, map) in bases.iter_mut().zip(&self.maps) {
            *base = self.share(map, sq, 0).unwrap_or(usize::MAX);
        }
        Partial {
            map: &self.maps[0],
            local: &self.local[0],
            stride: self.stride[0],
            base: 0,
            first: Some((self, bases)),
        }
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
        let st = self.stride[i];
        let f = &self.factors[self.factor_of[i]];
        if f.men == 1 {
            return Some(idx - lf * st + lt as usize * st);
        }
        // Alike men: the set loses `from` and gains `to`, and is ranked again.
        let v = (idx / st) % f.size;
        let mut l = [0usize; MAX_MEN];
        for (d, &x) in l.iter_mut().zip(&f.unrank[v * f.men..(v + 1) * f.men]) {
            *d = if x as usize == lf {
                lt as usize
            } else {
                x as usize
            };
        }
        let w = self.rank(f, &mut l[..f.men])?;
        Some(idx - v * st + w * st)
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
        // A map may also keep a position by swapping alike men: not worth telling apart.
        if sq.len() <= 2 || self.grouped() {
            return true;
        }
        let occ: Bits = sq.iter().copied().collect();
        self.fixed
            .iter()
            .any(|&f| (occ & f).count() as usize + 2 >= sq.len())
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
        let mut sq = [0u8; MAX_MEN];
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
        let mut canon = [0u8; MAX_MEN];
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

    /// The index of a position under map `k` (0: a position already in canonical form). With
    /// the squares of the first men only, the index of their factors alone (a row number
    /// when the last man is left out).
    #[inline]
    pub fn encode_mapped(&self, sq: &[u8], k: usize) -> Option<usize> {
        if self.grouped {
            self.encode_sets(sq, k)
        } else {
            self.ordered_rank(sq, k)
        }
    }

    /// [`Indexer::encode_mapped`] with alike men: a factor per run. Apart, so that the plain
    /// case stays small enough to inline.
    #[inline(never)]
    fn encode_sets(&self, sq: &[u8], k: usize) -> Option<usize> {
        let map = &self.maps[k];
        let mut idx = 0usize;
        for f in self
            .factors
            .iter()
            .take_while(|f| f.first + f.men <= sq.len())
        {
            let i = f.first;
            let v = if f.men == 1 {
                let l = self.local[i][map[sq[i] as usize] as usize];
                if l == OUTSIDE {
                    return None;
                }
                l as usize
            } else {
                let mut l = [0usize; MAX_MEN];
                for (d, &s) in l.iter_mut().zip(&sq[i..i + f.men]) {
                    *d = self.local[i][map[s as usize] as usize] as usize;
                }
                self.rank(f, &mut l[..f.men])?
            };
            idx = idx * f.size + v;
        }
        Some(idx)
    }

    /// The rank of factor `f`'s set of local indices (any order; may be sorted in place),
    /// `None` when two are equal or one is outside the domain.
    #[inline]
    fn rank(&self, f: &Factor, l: &mut [usize]) -> Option<usize> {
        if f.men != 2 {
            return self.set_rank(l);
        }
        let n = self.squares[f.first].len();
        if l[0] >= n || l[1] >= n {
            return None;
        }
        let r = f.pair[l[0] * n + l[1]];
        (r != NO_RANK).then_some(r as usize)
    }

    /// The rank of a set of local indices (any order; sorted in place), `None` when two are
    /// equal or one is outside the domain.
    #[inline]
    fn set_rank(&self, l: &mut [usize]) -> Option<usize> {
        // Insertion sort: a run of alike men is short.
        for j in 1..l.len() {
            let mut t = j;
            while t > 0 && l[t - 1] > l[t] {
                l.swap(t - 1, t);
                t -= 1;
            }
        }
        let mut r = 0;
        for j in 0..l.len() {
            if l[j] == OUTSIDE as usize || (j > 0 && l[j - 1] == l[j]) {
                return None;
            }
            r += self.binom[l[j]][j + 1];
        }
        Some(r)
    }

    /// The factors, first to last: each one's first man, its number of men and of values.
    pub fn factor_spans(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.factors.iter().map(|f| (f.first, f.men, f.size))
    }

    /// The men of the factor whose first man is `first`, for its value `v`, into `out`
    /// (one man: its square by local index; a run of alike men: the set of rank `v`).
    #[inline]
    pub fn unrank_factor(&self, first: usize, v: usize, out: &mut [u8]) {
        let f = &self.factors[self.factor_of[first]];
        if f.men == 1 {
            out[first] = self.squares[first][v];
        } else {
            self.unrank_into(f, v, out);
        }
    }

    /// The men of a run of alike men for rank `v` of its factor `f`, into `out`.
    #[inline]
    fn unrank_into(&self, f: &Factor, v: usize, out: &mut [u8]) {
        let ls = &f.unrank[v * f.men..(v + 1) * f.men];
        for (j, &l) in ls.iter().enumerate() {
            out[f.first + j] = self.squares[f.first][l as usize];
        }
    }

    /// The value of man `i`'s factor with the men on `sq` but man `i` on `to`: its local
    /// index, or for alike men the rank of their set; `None` outside the domain or when two
    /// alike men would share a square.
    #[inline]
    pub fn factor_value(&self, i: usize, sq: &[u8], to: u8) -> Option<usize> {
        let f = &self.factors[self.factor_of[i]];
        if f.men == 1 {
            return self.local_of(i, to);
        }
        if f.men == 2 {
            // The other man of the pair: one table load.
            let other = sq[2 * f.first + 1 - i];
            let mut l =
                [self.local[i][to as usize], self.local[i][other as usize]].map(usize::from);
            return self.rank(f, &mut l);
        }
        let mut l = [0usize; MAX_MEN];
        for (j, d) in l[..f.men].iter_mut().enumerate() {
            let s = if f.first + j == i {
                to
            } else {
                sq[f.first + j]
            };
            *d = self.local[i][s as usize] as usize;
        }
        self.rank(f, &mut l[..f.men])
    }

    /// True when man `i` shares its factor with alike men.
    #[inline]
    pub fn alike(&self, i: usize) -> bool {
        self.factors[self.factor_of[i]].men > 1
    }

    /// True when some men share a factor.
    #[inline]
    pub fn grouped(&self) -> bool {
        self.grouped
    }

    /// The index distance between neighbouring values of man `i`'s factor.
    #[inline]
    pub fn stride_of(&self, i: usize) -> usize {
        self.stride[i]
    }

    /// The index a position would have with one factor per man (alike men told apart), under
    /// map `k`: what the statistics count placements by.
    #[inline]
    pub fn ordered_rank(&self, sq: &[u8], k: usize) -> Option<usize> {
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

    /// The number of [`Indexer::orderings`] of every entry.
    pub fn orderings_len(&self) -> usize {
        self.orderings
    }

    /// Calls `f` with every ordering of the position's alike men among their own squares
    /// (the placements with men told apart that one entry stands for; just `sq` when no men
    /// are alike).
    pub fn orderings(&self, sq: &[u8], f: &mut dyn FnMut(&[u8])) {
        let mut buf = [0u8; MAX_MEN];
        buf[..sq.len()].copy_from_slice(sq);
        permute(&mut buf[..sq.len()], &self.factors, 0, f);
    }

    /// The squares of the position at `idx` (in material order) into `out`.
    #[inline]
    pub fn decode(&self, mut idx: usize, out: &mut [u8]) {
        if !self.grouped {
            for i in (0..self.squares.len()).rev() {
                let n = self.squares[i].len();
                out[i] = self.squares[i][idx % n];
                idx /= n;
            }
            return;
        }
        for f in self.factors.iter().rev() {
            let v = idx % f.size;
            idx /= f.size;
            if f.men == 1 {
                out[f.first] = self.squares[f.first][v];
            } else {
                self.unrank_into(f, v, out);
            }
        }
    }

    /// Turns the squares of the position at some index into those at the next index (the
    /// squares of index 0 after the last): an odometer, cheaper than [`Indexer::decode`].
    #[inline]
    pub fn advance(&self, sq: &mut [u8]) {
        if !self.grouped {
            for i in (0..sq.len()).rev() {
                let d = self.local[i][sq[i] as usize] as usize + 1;
                if d < self.squares[i].len() {
                    sq[i] = self.squares[i][d];
                    return;
                }
                sq[i] = self.squares[i][0];
            }
            return;
        }
        for f in self.factors.iter().rev() {
            let i = f.first;
            if f.men == 1 {
                let d = self.local[i][sq[i] as usize] as usize + 1;
                if d < self.squares[i].len() {
                    sq[i] = self.squares[i][d];
                    return;
                }
                sq[i] = self.squares[i][0];
                continue;
            }
            let next = self.factor_value(i, sq, sq[i]).map_or(0, |v| v + 1);
            if next < f.size {
                self.unrank_into(f, next, sq);
                return;
            }
            self.unrank_into(f, 0, sq);
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

/// Calls `f` with `buf` under every ordering of the men of each factor (`a`: the first
/// entry of `factors[0]` not yet placed).
fn permute(buf: &mut [u8], factors: &[Factor], a: usize, f: &mut dyn FnMut(&[u8])) {
    let Some(g) = factors.first() else {
        f(buf);
        return;
    };
    let end = g.first + g.men;
    if a + 1 >= end {
        let next = factors.get(1).map_or(0, |h| h.first);
        return permute(buf, &factors[1..], next, f);
    }
    for j in a..end {
        buf.swap(a, j);
        permute(buf, factors, a + 1, f);
        buf.swap(a, j);
    }
}

#[cfg(test)]
mod tests {
    use super::{binomials, pairs, sets, Indexer, NO_RANK};
    use crate::egt::board::Board;

    /// Every set of 1 to 4 squares of a 64-square domain has the rank of its place in the
    /// unrank table, and the table lists each set once, ascending.
    #[test]
    fn set_ranks_and_unranks_invert_each_other() {
        let binom = binomials(64);
        for k in 1..=4 {
            let table = sets(64, k);
            assert_eq!(table.len(), binom[64][k] * k);
            for (r, set) in table.chunks(k).enumerate() {
                assert!(set.windows(2).all(|w| w[0] < w[1]), "{set:?} ascending");
                let rank: usize = set
                    .iter()
                    .enumerate()
                    .map(|(j, &l)| binom[l as usize][j + 1])
                    .sum();
                assert_eq!(rank, r, "{set:?}");
            }
        }
        // The pair table: either order, the same rank; one square, none.
        let table = sets(64, 2);
        let pair = pairs(64, &binom);
        for (r, set) in table.chunks(2).enumerate() {
            let (a, b) = (set[0] as usize, set[1] as usize);
            assert_eq!((pair[a * 64 + b], pair[b * 64 + a]), (r as u32, r as u32));
        }
        assert!((0..64).all(|a| pair[a * 65] == NO_RANK));
    }

    /// Men 0 (the first), 1-2 (a pair), 3 (alone) and 4 (alike to 3 but the last, so never
    /// grouped with it) on a 5x5 board under its 8 maps.
    fn indexers(kinds: &[u32]) -> (Indexer, Indexer) {
        let board = Board::new(5, 5).unwrap_or_else(|| unreachable!());
        let all: Vec<u8> = (0..25).collect();
        let domains = vec![all; kinds.len()];
        let group = u8::MAX;
        (
            Indexer::new(&board, &domains, Some(kinds), group),
            Indexer::new(&board, &domains, None, group),
        )
    }

    /// The set index is a bijection between its entries and the placements with alike men
    /// on distinct squares taken in any order: decoding gives the men ascending and encoding
    /// gives the entry back, every ordering encodes to the entry of its sorted form, and a
    /// step of one alike man equals encoding the moved position.
    #[test]
    fn set_index_is_a_bijection() {
        let kinds = [0, 1, 1, 2, 2];
        let (ix, ordered) = indexers(&kinds);
        assert!(ix.grouped() && !ordered.grouped());
        assert!(ix.alike(1) && ix.alike(2) && !ix.alike(3) && !ix.alike(4));
        // A pair's factor has C(25, 2) = 300 values where two factors had 25 * 25.
        assert_eq!(ix.size * 25 * 25, ordered.size * 300);
        let mut sq = [0u8; 5];
        let mut odo = [0u8; 5];
        ix.decode(0, &mut odo);
        for idx in 0..ix.size {
            ix.decode(idx, &mut sq);
            assert_eq!(sq, odo, "odometer at {idx}");
            ix.advance(&mut odo);
            assert!(sq[1] < sq[2], "{sq:?}: alike men ascending, distinct");
            assert_eq!(ix.encode_mapped(&sq, 0), Some(idx));
            let swapped = [sq[0], sq[2], sq[1], sq[3], sq[4]];
            assert_eq!(ix.encode_mapped(&swapped, 0), Some(idx));
            for to in (0..25u8).filter(|t| !sq.contains(t)) {
                let mut moved = sq;
                moved[2] = to;
                assert_eq!(ix.step(idx, 2, sq[2], to), ix.encode_mapped(&moved, 0));
                assert!(ix.factor_value(2, &sq, to).is_some());
            }
            assert_eq!(
                ix.factor_value(2, &sq, sq[1]),
                None,
                "{sq:?}: the pair on one square"
            );
        }
        // Every ordered placement with the pair apart reaches an entry; together, none.
        let mut hit = vec![false; ix.size];
        for o in 0..ordered.size {
            ordered.decode(o, &mut sq);
            match ix.encode_mapped(&sq, 0) {
                Some(idx) => hit[idx] = true,
                None => assert_eq!(sq[1], sq[2]),
            }
        }
        assert!(hit.iter().all(|&h| h));
    }

    /// A partial index completed with the open man on any square is the index of the whole
    /// position, for every man left open (the first too, whose square picks the map).
    #[test]
    fn partial_completes_to_the_encoded_index() {
        let (_, ix) = indexers(&[0, 1, 2]);
        for sq in [[0u8, 6, 12], [12, 3, 24], [4, 20, 7], [18, 11, 2]] {
            for v in 0..3 {
                let part = ix.partial(&sq, v).unwrap_or_else(|| unreachable!());
                for s in 0..25u8 {
                    let mut whole = sq;
                    whole[v] = s;
                    assert_eq!(part.complete(s), ix.encode(&whole), "{sq:?} man {v} on {s}");
                }
            }
        }
    }

    /// With alike men (1-2 a pair), so does the partial index of a man alone in its
    /// factor; a man of the pair has none.
    #[test]
    fn partial_with_alike_men_completes_to_the_encoded_index() {
        let (ix, _) = indexers(&[0, 1, 1, 2, 2]);
        let mut tried = 0;
        for sq in [
            [0u8, 6, 12, 3, 9],
            [12, 24, 3, 7, 1],
            [4, 20, 7, 7, 2],
            [18, 11, 2, 5, 6],
        ] {
            assert!(ix.partial(&sq, 1).is_none() && ix.partial(&sq, 2).is_none());
            for v in [0, 3, 4] {
                let part = ix.partial(&sq, v).unwrap_or_else(|| unreachable!());
                for s in 0..25u8 {
                    let mut whole = sq;
                    whole[v] = s;
                    assert_eq!(part.complete(s), ix.encode(&whole), "{sq:?} man {v} on {s}");
                    tried += usize::from(part.complete(s).is_some());
                }
            }
        }
        assert!(tried > 200, "{tried} squares encoded");
        // The pair on one square: no index for any square of the open man.
        assert!(ix.partial(&[0, 6, 6, 3, 9], 3).is_none());
    }

    /// The orderings of an entry are its placements with the alike men told apart.
    #[test]
    fn orderings_tell_alike_men_apart() {
        let (ix, ordered) = indexers(&[0, 1, 1, 1, 2]);
        let sq = [0u8, 3, 7, 9, 12];
        let mut seen = Vec::new();
        ix.orderings(&sq, &mut |o| seen.push(ordered.encode_mapped(o, 0)));
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 6);
        assert_eq!(ix.orderings_len(), 6);
        assert!(seen.iter().all(Option::is_some));
    }
}
