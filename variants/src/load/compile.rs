//! Turns one resolved INI section into a validated [`Variant`]: board, zones, pieces and
//! their compiled moves, promotion, drops, castling, game end and our extension keys.
//! Defaults follow Fairy-Stockfish's: a section without a parent is orthodox chess rules
//! with no pieces defined.

use super::context::Ctx;
use super::fen;
use super::inherit;
use super::piece_defs::{self, canonical, compile_moves, Def};
use super::pieces::{
    DOUBLE_STEP_BETZA, PAWN_NO_EP_BETZA, REGION_DOUBLE_STEP_BETZA, TRIPLE_STEP_BETZA,
};
use super::rules_keys;
use super::values::{self, Symbol};
use super::zones::Zones;
use crate::rules::TRIPLE_STEP_ZONE;
use std::collections::HashSet;

use crate::error::VariantError;
use crate::geometry::{Coord, SquareSet, MAX_FILES, MAX_RANKS};
use crate::ini::Resolved;
use crate::rules::{Origin, PieceId, PieceType, Variant};
use crate::trajectory::{rights, NodeId, Trajectories};

/// Board size when `maxFile` / `maxRank` are not given.
const DEFAULT_SIZE: u32 = 8;
/// Centipawns per average square reached on an empty board, for estimated values.
const VALUE_PER_MOBILITY: f64 = 40.0;

/// The variant being built plus what later steps need to know about its pieces.
pub struct Build<'a, 'b> {
    /// Key access and errors.
    pub ctx: &'b mut Ctx<'a>,
    /// Files and ranks.
    pub files: u8,
    /// Ranks.
    pub ranks: u8,
    /// Zones so far.
    pub zones: Zones,
    /// Definitions, parallel to `pieces`.
    pub defs: Vec<Def>,
    /// Compiled piece types.
    pub pieces: Vec<PieceType>,
}

impl Build<'_, '_> {
    /// The piece id for a symbol.
    pub fn id(&self, s: Symbol) -> Option<PieceId> {
        self.defs
            .iter()
            .position(|d| d.symbol == s)
            .map(|i| i as PieceId)
    }

    /// The id of the piece defined with a predefined key (`pawn`, `king`).
    pub fn id_named(&self, name: &str) -> Option<PieceId> {
        self.defs
            .iter()
            .position(|d| d.name == name)
            .map(|i| i as PieceId)
    }

    /// Resolves a symbol set from a key, `*` meaning every piece. Unknown letters are errors.
    pub fn id_set(&mut self, key: &str) -> Option<Vec<PieceId>> {
        let entry = self.ctx.take(key)?;
        let set = match values::symbol_set(&entry.value) {
            Ok(Some(set)) => set,
            Ok(None) => return Some((0..self.pieces.len() as PieceId).collect()),
            Err(msg) => {
                self.ctx.fail(&entry, msg);
                return None;
            }
        };
        let mut ids = Vec::new();
        for s in set {
            match self.id(s) {
                Some(id) => ids.push(id),
                None => self.ctx.fail(&entry, format!("unknown piece `{s}`")),
            }
        }
        Some(ids)
    }

    /// Squares from a key, or `default`.
    pub fn squares(&mut self, key: &str, default: SquareSet) -> SquareSet {
        let (f, r) = (self.files, self.ranks);
        self.ctx
            .parsed(key, |v| values::squares(v, f, r))
            .unwrap_or(default)
    }

    /// Largest range for unlimited XBetza riders on this board.
    pub fn max_range(&self) -> u8 {
        self.files.max(self.ranks) - 1
    }
}

/// Compiles a resolved section; `origin` says where it came from.
pub fn compile(resolved: &Resolved, origin: Origin) -> Result<Variant, Vec<VariantError>> {
    let (resolved, stale) = inherit::follow_types(resolved);
    let mut ctx = Ctx::new(&resolved);
    for s in stale {
        let msg = format!(
            "`{}` names a piece type that this section removes; Fairy-Stockfish keeps the \
             type there without men, which Locust does not model: the variant is refused",
            s.letter
        );
        ctx.fail(&s.entry, msg);
    }
    let (files, ranks) = board_size(&mut ctx);
    let zones = Zones::read(&mut ctx, files, ranks);
    let defs = piece_defs::collect(&mut ctx);
    let mut b = Build {
        ctx: &mut ctx,
        files,
        ranks,
        zones,
        defs,
        pieces: Vec::new(),
    };
    compile_pieces(&mut b);
    let variant = rules_keys::finish(&mut b, origin);
    ctx.report_unknown();
    match variant {
        Some(v) if ctx.errors.is_empty() => Ok(v),
        _ => Err(ctx.errors),
    }
}

fn board_size(ctx: &mut Ctx) -> (u8, u8) {
    let files = ctx.parsed("maxFile", values::file).unwrap_or(DEFAULT_SIZE);
    let ranks = ctx.parsed("maxRank", values::rank).unwrap_or(DEFAULT_SIZE);
    let files = clamp_size(ctx, "maxFile", files, MAX_FILES);
    let ranks = clamp_size(ctx, "maxRank", ranks, MAX_RANKS);
    (files, ranks)
}

fn clamp_size(ctx: &mut Ctx, key: &str, n: u32, max: u8) -> u8 {
    if n > max as u32 {
        let msg = format!("board too large: {n} (at most {max})");
        match ctx.take(key) {
            Some(e) => ctx.fail(&e, msg),
            None => ctx.fail_section(key, msg),
        }
        return max;
    }
    n as u8
}

/// True when pawns can only come by drops (drops on, no pawn on the start board: screen
/// chess): a pawn dropped on the double-step rank stands where none started, so the `i`
/// form would deny it FSF's double step from the region.
fn pawns_only_dropped(b: &Build) -> bool {
    let Some(pawn) = b.defs.iter().find(|d| piece_defs::is_predefined(d, "pawn")) else {
        return false;
    };
    let board = b
        .ctx
        .peek("startFen")
        .and_then(|f| f.split(['[', ' ']).next());
    let letter = pawn.symbol.letter;
    b.ctx.peek("pieceDrops") == Some("true")
        && board.is_some_and(|f| !f.contains(letter) && !f.contains(letter.to_ascii_lowercase()))
}

/// Compiles every definition; the orthodox pawn gets its double step from `doubleStep`.
fn compile_pieces(b: &mut Build) {
    let double_step = b.ctx.flag("doubleStep", true);
    // FSF's double step is allowed anywhere in its region, moved before or not. On one rank
    // where the pawns start (rank 2, grand's rank 3) only an unmoved pawn can stand, so the
    // compiled `i` step is the same game; a region over several ranks (semitorpedo's
    // `*2 *3`) drops the `i`. (A one-rank region above the pawns' start would still need it
    // dropped; no known variant has one.)
    let ds_white = b.squares("doubleStepRegionWhite", SquareSet::ranks(b.files, 1, 1));
    let top = b.ranks.saturating_sub(2);
    let ds_black = b.squares("doubleStepRegionBlack", SquareSet::ranks(b.files, top, top));
    let ranks_of = |s: &SquareSet| s.iter().map(|c| c.rank).collect::<HashSet<u8>>().len();
    let ds_betza = match ranks_of(&ds_white) > 1 || ranks_of(&ds_black) > 1 || pawns_only_dropped(b)
    {
        true => REGION_DOUBLE_STEP_BETZA,
        false => DOUBLE_STEP_BETZA,
    };
    // FSF's triple step (`tripleStepRegion*`, wildebeest) is the pawn's alone.
    let triple = (
        b.squares("tripleStepRegionWhite", SquareSet::default()),
        b.squares("tripleStepRegionBlack", SquareSet::default()),
    );
    let defs = b.defs.clone();
    for d in &defs {
        let is_pawn = piece_defs::is_predefined(d, "pawn");
        let base = if is_pawn && !double_step {
            PAWN_NO_EP_BETZA
        } else {
            &d.betza
        };
        let mut moves = compile_moves(b.ctx, d, base, b.max_range()).unwrap_or_default();
        let mut text = base.to_string();
        if is_pawn && double_step {
            let zone = b
                .zones
                .add(crate::rules::DOUBLE_STEP_ZONE, ds_white, ds_black);
            if let Some(mut extra) = compile_moves(b.ctx, d, ds_betza, b.max_range()) {
                double_step_sets_ep(&mut extra);
                append(&mut moves, &extra, Some(zone), None);
                text.push_str(ds_betza);
            }
        }
        if d.name.starts_with(piece_defs::CUSTOM_PIECE) && moves.has_initial() {
            let zone = b
                .zones
                .add(crate::rules::DOUBLE_STEP_ZONE, ds_white, ds_black);
            initial_from_region(&mut moves, zone);
        }
        if is_pawn && (!triple.0.is_empty() || !triple.1.is_empty()) {
            let zone = b.zones.add(TRIPLE_STEP_ZONE, triple.0, triple.1);
            if let Some(mut extra) = compile_moves(b.ctx, d, TRIPLE_STEP_BETZA, b.max_range()) {
                double_step_sets_ep(&mut extra);
                append(&mut moves, &extra, Some(zone), None);
                text.push_str(TRIPLE_STEP_BETZA);
            }
        }
        let mut piece = piece_defs::piece_type(d, canonical(&text), moves);
        if piece.value == 0 {
            piece.value = estimate_value(&piece.moves, b.files, b.ranks);
        }
        b.pieces.push(piece);
    }
}

/// FSF's `i` on a `customPieceN` means "while standing in `doubleStepRegion`", moved before
/// or not (a pawn that steps sideways along its start rank may still double-step): such
/// roots become region moves instead of moves of an unmoved man.
fn initial_from_region(moves: &mut Trajectories, zone: u8) {
    for &r in &moves.roots {
        let root = &mut moves.nodes[r as usize];
        if root.rights & rights::INITIAL != 0 {
            root.rights &= !rights::INITIAL;
            root.from_zone = Some(zone);
        }
    }
}

/// The double step leaves its passed square open to en passant wherever it starts: the
/// region form (`fmnD`, no `i`) is not marked by the XBetza compiler, which marks only
/// initial moves (torpedo: a pawn that double-steps from its fifth rank may be taken e.p.).
fn double_step_sets_ep(moves: &mut Trajectories) {
    for node in moves.nodes.iter_mut() {
        if node.parent.is_some() && node.rights & rights::MOVE != 0 {
            node.rights |= rights::SETS_EP;
        }
    }
}

/// Appends `src`'s paths to `dst`; roots get `from_zone`, every node gets `zone` if given.
pub fn append(dst: &mut Trajectories, src: &Trajectories, from_zone: Option<u8>, zone: Option<u8>) {
    let offset = dst.nodes.len() as NodeId;
    for node in &src.nodes {
        let mut n = node.clone();
        n.parent = n.parent.map(|p| p + offset);
        n.on_empty.iter_mut().for_each(|c| *c += offset);
        n.on_occupied.iter_mut().for_each(|c| *c += offset);
        if zone.is_some() {
            n.zone = zone;
        }
        dst.nodes.push(n);
    }
    for &r in &src.roots {
        dst.nodes[(r + offset) as usize].from_zone = from_zone;
        dst.roots.push(r + offset);
    }
    if dst.castling.is_none() {
        dst.castling = src.castling;
    }
}

/// Rough value from the average number of squares reached on an empty board. A piece with
/// no move there (a hopper, which needs a man to jump over) is measured on boards strewn
/// with enemy men instead, scaled by what a rook keeps on the same boards, so that it is
/// valued on the rook's scale rather than at nothing.
fn estimate_value(moves: &Trajectories, files: u8, ranks: u8) -> i32 {
    let (f, r) = (files as i32, ranks as i32);
    let mut average = average_targets(moves, f, r, VALUE_SAMPLES, &|_, _| None);
    if average == 0.0 {
        // Every square is sampled here: the screens make the count uneven from square to
        // square, and few pieces need it.
        let all = f.max(r);
        let (mut piece, mut rook) = (0.0, 0.0);
        for seed in 0..SCREEN_BOARDS {
            let screen = move |a: i32, b: i32| screened(a, b, seed).then_some(false);
            piece += average_targets(moves, f, r, all, &screen);
            rook += average_rook_targets(f, r, all, &|a, b| screened(a, b, seed));
        }
        let rook_empty = average_rook_targets(f, r, all, &|_, _| false);
        average = piece * rook_empty / f64::max(rook, 1.0);
    }
    (average * VALUE_PER_MOBILITY).round() as i32
}

/// Boards strewn with men that hoppers are measured on.
const SCREEN_BOARDS: u64 = 8;

/// True when a man stands on (file, rank) of screened board `seed`: one square in eight, by a
/// hash, so that no file, rank or diagonal is regularly full or empty.
fn screened(file: i32, rank: i32, seed: u64) -> bool {
    let key = ((file as u64) << 8 | rank as u64) ^ (seed << 16);
    key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 61 == 0
}

/// The sample squares of [`estimate_value`]: a grid of at most `n` x `n` squares, edges
/// included, standing for the whole board (walking every square of a 16x16 board for every
/// Tenjiku piece made loading the built-ins a noticeable part of start-up).
fn samples(f: i32, r: i32, n: i32) -> impl Iterator<Item = (i32, i32)> {
    let step = move |len: i32| ((len + n - 1) / n).max(1) as usize;
    (0..f)
        .step_by(step(f))
        .flat_map(move |file| (0..r).step_by(step(r)).map(move |rank| (file, rank)))
}

/// Average number of squares a piece's moves end on from the sample squares.
fn average_targets(
    moves: &Trajectories,
    f: i32,
    r: i32,
    n: i32,
    occupant: &dyn Fn(i32, i32) -> Option<bool>,
) -> f64 {
    let (mut total, mut squares) = (0usize, 0usize);
    for from in samples(f, r, n) {
        total += moves.targets(from, f, r, occupant).len();
        squares += 1;
    }
    total as f64 / squares.max(1) as f64
}

/// The same average for a rook among the men `occupied` places (each one capturable).
fn average_rook_targets(f: i32, r: i32, n: i32, occupied: &dyn Fn(i32, i32) -> bool) -> f64 {
    let (mut total, mut squares) = (0usize, 0usize);
    for (file, rank) in samples(f, r, n) {
        for (df, dr) in [(1, 0), (-1, 0), (0, 1), (0, -1)] {
            let (mut a, mut b) = (file + df, rank + dr);
            while a >= 0 && b >= 0 && a < f && b < r {
                total += 1;
                if occupied(a, b) {
                    break;
                }
                (a, b) = (a + df, b + dr);
            }
        }
        squares += 1;
    }
    total as f64 / squares.max(1) as f64
}

/// Squares per side of the grid [`estimate_value`] samples.
const VALUE_SAMPLES: i32 = 4;

/// Checks the start FEN; returns White's and Black's pieces by id on success.
pub fn check_start_fen(
    b: &mut Build,
    fen_text: &str,
    check_counting: bool,
) -> Option<fen::FenInfo> {
    let known = |s: Symbol| b.defs.iter().any(|d| d.symbol == s);
    let result = fen::check(fen_text, b.files, b.ranks, &known, check_counting);
    match result {
        Ok(info) => Some(info),
        Err(msg) => {
            let msg = format!("bad start FEN: {msg}");
            match b.ctx.take("startFen") {
                Some(e) => b.ctx.fail(&e, msg),
                None => b.ctx.fail_section("startFen", msg),
            }
            None
        }
    }
}

/// Squares (White's view) from which a piece has no move at all on an empty board. A pure
/// hopper (no move from any square of an empty board, cannonshogi's `pB`) is judged on a
/// board full of enemy men instead, where it is stuck only where it cannot hop at all.
pub fn dead_squares(moves: &Trajectories, files: u8, ranks: u8) -> SquareSet {
    let mut dead = SquareSet::EMPTY;
    if moves.roots.is_empty() {
        return dead;
    }
    let (f, r) = (files as i32, ranks as i32);
    let squares = || (0..files).flat_map(|file| (0..ranks).map(move |rank| (file, rank)));
    let on_empty = |(a, b): (u8, u8)| moves.can_move_from((a as i32, b as i32), f, r);
    let hopper = !squares().any(on_empty);
    for (file, rank) in squares() {
        let from = (file as i32, rank as i32);
        let live = match hopper {
            false => on_empty((file, rank)),
            true => !moves.targets(from, f, r, &|_, _| Some(false)).is_empty(),
        };
        if !live {
            dead.insert(Coord::new(file, rank));
        }
    }
    dead
}
