//! The royal rules and the legal-move filter built on them: when the side that moved has
//! left its royals safe (absolute or extinction royalty, explosions, the flying general and
//! bikjang), lost or bared royals that end the game, the shogi drop-mate rule, and legality
//! of pseudo-legal moves with the shortcut of `legality.rs` first.

use variants::rules::Royalty;

use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind, NO_PIECE};
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

/// What legality testing needs of one position (see [`Position::legality`]).
#[derive(Clone, Debug)]
pub struct Legality {
    /// The side to move is in check (or in bikjang).
    checked: bool,
    /// The side to move faces the enemy royal (bikjang).
    facing: bool,
    /// Royals of the side to move, `None` when there are too many to list.
    royals: Option<arrayvec::ArrayVec<Sq, 32>>,
    /// The variant has Lion-trading rules (read once per node, not per move).
    lion_rules: bool,
}

impl Position {
    /// True when the side that just moved (`mover`) has not left its royals capturable, nor
    /// facing the enemy royal where the rules forbid it (`was_facing`: the mover was in
    /// bikjang before a move that was not a pass).
    pub fn royals_safe(&self, mover: Colour, was_facing: bool) -> bool {
        let them = mover.flip();
        let end = &self.lay.variant.end;
        let mut total = 0;
        let mut attacked = 0;
        if self.lay.variant.blast.is_some() {
            // Explosions: losing the own royal is never allowed, blowing up the enemy's wins.
            let (ours, theirs) = (self.royals(mover).count(), self.royals(them).count());
            if ours == 0 && self.lay.start_royals[mover.index()] > 0 {
                return false;
            }
            if theirs == 0 && self.lay.start_royals[them.index()] > 0 {
                return true;
            }
        }
        for sq in self.royals(mover) {
            total += 1;
            if self.royal_attacked(mover, sq) {
                attacked += 1;
            }
            if (end.flying_general || was_facing) && self.map.faced(them, sq) {
                return false;
            }
        }
        match end.royalty {
            Royalty::Absolute => attacked == 0,
            Royalty::Extinction => total == 0 || attacked < total,
            Royalty::Last => total != 1 || attacked == 0,
        }
    }

    /// True when `colour` started with royals and has none left (an atomic king blown up):
    /// the game is over.
    pub fn royals_lost(&self, colour: Colour) -> bool {
        self.lay.start_royals[colour.index()] > 0 && self.royals(colour).next().is_none()
    }

    /// Bare-king rule: `colour` (the side that just moved) has nothing but royals left, so
    /// the game is over (lost, or drawn if it bared the other side in return).
    pub fn bared(&self, colour: Colour) -> bool {
        self.lay.variant.end.bare_king_loses
            && self
                .live()
                .filter(|(_, m)| m.colour == colour)
                .all(|(_, m)| self.lay.kinds[m.kind as usize].royal)
    }

    /// True when a royal of `colour` faces an enemy royal on an open file.
    pub fn facing(&self, colour: Colour) -> bool {
        self.royals(colour)
            .any(|sq| self.map.faced(colour.flip(), sq))
    }

    /// Every legal move. None once both sides have passed in a row: the game is over (janggi).
    pub fn legal_moves(&mut self, out: &mut Vec<Move>, ops: &mut Vec<Op>) {
        let Some(ctx) = self.legality() else {
            return;
        };
        // Pseudo-legal moves go straight into `out` and are filtered in place: no allocation.
        let start = out.len();
        self.pseudo_moves(out);
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            if self.is_legal_in(&m, &ctx, ops) {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    /// Legality of one pseudo-legal move generated in this position. False once the game is
    /// over, as `legal_moves` then has none. Testing many moves of one position is cheaper
    /// with [`Position::legality`] and [`Position::is_legal_in`].
    pub fn is_legal(&mut self, m: &Move, ops: &mut Vec<Op>) -> bool {
        match self.legality() {
            Some(ctx) => self.is_legal_in(m, &ctx, ops),
            None => false,
        }
    }

    /// What legality testing needs of the position, computed once per position; `None`
    /// when the game is over whatever is on the board (no move is legal then).
    pub fn legality(&self) -> Option<Legality> {
        if self.game_ended() {
            return None;
        }
        let us = self.stm;
        let facing = self.lay.variant.end.bikjang && self.facing(us);
        let checked = facing || self.in_check(us);
        let mut royals: arrayvec::ArrayVec<Sq, 32> = arrayvec::ArrayVec::new();
        let all_listed = self.royals(us).all(|r| royals.try_push(r).is_ok());
        Some(Legality {
            checked,
            facing,
            royals: all_listed.then_some(royals),
            lion_rules: self.lay.variant.capture_matrix.lion.is_some(),
        })
    }

    /// The game is over whatever is on the board: two passes, a royal lost, a bare king.
    fn game_ended(&self) -> bool {
        self.passes >= 2
            || self.royals_lost(Colour::White)
            || self.royals_lost(Colour::Black)
            || self.bared(self.stm.flip())
    }

    /// Legality of one pseudo-legal move of this position, given its [`Legality`].
    pub fn is_legal_in(&mut self, m: &Move, ctx: &Legality, ops: &mut Vec<Op>) -> bool {
        if ctx.lion_rules && !self.lion_trade_ok(m, ops) {
            return false;
        }
        self.is_legal_pseudo(m, ctx.checked, ctx.facing, ctx.royals.as_deref(), ops)
    }

    /// Legality of one pseudo-legal move: the shortcut when it can tell, else make / test /
    /// unmake.
    fn is_legal_pseudo(
        &mut self,
        m: &Move,
        checked: bool,
        facing: bool,
        royals: Option<&[Sq]>,
        ops: &mut Vec<Op>,
    ) -> bool {
        let us = self.stm;
        let quiet_pass = m.kind == MoveKind::Pass && !checked;
        if quiet_pass || !checked && self.surely_legal(m, royals) {
            return true;
        }
        if facing && m.kind == MoveKind::Pass {
            return true; // passing out of bikjang ends the game, even under check
        }
        let saved = self.make(m, ops);
        let ok = self.royals_safe(us, facing) && self.drop_mate_ok(m, ops);
        self.unmake(saved, ops);
        ok
    }

    /// Shogi: a pawn drop may not give mate (called with the drop made).
    fn drop_mate_ok(&mut self, m: &Move, ops: &mut Vec<Op>) -> bool {
        if m.kind != MoveKind::Drop || m.piece == NO_PIECE {
            return true;
        }
        if !self.lay.variant.drops.no_drop_mate.contains(&m.piece) || !self.in_check(self.stm) {
            return true;
        }
        let mut replies = Vec::new();
        self.legal_moves(&mut replies, ops);
        !replies.is_empty()
    }
}
