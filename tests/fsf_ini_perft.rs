//! The sections of Fairy-Stockfish's own variants.ini that Locust loads play FSF's game:
//! perft from each start position equals pyffish's count, kept in
//! tests/data/perft/fsf_ini_sections.txt (its header names the source). The file itself is
//! GPL and not in this repository: it is read from the FSF mirror or
//! `LOCUST_FSF_VARIANTS_INI`, and the test says so when it is skipped.

#![allow(clippy::unwrap_used, clippy::expect_used)]

mod peers;

use locust::board::position::Position;
use locust::perft::perft;

#[test]
fn loaded_fsf_sections_match_pyffish_perft() {
    let Some(text) = peers::fsf_variants_ini() else {
        let why = "Fairy-Stockfish's variants.ini not found (set LOCUST_FSF_VARIANTS_INI)";
        peers::missing(
            peers::FSF_VARIANTS_INI,
            "loaded_fsf_sections_match_pyffish_perft",
            why,
        );
        return;
    };
    let loaded = variants::load_report(&text, "variants.ini").variants();
    let data = include_str!("data/perft/fsf_ini_sections.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (name, depth, want) = (f[0], f[1].parse().unwrap(), f[2].parse::<u64>().unwrap());
        let v = loaded.iter().find(|v| v.name == name);
        let v = v.unwrap_or_else(|| panic!("{name} no longer loads"));
        let mut pos = Position::new_game(v.clone()).unwrap();
        assert_eq!(perft(&mut pos, depth), want, "{name} depth {depth}");
        checked += 1;
    }
    assert_eq!(checked, loaded.len(), "a loaded section has no perft row");
}
