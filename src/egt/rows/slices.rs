//! Pawn placements solved apart: the slices a table splits into, what each needs solved
//! first ([`Needs`]), the board the threads take them from ([`SliceBoard`]), and the sliced
//! solve itself, each slice on one thread from its seed to its end.

use std::sync::atomic::Ordering::Relaxed;

use parking_lot::{Condvar, Mutex};

use crate::egt::counts::SideStats;
use crate::egt::index::Indexer;
use crate::egt::material::MAX_MEN;
use crate::egt::solve::SolveError;
use crate::egt::stats::count_range;
use crate::egt::threads::parallel;
use crate::egt::word::Word;

use super::geometry::Geometry;
use super::later::{later, later_of, Later, LATER};
use super::{Solver, ONE, UNSHARED};

/// The slices (by their place in the solving order, `at[slice]`) whose values the seed of
/// slice `slice` (of `per` rows) reads: those its pawns' moves to an empty square lead to
/// (captures and promotions lead to sub-tables). `None` when a move's slice is not told by
/// its row alone (it leaves the first man's region and is mapped back): the slice then
/// waits for every lower level. A move leads to a lower level, solved earlier; one that
/// did not would wait for ever, so it too falls back on the levels.
pub(super) fn slice_needs<W: Word>(
    geo: &Geometry<W>,
    ix: &Indexer,
    per: usize,
    slice: usize,
    at: &[usize],
) -> Option<Vec<usize>> {
    let mut squares = [0u8; MAX_MEN];
    let row = slice * per;
    geo.decode(ix, row, &mut squares);
    let own = *at.get(slice)?;
    let mut out = Vec::new();
    for i in 0..geo.heights.len() {
        let base = geo.base(ix, row, &squares, i);
        for st in geo.hits[i][squares[i] as usize]
            .iter()
            .filter(|st| st.pushes)
        {
            let to = geo.step_row(ix, base, &squares, i, st)?;
            out.push(*at.get(to / per).filter(|&&k| k < own)?);
        }
    }
    Some(out)
}

/// What a slice waits for before it is solved (see [`Solver::solve_slices`]).
pub(super) enum Needs {
    /// These slices (by their place in the solving order).
    Slices(Vec<usize>),
    /// Every slice before this place in the solving order.
    Below(usize),
}

/// The slices of a table solved by levels and who has them (see [`Solver::solve_slices`]):
/// per slice in the solving order, waiting, taken or done.
pub(super) struct SliceBoard {
    pub(super) state: Mutex<SliceState>,
    pub(super) changed: Condvar,
}

impl SliceBoard {
    pub(super) fn new(n: usize) -> SliceBoard {
        SliceBoard {
            state: Mutex::new(SliceState {
                slices: vec![WAITING; n],
                prefix: 0,
                done: 0,
                failed: None,
            }),
            changed: Condvar::new(),
        }
    }

    /// The first waiting slice whose needs are done, taken; waits while every waiting one
    /// needs one not done yet; `None` when none is left (or one failed).
    pub(super) fn take(&self, needs: &[Needs]) -> Option<usize> {
        let mut st = self.state.lock();
        loop {
            if st.failed.is_some() {
                return None;
            }
            let ready = |st: &SliceState, k: usize| match &needs[k] {
                Needs::Slices(list) => list.iter().all(|&j| st.slices[j] == DONE),
                Needs::Below(n) => st.prefix >= *n,
            };
            let mut left = false;
            for k in st.prefix..st.slices.len() {
                if st.slices[k] != WAITING {
                    continue;
                }
                left = true;
                if ready(&st, k) {
                    st.slices[k] = TAKEN;
                    return Some(k);
                }
            }
            if !left {
                return None;
            }
            self.changed.wait(&mut st);
        }
    }

    /// Marks slice `k` done (or the solve failed); returns how many are done.
    pub(super) fn finish(&self, k: usize, failed: Option<SolveError>) -> usize {
        let mut st = self.state.lock();
        st.slices[k] = DONE;
        st.done += 1;
        while st.prefix < st.slices.len() && st.slices[st.prefix] == DONE {
            st.prefix += 1;
        }
        if st.failed.is_none() {
            st.failed = failed;
        }
        self.changed.notify_all();
        st.done
    }

    /// True when slice `k` is solved.
    pub(super) fn is_done(&self, k: usize) -> bool {
        self.state.lock().slices[k] == DONE
    }

    pub(super) fn result(self) -> Result<(), SolveError> {
        match self.state.into_inner().failed {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

pub(super) struct SliceState {
    /// Per slice: 0 waiting, 1 taken, 2 done.
    pub(super) slices: Vec<u8>,
    /// The slices before this place are all done.
    pub(super) prefix: usize,
    pub(super) done: usize,
    /// The first failure: no slice is taken after it.
    pub(super) failed: Option<SolveError>,
}

pub(super) const WAITING: u8 = 0;

pub(super) const TAKEN: u8 = 1;

pub(super) const DONE: u8 = 2;

impl<'a, W: Word> Solver<'a, W> {
    /// When the table is solved by levels (see `heights`) and each placement of the pawns
    /// (a slice: the rows of one value of the pawns' factors, which lead the index) is a
    /// whole number of `summary` words and holds no first man some symmetry keeps in place
    /// (whose images would be another slice's rows): the rows per slice, and per level the
    /// slices, the lowest level first. A slice's moves reach only its own rows or lower
    /// levels', so the slices of a level are solved apart, each by one thread.
    pub(super) fn slices(&self) -> Option<(usize, Vec<Vec<usize>>)> {
        let (heights, ix) = (&self.geo.heights, &self.table.index);
        let per = ix.stride_of(heights.len().checked_sub(1)?) / self.geo.len;
        if heights.is_empty() || per % 64 != 0 || ix.domain(0).iter().any(|&s| ix.shared(s)) {
            return None;
        }
        let out = self.by_height((0..self.rows / per).map(|slice| (slice, slice * per)));
        Some((per, out))
    }

    /// Solves the slices of `per` rows each, `levels` of them (see [`Solver::slices`]),
    /// each by one thread from its illegal positions and its seed to its end, with a state
    /// small enough for the cache. A slice waits only for the slices its pawns' moves lead
    /// to (see [`slice_needs`]), not for a whole level: the files of a pawn are
    /// solved side by side, and a thread that finishes early takes the next slice ready.
    pub(super) fn solve_slices(
        &self,
        per: usize,
        levels: &[Vec<usize>],
        progress: &mut dyn FnMut(&str),
    ) -> Result<(), SolveError> {
        let order: Vec<usize> = levels.iter().flatten().copied().collect();
        let mut at = vec![usize::MAX; self.rows / per];
        for (k, &slice) in order.iter().enumerate() {
            at[slice] = k;
        }
        // Per slice in `order`: what it waits for.
        let mut needs = Vec::with_capacity(order.len());
        let mut below = 0;
        for level in levels {
            for &slice in level {
                needs.push(
                    match slice_needs(self.geo, &self.table.index, per, slice, &at) {
                        Some(list) => Needs::Slices(list),
                        None => Needs::Below(below),
                    },
                );
            }
            below += level.len();
        }
        let board = SliceBoard::new(order.len());
        let counted: Mutex<[SideStats; 2]> = Mutex::default();
        let seeded = self.seed_first_level(per, levels.first().map_or(&[], |l| &l[..]));
        let work = |report: &mut dyn FnMut(usize)| {
            while let Some(k) = board.take(&needs) {
                let slice = order[k];
                let mine = seeded.get(slice).and_then(|s| s.lock().take());
                let seed = mine.is_none();
                let one = Solver {
                    // The thread alone writes the slice's rows.
                    threads: &ONE,
                    shared: &UNSHARED,
                    memo: [0, 1].map(|x| self.memo_of(x)),
                    words: slice * per / 64..(slice + 1) * per / 64,
                    later: mine.unwrap_or_else(later),
                    ..*self
                };
                let span = slice * per..(slice + 1) * per;
                let rows: Vec<usize> = span.clone().collect();
                if seed {
                    one.seed_illegal_rows(span.clone());
                    one.seed_values(&rows);
                }
                let solved = one.run(&rows, &mut |_| {});
                if solved.is_ok() {
                    // Final now: counted while its values are in the cache.
                    self.count_slice(span.start * self.geo.len..span.end * self.geo.len, &counted);
                }
                report(board.finish(k, solved.err()));
            }
            // Nothing left to take: while the last slices are solved (alone, a noticeable part of a
            // pawn table's build), this thread writes the parts of the table's file that are final
            // (see `cache::Writer`), the file's write once at the end.
            if let Some(write) = self.idle {
                let span = per * self.geo.len;
                let slices = |r: std::ops::Range<usize>| r.start / span..r.end.div_ceil(span);
                write(&|r| slices(r).all(|s| board.is_done(at[s])));
            }
        };
        let helpers = self.threads.get().min(order.len()).max(1) - 1;
        let total = order.len();
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|| work(&mut |_| {}));
            }
            work(&mut |done| progress(&format!("{done} of {total} pawn placements")));
        });
        board.result()?;
        // Set once: a table is solved once.
        let _ = self.table.counted.set(counted.into_inner());
        Ok(())
    }

    /// Seeds the slices `first` (of `per` rows each; the first level, whose moves leave
    /// only for sub-tables) together on the solve's threads, row by row across the slices:
    /// their rows at one offset differ only in the pawns' squares, and their promotions
    /// read the same lines of each sub-table (the promoted man, the sub-table's last, on
    /// one square per slice of a line; alone, a slice reads one byte of each line). Per
    /// slice, its deferred seeds (see [`Later`]), when the slices were seeded here.
    pub(super) fn seed_first_level(
        &self,
        per: usize,
        first: &[usize],
    ) -> Vec<Mutex<Option<Later<W>>>> {
        let slices = self.rows / per;
        let mut out: Vec<Mutex<Option<Later<W>>>> = (0..slices).map(|_| Mutex::new(None)).collect();
        if first.len() < 2 {
            return out;
        }
        let rows: Vec<usize> = (self.orbit_order(per, first[0]).into_iter())
            .flat_map(|j| first.iter().map(move |&s| s * per + j))
            .collect();
        let joint = Solver {
            later: later_of(first.len()),
            words: self.words.clone(),
            ..*self
        };
        parallel(rows.len(), joint.pass_threads(), |a, b| {
            for &row in &rows[a..b] {
                joint.seed_illegal_rows(row..row + 1);
            }
        });
        // Each slice's seeds are filed in lists of its own (see `seed_values`): handed
        // over whole, where sorting them out after cost a thread a noticeable share of the build.
        let mut place = vec![0; slices];
        for (k, &s) in first.iter().enumerate() {
            place[s] = k;
        }
        joint.seed_values_in(&rows, Some((per, &place)));
        let mut lists = joint.later.into_iter();
        for &s in first {
            out[s] = Mutex::new(Some(lists.by_ref().take(LATER).collect()));
        }
        out
    }

    /// The offsets of a slice's `per` rows (slice `slice`'s as a sample) with those whose
    /// first man after the pawns stands on squares the board's symmetries map onto each
    /// other side by side: a promotion's sub-table, without pawns, is indexed on that man's
    /// square up to those symmetries, so these rows read the same block of it (a few hundred
    /// kilobytes, kept in the core's cache) where in their own order they read a block 8
    /// times at different moments.
    pub(super) fn orbit_order(&self, per: usize, slice: usize) -> Vec<usize> {
        let pawns = self.geo.heights.len();
        let mut order: Vec<usize> = (0..per).collect();
        if pawns + 1 >= self.geo.men {
            return order;
        }
        let maps = &self.table.rules.board.maps;
        let orbit = |sq: u8| maps.iter().map(|map| map[sq as usize]).min().unwrap_or(sq);
        let mut squares = [0u8; MAX_MEN];
        let keys: Vec<u8> = (0..per)
            .map(|j| {
                self.decode(slice * per + j, &mut squares);
                orbit(squares[pawns])
            })
            .collect();
        order.sort_by_key(|&j| keys[j]);
        order
    }

    /// Adds the statistics' counts of the entries `range` of both sides (a solved slice)
    /// to `counted` (see `Table::counted`).
    pub(super) fn count_slice(
        &self,
        range: std::ops::Range<usize>,
        counted: &Mutex<[SideStats; 2]>,
    ) {
        let first = range.start / 64;
        let parts = [0, 1].map(|stm| {
            let words: Vec<u64> = self.stuck[stm][first..range.end.div_ceil(64)]
                .iter()
                .map(|w| w.load(Relaxed))
                .collect();
            count_range(self.table, stm, range.clone(), Some((&words, first)))
        });
        for (total, part) in counted.lock().iter_mut().zip(&parts) {
            total.merge(part);
        }
    }
}
