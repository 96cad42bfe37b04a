//! The goals a variant may set besides taking or mating royals: check counting (a side that
//! gives its last check wins, FSF's `checkCounting`) and capture the flag (men of the flag
//! type in the flag region win, FSF's `flag*` keys). Either ends the game at once, as a lost
//! royal does: no move is legal after it.

use variants::rules::{Connect, Flag, Outcome};

use crate::board::connect::Grid;

use crate::board::moves::MoveKind;
use crate::board::position::Position;
use crate::board::types::{Colour, EMPTY};

/// Which goal rule ended the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// A side gave its last check.
    Checks,
    /// A flag was reached (and held where the rules give the other side a move).
    Flag,
    /// A side ran out of men of a type its extinction rule counts (`extinction.rs`).
    Extinction,
    /// The side that just moved made its connection (`connect.rs`).
    Connect,
    /// A side castled where castling wins, or lost its last such right (`castlingWins`).
    Castling,
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

    /// `adjudicateFullBoard`: the rule is in force and no square is left empty (walls are
    /// no squares). The game is over, decided as a draw is.
    pub fn board_filled(&self) -> bool {
        self.lay.variant.end.full_board_ends
            && self
                .lay
                .squares()
                .all(|sq| self.board[sq as usize] != EMPTY)
    }

    /// `passOnStalemate`: the side to move has a pass among its pseudo-legal moves, legal
    /// only when nothing else is (FSF offers it to a side with a man on the board).
    pub(crate) fn may_pass_when_stuck(&self) -> bool {
        self.lay.variant.end.pass_on_stalemate[self.stm.index()]
            && self.live().any(|(_, m)| m.colour == self.stm)
    }

    /// The end of the game by a goal rule, if it has come (extinction, then the flag, then
    /// the checks, then a connection, as Fairy-Stockfish judges them).
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
        if let Some(winner) = self.castling_end() {
            return Some(GoalEnd {
                winner: Some(winner),
                goal: Goal::Castling,
            });
        }
        let mover = self.stm.flip();
        if end.check_counting && self.checks_left[mover.index()] == 0 {
            return Some(GoalEnd {
                winner: Some(mover),
                goal: Goal::Checks,
            });
        }
        let connect = end.connect.as_ref()?;
        self.connected(connect, mover).then_some(GoalEnd {
            winner: match connect.value {
                Outcome::Win => Some(mover),
                Outcome::Loss => Some(self.stm),
                Outcome::Draw => None,
            },
            goal: Goal::Connect,
        })
    }

    /// `castlingWins`: the winner when the last move castled on a winning side, or when a
    /// side with winning sides keeps no right to castle on any of them (the side that just
    /// moved judged first, as Fairy-Stockfish does: a rook taking a rook may end both).
    fn castling_end(&self) -> Option<Colour> {
        let c = self
            .lay
            .variant
            .castling
            .as_ref()
            .filter(|c| c.has_wins())?;
        let mover = self.stm.flip();
        if self.castled_win {
            return Some(mover);
        }
        [mover, self.stm].into_iter().find_map(|side| {
            let wins = c.wins[side.index()];
            let kept = self.castling_sides(side);
            let lost = wins.iter().any(|&w| w) && !(0..2).any(|i| wins[i] && kept[i]);
            lost.then_some(side.flip())
        })
    }

    /// True when `colour`'s men of the counted types make a connection under `rule`.
    fn connected(&self, rule: &Connect, colour: Colour) -> bool {
        let counted = self
            .live()
            .filter(|(_, m)| m.colour == colour)
            .filter(|(_, m)| (rule.pieces.as_ref()).is_none_or(|t| t.contains(&self.piece_of(m))))
            .filter_map(|(_, m)| self.lay.coord(m.sq));
        Grid::new(self.lay.files, self.lay.ranks, counted).connected(rule, colour)
    }

    /// The flag's verdict: `Some(winner)` (`Some(None)`: drawn) when the game is over,
    /// judged as Fairy-Stockfish does from the side to move's seat. A flag of the side to
    /// move that has stood through the other side's move (`flagMove`, or `flagPieceSafe`:
    /// it was reached unsafe and is safe now) wins, or draws where both flags stand (White's
    /// royal flag with Black's royal one under `flagMove`; any two under `flagPieceSafe`
    /// alone). A flag the side that just moved reached ends the game at once unless there
    /// is an extra move (`flagMove` without `flagPieceSafe`) for a flag that is not royal;
    /// Black's royal answer into its own region under `flagMove` plays on.
    fn flag_end(&self, flag: &Flag) -> Option<Option<Colour>> {
        let (us, them) = (self.stm, self.stm.flip());
        let royal_flag = |c: Colour| {
            flag.piece[c.index()].is_some_and(|p| self.lay.variant.pieces[p as usize].royal)
        };
        if (flag.flag_move || flag.safe) && self.flag_reached(flag, us) {
            let race = flag.flag_move && us == Colour::White && royal_flag(them);
            let even = (race || flag.safe && !flag.flag_move) && self.flag_reached(flag, them);
            return Some((!even).then_some(us));
        }
        let now = !flag.flag_move || flag.safe || royal_flag(us);
        if now && self.flag_reached(flag, them) {
            let answer = flag.flag_move
                && royal_flag(us)
                && us == Colour::Black
                && self.can_reach_flag(flag, us);
            return (!answer).then_some(Some(them));
        }
        None
    }

    /// True when enough men of `colour`'s flag type stand in its flag region: the
    /// variant's count, or one in a region with no empty square under `flagPieceBlockedWin`.
    /// Under `flagPieceSafe` (for the side that just moved where there is a `flagMove`),
    /// exactly the count there must all be out of the enemy's reach.
    fn flag_reached(&self, flag: &Flag, colour: Colour) -> bool {
        let region = &flag.region[colour.index()];
        if region.is_empty() {
            return false;
        }
        let piece = flag.piece[colour.index()];
        let v = &self.lay.variant;
        let on_flag: Vec<_> = self
            .live()
            .filter(|(_, m)| m.colour == colour)
            .filter(|(_, m)| piece.is_none_or(|p| v.rule_type(self.piece_of(m)) == p))
            .map(|(_, m)| m.sq)
            .filter(|&sq| self.lay.coord(sq).is_some_and(|c| region.contains(c)))
            .collect();
        let n = on_flag.len() as u32;
        let full = || region.iter().all(|c| self.man_at(self.lay.sq(c)).is_some());
        let reached = n > 0 && (n >= flag.count || flag.blocked_win && full());
        let judged = flag.safe && (!flag.flag_move || colour == self.stm.flip());
        if !reached || !judged || n != flag.count {
            return reached;
        }
        !on_flag
            .iter()
            .any(|&sq| self.map.attacked(colour.flip(), sq))
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
