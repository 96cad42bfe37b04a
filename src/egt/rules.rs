//! The variant as the table generator sees it: every piece's paths per colour, the squares
//! each piece can stand on, promotion, the symmetries each piece allows, the board map that
//! carries White's rules onto Black's (when there is one: what colour mirrors read through)
//! and the game-end rules, compiled once per variant.

use std::sync::Arc;

use variants::rules::{Flip, Outcome, TRIPLE_STEP_ZONE};
use variants::{PieceId, SquareSet, Variant};

use super::board::{bit, Bits, Board, MAX_SQUARES};
use super::material::Material;
use super::paths::{zones_for, PieceMoves, SETS_EP};

/// Promotion of one piece type for one colour.
#[derive(Clone, Debug, Default)]
pub struct Promo {
    /// The promotion zone.
    pub zone: Bits,
    /// Shogi style: a move leaving the zone promotes too.
    pub shogi: bool,
    /// Chu's rule (`promotionOnEntry`, shogi-style pieces): a move may promote when it
    /// enters the zone, when it captures from inside it, or onto a square in `stuck`.
    pub on_entry: bool,
    /// Where the man could never move again (pawns and lances on the last rank).
    pub stuck: Bits,
    /// The types it may become (empty: it does not promote).
    pub choices: Vec<PieceId>,
    /// Destinations where promotion is forced.
    pub forced: Bits,
}

impl Promo {
    /// True when a move from `s` to `t` may promote (`captures`: it takes a man).
    #[inline]
    pub fn may(&self, s: u8, t: u8, captures: bool) -> bool {
        if self.choices.is_empty() {
            return false;
        }
        let (was_in, is_in) = (self.zone.has(s), self.zone.has(t));
        if self.on_entry {
            return !was_in && is_in || was_in && captures || self.stuck.has(t);
        }
        is_in || (self.shogi && was_in)
    }

    /// True when a move from `s` to `t` must promote (never under `on_entry`: see
    /// [`Rules::promotion`]).
    #[inline]
    pub fn must(&self, s: u8, t: u8) -> bool {
        self.may(s, t, true) && self.forced.has(t)
    }
}

/// Options that change the game the tables solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameRules {
    /// Result for a stalemated side to move.
    pub stalemate: Outcome,
    /// Black may pass when not in check (EGTgen's `-0`).
    pub null_move: bool,
    /// A side that can hold only by checking on every move loses (xiangqi).
    pub perpetual_check_loses: bool,
}

/// Everything the generator needs of a variant.
#[derive(Debug)]
pub struct Rules {
    /// The variant.
    pub variant: Variant,
    /// The board.
    pub board: Board,
    /// Paths per colour per piece type.
    pub moves: [Vec<PieceMoves>; 2],
    /// Squares each piece type can stand on, per colour.
    pub domain: [Vec<Bits>; 2],
    /// Promotion per colour per piece type.
    pub promo: [Vec<Promo>; 2],
    /// Board maps (bit `k` = `board.maps[k]`) each piece type is symmetric under, per colour.
    pub symmetric: [Vec<u8>; 2],
    /// Squares each piece type reaches in one move or capture from each square on an empty
    /// board, per colour: `reach[colour][piece][square]`.
    pub reach: [Vec<Vec<Bits>>; 2],
    /// `no_capture[attacker][victim]`.
    pub no_capture: Vec<Vec<bool>>,
    /// Game rules in force.
    pub game: GameRules,
    /// Per colour per piece type: the most men of the type a side may have for a promotion
    /// to it (`promotionLimit`, and the start position's count under `promotionToCaptured`);
    /// `usize::MAX` when unlimited.
    pub promo_cap: [Vec<usize>; 2],
    /// Per colour per royal piece type: the most men of it a side can have, its count in
    /// the start position, or more where a promotion makes it: up to the promotion's limit
    /// (`usize::MAX` when unlimited, as for every type that is not royal). Chess has no
    /// position with two white kings, spartan none with three black ones.
    pub royal_cap: [Vec<usize>; 2],
    /// Per colour: some piece type takes men on its way, burns or passes (see
    /// [`PieceMoves::irregular`]).
    pub irregular: [bool; 2],
    /// The board map that carries White's compiled rules onto Black's, when the colours play
    /// alike (see `mirror`): a table is then read through its colour mirror's.
    pub colour_flip: Option<Arc<[u8]>>,
}

/// Why a variant cannot have tables.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum RulesError {
    /// The board is too large to index.
    #[error("{0}: the table generator indexes boards of at most {MAX_SQUARES} squares")]
    BoardTooLarge(String),
    /// Drops change material without captures.
    #[error("{0}: tables for variants with drops are not supported")]
    Drops(String),
    /// A rule the generator does not play: its tables would hold another game's values.
    #[error("{0}: tables are not supported for variants with {1}")]
    Unsupported(String, &'static str),
}

/// Per piece type, the most men of it a side may have for a promotion to it (see
/// [`Rules::promo_cap`]); `initial`: the side's start squares per type.
fn promotion_caps(v: &Variant, initial: &[SquareSet]) -> Vec<usize> {
    (0..v.pieces.len())
        .map(|t| {
            let limit = (v.promotion.limits.iter())
                .find(|&&(p, _)| p as usize == t)
                .map_or(usize::MAX, |&(_, n)| n as usize);
            let start = initial.get(t).map_or(0, |s| s.iter().count());
            if v.promotion.limited_to_captured {
                limit.min(start)
            } else {
                limit
            }
        })
        .collect()
}

/// The first rule of `v` the generator does not play, if any: walls, gates, explosions, demotion,
/// men left behind, passing, janggi's facing kings, the loss of a non-royal type, hops barred
/// by type. (Promotion limits are played: see `Table::promos`; so are FSF's `diagonalLines`,
/// which are zones of the compiled paths.)
fn unsupported(v: &Variant) -> Option<&'static str> {
    let royal_extinction =
        (v.end.extinction_types.iter()).all(|&t| v.pieces.get(t as usize).is_some_and(|p| p.royal));
    if v.walling.is_some() {
        Some("walls placed by moves (wallingRule)")
    } else if v.end.move_repetition.is_some() {
        // A loss read from the moves that led to a position: no table value can hold it.
        Some("a man's repeated trips that lose (moveRepetitionIllegal)")
    } else if v.gating.is_some() {
        Some("gates (gating, seirawanGating, cambodianMoves)")
    } else if (v.pieces.iter()).any(|p| !p.promotions.is_empty() && p.promoted.is_some()) {
        // The tables' promotion offers one kind of choice per man (wolf's pawn has both).
        Some("a man with both pawn-style and shogi-style promotion (promotedPieceType)")
    } else if v.promotion.on_capture {
        Some("promotion only on captures (piecePromotionOnCapture)")
    } else if v.end.shatar.is_some() {
        Some("shatar's mate rule, decided by the checks before the mate (shatarMateRule)")
    } else if !v.petrify.is_empty() {
        Some("men turned to walls when they capture (petrifyOnCaptureTypes)")
    } else if v.stand_in_counts() {
        Some("a promoted man counted as the type it stands for (promotedPieceType)")
    } else if v.blast.is_some() {
        Some("explosions (atomic)")
    } else if v.promotion.demotion {
        Some("demotion of promoted men (pieceDemotion)")
    } else if v.pieces.iter().any(|p| p.leaves_behind.is_some()) {
        Some("men that leave a man behind")
    } else if v.pass_move {
        Some("passing")
    } else if v.end.bikjang {
        Some("bikjang (facing kings must be broken)")
    } else if let Some(rule) = losing_rule(v) {
        Some(rule)
    } else if !royal_extinction {
        Some("extinction of a non-royal type")
    } else if v.end.check_counting {
        Some("check counting (checkCounting)")
    } else if v.end.flag.is_some() {
        Some("flag regions (flagRegion: capture the flag)")
    } else if v.end.connect.is_some() {
        Some("connect rules (connectN, connectNxN, collinearN, connectRegion)")
    } else if !v.capture_matrix.contagion.is_empty() {
        Some("men turned by what they capture (contagion)")
    } else if v.promotion.forced_by_promoted_victim {
        Some("promotion forced by taking a promoted man (promotedCaptureForcesPromotion)")
    } else if v.black_rotated {
        Some("Black's men turned half round (blackRotated)")
    } else if v.promotion.stuck_forced {
        Some("HaChu's promotion onto dead squares (promotionOnEntryStuck = false)")
    } else if !v.end.checking {
        Some("checks forbidden (checking = false)")
    } else if v.end.n_fold_value != Outcome::Draw {
        Some("a repetition that is not a draw (nFoldValue)")
    } else if v.end.makpong {
        Some("a checked king that may only take its checker (makpongRule)")
    } else if v.end.counting.is_some() {
        Some("a counting rule (countingRule)")
    } else if v.castling.as_ref().is_some_and(|c| c.has_wins()) {
        // Tables hold no castling rights: every position would be lost for such a side.
        Some("castling that wins (castlingWins)")
    } else if v.zones.iter().any(|z| z.name == TRIPLE_STEP_ZONE) {
        // Its two e.p. squares are not modelled by the tables' single e.p. mark.
        Some("triple steps (tripleStepRegion)")
    } else if !v.capture_matrix.no_hop.is_empty() {
        // The tables' paths hop any man: a cannon that may not hop a cannon (FSF's
        // janggiCannon, also on elgam's diagonal lines) would be solved as another game.
        Some("men barred from hopping certain men (noHop, FSF's janggiCannon)")
    } else {
        None
    }
}

/// The rules of two-board games, set-up phases (bughouse, placement, sittuyin) and the
/// flipping games (ataxx, reversi: men that change colour, forced passes, the full board),
/// named before drops in general so that a user learns which rule stands in the way.
fn set_up_rule(v: &Variant) -> Option<&'static str> {
    if v.flip != Flip::None {
        Some("men that change colour (flipEnclosedPieces)")
    } else if v.end.pass_on_stalemate.iter().any(|&p| p) {
        Some("a forced pass when stuck (passOnStalemate)")
    } else if v.end.full_board_ends {
        Some("the end on a full board (adjudicateFullBoard)")
    } else if v.drops.two_boards {
        Some("two boards (twoBoards)")
    } else if v.promotion.sittuyin {
        Some("sittuyin's promotion (sittuyinPromotion)")
    } else if v.drops.castling_dropped {
        Some("castling rights for dropped men (castlingDroppedPiece)")
    } else if v.drops.opposite_bishops.is_some() {
        Some("bishops dropped on both colours (dropOppositeColoredBishop)")
    } else if !v.drops.first_rank_only.is_empty() {
        Some("rooks dropped on the first rank only (sittuyinRookDrop)")
    } else {
        None
    }
}

/// The rules of the games without royals and the losing games, which the generator does
/// not play (its values assume a royal to mate and free choice among the moves), and the
/// en passant regions that come with them (horde).
fn losing_rule(v: &Variant) -> Option<&'static str> {
    if v.end.must_capture {
        Some("obligatory captures (mustCapture)")
    } else if v.end.stalemate_piece_count {
        Some("stalemate judged by men left (stalematePieceCount)")
    } else if v.end.extinction.is_some() {
        Some("extinction of men (extinctionPieceTypes without pseudo-royalty)")
    } else if !v.pieces.iter().any(|p| p.royal) {
        Some("no royal piece (king = -)")
    } else if v.en_passant_region.is_some() {
        Some("en passant regions (enPassantRegion)")
    } else {
        None
    }
}

impl Rules {
    /// Compiles a variant; `stalemate` and `null_move` override the variant's own rules.
    pub fn new(
        v: &Variant,
        stalemate: Option<Outcome>,
        null_move: bool,
    ) -> Result<Rules, RulesError> {
        let board =
            Board::new(v.files, v.ranks).ok_or(RulesError::BoardTooLarge(v.name.clone()))?;
        if let Some(rule) = set_up_rule(v) {
            return Err(RulesError::Unsupported(v.name.clone(), rule));
        }
        if v.drops.enabled {
            return Err(RulesError::Drops(v.name.clone()));
        }
        if let Some(rule) = unsupported(v) {
            return Err(RulesError::Unsupported(v.name.clone(), rule));
        }
        let initial = variants::start_squares(v);
        let n = v.pieces.len();
        let shell = || Rules {
            variant: v.clone(),
            board: board.clone(),
            moves: [Vec::new(), Vec::new()],
            domain: [Vec::new(), Vec::new()],
            promo: [Vec::new(), Vec::new()],
            symmetric: [Vec::new(), Vec::new()],
            reach: [Vec::new(), Vec::new()],
            no_capture: vec![vec![false; n]; n],
            game: GameRules {
                stalemate: stalemate.unwrap_or(v.end.stalemate),
                null_move,
                perpetual_check_loses: v.end.perpetual_check_illegal,
            },
            colour_flip: None,
            irregular: [false; 2],
            promo_cap: [0, 1].map(|c| promotion_caps(v, &initial[c])),
            royal_cap: [Vec::new(), Vec::new()],
        };
        let mut rules = shell();
        for &(a, b) in &v.capture_matrix.no_capture {
            rules.no_capture[a as usize][b as usize] = true;
        }
        // Black's pieces on a thread of their own, into a second shell (each colour reads
        // only its own part): half of the start-up of a table build.
        let mut black = shell();
        std::thread::scope(|scope| {
            let other = scope.spawn(|| black.fill_colour(1, &initial[1]));
            rules.fill_colour(0, &initial[0]);
            if let Err(panic) = other.join() {
                std::panic::resume_unwind(panic);
            }
        });
        rules.moves[1] = std::mem::take(&mut black.moves[1]);
        rules.promo[1] = std::mem::take(&mut black.promo[1]);
        rules.reach[1] = std::mem::take(&mut black.reach[1]);
        rules.domain[1] = std::mem::take(&mut black.domain[1]);
        rules.symmetric[1] = std::mem::take(&mut black.symmetric[1]);
        rules.irregular[1] = black.irregular[1];
        rules.colour_flip = colour_map(&rules);
        rules.royal_cap = [0, 1].map(|c| rules.royal_caps(c, &initial[c]));
        Ok(rules)
    }

    /// Compiles the pieces of `colour` (their start squares `start`): their paths,
    /// promotions, reach, domains and symmetries.
    fn fill_colour(&mut self, colour: usize, start: &[SquareSet]) {
        let v = &self.variant;
        let zones = zones_for(v, colour);
        for ((p, piece), init) in v.pieces.iter().enumerate().zip(start) {
            let pm = PieceMoves::compile(&self.board, piece, colour, init, &zones);
            self.moves[colour].push(pm);
            let promo = self.promotion(colour, p as PieceId);
            self.promo[colour].push(promo);
        }
        let reach = self.moves[colour].iter().map(PieceMoves::reach).collect();
        self.reach[colour] = reach;
        self.irregular[colour] = self.moves[colour].iter().any(|pm| pm.irregular);
        for (p, init) in start.iter().enumerate() {
            let d = self.domain_of(colour, p, init);
            self.domain[colour].push(d);
        }
        for p in 0..v.pieces.len() {
            let s = self.symmetry_of(colour, p);
            self.symmetric[colour].push(s);
        }
    }

    /// True when a man of type `p` of colour `c` has a step past squares that lets it be
    /// taken en passant.
    pub fn sets_en_passant(&self, c: u8, p: PieceId) -> bool {
        let pm = &self.moves[c as usize][p as usize];
        pm.from.iter().flatten().any(|path| path.ep & SETS_EP != 0)
    }

    /// True when a man of `material` may step past a square where a man of the other side
    /// could take it en passant.
    pub fn en_passant_among(&self, material: &Material) -> bool {
        let men = &material.men;
        let takes = |c: u8, p: PieceId| {
            let pm = &self.moves[c as usize][p as usize];
            pm.ep_into.iter().any(|l| !l.is_empty())
        };
        men.iter().any(|a| {
            self.sets_en_passant(a.colour, a.piece)
                && men
                    .iter()
                    .any(|b| b.colour != a.colour && takes(b.colour, b.piece))
        })
    }

    fn bits(&self, set: &SquareSet) -> Bits {
        (0..self.board.n)
            .map(|s| s as u8)
            .filter(|&s| set.contains(self.board.coord(s)))
            .collect()
    }

    fn promotion(&self, colour: usize, p: PieceId) -> Promo {
        let v = &self.variant;
        let piece = &v.pieces[p as usize];
        let zone_set = if colour == 0 {
            &v.promotion.zone_white
        } else {
            &v.promotion.zone_black
        };
        let zone = self.bits(zone_set);
        let choices: Vec<PieceId> = if !piece.promotions.is_empty() {
            piece.promotions.clone()
        } else {
            piece.promoted.into_iter().collect()
        };
        // Dead and stuck squares are given for White.
        let own = |set: SquareSet| {
            let set = if colour == 0 {
                set
            } else {
                set.flip_ranks(v.ranks)
            };
            self.bits(&set)
        };
        let forced = if piece.mandatory_promotion {
            zone
        } else {
            Bits::EMPTY
        } | own(piece.dead_squares);
        Promo {
            zone,
            shogi: v.promotion.shogi_style,
            on_entry: v.promotion.on_entry && piece.promotions.is_empty(),
            stuck: own(piece.stuck_squares),
            choices,
            forced,
        }
    }

    /// Where a piece can stand: reachable from its start squares, or anywhere it is allowed
    /// when it does not start on the board or can be made by a promotion; never where it
    /// would have to promote.
    fn domain_of(&self, colour: usize, p: usize, start: &SquareSet) -> Bits {
        let piece = &self.variant.pieces[p];
        let promo = &self.promo[colour][p];
        let allowed_zone = piece.confined.map(|z| {
            let zones = zones_for(&self.variant, colour);
            zones
                .get(z as usize)
                .map(|s| self.bits(s))
                .unwrap_or_default()
        });
        let all = Bits::first(self.board.n);
        let mut open = allowed_zone.unwrap_or(all) & !promo.forced;
        let seeds = self.bits(start) & open;
        // A piece that some promotion makes can appear wherever promotions land.
        let promoted_to = self.promo[colour]
            .iter()
            .any(|q| q.choices.contains(&(p as PieceId)));
        if seeds.is_empty() || promoted_to {
            return open;
        }
        // Closure over the piece's moves on an empty board (hop screens ignored: a superset).
        let pm = &self.moves[colour][p];
        let mut reached = seeds;
        let mut frontier = seeds;
        while let Some(s) = frontier.squares().next() {
            frontier &= !bit(s);
            for path in &pm.from[s as usize] {
                let t = path.to;
                if path.rights & (variants::rights::MOVE | variants::rights::CAPTURE) != 0
                    && open.has(t)
                    && !reached.has(t)
                {
                    reached |= bit(t);
                    frontier |= bit(t);
                }
            }
        }
        open &= reached;
        open
    }

    /// [`Rules::royal_cap`] of `colour` (its start squares per type `start`).
    fn royal_caps(&self, colour: usize, start: &[SquareSet]) -> Vec<usize> {
        let promos = &self.promo[colour];
        (self.variant.pieces.iter().enumerate())
            .map(|(p, piece)| {
                let made = promos.iter().any(|q| q.choices.contains(&(p as PieceId)));
                let start = start.get(p).map_or(0, |s| s.iter().count());
                match (piece.royal, made) {
                    (false, _) => usize::MAX,
                    // A promotion to it is allowed while the side holds fewer than the cap.
                    (true, true) => start.max(self.promo_cap[colour][p]),
                    (true, false) => start,
                }
            })
            .collect()
    }

    /// The board maps under which the piece's paths, domain and promotion zone are unchanged
    /// (a subgroup of the board's maps: see [`Board::subgroup`]).
    fn symmetry_of(&self, colour: usize, p: usize) -> u8 {
        self.board.subgroup(|k| self.keeps(colour, p, k))
    }

    /// True when board map `k` leaves the piece's paths, domain and promotion zone
    /// unchanged.
    fn keeps(&self, colour: usize, p: usize, k: usize) -> bool {
        let pm = &self.moves[colour][p];
        let b = &self.board;
        if b.map_bits(k, self.domain[colour][p]) != self.domain[colour][p] {
            return false;
        }
        let promo = &self.promo[colour][p];
        if !promo.choices.is_empty()
            && (b.map_bits(k, promo.zone) != promo.zone
                || b.map_bits(k, promo.forced) != promo.forced)
        {
            return false;
        }
        (b.maps[k].iter().take(b.n).enumerate())
            .all(|(s, &image)| pm.maps_onto(b, k, s, &pm.from[image as usize]))
    }

    /// The same rules with the ban on perpetual check switched on or off.
    pub fn with_perpetual_ban(mut self, on: bool) -> Rules {
        self.game.perpetual_check_loses = on;
        self
    }

    /// The other colour's index.
    #[inline]
    pub fn other(c: usize) -> usize {
        1 - c
    }
}

/// The board map under which Black's moves, domains and promotions are White's, when there
/// is one (the identity never counts: the colours' pawns move apart).
fn colour_map(rules: &Rules) -> Option<Arc<[u8]>> {
    let b = &rules.board;
    (1..b.maps.len())
        .find(|&k| (0..rules.variant.pieces.len()).all(|p| reflects(rules, k, p)))
        .map(|k| Arc::from(b.maps[k].as_slice()))
}

/// True when piece `p`'s rules for Black are its rules for White under board map `k`.
fn reflects(rules: &Rules, k: usize, p: usize) -> bool {
    let b = &rules.board;
    let bits = |x: Bits| b.map_bits(k, x);
    let (w, k_promo) = (&rules.promo[0][p], &rules.promo[1][p]);
    let promo_same = w.choices == k_promo.choices
        && w.shogi == k_promo.shogi
        && bits(w.zone) == k_promo.zone
        && bits(w.forced) == k_promo.forced;
    promo_same
        && bits(rules.domain[0][p]) == rules.domain[1][p]
        && moves_reflect(b, k, &rules.moves[0][p], &rules.moves[1][p])
}

/// True when `black`'s paths are `white`'s under board map `k`, square by square.
fn moves_reflect(b: &Board, k: usize, white: &PieceMoves, black: &PieceMoves) -> bool {
    if white.unsupported != black.unsupported {
        return false;
    }
    let map = &b.maps[k];
    (0..b.n).all(|s| white.maps_onto(b, k, s, &black.from[map[s] as usize]))
}

#[cfg(test)]
mod tests {
    use super::Rules;

    /// The maps found through [`Board::subgroup`](super::Board::subgroup), which asks about
    /// a few and infers the rest, are those found by asking about every map: for every
    /// piece of every built-in variant, both colours (pawns, palace and half-board pieces,
    /// rectangles without transposes, a burner, lions).
    #[test]
    fn symmetries_inferred_equal_symmetries_tested_one_by_one() {
        let all = variants::builtins().unwrap_or_else(|e| panic!("{e:?}"));
        let (mut partial, mut checked) = (0, 0);
        for v in &all {
            // Variants the tables do not play (drops, explosions) are refused by name.
            let Ok(rules) = Rules::new(v, None, false) else {
                continue;
            };
            checked += 1;
            let maps = rules.board.maps.len();
            for colour in 0..2 {
                for p in 0..v.pieces.len() {
                    let each = (1..maps)
                        .filter(|&k| rules.keeps(colour, p, k))
                        .fold(1u8, |m, k| m | 1 << k);
                    assert_eq!(rules.symmetric[colour][p], each, "{} {colour} {p}", v.name);
                    partial += usize::from(each != 1 && each.count_ones() as usize != maps);
                }
            }
        }
        assert!(checked >= 15, "{checked} variants");
        // Neither all nor none: the inference's harder case (pawns, xiangqi's men).
        assert!(partial > 10, "{partial}");
    }
}
