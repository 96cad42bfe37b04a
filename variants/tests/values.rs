//! Estimated piece values of user-defined pieces: every piece that can move gets a value on
//! the scale of the standard pieces, hoppers included.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use variants::load_str;

/// A chess variant with two custom pieces: a cannon that moves and captures only by hopping
/// (janggi's), and a grasshopper.
const FILE: &str = "[hoppers:chess]\ncustomPiece1 = c:pR\ncustomPiece2 = g:gQ\n\
startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";

fn value_of(letter: char) -> i32 {
    let v = &load_str(FILE, "hoppers.ini").unwrap()[0];
    v.pieces
        .iter()
        .find(|p| p.letter == letter)
        .map(|p| p.value)
        .expect("piece defined")
}

#[test]
fn hoppers_are_valued_on_the_rooks_scale() {
    // On an empty board neither hopper has a move; valued there they were worth nothing, and
    // the search gave them away. The cannon, a rook's reach once it has a screen, is worth a
    // fair part of a rook (janggi's books: 7 against 13); the grasshopper, which lands just past its screen, at least a pawn.
    let rook = value_of('R');
    let pawn = value_of('P');
    let cannon = value_of('C');
    assert!(
        cannon > rook / 4 && cannon < rook,
        "cannon {cannon} against the rook's {rook}"
    );
    let grasshopper = value_of('G');
    assert!(
        grasshopper >= pawn && grasshopper < rook / 2,
        "grasshopper {grasshopper} against the pawn's {pawn}"
    );
}
