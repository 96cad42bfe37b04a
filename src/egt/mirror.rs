//! Colour mirrors: where Black's compiled rules are White's reflected on the board (the map
//! `rules` finds, `Rules::colour_flip`), the table of a material with the colours swapped
//! (KPvKQ for KQvKP) holds the same values, read with the board reflected and the side to
//! move swapped, so only one of the two is solved.

use std::sync::Arc;

use super::material::{ManSpec, Material, MAX_MEN};
use super::rules::Rules;

/// How to read a table through the table of its colour mirror.
#[derive(Clone, Debug)]
pub struct Mirror {
    /// `order[j]`: the man of the mirrored material that becomes the solved table's man `j`.
    pub order: Vec<u8>,
    /// The board map (its own inverse) from the mirrored material's squares to the solved
    /// table's.
    pub flip: Arc<[u8]>,
}

impl Mirror {
    /// The solved table's squares of a position of the mirrored material (`sq` in its
    /// order).
    pub fn squares(&self, sq: &[u8]) -> [u8; MAX_MEN] {
        let mut out = [0u8; MAX_MEN];
        for (j, &k) in self.order.iter().enumerate() {
            out[j] = self.flip[sq[k as usize] as usize];
        }
        out
    }
}

/// The material with the colours swapped, and for each of its men the man of `m` it comes
/// from.
pub fn swapped(m: &Material) -> (Material, Vec<u8>) {
    let mut men: Vec<(ManSpec, u8)> = m
        .men
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let mut t = *s;
            t.colour = 1 - s.colour;
            (t, i as u8)
        })
        .collect();
    men.sort();
    let order = men.iter().map(|&(_, i)| i).collect();
    (
        Material::new(men.into_iter().map(|(s, _)| s).collect()),
        order,
    )
}

/// A side's men as compared when choosing which of a pair is solved: the piece values
/// summed (the stronger side White, as materials are usually named), then the men.
fn strength(rules: &Rules, m: &Material, colour: u8) -> (i64, Vec<(bool, u16)>) {
    let side = m.men.iter().filter(|s| s.colour == colour);
    let value = side
        .clone()
        .map(|s| {
            rules
                .variant
                .pieces
                .get(s.piece as usize)
                .map_or(0, |p| i64::from(p.value))
        })
        .sum();
    // Equal values: the men in material order break the tie, one way for both of a pair.
    let men = side.map(|s| (s.not_royal, u16::from(s.piece))).collect();
    (value, men)
}

/// True when the game treats the colours alike as well: not when only Black may pass
/// (`null_move`), nor under the perpetual-check ban, whose solver settles mutual perpetual
/// check against White first (see `perpetual`).
fn game_alike(rules: &Rules) -> bool {
    !rules.game.null_move && !rules.game.perpetual_check_loses
}

/// The solved material `m`'s table is read from, with the way to read it, when that is its
/// colour mirror: the colours play alike, and `m` is the weaker-White one of its pair.
pub fn source_of(rules: &Rules, m: &Material) -> Option<(Material, Mirror)> {
    let flip = rules.colour_flip.clone().filter(|_| game_alike(rules))?;
    let (white, black) = (strength(rules, m, 0), strength(rules, m, 1));
    if white >= black {
        return None;
    }
    // Black is stronger: the mirror has White stronger. Its man `j` is `m`'s man `from[j]`.
    let (solved, from) = swapped(m);
    Some((solved, Mirror { order: from, flip }))
}
