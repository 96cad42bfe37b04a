//! HaChu's large shogi variants under HaChu's names (issue 44): every man's targets equal
//! HaChu 0.21's answers to XBoard's `lift`, kept in tests/data/hachu-lift.txt (positions from
//! random games in Locust, made by tools/hachu-lift.py, which the peer test runs again where
//! HaChu is installed); the engine's legal moves and perft equal the reference generator's;
//! HaChu's promotion reading; XBoard's `variant NAME` and `locust variants` find each one.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod peers;

use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

use common::{start, variant, walk_checked};
use locust::board::moves::MoveKind;
use locust::board::reference::{self, RefBoard};
use locust::engine::notation::{parse, write, Dialect};
use locust::engine::Engine;
use locust::game::Game;
use locust::perft::perft;

const DATA: &str = include_str!("data/hachu-lift.txt");
const PSEUDO: &str = include_str!("data/hachu-pseudo.ini");
/// The variants of HaChu's `feature variants` that Locust plays under the same names and
/// this file checks (shogi, chu, tenjiku and the chess ones have their own tests).
const HACHU_VARIANTS: &[&str] = &[
    "wa-shogi",
    "dai",
    "cashew-shogi",
    "macadamia-shogi",
    "lion",
    "werewolf",
];
/// Variants with HaChu's lion dog, whose multi-captures HaChu marks with first stops that are
/// not their victims: there a first stop is compared as the square's plain mark
/// (tools/hachu-lift.py, `FIRST_STOPS_AS_TARGETS`).
const FIRST_STOPS_AS_TARGETS: &[&str] = &["cashew-shogi", "macadamia-shogi"];
/// Contagion, per variant: the contagious men and the men immune to it. Locust marks a
/// capture that turns its taker magenta, HaChu red or magenta as the taker could promote,
/// and only where the victim is promoted (+i', +j'): there Locust's mark is compared as `X`
/// (tools/hachu-lift.py, `CONTAGION_AS_CAPTURE`).
const CONTAGION_AS_CAPTURE: &[(&str, &[&str], &[&str])] = &[(
    "macadamia-shogi",
    &["i'", "j'", "+i'", "+j'"],
    &["e", "k", "+e", "+k"],
)];
/// Variants where HaChu never castles: the king's castling targets are not compared
/// (tools/hachu-lift.py, `NO_CASTLING`).
const NO_CASTLING: &[&str] = &["werewolf"];
/// HaChu's chess variants (their men are mirrored, not turned, between the sides).
const CHESS_LIKE: &[&str] = &["lion", "werewolf"];
/// Checked against the reference generator: the above, and sho, which HaChu 0.21 cannot set
/// up (so no `lift` answers of its own).
const REFERENCE_VARIANTS: &[&str] = &[
    "wa-shogi",
    "dai",
    "cashew-shogi",
    "macadamia-shogi",
    "sho",
    "lion",
    "werewolf",
];
/// Fewest kept lifts per variant.
const MIN_LIFTS: usize = 500;
/// The peer test asks HaChu again for one kept answer in this many.
const PEER_SAMPLE: &str = "20";

/// A kept position: variant, Locust's FEN, and (square, HaChu's answer) for each lifted man.
struct Kept {
    variant: String,
    fen: String,
    lifts: Vec<(String, String)>,
}

fn kept() -> Vec<Kept> {
    let mut out: Vec<Kept> = Vec::new();
    for line in DATA.lines() {
        if let Some(rest) = line.strip_prefix("position ") {
            let (v, fen) = rest.split_once(' ').unwrap();
            out.push(Kept {
                variant: v.to_string(),
                fen: fen.to_string(),
                lifts: Vec::new(),
            });
        } else if let Some(rest) = line.strip_prefix("lift ") {
            let (sq, want) = rest.split_once(' ').unwrap();
            let last = out.last_mut().expect("a lift before any position");
            last.lifts.push((sq.to_string(), want.to_string()));
        }
    }
    out
}

/// Output shared between the engine thread and the test.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Sink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs an XBoard session of `commands` (then `quit`) with the built-ins and the copies of
/// tests/data/hachu-pseudo.ini; returns its output lines.
fn xboard_session(commands: &[String]) -> Vec<String> {
    let mut all = variants::builtins().unwrap();
    all.extend(variants::load_str(PSEUDO, "hachu-pseudo.ini").unwrap());
    let sink = Sink::default();
    let out = sink.clone();
    let (tx, rx) = crossbeam_channel::unbounded();
    let engine = std::thread::spawn(move || Engine::new(all, out).unwrap().run(rx));
    for c in commands {
        tx.send(c.clone()).unwrap();
    }
    tx.send("quit".into()).unwrap();
    engine.join().unwrap();
    let text = String::from_utf8_lossy(&sink.0.lock().unwrap()).to_string();
    text.lines().map(str::to_string).collect()
}

/// A FEN board's rows, top rank first: whether each square holds a man (`+x`, `x'`, `x!`
/// are one man).
fn occupied(board: &str) -> Vec<Vec<bool>> {
    let man = |c: Option<char>| match c {
        None => Some(false),
        Some(c) if c.is_ascii_alphabetic() => Some(true),
        Some(_) => None,
    };
    board
        .split('/')
        .map(|row| expand(row).into_iter().filter_map(man).collect())
        .collect()
}

/// Locust's `highlight` board as the kept answers are written: a lion's pass, cyan on the
/// empty square it turns on, as a plain move there (HaChu lists one pass a side, so passes
/// are not compared; tools/hachu-lift.py); with `stops_as_targets`, a first stop on a man as
/// `X`, a capture that may or may not promote.
fn as_kept(highlight: &str, fen: &str, stops_as_targets: bool) -> String {
    let men = occupied(fen.split(' ').next().unwrap());
    let rows: Vec<String> = highlight
        .split('/')
        .zip(men)
        .map(|(row, men)| {
            let (mut out, mut file, mut digits) = (String::new(), 0usize, String::new());
            for c in row.chars() {
                if c.is_ascii_digit() {
                    digits.push(c);
                    out.push(c);
                    continue;
                }
                file += digits.parse::<usize>().unwrap_or(0);
                digits.clear();
                out.push(match c {
                    'C' if !men[file] => 'Y',
                    'C' if stops_as_targets => 'X',
                    c => c,
                });
                file += 1;
            }
            out
        })
        .collect();
    rows.join("/")
}

/// `highlight` without the castling targets of a king lifted on e1 (White) or e8 (Black):
/// the c- and g-file squares of that rank.
fn without_castlings(highlight: &str, fen: &str, sq: &str) -> String {
    let mut f = fen.split(' ');
    let (board, white) = (f.next().unwrap(), f.next() == Some("w"));
    let (home, king) = if white { ("e1", 'K') } else { ("e8", 'k') };
    let rows: Vec<&str> = board.split('/').collect();
    let row = if white { rows.len() - 1 } else { 0 };
    if sq != home || expand(rows[row]).get(4) != Some(&Some(king)) {
        return highlight.to_string();
    }
    let mut marks: Vec<Vec<Option<char>>> = highlight.split('/').map(expand).collect();
    marks[row][2] = None;
    marks[row][6] = None;
    if marks.iter().flatten().all(Option::is_none) {
        return "-".to_string();
    }
    let out: Vec<String> = marks.iter().map(|r| compress(r)).collect();
    out.join("/")
}

/// A FEN board's men by square, top rank first (`+x`, `x'`, `x!` one man each).
fn men(board: &str) -> Vec<Vec<Option<String>>> {
    let row = |text: &str| {
        let (mut out, mut digits) = (Vec::new(), String::new());
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                digits.push(c);
                continue;
            }
            out.extend(std::iter::repeat_n(None, digits.parse().unwrap_or(0)));
            digits.clear();
            let mut man = c.to_string();
            if c == '+' {
                man.extend(chars.next());
            }
            while let Some(&m) = chars.peek().filter(|m| **m == '\'' || **m == '!') {
                man.push(m);
                chars.next();
            }
            out.push(Some(man));
        }
        out.extend(std::iter::repeat_n(None, digits.parse().unwrap_or(0)));
        out
    };
    board.split('/').map(row).collect()
}

/// Locust's kept answer with a capture of a contagious enemy man (red or magenta) as `X`,
/// unless the man lifted on `sq` is immune.
fn contagion_as_capture(kept: &str, fen: &str, sq: &str, rule: (&[&str], &[&str])) -> String {
    let (contagious, immune) = rule;
    if kept == "-" {
        return kept.to_string();
    }
    let men = men(fen.split(' ').next().unwrap());
    let white = |m: &str| {
        m.trim_start_matches('+')
            .starts_with(|c: char| c.is_ascii_uppercase())
    };
    let file = (sq.as_bytes()[0] - b'a') as usize;
    let rank: usize = sq[1..].parse().unwrap();
    let mover = men[men.len() - rank][file].clone().unwrap();
    if immune.contains(&mover.to_lowercase().as_str()) {
        return kept.to_string();
    }
    let rows: Vec<String> = kept
        .split('/')
        .zip(&men)
        .map(|(row, men)| {
            let marks: Vec<Option<char>> = expand(row)
                .into_iter()
                .zip(men)
                .map(|(mark, man)| match (mark, man) {
                    (Some('R' | 'M'), Some(m))
                        if white(m) != white(&mover)
                            && contagious.contains(&m.to_lowercase().as_str()) =>
                    {
                        Some('X')
                    }
                    (mark, _) => mark,
                })
                .collect();
            compress(&marks)
        })
        .collect();
    rows.join("/")
}

/// A FEN row as squares, each other character its own entry (as squares only for boards of
/// one-letter men; `occupied` drops the marks).
fn expand(row: &str) -> Vec<Option<char>> {
    let mut out = Vec::new();
    let mut digits = String::new();
    for c in row.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.extend(std::iter::repeat_n(None, digits.parse().unwrap()));
            digits.clear();
        }
        out.push(Some(c));
    }
    if !digits.is_empty() {
        out.extend(std::iter::repeat_n(None, digits.parse().unwrap()));
    }
    out
}

fn compress(row: &[Option<char>]) -> String {
    let (mut s, mut gap) = (String::new(), 0);
    for c in row {
        match c {
            None => gap += 1,
            Some(c) => {
                if gap > 0 {
                    s += &gap.to_string();
                    gap = 0;
                }
                s.push(*c);
            }
        }
    }
    if gap > 0 {
        s += &gap.to_string();
    }
    s
}

/// HaChu's kept answer against Locust's: equal, where an `X` of Locust's matches red or
/// magenta.
fn agree(want: &str, got: &str) -> bool {
    want.len() == got.len()
        && want
            .chars()
            .zip(got.chars())
            .all(|(w, g)| w == g || g == 'X' && (w == 'R' || w == 'M'))
}

#[test]
fn every_mans_targets_equal_hachus_lift_answers() {
    let kept = kept();
    let mut commands = vec!["xboard".to_string(), "protover 2".to_string()];
    let mut asked = Vec::new();
    for k in &kept {
        commands.push(format!("variant {}-pseudo", k.variant));
        commands.push("force".into());
        commands.push(format!("setboard {}", k.fen));
        for (sq, want) in &k.lifts {
            asked.push((k, sq, want));
            commands.push(format!("lift {sq}"));
            commands.push(format!("ping {}", asked.len()));
        }
    }
    let lines = xboard_session(&commands);
    let (mut answers, mut last) = (Vec::new(), None);
    for line in lines {
        if let Some(h) = line.strip_prefix("highlight ") {
            last = Some(h.to_string());
        } else if line.starts_with("pong ") {
            answers.push(last.take());
        }
    }
    assert_eq!(answers.len(), asked.len(), "one pong per lift");
    let mut wrong = Vec::new();
    for ((k, sq, want), got) in asked.iter().zip(answers) {
        let stops = FIRST_STOPS_AS_TARGETS.contains(&k.variant.as_str());
        let mut got = got.map_or("-".to_string(), |h| as_kept(&h, &k.fen, stops));
        if let Some(&(_, contagious, immune)) =
            CONTAGION_AS_CAPTURE.iter().find(|c| c.0 == k.variant)
        {
            got = contagion_as_capture(&got, &k.fen, sq, (contagious, immune));
        }
        if NO_CASTLING.contains(&k.variant.as_str()) && got != "-" {
            got = without_castlings(&got, &k.fen, sq);
        }
        if !agree(want, &got) {
            wrong.push(format!(
                "{} {} lift {sq}\n  hachu  {want}\n  locust {got}",
                k.variant, k.fen
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    for name in HACHU_VARIANTS {
        let mine = kept.iter().filter(|k| k.variant == *name);
        let lifts: usize = mine.clone().map(|k| k.lifts.len()).sum();
        assert!(lifts >= MIN_LIFTS, "{name}: only {lifts} lifts kept");
        assert!(
            mine.clone().any(|k| k.fen.contains(" b ")),
            "{name}: no position with Black to move"
        );
        // The shogi variants: promoted men (`+X`) were seen too.
        assert!(
            CHESS_LIKE.contains(name)
                || mine
                    .clone()
                    .any(|k| k.fen.split(' ').next().unwrap().contains('+')),
            "{name}: no position with a promoted man"
        );
    }
}

/// HaChu (/usr/games/hachu) gives the kept answers still: tools/hachu-lift.py asks it again
/// for a sample of them. Skipped, and said so, where HaChu or python3 is missing.
#[test]
fn hachu_still_gives_the_kept_answers() {
    let test = "hachu_still_gives_the_kept_answers";
    let Some(hachu) = peers::executable("/usr/games/hachu") else {
        peers::missing("hachu", test, "/usr/games/hachu is not installed");
        return;
    };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = match Command::new("python3")
        .arg(root.join("tools/hachu-lift.py"))
        .args(["check", "--sample", PEER_SAMPLE])
        .env("HACHU", hachu)
        .output()
    {
        Ok(o) => o,
        Err(e) => {
            peers::missing(peers::PYTHON3, test, &format!("python3 did not run: {e}"));
            return;
        }
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "HaChu answers differ:\n{text}");
    assert!(text.contains(" asked again, 0 differ"), "{text}");
}

/// The engine's legal moves equal the reference generator's along random games, and so do
/// the perft counts of the start position and of kept positions.
#[test]
fn engine_and_reference_agree() {
    const WALK_PLIES: usize = 40;
    for (i, name) in REFERENCE_VARIANTS.iter().enumerate() {
        let rules = variant(name);
        walk_checked(name, start(name), &rules, WALK_PLIES, 7 + i as u64);
        let mut fens = vec![rules.start_fen.clone()];
        fens.extend(
            kept()
                .into_iter()
                .filter(|k| k.variant == *name)
                .map(|k| k.fen)
                .step_by(10),
        );
        for fen in fens {
            let mut pos = start(name).with_fen(&fen).unwrap();
            let board = RefBoard::from_fen(&rules, &fen).unwrap();
            let depth = if fen == rules.start_fen { 2 } else { 1 };
            assert_eq!(
                perft(&mut pos, depth),
                reference::perft(&board, &rules, depth),
                "{name} depth {depth}: {fen}"
            );
        }
    }
}

/// HaChu's promotion (`promotionOnEntryStuck = false`): a pawn's plain move within the zone
/// onto the last rank does not promote; its capture there must.
#[test]
fn a_pawn_promotes_on_the_last_rank_only_by_capturing_and_then_must() {
    let texts = |fen: &str| {
        let mut g = Game::from_fen(variant("wa-shogi"), fen).unwrap();
        let legal = g.legal_moves();
        let mut out: Vec<(String, bool)> = legal
            .iter()
            .filter(|m| m.from_coord().to_text() == "e10")
            .map(|m| {
                let text = write(g.position(), m, Dialect::Xboard);
                (text, m.kind == MoveKind::Promotion)
            })
            .collect();
        out.sort();
        out
    };
    let plain = texts("11/4P6/11/11/11/11/11/11/11/11/k9K w - - 0 1");
    assert_eq!(plain, vec![("e10e11".to_string(), false)]);
    let capture = texts("4p6/4P6/11/11/11/11/11/11/11/11/k9K w - - 0 1");
    assert_eq!(capture, vec![("e10e11+".to_string(), true)]);
}

/// XBoard's `variant NAME` selects each (with the `setup` XBoard needs: HaChu's parent chu
/// and board size), `feature variants` offers it, and `locust variants` lists it.
#[test]
fn xboard_and_the_variant_list_know_them() {
    for name in REFERENCE_VARIANTS {
        let lines = xboard_session(&[
            "xboard".into(),
            "protover 2".into(),
            format!("variant {name}"),
            "ping 1".into(),
        ]);
        let features = lines
            .iter()
            .find(|l| l.contains("feature variants="))
            .unwrap();
        assert!(features.contains(name), "{name} not offered: {features}");
        let v = variant(name);
        if *name == "lion" {
            // One of XBoard's own variants: its start position, letters and lion rules.
            assert!(!lines.iter().any(|l| l.starts_with("setup")), "{lines:?}");
            continue;
        }
        let parent = match *name {
            "sho" => "shogi",
            "werewolf" => "fairy",
            _ => "chu",
        };
        let size = format!(" {}x{}+0_{parent} ", v.files, v.ranks);
        let setup = lines.iter().find(|l| l.starts_with("setup (")).unwrap();
        assert!(setup.contains(&size), "{name}: {setup}");
        assert!(setup.ends_with(&v.start_fen), "{name}: {setup}");
        assert!(!lines.iter().any(|l| l.starts_with("Error")), "{lines:?}");
    }
    // HaChu's other name for sho: XBoard's shogi without holdings.
    let lines = xboard_session(&["xboard".into(), "variant 9x9+0_shogi".into()]);
    let setup = lines.iter().find(|l| l.starts_with("setup (")).unwrap();
    assert!(setup.ends_with(&variant("sho").start_fen), "{setup}");
    let out = Command::new(env!("CARGO_BIN_EXE_locust"))
        .arg("variants")
        .output()
        .unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    for name in REFERENCE_VARIANTS {
        assert!(
            list.lines()
                .any(|l| l.split_whitespace().next() == Some(name)),
            "{name} not in `locust variants`"
        );
    }
}

/// Werewolf Chess's contagion (`contagion`): a rook that takes a werewolf becomes one, the
/// move written without a suffix (neither XBoard nor HaChu writes one) and read back from
/// that text; a king that takes one stays a king; a werewolf that takes one stays itself,
/// and so does a man that takes an ordinary man.
#[test]
fn a_man_that_takes_a_werewolf_becomes_one() {
    let after = |fen: &str, text: &str| {
        let mut g = Game::from_fen(variant("werewolf"), fen).unwrap();
        let m = parse(&mut g, text, Dialect::Xboard).unwrap();
        assert_eq!(write(g.position(), &m, Dialect::Xboard), text, "{fen}");
        g.play(m);
        let fen = g.position().fen();
        fen.split(' ').next().unwrap().to_string()
    };
    assert_eq!(
        after("4k3/8/8/3w4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        "4k3/8/8/3W4/8/8/8/4K3"
    );
    assert_eq!(
        after("4k3/8/8/8/8/8/3w4/4K3 w - - 0 1", "e1d2"),
        "4k3/8/8/8/8/8/3K4/8"
    );
    assert_eq!(
        after("4k3/8/8/3w4/8/8/8/3WK3 w - - 0 1", "d1d4"),
        "4k3/8/8/3w4/3W4/8/8/4K3"
    );
    assert_eq!(
        after("4k3/8/8/3w4/8/3W4/8/4K3 w - - 0 1", "d3d5"),
        "4k3/8/8/3W4/8/8/8/4K3"
    );
    assert_eq!(
        after("4k3/8/8/3n4/8/8/8/3RK3 w - - 0 1", "d1d5"),
        "4k3/8/8/3R4/8/8/8/4K3"
    );
    // A pawn that takes a werewolf on the last rank becomes a werewolf, its only choice.
    let g = Game::from_fen(variant("werewolf"), "3wk3/4P3/8/8/8/8/8/4K3 w - - 0 1");
    let mut g = g.unwrap();
    let onto_d8: Vec<_> = g
        .legal_moves()
        .into_iter()
        .filter(|m| m.to_coord().to_text() == "d8")
        .collect();
    assert_eq!(onto_d8.len(), 1, "{onto_d8:?}");
    assert_eq!(onto_d8[0].kind, MoveKind::Promotion);
}

/// The engine and the reference generator agree where contagion, lion trading and castling
/// come into play: perft 2 of positions chosen for them, and longer random games.
#[test]
fn engine_and_reference_agree_on_the_chess_variants_rules() {
    let chosen = [
        (
            "werewolf",
            "rnb1kbnr/pppppppp/8/5w2/4P3/8/PPPP1PPP/RNBWKBNR w KQkq - 0 1",
        ),
        (
            "werewolf",
            "rnb1kbnr/pppppppp/8/8/8/8/PPPPwPPP/RNBWKBNR w KQkq - 0 1",
        ),
        ("werewolf", "3wk3/4P3/8/8/8/8/8/RNBWKBNR w - - 0 1"),
        ("werewolf", "4k3/8/2w1w3/3W4/2w1w3/8/8/4K3 w - - 0 1"),
        (
            "werewolf",
            "r3k2r/pppwpppp/8/8/8/8/PPPWPPPP/R3K2R b KQkq - 0 1",
        ),
        ("lion", "4k3/4p3/3l4/3p4/3L4/8/8/4K3 w - - 0 1"),
        ("lion", "4k3/4p3/3l4/3n4/3L4/8/8/4K3 w - - 0 1"),
        (
            "lion",
            "r3k2r/pppl1ppp/2n5/3p4/3L4/2N5/PPP2PPP/R3K2R w KQkq - 0 1",
        ),
        ("lion", "4k3/3ppp2/3plp2/3PLP2/3P1P2/8/8/4K3 b - - 0 1"),
    ];
    for (name, fen) in chosen {
        let rules = variant(name);
        let mut pos = start(name).with_fen(fen).unwrap();
        let board = RefBoard::from_fen(&rules, fen).unwrap();
        assert_eq!(
            perft(&mut pos, 2),
            reference::perft(&board, &rules, 2),
            "{name}: {fen}"
        );
    }
    const PLIES: usize = 120;
    for name in CHESS_LIKE {
        let rules = variant(name);
        for seed in 0..4 {
            walk_checked(name, start(name), &rules, PLIES, 100 + seed);
        }
    }
}

/// The table generator refuses werewolf's contagion by name (it does not model it), and
/// still builds lion's rules (lions on both sides are refused per material elsewhere).
#[test]
fn the_table_generator_refuses_contagion_by_name() {
    let err = locust::egt::rules::Rules::new(&variant("werewolf"), None, false)
        .expect_err("werewolf's tables refused");
    assert!(err.to_string().contains("contagion"), "{err}");
    assert!(locust::egt::rules::Rules::new(&variant("lion"), None, false).is_ok());
}

/// Macadamia Shogi's capture rules (`promotedCaptureForcesPromotion`, `contagion` with
/// `contagionPromotes`): what the man on `from` may become by moving to `to`, for each legal
/// move between them.
fn macadamia_results(fen: &str, from: &str, to: &str) -> Vec<String> {
    let mut g = Game::from_fen(variant("macadamia-shogi"), fen).unwrap();
    let mut out: Vec<String> = g
        .legal_moves()
        .into_iter()
        .filter(|m| m.from_coord().to_text() == from && m.to_coord().to_text() == to)
        .map(|m| {
            let mut g = Game::from_fen(variant("macadamia-shogi"), fen).unwrap();
            g.play(m);
            let fen = g.position().fen();
            let board = men(fen.split(' ').next().unwrap());
            let file = (to.as_bytes()[0] - b'a') as usize;
            let rank: usize = to[1..].parse().unwrap();
            board[board.len() - rank][file].clone().unwrap()
        })
        .collect();
    out.sort();
    out
}

/// A man that takes a promoted man must promote (the castle and queen never do); one that
/// takes a priest or pirate, promoted or not, becomes the promoted priest or pirate, except
/// the elephant and king, which must make their own (royal) promotion; another capture may
/// promote or not, and a plain move never does. The engine and the reference generator
/// agree on the position.
#[test]
fn macadamia_captures_promote_as_published() {
    let fen = "6k6/13/13/+p2j'i'1+j'3+p1p/1S1DE1G3Q1L/13/13/13/13/13/13/13/6K6 w - - 0 1";
    let cases: &[(&str, &str, &[&str])] = &[
        ("b9", "a10", &["+S"]),
        ("k9", "k10", &["Q"]),
        ("g9", "g10", &["+J'"]),
        ("d9", "d10", &["+J'"]),
        ("d9", "e10", &["+I'"]),
        ("e9", "d10", &["+E"]),
        ("e9", "e10", &["+E"]),
        ("m9", "m10", &["+L", "L"]),
        ("b9", "c10", &["S"]),
    ];
    for (from, to, want) in cases {
        assert_eq!(macadamia_results(fen, from, to), *want, "{from}{to}");
    }
    // A king that takes a priest becomes the emperor, a royal.
    let king = "6k6/13/13/13/13/13/13/13/13/13/13/6i'6/6K6 w - - 0 1";
    assert_eq!(macadamia_results(king, "g1", "g2"), ["+K"]);
    let rules = variant("macadamia-shogi");
    for fen in [fen, king] {
        let mut pos = start("macadamia-shogi").with_fen(fen).unwrap();
        let board = RefBoard::from_fen(&rules, fen).unwrap();
        assert_eq!(
            perft(&mut pos, 2),
            reference::perft(&board, &rules, 2),
            "{fen}"
        );
    }
}
