//! Static evaluation from compiled data only: piece values, piece-square tables generated from
//! the board and the pieces' promotion rights, mobility and king safety from the attack map's
//! counters, pieces in hand, blended between middle game and endgame.

mod files;
mod king;
mod lion;
pub mod params;
mod passer;
mod structure;
mod threats;
pub mod tune;

use std::sync::Arc;

use variants::geometry::Coord;
use variants::rules::Outcome;

use crate::board::layout::Layout;
use crate::board::position::{Man, Position};
use crate::board::types::{Colour, Sq, MAX_SLOT};
use files::PawnFiles;
use lion::LionTables;
use params::*;
use structure::{Men, Shapes};

/// Tables derived once per variant.
#[derive(Debug)]
pub struct EvalTables {
    /// Mailbox size the tables index.
    size: usize,
    /// (middle game, endgame) worth of a man on a square, its value (signed by
    /// [`material_sign`]) plus its piece-square bonus, by [`EvalTables::square_index`].
    on_square: Vec<(i32, i32)>,
    /// What the evaluation's scan reads of each kind, by kind.
    terms: Vec<KindTerms>,
    /// The weights in force.
    w: Weights,
    /// Value of each kind (middle game; threats and move ordering use it).
    value: Vec<i32>,
    /// (middle game, endgame) value of a variant piece in hand.
    hand_value: Vec<(i32, i32)>,
    /// Non-royal material of the start position, both sides, counting only men worth at least
    /// [`EvalTables::phase_floor`].
    start_material: i32,
    /// Men cheaper than this do not count towards the game phase: [`PAWN_VALUE_LIMIT`] when
    /// the start position has dearer non-royal men, else 0 (a game of pawns only).
    phase_floor: i32,
    /// Squares next to each square (king zone), by mailbox square.
    neighbours: Vec<Vec<Sq>>,
    /// Royal flag per kind.
    royal: Vec<bool>,
    /// Pieces may be dropped from the hand (king danger counts the enemy's hand).
    drops: bool,
    /// Value of each piece in hand for king danger, capped at [`KING_DANGER_VALUE_CAP`].
    drop_value: Vec<i32>,
    /// `passed[kind][colour][sq]`: (middle game, endgame) bonus of a pawn (a cheap man that
    /// promotes) on `sq` when no enemy pawn stands ahead of it on its file or the next ones;
    /// empty for other kinds.
    passed: Vec<[Vec<(i16, i16)>; 2]>,
    /// (file, rank) of every mailbox square (rank 0 for squares off the board).
    coords: Vec<(i8, i8)>,
    /// Ranks of the board.
    ranks: u8,
    /// `ahead[colour][sq]`: the square in front of `sq` for that colour (0: none).
    ahead: [Vec<Sq>; 2],
    /// The bare-king rule is in force.
    bare_king: bool,
    /// The variant counts checks: checks left to give are scored.
    check_counting: bool,
    /// The lion terms' tables, when the variant has lion-trading rules.
    lions: Option<LionTables>,
    /// Which kinds the pawn-structure terms concern (src/eval/structure.rs).
    shapes: Shapes,
    /// +1, or -1 where losing men wins (see [`material_sign`]): the sign of material and
    /// of the threats to it.
    material_sign: i32,
}

/// What the evaluation's scan asks of a man's kind, kept together: one lookup per man
/// rather than one per table, at nearly every node.
#[derive(Debug, Clone, Copy)]
struct KindTerms {
    /// Middle-game value (the game phase and the threats count it).
    value: i32,
    /// Mobility weight (middle game, endgame), in 1/100 cp; (0, 0) for none.
    mobility: (i32, i32),
    royal: bool,
    /// A pawn for the structure and passed-pawn terms (it has a passed-pawn table).
    pawn: bool,
    /// See [`Shapes::file_slider`].
    file_slider: bool,
    /// See [`Shapes::colour_bound`].
    colour_bound: bool,
    /// Lion terms apply.
    lion: bool,
}

/// True where the game is decided by the number of men on the board (`materialCounting =
/// unweighted`), so that every man is worth the same ([`COUNTED_MAN_VALUE`]).
fn men_counted(v: &variants::Variant) -> bool {
    v.end.material_counting == Some(variants::rules::MaterialCounting::Unweighted)
}

/// -1 where a side wins by losing its men (an extinction rule whose value is a win: the
/// losing games), so that material and the threats to it count against their owner; +1
/// otherwise. Read from the compiled rules only.
fn material_sign(v: &variants::Variant) -> i32 {
    let losing = (v.end.extinction.as_ref()).is_some_and(|e| e.value == Outcome::Win);
    if losing {
        -1
    } else {
        1
    }
}

impl EvalTables {
    /// Builds the tables of a layout; `start` is the variant's start position.
    pub fn new(lay: &Arc<Layout>, start: &Position) -> EvalTables {
        EvalTables::with_weights(lay, start, Weights::DEFAULT)
    }

    /// [`EvalTables::new`] with other weights (the tuner's).
    pub fn with_weights(lay: &Arc<Layout>, start: &Position, w: Weights) -> EvalTables {
        let counted = men_counted(&lay.variant);
        let worth = |k: &crate::board::layout::Kind, v: i32| match counted {
            true if !k.royal => COUNTED_MAN_VALUE,
            _ => v,
        };
        let value: Vec<i32> = lay.kinds.iter().map(|k| worth(k, k.value)).collect();
        let value_eg: Vec<i32> = lay.kinds.iter().map(|k| worth(k, k.value_eg)).collect();
        let royal: Vec<bool> = lay.kinds.iter().map(|k| k.royal).collect();
        let mobility: Vec<(i32, i32)> = lay
            .kinds
            .iter()
            .map(|k| {
                if k.royal || k.value < PAWN_VALUE_LIMIT {
                    (0, 0)
                } else {
                    let per = 10_000 / k.value.max(100);
                    (w.mobility_mg * per, w.mobility_eg * per)
                }
            })
            .collect();
        let sign = material_sign(&lay.variant);
        let on_square = on_square_table(lay, start, &w, (&value, &value_eg), sign);
        let hand_value = lay
            .variant
            .pieces
            .iter()
            .map(|p| {
                // Men in hand are not counted at the end where the board's men are.
                let per = if counted { 0 } else { w.hand_per_mille };
                (p.value * per / 1000, p.value_eg * per / 1000)
            })
            .collect();
        let material = |floor: i32| {
            start
                .live()
                .map(|(_, m)| &lay.kinds[m.kind as usize])
                .filter(|k| !k.royal && k.value >= floor)
                .map(|k| k.value)
                .sum::<i32>()
        };
        let phase_floor = if material(PAWN_VALUE_LIMIT) > 0 {
            PAWN_VALUE_LIMIT
        } else {
            0
        };
        let start_material = material(phase_floor).max(1);
        let passed: Vec<[Vec<(i16, i16)>; 2]> = (0..lay.kinds.len())
            .map(|k| {
                [
                    passed_for(lay, &w, k, Colour::White),
                    passed_for(lay, &w, k, Colour::Black),
                ]
            })
            .collect();
        let coords = (0..lay.size)
            .map(|sq| {
                lay.coord(sq as Sq)
                    .map_or((0, 0), |c| (c.file as i8, c.rank as i8))
            })
            .collect();
        let neighbours = (0..lay.size)
            .map(|sq| squares_within(lay, sq as Sq, 1))
            .collect();
        let shapes = Shapes::new(lay);
        let lions = LionTables::new(lay);
        let terms = (0..lay.kinds.len())
            .map(|k| KindTerms {
                value: value[k],
                mobility: mobility[k],
                royal: royal[k],
                pawn: !passed[k][0].is_empty() || !passed[k][1].is_empty(),
                file_slider: shapes.file_slider[k],
                colour_bound: shapes.colour_bound[k],
                lion: lions.as_ref().is_some_and(|l| l.is_lion(k)),
            })
            .collect();
        EvalTables {
            size: lay.size,
            w,
            on_square,
            terms,
            value,
            hand_value,
            start_material,
            phase_floor,
            neighbours,
            royal,
            drops: lay.variant.drops.enabled,
            drop_value: (lay.variant.pieces.iter())
                .map(|p| p.value.min(KING_DANGER_VALUE_CAP))
                .collect(),
            passed,
            coords,
            ranks: lay.ranks,
            ahead: [
                passer::ahead_table(lay, Colour::White),
                passer::ahead_table(lay, Colour::Black),
            ],
            bare_king: lay.variant.end.bare_king_loses,
            check_counting: lay.variant.end.check_counting,
            lions,
            shapes,
            material_sign: sign,
        }
    }

    /// Value of a piece kind (for move ordering and SEE-like decisions).
    pub fn kind_value(&self, kind: u8) -> i32 {
        self.value.get(kind as usize).copied().unwrap_or(0)
    }

    /// The position's score from the side to move's view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        debug_assert_eq!(self.size, pos.layout().size);
        let mut mg = [0i32; 2];
        let mut eg = [0i32; 2];
        let mut material = 0;
        let mut men = [0i32; 2];
        // Pawns of each side as (kind, square), for the passed-pawn test after the scan.
        let mut pawns: [arrayvec::ArrayVec<(u8, Sq), MAX_PAWNS>; 2] = Default::default();
        let mut lions: [arrayvec::ArrayVec<lion::Lion, MAX_LIONS>; 2] = Default::default();
        let mut royals: [passer::Royals; 2] = Default::default();
        let mut stakes = [threats::Stakes::default(); 2];
        let mut men_of = Men::default();
        let mut mobility = [0; MAX_SLOT + 1];
        let hand = [Colour::White, Colour::Black].map(|c| self.hand_danger(pos, c));
        pos.mobilities(&mut mobility);
        for (slot, m) in pos.live() {
            let c = m.colour.index();
            let t = self.terms[m.kind as usize];
            let (wm, we) = t.mobility;
            if wm != 0 || we != 0 {
                let n = mobility[slot as usize] as i32;
                mg[c] += n * wm / 100;
                eg[c] += n * we / 100;
            }
            if !t.royal {
                if t.value >= self.phase_floor {
                    material += t.value;
                }
                men[c] += 1;
                self.add_threat(pos, m, &mut stakes[c]);
            }
            if t.pawn {
                let _ = pawns[c].try_push((m.kind, m.sq));
            }
            self.note_shape(&mut men_of, c, t, m);
            if t.lion {
                let _ = lions[c].try_push((t.value, m.sq));
            }
            let (sm, se) = self.on_square[self.square_index(m)];
            mg[c] += sm;
            eg[c] += se;
            if t.royal {
                let _ = royals[c].try_push(m.sq);
                let (att, def) = self.king_zone(pos, m.colour, m.sq);
                let w = &self.w;
                mg[c] -= att * w.king_zone_attack - def.min(att + 2) * w.king_zone_defence;
                let (dm, de) = self.king_danger(pos, m.colour, m.sq, hand[c]);
                mg[c] -= dm;
                eg[c] -= de;
            }
        }
        let files = PawnFiles::new([&pawns[0], &pawns[1]], &self.coords);
        for c in 0..2 {
            let (sm, se) = self.structure(c, &pawns[c], &files, &royals[c], &men_of);
            mg[c] += sm;
            eg[c] += se;
            for &(k, sq) in &pawns[c] {
                let (f, r) = self.coords[sq as usize];
                if files.passed(c, f, r) {
                    let (pm, pe) = self.passed[k as usize][c][sq as usize];
                    let (xm, xe) = self.passer_extra(pos, c, sq, &royals);
                    mg[c] += pm as i32 + xm;
                    eg[c] += pe as i32 + xe;
                }
            }
        }
        if let Some(tables) = &self.lions {
            for c in [Colour::White, Colour::Black] {
                let (ours, theirs) = (&lions[c.index()], &lions[c.flip().index()]);
                if ours.is_empty() {
                    continue;
                }
                let mut risk = tables.cage(pos, c, ours);
                if !theirs.is_empty() {
                    risk += tables.trap(pos, &self.coords, c, (ours, theirs));
                }
                mg[c.index()] -= risk;
                eg[c.index()] -= risk;
            }
        }
        for c in [Colour::White, Colour::Black] {
            // Only the pieces held (none at all in most games): an empty hand adds nothing.
            let held = pos.hand_counts(c).iter().zip(&self.hand_value);
            for (&n, &(hm, he)) in held.filter(|(&n, _)| n != 0) {
                let n = n as i32;
                mg[c.index()] += n * hm * self.material_sign;
                eg[c.index()] += n * he * self.material_sign;
                if hm >= self.phase_floor {
                    material += n * hm;
                }
            }
        }
        if self.check_counting {
            for c in [Colour::White, Colour::Black] {
                let left = (pos.checks_left(c) as usize).min(CHECKS_LEFT_BONUS.len() - 1);
                mg[c.index()] += CHECKS_LEFT_BONUS[left];
                eg[c.index()] += CHECKS_LEFT_BONUS[left];
            }
        }
        if self.bare_king {
            for c in 0..2 {
                let guard = men[c].min(BARE_GUARD_MEN) * self.w.bare_guard;
                mg[c] += guard;
                eg[c] += guard;
            }
        }
        let us = pos.side_to_move();
        for c in [Colour::White, Colour::Black] {
            let (tm, te) = stakes[c.index()].penalty(c == us, &self.w);
            mg[c.index()] -= tm * self.material_sign;
            eg[c.index()] -= te * self.material_sign;
        }
        let phase = self.phase(material);
        let blend = |s: [i32; 2]| s[0] - s[1];
        let score = (blend(mg) * phase + blend(eg) * (PHASE_MAX - phase)) / PHASE_MAX;
        self.w.tempo + if us == Colour::White { score } else { -score }
    }

    /// Middle-game weight 0..=PHASE_MAX from the material left.
    fn phase(&self, material: i32) -> i32 {
        let per_mille = material * 1000 / self.start_material;
        let span = PHASE_FULL_PER_MILLE - PHASE_NONE_PER_MILLE;
        ((per_mille - PHASE_NONE_PER_MILLE).clamp(0, span) * PHASE_MAX) / span
    }

    /// Records the man `m` (colour index `c`, kind terms `t`) for the structure terms when it
    /// is a file slider or colour-bound.
    fn note_shape(&self, men: &mut Men, c: usize, t: KindTerms, m: &Man) {
        if t.file_slider {
            let _ = men.sliders[c].try_push(m.sq);
        }
        if t.colour_bound {
            let (f, r) = self.coords[m.sq as usize];
            men.add_bound(c, m.kind, ((f + r) & 1) as u8);
        }
    }

    /// Where a man's entry lies in [`EvalTables::on_square`].
    #[inline]
    fn square_index(&self, m: &Man) -> usize {
        (m.kind as usize * 2 + m.colour.index()) * self.size + m.sq as usize
    }

    /// (enemy paths, friendly paths) onto the squares next to a royal.
    fn king_zone(&self, pos: &Position, colour: Colour, sq: Sq) -> (i32, i32) {
        let mut att = 0;
        let mut def = 0;
        for &n in &self.neighbours[sq as usize] {
            att += pos.attack_count(colour.flip(), n) as i32;
            def += pos.attack_count(colour, n) as i32;
        }
        (att, def)
    }
}

/// [`EvalTables::on_square`]: for each kind and colour, every square's piece-square bonus
/// plus the kind's (middle game, endgame) `values` times `sign`.
fn on_square_table(
    lay: &Layout,
    start: &Position,
    w: &Weights,
    values: (&[i32], &[i32]),
    sign: i32,
) -> Vec<(i32, i32)> {
    (0..lay.kinds.len())
        .flat_map(|k| [Colour::White, Colour::Black].map(|c| (k, c)))
        .flat_map(|(k, c)| {
            let (v, ve) = (values.0[k] * sign, values.1[k] * sign);
            let table = pst_for(lay, start, w, k, c);
            table
                .into_iter()
                .map(move |(m, e)| (v + m as i32, ve + e as i32))
        })
        .collect()
}

/// The on-board squares within `steps` king steps of a square (itself left out).
pub(super) fn squares_within(lay: &Layout, sq: Sq, steps: i32) -> Vec<Sq> {
    let Some(c) = lay.coord(sq) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for df in -steps..=steps {
        for dr in -steps..=steps {
            let (f, r) = (c.file as i32 + df, c.rank as i32 + dr);
            if (df, dr) != (0, 0)
                && f >= 0
                && r >= 0
                && f < lay.files as i32
                && r < lay.ranks as i32
            {
                out.push(lay.sq(variants::geometry::Coord::new(f as u8, r as u8)));
            }
        }
    }
    out
}

/// The passed-pawn bonus table of one kind for one colour (empty unless the kind is a pawn:
/// cheaper than [`PAWN_VALUE_LIMIT`] and promoting), growing with the square of the progress
/// towards the last rank and with what promotion gains.
fn passed_for(lay: &Layout, w: &Weights, kind: usize, colour: Colour) -> Vec<(i16, i16)> {
    let k = &lay.kinds[kind];
    let gain = promotion_gain(lay, kind);
    if k.royal || k.value >= PAWN_VALUE_LIMIT || gain == 0 {
        return Vec::new();
    }
    let mut table = vec![(0i16, 0i16); lay.size];
    let ranks = lay.ranks as i32;
    for sq in lay.squares() {
        let Some(c) = lay.coord(sq) else { continue };
        let rank = relative_rank(c.rank, ranks, colour);
        let progress = rank * 1000 / (ranks - 1).max(1);
        let eg = gain * w.passed_per_mille / 1000 * progress * progress / 1_000_000;
        table[sq as usize] = ((eg * w.passed_mg_per_mille / 1000) as i16, eg as i16);
    }
    table
}

/// A rank counted from `colour`'s own side (0 is its first rank).
pub(super) fn relative_rank(rank: u8, ranks: i32, colour: Colour) -> i32 {
    if colour == Colour::White {
        rank as i32
    } else {
        ranks - 1 - rank as i32
    }
}

/// The most a man of `kind` gains in value by promoting (0 when it cannot).
pub(super) fn promotion_gain(lay: &Layout, kind: usize) -> i32 {
    let piece = &lay.variant.pieces[lay.kinds[kind].piece as usize];
    piece
        .promotions
        .iter()
        .map(|&p| lay.variant.pieces[p as usize].value - piece.value)
        .max()
        .unwrap_or(0)
        .max(0)
}

/// The piece-square table of one kind for one colour, by mailbox square.
fn pst_for(
    lay: &Layout,
    start: &Position,
    w: &Weights,
    kind: usize,
    colour: Colour,
) -> Vec<(i16, i16)> {
    let k = &lay.kinds[kind];
    let gain = promotion_gain(lay, kind);
    let mut table = vec![(0i16, 0i16); lay.size];
    let (files, ranks) = (lay.files as i32, lay.ranks as i32);
    for sq in lay.squares() {
        let Some(c) = lay.coord(sq) else { continue };
        let rank = relative_rank(c.rank, ranks, colour);
        // Steps from the centre, in half squares so that even boards are symmetric.
        let df = (2 * c.file as i32 - (files - 1)).abs();
        let dr = (2 * c.rank as i32 - (ranks - 1)).abs();
        let centre = (files.max(ranks) - 1 - df.max(dr) / 2 - (df + dr) / 4).max(0);
        let goal = flag_steps(lay, kind, colour, c);
        let (mg, eg) = if k.royal {
            (-rank * w.royal_advance_mg, centre * w.royal_centre_eg)
        } else {
            let scale = CENTRE_VALUE * 100 / k.value.max(CENTRE_VALUE);
            let mut mg = centre * w.centre_mg * scale / 100;
            let mut eg = centre * w.centre_eg * scale / 100;
            let progress = rank * 1000 / (ranks - 1).max(1);
            let adv = gain * w.advance_per_mille / 1000 * progress * progress / 1_000_000;
            mg += adv / 2;
            eg += adv;
            if k.value < PAWN_VALUE_LIMIT {
                mg += rank * w.pawn_rank_mg;
                eg += rank * w.pawn_rank_eg;
                let zone =
                    zone_step_bonus(lay, start, kind, colour, sq) * w.zone_step_per_mille / 1000;
                mg += zone;
                eg += zone;
            }
            (mg, eg)
        };
        let (mg, eg) = (mg + goal * FLAG_STEP.0, eg + goal * FLAG_STEP.1);
        table[sq as usize] = (mg as i16, eg as i16);
    }
    table
}

/// Capture the flag: how many king steps nearer its flag region a man of `kind` stands on
/// `at` than on the board's farthest square (0 when the kind is not its side's flag type).
fn flag_steps(lay: &Layout, kind: usize, colour: Colour, at: Coord) -> i32 {
    let Some(flag) = &lay.variant.end.flag else {
        return 0;
    };
    let piece = lay.kinds[kind].piece;
    let region = &flag.region[colour.index()];
    let counted = lay.variant.rule_type(piece);
    if region.is_empty() || flag.piece[colour.index()].is_some_and(|p| p != counted) {
        return 0;
    }
    let steps = |c: Coord| {
        region
            .iter()
            .map(|r| (r.file.abs_diff(c.file)).max(r.rank.abs_diff(c.rank)) as i32)
            .min()
            .unwrap_or(0)
    };
    let far = (lay.squares().filter_map(|sq| lay.coord(sq)))
        .map(steps)
        .max()
        .unwrap_or(0);
    far - steps(at)
}

/// What a cheap man gains on `sq` from moves it has only in a zone (a xiangqi soldier across
/// the river): its value times the zone's extra first steps over its usual ones (the caller
/// takes [`Weights::zone_step_per_mille`] of it). Such men have no mobility term, so this stands in for it. A zone
/// the kind starts in (a chess pawn's double-step rank) is left out: its moves are spent by
/// leaving it, and a bonus there would only hold the men back.
fn zone_step_bonus(lay: &Layout, start: &Position, kind: usize, colour: Colour, sq: Sq) -> i32 {
    let table = &lay.kinds[kind].cells[colour.index()];
    let starts_in = |zone: u8| {
        start.live().any(|(_, m)| {
            m.kind as usize == kind && m.colour == colour && lay.in_zone(colour, zone, m.sq)
        })
    };
    let (mut usual, mut gated) = (0, 0);
    for &r in &table.roots {
        let cell = &table.cells[r as usize];
        let to = (sq as i32 + cell.offset as i32) as Sq;
        if lay.coord(to).is_none() || !lay.in_zone(colour, cell.zone, to) {
            continue;
        }
        if cell.from_zone == crate::board::layout::NO_ZONE {
            usual += 1;
        } else if lay.in_zone(colour, cell.from_zone, sq) && !starts_in(cell.from_zone) {
            gated += 1;
        }
    }
    lay.kinds[kind].value * gated / usual.max(1)
}
