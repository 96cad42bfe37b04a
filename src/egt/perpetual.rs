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

use super::material::MAX_MEN;
use super::solve::Table;
use super::value::{is_win, DRAW};

/// One bit per position and side to move.
type Set = [Vec<bool>; 2];

/// The undecided positions where `violator` is to move and can hold only by perpetual check.
pub fn losses(table: &Table, violator: usize) -> Vec<usize> {
    let n = table.index.size;
    let m = table.men();
    let undecided: Set = [0, 1].map(|c| (0..n).map(|i| table.value(c, i) == DRAW).collect());
    let mut sq = [0u8; MAX_MEN];
    let other = 1 - violator;
    // T: positions with the other side to move, not in check (the violator's move was quiet).
    let target: Vec<bool> = (0..n)
        .map(|i| {
            undecided[other][i] && {
                table.index.decode(i, &mut sq[..m]);
                !table.in_check(&sq[..m], other)
            }
        })
        .collect();
    let mut z = undecided.clone();
    loop {
        let mut y: Set = [vec![false; n], vec![false; n]];
        loop {
            let mut changed = false;
            for side in 0..2 {
                for i in 0..n {
                    if !undecided[side][i] || y[side][i] {
                        continue;
                    }
                    let into_z = side == other && target[i] && cpre(table, &z, violator, side, i);
                    if into_z || cpre(table, &y, violator, side, i) {
                        y[side][i] = true;
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        if y == z {
            break;
        }
        z = y;
    }
    (0..n)
        .filter(|&i| undecided[violator][i] && !z[violator][i])
        .collect()
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
