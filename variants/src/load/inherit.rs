//! Fairy-Stockfish's inheritance by piece type. FSF applies a child section to a copy of its
//! parent's variant, where piece sets (promotion choices, the castling king, extinction
//! types, ...) hold piece *types*, not letters: when the child gives a type a new letter
//! (`[gemini:janus]`'s `archbishop = a`) the inherited sets follow it, and when it removes a
//! type (`commoner = -`, or a new piece taking the letter a type held) FSF drops that type
//! from the promotion choices and leaves it, without men, in every other set. Locust's
//! resolved entries are text in the letters of the section that set them; this module
//! rewrites the inherited ones into the child's letters before the keys are read.

use std::collections::HashMap;

use super::piece_defs::{CUSTOM_PIECE, REMOVED};
use super::pieces::PREDEFINED;
use super::values::{next_symbol, Symbol};
use crate::ini::{Entry, Resolved, Section};

/// FSF's piece-set keys whose inherited letters follow the types they named.
const SET_KEYS: &[&str] = &[
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "promotionPawnTypes",
    "promotionPawnTypesWhite",
    "promotionPawnTypesBlack",
    "castlingKingPiece",
    "castlingRookPieces",
    "extinctionPieceTypes",
    "flagPiece",
    "flagPieceWhite",
    "flagPieceBlack",
    "pawnTypes",
    "nMoveRuleTypes",
    "nMoveRuleTypesWhite",
    "nMoveRuleTypesBlack",
    "enPassantTypes",
    "enPassantTypesWhite",
    "enPassantTypesBlack",
    "dropNoDoubled",
    "mustDropType",
    "connectPieceTypes",
    "blastImmuneTypes",
    "mutuallyImmuneTypes",
];

/// The keys FSF's `remove_piece` erases a removed type from (the promotion choices).
const ERASED_ON_REMOVAL: &[&str] = &[
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
];

/// The castling king: a removed king type leaves no man to castle with.
const CASTLING_KING: &str = "castlingKingPiece";

/// What a section did to the letter a type held before it: a new letter, or removal.
type Changes = HashMap<Symbol, Option<Symbol>>;

/// An inherited entry that names a type the section removed, where FSF keeps the type:
/// Locust refuses it by name (the entry and the letter).
pub struct Stale {
    /// The inherited entry.
    pub entry: Entry,
    /// The letter, in the ancestor's reading.
    pub letter: Symbol,
}

/// `resolved` with its inherited piece-set entries in the section's own letters, and the
/// entries that name a removed type where Fairy-Stockfish would keep it.
pub fn follow_types(resolved: &Resolved) -> (Resolved, Vec<Stale>) {
    let mut out = resolved.clone();
    let mut stale = Vec::new();
    let mut letters: HashMap<String, Symbol> = HashMap::new();
    let depth_of = |i: usize| resolved.chain.len() - 1 - i;
    for (i, section) in resolved.chain.iter().enumerate() {
        let changes = apply_section(section, &mut letters);
        if changes.is_empty() {
            continue;
        }
        let inherited = (out.entries.iter_mut()).filter(|e| e.depth > depth_of(i));
        for e in inherited.filter(|e| SET_KEYS.contains(&e.key.as_str())) {
            stale.extend(rewrite(e, &changes));
        }
    }
    (out, stale)
}

/// Applies one section's piece keys to `letters` (type key to letter) in FSF's order
/// (predefined types, custom pieces, Locust's named pieces, the king last) and returns what
/// became of each letter held before.
fn apply_section(section: &Section, letters: &mut HashMap<String, Symbol>) -> Changes {
    let mut changes = Changes::new();
    for (key, new) in piece_keys(section) {
        let old = match new {
            Some(n) => letters.insert(key.clone(), n),
            None => letters.remove(&key),
        };
        // A letter taken from another type removes that type (FSF's `add_piece`).
        let evicted: Vec<String> = (letters.iter())
            .filter(|(k, l)| Some(**l) == new && **k != key)
            .map(|(k, _)| k.clone())
            .collect();
        for k in evicted {
            if let Some(l) = letters.remove(&k) {
                changes.entry(l).or_insert(None);
            }
        }
        if let Some(old) = old.filter(|o| Some(*o) != new) {
            changes.entry(old).or_insert(new);
        }
    }
    changes
}

/// The section's piece-defining keys in FSF's order, each with its letter (`None`: removed).
fn piece_keys(section: &Section) -> Vec<(String, Option<Symbol>)> {
    let find = |key: &str| section.entries.iter().find(|e| e.key == key);
    let mut out = Vec::new();
    for p in PREDEFINED {
        if let Some(e) = find(p.name) {
            out.push((p.name.to_string(), letter(&e.value)));
        }
    }
    let mut custom: Vec<(u32, &Entry)> = (section.entries.iter())
        .filter_map(|e| Some((e.key.strip_prefix(CUSTOM_PIECE)?.parse().ok()?, e)))
        .collect();
    custom.sort_by_key(|(n, _)| *n);
    let named = (section.entries.iter()).filter(|e| e.key.starts_with("piece."));
    for e in custom.into_iter().map(|(_, e)| e).chain(named) {
        out.push((e.key.clone(), letter(&e.value).filter(|s| !s.plus)));
    }
    if let Some(e) = find("king") {
        out.push(("king".to_string(), letter(&e.value)));
    }
    out
}

/// The letter of a piece definition (`a`, `k:W`, `q:cQ`), `None` for `-` or bad text.
fn letter(value: &str) -> Option<Symbol> {
    let text = value.split(':').next().unwrap_or("").trim();
    if text == REMOVED {
        return None;
    }
    let mut chars = text.chars().peekable();
    next_symbol(&mut chars).filter(|_| chars.next().is_none())
}

/// Rewrites one inherited entry's letters by `changes`; returns the letters of removed
/// types that FSF would keep in this set.
fn rewrite(e: &mut Entry, changes: &Changes) -> Vec<Stale> {
    if e.value.trim() == "*" || e.value.trim() == REMOVED {
        return Vec::new();
    }
    let mut chars = e.value.chars().peekable();
    let mut kept: Vec<String> = Vec::new();
    let mut stale = Vec::new();
    while chars.peek().is_some() {
        let Some(s) = next_symbol(&mut chars) else {
            continue;
        };
        match changes.get(&s) {
            None => kept.push(s.to_string()),
            Some(Some(new)) => kept.push(new.to_string()),
            Some(None) if ERASED_ON_REMOVAL.contains(&e.key.as_str()) => {}
            Some(None) if e.key == CASTLING_KING => {}
            Some(None) => stale.push(Stale {
                entry: e.clone(),
                letter: s,
            }),
        }
    }
    e.value = match kept.is_empty() {
        true => REMOVED.to_string(),
        false => kept.join(" "),
    };
    stale
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::ini::{parse, resolve};

    /// The value of `key` in section `name` after [`follow_types`], and the keys refused.
    fn value(text: &str, name: &str, key: &str) -> (String, Vec<String>) {
        let (sections, _) = parse(text, "t.ini");
        let (resolved, _) = resolve(&sections, &[]);
        let r = resolved.iter().find(|r| r.section.name == name).unwrap();
        let (out, stale) = follow_types(r);
        let e = out.entries.iter().find(|e| e.key == key).unwrap();
        (
            e.value.clone(),
            stale.into_iter().map(|s| s.entry.key).collect(),
        )
    }

    #[test]
    fn a_renamed_type_keeps_its_place_in_inherited_sets() {
        let text = "[p]\narchbishop = j\nqueen = q\npromotionPieceTypes = jq\n\
                    [c:p]\narchbishop = a\n";
        assert_eq!(
            value(text, "c", "promotionPieceTypes"),
            ("a q".into(), vec![])
        );
    }

    #[test]
    fn a_removed_type_leaves_the_promotion_choices_and_stays_elsewhere() {
        let text = "[p]\ncommoner = k\nqueen = q\npromotionPieceTypes = kq\n\
                    castlingKingPiece = k\nextinctionPieceTypes = q\n\
                    [c:p]\ncommoner = -\nqueen = -\ncustomPiece1 = q:cQ\n";
        let (promotion, stale) = value(text, "c", "promotionPieceTypes");
        assert_eq!(promotion, "-");
        assert_eq!(value(text, "c", "castlingKingPiece").0, "-");
        // The extinction type is the removed queen, not the new `q`: refused by name.
        assert_eq!(stale, vec!["extinctionPieceTypes".to_string()]);
    }

    #[test]
    fn a_letter_taken_by_a_new_type_removes_the_old_one() {
        let text = "[p]\nqueen = q\nrook = r\npromotionPieceTypes = qr\n\
                    [c:p]\ncustomPiece1 = q:cQ\n";
        assert_eq!(
            value(text, "c", "promotionPieceTypes"),
            ("r".into(), vec![])
        );
    }

    #[test]
    fn the_section_s_own_letters_are_left_alone() {
        let text = "[p]\narchbishop = j\n[c:p]\narchbishop = a\npromotionPieceTypes = a\n";
        assert_eq!(
            value(text, "c", "promotionPieceTypes"),
            ("a".into(), vec![])
        );
    }
}
