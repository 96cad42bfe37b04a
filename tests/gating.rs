//! Fairy-Stockfish's gating (`gating`, `seirawanGating`: seirawan, shouse; `cambodianMoves`:
//! cambodian, karouk) as Locust plays it:
//! random walks (engine = reference generator every ply, attack map and key equal to their
//! from-scratch twins after every make and unmake), the key covers the gates, moves and FENs
//! are written and read as FSF writes them (FENs below are pyffish 0.0.90's `get_fen` after
//! the same moves), cutechess's order of the castling field reads the same, and the table
//! generator refuses gates by name. Perft against FSF is in tests/fsf_builtin_perft.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{start, variant, walk_checked};
use locust::board::moves::Move;
use locust::board::position::Position;
use locust::egt::rules::Rules;
use locust::engine::notation::{self, Dialect};
use locust::game::Game;

const UCI: Dialect = Dialect::Uci { chess960: false };

#[test]
fn gated_walks_match_the_reference_and_scratch() {
    for (name, plies) in [
        ("seirawan", 80),
        ("shouse", 80),
        ("cambodian", 60),
        ("karouk", 60),
    ] {
        let rules = variant(name);
        let pos = Position::new_game(rules.clone()).expect("start FEN");
        for seed in 0..3 {
            walk_checked(name, pos.clone(), &rules, plies, 0x6A7E + seed);
        }
    }
}

/// Plays `moves` (FSF's texts) from the start of `name`; returns the game.
fn played(name: &str, moves: &[&str]) -> Game {
    let mut game = Game::new(variant(name)).unwrap();
    for text in moves {
        let m = notation::parse(&mut game, text, UCI).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(notation::write(game.position(), &m, UCI), *text);
        game.play(m);
        let pos = game.position();
        assert_eq!(pos.hash(), pos.compute_key(), "after {text}");
    }
    game
}

const CASTLE_READY: [&str; 6] = ["g1f3", "g8f6", "e2e3", "e7e6", "f1e2", "f8e7"];

/// Gating moves as FSF writes them, and FSF's FEN after them: the gated man on the square
/// left, the gate closed, castling gating on the king's square (`e1g1h`) or the rook's
/// (`h1e1e`), the gate letters a castling letter no longer implies (`ABCD`).
#[test]
fn gated_moves_and_fens_are_fsf_s() {
    let game = played("seirawan", &["b1c3h"]);
    assert_eq!(
        game.position().fen(),
        "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/RHBQKBNR[Eeh] b KQCDFGkqbcdfg - 1 1"
    );
    for (last, fen) in [
        (
            "e1g1h",
            "rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQHRK1[Eeh] b ABCDkqbcd - 3 4",
        ),
        (
            "h1e1e",
            "rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQ1RKE[Heh] b ABCDkqbcd - 3 4",
        ),
        (
            "e1g1",
            "rnbqk2r/ppppbppp/4pn2/8/8/4PN2/PPPPBPPP/RNBQ1RK1[EHeh] b ABCDkqbcd - 3 4",
        ),
    ] {
        let mut moves = CASTLE_READY.to_vec();
        moves.push(last);
        let game = played("seirawan", &moves);
        assert_eq!(
            sorted_hand(&game.position().fen()),
            sorted_hand(fen),
            "{last}"
        );
    }
    // FSF's king and rook moves there: each plain move and its two gated forms, and the
    // rook-square gating of castling.
    let mut game = played("seirawan", &CASTLE_READY);
    let mut texts: Vec<String> = (game.legal_moves().iter())
        .map(|m| notation::write(game.position(), m, UCI))
        .filter(|t| t.starts_with("e1") || t.starts_with("h1"))
        .collect();
    texts.sort();
    let mut want = vec![
        "h1f1", "h1f1h", "h1f1e", "h1g1", "h1g1h", "h1g1e", "e1f1", "e1f1h", "e1f1e", "e1g1",
        "e1g1h", "e1g1e", "h1e1h", "h1e1e",
    ];
    want.sort();
    assert_eq!(texts, want);
    // S-house: captured men gate too; the gates stay with an empty hand.
    let game = played(
        "shouse",
        &["e2e4", "d7d5", "e4d5", "d8d5", "b1c3h", "d5d2", "c1d2"],
    );
    assert_eq!(
        sorted_hand(&game.position().fen()),
        sorted_hand("rnb1kbnr/ppp1pppp/8/8/8/2N5/PPPB1PPP/RH1QKBNR[EQPehpp] b KQDFGkqbcfg - 0 4")
    );
}

/// Cambodian first moves and their gates as FSF plays and writes them (pyffish's FENs):
/// the king's knight leap forward, lost when the king moves or a rook lines up with it
/// (whatever stands between); the met's jump; neither from check, nor onto a man.
#[test]
fn cambodian_moves_and_gates_are_fsf_s() {
    for (moves, fen) in [
        (
            &["a1a2", "a6a5", "a2e2"][..],
            "rnsmksnr/8/1ppppppp/p7/8/PPPPPPPP/4R3/1NSKMSNR b DEd - 1 2",
        ),
        (
            &["a1a2", "a6a5", "a2d2"][..],
            "rnsmksnr/8/1ppppppp/p7/8/PPPPPPPP/3R4/1NSKMSNR b DEde - 1 2",
        ),
        (
            &["d1b2"][..],
            "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1 1",
        ),
        (
            &["d1f2", "e8c7"][..],
            "rnsm1snr/2k5/pppppppp/8/8/PPPPPPPP/5K2/RNS1MSNR w Ed - 2 2",
        ),
        (
            &["a1a2", "e8g7", "a2g2", "h8h7", "g2e2"][..],
            "rnsm1sn1/6kr/pppppppp/8/8/PPPPPPPP/4R3/1NSKMSNR b DEd - 5 3",
        ),
    ] {
        let game = played("cambodian", moves);
        assert_eq!(game.position().fen(), fen, "{moves:?}");
    }
    let game = played("karouk", &["d1b2"]);
    assert_eq!(
        game.position().fen(),
        "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/1K6/RNS1MSNR b Ede - 1+1 1 1"
    );
    let legal = |fen: &str| {
        let mut g = Game::from_fen(variant("cambodian"), fen).unwrap();
        let mut t: Vec<String> = (g.legal_moves().iter())
            .map(|m| notation::write(g.position(), m, UCI))
            .collect();
        t.sort();
        t
    };
    assert_eq!(
        legal("4k3/8/8/8/8/8/8/3KM3 w DE - 0 1"),
        ["d1b2", "d1c1", "d1c2", "d1d2", "d1e2", "d1f2", "e1d2", "e1e3", "e1f2"]
    );
    assert_eq!(
        legal("4k3/8/8/8/8/8/8/r2KM3 w DE - 0 1"),
        ["d1c2", "d1d2", "d1e2"]
    );
}

/// The FEN with its holdings in a fixed order (FSF and Locust list a hand in their own
/// piece orders).
fn sorted_hand(fen: &str) -> String {
    let (board, rest) = fen.split_once('[').unwrap();
    let (hand, tail) = rest.split_once(']').unwrap();
    let mut h: Vec<char> = hand.chars().collect();
    h.sort();
    format!("{board}[{}]{tail}", h.into_iter().collect::<String>())
}

/// The key tells gates apart; cutechess's castling field (gate files first) reads as FSF's;
/// without men in hand the gates are not written.
#[test]
fn fens_and_keys_of_gates() {
    let s = start("seirawan");
    let fsf = s
        .with_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1")
        .unwrap();
    let cute = s
        .with_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[EHeh] w BCDFGbcdfgKQkq - 0 1")
        .unwrap();
    assert_eq!(fsf.fen(), cute.fen());
    assert_eq!(fsf.hash(), cute.hash());
    let fewer = s
        .with_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFkqbcdfg - 0 1")
        .unwrap();
    assert_ne!(fewer.hash(), fsf.hash());
    assert_eq!(fewer.hash(), fewer.compute_key());
    assert!(fewer.fen().contains(" KQBCDFkqbcdfg "), "{}", fewer.fen());
    let bare = s
        .with_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[he] w KQBCDFGkqbcdfg - 0 1")
        .unwrap();
    assert!(bare.fen().contains(" KQkqbcdfg "), "{}", bare.fen());
    // A gate mark in a variant without gating is no castling right.
    assert!(start("chess")
        .with_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQBkq - 0 1")
        .is_err());
}

/// A gated move is legal when its plain form is (FSF): the gated man does not shield its
/// own king. Here the knight on d1 is pinned by the rook on a1; gating on d1 would block
/// the rank, yet neither the knight's move nor its gated forms are legal.
#[test]
fn the_gated_man_is_no_shield() {
    let mut game =
        Game::from_fen(variant("seirawan"), "4k3/8/8/8/8/8/8/r2NK3[H] w D - 0 1").unwrap();
    let knight: Vec<Move> = (game.legal_moves().into_iter())
        .filter(|m| m.from_coord().to_text() == "d1")
        .collect();
    assert!(knight.is_empty(), "{knight:?}");
}

#[test]
fn the_table_generator_refuses_gates() {
    for name in ["seirawan", "shouse", "cambodian", "karouk"] {
        let e = Rules::new(&variant(name), None, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("gating") || e.contains("drops"), "{name}: {e}");
    }
    for name in ["seirawan", "cambodian"] {
        let e = Rules::new(&variant(name), None, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("gating"), "{name}: {e}");
    }
}

/// Game ends from seeded random playouts of pyffish 0.0.90 (seeds 1 to 5, uniform legal
/// moves until none is left): from the FEN one move before the end the game goes on; after
/// FSF's last move the side to move's result is pyffish's `game_result` (-32000: loss).
/// Karouk's first check wins; the others end by mate.
#[test]
fn game_ends_equal_pyffish() {
    for (name, fen, last) in [
        (
            "karouk",
            "1n3sr1/r1sk4/pp3pp1/P4nPp/1PN1M3/3PPNmP/R1S2M2/S3K2R b - - 1+1 4 34",
            "g3f2",
        ),
        (
            "karouk",
            "rk1m2n1/r7/pS1s3p/PPP1pP2/2K2M1n/2N4S/8/R4R2 w - - 1+1 0 53",
            "b6a7",
        ),
        (
            "seirawan",
            "1eq3nr/nrp1p1bk/b3P3/p2p4/P1B2Q2/2Np3P/1PP2KP1/RHBR4[] w - - 4 38",
            "f4f5",
        ),
        (
            "shouse",
            "N1B2H~RQ~/r5Rp/1N1pPpHb/qPk1hep1/n~pe1b1Qp/1PN1P1p1/5b1P/2R2K1N[p] b - - 1 127",
            "c4e3",
        ),
        (
            "cambodian",
            "8/M1r3N1/6n1/7p/7P/5k1s/8/m4K2 b - - 8 108",
            "c7c1",
        ),
    ] {
        let mut game = Game::from_fen(variant(name), fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
        assert_eq!(common::result_for_mover(&mut game), "on", "{name}: {fen}");
        let mv = notation::parse(&mut game, last, UCI).unwrap_or_else(|e| panic!("{name}: {e}"));
        game.play(mv);
        assert_eq!(
            common::result_for_mover(&mut game),
            "loss",
            "{name}: {fen} ; {last}"
        );
    }
}
