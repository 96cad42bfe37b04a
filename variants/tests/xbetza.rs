//! XBetza compiler tests: target sets of real pieces walked with `Trajectories::targets`,
//! round trips through the printer, and error reporting.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on their own fixtures
use std::collections::BTreeSet;
use variants::xbetza::{compile, parse, print, MAX_NODES};
use variants::Trajectories;

/// "e4" -> (4, 3).
fn sq(s: &str) -> (i32, i32) {
    let b = s.as_bytes();
    let f = (b[0] - b'a') as i32;
    let r: i32 = s[1..].parse().unwrap();
    (f, r - 1)
}

fn name(f: i32, r: i32) -> String {
    format!("{}{}", (b'a' + f as u8) as char, r + 1)
}

fn set(s: &str) -> BTreeSet<String> {
    s.split_whitespace().map(|x| x.to_string()).collect()
}

/// Board of `files` x `ranks` with friends (upper-case `F:` list) and foes.
struct Board<'a> {
    files: i32,
    ranks: i32,
    friends: &'a str,
    foes: &'a str,
}

impl Board<'_> {
    fn occupant(&self, f: i32, r: i32) -> Option<bool> {
        let n = name(f, r);
        if self.friends.split_whitespace().any(|x| x == n) {
            Some(true)
        } else if self.foes.split_whitespace().any(|x| x == n) {
            Some(false)
        } else {
            None
        }
    }
}

fn compiled(text: &str, max: u8) -> Trajectories {
    compile(&parse(text).unwrap_or_else(|e| panic!("{text}: {e}")), max)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// Squares reachable from `from`, with the end rights filtered by `mask` (0 = any).
fn walk(text: &str, from: &str, b: &Board, mask: u16) -> BTreeSet<String> {
    let t = compiled(text, (b.files.max(b.ranks) - 1) as u8);
    t.targets(sq(from), b.files, b.ranks, &|f, r| b.occupant(f, r))
        .into_iter()
        .filter(|&(_, _, rights)| mask == 0 || rights & mask != 0)
        .map(|(f, r, _)| name(f, r))
        .collect()
}

const EMPTY8: Board = Board {
    files: 8,
    ranks: 8,
    friends: "",
    foes: "",
};

fn on_empty(text: &str, from: &str, expect: &str) {
    assert_eq!(
        walk(text, from, &EMPTY8, 0),
        set(expect),
        "{text} from {from}"
    );
}

#[test]
fn knight_rook_pawn() {
    on_empty("N", "d4", "c2 e2 b3 f3 b5 f5 c6 e6");
    on_empty("R", "a1", "a2 a3 a4 a5 a6 a7 a8 b1 c1 d1 e1 f1 g1 h1");
    on_empty("fmWfceFifmnD", "e2", "e3 e4 d3 f3");
}

/// Every piece the tests use, for the round trip.
const PIECES: &[&str] = &[
    "fmWfceFifmnD",
    "N",
    "B",
    "R",
    "Q",
    "KisO2",
    "mfFcfeWimfnA",
    "F",
    "A",
    "fmWfcF",
    "FfW",
    "BN",
    "RN",
    "WF",
    "W",
    "K",
    "nN",
    "nA",
    "mRcpR",
    "fW",
    "fsW",
    "pR",
    "mafsmafW",
    "fR",
    "ffN",
    "WfF",
    "RF",
    "BW",
    "fmFfcWifmnA",
    "FAsmW",
    "WD",
    "KNADcaKmabK",
    "FD",
    "WA",
    "sRvW",
    "vRsW",
    "vWfF",
    "FfsW",
    "FbsW",
    "FvW",
    "vW",
    "vR",
    "fmFfcafmF",
    "K3cpafK",
    "WyafsW",
    "RmasR",
    "KADcavKmcpafmcpavK",
    "gQ",
    "NN",
    "C",
    "Z",
    "W3",
    "(4,1)",
    "mafsW",
    "mafF",
    "QN",
    "N0",
    "fhN",
    "hrN",
    "hlN",
    "frN",
    "rfN",
    "fsN",
    "fK",
    "fsK",
    "frF",
    "W03",
    "jR",
    "jD",
    "jN",
    "nZ",
    "cafmF",
    "isO2",
    "fkR",
    "tQ",
    "LLJJ",
    "WW",
    "W1W",
    "pW",
    "gR",
];

#[test]
fn round_trip() {
    for text in PIECES {
        let b = parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        let again = parse(&print(&b)).unwrap_or_else(|e| panic!("{text} -> {}: {e}", print(&b)));
        assert_eq!(again, b, "{text} printed as {}", print(&b));
        assert_eq!(compile(&again, 7), Ok(compiled(text, 7)), "{text}");
        assert_eq!(compile(&again, 11), Ok(compiled(text, 11)), "{text}");
    }
}

fn board<'a>(friends: &'a str, foes: &'a str) -> Board<'a> {
    Board {
        files: 8,
        ranks: 8,
        friends,
        foes,
    }
}

fn check(text: &str, from: &str, b: &Board, expect: &str) {
    assert_eq!(walk(text, from, b, 0), set(expect), "{text} from {from}");
}

const ROOK_D4: &str = "d1 d2 d3 d5 d6 d7 d8 a4 b4 c4 e4 f4 g4 h4";
const BISHOP_D4: &str = "a1 b2 c3 e5 f6 g7 h8 a7 b6 c5 e3 f2 g1";
const KING_D4: &str = "c3 c4 c5 d3 d5 e3 e4 e5";
const KNIGHT_D4: &str = "b3 b5 c2 c6 e2 e6 f3 f5";
const FERZ_D4: &str = "c3 c5 e3 e5";
const WAZIR_D4: &str = "d3 d5 c4 e4";

fn union(parts: &[&str]) -> String {
    parts.join(" ")
}

#[test]
fn fide_pieces() {
    on_empty("N", "d4", KNIGHT_D4);
    on_empty("B", "d4", BISHOP_D4);
    on_empty("R", "d4", ROOK_D4);
    on_empty("Q", "d4", &union(&[ROOK_D4, BISHOP_D4]));
    on_empty("K", "d4", KING_D4);
    on_empty("KisO2", "d4", KING_D4);
    assert_eq!(compiled("KisO2", 7).castling, Some(2));
    assert_eq!(compiled("K", 7).castling, None);
    // Blocked sliders stop on the first piece, capturing foes only.
    check("R", "d4", &board("d6", "f4"), "d1 d2 d3 d5 a4 b4 c4 e4 f4");
}

#[test]
fn fide_pawn() {
    let p = "fmWfceFifmnD";
    // On an empty board the diagonals are only e.p. targets.
    assert_eq!(walk(p, "e2", &EMPTY8, variants::rights::MOVE), set("e3 e4"));
    assert_eq!(
        walk(p, "e2", &EMPTY8, variants::rights::EN_PASSANT),
        set("d3 f3")
    );
    check(p, "e2", &board("", "e3 d3 f3"), "d3 f3");
    check(p, "e2", &board("", "e4"), "e3 d3 f3");
    let t = compiled(p, 7);
    let ep: Vec<_> = t
        .nodes
        .iter()
        .filter(|n| n.rights & variants::rights::SETS_EP != 0)
        .collect();
    assert_eq!(ep.len(), 1);
    assert_eq!(ep[0].step, (0, 1));
    let moved = t.without_initial();
    assert_eq!(
        moved
            .targets(sq("e2"), 8, 8, &|_, _| None)
            .iter()
            .filter(|x| x.2 & variants::rights::MOVE != 0)
            .count(),
        1
    );
}

#[test]
fn berolina_and_hoplite() {
    let p = "mfFcfeWimfnA";
    check(p, "e2", &EMPTY8, "d3 f3 c4 g4 e3");
    check(p, "e2", &board("d3", ""), "f3 g4 e3");
    check(p, "e2", &board("", "e3"), "d3 f3 c4 g4 e3");
    check("fmFfcWifmnA", "d2", &EMPTY8, "c3 e3 b4 f4");
    check("fmFfcWifmnA", "d2", &board("", "d3 e3"), "c3 d3 b4");
}

#[test]
fn shatranj_makruk_courier() {
    on_empty("F", "d4", FERZ_D4);
    on_empty("A", "d4", "b2 b6 f2 f6");
    on_empty("fmWfcF", "d4", "d5");
    check("fmWfcF", "d4", &board("", "c5 d5 e5"), "c5 e5");
    on_empty("FfW", "d4", "c3 c5 e3 e5 d5");
    on_empty("WF", "d4", KING_D4);
    on_empty("W", "d4", WAZIR_D4);
}

#[test]
fn capablanca_family() {
    on_empty("BN", "d4", &union(&[BISHOP_D4, KNIGHT_D4]));
    on_empty("RN", "d4", &union(&[ROOK_D4, KNIGHT_D4]));
    on_empty("QN", "d4", &union(&[ROOK_D4, BISHOP_D4, KNIGHT_D4]));
}

#[test]
fn xiangqi_pieces() {
    check("nN", "d4", &board("d5", ""), "b3 b5 c2 e2 f3 f5");
    check("mafsW", "d4", &board("d5", ""), "b3 b5 c2 e2 f3 f5");
    check("nN", "d4", &board("", "c4"), "c2 c6 e2 e6 f3 f5");
    check("nA", "d4", &board("e5", ""), "b2 b6 f2");
    check("mafF", "d4", &board("e5", ""), "b2 b6 f2");
    check("mRcpR", "a1", &board("a3", "a6 c1"), "a2 b1 a6");
    on_empty("F", "e2", "d1 f1 d3 f3");
    on_empty("fW", "d4", "d5");
    on_empty("fsW", "d4", "d5 c4 e4");
    // The shared first W square: nN has four W roots, not eight.
    let t = compiled("nN", 7);
    assert_eq!(t.roots.len(), 4);
    assert_eq!(t.nodes.len(), 12);
}

#[test]
fn janggi_pieces() {
    check("pR", "a1", &board("a3", "a6"), "a4 a5 a6");
    let e = "b1 b7 f1 f7 a2 a6 g2 g6";
    on_empty("mafsmafW", "d4", e);
    check("mafsmafW", "d4", &board("d5", ""), "b1 f1 a2 a6 g2 g6");
    check("mafsmafW", "d4", &board("e6", ""), "b1 b7 f1 a2 a6 g2 g6");
    check("nZ", "d4", &board("e6", ""), "b1 b7 f1 a2 a6 g2 g6");
    check("nN", "d4", &EMPTY8, KNIGHT_D4);
}

#[test]
fn shogi_pieces() {
    on_empty("fR", "d4", "d5 d6 d7 d8");
    on_empty("ffN", "d4", "c6 e6");
    on_empty("FfW", "d4", "c3 c5 e3 e5 d5");
    on_empty("WfF", "d4", "d3 d5 c4 e4 c5 e5");
    on_empty("RF", "d4", &union(&[ROOK_D4, FERZ_D4]));
    on_empty("BW", "d4", &union(&[BISHOP_D4, WAZIR_D4]));
    on_empty("fW", "d4", "d5");
}

#[test]
fn spartan_and_knightmate() {
    on_empty("FAsmW", "d4", "c3 c5 e3 e5 b2 b6 f2 f6 c4 e4");
    check(
        "FAsmW",
        "d4",
        &board("", "c4 e4"),
        "c3 c5 e3 e5 b2 b6 f2 f6",
    );
    on_empty("WD", "d4", "d3 d5 c4 e4 d2 d6 b4 f4");
    on_empty("N", "a1", "b3 c2");
    on_empty("K", "a1", "a2 b1 b2");
}

#[test]
fn chu_shogi_pieces() {
    let within2 = "b2 b3 b4 b5 b6 c2 c3 c4 c5 c6 d2 d3 d5 d6 e2 e3 e4 e5 e6 f2 f3 f4 f5 f6";
    // mabK steps out and back: the lion may pass (end on its own square).
    on_empty("KNADcaKmabK", "d4", &format!("{within2} d4"));
    check("caK", "d4", &board("", "d5"), "c4 c5 c6 d6 e4 e5 e6");
    check("caK", "d4", &EMPTY8, "");
    on_empty("mabK", "d4", "d4");
    on_empty("FD", "d4", "c3 c5 e3 e5 d2 d6 b4 f4");
    on_empty("WA", "d4", "d3 d5 c4 e4 b2 b6 f2 f6");
    on_empty("sRvW", "d4", "a4 b4 c4 e4 f4 g4 h4 d3 d5");
    on_empty("vRsW", "d4", "d1 d2 d3 d5 d6 d7 d8 c4 e4");
    on_empty("vWfF", "d4", "d3 d5 c5 e5");
    on_empty("FfsW", "d4", "c3 c5 e3 e5 d5 c4 e4");
    on_empty("FbsW", "d4", "c3 c5 e3 e5 d3 c4 e4");
    on_empty("FvW", "d4", "c3 c5 e3 e5 d3 d5");
    on_empty("vW", "d4", "d3 d5");
    on_empty("vR", "d4", "d1 d2 d3 d5 d6 d7 d8");
}

#[test]
fn locust_and_bent_pieces() {
    // Checker: steps forward diagonally, jumps an adjacent foe diagonally forward.
    check("fmFfcafmF", "d4", &board("c5", "e5"), "f6");
    check("fmFfcafmF", "d4", &EMPTY8, "c5 e5");
    check("cafmF", "d4", &board("", "c3"), "b2");
    // Werewolf: range-3 queen plus hitting an adjacent piece and landing behind it.
    let ww = "d5 d3 d2 d1 c4 b4 a4 e4 f4 g4 c5 b6 a7 c3 b2 a1 e3 f2 g1 d6 f6";
    check("K3cpafK", "d4", &board("e5", "d5"), ww);
    // Aanca: a plain W step (the leading `W`), or a W step to an empty square that turns
    // into a bishop slide outward (`yafsW`).
    let aanca = "d3 d5 c4 e4 e6 f7 g8 c6 b7 a8 c2 b1 e2 f1 f5 g6 h7 f3 g2 h1 b5 a6 b3 a2";
    on_empty("WyafsW", "d4", aanca);
    check("yafsW", "d4", &board("", "d5 d3 c4"), "f5 g6 h7 f3 g2 h1");
    check(
        "WyafsW",
        "d4",
        &board("d5", ""),
        "d3 c4 e4 c2 b1 e2 f1 f5 g6 h7 f3 g2 h1 b5 a6 b3 a2",
    );
    // Hook mover on a 4x4 board.
    let b4 = Board {
        files: 4,
        ranks: 4,
        friends: "",
        foes: "",
    };
    check(
        "RmasR",
        "a1",
        &b4,
        "a2 a3 a4 b1 c1 d1 b2 c2 d2 b3 c3 d3 b4 c4 d4",
    );
    let b4 = Board {
        friends: "b1",
        ..b4
    };
    check("RmasR", "a1", &b4, "a2 a3 a4 b2 c2 d2 b3 c3 d3 b4 c4 d4");
}

#[test]
fn lion_dog() {
    let ld = "KADcavKmcpafmcpavK";
    let near = "c3 c4 c5 d3 d5 e3 e4 e5 b2 b6 f2 f6 d2 d6 b4 f4";
    check(
        ld,
        "d4",
        &EMPTY8,
        &format!("{near} d7 d1 a4 g4 a7 g7 a1 g1"),
    );
    // Capture an adjacent foe and go on in line, or come back (igui).
    check("cavK", "d4", &board("", "d5"), "d6 d4");
    // A friend on d5 is hopped by the line moves.
    check(
        ld,
        "d4",
        &board("d5", ""),
        &format!("{near} d7 d1 a4 g4 a7 g7 a1 g1").replace("d5 ", ""),
    );
}

#[test]
fn riders_hoppers_and_leapers() {
    check("gQ", "d4", &board("d6", "f6"), "d7 g7");
    on_empty("gQ", "d4", "");
    on_empty("NN", "a1", "b3 c5 d7 c2 e3 g4");
    check("NN", "a1", &board("c5", ""), "b3 c2 e3 g4");
    on_empty("N0", "a1", "b3 c5 d7 c2 e3 g4");
    on_empty("C", "d4", "c1 e1 c7 e7 a3 a5 g3 g5");
    on_empty("Z", "d4", "b1 f1 b7 f7 a2 a6 g2 g6");
    on_empty("W3", "d4", "d1 d2 d3 d5 d6 d7 a4 b4 c4 e4 f4 g4");
    on_empty("(4,1)", "d4", "c8 e8 h3 h5");
    on_empty("W03", "d4", "d7 d1 a4 g4");
    check("W03", "d4", &board("d5", ""), "d1 a4 g4");
    check(
        "jR",
        "a1",
        &board("a2", ""),
        "a3 a4 a5 a6 a7 a8 c1 d1 e1 f1 g1 h1",
    );
    check("jD", "d4", &board("d5", ""), "d6");
    on_empty("pW", "d4", "");
    check("pW", "d4", &board("d5", ""), "d6");
}

#[test]
fn oblique_and_king_directions() {
    on_empty("fN", "d4", "c6 e6");
    on_empty("bN", "d4", "c2 e2");
    on_empty("sN", "d4", "b3 b5 f3 f5");
    on_empty("vN", "d4", "c2 e2 c6 e6");
    on_empty("fsN", "d4", "b5 f5");
    on_empty("frN", "d4", "f5");
    on_empty("rfN", "d4", "e6");
    on_empty("ffN", "d4", "c6 e6");
    on_empty("fhN", "d4", "c6 e6 b5 f5");
    on_empty("hrN", "d4", "e6 f3 c2 b5");
    on_empty("hlN", "d4", "f5 e2 b3 c6");
    on_empty("fK", "d4", "d5");
    on_empty("fsK", "d4", "c5 e5");
    on_empty("frK", "d4", "e5");
    on_empty("frF", "d4", "e5");
    on_empty("fF", "d4", "c5 e5");
    on_empty("lF", "d4", "c3 c5");
    on_empty("fsW", "d4", "d5 c4 e4");
    on_empty("frW", "d4", "d5 e4");
    on_empty("sQ", "d4", "a4 b4 c4 e4 f4 g4 h4");
}

#[test]
fn special_rights() {
    let t = compiled("fkR", 7);
    assert!(t
        .nodes
        .iter()
        .all(|n| n.rights == variants::rights::CHECK_ONLY));
    let t = compiled("tQ", 7);
    assert!(t
        .nodes
        .iter()
        .all(|n| n.rights & variants::rights::TAME != 0));
    let t = compiled("cafmF", 7);
    assert!(t
        .nodes
        .iter()
        .any(|n| n.rights & variants::rights::LOCUST_FOE != 0));
    let t = compiled("imfnA", 7);
    assert!(t
        .roots
        .iter()
        .all(|&r| t.nodes[r as usize].rights & variants::rights::INITIAL != 0));
    assert_eq!(
        t.nodes
            .iter()
            .filter(|n| n.rights & variants::rights::SETS_EP != 0)
            .count(),
        2
    );
    assert_eq!(compiled("isO2", 7).nodes.len(), 0);
}

fn bad(text: &str, column: usize, msg: &str) {
    match parse(text) {
        Ok(b) => panic!("{text} parsed as {b:?}"),
        Err(e) => {
            assert_eq!(e.column, column, "{text}: {e}");
            assert!(e.message.contains(msg), "{text}: {e}");
        }
    }
}

#[test]
fn malformed() {
    bad("", 1, "empty");
    bad("W#", 2, "unknown character '#'");
    bad("fm", 1, "modifiers without an atom");
    bad("NNfm", 3, "modifiers without an atom");
    bad("(4,1", 1, "unbalanced parenthesis");
    bad("(4,", 1, "unbalanced parenthesis");
    bad("(0,0)", 1, "bad leap vector (0,0)");
    bad("(4;1)", 3, "expected ','");
    bad("(20,1)", 2, "component 20 is larger");
    bad("W99", 2, "too large");
    bad("W00", 2, "exact range must be at least 1");
    bad("hW", 1, "not meaningful");
    bad("fhF", 2, "not meaningful");
    bad("hN", 1, "'h' on an oblique atom");
    bad("X", 1, "unknown atom 'X'");
    bad("oW", 1, "unsupported modifier 'o'");
    bad("wW", 1, "unknown modifier 'w'");
    bad("[W]", 1, "bracket groups");
    bad("W)", 2, "unbalanced parenthesis");
    bad("O", 1, "castling needs a distance");
    bad("mO2", 1, "castling takes only");
    bad("NN2", 3, "range given twice");
    bad("3W", 1, "number must follow an atom");
    bad("yW", 2, "'y' is only meaningful");
    bad("njN", 3, "exclude each other");
    bad("mamamamaW", 8, "too many legs");
    bad("maiW", 3, "'i' (initial)");
    bad("Wé", 2, "unknown character 'é'");
}

#[test]
fn huge_descriptions_stay_bounded() {
    for (text, range) in [("yamayaK", 3), ("pQ0", 15), ("mamaQ", 3)] {
        let t = compile(&parse(text).unwrap(), range);
        let t = t.unwrap_or_else(|e| panic!("{text}: {e}"));
        assert!(t.nodes.len() <= MAX_NODES, "{text}");
        assert!(t.roots.iter().all(|&r| (r as usize) < t.nodes.len()));
    }
}

#[test]
fn a_forest_too_large_is_an_error_at_its_move() {
    // (text, max range, column of the move that overflows)
    let cases = [
        ("mamaQ", 7, 1),     // 3 legs of 7-step queen moves: 137,256 nodes
        ("WmamaQ", 7, 2),    // the same after a wazir
        ("mamamaQ", 255, 1), // stops building at the budget
        ("QQmasmasmasQ", 255, 3),
        ("mamaR", 15, 1),
        ("KyamayaK", 255, 2),
        ("pQ0", 255, 1),
    ];
    for (text, range, column) in cases {
        let b = parse(text).unwrap();
        match compile(&b, range) {
            Ok(t) => panic!("{text}: compiled to {} nodes", t.nodes.len()),
            Err(e) => {
                assert_eq!(e.column, column, "{text}: {e}");
                assert!(e.message.contains("too large"), "{text}: {e}");
            }
        }
    }
    // Repeating a move adds nothing: `QaQaQ` is Q, aQ and aQ again, the same as `QaQ`.
    assert_eq!(compiled("QaQaQ", 7), compiled("QaQ", 7));
    assert!(compiled("QaQ", 7).nodes.len() < MAX_NODES);
}
