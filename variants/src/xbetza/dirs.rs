//! Direction letters to direction sets. A set is an 8-bit mask over the eight orientations
//! of the atom: for compass atoms (orthogonal, diagonal, `K`/`Q`, and every later leg) bit `d`
//! is compass direction `d` counted clockwise from forward (0 f, 1 fr, 2 r, 3 br, 4 b, 5 bl,
//! 6 l, 7 fl); for oblique atoms bit `i` is the `i`-th image of the leap (a,b), a < b, in
//! the order (a,b) (b,a) (b,-a) (a,-b) (-a,-b) (-b,-a) (-b,a) (-a,b). Both orders turn
//! clockwise in steps of 45 degrees, so adding a leg's direction index to the relative
//! index of the next leg turns the next leg with the first (XBoard's convention).

use super::{Atom, Dir};

/// The symmetry class of an atom, which decides how direction letters combine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// (0,k): `W D H R`.
    Orth(u8),
    /// (k,k): `F A G B`.
    Diag(u8),
    /// (a,b) with 0 < a < b: `N C Z` and other vectors.
    Oblique(u8, u8),
    /// `K` and `Q`: orthogonal and diagonal unit steps.
    King,
}

/// The class of an atom (castling has none).
pub fn class_of(atom: Atom) -> Option<Class> {
    let (x, y) = match atom {
        Atom::King | Atom::Queen => return Some(Class::King),
        Atom::Castle => return None,
        Atom::Leap(l) => l.vector(),
        Atom::Vector(x, y) => (x.min(y), x.max(y)),
    };
    Some(match (x, y) {
        (0, 0) => return None,
        (0, k) => Class::Orth(k),
        (a, b) if a == b => Class::Diag(a),
        (a, b) => Class::Oblique(a, b),
    })
}

/// The unit vector of compass direction `d`.
pub fn compass(d: u8) -> (i32, i32) {
    match d & 7 {
        0 => (0, 1),
        1 => (1, 1),
        2 => (1, 0),
        3 => (1, -1),
        4 => (0, -1),
        5 => (-1, -1),
        6 => (-1, 0),
        _ => (-1, 1),
    }
}

/// The `i`-th image of the oblique leap (a,b).
pub fn oblique(a: i32, b: i32, i: u8) -> (i32, i32) {
    match i & 7 {
        0 => (a, b),
        1 => (b, a),
        2 => (b, -a),
        3 => (a, -b),
        4 => (-a, -b),
        5 => (-b, -a),
        6 => (-b, a),
        _ => (-a, b),
    }
}

/// The vector of bit `i` in the mask system of `class` (a sample for oblique atoms).
fn sample(class: Class, i: u8) -> (i32, i32) {
    match class {
        Class::Oblique(..) => oblique(1, 2, i),
        _ => compass(i),
    }
}

/// The bits of the orientations an atom of `class` has in its first leg.
fn native(class: Class) -> u8 {
    match class {
        Class::Orth(_) => 0x55,
        Class::Diag(_) => 0xaa,
        Class::Oblique(..) | Class::King => 0xff,
    }
}

/// Bits whose sample vector satisfies `pred`.
fn select(class: Class, pred: impl Fn((i32, i32)) -> bool) -> u8 {
    (0..8u8)
        .filter(|&i| pred(sample(class, i)))
        .fold(0, |m, i| m | 1 << i)
}

/// The half plane of a letter: f dy>0, b dy<0, r dx>0, l dx<0, s dx!=0, v dy!=0.
fn wide(d: Dir, v: (i32, i32)) -> bool {
    match d {
        Dir::F => v.1 > 0,
        Dir::B => v.1 < 0,
        Dir::R => v.0 > 0,
        Dir::L => v.0 < 0,
        Dir::S => v.0 != 0,
        Dir::V => v.1 != 0,
        Dir::H => true,
    }
}

/// The narrow set of a letter: the vectors mostly pointing that way (for oblique atoms the
/// steep or flat pair, for compass atoms the single orthogonal direction).
fn narrow(d: Dir, v: (i32, i32)) -> bool {
    let steep = v.1.abs() > v.0.abs();
    let flat = v.0.abs() > v.1.abs();
    match d {
        Dir::F | Dir::B | Dir::V => wide(d, v) && steep,
        Dir::R | Dir::L | Dir::S => wide(d, v) && flat,
        Dir::H => true,
    }
}

/// True when `second` lies on the other axis than `first` (which must be f, b, l or r).
fn perpendicular(first: Dir, second: Dir) -> bool {
    match first {
        Dir::F | Dir::B => matches!(second, Dir::L | Dir::R | Dir::S),
        Dir::L | Dir::R => matches!(second, Dir::F | Dir::B | Dir::V),
        _ => false,
    }
}

/// An error in a direction list: index of the offending letter and the message.
pub type DirError = (usize, String);

/// The direction mask of a first leg, or of a later leg relative to the previous one when
/// `later` is set. An empty list gives the default set.
pub fn mask(dirs: &[Dir], class: Class, later: bool) -> Result<u8, DirError> {
    let system = if later { Class::King } else { class };
    if dirs.is_empty() {
        return Ok(default_mask(class, later));
    }
    let m = match system {
        Class::Orth(_) => orth_mask(dirs)?,
        Class::Diag(_) => diag_mask(dirs)?,
        Class::Oblique(..) => oblique_mask(dirs)?,
        Class::King => king_mask(dirs)?,
    };
    let m = if later { m } else { m & native(class) };
    if m == 0 {
        return Err((0, "the directions select no move of this atom".into()));
    }
    Ok(m)
}

/// All directions in a first leg; in a later leg all but straight back (8-fold atoms) or
/// straight on and sideways (4-fold atoms), as in XBoard.
fn default_mask(class: Class, later: bool) -> u8 {
    match (later, class) {
        (false, c) => native(c),
        (true, Class::Oblique(..) | Class::King) => 0xef,
        (true, _) => 0x45,
    }
}

fn no_h(dirs: &[Dir], atom: &str) -> Result<(), DirError> {
    match dirs.iter().position(|&d| d == Dir::H) {
        Some(i) => Err((i, format!("direction 'h' is not meaningful for {atom}"))),
        None => Ok(()),
    }
}

/// Orthogonal atoms: every letter adds its directions.
fn orth_mask(dirs: &[Dir]) -> Result<u8, DirError> {
    no_h(dirs, "orthogonal atoms")?;
    let c = Class::Orth(1);
    Ok(dirs
        .iter()
        .fold(0, |m, &d| m | select(c, |v| narrow_or_wide_orth(d, v))))
}

fn narrow_or_wide_orth(d: Dir, v: (i32, i32)) -> bool {
    wide(d, v) && (v.0 == 0 || v.1 == 0)
}

/// Greedy left-to-right reading of letters into single letters and combined pairs;
/// `pairs(first, second)` says whether two letters combine.
fn groups(dirs: &[Dir], pairs: impl Fn(Dir, Dir) -> bool) -> Vec<(usize, Dir, Option<Dir>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&d) = dirs.get(i) {
        match dirs.get(i + 1) {
            Some(&e) if pairs(d, e) => {
                out.push((i, d, Some(e)));
                i += 2;
            }
            _ => {
                out.push((i, d, None));
                i += 1;
            }
        }
    }
    out
}

/// Diagonal atoms: a letter alone is its half plane, a perpendicular pair one diagonal.
fn diag_mask(dirs: &[Dir]) -> Result<u8, DirError> {
    no_h(dirs, "diagonal atoms")?;
    let c = Class::Diag(1);
    Ok(groups(dirs, perpendicular)
        .into_iter()
        .fold(0, |m, (_, d, e)| {
            m | select(c, |v| wide(d, v) && e.is_none_or(|e| wide(e, v)))
        }))
}

/// `K`, `Q` and later legs: a letter alone is one compass direction (two for s, v), a
/// perpendicular pair the diagonal between; a doubled letter is the letter alone.
fn king_mask(dirs: &[Dir]) -> Result<u8, DirError> {
    no_h(dirs, "K, Q and later legs")?;
    let c = Class::King;
    let pair = |d: Dir, e: Dir| perpendicular(d, e) || d == e;
    Ok(groups(dirs, pair).into_iter().fold(0, |m, (_, d, e)| {
        m | match e {
            Some(e) if e != d => select(c, |v| wide(d, v) && wide(e, v)),
            _ => select(c, |v| narrow(d, v)),
        }
    }))
}

/// Oblique atoms: see the module documentation of `xbetza`.
fn oblique_mask(dirs: &[Dir]) -> Result<u8, DirError> {
    let c = Class::Oblique(1, 2);
    let pair = |d: Dir, e: Dir| match d {
        Dir::H => true,
        Dir::F | Dir::B | Dir::L | Dir::R => d == e || e == Dir::H || perpendicular(d, e),
        _ => false,
    };
    let mut m = 0;
    for (i, d, e) in groups(dirs, pair) {
        m |=
            match (d, e) {
                (Dir::H, Some(Dir::R)) => select(c, |v| chiral(v) > 0),
                (Dir::H, Some(Dir::L)) => select(c, |v| chiral(v) < 0),
                (Dir::H, _) => return Err((
                    i,
                    "'h' on an oblique atom needs 'l' or 'r' after it, or a direction before it"
                        .into(),
                )),
                (_, Some(Dir::H)) => select(c, |v| wide(d, v)),
                (_, Some(e)) => select(c, |v| wide(d, v) && narrow(e, v)),
                (_, None) => select(c, |v| narrow(d, v)),
            };
    }
    Ok(m)
}

/// Positive for the leaps of the clockwise chiral half ((1,2), (2,-1), ...).
fn chiral(v: (i32, i32)) -> i32 {
    (v.0 * v.1).signum() * (v.1.abs() - v.0.abs()).signum()
}
