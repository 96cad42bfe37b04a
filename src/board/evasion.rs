//! Evasions where the common-squares shortcut (`Position::check_resolvers`) does not apply:
//! enemy paths that go on past a man (a screen, a range jump, a lion) or threats the counters
//! do not hold (burners, igui). A check stands as long as no square its path uses changes
//! (the checker's square, the squares its path passed over, and for a burner the square it
//! lands on), so a non-royal move that changes no square of some check's path is illegal
//! without making it. After a move that changes a square of every check's path, every
//! threat left runs through a changed square (one that runs only over unchanged squares was
//! there before: it is one of the checks), which is what the not-in-check re-walk
//! (`legality.rs`) looks for, so its verdict holds here too.

use arrayvec::ArrayVec;
use variants::rights;
use variants::rules::Royalty;

use crate::board::attack::NodeId;
use crate::board::layout::NO_CELL;
use crate::board::legality::PinCache;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::Sq;

/// Squares of all check paths together; a position with more is left to the full test.
const PATH_SQUARES: usize = 128;
/// Checks listed at most (a lion reaching the royal along two routes is two checks).
const MAX_CHECKS: usize = 16;
/// Squares a move may change and still be filtered: from, to, up to three extra squares
/// and a burner's eight neighbours.
const CHANGED_SQUARES: usize = 16;

/// The squares of every check on the side to move, path after path, each starting with the
/// checking man's square.
#[derive(Clone, Debug, Default)]
pub struct CheckPaths {
    squares: ArrayVec<Sq, PATH_SQUARES>,
    /// Where each path ends in `squares`.
    ends: ArrayVec<u8, MAX_CHECKS>,
}

impl CheckPaths {
    /// The paths, one slice each.
    fn paths(&self) -> impl Iterator<Item = &[Sq]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().map(|&e| e as usize));
        starts
            .zip(self.ends.iter())
            .map(|(start, &end)| &self.squares[start..end as usize])
    }

    /// True when every check's path holds one of the `changed` squares.
    fn all_touched(&self, changed: &[Sq]) -> bool {
        self.paths()
            .all(|path| path.iter().any(|s| changed.contains(s)))
    }
}

impl Position {
    /// The paths of every check on the side to move, whose `royals` are listed. `None` when
    /// a standing check need not make a move illegal (extinction royalty, or more than one
    /// royal under last-royal rules), under explosions or sight lines, or when the paths do
    /// not fit.
    pub(crate) fn check_paths(&self, royals: &[Sq]) -> Option<CheckPaths> {
        let v = &self.lay.variant;
        let every_check_counts = match v.end.royalty {
            Royalty::Absolute => true,
            Royalty::Last => royals.len() == 1,
            Royalty::Extinction => false,
        };
        if !every_check_counts || v.blast.is_some() || v.end.flying_general {
            return None;
        }
        let (us, them) = (self.stm, self.stm.flip());
        let mut paths = CheckPaths::default();
        for &r in royals {
            for id in self.map.cells_at(r, them) {
                let (_, _, cell) = self.cell_of(id)?;
                if cell.rights & rights::CAPTURE != 0 && cell.rights & rights::TAME == 0 {
                    self.push_path(&mut paths, id, false)?;
                }
            }
            if self.lay.burners {
                for id in self.burner_cells_next_to(us, r) {
                    self.push_path(&mut paths, id, true)?; // its landing square counts too
                }
            }
            if self.lay.igui {
                for id in self.igui_cells(us, r) {
                    self.push_path(&mut paths, id, false)?;
                }
            }
        }
        Some(paths)
    }

    /// Appends the path of the enemy cell `id`: its man's square, the squares of the cells
    /// above it and, with `landing`, the cell's own square. `None` when it does not fit.
    fn push_path(&self, paths: &mut CheckPaths, id: NodeId, landing: bool) -> Option<()> {
        let (slot, man, _) = self.cell_of(id)?;
        let t = &self.lay.kinds[man.kind as usize].cells[man.colour.index()];
        paths.squares.try_push(man.sq).ok()?;
        if landing {
            paths.squares.try_push(self.map.square_of(id)?).ok()?;
        }
        let mut a = t.cells[self.map.split(id).1 as usize].parent;
        while a != NO_CELL {
            let sq = self.map.square_of(self.map.id(slot, a))?;
            paths.squares.try_push(sq).ok()?;
            a = t.cells[a as usize].parent;
        }
        let end = u8::try_from(paths.squares.len()).ok()?;
        paths.ends.try_push(end).ok()
    }

    /// In check with the given `paths`: `Some(false)` when the move is illegal because some
    /// check's path keeps all its squares; otherwise the verdict of
    /// [`Position::quick_verdict`] (every threat left runs through a square the move
    /// changes). `None` when the full test must decide (royal moves and drops, promotions to
    /// a royal, other move kinds, or the re-walk cannot tell).
    pub(crate) fn answers_checks(
        &self,
        m: &Move,
        paths: &CheckPaths,
        royals: Option<&[Sq]>,
        pins: &PinCache,
    ) -> Option<bool> {
        let mut changed: ArrayVec<Sq, CHANGED_SQUARES> = ArrayVec::new();
        let to = self.lay.sq(m.to_coord());
        match m.kind {
            MoveKind::Normal | MoveKind::Promotion => {
                let from = self.lay.sq(m.from_coord());
                let mover = self.man_at(from)?;
                let promoted =
                    (m.kind == MoveKind::Promotion).then(|| self.lay.kind_of(m.piece, false));
                let royal = |k: u8| self.lay.kinds[k as usize].royal;
                if royal(mover.kind) || promoted.is_some_and(royal) {
                    return None;
                }
                changed.push(from);
            }
            MoveKind::Drop if !self.lay.kinds[self.lay.kind_of(m.piece, false) as usize].royal => {}
            _ => return None,
        }
        changed.try_push(to).ok()?;
        for c in m.extras() {
            changed.try_push(self.lay.sq(c)).ok()?;
        }
        if let Some(burned) = self.burned_squares(m) {
            // Only the enemy men are burned: a square next to the landing that holds no
            // enemy stays as it is (the verdict below relies on every listed square changing).
            let them = self.stm.flip();
            for sq in burned {
                if self.man_at(sq).is_some_and(|o| o.colour == them) {
                    changed.try_push(sq).ok()?;
                }
            }
        }
        if !paths.all_touched(&changed) {
            return Some(false);
        }
        self.quick_verdict(m, royals, pins)
    }
}
