//! Decided positions waiting for their distance (seeds and losses deferred by captures):
//! the per-distance lists the threads file them in, and their merge into the row state.

use std::sync::atomic::Ordering::Relaxed;

use parking_lot::Mutex;

use crate::egt::threads::parallel;
use crate::egt::value::{is_win, plies, DRAW, ILLEGAL, MAX_PLIES};
use crate::egt::word::{ones, Word};

use super::{settle, Rmw, Solver};

/// Decided positions waiting for their distance (seeds and losses deferred by captures):
/// `(row, side, bits)` per distance, in the lists the threads filed them in (the seed's
/// lists are moved in whole, not copied: they hold most of a table's captures).
pub(super) type Later<W> = Vec<Mutex<Vec<Filed<W>>>>;

/// A thread's list of decided positions of one distance: `(row, side, bits)`.
pub(super) type Filed<W> = Vec<(usize, u8, W)>;

/// Empty lists of deferred positions (see [`Later`]).
pub(super) fn later<W>() -> Later<W> {
    later_of(1)
}

/// The lists of [`later`] for `n` slices one after the other ([`LATER`] each).
pub(super) fn later_of<W>(n: usize) -> Later<W> {
    (0..n * LATER).map(|_| Mutex::new(Vec::new())).collect()
}

/// The distances a [`Later`] holds.
pub(super) const LATER: usize = MAX_PLIES as usize + 5;

/// The shortest list of deferred positions that [`Solver::merge_later`] hands to all
/// threads (a shorter one costs less than starting them).
pub(super) const PARALLEL_LATER: usize = 1 << 12;

/// Files one seed of `row` and `side` for distance `due` in a thread's lists, merged with the
/// previous one when that is of the same row and side (a row's seeds come together).
pub(super) fn file_seed<W: Word>(
    filed: &mut Vec<Filed<W>>,
    due: usize,
    row: usize,
    side: u8,
    bit: W,
) {
    if filed.len() <= due {
        filed.resize_with(due + 1, Vec::new);
    }
    match filed[due].last_mut() {
        Some(e) if e.0 == row && e.1 == side => e.2 |= bit,
        _ => filed[due].push((row, side, bit)),
    }
}

impl<'a, W: Word> Solver<'a, W> {
    /// Files decided bits of `side` in `row` for distance `due` (`distance`: the distance
    /// expanded).
    pub(super) fn file(&self, distance: u8, due: u8, row: usize, side: usize, bits: W) {
        if due == distance + 1 {
            let par = (due & 1) as usize;
            let rmw = self.rmw();
            if rmw.or_first(&self.news[par][side][row], bits) {
                rmw.or64(&self.summary[par][side][row / 64], 1 << (row % 64));
            }
        } else {
            let mut lists = self.later[(due as usize).min(self.later.len() - 1)].lock();
            match lists.last_mut() {
                Some(list) => list.push((row, side as u8, bits)),
                None => lists.push(vec![(row, side as u8, bits)]),
            }
        }
    }

    pub(super) fn any_later(&self, distance: u8) -> bool {
        self.later[distance as usize + 1..]
            .iter()
            .any(|l| l.lock().iter().any(|list| !list.is_empty()))
    }

    /// Moves the positions filed for `distance` into the news (wins only if no quicker
    /// win replaced them) and closes the wins; true when there is anything to expand at `distance`.
    pub(super) fn merge_later(&self, distance: u8) -> bool {
        let par = (distance & 1) as usize;
        let lists = std::mem::take(&mut *self.later[distance as usize].lock());
        // Entry `k` of the lists laid end to end is entry `k - starts[j]` of list `j`.
        let starts: Vec<usize> = lists
            .iter()
            .scan(0, |at, list| {
                *at += list.len();
                Some(*at - list.len())
            })
            .collect();
        let total: usize = lists.iter().map(Vec::len).sum();
        // The seeds' lists are long (most of a table's captures), later ones short.
        let threads = if total >= PARALLEL_LATER {
            self.pass_threads()
        } else {
            1
        };
        let rmw = Rmw {
            shared: threads > 1,
        };
        parallel(total, threads, |a, b| {
            for (list, &start) in lists.iter().zip(&starts) {
                let (from, to) = (a.max(start), b.min(start + list.len()));
                for &(row, side, bits) in
                    list.get(from - start..to.max(from) - start).unwrap_or(&[])
                {
                    self.merge_row(distance, rmw, row, side as usize, bits);
                }
            }
        });
        self.summary[par]
            .iter()
            .flat_map(|side| &side[self.words.clone()])
            .any(|w| w.load(Relaxed) != 0)
    }

    /// [`Solver::merge_later`] for one entry of the list: the bits `bits` of `side` in `row`.
    pub(super) fn merge_row(&self, distance: u8, rmw: Rmw, row: usize, side: usize, bits: W) {
        let par = (distance & 1) as usize;
        let mut keep = W::ZERO;
        let mut wins = W::ZERO;
        for b in ones(bits) {
            let code = self.table.values[side][row * self.geo.len + b].load(Relaxed);
            if code != DRAW && code != ILLEGAL && plies(code) == distance {
                keep |= W::bit(b);
                if is_win(code) {
                    wins |= W::bit(b);
                }
            }
        }
        if wins.any() {
            self.close(rmw, side, row, wins);
            // Final now: no quicker win is left to find.
            rmw.and(&self.provisional[side][row], !wins);
            settle(&self.settled[side][row], wins);
        }
        if keep.any() && rmw.or_first(&self.news[par][side][row], keep) {
            rmw.or64(&self.summary[par][side][row / 64], 1 << (row % 64));
        }
    }

    /// Hands a thread's seeds (per distance: `(row, side, bits)`; per slice and distance when
    /// the first level's slices are seeded together) to the shared lists, one lock per list.
    pub(super) fn defer(&self, filed: &mut [Filed<W>]) {
        for (due, list) in filed.iter_mut().enumerate() {
            if list.is_empty() {
                continue;
            }
            self.later[due.min(self.later.len() - 1)]
                .lock()
                .push(std::mem::take(list));
        }
    }
}
