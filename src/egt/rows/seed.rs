//! The seed pass: illegal positions (the side not to move in check), mates and stalemates,
//! the bare-king rule, and each position's conversions, filed by their distance.

use std::sync::atomic::Ordering::Relaxed;

use variants::rules::Royalty;

use crate::egt::material::MAX_MEN;
use crate::egt::solve::Bare;
use crate::egt::threads::parallel;
use crate::egt::value::{is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES};
use crate::egt::word::{ones, AtomicWord, Word};

use super::captures::{Captures, Outcomes};
use super::geometry::Cursor;
use super::later::{file_seed, Filed, LATER};
use super::Solver;

/// The byte of an undecided position with a capture to a draw (see [`Solver::seed_values`]);
/// otherwise its byte holds one more than the deepest win a capture leads to (0: no
/// capture). Positions still undecided at the end are set to `DRAW`.
pub(super) const HELD: u8 = u8::MAX;

impl<'a, W: Word> Solver<'a, W> {
    /// Illegal positions (men sharing a square, or the other side's royals stand attacked
    /// as its royalty forbids) of both sides.
    pub(super) fn seed_illegal(&self) {
        parallel(self.rows, self.pass_threads(), |a, b| {
            self.seed_illegal_rows(a..b)
        });
    }

    /// [`Solver::seed_illegal`] in the rows `rows`, on the calling thread.
    pub(super) fn seed_illegal_rows(&self, rows: std::ops::Range<usize>) {
        let geo = &self.geo;
        let table = self.table;
        let last = geo.men - 1;
        let mut at = Cursor::new();
        for row in rows {
            let occ = geo.decode_at(&table.index, row, &mut at);
            let squares = &at.squares;
            let clash = (occ.count() as usize) < last;
            for x in 0..2 {
                let bad = if clash {
                    geo.full
                } else {
                    squares[..last]
                        .iter()
                        .fold(W::ZERO, |acc, &s| acc | geo.last_bit[s as usize])
                        | self.attacks_royal(squares, occ, x)
                };
                if bad.any() {
                    self.done[x][row].store(bad, Relaxed);
                    self.settled[x][row].store(bad, Relaxed);
                    // Before the seed, so `moving` knows nothing of this row yet and
                    // has nothing to forget (see `Solver::close`).
                    self.closed[x][row].store(bad, Relaxed);
                    for bit in ones(bad) {
                        table.values[x][row * geo.len + bit].store(ILLEGAL, Relaxed);
                    }
                }
            }
        }
    }

    /// The row's bits where the other side's royals stand attacked by side `x` (to move) as its
    /// royalty does not allow (see [`Table::exposed`](crate::egt::solve::Table::exposed)): the
    /// position is broken.
    pub(super) fn attacks_royal(&self, squares: &[u8; MAX_MEN], occ: W, x: usize) -> W {
        let table = self.table;
        if !table.several(1 - x) {
            return self.attacks_one(squares, occ, x, table.royal[1 - x]);
        }
        match table.rules.variant.end.royalty {
            Royalty::Absolute => self.checks(squares, occ, x),
            Royalty::Extinction => (0..self.geo.men)
                .filter(|&r| table.royals[1 - x] & (1 << r) != 0)
                .fold(self.geo.full, |acc, r| {
                    acc & self.attacks_one(squares, occ, x, r)
                }),
            Royalty::Last => W::ZERO,
        }
    }

    /// The row's bits where side `x` (to move) attacks some royal of the other side: the
    /// other side, to move there, would be in check (as `Table::in_check`).
    pub(super) fn checks(&self, squares: &[u8; MAX_MEN], occ: W, x: usize) -> W {
        (0..self.geo.men)
            .filter(|&r| self.table.royals[1 - x] & (1 << r) != 0)
            .fold(W::ZERO, |acc, r| acc | self.attacks_one(squares, occ, x, r))
    }

    /// The row's bits where side `x` (to move) attacks the other side's royal man `ry`.
    pub(super) fn attacks_one(&self, squares: &[u8; MAX_MEN], occ: W, x: usize, ry: usize) -> W {
        let geo = &self.geo;
        let last = geo.men - 1;
        let mut bad = W::ZERO;
        if ry == last {
            for &i in &geo.side_men[x] {
                for st in geo.hits[i][squares[i] as usize]
                    .iter()
                    .filter(|st| st.takes || st.checks)
                {
                    // The royal on the path's end can be no screen of it.
                    if !(occ & st.block).any() && occ & st.screen == st.screen {
                        bad |= geo.last_bit[st.sq as usize];
                    }
                }
            }
            return bad;
        }
        let royal_square = squares[ry];
        for &i in &geo.side_men[x] {
            for st in geo.hits[i][squares[i] as usize]
                .iter()
                .filter(|st| (st.takes || st.checks) && st.sq == royal_square)
            {
                if occ & st.block & !W::bit(royal_square as usize) == W::ZERO {
                    bad |= !st.row_block & geo.screened(occ, st.screen);
                }
            }
        }
        if geo.colour[last] as usize == x {
            let takes = geo.last_into[royal_square as usize]
                .iter()
                .map(|&(a, need, _)| (a, need));
            for (a, need) in takes.chain(geo.last_checks[royal_square as usize].iter().copied()) {
                if need.open(occ) {
                    bad |= W::bit(a as usize);
                }
            }
        }
        bad & geo.full
    }

    /// The seed values: positions without quiet moves or with a capture go through the
    /// general seed; the rest are open.
    pub(super) fn seed_values(&self, level: &[usize]) {
        self.seed_values_in(level, None);
    }

    /// [`Solver::seed_values`], with the seeds of the rows of slice `s` (of `per` rows)
    /// filed in the [`LATER`] lists from `place[s] * LATER` on, when `slices` is given
    /// (the first level's slices seeded together).
    pub(super) fn seed_values_in(&self, level: &[usize], slices: Option<(usize, &[usize])>) {
        let geo = &self.geo;
        parallel(level.len(), self.pass_threads(), |a, b| {
            let mut filed: Vec<Filed<W>> = Vec::new();
            let mut list = Captures::default();
            let mut at = Cursor::new();
            for &row in &level[a..b] {
                let occ = geo.decode_at(&self.table.index, row, &mut at);
                let squares = &at.squares;
                let from = slices.map_or(0, |(per, place)| place[row / per] * LATER);
                for x in 0..2 {
                    let legal = geo.full & !self.done[x][row].load(Relaxed);
                    if !legal.any() {
                        continue;
                    }
                    let filing = (&mut filed, from);
                    let (decided, provisional) =
                        self.seed_row((row, squares, occ), x, legal, &mut list, filing);
                    if !decided.any() {
                        continue;
                    }
                    // A load and a store per word: the seed writes each row from one
                    // thread, and a locked operation per position would wait for the value
                    // bytes stored before it.
                    let done = &self.done[x][row];
                    done.store(done.load(Relaxed) | decided, Relaxed);
                    self.provisional[x][row].store(provisional, Relaxed);
                    let settled = &self.settled[x][row];
                    settled.store(settled.load(Relaxed) | (decided & !provisional), Relaxed);
                }
            }
            self.defer(&mut filed);
        });
    }

    /// Seeds the positions `legal` of `row` (other men on `squares`, occupying `occ`), side `x`
    /// to move: writes their bytes, files the decided ones (in `filed`, distance `q` in list
    /// `from + q`), and returns them with those of them that are provisional wins (see
    /// [`Solver::provisional`]).
    pub(super) fn seed_row(
        &self,
        (row, squares, occ): (usize, &[u8; MAX_MEN], W),
        x: usize,
        legal: W,
        list: &mut Captures<'a, W>,
        (filed, from): (&mut Vec<Filed<W>>, usize),
    ) -> (W, W) {
        let (geo, table, men) = (&self.geo, self.table, self.geo.men);
        let quiet = self.escapes(squares, occ, row, x, legal);
        let capture = self.capture_list((squares, occ), x, legal, list);
        let mut out = self.outcomes(list, capture, x);
        let capture = capture | self.push_outcomes((row, squares, occ), x, legal, &mut out);
        if let Some(rule) = geo.bare[x] {
            return (self.seed_bare((row, x, legal), quiet, &out, rule), W::ZERO);
        }
        // As `Table::seed_lazy`: a capture to a loss wins; no move at all is mate or
        // stalemate; only captures, all to wins, lose. Found for the whole row: most
        // positions are none of these.
        let won = legal & out.won;
        let stuck = legal & !quiet & !out.any;
        let lost = legal & !quiet & out.any & !out.open & !won;
        // Undecided with a capture (or no quiet move): the byte notes what verification
        // needs of the captures, which are the same at every distance.
        let base = row * geo.len;
        let noted = legal & (!quiet | capture) & !(won | stuck | lost);
        for bit in ones(noted) {
            let note = if out.open.has(bit) {
                HELD
            } else {
                out.worst[bit]
            };
            table.values[x][base + bit].store(note, Relaxed);
        }
        let mut decided = won | stuck | lost;
        let mut provisional = W::ZERO;
        let mut file = |code, bit| {
            file_seed(
                filed,
                from + plies(code) as usize,
                row,
                x as u8,
                W::bit(bit),
            )
        };
        // Wins and losses apart from the rare positions without a move: each loop asks
        // nothing of its code but its distance.
        for bit in ones(won) {
            let code = win(out.best[bit].min(MAX_PLIES));
            table.values[x][base + bit].store(code, Relaxed);
            if plies(code) > 1 {
                provisional |= W::bit(bit);
            }
            file(code, bit);
        }
        for bit in ones(lost) {
            let code = loss(out.worst[bit].min(MAX_PLIES));
            table.values[x][base + bit].store(code, Relaxed);
            file(code, bit);
        }
        let mut sq = *squares;
        for bit in ones(stuck) {
            let idx = base + bit;
            self.stuck[x][idx / 64].fetch_or(1 << (idx % 64), Relaxed);
            sq[men - 1] = table.index.domain(men - 1)[bit];
            let code = table.no_moves(&sq[..men], x);
            table.values[x][base + bit].store(code, Relaxed);
            if is_win(code) && plies(code) > 1 {
                provisional |= W::bit(bit);
            }
            if code != DRAW {
                file(code, bit);
            }
        }
        // Held by a capture to a draw, so never lost: decided as far as verification goes
        // (where each cost a look at every distance until its last quiet move closed), and
        // provisional, since a quiet move may still win (see `Solver::win`). The byte keeps
        // its note until the end (see `Solver::clear_notes`). Not under the perpetual-check
        // ban, whose game reads which positions are decided.
        if !table.rules.game.perpetual_check_loses {
            let held = noted & out.open;
            decided |= held;
            provisional |= held;
        }
        (decided, provisional)
    }

    /// Seeds the positions `legal` of `row`, side `x` to move, where the bare-king rule
    /// decides them all (`quiet`: those with a quiet move, `out`: their captures): writes
    /// their bytes and returns those decided; the draws stay open (and end as draws). Nothing
    /// is filed: every position of such a table is decided here, so no pass has anything
    /// to change.
    pub(super) fn seed_bare(
        &self,
        (row, x, legal): (usize, usize, W),
        quiet: W,
        out: &Outcomes<W>,
        rule: Bare,
    ) -> W {
        let len = self.geo.len;
        let mut decided = W::ZERO;
        for bit in ones(legal) {
            let idx = row * len + bit;
            if !quiet.has(bit) && !out.any.has(bit) {
                self.stuck[x][idx / 64].fetch_or(1 << (idx % 64), Relaxed);
            }
            let code = match rule {
                Bare::Won => win(0),
                Bare::Lost => loss(0),
                Bare::LostUnlessBares if !out.any.has(bit) => loss(0),
                Bare::LostUnlessBares | Bare::Drawn => continue,
            };
            self.table.values[x][idx].store(code, Relaxed);
            decided |= W::bit(bit);
        }
        decided
    }
}
