//! The promoting men's heights: per man that promotes and per square, the plain moves it can
//! still make before it promotes, which order a pawn table's levels (see `levels`).

use variants::rights;

use crate::egt::solve::Table;

/// Per man that promotes, per board square, the most moves to an empty square (not
/// promoting) it can still make: when the men that promote are the first ones (a pawn
/// table's order, see `layout`), not the last, their moves never return (the heights exist), and no
/// rule looks further than the position (the perpetual-check ban): then a move of such a
/// man lowers the sum of the heights, and the table is solved by levels of that sum, the
/// lowest first (see `Solver::levels`). `None` otherwise.
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
