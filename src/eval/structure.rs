//! Pawn structure and what it means for the pieces, read from the kinds' compiled moves:
//! doubled, isolated and connected pawns (for pawns that capture otherwise than they move, as
//! a chess pawn does: their chains defend each other), the shelter pawns give a royal, files
//! without pawns for men that slide along the file, and the pair of colour-bound men (the
//! bishop pair). Every weight is fitted by the tuner (docs/TUNING.md).

use arrayvec::ArrayVec;

use super::files::PawnFiles;
use super::params::*;
use super::EvalTables;
use crate::board::layout::{Layout, NO_CELL};
use crate::board::types::{Colour, Sq};

/// What each kind is, for these terms (by kind index).
#[derive(Debug, Default)]
pub(super) struct Shapes {
    /// A pawn (promoting cheap man) whose capturing steps differ from its quiet ones.
    pub chain_pawn: Vec<bool>,
    /// The kind slides forward along its file and not diagonally (a rook-like man).
    pub file_slider: Vec<bool>,
    /// Every square the kind can reach has the colour of the square it stands on.
    pub colour_bound: Vec<bool>,
}

/// The men these terms look at, gathered by the evaluation's scan (by colour index).
#[derive(Default)]
pub(super) struct Men {
    /// File sliders' squares.
    pub sliders: [ArrayVec<Sq, MAX_SLIDERS>; 2],
    /// Colour-bound men as (kind, bit 1 << square colour), merged per kind.
    pub bound: [ArrayVec<(u8, u8), MAX_SLIDERS>; 2],
}

impl Men {
    /// Records a colour-bound man of `kind` on a square of colour `shade` (0 or 1).
    pub fn add_bound(&mut self, c: usize, kind: u8, shade: u8) {
        let list = &mut self.bound[c];
        match list.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, mask)) => *mask |= 1 << shade,
            None => {
                let _ = list.try_push((kind, 1 << shade));
            }
        }
    }
}

impl Shapes {
    /// The shapes of every kind of a layout.
    pub fn new(lay: &Layout) -> Shapes {
        let n = lay.kinds.len();
        let centre = lay.sq(variants::geometry::Coord::new(lay.files / 2, lay.ranks / 2));
        let fwd = forward_step(lay, centre);
        let pawn = |k: usize| {
            super::promotion_gain(lay, k) > 0
                && lay.kinds[k].value < PAWN_VALUE_LIMIT
                && !lay.kinds[k].royal
        };
        Shapes {
            chain_pawn: (0..n).map(|k| pawn(k) && captures_aside(lay, k)).collect(),
            file_slider: (0..n)
                .map(|k| fwd != 0 && slides(lay, k, fwd) && !slides(lay, k, fwd + 1))
                .collect(),
            colour_bound: (0..n).map(|k| colour_bound(lay, k, centre)).collect(),
        }
    }
}

/// The mailbox step one rank forward for White from `sq` (0 when there is none).
fn forward_step(lay: &Layout, sq: Sq) -> i16 {
    let Some(c) = lay.coord(sq) else { return 0 };
    if c.rank as usize + 1 >= lay.ranks as usize {
        return 0;
    }
    let up = lay.sq(variants::geometry::Coord::new(c.file, c.rank + 1));
    up as i16 - sq as i16
}

/// True when White's man of kind `k` has a ray (a root cell continued along its own step)
/// along `step`.
fn slides(lay: &Layout, k: usize, step: i16) -> bool {
    let table = &lay.kinds[k].cells[0];
    table.roots.iter().any(|&r| {
        let cell = &table.cells[r as usize];
        cell.offset == step && cell.straight == step && cell.empty.1 > cell.empty.0
    })
}

/// True when the kind's capturing first steps (White's) are not its quiet ones.
fn captures_aside(lay: &Layout, k: usize) -> bool {
    use variants::rights::{CAPTURE, MOVE};
    let table = &lay.kinds[k].cells[0];
    let steps = |right: u16| -> Vec<i16> {
        let mut v: Vec<i16> = (table.roots.iter())
            .map(|&r| &table.cells[r as usize])
            .filter(|c| c.rights & right != 0)
            .map(|c| c.offset)
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let (quiet, captures) = (steps(MOVE), steps(CAPTURE));
    !captures.is_empty() && quiet != captures
}

/// True when every on-board square White's man of kind `k` reaches from `from` (its cells
/// followed on an empty board) has the colour of `from`, and it reaches some square.
fn colour_bound(lay: &Layout, k: usize, from: Sq) -> bool {
    let table = &lay.kinds[k].cells[0];
    let shade = |sq: Sq| lay.coord(sq).map(|c| (c.file + c.rank) & 1);
    let Some(home) = shade(from) else {
        return false;
    };
    let mut at: Vec<Option<Sq>> = Vec::with_capacity(table.cells.len());
    let mut reached = false;
    for cell in &table.cells {
        let base = if cell.parent == NO_CELL {
            Some(from)
        } else {
            at.get(cell.parent as usize).copied().flatten()
        };
        let to = base
            .map(|b| b as i32 + cell.offset as i32)
            .filter(|&t| t >= 0)
            .map(|t| t as Sq)
            .filter(|&t| lay.coord(t).is_some());
        if let Some(t) = to {
            if shade(t) != Some(home) {
                return false;
            }
            reached = true;
        }
        at.push(to);
    }
    reached
}

impl EvalTables {
    /// (middle game, endgame) structure score of colour index `c`: its pawns `pawns` (both
    /// sides' in `files`), its royals' shelter, its file sliders and colour-bound men.
    pub(super) fn structure(
        &self,
        c: usize,
        pawns: &[(u8, Sq)],
        files: &PawnFiles,
        royals: &[Sq],
        men: &Men,
    ) -> (i32, i32) {
        let (mut mg, mut eg) = self.chains(c, pawns, files);
        for &k in royals {
            mg += self.shelter(c, k, files);
        }
        let w = &self.w;
        for &sq in &men.sliders[c] {
            let f = self.coords[sq as usize].0;
            if !files.on_file(c, f) {
                let open = !files.on_file(1 - c, f);
                mg += if open {
                    w.open_file_mg
                } else {
                    w.half_open_file_mg
                };
                eg += if open {
                    w.open_file_eg
                } else {
                    w.half_open_file_eg
                };
            }
        }
        if men.bound[c].iter().any(|&(_, mask)| mask == 3) {
            mg += w.pair_mg;
            eg += w.pair_eg;
        }
        (mg, eg)
    }

    /// Doubled, isolated and connected chain pawns of colour index `c`.
    fn chains(&self, c: usize, pawns: &[(u8, Sq)], files: &PawnFiles) -> (i32, i32) {
        let (mut mg, mut eg) = (0, 0);
        let w = &self.w;
        let ranks = self.ranks as i32;
        let rel = |r: i8| super::relative_rank(r as u8, ranks, colour(c));
        for &(k, sq) in pawns {
            if !self.shapes.chain_pawn[k as usize] {
                continue;
            }
            let (f, r) = self.coords[sq as usize];
            let (doubled, isolated, linked) = files.chain(c, f, r);
            if doubled {
                mg -= w.doubled_mg;
                eg -= w.doubled_eg;
            }
            if isolated {
                mg -= w.isolated_mg;
                eg -= w.isolated_eg;
            }
            if linked {
                // Worth more the further the chain has come (chess-scaled rank 0..=7).
                let step = rel(r) * 7 / (ranks - 1).max(1) + CONNECTED_RANK_BASE;
                mg += w.connected_mg * step / CONNECTED_RANK_BASE;
                eg += w.connected_eg * step / CONNECTED_RANK_BASE;
            }
        }
        (mg, eg)
    }

    /// Middle-game bonus of colour index `c`'s own pawns on the royal's file or the next ones,
    /// one or two ranks in front of the royal on `king`.
    fn shelter(&self, c: usize, king: Sq, files: &PawnFiles) -> i32 {
        let (kf, kr) = self.coords[king as usize];
        let (near, far) = files.shelter(c, kf, kr);
        near as i32 * self.w.shelter_near + far as i32 * self.w.shelter_far
    }
}

fn colour(c: usize) -> Colour {
    if c == 0 {
        Colour::White
    } else {
        Colour::Black
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use crate::board::position::Position;

    /// The shapes of a built-in variant's pieces, by letter: (chain pawn, file slider,
    /// colour-bound) of each piece's first kind.
    fn shapes_of(name: &str) -> Vec<(char, (bool, bool, bool))> {
        let variant = variants::builtin(name).unwrap().unwrap();
        let start = Position::new_game(variant).unwrap();
        let lay = start.layout();
        let s = Shapes::new(lay);
        let mut out = Vec::new();
        for (k, kind) in lay.kinds.iter().enumerate() {
            let letter = lay.variant.pieces[kind.piece as usize].letter;
            if !out.iter().any(|(l, _)| *l == letter) {
                out.push((
                    letter,
                    (s.chain_pawn[k], s.file_slider[k], s.colour_bound[k]),
                ));
            }
        }
        out
    }

    fn shape(list: &[(char, (bool, bool, bool))], letter: char) -> (bool, bool, bool) {
        list.iter().find(|(l, _)| *l == letter).unwrap().1
    }

    #[test]
    fn chess_pieces_have_the_expected_shapes() {
        let s = shapes_of("chess");
        assert_eq!(shape(&s, 'P'), (true, false, false));
        assert_eq!(shape(&s, 'R'), (false, true, false));
        assert_eq!(shape(&s, 'B'), (false, false, true));
        assert_eq!(shape(&s, 'Q'), (false, false, false));
        assert_eq!(shape(&s, 'N'), (false, false, false));
    }

    #[test]
    fn pawns_that_capture_as_they_move_make_no_chains() {
        // A shogi pawn and a xiangqi soldier capture where they move: no pawn chains.
        assert!(!shape(&shapes_of("shogi"), 'P').0);
        assert!(!shape(&shapes_of("xiangqi"), 'P').0);
        // The shogi rook slides along the file; the bishop keeps its square colour.
        assert!(shape(&shapes_of("shogi"), 'R').1);
        assert!(shape(&shapes_of("shogi"), 'B').2);
    }
}
