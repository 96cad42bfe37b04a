//! The chasing rule (`chasingRule = axf`): a repetition where one side chased the same man (or
//! checked) on every one of its moves is lost by that side, in the game record and in search.

#![allow(clippy::unwrap_used)]

mod common;

use locust::board::types::Colour;
use locust::game::{Game, Outcome, Termination};
use locust::search::{Limits, Score, SearchEvent, SearchOptions, Searcher};

fn game(variant: &str, fen: &str) -> Game {
    Game::from_fen(common::variant(variant), fen).unwrap()
}

/// Plays `cycle` `times` times from `fen` (no earlier end allowed) and returns the end.
fn repeat(variant: &str, fen: &str, cycle: &[&str], times: usize) -> Option<Outcome> {
    let mut g = game(variant, fen);
    for _ in 0..times {
        for m in cycle {
            assert_eq!(g.outcome(), None, "{fen}: ended before {m}");
            let mv = g
                .parse_move(m)
                .unwrap_or_else(|e| panic!("{fen}: {m}: {e}"));
            g.play(mv);
        }
    }
    g.outcome()
}

fn loss(loser: Colour, reason: Termination) -> Option<Outcome> {
    Some(Outcome {
        winner: Some(loser.flip()),
        reason,
    })
}

const DRAW: Option<Outcome> = Some(Outcome {
    winner: None,
    reason: Termination::Repetition,
});

/// The red chariot swings between a8 and a6, attacking the lone black horse on every move
/// (along rank 6 at h6, along rank 8 at g8); the horse flees between h6 and g8. Nothing
/// protects the horse, so Red chases it perpetually and loses at the third occurrence.
#[test]
fn chariot_chasing_an_unprotected_horse_loses() {
    let fen = "5k3/9/R8/9/7n1/9/9/9/9/4K4 w - - 0 1";
    let end = repeat("xiangqi", fen, &["a8a6", "h6g8", "a6a8", "g8h6"], 2);
    assert_eq!(end, loss(Colour::White, Termination::PerpetualChase));
}

/// The same swings against a horse that black chariots on g10 and h10 protect on both of its
/// squares: a chariot attacking a protected horse (worth less than 1.5 chariots) is no chase,
/// and the repetition is a draw. Without the protectors Red loses (the first test).
#[test]
fn chasing_a_protected_cheaper_man_is_a_draw() {
    let cycle = ["a8a6", "h6g8", "a6a8", "g8h6"];
    let protected = "5krr1/9/R8/9/7n1/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(repeat("xiangqi", protected, &cycle, 2), DRAW);
    let bare = "5k3/9/R8/9/7n1/9/9/9/9/4K4 w - - 0 1";
    assert_eq!(
        repeat("xiangqi", bare, &cycle, 2),
        loss(Colour::White, Termination::PerpetualChase)
    );
}

/// A red cannon swings between d3 and f3 and attacks, over the red soldiers on d5 and f5,
/// the black chariot that flees between d8 and f8. The advisor on e9 protects both squares,
/// but a chariot is worth more than 1.5 cannons: still a chase, and Red loses.
#[test]
fn cannon_chasing_a_protected_chariot_loses() {
    let fen = "4k4/4a4/3r5/9/9/3P1P3/9/5C3/9/3K5 w - - 0 1";
    let end = repeat("xiangqi", fen, &["f3d3", "d8f8", "d3f3", "f8d8"], 2);
    assert_eq!(end, loss(Colour::White, Termination::PerpetualChase));
}

/// The weakest men and the royals do not chase. A red soldier across the river steps between
/// e6 and f6 and attacks, each time anew, the black chariot stepping between f7 and e7; the
/// red general steps between e1 and f1 and attacks the black cannon stepping between f2 and
/// e2. Both repetitions are draws.
#[test]
fn soldier_and_general_do_not_chase() {
    let soldier = "4k4/9/9/5r3/4P4/9/9/9/9/3K5 w - - 0 1";
    let end = repeat("xiangqi", soldier, &["e6f6", "f7e7", "f6e6", "e7f7"], 2);
    assert_eq!(end, DRAW);
    let general = "3k5/9/9/9/9/9/9/9/5c3/4K4 w - - 0 1";
    let end = repeat("xiangqi", general, &["e1f1", "f2e2", "f1e1", "e2f2"], 2);
    assert_eq!(end, DRAW);
}

/// Red checks with the chariot on a9/a10 (the general steps between e10 and e9) and chases
/// the horse with the chariot on a8/a6 in turn: every red move checks or chases the same
/// horse, and Red loses. Neither alone is Red's whole cycle, so the old perpetual-check rule
/// saw a draw.
#[test]
fn checks_mixed_with_chases_lose() {
    let fen = "4k4/R8/R8/9/7n1/9/9/9/9/3K5 w - - 0 1";
    let cycle = [
        "a9a10", "e10e9", "a8a6", "h6g8", "a10a9", "e9e10", "a6a8", "g8h6",
    ];
    let end = repeat("xiangqi", fen, &cycle, 2);
    assert_eq!(end, loss(Colour::White, Termination::PerpetualChase));
}

/// Chess has no chasing rule: the rook's swings between a7 and a5 against the lone knight
/// fleeing between h5 and g7 (the first test's cycle on an 8x8 board, the black king on c8
/// far from the knight) are a plain repetition.
#[test]
fn chess_has_no_chasing_rule() {
    let fen = "2k5/R7/8/7n/8/8/8/4K3 w - - 0 1";
    let end = repeat("chess", fen, &["a7a5", "h5g7", "a5a7", "g7h5"], 2);
    assert_eq!(end, DRAW);
}

/// The best move and last score of a fixed-depth search.
fn best_move(g: &Game, depth: u32) -> (String, Option<Score>) {
    let mut searcher = Searcher::new(SearchOptions::default());
    let (tx, rx) = crossbeam_channel::unbounded();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.start(g, limits, tx);
    let mut score = None;
    for ev in rx {
        match ev {
            SearchEvent::Info(i) => score = Some(i.score),
            SearchEvent::BestMove { best, .. } => {
                return (best.map_or("(none)".into(), |m| g.move_text(&m)), score);
            }
            SearchEvent::Message(_) => {}
        }
    }
    panic!("the search ended without a best move");
}

/// Black is a horse and two advisors up (its chariot on e9, protected by the general). After one round of the first test's cycle, a8a6 again would
/// repeat the position after Red's first chase, every red move of that cycle a chase of the
/// horse: a lost repetition for Red, where it used to be the draw that saved the game. The
/// search plays on instead, a horse down but not lost.
#[test]
fn search_does_not_repeat_a_losing_chase() {
    let mut g = game("xiangqi", "3aka3/4r4/R8/9/7n1/9/9/9/9/3K5 w - - 0 1");
    for m in ["a8a6", "h6g8", "a6a8", "g8h6"] {
        let mv = g.parse_move(m).unwrap();
        g.play(mv);
    }
    let (best, score) = best_move(&g, 6);
    assert_ne!(best, "a8a6", "score {score:?}");
    match score {
        Some(Score::Cp(cp)) => assert!((-2_000..0).contains(&cp), "{best} {cp}"),
        other => panic!("{best}: {other:?}"),
    }
}
