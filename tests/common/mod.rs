//! Shared helpers of the integration tests: variants by name, perft files, a small PRNG.

#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use locust::board::position::Position;

/// The built-in variants with perft data (all but chu and tenjiku, whose move generation is
/// checked in their own issue).
pub const PERFT_VARIANTS: &[&str] = &[
    "chess",
    "fischerandom",
    "crazyhouse",
    "atomic",
    "berolina",
    "knightmate",
    "spartan",
    "hekatomb",
    "battleotk",
    "shatranj",
    "makruk",
    "courier",
    "capablanca",
    "gothic",
    "embassy",
    "grand",
    "xiangqi",
    "janggi",
    "shogi",
    "minishogi",
];

/// The start position of a built-in variant.
pub fn start(name: &str) -> Position {
    Position::new_game(variant(name)).unwrap_or_else(|e| panic!("{name}: bad start FEN: {e}"))
}

/// A built-in variant by name.
pub fn variant(name: &str) -> variants::Variant {
    let all = variants::builtins().expect("built-in variants load");
    variants::find(&all, name)
        .unwrap_or_else(|| panic!("no built-in variant {name}"))
        .clone()
}

/// A fixed-seed xorshift generator, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    /// Next number.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One position of a perft file.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
    pub deep: bool,
}

/// Reads `tests/data/perft/<variant>.perft`.
pub fn perft_cases(variant: &str) -> Vec<PerftCase> {
    let path = format!(
        "{}/tests/data/perft/{variant}.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut out: Vec<PerftCase> = Vec::new();
    let mut deep = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("# deep") {
            deep = true; // marks the next entry only
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                out.push(PerftCase {
                    id: rest.into(),
                    fen: String::new(),
                    counts: vec![],
                    deep,
                });
                deep = false; // "# deep" marks the next entry only
            }
            "fen" => {
                if let Some(c) = out.last_mut() {
                    c.fen = rest.trim().into();
                }
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let d = it.next().and_then(|d| d.parse().ok());
                let n = it.next().and_then(|n| n.parse().ok());
                if let (Some(c), Some(d), Some(n)) = (out.last_mut(), d, n) {
                    c.counts.push((d, n));
                }
            }
            _ => {}
        }
    }
    out
}
