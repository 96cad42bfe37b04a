//! The variant as the engine sees it: the padded mailbox geometry, the engine's piece kinds
//! (a variant piece type split into "virgin" and "used" forms where it has initial moves) and
//! the moveTable cells every kind's trajectories compile to.

use variants::geometry::{Coord, MAX_SQUARES};
use variants::rights;
use variants::{PieceId, Trajectories, Variant};

use crate::board::types::{Colour, Sq};

/// Marks "no cell" in parent and locust links.
pub const NO_CELL: u16 = u16::MAX;
/// Marks "no zone" in cells.
pub const NO_ZONE: u8 = u8::MAX;

/// One moveTable cell: a square on a trajectory, as a mailbox offset from its parent's square.
#[derive(Clone, Debug)]
pub struct Cell {
    /// Mailbox delta from the parent cell's square (root: from the piece).
    pub offset: i16,
    /// Flags from [`variants::rights`].
    pub rights: u16,
    /// Zone the square must be in, or [`NO_ZONE`].
    pub zone: u8,
    /// Zone the piece must stand in for this root to exist, or [`NO_ZONE`].
    pub from_zone: u8,
    /// Parent cell, or [`NO_CELL`].
    pub parent: u16,
    /// Nearest proper ancestor whose occupied continuation removes the piece passed over
    /// (the locust back link), or [`NO_CELL`].
    pub locust_back: u16,
    /// `children[empty.0..empty.1]` are taken when the square is empty.
    pub empty: (u16, u16),
    /// `children[occupied.0..occupied.1]` are taken when passing an occupied square.
    pub occupied: (u16, u16),
    /// When every square below this cell lies further along one fixed offset (a slider's or
    /// a cannon's ray), that offset; 0 otherwise. Lets the legality test skip rays that
    /// cannot reach a royal.
    pub straight: i16,
}

/// The compiled cells of one kind (piece type, virgin state and colour).
#[derive(Clone, Debug, Default)]
pub struct CellTable {
    /// All cells; children come after their parents.
    pub cells: Vec<Cell>,
    /// Child lists referenced by the cells' ranges.
    pub children: Vec<u16>,
    /// Root cells.
    pub roots: Vec<u16>,
    /// `skip[i]`: the first index after cell `i`'s subtree when the subtree occupies the
    /// indices right after `i`, else `i + 1`. A cell that is not associated has no
    /// associated descendant, so a scan over all cells may jump there.
    pub skip: Vec<u16>,
}

/// An engine piece type: a variant type in one virgin state.
#[derive(Clone, Debug)]
pub struct Kind {
    /// The variant piece type.
    pub piece: PieceId,
    /// True for the form that still has its initial moves.
    pub virgin: bool,
    /// Engine type after this piece has moved (itself when not virgin).
    pub used: u8,
    /// Castling: number of squares the royal moves (only on a virgin castling royal).
    pub castles: bool,
    /// Piece value in centipawns (middle game).
    pub value: i32,
    /// Endgame value in centipawns.
    pub value_eg: i32,
    /// Royal piece.
    pub royal: bool,
    /// `plain_to[colour][sq]`: a move ending on this mailbox square needs no promotion or
    /// dead-square handling (outside the zone, or a kind that never promotes).
    pub plain_to: [Vec<bool>; 2],
    /// `plain_from[colour][sq]`: leaving this square offers no promotion (shogi-style kinds
    /// promote on leaving the zone too).
    pub plain_from: [Vec<bool>; 2],
    /// The kind has no promotion at all (it may still have dead squares).
    pub never_promotes: bool,
    /// A capture may turn the kind into its victim's type (`contagion`, Werewolf Chess): its
    /// captures go through the promotion path, and `plain_to` is all false.
    pub infectable: bool,
    /// `dead[colour][sq]`: the kind could never move again from this mailbox square.
    pub dead: [Vec<bool>; 2],
    /// Cell tables per colour.
    pub cells: [CellTable; 2],
    /// Victim class for staged captures: the rank of this kind's value among the variant's
    /// distinct values (0 the cheapest), so equal values share a class.
    pub class: u8,
    /// Some move of the kind can remove a man without landing on it (a locust capture or
    /// en passant): the capture stage must walk its cells, not only read the map at victims.
    pub side_captures: bool,
    /// Tenjiku Fire Demon (`burn`): every enemy man next to where it lands is removed.
    pub burns: bool,
    /// Some promotion choice of the kind burns (the Tenjiku Water Buffalo): on a move that
    /// may promote it threatens what a burner threatens (see `Position::promotes_into_burner`).
    pub promotes_to_burner: bool,
    /// Tenjiku jumping general (`rangeJump`): its slides pass men of lower jump rank, but a
    /// path that passed a man may only capture, never end on an empty square (the quiet
    /// generator asks `Position::jumped`).
    pub range_jump: bool,
    /// The kind reaches some square by two paths (a lion): its moves may repeat.
    pub twin_paths: bool,
}

/// Board geometry and compiled piece kinds of one variant.
#[derive(Debug)]
pub struct Layout {
    /// The variant.
    pub variant: Variant,
    /// Files of the playing area.
    pub files: u8,
    /// Ranks of the playing area.
    pub ranks: u8,
    /// Mailbox row length.
    pub stride: i16,
    /// Number of guard rows/columns around the board.
    pub guard: i16,
    /// Mailbox size.
    pub size: usize,
    /// Engine kinds; index is the kind id.
    pub kinds: Vec<Kind>,
    /// Kind id of each variant piece type in its virgin form (or its only form).
    pub virgin_kind: Vec<u8>,
    /// Kind id of each variant piece type in its used form.
    pub used_kind: Vec<u8>,
    /// The largest number of cells of any kind (per slot region of the attack map).
    pub max_cells: usize,
    /// Some kind can reach one square by two different paths with the same end rights (the
    /// Chu lion), so generated moves must be de-duplicated.
    pub multi_path: bool,
    /// `hops[colour]`: some man of that colour has a path that goes on past an occupied
    /// square (a cannon's screen, a lion's first capture). Without one, a man arriving on a
    /// square can only block that colour's paths, never open one (the legality shortcut).
    pub hops: [bool; 2],
    /// Every kind that castles is royal, so the castling king is found among the royals.
    pub royal_castlers: bool,
    /// Some kind burns (Tenjiku Fire Demon): check detection must look for burns.
    pub burners: bool,
    /// Some kind can capture without moving (igui): check detection must look for it.
    pub igui: bool,
    /// `burners || igui`: royals face threats the attack counters do not hold.
    pub uncounted: bool,
    /// Walls: board squares marked `*` are excluded by the position, not here.
    sq_of: Vec<Sq>,
    coord_of: Vec<Option<Coord>>,
    /// `zone_sq[colour][zone]` tells for every mailbox square whether it is in the zone.
    pub zone_sq: [Vec<Vec<bool>>; 2],
    /// `no_hop[mover][screen]` for variant piece types.
    pub no_hop: Vec<Vec<bool>>,
    /// `no_capture[attacker][victim]` for variant piece types.
    pub no_capture: Vec<Vec<bool>>,
    /// Squares each piece type holds in the start position, per colour.
    pub start_squares: [Vec<variants::SquareSet>; 2],
    /// Number of royal men each colour has in the start position.
    pub start_royals: [usize; 2],
}

impl Layout {
    /// Compiles a variant for the engine.
    pub fn new(variant: Variant) -> Layout {
        let guard = variant
            .pieces
            .iter()
            .flat_map(|p| p.moves.nodes.iter())
            .map(|n| n.step.0.unsigned_abs().max(n.step.1.unsigned_abs()) as i16)
            .max()
            .unwrap_or(1)
            .max(1);
        let (files, ranks) = (variant.files, variant.ranks);
        let stride = files as i16 + guard;
        let size = ((ranks as i16 + 2 * guard) * stride + guard) as usize;
        let mut sq_of = vec![0; MAX_SQUARES];
        let mut coord_of = vec![None; size];
        for r in 0..ranks {
            for f in 0..files {
                let sq = ((r as i16 + guard) * stride + f as i16 + guard) as Sq;
                let c = Coord::new(f, r);
                sq_of[c.index()] = sq;
                coord_of[sq as usize] = Some(c);
            }
        }
        let start_squares = variants::start_squares(&variant);
        let mut lay = Layout {
            files,
            ranks,
            stride,
            guard,
            size,
            kinds: Vec::new(),
            virgin_kind: Vec::new(),
            used_kind: Vec::new(),
            max_cells: 1,
            multi_path: false,
            hops: [false; 2],
            royal_castlers: true,
            burners: false,
            igui: false,
            uncounted: false,
            sq_of,
            coord_of,
            zone_sq: [Vec::new(), Vec::new()],
            no_hop: Vec::new(),
            no_capture: Vec::new(),
            start_squares,
            start_royals: [0, 0],
            variant,
        };
        lay.build_zones();
        lay.build_kinds();
        lay.build_matrix();
        for c in 0..2 {
            lay.start_royals[c] = lay.start_squares[c]
                .iter()
                .zip(&lay.variant.pieces)
                .filter(|(_, p)| p.royal)
                .map(|(s, _)| s.iter().count())
                .sum();
        }
        lay
    }

    fn build_zones(&mut self) {
        for colour in 0..2 {
            self.zone_sq[colour] = self
                .variant
                .zones
                .iter()
                .map(|z| {
                    let set = if colour == 0 { &z.white } else { &z.black };
                    (0..self.size)
                        .map(|sq| self.coord_of[sq].is_some_and(|c| set.contains(c)))
                        .collect()
                })
                .collect();
        }
    }

    fn build_matrix(&mut self) {
        let n = self.variant.pieces.len();
        self.no_hop = vec![vec![false; n]; n];
        self.no_capture = vec![vec![false; n]; n];
        for &(a, b) in &self.variant.capture_matrix.no_hop {
            self.no_hop[a as usize][b as usize] = true;
        }
        for &(a, b) in &self.variant.capture_matrix.no_capture {
            self.no_capture[a as usize][b as usize] = true;
        }
        // A range jumper passes only men of lower jump rank (its slides pass every man).
        let pieces = &self.variant.pieces;
        for (a, jumper) in pieces.iter().enumerate().filter(|(_, p)| p.range_jump) {
            for (b, screen) in pieces.iter().enumerate() {
                self.no_hop[a][b] |= screen.jump_rank >= jumper.jump_rank;
            }
        }
    }

    fn build_kinds(&mut self) {
        let pieces = self.variant.pieces.clone();
        for (id, p) in pieces.iter().enumerate() {
            let used_traj = p.moves.without_initial();
            let used_id = self.kinds.len() as u8;
            let used = self.kind(id as PieceId, false, used_id, false, &used_traj);
            self.kinds.push(used);
            self.used_kind.push(used_id);
            let castler = self.variant.castling.as_ref().is_some_and(|c| {
                c.king_type == id as PieceId || c.rook_types.contains(&(id as PieceId))
            });
            if p.moves.has_initial() || castler {
                let vid = self.kinds.len() as u8;
                let castles = p.moves.castling.is_some()
                    || self
                        .variant
                        .castling
                        .as_ref()
                        .is_some_and(|c| c.king_type == id as PieceId);
                let virgin = self.kind(id as PieceId, true, used_id, castles, &p.moves);
                self.kinds.push(virgin);
                self.virgin_kind.push(vid);
            } else {
                self.virgin_kind.push(used_id);
            }
        }
        for colour in 0..2 {
            self.hops[colour] = self.kinds.iter().any(|k| {
                let passes = rights::PASS_FRIEND | rights::PASS_FOE;
                k.cells[colour]
                    .cells
                    .iter()
                    .any(|c| c.rights & passes != 0 && c.occupied.0 != c.occupied.1)
            });
        }
        self.royal_castlers = self.kinds.iter().all(|k| !k.castles || k.royal);
        self.multi_path = self.kinds.iter().any(|k| k.twin_paths);
        self.burners = pieces.iter().any(|p| p.burns);
        self.igui = self.kinds.iter().any(|k| Self::has_igui(&k.cells[0]));
        self.uncounted = self.burners || self.igui;
        self.assign_classes();
        self.max_cells = self
            .kinds
            .iter()
            .map(|k| k.cells[0].cells.len())
            .max()
            .unwrap_or(1)
            .max(1);
    }

    fn kind(
        &self,
        piece: PieceId,
        virgin: bool,
        used: u8,
        castles: bool,
        t: &Trajectories,
    ) -> Kind {
        let p = &self.variant.pieces[piece as usize];
        // Shogi-style promotion, or demotion under `pieceDemotion`.
        let flips = self.variant.flips_to(piece).is_some();
        let contagion = &self.variant.capture_matrix;
        let infectable =
            !contagion.contagion.is_empty() && !contagion.contagion_immune.contains(&piece);
        Kind {
            piece,
            virgin,
            used,
            castles,
            value: p.value,
            value_eg: p.value_eg,
            royal: p.royal,
            plain_to: [Colour::White, Colour::Black].map(|c| {
                let plain = self.plain_squares(p, flips, c, true);
                plain.into_iter().map(|s| s && !infectable).collect()
            }),
            plain_from: [
                self.plain_squares(p, flips, Colour::White, false),
                self.plain_squares(p, flips, Colour::Black, false),
            ],
            // Sittuyin's pawns never promote by moving (`sittuyin.rs` makes their promotions).
            never_promotes: !self.promotes_by_moving(p) && !flips,
            infectable,
            dead: [
                self.mailbox_set(&p.dead_squares, Colour::White),
                self.mailbox_set(&p.dead_squares, Colour::Black),
            ],
            cells: [
                self.cell_table(t, Colour::White, p.confined, p.range_jump),
                self.cell_table(t, Colour::Black, p.confined, p.range_jump),
            ],
            class: 0,
            side_captures: false,
            burns: p.burns,
            promotes_to_burner: p
                .promoted
                .iter()
                .chain(&p.promotions)
                .any(|&q| self.variant.pieces[q as usize].burns),
            range_jump: p.range_jump,
            twin_paths: Self::has_twin_paths(t),
        }
    }

    /// Victim classes from the values (not the names) of the kinds, and which kinds capture
    /// off their landing square.
    fn assign_classes(&mut self) {
        let mut values: Vec<i32> = self.kinds.iter().map(|k| k.value).collect();
        values.sort_unstable();
        values.dedup();
        for k in &mut self.kinds {
            let rank = values.partition_point(|&v| v < k.value);
            k.class = rank.min(u8::MAX as usize) as u8;
            let side = rights::EN_PASSANT | rights::LOCUST_FOE;
            // A burner's quiet moves remove men too (their victims are implied by the move),
            // and so do those of a man promoting into a burner.
            k.side_captures = k.burns
                || k.promotes_to_burner
                || k.cells.iter().any(|t| {
                    t.cells
                        .iter()
                        .any(|c| c.locust_back != NO_CELL || c.rights & side != 0)
                });
        }
    }

    /// A range jumper's (`rangeJump`) slides pass occupied squares: each cell that goes on
    /// over an empty square goes on the same way over a man, and [`Layout::no_hop`] stops it
    /// at men of equal or higher jump rank (see `build_matrix`).
    fn cell_table(
        &self,
        t: &Trajectories,
        colour: Colour,
        confined: Option<u8>,
        jumps: bool,
    ) -> CellTable {
        let dir = if colour == Colour::White { 1 } else { -1 };
        // Files turn too where Black's men are White's turned half round (shogi).
        let file_dir = if self.variant.black_rotated { dir } else { 1 };
        let mut table = CellTable::default();
        for node in &t.nodes {
            let offset = file_dir * node.step.0 as i16 + dir * node.step.1 as i16 * self.stride;
            // A check-only path is not a move, so a confined royal still "sees" beyond its
            // palace (flying general).
            let sight = node.rights & rights::CHECK_ONLY != 0 && !node.can_end();
            let zone = if sight {
                node.zone
            } else {
                node.zone.or(confined)
            }
            .unwrap_or(NO_ZONE);
            let empty_start = table.children.len() as u16;
            table.children.extend(node.on_empty.iter().copied());
            let occ_start = table.children.len() as u16;
            table.children.extend(node.on_occupied.iter().copied());
            let end = table.children.len() as u16;
            let mut cell_rights = node.rights;
            let empty = (empty_start, occ_start);
            // A jumper goes on over a man as over an empty square: the occupied range is the
            // empty one (dissociation walks `empty.0..occupied.1`, so it stays exact).
            let occupied = if jumps && occ_start > empty_start && end == occ_start {
                cell_rights |= rights::PASS_FRIEND | rights::PASS_FOE;
                empty
            } else {
                (occ_start, end)
            };
            let parent = node.parent.unwrap_or(NO_CELL);
            let locust_back = Self::locust_back(t, node.parent);
            table.cells.push(Cell {
                offset,
                rights: cell_rights,
                zone,
                from_zone: node.from_zone.unwrap_or(NO_ZONE),
                parent,
                locust_back,
                empty,
                occupied,
                straight: 0,
            });
        }
        table.roots = t.roots.clone();
        Self::mark_straight(&mut table);
        Self::mark_skips(&mut table);
        table
    }

    /// True when two cells that may end a move lie on the same square relative to the piece
    /// with end rights in common, both reached over empty squares only: the same move could
    /// then be generated twice (the Chu lion's direct leap and its two-step path). Paths that
    /// passed an occupied square are left out: they carry a victim or depend on a screen
    /// (a cannon's post-screen chains exclude each other), so they never repeat a move.
    fn has_twin_paths(t: &Trajectories) -> bool {
        const ENDS: u16 = rights::MOVE | rights::CAPTURE | rights::DESTROY | rights::EN_PASSANT;
        let n = t.nodes.len();
        let mut at: Vec<(i32, i32)> = vec![(0, 0); n];
        let mut over_occupied = vec![false; n];
        let mut seen: std::collections::HashMap<(i32, i32), u16> = std::collections::HashMap::new();
        for (i, node) in t.nodes.iter().enumerate() {
            for &k in &node.on_occupied {
                over_occupied[k as usize] = true;
            }
            if let Some(p) = node.parent {
                at[i] = at[p as usize];
                over_occupied[i] |= over_occupied[p as usize];
            }
            at[i].0 += node.step.0 as i32;
            at[i].1 += node.step.1 as i32;
            let ends = node.rights & ENDS;
            if ends == 0 || over_occupied[i] {
                continue;
            }
            let prev = seen.entry(at[i]).or_insert(0);
            if *prev & ends != 0 {
                return true;
            }
            *prev |= ends;
        }
        false
    }

    /// True when some locust cell's occupied continuation returns to the piece's square
    /// (a capture without moving).
    fn has_igui(t: &CellTable) -> bool {
        let at = |mut c: u16| {
            let mut sum = 0i32;
            while c != NO_CELL {
                sum += t.cells[c as usize].offset as i32;
                c = t.cells[c as usize].parent;
            }
            sum
        };
        t.cells.iter().enumerate().any(|(i, cell)| {
            let locust = cell.rights & rights::LOCUST_FOE != 0;
            let kids = &t.children[cell.occupied.0 as usize..cell.occupied.1 as usize];
            locust && kids.iter().any(|&k| at(k) == 0 && i != k as usize)
        })
    }

    /// Fills [`Cell::straight`] bottom-up (children always follow their parents).
    fn mark_straight(table: &mut CellTable) {
        for i in (0..table.cells.len()).rev() {
            let cell = &table.cells[i];
            let kids = &table.children[cell.empty.0 as usize..cell.occupied.1 as usize];
            let mut ray: Option<i16> = None;
            let mut straight = !kids.is_empty();
            for &k in kids {
                let child = &table.cells[k as usize];
                let leaf = child.empty.0 == child.occupied.1;
                let same = ray.is_none_or(|r| r == child.offset);
                straight &= same && (leaf || child.straight == child.offset);
                ray = Some(child.offset);
            }
            table.cells[i].straight = if straight { ray.unwrap_or(0) } else { 0 };
        }
    }

    /// Fills [`CellTable::skip`]: children come after their parents, so one backward pass
    /// knows each subtree's size and index range.
    fn mark_skips(table: &mut CellTable) {
        let n = table.cells.len();
        let mut size = vec![1usize; n];
        let mut lo: Vec<usize> = (0..n).collect();
        let mut hi: Vec<usize> = (0..n).collect();
        for i in (0..n).rev() {
            let cell = &table.cells[i];
            for &k in &table.children[cell.empty.0 as usize..cell.occupied.1 as usize] {
                let k = k as usize;
                size[i] += size[k];
                lo[i] = lo[i].min(lo[k]);
                hi[i] = hi[i].max(hi[k]);
            }
        }
        table.skip = (0..n)
            .map(|i| {
                let contiguous = lo[i] == i && hi[i] + 1 - i == size[i];
                (if contiguous { hi[i] + 1 } else { i + 1 }) as u16
            })
            .collect();
    }

    /// The nearest node at or above `from` whose occupied continuation captures.
    fn locust_back(t: &Trajectories, mut from: Option<u16>) -> u16 {
        while let Some(id) = from {
            let n = &t.nodes[id as usize];
            if n.rights & (rights::LOCUST_FOE | rights::LOCUST_FRIEND) != 0 {
                return id;
            }
            from = n.parent;
        }
        NO_CELL
    }

    /// A square set (given for White) as a mailbox-indexed table for `colour`.
    /// [`Kind::plain_to`] (`arriving`) or [`Kind::plain_from`] of a piece for one colour.
    fn plain_squares(
        &self,
        p: &variants::PieceType,
        flips: bool,
        colour: Colour,
        arriving: bool,
    ) -> Vec<bool> {
        let promo = &self.variant.promotion;
        // The zones are given per colour in board coordinates: no flip.
        let zone = match colour {
            Colour::White => &promo.zone_white,
            Colour::Black => &promo.zone_black,
        };
        let in_zone = self.mailbox_set(zone, Colour::White);
        let dead = self.mailbox_set(&p.dead_squares, colour);
        let promotes = if arriving {
            self.promotes_by_moving(p) || flips
        } else {
            flips
        };
        (0..self.size)
            .map(|sq| !(promotes && in_zone[sq] || arriving && dead[sq]))
            .collect()
    }

    /// True when a move of a man of type `p` into the zone offers pawn-style promotion.
    fn promotes_by_moving(&self, p: &variants::PieceType) -> bool {
        !p.promotions.is_empty() && !self.variant.promotion.sittuyin
    }

    fn mailbox_set(&self, set: &variants::SquareSet, colour: Colour) -> Vec<bool> {
        (0..self.size)
            .map(|sq| {
                self.coord_of[sq].is_some_and(|c| {
                    let c = if colour == Colour::White {
                        c
                    } else {
                        c.flip_rank(self.ranks)
                    };
                    set.contains(c)
                })
            })
            .collect()
    }

    /// Mailbox square of a coordinate (which must be on the board).
    #[inline]
    pub fn sq(&self, c: Coord) -> Sq {
        self.sq_of[c.index()]
    }

    /// Coordinate of a mailbox square, `None` off the board.
    #[inline]
    pub fn coord(&self, sq: Sq) -> Option<Coord> {
        self.coord_of.get(sq as usize).copied().flatten()
    }

    /// Every playing square of the board, rank by rank from a1.
    pub fn squares(&self) -> impl Iterator<Item = Sq> + '_ {
        (0..self.ranks).flat_map(move |r| (0..self.files).map(move |f| self.sq(Coord::new(f, r))))
    }

    /// True when the square lies in the given zone for that colour.
    #[inline]
    pub fn in_zone(&self, colour: Colour, zone: u8, sq: Sq) -> bool {
        zone == NO_ZONE || self.zone_sq[colour.index()][zone as usize][sq as usize]
    }

    /// The kind a variant piece type starts as on a square: virgin when it has initial moves.
    pub fn kind_of(&self, piece: PieceId, virgin: bool) -> u8 {
        if virgin {
            self.virgin_kind[piece as usize]
        } else {
            self.used_kind[piece as usize]
        }
    }
}
