//! Passed pawns beyond their square table: in the endgame the royals' distances to the square
//! in front of the pawn (the enemy's far, its own near), and in both phases a free square in
//! front that the enemy does not attack.

use super::params::*;
use super::EvalTables;
use crate::board::layout::Layout;
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

/// Royal squares of one side the passed-pawn term looks at.
pub(super) type Royals = arrayvec::ArrayVec<Sq, MAX_ROYALS>;

/// The square in front of each square for `colour` (0 off the board, or at the last rank).
pub(super) fn ahead_table(lay: &Layout, colour: Colour) -> Vec<Sq> {
    let step: i32 = if colour == Colour::White { 1 } else { -1 };
    (0..lay.size)
        .map(|sq| {
            let Some(c) = lay.coord(sq as Sq) else {
                return 0;
            };
            let r = c.rank as i32 + step;
            if r < 0 || r >= lay.ranks as i32 {
                return 0;
            }
            lay.sq(variants::geometry::Coord::new(c.file, r as u8))
        })
        .collect()
}

impl EvalTables {
    /// (middle game, endgame) extra bonus of the passed pawn of colour index `c` on `sq`;
    /// `royals` are both sides' royal squares by colour index.
    pub(super) fn passer_extra(
        &self,
        pos: &Position,
        c: usize,
        sq: Sq,
        royals: &[Royals; 2],
    ) -> (i32, i32) {
        let ranks = self.ranks as i32;
        let rank = super::relative_rank(self.coords[sq as usize].1 as u8, ranks, colour(c));
        // The pawn's rank on a chess scale (0..=7), whatever the board's depth.
        let r = rank * 7 / (ranks - 1).max(1);
        let w = self.w.passer_rank_slope * r - self.w.passer_rank_offset;
        let block = self.ahead[c][sq as usize];
        if w <= 0 || block == 0 {
            return (0, 0);
        }
        let near = |side: usize| self.royal_distance(block, &royals[side]);
        let kings = near(1 - c) * self.w.passer_enemy_king - near(c) * self.w.passer_own_king;
        let mut free = 0;
        if pos.man_at(block).is_none() {
            if pos.attack_count(colour(1 - c), block) == 0 {
                free += self.w.passer_free;
            }
            if pos.attack_count(colour(c), block) != 0 {
                free += self.w.passer_defended;
            }
        }
        (
            free * w / PASSER_DIVISOR,
            (kings + free) * w / PASSER_DIVISOR,
        )
    }

    /// King steps from `sq` to the nearest of `royals`, at most [`PASSER_KING_REACH`].
    fn royal_distance(&self, sq: Sq, royals: &Royals) -> i32 {
        let (f, r) = self.coords[sq as usize];
        royals
            .iter()
            .map(|&k| {
                let (kf, kr) = self.coords[k as usize];
                ((kf - f).abs().max((kr - r).abs())) as i32
            })
            .min()
            .unwrap_or(PASSER_KING_REACH)
            .min(PASSER_KING_REACH)
    }
}

fn colour(c: usize) -> Colour {
    if c == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}
