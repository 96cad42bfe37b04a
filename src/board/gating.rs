//! Gating (Fairy-Stockfish's `gating` and `seirawanGating`, S-chess): each side's gates on its
//! gating rank (a bit per file, FSF's `gatesBB`), the gated forms of generated moves, the
//! make step that puts the gated man and keeps the gates, and the gate marks of the FEN's
//! castling field (read here for the engine and the reference generator alike), and
//! cambodian chess's first moves from the gates (`cambodianMoves`).
//!
//! A gate is lost when its man leaves the square or is taken there, and under
//! `seirawanGating` all of a side's gates go when its hand runs empty (unless captured men
//! come back to hand). A move of a man from a gate (and castling, on the king's or the
//! rook's square) may put a man from hand on the square it left, where a drop of that type
//! would be allowed. Legality is the ungated move's, as in Fairy-Stockfish: the gated man
//! is no blocker for its own move's test.

use variants::geometry::Coord;
use variants::rules::Castling;
use variants::{CambodianMoves, Gating, PieceId, Variant};

use crate::board::fen::Placement;
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::{Colour, EMPTY};

impl Position {
    /// The variant's gating, if any.
    #[inline]
    pub fn gating(&self) -> Option<&Gating> {
        self.lay.variant.gating.as_ref()
    }

    /// True when `c` is one of `colour`'s gates.
    pub fn is_gate(&self, colour: Colour, c: Coord) -> bool {
        self.gating().is_some_and(|g| {
            c.rank == g.home_rank(colour == Colour::White, self.lay.ranks)
                && self.gates[colour.index()] >> c.file & 1 != 0
        })
    }

    /// Adds the gated forms of the moves in `out[start..]` (each right after its plain form)
    /// under `seirawanGating`.
    #[inline]
    pub(crate) fn expand_gates(&self, out: &mut Vec<Move>, start: usize) {
        if self.gating().is_some_and(|g| g.seirawan) && self.gates[self.stm.index()] != 0 {
            self.expand_gates_by(out, start);
        }
    }

    #[inline(never)]
    fn expand_gates_by(&self, out: &mut Vec<Move>, start: usize) {
        let base: Vec<Move> = out.drain(start..).collect();
        for m in base {
            out.push(m);
            for (square, on_rook) in gate_squares(&m) {
                if !self.is_gate(self.stm, square) || castle_fills(&m, square) {
                    continue;
                }
                for p in self.gate_types(square) {
                    out.push(m.with_gate(Some(p), on_rook));
                }
            }
        }
    }

    /// The types in the side to move's hand that may be gated on `c`: where a drop of the
    /// type would be allowed (FSF's drop region of the type), the square's occupant aside.
    fn gate_types(&self, c: Coord) -> impl Iterator<Item = PieceId> + '_ {
        let us = self.stm;
        (self.hand[us.index()].iter().enumerate())
            .filter(move |&(p, &n)| n > 0 && self.may_drop(p as PieceId, us, c))
            .map(|(p, _)| p as PieceId)
    }

    /// The gating part of a move being made (the side that moves still to move): the gated
    /// man put, and both sides' gates kept.
    #[inline]
    pub(crate) fn make_gates(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        if self.gating().is_some() {
            self.make_gates_by(mv, ops);
        }
    }

    #[inline(never)]
    fn make_gates_by(&mut self, mv: &Move, ops: &mut Vec<Op>) {
        let us = self.stm;
        if let (Some(p), Some(c)) = (mv.gate_piece(), mv.gate_coord()) {
            let kind = self.lay.kind_of(p, false);
            if let Some(slot) = self.spawn(kind, us, ops) {
                self.put(self.lay.sq(c), slot, ops);
                self.hand_change(us, p, false, ops);
            }
        }
        let mut gates = self.gates;
        if !matches!(mv.kind, MoveKind::Drop | MoveKind::Pass) {
            // Every move's start square, and castling's rook square.
            let from = std::iter::once((mv.from_coord(), false));
            for (c, _) in from.chain(gate_squares(mv)) {
                clear(&mut gates, self.gate_bit(us, c), us);
            }
        }
        if mv.kind != MoveKind::Pass {
            clear(
                &mut gates,
                self.gate_bit(us.flip(), mv.to_coord()),
                us.flip(),
            );
        }
        if self.hand_closes_gates(us) {
            gates[us.index()] = 0;
        }
        if let Some(c) = self.gating().and_then(|g| g.cambodian.as_ref()) {
            let lined = self.rook_lines_king(c, mv);
            clear(&mut gates, lined, us.flip());
        }
        self.set_gates(gates);
    }

    /// `cambodianMoves`: the gate bit of the enemy king that a rook's plain move just lined
    /// up with (its file or rank, whatever stands between), else 0.
    fn rook_lines_king(&self, c: &CambodianMoves, mv: &Move) -> u16 {
        if mv.kind != MoveKind::Normal {
            return 0;
        }
        let to = mv.to_coord();
        let rook = self
            .man_at(self.lay.sq(to))
            .is_some_and(|m| c.rook.contains(&self.piece_of(m)));
        let them = self.stm.flip();
        let king = self
            .live()
            .find(|(_, m)| m.colour == them && Some(self.piece_of(m)) == c.king);
        match (rook, king.and_then(|(_, k)| self.lay.coord(k.sq))) {
            (true, Some(k)) if k != to && (k.file == to.file || k.rank == to.rank) => {
                self.gate_bit(them, k)
            }
            _ => 0,
        }
    }

    /// `cambodianMoves`: the king's knight leap one rank forward (not in check) and the
    /// met's two-square jump forward, from their gates to empty squares.
    #[inline]
    pub(crate) fn gen_cambodian_moves(&self, out: &mut Vec<Move>) {
        if let Some(c) = self.gating().and_then(|g| g.cambodian.as_ref()) {
            if self.gates[self.stm.index()] != 0 {
                self.push_cambodian_moves(c, out);
            }
        }
    }

    #[inline(never)]
    fn push_cambodian_moves(&self, c: &CambodianMoves, out: &mut Vec<Move>) {
        let us = self.stm;
        let ahead = if us == Colour::White { 1 } else { -1 };
        for (_, man) in self.movers() {
            let Some(at) = self.lay.coord(man.sq).filter(|&at| self.is_gate(us, at)) else {
                continue;
            };
            let p = self.piece_of(&man);
            let steps: &[(i32, i32)] = if Some(p) == c.king && !self.in_check(us) {
                &[(-2, ahead), (2, ahead)]
            } else if c.met.contains(&p) {
                &[(0, 2 * ahead)]
            } else {
                &[]
            };
            for &(df, dr) in steps {
                let (f, r) = (at.file as i32 + df, at.rank as i32 + dr);
                let on_board = (0..self.lay.files as i32).contains(&f)
                    && (0..self.lay.ranks as i32).contains(&r);
                if !on_board {
                    continue;
                }
                let to = Coord::new(f as u8, r as u8);
                if self.board[self.lay.sq(to) as usize] == EMPTY {
                    out.push(Move::normal(at, to));
                }
            }
        }
    }

    /// The bit of `c` in `colour`'s gate mask (0 off its gating rank).
    fn gate_bit(&self, colour: Colour, c: Coord) -> u16 {
        match self.gating() {
            Some(g) if c.rank == g.home_rank(colour == Colour::White, self.lay.ranks) => {
                1 << c.file
            }
            _ => 0,
        }
    }

    /// `seirawanGating`: a side's gates close when its hand is empty and no capture can
    /// fill it again.
    fn hand_closes_gates(&self, colour: Colour) -> bool {
        self.gating().is_some_and(|g| g.seirawan)
            && !self.lay.variant.drops.captures_to_hand
            && self.hand[colour.index()].iter().all(|&n| n == 0)
    }

    /// Replaces both sides' gates, keeping the key in step.
    pub(crate) fn set_gates(&mut self, gates: [u16; 2]) {
        for c in [Colour::White, Colour::Black] {
            let (old, new) = (self.gates[c.index()], gates[c.index()]);
            self.key ^= self.zob.gates(c, old) ^ self.zob.gates(c, new);
        }
        self.gates = gates;
    }

    /// The gate letters of `colour` in the FEN's castling field, Fairy-Stockfish's way: the
    /// gated files in order, but not those a castling letter already implies (the king's,
    /// the rooks' with rights); none while a Seirawan hand is empty for good.
    pub(crate) fn gate_letters(&self, colour: Colour, implied: &[u8]) -> String {
        if self.gating().is_none() || self.hand_closes_gates(colour) {
            return String::new();
        }
        (0..self.lay.files)
            .filter(|&f| self.gates[colour.index()] >> f & 1 != 0 && !implied.contains(&f))
            .map(|f| file_letter(f, colour))
            .collect()
    }
}

/// The squares a move may gate on, with whether each is the castling rook's: the start
/// square of a plain move or castling, and castling's rook square.
fn gate_squares(m: &Move) -> impl Iterator<Item = (Coord, bool)> {
    let from =
        matches!(m.kind, MoveKind::Normal | MoveKind::Castle).then(|| (m.from_coord(), false));
    let rook = match m.kind {
        MoveKind::Castle => m.extras().next().map(|r| (r, true)),
        _ => None,
    };
    from.into_iter().chain(rook)
}

/// True when castling ends with its king or rook on `c` (Chess960), where nothing can be
/// gated.
fn castle_fills(m: &Move, c: Coord) -> bool {
    let (Some(rook), MoveKind::Castle) = (m.extras().next(), m.kind) else {
        return false;
    };
    let to = m.to_coord();
    let rook_to = if rook.file > m.from_coord().file {
        to.file.wrapping_sub(1)
    } else {
        to.file + 1
    };
    c == to || c == Coord::new(rook_to, to.rank)
}

fn clear(gates: &mut [u16; 2], bit: u16, colour: Colour) {
    gates[colour.index()] &= !bit;
}

fn file_letter(f: u8, colour: Colour) -> char {
    let c = (b'A' + f) as char;
    match colour {
        Colour::White => c,
        Colour::Black => c.to_ascii_lowercase(),
    }
}

/// The gate marks of a FEN's castling field, as Fairy-Stockfish reads them: a file letter
/// names a gate on that file of its side's gating rank (where its side has a man); under
/// `seirawanGating` with an empty hand that cannot fill again it is a Shredder castling
/// letter instead. Returns the field left for the castling reader (castling letters, and
/// the Shredder letters FSF grants a gated king and rook without any castling letter), and
/// the gates. `K`/`Q` gate their king and rook too: see [`castling_gates`].
pub(crate) fn split_gate_marks(
    v: &Variant,
    placement: &Placement,
    hands: &[Vec<u8>; 2],
    field: Option<&str>,
) -> (Option<String>, [u16; 2]) {
    let (Some(g), Some(field)) = (&v.gating, field.filter(|f| *f != "-")) else {
        return (field.map(str::to_string), [0; 2]);
    };
    let letters_only = |c: Colour| {
        !g.seirawan || v.drops.captures_to_hand || hands[c.index()].iter().any(|&n| n > 0)
    };
    let man_at = |c: Coord| placement.men.iter().find(|m| m.at == c);
    let mut kept = String::new();
    let mut gates = [0u16; 2];
    for ch in field.chars() {
        let colour = if ch.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        let up = ch.to_ascii_uppercase();
        if up == 'K' || up == 'Q' {
            if v.castling.is_some() {
                kept.push(ch);
            }
            continue;
        }
        let file = (up as u8).wrapping_sub(b'A');
        if !up.is_ascii_uppercase() || file >= v.files {
            kept.push(ch); // the castling reader reports it
            continue;
        }
        let at = Coord::new(file, g.home_rank(colour == Colour::White, v.ranks));
        if man_at(at).is_some_and(|m| m.colour == colour) {
            gates[colour.index()] |= 1 << file;
        }
        // With a hand empty for good FSF reads the letter as a Shredder castling right,
        // and ignores it where no castling rook stands.
        let rook = |c: &Castling| {
            man_at(at).is_some_and(|m| m.colour == colour && c.rook_types.contains(&m.piece))
        };
        if !letters_only(colour) && v.castling.as_ref().is_some_and(rook) {
            kept.push(ch);
        }
    }
    if let Some(c) = &v.castling {
        for colour in [Colour::White, Colour::Black] {
            let own = |ch: &char| (ch.is_ascii_uppercase()) == (colour == Colour::White);
            if kept.chars().any(|ch| own(&ch)) || !letters_only(colour) {
                continue;
            }
            let gated = |m: &&crate::board::fen::Placed| {
                m.colour == colour
                    && m.at.rank == g.home_rank(colour == Colour::White, v.ranks)
                    && gates[colour.index()] >> m.at.file & 1 != 0
            };
            let men: Vec<_> = placement.men.iter().filter(gated).collect();
            if !men.iter().any(|m| m.piece == c.king_type) {
                continue;
            }
            for m in men.iter().filter(|m| c.rook_types.contains(&m.piece)) {
                kept.push(file_letter(m.at.file, colour));
            }
        }
    }
    let kept = (!kept.is_empty()).then_some(kept);
    (kept, gates)
}

/// Adds to `gates` the squares of the men that keep castling rights (`rights`: king and
/// rook squares), which Fairy-Stockfish gates too under `gating`.
pub(crate) fn castling_gates(
    v: &Variant,
    placement: &Placement,
    rights: &[Coord],
    gates: &mut [u16; 2],
) {
    let Some(g) = &v.gating else { return };
    for &c in rights {
        if let Some(m) = placement.men.iter().find(|m| m.at == c) {
            if c.rank == g.home_rank(m.colour == Colour::White, v.ranks) {
                gates[m.colour.index()] |= 1 << c.file;
            }
        }
    }
}
