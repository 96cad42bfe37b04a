//! Static exchange evaluation: what a capture wins once both sides have recaptured on its
//! square as long as it pays, least valuable capturer first. The capturers are read from the
//! attack map and each capture is really made, so x-rays, a cannon's new screen or a lion's
//! path that opens come from the map's own re-walk of the paths the capture changed.

use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::Sq;

/// The exchange value of a royal: more than everything else together, so that a royal only
/// captures when nothing can take it back.
pub const ROYAL_SEE_VALUE: i32 = 100_000;

/// Captures deeper than this end the exchange (a bound on the recursion; real exchanges on
/// one square are far shorter).
const MAX_EXCHANGE: usize = 64;

impl Position {
    /// The material the side to move gains by playing `m` and then exchanging on its end
    /// square (0 for a move that removes nothing and loses nothing). Explosions are not
    /// modelled: search does not use this in atomic games.
    pub fn see(&mut self, m: &Move, ops: &mut Vec<Op>) -> i32 {
        let gain = self.removed_value(m);
        let to = self.lay.sq(m.to_coord());
        let saved = self.make(m, ops);
        let reply = self.exchange(to, ops, 1);
        self.unmake(saved, ops);
        gain - reply
    }

    /// The exchange value of a man for SEE.
    pub fn see_value(&self, kind: u8) -> i32 {
        let k = &self.lay.kinds[kind as usize];
        if k.royal {
            ROYAL_SEE_VALUE
        } else {
            k.value
        }
    }

    /// Value of the enemy men a move removes, plus what a promotion adds.
    fn removed_value(&self, m: &Move) -> i32 {
        if matches!(m.kind, MoveKind::Drop | MoveKind::Castle | MoveKind::Pass) {
            return 0;
        }
        let Some(mover) = self.man_at(self.lay.sq(m.from_coord())).copied() else {
            return 0;
        };
        let taken: i32 = self.enemy_victims(m).map(|v| self.see_value(v.kind)).sum();
        taken + self.promotion_gain(m, mover.kind)
    }

    fn promotion_gain(&self, m: &Move, kind: u8) -> i32 {
        if m.kind != MoveKind::Promotion {
            return 0;
        }
        let new = self.lay.kind_of(m.piece, false);
        self.see_value(new) - self.see_value(kind)
    }

    /// The best the side to move can gain by starting (or declining) captures on `sq`.
    fn exchange(&mut self, sq: Sq, ops: &mut Vec<Op>, depth: usize) -> i32 {
        if depth >= MAX_EXCHANGE {
            return 0;
        }
        let Some(m) = self.least_valuable_capture(sq) else {
            return 0;
        };
        let gain = self.removed_value(&m);
        let saved = self.make(&m, ops);
        let reply = self.exchange(sq, ops, depth + 1);
        self.unmake(saved, ops);
        (gain - reply).max(0)
    }

    /// The plain replacement capture onto `sq` by the side to move's least valuable man
    /// (lowest square index among equals), promoting to the most valuable choice.
    pub fn least_valuable_capture(&self, sq: Sq) -> Option<Move> {
        let mut moves = Vec::new();
        self.captures_onto(sq, &mut moves);
        moves.into_iter().min_by_key(|m| {
            let mover = self
                .man_at(self.lay.sq(m.from_coord()))
                .map_or(0, |a| self.see_value(a.kind));
            let promoted = if m.kind == MoveKind::Promotion {
                self.see_value(self.lay.kind_of(m.piece, false))
            } else {
                0
            };
            (mover, m.from, std::cmp::Reverse(promoted))
        })
    }

    /// The side to move's replacement captures onto `sq` that remove nothing else.
    fn captures_onto(&self, sq: Sq, out: &mut Vec<Move>) {
        let us = self.stm;
        if self.man_at(sq).is_none_or(|v| v.colour == us) {
            return;
        }
        self.push_captures_on(sq, out);
        out.retain(|m| m.n_extras() == 0);
    }
}
