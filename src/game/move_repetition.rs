//! Fairy-Stockfish's `moveRepetitionIllegal` (janggi under modern rules), judged from the
//! game's moves: a side that takes a man back and forth between the same two squares until
//! the trip is made a fourth time, never in check as it moves, loses. The one rule for the
//! game record and the search.
//!
//! FSF's test, read from its repetition block: with M0 the last move (by "them", the side
//! not to move) and Mk the move k plies before it, the count starts when M0 is a plain move
//! of a counted man ([`MoveRepetition::counted`]) and M2 is M0 reversed (count 2) or a pass
//! (count 1); each further move of theirs (M4, M6, ...) must reverse the one before (for a
//! count of 1, M4 reverses M0) up to a count of 4; the next one must have brought the man to
//! where the trips began, without capturing: then "them" has lost. Them in check before any
//! of those moves stops the count. Only the window of plies since the last capture or
//! irreversible move (passes do not cut it, unlike Locust's own repetition window, see
//! [`Step`]) and since the game's start is looked at; a move before the start is FSF's empty
//! move, which "ends" on a1 and captured nothing.

use variants::geometry::Coord;
use variants::rules::MoveRepetition;

use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::types::Colour;

/// Trips of a man the rule lets a side make: the count at which the next return loses.
const TRIPS: u32 = 4;
/// The square index FSF's empty move (before the start of the game) ends on: a1.
const EMPTY_MOVE_TO: u8 = 0;

/// Per position of a game: what the move into it did that the rule reads.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Step {
    /// The move into the position captured a man.
    pub captured: bool,
    /// Plies since the last capture or irreversible move, passes counted (FSF's `rule50`;
    /// Locust's own clock restarts at a pass, for XBoard's sake).
    pub clock: u32,
}

impl Step {
    /// The step of a game's start position (the FEN's halfmove clock).
    pub fn start(pos: &Position) -> Step {
        Step {
            captured: false,
            clock: pos.halfmove_clock(),
        }
    }

    /// The step of `pos`, just reached by `mv` from a position whose step was `prev` and
    /// which had `men_before` men on the board.
    pub fn after(prev: Step, pos: &Position, mv: &Move, men_before: usize) -> Step {
        let captured = pos.men_count() < men_before;
        let reset = captured || (pos.halfmove_clock() == 0 && mv.kind != MoveKind::Pass);
        Step {
            captured,
            clock: if reset { 0 } else { prev.clock + 1 },
        }
    }
}

/// What the rule says of the current position.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Judgement {
    /// The side that has lost by the rule (the side that just moved), if it has.
    pub loser: Option<Colour>,
    /// The count was still running this many plies back (0: it never started): FSF then
    /// needs its full number of repetitions, not a single one, to end a line in its search.
    pub running_to: usize,
}

/// A game's history as the rule reads it: per position (the current one last), whether its
/// side to move was in check and its [`Step`]; `moves[k]` led from position k to k + 1.
pub struct History<'a> {
    /// The moves played.
    pub moves: &'a [Move],
    /// Per position: its side to move was in check.
    pub checks: &'a [bool],
    /// Per position: see [`Step`].
    pub steps: &'a [Step],
}

/// The rule's verdict on `pos`, the last position of `h`.
pub fn judge(rule: &MoveRepetition, pos: &Position, h: &History) -> Judgement {
    let none = Judgement::default();
    let n = h.moves.len();
    if h.checks.len() != n + 1 || h.steps.len() != n + 1 {
        return none;
    }
    let end = (h.steps[n].clock as usize).min(n);
    if end < 4 {
        return none;
    }
    // FSF's move `j` plies before the last (the empty move before the start), and whether
    // the side to move was in check `j` plies back.
    let mv = |j: usize| (j < n).then(|| h.moves[n - 1 - j]);
    let in_check = |j: usize| h.checks[n - j];
    let Some(last) = mv(0) else { return none };
    if last.kind != MoveKind::Normal || in_check(1) || in_check(3) || !counted(rule, pos, &last) {
        return none;
    }
    let mut count = match mv(2) {
        Some(m) if reverses(&m, &last) => 2,
        Some(m) if m.kind == MoveKind::Pass => 1,
        _ => return none,
    };
    let them = pos.side_to_move().flip();
    for i in (4..=end).step_by(2) {
        let stopped = Judgement {
            loser: None,
            running_to: i - 2,
        };
        if i < end && in_check(i + 1) {
            return stopped;
        }
        let Some(before) = mv(i - 2) else {
            return stopped;
        };
        if count < TRIPS {
            let base = if count == 1 { last } else { before };
            if !mv(i).is_some_and(|m| reverses(&m, &base)) {
                return stopped;
            }
            count += 1;
            continue;
        }
        let arrival = mv(i).map_or(EMPTY_MOVE_TO, |m| m.to);
        let lost = !h.steps[n - i].captured && before.from == arrival;
        return Judgement {
            loser: lost.then_some(them),
            running_to: i - 2,
        };
    }
    Judgement {
        loser: None,
        running_to: end,
    }
}

/// `m` is `base` played backwards (FSF's reversed move: a plain move, to and from swapped).
fn reverses(m: &Move, base: &Move) -> bool {
    m.kind == MoveKind::Normal && m.from == base.to && m.to == base.from
}

/// The man `last` moved is of a type whose trips the rule counts, for the side that moved.
fn counted(rule: &MoveRepetition, pos: &Position, last: &Move) -> bool {
    let lay = pos.layout();
    let sq = lay.sq(Coord::from_index(last.to as usize));
    let Some(man) = pos.man_at(sq) else {
        return false;
    };
    let piece = lay.kinds[man.kind as usize].piece as usize;
    let mover = pos.side_to_move().flip().index();
    rule.counted[mover].get(piece).copied().unwrap_or(false)
}
