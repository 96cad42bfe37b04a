//! The ban on perpetual check in the tables (xiangqi, and any variant whose file forbids it).
//! Plain retrograde solving counts a checking move as an escape for ever; under the ban a side
//! that can hold only by checking on every move loses. After ordinary propagation stops, the
//! undecided positions form a game in which the suspect side (the violator) must, infinitely
//! often, make a move that does not give check: a Büchi game, solved here as the nested fixed
//! point `nu Z. mu Y. (T and CPre(Z)) or CPre(Y)`, where `T` holds the positions just reached
//! by a non-checking move of the violator and `CPre(A)` the positions from which the violator
//! can force the next position into `A`. Undecided positions outside the result, with the
//! violator to move, are losses for it. Mutual perpetual check (both sides checking for ever)
//! is not told apart: it counts against the violator being examined.
//!
//! [`losses`] solves the same game the classical way, by attractors over un-moves with
//! per-position counts of successors (as the general solver's escape counters): the
//! positions from which the violator cannot force a quiet move of its own while the game
//! stays among the remaining ones are taken out, with every position the other side can
//! force into them, until none are left to take; the rest is the violator's. The attractor
//! is kept from round to round: each position records the order it joined in, and only
//! the positions whose support (what joined before them) was taken out are made again.
//! A few sweeps come first: most tables lose nothing, and the fixed point's first round
//! shows it. [`losses_by_sweeps`] computes the fixed point directly, by whole sweeps until
//! nothing changes: the twin of the tests (xiangqi KRPvKR: 210 s there).

use std::collections::VecDeque;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::Mutex;

use super::escapes::for_predecessors_once;
use super::material::MAX_MEN;
use super::solve::Table;
use super::threads::parallel;
use super::value::{is_win, DRAW};

/// One bit per position and side to move.
type Set = [Vec<bool>; 2];

/// The sweeps [`losses`] gives the fixed point's first round before it turns to attractors:
/// enough for tables where the ban takes nothing (xiangqi KRvKR, KNvKN: four and three).
const QUICK_SWEEPS: usize = 4;

/// The undecided positions where `violator` is to move and can hold only by perpetual check.
/// `threads`: for the moves of every undecided position, made once.
pub fn losses(table: &Table, violator: usize, threads: usize) -> Vec<usize> {
    losses_after(table, violator, threads, false)
}

/// [`losses`]; `shown`: the caller has shown that the fixed point's first round does not
/// keep every position (the row solver plays it on rows), so the quick sweeps would find
/// nothing to stop at.
pub fn losses_after(table: &Table, violator: usize, threads: usize, shown: bool) -> Vec<usize> {
    let n = table.index.size;
    let undecided = undecided(table);
    let target = quiet_targets(table, &undecided, violator);
    // Most tables lose nothing to the ban, and a few sweeps show it: the first round of
    // the fixed point, when it ends quickly and keeps every position.
    let quick = (!shown)
        .then(|| {
            sweeps(
                table,
                (&undecided, &target),
                &undecided,
                (violator, threads),
                QUICK_SWEEPS,
            )
        })
        .flatten();
    if quick.is_some_and(|y| y == undecided) {
        return Vec::new();
    }
    let moves = Moves::new(table, &undecided, threads);
    let mut game = Game::new(&moves, violator, undecided.clone(), &target);
    let mut buf = Vec::new();
    let mut joined = game.bases();
    loop {
        game.attract(table, joined, &mut buf);
        // Where the violator cannot force a quiet move, the other side keeps it checking
        // for ever (or leaves for a win): those go, with all the other side can force
        // into them; what they held up in the attractor is made again.
        let mut out = game.unreached();
        if out.is_empty() {
            break;
        }
        game.remove(table, &mut out, &mut buf);
        let lost = game.unsupported(table, &out, &mut buf);
        joined = game.rejoin(table, &lost);
    }
    (0..n)
        .filter(|&i| undecided[violator][i] && !game.z[violator][i])
        .collect()
}

/// The positions still open (drawn so far), per side to move.
fn undecided(table: &Table) -> Set {
    [0, 1].map(|c| {
        (0..table.index.size)
            .map(|i| table.value(c, i) == DRAW)
            .collect()
    })
}

/// The distinct undecided successors inside the table of position `i` (`side` to move),
/// each stored image apart, into `listed` (sorted); returns whether some other move is a
/// drawing conversion (or a move out of the index), and whether some other move reaches a
/// decided position the side after the move does not win (or leaves the index).
fn listed_successors(
    table: &Table,
    side: usize,
    i: usize,
    listed: &mut Vec<usize>,
) -> (bool, bool) {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    table.index.decode(i, &mut sq[..m]);
    listed.clear();
    let (mut drawn, mut leaves) = (false, false);
    table.successors_at(&sq[..m], side, Some(i), |s| {
        if s.code == DRAW && s.in_table && s.index != usize::MAX {
            table.index.images(s.index, |j| listed.push(j));
        } else if s.code == DRAW {
            drawn = true;
            leaves |= s.in_table;
        } else {
            leaves |= !is_win(s.code);
        }
        true
    });
    listed.sort_unstable();
    listed.dedup();
    (drawn, leaves)
}

/// T: the undecided positions with the other side to move, not in check (the violator's
/// move into them was quiet).
fn quiet_targets(table: &Table, undecided: &Set, violator: usize) -> Vec<bool> {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    let other = 1 - violator;
    (0..table.index.size)
        .map(|i| {
            undecided[other][i] && {
                table.index.decode(i, &mut sq[..m]);
                !table.in_check(&sq[..m], other)
            }
        })
        .collect()
}

/// The undecided positions' moves, generated once: per side, per position, its distinct
/// successors inside the table that are undecided (each stored image counts, as un-moves
/// reach every image), and what its other moves do.
struct Moves {
    open: [Vec<u16>; 2],
    /// A conversion to a draw (or a move out of the index): the violator holds with it.
    drawn: Set,
    /// A move to a decided position the violator, to move next, does not win (or out of
    /// the index): the other side escapes the game with it.
    leaves: Set,
}

impl Moves {
    /// The moves of the undecided positions, made in chunks on `threads` threads.
    fn new(table: &Table, undecided: &Set, threads: usize) -> Moves {
        let n = table.index.size;
        let chunks = Mutex::new(Vec::new());
        parallel(n, threads, |a, b| {
            let part = [0, 1].map(|side| Self::side_part(table, &undecided[side], side, a..b));
            if let Ok(mut c) = chunks.lock() {
                c.push((a, part));
            }
        });
        let mut chunks = chunks.into_inner().unwrap_or_default();
        chunks.sort_by_key(|c| c.0);
        let mut moves = Moves {
            open: [Vec::with_capacity(n), Vec::with_capacity(n)],
            drawn: [Vec::with_capacity(n), Vec::with_capacity(n)],
            leaves: [Vec::with_capacity(n), Vec::with_capacity(n)],
        };
        for (_, part) in chunks {
            for (side, (open, drawn, leaves)) in part.into_iter().enumerate() {
                moves.open[side].extend(open);
                moves.drawn[side].extend(drawn);
                moves.leaves[side].extend(leaves);
            }
        }
        moves
    }

    /// [`Moves::new`] for the positions `range` of `side`: their counts and flags.
    fn side_part(
        table: &Table,
        undecided: &[bool],
        side: usize,
        range: std::ops::Range<usize>,
    ) -> (Vec<u16>, Vec<bool>, Vec<bool>) {
        let mut listed = Vec::new();
        let len = range.len();
        let (mut open, mut drawn, mut leaves) = (vec![0; len], vec![false; len], vec![false; len]);
        for (k, i) in range.enumerate().filter(|&(_, i)| undecided[i]) {
            (drawn[k], leaves[k]) = listed_successors(table, side, i, &mut listed);
            open[k] = u16::try_from(listed.len()).unwrap_or(u16::MAX);
        }
        (open, drawn, leaves)
    }
}

/// The game of the undecided positions for one violator: `z`, the positions still in it (a
/// trap for the other side: its every move stays in `z` or reaches a win of the violator),
/// and the attractor `A` of the quiet targets in it, kept from round to round. A position
/// of `A` has a stamp, the order it joined in (0: not in `A`), and positions are worked
/// through in that order, so a position's support is what joined before it: one successor
/// for the violator (`sup` counts them), every successor for the other side.
struct Game<'a> {
    moves: &'a Moves,
    violator: usize,
    target: &'a [bool],
    z: Set,
    /// Per violator's position: its successors still in `z`.
    in_z: Vec<u16>,
    stamp: [Vec<u32>; 2],
    clock: u32,
    /// Per violator's position in `A`: its successors in `A` that joined before it.
    sup: Vec<u16>,
    /// Per position of the other side not in `A`: its successors not yet worked through.
    left: Vec<u16>,
}

impl<'a> Game<'a> {
    fn new(moves: &'a Moves, violator: usize, z: Set, target: &'a [bool]) -> Game<'a> {
        let n = target.len();
        Game {
            moves,
            violator,
            target,
            in_z: moves.open[violator].clone(),
            left: moves.open[1 - violator].clone(),
            z,
            stamp: [vec![0; n], vec![0; n]],
            clock: 0,
            sup: vec![0; n],
        }
    }

    /// True when `side`'s position `i` is in `A` whatever else is: the violator's
    /// conversion to a draw; a quiet target; for the other side, every move leaves for a
    /// win of the violator.
    fn base(&self, side: usize, i: usize) -> bool {
        let m = self.moves;
        if side == self.violator {
            m.drawn[side][i]
        } else {
            !m.leaves[side][i] && (self.target[i] || m.open[side][i] == 0)
        }
    }

    /// Puts position `i` of `side` into `A`.
    fn join(&mut self, side: usize, i: usize) {
        self.clock += 1;
        self.stamp[side][i] = self.clock;
    }

    /// The positions of `z` in `A` by themselves, joined.
    fn bases(&mut self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for side in 0..2 {
            for i in 0..self.z[side].len() {
                if self.z[side][i] && self.base(side, i) {
                    self.join(side, i);
                    out.push((side, i));
                }
            }
        }
        out
    }

    /// Works through `queue` (positions just joined, in stamp order) and every position
    /// they attract: a violator's predecessor joins, one of the other side when its last
    /// successor has.
    fn attract(&mut self, table: &Table, queue: Vec<(usize, usize)>, buf: &mut Vec<usize>) {
        let m = table.men();
        let v = self.violator;
        let mut queue: VecDeque<(usize, usize)> = queue.into();
        let mut sq = [0u8; MAX_MEN];
        let mut preds = Vec::new();
        while let Some((side, j)) = queue.pop_front() {
            let (mover, sj) = (1 - side, self.stamp[side][j]);
            table.index.decode(j, &mut sq[..m]);
            preds.clear();
            for_predecessors_once(table, (&sq[..m], side, j), buf, |x| preds.push(x));
            for &x in &preds {
                if !self.z[mover][x] {
                    continue;
                }
                let sx = self.stamp[mover][x];
                if mover == v {
                    if sx == 0 {
                        self.join(mover, x);
                        self.sup[x] = 1;
                        queue.push_back((mover, x));
                    } else if sj < sx {
                        self.sup[x] = self.sup[x].saturating_add(1);
                    }
                } else if sx == 0 {
                    self.left[x] = self.left[x].saturating_sub(1);
                    if self.left[x] == 0 && !self.moves.leaves[mover][x] {
                        self.join(mover, x);
                        queue.push_back((mover, x));
                    }
                }
            }
        }
    }

    /// The positions of `z` outside `A`, taken out of `z`.
    fn unreached(&mut self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for side in 0..2 {
            for i in 0..self.z[side].len() {
                if self.z[side][i] && self.stamp[side][i] == 0 {
                    self.z[side][i] = false;
                    out.push((side, i));
                }
            }
        }
        out
    }

    /// Takes every position the other side can force into `out` (already out of `z`) out
    /// of `z` too, adding them to `out`: its own positions with a move there, the
    /// violator's positions left without a successor in `z` (and no drawing conversion).
    fn remove(&mut self, table: &Table, out: &mut Vec<(usize, usize)>, buf: &mut Vec<usize>) {
        let m = table.men();
        let v = self.violator;
        let mut sq = [0u8; MAX_MEN];
        let mut k = 0;
        while k < out.len() {
            let (side, j) = out[k];
            k += 1;
            table.index.decode(j, &mut sq[..m]);
            let mover = 1 - side;
            for_predecessors_once(table, (&sq[..m], side, j), buf, |x| {
                if !self.z[mover][x] {
                    return;
                }
                let goes = if mover == v {
                    self.in_z[x] = self.in_z[x].saturating_sub(1);
                    self.in_z[x] == 0 && !self.moves.drawn[v][x]
                } else {
                    true
                };
                if goes {
                    self.z[mover][x] = false;
                    out.push((mover, x));
                }
            });
        }
    }

    /// Takes out of `A` the positions of `gone` (out of `z` now) and every position of `A`
    /// whose support they were: the other side's positions with a move to one, the
    /// violator's whose last earlier successor in `A` it was. Returns those still in `z`.
    fn unsupported(
        &mut self,
        table: &Table,
        gone: &[(usize, usize)],
        buf: &mut Vec<usize>,
    ) -> Vec<(usize, usize)> {
        let m = table.men();
        let v = self.violator;
        let mut queue: Vec<(usize, usize, u32)> = Vec::new();
        for &(side, j) in gone {
            let s = std::mem::take(&mut self.stamp[side][j]);
            if s != 0 {
                queue.push((side, j, s));
            }
        }
        let mut lost = Vec::new();
        let mut sq = [0u8; MAX_MEN];
        let mut preds = Vec::new();
        while let Some((side, j, sj)) = queue.pop() {
            let mover = 1 - side;
            table.index.decode(j, &mut sq[..m]);
            preds.clear();
            for_predecessors_once(table, (&sq[..m], side, j), buf, |x| preds.push(x));
            for &x in &preds {
                let sx = self.stamp[mover][x];
                if !self.z[mover][x] || sx == 0 || self.base(mover, x) {
                    continue;
                }
                let falls = if mover == v {
                    if sj < sx {
                        self.sup[x] = self.sup[x].saturating_sub(1);
                    }
                    self.sup[x] == 0
                } else {
                    true
                };
                if falls {
                    self.stamp[mover][x] = 0;
                    queue.push((mover, x, sx));
                    lost.push((mover, x));
                }
            }
        }
        lost
    }

    /// The positions of `lost` (in `z`, out of `A`) with their counts made afresh from
    /// their successors in `A` (all worked through): those that join at once, joined.
    fn rejoin(&mut self, table: &Table, lost: &[(usize, usize)]) -> Vec<(usize, usize)> {
        let v = self.violator;
        let mut listed = Vec::new();
        let mut counts = Vec::with_capacity(lost.len());
        for &(side, i) in lost {
            listed_successors(table, side, i, &mut listed);
            let next = 1 - side;
            let reached = listed.iter().filter(|&&j| self.stamp[next][j] != 0).count();
            let count = if side == v {
                reached
            } else {
                listed.len() - reached
            };
            counts.push(u16::try_from(count).unwrap_or(u16::MAX));
        }
        let mut joined = Vec::new();
        for (&(side, i), &count) in lost.iter().zip(&counts) {
            let joins = if side == v {
                self.sup[i] = count;
                count > 0
            } else {
                self.left[i] = count;
                count == 0 && !self.moves.leaves[side][i]
            };
            if joins {
                self.join(side, i);
                joined.push((side, i));
            }
        }
        joined
    }
}

/// An oracle for the tests, not used by a build: [`losses`] by whole sweeps over the table
/// until nothing changes (its twin).
pub fn losses_by_sweeps(table: &Table, violator: usize, threads: usize) -> Vec<usize> {
    let n = table.index.size;
    let undecided = undecided(table);
    let target = quiet_targets(table, &undecided, violator);
    let mut z = undecided.clone();
    // Sweeps without a limit always end.
    while let Some(y) = sweeps(
        table,
        (&undecided, &target),
        &z,
        (violator, threads),
        usize::MAX,
    ) {
        if y == z {
            break;
        }
        z = y;
    }
    (0..n)
        .filter(|&i| undecided[violator][i] && !z[violator][i])
        .collect()
}

/// The inner fixed point `mu Y. (T and CPre(z)) or CPre(Y)` by sweeps over the table in
/// index order on `threads` threads (a position joins `Y` as soon as a sweep finds it, so a
/// sweep may add several layers; `Y` only grows, so the threads' order changes how many
/// sweeps it takes, not the fixed point), at most `most` of them: `None` when that was not
/// enough.
fn sweeps(
    table: &Table,
    (undecided, target): (&Set, &[bool]),
    z: &Set,
    (violator, threads): (usize, usize),
    most: usize,
) -> Option<Set> {
    let n = table.index.size;
    let other = 1 - violator;
    let y: [Vec<AtomicBool>; 2] = [0, 1].map(|_| (0..n).map(|_| AtomicBool::new(false)).collect());
    let in_z = |side: usize, j: usize| z[side][j];
    let in_y = |side: usize, j: usize| y[side][j].load(Relaxed);
    for _ in 0..most {
        let changed = AtomicBool::new(false);
        parallel(n, threads, |a, b| {
            for side in 0..2 {
                for i in a..b {
                    if !undecided[side][i] || in_y(side, i) {
                        continue;
                    }
                    let into_z =
                        side == other && target[i] && cpre(table, &in_z, violator, side, i);
                    if into_z || cpre(table, &in_y, violator, side, i) {
                        y[side][i].store(true, Relaxed);
                        changed.store(true, Relaxed);
                    }
                }
            }
        });
        if !changed.load(Relaxed) {
            return Some(y.map(|v| v.into_iter().map(AtomicBool::into_inner).collect()));
        }
    }
    None
}

/// Can the violator force the position after the next move into `a` (by side to move and
/// index)? At its own move it needs one such move (or one that converts into a draw); at the
/// other side's move every move must lead into `a`, to a decided position the other side
/// would not choose (a violator's win), or to a draw by conversion.
fn cpre(
    table: &Table,
    a: &dyn Fn(usize, usize) -> bool,
    violator: usize,
    side: usize,
    idx: usize,
) -> bool {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    table.index.decode(idx, &mut sq[..m]);
    let next = 1 - side;
    let good = |code: u8, in_table: bool, j: usize| -> bool {
        if code == DRAW {
            !in_table || a(next, j)
        } else if side == violator {
            false
        } else {
            // The violator to move after the other side's move: a win for it is a move the
            // other side will not make; a loss for it would have decided this position.
            is_win(code)
        }
    };
    if side == violator {
        let mut found = false;
        table.successors_at(&sq[..m], side, Some(idx), |s| {
            found = good(s.code, s.in_table, s.index);
            !found
        });
        found
    } else {
        let mut all = true;
        table.successors_at(&sq[..m], side, Some(idx), |s| {
            all = good(s.code, s.in_table, s.index);
            all
        });
        all
    }
}
