//! Counting rules (Fairy-Stockfish's `countingRule`: makruk, cambodian, asean): the count a
//! position carries (its limit and the plies counted, both in plies as FSF keeps them), how a
//! move starts or restarts it, the FEN fields, and when the count has run out (a draw the
//! game record and the search both see).

use variants::rules::{Counting, CountingRule};
use variants::PieceId;

use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::Colour;

/// Mixed into the key with the counting limit (the limit changes only with the material, so
/// repetitions still match; the plies counted are left out, as the halfmove clock is).
const LIMIT_KEY: u64 = 0x9E37_79B9_7F4A_7C15;

/// The count of a position: `limit` plies may be played (0: nobody counts), `ply` have been.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Plies the count allows; 0 when no count runs.
    pub limit: u32,
    /// Plies counted so far.
    pub ply: u32,
    /// No side can count with the material on the board: until a capture, promotion or drop
    /// changes it, a move only leaves the count as it is (saves a scan of the men a move).
    idle: bool,
}

/// The men a counting rule looks at, per colour (White first).
#[derive(Default)]
struct Material {
    all: [u32; 2],
    pawns: u32,
    rooks: [u32; 2],
    khons: [u32; 2],
    knights: [u32; 2],
}

impl Count {
    /// The key of this count's limit.
    pub fn key(self) -> u64 {
        (self.limit as u64).wrapping_mul(LIMIT_KEY)
    }
}

impl Position {
    /// The count of the position.
    pub fn count(&self) -> Count {
        self.count
    }

    /// The count has run out: the game is drawn (unless the side to move is mated, which the
    /// caller judges first).
    pub fn count_over(&self) -> bool {
        self.count.limit > 0 && self.count.ply > self.count.limit
    }

    /// Sets the count from a FEN's fields (`limit` from the e.p. field's place, the plies from
    /// the halfmove field, which then does not hold a halfmove clock: FSF's reading).
    pub(crate) fn set_count(&mut self, limit: u32) {
        self.key ^= self.count.key();
        self.count = Count {
            limit,
            ..Count::default()
        };
        if limit > 0 {
            self.count.ply = self.rule50;
            self.rule50 = 0;
        }
        self.key ^= self.count.key();
    }

    /// After a move (the side to move already switched): counts one more ply, and starts or
    /// restarts the count as FSF does. `made`: the ops of the move.
    pub(crate) fn count_move(&mut self, mv: &Move, made: &[Op]) {
        // The layout is shared: holding it leaves the position free to change.
        let lay = std::sync::Arc::clone(&self.lay);
        let Some(rule) = &lay.variant.end.counting else {
            return;
        };
        let before = self.count;
        if self.count.limit > 0 {
            self.count.ply += 1;
        }
        let captured = made.iter().find_map(|op| match op {
            Op::Kill(_, man) => Some(self.piece_of(man)),
            _ => None,
        });
        let promoted = mv.kind == MoveKind::Promotion;
        let changed = captured.is_some() || promoted || mv.kind == MoveKind::Drop;
        if (self.count.limit > 0 || self.count.idle) && !changed {
            self.key ^= before.key() ^ self.count.key();
            return;
        }
        let m = self.material(rule);
        let (us, mover) = (self.stm, self.stm.flip());
        let pawn_taken = captured.is_some_and(|p| rule.pawns.contains(&p));
        if rule.rule != CountingRule::Asean
            && pawn_taken
            && m.all[mover.index()] == 1
            && m.pawns == 0
        {
            let n = limit(rule, &m, mover);
            if n > 0 {
                let total = m.all[0] + m.all[1];
                self.count.limit = 2 * n;
                self.count.ply = 2 * total - 1;
            }
        }
        let bare = m.all[us.index()] == 1;
        if self.count.limit == 0 || ((captured.is_some() || promoted) && bare) {
            let n = limit(rule, &m, us);
            if n > 0 {
                let fresh = rule.rule == CountingRule::Asean || !bare;
                let total = m.all[0] + m.all[1];
                self.count.limit = 2 * n;
                self.count.ply = if fresh { 0 } else { 2 * total };
            }
        }
        self.count.idle = self.count.limit == 0
            && limit(rule, &m, Colour::White) == 0
            && limit(rule, &m, Colour::Black) == 0;
        self.key ^= before.key() ^ self.count.key();
    }

    /// The men the rule counts.
    fn material(&self, rule: &Counting) -> Material {
        let mut m = Material::default();
        let is = |set: &[PieceId], p: PieceId| set.contains(&p);
        for (_, man) in self.live() {
            let (c, p) = (man.colour.index(), self.piece_of(man));
            m.all[c] += 1;
            m.pawns += is(&rule.pawns, p) as u32;
            m.rooks[c] += is(&rule.rooks, p) as u32;
            m.khons[c] += is(&rule.khons, p) as u32;
            m.knights[c] += is(&rule.knights, p) as u32;
        }
        m
    }
}

/// The moves `side` may count under the rule with this material (0: it does not count), as
/// FSF's counting limits give them.
fn limit(rule: &Counting, m: &Material, side: Colour) -> u32 {
    let (us, them) = (side.index(), side.flip().index());
    let pieces_honour = |base: u32| {
        if m.rooks[them] > 1 {
            8 - base
        } else if m.rooks[them] == 1 {
            16 - base
        } else if m.khons[them] > 1 {
            22 - base
        } else if m.knights[them] > 1 {
            32 - base
        } else if m.khons[them] == 1 {
            44 - base
        } else {
            64 - base
        }
    };
    match rule.rule {
        CountingRule::Makruk if m.pawns > 0 || m.all[them] == 1 => 0,
        CountingRule::Makruk if m.all[us] > 1 => 64,
        CountingRule::Makruk => pieces_honour(0),
        CountingRule::Cambodian if m.all[us] > 3 || m.all[them] == 1 => 0,
        CountingRule::Cambodian if m.all[us] > 1 => 63,
        CountingRule::Cambodian if m.pawns > 0 => 0,
        CountingRule::Cambodian => pieces_honour(1),
        CountingRule::Asean if m.pawns > 0 || m.all[us] > 1 => 0,
        CountingRule::Asean if m.rooks[them] > 0 => 16,
        CountingRule::Asean if m.khons[them] > 0 => 44,
        CountingRule::Asean if m.knights[them] > 0 => 64,
        CountingRule::Asean => 0,
    }
}
