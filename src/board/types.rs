//! Small vocabulary types of the engine: colours, mailbox squares and slot numbers.

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first.
    White = 0,
    /// Moves second.
    Black = 1,
}

impl Colour {
    /// The other side.
    #[inline]
    pub fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// Colour from an index (0 = White).
    #[inline]
    pub fn from_index(i: usize) -> Colour {
        if i == 0 {
            Colour::White
        } else {
            Colour::Black
        }
    }
}

/// A square of the padded mailbox (see [`crate::board::layout::Layout`]).
pub type Sq = u16;

/// A piece slot: the identity of one man on the board, 1-based; 0 on the board means empty.
pub type Slot = u8;

/// Board content of an empty square.
pub const EMPTY: Slot = 0;
/// Board content of a square outside the playing area (guard band or wall).
pub const OFF: Slot = u8::MAX;
/// The largest slot number; slots run `1..=MAX_SLOT`.
pub const MAX_SLOT: usize = 254;
