//! The order tables are filled in: each after the tables it converts into, and tables that
//! do not depend on each other at the same time, one thread each. Small tables gain little
//! from a second thread (their passes are short), two of them side by side almost twice.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::solve::Table;
use super::EgtError;

/// Where a table stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Waiting,
    Running,
    Done,
}

/// The shared state of a run.
struct Board {
    stage: Vec<Stage>,
    error: Option<EgtError>,
    /// Per table: its entries plus the most of any chain of tables waiting on it (see
    /// [`critical_paths`]); the ready table with the most starts first.
    rank: Vec<usize>,
}

impl Board {
    /// True when table `i` waits and its sub-tables are all done.
    fn can_start(&self, i: usize, deps: &[Vec<usize>]) -> bool {
        self.stage[i] == Stage::Waiting && deps[i].iter().all(|&j| self.stage[j] == Stage::Done)
    }

    /// A waiting table whose sub-tables are all done: of those, the one with the longest
    /// chain of work after it.
    fn ready(&self, deps: &[Vec<usize>]) -> Option<usize> {
        (0..self.stage.len())
            .filter(|&i| self.can_start(i, deps))
            .max_by_key(|&i| (self.rank[i], usize::MAX - i))
    }

    fn finished(&self) -> bool {
        self.error.is_some() || self.stage.iter().all(|&s| s == Stage::Done)
    }

    /// Threads for a table started now: all of them when no other table is running or
    /// could start (nothing else to do meanwhile), else one.
    fn threads_for(&self, started: usize, deps: &[Vec<usize>], threads: usize) -> usize {
        let others = (0..self.stage.len())
            .any(|i| i != started && (self.stage[i] == Stage::Running || self.can_start(i, deps)));
        if others {
            1
        } else {
            threads
        }
    }
}

/// Fills `tables` (each listed after the tables among them it converts into) with `fill(table,
/// threads)` on `threads` threads in all; stops at the first error.
pub fn run(
    tables: &[Arc<Table>],
    threads: usize,
    fill: impl Fn(&Table, usize) -> Result<(), EgtError> + Sync,
) -> Result<(), EgtError> {
    if threads <= 1 || tables.len() <= 1 {
        return tables.iter().try_for_each(|t| fill(t, threads.max(1)));
    }
    let deps: Vec<Vec<usize>> = tables
        .iter()
        .map(|t| {
            (0..tables.len())
                .filter(|&j| {
                    t.convs
                        .iter()
                        .flatten()
                        .any(|c| Arc::ptr_eq(&c.table, &tables[j]))
                })
                .collect()
        })
        .collect();
    let board = Mutex::new(Board {
        stage: vec![Stage::Waiting; tables.len()],
        error: None,
        rank: critical_paths(tables, &deps),
    });
    let changed = Condvar::new();
    std::thread::scope(|scope| {
        for _ in 0..threads.min(tables.len()) {
            scope.spawn(|| worker(tables, &deps, threads, (&board, &changed), &fill));
        }
    });
    let board = board.into_inner().unwrap_or_else(PoisonError::into_inner);
    board.error.map_or(Ok(()), Err)
}

/// Per table, its entries (the work of solving it, roughly) plus the most entries of any
/// chain of tables that wait on it, up to the last: starting the longest chain first keeps
/// a thread from idling at the end while one table's chain runs alone (a list scheduler's
/// critical-path rule). Tables are listed after their sub-tables.
fn critical_paths(tables: &[Arc<Table>], deps: &[Vec<usize>]) -> Vec<usize> {
    let mut rank = vec![0; tables.len()];
    for i in (0..tables.len()).rev() {
        let after = (i + 1..tables.len())
            .filter(|&j| deps[j].contains(&i))
            .map(|j| rank[j])
            .max()
            .unwrap_or(0);
        rank[i] = tables[i].index.size + after;
    }
    rank
}

/// One thread of [`run`]: takes ready tables until all are done.
fn worker(
    tables: &[Arc<Table>],
    deps: &[Vec<usize>],
    threads: usize,
    (board, changed): (&Mutex<Board>, &Condvar),
    fill: &(impl Fn(&Table, usize) -> Result<(), EgtError> + Sync),
) {
    let mut b = board.lock().unwrap_or_else(PoisonError::into_inner);
    loop {
        if b.finished() {
            return;
        }
        let Some(i) = b.ready(deps) else {
            b = changed.wait(b).unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        b.stage[i] = Stage::Running;
        let n = b.threads_for(i, deps, threads);
        drop(b);
        let result = fill(&tables[i], n);
        b = board.lock().unwrap_or_else(PoisonError::into_inner);
        b.stage[i] = Stage::Done;
        if let Err(e) = result {
            b.error.get_or_insert(e);
        }
        changed.notify_all();
    }
}
