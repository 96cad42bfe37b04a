//! Petrification's one trace in move generation (`petrifyOnCaptureTypes`): a pseudo-royal
//! type that petrifies has no captures (the loader took them away, as Fairy-Stockfish
//! forbids them and never counts them as attacks on a royal), but FSF's castling test still
//! counts its former one-step captures on the squares the castling king starts from and
//! crosses. The petrifying capture itself is in `make.rs`.

use variants::geometry::Coord;

use crate::board::position::Position;
use crate::board::types::Colour;

impl Position {
    /// True when a man of `by` of a petrifying pseudo-royal type stands one of its former
    /// capture steps away from `target`.
    pub(crate) fn petrified_guard(&self, by: Colour, target: Coord) -> bool {
        let v = &self.lay.variant;
        v.petrify_guards.iter().any(|g| {
            g.steps.iter().any(|&(df, dr)| {
                let (df, dr) = match by {
                    Colour::White => (df, dr),
                    Colour::Black if v.black_rotated => (-df, -dr),
                    Colour::Black => (df, -dr),
                };
                let (f, r) = (
                    target.file as i32 - df as i32,
                    target.rank as i32 - dr as i32,
                );
                if f < 0 || r < 0 || f >= self.lay.files as i32 || r >= self.lay.ranks as i32 {
                    return false;
                }
                let from = self.lay.sq(Coord::new(f as u8, r as u8));
                self.man_at(from)
                    .is_some_and(|m| m.colour == by && self.piece_of(m) == g.piece)
            })
        })
    }
}
