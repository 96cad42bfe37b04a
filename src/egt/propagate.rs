//! The retrograde driver: a seed pass over every position, then per distance `p` two passes
//! over the positions decided at `p` (kept in per-distance lists, so no pass rescans the
//! table): losses in `p` make their predecessors won in `p + 1`; wins in `p` close one escape
//! of each undecided predecessor (see `escapes`), which is lost when none is left.

use std::collections::HashSet;
use std::sync::atomic::Ordering::{AcqRel, Acquire, Relaxed, Release};
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Mutex;

use super::escapes::{
    counter_byte, counter_of, for_predecessors_once, COUNTER_STEP, LAST_ESCAPE, MAX_COUNT, NONE,
    UNCOUNTED_BYTE, VERIFY, VERIFY_BYTE,
};
use super::material::MAX_MEN;
use super::solve::{IdleWork, SolveError, Table};
use super::threads::{parallel, Threads};
use super::value::{is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES};
use super::word::zeroed_words;

/// A decided position waiting to be expanded: `index << 1 | side to move`.
type Entry = u64;

fn entry(idx: usize, stm: usize) -> Entry {
    (idx as Entry) << 1 | stm as Entry
}

/// Positions decided at each distance, in plies, still to be expanded, as 32-bit words: one
/// per entry, or two (high half first) on tables whose entries need more than 32 bits.
struct Buckets {
    lists: Vec<Mutex<Vec<u32>>>,
    wide: bool,
}

impl Buckets {
    fn new(size: usize) -> Buckets {
        Buckets {
            lists: (0..=MAX_PLIES as usize + 4)
                .map(|_| Mutex::new(Vec::new()))
                .collect(),
            wide: entry(size, 1) > u32::MAX as Entry,
        }
    }

    /// Files a thread's finds (`(distance, entry)`) and empties its buffer.
    fn add(&self, found: &mut Vec<(u8, Entry)>) {
        found.sort_unstable_by_key(|f| f.0);
        for group in found.chunk_by(|a, b| a.0 == b.0) {
            let distance = (group[0].0 as usize).min(self.lists.len() - 1);
            if let Ok(mut list) = self.lists[distance].lock() {
                for &(_, e) in group {
                    if self.wide {
                        list.push((e >> 32) as u32);
                    }
                    list.push(e as u32);
                }
            }
        }
        found.clear();
    }

    fn take(&self, distance: u8) -> Current {
        let words = self.lists[distance as usize]
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default();
        Current {
            words,
            wide: self.wide,
        }
    }

    fn deepest(&self) -> u8 {
        (0..self.lists.len())
            .rev()
            .find(|&d| self.lists[d].lock().map(|l| !l.is_empty()).unwrap_or(false))
            .unwrap_or(0) as u8
    }
}

/// The entries of one distance, taken out of [`Buckets`] to be expanded.
struct Current {
    words: Vec<u32>,
    wide: bool,
}

impl Current {
    fn len(&self) -> usize {
        if self.wide {
            self.words.len() / 2
        } else {
            self.words.len()
        }
    }

    #[inline]
    fn get(&self, k: usize) -> Entry {
        if self.wide {
            (self.words[2 * k] as Entry) << 32 | self.words[2 * k + 1] as Entry
        } else {
            self.words[k] as Entry
        }
    }

    /// Puts the entries in index order: neighbouring entries have neighbouring predecessors,
    /// so fewer cache misses on large tables. (Wide entries are left as they are.)
    fn sort(&mut self) {
        if !self.wide {
            self.words.sort_unstable();
        }
    }
}

/// The escape counters of the positions left undecided when solving ended, as
/// `(side to move, index, counter)` (see `escapes`), for checking them against a recount.
pub type Counters = Vec<(usize, usize, u8)>;

/// The state of one solve shared by the passes.
struct Solver<'a> {
    table: &'a Table,
    /// Read at the start of each pass (the schedule may lend the solve one).
    threads: &'a Threads,
    buckets: Buckets,
    /// Positions whose value was given from outside: never changed.
    fixed: HashSet<Entry>,
    /// Some position has too many successors to count and is verified instead.
    verifying: bool,
    /// Escapes are counted when first needed, not by the seed pass (every position's count
    /// fits a counter).
    lazy: bool,
}

/// True when [`solve`] gives `table` to the row solver (`presets`: it has some), which
/// needs none of the bits of undecided positions (`Table::open`).
pub fn by_rows(table: &Table, presets: bool) -> bool {
    !presets && super::rows::eligible(table)
}

/// Solves `table` in place; `progress` is told each finished distance. Tables of plain
/// leapers and sliders without presets go to the row solver (`rows`; those with pawns hold
/// them first, see `layout`), the rest to [`solve_general`].
pub fn solve(
    table: &Table,
    threads: &Threads,
    presets: &[(usize, usize, u8)],
    idle: Option<IdleWork>,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    if by_rows(table, !presets.is_empty()) {
        return super::rows::solve_lent(table, threads, idle, progress);
    }
    run(table, threads, presets, progress, false).map(|_| ())
}

/// An oracle for the tests (tests/egt.rs), not used by a build: [`solve`] through the
/// general driver only, whatever the pieces (the twin of the row solver).
pub fn solve_general(
    table: &Table,
    threads: usize,
    presets: &[(usize, usize, u8)],
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    run(table, &Threads::new(threads), presets, progress, false).map(|_| ())
}

/// An oracle for the tests (tests/egt.rs), not used by a build: [`solve`], returning the
/// escape counters of the positions left undecided.
pub fn solve_counted(
    table: &Table,
    threads: usize,
    presets: &[(usize, usize, u8)],
    progress: &mut dyn FnMut(&str),
) -> Result<Counters, SolveError> {
    run(table, &Threads::new(threads), presets, progress, true)
}

fn run(
    table: &Table,
    threads: &Threads,
    presets: &[(usize, usize, u8)],
    progress: &mut dyn FnMut(&str),
    keep_counters: bool,
) -> Result<Counters, SolveError> {
    if table.en_passant() {
        return Err(SolveError::EnPassant(table.name.clone()));
    }
    let solver = Solver::seeded(table, threads, presets);
    progress("seeded");
    let mut distance: u8 = 0;
    loop {
        solver.propagate(&mut distance, progress)?;
        if !table.rules.game.perpetual_check_loses
            || solver.perpetual_losses(&mut distance, progress) == 0
        {
            return Ok(solver.finish(keep_counters));
        }
    }
}

impl<'a> Solver<'a> {
    /// The seed pass over both sides, then the presets.
    fn seeded(
        table: &'a Table,
        threads: &'a Threads,
        presets: &[(usize, usize, u8)],
    ) -> Solver<'a> {
        let size = table.index.size;
        let men = table.men();
        let buckets = Buckets::new(size);
        let verifying = AtomicBool::new(false);
        let lazy = table.escape_bound() <= MAX_COUNT;
        for (stm, side) in table.values.iter().enumerate() {
            parallel(size, threads.get(), |a, b| {
                let mut sq = [0u8; MAX_MEN];
                let mut found = Vec::new();
                let mut bits = OpenBits::new(&table.open[stm], a);
                table.index.decode(a, &mut sq[..men]);
                for (idx, cell) in (a..b).zip(&side[a..b]) {
                    let seed = if lazy {
                        table.seed_lazy(&sq[..men], stm, Some(idx))
                    } else {
                        table.seed_counted(&sq[..men], stm, Some(idx))
                    };
                    let open = seed.code == DRAW && seed.count != NONE;
                    if open {
                        cell.store(counter_byte(seed.count), Relaxed);
                        bits.set(idx);
                    } else {
                        cell.store(seed.code, Relaxed);
                    }
                    if seed.count == VERIFY {
                        verifying.store(true, Relaxed);
                    }
                    if seed.code != DRAW && seed.code != ILLEGAL {
                        found.push((plies(seed.code), entry(idx, stm)));
                    }
                    table.index.advance(&mut sq[..men]);
                }
                bits.flush();
                buckets.add(&mut found);
            });
        }
        let solver = Solver {
            table,
            threads,
            buckets,
            fixed: presets
                .iter()
                .map(|&(stm, idx, _)| entry(idx, stm))
                .collect(),
            verifying: verifying.into_inner(),
            lazy,
        };
        let mut given = Vec::new();
        for &(stm, idx, code) in presets {
            let old = table.value(stm, idx);
            solver.take(stm, idx);
            table.values[stm][idx].store(code, Release);
            // A preset equal to the seed is already listed: listing it twice would close
            // its predecessors' escapes twice.
            if code != DRAW && code != ILLEGAL && old != code {
                given.push((plies(code), entry(idx, stm)));
            }
        }
        solver.buckets.add(&mut given);
        solver
    }

    /// Clears the open bit of a position; true for the one caller that found it set, who
    /// then owns the position and stores its code.
    #[inline]
    fn take(&self, stm: usize, idx: usize) -> bool {
        let mask = 1u64 << (idx % 64);
        self.table.open[stm][idx / 64].fetch_and(!mask, AcqRel) & mask != 0
    }

    /// Positions held only by perpetual check become losses where propagation stopped
    /// (`at`, moved on to an even distance); returns how many.
    fn perpetual_losses(&self, at: &mut u8, progress: &mut dyn FnMut(&str)) -> usize {
        let due = *at + (*at & 1);
        let mut found = 0;
        for violator in 0..2 {
            let mut lost = super::perpetual::losses(self.table, violator, self.threads.get());
            lost.retain(|&i| !self.fixed.contains(&entry(i, violator)));
            let mut entries: Vec<(u8, Entry)> = lost
                .into_iter()
                .filter(|&i| self.take(violator, i))
                .map(|i| {
                    self.table.values[violator][i].store(loss(due), Release);
                    (due, entry(i, violator))
                })
                .collect();
            found += entries.len();
            self.buckets.add(&mut entries);
        }
        progress(&format!(
            "{found} positions lost to the perpetual-check ban"
        ));
        *at = due;
        found
    }

    /// Positions still open are draws: their counters (kept if asked) give way to `DRAW`.
    fn finish(&self, keep_counters: bool) -> Counters {
        let table = self.table;
        let mut kept = Vec::new();
        for stm in 0..2 {
            for (w, word) in table.open[stm].iter().enumerate() {
                let mut bits = word.swap(0, AcqRel);
                while bits != 0 {
                    let idx = w * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let byte = table.values[stm][idx].swap(DRAW, Release);
                    if keep_counters {
                        kept.push((stm, idx, counter_of(byte)));
                    }
                }
            }
        }
        kept
    }

    /// A position whose escapes are verified, not counted: lost when every move leads to a
    /// win for the opponent no deeper than `p + 1` plies. The thread that clears its bit
    /// stores the code.
    fn verify(
        &self,
        stm: usize,
        idx: usize,
        distance: u8,
        refuted: &[Vec<AtomicU64>; 2],
        found: &mut Vec<(u8, Entry)>,
    ) {
        let table = self.table;
        let (word, mask) = (refuted[stm].get(idx / 64), 1u64 << (idx % 64));
        if word.is_some_and(|w| w.load(Relaxed) & mask != 0) {
            return;
        }
        let men = table.men();
        let mut sq = [0u8; MAX_MEN];
        table.index.decode(idx, &mut sq[..men]);
        let Some(d) = table.all_lose(&sq[..men], stm, distance + 1, Some(idx)) else {
            if let Some(w) = word {
                w.fetch_or(mask, Relaxed);
            }
            return;
        };
        let code = loss((d + 1).min(MAX_PLIES));
        if self.take(stm, idx) {
            table.values[stm][idx].store(code, Release);
            found.push((plies(code), entry(idx, stm)));
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
        let refuted: [Vec<AtomicU64>; 2] = [0, 1].map(|_| zeroed_words(words));
        while *at <= self.buckets.deepest() {
            let distance = *at;
            for w in refuted.iter().flatten() {
                w.store(0, Relaxed);
            }
            if distance >= MAX_PLIES {
                return Err(SolveError::TooDeep(table.name.clone()));
            }
            let mut current = self.buckets.take(distance);
            current.sort();
            self.expand_losses(&current, distance);
            self.expand_wins(&current, distance, &refuted);
            progress(&format!("distance {distance}"));
            *at += 1;
        }
        Ok(())
    }

    /// Losses in `distance` make their predecessors wins in `distance + 1`.
    fn expand_losses(&self, current: &Current, distance: u8) {
        let table = self.table;
        let men = table.men();
        parallel(current.len(), self.threads.get(), |a, b| {
            let mut sq = [0u8; MAX_MEN];
            let mut found = Vec::new();
            for e in (a..b).map(|k| current.get(k)) {
                let (idx, stm) = ((e >> 1) as usize, (e & 1) as usize);
                if table.values[stm][idx].load(Relaxed) != loss(distance) {
                    continue;
                }
                table.index.decode(idx, &mut sq[..men]);
                table.predecessors_at(&sq[..men], stm, Some(idx), |pi| {
                    let them = 1 - stm;
                    if self.is_fixed(pi, them) {
                        return;
                    }
                    let cell = &table.values[them][pi];
                    // An undecided position's byte is odd: read just as another thread
                    // decides it, it looks like a loss and is left alone.
                    let won = if table.is_open(them, pi) {
                        self.take(them, pi) && {
                            cell.store(win(distance + 1), Release);
                            true
                        }
                    } else {
                        let cur = cell.load(Acquire);
                        is_win(cur)
                            && plies(cur) > distance + 1
                            && cell
                                .compare_exchange(cur, win(distance + 1), AcqRel, Relaxed)
                                .is_ok()
                    };
                    if won {
                        found.push((distance + 1, entry(pi, them)));
                    }
                });
            }
            self.buckets.add(&mut found);
        });
    }

    /// Wins in `distance` close an escape of each undecided predecessor; one left without escapes
    /// is lost. Predecessors with too many successors to count are verified move by move.
    fn expand_wins(&self, current: &Current, distance: u8, refuted: &[Vec<AtomicU64>; 2]) {
        let table = self.table;
        let men = table.men();
        parallel(current.len(), self.threads.get(), |a, b| {
            let mut sq = [0u8; MAX_MEN];
            let mut pre = [0u8; MAX_MEN];
            let mut preds = Vec::new();
            let mut found = Vec::new();
            for e in (a..b).map(|k| current.get(k)) {
                let (idx, stm) = ((e >> 1) as usize, (e & 1) as usize);
                if table.values[stm][idx].load(Relaxed) != win(distance) {
                    continue;
                }
                table.index.decode(idx, &mut sq[..men]);
                let them = 1 - stm;
                let position = (&sq[..men], stm, idx);
                for_predecessors_once(table, position, &mut preds, |pi| {
                    if self.is_fixed(pi, them) {
                        return;
                    }
                    let cell = &table.values[them][pi];
                    // The byte before the bit: a verified position's owner clears the bit
                    // before storing its code, so a code read here is seen with its bit
                    // clear. A byte that is not `VERIFY_BYTE` never becomes it.
                    let byte = cell.load(Acquire);
                    if !table.is_open(them, pi) {
                        return;
                    }
                    if byte == VERIFY_BYTE {
                        self.verify(them, pi, distance, refuted, &mut found);
                        return;
                    }
                    let last = match cell.fetch_sub(COUNTER_STEP, AcqRel) {
                        LAST_ESCAPE => true,
                        UNCOUNTED_BYTE if self.lazy => {
                            // The first escape closed: count them all now, less those closed
                            // meanwhile (the byte went even below zero).
                            table.index.decode(pi, &mut pre[..men]);
                            let count = table.seed_counted(&pre[..men], them, Some(pi)).count;
                            let add = counter_byte(count.min(MAX_COUNT as u8));
                            cell.fetch_add(add, AcqRel).wrapping_add(add) == 1
                        }
                        _ => false,
                    };
                    if last {
                        // Every successor inside the table is won in at most distance plies. This
                        // thread alone saw the last escape close: it stores the code, then
                        // clears the bit (readers look at the bit first).
                        table.index.decode(pi, &mut pre[..men]);
                        let depth =
                            distance.max(table.conversion_depth(&pre[..men], them, Some(pi)));
                        let code = loss((depth + 1).min(MAX_PLIES));
                        cell.store(code, Release);
                        self.take(them, pi);
                        found.push((plies(code), entry(pi, them)));
                    }
                });
            }
            self.buckets.add(&mut found);
        });
    }
}

/// A thread's writer of open bits over a run of indices: collects a word's bits and sets
/// them at once.
struct OpenBits<'a> {
    words: &'a [AtomicU64],
    word: usize,
    bits: u64,
}

impl<'a> OpenBits<'a> {
    fn new(words: &'a [AtomicU64], start: usize) -> OpenBits<'a> {
        OpenBits {
            words,
            word: start / 64,
            bits: 0,
        }
    }

    fn set(&mut self, idx: usize) {
        if idx / 64 != self.word {
            self.flush();
            self.word = idx / 64;
        }
        self.bits |= 1 << (idx % 64);
    }

    fn flush(&mut self) {
        if self.bits != 0 {
            if let Some(w) = self.words.get(self.word) {
                w.fetch_or(self.bits, Release);
            }
            self.bits = 0;
        }
    }
}
