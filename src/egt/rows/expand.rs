//! The passes per distance: the predecessors of new wins and losses (un-moves of whole rows,
//! their symmetry images), merged per row ([`Merger`]) or found by sweeps over the undecided
//! rows, and the wins they make.

use std::sync::atomic::Ordering::Relaxed;

use crate::egt::material::MAX_MEN;
use crate::egt::threads::{parallel, parallel_with};
use crate::egt::value::{is_win, win};
use crate::egt::word::{ones, AtomicWord, Word};

use super::geometry::Cursor;
use super::{settle, Solver};

/// A small direct-mapped buffer that merges the bits emitted for one row several times
/// (neighbouring rows share predecessors) before they are acted on: fewer verifications and
/// fewer random accesses. Evicted rows are acted on in batches whose state lines are all
/// requested first, so that their cache misses overlap. Acting later within a pass is safe:
/// what a pass reads of the rows it acts on changes only by its own actions.
pub(super) struct Merger<W> {
    pub(super) slots: Vec<(usize, W)>,
    /// The slots in use, so that a drain visits only those: most passes fill few of them.
    pub(super) used: Vec<u32>,
    pub(super) batch: Vec<(usize, W)>,
}

impl<W: Word> Merger<W> {
    /// A buffer for a table of `rows` rows, in a pass over `news` rows of news.
    pub(super) fn new(rows: usize, news: usize) -> Merger<W> {
        // No more slots than rows (a slice of a table solved by levels may be small), nor
        // than the pass can fill: a slice's passes are many and short, and a buffer is set
        // up for each.
        let fill = news.saturating_mul(NEWS_SLOTS).max(BATCH);
        let slots = SLOTS[(rows <= SMALL) as usize]
            .min(rows.next_power_of_two())
            .min(fill.next_power_of_two());
        Merger {
            slots: vec![(usize::MAX, W::ZERO); slots],
            used: Vec::new(),
            batch: Vec::with_capacity(BATCH),
        }
    }

    /// Adds `bits` to `row`'s slot; the row it evicts joins the batch (`done`: the rows'
    /// decided bits, `act`: what to do with a row).
    #[inline]
    pub(super) fn add(
        &mut self,
        row: usize,
        bits: W,
        done: &[W::Atomic],
        act: &mut impl FnMut(usize, W),
    ) {
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[row & mask];
        if slot.0 == row {
            slot.1 |= bits;
            return;
        }
        let old = std::mem::replace(slot, (row, bits));
        if old.0 == usize::MAX {
            self.used.push((row & mask) as u32);
        } else {
            self.batch.push(old);
            if self.batch.len() == BATCH {
                self.flush(done, act);
            }
        }
    }

    /// Acts on the batch: first one independent load per row (the misses overlap), then
    /// the actions, which find the lines in cache.
    pub(super) fn flush(&mut self, done: &[W::Atomic], act: &mut impl FnMut(usize, W)) {
        let mut warm = 0;
        for &(row, _) in &self.batch {
            warm ^= done.get(row).map_or(0, |s| s.load(Relaxed).low64());
        }
        std::hint::black_box(warm);
        for &(row, bits) in &self.batch {
            act(row, bits);
        }
        self.batch.clear();
    }

    /// Acts on every row held.
    pub(super) fn drain(&mut self, done: &[W::Atomic], act: &mut impl FnMut(usize, W)) {
        let used = std::mem::take(&mut self.used);
        for &k in &used {
            let slot = std::mem::replace(&mut self.slots[k as usize], (usize::MAX, W::ZERO));
            self.batch.push(slot);
            if self.batch.len() == BATCH {
                self.flush(done, act);
            }
        }
        self.flush(done, act);
    }
}

/// Slots of a [`Merger`] (a power of two): more for tables of at most `SMALL` rows.
/// The larger buffer pays on small tables; on a large one its own lines cost more than the
/// merging saves, the rows' state being far bigger than the cache.
pub(super) const SLOTS: [usize; 2] = [1024, 4096];

/// Rows a [`Merger`] acts on together.
pub(super) const BATCH: usize = 16;

/// Slots of a [`Merger`] per row of news in its pass (at most): a row's predecessors lie in
/// a few dozen rows.
pub(super) const NEWS_SLOTS: usize = 32;

/// The undecided rows are counted (see [`Solver::sweeps`]) only when the rows the news
/// reach are at least this fraction of the rows solved.
pub(super) const SWEEP_SCAN: usize = 16;

/// The most rows of a table that gets the larger [`Merger`], and of the rows solved
/// together (a table, a level or a slice) whose passes over wins may be sweeps (see
/// [`Solver::sweeps`]).
pub(super) const SMALL: usize = 1 << 17;

impl<'a, W: Word> Solver<'a, W> {
    /// Calls `emit(row, bits)` with every stored row and bits of the positions one un-move
    /// of `mover` before the bits `bits` of `row`.
    pub(super) fn predecessors(
        &self,
        row: usize,
        squares: &[u8; MAX_MEN],
        occ: W,
        bits: W,
        mover: usize,
        emit: &mut impl FnMut(usize, W),
    ) {
        let geo = &self.geo;
        let ix = &self.table.index;
        let last = geo.men - 1;
        // The images of these news under the maps that keep the first man's square are
        // news too (values are symmetric, and so is every pass), and each emits its own
        // predecessors: a predecessor needs its images emitted here only under the maps
        // that keep its first man but not this row's, that is after an un-move of the
        // first man.
        let keeps = ix.stabilizer(squares[0]);
        for &i in &geo.side_men[mover] {
            let base = geo.base(ix, row, squares, i);
            if let Some((_, quick)) = &geo.quick[i] {
                for quick_step in &quick[squares[i] as usize] {
                    let moved = bits & !quick_step.row_block;
                    if !(occ & quick_step.block).any() && moved.any() {
                        emit(base + quick_step.share, moved);
                    }
                }
                continue;
            }
            let alike = geo.set_stride[i].is_some();
            for st in &geo.unmoves[i][squares[i] as usize] {
                if (occ & st.block).any() {
                    continue;
                }
                let moved = bits & !st.row_block & geo.screened(occ, st.screen);
                if !moved.any() {
                    continue;
                }
                if i != 0 {
                    // The symmetry map stays the identity.
                    let to_row = if alike {
                        geo.step_row(ix, base, squares, i, st)
                    } else {
                        (st.share != usize::MAX).then(|| base + st.share)
                    };
                    if let Some(to_row) = to_row {
                        emit(to_row, moved);
                    }
                    continue;
                }
                let mut prev = *squares;
                prev[0] = st.sq;
                if ix.canon_of(st.sq) != 0 {
                    self.stored(&prev, moved, emit);
                } else if let Some(to_row) = geo.step_row(ix, base, squares, i, st) {
                    emit(to_row, moved);
                    if !ix.stabilizer(st.sq).iter().all(|h| keeps.contains(h)) {
                        self.images(&prev, moved, emit);
                    }
                }
            }
        }
        if geo.colour[last] as usize == mover && geo.last_pure {
            // Moves undone are moves made backwards: the squares from which a move reaches
            // `bits`, empty of the other men.
            let before = geo.reach(bits, occ) & !occ;
            if before.any() {
                emit(row, before);
            }
        } else if geo.colour[last] as usize == mover {
            let mut before = W::ZERO;
            for bit in ones(bits) {
                let (sources, block) = geo.last_sources[bit];
                if !(occ & block).any() {
                    before |= sources;
                    continue;
                }
                for vs in &geo.last_unmoves[bit] {
                    if vs.need.open(occ) {
                        before |= W::bit(vs.local as usize);
                    }
                }
            }
            if before.any() {
                emit(row, before);
            }
        }
    }

    /// Every stored row and bits of the positions with the men but the last on `squares` (any
    /// orientation) and the last on `bits`: the canonical form and its images.
    #[inline]
    pub(super) fn stored(&self, squares: &[u8; MAX_MEN], bits: W, emit: &mut impl FnMut(usize, W)) {
        let ix = &self.table.index;
        let last = self.geo.men - 1;
        let k = ix.canon_of(squares[0]);
        let mut image = *squares;
        if k != 0 {
            for s in image[..last].iter_mut() {
                *s = ix.maps[k][*s as usize];
            }
        }
        let bits = self.geo.permute(bits, k);
        let Some(row) = ix.encode_mapped(&image[..last], 0) else {
            return;
        };
        emit(row, bits);
        self.images(&image, bits, emit);
    }

    /// The other stored rows and bits of the canonical positions `image`, `bits` (when the first
    /// man stands where some map keeps it).
    #[inline]
    pub(super) fn images(&self, image: &[u8; MAX_MEN], bits: W, emit: &mut impl FnMut(usize, W)) {
        let ix = &self.table.index;
        let last = self.geo.men - 1;
        for &h in ix.stabilizer(image[0]) {
            if let Some(r) = ix.encode_mapped(&image[..last], h as usize) {
                emit(r, self.geo.permute(bits, h as usize));
            }
        }
    }

    /// Expands the news of `distance`: wins (`wins`) make their predecessors candidates
    /// to lose, losses make them won in `distance + 1`. The pass over losses empties the news.
    pub(super) fn expand(&self, distance: u8, wins: bool, level: &[usize]) {
        // Above distance 0, wins have odd distances and losses even ones (see `value`): the
        // news of `distance` are all of one kind, and the one pass that expands them empties them.
        if distance > 0 && (distance & 1 == 1) != wins {
            return;
        }
        let words = self.words.clone();
        let par = (distance & 1) as usize;
        let rows: usize = (self.summary[par].iter())
            .flat_map(|side| &side[words.clone()])
            .map(|w| w.load(Relaxed).count_ones() as usize)
            .sum();
        let threads = self.threads_for(rows);
        // A side at a time, one merger per thread kept over the thread's chunks: a merger
        // per chunk would cost its slots' setup and drain, and merge less.
        for side in 0..2 {
            let mover = 1 - side;
            if wins && self.sweeps(distance, side, level) {
                self.sweep(distance, side, level, threads);
                continue;
            }
            parallel_with(
                words.len(),
                threads,
                || Merger::new(self.rows.min(words.len() * 64), rows),
                |merged, a, b| {
                    let range = words.start + a..words.start + b;
                    self.expand_side(distance, wins, side, range, merged)
                },
                |mut merged| merged.drain(self.done[mover], &mut self.act(distance, wins, mover)),
            );
        }
    }

    /// Whether the wins of `side` at `distance` are better expanded by [`Solver::sweep`] than
    /// through their predecessors: when the mover's rows of `level` (the rows being solved) with
    /// undecided positions are at most as many as the rows the news reach through the un-moves of
    /// the mover's men but the last (see [`emits`](super::emits); none when only the last man moves
    /// in the level, whose un-moves cost a few word operations). Not in more than [`SMALL`] rows:
    /// there sweeps took longer (KBBvKN), the rows' state far bigger than the cache either way. Not
    /// at distance 0 (whose news mix wins and losses), nor under the perpetual-check ban (whose
    /// game reads the notes of positions no pass reached, and a sweep reaches them all).
    pub(super) fn sweeps(&self, distance: u8, side: usize, level: &[usize]) -> bool {
        if !self.sweeps
            || distance == 0
            || self.table.rules.game.perpetual_check_loses
            || level.len() > SMALL
        {
            return false;
        }
        let par = (distance & 1) as usize;
        let news: usize = (self.summary[par][side][self.words.clone()].iter())
            .map(|w| w.load(Relaxed).count_ones() as usize)
            .sum();
        let reached = news * self.emits[1 - side];
        if reached >= level.len() {
            return reached > 0;
        }
        // Counting the open rows costs a load per row: not worth it beside a short pass.
        if reached * SWEEP_SCAN < level.len() {
            return false;
        }
        let (done, full) = (self.done[1 - side], self.geo.full);
        let open = (level.iter())
            .filter(|&&r| (full & !done[r].load(Relaxed)).any())
            .count();
        open <= reached
    }

    /// Expands the wins of `side` at `distance` by verifying every undecided position of
    /// the mover in the rows `level`, row by row in order (the other levels' rows are
    /// final, or not seeded yet), instead of the predecessors of the wins: the same
    /// outcome, since a position whose moves were all closed before `distance` was verified then
    /// (and is decided, or held by a capture for good). In the middle of a solve most rows
    /// have news and each row's predecessors lie in a few dozen rows: verified once each
    /// in order, the rows cost less than the un-moves, the merging and the verification of
    /// rows reached several times in an order of their own.
    pub(super) fn sweep(&self, distance: u8, side: usize, level: &[usize], threads: usize) {
        self.swept.fetch_add(1, Relaxed);
        let mover = 1 - side;
        parallel(level.len(), threads, |a, b| {
            let mut at = Cursor::new();
            for &row in &level[a..b] {
                let cand =
                    self.geo.full & !self.done[mover][row].load(Relaxed) & !self.moving(row, mover);
                if cand.any() {
                    let occ = self.geo.decode_at(&self.table.index, row, &mut at);
                    self.verify_at(distance, (row, &at.squares, occ), mover, cand);
                }
            }
        });
        let par = (distance & 1) as usize;
        for sw in self.words.clone() {
            let word = self.summary[par][side][sw].load(Relaxed);
            if word != 0 {
                self.summary[par][side][sw].store(0, Relaxed);
                for rb in ones(word) {
                    self.news[par][side][sw * 64 + rb].store(W::ZERO, Relaxed);
                }
            }
        }
    }

    /// What a pass does with a merged row of `mover`'s predecessors: verification (a pass
    /// over wins) or a win.
    pub(super) fn act(&self, distance: u8, wins: bool, mover: usize) -> impl FnMut(usize, W) + '_ {
        let done = self.done[mover];
        move |r: usize, bits: W| {
            if !wins {
                self.win(distance, r, mover, bits);
                return;
            }
            let cand = bits & !done[r].load(Relaxed) & !self.moving(r, mover);
            if cand.any() {
                self.verify(distance, r, mover, cand);
            }
        }
    }

    /// [`Solver::expand`] for the news of `side` in the summary words `words`, into `merged`.
    pub(super) fn expand_side(
        &self,
        distance: u8,
        wins: bool,
        side: usize,
        words: std::ops::Range<usize>,
        merged: &mut Merger<W>,
    ) {
        let (geo, table) = (&self.geo, self.table);
        let only = distance > 0;
        let clear = only || !wins;
        let par = (distance & 1) as usize;
        let mut at = Cursor::new();
        let mover = 1 - side;
        let (settled, done) = (self.settled[mover], self.done[mover]);
        let mut act = self.act(distance, wins, mover);
        // Cleared by a load and a store, not a swap: in this pass only this thread touches
        // these words (news are filed for the next distance, in the other parity), and a
        // locked swap would wait for every store before it.
        for sw in words {
            let word = self.summary[par][side][sw].load(Relaxed);
            if clear && word != 0 {
                self.summary[par][side][sw].store(0, Relaxed);
            }
            for rb in ones(word) {
                let row = sw * 64 + rb;
                let news = self.news[par][side][row].load(Relaxed);
                if clear {
                    self.news[par][side][row].store(W::ZERO, Relaxed);
                }
                let mut mine = news;
                if !only {
                    mine = W::ZERO;
                    for bit in ones(news) {
                        let code = table.values[side][row * geo.len + bit].load(Relaxed);
                        if is_win(code) == wins {
                            mine |= W::bit(bit);
                        }
                    }
                }
                if !mine.any() {
                    continue;
                }
                let occ = geo.decode_at(&table.index, row, &mut at);
                self.predecessors(row, &at.squares, occ, mine, mover, &mut |r, bits| {
                    let bits = bits & !settled[r].load(Relaxed);
                    if !bits.any() {
                        return;
                    }
                    merged.add(r, bits, done, &mut act);
                });
            }
        }
    }

    /// Positions of `y` (to move) in `row` (bits `bits`) with a move to a loss in `distance`:
    /// won in `distance + 1` unless decided already (a win by a capture may be made quicker).
    pub(super) fn win(&self, distance: u8, row: usize, y: usize, bits: W) {
        let table = self.table;
        let len = self.geo.len;
        let code = win(distance + 1);
        let done = self.done[y][row].load(Relaxed);
        let mut new = W::ZERO;
        // A provisional win is deeper than `distance + 1` (or exactly that deep: rewriting it is
        // harmless): the thread that clears its bit improves it, without reading the byte.
        let provisional = &self.provisional[y][row];
        let decided = bits & done;
        if decided.any() {
            let quicker = decided & provisional.load(Relaxed);
            if quicker.any() {
                new |= quicker & self.rmw().and(provisional, !quicker);
            }
        }
        let fresh = bits & !done;
        if fresh.any() {
            new |= fresh & !self.rmw().or(&self.done[y][row], fresh);
        }
        if new.any() {
            settle(&self.settled[y][row], new);
            self.close(self.rmw(), y, row, new);
            self.file(distance, distance + 1, row, y, new);
            // The bytes last: a locked operation waits for the stores before it, and these
            // often miss the cache. Nothing reads them before the next pass.
            for bit in ones(new) {
                table.values[y][row * len + bit].store(code, Relaxed);
            }
        }
    }
}
