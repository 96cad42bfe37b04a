//! The rule keys after the pieces exist: promotion, drops, castling, game end, atomic blasts,
//! the capture matrix, leave-behind, confinement and zone moves, royalty and the start FEN.

use super::compile::{append, check_start_fen, dead_squares, Build};
use super::piece_defs::compile_moves;
use super::values::{self, symbol, Symbol};
use crate::geometry::SquareSet;
use crate::rules::{
    Blast, CaptureMatrix, Castling, Drops, EnclosingDrop, Flag, Flip, GameEnd, LionTrading, Origin,
    Outcome, PieceId, PieceType, Promotion, Royalty, ShatarMate, Variant,
};
use crate::trajectory::{rights, Node, NodeId, Trajectories};
use crate::xbetza;

/// Fairy-Stockfish's default start position.
pub const CHESS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// The fields FSF assumes after a start FEN that gives the board alone.
const BOARD_ONLY_FEN_TAIL: &str = "w - - 0 1";
/// FSF's default n-move rule, in moves.
const DEFAULT_N_MOVE_RULE: u32 = 50;
/// The check-only sight line royals get under the flying-general and bikjang rules.
const ROYAL_SIGHT_BETZA: &str = "vkR";
/// FSF's default repetition count.
const DEFAULT_N_FOLD: u32 = 3;
/// Upper bound for counters read from files.
const MAX_COUNTER: u32 = 10_000;
/// Most pieces of one type a promotion limit may name.
const MAX_LIMIT: u32 = 255;

/// Everything after the pieces; `None` when something essential failed.
/// Flying general and bikjang: every royal gets a check-only rook path along its file
/// (`vkR`), so royals facing each other are seen by the generators as a check-only attack.
/// The path is not a move (its nodes have no end rights) and confinement does not apply to
/// it; the canonical XBetza of the piece does not show it.
fn royal_sight(b: &mut Build, end: &GameEnd) {
    if !end.flying_general && !end.bikjang {
        return;
    }
    let Ok(ast) = xbetza::parse(ROYAL_SIGHT_BETZA) else {
        return;
    };
    let Ok(sight) = xbetza::compile(&ast, b.max_range()) else {
        return;
    };
    for p in b.pieces.iter_mut().filter(|p| p.royal) {
        append(&mut p.moves, &sight, None, None);
    }
}

pub fn finish(b: &mut Build, origin: Origin) -> Option<Variant> {
    values_from_keys(b);
    let promotion = promotion(b);
    let drops = drops(b, &promotion);
    let castling = castling(b);
    let mut end = game_end(b);
    let builtin = matches!(origin, Origin::Builtin(_));
    let rules = super::unmodelled::Modelled {
        castling: castling.is_some(),
        bare_king: end.bare_king_loses,
        extinction: end.extinction.is_some(),
    };
    let omits = super::unmodelled::check(b, rules, builtin);
    let blast = blast(b);
    let (petrify, petrify_guards) = super::petrify::petrify(b, &drops, blast.as_ref());
    let capture_matrix = capture_matrix(b);
    leave_behind(b);
    tenjiku_keys(b);
    confinement(b);
    zone_moves(b);
    soldier_rank(b);
    mobility_regions(b);
    end.move_repetition = super::repetition::move_repetition(b);
    immobility(b, promotion.on_entry);
    // After the regions (its ends keep to them) and the dead squares (FSF's immobility
    // test ignores these moves).
    super::diagonal_lines::diagonal_lines(b);
    royal_sight(b, &end);
    let black_rotated = super::chirality::black_rotated(b);
    super::stand_ins::resolve(b, &end, &promotion);
    let walling = super::walling::walling(b, &drops, &end);
    let gating = super::gating::gating(b, castling.as_ref(), walling.as_ref());
    let fen = b
        .ctx
        .take("startFen")
        .map(|e| complete_fen(&e.value))
        .unwrap_or(CHESS_FEN.to_string());
    let info = check_start_fen(b, &fen, end.check_counting);
    let fen = match (&castling, info.as_ref().and_then(|i| i.castling.as_deref())) {
        // Under gating the field holds the gate marks (cambodian's `DEde`).
        (None, Some(rights)) if rights != "-" && gating.is_none() => without_castling_rights(&fen),
        _ => fen,
    };
    check_royals(b, &end, info.as_ref(), drops.enabled);
    check_pseudo_royal_count(b, &mut end, info.as_ref());
    let (aliases, xboard_parent, pass_move) = presentation(b);
    Some(Variant {
        name: b.ctx.name().to_string(),
        aliases,
        origin,
        files: b.files,
        ranks: b.ranks,
        pieces: b.pieces.clone(),
        start_fen: fen,
        zones: b.zones.list.clone(),
        castling,
        promotion,
        drops,
        end,
        blast,
        capture_matrix,
        pass_move,
        flip: b.ctx.parsed("flipEnclosedPieces", flip).unwrap_or_default(),
        xboard_parent,
        omits,
        black_rotated,
        en_passant_region: super::en_passant::region(b),
        walling,
        gating,
        petrify,
        petrify_guards,
    })
}

/// FSF reads a start FEN of the board alone as White to move, no castling, no e.p.
fn complete_fen(fen: &str) -> String {
    match fen.split_whitespace().count() {
        1 => format!("{} {BOARD_ONLY_FEN_TAIL}", fen.trim()),
        _ => fen.to_string(),
    }
}

/// FSF ignores castling rights in a start FEN when the variant has no castling
/// (`[epicatomic:atomic]` keeps `KQkq` with `castling = false`): the field becomes `-`.
fn without_castling_rights(fen: &str) -> String {
    let mut fields: Vec<&str> = fen.split_whitespace().collect();
    if let Some(field) = fields.get_mut(2) {
        *field = "-";
    }
    fields.join(" ")
}

fn presentation(b: &mut Build) -> (Vec<String>, String, bool) {
    let aliases = b
        .ctx
        .take_own("alias")
        .map(|e| e.value.split_whitespace().map(str::to_string).collect())
        .unwrap_or_default();
    let template = b.ctx.take("variantTemplate").map(|e| e.value);
    let parent = b.ctx.take("xboardParent").map(|e| e.value);
    let parent = parent.or(template).unwrap_or_else(|| "fairy".to_string());
    let pass = b.ctx.flag("pass", false) | b.ctx.flag("passMove", false);
    (aliases, parent, pass)
}

/// Middle-game values from `pieceValue` (ours, centipawns) or FSF's `pieceValueMg` (FSF
/// units, pawn = 126), endgame values from FSF's `pieceValueEg` (pawn = 208); a piece
/// without an endgame value keeps its middle-game one for both phases, and so does one that
/// a section's own `pieceValue` names when the `pieceValueEg` pair comes from further up the
/// inheritance chain (shatranj's alfil is not chess's bishop). Evaluation only is affected,
/// never the rules.
fn values_from_keys(b: &mut Build) {
    const FSF_PAWN_MG: i32 = 126;
    const FSF_PAWN_EG: i32 = 208;
    let scaled = |v: u32, scale: i32| (v as i64 * 100 / scale as i64) as i32;
    // Depth of the entry that last set each piece's middle-game value.
    let mut mg_depth = vec![usize::MAX; b.pieces.len()];
    for (key, scale) in [("pieceValueMg", FSF_PAWN_MG), ("pieceValue", 100)] {
        let Some(entry) = b.ctx.take(key) else {
            continue;
        };
        for (s, v) in letter_map(b, &entry, 1_000_000) {
            // The endgame value follows unless `pieceValueEg` below names the piece.
            b.pieces[s as usize].value = scaled(v, scale);
            b.pieces[s as usize].value_eg = 0;
            mg_depth[s as usize] = entry.depth;
        }
    }
    if let Some(entry) = b.ctx.take("pieceValueEg") {
        // A pair the entry's own line does not name is inherited: from further up.
        let own: Vec<PieceId> = (values::pairs(&entry.value).unwrap_or_default().iter())
            .filter_map(|(l, _)| symbol(l).ok().and_then(|x| b.id(x)))
            .collect();
        for (s, v) in letter_map(b, &entry, 1_000_000) {
            let depth = entry.depth + usize::from(!own.contains(&s));
            if depth <= mg_depth[s as usize] {
                b.pieces[s as usize].value_eg = scaled(v, FSF_PAWN_EG);
            }
        }
    }
    for p in b.pieces.iter_mut().filter(|p| p.value_eg == 0) {
        p.value_eg = p.value;
    }
}

/// Reads `x:N` pairs as (piece, number), one per piece, the last pair winning; errors are
/// recorded. Inherited pairs (`ini::MAP_KEYS`) come first, and one whose piece this section
/// removed is skipped, as Fairy-Stockfish keeps it unused.
fn letter_map(b: &mut Build, entry: &crate::ini::Entry, max: u32) -> Vec<(PieceId, u32)> {
    let mut out: Vec<(PieceId, u32)> = Vec::new();
    let inherited = values::pairs(&entry.inherited).unwrap_or_default();
    for (l, n) in inherited {
        let piece = symbol(&l).ok().and_then(|s| b.id(s));
        if let (Some(p), Ok(n)) = (piece, values::integer(&n, max)) {
            set_pair(&mut out, p, n);
        }
    }
    let items = match values::pairs(&entry.value) {
        Ok(items) => items,
        Err(msg) => {
            b.ctx.fail(entry, msg);
            return out;
        }
    };
    for (l, n) in items {
        let piece = symbol(&l).ok().and_then(|s| b.id(s));
        match (piece, values::integer(&n, max)) {
            (Some(p), Ok(n)) => set_pair(&mut out, p, n),
            // An ancestor's line naming a piece this section removed: skipped, as above.
            (None, _) if entry.depth > 0 => {}
            (None, _) => b.ctx.fail(entry, format!("unknown piece `{l}`")),
            (_, Err(msg)) => b.ctx.fail(entry, msg),
        }
    }
    out
}

fn set_pair(out: &mut Vec<(PieceId, u32)>, p: PieceId, n: u32) {
    match out.iter_mut().find(|(q, _)| *q == p) {
        Some(slot) => slot.1 = n,
        None => out.push((p, n)),
    }
}

/// Reads `x:y` pairs as (piece, piece).
fn piece_pairs(b: &mut Build, key: &str) -> Vec<(PieceId, PieceId)> {
    let Some(entry) = b.ctx.take(key) else {
        return Vec::new();
    };
    let items = match values::pairs(&entry.value) {
        Ok(items) => items,
        Err(msg) => {
            b.ctx.fail(&entry, msg);
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (x, y) in items {
        let find = |t: &str| symbol(t).ok().and_then(|s| b.id(s));
        match (find(&x), find(&y)) {
            (Some(p), Some(q)) => out.push((p, q)),
            (None, _) => b.ctx.fail(&entry, format!("unknown piece `{x}`")),
            _ => b.ctx.fail(&entry, format!("unknown piece `{y}`")),
        }
    }
    out
}

/// Default set of types by predefined name, for FSF defaults that name types, not letters.
pub(super) fn named(b: &Build, names: &[&str]) -> Vec<PieceId> {
    names.iter().filter_map(|n| b.id_named(n)).collect()
}

/// FSF's `pawnTypes`: the default of `promotionPawnTypes`, `nMoveRuleTypes` and
/// `enPassantTypes` (read without taking it: the e.p. part is judged in `unmodelled`).
fn pawn_types(b: &mut Build) -> Option<Vec<PieceId>> {
    let v = b.ctx.peek(PAWN_TYPES)?.to_string();
    let set = values::symbol_set(&v).ok()?;
    match set {
        None => Some((0..b.pieces.len() as PieceId).collect()),
        Some(set) => set.into_iter().map(|s| b.id(s)).collect(),
    }
}

/// The key of FSF's pawn-type shorthand.
pub(super) const PAWN_TYPES: &str = "pawnTypes";

/// Per colour per piece type: a move of the man restarts the n-move count. FSF's
/// `nMoveRuleTypes*` (and `pawnTypes`) where given; otherwise Locust's rule, the men that
/// promote pawn-style (FSF's pawn, and a custom pawn FSF would name in `pawnTypes`).
fn n_move_resets(b: &mut Build) -> [Vec<bool>; 2] {
    let default: Vec<PieceId> = match pawn_types(b) {
        Some(set) => set,
        None => (0..b.pieces.len() as PieceId)
            .filter(|&p| !b.pieces[p as usize].promotions.is_empty())
            .collect(),
    };
    let (white, black) = colour_set(b, "nMoveRuleTypes", &default);
    let flags = |set: &[PieceId]| {
        (0..b.pieces.len() as PieceId)
            .map(|p| set.contains(&p))
            .collect()
    };
    [flags(&white), flags(&black)]
}

fn colour_set(b: &mut Build, key: &str, default: &[PieceId]) -> (Vec<PieceId>, Vec<PieceId>) {
    let both = b.id_set(key).unwrap_or_else(|| default.to_vec());
    let white = b
        .id_set(&format!("{key}White"))
        .unwrap_or_else(|| both.clone());
    let black = b.id_set(&format!("{key}Black")).unwrap_or(both);
    (white, black)
}

fn promotion(b: &mut Build) -> Promotion {
    let top = b.ranks - 1;
    let (mut zone_white, mut zone_black) = (
        SquareSet::ranks(b.files, top, top),
        SquareSet::ranks(b.files, 0, 0),
    );
    if let Some(r) = b.ctx.parsed("promotionRank", values::rank) {
        let r = (r.clamp(1, b.ranks as u32) - 1) as u8;
        zone_white = SquareSet::ranks(b.files, r, top);
        zone_black = zone_white.flip_ranks(b.ranks);
    }
    zone_white = b.squares("promotionRegionWhite", zone_white);
    zone_black = b.squares("promotionRegionBlack", zone_black);
    let pawns = pawn_types(b).unwrap_or_else(|| named(b, &["pawn"]));
    let (pawns_w, pawns_b) = colour_set(b, "promotionPawnTypes", &pawns);
    let choices = named(b, &["queen", "rook", "bishop", "knight"]);
    let (choice_w, choice_b) = colour_set(b, "promotionPieceTypes", &choices);
    let pawn_mandatory = b.ctx.flag("mandatoryPawnPromotion", true);
    let piece_mandatory = b.ctx.flag("mandatoryPiecePromotion", false);
    for (pawns, choices) in [(&pawns_w, &choice_w), (&pawns_b, &choice_b)] {
        for &p in pawns {
            b.pieces[p as usize].promotions = choices.clone();
            b.pieces[p as usize].mandatory_promotion = pawn_mandatory;
        }
    }
    let demotion = b.ctx.flag("pieceDemotion", false);
    let shogi_style = link_plus_forms(b, piece_mandatory, demotion);
    let limits = match b.ctx.take("promotionLimit") {
        Some(e) => letter_map(b, &e, MAX_LIMIT)
            .into_iter()
            .map(|(p, n)| (p, n as u8))
            .collect(),
        None => Vec::new(),
    };
    Promotion {
        zone_white,
        zone_black,
        shogi_style,
        limited_to_captured: b.ctx.flag("promotionToCaptured", false),
        limits,
        demotion,
        on_entry: b.ctx.flag("promotionOnEntry", false),
        stuck_forced: !b.ctx.flag("promotionOnEntryStuck", true),
        sittuyin: b.ctx.flag("sittuyinPromotion", false),
        on_capture: b.ctx.flag("piecePromotionOnCapture", false),
        forced_by_promoted_victim: b.ctx.flag("promotedCaptureForcesPromotion", false),
    }
}

/// Links every `+X` type with its base `X`. Returns true when any exists (shogi style).
/// Under `pieceDemotion` a promoted form demotes as its base promotes, mandatorily alike.
fn link_plus_forms(b: &mut Build, mandatory: bool, demotion: bool) -> bool {
    let mut any = false;
    for i in 0..b.defs.len() {
        let s = b.defs[i].symbol;
        if !s.plus {
            continue;
        }
        any = true;
        match b.id(s.base()) {
            Some(base) => {
                b.pieces[base as usize].promoted = Some(i as PieceId);
                b.pieces[base as usize].mandatory_promotion |= mandatory;
                b.pieces[i].demotes_to = Some(base);
                b.pieces[i].mandatory_promotion |= mandatory && demotion;
            }
            None => {
                let entry = b.defs[i].entry.clone();
                b.ctx
                    .fail(&entry, format!("promoted form `{s}` has no base piece"));
            }
        }
    }
    any
}

fn drops(b: &mut Build, promotion: &Promotion) -> Drops {
    let enabled = b.ctx.flag("pieceDrops", false);
    let captures_to_hand = b.ctx.flag("capturesToHand", false);
    let no_doubled = b.id_set("dropNoDoubled").unwrap_or_default();
    let mate_illegal = b.ctx.flag("shogiPawnDropMateIllegal", false);
    let first_rank = b.ctx.flag("firstRankPawnDrops", false);
    let zone_drops = b.ctx.flag("promotionZonePawnDrops", false);
    // FSF's rule looks at its `shogiPawn` type only: with none (elgam's soldiers are its
    // `dropNoDoubled` type) a drop may mate.
    let no_drop_mate = match mate_illegal {
        true => named(b, &["shogiPawn"]),
        false => Vec::new(),
    };
    let mut forbidden = SquareSet::EMPTY;
    if !first_rank {
        forbidden = SquareSet::ranks(b.files, 0, 0);
    }
    if !zone_drops {
        forbidden = values::union(forbidden, promotion.zone_white);
    }
    // FSF bars these squares to its `pawn` type only, by type: a custom pawn, or another
    // type named in `promotionPawnTypes` (elgam's soldiers), may be dropped there.
    let pawn_types = named(b, &["pawn"]);
    let all = SquareSet::ranks(b.files, 0, b.ranks - 1);
    Drops {
        enabled,
        captures_to_hand,
        no_doubled,
        no_drop_mate,
        pawn_drop_forbidden: if enabled { forbidden } else { SquareSet::EMPTY },
        pawn_types,
        region: [
            b.squares("dropRegionWhite", all),
            b.squares("dropRegionBlack", all),
        ],
        no_doubled_count: b
            .ctx
            .parsed("dropNoDoubledCount", |v| values::integer(v, MAX_COUNTER))
            .unwrap_or(1),
        // FSF counts checks to a `king` only: with pseudo-royal men instead (atomic's
        // commoners) no drop gives check and the key has no effect.
        no_checks: !b.ctx.flag("dropChecks", true) && b.id_named("king").is_some(),
        promoted: b.ctx.flag("dropPromoted", false),
        keep_promoted: b.ctx.flag("dropLoop", false),
        must_drop: b.ctx.flag("mustDrop", false),
        must_drop_type: flag_piece(b, "mustDropType").flatten(),
        enclosing: b
            .ctx
            .parsed("enclosingDrop", enclosing_drop)
            .unwrap_or_default(),
        enclosing_start: b.squares("enclosingDropStart", SquareSet::EMPTY),
        free: b.ctx.flag("freeDrops", false),
        two_boards: b.ctx.flag("twoBoards", false),
        // FSF gives these rules to its `rook` and `bishop` types only, by name.
        first_rank_only: match b.ctx.flag("sittuyinRookDrop", false) {
            true => named(b, &["rook"]),
            false => Vec::new(),
        },
        opposite_bishops: b
            .ctx
            .flag("dropOppositeColoredBishop", false)
            .then(|| b.id_named("bishop"))
            .flatten(),
        castling_dropped: b.ctx.flag("castlingDroppedPiece", false),
    }
}

fn castling(b: &mut Build) -> Option<Castling> {
    let enabled = b.ctx.flag("castling", true);
    let chess960 = b.ctx.flag("chess960", false);
    let king_side = b
        .ctx
        .parsed("castlingKingsideFile", values::file)
        .unwrap_or(7);
    let queen_side = b
        .ctx
        .parsed("castlingQueensideFile", values::file)
        .unwrap_or(3);
    let rank = b.ctx.parsed("castlingRank", values::rank).unwrap_or(1);
    let opposite = b.ctx.flag("oppositeCastling", false);
    let wins_entry = b.ctx.take("castlingWins");
    let wins = match wins_entry.as_ref().map(|e| castling_wins(&e.value)) {
        Some(Err(msg)) => {
            if let Some(e) = &wins_entry {
                b.ctx.fail(e, msg);
            }
            [[false; 2]; 2]
        }
        Some(Ok(w)) => w,
        None => [[false; 2]; 2],
    };
    let rook_king_side = (b.ctx)
        .parsed("castlingRookKingsideFile", values::file)
        .unwrap_or(b.files as u32);
    let rook_queen_side = (b.ctx)
        .parsed("castlingRookQueensideFile", values::file)
        .unwrap_or(1);
    let king = match b.ctx.take("castlingKingPiece") {
        // No castling king (an inherited one the section removed, `load::inherit`): no
        // man can castle.
        Some(e) if e.value == super::piece_defs::REMOVED => None,
        Some(e) => symbol(&e.value).ok().and_then(|s| b.id(s)).or_else(|| {
            b.ctx.fail(&e, format!("unknown piece `{}`", e.value));
            None
        }),
        None => b.defs.iter().position(|d| d.is_king).map(|i| i as PieceId),
    };
    let rooks = named(b, &["rook"]);
    let (rooks, _) = colour_set(b, "castlingRookPieces", &rooks);
    if !enabled || rooks.is_empty() {
        if let Some(e) = wins_entry.filter(|_| wins.iter().flatten().any(|&w| w)) {
            // Fairy-Stockfish would find no castling right at the start, a game lost at once.
            b.ctx.fail(&e, "castlingWins needs castling");
        }
        return None;
    }
    for (key, file) in [
        ("castlingKingsideFile", king_side),
        ("castlingQueensideFile", queen_side),
    ] {
        if file > b.files as u32 {
            // FSF's default g-file on a board narrower than 7 files: no castling can
            // happen there (FSF finds no such square), so castling is off.
            let e = b.ctx.take(key)?;
            b.ctx.fail(&e, format!("file {file} is off the board"));
        }
    }
    let king = king?;
    Some(Castling {
        king_side_file: (king_side.max(1) - 1) as u8,
        queen_side_file: (queen_side.max(1) - 1) as u8,
        rook_types: rooks,
        king_type: king,
        chess960,
        rank: (rank.clamp(1, b.ranks as u32) - 1) as u8,
        opposite,
        wins,
        rook_files: (
            (rook_king_side.clamp(1, b.files as u32) - 1) as u8,
            (rook_queen_side.clamp(1, b.files as u32) - 1) as u8,
        ),
    })
}

/// FSF's castling-rights word (`castlingWins = q`): `K`, `Q`, `k`, `q`, or `-` for none, as
/// `[White, Black]` of `[king side, queen side]`.
fn castling_wins(value: &str) -> Result<[[bool; 2]; 2], String> {
    let mut wins = [[false; 2]; 2];
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        let (colour, side) = match c {
            '-' => break,
            'K' => (0, 0),
            'Q' => (0, 1),
            'k' => (1, 0),
            'q' => (1, 1),
            _ => return Err(format!("`{c}` is no castling right (K, Q, k, q or -)")),
        };
        wins[colour][side] = true;
    }
    Ok(wins)
}

fn outcome_key(b: &mut Build, key: &str, default: Outcome) -> Outcome {
    b.ctx.parsed(key, values::outcome).unwrap_or(default)
}

fn game_end(b: &mut Build) -> GameEnd {
    let checkmate = outcome_key(b, "checkmateValue", Outcome::Loss);
    let stalemate = outcome_key(b, "stalemateValue", Outcome::Draw);
    let extinction = b.ctx.parsed("extinctionValue", |v| match v {
        "none" => Ok(None),
        _ => values::outcome(v).map(Some),
    });
    let all_men = (b.ctx.peek("extinctionPieceTypes")).is_some_and(|v| v.trim() == "*");
    let types = b.id_set("extinctionPieceTypes").unwrap_or_default();
    let count = b
        .ctx
        .parsed("extinctionPieceCount", |v| values::integer(v, MAX_COUNTER));
    let pseudo_royal = b.ctx.flag("extinctionPseudoRoyal", false);
    let duple = b.ctx.flag("dupleCheck", false);
    let all_types = types.len() == b.pieces.len() && !types.is_empty();
    // Locust's bare-king rule is FSF's losing extinction of all men down to one; a winning
    // one (losers) is the general extinction rule below.
    let losing = extinction.flatten() == Some(Outcome::Loss);
    let mut bare_king = losing && all_types && count == Some(1);
    if let Some(v) = b.ctx.parsed("bareKing", |v| match v {
        "loss" => Ok(true),
        "none" => Ok(false),
        _ => Err(format!("expected loss or none, found `{v}`")),
    }) {
        bare_king = v;
    }
    let extinction_types = match extinction.flatten() {
        Some(_) if !bare_king => types,
        _ => Vec::new(),
    };
    let general = match extinction.flatten() {
        Some(value) if !bare_king && !pseudo_royal && !extinction_types.is_empty() => {
            let types = if all_men {
                Vec::new()
            } else {
                extinction_types.clone()
            };
            super::extinction::rule(b, value, types, count.unwrap_or(0))
        }
        _ => None,
    };
    if pseudo_royal {
        extinction_types
            .iter()
            .for_each(|&p| b.pieces[p as usize].royal = true);
    }
    royal_pieces(b);
    let royalty = royalty(b, duple);
    let n_move = b
        .ctx
        .parsed("nMoveRule", |v| values::integer(v, MAX_COUNTER));
    GameEnd {
        checkmate,
        stalemate,
        royalty,
        royals_counted_before_move: b.ctx.flag("royalsCountedBeforeMove", false),
        extinction_types,
        bare_king_loses: bare_king,
        n_move_rule: 2 * n_move.unwrap_or(DEFAULT_N_MOVE_RULE),
        n_move_resets: n_move_resets(b),
        n_fold_rule: b
            .ctx
            .parsed("nFoldRule", |v| values::integer(v, MAX_COUNTER))
            .unwrap_or(DEFAULT_N_FOLD),
        n_fold_value: outcome_key(b, "nFoldValue", Outcome::Draw),
        n_fold_value_absolute: b.ctx.flag("nFoldValueAbsolute", false),
        perpetual_check_illegal: b.ctx.flag("perpetualCheckIllegal", false),
        chasing_rule: b.ctx.parsed("chasingRule", chasing).unwrap_or(false),
        flying_general: b.ctx.flag("flyingGeneral", false),
        bikjang: b.ctx.flag("bikjangRule", false),
        check_counting: b.ctx.flag("checkCounting", false),
        checking: b.ctx.flag("checking", true),
        flag: flag(b),
        connect: super::connect::connect(b),
        counting: super::counting::counting(b),
        material_counting: super::counting::material_counting(b),
        extinction: general,
        must_capture: b.ctx.flag("mustCapture", false),
        stalemate_piece_count: b.ctx.flag("stalematePieceCount", false),
        pass_on_stalemate: pass_on_stalemate(b),
        full_board_ends: b.ctx.flag("adjudicateFullBoard", false),
        makpong: b.ctx.flag("makpongRule", false),
        shatar: b.ctx.flag("shatarMateRule", false).then(|| ShatarMate {
            shak: named(b, &["knight", "rook", "bers"]),
            knights: named(b, &["knight"]),
        }),
        // Read once the men's regions are known (`finish`).
        move_repetition: None,
    }
}

/// Capture the flag: FSF's `flagPiece` and `flagRegion` (each also per colour), with
/// `flagPieceCount`, `flagPieceBlockedWin` and `flagMove`. `None` when neither colour has a
/// region.
fn flag(b: &mut Build) -> Option<Flag> {
    let both = flag_piece(b, "flagPiece").unwrap_or(None);
    let piece = [
        flag_piece(b, "flagPieceWhite").unwrap_or(both),
        flag_piece(b, "flagPieceBlack").unwrap_or(both),
    ];
    let both = b.squares("flagRegion", SquareSet::EMPTY);
    let region = [
        b.squares("flagRegionWhite", both),
        b.squares("flagRegionBlack", both),
    ];
    let count = b
        .ctx
        .parsed("flagPieceCount", |v| values::integer(v, MAX_COUNTER))
        .unwrap_or(1);
    let blocked_win = b.ctx.flag("flagPieceBlockedWin", false);
    let flag_move = b.ctx.flag("flagMove", false);
    let safe = b.ctx.flag("flagPieceSafe", false);
    if region.iter().all(SquareSet::is_empty) {
        return None;
    }
    Some(Flag {
        piece,
        region,
        count,
        blocked_win,
        flag_move,
        safe,
    })
}

/// A flag-piece key: `Some(None)` for any man (`*`), `Some(Some(type))`, or `None` when the
/// key is absent or wrong (reported).
fn flag_piece(b: &mut Build, key: &str) -> Option<Option<PieceId>> {
    let e = b.ctx.take(key)?;
    if e.value.trim() == "*" {
        return Some(None);
    }
    match symbol(&e.value).ok().and_then(|s| b.id(s)) {
        Some(id) => Some(Some(id)),
        None => {
            b.ctx.fail(&e, format!("unknown piece `{}`", e.value));
            None
        }
    }
}

/// FSF's `enclosingDrop` values. FSF's parser also takes `quadwrangle` here, which its
/// drop filter reads as `ataxx`; Locust does the same.
fn enclosing_drop(v: &str) -> Result<EnclosingDrop, String> {
    match v {
        "none" => Ok(EnclosingDrop::None),
        "top" => Ok(EnclosingDrop::Top),
        "snort" => Ok(EnclosingDrop::Snort),
        "anyside" => Ok(EnclosingDrop::AnySide),
        "reversi" => Ok(EnclosingDrop::Reversi),
        "ataxx" | "quadwrangle" => Ok(EnclosingDrop::Ataxx),
        _ => Err(format!(
            "expected none, reversi, ataxx, quadwrangle, snort, anyside or top, found `{v}`"
        )),
    }
}

/// FSF's `flipEnclosedPieces` values (`snort`, `anyside` and `top` flip nothing there).
fn flip(v: &str) -> Result<Flip, String> {
    match v {
        "none" | "snort" | "anyside" | "top" => Ok(Flip::None),
        "reversi" => Ok(Flip::Reversi),
        "ataxx" => Ok(Flip::Ataxx),
        "quadwrangle" => Ok(Flip::Quadwrangle),
        _ => Err(format!(
            "expected none, reversi, ataxx or quadwrangle, found `{v}`"
        )),
    }
}

/// `passOnStalemate`, then its per-colour keys over it (FSF reads all three in turn).
fn pass_on_stalemate(b: &mut Build) -> [bool; 2] {
    let both = b.ctx.flag("passOnStalemate", false);
    [
        b.ctx.flag("passOnStalemateWhite", both),
        b.ctx.flag("passOnStalemateBlack", both),
    ]
}

fn chasing(v: &str) -> Result<bool, String> {
    match v {
        "axf" => Ok(true),
        "none" => Ok(false),
        _ => Err(format!("expected axf or none, found `{v}`")),
    }
}

/// Our `royalPieces = k +e`: exactly these types are royal.
fn royal_pieces(b: &mut Build) {
    if let Some(ids) = b.id_set("royalPieces") {
        b.pieces.iter_mut().for_each(|p| p.royal = false);
        ids.iter().for_each(|&p| b.pieces[p as usize].royal = true);
    }
}

fn royalty(b: &mut Build, duple: bool) -> Royalty {
    let default = if duple {
        Royalty::Extinction
    } else {
        Royalty::Absolute
    };
    b.ctx
        .parsed("royalty", |v| match v {
            "absolute" => Ok(Royalty::Absolute),
            "extinction" => Ok(Royalty::Extinction),
            "last" => Ok(Royalty::Last),
            _ => Err(format!(
                "expected absolute, extinction or last, found `{v}`"
            )),
        })
        .unwrap_or(default)
}

fn blast(b: &mut Build) -> Option<Blast> {
    let on = b.ctx.flag("blastOnCapture", false);
    let fully_immune = b.id_set("blastImmuneTypes").unwrap_or_default();
    if !on {
        return None;
    }
    // FSF spares the men of its predefined pawn type next to the blast, not a custom pawn
    // (`allexplodeatomic`: `pawnTypes = p` with `customPiece1 = p:...` explodes).
    let immune = named(b, &["pawn"]);
    Some(Blast {
        immune,
        fully_immune,
    })
}

/// FSF's `mutuallyImmuneTypes` (atomar's kings): a man of such a type may not take one of
/// its own type. FSF still counts the attack for check, Locust's `noCapture` does not, so a
/// royal type is refused by name.
fn mutually_immune(b: &mut Build, no_capture: &mut Vec<(PieceId, PieceId)>) {
    let types = b.id_set("mutuallyImmuneTypes").unwrap_or_default();
    if types.iter().any(|&t| b.pieces[t as usize].royal) {
        let msg = "a royal type may not be mutually immune: Fairy-Stockfish still counts its \
                   attack on its own type as check, which Locust does not model";
        return b.ctx.fail_section("mutuallyImmuneTypes", msg);
    }
    no_capture.extend(types.iter().map(|&t| (t, t)));
}

fn capture_matrix(b: &mut Build) -> CaptureMatrix {
    let mut no_capture = piece_pairs(b, "noCapture");
    let mut no_hop = piece_pairs(b, "noHop");
    // FSF's janggiCannon neither hops over nor takes a janggi cannon, as in janggi.
    if let Some(c) = b.id_named("janggiCannon") {
        no_capture.push((c, c));
        no_hop.push((c, c));
    }
    mutually_immune(b, &mut no_capture);
    for victim in b.id_set("iron").unwrap_or_default() {
        for attacker in 0..b.pieces.len() as PieceId {
            no_capture.push((attacker, victim));
        }
    }
    CaptureMatrix {
        no_capture,
        no_hop,
        lion: lion_trading(b),
        contagion: b.id_set("contagion").unwrap_or_default(),
        contagion_immune: b.id_set("contagionImmune").unwrap_or_default(),
        contagion_promotes: b.ctx.flag("contagionPromotes", false),
    }
}

/// `lionPieces = n +o`, `lionBridges = p i`, `protectedLionRule`, `counterstrikeRule`,
/// `lionBridgeProtects` (default true), `counterstrikeEndSquareOnly` (default false): Chu
/// Shogi's Lion-trading rules; none without lion types.
fn lion_trading(b: &mut Build) -> Option<LionTrading> {
    let lions = b.id_set("lionPieces").unwrap_or_default();
    let bridges = b.id_set("lionBridges").unwrap_or_default();
    let protected = b.ctx.flag("protectedLionRule", false);
    let counterstrike = b.ctx.flag("counterstrikeRule", false);
    let bridge_protects = b.ctx.flag("lionBridgeProtects", true);
    let end_square_only = b.ctx.flag("counterstrikeEndSquareOnly", false);
    (!lions.is_empty() && (protected || counterstrike)).then_some(LionTrading {
        lions,
        bridges,
        protected,
        counterstrike,
        bridge_protects,
        end_square_only,
    })
}

fn leave_behind(b: &mut Build) {
    for (mover, left) in piece_pairs(b, "leaveBehind") {
        b.pieces[mover as usize].leaves_behind = Some(left);
    }
}

/// `burn = d!`, `rangeJump = q! v! r! b!`, `jumpRank = k:4 q!:3`.
fn tenjiku_keys(b: &mut Build) {
    for p in b.id_set("burn").unwrap_or_default() {
        b.pieces[p as usize].burns = true;
    }
    let jumpers = b.id_set("rangeJump").unwrap_or_default();
    jumpers
        .iter()
        .for_each(|&p| b.pieces[p as usize].range_jump = true);
    if let Some(entry) = b.ctx.take("jumpRank") {
        for (p, r) in letter_map(b, &entry, u8::MAX as u32) {
            b.pieces[p as usize].jump_rank = r as u8;
        }
    }
    for p in jumpers {
        if b.pieces[p as usize].jump_rank == 0 {
            if let Some(entry) = b.ctx.take("rangeJump") {
                let name = b.pieces[p as usize].name.clone();
                b.ctx
                    .fail(&entry, format!("{name} needs a jumpRank above 0"));
            }
        }
    }
}

/// `confine = k:palace b:ownHalf`: the piece never leaves the zone.
fn confinement(b: &mut Build) {
    let Some(entry) = b.ctx.take("confine") else {
        return;
    };
    let items = match values::pairs(&entry.value) {
        Ok(items) => items,
        Err(msg) => return b.ctx.fail(&entry, msg),
    };
    for (l, zone) in items {
        let Some(piece) = symbol(&l).ok().and_then(|s| b.id(s)) else {
            b.ctx.fail(&entry, format!("unknown piece `{l}`"));
            continue;
        };
        match b.zones.index(&zone) {
            Some(z) => confine(b, piece, z, false),
            None => b.ctx.fail(&entry, format!("unknown zone `{zone}`")),
        }
    }
}

/// Keeps the piece's moves in `zone`. Locust's `confine` keeps whole paths inside; FSF's
/// mobility regions (`ends_only`) bind only where moves end, so a square a path merely
/// passes (a lame leaper's eye: supply's elephant on its seven points; a slider's square
/// outside the region on its way to one inside: stardust's `r`) may lie outside.
fn confine(b: &mut Build, piece: PieceId, zone: u8, ends_only: bool) {
    let anywhere = ends_only.then(|| {
        let all = SquareSet::ranks(b.files, 0, b.ranks - 1);
        (b.zones.index(PASSING_ZONE)).unwrap_or_else(|| b.zones.add(PASSING_ZONE, all, all))
    });
    let p = &mut b.pieces[piece as usize];
    p.confined = Some(zone);
    if let Some(all) = anywhere {
        split_ends(&mut p.moves, all);
    }
    for n in p.moves.nodes.iter_mut() {
        n.zone = match anywhere {
            Some(all) if !n.can_end() => Some(all),
            _ => Some(zone),
        };
    }
}

/// Splits every node where a move may end and a path goes on into a passing node (no end
/// rights, free of the region: `passing`) and a sibling leaf with the end rights, so that
/// [`confine`]'s region binds the end alone. Done once per piece (a second region finds no
/// such node left).
pub(super) fn split_ends(moves: &mut Trajectories, passing: u8) {
    const ENDS: u16 = rights::MOVE | rights::CAPTURE | rights::DESTROY | rights::EN_PASSANT;
    let goes_on = |n: &Node| !n.on_empty.is_empty() || !n.on_occupied.is_empty();
    for id in 0..moves.nodes.len() {
        let node = &moves.nodes[id];
        if !node.can_end() || !goes_on(node) {
            continue;
        }
        let mut leaf = node.clone();
        leaf.on_empty.clear();
        leaf.on_occupied.clear();
        let parent = node.parent.map(|p| {
            let occupied = moves.nodes[p as usize]
                .on_occupied
                .contains(&(id as NodeId));
            (p, occupied)
        });
        let n = &mut moves.nodes[id];
        n.rights &= !ENDS;
        n.zone = Some(passing);
        moves.push(leaf, parent);
    }
}

/// The zone of every square, given to the squares a mobility region's paths only pass.
pub(super) const PASSING_ZONE: &str = "passing";

/// `zoneMoves = p:enemyHalf:sW r:palaceDiag:F2:palaces`: extra moves available only while
/// the piece stands in the first zone; the optional last part confines those paths.
fn zone_moves(b: &mut Build) {
    let Some(entry) = b.ctx.take("zoneMoves") else {
        return;
    };
    for item in entry.value.split_whitespace() {
        let parts: Vec<&str> = item.split(':').collect();
        if !(3..=4).contains(&parts.len()) {
            b.ctx.fail(
                &entry,
                format!("expected `piece:zone:betza[:within]`, found `{item}`"),
            );
            continue;
        }
        let Some(piece) = symbol(parts[0]).ok().and_then(|s| b.id(s)) else {
            b.ctx.fail(&entry, format!("unknown piece `{}`", parts[0]));
            continue;
        };
        let mut zone_of = |name: &str| {
            let z = b.zones.index(name);
            if z.is_none() {
                b.ctx.fail(&entry, format!("unknown zone `{name}`"));
            }
            z
        };
        let Some(from) = zone_of(parts[1]) else {
            continue;
        };
        let within = match parts.get(3) {
            Some(name) => match zone_of(name) {
                Some(z) => Some(z),
                None => continue,
            },
            None => None,
        };
        add_zone_move(b, piece, from, within, parts[2], &entry);
    }
}

fn add_zone_move(
    b: &mut Build,
    piece: PieceId,
    from: u8,
    within: Option<u8>,
    betza: &str,
    entry: &crate::ini::Entry,
) {
    let mut def = b.defs[piece as usize].clone();
    def.entry = entry.clone();
    let within = within.or(b.pieces[piece as usize].confined);
    if let Some(extra) = compile_moves(b.ctx, &def, betza, b.max_range()) {
        append(
            &mut b.pieces[piece as usize].moves,
            &extra,
            Some(from),
            within,
        );
    }
}

/// FSF's `soldierPromotionRank`: soldiers step forward only, and also sideways from that
/// rank on.
fn soldier_rank(b: &mut Build) {
    let Some(rank) = b.ctx.parsed("soldierPromotionRank", values::rank) else {
        return;
    };
    let Some(soldier) = b.id_named("soldier") else {
        return;
    };
    if rank <= 1 {
        return;
    }
    let lo = (rank.min(b.ranks as u32) - 1) as u8;
    let white = SquareSet::ranks(b.files, lo, b.ranks - 1);
    let zone = b.zones.add("soldierRank", white, white.flip_ranks(b.ranks));
    let def = b.defs[soldier as usize].clone();
    if let Some(forward) = compile_moves(b.ctx, &def, "fW", b.max_range()) {
        b.pieces[soldier as usize].moves = forward;
        add_zone_move(b, soldier, zone, None, "sW", &def.entry);
    }
}

/// FSF's `mobilityRegion<White|Black><PieceName>`: confines a piece to a region.
fn mobility_regions(b: &mut Build) {
    for entry in b.ctx.take_prefixed("mobilityRegion") {
        let rest = &entry.key["mobilityRegion".len()..];
        let (white, name) = match (rest.strip_prefix("White"), rest.strip_prefix("Black")) {
            (Some(n), _) => (true, n),
            (_, Some(n)) => (false, n),
            _ => {
                b.ctx.fail(
                    &entry,
                    "unknown key (expected mobilityRegionWhite<Piece> or ...Black<Piece>)",
                );
                continue;
            }
        };
        let Some(piece) = piece_by_fsf_name(b, name) else {
            b.ctx
                .fail(&entry, format!("no piece named `{name}` in this variant"));
            continue;
        };
        let (f, r) = (b.files, b.ranks);
        let set = match values::squares(&entry.value, f, r) {
            Ok(s) => s,
            Err(msg) => {
                b.ctx.fail(&entry, msg);
                continue;
            }
        };
        let zone_name = format!("mobility{name}");
        // The side the key does not name keeps the region it had (FSF sets one colour's
        // region: `[crowdedxiangqi:xiangqi]` moves Black's palace and keeps White's).
        let all = SquareSet::ranks(f, 0, r - 1);
        let (old_white, old_black) = match b.pieces[piece as usize].confined {
            Some(z) => (
                b.zones.list[z as usize].white,
                b.zones.list[z as usize].black,
            ),
            None => (all, all),
        };
        let zone = b
            .zones
            .index(&zone_name)
            .unwrap_or_else(|| b.zones.add(&zone_name, old_white, old_black));
        let z = &mut b.zones.list[zone as usize];
        if white {
            z.white = set
        } else {
            z.black = set
        }
        confine(b, piece, zone, true);
        // A promoted form that stands for this piece (chak's `promotedPieceType = p:w`) is
        // that piece in FSF, region included.
        let symbol = b.defs[piece as usize].symbol;
        let stand_ins: Vec<usize> = (0..b.defs.len())
            .filter(|&i| b.defs[i].stands_for == Some(symbol))
            .collect();
        for i in stand_ins {
            confine(b, i as PieceId, zone, true);
        }
    }
}

/// FSF writes piece names capitalised in `mobilityRegion` keys (`King`, `CustomPiece1`).
fn piece_by_fsf_name(b: &Build, name: &str) -> Option<PieceId> {
    b.defs
        .iter()
        .position(|d| {
            let mut c = d.name.chars();
            c.next()
                .is_some_and(|f| f.to_ascii_uppercase().to_string() + c.as_str() == name)
        })
        .map(|i| i as PieceId)
}

/// FSF's `immobilityIllegal`: squares where a piece could never move again are barred.
/// With `promotionOnEntry` the same squares are kept as `stuck_squares`, where promotion is
/// allowed (computed only then: every built-in variant is compiled at start-up).
fn immobility(b: &mut Build, on_entry: bool) {
    let barred = b.ctx.flag("immobilityIllegal", false);
    if !barred && !on_entry {
        return;
    }
    let (f, r) = (b.files, b.ranks);
    for p in &mut b.pieces {
        p.stuck_squares = dead_squares(&p.moves, f, r);
        if barred {
            p.dead_squares = p.stuck_squares;
        }
    }
}

/// A royal type must exist unless extinction or bare-king rules decide the game, and each
/// side must start with a royal unless leave-behind pieces can create one later.
fn check_royals(b: &mut Build, end: &GameEnd, info: Option<&super::fen::FenInfo>, drops: bool) {
    let royal: Vec<PieceId> = (0..b.pieces.len() as PieceId)
        .filter(|&p| b.pieces[p as usize].royal)
        .collect();
    if royal.is_empty() {
        // A game without royals (FSF's `king = -`) needs another way to be won; material
        // counting decides the stalemate's draw (capturethequeen: draw odds for Black).
        let decided = !end.extinction_types.is_empty()
            || end.bare_king_loses
            || end.flag.is_some()
            || end.connect.is_some()
            || end.stalemate != Outcome::Draw
            || end.stalemate_piece_count
            || end.material_counting.is_some();
        if !decided {
            b.ctx.fail_section(
                "king",
                "no royal piece and no other way to win: define `king`, extinction, flag or \
                 connect rules, a stalemate value or material counting",
            );
        }
        return;
    }
    let created = b
        .pieces
        .iter()
        .any(|p| p.leaves_behind.is_some_and(|l| royal.contains(&l)));
    let Some(info) = info else { return };
    if created || !end.extinction_types.is_empty() {
        return;
    }
    for (white, side) in [(true, "White"), (false, "Black")] {
        let has = info
            .pieces
            .iter()
            .any(|(s, w, _)| *w == white && is_royal(b, *s, &royal));
        // A royal in hand is dropped in the set-up phase (placement, sittuyin).
        let in_hand =
            drops && (info.hand.iter()).any(|(s, w)| *w == white && is_royal(b, *s, &royal));
        if !has && !in_hand {
            let msg = format!("bad start FEN: {side} has no royal piece");
            match b.ctx.take("startFen") {
                Some(e) => b.ctx.fail(&e, msg),
                None => b.ctx.fail_section("startFen", msg),
            }
        }
    }
}

/// FSF makes extinction men (and a royal man that may promote into one) pseudo-royal only
/// while a side has at most `extinctionPieceCount` + 1 of them; Locust makes every one royal
/// under `royalty = absolute`. The two agree while no side starts with more. With a count
/// of 0 and more men than one, FSF's rule is `royalty = last` wherever a side's royal men
/// are all of one type for good (`[maharajah2]`'s two maharajahs, `[stardust]`'s four
/// pawns), which is chosen then; any other start with more is refused unless the section
/// chose a `royalty` itself.
fn check_pseudo_royal_count(b: &mut Build, end: &mut GameEnd, info: Option<&super::fen::FenInfo>) {
    let Some(info) = info else { return };
    if end.royalty != Royalty::Absolute || b.ctx.peek("royalty").is_some() {
        return;
    }
    let Some(entry) = b.ctx.take("extinctionPseudoRoyal") else {
        return;
    };
    if entry.value != "true" {
        return;
    }
    let kept = b.ctx.peek("extinctionPieceCount");
    let kept = kept
        .and_then(|v| values::integer(v, MAX_COUNTER).ok())
        .unwrap_or(0);
    let more = [true, false].into_iter().any(|white| {
        let count = (info.pieces.iter())
            .filter(|(s, w, _)| {
                *w == white
                    && b.id(*s).is_some_and(|p| {
                        let mut types = end.extinction_types.iter();
                        types.any(|&t| super::stand_ins::may_become(b, p, t))
                    })
            })
            .count();
        count as u32 > kept + 1
    });
    if !more {
        return;
    }
    match last_royal_rule(b, info) {
        Ok(()) if kept == 0 => end.royalty = Royalty::Last,
        Ok(()) => b.ctx.fail(
            &entry,
            "a side starts with more pseudo-royal men than extinctionPieceCount + 1: \
             Fairy-Stockfish makes them royal only from that count down, which Locust \
             models for a count of 0 only (`royalty = last`)",
        ),
        Err(why) => b.ctx.fail(
            &entry,
            format!(
                "a side starts with more pseudo-royal men than extinctionPieceCount + 1, and \
                 {why}: Fairy-Stockfish's rule (royal only from that count down, per type) is \
                 not `royalty = last` there, and Locust does not model it"
            ),
        ),
    }
}

/// `Ok` when FSF's count-0 pseudo-royalty is Locust's `royalty = last`: each side's royal
/// men, on the board and in hand, are of one type, and no man can join them of another
/// type or after the start (no promotion into a royal type, no royal form of a man that is
/// not royal, no drop of a royal type).
fn last_royal_rule(b: &Build, info: &super::fen::FenInfo) -> Result<(), &'static str> {
    let royal = |p: PieceId| b.pieces[p as usize].royal;
    for white in [true, false] {
        let board = (info.pieces.iter())
            .filter(|(_, w, _)| *w == white)
            .map(|(s, _, _)| *s);
        let hand = (info.hand.iter())
            .filter(|(_, w)| *w == white)
            .map(|(s, _)| *s);
        let mut types: Vec<PieceId> = board.chain(hand).filter_map(|s| b.id(s)).collect();
        types.retain(|&p| royal(p));
        types.sort_unstable();
        types.dedup();
        if types.len() > 1 {
            return Err("a side has royal men of two types");
        }
    }
    let joins = |p: &PieceType| {
        p.promotions.iter().any(|&q| royal(q))
            || !p.royal
                && [p.promoted, p.demotes_to]
                    .iter()
                    .flatten()
                    .any(|&q| royal(q))
    };
    if b.pieces.iter().any(joins) {
        return Err("a man may promote into a royal type");
    }
    let royal_in_hand = (info.hand.iter()).any(|(s, _)| b.id(*s).is_some_and(royal));
    let captured_to_hand = b.ctx.peek("capturesToHand") == Some("true");
    if b.ctx.peek("pieceDrops") == Some("true") && (royal_in_hand || captured_to_hand) {
        return Err("a royal type may be dropped");
    }
    Ok(())
}

fn is_royal(b: &Build, s: Symbol, royal: &[PieceId]) -> bool {
    b.id(s).is_some_and(|p| royal.contains(&p))
}
