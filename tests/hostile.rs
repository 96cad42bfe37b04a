//! A hostile GUI: every numeric slot of every command of the four protocols filled with edge
//! values (NaN, infinities, negatives, 0, 2^64, 1e308, empty, garbage, huge digit runs), sent
//! to the real binary over pipes. The engine must answer the next `isready`/`ping`, never
//! panic, and exit cleanly on `quit`. Below, one test per crash the sweep found, each failing
//! without its fix, and the refused-position and bounded-file rules (issue 45, items 1-4).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::RngSeed;

/// How long an answer may take before the engine counts as hung: no speed is measured, a
/// healthy engine answers `isready` within milliseconds even while it searches.
const HANG: Duration = Duration::from_secs(60);

/// The values every numeric slot is tried with.
const EDGE: &[&str] = &[
    "nan",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "-1",
    "-0",
    "0",
    "1",
    "0.5",
    "1e-9",
    "1:30",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775808",
    "4294967296",
    "1e308",
    "-1e308",
    "",
    "junk",
    "99999999999999999999999999999999999999",
    "+",
    ":",
    "1e",
];

/// A session with the engine binary: its input, and its output lines on a channel.
struct Session {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    seen: Vec<String>,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_locust"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Sends one line (a closed pipe is reported by the next wait).
    fn send(&mut self, line: &str) {
        let _ = writeln!(self.stdin, "{line}");
        let _ = self.stdin.flush();
    }

    /// Reads lines until one starts with `want`; the lines read are kept in `seen`.
    fn wait_for(&mut self, want: &str, after: &str) -> Result<(), String> {
        loop {
            match self.lines.recv_timeout(HANG) {
                Ok(line) => {
                    let done = line.starts_with(want);
                    self.seen.push(line);
                    if done {
                        return Ok(());
                    }
                }
                Err(e) => {
                    let _ = self.child.kill();
                    let mut err = String::new();
                    if let Some(mut s) = self.child.stderr.take() {
                        let _ = std::io::Read::read_to_string(&mut s, &mut err);
                    }
                    let tail = &self.seen[self.seen.len().saturating_sub(8)..];
                    return Err(format!(
                        "no `{want}` after `{after}` ({e}); last lines {tail:#?}; stderr:\n{err}"
                    ));
                }
            }
        }
    }

    /// `quit`, and the exit status must be success (a panic exits with 101) within [`HANG`].
    fn quit(mut self) -> Result<(), String> {
        self.send("quit");
        let asked = std::time::Instant::now();
        let status = loop {
            if let Some(status) = self.child.try_wait().map_err(|e| e.to_string())? {
                break status;
            }
            if asked.elapsed() > HANG {
                let _ = self.child.kill();
                let tail = &self.seen[self.seen.len().saturating_sub(8)..];
                return Err(format!("no exit after quit; last lines {tail:#?}"));
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        if status.success() {
            Ok(())
        } else {
            let mut err = String::new();
            if let Some(mut s) = self.child.stderr.take() {
                let _ = std::io::Read::read_to_string(&mut s, &mut err);
            }
            Err(format!("engine exited with {status}; stderr:\n{err}"))
        }
    }
}

/// One protocol: its greeting, the line that asks for an answer and that answer's start, and
/// its commands with numeric slots (`{}`), a command of several lines written with `\n`.
struct Dialect {
    name: &'static str,
    hello: &'static [(&'static str, Option<&'static str>)],
    ping: &'static str,
    pong: &'static str,
    commands: &'static [&'static str],
}

/// Slots whose value sizes memory or threads: given only values that cannot ask for more
/// than a few megabytes or threads, so the sweep does not take a shared machine's memory (the
/// caps themselves are the options' advertised maxima).
const RESOURCE_SLOTS: &[&str] = &[
    "Hash",
    "USI_Hash",
    "Threads",
    "EGT Memory",
    "memory",
    "cores",
];

const DIALECTS: &[Dialect] = &[
    Dialect {
        name: "uci",
        hello: &[("uci", Some("uciok"))],
        ping: "isready",
        pong: "readyok",
        commands: &[
            "setoption name Hash value {}",
            "setoption name Threads value {}",
            "setoption name MultiPV value {}",
            "setoption name Move Overhead value {}",
            "setoption name EGT Men value {}",
            "setoption name EGT Memory value {}",
            "position startpos\ngo wtime {} btime {} winc {} binc {} movestogo {}",
            "position startpos\ngo depth {}",
            "position startpos\ngo nodes {}",
            "position startpos\ngo movetime {}",
            "position startpos\ngo perft {}",
            "position startpos\ngo ponder wtime {} btime {}\nponderhit",
            "position fen 4k3/8/8/8/8/8/8/4K3 w - - {} {}\ngo depth 1",
            "position fen 4k3/8/8/8/{}/8/8/4K3 w - - 0 1\ngo depth 1",
            "position fen 4k3/8/8/8/K{}k/8/8/8 w - - 0 1\ngo depth 1",
            "position startpos moves e2e{} e{}e5\ngo depth 1",
        ],
    },
    Dialect {
        name: "xboard",
        hello: &[("xboard", None), ("protover 2", Some("feature done=1"))],
        ping: "ping 7",
        pong: "pong 7",
        commands: &[
            "new\nlevel {} {} {}\ngo",
            "new\nlevel 40 {} 0\ntime {}\notim {}\ngo",
            "new\nst {}\ngo",
            "new\nsd {}\ngo",
            "time {}",
            "otim {}",
            "memory {}",
            "cores {}",
            "nps {}",
            "perft {}",
            "option EGT Men={}",
            "option EGT Memory={}",
            "force\nsetboard 4k3/8/8/8/8/8/8/4K3 w - - {} {}\ngo",
            "force\nsetboard 4k3/8/8/8/{}/8/8/4K3 w - - 0 1\ngo",
            "new\nforce\nusermove e2e{}",
            "option Ranks from 0=1\nnew\nforce\nusermove a{}a3\noption Ranks from 0=0",
        ],
    },
    Dialect {
        name: "usi",
        hello: &[("usi", Some("usiok"))],
        ping: "isready",
        pong: "readyok",
        commands: &[
            "setoption name USI_Hash value {}",
            "position startpos\ngo btime {} wtime {} byoyomi {}",
            "position startpos\ngo btime {} wtime {} binc {} winc {}",
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b {}P {}\ngo depth 1",
            "position startpos\ngo depth {}",
        ],
    },
    Dialect {
        name: "ucci",
        hello: &[("ucci", Some("ucciok"))],
        ping: "isready",
        pong: "readyok",
        commands: &[
            "position startpos\ngo time {} increment {} opptime {} oppincrement {}",
            "setoption usemillisec true\nposition startpos\ngo time {} increment {} movestogo {}",
            "setoption Hash {}",
            "position startpos\ngo depth {}",
        ],
    },
];

/// A command with every slot filled in turn from `values` (cycling), as lines.
fn fill(template: &str, values: &[String]) -> Vec<String> {
    let mut k = 0;
    template
        .split('\n')
        .map(|line| {
            let parts: Vec<&str> = line.split("{}").collect();
            let mut out = String::from(parts[0]);
            for part in &parts[1..] {
                let resource = RESOURCE_SLOTS.iter().any(|s| line.contains(s));
                let v = &values[k % values.len()];
                k += 1;
                out.push_str(if resource && costly(v) { "8" } else { v });
                out.push_str(part);
            }
            out
        })
        .collect()
}

/// Would this value, as a memory or thread count, ask for more than a few units?
fn costly(v: &str) -> bool {
    v.trim_start_matches('+')
        .parse::<u64>()
        .is_ok_and(|n| n > 8)
}

/// Runs `commands` (each a list of lines) in one session of `d`, asking for the answer after
/// each; the engine must answer every time and exit cleanly. The error names the first
/// command without an answer (or `commands.len()` when the exit failed).
fn survive(d: &Dialect, commands: &[Vec<String>]) -> Result<(), (usize, String)> {
    let mut s = Session::start();
    for (line, answer) in d.hello {
        s.send(line);
        if let Some(a) = answer {
            s.wait_for(a, line).map_err(|e| (0, e))?;
        }
    }
    for (i, lines) in commands.iter().enumerate() {
        for line in lines {
            s.send(line);
        }
        s.send(d.ping);
        s.wait_for(d.pong, &format!("{}: {lines:?}", d.name))
            .map_err(|e| (i, e))?;
    }
    s.quit().map_err(|e| (commands.len(), e))
}

/// Every command of every protocol with every slot set to each edge value in turn; after a
/// failure the sweep goes on in a new engine, and every failure is reported at the end.
fn sweep(values: &[&str]) {
    let mut failures = Vec::new();
    for d in DIALECTS {
        let commands: Vec<Vec<String>> = d
            .commands
            .iter()
            .flat_map(|c| values.iter().map(move |v| fill(c, &[v.to_string()])))
            .collect();
        let mut from = 0;
        while from < commands.len() {
            match survive(d, &commands[from..]) {
                Ok(()) => break,
                Err((i, e)) => {
                    failures.push(format!("{}: {e}", d.name));
                    from += i + 1;
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn every_slot_takes_every_edge_value() {
    sweep(EDGE);
}

/// A slot's value: an edge value, or a random run of number-like characters.
fn slot_value() -> impl Strategy<Value = String> {
    prop_oneof![
        proptest::sample::select(EDGE).prop_map(str::to_string),
        "[-+0-9.e:]{0,24}",
        "[0-9]{15,40}",
    ]
}

/// A random session: a protocol, a few of its commands, random values in their slots.
fn session() -> impl Strategy<Value = (usize, Vec<(usize, Vec<String>)>)> {
    (0..DIALECTS.len()).prop_flat_map(|d| {
        let n = DIALECTS[d].commands.len();
        let step = (0..n, proptest::collection::vec(slot_value(), 1..6));
        (Just(d), proptest::collection::vec(step, 1..5))
    })
}

/// `cases` random sessions drawn from `seed` (a fixed seed in the suite, so that a failure
/// there reproduces; a fresh one in the long run, so that each run tries new sessions).
fn random_sessions(cases: u32, seed: RngSeed) {
    let config = ProptestConfig {
        cases,
        failure_persistence: None,
        rng_seed: seed,
        ..ProptestConfig::default()
    };
    proptest!(config, |((d, steps) in session())| {
        let d = &DIALECTS[d];
        let commands: Vec<Vec<String>> =
            steps.iter().map(|(c, v)| fill(d.commands[*c], v)).collect();
        if let Err((_, e)) = survive(d, &commands) {
            prop_assert!(false, "{}: {}", d.name, e);
        }
    });
}

/// The suite's fixed budget: a few dozen random sessions (each a fresh engine process).
#[test]
fn random_values_in_random_slots() {
    random_sessions(24, RngSeed::Fixed(45));
}

/// The long run: `cargo test --profile ci --test hostile -- --ignored` (1,000 sessions; a
/// few minutes on an idle two-core machine, several times that when it is shared).
#[test]
#[ignore]
fn random_values_in_random_slots_long() {
    random_sessions(1_000, RngSeed::Random);
}

/// Runs `lines` after the greeting of `d` and returns every line the engine printed up to the
/// answer to the final ping.
fn transcript(d: &Dialect, lines: &[&str]) -> Vec<String> {
    let mut s = Session::start();
    for (line, answer) in d.hello {
        s.send(line);
        if let Some(a) = answer {
            s.wait_for(a, line).unwrap();
        }
    }
    let first = s.seen.len();
    for line in lines {
        s.send(line);
    }
    s.send(d.ping);
    s.wait_for(d.pong, "the script").unwrap();
    let out = s.seen[first..].to_vec();
    s.quit().unwrap();
    out
}

fn dialect(name: &str) -> &'static Dialect {
    DIALECTS.iter().find(|d| d.name == name).unwrap()
}

/// `level 40 5 nan` panicked the engine ("cannot convert float seconds to Duration").
#[test]
fn xboard_level_with_nan_increment_is_refused() {
    let out = transcript(dialect("xboard"), &["level 40 5 nan", "level 40 5:xx 0"]);
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("Error (")).collect();
    assert_eq!(errors.len(), 2, "{out:#?}");
    assert!(errors[0].ends_with("level 40 5 nan"), "{out:#?}");
}

/// `st` with a non-number is reported, not taken as "no limit" in silence; a number past
/// `f64`'s range (`1e400`) is a number, capped like any large time.
#[test]
fn xboard_st_with_infinity_is_refused() {
    let out = transcript(dialect("xboard"), &["st inf", "st -1", "st 1e400"]);
    let errors: Vec<&String> = out.iter().filter(|l| l.starts_with("Error (")).collect();
    assert_eq!(errors.len(), 2, "{out:#?}");
    assert!(
        errors[0].ends_with("st inf") && errors[1].ends_with("st -1"),
        "{out:#?}"
    );
}

/// An empty-square run of 20 digits was added to the file count unchecked: it wrapped round
/// (or panicked with overflow checks), so `3Q18446744073709551612R7` (d, then 2^64 - 4
/// empty squares, then a) was read as the rank `R2Q4`.
#[test]
fn fen_digit_runs_cannot_wrap_the_rank() {
    let v = variants::builtin("chess").unwrap().unwrap();
    for row in [
        "3Q18446744073709551612R7",
        "Q18446744073709551615R7",
        "Q99999999999999999999R6",
    ] {
        let fen = format!("4k3/8/8/8/{row}/8/8/4K3 w - - 0 1");
        assert!(
            locust::game::Game::from_fen(v.clone(), &fen).is_err(),
            "{fen}"
        );
    }
}

/// A refused position is not replaced by the last good one: `go` answers with the dialect's
/// "no move", and the next good position recovers.
#[test]
fn refused_position_gets_no_move_in_every_uci_dialect() {
    let cases = [
        (
            "uci",
            "position fen 4k3/8/8/8/8/8/8/4K3 w - - x 1",
            "bestmove 0000",
        ),
        ("uci", "position startpos moves e2e5", "bestmove 0000"),
        ("usi", "position sfen 9/9/9 b - 1", "bestmove resign"),
        ("ucci", "position fen 9/9/9 r - - 0 1", "nobestmove"),
    ];
    for (name, bad, none) in cases {
        let d = dialect(name);
        let out = transcript(d, &["position startpos", bad, "go depth 1"]);
        let answer = out.iter().position(|l| l == none);
        assert!(answer.is_some(), "{name}: no `{none}` in {out:#?}");
        assert!(
            !out.iter().any(|l| l.starts_with("bestmove") && l != none),
            "{name}: searched another position: {out:#?}"
        );
        let mut s = Session::start();
        for (line, answer) in d.hello {
            s.send(line);
            if let Some(a) = answer {
                s.wait_for(a, line).unwrap();
            }
        }
        for line in [bad, "position startpos", "go depth 1"] {
            s.send(line);
        }
        s.wait_for("bestmove", "go after a good position").unwrap();
        let last = s.seen.last().unwrap().clone();
        assert_ne!(last, none, "{name}: a good position did not recover");
        s.quit().unwrap();
    }
}

/// After a refused `setboard`, neither `go` nor a move is played in the old game; `new`
/// recovers.
#[test]
fn refused_setboard_plays_nothing_until_a_position_is_accepted() {
    let d = dialect("xboard");
    let out = transcript(
        d,
        &["new", "force", "setboard 4k3/8/8 w - - 0 1", "go", "e2e4"],
    );
    assert!(
        out.iter().any(|l| l == "Error (no position): go"),
        "{out:#?}"
    );
    assert!(
        out.iter().any(|l| l == "Error (no position): e2e4"),
        "{out:#?}"
    );
    assert!(!out.iter().any(|l| l.starts_with("move ")), "{out:#?}");
    // After `new` the game is the start position again: the engine's move must come.
    let mut s = Session::start();
    for (line, answer) in d.hello {
        s.send(line);
        if let Some(a) = answer {
            s.wait_for(a, line).unwrap();
        }
    }
    for line in [
        "force",
        "setboard 4k3/8/8 w - - 0 1",
        "new",
        "force",
        "e2e4",
        "sd 1",
        "go",
    ] {
        s.send(line);
    }
    s.wait_for("move ", "go after new").unwrap();
    s.quit().unwrap();
}

/// Files are read with a bound: a device, a directory or a missing file is refused with a
/// reason, and the engine answers the next `isready` (it read `/dev/zero` forever).
#[test]
fn variant_files_are_refused_when_not_regular() {
    let out = transcript(
        dialect("uci"),
        &[
            "setoption name VariantPath value /dev/zero",
            "setoption name VariantPath value /",
            "setoption name VariantPath value /no/such/file.ini",
            "setoption name EGT Path value /dev/zero",
        ],
    );
    let errors: Vec<&String> = out
        .iter()
        .filter(|l| l.starts_with("info string"))
        .collect();
    assert_eq!(errors.len(), 4, "{out:#?}");
    assert!(errors[0].contains("not a regular file"), "{out:#?}");
    assert!(errors[1].contains("is a directory"), "{out:#?}");
    assert!(errors[3].contains("not a directory"), "{out:#?}");
    let xb = transcript(dialect("xboard"), &["option VariantPath=/dev/zero"]);
    assert!(
        xb.iter()
            .any(|l| l.starts_with("Error (variant file)") && l.contains("regular")),
        "{xb:#?}"
    );
}

/// `--variants /dev/zero` and `check-variants /dev/zero` end with an error instead of
/// reading forever.
#[test]
fn variants_argument_is_read_with_a_bound() {
    for args in [
        &["--variants", "/dev/zero", "variants"][..],
        &["check-variants", "/dev/zero"][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_locust"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!out.status.success(), "{args:?}");
        let text = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert!(text.contains("not a regular file"), "{args:?}: {text}");
    }
}

/// A variant file with one bad section: the bad one is reported in the protocol's own form
/// and skipped, the good one loads and can be played (UCI and XBoard alike).
#[test]
fn a_variant_file_loads_its_good_sections_and_reports_the_bad() {
    let file = std::env::temp_dir().join(format!("locust-hostile-{}.ini", std::process::id()));
    std::fs::write(
        &file,
        "[goodchess:chess]\n\n[badchess:chess]\nmaxRank = nine\n",
    )
    .unwrap();
    let path = file.to_string_lossy();
    let uci = transcript(
        dialect("uci"),
        &[
            &format!("setoption name VariantPath value {path}"),
            "setoption name UCI_Variant value goodchess",
            "position startpos moves e2e4",
        ],
    );
    assert!(
        uci.iter()
            .any(|l| l.starts_with("info string") && l.contains("maxRank")),
        "{uci:#?}"
    );
    // The good section is a variant now: chosen and played without a word.
    assert_eq!(uci.len(), 2, "{uci:#?}");
    let xb = transcript(
        dialect("xboard"),
        &[&format!("option VariantPath={path}"), "variant goodchess"],
    );
    assert!(
        xb.iter()
            .any(|l| l.starts_with("Error (variant file)") && l.contains("maxRank")),
        "{xb:#?}"
    );
    assert!(
        !xb.iter()
            .any(|l| l.contains("goodchess") && l.starts_with("Error")),
        "{xb:#?}"
    );
    let _ = std::fs::remove_file(&file);
}
