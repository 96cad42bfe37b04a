//! Materials: which men a table holds (`KQvKR`, or EGTgen's `KQ.KR`), in one canonical order
//! (per side the royal first, then by piece type), and the names tables are filed under.

use variants::{PieceId, Variant};

/// The most men a table may hold.
pub const MAX_MEN: usize = 8;

/// One man of a material.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ManSpec {
    /// 0 White, 1 Black.
    pub colour: u8,
    /// False for the royal, so that it sorts first.
    pub not_royal: bool,
    /// Piece type.
    pub piece: PieceId,
}

/// A material in canonical order: White's men, then Black's.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Material {
    /// The men, sorted.
    pub men: Vec<ManSpec>,
}

/// Why a material text was refused.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MaterialError {
    /// No `v` or `.` between the sides.
    #[error("material `{0}`: expected White's men, `v` (or `.`), Black's men, as in KQvKR")]
    NoSeparator(String),
    /// A letter that names no piece of the variant.
    #[error("material `{text}`: `{symbol}` is not a piece of {variant}")]
    UnknownPiece {
        /// The whole text.
        text: String,
        /// The symbol.
        symbol: String,
        /// The variant.
        variant: String,
    },
    /// A side without a royal man.
    #[error("material `{0}`: each side needs a royal man")]
    Royals(String),
    /// Too many men.
    #[error("material `{0}`: at most {MAX_MEN} men")]
    TooMany(String),
}

impl Material {
    /// Parses `KQvKR` or `KQ.KR` (upper-case letters, `+` before promoted forms, `'` or `!`
    /// after XBoard's suffixed letters).
    pub fn parse(v: &Variant, text: &str) -> Result<Material, MaterialError> {
        let t = text.trim();
        let (white, black) = t
            .split_once('v')
            .or_else(|| t.split_once('.'))
            .ok_or_else(|| MaterialError::NoSeparator(t.to_string()))?;
        let mut men = Vec::new();
        for (colour, side) in [(0u8, white), (1u8, black)] {
            let mut chars = side.chars().peekable();
            while let Some(c) = chars.next() {
                let plus = c == '+';
                let letter = if plus { chars.next().unwrap_or(' ') } else { c };
                let suffix = chars.next_if(|&s| s == '\'' || s == '!');
                let piece = v
                    .piece_by_symbol(letter, plus, suffix)
                    .filter(|_| letter.is_ascii_uppercase())
                    .ok_or_else(|| MaterialError::UnknownPiece {
                        text: t.to_string(),
                        symbol: format!(
                            "{}{letter}{}",
                            if plus { "+" } else { "" },
                            suffix.map(String::from).unwrap_or_default()
                        ),
                        variant: v.name.clone(),
                    })?;
                men.push(ManSpec {
                    colour,
                    not_royal: !v.pieces[piece as usize].royal,
                    piece,
                });
            }
        }
        let m = Material::new(men);
        if m.men.len() > MAX_MEN {
            return Err(MaterialError::TooMany(t.to_string()));
        }
        if !m.royal_each() {
            return Err(MaterialError::Royals(t.to_string()));
        }
        Ok(m)
    }

    /// True when each side has a royal man (a table ends with the loss of the last).
    pub fn royal_each(&self) -> bool {
        (0..2).all(|colour| self.men.iter().any(|s| s.colour == colour && !s.not_royal))
    }

    /// A material from men in any order.
    pub fn new(mut men: Vec<ManSpec>) -> Material {
        men.sort();
        Material { men }
    }

    /// The canonical name (`KQvKR`).
    pub fn name(&self, v: &Variant) -> String {
        let mut s = String::new();
        for colour in 0..2 {
            if colour == 1 {
                s.push('v');
            }
            for m in self.men.iter().filter(|m| m.colour == colour) {
                s.push_str(&symbol(v, m.piece));
            }
        }
        s
    }

    /// The material with man `i` removed.
    pub fn without(&self, i: usize) -> Material {
        let mut men = self.men.clone();
        men.remove(i);
        Material::new(men)
    }

    /// The material with man `i` turned into `piece`.
    pub fn with_piece(&self, v: &Variant, i: usize, piece: PieceId) -> Material {
        let mut men = self.men.clone();
        men[i].piece = piece;
        men[i].not_royal = !v.pieces[piece as usize].royal;
        Material::new(men)
    }
}

/// A piece type's symbol as FENs write it for White (`Q`, `+P`, `N'`).
pub fn symbol(v: &Variant, piece: PieceId) -> String {
    let p = &v.pieces[piece as usize];
    let mut s = String::new();
    if p.plus_form {
        s.push('+');
    }
    s.push(p.letter);
    if let Some(x) = p.suffix {
        s.push(x);
    }
    s
}
