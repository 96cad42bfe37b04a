//! Issue 44's third batch of Fairy-Stockfish rules as Locust plays them: `castlingWins`
//! (castle), `petrifyOnCaptureTypes` (petrified, nuclear), `piecePromotionOnCapture` (micro,
//! cetus), wolf's pawn with both promotions, shatar's mate rule, elgam's `diagonalLines`
//! (with its immobile `nC` man, soldier drops on the back ranks and drop mates, stalemate
//! and repetition lost). Game results equal
//! pyffish's `game_result` and perft equals the newest FSF's `go perft` (with the engine and
//! with the reference generator) on positions at the rules' edges and at the ends of random
//! games (tests/data/perft/fsf_rules3.txt, made by tools/fsf-rules3-data.py); random walks
//! agree with the reference generator. The start positions and playouts of every variant are
//! in fsf_builtin_perft.rs and fsf_ini_perft.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod peers;

use locust::board::position::Position;
use locust::board::reference::{perft as ref_perft, RefBoard};
use locust::perft::perft;

const DATA: &str = include_str!("data/perft/fsf_rules3.txt");
/// Variants that must have a decided game in the data.
const DECIDED: &[&str] = &[
    "castle",
    "petrified",
    "nuclear",
    "wolf",
    "micro",
    "cetus",
    "shatar",
    "elgam",
];
/// Plies of each random walk.
const WALK_PLIES: usize = 120;

#[test]
fn endings_equal_pyffish() {
    let sections = peers::fsf_sections("endings_equal_pyffish");
    common::check_endings(common::ending_rows(DATA), DECIDED, |n| {
        peers::builtin_or_section(n, &sections)
    });
}

/// Perft equals FSF's with the engine and with the reference generator.
#[test]
fn perft_equals_fsf() {
    let sections = peers::fsf_sections("perft_equals_fsf");
    let rows: Vec<&str> = DATA
        .lines()
        .filter_map(|l| l.strip_prefix("perft "))
        .collect();
    for name in DECIDED {
        assert!(
            rows.iter().any(|r| r.starts_with(&format!("{name} "))),
            "{name}"
        );
    }
    for row in rows {
        let f: Vec<&str> = row.splitn(4, ' ').collect();
        let (name, depth, want) = (f[0], f[1].parse().unwrap(), f[2].parse::<u64>().unwrap());
        let Some(v) = peers::builtin_or_section(name, &sections) else {
            continue;
        };
        let pos = Position::new_game(v.clone()).unwrap().with_fen(f[3]);
        let pos = pos.unwrap_or_else(|e| panic!("{e}: {row}"));
        assert_eq!(perft(&mut pos.clone(), depth), want, "{row}");
        let board = RefBoard::from_position(&pos);
        assert_eq!(ref_perft(&board, &v, depth), want, "reference: {row}");
    }
}

/// Walks from the start and from each game's last position but one agree with the
/// reference generator move for move, with map and key equal to a scratch build.
#[test]
fn walks_agree_with_the_reference() {
    let sections = peers::fsf_sections("walks_agree_with_the_reference");
    common::walk_ending_rows(
        common::ending_rows(DATA),
        |n| peers::builtin_or_section(n, &sections),
        WALK_PLIES,
        (0x3A11, 0x3B22),
    );
}
