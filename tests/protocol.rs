//! Protocol sessions: scripted transcripts (tests/data/transcripts) with the exact replies, and
//! random or mutated lines that must never crash or hang the engine.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use locust::engine::Engine;

/// Output shared between the engine thread and the test.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Sink {
    fn lines(&self) -> Vec<String> {
        let text = String::from_utf8_lossy(&self.0.lock().unwrap()).to_string();
        text.lines().map(str::to_string).collect()
    }
}

/// Lines the transcripts do not pin down: thinking output (UCI `info`, XBoard's numeric lines
/// and `#` comments), the banner, and the table builder's reports (`info string table ...`),
/// which come from its own thread whenever a build starts or ends.
fn significant(line: &str) -> bool {
    !(line.starts_with("info ") && !line.starts_with("info string")
        || line.starts_with("info string table ")
        || line.starts_with("# ")
        || line.starts_with("Locust ")
        || line.starts_with(|c: char| {
            c.is_ascii_digit() && !line.starts_with("1-0") && !line.starts_with("1/2")
        }))
}

fn start_engine() -> (Sender<String>, Sink, std::thread::JoinHandle<()>) {
    let all = variants::builtins().unwrap();
    let sink = Sink::default();
    let out = sink.clone();
    let (tx, rx) = crossbeam_channel::unbounded();
    let handle = std::thread::spawn(move || {
        let mut engine = Engine::new(all, out).unwrap();
        engine.run(rx);
    });
    (tx, sink, handle)
}

/// Waits until the engine has written at least `n` significant lines.
fn wait_for(sink: &Sink, n: usize, context: &str) -> Vec<String> {
    let t = Instant::now();
    loop {
        let lines: Vec<String> = sink
            .lines()
            .into_iter()
            .filter(|l| significant(l))
            .collect();
        if lines.len() >= n {
            return lines;
        }
        assert!(
            t.elapsed() < Duration::from_secs(20),
            "timed out waiting for line {n} ({context}); have {lines:#?}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn run_transcript(name: &str) {
    let path = format!(
        "{}/tests/data/transcripts/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let script = std::fs::read_to_string(&path).unwrap();
    let (tx, sink, handle) = start_engine();
    let mut expected = 0;
    let mut checked = 0;
    for (no, line) in script.lines().enumerate() {
        let context = format!("{name}:{}: {line}", no + 1);
        if let Some(cmd) = line.strip_prefix("> ") {
            tx.send(cmd.to_string()).unwrap();
        } else if let Some(want) = line.strip_prefix("<~ ") {
            expected += 1;
            let got = wait_for(&sink, expected, &context);
            assert!(
                got[expected - 1].starts_with(want),
                "{context}\n got: {}",
                got[expected - 1]
            );
            checked += 1;
        } else if let Some(want) = line.strip_prefix("< ") {
            expected += 1;
            let got = wait_for(&sink, expected, &context);
            assert_eq!(got[expected - 1], want, "{context}");
            checked += 1;
        }
    }
    handle.join().unwrap();
    let extra: Vec<String> = sink
        .lines()
        .into_iter()
        .filter(|l| significant(l))
        .skip(expected)
        .collect();
    assert!(
        extra.is_empty(),
        "{name}: unexpected output at the end: {extra:#?}"
    );
    assert!(
        checked > 10,
        "{name}: the transcript checked only {checked} lines"
    );
}

#[test]
fn uci_transcript() {
    run_transcript("uci.txt");
}

#[test]
fn usi_transcript() {
    run_transcript("usi.txt");
}

#[test]
fn ucci_transcript() {
    run_transcript("ucci.txt");
}

#[test]
fn xboard_transcript() {
    run_transcript("xboard.txt");
}

#[test]
fn xboard_highlight_transcript() {
    run_transcript("xboard-highlight.txt");
}

/// The variant list a protocol's hello gives, as the names in it (`(prefix, separator)`
/// says where the list starts and how names are split).
fn offered(hello: &[&str], list_line: &str, prefix: &str, sep: &str) -> Vec<String> {
    let (tx, sink, handle) = start_engine();
    hello.iter().for_each(|c| tx.send(c.to_string()).unwrap());
    tx.send("quit".to_string()).unwrap();
    handle.join().unwrap();
    let lines = sink.lines();
    let line = (lines.iter().find(|l| l.starts_with(list_line)))
        .unwrap_or_else(|| panic!("no `{list_line}` line in {lines:#?}"));
    let list = &line[line.find(prefix).unwrap() + prefix.len()..];
    list.trim_end_matches('"')
        .split(sep)
        .map(str::to_string)
        .collect()
}

/// Fairy-Stockfish's names are offered: built-ins under FSF's names, and the aliases that
/// are FSF names (`normal`, `mini`), each once; other aliases (`chushogi`) are not.
#[test]
fn fsf_names_are_offered_under_uci_and_xboard() {
    let uci = offered(&["uci"], "option name UCI_Variant", " var ", " var ");
    let xb = offered(
        &["xboard", "protover 2"],
        "feature variants=",
        "variants=\"",
        ",",
    );
    for (list, names) in [
        (&uci, ["chess", "normal"]),
        (&xb, ["normal", "fischerandom"]),
    ] {
        for name in names
            .iter()
            .chain(&["mini", "minishogi", "nocastle", "janggicasual"])
        {
            let n = list.iter().filter(|n| n == name).count();
            assert_eq!(n, 1, "{name} offered {n} times in {list:?}");
        }
        assert!(!list.iter().any(|n| n == "chushogi"), "{list:?}");
    }
    assert!(
        !xb.iter().any(|n| n == "chess"),
        "XBoard's name is normal: {xb:?}"
    );
}

/// Random and mutated protocol lines: no panic, no hang, and the engine still answers.
fn fuzz(protocol: &str, lines: usize, seed: u64) {
    let (tx, sink, handle) = start_engine();
    tx.send(protocol.to_string()).unwrap();
    let seeds = [
        "position startpos moves e2e4 e7e5",
        "go depth 2",
        "stop",
        "setoption name Hash value 1",
        "setoption name UCI_Variant value xiangqi",
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        "new",
        "variant shogi",
        "force",
        "usermove 7g7f",
        "setboard 8/8/8/8/8/8/8/K6k w - - 0 1",
        "go",
        "undo",
        "remove",
        "level 40 1 0",
        "time 100",
        "otim 100",
        "sd 2",
        "st 0.05",
        "analyze",
        "exit",
        "?",
        "memory 1",
        "cores 1",
        "option VariantPath=/nonexistent",
        "perft 1",
        "go perft 1",
        "ucinewgame",
        "variant tenjiku",
        "usermove e5e6,e6e7",
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 2P 1 moves 7g7f",
        "go btime 100 wtime 100 byoyomi 10",
        "gameover win",
        "setoption usemillisec true",
        "go time 1 increment 0 opptime 1",
        "hard",
        "easy",
        "hint",
    ];
    let mut rng = common::Rng(seed | 1);
    for _ in 0..lines {
        let base = seeds[rng.below(seeds.len())];
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..rng.below(4) {
            let i = rng.below(bytes.len().max(1));
            match rng.below(3) {
                0 if !bytes.is_empty() => {
                    bytes.remove(i.min(bytes.len() - 1));
                }
                1 => bytes.insert(i.min(bytes.len()), (rng.below(95) + 32) as u8),
                _ => bytes.truncate(i),
            }
        }
        let line = String::from_utf8_lossy(&bytes).to_string();
        if line.trim() == "quit" {
            continue;
        }
        tx.send(line).unwrap();
    }
    let (ping, answer) = if protocol == "xboard" {
        ("ping 4242", "pong 4242")
    } else {
        ("isready", "readyok")
    };
    tx.send("stop".to_string()).unwrap();
    tx.send("exit".to_string()).unwrap();
    tx.send(ping.to_string()).unwrap();
    let t = Instant::now();
    // Anywhere in the output: a search the fuzz started may go on printing after the answer,
    // and no fuzzed line can ask for this answer (no seed line pings).
    while !sink.lines().iter().any(|l| l == answer) {
        // A hang never answers; a busy machine may take minutes over 100,000 queued lines.
        if t.elapsed() > Duration::from_secs(60 + lines as u64 / 500) {
            let lines = sink.lines();
            let tail = &lines[lines.len().saturating_sub(30)..];
            panic!("{protocol}: no answer to {ping} after fuzzing; last lines:\n{tail:#?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    tx.send("quit".to_string()).unwrap();
    handle.join().expect("the engine thread panicked");
}

#[test]
fn fuzzed_lines_neither_crash_nor_hang() {
    fuzz("uci", 1_500, 1);
    fuzz("xboard", 1_500, 2);
    fuzz("usi", 1_500, 5);
    fuzz("ucci", 1_500, 6);
}

#[test]
#[ignore = "100,000 lines per protocol: several minutes; run by hand"]
fn fuzzed_lines_full_budget() {
    fuzz("xboard", 100_000, 4);
    fuzz("uci", 100_000, 3);
    fuzz("usi", 100_000, 7);
    fuzz("ucci", 100_000, 8);
}

/// One slot of an XBoard piece-to-char table as XBoard 4.9 reads it with the `'` and `!`
/// suffixes: `.` unused, a letter with its suffix, or `^X` (the promoted form of `X`, drawn
/// and written as `+X`).
#[derive(Clone, Debug, PartialEq)]
enum Slot {
    Unused,
    Letter(String),
    Promoted(String),
}

/// Splits one half of a `setup` table into slots, the last being the king's.
fn xboard_slots(half: &str) -> Vec<Slot> {
    let chars: Vec<char> = half.chars().collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        let promoted = chars[i] == '^';
        i += usize::from(promoted);
        let Some(&c) = chars.get(i) else { break };
        let mut letter = c.to_string();
        i += 1;
        if let Some(&s) = chars.get(i).filter(|s| **s == '\'' || **s == '!') {
            letter.push(s);
            i += 1;
        }
        out.push(match (promoted, c) {
            (false, '.') => Slot::Unused,
            (true, _) => Slot::Promoted(letter),
            _ => Slot::Letter(letter),
        });
    }
    out
}

/// The FEN men of a placement: a letter with its suffix, `+` kept in front.
fn fen_men(placement: &str) -> Vec<String> {
    let chars: Vec<char> = placement.chars().collect();
    let (mut out, mut i) = (Vec::new(), 0);
    while i < chars.len() {
        let plus = chars[i] == '+';
        i += usize::from(plus);
        let Some(&c) = chars.get(i) else { break };
        i += 1;
        if !c.is_ascii_alphabetic() {
            continue;
        }
        let mut man = if plus { format!("+{c}") } else { c.to_string() };
        if let Some(&s) = chars.get(i).filter(|s| **s == '\'' || **s == '!') {
            man.push(s);
            i += 1;
        }
        out.push(man);
    }
    out
}

/// XBoard 4.9 plays janggi only from a `setup` naming its own janggi table: told just
/// `variant janggi`, it set up a chess board and forfeited the first soldier step. Every
/// janggi-parent variant with janggi's men names that table with XBoard's letters (horse H,
/// elephant E), gives the men not confined to the palace their own moves (XBoard's soldier
/// cannot step sideways before the river), and reads XBoard's letters back in `setboard`.
#[test]
fn xboard_janggi_names_xboards_janggi_table() {
    for name in ["janggi", "janggicasual", "janggitraditional"] {
        let v = common::variant(name);
        let (tx, sink, handle) = start_engine();
        let start = "rhea1aehr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RHEA1AEHR w - - 0 1";
        for cmd in [
            "xboard",
            "protover 2",
            &format!("variant {name}"),
            &format!("setboard {start}"),
            "force",
            "e3e4",
            "ping 7",
            "quit",
        ] {
            tx.send(cmd.to_string()).unwrap();
        }
        handle.join().unwrap();
        let lines = sink.lines();
        let setup = lines
            .iter()
            .find_map(|l| l.strip_prefix("setup "))
            .unwrap_or_else(|| panic!("{name}: no setup in {lines:#?}"));
        assert!(
            setup.starts_with("(PH.R.AE..K.C.ph.r.ae..k.c.) 9x10+0_janggi "),
            "{name}: {setup}"
        );
        assert!(setup.ends_with(start), "{name}: {setup}");
        for (letter, sent) in [
            ("P", true),
            ("H", true),
            ("E", true),
            ("K", false),
            ("A", false),
        ] {
            assert_eq!(
                lines
                    .iter()
                    .any(|l| l.starts_with(&format!("piece {letter}& "))),
                sent,
                "{name}: piece {letter} in {lines:#?}"
            );
        }
        assert!(v.pieces.iter().any(|p| p.confined.is_some()), "{name}");
        assert!(
            !lines.iter().any(|l| l.starts_with("Error")
                || l.starts_with("Illegal")
                || l.contains("Illegal position")),
            "{name}: {lines:#?}"
        );
        assert!(lines.iter().any(|l| l == "pong 7"), "{name}: {lines:#?}");
    }
}

/// Issue 9: the `setup` tables of the shogi-style variants XBoard does not know (minishogi,
/// tenjiku) ended in `+`, which XBoard takes as the king. Decoded as XBoard 4.9 decodes them:
/// each half has an even total of at least 12 and at most 132 slots, its last slot is the
/// royal letter, every type appears once (a `+X` form as `^X` after its `X` is listed), every
/// man of the start FEN has a slot, the `piece` lines carry the suffixes, and the holdings
/// size counts exactly the unpromoted non-royal types of the start position, which come
/// first among the counted slots.
#[test]
fn xboard_setup_tables_decode_with_the_king_last() {
    for name in ["minishogi", "tenjiku", "embassy", "hekatomb"] {
        let v = common::variant(name);
        let (setup, lines) = xboard_setup_line(name);
        let (table, rest) = setup.split_once(") ").unwrap();
        let words: Vec<&str> = rest.split_whitespace().collect();
        let (size, placement) = (words[0], words[1]);
        // Both halves alike: White's in upper case, Black's in lower case.
        let slots = xboard_slots(table);
        assert!(slots.len() % 2 == 0, "{name}: odd table {table}");
        let (white, black) = slots.split_at(slots.len() / 2);
        let upper = |s: &Slot| match s {
            Slot::Letter(l) => Slot::Letter(l.to_ascii_uppercase()),
            Slot::Promoted(l) => Slot::Promoted(l.to_ascii_uppercase()),
            Slot::Unused => Slot::Unused,
        };
        assert_eq!(
            white.iter().map(upper).collect::<Vec<_>>(),
            black.iter().map(upper).collect::<Vec<_>>(),
            "{name}"
        );
        assert!(white.len() >= 6 && white.len() <= 66, "{name}: {table}");
        let royal: Vec<String> = v
            .pieces
            .iter()
            .filter(|p| p.royal && !p.plus_form)
            .map(|p| {
                format!(
                    "{}{}",
                    p.letter,
                    p.suffix.map(String::from).unwrap_or_default()
                )
            })
            .collect();
        assert_eq!(royal.len(), 1, "{name}");
        assert_eq!(
            white.last(),
            Some(&Slot::Letter(royal[0].clone())),
            "{name}: {table}"
        );
        let body = &white[..white.len() - 1];
        for p in &v.pieces {
            let letter = format!(
                "{}{}",
                p.letter,
                p.suffix.map(String::from).unwrap_or_default()
            );
            let want = if p.plus_form {
                Slot::Promoted(letter.clone())
            } else {
                Slot::Letter(letter.clone())
            };
            if p.royal && !p.plus_form {
                continue;
            }
            let n = body.iter().filter(|s| **s == want).count();
            assert_eq!(n, 1, "{name}: {want:?} {n} times in {table}");
            if p.plus_form {
                assert!(
                    body.contains(&Slot::Letter(letter)),
                    "{name}: {want:?} without base"
                );
            }
            let line = if p.plus_form {
                format!("piece +{}& ", want_text(&want))
            } else {
                format!("piece {}& ", want_text(&want))
            };
            // A zone-bound man is left to XBoard's parent variant: its Betza has no zones.
            assert_eq!(
                lines.iter().any(|l| l.starts_with(&line)),
                !p.zone_bound(&v.zones),
                "{name}: `{line}` sent for a man that is zone-bound: {}",
                p.zone_bound(&v.zones)
            );
        }
        let board = placement.split('[').next().unwrap();
        for man in fen_men(board) {
            let up = man.to_ascii_uppercase();
            let want = match up.strip_prefix('+') {
                Some(l) => Slot::Promoted(l.to_string()),
                None => Slot::Letter(up.clone()),
            };
            assert!(
                white.contains(&want),
                "{name}: start man {man} has no slot in {table}"
            );
        }
        let hand: usize = size.split(['+', '_']).nth(1).unwrap().parse().unwrap();
        if v.drops.enabled {
            let mut start: Vec<String> = fen_men(board)
                .into_iter()
                .map(|m| m.to_ascii_uppercase())
                .filter(|m| !m.starts_with('+') && !royal.contains(m))
                .collect();
            start.sort();
            start.dedup();
            let mut counted: Vec<String> = body
                .iter()
                .filter_map(|s| match s {
                    Slot::Letter(l) => Some(l.clone()),
                    _ => None,
                })
                .take(hand)
                .collect();
            counted.sort();
            assert_eq!(counted, start, "{name}: holdings {hand} of {table}");
        } else {
            assert_eq!(hand, 0, "{name}");
        }
    }
}

/// The `setup` line a fresh engine sends XBoard for `name`, from the table on (after
/// `setup (`), and every line sent.
fn xboard_setup_line(name: &str) -> (String, Vec<String>) {
    let (tx, sink, handle) = start_engine();
    for cmd in ["xboard", "protover 2", &format!("variant {name}"), "quit"] {
        tx.send(cmd.to_string()).unwrap();
    }
    handle.join().unwrap();
    let lines = sink.lines();
    let setup = lines
        .iter()
        .find_map(|l| l.strip_prefix("setup ("))
        .unwrap_or_else(|| panic!("{name}: no setup in {lines:#?}"))
        .to_string();
    (setup, lines)
}

/// The `setup` a fresh engine sends XBoard for `name`: its White half of the table decoded,
/// the holdings size, the parent variant, the start FEN and every line sent.
type XbSetup = (Vec<Slot>, usize, String, String, Vec<String>);
fn xboard_setup(name: &str) -> XbSetup {
    let (setup, lines) = xboard_setup_line(name);
    let (table, rest) = setup.split_once(") ").unwrap();
    let (size, fen) = rest.split_once(' ').unwrap();
    let (hand, parent) = size.split_once('+').unwrap().1.split_once('_').unwrap();
    let slots = xboard_slots(table);
    let white = slots[..slots.len() / 2].to_vec();
    let (parent, fen) = (parent.to_string(), fen.to_string());
    (white, hand.parse().unwrap(), parent, fen, lines)
}

/// XBoard 4.9.1 keeps in its holdings the first `hand` types of the table (counting every
/// used slot) and judges a drop by the slot its letter sits in, not by the engine's rules:
/// its pawn slot may not drop on the first or last rank (under `shogi`: not on the last, and
/// not beside a friend on its file, two on 7 ranks), its shogi knight slot not on the last
/// two ranks, its shogi queen slot (the lance) not on the last. Seen under XBoard against Fairy-Stockfish: flipello's disc in
/// the pawn slot forfeited for `P@f1`, shouse's hawk and elephant and placement's king left
/// out of the holdings (XBoard's FEN showed `[-]`) forfeited for `E@d3`.
#[test]
fn xboard_setup_holds_the_start_hands_and_frees_edge_drops() {
    let letter = |s: &Slot| match s {
        Slot::Letter(l) | Slot::Promoted(l) => Some(l.clone()),
        Slot::Unused => None,
    };
    for name in [
        "flipello",
        "flipello10",
        "flipersi",
        "ataxx",
        "torishogi",
        "shouse",
        "placement",
        "sittuyin",
        "loop",
        "makpong",
        "cambodian",
    ] {
        let (white, hand, parent, fen, lines) = xboard_setup(name);
        // Each type in a start hand is among the first `hand` used slots.
        let held: Vec<String> = (white.iter().filter_map(letter)).take(hand).collect();
        let hands = fen.split(['[', ']']).nth(1).unwrap_or("");
        for c in hands.chars().filter(|c| c.is_ascii_alphabetic()) {
            let up = c.to_ascii_uppercase().to_string();
            assert!(held.contains(&up), "{name}: {up} not in holdings {held:?}");
        }
        let at = |slot: usize| white.get(slot).and_then(letter);
        match name {
            // A disc or clone may be dropped on any rank.
            "flipello" | "flipello10" | "flipersi" | "ataxx" => {
                assert_ne!(at(0).as_deref(), Some("P"), "{name}: {white:?}");
            }
            // Only the swallow (two a file, never on the last rank) fits XBoard's shogi pawn;
            // pheasant, falcon and quails may be dropped on the last ranks.
            "torishogi" => {
                assert_eq!(parent, "shogi");
                assert!(matches!(at(0).as_deref(), None | Some("S")), "{white:?}");
                for slot in [1, 4] {
                    let l = at(slot);
                    assert!(
                        !matches!(l.as_deref(), Some("P" | "F" | "L" | "R")),
                        "{name}: {l:?} in slot {slot}: {white:?}"
                    );
                }
            }
            // Crazyhouse pawns: never on ranks 1 and 8, as XBoard's pawn.
            "loop" => assert_eq!(at(0).as_deref(), Some("P"), "{white:?}"),
            // XBoard's makruk table (met at its ferz slot, khon at 10), and its own pawn,
            // which promotes on the sixth rank (a `piece` pawn only on the last).
            // The king's and the met's first leaps, only while unmoved (XBoard's `i`).
            "cambodian" => {
                assert!(lines.iter().any(|l| l == "piece K& KismN"), "{lines:?}");
                assert!(lines.iter().any(|l| l == "piece M& FifmD"), "{lines:?}");
            }
            "makpong" => {
                assert_eq!(
                    (at(5).as_deref(), at(10).as_deref()),
                    (Some("M"), Some("S"))
                );
                assert!(
                    !lines.iter().any(|l| l.starts_with("piece P&")),
                    "{lines:?}"
                );
                assert!(lines.iter().any(|l| l.starts_with("piece S&")), "{lines:?}");
            }
            _ => {}
        }
    }
}

/// XBoard 4.9.1's own variant names (its `VARIANT_NAMES`, "unknown" left out).
const XBOARD_NAMES: &[&str] = &[
    "normal",
    "wildcastle",
    "nocastle",
    "fischerandom",
    "bughouse",
    "crazyhouse",
    "losers",
    "suicide",
    "giveaway",
    "twokings",
    "kriegspiel",
    "atomic",
    "3check",
    "shatranj",
    "shogi",
    "chu",
    "courier",
    "gothic",
    "capablanca",
    "knightmate",
    "fairy",
    "cylinder",
    "falcon",
    "caparandom",
    "berolina",
    "janus",
    "super",
    "great",
    "twilight",
    "makruk",
    "seirawan",
    "grand",
    "spartan",
    "xiangqi",
    "asean",
    "lion",
    "elven",
];

/// The variant XBoard 4.9.1 makes of a name (its `StringToVariant`): one of its own names
/// exactly, or one of the first fourteen (up to shatranj) anywhere in it (`nocheckatomic`
/// is its atomic); else `None`, which it plays as `normal` (an unknown parent too).
fn xboard_reads(name: &str) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    XBOARD_NAMES
        .iter()
        .enumerate()
        .find(|(i, x)| name == **x || *i < 14 && name.contains(**x))
        .map(|(_, x)| *x)
}

/// Issue 44: XBoard 4.9.1 sends the second engine `variant NAME` only when the game is not
/// orthodox chess on an 8x8 board without a hand (its `InitChessProgram`). For a name it does
/// not know, it plays the parent named in the first engine's `setup`; a parent of `normal`
/// (what chess's 8x8 children inherited) made it announce nothing, and Fairy-Stockfish as
/// the second engine played orthodox chess in kingofthehill, duck and the rest. For a name it
/// knows it takes no `setup` under its legality test, and one taken without the test must
/// keep that name as the parent, or the variant announced changes.
#[test]
fn xboard_setup_lets_xboard_announce_the_variant_to_the_second_engine() {
    let all = variants::builtins().unwrap();
    let mut announced = 0;
    for v in all.iter() {
        let name = if v.name == "chess" {
            "normal"
        } else {
            v.name.as_str()
        };
        let (tx, sink, handle) = start_engine();
        for cmd in ["xboard", "protover 2", &format!("variant {name}"), "quit"] {
            tx.send(cmd.to_string()).unwrap();
        }
        handle.join().unwrap();
        let lines = sink.lines();
        let setup = lines.iter().find_map(|l| l.strip_prefix("setup ("));
        let known = xboard_reads(name);
        let Some(setup) = setup else {
            assert!(known.is_some(), "{name}: no setup for a name XBoard lacks");
            continue;
        };
        let rest = setup.split_once(") ").unwrap().1;
        let size = rest.split_whitespace().next().unwrap();
        let (dims, hand_parent) = size.split_once('+').unwrap();
        let (hand, parent) = hand_parent.split_once('_').unwrap();
        let (w, h) = dims.split_once('x').unwrap();
        let plays = xboard_reads(parent).unwrap_or("normal");
        match known {
            Some(k) => assert_eq!(plays, k, "{name}: setup {setup}"),
            None => {
                let other_game = plays != "normal" || (w, h, hand) != ("8", "8", "0");
                assert!(other_game, "{name}: XBoard announces nothing after {setup}");
                announced += 1;
            }
        }
    }
    // The 8x8 children of chess (kingofthehill, horde, duck, antichess, ...) among them.
    assert!(announced > 80, "{announced}");
}

/// XBoard 4.9.1 holds a side whose king slot has a letter but no such man on the board
/// always in check (its `CheckTest` finds no king), and forfeited every move of horde's
/// White (`a4a5`); a `.` there it reads as "never in check". The slot stays the king's for
/// a side with a king on the board or in hand (placement's kings start in hand).
#[test]
fn xboard_setup_empties_the_king_slot_of_a_kingless_side() {
    for (name, white_king, black_king) in [
        ("horde", false, true),
        ("kingofthehill", true, true),
        ("placement", true, true),
    ] {
        let (setup, _) = xboard_setup_line(name);
        let table = setup.split_once(") ").unwrap().0;
        let (white, black) = table.split_at(table.len() / 2);
        assert_eq!(white.ends_with('K'), white_king, "{name}: {table}");
        assert_eq!(white.ends_with('.'), !white_king, "{name}: {table}");
        assert_eq!(black.ends_with('k'), black_king, "{name}: {table}");
    }
}

/// XBoard between two engines (`computer`) forfeits a win claimed by a rule it does not
/// know (a false claim: kingofthehill's flag) and takes the loser's claim as it comes. The
/// engine whose move wins so claims nothing there, and claims its own loss; against a
/// human (no `computer`) it claims the win.
#[test]
fn xboard_win_by_own_move_is_claimed_only_against_a_human() {
    let won = "1-0 {White wins by flag reached}";
    for computer in [false, true] {
        let xb = Xb::start();
        xb.send(&[
            "variant kingofthehill",
            "force",
            "setboard 4k3/8/8/8/8/4K3/8/8 w - - 0 1",
        ]);
        if computer {
            xb.send(&["computer"]);
        }
        xb.send(&["sd 3", "go"]);
        let (at, line) = xb.wait(0, |l| l.starts_with("move "), "the winning move");
        assert!(["e3d4", "e3e4"].contains(&&line["move ".len()..]), "{line}");
        let pong = xb.ping(1);
        let lines = xb.sink.lines();
        assert_eq!(
            lines[at..pong].iter().any(|l| l == won),
            !computer,
            "computer {computer}: {lines:#?}"
        );
        // The other side of the same game: the engine plays Black and claims its loss.
        xb.send(&["new", "variant kingofthehill", "force"]);
        xb.send(&["setboard 4k3/8/8/8/8/4K3/8/8 w - - 0 1", "playother"]);
        if computer {
            xb.send(&["computer"]);
        }
        let from = xb.sink.lines().len();
        xb.send(&["usermove e3d4"]);
        xb.wait(from, |l| l == won, "the loser's claim");
        xb.finish(1);
    }
}

fn want_text(s: &Slot) -> &str {
    match s {
        Slot::Letter(l) | Slot::Promoted(l) => l,
        Slot::Unused => ".",
    }
}

/// An XBoard session for the pondering tests, on the engine's real event loop.
struct Xb {
    tx: Sender<String>,
    sink: Sink,
    handle: std::thread::JoinHandle<()>,
}

/// Thinking output: XBoard's numeric lines (a game result starts with a digit too).
fn thinking(line: &str) -> bool {
    line.starts_with(|c: char| c.is_ascii_digit())
        && !["1-0", "0-1", "1/2"].iter().any(|r| line.starts_with(r))
}

impl Xb {
    fn start() -> Xb {
        let (tx, sink, handle) = start_engine();
        let xb = Xb { tx, sink, handle };
        xb.send(&["xboard", "protover 2", "new", "post"]);
        xb
    }

    fn send(&self, lines: &[&str]) {
        for l in lines {
            self.tx.send(l.to_string()).unwrap();
        }
    }

    /// Waits (20 s at most) for a line from index `from` on that passes `want`; its index.
    fn wait(&self, from: usize, want: impl Fn(&str) -> bool, what: &str) -> (usize, String) {
        let t = Instant::now();
        loop {
            let lines = self.sink.lines();
            if let Some(i) = (from..lines.len()).find(|&i| want(&lines[i])) {
                return (i, lines[i].clone());
            }
            assert!(
                t.elapsed() < Duration::from_secs(20),
                "no {what} after line {from}; have {lines:#?}"
            );
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Pings and waits for the answer; the index of the `pong` line.
    fn ping(&self, n: u32) -> usize {
        let pong = format!("pong {n}");
        self.send(&[&format!("ping {n}")]);
        self.wait(0, |l| l == pong, &pong).0
    }

    /// The depths of the thinking lines from index `from` to `to` (exclusive).
    fn depths(&self, from: usize, to: usize) -> Vec<u32> {
        self.sink.lines()[from..to]
            .iter()
            .filter(|l| thinking(l))
            .filter_map(|l| l.split(' ').next()?.parse().ok())
            .collect()
    }

    /// Every `move` line, without the word `move`.
    fn moves(&self) -> Vec<String> {
        let lines = self.sink.lines();
        lines
            .iter()
            .filter_map(|l| l.strip_prefix("move "))
            .map(str::to_string)
            .collect()
    }

    /// The engine plays White's first move: on a clock of 10,000 s (a budget of minutes, for
    /// the ponder search too) it is told to move (`?`) once an iteration of depth 4 has
    /// reported a reply; then `hint` gives that reply. With `ponder`, thinking output of
    /// depth 4 after the move shows the ponder search running. Returns (the move, the reply, the index of
    /// the `move` line).
    fn first_move(&self, ponder: bool) -> (String, String, usize) {
        if ponder {
            self.send(&["hard"]);
        }
        self.send(&["time 1000000", "otim 1000000", "go"]);
        let deep = |l: &str| {
            thinking(l)
                && l.split(' ').count() >= 6
                && l.split(' ').next().and_then(|d| d.parse::<u32>().ok()) >= Some(4)
        };
        self.wait(0, deep, "a depth-4 iteration");
        self.send(&["?"]);
        let (at, line) = self.wait(0, |l| l.starts_with("move "), "first move");
        self.send(&["hint"]);
        let (_, hint) = self.wait(at, |l| l.starts_with("Hint: "), "hint");
        if ponder {
            self.wait(at + 1, deep, "a depth-4 iteration while pondering");
        }
        let first = line["move ".len()..].to_string();
        (first, hint["Hint: ".len()..].to_string(), at)
    }

    /// Asserts that the session has sent `moves` moves in all, after a while and after `quit`.
    fn finish(self, moves: usize) {
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(self.moves().len(), moves, "{:#?}", self.sink.lines());
        self.send(&["quit"]);
        let Xb { sink, handle, .. } = self;
        handle.join().unwrap();
        let all = sink.lines();
        let n = all.iter().filter(|l| l.starts_with("move ")).count();
        assert_eq!(n, moves, "{all:#?}");
    }
}

/// Whether `text` is a legal move after `played` from the chess start.
fn legal_after(played: &[&str], text: &str) -> bool {
    use locust::engine::notation::{parse, Dialect};
    let mut game = locust::game::Game::new(common::variant("chess")).unwrap();
    for m in played {
        let m = parse(&mut game, m, Dialect::Xboard).unwrap();
        game.play(m);
    }
    parse(&mut game, text, Dialect::Xboard).is_ok()
}

/// `hard`, then the expected reply: exactly one more move, in the budget of the clock sent
/// with the reply, counted from its arrival. The ponder search began under a 10,000 s clock
/// and has run 3 s when the reply comes with a 15 s clock (no new iteration before 55% of
/// 499 ms, a stop at 2 s): a budget planned from the old clock would take minutes, one
/// counted from the ponder's start would answer at once.
#[test]
fn xboard_ponder_hit_plays_once_on_the_new_clock() {
    let xb = Xb::start();
    let (first, reply, at) = xb.first_move(true);
    std::thread::sleep(Duration::from_secs(3));
    assert_eq!(xb.moves().len(), 1, "a move while pondering");
    xb.send(&["time 1500", "otim 1500"]);
    let t = Instant::now();
    xb.send(&[&format!("usermove {reply}")]);
    let (second_at, second) = xb.wait(at + 1, |l| l.starts_with("move "), "the second move");
    let took = t.elapsed();
    // The ponder search went on (its depths rise throughout): no new search began.
    let depths = xb.depths(at + 1, second_at);
    assert!(depths.windows(2).all(|w| w[1] > w[0]), "{depths:?}");
    assert!(
        took >= Duration::from_millis(250),
        "answered after {took:?}"
    );
    assert!(took < Duration::from_secs(15), "answered after {took:?}");
    assert!(
        legal_after(&[&first, &reply], &second["move ".len()..]),
        "{second}"
    );
    xb.ping(1);
    xb.finish(2);
}

/// `hard`, then another reply: the ponder search ends unseen, a new search starts, and
/// exactly one move comes, legal after that reply.
#[test]
fn xboard_ponder_miss_plays_once_in_the_new_position() {
    let xb = Xb::start();
    let (first, reply, at) = xb.first_move(true);
    let other = ["a7a6", "h7h6"].into_iter().find(|m| *m != reply).unwrap();
    xb.send(&["time 600", "otim 600", &format!("usermove {other}")]);
    let (second_at, second) = xb.wait(at + 1, |l| l.starts_with("move "), "the second move");
    // A new search (depth 1 again) after the ponder search's depth 4.
    let depths = xb.depths(at + 1, second_at);
    assert!(depths.windows(2).any(|w| w[1] < w[0]), "{depths:?}");
    assert!(
        legal_after(&[&first, other], &second["move ".len()..]),
        "{second}"
    );
    xb.ping(1);
    xb.finish(2);
}

/// `force`, `new` and `undo` while pondering: the ponder search ends before the command's
/// effect (no thinking output after the next `pong`), and no move comes.
#[test]
fn xboard_ponder_ends_silently_on_game_commands() {
    for cmd in ["force", "new", "undo"] {
        let xb = Xb::start();
        xb.first_move(true);
        xb.send(&[cmd]);
        let pong = xb.ping(1);
        std::thread::sleep(Duration::from_millis(300));
        let after: Vec<String> = xb.sink.lines()[pong..].to_vec();
        assert!(!after.iter().any(|l| thinking(l)), "{cmd}: {after:#?}");
        xb.finish(1);
    }
}

/// `ping` while pondering is answered at once (5 s allows for a loaded machine; the search
/// runs on its own thread) and leaves the ponder search running.
#[test]
fn xboard_ping_while_pondering() {
    let xb = Xb::start();
    let (_, _, at) = xb.first_move(true);
    let t = Instant::now();
    let pong = xb.ping(1);
    assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
    assert!(pong > at);
    xb.wait(pong, thinking, "thinking output after the pong");
    xb.send(&["force"]);
    xb.ping(2);
    xb.finish(1);
}

/// `easy` ends the ponder search unseen; the expected reply then starts a normal search
/// (exactly one move), and no pondering follows that move.
#[test]
fn xboard_easy_stops_pondering() {
    let xb = Xb::start();
    let (_, reply, _) = xb.first_move(true);
    xb.send(&["easy"]);
    let pong = xb.ping(1);
    std::thread::sleep(Duration::from_millis(300));
    let after: Vec<String> = xb.sink.lines()[pong..].to_vec();
    assert!(!after.iter().any(|l| thinking(l)), "{after:#?}");
    xb.send(&["time 600", "otim 600", &format!("usermove {reply}")]);
    let (at, _) = xb.wait(pong, |l| l.starts_with("move "), "the second move");
    std::thread::sleep(Duration::from_millis(500));
    let after: Vec<String> = xb.sink.lines()[at..].to_vec();
    assert!(!after.iter().any(|l| thinking(l)), "{after:#?}");
    xb.finish(2);
}

/// `hint`: nothing before any search; after the engine's move (pondering off) the reply its
/// search expects, legal there; nothing once the position has moved on.
#[test]
fn xboard_hint() {
    let xb = Xb::start();
    xb.send(&["hint"]);
    let pong = xb.ping(1);
    assert!(!xb.sink.lines()[..pong]
        .iter()
        .any(|l| l.starts_with("Hint")));
    let (first, reply, _) = xb.first_move(false);
    assert!(legal_after(&[&first], &reply), "{first} {reply}");
    xb.send(&["force", "usermove a7a6", "usermove h2h3", "hint"]);
    let pong = xb.ping(2);
    let hints = xb.sink.lines()[..pong]
        .iter()
        .filter(|l| l.starts_with("Hint"))
        .count();
    assert_eq!(hints, 1);
    xb.finish(1);
}
