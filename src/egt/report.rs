//! What a build prints: progress on stderr (on a terminal one updating line with a bar of
//! the build's tables solved, plain lines otherwise) and the statistics of a table as text
//! (counted by `stats`): per side to move, wins and losses per depth in orbits (positions
//! counted once per symmetry class) and on the full board, mates, stalemates, draws, and the
//! longest win with a FEN; and example positions.

use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};
use std::time::{Duration, Instant};

pub use super::counts::{Count, SideStats};
use super::material::{symbol, MAX_MEN};
use super::solve::Table;
pub use super::stats::stats;
use super::value::{is_win, plies, DRAW};

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
