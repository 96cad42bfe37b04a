//! The reference generator's reading of the goal rules, written from the rules on the plain
//! board: check counting (checks left to give, FSF's FEN counters) and capture the flag
//! (Fairy-Stockfish's `flagPiece`, `flagRegion`, `flagPieceCount`, `flagPieceBlockedWin`,
//! `flagMove`). The engine's own reading is `goals.rs`; the walks compare the two.

use variants::rules::{Extinction, Flag, PieceId};
use variants::Variant;

use crate::board::connect::Grid;
use crate::board::moves::{Move, MoveKind};
use crate::board::reference::{capturable, in_check, is_legal, play, pseudo_moves, RefBoard};
use crate::board::types::Colour;
use variants::geometry::Coord;

/// Checks a side has left to give when a FEN names none (FSF: the next check wins).
const CHECKS_WHEN_UNSAID: u8 = 1;
/// The number a lichess FEN counts checks given out of.
const LICHESS_OUT_OF: u8 = 3;

/// The check counters of a FEN's fields after the side to move, as `[White, Black]` checks
/// left, and the fields without them; `Err` names a counter field that does not read.
pub fn split_check_counts<'a>(fields: &[&'a str]) -> Result<([u8; 2], Vec<&'a str>), String> {
    let mut left = [CHECKS_WHEN_UNSAID; 2];
    let mut rest = Vec::new();
    for &f in fields {
        let (given, body) = match f.strip_prefix('+') {
            Some(b) => (true, b),
            None => (false, f),
        };
        let parts: Vec<&str> = body.split('+').collect();
        let numeric = |p: &&str| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit());
        if parts.len() != 2 || !parts.iter().all(numeric) {
            rest.push(f);
            continue;
        }
        for (side, text) in parts.iter().enumerate() {
            let n: u8 = text.parse().map_err(|_| f.to_string())?;
            left[side] = if given {
                LICHESS_OUT_OF.saturating_sub(n)
            } else {
                n
            };
        }
    }
    Ok((left, rest))
}

/// The board after a move, its side to move flipped: the mover used up a check if it gave
/// one.
pub fn count_check(after: &mut RefBoard, v: &Variant) {
    if !v.end.check_counting {
        return;
    }
    let mover = after.stm.flip();
    if in_check(after, v, after.stm) {
        let n = &mut after.checks_left[mover.index()];
        *n = n.saturating_sub(1);
    }
}

/// A move that gives check is illegal (`checking = false`): true when `after` (the board
/// after the mover's move) is allowed.
pub fn check_allowed(after: &RefBoard, v: &Variant) -> bool {
    v.end.checking || !in_check(after, v, after.stm)
}

/// True when a goal rule has ended the game: the side that just moved gave its last check,
/// or a flag decides.
pub fn goal_over(b: &RefBoard, v: &Variant) -> bool {
    if v.end
        .extinction
        .as_ref()
        .is_some_and(|e| extinct(b, v, e, b.stm) || extinct(b, v, e, b.stm.flip()))
    {
        return true;
    }
    let mover = b.stm.flip();
    if v.end.check_counting && b.checks_left[mover.index()] == 0 {
        return true;
    }
    if v.end.flag.as_ref().is_some_and(|f| flag_over(b, v, f)) {
        return true;
    }
    if castling_over(b, v) {
        return true;
    }
    v.end.connect.as_ref().is_some_and(|c| {
        let counted = b.men().filter(|(_, m)| {
            m.colour == mover && c.pieces.as_ref().is_none_or(|t| t.contains(&m.piece))
        });
        Grid::new(b.files, b.ranks, counted.map(|(at, _)| at)).connected(c, mover)
    })
}

/// `castlingWins`: the last move castled on a winning side, or some side with winning
/// sides has no castling right left on any of them (a virgin king with a virgin rook on
/// that side of it, on its rank).
fn castling_over(b: &RefBoard, v: &Variant) -> bool {
    let Some(c) = v.castling.as_ref().filter(|c| c.has_wins()) else {
        return false;
    };
    if b.castled_win {
        return true;
    }
    [Colour::White, Colour::Black].into_iter().any(|side| {
        let wins = c.wins[side.index()];
        let men: Vec<(Coord, PieceId)> = (b.men())
            .filter(|(_, m)| m.colour == side && m.virgin)
            .map(|(at, m)| (at, m.piece))
            .collect();
        let kept = |queen_side: bool| {
            (men.iter()).any(|&(k, p)| {
                p == c.king_type
                    && men.iter().any(|&(r, q)| {
                        c.rook_types.contains(&q)
                            && r.rank == k.rank
                            && r.file != k.file
                            && (r.file < k.file) == queen_side
                    })
            })
        };
        wins.iter().any(|&w| w) && !(wins[0] && kept(false) || wins[1] && kept(true))
    })
}

/// Men of `c`'s flag type on its flag region: enough of them, or (blocked win) one with
/// the region full. Under `flagPieceSafe` (for the side that just moved where there is a
/// `flagMove`) exactly the count there must all stand where no enemy man could capture.
fn reached(b: &RefBoard, v: &Variant, f: &Flag, c: Colour) -> bool {
    let region = &f.region[c.index()];
    let wanted = f.piece[c.index()];
    let on: Vec<Coord> = b
        .men()
        .filter(|(at, m)| m.colour == c && region.contains(*at))
        .filter(|(_, m)| wanted.is_none() || wanted == Some(v.rule_type(m.piece)))
        .map(|(at, _)| at)
        .collect();
    let n = on.len() as u32;
    let full = region.iter().all(|at| b.at(at).is_some());
    let reached = n >= 1 && (n >= f.count || f.blocked_win && full);
    if !reached || !f.safe || f.flag_move && c != b.stm.flip() || n != f.count {
        return reached;
    }
    !on.iter().any(|&at| capturable(b, v, at, c.flip()))
}

/// FSF's flag rules from the side to move's seat. A flag of the side to move that stood
/// through the other side's move (`flagMove`, or `flagPieceSafe` now safe) has won, or
/// drawn where the other flag stands too (royal flags with White to move under
/// `flagMove`; any under `flagPieceSafe` alone). A flag the other side just reached ends
/// the game unless an extra move is due (`flagMove` alone) and the side to move's flag is
/// not royal; with a royal one, Black out of check plays on only if its flag man can step
/// into its region now.
fn flag_over(b: &RefBoard, v: &Variant, f: &Flag) -> bool {
    let us = b.stm;
    if (f.flag_move || f.safe) && reached(b, v, f, us) {
        return true;
    }
    let royal = f.piece[us.index()].is_some_and(|p| v.pieces[p as usize].royal);
    // With an extra move to come, only a royal flag decides now (FSF: the king cannot be
    // stopped once there, so its side need not wait).
    let decides_now = !f.flag_move || f.safe || royal;
    if !decides_now || !reached(b, v, f, us.flip()) {
        return false;
    }
    if !f.flag_move || !royal || us != Colour::Black || in_check(b, v, us) {
        return true;
    }
    !pseudo_moves(b, v)
        .iter()
        .any(|m| reaches_flag(b, v, f, m) && is_legal(b, v, m))
}

/// A plain move of a man of the side to move's flag type into its flag region.
fn reaches_flag(b: &RefBoard, v: &Variant, f: &Flag, m: &Move) -> bool {
    let c = b.stm.index();
    let mover = b.at(m.from_coord());
    m.kind == MoveKind::Normal
        && mover.is_some_and(|p| f.piece[c].is_none() || f.piece[c] == Some(v.rule_type(p.piece)))
        && f.region[c].contains(m.to_coord())
}

/// Men of colour `c` of type `piece` (`None`: every man; a promoted form counts as the
/// type it stands for), on the board and in hand.
fn men_of(b: &RefBoard, v: &Variant, c: Colour, piece: Option<PieceId>) -> u32 {
    let wanted = |p: PieceId| piece.is_none() || piece == Some(v.rule_type(p));
    let board = b
        .men()
        .filter(|(_, m)| m.colour == c && wanted(m.piece))
        .count() as u32;
    let hand = b.hands[c.index()].iter().enumerate();
    let held: u32 = hand
        .filter(|(p, _)| wanted(*p as PieceId))
        .map(|(_, &n)| n as u32)
        .sum();
    board + held
}

/// Extinction: some counted type (or, under `*`, all of `c`'s men) is down to the rule's
/// count while the other side has at least the opponent count of it.
fn extinct(b: &RefBoard, v: &Variant, e: &Extinction, c: Colour) -> bool {
    let all = e.all_men.then_some(None);
    let mut counted = all.into_iter().chain(e.types.iter().map(|&p| Some(p)));
    counted.any(|p| men_of(b, v, c, p) <= e.count && men_of(b, v, c.flip(), p) >= e.opponent_count)
}

/// `mustCapture`: when some legal move takes an enemy man, only those moves remain. A move
/// takes one when the enemy has fewer men on the board after it.
pub fn must_capture(b: &RefBoard, v: &Variant, legal: Vec<Move>) -> Vec<Move> {
    if !v.end.must_capture {
        return legal;
    }
    let enemy = b.stm.flip();
    let before = men_on_board(b, enemy);
    let captures: Vec<Move> = (legal.iter().copied())
        .filter(|m| men_on_board(&play(b, v, m), enemy) < before)
        .collect();
    if captures.is_empty() {
        legal
    } else {
        captures
    }
}

fn men_on_board(b: &RefBoard, c: Colour) -> usize {
    b.men().filter(|(_, m)| m.colour == c).count()
}
