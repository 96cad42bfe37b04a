//! The end of a game by the variant's rules: mate, stalemate, lost or bared royals, passes,
//! goals (the last check given, a flag reached),
//! the n-move rule, repetition (with perpetual check and perpetual chase losing where the
//! variant says so) and counting rules.

use variants::rules::{GameEnd, Outcome as RuleOutcome};

use super::chase::Chased;
use super::material;
use crate::board::goals::{Goal, GoalEnd};
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
    /// No empty square is left (`adjudicateFullBoard`).
    FullBoard,
    /// A side gave its last check (check counting).
    ChecksGiven,
    /// A flag was reached (capture the flag).
    Flag,
    /// A side ran out of men its extinction rule counts.
    Extinction,
    /// The side that moved made its connection (connect games).
    Connection,
    /// A side castled where castling wins, or lost its last such right (`castlingWins`).
    Castling,
    /// The n-move rule.
    MoveRule,
    /// The same position the variant's number of times.
    Repetition,
    /// A side took a man back and forth once too often (`moveRepetitionIllegal`): it loses.
    MoveRepetition,
    /// A counting rule's count ran out (makruk's board's or pieces' honour).
    Counting,
    /// Repetition where one side checked on every move: that side loses.
    PerpetualCheck,
    /// Repetition where one side checked or chased the same man on every move: that side
    /// loses.
    PerpetualChase,
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
            Termination::FullBoard => "board full",
            Termination::ChecksGiven => "checks given",
            Termination::Flag => "flag reached",
            Termination::Extinction => "extinction",
            Termination::Connection => "connection made",
            Termination::Castling => "castling rule",
            Termination::MoveRule => "n-move rule",
            Termination::Repetition => "repetition",
            Termination::MoveRepetition => "move repetition",
            Termination::Counting => "counting rule",
            Termination::PerpetualCheck => "perpetual check",
            Termination::PerpetualChase => "perpetual chase",
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
/// `keys`/`checks`/`chases`: every position of the game (current last), whether its side to
/// move was in check, and which men the move into it chased (empty without a chasing rule).
/// `repeater`: the side that lost by `moveRepetitionIllegal` ([`super::move_repetition`]),
/// judged, as by FSF, after the n-move rule and before repetitions.
pub fn adjudicate(
    pos: &Position,
    no_moves: bool,
    keys: &[u64],
    checks: &[bool],
    chases: &[Chased],
    repeater: Option<Colour>,
) -> Option<Outcome> {
    let end = &pos.variant().end;
    if no_moves {
        return Some(no_move_outcome(pos));
    }
    if pos.promotion_stalemate() {
        return Some(Outcome {
            winner: None,
            reason: Termination::Stalemate,
        });
    }
    if end.n_move_rule > 0 && pos.halfmove_clock() >= end.n_move_rule {
        return Some(Outcome {
            winner: material::draw_winner(pos),
            reason: Termination::MoveRule,
        });
    }
    if let Some(loser) = repeater {
        return Some(Outcome {
            winner: Some(loser.flip()),
            reason: Termination::MoveRepetition,
        });
    }
    if let Some(first) = repetition_start(pos, keys) {
        let chased = |i: usize| chases.get(first + i).copied().unwrap_or_default();
        let mut o = repetition_outcome(end, &checks[first..], pos.side_to_move(), chased);
        if o.winner.is_none() {
            o.winner = material::draw_winner(pos);
        }
        return Some(o);
    }
    pos.count_over().then_some(Outcome {
        winner: None,
        reason: Termination::Counting,
    })
}

/// The end of a repetition, Fairy-Stockfish's way: exactly one side checked (or chased) on
/// every one of its moves: it loses; both did: a draw; neither: the variant's `nFoldValue`,
/// for the side to move (or for White, where absolute). Arguments as [`perpetual_loser`]'s.
/// The one rule for the game record and the search.
pub fn repetition_outcome(
    end: &GameEnd,
    checks: &[bool],
    us: Colour,
    chased: impl FnMut(usize) -> Chased,
) -> Outcome {
    match offences(end, checks, us, chased) {
        [Some(_), Some(_)] => Outcome {
            winner: None,
            reason: Termination::Repetition,
        },
        [None, None] => Outcome {
            winner: fold_winner(end, us),
            reason: Termination::Repetition,
        },
        offence => {
            let (loser, chase) = match offence {
                [Some(chase), _] => (Colour::White, chase),
                [_, chase] => (Colour::Black, chase.unwrap_or(false)),
            };
            Outcome {
                winner: Some(loser.flip()),
                reason: if chase {
                    Termination::PerpetualChase
                } else {
                    Termination::PerpetualCheck
                },
            }
        }
    }
}

/// The winner of a repetition nobody is blamed for, by `nFoldValue` (`us`: the side to move
/// in the repeated position; White instead where `nFoldValueAbsolute`).
pub fn fold_winner(end: &GameEnd, us: Colour) -> Option<Colour> {
    let judged = if end.n_fold_value_absolute {
        Colour::White
    } else {
        us
    };
    match end.n_fold_value {
        RuleOutcome::Win => Some(judged),
        RuleOutcome::Loss => Some(judged.flip()),
        RuleOutcome::Draw => None,
    }
}

/// The index in `keys` of the earliest occurrence of the current position within the window
/// of reversible moves, when it occurs the variant's number of times there.
fn repetition_start(pos: &Position, keys: &[u64]) -> Option<usize> {
    // FSF: `nFoldRule = 0` turns repetition off; 1 ends the game at the first recurrence.
    let fold = match pos.variant().end.n_fold_rule {
        0 => return None,
        n => n.max(2) as usize,
    };
    let window = (pos.repetition_window() as usize).min(keys.len().saturating_sub(1));
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
    (count >= fold).then_some(first)
}

/// A side that loses a repetition: who, and whether chasing was part of its offence (else it
/// only checked).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perpetual {
    /// The side that checked or chased on every move.
    pub loser: Colour,
    /// Some of its moves were chases.
    pub chase: bool,
}

/// One side's moves over a cycle so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Record {
    /// Every move was a check (or none seen yet).
    Checks,
    /// Every move was a check or a chase; the men every chase hit.
    Chasing(Chased),
    /// Some move was neither, or the chases hit no common man.
    Clean,
}

/// The side that, on every one of its moves over the cycle, gave check (where
/// `perpetualCheckIllegal`) or chased (where `chasingRule`), its chases all hitting some same
/// man, if exactly one side did. `checks`: per position of the cycle (first to current, whose
/// side to move is `us`), its side to move in check. `chased(i)`: the men the move into
/// position `i` chased, asked with growing `i` and only while its answer can matter (the
/// search replays the cycle to answer). The one rule for the game record and the search.
pub fn perpetual_loser(
    end: &GameEnd,
    checks: &[bool],
    us: Colour,
    chased: impl FnMut(usize) -> Chased,
) -> Option<Perpetual> {
    match offences(end, checks, us, chased) {
        [Some(chase), None] => Some(Perpetual {
            loser: Colour::White,
            chase,
        }),
        [None, Some(chase)] => Some(Perpetual {
            loser: Colour::Black,
            chase,
        }),
        _ => None,
    }
}

/// Per colour (White first), whether it checked or chased on every one of its moves over
/// the cycle, and if so whether chases were part of it. Arguments as [`perpetual_loser`]'s.
fn offences(
    end: &GameEnd,
    checks: &[bool],
    us: Colour,
    mut chased: impl FnMut(usize) -> Chased,
) -> [Option<bool>; 2] {
    let n = checks.len();
    let mut record = [Record::Checks; 2];
    for (i, &check) in checks.iter().enumerate().skip(1) {
        // Position i has `us` to move when (n-1-i) is even; the other side moved into it.
        let mover = if (n - 1 - i) % 2 == 0 { us.flip() } else { us };
        let r = &mut record[mover.index()];
        if *r == Record::Clean || (end.perpetual_check_illegal && check) {
            continue;
        }
        let hit = if end.chasing_rule {
            chased(i)
        } else {
            Chased::NONE
        };
        let common = match *r {
            Record::Chasing(c) => c.and(hit),
            _ => hit,
        };
        *r = if common.is_empty() {
            Record::Clean
        } else {
            Record::Chasing(common)
        };
        if record == [Record::Clean; 2] {
            break;
        }
    }
    let offence = |r: Record| match r {
        Record::Checks => Some(false),
        Record::Chasing(_) => Some(true),
        Record::Clean => None,
    };
    [offence(record[0]), offence(record[1])]
}

/// True when only royal men are left and no hand holds a piece: no side can ever win (a
/// royal cannot capture a royal into check, nor mate with royals alone), unless a flag
/// region may still be reached or material counting decides the draw.
pub fn dead_draw(pos: &Position) -> bool {
    if pos.variant().end.flag.is_some() || pos.variant().end.material_counting.is_some() {
        return false;
    }
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
            winner: material::draw_winner(pos),
            reason: Termination::Passes,
        };
    }
    if let Some(g) = pos.goal_end() {
        return goal_outcome(g);
    }
    if pos.board_filled() {
        return Outcome {
            winner: material::draw_winner(pos),
            reason: Termination::FullBoard,
        };
    }
    let (rule, reason) = if pos.in_check(us) {
        (pos.checkmate_result(), Termination::Checkmate)
    } else {
        (pos.stalemate_result(), Termination::Stalemate)
    };
    let winner = match rule {
        RuleOutcome::Win => Some(us),
        RuleOutcome::Loss => Some(us.flip()),
        RuleOutcome::Draw => material::draw_winner(pos),
    };
    Outcome { winner, reason }
}

/// The outcome of a game a goal rule ended.
fn goal_outcome(g: GoalEnd) -> Outcome {
    let reason = match g.goal {
        Goal::Checks => Termination::ChecksGiven,
        Goal::Flag => Termination::Flag,
        Goal::Extinction => Termination::Extinction,
        Goal::Connect => Termination::Connection,
        Goal::Castling => Termination::Castling,
    };
    Outcome {
        winner: g.winner,
        reason,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Xiangqi's game-end rules: perpetual check and chasing both forbidden.
    fn xiangqi_end() -> GameEnd {
        let all = variants::builtins().unwrap_or_default();
        let v = variants::find(&all, "xiangqi").unwrap_or_else(|| panic!("xiangqi is built in"));
        v.end.clone()
    }

    fn men(slots: &[u8]) -> Chased {
        let mut c = Chased::NONE;
        slots.iter().for_each(|&s| c.insert(s));
        c
    }

    /// A four-ply cycle, White to move at the end: positions 1 and 3 follow White's moves,
    /// 2 and 4 Black's.
    fn judge(checks: [bool; 5], chases: [Chased; 5]) -> Option<Perpetual> {
        perpetual_loser(&xiangqi_end(), &checks, Colour::White, |i| chases[i])
    }

    #[test]
    fn both_sides_chasing_is_a_draw() {
        let n = Chased::NONE;
        let white_chases = [n, men(&[7]), n, men(&[7]), n];
        assert_eq!(
            judge([false; 5], white_chases),
            Some(Perpetual {
                loser: Colour::White,
                chase: true
            })
        );
        let both = [n, men(&[7]), men(&[3]), men(&[7]), men(&[3, 9])];
        assert_eq!(judge([false; 5], both), None);
    }

    #[test]
    fn chases_of_different_men_are_no_perpetual_chase() {
        let n = Chased::NONE;
        let chases = [n, men(&[7, 8]), n, men(&[8]), n];
        assert_eq!(
            judge([false; 5], chases).map(|p| p.loser),
            Some(Colour::White)
        );
        let chases = [n, men(&[7]), n, men(&[8]), n];
        assert_eq!(judge([false; 5], chases), None);
    }

    #[test]
    fn checks_alone_are_perpetual_check_and_both_sides_checking_a_draw() {
        let n = [Chased::NONE; 5];
        let white_checks = [false, true, false, true, false];
        assert_eq!(
            judge(white_checks, n),
            Some(Perpetual {
                loser: Colour::White,
                chase: false
            })
        );
        assert_eq!(judge([true; 5], n), None);
    }

    /// FSF's order: a perpetual decides before `nFoldValue`, and both sides' perpetuals
    /// draw whatever the value; without one the value counts, for White where absolute.
    #[test]
    fn perpetuals_come_before_the_fold_value() {
        let mut end = xiangqi_end();
        end.n_fold_value = RuleOutcome::Loss;
        let n = [Chased::NONE; 5];
        let judge = |end: &GameEnd, checks: [bool; 5], us: Colour| {
            let o = repetition_outcome(end, &checks, us, |i| n[i]);
            (o.winner, o.reason)
        };
        let draw = (None, Termination::Repetition);
        assert_eq!(judge(&end, [true; 5], Colour::White), draw);
        let white_checks = [false, true, false, true, false];
        assert_eq!(
            judge(&end, white_checks, Colour::White),
            (Some(Colour::Black), Termination::PerpetualCheck)
        );
        let quiet = [false; 5];
        let lost = (Some(Colour::Black), Termination::Repetition);
        assert_eq!(judge(&end, quiet, Colour::White), lost);
        end.n_fold_value_absolute = true;
        assert_eq!(judge(&end, quiet, Colour::Black), lost);
        end.n_fold_value_absolute = false;
        assert_eq!(
            judge(&end, quiet, Colour::Black),
            (Some(Colour::White), Termination::Repetition)
        );
    }
}
