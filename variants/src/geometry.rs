//! Board geometry shared by every variant: coordinates, square sets and their text form.
//!
//! Squares are numbered `rank * MAX_FILES + file` with a fixed stride of 16, so that a square
//! index means the same thing on every board size and a 16x16 board (the largest XBoard
//! supports) fits in a `u8`-sized index space.

/// The largest number of files any variant may have.
pub const MAX_FILES: u8 = 16;
/// The largest number of ranks any variant may have.
pub const MAX_RANKS: u8 = 16;
/// Number of distinct square indices (`MAX_FILES * MAX_RANKS`).
pub const MAX_SQUARES: usize = MAX_FILES as usize * MAX_RANKS as usize;

/// A square on a board of at most 16x16, as (file, rank), both counted from 0 at White's
/// lower-left corner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Coord {
    /// File index, 0 = `a`.
    pub file: u8,
    /// Rank index, 0 = rank 1.
    pub rank: u8,
}

impl Coord {
    /// Creates a coordinate.
    pub const fn new(file: u8, rank: u8) -> Self {
        Coord { file, rank }
    }

    /// The board-independent square index (`rank * 16 + file`).
    pub const fn index(self) -> usize {
        self.rank as usize * MAX_FILES as usize + self.file as usize
    }

    /// The coordinate of a board-independent square index.
    pub const fn from_index(index: usize) -> Self {
        Coord {
            file: (index % MAX_FILES as usize) as u8,
            rank: (index / MAX_FILES as usize) as u8,
        }
    }

    /// The same square seen from Black's side (ranks mirrored) on a board with `ranks` ranks.
    pub const fn flip_rank(self, ranks: u8) -> Self {
        Coord {
            file: self.file,
            rank: ranks - 1 - self.rank,
        }
    }

    /// Writes the square in chess notation with decimal ranks counted from 1 (`a1`, `j10`,
    /// `p16`), the convention of Fairy-Stockfish and of XBoard on boards taller than 10 ranks.
    pub fn to_text(self) -> String {
        format!("{}{}", (b'a' + self.file) as char, self.rank as u32 + 1)
    }

    /// Parses a square in chess notation (`a1`, `j10`), checking it lies on a board of the
    /// given size.
    pub fn parse(text: &str, files: u8, ranks: u8) -> Option<Coord> {
        let mut chars = text.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        if rank == 0 || rank > ranks || file >= files || digits.starts_with('0') {
            return None;
        }
        Some(Coord {
            file,
            rank: rank - 1,
        })
    }
}

/// A set of squares on a board of at most 16x16, indexed by [`Coord::index`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet(pub [u64; 4]);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet([0; 4]);

    /// Adds a square.
    pub fn insert(&mut self, c: Coord) {
        let i = c.index();
        self.0[i / 64] |= 1u64 << (i % 64);
    }

    /// Tests membership.
    pub fn contains(&self, c: Coord) -> bool {
        let i = c.index();
        self.0[i / 64] & (1u64 << (i % 64)) != 0
    }

    /// True when no square is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Every square of the set, in index order.
    pub fn iter(&self) -> impl Iterator<Item = Coord> + '_ {
        (0..MAX_SQUARES)
            .filter(|i| self.0[i / 64] & (1u64 << (i % 64)) != 0)
            .map(Coord::from_index)
    }

    /// All squares of the ranks `lo..=hi` (0-based) on a board with `files` files.
    pub fn ranks(files: u8, lo: u8, hi: u8) -> SquareSet {
        let mut s = SquareSet::EMPTY;
        for rank in lo..=hi {
            for file in 0..files {
                s.insert(Coord::new(file, rank));
            }
        }
        s
    }

    /// The set mirrored top to bottom on a board with `ranks` ranks (White's zone to Black's).
    pub fn flip_ranks(&self, ranks: u8) -> SquareSet {
        let mut s = SquareSet::EMPTY;
        for c in self.iter() {
            if c.rank < ranks {
                s.insert(c.flip_rank(ranks));
            }
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_text_round_trips_on_big_boards() {
        for (text, file, rank) in [("a1", 0, 0), ("j10", 9, 9), ("p16", 15, 15), ("e4", 4, 3)] {
            let c = Coord::parse(text, 16, 16).unwrap();
            assert_eq!((c.file, c.rank), (file, rank));
            assert_eq!(c.to_text(), text);
        }
        assert_eq!(Coord::parse("i9", 8, 8), None);
        assert_eq!(Coord::parse("a0", 8, 8), None);
        assert_eq!(Coord::parse("a01", 8, 8), None);
        assert_eq!(Coord::parse("A1", 8, 8), None);
        assert_eq!(Coord::parse("a", 8, 8), None);
        assert_eq!(Coord::parse("a17", 16, 16), None);
    }

    #[test]
    fn square_sets_flip() {
        let s = SquareSet::ranks(8, 0, 1);
        let f = s.flip_ranks(8);
        assert!(f.contains(Coord::new(3, 7)) && f.contains(Coord::new(0, 6)));
        assert!(!f.contains(Coord::new(0, 0)));
        assert_eq!(f.iter().count(), 16);
    }
}
