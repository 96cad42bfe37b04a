//! Make and unmake. A move is applied as a sequence of primitive board changes (lift a man,
//! put a man, create or remove a man, change a hand), each of which keeps the attack map and
//! the key up to date; unmake replays the inverses in reverse order.

use variants::geometry::Coord;

use crate::board::attack::View;
use crate::board::enclosing;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{EnPassant, Man, Position};
use crate::board::types::{Colour, Slot, Sq, EMPTY};
use variants::rules::Flip;
use variants::PieceId;

/// The file a king is dropped on to castle under `castlingDroppedPiece` (FSF's
/// `castlingKingFile` default, e; Locust refuses other values of that key).
pub(crate) const CASTLING_KING_FILE: u8 = 4;

/// One primitive change, recorded for unmake.
#[derive(Clone, Copy, Debug)]
pub enum Op {
    /// A man was lifted off `sq`.
    Lift(Sq, Slot),
    /// A man was put on `sq`.
    Put(Sq, Slot),
    /// The man on `sq` (first slot) was taken off as the second, lifted before, arrived.
    Replace(Sq, Slot, Slot),
    /// A man (off the board) changed kind / promoted marker.
    Retype(Slot, u8, bool),
    /// A slot was freed; the man it held.
    Kill(Slot, Man),
    /// A slot was taken for a new man.
    Spawn(Slot),
    /// A hand count changed by +1 (`true`) or -1.
    Hand(Colour, u8, bool),
    /// A man (off the board) changed colour (`flipEnclosedPieces`).
    Recolour(Slot),
    /// A wall was put on the empty square (walling rules).
    Wall(Sq),
    /// The wall on the square was lifted (the duck moved on).
    Unwall(Sq),
}

/// State restored verbatim on unmake.
#[derive(Clone, Debug)]
pub struct Saved {
    ops_len: usize,
    map_len: usize,
    ep: Option<EnPassant>,
    rule50: u32,
    since_null: u32,
    passes: u8,
    lion_strike: Option<Sq>,
    checks_left: [u8; 2],
    castled_win: bool,
    shak_series: [bool; 2],
    count: crate::board::counting::Count,
    gates: [u16; 2],
    key: u64,
}

impl Position {
    fn view_lift(&mut self, sq: Sq) -> Slot {
        let slot = self.board[sq as usize];
        let man = self.depart(sq, slot);
        self.board[sq as usize] = EMPTY;
        let v = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        self.map.refresh(&v, sq, man);
        slot
    }

    fn view_put(&mut self, sq: Sq, slot: Slot) {
        self.arrive(sq, slot, None);
    }

    /// Puts the lifted man `slot` on `sq` in place of the man there, who is lifted; returns
    /// the lifted man's slot. The square stays occupied, so paths that stop at it stay as they
    /// are: only cells whose continuation depends on who stands there (friend or foe) are
    /// re-walked. A capture done as a lift and a put would extend every slider through the
    /// square and then cut it back.
    fn view_replace(&mut self, sq: Sq, slot: Slot) -> Slot {
        let old = self.board[sq as usize];
        let old_man = self.depart(sq, old);
        self.arrive(sq, slot, old_man);
        old
    }

    /// The man `slot` on `sq` leaves the map, the royal list and the key (the board still
    /// shows it); returns it.
    fn depart(&mut self, sq: Sq, slot: Slot) -> Option<Man> {
        let man = self.men[slot as usize];
        self.track_royal(slot, false);
        let v = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        self.map.dissociate_man(&v, slot);
        if let Some(m) = man {
            self.key ^= self.zob.man(m.kind, m.colour, sq);
        }
        man
    }

    /// The lifted man `slot` arrives on `sq`, where `old` stood (`None`: empty): board, key,
    /// royal list, the square's refresh and the man's own cells.
    fn arrive(&mut self, sq: Sq, slot: Slot, old: Option<Man>) {
        if let Some(m) = self.men[slot as usize].as_mut() {
            m.sq = sq;
            self.key ^= self.zob.man(m.kind, m.colour, sq);
        }
        self.board[sq as usize] = slot;
        self.track_royal(slot, true);
        let v = View {
            lay: &self.lay,
            board: &self.board,
            men: &self.men,
        };
        self.map.refresh(&v, sq, old);
        self.map.associate_man(&v, slot);
    }

    /// Puts the lifted man `slot` on the occupied square `sq` and lifts the man there
    /// (recorded); returns that man's slot.
    pub(crate) fn replace(&mut self, sq: Sq, slot: Slot, ops: &mut Vec<Op>) -> Slot {
        let old = self.view_replace(sq, slot);
        ops.push(Op::Replace(sq, old, slot));
        old
    }

    /// Lifts the man on `sq` (recorded).
    pub(crate) fn lift(&mut self, sq: Sq, ops: &mut Vec<Op>) -> Slot {
        let slot = self.view_lift(sq);
        ops.push(Op::Lift(sq, slot));
        slot
    }

    /// Puts the lifted man `slot` on the empty square `sq` (recorded).
    pub(crate) fn put(&mut self, sq: Sq, slot: Slot, ops: &mut Vec<Op>) {
        self.view_put(sq, slot);
        ops.push(Op::Put(sq, slot));
    }

    /// Changes the kind of a lifted man (recorded).
    pub(crate) fn retype(&mut self, slot: Slot, kind: u8, promoted: bool, ops: &mut Vec<Op>) {
        if let Some(m) = self.men[slot as usize].as_mut() {
            ops.push(Op::Retype(slot, m.kind, m.promoted));
            m.kind = kind;
            m.promoted = promoted;
        }
    }

    /// Turns the men that the move just made encloses or touches to the mover's colour
    /// (`flipEnclosedPieces`): each is lifted, recoloured and put back, so that the map, the
    /// key and unmake treat a flip as a man leaving and another arriving.
    fn flip_enclosed(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        let v = &self.lay.variant;
        let dropped = mv.kind == MoveKind::Drop;
        let (files, ranks) = (self.lay.files, self.lay.ranks);
        let flips = enclosing::flipped(v.flip, files, ranks, mv.to_coord(), dropped, self.held());
        for c in flips {
            let sq = self.lay.sq(c);
            let slot = self.lift(sq, ops);
            self.recolour_slot(slot);
            ops.push(Op::Recolour(slot));
            self.put(sq, slot, ops);
        }
    }

    /// Gives a lifted man the other colour (its own inverse).
    fn recolour_slot(&mut self, slot: Slot) {
        if let Some(m) = self.men[slot as usize].as_mut() {
            m.colour = m.colour.flip();
        }
    }

    /// Frees the slot of a lifted man (recorded).
    pub(crate) fn kill(&mut self, slot: Slot, ops: &mut Vec<Op>) -> Option<Man> {
        let man = self.men[slot as usize].take()?;
        self.free.push(slot);
        ops.push(Op::Kill(slot, man));
        Some(man)
    }

    /// Creates a man off the board (recorded); put it on a square next.
    pub(crate) fn spawn(&mut self, kind: u8, colour: Colour, ops: &mut Vec<Op>) -> Option<Slot> {
        let slot = self.free.pop()?;
        self.hi = self.hi.max(slot as usize + 1);
        self.men[slot as usize] = Some(Man {
            kind,
            colour,
            sq: 0,
            promoted: false,
        });
        ops.push(Op::Spawn(slot));
        Some(slot)
    }

    /// Adds (`add`) or removes one piece of a type to or from a hand (recorded).
    pub(crate) fn hand_change(&mut self, colour: Colour, piece: u8, add: bool, ops: &mut Vec<Op>) {
        let n = &mut self.hand[colour.index()][piece as usize];
        let old = *n;
        *n = if add { old + 1 } else { old.saturating_sub(1) };
        let new = *n;
        self.key ^=
            self.zob.hand(colour, piece as usize, old) ^ self.zob.hand(colour, piece as usize, new);
        ops.push(Op::Hand(colour, piece, add));
    }

    /// Takes back one change on the board and the men; the attack map is rolled back as a
    /// whole and the key restored from [`Saved`].
    fn undo_op(&mut self, op: Op) {
        match op {
            Op::Lift(sq, slot) => {
                if let Some(m) = self.men[slot as usize].as_mut() {
                    m.sq = sq;
                }
                self.board[sq as usize] = slot;
                self.track_royal(slot, true);
            }
            Op::Put(sq, slot) => {
                self.track_royal(slot, false);
                self.board[sq as usize] = EMPTY;
            }
            Op::Replace(sq, old, slot) => {
                self.track_royal(slot, false);
                self.board[sq as usize] = old;
                self.track_royal(old, true);
            }
            Op::Retype(slot, kind, promoted) => {
                if let Some(m) = self.men[slot as usize].as_mut() {
                    m.kind = kind;
                    m.promoted = promoted;
                }
            }
            Op::Kill(slot, man) => {
                self.free.pop();
                self.men[slot as usize] = Some(man);
            }
            Op::Spawn(slot) => {
                self.men[slot as usize] = None;
                self.free.push(slot);
            }
            Op::Recolour(slot) => self.recolour_slot(slot),
            Op::Wall(sq) => self.board[sq as usize] = EMPTY,
            Op::Unwall(sq) => self.board[sq as usize] = crate::board::types::OFF,
            Op::Hand(colour, piece, add) => {
                let n = &mut self.hand[colour.index()][piece as usize];
                let old = *n;
                *n = if add { old - 1 } else { old + 1 };
                let new = *n;
                self.key ^= self.zob.hand(colour, piece as usize, old)
                    ^ self.zob.hand(colour, piece as usize, new);
            }
        }
    }

    /// Plays a pseudo-legal move. Returns what [`Position::unmake`] needs.
    pub fn make(&mut self, mv: &Move, ops: &mut Vec<Op>) -> Saved {
        let saved = self.make_unwalled(mv, ops);
        self.make_wall(mv, ops);
        saved
    }

    /// Plays a pseudo-legal move but not the wall it places ([`Position::make_wall`] adds
    /// it): legality is judged without it, as Fairy-Stockfish judges it.
    pub(crate) fn make_unwalled(&mut self, mv: &Move, ops: &mut Vec<Op>) -> Saved {
        let saved = Saved {
            ops_len: ops.len(),
            map_len: self.map.log_len(),
            ep: self.ep.take(),
            rule50: self.rule50,
            since_null: self.since_null,
            passes: self.passes,
            lion_strike: self.lion_strike.take(),
            checks_left: self.checks_left,
            castled_win: self.castled_win,
            shak_series: self.shak_series,
            count: self.count,
            gates: self.gates,
            key: self.key,
        };
        self.passes = match mv.kind {
            // Passing out of bikjang ends the game, as two passes in a row do.
            MoveKind::Pass if self.lay.variant.end.bikjang && self.facing(self.stm) => 2,
            // `wallOrMove`: walling instead of moving is no pass that could end the game.
            MoveKind::Pass if mv.wall_coord().is_some() => 0,
            MoveKind::Pass => self.passes + 1,
            _ => 0,
        };
        if let Some(ep) = &saved.ep {
            self.key ^= self.zob.ep(ep.victim);
        }
        if let Some(sq) = saved.lion_strike {
            self.key ^= self.zob.strike(sq);
        }
        if std::mem::take(&mut self.castled_win) {
            self.key ^= self.zob.castled_win;
        }
        self.rule50 += 1;
        self.since_null += 1;
        if mv.kind == MoveKind::Drop {
            // A drop is irreversible too (FSF resets its counter on every drop).
            self.rule50 = 0;
        }
        // A pass that places a wall (`wallOrMove`) counts on, as Fairy-Stockfish counts it.
        let walled_pass = mv.kind == MoveKind::Pass && mv.wall_coord().is_some();
        if (mv.kind == MoveKind::Pass && !walled_pass) || mv.is_step_out_and_back() {
            self.since_null = 0;
            // A pass, and a lion's step out and back (which XBoard receives as its null move,
            // `@@@@`), cut the window of reversible moves: XBoard counts a null move as
            // irreversible, so a repetition counted across one was a false draw claim there
            // and lost the game (docs/history/strength-log.md, session 24).
            self.rule50 = 0;
        }
        match mv.kind {
            MoveKind::Pass => {}
            MoveKind::Drop => self.make_drop(mv, ops),
            MoveKind::Castle => self.make_castle(mv, ops),
            _ => self.make_normal(mv, ops),
        }
        if self.lay.variant.flip != Flip::None && mv.kind != MoveKind::Pass {
            self.flip_enclosed(mv, ops);
        }
        self.make_gates(mv, ops);
        self.stm = self.stm.flip();
        self.key ^= self.zob.side;
        if self.stm == Colour::White {
            self.fullmove += 1;
        }
        if self.lay.variant.end.check_counting {
            self.count_check();
        }
        if self.lay.variant.end.counting.is_some() {
            self.count_move(mv, &ops[saved.ops_len..]);
        }
        if self.lay.variant.end.shatar.is_some() {
            self.follow_checks();
        }
        saved
    }

    /// Takes a move back.
    pub fn unmake(&mut self, saved: Saved, ops: &mut Vec<Op>) {
        if self.stm == Colour::White {
            self.fullmove -= 1;
        }
        self.stm = self.stm.flip();
        self.map.rollback(saved.map_len);
        while ops.len() > saved.ops_len {
            if let Some(op) = ops.pop() {
                self.undo_op(op);
            }
        }
        self.ep = saved.ep;
        self.rule50 = saved.rule50;
        self.since_null = saved.since_null;
        self.passes = saved.passes;
        self.lion_strike = saved.lion_strike;
        self.checks_left = saved.checks_left;
        self.castled_win = saved.castled_win;
        self.shak_series = saved.shak_series;
        self.stone = None;
        self.count = saved.count;
        self.gates = saved.gates;
        self.key = saved.key;
    }

    fn sq_of(&self, index: u8) -> Sq {
        self.lay.sq(Coord::from_index(index as usize))
    }

    /// Removes the man on `sq` as a capture by `captor`, sending it to hand if the rules say so.
    pub(crate) fn capture_at(&mut self, sq: Sq, captor: Colour, ops: &mut Vec<Op>) {
        if self.board[sq as usize] == EMPTY {
            return;
        }
        let slot = self.lift(sq, ops);
        self.bury(slot, captor, ops);
    }

    /// Frees the slot of a captured man, lifted already, sending it to hand if the rules say
    /// so.
    fn bury(&mut self, slot: Slot, captor: Colour, ops: &mut Vec<Op>) {
        if let Some(man) = self.kill(slot, ops) {
            self.rule50 = 0;
            if self.lay.variant.drops.captures_to_hand {
                let piece = self.hand_type(&man);
                self.hand_change(captor, piece, true, ops);
            }
        }
    }

    /// The type a captured man turns into in hand.
    fn hand_type(&self, man: &Man) -> u8 {
        let v = &self.lay.variant;
        let piece = self.lay.kinds[man.kind as usize].piece;
        if v.drops.keep_promoted {
            return piece; // `dropLoop`: the man goes to hand as it stands
        }
        if man.promoted {
            if let Some(p) = v.pieces.iter().position(|p| !p.promotions.is_empty()) {
                return p as u8;
            }
        }
        v.pieces[piece as usize].demotes_to.unwrap_or(piece)
    }

    fn make_normal(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        let (from, to) = (self.sq_of(mv.from), self.sq_of(mv.to));
        let us = self.stm;
        if self.lay.variant.capture_matrix.lion.is_some() {
            self.lion_strike = self.new_lion_strike(mv, from);
            if let Some(sq) = self.lion_strike {
                self.key ^= self.zob.strike(sq);
            }
        }
        let slot = self.lift(from, ops);
        let Some(man) = self.men[slot as usize] else {
            return;
        };
        let kind = &self.lay.kinds[man.kind as usize];
        let piece = &self.lay.variant.pieces[kind.piece as usize];
        let resets = &self.lay.variant.end.n_move_resets[us.index()];
        if resets.get(kind.piece as usize).copied().unwrap_or(false) {
            self.rule50 = 0; // a pawn move (`nMoveRuleTypes`)
        }
        let leaves = piece.leaves_behind;
        let used = kind.used;
        let petrifying = self.lay.variant.petrify.contains(&kind.piece);
        for &e in mv.extra_indices() {
            let sq = self.sq_of(e);
            self.capture_at(sq, us, ops);
        }
        let captured = self.board[to as usize] != EMPTY;
        let blast = self.lay.variant.blast.is_some();
        let petrifies = petrifying && (captured || mv.n_extra > 0);
        if blast || petrifies {
            self.capture_at(to, us, ops);
        }
        if mv.kind == MoveKind::Promotion {
            let promoted = self.lay.variant.pieces[mv.piece as usize]
                .promotions
                .is_empty()
                && !self.lay.variant.promotion.shogi_style
                && !self.lay.variant.drops.keep_promoted;
            let k = self.lay.kind_of(mv.piece, false);
            self.retype(slot, k, promoted, ops);
        } else if used != man.kind {
            self.retype(slot, used, man.promoted, ops);
        }
        if blast && (captured || mv.n_extra > 0) {
            self.explode(to, slot, ops);
        } else if petrifies {
            self.kill(slot, ops);
        } else if captured && !blast {
            let victim = self.replace(to, slot, ops);
            self.bury(victim, us, ops);
        } else {
            self.put(to, slot, ops);
        }
        if self.lay.burners {
            self.burn_after_landing(to, us, ops);
        }
        // `petrifyOnCaptureTypes`: the capturer (blown up already in atomic games, where the
        // stone goes on after the legality test: see `make_wall`) is a wall.
        if petrifies && self.board[to as usize] == EMPTY {
            if blast {
                self.stone = Some(to);
            } else {
                self.put_wall(to, ops);
            }
        }
        if let Some(behind) = leaves {
            let k = self.lay.kind_of(behind, false);
            if let Some(s) = self.spawn(k, us, ops) {
                self.put(from, s, ops);
            }
        }
        // A double step that promotes leaves no pawn to take en passant (FSF: epicatomic).
        if mv.sets_ep && mv.kind != MoveKind::Promotion {
            self.set_ep(from, to);
        }
    }

    /// Atomic: the capturer and every non-immune man next to `to` disappear. Fully immune
    /// types (`blastImmuneTypes`) survive, the capturer too: it then stands on `to`.
    fn explode(&mut self, to: Sq, capturer: Slot, ops: &mut Vec<Op>) {
        let survives = self.men[capturer as usize].is_some_and(|m| self.blast_spares(m, true));
        let us = self.stm;
        // With captures to hand every man blown up goes to its owner's opponent (FSF).
        if survives {
            self.put(to, capturer, ops);
        } else {
            self.bury(capturer, us.flip(), ops);
        }
        let stride = self.lay.stride as i32;
        for dr in -1..=1 {
            for df in -1..=1 {
                let sq = (to as i32 + dr * stride + df) as Sq;
                if sq == to {
                    continue;
                }
                let Some(m) = self.man_at(sq).copied() else {
                    continue;
                };
                if !self.blast_spares(m, false) {
                    self.capture_at(sq, m.colour.flip(), ops);
                }
            }
        }
    }

    /// True when an explosion spares `man`: a fully immune type always, other immune types
    /// (pawns) unless it is the capturer.
    fn blast_spares(&self, man: Man, capturer: bool) -> bool {
        let p = self.lay.kinds[man.kind as usize].piece;
        self.lay
            .variant
            .blast
            .as_ref()
            .is_some_and(|b| b.fully_immune.contains(&p) || !capturer && b.immune.contains(&p))
    }

    /// Records the squares passed by a double step as en-passant targets.
    fn set_ep(&mut self, from: Sq, to: Sq) {
        let (a, b) = (self.lay.coord(from), self.lay.coord(to));
        let (Some(a), Some(b)) = (a, b) else { return };
        let (df, dr) = (b.file as i32 - a.file as i32, b.rank as i32 - a.rank as i32);
        let n = df.abs().max(dr.abs());
        if n < 2 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
            return;
        }
        let (sf, sr) = (df / n, dr / n);
        // Only squares where the other side may take en passant (`enPassantRegion`).
        let region =
            (self.lay.variant.en_passant_region.as_ref()).map(|r| &r[self.stm.flip().index()]);
        let targets: Vec<Sq> = (1..n)
            .map(|i| {
                Coord::new(
                    (a.file as i32 + sf * i) as u8,
                    (a.rank as i32 + sr * i) as u8,
                )
            })
            .filter(|&c| region.is_none_or(|r| r.contains(c)))
            .map(|c| self.lay.sq(c))
            .collect();
        if targets.is_empty() {
            return;
        }
        if self.ep_capturable(&targets, self.stm.flip()) {
            self.key ^= self.zob.ep(to);
            self.ep = Some(EnPassant {
                targets,
                victim: to,
            });
        }
    }

    /// True when a man of `by` could capture en passant on one of the targets. Only then is
    /// the e.p. state kept (and hashed, and written in FEN), as Stockfish does.
    pub fn ep_capturable(&self, targets: &[Sq], by: Colour) -> bool {
        targets.iter().any(|&t| {
            self.map
                .cells_at(t, by)
                .filter_map(|id| self.cell_of(id))
                .any(|(_, _, cell)| cell.rights & variants::rights::EN_PASSANT != 0)
        })
    }

    fn make_drop(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        let to = self.sq_of(mv.to);
        let us = self.stm;
        let source = self.drop_source(mv.piece, us);
        if !self.lay.variant.drops.free {
            self.hand_change(us, source, false, ops);
        }
        let virgin = self.initial_square(mv.piece, us, to) && !self.castling_piece(mv.piece)
            || self.castles_when_dropped(mv.piece, us, mv.to_coord());
        let kind = self.lay.kind_of(mv.piece, virgin);
        if let Some(slot) = self.spawn(kind, us, ops) {
            self.put(to, slot, ops);
        }
        if virgin && self.lay.variant.drops.castling_dropped {
            self.grant_partners(mv.piece, us, ops);
        }
    }

    /// `castlingDroppedPiece`: true when a man of type `piece` dropped by `us` on `c` may
    /// castle, as FSF grants it: the castling king on its file (e) of the castling rank
    /// (the first), or a castling rook on a corner of that rank with its king on that file.
    pub(crate) fn castles_when_dropped(&self, piece: PieceId, us: Colour, c: Coord) -> bool {
        let Some(cas) = self.lay.variant.castling.as_ref() else {
            return false;
        };
        if !self.lay.variant.drops.castling_dropped || c.rank != self.castling_rank(us) {
            return false;
        }
        if piece == cas.king_type {
            return c.file == CASTLING_KING_FILE;
        }
        let corner = c.file == 0 || c.file == self.lay.files - 1;
        corner && cas.rook_types.contains(&piece) && self.castling_king_home(us).is_some()
    }

    /// The rank `us` castles on: its first.
    fn castling_rank(&self, us: Colour) -> u8 {
        match us {
            Colour::White => 0,
            Colour::Black => self.lay.ranks - 1,
        }
    }

    /// The square of `us`'s castling king on its castling square, if it stands there.
    fn castling_king_home(&self, us: Colour) -> Option<Sq> {
        let king = self.lay.variant.castling.as_ref()?.king_type;
        let sq = self
            .lay
            .sq(Coord::new(CASTLING_KING_FILE, self.castling_rank(us)));
        let m = self.man_at(sq)?;
        (m.colour == us && self.piece_of(m) == king).then_some(sq)
    }

    /// After a castling man was dropped with its right: the partners already on the rank
    /// get theirs too (a dropped king: the corner rooks; a dropped rook: its king), as FSF
    /// sets the rights of both.
    fn grant_partners(&mut self, piece: PieceId, us: Colour, ops: &mut Vec<Op>) {
        let Some(cas) = self.lay.variant.castling.clone() else {
            return;
        };
        let rank = self.castling_rank(us);
        let mut partners = Vec::new();
        if piece == cas.king_type {
            for file in [0, self.lay.files - 1] {
                let sq = self.lay.sq(Coord::new(file, rank));
                let rook = self.man_at(sq);
                if rook
                    .is_some_and(|m| m.colour == us && cas.rook_types.contains(&self.piece_of(m)))
                {
                    partners.push(sq);
                }
            }
        } else {
            partners.extend(self.castling_king_home(us));
        }
        for sq in partners {
            let Some(m) = self.man_at(sq).copied() else {
                continue;
            };
            let virgin = self.lay.kind_of(self.piece_of(&m), true);
            if virgin != m.kind {
                let slot = self.lift(sq, ops);
                self.retype(slot, virgin, m.promoted, ops);
                self.put(sq, slot, ops);
            }
        }
    }

    fn make_castle(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        let (from, to) = (self.sq_of(mv.from), self.sq_of(mv.to));
        let rook_from = self.sq_of(mv.extra[0]);
        // The rook lands beside the royal's end square, on the side it came from (in Chess960
        // the royal may not move at all, so its own direction says nothing).
        let step = if rook_from > from { -1 } else { 1 };
        let rook_to = (to as i32 + step) as Sq;
        let king = self.lift(from, ops);
        let rook = self.lift(rook_from, ops);
        for slot in [king, rook] {
            if let Some(m) = self.men[slot as usize] {
                let used = self.lay.kinds[m.kind as usize].used;
                self.retype(slot, used, m.promoted, ops);
            }
        }
        self.put(to, king, ops);
        self.put(rook_to, rook, ops);
        let Some(c) = self.lay.variant.castling.as_ref() else {
            return;
        };
        let king_side = rook_from > from;
        if c.wins[self.stm.index()][usize::from(!king_side)] {
            self.castled_win = true;
            self.key ^= self.zob.castled_win;
        }
        if c.opposite {
            self.opposite_castling(king_side, ops);
        }
    }

    /// `oppositeCastling`: the opponent's rooks on the side just castled to (its castling
    /// king's king side when `king_side`) lose their castling rights.
    fn opposite_castling(&mut self, king_side: bool, ops: &mut Vec<Op>) {
        let them = self.stm.flip();
        let castler = |m: &Man| m.colour == them && self.lay.kinds[m.kind as usize].castles;
        let kings: Vec<Coord> = (self.live().map(|(_, m)| *m))
            .filter(castler)
            .filter_map(|m| self.lay.coord(m.sq))
            .collect();
        for king in kings {
            for f in (0..self.lay.files).filter(|&f| f != king.file && (f > king.file) == king_side)
            {
                let sq = self.lay.sq(Coord::new(f, king.rank));
                let Some(&m) = self.man_at(sq) else { continue };
                let kind = &self.lay.kinds[m.kind as usize];
                if m.colour == them && kind.virgin && self.castling_piece(kind.piece) {
                    let used = kind.used;
                    // A man is retyped off the board (its key and cells follow its kind).
                    let slot = self.lift(sq, ops);
                    self.retype(slot, used, m.promoted, ops);
                    self.put(sq, slot, ops);
                }
            }
        }
    }

    /// True when the variant's start position has this piece type of this colour on `sq`.
    pub fn initial_square(&self, piece: u8, colour: Colour, sq: Sq) -> bool {
        self.lay
            .coord(sq)
            .is_some_and(|c| self.lay.start_squares[colour.index()][piece as usize].contains(c))
    }

    /// True when the piece type takes part in castling (its virgin state comes from the
    /// castling rights, never from its square).
    pub fn castling_piece(&self, piece: u8) -> bool {
        self.lay
            .variant
            .castling
            .as_ref()
            .is_some_and(|c| c.king_type == piece || c.rook_types.contains(&piece))
    }
}
