//! Chu Shogi by hand: the lion's igui, pass and double moves, the Lion-trading rules, the
//! crown prince as a second royal, promotion, repetition and the multi-leg move texts, each in
//! a position whose legal moves are written out here (worked out from the rules, and the
//! engine's list checked against the reference generator's too).

mod common;

use std::collections::BTreeSet;

use common::variant;
use locust::board::moves::Move;
use locust::board::reference::{legal_moves as ref_legal, RefBoard};
use locust::engine::notation::{parse, write, Dialect};
use locust::game::outcome::Termination;
use locust::game::Game;
use variants::geometry::Coord;

fn game(fen: &str) -> Game {
    Game::from_fen(variant("chu"), fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// XBoard texts of the legal moves that start on `from`, after checking that the engine's
/// legal moves are exactly the reference generator's.
fn moves_from(g: &mut Game, from: &str) -> BTreeSet<String> {
    let legal = g.legal_moves();
    let reference = ref_legal(&RefBoard::from_position(g.position()), &variant("chu"));
    let sorted = |mut v: Vec<Move>| {
        v.sort_by_key(|m| format!("{m:?}"));
        v
    };
    assert_eq!(
        sorted(legal.clone()),
        sorted(reference),
        "engine vs reference"
    );
    legal
        .iter()
        .filter(|m| m.from_coord().to_text() == from)
        .map(|m| write(g.position(), m, Dialect::Xboard))
        .collect()
}

fn set(texts: &[&str]) -> BTreeSet<String> {
    texts.iter().map(|s| s.to_string()).collect()
}

/// Plays a move given in XBoard text; panics if it is not legal.
fn play(g: &mut Game, text: &str) {
    let m = parse(g, text, Dialect::Xboard).unwrap_or_else(|e| panic!("{text}: {e}"));
    g.play(m);
}

fn legal(g: &mut Game, text: &str) -> bool {
    parse(g, text, Dialect::Xboard).is_ok()
}

/// Lion on f6, an enemy pawn on f7: 16 jumps, 8 steps, igui, the pass (through g7, the first
/// empty square its paths reach) and 7 double moves that take the pawn and go on.
#[test]
fn lion_igui_pass_and_double_moves() {
    let mut g = game("12/12/12/12/12/5p6/5N6/12/12/12/12/K10k w - - 0 1");
    let expected = set(&[
        "f6e5",
        "f6e6",
        "f6e7",
        "f6f5",
        "f6f7",
        "f6g5",
        "f6g6",
        "f6g7", // steps
        "f6d4",
        "f6d5",
        "f6d6",
        "f6d7",
        "f6d8",
        "f6e4",
        "f6e8",
        "f6f4", // jumps
        "f6f8",
        "f6g4",
        "f6g8",
        "f6h4",
        "f6h5",
        "f6h6",
        "f6h7",
        "f6h8",
        "f6f7,f7f6", // igui
        "@@@@",      // pass: XBoard's null move, as HaChu writes it
        "f6f7,f7e8",
        "f6f7,f7f8",
        "f6f7,f7g8",
        "f6f7,f7e7",
        "f6f7,f7g7",
        "f6f7,f7e6",
        "f6f7,f7g6",
    ]);
    assert_eq!(moves_from(&mut g, "f6"), expected);
    assert_eq!(
        g.legal_moves().len(),
        expected.len() + 3,
        "and the king's three"
    );
    // Igui leaves the lion where it stood and the pawn gone; the pass changes nothing on
    // the board.
    play(&mut g, "f6f7,f7f6");
    assert!(g.position().fen().starts_with("12/12/12/12/12/12/5N6/"));
}

/// A protected lion two squares away may be taken only after a capture of a man that is not a
/// pawn or go-between: through the gold on f6, not through the pawn on d6 nor straight.
#[test]
fn protected_lion_needs_a_bridge_that_is_not_a_pawn() {
    let fen = "11k/12/12/12/4p7/4n7/3p1g6/4N7/12/12/12/K11 w - - 0 1";
    let mut g = game(fen);
    let takes_lion: BTreeSet<String> = moves_from(&mut g, "e5")
        .into_iter()
        .filter(|t| t.ends_with("e7"))
        .collect();
    assert_eq!(takes_lion, set(&["e5f6,f6e7"]));
    for refused in ["e5e7", "e5d6,d6e7", "e5e6,e6e7"] {
        assert!(!legal(&mut g, refused), "{refused}");
    }
    // Without the pawn on e8 nothing protects it: the jump and the pawn bridge are legal.
    let mut g = game("11k/12/12/7g4/12/4n7/3p8/4N7/12/12/12/K11 w - - 0 1");
    let takes_lion: BTreeSet<String> = moves_from(&mut g, "e5")
        .into_iter()
        .filter(|t| t.ends_with("e7"))
        .collect();
    assert_eq!(takes_lion, set(&["e5e7", "e5d6,d6e7"]));
}

/// An adjacent lion may be taken even when protected, also with igui or by going on.
#[test]
fn adjacent_lion_may_be_taken_when_protected() {
    let mut g = game("11k/12/12/12/12/5g6/3i1n6/4N7/12/12/12/K11 w - - 0 1");
    let takes_lion: BTreeSet<String> = moves_from(&mut g, "e5")
        .into_iter()
        .filter(|t| t.contains("f6"))
        .collect();
    let expected = set(&[
        "e5f6",
        "e5f6,f6e5", // igui
        "e5f6,f6e6",
        "e5f6,f6e7",
        "e5f6,f6f5",
        "e5f6,f6f7",
        "e5f6,f6g5",
        "e5f6,f6g6",
        "e5f6,f6g7",
    ]);
    assert_eq!(takes_lion, expected);
}

/// After the rook takes the lion on e9, Black may not take White's lion with the bishop, but
/// may recapture on e9; a move later the bishop may take the lion again. The counterstrike
/// square is part of the position's key.
#[test]
fn counterstrike_forbids_one_move() {
    let fen = "11k/12/4g7/4n7/12/b11/12/2N9/12/12/7P4/K3R7 w - - 0 1";
    let mut g = game(fen);
    play(&mut g, "e1e9");
    assert!(!legal(&mut g, "a7c5"), "a non-lion may not take a lion now");
    assert!(legal(&mut g, "e10e9"), "the recapture takes no lion");
    let same_board = game(&g.position().fen());
    assert_ne!(same_board.position().hash(), g.position().hash());
    play(&mut g, "l12k12");
    play(&mut g, "h2h3");
    assert!(legal(&mut g, "a7c5"), "the rule lasts one move");
}

/// A kirin that takes a lion and promotes becomes a lion: the reply may take it on that
/// square, but still no other lion with a non-lion.
#[test]
fn counterstrike_allows_the_same_square() {
    let fen = "11k/12/4g7/4n7/3x8/b3O7/12/2N9/12/12/12/K11 w - - 0 1";
    for (kirin_move, promoted) in [("e7e9+", true), ("e7e9", false)] {
        let mut g = game(fen);
        play(&mut g, kirin_move);
        assert!(
            !legal(&mut g, "a7c5"),
            "{kirin_move}: the bishop may not take c5"
        );
        assert!(legal(&mut g, "e10e9"), "{kirin_move}: recapture on e9");
        let piece = g.position().fen().split('/').nth(3).map(str::to_string);
        assert_eq!(piece.as_deref() == Some("4+O7"), promoted, "{kirin_move}");
    }
}

/// With the crown prince on the board the king may stand attacked (and be taken: the game
/// goes on); without it the king must leave the rook's file.
#[test]
fn crown_prince_is_a_second_royal() {
    let mut g = game("11k/12/12/2n9/r11/12/12/12/7b4/1+E10/12/K11 w - - 0 1");
    assert_eq!(g.legal_moves().len(), 11);
    play(&mut g, "b3c3");
    play(&mut g, "a8a1");
    assert!(g.outcome().is_none(), "the prince plays on");
    let mut g = game("11k/12/12/2n9/r11/12/12/12/7b4/12/12/K11 w - - 0 1");
    let all: BTreeSet<String> = g
        .legal_moves()
        .iter()
        .map(|m| write(g.position(), m, Dialect::Xboard))
        .collect();
    assert_eq!(all, set(&["a1b1", "a1b2"]));
}

/// Promotion: on entering the zone (c8c9), on a capture inside it (d10d11) or leaving it
/// (f9e8), for a pawn or lance on the last rank without capture (e11e12, j11j12: declining
/// leaves it immobile), never on a quiet move inside or out of the zone.
#[test]
fn promotion_rules() {
    let mut g = game("11k/3pP4L2/3G8/5S6/2P1l7/12/1O10/12/12/12/12/K11 w - - 0 1");
    let mut all = BTreeSet::new();
    for from in ["c8", "d10", "e11", "f9", "j11"] {
        all.extend(moves_from(&mut g, from));
    }
    let expected = set(&[
        "c8c9+", "c8c9", "d10d11+", "d10d11", "d10c10", "d10c11", "d10d9", "d10e10", "e11e12+",
        "e11e12", "f9e8+", "f9e8", "f9e10", "f9f10", "f9g10", "f9g8", "j11j12+", "j11j12",
    ]);
    assert_eq!(all, expected);
    play(&mut g, "e11e12");
    assert!(g.position().fen().contains("4P6k"), "the pawn stays on e12");
}

/// Shuffling into a fourth occurrence of a position ends the game drawn; a side that checked
/// on every move of the cycle loses.
#[test]
fn repetition_and_perpetual_check() {
    let mut g = game("11k/12/12/12/12/12/12/12/12/12/12/K2G8 w - - 0 1");
    for _ in 0..3 {
        for m in ["d1d2", "l12k12", "d2d1", "k12l12"] {
            assert!(g.outcome().is_none());
            play(&mut g, m);
        }
    }
    let end = g.outcome().expect("fourth occurrence");
    assert_eq!((end.winner, end.reason), (None, Termination::Repetition));
    // The rook checks the king from l1 and l2 in turn; the king steps between l12 and k12
    // ... and it is White who checks every time.
    let mut g = game("11k/12/12/12/12/12/12/12/12/12/12/K9R1 w - - 0 1");
    for _ in 0..3 {
        for m in ["k1l1", "l12k12", "l1k1", "k12l12"] {
            play(&mut g, m);
        }
    }
    let end = g.outcome().expect("fourth occurrence");
    assert_eq!(end.reason, Termination::PerpetualCheck);
    assert_eq!(end.winner, Some(locust::board::types::Colour::Black));
}

/// A lion's step out and back (XBoard's null move, which XBoard counts as irreversible)
/// starts the repetition count afresh: the positions before it do not count.
#[test]
fn a_lion_pass_cuts_the_repetition_window() {
    let mut g = game("11k/5n6/12/12/12/12/12/12/12/12/5N6/K10G w - - 0 1");
    let cycle = ["a1a2", "l12k12", "a2a1", "k12l12"];
    for m in cycle {
        play(&mut g, m);
    }
    assert_eq!(g.position().halfmove_clock(), 4);
    // Both lions pass: the start position is back, its third occurrence counted across the
    // passes, its first counted from them.
    play(&mut g, "@@@@");
    assert_eq!(g.position().halfmove_clock(), 0, "the pass is irreversible");
    play(&mut g, "@@@@");
    for _ in 0..3 {
        for m in cycle {
            assert!(g.outcome().is_none(), "no repetition across the passes");
            play(&mut g, m);
        }
    }
    let end = g.outcome().expect("fourth occurrence after the passes");
    assert_eq!(end.reason, Termination::Repetition);
}

/// Every legal move's XBoard and UCI texts read back as the same move, and the paths a GUI may
/// send for a lion (through an empty square, the pass through any empty neighbour) are read.
#[test]
fn multi_leg_texts_round_trip() {
    let fens = [
        "12/12/12/12/12/5p6/5N6/12/12/12/12/K10k w - - 0 1",
        "11k/12/12/12/4p7/4n7/3p1g6/4N7/12/12/12/K11 w - - 0 1",
        "11k/12/12/12/12/4gp6/4s1c1n3/4+H2+D4/12/12/12/K11 w - - 0 1",
        "11k/3pP4L2/3G8/5S6/2P1l7/12/1O10/12/12/12/12/K11 w - - 0 1",
    ];
    for fen in fens {
        let mut g = game(fen);
        for m in g.legal_moves() {
            for d in [Dialect::Xboard, Dialect::Uci { chess960: false }] {
                let text = write(g.position(), &m, d);
                let back = parse(&mut g, &text, d).unwrap_or_else(|e| panic!("{text}: {e}"));
                assert_eq!(back, m, "{fen}: {text} in {d:?}");
            }
        }
    }
    let mut g = game(fens[0]);
    let uci = Dialect::Uci { chess960: false };
    let by = |g: &mut Game, t: &str, d| {
        let m = parse(g, t, d).ok()?;
        Some(write(g.position(), &m, d))
    };
    let xb = Dialect::Xboard;
    assert_eq!(
        by(&mut g, "f6f7f6", uci).as_deref(),
        Some("f6f7f6"),
        "igui in UCI"
    );
    assert_eq!(by(&mut g, "f6f7f8", uci).as_deref(), Some("f6f7f8"));
    assert_eq!(
        by(&mut g, "f6g7f6", uci).as_deref(),
        Some("f6g7f6"),
        "pass in UCI"
    );
    assert_eq!(
        by(&mut g, "f6e6,e6f6", xb).as_deref(),
        Some("@@@@"),
        "pass via e6"
    );
    assert_eq!(
        by(&mut g, "f6g7,g7f6", xb).as_deref(),
        Some("@@@@"),
        "pass in two legs, as XBoard sends a human's"
    );
    assert_eq!(
        by(&mut g, "f6g6,g6g7", xb).as_deref(),
        Some("f6g7"),
        "a step in two"
    );
    assert_eq!(
        by(&mut g, "f6g7,g7h8", xb).as_deref(),
        Some("f6h8"),
        "a jump in two"
    );
    assert_eq!(by(&mut g, "f6f7,f7f9", xb), None, "no such move");
    assert_eq!(by(&mut g, "f6f7,x7f6", xb), None, "malformed");
    assert_eq!(by(&mut g, "f6,", xb), None, "one square");
    assert_eq!(by(&mut g, ",", xb), None, "no square");
    // The pass's turning square is an empty neighbour its paths reach.
    let pass = g
        .legal_moves()
        .into_iter()
        .find(|m| m.from == m.to && m.n_extra == 0);
    let via = pass.and_then(|m| g.position().pass_via(&m));
    assert_eq!(via, Some(Coord::new(6, 6)));
}

/// Random games from the hand-made positions, lion captures preferred: every ply the engine's
/// legal moves equal the reference's, make/unmake keep the position consistent, and both
/// Lion-trading rules really decide moves along the way (counted).
#[test]
fn lion_rules_walk_matches_the_reference() {
    let rules = variant("chu");
    let lions = rules.capture_matrix.lion.as_ref().map(|l| l.lions.len());
    assert_eq!(lions, Some(2), "lion and promoted kirin");
    lion_walk(rules);
}

/// The same walk under HaChu's and XBoard's readings (`variants/chu-hachu.ini`).
#[test]
fn xboards_lion_rules_walk_matches_the_reference() {
    lion_walk(hachu_chu());
}

/// Random games from lion-rich positions, the engine's legal moves checked against the
/// reference generator's at every ply; half the plies take a lion where one can.
fn lion_walk(rules: variants::Variant) {
    let lions = rules
        .capture_matrix
        .lion
        .clone()
        .map(|l| l.lions)
        .unwrap_or_default();
    let seeds = [
        "11k/12/12/12/4p7/4n7/3p1g6/4N7/12/12/12/K11 w - - 0 1",
        "11k/12/4g7/4n7/12/b11/12/2N9/12/12/7P4/K3R7 w - - 0 1",
        "11k/12/4g7/4n7/3x8/b3O7/12/2N9/12/12/12/K11 w - - 0 1",
        "11k/12/12/3+Dg7/12/5+op5/12/5N6/12/7+H4/12/K11 w - - 0 1",
        "l1csgekgscfl/a1b1txot1b1a/mvrhdq1dhrvm/pppppppppppp/3i4i3/5n6/6N5/3I4I3/PPPPPPPPPPPP/MVRHDQ1DHRVM/A1B1TOXT1B1A/L1CSGKEGSCFL w - - 0 1",
    ];
    let (mut strikes, mut refused, mut plies) = (0, 0, 0);
    let mut rng = common::Rng(0xC4A1);
    for fen in seeds.iter().cycle().take(40) {
        let mut pos = locust::board::position::Position::new_game(rules.clone())
            .and_then(|p| p.with_fen(fen))
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let mut ops = Vec::new();
        for _ in 0..40 {
            let legal = common::legal_as_reference("chu", &mut pos, &rules);
            let mut pseudo = Vec::new();
            pos.pseudo_moves(&mut pseudo);
            let b = RefBoard::from_position(&pos);
            strikes += usize::from(b.lion_strike.is_some());
            refused += pseudo
                .iter()
                .filter(|m| !legal.contains(m) && takes_lion(&b, &lions, m))
                .count();
            if legal.is_empty() {
                break;
            }
            let lion_hits: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| takes_lion(&b, &lions, m))
                .collect();
            let pool = if !lion_hits.is_empty() && rng.below(2) == 0 {
                &lion_hits
            } else {
                &legal
            };
            pos.make(&pool[rng.below(pool.len())], &mut ops);
            assert_eq!(pos.inconsistency(), None, "{fen}");
            plies += 1;
        }
    }
    eprintln!("chu lion walk: {plies} plies, {strikes} counterstrike positions, {refused} refused lion captures");
    assert!(
        strikes >= 10 && refused >= 10,
        "the rules decided too few moves: {strikes} {refused}"
    );
}

/// True when the move removes an enemy lion (`lions`: the lion types).
fn takes_lion(b: &RefBoard, lions: &[u8], m: &Move) -> bool {
    let lion = |c: Coord| {
        b.at(c)
            .is_some_and(|man| man.colour != b.stm && lions.contains(&man.piece))
    };
    lion(m.to_coord()) || m.extras().any(lion)
}

/// `variants/chu-hachu.ini` as a variant.
fn hachu_chu() -> variants::Variant {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chu-hachu.ini");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    variants::load_str(&text, "chu-hachu.ini")
        .unwrap_or_else(|e| panic!("{e:?}"))
        .remove(0)
}

/// The engine's legal moves equal the reference generator's in `g`'s position.
fn agrees_with_reference(g: &mut Game, v: &variants::Variant) {
    let sorted = |mut l: Vec<Move>| {
        l.sort_by_key(|m| format!("{m:?}"));
        l
    };
    let reference = ref_legal(&RefBoard::from_position(g.position()), v);
    assert_eq!(
        sorted(g.legal_moves()),
        sorted(reference),
        "engine vs reference"
    );
}

/// `variants/chu-hachu.ini` with the built-in chu's lions (the lion and the promoted kirin)
/// and, when `end_square_only` is false, the standard counterstrike rule.
fn hachu_with_both_lions(end_square_only: bool) -> variants::Variant {
    let mut v = hachu_chu();
    let lions = variant("chu").capture_matrix.lion.map(|l| l.lions);
    match (v.capture_matrix.lion.as_mut(), lions) {
        (Some(l), Some(lions)) if l.end_square_only && l.lions.len() == 1 => {
            l.lions = lions;
            l.end_square_only = end_square_only;
        }
        _ => panic!("chu-hachu.ini: XBoard's counterstrike, the lion alone a lion"),
    }
    v
}

/// Whether `text` is legal after `first` in `fen` under `v`; the engine's legal moves are
/// checked against the reference generator's after `first`.
fn legal_after(v: &variants::Variant, fen: &str, first: &str, text: &str) -> bool {
    let mut g = Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
    play(&mut g, first);
    agrees_with_reference(&mut g, v);
    legal(&mut g, text)
}

/// A chu game against HaChu under XBoard (docs/history/strength-log.md, session 25): White's
/// soaring eagle takes Black's lion on g4 (a strike), and Black's promoted kirin on e5 answers by
/// taking the pawn on d6 and White's unprotected lion on d7. Where the promoted kirin is a
/// lion (the built-in chu, HaChu) the standard rule allows that: it binds non-lions only.
/// XBoard's legality test forfeited it: to XBoard the promoted kirin is no lion (and after a
/// strike no man may end on a lion at all). A move later the rule is over.
#[test]
fn xboard_forbids_a_promoted_kirin_to_take_a_lion_after_a_strike() {
    let fen = "l3g1kgsc1l/avfct1e2f1a/m2ts7/pp9p/7pp3/3N4i3/2PP8/1PF1+o6P/PV4n4+D/5M6/A1C1TGET3A/L4KOG1C1L w - - 9 104";
    let take = "e5d6,d6d7";
    assert!(legal_after(
        &hachu_with_both_lions(false),
        fen,
        "l4g4",
        take
    ));
    let hachu = hachu_chu();
    assert!(!legal_after(&hachu, fen, "l4g4", take));
    assert!(legal_after(&hachu, fen, "l4g4", "e5d6"));
    let mut g = Game::from_fen(hachu.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
    for text in ["l4g4", "e5d6", "g4g5"] {
        play(&mut g, text);
    }
    assert!(legal(&mut g, "d6d7"), "the rule lasts one move");
}

/// A chu game against HaChu under XBoard (session 25): Black's silver takes White's promoted
/// kirin on i10, and White's lion takes Black's lion from afar. To XBoard the promoted kirin is
/// no lion, so that was no strike and the capture is legal; Locust, counting the promoted
/// kirin as a lion under XBoard's counterstrike reading, called it illegal and forfeited.
#[test]
fn xboard_a_promoted_kirin_taken_is_no_strike() {
    let fen = "6N3k1/4t4sc1/6n1+O3/12/6tf4/12/7G4/3g4+p3/M4G6/12/4TET5/5K6 b - - 0 257";
    let (first, take) = ("j11i10", "g12g10");
    assert!(legal_after(&hachu_chu(), fen, first, take));
    assert!(legal_after(&variant("chu"), fen, first, take));
    assert!(!legal_after(&hachu_with_both_lions(true), fen, first, take));
}

/// The position of a chu game against HaChu under XBoard (docs/history/strength-log.md, session
/// 22): Black's lion on e4 takes White's go-between on d5, then White's lion on d6, which only the
/// go-between protected. Under lishogi's reading (the built-in chu) the go-between taken on the way
/// still protects it, so the move is illegal; under HaChu's and XBoard's (`variants/chu-hachu.ini`,
/// `lionBridgeProtects = false`) protection is judged once the move is made, and it is legal.
/// Engine and reference generator agree in both.
#[test]
fn a_bridge_taken_on_the_way_protects_only_under_lishogis_reading() {
    let fen = "2c1gekg1cfl/1f1stx1t1b1a/1h8vm/6o1pspp/6ppip1h/7P4/3N6P1/1+B1I4PP2/APRPnPP4P/1V5DTRVM/4T6A/LFCSGKEGSCFL b - - 1 53";
    let mut g = game(fen);
    assert!(!moves_from(&mut g, "e4").contains("e4d5,d5d6"));
    let hachu = hachu_chu();
    assert_eq!(hachu.name, "chu");
    assert!(hachu
        .capture_matrix
        .lion
        .as_ref()
        .is_some_and(|l| !l.bridge_protects));
    let mut g = Game::from_fen(hachu.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
    let moves = g.legal_moves();
    let reference = ref_legal(&RefBoard::from_position(g.position()), &hachu);
    assert_eq!(moves.len(), reference.len(), "engine vs reference");
    assert!(legal(&mut g, "e4d5,d5d6"));
}

/// Game 25 of session 26's second stream against HaChu, after Locust's `j8j6`: Black's king
/// on l7 has no move and is not in check.
const STALEMATE_FEN: &str = "12/12/12/5+P2+S3/4+C7/5K5k/9Q2/8M3/12/6G5/3G4CSF1/6E5 b - - 2 218";

#[test]
fn a_stalemate_is_a_draw_under_xboards_chu_and_a_loss_in_lishogis() {
    let draw = Game::from_fen(hachu_chu(), STALEMATE_FEN)
        .unwrap()
        .outcome()
        .unwrap();
    assert_eq!((draw.winner, draw.reason), (None, Termination::Stalemate));
    let loss = Game::from_fen(variant("chu"), STALEMATE_FEN)
        .unwrap()
        .outcome()
        .unwrap();
    assert_eq!(
        (loss.winner, loss.reason),
        (
            Some(locust::board::types::Colour::White),
            Termination::Stalemate
        )
    );
}

#[test]
fn xboards_chu_has_the_fifty_move_rule() {
    // A quiet position of the same game with the reversible-move counter at 100 plies.
    let fen = "12/12/12/5+P2+S3/4+C4Q2/5K5k/12/8M3/12/6G5/3G4CSF1/6E5 w - - 100 218";
    let ended = Game::from_fen(hachu_chu(), fen).unwrap().outcome().unwrap();
    assert_eq!((ended.winner, ended.reason), (None, Termination::MoveRule));
    assert!(Game::from_fen(variant("chu"), fen)
        .unwrap()
        .outcome()
        .is_none());
}

/// A chu game against HaChu under XBoard (docs/history/strength-log.md, session 26, run 3): White's
/// king on d3 stands in check from the knight on g2, and its drunk elephant on f8 may promote to a
/// crown prince. Where royals are counted as the move ends (lishogi) the prince makes the king one
/// of two, which may stand attacked; XBoard counts them as the move begins and forfeited `f8g9+`.
/// chu-hachu.ini plays XBoard's reading.
#[test]
fn xboard_counts_royals_as_the_move_begins() {
    let fen = "6k4l/5geg3a/7v4/11m/5E4p1/12/12/1+l10/3F1GG1PF2/3K8/6n5/12 w - - 2 175";
    let texts = |v: variants::Variant| {
        let mut g = Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{e}"));
        agrees_with_reference(&mut g, &v);
        let all: BTreeSet<String> = g
            .legal_moves()
            .iter()
            .map(|m| write(g.position(), m, Dialect::Xboard))
            .collect();
        all
    };
    let king = set(&["d3d2", "d3c2", "d3c3"]);
    assert_eq!(texts(hachu_chu()), king);
    let crowned = set(&["f8g9+", "f8e9+", "f8f9+"]);
    let lishogi: BTreeSet<String> = king.union(&crowned).cloned().collect();
    assert_eq!(texts(variant("chu")), lishogi);
}
