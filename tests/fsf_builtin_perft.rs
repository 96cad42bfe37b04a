//! Locust's built-ins under Fairy-Stockfish's names play FSF's built-in games: perft of each
//! one's start position and of positions from random playouts equals FSF's count, kept in
//! tests/data/perft/fsf_builtin.txt (its header names the source; made by
//! tools/fsf-builtin-perft.py). Every FSF name Locust answers to (a name or an alias) has
//! its rows, so a built-in added under an FSF name without evidence fails here.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;

use locust::board::position::Position;
use locust::perft::perft;
use variants::load::builtin::FSF_BUILTIN_NAMES;

/// Positions each FSF-named variant must have rows for: the start and three playouts.
const MIN_ROWS: usize = 4;

struct Row<'a> {
    variant: &'a str,
    depth: u32,
    count: u64,
    fen: &'a str,
}

fn rows() -> Vec<Row<'static>> {
    let data = include_str!("data/perft/fsf_builtin.txt");
    (data.lines())
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|line| {
            let mut f = line.splitn(4, ' ');
            let mut next = || f.next().unwrap_or_else(|| panic!("short row: {line}"));
            Row {
                variant: next(),
                depth: next().parse().unwrap(),
                count: next().parse().unwrap(),
                fen: next(),
            }
        })
        .collect()
}

#[test]
fn fsf_named_builtins_match_fsf_perft() {
    let all = variants::builtins().expect("built-in variants load");
    for row in rows() {
        let v = variants::find(&all, row.variant)
            .unwrap_or_else(|| panic!("{} is not a built-in name", row.variant));
        let start = Position::new_game(v.clone()).unwrap();
        let mut pos = (start.with_fen(row.fen))
            .unwrap_or_else(|e| panic!("{}: {e}: {}", row.variant, row.fen));
        let got = perft(&mut pos, row.depth);
        assert_eq!(
            got, row.count,
            "{} depth {}: {}",
            row.variant, row.depth, row.fen
        );
    }
}

#[test]
fn every_fsf_name_locust_answers_to_has_rows() {
    let all = variants::builtins().expect("built-in variants load");
    let rows = rows();
    let names = (all.iter()).flat_map(|v| std::iter::once(&v.name).chain(&v.aliases));
    let mut checked = 0;
    for name in names.filter(|n| FSF_BUILTIN_NAMES.contains(&n.as_str())) {
        let n = rows.iter().filter(|r| r.variant == name).count();
        assert!(n >= MIN_ROWS, "{name}: {n} perft rows, want {MIN_ROWS}");
        let start = common::start(name).fen();
        // The board (holdings aside, written `[]` or `[-]`) and the side to move.
        let fields = |f: &str| {
            let board = f.split([' ', '[']).next().unwrap_or("").to_string();
            (board, f.split(' ').nth(1).map(str::to_string))
        };
        assert!(
            (rows.iter()).any(|r| r.variant == name && fields(r.fen) == fields(&start)),
            "{name}: no row for the start position {start}"
        );
        checked += 1;
    }
    assert!(checked > 0, "no FSF-named built-in");
}
