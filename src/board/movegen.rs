//! Move generation straight from the attack map: captures ordered by victim value (highest
//! first, least valuable attacker first within a victim), then non-captures read from the
//! cells standing on empty squares, then castling and drops. Which of them are legal is
//! `royalty.rs`'s concern; the staged generation search asks for (the staged captures, then
//! promotions, then quiet moves) is `stages.rs`'s.

use variants::geometry::Coord;
use variants::rights;
use variants::rules::Royalty;
use variants::PieceId;

use crate::board::attack::NodeId;
use crate::board::layout::{Cell, CellTable, NO_CELL};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{Man, Position};
use crate::board::types::{Colour, Slot, Sq, EMPTY};

impl Position {
    /// The cell behind a map id and its man.
    #[inline]
    pub(crate) fn cell_of(&self, id: NodeId) -> Option<(Slot, Man, &Cell)> {
        let (slot, c) = self.map.split(id);
        let man = self.men[slot as usize]?;
        let cell = &self.lay.kinds[man.kind as usize].cells[man.colour.index()].cells[c as usize];
        Some((slot, man, cell))
    }

    /// True when the associated cell `c` of the man in `slot` was reached over a man: some
    /// cell above it stands on an occupied square (the man's own square counts as empty). A
    /// range jumper may only capture there.
    pub(crate) fn jumped(&self, slot: Slot, t: &CellTable, c: u16) -> bool {
        let mut a = t.cells[c as usize].parent;
        while a != NO_CELL {
            let Some(sq) = self.map.square_of(self.map.id(slot, a)) else {
                return false;
            };
            let s = self.board[sq as usize];
            if s != EMPTY && s != slot {
                return true;
            }
            a = t.cells[a as usize].parent;
        }
        false
    }

    /// Every pseudo-legal move, captures first in MVV/LVA order.
    pub fn pseudo_moves(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.gen_captures(out);
        self.gen_non_captures(out);
        self.dedup_from(out, start);
        self.expand_walls(out, start);
        self.expand_gates(out, start);
    }

    /// Removes repeats of a move reached along two paths, keeping the first (staged) one.
    /// Only men of kinds with twin paths (the lions) can repeat a move, so only their moves
    /// are compared, with each other: a few dozen, cheaper to scan than to hash.
    pub(crate) fn dedup_from(&self, out: &mut Vec<Move>, start: usize) {
        if !self.lay.multi_path {
            return;
        }
        let mut seen: Vec<Move> = Vec::new();
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            if self.twin_mover(&m) {
                if seen.contains(&m) {
                    continue;
                }
                seen.push(m);
            }
            out[kept] = m;
            kept += 1;
        }
        out.truncate(kept);
    }

    /// True when the move is made by a man whose kind reaches some square by two paths.
    fn twin_mover(&self, m: &Move) -> bool {
        if matches!(m.kind, MoveKind::Drop | MoveKind::Castle | MoveKind::Pass) {
            return false;
        }
        self.man_at(self.lay.sq(m.from_coord()))
            .is_some_and(|x| self.lay.kinds[x.kind as usize].twin_paths)
    }

    /// Everything but replacement captures: quiet moves, castling, drops and the pass.
    pub(crate) fn gen_non_captures(&self, out: &mut Vec<Move>) {
        self.gen_quiets(out);
        self.gen_castling(out);
        self.gen_cambodian_moves(out);
        self.gen_drops(out);
        self.gen_sittuyin_promotions(out);
        if self.lay.variant.pass_move || self.may_pass_when_stuck() {
            let mut m = Move::normal(Coord::new(0, 0), Coord::new(0, 0));
            m.kind = MoveKind::Pass;
            out.push(m);
        }
        self.push_wall_passes(out);
    }

    /// Replacement captures, victim by victim in value order.
    pub fn gen_captures(&self, out: &mut Vec<Move>) {
        let us = self.stm;
        // Only men that some cell of ours reaches can be taken; most men are not, and
        // sorting the few that are costs less than sorting the army.
        // Extended in place (`collect` would build the array elsewhere and copy it whole).
        let mut victims = arrayvec::ArrayVec::<(i32, Sq), 256>::new();
        victims.extend(
            self.live()
                .filter(|(_, m)| m.colour != us && self.map.cells_at(m.sq, us).next().is_some())
                .map(|(_, m)| (self.lay.kinds[m.kind as usize].value, m.sq)),
        );
        victims.sort_by_key(|v| std::cmp::Reverse(v.0));
        for &(_, vsq) in &victims {
            let start = out.len();
            self.push_captures_on(vsq, out);
            if out.len() - start > 1 {
                out[start..].sort_by_key(|m| self.mover_value(m));
            }
        }
    }

    /// The side to move's captures of the man on `vsq`, read from the map's list there.
    pub(crate) fn push_captures_on(&self, vsq: Sq, out: &mut Vec<Move>) {
        for id in self.map.cells_at(vsq, self.stm) {
            if let Some((slot, man, cell)) = self.cell_of(id) {
                if cell.rights & rights::CAPTURE != 0 && self.may_capture(&man, cell, vsq) {
                    self.push_move(slot, &man, cell, vsq, out);
                }
            }
        }
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
            || self.lay.variant.end.royalty != Royalty::Absolute
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
        let c = man.colour.index();
        if cell.locust_back == NO_CELL
            && kind.plain_to[c][to as usize]
            && kind.plain_from[c][man.sq as usize]
        {
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
        let to = m.to_coord();
        if kind.infectable {
            if let Some(p) = self.turned_by(man, to) {
                // Taking a werewolf makes the taker one: the only choice, promotion or not.
                let mut pm = m;
                pm.kind = MoveKind::Promotion;
                pm.piece = p;
                out.push(pm);
                return;
            }
        }
        let dead = kind.dead[man.colour.index()][self.lay.sq(to) as usize];
        // FSF never promotes on an en passant capture, even one landing in the zone.
        if kind.never_promotes || m.kind == MoveKind::EnPassant {
            if !dead {
                out.push(m);
            }
            return;
        }
        let v = &self.lay.variant;
        let piece = &v.pieces[kind.piece as usize];
        let zone = self.promotion_zone(man.colour);
        if !piece.promotions.is_empty() && zone.contains(to) {
            for &p in &piece.promotions {
                if self.may_promote_to(man.colour, p) {
                    let mut pm = m;
                    pm.kind = MoveKind::Promotion;
                    pm.piece = p;
                    out.push(pm);
                }
            }
            // A man with both kinds of promotion (wolf's pawn) may also turn over (FSF),
            // under `piecePromotionOnCapture` only when it takes.
            let turns = !v.promotion.on_capture || self.takes(man, &m);
            if let Some(p) = v.flips_to(kind.piece).filter(|_| turns) {
                if v.promotion.limits.is_empty() || self.under_limit(man.colour, p) {
                    let mut pm = m;
                    pm.kind = MoveKind::Promotion;
                    pm.piece = p;
                    out.push(pm);
                }
            }
            if !piece.mandatory_promotion && !dead {
                out.push(m);
            }
            return;
        }
        if let Some(p) = v.flips_to(kind.piece) {
            let captures = self.takes(man, &m);
            let limited = !v.promotion.limits.is_empty() && !self.under_limit(man.colour, p);
            if !limited && self.may_promote_shogi(man, (m.from_coord(), to), captures) {
                let mut pm = m;
                pm.kind = MoveKind::Promotion;
                pm.piece = p;
                out.push(pm);
                if piece.mandatory_promotion
                    || dead
                    || self.stuck_forced(man, to)
                    || captures && self.capture_forces(man, &m)
                {
                    return;
                }
            }
        }
        if !dead {
            out.push(m);
        }
    }

    /// True when `man`'s move `m` takes a man: on its target square or on the way.
    fn takes(&self, man: &Man, m: &Move) -> bool {
        m.n_extra > 0
            || self
                .man_at(self.lay.sq(m.to_coord()))
                .is_some_and(|o| o.colour != man.colour)
    }

    /// The type `man` becomes by taking the enemy man on `to` (`contagion`), if any.
    fn turned_by(&self, man: &Man, to: Coord) -> Option<PieceId> {
        let victim = self.man_at(self.lay.sq(to))?;
        if victim.colour == man.colour {
            return None;
        }
        let (mover, taken) = (
            self.lay.kinds[man.kind as usize].piece,
            self.lay.kinds[victim.kind as usize].piece,
        );
        self.lay.variant.turned(mover, taken)
    }

    /// Whether `man`'s capture `m` must promote where it may
    /// ([`variants::Variant::capture_forces_promotion`]): the types of the enemy men it takes,
    /// on its destination first.
    fn capture_forces(&self, man: &Man, m: &Move) -> bool {
        let v = &self.lay.variant;
        if !v.promotion.forced_by_promoted_victim && !v.capture_matrix.contagion_promotes {
            return false;
        }
        let enemy = |c: Coord| {
            let o = self.man_at(self.lay.sq(c))?;
            (o.colour != man.colour).then(|| self.lay.kinds[o.kind as usize].piece)
        };
        let on_the_way: Vec<PieceId> = m.extras().filter_map(enemy).collect();
        let mover = self.lay.kinds[man.kind as usize].piece;
        v.capture_forces_promotion(mover, enemy(m.to_coord()), &on_the_way)
    }

    /// Shogi-style promotion of `man` on a move `(from, to)` that takes a man or not
    /// (`captures`): on any move that touches the zone, or with `on_entry` (Chu) on entering
    /// it, on a capture that touches it, or onto a square the man could never leave. The
    /// generator and the promotion-burn threat (`burn.rs`) both ask this.
    #[inline]
    pub(crate) fn may_promote_shogi(
        &self,
        man: &Man,
        (from, to): (Coord, Coord),
        captures: bool,
    ) -> bool {
        let v = &self.lay.variant;
        // `piecePromotionOnCapture`: only a move that lands on a man turns it over.
        if v.promotion.on_capture && !captures {
            return false;
        }
        let zone = self.promotion_zone(man.colour);
        if !v.promotion.on_entry {
            return zone.contains(to) || zone.contains(from);
        }
        let (was_in, is_in) = (zone.contains(from), zone.contains(to));
        // Entering; or a capture touching the zone (one that enters is entering already).
        !was_in && is_in
            || was_in && captures
            || !v.promotion.stuck_forced && self.stuck_at(man, to)
    }

    /// Whether `man` could never move again from `to` (its `stuck_squares`).
    fn stuck_at(&self, man: &Man, to: Coord) -> bool {
        let v = &self.lay.variant;
        let piece = &v.pieces[self.lay.kinds[man.kind as usize].piece as usize];
        let rel = if man.colour == Colour::White {
            to
        } else {
            to.flip_rank(v.ranks)
        };
        piece.stuck_squares.contains(rel)
    }

    /// HaChu's promotion (`stuck_forced`): a man that may promote on a move to a square it
    /// could never leave must.
    fn stuck_forced(&self, man: &Man, to: Coord) -> bool {
        self.lay.variant.promotion.stuck_forced && self.stuck_at(man, to)
    }

    /// The promotion zone of `colour` (given in board coordinates for each side).
    pub(crate) fn promotion_zone(&self, colour: Colour) -> &variants::geometry::SquareSet {
        let promo = &self.lay.variant.promotion;
        match colour {
            Colour::White => &promo.zone_white,
            Colour::Black => &promo.zone_black,
        }
    }

    /// Promotion limits: a side may not exceed `promotionLimit` men of a type, and where
    /// promotion is limited to captured pieces (Grand chess) it may only become a type it
    /// has fewer of than at the start.
    pub(crate) fn may_promote_to(&self, colour: Colour, p: PieceId) -> bool {
        let promo = &self.lay.variant.promotion;
        if !self.under_limit(colour, p) {
            return false;
        }
        if !promo.limited_to_captured {
            return true;
        }
        let have = self
            .live()
            .filter(|(_, m)| m.colour == colour && self.piece_of(m) == p)
            .count();
        let start = self.lay.start_squares[colour.index()][p as usize]
            .iter()
            .count();
        have < start
    }

    /// `promotionLimit`: `colour` has fewer men on the board of the type `p` counts as (a
    /// promoted form stands for its target, FSF's reading) than the limit, if there is one.
    fn under_limit(&self, colour: Colour, p: PieceId) -> bool {
        let v = &self.lay.variant;
        let counted = v.rule_type(p);
        let Some(&(_, limit)) = v.promotion.limits.iter().find(|(t, _)| *t == counted) else {
            return true;
        };
        let have = self
            .live()
            .filter(|(_, m)| m.colour == colour && v.rule_type(self.piece_of(m)) == counted)
            .count();
        have < limit as usize
    }

    /// Castling with every virgin rook of the side on the royal's rank.
    pub fn gen_castling(&self, out: &mut Vec<Move>) {
        let Some(c) = &self.lay.variant.castling else {
            return;
        };
        let Some(king) = self.castling_king() else {
            return;
        };
        let us = self.stm;
        // Whether the king stands attacked is part of the path test (its own square is on
        // the path), asked only for a partner with a clear path.
        let Some(kc) = self.lay.coord(king.sq) else {
            return;
        };
        // Castling partners stand on the king's rank: look there, not through every man.
        for file in 0..self.lay.files {
            let Some(rook) = self.man_at(self.lay.sq(Coord::new(file, kc.rank))) else {
                continue;
            };
            let kind = &self.lay.kinds[rook.kind as usize];
            if rook.colour != us || !kind.virgin || !c.rook_types.contains(&kind.piece) {
                continue;
            }
            let (kf, rf) = if file > kc.file {
                (c.king_side_file, c.king_side_file - 1)
            } else {
                (c.queen_side_file, c.queen_side_file + 1)
            };
            let rc = Coord::new(file, kc.rank);
            if self.castling_path_clear(&king, rook, kc, rc, kf, rf) {
                let mut m = Move::normal(kc, Coord::new(kf, kc.rank));
                m.kind = MoveKind::Castle;
                m.push_extra(rc);
                out.push(m);
            }
        }
    }

    /// The side to move's man that may still castle, if any.
    fn castling_king(&self) -> Option<Man> {
        let us = self.stm;
        let castles = |m: &Man| m.colour == us && self.lay.kinds[m.kind as usize].castles;
        if self.lay.royal_castlers {
            self.royals(us)
                .filter_map(|sq| self.man_at(sq).copied())
                .find(castles)
        } else {
            self.live().map(|(_, m)| *m).find(castles)
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
        if !self.lay.kinds[king.kind as usize].royal {
            return true; // a king that is not royal (giveaway's) may cross attacked squares
        }
        if self.walls_shield() {
            return true; // judged per wall square once the move is made (`shielded`)
        }
        let (a, b) = (kc.file.min(kf), kc.file.max(kf));
        let them = king.colour.flip();
        let attacked =
            (a..=b).any(|f| self.map.attacked(them, self.lay.sq(Coord::new(f, kc.rank))));
        // Petrifying pseudo-royals guard the squares the king starts from and crosses (not
        // the one it ends on: there FSF asks the ordinary test).
        let guarded = !self.lay.variant.petrify_guards.is_empty()
            && (a..=b)
                .filter(|&f| f != kf || kf == kc.file)
                .any(|f| self.petrified_guard(them, Coord::new(f, kc.rank)));
        !attacked && !guarded
    }
}

impl Position {
    /// Every pseudo-legal move found man by man from the man's own cells, without the
    /// victim staging: the twin [`Position::pseudo_moves`] is tested against.
    pub fn pseudo_moves_by_man(&self, out: &mut Vec<Move>) {
        let start = out.len();
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
        self.dedup_from(out, start);
        self.expand_walls(out, start);
        self.expand_gates(out, start);
    }
}
