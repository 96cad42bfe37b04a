//! Lion safety: what a lion (a man the variant's lion-trading rules name) risks deep in the
//! enemy camp, shut in a corner near the enemy lion ([`LION_TRAP_RANKS`]) or with few squares
//! to flee to ([`LION_CAGE`]). Built only for variants with those rules.

use crate::board::layout::Layout;
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

use super::params::*;
use super::{relative_rank, squares_within};

/// A lion's value and square.
pub(super) type Lion = (i32, Sq);

/// The tables of the lion terms, per variant.
#[derive(Debug)]
pub(super) struct LionTables {
    /// Kinds the lion-trading rules name.
    kinds: Vec<bool>,
    /// `trap[colour][sq]`: the lion-trap weight of `sq` for a lion of `colour`.
    trap: [Vec<i32>; 2],
    /// `camp[colour][sq]`: `sq` is deep in the enemy camp for a lion of `colour`.
    camp: [Vec<bool>; 2],
    /// The squares within two steps of each square (a lion's reach).
    reach: Vec<Vec<Sq>>,
}

impl LionTables {
    /// The tables of a layout; `None` when its variant has no lion-trading rules.
    pub(super) fn new(lay: &Layout) -> Option<LionTables> {
        let lions = &lay.variant.capture_matrix.lion.as_ref()?.lions;
        let kinds: Vec<bool> = lay.kinds.iter().map(|k| lions.contains(&k.piece)).collect();
        if !kinds.contains(&true) {
            return None;
        }
        let reach = (0..lay.size)
            .map(|sq| squares_within(lay, sq as Sq, LION_REACH))
            .collect();
        Some(LionTables {
            kinds,
            trap: [trap_for(lay, Colour::White), trap_for(lay, Colour::Black)],
            camp: [camp_for(lay, Colour::White), camp_for(lay, Colour::Black)],
            reach,
        })
    }

    /// True when men of `kind` are lions.
    #[inline]
    pub(super) fn is_lion(&self, kind: usize) -> bool {
        self.kinds.get(kind).copied().unwrap_or(false)
    }

    /// What `colour`'s lions (`ours`) risk in the enemy camp's corners near the enemy lions
    /// (`theirs`): see [`LION_TRAP_RANKS`]. `coords` are the squares' (file, rank).
    pub(super) fn trap(
        &self,
        pos: &Position,
        coords: &[(i8, i8)],
        colour: Colour,
        (ours, theirs): (&[Lion], &[Lion]),
    ) -> i32 {
        let mut penalty = 0;
        for &(value, sq) in ours {
            let weight = self.trap[colour.index()][sq as usize];
            if weight == 0 {
                continue;
            }
            let (f, r) = coords[sq as usize];
            let near = theirs
                .iter()
                .map(|&(_, e)| {
                    let (ef, er) = coords[e as usize];
                    (ef - f).abs().max((er - r).abs()) as usize
                })
                .min()
                .unwrap_or(usize::MAX);
            let Some(&by_distance) = LION_TRAP_DISTANCE.get(near) else {
                continue;
            };
            let exposed = if guarded(pos, colour, sq) {
                1
            } else {
                LION_TRAP_UNPROTECTED
            };
            penalty += value * weight * by_distance * exposed / LION_TRAP_SCALE;
        }
        penalty
    }

    /// What `colour`'s lions (`ours`) deep in the enemy camp risk by having few squares to
    /// flee to: see [`LION_CAGE`].
    pub(super) fn cage(&self, pos: &Position, colour: Colour, ours: &[Lion]) -> i32 {
        let them = colour.flip();
        let mut penalty = 0;
        for &(value, sq) in ours {
            if !self.camp[colour.index()][sq as usize] {
                continue;
            }
            let free = self.reach[sq as usize]
                .iter()
                .filter(|&&s| {
                    pos.man_at(s).is_none_or(|m| m.colour != colour)
                        && pos.attack_count(them, s) == 0
                })
                .count();
            if let Some(&share) = LION_CAGE.get(free) {
                penalty += value * share / 1000;
            }
        }
        penalty
    }
}

/// True when a man of `colour` other than the one on `sq` could capture there (a lion's own
/// step out and back reaches its square too, so the attack count cannot tell). Asked only
/// for lions in a trap, so the list it builds is rare.
fn guarded(pos: &Position, colour: Colour, sq: Sq) -> bool {
    let mut by = Vec::new();
    pos.capturers(colour, sq, &mut by);
    let own = pos.slot_at(sq);
    by.iter().any(|&s| Some(s) != own)
}

/// Ranks counted from the enemy's back rank (0 there) for a man of `colour` on `rank`.
fn from_enemy(rank: u8, ranks: i32, colour: Colour) -> i32 {
    ranks - 1 - relative_rank(rank, ranks, colour)
}

/// The lion-trap weight of each mailbox square for a lion of `colour`: the enemy camp's
/// corners ([`LION_TRAP_RANKS`], [`LION_TRAP_FILES`]).
fn trap_for(lay: &Layout, colour: Colour) -> Vec<i32> {
    let mut table = vec![0; lay.size];
    let (files, ranks) = (lay.files as i32, lay.ranks as i32);
    for sq in lay.squares() {
        let Some(c) = lay.coord(sq) else { continue };
        let file = c.file as i32;
        let corner = file < LION_TRAP_FILES || file >= files - LION_TRAP_FILES;
        let rank = from_enemy(c.rank, ranks, colour);
        if let (true, Some(&w)) = (corner, LION_TRAP_RANKS.get(rank as usize)) {
            table[sq as usize] = w;
        }
    }
    table
}

/// For a lion of `colour`, which mailbox squares lie deep in the enemy camp
/// ([`LION_CAMP_DIVISOR`]).
fn camp_for(lay: &Layout, colour: Colour) -> Vec<bool> {
    let ranks = lay.ranks as i32;
    let mut table = vec![false; lay.size];
    for sq in lay.squares() {
        let Some(c) = lay.coord(sq) else { continue };
        table[sq as usize] = from_enemy(c.rank, ranks, colour) < ranks / LION_CAMP_DIVISOR;
    }
    table
}
