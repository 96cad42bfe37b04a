//! The `locust` binary's variant commands: every built-in file passes `check-variants`,
//! a broken file is reported with its line, `variants` lists everything, `--variants` adds
//! a user's file, and the docs' worked example checks clean.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::PathBuf;
use std::process::{Command, Output};

use variants::rules::Origin;

fn locust(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_locust"))
        .args(args)
        .output()
        .expect("run locust")
}

fn temp_file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locust-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Every built-in file passes as a user's file, except that a built-in that records an
/// omitted Fairy-Stockfish rule (none does at present) is refused by exactly
/// that rule's name there: a user's copy must not play the omission unawares.
#[test]
fn check_variants_passes_every_builtin_file() {
    let all = variants::builtins().unwrap();
    for (file, text) in variants::load::BUILTIN_FILES {
        let path = temp_file(file, text);
        let out = locust(&["check-variants", path.to_str().unwrap()]);
        let from_file = all
            .iter()
            .filter(|v| v.origin == Origin::Builtin(file.to_string()));
        let omits: Vec<&String> = from_file.flat_map(|v| &v.omits).collect();
        if omits.is_empty() {
            assert!(out.status.success(), "{file}: {}", stdout(&out));
            assert!(stdout(&out).contains("start FEN ok"), "{file}");
            continue;
        }
        assert_eq!(out.status.code(), Some(1), "{file}");
        let errors: Vec<String> = stdout(&out)
            .lines()
            .filter(|l| l.starts_with("  "))
            .map(str::to_string)
            .collect();
        assert_eq!(errors.len(), omits.len(), "{file}: {errors:?}");
        for rule in omits {
            let named = format!("`{rule}` is not modelled by Locust");
            assert!(errors.iter().any(|e| e.contains(&named)), "{file}: {rule}");
        }
    }
}

/// A file's bad section is reported with its line and skipped; the rest of the file loads,
/// and `check-variants` reports each section on its own line.
#[test]
fn a_bad_section_is_skipped_and_the_rest_loads() {
    let text = "[good1:chess]\ncastling = false\n\n[bad:chess]\nextinctionClaim = true\n\
                [good2:good1]\nmaxFile = 6\nmaxRank = 6\nstartFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR\n";
    let path = temp_file("mixed.ini", text);
    let out = locust(&["check-variants", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("good1: 8x8"), "{text}");
    assert!(text.contains("good2: 6x6"), "{text}");
    assert!(text.contains("bad: refused, 1 error(s)"), "{text}");
    let want = format!("{}:5: extinctionClaim:", path.display());
    assert!(text.contains(&want), "{text}");
    let out = locust(&["--variants", path.to_str().unwrap(), "variants"]);
    assert!(out.status.success());
    let listed: Vec<&str> = std::str::from_utf8(&out.stdout).unwrap().lines().collect();
    assert!(listed.iter().any(|l| l.starts_with("good1 ")));
    assert!(listed.iter().any(|l| l.starts_with("good2 ")));
    assert!(!listed.iter().any(|l| l.starts_with("bad ")));
}

#[test]
fn check_variants_reports_the_broken_line() {
    let text = "[mine:chess]\n# comment\nmaxFile = 10\ncastling = sometimes\n";
    let path = temp_file("broken.ini", text);
    let out = locust(&["check-variants", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let want = format!("{}:4: castling: expected true or false", path.display());
    assert!(stdout(&out).contains(&want), "{}", stdout(&out));
}

#[test]
fn variants_lists_builtins_with_sizes() {
    let out = locust(&["variants"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text
        .lines()
        .any(|l| l.starts_with("chess ") && l.contains("8x8")));
    assert!(text.contains("builtin tenjiku.ini"));
    assert!(text
        .lines()
        .any(|l| l.starts_with("chu ") && l.contains("12x12")));
}

#[test]
fn user_variants_join_the_list() {
    let path = temp_file("user.ini", "[tinychess:chess]\nmaxFile = 6\nmaxRank = 6\nstartFen = rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1\ncastling = false\n");
    let out = locust(&["--variants", path.to_str().unwrap(), "variants"]);
    assert!(out.status.success(), "{}", stdout(&out));
    assert!(stdout(&out)
        .lines()
        .any(|l| l.starts_with("tinychess") && l.contains("6x6")));
    let bad = temp_file("bad.ini", "[x:chess]\nfoo = 1\n");
    let out = locust(&["--variants", bad.to_str().unwrap(), "variants"]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(":2: foo: unknown key"), "{err}");
    assert!(!stdout(&out).lines().any(|l| l.starts_with("x ")));
}

#[test]
fn docs_worked_example_checks_clean() {
    let doc = include_str!("../docs/variants.md");
    let start = doc.find("```ini\n").expect("an ini block") + "```ini\n".len();
    let len = doc[start..].find("```").unwrap();
    let path = temp_file("example.ini", &doc[start..start + len]);
    let out = locust(&["check-variants", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stdout(&out));
}

#[test]
fn greets_protocols() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_locust"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"xboard\nprotover 2\nping 3\nfrob\nquit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let text = stdout(&out);
    assert!(text.starts_with("Locust "));
    assert!(text.contains("variants=\"normal,fischerandom,"));
    assert!(text.contains("\npong 3\n"));
    assert!(text.contains("Error (unknown command): frob"));
}

#[test]
fn a_reader_that_stops_early_gets_no_panic() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    // The egt statistics are long enough to outgrow the pipe once the reader has gone.
    let mut child = Command::new(env!("CARGO_BIN_EXE_locust"))
        .args([
            "egt",
            "build",
            "chess",
            "KQvK",
            "--no-cache",
            "--examples",
            "5000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with("KQvK"), "{first}");
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{:?} {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
}

/// `egt` with the WDL metric reports and probes win, draw or loss without distances; with
/// DTM, the depths and the longest win.
#[test]
fn egt_wdl_reports_no_distances() {
    let build = |metric: &str| {
        let out = locust(&[
            "egt",
            "build",
            "chess",
            "KQvK",
            "--no-cache",
            "--metric",
            metric,
        ]);
        assert!(out.status.success(), "{metric}: {}", stdout(&out));
        stdout(&out)
    };
    let dtm = build("dtm");
    assert!(
        dtm.contains(", Dtm, ") && dtm.contains("Longest win: 10 moves"),
        "{dtm}"
    );
    let wdl = build("wdl");
    assert!(
        wdl.contains(", Wdl, ") && wdl.contains("win 144508 / draw 0 / loss 0"),
        "{wdl}"
    );
    assert!(!wdl.contains("Longest") && !wdl.contains("moves "), "{wdl}");
    let fen = "8/8/8/5k2/8/8/1Q6/K7 w - - 0 1";
    let probe = |metric: &str| {
        let out = locust(&[
            "egt",
            "probe",
            "chess",
            fen,
            "--no-cache",
            "--metric",
            metric,
        ]);
        assert!(out.status.success(), "{metric}: {}", stdout(&out));
        stdout(&out)
    };
    assert!(probe("dtm").contains(": win in 10\n"), "{}", probe("dtm"));
    let wdl = probe("wdl");
    assert!(wdl.contains(": win\n") && wdl.contains(" draw\n"), "{wdl}");
    assert!(!wdl.contains(" in "), "{wdl}");
}

/// `egt probe` of positions the tables do not hold as they stand: with a castling right
/// open, a move that keeps one is "not in the tables" (not "illegal"), and a position whose
/// every move gives up the rights is worth its best move; with an en passant capture open,
/// its moves decide; with too many men, nothing is read.
#[test]
fn egt_probe_outside_the_tables() {
    let probe = |fen: &str| {
        let out = locust(&["egt", "probe", "chess", fen, "--no-cache"]);
        assert!(out.status.success(), "{fen}: {}", stdout(&out));
        stdout(&out)
    };
    let kept = probe("r3k3/8/8/8/8/8/8/4K3 w q - 0 1");
    assert!(
        kept.contains(": not in the tables (a castling right is open)\n"),
        "{kept}"
    );
    assert!(kept.contains("  e1d1       not in the tables\n"), "{kept}");
    assert!(!kept.contains("illegal"), "{kept}");
    let given_up = probe("4k3/8/8/8/8/8/8/R3K3 w Q - 0 1");
    assert!(
        given_up.contains(": win in 12 (by its moves: a castling right is open)\n"),
        "{given_up}"
    );
    assert!(given_up.contains("  a1a7       win in 12\n"), "{given_up}");
    // d2d4 was just played: cxd3 e.p. holds the draw that every other move loses.
    let ep = probe("8/8/8/8/2pP4/8/6k1/2K5 b - d3 0 1");
    assert!(
        ep.contains(": draw (by its moves: an en passant capture is open)\n"),
        "{ep}"
    );
    assert!(ep.contains("  c4d3       draw\n"), "{ep}");
    let start = probe("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(
        start.contains(": not in the tables (more than 8 men"),
        "{start}"
    );
}
