//! Fairy-Stockfish's claimable endings as Locust plays them (issue 44): repetition with
//! `nFoldValue` and `nFoldValueAbsolute`, how it meets perpetual check, `nFoldRule = 0`;
//! counting rules (makruk, cambodian, asean; ai-wok); torishogi's repetition, checkshogi's first
//! check, makpong's checked king. Game results equal pyffish's
//! (tests/data/perft/fsf_endings.txt, made by tools/fsf-endings-data.py: a move sequence,
//! and the game going on one move before its end), the count's FEN fields equal pyffish's,
//! the count is kept through make and unmake, the search scores the rules' results, and
//! the table generator refuses what it does not model.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use locust::egt::rules::{Rules, RulesError};
use locust::game::Game;
use locust::search::Score;
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
fn rows() -> Vec<common::EndingRow> {
    common::ending_rows(DATA)
}

fn played(v: &Variant, fen: &str, moves: &[&str]) -> Game {
    let mut game =
        Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{}: {e}: {fen}", v.name));
    for m in moves {
        // FSF writes a pass as the king's square twice (`e2e2`), Locust as `@@@@`.
        let half = m.len() / 2;
        let m = if m.len() % 2 == 0 && m[..half] == m[half..] {
            "@@@@"
        } else {
            m
        };
        let mv = game
            .parse_move(m)
            .or_else(|e| shogi_promotion(&mut game, m).ok_or(e))
            .unwrap_or_else(|e| panic!("{}: {e} after {moves:?}", v.name));
        game.play(mv);
    }
    game
}

/// FSF's UCI text of a shogi-style promotion (`h3h2+`): the legal move to a `+` form from
/// and to those squares.
fn shogi_promotion(game: &mut Game, m: &str) -> Option<locust::board::moves::Move> {
    let base = m.strip_suffix('+')?;
    let legal = game.legal_moves();
    let pieces = &game.position().variant().pieces;
    let plus = |p: u8| pieces.get(p as usize).is_some_and(|t| t.plus_form);
    legal.into_iter().find(|mv| {
        mv.kind == locust::board::moves::MoveKind::Promotion
            && plus(mv.piece)
            && game.move_text(mv).starts_with(base)
    })
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
        let got = common::result_for_mover(&mut game);
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
    let (best, score) = common::search_to_depth(game, depth);
    (best.map(|m| game.move_text(&m)).unwrap_or_default(), score)
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

/// `(variant, fen, start, moves)` of every `fen` row: pyffish's FEN after the moves.
fn fen_rows() -> Vec<(&'static str, &'static str, &'static str, Vec<&'static str>)> {
    DATA.lines()
        .filter_map(|l| l.strip_prefix("fen "))
        .map(|l| {
            let mut f = l.split(" ; ");
            let (head, start) = (f.next().unwrap(), f.next().unwrap());
            let moves = f.next().unwrap_or("").split_whitespace().collect();
            let (v, fen) = head.split_once(' ').unwrap();
            (v, fen, start, moves)
        })
        .collect()
}

/// The count's FEN fields (limit in the e.p. field's place, plies in the halfmove field)
/// after the moves equal pyffish's, and read back to the same position and key.
#[test]
fn counting_fens_equal_pyffish() {
    let own = sections();
    let rows = fen_rows();
    let counting = rows.iter().filter(|r| r.1.split(' ').nth(3) != Some("-"));
    assert!(counting.count() >= 10, "too few FENs with a count running");
    for (name, want, start, moves) in rows {
        let v = find(name, &own);
        let game = played(&v, start, &moves);
        assert_eq!(
            game.position().fen(),
            want,
            "{name}: {start} ; {}",
            moves.join(" ")
        );
        let read = Game::from_fen(v, want).unwrap();
        assert_eq!(read.position().fen(), want, "{name}");
        let (a, b) = (read.position().count(), game.position().count());
        assert_eq!((a.limit, a.ply), (b.limit, b.ply), "{name}: {want}");
        assert_eq!(
            read.position().hash(),
            game.position().hash(),
            "{name}: {want}"
        );
    }
}

/// Make and unmake keep the count and key in step with a scratch build along every
/// counting playout, and unmake restores the count.
#[test]
fn the_count_survives_make_and_unmake() {
    let own = sections();
    for (name, _, start, moves) in fen_rows() {
        let mut game = played(&find(name, &own), start, &[]);
        let mut counts = vec![game.position().count()];
        for m in &moves {
            let mv = game.parse_move(m);
            let mv = mv
                .or_else(|e| shogi_promotion(&mut game, m).ok_or(e))
                .unwrap();
            game.play(mv);
            assert_eq!(game.position().inconsistency(), None, "{name} after {m}");
            counts.push(game.position().count());
        }
        while game.undo() {
            counts.pop();
            assert_eq!(counts.last(), Some(&game.position().count()), "{name}");
        }
    }
}

/// One move before the count runs out, a rook up is a draw to the search; with plies to
/// spare it is a win.
#[test]
fn search_sees_the_count_run_out() {
    let end = Game::from_fen(
        common::variant("makruk"),
        "8/8/8/3k4/8/8/8/R3K3 w - 32 31 40",
    );
    let (_, score) = search_score(&end.unwrap(), 5);
    assert_eq!(score, Some(Score::Cp(0)));
    let early = Game::from_fen(
        common::variant("makruk"),
        "8/8/8/3k4/8/8/8/R3K3 w - 32 6 40",
    );
    let (_, score) = search_score(&early.unwrap(), 5);
    assert!(matches!(score, Some(Score::Cp(s)) if s > 300), "{score:?}");
}

#[test]
fn the_table_generator_refuses_counting_rules() {
    for name in ["makruk", "asean", "ai-wok"] {
        match Rules::new(&common::variant(name), None, false) {
            Err(RulesError::Unsupported(_, why)) => assert!(why.contains("countingRule"), "{why}"),
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
    }
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
