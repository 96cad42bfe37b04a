//! The legality shortcut for a royal's own move in variants with burners or igui, where the
//! counters do not hold every threat. The move is legal when, on the board it leaves, no path
//! it leaves whole captures the royal on its new square or lets a burner land next to it, no
//! igui can reach it there, and no path it opens does either (the re-walk of `legality.rs`,
//! with the royal where it goes). A path it leaves whole that does either makes it illegal.

use variants::rights;

use crate::board::attack::View;
use crate::board::legality::{Reach, Virtual};
use crate::board::moves::Move;
use crate::board::position::Position;
use crate::board::types::Sq;

impl Position {
    /// The verdict on the move `virt` of the only royal (`royals`); `None` when there are
    /// other royals or an igui cell of the enemy reaches the new square.
    pub(super) fn royal_verdict_burning(
        &self,
        m: &Move,
        virt: Virtual,
        royals: Option<&[Sq]>,
    ) -> Option<bool> {
        if royals != Some(&[virt.from?][..]) {
            return None;
        }
        let moved = [virt.to];
        if self.lay.igui && self.igui_may_reach(&virt) {
            return None;
        }
        let found = self.reach_on_new_square(&virt, &moved);
        let virt = Virtual {
            royals: Some(&moved),
            ..virt
        };
        let reach = if found == Reach::Nothing {
            let view = View {
                lay: &self.lay,
                board: &self.board,
                men: &self.men,
            };
            self.reach_of::<true>(&view, &virt, Some(&moved))
        } else {
            found
        };
        self.verdict(m, &virt, Some(&moved), reach)
    }

    /// True when some enemy cell that may take by igui (a locust cell) reaches the new square.
    fn igui_may_reach(&self, virt: &Virtual) -> bool {
        self.map.cells_at(virt.to, self.stm.flip()).any(|id| {
            self.cell_of(id).is_some_and(|(_, man, cell)| {
                !virt.captures_on(man.sq) && cell.rights & rights::LOCUST_FOE != 0
            })
        })
    }

    /// What the enemy paths the move leaves whole do to the royal on its new square: capture
    /// it there, or let a burner land next to it (on the board the move leaves). Paths the
    /// move changes are the re-walk's.
    fn reach_on_new_square(&self, virt: &Virtual, moved: &[Sq]) -> Reach {
        let them = self.stm.flip();
        let to = virt.to;
        let mut found = Reach::Nothing;
        for sq in std::iter::once(to).chain(self.neighbours(to)) {
            let occupant = if sq == to {
                Some(virt.mover)
            } else {
                self.virtual_at(sq, virt)
            };
            for id in self.map.cells_at(sq, them) {
                let Some((slot, man, cell)) = self.cell_of(id) else {
                    continue;
                };
                let t = &self.lay.kinds[man.kind as usize].cells[them.index()];
                let c = self.map.split(id).1;
                if virt.captures_on(man.sq) || !self.path_kept(slot, t, c, virt) {
                    continue;
                }
                let takes = sq == to
                    && cell.rights & rights::CAPTURE != 0
                    && cell.rights & rights::TAME == 0;
                if takes {
                    return Reach::Capture;
                }
                if self.burn_lands_near(&man, cell, sq, occupant.as_ref(), Some(moved)) {
                    match self.burn_reach(&man, Some(moved)) {
                        Reach::Capture => return Reach::Capture,
                        other => found = other,
                    }
                }
            }
        }
        found
    }
}
