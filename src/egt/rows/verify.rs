//! Verification, the row solver's escape count: a candidate is lost when none of its moves
//! inside the table reaches a position not yet won in time and no capture holds it, checked
//! for a whole row at once.

use std::sync::atomic::Ordering::Relaxed;

use crate::egt::material::MAX_MEN;
use crate::egt::value::{loss, plies, DRAW, MAX_PLIES};
use crate::egt::word::{ones, AtomicWord, Word};

use super::geometry::flip_word;
use super::seed::HELD;
use super::{settle, Rmw, Solver};

impl<'a, W: Word> Solver<'a, W> {
    /// Of the bits `cand` of `row` (`squares`, `occ`: its other men), those where side `x` to move
    /// has a legal quiet move to a position not in `closed` of the other side.
    pub(super) fn escapes(
        &self,
        squares: &[u8; MAX_MEN],
        occ: W,
        row: usize,
        x: usize,
        cand: W,
    ) -> W {
        let closed = self.closed[1 - x];
        if !self.memo[x] {
            return self.escapes_from(squares, occ, row, x, cand, closed);
        }
        let memo = &self.moving[x][row];
        let mut moving = memo.load(Relaxed);
        // Zero: not known since the row's `closed` word last grew (or none, found again).
        if !moving.any() {
            moving = self.geo.reach_open(closed[row].load(Relaxed), occ);
            memo.store(moving, Relaxed);
        }
        let esc = cand & moving;
        if esc == cand {
            return esc;
        }
        self.escapes_of_others(squares, occ, row, x, (cand, esc), closed)
    }

    /// Whether `moving` may hold the escapes of side `x`'s last man (see
    /// [`Solver::memo`]): the man is `x`'s and moves by leaps and rays alone.
    pub(super) fn memo_of(&self, x: usize) -> bool {
        let geo = &self.geo;
        geo.colour[geo.men - 1] as usize == x && geo.last_pure && !geo.last_leaps.is_empty()
    }

    /// The positions of `cand` in `row` where side `x`'s last man has an escape, as far as
    /// `moving` knows (none when it is not kept): they need no verification.
    #[inline]
    pub(super) fn moving(&self, row: usize, x: usize) -> W {
        if self.memo[x] {
            self.moving[x][row].load(Relaxed)
        } else {
            W::ZERO
        }
    }

    /// Closes `bits` of side `y` in `row`, and forgets what `moving` knew of the other
    /// side's escapes there.
    #[inline]
    pub(super) fn close(&self, rmw: Rmw, y: usize, row: usize, bits: W) {
        rmw.or(&self.closed[y][row], bits);
        if self.memo[1 - y] {
            self.moving[1 - y][row].store(W::ZERO, Relaxed);
        }
    }

    /// [`Solver::escapes`] with `closed` for the other side's positions that are no escape.
    pub(super) fn escapes_from(
        &self,
        squares: &[u8; MAX_MEN],
        occ: W,
        row: usize,
        x: usize,
        cand: W,
        closed: &[W::Atomic],
    ) -> W {
        let geo = &self.geo;
        let last = geo.men - 1;
        // The last man first: its moves stay in the row (one word, in cache), where the
        // other men's each read another row's.
        let mut esc = W::ZERO;
        if geo.colour[last] as usize == x {
            let closed_word = closed[row].load(Relaxed);
            if !geo.last_leaps.is_empty() {
                esc |= cand & geo.reach_open(closed_word, occ);
            }
            let rest = if geo.last_pure { W::ZERO } else { cand & !esc };
            for a in ones(rest) {
                // Most often every target is closed, or no path is blocked: no path to
                // look at.
                let (targets, block) = geo.last_targets[a];
                if (targets & !closed_word).any()
                    && (!(occ & block).any()
                        || geo.last_moves[a]
                            .iter()
                            .any(|vs| vs.need.open(occ) && !closed_word.has(vs.local as usize)))
                {
                    esc |= W::bit(a);
                }
            }
        }
        if esc == cand {
            return esc;
        }
        self.escapes_of_others(squares, occ, row, x, (cand, esc), closed)
    }

    /// [`Solver::escapes_from`] by the moves of side `x`'s men but the last, of the
    /// positions `cand` but those of `esc` (found already, and returned with the rest).
    pub(super) fn escapes_of_others(
        &self,
        squares: &[u8; MAX_MEN],
        occ: W,
        row: usize,
        x: usize,
        (cand, mut esc): (W, W),
        closed: &[W::Atomic],
    ) -> W {
        let geo = &self.geo;
        let ix = &self.table.index;
        let last = geo.men - 1;
        let mut next = *squares;
        for &i in &geo.side_men[x] {
            let base = geo.base(ix, row, squares, i);
            if let Some((quick, _)) = &geo.quick[i] {
                for quick_step in &quick[squares[i] as usize] {
                    if (occ & quick_step.block).any() {
                        continue;
                    }
                    let closed_word = closed[base + quick_step.share].load(Relaxed);
                    esc |= cand & !quick_step.row_block & !closed_word;
                    if esc == cand {
                        return esc;
                    }
                }
                continue;
            }
            let alike = geo.set_stride[i].is_some();
            for st in &geo.moves[i][squares[i] as usize] {
                if (occ & st.block).any() {
                    continue;
                }
                let escaping = cand & !esc & !st.row_block & geo.screened(occ, st.screen);
                if !escaping.any() {
                    continue;
                }
                let k = if i == 0 { ix.canon_of(st.sq) } else { 0 };
                let row2 = if k == 0 && !alike {
                    (st.share != usize::MAX).then(|| base + st.share)
                } else if k == 0 {
                    geo.step_row(ix, base, squares, i, st)
                } else {
                    next[i] = st.sq;
                    let to_row = ix.encode_mapped(&next[..last], k);
                    next[i] = squares[i];
                    to_row
                };
                let Some(row2) = row2 else {
                    continue;
                };
                let closed_word = closed[row2].load(Relaxed);
                if k == 0 {
                    esc |= escaping & !closed_word;
                } else if let Some(flip) = geo.last_unflip[k] {
                    // The word seen from this row: bit `b` is the image's bit `last_map[k][b]`.
                    esc |= escaping & !W::of_low64(flip_word(closed_word.low64(), flip));
                } else {
                    for b in ones(escaping) {
                        if !closed_word.has(geo.last_map[k][b] as usize) {
                            esc |= W::bit(b);
                        }
                    }
                }
                if esc == cand {
                    return esc;
                }
            }
        }
        esc
    }

    /// Positions of `x` (to move) in `row` whose successors have all been won in at most
    /// `distance` plies: lost, unless a capture holds them.
    pub(super) fn verify(&self, distance: u8, row: usize, x: usize, cand: W) {
        let mut squares = [0u8; MAX_MEN];
        let occ = self.decode(row, &mut squares);
        self.verify_at(distance, (row, &squares, occ), x, cand);
    }

    /// [`Solver::verify`] with the row decoded (`squares`, `occ`).
    pub(super) fn verify_at(
        &self,
        distance: u8,
        (row, squares, occ): (usize, &[u8; MAX_MEN], W),
        x: usize,
        cand: W,
    ) {
        let geo = &self.geo;
        let table = self.table;
        let lost = cand & !self.escapes(squares, occ, row, x, cand);
        if !lost.any() {
            return;
        }
        let mine = lost & !self.rmw().or(&self.done[x][row], lost);
        settle(&self.settled[x][row], mine);
        // Most are lost in `distance + 1`: filed together.
        let mut next = W::ZERO;
        for bit in ones(mine) {
            // The seed's note of the captures (see `seed_values`); the position is ours.
            let value = &table.values[x][row * geo.len + bit];
            let memo = value.load(Relaxed);
            if memo == HELD {
                // A draw for good: every quiet move lets the opponent win.
                value.store(DRAW, Relaxed);
                continue;
            }
            let depth = distance.max(memo.saturating_sub(1));
            let code = loss((depth + 1).min(MAX_PLIES));
            value.store(code, Relaxed);
            if depth == distance {
                next |= W::bit(bit);
            } else {
                self.file(distance, plies(code), row, x, W::bit(bit));
            }
        }
        if next.any() {
            self.file(
                distance,
                plies(loss((distance + 1).min(MAX_PLIES))),
                row,
                x,
                next,
            );
        }
    }
}
