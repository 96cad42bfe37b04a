//! Checks a start FEN against a board and its pieces: rank and file counts (numbers may have
//! several digits, as on 10- to 16-file boards), known letters, promoted pieces `+X`, the
//! crazyhouse marker `~`, wall squares `*`, holdings `[...]`, side to move, castling and
//! en-passant fields and move counters (Fairy-Stockfish's shogi FENs omit castling and e.p.);
//! and the start squares of each piece type, read from the variant's start FEN.

use super::values::{next_symbol, Symbol};
use crate::geometry::{Coord, SquareSet};
use crate::rules::Variant;

/// What a valid FEN holds, for the loader's further checks.
#[derive(Debug, Default)]
pub struct FenInfo {
    /// Every piece on the board: symbol, white?, square.
    pub pieces: Vec<(Symbol, bool, Coord)>,
    /// Pieces in hand: symbol, white?.
    pub hand: Vec<(Symbol, bool)>,
    /// The castling field, if present.
    pub castling: Option<String>,
}

/// Longest digit run accepted for empty squares (`16`).
const MAX_EMPTY_DIGITS: usize = 2;

/// Parses `fen` for a `files` x `ranks` board; `known` says whether a symbol is a piece type;
/// `check_counting`: the variant counts checks, so the FEN may hold its check counters.
pub fn check(
    fen: &str,
    files: u8,
    ranks: u8,
    known: &dyn Fn(Symbol) -> bool,
    check_counting: bool,
) -> Result<FenInfo, String> {
    let mut fields = fen.split_whitespace();
    let board = fields.next().ok_or("empty FEN")?;
    let mut info = read_placement(board, files, ranks, known)?;
    // Check counters (`3+3` after e.p., or lichess's `+0+0` at the end) may stand anywhere
    // among the fields after the side to move; the rest is read as without them.
    let fields = fields.filter(|t| !(check_counting && is_check_count(t)));
    read_tail(fields.collect(), files, ranks, &mut info)?;
    Ok(info)
}

/// The squares each piece type holds in `variant`'s start position, White's sets then
/// Black's, indexed by piece id; every set is empty when the start FEN's placement field
/// cannot be read. The engine's board layout takes its start squares from here.
pub fn start_squares(variant: &Variant) -> [Vec<SquareSet>; 2] {
    let types = variant.pieces.len();
    let mut squares = [vec![SquareSet::EMPTY; types], vec![SquareSet::EMPTY; types]];
    let id = |s: Symbol| variant.piece_by_symbol(s.letter, s.plus, s.suffix);
    let placement = variant.start_fen.split_whitespace().next().unwrap_or("");
    let known = |s: Symbol| id(s).is_some();
    let Ok(info) = read_placement(placement, variant.files, variant.ranks, &known) else {
        return squares;
    };
    for (symbol, white, at) in info.pieces {
        if let Some(piece) = id(symbol) {
            squares[usize::from(!white)][piece as usize].insert(at);
        }
    }
    squares
}

/// Reads a FEN's placement field: the ranks and the optional `[holdings]`.
fn read_placement(
    board: &str,
    files: u8,
    ranks: u8,
    known: &dyn Fn(Symbol) -> bool,
) -> Result<FenInfo, String> {
    let mut info = FenInfo::default();
    let (board, hand) = split_hand(board)?;
    if let Some(hand) = hand {
        read_hand(hand, known, &mut info)?;
    }
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != ranks as usize {
        return Err(format!("{} ranks, expected {ranks}", rows.len()));
    }
    for (i, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - i as u8;
        read_row(row, rank, files, known, &mut info)?;
    }
    Ok(info)
}

/// True for Fairy-Stockfish's check-counter field (`3+3`: checks left to give) and lichess's
/// (`+1+0`: checks given).
pub fn is_check_count(t: &str) -> bool {
    let body = t.strip_prefix('+').unwrap_or(t);
    let mut parts = body.split('+');
    let digits =
        |p: Option<&str>| p.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    digits(parts.next()) && digits(parts.next()) && parts.next().is_none()
}

/// Splits off `[holdings]`, which Fairy-Stockfish writes right after the board.
fn split_hand(board: &str) -> Result<(&str, Option<&str>), String> {
    match board.find('[') {
        None => Ok((board, None)),
        Some(i) => {
            let rest = &board[i + 1..];
            let inner = rest.strip_suffix(']').ok_or("holdings must end with `]`")?;
            Ok((&board[..i], Some(inner)))
        }
    }
}

fn read_hand(hand: &str, known: &dyn Fn(Symbol) -> bool, info: &mut FenInfo) -> Result<(), String> {
    let mut chars = hand.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c == '-' {
            chars.next();
            continue;
        }
        let white = c.is_ascii_uppercase();
        let s = next_symbol(&mut chars).ok_or(format!("bad holdings `{hand}`"))?;
        if !known(s) {
            return Err(format!("unknown piece `{c}` in holdings"));
        }
        info.hand.push((s, white));
    }
    Ok(())
}

fn read_row(
    row: &str,
    rank: u8,
    files: u8,
    known: &dyn Fn(Symbol) -> bool,
    info: &mut FenInfo,
) -> Result<(), String> {
    let rank_no = rank as u32 + 1;
    let mut file: u32 = 0;
    let mut chars = row.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let mut digits = String::new();
            while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                digits.push(d);
                chars.next();
            }
            let n: u32 = digits.parse().unwrap_or(0);
            if n == 0 || digits.len() > MAX_EMPTY_DIGITS {
                return Err(format!(
                    "bad empty-square count `{digits}` on rank {rank_no}"
                ));
            }
            file += n;
        } else if c == '*' {
            chars.next();
            file += 1;
        } else if c == '~' {
            chars.next();
        } else {
            let white = chars
                .clone()
                .find(|x| *x != '+')
                .is_some_and(|x| x.is_ascii_uppercase());
            let s = next_symbol(&mut chars).ok_or(format!("unexpected `{c}` on rank {rank_no}"))?;
            if !known(s) {
                return Err(format!("unknown piece `{s}` on rank {rank_no}"));
            }
            if file < files as u32 {
                info.pieces.push((s, white, Coord::new(file as u8, rank)));
            }
            file += 1;
        }
        if file > files as u32 {
            return Err(format!("rank {rank_no} has more than {files} files"));
        }
    }
    if file < files as u32 {
        return Err(format!("rank {rank_no} has {file} files, expected {files}"));
    }
    Ok(())
}

/// Side to move, then optional castling and e.p. fields, then optional counters.
fn read_tail(fields: Vec<&str>, files: u8, ranks: u8, info: &mut FenInfo) -> Result<(), String> {
    let mut rest = fields.into_iter();
    match rest.next() {
        Some("w") | Some("b") => {}
        Some(other) => return Err(format!("side to move must be w or b, found `{other}`")),
        None => return Err("missing side to move".to_string()),
    }
    let tail: Vec<&str> = rest.collect();
    let first_counter = tail
        .iter()
        .position(|t| t.bytes().all(|b| b.is_ascii_digit()))
        .unwrap_or(tail.len());
    let counters_ok = tail[first_counter..]
        .iter()
        .all(|t| t.bytes().all(|b| b.is_ascii_digit()));
    if first_counter > 2 || tail.len() - first_counter > 2 || !counters_ok {
        return Err(format!("unexpected FEN fields `{}`", tail.join(" ")));
    }
    if let Some(c) = tail.first().filter(|_| first_counter >= 1) {
        let ok = *c == "-" || c.chars().all(|ch| ch.is_ascii_alphabetic());
        if !ok {
            return Err(format!("bad castling field `{c}`"));
        }
        info.castling = Some(c.to_string());
    }
    if let Some(ep) = tail.get(1).filter(|_| first_counter >= 2) {
        if *ep != "-" && Coord::parse(ep, files, ranks).is_none() {
            return Err(format!("bad en-passant square `{ep}`"));
        }
    }
    Ok(())
}
