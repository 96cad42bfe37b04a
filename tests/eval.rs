//! Evaluation terms seen from outside: the passed-pawn bonus, the zone-step bonus,
//! threats, passed pawns' royal distances, and the colour symmetry of the whole.

#![allow(clippy::expect_used)] // tests may panic on their own fixtures

mod common;

use locust::eval::EvalTables;

/// Evaluation (White's view: the FENs have White to move) of a chess position.
fn eval_of(name: &str, fen: &str) -> i32 {
    let start = common::start(name);
    let pos = start.clone().with_fen(fen).expect("test FEN");
    EvalTables::new(start.layout(), &start).evaluate(&pos)
}

#[test]
fn a_passed_pawn_is_worth_more_than_one_an_enemy_pawn_can_stop() {
    // White's e6 pawn: passed when Black's pawn is on h7, not when it is on f7 (it guards
    // f7's diagonal). The black pawn's own square tables differ by a step of centralisation
    // only, less than the bonus of a pawn on the sixth rank in an endgame. (The margin is
    // the fitted weights' (docs/TUNING.md, sprt-log T-1): about 10 centipawns; the hand-set
    // ones gave 50 and more.)
    let passed = eval_of("chess", "4k3/7p/4P3/8/8/8/8/4K3 w - - 0 1");
    let stopped = eval_of("chess", "4k3/5p2/4P3/8/8/8/8/4K3 w - - 0 1");
    assert!(passed - stopped > 5, "passed {passed}, stopped {stopped}");
    // Black's passed pawn counts the other way (Black moves down the ranks).
    let black_passed = eval_of("chess", "4k3/8/8/8/8/4p3/P7/4K3 w - - 0 1");
    let black_stopped = eval_of("chess", "4k3/8/8/8/8/4p3/3P4/4K3 w - - 0 1");
    assert!(
        black_stopped - black_passed > 5,
        "passed {black_passed}, stopped {black_stopped}"
    );
}

#[test]
fn a_soldier_across_the_river_is_worth_about_two_at_home() {
    // The same soldier on White's own side (e4) and across the river (e6), kings and
    // advisors placed so that nothing else changes: across the river it has two sideways
    // steps beside its forward one, worth about its value again.
    let home = eval_of("xiangqi", "3ak4/9/9/9/9/9/4P4/9/9/3AK4 w - - 0 1");
    let across = eval_of("xiangqi", "3ak4/9/9/4P4/9/9/9/9/9/3AK4 w - - 0 1");
    let none = eval_of("xiangqi", "3ak4/9/9/9/9/9/9/9/9/3AK4 w - - 0 1");
    assert!(home - none >= 90, "home {home}, none {none}");
    // The crossing adds the zone's worth (its value) and two ranks of advance.
    assert!(
        (80..=160).contains(&(across - home)),
        "across {across}, home {home}"
    );
    // On the edge file it has one sideways step: half the gain.
    let edge = eval_of("xiangqi", "3ak4/9/9/P8/9/9/9/9/9/3AK4 w - - 0 1");
    assert!(across - edge >= 30, "across {across}, edge {edge}");
}

#[test]
fn a_lion_in_the_enemy_corner_near_the_enemy_lion_is_in_danger() {
    // White's lion on b10, in Black's camp two files from the edge. Near Black's lion (d10)
    // it risks being shut in; with Black's lion far away (i3), it does not. The corner
    // penalty is most of a lion, far more than the other terms these moves change.
    let near = eval_of("chu", "5k6/12/1N1n8/12/12/12/12/12/12/12/12/5K6 w - - 0 1");
    let far = eval_of("chu", "5k6/12/1N10/12/12/12/12/12/12/8n3/12/5K6 w - - 0 1");
    assert!(far - near > 1000, "near {near}, far {far}");
    // A gold on a9 protects the lion; on a7 it does not: protected, it is ten times safer.
    let guarded = eval_of("chu", "5k6/12/1N1n8/G11/12/12/12/12/12/12/12/5K6 w - - 0 1");
    let alone = eval_of("chu", "5k6/12/1N1n8/12/12/G11/12/12/12/12/12/5K6 w - - 0 1");
    assert!(guarded - alone > 1000, "guarded {guarded}, alone {alone}");
    // Chess has no lions: nothing changes there (the same lines as a chess queen raid).
    let raid = eval_of("chess", "1Q1q3k/8/8/8/8/8/8/7K w - - 0 1");
    let home = eval_of("chess", "3q3k/8/8/8/8/8/8/1Q5K w - - 0 1");
    assert!((raid - home).abs() < 200, "raid {raid}, home {home}");
}

#[test]
fn a_lion_shut_in_deep_in_the_enemy_camp_is_in_danger() {
    // Black's free kings on a8-a12 and l10 (and the king) attack every square within two
    // steps of e10, so White's lion there could flee nowhere; on e6, out of the camp, the
    // same men do not count against it.
    let shut = eval_of(
        "chu",
        "q4k6/q11/q3N6q/q11/q11/12/12/12/12/12/12/5K6 w - - 0 1",
    );
    let out = eval_of(
        "chu",
        "q4k6/q11/q10q/q11/q11/12/4N7/12/12/12/12/5K6 w - - 0 1",
    );
    assert!(out - shut > 400, "shut in {shut}, outside the camp {out}");
    // Without the guards, the lion deep in the camp is not penalised.
    let free = eval_of("chu", "5k6/12/4N7/12/12/12/12/12/12/12/12/5K6 w - - 0 1");
    let home = eval_of("chu", "5k6/12/12/12/12/12/4N7/12/12/12/12/5K6 w - - 0 1");
    assert!((free - home).abs() < 150, "free {free}, home {home}");
}

/// The colour mirror of a simple FEN (no castling or en-passant rights): ranks in reverse
/// order, case swapped on the board and in the hand, the other side to move.
fn mirror(fen: &str) -> String {
    let mut fields: Vec<String> = fen.split(' ').map(str::to_string).collect();
    let (board, hand) = match fields[0].split_once('[') {
        Some((b, h)) => (b.to_string(), format!("[{}", h)),
        None => (fields[0].clone(), String::new()),
    };
    let swap = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_uppercase() {
                    c.to_ascii_lowercase()
                } else {
                    c.to_ascii_uppercase()
                }
            })
            .collect()
    };
    let ranks: Vec<String> = board.split('/').rev().map(swap).collect();
    fields[0] = format!("{}{}", ranks.join("/"), swap(&hand));
    fields[1] = if fields[1] == "w" { "b" } else { "w" }.to_string();
    fields.join(" ")
}

#[test]
fn the_score_is_the_same_seen_from_either_side() {
    // Middle games with attacks on a royal's zone, threatened men and men in hand: the
    // score from the side to move's view must not depend on which colour that side is.
    let cases = [
        (
            "chess",
            "r1b2rk1/ppp2ppp/2np4/2b5/6nq/2NB4/PPPN1PPP/R1BQR1K1 w - - 0 1",
        ),
        ("chess", "4k3/8/8/4p3/3N1B2/8/8/4K3 b - - 0 1"),
        (
            "capablanca",
            "r1b1k2c1r/ppppqppppp/2n5n1/4p1a3/4P5/2N3N3/PPPP1PPPPP/R1BQKBCA1R w - - 0 1",
        ),
        (
            "xiangqi",
            "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1N2/9/RNBAKAB1R b - - 0 1",
        ),
        (
            "shogi",
            "lnsg1gsnl/1r2k2b1/pppp1pppp/4p4/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL[Pp] w 0 1",
        ),
        (
            "crazyhouse",
            "r1bqk2r/pppp1ppp/2n2n2/4p3/1bB1P3/5N2/PPPP1PPP/RNBQK2R[Np] w - - 0 1",
        ),
    ];
    for (name, fen) in cases {
        let (a, b) = (eval_of(name, fen), eval_of(name, &mirror(fen)));
        assert_eq!(a, b, "{name}: {fen} {a}, mirrored {b}");
    }
}

#[test]
fn the_side_to_move_loses_a_man_to_a_fork() {
    // Black's e5 pawn attacks White's undefended knight and bishop; with White to move one
    // of them is lost, which the stand-pat score must show. On e6 the pawn attacks neither.
    // (With the fitted endgame values a minor piece is worth about 200 here, and the fitted
    // threat weights take about half of it: 104 at T-1, docs/history/sprt-log.md.)
    let fork = eval_of("chess", "4k3/8/8/4p3/3N1B2/8/8/4K3 w - - 0 1");
    let calm = eval_of("chess", "4k3/8/4p3/8/3N1B2/8/8/4K3 w - - 0 1");
    assert!(calm - fork > 75, "fork {fork}, calm {calm}");
}

#[test]
fn a_passed_pawn_the_enemy_king_cannot_reach_is_worth_more() {
    // White's e6 pawn with Black's king on e8 (in front of it) against Black's king on a2
    // (five steps from e7, which nothing then attacks): the endgame's royal distances and the
    // free square in front weigh far more than the kings' own square tables: more than a
    // pawn's middle-game value (fit B of sprt-log E3-1: 123 of a difference).
    let far = eval_of("chess", "8/8/4P3/8/8/8/k7/4K3 w - - 0 1");
    let near = eval_of("chess", "4k3/8/4P3/8/8/8/8/4K3 w - - 0 1");
    assert!(far - near > 100, "far {far}, near {near}");
}

/// Where men are counted at the end (`materialCounting = unweighted`: reversi, ataxx), each
/// man is worth the same from the compiled rule, not from how it moves: a reversi man (which
/// never moves, worth nothing by its moves) and an ataxx man. A lead of three men is about
/// two men's worth, and men in hand count for nothing.
#[test]
fn counted_men_are_worth_one_each() {
    let hand = "[PPPPPPPPPPpppppppppp]";
    let flipello = |board: &str| eval_of("flipello", &format!("{board}{hand} w - - 0 1"));
    let lead = flipello("8/8/8/3PPP2/3Ppp2/8/8/8");
    let even = flipello("8/8/8/3PpP2/3pPp2/8/8/8");
    assert!(
        (150..=250).contains(&(lead - even)),
        "lead {lead}, even {even}"
    );
    let more_in_hand = eval_of(
        "flipello",
        "8/8/8/3PpP2/3pPp2/8/8/8[PPPPPPPPPPPPPPPPPPPPpppppppppp] w - - 0 1",
    );
    assert_eq!(more_in_hand, even);
    let ataxx = eval_of("ataxx", "P5p/P6/P6/7/7/7/p5P w - - 0 1");
    let level = eval_of("ataxx", "P5p/7/7/7/7/7/p5P w - - 0 1");
    assert!((150..=300).contains(&(ataxx - level)), "{ataxx} {level}");
}
