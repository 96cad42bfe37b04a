//! Probing: the value of an engine position from the tables, and of each of its legal moves.

use crate::board::position::Position;
use crate::game::Game;

use super::material::{ManSpec, Material, MAX_MEN};
use super::rules::Rules;
use super::value::{better, from_mover, goodness, ILLEGAL};
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

/// The value of the game's position and of each legal move (from the mover's side), best
/// first, with the move texts.
pub fn probe(builder: &mut Builder, game: &mut Game) -> Result<(u8, Vec<(String, u8)>), EgtError> {
    let rules = builder.rules.clone();
    let own = value_in(builder, &rules, game, EP_PLIES)?;
    let mut moves = Vec::new();
    for mv in game.legal_moves() {
        let text = game.move_text(&mv);
        game.play(mv);
        let after = value_in(builder, &rules, game, EP_PLIES);
        game.undo();
        moves.push((text, from_mover(after?)));
    }
    moves.sort_by_key(|(t, c)| (std::cmp::Reverse(goodness(*c)), t.clone()));
    Ok((own, moves))
}

/// How many plies of en passant rights [`value_in`] looks through (a double step answered
/// by a double step is two).
const EP_PLIES: u8 = 2;

/// The value of the game's position: the table's, or with an en passant capture open, the
/// best of its moves (the tables hold the positions after them); `ILLEGAL` when unknown.
fn value_in(
    builder: &mut Builder,
    rules: &Rules,
    game: &mut Game,
    plies: u8,
) -> Result<u8, EgtError> {
    let pos = game.position();
    let Some((material, squares, stm)) = table_form(rules, pos) else {
        return Ok(ILLEGAL);
    };
    if readable(pos) {
        return Ok(builder.view(&material)?.code(stm, &squares));
    }
    if pos.has_castling() || plies == 0 {
        return Ok(ILLEGAL);
    }
    let mut best: Option<u8> = None;
    for mv in game.legal_moves() {
        game.play(mv);
        let after = value_in(builder, rules, game, plies - 1);
        game.undo();
        let code = from_mover(after?);
        if code == ILLEGAL {
            return Ok(ILLEGAL);
        }
        best = Some(best.map_or(code, |b| better(b, code)));
    }
    // No legal move: the capture en passant is not one, and the table's value stands.
    match best {
        Some(code) => Ok(code),
        None => Ok(builder.view(&material)?.code(stm, &squares)),
    }
}
