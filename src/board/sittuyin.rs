//! Sittuyin's promotion (`sittuyinPromotion`): which pawns may promote (those in the zone,
//! or a side's last pawn anywhere), where the new man may stand (its pawn's square, or an
//! empty square it attacks from there) and the rule that it may attack no enemy man there.
//! That the move may not give check is decided with the other check rules in `royalty.rs`.

use variants::{rights, PieceId};

use crate::board::layout::{CellTable, NO_ZONE};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::{Colour, Sq, EMPTY, OFF};

impl Position {
    /// Sittuyin's promotions of the side to move (none in other variants).
    pub(crate) fn gen_sittuyin_promotions(&self, out: &mut Vec<Move>) {
        let v = &self.lay.variant;
        if !v.promotion.sittuyin {
            return;
        }
        let us = self.stm;
        let pawns: Vec<(Sq, PieceId)> = self
            .live()
            .filter(|(_, m)| m.colour == us)
            .map(|(_, m)| (m.sq, self.piece_of(m)))
            .filter(|&(_, p)| !v.pieces[p as usize].promotions.is_empty())
            .collect();
        for &(sq, p) in &pawns {
            let Some(from) = self.lay.coord(sq) else {
                continue;
            };
            if pawns.len() > 1 && !self.promotion_zone(us).contains(from) {
                continue;
            }
            for &t in &v.pieces[p as usize].promotions {
                if !self.may_promote_to(us, t) {
                    continue;
                }
                let mut targets = vec![sq];
                self.walk_attacks(t, us, sq, sq, &mut |to, occupied| {
                    if !occupied {
                        targets.push(to);
                    }
                });
                for to in targets {
                    let mut hits = false;
                    self.walk_attacks(t, us, to, sq, &mut |x, occupied| {
                        hits |= occupied && self.man_at(x).is_some_and(|m| m.colour != us);
                    });
                    let Some(c) = self.lay.coord(to).filter(|_| !hits) else {
                        continue;
                    };
                    let mut m = Move::normal(from, c);
                    m.kind = MoveKind::Promotion;
                    m.piece = t;
                    out.push(m);
                }
            }
        }
    }

    /// Calls `visit(square, occupied)` for every square a man of type `t` and colour `us`
    /// standing on `at` attacks, the square `vacated` counted as empty (the pawn that
    /// becomes it has left).
    fn walk_attacks(
        &self,
        t: PieceId,
        us: Colour,
        at: Sq,
        vacated: Sq,
        visit: &mut dyn FnMut(Sq, bool),
    ) {
        let kind = &self.lay.kinds[self.lay.kind_of(t, false) as usize];
        let table = &kind.cells[us.index()];
        for &root in &table.roots {
            let from_zone = table.cells[root as usize].from_zone;
            if from_zone == NO_ZONE || self.lay.in_zone(us, from_zone, at) {
                self.walk_cell(table, root, at, (us, vacated), visit);
            }
        }
    }

    fn walk_cell(
        &self,
        table: &CellTable,
        id: u16,
        from: Sq,
        (us, vacated): (Colour, Sq),
        visit: &mut dyn FnMut(Sq, bool),
    ) {
        let cell = &table.cells[id as usize];
        let sq = (from as i32 + cell.offset as i32) as Sq;
        if self.board[sq as usize] == OFF || !self.lay.in_zone(us, cell.zone, sq) {
            return;
        }
        let occupant = self.man_at(sq).filter(|_| sq != vacated);
        debug_assert!(occupant.is_some() || sq == vacated || self.board[sq as usize] == EMPTY);
        if cell.rights & rights::CAPTURE != 0 {
            visit(sq, occupant.is_some());
        }
        let range = match occupant {
            None => cell.empty,
            Some(o) => {
                let pass = if o.colour == us {
                    rights::PASS_FRIEND
                } else {
                    rights::PASS_FOE
                };
                if cell.rights & pass == 0 {
                    return;
                }
                cell.occupied
            }
        };
        for i in range.0..range.1 {
            let child = table.children[i as usize];
            self.walk_cell(table, child, sq, (us, vacated), visit);
        }
    }

    /// A sittuyin promotion may not give check: called with `m` made, false when it was
    /// such a promotion and the side now to move is in check.
    pub(crate) fn promotion_check_ok(&self, m: &Move) -> bool {
        m.kind != MoveKind::Promotion
            || !self.lay.variant.promotion.sittuyin
            || !self.in_check(self.stm)
    }
}

impl Position {
    /// Sittuyin's draw by forced promotion (FSF's reading of the rules, 3.9 c.7): the side
    /// to move has only its king and one pawn, is not in check, and every legal move it has
    /// is a promotion. The game record ends the game drawn; it is rare enough that the
    /// legal moves are found on a copy of the position.
    pub fn promotion_stalemate(&self) -> bool {
        let v = &self.lay.variant;
        if !v.promotion.sittuyin || self.in_check(self.stm) {
            return false;
        }
        let ours: Vec<PieceId> = (self.live())
            .filter(|(_, m)| m.colour == self.stm)
            .map(|(_, m)| self.piece_of(m))
            .collect();
        let pawns = (ours.iter())
            .filter(|&&p| !v.pieces[p as usize].promotions.is_empty())
            .count();
        if ours.len() != 2 || pawns != 1 {
            return false;
        }
        let mut copy = self.clone();
        let (mut moves, mut ops) = (Vec::new(), Vec::new());
        copy.legal_moves(&mut moves, &mut ops);
        moves.iter().all(|m| m.kind == MoveKind::Promotion)
    }
}
