//! XBetza compiler tests: target sets of real pieces walked with `Trajectories::targets`,
//! round trips through the printer, and error reporting.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on their own fixtures
use std::collections::BTreeSet;
use variants::xbetza::{compile, parse, print};
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
        assert_eq!(compile(&again, 7), compile(&b, 7), "{text}");
        assert_eq!(compile(&again, 11), compile(&b, 11), "{text}");
    }
}
