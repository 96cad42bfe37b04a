//! Fairy-Stockfish's drop keys as Locust plays them (issue 44): drop regions, `dropChecks`,
//! `dropPromoted`, `dropNoDoubledCount`, `mustDrop` and `mustDropType` in the small variants
//! of tests/data/drop_rules.ini, and `dropLoop` (loop, chessgi). Perft equals Fairy-Stockfish's
//! (tests/data/perft/fsf_drop_rules.txt, by tools/fsf-drop-rules-data.py) and the reference
//! generator's; random walks keep the incremental state equal to a scratch build; a promoted
//! drop is read and written as FSF writes it; the table generator refuses drops by name.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{start, variant, walk_checked};
use locust::board::moves::MoveKind;
use locust::board::position::Position;
use locust::board::reference::{self, RefBoard};
use locust::egt::rules::{Rules, RulesError};
use locust::engine::notation::{self, Dialect};
use locust::game::{Game, Termination};
use locust::perft::perft;

const INI: &str = include_str!("data/drop_rules.ini");
const DATA: &str = include_str!("data/perft/fsf_drop_rules.txt");
/// The reference generator recounts rows up to this many leaves (it copies a board a move).
const REFERENCE_BUDGET: u64 = 40_000;

fn test_variant(name: &str) -> variants::Variant {
    let all = variants::load_str(INI, "drop_rules.ini").expect("drop_rules.ini loads");
    variants::find(&all, name)
        .unwrap_or_else(|| panic!("no section {name}"))
        .clone()
}

/// `(variant, depth, count, fen)` of every row.
fn rows() -> Vec<(&'static str, u32, u64, &'static str)> {
    DATA.lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let mut f = l.splitn(4, ' ');
            let v = f.next().unwrap();
            let d = f.next().unwrap().parse().unwrap();
            let n = f.next().unwrap().parse().unwrap();
            (v, d, n, f.next().unwrap())
        })
        .collect()
}

#[test]
fn perft_equals_fairy_stockfish_and_the_reference() {
    let rows = rows();
    let sections = variants::load_str(INI, "drop_rules.ini").unwrap();
    for v in &sections {
        let n = rows.iter().filter(|r| r.0 == v.name).count();
        assert!(n >= 4, "{}: {n} rows", v.name);
    }
    for (name, depth, want, fen) in rows {
        let v = test_variant(name);
        let mut pos = common::position_at(&v, fen);
        assert_eq!(perft(&mut pos, depth), want, "{name} depth {depth}: {fen}");
        let b = RefBoard::from_fen(&v, fen).unwrap();
        let d = if want <= REFERENCE_BUDGET { depth } else { 2 };
        let mut again = common::position_at(&v, fen);
        assert_eq!(
            reference::perft(&b, &v, d),
            perft(&mut again, d),
            "{name} reference depth {d}: {fen}"
        );
    }
}

#[test]
fn random_walks_agree_with_the_reference() {
    let sections = variants::load_str(INI, "drop_rules.ini").unwrap();
    for (i, v) in sections.iter().enumerate() {
        let pos = Position::new_game(v.clone()).unwrap();
        let made = walk_checked(&v.name, pos, v, 300, 0xD409 + i as u64);
        assert!(made.drops > 0, "{}: no drop in the walk", v.name);
    }
    for (i, name) in ["loop", "chessgi", "dragon", "kyotoshogi"]
        .iter()
        .enumerate()
    {
        let made = walk_checked(name, start(name), &variant(name), 400, 0x100D + i as u64);
        assert!(made.drops > 0, "{name}: no drop in the walk");
    }
}

#[test]
fn must_drop_leaves_only_drops_and_must_drop_type_only_its_type() {
    let mut g = Game::new(test_variant("droptest-mustdrop")).unwrap();
    let legal = g.legal_moves();
    assert!(!legal.is_empty() && legal.iter().all(|m| m.kind == MoveKind::Drop));
    let v = test_variant("droptest-mustdroptype");
    let mut g = Game::new(v.clone()).unwrap();
    let knight = v.piece_by_letter('n').unwrap();
    let legal = g.legal_moves();
    assert!(!legal.is_empty());
    assert!(legal
        .iter()
        .all(|m| m.kind == MoveKind::Drop && m.piece == knight));
    // With the knight dropped, the bishop may wait: every move is legal again.
    let mut g = Game::from_fen(
        v,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Bb] w KQkq - 0 1",
    )
    .unwrap();
    let legal = g.legal_moves();
    assert!(legal.iter().any(|m| m.kind == MoveKind::Normal));
    assert!(legal.iter().any(|m| m.kind == MoveKind::Drop));
}

#[test]
fn no_checking_drops() {
    // Black's king on e8: Q@e2 would check along the file, Q@a2 would not.
    let fen = "4k3/8/8/8/8/8/8/K7[Q] w - - 0 1";
    let mut g = Game::from_fen(test_variant("droptest-nocheck"), fen).unwrap();
    assert!(g.parse_move("Q@a2").is_ok());
    assert!(g.parse_move("Q@e2").is_err());
    let mut g = Game::from_fen(variant("crazyhouse"), fen).unwrap();
    assert!(g.parse_move("Q@e2").is_ok());
}

#[test]
fn drop_loop_keeps_a_promoted_man_promoted_in_hand() {
    // Black's rook takes White's promoted queen on d1.
    let fen = "3k4/8/8/8/8/8/8/r2Q~2K1[] b - - 0 1";
    for (name, hand) in [("loop", "[q]"), ("crazyhouse", "[p]")] {
        let mut g = Game::from_fen(variant(name), fen).unwrap();
        let m = g.parse_move("a1d1").unwrap();
        g.play(m);
        let after = g.position().fen();
        assert!(after.contains(hand), "{name}: {after}");
        assert!(!after.contains('~'), "{name}: {after}");
    }
}

#[test]
fn promoted_drops_are_read_and_written_as_fairy_stockfish_writes_them() {
    let v = test_variant("droptest-promoted");
    let mut g = Game::from_fen(v, "rbsgk/4p/5/P4/KGSBR[Ss] w - - 0 1").unwrap();
    for dialect in [Dialect::Uci { chess960: false }, Dialect::Xboard] {
        let plain = notation::parse(&mut g, "S@c3", dialect).unwrap();
        let promoted = notation::parse(&mut g, "+S@c3", dialect).unwrap();
        assert_ne!(plain, promoted);
        assert_eq!(notation::write(g.position(), &promoted, dialect), "+S@c3");
        assert_eq!(notation::write(g.position(), &plain, dialect), "S@c3");
    }
    let m = g.parse_move("+S@c3").unwrap();
    g.play(m);
    assert_eq!(
        g.position().fen().split(' ').next(),
        Some("rbsgk/4p/2+S2/P4/KGSBR[s]")
    );
}

#[test]
fn the_table_generator_refuses_drop_rules_by_name() {
    for name in ["loop", "chessgi", "dragon", "kyotoshogi"] {
        match Rules::new(&variant(name), None, false) {
            Err(RulesError::Drops(n)) => assert_eq!(n, name),
            Err(e) => panic!("{name}: {e}"),
            Ok(_) => panic!("{name}: tables built for a variant with drops"),
        }
    }
}

#[test]
fn kyotoshogi_men_turn_over_on_every_move_written_as_fsf_writes_it() {
    let mut g = Game::new(variant("kyotoshogi")).unwrap();
    let uci = Dialect::Uci { chess960: false };
    // The silver on b1 must promote (to a bishop) on any move; no plain move is left.
    assert!(notation::parse(&mut g, "b1b2", uci).is_err());
    let up = notation::parse(&mut g, "b1b2+", uci).unwrap();
    g.play(up);
    let down = notation::parse(&mut g, "a5a4+", uci).unwrap();
    g.play(down);
    // The promoted silver (a bishop now) must demote as it moves, written with `-`; the
    // FEN equals pyffish's after the same moves.
    assert!(notation::parse(&mut g, "b2c3+", uci).is_err());
    let m = notation::parse(&mut g, "b2c3-", uci).unwrap();
    assert_eq!(notation::write(g.position(), &m, uci), "b2c3-");
    g.play(m);
    assert_eq!(
        g.position().fen().split(' ').next(),
        Some("1+nks+l/+p4/2S2/5/+L1K+NP[]")
    );
}

#[test]
fn the_table_generator_refuses_demotion_by_name_even_without_drops() {
    let ini = "[kyoto-nodrops:kyotoshogi]\npieceDrops = false\ncapturesToHand = false\n";
    let v = variants::load_str(ini, "t.ini").unwrap().remove(0);
    assert!(!v.drops.enabled);
    match Rules::new(&v, None, false) {
        Err(RulesError::Unsupported(n, rule)) => {
            assert_eq!(n, "kyoto-nodrops");
            assert!(rule.contains("pieceDemotion"), "{rule}");
        }
        Err(e) => panic!("{e}"),
        Ok(_) => panic!("tables built for a variant with demotion"),
    }
}

/// Where captured men go to a hand, a capture is no irreversible move (the man comes back by
/// a drop), so a repetition is counted across captures, as Fairy-Stockfish counts it (plies
/// since the last null move); in chess a capture still cuts the window.
#[test]
fn a_repetition_across_captures_counts_where_captures_go_to_a_hand() {
    // Each half takes a knight each way and drops both back; the white king's step
    // alternates, so the start recurs after every second half.
    let fen = "3qk3/8/8/3n4/8/2N5/8/K7[] w - - 0 1";
    let half = |king: &'static str| ["c3d5", "d8d5", "N@c3", "d5d8", king, "N@d5"];
    let mut g = Game::from_fen(variant("crazyhouse"), fen).unwrap();
    let laps = [half("a1b1"), half("b1a1"), half("a1b1"), half("b1a1")];
    let moves: Vec<&str> = laps.iter().flatten().copied().collect();
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(g.outcome(), None, "before ply {i}, {m}");
        assert_eq!(g.position().repetition_window(), i as u32);
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    let o = g.outcome().expect("the third occurrence ends the game");
    assert_eq!((o.winner, o.reason), (None, Termination::Repetition));
    // The same captures in chess (no hands) cut the window at each capture.
    let chess = Game::from_fen(variant("chess"), "3qk3/8/8/3n4/8/2N5/8/K7 w - - 0 1").unwrap();
    let mut c = chess;
    let mv = c.parse_move("c3d5").unwrap();
    c.play(mv);
    assert_eq!(c.position().repetition_window(), 0);
}
