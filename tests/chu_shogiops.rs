//! Chu perft against shogiops (lishogi's rules) on fresh random positions, through
//! tools/shogiops-compare/compare.mjs. Runs only where `node` and the npm package are
//! installed (`cd tools/shogiops-compare && npm install`) and says so past the harness's
//! capture when it skips (or fails when `LOCUST_REQUIRE_PEERS` names shogiops); the
//! core suite checks the kept numbers in tests/data/perft/chu.perft without npm.

mod common;
mod peers;

use std::path::PathBuf;
use std::process::Command;

use common::start;
use locust::perft::perft;

/// Positions and depth of the live comparison (a new seed each release of the data would
/// only cost time; this one differs from the data file's).
const POSITIONS: usize = 40;
const SEED: u32 = 20_261_123;
const DEPTH: u32 = 2;

fn tool_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tools/shogiops-compare")
}

/// The tool's output (`FEN<TAB>count` lines), or why the comparison cannot run here.
fn shogiops_counts() -> Result<String, String> {
    let dir = tool_dir();
    if !dir.join("node_modules/shogiops/package.json").exists() {
        return Err(format!(
            "shogiops is not installed (cd {} && npm install)",
            dir.display()
        ));
    }
    let out = Command::new("node")
        .current_dir(&dir)
        .args(["compare.mjs", "counts"])
        .args([POSITIONS.to_string(), SEED.to_string(), DEPTH.to_string()])
        .output()
        .map_err(|e| format!("node did not run: {e}"))?;
    if !out.status.success() {
        // Installed but broken is a failure, not a skip.
        panic!(
            "compare.mjs failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn chu_perft_agrees_with_shogiops_on_fresh_positions() {
    let text = match shogiops_counts() {
        Ok(t) => t,
        Err(why) => {
            let test = "chu_perft_agrees_with_shogiops_on_fresh_positions";
            peers::missing(peers::SHOGIOPS, test, &why);
            return;
        }
    };
    let base = start("chu");
    let mut checked = 0;
    for line in text.lines() {
        let Some((fen, count)) = line.split_once('\t') else {
            panic!("unexpected line from compare.mjs: {line}");
        };
        let want: u64 = count.parse().unwrap_or_else(|e| panic!("{line}: {e}"));
        let mut pos = base.with_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(
            perft(&mut pos, DEPTH),
            want,
            "{fen}: see `node tools/shogiops-compare/compare.mjs diff '{fen}' {DEPTH}`"
        );
        checked += 1;
    }
    assert_eq!(checked, POSITIONS, "every position compared");
    eprintln!("chu vs shogiops: {checked} positions agree at depth {DEPTH}");
}
