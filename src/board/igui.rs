//! Igui as a threat: a man that can capture an adjacent man without moving (the Heavenly
//! Tetrarchs' `cabK`) threatens that square through a locust cell, which the attack counters
//! do not count (a locust victim cell counts only where it has the capture right itself).
//! Check detection asks here in variants that have such cells
//! ([`crate::board::layout::Layout::igui`]).

use variants::rights;

use crate::board::attack::NodeId;
use crate::board::layout::CellTable;
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

impl Position {
    /// Squares of the men of the other side that can take the royal of `colour` on `sq` by
    /// igui: a locust cell of theirs reaches `sq` and its continuation over the royal returns
    /// to the man's own square with the right to end there.
    pub(crate) fn igui_threats(&self, colour: Colour, sq: Sq) -> impl Iterator<Item = Sq> + '_ {
        self.igui_cells(colour, sq)
            .filter_map(|id| self.cell_of(id).map(|(_, man, _)| man.sq))
    }

    /// The locust cells (map ids) of [`Position::igui_threats`], one per threat.
    pub(crate) fn igui_cells(&self, colour: Colour, sq: Sq) -> impl Iterator<Item = NodeId> + '_ {
        let them = colour.flip();
        self.map.cells_at(sq, them).filter_map(move |id| {
            let (slot, man, cell) = self.cell_of(id)?;
            if cell.rights & rights::LOCUST_FOE == 0 {
                return None;
            }
            let t: &CellTable = &self.lay.kinds[man.kind as usize].cells[them.index()];
            let back = (cell.occupied.0..cell.occupied.1).any(|i| {
                let child = t.children[i as usize];
                let returns = self.map.square_of(self.map.id(slot, child)) == Some(man.sq);
                returns && t.cells[child as usize].rights & rights::MOVE != 0
            });
            back.then_some(id)
        })
    }
}
