//! The compact, position-independent move: from, to, what it does on the way (extra victims,
//! the castling rook), and the piece it promotes to or drops. Squares are board-independent
//! [`Coord`] indices, so a move means the same on any copy of the position.

use variants::geometry::Coord;
use variants::PieceId;

/// Marks an unused piece field.
pub const NO_PIECE: PieceId = u8::MAX;
/// Most extra squares a move records (locust victims, castling rook, e.p. victim).
pub const MAX_EXTRA: usize = 3;

/// What kind of move this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A move along a trajectory; `extra` holds locust victims.
    Normal,
    /// Like `Normal`, with a change of type to `piece` on arrival.
    Promotion,
    /// A piece from hand onto `to`.
    Drop,
    /// Castling: the royal goes `from` -> `to`, the rook from `extra[0]` to the square beside.
    Castle,
    /// En passant: the man on `extra[0]` is captured.
    EnPassant,
    /// Pass (janggi).
    Pass,
}

/// A move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    /// Start square index ([`Coord::index`]); for drops, equal to `to`.
    pub from: u8,
    /// End square index.
    pub to: u8,
    /// Kind.
    pub kind: MoveKind,
    /// Promotion or drop piece type, or [`NO_PIECE`].
    pub piece: PieceId,
    /// Number of used `extra` squares.
    pub n_extra: u8,
    /// Extra squares (see [`MoveKind`]).
    pub extra: [u8; MAX_EXTRA],
    /// True when the move sets en-passant squares (a double step).
    pub sets_ep: bool,
}

impl Move {
    /// A plain move.
    pub fn normal(from: Coord, to: Coord) -> Move {
        Move {
            from: from.index() as u8,
            to: to.index() as u8,
            kind: MoveKind::Normal,
            piece: NO_PIECE,
            n_extra: 0,
            extra: [0; MAX_EXTRA],
            sets_ep: false,
        }
    }

    /// Start square.
    pub fn from_coord(&self) -> Coord {
        Coord::from_index(self.from as usize)
    }

    /// End square.
    pub fn to_coord(&self) -> Coord {
        Coord::from_index(self.to as usize)
    }

    /// The extra squares in use.
    pub fn extras(&self) -> impl Iterator<Item = Coord> + '_ {
        self.extra[..self.n_extra as usize]
            .iter()
            .map(|&i| Coord::from_index(i as usize))
    }

    /// Records an extra square; false when there is no room.
    pub fn push_extra(&mut self, c: Coord) -> bool {
        if (self.n_extra as usize) < MAX_EXTRA {
            self.extra[self.n_extra as usize] = c.index() as u8;
            self.n_extra += 1;
            true
        } else {
            false
        }
    }

    /// Text in the protocols' coordinate notation: `e2e4`, `e7e8q`, `P@e4`, `@@@@` (pass);
    /// a locust move is written as legs through its victims: `f3e4,e4f5`.
    pub fn text(&self, letter_of: impl Fn(PieceId) -> char) -> String {
        let (from, to) = (self.from_coord().to_text(), self.to_coord().to_text());
        match self.kind {
            MoveKind::Pass => "@@@@".to_string(),
            MoveKind::Drop => format!("{}@{}", letter_of(self.piece).to_ascii_uppercase(), to),
            MoveKind::Promotion => {
                let p = letter_of(self.piece).to_ascii_lowercase();
                format!("{}{}{}", self.legs(&from), to, p)
            }
            _ => format!("{}{}", self.legs(&from), to),
        }
    }

    /// The leading legs of a locust move (`f3e4,e4`), or just the start square.
    fn legs(&self, from: &str) -> String {
        if self.kind != MoveKind::Normal && self.kind != MoveKind::Promotion {
            return from.to_string();
        }
        let mut s = from.to_string();
        for v in self.extras() {
            let v = v.to_text();
            s.push_str(&v);
            s.push(',');
            s.push_str(&v);
        }
        s
    }
}
