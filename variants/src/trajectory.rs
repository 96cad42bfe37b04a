//! Compiled piece moves: trajectory trees, the board-independent form of H.G. Muller's
//! moveTable cells. The engine lays these out per square and walks them; it never sees XBetza.
//!
//! A piece's moves are a forest of [`Node`]s. Each node is one square visited on a path,
//! given as a step from the square of its parent (for a root: from the piece's own square).
//! Steps are seen from White's side (`dr > 0` is forward); the engine mirrors ranks for Black.
//! What the path may do on a square depends on what stands there:
//!
//! * `rights` says whether the move may *end* on this square when it is empty ([`rights::MOVE`]),
//!   holds a foe ([`rights::CAPTURE`]) or a friend ([`rights::DESTROY`]), and more;
//! * `on_empty` lists the continuations taken when the square is empty;
//! * `on_occupied` lists the continuations taken when the square is occupied, subject to the
//!   `PASS_*` rights (hop over a friend / foe), and `LOCUST_*` rights say whether the piece
//!   passed over is captured (a locust capture).
//!
//! Every node is a tree node: it has at most one parent. A path of a slider is a chain of
//! nodes; a lame leaper is a chain whose inner nodes have no end rights; a multi-leg move is a
//! subtree hanging from the node where the next leg starts.

/// Index of a node within its piece's [`Trajectories::nodes`].
pub type NodeId = u16;

/// Bit flags of [`Node::rights`].
pub mod rights {
    /// May end here when the square is empty (a non-capture; XBetza `m`).
    pub const MOVE: u16 = 1 << 0;
    /// May end here on a foe, capturing it by replacement (XBetza `c`).
    pub const CAPTURE: u16 = 1 << 1;
    /// May end here on a friend, capturing it (XBetza `d`).
    pub const DESTROY: u16 = 1 << 2;
    /// May end here on an empty en-passant square, capturing the piece that passed it
    /// (XBetza `e`).
    pub const EN_PASSANT: u16 = 1 << 3;
    /// Reaching a royal here gives check, although the move itself is not allowed
    /// (XBetza `k`-only paths, e.g. the flying-general rule).
    pub const CHECK_ONLY: u16 = 1 << 4;
    /// A capture ending here may not take a royal piece (XBetza `t` in a final leg).
    pub const TAME: u16 = 1 << 5;
    /// A move ending here makes the empty squares passed on its way en-passant squares
    /// (the pawn's initial double step).
    pub const SETS_EP: u16 = 1 << 6;
    /// The path continues over a friend standing here without harming it (hop).
    pub const PASS_FRIEND: u16 = 1 << 7;
    /// The path continues over a foe standing here (hop, or locust capture with
    /// [`LOCUST_FOE`]).
    pub const PASS_FOE: u16 = 1 << 8;
    /// Continuing over a foe here captures it (locust capture; XBetza `c` in a non-final leg).
    pub const LOCUST_FOE: u16 = 1 << 9;
    /// Continuing over a friend here captures it (XBetza `d` in a non-final leg).
    pub const LOCUST_FRIEND: u16 = 1 << 10;
    /// Only a piece that has not moved yet may use this path (XBetza `i`). Set on a root and
    /// meaningful for its whole subtree.
    pub const INITIAL: u16 = 1 << 11;
    /// Every end right at once: the plain XBetza default `mc`.
    pub const MOVE_OR_CAPTURE: u16 = MOVE | CAPTURE;
}

/// One square on a trajectory.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Node {
    /// Step from the parent's square (for a root: from the piece's square) as
    /// (files to the right, ranks forward), seen from White.
    pub step: (i8, i8),
    /// The parent node, `None` for a root.
    pub parent: Option<NodeId>,
    /// Flags from [`rights`].
    pub rights: u16,
    /// Continuations when this square is empty.
    pub on_empty: Vec<NodeId>,
    /// Continuations when this square is occupied and a `PASS_*` right allows it.
    pub on_occupied: Vec<NodeId>,
    /// The square must lie in this zone of the variant (for the moving side) or the path is
    /// cut here, as if it left the board (palaces, the elephant's own half). `None`: anywhere.
    pub zone: Option<u8>,
    /// For a root: the path exists only while the piece stands in this zone (xiangqi soldiers
    /// move sideways only beyond the river). `None`: anywhere.
    pub from_zone: Option<u8>,
}

impl Node {
    /// A node with the given step and rights and no continuations.
    pub fn new(step: (i8, i8), rights: u16) -> Self {
        Node {
            step,
            parent: None,
            rights,
            on_empty: Vec::new(),
            on_occupied: Vec::new(),
            zone: None,
            from_zone: None,
        }
    }

    /// True when a move may end on this square in some occupancy.
    pub fn can_end(&self) -> bool {
        self.rights & (rights::MOVE | rights::CAPTURE | rights::DESTROY | rights::EN_PASSANT) != 0
    }
}

/// All moves of one piece type as a forest of nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Trajectories {
    /// Every node; children always come after their parent.
    pub nodes: Vec<Node>,
    /// The roots, i.e. the first squares of every path.
    pub roots: Vec<NodeId>,
    /// Castling (XBetza `O<n>`): the royal moves this many squares towards the rook.
    pub castling: Option<u8>,
}

impl Trajectories {
    /// Adds a node under `parent` (or as a root), linking it into the parent's list for the
    /// given occupancy (`occupied == false`: `on_empty`), and returns its id.
    pub fn push(&mut self, mut node: Node, parent: Option<(NodeId, bool)>) -> NodeId {
        let id = self.nodes.len() as NodeId;
        node.parent = parent.map(|(p, _)| p);
        self.nodes.push(node);
        match parent {
            None => self.roots.push(id),
            Some((p, false)) => self.nodes[p as usize].on_empty.push(id),
            Some((p, true)) => self.nodes[p as usize].on_occupied.push(id),
        }
        id
    }

    /// The trajectories with every `INITIAL` root removed: the moves of the piece once it has
    /// moved. Node ids are renumbered.
    pub fn without_initial(&self) -> Trajectories {
        let mut out = Trajectories {
            castling: None,
            ..Trajectories::default()
        };
        for &r in &self.roots {
            if self.nodes[r as usize].rights & rights::INITIAL == 0 {
                self.copy_subtree(r, None, &mut out);
            }
        }
        out
    }

    /// True when some root is an initial-only path or the piece can castle.
    pub fn has_initial(&self) -> bool {
        self.castling.is_some()
            || self
                .roots
                .iter()
                .any(|&r| self.nodes[r as usize].rights & rights::INITIAL != 0)
    }

    fn copy_subtree(&self, id: NodeId, parent: Option<(NodeId, bool)>, out: &mut Trajectories) {
        let node = &self.nodes[id as usize];
        let mut copy = node.clone();
        copy.on_empty.clear();
        copy.on_occupied.clear();
        let new_id = out.push(copy, parent);
        for &c in &node.on_empty {
            self.copy_subtree(c, Some((new_id, false)), out);
        }
        for &c in &node.on_occupied {
            self.copy_subtree(c, Some((new_id, true)), out);
        }
    }

    /// Walks the trajectories from `from` on a board of `files` x `ranks` and returns every
    /// square where a move may end, with the end rights that apply there. `occupant` tells
    /// what stands on a square: `None` empty, `Some(true)` a friend, `Some(false)` a foe.
    /// This is the slow, obviously correct walk that tests and the reference generator use;
    /// the engine has its own incremental one.
    pub fn targets(
        &self,
        from: (i32, i32),
        files: i32,
        ranks: i32,
        occupant: &dyn Fn(i32, i32) -> Option<bool>,
    ) -> Vec<(i32, i32, u16)> {
        let mut out = Vec::new();
        for &r in &self.roots {
            self.walk(r, from, files, ranks, occupant, &mut out);
        }
        out
    }

    /// True when some path from `from` can end on an empty board of `files` x `ranks`: the
    /// piece is not stuck there. Stops at the first such square (cheaper than `targets`).
    pub fn can_move_from(&self, from: (i32, i32), files: i32, ranks: i32) -> bool {
        self.roots
            .iter()
            .any(|&r| self.moves_on_empty(r, from, files, ranks))
    }

    fn moves_on_empty(&self, id: NodeId, at: (i32, i32), files: i32, ranks: i32) -> bool {
        let node = &self.nodes[id as usize];
        let (f, r) = (at.0 + node.step.0 as i32, at.1 + node.step.1 as i32);
        if f < 0 || r < 0 || f >= files || r >= ranks {
            return false;
        }
        node.rights & (rights::MOVE | rights::EN_PASSANT) != 0
            || node
                .on_empty
                .iter()
                .any(|&c| self.moves_on_empty(c, (f, r), files, ranks))
    }

    fn walk(
        &self,
        id: NodeId,
        at: (i32, i32),
        files: i32,
        ranks: i32,
        occupant: &dyn Fn(i32, i32) -> Option<bool>,
        out: &mut Vec<(i32, i32, u16)>,
    ) {
        let node = &self.nodes[id as usize];
        let (f, r) = (at.0 + node.step.0 as i32, at.1 + node.step.1 as i32);
        if f < 0 || r < 0 || f >= files || r >= ranks {
            return;
        }
        let occ = occupant(f, r);
        let end = match occ {
            None => node.rights & (rights::MOVE | rights::EN_PASSANT),
            Some(false) => node.rights & rights::CAPTURE,
            Some(true) => node.rights & rights::DESTROY,
        };
        if end != 0 {
            out.push((f, r, end));
        }
        let next: &[NodeId] = match occ {
            None => &node.on_empty,
            Some(true) if node.rights & rights::PASS_FRIEND != 0 => &node.on_occupied,
            Some(false) if node.rights & rights::PASS_FOE != 0 => &node.on_occupied,
            _ => &[],
        };
        for &c in next {
            self.walk(c, (f, r), files, ranks, occupant, out);
        }
    }
}
