//! The order tables are filled in: each after the tables it converts into, and tables that
//! do not depend on each other at the same time, one thread each. Small tables gain little
//! from a second thread (their passes are short), two of them side by side almost twice.
//! A thread with no table ready to start is lent to a running one (see `threads`) until a
//! table is ready for it: otherwise it would idle while the last tables of a stage run.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

use super::solve::Table;
use super::threads::Threads;

/// Where a table stands.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    Waiting,
    Running,
    Done,
}

/// The shared state of a run.
struct Board<E> {
    stage: Vec<Stage>,
    error: Option<E>,
    /// Per table: its entries plus the most of any chain of tables waiting on it (see
    /// [`critical_paths`]); the ready table with the most starts first.
    rank: Vec<usize>,
}

impl<E> Board<E> {
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

    /// A running table that can use one thread more: of those, the one with the longest
    /// chain of work after it.
    fn borrower(&self, lent: &[Threads], threads: usize) -> Option<usize> {
        (0..self.stage.len())
            .filter(|&i| self.stage[i] == Stage::Running && lent[i].get() < threads)
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
pub fn run<E: Send>(
    tables: &[Arc<Table>],
    threads: usize,
    fill: impl Fn(&Table, &Threads) -> Result<(), E> + Sync,
) -> Result<(), E> {
    if threads <= 1 || tables.len() <= 1 {
        let all = Threads::new(threads);
        return tables.iter().try_for_each(|t| fill(t, &all));
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
    let lent: Vec<Threads> = tables.iter().map(|_| Threads::new(1)).collect();
    let shared = Shared {
        deps: &deps,
        threads,
        board: &board,
        changed: &changed,
        lent: &lent,
    };
    std::thread::scope(|scope| {
        for _ in 0..threads.min(tables.len()) {
            scope.spawn(|| worker(tables, &shared, &fill));
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

/// What the threads of [`run`] share.
struct Shared<'a, E> {
    deps: &'a [Vec<usize>],
    threads: usize,
    board: &'a Mutex<Board<E>>,
    changed: &'a Condvar,
    /// Per table, the threads its solve uses now.
    lent: &'a [Threads],
}

/// One thread of [`run`]: takes ready tables until all are done; while none is ready, its
/// thread is lent to a running table.
fn worker<E: Send>(
    tables: &[Arc<Table>],
    s: &Shared<E>,
    fill: &(impl Fn(&Table, &Threads) -> Result<(), E> + Sync),
) {
    let (deps, threads) = (s.deps, s.threads);
    let mut b = s.board.lock().unwrap_or_else(PoisonError::into_inner);
    let mut lent_to: Option<usize> = None;
    loop {
        // Something changed: the thread is free again (harmless when that table is done).
        if let Some(j) = lent_to.take() {
            s.lent[j].take_back();
        }
        if b.finished() {
            return;
        }
        let Some(i) = b.ready(deps) else {
            lent_to = b.borrower(s.lent, threads);
            if let Some(j) = lent_to {
                s.lent[j].lend();
            }
            b = s.changed.wait(b).unwrap_or_else(PoisonError::into_inner);
            continue;
        };
        b.stage[i] = Stage::Running;
        s.lent[i].set(b.threads_for(i, deps, threads));
        drop(b);
        let result = fill(&tables[i], &s.lent[i]);
        b = s.board.lock().unwrap_or_else(PoisonError::into_inner);
        b.stage[i] = Stage::Done;
        if let Err(e) = result {
            b.error.get_or_insert(e);
        }
        s.changed.notify_all();
    }
}
