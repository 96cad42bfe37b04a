//! Read-only accessors of the position: the small API that code outside `board` uses instead
//! of the fields, so that the fields can become private without touching callers.

use std::sync::Arc;

use variants::PieceId;

use crate::board::layout::Layout;
use crate::board::position::Position;
use crate::board::types::Colour;

impl Position {
    /// The compiled variant.
    #[inline]
    pub fn layout(&self) -> &Arc<Layout> {
        &self.lay
    }

    /// The variant's rules.
    #[inline]
    pub fn variant(&self) -> &variants::Variant {
        &self.lay.variant
    }

    /// Side to move.
    #[inline]
    pub fn side_to_move(&self) -> Colour {
        self.stm
    }

    /// The incrementally kept Zobrist key.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.key
    }

    /// The key the search's table files the position under: [`Position::hash`] with what
    /// the history adds to how the game may end (shatar's series of checks), which
    /// repetitions do not count (Fairy-Stockfish compares boards).
    #[inline]
    pub fn table_key(&self) -> u64 {
        if self.shak_series == [false; 2] {
            self.key
        } else {
            self.key ^ self.series_key()
        }
    }

    /// Plies since the last capture or pawn move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.rule50
    }

    /// How many plies back a repetition of this position is looked for: since the last
    /// capture or pawn move, or, where captured men go to a hand (and may come back by a
    /// drop), since the last pass, as Fairy-Stockfish does.
    #[inline]
    pub fn repetition_window(&self) -> u32 {
        if self.lay.variant.drops.captures_to_hand {
            self.since_null
        } else {
            self.rule50
        }
    }

    /// Full-move number.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Passes played in a row just before this position.
    #[inline]
    pub fn consecutive_passes(&self) -> u8 {
        self.passes
    }

    /// How many men of `piece` `colour` holds in hand.
    #[inline]
    pub fn in_hand(&self, colour: Colour, piece: PieceId) -> u8 {
        self.hand[colour.index()]
            .get(piece as usize)
            .copied()
            .unwrap_or(0)
    }

    /// `colour`'s men in hand, by piece (index as in [`Position::in_hand`]).
    #[inline]
    pub fn hand_counts(&self, colour: Colour) -> &[u8] {
        &self.hand[colour.index()]
    }

    /// Number of live men on the board.
    pub fn men_count(&self) -> usize {
        self.live().count()
    }
}

impl Position {
    /// Number of capture paths of `colour` reaching the mailbox square `sq` (the map's
    /// per-square counter: one per cell, so a slider and a leaper each count once).
    #[inline]
    pub fn attack_count(&self, colour: Colour, sq: crate::board::types::Sq) -> u16 {
        self.map.attackers(colour, sq)
    }
}

impl Position {
    /// Every live man's [`Position::mobility`] at once, into `out` by slot (other slots are
    /// left as they were): its cells associated with a square, less those on squares its own
    /// side holds, found by walking the lists of those squares. The lists hold only the
    /// cells that end on a man, far fewer than a walk through every man's cells reads.
    pub fn mobilities(&self, out: &mut [u16; crate::board::types::MAX_SLOT + 1]) {
        for (slot, _) in self.live() {
            out[slot as usize] = self.map.linked(slot);
        }
        for (_, man) in self.live() {
            for id in self.map.cells_at(man.sq, man.colour) {
                let (slot, _) = self.map.split(id);
                out[slot as usize] -= 1;
            }
        }
    }

    /// Mobility of the man in `slot`: how many of its paths currently reach a square that does
    /// not hold a man of its own colour (read from the attack map's recorded cell squares).
    /// The from-scratch twin of [`Position::mobilities`].
    pub fn mobility(&self, slot: crate::board::types::Slot) -> u32 {
        let Some(man) = self.men.get(slot as usize).copied().flatten() else {
            return 0;
        };
        let table = &self.lay.kinds[man.kind as usize].cells[man.colour.index()];
        let n = table.cells.len();
        let (skip, squares) = (&table.skip[..n], &self.map.slot_squares(slot, n)[..n]);
        let (mut i, mut count) = (0, 0);
        while i < n {
            let sq = squares[i];
            if sq == 0 {
                i = skip[i] as usize; // nothing below an unassociated cell is associated
                continue;
            }
            if self.man_at(sq).is_none_or(|m| m.colour != man.colour) {
                count += 1;
            }
            i += 1;
        }
        count
    }
}

impl Position {
    /// The men of `colour` whose paths reach `sq` with the right to capture, as (slot, kind),
    /// read from the attack map's list at `sq` without allocating: a man comes once per such
    /// path (twice when two of its paths end there). The evaluation's view of who attacks a
    /// square; [`Position::capturers`] is the deduplicated, allocating form.
    pub fn capture_paths(
        &self,
        colour: Colour,
        sq: crate::board::types::Sq,
    ) -> impl Iterator<Item = (crate::board::types::Slot, u8)> + '_ {
        self.map.cells_at(sq, colour).filter_map(move |id| {
            let (slot, c) = self.map.split(id);
            let man = self.men[slot as usize]?;
            let kind = &self.lay.kinds[man.kind as usize];
            let cell = &kind.cells[man.colour.index()].cells[c as usize];
            let hits = cell.rights & variants::rights::CAPTURE != 0
                && cell.rights & variants::rights::TAME == 0;
            hits.then_some((slot, man.kind))
        })
    }
}
