//! `locust egt build` and `locust egt probe`: the command line of the table generator.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Subcommand, ValueEnum};
use variants::rules::Outcome;
use variants::Variant;

use super::material::Material;
use super::rules::Rules;
use super::solve::Metric;
use super::value::{describe, describe_wdl, ILLEGAL};
use super::{report, Builder, Settings};
use crate::game::Game;

/// The `egt` subcommands.
#[derive(Debug, Subcommand)]
pub enum EgtCommand {
    /// Build the table of a material (and every table it converts into); print statistics.
    Build {
        /// Variant name.
        variant: String,
        /// Material, e.g. KQvKR (or EGTgen's KQ.KR); each side's royal included.
        material: String,
        /// Check every position against its successors after the build (slow).
        #[arg(long)]
        verify: bool,
        /// Also print this many won positions (White to move, at least half the longest
        /// win deep, spread over the table) as `FEN ; moves to mate`.
        #[arg(long, value_name = "N", default_value_t = 0)]
        examples: usize,
        /// Also print this many drawn positions (White to move, not in check) as `FEN ; 0`.
        #[arg(long, value_name = "N", default_value_t = 0)]
        draw_examples: usize,
        /// Build options.
        #[command(flatten)]
        opts: Opts,
    },
    /// Print a position's value and every legal move with the value it leads to, best first.
    Probe {
        /// Variant name.
        variant: String,
        /// The position.
        fen: String,
        /// Build options.
        #[command(flatten)]
        opts: Opts,
    },
}

impl EgtCommand {
    /// The variant the command is about.
    pub fn variant(&self) -> &str {
        match self {
            EgtCommand::Build { variant, .. } | EgtCommand::Probe { variant, .. } => variant,
        }
    }
}

/// Options shared by build and probe.
#[derive(Debug, clap::Args)]
pub struct Opts {
    /// Distance metric (wdl: solved as dtm, reported and probed as win, draw or loss).
    #[arg(long, value_enum, default_value = "dtm")]
    metric: MetricArg,
    /// Worker threads (default: one per core).
    #[arg(long, default_value_t = cores())]
    threads: usize,
    /// Cache folder (default: ~/.cache/locust/tables).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Keep tables in memory only.
    #[arg(long)]
    no_cache: bool,
    /// Black (the defender) may pass when not in check (EGTgen's -0).
    #[arg(long)]
    null_move: bool,
    /// What a stalemate scores for the stalemated side (default: the variant's rule).
    #[arg(long, value_enum)]
    stalemate: Option<OutcomeArg>,
    /// Let perpetual check hold a draw even where the variant forbids it (for comparison).
    #[arg(long)]
    allow_perpetual: bool,
    /// Preset values for listed positions (EGTgen's -f): lines `FEN ; win N`, `FEN ; loss N`
    /// or `FEN ; draw` (N in moves); `#` starts a comment.
    #[arg(long, value_name = "FILE")]
    seed: Option<PathBuf>,
    /// Refuse to build tables needing more than this many megabytes.
    #[arg(long, value_name = "MB", default_value_t = 16384)]
    memory: usize,
}

/// The cores this process may use (1 when the system cannot tell).
pub fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// Metric names.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum MetricArg {
    Wdl,
    Dtm,
    Dtc,
}

/// Outcome names.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum OutcomeArg {
    Win,
    Draw,
    Loss,
}

/// Runs an `egt` subcommand.
pub fn run(all: &[Variant], cmd: EgtCommand) -> ExitCode {
    let (name, opts) = match &cmd {
        EgtCommand::Build { variant, opts, .. } | EgtCommand::Probe { variant, opts, .. } => {
            (variant, opts)
        }
    };
    let Some(variant) = variants::find(all, name) else {
        eprintln!("unknown variant `{name}` (see `locust variants`)");
        return ExitCode::FAILURE;
    };
    let stalemate = opts.stalemate.map(|o| match o {
        OutcomeArg::Win => Outcome::Win,
        OutcomeArg::Draw => Outcome::Draw,
        OutcomeArg::Loss => Outcome::Loss,
    });
    let rules = match Rules::new(variant, stalemate, opts.null_move) {
        Ok(r) if opts.allow_perpetual => r.with_perpetual_ban(false),
        Ok(r) => r,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let settings = Settings {
        metric: match opts.metric {
            MetricArg::Dtc => Metric::Dtc,
            _ => Metric::Dtm,
        },
        threads: opts.threads.max(1),
        cache: if opts.no_cache {
            None
        } else {
            opts.cache.clone().or_else(super::cache::default_dir)
        },
        memory_mb: opts.memory,
        progress: true,
        presets: Vec::new(),
        alike_men: true,
        colour_mirrors: true,
    };
    let mut settings = settings;
    if let Some(path) = &opts.seed {
        match read_presets(variant, &rules, path) {
            Ok(p) => settings.presets = p,
            Err(e) => {
                eprintln!("{e}");
                return ExitCode::FAILURE;
            }
        }
    }
    let threads = settings.threads;
    let distances = !matches!(opts.metric, MetricArg::Wdl);
    let mut builder = Builder::new(rules, settings);
    match cmd {
        EgtCommand::Build {
            material,
            verify,
            examples,
            draw_examples,
            ..
        } => build(
            &mut builder,
            variant,
            &material,
            (threads, distances),
            (verify, examples, draw_examples),
        ),
        EgtCommand::Probe { fen, .. } => probe(&mut builder, variant, &fen, distances),
    }
}

fn build(
    builder: &mut Builder,
    variant: &Variant,
    text: &str,
    (threads, distances): (usize, bool),
    (verify, examples, draws): (bool, usize, usize),
) -> ExitCode {
    let material = match Material::parse(variant, text) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let start = std::time::Instant::now();
    match builder.table(&material) {
        Ok(table) => {
            let secs = start.elapsed().as_secs_f64();
            let stats = report::stats(&table, threads);
            print!("{}", report::render(&table, &stats, distances));
            println!(
                "{}",
                built_line(
                    secs,
                    builder.solved_last(),
                    builder.tables().count() + builder.read_partly_last()
                )
            );
            let samples = report::examples(&table, examples);
            for (fen, moves) in samples
                .into_iter()
                .chain(report::draw_examples(&table, draws))
            {
                println!("{fen} ; {moves}");
            }
            if verify {
                let bad = super::solve::inconsistencies(&table);
                println!(
                    "Verify: {} position(s) differ from one ply of minimax",
                    bad.len()
                );
                let mut sq = [0u8; super::material::MAX_MEN];
                for &(stm, idx, got, want) in bad.iter().take(10) {
                    table.index.decode(idx, &mut sq[..table.men()]);
                    println!(
                        "  {}: stored {}, expected {}",
                        report::fen(&table, &sq[..table.men()], stm),
                        describe(got),
                        describe(want)
                    );
                }
                if !bad.is_empty() {
                    return ExitCode::FAILURE;
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// The probed position's value as `egt probe` prints it: the table's; else worked out
/// from its moves (`moves`, best first) where an en passant capture or a castling right
/// keeps it out of the table; else why it is not in the tables.
fn own_line(
    builder: &Builder,
    pos: &crate::board::position::Position,
    own: u8,
    moves: &[(String, u8)],
    describe: fn(u8) -> String,
) -> String {
    use super::probe::{readable, table_form};
    if table_form(&builder.rules, pos).is_none() {
        return format!(
            "not in the tables (more than {} men, or a side without a royal)",
            super::material::MAX_MEN
        );
    }
    if readable(pos) {
        return describe(own);
    }
    let why = if pos.has_castling() {
        "a castling right is open"
    } else {
        "an en passant capture is open"
    };
    // The probe works out an en passant position from its moves; a castling right is
    // known when every move is (the rights are given up or taken by each of them).
    let by_moves = if own != ILLEGAL {
        Some(own)
    } else if !moves.is_empty() && moves.iter().all(|m| m.1 != ILLEGAL) {
        Some(moves[0].1)
    } else {
        None
    };
    match by_moves {
        Some(code) => format!("{} (by its moves: {why})", describe(code)),
        None => format!("not in the tables ({why})"),
    }
}

fn probe(builder: &mut Builder, variant: &Variant, fen: &str, distances: bool) -> ExitCode {
    let describe = if distances { describe } else { describe_wdl };
    let mut game = match Game::from_fen(variant.clone(), fen) {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    match super::probe::probe(builder, &mut game) {
        Ok((own, moves)) => {
            let own = own_line(builder, game.position(), own, &moves, describe);
            println!("{}: {own}", game.position().fen());
            for (text, code) in moves {
                // A legal move never leads to a broken position: ILLEGAL is the probe's
                // "unknown" (a position after it that keeps a castling right, or no table).
                let value = if code == ILLEGAL {
                    "not in the tables".to_string()
                } else {
                    describe(code)
                };
                println!("  {text:10} {value}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::FAILURE
        }
    }
}

/// Reads a preset file: `FEN ; win N | loss N | draw` per line.
fn read_presets(
    variant: &Variant,
    rules: &Rules,
    path: &std::path::Path,
) -> Result<Vec<super::Preset>, String> {
    use super::value::{loss, win, DRAW};
    let text = variants::file::read_text(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let at = |what: &str| format!("{}:{}: {what}", path.display(), n + 1);
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (fen, value) = line
            .split_once(';')
            .ok_or_else(|| at("expected `FEN ; win N`, `FEN ; loss N` or `FEN ; draw`"))?;
        let words: Vec<&str> = value.split_whitespace().collect();
        let moves = || {
            words
                .get(1)
                .and_then(|w| w.parse::<u8>().ok())
                .filter(|&m| m <= 120)
                .ok_or_else(|| at("expected a number of moves up to 120"))
        };
        let code = match words.first().copied() {
            Some("win") => win((2 * moves()?).saturating_sub(1)),
            Some("loss") => loss(2 * moves()?),
            Some("draw") => DRAW,
            _ => return Err(at("expected win, loss or draw after `;`")),
        };
        let game = Game::from_fen(variant.clone(), fen.trim()).map_err(|e| at(&e.to_string()))?;
        let (material, squares, stm) = super::probe::table_form(rules, game.position())
            .ok_or_else(|| at("this position has no table form"))?;
        out.push(super::Preset {
            material,
            squares,
            stm,
            code,
        });
    }
    Ok(out)
}

/// The build's last line: its time, the tables it solved and those it read.
fn built_line(secs: f64, solved: usize, used: usize) -> String {
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let read = used.saturating_sub(solved);
    match (solved, read) {
        (0, _) => format!("Read from the cache in {secs:.2} s"),
        (_, 0) => format!("Built in {secs:.2} s ({solved} table{})", plural(solved)),
        _ => format!(
            "Built in {secs:.2} s ({solved} table{} solved, {read} read from the cache)",
            plural(solved)
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::built_line;

    #[test]
    fn the_last_line_tells_solved_from_read() {
        assert_eq!(built_line(0.011, 0, 1), "Read from the cache in 0.01 s");
        assert_eq!(built_line(1.234, 1, 1), "Built in 1.23 s (1 table)");
        assert_eq!(built_line(1.0, 4, 4), "Built in 1.00 s (4 tables)");
        assert_eq!(
            built_line(0.5, 1, 6),
            "Built in 0.50 s (1 table solved, 5 read from the cache)"
        );
    }
}
