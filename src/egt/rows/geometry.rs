//! The row solver's view of the table's moves: each man's paths in row form ([`Geometry`]), the
//! last man's moves inside its row (leaps, slides, symmetry flips), and the decoding of a row
//! number into the other men's squares ([`Cursor`], [`Digits`]).

use variants::rights;

use crate::egt::board::{bit, Bits};
use crate::egt::index::Indexer;
use crate::egt::material::MAX_MEN;
use crate::egt::paths::SETS_EP;
use crate::egt::solve::{Bare, Table};
use crate::egt::word::{ones, Word};

use super::heights::heights;

/// The most squares of a board, and of a row, the solver takes (a row of 128 bits).
pub(super) const MAX_ROW: usize = 128;

/// One path of a man that is not the last: its other end, the board squares that must hold
/// none of the other men (the squares it crosses and its other end), and the same squares as
/// bits of the last man's row (where the last man would block it or stand on its end).
#[derive(Clone, Copy, Debug)]
pub(super) struct Step<W> {
    pub(super) sq: u8,
    pub(super) block: W,
    pub(super) row_block: W,
    /// Board squares that must hold a man (hop screens): another man, or the last one
    /// (see [`Geometry::screened`]).
    pub(super) screen: W,
    /// The man's share of the row number at the other end (see `Geometry::share`;
    /// `usize::MAX` outside its domain or for alike men).
    pub(super) share: usize,
    /// The path may end on an empty square.
    pub(super) moves: bool,
    /// The path may take a man.
    pub(super) takes: bool,
    /// The path ends where the man must promote.
    pub(super) promotes: bool,
    /// The path only gives check (the flying general's sight line): it attacks a royal on
    /// its end, and is neither a move nor a capture.
    pub(super) checks: bool,
    /// A pawn's move to an empty square when the table is solved by levels (see
    /// [`Geometry::heights`]): it leaves the level, and is looked up like a conversion.
    pub(super) pushes: bool,
    /// The path passes squares where a man of the other side may take it en passant.
    pub(super) sets_ep: bool,
}

/// One path of the last man inside its row: its other end (local index) and what it needs
/// of the other men (`need.empty`: the squares it crosses and its other end).
#[derive(Clone, Copy, Debug)]
pub(super) struct LastStep<W> {
    pub(super) local: u8,
    pub(super) need: Need<W>,
}

/// What a path of the last man needs of the other men: board squares empty, and board
/// squares occupied (hop screens).
#[derive(Clone, Copy, Debug)]
pub(super) struct Need<W> {
    pub(super) empty: W,
    pub(super) screen: W,
}

impl<W: Word> Need<W> {
    /// True when the other men (on `occ`) leave the path open.
    #[inline]
    pub(super) fn open(self, occ: W) -> bool {
        !(occ & self.empty).any() && occ & self.screen == self.screen
    }
}

/// A step of [`Step`] reduced to what verification and un-moves read of it, for a man
/// whose steps need no symmetry map, set rank or hop screen (see [`Geometry::quick`]).
#[derive(Clone, Copy)]
pub(super) struct Quick<W> {
    pub(super) block: W,
    pub(super) row_block: W,
    pub(super) share: usize,
}

/// The moves of the table's men in row form.
pub(super) struct Geometry<W> {
    /// Men; the last one is the row's.
    pub(super) men: usize,
    /// Row length (the last man's domain).
    pub(super) len: usize,
    /// Colour per man.
    pub(super) colour: Vec<u8>,
    /// Per man but the last, per square: forward paths that stay in the table (move to an
    /// empty square without promoting), but a pawn's when solved by levels.
    pub(super) moves: Vec<Vec<Vec<Step<W>>>>,
    /// Per man but the last, per square: forward paths that take or promote, and a pawn's
    /// moves out of its level (see [`Step::pushes`]).
    pub(super) hits: Vec<Vec<Vec<Step<W>>>>,
    /// Per man but the last, per square: the paths that end there (un-moves); none of a
    /// pawn's when solved by levels (they come from a level solved later).
    pub(super) unmoves: Vec<Vec<Vec<Step<W>>>>,
    /// Per man but the last, when neither the first (whose steps may need a symmetry
    /// map) nor one of alike men (indexed as a set) and none of its paths has a hop
    /// screen: per square, its `moves` and `unmoves` that stay in its domain as
    /// [`Quick`] steps, `(moves, unmoves)`. A quick step costs verification a
    /// fraction of a whole one's instructions (KRvKP's kings).
    pub(super) quick: Vec<Option<Quicks<W>>>,
    /// Per side: its men but the last.
    pub(super) side_men: [Vec<usize>; 2],
    /// The last man's forward paths by local index (but those of `last_leaps`).
    pub(super) last_moves: Vec<Vec<LastStep<W>>>,
    /// Per local index: the other ends of its `last_moves`, as row bits, and the board squares
    /// any of them needs empty (the paths of `last_leaps` left out).
    pub(super) last_targets: Vec<(W, W)>,
    /// The last man's one-square paths (nothing crossed) by their offset in the row, with the
    /// row bits they start from, when the row is the board itself (local index = square):
    /// verification tests them for the whole row by shifts of the open squares. Those paths
    /// are then left out of `last_moves`.
    pub(super) last_leaps: Vec<(i32, W)>,
    /// The last man's rays when its moves are `last_leaps` and whole rays along some of them
    /// (a rook, bishop or queen, the row the board itself): per ray, the offset of its step
    /// and the row bits a step may start from. The moves and un-moves of such a man are
    /// then made for the whole row by shifts (see [`Geometry::reach`]), and `last_moves` and
    /// `last_unmoves` are empty.
    pub(super) last_slides: Vec<(i32, W)>,
    /// True when `last_leaps` and `last_slides` are the whole of the last man's moves (un-moves are
    /// then theirs reversed, made by shifts too).
    pub(super) last_pure: bool,
    /// Per local index: the other ends of its `last_unmoves`, as row bits, and the board
    /// squares any of them needs empty.
    pub(super) last_sources: Vec<(W, W)>,
    /// The last man's paths ending at each local index (un-moves).
    pub(super) last_unmoves: Vec<Vec<LastStep<W>>>,
    /// Per board square: the last man's paths that take there, as (origin local index,
    /// squares that must be empty, promotes).
    pub(super) last_into: Vec<Vec<(u8, Need<W>, bool)>>,
    /// The last man's paths that promote on an empty square: (origin local index,
    /// destination, squares that must be empty).
    pub(super) last_promotes: Vec<(u8, u8, Need<W>)>,
    /// Per board square: the last man's check-only paths that end there, as (origin local
    /// index, squares that must be empty).
    pub(super) last_checks: Vec<Vec<(u8, Need<W>)>>,
    /// Per symmetry map: the last man's local index to that of its image.
    pub(super) last_map: Vec<Vec<u8>>,
    /// Per symmetry map: the same as whole-word bit operations (transpose, mirror files,
    /// mirror ranks), when they agree with `last_map` on every square (an 8x8 row).
    pub(super) last_flip: Vec<Option<(bool, bool, bool)>>,
    /// Per symmetry map: the word operations of its inverse, when `last_flip` has them.
    pub(super) last_unflip: Vec<Option<(bool, bool, bool)>>,
    /// Per board square: the last man's bit for it (0 outside its domain).
    pub(super) last_bit: Vec<W>,
    /// Per man but the last, per board square: the man's share of the row number (its local
    /// index times its stride in rows), `usize::MAX` outside its domain; a move of one man
    /// changes the row by the difference of two shares. Not for alike men (see `set_stride`).
    pub(super) share: Vec<Vec<usize>>,
    /// Per man but the last: for alike men (indexed as a set), their factor's stride in rows.
    pub(super) set_stride: Vec<Option<usize>>,
    /// All bits of a row.
    pub(super) full: W,
    /// When the table is solved by levels: per man that promotes (the first men), per
    /// board square, the most moves to an empty square it can still make before it
    /// promotes; a level holds the rows of one sum of these over the men (see
    /// [`Solver::levels`](super::Solver::levels)). Empty otherwise.
    pub(super) heights: Vec<Vec<u8>>,
    /// Per side to move: what the bare-king rule makes of every position, when it decides
    /// them by itself (a side holds its royal alone).
    pub(super) bare: [Option<Bare>; 2],
    /// Per factor of the men but the last, when row numbers fit 32 bits: its size and the
    /// squares of its men per value, the digits of a row number (see [`Geometry::decode`]).
    pub(super) digits: Option<Box<Digits>>,
}

impl<W: Word> Geometry<W> {
    pub(super) fn new(table: &Table) -> Geometry<W> {
        let ix = &table.index;
        let men = table.men();
        let last = men - 1;
        let heights = heights(table).unwrap_or_default();
        let len = ix.domain(last).len();
        let last_bit: Vec<W> = (0..table.rules.board.n)
            .map(|s| ix.local_of(last, s as u8).map_or(W::ZERO, |l| W::bit(l)))
            .collect();
        let share = shares(table, len);
        let (moves, hits, unmoves) = other_steps(table, &share, &last_bit, heights.len());
        let LastPaths {
            moves: mut last_moves,
            unmoves: mut last_unmoves,
            into: last_into,
            promotes: last_promotes,
            checks: last_checks,
        } = last_paths(table);
        let (last_map, last_flip, last_unflip) = last_maps(table);
        let set_stride = (0..last)
            .map(|i| ix.alike(i).then(|| ix.stride_of(i) / len))
            .collect();
        let last_leaps = leaps(&mut last_moves, ix.domain(last));
        let last_slides = slides(&last_moves, &last_leaps);
        // Rays are found only where every path left is one (see `slides`).
        let last_pure = !last_leaps.is_empty()
            && (!last_slides.is_empty() || last_moves.iter().all(Vec::is_empty));
        if last_pure {
            last_moves.iter_mut().for_each(Vec::clear);
            last_unmoves.iter_mut().for_each(Vec::clear);
        }
        let (last_targets, last_sources) = (ends(&last_moves), ends(&last_unmoves));
        let quick = (0..last)
            .map(|i| {
                let plain =
                    |steps: &Vec<Vec<Step<W>>>| steps.iter().flatten().all(|st| !st.screen.any());
                (i != 0 && !ix.alike(i) && plain(&moves[i]) && plain(&unmoves[i]))
                    .then(|| (quicks(&moves[i]), quicks(&unmoves[i])))
            })
            .collect();
        let side_men = [0, 1].map(|x| {
            (0..last)
                .filter(|&i| table.colour[i] as usize == x)
                .collect()
        });
        Geometry {
            quick,
            side_men,
            last_targets,
            last_leaps,
            last_slides,
            last_pure,
            last_sources,
            digits: digits(table, len),
            men,
            len,
            share,
            set_stride,
            last_flip,
            last_unflip,
            colour: table.colour.clone(),
            moves,
            unmoves,
            last_moves,
            last_unmoves,
            last_into,
            last_promotes,
            last_checks,
            hits,
            last_map,
            last_bit,
            full: W::low(len),
            heights,
            bare: [0, 1].map(|x| table.bare(x)),
        }
    }

    /// The row after man `i` (not the last) takes step `st`, with `base` the row less the
    /// man's share ([`Geometry::base`]), when no symmetry map is needed; `None` outside the
    /// man's domain, or where alike men would share a square.
    #[inline]
    pub(super) fn step_row(
        &self,
        ix: &Indexer,
        base: usize,
        squares: &[u8],
        i: usize,
        st: &Step<W>,
    ) -> Option<usize> {
        if let Some(stride) = self.set_stride[i] {
            // Alike men: the set's rank with the man on its new square.
            let after = ix.factor_value(i, squares, st.sq)?;
            return (base != usize::MAX).then(|| base + after * stride);
        }
        (st.share != usize::MAX).then(|| base + st.share)
    }

    /// The row's bits where a path whose hop screens are `screen` finds them occupied, the
    /// other men standing on `occ`: all when they fill them, the last man's bit for a
    /// screen it alone can fill, none when more are missing.
    #[inline]
    pub(super) fn screened(&self, occ: W, screen: W) -> W {
        let missing = screen & !occ;
        if !missing.any() {
            self.full
        } else if !missing.drop_lowest().any() {
            self.last_bit[missing.lowest()]
        } else {
            W::ZERO
        }
    }

    /// The row less man `i`'s share (see [`Geometry::step_row`]): for alike men, their
    /// set's rank, once per row rather than once per step (`usize::MAX` should the row's
    /// set have none).
    #[inline]
    pub(super) fn base(&self, ix: &Indexer, row: usize, squares: &[u8], i: usize) -> usize {
        match self.set_stride[i] {
            Some(stride) => ix
                .factor_value(i, squares, squares[i])
                .map_or(usize::MAX, |before| row - before * stride),
            None => row - self.share[i][squares[i] as usize],
        }
    }

    /// The squares of the men but the last for a row (the last on its first square), and
    /// their occupancy.
    #[inline]
    pub(super) fn decode(&self, ix: &Indexer, row: usize, squares: &mut [u8; MAX_MEN]) -> W {
        let men = self.men;
        if let Some(d) = &self.digits {
            // The indexer's decode less the last man's digit, in 32 bits (a quicker divide).
            let mut rest = row as u32;
            for j in (0..d.factors.min(MAX_MEN)).rev() {
                let (quotient, rem) = div_rem(rest, d.size[j], d.magic[j]);
                let (i, factor_men) = (d.first[j] as usize % MAX_MEN, d.men[j] as usize);
                if factor_men == 1 {
                    squares[i] = d.squares[i][rem as usize % MAX_ROW];
                } else {
                    let at = rem as usize * factor_men;
                    squares[i..i + factor_men].copy_from_slice(&d.sets[j][at..at + factor_men]);
                }
                rest = quotient;
            }
            squares[(men - 1).min(MAX_MEN - 1)] = d.last;
        } else {
            ix.decode(row * self.len, &mut squares[..men]);
        }
        squares[..men - 1]
            .iter()
            .fold(W::ZERO, |acc, &s| acc | W::bit(s as usize))
    }

    /// [`Geometry::decode`] into `cursor.squares`, through the cursor's run when `row` lies in it.
    #[inline]
    pub(super) fn decode_at(&self, ix: &Indexer, row: usize, cursor: &mut Cursor<W>) -> W {
        let Some(d) = &self.digits else {
            return self.decode(ix, row, &mut cursor.squares);
        };
        let j = d.factors.wrapping_sub(1).min(MAX_MEN - 1);
        let i = d.first[j] as usize % MAX_MEN;
        if cursor.run.contains(&row) {
            let square = d.squares[i][(row - cursor.run.start) % MAX_ROW];
            cursor.squares[i] = square;
            return cursor.high | W::bit(square as usize);
        }
        let occ = self.decode(ix, row, &mut cursor.squares);
        if d.factors > 0 && d.men[j] == 1 {
            let (_, digit) = div_rem(row as u32, d.size[j], d.magic[j]);
            cursor.run = row - digit as usize..row - digit as usize + d.size[j] as usize;
            cursor.high = (cursor.squares[..self.men - 1].iter().enumerate())
                .filter(|&(k, _)| k != i)
                .fold(W::ZERO, |acc, (_, &square)| acc | W::bit(square as usize));
        }
        occ
    }

    /// The row bits (squares) from which a move of the last man along `last_leaps` or
    /// `last_slides` ends on a square of `to`, the other men standing on `occ`: a ray crosses
    /// only squares free of them. `to` need not be free itself (the caller says what may
    /// be reached), nor the origins.
    #[inline]
    pub(super) fn reach(&self, to: W, occ: W) -> W {
        let mut out =
            (self.last_leaps.iter()).fold(W::ZERO, |r, &(d, from)| r | (from & to.offset_by(d)));
        for &(d, from) in &self.last_slides {
            // Walked back from the ends a step at a time, through free squares only.
            let mut at = from & to.offset_by(d) & !occ;
            while at.any() {
                let next = from & at.offset_by(d);
                out |= next;
                at = next & !occ;
            }
        }
        out
    }

    /// The row bits from which the last man, by `last_leaps` and `last_slides`, reaches a square
    /// neither closed (`closed`: that row's word of the other side) nor holding another
    /// man (on `occ`). Local indices are squares here.
    #[inline]
    pub(super) fn reach_open(&self, closed: W, occ: W) -> W {
        self.reach(self.full & !closed & !occ, occ)
    }

    /// The image of a row's bits under map `k`.
    #[inline]
    pub(super) fn permute(&self, bits: W, k: usize) -> W {
        if k == 0 {
            return bits;
        }
        if let Some(flip) = self.last_flip[k] {
            return W::of_low64(flip_word(bits.low64(), flip));
        }
        let map = &self.last_map[k];
        let mut out = W::ZERO;
        for b in ones(bits) {
            out |= W::bit(map[b] as usize);
        }
        out
    }
}

/// A man's [`Quick`] steps per square: moves, un-moves.
pub(super) type Quicks<W> = (Vec<Vec<Quick<W>>>, Vec<Vec<Quick<W>>>);

/// The [`Quick`] steps of `steps` (one man's, per square) that stay in the man's domain.
pub(super) fn quicks<W: Word>(steps: &[Vec<Step<W>>]) -> Vec<Vec<Quick<W>>> {
    (steps.iter())
        .map(|list| {
            (list.iter())
                .filter(|st| st.share != usize::MAX)
                .map(|st| Quick {
                    block: st.block,
                    row_block: st.row_block,
                    share: st.share,
                })
                .collect()
        })
        .collect()
}

/// The digits of a row number, factor by factor of the men but the last (see
/// [`Geometry::digits`]): fixed arrays, so that a decode reads no heap but the squares.
pub(super) struct Digits {
    /// Per factor: its size.
    pub(super) size: [u32; MAX_MEN],
    /// Per factor: `u64::MAX / size + 1`, to divide a 32-bit row number by a multiplication
    /// (see [`div_rem`]): a decode made a hardware divide per man, the slowest step of
    /// expanding a row.
    pub(super) magic: [u64; MAX_MEN],
    /// Per factor: its first man.
    pub(super) first: [u8; MAX_MEN],
    /// Per factor: its number of men (more than one: a run of alike men, see `sets`).
    pub(super) men: [u8; MAX_MEN],
    /// The number of factors.
    pub(super) factors: usize,
    /// Per man alone in its factor: its squares by local index (a row solver's board has
    /// at most `MAX_ROW`).
    pub(super) squares: [[u8; MAX_ROW]; MAX_MEN],
    /// Per factor of alike men: their squares for each rank, one after the other (one
    /// read, where the indexer's unrank reads local indices and then their squares).
    pub(super) sets: [Vec<u8>; MAX_MEN],
    /// The last man's first square (the decoded squares hold a full position).
    pub(super) last: u8,
}

/// A decode that remembers its run: the rows that differ only in the digit of the lowest
/// factor (one man, the one before the last) share the other men's squares, so a walk over
/// rows in order (a sweep, a seed) decodes each run once and then sets one square per row.
pub(super) struct Cursor<W> {
    /// The decoded squares (see [`Geometry::decode`]).
    pub(super) squares: [u8; MAX_MEN],
    /// The rows of the current run (empty before the first decode).
    pub(super) run: std::ops::Range<usize>,
    /// The occupancy of the men but the lowest factor's.
    pub(super) high: W,
}

impl<W: Word> Cursor<W> {
    pub(super) fn new() -> Cursor<W> {
        Cursor {
            squares: [0; MAX_MEN],
            run: 0..0,
            high: W::ZERO,
        }
    }
}

/// Per symmetry map, its word operations (see [`Geometry::last_flip`]).
type Flips = Vec<Option<(bool, bool, bool)>>;

/// A man's paths per square in row form: moves, hits (see [`Geometry::hits`]) and un-moves.
type StepLists<W> = Vec<Vec<Vec<Step<W>>>>;

/// Per man but the last, per board square: the man's share of the row number (see
/// [`Geometry::share`]); `len`: the row's length.
fn shares(table: &Table, len: usize) -> Vec<Vec<usize>> {
    let ix = &table.index;
    let (n, last) = (table.rules.board.n, table.men() - 1);
    let mut share = vec![vec![usize::MAX; n]; last];
    for (i, sh) in share.iter_mut().enumerate() {
        // The last man's factor is the innermost: every other stride is a whole row's.
        let stride = ix.stride_of(i) / len;
        for (l, &s) in ix.domain(i).iter().enumerate() {
            sh[s as usize] = l * stride;
        }
    }
    share
}

/// The paths of the men but the last in row form (see [`Geometry::moves`], `hits` and
/// `unmoves`): `share` their shares of the row number, `last_bit` the last man's bit per
/// square, `levels` the men solved by levels (a pawn's move out of its level is a hit).
fn other_steps<W: Word>(
    table: &Table,
    share: &[Vec<usize>],
    last_bit: &[W],
    levels: usize,
) -> (StepLists<W>, StepLists<W>, StepLists<W>) {
    let rules = &table.rules;
    let ix = &table.index;
    let n = rules.board.n;
    let en_passant = table.en_passant();
    let last_bits = |set: Bits| {
        set.squares()
            .fold(W::ZERO, |acc, s| acc | last_bit[s as usize])
    };
    let pm_of = |i: usize| &rules.moves[table.colour[i] as usize][table.piece[i] as usize];
    let promo_of = |i: usize| &rules.promo[table.colour[i] as usize][table.piece[i] as usize];
    let mut moves = Vec::new();
    let mut hits = Vec::new();
    let mut unmoves = Vec::new();
    for (i, sh) in share.iter().enumerate() {
        let share_of = |s: usize| if ix.alike(i) { usize::MAX } else { sh[s] };
        let pm = pm_of(i);
        let mut fwd = vec![Vec::new(); n];
        let mut hit = vec![Vec::new(); n];
        let mut back = vec![Vec::new(); n];
        for (s, paths) in pm.from.iter().enumerate() {
            for path in paths {
                let empty = path.cond.empty;
                let promo = promo_of(i);
                let mut step = Step {
                    sq: path.to,
                    block: W::of_set(empty | bit(path.to)),
                    row_block: last_bits(empty | bit(path.to)),
                    screen: W::of_set(path.cond.screen_bits()),
                    share: share_of(path.to as usize),
                    moves: path.rights & rights::MOVE != 0,
                    takes: path.rights & rights::CAPTURE != 0,
                    promotes: promo.may(s as u8, path.to, path.rights & rights::CAPTURE != 0),
                    checks: path.rights == rights::CHECK_ONLY,
                    pushes: false,
                    sets_ep: en_passant && path.ep & SETS_EP != 0,
                };
                if step.takes || step.promotes || step.checks {
                    hit[s].push(step);
                }
                if step.promotes && !promo.must(s as u8, path.to) {
                    // Declined: a plain move or capture as well.
                    step.promotes = false;
                    if step.takes {
                        hit[s].push(step);
                    }
                }
                if !step.moves || step.promotes {
                    continue;
                }
                if i < levels {
                    // Out of the level: a lookup of a level solved before.
                    hit[s].push(Step {
                        pushes: true,
                        ..step
                    });
                    continue;
                }
                fwd[s].push(step);
                back[path.to as usize].push(Step {
                    sq: s as u8,
                    block: W::of_set(empty | bit(s as u8)),
                    row_block: last_bits(empty | bit(s as u8)),
                    share: share_of(s),
                    ..step
                });
            }
        }
        moves.push(fwd);
        hits.push(hit);
        unmoves.push(back);
    }
    (moves, hits, unmoves)
}

/// The last man's paths by kind (see the `last_` fields of [`Geometry`]).
struct LastPaths<W> {
    moves: Vec<Vec<LastStep<W>>>,
    unmoves: Vec<Vec<LastStep<W>>>,
    into: Vec<Vec<(u8, Need<W>, bool)>>,
    promotes: Vec<(u8, u8, Need<W>)>,
    checks: Vec<Vec<(u8, Need<W>)>>,
}

/// The last man's paths: moves and un-moves inside its row, captures by the square taken,
/// promotions on an empty square, check-only sight lines.
fn last_paths<W: Word>(table: &Table) -> LastPaths<W> {
    let rules = &table.rules;
    let ix = &table.index;
    let n = rules.board.n;
    let last = table.men() - 1;
    let len = ix.domain(last).len();
    let last_paths = &rules.moves[table.colour[last] as usize][table.piece[last] as usize];
    let promo = &rules.promo[table.colour[last] as usize][table.piece[last] as usize];
    let mut last_moves = vec![Vec::new(); len];
    let mut last_unmoves = vec![Vec::new(); len];
    let mut last_into = vec![Vec::new(); n];
    let mut last_promotes = Vec::new();
    let mut last_checks = vec![Vec::new(); n];
    for (a, &sa) in ix.domain(last).iter().enumerate() {
        for path in &last_paths.from[sa as usize] {
            let empty = path.cond.empty;
            let screen = W::of_set(path.cond.screen_bits());
            let need = Need {
                empty: W::of_set(empty),
                screen,
            };
            if path.rights == rights::CHECK_ONLY {
                last_checks[path.to as usize].push((a as u8, need));
                continue;
            }
            let promotes = promo.may(sa, path.to, path.rights & rights::CAPTURE != 0);
            // A promotion that may be declined is a plain move or capture as well.
            let declines = promotes && !promo.must(sa, path.to);
            if path.rights & rights::CAPTURE != 0 {
                last_into[path.to as usize].push((a as u8, need, promotes));
                if declines {
                    last_into[path.to as usize].push((a as u8, need, false));
                }
            }
            if path.rights & rights::MOVE == 0 {
                continue;
            }
            if promotes {
                last_promotes.push((a as u8, path.to, need));
                if !declines {
                    continue;
                }
            }
            let Some(b) = ix.local_of(last, path.to) else {
                continue;
            };
            let need_to = |end: u8| Need {
                empty: W::of_set(empty | bit(end)),
                screen,
            };
            last_moves[a].push(LastStep {
                local: b as u8,
                need: need_to(path.to),
            });
            last_unmoves[b].push(LastStep {
                local: a as u8,
                need: need_to(sa),
            });
        }
    }
    LastPaths {
        moves: last_moves,
        unmoves: last_unmoves,
        into: last_into,
        promotes: last_promotes,
        checks: last_checks,
    }
}

/// Per symmetry map: the last man's local index to its image's, the same as word
/// operations where they agree (an 8x8 row), and those of the map's inverse (see
/// [`Geometry::last_map`], `last_flip`, `last_unflip`).
fn last_maps(table: &Table) -> (Vec<Vec<u8>>, Flips, Flips) {
    let ix = &table.index;
    let n = table.rules.board.n;
    let last = table.men() - 1;
    let len = ix.domain(last).len();
    let last_map: Vec<Vec<u8>> = ix
        .maps
        .iter()
        .map(|map| {
            ix.domain(last)
                .iter()
                .map(|&s| ix.local_of(last, map[s as usize]).unwrap_or(0) as u8)
                .collect()
        })
        .collect();
    let last_flip: Vec<Option<(bool, bool, bool)>> = last_map
        .iter()
        .map(|map: &Vec<u8>| {
            let combos = (0..8).map(|c| (c & 4 != 0, c & 1 != 0, c & 2 != 0));
            combos.into_iter().find(|&flip| {
                len == 64 && (0..64).all(|b| flip_word(1u64 << b, flip) == 1u64 << map[b])
            })
        })
        .collect();
    let inverse = |k: usize| {
        let map = &ix.maps[k];
        (0..ix.maps.len()).find(|&u| (0..n).all(|s| ix.maps[u][map[s] as usize] as usize == s))
    };
    let last_unflip = (0..ix.maps.len())
        .map(|k| inverse(k).and_then(|u| last_flip[u]))
        .collect();
    (last_map, last_flip, last_unflip)
}

/// The digits of a row number (see [`Geometry::digits`]), when row numbers fit 32 bits.
fn digits(table: &Table, len: usize) -> Option<Box<Digits>> {
    let ix = &table.index;
    let last = table.men() - 1;
    let digits = (ix.size / len <= u32::MAX as usize).then(|| {
        let mut d = Box::new(Digits {
            size: [1; MAX_MEN],
            magic: [0; MAX_MEN],
            first: [0; MAX_MEN],
            men: [1; MAX_MEN],
            factors: 0,
            squares: [[0; MAX_ROW]; MAX_MEN],
            sets: std::array::from_fn(|_| Vec::new()),
            last: ix.domain(last)[0],
        });
        for (j, (first, men, size)) in ix.factor_spans().filter(|span| span.0 < last).enumerate() {
            d.factors = j + 1;
            d.size[j] = size as u32;
            d.magic[j] = (u64::MAX / u64::from(d.size[j].max(1))).wrapping_add(1);
            d.first[j] = first as u8;
            d.men[j] = men as u8;
            if men == 1 {
                d.squares[first][..ix.domain(first).len()].copy_from_slice(ix.domain(first));
                continue;
            }
            let mut sq = [0u8; MAX_MEN];
            for v in 0..size {
                ix.unrank_factor(first, v, &mut sq);
                d.sets[j].extend_from_slice(&sq[first..first + men]);
            }
        }
        d
    });
    digits
}

/// Per local index: the other ends of `steps` as row bits, and the board squares any of
/// them needs empty (see [`Geometry::last_targets`]).
fn ends<W: Word>(steps: &[Vec<LastStep<W>>]) -> Vec<(W, W)> {
    // A path with a hop screen needs a man where the others need none: every square
    // counts as a block, so that such ends are always looked at path by path.
    let both = |(l, b): (W, W), vs: &LastStep<W>| {
        let need = vs.need;
        let block = if need.screen.any() {
            !W::ZERO
        } else {
            need.empty
        };
        (l | W::bit(vs.local as usize), b | block)
    };
    steps
        .iter()
        .map(|v| v.iter().fold((W::ZERO, W::ZERO), both))
        .collect()
}

/// Takes the one-square paths out of `last_moves` (by local index) as (offset, origins) when the
/// last man's domain is the board in order, so that a local index is a square: see
/// [`Geometry::last_leaps`]. Nothing otherwise.
pub(super) fn leaps<W: Word>(last_moves: &mut [Vec<LastStep<W>>], domain: &[u8]) -> Vec<(i32, W)> {
    if domain.iter().enumerate().any(|(b, &s)| b != s as usize) {
        return Vec::new();
    }
    let mut out: Vec<(i32, W)> = Vec::new();
    for (a, steps) in last_moves.iter_mut().enumerate() {
        steps.retain(|vs| {
            if vs.need.empty != W::bit(vs.local as usize) || vs.need.screen.any() {
                return true;
            }
            let d = vs.local as i32 - a as i32;
            match out.iter_mut().find(|(e, _)| *e == d) {
                Some((_, origins)) => *origins |= W::bit(a),
                None => out.push((d, W::bit(a))),
            }
            false
        });
    }
    out
}

/// The rays of the last man (see [`Geometry::last_slides`]) when the paths `last_moves` has left
/// after [`leaps`] are exactly whole rays along some of `leaps`' offsets: each path from
/// `a` ends `k >= 2` steps of offset `d` further, crosses the squares between, and every
/// step starts where a one-square path of offset `d` does; and every such walk from every
/// square is a path. Nothing otherwise (the paths stay as they are).
pub(super) fn slides<W: Word>(
    last_moves: &[Vec<LastStep<W>>],
    leaps: &[(i32, W)],
) -> Vec<(i32, W)> {
    let walk = |a: usize, d: i32, from: W, k: usize| -> Option<(usize, W)> {
        // The end of `k` steps of offset `d` from `a`, and the squares they cross and end on.
        let (mut at, mut crossed) = (a, W::ZERO);
        for _ in 0..k {
            if !from.has(at) {
                return None;
            }
            at = usize::try_from(at as i64 + i64::from(d)).ok()?;
            crossed |= W::bit(at);
        }
        Some((at, crossed))
    };
    let mut rays: Vec<(i32, W)> = Vec::new();
    let mut found = 0usize;
    for (a, steps) in last_moves.iter().enumerate() {
        for vs in steps {
            let b = vs.local as usize;
            let ray = leaps.iter().find(|&&(d, from)| {
                let k = (b as i64 - a as i64) / i64::from(d);
                k >= 2
                    && (b as i64 - a as i64) % i64::from(d) == 0
                    && !vs.need.screen.any()
                    && walk(a, d, from, k as usize) == Some((b, vs.need.empty))
            });
            let Some(&ray) = ray else {
                return Vec::new();
            };
            if !rays.contains(&ray) {
                rays.push(ray);
            }
            found += 1;
        }
    }
    // Every walk of two steps or more along a ray is a path (none twice: `found` counts them).
    let mut walks = 0usize;
    for &(d, from) in &rays {
        for (a, steps) in last_moves.iter().enumerate() {
            for k in 2.. {
                let Some((b, _)) = walk(a, d, from, k) else {
                    break;
                };
                if !steps.iter().any(|vs| vs.local as usize == b) {
                    return Vec::new();
                }
                walks += 1;
            }
        }
    }
    if walks != found {
        return Vec::new();
    }
    rays
}

/// `(r / n, r % n)` for a divisor `n` of at least 2 with `magic = u64::MAX / n + 1`
/// (Lemire, Kaser and Kurz's division by a 64-bit reciprocal, exact for 32-bit operands);
/// `n = 1` (magic 0) gives `(r, 0)`.
#[inline]
pub(super) fn div_rem(r: u32, n: u32, magic: u64) -> (u32, u32) {
    if magic == 0 {
        return (r, 0);
    }
    let quotient = ((u128::from(magic) * u128::from(r)) >> 64) as u32;
    (quotient, r - quotient * n)
}

/// The image of an 8x8 bit board (bit `8 * rank + file`) under a transpose, then a mirror
/// of the files, then of the ranks (the order of `board::MAPS`).
#[inline]
pub(super) fn flip_word(mut x: u64, (transpose, files, ranks): (bool, bool, bool)) -> u64 {
    if transpose {
        // Swaps file and rank: three exchanges of bit blocks across the a1-h8 diagonal.
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0f0f_0f0f_0000_0000;
        let swap = K4 & (x ^ (x << 28));
        x ^= swap ^ (swap >> 28);
        let swap = K2 & (x ^ (x << 14));
        x ^= swap ^ (swap >> 14);
        let swap = K1 & (x ^ (x << 7));
        x ^= swap ^ (swap >> 7);
    }
    if files {
        x = ((x >> 1) & 0x5555_5555_5555_5555) | ((x & 0x5555_5555_5555_5555) << 1);
        x = ((x >> 2) & 0x3333_3333_3333_3333) | ((x & 0x3333_3333_3333_3333) << 2);
        x = ((x >> 4) & 0x0f0f_0f0f_0f0f_0f0f) | ((x & 0x0f0f_0f0f_0f0f_0f0f) << 4);
    }
    if ranks {
        x = x.swap_bytes();
    }
    x
}
