//! What a build prints: progress on stderr (on a terminal one updating line with a bar of
//! the build's tables solved, plain lines otherwise) and the statistics of a table: per
//! side to move, wins and losses per depth in orbits (positions counted once per symmetry
//! class) and on the full board, mates, stalemates, draws, and the longest win with a FEN.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU8, AtomicUsize, Ordering::Relaxed};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::material::{symbol, MAX_MEN};
use super::propagate::parallel;
use super::solve::{Mode, Table};
use super::value::{is_loss, is_win, loss, plies, win, DRAW, ILLEGAL, WON_NOW};

/// The least time between two progress steps printed for a table: a step per distance
/// was a thousand and more lines (and system calls) for a 4-man build, most of them within
/// a millisecond of each other.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// The progress of one table's solve: prints a step when [`PROGRESS_EVERY`] has passed
/// since the last one printed.
pub struct Progress<'a> {
    name: &'a str,
    start: Instant,
    shown: Duration,
    /// The build's tables solved so far, and how many it solves.
    tables: Option<(&'a AtomicUsize, usize)>,
}

impl<'a> Progress<'a> {
    /// The progress of table `name`, starting now; `tables`: the build's count of tables
    /// solved and their number, for the bar.
    pub fn new(name: &'a str, tables: Option<(&'a AtomicUsize, usize)>) -> Progress<'a> {
        Progress {
            name,
            start: Instant::now(),
            shown: Duration::ZERO,
            tables,
        }
    }

    /// A step: printed unless another was shortly before.
    pub fn step(&mut self, what: &str) {
        let now = self.start.elapsed();
        if now >= self.shown + PROGRESS_EVERY {
            self.shown = now;
            let tables = self.tables.map(|(done, all)| (done.load(Relaxed), all));
            progress(self.name, what, now, tables);
        }
    }

    /// The end of the solve.
    pub fn done(&self) {
        progress_done(self.name, self.start.elapsed());
    }
}

/// Characters of the bar of tables solved.
const BAR: usize = 20;

/// Prints one progress step: on a terminal one line, rewritten in place, with a bar of the
/// build's tables solved (`tables`: solved, of how many) when it has more than one; else a
/// plain line.
pub fn progress(name: &str, what: &str, elapsed: Duration, tables: Option<(usize, usize)>) {
    let mut err = std::io::stderr();
    let secs = elapsed.as_secs_f64();
    if !err.is_terminal() {
        let _ = writeln!(err, "{name}: {what} ({secs:.1} s)");
        return;
    }
    let bar = tables_bar(tables);
    let _ = write!(err, "\r{bar}{name}: {what} ({secs:.1} s)\x1b[K");
}

/// The bar of a build's tables solved (`tables`: solved, of how many), or nothing for a
/// build of one table.
fn tables_bar(tables: Option<(usize, usize)>) -> String {
    match tables {
        Some((done, all)) if all > 1 => {
            let full = (done * BAR / all).min(BAR);
            format!(
                "[{}{}] {done}/{all} tables  ",
                "#".repeat(full),
                "-".repeat(BAR - full)
            )
        }
        _ => String::new(),
    }
}

/// Ends the progress of one table.
pub fn progress_done(name: &str, elapsed: Duration) {
    let mut err = std::io::stderr();
    if err.is_terminal() {
        let _ = write!(err, "\r\x1b[K");
    }
    let _ = writeln!(err, "{name}: solved in {:.2} s", elapsed.as_secs_f64());
}

/// A count on the full board and in orbits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Every placement.
    pub full: u64,
    /// Once per symmetry class.
    pub orbits: u64,
}

impl Count {
    fn add(&mut self, o: Count) {
        self.full += o.full;
        self.orbits += o.orbits;
    }
}

/// Statistics of one side to move.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    /// Legal positions.
    pub legal: Count,
    /// Wins by depth in moves.
    pub wins: Vec<Count>,
    /// Losses by depth in moves (0: mated or otherwise lost now).
    pub losses: Vec<Count>,
    /// Draws.
    pub draws: Count,
    /// Checkmates (lost now, in check).
    pub mates: Count,
    /// Stalemates (no legal move, not in check), whatever they score.
    pub stalemates: Count,
    /// Deepest win in plies and one index holding it.
    pub longest: Option<(u8, usize)>,
    /// The index of `longest` is where the counting found its block, not the position
    /// yet: the first position from there holding that win (see [`SideStats::resolve`]).
    longest_open: bool,
}

impl SideStats {
    pub(super) fn merge(&mut self, o: &SideStats) {
        self.legal.add(o.legal);
        for (dst, src) in [(&mut self.wins, &o.wins), (&mut self.losses, &o.losses)] {
            if dst.len() < src.len() {
                dst.resize(src.len(), Count::default());
            }
            for (d, s) in dst.iter_mut().zip(src) {
                d.add(*s);
            }
        }
        self.draws.add(o.draws);
        self.mates.add(o.mates);
        self.stalemates.add(o.stalemates);
        // The deepest, and of those the first: the same example whatever the threads did.
        let key = |l: Option<(u8, usize)>| l.map(|(p, i)| (p, std::cmp::Reverse(i)));
        if key(o.longest) > key(self.longest) {
            self.longest = o.longest;
            self.longest_open = o.longest_open;
        }
    }

    /// Finds the position of `longest` where the counting left only its block: a scan of
    /// the one block that holds the table's deepest win, not of every range's deepest
    /// (ranges are counted apart, so each found its own: 1.4% of KRvKP's build).
    /// Blocks do not overlap, so the first block is the first position's.
    fn resolve(&mut self, table: &Table, stm: usize) {
        if let (Some((p, start)), true) = (self.longest, self.longest_open) {
            let values = &table.values[stm][start..];
            let k = values.iter().position(|v| v.load(Relaxed) == win(p));
            self.longest = k.map(|k| (p, start + k));
            self.longest_open = false;
        }
    }

    /// Calls `f` with every count.
    fn each_count(&mut self, f: &mut dyn FnMut(&mut Count)) {
        for c in [
            &mut self.legal,
            &mut self.draws,
            &mut self.mates,
            &mut self.stalemates,
        ] {
            f(c);
        }
        for c in self.wins.iter_mut().chain(self.losses.iter_mut()) {
            f(c);
        }
    }

    /// Total wins.
    pub fn total_wins(&self) -> Count {
        sum(&self.wins)
    }

    /// Total losses.
    pub fn total_losses(&self) -> Count {
        sum(&self.losses)
    }
}

fn sum(v: &[Count]) -> Count {
    let mut c = Count::default();
    for x in v {
        c.add(*x);
    }
    c
}

fn bump(v: &mut Vec<Count>, at: usize, c: Count) {
    if v.len() <= at {
        v.resize(at + 1, Count::default());
    }
    v[at].add(c);
}

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
        side.resolve(table, stm);
        count_fixed(table, stm, side);
        let maps = table.index.maps.len() as u64;
        side.each_count(&mut |c| c.orbits /= maps);
    }
    out
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

/// The indices in `range` whose bits are set in `bits` (64 a word).
pub(super) fn set_bits(
    bits: &[u64],
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = usize> + '_ {
    (range.start / 64..range.end.div_ceil(64))
        .flat_map(move |w| {
            let mut x = bits.get(w).copied().unwrap_or(0);
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = x.trailing_zeros() as usize;
                    x &= x - 1;
                    w * 64 + b
                })
            })
        })
        .filter(move |i| range.contains(i))
}

/// The FEN of a table position.
pub fn fen(table: &Table, sq: &[u8], stm: usize) -> String {
    let v = &table.rules.variant;
    let b = &table.rules.board;
    let mut grid: Vec<Option<String>> = vec![None; b.n];
    for (i, &s) in sq.iter().enumerate() {
        let mut sym = symbol(v, table.piece[i]);
        if table.colour[i] == 1 {
            sym = sym.to_lowercase();
        }
        grid[s as usize] = Some(sym);
    }
    let mut out = String::new();
    for r in (0..b.ranks).rev() {
        let mut empty = 0;
        for f in 0..b.files {
            match &grid[(r * b.files + f) as usize] {
                Some(sym) => {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push_str(sym);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if r > 0 {
            out.push('/');
        }
    }
    out.push_str(if stm == 0 { " w - - 0 1" } else { " b - - 0 1" });
    out
}

/// The statistics report as text; without `distances` (the WDL metric), the counts of
/// wins, draws and losses only.
pub fn render(table: &Table, stats: &[SideStats; 2], distances: bool) -> String {
    let mut s = String::new();
    let side_name = ["White", "Black"];
    let metric = match distances {
        true => format!("{:?}", table.metric),
        false => "Wdl".to_string(),
    };
    s.push_str(&format!(
        "{} ({}), {metric}, {} symmetry map(s), {} positions per side\n",
        table.name,
        table.rules.variant.name,
        table.index.maps.len(),
        table.index.size
    ));
    for (stm, st) in stats.iter().enumerate() {
        let (w, l, d) = (st.total_wins(), st.total_losses(), st.draws);
        s.push_str(&format!(
            "{} to move: legal {} (orbits {}); win {} / draw {} / loss {} (orbits {} / {} / {}); mates {} (orbits {}), stalemates {} (orbits {})\n",
            side_name[stm], st.legal.full, st.legal.orbits, w.full, d.full, l.full, w.orbits,
            d.orbits, l.orbits, st.mates.full, st.mates.orbits, st.stalemates.full, st.stalemates.orbits
        ));
        if !distances {
            continue;
        }
        s.push_str("  moves      wins (full)    wins (orbits)    losses (full)  losses (orbits)\n");
        for depth in 0..st.wins.len().max(st.losses.len()) {
            let w = st.wins.get(depth).copied().unwrap_or_default();
            let l = st.losses.get(depth).copied().unwrap_or_default();
            if w.full + l.full == 0 {
                continue;
            }
            s.push_str(&format!(
                "  {depth:5} {:16} {:16} {:16} {:16}\n",
                w.full, w.orbits, l.full, l.orbits
            ));
        }
    }
    if !distances {
        return s;
    }
    let best = (0..2)
        .filter_map(|stm| stats[stm].longest.map(|l| (l, stm)))
        .max_by_key(|((p, _), _)| *p);
    match best {
        Some(((p, idx), stm)) => {
            let mut sq = [0u8; MAX_MEN];
            table.index.decode(idx, &mut sq[..table.men()]);
            s.push_str(&format!(
                "Longest win: {} moves ({} to move), e.g. {}\n",
                (p as usize).div_ceil(2),
                side_name[stm],
                fen(table, &sq[..table.men()], stm)
            ));
        }
        None => s.push_str("Longest win: none (no position is won)\n"),
    }
    s
}

/// Up to `count` drawn positions with White to move in which White is not in check, spread
/// evenly over the table: (FEN, 0).
pub fn draw_examples(table: &Table, count: usize) -> Vec<(String, usize)> {
    if count == 0 {
        // The scan below generates moves for every draw: not for nothing.
        return Vec::new();
    }
    let m = table.men();
    let mut sq = [0u8; MAX_MEN];
    let draws: Vec<usize> = (0..table.index.size)
        .filter(|&i| table.values[0][i].load(Relaxed) == DRAW)
        .filter(|&i| {
            table.index.decode(i, &mut sq[..m]);
            !table.in_check(&sq[..m], 0) && table.successors(&sq[..m], 0, |_| false) > 0
        })
        .collect();
    let n = count.min(draws.len());
    (0..n)
        .map(|k| {
            table.index.decode(draws[k * draws.len() / n], &mut sq[..m]);
            (fen(table, &sq[..m], 0), 0)
        })
        .collect()
}

/// Up to `count` won positions with White to move, at least half as deep as the deepest win,
/// spread evenly over the table: (FEN, moves to mate).
pub fn examples(table: &Table, count: usize) -> Vec<(String, usize)> {
    if count == 0 {
        return Vec::new();
    }
    let moves = |code: u8| (plies(code) as usize).div_ceil(2);
    let wins = || {
        (0..table.index.size).filter_map(|i| {
            let code = table.values[0][i].load(Relaxed);
            is_win(code).then(|| (i, moves(code)))
        })
    };
    let deepest = wins().map(|w| w.1).max().unwrap_or(0);
    let deep: Vec<(usize, usize)> = wins().filter(|w| 2 * w.1 >= deepest).collect();
    let mut sq = [0u8; MAX_MEN];
    (0..count.min(deep.len()))
        .map(|k| {
            let (idx, m) = deep[k * deep.len() / count.min(deep.len())];
            table.index.decode(idx, &mut sq[..table.men()]);
            (fen(table, &sq[..table.men()], 0), m)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::tables_bar;

    /// The bar fills with the tables solved, and is left out for a build of one table.
    #[test]
    fn the_bar_counts_the_tables_solved() {
        assert_eq!(
            tables_bar(Some((0, 4))),
            "[--------------------] 0/4 tables  "
        );
        assert_eq!(
            tables_bar(Some((1, 4))),
            "[#####---------------] 1/4 tables  "
        );
        assert_eq!(
            tables_bar(Some((21, 21))),
            "[####################] 21/21 tables  "
        );
        assert_eq!(tables_bar(Some((0, 1))), "");
        assert_eq!(tables_bar(None), "");
    }
}
