//! Move text as each protocol writes it: XBoard's 0-based ranks on 10-rank boards, shogi's `+`
//! promotions, Chess960 castling as king-takes-rook (UCI) or `O-O` (XBoard), the pass as
//! `@@@@` (XBoard) or the royal moving to its own square (UCI, as Fairy-Stockfish writes it).
//! Multi-leg moves (Chu's lion) are written as XBoard's comma legs (`e5e6,e6e7`, igui
//! `f6f7,f7f6`, the pass through an empty square `f6f7,f7f6`) or as UCI's square chain
//! (`e5e6e7`, as shogiops and lishogi write them); any path a GUI sends is read by the squares
//! it visits and the men it removes.
//! Incoming text is matched against the legal moves, so only legal moves get through.

use variants::geometry::Coord;
use variants::PieceId;

use crate::board::moves::{Move, MoveKind, NO_PIECE};
use crate::board::position::Position;
use crate::game::{move_text, pass_square, Game, GameError};

/// The conventions of one protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// UCI (USI and UCCI have their own below).
    Uci {
        /// `UCI_Chess960`: castling as the king capturing its rook.
        chess960: bool,
    },
    /// XBoard / CECP.
    Xboard,
    /// XBoard run with `-rankOffset 1`: the ranks of every board counted from 0. On a
    /// 16-rank board XBoard 4.9 otherwise keeps the top rank as the character `@`, its drop
    /// mark, and garbles moves from it; counted from 0 the top rank is `?` (the engine option
    /// `Ranks from 0` selects this).
    XboardZeroRanks,
    /// USI (shogi GUIs): shogi square names, `*` drops (see `usi.rs`).
    Usi,
    /// UCCI (xiangqi GUIs): UCI's coordinates with ranks counted from 0 on 10-rank boards.
    Ucci,
}

impl Dialect {
    /// Either XBoard dialect.
    pub fn is_xboard(self) -> bool {
        matches!(self, Dialect::Xboard | Dialect::XboardZeroRanks)
    }
}

/// Rank numbering: XBoard counts the ranks of a 10-rank board from 0, and of every board when
/// told to (see [`Dialect::XboardZeroRanks`]).
fn rank_shift(pos: &Position, dialect: Dialect) -> i32 {
    match dialect {
        Dialect::XboardZeroRanks => -1,
        Dialect::Xboard | Dialect::Ucci if pos.layout().ranks == 10 => -1,
        _ => 0,
    }
}

/// A square named in a dialect (`e4`, with the dialect's rank numbering), if on the board.
pub fn square(pos: &Position, text: &str, dialect: Dialect) -> Option<Coord> {
    let own = protocol::shift_ranks(text.trim(), -rank_shift(pos, dialect));
    let lay = pos.layout();
    Coord::parse(&own, lay.files, lay.ranks)
}

/// The text of a legal move of `pos` in a dialect.
pub fn write(pos: &Position, mv: &Move, dialect: Dialect) -> String {
    if dialect == Dialect::Usi {
        let text = write(pos, mv, Dialect::Uci { chess960: false });
        let lay = pos.layout();
        return super::usi::to_usi(&text, lay.files, lay.ranks);
    }
    if let Some(wall) = mv.wall_coord() {
        return walled_text(pos, mv, wall, dialect);
    }
    if let Some(piece) = mv.gate_piece() {
        return gated_text(pos, mv, piece, dialect);
    }
    let variant = pos.variant();
    if dialect.is_xboard() && mv.is_step_out_and_back() {
        // A chu lion's pass leaves the board as it was: XBoard's null move, as HaChu writes
        // it. In its two-leg form XBoard relayed it to HaChu garbled (`f7g6,g6f7` as
        // `f7f7,g6e7`) or HaChu refused it: four HaChu forfeits (docs/STRENGTH.md, session 23).
        return "@@@@".to_string();
    }
    let text = match mv.kind {
        MoveKind::Pass => match dialect {
            Dialect::Xboard | Dialect::XboardZeroRanks => return "@@@@".to_string(),
            Dialect::Uci { .. } | Dialect::Usi | Dialect::Ucci => match pass_square(pos) {
                Some(c) => format!("{c}{c}", c = c.to_text()),
                None => "0000".to_string(),
            },
        },
        MoveKind::Castle if variant.castling.as_ref().is_some_and(|c| c.chess960) => {
            let rook = mv.extras().next().unwrap_or(mv.to_coord());
            match dialect {
                Dialect::Xboard | Dialect::XboardZeroRanks => {
                    return if rook.file > mv.from_coord().file {
                        "O-O".to_string()
                    } else {
                        "O-O-O".to_string()
                    }
                }
                Dialect::Uci { chess960: true } => {
                    format!("{}{}", mv.from_coord().to_text(), rook.to_text())
                }
                Dialect::Uci { chess960: false } | Dialect::Usi | Dialect::Ucci => {
                    move_text(pos, mv)
                }
            }
        }
        MoveKind::Promotion if turned_by_capture(pos, mv) => {
            // Werewolf Chess's contagion follows from the capture: no GUI or peer writes it.
            let mut plain = *mv;
            plain.kind = MoveKind::Normal;
            plain.piece = NO_PIECE;
            return write(pos, &plain, dialect);
        }
        MoveKind::Promotion if demotes(pos, mv) => {
            // `pieceDemotion` (kyotoshogi): FSF writes a demotion with `-`.
            let mut t = move_text(pos, mv);
            t.pop();
            t.push('-');
            t
        }
        MoveKind::Promotion
            if variant
                .pieces
                .get(mv.piece as usize)
                .is_some_and(|p| p.plus_form) =>
        {
            let mut t = move_text(pos, mv);
            t.pop();
            t.push('+');
            t
        }
        MoveKind::Normal | MoveKind::Promotion if multi_leg(pos, mv, dialect) => {
            leg_text(pos, mv, dialect)
        }
        _ => move_text(pos, mv),
    };
    protocol::shift_ranks(&text, rank_shift(pos, dialect))
}

/// A move that gates a man from hand (S-chess), as Fairy-Stockfish, cutechess and XBoard
/// write it: the move with the man's letter in lower case (`b1c3h`, `e1g1e`), or castling
/// that gates on the rook's square as the rook's square to the king's (`h1e1h`).
fn gated_text(pos: &Position, mv: &Move, piece: PieceId, dialect: Dialect) -> String {
    let letter =
        (pos.variant().pieces.get(piece as usize)).map_or('?', |p| p.letter.to_ascii_lowercase());
    match mv.gate_coord().filter(|_| mv.gate_on_rook) {
        Some(rook) => {
            let text = format!("{}{}{letter}", rook.to_text(), mv.from_coord().to_text());
            protocol::shift_ranks(&text, rank_shift(pos, dialect))
        }
        None => format!(
            "{}{letter}",
            write(pos, &mv.with_gate(None, false), dialect)
        ),
    }
}

/// A move that places a wall, as Fairy-Stockfish writes it: the move, then a leg from its
/// end square to the wall, with a promotion mark before the leg in UCI (`e7e8q,e8d5`) and
/// after it in XBoard (`e7e8,e8d5q`); a pass that only walls from the first square holding
/// a man of the side to move (`a1a1,a1c3`).
fn walled_text(pos: &Position, mv: &Move, wall: Coord, dialect: Dialect) -> String {
    let shift = rank_shift(pos, dialect);
    let name = |c: Coord| protocol::shift_ranks(&c.to_text(), shift);
    if mv.kind == MoveKind::Pass {
        let at = name(mv.from_coord());
        return format!("{at}{at},{at}{}", name(wall));
    }
    let base = write(pos, &mv.with_wall(None), dialect);
    let king_takes_rook =
        mv.kind == MoveKind::Castle && dialect == (Dialect::Uci { chess960: true });
    let end = match mv.extras().next() {
        Some(rook) if king_takes_rook => rook,
        _ => mv.to_coord(),
    };
    let leg = format!(",{}{}", name(end), name(wall));
    let mark = base.len() - base.trim_end_matches(|c: char| !c.is_ascii_digit()).len();
    let (core, suffix) = base.split_at(base.len() - mark);
    if dialect.is_xboard() {
        format!("{core}{leg}{suffix}")
    } else {
        format!("{core}{suffix}{leg}")
    }
}

/// A capture that turns the taker into its victim's type (`contagion`).
fn turned_by_capture(pos: &Position, mv: &Move) -> bool {
    let (from, to) = (
        pos.layout().sq(mv.from_coord()),
        pos.layout().sq(mv.to_coord()),
    );
    let (Some(mover), Some(victim)) = (pos.man_at(from), pos.man_at(to)) else {
        return false;
    };
    victim.colour != mover.colour
        && pos
            .variant()
            .turned(pos.piece_of(mover), pos.piece_of(victim))
            == Some(mv.piece)
}

/// True when `mv` turns a promoted man back into its base type (`pieceDemotion`).
fn demotes(pos: &Position, mv: &Move) -> bool {
    let from = pos.layout().sq(mv.from_coord());
    let pieces = &pos.variant().pieces;
    pos.man_at(from)
        .and_then(|m| pieces.get(pos.piece_of(m) as usize))
        .is_some_and(|p| p.plus_form && p.demotes_to == Some(mv.piece))
}

/// Moves written by [`leg_text`]: a pass through an empty square, and in UCI any move with
/// victims (XBoard's comma form is the engine's own text already).
fn multi_leg(pos: &Position, mv: &Move, dialect: Dialect) -> bool {
    let victims = mv.n_extra > 0 && !dialect.is_xboard();
    victims || mv.from == mv.to && pos.pass_via(mv).is_some()
}

/// A multi-leg move: XBoard's comma legs or UCI's square chain through its victims, listed
/// as the engine's own text lists them (a pass through the empty square it turns on).
fn leg_text(pos: &Position, mv: &Move, dialect: Dialect) -> String {
    let mut path: Vec<Coord> = vec![mv.from_coord()];
    path.extend(mv.extras());
    path.extend(pos.pass_via(mv));
    path.push(mv.to_coord());
    let names: Vec<String> = path.iter().map(|c| c.to_text()).collect();
    let mut text = match dialect {
        Dialect::Xboard | Dialect::XboardZeroRanks => names
            .windows(2)
            .map(|w| format!("{}{}", w[0], w[1]))
            .collect::<Vec<_>>()
            .join(","),
        _ => names.concat(),
    };
    if mv.kind == MoveKind::Promotion {
        let piece = pos.variant().pieces.get(mv.piece as usize);
        match piece {
            Some(p) if p.plus_form => text.push('+'),
            Some(p) => text.push(p.letter.to_ascii_lowercase()),
            None => {}
        }
    }
    text
}

/// The squares a multi-leg text visits (`e5e6,e6e7` and `e5e6e7` both give e5 e6 e7) and
/// whether it ends in a promotion mark; `None` for a one-leg or malformed text.
fn path_of(text: &str, files: u8, ranks: u8) -> Option<(Vec<Coord>, bool)> {
    let b = text.as_bytes();
    let (mut path, mut i, mut promotes) = (Vec::new(), 0, false);
    while i < b.len() {
        if b[i] == b',' {
            i += 1;
            continue;
        }
        let digits = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 {
            // Only a final promotion mark may stand without a rank.
            promotes = i + 1 == b.len() && (b[i] == b'+' || b[i].is_ascii_lowercase());
            if !promotes {
                return None;
            }
            break;
        }
        let c = Coord::parse(&text[i..i + 1 + digits], files, ranks)?;
        if path.last() != Some(&c) {
            path.push(c); // XBoard repeats each turning square (`e5e6,e6e7`)
        }
        i += 1 + digits;
    }
    let legs = path.len() >= 3 || path.len() == 2 && text.contains(',');
    legs.then_some((path, promotes))
}

/// The legal move a multi-leg path names: same start, end and promotion, and it removes
/// exactly the enemy men on the path's turning squares (empty ones only steer it).
fn by_path<'a>(pos: &Position, legal: &'a [Move], text: &str) -> Option<&'a Move> {
    let lay = pos.layout();
    let (path, promotes) = path_of(text, lay.files, lay.ranks)?;
    let (&from, &to) = (path.first()?, path.last()?);
    let mut removed = Vec::new();
    for &c in &path[1..path.len() - 1] {
        match pos.man_at(lay.sq(c)) {
            Some(m) if m.colour == pos.side_to_move() => return None,
            Some(_) => removed.push(c),
            None => {}
        }
    }
    removed.sort();
    legal.iter().find(|m| {
        let mut extras: Vec<Coord> = m.extras().collect();
        extras.sort();
        matches!(m.kind, MoveKind::Normal | MoveKind::Promotion)
            && m.from_coord() == from
            && m.to_coord() == to
            && (m.kind == MoveKind::Promotion) == promotes
            && extras == removed
    })
}

/// The legal move that `text` names in a dialect (or in the engine's canonical notation).
pub fn parse(game: &mut Game, text: &str, dialect: Dialect) -> Result<Move, GameError> {
    let text = text.trim();
    if text.is_empty() || text.len() > 64 || !text.is_ascii() || text.contains(char::is_whitespace)
    {
        return Err(GameError::MalformedMove(text.chars().take(64).collect()));
    }
    if dialect == Dialect::Usi {
        let lay = game.position().layout();
        let Some(ours) = super::usi::from_usi(text, lay.files, lay.ranks) else {
            return Err(GameError::MalformedMove(text.to_string()));
        };
        return parse(game, &ours, Dialect::Uci { chess960: false })
            .map_err(|_| GameError::IllegalMove(text.to_string()));
    }
    // XBoard marks a declined promotion with a trailing `=` (shogi variants), and XBoard 4.9.1
    // relays a move of the man in its pawn slot to the last rank with its empty promotion
    // choice `.` where none is offered (breakthrough's winning step, `g7f8.`): the same move
    // without the mark, which must then not promote.
    let unmarked = text.strip_suffix('=').or_else(|| text.strip_suffix('.'));
    if let (true, Some(base)) = (dialect.is_xboard(), unmarked) {
        if !base.is_empty() && !base.ends_with(['=', '.']) {
            return match parse(game, base, dialect) {
                Ok(m) if m.kind != MoveKind::Promotion => Ok(m),
                _ => Err(GameError::IllegalMove(text.to_string())),
            };
        }
    }
    let legal = game.legal_moves();
    let pos = game.position();
    // The engine's own text is accepted too (`e7e8q` where the dialect says `e7e8+`), but not
    // where the dialect numbers ranks differently: there `a7c8` would name another square.
    let canonical_ok = rank_shift(pos, dialect) == 0;
    let matches = |m: &Move, exact: bool| {
        let ours = write(pos, m, dialect);
        let canonical = if canonical_ok {
            move_text(pos, m)
        } else {
            ours.clone()
        };
        if exact {
            ours == text || canonical == text
        } else {
            ours.eq_ignore_ascii_case(text) || canonical.eq_ignore_ascii_case(text)
        }
    };
    let found = legal
        .iter()
        .find(|m| matches(m, true))
        .or_else(|| legal.iter().find(|m| matches(m, false)))
        .or_else(|| king_takes_rook(pos, &legal, text))
        .or_else(|| {
            by_path(
                pos,
                &legal,
                &protocol::shift_ranks(text, -rank_shift(pos, dialect)),
            )
        });
    if let Some(m) = found {
        return Ok(*m);
    }
    // XBoard's null move, as HaChu sends a chu lion's pass (jitto): without a pass move in the
    // variant, any legal move that leaves the board as it was (a step out and back, no victim)
    // is the same move for the position.
    if dialect.is_xboard() && text == "@@@@" {
        let pass = legal.iter().find(|m| m.is_step_out_and_back());
        if let Some(m) = pass {
            return Ok(*m);
        }
    }
    // XBoard 4.9 keeps a rank as one character, `'1' + rank - 1`: on a 16-rank board the top
    // rank is `@`, and XBoard relays a move from it (`a16a15`) as a drop, `A@a15`. Where no
    // drop matched, read `X@` as the square x16.
    let b = text.as_bytes();
    if dialect == Dialect::Xboard
        && pos.layout().ranks == 16
        && b.len() > 2
        && b[0].is_ascii_uppercase()
        && b[1] == b'@'
        && b[2].is_ascii_lowercase()
    {
        let from = format!("{}16{}", char::from(b[0].to_ascii_lowercase()), &text[2..]);
        return parse(game, &from, dialect).map_err(|_| GameError::IllegalMove(text.to_string()));
    }
    Err(GameError::IllegalMove(text.to_string()))
}

/// Chess960 castling written as the king taking its rook, whatever the option says (GUIs
/// differ).
fn king_takes_rook<'a>(pos: &Position, legal: &'a [Move], text: &str) -> Option<&'a Move> {
    legal.iter().find(|m| {
        m.kind == MoveKind::Castle
            && m.extras()
                .next()
                .is_some_and(|r| format!("{}{}", m.from_coord().to_text(), r.to_text()) == text)
            && pos.variant().castling.is_some()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HaChu (and XBoard) write a chu lion's pass as the null move `@@@@`.
    #[test]
    fn xboard_null_move_is_a_lion_pass_in_chu() {
        let all = variants::builtins().unwrap_or_default();
        let Some(v) = variants::find(&all, "chu") else {
            panic!("no chu");
        };
        let fen = "11k/12/12/12/12/12/5N6/12/12/12/12/K11 w - - 0 1";
        let Ok(mut game) = Game::from_fen(v.clone(), fen) else {
            panic!("bad fen");
        };
        let Ok(m) = parse(&mut game, "@@@@", Dialect::Xboard) else {
            panic!("@@@@ not read");
        };
        assert_eq!(m.from_coord(), m.to_coord());
        assert_eq!(m.extras().count(), 0);
        // Locust writes its own lion's pass the same way (UCI keeps the two legs).
        assert_eq!(write(game.position(), &m, Dialect::Xboard), "@@@@");
        let uci = write(game.position(), &m, Dialect::Uci { chess960: false });
        assert_ne!(uci, "@@@@");
        // Without a piece that can pass, `@@@@` names nothing.
        let Ok(mut bare) =
            Game::from_fen(v.clone(), "11k/12/12/12/12/12/12/12/12/12/12/K11 w - - 0 1")
        else {
            panic!("bad fen");
        };
        assert!(parse(&mut bare, "@@@@", Dialect::Xboard).is_err());
    }

    /// XBoard marks a declined shogi promotion with a trailing `=`.
    #[test]
    fn xboard_declined_promotion_mark() {
        let all = variants::builtins().unwrap_or_default();
        let Some(v) = variants::find(&all, "shogi") else {
            panic!("no shogi");
        };
        // White's silver on c6 steps into the zone at c7: it may promote or not.
        let fen = "4k4/9/9/2S6/9/9/9/9/4K4 w - - 0 1";
        let Ok(mut game) = Game::from_fen(v.clone(), fen) else {
            panic!("bad fen");
        };
        let plain = parse(&mut game, "c6c7", Dialect::Xboard);
        let declined = parse(&mut game, "c6c7=", Dialect::Xboard);
        assert!(plain.is_ok(), "{plain:?}");
        assert_eq!(declined.ok(), plain.ok());
        assert!(parse(&mut game, "c6c7+=", Dialect::Xboard).is_err());
        assert!(parse(&mut game, "=", Dialect::Xboard).is_err());
    }

    /// XBoard 4.9.1 relays breakthrough's winning step to the last rank with its empty
    /// promotion choice, `g7f8.`; Locust answered `Illegal move` and lost the game on a
    /// "False illegal-move claim". A real promotion with the mark is still refused.
    #[test]
    fn xboard_empty_promotion_mark() {
        let all = variants::builtins().unwrap_or_default();
        let Some(v) = variants::find(&all, "breakthrough") else {
            panic!("no breakthrough");
        };
        let Ok(mut game) = Game::from_fen(v.clone(), "8/6P1/8/8/8/8/p7/8 w 0 1") else {
            panic!("bad fen");
        };
        let plain = parse(&mut game, "g7f8", Dialect::Xboard);
        assert!(plain.is_ok(), "{plain:?}");
        assert_eq!(parse(&mut game, "g7f8.", Dialect::Xboard).ok(), plain.ok());
        assert!(parse(&mut game, "g7f8.", Dialect::Uci { chess960: false }).is_err());
        assert!(parse(&mut game, "g7f8..", Dialect::Xboard).is_err());
        assert!(parse(&mut game, ".", Dialect::Xboard).is_err());
        let Some(chess) = variants::find(&all, "chess") else {
            panic!("no chess");
        };
        let Ok(mut promo) = Game::from_fen(chess.clone(), "8/4P2k/8/8/8/8/8/K7 w - - 0 1") else {
            panic!("bad fen");
        };
        assert!(parse(&mut promo, "e7e8q", Dialect::Xboard).is_ok());
        assert!(parse(&mut promo, "e7e8.", Dialect::Xboard).is_err());
    }

    /// XBoard relays a move from the 16th rank (its rank character `@`) as `A@a15`.
    /// Tenjiku, Black to move, with the square in front of Black's lance on a16 emptied (the
    /// lance steps from the 16th rank to a15).
    fn tenjiku_lance_free() -> Game {
        let all = variants::builtins().unwrap_or_default();
        let Some(v) = variants::find(&all, "tenjiku") else {
            panic!("no tenjiku");
        };
        let fen = "lnficsgekgscifnl/2c!c!1txql!ot1c!c!1a/s'v'bhdw!d!q'h!d!w!dhbv's'/mvrf!e!b!r!v!q!r!b!e!f!rvm/pppppppppppppppp/4d'6d'4/16/16/16/16/4D'6D'4/PPPPPPPPPPPPPPPP/MVRF!E!B!R!Q!V!R!B!E!F!RVM/S'V'BHDW!D!H!Q'D!W!DHBV'S'/A1C!C!1TOL!QXT1C!C!1A/LNFICSGKEGSCIFNL b - - 0 1";
        Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("bad fen: {e}"))
    }

    #[test]
    fn xboard_drop_form_of_a_top_rank_move_on_16_ranks() {
        let mut game = tenjiku_lance_free();
        let Ok(plain) = parse(&mut game, "a16a15", Dialect::Xboard) else {
            panic!("a16a15 not legal");
        };
        let Ok(relayed) = parse(&mut game, "A@a15", Dialect::Xboard) else {
            panic!("A@a15 not read");
        };
        assert_eq!(plain, relayed);
        assert!(parse(&mut game, "A@a14", Dialect::Xboard).is_err());
        assert!(parse(&mut game, "A@a15", Dialect::Uci { chess960: false }).is_err());
    }

    #[test]
    fn xboard_ranks_from_zero_name_the_top_rank_of_16() {
        let mut game = tenjiku_lance_free();
        // Black's lance a16-a15 is `a15a14` with XBoard's `-rankOffset 1`.
        let zero = Dialect::XboardZeroRanks;
        let m = parse(&mut game, "a15a14", zero).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(move_text(game.position(), &m), "a16a15");
        assert_eq!(write(game.position(), &m, zero), "a15a14");
        assert!(parse(&mut game, "a16a15", zero).is_err());
        assert!(parse(&mut game, "A@a14", zero).is_err());
    }

    #[test]
    fn xboard_ranks_on_ten_rank_boards_are_never_read_as_engine_ranks() {
        let all = variants::builtins().unwrap_or_default();
        let Some(xq) = variants::find(&all, "xiangqi") else {
            panic!("xiangqi is built in");
        };
        // The horse on b1 (XBoard b0): `b0c2` is its move; `b1c3` in engine text would be
        // the same move, and must be refused in XBoard notation (it reads as b2c4).
        let mut game = Game::new(xq.clone()).unwrap_or_else(|e| panic!("{e}"));
        let m = parse(&mut game, "b0c2", Dialect::Xboard).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(move_text(game.position(), &m), "b1c3");
        assert!(parse(&mut game, "b1c3", Dialect::Xboard).is_err());
        assert_eq!(write(game.position(), &m, Dialect::Xboard), "b0c2");
        let u = parse(&mut game, "b1c3", Dialect::Uci { chess960: false })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(u, m);
    }
}
