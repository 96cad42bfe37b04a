//! The 32-bit compact move for tables (transposition table, endgame tables, books), and the
//! one checked way back from it to a full move of the current position.
//!
//! Layout, low bit first:
//!
//! | bits  | field |
//! |-------|-------|
//! | 0-7   | from square ([`Coord::index`]); for drops, the drop square |
//! | 8-15  | to square |
//! | 16-23 | the move's first extra square: a two-leg move's intermediate victim, the e.p. victim, the castling rook; the wall a move places instead (walling rules); the king's square for castling that gates there; 0 when absent |
//! | 24-30 | promotion, drop or gated piece type; [`NO_PIECE_CODE`] when none |
//! | 31    | set when bits 16-23 hold an extra square |
//!
//! A pass is [`PASS_CODE`] (all ones: no real move has its extra square equal to both ends);
//! a pass that places a wall (`wallOrMove`) is coded like a move from its square to itself.
//! Further victims (a burner's, a second locust victim) are not stored: the rest of the
//! move follows from the position, and [`Position::decode_move`] refuses a code that two
//! legal moves would share.

use variants::geometry::Coord;

use crate::board::moves::{Move, MoveKind, NO_PIECE};
use crate::board::position::Position;

/// The compact code of a pass.
pub const PASS_CODE: u32 = u32::MAX;
/// The piece field when the move neither promotes nor drops.
pub const NO_PIECE_CODE: u32 = 0x7F;
const PIECE_SHIFT: u32 = 24;
const EXTRA_FLAG: u32 = 1 << 31;

/// A move in 32 bits (see the module documentation for the layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CompactMove(pub u32);

/// Why a compact move was refused in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// A square index lies off the board or on a wall.
    OffBoard(u8),
    /// The from-square holds no man of the side to move (and the move is no drop).
    NotYourMan(Coord),
    /// No pseudo-legal move of the position has this code.
    NotPseudoLegal,
    /// The move would leave the side's royal capturable, or break another royal rule.
    Illegal,
    /// Two legal moves share the code.
    Ambiguous,
    /// The game is over: no move is legal.
    GameOver,
}

impl std::fmt::Display for MoveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MoveError::OffBoard(i) => write!(f, "square index {i} is not on the board"),
            MoveError::NotYourMan(c) => write!(f, "no man of the side to move on {}", c.to_text()),
            MoveError::NotPseudoLegal => write!(f, "no such move in this position"),
            MoveError::Illegal => write!(f, "the move leaves the royal en prise"),
            MoveError::Ambiguous => write!(f, "the code names more than one move"),
            MoveError::GameOver => write!(f, "the game is over"),
        }
    }
}

impl std::error::Error for MoveError {}

impl CompactMove {
    /// The code of a move, or `None` when its piece type does not fit in 7 bits.
    pub fn encode(m: &Move) -> Option<CompactMove> {
        if m.kind == MoveKind::Pass && m.wall_coord().is_none() {
            return Some(CompactMove(PASS_CODE));
        }
        // A gated move (never a promotion or drop) keeps its gated type in the piece field.
        let piece = match m.gate_piece().unwrap_or(m.piece) {
            NO_PIECE => NO_PIECE_CODE,
            p if u32::from(p) < NO_PIECE_CODE => u32::from(p),
            _ => return None,
        };
        let mut code = u32::from(m.from) | u32::from(m.to) << 8 | piece << PIECE_SHIFT;
        // A walled move keeps its wall there instead: the variants with walls have no
        // victims besides e.p. and no rook besides castling's, which the ends imply.
        if let Some(&e) = m
            .extra_indices()
            .first()
            .filter(|_| m.wall_coord().is_none())
        {
            code |= u32::from(e) << 16 | EXTRA_FLAG;
        }
        if m.wall_coord().is_some() {
            code |= u32::from(m.wall) << 16 | EXTRA_FLAG;
        }
        // Castling that gates on the king's square names that square instead of the rook's
        // (which the ends imply), apart from the same castling gating on the rook's square.
        if m.kind == MoveKind::Castle && m.gate_piece().is_some() && !m.gate_on_rook {
            code = code & !(0xFF << 16) | u32::from(m.from) << 16 | EXTRA_FLAG;
        }
        Some(CompactMove(code))
    }

    fn from(self) -> u8 {
        self.0 as u8
    }

    fn to(self) -> u8 {
        (self.0 >> 8) as u8
    }

    fn extra(self) -> Option<u8> {
        (self.0 & EXTRA_FLAG != 0).then_some((self.0 >> 16) as u8)
    }
}

impl Position {
    /// The legal move of this position that `code` names, or why there is none. Never
    /// panics, whatever the code: every square is checked against the board first.
    pub fn decode_move(&mut self, code: CompactMove) -> Result<Move, MoveError> {
        let ctx = self.legality().ok_or(MoveError::GameOver)?;
        if code.0 != PASS_CODE {
            for i in [Some(code.from()), Some(code.to()), code.extra()]
                .into_iter()
                .flatten()
            {
                if !self.on_board(i) {
                    return Err(MoveError::OffBoard(i));
                }
            }
            let from = Coord::from_index(code.from() as usize);
            let mine = self
                .man_at(self.lay.sq(from))
                .is_some_and(|m| m.colour == self.stm);
            if !mine && code.from() != code.to() {
                return Err(MoveError::NotYourMan(from));
            }
        }
        let mut pseudo = Vec::new();
        self.pseudo_moves(&mut pseudo);
        let mut found = pseudo
            .into_iter()
            .filter(|m| CompactMove::encode(m) == Some(code));
        let m = found.next().ok_or(MoveError::NotPseudoLegal)?;
        if found.next().is_some() {
            return Err(MoveError::Ambiguous);
        }
        let mut ops = Vec::new();
        if !self.is_legal_in(&m, &ctx, &mut ops) {
            return Err(MoveError::Illegal);
        }
        Ok(m)
    }

    /// True when a [`Coord::index`] names a playable square of this board.
    pub fn on_board(&self, index: u8) -> bool {
        let c = Coord::from_index(index as usize);
        c.file < self.lay.files
            && c.rank < self.lay.ranks
            && self.board[self.lay.sq(c) as usize] != crate::board::types::OFF
    }
}
