//! Fairy-Stockfish's board games as Locust plays them (issue 44): flag races with
//! `flagPieceSafe` (dobutsu, alapo, squatter) and `flagMove` (jesonmor), breakthrough,
//! fox-and-hounds; connect games (`connectN`, `connectNxN`, `collinearN`, `connectValue`,
//! `connectPieceTypes`, directions) with drops narrowed by `enclosingDrop = top | snort |
//! anyside` (tictactoe, cfour and its children, picaria, teeko, three-musketeers, ...). Game
//! results equal pyffish's `game_result` at the end of random games
//! (tests/data/perft/fsf_boardgame_endings.txt, made by tools/fsf-boardgame-endings.py),
//! random walks agree with the reference generator and keep map and key in step with a
//! scratch build, and the table generator refuses the rules by name. Perft against FSF is
//! in fsf_builtin_perft.rs (built-ins) and fsf_ini_perft.rs (variants.ini sections).

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod peers;

use common::variant;
use locust::board::position::Position;
use locust::egt::rules::{Rules, RulesError};
use locust::game::Game;
use locust::search::Score;
use variants::Variant;

const ENDINGS: &str = include_str!("data/perft/fsf_boardgame_endings.txt");
const TACTICS: &str = include_str!("data/fsf_boardgame_tactics.txt");
/// Built-ins and sections of FSF's variants.ini that must have a game end in the data.
const GAMES: &[&str] = &[
    "breakthrough",
    "fox-and-hounds",
    "jesonmor",
    "dobutsu",
    "tictactoe",
    "cfour",
    "cfour-anyside",
    "cfour-misere",
    "picaria",
    "nineholes",
    "tictacchess",
    "teeko",
    "symphony",
    "asimplegame",
    "allqueenschess",
    "roll-ing-to-four",
    "three-musketeers",
    "alapo",
    "squatter",
    "andersgiveaway",
    "andersanti",
];
/// The flipping games (`enclosingDrop = reversi | ataxx`, `flipEnclosedPieces`): they too
/// must have a game end in the data.
const FLIPPING: &[&str] = &[
    "ataxx",
    "flipersi",
    "flipello",
    "flipello10",
    "flipello6",
    "annexation",
    "quadwrangle",
    "quadwrangle7x7",
    "crusade",
    "snort",
    "gale",
];
/// Plies of each random walk.
const WALK_PLIES: usize = 150;

/// `(variant, result, fen, moves)` of every `ending` row.
fn rows() -> Vec<common::EndingRow> {
    common::ending_rows(ENDINGS)
}

#[test]
fn endings_equal_pyffish() {
    let decided: Vec<&str> = GAMES.iter().chain(FLIPPING).copied().collect();
    let sections = peers::fsf_sections("endings_equal_pyffish");
    common::check_endings(rows(), &decided, |n| {
        peers::builtin_or_section(n, &sections)
    });
}

/// Walks from the start and from each game's last position but one agree with the
/// reference generator move for move, with map and key equal to a scratch build.
#[test]
fn walks_agree_with_the_reference() {
    let sections = peers::fsf_sections("walks_agree_with_the_reference");
    common::walk_ending_rows(
        rows(),
        |n| peers::builtin_or_section(n, &sections),
        WALK_PLIES,
        (0xB0A2D, 0x5AFE),
    );
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
        let v = variant(name);
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

/// Connect rules and the flipping games' rules (men that change colour, a forced pass, the
/// end on a full board) are refused by the table generator by name, even without drops; the
/// loader reads every `enclosingDrop` and `flipEnclosedPieces` value FSF has and refuses
/// others by key.
#[test]
fn connect_and_flipping_rules_are_refused_by_name() {
    let connect = common::ini_variant("[c5:chess]\nconnectN = 5\n");
    assert!(matches!(
        Rules::new(&connect, None, false),
        Err(RulesError::Unsupported(_, why)) if why.contains("connect")
    ));
    let refused = |v: &Variant, key: &str| {
        matches!(Rules::new(v, None, false),
            Err(RulesError::Unsupported(_, why)) if why.contains(key))
    };
    for (name, key) in [
        ("ataxx", "flipEnclosedPieces"),
        ("flipello", "flipEnclosedPieces"),
        ("flipersi", "flipEnclosedPieces"),
    ] {
        assert!(refused(&variant(name), key), "{name}");
    }
    // Without drops and royals aside: chess men that flip, pass or end on a full board.
    for (extra, key) in [
        ("flipEnclosedPieces = ataxx\n", "flipEnclosedPieces"),
        ("passOnStalemate = true\n", "passOnStalemate"),
        ("adjudicateFullBoard = true\n", "adjudicateFullBoard"),
    ] {
        let v = common::ini_variant(&format!("[t:chess]\n{extra}"));
        assert!(refused(&v, key), "{extra}");
    }
    for rule in [
        "reversi",
        "ataxx",
        "quadwrangle",
        "snort",
        "anyside",
        "top",
        "none",
    ] {
        let ini =
            format!("[flip:crazyhouse]\nenclosingDrop = {rule}\nflipEnclosedPieces = {rule}\n");
        assert!(variants::load_str(&ini, "flip.ini").is_ok(), "{rule}");
    }
    for key in ["enclosingDrop", "flipEnclosedPieces"] {
        let ini = format!("[flip:crazyhouse]\n{key} = othello\n");
        let err = variants::load_str(&ini, "flip.ini").unwrap_err();
        assert!(format!("{err:?}").contains(key), "{key}: {err:?}");
    }
}

/// `connectValue = loss`: the side that makes the row loses; `connectPieceTypes` counts
/// only its types; `connectDiagonal = false` leaves diagonals out.
#[test]
fn connect_keys_decide_the_end() {
    let base = "[row]\nmaxRank = 4\nmaxFile = 4\nimmobile = p\n";
    let make = |extra: &str, fen: &str| {
        let v = common::ini_variant(&format!(
            "{base}startFen = 4/4/4/4[PPPPpppp] w - - 0 1\npieceDrops = true\nstalemateValue = draw\n{extra}"
        ));
        Position::new_game(v).unwrap().with_fen(fen).unwrap()
    };
    // White has just made a row of three on the first rank; Black to move.
    let row = "4/4/pp2/PPP1[Pppp] b - - 0 1";
    let end = |p: &Position| p.goal_end().map(|g| g.winner);
    let white = Some(locust::board::types::Colour::White);
    let black = Some(locust::board::types::Colour::Black);
    assert_eq!(end(&make("connectN = 3\n", row)), Some(white));
    assert_eq!(
        end(&make("connectN = 3\nconnectValue = loss\n", row)),
        Some(black)
    );
    assert_eq!(
        end(&make("connectN = 3\nconnectHorizontal = false\n", row)),
        None
    );
    assert_eq!(end(&make("connectN = 4\n", row)), None);
    let diagonal = "4/2P1/1Ppp/P1p1[Pp] b - - 0 1";
    assert_eq!(end(&make("connectN = 3\n", diagonal)), Some(white));
    assert_eq!(
        end(&make("connectN = 3\nconnectDiagonal = false\n", diagonal)),
        None
    );
    let gaps = "P3/4/P3/P3[Pppp] b - - 0 1";
    assert_eq!(end(&make("collinearN = 3\n", gaps)), Some(white));
    assert_eq!(end(&make("connectN = 3\n", gaps)), None);
}

/// The search finds, as mate scores, the wins by connection and flag that Fairy-Stockfish
/// finds in the variants.ini sections; a win in one ends the game for the mover.
#[test]
fn board_game_wins_are_found() {
    let sections = peers::fsf_sections("board_game_wins_are_found");
    for line in TACTICS
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split('|').map(str::trim).collect();
        let (name, fen) = (f[0], f[1]);
        let n: i32 = f[3].trim_start_matches("mate ").parse().unwrap();
        let Some(v) = peers::builtin_or_section(name, &sections) else {
            return;
        };
        let mut game = Game::from_fen(v, fen).unwrap();
        // Four plies more than the mate needs: a connecting move is quiet, and the search's
        // futility and late-move pruning cut it at the shallowest depths (teeko's mate in
        // two is proven at depth 9).
        let (best, score) = common::search_to_depth(&game, 2 * n as u32 + 6);
        assert!(
            matches!(score, Some(Score::Mate(k)) if (1..=n).contains(&k)),
            "{name} {fen}: score {score:?}, Fairy-Stockfish: mate {n}"
        );
        if n == 1 {
            let us = game.position().side_to_move();
            game.play(best.unwrap());
            let o = game.outcome();
            assert!(
                o.is_some_and(|o| o.winner == Some(us)),
                "{name} {fen}: {o:?}"
            );
        }
    }
}

/// Locust's own test sections of the data file (`ini` lines), for rules that no section of
/// FSF's file that Locust loads uses (`enclosingDrop = snort`): perft equals FSF's `go
/// perft` with the engine and with the reference generator.
#[test]
fn own_sections_match_fsf_perft() {
    let text: String = ENDINGS
        .lines()
        .filter_map(|l| l.strip_prefix("ini "))
        .map(|l| format!("{l}\n"))
        .collect();
    let own = variants::load_str(&text, "fsf_boardgame_endings.txt").unwrap();
    let rows: Vec<&str> = ENDINGS
        .lines()
        .filter_map(|l| l.strip_prefix("perft "))
        .collect();
    assert!(rows.len() >= 4, "{} perft rows", rows.len());
    for row in rows {
        let f: Vec<&str> = row.splitn(4, ' ').collect();
        let (name, depth, want) = (f[0], f[1].parse().unwrap(), f[2].parse::<u64>().unwrap());
        let v = own.iter().find(|v| v.name == name).unwrap();
        let pos = Position::new_game(v.clone())
            .unwrap()
            .with_fen(f[3])
            .unwrap();
        assert_eq!(locust::perft::perft(&mut pos.clone(), depth), want, "{row}");
        let board = locust::board::reference::RefBoard::from_position(&pos);
        assert_eq!(
            locust::board::reference::perft(&board, v, depth),
            want,
            "reference: {row}"
        );
    }
}

/// The flipping games' FENs are written as Fairy-Stockfish writes them: every perft row of
/// those built-ins and sections (pyffish's `get_fen`) reads and writes back unchanged, an
/// endless hand (`freeDrops`: ataxx, quadwrangle) without brackets, walls as `*`.
#[test]
fn flipping_fens_are_written_as_fsf_writes_them() {
    let sections = peers::fsf_sections("flipping_fens_are_written_as_fsf_writes_them");
    let data = [
        include_str!("data/perft/fsf_builtin.txt"),
        include_str!("data/perft/fsf_ini_sections.txt"),
    ];
    let mut checked = 0;
    for line in data.iter().flat_map(|d| d.lines()) {
        let f: Vec<&str> = line.splitn(4, ' ').collect();
        if line.starts_with('#') || f.len() < 4 || !FLIPPING.contains(&f[0]) {
            continue;
        }
        let Some(v) = peers::builtin_or_section(f[0], &sections) else {
            continue;
        };
        let pos = Position::new_game(v).unwrap().with_fen(f[3]).unwrap();
        assert_eq!(pos.fen(), f[3], "{}", f[0]);
        checked += 1;
    }
    assert!(checked >= 16, "{checked} rows");
}
