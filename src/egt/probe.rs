//! Probing: the value of an engine position from the tables, and of each of its legal moves.

use crate::board::position::Position;
use crate::game::Game;

use super::material::{ManSpec, Material, MAX_MEN};
use super::rules::Rules;
use super::value::{goodness, is_loss, is_win, loss, plies, win, DRAW, ILLEGAL};
use super::{Builder, EgtError};

/// A position as a table sees it: its material, the men's squares in material order, and the
/// side to move; `None` when it has no table form (hands, too many men, no royal, big board).
/// Castling rights and en passant are not part of it: see [`readable`].
pub fn table_form(rules: &Rules, pos: &Position) -> Option<(Material, Vec<u8>, usize)> {
    let lay = pos.layout();
    let mut men: Vec<(ManSpec, u8)> = Vec::new();
    for (_, man) in pos.live() {
        let piece = pos.piece_of(man);
        let c = lay.coord(man.sq)?;
        men.push((
            ManSpec {
                colour: man.colour.index() as u8,
                not_royal: !rules.variant.pieces[piece as usize].royal,
                piece,
            },
            rules.board.sq(c),
        ));
    }
    if men.len() > MAX_MEN {
        return None;
    }
    men.sort();
    let material = Material::new(men.iter().map(|m| m.0).collect());
    if !material.royal_each() {
        return None;
    }
    let squares = men.iter().map(|m| m.1).collect();
    Some((material, squares, pos.side_to_move().index()))
}

/// True when a table's value is the position's: no castling right or en passant capture,
/// moves the tables do not hold, is open in it.
pub fn readable(pos: &Position) -> bool {
    !pos.has_castling_or_ep()
}

/// The code of the position after a move, seen from the side that made it.
pub fn from_mover(code: u8) -> u8 {
    match code {
        c if is_loss(c) => win(plies(c) + 1),
        c if is_win(c) => loss(plies(c) + 1),
        ILLEGAL => ILLEGAL,
        _ => DRAW,
    }
}

/// The value of the game's position and of each legal move (from the mover's side), best
/// first, with the move texts.
pub fn probe(builder: &mut Builder, game: &mut Game) -> Result<(u8, Vec<(String, u8)>), EgtError> {
    let rules = builder.rules.clone();
    let own = value_of(builder, &rules, game.position())?;
    let mut moves = Vec::new();
    for mv in game.legal_moves() {
        let text = game.move_text(&mv);
        game.play(mv);
        let after = value_of(builder, &rules, game.position())?;
        game.undo();
        moves.push((text, from_mover(after)));
    }
    moves.sort_by_key(|(t, c)| (std::cmp::Reverse(goodness(*c)), t.clone()));
    Ok((own, moves))
}

fn value_of(builder: &mut Builder, rules: &Rules, pos: &Position) -> Result<u8, EgtError> {
    let Some((material, squares, stm)) = table_form(rules, pos).filter(|_| readable(pos)) else {
        return Ok(ILLEGAL);
    };
    Ok(builder.view(&material)?.code(stm, &squares))
}
