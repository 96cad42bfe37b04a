//! Fairy-Stockfish's board games as Locust plays them (issue 44): flag races with
//! `flagPieceSafe` (dobutsu) and `flagMove` (jesonmor), breakthrough, fox-and-hounds. Game
//! results equal pyffish's `game_result` at the end of random games
//! (tests/data/perft/fsf_boardgame_endings.txt, made by tools/fsf-boardgame-endings.py),
//! random walks agree with the reference generator and keep map and key in step with a
//! scratch build, and the table generator refuses the rules by name. Perft against FSF is
//! in fsf_builtin_perft.rs (built-ins) and fsf_ini_perft.rs (variants.ini sections).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use common::{variant, walk_checked};
use locust::board::position::Position;
use locust::egt::rules::{Rules, RulesError};
use locust::game::Game;
use variants::Variant;

const ENDINGS: &str = include_str!("data/perft/fsf_boardgame_endings.txt");
/// Plies of each random walk.
const WALK_PLIES: usize = 150;

/// The variants of the data file's `ini` lines (sections of FSF's variants.ini, as pyffish
/// loaded them), then Locust's built-ins.
fn find(name: &str) -> Variant {
    let text: String = ENDINGS
        .lines()
        .filter_map(|l| l.strip_prefix("ini"))
        .map(|l| format!("{}\n", l.strip_prefix(' ').unwrap_or(l)))
        .collect();
    let own = variants::load_str(&text, "fsf_boardgame_endings.txt").unwrap();
    own.into_iter()
        .find(|v| v.name == name)
        .unwrap_or_else(|| variant(name))
}

/// `(variant, result, fen, moves)` of every `ending` row.
fn rows() -> Vec<(&'static str, &'static str, &'static str, Vec<&'static str>)> {
    ENDINGS
        .lines()
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
    let mut game = Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    for m in moves {
        let mv = (game.parse_move(m)).unwrap_or_else(|e| panic!("{}: {e}: {m}", v.name));
        game.play(mv);
    }
    game
}

#[test]
fn endings_equal_pyffish() {
    let all = rows();
    for name in ["breakthrough", "fox-and-hounds", "jesonmor", "dobutsu"] {
        assert!(all.iter().any(|r| r.0 == name && r.1 != "on"), "{name}");
    }
    for (name, want, fen, moves) in all {
        let mut game = played(&find(name), fen, &moves);
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

/// Walks from the start and from each game's last position but one agree with the
/// reference generator move for move, with map and key equal to a scratch build.
#[test]
fn walks_agree_with_the_reference() {
    let mut seen = Vec::new();
    for (i, (name, want, fen, moves)) in rows().into_iter().enumerate() {
        if want != "on" {
            continue;
        }
        let rules = find(name);
        if !seen.contains(&name) {
            seen.push(name);
            let start = Position::new_game(rules.clone()).unwrap();
            walk_checked(name, start, &rules, WALK_PLIES, 0xB0A2D + i as u64);
        }
        let game = played(&rules, fen, &moves);
        let pos = game.position().clone();
        walk_checked(name, pos, &rules, WALK_PLIES, 0x5AFE + i as u64);
    }
}

/// The table generator refuses each variant by the rule it does not model.
#[test]
fn tables_refuse_the_rules_by_name() {
    for (name, rule) in [
        ("breakthrough", "royal"),
        ("fox-and-hounds", "royal"),
        ("jesonmor", "royal"),
        ("dobutsu", "drops"),
    ] {
        let v = find(name);
        match Rules::new(&v, None, false) {
            Err(RulesError::Unsupported(_, why)) => assert!(why.contains(rule), "{name}: {why}"),
            Err(RulesError::Drops(_)) => assert_eq!(rule, "drops", "{name}"),
            other => panic!("{name}: {:?}", other.map(|_| ())),
        }
    }
}

/// Men of a type that never promotes may stand where they can no longer move, as play
/// leaves them (FSF reads such FENs): hounds on the first rank, a breakthrough man that
/// cannot advance. A chess pawn on its last rank is still refused.
#[test]
fn stuck_men_that_never_promote_read() {
    let hounds = "8/8/8/8/3F4/8/7h/2h1h1h1 w - - 54 28";
    let pos = Position::new_game(variant("fox-and-hounds")).unwrap();
    assert!(pos.with_fen(hounds).is_ok());
    let chess = Position::new_game(variant("chess")).unwrap();
    assert!(chess.with_fen("4k2P/8/8/8/8/8/8/4K3 w - - 0 1").is_err());
}
