//! Pawn tables by levels: the rows of each sum of the promoting men's heights (see
//! `heights`), solved the highest first, so that a level reads only itself and levels solved
//! already.

use crate::egt::material::MAX_MEN;
use crate::egt::word::Word;

use super::Solver;

impl<'a, W: Word> Solver<'a, W> {
    /// The rows in the order they are solved: one level of all rows, or when the pawns'
    /// moves leave their level (see `heights`) the rows of each sum of the heights, the
    /// lowest first. A level's moves reach only rows of its own or of lower levels, which
    /// are final then: so a level's state stays small enough for the cache.
    pub(super) fn levels(&self) -> Vec<Vec<usize>> {
        let heights = &self.geo.heights;
        if heights.is_empty() {
            return vec![(0..self.rows).collect()];
        }
        self.by_height((0..self.rows).map(|row| (row, row)))
    }

    /// `items` (each an item and the row whose men stand for it) grouped by the sum of the
    /// promoting men's heights on that row, the lowest sum first, empty sums left out.
    pub(super) fn by_height(&self, items: impl Iterator<Item = (usize, usize)>) -> Vec<Vec<usize>> {
        let heights = &self.geo.heights;
        let mut squares = [0u8; MAX_MEN];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for (item, row) in items {
            self.decode(row, &mut squares);
            let sum: usize = heights
                .iter()
                .zip(&squares)
                .map(|(man_heights, &s)| man_heights[s as usize] as usize)
                .sum();
            if out.len() <= sum {
                out.resize_with(sum + 1, Vec::new);
            }
            out[sum].push(item);
        }
        out.retain(|l| !l.is_empty());
        out
    }
}
