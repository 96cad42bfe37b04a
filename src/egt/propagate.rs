//! The retrograde driver: a seed pass over every position, then per distance `p` two passes
//! over the positions decided at `p` (kept in per-distance lists, so no pass rescans the
//! table): losses in `p` make their predecessors won in `p + 1`; wins in `p` close one escape
//! of each undecided predecessor (see `escapes`), which is lost when none is left.

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;

use super::escapes::{predecessors_once, VERIFY};
use super::material::MAX_MEN;
use super::solve::{SolveError, Table};
use super::value::{is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES};

/// Most positions handed to a thread at a time.
const CHUNK: usize = 1 << 14;

/// Fewest positions handed to a thread at a time.
const MIN_CHUNK: usize = 64;

/// Chunks per thread a pass is cut into at least, so that threads finish together.
const CHUNKS_PER_THREAD: usize = 16;

/// Runs `work(start, end)` over `0..size` in chunks on `threads` threads.
pub fn parallel(size: usize, threads: usize, work: impl Fn(usize, usize) + Sync) {
    let threads = threads.max(1);
    if threads == 1 || size <= MIN_CHUNK {
        work(0, size);
        return;
    }
    let chunk = (size / (threads * CHUNKS_PER_THREAD)).clamp(MIN_CHUNK, CHUNK);
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let start = next.fetch_add(chunk, Relaxed);
                if start >= size {
                    break;
                }
                work(start, (start + chunk).min(size));
            });
        }
    });
}

/// A decided position waiting to be expanded: `index << 1 | side to move`.
type Entry = u64;

fn entry(idx: usize, stm: usize) -> Entry {
    (idx as Entry) << 1 | stm as Entry
}

/// Positions decided at each distance, in plies, still to be expanded.
struct Buckets {
    lists: Vec<Mutex<Vec<Entry>>>,
}

impl Buckets {
    fn new() -> Buckets {
        Buckets {
            lists: (0..=MAX_PLIES as usize + 4)
                .map(|_| Mutex::new(Vec::new()))
                .collect(),
        }
    }

    /// Files a thread's finds (`(distance, entry)`) and empties its buffer.
    fn add(&self, found: &mut Vec<(u8, Entry)>) {
        found.sort_unstable_by_key(|f| f.0);
        for group in found.chunk_by(|a, b| a.0 == b.0) {
            let d = (group[0].0 as usize).min(self.lists.len() - 1);
            if let Ok(mut list) = self.lists[d].lock() {
                list.extend(group.iter().map(|f| f.1));
            }
        }
        found.clear();
    }

    fn take(&self, d: u8) -> Vec<Entry> {
        self.lists[d as usize]
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default()
    }

    fn deepest(&self) -> u8 {
        (0..self.lists.len())
            .rev()
            .find(|&d| self.lists[d].lock().map(|l| !l.is_empty()).unwrap_or(false))
            .unwrap_or(0) as u8
    }
}

/// Escape counters per side to move (see `escapes`), kept while solving.
pub type Counters = [Vec<AtomicU8>; 2];

/// The state of one solve shared by the passes.
struct Solver<'a> {
    table: &'a Table,
    threads: usize,
    buckets: Buckets,
    counts: Counters,
    /// Positions whose value was given from outside: never changed.
    fixed: HashSet<Entry>,
    /// Some position has too many successors to count and is verified instead.
    verifying: bool,
}

/// Solves `table` in place; `progress` is told each finished distance.
pub fn solve(
    table: &Table,
    threads: usize,
    presets: &[(usize, usize, u8)],
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    solve_counted(table, threads, presets, progress).map(|_| ())
}

/// [`solve`], returning the escape counters as they stand at the end (for checking them
/// against a recount).
pub fn solve_counted(
    table: &Table,
    threads: usize,
    presets: &[(usize, usize, u8)],
    progress: &mut dyn FnMut(&str),
) -> Result<Counters, SolveError> {
    let solver = Solver::seeded(table, threads, presets);
    progress("seeded");
    let mut p: u8 = 0;
    loop {
        solver.propagate(&mut p, progress)?;
        if !table.rules.game.perpetual_check_loses {
            return Ok(solver.counts);
        }
        // Positions held only by perpetual check become losses where propagation stopped.
        let q = p + (p & 1);
        let mut found = 0;
        for violator in 0..2 {
            let mut lost = super::perpetual::losses(table, violator);
            lost.retain(|&i| !solver.fixed.contains(&entry(i, violator)));
            found += lost.len();
            let mut entries: Vec<(u8, Entry)> = lost
                .into_iter()
                .map(|i| {
                    table.values[violator][i].store(loss(q), Relaxed);
                    (q, entry(i, violator))
                })
                .collect();
            solver.buckets.add(&mut entries);
        }
        progress(&format!(
            "{found} positions lost to the perpetual-check ban"
        ));
        if found == 0 {
            return Ok(solver.counts);
        }
        p = q;
    }
}

impl<'a> Solver<'a> {
    /// The seed pass over both sides, then the presets.
    fn seeded(table: &'a Table, threads: usize, presets: &[(usize, usize, u8)]) -> Solver<'a> {
        let size = table.index.size;
        let m = table.men();
        let buckets = Buckets::new();
        let counts: Counters = [0, 1].map(|_| (0..size).map(|_| AtomicU8::new(0)).collect());
        let verifying = AtomicBool::new(false);
        for (stm, side) in counts.iter().enumerate() {
            parallel(size, threads, |a, b| {
                let mut sq = [0u8; MAX_MEN];
                let mut found = Vec::new();
                table.index.decode(a, &mut sq[..m]);
                for (idx, counter) in (a..b).zip(&side[a..b]) {
                    let seed = table.seed_counted(&sq[..m], stm, Some(idx));
                    table.values[stm][idx].store(seed.code, Relaxed);
                    counter.store(seed.count, Relaxed);
                    if seed.count == VERIFY {
                        verifying.store(true, Relaxed);
                    }
                    if seed.code != DRAW && seed.code != ILLEGAL {
                        found.push((plies(seed.code), entry(idx, stm)));
                    }
                    table.index.advance(&mut sq[..m]);
                }
                buckets.add(&mut found);
            });
        }
        let mut given = Vec::new();
        for &(stm, idx, code) in presets {
            // A preset equal to the seed is already listed: listing it twice would close
            // its predecessors' escapes twice.
            let old = table.values[stm][idx].swap(code, Relaxed);
            if code != DRAW && code != ILLEGAL && old != code {
                given.push((plies(code), entry(idx, stm)));
            }
        }
        buckets.add(&mut given);
        Solver {
            table,
            threads,
            buckets,
            counts,
            fixed: presets
                .iter()
                .map(|&(stm, idx, _)| entry(idx, stm))
                .collect(),
            verifying: verifying.into_inner(),
        }
    }

    fn is_fixed(&self, idx: usize, stm: usize) -> bool {
        !self.fixed.is_empty() && self.fixed.contains(&entry(idx, stm))
    }

    /// Ordinary propagation from distance `at` until no distance is left to expand.
    fn propagate(&self, at: &mut u8, progress: &mut dyn FnMut(&str)) -> Result<(), SolveError> {
        let table = self.table;
        // Verified candidates found not lost in this pass: their successors cannot change
        // within the pass, so one verification each is enough.
        let words = if self.verifying {
            table.index.size / 64 + 1
        } else {
            0
        };
        let refuted: [Vec<AtomicU64>; 2] =
            [0, 1].map(|_| (0..words).map(|_| AtomicU64::new(0)).collect());
        while *at <= self.buckets.deepest() {
            let p = *at;
            for w in refuted.iter().flatten() {
                w.store(0, Relaxed);
            }
            if p >= MAX_PLIES {
                return Err(SolveError::TooDeep(table.name.clone()));
            }
            let current = self.buckets.take(p);
            self.expand_losses(&current, p);
            self.expand_wins(&current, p, &refuted);
            progress(&format!("distance {p}"));
            *at += 1;
        }
        Ok(())
    }

    /// Losses in `p` make their predecessors wins in `p + 1`.
    fn expand_losses(&self, current: &[Entry], p: u8) {
        let table = self.table;
        let m = table.men();
        parallel(current.len(), self.threads, |a, b| {
            let mut sq = [0u8; MAX_MEN];
            let mut found = Vec::new();
            for &e in &current[a..b] {
                let (idx, stm) = ((e >> 1) as usize, (e & 1) as usize);
                if table.values[stm][idx].load(Relaxed) != loss(p) {
                    continue;
                }
                table.index.decode(idx, &mut sq[..m]);
                table.predecessors_at(&sq[..m], stm, Some(idx), |pi| {
                    let cell = &table.values[1 - stm][pi];
                    let cur = cell.load(Relaxed);
                    let better = cur == DRAW || (is_win(cur) && plies(cur) > p + 1);
                    if better
                        && !self.is_fixed(pi, 1 - stm)
                        && cell
                            .compare_exchange(cur, win(p + 1), Relaxed, Relaxed)
                            .is_ok()
                    {
                        found.push((p + 1, entry(pi, 1 - stm)));
                    }
                });
            }
            self.buckets.add(&mut found);
        });
    }

    /// Wins in `p` close an escape of each undecided predecessor; one left without escapes
    /// is lost. Predecessors with too many successors to count are verified move by move.
    fn expand_wins(&self, current: &[Entry], p: u8, refuted: &[Vec<AtomicU64>; 2]) {
        let table = self.table;
        let m = table.men();
        parallel(current.len(), self.threads, |a, b| {
            let mut sq = [0u8; MAX_MEN];
            let mut pre = [0u8; MAX_MEN];
            let mut preds = Vec::new();
            let mut found = Vec::new();
            for &e in &current[a..b] {
                let (idx, stm) = ((e >> 1) as usize, (e & 1) as usize);
                if table.values[stm][idx].load(Relaxed) != win(p) {
                    continue;
                }
                table.index.decode(idx, &mut sq[..m]);
                predecessors_once(table, &sq[..m], stm, idx, &mut preds);
                let them = 1 - stm;
                for &pi in &preds {
                    let cell = &table.values[them][pi];
                    if cell.load(Relaxed) != DRAW || self.is_fixed(pi, them) {
                        continue;
                    }
                    let counter = &self.counts[them][pi];
                    let deepest = if counter.load(Relaxed) == VERIFY {
                        let (word, mask) = (&refuted[them][pi / 64], 1u64 << (pi % 64));
                        if word.load(Relaxed) & mask != 0 {
                            continue;
                        }
                        table.index.decode(pi, &mut pre[..m]);
                        let verdict = table.all_lose(&pre[..m], them, p + 1, Some(pi));
                        if verdict.is_none() {
                            word.fetch_or(mask, Relaxed);
                        }
                        verdict
                    } else if counter.fetch_sub(1, Relaxed) == 1 {
                        // Every successor inside the table is won in at most p plies.
                        table.index.decode(pi, &mut pre[..m]);
                        Some(p.max(table.conversion_depth(&pre[..m], them, Some(pi))))
                    } else {
                        None
                    };
                    if let Some(d) = deepest {
                        let code = loss((d + 1).min(MAX_PLIES));
                        if cell.compare_exchange(DRAW, code, Relaxed, Relaxed).is_ok() {
                            found.push((plies(code), entry(pi, them)));
                        }
                    }
                }
            }
            self.buckets.add(&mut found);
        });
    }
}
