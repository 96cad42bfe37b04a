//! Consistency checks of a position against its from-scratch twins: the attack map, the
//! Zobrist key, the mobility counts, the royal slots and the board/men cross references.
//! Used by tests after every make and unmake.

use crate::board::attack::AttackMap;
use crate::board::position::Position;

impl Position {
    /// Describes the first way the incremental state differs from a from-scratch rebuild, or
    /// `None` when everything agrees.
    pub fn inconsistency(&self) -> Option<String> {
        for (slot, m) in self.live() {
            if self.board[m.sq as usize] != slot {
                return Some(format!(
                    "slot {slot} thinks it is on {} but the board disagrees",
                    m.sq
                ));
            }
        }
        for sq in self.lay.squares() {
            let s = self.board[sq as usize];
            if s != crate::board::types::EMPTY
                && s != crate::board::types::OFF
                && self.men[s as usize].is_none()
            {
                return Some(format!("square {sq} holds dead slot {s}"));
            }
        }
        for colour in [
            crate::board::types::Colour::White,
            crate::board::types::Colour::Black,
        ] {
            let mut kept = self.royal_slots(colour).to_vec();
            let mut scan = self.scan_royal_slots(colour);
            kept.sort_unstable();
            scan.sort_unstable();
            if kept != scan {
                return Some(format!(
                    "royal slots {kept:?} != scanned {scan:?} for {colour:?}"
                ));
            }
        }
        let key = self.compute_key();
        if key != self.key {
            return Some(format!("key {:x} != recomputed {:x}", self.key, key));
        }
        let scratch = AttackMap::build(self);
        let (a, b) = (self.map.canonical(&self.lay), scratch.canonical(&self.lay));
        if a != b {
            let diff = a.iter().zip(&b).find(|(x, y)| x != y);
            return Some(format!(
                "attack map differs from scratch: incremental {:?} vs scratch {:?}",
                diff.map(|d| d.0),
                diff.map(|d| d.1)
            ));
        }
        let mut all = [0; crate::board::types::MAX_SLOT + 1];
        self.mobilities(&mut all);
        for (slot, _) in self.live() {
            let (fast, slow) = (all[slot as usize], self.mobility(slot) as u16);
            if fast != slow {
                return Some(format!(
                    "slot {slot}: mobility {fast} from the lists, {slow} by walking its cells"
                ));
            }
        }
        None
    }
}
