//! King danger: the penalty of a side whose royal's zone (the squares next to it) the enemy
//! attacks: a small one per enemy path onto the zone, and once two or more pieces (not pawns)
//! take part one growing with the square of the attack (the attackers by value, the paths
//! onto the zone, its squares only the royal guards, pieces in the enemy's hand that could be
//! dropped there, less the side's own paths onto the zone); read from the attack map.

use super::params::*;
use super::EvalTables;
use crate::board::position::Position;
use crate::board::types::{Colour, Sq, MAX_SLOT};

/// What the enemy brings against one royal's zone.
#[derive(Default)]
struct Attack {
    /// Distinct enemy pieces with a capture path onto the zone (royals and pawns left out).
    men: i32,
    /// Sum of their [`attacker_weight`]s.
    weight: i32,
    /// Enemy capture paths onto zone squares.
    paths: i32,
    /// Zone squares the enemy attacks and the defending side reaches at most once.
    weak: i32,
    /// The defending side's capture paths onto zone squares.
    defence: i32,
}

/// King-danger weight of an attacker of `value` (0 for royals and pawns, which do not count).
pub(super) fn attacker_weight(value: i32, royal: bool) -> i32 {
    if royal || value < PAWN_VALUE_LIMIT {
        return 0;
    }
    KING_ATTACKER_BASE + value.clamp(0, KING_ATTACKER_VALUE_CAP) * KING_ATTACKER_PER_MILLE / 1000
}

impl EvalTables {
    /// Middle-game penalty of the royal of `colour` on `sq`; `hand` is (pieces, sum of
    /// their attacker weights) in the enemy's hand.
    pub(super) fn king_danger(
        &self,
        pos: &Position,
        colour: Colour,
        sq: Sq,
        hand: (i32, i32),
    ) -> i32 {
        let a = self.zone_attack(pos, colour, sq);
        let linear = a.paths * KING_ZONE_ATTACK - a.defence.min(a.paths + 2) * KING_ZONE_DEFENCE;
        if a.men + hand.0 < KING_DANGER_MIN_ATTACKERS {
            return linear;
        }
        let danger = (a.weight + hand.1 + a.paths * KING_DANGER_PATH + a.weak * KING_DANGER_WEAK
            - a.defence * KING_DANGER_DEFENCE)
            .max(0);
        linear + (danger * danger / KING_DANGER_DIVISOR).min(KING_DANGER_CAP)
    }

    /// The enemy's attack on the zone of the royal of `colour` on `sq`.
    fn zone_attack(&self, pos: &Position, colour: Colour, sq: Sq) -> Attack {
        let them = colour.flip();
        let mut seen = [0u64; MAX_SLOT / 64 + 1];
        let mut a = Attack::default();
        for &z in &self.neighbours[sq as usize] {
            let (paths, defence) = (
                pos.attack_count(them, z) as i32,
                pos.attack_count(colour, z) as i32,
            );
            a.defence += defence;
            if paths == 0 {
                continue;
            }
            a.paths += paths;
            a.weak += i32::from(defence <= 1);
            for (slot, kind) in pos.capture_paths(them, z) {
                let (word, bit) = (slot as usize / 64, 1u64 << (slot % 64));
                let w = self.attacker_weight[kind as usize];
                if seen[word] & bit == 0 && w > 0 {
                    seen[word] |= bit;
                    a.men += 1;
                    a.weight += w;
                }
            }
        }
        a
    }
}
