//! Two-board games and set-up phases as Locust plays them (issue 44): `twoBoards`
//! (bughouse, koedem, supply), placement's `dropOppositeColoredBishop` and
//! `castlingDroppedPiece` with kings in hand, and sittuyin's `sittuyinRookDrop` and
//! `sittuyinPromotion`. Perft against Fairy-Stockfish is in tests/fsf_builtin_perft.rs and
//! tests/drop_rules.rs; here: moves and FENs as FSF writes them, and the table generator's
//! refusal of each rule by name.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::variant;
use locust::egt::rules::{Rules, RulesError};
use locust::engine::notation::{self, Dialect};
use locust::game::Game;

const UCI: Dialect = Dialect::Uci { chess960: false };

fn game(name: &str, fen: &str) -> Game {
    let mut g = Game::new(variant(name)).unwrap();
    g.set_fen(fen).unwrap();
    g
}

fn play(g: &mut Game, text: &str) {
    let m = notation::parse(g, text, UCI).unwrap_or_else(|e| panic!("{text}: {e:?}"));
    g.play(m);
}

fn legal(g: &mut Game, text: &str) -> bool {
    notation::parse(g, text, UCI).is_ok()
}

#[test]
fn the_table_generator_refuses_each_set_up_rule_by_name() {
    let cases = [
        ("bughouse", "twoBoards"),
        ("koedem", "twoBoards"),
        ("supply", "twoBoards"),
        ("placement", "castlingDroppedPiece"),
        ("sittuyin", "sittuyinPromotion"),
    ];
    for (name, key) in cases {
        match Rules::new(&variant(name), None, false) {
            Err(RulesError::Unsupported(n, rule)) => {
                assert_eq!(n, name);
                assert!(rule.contains(key), "{name}: {rule}");
            }
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn each_rule_alone_is_refused_by_its_own_name() {
    let ini = "[bishops:placement]\ncastlingDroppedPiece = false\n\
               [rooks:crazyhouse]\nsittuyinRookDrop = true\n\
               [promo:makruk]\nsittuyinPromotion = true\n";
    let all = variants::load_str(ini, "t.ini").expect("loads");
    for (name, key) in [
        ("bishops", "dropOppositeColoredBishop"),
        ("rooks", "sittuyinRookDrop"),
        ("promo", "sittuyinPromotion"),
    ] {
        let v = variants::find(&all, name).unwrap();
        match Rules::new(v, None, false) {
            Err(RulesError::Unsupported(_, rule)) => assert!(rule.contains(key), "{rule}"),
            other => panic!("{name}: {other:?}"),
        }
    }
}

#[test]
fn bughouse_keeps_captured_men_out_of_hand_and_writes_promoted_marks() {
    let mut g = game("bughouse", "r3k3/1P6/8/8/8/8/8/4K3[Nn] w - - 0 1");
    // The rook taken goes to no hand here; FSF's FEN marks the promoted queen, which the
    // partner's board would take back as a pawn (pyffish's FENs).
    play(&mut g, "b7a8q");
    assert_eq!(g.position().fen(), "Q~3k3/8/8/8/8/8/8/4K3[Nn] b - - 0 1");
    play(&mut g, "e8e7");
    assert_eq!(g.position().fen(), "Q~7/4k3/8/8/8/8/8/4K3[Nn] w - - 1 2");
}

#[test]
fn placement_drops_kings_first_rank_only_and_castles_with_dropped_rooks() {
    let start = "8/pppppppp/8/8/8/8/PPPPPPPP/8[KQRRBBNNkqrrbbnn] w - - 0 1";
    let mut g = game("placement", start);
    assert!(!legal(&mut g, "K@e2"), "drops on the first rank only");
    assert!(
        !legal(&mut g, "e2e4"),
        "pieces in hand must be dropped first"
    );
    for m in ["R@a1", "R@a8", "K@e1", "K@e8", "R@h1", "R@h8"] {
        play(&mut g, m);
    }
    // pyffish's FEN after the same drops, but for the halfmove clock: FSF restarts it on
    // every drop, Locust's drops leave it running (as in crazyhouse before this change).
    let fen = g.position().fen();
    assert!(
        fen.starts_with("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[QBBNNqbbnn] w KQkq - "),
        "{fen}"
    );
    // A bishop on b1 (light) and one on c1 (dark) are on opposite colours; a second bishop
    // on the same colour as the first is refused while the other can still go elsewhere.
    play(&mut g, "B@b1");
    play(&mut g, "B@b8");
    assert!(!legal(&mut g, "B@d1"), "both bishops on light squares");
    assert!(legal(&mut g, "B@c1") && legal(&mut g, "B@g1"));
}

#[test]
fn sittuyin_rooks_drop_on_the_first_rank_and_pawns_promote_in_place_or_aside() {
    let mut g = game(
        "sittuyin",
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn] w - - 0 1",
    );
    assert!(!legal(&mut g, "R@a2"));
    assert!(legal(&mut g, "R@a1"));
    assert!(legal(&mut g, "N@a2"));
    // After the set-up: the last pawn promotes anywhere, in place or to a square the met
    // steps to, never onto a square where the met would attack an enemy man.
    let mut g = game("sittuyin", "8/8/4k3/8/8/2P5/8/K7[] w - - 0 40");
    assert!(legal(&mut g, "c3c3f"));
    assert!(legal(&mut g, "c3b4f"));
    assert!(legal(&mut g, "c3d2f"));
    assert!(!legal(&mut g, "c3c4f"), "a met does not step straight");
    let mut g = game("sittuyin", "8/8/4k3/8/3r4/2P5/8/K7[] w - - 0 40");
    assert!(
        !legal(&mut g, "c3c3f"),
        "the met would attack the rook on d4"
    );
    assert!(
        legal(&mut g, "c3b2f"),
        "from b2 the met sees a1, c1, a3 and c3 only"
    );
}

#[test]
fn sittuyin_king_and_pawn_left_only_promotions_is_a_draw() {
    // pyffish: legal moves a2b1f, a2a2f, a2b3f only; is_optional_game_end = (true, 0).
    let mut g = game("sittuyin", "1r6/8/8/8/8/n1k5/P7/K7[] w - - 0 60");
    let moves: Vec<String> = g.legal_moves().iter().map(|m| g.move_text(m)).collect();
    assert_eq!(moves.len(), 3, "{moves:?}");
    let o = g.outcome().expect("the game is over");
    assert_eq!(o.winner, None);
    // With the pawn free to step, the game goes on.
    let mut g = game("sittuyin", "1r6/8/8/8/8/2k5/P7/K7[] w - - 0 60");
    assert!(g.outcome().is_none());
}
