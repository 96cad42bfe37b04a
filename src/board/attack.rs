//! The incremental attack map (H.G. Muller's design): every moveTable cell that a man's
//! trajectories currently reach is linked into a doubly linked list per (square, colour), with
//! per-square attack counters. Make/unmake dissociate and re-associate only the trajectories
//! whose path changed; [`AttackMap::build`] is the from-scratch twin the tests compare with.

use variants::rights;

use crate::board::layout::{Cell, CellTable, Layout, NO_ZONE};
use crate::board::position::{Man, Position};
use crate::board::types::{Colour, Slot, Sq, EMPTY, MAX_SLOT, OFF};

/// A cell id in the map: `slot << shift | cell index`. Id 0 is the list tail sentinel.
pub type NodeId = u32;

/// Cells of one square [`AttackMap::refresh`] keeps on the stack before spilling to the heap.
pub const REFRESH_INLINE: usize = 512;

/// Rights that make a cell count as an attack on the square it reaches.
const ATTACK_RIGHTS: u16 = rights::CAPTURE;

/// What the map needs to read from the position while it walks.
pub struct View<'a> {
    /// Layout.
    pub lay: &'a Layout,
    /// Mailbox.
    pub board: &'a [Slot],
    /// Men by slot.
    pub men: &'a [Option<Man>],
}

/// One change to the lists, logged so that unmake can take it back without re-walking.
#[derive(Clone, Copy, Debug)]
struct Change {
    id: NodeId,
    /// For an unlink, the node the cell followed (it goes back after it).
    prev: NodeId,
    sq: Sq,
    /// [`LINKED`], [`COUNTED`], [`FACING`], [`BLACK`].
    flags: u8,
}

/// The change linked the cell (else it unlinked it).
const LINKED: u8 = 1;
/// The cell counts as an attack on its square.
const COUNTED: u8 = 2;
/// The cell is a check-only (facing) path.
const FACING: u8 = 4;
/// The cell is Black's.
const BLACK: u8 = 8;

/// A node's neighbours in its list (0: the list's end).
#[derive(Clone, Copy, Debug, Default)]
struct Link {
    next: NodeId,
    prev: NodeId,
}

/// The attack map state.
#[derive(Clone, Debug)]
pub struct AttackMap {
    shift: u32,
    heads: u32,
    /// `links[id]`: the next and previous node of cells and list heads, side by side (a
    /// list change reads and writes both of a node, one cache line).
    links: Vec<Link>,
    /// Square a cell is associated with; 0 when it is not.
    node_sq: Vec<Sq>,
    /// `count[colour][sq]`: cells of that colour attacking the square.
    count: [Vec<u16>; 2],
    /// `facing[colour][sq]`: check-only cells of that colour reaching the square (flying
    /// general, bikjang).
    facing: [Vec<u16>; 2],
    /// `linked[slot]`: the slot's cells associated with a square, so that the evaluation can
    /// count a man's mobility from the lists of the squares its own side holds instead of
    /// walking all its cells ([`Position::mobilities`]).
    linked: Vec<u16>,
    /// Every list change since the log was last cleared, oldest first: unmake takes them
    /// back in reverse order ([`AttackMap::rollback`]), which restores the lists exactly
    /// (order included) for a fraction of a re-walk's cost.
    log: Vec<Change>,
}

impl AttackMap {
    /// An empty map for a layout.
    pub fn new(lay: &Layout) -> AttackMap {
        let shift = usize::BITS - (lay.max_cells.max(2) - 1).leading_zeros();
        let heads = ((MAX_SLOT + 1) << shift) as u32;
        let total = heads as usize + 2 * lay.size;
        AttackMap {
            shift,
            heads,
            links: vec![Link::default(); total],
            node_sq: vec![0; heads as usize],
            count: [vec![0; lay.size], vec![0; lay.size]],
            facing: [vec![0; lay.size], vec![0; lay.size]],
            linked: vec![0; MAX_SLOT + 1],
            log: Vec::new(),
        }
    }

    /// Builds the map from scratch by walking every man's trajectories.
    pub fn build(pos: &Position) -> AttackMap {
        let mut map = AttackMap::new(&pos.lay);
        let view = View {
            lay: &pos.lay,
            board: &pos.board,
            men: &pos.men,
        };
        for (slot, _) in pos.live() {
            map.associate_man(&view, slot);
        }
        map.clear_log();
        map
    }

    #[inline]
    fn head(&self, sq: Sq, colour: Colour) -> NodeId {
        self.heads + 2 * sq as u32 + colour.index() as u32
    }

    /// True when `colour` attacks `sq`.
    #[inline]
    pub fn attacked(&self, colour: Colour, sq: Sq) -> bool {
        self.count[colour.index()][sq as usize] != 0
    }

    /// True when a check-only path of `colour` reaches `sq` (a royal facing another).
    #[inline]
    pub fn faced(&self, colour: Colour, sq: Sq) -> bool {
        self.facing[colour.index()][sq as usize] != 0
    }

    /// Number of cells of `colour` attacking `sq`.
    #[inline]
    pub fn attackers(&self, colour: Colour, sq: Sq) -> u16 {
        self.count[colour.index()][sq as usize]
    }

    /// Number of the slot's cells associated with a square.
    #[inline]
    pub fn linked(&self, slot: Slot) -> u16 {
        self.linked[slot as usize]
    }

    /// The cells of `colour` that reach `sq`.
    pub fn cells_at(&self, sq: Sq, colour: Colour) -> CellIter<'_> {
        CellIter {
            map: self,
            cur: self.links[self.head(sq, colour) as usize].next,
        }
    }

    /// Slot and cell index of a map id.
    #[inline]
    pub fn split(&self, id: NodeId) -> (Slot, u16) {
        (
            (id >> self.shift) as Slot,
            (id & ((1 << self.shift) - 1)) as u16,
        )
    }

    /// Map id of a slot's cell.
    #[inline]
    pub fn id(&self, slot: Slot, cell: u16) -> NodeId {
        ((slot as u32) << self.shift) | cell as u32
    }

    /// The association squares of a slot's first `n` cells (0: not associated), in cell order.
    #[inline]
    pub fn slot_squares(&self, slot: Slot, n: usize) -> &[Sq] {
        let base = self.id(slot, 0) as usize;
        &self.node_sq[base..base + n]
    }

    /// The square a cell is associated with, if it is.
    #[inline]
    pub fn square_of(&self, id: NodeId) -> Option<Sq> {
        match self.node_sq[id as usize] {
            0 => None,
            sq => Some(sq),
        }
    }

    fn link(&mut self, id: NodeId, sq: Sq, colour: Colour, rights: u16) {
        let h = self.head(sq, colour);
        self.insert_after(id, h, sq);
        let flags = LINKED | Self::flags(colour, rights);
        self.bump(sq, flags, 1);
        self.log.push(Change {
            id,
            prev: h,
            sq,
            flags,
        });
    }

    fn unlink(&mut self, id: NodeId, colour: Colour, rights: u16) {
        let p = self.links[id as usize].prev;
        let sq = self.take_out(id);
        let flags = Self::flags(colour, rights);
        self.bump(sq, flags, -1);
        self.log.push(Change {
            id,
            prev: p,
            sq,
            flags,
        });
    }

    /// The counter flags of a cell of `colour` with `rights`.
    #[inline]
    fn flags(colour: Colour, rights: u16) -> u8 {
        let mut f = if colour == Colour::Black { BLACK } else { 0 };
        if rights & ATTACK_RIGHTS != 0 && rights & rights::TAME == 0 {
            f |= COUNTED;
        }
        if rights & rights::CHECK_ONLY != 0 {
            f |= FACING;
        }
        f
    }

    /// Adds `delta` to the counters of `sq` that the flags name.
    #[inline]
    fn bump(&mut self, sq: Sq, flags: u8, delta: i16) {
        let c = usize::from(flags & BLACK != 0);
        if flags & COUNTED != 0 {
            let n = &mut self.count[c][sq as usize];
            *n = n.wrapping_add_signed(delta);
        }
        if flags & FACING != 0 {
            let n = &mut self.facing[c][sq as usize];
            *n = n.wrapping_add_signed(delta);
        }
    }

    #[inline]
    fn insert_after(&mut self, id: NodeId, p: NodeId, sq: Sq) {
        self.linked[(id >> self.shift) as usize] += 1;
        let n = self.links[p as usize].next;
        self.links[id as usize] = Link { next: n, prev: p };
        self.links[n as usize].prev = id;
        self.links[p as usize].next = id;
        self.node_sq[id as usize] = sq;
    }

    /// Unlinks `id` from its list; returns the square it was associated with.
    #[inline]
    fn take_out(&mut self, id: NodeId) -> Sq {
        self.linked[(id >> self.shift) as usize] -= 1;
        let Link { next: n, prev: p } = self.links[id as usize];
        self.links[p as usize].next = n;
        self.links[n as usize].prev = p;
        let sq = self.node_sq[id as usize];
        self.node_sq[id as usize] = 0;
        sq
    }

    /// Length of the change log, to hand back to [`AttackMap::rollback`].
    #[inline]
    pub fn log_len(&self) -> usize {
        self.log.len()
    }

    /// Takes back every change logged after the log had `len` entries, newest first.
    pub fn rollback(&mut self, len: usize) {
        while self.log.len() > len {
            let Some(c) = self.log.pop() else { break };
            if c.flags & LINKED != 0 {
                self.take_out(c.id);
                self.bump(c.sq, c.flags, -1);
            } else {
                self.insert_after(c.id, c.prev, c.sq);
                self.bump(c.sq, c.flags, 1);
            }
        }
    }

    /// Forgets the log (after a set-up change, which no unmake will take back).
    pub fn clear_log(&mut self) {
        self.log.clear();
    }

    /// Associates every trajectory of the man in `slot` from its square.
    pub fn associate_man(&mut self, v: &View, slot: Slot) {
        let Some(man) = v.men[slot as usize] else {
            return;
        };
        let table = &v.lay.kinds[man.kind as usize].cells[man.colour.index()];
        for &root in &table.roots {
            let cell = &table.cells[root as usize];
            if cell.from_zone != NO_ZONE && !v.lay.in_zone(man.colour, cell.from_zone, man.sq) {
                continue;
            }
            self.associate(v, &man, slot, table, root, man.sq);
        }
    }

    /// Dissociates every cell of the man in `slot`.
    pub fn dissociate_man(&mut self, v: &View, slot: Slot) {
        let Some(man) = v.men[slot as usize] else {
            return;
        };
        let table = &v.lay.kinds[man.kind as usize].cells[man.colour.index()];
        for &root in &table.roots {
            let id = self.id(slot, root);
            if self.node_sq[id as usize] != 0 {
                self.dissociate(table, man.colour, slot, root);
            }
        }
    }

    /// Associates cell `c` (and what follows it) reached from square `from`. The only child
    /// of a slider's cell is followed in a loop, side branches recursively.
    fn associate(&mut self, v: &View, man: &Man, slot: Slot, t: &CellTable, c: u16, from: Sq) {
        let (mut c, mut from) = (c, from);
        loop {
            let cell = &t.cells[c as usize];
            let sq = (from as i32 + cell.offset as i32) as Sq;
            // A man's own square is empty for its own paths (the Chu lion steps out and back).
            let occ = match v.board[sq as usize] {
                s if s == slot => EMPTY,
                s => s,
            };
            if occ == OFF || (cell.zone != NO_ZONE && !v.lay.in_zone(man.colour, cell.zone, sq)) {
                return;
            }
            self.link(self.id(slot, c), sq, man.colour, cell.rights);
            let (lo, hi) = continuation(v, man, cell, occ);
            if hi == lo {
                return;
            }
            for i in lo + 1..hi {
                self.associate(v, man, slot, t, t.children[i as usize], sq);
            }
            c = t.children[lo as usize];
            from = sq;
        }
    }

    /// Dissociates cell `c` and every associated cell below it.
    fn dissociate(&mut self, t: &CellTable, colour: Colour, slot: Slot, c: u16) {
        let cell = &t.cells[c as usize];
        self.unlink(self.id(slot, c), colour, cell.rights);
        self.dissociate_children(t, colour, slot, cell);
    }

    fn dissociate_children(&mut self, t: &CellTable, colour: Colour, slot: Slot, cell: &Cell) {
        for i in cell.empty.0..cell.occupied.1 {
            let child = t.children[i as usize];
            if self.node_sq[self.id(slot, child) as usize] != 0 {
                self.dissociate(t, colour, slot, child);
            }
        }
    }

    /// A wall now stands on `sq` (the board already shows it): every cell there leaves the
    /// map with its subtree, since no path enters a wall and none goes on from it.
    pub fn wall_put(&mut self, v: &View, sq: Sq) {
        let mut ids: Vec<NodeId> = Vec::new();
        for colour in [Colour::White, Colour::Black] {
            let mut id = self.links[self.head(sq, colour) as usize].next;
            while id != 0 {
                ids.push(id);
                id = self.links[id as usize].next;
            }
        }
        for id in ids {
            if self.node_sq[id as usize] != sq {
                continue; // gone with an ancestor's subtree already
            }
            let (slot, c) = self.split(id);
            let Some(man) = v.men[slot as usize] else {
                continue;
            };
            let t = &v.lay.kinds[man.kind as usize].cells[man.colour.index()];
            self.dissociate(t, man.colour, slot, c);
        }
    }

    /// Re-walks the continuations of every cell reaching `sq` after its occupant changed
    /// from `old` (a slot's former man, or `None` for empty) to what the board now holds.
    ///
    /// The square's lists are read completely before anything is re-walked, so re-walks
    /// (which unlink cells and link new ones at the list heads) never disturb the reading.
    /// Up to [`REFRESH_INLINE`] cells are kept on the stack; a square with more (a crowd of
    /// multi-leg pieces on a large board) spills the rest into a heap vector.
    pub fn refresh(&mut self, v: &View, sq: Sq, old: Option<Man>) {
        let mut buf: arrayvec::ArrayVec<NodeId, REFRESH_INLINE> = arrayvec::ArrayVec::new();
        let mut spill: Vec<NodeId> = Vec::new();
        for colour in [Colour::White, Colour::Black] {
            let mut id = self.links[self.head(sq, colour) as usize].next;
            while id != 0 {
                if let Err(full) = buf.try_push(id) {
                    spill.push(full.element());
                }
                id = self.links[id as usize].next;
            }
        }
        self.refresh_cells(v, sq, old, &buf);
        if !spill.is_empty() {
            #[cfg(test)]
            tests::SPILLS.with(|n| n.set(n.get() + 1));
            self.refresh_cells(v, sq, old, &spill);
        }
    }

    fn refresh_cells(&mut self, v: &View, sq: Sq, old: Option<Man>, ids: &[NodeId]) {
        let new_slot = v.board[sq as usize];
        for &id in ids {
            if self.node_sq[id as usize] != sq {
                continue; // removed (or moved) by an earlier refresh in this batch
            }
            let (slot, c) = self.split(id);
            let Some(man) = v.men[slot as usize] else {
                continue;
            };
            let t = &v.lay.kinds[man.kind as usize].cells[man.colour.index()];
            let cell = &t.cells[c as usize];
            if cell.empty.0 == cell.occupied.1 {
                continue; // a leaf: nothing continues from here
            }
            let before = continuation_for(v, &man, cell, old.as_ref());
            let after = continuation(v, &man, cell, new_slot);
            if before == after {
                continue;
            }
            self.dissociate_children(t, man.colour, slot, cell);
            for i in after.0..after.1 {
                self.associate(v, &man, slot, t, t.children[i as usize], sq);
            }
        }
    }
}

/// Continuation range of `cell` for `mover` when the square holds `occ` (a board value).
#[inline]
fn continuation(v: &View, mover: &Man, cell: &Cell, occ: Slot) -> (u16, u16) {
    match occ {
        EMPTY => cell.empty,
        OFF => (0, 0),
        s => continuation_for(v, mover, cell, v.men[s as usize].as_ref()),
    }
}

/// Continuation range of `cell` for `mover` over `occupant` (`None`: empty square): none
/// when the cell may not pass that occupant, nor capture it in passing where it would.
pub(crate) fn continuation_for(
    v: &View,
    mover: &Man,
    cell: &Cell,
    occupant: Option<&Man>,
) -> (u16, u16) {
    let Some(o) = occupant else {
        return cell.empty;
    };
    let (pass, locust) = if o.colour == mover.colour {
        (rights::PASS_FRIEND, rights::LOCUST_FRIEND)
    } else {
        (rights::PASS_FOE, rights::LOCUST_FOE)
    };
    if cell.rights & pass == 0 {
        return (0, 0);
    }
    let (mp, op) = (
        v.lay.kinds[mover.kind as usize].piece as usize,
        v.lay.kinds[o.kind as usize].piece as usize,
    );
    // A path that would capture the man in passing stops at it when the mover may not
    // capture it (iron men, `noCapture`): no locust victim the rules protect.
    if v.lay.no_hop[mp][op] || cell.rights & locust != 0 && v.lay.no_capture[mp][op] {
        return (0, 0);
    }
    cell.occupied
}

/// Iterator over the cells in one square's list.
pub struct CellIter<'a> {
    map: &'a AttackMap,
    cur: NodeId,
}

impl Iterator for CellIter<'_> {
    type Item = NodeId;
    #[inline]
    fn next(&mut self) -> Option<NodeId> {
        if self.cur == 0 {
            return None;
        }
        let id = self.cur;
        self.cur = self.map.links[id as usize].next;
        Some(id)
    }
}

/// One (square, colour) entry of [`AttackMap::canonical`]: cell ids and the two counters.
pub type Canonical = (Sq, usize, Vec<NodeId>, (u16, u16));

impl AttackMap {
    /// Canonical content for comparing two maps: per (square, colour), the sorted cell ids,
    /// plus the counters. List order may differ between incremental and scratch builds.
    pub fn canonical(&self, lay: &Layout) -> Vec<Canonical> {
        let mut out = Vec::new();
        for sq in lay.squares() {
            for colour in [Colour::White, Colour::Black] {
                let mut ids: Vec<NodeId> = self.cells_at(sq, colour).collect();
                ids.sort_unstable();
                let counts = (
                    self.attackers(colour, sq),
                    self.facing[colour.index()][sq as usize],
                );
                out.push((sq, colour.index(), ids, counts));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::cell::Cell;

    use super::REFRESH_INLINE;
    use crate::board::position::Position;
    use crate::board::types::Colour;

    thread_local! {
        /// Times this thread's refreshes found more cells on a square than the inline buffer
        /// holds (test builds only).
        pub(super) static SPILLS: Cell<usize> = const { Cell::new(0) };
    }

    /// 16x16, a crowd of four-step walkers (`mpampampaK`: three king steps over empty or
    /// occupied squares, then a fourth that may end) in the middle of the board: over a
    /// thousand of their cells reach the busiest squares, many through loops that leave a
    /// square and come back, and every change of occupancy there re-walks their paths.
    const CROWD: &str = "\
[crowd]
maxFile = 16
maxRank = 16
king = k:K
piece.walker = w:mpampampaK
castling = false
doubleStep = false
promotionPieceTypes = -
promotionPawnTypes = -
startFen = k15/16/16/16/5w1w1w1w4/4W1W1W1W1W3/5w1w1w1w4/4W1W1W1W1W3/5w1w1w1w4/4W1W1W1W1W3/16/16/16/16/16/15K w - - 0 1
";

    #[test]
    fn refresh_past_the_inline_buffer_keeps_the_map_exact() {
        let v = variants::load_str(CROWD, "crowd.ini").unwrap().remove(0);
        let mut pos = Position::new_game(v).unwrap();
        assert_eq!(pos.inconsistency(), None);
        let most = pos
            .lay
            .squares()
            .map(|sq| {
                let n = |c| pos.map.cells_at(sq, c).count();
                n(Colour::White) + n(Colour::Black)
            })
            .max()
            .unwrap_or(0);
        assert!(
            most > REFRESH_INLINE,
            "only {most} cells on the busiest square"
        );
        let (mut ops, mut moves) = (Vec::new(), Vec::new());
        let mut rng = 0x2545_F491_4F6C_DD1Du64;
        let mut stack = Vec::new();
        let before = SPILLS.with(Cell::get);
        for ply in 0..200 {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            moves.clear();
            pos.pseudo_moves(&mut moves);
            if moves.is_empty() || ply % 5 == 4 {
                let (saved, fen) = stack.pop().unwrap();
                pos.unmake(saved, &mut ops);
                assert_eq!(pos.fen(), fen);
            } else {
                let m = moves[(rng % moves.len() as u64) as usize];
                let fen = pos.fen();
                stack.push((pos.make(&m, &mut ops), fen));
            }
            if let Some(e) = pos.inconsistency() {
                panic!("ply {ply}: {e}\nFEN {}", pos.fen());
            }
        }
        while let Some((saved, _)) = stack.pop() {
            pos.unmake(saved, &mut ops);
        }
        assert_eq!(pos.inconsistency(), None);
        let spills = SPILLS.with(Cell::get) - before;
        assert!(spills > 0, "no refresh overflowed the inline buffer");
    }
}
