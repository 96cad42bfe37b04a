//! FEN in and out for every variant: multi-digit empty runs, holdings `[...]`, promoted
//! markers (`~`, `+X`), walls `*`, X-FEN/Shredder castling letters, several e.p. squares.
//! Errors say what was wrong and where; nothing here panics on bad text.

use std::sync::Arc;

use variants::geometry::Coord;
use variants::PieceId;

use crate::board::gating;
use crate::board::layout::Layout;
use crate::board::position::{EnPassant, Position, DEFAULT_CHECKS_LEFT};
use crate::board::types::{Colour, Sq, EMPTY, OFF};
use crate::board::zobrist::Zobrist;

/// Checks a lichess FEN's check counters count given out of (three-check's number).
const LICHESS_CHECKS: u8 = 3;
/// The largest counting limit (plies) a FEN may give: FSF's longest count is 64 moves.
const MAX_COUNT_LIMIT: u32 = 1_000;

/// Why a FEN was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing to read.
    #[error("empty FEN")]
    Empty,
    /// Only printable ASCII is allowed.
    #[error("non-ASCII character in FEN")]
    NotAscii,
    /// Wrong number of ranks.
    #[error("expected {expected} ranks, found {found}")]
    RankCount {
        /// Ranks of the variant.
        expected: u8,
        /// Ranks in the FEN.
        found: usize,
    },
    /// A rank describes too many or too few squares.
    #[error("rank {rank} has {found} squares, expected {expected}")]
    RankWidth {
        /// Rank number as printed (1-based).
        rank: u8,
        /// Squares described.
        found: usize,
        /// Files of the variant.
        expected: u8,
    },
    /// A letter that names no piece of the variant.
    #[error("unknown piece '{0}'")]
    UnknownPiece(char),
    /// `+X` where X has no promoted form.
    #[error("'+{0}' is not a promoted piece of this variant")]
    BadPromoted(char),
    /// A marker with nothing to mark.
    #[error("misplaced '{0}'")]
    Misplaced(char),
    /// An empty-square count of zero or with a leading zero.
    #[error("bad empty-square count '{0}'")]
    BadCount(String),
    /// Holdings bracket not closed or with bad content.
    #[error("bad holdings: {0}")]
    BadHoldings(String),
    /// Drops are not part of this variant.
    #[error("holdings given but the variant has no drops")]
    NoHoldings,
    /// Side to move not `w` or `b`.
    #[error("side to move must be 'w' or 'b', found '{0}'")]
    BadSide(String),
    /// Castling field.
    #[error("bad castling field '{0}'")]
    BadCastling(String),
    /// En-passant field.
    #[error("bad en-passant field '{0}'")]
    BadEnPassant(String),
    /// Move counters.
    #[error("bad move counter '{0}'")]
    BadCounter(String),
    /// Check counters (`3+3`, `+0+0`).
    #[error("bad check counters '{0}'")]
    BadChecks(String),
    /// Too many fields.
    #[error("unexpected trailing field '{0}'")]
    Trailing(String),
    /// More men than the engine can hold.
    #[error("too many men on the board")]
    TooManyMen,
    /// A side has no royal piece although the rules need one.
    #[error("{0} has no royal piece")]
    NoRoyal(&'static str),
    /// A side has more royal pieces than the rules allow.
    #[error("{0} has too many royal pieces")]
    TooManyRoyals(&'static str),
    /// The side not to move is in check (its royal could be captured).
    #[error("the side not to move is in check")]
    OpponentInCheck,
    /// A confined piece stands outside its zone (a xiangqi general outside the palace).
    #[error("{0} on {1} stands outside the zone it is confined to")]
    OutsideZone(char, String),
    /// A piece stands where it could never move (a pawn on its last rank).
    #[error("{0} on {1} could never move")]
    DeadPiece(char, String),
}

/// A man read from the placement field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    /// Square.
    pub at: Coord,
    /// Variant piece type.
    pub piece: PieceId,
    /// Owner.
    pub colour: Colour,
    /// `~` marker.
    pub promoted: bool,
}

/// The placement field: men, walls, and holdings if bracketed.
#[derive(Clone, Debug, Default)]
pub struct Placement {
    /// Men.
    pub men: Vec<Placed>,
    /// Wall squares (`*`).
    pub walls: Vec<Coord>,
    /// Holdings as (colour, piece) pairs, if a bracket was present.
    pub holdings: Option<Vec<(Colour, PieceId)>>,
}

fn colour_of(c: char) -> Colour {
    if c.is_ascii_uppercase() {
        Colour::White
    } else {
        Colour::Black
    }
}

/// Reads the placement field (board and optional `[holdings]`).
pub fn parse_placement(lay: &Layout, text: &str) -> Result<Placement, FenError> {
    let (board, holdings) = match text.find('[') {
        Some(i) => {
            let rest = &text[i + 1..];
            let inner = rest
                .strip_suffix(']')
                .ok_or_else(|| FenError::BadHoldings("missing ']'".into()))?;
            (&text[..i], Some(parse_holdings(lay, inner)?))
        }
        None => (text, None),
    };
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != lay.ranks as usize {
        return Err(FenError::RankCount {
            expected: lay.ranks,
            found: rows.len(),
        });
    }
    let mut out = Placement {
        holdings,
        ..Placement::default()
    };
    for (i, row) in rows.iter().enumerate() {
        let rank = lay.ranks - 1 - i as u8;
        parse_rank(lay, row, rank, &mut out)?;
    }
    Ok(out)
}

fn parse_holdings(lay: &Layout, inner: &str) -> Result<Vec<(Colour, PieceId)>, FenError> {
    if inner == "-" {
        return Ok(Vec::new());
    }
    inner
        .chars()
        .map(|c| {
            if !c.is_ascii_alphabetic() {
                return Err(FenError::BadHoldings(format!("unexpected '{c}'")));
            }
            let p = lay
                .variant
                .piece_by_letter(c)
                .ok_or(FenError::UnknownPiece(c))?;
            Ok((colour_of(c), p))
        })
        .collect()
}

fn parse_rank(lay: &Layout, row: &str, rank: u8, out: &mut Placement) -> Result<(), FenError> {
    let bytes = row.as_bytes();
    let mut file = 0usize;
    let mut i = 0;
    let place = |file: usize| -> Result<Coord, FenError> {
        if file >= lay.files as usize {
            Err(FenError::RankWidth {
                rank: rank + 1,
                found: file + 1,
                expected: lay.files,
            })
        } else {
            Ok(Coord::new(file as u8, rank))
        }
    };
    while i < bytes.len() {
        let c = bytes[i] as char;
        if c.is_ascii_digit() {
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            let digits = &row[start..i];
            // A run may reach the rank's end but not past it: checked, so that a 20-digit
            // run cannot wrap the file count round to a square already filled.
            let n = protocol::number::unsigned(digits)
                .ok()
                .filter(|&n| n > 0 && !digits.starts_with('0'))
                .ok_or_else(|| FenError::BadCount(digits.into()))?;
            let end = (file as u64).saturating_add(n);
            if end > u64::from(lay.files) {
                return Err(FenError::RankWidth {
                    rank: rank + 1,
                    found: usize::try_from(end).unwrap_or(usize::MAX),
                    expected: lay.files,
                });
            }
            file = end as usize;
            continue;
        }
        match c {
            '*' => out.walls.push(place(file)?),
            '+' => {
                let l = *bytes.get(i + 1).ok_or(FenError::Misplaced('+'))? as char;
                let suffix = suffix_at(bytes, i + 2);
                let p = plus_piece(lay, l, suffix)?;
                out.men.push(Placed {
                    at: place(file)?,
                    piece: p,
                    colour: colour_of(l),
                    promoted: false,
                });
                i += 1 + suffix.is_some() as usize;
            }
            '~' => {
                let last = out.men.last_mut().ok_or(FenError::Misplaced('~'))?;
                let marks_matter =
                    lay.variant.drops.captures_to_hand || lay.variant.drops.two_boards;
                if last.at != Coord::new(file.wrapping_sub(1) as u8, rank)
                    || last.promoted
                    || !marks_matter
                {
                    return Err(FenError::Misplaced('~'));
                }
                last.promoted = true;
                i += 1;
                continue;
            }
            c if c.is_ascii_alphabetic() => {
                let suffix = suffix_at(bytes, i + 1);
                let p = lay
                    .variant
                    .piece_by_symbol(c, false, suffix)
                    .ok_or(FenError::UnknownPiece(c))?;
                out.men.push(Placed {
                    at: place(file)?,
                    piece: p,
                    colour: colour_of(c),
                    promoted: false,
                });
                i += suffix.is_some() as usize;
            }
            c => return Err(FenError::UnknownPiece(c)),
        }
        file += 1;
        i += 1;
    }
    if file != lay.files as usize {
        return Err(FenError::RankWidth {
            rank: rank + 1,
            found: file,
            expected: lay.files,
        });
    }
    Ok(())
}

fn plus_piece(lay: &Layout, l: char, suffix: Option<char>) -> Result<PieceId, FenError> {
    if !l.is_ascii_alphabetic() {
        return Err(FenError::Misplaced('+'));
    }
    lay.variant
        .piece_by_symbol(l, true, suffix)
        .ok_or(FenError::BadPromoted(l))
}

/// XBoard's mark after a letter for variants with more than 26 piece types (`N'`, `D!`).
fn suffix_at(bytes: &[u8], i: usize) -> Option<char> {
    match bytes.get(i) {
        Some(b'\'') => Some('\''),
        Some(b'!') => Some('!'),
        _ => None,
    }
}

impl Position {
    /// The variant's start position.
    pub fn start(lay: Arc<Layout>, zob: Arc<Zobrist>) -> Result<Position, FenError> {
        let fen = lay.variant.start_fen.clone();
        Position::from_fen(lay, zob, &fen)
    }

    /// Reads a FEN.
    pub fn from_fen(lay: Arc<Layout>, zob: Arc<Zobrist>, fen: &str) -> Result<Position, FenError> {
        if !fen.is_ascii() {
            return Err(FenError::NotAscii);
        }
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let first = fields.first().ok_or(FenError::Empty)?;
        let placement = parse_placement(&lay, first)?;
        let mut pos = Position::empty(lay.clone(), zob);
        for w in &placement.walls {
            pos.board[lay.sq(*w) as usize] = OFF;
        }
        pos.set_holdings(&placement)?;
        let rest = &fields[1..];
        pos.stm = match rest.first().copied() {
            None | Some("w") => Colour::White,
            Some("b") => Colour::Black,
            Some(s) => return Err(FenError::BadSide(s.into())),
        };
        let rest = if rest.is_empty() { rest } else { &rest[1..] };
        let rest = pos.take_check_counts(rest)?;
        let (castling, ep, counters) = split_optional(&rest);
        let (castling, mut gates) =
            gating::split_gate_marks(&lay.variant, &placement, &pos.hand, castling);
        let rights = pos.castling_rights(&placement, castling.as_deref())?;
        gating::castling_gates(&lay.variant, &placement, &rights, &mut gates);
        pos.place_men(&placement, &rights)?;
        pos.gates = gates;
        let (limit, counters) = pos.take_count_limit(counters)?;
        pos.parse_counters(counters)?;
        pos.set_count(limit);
        pos.rebuild();
        pos.parse_ep(ep)?;
        if let Some(e) = pos.ep.take() {
            if pos.ep_capturable(&e.targets, pos.stm) {
                pos.ep = Some(e);
            }
        }
        pos.rebuild();
        pos.validate()?;
        Ok(pos)
    }

    /// Check counting: takes Fairy-Stockfish's field of checks left to give (`3+3`, White's
    /// first) and lichess's of checks given out of three (`+0+0`, last) out of the fields
    /// after the side to move, as FSF reads them (the lichess field last, so it wins).
    /// Neither: the next check wins, FSF's reading. Other variants keep every field.
    fn take_check_counts<'a>(&mut self, rest: &[&'a str]) -> Result<Vec<&'a str>, FenError> {
        if !self.lay.variant.end.check_counting {
            return Ok(rest.to_vec());
        }
        self.checks_left = [DEFAULT_CHECKS_LEFT; 2];
        let mut kept = Vec::new();
        for &field in rest {
            if !variants::load::is_check_count(field) {
                kept.push(field);
                continue;
            }
            let bad = || FenError::BadChecks(field.into());
            let given = field.starts_with('+');
            let mut nums = field.trim_start_matches('+').split('+');
            for left in &mut self.checks_left {
                let n: u8 = nums.next().and_then(|t| t.parse().ok()).ok_or_else(bad)?;
                *left = if given {
                    LICHESS_CHECKS.saturating_sub(n)
                } else {
                    n
                };
            }
        }
        Ok(kept)
    }

    fn set_holdings(&mut self, placement: &Placement) -> Result<(), FenError> {
        let Some(h) = &placement.holdings else {
            return Ok(());
        };
        let v = &self.lay.variant;
        let gated = v.gating.as_ref().is_some_and(|g| g.seirawan);
        if !v.drops.enabled && !v.drops.captures_to_hand && !gated && !h.is_empty() {
            return Err(FenError::NoHoldings);
        }
        for &(c, p) in h {
            // A royal in hand is dropped in a set-up phase (placement, sittuyin, whose start
            // has no royal on the board); elsewhere (crazyhouse) a king is never held.
            let set_up = v.drops.enabled && self.lay.start_royals[c.index()] == 0;
            if v.pieces[p as usize].royal && !set_up {
                return Err(FenError::BadHoldings(
                    "a royal piece cannot be in hand".into(),
                ));
            }
            let n = &mut self.hand[c.index()][p as usize];
            *n = n
                .checked_add(1)
                .ok_or(FenError::BadHoldings("too many".into()))?;
        }
        Ok(())
    }

    fn place_men(&mut self, placement: &Placement, rights: &[Coord]) -> Result<(), FenError> {
        let lay = self.lay.clone();
        for m in &placement.men {
            let sq = lay.sq(m.at);
            let virgin = if self.castling_piece(m.piece) {
                rights.contains(&m.at)
            } else {
                self.initial_square(m.piece, m.colour, sq)
            };
            let kind = lay.kind_of(m.piece, virgin);
            // Under `dropLoop` a promoted man goes to hand as it stands: FSF reads `~` and
            // writes none.
            let promoted = m.promoted && !lay.variant.drops.keep_promoted;
            self.setup_put(sq, kind, m.colour, promoted)
                .ok_or(FenError::TooManyMen)?;
        }
        Ok(())
    }

    /// A counting rule's limit, written by FSF in the e.p. field's place: with a count
    /// running the FEN has three numbers (limit, plies counted, move number).
    fn take_count_limit<'a>(
        &self,
        counters: &'a [&'a str],
    ) -> Result<(u32, &'a [&'a str]), FenError> {
        match counters {
            [limit, rest @ ..] if rest.len() == 2 && self.lay.variant.end.counting.is_some() => {
                let n = protocol::number::unsigned(limit)
                    .ok()
                    .and_then(|n| u32::try_from(n).ok())
                    .filter(|&n| n <= MAX_COUNT_LIMIT)
                    .ok_or_else(|| FenError::BadCounter((*limit).into()))?;
                Ok((n, rest))
            }
            _ => Ok((0, counters)),
        }
    }

    fn parse_counters(&mut self, counters: &[&str]) -> Result<(), FenError> {
        let mut nums = counters.iter();
        let counter = |t: &str| {
            protocol::number::unsigned(t)
                .ok()
                .and_then(|n| u32::try_from(n).ok())
                .ok_or_else(|| FenError::BadCounter(t.into()))
        };
        if let Some(h) = nums.next() {
            self.rule50 = counter(h)?;
        }
        if let Some(f) = nums.next() {
            let n = counter(f)?;
            if n == 0 {
                return Err(FenError::BadCounter((*f).into()));
            }
            self.fullmove = n;
        }
        if let Some(extra) = nums.next() {
            return Err(FenError::Trailing((*extra).into()));
        }
        if self.rule50 > 100_000 || self.fullmove > 100_000 {
            return Err(FenError::BadCounter(format!(
                "{} {}",
                self.rule50, self.fullmove
            )));
        }
        Ok(())
    }
}

/// Splits the fields after the side to move into castling, e.p. and counters; the first two
/// are optional (shogi-style FENs go straight to the counters).
fn split_optional<'a>(rest: &'a [&'a str]) -> (Option<&'a str>, Option<&'a str>, &'a [&'a str]) {
    let numeric =
        |s: &str| s.bytes().all(|b| b.is_ascii_digit()) || s.starts_with('-') && s.len() > 1;
    let mut i = 0;
    let castling = rest.first().filter(|s| !numeric(s)).copied();
    if castling.is_some() {
        i += 1;
    }
    let ep = rest.get(i).filter(|s| !numeric(s)).copied();
    if ep.is_some() {
        i += 1;
    }
    (castling, ep, &rest[i..])
}

impl Position {
    /// Reads the castling field into the squares of the men that keep their castling rights.
    fn castling_rights(
        &self,
        placement: &Placement,
        field: Option<&str>,
    ) -> Result<Vec<Coord>, FenError> {
        let Some(field) = field.filter(|f| *f != "-") else {
            return Ok(Vec::new());
        };
        let bad = || FenError::BadCastling(field.into());
        let Some(castling) = self.lay.variant.castling.as_ref() else {
            return Err(bad());
        };
        let mut out = Vec::new();
        for ch in field.chars() {
            let colour = colour_of(ch);
            let rank = castling.home_rank(colour == Colour::White, self.lay.ranks);
            let on_rank = |p: &&Placed| p.colour == colour && p.at.rank == rank;
            let king = placement
                .men
                .iter()
                .filter(on_rank)
                .find(|p| p.piece == castling.king_type)
                .ok_or_else(bad)?;
            let rooks: Vec<u8> = (placement.men.iter())
                .filter(on_rank)
                .filter(|p| castling.rook_types.contains(&p.piece))
                .map(|p| p.at.file)
                .collect();
            let file = castling.rook_file(ch.to_ascii_uppercase(), &rooks, king.at.file);
            out.push(king.at);
            out.push(Coord::new(file.ok_or_else(bad)?, rank));
        }
        Ok(out)
    }

    /// Reads the e.p. field: one or more squares; empty ones are targets, an enemy man named
    /// there is the victim. Without a named victim, the man just behind the target is.
    fn parse_ep(&mut self, field: Option<&str>) -> Result<(), FenError> {
        let Some(field) = field.filter(|f| *f != "-") else {
            return Ok(());
        };
        let bad = || FenError::BadEnPassant(field.into());
        let mut targets = Vec::new();
        let mut victim = None;
        for sq in split_squares(field).ok_or_else(bad)? {
            let c = Coord::parse(sq, self.lay.files, self.lay.ranks).ok_or_else(bad)?;
            let s = self.lay.sq(c);
            match self.man_at(s) {
                None => targets.push(s),
                Some(m) if m.colour != self.stm => victim = Some(s),
                Some(_) => return Err(bad()),
            }
        }
        if targets.is_empty() {
            return Err(bad());
        }
        let victim = match victim {
            Some(v) => v,
            None => (targets.iter())
                .find_map(|&t| self.infer_ep_victim(t))
                .ok_or_else(bad)?,
        };
        self.ep = Some(EnPassant { targets, victim });
        Ok(())
    }

    /// The enemy man one rank beyond the target, straight or diagonally (berolina), or two
    /// ranks straight beyond it (a triple step's first square, FSF writing only that one).
    fn infer_ep_victim(&self, target: Sq) -> Option<Sq> {
        let stride = self.lay.stride as i32;
        let back = if self.stm == Colour::White {
            -stride
        } else {
            stride
        };
        let enemy = |sq: i32| {
            let sq = Sq::try_from(sq).ok()?;
            self.man_at(sq).filter(|m| m.colour != self.stm).map(|_| sq)
        };
        let t = target as i32;
        let empty =
            |sq: i32| Sq::try_from(sq).is_ok_and(|s| self.board.get(s as usize) == Some(&EMPTY));
        [0, -1, 1]
            .iter()
            .find_map(|df| enemy(t + back + df))
            .or_else(|| empty(t + back).then(|| enemy(t + 2 * back)).flatten())
    }

    fn validate(&self) -> Result<(), FenError> {
        let names = ["White", "Black"];
        for colour in [Colour::White, Colour::Black] {
            let needed = self.lay.start_royals[colour.index()];
            let have = self.royals(colour).count();
            if needed > 0 && have == 0 {
                return Err(FenError::NoRoyal(names[colour.index()]));
            }
            if needed > 0 && have > needed && !self.royals_can_grow(colour) {
                return Err(FenError::TooManyRoyals(names[colour.index()]));
            }
        }
        if self.in_check(self.stm.flip())
            && self.lay.variant.end.royalty == variants::rules::Royalty::Absolute
        {
            return Err(FenError::OpponentInCheck);
        }
        for (_, m) in self.live() {
            let kind = &self.lay.kinds[m.kind as usize];
            let p = &self.lay.variant.pieces[kind.piece as usize];
            // The letter as the FEN writes it: lower case for Black's men.
            let letter = match m.colour {
                Colour::White => p.letter,
                Colour::Black => p.letter.to_ascii_lowercase(),
            };
            let at = || {
                self.lay
                    .coord(m.sq)
                    .map(|c| c.to_text())
                    .unwrap_or_default()
            };
            if p.confined
                .is_some_and(|z| !self.lay.in_zone(m.colour, z, m.sq))
            {
                return Err(FenError::OutsideZone(letter, at()));
            }
            // A shogi-style man that may decline promotion where it could never move again
            // (Chu pawns and lances on the last rank) may stand there, and so may one that a
            // promoted man flipped back into where it landed (`pieceDemotion`, chennis).
            let demotion = self.lay.variant.promotion.demotion;
            // A sittuyin pawn never promotes by moving, so it may reach its last rank.
            let sittuyin_pawn = self.lay.variant.promotion.sittuyin && !p.promotions.is_empty();
            let may_stick = (p.promoted.is_some() && (!p.mandatory_promotion || demotion)
                || sittuyin_pawn)
                && p.dead_squares.is_empty();
            // A type that never promotes gets stuck by moving (a hound or a breakthrough man
            // on the last rank, as FSF plays them; bajr's men, which step forward and right):
            // only one that would have promoted on arriving there is misplaced.
            let promotes = !p.promotions.is_empty() || p.promoted.is_some();
            let stuck = promotes && !may_stick && !self.can_ever_move(m);
            if kind.dead[m.colour.index()][m.sq as usize] || stuck {
                return Err(FenError::DeadPiece(letter, at()));
            }
        }
        Ok(())
    }

    /// True when `colour` may gain royals during the game (a piece type it starts with
    /// promoting to a royal type or leaving one behind), so a FEN may show more royals than
    /// its start position has.
    fn royals_can_grow(&self, colour: Colour) -> bool {
        let v = &self.lay.variant;
        let royal = |p: &variants::PieceId| v.pieces[*p as usize].royal;
        let starts = &self.lay.start_squares[colour.index()];
        v.pieces.iter().zip(starts).any(|(p, at)| {
            !at.is_empty()
                && (p.promotions.iter().any(royal)
                    || p.promoted.iter().any(royal)
                    || p.leaves_behind.iter().any(royal))
        })
    }

    /// False when no path of the man leads anywhere on the board even when it is empty (a
    /// pawn on its last rank): such a man could never move again. A type with no move at all
    /// (FSF's `immobile`, chak's temple) is a man that stands by design, never a misplaced one.
    fn can_ever_move(&self, m: &crate::board::position::Man) -> bool {
        let kind = &self.lay.kinds[m.kind as usize];
        let table = &kind.cells[m.colour.index()];
        // Walls placed by moves box men in during the game (amazons): only the board's
        // edge makes a man dead there.
        let walled = self.walls_change();
        kind.royal
            || table.roots.is_empty()
            || table.roots.iter().any(|&r| {
                let cell = &table.cells[r as usize];
                let sq = (m.sq as i32 + cell.offset as i32) as Sq;
                let on_board = walled && self.lay.coord(sq).is_some();
                self.board
                    .get(sq as usize)
                    .is_some_and(|&b| b != OFF || on_board)
                    && self.lay.in_zone(m.colour, cell.zone, sq)
            })
    }

    /// Writes the position as FEN, in the style Fairy-Stockfish writes for the variant.
    pub fn fen(&self) -> String {
        let mut s = String::new();
        for r in (0..self.lay.ranks).rev() {
            self.write_rank(r, &mut s);
            if r > 0 {
                s.push('/');
            }
        }
        let v = &self.lay.variant;
        // An endless hand (`freeDrops`) is not written, as FSF writes none.
        let gated = v.gating.as_ref().is_some_and(|g| g.seirawan);
        let drops = (v.drops.enabled || v.drops.captures_to_hand || gated) && !v.drops.free;
        if drops {
            s.push('[');
            s.push_str(&self.holdings_text());
            s.push(']');
        }
        s.push_str(if self.stm == Colour::White {
            " w "
        } else {
            " b "
        });
        s.push_str(&self.castling_text());
        s.push(' ');
        let count = self.count();
        if count.limit > 0 {
            s.push_str(&count.limit.to_string());
        } else {
            s.push_str(&self.ep_text());
        }
        s.push(' ');
        if self.lay.variant.end.check_counting {
            let [w, b] = self.checks_left;
            s.push_str(&format!("{w}+{b} "));
        }
        let halfmove = if count.limit > 0 {
            count.ply
        } else {
            self.rule50
        };
        s.push_str(&format!("{halfmove} {}", self.fullmove));
        s
    }

    fn letter(&self, piece: PieceId, colour: Colour) -> String {
        let p = &self.lay.variant.pieces[piece as usize];
        let l = if colour == Colour::White {
            p.letter
        } else {
            p.letter.to_ascii_lowercase()
        };
        let plus = if p.plus_form { "+" } else { "" };
        let suffix = p.suffix.map(String::from).unwrap_or_default();
        format!("{plus}{l}{suffix}")
    }

    fn write_rank(&self, r: u8, s: &mut String) {
        let mut empties = 0;
        for f in 0..self.lay.files {
            let sq = self.lay.sq(Coord::new(f, r));
            let content = match self.board[sq as usize] {
                OFF => Some("*".to_string()),
                _ => self.man_at(sq).map(|m| {
                    let mut t = self.letter(self.piece_of(m), m.colour);
                    // FSF marks promoted men only where a capture sends them to a hand
                    // (demoted), this board's or the partner's (`twoBoards`): elsewhere the
                    // mark changes nothing, and FSF omits it.
                    let drops = &self.lay.variant.drops;
                    if m.promoted && (drops.captures_to_hand || drops.two_boards) {
                        t.push('~');
                    }
                    t
                }),
            };
            match content {
                None => empties += 1,
                Some(t) => {
                    if empties > 0 {
                        s.push_str(&empties.to_string());
                        empties = 0;
                    }
                    s.push_str(&t);
                }
            }
        }
        if empties > 0 {
            s.push_str(&empties.to_string());
        }
    }

    fn holdings_text(&self) -> String {
        let mut s = String::new();
        for colour in [Colour::White, Colour::Black] {
            for (p, &n) in self.hand[colour.index()].iter().enumerate().rev() {
                for _ in 0..n {
                    s.push_str(&self.letter(p as PieceId, colour));
                }
            }
        }
        s
    }

    fn castling_text(&self) -> String {
        let mut s = String::new();
        for colour in [Colour::White, Colour::Black] {
            let mut implied = Vec::new();
            if let Some((kc, rooks)) = self.castling_partners(colour) {
                let mut rooks: Vec<Coord> = rooks.collect();
                rooks.sort_by_key(|rc| std::cmp::Reverse(rc.file));
                if !rooks.is_empty()
                    && !self
                        .lay
                        .variant
                        .castling
                        .as_ref()
                        .is_some_and(|c| c.chess960)
                {
                    implied.push(kc.file);
                }
                for rc in rooks {
                    implied.push(rc.file);
                    let ch = self.castling_letter(colour, kc, rc);
                    s.push(if colour == Colour::White {
                        ch
                    } else {
                        ch.to_ascii_lowercase()
                    });
                }
            }
            s.push_str(&self.gate_letters(colour, &implied));
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The square of `colour`'s castling king and the squares of the virgin rooks on its
    /// rank (the men that keep a castling right), when the variant castles and the king is
    /// on the board.
    fn castling_partners(
        &self,
        colour: Colour,
    ) -> Option<(Coord, impl Iterator<Item = Coord> + '_)> {
        let c = self.lay.variant.castling.as_ref()?;
        let (_, k) = self
            .live()
            .find(|(_, m)| m.colour == colour && self.lay.kinds[m.kind as usize].castles)?;
        let kc = self.lay.coord(k.sq).unwrap_or(Coord::new(0, 0));
        let rooks = self
            .live()
            .filter(move |(_, m)| {
                let kind = &self.lay.kinds[m.kind as usize];
                m.colour == colour && kind.virgin && c.rook_types.contains(&kind.piece)
            })
            .filter_map(|(_, m)| self.lay.coord(m.sq))
            .filter(move |rc| rc.rank == kc.rank);
        Some((kc, rooks))
    }

    /// `K`/`Q` for the outermost rook on a side, the rook's file letter otherwise.
    fn castling_letter(&self, colour: Colour, king: Coord, rook: Coord) -> char {
        let outer = self.live().all(|(_, m)| {
            let kind = &self.lay.kinds[m.kind as usize];
            let Some(c) = self.lay.coord(m.sq) else {
                return true;
            };
            let rook_type = self
                .lay
                .variant
                .castling
                .as_ref()
                .is_some_and(|x| x.rook_types.contains(&kind.piece));
            !(m.colour == colour
                && rook_type
                && c.rank == rook.rank
                && ((rook.file > king.file && c.file > rook.file)
                    || (rook.file < king.file && c.file < rook.file)))
        });
        // Chess960 positions are written with Shredder letters (the rook's file), as
        // Fairy-Stockfish writes them.
        let shredder = self
            .lay
            .variant
            .castling
            .as_ref()
            .is_some_and(|c| c.chess960);
        if outer && !shredder {
            if rook.file > king.file {
                'K'
            } else {
                'Q'
            }
        } else {
            (b'A' + rook.file) as char
        }
    }

    /// The sides (`[king side, queen side]`) on which `colour` keeps a castling right: its
    /// castling king and a virgin rook on that side of it, as its FEN letters say.
    pub fn castling_sides(&self, colour: Colour) -> [bool; 2] {
        let Some((kc, rooks)) = self.castling_partners(colour) else {
            return [false; 2];
        };
        let mut sides = [false; 2];
        for rc in rooks {
            sides[usize::from(rc.file < kc.file)] = true;
        }
        sides
    }

    /// True when some man keeps a castling right or an en passant capture is open: moves
    /// that endgame tables leave out (their positions are read without such rights).
    pub fn has_castling_or_ep(&self) -> bool {
        self.ep.is_some() || self.has_castling()
    }

    /// True when some man keeps a castling right.
    pub fn has_castling(&self) -> bool {
        [Colour::White, Colour::Black].into_iter().any(|c| {
            self.castling_partners(c)
                .is_some_and(|(_, mut rooks)| rooks.next().is_some())
        })
    }

    fn ep_text(&self) -> String {
        let Some(ep) = &self.ep else {
            return "-".into();
        };
        let text: Vec<String> = ep
            .targets
            .iter()
            .filter_map(|&t| self.lay.coord(t).map(|c| c.to_text()))
            .collect();
        text.concat()
    }
}

/// Splits `e3` / `c5d6` / `j10` into square texts.
pub(crate) fn split_squares(field: &str) -> Option<Vec<&str>> {
    let b = field.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !b[i].is_ascii_lowercase() {
            return None;
        }
        let start = i;
        i += 1;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start + 1 {
            return None;
        }
        out.push(&field[start..i]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use variants::{SquareSet, Variant};

    /// The start squares as the engine's own FEN reader finds them: how the layout computed
    /// them before the variants crate did, kept as the oracle the new source must equal.
    fn start_squares_by_engine_reader(lay: &Layout) -> [Vec<SquareSet>; 2] {
        let types = lay.variant.pieces.len();
        let mut squares = [vec![SquareSet::EMPTY; types], vec![SquareSet::EMPTY; types]];
        let board = lay.variant.start_fen.split_whitespace().next();
        if let Ok(placement) = parse_placement(lay, board.unwrap_or("")) {
            for man in placement.men {
                squares[man.colour.index()][man.piece as usize].insert(man.at);
            }
        }
        squares
    }

    /// Asserts the layout's start squares equal the oracle's; returns how many men they hold.
    fn assert_same_start_squares(variant: &Variant) -> usize {
        let lay = Layout::new(variant.clone());
        let oracle = start_squares_by_engine_reader(&lay);
        assert_eq!(lay.start_squares, oracle, "{}", variant.name);
        oracle.iter().flatten().map(|s| s.iter().count()).sum()
    }

    #[test]
    fn start_squares_equal_the_engine_readers_for_every_built_in_variant() {
        let all = variants::builtins().expect("built-in variants load");
        assert!(all.len() >= 20, "only {} built-in variants", all.len());
        for v in &all {
            let men = assert_same_start_squares(v);
            // Every man of the start position stands on a start square of its type.
            let start = Position::new_game(v.clone()).expect("built-in start position");
            assert_eq!(men, start.live().count(), "{}", v.name);
        }
    }

    #[test]
    fn start_squares_equal_the_engine_readers_for_variant_files() {
        let hachu = concat!(env!("CARGO_MANIFEST_DIR"), "/variants/chu-hachu.ini");
        let mut loaded = variants::load_file(hachu).expect("chu-hachu.ini");
        // Walls, holdings, a promoted man and a suffixed letter in start FENs.
        let text = "[walled:chess]\n\
            startFen = rnbqkbnr/pppppppp/8/2*2*2/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n\
            [stocked:crazyhouse]\n\
            startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[QRqr] w KQkq - 0 1\n\
            [promoted:shogi]\n\
            startFen = lnsgkgsnl/1r5+b1/ppppppppp/9/9/9/PPPPPPPPP/1+B5R1/LNSGKGSNL[-] w 0 1\n\
            [marked:tenjiku]\n\
            startFen = 16/16/16/16/16/16/7k8/16/16/16/16/16/16/7D!8/16/7K8 w - - 0 1\n";
        loaded.extend(variants::load_str(text, "start-squares.ini").expect("test variants"));
        assert_eq!(loaded.len(), 5);
        for v in &loaded {
            assert!(
                assert_same_start_squares(v) > 0,
                "{}: no start squares",
                v.name
            );
        }
    }

    #[test]
    fn unreadable_start_placements_give_no_start_squares_either_way() {
        let all = variants::builtins().expect("built-in variants load");
        let chess = variants::find(&all, "chess").expect("chess");
        let bad = [
            "",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP w",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRR w",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKZNR w",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN[ w",
            "rnbqkbnr/pppppppp/8/0/8/8/PPPPPPPP/RNBQKBNR w",
        ];
        for fen in bad {
            let v = Variant {
                start_fen: fen.into(),
                ..chess.clone()
            };
            assert_eq!(assert_same_start_squares(&v), 0, "{fen}");
        }
    }
}
