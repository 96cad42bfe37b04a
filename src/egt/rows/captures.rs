//! Conversions of a row: its captures and promotions listed once per row ([`Captures`]), looked
//! up in the sub-tables, and what they lead to per position of the row ([`Outcomes`]).

use std::sync::atomic::Ordering::Relaxed;

use variants::PieceId;

use crate::egt::material::MAX_MEN;
use crate::egt::solve::ConvPartial;
use crate::egt::value::{is_loss, is_win, plies, ILLEGAL, WON_NOW};
use crate::egt::word::{ones, Word};

use super::geometry::MAX_ROW;
use super::Solver;

/// One capture in the positions of a row (see [`Solver::capture_list`]).
#[derive(Clone, Copy)]
pub(super) struct Capture<W> {
    /// The squares after it; man `open`'s is set per position when `spread`.
    pub(super) next: [u8; MAX_MEN],
    /// The man taken, if any.
    pub(super) victim: Option<usize>,
    /// The promotion, if any: the man and what it becomes.
    pub(super) promo: Option<(usize, PieceId)>,
    /// The row's positions in which it can be made.
    pub(super) bits: W,
    /// The positions after it differ: man `open` stands on the square of the row's bit (the
    /// last man, or the man that takes it); otherwise they are one.
    pub(super) spread: bool,
    /// The man whose square differs between the positions after it, or after the captures
    /// of its kind (see [`Captures`]): the last man, unless it was taken (then the man that
    /// took it).
    pub(super) open: u8,
    /// The mover may win by it (see
    /// [`Table::conv_may_win`](crate::egt::solve::Table::conv_may_win)).
    pub(super) may_win: bool,
}

/// A row's captures, and the sub-table lookups made for them with one man's square left
/// open: a capture's positions differ only in the last man's square, and the captures that
/// take the last man, or that it makes, each made in one position, only in the square of
/// the man that moves.
#[derive(Default)]
pub(super) struct Captures<'a, W> {
    pub(super) list: Vec<Capture<W>>,
    /// For the captures made in one position: conversion key, open man, the lookup.
    pub(super) looks: Vec<(usize, u8, Option<ConvPartial<'a>>)>,
}

/// What a position's captures lead to (see [`Solver::seed_values`]), per row bit.
pub(super) struct Outcomes<W> {
    /// Some legal capture.
    pub(super) any: W,
    /// Some capture to a loss; `best[b]` the quickest win by one.
    pub(super) won: W,
    pub(super) best: [u8; MAX_ROW],
    /// Some capture to a draw (or an undecided position).
    pub(super) open: W,
    /// The slowest loss by a capture to a win.
    pub(super) worst: [u8; MAX_ROW],
}

impl<W: Word> Outcomes<W> {
    /// Adds a move from position `b` to a position of code `code` (the other side to move).
    #[inline]
    pub(super) fn add(&mut self, b: usize, code: u8) {
        self.any |= W::bit(b);
        if is_loss(code) {
            self.best[b] = self.best[b].min(plies(code) + 1);
            self.won |= W::bit(b);
        } else if is_win(code) {
            self.worst[b] = self.worst[b].max(plies(code) + 1);
        } else {
            self.open |= W::bit(b);
        }
    }

    /// No move yet.
    pub(super) fn new() -> Outcomes<W> {
        Outcomes {
            any: W::ZERO,
            won: W::ZERO,
            best: [u8::MAX; MAX_ROW],
            open: W::ZERO,
            worst: [0; MAX_ROW],
        }
    }

    /// [`Outcomes::add`] for the first `len` positions of a row at once, a move from
    /// position `b` to code `codes[b]` (none where it is `ILLEGAL`); returns the positions
    /// with a move. Without a branch per position: a conversion's codes come in no order,
    /// and the branches on them were mispredicted (the distances go in [`LANE`]s of bytes,
    /// the masks from eight bytes to a word).
    pub(super) fn add_row(&mut self, codes: &RowCodes, len: usize) -> W {
        let lanes = (self.best.chunks_exact_mut(LANE))
            .zip(self.worst.chunks_exact_mut(LANE))
            .zip(codes.chunks_exact(LANE))
            .take(len.div_ceil(LANE));
        for ((best, worst), codes) in lanes {
            for j in 0..LANE {
                // A loss's code is its plies plus one, and `ILLEGAL` odd and above them all;
                // a win's too, but `WON_NOW`'s (no plies) and `DRAW`'s (no win).
                let code = codes[j];
                let odd = code & 1;
                let even = odd ^ 1;
                // Without branches or selects, in lanes: odd codes to `best`, even to `worst`.
                best[j] = best[j].min(code | even.wrapping_neg());
                let won_now = u8::from(code == WON_NOW);
                worst[j] = worst[j].max((code & odd.wrapping_sub(1)) - won_now * (WON_NOW - 1));
            }
        }
        let mut any = W::ZERO;
        for (k, chunk) in codes.chunks_exact(8).take(len.div_ceil(8)).enumerate() {
            let packed = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            let present = !zero_bytes(!packed) & BYTE_LOW;
            let at = |mask: u64| W::of_low64(byte_bits(mask)).offset_by(-8 * k as i32);
            any |= at(present);
            self.won |= at(packed & present);
            self.open |= at(zero_bytes(packed));
        }
        self.any |= any;
        any
    }
}

/// One conversion's codes in a row's positions, a byte per position (see
/// [`Outcomes::add_row`]).
pub(super) type RowCodes = [u8; MAX_ROW];

/// Bytes [`Outcomes::add_row`] takes at a time for the distances: an SSE2 register's (a
/// fixed count of plain arithmetic, which the compiler turns into vector operations).
pub(super) const LANE: usize = 16;

/// The low bit of each byte of a word.
pub(super) const BYTE_LOW: u64 = 0x0101_0101_0101_0101;

/// The low bit of each byte of `x` set where the byte is zero, the others clear (exact:
/// no borrow crosses a byte).
#[inline]
pub(super) fn zero_bytes(x: u64) -> u64 {
    let high = BYTE_LOW * 0x7f;
    !(((x & high) + high) | x) >> 7 & BYTE_LOW
}

/// Bit `k` set where byte `k` of `x` (which holds only low bits of bytes) is set: the
/// multiplication moves byte `k`'s bit to bit `56 + k` without carries.
#[inline]
pub(super) fn byte_bits(x: u64) -> u64 {
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// The fewest positions of a row in which a conversion is made whose codes are added for
/// the whole row at once (see [`Outcomes::add_row`]); below, position by position.
pub(super) const ROW_CODES: u32 = 16;

impl<'a, W: Word> Solver<'a, W> {
    /// The captures of side `x` (to move) in the positions `want` of the row with the other
    /// men on `squares` (occupying `occ`), into `out`; returns the row's bits that have one. Made
    /// once per row: the positions differ only in the last man, which a capture takes, makes
    /// or blocks.
    pub(super) fn capture_list(
        &self,
        (squares, occ): (&[u8; MAX_MEN], W),
        x: usize,
        want: W,
        caps: &mut Captures<'a, W>,
    ) -> W {
        let geo = &self.geo;
        let last = geo.men - 1;
        // A royal may be taken where its side keeps another, unless under absolute royalty
        // (see `Table::protected`): a conversion like any capture.
        let prey = |j: usize| geo.colour[j] as usize != x && !self.table.protected(j);
        caps.looks.clear();
        let out = &mut caps.list;
        out.clear();
        for &i in &geo.side_men[x] {
            // The row's bits where man `i` takes the last man: without, with promotion.
            let mut takes = [W::ZERO; 2];
            for st in &geo.hits[i][squares[i] as usize] {
                let end = W::bit(st.sq as usize);
                if (occ & st.block & !end).any() {
                    continue;
                }
                let mut next = *squares;
                next[i] = st.sq;
                let (victim, bits) = if (occ & end).any() {
                    let Some(j) = (0..last)
                        .find(|&j| squares[j] == st.sq)
                        .filter(|&j| prey(j))
                    else {
                        continue;
                    };
                    if !st.takes {
                        continue;
                    }
                    // Open unless the last man stands on a square the path crosses (or
                    // screens it where no other man does).
                    let crossed = st.row_block & !geo.last_bit[st.sq as usize];
                    (Some(j), geo.full & !crossed & geo.screened(occ, st.screen))
                } else {
                    // The last man taken on the path's end screens nothing of it.
                    if st.takes && prey(last) && occ & st.screen == st.screen {
                        takes[st.promotes as usize] |= geo.last_bit[st.sq as usize];
                    }
                    if st.pushes {
                        // Row by row: see `push_outcomes`.
                        continue;
                    }
                    if !(st.moves && st.promotes) {
                        continue;
                    }
                    // A promotion on the empty square, unless the last man is in the way.
                    (
                        None,
                        geo.full & !st.row_block & geo.screened(occ, st.screen),
                    )
                };
                self.push_capture(out, (next, victim, bits, last), st.promotes, i);
            }
            for (promotes, bits) in [(false, takes[0]), (true, takes[1])] {
                if (bits & want).any() {
                    self.push_capture(out, (*squares, Some(last), bits, i), promotes, i);
                }
            }
        }
        if geo.colour[last] as usize == x {
            for j in (0..last).filter(|&j| prey(j)) {
                // The origins from which the last man takes man `j`: one position after.
                let mut takes = [W::ZERO; 2];
                for &(from, need, promotes) in &geo.last_into[squares[j] as usize] {
                    if need.open(occ) {
                        takes[promotes as usize] |= W::bit(from as usize);
                    }
                }
                let mut next = *squares;
                next[last] = squares[j];
                for (promotes, bits) in [(false, takes[0]), (true, takes[1])] {
                    if (bits & want).any() {
                        self.push_capture(out, (next, Some(j), bits, MAX_MEN), promotes, last);
                    }
                }
            }
            for &(from, to, need) in &geo.last_promotes {
                if need.open(occ) && !occ.has(to as usize) && want.has(from as usize) {
                    let mut next = *squares;
                    next[last] = to;
                    self.push_capture(
                        out,
                        (next, None, W::bit(from as usize), MAX_MEN),
                        true,
                        last,
                    );
                }
            }
        }
        out.retain_mut(|c| {
            c.bits &= want;
            c.bits.any()
        });
        // Those the mover cannot win by last (see `Solver::outcomes`); a stable sort, and
        // only in the rows that have one.
        if out.iter().any(|c| !c.may_win) {
            out.sort_by_key(|c| !c.may_win);
        }
        out.iter().fold(W::ZERO, |acc, c| acc | c.bits)
    }

    /// Adds a conversion `(next, victim, bits, open)` of man `i` to `out`: once per
    /// promotion choice when it promotes. Man `open` stands on the square of the row's bit
    /// after it (see [`Capture::spread`]); `MAX_MEN` for one position in every bit.
    pub(super) fn push_capture(
        &self,
        out: &mut Vec<Capture<W>>,
        (next, victim, bits, open): ([u8; MAX_MEN], Option<usize>, W, usize),
        promotes: bool,
        i: usize,
    ) {
        let table = self.table;
        let spread = open < MAX_MEN;
        let open = if spread { open } else { i } as u8;
        let mover = table.colour[i] as usize;
        let mut add = |promo| {
            out.push(Capture {
                next,
                victim,
                promo,
                bits,
                spread,
                open,
                // Asked of promotions only: a capture into a table where its maker
                // cannot win rarely meets another move that draws, and the question costs
                // a key's arithmetic in every capture of every row.
                may_win: promo.is_none() || table.conv_may_win(victim, promo, mover),
            })
        };
        if !promotes {
            add(None);
            return;
        }
        for &c in &table.promos[i] {
            add(Some((i, c)));
        }
    }

    /// Calls `visit(b, code)` with the code (the other side to move) of capture `k` of `caps`
    /// (side `x` to move) in each position `b` of `bits` where it is legal: where the
    /// position it leads to is (the sub-table holds `ILLEGAL` for the others).
    pub(super) fn capture_codes(
        &self,
        caps: &mut Captures<'a, W>,
        k: usize,
        bits: W,
        x: usize,
        mut visit: impl FnMut(usize, u8),
    ) {
        if !bits.any() {
            return;
        }
        let capture = caps.list[k];
        let open = capture.open as usize;
        if !capture.spread {
            // One position: its code once. Promotions of the last man to an empty square
            // differ only in its square, and share a partial lookup.
            let code = match capture.victim {
                None => self
                    .shared_look(caps, &capture, &capture.next)
                    .map(|look| look.code(1 - x, capture.next[open])),
                Some(_) => None,
            }
            .unwrap_or_else(|| {
                self.table
                    .conv_code(&capture.next, 1 - x, capture.victim, capture.promo)
            });
            if code != ILLEGAL {
                ones(bits).for_each(|b| visit(b, code));
            }
            return;
        }
        let domain = self.table.index.domain(self.geo.men - 1);
        let mut next = capture.next;
        next[open] = domain[bits.lowest()];
        let look = if bits.drop_lowest().any() {
            self.table
                .conv_partial(&next, capture.victim, capture.promo, open)
        } else {
            // One position: a partial lookup would cost as much as the whole.
            None
        };
        if let Some(look) = &look {
            look.codes(1 - x, ones(bits).map(|b| (b, domain[b])), visit);
            return;
        }
        for b in ones(bits) {
            next[open] = domain[b];
            let code = self
                .table
                .conv_code(&next, 1 - x, capture.victim, capture.promo);
            if code != ILLEGAL {
                visit(b, code);
            }
        }
    }

    /// The partial lookup of `capture`, made in one position (`next`: the squares after
    /// it), shared with the row's other captures of its kind (same conversion and `open`).
    pub(super) fn shared_look(
        &self,
        caps: &mut Captures<'a, W>,
        c: &Capture<W>,
        next: &[u8; MAX_MEN],
    ) -> Option<ConvPartial<'a>> {
        let key = self.table.conv_key(c.victim, c.promo);
        if let Some(l) = caps.looks.iter().find(|l| l.0 == key && l.1 == c.open) {
            return l.2;
        }
        let look = self
            .table
            .conv_partial(next, c.victim, c.promo, c.open as usize);
        caps.looks.push((key, c.open, look));
        look
    }

    /// What the captures of `caps` (side `x` to move) lead to in the positions `bits`.
    pub(super) fn outcomes(&self, caps: &mut Captures<'a, W>, bits: W, x: usize) -> Outcomes<W> {
        let mut out = Outcomes::new();
        if !bits.any() {
            return out;
        }
        let len = self.geo.len;
        let mut codes = [ILLEGAL; MAX_ROW];
        // Those the mover may win by come first (see `Solver::capture_list`): one it
        // cannot (a promotion to a piece that cannot mate) changes nothing where a move
        // already wins or draws, and is looked up only where none does.
        for k in 0..caps.list.len() {
            let mut mine = caps.list[k].bits & bits;
            if !caps.list[k].may_win {
                mine &= !(out.won | out.open);
            }
            if mine.count() < ROW_CODES {
                self.capture_codes(caps, k, mine, x, |b, code| out.add(b, code));
                continue;
            }
            self.capture_codes(caps, k, mine, x, |b, code| codes[b] = code);
            out.add_row(&codes, len);
            codes[..len].fill(ILLEGAL);
        }
        out
    }

    /// Adds to `out` what the moves of side `x` (to move) out of the level (see
    /// [`Step::pushes`](super::geometry::Step::pushes)) lead to in the positions `want` of `row`
    /// (other men on `squares`, occupying `occ`); returns the positions with such a legal move. A
    /// move carries the row to another, final already: the codes lie together there.
    pub(super) fn push_outcomes(
        &self,
        (row, squares, occ): (usize, &[u8; MAX_MEN], W),
        x: usize,
        want: W,
        out: &mut Outcomes<W>,
    ) -> W {
        let (geo, ix, len) = (&self.geo, &self.table.index, self.geo.len);
        let mut any = W::ZERO;
        for i in (0..geo.heights.len()).filter(|&i| geo.colour[i] as usize == x) {
            let base = geo.base(ix, row, squares, i);
            for st in geo.hits[i][squares[i] as usize]
                .iter()
                .filter(|st| st.pushes)
            {
                let bits = want & !st.row_block & geo.screened(occ, st.screen);
                if (occ & st.block).any() || !bits.any() {
                    continue;
                }
                let to = geo.step_row(ix, base, squares, i, st);
                let ep = st.sets_ep
                    && self
                        .table
                        .may_take_en_passant(squares, (i, squares[i], st.sq));
                if let (Some(to), false) = (to, ep) {
                    let mut codes = [ILLEGAL; MAX_ROW];
                    let values = &self.table.values[1 - x][to * len..(to + 1) * len];
                    for b in ones(bits) {
                        codes[b] = values[b].load(Relaxed);
                    }
                    any |= out.add_row(&codes, len);
                    continue;
                }
                let mut next = *squares;
                next[i] = st.sq;
                for b in ones(bits) {
                    let mut code = match to {
                        Some(to) => self.table.values[1 - x][to * len + b].load(Relaxed),
                        None => {
                            // The first man leaves the fundamental region: mapped back.
                            next[geo.men - 1] = ix.domain(geo.men - 1)[b];
                            self.table.code(1 - x, &next[..geo.men])
                        }
                    };
                    if ep && code != ILLEGAL {
                        next[geo.men - 1] = ix.domain(geo.men - 1)[b];
                        let at = to.map(|to| to * len + b);
                        let stuck = at.or_else(|| ix.encode(&next[..geo.men])).is_some_and(|k| {
                            self.stuck[1 - x][k / 64].load(Relaxed) >> (k % 64) & 1 != 0
                        });
                        code = self
                            .table
                            .with_en_passant(&next, (i, squares[i]), code, stuck);
                    }
                    if code != ILLEGAL {
                        any |= W::bit(b);
                        out.add(b, code);
                    }
                }
            }
        }
        any
    }
}
