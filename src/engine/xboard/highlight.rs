//! XBoard's `lift` and `put` (feature `highlight=1`): the legal targets of the man a user
//! picks up, sent back as a `highlight` colour board, so that XBoard shows them and accepts
//! only them in variants whose rules it does not know (chu, tenjiku, a user's own). A
//! multi-leg move (a lion's capture on the way, igui, its pass) marks its first stop cyan:
//! dropped there, the man is lifted again, and the second leg's ends are marked then. The
//! colours are XBoard's: yellow a move, red a capture, magenta a promotion choice; the
//! convention for the legs is HaChu's, whose entry XBoard's multi-leg input follows.

use std::io::Write;

use variants::geometry::Coord;

use super::super::notation;
use super::Engine;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;

impl<W: Write> Engine<W> {
    /// `lift SQUARE`: the targets of the man there, or of the second leg when the man was
    /// just put on the first stop of a multi-leg move.
    pub(super) fn xb_lift(&mut self, arg: &str) {
        let dialect = self.xb_dialect();
        let Some(sq) = notation::square(self.game.position(), arg, dialect) else {
            self.say(&format!("Error (bad square): lift {arg}"));
            return;
        };
        let legal = self.game.legal_moves();
        let pos = self.game.position();
        let first: Vec<&Move> = legal.iter().filter(|m| m.from_coord() == sq).collect();
        let marks = if !first.is_empty() {
            self.xb.lifted = Some(sq);
            first_leg(pos, &first)
        } else if let (Some(from), true) = (self.xb.lifted, self.xb.put == Some(sq)) {
            let from_here = legal.iter().filter(|m| m.from_coord() == from);
            // The second legs, and the move of one leg that ends on the stop itself.
            second_leg(
                pos,
                from_here.filter(|m| match first_stop(pos, m) {
                    Some(stop) => stop == sq,
                    None => m.to_coord() == sq,
                }),
            )
        } else {
            return;
        };
        self.xb.put = None;
        if let Some(board) = colour_board(pos, &marks) {
            self.say(&format!("highlight {board}"));
        }
    }

    /// `put SQUARE`: where the user let the man go (a first stop is lifted again next).
    pub(super) fn xb_put(&mut self, arg: &str) {
        self.xb.put = notation::square(self.game.position(), arg, self.xb_dialect());
    }
}

/// The first square a multi-leg move stops on before its end: its victim nearest the start,
/// or the square a pass turns on; `None` for a move of one leg.
fn first_stop(pos: &Position, m: &Move) -> Option<Coord> {
    if !matches!(m.kind, MoveKind::Normal | MoveKind::Promotion) {
        return None;
    }
    // Victims are listed from the end of the path back.
    m.extras().last().or_else(|| pos.pass_via(m))
}

/// Marks per square (row-major from a1): the ends of `moves` and the first stops of the
/// multi-leg ones.
fn first_leg(pos: &Position, moves: &[&Move]) -> Vec<u8> {
    let mut marks = blank(pos);
    for m in moves {
        match first_stop(pos, m) {
            Some(stop) => marks[stop.index()] = b'C',
            None => mark_end(pos, m, &mut marks),
        }
    }
    marks
}

/// Marks for the ends of the second legs `moves`.
fn second_leg<'a>(pos: &Position, moves: impl Iterator<Item = &'a Move>) -> Vec<u8> {
    let mut marks = blank(pos);
    for m in moves {
        mark_end(pos, m, &mut marks);
    }
    marks
}

/// No marks, one per square index ([`Coord::index`]) of the board.
fn blank(pos: &Position) -> Vec<u8> {
    let lay = pos.layout();
    vec![0; Coord::new(lay.files - 1, lay.ranks - 1).index() + 1]
}

/// Marks a move's end: red on a man, yellow on an empty square, magenta for a promotion.
fn mark_end(pos: &Position, m: &Move, marks: &mut [u8]) {
    let to = m.to_coord();
    let slot = &mut marks[to.index()];
    if *slot == 0 {
        let occupied = pos.man_at(pos.layout().sq(to)).is_some() && m.from != m.to;
        *slot = if occupied { b'R' } else { b'Y' };
    }
    if m.kind == MoveKind::Promotion {
        *slot = b'M';
    }
}

/// The marks as XBoard's colour board (a FEN board with colours for men), top rank first;
/// `None` when nothing is marked.
fn colour_board(pos: &Position, marks: &[u8]) -> Option<String> {
    if marks.iter().all(|&c| c == 0) {
        return None;
    }
    let (files, ranks) = (pos.layout().files, pos.layout().ranks);
    let rows: Vec<String> = (0..ranks)
        .rev()
        .map(|r| {
            let mut row = String::new();
            let mut gap = 0;
            for f in 0..files {
                match marks[Coord::new(f, r).index()] {
                    0 => gap += 1,
                    c => {
                        if gap > 0 {
                            row.push_str(&gap.to_string());
                            gap = 0;
                        }
                        row.push(char::from(c));
                    }
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            row
        })
        .collect();
    Some(rows.join("/"))
}
