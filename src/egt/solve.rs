//! One table and its moves: the men, the value bytes, legal moves (successors) and un-moves
//! (predecessors) of a position, its seed value, and the one-ply check of a solved table.
//! The retrograde driver lives in `propagate`.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Acquire, Ordering::Relaxed};
use std::sync::{Arc, OnceLock};

use variants::rules::Royalty;
use variants::PieceId;

use super::board::{bit, Bits, MAX_MAPS};
use super::index::{Indexer, Partial};
use super::material::{Material, MAX_MEN};
use super::rules::Rules;
use super::value::{
    better, from_mover, is_loss, is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES,
};
use super::word::{zeroed_bytes, zeroed_words};

/// Distance metric of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    /// Distance to mate.
    Dtm,
    /// Distance to mate or conversion (the converting move counts).
    Dtc,
}

/// A conversion target: the sub-table, and for each of its men the man of this table whose
/// square it takes.
#[derive(Clone, Debug)]
pub struct Conv {
    /// The sub-table.
    pub table: Arc<Table>,
    /// `order[k]`: this table's man standing where the sub-table's man `k` stands.
    pub order: Vec<u8>,
    /// When the sub-table is the colour mirror of the material reached (see `mirror`): the
    /// board map to its squares; its side to move is then the other.
    pub flip: Option<Arc<[u8]>>,
}

impl Conv {
    /// The squares of the sub-table's men, in its order, from the squares `next` of the
    /// converting table's men after the conversion.
    #[inline]
    fn squares(&self, next: &[u8; MAX_MEN]) -> [u8; MAX_MEN] {
        let mut sub = [0u8; MAX_MEN];
        for (k, &from) in self.order.iter().enumerate() {
            sub[k] = next[from as usize];
        }
        if let Some(flip) = &self.flip {
            for s in &mut sub[..self.order.len()] {
                *s = flip[*s as usize];
            }
        }
        sub
    }

    /// The sub-table's side to move for `stm` of the material reached.
    #[inline]
    fn side(&self, stm: usize) -> usize {
        if self.flip.is_some() {
            1 - stm
        } else {
            stm
        }
    }
}

/// A conversion's sub-table lookup with one man's square left open (see
/// [`Table::conv_partial`]).
#[derive(Clone, Copy, Debug)]
pub(super) struct ConvPartial<'a> {
    table: &'a Table,
    at: Partial<'a>,
    metric: Metric,
    /// The conversion's, when it reads a colour mirror.
    flip: Option<&'a [u8]>,
}

impl ConvPartial<'_> {
    /// The code, for `opp` to move, with the open man on `sq`: what
    /// [`Table::conv_code`] gives for the whole position.
    #[inline]
    pub(super) fn code(&self, opp: usize, sq: u8) -> u8 {
        let (stm, sq) = match self.flip {
            Some(flip) => (1 - opp, flip[sq as usize]),
            None => (opp, sq),
        };
        let code = match self.at.complete(sq) {
            Some(i) => self.table.value(stm, i),
            None => ILLEGAL,
        };
        through(self.metric, code)
    }

    /// Calls `visit(k, code)` with [`ConvPartial::code`] for `opp` to move and the open man
    /// on each square `sq` of `squares` (with its key `k`), skipping `ILLEGAL`: the common
    /// case (the open man not the sub-table's first, the table solved; a colour mirror
    /// too, which KPvKP's promotions of the black pawn read) in a loop of its own, without
    /// the per-square tests.
    #[inline]
    pub(super) fn codes(
        &self,
        opp: usize,
        squares: impl Iterator<Item = (usize, u8)>,
        mut visit: impl FnMut(usize, u8),
    ) {
        // Read through a colour mirror: the other side to move, the squares flipped.
        let stm = if self.flip.is_some() { 1 - opp } else { opp };
        let solved = self.table.open[stm].is_empty();
        match self.at.plain() {
            Some((map, local, stride, base)) if solved => {
                let values = &self.table.values[stm];
                for (k, sq) in squares {
                    let sq = self.flip.map_or(sq, |flip| flip[sq as usize]);
                    let local_square = local[map[sq as usize] as usize];
                    if local_square == Partial::OUTSIDE {
                        continue;
                    }
                    let code = values[base + local_square as usize * stride].load(Acquire);
                    if code != ILLEGAL {
                        visit(k, through(self.metric, code));
                    }
                }
            }
            _ => {
                for (k, sq) in squares {
                    let code = self.code(opp, sq);
                    if code != ILLEGAL {
                        visit(k, code);
                    }
                }
            }
        }
    }
}

/// A sub-table's code as the converting table sees it: under DTC a conversion ends the
/// count, so only win, draw or loss passes through.
#[inline]
fn through(metric: Metric, code: u8) -> u8 {
    match metric {
        Metric::Dtm => code,
        Metric::Dtc if is_win(code) => win(0),
        Metric::Dtc if is_loss(code) => loss(0),
        Metric::Dtc => code,
    }
}

/// What the bare-king rule makes of a position with a side to move, in a table where it
/// decides positions by itself (see [`Table::bare`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Bare {
    /// The other side holds its royal alone: won at once.
    Won,
    /// The side to move holds its royal alone and the other more than one man besides its
    /// own: lost at once.
    Lost,
    /// As `Lost`, but the other side has one man besides its royal: a draw where the side
    /// to move can take it (and bare the other), else lost.
    LostUnlessBares,
    /// Both sides hold their royals alone.
    Drawn,
}

/// A solved (or solving) table.
#[derive(Debug)]
pub struct Table {
    /// Its men, in the order of the index: the material's canonical order, or with the
    /// men that promote first (see [`Table::perm`]).
    pub material: Material,
    /// `perm[j]`: the man of the canonical (sorted) material that is this table's man `j`,
    /// when the table holds its men in another order (a pawn table of the row solver, its
    /// pawns first: see `layout`); `None` when the orders agree. Positions from outside
    /// (a probe, a preset) come in the canonical order: see [`Table::code_sorted`].
    pub perm: Option<Vec<u8>>,
    /// Canonical name.
    pub name: String,
    /// The indexer.
    pub index: Indexer,
    /// Codes per side to move (see `value`). While solving, the byte of an undecided
    /// position holds its escape counter instead (see `escapes`); read through
    /// [`Table::value`].
    pub values: [Vec<AtomicU8>; 2],
    /// While solving: one bit per position and side to move, set while the position is
    /// undecided and its byte is an escape counter. Empty once solved.
    pub(crate) open: [Vec<AtomicU64>; 2],
    /// The metric.
    pub metric: Metric,
    /// Colour of each man.
    pub colour: Vec<u8>,
    /// Piece type of each man.
    pub piece: Vec<PieceId>,
    /// Index of each side's royal man (its first, where it has several).
    pub royal: [usize; 2],
    /// Each side's royal men as bits (one bit per man): more than one where the variant
    /// lets a side keep several (spartan's two kings).
    pub royals: [u32; 2],
    /// Per man, the types it may promote to here: its piece's choices less those its side
    /// holds as many of as the variant's promotion limit allows (see `Rules::promo_cap`).
    pub promos: Vec<Vec<PieceId>>,
    /// Conversion targets by [`Table::conv_key`]; empty in a table read from the cache
    /// (only a solve reads them).
    pub convs: Vec<Option<Conv>>,
    /// The rules.
    pub rules: Arc<Rules>,
    /// Positions without a legal move (mated or stalemated), one bit per entry and side to
    /// move, when the solver recorded them (the row solver's seed finds them for free); the
    /// statistics look for a move otherwise.
    pub(crate) stuck: OnceLock<[Vec<u64>; 2]>,
    /// The statistics' counts of the entries per side to move (before the symmetry's fixed
    /// placements, see `report::stats`), when the solver counted them as it went: a pawn
    /// table's slices each as it is done, while its values are in the cache.
    pub(crate) counted: OnceLock<[super::counts::SideStats; 2]>,
    /// Per side to move, whether it loses in some position: known once the table is read
    /// from its file (see `cache::load`), which lets a conversion into it that cannot win
    /// be skipped where the mover already draws (see [`Table::conv_may_win`]).
    pub(crate) losses: OnceLock<[bool; 2]>,
}

/// Work a solve gives the threads it has nothing else for, called with a test of which
/// ranges of positions hold final values: the builder's writes the parts of the table's
/// cache file that are final, side by side (see `cache::Writer`), so that the solver knows
/// nothing of the file.
pub type IdleWork<'a> = &'a (dyn Fn(&dyn Fn(std::ops::Range<usize>) -> bool) + Sync);

/// Which moves a generation reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every legal move.
    All,
    /// Moves that stay in the table (no capture, no promotion).
    Quiet,
    /// Captures and promotions.
    Conversions,
    /// Every legal move, without reading the codes of those inside the table (given as
    /// `DRAW`): enough to count them, and no random memory access.
    Count,
    /// [`Mode::Quiet`] without reading the codes (given as `DRAW`).
    QuietCount,
    /// Every legal move, no code read, conversions not looked up either (all given as
    /// `DRAW`), men tried last first: to learn whether there is a legal move at all, the
    /// royal (first of its side, whose moves always need the legality test) comes last.
    Any,
}

impl Mode {
    /// True when captures and promotions are left out.
    fn quiet(self) -> bool {
        matches!(self, Mode::Quiet | Mode::QuietCount)
    }

    /// True when the codes of moves inside the table are not read.
    fn blind(self) -> bool {
        matches!(self, Mode::Count | Mode::QuietCount | Mode::Any)
    }
}

/// A move's successor: its code from the opponent's side, and whether it stays in this table.
#[derive(Clone, Copy, Debug)]
pub struct Succ {
    /// Code of the position after the move (opponent to move).
    pub code: u8,
    /// False for captures and promotions.
    pub in_table: bool,
    /// The successor's index in this table (`usize::MAX` for conversions).
    pub index: usize,
}

/// Open bits for a table of `size` positions per side, all clear (see [`Table::open`]).
pub fn open_bits(size: usize) -> [Vec<AtomicU64>; 2] {
    [0, 1].map(|_| zeroed_words(size / 64 + 1))
}

/// The indices storing one position, by map (see [`Table::stored_images`]).
struct Images {
    maps: [u8; MAX_MAPS],
    index: [usize; MAX_MAPS],
    len: usize,
}

/// Why a build failed.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SolveError {
    /// A distance beyond one byte.
    #[error("{0}: a distance exceeds {MAX_PLIES} plies")]
    TooDeep(String),
    /// En passant outside the pawn-level solver (see [`Table::en_passant`]).
    #[error("{0}: en passant is solved by pawn levels only: not with --seed or --null-move")]
    EnPassant(String),
}

impl Table {
    /// Number of men.
    pub fn men(&self) -> usize {
        self.colour.len()
    }

    /// The same table unsolved, beside this one (same men, index, rules and sub-tables):
    /// values zero and every position's undecided bit set, for the oracles that solve a
    /// table again another way and compare.
    pub fn unsolved_copy(&self) -> Table {
        let zero = || zeroed_bytes(self.index.size);
        Table {
            material: self.material.clone(),
            perm: self.perm.clone(),
            name: self.name.clone(),
            index: self.index.clone(),
            values: [zero(), zero()],
            open: open_bits(self.index.size),
            metric: self.metric,
            colour: self.colour.clone(),
            piece: self.piece.clone(),
            royal: self.royal,
            royals: self.royals,
            promos: self.promos.clone(),
            convs: self.convs.clone(),
            rules: self.rules.clone(),
            stuck: OnceLock::new(),
            counted: OnceLock::new(),
            losses: OnceLock::new(),
        }
    }

    /// The positions without a legal move, one bit per entry and side to move, when the
    /// solver recorded them (see the field).
    pub fn stuck(&self) -> Option<&[Vec<u64>; 2]> {
        self.stuck.get()
    }

    /// The statistics' counts the solver made as it went, if it did (see the field).
    pub fn counted(&self) -> Option<&[super::counts::SideStats; 2]> {
        self.counted.get()
    }

    /// Per side to move, whether it loses in some position, once known (see the field).
    pub fn losses(&self) -> Option<&[bool; 2]> {
        self.losses.get()
    }

    /// The key of a conversion: a victim (or none) and a promotion (man, piece) or none.
    pub fn conv_key(&self, victim: Option<usize>, promo: Option<(usize, PieceId)>) -> usize {
        self.conv_key_of(victim.map_or(0, |i| 1 << i), promo)
    }

    /// False when conversion `(victim, promo)`, made by side `mover`, leads only to
    /// positions the mover does not win: the sub-table's side to move there loses in none
    /// (true when that is not known, or there is no sub-table).
    pub fn conv_may_win(
        &self,
        victim: Option<usize>,
        promo: Option<(usize, PieceId)>,
        mover: usize,
    ) -> bool {
        match self.convs.get(self.conv_key(victim, promo)) {
            Some(Some(conv)) => conv.table.may_lose(conv.side(1 - mover)),
            _ => true,
        }
    }

    /// False when side `stm` to move is known to lose in no position of the table.
    pub fn may_lose(&self, stm: usize) -> bool {
        self.losses.get().is_none_or(|l| l[stm])
    }

    /// [`Table::conv_key`] for any men taken (bit `i` for man `i`): keys of one victim or
    /// none come first; several (a locust's double capture) follow, in tables that have
    /// room for them (see [`conv_slots`]).
    pub fn conv_key_of(&self, victims: u32, promo: Option<(usize, PieceId)>) -> usize {
        let men = self.men();
        let np = self.rules.variant.pieces.len();
        let victim_index = match victims.count_ones() {
            0 => 0,
            1 => victims.trailing_zeros() as usize + 1,
            _ => men + victims as usize,
        };
        let promo_index = promo.map_or(0, |(i, pc)| 1 + i * np + pc as usize);
        victim_index * (men * np + 1) + promo_index
    }

    /// True when some man of `stm` has a locust capture, burns or passes (see
    /// [`PieceMoves::irregular`](super::paths::PieceMoves::irregular)).
    pub fn irregular(&self, stm: usize) -> bool {
        self.rules.irregular[stm]
            && (0..self.men()).any(|i| {
                self.colour[i] as usize == stm
                    && self.rules.moves[stm][self.piece[i] as usize].irregular
            })
    }

    /// The material in its canonical (sorted) order: the key the table is filed under.
    pub fn key(&self) -> Material {
        Material::new(self.material.men.clone())
    }

    /// The squares of this table's men, in its order, from the squares `sq` of the men of
    /// the canonical material (see [`Table::perm`]).
    #[inline]
    pub fn from_sorted(&self, sq: &[u8]) -> [u8; MAX_MEN] {
        let mut out = [0u8; MAX_MEN];
        match &self.perm {
            Some(perm) => {
                for (o, &k) in out.iter_mut().zip(perm) {
                    *o = sq[k as usize];
                }
            }
            None => out[..sq.len()].copy_from_slice(sq),
        }
        out
    }

    /// The squares of the canonical material's men from the squares `sq` of this table's
    /// men (the inverse of [`Table::from_sorted`]).
    #[inline]
    pub fn to_sorted(&self, sq: &[u8]) -> [u8; MAX_MEN] {
        let mut out = [0u8; MAX_MEN];
        match &self.perm {
            Some(perm) => {
                for (&s, &k) in sq.iter().zip(perm) {
                    out[k as usize] = s;
                }
            }
            None => out[..sq.len()].copy_from_slice(sq),
        }
        out
    }

    /// The code of a position given in the canonical material's order (a probe's).
    #[inline]
    pub fn code_sorted(&self, stm: usize, sq: &[u8]) -> u8 {
        self.code(stm, &self.from_sorted(sq)[..sq.len()])
    }

    /// The code of a position of this table (squares in the order of `material`, the
    /// index's: see [`Table::code_sorted`] for the canonical order).
    #[inline]
    pub fn code(&self, stm: usize, sq: &[u8]) -> u8 {
        match self.index.encode(sq) {
            Some(i) => self.value(stm, i),
            None => ILLEGAL,
        }
    }

    /// The code stored at `idx` for `stm` to move (`DRAW` while undecided).
    #[inline]
    pub fn value(&self, stm: usize, idx: usize) -> u8 {
        // The bit first: a position decided by its last escape closing gets its code before
        // its bit is cleared.
        if self.is_open(stm, idx) {
            DRAW
        } else {
            self.values[stm][idx].load(Acquire)
        }
    }

    /// True while the position is undecided and its byte an escape counter.
    #[inline]
    pub fn is_open(&self, stm: usize, idx: usize) -> bool {
        self.open[stm]
            .get(idx / 64)
            .is_some_and(|w| w.load(Acquire) & (1 << (idx % 64)) != 0)
    }

    /// True when a man of colour `by` attacks `target` (a royal of the other side) given the
    /// squares and the men still on the board (`alive` bit mask).
    #[inline]
    pub fn attacked(&self, sq: &[u8], alive: u32, by: usize, target: usize) -> bool {
        let (occ, own) = self.occupancy(sq, alive, by);
        self.attacked_in(sq, alive, by, target, occ, own)
    }

    /// [`Table::attacked`] with the occupancy known: all men `occ`, the attackers' `own`.
    #[inline]
    pub(super) fn attacked_in(
        &self,
        sq: &[u8],
        alive: u32,
        by: usize,
        target: usize,
        occ: Bits,
        own: Bits,
    ) -> bool {
        let n = self.rules.board.n;
        let victim = self.piece[target] as usize;
        let ts = sq[target];
        for (e, &es) in sq.iter().enumerate() {
            if alive & (1 << e) == 0 || self.colour[e] as usize != by {
                continue;
            }
            let piece = self.piece[e] as usize;
            if self.rules.no_capture[piece][victim] {
                continue;
            }
            let pm = &self.rules.moves[by][piece];
            if pm.attacks(n, es, ts).iter().any(|c| c.open(occ, own)) {
                return true;
            }
        }
        false
    }

    /// The squares on the attack lines of `stm`'s enemies to its royal (empty squares and
    /// hop screens of every such line), or every square when the royal is in check: a move
    /// by another man from and to squares outside the result cannot leave the royal
    /// attacked. `occ`: all men, `own`: `stm`'s.
    #[inline]
    pub(super) fn guard(&self, sq: &[u8], stm: usize, occ: Bits, own: Bits) -> Bits {
        if self.several(stm) {
            // Every move is tested (see `Table::exposed`).
            return Bits::ALL;
        }
        let n = self.rules.board.n;
        let target = self.royal[stm];
        let victim = self.piece[target] as usize;
        let ts = sq[target];
        let theirs = occ & !own;
        let mut lines = Bits::EMPTY;
        for (e, &es) in sq.iter().enumerate() {
            if self.colour[e] as usize == stm {
                continue;
            }
            let piece = self.piece[e] as usize;
            if self.rules.no_capture[piece][victim] {
                continue;
            }
            for c in self.rules.moves[1 - stm][piece].attacks(n, es, ts) {
                if c.open(occ, theirs) {
                    return Bits::ALL;
                }
                lines |= c.empty | c.screen_bits();
            }
        }
        lines
    }

    /// True when `stm` might convert: it has a man that may promote, or some capture of a
    /// non-royal enemy is open.
    pub(super) fn may_convert(&self, sq: &[u8], stm: usize) -> bool {
        let all = (1u32 << self.men()) - 1;
        let (occ, own) = self.occupancy(sq, all, stm);
        let n = self.rules.board.n;
        for (i, &s) in sq.iter().enumerate() {
            if self.colour[i] as usize != stm {
                continue;
            }
            let piece = self.piece[i] as usize;
            let pm = &self.rules.moves[stm][piece];
            if !self.rules.promo[stm][piece].choices.is_empty() || pm.irregular {
                return true;
            }
            for (j, &t) in sq.iter().enumerate() {
                if self.colour[j] as usize == stm || self.protected(j) {
                    continue;
                }
                if pm.captures(n, s, t).iter().any(|c| c.open(occ, own)) {
                    return true;
                }
            }
        }
        false
    }

    /// All men's squares and those of `colour`.
    #[inline]
    pub(super) fn occupancy(&self, sq: &[u8], alive: u32, colour: usize) -> (Bits, Bits) {
        let mut occ = Bits::EMPTY;
        let mut own = Bits::EMPTY;
        for (i, &s) in sq.iter().enumerate() {
            if alive & (1 << i) != 0 {
                occ |= bit(s);
                if self.colour[i] as usize == colour {
                    own |= bit(s);
                }
            }
        }
        (occ, own)
    }

    /// True when the position is broken: two men share a square, or `stm` can capture the
    /// opponent's royal.
    pub fn broken(&self, sq: &[u8], stm: usize) -> bool {
        let (mut occ, mut mine) = (Bits::EMPTY, Bits::EMPTY);
        for (i, &s) in sq.iter().enumerate() {
            if occ.has(s) {
                return true;
            }
            occ |= bit(s);
            if self.colour[i] as usize == stm {
                mine |= bit(s);
            }
        }
        let all = (1u32 << self.men()) - 1;
        self.exposed(sq, all, 1 - stm, occ, mine)
    }

    /// True when one of `stm`'s royals is attacked (the engine's check).
    pub fn in_check(&self, sq: &[u8], stm: usize) -> bool {
        let all = (1u32 << self.men()) - 1;
        (0..sq.len())
            .filter(|&r| self.royals[stm] & (1 << r) != 0)
            .any(|r| self.attacked(sq, all, 1 - stm, r))
    }

    /// True when side `colour` keeps more than one royal man.
    #[inline]
    pub(super) fn several(&self, colour: usize) -> bool {
        self.royals[colour].count_ones() > 1
    }

    /// True when man `j` may not be taken: a royal whose loss would end the game (its
    /// side's only one, or any under absolute royalty, where none may stand attacked).
    #[inline]
    pub(super) fn protected(&self, j: usize) -> bool {
        let colour = self.colour[j] as usize;
        self.royals[colour] & (1 << j) != 0
            && (!self.several(colour) || self.rules.variant.end.royalty == Royalty::Absolute)
    }

    /// True when side `colour`'s royals among the men `alive` stand attacked as the variant does
    /// not allow after `colour`'s own move (so a move of `colour` leading there is illegal, and the
    /// position with the other side to move is broken): one royal attacked when it has one;
    /// with several, any of them under absolute royalty, all of them under extinction
    /// royalty (spartan's duple check), none under last-royal royalty. `occ`: all men,
    /// `theirs`: the attackers'.
    #[inline]
    pub(super) fn exposed(
        &self,
        sq: &[u8],
        alive: u32,
        colour: usize,
        occ: Bits,
        theirs: Bits,
    ) -> bool {
        let mine = self.royals[colour] & alive;
        if mine.count_ones() <= 1 {
            let royal = mine.trailing_zeros() as usize;
            return royal < sq.len() && self.attacked_in(sq, alive, 1 - colour, royal, occ, theirs);
        }
        let mut hit = (0..sq.len())
            .filter(|&royal| mine & (1 << royal) != 0)
            .map(|royal| self.attacked_in(sq, alive, 1 - colour, royal, occ, theirs));
        match self.rules.variant.end.royalty {
            Royalty::Absolute => hit.any(|a| a),
            Royalty::Extinction => hit.all(|a| a),
            Royalty::Last => false,
        }
    }

    /// Calls `visit` with the successor of every legal move of `stm`; stops when `visit` returns
    /// false. Returns the number of legal moves seen.
    pub fn successors(&self, sq: &[u8], stm: usize, visit: impl FnMut(Succ) -> bool) -> usize {
        self.successors_at(sq, stm, None, visit)
    }

    /// [`Table::successors`] of the canonical position stored at `base`, when known: moves
    /// of men other than the first then find their successor's index in one step.
    pub fn successors_at(
        &self,
        sq: &[u8],
        stm: usize,
        base: Option<usize>,
        visit: impl FnMut(Succ) -> bool,
    ) -> usize {
        self.moves_of(sq, stm, base, Mode::All, visit)
    }

    /// The legal moves of one kind (see [`Mode`]), as [`Table::successors_at`].
    pub fn moves_of(
        &self,
        sq: &[u8],
        stm: usize,
        base: Option<usize>,
        mode: Mode,
        mut visit: impl FnMut(Succ) -> bool,
    ) -> usize {
        let men = self.men();
        let all = (1u32 << men) - 1;
        let (occ, own) = self.occupancy(sq, all, stm);
        let mut count = 0;
        let mut next = [0u8; MAX_MEN];
        next[..men].copy_from_slice(&sq[..men]);
        let opp = 1 - stm;
        let guard = self.guard(sq, stm, occ, own);
        for k in 0..men {
            let i = if mode == Mode::Any { men - 1 - k } else { k };
            if self.colour[i] as usize != stm {
                continue;
            }
            let piece = self.piece[i] as usize;
            let pm = &self.rules.moves[stm][piece];
            let promo = &self.rules.promo[stm][piece];
            let from = sq[i];
            // Moves that touch no line to the royal, when it is not in check, are legal.
            let guarded = if i == self.royal[stm] {
                Bits::ALL
            } else {
                guard
            };
            let mut seen = Bits::EMPTY;
            for path in &pm.from[from as usize] {
                let to = path.to;
                if pm.burns || path.cond.locust != 0 {
                    let at = (i, guarded, base, mode);
                    if !self
                        .irregular_move(&mut next, stm, at, path, &mut seen, &mut count, &mut visit)
                    {
                        return count;
                    }
                    continue;
                }
                if seen.has(to) || !path.cond.open(occ, own) {
                    continue;
                }
                let Some(victim) = self.landing(sq, i, to, occ, own, path.rights) else {
                    continue;
                };
                let converts = victim.is_some() || promo.may(from, to, false);
                match mode {
                    _ if mode.quiet() && victim.is_some() => continue,
                    Mode::Conversions if !converts => continue,
                    _ => {}
                }
                seen |= bit(to);
                next[i] = to;
                let alive = victim.map_or(all, |j| all & !(1 << j));
                let occ_after = (occ & !bit(from)) | bit(to);
                let theirs = occ & !own & !bit(to);
                let safe = !guarded.meets(bit(from) | bit(to));
                let victims = victim.map_or(0, |j| 1 << j);
                if (safe || !self.exposed(&next[..men], alive, stm, occ_after, theirs))
                    && !self.emit(
                        &next,
                        stm,
                        (i, from, to),
                        (victims, base, mode),
                        promo,
                        &mut count,
                        &mut visit,
                    )
                {
                    return count;
                }
                next[i] = from;
            }
        }
        if stm == 1
            && mode != Mode::Conversions
            && self.rules.game.null_move
            && !self.in_check(sq, stm)
        {
            count += 1;
            let index = self.index.encode(&next[..men]).unwrap_or(usize::MAX);
            visit(Succ {
                code: self.code(opp, &next[..men]),
                in_table: true,
                index,
            });
        }
        count
    }

    /// How man `i`'s path with `rights` may end on `to`: `Some(None)` moving to an empty
    /// square (or back to its own, which it left), `Some(Some(j))` capturing man `j`,
    /// `None` when it may not end there.
    #[inline(always)]
    pub(super) fn landing(
        &self,
        sq: &[u8],
        i: usize,
        to: u8,
        occ: Bits,
        own: Bits,
        rights: u16,
    ) -> Option<Option<usize>> {
        if !occ.has(to) || to == sq[i] {
            (rights & variants::rights::MOVE != 0).then_some(None)
        } else {
            self.victim(sq, i, to, own, rights).map(Some)
        }
    }

    /// The man man `i` would capture on the occupied square `to` by a path with `rights`:
    /// `None` for a friend, a path that cannot capture, a protected man or a royal whose
    /// loss would end the game (see [`Table::protected`]).
    #[inline]
    pub(super) fn victim(
        &self,
        sq: &[u8],
        i: usize,
        to: u8,
        own: Bits,
        rights: u16,
    ) -> Option<usize> {
        if own.has(to) || rights & variants::rights::CAPTURE == 0 {
            return None;
        }
        let j = sq.iter().position(|&x| x == to)?;
        let (piece, victim_piece) = (self.piece[i] as usize, self.piece[j] as usize);
        (!self.rules.no_capture[piece][victim_piece] && !self.protected(j)).then_some(j)
    }

    /// Reports man `i`'s move along `path` if it is legal (`next`: the squares before it,
    /// restored after), as `moves_of` does a plain one, for a locust path or a burner: it
    /// takes every man on its way, the one on its end and, for a burner, every enemy next
    /// to its end; false to stop. A move that takes nobody is reported once per end
    /// (`seen`); one that does may be twice (a lion reaches an igui by two paths), which
    /// leaves the best and worst conversion alike.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn irregular_move(
        &self,
        next: &mut [u8; MAX_MEN],
        stm: usize,
        (i, guarded, base, mode): (usize, Bits, Option<usize>, Mode),
        path: &super::paths::Path,
        seen: &mut Bits,
        count: &mut usize,
        visit: &mut impl FnMut(Succ) -> bool,
    ) -> bool {
        let men_count = self.men();
        let sq = &next[..men_count];
        let (from, to) = (sq[i], path.to);
        let (occ, own) = self.occupancy(sq, (1u32 << men_count) - 1, stm);
        if !path.cond.open(occ, own) {
            return true;
        }
        let Some(end) = self.landing(sq, i, to, occ, own, path.rights) else {
            return true;
        };
        let Some((mut victims, mut gone)) = self.on_the_way(sq, i, &path.cond) else {
            return true;
        };
        if let Some(j) = end {
            (victims, gone) = (victims | 1 << j, gone | bit(to));
        }
        if self.rules.moves[stm][self.piece[i] as usize].burns {
            let Some((men, squares)) = self.burnt(sq, stm, to, victims) else {
                return true;
            };
            (victims, gone) = (victims | men, gone | squares);
        }
        let promo = &self.rules.promo[stm][self.piece[i] as usize];
        match mode {
            _ if mode.quiet() && victims != 0 => return true,
            Mode::Conversions if victims == 0 && !promo.may(from, to, false) => return true,
            _ if victims == 0 && seen.has(to) => return true,
            _ => {}
        }
        if victims == 0 {
            *seen |= bit(to);
        }
        let alive = ((1u32 << men_count) - 1) & !victims;
        let occ_after = (occ & !bit(from) & !gone) | bit(to);
        let theirs = occ & !own & !gone & !bit(to);
        let safe = !guarded.meets(bit(from) | bit(to) | gone);
        next[i] = to;
        let legal = safe || !self.exposed(&next[..men_count], alive, stm, occ_after, theirs);
        let go_on = !legal
            || self.emit(
                next,
                stm,
                (i, from, to),
                (victims, base, mode),
                promo,
                count,
                visit,
            );
        next[i] = from;
        go_on
    }

    /// The enemy men a burner of `stm` landing on `to` burns (those next to `to` not among
    /// `taken` already): their bits and squares, or `None` when one of them is a protected
    /// royal (the position is broken then: the burner attacks it).
    fn burnt(&self, sq: &[u8], stm: usize, to: u8, taken: u32) -> Option<(u32, Bits)> {
        let near = self.rules.board.near[to as usize];
        let (mut men, mut squares) = (0u32, Bits::EMPTY);
        for (j, &x) in sq.iter().enumerate() {
            if self.colour[j] as usize == stm || taken >> j & 1 != 0 || !near.has(x) {
                continue;
            }
            if self.protected(j) {
                return None;
            }
            men |= 1 << j;
            squares |= bit(x);
        }
        Some((men, squares))
    }

    /// The men man `i`'s path takes on its way (a locust capture; its screens hold foes, as
    /// `cond.open` found): their bits and squares, or `None` when one of them may not be
    /// taken (a protected royal, or `noCapture`).
    fn on_the_way(&self, sq: &[u8], i: usize, cond: &super::paths::Cond) -> Option<(u32, Bits)> {
        let (mut men, mut squares) = (0u32, Bits::EMPTY);
        for v in cond.victims() {
            let j = sq.iter().position(|&x| x == v)?;
            let (piece, victim_piece) = (self.piece[i] as usize, self.piece[j] as usize);
            if self.rules.no_capture[piece][victim_piece] || self.protected(j) {
                return None;
            }
            men |= 1 << j;
            squares |= bit(v);
        }
        Some((men, squares))
    }

    /// Reports one legal move (each promotion choice separately); false to stop.
    #[allow(clippy::too_many_arguments)]
    fn emit(
        &self,
        next: &[u8; MAX_MEN],
        stm: usize,
        (i, s, t): (usize, u8, u8),
        (victims, base, mode): (u32, Option<usize>, Mode),
        promo: &super::rules::Promo,
        count: &mut usize,
        visit: &mut impl FnMut(Succ) -> bool,
    ) -> bool {
        let opp = 1 - stm;
        let men = self.men();
        let promotes = promo.may(s, t, victims != 0);
        if promotes && !mode.quiet() {
            for &c in &self.promos[i] {
                *count += 1;
                let code = if mode == Mode::Any {
                    DRAW
                } else {
                    self.conv_code_of(next, opp, victims, Some((i, c)))
                };
                if !visit(Succ {
                    code,
                    in_table: false,
                    index: usize::MAX,
                }) {
                    return false;
                }
            }
        }
        if promotes && (promo.forced.has(t) || (mode == Mode::Conversions && victims == 0)) {
            return true;
        }
        *count += 1;
        let succ = match victims {
            0 => {
                let index = base
                    .and_then(|b| self.index.step(b, i, s, t))
                    .or_else(|| self.index.encode(&next[..men]));
                let code = match index {
                    None => ILLEGAL,
                    Some(_) if mode.blind() => DRAW,
                    Some(j) => self.value(opp, j),
                };
                Succ {
                    code,
                    in_table: true,
                    index: index.unwrap_or(usize::MAX),
                }
            }
            _ => Succ {
                code: if mode == Mode::Any {
                    DRAW
                } else {
                    self.conv_code_of(next, opp, victims, None)
                },
                in_table: false,
                index: usize::MAX,
            },
        };
        visit(succ)
    }

    /// True when a man of one side may step past a square where a man of the other side
    /// could take it en passant: the table's values then depend on the moves before, which
    /// only the pawn-level row solver looks at (see [`Table::with_en_passant`]).
    pub fn en_passant(&self) -> bool {
        self.rules.en_passant_among(&self.material)
    }

    /// The men with a step past squares that lets them be taken en passant.
    pub fn sets_en_passant(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.men()).filter(|&i| self.rules.sets_en_passant(self.colour[i], self.piece[i]))
    }

    /// False when no man of the other side but the last (whose square `sq` need not hold)
    /// stands where it could take man `i` en passant after its step from `from` to `to`: a
    /// quick test before [`Table::with_en_passant`].
    pub(super) fn may_take_en_passant(&self, sq: &[u8], (i, from, to): (usize, u8, u8)) -> bool {
        let men = self.men();
        let foe = 1 - self.colour[i] as usize;
        let takes = |j: usize, e: u8| {
            let into = &self.rules.moves[foe][self.piece[j] as usize].ep_into[e as usize];
            j == men - 1 && !into.is_empty() || into.iter().any(|&(s, _)| s == sq[j])
        };
        self.rules
            .board
            .passed(from, to)
            .any(|e| (0..men).any(|j| self.colour[j] as usize == foe && j != i && takes(j, e)))
    }

    /// The code, for the side to move, of the position `next` that man `i` reached by a
    /// step past squares from `from`: the table's `code` (`stuck`: that side has no move
    /// there), or better for the side to move by a capture of man `i` en passant, a right
    /// it keeps for this move only.
    pub(super) fn with_en_passant(
        &self,
        next: &[u8; MAX_MEN],
        (i, from): (usize, u8),
        code: u8,
        stuck: bool,
    ) -> u8 {
        let men = self.men();
        let capturer = 1 - self.colour[i] as usize;
        let all = (1u32 << men) - 1;
        let alive = all & !(1 << i);
        let (occ, own) = self.occupancy(&next[..men], all, capturer);
        let mut best = (!stuck).then_some(code);
        for e in self
            .rules
            .board
            .passed(from, next[i])
            .filter(|&e| !occ.has(e))
        {
            for j in (0..men).filter(|&j| self.colour[j] as usize == capturer) {
                let piece = self.piece[j] as usize;
                if self.rules.no_capture[piece][self.piece[i] as usize] {
                    continue;
                }
                let reach = &self.rules.moves[capturer][piece].ep_into[e as usize];
                if !reach.iter().any(|&(s, c)| s == next[j] && c.open(occ, own)) {
                    continue;
                }
                let mut after = *next;
                after[j] = e;
                let (occ_after, mine) = self.occupancy(&after[..men], alive, capturer);
                if self.exposed(&after[..men], alive, capturer, occ_after, occ_after & !mine) {
                    continue;
                }
                let promo = &self.rules.promo[capturer][piece];
                let mut take = |pr| {
                    let c = from_mover(self.conv_code(&after, 1 - capturer, Some(i), pr));
                    best = Some(best.map_or(c, |b| better(b, c)));
                };
                if promo.may(next[j], e, true) {
                    for &c in &self.promos[j] {
                        take(Some((j, c)));
                    }
                }
                if !promo.must(next[j], e) {
                    take(None);
                }
            }
        }
        best.unwrap_or(code)
    }

    /// The code, for `opp` to move, of the position after a conversion.
    pub(super) fn conv_code(
        &self,
        next: &[u8; MAX_MEN],
        opp: usize,
        victim: Option<usize>,
        promo: Option<(usize, PieceId)>,
    ) -> u8 {
        self.conv_code_of(next, opp, victim.map_or(0, |v| 1 << v), promo)
    }

    /// [`Table::conv_code`] for any men taken (bit `i` for man `i`).
    pub(super) fn conv_code_of(
        &self,
        next: &[u8; MAX_MEN],
        opp: usize,
        victims: u32,
        promo: Option<(usize, PieceId)>,
    ) -> u8 {
        // No conversions in a table read from the cache (see `Builder::plan`): none is
        // read then, but a missing one must not panic.
        let Some(Some(conv)) = self.convs.get(self.conv_key_of(victims, promo)) else {
            return DRAW;
        };
        let sub = conv.squares(next);
        let stm = conv.side(opp);
        through(self.metric, conv.table.code(stm, &sub[..conv.order.len()]))
    }

    /// [`Table::conv_code`] for many positions that differ only in the square of man `open_man`
    /// (after the conversion): the sub-table's index of the others is made once. `None`
    /// when that cannot be done (see [`Indexer::partial`]) or there is no sub-table.
    pub(super) fn conv_partial(
        &self,
        next: &[u8; MAX_MEN],
        victim: Option<usize>,
        promo: Option<(usize, PieceId)>,
        open_man: usize,
    ) -> Option<ConvPartial<'_>> {
        let conv = self.convs.get(self.conv_key(victim, promo))?.as_ref()?;
        let open = conv.order.iter().position(|&o| o as usize == open_man)?;
        let sub = conv.squares(next);
        let at = conv.table.index.partial(&sub[..conv.order.len()], open)?;
        Some(ConvPartial {
            table: &conv.table,
            at,
            metric: self.metric,
            flip: conv.flip.as_deref(),
        })
    }

    /// Calls `visit` with the index of every predecessor (`1 - stm` to move) of the position
    /// `sq` with `stm` to move: un-moves of the other side that capture nothing and do not
    /// promote.
    pub fn predecessors(&self, sq: &[u8], stm: usize, visit: impl FnMut(usize)) {
        self.predecessors_at(sq, stm, None, visit)
    }

    /// [`Table::predecessors`] of the canonical position stored at `base`, when known.
    pub fn predecessors_at(
        &self,
        sq: &[u8],
        stm: usize,
        base: Option<usize>,
        mut visit: impl FnMut(usize),
    ) {
        let men = self.men();
        let mover = 1 - stm;
        let all = (1u32 << men) - 1;
        let (occ, own) = self.occupancy(sq, all, mover);
        let mut prev = [0u8; MAX_MEN];
        prev[..men].copy_from_slice(&sq[..men]);
        let images = base.and_then(|b| self.stored_images(sq, b));
        for i in 0..men {
            if self.colour[i] as usize != mover {
                continue;
            }
            let piece = self.piece[i] as usize;
            let pm = &self.rules.moves[mover][piece];
            let promo = &self.rules.promo[mover][piece];
            let promotes = !promo.choices.is_empty();
            let square = sq[i];
            if pm.burns && self.rules.board.near[square as usize].meets(occ & !own) {
                // A burner's move would have burnt the enemy beside it.
                continue;
            }
            let mut seen = Bits::EMPTY;
            for &(s, cond) in &pm.into[square as usize] {
                // A man that moved back to its square (a pass) came from where it stands.
                let from_elsewhere = s != square;
                if (from_elsewhere && occ.has(s)) || seen.has(s) || !cond.open(occ, own) {
                    continue;
                }
                if promotes && promo.must(s, square) {
                    continue;
                }
                seen |= bit(s);
                let stepped = images
                    .as_ref()
                    .is_some_and(|im| self.step_images(im, i, square, s, &mut visit));
                if !stepped {
                    prev[i] = s;
                    self.index.encode_all(&prev[..men], &mut visit);
                }
            }
            prev[i] = square;
        }
        if stm == 0 && self.rules.game.null_move {
            self.index.encode_all(&prev[..men], &mut visit);
        }
    }

    /// Every index storing the position `sq` (canonical, at `base`), by map: the identity
    /// first, then the maps keeping its first man in place. `None` if one is missing.
    fn stored_images(&self, sq: &[u8], base: usize) -> Option<Images> {
        let mut im = Images {
            maps: [0; MAX_MAPS],
            index: [base; MAX_MAPS],
            len: 1,
        };
        for &k in self.index.stabilizer(sq[0]) {
            im.maps[im.len] = k;
            im.index[im.len] = self.index.encode_mapped(sq, k as usize)?;
            im.len += 1;
        }
        Some(im)
    }

    /// Reports the indices of the position after man `i` moves from `from` to `to` by stepping
    /// from each stored image; false when that is not possible (the first man leaving the
    /// fundamental region or landing on a shared square: the caller encodes).
    #[inline]
    fn step_images(
        &self,
        im: &Images,
        i: usize,
        from: u8,
        to: u8,
        visit: &mut impl FnMut(usize),
    ) -> bool {
        if i == 0 {
            // The position before has one index unless its first man stands on a shared
            // square; `step` refuses squares outside the fundamental region.
            if self.index.shared(to) {
                return false;
            }
            return match self.index.step(im.index[0], 0, from, to) {
                Some(j) => {
                    visit(j);
                    true
                }
                None => false,
            };
        }
        let Some(j) = self.index.step(im.index[0], i, from, to) else {
            // Outside the man's domain: no index.
            return true;
        };
        visit(j);
        for k in 1..im.len {
            let map = &self.index.maps[im.maps[k] as usize];
            let image = self
                .index
                .step(im.index[k], i, map[from as usize], map[to as usize]);
            if let Some(other) = image.filter(|&o| o != j) {
                visit(other);
            }
        }
        true
    }

    /// The value of a position found by looking at its moves alone (the first pass): broken,
    /// mated, stalemated, bare, or decided by conversions; `DRAW` when still open.
    pub fn seed(&self, sq: &[u8], stm: usize, base: Option<usize>) -> u8 {
        self.seed_counted(sq, stm, base).code
    }

    /// True when the bare-king rule decides the position by itself.
    pub fn bare_king_applies(&self, sq: &[u8], stm: usize) -> bool {
        self.bare_king(sq, stm).is_some()
    }

    /// Shatranj's bare king: a side left with only its royal loses unless it can bare the
    /// other at once.
    pub(super) fn bare_king(&self, sq: &[u8], stm: usize) -> Option<u8> {
        Some(match self.bare(stm)? {
            Bare::Drawn => DRAW,
            Bare::Won => win(0),
            Bare::Lost => loss(0),
            Bare::LostUnlessBares => {
                let mut bares = false;
                self.successors(sq, stm, |s| {
                    bares |= !s.in_table;
                    !bares
                });
                if bares {
                    DRAW
                } else {
                    loss(0)
                }
            }
        })
    }

    /// What the bare-king rule makes of every position of this table with `stm` to move,
    /// when it decides them by itself (a side holds its royal alone).
    pub(super) fn bare(&self, stm: usize) -> Option<Bare> {
        if !self.rules.variant.end.bare_king_loses {
            return None;
        }
        let count = |c: usize| self.colour.iter().filter(|&&x| x as usize == c).count();
        match (count(stm) == 1, count(1 - stm)) {
            (true, 1) => Some(Bare::Drawn),
            (false, 1) => Some(Bare::Won),
            (true, 2) => Some(Bare::LostUnlessBares),
            (true, _) => Some(Bare::Lost),
            (false, _) => None,
        }
    }

    /// True when every legal move of `stm` leads to a win of the opponent, those inside the
    /// table no deeper than `limit` plies (deeper ones may still shrink): returns the deepest,
    /// or `None`.
    pub fn all_lose(&self, sq: &[u8], stm: usize, limit: u8, base: Option<usize>) -> Option<u8> {
        let mut deepest = 0u8;
        let mut ok = true;
        let n = self.successors_at(sq, stm, base, |s| {
            if is_win(s.code) && (!s.in_table || plies(s.code) <= limit) {
                deepest = deepest.max(plies(s.code));
                true
            } else {
                ok = false;
                false
            }
        });
        (ok && n > 0).then_some(deepest)
    }
}

/// The code a position should have given its successors' codes (one ply of minimax), for
/// checking a solved table against itself. Positions with no moves keep their seed.
pub fn expected(table: &Table, sq: &[u8], stm: usize) -> u8 {
    let seed = table.seed(sq, stm, None);
    if seed == ILLEGAL {
        return ILLEGAL;
    }
    let mut best_win: Option<u8> = None;
    let mut worst: Option<u8> = Some(0);
    let mut broken = false;
    let n = table.successors(sq, stm, |s| {
        // A legal move never leads to a position the tables cannot hold.
        broken |= s.code == ILLEGAL;
        if is_loss(s.code) {
            let plies_after = plies(s.code) + 1;
            best_win = Some(best_win.map_or(plies_after, |b| b.min(plies_after)));
        }
        worst = match worst {
            Some(w) if is_win(s.code) => Some(w.max(plies(s.code) + 1)),
            _ => None,
        };
        true
    });
    if broken {
        return ILLEGAL;
    }
    if n == 0 || table.bare_king_applies(sq, stm) {
        return seed;
    }
    match (best_win, worst) {
        (Some(plies_after), _) => win(plies_after),
        (None, Some(plies_after)) => loss(plies_after),
        _ => DRAW,
    }
}

/// Every position whose stored code differs from [`expected`]: (side, index, stored,
/// expected).
pub fn inconsistencies(table: &Table) -> Vec<(usize, usize, u8, u8)> {
    let men = table.men();
    let mut out = Vec::new();
    let mut sq = [0u8; MAX_MEN];
    for stm in 0..2 {
        for idx in 0..table.index.size {
            table.index.decode(idx, &mut sq[..men]);
            let got = table.values[stm][idx].load(Relaxed);
            let want = expected(table, &sq[..men], stm);
            if got != want {
                out.push((stm, idx, got, want));
            }
        }
    }
    out
}

/// The indices in `range` whose bits are set in `bits` (64 a word): the positions a bit set
/// such as [`Table::stuck`] holds.
pub(super) fn set_bits(
    bits: &[u64],
    range: std::ops::Range<usize>,
) -> impl Iterator<Item = usize> + '_ {
    (range.start / 64..range.end.div_ceil(64))
        .flat_map(move |w| {
            let mut x = bits.get(w).copied().unwrap_or(0);
            std::iter::from_fn(move || {
                (x != 0).then(|| {
                    let b = x.trailing_zeros() as usize;
                    x &= x - 1;
                    w * 64 + b
                })
            })
        })
        .filter(move |i| range.contains(i))
}
