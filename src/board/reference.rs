//! The reference move generator: slow, plain and written from the rules, the oracle the
//! engine's incremental generator is tested against.
//!
//! It knows nothing of the engine's mailbox, kinds, moveTable cells or attack map. The board
//! is a plain array of men indexed by [`Coord::index`]; moves come from walking the variant's
//! compiled [`Trajectories`] square by square; legality is decided by playing the move on a
//! copy of the board and asking, from scratch, whether the opponent could then take a royal.
//! Only the output type ([`Move`]) and the FEN placement reader are shared with the engine.
//!
//! Semantics chosen where the rules leave room (see also the report in the commit log):
//!
//! * the moving man's own square counts as empty while its paths are walked (it has left);
//! * `capture_matrix.no_capture` forbids every capture by that attacker of that victim:
//!   replacement, locust (the path is cut there), self-capture and en passant;
//! * a royal is in check when some pseudo-legal enemy move aims at it (replacement, locust,
//!   e.p., a fire demon's burn, also that of a man promoting into one on that move; not an
//!   atomic blast next to it, as in atomic chess) and would remove it without costing the
//!   enemy its own royal (so adjacent atomic kings do not check each other), or when an
//!   enemy path reaches it with `CHECK_ONLY`; taking the opponent's last royal (Absolute:
//!   any royal) wins and is therefore legal whatever it leaves attacked; losing one's own
//!   royal (own blast, self-capture) is illegal;
//! * a `rangeJump` man's path goes on over a man of lower `jumpRank` (either side) where
//!   it would go on over an empty square, and stops at one of equal or higher rank, which
//!   it may capture (Tenjiku jumping generals); past a man it may only capture: a jump
//!   never ends on an empty square;
//! * a burner (`burn`, the Tenjiku Fire Demon) removes every enemy man next to where it
//!   lands, an enemy burner included; the burned squares are not listed in the move;
//! * under `pieceDemotion` a promoted man demotes as a man promotes (kyotoshogi's flipping);
//! * identical moves reached by different paths are generated once.

use std::collections::HashSet;
use std::sync::Arc;

use variants::geometry::{Coord, SquareSet, MAX_SQUARES};
use variants::rights;
use variants::rules::{LionTrading, Royalty};
use variants::{NodeId, PieceId, Trajectories, Variant};

use crate::board::fen::{parse_placement, split_squares, FenError, Placement};
use crate::board::layout::Layout;
use crate::board::moves::{Move, MoveKind, NO_PIECE};
use crate::board::position::Position;
use crate::board::reference_drops as drops;
use crate::board::reference_goals as goals;
use crate::board::types::{Colour, OFF};

/// One man on the reference board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RefMan {
    /// Variant piece type.
    pub piece: PieceId,
    /// Owner.
    pub colour: Colour,
    /// Has not moved: may use `INITIAL` paths and castle.
    pub virgin: bool,
    /// Crazyhouse `~` marker: returns to hand as the pawn type.
    pub promoted: bool,
}

/// En-passant state: where a capture may land and whom it removes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefEp {
    /// Landing squares.
    pub targets: Vec<Coord>,
    /// Square of the man that passed them.
    pub victim: Coord,
}

/// A plain board: men by square, walls, hands, side to move and e.p.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefBoard {
    /// Files of the variant.
    pub files: u8,
    /// Ranks of the variant.
    pub ranks: u8,
    /// Men by [`Coord::index`].
    pub squares: Vec<Option<RefMan>>,
    /// Wall squares (`*`) by [`Coord::index`].
    pub walls: Vec<bool>,
    /// `hands[colour][piece]`.
    pub hands: [Vec<u8>; 2],
    /// Side to move.
    pub stm: Colour,
    /// En passant, if the last move was a double step.
    pub ep: Option<RefEp>,
    /// Passes played in a row before this position; at 2 the game is over.
    pub passes: u8,
    /// Chu counterstrike: where the last move's non-lion took a lion.
    pub lion_strike: Option<Coord>,
    /// Check counting: checks left to give, White's first.
    pub checks_left: [u8; 2],
    /// Gating: each side's gate squares.
    pub gates: [Vec<Coord>; 2],
    /// `castlingWins`: the last move castled on a side where castling wins.
    pub castled_win: bool,
    /// Squares of each piece type in the variant's start position, per colour (for virgin
    /// drops and Grand-chess promotion limits).
    pub start: Arc<[Vec<SquareSet>; 2]>,
}

/// One end of a walked path: where it ends, the node's rights, the locust victims passed.
pub(super) struct Reach<'p> {
    pub(super) to: Coord,
    pub(super) rights: u16,
    victims: &'p [Coord],
    /// A range jumper got here over a man: it may capture here, not move here.
    pub(super) jumped: bool,
}

impl RefBoard {
    /// An empty board for the variant, White to move.
    pub fn empty(v: &Variant, start: Arc<[Vec<SquareSet>; 2]>) -> RefBoard {
        let n = v.pieces.len();
        RefBoard {
            files: v.files,
            ranks: v.ranks,
            squares: vec![None; MAX_SQUARES],
            walls: vec![false; MAX_SQUARES],
            hands: [vec![0; n], vec![0; n]],
            stm: Colour::White,
            ep: None,
            passes: 0,
            lion_strike: None,
            checks_left: [1; 2],
            gates: [Vec::new(), Vec::new()],
            castled_win: false,
            start,
        }
    }

    /// The man on a square.
    pub fn at(&self, c: Coord) -> Option<RefMan> {
        self.squares[c.index()]
    }

    /// The playing square at (file, rank), `None` off the board or on a wall.
    pub fn square(&self, f: i32, r: i32) -> Option<Coord> {
        if f < 0 || r < 0 || f >= self.files as i32 || r >= self.ranks as i32 {
            return None;
        }
        let c = Coord::new(f as u8, r as u8);
        (!self.walls[c.index()]).then_some(c)
    }

    /// Every playing square (walls excluded), rank by rank from a1.
    pub fn coords(&self) -> impl Iterator<Item = Coord> + '_ {
        (0..self.ranks as i32)
            .flat_map(move |r| (0..self.files as i32).filter_map(move |f| self.square(f, r)))
    }

    /// Every man as (square, man).
    pub fn men(&self) -> impl Iterator<Item = (Coord, RefMan)> + '_ {
        self.coords().filter_map(|c| self.at(c).map(|m| (c, m)))
    }

    /// A square as seen from `colour`'s side (ranks mirrored for Black).
    pub(crate) fn relative(&self, c: Coord, colour: Colour) -> Coord {
        match colour {
            Colour::White => c,
            Colour::Black => c.flip_rank(self.ranks),
        }
    }

    /// Reads the engine position's men, walls, hands, side to move and e.p. (data only).
    pub fn from_position(pos: &Position) -> RefBoard {
        let lay = &pos.lay;
        let mut b = RefBoard::empty(&lay.variant, Arc::new(lay.start_squares.clone()));
        for sq in lay.squares() {
            let Some(c) = lay.coord(sq) else { continue };
            b.walls[c.index()] = pos.board[sq as usize] == OFF;
            b.squares[c.index()] = pos.man_at(sq).map(|m| {
                let kind = &lay.kinds[m.kind as usize];
                RefMan {
                    piece: kind.piece,
                    colour: m.colour,
                    virgin: kind.virgin,
                    promoted: m.promoted,
                }
            });
        }
        b.hands = pos.hand.clone();
        b.stm = pos.stm;
        b.passes = pos.passes;
        b.lion_strike = pos.lion_strike.and_then(|sq| lay.coord(sq));
        b.checks_left = pos.checks_left;
        b.gates = super::reference_gating::gate_squares(&lay.variant, pos.gates);
        b.castled_win = pos.castled_win;
        b.ep = pos.ep.as_ref().and_then(|ep| {
            Some(RefEp {
                targets: ep.targets.iter().filter_map(|&t| lay.coord(t)).collect(),
                victim: lay.coord(ep.victim)?,
            })
        });
        b
    }

    /// Reads a FEN with its own small parser on top of [`parse_placement`].
    pub fn from_fen(v: &Variant, fen: &str) -> Result<RefBoard, FenError> {
        let lay = Layout::new(v.clone());
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let placement = parse_placement(&lay, fields.first().ok_or(FenError::Empty)?)?;
        let start_placement = v
            .start_fen
            .split_whitespace()
            .next()
            .and_then(|s| parse_placement(&lay, s).ok())
            .unwrap_or_default();
        let mut b = RefBoard::empty(v, Arc::new(start_sets(v, &start_placement)));
        b.stm = match fields.get(1).copied() {
            None | Some("w") => Colour::White,
            Some("b") => Colour::Black,
            Some(s) => return Err(FenError::BadSide(s.into())),
        };
        let after_side: Vec<&str> = fields.iter().skip(2).copied().collect();
        let after_side = if v.end.check_counting {
            let (left, rest) =
                goals::split_check_counts(&after_side).map_err(FenError::BadChecks)?;
            b.checks_left = left;
            rest
        } else {
            after_side
        };
        // Castling and e.p. fields are optional: shogi FENs go straight to the counters.
        let mut rest = after_side.iter().filter(|s| !is_counter(s));
        let castling = rest.next().copied().unwrap_or("-");
        let ep = rest.next().copied().unwrap_or("-");
        let hands = holdings(v, &placement);
        let castling = (castling != "-").then_some(castling);
        let (castling, mut masks) =
            super::gating::split_gate_marks(v, &placement, &hands, castling);
        let rights = castling_rights(v, &placement, castling.as_deref().unwrap_or("-"))?;
        super::gating::castling_gates(v, &placement, &rights, &mut masks);
        b.gates = super::reference_gating::gate_squares(v, masks);
        b.place(v, &placement, &rights);
        b.ep = b.parse_ep(ep)?;
        Ok(b)
    }

    /// Puts walls, men and holdings; castling men are virgin by the rights, other men with
    /// initial paths by standing on a start square of their type.
    fn place(&mut self, v: &Variant, p: &Placement, rights: &[Coord]) {
        for w in &p.walls {
            self.walls[w.index()] = true;
        }
        for m in &p.men {
            let virgin = if castling_piece(v, m.piece) {
                rights.contains(&m.at)
            } else {
                has_initial_paths(&v.pieces[m.piece as usize].moves)
                    && self.start[m.colour.index()][m.piece as usize].contains(m.at)
            };
            self.squares[m.at.index()] = Some(RefMan {
                piece: m.piece,
                colour: m.colour,
                virgin,
                promoted: m.promoted,
            });
        }
        for &(c, piece) in p.holdings.iter().flatten() {
            let n = &mut self.hands[c.index()][piece as usize];
            *n = n.saturating_add(1);
        }
    }

    /// The e.p. field: empty squares are targets, an enemy man named is the victim, else the
    /// enemy man one rank behind the first target (straight or diagonally) is.
    fn parse_ep(&self, field: &str) -> Result<Option<RefEp>, FenError> {
        if field == "-" {
            return Ok(None);
        }
        let bad = || FenError::BadEnPassant(field.into());
        let mut targets = Vec::new();
        let mut victim = None;
        for text in split_squares(field).ok_or_else(bad)? {
            let c = Coord::parse(text, self.files, self.ranks).ok_or_else(bad)?;
            match self.at(c) {
                None => targets.push(c),
                Some(m) if m.colour != self.stm => victim = Some(c),
                Some(_) => return Err(bad()),
            }
        }
        let first = *targets.first().ok_or_else(bad)?;
        let victim = match victim {
            Some(v) => v,
            None => self.infer_ep_victim(first).ok_or_else(bad)?,
        };
        Ok(Some(RefEp { targets, victim }))
    }

    fn infer_ep_victim(&self, target: Coord) -> Option<Coord> {
        let back = if self.stm == Colour::White { -1 } else { 1 };
        [0, -1, 1].iter().find_map(|df| {
            let c = self.square(target.file as i32 + df, target.rank as i32 + back)?;
            self.at(c).filter(|m| m.colour != self.stm).map(|_| c)
        })
    }
}

/// The hands a placement's holdings give.
fn holdings(v: &Variant, p: &Placement) -> [Vec<u8>; 2] {
    let n = v.pieces.len();
    let mut hands = [vec![0u8; n], vec![0u8; n]];
    for &(c, piece) in p.holdings.iter().flatten() {
        let k = &mut hands[c.index()][piece as usize];
        *k = k.saturating_add(1);
    }
    hands
}

/// Counters are all digits (or a negative number); anything else is castling or e.p.
fn is_counter(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_digit()) || (s.starts_with('-') && s.len() > 1)
}

fn start_sets(v: &Variant, p: &Placement) -> [Vec<SquareSet>; 2] {
    let n = v.pieces.len();
    let mut out = [vec![SquareSet::EMPTY; n], vec![SquareSet::EMPTY; n]];
    for m in &p.men {
        out[m.colour.index()][m.piece as usize].insert(m.at);
    }
    out
}

fn has_initial_paths(t: &Trajectories) -> bool {
    t.roots
        .iter()
        .any(|&r| t.nodes[r as usize].rights & rights::INITIAL != 0)
}

/// True when the type takes part in castling (its virgin state comes from the rights).
fn castling_piece(v: &Variant, piece: PieceId) -> bool {
    v.castling
        .as_ref()
        .is_some_and(|c| c.king_type == piece || c.rook_types.contains(&piece))
}

/// The squares of the king and rook of every castling letter (`KQkq`, Shredder `A`-`P`).
fn castling_rights(v: &Variant, p: &Placement, field: &str) -> Result<Vec<Coord>, FenError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let bad = || FenError::BadCastling(field.into());
    let castling = v.castling.as_ref().ok_or_else(bad)?;
    let mut out = Vec::new();
    for ch in field.chars() {
        let colour = if ch.is_ascii_uppercase() {
            Colour::White
        } else {
            Colour::Black
        };
        let rank = castling.home_rank(colour == Colour::White, v.ranks);
        let home = |piece_ok: &dyn Fn(PieceId) -> bool| {
            p.men
                .iter()
                .filter(|m| m.colour == colour && m.at.rank == rank && piece_ok(m.piece))
                .map(|m| m.at)
                .collect::<Vec<Coord>>()
        };
        let king = *home(&|x| x == castling.king_type).first().ok_or_else(bad)?;
        let rooks = home(&|x| castling.rook_types.contains(&x));
        let files: Vec<u8> = rooks.iter().map(|r| r.file).collect();
        let file = castling.rook_file(ch.to_ascii_uppercase(), &files, king.file);
        out.push(king);
        out.push(Coord::new(file.ok_or_else(bad)?, rank));
    }
    Ok(out)
}

// ---------------------------------------------------------------------------------------
// Walking trajectories
// ---------------------------------------------------------------------------------------

/// True when `c` lies in zone `z` for `colour`; an unknown zone contains nothing.
fn in_zone(v: &Variant, colour: Colour, z: u8, c: Coord) -> bool {
    v.zones.get(z as usize).is_some_and(|zone| match colour {
        Colour::White => zone.white.contains(c),
        Colour::Black => zone.black.contains(c),
    })
}

/// True when the matrix lets `attacker` capture `victim`.
fn may_take(v: &Variant, attacker: PieceId, victim: PieceId) -> bool {
    !v.capture_matrix.no_capture.contains(&(attacker, victim))
}

/// One man's walk over the board.
pub(super) struct Walk<'a> {
    pub(super) b: &'a RefBoard,
    pub(super) v: &'a Variant,
    pub(super) man: RefMan,
    pub(super) from: Coord,
}

impl Walk<'_> {
    /// What stands on `c` for this walk: the mover's own square counts as empty.
    fn occupant(&self, c: Coord) -> Option<RefMan> {
        if c == self.from {
            None
        } else {
            self.b.at(c)
        }
    }

    /// Calls `visit` for every square every path of the man reaches.
    pub(super) fn run(&self, visit: &mut dyn FnMut(&Reach)) {
        let t = &self.v.pieces[self.man.piece as usize].moves;
        let at = (self.from.file as i32, self.from.rank as i32);
        for &root in &t.roots {
            let node = &t.nodes[root as usize];
            if node.rights & rights::INITIAL != 0 && !self.man.virgin {
                continue;
            }
            if let Some(z) = node.from_zone {
                if !in_zone(self.v, self.man.colour, z, self.from) {
                    continue;
                }
            }
            self.node(t, root, (at, false), &mut Vec::new(), visit);
        }
    }

    /// Walks node `id` from `at`; `jumped`: a range jumper passed a man on the way.
    fn node(
        &self,
        t: &Trajectories,
        id: NodeId,
        (at, jumped): ((i32, i32), bool),
        victims: &mut Vec<Coord>,
        visit: &mut dyn FnMut(&Reach),
    ) {
        let node = &t.nodes[id as usize];
        let (df, dr) = match self.man.colour {
            Colour::White => (node.step.0 as i32, node.step.1 as i32),
            // Turned half round (shogi, `blackRotated`) or mirrored top to bottom (chess).
            Colour::Black if self.v.black_rotated => (-node.step.0 as i32, -node.step.1 as i32),
            Colour::Black => (node.step.0 as i32, -(node.step.1 as i32)),
        };
        let (f, r) = (at.0 + df, at.1 + dr);
        // Off the board, a wall or outside the node's zone: the path is cut here.
        let Some(c) = self.b.square(f, r) else { return };
        // Confinement binds moves, not a royal's check-only sight line (flying general).
        let sight = node.rights & rights::CHECK_ONLY != 0 && !node.can_end();
        let confined = self.v.pieces[self.man.piece as usize].confined;
        let zone = if sight {
            node.zone
        } else {
            node.zone.or(confined)
        };
        if let Some(z) = zone {
            if !in_zone(self.v, self.man.colour, z, c) {
                return;
            }
        }
        visit(&Reach {
            to: c,
            rights: node.rights,
            victims,
            jumped,
        });
        let other = self.occupant(c);
        if other.is_none() || other.is_some_and(|o| self.jumps_over(node, o)) {
            let jumped = jumped || other.is_some();
            for &child in &node.on_empty {
                self.node(t, child, ((f, r), jumped), victims, visit);
            }
            return;
        }
        let Some(other) = other else { return };
        let Some(locust) = self.pass(node.rights, other) else {
            return;
        };
        if locust {
            victims.push(c);
        }
        for &child in &node.on_occupied {
            self.node(t, child, ((f, r), jumped), victims, visit);
        }
        if locust {
            victims.pop();
        }
    }

    /// Tenjiku range jump: a `rangeJump` man's path goes on over a man of lower jump rank
    /// (either side) as over an empty square, where it would go on over an empty one.
    fn jumps_over(&self, node: &variants::trajectory::Node, other: RefMan) -> bool {
        let me = &self.v.pieces[self.man.piece as usize];
        me.range_jump
            && node.on_occupied.is_empty()
            && self.v.pieces[other.piece as usize].jump_rank < me.jump_rank
    }

    /// May the path go on over `other`? `Some(true)` when it captures it on the way.
    fn pass(&self, node_rights: u16, other: RefMan) -> Option<bool> {
        let friend = other.colour == self.man.colour;
        let (pass, locust) = if friend {
            (rights::PASS_FRIEND, rights::LOCUST_FRIEND)
        } else {
            (rights::PASS_FOE, rights::LOCUST_FOE)
        };
        if node_rights & pass == 0 {
            return None;
        }
        if self
            .v
            .capture_matrix
            .no_hop
            .contains(&(self.man.piece, other.piece))
        {
            return None;
        }
        let captures = node_rights & locust != 0;
        if captures && !may_take(self.v, self.man.piece, other.piece) {
            return None;
        }
        Some(captures)
    }
}

// ---------------------------------------------------------------------------------------
// Pseudo-legal moves
// ---------------------------------------------------------------------------------------

/// Every pseudo-legal move of the side to move, each once, in generation order.
pub fn pseudo_moves(b: &RefBoard, v: &Variant) -> Vec<Move> {
    let moves = pseudo_moves_under(b, v, Limits::Enforced);
    let mut moves = super::reference_walls::with_walls(b, v, moves);
    super::reference_gating::cambodian_moves(b, v, &mut moves);
    super::reference_gating::with_gates(b, v, moves)
}

/// Whether promotion counting limits (Grand chess's captured pieces, `promotionLimit`) bound
/// the moves. A pawn that may not move to the last rank for want of a piece to become still
/// gives check there (Grand chess rules; Fairy-Stockfish agrees), so threats ignore them.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Limits {
    Enforced,
    Ignored,
}

fn pseudo_moves_under(b: &RefBoard, v: &Variant, limits: Limits) -> Vec<Move> {
    let mut out = Vec::new();
    for (from, man) in b.men().filter(|(_, m)| m.colour == b.stm) {
        let walk = Walk { b, v, man, from };
        walk.run(&mut |reach| path_moves(b, v, (man, from, limits), reach, &mut out));
    }
    castling_moves(b, v, &mut out);
    drops::drop_moves(b, v, &mut out);
    sittuyin_promotions(b, v, &mut out);
    if v.pass_move {
        let mut m = Move::normal(Coord::new(0, 0), Coord::new(0, 0));
        m.kind = MoveKind::Pass;
        out.push(m);
    }
    let mut seen = HashSet::new();
    out.retain(|m| seen.insert(*m));
    out
}

/// The moves that end where a path reaches, by what stands there.
fn path_moves(
    b: &RefBoard,
    v: &Variant,
    (man, from, limits): (RefMan, Coord, Limits),
    reach: &Reach,
    out: &mut Vec<Move>,
) {
    let occupant = if reach.to == from {
        None
    } else {
        b.at(reach.to)
    };
    let ends = match occupant {
        None => reach.rights & rights::MOVE != 0 && !reach.jumped,
        Some(o) if o.colour == man.colour => {
            reach.rights & rights::DESTROY != 0 && may_take(v, man.piece, o.piece)
        }
        Some(o) => {
            let royal = v.pieces[o.piece as usize].royal;
            reach.rights & rights::CAPTURE != 0
                && !(royal && reach.rights & rights::TAME != 0)
                && may_take(v, man.piece, o.piece)
        }
    };
    if ends {
        let mut m = Move::normal(from, reach.to);
        m.sets_ep = reach.rights & rights::SETS_EP != 0;
        // Victims from the end of the path backwards.
        for &c in reach.victims.iter().rev() {
            m.push_extra(c);
        }
        push_promotions(b, v, (man, limits), m, out);
    }
    if occupant.is_none() && reach.rights & rights::EN_PASSANT != 0 {
        en_passant_move(b, v, (man, from, limits), reach, out);
    }
}

fn en_passant_move(
    b: &RefBoard,
    v: &Variant,
    (man, from, limits): (RefMan, Coord, Limits),
    reach: &Reach,
    out: &mut Vec<Move>,
) {
    let Some(ep) = &b.ep else { return };
    if !ep.targets.contains(&reach.to) {
        return;
    }
    let Some(victim) = b.at(ep.victim) else {
        return;
    };
    if victim.colour == man.colour || !may_take(v, man.piece, victim.piece) {
        return;
    }
    let mut m = Move::normal(from, reach.to);
    m.kind = MoveKind::EnPassant;
    m.push_extra(ep.victim);
    for &c in reach.victims.iter().rev() {
        m.push_extra(c);
    }
    push_promotions(b, v, (man, limits), m, out);
}

/// Pushes `m` with every promotion choice it has (the engine's `push_promotions` rules):
/// pawn-style choices on arrival in the zone, shogi-style on entering or leaving it, no plain
/// move onto a dead square or when promotion is mandatory.
fn push_promotions(
    b: &RefBoard,
    v: &Variant,
    (man, limits): (RefMan, Limits),
    m: Move,
    out: &mut Vec<Move>,
) {
    let piece = &v.pieces[man.piece as usize];
    let zone = match man.colour {
        Colour::White => &v.promotion.zone_white,
        Colour::Black => &v.promotion.zone_black,
    };
    let (from, to) = (m.from_coord(), m.to_coord());
    // `contagion` (Werewolf Chess): a man that takes a werewolf becomes one, its only choice.
    let taken = b.at(to).filter(|o| o.colour != man.colour);
    if let Some(p) = taken.and_then(|o| v.turned(man.piece, o.piece)) {
        let mut pm = m;
        pm.kind = MoveKind::Promotion;
        pm.piece = p;
        out.push(pm);
        return;
    }
    let dead = piece.dead_squares.contains(b.relative(to, man.colour));
    let captures = m.n_extra > 0 || b.at(to).is_some_and(|o| o.colour != man.colour);
    let stuck = piece.stuck_squares.contains(b.relative(to, man.colour));
    // HaChu's reading: where it may promote onto such a square, it must; and a capture of
    // a promoted man (or, by an immune man, of a contagious one) where the rules say so.
    let on_the_way: Vec<PieceId> = m
        .extras()
        .filter_map(|c| b.at(c).filter(|o| o.colour != man.colour))
        .map(|o| o.piece)
        .collect();
    let forced = v.promotion.stuck_forced && stuck
        || v.capture_forces_promotion(man.piece, taken.map(|o| o.piece), &on_the_way);
    // `piecePromotionOnCapture`: only a move that takes turns a man over.
    let may_promote = if v.promotion.on_capture && !captures {
        false
    } else if v.promotion.on_entry {
        let (was_in, is_in) = (zone.contains(from), zone.contains(to));
        // Entering; or a capture touching the zone (one that enters is entering already).
        !was_in && is_in || was_in && captures || stuck && !v.promotion.stuck_forced
    } else {
        zone.contains(to) || zone.contains(from)
    };
    // FSF never promotes on an en passant capture, even one landing in the zone (shogun).
    if m.kind == MoveKind::EnPassant {
        if !dead {
            out.push(m);
        }
        return;
    }
    let promote = |p: PieceId| {
        let mut pm = m;
        pm.kind = MoveKind::Promotion;
        pm.piece = p;
        pm
    };
    if !piece.promotions.is_empty() && zone.contains(to) && !v.promotion.sittuyin {
        for &p in &piece.promotions {
            let captured_ok =
                !v.promotion.limited_to_captured || fewer_than_at_start(b, man.colour, p);
            let free = limits == Limits::Ignored;
            if free || captured_ok && under_limit(b, v, man.colour, p) {
                out.push(promote(p));
            }
        }
        // A man with both kinds of promotion (wolf's pawn) may also turn over (FSF),
        // under `piecePromotionOnCapture` only when it takes.
        let turns = !v.promotion.on_capture || captures;
        if let Some(p) = v.flips_to(man.piece).filter(|_| turns) {
            if limits == Limits::Ignored || under_limit(b, v, man.colour, p) {
                out.push(promote(p));
            }
        }
        if !piece.mandatory_promotion && !dead {
            out.push(m);
        }
        return;
    }
    if let Some(p) = v.flips_to(man.piece) {
        let free = limits == Limits::Ignored;
        if may_promote && (free || under_limit(b, v, man.colour, p)) {
            out.push(promote(p));
            if piece.mandatory_promotion || dead || forced {
                return;
            }
        }
    }
    if !dead {
        out.push(m);
    }
}

/// Sittuyin's promotions (`sittuyinPromotion`), from scratch: a pawn in the zone, or the
/// side's only pawn anywhere, becomes a promotion type (within its limit) on its own square
/// or on an empty square that type attacks from there, where the new man attacks no enemy.
fn sittuyin_promotions(b: &RefBoard, v: &Variant, out: &mut Vec<Move>) {
    if !v.promotion.sittuyin {
        return;
    }
    let us = b.stm;
    let pawns: Vec<(Coord, RefMan)> = b
        .men()
        .filter(|(_, m)| m.colour == us && !v.pieces[m.piece as usize].promotions.is_empty())
        .collect();
    let zone = match us {
        Colour::White => &v.promotion.zone_white,
        Colour::Black => &v.promotion.zone_black,
    };
    for &(from, pawn) in &pawns {
        if pawns.len() > 1 && !zone.contains(from) {
            continue;
        }
        let mut without = b.clone();
        without.squares[from.index()] = None;
        for &t in &v.pieces[pawn.piece as usize].promotions {
            if !under_limit(b, v, us, t) {
                continue;
            }
            let man = RefMan {
                piece: t,
                colour: us,
                virgin: false,
                promoted: false,
            };
            let mut targets = vec![from];
            Walk {
                b: &without,
                v,
                man,
                from,
            }
            .run(&mut |r| {
                if r.rights & rights::CAPTURE != 0 && without.at(r.to).is_none() {
                    targets.push(r.to);
                }
            });
            targets.sort_by_key(|c| c.index());
            targets.dedup();
            for to in targets {
                let mut hits = false;
                Walk {
                    b: &without,
                    v,
                    man,
                    from: to,
                }
                .run(&mut |r| {
                    let foe = without.at(r.to).is_some_and(|o| o.colour != us);
                    hits |= r.rights & rights::CAPTURE != 0 && foe;
                });
                if !hits {
                    let mut m = Move::normal(from, to);
                    m.kind = MoveKind::Promotion;
                    m.piece = t;
                    out.push(m);
                }
            }
        }
    }
}

/// Grand chess: a pawn may only become a type its side has fewer of than at the start.
fn fewer_than_at_start(b: &RefBoard, colour: Colour, p: PieceId) -> bool {
    let start = b.start[colour.index()][p as usize].iter().count();
    let have = b
        .men()
        .filter(|(_, m)| m.colour == colour && m.piece == p)
        .count();
    have < start
}

/// `promotion.limits`: a side may not promote to a type it already has the most of on the
/// board (a promoted form counts as the type it stands for).
fn under_limit(b: &RefBoard, v: &Variant, colour: Colour, p: PieceId) -> bool {
    let counted = v.rule_type(p);
    let Some(&(_, limit)) = v.promotion.limits.iter().find(|(t, _)| *t == counted) else {
        return true;
    };
    let have = b
        .men()
        .filter(|(_, m)| m.colour == colour && v.rule_type(m.piece) == counted)
        .count();
    have < limit as usize
}

/// Castling of every virgin king with every virgin rook on its rank.
fn castling_moves(b: &RefBoard, v: &Variant, out: &mut Vec<Move>) {
    let Some(c) = &v.castling else { return };
    let us = b.stm;
    let virgin_of = |types: &dyn Fn(PieceId) -> bool| {
        b.men()
            .filter(|(_, m)| m.colour == us && m.virgin && types(m.piece))
            .map(|(sq, _)| sq)
            .collect::<Vec<Coord>>()
    };
    for king in virgin_of(&|p| p == c.king_type) {
        for rook in virgin_of(&|p| c.rook_types.contains(&p)) {
            if rook.rank != king.rank {
                continue;
            }
            let (kf, rf) = if rook.file > king.file {
                (c.king_side_file, c.king_side_file.wrapping_sub(1))
            } else {
                (c.queen_side_file, c.queen_side_file + 1)
            };
            if castling_clear(b, v, king, rook, kf, rf) {
                let mut m = Move::normal(king, Coord::new(kf, king.rank));
                m.kind = MoveKind::Castle;
                m.push_extra(rook);
                out.push(m);
            }
        }
    }
}

/// Every square between and including the starts and ends of king and rook is empty but
/// for the two; the king is not in check and crosses no attacked square.
fn castling_clear(b: &RefBoard, v: &Variant, king: Coord, rook: Coord, kf: u8, rf: u8) -> bool {
    if kf >= b.files || rf >= b.files {
        return false;
    }
    let lo = king.file.min(rook.file).min(kf).min(rf);
    let hi = king.file.max(rook.file).max(kf).max(rf);
    let clear = (lo..=hi).all(|f| {
        let c = Coord::new(f, king.rank);
        c == king || c == rook || (b.at(c).is_none() && !b.walls[c.index()])
    });
    let (a, z) = (king.file.min(kf), king.file.max(kf));
    // A king that is not royal (giveaway's commoner) may castle through attacked squares.
    let royal = b.at(king).is_some_and(|k| v.pieces[k.piece as usize].royal);
    let them = b.stm.flip();
    // A petrifying pseudo-royal (its captures taken away) still guards the squares the king
    // starts from and crosses, as FSF's castling test counts it; not the one it ends on.
    let guarded = |f: u8| {
        (f != kf || kf == king.file) && guarded_by_petrified(b, v, Coord::new(f, king.rank), them)
    };
    // Where the move's wall shields the king (`Walling::shields`), its squares are judged
    // with each wall (`reference_walls::crossing_safe`).
    let shields = v.walling.as_ref().is_some_and(|w| w.shields);
    clear
        && (!royal
            || shields
            || (a..=z).all(|f| !attacked(b, v, Coord::new(f, king.rank), them) && !guarded(f)))
}

/// True when a man of `by` of a petrifying pseudo-royal type stands a former capture step
/// from `sq` (steps from White's side: Black's turned as its men are).
fn guarded_by_petrified(b: &RefBoard, v: &Variant, sq: Coord, by: Colour) -> bool {
    b.men().any(|(at, m)| {
        let Some(g) = v.petrify_guards.iter().find(|g| g.piece == m.piece) else {
            return false;
        };
        m.colour == by
            && g.steps.iter().any(|&(df, dr)| {
                let (df, dr) = match by {
                    Colour::White => (df, dr),
                    Colour::Black if v.black_rotated => (-df, -dr),
                    Colour::Black => (df, -dr),
                };
                at.file as i32 + df as i32 == sq.file as i32
                    && at.rank as i32 + dr as i32 == sq.rank as i32
            })
    })
}

/// True when a path of a man of `by` reaches `sq` with a (non-tame) capture or check right.
pub fn attacked(b: &RefBoard, v: &Variant, sq: Coord, by: Colour) -> bool {
    let mut hit = false;
    for (from, man) in b.men().filter(|(_, m)| m.colour == by) {
        Walk { b, v, man, from }.run(&mut |reach| {
            let r = reach.rights;
            hit |= reach.to == sq
                && r & (rights::CAPTURE | rights::CHECK_ONLY) != 0
                && r & rights::TAME == 0;
        });
        if hit {
            return true;
        }
    }
    false
}

/// True when a man of `by` has a path that could capture on `sq` (check-only sight lines
/// do not count): FSF's attackers of a square, as the flag's safety asks it.
pub fn capturable(b: &RefBoard, v: &Variant, sq: Coord, by: Colour) -> bool {
    b.men().filter(|(_, m)| m.colour == by).any(|(from, man)| {
        let mut hit = false;
        Walk { b, v, man, from }.run(&mut |reach| {
            let r = reach.rights;
            hit |= reach.to == sq && r & rights::CAPTURE != 0 && r & rights::TAME == 0;
        });
        hit
    })
}

// ---------------------------------------------------------------------------------------
// Playing a move on a copy
// ---------------------------------------------------------------------------------------

/// The board after `m` (pseudo-legal for the side to move), as a new board.
pub fn play(b: &RefBoard, v: &Variant, m: &Move) -> RefBoard {
    let mut n = b.clone();
    n.ep = None;
    n.lion_strike = None;
    n.castled_win = false;
    n.passes = match m.kind {
        MoveKind::Pass if v.end.bikjang && facing(b, v, b.stm) => 2,
        MoveKind::Pass if m.wall_coord().is_some() => 0, // walling instead of moving
        MoveKind::Pass => b.passes + 1,
        _ => 0,
    };
    match m.kind {
        MoveKind::Pass => {}
        MoveKind::Drop => play_drop(&mut n, v, m),
        MoveKind::Castle => play_castle(&mut n, v, m),
        _ => play_normal(&mut n, v, m),
    }
    if m.kind != MoveKind::Pass {
        for c in drops::flips(&n, v, m.to_coord(), m.kind == MoveKind::Drop) {
            if let Some(man) = n.squares[c.index()].as_mut() {
                man.colour = man.colour.flip();
            }
        }
    }
    super::reference_gating::play_gates(&mut n, v, m);
    super::reference_walls::place_wall(&mut n, v, m);
    n.stm = b.stm.flip();
    goals::count_check(&mut n, v);
    n
}

fn play_drop(b: &mut RefBoard, v: &Variant, m: &Move) {
    let (us, to) = (b.stm, m.to_coord());
    let source = drops::drop_source(b, v, m.piece);
    let n = &mut b.hands[us.index()][source as usize];
    if !v.drops.free {
        *n = n.saturating_sub(1);
    }
    // A dropped man is virgin on a start square of its type, except castling men.
    let virgin = has_initial_paths(&v.pieces[m.piece as usize].moves)
        && b.start[us.index()][m.piece as usize].contains(to)
        && !castling_piece(v, m.piece);
    let castles = drops::castles_when_dropped(b, v, m.piece, to);
    b.squares[to.index()] = Some(RefMan {
        piece: m.piece,
        colour: us,
        virgin: virgin || castles,
        promoted: false,
    });
    if castles {
        drops::grant_castling_partners(b, v, to);
    }
}

fn play_castle(b: &mut RefBoard, v: &Variant, m: &Move) {
    let (from, to) = (m.from_coord(), m.to_coord());
    let Some(rook_from) = m.extras().next() else {
        return;
    };
    let rook_file = if rook_from.file > from.file {
        to.file - 1
    } else {
        to.file + 1
    };
    let king = b.squares[from.index()].take();
    let rook = b.squares[rook_from.index()].take();
    let used = |m: Option<RefMan>| {
        m.map(|mut x| {
            x.virgin = false;
            x
        })
    };
    b.squares[to.index()] = used(king);
    b.squares[Coord::new(rook_file, to.rank).index()] = used(rook);
    let king_side = rook_from.file > from.file;
    if let Some(c) = &v.castling {
        b.castled_win = c.wins[b.stm.index()][usize::from(!king_side)];
    }
    if v.castling.as_ref().is_some_and(|c| c.opposite) {
        opposite_castling(b, v, king_side);
    }
}

/// `oppositeCastling`: the opponent's rooks on the side just castled to (its castling
/// king's king side when `king_side`) lose their castling rights.
fn opposite_castling(b: &mut RefBoard, v: &Variant, king_side: bool) {
    let Some(c) = &v.castling else { return };
    let them = b.stm.flip();
    let kings: Vec<Coord> = (b.men())
        .filter(|(_, x)| x.colour == them && x.virgin && x.piece == c.king_type)
        .map(|(sq, _)| sq)
        .collect();
    for king in kings {
        for f in (0..b.files).filter(|&f| f != king.file && (f > king.file) == king_side) {
            let sq = Coord::new(f, king.rank).index();
            if let Some(x) = b.squares[sq].as_mut() {
                if x.colour == them && c.rook_types.contains(&x.piece) {
                    x.virgin = false;
                }
            }
        }
    }
}

fn play_normal(b: &mut RefBoard, v: &Variant, m: &Move) {
    let (from, to, us) = (m.from_coord(), m.to_coord(), b.stm);
    let Some(mut man) = b.squares[from.index()].take() else {
        return;
    };
    b.lion_strike = lion_strike_after(b, v, man, m);
    for c in m.extras() {
        capture(b, v, c, us);
    }
    let captured = b.at(to).is_some() || m.n_extra > 0;
    capture(b, v, to, us);
    // The type that moved decides what stays behind, even if it promotes on arrival.
    let behind = v.pieces[man.piece as usize].leaves_behind;
    let petrifies = captured && v.petrify.contains(&man.piece);
    man.virgin = false;
    if m.piece != NO_PIECE {
        man.piece = m.piece;
        // Pawn-style promotion marks the man so it returns to hand as a pawn.
        man.promoted = v.pieces[m.piece as usize].promotions.is_empty()
            && !v.promotion.shogi_style
            && !v.drops.keep_promoted;
    }
    let burns = v.pieces[man.piece as usize].burns;
    b.squares[to.index()] = Some(man);
    if let Some(blast) = v.blast.as_ref().filter(|_| captured) {
        explode(b, v, to, us, blast);
    }
    if burns {
        burn(b, v, to, us);
    }
    // `petrifyOnCaptureTypes`: the capturer (blown up already in atomic games) turns to stone.
    if petrifies {
        b.squares[to.index()] = None;
        b.walls[to.index()] = true;
    }
    if let (Some(piece), None) = (behind, b.at(from)) {
        b.squares[from.index()] = Some(RefMan {
            piece,
            colour: us,
            virgin: false,
            promoted: false,
        });
    }
    // A double step that promotes leaves no pawn to take en passant.
    if m.sets_ep && m.kind != MoveKind::Promotion {
        // Only squares where the other side may take en passant (`enPassantRegion`).
        let region = v.en_passant_region.as_ref().map(|r| r[us.flip().index()]);
        b.ep = ep_after(from, to).and_then(|mut ep| {
            ep.targets.retain(|&t| region.is_none_or(|r| r.contains(t)));
            (!ep.targets.is_empty()).then_some(ep)
        });
    }
}

/// Removes the man on `c`, sending it to `captor`'s hand (demoted) if the rules say so.
fn capture(b: &mut RefBoard, v: &Variant, c: Coord, captor: Colour) {
    let Some(victim) = b.squares[c.index()].take() else {
        return;
    };
    if !v.drops.captures_to_hand {
        return;
    }
    let piece = if v.drops.keep_promoted {
        victim.piece // `dropLoop`: to hand as it stands
    } else if victim.promoted {
        v.pieces
            .iter()
            .position(|p| !p.promotions.is_empty())
            .map_or(victim.piece, |p| p as PieceId)
    } else {
        v.pieces[victim.piece as usize]
            .demotes_to
            .unwrap_or(victim.piece)
    };
    let n = &mut b.hands[captor.index()][piece as usize];
    *n = n.saturating_add(1);
}

/// The squares of the 3x3 block centred on `c`, `c` included.
fn around(b: &RefBoard, c: Coord) -> Vec<Coord> {
    (-1..=1)
        .flat_map(|dr| (-1..=1).map(move |df| (c.file as i32 + df, c.rank as i32 + dr)))
        .filter_map(|(f, r)| b.square(f, r))
        .collect()
}

/// Atomic: the capturer on `to` (unless fully immune) and every man next to it except the
/// immune types are gone. With captures to hand each goes, as in Fairy-Stockfish, to the
/// hand of its owner's opponent (the capturer to the other side's).
fn explode(b: &mut RefBoard, v: &Variant, to: Coord, us: Colour, blast: &variants::rules::Blast) {
    let spared = |p: PieceId| blast.fully_immune.contains(&p);
    if b.at(to).is_some_and(|m| !spared(m.piece)) {
        capture(b, v, to, us.flip());
    }
    for c in around(b, to).into_iter().filter(|&c| c != to) {
        if let Some(m) = b
            .at(c)
            .filter(|m| !blast.immune.contains(&m.piece) && !spared(m.piece))
        {
            capture(b, v, c, m.colour.flip());
        }
    }
}

/// Tenjiku fire demon: every enemy man next to where it arrived is captured.
fn burn(b: &mut RefBoard, v: &Variant, to: Coord, us: Colour) {
    for c in around(b, to) {
        if b.at(c).is_some_and(|m| m.colour != us) {
            capture(b, v, c, us);
        }
    }
}

/// E.p. squares of a double step: the squares strictly between `from` and `to` on a line.
fn ep_after(from: Coord, to: Coord) -> Option<RefEp> {
    let (df, dr) = (
        to.file as i32 - from.file as i32,
        to.rank as i32 - from.rank as i32,
    );
    let n = df.abs().max(dr.abs());
    if n < 2 || (df != 0 && dr != 0 && df.abs() != dr.abs()) {
        return None;
    }
    let targets = (1..n)
        .map(|i| {
            Coord::new(
                (from.file as i32 + df / n * i) as u8,
                (from.rank as i32 + dr / n * i) as u8,
            )
        })
        .collect();
    Some(RefEp {
        targets,
        victim: to,
    })
}

// ---------------------------------------------------------------------------------------
// Legality
// ---------------------------------------------------------------------------------------

/// Squares of the royal men of `colour`.
pub(super) fn royals(b: &RefBoard, v: &Variant, colour: Colour) -> Vec<Coord> {
    b.men()
        .filter(|(_, m)| m.colour == colour && v.pieces[m.piece as usize].royal)
        .map(|(c, _)| c)
        .collect()
}

/// True when going from `before` to `after` cost `colour` what its royalty cannot spare:
/// any royal (Absolute) or the last one (Extinction).
fn loses_royal(before: &RefBoard, after: &RefBoard, v: &Variant, colour: Colour) -> bool {
    let (had, has) = (
        royals(before, v, colour).len(),
        royals(after, v, colour).len(),
    );
    match v.end.royalty {
        Royalty::Absolute => has < had,
        Royalty::Extinction | Royalty::Last => had > 0 && has == 0,
    }
}

/// True when a royal of `colour` is reached by an enemy check-only path: royals facing each
/// other under the flying-general or bikjang rules.
pub fn facing(b: &RefBoard, v: &Variant, colour: Colour) -> bool {
    let ours = royals(b, v, colour);
    let mut seen = false;
    for (from, man) in b.men().filter(|(_, m)| m.colour != colour) {
        Walk { b, v, man, from }.run(&mut |reach| {
            let r = reach.rights;
            if r & rights::CHECK_ONLY != 0 && ours.contains(&reach.to) {
                seen = true;
            }
        });
    }
    seen
}

/// The royals of `victim` the other side could take next.
pub fn threatened_royals(b: &RefBoard, v: &Variant, victim: Colour) -> Vec<Coord> {
    let attacker = victim.flip();
    let owned;
    let b = if b.stm == attacker {
        b
    } else {
        owned = RefBoard {
            stm: attacker,
            ep: None,
            ..b.clone()
        };
        &owned
    };
    let ours = royals(b, v, victim);
    let mut hit: Vec<Coord> = Vec::new();
    for m in pseudo_moves_under(b, v, Limits::Ignored) {
        let aimed = aimed_at(b, v, &m);
        if !ours.iter().any(|r| aimed.contains(r)) {
            continue;
        }
        let sim = play(b, v, &m);
        if loses_royal(b, &sim, v, attacker) {
            continue; // a capture that costs the attacker its royal is no threat
        }
        let gone = ours
            .iter()
            .filter(|&&r| aimed.contains(&r) && !royals_at(&sim, v, r, victim));
        hit.extend(gone);
    }
    hit.sort();
    hit.dedup();
    hit
}

fn royals_at(b: &RefBoard, v: &Variant, c: Coord, colour: Colour) -> bool {
    b.at(c)
        .is_some_and(|m| m.colour == colour && v.pieces[m.piece as usize].royal)
}

/// The squares `m` captures on purpose: its end square, its locust and e.p. victims, and
/// for a burner (what the man is after the move's promotion) the squares around its end.
/// Atomic blast victims are left out: in atomic
/// only a direct attack on the king is check, a threat to blow it up is not.
fn aimed_at(b: &RefBoard, v: &Variant, m: &Move) -> Vec<Coord> {
    if !matches!(
        m.kind,
        MoveKind::Normal | MoveKind::Promotion | MoveKind::EnPassant
    ) {
        return Vec::new();
    }
    let mut out: Vec<Coord> = m.extras().collect();
    if m.kind != MoveKind::EnPassant && m.from != m.to {
        out.push(m.to_coord());
    }
    // The man burns as what it lands as: a man promoting into a burner burns on that move.
    let burner = b.at(m.from_coord()).is_some_and(|x| {
        let lands_as = if m.piece == NO_PIECE {
            x.piece
        } else {
            m.piece
        };
        v.pieces[lands_as as usize].burns
    });
    if burner {
        out.extend(around(b, m.to_coord()));
    }
    out
}

/// True when a royal of `colour` is in check.
pub fn in_check(b: &RefBoard, v: &Variant, colour: Colour) -> bool {
    !threatened_royals(b, v, colour).is_empty()
}

/// `makpongRule`: a royal in check may move only to take its one checker.
fn makpong_ok(b: &RefBoard, v: &Variant, m: &Move) -> bool {
    let royal_moves = matches!(m.kind, MoveKind::Normal | MoveKind::Promotion)
        && b.at(m.from_coord())
            .is_some_and(|p| v.pieces[p.piece as usize].royal);
    if !v.end.makpong || !royal_moves || !in_check(b, v, b.stm) {
        return true;
    }
    let checkers = checker_squares(b, v, b.stm);
    checkers.len() == 1 && checkers[0] == m.to_coord()
}

/// The squares of the enemy men that could take a royal of `victim` now.
fn checker_squares(b: &RefBoard, v: &Variant, victim: Colour) -> Vec<Coord> {
    let attacker = RefBoard {
        stm: victim.flip(),
        ep: None,
        ..b.clone()
    };
    let ours = royals(&attacker, v, victim);
    let mut out: Vec<Coord> = pseudo_moves_under(&attacker, v, Limits::Ignored)
        .iter()
        .filter(|m| aimed_at(&attacker, v, m).iter().any(|a| ours.contains(a)))
        .map(|m| m.from_coord())
        .collect();
    out.sort();
    out.dedup();
    out
}

/// True when the pseudo-legal move `m` is legal.
pub fn is_legal(b: &RefBoard, v: &Variant, m: &Move) -> bool {
    let shields = v.walling.as_ref().is_some_and(|w| w.shields);
    if m.wall_coord().is_some() && !shields {
        // The wall is no blocker for the move's own legality (Fairy-Stockfish's test).
        return is_legal(b, v, &m.with_wall(None));
    }
    if shields && m.kind == MoveKind::Castle && !super::reference_walls::crossing_safe(b, v, m) {
        return false;
    }
    if m.gate_piece().is_some() {
        // Nor is the gated man; it needs an empty square to land on.
        return super::reference_gating::gate_free(b, v, m)
            && is_legal(b, v, &m.with_gate(None, false));
    }
    let us = b.stm;
    if m.kind == MoveKind::Pass && v.end.bikjang && facing(b, v, us) {
        return true; // passing out of bikjang ends the game, even under check
    }
    if !lion_trade_ok(b, v, m) || !makpong_ok(b, v, m) {
        return false;
    }
    let mut after = play(b, v, m);
    if v.blast.is_some() && !v.petrify.is_empty() {
        // FSF's atomic test empties the capture square: the new stone blocks nothing yet.
        let to = m.to_coord().index();
        after.walls[to] = b.walls[to];
    }
    if loses_royal(b, &after, v, us) {
        return false;
    }
    if loses_royal(b, &after, v, us.flip()) {
        return true; // the game is won on the spot
    }
    let total = royals(&after, v, us).len();
    let threats = threatened_royals(&after, v, us);
    let threatened = threats.len();
    let safe = match v.end.royalty {
        Royalty::Absolute => threatened == 0,
        Royalty::Extinction => total == 0 || threatened < total,
        Royalty::Last if v.end.royals_counted_before_move => {
            // The royals the side had as it moved; one the move made (on its end square)
            // neither counts nor needs guarding.
            let had = royals(b, v, us).len();
            let made = total > had;
            had != 1 || threats.iter().all(|c| made && c.index() == m.to as usize)
        }
        Royalty::Last => total != 1 || threatened == 0,
    };
    // Flying general: never leave royals facing. Bikjang: a side in it must break it or pass.
    let must_not_face =
        v.end.flying_general || v.end.bikjang && m.kind != MoveKind::Pass && facing(b, v, us);
    let faced = must_not_face && facing(&after, v, us);
    safe && !faced
        && goals::check_allowed(&after, v)
        && drops::check_ok(&after, v, m)
        && drop_mate_ok(&after, v, m)
        && (m.kind != MoveKind::Promotion
            || !v.promotion.sittuyin
            || !in_check(&after, v, after.stm))
}

// ---------------------------------------------------------------------------------------
// Chu Shogi's Lion-trading rules
// ---------------------------------------------------------------------------------------

/// True when an enemy (of the side to move) lion stands on `c`.
fn enemy_lion(b: &RefBoard, lt: &LionTrading, c: Coord) -> bool {
    b.at(c)
        .is_some_and(|o| o.colour != b.stm && lt.lions.contains(&o.piece))
}

/// False when `m` breaks the protected-lion or the counterstrike rule.
fn lion_trade_ok(b: &RefBoard, v: &Variant, m: &Move) -> bool {
    let Some(lt) = &v.capture_matrix.lion else {
        return true;
    };
    if !matches!(m.kind, MoveKind::Normal | MoveKind::Promotion) {
        return true;
    }
    let (from, to) = (m.from_coord(), m.to_coord());
    let Some(mover) = b.at(from) else {
        return true;
    };
    let lion = lt.lions.contains(&mover.piece);
    // Counterstrike: a non-lion takes no lion but on the square of the last strike; under
    // XBoard's reading no man ends on a lion, and what is taken on the way is not looked at.
    let struck = b.lion_strike.is_some()
        && strike_squares(lt, m).any(|c| Some(c) != b.lion_strike && enemy_lion(b, lt, c));
    if struck && (!lion || lt.end_square_only) {
        return false;
    }
    if !lion {
        return true;
    }
    let far = from.file.abs_diff(to.file).max(from.rank.abs_diff(to.rank)) > 1;
    let bridged = m
        .extras()
        .any(|c| b.at(c).is_some_and(|o| !lt.bridges.contains(&o.piece)));
    if !lt.protected || !far || bridged || !enemy_lion(b, lt, to) {
        return true;
    }
    // Protected: attacked once the move is made, or by the bridge taken on the way (it
    // protected the lion when the move began; lishogi counts it so).
    let bridge_protects = lt.bridge_protects
        && m.extras().any(|c| {
            b.at(c).is_some_and(|man| {
                let mut hit = false;
                Walk { b, v, man, from: c }.run(&mut |reach| {
                    let r = reach.rights;
                    hit |= reach.to == to && r & rights::CAPTURE != 0 && r & rights::TAME == 0;
                });
                hit
            })
        });
    !bridge_protects && !attacked(&play(b, v, m), v, to, b.stm.flip())
}

/// Where a non-lion's move `m` takes an enemy lion (its end square first), when the
/// counterstrike rule is on; read before the move is played.
fn lion_strike_after(b: &RefBoard, v: &Variant, man: RefMan, m: &Move) -> Option<Coord> {
    let lt = v.capture_matrix.lion.as_ref()?;
    if !lt.counterstrike || lt.lions.contains(&man.piece) {
        return None;
    }
    let taken = |c: Coord| {
        b.at(c)
            .is_some_and(|o| o.colour != man.colour && lt.lions.contains(&o.piece))
    };
    strike_squares(lt, m).find(|&c| taken(c))
}

/// The squares the counterstrike rule looks at in `m`: its end square, then the men it
/// takes on the way (not under XBoard's reading).
fn strike_squares<'a>(lt: &'a LionTrading, m: &'a Move) -> impl Iterator<Item = Coord> + 'a {
    let on_the_way = m.extras().filter(|_| !lt.end_square_only);
    [m.to_coord()].into_iter().chain(on_the_way)
}

/// Shogi: a drop of a `no_drop_mate` type that gives check must leave a legal reply.
fn drop_mate_ok(after: &RefBoard, v: &Variant, m: &Move) -> bool {
    if m.kind != MoveKind::Drop || !v.drops.no_drop_mate.contains(&m.piece) {
        return true;
    }
    // A check that wins by a goal (checkshogi's first check) ends the game before mate.
    !in_check(after, v, after.stm)
        || goals::goal_over(after, v)
        || !legal_moves(after, v).is_empty()
}

/// Every legal move of the side to move.
pub fn legal_moves(b: &RefBoard, v: &Variant) -> Vec<Move> {
    let start_royals = |c: Colour| {
        b.start[c.index()]
            .iter()
            .zip(&v.pieces)
            .any(|(sqs, p)| p.royal && !sqs.is_empty())
    };
    let lost = |c: Colour| start_royals(c) && royals(b, v, c).is_empty();
    // Bare king: the side that just moved with nothing but royals left has lost (or drawn,
    // if it bared the other side in return).
    let bare = |c: Colour| {
        let mut men = b.men().filter(|(_, m)| m.colour == c);
        v.end.bare_king_loses && men.all(|(_, m)| v.pieces[m.piece as usize].royal)
    };
    if b.passes >= 2 || lost(Colour::White) || lost(Colour::Black) || bare(b.stm.flip()) {
        return Vec::new(); // both sides passed, or a side lost its royals: the game is over
    }
    if goals::goal_over(b, v) {
        return Vec::new(); // the last check given, or a flag decided
    }
    if v.end.full_board_ends && b.coords().all(|c| b.at(c).is_some()) {
        return Vec::new(); // `adjudicateFullBoard`: no empty square is left
    }
    let legal = pseudo_moves(b, v)
        .into_iter()
        .filter(|m| m.kind != MoveKind::Pass || !v.end.pass_on_stalemate[b.stm.index()])
        .filter(|m| is_legal(b, v, m))
        .collect();
    let legal = goals::must_capture(b, v, legal);
    let legal = drops::must_drop_filter(b, v, legal);
    stuck_pass(b, v, legal)
}

/// `passOnStalemate`: a side with a man on the board and no legal move passes.
fn stuck_pass(b: &RefBoard, v: &Variant, legal: Vec<Move>) -> Vec<Move> {
    let us = b.stm;
    if !legal.is_empty()
        || !v.end.pass_on_stalemate[us.index()]
        || !b.men().any(|(_, m)| m.colour == us)
    {
        return legal;
    }
    let mut pass = Move::normal(Coord::new(0, 0), Coord::new(0, 0));
    pass.kind = MoveKind::Pass;
    vec![pass]
}

/// Leaf count of the legal move tree of `depth` plies (no bulk counting).
pub fn perft(b: &RefBoard, v: &Variant, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(b, v)
        .iter()
        .map(|m| perft(&play(b, v, m), v, depth - 1))
        .sum()
}

/// Perft per root move.
pub fn divide(b: &RefBoard, v: &Variant, depth: u32) -> Vec<(Move, u64)> {
    legal_moves(b, v)
        .into_iter()
        .map(|m| (m, perft(&play(b, v, &m), v, depth.saturating_sub(1))))
        .collect()
}
