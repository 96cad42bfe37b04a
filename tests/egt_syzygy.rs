//! Chess tables against Syzygy's, an independent generator: the win, draw or loss of random
//! positions per material (and, where exact, the distance) as kept in
//! tests/data/egt/syzygy-wdl.txt, which tools/syzygy-sample.py made with python-chess from
//! tables built by syzygy1/tb's rtbgen.

#![allow(clippy::unwrap_used)]

use locust::egt::rules::Rules;
use locust::egt::solve::Metric;
use locust::egt::value::{describe, is_loss, is_win, plies, DRAW};
use locust::egt::{Builder, Settings};
use variants::Variant;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/egt/syzygy-wdl.txt");

/// One line of the data file: a position and Syzygy's values for it.
struct Row {
    material: String,
    fen: String,
    /// Side to move's view: 2 win, 1 win spoilt by the 50-move rule, 0 draw, -1, -2 losses.
    wdl: i8,
    /// python-chess's `probe_dtz`: plies to a zeroing move (capture, pawn move) or mate,
    /// signed as `wdl`.
    dtz: i32,
}

impl Row {
    /// Men on the board, kings included.
    fn men(&self) -> usize {
        self.material.len() - 1
    }

    fn pawns(&self) -> bool {
        self.material.contains('P')
    }
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(DATA).unwrap();
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(';').collect();
        assert_eq!(f.len(), 4, "line {}: {line}", n + 1);
        rows.push(Row {
            material: f[0].to_string(),
            fen: f[1].to_string(),
            wdl: f[2].parse().unwrap(),
            dtz: f[3].parse().unwrap(),
        });
    }
    rows
}

fn chess() -> Variant {
    let all = variants::builtins().unwrap();
    variants::find(&all, "chess").unwrap().clone()
}

/// A builder keeping its tables in memory, so that each material's sub-tables are built
/// once for all its positions and for the materials after it.
fn builder(v: &Variant, metric: Metric) -> Builder {
    let settings = Settings {
        metric,
        threads: 2,
        ..Settings::default()
    };
    Builder::new(Rules::new(v, None, false).unwrap(), settings)
}

/// The value code of each row's position, from the side to move, as `egt probe` gives it
/// (with an en passant capture open, the better of the table's value and the capture's).
/// Also whether the side to move has no legal move.
fn codes<'a>(metric: Metric, rows: &[&'a Row]) -> Vec<(&'a Row, u8, bool)> {
    let v = chess();
    let mut b = builder(&v, metric);
    rows.iter()
        .map(|r| {
            let mut game = locust::game::Game::from_fen(v.clone(), &r.fen).unwrap();
            let (own, moves) = locust::egt::probe::probe(&mut b, &mut game).unwrap();
            (*r, own, moves.is_empty())
        })
        .collect()
}

/// Whether a Locust value has Syzygy's outcome. Locust has no 50-move rule, so Syzygy's
/// cursed wins and blessed losses (1, -1) are plain wins and losses to it.
fn same_outcome(wdl: i8, code: u8) -> bool {
    match wdl {
        1 | 2 => is_win(code),
        0 => code == DRAW,
        _ => is_loss(code),
    }
}

/// Checks every row with more than `least` and at most `most` men and panics listing the
/// disagreements; returns how many positions and materials were compared.
fn wdl_agrees(least: usize, most: usize) -> (usize, usize) {
    let all = rows();
    let picked: Vec<&Row> = all
        .iter()
        .filter(|r| r.men() > least && r.men() <= most)
        .collect();
    let bad: Vec<String> = codes(Metric::Dtm, &picked)
        .into_iter()
        .filter(|(r, code, _)| !same_outcome(r.wdl, *code))
        .map(|(r, code, _)| {
            format!(
                "{} {}: Syzygy WDL {}, Locust {}",
                r.material,
                r.fen,
                r.wdl,
                describe(code)
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} positions disagree with Syzygy:\n{}",
        bad.len(),
        picked.len(),
        bad.join("\n")
    );
    let mut materials: Vec<&str> = picked.iter().map(|r| r.material.as_str()).collect();
    materials.sort_unstable();
    materials.dedup();
    (picked.len(), materials.len())
}

#[test]
fn three_and_four_men_agree_with_syzygy() {
    let (positions, materials) = wdl_agrees(2, 4);
    // Every 3- and 4-man chess material (KvK aside), so that a shortened file shows.
    assert_eq!(materials, 35);
    assert!(positions > 10_000, "only {positions} positions");
}

/// KBBvKN (with wins and losses the 50-move rule spoils), KRBvKR, KRNvKR and KRPvKR.
#[test]
#[ignore = "5 men: about 2 minutes (KRPvKR builds its four 5-man promotion tables first)"]
fn five_men_agree_with_syzygy() {
    let (positions, materials) = wdl_agrees(4, 5);
    assert_eq!(materials, 4);
    assert!(positions > 1_000, "only {positions} positions");
}

/// The DTC distance in plies that Locust files for a position Syzygy gives `dtz` (from
/// tables made with rtbgen's `-p`, exact in plies). In a pawnless table a zeroing move is a
/// capture, DTC's conversion, so the distances are the same, but Locust files wins at odd
/// plies and losses at even ones (one byte spans 126 moves): a win Syzygy counts in an even
/// number of plies, or a loss in an odd one (the loser makes the converting capture, as the
/// bare king taking a man it is given in KQRvK), is one ply longer in Locust. A mated side
/// has no move: DTZ -1 in python-chess, no distance in Locust.
fn dtc_plies(dtz: i32, no_move: bool) -> i32 {
    match dtz {
        d if d > 0 => d | 1,
        _ if no_move => 0,
        d => -d + (-d & 1),
    }
}

/// Checks Locust's DTC against Syzygy's DTZ in every pawnless row with more than `least`
/// and at most `most` men that is won or lost within the 50-move rule, and panics listing
/// the disagreements; returns how many positions were compared. (With pawns a pawn's step
/// zeroes Syzygy's count but is no conversion. Where the 50-move rule decides, Syzygy's
/// count is another metric; in a position it does not decide it decides no position of the
/// best line either, since the sub-tables of up to four men have no such positions.)
fn dtc_agrees(least: usize, most: usize) -> usize {
    let all = rows();
    let picked: Vec<&Row> = all
        .iter()
        .filter(|r| r.men() > least && r.men() <= most && !r.pawns() && r.wdl.abs() == 2)
        .collect();
    let bad: Vec<String> = codes(Metric::Dtc, &picked)
        .into_iter()
        .filter(|(r, code, no_move)| {
            let side = if r.dtz > 0 {
                is_win(*code)
            } else {
                is_loss(*code)
            };
            !side || plies(*code) as i32 != dtc_plies(r.dtz, *no_move)
        })
        .map(|(r, code, _)| {
            format!(
                "{} {}: Syzygy DTZ {}, Locust DTC {}",
                r.material,
                r.fen,
                r.dtz,
                describe(code)
            )
        })
        .collect();
    assert!(
        bad.is_empty(),
        "{} of {} positions disagree with Syzygy's DTZ:\n{}",
        bad.len(),
        picked.len(),
        bad.join("\n")
    );
    picked.len()
}

#[test]
fn pawnless_dtc_equals_syzygy_dtz() {
    let n = dtc_agrees(2, 4);
    assert!(n > 4_000, "only {n} positions");
}

#[test]
#[ignore = "5 men: about 40 s for KBBvKN, KRBvKR and KRNvKR under DTC"]
fn five_men_pawnless_dtc_equals_syzygy_dtz() {
    let n = dtc_agrees(4, 5);
    assert!(n > 500, "only {n} positions");
}
