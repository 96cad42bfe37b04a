//! Fairy-Stockfish's walling rules (`wallingRule`, `wallingRegion*`, `wallOrMove`) as
//! Locust plays them: random walks in every walled variant (engine = reference generator
//! every ply, attack map and key equal to their from-scratch twins after every make and
//! unmake), the key covers the walls, moves are written and read as FSF writes them, the
//! loader refuses what it does not model by name, and so does the table generator.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{start, variant, walk_checked};
use locust::board::moves::Move;
use locust::board::position::Position;
use locust::egt::rules::Rules;
use locust::engine::notation::{self, Dialect};
use locust::game::Game;

/// FSF's own section of its variants.ini that walls unlock (atlantis: edge walls or a move).
const ATLANTIS: &str = "[atlantis:chess]\nwallingRule = edge\nwallOrMove = true\n";

fn atlantis() -> variants::Variant {
    variants::load_str(ATLANTIS, "atlantis.ini").expect("atlantis loads")[0].clone()
}

/// Walks of `plies` plies from the start, checked against the reference every ply.
fn walk(name: &str, rules: &variants::Variant, plies: usize) {
    let pos = Position::new_game(rules.clone()).expect("start FEN");
    for seed in 0..3 {
        walk_checked(name, pos.clone(), rules, plies, 0x5EED + seed);
    }
}

#[test]
fn walled_walks_match_the_reference_and_scratch() {
    for (name, plies) in [
        ("duck", 120),
        ("isolation", 60),
        ("isolation7x7", 60),
        ("snailtrail", 60),
        ("joust", 80),
        ("amazons", 16),
    ] {
        walk(name, &variant(name), plies);
    }
    walk("atlantis", &atlantis(), 120);
}

/// The key tells walls apart: two positions with the same men and different walls differ,
/// and each equals its from-scratch twin.
#[test]
fn the_key_covers_walls() {
    let duck = start("duck");
    let a = duck
        .with_fen("rnbqkbnr/pppppppp/8/8/4*3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .unwrap();
    let b = duck
        .with_fen("rnbqkbnr/pppppppp/8/8/3*4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
        .unwrap();
    assert_ne!(a.hash(), b.hash());
    assert_ne!(a.hash(), duck.hash());
    for p in [&a, &b, &duck] {
        assert_eq!(p.hash(), p.compute_key());
    }
    // The duck moves: the old wall is lifted, the new one keyed.
    let mut game = Game::from_fen(variant("duck"), &a.fen()).unwrap();
    let mv = game.parse_move("e2e3,e3d4").unwrap();
    game.play(mv);
    let fen = game.position().fen();
    assert!(
        fen.starts_with("rnbqkbnr/pppppppp/8/8/3*4/4P3/PPPP1PPP/RNBQKBNR b"),
        "{fen}"
    );
    assert_eq!(game.position().hash(), game.position().compute_key());
}

fn text(game: &Game, m: &Move, d: Dialect) -> String {
    notation::write(game.position(), m, d)
}

/// FSF's notation: the wall as a leg from the end square; the promotion mark before the
/// leg in UCI, after it in XBoard; a pass that only walls from the lowest square of a man.
#[test]
fn walled_moves_are_written_as_fsf_writes_them() {
    let uci = Dialect::Uci { chess960: false };
    let mut duck = Game::new(variant("duck")).unwrap();
    let m = duck.parse_move("e2e4,e4e5").unwrap();
    assert_eq!(text(&duck, &m, uci), "e2e4,e4e5");
    assert_eq!(text(&duck, &m, Dialect::Xboard), "e2e4,e4e5");
    assert!(
        duck.parse_move("e2e4").is_err(),
        "a duck move needs its wall"
    );
    assert!(
        duck.parse_move("e2e4,e4e4").is_err(),
        "not on the end square"
    );
    let fen = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let mut promo = Game::from_fen(variant("duck"), fen).unwrap();
    let m = notation::parse(&mut promo, "a7a8q,a8b8", uci).unwrap();
    assert_eq!(text(&promo, &m, uci), "a7a8q,a8b8");
    assert_eq!(text(&promo, &m, Dialect::Xboard), "a7a8,a8b8q");
    assert_eq!(
        notation::parse(&mut promo, "a7a8,a8b8q", Dialect::Xboard),
        Ok(m)
    );
    // Amazons on ten ranks: XBoard counts them from 0.
    let mut amazons = Game::new(variant("amazons")).unwrap();
    let m = amazons.parse_move("d1d2,d2d9").unwrap();
    assert_eq!(text(&amazons, &m, Dialect::Xboard), "d0d1,d1d8");
    // Atlantis: the pass that walls, from a1 (White's lowest man).
    let mut atl = Game::new(atlantis()).unwrap();
    let pass = atl.parse_move("a1a1,a1a4").unwrap();
    assert_eq!(text(&atl, &pass, uci), "a1a1,a1a4");
    let mut after = Game::new(atlantis()).unwrap();
    after.play(pass);
    // FSF's FEN after it: the wall, and the halfmove clock counting on.
    assert_eq!(
        after.position().fen(),
        "rnbqkbnr/pppppppp/8/8/*7/8/PPPPPPPP/RNBQKBNR b KQkq - 1 1"
    );
    assert!(
        atl.parse_move("a1a1,a1d5").is_err(),
        "edge rule: d5 is inside"
    );
    assert!(
        atl.parse_move("e2e4,e4e5").is_err(),
        "wallOrMove: a move places no wall"
    );
    assert!(atl.parse_move("e2e4").is_ok());
}

/// Arrow, past and static rules on small positions, counted by hand.
#[test]
fn wall_squares_follow_each_rule() {
    let count = |name: &str, fen: &str| {
        let mut g = Game::from_fen(variant(name), fen).unwrap();
        g.legal_moves().len()
    };
    // Amazons: a queen in the corner boxed in by arrows has no move; with a2 open but a3,
    // b3 and b2 walled, one move (a1a2) whose arrow can only go back to a1.
    assert_eq!(
        count("amazons", "q9/10/10/10/10/10/10/10/**8/Q*8 w - - 0 1"),
        0
    );
    assert_eq!(
        count("amazons", "q9/10/10/10/10/10/10/**8/1*8/Q*8 w - - 0 1"),
        1
    );
    // Snailtrail: the wall is where the man stood; a man boxed in by walls has no move.
    assert_eq!(count("snailtrail", "6p/7/7/7/7/**5/P*5 w - - 0 1"), 0);
    assert_eq!(count("snailtrail", "6p/7/7/7/7/*6/P*5 w - - 0 1"), 1);
    // Isolation: any square empty after the move (the start square too) outside c1 and d8.
    // The man on a1 has three steps; 48 squares less two men and the wall on c1 are 45
    // empty after each step (a1 freed, the end square filled).
    assert_eq!(count("isolation", "3p2/6/6/6/6/6/6/P1*3 w - - 0 1"), 3 * 45);
    // On c1 (outside the region) the wall may not go, whoever stands elsewhere: with the
    // man on c1 itself, a step frees c1 but no wall goes there.
    assert_eq!(
        count("isolation", "3p2/6/6/6/6/6/6/2P3 w - - 0 1"),
        5 * (48 - 2 - 1)
    );
}

/// Keys and combinations the loader refuses by name rather than playing another game.
#[test]
fn walling_keys_are_honoured_or_refused_by_name() {
    let refused = |text: &str, key: &str, why: &str| {
        let errs = variants::load_str(text, "t.ini").expect_err(text);
        assert!(
            errs.iter().any(|e| e.key == key && e.message.contains(why)),
            "{text}: {errs:?}"
        );
    };
    refused(
        "[a:crazyhouse]\nwallingRule = static\n",
        "wallingRule",
        "drops",
    );
    refused(
        "[b:chess]\nwallingRule = duck\n",
        "wallingRule",
        "royal kings",
    );
    refused(
        "[d:chess]\nwallOrMove = true\n",
        "wallOrMove",
        "without a `wallingRule`",
    );
    refused(
        "[e:chess]\nwallingRule = fence\n",
        "wallingRule",
        "expected arrow",
    );
    // Pseudo-royal men (atomic's kings): the new wall shields them, as FSF tests them.
    let atomic = variants::load_str("[c:atomic]\nwallingRule = duck\n", "t.ini").expect("loads");
    assert!(atomic[0].walling.as_ref().is_some_and(|w| w.shields));
    let duck = variant("duck");
    assert!(duck.walling.as_ref().is_some_and(|w| !w.shields));
    let ok =
        variants::load_str("[f:joust]\nwallingRegion = a1-h4\n", "t.ini").expect("a region loads");
    let w = ok[0].walling.as_ref().expect("walls");
    assert!(w.region[0].contains(variants::Coord::new(0, 3)));
    assert!(!w.region[1].contains(variants::Coord::new(0, 4)));
}

/// The table generator refuses walls by name.
#[test]
fn the_table_generator_refuses_walls() {
    for name in ["duck", "amazons", "isolation", "snailtrail", "joust"] {
        let e = Rules::new(&variant(name), None, false)
            .unwrap_err()
            .to_string();
        assert!(e.contains("wallingRule"), "{name}: {e}");
    }
    let e = Rules::new(&atlantis(), None, false)
        .unwrap_err()
        .to_string();
    assert!(e.contains("wallingRule"), "atlantis: {e}");
}

/// Game ends equal pyffish's `game_result` (tests/data/fsf_walls_endings.txt, made by
/// tools/fsf-walls-endings.py): from the FEN one move before the end, the game goes on; FSF's
/// text of the last move is read, and after it the result for the side to move is FSF's.
#[test]
fn game_ends_equal_pyffish() {
    let data = include_str!("data/fsf_walls_endings.txt");
    let rows: Vec<&str> = data
        .lines()
        .filter_map(|l| l.strip_prefix("ending "))
        .collect();
    assert!(rows.len() >= 24, "{} rows", rows.len());
    for row in rows {
        let (head, last) = row.split_once(" ; ").expect("row");
        let mut f = head.splitn(3, ' ');
        let (name, want, fen) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let mut game = Game::from_fen(variant(name), fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
        assert!(
            game.outcome().is_none(),
            "{name}: over before the last move: {fen}"
        );
        let mv = notation::parse(&mut game, last, Dialect::Uci { chess960: false })
            .unwrap_or_else(|e| panic!("{name}: {e}: {fen} ; {last}"));
        game.play(mv);
        let got = common::result_for_mover(&mut game);
        assert_eq!(got, want, "{name}: {fen} ; {last}");
    }
}

/// Without a move, the side to move wins duck chess and loses the walled games (pyffish's
/// game_result: +32000 and -32000 on these two positions).
#[test]
fn no_move_wins_duck_and_loses_amazons() {
    for (name, fen, wins) in [
        ("duck", "7k/8/8/8/8/*7/P*6/K*6 w - - 0 1", true),
        (
            "amazons",
            "q9/10/10/10/10/10/10/10/**8/Q*8 w - - 0 1",
            false,
        ),
    ] {
        let mut game = Game::from_fen(variant(name), fen).unwrap();
        assert!(game.legal_moves().is_empty(), "{name}");
        let o = game.outcome().expect("over");
        let us = game.position().side_to_move();
        assert_eq!(o.winner == Some(us), wins, "{name}: {o:?}");
    }
}
