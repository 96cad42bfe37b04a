//! Tenjiku burning (`burn`, the Fire Demon): a burner removes every enemy man next to the
//! square it lands on, whatever the move. The burned men are implied by the move (they are
//! not listed as its extra squares), so make, the victim staging, SEE and check detection
//! all ask this module. A man that may promote into a burner on a move threatens on that
//! move what a burner does (`promotes_into_burner`). Every entry point returns at once in
//! variants without burners ([`crate::board::layout::Layout::burners`]).

use variants::rights;

use crate::board::attack::NodeId;
use crate::board::layout::Cell;
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{Man, Position};
use crate::board::types::{Colour, Sq, OFF};

/// The eight neighbours of a square, as mailbox offsets for a row length.
fn around(stride: i32) -> [i32; 8] {
    [
        -stride - 1,
        -stride,
        -stride + 1,
        -1,
        1,
        stride - 1,
        stride,
        stride + 1,
    ]
}

impl Position {
    /// The board squares next to `sq` (never off the board: the guard band is at least one
    /// square wide, and those squares are skipped).
    pub(crate) fn neighbours(&self, sq: Sq) -> impl Iterator<Item = Sq> + '_ {
        around(self.lay.stride as i32)
            .into_iter()
            .map(move |d| (sq as i32 + d) as Sq)
            .filter(move |&n| self.board[n as usize] != OFF)
    }

    /// True when `a` and `b` are the same square or neighbours.
    fn touches(&self, a: Sq, b: Sq) -> bool {
        let (d, s) = (a as i32 - b as i32, self.lay.stride as i32);
        d == 0 || around(s).contains(&d)
    }

    /// Make: a man of `us` has just landed on `to`; if it burns, every enemy man next to
    /// `to` is captured (an enemy burner too: the side that moves burns first).
    pub(crate) fn burn_after_landing(&mut self, to: Sq, us: Colour, ops: &mut Vec<Op>) {
        let burns = self
            .man_at(to)
            .is_some_and(|m| m.colour == us && self.lay.kinds[m.kind as usize].burns);
        if !burns {
            return;
        }
        for d in around(self.lay.stride as i32) {
            let n = (to as i32 + d) as Sq;
            if self.man_at(n).is_some_and(|m| m.colour != us) {
                self.capture_at(n, us, ops);
            }
        }
    }

    /// The squares a move burns, when its mover (after any promotion) is a burner: the
    /// neighbours of its end square. Enemy men on them are its victims too.
    pub(crate) fn burned_squares(&self, m: &Move) -> Option<impl Iterator<Item = Sq> + '_> {
        if !self.lay.burners || !matches!(m.kind, MoveKind::Normal | MoveKind::Promotion) {
            return None;
        }
        let mover = self.man_at(self.lay.sq(m.from_coord()))?;
        let kind = if m.kind == MoveKind::Promotion {
            self.lay.kind_of(m.piece, false)
        } else {
            mover.kind
        };
        let to = self.lay.sq(m.to_coord());
        self.lay.kinds[kind as usize]
            .burns
            .then(|| self.neighbours(to))
    }

    /// True when an enemy burner, or a man that may promote into one on that move, can land
    /// next to the royal of `colour` on `sq` (and so burn it): some cell of an enemy burner
    /// reaches a neighbour with the right to move there (empty) or to capture there (a man
    /// of `colour`).
    pub(crate) fn burn_threat(&self, colour: Colour, sq: Sq) -> bool {
        self.burners_next_to(colour, sq).next().is_some()
    }

    /// Squares of the enemy burners that can land next to the royal of `colour` on `sq`.
    pub(crate) fn burners_next_to(&self, colour: Colour, sq: Sq) -> impl Iterator<Item = Sq> + '_ {
        self.burner_cells_next_to(colour, sq)
            .filter_map(|id| self.cell_of(id).map(|(_, man, _)| man.sq))
    }

    /// The cells of enemy burners that can land next to the royal of `colour` on `sq` (map
    /// ids): [`Position::burners_next_to`] one cell at a time.
    pub(crate) fn burner_cells_next_to(
        &self,
        colour: Colour,
        sq: Sq,
    ) -> impl Iterator<Item = NodeId> + '_ {
        let them = colour.flip();
        self.neighbours(sq).flat_map(move |n| {
            let occupant = self.man_at(n).copied();
            let blocked = occupant.is_some_and(|m| m.colour == them);
            self.map
                .cells_at(n, them)
                .filter(move |_| !blocked)
                .filter_map(move |id| {
                    let (slot, man, cell) = self.cell_of(id)?;
                    let kind = &self.lay.kinds[man.kind as usize];
                    let lands = (kind.burns || kind.promotes_to_burner)
                        && self.lands(&man, cell, occupant.as_ref())
                        && self.burns_landing(&man, n, occupant.is_some());
                    // A range jumper that passed a man may only capture (no burner jumps in
                    // Tenjiku, but the rule holds for any).
                    let jumped = occupant.is_none()
                        && kind.range_jump
                        && self.jumped(slot, &kind.cells[man.colour.index()], self.map.split(id).1);
                    (lands && !jumped).then_some(id)
                })
        })
    }

    /// True when `man`, landing on `to` (taking a man there with `captures`), burns: it is a
    /// burner, or it may promote into one on that move (a man that promotes burns at once,
    /// so the threat is there whenever the promotion is allowed).
    #[inline]
    fn burns_landing(&self, man: &Man, to: Sq, captures: bool) -> bool {
        let kind = &self.lay.kinds[man.kind as usize];
        kind.burns || kind.promotes_to_burner && self.promotes_into_burner(man, to, captures)
    }

    /// True when `man` moving from its square to `to` (taking a man there with `captures`)
    /// may promote into a burner: the move generator's promotion rules (`movegen.rs`),
    /// promotion limits aside (a threat ignores them, as in the reference generator). Locust
    /// victims on the way count as no capture here: no piece that promotes into a burner
    /// has locust moves.
    pub(crate) fn promotes_into_burner(&self, man: &Man, to: Sq, captures: bool) -> bool {
        let (Some(from), Some(to)) = (self.lay.coord(man.sq), self.lay.coord(to)) else {
            return false;
        };
        let v = &self.lay.variant;
        let piece = &v.pieces[self.lay.kinds[man.kind as usize].piece as usize];
        let burns = |p: &variants::PieceId| v.pieces[*p as usize].burns;
        if !piece.promotions.is_empty() && self.promotion_zone(man.colour).contains(to) {
            return piece.promotions.iter().any(burns); // chess-style: any choice on arrival
        }
        piece.promoted.as_ref().is_some_and(burns)
            && self.may_promote_shogi(man, (from, to), captures)
    }

    /// True when `burner`'s cell may end its move on a square holding `occupant`.
    fn lands(&self, burner: &Man, cell: &Cell, occupant: Option<&Man>) -> bool {
        match occupant {
            None => cell.rights & rights::MOVE != 0,
            Some(o) if o.colour == burner.colour => false,
            Some(o) => {
                let royal = self.lay.kinds[o.kind as usize].royal;
                let (a, v) = (self.piece_of(burner), self.piece_of(o));
                cell.rights & rights::CAPTURE != 0
                    && !(royal && cell.rights & rights::TAME != 0)
                    && !self.lay.no_capture[a as usize][v as usize]
            }
        }
    }

    /// Legality shortcut: true when an enemy burner's cell on `sq` (or that of a man that may
    /// promote into a burner there) could land there on the board the move leaves
    /// (`occupant`) next to one of `royals` (`None`: unknown, so yes).
    pub(crate) fn burn_lands_near(
        &self,
        burner: &Man,
        cell: &Cell,
        sq: Sq,
        occupant: Option<&Man>,
        royals: Option<&[Sq]>,
    ) -> bool {
        let kind = &self.lay.kinds[burner.kind as usize];
        // Nearness first: it is the cheapest question and rules out nearly every square.
        (kind.burns || kind.promotes_to_burner)
            && royals.is_none_or(|rs| rs.iter().any(|&r| self.touches(r, sq)))
            && self.lands(burner, cell, occupant)
            && self.burns_landing(burner, sq, occupant.is_some())
    }
}
