//! Every built-in variant compiles, its start FEN parses, and where Fairy-Stockfish has the
//! variant our start FEN is FSF's exactly (variants/tests/data/fsf_start_fens.txt, from pyffish).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use variants::load::{check_fen, BUILTIN_FILES};
use variants::{builtin, builtins, find, load_builtin_file};

#[test]
fn every_builtin_file_compiles() {
    for (file, _) in BUILTIN_FILES {
        let result = load_builtin_file(file);
        assert!(result.is_ok(), "{file}: {:#?}", result.err());
        assert!(!result.unwrap().is_empty(), "{file} defines no variant");
    }
}

/// A built-in compiled alone (as the tools about one variant load it) is the one compiled
/// with all the others, found by name or by alias; an unknown name finds nothing.
#[test]
fn a_builtin_compiled_alone_is_the_same() {
    let all = builtins().unwrap();
    let mut aliases = 0;
    for v in &all {
        for name in std::iter::once(&v.name).chain(&v.aliases) {
            let alone = builtin(name).unwrap_or_else(|| panic!("{name} not found alone"));
            assert_eq!(alone.as_ref(), Ok(find(&all, name).unwrap()), "{name}");
        }
        aliases += v.aliases.len();
    }
    assert!(aliases > 0, "no alias was tried");
    assert!(builtin("no-such-variant").is_none());
}

#[test]
fn builtin_start_fens_parse() {
    for v in builtins().unwrap() {
        let known = |s: variants::load::values::Symbol| {
            v.piece_by_symbol(s.letter, s.plus, s.suffix).is_some()
        };
        let r = check_fen(&v.start_fen, v.files, v.ranks, &known, v.end.check_counting);
        assert!(r.is_ok(), "{}: {:?}", v.name, r.err());
    }
}

#[test]
fn start_fens_match_fairy_stockfish() {
    let all = builtins().unwrap();
    let data = include_str!("data/fsf_start_fens.txt");
    let mut checked = 0;
    for line in data
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (name, fen) = line.split_once('\t').unwrap();
        let v = find(&all, name).unwrap_or_else(|| panic!("no built-in {name}"));
        assert_eq!(v.start_fen, fen, "{name}");
        checked += 1;
    }
    assert_eq!(checked, 18);
}

#[test]
fn names_and_aliases_are_unique() {
    let all = builtins().unwrap();
    let mut names: Vec<&str> = all.iter().map(|v| v.name.as_str()).collect();
    names.extend(
        all.iter()
            .flat_map(|v| v.aliases.iter().map(String::as_str)),
    );
    let count = names.len();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), count);
    assert_eq!(find(&all, "chushogi").map(|v| v.name.as_str()), Some("chu"));
}
