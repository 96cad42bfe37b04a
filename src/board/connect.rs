//! Connect games (Fairy-Stockfish's `connectN`, `connectNxN`, `collinearN`, `connectRegion*`):
//! whether the side that just moved has made its connection, judged on a plain grid of its
//! counted men. The rule reads only the board, so the engine (`goals.rs`) and the reference
//! generator (`reference_goals.rs`) both ask this one function with their own boards.

use variants::rules::Connect;
use variants::{Coord, SquareSet};

use crate::board::types::Colour;

/// The counted men of one side on a board of `files` x `ranks`.
pub struct Grid {
    files: i32,
    ranks: i32,
    ours: Vec<bool>,
}

impl Grid {
    /// A grid with the given squares marked.
    pub fn new(files: u8, ranks: u8, marked: impl Iterator<Item = Coord>) -> Grid {
        let (files, ranks) = (files as i32, ranks as i32);
        let mut ours = vec![false; (files * ranks) as usize];
        for c in marked {
            ours[(c.rank as i32 * files + c.file as i32) as usize] = true;
        }
        Grid { files, ranks, ours }
    }

    fn at(&self, f: i32, r: i32) -> bool {
        (0..self.files).contains(&f)
            && (0..self.ranks).contains(&r)
            && self.ours[(r * self.files + f) as usize]
    }

    fn squares(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| (f, r)))
    }

    /// `n` marked squares in a row from some square along a step.
    fn row(&self, n: u32, steps: &[(i8, i8)]) -> bool {
        self.squares().any(|(f, r)| {
            steps.iter().any(|&(df, dr)| {
                (0..n as i32).all(|k| self.at(f + k * df as i32, r + k * dr as i32))
            })
        })
    }

    /// A full `n` x `n` block.
    fn block(&self, n: u32) -> bool {
        let n = n as i32;
        self.squares()
            .any(|(f, r)| (0..n).all(|i| (0..n).all(|j| self.at(f + i, r + j))))
    }

    /// At least `n` marked squares on one whole line along a step (gaps allowed).
    fn collinear(&self, n: u32, steps: &[(i8, i8)]) -> bool {
        steps.iter().any(|&(df, dr)| {
            let (df, dr) = (df as i32, dr as i32);
            let on = |f: i32, r: i32| (0..self.files).contains(&f) && (0..self.ranks).contains(&r);
            // A line starts where the square before it is off the board.
            self.squares()
                .filter(|&(f, r)| !on(f - df, r - dr))
                .any(|(f, r)| {
                    let count = (0..)
                        .map(|k| (f + k * df, r + k * dr))
                        .take_while(|&(g, s)| on(g, s))
                        .filter(|&(g, s)| self.at(g, s))
                        .count();
                    count >= n as usize
                })
        })
    }

    /// A chain of marked squares from one in `from` reaching one in `to` by at least one
    /// step, each step along (never against) the allowed steps.
    fn chain(&self, from: &SquareSet, to: &SquareSet, steps: &[(i8, i8)]) -> bool {
        let mut seen = vec![false; self.ours.len()];
        let mut stack: Vec<(i32, i32)> = (from.iter())
            .map(|c| (c.file as i32, c.rank as i32))
            .filter(|&(f, r)| self.at(f, r))
            .collect();
        while let Some((f, r)) = stack.pop() {
            for &(df, dr) in steps {
                let (g, s) = (f + df as i32, r + dr as i32);
                if !self.at(g, s) {
                    continue;
                }
                if to.contains(Coord::new(g as u8, s as u8)) {
                    return true;
                }
                let i = (s * self.files + g) as usize;
                if !seen[i] {
                    seen[i] = true;
                    stack.push((g, s));
                }
            }
        }
        false
    }

    /// True when `colour`'s men on this grid make a connection under `rule`.
    pub fn connected(&self, rule: &Connect, colour: Colour) -> bool {
        let steps = rule.steps();
        let (from, to) = (&rule.region1[colour.index()], &rule.region2[colour.index()]);
        rule.n > 0 && self.row(rule.n, &steps)
            || rule.nxn > 0 && self.block(rule.nxn)
            || rule.collinear > 0 && self.collinear(rule.collinear, &steps)
            || !from.is_empty() && self.chain(from, to, &steps)
    }
}
