//! The sections of Fairy-Stockfish's own variants.ini that Locust loads play FSF's game:
//! perft of each one's start position and of three positions from random playouts equals
//! FSF's count, kept in tests/data/perft/fsf_ini_sections.txt (its header names the source;
//! made by tools/fsf-ini-perft.py). The file itself is GPL and not in this repository: it is
//! read from the FSF mirror or `LOCUST_FSF_VARIANTS_INI`, and the test says so when it is
//! skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod peers;

use locust::board::position::Position;
use locust::perft::perft;

/// Positions each loaded section must have rows for: the start and three playouts.
const MIN_ROWS: usize = 4;

#[test]
fn loaded_fsf_sections_match_fsf_perft() {
    let Some(text) = peers::fsf_variants_ini() else {
        let why = "Fairy-Stockfish's variants.ini not found (set LOCUST_FSF_VARIANTS_INI)";
        peers::missing(
            peers::FSF_VARIANTS_INI,
            "loaded_fsf_sections_match_fsf_perft",
            why,
        );
        return;
    };
    let loaded = variants::load_report(&text, "variants.ini").variants();
    let data = include_str!("data/perft/fsf_ini_sections.txt");
    let mut rows_of = std::collections::HashMap::<&str, usize>::new();
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.splitn(4, ' ').collect();
        let (name, depth, want) = (f[0], f[1].parse().unwrap(), f[2].parse::<u64>().unwrap());
        let v = loaded.iter().find(|v| v.name == name);
        let v = v.unwrap_or_else(|| panic!("{name} no longer loads"));
        let start = Position::new_game(v.clone()).unwrap();
        let mut pos = (start.with_fen(f[3])).unwrap_or_else(|e| panic!("{name}: {e}: {}", f[3]));
        assert_eq!(
            perft(&mut pos, depth),
            want,
            "{name} depth {depth}: {}",
            f[3]
        );
        *rows_of.entry(name).or_default() += 1;
    }
    for v in &loaded {
        let n = rows_of.get(v.name.as_str()).copied().unwrap_or(0);
        assert!(n >= MIN_ROWS, "{}: {n} perft rows, want {MIN_ROWS}", v.name);
    }
}
