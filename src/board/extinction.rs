//! Games won or lost by running out of men (Fairy-Stockfish's `extinction*` keys for men that
//! are not royal), stalemate judged by the men left (`stalematePieceCount`) and obligatory
//! capture (`mustCapture`): the rules of extinction chess, horde and the losing games, read
//! from the variant's compiled [`Extinction`] and flags. The reference's reading is in
//! `reference_goals.rs`.

use variants::rules::{Extinction, Outcome, PieceId};

use crate::board::moves::Move;
use crate::board::position::Position;
use crate::board::types::Colour;

impl Position {
    /// Men of `colour` counted by an extinction rule: of type `piece` (`None`: all men;
    /// a promoted form counts as the type it stands for), on the board and in hand.
    fn extinction_count(&self, colour: Colour, piece: Option<PieceId>) -> u32 {
        let v = &self.lay.variant;
        let counted = |q: PieceId| piece.is_none_or(|p| v.rule_type(q) == p);
        let on_board = self
            .live()
            .filter(|(_, m)| m.colour == colour && counted(self.piece_of(m)))
            .count() as u32;
        let pieces = v.pieces.len() as PieceId;
        let in_hand: u32 = (0..pieces)
            .filter(|&q| counted(q))
            .map(|q| self.in_hand(colour, q) as u32)
            .sum();
        on_board + in_hand
    }

    /// True when `colour` is extinct under `rule`: one counted type (or all its men) is down
    /// to the rule's count while the other side keeps at least its own count of it.
    fn extinct(&self, rule: &Extinction, colour: Colour) -> bool {
        let all = rule.all_men.then_some(None);
        let types = rule.types.iter().map(|&p| Some(p));
        all.into_iter().chain(types).any(|piece| {
            self.extinction_count(colour, piece) <= rule.count
                && self.extinction_count(colour.flip(), piece) >= rule.opponent_count
        })
    }

    /// The extinction verdict, if the game has ended by it: `Some(winner)`, `Some(None)`
    /// for a draw. The side that just moved is judged first, as Fairy-Stockfish does.
    pub(crate) fn extinction_end(&self) -> Option<Option<Colour>> {
        let rule = self.lay.variant.end.extinction.as_ref()?;
        let mover = self.stm.flip();
        let extinct = [mover, self.stm]
            .into_iter()
            .find(|&c| self.extinct(rule, c))?;
        Some(match rule.value {
            Outcome::Win => Some(extinct),
            Outcome::Loss => Some(extinct.flip()),
            Outcome::Draw => None,
        })
    }

    /// The result of a stalemate for the side to move: the variant's `stalemateValue`, or
    /// under `stalematePieceCount` that value for the side with fewer men on the board, its
    /// opposite for the side with more and a draw for equal numbers.
    pub fn stalemate_result(&self) -> Outcome {
        let end = &self.lay.variant.end;
        if !end.stalemate_piece_count {
            return end.stalemate;
        }
        let count = |c: Colour| self.live().filter(|(_, m)| m.colour == c).count();
        let (ours, theirs) = (count(self.stm), count(self.stm.flip()));
        match ours.cmp(&theirs) {
            std::cmp::Ordering::Equal => Outcome::Draw,
            std::cmp::Ordering::Less => end.stalemate,
            std::cmp::Ordering::Greater => match end.stalemate {
                Outcome::Win => Outcome::Loss,
                Outcome::Loss => Outcome::Win,
                Outcome::Draw => Outcome::Draw,
            },
        }
    }

    /// True when the move removes an enemy man (what `mustCapture` obliges).
    pub fn is_capture(&self, m: &Move) -> bool {
        self.enemy_victims(m).next().is_some()
    }
}
