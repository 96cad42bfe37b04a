//! XBetza: H.G. Muller's extension of Betza's funny notation. [`parse`] reads text into a
//! [`Betza`] syntax tree, [`compile`] turns that into trajectory trees, [`print`] writes the
//! canonical text back.
//!
//! Supported: the atoms `W F D N A H C/L Z/J G K R B Q`, leap vectors `(x,y)`, castling
//! `O<n>`, ranges (`W3`, `N0`, doubled letters `NN`, exact ranges `W03`), the direction
//! modifiers `f b l r v s h`, the modalities `m c d e k t`, the path modifiers `n j p g y`,
//! initial moves `i` and multi-leg moves `a` (up to [`MAX_LEGS`] legs).
//!
//! Direction conventions (following XBoard's `MovesFromString`, the reference parser):
//!
//! * orthogonal atoms (`W D H R`, `(0,k)`): every letter adds its directions (`fsW` = f+l+r);
//! * diagonal atoms (`F A G B`, `(k,k)`): one letter gives two diagonals (`fF`), a letter
//!   followed by a perpendicular one gives one diagonal (`frF`);
//! * oblique atoms (`N C Z`, other vectors): one letter gives the narrow pair (`fN` = the two
//!   steep forward jumps, `sN` = the four wide sideways jumps); a letter followed by itself,
//!   by a perpendicular letter or by `h` is read as "of the wide half given by the first
//!   letter, those in the narrow set of the second" (`frN` = (2,1), `rfN` = (1,2), `ffN` =
//!   `fN`, `fsN` = the two wide forward jumps, `fhN` = all four forward jumps); `hr`/`hl`
//!   give the clockwise / anticlockwise chiral halves;
//! * `K`, `Q` and every leg after the first use the eight compass directions: one letter is
//!   that single direction (`fK` = one step straight ahead), a letter followed by a
//!   perpendicular one is the diagonal between them (`frK`, `fsK` = both forward diagonals).
//!   In later legs the directions are relative to the previous leg (f = straight on, b = back,
//!   r = turn right ...); a 45 degree turn makes an orthogonal atom diagonal (`mafsW` = `nN`).
//!   Without letters a later leg goes every way but straight back (8-fold atoms) or straight on
//!   and sideways (4-fold atoms).

mod compile;
mod dirs;
mod parse;
mod print;

pub use compile::{compile, BUILD_BUDGET, MAX_NODES};
pub use parse::parse;
pub use print::print;

/// Most legs one move may have (XBoard handles three; a fourth costs nothing here).
pub const MAX_LEGS: usize = 4;
/// Largest explicit range (`W32`).
pub const MAX_EXPLICIT_RANGE: u8 = 32;
/// Largest component of a leap vector `(x,y)`.
pub const MAX_LEAP: u8 = 15;

/// A parsed XBetza description: the moves it combines, in the order written.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Betza {
    /// One entry per atom written (`fmWfceF` has two).
    pub moves: Vec<Move>,
}

/// One atom with its modifiers: a single- or multi-leg move. Two moves are equal when they
/// mean the same; where they were written ([`Move::column`]) does not count.
#[derive(Clone, Debug)]
pub struct Move {
    /// `i`: only for a piece that has not moved yet.
    pub initial: bool,
    /// The legs, separated by `a` in the text; never empty.
    pub legs: Vec<Leg>,
    /// The atom all legs share.
    pub atom: Atom,
    /// How many atom steps a leg may take (shared by all legs, toggled by `y`/`g`).
    pub range: Range,
    /// 1-based column where the move begins in the text it was read from (compile errors
    /// point there).
    pub column: usize,
}

impl PartialEq for Move {
    fn eq(&self, other: &Move) -> bool {
        (self.initial, &self.legs, self.atom, self.range)
            == (other.initial, &other.legs, other.atom, other.range)
    }
}

impl Eq for Move {}

impl std::hash::Hash for Move {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self.initial, &self.legs, self.atom, self.range).hash(state);
    }
}

/// The modifiers of one leg.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Leg {
    /// Direction letters in the order written (order matters for oblique atoms).
    pub dirs: Vec<Dir>,
    /// Modality and path modifiers.
    pub mods: Mods,
}

/// A direction letter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// `f` forward.
    F,
    /// `b` backward.
    B,
    /// `l` left.
    L,
    /// `r` right.
    R,
    /// `v` vertical (f and b).
    V,
    /// `s` sideways (l and r).
    S,
    /// `h` half (chiral or wide selection on oblique atoms).
    H,
}

impl Dir {
    /// The letter of the direction.
    pub fn letter(self) -> char {
        match self {
            Dir::F => 'f',
            Dir::B => 'b',
            Dir::L => 'l',
            Dir::R => 'r',
            Dir::V => 'v',
            Dir::S => 's',
            Dir::H => 'h',
        }
    }

    /// The direction of a letter, if it is one.
    pub fn from_letter(c: char) -> Option<Dir> {
        Some(match c {
            'f' => Dir::F,
            'b' => Dir::B,
            'l' => Dir::L,
            'r' => Dir::R,
            'v' => Dir::V,
            's' => Dir::S,
            'h' => Dir::H,
            _ => return None,
        })
    }
}

/// Modality and path modifiers of a leg, as a set of letters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Mods(pub u16);

impl Mods {
    /// The modifier letters in canonical order; bit `k` of [`Mods`] is letter `k`.
    pub const LETTERS: &'static str = "mcdektpgynj";
    /// `m` move to an empty square / pass an empty square.
    pub const M: u16 = 1 << 0;
    /// `c` capture a foe (locust capture in a non-final leg).
    pub const C: u16 = 1 << 1;
    /// `d` capture a friend.
    pub const D: u16 = 1 << 2;
    /// `e` en-passant capture.
    pub const E: u16 = 1 << 3;
    /// `k` check only.
    pub const K: u16 = 1 << 4;
    /// `t` tame (final leg) / do not hop foes (non-final leg).
    pub const T: u16 = 1 << 5;
    /// `p` hop.
    pub const P: u16 = 1 << 6;
    /// `g` grasshopper / hop and toggle range.
    pub const G: u16 = 1 << 7;
    /// `y` toggle range on an empty square.
    pub const Y: u16 = 1 << 8;
    /// `n` lame (non-jumping).
    pub const N: u16 = 1 << 9;
    /// `j` must jump.
    pub const J: u16 = 1 << 10;

    /// The bit of a modifier letter, if it is one.
    pub fn bit(c: char) -> Option<u16> {
        Mods::LETTERS.find(c).map(|i| 1 << i)
    }

    /// True when every bit of `bits` is set.
    pub fn has(self, bits: u16) -> bool {
        self.0 & bits == bits
    }

    /// True when some bit of `bits` is set.
    pub fn any(self, bits: u16) -> bool {
        self.0 & bits != 0
    }
}

/// The atom of a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Atom {
    /// A leap or step given by its letter or vector, see [`Atom::vector`].
    Leap(Letter),
    /// A leap vector `(x,y)`.
    Vector(u8, u8),
    /// `K` = WF, one step in all eight directions.
    King,
    /// `Q` = RB, slides in all eight directions.
    Queen,
    /// `O`: castling.
    Castle,
}

/// Atoms written with one letter that stand for a single leap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Letter {
    /// (0,1)
    W,
    /// (1,1)
    F,
    /// (0,2)
    D,
    /// (1,2)
    N,
    /// (2,2)
    A,
    /// (0,3)
    H,
    /// (1,3), also `L`
    C,
    /// (2,3), also `J`
    Z,
    /// (3,3)
    G,
    /// rook: (0,1), sliding by default
    R,
    /// bishop: (1,1), sliding by default
    B,
}

impl Letter {
    /// The canonical letter.
    pub fn letter(self) -> char {
        match self {
            Letter::W => 'W',
            Letter::F => 'F',
            Letter::D => 'D',
            Letter::N => 'N',
            Letter::A => 'A',
            Letter::H => 'H',
            Letter::C => 'C',
            Letter::Z => 'Z',
            Letter::G => 'G',
            Letter::R => 'R',
            Letter::B => 'B',
        }
    }

    /// The leap as (smaller, larger) component.
    pub fn vector(self) -> (u8, u8) {
        match self {
            Letter::W | Letter::R => (0, 1),
            Letter::F | Letter::B => (1, 1),
            Letter::D => (0, 2),
            Letter::N => (1, 2),
            Letter::A => (2, 2),
            Letter::H => (0, 3),
            Letter::C => (1, 3),
            Letter::Z => (2, 3),
            Letter::G => (3, 3),
        }
    }
}

impl Atom {
    /// The atom of an upper-case letter, if it is one.
    pub fn from_letter(c: char) -> Option<Atom> {
        let l = match c {
            'W' => Letter::W,
            'F' => Letter::F,
            'D' => Letter::D,
            'N' => Letter::N,
            'A' => Letter::A,
            'H' => Letter::H,
            'C' | 'L' => Letter::C,
            'Z' | 'J' => Letter::Z,
            'G' => Letter::G,
            'R' => Letter::R,
            'B' => Letter::B,
            'K' => return Some(Atom::King),
            'Q' => return Some(Atom::Queen),
            'O' => return Some(Atom::Castle),
            _ => return None,
        };
        Some(Atom::Leap(l))
    }

    /// True for the atoms that slide when no range is written (`R B Q`).
    pub fn slides_by_default(self) -> bool {
        matches!(
            self,
            Atom::Queen | Atom::Leap(Letter::R) | Atom::Leap(Letter::B)
        )
    }
}

/// How far a leg may repeat its atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Range {
    /// Any number of steps (`0`, doubled letter, or the default of `R B Q`).
    Unlimited,
    /// At most this many steps (1 for a plain leaper).
    Limited(u8),
    /// Exactly this many steps (`W03`).
    Exact(u8),
}
