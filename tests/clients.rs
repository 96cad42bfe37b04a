//! Real clients driving the engine: python-chess's engine module (UCI and XBoard games and a
//! MultiPV analysis), cutechess-cli (Locust against Fairy-Stockfish and Fairy-Max) and XBoard
//! in match mode under Xvfb (Locust against Fairy-Max, MaxQi and itself). Where a client or
//! peer is not installed a test skips and says so past the harness's capture, or fails when
//! `LOCUST_REQUIRE_PEERS` names it (tests/peers/mod.rs; `.ci/run` sets it).
//!
//! The suite plays a small budget (one short game per pairing); the `#[ignore]`d `*_full`
//! tests play more and longer games (`cargo test --release --test clients -- --ignored`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod peers;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use peers::{executable, missing, on_path};

/// Games are timed: the cutechess-cli and XBoard tests take turns instead of sharing the cores.
static GAMES: Mutex<()> = Mutex::new(());

const LOCUST: &str = env!("CARGO_BIN_EXE_locust");
const ROOT: &str = env!("CARGO_MANIFEST_DIR");

#[test]
fn python_chess_plays_and_analyses() {
    let probe = Command::new("python3")
        .args(["-c", "import chess.engine"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        missing(
            peers::PYTHON_CHESS,
            "python_chess_plays_and_analyses",
            "python3 with python-chess is not installed (pip install chess)",
        );
        return;
    }
    let script = format!("{ROOT}/tools/pychess-client.py");
    let out = Command::new("python3")
        .args([&script, LOCUST])
        .output()
        .unwrap_or_else(|e| panic!("cannot run {script}: {e}"));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        text.contains("uci: ") && text.contains("xboard: ") && text.contains("multipv: ok"),
        "{text}"
    );
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("locust-clients-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

// ---------------------------------------------------------------------------------------------
// cutechess-cli

/// cutechess-cli: $CUTECHESS, /opt/peers/cutechess-cli, or on PATH.
fn cutechess() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CUTECHESS") {
        return executable(&p.to_string_lossy());
    }
    executable("/opt/peers/cutechess-cli").or_else(|| on_path("cutechess-cli"))
}

/// One cutechess-cli pairing: Locust (speaking `proto`) against a peer.
struct Pairing {
    variant: &'static str,
    proto: &'static str,
    peer: &'static str,
    /// The peer's name in `LOCUST_REQUIRE_PEERS`.
    peer_id: &'static str,
    peer_cmd: &'static str,
    peer_proto: &'static str,
}

const FSF: &str = "/usr/games/fairy-stockfish";
const FAIRYMAX: &str = "/usr/games/fairymax";
const MAXQI: &str = "/usr/games/maxqi";

fn pairings(protos: &[&'static str]) -> Vec<Pairing> {
    let mut v = Vec::new();
    for variant in ["capablanca", "shatranj"] {
        for (i, &proto) in protos.iter().enumerate() {
            // With one protocol in the budget, Fairy-Stockfish gets UCI and Fairy-Max XBoard.
            let (fsf_proto, fm_proto) = if protos.len() == 1 {
                ("uci", "xboard")
            } else {
                (proto, protos[(i + 1) % protos.len()])
            };
            v.push(Pairing {
                variant,
                proto: fsf_proto,
                peer: "Fairy-Stockfish",
                peer_id: peers::FAIRY_STOCKFISH,
                peer_cmd: FSF,
                peer_proto: "uci",
            });
            v.push(Pairing {
                variant,
                proto: fm_proto,
                peer: "Fairy-Max",
                peer_id: peers::FAIRYMAX,
                peer_cmd: FAIRYMAX,
                peer_proto: "xboard",
            });
        }
    }
    v
}

/// Plays `games` games of the pairing and checks cutechess-cli's log and PGN; returns the
/// "Finished game" lines.
fn cutechess_match(
    cc: &Path,
    p: &Pairing,
    games: u32,
    tc: &str,
    maxmoves: u32,
    dir: &Path,
) -> Vec<String> {
    let pgn = dir.join(format!("{}-{}-{}.pgn", p.variant, p.peer, p.proto));
    let locust_name = format!("Locust-{}", p.proto);
    let out = Command::new(cc)
        .args(["-variant", p.variant, "-engine"])
        .arg(format!("cmd={LOCUST}"))
        .arg(format!("proto={}", p.proto))
        .arg(format!("name={locust_name}"))
        .arg("option.EGT=false")
        .args(["-engine"])
        .arg(format!("cmd={}", p.peer_cmd))
        .arg(format!("proto={}", p.peer_proto))
        .arg(format!("name={}", p.peer))
        // A margin keeps a busy machine from turning slowness into time forfeits; an engine
        // that never answers still loses on time and fails the test.
        .args(["-each", &format!("tc={tc}"), "timemargin=300"])
        .args(["-games", &games.to_string(), "-concurrency", "1"])
        .args(if games > 1 { &["-repeat"][..] } else { &[][..] })
        .args(["-maxmoves", &maxmoves.to_string()])
        .args(["-pgnout", &pgn.to_string_lossy()])
        .args(["-debug", "all"])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", cc.display()));
    let log =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    let what = format!(
        "{} vs {} ({}, Locust speaking {})",
        locust_name, p.peer, p.variant, p.proto
    );
    assert!(out.status.success(), "{what}: cutechess-cli failed\n{log}");
    check_cutechess_log(&what, &log, &locust_name, games);
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    let results: Vec<&str> = text.lines().filter(|l| l.starts_with("[Result ")).collect();
    assert_eq!(
        results.len(),
        games as usize,
        "{what}: games in the PGN\n{text}"
    );
    assert!(
        results.iter().all(|r| !r.contains('*')),
        "{what}: unfinished game\n{text}"
    );
    log.lines()
        .filter(|l| l.starts_with("Finished game"))
        .map(str::to_string)
        .collect()
}

/// What a cutechess-cli log must not show: a forfeit (illegal move, disconnect, stall, time
/// loss), a warning of cutechess-cli's own, or an error or unknown-command reply of Locust's.
fn check_cutechess_log(what: &str, log: &str, locust: &str, games: u32) {
    let finished: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with("Finished game"))
        .collect();
    assert_eq!(
        finished.len(),
        games as usize,
        "{what}: games finished\n{log}"
    );
    for line in &finished {
        let reason = line.rsplit_once('{').map_or("", |(_, r)| r).to_lowercase();
        for bad in [
            "illegal",
            "disconnect",
            "stall",
            "forfeit",
            "crash",
            "terminat",
        ] {
            assert!(!reason.contains(bad), "{what}: {line}");
        }
        if reason.contains("on time") {
            // `Finished game N (WHITE vs BLACK): RESULT {Colour loses on time}`: a peer that
            // oversteps its clock is the peer's business; Locust must not.
            let players = line.split_once('(').and_then(|(_, r)| r.split_once(')'));
            let (white, black) = players
                .and_then(|(p, _)| p.split_once(" vs "))
                .unwrap_or_else(|| panic!("{what}: cannot read the players of {line}"));
            let loser = if reason.starts_with("white") {
                white
            } else {
                black
            };
            assert!(loser != locust, "{what}: Locust lost on time: {line}");
            eprintln!("note: {what}: the peer lost on time: {line}");
        }
        assert!(
            [" 1-0 {", " 0-1 {", " 1/2-1/2 {"]
                .iter()
                .any(|r| line.contains(r)),
            "{what}: no result in {line}"
        );
    }
    let ours = format!("<{locust}(");
    for line in log.lines() {
        let low = line.to_lowercase();
        assert!(!line.starts_with("Warning"), "{what}: {line}");
        if line.contains(&ours) {
            for bad in [
                "illegal",
                "error",
                "unknown command",
                "unknown option",
                "info string position",
            ] {
                assert!(!low.contains(bad), "{what}: Locust said: {line}");
            }
        }
    }
}

fn cutechess_games(test: &str, protos: &[&'static str], games: u32, tc: &str, maxmoves: u32) {
    let Some(cc) = cutechess() else {
        let why = "not found (set CUTECHESS, or install /opt/peers/cutechess-cli)";
        missing(peers::CUTECHESS, test, why);
        return;
    };
    let _turn = GAMES.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("cutechess");
    let (mut played, mut skipped) = (0, 0);
    for p in pairings(protos) {
        if executable(p.peer_cmd).is_none() {
            skipped += 1;
            let what = format!(
                "{} is not installed ({} vs {})",
                p.peer_cmd, p.variant, p.peer
            );
            missing(p.peer_id, test, &what);
            continue;
        }
        for line in cutechess_match(&cc, &p, games, tc, maxmoves, &dir) {
            eprintln!("{line}");
            played += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // Every pairing either played its games or was reported missing above.
    assert!(played > 0 || skipped > 0, "{test}: no game played");
    eprintln!("cutechess-cli: {played} games, no forfeits, no protocol errors");
}

/// The suite's budget: one game per pairing (Fairy-Stockfish over UCI, Fairy-Max over XBoard),
/// capped at 16 moves.
#[test]
fn cutechess_plays_fsf_and_fairymax() {
    cutechess_games(
        "cutechess_plays_fsf_and_fairymax",
        &["uci"],
        1,
        "2+0.02",
        16,
    );
}

/// Two games per pairing and protocol, both colours, 40 moves, 5s+0.05s (about 4 minutes).
#[test]
#[ignore = "about 4 minutes; the suite plays cutechess_plays_fsf_and_fairymax"]
fn cutechess_plays_fsf_and_fairymax_full() {
    cutechess_games(
        "cutechess_plays_fsf_and_fairymax_full",
        &["uci", "xboard"],
        2,
        "5+0.05",
        40,
    );
}

// ---------------------------------------------------------------------------------------------
// XBoard under Xvfb

const XBOARD: &str = "/usr/games/xboard";

/// One XBoard match: Locust as the first engine (it sends `setup`/`piece` where XBoard needs
/// them), `second` as the second.
struct XbGame {
    variant: &'static str,
    second: &'static str,
    second_cmd: String,
}

fn xboard_games(
    test: &str,
    games_each: u32,
    tc: &str,
    inc: &str,
    cap: u32,
    variants: &[(&'static str, &'static str)],
) {
    if executable(XBOARD).is_none() || on_path("xvfb-run").is_none() {
        let why = format!("XBoard under Xvfb needs {XBOARD} and xvfb-run (Debian: xboard, xvfb)");
        missing(peers::XBOARD, test, &why);
        return;
    }
    let _turn = GAMES.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("xboard");
    let shim = format!("{ROOT}/tools/no-computer.sh");
    for &(variant, second) in variants {
        let second_cmd = match second {
            "Fairy-Max" => format!("{shim} {FAIRYMAX}"),
            "MaxQi" => MAXQI.to_string(),
            _ => LOCUST.to_string(),
        };
        let (peer_binary, peer_id) = match second {
            "Fairy-Max" => (FAIRYMAX, peers::FAIRYMAX),
            "MaxQi" => (MAXQI, peers::MAXQI),
            _ => (LOCUST, "locust"),
        };
        if executable(peer_binary).is_none() {
            let why = format!("{peer_binary} is not installed (XBoard {variant} vs {second})");
            missing(peer_id, test, &why);
            continue;
        }
        let g = XbGame {
            variant,
            second,
            second_cmd,
        };
        xboard_match(&g, games_each, tc, inc, cap, &dir);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn xboard_match(g: &XbGame, games: u32, tc: &str, inc: &str, cap: u32, dir: &Path) {
    let stem = format!("{}-{}", g.variant, g.second);
    let pgn = dir.join(format!("{stem}.pgn"));
    let debug = dir.join(format!("{stem}.debug"));
    let settings = dir.join(format!("{stem}.xboardrc"));
    let legality = if g.variant == "tenjiku" {
        "false"
    } else {
        "true"
    };
    let out = Command::new("xvfb-run")
        .args(["-a", XBOARD])
        // A private settings file: the user's ~/.xboardrc is neither read nor rewritten.
        .args(["-settingsFile", &settings.to_string_lossy()])
        .args(["-saveSettingsFile", &settings.to_string_lossy()])
        .args(["-saveSettingsOnExit", "false"])
        .args(["-fcp", LOCUST, "-fd", &dir.to_string_lossy()])
        .args(["-scp", &g.second_cmd, "-sd", &dir.to_string_lossy()])
        .args(["-variant", g.variant, "-matchMode", "true"])
        .args(["-matchGames", &games.to_string()])
        .args(["-tc", tc, "-inc", inc, "-mps", "0"])
        .args(["-adjudicateDrawMoves", &cap.to_string()])
        // XBoard cannot describe Tenjiku's range jumps and burns: it relays those moves
        // unchecked (HaChu's Tenjiku needs the same).
        .args(["-testLegality", legality, "-testClaims", legality])
        .args(["-xponder", "-noGUI", "-popupExitMessage", "false"])
        .args(["-saveGameFile", &pgn.to_string_lossy()])
        .args(["-debug", "-nameOfDebugFile", &debug.to_string_lossy()])
        .current_dir(dir)
        .output()
        .unwrap_or_else(|e| panic!("cannot run xvfb-run: {e}"));
    let what = format!("XBoard {} Locust vs {}", g.variant, g.second);
    let log = std::fs::read_to_string(&debug).unwrap_or_default();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!log.is_empty(), "{what}: no debug log\n{stderr}");
    check_xboard_log(&what, &log, g.second == "Locust");
    let text = std::fs::read_to_string(&pgn).unwrap_or_default();
    // XBoard writes the start position it set up from Locust's `setup` line (engine-defined
    // variants): read through Locust's piece table it must be Locust's start array.
    let start = variants::builtins()
        .unwrap()
        .into_iter()
        .find(|v| v.name == g.variant)
        .map(|v| v.start_fen)
        .unwrap();
    for fen in text.lines().filter_map(|l| l.strip_prefix("[FEN \"")) {
        let board = |f: &str| f.split([' ', '[']).next().unwrap_or("").to_string();
        assert_eq!(board(fen), board(&start), "{what}: XBoard's start position");
    }
    let results: Vec<&str> = text.lines().filter(|l| l.starts_with("[Result ")).collect();
    assert_eq!(
        results.len(),
        games as usize,
        "{what}: games in the PGN\n{text}\n{stderr}"
    );
    for r in &results {
        assert!(
            ["\"1-0\"", "\"0-1\"", "\"1/2-1/2\""]
                .iter()
                .any(|x| r.contains(x)),
            "{what}: {r}\n{text}"
        );
    }
    // The last comment of each game's closing line: XBoard's reason for the result.
    let end: Vec<&str> = text
        .lines()
        .filter(|l| {
            ["} 1-0", "} 0-1", "} 1/2-1/2"]
                .iter()
                .any(|r| l.ends_with(r))
        })
        .filter_map(|l| l.rfind('{').map(|i| &l[i..]))
        .collect();
    assert_eq!(end.len(), games as usize, "{what}: closing lines\n{text}");
    for e in &end {
        let low = e.to_lowercase();
        for bad in [
            "forfeit", "illegal", "error", "exit", "crash", "on time", "false",
        ] {
            assert!(!low.contains(bad), "{what}: game ended {e}\n{text}");
        }
    }
    eprintln!("{what}: {}", end.join(" | "));
}

/// What XBoard's debug log must not show: an illegal-move forfeit or reply, an error reply or
/// `tellusererror` from Locust (the first engine, and the second when it is Locust too), a
/// broken pipe or a crashed engine.
fn check_xboard_log(what: &str, log: &str, second_is_locust: bool) {
    for line in log.lines() {
        let low = line.to_lowercase();
        for bad in [
            "forfeit",
            "illegal move",
            "error writing",
            "exited unexpectedly",
            "false claim",
        ] {
            assert!(!low.contains(bad), "{what}: {line}");
        }
        let from_locust =
            line.contains("<first :") || second_is_locust && line.contains("<second:");
        if from_locust {
            for bad in ["error", "illegal", "tellusererror"] {
                assert!(!low.contains(bad), "{what}: Locust said: {line}");
            }
        }
    }
}

/// The suite's budget: one game each, 3s+0.05s, adjudicated a draw after 16 moves.
/// Embassy is engine-defined: XBoard does not know it, Locust describes it with `setup` and
/// `piece` and XBoard checks every move against that description.
#[test]
fn xboard_plays_fairymax_maxqi_and_itself() {
    xboard_games(
        "xboard_plays_fairymax_maxqi_and_itself",
        1,
        "0:03",
        "0.05",
        16,
        &[
            ("capablanca", "Fairy-Max"),
            ("xiangqi", "MaxQi"),
            ("embassy", "Locust"),
            ("minishogi", "Locust"),
        ],
    );
}

/// Two games each (both colours), 10s+0.1s, adjudicated after 60 moves (about 5 minutes).
#[test]
#[ignore = "about 5 minutes; the suite plays xboard_plays_fairymax_maxqi_and_itself"]
fn xboard_plays_fairymax_maxqi_and_itself_full() {
    xboard_games(
        "xboard_plays_fairymax_maxqi_and_itself_full",
        2,
        "0:10",
        "0.1",
        60,
        &[
            ("capablanca", "Fairy-Max"),
            ("shatranj", "Fairy-Max"),
            ("xiangqi", "MaxQi"),
            ("embassy", "Locust"),
            ("hekatomb", "Locust"),
        ],
    );
}

// ---------------------------------------------------------------------------------------------
// engines.ini and tools/ini-match.py

/// True when python3 runs (the match scripts need it); says plainly when the test skips.
fn python3_present(test: &str) -> bool {
    let probe = Command::new("python3").arg("--version").output();
    let present = probe.is_ok_and(|o| o.status.success());
    if !present {
        missing(peers::PYTHON3, test, "python3 is not installed");
    }
    present
}

/// Every entry of engines.ini resolves through tools/ini-match.py into a command that starts
/// this checkout's Locust (no `/path/to/locust` left) or an absolute peer path, for both tools.
#[test]
fn engines_ini_entries_resolve_for_both_tools() {
    if !python3_present("engines_ini_entries_resolve_for_both_tools") {
        return;
    }
    let script = format!("{ROOT}/tools/ini-match.py");
    let dry = |args: &[&str]| {
        let out = Command::new("python3")
            .arg(&script)
            .arg("--dry-run")
            .args(args)
            .env("CUTECHESS", "/bin/true")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let ours = format!("{ROOT}/target/release/locust");
    for (tool, first, peers, variant) in [
        (
            "xboard",
            "Locust",
            &[
                "Fairy-Max",
                "MaxQi",
                "HaChu",
                "Fairy-Stockfish",
                "Locust (chu)",
            ][..],
            "capablanca",
        ),
        (
            "cutechess",
            "locust",
            &["locust-xb", "fairymax", "fsf", "fsf-latest"][..],
            "shatranj",
        ),
    ] {
        for peer in peers {
            let (ok, text) = dry(&[tool, first, peer, variant, "2"]);
            assert!(ok, "{tool} {first} {peer}: {text}");
            assert!(
                text.contains(&ours) && !text.contains("/path/to"),
                "{tool} {first} {peer}: {text}"
            );
            assert!(text.contains(variant), "{text}");
            if tool == "xboard" {
                // The second engine's options are XBoard's second-engine ones.
                assert!(
                    text.contains(" -scp ") && !text.contains(" -variant chu"),
                    "{text}"
                );
            }
        }
    }
    let (ok, text) = dry(&["cutechess", "locust", "nosuch", "chess"]);
    assert!(!ok && text.contains("has no entry 'nosuch'"), "{text}");
}

/// With OPENINGS, an XBoard match plays the file's lines from OPENINGS_FROM on, each twice
/// with colours reversed, starting again after the last; a line past the file's end is refused.
#[test]
fn ini_match_plays_a_file_of_openings() {
    if !python3_present("ini_match_plays_a_file_of_openings") {
        return;
    }
    let out_dir = std::env::temp_dir().join(format!("locust-openings-{}", std::process::id()));
    let openings = format!("{ROOT}/tests/data/openings/chu-locust.pgn");
    let lines = std::fs::read_to_string(&openings)
        .unwrap()
        .matches("[Event ")
        .count();
    let dry = |from: usize| {
        let out = Command::new("python3")
            .arg(format!("{ROOT}/tools/ini-match.py"))
            .args([
                "--dry-run",
                "xboard",
                "Locust (chu vs HaChu)",
                "HaChu",
                "chu",
                "30",
            ])
            .env("OUT", &out_dir)
            .env("OPENINGS", &openings)
            .env("OPENINGS_FROM", from.to_string())
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string()
                + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (ok, text) = dry(16);
    assert!(ok, "{text}");
    let rewind = format!("-loadGameIndex -2 -rewindIndex {}", lines - 15);
    assert!(
        text.contains("-loadGameFile") && text.contains(&rewind),
        "{text}"
    );
    let file = std::fs::read_dir(&out_dir)
        .unwrap()
        .filter_map(Result::ok)
        .find(|e| e.file_name().to_string_lossy().ends_with("-openings.pgn"))
        .map(|e| std::fs::read_to_string(e.path()).unwrap())
        .unwrap_or_default();
    assert!(file.starts_with("[Event \"Locust opening 16\"]"), "{file}");
    assert_eq!(file.matches("[Event ").count(), lines - 15);
    let (ok, text) = dry(lines + 1);
    assert!(!ok && text.contains("none numbered"), "{text}");
    let _ = std::fs::remove_dir_all(&out_dir);
}
