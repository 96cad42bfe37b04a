//! Tenjiku Shogi by hand: depth-1 move lists and counts worked out on paper from the rules in
//! docs/variants.md (burning, range jumps across jump ranks, the Heavenly Tetrarchs' igui,
//! the Lion Hawk, promotion), checked against the engine's legal moves. No oracle exists for
//! tenjiku, so the expected figures below were counted square by square, not taken from a run.

#![allow(clippy::expect_used)]

mod common;

use locust::board::moves::{Move, MoveKind};
use locust::board::position::Position;
use locust::board::stages::Stage;
use locust::board::types::Colour;
use variants::geometry::Coord;

/// A tenjiku position from a list of (square, FEN letter) and the side to move.
fn setup(men: &[(&str, &str)], side: char) -> Position {
    let mut rows = Vec::new();
    for rank in (1..=16).rev() {
        let (mut row, mut gap) = (String::new(), 0);
        for file in b'a'..=b'p' {
            let sq = format!("{}{rank}", file as char);
            match men.iter().find(|(s, _)| *s == sq) {
                Some((_, letter)) => {
                    if gap > 0 {
                        row.push_str(&gap.to_string());
                    }
                    gap = 0;
                    row.push_str(letter);
                }
                None => gap += 1,
            }
        }
        if gap > 0 {
            row.push_str(&gap.to_string());
        }
        rows.push(row);
    }
    let fen = format!("{} {side} - - 0 1", rows.join("/"));
    common::start("tenjiku")
        .with_fen(&fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn legal(pos: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    pos.legal_moves(&mut out, &mut Vec::new());
    out
}

/// A move as `to`, then `,victim` for each extra square, then `+` when it promotes.
fn text(m: &Move) -> String {
    let mut s = m.to_coord().to_text();
    for v in m.extras() {
        s.push(',');
        s.push_str(&v.to_text());
    }
    if m.kind == MoveKind::Promotion {
        s.push('+');
    }
    s
}

/// The sorted legal moves of the man on `from`.
fn from(pos: &mut Position, sq: &str) -> Vec<String> {
    let mut out: Vec<String> = legal(pos)
        .iter()
        .filter(|m| m.kind != MoveKind::Drop && m.from_coord().to_text() == sq)
        .map(text)
        .collect();
    out.sort();
    out
}

fn sorted(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The capture stage's moves, as `from` + [`text`].
fn capture_stage(pos: &Position) -> Vec<String> {
    let mut out = Vec::new();
    pos.gen_stage(Stage::Captures, &mut out);
    let mut v: Vec<String> = out
        .iter()
        .map(|m| format!("{}{}", m.from_coord().to_text(), text(m)))
        .collect();
    v.sort();
    v
}

/// Plays the legal move of the man on `from` written `what` (see [`text`]).
fn play(pos: &mut Position, from_sq: &str, what: &str) {
    let m = legal(pos)
        .into_iter()
        .find(|m| m.from_coord().to_text() == from_sq && text(m) == what)
        .unwrap_or_else(|| panic!("no legal {from_sq} {what}"));
    pos.make(&m, &mut Vec::new());
    assert_eq!(pos.inconsistency(), None);
}

fn empty(pos: &Position, sq: &str) -> bool {
    let c = Coord::parse(sq, 16, 16).expect("square");
    pos.man_at(pos.layout().sq(c)).is_none()
}

/// Position 1: A Fire Demon (slides diagonally and vertically) on the edge: 2 + 7 + 8 + 6 = 23
/// moves (its up-right diagonal ends on the pawn c10), the king 3. Five of them burn or
/// capture: c10 (capture), b9 (burns c10), a11, a12, a13 (burn b12).
#[test]
fn demon_burns_on_arrival_and_its_burns_are_captures() {
    let mut pos = setup(
        &[
            ("a1", "K"),
            ("a8", "D!"),
            ("c10", "p"),
            ("b12", "p"),
            ("p16", "k"),
        ],
        'w',
    );
    assert_eq!(legal(&mut pos).len(), 26);
    let up_right = ["b9", "c10"];
    let down_right = ["b7", "c6", "d5", "e4", "f3", "g2", "h1"];
    let up = ["a9", "a10", "a11", "a12", "a13", "a14", "a15", "a16"];
    let down = ["a7", "a6", "a5", "a4", "a3", "a2"];
    let all: Vec<&str> = [&up_right[..], &down_right, &up, &down].concat();
    assert_eq!(from(&mut pos, "a8"), sorted(&all));
    let burns = ["a8a11", "a8a12", "a8a13", "a8b9", "a8c10"];
    assert_eq!(capture_stage(&pos), sorted(&burns));
    let mut after = pos.clone();
    play(&mut after, "a8", "b9");
    assert!(empty(&after, "c10") && !empty(&after, "b12"));
    play(&mut pos, "a8", "a12");
    assert!(empty(&pos, "b12") && !empty(&pos, "c10"));
}

/// Position 2: An enemy Fire Demon next to the landing square burns like any other man (the side that
/// moves burns first). The black demon on c9 could land on c1, c2 or c3, next to b1 and b2:
/// the king may only go to a2. White: 8 + 7 + 8 + 6 = 29 demon moves and Ka2.
#[test]
fn adjacent_enemy_demon_is_burned_and_guards_the_kings_squares() {
    let mut pos = setup(
        &[("a1", "K"), ("a8", "D!"), ("c9", "d!"), ("p16", "k")],
        'w',
    );
    assert_eq!(from(&mut pos, "a1"), sorted(&["a2"]));
    assert_eq!(from(&mut pos, "a8").len(), 29);
    assert_eq!(legal(&mut pos).len(), 30);
    assert_eq!(capture_stage(&pos), sorted(&["a8b9", "a8c10"]));
    play(&mut pos, "a8", "c10");
    assert!(empty(&pos, "c9"));
}

/// Position 3: Burning as a threat: the demon on h8 can land on l12, next to the king on k13, so Black
/// is in check with no man attacking k13 itself. Only j13, j14 and k14 are away from every
/// square the demon reaches (k11, l12, m13, the h file...).
#[test]
fn a_king_next_to_a_demon_landing_square_is_in_check() {
    let mut pos = setup(&[("a1", "K"), ("h8", "D!"), ("k13", "k")], 'b');
    assert!(pos.in_check(Colour::Black));
    let h8 = Coord::parse("h8", 16, 16).expect("h8");
    let checkers = pos.checkers(Colour::Black);
    assert_eq!(checkers.len(), 1);
    assert_eq!(pos.layout().coord(checkers[0]), Some(h8));
    assert_eq!(from(&mut pos, "k13"), sorted(&["j13", "j14", "k14"]));
    assert_eq!(legal(&mut pos).len(), 3);
}

/// Position 4: Burning a king: the same men, White to move: 8 + 7 + 6 + 7 + 8 + 7 = 43 demon moves
/// and 3 king moves; only h8-l12 removes a man (it burns the king), and it ends the game.
#[test]
fn burning_the_king_wins() {
    let mut pos = setup(&[("a1", "K"), ("h8", "D!"), ("k13", "k")], 'w');
    assert_eq!(legal(&mut pos).len(), 46);
    assert_eq!(capture_stage(&pos), sorted(&["h8l12"]));
    play(&mut pos, "h8", "l12");
    assert!(empty(&pos, "k13"));
    assert!(legal(&mut pos).is_empty(), "Black has lost its only royal");
}

/// Position 5: The Great General (rank 3) jumps its own pawn and the lower men behind it (a
/// pawn, a Vice General of rank 2), which it may take, and stops at the enemy Great General
/// (equal rank), which it may take too; past a man it only captures, so a7 a8 a10 a12 are
/// out of reach: 3 up (a9 a11 a13), 4 down, 15 right, 11 and 4 on the diagonals = 37, plus
/// the pawn's a7 and three king moves.
#[test]
fn great_general_jumps_lower_ranks_and_stops_at_an_equal() {
    let men = [
        ("p1", "K"),
        ("a5", "Q!"),
        ("a6", "P"),
        ("a9", "p"),
        ("a11", "v!"),
        ("a13", "q!"),
        ("a15", "p"),
        ("p16", "k"),
    ];
    let mut pos = setup(&men, 'w');
    let targets = from(&mut pos, "a5");
    for t in ["a9", "a11", "a13"] {
        assert!(targets.contains(&t.to_string()), "{t} missing");
    }
    for t in ["a6", "a7", "a8", "a10", "a12", "a14", "a15", "a16"] {
        assert!(!targets.contains(&t.to_string()), "{t} reached");
    }
    assert_eq!(targets.len(), 37);
    assert_eq!(legal(&mut pos).len(), 41);
}

/// Position 6: The Vice General (rank 2) on a1 jumps its own Bishop General (rank 1) and the enemy
/// Rook General (rank 1, which it may also take), and takes but cannot pass the enemy's
/// promoted Bishop General (rank 2); past a man it only captures (not d4 f6 g7): b2 e5 h8.
/// The Bishop General cannot jump the enemy Rook General (equal rank) and takes it: 7
/// moves. The king: o1 is on the promoted Bishop General's diagonal, so o2 and p2.
#[test]
fn vice_general_is_stopped_by_an_equal_rank_and_bishop_general_by_its_equal() {
    let men = [
        ("p1", "K"),
        ("a1", "V!"),
        ("c3", "B!"),
        ("e5", "r!"),
        ("h8", "+b!"),
        ("a16", "k"),
    ];
    let mut pos = setup(&men, 'w');
    assert_eq!(from(&mut pos, "a1"), sorted(&["b2", "e5", "h8"]));
    assert_eq!(
        from(&mut pos, "c3"),
        sorted(&["d4", "e5", "b4", "a5", "b2", "d2", "e1"])
    );
    assert_eq!(from(&mut pos, "p1"), sorted(&["o2", "p2"]));
    assert_eq!(legal(&mut pos).len(), 12);
}

/// Position 7: The Heavenly Tetrarchs never stop next to themselves: they jump the first square and
/// slide on diagonally (10 + 3 + 3 + 3) and vertically (e7 e8 e9x, e3 e2 e1), reach the
/// second and third square sideways (c5 b5 g5 h5), and take each adjacent enemy without
/// moving (igui on d5 and e6): 31; the pawn f4 and three king moves make 35.
#[test]
fn heavenly_tetrarchs_jump_the_first_square_and_capture_by_igui() {
    let men = [
        ("p1", "K"),
        ("e5", "+C!"),
        ("f4", "P"),
        ("d5", "p"),
        ("e6", "p"),
        ("e9", "p"),
        ("a16", "k"),
    ];
    let mut pos = setup(&men, 'w');
    let expected = [
        "g7", "h8", "i9", "j10", "k11", "l12", "m13", "n14", "o15", "p16", // up-right
        "c7", "b8", "a9", // up-left
        "c3", "b2", "a1", // down-left
        "g3", "h2", "i1", // down-right, over the own pawn
        "e7", "e8", "e9", "e3", "e2", "e1", // vertical, over the pawn e6
        "c5", "b5", "g5", "h5", // sideways, second and third squares
        "e5,d5", "e5,e6", // igui
    ];
    assert_eq!(from(&mut pos, "e5"), sorted(&expected));
    assert_eq!(legal(&mut pos).len(), 35);
    play(&mut pos, "e5", "e5,e6");
    assert!(empty(&pos, "e6") && !empty(&pos, "e5"));
}

/// Position 8: The Lion Hawk: bishop slides (14, the up-right one ending on the pawn g7), the king
/// steps d5 e4 e6 f5 (the diagonal ones are slides already), the eight knight leaps, the
/// two-square orthogonal jumps c5 e3 e7 g5 (the diagonal ones are slides), and the pass
/// (a step out and back, written as a move to its own square): 31, plus 3 king moves.
#[test]
fn lion_hawk_moves_once_per_target() {
    let men = [
        ("p1", "K"),
        ("e5", "H!"),
        ("g7", "p"),
        ("e8", "p"),
        ("a16", "k"),
    ];
    let mut pos = setup(&men, 'w');
    let expected = [
        "f6", "g7", "d6", "c7", "b8", "a9", "d4", "c3", "b2", "a1", "f4", "g3", "h2", "i1", "d5",
        "e4", "e6", "f5", // king steps not on a diagonal slide
        "c4", "c6", "d3", "d7", "f3", "f7", "g4", "g6", // knight
        "c5", "e3", "e7", "g5", // orthogonal two-square jumps
        "e5", // pass
    ];
    assert_eq!(from(&mut pos, "e5"), sorted(&expected));
    assert_eq!(legal(&mut pos).len(), 34);
}

/// Position 9: Promotion on entering the zone (ranks 12 to 16 for White) is optional: the gold's
/// g12, h12, i12 each come twice, g11 i11 h10 once (9); the pawn's c12 twice; 3 king moves.
#[test]
fn promotion_on_entering_the_zone_is_optional() {
    let men = [("p1", "K"), ("h11", "G"), ("c11", "P"), ("a16", "k")];
    let mut pos = setup(&men, 'w');
    assert_eq!(
        from(&mut pos, "h11"),
        sorted(&["g12", "g12+", "h12", "h12+", "i12", "i12+", "g11", "i11", "h10"])
    );
    assert_eq!(from(&mut pos, "c11"), sorted(&["c12", "c12+"]));
    assert_eq!(legal(&mut pos).len(), 14);
}

/// Position 10: A Water Buffalo promoting into a Fire Demon burns on the move it promotes: 40 targets,
/// 8 of them in the zone twice (48), 3 king moves. Only the promotions to b12 and d12 land
/// next to the pawn c13; the same moves unpromoted burn nothing.
#[test]
fn water_buffalo_promoting_into_a_demon_burns_at_once() {
    let men = [("p1", "K"), ("d10", "W!"), ("c13", "p"), ("a16", "k")];
    let mut pos = setup(&men, 'w');
    assert_eq!(from(&mut pos, "d10").len(), 48);
    assert_eq!(legal(&mut pos).len(), 51);
    assert_eq!(capture_stage(&pos), sorted(&["d10b12+", "d10d12+"]));
    let mut unpromoted = pos.clone();
    play(&mut unpromoted, "d10", "d12");
    assert!(!empty(&unpromoted, "c13"));
    play(&mut pos, "d10", "d12+");
    assert!(empty(&pos, "c13"));
}

/// Position 11: Pinned by a burn: the gold on h3 shields the king on h1 from the demon on h10. Off the
/// file (g3 i3 g4 i4) the demon reaches h2; on h2 the demon takes it there; only h4 keeps
/// the king safe. The king may go to g1 or i1, not to g2, h2, i2 (next to h3, where the
/// demon can take the gold).
#[test]
fn a_shield_against_burning_is_pinned() {
    let men = [("h1", "K"), ("h3", "G"), ("h10", "d!"), ("a16", "k")];
    let mut pos = setup(&men, 'w');
    assert!(!pos.in_check(Colour::White));
    assert_eq!(from(&mut pos, "h3"), sorted(&["h4"]));
    assert_eq!(from(&mut pos, "h1"), sorted(&["g1", "i1"]));
    assert_eq!(legal(&mut pos).len(), 3);
}

/// Position 12: Check by a jump: the enemy Great General on e9 reaches the king on e1 over the king's
/// own pawn (rank 0), so no man of lower rank can block; only the king's four side steps
/// remain.
#[test]
fn check_through_a_jumped_pawn_leaves_only_king_moves() {
    let men = [("e1", "K"), ("e2", "P"), ("e9", "q!"), ("a16", "k")];
    let mut pos = setup(&men, 'w');
    assert!(pos.in_check(Colour::White));
    assert_eq!(from(&mut pos, "e1"), sorted(&["d1", "d2", "f1", "f2"]));
    assert_eq!(legal(&mut pos).len(), 4);
}

/// Position 13: check by a promotion's burn. The Water Buffalo on e10, outside the zone
/// (ranks 12-16), may enter it on c12, b13, a14, e12, g12, h13, i14, j15 or k16 and promote
/// into a Fire Demon, which burns on that move: landing on i14 it burns the king on h15, so
/// Black is in check though nothing attacks h15 and no burner stands on the board. Of the
/// king's eight steps i14 is the buffalo's own target, g14 and h14 touch h13, i15 touches i14
/// and j15, i16 touches j15: only g15, g16 and h16 are left (seven without the rule).
#[test]
fn a_water_buffalo_that_may_promote_into_a_demon_checks_by_burning() {
    let men = [("a1", "K"), ("e10", "W!"), ("h15", "k")];
    let mut pos = setup(&men, 'b');
    assert!(pos.in_check(Colour::Black));
    let checkers = pos.checkers(Colour::Black);
    let e10 = Coord::parse("e10", 16, 16).expect("e10");
    assert_eq!(checkers.len(), 1);
    assert_eq!(pos.layout().coord(checkers[0]), Some(e10));
    assert_eq!(from(&mut pos, "h15"), sorted(&["g15", "g16", "h16"]));
    assert_eq!(legal(&mut pos).len(), 3);
    let rules = common::variant("tenjiku");
    assert_eq!(
        common::legal_as_reference("tenjiku", &mut pos, &rules).len(),
        3
    );
    // White to move: the promotion on i14 burns the only royal and wins.
    let mut white = setup(&men, 'w');
    play(&mut white, "e10", "i14+");
    assert!(empty(&white, "h15"));
    assert!(
        legal(&mut white).is_empty(),
        "Black has lost its only royal"
    );
}

/// Position 14: the promotion must be allowed on that move. From f12, inside the zone, the
/// buffalo promotes only by capturing: its quiet step to h14 next to the king on h15 cannot
/// promote, so that is no check; with a black pawn on h14 the capture there may promote and
/// burn the king, which is.
#[test]
fn a_buffalo_inside_the_zone_checks_by_burning_only_through_a_capture() {
    let quiet = [("a1", "K"), ("f12", "W!"), ("h15", "k")];
    let mut pos = setup(&quiet, 'b');
    assert!(!pos.in_check(Colour::Black));
    let rules = common::variant("tenjiku");
    common::legal_as_reference("tenjiku", &mut pos, &rules);
    let capture = [("a1", "K"), ("f12", "W!"), ("h14", "p"), ("h15", "k")];
    let mut pos = setup(&capture, 'b');
    assert!(pos.in_check(Colour::Black));
    common::legal_as_reference("tenjiku", &mut pos, &rules);
}

/// Issue 9, found by a check-steered walk: Black's Fire Demon on j4 checks White's king on h2,
/// but Black's king on l13 stands next to k14, where the Water Buffalo on c6 may enter the
/// zone and promote into a Fire Demon. Black's last move left its king so exposed: Black is
/// in check too, and White's promotion on k14 burns the king and wins, so it is legal though
/// White's own king stays attacked (engine and reference agree: h4j4, l4j4, c6k14+).
const ISSUE_9_BURN: &str = "lnficsge2scifnl/a1c!c!w!t4t4a/s'v'bhd2q'o2c!1bv's'/mvrf!e!2d!3k1rvm/1ppppppp4pf!pp/4d'6d'4/16/3V!12/12v!3/4D'2C!8/2W!7PD'3P/PPP1PPPP3PP1P1/MV3H!1L!1d!1E!F!Rc!M/S'V'B+hE!1D!5HBV'S'/A1C!C!DT1KQ'XTC3A/LNFICSGOEGS1IFNL w - 0 36";

/// [`ISSUE_9_BURN`] one move earlier, as it might have stood: Black to move, its king on l12
/// and no demon on j4 (White not in check).
const ISSUE_9_BEFORE: &str = "lnficsge2scifnl/a1c!c!w!t4t4a/s'v'bhd2q'o2c!1bv's'/mvrf!e!2d!5rvm/1ppppppp3kpf!pp/4d'6d'4/16/3V!12/12v!3/4D'2C!8/2W!7PD'3P/PPP1PPPP3PP1P1/MV3H!1L!3E!F!Rc!M/S'V'B+hE!1D!5HBV'S'/A1C!C!DT1KQ'XTC3A/LNFICSGOEGS1IFNL b - 0 35";

#[test]
fn a_promotion_that_would_burn_the_king_is_a_check() {
    let rules = common::variant("tenjiku");
    let mut pos = common::start("tenjiku")
        .with_fen(ISSUE_9_BURN)
        .expect("fen");
    assert!(pos.in_check(Colour::White) && pos.in_check(Colour::Black));
    let c6 = Coord::parse("c6", 16, 16).expect("c6");
    let checkers = pos.checkers(Colour::Black);
    assert_eq!(checkers.len(), 1);
    assert_eq!(pos.layout().coord(checkers[0]), Some(c6));
    let mut moves: Vec<String> = common::legal_as_reference("tenjiku", &mut pos, &rules)
        .iter()
        .map(|m| format!("{}{}", m.from_coord().to_text(), text(m)))
        .collect();
    moves.sort();
    assert_eq!(moves, sorted(&["c6k14+", "h4j4", "l4j4"]));
    play(&mut pos, "c6", "k14+");
    assert!(empty(&pos, "l13"), "the king is burned");
    assert!(legal(&mut pos).is_empty(), "Black has lost its only royal");

    // One move earlier the king may not step from l12 to l13; it may once the buffalo is gone.
    let mut before = common::start("tenjiku")
        .with_fen(ISSUE_9_BEFORE)
        .expect("fen");
    assert!(!before.in_check(Colour::White) && !before.in_check(Colour::Black));
    common::legal_as_reference("tenjiku", &mut before, &rules);
    assert!(!from(&mut before, "l12").contains(&"l13".to_string()));
    let without = ISSUE_9_BEFORE.replace("/2W!7PD'3P/", "/10PD'3P/");
    let mut without = common::start("tenjiku").with_fen(&without).expect("fen");
    common::legal_as_reference("tenjiku", &mut without, &rules);
    assert!(from(&mut without, "l12").contains(&"l13".to_string()));
}

/// Issue 9: from the start position the Bishop General on k4 used to jump its own pawn on l5
/// without capturing and land on p9, checking the king on i16 over four men of rank 0 with
/// no reply left (mate in one). A range jump captures: past a man the general may only take.
/// Its six moves from k4 are the jump captures up the long diagonal over the own pawn j5
/// (c12 pawn, b13 Vertical Mover, a14 Side Soldier, each in the zone, with and without
/// promotion); the other three diagonals hold only own men, the pawn l5 blocks a slide.
#[test]
fn start_position_bishop_general_only_jumps_to_capture_and_no_move_mates() {
    let mut pos = common::start("tenjiku");
    assert_eq!(
        from(&mut pos, "k4"),
        sorted(&["a14", "a14+", "b13", "b13+", "c12", "c12+"])
    );
    let first = legal(&mut pos);
    let k4p9 = |m: &Move| m.from_coord().to_text() == "k4" && text(m) == "p9";
    assert!(!first.iter().any(k4p9), "k4p9 is legal");
    assert_eq!(first.len(), 74);
    for m in &first {
        let mut after = pos.clone();
        after.make(m, &mut Vec::new());
        assert!(
            !legal(&mut after).is_empty(),
            "{}{} mates at once",
            m.from_coord().to_text(),
            text(m)
        );
    }
}

/// The Locust vs Locust game under XBoard 4.9.1 (tests/data/games/tenjiku-selfplay.pgn): its
/// moves, as the engines sent them with the option `Ranks from 0` (XBoard's `-rankOffset 1`),
/// replay as legal moves from the start position and end in the checkmate XBoard recorded.
/// Eleven of them leave the 16th rank, the moves XBoard 4.9.1 garbled with ranks from 1.
#[test]
fn the_xboard_selfplay_game_replays_to_its_checkmate() {
    use locust::engine::notation::{parse, Dialect};
    use locust::game::{Game, Outcome, Termination};
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/games/tenjiku-selfplay.moves"
    );
    let text = std::fs::read_to_string(path).expect("the moves file");
    let mut game = Game::new(common::start("tenjiku").variant().clone()).expect("start");
    let mut plies = 0;
    let mut top_rank = 0;
    for word in text.lines().filter(|l| !l.starts_with('#')) {
        assert!(
            game.outcome().is_none(),
            "ply {plies}: the game ended early"
        );
        let m = parse(&mut game, word, Dialect::XboardZeroRanks)
            .unwrap_or_else(|e| panic!("ply {plies}: {word}: {e}"));
        top_rank += usize::from(m.from_coord().rank == 15);
        game.play(m);
        plies += 1;
    }
    assert_eq!(plies, 308);
    assert_eq!(top_rank, 11, "moves from the 16th rank");
    let end = game.outcome();
    assert_eq!(
        end,
        Some(Outcome {
            winner: Some(Colour::Black),
            reason: Termination::Checkmate,
        })
    );
}
