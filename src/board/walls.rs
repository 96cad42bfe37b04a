//! Walls placed by moves (Fairy-Stockfish's `wallingRule`): which squares a move may wall,
//! the walled forms of generated moves, and the make primitives that put and lift walls.
//!
//! A wall is the board value [`OFF`], as a FEN wall (`*`) is: paths stop before it and no
//! man may stand on it. Putting one dissociates every cell on its square (nothing reaches
//! it any more, and nothing went on from there but those cells' subtrees); lifting one
//! (the duck moving on) re-walks every man, since the attack map keeps no list of the
//! paths a wall cut. Both are logged, so unmake rolls them back like any other change.
//!
//! Legality ignores the wall a move places, as Fairy-Stockfish's test of a king does: a
//! move is legal when its unwalled form is, and every wall square it may take is a move.

use variants::geometry::Coord;
use variants::{rights, Walling, WallingRule};

use crate::board::attack::{continuation_for, View};
use crate::board::layout::NO_ZONE;
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{Man, Position};
use crate::board::types::{Sq, EMPTY, OFF};

/// The board around a move as its wall sees it: squares the move leaves and fills.
struct After {
    vacated: [Option<Sq>; 2],
    filled: [Option<Sq>; 2],
}

impl After {
    fn empty(&self, pos: &Position, sq: Sq) -> bool {
        if self.filled.contains(&Some(sq)) {
            return false;
        }
        self.vacated.contains(&Some(sq)) || pos.board[sq as usize] == EMPTY
    }
}

impl Position {
    /// The variant's walling rule, if any.
    #[inline]
    pub fn walling(&self) -> Option<&Walling> {
        self.lay.variant.walling.as_ref()
    }

    /// Replaces the moves in `out[start..]` by their walled forms (one per square the rule
    /// allows; a move with none is dropped). Under `wallOrMove` the moves stay unwalled.
    #[inline]
    pub(crate) fn expand_walls(&self, out: &mut Vec<Move>, start: usize) {
        if let Some(w) = self.walling().filter(|w| !w.or_move) {
            self.expand_walls_by(w, out, start);
        }
    }

    #[inline(never)]
    fn expand_walls_by(&self, w: &Walling, out: &mut Vec<Move>, start: usize) {
        let base: Vec<Move> = out.drain(start..).collect();
        let mut squares = Vec::new();
        for m in base {
            squares.clear();
            self.wall_squares(&m, w, &mut squares);
            out.extend(
                squares
                    .iter()
                    .filter_map(|&s| self.lay.coord(s))
                    .map(|c| m.with_wall(Some(c))),
            );
        }
    }

    /// `wallOrMove`: the passes that place a wall, written from the first square (rank by
    /// rank from a1) holding a man of the side to move, as Fairy-Stockfish writes them.
    #[inline]
    pub(crate) fn push_wall_passes(&self, out: &mut Vec<Move>) {
        if let Some(w) = self.walling().filter(|w| w.or_move) {
            self.push_wall_passes_by(w, out);
        }
    }

    #[inline(never)]
    fn push_wall_passes_by(&self, w: &Walling, out: &mut Vec<Move>) {
        let us = self.stm;
        let Some(at) = self
            .live()
            .filter(|(_, m)| m.colour == us)
            .filter_map(|(_, m)| self.lay.coord(m.sq))
            .min_by_key(|c| c.index())
        else {
            return;
        };
        let mut pass = Move::normal(at, at);
        pass.kind = MoveKind::Pass;
        let mut squares = Vec::new();
        self.wall_squares(&pass, w, &mut squares);
        out.extend(
            squares
                .iter()
                .filter_map(|&s| self.lay.coord(s))
                .map(|c| pass.with_wall(Some(c))),
        );
    }

    /// The squares the unwalled move `m` of the side to move may wall.
    fn wall_squares(&self, m: &Move, w: &Walling, out: &mut Vec<Sq>) {
        let after = self.after(m);
        let region = &w.region[self.stm.index()];
        let allowed = |sq: Sq| {
            self.lay.coord(sq).is_some_and(|c| region.contains(c)) && after.empty(self, sq)
        };
        match w.rule {
            WallingRule::Past => {
                let from = self.lay.sq(m.from_coord());
                if m.kind != MoveKind::Drop && allowed(from) {
                    out.push(from);
                }
            }
            WallingRule::Arrow => self.arrow_squares(m, &after, out),
            WallingRule::Static | WallingRule::Duck => {
                out.extend(self.lay.squares().filter(|&s| allowed(s)));
            }
            WallingRule::Edge => {
                out.extend(
                    self.lay
                        .squares()
                        .filter(|&s| allowed(s) && (self.on_edge(s) || self.next_to_wall(s))),
                );
            }
        }
        if w.rule == WallingRule::Arrow {
            out.retain(|&s| allowed(s));
        }
    }

    /// The squares `m` leaves and fills, as Fairy-Stockfish counts them for its wall: the
    /// start square, an e.p. victim's or a castling rook's square left; the end square (and
    /// the rook's) filled. Other victims count as left too.
    fn after(&self, m: &Move) -> After {
        let to = self.lay.sq(m.to_coord());
        let from = self.lay.sq(m.from_coord());
        match m.kind {
            MoveKind::Pass => After {
                vacated: [None; 2],
                filled: [None; 2],
            },
            MoveKind::Drop => After {
                vacated: [None; 2],
                filled: [Some(to), None],
            },
            MoveKind::Castle => {
                let rook_from = self.lay.sq(Coord::from_index(m.extra[0] as usize));
                let step = if rook_from > from { -1 } else { 1 };
                let rook_to = (to as i32 + step) as Sq;
                After {
                    vacated: [Some(from), Some(rook_from)],
                    filled: [Some(to), Some(rook_to)],
                }
            }
            _ => After {
                vacated: [Some(from), m.extras().next().map(|c| self.lay.sq(c))],
                filled: [Some(to), None],
            },
        }
    }

    fn on_edge(&self, sq: Sq) -> bool {
        self.lay.coord(sq).is_some_and(|c| {
            c.file == 0
                || c.rank == 0
                || c.file + 1 == self.lay.files
                || c.rank + 1 == self.lay.ranks
        })
    }

    /// True when a wall stands on a square orthogonally next to `sq` (on the board).
    fn next_to_wall(&self, sq: Sq) -> bool {
        let Some(c) = self.lay.coord(sq) else {
            return false;
        };
        let (f, r) = (c.file as i32, c.rank as i32);
        [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|&(df, dr)| {
            let (nf, nr) = (f + df, r + dr);
            let inside =
                nf >= 0 && nr >= 0 && nf < self.lay.files as i32 && nr < self.lay.ranks as i32;
            inside && self.board[self.lay.sq(Coord::new(nf as u8, nr as u8)) as usize] == OFF
        })
    }

    /// Amazons' arrow: the squares the moved man could move to (without capturing) from
    /// its end square, on the board after the move; its type as it moved.
    fn arrow_squares(&self, m: &Move, after: &After, out: &mut Vec<Sq>) {
        if m.kind == MoveKind::Pass {
            return;
        }
        let from = self.lay.sq(m.from_coord());
        let to = self.lay.sq(m.to_coord());
        let Some(man) = self.man_at(from).copied() else {
            return;
        };
        let kind = self.lay.kinds[man.kind as usize].used;
        let mover = Man {
            kind,
            colour: man.colour,
            sq: to,
            promoted: man.promoted,
        };
        let t = &self.lay.kinds[kind as usize].cells[mover.colour.index()];
        let v = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        for &root in &t.roots {
            let cell = &t.cells[root as usize];
            if cell.from_zone == NO_ZONE || self.lay.in_zone(mover.colour, cell.from_zone, to) {
                self.arrow_walk(&v, &mover, root, to, after, out);
            }
        }
        out.sort_unstable();
        out.dedup();
    }

    fn arrow_walk(&self, v: &View, mover: &Man, c: u16, at: Sq, after: &After, out: &mut Vec<Sq>) {
        let t = &self.lay.kinds[mover.kind as usize].cells[mover.colour.index()];
        let cell = &t.cells[c as usize];
        let sq = (at as i32 + cell.offset as i32) as Sq;
        if self.board[sq as usize] == OFF
            || (cell.zone != NO_ZONE && !self.lay.in_zone(mover.colour, cell.zone, sq))
        {
            return;
        }
        let occupant = if sq == mover.sq || after.empty(self, sq) {
            None
        } else {
            self.man_at(sq)
        };
        if occupant.is_none() && cell.rights & rights::MOVE != 0 && sq != mover.sq {
            out.push(sq);
        }
        let (lo, hi) = continuation_for(v, mover, cell, occupant);
        for i in lo..hi {
            self.arrow_walk(v, mover, t.children[i as usize], sq, after, out);
        }
    }

    /// Places the move's wall (make's last step): under the duck rule the walls standing
    /// are lifted first. Recorded for unmake; the key takes each wall in and out.
    #[inline]
    pub(crate) fn make_wall(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        if let Some(sq) = self.stone.take() {
            self.put_wall(sq, ops);
        }
        if let Some(c) = mv.wall_coord() {
            self.place_wall(c, ops);
        }
    }

    #[inline(never)]
    fn place_wall(&mut self, c: Coord, ops: &mut Vec<Op>) {
        self.lift_ducks(ops);
        self.put_wall(self.lay.sq(c), ops);
    }

    /// Under the duck rule, lifts the walls standing (a move's first step in placing its
    /// own). Logged for unmake.
    pub(crate) fn lift_ducks(&mut self, ops: &mut Vec<Op>) {
        if !self.walling().is_some_and(|w| w.rule == WallingRule::Duck) {
            return;
        }
        let standing: Vec<Sq> = self
            .lay
            .squares()
            .filter(|&s| self.board[s as usize] == OFF)
            .collect();
        if !standing.is_empty() {
            for &s in &standing {
                self.board[s as usize] = EMPTY;
                self.key ^= self.zob.wall(s);
                ops.push(Op::Unwall(s));
            }
            self.rewalk_all();
        }
    }

    /// Whether the rule's own wall shields the mover in its legality test
    /// ([`variants::Walling::shields`]: pseudo-royal men).
    #[inline]
    pub(crate) fn walls_shield(&self) -> bool {
        self.walling().is_some_and(|w| w.shields)
    }

    /// Puts a wall on the empty square `sq` (a placed wall, or a petrified man's square).
    pub(crate) fn put_wall(&mut self, sq: Sq, ops: &mut Vec<Op>) {
        self.board[sq as usize] = OFF;
        self.key ^= self.zob.wall(sq);
        ops.push(Op::Wall(sq));
        let v = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        self.map.wall_put(&v, sq);
    }

    /// Every man's paths walked again (a wall was lifted: paths it cut go on now).
    fn rewalk_all(&mut self) {
        let slots: Vec<u8> = self.live().map(|(s, _)| s).collect();
        let v = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        for &s in &slots {
            self.map.dissociate_man(&v, s);
            self.map.associate_man(&v, s);
        }
    }

    /// True when walls come and go during the game: placed by moves, or left by petrified
    /// men (`petrifyOnCaptureTypes`).
    #[inline]
    pub fn walls_change(&self) -> bool {
        self.walling().is_some() || !self.lay.variant.petrify.is_empty()
    }

    /// The key of the walls on the board (where walls change: FEN walls of others are
    /// part of the board and never change).
    pub(crate) fn walls_key(&self) -> u64 {
        if !self.walls_change() {
            return 0;
        }
        self.lay
            .squares()
            .filter(|&s| self.board[s as usize] == OFF)
            .fold(0, |k, s| k ^ self.zob.wall(s))
    }
}
