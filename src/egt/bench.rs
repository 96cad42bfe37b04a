//! `locust bench --egt`: the wall time of building each four-man chess table alone, its
//! sub-tables cached, as `locust egt build` does it in a process of its own (start, rules,
//! reading, solve, file and exit), beside a measure of the host's speed at the time.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use variants::Variant;

use super::cache;
use super::material::Material;
use super::rules::Rules;
use super::solve::Metric;
use crate::board::position::Position;

/// The tables timed: every chess material of four men, one of each pair of colour mirrors
/// (KQvKR, not KRvKQ, which is read through it).
pub const EGT_BENCH: &[&str] = &[
    "KQQvK", "KQRvK", "KQBvK", "KQNvK", "KQPvK", "KRRvK", "KRBvK", "KRNvK", "KRPvK", "KBBvK",
    "KBNvK", "KBPvK", "KNNvK", "KNPvK", "KPPvK", "KQvKQ", "KQvKR", "KQvKB", "KQvKN", "KQvKP",
    "KRvKR", "KRvKB", "KRvKN", "KRvKP", "KBvKB", "KBvKN", "KBvKP", "KNvKN", "KNvKP", "KPvKP",
];

/// Runs per table by default: the host's speed drifts within seconds, so the median of a
/// few says more than one.
pub const EGT_BENCH_RUNS: usize = 3;

/// The variant of [`EGT_BENCH`].
const EGT_BENCH_VARIANT: &str = "chess";

/// The depth of the host-speed measure: `perft chess 5` in this process (4.9 million
/// leaves, nothing but CPU), timed before and after the tables.
const SPEED_DEPTH: u32 = 5;

/// `locust bench --egt [--runs N] [--threads N]`: builds every [`EGT_BENCH`] table once
/// (filling a fresh cache folder with their sub-tables), then times each one `runs` times
/// alone, its own file removed before each run, and prints the fastest, median and
/// slowest run per table.
pub fn run(all: &[Variant], runs: usize, threads: usize) -> ExitCode {
    let Some(v) = all.iter().find(|v| v.name == EGT_BENCH_VARIANT) else {
        eprintln!("bench: no variant `{EGT_BENCH_VARIANT}`");
        return ExitCode::FAILURE;
    };
    let exe = match std::env::current_exe() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("bench: cannot find this program's path: {e}");
            return ExitCode::FAILURE;
        }
    };
    let dir = std::env::temp_dir().join(format!("locust-bench-egt-{}", std::process::id()));
    let before = host_speed(v);
    println!(
        "perft {EGT_BENCH_VARIANT} {SPEED_DEPTH}: {} ms (the host's speed before)",
        ms(before)
    );
    let timed = time_tables(&exe, &dir, v, EGT_BENCH, runs.max(1), threads.max(1));
    let _ = std::fs::remove_dir_all(&dir);
    let times = match timed {
        Ok(t) => t,
        Err(e) => {
            eprintln!("bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut slowest = (Duration::ZERO, "");
    for (material, mut t) in EGT_BENCH.iter().zip(times) {
        t.sort();
        let median = t[t.len() / 2];
        if median > slowest.0 {
            slowest = (median, material);
        }
        println!(
            "{material:<7} fastest {:>4} ms  median {:>4} ms  slowest {:>4} ms",
            ms(t[0]),
            ms(median),
            ms(t[t.len() - 1])
        );
    }
    let after = host_speed(v);
    println!(
        "perft {EGT_BENCH_VARIANT} {SPEED_DEPTH}: {} ms (the host's speed after)",
        ms(after)
    );
    println!("===========================");
    println!("Threads         : {threads}");
    println!("Slowest median  : {} {} ms", slowest.1, ms(slowest.0));
    ExitCode::SUCCESS
}

/// Builds each of `materials` of variant `v` once through `exe` (`egt build`, cache folder
/// `dir`, made fresh), then times `runs` more builds of each, its file removed before each:
/// per material, the wall times of its runs.
pub fn time_tables(
    exe: &Path,
    dir: &Path,
    v: &Variant,
    materials: &[&str],
    runs: usize,
    threads: usize,
) -> Result<Vec<Vec<Duration>>, String> {
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let rules = Rules::new(v, None, false).map_err(|e| e.to_string())?;
    let files: Vec<PathBuf> = materials
        .iter()
        .map(|m| {
            let material = Material::parse(v, m).map_err(|e| e.to_string())?;
            Ok(cache::path_of(dir, &rules, &material.name(v), Metric::Dtm))
        })
        .collect::<Result<_, String>>()?;
    let build = |material: &str| -> Result<Duration, String> {
        let t = Instant::now();
        let status = Command::new(exe)
            .args(["egt", "build", &v.name, material, "--threads"])
            .arg(threads.to_string())
            .arg("--cache")
            .arg(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("{}: {e}", exe.display()))?;
        let took = t.elapsed();
        status
            .success()
            .then_some(took)
            .ok_or_else(|| format!("egt build {material} failed ({status})"))
    };
    // Every table and sub-table in the cache first, so that each run below builds its
    // table alone.
    for m in materials {
        build(m)?;
    }
    let mut times = Vec::new();
    for (m, file) in materials.iter().zip(&files) {
        let mut t = Vec::new();
        for _ in 0..runs {
            std::fs::remove_file(file).map_err(|e| format!("{}: {e}", file.display()))?;
            t.push(build(m)?);
        }
        times.push(t);
    }
    Ok(times)
}

/// The fastest of three `perft` runs of the variant's start position.
fn host_speed(v: &Variant) -> Duration {
    let Ok(start) = Position::new_game(v.clone()) else {
        return Duration::ZERO;
    };
    (0..3)
        .map(|_| {
            let mut pos = start.clone();
            let t = Instant::now();
            std::hint::black_box(crate::perft::perft(&mut pos, SPEED_DEPTH));
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// Whole milliseconds.
fn ms(d: Duration) -> u128 {
    d.as_millis()
}
