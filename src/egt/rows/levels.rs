//! Pawn tables by levels: each promoting man's height (the plain moves it can still make
//! before it promotes) per square, and the rows of each sum of heights, solved the highest
//! first, so that a level reads only itself and levels solved already.

use variants::rights;

use crate::egt::material::MAX_MEN;
use crate::egt::solve::Table;
use crate::egt::word::Word;

use super::Solver;

/// Per man that promotes, per board square, the most moves to an empty square (not
/// promoting) it can still make: when the men that promote are the first ones (a pawn
/// table's order, see `layout`), not the last, their moves never return (the heights exist), and no
/// rule looks further than the position (the perpetual-check ban): then a move of such a
/// man lowers the sum of the heights, and the table is solved by levels of that sum, the
/// lowest first (see [`Solver::levels`]). `None` otherwise.
pub(super) fn heights(table: &Table) -> Option<Vec<Vec<u8>>> {
    let rules = &table.rules;
    let men = table.men();
    let promotes = |i: usize| {
        !rules.promo[table.colour[i] as usize][table.piece[i] as usize]
            .choices
            .is_empty()
    };
    let pawns = (0..men).take_while(|&i| promotes(i)).count();
    if pawns == 0 || pawns + 1 >= men || (pawns..men).any(promotes) {
        return None;
    }
    if rules.game.perpetual_check_loses {
        return None;
    }
    (0..pawns)
        .map(|i| {
            let (colour, piece) = (table.colour[i] as usize, table.piece[i] as usize);
            let promo = &rules.promo[colour][piece];
            let next = |s: usize| {
                rules.moves[colour][piece].from[s]
                    .iter()
                    .filter(|path| path.rights & rights::MOVE != 0 && !promo.must(s as u8, path.to))
                    .map(|path| path.to as usize)
                    .collect::<Vec<_>>()
            };
            height_table(rules.board.n, &next)
        })
        .collect()
}

/// The longest walk from each of `n` squares along `next`, `None` when some walk can
/// return to a square (or is longer than a byte holds).
pub(super) fn height_table(n: usize, next: &dyn Fn(usize) -> Vec<usize>) -> Option<Vec<u8>> {
    // Relaxed `n` times: a longest walk without a cycle has fewer than `n` steps, so a
    // change in round `n` means a cycle.
    let succ: Vec<Vec<usize>> = (0..n).map(next).collect();
    let mut height = vec![0usize; n];
    for _ in 0..=n {
        let mut changed = false;
        for s in 0..n {
            let best = succ[s].iter().map(|&t| height[t] + 1).max().unwrap_or(0);
            if best > height[s] {
                height[s] = best;
                changed = true;
            }
        }
        if !changed {
            return height.into_iter().map(|x| u8::try_from(x).ok()).collect();
        }
    }
    None
}

impl<'a, W: Word> Solver<'a, W> {
    /// The rows in the order they are solved: one level of all rows, or when the pawns'
    /// moves leave their level (see [`heights`]) the rows of each sum of the heights, the
    /// lowest first. A level's moves reach only rows of its own or of lower levels, which
    /// are final then: so a level's state stays small enough for the cache.
    pub(super) fn levels(&self) -> Vec<Vec<usize>> {
        let heights = &self.geo.heights;
        if heights.is_empty() {
            return vec![(0..self.rows).collect()];
        }
        let mut squares = [0u8; MAX_MEN];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for row in 0..self.rows {
            self.decode(row, &mut squares);
            let sum: usize = heights
                .iter()
                .zip(&squares)
                .map(|(man_heights, &s)| man_heights[s as usize] as usize)
                .sum();
            if out.len() <= sum {
                out.resize_with(sum + 1, Vec::new);
            }
            out[sum].push(row);
        }
        out.retain(|l| !l.is_empty());
        out
    }
}
