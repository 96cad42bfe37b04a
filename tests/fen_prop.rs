//! Random and mutated FEN text never panics the FEN reader, and whatever it accepts prints a
//! FEN that reads back to the same position.

#![allow(clippy::expect_used)]

mod common;

use common::{perft_cases, start};
use std::sync::OnceLock;

use locust::board::position::Position;
use proptest::prelude::*;

const VARIANTS: &[&str] = &[
    "chess",
    "crazyhouse",
    "xiangqi",
    "shogi",
    "grand",
    "fischerandom",
];

fn seeds() -> &'static [(usize, String)] {
    static SEEDS: OnceLock<Vec<(usize, String)>> = OnceLock::new();
    SEEDS.get_or_init(read_seeds)
}

fn read_seeds() -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (i, v) in VARIANTS.iter().enumerate() {
        for c in perft_cases(v).into_iter().take(6) {
            out.push((i, c.fen));
        }
    }
    out
}

/// Start positions, built once (loading the variants is the slow part).
fn bases() -> &'static [Position] {
    static BASES: OnceLock<Vec<Position>> = OnceLock::new();
    BASES.get_or_init(|| VARIANTS.iter().map(|v| start(v)).collect())
}

fn check(variant: usize, text: &str) {
    let base = &bases()[variant];
    if let Ok(pos) = base.with_fen(text) {
        let again = base.with_fen(&pos.fen()).expect("printed FEN reads back");
        assert_eq!(again.fen(), pos.fen());
        assert_eq!(again.hash(), pos.hash());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(variant in 0..VARIANTS.len(), text in "[ -~]{0,80}") {
        check(variant, &text);
    }

    #[test]
    fn mutated_fens_never_panic(
        pick in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), "[ -~]{0,3}"), 1..4),
    ) {
        let all = seeds();
        let (variant, fen) = &all[pick.index(all.len())];
        let mut text = fen.to_string();
        for (at, insert) in edits {
            let i = at.index(text.len() + 1);
            let end = (i + 1).min(text.len());
            if text.is_char_boundary(i) && text.is_char_boundary(end) {
                text.replace_range(i..end, &insert);
            }
        }
        check(*variant, &text);
    }
}
