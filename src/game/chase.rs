//! The chasing rule (`chasingRule = axf`, xiangqi): which enemy men a move chases, and the
//! replay of a repetition cycle that tells the search what each of its moves chased.

use variants::geometry::Coord;

use super::params::CHASE_DEARER_PER_MILLE;
use crate::board::make::{Op, Saved};
use crate::board::moves::{Move, MoveKind};
use crate::board::position::{Man, Position};
use crate::board::stages::Stage;
use crate::board::types::{Colour, Slot, Sq};

/// A set of men named by slot. A slot follows its man as it moves, so the same man keeps its
/// name over a cycle; no slot changes hands inside one, since a capture ends the cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Chased([u64; 4]);

impl Chased {
    /// No man.
    pub const NONE: Chased = Chased([0; 4]);

    /// Adds a man.
    pub fn insert(&mut self, slot: Slot) {
        self.0[slot as usize >> 6] |= 1 << (slot & 63);
    }

    /// True when the man is in the set.
    pub fn contains(&self, slot: Slot) -> bool {
        self.0[slot as usize >> 6] & (1 << (slot & 63)) != 0
    }

    /// True when no man is in the set.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&w| w == 0)
    }

    /// The men in both sets.
    pub fn and(self, other: Chased) -> Chased {
        let mut out = self;
        out.0.iter_mut().zip(other.0).for_each(|(a, b)| *a &= b);
        out
    }
}

/// Makes `mv` and returns what undoes it together with the enemy men it chased: men that a
/// man of the mover (the one that moved or one it uncovered or screened) attacks after the
/// move and did not attack before, where the attack counts as a chase (see [`chases`]).
pub fn make_chasing(pos: &mut Position, mv: &Move, ops: &mut Vec<Op>) -> (Saved, Chased) {
    if mv.kind == MoveKind::Pass {
        return (pos.make(mv, ops), Chased::NONE);
    }
    let side = pos.side_to_move();
    let before = threats(pos, side);
    let saved = pos.make(mv, ops);
    let mut chased = Chased::NONE;
    for (victim, attacker) in threats(pos, side) {
        if !before.contains(&(victim, attacker))
            && !chased.contains(victim)
            && chases(pos, victim, attacker, ops)
        {
            chased.insert(victim);
        }
    }
    (saved, chased)
}

/// Pairs (victim, attacker), by slot, where a man of `side` that may chase reaches an enemy
/// man that may be chased with the right to capture, as the attack map has it (cannons with a
/// screen, horses with a free leg).
fn threats(pos: &Position, side: Colour) -> Vec<(Slot, Slot)> {
    let mut out = Vec::new();
    let mut attackers = Vec::new();
    for (victim, man) in pos.live() {
        if man.colour == side || !chaseable(pos, man) {
            continue;
        }
        attackers.clear();
        pos.capturers(side, man.sq, &mut attackers);
        for &a in &attackers {
            if pos.man(a).is_some_and(|m| may_chase(pos, m)) {
                out.push((victim, a));
            }
        }
    }
    out
}

/// Royals give check, not chase; the weakest men (those that cannot step backward: soldiers,
/// pawns) may attack as they like.
fn may_chase(pos: &Position, man: &Man) -> bool {
    !pos.layout().kinds[man.kind as usize].royal && !forward_only(pos, man)
}

/// Royals are checked, not chased; a man that cannot step backward can be chased only once
/// it has crossed into the enemy half (a soldier across the river).
fn chaseable(pos: &Position, man: &Man) -> bool {
    if pos.layout().kinds[man.kind as usize].royal {
        return false;
    }
    if !forward_only(pos, man) {
        return true;
    }
    let ranks = pos.layout().ranks;
    pos.layout().coord(man.sq).is_some_and(|c| {
        let own = match man.colour {
            Colour::White => c.rank,
            Colour::Black => ranks - 1 - c.rank,
        };
        2 * own >= ranks
    })
}

/// No step of any of the man's paths goes backward: the variant's weakest men.
fn forward_only(pos: &Position, man: &Man) -> bool {
    let piece = pos.piece_of(man) as usize;
    pos.variant()
        .pieces
        .get(piece)
        .is_some_and(|p| p.moves.nodes.iter().all(|n| n.step.1 >= 0))
}

/// Whether the new attack of `attacker` on `victim` (the victim's side to move) is a chase:
/// the attacker could legally take the victim, the victim cannot take back a man of its own
/// type (a mutual attack), and the victim is unprotected or clearly dearer than the attacker.
fn chases(pos: &mut Position, victim: Slot, attacker: Slot, ops: &mut Vec<Op>) -> bool {
    let (Some(&v), Some(&a)) = (pos.man(victim), pos.man(attacker)) else {
        return false;
    };
    let (from, to) = (index(pos, v.sq), index(pos, a.sq));
    if pos.piece_of(&v) == pos.piece_of(&a)
        && legal_capture(pos, |m| m.from == from && m.to == to, ops).is_some()
    {
        return false;
    }
    match protected(pos, a.sq, v.sq, ops) {
        None => false,
        Some(false) => true,
        Some(true) => {
            let value = |m: &Man| pos.layout().kinds[m.kind as usize].value as i64;
            value(&v) * 1000 >= value(&a) * CHASE_DEARER_PER_MILLE
        }
    }
}

/// With the victim's side passing: `None` when the man on `from` cannot legally take the man
/// on `to`, else whether after that capture the victim's side could legally take back on
/// `to` (a pinned defender does not protect).
fn protected(pos: &mut Position, from: Sq, to: Sq, ops: &mut Vec<Op>) -> Option<bool> {
    let (from, to) = (index(pos, from), index(pos, to));
    let mut pass = Move::normal(Coord::new(0, 0), Coord::new(0, 0));
    pass.kind = MoveKind::Pass;
    let passed = pos.make(&pass, ops);
    let verdict = legal_capture(pos, |m| m.from == from && m.to == to, ops).map(|take| {
        let taken = pos.make(&take, ops);
        let back = legal_capture(pos, |m| m.to == to, ops).is_some();
        pos.unmake(taken, ops);
        back
    });
    pos.unmake(passed, ops);
    verdict
}

/// The first legal capture of the side to move that `wanted` accepts.
fn legal_capture(
    pos: &mut Position,
    wanted: impl Fn(&Move) -> bool,
    ops: &mut Vec<Op>,
) -> Option<Move> {
    let mut moves = Vec::new();
    pos.gen_stage(Stage::Captures, &mut moves);
    moves
        .into_iter()
        .filter(|m| wanted(m) && !matches!(m.kind, MoveKind::Drop | MoveKind::Pass))
        .find(|m| pos.is_legal(m, ops))
}

/// The board-independent index ([`Coord::index`]) of a mailbox square, as moves carry it.
fn index(pos: &Position, sq: Sq) -> u8 {
    pos.layout().coord(sq).map_or(u8::MAX, |c| c.index() as u8)
}

/// A repetition cycle played again from its last position, which equals its first: what each
/// move chased, asked for in the order of the moves. Dropping it takes every move back.
pub struct Replay<'a> {
    pos: &'a mut Position,
    ops: &'a mut Vec<Op>,
    moves: &'a [Move],
    made: Vec<Saved>,
}

impl<'a> Replay<'a> {
    /// A replay of `moves` (the cycle's moves, first to last) from `pos`.
    pub fn new(pos: &'a mut Position, ops: &'a mut Vec<Op>, moves: &'a [Move]) -> Replay<'a> {
        Replay {
            pos,
            ops,
            moves,
            made: Vec::with_capacity(moves.len()),
        }
    }

    /// The men chased by the move into the cycle's position `i` (1 for the first move). The
    /// moves before it are made without looking at what they chase; asked out of order or
    /// beyond the cycle, nothing.
    pub fn chased(&mut self, i: usize) -> Chased {
        while self.made.len() + 1 < i && self.made.len() < self.moves.len() {
            let saved = self.pos.make(&self.moves[self.made.len()], self.ops);
            self.made.push(saved);
        }
        if self.made.len() + 1 != i || i > self.moves.len() {
            return Chased::NONE;
        }
        let (saved, chased) = make_chasing(self.pos, &self.moves[i - 1], self.ops);
        self.made.push(saved);
        chased
    }
}

impl Drop for Replay<'_> {
    fn drop(&mut self) {
        while let Some(saved) = self.made.pop() {
            self.pos.unmake(saved, self.ops);
        }
    }
}
