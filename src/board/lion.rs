//! Chu Shogi's Lion-trading rules, applied as a legality filter so that move generation
//! stays the same for every variant: the protected-lion rule (a lion may not take a
//! protected lion two squares away unless it first took a man that is not a bridge) and the
//! counterstrike rule (after a non-lion takes a lion, the reply may not take a lion with a
//! non-lion except on that square). Only variants with `capture_matrix.lion` get here.

use std::sync::Arc;

use variants::rights;
use variants::rules::LionTrading;
use variants::PieceId;

use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::{Sq, EMPTY};

impl Position {
    /// False when a pseudo-legal move breaks a Lion-trading rule.
    pub(crate) fn lion_trade_ok(&mut self, m: &Move, ops: &mut Vec<Op>) -> bool {
        if !matches!(m.kind, MoveKind::Normal | MoveKind::Promotion) {
            return true;
        }
        // Both rules restrict captures only: a move that ends on an empty square and takes
        // nothing on the way is never refused (most moves, answered before any rule is read).
        if m.n_extra == 0 && self.board[self.lay.sq(m.to_coord()) as usize] == EMPTY {
            return true;
        }
        let Some(lt) = self.lay.variant.capture_matrix.lion.as_ref() else {
            return true;
        };
        let from = self.lay.sq(m.from_coord());
        let Some(mover) = self.man_at(from).map(|man| self.piece_of(man)) else {
            return true;
        };
        let lion = lt.lions.contains(&mover);
        // Under XBoard's reading the counterstrike binds lions too.
        if (!lion || lt.end_square_only) && !self.counterstrike_ok(lt, m) {
            return false;
        }
        if !lion {
            return true;
        }
        if !lt.protected || !self.takes_lion_from_afar(lt, m) {
            return true;
        }
        // The rules are borrowed from the layout while the test makes the move: share them
        // (a reference count) only for the lion moves that get this far.
        let lay = Arc::clone(&self.lay);
        let Some(lt) = lay.variant.capture_matrix.lion.as_ref() else {
            return true;
        };
        !self.takes_protected_lion(lt, m, ops)
    }

    /// The enemy lion type on `sq`, if one stands there.
    fn enemy_lion_at(&self, lt: &LionTrading, sq: Sq) -> Option<PieceId> {
        let man = self.man_at(sq).filter(|man| man.colour != self.stm)?;
        let piece = self.piece_of(man);
        lt.lions.contains(&piece).then_some(piece)
    }

    /// Counterstrike: a non-lion's move takes no lion but on the square of the last strike
    /// (under XBoard's reading no man's move ends on a lion, and the way is not looked at).
    fn counterstrike_ok(&self, lt: &LionTrading, m: &Move) -> bool {
        let Some(strike) = self.lion_strike else {
            return true;
        };
        self.strike_squares(lt, m)
            .filter(|&sq| sq != strike)
            .all(|sq| self.enemy_lion_at(lt, sq).is_none())
    }

    /// The squares the counterstrike rule looks at in a move: its end square, then the men
    /// it takes on the way (not under XBoard's reading).
    fn strike_squares<'a>(
        &'a self,
        lt: &'a LionTrading,
        m: &'a Move,
    ) -> impl Iterator<Item = Sq> + 'a {
        let on_the_way = m.extras().filter(|_| !lt.end_square_only);
        [m.to_coord()]
            .into_iter()
            .chain(on_the_way)
            .map(|c| self.lay.sq(c))
    }

    /// True when the move ends on an enemy lion two squares away (or more).
    fn takes_lion_from_afar(&self, lt: &LionTrading, m: &Move) -> bool {
        let (from, to) = (m.from_coord(), m.to_coord());
        let far = from.file.abs_diff(to.file).max(from.rank.abs_diff(to.rank)) > 1;
        far && self.enemy_lion_at(lt, self.lay.sq(to)).is_some()
    }

    /// A lion's move that ends on an enemy lion two squares away, without first taking a
    /// man other than a bridge, where the lion is protected: the enemy attacks the square
    /// once the move is made, or the bridge taken on the way attacked it (it protected the
    /// lion when the move began; lishogi counts it so).
    fn takes_protected_lion(&mut self, lt: &LionTrading, m: &Move, ops: &mut Vec<Op>) -> bool {
        let to_sq = self.lay.sq(m.to_coord());
        if !self.takes_lion_from_afar(lt, m) {
            return false;
        }
        let bridged = m.extras().any(|c| {
            let sq = self.lay.sq(c);
            self.man_at(sq)
                .is_some_and(|man| !lt.bridges.contains(&self.piece_of(man)))
        });
        if bridged {
            return false;
        }
        let them = self.stm.flip();
        if lt.bridge_protects && m.extras().any(|c| self.protects(self.lay.sq(c), to_sq)) {
            return true;
        }
        let saved = self.make(m, ops);
        let protected = self.map.attacked(them, to_sq);
        self.unmake(saved, ops);
        protected
    }

    /// True when the enemy man on `sq` attacks `target` (one of its capture cells is there).
    fn protects(&self, sq: Sq, target: Sq) -> bool {
        let them = self.stm.flip();
        let slot = self.board[sq as usize];
        self.map.cells_at(target, them).any(|id| {
            let (s, c) = self.map.split(id);
            let Some(man) = self.men[s as usize].filter(|_| s == slot) else {
                return false;
            };
            let cell = &self.lay.kinds[man.kind as usize].cells[them.index()].cells[c as usize];
            cell.rights & rights::CAPTURE != 0 && cell.rights & rights::TAME == 0
        })
    }

    /// For a man's step out and back without a capture (a lion's pass: a move to its own
    /// square that removes nothing), an empty square next to it that one of its paths
    /// reaches: the square protocols name as the turning point (`f6f7,f7f6`).
    pub fn pass_via(&self, m: &Move) -> Option<variants::geometry::Coord> {
        let from_c = m.from_coord();
        if m.from != m.to || m.n_extra > 0 || m.kind != MoveKind::Normal {
            return None;
        }
        let from = self.lay.sq(from_c);
        let slot = self.board[from as usize];
        let steps = [
            (0, 1),
            (1, 1),
            (1, 0),
            (1, -1),
            (0, -1),
            (-1, -1),
            (-1, 0),
            (-1, 1),
        ];
        steps.iter().find_map(|&(df, dr)| {
            let f = u8::try_from(from_c.file as i32 + df).ok()?;
            let r = u8::try_from(from_c.rank as i32 + dr).ok()?;
            if f >= self.lay.files || r >= self.lay.ranks {
                return None;
            }
            let c = variants::geometry::Coord::new(f, r);
            let sq = self.lay.sq(c);
            let empty = self.board[sq as usize] == crate::board::types::EMPTY;
            let reached = self
                .map
                .cells_at(sq, self.stm)
                .any(|id| self.map.split(id).0 == slot);
            (empty && reached).then_some(c)
        })
    }

    /// The square where this move's non-lion takes an enemy lion (its end square first, as
    /// the last capture of the move), when the counterstrike rule is on.
    pub(crate) fn new_lion_strike(&self, m: &Move, from: Sq) -> Option<Sq> {
        let lt = self.lay.variant.capture_matrix.lion.as_ref()?;
        let mover = self.man_at(from).map(|man| self.piece_of(man))?;
        if !lt.counterstrike || lt.lions.contains(&mover) {
            return None;
        }
        self.strike_squares(lt, m)
            .find(|&sq| self.enemy_lion_at(lt, sq).is_some())
    }
}
