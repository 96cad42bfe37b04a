//! The XBetza parser: text to [`Betza`]. Every malformed input gives an [`XbetzaError`]
//! with the 1-based column (in characters) of the offending character; nothing panics.

use super::dirs::{class_of, mask};
use super::{Atom, Betza, Dir, Leg, Mods, Move, Range, MAX_EXPLICIT_RANGE, MAX_LEAP, MAX_LEGS};
use crate::error::XbetzaError;

/// Parses XBetza text.
pub fn parse(text: &str) -> Result<Betza, XbetzaError> {
    let mut p = Parser {
        chars: text.chars().collect(),
        pos: 0,
    };
    if p.chars.is_empty() {
        return Err(err(1, "empty XBetza string"));
    }
    let mut moves = Vec::new();
    while p.pos < p.chars.len() {
        moves.push(p.parse_move()?);
    }
    Ok(Betza { moves })
}

fn err(column: usize, message: impl Into<String>) -> XbetzaError {
    XbetzaError {
        column,
        message: message.into(),
    }
}

struct Parser {
    chars: Vec<char>,
    pos: usize,
}

/// The legs read so far for one move, with the column of every direction letter.
#[derive(Default)]
struct Prefix {
    initial: bool,
    legs: Vec<Leg>,
    dir_cols: Vec<Vec<usize>>,
    start: usize,
}

impl Prefix {
    fn current(&mut self) -> (&mut Leg, &mut Vec<usize>) {
        if self.legs.is_empty() {
            self.legs.push(Leg::default());
            self.dir_cols.push(Vec::new());
        }
        let n = self.legs.len() - 1;
        (&mut self.legs[n], &mut self.dir_cols[n])
    }
}

impl Parser {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    /// 1-based column of the current position.
    fn col(&self) -> usize {
        self.pos + 1
    }

    fn parse_move(&mut self) -> Result<Move, XbetzaError> {
        let mut pre = Prefix {
            start: self.col(),
            ..Prefix::default()
        };
        let (atom, atom_col) = loop {
            let Some(c) = self.peek() else {
                return Err(err(pre.start, "modifiers without an atom"));
            };
            if c.is_ascii_lowercase() {
                self.modifier(c, &mut pre)?;
                self.pos += 1;
            } else {
                let col = self.col();
                break (self.atom(c)?, col);
            }
        };
        pre.current();
        let range = self.range(atom, atom_col)?;
        check_move(pre, atom, range, atom_col)
    }

    /// Reads one lower-case modifier into the current leg.
    fn modifier(&self, c: char, pre: &mut Prefix) -> Result<(), XbetzaError> {
        let col = self.col();
        if let Some(d) = Dir::from_letter(c) {
            let (leg, cols) = pre.current();
            leg.dirs.push(d);
            cols.push(col);
        } else if let Some(bit) = Mods::bit(c) {
            pre.current().0.mods.0 |= bit;
        } else if c == 'a' {
            pre.current();
            if pre.legs.len() >= MAX_LEGS {
                return Err(err(col, format!("too many legs (at most {MAX_LEGS})")));
            }
            pre.legs.push(Leg::default());
            pre.dir_cols.push(Vec::new());
        } else if c == 'i' {
            if pre.legs.len() > 1 {
                return Err(err(col, "'i' (initial) belongs before the first leg"));
            }
            pre.initial = true;
        } else if "oquxz".contains(c) {
            return Err(err(col, format!("unsupported modifier '{c}'")));
        } else {
            return Err(err(col, format!("unknown modifier '{c}'")));
        }
        Ok(())
    }

    /// Reads the atom at the current position (a letter or a leap vector).
    fn atom(&mut self, c: char) -> Result<Atom, XbetzaError> {
        let col = self.col();
        match c {
            '(' => self.vector(),
            '[' => Err(err(col, "bracket groups are not supported")),
            ')' | ']' => Err(err(col, format!("unbalanced parenthesis '{c}'"))),
            '0'..='9' => Err(err(col, "a number must follow an atom")),
            c if c.is_ascii_uppercase() => {
                self.pos += 1;
                Atom::from_letter(c).ok_or_else(|| err(col, format!("unknown atom '{c}'")))
            }
            c => Err(err(col, format!("unknown character '{c}'"))),
        }
    }

    /// Reads `(x,y)`.
    fn vector(&mut self) -> Result<Atom, XbetzaError> {
        let open = self.col();
        self.pos += 1;
        if !self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(match self.peek() {
                None => err(open, "unbalanced parenthesis: missing ')'"),
                Some(_) => err(
                    self.col(),
                    "bracket groups are not supported; a leap vector is (x,y)",
                ),
            });
        }
        let x = self.component(open)?;
        self.expect(',', open)?;
        let y = self.component(open)?;
        self.expect(')', open)?;
        if x == 0 && y == 0 {
            return Err(err(open, "bad leap vector (0,0)"));
        }
        Ok(Atom::Vector(x, y))
    }

    fn expect(&mut self, want: char, open: usize) -> Result<(), XbetzaError> {
        match self.peek() {
            Some(c) if c == want => {
                self.pos += 1;
                Ok(())
            }
            None => Err(err(open, "unbalanced parenthesis: missing ')'")),
            Some(c) => Err(err(
                self.col(),
                format!("bad leap vector: expected '{want}', found '{c}'"),
            )),
        }
    }

    /// Reads one number of a leap vector (`open`: the column of its parenthesis).
    fn component(&mut self, open: usize) -> Result<u8, XbetzaError> {
        let col = self.col();
        if self.peek().is_none() {
            return Err(err(open, "unbalanced parenthesis: missing ')'"));
        }
        let n = self.number();
        match n {
            None => Err(err(col, "bad leap vector: expected a number")),
            Some(n) if n > MAX_LEAP as u32 => Err(err(
                col,
                format!("bad leap vector: component {n} is larger than {MAX_LEAP}"),
            )),
            Some(n) => Ok(n as u8),
        }
    }

    /// Reads a run of digits (saturating), `None` when there is none.
    fn number(&mut self) -> Option<u32> {
        let mut n: Option<u32> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d));
            self.pos += 1;
        }
        n
    }

    /// Reads what follows an atom: a doubled letter and/or digits.
    fn range(&mut self, atom: Atom, atom_col: usize) -> Result<Range, XbetzaError> {
        let doubled = self.doubled(atom);
        let col = self.col();
        let zero = self.peek() == Some('0');
        let digits = self.pos;
        let Some(n) = self.number() else {
            if atom == Atom::Castle {
                return Err(err(atom_col, "castling needs a distance, e.g. O2"));
            }
            return Ok(match (doubled, atom.slides_by_default()) {
                (true, _) | (false, true) => Range::Unlimited,
                _ => Range::Limited(1),
            });
        };
        if doubled {
            return Err(err(col, "range given twice (doubled atom and a number)"));
        }
        let len = self.pos - digits;
        if atom == Atom::Castle {
            return castle_range(n, zero, atom_col);
        }
        match (zero, len, n) {
            (true, 1, _) => Ok(Range::Unlimited),
            (true, _, 0) => Err(err(col, "an exact range must be at least 1")),
            (_, _, n) if n > MAX_EXPLICIT_RANGE as u32 => Err(err(
                col,
                format!("range {n} is too large (at most {MAX_EXPLICIT_RANGE})"),
            )),
            (true, _, n) => Ok(Range::Exact(n as u8)),
            (false, _, n) => Ok(Range::Limited(n as u8)),
        }
    }

    /// Consumes a repeated atom letter (`NN`, `RR`), which means unlimited range.
    fn doubled(&mut self, atom: Atom) -> bool {
        let prev = self.pos.checked_sub(1).and_then(|i| self.chars.get(i));
        let same =
            matches!((prev, self.peek()), (Some(&a), Some(b)) if a == b && a.is_ascii_uppercase());
        if same && atom != Atom::Castle {
            self.pos += 1;
        }
        same && atom != Atom::Castle
    }
}

fn castle_range(n: u32, zero: bool, col: usize) -> Result<Range, XbetzaError> {
    if zero || !(1..=9).contains(&n) {
        return Err(err(col, "castling distance must be 1 to 9"));
    }
    Ok(Range::Limited(n as u8))
}

/// Checks a complete move: directions fit the atom, modifiers fit their leg.
fn check_move(pre: Prefix, atom: Atom, range: Range, atom_col: usize) -> Result<Move, XbetzaError> {
    let Prefix {
        initial,
        legs,
        dir_cols,
        start,
    } = pre;
    if atom == Atom::Castle {
        check_castle(&legs, range, atom_col, start)?;
    } else {
        let Some(class) = class_of(atom) else {
            return Err(err(atom_col, "bad leap vector (0,0)"));
        };
        for (k, (leg, cols)) in legs.iter().zip(&dir_cols).enumerate() {
            if let Err((i, msg)) = mask(&leg.dirs, class, k > 0) {
                let col = cols.get(i).copied().unwrap_or(atom_col);
                return Err(err(col, msg));
            }
            check_mods(leg.mods, k + 1 == legs.len(), atom_col)?;
        }
    }
    Ok(Move {
        initial,
        legs,
        atom,
        range,
        column: start,
    })
}

fn check_castle(legs: &[Leg], range: Range, col: usize, start: usize) -> Result<(), XbetzaError> {
    if !matches!(range, Range::Limited(_)) {
        return Err(err(col, "castling needs a distance, e.g. O2"));
    }
    let plain = legs.len() == 1
        && legs
            .iter()
            .all(|l| l.mods.0 == 0 && l.dirs.iter().all(|&d| d == Dir::S));
    if !plain {
        return Err(err(start, "castling takes only 'i' and 's' modifiers"));
    }
    Ok(())
}

fn check_mods(m: Mods, last: bool, col: usize) -> Result<(), XbetzaError> {
    if m.has(Mods::N | Mods::J) {
        return Err(err(col, "'n' and 'j' exclude each other"));
    }
    if last && m.any(Mods::Y) {
        return Err(err(col, "'y' is only meaningful in a leg followed by 'a'"));
    }
    if m.has(Mods::P | Mods::G) {
        return Err(err(col, "'p' and 'g' exclude each other"));
    }
    Ok(())
}
