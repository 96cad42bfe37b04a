//! Fairy-Stockfish keys whose rules Locust does not model. Such a key is accepted only at a
//! value that leaves the game as Locust plays it (FSF's default, or what Locust's own rules
//! already do); any other value refuses the section by name, so that a user's variant never
//! silently plays a different game. Presentation keys (GUI hints) are accepted as they are.
//!
//! A built-in file may set such a key to say which rule of Fairy-Stockfish's variant of the
//! same name it omits (makruk's `countingRule = makruk`): the built-in records it in
//! [`Variant::omits`](crate::Variant), and a user's section that inherits it is refused with a
//! hint to set the key to its neutral value, so that it never plays the omission unawares.

use super::compile::Build;
use super::values;
use crate::ini::Entry;
use crate::rules::PieceId;

/// What value of an unmodelled key leaves the game unchanged.
#[derive(Clone, Copy)]
enum Neutral {
    /// Display only (XBoard's piece table, pocket size): any value.
    Presentation,
    /// A boolean at this value.
    Bool(bool),
    /// A castling key whose default Locust's castling is built on: this value, or any while
    /// castling is off.
    Castling(CastlingDefault),
    /// A set of piece types equal to the types Locust gives the rule to.
    Pieces(PieceRule),
}

#[derive(Clone, Copy)]
enum CastlingDefault {
    /// `castlingKingFile`: the e-file.
    KingOnE,
}

#[derive(Clone, Copy)]
enum PieceRule {
    /// Locust gives en passant to the types whose XBetza has `e` (FSF's pawn, custom `e`).
    EnPassant,
}

/// FSF's rules Locust does not model, with the value at which each is without effect.
const UNMODELLED: &[(&str, Neutral)] = &[
    ("pieceToCharTable", Neutral::Presentation),
    ("pocketSize", Neutral::Presentation),
    ("extinctionClaim", Neutral::Bool(false)),
    ("enPassantTypes", Neutral::Pieces(PieceRule::EnPassant)),
    ("enPassantTypesWhite", Neutral::Pieces(PieceRule::EnPassant)),
    ("enPassantTypesBlack", Neutral::Pieces(PieceRule::EnPassant)),
    (
        "castlingKingFile",
        Neutral::Castling(CastlingDefault::KingOnE),
    ),
    ("petrifyBlastPieces", Neutral::Bool(false)),
];

/// FSF keys Locust does not model at any value: any use refuses the section by name.
const REFUSED: &[&str] = &[];

/// Reads every unmodelled key of the section: neutral values are accepted, others refused.
/// Runs after the rules Locust models, so that "what Locust does" can be asked of them.
/// What the rules Locust modelled for the section decide about neutral values.
#[derive(Clone, Copy)]
pub struct Modelled {
    /// Castling is on.
    pub castling: bool,
    /// The bare-king rule is in force.
    pub bare_king: bool,
    /// The general extinction rule is in force: it reads `extinctionOpponentPieceCount`.
    pub extinction: bool,
}

/// Where a value that changes the game is accepted: only in a built-in's own section.
struct Judge {
    builtin: bool,
    omits: Vec<String>,
}

/// Reads every unmodelled key of the section: neutral values are accepted, others refused
/// (or, in a built-in's own section, recorded as omitted). Returns the omissions.
pub fn check(b: &mut Build, rules: Modelled, builtin: bool) -> Vec<String> {
    let mut judge = Judge {
        builtin,
        omits: Vec::new(),
    };
    let Modelled {
        castling: castling_on,
        bare_king,
        extinction,
    } = rules;
    let opponent_count = b.ctx.take("extinctionOpponentPieceCount");
    if let Some(entry) = opponent_count.filter(|_| !extinction) {
        // Locust's bare-king rule is FSF's with a count of 2: a bared king loses unless its
        // side bared the other king too. Without the rule only FSF's default 0 is neutral.
        let neutral = if bare_king { 2 } else { 0 };
        match values::integer(&entry.value, u32::MAX) {
            Ok(n) if n != neutral => judge.refuse(b, &entry),
            Ok(_) => {}
            Err(msg) => b.ctx.fail(&entry, msg),
        }
    }
    for &(key, neutral) in UNMODELLED {
        let Some(entry) = b.ctx.take(key) else {
            continue;
        };
        match neutral_value(b, &entry, neutral, castling_on) {
            Ok(true) => {}
            Ok(false) => judge.refuse(b, &entry),
            Err(msg) => b.ctx.fail(&entry, msg),
        }
    }
    pawn_types_en_passant(b, &mut judge);
    for key in REFUSED {
        if let Some(entry) = b.ctx.take(key) {
            judge.refuse(b, &entry);
        }
    }
    judge.omits
}

/// `pawnTypes` (its promotion and n-move parts are honoured in `rules_keys`) also names the
/// men that may take en passant (FSF's `enPassantTypes`, which it overrides): where that is
/// not Locust's own set (the men whose XBetza has `e`) and no `enPassantTypes` key overrides
/// it for both sides, the men take e.p. as FSF's do ([`take_en_passant_as`]).
fn pawn_types_en_passant(b: &mut Build, judge: &mut Judge) {
    let Some(entry) = b.ctx.take(super::rules_keys::PAWN_TYPES) else {
        return;
    };
    let given = |k: &str| b.ctx.peek(k).is_some();
    if given("enPassantTypes") || given("enPassantTypesWhite") && given("enPassantTypesBlack") {
        return;
    }
    if given("enPassantTypesWhite") || given("enPassantTypesBlack") {
        return judge.refuse(b, &entry);
    }
    match piece_set(b, &entry.value) {
        Ok(mut set) => {
            set.sort_unstable();
            let mut locust = locust_types(b, PieceRule::EnPassant);
            locust.sort_unstable();
            if set != locust {
                take_en_passant_as(b, &set);
            }
        }
        Err(msg) => b.ctx.fail(&entry, msg),
    }
}

/// FSF's en passant by type: its predefined pawn always takes e.p.; any other type takes
/// e.p. exactly when it is in `takers`, on the squares it attacks without moving there
/// (xhess's `pawnTypes = h`: the `cfF` captures of `mfWcfFfhmnN`). In the compiled paths: a
/// taker's capture-only nodes get the e.p. right, every other man loses it.
fn take_en_passant_as(b: &mut Build, takers: &[PieceId]) {
    use crate::trajectory::rights::{CAPTURE, EN_PASSANT, MOVE};
    for p in 0..b.pieces.len() {
        if super::piece_defs::is_predefined(&b.defs[p], "pawn") {
            continue;
        }
        let takes = takers.contains(&(p as PieceId));
        for node in b.pieces[p].moves.nodes.iter_mut() {
            if takes && node.rights & CAPTURE != 0 && node.rights & MOVE == 0 {
                node.rights |= EN_PASSANT;
            } else if !takes {
                node.rights &= !EN_PASSANT;
            }
        }
    }
}

impl Judge {
    fn refuse(&mut self, b: &mut Build, entry: &Entry) {
        let rule = format!("{} = {}", entry.key, entry.value);
        let from_builtin = entry.path.starts_with(super::builtin::PREFIX);
        if from_builtin && self.builtin {
            self.omits.push(rule);
            return;
        }
        let msg = if from_builtin {
            format!(
                "Fairy-Stockfish's rule `{rule}` (set by the built-in parent, {}:{}) is not \
                 modelled by Locust; set `{}` to its neutral value in this section to play \
                 without it",
                entry.path, entry.line, entry.key
            )
        } else {
            format!(
                "Fairy-Stockfish's rule `{rule}` is not modelled by Locust; the variant is \
                 refused rather than played under different rules"
            )
        };
        b.ctx.fail(entry, msg);
    }
}

/// Ok(true) when the value leaves the game unchanged; Err when it does not even parse.
fn neutral_value(
    b: &mut Build,
    entry: &Entry,
    neutral: Neutral,
    castling_on: bool,
) -> Result<bool, String> {
    let v = entry.value.as_str();
    match neutral {
        Neutral::Presentation => Ok(true),
        Neutral::Bool(d) => values::boolean(v).map(|x| x == d),
        Neutral::Castling(d) => Ok(!castling_on || castling_default(v, d)?),
        Neutral::Pieces(rule) => {
            let mut set = piece_set(b, v)?;
            set.sort_unstable();
            let mut locust = locust_types(b, rule);
            locust.sort_unstable();
            // Which men may be taken e.p. matters only where some man can take e.p.
            let moot = matches!(rule, PieceRule::EnPassant) && locust.is_empty();
            Ok(moot || set == locust)
        }
    }
}

fn castling_default(v: &str, d: CastlingDefault) -> Result<bool, String> {
    Ok(match d {
        CastlingDefault::KingOnE => values::file(v)? == 5,
    })
}

/// The piece types a set names (`*` = all); unknown letters are errors.
fn piece_set(b: &Build, v: &str) -> Result<Vec<PieceId>, String> {
    let Some(symbols) = values::symbol_set(v)? else {
        return Ok((0..b.pieces.len() as PieceId).collect());
    };
    symbols
        .into_iter()
        .map(|s| b.id(s).ok_or_else(|| format!("unknown piece `{s}`")))
        .collect()
}

/// The types Locust gives a rule to, as compiled.
fn locust_types(b: &Build, rule: PieceRule) -> Vec<PieceId> {
    let ids = 0..b.pieces.len() as PieceId;
    match rule {
        PieceRule::EnPassant => ids
            .filter(|&p| b.defs[p as usize].betza.contains('e'))
            .collect(),
    }
}

/// Every FSF key this module reads.
pub fn keys() -> impl Iterator<Item = &'static str> {
    let special = [
        "nFoldValueAbsolute",
        "extinctionOpponentPieceCount",
        super::rules_keys::PAWN_TYPES,
    ];
    (UNMODELLED.iter().map(|(k, _)| *k))
        .chain(REFUSED.iter().copied())
        .chain(special)
}
