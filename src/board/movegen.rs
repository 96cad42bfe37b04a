//! Move generation straight from the attack map: captures staged by victim value (highest
//! first, least valuable attacker first within a victim), then non-captures read from the
//! cells standing on empty squares, then castling and drops; legality under the variant's
//! royal rules by make / test / unmake.

use variants::geometry::Coord;
use variants::rights;
use variants::rules::Royalty;
use variants::PieceId;

use crate::board::attack::NodeId;
use crate::board::layout::{Cell, NO_CELL};
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind, NO_PIECE};
use crate::board::position::{Man, Position};
use crate::board::types::{Colour, Slot, Sq, EMPTY};

/// What legality testing needs of one position (see [`Position::legality`]).
#[derive(Clone, Debug)]
pub struct Legality {
    /// The side to move is in check (or in bikjang).
    checked: bool,
    /// The side to move faces the enemy royal (bikjang).
    facing: bool,
    /// Royals of the side to move, `None` when there are too many to list.
    royals: Option<arrayvec::ArrayVec<Sq, 32>>,
}

impl Position {
    /// The cell behind a map id and its man.
    #[inline]
    pub(crate) fn cell_of(&self, id: NodeId) -> Option<(Slot, Man, &Cell)> {
        let (slot, c) = self.map.split(id);
        let man = self.men[slot as usize]?;
        let cell = &self.lay.kinds[man.kind as usize].cells[man.colour.index()].cells[c as usize];
        Some((slot, man, cell))
    }

    /// Every pseudo-legal move, captures first in MVV/LVA order.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.gen_captures(out);
        self.gen_non_captures(out);
        self.dedup_from(out, start);
    }

    /// Removes repeats of a move reached along two paths, keeping the first (staged) one.
    pub(crate) fn dedup_from(&self, out: &mut Vec<Move>, start: usize) {
        if !self.lay.multi_path {
            return;
        }
        let mut seen = std::collections::HashSet::new();
        let mut index = 0;
        out.retain(|m| {
            let keep = index < start || seen.insert(*m);
            index += 1;
            keep
        });
    }

    /// Everything but replacement captures: quiet moves, castling, drops and the pass.
    pub(crate) fn gen_non_captures(&self, out: &mut Vec<Move>) {
        self.gen_quiets(out);
        self.gen_castling(out);
        self.gen_drops(out);
        if self.lay.variant.pass_move {
            let mut m = Move::normal(Coord::new(0, 0), Coord::new(0, 0));
            m.kind = MoveKind::Pass;
            out.push(m);
        }
    }

    /// Replacement captures, victim by victim in value order.
    pub fn gen_captures(&self, out: &mut Vec<Move>) {
        let us = self.stm;
        let mut victims: arrayvec::ArrayVec<(i32, Sq), 256> = self
            .live()
            .filter(|(_, m)| m.colour != us)
            .map(|(_, m)| (self.lay.kinds[m.kind as usize].value, m.sq))
            .collect();
        victims.sort_unstable_by_key(|v| std::cmp::Reverse(v.0));
        for &(_, vsq) in &victims {
            let start = out.len();
            for id in self.map.cells_at(vsq, us) {
                if let Some((slot, man, cell)) = self.cell_of(id) {
                    if cell.rights & rights::CAPTURE != 0 && self.may_capture(&man, cell, vsq) {
                        self.push_move(slot, &man, cell, vsq, out);
                    }
                }
            }
            if out.len() - start > 1 {
                out[start..].sort_by_key(|m| self.attacker_value(m));
            }
        }
    }

    fn attacker_value(&self, m: &Move) -> i32 {
        self.man_at(self.lay.sq(m.from_coord()))
            .map(|a| self.lay.kinds[a.kind as usize].value)
            .unwrap_or(0)
    }

    pub(crate) fn may_capture(&self, attacker: &Man, cell: &Cell, vsq: Sq) -> bool {
        let Some(victim) = self.man_at(vsq) else {
            return false;
        };
        let vk = &self.lay.kinds[victim.kind as usize];
        if vk.royal && cell.rights & rights::TAME != 0 {
            return false;
        }
        let ap = self.lay.kinds[attacker.kind as usize].piece;
        !self.lay.no_capture[ap as usize][vk.piece as usize]
    }

    /// A self-capture of the friend on `sq`: the capture matrix must allow it, and it may
    /// not cost the side a royal its royalty cannot spare (any, or the last one).
    pub(crate) fn may_self_capture(&self, attacker: &Man, sq: Sq) -> bool {
        let Some(victim) = self.man_at(sq) else {
            return false;
        };
        let vk = &self.lay.kinds[victim.kind as usize];
        let ap = self.lay.kinds[attacker.kind as usize].piece;
        if self.lay.no_capture[ap as usize][vk.piece as usize] {
            return false;
        }
        !vk.royal
            || self.lay.variant.end.royalty == Royalty::Extinction
                && self.royals(attacker.colour).nth(1).is_some()
    }

    /// Non-captures (and self-captures, e.p., locust captures ending on empty squares).
    pub fn gen_quiets(&self, out: &mut Vec<Move>) {
        for (slot, man) in self.movers() {
            self.gen_man_quiets(slot, &man, out);
        }
    }

    /// The e.p. capture of `slot`'s man ending in `cell` on `sq`: the passed man first, then
    /// any locust victims on the way (as the reference lists them).
    pub(crate) fn push_ep(&self, slot: Slot, man: &Man, cell: &Cell, sq: Sq, out: &mut Vec<Move>) {
        let Some(ep) = &self.ep else { return };
        if !ep.targets.contains(&sq) {
            return;
        }
        let (Some(from), Some(to), Some(v)) = (
            self.lay.coord(man.sq),
            self.lay.coord(sq),
            self.lay.coord(ep.victim),
        ) else {
            return;
        };
        let ap = self.lay.kinds[man.kind as usize].piece as usize;
        let takable = self.man_at(ep.victim).is_some_and(|victim| {
            let vp = self.lay.kinds[victim.kind as usize].piece as usize;
            victim.colour != man.colour && !self.lay.no_capture[ap][vp]
        });
        if !takable {
            return;
        }
        let mut m = Move::normal(from, to);
        m.kind = MoveKind::EnPassant;
        m.push_extra(v);
        if cell.locust_back != NO_CELL {
            self.add_victims(slot, man, cell, &mut m);
        }
        self.push_promotions(man, m, out);
    }

    /// Builds the move of `slot`'s man that ends in `cell` on `to`, with its locust victims.
    pub(crate) fn push_move(
        &self,
        slot: Slot,
        man: &Man,
        cell: &Cell,
        to: Sq,
        out: &mut Vec<Move>,
    ) {
        let (Some(from), Some(toc)) = (self.lay.coord(man.sq), self.lay.coord(to)) else {
            return;
        };
        let mut m = Move::normal(from, toc);
        m.sets_ep = cell.rights & rights::SETS_EP != 0;
        let kind = &self.lay.kinds[man.kind as usize];
        if kind.plain && cell.locust_back == NO_CELL {
            out.push(m); // no victims on the way, no promotion: the common case
            return;
        }
        if cell.locust_back != NO_CELL {
            self.add_victims(slot, man, cell, &mut m);
        }
        self.push_promotions(man, m, out);
    }

    /// Adds the locust victims on the way to `cell` to `m`, from the end of the path back.
    #[inline(never)]
    fn add_victims(&self, slot: Slot, man: &Man, cell: &Cell, m: &mut Move) {
        let table = &self.lay.kinds[man.kind as usize].cells[man.colour.index()];
        let mut back = cell.locust_back;
        while back != NO_CELL {
            let bcell = &table.cells[back as usize];
            if let Some(vsq) = self.map.square_of(self.map.id(slot, back)) {
                if self.locust_victim(man, bcell, vsq) {
                    if let Some(vc) = self.lay.coord(vsq) {
                        m.push_extra(vc);
                    }
                }
            }
            back = bcell.locust_back;
        }
    }

    fn locust_victim(&self, man: &Man, cell: &Cell, sq: Sq) -> bool {
        match self.man_at(sq) {
            Some(v) if v.colour != man.colour => cell.rights & rights::LOCUST_FOE != 0,
            Some(_) => cell.rights & rights::LOCUST_FRIEND != 0,
            None => false,
        }
    }

    /// Pushes a move with every promotion choice it allows (or just the move).
    fn push_promotions(&self, man: &Man, m: Move, out: &mut Vec<Move>) {
        let kind = &self.lay.kinds[man.kind as usize];
        let (from, to) = (m.from_coord(), m.to_coord());
        let dead = kind.dead[man.colour.index()][self.lay.sq(to) as usize];
        if kind.never_promotes {
            if !dead {
                out.push(m);
            }
            return;
        }
        let v = &self.lay.variant;
        let piece = &v.pieces[kind.piece as usize];
        let zone = if man.colour == Colour::White {
            &v.promotion.zone_white
        } else {
            &v.promotion.zone_black
        };
        if !piece.promotions.is_empty() && zone.contains(to) {
            for &p in &piece.promotions {
                if self.may_promote_to(man.colour, p) {
                    let mut pm = m;
                    pm.kind = if m.kind == MoveKind::EnPassant {
                        m.kind
                    } else {
                        MoveKind::Promotion
                    };
                    pm.piece = p;
                    out.push(pm);
                }
            }
            if !piece.mandatory_promotion && !dead {
                out.push(m);
            }
            return;
        }
        if let Some(p) = piece.promoted {
            if zone.contains(to) || zone.contains(from) {
                let mut pm = m;
                pm.kind = MoveKind::Promotion;
                pm.piece = p;
                out.push(pm);
                if piece.mandatory_promotion || dead {
                    return;
                }
            }
        }
        if !dead {
            out.push(m);
        }
    }

    /// Promotion limits: a side may not exceed `promotionLimit` men of a type, and where
    /// promotion is limited to captured pieces (Grand chess) it may only become a type it
    /// has fewer of than at the start.
    fn may_promote_to(&self, colour: Colour, p: PieceId) -> bool {
        let promo = &self.lay.variant.promotion;
        let limit = promo
            .limits
            .iter()
            .find(|(t, _)| *t == p)
            .map(|&(_, n)| n as usize);
        if limit.is_none() && !promo.limited_to_captured {
            return true;
        }
        let have = self
            .live()
            .filter(|(_, m)| m.colour == colour && self.piece_of(m) == p)
            .count();
        let start = self.lay.start_squares[colour.index()][p as usize]
            .iter()
            .count();
        limit.is_none_or(|n| have < n) && (!promo.limited_to_captured || have < start)
    }

    /// Castling with every virgin rook of the side on the royal's rank.
    pub fn gen_castling(&self, out: &mut Vec<Move>) {
        let Some(c) = &self.lay.variant.castling else {
            return;
        };
        let us = self.stm;
        let Some((_, king)) = self
            .live()
            .find(|(_, m)| m.colour == us && self.lay.kinds[m.kind as usize].castles)
        else {
            return;
        };
        if self.map.attacked(us.flip(), king.sq) {
            return;
        }
        let Some(kc) = self.lay.coord(king.sq) else {
            return;
        };
        for (_, rook) in self.live() {
            let kind = &self.lay.kinds[rook.kind as usize];
            if rook.colour != us || !kind.virgin || !c.rook_types.contains(&kind.piece) {
                continue;
            }
            let Some(rc) = self.lay.coord(rook.sq) else {
                continue;
            };
            if rc.rank != kc.rank {
                continue;
            }
            let (kf, rf) = if rc.file > kc.file {
                (c.king_side_file, c.king_side_file - 1)
            } else {
                (c.queen_side_file, c.queen_side_file + 1)
            };
            if self.castling_path_clear(king, rook, kc, rc, kf, rf) {
                let mut m = Move::normal(kc, Coord::new(kf, kc.rank));
                m.kind = MoveKind::Castle;
                m.push_extra(rc);
                out.push(m);
            }
        }
    }

    fn castling_path_clear(
        &self,
        king: &Man,
        rook: &Man,
        kc: Coord,
        rc: Coord,
        kf: u8,
        rf: u8,
    ) -> bool {
        let lo = kc.file.min(rc.file).min(kf).min(rf);
        let hi = kc.file.max(rc.file).max(kf).max(rf);
        for f in lo..=hi {
            let sq = self.lay.sq(Coord::new(f, kc.rank));
            if sq != king.sq && sq != rook.sq && self.board[sq as usize] != EMPTY {
                return false;
            }
        }
        let (a, b) = (kc.file.min(kf), kc.file.max(kf));
        (a..=b).all(|f| {
            !self
                .map
                .attacked(king.colour.flip(), self.lay.sq(Coord::new(f, kc.rank)))
        })
    }

    /// Drops from the hand of the side to move.
    pub fn gen_drops(&self, out: &mut Vec<Move>) {
        let v = &self.lay.variant;
        if !v.drops.enabled {
            return;
        }
        let us = self.stm;
        for (p, &n) in self.hand[us.index()].iter().enumerate() {
            if n == 0 {
                continue;
            }
            let p = p as PieceId;
            for sq in self.lay.squares() {
                if self.board[sq as usize] == EMPTY && self.may_drop(p, us, sq) {
                    let Some(c) = self.lay.coord(sq) else {
                        continue;
                    };
                    let mut m = Move::normal(c, c);
                    m.kind = MoveKind::Drop;
                    m.piece = p;
                    out.push(m);
                }
            }
        }
    }

    fn may_drop(&self, p: PieceId, us: Colour, sq: Sq) -> bool {
        let v = &self.lay.variant;
        let Some(c) = self.lay.coord(sq) else {
            return false;
        };
        let rel = if us == Colour::White {
            c
        } else {
            c.flip_rank(self.lay.ranks)
        };
        if v.pieces[p as usize].dead_squares.contains(rel) {
            return false;
        }
        if v.drops.pawn_types.contains(&p) && v.drops.pawn_drop_forbidden.contains(rel) {
            return false;
        }
        if v.drops.no_doubled.contains(&p) {
            let doubled = self.live().any(|(_, m)| {
                m.colour == us
                    && self.piece_of(m) == p
                    && self.lay.coord(m.sq).is_some_and(|mc| mc.file == c.file)
            });
            if doubled {
                return false;
            }
        }
        true
    }

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

impl Position {
    /// Every pseudo-legal move found man by man from the man's own cells, without the
    /// victim staging: the twin [`Position::pseudo_moves`] is tested against.
    pub fn pseudo_moves_by_man(&self, out: &mut Vec<Move>) {
        let us = self.stm;
        for (slot, man) in self.live().filter(|(_, m)| m.colour == us) {
            let table = &self.lay.kinds[man.kind as usize].cells[us.index()];
            for (c, cell) in table.cells.iter().enumerate() {
                let id = self.map.id(slot, c as u16);
                let Some(sq) = self.map.square_of(id) else {
                    continue;
                };
                let foe = self.man_at(sq).is_some_and(|m| m.colour != us);
                if foe && cell.rights & rights::CAPTURE != 0 && self.may_capture(man, cell, sq) {
                    self.push_move(slot, man, cell, sq, out);
                }
            }
        }
        self.gen_non_captures(out);
        self.dedup_from(out, 0);
    }
}
