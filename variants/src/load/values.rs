//! Parsers for the value types of variant keys: booleans, numbers, files and ranks, game
//! results, square lists (Fairy-Stockfish's `Bitboard` type plus rectangles), piece symbols
//! and `letter:value` maps. Each returns a message on failure; the caller adds file and line.

use crate::geometry::{Coord, SquareSet, MAX_FILES, MAX_RANKS};
use crate::rules::Outcome;

/// A piece as written in FEN and in key values: `p`, `+p` (promoted form), `n'` or `n!`
/// (XBoard's marks for variants with more than 26 piece types).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symbol {
    /// The letter, upper case.
    pub letter: char,
    /// Written with a leading `+`.
    pub plus: bool,
    /// `'` or `!` after the letter, if any.
    pub suffix: Option<char>,
}

impl Symbol {
    /// The symbol without its `+`.
    pub fn base(self) -> Symbol {
        Symbol {
            plus: false,
            ..self
        }
    }
}

impl std::fmt::Display for Symbol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.plus {
            write!(f, "+")?;
        }
        write!(f, "{}", self.letter.to_ascii_lowercase())?;
        match self.suffix {
            Some(s) => write!(f, "{s}"),
            None => Ok(()),
        }
    }
}

/// Suffix characters that extend the alphabet of piece letters (XBoard convention).
pub const SUFFIXES: [char; 2] = ['\'', '!'];

/// Parses `true` / `false`.
pub fn boolean(text: &str) -> Result<bool, String> {
    match text {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!("expected true or false, found `{text}`")),
    }
}

/// Parses a non-negative integer no larger than `max`.
pub fn integer(text: &str, max: u32) -> Result<u32, String> {
    match text.parse::<u32>() {
        Ok(n) if n <= max => Ok(n),
        Ok(_) => Err(format!("number `{text}` too large (at most {max})")),
        Err(_) => Err(format!("expected a whole number, found `{text}`")),
    }
}

/// Parses a file as Fairy-Stockfish does: a letter (`a` = 1) or a 1-based number.
/// Returns the 1-based count.
pub fn file(text: &str) -> Result<u32, String> {
    let bytes = text.as_bytes();
    if bytes.len() == 1 && (b'a'..b'a' + MAX_FILES).contains(&bytes[0]) {
        return Ok(u32::from(bytes[0] - b'a') + 1);
    }
    text.parse::<u32>()
        .ok()
        .filter(|&n| (1..=MAX_FILES as u32).contains(&n))
        .ok_or_else(|| {
            format!("expected a file (a letter, or a number 1 to {MAX_FILES}), found `{text}`")
        })
}

/// Parses a 1-based rank number.
pub fn rank(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&n| (1..=MAX_RANKS as u32).contains(&n))
        .ok_or_else(|| format!("expected a rank number 1 to {MAX_RANKS}, found `{text}`"))
}

/// Parses a game result for the side to move: `win`, `loss` or `draw`.
pub fn outcome(text: &str) -> Result<Outcome, String> {
    match text {
        "win" => Ok(Outcome::Win),
        "loss" => Ok(Outcome::Loss),
        "draw" => Ok(Outcome::Draw),
        _ => Err(format!("expected win, loss or draw, found `{text}`")),
    }
}

/// Parses a list of squares: `a1`, rectangles `a1-c3`, whole ranks `*1`, whole files `a*`,
/// `*` (every square) and `-` (nothing), separated by blanks or commas. A square beyond this
/// board but within the largest board (16x16) names nothing, as in Fairy-Stockfish, whose
/// files list regions for its largest board (`*9 *10` on an 8-rank child of a 10-rank
/// parent); beyond that it is an error.
pub fn squares(text: &str, files: u8, ranks: u8) -> Result<SquareSet, String> {
    let mut wide = SquareSet::EMPTY;
    for token in text.split(|c: char| c.is_whitespace() || c == ',') {
        match token {
            "" | "-" => {}
            "*" => wide = union(wide, SquareSet::ranks(files, 0, ranks.saturating_sub(1))),
            _ => add_token(&mut wide, token, files, ranks)?,
        }
    }
    let mut set = SquareSet::EMPTY;
    wide.iter()
        .filter(|c| c.file < files && c.rank < ranks)
        .for_each(|c| set.insert(c));
    Ok(set)
}

fn add_token(set: &mut SquareSet, token: &str, files: u8, ranks: u8) -> Result<(), String> {
    let bad = || format!("bad square `{token}` (boards are at most {MAX_FILES}x{MAX_RANKS})");
    let (max_f, max_r) = (MAX_FILES, MAX_RANKS);
    if let Some(r) = token.strip_prefix('*') {
        let r = r.parse::<u8>().ok().filter(|&r| r >= 1 && r <= max_r);
        let r = r.ok_or_else(bad)?;
        *set = union(*set, SquareSet::ranks(files, r - 1, r - 1));
        return Ok(());
    }
    if let Some(f) = token.strip_suffix('*') {
        let c = Coord::parse(&format!("{f}1"), max_f, max_r).ok_or_else(bad)?;
        for r in 0..ranks {
            set.insert(Coord::new(c.file, r));
        }
        return Ok(());
    }
    let (lo, hi) = match token.split_once('-') {
        Some((a, b)) => (a, b),
        None => (token, token),
    };
    let lo = Coord::parse(lo, max_f, max_r).ok_or_else(bad)?;
    let hi = Coord::parse(hi, max_f, max_r).ok_or_else(bad)?;
    for f in lo.file.min(hi.file)..=lo.file.max(hi.file) {
        for r in lo.rank.min(hi.rank)..=lo.rank.max(hi.rank) {
            set.insert(Coord::new(f, r));
        }
    }
    Ok(())
}

/// The union of two square sets.
pub fn union(a: SquareSet, b: SquareSet) -> SquareSet {
    let mut out = a;
    for (w, x) in out.0.iter_mut().zip(b.0) {
        *w |= x;
    }
    out
}

/// The squares in both sets.
pub fn intersection(a: SquareSet, b: SquareSet) -> SquareSet {
    let mut out = a;
    for (w, x) in out.0.iter_mut().zip(b.0) {
        *w &= x;
    }
    out
}

/// Reads one piece symbol from the front of `chars`, if one starts there.
pub fn next_symbol(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> Option<Symbol> {
    let plus = chars.peek() == Some(&'+');
    if plus {
        chars.next();
    }
    let letter = chars.next().filter(char::is_ascii_alphabetic)?;
    let suffix = chars.peek().copied().filter(|c| SUFFIXES.contains(c));
    if suffix.is_some() {
        chars.next();
    }
    Some(Symbol {
        letter: letter.to_ascii_uppercase(),
        plus,
        suffix,
    })
}

/// Parses one symbol that must be the whole text (`p`, `+p`, `n'`).
pub fn symbol(text: &str) -> Result<Symbol, String> {
    let mut chars = text.chars().peekable();
    match next_symbol(&mut chars) {
        Some(s) if chars.next().is_none() => Ok(s),
        _ => Err(format!("expected a piece letter, found `{text}`")),
    }
}

/// Parses a set of symbols (`nbrq`, `k +e`); `*` means every piece and is returned as
/// `Err(None)`-free `None` in the second tuple field.
pub fn symbol_set(text: &str) -> Result<Option<Vec<Symbol>>, String> {
    if text.trim() == "*" {
        return Ok(None);
    }
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || c == ',' || c == '-' {
            chars.next();
            continue;
        }
        match next_symbol(&mut chars) {
            Some(s) => out.push(s),
            None => return Err(format!("expected piece letters, found `{text}`")),
        }
    }
    Ok(Some(out))
}

/// Parses `a:b c:d` pairs, giving each side as text.
pub fn pairs(text: &str) -> Result<Vec<(String, String)>, String> {
    text.split_whitespace()
        .map(|item| match item.split_once(':') {
            Some((a, b)) if !a.is_empty() && !b.is_empty() => Ok((a.to_string(), b.to_string())),
            _ => Err(format!("expected `x:y` pairs, found `{item}`")),
        })
        .collect()
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn square_lists() {
        let s = squares("d1-f3, *8 a*", 9, 10).unwrap();
        assert!(s.contains(Coord::new(4, 1)));
        assert!(s.contains(Coord::new(8, 7)));
        assert!(s.contains(Coord::new(0, 9)));
        // Off this board but on the largest: names nothing (FSF's reading).
        assert!(squares("j1 *11", 9, 10).unwrap().is_empty());
        assert!(squares("*17", 9, 10).is_err());
        assert!(squares("q1", 9, 10).is_err());
        assert!(squares("a0", 9, 10).is_err());
        assert!(rank("-1").is_err() && rank("17").is_err() && rank("99999999999").is_err());
        assert!(file("z").is_err() && file("0").is_err() && file("16") == Ok(16));
    }

    #[test]
    fn symbols() {
        let s = symbol_set("k +e n'").unwrap().unwrap();
        assert_eq!(s.len(), 3);
        assert!(s[1].plus && s[2].suffix == Some('\''));
        assert_eq!(file("h"), Ok(8));
        assert_eq!(file("12"), Ok(12));
    }
}
