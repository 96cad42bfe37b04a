//! Piece moves for the table generator: every path of a piece from every square, compiled
//! from the variant's trajectories into occupancy conditions on the generator's small board,
//! indexed by origin (forward moves), by destination (un-moves) and by origin and destination
//! (attacks). The same compiled pieces as the engine's: no second rules engine.

use variants::rules::PieceType;
use variants::{rights, SquareSet, Trajectories, Variant};

use super::board::{bit, Bits, Board};

/// The most hop screens one path may cross (more is refused as unsupported).
pub const MAX_SCREENS: usize = 4;

/// What the squares a path crosses must hold for the path to be open: squares that must be
/// empty, and the hop screens, listed in path order (a path has few, and a set of them
/// would double the size of every path on boards of more than 128 squares).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cond {
    /// Squares that must be empty.
    pub empty: Bits,
    /// Squares that must be occupied, the first `screens` of them.
    pub screen: [u8; MAX_SCREENS],
    /// How many screens.
    pub screens: u8,
    /// Per screen (bit `k` for `screen[k]`): it must hold a man of the mover's side.
    pub friend: u8,
    /// Per screen: it must hold an enemy man.
    pub foe: u8,
    /// Per screen: the enemy man there is captured on the way (a locust capture; its bit in
    /// `foe` is set too).
    pub locust: u8,
}

impl Cond {
    /// True when the path is open on a board with `occ` occupied, `own` the mover's men.
    #[inline(always)]
    pub fn open(&self, occ: Bits, own: Bits) -> bool {
        !occ.meets(self.empty)
            && (0..self.screens as usize).all(|k| {
                let s = self.screen[k];
                occ.has(s)
                    && (self.friend >> k & 1 == 0 || own.has(s))
                    && (self.foe >> k & 1 == 0 || !own.has(s))
            })
    }

    /// The squares of the men taken on the way (locust captures).
    pub fn victims(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.screens as usize)
            .filter(|&k| self.locust >> k & 1 != 0)
            .map(|k| self.screen[k])
    }

    /// The condition with one more screen on `sq` (`friend`, `foe`, `locust`: its flags);
    /// `None` when the path already crosses [`MAX_SCREENS`].
    fn with_screen(&self, sq: u8, friend: bool, foe: bool, locust: bool) -> Option<Cond> {
        let k = self.screens as usize;
        if k == MAX_SCREENS {
            return None;
        }
        let mut c = *self;
        c.screen[k] = sq;
        c.screens += 1;
        c.friend |= u8::from(friend) << k;
        c.foe |= u8::from(foe) << k;
        c.locust |= u8::from(locust) << k;
        Some(c)
    }

    /// The screens as a set.
    pub fn screen_bits(&self) -> Bits {
        self.screen[..self.screens as usize]
            .iter()
            .copied()
            .collect()
    }

    /// The path with its squares carried by `map` (board map `k` of `b`).
    fn mapped(&self, b: &Board, k: usize) -> Cond {
        let mut c = *self;
        c.empty = b.map_bits(k, self.empty);
        for s in &mut c.screen[..self.screens as usize] {
            *s = b.maps[k][*s as usize];
        }
        c
    }
}

/// One path: where it ends, what it may do there, and what it needs on its way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Path {
    /// Destination square.
    pub to: u8,
    /// End rights from [`rights`]: `MOVE`, `CAPTURE`, `CHECK_ONLY`, `TAME`.
    pub rights: u16,
    /// Conditions on the squares crossed.
    pub cond: Cond,
    /// En passant: [`SETS_EP`] when the move lets the squares it passes be taken on en
    /// passant, [`TAKES_EP`] when its end may take a man that passed it.
    pub ep: u8,
}

/// [`Path::ep`]: a double step.
pub const SETS_EP: u8 = 1;
/// [`Path::ep`]: a capture en passant.
pub const TAKES_EP: u8 = 2;

/// The rights a table path keeps; everything else is either a condition or unsupported.
const KEPT: u16 = rights::MOVE | rights::CAPTURE | rights::CHECK_ONLY | rights::TAME;

/// Moves of one piece type for one colour.
#[derive(Clone, Debug, Default)]
pub struct PieceMoves {
    /// Paths by origin square.
    pub from: Vec<Vec<Path>>,
    /// Paths that may end on an empty square, by destination: (origin, conditions).
    pub into: Vec<Vec<(u8, Cond)>>,
    /// Attacks (captures of a royal, or check-only sight) by `from * n + to`: offsets into
    /// `attack_conds`.
    pub attack_at: Vec<u32>,
    /// The conditions of the attacks.
    pub attack_conds: Vec<Cond>,
    /// Per target square: the origins with some attack on it (a quick refusal before the
    /// conditions are looked up).
    pub attackers_of: Vec<Bits>,
    /// Captures of any man (royal or not) by `from * n + to`: offsets into `capture_conds`.
    pub capture_at: Vec<u32>,
    /// The conditions of the captures.
    pub capture_conds: Vec<Cond>,
    /// Captures en passant by target square: (origin, conditions).
    pub ep_into: Vec<Vec<(u8, Cond)>>,
    /// Some path takes men on its way (a locust capture: a lion's igui or double capture),
    /// or returns to its origin (a lion's pass), or the piece burns: moves the row solver
    /// does not model.
    pub irregular: bool,
    /// Tenjiku's Fire Demon (`burn`): every enemy man next to where it lands is taken.
    pub burns: bool,
    /// The most men one move takes (the end's victim, those on the way, those burnt).
    pub max_victims: usize,
    /// The piece can capture a friend or cross more than [`MAX_SCREENS`] screens: moves
    /// the generator does not model (its tables are refused). (Tenjiku's range jumps are
    /// refused per table, where a man they could jump stands: see `Builder::empty_table`.)
    pub unsupported: Option<&'static str>,
}

impl PieceMoves {
    /// True when board map `k` carries the paths from square `s` onto `image` (sorted and
    /// without repeats, as every square's paths are), each path's end and occupancy
    /// conditions mapped. The map is one to one on paths, so the same count and each mapped
    /// path found in `image` make the two sets equal: no mapped copy is made or sorted (that
    /// was most of the start-up of a large variant).
    pub fn maps_onto(&self, b: &Board, k: usize, s: usize, image: &[Path]) -> bool {
        let map = &b.maps[k];
        let from = &self.from[s];
        from.len() == image.len()
            && from.iter().all(|path| {
                let mut q = *path;
                q.to = map[path.to as usize];
                q.cond = path.cond.mapped(b, k);
                // Found by its end first: a byte's compare, and few paths share an end.
                let at = image.partition_point(|p| p.to < q.to);
                image[at..]
                    .iter()
                    .take_while(|p| p.to == q.to)
                    .any(|p| *p == q)
            })
    }

    /// The attack conditions from `from` on `to` on a board of `n` squares.
    #[inline(always)]
    pub fn attacks(&self, n: usize, from: u8, to: u8) -> &[Cond] {
        if !self.attackers_of[to as usize].has(from) {
            return &[];
        }
        let k = from as usize * n + to as usize;
        &self.attack_conds[self.attack_at[k] as usize..self.attack_at[k + 1] as usize]
    }

    /// Per origin square: every destination of a move or capture, whatever the occupancy.
    pub fn reach(&self) -> Vec<Bits> {
        let ends = rights::MOVE | rights::CAPTURE;
        self.from
            .iter()
            .map(|paths| {
                paths
                    .iter()
                    .filter(|p| p.rights & ends != 0)
                    .map(|p| p.to)
                    .collect()
            })
            .collect()
    }

    /// The capture conditions from `from` on `to`.
    #[inline]
    pub fn captures(&self, n: usize, from: u8, to: u8) -> &[Cond] {
        let k = from as usize * n + to as usize;
        &self.capture_conds[self.capture_at[k] as usize..self.capture_at[k + 1] as usize]
    }

    /// Every path of `piece` for `colour` (0 White, 1 Black) on `board`; `initial`: the
    /// squares where the piece has not moved yet (its start squares), `zone_of`: the zone
    /// sets for the colour.
    pub fn compile(
        board: &Board,
        piece: &PieceType,
        colour: usize,
        initial: &SquareSet,
        zones: &[SquareSet],
    ) -> PieceMoves {
        let n = board.n;
        let mut pm = PieceMoves {
            from: vec![Vec::new(); n],
            into: vec![Vec::new(); n],
            burns: piece.burns,
            irregular: piece.burns,
            ..PieceMoves::default()
        };
        let walker = Walker {
            board,
            t: &piece.moves,
            colour,
            confined: piece.confined,
            zones,
        };
        for s in (0..n).map(|s| s as u8) {
            let c = board.coord(s);
            let mut out = Vec::new();
            for &root in &piece.moves.roots {
                let node = &piece.moves.nodes[root as usize];
                if node.rights & rights::INITIAL != 0 && !initial.contains(c) {
                    continue;
                }
                if node.from_zone.is_some_and(|z| !walker.in_zone(z, s)) {
                    continue;
                }
                walker.walk(root, s, Cond::default(), &mut out, &mut pm.unsupported);
            }
            // The man leaves its square as it sets out: a path crossing it finds it empty
            // (a hop over it is no path), and one ending there moves (a lion's igui, or its
            // pass).
            out.retain_mut(|p| {
                p.cond.empty &= !bit(s);
                !p.cond.screen_bits().has(s)
            });
            out.sort();
            out.dedup();
            pm.from[s as usize] = out;
        }
        // Keyed by `from * n + to`, put in order once at the end: a list per pair of squares
        // was most of the start-up on large boards (chu's 144 squares: 20,736 lists a piece).
        let mut attacks: Vec<(usize, Cond)> = Vec::new();
        let mut captures: Vec<(usize, Cond)> = Vec::new();
        pm.ep_into = vec![Vec::new(); n];
        for s in 0..n {
            for p in &pm.from[s] {
                let on_the_way = p.cond.victims().count();
                let ends = usize::from(p.rights & rights::CAPTURE != 0);
                let burnt = if pm.burns { 8 } else { 0 };
                pm.max_victims = pm.max_victims.max(on_the_way + ends + burnt);
                pm.irregular |= on_the_way > 0 || p.to as usize == s;
                if p.ep & TAKES_EP != 0 {
                    pm.ep_into[p.to as usize].push((s as u8, p.cond));
                }
                // A locust move converts: it is no un-move.
                if p.rights & rights::MOVE != 0 && on_the_way == 0 {
                    pm.into[p.to as usize].push((s as u8, p.cond));
                }
                for v in p.cond.victims() {
                    let k = s * n + v as usize;
                    attacks.extend(landing_conds(p, s as u8).into_iter().map(|c| (k, c)));
                }
                // A burner attacks every square next to where it may land.
                if pm.burns && p.rights & (rights::MOVE | rights::CAPTURE) != 0 {
                    for r in board.near[p.to as usize].squares() {
                        let k = s * n + r as usize;
                        attacks.extend(landing_conds(p, s as u8).into_iter().map(|c| (k, c)));
                    }
                }
                let hits = p.rights & (rights::CAPTURE | rights::CHECK_ONLY) != 0;
                if hits && p.rights & rights::TAME == 0 {
                    attacks.push((s * n + p.to as usize, p.cond));
                }
                if p.rights & rights::CAPTURE != 0 {
                    captures.push((s * n + p.to as usize, p.cond));
                }
            }
        }
        pm.attackers_of = vec![Bits::EMPTY; n];
        for &(k, _) in &attacks {
            pm.attackers_of[k % n] |= bit((k / n) as u8);
        }
        (pm.attack_at, pm.attack_conds) = by_key(attacks, n * n);
        (pm.capture_at, pm.capture_conds) = by_key(captures, n * n);
        pm
    }
}

/// `keyed`'s conditions in key order (those of a key in the order given), with the offset
/// of each of the `keys` keys' first: key `k`'s are `conds[at[k]..at[k + 1]]`.
fn by_key(keyed: Vec<(usize, Cond)>, keys: usize) -> (Vec<u32>, Vec<Cond>) {
    // A counting sort, stable: each key's count, then each condition put after those of
    // the keys below its own, in the order given.
    let mut at = vec![0u32; keys + 1];
    for &(k, _) in &keyed {
        at[k + 1] += 1;
    }
    for k in 0..keys {
        at[k + 1] += at[k];
    }
    let mut next = at.clone();
    let mut conds = vec![Cond::default(); keyed.len()];
    for (k, c) in keyed {
        conds[next[k] as usize] = c;
        next[k] += 1;
    }
    (at, conds)
}

/// The conditions under which path `p` from `s` may end at all, whatever it takes on its
/// way: its end empty (or its own origin, which it left) for a move, an enemy there for a
/// capture. A man it would take on the way is attacked under any of them.
fn landing_conds(p: &Path, s: u8) -> Vec<Cond> {
    if p.to == s {
        return if p.rights & rights::MOVE != 0 {
            vec![p.cond]
        } else {
            Vec::new()
        };
    }
    let mut out = Vec::new();
    if p.rights & rights::MOVE != 0 {
        let mut c = p.cond;
        c.empty |= bit(p.to);
        out.push(c);
    }
    if p.rights & rights::CAPTURE != 0 {
        out.extend(p.cond.with_screen(p.to, false, true, false));
    }
    out
}

/// Walks one piece's trajectory tree over the table board.
struct Walker<'a> {
    board: &'a Board,
    t: &'a Trajectories,
    colour: usize,
    confined: Option<u8>,
    zones: &'a [SquareSet],
}

impl Walker<'_> {
    fn in_zone(&self, zone: u8, sq: u8) -> bool {
        self.zones
            .get(zone as usize)
            .is_some_and(|z| z.contains(self.board.coord(sq)))
    }

    fn walk(
        &self,
        id: u16,
        at: u8,
        cond: Cond,
        out: &mut Vec<Path>,
        unsupported: &mut Option<&'static str>,
    ) {
        let node = &self.t.nodes[id as usize];
        let dir = if self.colour == 0 { 1 } else { -1 };
        let c = self.board.coord(at);
        let f = c.file as i32 + node.step.0 as i32;
        let r = c.rank as i32 + dir * node.step.1 as i32;
        let Some(sq) = self.board.at(f, r) else {
            return;
        };
        // A check-only sight line is not a move: a confined royal still sees out of its zone.
        let sight = node.rights & rights::CHECK_ONLY != 0 && !node.can_end();
        let zone = if sight {
            node.zone
        } else {
            node.zone.or(self.confined)
        };
        if zone.is_some_and(|z| !self.in_zone(z, sq)) {
            return;
        }
        // En passant is kept in the path's flags (see `Path::ep`); a friend capture is out
        // of scope.
        if node.rights & rights::DESTROY != 0 {
            *unsupported = Some("captures of its own men");
        }
        let ends = node.rights & KEPT;
        if ends & (rights::MOVE | rights::CAPTURE | rights::CHECK_ONLY) != 0 {
            let flag = |right: u16, ep: u8| if node.rights & right != 0 { ep } else { 0 };
            let ep = flag(rights::SETS_EP, SETS_EP) | flag(rights::EN_PASSANT, TAKES_EP);
            out.push(Path {
                to: sq,
                rights: ends,
                cond,
                ep,
            });
        }
        let mut next = cond;
        next.empty |= bit(sq);
        for &child in &node.on_empty {
            self.walk(child, sq, next, out, unsupported);
        }
        let pass = node.rights & (rights::PASS_FRIEND | rights::PASS_FOE);
        if pass != 0 && !node.on_occupied.is_empty() {
            if node.rights & rights::LOCUST_FRIEND != 0 {
                *unsupported = Some("captures of its own men on the way");
                return;
            }
            // A locust capture takes the foe it passes: a screen that must hold one, beside
            // a hop over a friend where the path may pass one too.
            let hops = if node.rights & rights::LOCUST_FOE == 0 {
                let friend = pass == rights::PASS_FRIEND;
                vec![cond.with_screen(sq, friend, pass == rights::PASS_FOE, false)]
            } else if pass & rights::PASS_FRIEND != 0 {
                vec![
                    cond.with_screen(sq, false, true, true),
                    cond.with_screen(sq, true, false, false),
                ]
            } else {
                vec![cond.with_screen(sq, false, true, true)]
            };
            for hop in hops {
                let Some(hop) = hop else {
                    *unsupported = Some("paths over more than four screens");
                    return;
                };
                for &child in &node.on_occupied {
                    self.walk(child, sq, hop, out, unsupported);
                }
            }
        }
    }
}

/// The zone square sets of a variant for one colour.
pub fn zones_for(v: &Variant, colour: usize) -> Vec<SquareSet> {
    v.zones
        .iter()
        .map(|z| if colour == 0 { z.white } else { z.black })
        .collect()
}
