//! Zobrist keys, sized from the variant: one per (kind, colour, square), per hand count,
//! per en-passant victim square, per counterstrike square (Chu's lion rule), per count of
//! checks left to give (check counting), per wall square, per gate (colour and file), and one
//! for the side to move.

use crate::board::layout::Layout;
use crate::board::types::{Colour, Sq};

/// Largest hand count with its own key; larger counts share the last.
const MAX_HAND_KEYED: usize = 64;

/// Counts of checks left to give that have a key each: every count a FEN can hold.
const CHECK_COUNTS: usize = u8::MAX as usize + 1;

/// Key tables of one layout.
#[derive(Debug)]
pub struct Zobrist {
    men: Vec<u64>,
    hands: Vec<u64>,
    eps: Vec<u64>,
    strikes: Vec<u64>,
    checks: Vec<u64>,
    walls: Vec<u64>,
    gates: Vec<u64>,
    squares: usize,
    pieces: usize,
    /// Side-to-move key.
    pub side: u64,
    /// Key of "the last move castled to a winning side" (`castlingWins`): the same board
    /// with the rights lost otherwise is the castler's loss.
    pub castled_win: u64,
    /// Keys of a colour's series of checks holding a shak (`shatarMateRule`), White's first.
    shak: [u64; 2],
}

/// Files a gate mask covers (`variants::geometry::MAX_FILES`).
const GATE_FILES: usize = variants::geometry::MAX_FILES as usize;

/// SplitMix64: a fixed, well-mixed sequence so keys are the same on every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Zobrist {
    /// Tables for a layout.
    pub fn new(lay: &Layout) -> Zobrist {
        let mut s = 0x1234_5678_9ABC_DEF0u64;
        let squares = lay.size;
        let pieces = lay.variant.pieces.len();
        let men = (0..lay.kinds.len() * 2 * squares)
            .map(|_| next(&mut s))
            .collect();
        let hands = (0..2 * pieces * (MAX_HAND_KEYED + 1))
            .map(|i| {
                if i % (MAX_HAND_KEYED + 1) == 0 {
                    0
                } else {
                    next(&mut s)
                }
            })
            .collect();
        let eps = (0..squares).map(|_| next(&mut s)).collect();
        let side = next(&mut s);
        // Drawn after the side key so that every older key keeps its value.
        let strikes = (0..squares).map(|_| next(&mut s)).collect();
        // Drawn last, for the same reason.
        let checks = (0..2 * CHECK_COUNTS).map(|_| next(&mut s)).collect();
        // Drawn after the check keys, for the same reason.
        let walls = (0..squares).map(|_| next(&mut s)).collect();
        // Drawn after the wall keys, for the same reason.
        let gates = (0..2 * GATE_FILES).map(|_| next(&mut s)).collect();
        // Drawn after the walls, for the same reason.
        let castled_win = next(&mut s);
        // Drawn last, for the same reason.
        let shak = [next(&mut s), next(&mut s)];
        Zobrist {
            men,
            hands,
            eps,
            strikes,
            checks,
            walls,
            gates,
            squares,
            pieces,
            side,
            castled_win,
            shak,
        }
    }

    /// Key of a man.
    #[inline]
    pub fn man(&self, kind: u8, colour: Colour, sq: Sq) -> u64 {
        self.men[(kind as usize * 2 + colour.index()) * self.squares + sq as usize]
    }

    /// Key of holding `count` pieces of a type (0 for an empty hand).
    #[inline]
    pub fn hand(&self, colour: Colour, piece: usize, count: u8) -> u64 {
        let c = (count as usize).min(MAX_HAND_KEYED);
        self.hands[(colour.index() * self.pieces + piece) * (MAX_HAND_KEYED + 1) + c]
    }

    /// Key of an en-passant victim square.
    #[inline]
    pub fn ep(&self, sq: Sq) -> u64 {
        self.eps[sq as usize]
    }

    /// Key of a counterstrike square (Chu: a non-lion took a lion there last move).
    #[inline]
    pub fn strike(&self, sq: Sq) -> u64 {
        self.strikes[sq as usize]
    }

    /// Key of a wall on `sq` (FEN `*`, or placed by a move under a walling rule).
    #[inline]
    pub fn wall(&self, sq: Sq) -> u64 {
        self.walls[sq as usize]
    }

    /// Key of `colour`'s gates (a bit per file of its gating rank).
    #[inline]
    pub fn gates(&self, colour: Colour, files: u16) -> u64 {
        (0..GATE_FILES)
            .filter(|f| files >> f & 1 != 0)
            .fold(0, |k, f| k ^ self.gates[colour.index() * GATE_FILES + f])
    }

    /// Key of `colour`'s series of checks holding a shak (`shatarMateRule`).
    #[inline]
    pub fn shak(&self, colour: Colour) -> u64 {
        self.shak[colour.index()]
    }

    /// Key of `colour` having `left` checks left to give (check counting).
    #[inline]
    pub fn checks(&self, colour: Colour, left: u8) -> u64 {
        self.checks[colour.index() * CHECK_COUNTS + left as usize]
    }
}
