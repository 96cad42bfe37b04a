//! Property tests for the XBetza compiler: random and mutated text never panics, and
//! whatever parses survives the printer round trip.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on their own fixtures
use proptest::prelude::*;
use variants::xbetza::{compile, parse, print};

/// Valid seeds that the mutation strategy starts from.
const SEEDS: &[&str] = &[
    "fmWfceFifmnD",
    "KisO2",
    "mfFcfeWimfnA",
    "mRcpR",
    "mafsmafW",
    "KNADcaKmabK",
    "K3cpafK",
    "WyafsW",
    "RmasR",
    "KADcavKmcpafmcpavK",
    "gQ",
    "NN",
    "(4,1)",
    "W03",
    "fhN",
    "hrN",
    "jR",
    "fkR",
    "tQ",
    "cafmF",
    "sRvW",
    "ffN",
];

/// Characters XBetza text is made of, plus a few that are not.
const ALPHABET: &str = "abcdefghijklmnopqrstuvwxyzWFDNAHCLZJGKRBQOXUI0123456789(),[]-?# é";

fn text_strategy() -> impl Strategy<Value = String> {
    let chars: Vec<char> = ALPHABET.chars().collect();
    let random = proptest::collection::vec(proptest::sample::select(chars.clone()), 0..14)
        .prop_map(|v| v.into_iter().collect::<String>());
    let mutated = (
        proptest::sample::select(SEEDS.to_vec()),
        proptest::collection::vec(
            (any::<usize>(), 0u8..3, proptest::sample::select(chars)),
            1..4,
        ),
    )
        .prop_map(|(seed, edits)| mutate(seed, &edits));
    prop_oneof![random, mutated, any::<String>()]
}

/// Applies insertions (0), deletions (1) and replacements (2) at the given positions.
fn mutate(seed: &str, edits: &[(usize, u8, char)]) -> String {
    let mut v: Vec<char> = seed.chars().collect();
    for &(pos, kind, c) in edits {
        let i = pos % (v.len() + 1);
        match kind {
            0 => v.insert(i, c),
            1 if i < v.len() => {
                v.remove(i);
            }
            _ if i < v.len() => v[i] = c,
            _ => v.push(c),
        }
    }
    v.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_round_trips(text in text_strategy()) {
        if let Ok(b) = parse(&text) {
            let printed = print(&b);
            let again = parse(&printed);
            prop_assert!(again.is_ok(), "{} printed as {} fails: {:?}", text, printed, again);
            let again = again.unwrap();
            prop_assert_eq!(&again, &b, "{} printed as {}", text, printed);
            // Columns may differ between the text and its canonical print; the verdict may not.
            let message = |e: variants::XbetzaError| e.message;
            prop_assert_eq!(compile(&again, 7).map_err(message), compile(&b, 7).map_err(message));
            prop_assert_eq!(print(&again), printed);
        } else {
            let e = parse(&text).unwrap_err();
            prop_assert!(e.column >= 1 && e.column <= text.chars().count().max(1));
        }
    }
}
