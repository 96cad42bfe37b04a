//! Counting a solved table: per side to move, its legal positions, wins and losses per
//! depth, draws, mates and stalemates, on the full board (from the stored entries) and in
//! orbits (by Burnside's lemma), a range at a time on the pass threads. The row solver
//! counts a pawn table's slices with it as each is done; `report` prints the counts.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::Mutex;

use super::counts::{bump, Count, SideStats};
use super::material::MAX_MEN;
use super::solve::{set_bits, Mode, Table};
use super::threads::parallel;
use super::value::{is_loss, is_win, loss, plies, win, DRAW, ILLEGAL, WON_NOW};

/// Counts a table, per side to move. Placements on the full board are counted from the
/// stored entries (each stands for its first man's orbit, once per ordering of alike men);
/// orbits by Burnside's lemma: a class's orbits are the mean, over the symmetry maps, of
/// its placements that the map leaves in place. The identity leaves all of them; the other
/// maps only placements with every man on a square of their own, few enough to list.
pub fn stats(table: &Table, threads: usize) -> [SideStats; 2] {
    let mut out: [SideStats; 2] = Default::default();
    for (stm, side) in out.iter_mut().enumerate() {
        if let Some(counted) = table.counted.get() {
            // Counted by the solver as it went (see `Table::counted`).
            *side = counted[stm].clone();
        } else {
            let total = Mutex::new(SideStats::default());
            let stuck = table.stuck.get().map(|s| (&s[stm][..], 0));
            parallel(table.index.size, threads, |a, b| {
                let local = count_range(table, stm, a..b, stuck);
                if let Ok(mut t) = total.lock() {
                    t.merge(&local);
                }
            });
            if let Ok(t) = total.into_inner() {
                *side = t;
            }
        }
        resolve(side, table, stm);
        count_fixed(table, stm, side);
        let maps = table.index.maps.len() as u64;
        side.each_count(&mut |c| c.orbits /= maps);
    }
    out
}

/// Finds the position of `longest` where the counting left only its block: a scan of
/// the one block that holds the table's deepest win, not of every range's deepest
/// (ranges are counted apart, so each found its own, a measurable share of a build).
/// Blocks do not overlap, so the first block is the first position's.
fn resolve(side: &mut SideStats, table: &Table, stm: usize) {
    if let (Some((p, start)), true) = (side.longest, side.longest_open) {
        let values = &table.values[stm][start..];
        let k = values.iter().position(|v| v.load(Relaxed) == win(p));
        side.longest = k.map(|k| (p, start + k));
        side.longest_open = false;
    }
}

/// The entries `a..b` of side `stm`: full-board placements, with the identity's share of
/// the orbit sums (the same number) in `orbits`. `stuck`: the positions without a move, one
/// bit per entry from word `first` on (`(words, first)`), where the solver recorded them.
/// Ranges counted apart merge into the whole's counts ([`SideStats::merge`]).
pub(super) fn count_range(
    table: &Table,
    stm: usize,
    range: std::ops::Range<usize>,
    stuck: Option<(&[u64], usize)>,
) -> SideStats {
    let (a, b) = (range.start, range.end);
    let ix = &table.index;
    let stride = ix.stride_of(0);
    let orderings = ix.orderings_len() as u64;
    let mut local = SideStats::default();
    // Every entry of a block has the first man on one square, so one weight: the block's
    // values are counted first and weighed once.
    let mut hist = [0u64; 256];
    let mut start = a;
    while start < b {
        let block = start / stride;
        let end = b.min((block + 1) * stride);
        let w = orderings * ix.orbit_len(ix.domain(0)[block]) as u64;
        let c = Count { full: w, orbits: w };
        let values = &table.values[stm][start..end];
        count_values(values, &mut hist);
        if let Some((words, first)) = stuck {
            // The solver's record of the positions without a move: its few set bits, not
            // every draw (most of some tables).
            let shift = first * 64;
            for idx in set_bits(words, start - shift..end - shift) {
                stuck_position(table, stm, idx + shift, c, &mut local);
            }
        } else {
            for (idx, value) in (start..end).zip(values) {
                let code = value.load(Relaxed);
                // Only draws and games over (zero plies) may have no move.
                if code == DRAW || code == WON_NOW || code == loss(0) {
                    moveless(table, stm, idx, c, &mut local);
                }
            }
        }
        // The block's deepest win from its counts; its first entry is looked for only when
        // it is deeper than the range's so far (the same example as an entry-by-entry
        // search: the deepest, and of those the first).
        let deepest = (0..=u8::MAX)
            .filter(|&code| code != ILLEGAL && is_win(code) && hist[code as usize] != 0)
            .max_by_key(|&code| plies(code));
        if let Some(code) = deepest.filter(|&d| local.longest.is_none_or(|l| plies(d) > l.0)) {
            local.longest = Some((plies(code), start));
            local.longest_open = true;
        }
        for (code, n) in hist.iter_mut().enumerate() {
            if *n != 0 && code as u8 != ILLEGAL {
                let cn = Count {
                    full: w * *n,
                    orbits: w * *n,
                };
                classify(code as u8, cn, &mut local);
            }
            *n = 0;
        }
        start = end;
    }
    local
}

/// Adds the number of times each code occurs in `values` to `hist`. In four histograms
/// side by side: runs of one code (most of a table) would otherwise make each count wait
/// for the one before it.
fn count_values(values: &[AtomicU8], hist: &mut [u64; 256]) {
    let mut part = [[0u32; 256]; 4];
    // Chunks short enough that no count of a part overflows.
    for chunk in values.chunks(1 << 20) {
        let mut quads = chunk.chunks_exact(4);
        for q in &mut quads {
            for (h, v) in part.iter_mut().zip(q) {
                h[v.load(Relaxed) as usize] += 1;
            }
        }
        for v in quads.remainder() {
            part[0][v.load(Relaxed) as usize] += 1;
        }
        for h in &mut part {
            for (total, n) in hist.iter_mut().zip(h.iter_mut()) {
                *total += u64::from(std::mem::take(n));
            }
        }
    }
}

/// Adds the placements of side `stm` that a map other than the identity leaves in place to
/// the orbit sums (`orbits`) of their classes.
fn count_fixed(table: &Table, stm: usize, side: &mut SideStats) {
    let ix = &table.index;
    let m = table.men();
    for map in &ix.maps[1..] {
        let fixed: Vec<u8> = (0..map.len())
            .map(|s| s as u8)
            .filter(|&s| map[s as usize] == s)
            .collect();
        let allowed = |i: usize, s: u8| {
            if i == 0 {
                let canon = ix.maps[ix.canon_of(s)][s as usize];
                ix.local_of(0, canon).is_some()
            } else {
                ix.local_of(i, s).is_some()
            }
        };
        let mut sq = [0u8; MAX_MEN];
        let mut place = |sq: &[u8]| {
            let Some(idx) = ix.encode(sq) else {
                return;
            };
            let code = table.values[stm][idx].load(Relaxed);
            if code != ILLEGAL {
                let one = Count { full: 0, orbits: 1 };
                tally(table, stm, idx, code, one, side);
            }
        };
        placements(&fixed, &allowed, &mut sq[..m], 0, &mut place);
    }
}

/// Calls `f` with every placement of men `i..` of `sq` on distinct squares of `squares`
/// that `allowed` lets them stand on.
fn placements(
    squares: &[u8],
    allowed: &dyn Fn(usize, u8) -> bool,
    sq: &mut [u8],
    i: usize,
    f: &mut dyn FnMut(&[u8]),
) {
    if i == sq.len() {
        f(sq);
        return;
    }
    for &s in squares {
        if allowed(i, s) && !sq[..i].contains(&s) {
            sq[i] = s;
            placements(squares, allowed, sq, i + 1, f);
        }
    }
}

/// Adds one legal entry of side `stm` (index `idx`, value `code`) with weight `c` to its
/// classes.
fn tally(table: &Table, stm: usize, idx: usize, code: u8, c: Count, side: &mut SideStats) {
    classify(code, c, side);
    if is_win(code) && side.longest.is_none_or(|l| plies(code) > l.0) {
        side.longest = Some((plies(code), idx));
        side.longest_open = false;
    }
    if code == DRAW || plies(code) == 0 {
        moveless(table, stm, idx, c, side);
    }
}

/// Adds `c` legal positions of value `code` to the value's classes.
fn classify(code: u8, c: Count, side: &mut SideStats) {
    side.legal.add(c);
    if is_win(code) {
        bump(&mut side.wins, (plies(code) as usize).div_ceil(2), c);
    } else if is_loss(code) {
        bump(&mut side.losses, (plies(code) as usize).div_ceil(2), c);
    } else {
        side.draws.add(c);
    }
}

/// Adds the entry `idx` of side `stm` (a draw or a loss now, weight `c`) to the mates or
/// the stalemates when it has no legal move.
fn moveless(table: &Table, stm: usize, idx: usize, c: Count, side: &mut SideStats) {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    // Only whether there is a move: a generation that reads no successor's code.
    table.index.decode(idx, &mut sq[..m]);
    if table.moves_of(&sq[..m], stm, None, Mode::Any, |_| false) == 0 {
        stuck_position(table, stm, idx, c, side);
    }
}

/// Counts position `idx` (side `stm` to move, without a legal move) as a mate or a
/// stalemate.
fn stuck_position(table: &Table, stm: usize, idx: usize, c: Count, side: &mut SideStats) {
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    table.index.decode(idx, &mut sq[..m]);
    if table.in_check(&sq[..m], stm) {
        side.mates.add(c);
    } else {
        side.stalemates.add(c);
    }
}
