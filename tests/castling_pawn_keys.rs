//! Fairy-Stockfish's castling and pawn keys as Locust plays them (issue 44): `castlingRank`
//! and the castling rook files (shako), `oppositeCastling`, `nMoveRuleTypes` (pawnback),
//! FSF's `i` on a custom piece (from `doubleStepRegion`, pawnsideways), `tripleStepRegion`
//! and `pawnTypes`. Every expected count and FEN below is what pyffish (Fairy-Stockfish
//! 0.0.90) or the newest Fairy-Stockfish's `go perft` gives for the same position and
//! moves; the reference generator counts too.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{ini_variant, variant};
use locust::game::Game;

/// The FEN after playing `moves` (UCI) from `fen`.
fn after(v: &variants::Variant, fen: &str, moves: &[&str]) -> String {
    let mut g = Game::from_fen(v.clone(), fen).unwrap();
    for m in moves {
        let mv = g
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{m}: {e:?} in {fen}"));
        g.play(mv);
    }
    g.position().fen()
}

#[test]
fn shako_castles_on_its_second_rank() {
    let v = variant("shako");
    let fen = "c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ER3K2RE/C8C w KQkq - 0 1";
    // Both castlings (f2h2, f2d2) are among White's 54 moves.
    assert_eq!(common::perft_both(&v, fen, 1), 54);
    assert_eq!(common::perft_both(&v, fen, 2), 3132);
    let castled = after(&v, fen, &["f2h2"]);
    assert!(
        castled.starts_with("c8c/ernbqkbnre/pppppppppp/10/10/10/10/PPPPPPPPPP/ER4RK1E/C8C b kq "),
        "{castled}"
    );
}

#[test]
fn opposite_castling_takes_the_same_side_from_the_opponent() {
    let v = ini_variant("[opposite-castling:chess]\noppositeCastling = true\n");
    let fen = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1";
    // FSF's `go perft 3` (chess: 15206, Black castling after White on the same side).
    assert_eq!(common::perft_both(&v, fen, 3), 15121);
    for (mv, rights, count) in [("e1g1", " b q ", 600), ("e1c1", " b k ", 552)] {
        let next = after(&v, fen, &[mv]);
        assert!(next.contains(rights), "{mv}: {next}");
        assert_eq!(common::perft_both(&v, &next, 2), count, "{next}");
    }
}

#[test]
fn pawnback_a_backward_pawn_step_does_not_restart_the_count() {
    let v = variant("pawnback");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 3 5";
    assert_eq!(
        after(&v, fen, &["g8f6", "e4e3"]),
        "rnbqkb1r/pppppppp/5n2/8/8/4P3/PPPP1PPP/RNBQKBNR b KQkq - 5 6"
    );
    // Without the key a pawn move restarts it, as in chess.
    let chess = variant("chess");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq - 3 5";
    assert!(after(&chess, fen, &["g8f6", "e2e3"]).ends_with(" 0 6"));
}

#[test]
fn pawnsideways_a_pawn_double_steps_wherever_it_stands_on_its_second_rank() {
    let v = variant("pawnsideways");
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let moves = ["e2e4", "a7a6", "e4e5", "a6a5", "d2e2", "h7h6"];
    let fen = after(&v, start, &moves);
    assert_eq!(
        fen,
        "rnbqkbnr/1pppppp1/7p/p3P3/8/8/PPP1PPPP/RNBQKBNR w KQkq - 0 4"
    );
    let mut g = Game::from_fen(v, &fen).unwrap();
    assert!(
        g.parse_move("e2e4").is_ok(),
        "the d-pawn now on e2 double-steps"
    );
}

#[test]
fn triple_steps_and_pawn_types_load_as_fairy_stockfish_reads_them() {
    // Wildebeest's pawn steps three from its second rank; both passed squares are e.p.
    // targets.
    let v = ini_variant(
        "[triple:chess]\nmaxFile = 8\nmaxRank = 8\ntripleStepRegionWhite = *2\n\
         tripleStepRegionBlack = *7\nstartFen = 4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1\n",
    );
    let fen = after(&v, "4k3/8/8/8/2p5/8/3P4/4K3 w - - 0 1", &["d2d5"]);
    let mut g = Game::from_fen(v.clone(), &fen).unwrap();
    assert!(
        g.parse_move("c4d3").is_ok(),
        "{fen}: e.p. on the first passed square"
    );
    // pawnTypes names the custom pawn for promotion and the n-move rule.
    let v = ini_variant(
        "[pt:chess]\npawn = -\ncustomPiece1 = p:fmWfcF\npawnTypes = p\n\
         startFen = 4k3/8/8/8/8/8/3P4/4K3 w - - 7 9\n",
    );
    assert!(after(&v, "4k3/8/8/8/8/8/3P4/4K3 w - - 7 9", &["d2d3"]).ends_with(" 0 9"));
    let fen = "k7/3P4/8/8/8/8/8/4K3 w - - 0 1";
    assert_eq!(
        common::perft_both(&v, fen, 1),
        5 + 4,
        "four promotions besides the king's five"
    );
}

/// FSF's `pawnTypes` names the men that take en passant: one that is not FSF's pawn takes it
/// on the squares it attacks without moving there (xhess's `h`, `mfWcfFfhmnN`: on `cfF`).
/// The counts are Fairy-Stockfish's (newest build, `go perft 1` in xhess, same men).
#[test]
fn pawn_types_take_en_passant_as_fairy_stockfish_does() {
    let v = ini_variant(
        "[xh:chess]\nmaxRank = 10\nmaxFile = j\ncustomPiece2 = h:mfWcfFfhmnN\npawnTypes = h\n\
         promotionRegionWhite = *10\nstartFen = 4k5/10/10/10/2Hh6/10/10/10/10/4K5 w - - 0 1\n",
    );
    // The king's five steps and the h's four quiet moves; with d7 as e.p. square, c6xd7.
    assert_eq!(
        common::perft_both(&v, "4k5/10/10/10/2Hh6/10/10/10/10/4K5 w - - 0 1", 1),
        9
    );
    assert_eq!(
        common::perft_both(&v, "4k5/10/10/10/2Hh6/10/10/10/10/4K5 w - d7 0 1", 1),
        10
    );
}
