//! The row solver: a fast twin of `propagate` for tables whose men are plain leapers,
//! sliders and pawns. The last man varies fastest in the index, so the positions that differ only in
//! its square form a row of at most 128 entries, one bit each in a word (64 bits on boards of
//! at most 64 squares, 128 above: see `word`); moves and un-moves of the other men carry a
//! whole row at once, and the last man's own moves stay inside it.
//!
//! Where it applies (decided from the compiled pieces, see [`eligible`]): every path of every
//! man moves, captures or both, needs only empty squares (no hop screens) and stays in the
//! man's domain unless it ends where the man must promote (a promotion is a conversion, like
//! a capture; one that may be declined is a plain move or capture as well), or only gives
//! check (the flying general's sight line); no capture exceptions, no null move; a board of
//! at most 128 squares. A side may keep several royals (spartan's two kings): see
//! `Solver::attacks_royal`. Where a bare-king rule meets a side holding its royal alone,
//! the rule decides every position at the seed (see `Bare`). The
//! perpetual-check ban (xiangqi) runs `perpetual` whenever the solve stops, as the general
//! solver does. Everything else goes through `propagate`, which also checks this solver in
//! the tests.
//!
//! The method is the general one with the escape counters replaced by verification: per
//! distance `p`, wins in `p` make their undecided predecessors candidates, and a candidate is
//! lost when none of its moves inside the table reaches a position not yet won in at most `p`
//! plies (verified for the whole row at once) and no capture holds it; then losses in `p`
//! make their undecided predecessors won in `p + 1`. Conversions (captures and promotions,
//! listed once per row) are looked up in the sub-tables position by position.
//!
//! Pawn tables come here with their pawns first (see `layout`) and are solved by levels of
//! the pawns' advancement, the most advanced first (see [`heights`]): a pawn's move leaves
//! its level for one solved already, and is looked up there like a conversion (its code as
//! it is, injected at its distance like a capture's); so a level reads only itself and
//! final values. Where a placement of the pawns (a slice, a run of whole rows) can be solved
//! apart, each slice is solved by one thread from its illegal positions and its seed to its
//! end, with a state small enough for the cache, once the slices its pawns' moves reach are
//! done (see [`Solver::slices`], [`Solver::solve_slices`]).

use std::sync::atomic::Ordering::{AcqRel, Relaxed};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
use std::sync::{Condvar, Mutex};

use variants::rules::Royalty;
use variants::{rights, PieceId};

use super::board::{bit, Bits};
use super::counts::SideStats;
use super::index::Indexer;
use super::material::MAX_MEN;
use super::paths::SETS_EP;
use super::rules::Rules;
use super::solve::{Bare, ConvPartial, IdleWork, SolveError, Table};
use super::stats::count_range;
use super::threads::Threads;
use super::threads::{parallel, parallel_with};
use super::value::{is_loss, is_win, loss, plies, win, DRAW, ILLEGAL, MAX_PLIES, WON_NOW};
use super::word::{ones, zeroed_words, AtomicWord, Word};

/// One path of a man that is not the last: its other end, the board squares that must hold
/// none of the other men (the squares it crosses and its other end), and the same squares as
/// bits of the last man's row (where the last man would block it or stand on its end).
#[derive(Clone, Copy, Debug)]
struct Step<W> {
    sq: u8,
    block: W,
    vblock: W,
    /// Board squares that must hold a man (hop screens): another man, or the last one
    /// (see [`Geometry::screened`]).
    screen: W,
    /// The man's share of the row number at the other end (see `Geometry::share`;
    /// `usize::MAX` outside its domain or for alike men).
    share: usize,
    /// The path may end on an empty square.
    moves: bool,
    /// The path may take a man.
    takes: bool,
    /// The path ends where the man must promote.
    promotes: bool,
    /// The path only gives check (the flying general's sight line): it attacks a royal on
    /// its end, and is neither a move nor a capture.
    checks: bool,
    /// A pawn's move to an empty square when the table is solved by levels (see
    /// [`Geometry::heights`]): it leaves the level, and is looked up like a conversion.
    pushes: bool,
    /// The path passes squares where a man of the other side may take it en passant.
    sets_ep: bool,
}

/// One path of the last man inside its row: its other end (local index) and what it needs
/// of the other men (`need.empty`: the squares it crosses and its other end).
#[derive(Clone, Copy, Debug)]
struct VStep<W> {
    local: u8,
    need: Need<W>,
}

/// What a path of the last man needs of the other men: board squares empty, and board
/// squares occupied (hop screens).
#[derive(Clone, Copy, Debug)]
struct Need<W> {
    empty: W,
    screen: W,
}

impl<W: Word> Need<W> {
    /// True when the other men (on `occ`) leave the path open.
    #[inline]
    fn open(self, occ: W) -> bool {
        !(occ & self.empty).any() && occ & self.screen == self.screen
    }
}

/// A step of [`Step`] reduced to what verification and un-moves read of it, for a man
/// whose steps need no symmetry map, set rank or hop screen (see [`Geometry::quick`]).
#[derive(Clone, Copy)]
struct Quick<W> {
    block: W,
    vblock: W,
    share: usize,
}

/// The moves of the table's men in row form.
struct Geometry<W> {
    /// Men; the last one is the row's.
    m: usize,
    /// Row length (the last man's domain).
    len: usize,
    /// Colour per man.
    colour: Vec<u8>,
    /// Per man but the last, per square: forward paths that stay in the table (move to an
    /// empty square without promoting), but a pawn's when solved by levels.
    moves: Vec<Vec<Vec<Step<W>>>>,
    /// Per man but the last, per square: forward paths that take or promote, and a pawn's
    /// moves out of its level (see [`Step::pushes`]).
    hits: Vec<Vec<Vec<Step<W>>>>,
    /// Per man but the last, per square: the paths that end there (un-moves); none of a
    /// pawn's when solved by levels (they come from a level solved later).
    unmoves: Vec<Vec<Vec<Step<W>>>>,
    /// Per man but the last, when neither the first (whose steps may need a symmetry
    /// map) nor one of alike men (indexed as a set) and none of its paths has a hop
    /// screen: per square, its `moves` and `unmoves` that stay in its domain as
    /// [`Quick`] steps, `(moves, unmoves)`. A quick step costs verification about a
    /// third of the instructions of a whole one (KRvKP's kings).
    quick: Vec<Option<Quicks<W>>>,
    /// Per side: its men but the last.
    side_men: [Vec<usize>; 2],
    /// The last man's forward paths by local index (but those of `vleaps`).
    vmoves: Vec<Vec<VStep<W>>>,
    /// Per local index: the other ends of its `vmoves`, as row bits, and the board squares
    /// any of them needs empty (the paths of `vleaps` left out).
    vtargets: Vec<(W, W)>,
    /// The last man's one-square paths (nothing crossed) by their offset in the row, with the
    /// row bits they start from, when the row is the board itself (local index = square):
    /// verification tests them for the whole row by shifts of the open squares. Those paths
    /// are then left out of `vmoves`.
    vleaps: Vec<(i32, W)>,
    /// The last man's rays when its moves are `vleaps` and whole rays along some of them
    /// (a rook, bishop or queen, the row the board itself): per ray, the offset of its step
    /// and the row bits a step may start from. The moves and un-moves of such a man are
    /// then made for the whole row by shifts (see [`Geometry::reach`]), and `vmoves` and
    /// `vunmoves` are empty.
    vslides: Vec<(i32, W)>,
    /// True when `vleaps` and `vslides` are the whole of the last man's moves (un-moves are
    /// then theirs reversed, made by shifts too).
    vpure: bool,
    /// Per local index: the other ends of its `vunmoves`, as row bits, and the board
    /// squares any of them needs empty.
    vsources: Vec<(W, W)>,
    /// The last man's paths ending at each local index (un-moves).
    vunmoves: Vec<Vec<VStep<W>>>,
    /// Per board square: the last man's paths that take there, as (origin local index,
    /// squares that must be empty, promotes).
    vinto: Vec<Vec<(u8, Need<W>, bool)>>,
    /// The last man's paths that promote on an empty square: (origin local index,
    /// destination, squares that must be empty).
    vpromote: Vec<(u8, u8, Need<W>)>,
    /// Per board square: the last man's check-only paths that end there, as (origin local
    /// index, squares that must be empty).
    vcheck: Vec<Vec<(u8, Need<W>)>>,
    /// Per symmetry map: the last man's local index to that of its image.
    vmap: Vec<Vec<u8>>,
    /// Per symmetry map: the same as whole-word bit operations (transpose, mirror files,
    /// mirror ranks), when they agree with `vmap` on every square (an 8x8 row).
    vflip: Vec<Option<(bool, bool, bool)>>,
    /// Per symmetry map: the word operations of its inverse, when `vflip` has them.
    vunflip: Vec<Option<(bool, bool, bool)>>,
    /// Per board square: the last man's bit for it (0 outside its domain).
    vbit: Vec<W>,
    /// Per man but the last, per board square: the man's share of the row number (its local
    /// index times its stride in rows), `usize::MAX` outside its domain; a move of one man
    /// changes the row by the difference of two shares. Not for alike men (see `set_stride`).
    share: Vec<Vec<usize>>,
    /// Per man but the last: for alike men (indexed as a set), their factor's stride in rows.
    set_stride: Vec<Option<usize>>,
    /// All bits of a row.
    full: W,
    /// When the table is solved by levels: per man that promotes (the first men), per
    /// board square, the most moves to an empty square it can still make before it
    /// promotes; a level holds the rows of one sum of these over the men (see
    /// [`Solver::levels`]). Empty otherwise.
    heights: Vec<Vec<u8>>,
    /// Per side to move: what the bare-king rule makes of every position, when it decides
    /// them by itself (a side holds its royal alone).
    bare: [Option<Bare>; 2],
    /// Per factor of the men but the last, when row numbers fit 32 bits: its size and the
    /// squares of its men per value, the digits of a row number (see [`Geometry::decode`]).
    digits: Option<Box<Digits>>,
}

/// A man's [`Quick`] steps per square: moves, un-moves.
type Quicks<W> = (Vec<Vec<Quick<W>>>, Vec<Vec<Quick<W>>>);

/// The [`Quick`] steps of `steps` (one man's, per square) that stay in the man's domain.
fn quicks<W: Word>(steps: &[Vec<Step<W>>]) -> Vec<Vec<Quick<W>>> {
    (steps.iter())
        .map(|list| {
            (list.iter())
                .filter(|st| st.share != usize::MAX)
                .map(|st| Quick {
                    block: st.block,
                    vblock: st.vblock,
                    share: st.share,
                })
                .collect()
        })
        .collect()
}

/// The digits of a row number, factor by factor of the men but the last (see
/// [`Geometry::digits`]): fixed arrays, so that a decode reads no heap but the squares.
struct Digits {
    /// Per factor: its size.
    size: [u32; MAX_MEN],
    /// Per factor: `u64::MAX / size + 1`, to divide a 32-bit row number by a multiplication
    /// (see [`div_rem`]): a decode made a hardware divide per man, the slowest step of
    /// expanding a row.
    magic: [u64; MAX_MEN],
    /// Per factor: its first man.
    first: [u8; MAX_MEN],
    /// Per factor: its number of men (more than one: a run of alike men, see `sets`).
    men: [u8; MAX_MEN],
    /// The number of factors.
    factors: usize,
    /// Per man alone in its factor: its squares by local index (a row solver's board has
    /// at most `MAX_ROW`).
    squares: [[u8; MAX_ROW]; MAX_MEN],
    /// Per factor of alike men: their squares for each rank, one after the other (one
    /// read, where the indexer's unrank reads local indices and then their squares).
    sets: [Vec<u8>; MAX_MEN],
    /// The last man's first square (the decoded squares hold a full position).
    last: u8,
}

/// A decode that remembers its run: the rows that differ only in the digit of the lowest
/// factor (one man, the one before the last) share the other men's squares, so a walk over
/// rows in order (a sweep, a seed) decodes each run once and then sets one square per row.
struct Cursor<W> {
    /// The decoded squares (see [`Geometry::decode`]).
    f: [u8; MAX_MEN],
    /// The rows of the current run (empty before the first decode).
    run: std::ops::Range<usize>,
    /// The occupancy of the men but the lowest factor's.
    high: W,
}

impl<W: Word> Cursor<W> {
    fn new() -> Cursor<W> {
        Cursor {
            f: [0; MAX_MEN],
            run: 0..0,
            high: W::ZERO,
        }
    }
}

/// The most squares of a board, and of a row, the solver takes (a row of 128 bits).
const MAX_ROW: usize = 128;

/// False when the variant's rules keep every table from the row solver (a board of more
/// than 128 squares, passing).
pub fn rules_allow(rules: &Rules) -> bool {
    rules.board.n <= MAX_ROW && !rules.game.null_move
}

/// True when the row solver applies to the table (see the module doc).
pub fn eligible(table: &Table) -> bool {
    let rules = &table.rules;
    let m = table.men();
    if m < 2 || !rules_allow(rules) || table.index.domain(m - 1).len() > MAX_ROW {
        return false;
    }
    let royals = |c: u8| {
        table
            .material
            .men
            .iter()
            .filter(|s| s.colour == c && !s.not_royal)
            .count()
    };
    if royals(0) == 0 || royals(1) == 0 {
        return false;
    }
    for i in 0..m {
        let (c, p) = (table.colour[i] as usize, table.piece[i] as usize);
        for j in 0..m {
            if rules.no_capture[p][table.piece[j] as usize] {
                return false;
            }
        }
        let pm = &rules.moves[c][p];
        if pm.unsupported.is_some() || pm.irregular {
            // Men taken on the way, burnt, or a pass: the general solver's.
            return false;
        }
        let domain = rules.domain[c][p];
        let promo = &rules.promo[c][p];
        if promo.on_entry && !promo.choices.is_empty() {
            // Whether a move may promote depends on its capture: the general solver's.
            return false;
        }
        for s in domain.squares().map(usize::from) {
            for path in &pm.from[s] {
                let r = path.rights;
                // Hop screens may hold any man (no friend or foe conditions).
                let only_empty = path.cond.friend == 0 && path.cond.foe == 0;
                if r == rights::CHECK_ONLY && only_empty {
                    // A sight line: it ends on the other royal, wherever that stands.
                    continue;
                }
                let plain = (r == rights::MOVE
                    || r == rights::CAPTURE
                    || r == rights::MOVE | rights::CAPTURE)
                    && only_empty;
                // A promotion leaves the table; one that may be declined stays in it too,
                // as a plain move or capture.
                let lands = promo.must(s as u8, path.to) || domain.has(path.to);
                if !plain || !lands {
                    return false;
                }
            }
        }
    }
    true
}

/// Per man that promotes, per board square, the most moves to an empty square (not
/// promoting) it can still make: when the men that promote are the first ones (a pawn
/// table's order, see `layout`), not the last, their moves never return (the heights exist), and no
/// rule looks further than the position (the perpetual-check ban): then a move of such a
/// man lowers the sum of the heights, and the table is solved by levels of that sum, the
/// lowest first (see [`Solver::levels`]). `None` otherwise.
fn heights(table: &Table) -> Option<Vec<Vec<u8>>> {
    let rules = &table.rules;
    let m = table.men();
    let promotes = |i: usize| {
        !rules.promo[table.colour[i] as usize][table.piece[i] as usize]
            .choices
            .is_empty()
    };
    let pawns = (0..m).take_while(|&i| promotes(i)).count();
    if pawns == 0 || pawns + 1 >= m || (pawns..m).any(promotes) {
        return None;
    }
    if rules.game.perpetual_check_loses {
        return None;
    }
    (0..pawns)
        .map(|i| {
            let (c, p) = (table.colour[i] as usize, table.piece[i] as usize);
            let promo = &rules.promo[c][p];
            let next = |s: usize| {
                rules.moves[c][p].from[s]
                    .iter()
                    .filter(|path| path.rights & rights::MOVE != 0 && !promo.must(s as u8, path.to))
                    .map(|path| path.to as usize)
                    .collect::<Vec<_>>()
            };
            height_table(rules.board.n, &next)
        })
        .collect()
}

/// The longest walk from each of `n` squares along `next`, `None` when some walk can
/// return to a square (or is longer than a byte holds).
fn height_table(n: usize, next: &dyn Fn(usize) -> Vec<usize>) -> Option<Vec<u8>> {
    // Relaxed `n` times: a longest walk without a cycle has fewer than `n` steps, so a
    // change in round `n` means a cycle.
    let succ: Vec<Vec<usize>> = (0..n).map(next).collect();
    let mut h = vec![0usize; n];
    for _ in 0..=n {
        let mut changed = false;
        for s in 0..n {
            let best = succ[s].iter().map(|&t| h[t] + 1).max().unwrap_or(0);
            if best > h[s] {
                h[s] = best;
                changed = true;
            }
        }
        if !changed {
            return h.into_iter().map(|x| u8::try_from(x).ok()).collect();
        }
    }
    None
}

impl<W: Word> Geometry<W> {
    fn new(table: &Table) -> Geometry<W> {
        let rules = &table.rules;
        let n = rules.board.n;
        let m = table.men();
        let last = m - 1;
        let ix = &table.index;
        let heights = heights(table).unwrap_or_default();
        let en_passant = table.en_passant();
        let len = ix.domain(last).len();
        let vbit: Vec<W> = (0..n)
            .map(|s| ix.local_of(last, s as u8).map_or(W::ZERO, |l| W::bit(l)))
            .collect();
        let vbits = |set: Bits| set.squares().fold(W::ZERO, |acc, s| acc | vbit[s as usize]);
        let pm_of = |i: usize| &rules.moves[table.colour[i] as usize][table.piece[i] as usize];
        let mut share = vec![vec![usize::MAX; n]; last];
        for (i, sh) in share.iter_mut().enumerate() {
            // The last man's factor is the innermost: every other stride is a whole row's.
            let stride = ix.stride_of(i) / len;
            for (l, &s) in ix.domain(i).iter().enumerate() {
                sh[s as usize] = l * stride;
            }
        }
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
                        vblock: vbits(empty | bit(path.to)),
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
                    if i < heights.len() {
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
                        vblock: vbits(empty | bit(s as u8)),
                        share: share_of(s),
                        ..step
                    });
                }
            }
            moves.push(fwd);
            hits.push(hit);
            unmoves.push(back);
        }
        let vpm = pm_of(last);
        let mut vmoves = vec![Vec::new(); len];
        let mut vunmoves = vec![Vec::new(); len];
        let mut vinto = vec![Vec::new(); n];
        let mut vpromote = Vec::new();
        let mut vcheck = vec![Vec::new(); n];
        for (a, &sa) in ix.domain(last).iter().enumerate() {
            for path in &vpm.from[sa as usize] {
                let empty = path.cond.empty;
                let screen = W::of_set(path.cond.screen_bits());
                let need = Need {
                    empty: W::of_set(empty),
                    screen,
                };
                if path.rights == rights::CHECK_ONLY {
                    vcheck[path.to as usize].push((a as u8, need));
                    continue;
                }
                let promotes = promo_of(last).may(sa, path.to, path.rights & rights::CAPTURE != 0);
                // A promotion that may be declined is a plain move or capture as well.
                let declines = promotes && !promo_of(last).must(sa, path.to);
                if path.rights & rights::CAPTURE != 0 {
                    vinto[path.to as usize].push((a as u8, need, promotes));
                    if declines {
                        vinto[path.to as usize].push((a as u8, need, false));
                    }
                }
                if path.rights & rights::MOVE == 0 {
                    continue;
                }
                if promotes {
                    vpromote.push((a as u8, path.to, need));
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
                vmoves[a].push(VStep {
                    local: b as u8,
                    need: need_to(path.to),
                });
                vunmoves[b].push(VStep {
                    local: a as u8,
                    need: need_to(sa),
                });
            }
        }
        let vmap: Vec<Vec<u8>> = ix
            .maps
            .iter()
            .map(|map| {
                ix.domain(last)
                    .iter()
                    .map(|&s| ix.local_of(last, map[s as usize]).unwrap_or(0) as u8)
                    .collect()
            })
            .collect();
        let set_stride = (0..last)
            .map(|i| ix.alike(i).then(|| ix.stride_of(i) / len))
            .collect();
        let vflip: Vec<Option<(bool, bool, bool)>> = vmap
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
        let vunflip = (0..ix.maps.len())
            .map(|k| inverse(k).and_then(|u| vflip[u]))
            .collect();
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
            for (j, (first, men, size)) in ix.factor_spans().filter(|f| f.0 < last).enumerate() {
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
        let ends = |steps: &Vec<Vec<VStep<W>>>| {
            // A path with a hop screen needs a man where the others need none: every square
            // counts as a block, so that such ends are always looked at path by path.
            let both = |(l, b): (W, W), vs: &VStep<W>| {
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
        };
        let vleaps = leaps(&mut vmoves, ix.domain(last));
        let vslides = slides(&vmoves, &vleaps);
        // Rays are found only where every path left is one (see `slides`).
        let vpure = !vleaps.is_empty() && (!vslides.is_empty() || vmoves.iter().all(Vec::is_empty));
        if vpure {
            vmoves.iter_mut().for_each(Vec::clear);
            vunmoves.iter_mut().for_each(Vec::clear);
        }
        let (vtargets, vsources) = (ends(&vmoves), ends(&vunmoves));
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
            vtargets,
            vleaps,
            vslides,
            vpure,
            vsources,
            digits,
            m,
            len,
            share,
            set_stride,
            vflip,
            vunflip,
            colour: table.colour.clone(),
            moves,
            unmoves,
            vmoves,
            vunmoves,
            vinto,
            vpromote,
            vcheck,
            hits,
            vmap,
            vbit,
            full: W::low(len),
            heights,
            bare: [0, 1].map(|x| table.bare(x)),
        }
    }

    /// The row after man `i` (not the last) takes step `st`, with `base` the row less the
    /// man's share ([`Geometry::base`]), when no symmetry map is needed; `None` outside the
    /// man's domain, or where alike men would share a square.
    #[inline]
    fn step_row(
        &self,
        ix: &Indexer,
        base: usize,
        f: &[u8],
        i: usize,
        st: &Step<W>,
    ) -> Option<usize> {
        if let Some(stride) = self.set_stride[i] {
            // Alike men: the set's rank with the man on its new square.
            let after = ix.factor_value(i, f, st.sq)?;
            return (base != usize::MAX).then(|| base + after * stride);
        }
        (st.share != usize::MAX).then(|| base + st.share)
    }

    /// The row's bits where a path whose hop screens are `screen` finds them occupied, the
    /// other men standing on `occ`: all when they fill them, the last man's bit for a
    /// screen it alone can fill, none when more are missing.
    #[inline]
    fn screened(&self, occ: W, screen: W) -> W {
        let missing = screen & !occ;
        if !missing.any() {
            self.full
        } else if !missing.drop_lowest().any() {
            self.vbit[missing.lowest()]
        } else {
            W::ZERO
        }
    }

    /// The row less man `i`'s share (see [`Geometry::step_row`]): for alike men, their
    /// set's rank, once per row rather than once per step (`usize::MAX` should the row's
    /// set have none).
    #[inline]
    fn base(&self, ix: &Indexer, row: usize, f: &[u8], i: usize) -> usize {
        match self.set_stride[i] {
            Some(stride) => ix
                .factor_value(i, f, f[i])
                .map_or(usize::MAX, |before| row - before * stride),
            None => row - self.share[i][f[i] as usize],
        }
    }

    /// The squares of the men but the last for a row (the last on its first square), and
    /// their occupancy.
    #[inline]
    fn decode(&self, ix: &Indexer, row: usize, f: &mut [u8; MAX_MEN]) -> W {
        let m = self.m;
        if let Some(d) = &self.digits {
            // The indexer's decode less the last man's digit, in 32 bits (a quicker divide).
            let mut r = row as u32;
            for j in (0..d.factors.min(MAX_MEN)).rev() {
                let (q, rem) = div_rem(r, d.size[j], d.magic[j]);
                let (i, men) = (d.first[j] as usize % MAX_MEN, d.men[j] as usize);
                if men == 1 {
                    f[i] = d.squares[i][rem as usize % MAX_ROW];
                } else {
                    let at = rem as usize * men;
                    f[i..i + men].copy_from_slice(&d.sets[j][at..at + men]);
                }
                r = q;
            }
            f[(m - 1).min(MAX_MEN - 1)] = d.last;
        } else {
            ix.decode(row * self.len, &mut f[..m]);
        }
        f[..m - 1]
            .iter()
            .fold(W::ZERO, |acc, &s| acc | W::bit(s as usize))
    }

    /// [`Geometry::decode`] into `c.f`, through the cursor's run when `row` lies in it.
    #[inline]
    fn decode_at(&self, ix: &Indexer, row: usize, c: &mut Cursor<W>) -> W {
        let Some(d) = &self.digits else {
            return self.decode(ix, row, &mut c.f);
        };
        let j = d.factors.wrapping_sub(1).min(MAX_MEN - 1);
        let i = d.first[j] as usize % MAX_MEN;
        if c.run.contains(&row) {
            let s = d.squares[i][(row - c.run.start) % MAX_ROW];
            c.f[i] = s;
            return c.high | W::bit(s as usize);
        }
        let occ = self.decode(ix, row, &mut c.f);
        if d.factors > 0 && d.men[j] == 1 {
            let (_, digit) = div_rem(row as u32, d.size[j], d.magic[j]);
            c.run = row - digit as usize..row - digit as usize + d.size[j] as usize;
            c.high = (c.f[..self.m - 1].iter().enumerate())
                .filter(|&(k, _)| k != i)
                .fold(W::ZERO, |acc, (_, &s)| acc | W::bit(s as usize));
        }
        occ
    }

    /// The row bits (squares) from which a move of the last man along `vleaps` or
    /// `vslides` ends on a square of `to`, the other men standing on `occ`: a ray crosses
    /// only squares free of them. `to` need not be free itself (the caller says what may
    /// be reached), nor the origins.
    #[inline]
    fn reach(&self, to: W, occ: W) -> W {
        let mut out =
            (self.vleaps.iter()).fold(W::ZERO, |r, &(d, from)| r | (from & to.offset_by(d)));
        for &(d, from) in &self.vslides {
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

    /// The row bits from which the last man, by `vleaps` and `vslides`, reaches a square
    /// neither closed (`closed`: that row's word of the other side) nor holding another
    /// man (on `occ`). Local indices are squares here.
    #[inline]
    fn reach_open(&self, closed: W, occ: W) -> W {
        self.reach(self.full & !closed & !occ, occ)
    }

    /// The image of a row's bits under map `k`.
    #[inline]
    fn permute(&self, bits: W, k: usize) -> W {
        if k == 0 {
            return bits;
        }
        if let Some(flip) = self.vflip[k] {
            return W::of_low64(flip_word(bits.low64(), flip));
        }
        let map = &self.vmap[k];
        let mut out = W::ZERO;
        for b in ones(bits) {
            out |= W::bit(map[b] as usize);
        }
        out
    }
}

/// The slices (by their place in the solving order, `at[slice]`) whose values the seed of
/// slice `slice` (of `per` rows) reads: those its pawns' moves to an empty square lead to
/// (captures and promotions lead to sub-tables). `None` when a move's slice is not told by
/// its row alone (it leaves the first man's region and is mapped back): the slice then
/// waits for every lower level. A move leads to a lower level, solved earlier; one that
/// did not would wait for ever, so it too falls back on the levels.
fn slice_needs<W: Word>(
    g: &Geometry<W>,
    ix: &Indexer,
    per: usize,
    slice: usize,
    at: &[usize],
) -> Option<Vec<usize>> {
    let mut f = [0u8; MAX_MEN];
    let row = slice * per;
    g.decode(ix, row, &mut f);
    let own = *at.get(slice)?;
    let mut out = Vec::new();
    for i in 0..g.heights.len() {
        let base = g.base(ix, row, &f, i);
        for st in g.hits[i][f[i] as usize].iter().filter(|st| st.pushes) {
            let to = g.step_row(ix, base, &f, i, st)?;
            out.push(*at.get(to / per).filter(|&&k| k < own)?);
        }
    }
    Some(out)
}

/// Takes the one-square paths out of `vmoves` (by local index) as (offset, origins) when the
/// last man's domain is the board in order, so that a local index is a square: see
/// [`Geometry::vleaps`]. Nothing otherwise.
fn leaps<W: Word>(vmoves: &mut [Vec<VStep<W>>], domain: &[u8]) -> Vec<(i32, W)> {
    if domain.iter().enumerate().any(|(b, &s)| b != s as usize) {
        return Vec::new();
    }
    let mut out: Vec<(i32, W)> = Vec::new();
    for (a, steps) in vmoves.iter_mut().enumerate() {
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

/// The rays of the last man (see [`Geometry::vslides`]) when the paths `vmoves` has left
/// after [`leaps`] are exactly whole rays along some of `leaps`' offsets: each path from
/// `a` ends `k >= 2` steps of offset `d` further, crosses the squares between, and every
/// step starts where a one-square path of offset `d` does; and every such walk from every
/// square is a path. Nothing otherwise (the paths stay as they are).
fn slides<W: Word>(vmoves: &[Vec<VStep<W>>], leaps: &[(i32, W)]) -> Vec<(i32, W)> {
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
    for (a, steps) in vmoves.iter().enumerate() {
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
        for (a, steps) in vmoves.iter().enumerate() {
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
fn div_rem(r: u32, n: u32, magic: u64) -> (u32, u32) {
    if magic == 0 {
        return (r, 0);
    }
    let q = ((u128::from(magic) * u128::from(r)) >> 64) as u32;
    (q, r - q * n)
}

/// The image of an 8x8 bit board (bit `8 * rank + file`) under a transpose, then a mirror
/// of the files, then of the ranks (the order of `board::MAPS`).
#[inline]
fn flip_word(mut x: u64, (transpose, files, ranks): (bool, bool, bool)) -> u64 {
    if transpose {
        // Swaps file and rank: three exchanges of bit blocks across the a1-h8 diagonal.
        const K1: u64 = 0x5500_5500_5500_5500;
        const K2: u64 = 0x3333_0000_3333_0000;
        const K4: u64 = 0x0f0f_0f0f_0000_0000;
        let t = K4 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        let t = K2 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        let t = K1 & (x ^ (x << 7));
        x ^= t ^ (t >> 7);
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

/// One bit per row position and side: a word per row.
type Rows<W> = [Vec<<W as Word>::Atomic>; 2];

/// One capture in the positions of a row (see [`Solver::capture_list`]).
#[derive(Clone, Copy)]
struct Capture<W> {
    /// The squares after it; man `open`'s is set per position when `spread`.
    next: [u8; MAX_MEN],
    /// The man taken, if any.
    victim: Option<usize>,
    /// The promotion, if any: the man and what it becomes.
    promo: Option<(usize, PieceId)>,
    /// The row's positions in which it can be made.
    bits: W,
    /// The positions after it differ: man `open` stands on the square of the row's bit (the
    /// last man, or the man that takes it); otherwise they are one.
    spread: bool,
    /// The man whose square differs between the positions after it, or after the captures
    /// of its kind (see [`Captures`]): the last man, unless it was taken (then the man that
    /// took it).
    open: u8,
    /// The mover may win by it (see [`Table::conv_may_win`]).
    may_win: bool,
}

/// A row's captures, and the sub-table lookups made for them with one man's square left
/// open: a capture's positions differ only in the last man's square, and the captures that
/// take the last man, or that it makes, each made in one position, only in the square of
/// the man that moves.
#[derive(Default)]
struct Captures<'a, W> {
    list: Vec<Capture<W>>,
    /// For the captures made in one position: conversion key, open man, the lookup.
    looks: Vec<(usize, u8, Option<ConvPartial<'a>>)>,
}

/// What a position's captures lead to (see [`Solver::seed_values`]), per row bit.
struct Outcomes<W> {
    /// Some legal capture.
    any: W,
    /// Some capture to a loss; `best[b]` the quickest win by one.
    won: W,
    best: [u8; MAX_ROW],
    /// Some capture to a draw (or an undecided position).
    open: W,
    /// The slowest loss by a capture to a win.
    worst: [u8; MAX_ROW],
}

impl<W: Word> Outcomes<W> {
    /// Adds a move from position `b` to a position of code `code` (the other side to move).
    #[inline]
    fn add(&mut self, b: usize, code: u8) {
        self.any |= W::bit(b);
        if is_loss(code) {
            self.best[b] = self.best[b].min(plies(code) + 1);
            self.won |= W::bit(b);
        } else if is_win(code) {
            self.worst[b] = self.worst[b].max(plies(code) + 1);
        } else {
            self.open |= W::bit(b);
        }
    }

    /// No move yet.
    fn new() -> Outcomes<W> {
        Outcomes {
            any: W::ZERO,
            won: W::ZERO,
            best: [u8::MAX; MAX_ROW],
            open: W::ZERO,
            worst: [0; MAX_ROW],
        }
    }

    /// [`Outcomes::add`] for the first `len` positions of a row at once, a move from
    /// position `b` to code `codes[b]` (none where it is `ILLEGAL`); returns the positions
    /// with a move. Without a branch per position: a conversion's codes come in no order,
    /// and the branches on them were mispredicted (the distances go in [`LANE`]s of bytes,
    /// the masks from eight bytes to a word).
    fn add_row(&mut self, codes: &RowCodes, len: usize) -> W {
        let lanes = (self.best.chunks_exact_mut(LANE))
            .zip(self.worst.chunks_exact_mut(LANE))
            .zip(codes.chunks_exact(LANE))
            .take(len.div_ceil(LANE));
        for ((best, worst), codes) in lanes {
            for j in 0..LANE {
                // A loss's code is its plies plus one, and `ILLEGAL` odd and above them all;
                // a win's too, but `WON_NOW`'s (no plies) and `DRAW`'s (no win).
                let c = codes[j];
                let odd = c & 1;
                let even = odd ^ 1;
                // Without branches or selects, in lanes: odd codes to `best`, even to `worst`.
                best[j] = best[j].min(c | even.wrapping_neg());
                let won_now = u8::from(c == WON_NOW);
                worst[j] = worst[j].max((c & odd.wrapping_sub(1)) - won_now * (WON_NOW - 1));
            }
        }
        let mut any = W::ZERO;
        for (k, chunk) in codes.chunks_exact(8).take(len.div_ceil(8)).enumerate() {
            let v = u64::from_le_bytes(chunk.try_into().unwrap_or_default());
            let present = !zero_bytes(!v) & BYTE_LOW;
            let at = |m: u64| W::of_low64(byte_bits(m)).offset_by(-8 * k as i32);
            any |= at(present);
            self.won |= at(v & present);
            self.open |= at(zero_bytes(v));
        }
        self.any |= any;
        any
    }
}

/// One conversion's codes in a row's positions, a byte per position (see
/// [`Outcomes::add_row`]).
type RowCodes = [u8; MAX_ROW];

/// Bytes [`Outcomes::add_row`] takes at a time for the distances: an SSE2 register's (a
/// fixed count of plain arithmetic, which the compiler turns into vector operations).
const LANE: usize = 16;

/// The low bit of each byte of a word.
const BYTE_LOW: u64 = 0x0101_0101_0101_0101;

/// The low bit of each byte of `x` set where the byte is zero, the others clear (exact:
/// no borrow crosses a byte).
#[inline]
fn zero_bytes(x: u64) -> u64 {
    let high = BYTE_LOW * 0x7f;
    !(((x & high) + high) | x) >> 7 & BYTE_LOW
}

/// Bit `k` set where byte `k` of `x` (which holds only low bits of bytes) is set: the
/// multiplication moves byte `k`'s bit to bit `56 + k` without carries.
#[inline]
fn byte_bits(x: u64) -> u64 {
    x.wrapping_mul(0x0102_0408_1020_4080) >> 56
}

/// Decided positions waiting for their distance (seeds and losses deferred by captures):
/// `(row, side, bits)` per distance, in the lists the threads filed them in (the seed's
/// lists are moved in whole, not copied: they hold most of a table's captures).
type Later<W> = Vec<Mutex<Vec<Filed<W>>>>;

/// A thread's list of decided positions of one distance: `(row, side, bits)`.
type Filed<W> = Vec<(usize, u8, W)>;

/// The byte of an undecided position with a capture to a draw (see [`Solver::seed_values`]);
/// otherwise its byte holds one more than the deepest win a capture leads to (0: no
/// capture). Positions still undecided at the end are set to `DRAW`.
const HELD: u8 = u8::MAX;

/// Slots of a [`Merger`] (a power of two): more for tables of at most `SMALL` rows.
/// Measured: KQvKR with 4096 slots, 2.52G -> 2.39G instructions and 0.22 s -> 0.20 s;
/// KBBvKN with 4096, 3 % slower (its rows' state is far bigger than the cache, and the
/// buffer's own lines then cost more than the merging saves).
const SLOTS: [usize; 2] = [1024, 4096];

/// The shortest list of deferred positions that [`Solver::merge_later`] hands to all
/// threads (a shorter one costs less than starting them).
const PARALLEL_LATER: usize = 1 << 12;

/// The fewest rows with news that a distance pass spreads over threads: a shorter pass
/// costs less than starting a thread (most of a table's distances near the end are short).
const FEW_ROWS: usize = 64;

/// The undecided rows are counted (see [`Solver::sweeps`]) only when the rows the news
/// reach are at least this fraction of the rows solved.
const SWEEP_SCAN: usize = 16;

/// The most rows of a table that gets the larger [`Merger`], and of the rows solved
/// together (a table, a level or a slice) whose passes over wins may be sweeps (see
/// [`Solver::sweeps`]).
const SMALL: usize = 1 << 17;

/// The fewest positions of a row in which a conversion is made whose codes are added for
/// the whole row at once (see [`Outcomes::add_row`]); below, position by position.
const ROW_CODES: u32 = 16;

/// Rows a [`Merger`] acts on together.
const BATCH: usize = 16;

/// Slots of a [`Merger`] per row of news in its pass (at most): a row's predecessors lie in
/// a few dozen rows.
const NEWS_SLOTS: usize = 32;

/// A small direct-mapped buffer that merges the bits emitted for one row several times
/// (neighbouring rows share predecessors) before they are acted on: fewer verifications and
/// fewer random accesses. Evicted rows are acted on in batches whose state lines are all
/// requested first, so that their cache misses overlap. Acting later within a pass is safe:
/// what a pass reads of the rows it acts on changes only by its own actions.
struct Merger<W> {
    slots: Vec<(usize, W)>,
    /// The slots in use, so that a drain visits only those: most passes fill few of them.
    used: Vec<u32>,
    batch: Vec<(usize, W)>,
}

impl<W: Word> Merger<W> {
    /// A buffer for a table of `rows` rows, in a pass over `news` rows of news.
    fn new(rows: usize, news: usize) -> Merger<W> {
        // No more slots than rows (a slice of a table solved by levels may be small), nor
        // than the pass can fill: a slice's passes are many and short, and a buffer is set
        // up for each.
        let fill = news.saturating_mul(NEWS_SLOTS).max(BATCH);
        let slots = SLOTS[(rows <= SMALL) as usize]
            .min(rows.next_power_of_two())
            .min(fill.next_power_of_two());
        Merger {
            slots: vec![(usize::MAX, W::ZERO); slots],
            used: Vec::new(),
            batch: Vec::with_capacity(BATCH),
        }
    }

    /// Adds `bits` to `row`'s slot; the row it evicts joins the batch (`done`: the rows'
    /// decided bits, `act`: what to do with a row).
    #[inline]
    fn add(&mut self, row: usize, bits: W, done: &[W::Atomic], act: &mut impl FnMut(usize, W)) {
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[row & mask];
        if slot.0 == row {
            slot.1 |= bits;
            return;
        }
        let old = std::mem::replace(slot, (row, bits));
        if old.0 == usize::MAX {
            self.used.push((row & mask) as u32);
        } else {
            self.batch.push(old);
            if self.batch.len() == BATCH {
                self.flush(done, act);
            }
        }
    }

    /// Acts on the batch: first one independent load per row (the misses overlap), then
    /// the actions, which find the lines in cache.
    fn flush(&mut self, done: &[W::Atomic], act: &mut impl FnMut(usize, W)) {
        let mut warm = 0;
        for &(row, _) in &self.batch {
            warm ^= done.get(row).map_or(0, |s| s.load(Relaxed).low64());
        }
        std::hint::black_box(warm);
        for &(row, bits) in &self.batch {
            act(row, bits);
        }
        self.batch.clear();
    }

    /// Acts on every row held.
    fn drain(&mut self, done: &[W::Atomic], act: &mut impl FnMut(usize, W)) {
        let used = std::mem::take(&mut self.used);
        for &k in &used {
            let slot = std::mem::replace(&mut self.slots[k as usize], (usize::MAX, W::ZERO));
            self.batch.push(slot);
            if self.batch.len() == BATCH {
                self.flush(done, act);
            }
        }
        self.flush(done, act);
    }
}

/// How the row state's read-modify-writes are made: locked atomic operations when several
/// threads solve the table, a load and a store when one does (a locked operation waits for
/// every store before it to reach the cache, and the distance passes make millions).
#[derive(Clone, Copy)]
struct Rmw {
    shared: bool,
}

impl Rmw {
    /// Sets the bits of `w`; returns the word before.
    #[inline]
    fn or<W: Word>(self, a: &W::Atomic, w: W) -> W {
        if self.shared {
            return a.fetch_or(w, AcqRel);
        }
        let old = a.load(Relaxed);
        a.store(old | w, Relaxed);
        old
    }

    /// Keeps the bits of `w` only; returns the word before.
    #[inline]
    fn and<W: Word>(self, a: &W::Atomic, w: W) -> W {
        if self.shared {
            return a.fetch_and(w, AcqRel);
        }
        let old = a.load(Relaxed);
        a.store(old & w, Relaxed);
        old
    }

    /// As [`AtomicWord::or_first`]: true when the word was empty, or some part of it was.
    #[inline]
    fn or_first<W: Word>(self, a: &W::Atomic, w: W) -> bool {
        if self.shared {
            return a.or_first(w, AcqRel);
        }
        let old = a.load(Relaxed);
        a.store(old | w, Relaxed);
        !old.any() && w.any()
    }

    /// [`Rmw::or`] on a 64-bit word.
    #[inline]
    fn or64(self, a: &AtomicU64, w: u64) {
        if self.shared {
            a.fetch_or(w, AcqRel);
        } else {
            a.store(a.load(Relaxed) | w, Relaxed);
        }
    }
}

/// The row state of one solve, shared by the threads.
struct State<W: Word> {
    /// Per side, per row: decided (won, lost, illegal, or held by a capture for ever).
    done: Rows<W>,
    /// Per side, per row: won by a capture at the seed, deeper than one ply, and not reached
    /// yet, or held by a capture to a draw (see `Solver::seed_row`): a quicker win may still
    /// replace it. Apart from `done` (most rows have none, and
    /// a win reads it only for positions already decided): a dense `done` fits the cache
    /// better.
    provisional: Rows<W>,
    /// Per side, per row: decided for good (`done` and not `provisional`; some such bits
    /// may be missing, see [`settle`]): most predecessors an un-move reaches are settled,
    /// and one load tells them.
    settled: Rows<W>,
    /// Per side, per row: not an escape for the side that moves into it (won in at most
    /// the distance being expanded, or illegal). An array of its own, 8 or 16 bytes a row:
    /// verification reads it in rows all over the table, and dense lines fit the cache
    /// better than a word in a wider row state.
    closed: Rows<W>,
    /// Decided at the distance being expanded (`[p & 1]`) and at the next one.
    news: [Rows<W>; 2],
    /// One bit per word of `news`: the words that are not zero.
    summary: [[Vec<AtomicU64>; 2]; 2],
    /// Positions without a legal move, found by the seed (see [`Table::stuck`]).
    stuck: [Vec<AtomicU64>; 2],
    /// Per side, per row: positions with a move of the last man to an escape, as found
    /// since the other side's `closed` word of the row last grew (see [`Solver::memo`]).
    moving: Rows<W>,
}

/// A pair of arrays, one per side, borrowed from a [`State`].
type Pair<'a, T> = [&'a [T]; 2];

/// Both sides' arrays of `v` as slices.
fn pair<T>(v: &[Vec<T>; 2]) -> Pair<'_, T> {
    [&v[0], &v[1]]
}

/// One solve of some rows (the table, a level, or a slice, see [`Solver::levels`]): the
/// shared state, and what belongs to this solve alone.
struct Solver<'a, W: Word> {
    t: &'a Table,
    g: &'a Geometry<W>,
    /// The shared state's arrays (see [`State`]), as slices: one load from here reaches a
    /// row's word, as when the solve owned them.
    done: Pair<'a, W::Atomic>,
    provisional: Pair<'a, W::Atomic>,
    settled: Pair<'a, W::Atomic>,
    closed: Pair<'a, W::Atomic>,
    news: [Pair<'a, W::Atomic>; 2],
    summary: [Pair<'a, AtomicU64>; 2],
    stuck: Pair<'a, AtomicU64>,
    moving: Pair<'a, W::Atomic>,
    /// Per side to move, `moving` is kept for its last man (see [`Solver::memo_of`]): in
    /// the solve of one slice, whose thread alone writes its rows (the word and the
    /// `closed` word it depends on are then written in order). The last man's moves stay
    /// in its row, so a position where it has an escape keeps it until that row's
    /// `closed` word grows: a candidate there needs no verification. KRvKP's White rook
    /// almost always has one: White's row verifications, 514,000 of the table's 1.39
    /// million, fall to 209,000.
    memo: [bool; 2],
    /// Threads, read at the start of each pass (the schedule may lend the solve one).
    threads: &'a Threads,
    /// The passes' read-modify-writes are locked ones (see [`Rmw`]): set by each pass from
    /// its thread count.
    shared: &'a AtomicBool,
    rows: usize,
    /// The words of `summary` the passes scan: the rows solved, in 64s.
    words: std::ops::Range<usize>,
    later: Later<W>,
    /// Passes over wins may be made by [`Solver::sweep`]; each one made is counted in
    /// `swept`.
    sweeps: bool,
    swept: &'a AtomicUsize,
    /// Per side, the rows a row's news reach through its men's un-moves, but the last
    /// man's (which stay in the row): see [`emits`].
    emits: [usize; 2],
    /// Work for the threads a sliced solve has nothing left for (see [`IdleWork`]).
    idle: Option<IdleWork<'a>>,
}

/// Per side, the rows one row's news reach through the un-moves of the side's men but the
/// last (each un-move of one of them emits another row): their paths' count averaged over
/// each man's domain, rounded.
fn emits<W: Word>(table: &Table, g: &Geometry<W>) -> [usize; 2] {
    let ix = &table.index;
    [0, 1].map(|side| {
        let paths: f64 = (g.side_men[side].iter())
            .map(|&i| {
                let domain = ix.domain(i);
                let n: usize = domain
                    .iter()
                    .map(|&sq| g.unmoves[i][sq as usize].len())
                    .sum();
                n as f64 / domain.len().max(1) as f64
            })
            .sum();
        paths.round() as usize
    })
}

/// A slice's solve: one thread, plain read-modify-writes (see [`Solver::solve_slices`]).
static ONE: Threads = Threads::new(1);

/// [`ONE`]'s read-modify-writes: never locked.
static UNSHARED: AtomicBool = AtomicBool::new(false);

/// Solves `table` with the row solver (the caller checked [`eligible`]) on `threads` threads.
pub fn solve(
    table: &Table,
    threads: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    solve_lent(table, &Threads::new(threads), None, progress)
}

/// [`solve`] with a thread count that may change between passes, and `idle` work for the
/// threads a sliced solve has nothing else for: in 64-bit words when the board fits them,
/// else in 128-bit ones.
pub fn solve_lent(
    table: &Table,
    threads: &Threads,
    idle: Option<IdleWork>,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    let swept = AtomicUsize::new(0);
    if table.rules.board.n <= u64::BITS as usize {
        solve_in::<u64>(table, threads, (true, &swept), idle, progress)
    } else {
        solve_in::<u128>(table, threads, (true, &swept), idle, progress)
    }
}

/// [`solve_lent`], with passes over wins made by sweeps where they cost less (`sweeps`)
/// or always through the predecessors; returns how many were made by sweeps (see
/// [`Solver::sweep`]).
pub fn solve_passes(
    table: &Table,
    threads: &Threads,
    sweeps: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<usize, SolveError> {
    let swept = AtomicUsize::new(0);
    if table.rules.board.n <= u64::BITS as usize {
        solve_in::<u64>(table, threads, (sweeps, &swept), None, progress)?;
    } else {
        solve_in::<u128>(table, threads, (sweeps, &swept), None, progress)?;
    }
    Ok(swept.into_inner())
}

/// [`solve`] in words of `W`.
fn solve_in<W: Word>(
    table: &Table,
    threads: &Threads,
    (sweeps, swept): (bool, &AtomicUsize),
    idle: Option<IdleWork>,
    progress: &mut dyn FnMut(&str),
) -> Result<(), SolveError> {
    let g = Geometry::<W>::new(table);
    // Only a pawn of the levels looks at the captures en passant its step allows (see
    // `push_outcomes`): a double step by another man would be an ordinary move.
    if table.en_passant() && (table.sets_en_passant()).any(|i| i >= g.heights.len()) {
        return Err(SolveError::EnPassant(table.name.clone()));
    }
    let rows = table.index.size / g.len;
    // Shared row words, all zero.
    let sides = || [W::zeroed(rows), W::zeroed(rows)];
    let sum = rows / 64 + 1;
    let st = State::<W> {
        done: sides(),
        provisional: sides(),
        settled: sides(),
        closed: sides(),
        news: [sides(), sides()],
        summary: [0, 1].map(|_| [zeroed_words(sum), zeroed_words(sum)]),
        stuck: [0, 1].map(|_| zeroed_words(table.index.size / 64 + 1)),
        moving: sides(),
    };
    let s = Solver {
        t: table,
        g: &g,
        done: pair(&st.done),
        provisional: pair(&st.provisional),
        settled: pair(&st.settled),
        closed: pair(&st.closed),
        news: [pair(&st.news[0]), pair(&st.news[1])],
        summary: [pair(&st.summary[0]), pair(&st.summary[1])],
        stuck: pair(&st.stuck),
        moving: pair(&st.moving),
        memo: [false; 2],
        threads,
        shared: &AtomicBool::new(threads.get() > 1),
        rows,
        words: 0..sum,
        later: later(),
        sweeps,
        swept,
        emits: emits(table, &g),
        idle,
    };
    if let Some((per, levels)) = s.slices() {
        s.solve_slices(per, &levels, progress)?;
    } else {
        s.seed_illegal();
        for level in s.levels() {
            s.seed_values(&level);
            progress("seeded");
            s.run(&level, progress)?;
        }
    }
    let stuck = st
        .stuck
        .each_ref()
        .map(|w| w.iter().map(|x| x.load(Relaxed)).collect());
    // Set once: a table is solved once.
    let _ = table.stuck.set(stuck);
    Ok(())
}

/// Empty lists of deferred positions (see [`Later`]).
fn later<W>() -> Later<W> {
    later_of(1)
}

/// The lists of [`later`] for `n` slices one after the other ([`LATER`] each).
fn later_of<W>(n: usize) -> Later<W> {
    (0..n * LATER).map(|_| Mutex::new(Vec::new())).collect()
}

/// The distances a [`Later`] holds.
const LATER: usize = MAX_PLIES as usize + 5;

/// What a slice waits for before it is solved (see [`Solver::solve_slices`]).
enum Needs {
    /// These slices (by their place in the solving order).
    Slices(Vec<usize>),
    /// Every slice before this place in the solving order.
    Below(usize),
}

/// The slices of a table solved by levels and who has them (see [`Solver::solve_slices`]):
/// per slice in the solving order, waiting, taken or done.
struct SliceBoard {
    state: Mutex<SliceState>,
    changed: Condvar,
}

struct SliceState {
    /// Per slice: 0 waiting, 1 taken, 2 done.
    slices: Vec<u8>,
    /// The slices before this place are all done.
    prefix: usize,
    done: usize,
    /// The first failure: no slice is taken after it.
    failed: Option<SolveError>,
}

const WAITING: u8 = 0;
const TAKEN: u8 = 1;
const DONE: u8 = 2;

impl SliceBoard {
    fn new(n: usize) -> SliceBoard {
        SliceBoard {
            state: Mutex::new(SliceState {
                slices: vec![WAITING; n],
                prefix: 0,
                done: 0,
                failed: None,
            }),
            changed: Condvar::new(),
        }
    }

    /// The first waiting slice whose needs are done, taken; waits while every waiting one
    /// needs one not done yet; `None` when none is left (or one failed).
    fn take(&self, needs: &[Needs]) -> Option<usize> {
        let mut st = self.state.lock().ok()?;
        loop {
            if st.failed.is_some() {
                return None;
            }
            let ready = |st: &SliceState, k: usize| match &needs[k] {
                Needs::Slices(list) => list.iter().all(|&j| st.slices[j] == DONE),
                Needs::Below(n) => st.prefix >= *n,
            };
            let mut left = false;
            for k in st.prefix..st.slices.len() {
                if st.slices[k] != WAITING {
                    continue;
                }
                left = true;
                if ready(&st, k) {
                    st.slices[k] = TAKEN;
                    return Some(k);
                }
            }
            if !left {
                return None;
            }
            st = self.changed.wait(st).ok()?;
        }
    }

    /// Marks slice `k` done (or the solve failed); returns how many are done.
    fn finish(&self, k: usize, failed: Option<SolveError>) -> usize {
        let Ok(mut st) = self.state.lock() else {
            return 0;
        };
        st.slices[k] = DONE;
        st.done += 1;
        while st.prefix < st.slices.len() && st.slices[st.prefix] == DONE {
            st.prefix += 1;
        }
        if st.failed.is_none() {
            st.failed = failed;
        }
        self.changed.notify_all();
        st.done
    }

    /// True when slice `k` is solved.
    fn is_done(&self, k: usize) -> bool {
        self.state.lock().is_ok_and(|st| st.slices[k] == DONE)
    }

    fn result(self) -> Result<(), SolveError> {
        match self.state.into_inner().ok().and_then(|st| st.failed) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

/// Adds `bits` to a row's settled word with a load and a store, even when threads share it:
/// the word only spares un-moves a look at the row (see [`Solver::settled`]), so a bit lost
/// to another thread's store at the same moment costs that look, never a value.
#[inline]
fn settle<W: Word>(word: &W::Atomic, bits: W) {
    word.store(word.load(Relaxed) | bits, Relaxed);
}

/// Files one seed of `row` and `side` for distance `q` in a thread's lists, merged with the
/// previous one when that is of the same row and side (a row's seeds come together).
fn file_seed<W: Word>(filed: &mut Vec<Filed<W>>, q: usize, row: usize, side: u8, bit: W) {
    if filed.len() <= q {
        filed.resize_with(q + 1, Vec::new);
    }
    match filed[q].last_mut() {
        Some(e) if e.0 == row && e.1 == side => e.2 |= bit,
        _ => filed[q].push((row, side, bit)),
    }
}

impl<'a, W: Word> Solver<'a, W> {
    /// The threads of a pass starting now; its read-modify-writes are locked when there
    /// are several (the threads are started after this, so they see the flag).
    fn pass_threads(&self) -> usize {
        self.threads_for(usize::MAX)
    }

    /// [`Solver::pass_threads`] for a pass over `rows` rows: one thread for fewer than
    /// [`FEW_ROWS`].
    fn threads_for(&self, rows: usize) -> usize {
        let n = if rows < FEW_ROWS {
            1
        } else {
            self.threads.get()
        };
        if self.shared.load(Relaxed) != (n > 1) {
            self.shared.store(n > 1, Relaxed);
        }
        n
    }

    /// How this pass makes its read-modify-writes.
    #[inline]
    fn rmw(&self) -> Rmw {
        Rmw {
            shared: self.shared.load(Relaxed),
        }
    }

    /// The distance passes over the seeded rows `level` until nothing is left to expand;
    /// then its undecided positions are draws.
    fn run(&self, level: &[usize], progress: &mut dyn FnMut(&str)) -> Result<(), SolveError> {
        let table = self.t;
        let mut p = 0u8;
        loop {
            let pending = self.merge_later(p);
            if !pending && !self.any_later(p) {
                if !table.rules.game.perpetual_check_loses
                    || self.perpetual_losses(&mut p, progress) == 0
                {
                    self.clear_notes(level);
                    return Ok(());
                }
                continue;
            }
            if pending {
                if p >= MAX_PLIES {
                    return Err(SolveError::TooDeep(table.name.clone()));
                }
                self.expand(p, true, level);
                self.expand(p, false, level);
                progress(&format!("distance {p}"));
            }
            p += 1;
        }
    }

    /// The rows in the order they are solved: one level of all rows, or when the pawns'
    /// moves leave their level (see [`heights`]) the rows of each sum of the heights, the
    /// lowest first. A level's moves reach only rows of its own or of lower levels, which
    /// are final then: so a level's state stays small enough for the cache.
    fn levels(&self) -> Vec<Vec<usize>> {
        let h = &self.g.heights;
        if h.is_empty() {
            return vec![(0..self.rows).collect()];
        }
        let mut f = [0u8; MAX_MEN];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for row in 0..self.rows {
            self.decode(row, &mut f);
            let sum: usize = h.iter().zip(&f).map(|(h, &s)| h[s as usize] as usize).sum();
            if out.len() <= sum {
                out.resize_with(sum + 1, Vec::new);
            }
            out[sum].push(row);
        }
        out.retain(|l| !l.is_empty());
        out
    }

    /// When the table is solved by levels (see [`heights`]) and each placement of the pawns
    /// (a slice: the rows of one value of the pawns' factors, which lead the index) is a
    /// whole number of `summary` words and holds no first man some symmetry keeps in place
    /// (whose images would be another slice's rows): the rows per slice, and per level the
    /// slices, the lowest level first. A slice's moves reach only its own rows or lower
    /// levels', so the slices of a level are solved apart, each by one thread.
    fn slices(&self) -> Option<(usize, Vec<Vec<usize>>)> {
        let (h, ix) = (&self.g.heights, &self.t.index);
        let per = ix.stride_of(h.len().checked_sub(1)?) / self.g.len;
        if h.is_empty() || per % 64 != 0 || ix.domain(0).iter().any(|&s| ix.shared(s)) {
            return None;
        }
        let mut f = [0u8; MAX_MEN];
        let mut out: Vec<Vec<usize>> = Vec::new();
        for slice in 0..self.rows / per {
            self.decode(slice * per, &mut f);
            let sum: usize = h.iter().zip(&f).map(|(h, &s)| h[s as usize] as usize).sum();
            if out.len() <= sum {
                out.resize_with(sum + 1, Vec::new);
            }
            out[sum].push(slice);
        }
        out.retain(|l| !l.is_empty());
        Some((per, out))
    }

    /// Solves the slices of `per` rows each, `levels` of them (see [`Solver::slices`]),
    /// each by one thread from its illegal positions and its seed to its end, with a state
    /// small enough for the cache. A slice waits only for the slices its pawns' moves lead
    /// to (see [`slice_needs`]), not for a whole level: the files of a pawn are
    /// solved side by side, and a thread that finishes early takes the next slice ready.
    fn solve_slices(
        &self,
        per: usize,
        levels: &[Vec<usize>],
        progress: &mut dyn FnMut(&str),
    ) -> Result<(), SolveError> {
        let order: Vec<usize> = levels.iter().flatten().copied().collect();
        let mut at = vec![usize::MAX; self.rows / per];
        for (k, &slice) in order.iter().enumerate() {
            at[slice] = k;
        }
        // Per slice in `order`: what it waits for.
        let mut needs = Vec::with_capacity(order.len());
        let mut below = 0;
        for level in levels {
            for &slice in level {
                needs.push(match slice_needs(self.g, &self.t.index, per, slice, &at) {
                    Some(list) => Needs::Slices(list),
                    None => Needs::Below(below),
                });
            }
            below += level.len();
        }
        let board = SliceBoard::new(order.len());
        let counted: Mutex<[SideStats; 2]> = Mutex::default();
        let seeded = self.seed_first_level(per, levels.first().map_or(&[], |l| &l[..]));
        let work = |report: &mut dyn FnMut(usize)| {
            while let Some(k) = board.take(&needs) {
                let slice = order[k];
                let mine = seeded.get(slice).and_then(|s| s.lock().ok()?.take());
                let seed = mine.is_none();
                let one = Solver {
                    // The thread alone writes the slice's rows.
                    threads: &ONE,
                    shared: &UNSHARED,
                    memo: [0, 1].map(|x| self.memo_of(x)),
                    words: slice * per / 64..(slice + 1) * per / 64,
                    later: mine.unwrap_or_else(later),
                    ..*self
                };
                let span = slice * per..(slice + 1) * per;
                let rows: Vec<usize> = span.clone().collect();
                if seed {
                    one.seed_illegal_rows(span.clone());
                    one.seed_values(&rows);
                }
                let solved = one.run(&rows, &mut |_| {});
                if solved.is_ok() {
                    // Final now: counted while its values are in the cache.
                    self.count_slice(span.start * self.g.len..span.end * self.g.len, &counted);
                }
                report(board.finish(k, solved.err()));
            }
            // Nothing left to take: while the last slices are solved (alone, 10-20 ms of
            // KRvKP's build), this thread writes the parts of the table's file that are
            // final (see `cache::Writer`), the file's write once at the end.
            if let Some(write) = self.idle {
                let span = per * self.g.len;
                let slices = |r: std::ops::Range<usize>| r.start / span..r.end.div_ceil(span);
                write(&|r| slices(r).all(|s| board.is_done(at[s])));
            }
        };
        let helpers = self.threads.get().min(order.len()).max(1) - 1;
        let total = order.len();
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|| work(&mut |_| {}));
            }
            work(&mut |done| progress(&format!("{done} of {total} pawn placements")));
        });
        board.result()?;
        if let Ok(counted) = counted.into_inner() {
            // Set once: a table is solved once.
            let _ = self.t.counted.set(counted);
        }
        Ok(())
    }

    /// Seeds the slices `first` (of `per` rows each; the first level, whose moves leave
    /// only for sub-tables) together on the solve's threads, row by row across the slices:
    /// their rows at one offset differ only in the pawns' squares, and their promotions
    /// read the same lines of each sub-table (the promoted man, the sub-table's last, on
    /// one square per slice of a line; alone, a slice reads one byte of each line). Per
    /// slice, its deferred seeds (see [`Later`]), when the slices were seeded here.
    fn seed_first_level(&self, per: usize, first: &[usize]) -> Vec<Mutex<Option<Later<W>>>> {
        let slices = self.rows / per;
        let mut out: Vec<Mutex<Option<Later<W>>>> = (0..slices).map(|_| Mutex::new(None)).collect();
        if first.len() < 2 {
            return out;
        }
        let rows: Vec<usize> = (self.orbit_order(per, first[0]).into_iter())
            .flat_map(|j| first.iter().map(move |&s| s * per + j))
            .collect();
        let joint = Solver {
            later: later_of(first.len()),
            words: self.words.clone(),
            ..*self
        };
        parallel(rows.len(), joint.pass_threads(), |a, b| {
            for &row in &rows[a..b] {
                joint.seed_illegal_rows(row..row + 1);
            }
        });
        // Each slice's seeds are filed in lists of its own (see `seed_values`): handed
        // over whole, where sorting them out after took a thread 5 ms of KRvKP's 0.3 s.
        let mut place = vec![0; slices];
        for (k, &s) in first.iter().enumerate() {
            place[s] = k;
        }
        joint.seed_values_in(&rows, Some((per, &place)));
        let mut lists = joint.later.into_iter();
        for &s in first {
            out[s] = Mutex::new(Some(lists.by_ref().take(LATER).collect()));
        }
        out
    }

    /// The offsets of a slice's `per` rows (slice `slice`'s as a sample) with those whose
    /// first man after the pawns stands on squares the board's symmetries map onto each
    /// other side by side: a promotion's sub-table, without pawns, is indexed on that man's
    /// square up to those symmetries, so these rows read the same block of it (a few hundred
    /// kilobytes, kept in the core's cache) where in their own order they read a block 8
    /// times at different moments.
    fn orbit_order(&self, per: usize, slice: usize) -> Vec<usize> {
        let h = self.g.heights.len();
        let mut order: Vec<usize> = (0..per).collect();
        if h + 1 >= self.g.m {
            return order;
        }
        let maps = &self.t.rules.board.maps;
        let orbit = |sq: u8| maps.iter().map(|m| m[sq as usize]).min().unwrap_or(sq);
        let mut f = [0u8; MAX_MEN];
        let keys: Vec<u8> = (0..per)
            .map(|j| {
                self.decode(slice * per + j, &mut f);
                orbit(f[h])
            })
            .collect();
        order.sort_by_key(|&j| keys[j]);
        order
    }

    /// Adds the statistics' counts of the entries `range` of both sides (a solved slice)
    /// to `counted` (see `Table::counted`).
    fn count_slice(&self, range: std::ops::Range<usize>, counted: &Mutex<[SideStats; 2]>) {
        let first = range.start / 64;
        let parts = [0, 1].map(|stm| {
            let words: Vec<u64> = self.stuck[stm][first..range.end.div_ceil(64)]
                .iter()
                .map(|w| w.load(Relaxed))
                .collect();
            count_range(self.t, stm, range.clone(), Some((&words, first)))
        });
        if let Ok(mut total) = counted.lock() {
            for (t, part) in total.iter_mut().zip(&parts) {
                t.merge(part);
            }
        }
    }

    /// The squares of the men but the last for a row, and their occupancy.
    #[inline]
    fn decode(&self, row: usize, f: &mut [u8; MAX_MEN]) -> W {
        self.g.decode(&self.t.index, row, f)
    }

    /// Files decided bits of `side` in `row` for distance `q` (`p`: the distance expanded).
    fn file(&self, p: u8, q: u8, row: usize, side: usize, bits: W) {
        if q == p + 1 {
            let par = (q & 1) as usize;
            let rmw = self.rmw();
            if rmw.or_first(&self.news[par][side][row], bits) {
                rmw.or64(&self.summary[par][side][row / 64], 1 << (row % 64));
            }
        } else if let Ok(mut l) = self.later[(q as usize).min(self.later.len() - 1)].lock() {
            match l.last_mut() {
                Some(list) => list.push((row, side as u8, bits)),
                None => l.push(vec![(row, side as u8, bits)]),
            }
        }
    }

    fn any_later(&self, p: u8) -> bool {
        self.later[p as usize + 1..].iter().any(|l| {
            l.lock()
                .map(|l| l.iter().any(|list| !list.is_empty()))
                .unwrap_or(false)
        })
    }

    /// Moves the positions filed for distance `p` into the news (wins only if no quicker
    /// win replaced them) and closes the wins; true when there is anything to expand at `p`.
    fn merge_later(&self, p: u8) -> bool {
        let par = (p & 1) as usize;
        let lists = self.later[p as usize]
            .lock()
            .map(|mut l| std::mem::take(&mut *l))
            .unwrap_or_default();
        // Entry `k` of the lists laid end to end is entry `k - starts[j]` of list `j`.
        let starts: Vec<usize> = lists
            .iter()
            .scan(0, |at, list| {
                *at += list.len();
                Some(*at - list.len())
            })
            .collect();
        let total: usize = lists.iter().map(Vec::len).sum();
        // The seeds' lists are long (most of a table's captures), later ones short.
        let threads = if total >= PARALLEL_LATER {
            self.pass_threads()
        } else {
            1
        };
        let rmw = Rmw {
            shared: threads > 1,
        };
        parallel(total, threads, |a, b| {
            for (list, &start) in lists.iter().zip(&starts) {
                let (from, to) = (a.max(start), b.min(start + list.len()));
                for &(row, side, bits) in
                    list.get(from - start..to.max(from) - start).unwrap_or(&[])
                {
                    self.merge_row(p, rmw, row, side as usize, bits);
                }
            }
        });
        self.summary[par]
            .iter()
            .flat_map(|side| &side[self.words.clone()])
            .any(|w| w.load(Relaxed) != 0)
    }

    /// [`Solver::merge_later`] for one entry of the list: the bits `bits` of `side` in `row`.
    fn merge_row(&self, p: u8, rmw: Rmw, row: usize, side: usize, bits: W) {
        let par = (p & 1) as usize;
        let mut keep = W::ZERO;
        let mut wins = W::ZERO;
        for b in ones(bits) {
            let code = self.t.values[side][row * self.g.len + b].load(Relaxed);
            if code != DRAW && code != ILLEGAL && plies(code) == p {
                keep |= W::bit(b);
                if is_win(code) {
                    wins |= W::bit(b);
                }
            }
        }
        if wins.any() {
            self.close(rmw, side, row, wins);
            // Final now: no quicker win is left to find.
            rmw.and(&self.provisional[side][row], !wins);
            settle(&self.settled[side][row], wins);
        }
        if keep.any() && rmw.or_first(&self.news[par][side][row], keep) {
            rmw.or64(&self.summary[par][side][row / 64], 1 << (row % 64));
        }
    }

    /// Illegal positions (men sharing a square, or the other side's royals stand attacked
    /// as its royalty forbids) of both sides.
    fn seed_illegal(&self) {
        parallel(self.rows, self.pass_threads(), |a, b| {
            self.seed_illegal_rows(a..b)
        });
    }

    /// [`Solver::seed_illegal`] in the rows `rows`, on the calling thread.
    fn seed_illegal_rows(&self, rows: std::ops::Range<usize>) {
        let g = &self.g;
        let t = self.t;
        let last = g.m - 1;
        let mut at = Cursor::new();
        for row in rows {
            let occ = g.decode_at(&t.index, row, &mut at);
            let f = &at.f;
            let clash = (occ.count() as usize) < last;
            for x in 0..2 {
                let bad = if clash {
                    g.full
                } else {
                    f[..last]
                        .iter()
                        .fold(W::ZERO, |acc, &s| acc | g.vbit[s as usize])
                        | self.attacks_royal(f, occ, x)
                };
                if bad.any() {
                    self.done[x][row].store(bad, Relaxed);
                    self.settled[x][row].store(bad, Relaxed);
                    // Before the seed, so `moving` knows nothing of this row yet and
                    // has nothing to forget (see `Solver::close`).
                    self.closed[x][row].store(bad, Relaxed);
                    for bit in ones(bad) {
                        t.values[x][row * g.len + bit].store(ILLEGAL, Relaxed);
                    }
                }
            }
        }
    }

    /// The row's bits where the other side's royals stand attacked by side `x` (to move)
    /// as its royalty does not allow (see [`Table::exposed`]): the position is broken.
    fn attacks_royal(&self, f: &[u8; MAX_MEN], occ: W, x: usize) -> W {
        let t = self.t;
        if !t.several(1 - x) {
            return self.attacks_one(f, occ, x, t.royal[1 - x]);
        }
        match t.rules.variant.end.royalty {
            Royalty::Absolute => self.checks(f, occ, x),
            Royalty::Extinction => (0..self.g.m)
                .filter(|&r| t.royals[1 - x] & (1 << r) != 0)
                .fold(self.g.full, |acc, r| acc & self.attacks_one(f, occ, x, r)),
            Royalty::Last => W::ZERO,
        }
    }

    /// The row's bits where side `x` (to move) attacks some royal of the other side: the
    /// other side, to move there, would be in check (as `Table::in_check`).
    fn checks(&self, f: &[u8; MAX_MEN], occ: W, x: usize) -> W {
        (0..self.g.m)
            .filter(|&r| self.t.royals[1 - x] & (1 << r) != 0)
            .fold(W::ZERO, |acc, r| acc | self.attacks_one(f, occ, x, r))
    }

    /// The row's bits where side `x` (to move) attacks the other side's royal man `ry`.
    fn attacks_one(&self, f: &[u8; MAX_MEN], occ: W, x: usize, ry: usize) -> W {
        let g = &self.g;
        let last = g.m - 1;
        let mut bad = W::ZERO;
        if ry == last {
            for &i in &g.side_men[x] {
                for st in g.hits[i][f[i] as usize]
                    .iter()
                    .filter(|st| st.takes || st.checks)
                {
                    // The royal on the path's end can be no screen of it.
                    if !(occ & st.block).any() && occ & st.screen == st.screen {
                        bad |= g.vbit[st.sq as usize];
                    }
                }
            }
            return bad;
        }
        let r = f[ry];
        for &i in &g.side_men[x] {
            for st in g.hits[i][f[i] as usize]
                .iter()
                .filter(|st| (st.takes || st.checks) && st.sq == r)
            {
                if occ & st.block & !W::bit(r as usize) == W::ZERO {
                    bad |= !st.vblock & g.screened(occ, st.screen);
                }
            }
        }
        if g.colour[last] as usize == x {
            let takes = g.vinto[r as usize].iter().map(|&(a, need, _)| (a, need));
            for (a, need) in takes.chain(g.vcheck[r as usize].iter().copied()) {
                if need.open(occ) {
                    bad |= W::bit(a as usize);
                }
            }
        }
        bad & g.full
    }

    /// The captures of side `x` (to move) in the positions `want` of the row with the other
    /// men on `f` (occupying `occ`), into `out`; returns the row's bits that have one. Made
    /// once per row: the positions differ only in the last man, which a capture takes, makes
    /// or blocks.
    fn capture_list(
        &self,
        (f, occ): (&[u8; MAX_MEN], W),
        x: usize,
        want: W,
        caps: &mut Captures<'a, W>,
    ) -> W {
        let g = &self.g;
        let last = g.m - 1;
        // A royal may be taken where its side keeps another, unless under absolute royalty
        // (see `Table::protected`): a conversion like any capture.
        let prey = |j: usize| g.colour[j] as usize != x && !self.t.protected(j);
        caps.looks.clear();
        let out = &mut caps.list;
        out.clear();
        for &i in &g.side_men[x] {
            // The row's bits where man `i` takes the last man: without, with promotion.
            let mut takes = [W::ZERO; 2];
            for st in &g.hits[i][f[i] as usize] {
                let end = W::bit(st.sq as usize);
                if (occ & st.block & !end).any() {
                    continue;
                }
                let mut next = *f;
                next[i] = st.sq;
                let (victim, bits) = if (occ & end).any() {
                    let Some(j) = (0..last).find(|&j| f[j] == st.sq).filter(|&j| prey(j)) else {
                        continue;
                    };
                    if !st.takes {
                        continue;
                    }
                    // Open unless the last man stands on a square the path crosses (or
                    // screens it where no other man does).
                    let crossed = st.vblock & !g.vbit[st.sq as usize];
                    (Some(j), g.full & !crossed & g.screened(occ, st.screen))
                } else {
                    // The last man taken on the path's end screens nothing of it.
                    if st.takes && prey(last) && occ & st.screen == st.screen {
                        takes[st.promotes as usize] |= g.vbit[st.sq as usize];
                    }
                    if st.pushes {
                        // Row by row: see `push_outcomes`.
                        continue;
                    }
                    if !(st.moves && st.promotes) {
                        continue;
                    }
                    // A promotion on the empty square, unless the last man is in the way.
                    (None, g.full & !st.vblock & g.screened(occ, st.screen))
                };
                self.push_capture(out, (next, victim, bits, last), st.promotes, i);
            }
            for (promotes, bits) in [(false, takes[0]), (true, takes[1])] {
                if (bits & want).any() {
                    self.push_capture(out, (*f, Some(last), bits, i), promotes, i);
                }
            }
        }
        if g.colour[last] as usize == x {
            for j in (0..last).filter(|&j| prey(j)) {
                // The origins from which the last man takes man `j`: one position after.
                let mut takes = [W::ZERO; 2];
                for &(from, need, promotes) in &g.vinto[f[j] as usize] {
                    if need.open(occ) {
                        takes[promotes as usize] |= W::bit(from as usize);
                    }
                }
                let mut next = *f;
                next[last] = f[j];
                for (promotes, bits) in [(false, takes[0]), (true, takes[1])] {
                    if (bits & want).any() {
                        self.push_capture(out, (next, Some(j), bits, MAX_MEN), promotes, last);
                    }
                }
            }
            for &(from, to, need) in &g.vpromote {
                if need.open(occ) && !occ.has(to as usize) && want.has(from as usize) {
                    let mut next = *f;
                    next[last] = to;
                    self.push_capture(
                        out,
                        (next, None, W::bit(from as usize), MAX_MEN),
                        true,
                        last,
                    );
                }
            }
        }
        out.retain_mut(|c| {
            c.bits &= want;
            c.bits.any()
        });
        // Those the mover cannot win by last (see `Solver::outcomes`); a stable sort, and
        // only in the rows that have one.
        if out.iter().any(|c| !c.may_win) {
            out.sort_by_key(|c| !c.may_win);
        }
        out.iter().fold(W::ZERO, |acc, c| acc | c.bits)
    }

    /// Adds a conversion `(next, victim, bits, open)` of man `i` to `out`: once per
    /// promotion choice when it promotes. Man `open` stands on the square of the row's bit
    /// after it (see [`Capture::spread`]); `MAX_MEN` for one position in every bit.
    fn push_capture(
        &self,
        out: &mut Vec<Capture<W>>,
        (next, victim, bits, open): ([u8; MAX_MEN], Option<usize>, W, usize),
        promotes: bool,
        i: usize,
    ) {
        let t = self.t;
        let spread = open < MAX_MEN;
        let open = if spread { open } else { i } as u8;
        let mover = t.colour[i] as usize;
        let mut add = |promo| {
            out.push(Capture {
                next,
                victim,
                promo,
                bits,
                spread,
                open,
                // Asked of promotions only: a capture into a table where its maker
                // cannot win rarely meets another move that draws, and the question costs
                // a key's arithmetic in every capture of every row.
                may_win: promo.is_none() || t.conv_may_win(victim, promo, mover),
            })
        };
        if !promotes {
            add(None);
            return;
        }
        for &c in &t.promos[i] {
            add(Some((i, c)));
        }
    }

    /// Calls `visit(b, code)` with the code (the other side to move) of capture `k` of `caps`
    /// (side `x` to move) in each position `b` of `bits` where it is legal: where the
    /// position it leads to is (the sub-table holds `ILLEGAL` for the others).
    fn capture_codes(
        &self,
        caps: &mut Captures<'a, W>,
        k: usize,
        bits: W,
        x: usize,
        mut visit: impl FnMut(usize, u8),
    ) {
        if !bits.any() {
            return;
        }
        let c = caps.list[k];
        let open = c.open as usize;
        if !c.spread {
            // One position: its code once. Promotions of the last man to an empty square
            // differ only in its square, and share a partial lookup.
            let code = match c.victim {
                None => self
                    .shared_look(caps, &c, &c.next)
                    .map(|look| look.code(1 - x, c.next[open])),
                Some(_) => None,
            }
            .unwrap_or_else(|| self.t.conv_code(&c.next, 1 - x, c.victim, c.promo));
            if code != ILLEGAL {
                ones(bits).for_each(|b| visit(b, code));
            }
            return;
        }
        let domain = self.t.index.domain(self.g.m - 1);
        let mut next = c.next;
        next[open] = domain[bits.lowest()];
        let look = if bits.drop_lowest().any() {
            self.t.conv_partial(&next, c.victim, c.promo, open)
        } else {
            // One position: a partial lookup would cost as much as the whole.
            None
        };
        if let Some(look) = &look {
            look.codes(1 - x, ones(bits).map(|b| (b, domain[b])), visit);
            return;
        }
        for b in ones(bits) {
            next[open] = domain[b];
            let code = self.t.conv_code(&next, 1 - x, c.victim, c.promo);
            if code != ILLEGAL {
                visit(b, code);
            }
        }
    }

    /// The partial lookup of capture `c`, made in one position (`next`: the squares after
    /// it), shared with the row's other captures of its kind (same conversion and `open`).
    fn shared_look(
        &self,
        caps: &mut Captures<'a, W>,
        c: &Capture<W>,
        next: &[u8; MAX_MEN],
    ) -> Option<ConvPartial<'a>> {
        let key = self.t.conv_key(c.victim, c.promo);
        if let Some(l) = caps.looks.iter().find(|l| l.0 == key && l.1 == c.open) {
            return l.2;
        }
        let look = self
            .t
            .conv_partial(next, c.victim, c.promo, c.open as usize);
        caps.looks.push((key, c.open, look));
        look
    }

    /// What the captures of `caps` (side `x` to move) lead to in the positions `bits`.
    fn outcomes(&self, caps: &mut Captures<'a, W>, bits: W, x: usize) -> Outcomes<W> {
        let mut out = Outcomes::new();
        if !bits.any() {
            return out;
        }
        let len = self.g.len;
        let mut codes = [ILLEGAL; MAX_ROW];
        // Those the mover may win by come first (see `Solver::capture_list`): one it
        // cannot (a promotion to a piece that cannot mate) changes nothing where a move
        // already wins or draws, and is looked up only where none does.
        for k in 0..caps.list.len() {
            let mut mine = caps.list[k].bits & bits;
            if !caps.list[k].may_win {
                mine &= !(out.won | out.open);
            }
            if mine.count() < ROW_CODES {
                self.capture_codes(caps, k, mine, x, |b, code| out.add(b, code));
                continue;
            }
            self.capture_codes(caps, k, mine, x, |b, code| codes[b] = code);
            out.add_row(&codes, len);
            codes[..len].fill(ILLEGAL);
        }
        out
    }

    /// Adds to `out` what the moves of side `x` (to move) out of the level (see
    /// [`Step::pushes`]) lead to in the positions `want` of `row` (other men on `f`,
    /// occupying `occ`); returns the positions with such a legal move. A move carries the
    /// row to another, final already: the codes lie together there.
    fn push_outcomes(
        &self,
        (row, f, occ): (usize, &[u8; MAX_MEN], W),
        x: usize,
        want: W,
        out: &mut Outcomes<W>,
    ) -> W {
        let (g, ix, len) = (&self.g, &self.t.index, self.g.len);
        let mut any = W::ZERO;
        for i in (0..g.heights.len()).filter(|&i| g.colour[i] as usize == x) {
            let base = g.base(ix, row, f, i);
            for st in g.hits[i][f[i] as usize].iter().filter(|st| st.pushes) {
                let bits = want & !st.vblock & g.screened(occ, st.screen);
                if (occ & st.block).any() || !bits.any() {
                    continue;
                }
                let to = g.step_row(ix, base, f, i, st);
                let ep = st.sets_ep && self.t.may_take_en_passant(f, (i, f[i], st.sq));
                if let (Some(to), false) = (to, ep) {
                    let mut codes = [ILLEGAL; MAX_ROW];
                    let values = &self.t.values[1 - x][to * len..(to + 1) * len];
                    for b in ones(bits) {
                        codes[b] = values[b].load(Relaxed);
                    }
                    any |= out.add_row(&codes, len);
                    continue;
                }
                let mut next = *f;
                next[i] = st.sq;
                for b in ones(bits) {
                    let mut code = match to {
                        Some(to) => self.t.values[1 - x][to * len + b].load(Relaxed),
                        None => {
                            // The first man leaves the fundamental region: mapped back.
                            next[g.m - 1] = ix.domain(g.m - 1)[b];
                            self.t.code(1 - x, &next[..g.m])
                        }
                    };
                    if ep && code != ILLEGAL {
                        next[g.m - 1] = ix.domain(g.m - 1)[b];
                        let at = to.map(|to| to * len + b);
                        let stuck = at.or_else(|| ix.encode(&next[..g.m])).is_some_and(|k| {
                            self.stuck[1 - x][k / 64].load(Relaxed) >> (k % 64) & 1 != 0
                        });
                        code = self.t.with_en_passant(&next, (i, f[i]), code, stuck);
                    }
                    if code != ILLEGAL {
                        any |= W::bit(b);
                        out.add(b, code);
                    }
                }
            }
        }
        any
    }

    /// The seed values: positions without quiet moves or with a capture go through the
    /// general seed; the rest are open.
    fn seed_values(&self, level: &[usize]) {
        self.seed_values_in(level, None);
    }

    /// [`Solver::seed_values`], with the seeds of the rows of slice `s` (of `per` rows)
    /// filed in the [`LATER`] lists from `place[s] * LATER` on, when `slices` is given
    /// (the first level's slices seeded together).
    fn seed_values_in(&self, level: &[usize], slices: Option<(usize, &[usize])>) {
        let g = &self.g;
        parallel(level.len(), self.pass_threads(), |a, b| {
            let mut filed: Vec<Filed<W>> = Vec::new();
            let mut list = Captures::default();
            let mut at = Cursor::new();
            for &row in &level[a..b] {
                let occ = g.decode_at(&self.t.index, row, &mut at);
                let f = &at.f;
                let from = slices.map_or(0, |(per, place)| place[row / per] * LATER);
                for x in 0..2 {
                    let legal = g.full & !self.done[x][row].load(Relaxed);
                    if !legal.any() {
                        continue;
                    }
                    let filing = (&mut filed, from);
                    let (decided, provisional) =
                        self.seed_row((row, f, occ), x, legal, &mut list, filing);
                    if !decided.any() {
                        continue;
                    }
                    // A load and a store per word: the seed writes each row from one
                    // thread, and a locked operation per position would wait for the value
                    // bytes stored before it.
                    let done = &self.done[x][row];
                    done.store(done.load(Relaxed) | decided, Relaxed);
                    self.provisional[x][row].store(provisional, Relaxed);
                    let settled = &self.settled[x][row];
                    settled.store(settled.load(Relaxed) | (decided & !provisional), Relaxed);
                }
            }
            self.defer(&mut filed);
        });
    }

    /// Seeds the positions `legal` of `row` (other men on `f`, occupying `occ`), side `x`
    /// to move: writes their bytes, files the decided ones (in `filed`, distance `q` in list
    /// `from + q`), and returns them with those of them that are provisional wins (see
    /// [`Solver::provisional`]).
    fn seed_row(
        &self,
        (row, f, occ): (usize, &[u8; MAX_MEN], W),
        x: usize,
        legal: W,
        list: &mut Captures<'a, W>,
        (filed, from): (&mut Vec<Filed<W>>, usize),
    ) -> (W, W) {
        let (g, t, m) = (&self.g, self.t, self.g.m);
        let quiet = self.escapes(f, occ, row, x, legal);
        let capture = self.capture_list((f, occ), x, legal, list);
        let mut out = self.outcomes(list, capture, x);
        let capture = capture | self.push_outcomes((row, f, occ), x, legal, &mut out);
        if let Some(rule) = g.bare[x] {
            return (self.seed_bare((row, x, legal), quiet, &out, rule), W::ZERO);
        }
        // As `Table::seed_lazy`: a capture to a loss wins; no move at all is mate or
        // stalemate; only captures, all to wins, lose. Found for the whole row: most
        // positions are none of these.
        let won = legal & out.won;
        let stuck = legal & !quiet & !out.any;
        let lost = legal & !quiet & out.any & !out.open & !won;
        // Undecided with a capture (or no quiet move): the byte notes what verification
        // needs of the captures, which are the same at every distance.
        let base = row * g.len;
        let noted = legal & (!quiet | capture) & !(won | stuck | lost);
        for bit in ones(noted) {
            let note = if out.open.has(bit) {
                HELD
            } else {
                out.worst[bit]
            };
            t.values[x][base + bit].store(note, Relaxed);
        }
        let mut decided = won | stuck | lost;
        let mut provisional = W::ZERO;
        let mut file = |code, bit| {
            file_seed(
                filed,
                from + plies(code) as usize,
                row,
                x as u8,
                W::bit(bit),
            )
        };
        // Wins and losses apart from the rare positions without a move: each loop asks
        // nothing of its code but its distance.
        for bit in ones(won) {
            let code = win(out.best[bit].min(MAX_PLIES));
            t.values[x][base + bit].store(code, Relaxed);
            if plies(code) > 1 {
                provisional |= W::bit(bit);
            }
            file(code, bit);
        }
        for bit in ones(lost) {
            let code = loss(out.worst[bit].min(MAX_PLIES));
            t.values[x][base + bit].store(code, Relaxed);
            file(code, bit);
        }
        let mut sq = *f;
        for bit in ones(stuck) {
            let idx = base + bit;
            self.stuck[x][idx / 64].fetch_or(1 << (idx % 64), Relaxed);
            sq[m - 1] = t.index.domain(m - 1)[bit];
            let code = t.no_moves(&sq[..m], x);
            t.values[x][base + bit].store(code, Relaxed);
            if is_win(code) && plies(code) > 1 {
                provisional |= W::bit(bit);
            }
            if code != DRAW {
                file(code, bit);
            }
        }
        // Held by a capture to a draw, so never lost: decided as far as verification goes
        // (where each cost a look at every distance until its last quiet move closed), and
        // provisional, since a quiet move may still win (see `Solver::win`). The byte keeps
        // its note until the end (see `Solver::clear_notes`). Not under the perpetual-check
        // ban, whose game reads which positions are decided.
        if !t.rules.game.perpetual_check_loses {
            let held = noted & out.open;
            decided |= held;
            provisional |= held;
        }
        (decided, provisional)
    }

    /// Seeds the positions `legal` of `row`, side `x` to move, where the bare-king rule
    /// decides them all (`quiet`: those with a quiet move, `out`: their captures): writes
    /// their bytes and returns those decided; the draws stay open (and end as draws). Nothing
    /// is filed: every position of such a table is decided here, so no pass has anything
    /// to change.
    fn seed_bare(
        &self,
        (row, x, legal): (usize, usize, W),
        quiet: W,
        out: &Outcomes<W>,
        rule: Bare,
    ) -> W {
        let len = self.g.len;
        let mut decided = W::ZERO;
        for bit in ones(legal) {
            let idx = row * len + bit;
            if !quiet.has(bit) && !out.any.has(bit) {
                self.stuck[x][idx / 64].fetch_or(1 << (idx % 64), Relaxed);
            }
            let code = match rule {
                Bare::Won => win(0),
                Bare::Lost => loss(0),
                Bare::LostUnlessBares if !out.any.has(bit) => loss(0),
                Bare::LostUnlessBares | Bare::Drawn => continue,
            };
            self.t.values[x][idx].store(code, Relaxed);
            decided |= W::bit(bit);
        }
        decided
    }

    /// Hands a thread's seeds (per distance: `(row, side, bits)`; per slice and distance when
    /// the first level's slices are seeded together) to the shared lists, one lock per list.
    fn defer(&self, filed: &mut [Filed<W>]) {
        for (q, list) in filed.iter_mut().enumerate() {
            if list.is_empty() {
                continue;
            }
            if let Ok(mut l) = self.later[q.min(self.later.len() - 1)].lock() {
                l.push(std::mem::take(list));
            }
        }
    }

    /// Of the bits `cand` of `row` (`f`, `occ`: its other men), those where side `x` to move
    /// has a legal quiet move to a position not in `closed` of the other side.
    fn escapes(&self, f: &[u8; MAX_MEN], occ: W, row: usize, x: usize, cand: W) -> W {
        let closed = self.closed[1 - x];
        if !self.memo[x] {
            return self.escapes_from(f, occ, row, x, cand, closed);
        }
        let memo = &self.moving[x][row];
        let mut moving = memo.load(Relaxed);
        // Zero: not known since the row's `closed` word last grew (or none, found again).
        if !moving.any() {
            moving = self.g.reach_open(closed[row].load(Relaxed), occ);
            memo.store(moving, Relaxed);
        }
        let esc = cand & moving;
        if esc == cand {
            return esc;
        }
        self.escapes_of_others(f, occ, row, x, (cand, esc), closed)
    }

    /// Whether `moving` may hold the escapes of side `x`'s last man (see
    /// [`Solver::memo`]): the man is `x`'s and moves by leaps and rays alone.
    fn memo_of(&self, x: usize) -> bool {
        let g = &self.g;
        g.colour[g.m - 1] as usize == x && g.vpure && !g.vleaps.is_empty()
    }

    /// The positions of `cand` in `row` where side `x`'s last man has an escape, as far as
    /// `moving` knows (none when it is not kept): they need no verification.
    #[inline]
    fn moving(&self, row: usize, x: usize) -> W {
        if self.memo[x] {
            self.moving[x][row].load(Relaxed)
        } else {
            W::ZERO
        }
    }

    /// Closes `bits` of side `y` in `row`, and forgets what `moving` knew of the other
    /// side's escapes there.
    #[inline]
    fn close(&self, rmw: Rmw, y: usize, row: usize, bits: W) {
        rmw.or(&self.closed[y][row], bits);
        if self.memo[1 - y] {
            self.moving[1 - y][row].store(W::ZERO, Relaxed);
        }
    }

    /// [`Solver::escapes`] with `closed` for the other side's positions that are no escape.
    fn escapes_from(
        &self,
        f: &[u8; MAX_MEN],
        occ: W,
        row: usize,
        x: usize,
        cand: W,
        closed: &[W::Atomic],
    ) -> W {
        let g = &self.g;
        let last = g.m - 1;
        // The last man first: its moves stay in the row (one word, in cache), where the
        // other men's each read another row's.
        let mut esc = W::ZERO;
        if g.colour[last] as usize == x {
            let w = closed[row].load(Relaxed);
            if !g.vleaps.is_empty() {
                esc |= cand & g.reach_open(w, occ);
            }
            let rest = if g.vpure { W::ZERO } else { cand & !esc };
            for a in ones(rest) {
                // Most often every target is closed, or no path is blocked: no path to
                // look at.
                let (targets, block) = g.vtargets[a];
                if (targets & !w).any()
                    && (!(occ & block).any()
                        || g.vmoves[a]
                            .iter()
                            .any(|vs| vs.need.open(occ) && !w.has(vs.local as usize)))
                {
                    esc |= W::bit(a);
                }
            }
        }
        if esc == cand {
            return esc;
        }
        self.escapes_of_others(f, occ, row, x, (cand, esc), closed)
    }

    /// [`Solver::escapes_from`] by the moves of side `x`'s men but the last, of the
    /// positions `cand` but those of `esc` (found already, and returned with the rest).
    fn escapes_of_others(
        &self,
        f: &[u8; MAX_MEN],
        occ: W,
        row: usize,
        x: usize,
        (cand, mut esc): (W, W),
        closed: &[W::Atomic],
    ) -> W {
        let g = &self.g;
        let ix = &self.t.index;
        let last = g.m - 1;
        let mut next = *f;
        for &i in &g.side_men[x] {
            let base = g.base(ix, row, f, i);
            if let Some((quick, _)) = &g.quick[i] {
                for q in &quick[f[i] as usize] {
                    if (occ & q.block).any() {
                        continue;
                    }
                    let w = closed[base + q.share].load(Relaxed);
                    esc |= cand & !q.vblock & !w;
                    if esc == cand {
                        return esc;
                    }
                }
                continue;
            }
            let alike = g.set_stride[i].is_some();
            for st in &g.moves[i][f[i] as usize] {
                if (occ & st.block).any() {
                    continue;
                }
                let c = cand & !esc & !st.vblock & g.screened(occ, st.screen);
                if !c.any() {
                    continue;
                }
                let k = if i == 0 { ix.canon_of(st.sq) } else { 0 };
                let row2 = if k == 0 && !alike {
                    (st.share != usize::MAX).then(|| base + st.share)
                } else if k == 0 {
                    g.step_row(ix, base, f, i, st)
                } else {
                    next[i] = st.sq;
                    let r = ix.encode_mapped(&next[..last], k);
                    next[i] = f[i];
                    r
                };
                let Some(row2) = row2 else {
                    continue;
                };
                let w = closed[row2].load(Relaxed);
                if k == 0 {
                    esc |= c & !w;
                } else if let Some(flip) = g.vunflip[k] {
                    // The word seen from this row: bit `b` is the image's bit `vmap[k][b]`.
                    esc |= c & !W::of_low64(flip_word(w.low64(), flip));
                } else {
                    for b in ones(c) {
                        if !w.has(g.vmap[k][b] as usize) {
                            esc |= W::bit(b);
                        }
                    }
                }
                if esc == cand {
                    return esc;
                }
            }
        }
        esc
    }

    /// Calls `emit(row, bits)` with every stored row and bits of the positions one un-move
    /// of `mover` before the bits `bits` of `row`.
    fn predecessors(
        &self,
        row: usize,
        f: &[u8; MAX_MEN],
        occ: W,
        bits: W,
        mover: usize,
        emit: &mut impl FnMut(usize, W),
    ) {
        let g = &self.g;
        let ix = &self.t.index;
        let last = g.m - 1;
        // The images of these news under the maps that keep the first man's square are
        // news too (values are symmetric, and so is every pass), and each emits its own
        // predecessors: a predecessor needs its images emitted here only under the maps
        // that keep its first man but not this row's, that is after an un-move of the
        // first man.
        let keeps = ix.stabilizer(f[0]);
        for &i in &g.side_men[mover] {
            let base = g.base(ix, row, f, i);
            if let Some((_, quick)) = &g.quick[i] {
                for q in &quick[f[i] as usize] {
                    let b = bits & !q.vblock;
                    if !(occ & q.block).any() && b.any() {
                        emit(base + q.share, b);
                    }
                }
                continue;
            }
            let alike = g.set_stride[i].is_some();
            for st in &g.unmoves[i][f[i] as usize] {
                if (occ & st.block).any() {
                    continue;
                }
                let b = bits & !st.vblock & g.screened(occ, st.screen);
                if !b.any() {
                    continue;
                }
                if i != 0 {
                    // The symmetry map stays the identity.
                    let r = if alike {
                        g.step_row(ix, base, f, i, st)
                    } else {
                        (st.share != usize::MAX).then(|| base + st.share)
                    };
                    if let Some(r) = r {
                        emit(r, b);
                    }
                    continue;
                }
                let mut prev = *f;
                prev[0] = st.sq;
                if ix.canon_of(st.sq) != 0 {
                    self.stored(&prev, b, emit);
                } else if let Some(r) = g.step_row(ix, base, f, i, st) {
                    emit(r, b);
                    if !ix.stabilizer(st.sq).iter().all(|h| keeps.contains(h)) {
                        self.images(&prev, b, emit);
                    }
                }
            }
        }
        if g.colour[last] as usize == mover && g.vpure {
            // Moves undone are moves made backwards: the squares from which a move reaches
            // `bits`, empty of the other men.
            let before = g.reach(bits, occ) & !occ;
            if before.any() {
                emit(row, before);
            }
        } else if g.colour[last] as usize == mover {
            let mut before = W::ZERO;
            for b in ones(bits) {
                let (sources, block) = g.vsources[b];
                if !(occ & block).any() {
                    before |= sources;
                    continue;
                }
                for vs in &g.vunmoves[b] {
                    if vs.need.open(occ) {
                        before |= W::bit(vs.local as usize);
                    }
                }
            }
            if before.any() {
                emit(row, before);
            }
        }
    }

    /// Every stored row and bits of the positions with the men but the last on `f` (any
    /// orientation) and the last on `bits`: the canonical form and its images.
    #[inline]
    fn stored(&self, f: &[u8; MAX_MEN], bits: W, emit: &mut impl FnMut(usize, W)) {
        let ix = &self.t.index;
        let last = self.g.m - 1;
        let k = ix.canon_of(f[0]);
        let mut c = *f;
        if k != 0 {
            for s in c[..last].iter_mut() {
                *s = ix.maps[k][*s as usize];
            }
        }
        let bits = self.g.permute(bits, k);
        let Some(row) = ix.encode_mapped(&c[..last], 0) else {
            return;
        };
        emit(row, bits);
        self.images(&c, bits, emit);
    }

    /// The other stored rows and bits of the canonical positions `c`, `bits` (when the first
    /// man stands where some map keeps it).
    #[inline]
    fn images(&self, c: &[u8; MAX_MEN], bits: W, emit: &mut impl FnMut(usize, W)) {
        let ix = &self.t.index;
        let last = self.g.m - 1;
        for &h in ix.stabilizer(c[0]) {
            if let Some(r) = ix.encode_mapped(&c[..last], h as usize) {
                emit(r, self.g.permute(bits, h as usize));
            }
        }
    }

    /// Expands the news of distance `p`: wins (`wins`) make their predecessors candidates
    /// to lose, losses make them won in `p + 1`. The pass over losses empties the news.
    fn expand(&self, p: u8, wins: bool, level: &[usize]) {
        // Above distance 0, wins have odd distances and losses even ones (see `value`): the
        // news of `p` are all of one kind, and the one pass that expands them empties them.
        if p > 0 && (p & 1 == 1) != wins {
            return;
        }
        let words = self.words.clone();
        let par = (p & 1) as usize;
        let rows: usize = (self.summary[par].iter())
            .flat_map(|side| &side[words.clone()])
            .map(|w| w.load(Relaxed).count_ones() as usize)
            .sum();
        let threads = self.threads_for(rows);
        // A side at a time, one merger per thread kept over the thread's chunks: a merger
        // per chunk would cost its slots' setup and drain, and merge less.
        for side in 0..2 {
            let mover = 1 - side;
            if wins && self.sweeps(p, side, level) {
                self.sweep(p, side, level, threads);
                continue;
            }
            parallel_with(
                words.len(),
                threads,
                || Merger::new(self.rows.min(words.len() * 64), rows),
                |merged, a, b| {
                    let range = words.start + a..words.start + b;
                    self.expand_side(p, wins, side, range, merged)
                },
                |mut merged| merged.drain(self.done[mover], &mut self.act(p, wins, mover)),
            );
        }
    }

    /// Whether the wins of `side` at distance `p` are better expanded by [`Solver::sweep`]
    /// than through their predecessors: when the mover's rows of `level` (the rows being
    /// solved) with undecided positions are at most as many as the rows the news reach
    /// through the un-moves of the mover's men but the last (see [`emits`]; none when
    /// only the last man moves in the level, whose un-moves cost a few word operations).
    /// Not in more than [`SMALL`] rows: KBBvKN's 1.3 million took 2-4% longer (73.7 G
    /// instructions against 70.3 G, 8.6 s against 8.4 s), its rows' state far bigger than
    /// the cache either way. Not at distance 0 (whose news mix wins and losses), nor under
    /// the perpetual-check ban (whose game reads the notes of positions no pass reached,
    /// and a sweep reaches them all).
    fn sweeps(&self, p: u8, side: usize, level: &[usize]) -> bool {
        if !self.sweeps || p == 0 || self.t.rules.game.perpetual_check_loses || level.len() > SMALL
        {
            return false;
        }
        let par = (p & 1) as usize;
        let news: usize = (self.summary[par][side][self.words.clone()].iter())
            .map(|w| w.load(Relaxed).count_ones() as usize)
            .sum();
        let reached = news * self.emits[1 - side];
        if reached >= level.len() {
            return reached > 0;
        }
        // Counting the open rows costs a load per row: not worth it beside a short pass.
        if reached * SWEEP_SCAN < level.len() {
            return false;
        }
        let (done, full) = (self.done[1 - side], self.g.full);
        let open = (level.iter())
            .filter(|&&r| (full & !done[r].load(Relaxed)).any())
            .count();
        open <= reached
    }

    /// Expands the wins of `side` at distance `p` by verifying every undecided position of
    /// the mover in the rows `level`, row by row in order (the other levels' rows are
    /// final, or not seeded yet), instead of the predecessors of the wins: the same
    /// outcome, since a position whose moves were all closed before `p` was verified then
    /// (and is decided, or held by a capture for good). In the middle of a solve most rows
    /// have news and each row's predecessors lie in a few dozen rows: verified once each
    /// in order, the rows cost less than the un-moves, the merging and the verification of
    /// rows reached several times in an order of their own.
    fn sweep(&self, p: u8, side: usize, level: &[usize], threads: usize) {
        self.swept.fetch_add(1, Relaxed);
        let mover = 1 - side;
        parallel(level.len(), threads, |a, b| {
            let mut at = Cursor::new();
            for &row in &level[a..b] {
                let cand =
                    self.g.full & !self.done[mover][row].load(Relaxed) & !self.moving(row, mover);
                if cand.any() {
                    let occ = self.g.decode_at(&self.t.index, row, &mut at);
                    self.verify_at(p, (row, &at.f, occ), mover, cand);
                }
            }
        });
        let par = (p & 1) as usize;
        for sw in self.words.clone() {
            let word = self.summary[par][side][sw].load(Relaxed);
            if word != 0 {
                self.summary[par][side][sw].store(0, Relaxed);
                for rb in ones(word) {
                    self.news[par][side][sw * 64 + rb].store(W::ZERO, Relaxed);
                }
            }
        }
    }

    /// What a pass does with a merged row of `mover`'s predecessors: verification (a pass
    /// over wins) or a win.
    fn act(&self, p: u8, wins: bool, mover: usize) -> impl FnMut(usize, W) + '_ {
        let done = self.done[mover];
        move |r: usize, bits: W| {
            if !wins {
                self.win(p, r, mover, bits);
                return;
            }
            let cand = bits & !done[r].load(Relaxed) & !self.moving(r, mover);
            if cand.any() {
                self.verify(p, r, mover, cand);
            }
        }
    }

    /// [`Solver::expand`] for the news of `side` in the summary words `words`, into `merged`.
    fn expand_side(
        &self,
        p: u8,
        wins: bool,
        side: usize,
        words: std::ops::Range<usize>,
        merged: &mut Merger<W>,
    ) {
        let (g, t) = (&self.g, self.t);
        let only = p > 0;
        let clear = only || !wins;
        let par = (p & 1) as usize;
        let mut at = Cursor::new();
        let mover = 1 - side;
        let (settled, done) = (self.settled[mover], self.done[mover]);
        let mut act = self.act(p, wins, mover);
        // Cleared by a load and a store, not a swap: in this pass only this thread touches
        // these words (news are filed for the next distance, in the other parity), and a
        // locked swap would wait for every store before it.
        for sw in words {
            let word = self.summary[par][side][sw].load(Relaxed);
            if clear && word != 0 {
                self.summary[par][side][sw].store(0, Relaxed);
            }
            for rb in ones(word) {
                let row = sw * 64 + rb;
                let news = self.news[par][side][row].load(Relaxed);
                if clear {
                    self.news[par][side][row].store(W::ZERO, Relaxed);
                }
                let mut mine = news;
                if !only {
                    mine = W::ZERO;
                    for bit in ones(news) {
                        let code = t.values[side][row * g.len + bit].load(Relaxed);
                        if is_win(code) == wins {
                            mine |= W::bit(bit);
                        }
                    }
                }
                if !mine.any() {
                    continue;
                }
                let occ = g.decode_at(&t.index, row, &mut at);
                self.predecessors(row, &at.f, occ, mine, mover, &mut |r, bits| {
                    let bits = bits & !settled[r].load(Relaxed);
                    if !bits.any() {
                        return;
                    }
                    merged.add(r, bits, done, &mut act);
                });
            }
        }
    }

    /// Positions of `x` (to move) in `row` whose successors have all been won in at most
    /// `p` plies: lost, unless a capture holds them.
    fn verify(&self, p: u8, row: usize, x: usize, cand: W) {
        let mut f = [0u8; MAX_MEN];
        let occ = self.decode(row, &mut f);
        self.verify_at(p, (row, &f, occ), x, cand);
    }

    /// [`Solver::verify`] with the row decoded (`f`, `occ`).
    fn verify_at(&self, p: u8, (row, f, occ): (usize, &[u8; MAX_MEN], W), x: usize, cand: W) {
        let g = &self.g;
        let t = self.t;
        let lost = cand & !self.escapes(f, occ, row, x, cand);
        if !lost.any() {
            return;
        }
        let mine = lost & !self.rmw().or(&self.done[x][row], lost);
        settle(&self.settled[x][row], mine);
        // Most are lost in `p + 1`: filed together.
        let mut next = W::ZERO;
        for bit in ones(mine) {
            // The seed's note of the captures (see `seed_values`); the position is ours.
            let value = &t.values[x][row * g.len + bit];
            let memo = value.load(Relaxed);
            if memo == HELD {
                // A draw for good: every quiet move lets the opponent win.
                value.store(DRAW, Relaxed);
                continue;
            }
            let d = p.max(memo.saturating_sub(1));
            let code = loss((d + 1).min(MAX_PLIES));
            value.store(code, Relaxed);
            if d == p {
                next |= W::bit(bit);
            } else {
                self.file(p, plies(code), row, x, W::bit(bit));
            }
        }
        if next.any() {
            self.file(p, plies(loss((p + 1).min(MAX_PLIES))), row, x, next);
        }
    }

    /// False when no undecided position of `violator` (to move) can be lost to the
    /// perpetual-check ban: the first round of the ban's game (see `perpetual`), played on
    /// rows, keeps them all. That round is the least set `Y` holding the other side's
    /// undrawn positions not in check (a quiet move of the violator led there), the
    /// violator's positions with a quiet move into `Y` or a capture to a draw (its seed's
    /// note), and the other side's positions whose every quiet move leads into `Y` or to a
    /// decided position. The positions decided as draws are in `Y` whatever it is (every
    /// move of one leads to a draw by capture or to the other side's win), but a violator's
    /// stalemate. `None` when it cannot tell: a violator's stalemate scored as a draw, or a
    /// table solved by levels (whose other levels' draws are in that game too). Otherwise
    /// the answer is the game's first round's: when it is `Some(true)`, the game's own
    /// quick sweeps would find the same and can be skipped.
    fn may_lose_to_ban(&self, violator: usize) -> Option<bool> {
        let (g, x, y) = (&self.g, violator, 1 - violator);
        let stalemate_drawn = (self.stuck[x].iter().enumerate())
            .flat_map(|(k, w)| ones(w.load(Relaxed)).map(move |b| k * 64 + b))
            .any(|idx| self.t.values[x][idx].load(Relaxed) == DRAW);
        if !g.heights.is_empty() || stalemate_drawn {
            return None;
        }
        let rows = self.rows;
        let mut f = [0u8; MAX_MEN];
        let open = |side: usize, row: usize| g.full & !self.done[side][row].load(Relaxed);
        // The other side's positions decided as draws: quiet targets as good as those of
        // `Y`.
        let drawn_y: Vec<W> = (0..rows)
            .map(|row| {
                let decided = g.full & self.done[y][row].load(Relaxed);
                ones(decided)
                    .filter(|&b| self.t.values[y][row * g.len + b].load(Relaxed) == DRAW)
                    .fold(W::ZERO, |acc, b| acc | W::bit(b))
            })
            .collect();
        // The other side's undecided positions in check, and the violator's with a capture
        // to a draw.
        let mut check = vec![W::ZERO; rows];
        let mut yx = vec![W::ZERO; rows];
        for row in 0..rows {
            let occ = self.decode(row, &mut f);
            check[row] = open(y, row) & self.checks(&f, occ, x);
            for bit in ones(open(x, row)) {
                if self.t.values[x][row * g.len + bit].load(Relaxed) == HELD {
                    yx[row] |= W::bit(bit);
                }
            }
        }
        let mut yy: Vec<W> = (0..rows).map(|r| open(y, r) & !check[r]).collect();
        let words = |w: &dyn Fn(usize) -> W| -> Vec<W::Atomic> {
            (0..rows)
                .map(|r| {
                    let a = W::Atomic::default();
                    a.store(w(r), Relaxed);
                    a
                })
                .collect()
        };
        loop {
            let mut changed = false;
            let not_y = words(&|r| !(yy[r] | drawn_y[r]));
            for (row, in_y) in yx.iter_mut().enumerate() {
                let cand = open(x, row) & !*in_y;
                if cand.any() {
                    let occ = self.decode(row, &mut f);
                    let into = self.escapes_from(&f, occ, row, x, cand, &not_y);
                    changed |= into.any();
                    *in_y |= into;
                }
            }
            let not_bad = words(&|r| !(open(x, r) & !yx[r]));
            for row in 0..rows {
                let cand = check[row] & !yy[row];
                if cand.any() {
                    let occ = self.decode(row, &mut f);
                    let kept = cand & !self.escapes_from(&f, occ, row, y, cand, &not_bad);
                    changed |= kept.any();
                    yy[row] |= kept;
                }
            }
            if !changed {
                return Some((0..rows).any(|r| open(x, r) & !yx[r] != W::ZERO));
            }
        }
    }

    /// Where the solve stopped (`at`): the undecided positions that only perpetual check
    /// holds become losses at the next even distance (`at` moves there), filed for it;
    /// returns how many (see `perpetual`, which reads undecided positions as draws).
    fn perpetual_losses(&self, at: &mut u8, progress: &mut dyn FnMut(&str)) -> usize {
        let q = *at + (*at & 1);
        let len = self.g.len;
        // Before the notes are taken out of the bytes: the check reads them.
        let suspects: Vec<Option<bool>> = (0..2).map(|v| self.may_lose_to_ban(v)).collect();
        let mut notes = Vec::new();
        for x in 0..2 {
            for row in 0..self.rows {
                let open = self.g.full & !self.done[x][row].load(Relaxed);
                for bit in ones(open) {
                    let value = &self.t.values[x][row * len + bit];
                    notes.push((x, row * len + bit, value.swap(DRAW, Relaxed)));
                }
            }
        }
        let mut found = 0;
        for violator in (0..2).filter(|&v| suspects[v] != Some(false)) {
            // The first round, played on rows, shown to take positions: the game need not
            // play it again.
            let shown = suspects[violator].is_some();
            let threads = self.threads.get();
            for idx in super::perpetual::losses_after(self.t, violator, threads, shown) {
                let (row, b) = (idx / len, W::bit(idx % len));
                self.t.values[violator][idx].store(loss(q), Relaxed);
                self.done[violator][row].fetch_or(b, Relaxed);
                self.settled[violator][row].fetch_or(b, Relaxed);
                self.file(q, q, row, violator, b);
                found += 1;
            }
        }
        for (x, idx, note) in notes {
            let done = self.done[x][idx / len].load(Relaxed);
            if !done.has(idx % len) {
                self.t.values[x][idx].store(note, Relaxed);
            }
        }
        progress(&format!(
            "{found} positions lost to the perpetual-check ban"
        ));
        *at = q;
        found
    }

    /// Undecided positions, and those held by a capture and never won, are draws: their
    /// bytes lose the seed's notes of their captures.
    fn clear_notes(&self, level: &[usize]) {
        let len = self.g.len;
        parallel(level.len(), self.pass_threads(), |a, b| {
            for x in 0..2 {
                for &row in &level[a..b] {
                    let done = self.done[x][row].load(Relaxed);
                    for bit in ones(self.g.full & !done) {
                        self.t.values[x][row * len + bit].store(DRAW, Relaxed);
                    }
                    // Held by a capture and never won (see `seed_row`).
                    let provisional = done & self.provisional[x][row].load(Relaxed);
                    for bit in ones(provisional) {
                        let value = &self.t.values[x][row * len + bit];
                        if value.load(Relaxed) == HELD {
                            value.store(DRAW, Relaxed);
                        }
                    }
                }
            }
        });
    }

    /// Positions of `y` (to move) in `row` (bits `bits`) with a move to a loss in `p`:
    /// won in `p + 1` unless decided already (a win by a capture may be made quicker).
    fn win(&self, p: u8, row: usize, y: usize, bits: W) {
        let t = self.t;
        let len = self.g.len;
        let code = win(p + 1);
        let done = self.done[y][row].load(Relaxed);
        let mut new = W::ZERO;
        // A provisional win is deeper than `p + 1` (or exactly that deep: rewriting it is
        // harmless): the thread that clears its bit improves it, without reading the byte.
        let provisional = &self.provisional[y][row];
        let decided = bits & done;
        if decided.any() {
            let quicker = decided & provisional.load(Relaxed);
            if quicker.any() {
                new |= quicker & self.rmw().and(provisional, !quicker);
            }
        }
        let fresh = bits & !done;
        if fresh.any() {
            new |= fresh & !self.rmw().or(&self.done[y][row], fresh);
        }
        if new.any() {
            settle(&self.settled[y][row], new);
            self.close(self.rmw(), y, row, new);
            self.file(p, p + 1, row, y, new);
            // The bytes last: a locked operation waits for the stores before it, and these
            // often miss the cache. Nothing reads them before the next pass.
            for bit in ones(new) {
                t.values[y][row * len + bit].store(code, Relaxed);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{div_rem, flip_word, rights, Cursor, Geometry, Outcomes, Word, MAX_MEN, MAX_ROW};
    use crate::egt::material::Material;
    use crate::egt::rules::Rules;
    use crate::egt::value::{loss, win, DRAW, ILLEGAL, WON_NOW};
    use crate::egt::{Builder, Settings};

    /// The unsolved table of a built-in variant's material.
    fn empty_table(variant: &str, material: &str) -> crate::egt::solve::Table {
        let all = variants::builtins().unwrap_or_else(|_| unreachable!());
        let v = variants::find(&all, variant).unwrap_or_else(|| unreachable!());
        let rules = Rules::new(v, None, false).unwrap_or_else(|_| unreachable!());
        let mut b = Builder::new(rules, Settings::default());
        let m = Material::parse(v, material).unwrap_or_else(|_| unreachable!());
        b.empty_table(&m).unwrap_or_else(|_| unreachable!())
    }

    /// The last man's moves become word operations where they are leaps and whole rays
    /// (a rook: four rays; a queen: eight; a knight: leaps alone), and stay path by path
    /// where the board is not the row (an advisor in its palace).
    /// The word operations reach exactly the squares the paths reach, from every square,
    /// on boards of many men.
    #[test]
    fn last_man_rays_reach_what_its_paths_reach() {
        fn check(variant: &str, material: &str, rays: usize, pure: bool) {
            let t = empty_table(variant, material);
            let g = Geometry::<u128>::new(&t);
            let what = format!("{variant} {material}");
            assert_eq!((g.vslides.len(), g.vpure), (rays, pure), "{what}");
            if !pure {
                return;
            }
            // Every square's paths, made one by one from the compiled moves.
            let last = t.men() - 1;
            let pm = &t.rules.moves[t.colour[last] as usize][t.piece[last] as usize];
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                // A few other men on random squares.
                let occ = (0..4).fold(0u128, |o, k| {
                    o | 1u128 << ((seed >> (8 * k)) % g.len as u64)
                });
                for a in (0..g.len).filter(|&a| occ >> a & 1 == 0) {
                    let mut want = 0u128;
                    for path in &pm.from[a] {
                        let free = <u128 as Word>::of_set(path.cond.empty) & occ == 0;
                        if path.rights & rights::MOVE != 0 && free && occ >> path.to & 1 == 0 {
                            want |= 1u128 << path.to;
                        }
                    }
                    // The squares reached from `a`: those whose one-square set `a` reaches.
                    let got = (0..g.len)
                        .filter(|&b| g.reach(1u128 << b, occ) >> a & 1 != 0 && occ >> b & 1 == 0)
                        .fold(0u128, |acc, b| acc | 1u128 << b);
                    assert_eq!(got, want, "{what}: from {a}, men on {occ:#x}");
                }
            }
        }
        check("chess", "KvKR", 4, true);
        check("chess", "KvKQ", 8, true);
        check("chess", "KvKB", 4, true);
        check("chess", "KvKN", 0, true);
        check("chess", "KvK", 0, true);
        check("capablanca", "KvKA", 4, true);
        check("xiangqi", "KvKR", 4, true);
        // A cannon moves as a rook (its captures over a screen are not moves).
        check("xiangqi", "KvKC", 4, true);
        check("xiangqi", "KAvK", 0, false);
    }

    /// A royal last gives its place to a piece (not the first man, not a pawn); a piece
    /// last, or alike men, keep the order.
    #[test]
    fn a_piece_is_last_rather_than_a_royal() {
        let last = |variant: &str, material: &str| {
            let t = empty_table(variant, material);
            let m = t.men() - 1;
            (t.royals.iter().any(|&r| r >> m & 1 != 0), t.perm.is_some())
        };
        assert_eq!(last("chess", "KRvKP"), (false, true));
        assert_eq!(last("chess", "KBNvK"), (false, true));
        assert_eq!(last("chess", "KQvKR"), (false, false));
        assert_eq!(last("chess", "KPvKP"), (true, true));
        assert_eq!(last("chess", "KvK"), (true, false));
    }

    /// A row's digits give the indexer's decode of the row's first entry, row by row, with
    /// men alone in their factors and with alike men (a pair, a triple), on 64 squares
    /// and on 80; and so does a cursor's (see [`Cursor`]), wherever it was before.
    #[test]
    fn row_digits_decode_as_the_indexer() {
        fn check<W: Word>(variant: &str, material: &str) {
            let t = empty_table(variant, material);
            let g = Geometry::<W>::new(&t);
            assert!(g.digits.is_some(), "{material}: row numbers fit 32 bits");
            let (ix, men) = (&t.index, t.men());
            let (mut f, mut want) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
            for row in 0..ix.size / g.len {
                let occ = g.decode(ix, row, &mut f);
                ix.decode(row * g.len, &mut want[..men]);
                assert_eq!(f[..men], want[..men], "{material} row {row}");
                let others = (0..men - 1).fold(W::ZERO, |o, i| o | W::bit(f[i] as usize));
                assert!(occ == others, "{material} row {row}: occupancy");
            }
            // The cursor's decode against the whole one, on a walk in order that skips
            // rows now and then (a sweep passes rows without undecided positions) and
            // jumps back and forth at random.
            let rows = ix.size / g.len;
            let (mut at, mut seed, mut row) = (Cursor::<W>::new(), 0x9e37_79b9_u64, 0usize);
            for step in 0..3 * rows {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                row = match (seed >> 33) % 16 {
                    0 => (seed >> 40) as usize % rows,
                    1..=3 => (row + 2 + (seed >> 50) as usize % 70) % rows,
                    _ => (row + 1) % rows,
                };
                let occ = g.decode_at(ix, row, &mut at);
                let whole = g.decode(ix, row, &mut f);
                assert_eq!(
                    at.f[..men - 1],
                    f[..men - 1],
                    "{material} row {row}, step {step}"
                );
                assert!(occ == whole, "{material} row {row}: the cursor's occupancy");
            }
        }
        check::<u64>("chess", "KQvKR");
        check::<u64>("chess", "KBBvK");
        check::<u64>("chess", "KPPvKP");
        check::<u64>("spartan", "KvKKH");
        check::<u64>("chess", "KNNNvK");
        check::<u128>("capablanca", "KAAvK");
    }

    /// Every pawn step to an empty square, from every row of every slice, reaches a slice
    /// solved before it and listed in its needs (when it has a list): found row by row
    /// through the indexer's encoding, against [`super::slice_needs`]'s shares. Berolina's
    /// diagonal steps leave the first man's region, where a slice waits for the levels.
    #[test]
    fn slice_needs_hold_every_pawn_step() {
        fn check(variant: &str, material: &str) -> (usize, usize) {
            let t = empty_table(variant, material);
            let g = Geometry::<u64>::new(&t);
            let (ix, men, pawns) = (&t.index, t.men(), g.heights.len());
            assert!(pawns > 0, "{material}: solved by levels");
            let per = ix.stride_of(pawns - 1) / g.len;
            let slices = ix.size / g.len / per;
            let mut f = [0u8; MAX_MEN];
            let height = |f: &[u8; MAX_MEN]| -> usize {
                (0..pawns)
                    .map(|i| g.heights[i][f[i] as usize] as usize)
                    .sum()
            };
            let mut order: Vec<usize> = (0..slices).collect();
            order.sort_by_key(|&s| {
                g.decode(ix, s * per, &mut f);
                height(&f)
            });
            let mut at = vec![0; slices];
            for (k, &s) in order.iter().enumerate() {
                at[s] = k;
            }
            let (mut steps, mut listed) = (0, 0);
            for slice in 0..slices {
                let needs = super::slice_needs(&g, ix, per, slice, &at);
                listed += usize::from(needs.is_some());
                for row in slice * per..(slice + 1) * per {
                    g.decode(ix, row, &mut f);
                    for i in 0..pawns {
                        for st in g.hits[i][f[i] as usize].iter().filter(|st| st.pushes) {
                            let mut next = f;
                            next[i] = st.sq;
                            let Some(idx) = ix.encode(&next[..men]) else {
                                continue;
                            };
                            let to = idx / g.len / per;
                            steps += 1;
                            assert!(at[to] < at[slice], "{material}: row {row} steps up");
                            if let Some(list) = &needs {
                                assert!(list.contains(&at[to]), "{material}: row {row}");
                            }
                        }
                    }
                }
            }
            (steps, listed)
        }
        for (variant, material) in [("chess", "KPvKP"), ("chess", "KRvKP")] {
            let (steps, listed) = check(variant, material);
            assert!(steps > 10_000, "{material}: {steps} steps");
            assert!(listed > 0, "{material}: every slice waits for the levels");
        }
        let (steps, _) = check("berolina", "KPvKP");
        assert!(steps > 10_000, "berolina: {steps} steps");
    }

    /// The reciprocal division against the hardware's, for the divisors of a row number.
    #[test]
    fn reciprocal_division_is_exact() {
        for n in (1u32..=130).chain([2016, 10_416, 65_536, 1 << 20]) {
            let magic = (u64::MAX / u64::from(n)).wrapping_add(1);
            let samples = (0u32..5000).chain([u32::MAX, u32::MAX - 1, n * 1000 - 1, n * 1000]);
            for r in samples.chain((0u32..2000).map(|k| k.wrapping_mul(2_654_435_761))) {
                assert_eq!(div_rem(r, n, magic), (r / n, r % n), "{r} / {n}");
            }
        }
    }

    /// The word operations against the square maps they stand for, square by square.
    #[test]
    fn flips_move_each_square_like_the_board_maps() {
        let board = crate::egt::board::Board::new(8, 8).unwrap_or_else(|| unreachable!());
        for map in &board.maps {
            let found = (0..8)
                .map(|c| (c & 4 != 0, c & 1 != 0, c & 2 != 0))
                .filter(|&flip| (0..64).all(|b| flip_word(1u64 << b, flip) == 1u64 << map[b]))
                .count();
            assert_eq!(found, 1);
        }
        assert_eq!(
            flip_word(0x0123_4567_89ab_cdef, (false, false, false)),
            0x0123_4567_89ab_cdef
        );
    }

    /// A row's codes added at once equal the same codes added position by position, for
    /// rows of every length a board gives (the last bytes of a word ragged), in words of 64
    /// and 128 bits, and several conversions added one after the other.
    #[test]
    fn codes_added_by_row_equal_codes_added_one_by_one() {
        fn check<W: Word>(len: usize, seed: &mut u64) {
            let (mut one, mut row) = (Outcomes::<W>::new(), Outcomes::<W>::new());
            let mut any = W::ZERO;
            for _ in 0..3 {
                let mut codes = [ILLEGAL; MAX_ROW];
                for (b, c) in codes[..len].iter_mut().enumerate() {
                    *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    let plies = (*seed >> 40) as u8 % 251;
                    *c = [ILLEGAL, DRAW, WON_NOW, win(plies), loss(plies)]
                        [(*seed >> 33) as usize % 5];
                    if *c != ILLEGAL {
                        one.add(b, *c);
                        any |= W::bit(b);
                    }
                }
                let moved = row.add_row(&codes, len);
                assert!(
                    moved
                        == (codes[..len].iter().enumerate())
                            .filter(|(_, &c)| c != ILLEGAL)
                            .fold(W::ZERO, |w, (b, _)| w | W::bit(b))
                );
            }
            assert!(one.any == row.any && row.any == any, "{len}: any");
            assert!(
                one.won == row.won && one.open == row.open,
                "{len}: won, open"
            );
            assert_eq!(one.best[..len], row.best[..len], "{len}: best");
            assert_eq!(one.worst[..len], row.worst[..len], "{len}: worst");
        }
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for len in [4, 9, 16, 25, 60, 63, 64] {
            for _ in 0..50 {
                check::<u64>(len, &mut seed);
            }
        }
        for len in [70, 80, 90, 100, 127, 128] {
            for _ in 0..50 {
                check::<u128>(len, &mut seed);
            }
        }
    }
}
