//! The pawn-structure terms (src/eval/structure.rs) seen from outside: each weight moves the
//! score by exactly what its definition says, on positions built to hold the feature.

#![allow(clippy::expect_used)] // tests may panic on their own fixtures

mod common;

use locust::eval::params::Weights;
use locust::eval::EvalTables;

/// How much the evaluation of `fen` (chess, White to move) rises when `change` is applied to
/// the engine's weights.
fn rise(fen: &str, change: impl Fn(&mut Weights)) -> i32 {
    let start = common::start("chess");
    let pos = start.clone().with_fen(fen).expect("test FEN");
    let mut w = Weights::DEFAULT;
    change(&mut w);
    let changed = EvalTables::with_weights(start.layout(), &start, w).evaluate(&pos);
    changed - EvalTables::new(start.layout(), &start).evaluate(&pos)
}

// The endgame positions below have so little material that only the endgame weights count.

#[test]
fn a_rook_on_a_file_without_pawns_earns_the_open_file_weight() {
    let open = "4k3/8/8/8/8/8/3P4/R3K3 w - - 0 1";
    assert_eq!(rise(open, |w| w.open_file_eg += 10), 10);
    assert_eq!(rise(open, |w| w.half_open_file_eg += 10), 0);
    // An enemy pawn on the file: half open.
    let half = "4k3/p7/8/8/8/8/3P4/R3K3 w - - 0 1";
    assert_eq!(rise(half, |w| w.half_open_file_eg += 10), 10);
    // Its own pawn in front: neither.
    let closed = "4k3/8/8/8/8/8/P7/R3K3 w - - 0 1";
    assert_eq!(rise(closed, |w| w.open_file_eg += 10), 0);
    assert_eq!(rise(closed, |w| w.half_open_file_eg += 10), 0);
}

#[test]
fn doubled_and_isolated_pawns_pay_their_weights() {
    // Two white e-pawns: both isolated, the rear one doubled.
    let fen = "4k3/8/8/8/8/4P3/4P3/4K3 w - - 0 1";
    assert_eq!(rise(fen, |w| w.doubled_eg += 10), -10);
    assert_eq!(rise(fen, |w| w.isolated_eg += 10), -20);
    // e3 and d2: a chain, neither doubled nor isolated; e3 is defended (counted at its rank).
    let chain = "4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1";
    assert_eq!(rise(chain, |w| w.doubled_eg += 10), 0);
    assert_eq!(rise(chain, |w| w.isolated_eg += 10), 0);
    // e3 is on the third rank (index 2): 4 x (2 + 4) / 4.
    assert_eq!(rise(chain, |w| w.connected_eg += 4), 6);
}

#[test]
fn bishops_on_both_colours_make_the_pair() {
    assert_eq!(
        rise("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", |w| w.pair_eg += 10),
        10
    );
    // Both on dark squares (c1 and d2): no pair.
    assert_eq!(
        rise("4k3/8/8/8/8/8/3B4/2B1K3 w - - 0 1", |w| w.pair_eg += 10),
        0
    );
}

#[test]
fn pawns_in_front_of_the_king_shelter_it() {
    // Full material (middle game): White's king has d2, e2 and f2 in front, Black's none
    // (its d, e and f pawns stand on the fifth rank).
    let fen = "rnbqkbnr/ppp3pp/8/3ppp2/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    assert_eq!(rise(fen, |w| w.shelter_near += 10), 30);
    assert_eq!(rise(fen, |w| w.shelter_far += 10), 0);
}
