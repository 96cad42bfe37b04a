//! Random text and mutated valid INI thrown at the reader and loader: never a panic, and
//! every failure comes back as errors.

#![allow(clippy::unwrap_used, clippy::expect_used)]

use proptest::prelude::*;
use variants::load::BUILTIN_FILES;
use variants::load_str;

/// Cases per property; keeps the whole file well under ten seconds in release mode.
const CASES: u32 = 400;

fn builtin_text() -> impl Strategy<Value = String> {
    (0..BUILTIN_FILES.len()).prop_map(|i| BUILTIN_FILES[i].1.to_string())
}

/// Applies byte-level edits (replace, delete, insert) to a valid file.
fn mutate(text: String, edits: Vec<(usize, u8, u8)>) -> String {
    let mut bytes = text.into_bytes();
    for (pos, op, byte) in edits {
        if bytes.is_empty() {
            break;
        }
        let at = pos % bytes.len();
        match op % 3 {
            0 => bytes[at] = byte,
            1 => {
                bytes.remove(at);
            }
            _ => bytes.insert(at, byte),
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: CASES, ..ProptestConfig::default() })]

    #[test]
    fn random_text_never_panics(text in "\\PC{0,400}") {
        let _ = load_str(&text, "random.ini");
    }

    #[test]
    fn ini_like_text_never_panics(
        text in "(\\[[a-z:]{0,6}\\]\n|[a-zA-Z.]{1,12} ?= ?[-a-z0-9:+*'!/ \\[\\]]{0,20}\n|#.{0,5}\n){0,20}"
    ) {
        let _ = load_str(&text, "ini.ini");
    }

    #[test]
    fn mutated_builtins_never_panic(
        text in builtin_text(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), 32u8..127), 1..6),
    ) {
        let mutated = mutate(text, edits);
        if let Err(errors) = load_str(&mutated, "mutated.ini") {
            prop_assert!(!errors.is_empty());
        }
    }
}
