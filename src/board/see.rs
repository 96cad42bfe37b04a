//! Static exchange evaluation: what a capture wins once both sides have recaptured on its
//! square as long as it pays, least valuable capturer first. The capturers are read from the
//! attack map and each capture is really made, so x-rays, a cannon's new screen or a lion's
//! path that opens come from the map's own re-walk of the paths the capture changed.

use variants::rights;

use crate::board::layout::NO_CELL;
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::{Colour, Sq, OFF};

/// The exchange value of a royal: more than everything else together, so that a royal only
/// captures when nothing can take it back.
pub const ROYAL_SEE_VALUE: i32 = 100_000;

/// Captures deeper than this end the exchange (a bound on the recursion; real exchanges on
/// one square are far shorter).
const MAX_EXCHANGE: usize = 64;

impl Position {
    /// The material the side to move gains by playing `m` and then exchanging on its end
    /// square (0 for a move that removes nothing and loses nothing). Explosions are not
    /// modelled: search does not use this in atomic games.
    ///
    /// Answered from the attack map's lists without a make where that is provably the same
    /// ([`Position::see_by_lists`]), else by [`Position::see_exact`].
    pub fn see(&mut self, m: &Move, ops: &mut Vec<Op>) -> i32 {
        match self.see_by_lists(m) {
            Some(v) => v,
            None => self.see_exact(m, ops),
        }
    }

    /// [`Position::see`] by making every capture of the exchange.
    pub fn see_exact(&mut self, m: &Move, ops: &mut Vec<Op>) -> i32 {
        let gain = self.removed_value(m);
        let to = self.lay.sq(m.to_coord());
        let saved = self.make(m, ops);
        let reply = self.exchange(to, ops, 1);
        self.unmake(saved, ops);
        gain - reply
    }

    /// The capture paths of `colour` onto `sq` as the board stands, read from the attack
    /// map's list of the square, leaving out the man on `skip` (a mover that leaves it):
    /// how many there are and the SEE value of the cheapest man among them. No make: x-rays
    /// and the screens a move would change are not seen, so this only pre-judges cases
    /// that [`Position::see`] decides exactly.
    pub fn capturers_onto(&self, colour: Colour, sq: Sq, skip: Option<Sq>) -> (u32, Option<i32>) {
        let (mut count, mut cheapest) = (0, None::<i32>);
        for id in self.map.cells_at(sq, colour) {
            let (slot, c) = self.map.split(id);
            let Some(man) = self.men[slot as usize].filter(|m| Some(m.sq) != skip) else {
                continue;
            };
            let cell = &self.lay.kinds[man.kind as usize].cells[colour.index()].cells[c as usize];
            if cell.rights & rights::CAPTURE != 0 {
                count += 1;
                let v = self.see_value(man.kind);
                cheapest = Some(cheapest.map_or(v, |c| c.min(v)));
            }
        }
        (count, cheapest)
    }

    /// The SEE value of the man a move puts on its end square (the dropped piece for a drop,
    /// the promoted kind for a promotion), 0 for a pass.
    pub fn moving_value(&self, m: &Move) -> i32 {
        match m.kind {
            MoveKind::Pass => 0,
            MoveKind::Drop | MoveKind::Promotion => {
                self.see_value(self.lay.kind_of(m.piece, false))
            }
            _ => self
                .man_at(self.lay.sq(m.from_coord()))
                .map_or(0, |a| self.see_value(a.kind)),
        }
    }

    /// The exchange value of a man for SEE.
    pub fn see_value(&self, kind: u8) -> i32 {
        let k = &self.lay.kinds[kind as usize];
        if k.royal {
            ROYAL_SEE_VALUE
        } else {
            k.value
        }
    }

    /// Value of the enemy men a move removes, plus what a promotion adds.
    fn removed_value(&self, m: &Move) -> i32 {
        if matches!(m.kind, MoveKind::Drop | MoveKind::Castle | MoveKind::Pass) {
            return 0;
        }
        let Some(mover) = self.man_at(self.lay.sq(m.from_coord())).copied() else {
            return 0;
        };
        let taken: i32 = self.enemy_victims(m).map(|v| self.see_value(v.kind)).sum();
        taken + self.promotion_gain(m, mover.kind)
    }

    fn promotion_gain(&self, m: &Move, kind: u8) -> i32 {
        if m.kind != MoveKind::Promotion {
            return 0;
        }
        let new = self.lay.kind_of(m.piece, false);
        self.see_value(new) - self.see_value(kind)
    }

    /// The best the side to move can gain by starting (or declining) captures on `sq`.
    fn exchange(&mut self, sq: Sq, ops: &mut Vec<Op>, depth: usize) -> i32 {
        if depth >= MAX_EXCHANGE {
            return 0;
        }
        let Some(m) = self.least_valuable_capture(sq) else {
            return 0;
        };
        let gain = self.removed_value(&m);
        let saved = self.make(&m, ops);
        let reply = self.exchange(sq, ops, depth + 1);
        self.unmake(saved, ops);
        (gain - reply).max(0)
    }

    /// The plain replacement capture onto `sq` by the side to move's least valuable man
    /// (lowest square index among equals), promoting to the most valuable choice.
    pub fn least_valuable_capture(&self, sq: Sq) -> Option<Move> {
        let mut moves = Vec::new();
        self.captures_onto(sq, &mut moves);
        moves.into_iter().min_by_key(|m| {
            let mover = self
                .man_at(self.lay.sq(m.from_coord()))
                .map_or(0, |a| self.see_value(a.kind));
            let promoted = if m.kind == MoveKind::Promotion {
                self.see_value(self.lay.kind_of(m.piece, false))
            } else {
                0
            };
            (mover, m.from, std::cmp::Reverse(promoted))
        })
    }

    /// The side to move's replacement captures onto `sq` that remove nothing else.
    fn captures_onto(&self, sq: Sq, out: &mut Vec<Move>) {
        let us = self.stm;
        if self.man_at(sq).is_none_or(|v| v.colour == us) {
            return;
        }
        self.push_captures_on(sq, out);
        out.retain(|m| m.n_extras() == 0);
    }
}

/// One man that can take on the exchange square, as [`Position::see_by_lists`] reads it.
#[derive(Clone, Copy)]
struct Capturer {
    colour: Colour,
    /// SEE value before it moves (the order of the exchange) and its kind after (what the
    /// next capture takes).
    value: i32,
    used: u8,
    /// Coordinate index of its square: the exact exchange's tie-break among equal values.
    from: usize,
    piece: variants::PieceId,
    rights: u16,
    taken: bool,
}

impl Position {
    /// The exchange of [`Position::see_exact`] played on lists instead of boards: the
    /// capturers of both sides read once from the attack map, each side taking with its
    /// least valuable man that may take the current occupant. `None` (ask the exact SEE)
    /// wherever a capture could change the capturers: a man leaving a square that some
    /// path goes on through (an x-ray, a hopper's screen, a lion's leg, told apart only
    /// when the path is a straight ray that does not point at the square), captures that
    /// promote or take more than the occupant (locust victims, burns, explosions, igui),
    /// pieces with two paths to a square, and moves other than a plain capture.
    pub fn see_by_lists(&self, m: &Move) -> Option<i32> {
        let lay = &self.lay;
        if lay.burners || lay.igui || lay.multi_path || lay.variant.blast.is_some() {
            return None;
        }
        if m.kind != MoveKind::Normal || m.n_extras() != 0 {
            return None;
        }
        let (from, to) = (lay.sq(m.from_coord()), lay.sq(m.to_coord()));
        let mover = *self.man_at(from)?;
        let victim = *self.man_at(to)?;
        if victim.colour == mover.colour {
            return None;
        }
        let mut capturers = arrayvec::ArrayVec::<Capturer, 32>::new();
        for colour in [Colour::White, Colour::Black] {
            for id in self.map.cells_at(to, colour) {
                let (slot, c) = self.map.split(id);
                let man = self.men[slot as usize]?;
                let kind = &lay.kinds[man.kind as usize];
                let cell = &kind.cells[colour.index()].cells[c as usize];
                if cell.rights & rights::CAPTURE == 0 || man.sq == from {
                    continue;
                }
                let side = colour.index();
                let plain = cell.locust_back == NO_CELL
                    && kind.plain_to[side][to as usize]
                    && kind.plain_from[side][man.sq as usize];
                if !plain || self.opens_onto(man.sq, to) {
                    return None;
                }
                capturers
                    .try_push(Capturer {
                        colour,
                        value: self.see_value(man.kind),
                        used: kind.used,
                        from: lay.coord(man.sq)?.index(),
                        piece: kind.piece,
                        rights: cell.rights,
                        taken: false,
                    })
                    .ok()?;
            }
        }
        if self.opens_onto(from, to) {
            return None;
        }
        Some(self.see_value(victim.kind) - self.swap(&mut capturers, mover.colour, mover.kind))
    }

    /// What the side after `us` gains by the exchange on a square `us` has just taken with
    /// a man of kind `mover` (before it moved), taking back as long as it pays.
    fn swap(&self, capturers: &mut [Capturer], us: Colour, mover: u8) -> i32 {
        let mut gains = arrayvec::ArrayVec::<i32, MAX_EXCHANGE>::new();
        let mut occupant = self.lay.kinds[mover as usize].used;
        let mut side = us.flip();
        while gains.len() + 1 < MAX_EXCHANGE {
            let victim = &self.lay.kinds[occupant as usize];
            let next = capturers
                .iter_mut()
                .filter(|c| !c.taken && c.colour == side)
                .filter(|c| !(victim.royal && c.rights & rights::TAME != 0))
                .filter(|c| !self.lay.no_capture[c.piece as usize][victim.piece as usize])
                .min_by_key(|c| (c.value, c.from));
            let Some(next) = next else { break };
            next.taken = true;
            gains.push(self.see_value(occupant));
            occupant = next.used;
            side = side.flip();
        }
        gains.iter().rev().fold(0, |reply, &g| (g - reply).max(0))
    }

    /// Some path reaching `sq` (either side's, any rights) would go on past it were it left
    /// empty, and might then reach `target`: it is not a straight ray, or its ray points at
    /// `target`.
    fn opens_onto(&self, sq: Sq, target: Sq) -> bool {
        [Colour::White, Colour::Black].into_iter().any(|colour| {
            self.map.cells_at(sq, colour).any(|id| {
                let (slot, c) = self.map.split(id);
                let Some(man) = self.men[slot as usize] else {
                    return true;
                };
                let kind = &self.lay.kinds[man.kind as usize];
                let cell = &kind.cells[colour.index()].cells[c as usize];
                let goes_on = cell.empty.0 < cell.empty.1 || cell.occupied.0 < cell.occupied.1;
                goes_on && (cell.straight == 0 || self.on_ray(sq, cell.straight, target))
            })
        })
    }

    /// `target` lies on the ray from `sq` by steps of `offset` before the board's edge.
    fn on_ray(&self, sq: Sq, offset: i16, target: Sq) -> bool {
        let mut s = sq as i32;
        loop {
            s += offset as i32;
            let Some(&occ) = usize::try_from(s).ok().and_then(|i| self.board.get(i)) else {
                return false;
            };
            if s == target as i32 {
                return true;
            }
            if occ == OFF {
                return false;
            }
        }
    }
}
