//! Fairy-Stockfish's claimable endings as Locust plays them (issue 44): repetition with
//! `nFoldValue` and `nFoldValueAbsolute`, how it meets perpetual check, `nFoldRule = 0`.
//! Game results equal pyffish's (tests/data/perft/fsf_endings.txt, made by
//! tools/fsf-endings-data.py: a move sequence, and the game going on one move before its
//! end), the search scores the rule's result, and the table generator refuses what it does
//! not model.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use locust::egt::rules::{Rules, RulesError};
use locust::game::Game;
use locust::search::{Limits, Score, SearchEvent, SearchOptions, Searcher};
use variants::Variant;

const DATA: &str = include_str!("data/perft/fsf_endings.txt");

/// The test sections of the data file, loaded as pyffish loaded them.
fn sections() -> Vec<Variant> {
    let text: String = DATA
        .lines()
        .filter_map(|l| l.strip_prefix("ini"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    variants::load_str(&text, "fsf_endings.txt").unwrap_or_else(|e| panic!("{e:#?}"))
}

fn find(name: &str, own: &[Variant]) -> Variant {
    own.iter()
        .find(|v| v.name == name)
        .cloned()
        .unwrap_or_else(|| common::variant(name))
}

/// `(variant, result, fen, moves)` of every `ending` row.
fn rows() -> Vec<(&'static str, &'static str, &'static str, Vec<&'static str>)> {
    DATA.lines()
        .filter_map(|l| l.strip_prefix("ending "))
        .map(|l| {
            let (head, moves) = l.split_once(" ; ").unwrap_or((l, ""));
            let mut f = head.splitn(3, ' ');
            let (v, r, fen) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            (v, r, fen, moves.split_whitespace().collect())
        })
        .collect()
}

fn played(v: &Variant, fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_fen(v.clone(), fen).unwrap();
    for m in moves {
        let mv = game
            .parse_move(m)
            .unwrap_or_else(|e| panic!("{}: {e} after {moves:?}", v.name));
        game.play(mv);
    }
    game
}

#[test]
fn endings_equal_pyffish() {
    let own = sections();
    let all = rows();
    assert!(all.len() >= 30, "{} rows", all.len());
    for want in ["on", "win", "loss", "draw"] {
        assert!(all.iter().any(|r| r.1 == want), "no `{want}` row");
    }
    for (name, want, fen, moves) in all {
        let mut game = played(&find(name, &own), fen, &moves);
        let us = game.position().side_to_move();
        let got = match game.outcome() {
            None => "on",
            Some(o) if o.winner == Some(us) => "win",
            Some(o) if o.winner.is_some() => "loss",
            Some(_) => "draw",
        };
        assert_eq!(got, want, "{name}: {fen} ; {}", moves.join(" "));
    }
}

/// Minishogi's built-in plays FSF's rule: no omission recorded, sente loses a repetition.
#[test]
fn minishogi_repetition_loses_for_sente() {
    let v = common::variant("minishogi");
    assert!(v.omits.is_empty(), "{:?}", v.omits);
    assert_eq!(v.end.n_fold_value, variants::rules::Outcome::Loss);
    assert!(v.end.n_fold_value_absolute);
    for name in ["shogi", "gorogoro", "euroshogi", "judkins", "okisakishogi"] {
        let v = common::variant(name);
        assert_eq!(v.end.n_fold_value, variants::rules::Outcome::Draw, "{name}");
    }
}

fn search_score(game: &Game, depth: u32) -> (String, Option<Score>) {
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    let (tx, rx) = crossbeam_channel::unbounded();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.start(game, limits, tx);
    let mut score = None;
    for ev in rx.iter() {
        match ev {
            SearchEvent::Info(i) => score = Some(i.score),
            SearchEvent::BestMove { best, .. } => {
                return (best.map(|m| game.move_text(&m)).unwrap_or_default(), score)
            }
            SearchEvent::Message(_) => {}
        }
    }
    (String::new(), score)
}

/// One move before a repetition the rule decides, the side that the repetition favours
/// repeats and scores it as won; where it would lose, it plays something else.
#[test]
fn search_scores_the_repetition_by_the_rule() {
    let own = sections();
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let shuffle = ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"];
    // fold-loss: after f6g8 White is to move in the repeated position and loses.
    let game = played(&find("fold-loss", &own), fen, &shuffle);
    let (best, score) = search_score(&game, 4);
    assert_eq!(best, "f6g8");
    assert!(
        matches!(score, Some(Score::Cp(s)) if s > 10_000),
        "{score:?}"
    );
    // fold-win: the repetition wins for White, so Black avoids it.
    let game = played(&find("fold-win", &own), fen, &shuffle);
    let (best, score) = search_score(&game, 4);
    assert_ne!(best, "f6g8");
    assert!(
        matches!(score, Some(Score::Cp(s)) if s.abs() < 1_000),
        "{score:?}"
    );
    // chess: a draw.
    let game = played(&common::variant("chess"), fen, &shuffle);
    let (_, score) = search_score(&game, 4);
    assert!(
        matches!(score, Some(Score::Cp(s)) if s.abs() < 1_000),
        "{score:?}"
    );
}

#[test]
fn the_table_generator_refuses_decisive_repetitions() {
    let own = sections();
    for name in ["fold-loss", "fold-absolute"] {
        match Rules::new(&find(name, &own), None, false) {
            Err(RulesError::Unsupported(_, why)) => assert!(why.contains("nFoldValue"), "{why}"),
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
    }
    assert!(Rules::new(&common::variant("chess"), None, false).is_ok());
}
