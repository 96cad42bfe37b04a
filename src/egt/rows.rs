//! The row solver: a fast twin of `propagate` for tables whose men are plain leapers,
//! sliders and pawns. The last man varies fastest in the index, so the positions that differ only in
//! its square form a row of at most 64 entries, one bit each in a word; moves and un-moves of
//! the other men carry a whole row at once, and the last man's own moves stay inside it.
//!
//! Where it applies (decided from the compiled pieces, see [`eligible`]): every path of every
//! man moves, captures or both, needs only empty squares (no hop screens) and stays in the
//! man's domain unless it ends where the man must promote (a promotion is a conversion, like
//! a capture); no optional promotions, no capture exceptions, no null move, no bare-king or
//! perpetual-check rule; a board and a last man's domain of at most 64 squares. Everything
//! else goes through `propagate`, which also checks this solver in the tests.
//!
//! The method is the general one with the escape counters replaced by verification: per
//! distance `p`, wins in `p` make their undecided predecessors candidates, and a candidate is
//! lost when none of its moves inside the table reaches a position not yet won in at most `p`
//! plies (verified for the whole row at once) and no capture holds it; then losses in `p`
//! make their undecided predecessors won in `p + 1`. Conversions (captures and promotions,
//! listed once per row) are looked up in the sub-tables position by position.

use std::sync::atomic::AtomicU64;
use std::sync::atomic::Ordering::{AcqRel, Relaxed};
use std::sync::Mutex;

use variants::{rights, PieceId};

use super::index::Indexer;
use super::material::MAX_MEN;
use super::propagate::parallel;
use super::rules::Rules;
use super::solve::{ConvPartial, SolveError, Table};
use super::value::{is_loss, is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES};

/// One path of a man that is not the last: its other end, the board squares that must hold
/// none of the other men (the squares it crosses and its other end), and the same squares as
/// bits of the last man's row (where the last man would block it or stand on its end).
#[derive(Clone, Copy, Debug)]
struct Step {
    sq: u8,
    block: u64,
    vblock: u64,
    /// The man's share of the row number at the other end (see `Geometry::share`;
    /// `usize::MAX` outside its domain or for alike men).
    share: usize,
    /// The path may end on an empty square.
    moves: bool,
    /// The path may take a man.
    takes: bool,
    /// The path ends where the man must promote.
    promotes: bool,
}

/// One path of the last man inside its row: its other end (local index) and the board
/// squares that must hold none of the other men (the squares it crosses and its other end).
#[derive(Clone, Copy, Debug)]
struct VStep {
    local: u8,
    block: u64,
}

/// The moves of the table's men in row form.
struct Geometry {
    /// Men; the last one is the row's.
    m: usize,
    /// Row length (the last man's domain).
    len: usize,
    /// Colour per man.
    colour: Vec<u8>,
    /// Per man but the last, per square: forward paths that stay in the table (move to an
    /// empty square without promoting).
    moves: Vec<Vec<Vec<Step>>>,
    /// Per man but the last, per square: forward paths that take or promote.
    hits: Vec<Vec<Vec<Step>>>,
    /// Per man but the last, per square: the paths that end there (un-moves).
    unmoves: Vec<Vec<Vec<Step>>>,
    /// The last man's forward paths by local index.
    vmoves: Vec<Vec<VStep>>,
    /// Per local index: the other ends of its `vmoves`, as row bits, and the board squares
    /// any of them needs empty.
    vtargets: Vec<(u64, u64)>,
    /// Per local index: the other ends of its `vunmoves`, as row bits, and the board
    /// squares any of them needs empty.
    vsources: Vec<(u64, u64)>,
    /// The last man's paths ending at each local index (un-moves).
    vunmoves: Vec<Vec<VStep>>,
    /// Per board square: the last man's paths that take there, as (origin local index,
    /// squares that must be empty, promotes).
    vinto: Vec<Vec<(u8, u64, bool)>>,
    /// The last man's paths that promote on an empty square: (origin local index,
    /// destination, squares that must be empty).
    vpromote: Vec<(u8, u8, u64)>,
    /// Per symmetry map: the last man's local index to that of its image.
    vmap: Vec<Vec<u8>>,
    /// Per symmetry map: the same as whole-word bit operations (transpose, mirror files,
    /// mirror ranks), when they agree with `vmap` on every square (an 8x8 row).
    vflip: Vec<Option<(bool, bool, bool)>>,
    /// Per symmetry map: the word operations of its inverse, when `vflip` has them.
    vunflip: Vec<Option<(bool, bool, bool)>>,
    /// Per board square: the last man's bit for it (0 outside its domain).
    vbit: Vec<u64>,
    /// Per man but the last, per board square: the man's share of the row number (its local
    /// index times its stride in rows), `usize::MAX` outside its domain; a move of one man
    /// changes the row by the difference of two shares. Not for alike men (see `set_stride`).
    share: Vec<Vec<usize>>,
    /// Per man but the last: for alike men (indexed as a set), their factor's stride in rows.
    set_stride: Vec<Option<usize>>,
    /// All bits of a row.
    full: u64,
    /// Per man but the last, when each has a factor of its own and row numbers fit 32 bits:
    /// the factor's size and the man's squares by local index, the digits of a row number
    /// (see [`Solver::decode`]).
    digits: Option<Box<Digits>>,
}

/// The digits of a row number, man by man but the last (see [`Geometry::digits`]): fixed
/// arrays, so that decoding follows no pointers.
struct Digits {
    /// Per man: its factor's size.
    size: [u32; MAX_MEN],
    /// Per man: its squares by local index (a row solver's board has at most 64).
    squares: [[u8; 64]; MAX_MEN],
    /// The last man's first square (the decoded squares hold a full position).
    last: u8,
}

/// False when the variant's rules keep every table from the row solver (a board of more
/// than 64 squares, passing, the perpetual-check ban, bare-king losses).
pub fn rules_allow(rules: &Rules) -> bool {
    rules.board.n <= 64
        && !rules.game.null_move
        && !rules.game.perpetual_check_loses
        && !rules.variant.end.bare_king_loses
}

/// True when the row solver applies to the table (see the module doc).
pub fn eligible(table: &Table) -> bool {
    let rules = &table.rules;
    let m = table.men();
    if m < 2 || !rules_allow(rules) || table.index.domain(m - 1).len() > 64 {
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
    if royals(0) != 1 || royals(1) != 1 {
        return false;
    }
    for i in 0..m {
        let (c, p) = (table.colour[i] as usize, table.piece[i] as usize);
        for j in 0..m {
            if rules.no_capture[p][table.piece[j] as usize] {
                return false;
            }
        }
        let pm = &rules.moves[c][p];
        if pm.unsupported.is_some() {
            return false;
        }
        let domain = rules.domain[c][p];
        let promo = &rules.promo[c][p];
        for s in (0..rules.board.n).filter(|&s| domain & (1u128 << s) != 0) {
            for path in &pm.from[s] {
                let r = path.rights;
                let plain = (r == rights::MOVE
                    || r == rights::CAPTURE
                    || r == rights::MOVE | rights::CAPTURE)
                    && path.cond.occ == 0
                    && path.cond.friend == 0
                    && path.cond.foe == 0;
                // A promotion leaves the table; one that may be declined stays in it too,
                // which the row solver does not model.
                let lands = if promo.may(s as u8, path.to) {
                    promo.forced & (1u128 << path.to) != 0
                } else {
                    domain & (1u128 << path.to) != 0
                };
                if !plain || !lands {
                    return false;
                }
            }
        }
    }
    true
}

impl Geometry {
    fn new(table: &Table) -> Geometry {
        let rules = &table.rules;
        let n = rules.board.n;
        let m = table.men();
        let last = m - 1;
        let ix = &table.index;
        let len = ix.domain(last).len();
        let vbit: Vec<u64> = (0..n as u8)
            .map(|s| ix.local_of(last, s).map_or(0, |l| 1u64 << l))
            .collect();
        let vbits = |set: u128| {
            (0..n)
                .filter(|&s| set & (1u128 << s) != 0)
                .fold(0u64, |acc, s| acc | vbit[s])
        };
        let pm_of = |i: usize| &rules.moves[table.colour[i] as usize][table.piece[i] as usize];
        let mut share = vec![vec![usize::MAX; n]; last];
        for (i, sh) in share.iter_mut().enumerate() {
            // The last man's factor is the innermost: every other stride is a whole row's.
            let stride = ix.stride_of(i) / len;
            for (l, &s) in ix.domain(i).iter().enumerate() {
                sh[s as usize] = l * stride;
            }
        }
        let promo_of = |i: usize| &rules.promo[table.colour[i] as usize][table.piece[i] as usize];
        let mut moves = Vec::new();
        let mut hits = Vec::new();
        let mut unmoves = Vec::new();
        for (i, sh) in share.iter().enumerate() {
            let share_of = |s: usize| if ix.alike(i) { usize::MAX } else { sh[s] };
            let pm = pm_of(i);
            let mut fwd = vec![Vec::new(); n];
            let mut hit = vec![Vec::new(); n];
            let mut back = vec![Vec::new(); n];
            for (s, paths) in pm.from.iter().enumerate() {
                for path in paths {
                    let empty = path.cond.empty;
                    let step = Step {
                        sq: path.to,
                        block: (empty | (1u128 << path.to)) as u64,
                        vblock: vbits(empty | (1u128 << path.to)),
                        share: share_of(path.to as usize),
                        moves: path.rights & rights::MOVE != 0,
                        takes: path.rights & rights::CAPTURE != 0,
                        promotes: promo_of(i).may(s as u8, path.to),
                    };
                    if step.takes || step.promotes {
                        hit[s].push(step);
                    }
                    if !step.moves || step.promotes {
                        continue;
                    }
                    fwd[s].push(step);
                    back[path.to as usize].push(Step {
                        sq: s as u8,
                        block: (empty | (1u128 << s)) as u64,
                        vblock: vbits(empty | (1u128 << s)),
                        share: share_of(s),
                        ..step
                    });
                }
            }
            moves.push(fwd);
            hits.push(hit);
            unmoves.push(back);
        }
        let vpm = pm_of(last);
        let mut vmoves = vec![Vec::new(); len];
        let mut vunmoves = vec![Vec::new(); len];
        let mut vinto = vec![Vec::new(); n];
        let mut vpromote = Vec::new();
        for (a, &sa) in ix.domain(last).iter().enumerate() {
            for path in &vpm.from[sa as usize] {
                let empty = path.cond.empty;
                let promotes = promo_of(last).may(sa, path.to);
                if path.rights & rights::CAPTURE != 0 {
                    vinto[path.to as usize].push((a as u8, empty as u64, promotes));
                }
                if path.rights & rights::MOVE == 0 {
                    continue;
                }
                if promotes {
                    vpromote.push((a as u8, path.to, empty as u64));
                    continue;
                }
                let Some(b) = ix.local_of(last, path.to) else {
                    continue;
                };
                vmoves[a].push(VStep {
                    local: b as u8,
                    block: (empty | (1u128 << path.to)) as u64,
                });
                vunmoves[b].push(VStep {
                    local: a as u8,
                    block: (empty | (1u128 << sa)) as u64,
                });
            }
        }
        let vmap: Vec<Vec<u8>> = ix
            .maps
            .iter()
            .map(|map| {
                ix.domain(last)
                    .iter()
                    .map(|&s| ix.local_of(last, map[s as usize]).unwrap_or(0) as u8)
                    .collect()
            })
            .collect();
        let set_stride = (0..last)
            .map(|i| ix.alike(i).then(|| ix.stride_of(i) / len))
            .collect();
        let vflip: Vec<Option<(bool, bool, bool)>> = vmap
            .iter()
            .map(|map: &Vec<u8>| {
                let combos = (0..8).map(|c| (c & 4 != 0, c & 1 != 0, c & 2 != 0));
                combos.into_iter().find(|&flip| {
                    len == 64 && (0..64).all(|b| flip_word(1u64 << b, flip) == 1u64 << map[b])
                })
            })
            .collect();
        let inverse = |k: usize| {
            let map = &ix.maps[k];
            (0..ix.maps.len()).find(|&u| (0..n).all(|s| ix.maps[u][map[s] as usize] as usize == s))
        };
        let vunflip = (0..ix.maps.len())
            .map(|k| inverse(k).and_then(|u| vflip[u]))
            .collect();
        let digits = (!ix.grouped() && ix.size / len <= u32::MAX as usize).then(|| {
            let mut d = Box::new(Digits {
                size: [1; MAX_MEN],
                squares: [[0; 64]; MAX_MEN],
                last: ix.domain(last)[0],
            });
            for i in 0..last {
                d.size[i] = ix.domain(i).len() as u32;
                d.squares[i][..ix.domain(i).len()].copy_from_slice(ix.domain(i));
            }
            d
        });
        let ends = |steps: &Vec<Vec<VStep>>| {
            let both = |(l, b): (u64, u64), vs: &VStep| (l | 1 << vs.local, b | vs.block);
            steps.iter().map(|v| v.iter().fold((0, 0), both)).collect()
        };
        let (vtargets, vsources) = (ends(&vmoves), ends(&vunmoves));
        Geometry {
            vtargets,
            vsources,
            digits,
            m,
            len,
            share,
            set_stride,
            vflip,
            vunflip,
            colour: table.colour.clone(),
            moves,
            unmoves,
            vmoves,
            vunmoves,
            vinto,
            vpromote,
            hits,
            vmap,
            vbit,
            full: if len == 64 { u64::MAX } else { (1 << len) - 1 },
        }
    }

    /// The row after man `i` (not the last) of `row`, whose men stand on `f`, moves to
    /// `to`, when no symmetry map is needed; `None` outside the man's domain.
    #[inline]
    fn shift(&self, ix: &Indexer, row: usize, f: &[u8], i: usize, to: u8) -> Option<usize> {
        if let Some(st) = self.set_stride[i] {
            let before = ix.factor_value(i, f, f[i])?;
            let after = ix.factor_value(i, f, to)?;
            return Some(row - before * st + after * st);
        }
        let t = self.share[i][to as usize];
        (t != usize::MAX).then(|| row - self.share[i][f[i] as usize] + t)
    }

    /// As [`Geometry::shift`] for man `i` taking step `st`, with `base` the row less the
    /// man's share (any value for alike men).
    #[inline]
    fn step_row(
        &self,
        ix: &Indexer,
        (row, base): (usize, usize),
        f: &[u8],
        i: usize,
        st: &Step,
    ) -> Option<usize> {
        if self.set_stride[i].is_some() {
            return self.shift(ix, row, f, i, st.sq);
        }
        (st.share != usize::MAX).then(|| base + st.share)
    }

    /// The row less man `i`'s share (see [`Geometry::step_row`]).
    #[inline]
    fn base(&self, row: usize, f: &[u8], i: usize) -> usize {
        match self.set_stride[i] {
            Some(_) => row,
            None => row - self.share[i][f[i] as usize],
        }
    }

    /// The image of a row's bits under map `k`.
    #[inline]
    fn permute(&self, bits: u64, k: usize) -> u64 {
        if k == 0 {
            return bits;
        }
        if let Some(flip) = self.vflip[k] {
            return flip_word(bits, flip);
        }
        let map = &self.vmap[k];
        let mut out = 0;
        for b in ones(bits) {
            out |= 1u64 << map[b];
        }
        out
    }
}

/// The image of an 8x8 bit board (bit `8 * rank + file`) under a transpose, then a mirror
/// of the files, then of the ranks (the order of `board::MAPS`).
#[inline]
fn flip_word(mut x: u64, (transpose, files, ranks): (bool, bool, bool)) -> u64 {
    if transpose {
        // Swaps file and rank: three exchanges of bit blocks across the a1-h8 diagonal.
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0f0f_0f0f_0000_0000;
        let t = K4 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        let t = K2 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        let t = K1 & (x ^ (x << 7));
        x ^= t ^ (t >> 7);
    }
    if files {
        x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
        x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
        x = ((x >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((x & 0x0f0f_0f0f_0f0f_0f0f) << 4);
    }
    if ranks {
        x = x.swap_bytes();
    }
    x
}

/// The set bits of a word, lowest first.
#[inline]
fn ones(mut bits: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (bits != 0).then(|| {
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            b
        })
    })
}

fn words(n: usize) -> Vec<AtomicU64> {
    (0..n).map(|_| AtomicU64::new(0)).collect()
}

/// One bit per row position and side: a word per row.
type Rows = [Vec<AtomicU64>; 2];

/// The bits of one row read and written together by un-moves and verification, in one
/// cache line's quarter: a position's predecessors lie in rows all over the table, and
/// separate arrays cost a cache miss each.
#[repr(C, align(32))]
#[derive(Default)]
struct RowState {
    /// Decided (won, lost, illegal, or held by a capture for ever).
    done: AtomicU64,
    /// Not an escape for the side that moves into it: won in at most the distance being
    /// expanded, or illegal.
    closed: AtomicU64,
    /// Won by a capture at the seed, deeper than one ply, and not reached yet: a quicker
    /// win may still replace it.
    provisional: AtomicU64,
}

/// One capture in the positions of a row (see [`Solver::capture_list`]).
#[derive(Clone, Copy)]
struct Capture {
    /// The squares after it; man `open`'s is set per position when `spread`.
    next: [u8; MAX_MEN],
    /// The man taken, if any.
    victim: Option<usize>,
    /// The promotion, if any: the man and what it becomes.
    promo: Option<(usize, PieceId)>,
    /// The row's positions in which it can be made.
    bits: u64,
    /// The positions after it differ: man `open` stands on the square of the row's bit (the
    /// last man, or the man that takes it); otherwise they are one.
    spread: bool,
    /// The man whose square differs between the positions after it, or after the captures
    /// of its kind (see [`Captures`]): the last man, unless it was taken (then the man that
    /// took it).
    open: u8,
}

/// A row's captures, and the sub-table lookups made for them with one man's square left
/// open: a capture's positions differ only in the last man's square, and the captures that
/// take the last man, or that it makes, each made in one position, only in the square of
/// the man that moves.
#[derive(Default)]
struct Captures<'a> {
    list: Vec<Capture>,
    /// For the captures made in one position: conversion key, open man, the lookup.
    looks: Vec<(usize, u8, Option<ConvPartial<'a>>)>,
}

/// What a position's captures lead to (see [`Solver::seed_values`]), per row bit.
struct Outcomes {
    /// Some legal capture.
    any: u64,
    /// Some capture to a loss; `best[b]` the quickest win by one.
    won: u64,
    best: [u8; 64],
    /// Some capture to a draw (or an undecided position).
    open: u64,
    /// The slowest loss by a capture to a win.
    worst: [u8; 64],
}

/// Decided positions waiting for their distance (seeds and losses deferred by captures):
/// `(row, side, bits)` per distance.
type Later = Vec<Mutex<Vec<(usize, u8, u64)>>>;

/// The byte of an undecided position with a capture to a draw (see [`Solver::seed_values`]);
/// otherwise its byte holds one more than the deepest win a capture leads to (0: no
/// capture). Positions still undecided at the end are set to `DRAW`.
const HELD: u8 = u8::MAX;

/// Slots of a [`Merger`] (a power of two): more for tables of at most `SMALL` rows.
/// Measured: KQvKR with 4096 slots, 2.52G -> 2.39G instructions and 0.22 s -> 0.20 s;
/// KBBvKN with 4096, 3 % slower (its rows' state is far bigger than the cache, and the
/// buffer's own lines then cost more than the merging saves).
const SLOTS: [usize; 2] = [1024, 4096];

/// The most rows of a table that gets the larger [`Merger`].
const SMALL: usize = 1 << 17;

/// Rows a [`Merger`] acts on together.
const BATCH: usize = 16;

/// A small direct-mapped buffer that merges the bits emitted for one row several times
/// (neighbouring rows share predecessors) before they are acted on: fewer verifications and
/// fewer random accesses. Evicted rows are acted on in batches whose state lines are all
/// requested first, so that their cache misses overlap. Acting later within a pass is safe:
/// what a pass reads of the rows it acts on changes only by its own actions.
struct Merger {
    slots: Vec<(usize, u64)>,
    batch: Vec<(usize, u64)>,
}

impl Merger {
    /// A buffer for a table of `rows` rows.
    fn new(rows: usize) -> Merger {
        Merger {
            slots: vec![(usize::MAX, 0); SLOTS[(rows <= SMALL) as usize]],
            batch: Vec::with_capacity(BATCH),
        }
    }

    /// Adds `bits` to `row`'s slot; the row it evicts joins the batch (`state`: the rows'
    /// state, `act`: what to do with a row).
    #[inline]
    fn add(&mut self, row: usize, bits: u64, state: &[RowState], act: &mut impl FnMut(usize, u64)) {
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[row & mask];
        if slot.0 == row {
            slot.1 |= bits;
            return;
        }
        let old = std::mem::replace(slot, (row, bits));
        if old.0 != usize::MAX {
            self.batch.push(old);
            if self.batch.len() == BATCH {
                self.flush(state, act);
            }
        }
    }

    /// Acts on the batch: first one independent load per row (the misses overlap), then
    /// the actions, which find the lines in cache.
    fn flush(&mut self, state: &[RowState], act: &mut impl FnMut(usize, u64)) {
        let mut warm = 0;
        for &(row, _) in &self.batch {
            warm ^= state.get(row).map_or(0, |s| s.done.load(Relaxed));
        }
        std::hint::black_box(warm);
        for &(row, bits) in &self.batch {
            act(row, bits);
        }
        self.batch.clear();
    }

    /// Acts on every row held.
    fn drain(&mut self, state: &[RowState], act: &mut impl FnMut(usize, u64)) {
        for k in 0..self.slots.len() {
            let slot = std::mem::replace(&mut self.slots[k], (usize::MAX, 0));
            if slot.0 != usize::MAX {
                self.batch.push(slot);
                if self.batch.len() == BATCH {
                    self.flush(state, act);
                }
            }
        }
        self.flush(state, act);
    }
}

/// The state of one solve.
struct Solver<'a> {
    t: &'a Table,
    g: Geometry,
    threads: usize,
    rows: usize,
    /// Per side, per row: what is decided (see [`RowState`]).
    state: [Vec<RowState>; 2],
    /// Per side, per row: decided for good (`done` and not `provisional`; some such bits
    /// may be missing). Dense and apart from `state`: most predecessors an un-move reaches
    /// are settled, and this tells them from a cache that holds it.
    settled: Rows,
    /// Decided at the distance being expanded (`[p & 1]`) and at the next one.
    news: [Rows; 2],
    /// One bit per word of `news`: the words that are not zero.
    summary: [Rows; 2],
    later: Later,
    /// Positions without a legal move, found by the seed (see [`Table::stuck`]).
    stuck: Rows,
}

/// Solves `table` with the row solver (the caller checked [`eligible`]).
pub fn solve(
    table: &Table,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    let g = Geometry::new(table);
    let rows = table.index.size / g.len;
    let sides = || [words(rows), words(rows)];
    let sum = rows / 64 + 1;
    let s = Solver {
        t: table,
        g,
        threads,
        rows,
        state: [0, 1].map(|_| (0..rows).map(|_| RowState::default()).collect()),
        settled: sides(),
        news: [sides(), sides()],
        summary: [0, 1].map(|_| [words(sum), words(sum)]),
        later: (0..=MAX_PLIES as usize + 4)
            .map(|_| Mutex::new(Vec::new()))
            .collect(),
        stuck: [0, 1].map(|_| words(table.index.size / 64 + 1)),
    };
    s.seed_illegal();
    s.seed_values();
    let stuck = s
        .stuck
        .each_ref()
        .map(|w| w.iter().map(|x| x.load(Relaxed)).collect());
    // Set once: a table is solved once.
    let _ = table.stuck.set(stuck);
    progress("seeded");
    let mut p = 0u8;
    loop {
        let pending = s.merge_later(p);
        if !pending && !s.any_later(p) {
            s.clear_notes();
            return Ok(());
        }
        if pending {
            if p >= MAX_PLIES {
                return Err(SolveError::TooDeep(table.name.clone()));
            }
            s.expand(p, true);
            s.expand(p, false);
            progress(&format!("distance {p}"));
        }
        p += 1;
    }
}

/// Files one seed of `row` and `side` for distance `q` in a thread's lists, merged with the
/// previous one when that is of the same row and side (a row's seeds come together).
fn file_seed(filed: &mut Vec<Vec<(usize, u8, u64)>>, q: u8, row: usize, side: u8, bit: u64) {
    let q = q as usize;
    if filed.len() <= q {
        filed.resize_with(q + 1, Vec::new);
    }
    match filed[q].last_mut() {
        Some(e) if e.0 == row && e.1 == side => e.2 |= bit,
        _ => filed[q].push((row, side, bit)),
    }
}

impl<'a> Solver<'a> {
    /// The squares of the men but the last for a row, and their occupancy.
    #[inline]
    fn decode(&self, row: usize, f: &mut [u8; MAX_MEN]) -> u64 {
        let m = self.g.m;
        if let Some(d) = &self.g.digits {
            // The indexer's decode less the last man's digit, in 32 bits (a quicker divide).
            let mut r = row as u32;
            let last = (m - 1).min(MAX_MEN - 1);
            for i in (0..last).rev() {
                let n = d.size[i];
                f[i] = d.squares[i][(r % n) as usize & 63];
                r /= n;
            }
            f[last] = d.last;
        } else {
            self.t.index.decode(row * self.g.len, &mut f[..m]);
        }
        f[..m - 1].iter().fold(0u64, |acc, &s| acc | 1u64 << s)
    }

    /// Files decided bits of `side` in `row` for distance `q` (`p`: the distance expanded).
    fn file(&self, p: u8, q: u8, row: usize, side: usize, bits: u64) {
        if q == p + 1 {
            let par = (q & 1) as usize;
            if self.news[par][side][row].fetch_or(bits, AcqRel) == 0 {
                self.summary[par][side][row / 64].fetch_or(1 << (row % 64), AcqRel);
            }
        } else if let Ok(mut l) = self.later[(q as usize).min(self.later.len() - 1)].lock() {
            l.push((row, side as u8, bits));
        }
    }

    fn any_later(&self, p: u8) -> bool {
        self.later[p as usize + 1..]
            .iter()
            .any(|l| l.lock().map(|l| !l.is_empty()).unwrap_or(false))
    }

    /// Moves the positions filed for distance `p` into the news (wins only if no quicker
    /// win replaced them) and closes the wins; true when there is anything to expand at `p`.
    fn merge_later(&self, p: u8) -> bool {
        let par = (p & 1) as usize;
        let list = self.later[p as usize]
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default();
        for (row, side, bits) in list {
            let side = side as usize;
            let mut keep = 0;
            let mut wins = 0;
            for b in ones(bits) {
                let code = self.t.values[side][row * self.g.len + b].load(Relaxed);
                if code != DRAW && code != ILLEGAL && plies(code) == p {
                    keep |= 1 << b;
                    if is_win(code) {
                        wins |= 1 << b;
                    }
                }
            }
            if wins != 0 {
                let state = &self.state[side][row];
                state.closed.fetch_or(wins, AcqRel);
                // Final now: no quicker win is left to find.
                state.provisional.fetch_and(!wins, AcqRel);
                self.settled[side][row].fetch_or(wins, Relaxed);
            }
            if keep != 0 && self.news[par][side][row].fetch_or(keep, AcqRel) == 0 {
                self.summary[par][side][row / 64].fetch_or(1 << (row % 64), AcqRel);
            }
        }
        self.summary[par]
            .iter()
            .flatten()
            .any(|w| w.load(Relaxed) != 0)
    }

    /// Illegal positions (men sharing a square, or the side to move can take the other
    /// royal) of both sides.
    fn seed_illegal(&self) {
        let g = &self.g;
        let t = self.t;
        let last = g.m - 1;
        parallel(self.rows, self.threads, |a, b| {
            let mut f = [0u8; MAX_MEN];
            for row in a..b {
                let occ = self.decode(row, &mut f);
                let clash = (occ.count_ones() as usize) < last;
                for x in 0..2 {
                    let bad = if clash {
                        g.full
                    } else {
                        f[..last].iter().fold(0, |acc, &s| acc | g.vbit[s as usize])
                            | self.attacks_royal(&f, occ, x)
                    };
                    if bad != 0 {
                        self.state[x][row].done.store(bad, Relaxed);
                        self.settled[x][row].store(bad, Relaxed);
                        self.state[x][row].closed.store(bad, Relaxed);
                        for bit in ones(bad) {
                            t.values[x][row * g.len + bit].store(ILLEGAL, Relaxed);
                        }
                    }
                }
            }
        });
    }

    /// The row's bits where side `x` (to move) can take the other side's royal.
    fn attacks_royal(&self, f: &[u8; MAX_MEN], occ: u64, x: usize) -> u64 {
        let g = &self.g;
        let last = g.m - 1;
        let ry = self.t.royal[1 - x];
        let mut bad = 0;
        if ry == last {
            for i in (0..last).filter(|&i| g.colour[i] as usize == x) {
                for st in g.hits[i][f[i] as usize].iter().filter(|st| st.takes) {
                    if occ & st.block == 0 {
                        bad |= g.vbit[st.sq as usize];
                    }
                }
            }
            return bad;
        }
        let r = f[ry];
        for i in (0..last).filter(|&i| g.colour[i] as usize == x) {
            for st in g.hits[i][f[i] as usize]
                .iter()
                .filter(|st| st.takes && st.sq == r)
            {
                if occ & st.block & !(1u64 << r) == 0 {
                    bad |= !st.vblock;
                }
            }
        }
        if g.colour[last] as usize == x {
            for &(a, empty, _) in &g.vinto[r as usize] {
                if occ & empty == 0 {
                    bad |= 1 << a;
                }
            }
        }
        bad & g.full
    }

    /// The captures of side `x` (to move) in the positions `want` of the row with the other
    /// men on `f` (occupying `occ`), into `out`; returns the row's bits that have one. Made
    /// once per row: the positions differ only in the last man, which a capture takes, makes
    /// or blocks.
    fn capture_list(
        &self,
        (f, occ): (&[u8; MAX_MEN], u64),
        x: usize,
        want: u64,
        caps: &mut Captures<'a>,
    ) -> u64 {
        let g = &self.g;
        let last = g.m - 1;
        let ry = self.t.royal[1 - x];
        let prey = |j: usize| g.colour[j] as usize != x && j != ry;
        caps.looks.clear();
        let out = &mut caps.list;
        out.clear();
        for i in (0..last).filter(|&i| g.colour[i] as usize == x) {
            // The row's bits where man `i` takes the last man: without, with promotion.
            let mut takes = [0u64; 2];
            for st in &g.hits[i][f[i] as usize] {
                let end = 1u64 << st.sq;
                if occ & st.block & !end != 0 {
                    continue;
                }
                let mut next = *f;
                next[i] = st.sq;
                let (victim, bits) = if occ & end != 0 {
                    let Some(j) = (0..last).find(|&j| f[j] == st.sq).filter(|&j| prey(j)) else {
                        continue;
                    };
                    if !st.takes {
                        continue;
                    }
                    // Open unless the last man stands on a square the path crosses.
                    let crossed = st.vblock & !g.vbit[st.sq as usize];
                    (Some(j), g.full & !crossed)
                } else {
                    if st.takes && prey(last) {
                        takes[st.promotes as usize] |= g.vbit[st.sq as usize];
                    }
                    if !(st.moves && st.promotes) {
                        continue;
                    }
                    // A promotion on the empty square, unless the last man is in the way.
                    (None, g.full & !st.vblock)
                };
                self.push_capture(out, (next, victim, bits, last), st.promotes, i);
            }
            for (promotes, bits) in [(false, takes[0]), (true, takes[1])] {
                if bits & want != 0 {
                    self.push_capture(out, (*f, Some(last), bits, i), promotes, i);
                }
            }
        }
        if g.colour[last] as usize == x {
            for j in (0..last).filter(|&j| prey(j)) {
                // The origins from which the last man takes man `j`: one position after.
                let mut takes = [0u64; 2];
                for &(from, empty, promotes) in &g.vinto[f[j] as usize] {
                    if occ & empty == 0 {
                        takes[promotes as usize] |= 1 << from;
                    }
                }
                let mut next = *f;
                next[last] = f[j];
                for (promotes, bits) in [(false, takes[0]), (true, takes[1])] {
                    if bits & want != 0 {
                        self.push_capture(out, (next, Some(j), bits, MAX_MEN), promotes, last);
                    }
                }
            }
            for &(from, to, empty) in &g.vpromote {
                if occ & (empty | 1 << to) == 0 && want >> from & 1 != 0 {
                    let mut next = *f;
                    next[last] = to;
                    self.push_capture(out, (next, None, 1 << from, MAX_MEN), true, last);
                }
            }
        }
        out.retain_mut(|c| {
            c.bits &= want;
            c.bits != 0
        });
        out.iter().fold(0, |acc, c| acc | c.bits)
    }

    /// Adds a conversion `(next, victim, bits, open)` of man `i` to `out`: once per
    /// promotion choice when it promotes. Man `open` stands on the square of the row's bit
    /// after it (see [`Capture::spread`]); `MAX_MEN` for one position in every bit.
    fn push_capture(
        &self,
        out: &mut Vec<Capture>,
        (next, victim, bits, open): ([u8; MAX_MEN], Option<usize>, u64, usize),
        promotes: bool,
        i: usize,
    ) {
        let t = self.t;
        let spread = open < MAX_MEN;
        let open = if spread { open } else { i } as u8;
        let mut add = |promo| {
            out.push(Capture {
                next,
                victim,
                promo,
                bits,
                spread,
                open,
            })
        };
        if !promotes {
            add(None);
            return;
        }
        let promo = &t.rules.promo[t.colour[i] as usize][t.piece[i] as usize];
        for &c in &promo.choices {
            add(Some((i, c)));
        }
    }

    /// Calls `visit(b, code)` with the code (the other side to move) of capture `k` of `caps`
    /// (side `x` to move) in each position `b` of `bits` where it is legal: where the
    /// position it leads to is (the sub-table holds `ILLEGAL` for the others).
    fn capture_codes(
        &self,
        caps: &mut Captures<'a>,
        k: usize,
        bits: u64,
        x: usize,
        mut visit: impl FnMut(usize, u8),
    ) {
        if bits == 0 {
            return;
        }
        let c = caps.list[k];
        let open = c.open as usize;
        if !c.spread {
            // One position: its code once. Promotions of the last man to an empty square
            // differ only in its square, and share a partial lookup.
            let code = match c.victim {
                None => self
                    .shared_look(caps, &c, &c.next)
                    .map(|look| look.code(1 - x, c.next[open])),
                Some(_) => None,
            }
            .unwrap_or_else(|| self.t.conv_code(&c.next, 1 - x, c.victim, c.promo));
            if code != ILLEGAL {
                ones(bits).for_each(|b| visit(b, code));
            }
            return;
        }
        let domain = self.t.index.domain(self.g.m - 1);
        let mut next = c.next;
        next[open] = domain[bits.trailing_zeros() as usize];
        let look = if bits & (bits - 1) != 0 {
            self.t.conv_partial(&next, c.victim, c.promo, open)
        } else {
            // One position: a partial lookup would cost as much as the whole.
            None
        };
        for b in ones(bits) {
            next[open] = domain[b];
            let code = match &look {
                Some(look) => look.code(1 - x, next[open]),
                None => self.t.conv_code(&next, 1 - x, c.victim, c.promo),
            };
            if code != ILLEGAL {
                visit(b, code);
            }
        }
    }

    /// The partial lookup of capture `c`, made in one position (`next`: the squares after
    /// it), shared with the row's other captures of its kind (same conversion and `open`).
    fn shared_look(
        &self,
        caps: &mut Captures<'a>,
        c: &Capture,
        next: &[u8; MAX_MEN],
    ) -> Option<ConvPartial<'a>> {
        let key = self.t.conv_key(c.victim, c.promo);
        if let Some(l) = caps.looks.iter().find(|l| l.0 == key && l.1 == c.open) {
            return l.2;
        }
        let look = self
            .t
            .conv_partial(next, c.victim, c.promo, c.open as usize);
        caps.looks.push((key, c.open, look));
        look
    }

    /// What the captures of `caps` (side `x` to move) lead to in the positions `bits`.
    fn outcomes(&self, caps: &mut Captures<'a>, bits: u64, x: usize) -> Outcomes {
        let mut out = Outcomes {
            any: 0,
            won: 0,
            best: [0; 64],
            open: 0,
            worst: [0; 64],
        };
        if bits == 0 {
            return out;
        }
        for k in 0..caps.list.len() {
            let mine = caps.list[k].bits & bits;
            self.capture_codes(caps, k, mine, x, |b, code| {
                out.any |= 1 << b;
                if is_loss(code) {
                    let p = plies(code) + 1;
                    if out.won >> b & 1 == 0 || p < out.best[b] {
                        out.best[b] = p;
                    }
                    out.won |= 1 << b;
                } else if is_win(code) {
                    out.worst[b] = out.worst[b].max(plies(code) + 1);
                } else {
                    out.open |= 1 << b;
                }
            });
        }
        out
    }

    /// The seed values: positions without quiet moves or with a capture go through the
    /// general seed; the rest are open.
    fn seed_values(&self) {
        let g = &self.g;
        let t = self.t;
        let m = g.m;
        parallel(self.rows, self.threads, |a, b| {
            let mut f = [0u8; MAX_MEN];
            let mut filed: Vec<Vec<(usize, u8, u64)>> = Vec::new();
            let mut list = Captures::default();
            for row in a..b {
                let occ = self.decode(row, &mut f);
                for x in 0..2 {
                    let legal = g.full & !self.state[x][row].done.load(Relaxed);
                    if legal == 0 {
                        continue;
                    }
                    let quiet = self.escapes(&f, occ, row, x, legal);
                    let capture = self.capture_list((&f, occ), x, legal, &mut list);
                    let mut sq = f;
                    let out = self.outcomes(&mut list, capture, x);
                    for bit in ones(legal & (!quiet | capture)) {
                        // As `Table::seed_lazy`: a capture to a loss wins; no move at all is
                        // mate or stalemate; only captures, all to wins, lose.
                        let q = quiet & 1 << bit != 0;
                        let (any, open) = (out.any >> bit & 1 != 0, out.open >> bit & 1 != 0);
                        sq[m - 1] = t.index.domain(m - 1)[bit];
                        let code = if out.won >> bit & 1 != 0 {
                            win(out.best[bit].min(MAX_PLIES))
                        } else if !q && !any {
                            let idx = row * g.len + bit;
                            self.stuck[x][idx / 64].fetch_or(1 << (idx % 64), Relaxed);
                            t.no_moves(&sq[..m], x)
                        } else if !q && !open {
                            loss(out.worst[bit].min(MAX_PLIES))
                        } else {
                            // Undecided: the byte notes what verification needs of the
                            // captures, which are the same at every distance.
                            let note = if open { HELD } else { out.worst[bit] };
                            t.values[x][row * g.len + bit].store(note, Relaxed);
                            continue;
                        };
                        t.values[x][row * g.len + bit].store(code, Relaxed);
                        self.state[x][row].done.fetch_or(1 << bit, Relaxed);
                        if is_win(code) && plies(code) > 1 {
                            self.state[x][row].provisional.fetch_or(1 << bit, Relaxed);
                        } else {
                            self.settled[x][row].fetch_or(1 << bit, Relaxed);
                        }
                        if code != DRAW {
                            file_seed(&mut filed, plies(code), row, x as u8, 1 << bit);
                        }
                    }
                }
            }
            self.defer(&mut filed);
        });
    }

    /// Hands a thread's seeds (per distance: `(row, side, bits)`) to the shared lists, one
    /// lock per distance.
    fn defer(&self, filed: &mut [Vec<(usize, u8, u64)>]) {
        for (q, list) in filed.iter_mut().enumerate() {
            if list.is_empty() {
                continue;
            }
            if let Ok(mut l) = self.later[q.min(self.later.len() - 1)].lock() {
                l.append(list);
            }
        }
    }

    /// Of the bits `cand` of `row` (`f`, `occ`: its other men), those where side `x` to move
    /// has a legal quiet move to a position not in `closed` of the other side.
    fn escapes(&self, f: &[u8; MAX_MEN], occ: u64, row: usize, x: usize, cand: u64) -> u64 {
        let g = &self.g;
        let ix = &self.t.index;
        let last = g.m - 1;
        let closed = &self.state[1 - x];
        let mut esc = 0;
        let mut next = *f;
        for i in (0..last).filter(|&i| g.colour[i] as usize == x) {
            let base = g.base(row, f, i);
            let alike = g.set_stride[i].is_some();
            for st in &g.moves[i][f[i] as usize] {
                if occ & st.block != 0 {
                    continue;
                }
                let c = cand & !esc & !st.vblock;
                if c == 0 {
                    continue;
                }
                let k = if i == 0 { ix.canon_of(st.sq) } else { 0 };
                let row2 = if k == 0 && !alike {
                    (st.share != usize::MAX).then(|| base + st.share)
                } else if k == 0 {
                    g.step_row(ix, (row, base), f, i, st)
                } else {
                    next[i] = st.sq;
                    let r = ix.encode_mapped(&next[..last], k);
                    next[i] = f[i];
                    r
                };
                let Some(row2) = row2 else {
                    continue;
                };
                let w = closed[row2].closed.load(Relaxed);
                if k == 0 {
                    esc |= c & !w;
                } else if let Some(flip) = g.vunflip[k] {
                    // The word seen from this row: bit `b` is the image's bit `vmap[k][b]`.
                    esc |= c & !flip_word(w, flip);
                } else {
                    for b in ones(c) {
                        if w >> g.vmap[k][b] & 1 == 0 {
                            esc |= 1 << b;
                        }
                    }
                }
                if esc == cand {
                    return esc;
                }
            }
        }
        if g.colour[last] as usize == x {
            let w = closed[row].closed.load(Relaxed);
            for a in ones(cand & !esc) {
                // Most often every target is closed, or no path is blocked: no path to
                // look at.
                let (targets, block) = g.vtargets[a];
                if targets & !w != 0
                    && (occ & block == 0
                        || g.vmoves[a]
                            .iter()
                            .any(|vs| occ & vs.block == 0 && w >> vs.local & 1 == 0))
                {
                    esc |= 1 << a;
                }
            }
        }
        esc
    }

    /// Calls `emit(row, bits)` with every stored row and bits of the positions one un-move
    /// of `mover` before the bits `bits` of `row`.
    fn predecessors(
        &self,
        row: usize,
        f: &[u8; MAX_MEN],
        occ: u64,
        bits: u64,
        mover: usize,
        emit: &mut impl FnMut(usize, u64),
    ) {
        let g = &self.g;
        let ix = &self.t.index;
        let last = g.m - 1;
        // The images of these news under the maps that keep the first man's square are
        // news too (values are symmetric, and so is every pass), and each emits its own
        // predecessors: a predecessor needs its images emitted here only under the maps
        // that keep its first man but not this row's, that is after an un-move of the
        // first man.
        let keeps = ix.stabilizer(f[0]);
        for i in (0..last).filter(|&i| g.colour[i] as usize == mover) {
            let base = g.base(row, f, i);
            let alike = g.set_stride[i].is_some();
            for st in &g.unmoves[i][f[i] as usize] {
                if occ & st.block != 0 {
                    continue;
                }
                let b = bits & !st.vblock;
                if b == 0 {
                    continue;
                }
                if i != 0 {
                    // The symmetry map stays the identity.
                    let r = if alike {
                        g.step_row(ix, (row, base), f, i, st)
                    } else {
                        (st.share != usize::MAX).then(|| base + st.share)
                    };
                    if let Some(r) = r {
                        emit(r, b);
                    }
                    continue;
                }
                let mut prev = *f;
                prev[0] = st.sq;
                if ix.canon_of(st.sq) != 0 {
                    self.stored(&prev, b, emit);
                } else if let Some(r) = g.step_row(ix, (row, base), f, i, st) {
                    emit(r, b);
                    if !ix.stabilizer(st.sq).iter().all(|h| keeps.contains(h)) {
                        self.images(&prev, b, emit);
                    }
                }
            }
        }
        if g.colour[last] as usize == mover {
            let mut before = 0;
            for b in ones(bits) {
                let (sources, block) = g.vsources[b];
                if occ & block == 0 {
                    before |= sources;
                    continue;
                }
                for vs in &g.vunmoves[b] {
                    if occ & vs.block == 0 {
                        before |= 1 << vs.local;
                    }
                }
            }
            if before != 0 {
                emit(row, before);
            }
        }
    }

    /// Every stored row and bits of the positions with the men but the last on `f` (any
    /// orientation) and the last on `bits`: the canonical form and its images.
    #[inline]
    fn stored(&self, f: &[u8; MAX_MEN], bits: u64, emit: &mut impl FnMut(usize, u64)) {
        let ix = &self.t.index;
        let last = self.g.m - 1;
        let k = ix.canon_of(f[0]);
        let mut c = *f;
        if k != 0 {
            for s in c[..last].iter_mut() {
                *s = ix.maps[k][*s as usize];
            }
        }
        let bits = self.g.permute(bits, k);
        let Some(row) = ix.encode_mapped(&c[..last], 0) else {
            return;
        };
        emit(row, bits);
        self.images(&c, bits, emit);
    }

    /// The other stored rows and bits of the canonical positions `c`, `bits` (when the first
    /// man stands where some map keeps it).
    #[inline]
    fn images(&self, c: &[u8; MAX_MEN], bits: u64, emit: &mut impl FnMut(usize, u64)) {
        let ix = &self.t.index;
        let last = self.g.m - 1;
        for &h in ix.stabilizer(c[0]) {
            if let Some(r) = ix.encode_mapped(&c[..last], h as usize) {
                emit(r, self.g.permute(bits, h as usize));
            }
        }
    }

    /// Expands the news of distance `p`: wins (`wins`) make their predecessors candidates
    /// to lose, losses make them won in `p + 1`. The pass over losses empties the news.
    fn expand(&self, p: u8, wins: bool) {
        // Above distance 0, wins have odd distances and losses even ones (see `value`): the
        // news of `p` are all of one kind, and the one pass that expands them empties them.
        let only = p > 0;
        if only && (p & 1 == 1) != wins {
            return;
        }
        let clear = only || !wins;
        let par = (p & 1) as usize;
        let g = &self.g;
        let t = self.t;
        let sum = self.summary[par][0].len();
        parallel(sum, self.threads, |a, b| {
            let mut f = [0u8; MAX_MEN];
            let mut merged = Merger::new(self.rows);
            for side in 0..2 {
                let mover = 1 - side;
                // Verification or a win, once per row merged.
                let mut act = |r: usize, bits: u64| {
                    if !wins {
                        self.win(p, r, mover, bits);
                        return;
                    }
                    let cand = bits & !self.state[mover][r].done.load(Relaxed);
                    if cand != 0 {
                        self.verify(p, r, mover, cand);
                    }
                };
                for sw in a..b {
                    let word = if clear {
                        self.summary[par][side][sw].swap(0, Relaxed)
                    } else {
                        self.summary[par][side][sw].load(Relaxed)
                    };
                    for rb in ones(word) {
                        let row = sw * 64 + rb;
                        let news = if clear {
                            self.news[par][side][row].swap(0, Relaxed)
                        } else {
                            self.news[par][side][row].load(Relaxed)
                        };
                        let mut mine = news;
                        if !only {
                            mine = 0;
                            for bit in ones(news) {
                                let code = t.values[side][row * g.len + bit].load(Relaxed);
                                if is_win(code) == wins {
                                    mine |= 1 << bit;
                                }
                            }
                        }
                        if mine == 0 {
                            continue;
                        }
                        let occ = self.decode(row, &mut f);
                        self.predecessors(row, &f, occ, mine, mover, &mut |r, bits| {
                            let bits = bits & !self.settled[mover][r].load(Relaxed);
                            if bits == 0 {
                                return;
                            }
                            merged.add(r, bits, &self.state[mover], &mut act);
                        });
                    }
                }
                merged.drain(&self.state[mover], &mut act);
            }
        });
    }

    /// Positions of `x` (to move) in `row` whose successors have all been won in at most
    /// `p` plies: lost, unless a capture holds them.
    fn verify(&self, p: u8, row: usize, x: usize, cand: u64) {
        let g = &self.g;
        let t = self.t;
        let mut f = [0u8; MAX_MEN];
        let occ = self.decode(row, &mut f);
        let lost = cand & !self.escapes(&f, occ, row, x, cand);
        if lost == 0 {
            return;
        }
        let mine = lost & !self.state[x][row].done.fetch_or(lost, AcqRel);
        self.settled[x][row].fetch_or(mine, Relaxed);
        // Most are lost in `p + 1`: filed together.
        let mut next = 0;
        for bit in ones(mine) {
            // The seed's note of the captures (see `seed_values`); the position is ours.
            let value = &t.values[x][row * g.len + bit];
            let memo = value.load(Relaxed);
            if memo == HELD {
                // A draw for good: every quiet move lets the opponent win.
                value.store(DRAW, Relaxed);
                continue;
            }
            let d = p.max(memo.saturating_sub(1));
            let code = loss((d + 1).min(MAX_PLIES));
            value.store(code, Relaxed);
            if d == p {
                next |= 1 << bit;
            } else {
                self.file(p, plies(code), row, x, 1 << bit);
            }
        }
        if next != 0 {
            self.file(p, plies(loss((p + 1).min(MAX_PLIES))), row, x, next);
        }
    }

    /// Undecided positions are draws: their bytes lose the seed's notes of their captures.
    fn clear_notes(&self) {
        let len = self.g.len;
        parallel(self.rows, self.threads, |a, b| {
            for x in 0..2 {
                for row in a..b {
                    let open = self.g.full & !self.state[x][row].done.load(Relaxed);
                    for bit in ones(open) {
                        self.t.values[x][row * len + bit].store(DRAW, Relaxed);
                    }
                }
            }
        });
    }

    /// Positions of `y` (to move) in `row` (bits `bits`) with a move to a loss in `p`:
    /// won in `p + 1` unless decided already (a win by a capture may be made quicker).
    fn win(&self, p: u8, row: usize, y: usize, bits: u64) {
        let t = self.t;
        let len = self.g.len;
        let code = win(p + 1);
        let done = self.state[y][row].done.load(Relaxed);
        let mut new = 0;
        // A provisional win is deeper than `p + 1` (or exactly that deep: rewriting it is
        // harmless): the thread that clears its bit improves it, without reading the byte.
        let state = &self.state[y][row];
        let quicker = bits & done & state.provisional.load(Relaxed);
        if quicker != 0 {
            let mine = quicker & state.provisional.fetch_and(!quicker, AcqRel);
            for bit in ones(mine) {
                t.values[y][row * len + bit].store(code, Relaxed);
            }
            new |= mine;
        }
        let fresh = bits & !done;
        if fresh != 0 {
            let mine = fresh & !self.state[y][row].done.fetch_or(fresh, AcqRel);
            for bit in ones(mine) {
                t.values[y][row * len + bit].store(code, Relaxed);
            }
            new |= mine;
        }
        if new != 0 {
            self.settled[y][row].fetch_or(new, Relaxed);
            self.state[y][row].closed.fetch_or(new, AcqRel);
            self.file(p, p + 1, row, y, new);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::flip_word;

    /// The word operations against the square maps they stand for, square by square.
    #[test]
    fn flips_move_each_square_like_the_board_maps() {
        let board = crate::egt::board::Board::new(8, 8).unwrap_or_else(|| unreachable!());
        for map in &board.maps {
            let found = (0..8)
                .map(|c| (c & 4 != 0, c & 1 != 0, c & 2 != 0))
                .filter(|&flip| (0..64).all(|b| flip_word(1u64 << b, flip) == 1u64 << map[b]))
                .count();
            assert_eq!(found, 1);
        }
        assert_eq!(
            flip_word(0x0123_4567_89ab_cdef, (false, false, false)),
            0x0123_4567_89ab_cdef
        );
    }
}
