//! UCI conformance in chess, checked by an independent parser: every line Locust prints in a
//! UCI session (id, option, uciok, readyok, info, bestmove) is parsed with the `vampirc-uci`
//! crate, which only knows 8x8 chess, and must come back as the expected message with the
//! same values (depth, score, multipv, pv, best move and ponder move).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use vampirc_uci::{parse_one, UciInfoAttribute, UciMessage, UciOptionConfig};

/// Runs a UCI session and returns every line Locust printed, in order.
fn session(commands: &[&str], done_after: usize) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_locust"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.unwrap()).is_err() {
                break;
            }
        }
    });
    let mut lines = Vec::new();
    let mut waits = 0;
    for cmd in commands {
        writeln!(stdin, "{cmd}").unwrap();
        stdin.flush().unwrap();
        // Wait for the reply that ends each step before the next command.
        let until = match *cmd {
            "uci" => Some("uciok"),
            "isready" => Some("readyok"),
            c if c.starts_with("go ") => Some("bestmove"),
            _ => None,
        };
        if let Some(end) = until {
            waits += 1;
            loop {
                let line = rx
                    .recv_timeout(Duration::from_secs(60))
                    .unwrap_or_else(|_| panic!("no `{end}` after `{cmd}`; have {lines:#?}"));
                let stop = line.starts_with(end);
                lines.push(line);
                if stop {
                    break;
                }
            }
        }
    }
    assert_eq!(waits, done_after);
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    lines.extend(rx.try_iter());
    lines
}

/// The word after `key` in a UCI line.
fn after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let mut words = line.split_whitespace();
    words.by_ref().find(|w| *w == key)?;
    words.next()
}

fn option_name(o: &UciOptionConfig) -> &str {
    match o {
        UciOptionConfig::Check { name, .. }
        | UciOptionConfig::Spin { name, .. }
        | UciOptionConfig::Combo { name, .. }
        | UciOptionConfig::Button { name }
        | UciOptionConfig::String { name, .. } => name,
    }
}

/// Checks one `info` line against the parsed attributes; returns (multipv, first pv move).
fn check_info(line: &str, attrs: &[UciInfoAttribute]) -> (Option<u16>, Option<String>) {
    let mut multipv = None;
    let mut first = None;
    for a in attrs {
        match a {
            UciInfoAttribute::Depth(d) => {
                assert_eq!(Some(d.to_string().as_str()), after(line, "depth"), "{line}")
            }
            UciInfoAttribute::SelDepth(d) => {
                assert_eq!(
                    Some(d.to_string().as_str()),
                    after(line, "seldepth"),
                    "{line}"
                )
            }
            UciInfoAttribute::Nodes(n) => {
                assert_eq!(Some(n.to_string().as_str()), after(line, "nodes"), "{line}")
            }
            UciInfoAttribute::MultiPv(m) => {
                assert_eq!(
                    Some(m.to_string().as_str()),
                    after(line, "multipv"),
                    "{line}"
                );
                multipv = Some(*m);
            }
            UciInfoAttribute::Score { cp, mate, .. } => {
                if let Some(cp) = cp {
                    assert_eq!(Some(cp.to_string().as_str()), after(line, "cp"), "{line}");
                }
                if let Some(m) = mate {
                    assert_eq!(Some(m.to_string().as_str()), after(line, "mate"), "{line}");
                }
                assert!(cp.is_some() != mate.is_some(), "{line}");
            }
            UciInfoAttribute::Pv(moves) => {
                let ours: Vec<&str> = line
                    .split_once(" pv ")
                    .map(|(_, pv)| pv.split_whitespace().collect())
                    .unwrap_or_default();
                let theirs: Vec<String> = moves.iter().map(ToString::to_string).collect();
                assert_eq!(ours, theirs, "{line}");
                first = theirs.first().cloned();
            }
            UciInfoAttribute::Any(k, v) => panic!("{line}: unparsed field {k} {v}"),
            _ => {}
        }
    }
    (multipv, first)
}

#[test]
fn every_uci_line_parses_with_vampirc_uci() {
    let lines = session(
        &[
            "uci",
            "setoption name EGT value false",
            "setoption name MultiPV value 3",
            "isready",
            "ucinewgame",
            "position startpos moves e2e4 e7e5 g1f3",
            "go depth 6",
            "setoption name MultiPV value 1",
            // Qxf7 mates (the position python-chess analyses too).
            "position fen r1bqkbnr/pppp1ppp/2n5/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 2 3",
            "go movetime 300",
            "isready",
        ],
        5,
    );
    let (mut ids, mut options, mut infos, mut pv_lines) = (0, 0, 0, 0);
    let mut bestmoves = Vec::new();
    let mut last_multipv = Vec::new();
    let mut mate_seen = false;
    for (i, line) in lines.iter().enumerate() {
        let msg = parse_one(line);
        if i == 0 && !line.starts_with("id ") {
            // The banner before `uci`: not a UCI message, and GUIs ignore unknown lines.
            assert!(matches!(msg, UciMessage::Unknown(..)), "{line}: {msg:?}");
            continue;
        }
        match msg {
            UciMessage::Id { name, author } => {
                ids += 1;
                let value = line.split_once(' ').unwrap().1;
                let value = value.split_once(' ').unwrap().1;
                assert_eq!(name.or(author).as_deref(), Some(value), "{line}");
            }
            UciMessage::Option(o) => {
                options += 1;
                let name = after(line, "name").unwrap();
                assert!(option_name(&o).starts_with(name), "{line}: {o:?}");
            }
            UciMessage::UciOk | UciMessage::ReadyOk => {}
            UciMessage::Info(attrs) => {
                infos += 1;
                let (multipv, first) = check_info(line, &attrs);
                if let Some(m) = first {
                    pv_lines += 1;
                    if multipv == Some(1) {
                        last_multipv.clear();
                    }
                    last_multipv.push(m);
                }
                mate_seen |= line.contains(" score mate 1 ");
            }
            UciMessage::BestMove { best_move, ponder } => {
                assert_eq!(
                    Some(best_move.to_string().as_str()),
                    after(line, "bestmove")
                );
                assert_eq!(
                    ponder.map(|p| p.to_string()).as_deref(),
                    after(line, "ponder"),
                    "{line}"
                );
                bestmoves.push(best_move.to_string());
            }
            other => panic!("{line}: parsed as {other:?}"),
        }
    }
    assert_eq!(ids, 2, "{lines:#?}");
    assert!(options >= 10, "{lines:#?}");
    assert!(infos > 0 && pv_lines > 0, "{lines:#?}");
    assert_eq!(bestmoves.len(), 2, "{lines:#?}");
    assert_eq!(bestmoves[1], "f3f7", "{lines:#?}");
    assert!(mate_seen, "no `score mate 1` for Qxf7#: {lines:#?}");
}

#[test]
fn multipv_lines_parse_with_distinct_first_moves() {
    let lines = session(
        &[
            "uci",
            "setoption name EGT value false",
            "setoption name MultiPV value 3",
            "position startpos",
            "go depth 5",
        ],
        2,
    );
    // The last complete depth: its three lines, multipv 1, 2, 3, with three different moves.
    let depth5: Vec<(u16, String)> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 5 "))
        .filter_map(|l| match parse_one(l) {
            UciMessage::Info(attrs) => {
                let (m, first) = check_info(l, &attrs);
                Some((m?, first?))
            }
            other => panic!("{l}: {other:?}"),
        })
        .collect();
    let numbers: Vec<u16> = depth5.iter().map(|(m, _)| *m).collect();
    assert_eq!(numbers, [1, 2, 3], "{lines:#?}");
    let mut firsts: Vec<&String> = depth5.iter().map(|(_, f)| f).collect();
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{lines:#?}");
    let best = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("bestmove"))
        .unwrap();
    match parse_one(best) {
        UciMessage::BestMove { best_move, .. } => assert_eq!(best_move.to_string(), depth5[0].1),
        other => panic!("{best}: {other:?}"),
    }
}
