//! Drops: which men in hand may go to which squares (FSF's drop regions, pawn ranks,
//! `dropNoDoubled` with its count, a confined man's zone, `dropPromoted`'s promoted form),
//! where a drop takes its man from, and the rules that make drops legal or compulsory
//! (`dropChecks`, `mustDrop`, `mustDropType`), decided here for `royalty.rs`.

use variants::geometry::Coord;
use variants::rules::EnclosingDrop;
use variants::PieceId;

use crate::board::enclosing::{self, held_by, Held};
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::{Colour, EMPTY, OFF};

impl Position {
    /// Drops from the hand of the side to move.
    pub fn gen_drops(&self, out: &mut Vec<Move>) {
        let v = &self.lay.variant;
        if !v.drops.enabled {
            return;
        }
        let us = self.stm;
        let hand = &self.hand[us.index()];
        let forced = self.forced_drop_type();
        let enclosing = self.enclosing_mask();
        let bishops = self.bishop_census(us);
        for (p, &n) in hand.iter().enumerate() {
            let p = p as PieceId;
            if (n == 0 && !v.drops.free) || forced.is_some_and(|t| t != p) {
                continue;
            }
            // A promoted form held in hand itself (`dropLoop`) is dropped as such already.
            let promoted = v.pieces[p as usize]
                .promoted
                .filter(|&q| v.drops.promoted && hand.get(q as usize) == Some(&0));
            for sq in self.lay.squares() {
                if self.board[sq as usize] != EMPTY {
                    continue;
                }
                let Some(c) = self.lay.coord(sq) else {
                    continue;
                };
                let index = c.rank as usize * self.lay.files as usize + c.file as usize;
                if enclosing.as_ref().is_some_and(|mask| !mask[index]) {
                    continue;
                }
                // FSF's `anyside` replaces the other drop restrictions (regions, files).
                let any_side = v.drops.enclosing == EnclosingDrop::AnySide;
                if (!any_side && !self.may_drop(p, us, c))
                    || !self.bishop_rule_ok(&bishops, p, us, c)
                {
                    continue;
                }
                for placed in [Some(p), promoted].into_iter().flatten() {
                    if !self.dead_for(placed, us, c) {
                        let mut m = Move::normal(c, c);
                        m.kind = MoveKind::Drop;
                        m.piece = placed;
                        out.push(m);
                    }
                }
            }
        }
    }

    /// The squares an `enclosingDrop` rule (or the opening of `enclosingDropStart`) allows
    /// now (`None`: no such rule).
    fn enclosing_mask(&self) -> Option<Vec<bool>> {
        let d = &self.lay.variant.drops;
        let (files, ranks) = (self.lay.files, self.lay.ranks);
        if let Some(mask) = enclosing::opening(&d.enclosing_start, files, ranks, self.held()) {
            return Some(mask);
        }
        if d.enclosing == EnclosingDrop::None {
            return None;
        }
        enclosing::allowed(d.enclosing, files, ranks, self.held())
    }

    /// What each square holds, as the enclosing rules ask it for the side to move.
    pub(crate) fn held(&self) -> impl Fn(Coord) -> Held + '_ {
        move |c: Coord| {
            let sq = self.lay.sq(c);
            if self.board[sq as usize] == OFF {
                return Held::Wall;
            }
            held_by(self.man_at(sq).map(|m| m.colour), self.stm)
        }
    }

    /// `c` from `us`'s side of the board (White's coordinates for Black's squares).
    fn relative(&self, c: Coord, us: Colour) -> Coord {
        if us == Colour::White {
            c
        } else {
            c.flip_rank(self.lay.ranks)
        }
    }

    /// True when a man of type `placed` could never move again from `c` (shogi's last ranks).
    fn dead_for(&self, placed: PieceId, us: Colour, c: Coord) -> bool {
        let rel = self.relative(c, us);
        self.lay.variant.pieces[placed as usize]
            .dead_squares
            .contains(rel)
    }

    /// The rules on the type in hand, `p`, for a drop on the empty square `c` (for a gate
    /// too, whose square the man leaving it empties).
    pub(crate) fn may_drop(&self, p: PieceId, us: Colour, c: Coord) -> bool {
        let v = &self.lay.variant;
        let d = &v.drops;
        if !d.region[us.index()].contains(c) {
            return false;
        }
        let piece = &v.pieces[p as usize];
        if let Some(z) = piece.confined {
            let zone = &v.zones[z as usize];
            let own = if us == Colour::White {
                &zone.white
            } else {
                &zone.black
            };
            if !own.contains(c) {
                return false;
            }
        }
        let rel = self.relative(c, us);
        if d.pawn_types.contains(&p) && d.pawn_drop_forbidden.contains(rel) {
            return false;
        }
        if rel.rank != 0 && d.first_rank_only.contains(&p) {
            return false;
        }
        if d.no_doubled.contains(&p) {
            let on_file = self
                .live()
                .filter(|(_, m)| {
                    m.colour == us
                        && self.piece_of(m) == p
                        && self.lay.coord(m.sq).is_some_and(|mc| mc.file == c.file)
                })
                .count();
            if on_file as u32 >= d.no_doubled_count {
                return false;
            }
        }
        true
    }

    /// `dropOppositeColoredBishop`: where `us` has its bishops and may still drop them.
    fn bishop_census(&self, us: Colour) -> BishopCensus {
        let Some(bishop) = self.lay.variant.drops.opposite_bishops else {
            return BishopCensus::default();
        };
        let mut census = BishopCensus {
            bishop: Some(bishop),
            total: self.hand[us.index()]
                .get(bishop as usize)
                .map_or(0, |&n| n as u32),
            ..BishopCensus::default()
        };
        for sq in self.lay.squares() {
            let Some(c) = self.lay.coord(sq) else {
                continue;
            };
            let colour = square_colour(c);
            match self.man_at(sq) {
                Some(m) if m.colour == us && self.piece_of(m) == bishop => {
                    census.placed[colour] += 1;
                    census.total += 1;
                }
                Some(_) => {}
                None if self.may_drop(bishop, us, c) => census.free[colour] += 1,
                None => {}
            }
        }
        census
    }

    /// `dropOppositeColoredBishop` (FSF's rule): a bishop may not join more than half of
    /// its side's bishops (board and hand, rounded up) on one square colour, and any other
    /// drop must leave squares enough of each colour for half of them (rounded down).
    fn bishop_rule_ok(&self, census: &BishopCensus, p: PieceId, us: Colour, c: Coord) -> bool {
        let Some(bishop) = census.bishop else {
            return true;
        };
        let colour = square_colour(c);
        if p == bishop {
            return census.placed[colour] < census.total.div_ceil(2);
        }
        let mut free = census.free;
        if self.may_drop(bishop, us, c) {
            free[colour] -= 1;
        }
        let half = census.total / 2;
        (0..2).all(|k| census.placed[k] + free[k] >= half)
    }

    /// The type a drop of `placed` takes from hand: itself, or under `dropPromoted` the
    /// base type of a promoted form that the hand does not hold as such.
    pub(crate) fn drop_source(&self, placed: PieceId, us: Colour) -> PieceId {
        let v = &self.lay.variant;
        let held = self.hand[us.index()]
            .get(placed as usize)
            .is_some_and(|&n| n > 0);
        match v.pieces[placed as usize].demotes_to {
            Some(base) if v.drops.promoted && !held => base,
            _ => placed,
        }
    }

    /// Under `mustDropType`, the type that alone may be dropped while the side to move
    /// holds one.
    fn forced_drop_type(&self) -> Option<PieceId> {
        let d = &self.lay.variant.drops;
        let t = d.must_drop_type.filter(|_| d.must_drop)?;
        let held = self.hand[self.stm.index()]
            .get(t as usize)
            .is_some_and(|&n| n > 0);
        held.then_some(t)
    }

    /// `mustDrop`: true when the side to move holds men it must drop and one of them can
    /// be dropped legally, so that every move but a drop is illegal.
    pub(crate) fn drop_forced(&self) -> bool {
        let d = &self.lay.variant.drops;
        if !d.must_drop {
            return false;
        }
        let hand = &self.hand[self.stm.index()];
        let holds = match d.must_drop_type {
            Some(t) => hand.get(t as usize).is_some_and(|&n| n > 0),
            None => hand.iter().any(|&n| n > 0),
        };
        if !holds {
            return false;
        }
        // Legality needs make/unmake; a copy keeps this query on a shared position.
        let mut copy = self.clone();
        let mut drops = Vec::new();
        copy.gen_drops(&mut drops);
        let mut ops: Vec<Op> = Vec::new();
        drops.iter().any(|m| copy.drop_legal(m, &mut ops))
    }

    /// A drop's legality, by make and test (only asked under `mustDrop`).
    fn drop_legal(&mut self, m: &Move, ops: &mut Vec<Op>) -> bool {
        let facing = self.lay.variant.end.bikjang && self.facing(self.stm);
        match self.make_if_legal_slow(m, facing, ops) {
            Some(saved) => {
                self.unmake(saved, ops);
                true
            }
            None => false,
        }
    }

    /// `dropChecks = false`: called with `m` made, false when it was a drop that checks.
    pub(crate) fn drop_check_ok(&self, m: &Move) -> bool {
        m.kind != MoveKind::Drop || !self.lay.variant.drops.no_checks || !self.in_check(self.stm)
    }
}

/// Where a side's bishops stand and may still be dropped, by square colour
/// (`dropOppositeColoredBishop`; index 0: FSF's dark squares, a1's colour).
#[derive(Default)]
struct BishopCensus {
    /// The bishop type, when the rule is in force.
    bishop: Option<PieceId>,
    /// The side's bishops on the board and in hand.
    total: u32,
    /// Its bishops on each colour.
    placed: [u32; 2],
    /// Empty squares of each colour it may drop a bishop on.
    free: [u32; 2],
}

/// 0 for FSF's dark squares (a1's colour), 1 for the light ones.
pub(crate) fn square_colour(c: Coord) -> usize {
    ((c.file + c.rank) % 2) as usize
}
