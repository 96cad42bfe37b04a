//! Escape counters: for each undecided position, how many of its distinct successors inside
//! the table are not yet known to be won by the opponent (plus one for an escape that can
//! never close: a drawing conversion, a move out of the index). The seed pass sets them;
//! propagation takes one off each time a successor is found won, and a position whose count
//! reaches zero is lost, without generating its moves again.

use super::board::{bit, Bits};
use super::material::MAX_MEN;
use super::solve::{Mode, Table};
use super::value::{is_loss, is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES};
use variants::rules::Outcome;

/// The counter of a position with more distinct successors than a counter holds: such a
/// position is verified by generating its moves instead.
pub const VERIFY: u8 = u8::MAX;

/// The counter of a position that needs none (decided by the seed pass, or illegal).
pub const NONE: u8 = 0;

/// The counter of an undecided position whose escapes are counted only when first needed
/// (when one of its successors is first found won).
pub const UNCOUNTED: u8 = 254;

/// The value byte of an undecided position not counted yet; taking escapes off it before the
/// count arrives leaves it even.
pub const UNCOUNTED_BYTE: u8 = 0;

/// The most escapes a counter holds.
pub const MAX_COUNT: usize = 125;

/// The byte of an undecided position whose escapes are verified, not counted.
pub const VERIFY_BYTE: u8 = 253;

/// Most successors a position can list before it falls back to verification.
const MAX_LISTED: usize = 254;

/// The value byte of an undecided position while solving: its counter `c` as `2c + 1`, odd,
/// so that a thread reading it as a code just as the position is decided sees a loss, never a
/// win it might improve (see `propagate`). A step of one escape is [`COUNTER_STEP`].
#[inline]
pub fn counter_byte(count: u8) -> u8 {
    match count {
        VERIFY => VERIFY_BYTE,
        UNCOUNTED => UNCOUNTED_BYTE,
        c => 2 * c + 1,
    }
}

/// The counter a counter byte holds ([`VERIFY`] for [`VERIFY_BYTE`]).
#[inline]
pub fn counter_of(byte: u8) -> u8 {
    match byte {
        VERIFY_BYTE => VERIFY,
        b if b & 1 == 0 => UNCOUNTED,
        b => b / 2,
    }
}

/// What closing one escape takes off a counter byte.
pub const COUNTER_STEP: u8 = 2;

/// The counter byte of a position with one escape left.
pub const LAST_ESCAPE: u8 = 3;

/// A position's seed: its code (see `value`) and its escape counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seeded {
    /// The code: decided, illegal, or `DRAW` while open.
    pub code: u8,
    /// The escape counter of an open position ([`NONE`] for the others).
    pub count: u8,
}

impl Seeded {
    fn decided(code: u8) -> Seeded {
        Seeded { code, count: NONE }
    }
}

/// What a seed pass learns from a position's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Scan {
    /// Legal moves (each promotion choice apart).
    moves: usize,
    /// The quickest win by a conversion, in plies.
    best_win: Option<u8>,
    /// The slowest loss by a conversion, in plies.
    worst_loss: u8,
    /// Escapes that never close (at most [`MAX_LISTED`] + 1).
    open: usize,
    /// Distinct successors inside the table, images included.
    distinct: usize,
}

impl Scan {
    /// Files a conversion's code (the opponent to move).
    fn conversion(&mut self, code: u8) {
        if is_loss(code) {
            let p = plies(code) + 1;
            self.best_win = Some(self.best_win.map_or(p, |b| b.min(p)));
        } else if is_win(code) {
            self.worst_loss = self.worst_loss.max(plies(code) + 1);
        } else {
            self.open = 1;
        }
    }
}

impl Table {
    /// The value of a position found by looking at its moves alone (broken, mated,
    /// stalemated, bare, or decided by conversions) and, when still open, its escapes.
    pub fn seed_counted(&self, sq: &[u8], stm: usize, base: Option<usize>) -> Seeded {
        self.seed_with(sq, stm, base, true)
    }

    /// [`Table::seed_counted`] through the general move generator only (the twin of the fast
    /// count).
    pub fn seed_listed(&self, sq: &[u8], stm: usize, base: Option<usize>) -> Seeded {
        self.seed_with(sq, stm, base, false)
    }

    /// [`Table::seed_counted`] without the count: an open position is [`UNCOUNTED`]. Looks at
    /// conversions, and at moves inside the table only until one is found.
    pub fn seed_lazy(&self, sq: &[u8], stm: usize, base: Option<usize>) -> Seeded {
        if self.broken(sq, stm) {
            return Seeded::decided(ILLEGAL);
        }
        if let Some(code) = self.bare_king(sq, stm) {
            let count = if code == DRAW { VERIFY } else { NONE };
            return Seeded { code, count };
        }
        let mut scan = Scan::default();
        if self.may_convert(sq, stm) {
            scan.moves = self.moves_of(sq, stm, base, Mode::Conversions, |s| {
                scan.conversion(s.code);
                true
            });
        }
        if let Some(p) = scan.best_win {
            return Seeded::decided(win(p.min(MAX_PLIES)));
        }
        let quiet = self.moves_of(sq, stm, base, Mode::QuietCount, |_| false);
        if scan.moves + quiet == 0 {
            return Seeded::decided(self.no_moves(sq, stm));
        }
        if quiet == 0 && scan.open == 0 {
            return Seeded::decided(loss(scan.worst_loss.min(MAX_PLIES)));
        }
        Seeded {
            code: DRAW,
            count: UNCOUNTED,
        }
    }

    /// A bound on the escapes a position of this table can have (its distinct successors
    /// with their images, plus one): when it fits a counter, counts can wait until needed.
    pub fn escape_bound(&self) -> usize {
        let images = (0..self.rules.board.n)
            .map(|s| self.index.first_images(s as u8))
            .max()
            .unwrap_or(1);
        (0..2)
            .map(|stm| {
                let moves: usize = (0..self.men())
                    .filter(|&i| self.colour[i] as usize == stm)
                    .map(|i| {
                        let p = self.piece[i] as usize;
                        let most = self.rules.moves[stm][p].from.iter().map(Vec::len).max();
                        most.unwrap_or(0) * (1 + self.rules.promo[stm][p].choices.len())
                    })
                    .sum();
                (moves + 1) * images + 1
            })
            .max()
            .unwrap_or(0)
    }

    fn seed_with(&self, sq: &[u8], stm: usize, base: Option<usize>, fast: bool) -> Seeded {
        if self.broken(sq, stm) {
            return Seeded::decided(ILLEGAL);
        }
        if let Some(code) = self.bare_king(sq, stm) {
            // A draw by the bare-king rule is left to verification, which never finds it
            // lost (its baring capture, or every move of a bare pair, leads to a draw).
            let count = if code == DRAW { VERIFY } else { NONE };
            return Seeded { code, count };
        }
        let scan = if fast && !self.successors_may_repeat(sq, stm) {
            self.scan_counted(sq, stm)
        } else {
            self.scan_listed(sq, stm, base)
        };
        if scan.moves == 0 {
            return Seeded::decided(self.no_moves(sq, stm));
        }
        if let Some(p) = scan.best_win {
            return Seeded::decided(win(p.min(MAX_PLIES)));
        }
        match scan.distinct + scan.open {
            0 => Seeded::decided(loss(scan.worst_loss.min(MAX_PLIES))),
            c if c > MAX_COUNT => Seeded {
                code: DRAW,
                count: VERIFY,
            },
            c => Seeded {
                code: DRAW,
                count: c as u8,
            },
        }
    }

    /// The moves of a position through the general generator, listing the indices of the
    /// successors inside the table to count the distinct ones.
    fn scan_listed(&self, sq: &[u8], stm: usize, base: Option<usize>) -> Scan {
        let mut scan = Scan::default();
        let mut listed = [0usize; MAX_LISTED];
        let mut k = 0;
        scan.moves = self.moves_of(sq, stm, base, Mode::Count, |s| {
            if !s.in_table {
                scan.conversion(s.code);
            } else if s.index == usize::MAX {
                scan.open = 1;
            } else {
                // Every stored image of the successor is expanded on its own.
                self.index.images(s.index, |j| {
                    if k < MAX_LISTED {
                        listed[k] = j;
                        k += 1;
                    } else {
                        scan.open = MAX_LISTED;
                    }
                });
            }
            true
        });
        scan.distinct = distinct(&mut listed[..k], self.index.may_repeat(sq));
        scan
    }

    /// The moves of a position whose neighbours cannot share an index (no
    /// [`Indexer::may_repeat`](super::index::Indexer::may_repeat)): counted without computing
    /// their indices or reading their codes; a successor counts once per stored image.
    fn scan_counted(&self, sq: &[u8], stm: usize) -> Scan {
        let m = self.men();
        let all = (1u32 << m) - 1;
        let (occ, own) = self.occupancy(sq, all, stm);
        let guard = self.guard(sq, stm, occ, own);
        let mut scan = Scan::default();
        let mut next = [0u8; MAX_MEN];
        next[..m].copy_from_slice(sq);
        for i in (0..m).filter(|&i| self.colour[i] as usize == stm) {
            let (p, s) = (self.piece[i] as usize, sq[i]);
            let domain = self.rules.domain[stm][p];
            let promotes = !self.rules.promo[stm][p].choices.is_empty();
            // Moves of other men that touch no attack line to the royal are legal.
            let guarded = if i == self.royal[stm] {
                Bits::ALL
            } else {
                guard
            };
            let mut seen = Bits::EMPTY;
            for path in &self.rules.moves[stm][p].from[s as usize] {
                let (t, tb) = (path.to, bit(path.to));
                if seen.has(t) || !path.cond.open(occ, own) {
                    continue;
                }
                let Some(victim) = self.landing(sq, i, t, occ, own, path.rights) else {
                    continue;
                };
                seen |= tb;
                next[i] = t;
                let legal = !guarded.meets(bit(s) | tb) || {
                    let alive = victim.map_or(all, |j| all & !(1 << j));
                    let after = (occ & !bit(s)) | tb;
                    let theirs = occ & !own & !tb;
                    !self.exposed(&next[..m], alive, stm, after, theirs)
                };
                if legal {
                    let man = (victim, domain, promotes);
                    self.count_move(&next, stm, (i, s, t), man, &mut scan);
                }
                next[i] = s;
            }
        }
        let null_move = stm == 1 && self.rules.game.null_move && guard != Bits::ALL;
        if null_move {
            scan.moves += 1;
            scan.distinct += self.index.first_images(sq[0]);
        }
        scan
    }

    /// False when no two successors of the position (`stm` to move) can share an index and
    /// each successor's stored images are distinct (see [`Table::neighbours_may_repeat`]).
    fn successors_may_repeat(&self, sq: &[u8], stm: usize) -> bool {
        self.neighbours_may_repeat(sq, stm, false)
    }

    /// False when no two positions one move of `mover` away from `sq` (after it, or with
    /// `back`, before it) can share an index and each one's stored images are distinct. Two
    /// share one only if some map `h` carries one onto the other: every man but the movers
    /// stands on a square `h` keeps, and with two movers, both of `mover`, one goes to its
    /// image under `h` and the other to its image under `h` undone (checked against the
    /// pieces' reach). Images of one coincide only if all its men but the mover stand on such
    /// squares.
    #[inline]
    pub fn neighbours_may_repeat(&self, sq: &[u8], mover: usize, back: bool) -> bool {
        if self.irregular(mover) {
            // A pass leaves every man where it stood: not worth telling apart.
            return true;
        }
        if self.index.grouped() && self.index.fixed_maps().next().is_some() {
            // A map may keep a position by swapping alike men: not worth telling apart.
            return true;
        }
        let occ: Bits = sq.iter().copied().collect();
        let mine = |i: usize| self.colour[i] as usize == mover;
        // Can man `i` go from its square to its image under `m` (or come from there)?
        let reaches = |i: usize, m: &[u8]| {
            let reach = &self.rules.reach[mover][self.piece[i] as usize];
            let (here, there) = (sq[i], m[sq[i] as usize]);
            if back {
                reach[there as usize].has(here)
            } else {
                reach[here as usize].has(there)
            }
        };
        self.index.fixed_maps().any(|(fixed, map, undo)| {
            let loose = sq.len() - (occ & fixed).count() as usize;
            if loose > 2 {
                return false;
            }
            if loose == 0 {
                return true;
            }
            let mut movers = (0..sq.len()).filter(|&i| !fixed.has(sq[i]));
            let (Some(i), j) = (movers.next(), movers.next()) else {
                return false;
            };
            match j {
                None => mine(i),
                Some(j) if loose == 2 && mine(i) && mine(j) => {
                    let (to_image, to_undone) = if back { (undo, map) } else { (map, undo) };
                    (reaches(i, to_image) && reaches(j, to_undone))
                        || (reaches(i, to_undone) && reaches(j, to_image))
                }
                Some(_) => false,
            }
        })
    }

    /// Files one legal move of man `i` from `s` to `t` (`next`: the squares after it),
    /// capturing `victim`; `domain`: where the man may stand, `promotes`: whether it ever
    /// promotes.
    fn count_move(
        &self,
        next: &[u8; MAX_MEN],
        stm: usize,
        (i, s, t): (usize, u8, u8),
        (victim, domain, promotes): (Option<usize>, Bits, bool),
        scan: &mut Scan,
    ) {
        let promo = &self.rules.promo[stm][self.piece[i] as usize];
        if promotes && promo.may(s, t, victim.is_some()) {
            for &c in &self.promos[i] {
                scan.moves += 1;
                scan.conversion(self.conv_code(next, 1 - stm, victim, Some((i, c))));
            }
            if promo.forced.has(t) {
                return;
            }
        }
        scan.moves += 1;
        if victim.is_some() {
            scan.conversion(self.conv_code(next, 1 - stm, victim, None));
        } else if !domain.has(t) {
            scan.open = 1;
        } else {
            scan.distinct += self.index.first_images(next[0]);
        }
    }

    /// The value of a position without legal moves: mate or stalemate, as the rules say.
    pub fn no_moves(&self, sq: &[u8], stm: usize) -> u8 {
        let outcome = if self.in_check(sq, stm) {
            self.rules.variant.end.checkmate
        } else {
            self.rules.game.stalemate
        };
        match outcome {
            Outcome::Loss => loss(0),
            Outcome::Win => win(0),
            Outcome::Draw => DRAW,
        }
    }

    /// The deepest opponent's win, in plies, among the conversions of a position all of
    /// whose escapes have closed (0 when it has none).
    pub fn conversion_depth(&self, sq: &[u8], stm: usize, base: Option<usize>) -> u8 {
        let mut deepest = 0u8;
        self.moves_of(sq, stm, base, Mode::Conversions, |s| {
            if is_win(s.code) {
                deepest = deepest.max(plies(s.code));
            }
            true
        });
        deepest
    }
}

/// The number of distinct indices in `list`; when `may_repeat` is false they are known to
/// be distinct already.
pub fn distinct(list: &mut [usize], may_repeat: bool) -> usize {
    if !may_repeat {
        return list.len();
    }
    list.sort_unstable();
    list.iter()
        .enumerate()
        .filter(|&(i, x)| i == 0 || list[i - 1] != *x)
        .count()
}

/// Calls `f` with the predecessors of a position (`1 - stm` to move), each once: through a
/// buffer `out`, sorted and deduplicated, only when two of them may share an index.
pub fn for_predecessors_once(
    table: &Table,
    (sq, stm, idx): (&[u8], usize, usize),
    out: &mut Vec<usize>,
    mut f: impl FnMut(usize),
) {
    if !table.neighbours_may_repeat(sq, 1 - stm, true) {
        table.predecessors_at(sq, stm, Some(idx), f);
        return;
    }
    predecessors_once(table, sq, stm, idx, out);
    out.iter().for_each(|&pi| f(pi));
}

/// The predecessors of a position, each once, into `out` (sorted when two may repeat).
pub fn predecessors_once(table: &Table, sq: &[u8], stm: usize, idx: usize, out: &mut Vec<usize>) {
    out.clear();
    table.predecessors_at(sq, stm, Some(idx), |pi| out.push(pi));
    if table.neighbours_may_repeat(sq, 1 - stm, true) {
        out.sort_unstable();
        out.dedup();
    }
}

/// The escape counters recomputed from scratch (the twin of the incremental ones): for each
/// open position of `stm`, the distinct successors inside the table that are not won for
/// the opponent, plus one for conversions or moves that can never be.
pub fn recount(table: &Table, stm: usize, idx: usize) -> usize {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    table.index.decode(idx, &mut sq[..m]);
    let mut listed = Vec::new();
    let mut open = 0;
    table.successors_at(&sq[..m], stm, Some(idx), |s| {
        if s.in_table && s.index != usize::MAX {
            if !is_win(s.code) {
                table.index.images(s.index, |j| listed.push(j));
            }
        } else if !is_win(s.code) {
            open = 1;
        }
        true
    });
    distinct(&mut listed, true) + open
}

/// Where successors and predecessors are not each other's inverse (the twin check of the
/// counting): `(stm, x, s, x_has_move_to_s)` for every legal `x` (`stm` to move) and
/// position `s` such that `x` moves to `s` or is listed among the predecessors of `s`, but
/// not both.
pub fn inverse_mismatches(table: &Table) -> Vec<(usize, usize, usize, bool)> {
    use std::collections::HashSet;
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    let mut out = Vec::new();
    for stm in 0..2 {
        let mut forward = HashSet::new();
        for x in 0..table.index.size {
            table.index.decode(x, &mut sq[..m]);
            if table.broken(&sq[..m], stm) {
                continue;
            }
            table.successors_at(&sq[..m], stm, Some(x), |s| {
                if s.in_table && s.index != usize::MAX {
                    table.index.images(s.index, |j| {
                        forward.insert((x, j));
                    });
                }
                true
            });
        }
        let mut backward = HashSet::new();
        let mut pre = [0u8; MAX_MEN];
        let mut preds = Vec::new();
        for s in 0..table.index.size {
            table.index.decode(s, &mut sq[..m]);
            if table.broken(&sq[..m], 1 - stm) {
                continue;
            }
            predecessors_once(table, &sq[..m], 1 - stm, s, &mut preds);
            let before = preds.len();
            preds.sort_unstable();
            preds.dedup();
            if preds.len() != before {
                out.push((stm, usize::MAX, s, false));
            }
            for &x in &preds {
                table.index.decode(x, &mut pre[..m]);
                if !table.broken(&pre[..m], stm) {
                    backward.insert((x, s));
                }
            }
        }
        out.extend(
            forward
                .difference(&backward)
                .map(|&(x, s)| (stm, x, s, true)),
        );
        out.extend(
            backward
                .difference(&forward)
                .map(|&(x, s)| (stm, x, s, false)),
        );
    }
    out
}
