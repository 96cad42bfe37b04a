//! Threats read from the attack map: a man the enemy attacks and its own side does not
//! defend, or one an enemy man cheaper than it attacks, puts its value (less the cheapest
//! attacker's when it is defended) at stake. The side to move can save one such man, not two.

use super::params::*;
use super::EvalTables;
use crate::board::position::{Man, Position};

/// Stakes of one side's threatened men.
#[derive(Default, Clone, Copy)]
pub(super) struct Stakes {
    /// Sum of the stakes.
    sum: i32,
    /// The largest stake.
    first: i32,
    /// The second largest.
    second: i32,
}

impl Stakes {
    fn add(&mut self, stake: i32) {
        self.sum += stake;
        if stake > self.first {
            self.second = self.first;
            self.first = stake;
        } else if stake > self.second {
            self.second = stake;
        }
    }

    /// The penalty of the side whose men these are; `to_move` when it is that side's turn
    /// (it saves one man, the second largest stake is likely lost):
    /// (middle game, endgame).
    pub(super) fn penalty(&self, to_move: bool, w: &Weights) -> (i32, i32) {
        let sum = self.sum.min(THREAT_SUM_CAP);
        let second = if to_move {
            self.second * w.threat_second_per_mille / 1000
        } else {
            0
        };
        (
            sum * w.threat_mg_per_mille / 1000 + second,
            sum * w.threat_eg_per_mille / 1000 + second,
        )
    }
}

impl EvalTables {
    /// Adds to `stakes` what the non-royal man `m` risks from the enemy's attacks.
    pub(super) fn add_threat(&self, pos: &Position, m: &Man, stakes: &mut Stakes) {
        let them = m.colour.flip();
        if pos.attack_count(them, m.sq) == 0 {
            return;
        }
        let value = self.value[m.kind as usize];
        if pos.attack_count(m.colour, m.sq) == 0 {
            stakes.add(value);
            return;
        }
        // Defended: only a cheaper, non-royal attacker wins something by taking it.
        let cheapest = pos
            .capture_paths(them, m.sq)
            .filter(|&(_, k)| !self.royal[k as usize])
            .map(|(_, k)| self.value[k as usize])
            .min();
        if let Some(c) = cheapest.filter(|&c| c < value) {
            stakes.add(value - c);
        }
    }
}
