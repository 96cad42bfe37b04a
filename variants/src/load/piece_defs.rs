//! Piece definitions: FSF's predefined names (`knight = n`), `king = k[:betza]`,
//! `customPieceN = x:betza`, our named `piece.NAME = x:betza` / `piece.NAME = +x:betza`
//! (a promoted form), and FSF's `promotedPieceType = p:g` (the promoted form moves like g).
//! Each becomes a [`PieceType`] with its XBetza compiled.

use super::context::Ctx;
use super::pieces::{predefined, KING_BETZA, PREDEFINED};
use super::values::{pairs, symbol, Symbol};
use crate::ini::Entry;
use crate::rules::PieceType;
use crate::trajectory::Trajectories;
use crate::xbetza;

/// The key prefix of FSF's own piece definitions.
pub const CUSTOM_PIECE: &str = "customPiece";

/// Highest `customPieceN` slot number accepted.
pub const MAX_CUSTOM_PIECES: u32 = 64;

/// The value that removes an inherited piece (`queen = -`).
pub const REMOVED: &str = "-";

/// A piece definition before compilation.
#[derive(Clone, Debug)]
pub struct Def {
    /// Name (`knight`, `customPiece1`, `lion`, `+rook`).
    pub name: String,
    /// How FEN writes it.
    pub symbol: Symbol,
    /// XBetza text.
    pub betza: String,
    /// The line that defined it.
    pub entry: Entry,
    /// Default value (0 = estimate).
    pub value: i32,
    /// Default endgame value (0 = as [`Def::value`]).
    pub value_eg: i32,
    /// Defined with the `king` key.
    pub is_king: bool,
    /// FSF's `promotedPieceType = x:y` makes this `+X` type stand for `y`: rules FSF keys
    /// by type (a mobility region) apply to it as to `y`.
    pub stands_for: Option<Symbol>,
}

/// Splits `x:betza` (or `+x:betza`); `betza_optional` allows a bare letter.
fn letter_and_betza(value: &str, betza_optional: bool) -> Result<(Symbol, Option<String>), String> {
    match value.split_once(':') {
        Some((l, b)) => Ok((symbol(l.trim())?, Some(b.trim().to_string()))),
        None if betza_optional => Ok((symbol(value.trim())?, None)),
        None => Err(format!("expected `letter:betza`, found `{value}`")),
    }
}

/// Reads every piece-defining key. Errors are recorded in `ctx`.
pub fn collect(ctx: &mut Ctx) -> Vec<Def> {
    let mut defs = Vec::new();
    for p in PREDEFINED {
        let Some(entry) = ctx.take(p.name).filter(|e| e.value != REMOVED) else {
            continue;
        };
        match symbol(&entry.value) {
            Ok(s) if !s.plus => defs.push(Def {
                value_eg: p.value_eg,
                ..def(p.name, s, p.betza, entry, p.value, false)
            }),
            Ok(_) => ctx.fail(&entry, "a predefined piece cannot be a `+` form"),
            Err(msg) => ctx.fail(&entry, msg),
        }
    }
    if let Some(entry) = ctx.take("king").filter(|e| e.value != REMOVED) {
        match letter_and_betza(&entry.value, true) {
            Ok((s, b)) => {
                let b = b.map_or_else(|| KING_BETZA.to_string(), |b| fsf_reading(&b));
                defs.push(def("king", s, &b, entry, 0, true))
            }
            Err(msg) => ctx.fail(&entry, msg),
        }
    }
    for entry in ctx.take_prefixed("customPiece") {
        if entry.value == REMOVED {
            continue;
        }
        let slot = &entry.key["customPiece".len()..];
        let ok = slot
            .parse::<u32>()
            .is_ok_and(|n| (1..=MAX_CUSTOM_PIECES).contains(&n));
        if !ok {
            ctx.fail(
                &entry,
                format!("unknown key (slots are customPiece1..{MAX_CUSTOM_PIECES})"),
            );
            continue;
        }
        match letter_and_betza(&entry.value, false) {
            Ok((s, Some(b))) => {
                let b = fsf_reading(&b);
                defs.push(def(&entry.key.clone(), s, &b, entry, 0, false))
            }
            Ok(_) => {}
            Err(msg) => ctx.fail(&entry, msg),
        }
    }
    for entry in ctx.take_prefixed("piece.") {
        if entry.value == REMOVED {
            continue;
        }
        let name = entry.key["piece.".len()..].to_string();
        match letter_and_betza(&entry.value, false) {
            Ok((s, Some(b))) => defs.push(def(&name, s, &b, entry, 0, false)),
            Ok(_) => {}
            Err(msg) => ctx.fail(&entry, msg),
        }
    }
    add_promoted_types(ctx, &mut defs);
    reject_duplicates(ctx, &mut defs);
    defs
}

/// The Betza of one of FSF's own piece keys as FSF plays it (`fsf_betza`: its lame leaps);
/// a promoted form (`promotedPieceType`) copies the result.
fn fsf_reading(betza: &str) -> String {
    super::fsf_betza::as_fsf_plays(betza).unwrap_or_else(|| betza.to_string())
}

fn def(name: &str, symbol: Symbol, betza: &str, entry: Entry, value: i32, is_king: bool) -> Def {
    Def {
        name: name.to_string(),
        symbol,
        betza: betza.to_string(),
        entry,
        value,
        value_eg: 0,
        is_king,
        stands_for: None,
    }
}

/// FSF's `promotedPieceType = p:g s:g`: a `+P` type moving like `g`.
fn add_promoted_types(ctx: &mut Ctx, defs: &mut Vec<Def>) {
    let Some(entry) = ctx.take("promotedPieceType") else {
        return;
    };
    let own = match pairs(&entry.value) {
        Ok(items) => items,
        Err(msg) => return ctx.fail(&entry, msg),
    };
    // Inherited pairs (`ini::MAP_KEYS`) for pieces the section itself does not pair; one
    // whose piece the section removed is skipped, as Fairy-Stockfish leaves it unused.
    let known = |l: &str| symbol(l).is_ok_and(|s| defs.iter().any(|d| d.symbol == s));
    let inherited = pairs(&entry.inherited).unwrap_or_default().into_iter();
    let inherited =
        inherited.filter(|(f, t)| known(f) && known(t) && !own.iter().any(|o| o.0 == *f));
    let mut items: Vec<(String, String)> = Vec::new();
    for (from, to) in inherited.chain(own.iter().cloned()) {
        match items.iter_mut().find(|x| x.0 == from) {
            Some(slot) => slot.1 = to,
            None => items.push((from, to)),
        }
    }
    for (from, to) in items {
        let (Ok(from), Ok(to)) = (symbol(&from), symbol(&to)) else {
            ctx.fail(&entry, format!("expected piece letters in `{from}:{to}`"));
            continue;
        };
        let base = defs.iter().find(|d| d.symbol == from).cloned();
        let target = defs.iter().find(|d| d.symbol == to).cloned();
        match (base, target) {
            (Some(base), Some(target)) if !from.plus => {
                let plus = Symbol { plus: true, ..from };
                let name = format!("+{}", base.name);
                let value_eg = target.value_eg;
                let mut promoted = def(
                    &name,
                    plus,
                    &target.betza,
                    entry.clone(),
                    target.value,
                    false,
                );
                promoted.stands_for = Some(target.symbol);
                defs.push(Def {
                    value_eg,
                    ..promoted
                });
            }
            (None, _) => ctx.fail(&entry, format!("unknown piece `{from}`")),
            _ => ctx.fail(&entry, format!("unknown promoted piece `{to}`")),
        }
    }
}

/// One letter, one piece. A letter defined by the section itself replaces the same letter
/// inherited from an ancestor (Fairy-Stockfish's `add_piece` removes the piece that held
/// it, as in `[dragon-chess:chess]` redefining `b n p r`); two definitions of one letter at
/// the same level are an error.
fn reject_duplicates(ctx: &mut Ctx, defs: &mut Vec<Def>) {
    let mut kept: Vec<Def> = Vec::new();
    for d in defs.drain(..) {
        let Some(i) = kept.iter().position(|k| k.symbol == d.symbol) else {
            kept.push(d);
            continue;
        };
        let first = &kept[i];
        if d.entry.depth < first.entry.depth {
            kept.remove(i);
            kept.push(d);
        } else if d.entry.depth == first.entry.depth {
            let msg = format!(
                "piece `{}` already used by {} (line {})",
                d.symbol, first.name, first.entry.line
            );
            ctx.fail(&d.entry, msg);
        }
    }
    *defs = kept;
}

/// Compiles one definition's XBetza; a parse error is recorded and gives empty moves.
/// Empty XBetza is a man without moves (FSF's `immobile`, the stones of tictactoe).
pub fn compile_moves(ctx: &mut Ctx, d: &Def, betza: &str, max_range: u8) -> Option<Trajectories> {
    if betza.trim().is_empty() {
        return Some(Trajectories::default());
    }
    match xbetza::parse(betza) {
        Ok(parsed) => match xbetza::compile(&parsed, max_range) {
            Ok(t) => Some(t),
            Err(e) => {
                ctx.fail(&d.entry, format!("bad XBetza `{betza}`: {e}"));
                None
            }
        },
        Err(e) => {
            ctx.fail(&d.entry, format!("bad XBetza `{betza}`: {e}"));
            None
        }
    }
}

/// Canonical text of some XBetza, or the text itself when it does not parse.
pub fn canonical(betza: &str) -> String {
    xbetza::parse(betza)
        .map(|b| xbetza::print(&b))
        .unwrap_or_else(|_| betza.to_string())
}

/// A piece type with the definition's identity and moves; rule fields get defaults.
pub fn piece_type(d: &Def, betza: String, moves: Trajectories) -> PieceType {
    PieceType {
        name: d.name.clone(),
        letter: d.symbol.letter,
        plus_form: d.symbol.plus,
        suffix: d.symbol.suffix,
        betza,
        moves,
        value: d.value,
        value_eg: d.value_eg,
        royal: d.is_king,
        promotions: Vec::new(),
        promoted: None,
        demotes_to: None,
        mandatory_promotion: false,
        dead_squares: Default::default(),
        stuck_squares: Default::default(),
        confined: None,
        leaves_behind: None,
        burns: false,
        range_jump: false,
        jump_rank: 0,
        stands_for: None,
    }
}

/// True when the definition came from FSF's predefined name `name`.
pub fn is_predefined(d: &Def, name: &str) -> bool {
    // `piece.pawn = p:fW` only borrows the name: it is not FSF's pawn.
    d.name == name && predefined(name).is_some_and(|p| p.betza == d.betza)
}
