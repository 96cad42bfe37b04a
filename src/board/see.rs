//! Static exchange evaluation: what a capture wins once both sides have recaptured on its
//! square as long as it pays, least valuable capturer first. The capturers are read from the
//! attack map and each capture is really made, so x-rays, a cannon's new screen or a lion's
//! path that opens come from the map's own re-walk of the paths the capture changed.

use variants::rights;

use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

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

    /// The capture paths of `colour` onto `sq` as the board stands, read from the attack
    /// map's list of the square, leaving out the man on `skip` (a mover that leaves it):
    /// how many there are and the SEE value of the cheapest man among them. No make: x-rays
    /// and the screens a move would change are not seen, so this only pre-judges cases
    /// that [`Position::see`] decides exactly.
    pub fn capturers_onto(&self, colour: Colour, sq: Sq, skip: Option<Sq>) -> (u32, Option<i32>) {
        let (mut count, mut cheapest) = (0, None::<i32>);
        for id in self.map.cells_at(sq, colour) {
            let (slot, c) = self.map.split(id);
            let Some(man) = self.men[slot as usize].filter(|m| Some(m.sq) != skip) else {
                continue;
            };
            let cell = &self.lay.kinds[man.kind as usize].cells[colour.index()].cells[c as usize];
            if cell.rights & rights::CAPTURE != 0 {
                count += 1;
                let v = self.see_value(man.kind);
                cheapest = Some(cheapest.map_or(v, |c| c.min(v)));
            }
        }
        (count, cheapest)
    }

    /// The SEE value of the man a move puts on its end square (the dropped piece for a drop,
    /// the promoted kind for a promotion), 0 for a pass.
    pub fn moving_value(&self, m: &Move) -> i32 {
        match m.kind {
            MoveKind::Pass => 0,
            MoveKind::Drop | MoveKind::Promotion => {
                self.see_value(self.lay.kind_of(m.piece, false))
            }
            _ => self
                .man_at(self.lay.sq(m.from_coord()))
                .map_or(0, |a| self.see_value(a.kind)),
        }
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
