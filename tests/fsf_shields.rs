//! A move's own wall shielding pseudo-royal men, as Fairy-Stockfish tests legality under
//! `extinctionPseudoRoyal` with a walling rule (its variants.ini section atomicduck): the new
//! wall blocks checks and the lifted duck does not; a castling king's start and the squares
//! it crosses are judged with the wall. Perft equals the newest FSF's `go perft` with the
//! engine (and with the reference generator where the count is small enough for a test) on
//! positions at the rule's edges and at the ends of random games; game results equal
//! pyffish's; random walks agree with the reference generator
//! (tests/data/perft/fsf_shields.txt, made by tools/fsf-shields-data.py).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod peers;

use common::walk_checked;
use locust::board::position::Position;
use locust::board::reference::{perft as ref_perft, RefBoard};
use locust::engine::notation::{self, Dialect};
use locust::game::Game;
use locust::perft::perft;
use variants::Variant;

const DATA: &str = include_str!("data/perft/fsf_shields.txt");
const SECTION: &str = "atomicduck";
/// Largest count the reference generator is asked to confirm (it is slow).
const REFERENCE_MAX: u64 = 300_000;
/// Plies of each random walk.
const WALK_PLIES: usize = 40;

fn section(test: &str) -> Option<Variant> {
    let sections = peers::fsf_sections(test);
    peers::builtin_or_section(SECTION, &sections)
}

fn played(v: &Variant, fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    for m in moves {
        let mv = notation::parse(&mut game, m, Dialect::Uci { chess960: false });
        game.play(mv.unwrap_or_else(|e| panic!("{e}: {m}")));
    }
    game
}

#[test]
fn perft_equals_fsf() {
    let Some(v) = section("perft_equals_fsf") else {
        return;
    };
    let rows: Vec<&str> = DATA
        .lines()
        .filter_map(|l| l.strip_prefix("perft "))
        .collect();
    assert!(rows.len() >= 10, "{} rows", rows.len());
    let mut confirmed = 0;
    for row in rows {
        let f: Vec<&str> = row.splitn(4, ' ').collect();
        let (depth, want) = (f[1].parse().unwrap(), f[2].parse::<u64>().unwrap());
        let pos = Position::new_game(v.clone()).unwrap().with_fen(f[3]);
        let pos = pos.unwrap_or_else(|e| panic!("{e}: {row}"));
        assert_eq!(perft(&mut pos.clone(), depth), want, "{row}");
        if want <= REFERENCE_MAX {
            let board = RefBoard::from_position(&pos);
            assert_eq!(ref_perft(&board, &v, depth), want, "reference: {row}");
            confirmed += 1;
        }
    }
    assert!(
        confirmed >= 4,
        "{confirmed} rows confirmed by the reference"
    );
}

#[test]
fn endings_equal_pyffish() {
    let Some(v) = section("endings_equal_pyffish") else {
        return;
    };
    let rows = common::ending_rows(DATA);
    assert!(rows.iter().any(|r| r.1 != "on"));
    for (_, want, fen, moves) in rows {
        let mut game = played(&v, fen, &moves);
        let got = common::result_for_mover(&mut game);
        assert_eq!(got, want, "{fen} ; {}", moves.join(" "));
    }
}

/// Walks from the hand-set positions agree with the reference generator move for move,
/// with map and key equal to a scratch build.
#[test]
fn walks_agree_with_the_reference() {
    let Some(v) = section("walks_agree_with_the_reference") else {
        return;
    };
    let fens = DATA.lines().filter_map(|l| l.strip_prefix("perft "));
    for (i, row) in fens.take(7).enumerate() {
        let fen = row.splitn(4, ' ').nth(3).unwrap();
        let pos = Position::new_game(v.clone())
            .unwrap()
            .with_fen(fen)
            .unwrap();
        walk_checked(SECTION, pos, &v, WALK_PLIES, 0x5A1D + i as u64);
    }
}
