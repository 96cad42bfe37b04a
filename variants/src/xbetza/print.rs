//! The canonical printer: [`Betza`] back to XBetza text. `i` first, then per leg the
//! direction letters in their order followed by the modifiers in the order `mcdektpgynj`,
//! legs joined by `a`, then the canonical atom letter (`C`, `Z` rather than `L`, `J`) or
//! vector, then the range (`0` for unlimited, `0n` for exact, nothing for the default).

use super::{Atom, Betza, Leg, Mods, Move, Range};
use std::fmt::Write;

/// Prints the canonical text of a parsed description.
pub fn print(betza: &Betza) -> String {
    let texts: Vec<String> = betza.moves.iter().map(|m| move_text(m, false)).collect();
    let mut out = String::new();
    for (k, m) in betza.moves.iter().enumerate() {
        // `W` followed by `W` would read back as the rider `WW`: spell the range out.
        let next = texts.get(k + 1).and_then(|t| t.chars().next());
        let clash = texts[k].ends_with(|c: char| c.is_ascii_uppercase() && Some(c) == next);
        out.push_str(&move_text(m, clash));
    }
    out
}

fn move_text(m: &Move, explicit: bool) -> String {
    let mut out = String::new();
    print_move(m, explicit, &mut out);
    out
}

fn print_move(m: &Move, explicit: bool, out: &mut String) {
    if m.initial {
        out.push('i');
    }
    for (k, leg) in m.legs.iter().enumerate() {
        if k > 0 {
            out.push('a');
        }
        print_leg(leg, out);
    }
    print_atom(m.atom, out);
    print_range(m.atom, m.range, explicit, out);
}

fn print_leg(leg: &Leg, out: &mut String) {
    out.extend(leg.dirs.iter().map(|d| d.letter()));
    for (i, c) in Mods::LETTERS.chars().enumerate() {
        if leg.mods.0 & (1 << i) != 0 {
            out.push(c);
        }
    }
}

fn print_atom(atom: Atom, out: &mut String) {
    match atom {
        Atom::Leap(l) => out.push(l.letter()),
        Atom::Vector(x, y) => {
            let _ = write!(out, "({x},{y})");
        }
        Atom::King => out.push('K'),
        Atom::Queen => out.push('Q'),
        Atom::Castle => out.push('O'),
    }
}

fn print_range(atom: Atom, range: Range, explicit: bool, out: &mut String) {
    let slider = atom.slides_by_default();
    let _ = match range {
        Range::Unlimited if slider && !explicit => Ok(()),
        Range::Unlimited => write!(out, "0"),
        Range::Limited(1) if !slider && !explicit && atom != Atom::Castle => Ok(()),
        Range::Limited(n) => write!(out, "{n}"),
        Range::Exact(n) => write!(out, "0{n}"),
    };
}
