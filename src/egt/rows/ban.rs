//! The perpetual-check ban in the row solver: whether a position may lose to it, the rounds of
//! `perpetual` run whenever the solve stops, and the draws left at the end.

use std::sync::atomic::Ordering::Relaxed;

use crate::egt::material::MAX_MEN;
use crate::egt::threads::parallel;
use crate::egt::value::{loss, DRAW};
use crate::egt::word::{ones, AtomicWord, Word};

use super::seed::HELD;
use super::Solver;

impl<'a, W: Word> Solver<'a, W> {
    /// False when no undecided position of `violator` (to move) can be lost to the
    /// perpetual-check ban: the first round of the ban's game (see `perpetual`), played on
    /// rows, keeps them all. That round is the least set `Y` holding the other side's
    /// undrawn positions not in check (a quiet move of the violator led there), the
    /// violator's positions with a quiet move into `Y` or a capture to a draw (its seed's
    /// note), and the other side's positions whose every quiet move leads into `Y` or to a
    /// decided position. The positions decided as draws are in `Y` whatever it is (every
    /// move of one leads to a draw by capture or to the other side's win), but a violator's
    /// stalemate. `None` when it cannot tell: a violator's stalemate scored as a draw, or a
    /// table solved by levels (whose other levels' draws are in that game too). Otherwise
    /// the answer is the game's first round's: when it is `Some(true)`, the game's own
    /// quick sweeps would find the same and can be skipped.
    pub(super) fn may_lose_to_ban(&self, violator: usize) -> Option<bool> {
        let (geo, x, y) = (&self.geo, violator, 1 - violator);
        let stalemate_drawn = (self.stuck[x].iter().enumerate())
            .flat_map(|(k, w)| ones(w.load(Relaxed)).map(move |b| k * 64 + b))
            .any(|idx| self.table.values[x][idx].load(Relaxed) == DRAW);
        if !geo.heights.is_empty() || stalemate_drawn {
            return None;
        }
        let rows = self.rows;
        let mut squares = [0u8; MAX_MEN];
        let open = |side: usize, row: usize| geo.full & !self.done[side][row].load(Relaxed);
        // The other side's positions decided as draws: quiet targets as good as those of
        // `Y`.
        let drawn_y: Vec<W> = (0..rows)
            .map(|row| {
                let decided = geo.full & self.done[y][row].load(Relaxed);
                ones(decided)
                    .filter(|&b| self.table.values[y][row * geo.len + b].load(Relaxed) == DRAW)
                    .fold(W::ZERO, |acc, b| acc | W::bit(b))
            })
            .collect();
        // The other side's undecided positions in check, and the violator's with word capture
        // to word draw.
        let mut check = vec![W::ZERO; rows];
        let mut yx = vec![W::ZERO; rows];
        for row in 0..rows {
            let occ = self.decode(row, &mut squares);
            check[row] = open(y, row) & self.checks(&squares, occ, x);
            for bit in ones(open(x, row)) {
                if self.table.values[x][row * geo.len + bit].load(Relaxed) == HELD {
                    yx[row] |= W::bit(bit);
                }
            }
        }
        let mut yy: Vec<W> = (0..rows).map(|r| open(y, r) & !check[r]).collect();
        let words = |w: &dyn Fn(usize) -> W| -> Vec<W::Atomic> {
            (0..rows)
                .map(|r| {
                    let word = W::Atomic::default();
                    word.store(w(r), Relaxed);
                    word
                })
                .collect()
        };
        loop {
            let mut changed = false;
            let not_y = words(&|r| !(yy[r] | drawn_y[r]));
            for (row, in_y) in yx.iter_mut().enumerate() {
                let cand = open(x, row) & !*in_y;
                if cand.any() {
                    let occ = self.decode(row, &mut squares);
                    let into = self.escapes_from(&squares, occ, row, x, cand, &not_y);
                    changed |= into.any();
                    *in_y |= into;
                }
            }
            let not_bad = words(&|r| !(open(x, r) & !yx[r]));
            for row in 0..rows {
                let cand = check[row] & !yy[row];
                if cand.any() {
                    let occ = self.decode(row, &mut squares);
                    let kept = cand & !self.escapes_from(&squares, occ, row, y, cand, &not_bad);
                    changed |= kept.any();
                    yy[row] |= kept;
                }
            }
            if !changed {
                return Some((0..rows).any(|r| open(x, r) & !yx[r] != W::ZERO));
            }
        }
    }

    /// Where the solve stopped (`at`): the undecided positions that only perpetual check
    /// holds become losses at the next even distance (`at` moves there), filed for it;
    /// returns how many (see `perpetual`, which reads undecided positions as draws).
    pub(super) fn perpetual_losses(&self, at: &mut u8, progress: &mut dyn FnMut(&str)) -> usize {
        let due = *at + (*at & 1);
        let len = self.geo.len;
        // Before the notes are taken out of the bytes: the check reads them.
        let suspects: Vec<Option<bool>> = (0..2).map(|v| self.may_lose_to_ban(v)).collect();
        let mut notes = Vec::new();
        for x in 0..2 {
            for row in 0..self.rows {
                let open = self.geo.full & !self.done[x][row].load(Relaxed);
                for bit in ones(open) {
                    let value = &self.table.values[x][row * len + bit];
                    notes.push((x, row * len + bit, value.swap(DRAW, Relaxed)));
                }
            }
        }
        let mut found = 0;
        for violator in (0..2).filter(|&v| suspects[v] != Some(false)) {
            // The first round, played on rows, shown to take positions: the game need not
            // play it again.
            let shown = suspects[violator].is_some();
            let threads = self.threads.get();
            for idx in crate::egt::perpetual::losses_after(self.table, violator, threads, shown) {
                let (row, b) = (idx / len, W::bit(idx % len));
                self.table.values[violator][idx].store(loss(due), Relaxed);
                self.done[violator][row].fetch_or(b, Relaxed);
                self.settled[violator][row].fetch_or(b, Relaxed);
                self.file(due, due, row, violator, b);
                found += 1;
            }
        }
        for (x, idx, note) in notes {
            let done = self.done[x][idx / len].load(Relaxed);
            if !done.has(idx % len) {
                self.table.values[x][idx].store(note, Relaxed);
            }
        }
        progress(&format!(
            "{found} positions lost to the perpetual-check ban"
        ));
        *at = due;
        found
    }

    /// Undecided positions, and those held by a capture and never won, are draws: their
    /// bytes lose the seed's notes of their captures.
    pub(super) fn clear_notes(&self, level: &[usize]) {
        let len = self.geo.len;
        parallel(level.len(), self.pass_threads(), |a, b| {
            for x in 0..2 {
                for &row in &level[a..b] {
                    let done = self.done[x][row].load(Relaxed);
                    for bit in ones(self.geo.full & !done) {
                        self.table.values[x][row * len + bit].store(DRAW, Relaxed);
                    }
                    // Held by a capture and never won (see `seed_row`).
                    let provisional = done & self.provisional[x][row].load(Relaxed);
                    for bit in ones(provisional) {
                        let value = &self.table.values[x][row * len + bit];
                        if value.load(Relaxed) == HELD {
                            value.store(DRAW, Relaxed);
                        }
                    }
                }
            }
        });
    }
}
