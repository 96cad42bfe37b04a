//! Shatar's mate rule (`shatarMateRule`, compiled into [`ShatarMate`]): how a mate ends the
//! game depends on the checks that led to it. The position keeps, per colour, whether the
//! unbroken series of checks it has stood in at its turns so far held a shak (a check by a
//! man of the rule's `shak` types), as Fairy-Stockfish walks its states back two plies at a
//! time while the side was in check, no further than the set-up position or a null move.

use variants::rules::{Outcome, ShatarMate};

use crate::board::position::Position;
use crate::board::types::{Colour, Sq};

impl Position {
    /// The rule, where the variant has it.
    #[inline]
    fn shatar(&self) -> Option<&ShatarMate> {
        self.lay.variant.end.shatar.as_ref()
    }

    /// True when some man checking the side to move is of one of `types`; `all` asks
    /// instead whether every checker is (false when nobody checks).
    fn checked_by(&self, types: &[variants::PieceId], all: bool) -> bool {
        let checkers = self.checkers(self.stm);
        let of = |sq: &Sq| {
            self.man_at(*sq)
                .is_some_and(|m| types.contains(&self.piece_of(m)))
        };
        if all {
            !checkers.is_empty() && checkers.iter().all(of)
        } else {
            checkers.iter().any(of)
        }
    }

    /// Called with the side to move flipped after every move (a null move included, which
    /// never leaves the side to move in check and so ends its series): the side to move's
    /// series goes on while it stands in check, and holds a shak if this check is one or an
    /// earlier check of the series was.
    pub(crate) fn follow_checks(&mut self) {
        let Some(rule) = self.shatar() else {
            return;
        };
        let us = self.stm.index();
        let series =
            self.in_check(self.stm) && (self.shak_series[us] || self.checked_by(&rule.shak, false));
        self.shak_series[us] = series;
    }

    /// The set-up position's series: the side to move's check, if it is a shak; the other
    /// side has none (FSF looks no further back than the position it was given).
    pub(crate) fn start_checks(&mut self) {
        self.shak_series = [false; 2];
        if let Some(rule) = self.shatar() {
            let shak = self.in_check(self.stm) && self.checked_by(&rule.shak, false);
            self.shak_series[self.stm.index()] = shak;
        }
    }

    /// The result for the mated side to move: the variant's `checkmate`, or under shatar's
    /// rule a win when knights alone give the mate, else a draw (niol) unless the series of
    /// checks that ends in it held a shak.
    pub fn checkmate_result(&self) -> Outcome {
        let checkmate = self.lay.variant.end.checkmate;
        match self.shatar() {
            None => checkmate,
            Some(rule) if self.checked_by(&rule.knights, true) => Outcome::Win,
            Some(_) if self.shak_series[self.stm.index()] => checkmate,
            Some(_) => Outcome::Draw,
        }
    }

    /// Whether `colour`'s series of checks holds a shak, as a key term: the same board with
    /// a different series may end differently, so the search's table keeps them apart.
    pub(crate) fn series_key(&self) -> u64 {
        let mut k = 0;
        for c in [Colour::White, Colour::Black] {
            if self.shak_series[c.index()] {
                k ^= self.zob.shak(c);
            }
        }
        k
    }
}
