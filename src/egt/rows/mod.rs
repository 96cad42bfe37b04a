//! The row solver: a fast twin of `propagate` for tables whose men are plain leapers, sliders,
//! hoppers and pawns. The last man varies fastest in the index, so the positions that differ only
//! in its square form a row of at most 128 entries, one bit each in a word (64 bits on boards of at
//! most 64 squares, 128 above: see `word`); moves and un-moves of the other men carry a whole row
//! at once, and the last man's own moves stay inside it.
//!
//! Where it applies (decided from the compiled pieces, see [`eligible`]): every path of every man
//! moves, captures or both, needs empty squares and screens that any man may fill (a cannon's hop,
//! see `Geometry::screened`), no friend or foe, and stays in the man's domain unless it ends where
//! the man must promote (a promotion is a conversion, like a capture; one that may be declined is a
//! plain move or capture as well), or only gives check (the flying general's sight line); no
//! capture exceptions, no null move; a board of at most 128 squares. A side may keep several royals
//! (spartan's two kings): see `Solver::attacks_royal`. Where a bare-king rule meets a side holding
//! its royal alone, the rule decides every position at the seed (see `Bare`). The perpetual-check
//! ban (xiangqi) runs `perpetual` whenever the solve stops, as the general solver does. Everything
//! else goes through `propagate`, which also checks this solver in the tests.
//!
//! The method is the general one with the escape counters replaced by verification: per distance
//! (`distance` in the code), the wins at it make their undecided predecessors candidates, and a
//! candidate is lost when none of its moves inside the table reaches a position not yet won in at
//! most that many plies (verified for the whole row at once) and no capture holds it; then the
//! losses at it make their undecided predecessors won one ply later. Conversions (captures and
//! promotions, listed once per row) are looked up in the sub-tables position by position.
//!
//! Pawn tables come here with their pawns first (see `layout`) and are solved by levels of the
//! pawns' advancement, the most advanced first (see `heights`): a pawn's move leaves its level for
//! one solved already, and is looked up there like a conversion (its code as it is, injected at its
//! distance like a capture's); so a level reads only itself and final values. Where a placement of
//! the pawns (a slice, a run of whole rows) can be solved apart, each slice is solved by one thread
//! from its illegal positions and its seed to its end, with a state small enough for the cache,
//! once the slices its pawns' moves reach are done (see [`Solver::slices`],
//! [`Solver::solve_slices`]).
//!
//! This module holds the entry points, the shared row state and the pass driver; the concerns live
//! in submodules: `geometry` (the men's moves in row form, the last man's prefixed `last_`),
//! `heights`, `levels` and `slices` (pawn tables), `seed` (illegal positions, mates, the bare-king
//! rule), `captures` (conversions per row), `later` (positions deferred to their distance),
//! `verify` (the escape check of candidates), `expand` (the passes over predecessors, sweeps and
//! wins) and `ban` (the perpetual-check rounds).

use std::sync::atomic::Ordering::{AcqRel, Relaxed};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};

use variants::rights;

use super::material::MAX_MEN;
use super::rules::Rules;
use super::solve::{IdleWork, SolveError, Table};
use super::threads::Threads;
use super::value::MAX_PLIES;
use super::word::{zeroed_words, AtomicWord, Word};

mod ban;
mod captures;
mod expand;
mod geometry;
mod heights;
mod later;
mod levels;
mod seed;
mod slices;
#[cfg(test)]
mod tests;
mod verify;

use geometry::{Geometry, MAX_ROW};
use later::{later, Later};

/// The fewest rows with news that a distance pass spreads over threads: a shorter pass
/// costs less than starting a thread (most of a table's distances near the end are short).
const FEW_ROWS: usize = 64;

/// False when the variant's rules keep every table from the row solver (a board of more
/// than 128 squares, passing).
pub fn rules_allow(rules: &Rules) -> bool {
    rules.board.n <= MAX_ROW && !rules.game.null_move
}

/// True when the row solver applies to the table (see the module doc).
pub fn eligible(table: &Table) -> bool {
    let rules = &table.rules;
    let men = table.men();
    if men < 2 || !rules_allow(rules) || table.index.domain(men - 1).len() > MAX_ROW {
        return false;
    }
    let royals = |c: u8| {
        table
            .material
            .men
            .iter()
            .filter(|s| s.colour == c && !s.not_royal)
            .count()
    };
    if royals(0) == 0 || royals(1) == 0 {
        return false;
    }
    for i in 0..men {
        let (colour, piece) = (table.colour[i] as usize, table.piece[i] as usize);
        for j in 0..men {
            if rules.no_capture[piece][table.piece[j] as usize] {
                return false;
            }
        }
        let pm = &rules.moves[colour][piece];
        if pm.unsupported.is_some() || pm.irregular {
            // Men taken on the way, burnt, or a pass: the general solver's.
            return false;
        }
        let domain = rules.domain[colour][piece];
        let promo = &rules.promo[colour][piece];
        if promo.on_entry && !promo.choices.is_empty() {
            // Whether a move may promote depends on its capture: the general solver's.
            return false;
        }
        for s in domain.squares().map(usize::from) {
            for path in &pm.from[s] {
                let path_rights = path.rights;
                // Hop screens may hold any man (no friend or foe conditions).
                let only_empty = path.cond.friend == 0 && path.cond.foe == 0;
                if path_rights == rights::CHECK_ONLY && only_empty {
                    // A sight line: it ends on the other royal, wherever that stands.
                    continue;
                }
                let plain = (path_rights == rights::MOVE
                    || path_rights == rights::CAPTURE
                    || path_rights == rights::MOVE | rights::CAPTURE)
                    && only_empty;
                // A promotion leaves the table; one that may be declined stays in it too,
                // as a plain move or capture.
                let lands = promo.must(s as u8, path.to) || domain.has(path.to);
                if !plain || !lands {
                    return false;
                }
            }
        }
    }
    true
}

/// One bit per row position and side: a word per row.
type Rows<W> = [Vec<<W as Word>::Atomic>; 2];

/// How the row state's read-modify-writes are made: locked atomic operations when several
/// threads solve the table, a load and a store when one does (a locked operation waits for
/// every store before it to reach the cache, and the distance passes make millions).
#[derive(Clone, Copy)]
struct Rmw {
    shared: bool,
}

impl Rmw {
    /// Sets the bits of `w`; returns the word before.
    #[inline]
    fn or<W: Word>(self, a: &W::Atomic, w: W) -> W {
        if self.shared {
            return a.fetch_or(w, AcqRel);
        }
        let old = a.load(Relaxed);
        a.store(old | w, Relaxed);
        old
    }

    /// Keeps the bits of `w` only; returns the word before.
    #[inline]
    fn and<W: Word>(self, a: &W::Atomic, w: W) -> W {
        if self.shared {
            return a.fetch_and(w, AcqRel);
        }
        let old = a.load(Relaxed);
        a.store(old & w, Relaxed);
        old
    }

    /// As [`AtomicWord::or_first`]: true when the word was empty, or some part of it was.
    #[inline]
    fn or_first<W: Word>(self, a: &W::Atomic, w: W) -> bool {
        if self.shared {
            return a.or_first(w, AcqRel);
        }
        let old = a.load(Relaxed);
        a.store(old | w, Relaxed);
        !old.any() && w.any()
    }

    /// [`Rmw::or`] on a 64-bit word.
    #[inline]
    fn or64(self, a: &AtomicU64, w: u64) {
        if self.shared {
            a.fetch_or(w, AcqRel);
        } else {
            a.store(a.load(Relaxed) | w, Relaxed);
        }
    }
}

/// The row state of one solve, shared by the threads.
struct State<W: Word> {
    /// Per side, per row: decided (won, lost, illegal, or held by a capture for ever).
    done: Rows<W>,
    /// Per side, per row: won by a capture at the seed, deeper than one ply, and not reached
    /// yet, or held by a capture to a draw (see `Solver::seed_row`): a quicker win may still
    /// replace it. Apart from `done` (most rows have none, and
    /// a win reads it only for positions already decided): a dense `done` fits the cache
    /// better.
    provisional: Rows<W>,
    /// Per side, per row: decided for good (`done` and not `provisional`; some such bits
    /// may be missing, see [`settle`]): most predecessors an un-move reaches are settled,
    /// and one load tells them.
    settled: Rows<W>,
    /// Per side, per row: not an escape for the side that moves into it (won in at most
    /// the distance being expanded, or illegal). An array of its own, 8 or 16 bytes a row:
    /// verification reads it in rows all over the table, and dense lines fit the cache
    /// better than a word in a wider row state.
    closed: Rows<W>,
    /// Decided at the distance being expanded (`[distance & 1]`) and at the next one.
    news: [Rows<W>; 2],
    /// One bit per word of `news`: the words that are not zero.
    summary: [[Vec<AtomicU64>; 2]; 2],
    /// Positions without a legal move, found by the seed (see [`Table::stuck`]).
    stuck: [Vec<AtomicU64>; 2],
    /// Per side, per row: positions with a move of the last man to an escape, as found
    /// since the other side's `closed` word of the row last grew (see [`Solver::memo`]).
    moving: Rows<W>,
}

/// A pair of arrays, one per side, borrowed from a [`State`].
type Pair<'a, T> = [&'a [T]; 2];

/// Both sides' `arrays` as slices.
fn pair<T>(arrays: &[Vec<T>; 2]) -> Pair<'_, T> {
    [&arrays[0], &arrays[1]]
}

/// One solve of some rows (the table, a level, or a slice, see [`Solver::levels`]): the
/// shared state, and what belongs to this solve alone.
struct Solver<'a, W: Word> {
    /// The table solved.
    table: &'a Table,
    /// Its men's moves in row form.
    geo: &'a Geometry<W>,
    /// The shared state's arrays (see [`State`]), as slices: one load from here reaches a
    /// row's word, as when the solve owned them.
    done: Pair<'a, W::Atomic>,
    provisional: Pair<'a, W::Atomic>,
    settled: Pair<'a, W::Atomic>,
    closed: Pair<'a, W::Atomic>,
    news: [Pair<'a, W::Atomic>; 2],
    summary: [Pair<'a, AtomicU64>; 2],
    stuck: Pair<'a, AtomicU64>,
    moving: Pair<'a, W::Atomic>,
    /// Per side to move, `moving` is kept for its last man (see [`Solver::memo_of`]): in
    /// the solve of one slice, whose thread alone writes its rows (the word and the
    /// `closed` word it depends on are then written in order). The last man's moves stay
    /// in its row, so a position where it has an escape keeps it until that row's
    /// `closed` word grows: a candidate there needs no verification. KRvKP's White rook
    /// almost always has one, and most of White's row verifications go.
    memo: [bool; 2],
    /// Threads, read at the start of each pass (the schedule may lend the solve one).
    threads: &'a Threads,
    /// The passes' read-modify-writes are locked ones (see [`Rmw`]): set by each pass from
    /// its thread count.
    shared: &'a AtomicBool,
    rows: usize,
    /// The words of `summary` the passes scan: the rows solved, in 64s.
    words: std::ops::Range<usize>,
    later: Later<W>,
    /// Passes over wins may be made by [`Solver::sweep`]; each one made is counted in
    /// `swept`.
    sweeps: bool,
    swept: &'a AtomicUsize,
    /// Per side, the rows a row's news reach through its men's un-moves, but the last
    /// man's (which stay in the row): see [`emits`].
    emits: [usize; 2],
    /// Work for the threads a sliced solve has nothing left for (see [`IdleWork`]).
    idle: Option<IdleWork<'a>>,
}

/// Per side, the rows one row's news reach through the un-moves of the side's men but the
/// last (each un-move of one of them emits another row): their paths' count averaged over
/// each man's domain, rounded.
fn emits<W: Word>(table: &Table, geo: &Geometry<W>) -> [usize; 2] {
    let ix = &table.index;
    [0, 1].map(|side| {
        let paths: f64 = (geo.side_men[side].iter())
            .map(|&i| {
                let domain = ix.domain(i);
                let n: usize = domain
                    .iter()
                    .map(|&sq| geo.unmoves[i][sq as usize].len())
                    .sum();
                n as f64 / domain.len().max(1) as f64
            })
            .sum();
        paths.round() as usize
    })
}

/// A slice's solve: one thread, plain read-modify-writes (see [`Solver::solve_slices`]).
static ONE: Threads = Threads::new(1);

/// [`ONE`]'s read-modify-writes: never locked.
static UNSHARED: AtomicBool = AtomicBool::new(false);

/// An entry for the tests (tests/egt.rs), not used by a build (which goes through
/// [`solve_lent`]): solves `table` with the row solver (the caller checked [`eligible`]) on
/// `threads` threads.
pub fn solve(
    table: &Table,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    solve_lent(table, &Threads::new(threads), None, progress)
}

/// [`solve`] with a thread count that may change between passes, and `idle` work for the
/// threads a sliced solve has nothing else for: in 64-bit words when the board fits them,
/// else in 128-bit ones.
pub fn solve_lent(
    table: &Table,
    threads: &Threads,
    idle: Option<IdleWork>,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    let swept = AtomicUsize::new(0);
    if table.rules.board.n <= u64::BITS as usize {
        solve_in::<u64>(table, threads, (true, &swept), idle, progress)
    } else {
        solve_in::<u128>(table, threads, (true, &swept), idle, progress)
    }
}

/// An oracle for the tests (tests/egt.rs), not used by a build: [`solve_lent`], with passes
/// over wins made by sweeps where they cost less (`sweeps`)
/// or always through the predecessors; returns how many were made by sweeps (see
/// [`Solver::sweep`]).
pub fn solve_passes(
    table: &Table,
    threads: &Threads,
    sweeps: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<usize, SolveError> {
    let swept = AtomicUsize::new(0);
    if table.rules.board.n <= u64::BITS as usize {
        solve_in::<u64>(table, threads, (sweeps, &swept), None, progress)?;
    } else {
        solve_in::<u128>(table, threads, (sweeps, &swept), None, progress)?;
    }
    Ok(swept.into_inner())
}

/// [`solve`] in words of `W`.
fn solve_in<W: Word>(
    table: &Table,
    threads: &Threads,
    (sweeps, swept): (bool, &AtomicUsize),
    idle: Option<IdleWork>,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    let geo = Geometry::<W>::new(table);
    // Only a pawn of the levels looks at the captures en passant its step allows (see
    // `push_outcomes`): a double step by another man would be an ordinary move.
    if table.en_passant() && (table.sets_en_passant()).any(|i| i >= geo.heights.len()) {
        return Err(SolveError::EnPassant(table.name.clone()));
    }
    let rows = table.index.size / geo.len;
    // Shared row words, all zero.
    let sides = || [W::zeroed(rows), W::zeroed(rows)];
    let sum = rows / 64 + 1;
    let st = State::<W> {
        done: sides(),
        provisional: sides(),
        settled: sides(),
        closed: sides(),
        news: [sides(), sides()],
        summary: [0, 1].map(|_| [zeroed_words(sum), zeroed_words(sum)]),
        stuck: [0, 1].map(|_| zeroed_words(table.index.size / 64 + 1)),
        moving: sides(),
    };
    let solver = Solver {
        table,
        geo: &geo,
        done: pair(&st.done),
        provisional: pair(&st.provisional),
        settled: pair(&st.settled),
        closed: pair(&st.closed),
        news: [pair(&st.news[0]), pair(&st.news[1])],
        summary: [pair(&st.summary[0]), pair(&st.summary[1])],
        stuck: pair(&st.stuck),
        moving: pair(&st.moving),
        memo: [false; 2],
        threads,
        shared: &AtomicBool::new(threads.get() > 1),
        rows,
        words: 0..sum,
        later: later(),
        sweeps,
        swept,
        emits: emits(table, &geo),
        idle,
    };
    if let Some((per, levels)) = solver.slices() {
        solver.solve_slices(per, &levels, progress)?;
    } else {
        solver.seed_illegal();
        for level in solver.levels() {
            solver.seed_values(&level);
            progress("seeded");
            solver.run(&level, progress)?;
        }
    }
    let stuck = st
        .stuck
        .each_ref()
        .map(|w| w.iter().map(|x| x.load(Relaxed)).collect());
    // Set once: a table is solved once.
    let _ = table.stuck.set(stuck);
    Ok(())
}

/// Adds `bits` to a row's settled word with a load and a store, even when threads share it:
/// the word only spares un-moves a look at the row (see [`Solver::settled`]), so a bit lost
/// to another thread's store at the same moment costs that look, never a value.
#[inline]
fn settle<W: Word>(word: &W::Atomic, bits: W) {
    word.store(word.load(Relaxed) | bits, Relaxed);
}

impl<'a, W: Word> Solver<'a, W> {
    /// The threads of a pass starting now; its read-modify-writes are locked when there
    /// are several (the threads are started after this, so they see the flag).
    fn pass_threads(&self) -> usize {
        self.threads_for(usize::MAX)
    }

    /// [`Solver::pass_threads`] for a pass over `rows` rows: one thread for fewer than
    /// [`FEW_ROWS`].
    fn threads_for(&self, rows: usize) -> usize {
        let n = if rows < FEW_ROWS {
            1
        } else {
            self.threads.get()
        };
        if self.shared.load(Relaxed) != (n > 1) {
            self.shared.store(n > 1, Relaxed);
        }
        n
    }

    /// How this pass makes its read-modify-writes.
    #[inline]
    fn rmw(&self) -> Rmw {
        Rmw {
            shared: self.shared.load(Relaxed),
        }
    }

    /// The distance passes over the seeded rows `level` until nothing is left to expand;
    /// then its undecided positions are draws.
    fn run(&self, level: &[usize], progress: &mut dyn FnMut(&str)) -> Result<(), SolveError> {
        let table = self.table;
        let mut distance = 0u8;
        loop {
            let pending = self.merge_later(distance);
            if !pending && !self.any_later(distance) {
                if !table.rules.game.perpetual_check_loses
                    || self.perpetual_losses(&mut distance, progress) == 0
                {
                    self.clear_notes(level);
                    return Ok(());
                }
                continue;
            }
            if pending {
                if distance >= MAX_PLIES {
                    return Err(SolveError::TooDeep(table.name.clone()));
                }
                self.expand(distance, true, level);
                self.expand(distance, false, level);
                progress(&format!("distance {distance}"));
            }
            distance += 1;
        }
    }

    /// The squares of the men but the last for a row, and their occupancy.
    #[inline]
    fn decode(&self, row: usize, squares: &mut [u8; MAX_MEN]) -> W {
        self.geo.decode(&self.table.index, row, squares)
    }
}
