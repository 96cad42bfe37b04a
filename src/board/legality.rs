//! Legality without make/unmake. When the side to move is not in check, a move of a
//! non-royal man changes the board only on its from- and to-squares, so any enemy path that
//! newly reaches a royal must leave the unchanged part of the board at one of those squares,
//! where its cell is already in the attack map. Re-walking those cells' continuations on a
//! virtual board (from emptied, to filled, victims taken off) finds every such path; when none
//! reaches a royal the move is legal, and when one that the move leaves whole up to that
//! square captures a royal that must not be lost, it is illegal. Anything else goes to the
//! full make / test / unmake.

use std::cell::Cell;

use arrayvec::ArrayVec;
use variants::rights;
use variants::rules::Royalty;

use crate::board::attack::{continuation_for, View};
use crate::board::layout::{CellTable, NO_ZONE};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{Man, Position};
use crate::board::types::{Slot, Sq, OFF};

/// Which men of the side to move stand where an enemy path could go on towards a royal once
/// they step away, memoised per position as moves are tested (bits by slot: known, unpinnable).
/// Moves of one man are tested many times over; the answer does not depend on the move.
#[derive(Clone, Debug, Default)]
pub struct PinCache {
    known: [Cell<u64>; 4],
    free: [Cell<u64>; 4],
}

impl PinCache {
    #[inline(always)]
    fn lookup(&self, slot: Slot) -> Option<bool> {
        let (w, bit) = (slot as usize / 64, 1u64 << (slot % 64));
        (self.known[w].get() & bit != 0).then(|| self.free[w].get() & bit != 0)
    }

    fn store(&self, slot: Slot, free: bool) {
        let (w, bit) = (slot as usize / 64, 1u64 << (slot % 64));
        self.known[w].set(self.known[w].get() | bit);
        if free {
            self.free[w].set(self.free[w].get() | bit);
        }
    }
}

/// Squares a move may empty besides its start square (its extra victims, the men a burner
/// burns) and still be tested on the virtual board.
const MAX_EMPTIED: usize = 12;

/// The board as it will be after the move, on the squares that change.
pub(super) struct Virtual<'r> {
    pub(super) from: Option<Sq>,
    pub(super) to: Sq,
    pub(super) mover: Man,
    /// Squares whose enemy men the move takes off (extra victims, burned men).
    pub(super) emptied: ArrayVec<Sq, MAX_EMPTIED>,
    /// The royals a burner must not land next to (burner variants only; `None`: unknown).
    pub(super) royals: Option<&'r [Sq]>,
}

impl Virtual<'_> {
    /// The squares whose occupant changes.
    fn changed(&self) -> impl Iterator<Item = Sq> + '_ {
        [Some(self.to), self.from]
            .into_iter()
            .flatten()
            .chain(self.emptied.iter().copied())
    }

    /// True when the move takes off the man standing on `sq` before it.
    pub(super) fn captures_on(&self, sq: Sq) -> bool {
        sq == self.to || self.emptied.contains(&sq)
    }
}

/// What the virtual re-walk of the paths through the changed squares found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Reach {
    /// No path reaches a royal: the move is legal.
    Nothing,
    /// A path may threaten a royal (a burner's landing, a sight line, or a path the move may
    /// have changed before the changed square): only the full test can tell.
    Threat,
    /// A path the move leaves whole captures a royal (or lets a burner land next to one).
    Capture,
}

impl Position {
    /// The move's legality where it is certain without making it: `Some(true)` when it opens
    /// no path to a royal (the side to move must not be in check), `Some(false)` when a
    /// path it opens captures a royal that must not be lost, `None` when not known.
    /// `royals` lists the royals of the side to move, or is `None` when there were too many
    /// to list (then no ray is skipped).
    #[inline]
    pub(crate) fn quick_verdict(
        &self,
        m: &Move,
        royals: Option<&[Sq]>,
        pins: &PinCache,
    ) -> Option<bool> {
        if m.kind == MoveKind::Drop
            && self.lay.kinds[self.lay.kind_of(m.piece, false) as usize].royal
        {
            return None; // a royal dropped from hand (placement) may land attacked
        }
        if self.lay.uncounted {
            return self.verdict_burning(m, royals);
        }
        let them = self.stm.flip();
        if !self.lay.hops[them.index()] && self.lay.variant.blast.is_none() && m.n_extra == 0 {
            // No enemy path goes on past an occupied square, so an arriving man can only
            // block: a drop is safe, and so is any plain move of a man that cannot be pinned.
            let safe = match m.kind {
                MoveKind::Normal | MoveKind::Promotion => {
                    !self.crowns(m) && self.unpinnable(self.lay.sq(m.from_coord()), royals, pins)
                }
                MoveKind::Drop => !self.lay.variant.drops.no_drop_mate.contains(&m.piece),
                _ => false,
            };
            if safe {
                return Some(true);
            }
        }
        self.verdict_by_rewalk(m, royals)
    }

    /// The virtual re-walk of the enemy paths through the move's changed squares.
    #[inline(never)]
    fn verdict_by_rewalk(&self, m: &Move, royals: Option<&[Sq]>) -> Option<bool> {
        let virt = self.virtual_move(m)?;
        let view = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        let mut moved: arrayvec::ArrayVec<Sq, 32> = arrayvec::ArrayVec::new();
        let royal_mover = self.lay.kinds[virt.mover.kind as usize].royal;
        if royal_mover {
            if self.attacked_after_royal_move(&virt) {
                return None;
            }
            // The ray filter must look for the royal where it goes, not where it was.
            for &r in royals.unwrap_or(&[]) {
                moved.push(if Some(r) == virt.from { virt.to } else { r });
            }
        }
        let royals = if royal_mover {
            royals.map(|_| &moved[..])
        } else {
            royals
        };
        let reach = self.reach_of::<false>(&view, &virt, royals);
        self.verdict(m, &virt, royals, reach)
    }

    /// The most a re-walk through every changed square found (stopping at the first path
    /// that reaches a royal).
    pub(super) fn reach_of<const BURN: bool>(
        &self,
        view: &View,
        virt: &Virtual,
        royals: Option<&[Sq]>,
    ) -> Reach {
        virt.changed()
            .map(|sq| self.reaches_through::<BURN>(view, sq, virt, royals))
            .find(|&r| r != Reach::Nothing)
            .unwrap_or(Reach::Nothing)
    }

    /// The verdict a re-walk's finding gives: a royal captured is fatal when every royal must
    /// be kept (absolute royalty), or when it is the only one and the move adds none (a
    /// promotion or drop of a royal piece under last-royal rules).
    pub(super) fn verdict(
        &self,
        m: &Move,
        virt: &Virtual,
        royals: Option<&[Sq]>,
        reach: Reach,
    ) -> Option<bool> {
        match reach {
            Reach::Nothing => Some(true),
            Reach::Threat => None,
            Reach::Capture => {
                // A royal the move makes shields the only one unless royals are counted as
                // the move begins (XBoard's chu).
                let adds_royal = self.lay.kinds[virt.mover.kind as usize].royal
                    && m.kind != MoveKind::Normal
                    && !self.lay.variant.end.royals_counted_before_move;
                let fatal = match self.lay.variant.end.royalty {
                    Royalty::Absolute => true,
                    Royalty::Last => royals.is_some_and(|r| r.len() == 1) && !adds_royal,
                    Royalty::Extinction => false,
                };
                fatal.then_some(false)
            }
        }
    }

    /// True for a promotion to a royal piece (that royal may land attacked).
    fn crowns(&self, m: &Move) -> bool {
        m.kind == MoveKind::Promotion
            && self.lay.kinds[self.lay.kind_of(m.piece, false) as usize].royal
    }

    /// True when the man on `from` is neither royal nor leaves a man behind, and no enemy
    /// path that reaches it would go on towards a royal were the square empty: then none of
    /// its plain moves can expose a royal (when the enemy has no hopping paths).
    #[inline(always)]
    pub(crate) fn unpinnable(&self, from: Sq, royals: Option<&[Sq]>, pins: &PinCache) -> bool {
        let slot = self.board[from as usize];
        match pins.lookup(slot) {
            Some(known) => known,
            None => self.learn_unpinnable(from, slot, royals, pins),
        }
    }

    /// [`Position::unpinnable`]'s first answer for a man, memoised. Kept out of line: the
    /// memo answers almost every call, and inlining this would burden each with its set-up.
    #[inline(never)]
    fn learn_unpinnable(
        &self,
        from: Sq,
        slot: Slot,
        royals: Option<&[Sq]>,
        pins: &PinCache,
    ) -> bool {
        let free = self.man_at(from).is_some_and(|man| {
            let kind = &self.lay.kinds[man.kind as usize];
            !kind.royal
                && self.lay.variant.pieces[kind.piece as usize]
                    .leaves_behind
                    .is_none()
                && !self.may_open_line(from, royals)
        });
        pins.store(slot, free);
        free
    }

    /// True when some enemy path reaching `from` would go on towards a royal with the square
    /// empty.
    fn may_open_line(&self, from: Sq, royals: Option<&[Sq]>) -> bool {
        let them = self.stm.flip();
        self.map.cells_at(from, them).any(|id| {
            let (enemy_slot, c) = self.map.split(id);
            self.men[enemy_slot as usize].is_some_and(|enemy| {
                let t = &self.lay.kinds[enemy.kind as usize].cells[them.index()];
                let cell = &t.cells[c as usize];
                cell.empty.0 != cell.empty.1 && Self::may_reach(cell.straight, from, royals)
            })
        })
    }

    /// [`Position::quick_verdict`] in a variant with burners or igui: an enemy burner that
    /// could land next to a royal on the virtual board is a threat like a capture; a royal's
    /// own move is decided in `royal_move.rs`.
    fn verdict_burning(&self, m: &Move, royals: Option<&[Sq]>) -> Option<bool> {
        let mut virt = self.virtual_move(m)?;
        let kind = &self.lay.kinds[virt.mover.kind as usize];
        if kind.royal {
            return self.royal_verdict_burning(m, virt, royals);
        }
        // Burned men are further emptied squares (one may have screened a royal).
        if kind.burns {
            let us = virt.mover.colour;
            for n in self.neighbours(virt.to) {
                if self.man_at(n).is_some_and(|o| o.colour != us) {
                    virt.emptied.try_push(n).ok()?;
                }
            }
        }
        virt.royals = royals;
        let view = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        let reach = self.reach_of::<true>(&view, &virt, royals);
        self.verdict(m, &virt, royals, reach)
    }

    /// What the enemy paths through `sq` reach on the virtual board: a royal captured,
    /// or (with `BURN`, in variants with burners or igui) an enemy burner's landing next to
    /// one. Men the move captures threaten nothing.
    fn reaches_through<const BURN: bool>(
        &self,
        view: &View,
        sq: Sq,
        virt: &Virtual,
        royals: Option<&[Sq]>,
    ) -> Reach {
        let them = self.stm.flip();
        for id in self.map.cells_at(sq, them) {
            let (slot, c) = self.map.split(id);
            let Some(enemy) = self.men[slot as usize].filter(|e| !virt.captures_on(e.sq)) else {
                continue;
            };
            let t = &self.lay.kinds[enemy.kind as usize].cells[them.index()];
            let cell = &t.cells[c as usize];
            let kind = &self.lay.kinds[enemy.kind as usize];
            let burner = BURN && (kind.burns || kind.promotes_to_burner);
            let leaf = cell.empty.0 == cell.occupied.1;
            let onward = !leaf
                && if burner {
                    self.may_pass_near(cell.straight, sq, royals)
                } else {
                    Self::may_reach(cell.straight, sq, royals)
                };
            if !burner && !onward {
                continue; // nothing continues beyond this square towards a royal
            }
            let occ = self.virtual_for(&enemy, sq, virt);
            if burner && self.burn_lands_near(&enemy, cell, sq, occ.as_ref(), royals) {
                // The move opens or offers a landing next to a royal.
                return match self.burn_reach(&enemy, royals) {
                    Reach::Capture if self.path_kept(slot, t, c, virt) => Reach::Capture,
                    _ => Reach::Threat,
                };
            }
            if !onward {
                continue;
            }
            let (lo, hi) = continuation_for(view, &enemy, cell, occ.as_ref());
            for i in lo..hi {
                let child = t.children[i as usize];
                match self.reaches_royal::<BURN>(view, &enemy, t, child, sq, virt) {
                    Reach::Nothing => {}
                    Reach::Capture if self.path_kept(slot, t, c, virt) => return Reach::Capture,
                    _ => return Reach::Threat,
                }
            }
        }
        Reach::Nothing
    }

    /// What a burner's landing next to a royal on the virtual board is: as sure as a capture
    /// when the royals are known and the burner is no range jumper (a jumper may not land on
    /// an empty square after a jump, which the landing test does not ask).
    pub(super) fn burn_reach(&self, burner: &Man, royals: Option<&[Sq]>) -> Reach {
        if royals.is_some() && !self.lay.kinds[burner.kind as usize].range_jump {
            Reach::Capture
        } else {
            Reach::Threat
        }
    }

    /// True when no square of the path that led to cell `c` of `slot` (above the cell
    /// itself) changes: the path reaches the cell's square after the move too.
    pub(super) fn path_kept(&self, slot: Slot, t: &CellTable, c: u16, virt: &Virtual) -> bool {
        let mut a = t.cells[c as usize].parent;
        while a != crate::board::layout::NO_CELL {
            match self.map.square_of(self.map.id(slot, a)) {
                Some(sq) if !virt.changed().any(|x| x == sq) => {}
                _ => return false,
            }
            a = t.cells[a as usize].parent;
        }
        true
    }

    /// The two changed squares of a move the shortcut can handle, or `None`.
    #[inline(always)]
    fn virtual_move<'r>(&self, m: &Move) -> Option<Virtual<'r>> {
        let v = &self.lay.variant;
        if v.blast.is_some() {
            return None;
        }
        let to = self.lay.sq(m.to_coord());
        let (from, mut mover) = match m.kind {
            MoveKind::Normal | MoveKind::Promotion => {
                let from = self.lay.sq(m.from_coord());
                (Some(from), *self.man_at(from)?)
            }
            MoveKind::Drop if !v.drops.no_drop_mate.contains(&m.piece) => {
                let kind = self.lay.kind_of(m.piece, false);
                let man = Man {
                    kind,
                    colour: self.stm,
                    sq: to,
                    promoted: false,
                };
                (None, man)
            }
            _ => return None,
        };
        // Extra squares of a plain move or promotion are victims (make captures them).
        let mut emptied = ArrayVec::new();
        if m.n_extra != 0 {
            for c in m.extras() {
                emptied.try_push(self.lay.sq(c)).ok()?;
            }
        }
        let kind = &self.lay.kinds[mover.kind as usize];
        // A man that leaves another behind may leave a royal; with extinction royalty one
        // royal may stand attacked, which only the full test knows about (under last-royal
        // rules `verdict` takes a capture as fatal only for the only royal).
        let extinction = v.end.royalty == Royalty::Extinction;
        if kind.royal && extinction || v.pieces[kind.piece as usize].leaves_behind.is_some() {
            return None;
        }
        if m.kind == MoveKind::Promotion {
            mover.kind = self.lay.kind_of(m.piece, false);
        }
        Some(Virtual {
            from,
            to,
            mover,
            emptied,
            royals: None,
        })
    }

    /// True when a royal moving to `to` would stand on a square an enemy path already attacks
    /// (other than paths that led through the royal's old square, which the virtual re-walk
    /// from that square covers).
    fn attacked_after_royal_move(&self, virt: &Virtual) -> bool {
        let them = self.stm.flip();
        let sight = self.lay.variant.end.flying_general;
        self.map.cells_at(virt.to, them).any(|id| {
            let (slot, c) = self.map.split(id);
            let Some(enemy) = self.men[slot as usize] else {
                return false;
            };
            let t = &self.lay.kinds[enemy.kind as usize].cells[them.index()];
            let r = t.cells[c as usize].rights;
            let hits = r & rights::CAPTURE != 0 && r & rights::TAME == 0
                || sight && r & rights::CHECK_ONLY != 0;
            hits && !self.passes_through(slot, t, c, virt.from)
        })
    }

    /// True when the associated path leading to cell `c` of `slot` went through `sq`.
    fn passes_through(
        &self,
        slot: crate::board::types::Slot,
        t: &CellTable,
        c: u16,
        sq: Option<Sq>,
    ) -> bool {
        let Some(sq) = sq else { return false };
        let mut a = t.cells[c as usize].parent;
        while a != crate::board::layout::NO_CELL {
            if self.map.square_of(self.map.id(slot, a)) == Some(sq) {
                return true;
            }
            a = t.cells[a as usize].parent;
        }
        false
    }

    /// False when a straight ray from `sq` cannot meet any of the royals.
    fn may_reach(straight: i16, sq: Sq, royals: Option<&[Sq]>) -> bool {
        let Some(royals) = royals.filter(|_| straight != 0) else {
            return true;
        };
        royals.iter().any(|&r| {
            let d = r as i32 - sq as i32;
            let s = straight as i32;
            d % s == 0 && d / s > 0
        })
    }

    /// False when a straight ray from `sq` passes neither through nor next to any of the
    /// royals (a burner's path that goes on there cannot land where it burns one). Like
    /// [`Position::may_reach`] it may say yes for a ray that leaves the board first.
    fn may_pass_near(&self, straight: i16, sq: Sq, royals: Option<&[Sq]>) -> bool {
        let Some(royals) = royals.filter(|_| straight != 0) else {
            return true;
        };
        let stride = self.lay.stride as i32;
        royals.iter().any(|&r| {
            (-1..=1).any(|dr| {
                (-1..=1).any(|df| {
                    let d = r as i32 + dr * stride + df - sq as i32;
                    let s = straight as i32;
                    d % s == 0 && d / s > 0
                })
            })
        })
    }

    pub(super) fn virtual_at(&self, sq: Sq, virt: &Virtual) -> Option<Man> {
        if sq == virt.to {
            Some(virt.mover)
        } else if Some(sq) == virt.from || virt.emptied.contains(&sq) {
            None
        } else {
            self.man_at(sq).copied()
        }
    }

    /// The virtual occupant of `sq` as `enemy`'s paths see it: its own square is empty to
    /// them, as in the attack map's walk.
    fn virtual_for(&self, enemy: &Man, sq: Sq, virt: &Virtual) -> Option<Man> {
        if sq == enemy.sq {
            None
        } else {
            self.virtual_at(sq, virt)
        }
    }

    /// Walks cell `c` of `enemy` from `at` on the virtual board, as the attack map would
    /// after the move: a capture of a royal of the side to move, or a threat (under the
    /// flying-general rule a sight line; with `BURN` a burner's landing next to a royal).
    fn reaches_royal<const BURN: bool>(
        &self,
        v: &View,
        enemy: &Man,
        t: &CellTable,
        c: u16,
        at: Sq,
        virt: &Virtual,
    ) -> Reach {
        let cell = &t.cells[c as usize];
        let sq = (at as i32 + cell.offset as i32) as Sq;
        if self.board[sq as usize] == OFF
            || (cell.zone != NO_ZONE && !self.lay.in_zone(enemy.colour, cell.zone, sq))
        {
            return Reach::Nothing;
        }
        let occ = self.virtual_for(enemy, sq, virt);
        if let Some(o) = &occ {
            let royal = o.colour != enemy.colour && self.lay.kinds[o.kind as usize].royal;
            let captures = cell.rights & rights::CAPTURE != 0 && cell.rights & rights::TAME == 0;
            let sees = cell.rights & rights::CHECK_ONLY != 0 && self.lay.variant.end.flying_general;
            if royal && captures {
                return Reach::Capture;
            }
            if royal && sees {
                return Reach::Threat;
            }
        }
        if BURN && self.burn_lands_near(enemy, cell, sq, occ.as_ref(), virt.royals) {
            return self.burn_reach(enemy, virt.royals);
        }
        let (lo, hi) = continuation_for(v, enemy, cell, occ.as_ref());
        (lo..hi)
            .map(|i| self.reaches_royal::<BURN>(v, enemy, t, t.children[i as usize], sq, virt))
            .find(|&r| r != Reach::Nothing)
            .unwrap_or(Reach::Nothing)
    }
}
