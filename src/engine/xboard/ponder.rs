//! XBoard pondering (`hard`/`easy`) and `hint`: after its move the engine thinks on the position
//! after the reply it expects, on the opponent's time, in the searcher's ponder mode (the one
//! UCI's `go ponder` uses). The opponent's move then either is that reply (a hit: the search
//! goes on under the clock, counted from that moment) or is not (a miss: the search ends
//! unseen and a new one starts); any command that changes the game ends it unseen too.

use std::io::Write;

use super::{Engine, Move, Task};
use crate::engine::notation;
use protocol::xboard::XbCommand;

/// Ignored commands that leave a ponder search running (the others of
/// [`protocol::xboard::IGNORED`] end it, as game commands do).
const IGNORED_KEEP_PONDERING: &[&str] = &[
    "xboard", "accepted", "rejected", "name", "rating", "ics", "draw", ".",
];

/// Does this command leave a ponder search running? It changes neither the game nor the
/// search settings (`time`/`otim` only update the clocks, read again at a hit; `usermove` and
/// a bare move decide hit or miss themselves).
fn keeps_pondering(command: &XbCommand) -> bool {
    match command {
        XbCommand::Ping(_)
        | XbCommand::Time(_)
        | XbCommand::Otim(_)
        | XbCommand::Post
        | XbCommand::NoPost
        | XbCommand::Hint
        | XbCommand::Hard
        | XbCommand::Computer
        | XbCommand::UserMove(_) => true,
        XbCommand::Ignored(word) => IGNORED_KEEP_PONDERING.contains(&word.as_str()),
        _ => false,
    }
}

impl<W: Write> Engine<W> {
    /// Before any XBoard command: ends a ponder search unseen unless the command keeps it.
    pub(super) fn ponder_gate(&mut self, command: &XbCommand) {
        if self.task == Task::Ponder && !keeps_pondering(command) {
            self.halt();
        }
    }

    /// After the engine's move: keeps the reply the search expects (for `hint`) and, with
    /// `hard`, ponders on it.
    pub(super) fn after_own_move(&mut self, reply: Option<Move>) {
        let key = self.game.position().hash();
        self.xb.expected = reply.map(|r| (key, r));
        let Some(reply) = self.expected_reply() else {
            return;
        };
        if self.xb.ponder && !self.xb.force {
            self.start_ponder(reply);
        }
    }

    /// Starts the ponder search on the game with `reply` played, taken back at once (the
    /// searcher copies its root): the game stays as XBoard knows it until the opponent's move
    /// arrives.
    fn start_ponder(&mut self, reply: Move) {
        self.game.play(reply);
        // A reply that ends the game leaves nothing to think about.
        if self.game.outcome().is_none() {
            let mut limits = self.limits_in(&self.game);
            limits.ponder = true;
            self.task = Task::Ponder;
            self.searcher
                .start(&self.game, limits, self.events_tx.clone());
        }
        self.game.undo();
    }

    /// The opponent's move `m` while pondering. On a hit, plays it and lets the ponder search
    /// go on as the timed search of the engine's move, its budget planned from the clocks as
    /// they are now (`time`/`otim` came with the move); returns true. On a miss, ends the
    /// ponder search unseen and returns false: the caller plays `m` and thinks as usual.
    pub(super) fn ponder_hit(&mut self, m: Move) -> bool {
        if self.expected_reply() != Some(m) {
            self.halt();
            return false;
        }
        self.game.play(m);
        let limits = self.limits_in(&self.game);
        self.task = Task::Think;
        self.searcher.ponderhit_with(&limits);
        true
    }

    /// `hint`: the expected reply, when the last search gave one for this position.
    pub(super) fn hint(&mut self) {
        if let Some(m) = self.expected_reply() {
            let text = notation::write(self.game.position(), &m, self.xb_dialect());
            self.say(&format!("Hint: {text}"));
        }
    }

    /// The expected reply if it answers the current position and is legal in it.
    fn expected_reply(&mut self) -> Option<Move> {
        let (key, m) = self.xb.expected?;
        (key == self.game.position().hash() && self.game.legal_moves().contains(&m)).then_some(m)
    }

    /// A ponder search's variation, written from the position after the expected reply (the
    /// position it searches; XBoard shows it as the engine's thinking).
    pub(super) fn ponder_pv_text(&mut self, pv: &[Move]) -> String {
        let Some(reply) = self.expected_reply() else {
            return String::new();
        };
        let line: Vec<Move> = std::iter::once(reply).chain(pv.iter().copied()).collect();
        let text = self.pv_text(&line, self.xb_dialect());
        text.split_once(' ')
            .map(|(_, rest)| rest.to_string())
            .unwrap_or_default()
    }
}
