//! Battle of the Kings has no peer engine: its move generation is checked against counts
//! derived by hand here (and against the reference generator in tests/perft.rs).

mod common;

use std::collections::BTreeSet;

use common::start;
use locust::board::moves::Move;
use locust::board::position::Position;

fn texts(pos: &mut Position) -> BTreeSet<String> {
    let (mut moves, mut ops) = (Vec::new(), Vec::new());
    pos.legal_moves(&mut moves, &mut ops);
    let letter = |p: u8| pos.variant().pieces[p as usize].letter;
    moves.iter().map(|m: &Move| m.text(letter)).collect()
}

fn set(s: &str) -> BTreeSet<String> {
    s.split_whitespace().map(String::from).collect()
}

#[test]
fn start_position_has_sixteen_pawn_moves() {
    let mut pos = start("battleotk");
    let expected =
        set("a2a3 a2a4 b2b3 b2b4 c2c3 c2c4 d2d3 d2d4 e2e3 e2e4 f2f3 f2f4 g2g3 g2g4 h2h3 h2h4");
    assert_eq!(texts(&mut pos), expected);
}

#[test]
fn a_moving_pawn_leaves_a_knight_and_a_knight_a_bishop() {
    let mut pos = start("battleotk");
    let mut ops = Vec::new();
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    pos.legal_moves(&mut moves, &mut scratch);
    let lay = pos.layout().clone();
    let letter = |p: u8| lay.variant.pieces[p as usize].letter;
    let e3 = *moves.iter().find(|m| m.text(letter) == "e2e3").unwrap();
    pos.make(&e3, &mut ops);
    assert_eq!(pos.fen(), "8/pppppppp/8/8/8/4P3/PPPPNPPP/8 b - - 0 1");
    // The new knight on e2 moves like a knight: c1, c3, d4, f4, g1, g3 (c3/g3 empty).
    let mut black = Vec::new();
    pos.legal_moves(&mut black, &mut scratch);
    let a6 = *black.iter().find(|m| m.text(letter) == "a7a6").unwrap();
    pos.make(&a6, &mut ops);
    let ours = texts(&mut pos);
    for m in ["e2c1", "e2c3", "e2d4", "e2f4", "e2g1", "e2g3"] {
        assert!(ours.contains(m), "knight move {m} missing");
    }
    assert_eq!(
        ours.len(),
        8 + 6 + 6 + 1,
        "7 pawns x2 steps, e3e4, 6 knight moves"
    );
}

#[test]
fn a_queen_may_not_leave_its_king_in_check() {
    // Every queen move leaves a king on d4, attacked by the e5 pawn, except Qxe5.
    let mut pos = start("battleotk")
        .with_fen("8/8/8/4p3/3Q4/8/8/8 w - - 0 1")
        .unwrap();
    assert_eq!(texts(&mut pos), set("d4e5"));
}
