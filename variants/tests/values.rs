//! Piece values: estimated ones of user-defined pieces (every piece that can move gets a value on
//! the scale of the standard pieces, hoppers included), and endgame values from `pieceValueEg`.

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

/// (middle game, endgame) value of a piece of a variant section.
fn values_in(file: &str, letter: char) -> (i32, i32) {
    let v = &load_str(file, "eg.ini").unwrap()[0];
    let p = v.pieces.iter().find(|p| p.letter == letter).unwrap();
    (p.value, p.value_eg)
}

#[test]
fn endgame_values_come_from_piece_value_eg() {
    // FSF's `pieceValueEg` is on its own scale (pawn = 208): 2080 is ten pawns. It sets the
    // endgame value only; the middle game keeps the queen's default.
    let file = "[eg:chess]\npieceValueEg = q:2080\n";
    let (queen_mg, queen_eg) = values_in(file, 'Q');
    assert_eq!(queen_eg, 1000);
    assert_ne!(queen_mg, 1000);
    assert_eq!(values_in("[eg:chess]\n", 'Q').0, queen_mg);
    // A piece the key does not name is worth its middle-game value in the endgame too, also
    // when `pieceValue` sets that value.
    let file = "[eg:chess]\npieceValue = n:321\npieceValueEg = q:2080\n";
    assert_eq!(values_in(file, 'N'), (321, 321));
    // Both keys on one piece: each phase its own.
    let file = "[eg:chess]\npieceValue = r:500\npieceValueEg = r:1248\n";
    assert_eq!(values_in(file, 'R'), (500, 600));
}

#[test]
fn a_child_s_own_piece_value_outranks_an_inherited_endgame_value() {
    // The parent's endgame value for `b` belongs to its bishop; a child that values its `b`
    // itself (Locust's `pieceValue`) keeps that value in both phases.
    let file = "[parent:chess]\npieceValueEg = b:1040\n[child:parent]\npieceValue = b:110\n";
    let all = load_str(file, "eg.ini").unwrap();
    let child = all.iter().find(|v| v.name == "child").unwrap();
    let b = child.pieces.iter().find(|p| p.letter == 'B').unwrap();
    assert_eq!((b.value, b.value_eg), (110, 110));
    let parent = all.iter().find(|v| v.name == "parent").unwrap();
    let b = parent.pieces.iter().find(|p| p.letter == 'B').unwrap();
    assert_eq!(b.value_eg, 500);
}
