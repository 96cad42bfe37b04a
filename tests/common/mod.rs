//! Shared helpers of the integration tests: variants by name, perft files, a small PRNG.

#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use locust::board::moves::Move;
use locust::board::position::Position;
use locust::board::reference::{self, RefBoard};

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

/// Moves as sortable texts with their kind and extra squares, for comparing generators.
pub fn sorted(mut v: Vec<Move>) -> Vec<String> {
    let text = |m: &Move| {
        let base = m.text(|p| (b'A' + p) as char);
        format!(
            "{base} {:?}{:?}{}",
            m.kind,
            m.extra_indices(),
            if m.sets_ep { " ep" } else { "" }
        )
    };
    let mut s: Vec<String> = v.drain(..).map(|m| text(&m)).collect();
    s.sort();
    s
}

/// A random make/unmake walk of `plies` steps from `pos`: at every step the victim-staged
/// generator equals the man-by-man one, the legal moves equal the reference generator's,
/// unmake restores the FEN, and the incremental state (map, key) equals a scratch build.
pub fn walk_checked(
    name: &str,
    mut pos: Position,
    rules: &variants::Variant,
    plies: usize,
    seed: u64,
) {
    let mut rng = Rng(seed);
    let mut ops = Vec::new();
    let mut stack = Vec::new();
    let mut done = 0;
    while done < plies {
        let mut staged = Vec::new();
        pos.pseudo_moves(&mut staged);
        let mut by_man = Vec::new();
        pos.pseudo_moves_by_man(&mut by_man);
        assert_eq!(
            sorted(staged),
            sorted(by_man),
            "{name}: staged != full at {}",
            pos.fen()
        );
        let legal = legal_as_reference(name, &mut pos, rules);
        if legal.is_empty() || stack.len() > 200 || (rng.below(8) == 0 && !stack.is_empty()) {
            let Some((saved, fen)) = stack.pop() else {
                break;
            };
            pos.unmake(saved, &mut ops);
            assert_eq!(pos.fen(), fen, "{name}: unmake did not restore the FEN");
        } else {
            let m = legal[rng.below(legal.len())];
            let fen = pos.fen();
            let saved = pos.make(&m, &mut ops);
            stack.push((saved, fen));
        }
        if let Some(e) = pos.inconsistency() {
            panic!("{name}: after ply {done}: {e}\nFEN {}", pos.fen());
        }
        done += 1;
    }
}

/// The engine's legal moves, after checking that they equal the reference generator's.
pub fn legal_as_reference(name: &str, pos: &mut Position, rules: &variants::Variant) -> Vec<Move> {
    let (mut legal, mut ops) = (Vec::new(), Vec::new());
    pos.legal_moves(&mut legal, &mut ops);
    let oracle = reference::legal_moves(&RefBoard::from_position(pos), rules);
    let (a, b) = (sorted(legal.clone()), sorted(oracle));
    if a != b {
        let only_a: Vec<_> = a.iter().filter(|m| !b.contains(m)).collect();
        let only_b: Vec<_> = b.iter().filter(|m| !a.contains(m)).collect();
        panic!(
            "{name}: legal != reference at {}\nengine only: {only_a:?}\nreference only: {only_b:?}",
            pos.fen()
        );
    }
    legal
}

/// The one variant an INI text defines.
pub fn ini_variant(text: &str) -> variants::Variant {
    let mut all = variants::load_str(text, "test.ini").unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(all.len(), 1, "one variant per test INI");
    all.remove(0)
}
