//! Staged move generation for search: first every move that removes an enemy man (replacement,
//! locust, en passant, explosions), by victim class with the highest first and the least
//! valuable attacker first within a class; then promotions that capture nothing; then the
//! remaining quiet moves, castling, drops and the pass. A search may stop after any stage, and
//! the stages together are exactly [`Position::pseudo_moves`].

use variants::rights;

use crate::board::layout::{Cell, NO_CELL};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{Man, Position};
use crate::board::types::{Slot, Sq, EMPTY, OFF};

/// Captures [`Position::gen_stage`] sorts on the stack; more go through a heap sort.
const SORT_INLINE: usize = 64;

/// One stage of the generation, in the order search should ask for them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Moves that remove at least one enemy man.
    Captures,
    /// Promotions that remove no enemy man.
    Promotions,
    /// Everything else.
    Quiets,
}

impl Stage {
    /// The stages in generation order.
    pub const ALL: [Stage; 3] = [Stage::Captures, Stage::Promotions, Stage::Quiets];
}

impl Position {
    /// Appends the pseudo-legal moves of one stage to `out`.
    pub fn gen_stage(&self, stage: Stage, out: &mut Vec<Move>) {
        let start = out.len();
        match stage {
            Stage::Captures => self.gen_capture_stage(out),
            Stage::Promotions => self.gen_promotion_stage(out),
            Stage::Quiets => self.gen_quiet_stage(out),
        }
        self.dedup_from(out, start);
        self.expand_walls(out, start);
        self.expand_gates(out, start);
    }

    /// The class of the most valuable enemy man the move removes (see
    /// [`crate::board::layout::Kind::class`]), or `None` when it removes none.
    pub fn victim_class(&self, m: &Move) -> Option<u8> {
        if m.n_extra == 0 && !self.lay.burners {
            // Only the end square can hold a victim: read it without the general chain of
            // iterators (most moves, asked for every quiet move of every staged node).
            if matches!(m.kind, MoveKind::Drop | MoveKind::Castle | MoveKind::Pass) {
                return None;
            }
            let us = self.man_at(self.lay.sq(m.from_coord()))?.colour;
            return self
                .man_at(self.lay.sq(m.to_coord()))
                .filter(|v| v.colour != us)
                .map(|v| self.lay.kinds[v.kind as usize].class);
        }
        self.enemy_victims(m)
            .map(|v| self.lay.kinds[v.kind as usize].class)
            .max()
    }

    /// The enemy men a move removes on its end and extra squares, and those a burner burns
    /// next to its end square (none for drops, castling and passes, whose squares hold no
    /// victims).
    pub(crate) fn enemy_victims<'a>(&'a self, m: &'a Move) -> impl Iterator<Item = &'a Man> + 'a {
        let mover = match m.kind {
            MoveKind::Drop | MoveKind::Castle | MoveKind::Pass => None,
            _ => self.man_at(self.lay.sq(m.from_coord())).map(|x| x.colour),
        };
        let burned = self.burned_squares(m).into_iter().flatten();
        std::iter::once(m.to_coord())
            .chain(m.extras())
            .map(|c| self.lay.sq(c))
            .chain(burned)
            .filter_map(|sq| self.man_at(sq))
            .filter(move |v| mover.is_some_and(|us| v.colour != us))
    }

    /// Value of the man that makes the move (0 for drops and passes).
    pub fn mover_value(&self, m: &Move) -> i32 {
        if matches!(m.kind, MoveKind::Drop | MoveKind::Pass) {
            return 0;
        }
        self.man_at(self.lay.sq(m.from_coord()))
            .map_or(0, |a| self.lay.kinds[a.kind as usize].value)
    }

    /// Replacement captures read from the map at each victim, plus the captures of men whose
    /// moves remove men off their landing square, sorted by class and attacker.
    fn gen_capture_stage(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.gen_captures(out);
        if self.lay.kinds.iter().any(|k| k.side_captures) {
            let side = out.len();
            for (slot, man) in self.movers().filter(|(_, m)| self.kind_side_captures(m)) {
                self.gen_man_quiets(slot, &man, out);
            }
            self.retain_from(out, side, |m| self.victim_class(m).is_some());
        }
        self.sort_captures(&mut out[start..]);
    }

    /// Sorts captures by victim class (highest first), then mover value (cheapest first).
    /// Stable: within a class and attacker value the map's victim order stays. The keys
    /// are computed once per move (a burner's class looks at its landing square's
    /// neighbours), not once per comparison; up to [`SORT_INLINE`] moves on the stack
    /// (`sort_by_cached_key` allocates its keys on the heap at every node).
    fn sort_captures(&self, moves: &mut [Move]) {
        let key = |m: &Move| (std::cmp::Reverse(self.victim_class(m)), self.mover_value(m));
        if moves.len() < 2 {
            return;
        }
        if moves.len() > SORT_INLINE {
            moves.sort_by_cached_key(key);
            return;
        }
        // (key, original index): all distinct, so the unstable sort's order is the stable one.
        // Filled in place (`collect` would build the arrays elsewhere and copy them whole).
        let mut keyed = arrayvec::ArrayVec::<_, SORT_INLINE>::new();
        for (i, m) in moves.iter().enumerate() {
            keyed.push((key(m), i));
        }
        keyed.sort_unstable();
        let mut sorted = arrayvec::ArrayVec::<Move, SORT_INLINE>::new();
        for &(_, i) in &keyed {
            sorted.push(moves[i]);
        }
        moves.copy_from_slice(&sorted);
    }

    /// Keeps, from `start` on, only the moves `keep` accepts, in their order.
    fn retain_from(&self, out: &mut Vec<Move>, start: usize, keep: impl Fn(&Move) -> bool) {
        let mut kept = start;
        for i in start..out.len() {
            let m = out[i];
            if keep(&m) {
                out[kept] = m;
                kept += 1;
            }
        }
        out.truncate(kept);
    }

    fn kind_side_captures(&self, man: &Man) -> bool {
        self.lay.kinds[man.kind as usize].side_captures
    }

    /// Promotions of men that can promote, where the move removes no enemy man.
    fn gen_promotion_stage(&self, out: &mut Vec<Move>) {
        // Generated into `out` and filtered in place (no buffer to allocate per node).
        let start = out.len();
        for (slot, man) in self.movers() {
            if !self.lay.kinds[man.kind as usize].never_promotes {
                self.gen_man_moves(slot, &man, out, false);
            }
        }
        self.retain_from(out, start, |m| {
            m.kind == MoveKind::Promotion && self.victim_class(m).is_none()
        });
        self.gen_sittuyin_promotions(out);
    }

    /// Non-captures that are not promotions: quiet moves, self-captures, castling, drops and
    /// the pass.
    fn gen_quiet_stage(&self, out: &mut Vec<Move>) {
        let start = out.len();
        self.gen_non_captures(out);
        self.retain_from(out, start, |m| {
            m.kind != MoveKind::Promotion && self.victim_class(m).is_none()
        });
    }

    /// The men of the side to move, copied out so callers may borrow the position again.
    pub(crate) fn movers(&self) -> impl Iterator<Item = (Slot, Man)> + '_ {
        let us = self.stm;
        self.live()
            .filter(move |(_, m)| m.colour == us)
            .map(|(s, m)| (s, *m))
    }

    /// The moves of one man that end on an empty square or a friend (the quiet generator's
    /// part for that man): plain moves, e.p., locust captures ending on an empty square and
    /// self-captures.
    pub(crate) fn gen_man_quiets(&self, slot: Slot, man: &Man, out: &mut Vec<Move>) {
        self.gen_man_moves(slot, man, out, true);
    }

    /// [`Position::gen_man_quiets`]; `with_plain` false leaves out the common plain moves
    /// (never promotions: the promotion stage would filter them out).
    fn gen_man_moves(&self, slot: Slot, man: &Man, out: &mut Vec<Move>, with_plain: bool) {
        let us = man.colour;
        let table = &self.lay.kinds[man.kind as usize].cells[us.index()];
        let n = table.cells.len();
        // Three slices of one length: the indexing below needs no bounds checks.
        let (cells, skip) = (&table.cells[..n], &table.skip[..n]);
        let squares = &self.map.slot_squares(slot, n)[..n];
        // The common move (to an empty square, no victims, no promotion or dead square) is
        // built here; everything else goes through `gen_cell_quiet`.
        let kind = &self.lay.kinds[man.kind as usize];
        let from = self
            .lay
            .coord(man.sq)
            .filter(|_| kind.plain_from[us.index()][man.sq as usize]);
        let plain_to = &kind.plain_to[us.index()];
        let mut i = 0;
        while i < n {
            let sq = squares[i];
            if sq == 0 {
                i = skip[i] as usize; // nothing below an unassociated cell is associated
                continue;
            }
            if kind.range_jump && self.jumped(slot, table, i as u16) {
                i = skip[i] as usize; // past a man a jumper only captures, below it too
                continue;
            }
            let cell = &cells[i];
            let plain = cell.rights & (rights::MOVE | rights::EN_PASSANT) == rights::MOVE
                && cell.locust_back == NO_CELL
                && self.board[sq as usize] == EMPTY
                && plain_to[sq as usize];
            match (from, plain) {
                (Some(f), true) => {
                    if let Some(t) = self.lay.coord(sq).filter(|_| with_plain) {
                        let mut m = Move::normal(f, t);
                        m.sets_ep = cell.rights & rights::SETS_EP != 0;
                        out.push(m);
                    }
                }
                _ => self.gen_cell_quiet(slot, man, cell, sq, out),
            }
            i += 1;
        }
    }

    /// What one associated cell of a man contributes to the non-capture moves.
    #[inline]
    fn gen_cell_quiet(&self, slot: Slot, man: &Man, cell: &Cell, sq: Sq, out: &mut Vec<Move>) {
        // The man's own square is empty for its own paths (a lion's step out and back).
        let occ = match self.board[sq as usize] {
            s if s == slot => EMPTY,
            s => s,
        };
        match occ {
            EMPTY => {
                if cell.rights & rights::MOVE != 0 {
                    self.push_move(slot, man, cell, sq, out);
                }
                if cell.rights & rights::EN_PASSANT != 0 {
                    self.push_ep(slot, man, cell, sq, out);
                }
            }
            OFF => {}
            s => {
                let friend = self.men[s as usize].is_some_and(|m| m.colour == man.colour);
                if friend && cell.rights & rights::DESTROY != 0 && self.may_self_capture(man, sq) {
                    self.push_move(slot, man, cell, sq, out);
                }
            }
        }
    }
}
