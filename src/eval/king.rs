//! King danger: a middle-game penalty that grows with the square of the attack on a royal's
//! zone (the squares next to it), counted in units from the enemy's capture paths onto the
//! zone weighted by the attackers' values, the zone squares that only the royal guards, and
//! the enemy's men in hand (which can be dropped there). The weights are fitted by the tuner
//! (docs/TUNING.md): two hand-set forms of this term did not pay (sprt-log E1, E4).

use super::params::*;
use super::EvalTables;
use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

impl EvalTables {
    /// Attack units the enemy's men in hand add against `colour`'s royals (0 without drops).
    pub(super) fn hand_danger(&self, pos: &Position, colour: Colour) -> i32 {
        if !self.drops {
            return 0;
        }
        let them = colour.flip();
        let sum: i32 = (self.drop_value.iter().enumerate())
            .map(|(p, &v)| pos.in_hand(them, p as u8) as i32 * v)
            .sum();
        sum * self.w.kd_hand_per_mille / 1000
    }

    /// (middle game, endgame) penalty of the royal of `colour` on `sq`; `hand` is
    /// [`EvalTables::hand_danger`]'s units, which count only once the zone is attacked.
    pub(super) fn king_danger(
        &self,
        pos: &Position,
        colour: Colour,
        sq: Sq,
        hand: i32,
    ) -> (i32, i32) {
        let (w, them) = (&self.w, colour.flip());
        if w.kd_quad == 0 && w.kd_eg == 0 {
            return (0, 0); // the term is off: spare the walk over the zone's paths
        }
        let mut units = 0;
        for &n in &self.neighbours[sq as usize] {
            let mut hit = false;
            for (_, k) in pos.capture_paths(them, n) {
                let k = k as usize;
                if !self.royal[k] {
                    let v = self.value[k].min(KING_DANGER_VALUE_CAP);
                    units += w.kd_path + v * w.kd_value_per_mille / 1000;
                    hit = true;
                }
            }
            // The royal's own path is one of the defenders.
            if hit && pos.attack_count(colour, n) <= 1 {
                units += w.kd_weak;
            }
        }
        if units == 0 {
            return (0, 0);
        }
        units += hand;
        let mg = (units * units / KING_DANGER_SCALE * w.kd_quad / KING_DANGER_SCALE)
            .min(KING_DANGER_CAP);
        (mg, units * w.kd_eg / KING_DANGER_SCALE)
    }
}
