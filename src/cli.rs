//! The command line: global options and subcommands (clap derive); without a subcommand it
//! runs the engine itself (src/engine/) on stdin/stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use variants::rules::Origin;
use variants::{Variant, VariantError};

/// Locust, a chess-variant engine for XBoard and UCI.
#[derive(Debug, Parser)]
#[command(name = "locust", version, about)]
pub struct Cli {
    /// Load the variants of this INI file beside the built-in ones.
    #[arg(long, global = true, value_name = "FILE")]
    pub variants: Option<PathBuf>,
    /// What to do; without a subcommand Locust speaks XBoard or UCI on stdin/stdout.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// List every variant: name, board size and where it is defined.
    Variants,
    /// Check a variant file and report every error as FILE:LINE: key: message.
    CheckVariants {
        /// The INI file to check.
        file: PathBuf,
    },
    /// Count the leaves of the legal move tree. Bulk-counted like Stockfish and
    /// Fairy-Stockfish: at the last ply the legal moves are counted, not played. A move is
    /// (from, to, the set of squares whose men it removes, promotion): a lion's two paths
    /// that remove the same men and end on the same square are one move, its step out and
    /// back without a capture is one pass, each igui is its own move. Prints
    /// `Nodes searched: N` last.
    Perft {
        /// Variant name.
        variant: String,
        /// Depth in plies.
        depth: u32,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Print the count below every root move.
        #[arg(long)]
        divide: bool,
        /// Count with the slow reference generator (plain board, no attack map).
        #[arg(long)]
        reference: bool,
    },
    /// Search a fixed list of positions from many variants; prints `Nodes searched  : N` and
    /// `Nodes/second    : N`.
    Bench {
        /// Search depth (default 7; large boards search a little less deep; with --tables,
        /// default 12).
        depth: Option<u32>,
        /// Search endgame positions with and without endgame tables instead (prints both).
        #[arg(long)]
        tables: bool,
        /// Time the build of every four-man chess table alone instead (its sub-tables
        /// cached), each as `locust egt build` in a process of its own.
        #[arg(long)]
        egt: bool,
        /// With --egt: runs per table (default 3).
        #[arg(long)]
        runs: Option<usize>,
        /// With --egt: the builds' worker threads (default: one per core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Search one position and print the thinking lines and the best move.
    Search {
        /// Variant name.
        variant: String,
        /// Start from this FEN instead of the start position.
        #[arg(long)]
        fen: Option<String>,
        /// Search to this depth (default 8 when no time is given).
        #[arg(long)]
        depth: Option<u32>,
        /// Search this many milliseconds.
        #[arg(long)]
        movetime: Option<u64>,
    },
    /// Fit the evaluation's weights and the variant's piece values to labelled positions
    /// (Texel's method, docs/TUNING.md; positions from tools/make-tune-positions.py) and
    /// print the fitted values.
    Tune {
        /// Variant name.
        variant: String,
        /// `FEN;SCORE` lines (centipawns, side to move's view).
        file: PathBuf,
        /// Passes over the parameters at most (default 30).
        #[arg(long, default_value_t = 30)]
        passes: usize,
        /// Fit only the parameters whose names start with one of these (comma-separated;
        /// `v`: the piece values alone, the weights being shared by every variant).
        #[arg(long, value_delimiter = ',')]
        only: Vec<String>,
    },
    /// Endgame tables: build them, probe them.
    Egt {
        /// What to do.
        #[command(subcommand)]
        command: locust::egt::cli::EgtCommand,
    },
}

/// Runs the parsed command line.
pub fn run(cli: Cli) -> ExitCode {
    let all = match variants_for(&cli) {
        Ok(v) => v,
        Err(errors) => return report(&errors),
    };
    match cli.command {
        None => locust::engine::run_stdio(all),
        Some(Command::Variants) => list(&all),
        Some(Command::CheckVariants { file }) => check(&file),
        Some(Command::Perft {
            variant,
            depth,
            fen,
            divide,
            reference,
        }) => {
            let args = locust::perft::PerftArgs {
                depth,
                fen,
                divide,
                reference,
            };
            locust::perft::run_cli(&all, &variant, &args)
        }
        Some(Command::Bench {
            egt: true,
            runs,
            threads,
            ..
        }) => locust::egt::bench::run(
            &all,
            runs.unwrap_or(locust::egt::bench::EGT_BENCH_RUNS),
            threads.unwrap_or_else(locust::egt::cli::cores),
        ),
        Some(Command::Bench { depth, tables, .. }) if tables => {
            locust::bench::run_table_bench(&all, depth)
        }
        Some(Command::Bench { depth, .. }) => locust::bench::run_bench(&all, depth),
        Some(Command::Search {
            variant,
            fen,
            depth,
            movetime,
        }) => locust::bench::run_search(&all, &variant, fen.as_deref(), depth, movetime),
        Some(Command::Egt { command }) => locust::egt::cli::run(&all, command),
        Some(Command::Tune {
            variant,
            file,
            passes,
            only,
        }) => locust::eval::tune::run_cli(&all, &variant, &file, passes, &only),
    }
}

/// The variants the command needs: a command about one built-in variant gets that one
/// alone (compiling all of them took 6 ms, a sixtieth of a 4-man table's build); the others
/// get every built-in plus the user's file.
fn variants_for(cli: &Cli) -> Result<Vec<Variant>, Vec<VariantError>> {
    let one = match &cli.command {
        Some(Command::Perft { variant, .. } | Command::Search { variant, .. }) => {
            Some(variant.as_str())
        }
        Some(Command::Egt { command }) => Some(command.variant()),
        _ => None,
    };
    match one
        .filter(|_| cli.variants.is_none())
        .map(variants::builtin)
    {
        Some(Some(v)) => v.map(|v| vec![v]),
        // Unknown here: the full list says so, as before.
        _ => all_variants(cli.variants.as_ref()),
    }
}

/// The built-in variants plus the user's file; a user variant replaces a built-in of the
/// same name. A bad section of the user's file is reported on stderr and skipped: the rest
/// of the file loads. A file of which nothing can be read is an error.
fn all_variants(user: Option<&PathBuf>) -> Result<Vec<Variant>, Vec<VariantError>> {
    let mut all = variants::builtins()?;
    if let Some(path) = user {
        let report = variants::load_file_report(&path.to_string_lossy());
        if report.sections.is_empty() && !report.file_errors.is_empty() {
            // Nothing of the file could be read (a device, a directory, no sections): the
            // user's request fails rather than going on with the built-ins alone.
            return Err(report.file_errors);
        }
        report.file_errors.iter().for_each(|e| eprintln!("{e}"));
        for s in &report.sections {
            if let Err(errors) = &s.result {
                eprintln!("variant {} refused:", s.name);
                errors.iter().for_each(|e| eprintln!("  {e}"));
            }
        }
        for v in report.variants() {
            all.retain(|b| b.name != v.name);
            all.push(v);
        }
    }
    Ok(all)
}

fn report(errors: &[VariantError]) -> ExitCode {
    for e in errors {
        println!("{e}");
    }
    eprintln!("{} error(s)", errors.len());
    ExitCode::FAILURE
}

fn origin_text(origin: &Origin) -> String {
    match origin {
        Origin::Builtin(file) => format!("builtin {file}"),
        Origin::File { path, line } => format!("{path}:{line}"),
    }
}

fn list(all: &[Variant]) -> ExitCode {
    let width = all.iter().map(|v| v.name.len()).max().unwrap_or(0);
    for v in all {
        let size = format!("{}x{}", v.files, v.ranks);
        let aliases = match v.aliases.is_empty() {
            true => String::new(),
            false => format!("  (also {})", v.aliases.join(", ")),
        };
        let omits = match v.omits.is_empty() {
            true => String::new(),
            false => format!("  (omits FSF's {})", v.omits.join(", ")),
        };
        println!(
            "{:<width$} {:<6} {}{aliases}{omits}",
            v.name,
            size,
            origin_text(&v.origin)
        );
    }
    ExitCode::SUCCESS
}

/// One line per section (`name: 8x8, 6 piece types, start FEN ok` or `name: refused, N
/// error(s)` followed by its errors), then the file's totals; exit status 1 on any error.
fn check(file: &std::path::Path) -> ExitCode {
    let report = variants::load_file_report(&file.to_string_lossy());
    for e in &report.file_errors {
        println!("{e}");
    }
    let mut loaded = 0;
    for s in &report.sections {
        match &s.result {
            Ok(v) => {
                loaded += 1;
                let size = format!("{}x{}", v.files, v.ranks);
                let kinds = v.pieces.len();
                println!("{}: {size}, {kinds} piece types, start FEN ok", v.name);
            }
            Err(errors) => {
                println!("{}: refused, {} error(s)", s.name, errors.len());
                errors.iter().for_each(|e| println!("  {e}"));
            }
        }
    }
    let errors = report.errors().len();
    let total = report.sections.len();
    eprintln!("{loaded} of {total} section(s) loaded, {errors} error(s)");
    if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
