//! The goals a variant may set besides taking or mating royals: check counting (a side that
//! gives its last check wins, FSF's `checkCounting`) and capture the flag (men of the flag
//! type in the flag region win, FSF's `flag*` keys). Either ends the game at once, as a lost
//! royal does: no move is legal after it.

use variants::rules::Flag;

use crate::board::moves::MoveKind;
use crate::board::position::Position;
use crate::board::types::Colour;

/// Which goal rule ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A side gave its last check.
    Checks,
    /// A flag was reached (and held where the rules give the other side a move).
    Flag,
    /// A side ran out of men of a type its extinction rule counts (`extinction.rs`).
    Extinction,
}

/// A game ended by a goal rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GoalEnd {
    /// The winner; `None` for a draw.
    pub winner: Option<Colour>,
    /// The rule.
    pub goal: Goal,
}

impl Position {
    /// Checks `colour` has left to give (meaningful only where the variant counts checks).
    pub fn checks_left(&self, colour: Colour) -> u8 {
        self.checks_left[colour.index()]
    }

    /// Called by make with the side to move already flipped: the mover used up one of its
    /// checks if its move gave check.
    pub(crate) fn count_check(&mut self) {
        let mover = self.stm.flip();
        let left = self.checks_left[mover.index()];
        if left == 0 || !self.in_check(self.stm) {
            return;
        }
        self.checks_left[mover.index()] = left - 1;
        self.key ^= self.zob.checks(mover, left) ^ self.zob.checks(mover, left - 1);
    }

    /// The end of the game by a goal rule, if it has come (extinction, then the flag, then
    /// the checks, as Fairy-Stockfish judges them).
    pub fn goal_end(&self) -> Option<GoalEnd> {
        let end = &self.lay.variant.end;
        if let Some(winner) = self.extinction_end() {
            return Some(GoalEnd {
                winner,
                goal: Goal::Extinction,
            });
        }
        if let Some(flag) = &end.flag {
            if let Some(winner) = self.flag_end(flag) {
                return Some(GoalEnd {
                    winner,
                    goal: Goal::Flag,
                });
            }
        }
        let mover = self.stm.flip();
        (end.check_counting && self.checks_left[mover.index()] == 0).then_some(GoalEnd {
            winner: Some(mover),
            goal: Goal::Checks,
        })
    }

    /// The flag's verdict: `Some(winner)` (`Some(None)`: drawn) when the game is over.
    /// Without `flagMove` the side that reached its flag has won. With it, the side to move
    /// wins when its flag, reached before the other side's last move, still stands; a
    /// royal flag reached by the side that just moved ends the game at once unless that
    /// leaves Black the move and Black's royal can step into its own flag region now, and
    /// White's royal flag held after Black's reply draws when Black reached its flag too.
    fn flag_end(&self, flag: &Flag) -> Option<Option<Colour>> {
        let (us, them) = (self.stm, self.stm.flip());
        let royal_flag = |c: Colour| {
            flag.piece[c.index()].is_some_and(|p| self.lay.variant.pieces[p as usize].royal)
        };
        if flag.flag_move && self.flag_reached(flag, us) {
            let even = us == Colour::White && royal_flag(them) && self.flag_reached(flag, them);
            return Some((!even).then_some(us));
        }
        if (!flag.flag_move || royal_flag(us)) && self.flag_reached(flag, them) {
            let answer = flag.flag_move && us == Colour::Black && self.can_reach_flag(flag, us);
            return (!answer).then_some(Some(them));
        }
        None
    }

    /// True when enough men of `colour`'s flag type stand in its flag region: the
    /// variant's count, or one in a region with no empty square under `flagPieceBlockedWin`.
    fn flag_reached(&self, flag: &Flag, colour: Colour) -> bool {
        let region = &flag.region[colour.index()];
        if region.is_empty() {
            return false;
        }
        let piece = flag.piece[colour.index()];
        let v = &self.lay.variant;
        let on_flag = self
            .live()
            .filter(|(_, m)| m.colour == colour)
            .filter(|(_, m)| piece.is_none_or(|p| v.rule_type(self.piece_of(m)) == p))
            .filter(|(_, m)| self.lay.coord(m.sq).is_some_and(|c| region.contains(c)))
            .count() as u32;
        let full = || region.iter().all(|c| self.man_at(self.lay.sq(c)).is_some());
        on_flag > 0 && (on_flag >= flag.count || flag.blocked_win && full())
    }

    /// True when `colour`, not in check, has a legal move of a man of its flag type into
    /// its flag region (Black's answer to White's royal flag under `flagMove`). Tried on a
    /// copy: this is asked where no move may be made, and a rare position.
    fn can_reach_flag(&self, flag: &Flag, colour: Colour) -> bool {
        if self.in_check(colour) {
            return false;
        }
        let region = &flag.region[colour.index()];
        let piece = flag.piece[colour.index()];
        let mut copy = self.clone();
        let ctx = copy.legality_ctx();
        let mut moves = Vec::new();
        copy.pseudo_moves(&mut moves);
        let mut ops = Vec::new();
        moves.into_iter().any(|m| {
            let from = copy.man_at(copy.lay.sq(m.from_coord())).copied();
            let mover_counts = matches!(m.kind, MoveKind::Normal)
                && from.is_some_and(|man| {
                    piece.is_none_or(|p| copy.lay.variant.rule_type(copy.piece_of(&man)) == p)
                });
            mover_counts && region.contains(m.to_coord()) && copy.is_legal_in(&m, &ctx, &mut ops)
        })
    }
}
