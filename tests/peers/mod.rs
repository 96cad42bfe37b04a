//! The peers and clients that some tests drive (cutechess-cli, XBoard under Xvfb, python-chess,
//! Fairy-Stockfish, Fairy-Max, MaxQi, shogiops): where one is missing the test is skipped where a
//! reader sees it, or fails when the environment says the peer must be there.
//!
//! `LOCUST_REQUIRE_PEERS` names the peers that must be present, comma-separated, or `all`;
//! `.ci/run` installs its peers and sets it, so in CI a missing peer is a failure, not a skip.
//! Without it (README's test command on a bare machine) a skip is written straight to the
//! process's stderr, past the test harness's capture, so it shows among the `ok` lines.

#![allow(dead_code, clippy::expect_used)]

use std::io::Write;
use std::path::PathBuf;

/// The environment variable listing the peers that must be present.
pub const REQUIRE_VAR: &str = "LOCUST_REQUIRE_PEERS";

/// Names a test gives its peers (and `.ci/run` lists in `LOCUST_REQUIRE_PEERS`).
pub const CUTECHESS: &str = "cutechess-cli";
pub const XBOARD: &str = "xboard";
pub const PYTHON_CHESS: &str = "python-chess";
pub const PYTHON3: &str = "python3";
pub const FAIRY_STOCKFISH: &str = "fairy-stockfish";
pub const FAIRYMAX: &str = "fairymax";
pub const MAXQI: &str = "maxqi";
pub const SHOGIOPS: &str = "shogiops";
pub const FSF_VARIANTS_INI: &str = "fsf-variants-ini";

/// Whether `peer` must be present: it is listed in `LOCUST_REQUIRE_PEERS`, or that says `all`.
pub fn required(peer: &str) -> bool {
    std::env::var(REQUIRE_VAR).is_ok_and(|list| {
        list.split(',')
            .map(str::trim)
            .any(|name| name == "all" || name == peer)
    })
}

/// A missing peer: a failure where it is required, else a skip written past the capture.
pub fn missing(peer: &str, test: &str, why: &str) {
    assert!(
        !required(peer),
        "{test}: {peer} is required ({REQUIRE_VAR}) but missing: {why}"
    );
    // `eprintln!` is captured by the harness and shown only for failing tests; a write to the
    // stderr handle itself is not.
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {peer}: {why}");
}

/// An executable file, if it exists.
pub fn executable(path: &str) -> Option<PathBuf> {
    let p = PathBuf::from(path);
    p.is_file().then_some(p)
}

/// A program found on PATH.
pub fn on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// Where Fairy-Stockfish's own variants.ini is looked for: `LOCUST_FSF_VARIANTS_INI`, else a
/// git directory of its repository at this path (the session tool's mirror). It is in no
/// registry, so where neither is at hand the tests that read it skip.
const FSF_MIRROR: &str = "/work/.mirror/fairy-stockfish+Fairy-Stockfish/repo";

/// The text of Fairy-Stockfish's variants.ini, if it is at hand.
pub fn fsf_variants_ini() -> Option<String> {
    if let Ok(path) = std::env::var("LOCUST_FSF_VARIANTS_INI") {
        return std::fs::read_to_string(path).ok();
    }
    let out = std::process::Command::new("git")
        .arg(format!("--git-dir={FSF_MIRROR}"))
        .args(["show", "HEAD:src/variants.ini"])
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

/// The sections of FSF's variants.ini that Locust loads (read from the peer file: it is GPL
/// and never copied here), or `None` with the skip reported for `test` when the file is not
/// found.
pub fn fsf_sections(test: &str) -> Option<Vec<variants::Variant>> {
    let Some(text) = fsf_variants_ini() else {
        let why = "Fairy-Stockfish's variants.ini not found (set LOCUST_FSF_VARIANTS_INI)";
        missing(FSF_VARIANTS_INI, test, why);
        return None;
    };
    Some(variants::load_report(&text, "variants.ini").variants())
}

/// A built-in of that name, else the section of FSF's file (which must load); `None` when it
/// is a section and the file is missing.
pub fn builtin_or_section(
    name: &str,
    sections: &Option<Vec<variants::Variant>>,
) -> Option<variants::Variant> {
    let builtins = variants::builtins().expect("built-ins load");
    if let Some(v) = variants::find(&builtins, name) {
        return Some(v.clone());
    }
    let v = sections.as_ref()?.iter().find(|v| v.name == name);
    Some(v.unwrap_or_else(|| panic!("{name} does not load")).clone())
}
