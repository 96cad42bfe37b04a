//! Fairy-Stockfish's repetition rules as Locust plays them: janggimodern's
//! `moveRepetitionIllegal`. Game results equal pyffish's (`game_result`, and its immediate
//! and optional game ends, which hold the repetition rules) after every prefix of lines set
//! at the rule's edges and of games that keep reversing moves
//! (tests/data/perft/fsf_repetition.txt, made by tools/fsf-repetition-data.py); the search
//! avoids the losing trip and takes the opponent's. janggimodern's perft rows are in
//! fsf_builtin_perft.rs.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use locust::engine::notation::{self, Dialect};
use locust::game::{Game, Termination};
use variants::Variant;

const DATA: &str = include_str!("data/perft/fsf_repetition.txt");
const JANGGI: &str = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

fn variant(name: &str) -> Variant {
    let all = variants::builtins().unwrap();
    variants::find(&all, name)
        .unwrap_or_else(|| panic!("{name} is built in"))
        .clone()
}

fn played(v: &Variant, fen: &str, moves: &[&str]) -> Game {
    let mut game = Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    for m in moves {
        let mv = notation::parse(&mut game, m, Dialect::Uci { chess960: false });
        let mv = mv.unwrap_or_else(|e| panic!("{}: {e}: {m}", v.name));
        game.play(mv);
    }
    game
}

#[test]
fn endings_equal_pyffish() {
    let rows = common::ending_rows(DATA);
    let all = variants::builtins().unwrap();
    let mut by_rule = 0;
    for (name, want, fen, moves) in rows {
        let v = variants::find(&all, name).unwrap_or_else(|| panic!("{name} is built in"));
        let mut game = played(v, fen, &moves);
        let got = common::result_for_mover(&mut game);
        assert_eq!(got, want, "{name}: {fen} ; {}", moves.join(" "));
        let reason = game.outcome().map(|o| o.reason);
        by_rule += usize::from(reason == Some(Termination::MoveRepetition));
    }
    // The hand-set lines alone end eight games by the rule.
    assert!(by_rule >= 8, "{by_rule} games ended by move repetition");
}

/// The rule counts in janggimodern only: the same trips in janggi end by repetition.
#[test]
fn only_janggimodern_counts_trips() {
    let line = "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10 a1a2";
    let moves: Vec<&str> = line.split(' ').collect();
    let mut modern = played(&variant("janggimodern"), JANGGI, &moves);
    let o = modern.outcome().unwrap();
    assert_eq!(o.reason, Termination::MoveRepetition);
    assert_eq!(o.winner, Some(locust::board::types::Colour::Black));
    let mut janggi = played(&variant("janggi"), JANGGI, &moves);
    assert_eq!(janggi.outcome().unwrap().reason, Termination::Repetition);
}

/// The search scores the trip that loses as lost (searched alone, as `go searchmoves`),
/// and, where its next trip would lose, plays something else.
#[test]
fn search_sees_the_losing_trip() {
    use locust::search::{Limits, Score, SearchEvent, SearchOptions, Searcher};
    let v = variant("janggimodern");
    let line = "a1a2 a10a9 a2a1 a9a10 a1a2 a10a9 a2a1 a9a10";
    let moves: Vec<&str> = line.split(' ').collect();
    let mut game = played(&v, JANGGI, &moves);
    let trip = notation::parse(&mut game, "a1a2", Dialect::Uci { chess960: false }).unwrap();
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    let (tx, rx) = crossbeam_channel::unbounded();
    let limits = Limits {
        depth: Some(3),
        searchmoves: vec![trip],
        ..Limits::default()
    };
    searcher.start(&game, limits, tx);
    let mut score = None;
    for ev in rx.iter() {
        match ev {
            SearchEvent::Info(i) => score = Some(i.score),
            SearchEvent::BestMove { .. } => break,
            SearchEvent::Message(_) => {}
        }
    }
    assert_eq!(score, Some(Score::Mate(-1)));
    let (best, _) = common::search_to_depth(&game, 3);
    let best = best.map(|m| game.move_text(&m));
    assert!(
        best.is_some() && best.as_deref() != Some("a1a2"),
        "{best:?}"
    );
}
