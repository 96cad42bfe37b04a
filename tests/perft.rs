//! Perft against independent numbers kept in tests/data/perft (Fairy-Stockfish, python-chess,
//! published tables; see docs/perft-data.md). Rows above the node budget run in the ignored
//! deep test.

mod common;

use common::{perft_cases, start};
use locust::perft::perft;

/// Largest node count checked in the normal suite.
const SUITE_BUDGET: u64 = 3_000_000;

fn run(variant: &str, deep: bool) {
    let base = start(variant);
    let cases = perft_cases(variant);
    assert!(!cases.is_empty(), "no perft data for {variant}");
    let mut checked = 0;
    for case in cases {
        let mut pos = base
            .with_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{variant} {}: {e}: {}", case.id, case.fen));
        for &(depth, nodes) in &case.counts {
            if (nodes > SUITE_BUDGET || case.deep) != deep {
                continue;
            }
            let got = perft(&mut pos, depth);
            assert_eq!(
                got, nodes,
                "{variant} {} depth {depth}: {}",
                case.id, case.fen
            );
            checked += 1;
        }
    }
    eprintln!("{variant}: {checked} perft rows checked");
    // Every variant has rows for the suite; not every one has deep rows.
    assert!(deep || checked > 0, "{variant}: no perft row in the suite");
}

macro_rules! perft_tests {
    ($($name:ident: $v:expr),* $(,)?) => {
        mod suite { use super::run; $( #[test] fn $name() { run($v, false); } )* }
        mod deep { use super::run; $( #[test] #[ignore = "deep perft rows; run with --ignored in release"] fn $name() { run($v, true); } )* }
    };
}

perft_tests! {
    chess: "chess", fischerandom: "fischerandom", crazyhouse: "crazyhouse", atomic: "atomic",
    berolina: "berolina", knightmate: "knightmate", spartan: "spartan", shatranj: "shatranj",
    makruk: "makruk", courier: "courier", capablanca: "capablanca", gothic: "gothic",
    embassy: "embassy", grand: "grand", xiangqi: "xiangqi", janggi: "janggi", shogi: "shogi",
    minishogi: "minishogi", hekatomb: "hekatomb", battleotk: "battleotk", chu: "chu",
}
