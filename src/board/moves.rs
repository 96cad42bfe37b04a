//! The compact, position-independent move: from, to, what it does on the way (extra victims,
//! the castling rook), and the piece it promotes to or drops. Squares are board-independent
//! [`Coord`] indices, so a move means the same on any copy of the position.
//!
//! A move has any number of extra squares. Up to [`INLINE_EXTRA`] are stored in the move
//! itself (every move XBetza can describe but one: e.p. after three locust legs); a longer
//! list is interned once per process in a table of leaked slices and the move stores its
//! index, so a move stays `Copy`, small and comparable, and the common case pays nothing.

use std::collections::HashMap;
use std::sync::{OnceLock, RwLock};

use variants::geometry::Coord;
use variants::PieceId;

/// Marks an unused piece field.
pub const NO_PIECE: PieceId = u8::MAX;
/// Extra squares (locust victims, castling rook, e.p. victim) a move holds in itself.
pub const INLINE_EXTRA: usize = 3;
/// [`Move::n_extra`] of a move whose extra squares are interned.
pub const LONG_EXTRA: u8 = u8::MAX;
/// [`Move::wall`] of a move that places no wall.
pub const NO_WALL: u8 = u8::MAX;

/// Interned extra-square lists longer than [`INLINE_EXTRA`]: by index, and index by list.
#[derive(Default)]
struct LongExtras {
    lists: Vec<&'static [u8]>,
    index: HashMap<&'static [u8], u32>,
}

fn long_extras() -> &'static RwLock<LongExtras> {
    static TABLE: OnceLock<RwLock<LongExtras>> = OnceLock::new();
    TABLE.get_or_init(RwLock::default)
}

/// The index of `list` in the table, adding it the first time it is seen.
fn intern(list: &[u8]) -> u32 {
    let table = long_extras();
    let read = table.read().unwrap_or_else(|e| e.into_inner());
    if let Some(&i) = read.index.get(list) {
        return i;
    }
    drop(read);
    let mut t = table.write().unwrap_or_else(|e| e.into_inner());
    if let Some(&i) = t.index.get(list) {
        return i;
    }
    let i = t.lists.len() as u32;
    let kept: &'static [u8] = Box::leak(list.to_vec().into_boxed_slice());
    t.lists.push(kept);
    t.index.insert(kept, i);
    i
}

/// The interned list with index `i` (empty if there is none: never for a move's own index).
fn interned(i: u32) -> &'static [u8] {
    let t = long_extras().read().unwrap_or_else(|e| e.into_inner());
    t.lists.get(i as usize).copied().unwrap_or(&[])
}

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
    /// Number of extra squares (see [`MoveKind`]) when there are at most [`INLINE_EXTRA`];
    /// [`LONG_EXTRA`] when the list is interned. [`Move::n_extras`] counts them either way.
    pub n_extra: u8,
    /// The extra squares when there are at most [`INLINE_EXTRA`] (unused entries 0), else the
    /// index of the interned list (little-endian 24 bits). Read them with
    /// [`Move::extra_indices`].
    pub extra: [u8; INLINE_EXTRA],
    /// True when the move sets en-passant squares (a double step).
    pub sets_ep: bool,
    /// The square ([`Coord::index`]) where the move puts a wall after its man has moved
    /// (Fairy-Stockfish's walling rules: duck, amazons' arrow), or [`NO_WALL`].
    pub wall: u8,
    /// Seirawan gating: the type the move puts from hand on a square it leaves, or
    /// [`NO_PIECE`].
    pub gate: PieceId,
    /// The gated man goes on the castling rook's square (`extra[0]`) instead of `from`.
    pub gate_on_rook: bool,
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
            extra: [0; INLINE_EXTRA],
            sets_ep: false,
            wall: NO_WALL,
            gate: NO_PIECE,
            gate_on_rook: false,
        }
    }

    /// The type the move gates from hand, if any.
    #[inline]
    pub fn gate_piece(&self) -> Option<PieceId> {
        (self.gate != NO_PIECE).then_some(self.gate)
    }

    /// The square the gated man goes to, if the move gates one: the start square, or the
    /// castling rook's.
    pub fn gate_coord(&self) -> Option<Coord> {
        self.gate_piece()?;
        if self.gate_on_rook {
            self.extras().next()
        } else {
            Some(self.from_coord())
        }
    }

    /// The same move gating `piece` (`None`: nothing), on the rook's square when `on_rook`.
    #[inline]
    pub fn with_gate(mut self, piece: Option<PieceId>, on_rook: bool) -> Move {
        self.gate = piece.unwrap_or(NO_PIECE);
        self.gate_on_rook = on_rook && piece.is_some();
        self
    }

    /// The wall the move places, if any.
    #[inline]
    pub fn wall_coord(&self) -> Option<Coord> {
        (self.wall != NO_WALL).then(|| Coord::from_index(self.wall as usize))
    }

    /// The same move with its wall on `c` (`None`: without a wall).
    #[inline]
    pub fn with_wall(mut self, c: Option<Coord>) -> Move {
        self.wall = c.map_or(NO_WALL, |c| c.index() as u8);
        self
    }

    /// Start square.
    pub fn from_coord(&self) -> Coord {
        Coord::from_index(self.from as usize)
    }

    /// End square.
    pub fn to_coord(&self) -> Coord {
        Coord::from_index(self.to as usize)
    }

    /// A move that ends where it began and takes nothing: a lion's pass (jitto), which
    /// XBoard is sent as its null move.
    #[inline]
    pub fn is_step_out_and_back(&self) -> bool {
        self.kind == MoveKind::Normal && self.from == self.to && self.extra_indices().is_empty()
    }

    /// The extra squares as [`Coord::index`] values, in order.
    #[inline]
    pub fn extra_indices(&self) -> &[u8] {
        if self.n_extra != LONG_EXTRA {
            &self.extra[..self.n_extra as usize]
        } else {
            interned(u32::from_le_bytes([
                self.extra[0],
                self.extra[1],
                self.extra[2],
                0,
            ]))
        }
    }

    /// Number of extra squares.
    pub fn n_extras(&self) -> usize {
        self.extra_indices().len()
    }

    /// The extra squares in use.
    pub fn extras(&self) -> impl Iterator<Item = Coord> + '_ {
        self.extra_indices()
            .iter()
            .map(|&i| Coord::from_index(i as usize))
    }

    /// Records one more extra square; every number of them fits.
    #[inline]
    pub fn push_extra(&mut self, c: Coord) {
        let n = self.n_extra as usize;
        if n < INLINE_EXTRA {
            self.extra[n] = c.index() as u8;
            self.n_extra += 1;
            return;
        }
        self.push_long_extra(c);
    }

    /// [`Move::push_extra`] past the inline squares: the list moves to the interned table
    /// (16 million distinct long lists at most, far more than any game meets).
    #[cold]
    #[inline(never)]
    fn push_long_extra(&mut self, c: Coord) {
        let mut list = self.extra_indices().to_vec();
        list.push(c.index() as u8);
        let [a, b, d, _] = intern(&list).to_le_bytes();
        self.extra = [a, b, d];
        self.n_extra = LONG_EXTRA;
    }

    /// Text in the protocols' coordinate notation: `e2e4`, `e7e8q`, `P@e4`, `@@@@` (pass);
    /// a locust move is written as legs through its victims: `f3e4,e4f5`; a wall follows
    /// as a leg from the end square, as Fairy-Stockfish writes it in UCI: `e7e8q,e8d5`
    /// (a pass that only walls: the start square twice, `a1a1,a1c3`). A gated man's letter
    /// follows in lower case (`b1c3h`); castling that gates on the rook's square is written
    /// from the rook's square to the king's (`h1e1h`), as Fairy-Stockfish and cutechess do.
    pub fn text(&self, letter_of: impl Fn(PieceId) -> char) -> String {
        if let Some(p) = self.gate_piece() {
            let letter = letter_of(p).to_ascii_lowercase();
            return match self.gate_coord().filter(|_| self.gate_on_rook) {
                Some(rook) => format!("{}{}{letter}", rook.to_text(), self.from_coord().to_text()),
                None => format!("{}{letter}", self.with_gate(None, false).text(letter_of)),
            };
        }
        let base = self.with_wall(None).unwalled_text(letter_of);
        match self.wall_coord() {
            None => base,
            Some(w) if self.kind == MoveKind::Pass => {
                let at = self.from_coord().to_text();
                format!("{at}{at},{at}{}", w.to_text())
            }
            Some(w) => format!("{base},{}{}", self.to_coord().to_text(), w.to_text()),
        }
    }

    fn unwalled_text(&self, letter_of: impl Fn(PieceId) -> char) -> String {
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
