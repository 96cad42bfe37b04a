//! The end of a game by the variant's rules: mate, stalemate, lost or bared royals, passes,
//! the n-move rule and repetition (with perpetual check losing where the variant says so).

use variants::rules::Outcome as RuleOutcome;

use crate::board::position::Position;
use crate::board::types::Colour;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// No legal move, in check.
    Checkmate,
    /// No legal move, not in check.
    Stalemate,
    /// A side's royals are gone (an atomic explosion).
    RoyalsLost,
    /// Bare-king rule.
    BareKing,
    /// Both sides passed in a row (or a pass out of bikjang).
    Passes,
    /// The n-move rule.
    MoveRule,
    /// The same position the variant's number of times.
    Repetition,
    /// Repetition where one side checked on every move: that side loses.
    PerpetualCheck,
}

impl Termination {
    /// Words for result comments (`1-0 {White mates}` style texts use these).
    pub fn text(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::RoyalsLost => "royal lost",
            Termination::BareKing => "bare king",
            Termination::Passes => "both sides passed",
            Termination::MoveRule => "n-move rule",
            Termination::Repetition => "repetition",
            Termination::PerpetualCheck => "perpetual check",
        }
    }
}

/// A finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner; `None` for a draw.
    pub winner: Option<Colour>,
    /// Why the game ended.
    pub reason: Termination,
}

/// The end of the game in `pos`, if any. `no_moves`: the side to move has no legal move.
/// `keys`/`checks`: every position of the game (current last) and whether its side to move
/// was in check.
pub fn adjudicate(
    pos: &Position,
    no_moves: bool,
    keys: &[u64],
    checks: &[bool],
) -> Option<Outcome> {
    let us = pos.side_to_move();
    let end = &pos.variant().end;
    if no_moves {
        return Some(no_move_outcome(pos));
    }
    if end.n_move_rule > 0 && pos.halfmove_clock() >= end.n_move_rule {
        return Some(Outcome {
            winner: None,
            reason: Termination::MoveRule,
        });
    }
    let fold = end.n_fold_rule.max(2) as usize;
    let window = (pos.halfmove_clock() as usize).min(keys.len().saturating_sub(1));
    let last = keys.len().saturating_sub(1);
    let mut count = 1;
    let mut first = last;
    let mut i = last;
    while i >= 2 && last - (i - 2) <= window {
        i -= 2;
        if keys[i] == keys[last] {
            count += 1;
            first = i;
        }
    }
    if count < fold {
        return None;
    }
    let winner = if end.perpetual_check_illegal {
        perpetual_loser(&checks[first..], us).map(Colour::flip)
    } else {
        None
    };
    Some(Outcome {
        winner,
        reason: if winner.is_some() {
            Termination::PerpetualCheck
        } else {
            Termination::Repetition
        },
    })
}

/// The side that gave check on every one of its moves over the cycle `checks` (positions from
/// the first occurrence to the current one, whose side to move is `us` at the end), if exactly
/// one side did.
pub fn perpetual_loser(checks: &[bool], us: Colour) -> Option<Colour> {
    let n = checks.len();
    // Position n-1 has `us` to move; position i has `us` to move when (n-1-i) is even. A
    // position whose side to move is in check was checked by the other side's last move.
    let mut checked_all = [true, true];
    for (i, &c) in checks.iter().enumerate().skip(1) {
        let to_move = if (n - 1 - i) % 2 == 0 { us } else { us.flip() };
        if !c {
            checked_all[to_move.flip().index()] = false;
        }
    }
    match checked_all {
        [true, false] => Some(Colour::White),
        [false, true] => Some(Colour::Black),
        _ => None,
    }
}

/// True when only royal men are left and no hand holds a piece: no side can ever win (a
/// royal cannot capture a royal into check, nor mate with royals alone).
pub fn dead_draw(pos: &Position) -> bool {
    let kinds = &pos.layout().kinds;
    let only_royals = pos.live().all(|(_, m)| kinds[m.kind as usize].royal);
    let pieces = pos.variant().pieces.len();
    let empty_hands = [Colour::White, Colour::Black]
        .iter()
        .all(|&c| (0..pieces).all(|p| pos.in_hand(c, p as u8) == 0));
    only_royals && empty_hands && pos.variant().end.royalty == variants::rules::Royalty::Absolute
}

/// Why the side to move has no move, and who wins.
fn no_move_outcome(pos: &Position) -> Outcome {
    let us = pos.side_to_move();
    let end = &pos.variant().end;
    for c in [us, us.flip()] {
        if pos.royals_lost(c) {
            return Outcome {
                winner: Some(c.flip()),
                reason: Termination::RoyalsLost,
            };
        }
    }
    if pos.bared(us.flip()) {
        let winner = (!pos.bared(us)).then_some(us);
        return Outcome {
            winner,
            reason: Termination::BareKing,
        };
    }
    if pos.consecutive_passes() >= 2 {
        return Outcome {
            winner: None,
            reason: Termination::Passes,
        };
    }
    let (rule, reason) = if pos.in_check(us) {
        (end.checkmate, Termination::Checkmate)
    } else {
        (end.stalemate, Termination::Stalemate)
    };
    let winner = match rule {
        RuleOutcome::Win => Some(us),
        RuleOutcome::Loss => Some(us.flip()),
        RuleOutcome::Draw => None,
    };
    Outcome { winner, reason }
}
