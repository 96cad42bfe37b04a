//! The position: padded mailbox of slots, the men behind the slots, hands, side to move,
//! en-passant and counters, its Zobrist key, and the incremental attack map kept in step.

use std::sync::Arc;

use variants::geometry::Coord;
use variants::PieceId;

use crate::board::attack::AttackMap;
use crate::board::layout::Layout;
use crate::board::types::{Colour, Slot, Sq, EMPTY, MAX_SLOT, OFF};
use crate::board::zobrist::Zobrist;

/// Checks left to give when a FEN of a check-counting variant names none: Fairy-Stockfish
/// then takes the next check to win.
pub const DEFAULT_CHECKS_LEFT: u8 = 1;

/// One man on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Man {
    /// Engine kind (see [`Layout::kinds`]).
    pub kind: u8,
    /// Owner.
    pub colour: Colour,
    /// Square it stands on.
    pub sq: Sq,
    /// Crazyhouse-style promoted marker (`~`): returns to hand as its base type.
    pub promoted: bool,
}

/// En-passant state: squares a capture may land on, and the man it removes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EnPassant {
    /// Landing squares.
    pub targets: Vec<Sq>,
    /// Square of the man that passed them.
    pub victim: Sq,
}

/// A position of any built-in or user variant.
#[derive(Clone, Debug)]
pub struct Position {
    /// Compiled variant.
    pub(in crate::board) lay: Arc<Layout>,
    /// Mailbox: slot number, [`EMPTY`] or [`OFF`].
    pub(in crate::board) board: Vec<Slot>,
    /// Men by slot (index 0 unused); `None` for free slots.
    pub(in crate::board) men: Vec<Option<Man>>,
    /// Free slots, for drops and created men.
    pub(in crate::board) free: Vec<Slot>,
    /// One past the highest slot ever used: live men are all below it.
    pub(in crate::board) hi: usize,
    /// Pieces in hand: `hand[colour][piece]`.
    pub(in crate::board) hand: [Vec<u8>; 2],
    /// Side to move.
    pub(in crate::board) stm: Colour,
    /// En passant, if the last move was a double step.
    pub(in crate::board) ep: Option<EnPassant>,
    /// Plies since the last capture or pawn move.
    pub(in crate::board) rule50: u32,
    /// Plies since the last pass (or the position was set up): where captured men go to a
    /// hand, a capture is no irreversible move, so repetitions are looked for this far back.
    pub(in crate::board) since_null: u32,
    /// Full-move number.
    pub(in crate::board) fullmove: u32,
    /// Passes played in a row just before this position (two end the game).
    pub(in crate::board) passes: u8,
    /// Chu counterstrike: the square where the last move's non-lion took a lion.
    pub(in crate::board) lion_strike: Option<Sq>,
    /// Check counting: checks each side (White first) has left to give; read only where the
    /// variant counts checks.
    pub(in crate::board) checks_left: [u8; 2],
    /// Atomic petrification: the stone the move just made leaves, put on by `make_wall`
    /// once the move's legality is judged (FSF judges it with the square empty).
    pub(in crate::board) stone: Option<Sq>,
    /// `castlingWins`: the last move castled on a side where castling wins.
    pub(in crate::board) castled_win: bool,
    /// `shatarMateRule`: per colour, whether its series of checks so far holds a shak
    /// (`shatar.rs`); false where the variant has no such rule.
    pub(in crate::board) shak_series: [bool; 2],
    /// The count of a counting rule (makruk's); default where the variant has none.
    pub(in crate::board) count: crate::board::counting::Count,
    /// Gating: each side's gates, a bit per file of its gating rank (FSF's `gatesBB`).
    pub(in crate::board) gates: [u16; 2],
    /// Incrementally updated Zobrist key.
    pub(in crate::board) key: u64,
    /// Incremental attack map.
    pub(in crate::board) map: AttackMap,
    /// Zobrist tables.
    pub(in crate::board) zob: Arc<Zobrist>,
    /// Slots of the royal men on the board, per colour: kept by every put and lift so that
    /// "is the side to move in check" never scans the men ([`Position::scan_royal_slots`] is
    /// the twin).
    royal_slots: [Vec<Slot>; 2],
}

impl Position {
    /// An empty board of the layout, White to move.
    pub fn empty(lay: Arc<Layout>, zob: Arc<Zobrist>) -> Position {
        let mut board = vec![OFF; lay.size];
        for sq in lay.squares() {
            board[sq as usize] = EMPTY;
        }
        let pieces = lay.variant.pieces.len();
        let map = AttackMap::new(&lay);
        Position {
            board,
            men: vec![None; MAX_SLOT + 1],
            free: (1..=MAX_SLOT as Slot).rev().collect(),
            hi: 1,
            hand: [vec![0; pieces], vec![0; pieces]],
            stm: Colour::White,
            ep: None,
            rule50: 0,
            since_null: 0,
            fullmove: 1,
            passes: 0,
            lion_strike: None,
            checks_left: [DEFAULT_CHECKS_LEFT; 2],
            castled_win: false,
            shak_series: [false; 2],
            stone: None,
            count: Default::default(),
            gates: [0; 2],
            key: 0,
            map,
            zob,
            lay,
            royal_slots: [Vec::new(), Vec::new()],
        }
    }

    /// The man on a square, if any.
    #[inline]
    pub fn man_at(&self, sq: Sq) -> Option<&Man> {
        match self.board[sq as usize] {
            EMPTY | OFF => None,
            s => self.men[s as usize].as_ref(),
        }
    }

    /// The variant piece type of a man.
    #[inline]
    pub fn piece_of(&self, man: &Man) -> PieceId {
        self.lay.kinds[man.kind as usize].piece
    }

    /// Iterates over the live men as (slot, man).
    pub fn live(&self) -> impl Iterator<Item = (Slot, &Man)> {
        self.men[..self.hi]
            .iter()
            .enumerate()
            .filter_map(|(i, m)| m.as_ref().map(|m| (i as Slot, m)))
    }

    /// Squares of the royal men of a colour.
    #[inline]
    pub fn royals(&self, colour: Colour) -> impl Iterator<Item = Sq> + '_ {
        self.royal_slots[colour.index()]
            .iter()
            .filter_map(|&s| self.men[s as usize].map(|m| m.sq))
    }

    /// Slots of the royal men of a colour on the board, found by scanning the men: the twin
    /// of the incrementally kept list.
    pub fn scan_royal_slots(&self, colour: Colour) -> Vec<Slot> {
        self.live()
            .filter(|(s, m)| {
                m.colour == colour
                    && self.lay.kinds[m.kind as usize].royal
                    && self.board[m.sq as usize] == *s
            })
            .map(|(s, _)| s)
            .collect()
    }

    /// The incrementally kept royal slots of a colour (for the consistency check).
    pub(crate) fn royal_slots(&self, colour: Colour) -> &[Slot] {
        &self.royal_slots[colour.index()]
    }

    /// Keeps the royal list in step when the man in `slot` arrives on (`arrive`) or leaves
    /// the board.
    #[inline]
    pub(crate) fn track_royal(&mut self, slot: Slot, arrive: bool) {
        let Some(m) = self.men[slot as usize] else {
            return;
        };
        if !self.lay.kinds[m.kind as usize].royal {
            return;
        }
        let list = &mut self.royal_slots[m.colour.index()];
        if arrive {
            list.push(slot);
        } else if let Some(i) = list.iter().position(|&s| s == slot) {
            list.swap_remove(i);
        }
    }

    /// Puts a new man on an empty square without touching the attack map (setup only; call
    /// [`Position::rebuild`] afterwards).
    pub(crate) fn setup_put(
        &mut self,
        sq: Sq,
        kind: u8,
        colour: Colour,
        promoted: bool,
    ) -> Option<Slot> {
        let slot = self.free.pop()?;
        self.hi = self.hi.max(slot as usize + 1);
        self.men[slot as usize] = Some(Man {
            kind,
            colour,
            sq,
            promoted,
        });
        self.board[sq as usize] = slot;
        Some(slot)
    }

    /// Recomputes the attack map and the key from scratch.
    pub fn rebuild(&mut self) {
        self.royal_slots = [
            self.scan_royal_slots(Colour::White),
            self.scan_royal_slots(Colour::Black),
        ];
        self.map = AttackMap::build(self);
        self.key = self.compute_key();
        self.start_checks();
    }

    /// The Zobrist key computed from scratch (the incremental key's twin).
    pub fn compute_key(&self) -> u64 {
        let mut k = 0;
        for (_, m) in self.live() {
            k ^= self.zob.man(m.kind, m.colour, m.sq);
        }
        for c in 0..2 {
            for (p, &n) in self.hand[c].iter().enumerate() {
                k ^= self.zob.hand(Colour::from_index(c), p, n);
            }
        }
        if let Some(ep) = &self.ep {
            k ^= self.zob.ep(ep.victim);
        }
        if let Some(sq) = self.lion_strike {
            k ^= self.zob.strike(sq);
        }
        if self.lay.variant.end.check_counting {
            for c in [Colour::White, Colour::Black] {
                k ^= self.zob.checks(c, self.checks_left[c.index()]);
            }
        }
        k ^= self.count.key();
        k ^= self.walls_key();
        for c in [Colour::White, Colour::Black] {
            k ^= self.zob.gates(c, self.gates[c.index()]);
        }
        if self.castled_win {
            k ^= self.zob.castled_win;
        }
        if self.stm == Colour::Black {
            k ^= self.zob.side;
        }
        k
    }

    /// True when a royal of `colour` stands on a square the other side attacks.
    pub fn in_check(&self, colour: Colour) -> bool {
        self.royals(colour)
            .any(|sq| self.royal_attacked(colour, sq))
    }

    /// Squares of the men of the other side whose paths reach a royal of `colour` with the
    /// right to capture, or (burners) land next to it: the checkers, read from the map's
    /// lists at the royal squares and their neighbours.
    pub fn checkers(&self, colour: Colour) -> Vec<Sq> {
        let them = colour.flip();
        let mut out: Vec<Sq> = Vec::new();
        let mut slots = Vec::new();
        for r in self.royals(colour) {
            slots.clear();
            self.capturers(them, r, &mut slots);
            for man in slots.iter().filter_map(|&s| self.men[s as usize]) {
                if !out.contains(&man.sq) {
                    out.push(man.sq);
                }
            }
            if self.lay.burners {
                for b in self.burners_next_to(colour, r) {
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
            }
            if self.lay.igui {
                for b in self.igui_threats(colour, r) {
                    if !out.contains(&b) {
                        out.push(b);
                    }
                }
            }
        }
        out
    }

    /// Appends to `out` the slots of the men of `colour` whose paths reach `sq` with the right
    /// to capture (read from the map's list at `sq`), each once.
    pub fn capturers(&self, colour: Colour, sq: Sq, out: &mut Vec<Slot>) {
        for id in self.map.cells_at(sq, colour) {
            let (slot, c) = self.map.split(id);
            let Some(man) = self.men[slot as usize] else {
                continue;
            };
            let kind = &self.lay.kinds[man.kind as usize];
            let cell = &kind.cells[man.colour.index()].cells[c as usize];
            let hits = cell.rights & variants::rights::CAPTURE != 0
                && cell.rights & variants::rights::TAME == 0;
            if hits && !out.contains(&slot) {
                out.push(slot);
            }
        }
    }

    /// The man in a slot, if the slot is live.
    #[inline]
    pub fn man(&self, slot: Slot) -> Option<&Man> {
        self.men.get(slot as usize).and_then(|m| m.as_ref())
    }

    /// The slot of the man on a square, if any.
    #[inline]
    pub fn slot_at(&self, sq: Sq) -> Option<Slot> {
        match self.board.get(sq as usize).copied() {
            None | Some(EMPTY) | Some(OFF) => None,
            s => s,
        }
    }

    /// True when the royal of `colour` on `sq` could be captured. With atomic explosions a
    /// capture next to the capturer's own royal would blow that royal up too, so it is no
    /// threat.
    pub fn royal_attacked(&self, colour: Colour, sq: Sq) -> bool {
        let them = colour.flip();
        if !self.map.attacked(them, sq) {
            return self.lay.uncounted && self.uncounted_threat(colour, sq);
        }
        if self.lay.variant.blast.is_none() {
            return true;
        }
        let stride = self.lay.stride as i32;
        !self.royals(them).any(|r| {
            let d = r as i32 - sq as i32;
            (-1..=1).any(|dr| (-1..=1).any(|df| d == dr * stride + df))
        })
    }
}

impl Position {
    /// Threats the attack counters do not hold: a burner landing next to the royal, or a
    /// capture without moving (igui), takes it as surely as a capture. Out of line: only
    /// tenjiku and chu get here.
    #[inline(never)]
    fn uncounted_threat(&self, colour: Colour, sq: Sq) -> bool {
        self.lay.burners && self.burn_threat(colour, sq)
            || self.lay.igui && self.igui_threats(colour, sq).next().is_some()
    }

    /// Compiles a variant and returns its start position.
    pub fn new_game(variant: variants::Variant) -> Result<Position, crate::board::fen::FenError> {
        let lay = Arc::new(Layout::new(variant));
        let zob = Arc::new(Zobrist::new(&lay));
        Position::start(lay, zob)
    }

    /// A position of the same variant from a FEN.
    pub fn with_fen(&self, fen: &str) -> Result<Position, crate::board::fen::FenError> {
        Position::from_fen(self.lay.clone(), self.zob.clone(), fen)
    }
}

/// Why a set-up change was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// The square is not on the board (or is a wall).
    OffBoard(Coord),
    /// The square already holds a man.
    Occupied(Coord),
    /// The square holds no man.
    Empty(Coord),
    /// The piece type does not exist in the variant.
    NoSuchPiece(PieceId),
    /// Every slot for men is in use.
    TooManyMen,
}

impl std::fmt::Display for SetupError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SetupError::OffBoard(c) => write!(f, "square {c:?} is not on the board"),
            SetupError::Occupied(c) => write!(f, "square {c:?} is occupied"),
            SetupError::Empty(c) => write!(f, "square {c:?} is empty"),
            SetupError::NoSuchPiece(p) => write!(f, "the variant has no piece type {p}"),
            SetupError::TooManyMen => write!(f, "no room for another man"),
        }
    }
}

impl std::error::Error for SetupError {}

impl Position {
    /// Set-up: puts a man of `piece` (virgin when `virgin` and the type has initial moves) on
    /// an empty square, keeping the map, key and royal list in step.
    pub fn place(
        &mut self,
        c: Coord,
        piece: PieceId,
        colour: Colour,
        virgin: bool,
    ) -> Result<(), SetupError> {
        let sq = self.setup_square(c)?;
        if self.board[sq as usize] != EMPTY {
            return Err(SetupError::Occupied(c));
        }
        if piece as usize >= self.lay.variant.pieces.len() {
            return Err(SetupError::NoSuchPiece(piece));
        }
        let kind = self.lay.kind_of(piece, virgin);
        let mut ops = Vec::new();
        let slot = self
            .spawn(kind, colour, &mut ops)
            .ok_or(SetupError::TooManyMen)?;
        self.put(sq, slot, &mut ops);
        self.map.clear_log();
        Ok(())
    }

    /// Set-up: takes the man off a square (nothing goes to hand).
    pub fn remove(&mut self, c: Coord) -> Result<(), SetupError> {
        let sq = self.setup_square(c)?;
        if self.man_at(sq).is_none() {
            return Err(SetupError::Empty(c));
        }
        let mut ops = Vec::new();
        let slot = self.lift(sq, &mut ops);
        self.kill(slot, &mut ops);
        self.map.clear_log();
        Ok(())
    }

    fn setup_square(&self, c: Coord) -> Result<Sq, SetupError> {
        let on_board = c.file < self.lay.files && c.rank < self.lay.ranks;
        let sq = if on_board { self.lay.sq(c) } else { 0 };
        if !on_board || self.board[sq as usize] == OFF {
            return Err(SetupError::OffBoard(c));
        }
        Ok(sq)
    }
}
