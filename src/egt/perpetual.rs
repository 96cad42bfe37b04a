//! The ban on perpetual check in the tables (xiangqi, and any variant whose file forbids it).
//! Plain retrograde solving counts a checking move as an escape for ever; under the ban a side
//! that can hold only by checking on every move loses. After ordinary propagation stops, the
//! undecided positions form a game in which the suspect side (the violator) must, infinitely
//! often, make a move that does not give check: a Büchi game, solved here as the nested fixed
//! point `nu Z. mu Y. (T and CPre(Z)) or CPre(Y)`, where `T` holds the positions just reached
//! by a non-checking move of the violator and `CPre(A)` the positions from which the violator
//! can force the next position into `A`. Undecided positions outside the result, with the
//! violator to move, are losses for it. Mutual perpetual check (both sides checking for ever)
//! is not told apart: it counts against the violator being examined.
//!
//! [`losses`] solves the same game the classical way, by attractors over un-moves with
//! per-position counts of successors (as the general solver's escape counters): the
//! positions from which the violator cannot force a quiet move of its own while the game
//! stays among the remaining ones are taken out, with every position the other side can
//! force into them, until none are left to take; the rest is the violator's. Each round
//! costs one attractor, where the nested fixed point needed a sweep per layer.
//! [`losses_by_sweeps`] computes the fixed point directly, by whole sweeps until nothing
//! changes: the twin of the tests (xiangqi KRPvKR: 210 s there).

use super::escapes::{distinct, for_predecessors_once};
use super::material::MAX_MEN;
use super::solve::Table;
use super::value::{is_win, DRAW};

/// One bit per position and side to move.
type Set = [Vec<bool>; 2];

/// The sweeps [`losses`] gives the fixed point's first round before it turns to attractors:
/// enough for tables where the ban takes nothing (xiangqi KRvKR, KNvKN: two or three).
const QUICK_SWEEPS: usize = 4;

/// The undecided positions where `violator` is to move and can hold only by perpetual check.
pub fn losses(table: &Table, violator: usize) -> Vec<usize> {
    let n = table.index.size;
    let undecided: Set = [0, 1].map(|c| (0..n).map(|i| table.value(c, i) == DRAW).collect());
    let target = quiet_targets(table, &undecided, violator);
    // Most tables lose nothing to the ban, and a few sweeps show it: the first round of
    // the fixed point, when it ends quickly and keeps every position.
    let quick = sweeps(
        table,
        (&undecided, &target),
        &undecided,
        violator,
        QUICK_SWEEPS,
    );
    if quick.is_some_and(|y| y == undecided) {
        return Vec::new();
    }
    let moves = Moves::new(table, &undecided);
    let mut game = Game::new(&moves, violator, undecided.clone());
    let mut queue = Vec::new();
    let mut buf = Vec::new();
    loop {
        let reach = game.attractor(table, &target, &mut buf);
        // Where the violator cannot force a quiet move, the other side keeps it checking
        // for ever (or leaves for a win): those go, with all the other side can force
        // into them.
        queue.clear();
        for (side, (z, reach)) in game.z.iter_mut().zip(&reach).enumerate() {
            for (i, (z, _)) in z
                .iter_mut()
                .zip(reach)
                .enumerate()
                .filter(|(_, (z, r))| **z && !**r)
            {
                *z = false;
                queue.push((side, i));
            }
        }
        if queue.is_empty() {
            break;
        }
        game.remove(table, &mut queue, &mut buf);
    }
    (0..n)
        .filter(|&i| undecided[violator][i] && !game.z[violator][i])
        .collect()
}

/// T: the undecided positions with the other side to move, not in check (the violator's
/// move into them was quiet).
fn quiet_targets(table: &Table, undecided: &Set, violator: usize) -> Vec<bool> {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    let other = 1 - violator;
    (0..table.index.size)
        .map(|i| {
            undecided[other][i] && {
                table.index.decode(i, &mut sq[..m]);
                !table.in_check(&sq[..m], other)
            }
        })
        .collect()
}

/// The undecided positions' moves, generated once: per side, per position, its distinct
/// successors inside the table that are undecided (each stored image counts, as un-moves
/// reach every image), and what its other moves do.
struct Moves {
    open: [Vec<u16>; 2],
    /// A conversion to a draw (or a move out of the index): the violator holds with it.
    drawn: Set,
    /// A move to a decided position the violator, to move next, does not win (or out of
    /// the index): the other side escapes the game with it.
    leaves: Set,
}

impl Moves {
    fn new(table: &Table, undecided: &Set) -> Moves {
        let n = table.index.size;
        let m = table.men();
        let mut sq = [0u8; MAX_MEN];
        let mut open = [vec![0u16; n], vec![0u16; n]];
        let mut drawn: Set = [vec![false; n], vec![false; n]];
        let mut leaves: Set = [vec![false; n], vec![false; n]];
        let mut listed = Vec::new();
        for side in 0..2 {
            for i in (0..n).filter(|&i| undecided[side][i]) {
                table.index.decode(i, &mut sq[..m]);
                listed.clear();
                let (mut d, mut l) = (false, false);
                table.successors_at(&sq[..m], side, Some(i), |s| {
                    if s.code == DRAW && s.in_table && s.index != usize::MAX {
                        table.index.images(s.index, |j| listed.push(j));
                    } else if s.code == DRAW {
                        d = true;
                        l |= s.in_table;
                    } else {
                        l |= !is_win(s.code);
                    }
                    true
                });
                open[side][i] = u16::try_from(distinct(&mut listed, true)).unwrap_or(u16::MAX);
                drawn[side][i] = d;
                leaves[side][i] = l;
            }
        }
        Moves {
            open,
            drawn,
            leaves,
        }
    }
}

/// The game of the undecided positions for one violator: `z`, the positions still in it (a
/// trap for the other side: its every move stays in `z` or reaches a win of the violator),
/// and per violator's position its successors still in `z`.
struct Game<'a> {
    moves: &'a Moves,
    violator: usize,
    z: Set,
    in_z: Vec<u16>,
}

impl<'a> Game<'a> {
    fn new(moves: &'a Moves, violator: usize, z: Set) -> Game<'a> {
        let in_z = moves.open[violator].clone();
        Game {
            moves,
            violator,
            z,
            in_z,
        }
    }

    /// True when `side`'s position `i` holds whatever the rest of the game does: the
    /// violator's conversion to a draw; for the other side, every move leaves for a win of
    /// the violator.
    fn holds(&self, side: usize, i: usize) -> bool {
        if side == self.violator {
            self.moves.drawn[side][i]
        } else {
            !self.moves.leaves[side][i] && self.moves.open[side][i] == 0
        }
    }

    /// The positions of `z` from which the violator can force a quiet move of its own (a
    /// position of `target`) while the game stays in `z`: a queue from `target` and the
    /// positions that hold, through un-moves, with per position of the other side a count
    /// of its successors not yet reached.
    fn attractor(&self, table: &Table, target: &[bool], buf: &mut Vec<usize>) -> Set {
        let n = table.index.size;
        let m = table.men();
        let (v, other) = (self.violator, 1 - self.violator);
        let mut reach: Set = [vec![false; n], vec![false; n]];
        let mut left = self.moves.open[other].clone();
        let mut queue = Vec::new();
        for (side, (z, reach)) in self.z.iter().zip(reach.iter_mut()).enumerate() {
            for (i, r) in reach.iter_mut().enumerate().filter(|&(i, _)| z[i]) {
                let base = self.holds(side, i)
                    || (side == other && target[i] && !self.moves.leaves[side][i]);
                if base {
                    *r = true;
                    queue.push((side, i));
                }
            }
        }
        let mut sq = [0u8; MAX_MEN];
        while let Some((side, j)) = queue.pop() {
            table.index.decode(j, &mut sq[..m]);
            let mover = 1 - side;
            for_predecessors_once(table, (&sq[..m], side, j), buf, |x| {
                if !self.z[mover][x] || reach[mover][x] {
                    return;
                }
                let joins = if mover == v {
                    true
                } else {
                    left[x] = left[x].saturating_sub(1);
                    left[x] == 0 && !self.moves.leaves[mover][x]
                };
                if joins {
                    reach[mover][x] = true;
                    queue.push((mover, x));
                }
            });
        }
        reach
    }

    /// Takes the positions of `queue` (already out of `z`) out of the game with every
    /// position the other side can force into them: its own positions with a move there,
    /// the violator's positions left without a successor in `z` (and no drawing
    /// conversion).
    fn remove(&mut self, table: &Table, queue: &mut Vec<(usize, usize)>, buf: &mut Vec<usize>) {
        let m = table.men();
        let v = self.violator;
        let mut sq = [0u8; MAX_MEN];
        while let Some((side, j)) = queue.pop() {
            table.index.decode(j, &mut sq[..m]);
            let mover = 1 - side;
            let mut out = Vec::new();
            for_predecessors_once(table, (&sq[..m], side, j), buf, |x| {
                if !self.z[mover][x] {
                    return;
                }
                let goes = if mover == v {
                    self.in_z[x] = self.in_z[x].saturating_sub(1);
                    self.in_z[x] == 0 && !self.moves.drawn[v][x]
                } else {
                    true
                };
                if goes {
                    self.z[mover][x] = false;
                    out.push((mover, x));
                }
            });
            queue.extend(out);
        }
    }
}

/// [`losses`] by whole sweeps over the table until nothing changes (its twin).
pub fn losses_by_sweeps(table: &Table, violator: usize) -> Vec<usize> {
    let n = table.index.size;
    let undecided: Set = [0, 1].map(|c| (0..n).map(|i| table.value(c, i) == DRAW).collect());
    let target = quiet_targets(table, &undecided, violator);
    let mut z = undecided.clone();
    // Sweeps without a limit always end.
    while let Some(y) = sweeps(table, (&undecided, &target), &z, violator, usize::MAX) {
        if y == z {
            break;
        }
        z = y;
    }
    (0..n)
        .filter(|&i| undecided[violator][i] && !z[violator][i])
        .collect()
}

/// The inner fixed point `mu Y. (T and CPre(z)) or CPre(Y)` by sweeps over the table in
/// index order (a position joins `Y` as soon as a sweep finds it, so a sweep may add
/// several layers), at most `most` of them: `None` when that was not enough.
fn sweeps(
    table: &Table,
    (undecided, target): (&Set, &[bool]),
    z: &Set,
    violator: usize,
    most: usize,
) -> Option<Set> {
    let n = table.index.size;
    let other = 1 - violator;
    let mut y: Set = [vec![false; n], vec![false; n]];
    for _ in 0..most {
        let mut changed = false;
        for side in 0..2 {
            for i in 0..n {
                if !undecided[side][i] || y[side][i] {
                    continue;
                }
                let into_z = side == other && target[i] && cpre(table, z, violator, side, i);
                if into_z || cpre(table, &y, violator, side, i) {
                    y[side][i] = true;
                    changed = true;
                }
            }
        }
        if !changed {
            return Some(y);
        }
    }
    None
}

/// Can the violator force the position after the next move into `a`? At its own move it
/// needs one such move (or one that converts into a draw); at the other side's move every
/// move must lead into `a`, to a decided position the other side would not choose (a
/// violator's win), or to a draw by conversion.
fn cpre(table: &Table, a: &Set, violator: usize, side: usize, idx: usize) -> bool {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    table.index.decode(idx, &mut sq[..m]);
    let next = 1 - side;
    let good = |code: u8, in_table: bool, j: usize| -> bool {
        if code == DRAW {
            !in_table || a[next][j]
        } else if side == violator {
            false
        } else {
            // The violator to move after the other side's move: a win for it is a move the
            // other side will not make; a loss for it would have decided this position.
            is_win(code)
        }
    };
    if side == violator {
        let mut found = false;
        table.successors_at(&sq[..m], side, Some(idx), |s| {
            found = good(s.code, s.in_table, s.index);
            !found
        });
        found
    } else {
        let mut all = true;
        table.successors_at(&sq[..m], side, Some(idx), |s| {
            all = good(s.code, s.in_table, s.index);
            all
        });
        all
    }
}
