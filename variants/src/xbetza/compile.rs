//! The compiler: [`Betza`] to trajectory trees. Each move is built as an owned tree per
//! direction (leg by leg, square by square), sibling nodes that would behave the same are
//! merged (so `nN` shares the first W square of its two leaps), and the forest is laid out
//! in pre-order into [`Trajectories`].
//!
//! Semantics chosen where XBetza leaves room (see also the `xbetza` module documentation):
//!
//! * a lame (`n`) or jumping (`j`) leap of (x,y) passes, when x and y share a factor g > 1,
//!   the g-1 squares on the straight line; otherwise first |y|-|x| orthogonal steps along the
//!   longer axis, then diagonal steps (`nN` = W then F, `nZ` = W, F, F like the janggi
//!   elephant). `n` needs those squares empty, `j` needs them occupied;
//! * `j` on a unit atom (`W F K R B Q`) skips the first square whatever stands there;
//! * a hopper (`p`) slides over empty squares, hops the first occupied one and then may land
//!   on the following squares up to the rest of its range, which counts the screen's square
//!   (`pR2` hops only an adjacent screen; a leaper hops an adjacent piece and lands one step
//!   behind it); `g` lands only on the square right behind;
//! * in a leg followed by `a`: `m` (the default) continues from an empty square, `c` from a
//!   foe that is captured (locust), `d` from a friend that is captured, `p` hops any piece
//!   (with `c`/`d` the foe/friend is captured instead), `t` forbids hopping foes, `y`
//!   continues from an empty square with the range toggled (leaper <-> slider), `g` hops and
//!   toggles; a slider leg slides on over empty squares and stops at the first piece;
//! * an exact range (`W03`) may only end (or branch) on its last square; hoppers ignore it;
//! * `i` + `m` only + a straight (orthogonal or diagonal) single-leg move: every end square
//!   that passed another square gets `SETS_EP` (pawn double steps `ifmnD`, `imfnA`, `ifmW2`),
//!   except for `j` moves;
//! * unlimited ranges become as many steps as fit in `max_range` squares (at least one);
//! * a description whose forest would exceed [`MAX_NODES`] nodes (node ids are 16 bits), or
//!   one move that would build more than [`BUILD_BUDGET`] nodes before merging, is an error
//!   at the column of the move that made it too large; nothing is cut off silently.

use super::dirs::{class_of, compass, mask, oblique, Class};
use super::{Atom, Betza, Mods, Move, Range};
use crate::error::XbetzaError;
use crate::trajectory::{rights, Node, NodeId, Trajectories};

/// Most nodes one move may build before merging; building stops there and the description
/// is refused.
pub const BUILD_BUDGET: usize = 200_000;
/// Most nodes a compiled description may have (node ids are 16 bits).
pub const MAX_NODES: usize = NodeId::MAX as usize;

/// End rights; the other rights are qualifiers or pass rights.
const END: u16 = rights::MOVE | rights::CAPTURE | rights::DESTROY | rights::EN_PASSANT;
/// Rights that decide what happens when the path goes on over a piece.
const PASS: u16 =
    rights::PASS_FRIEND | rights::PASS_FOE | rights::LOCUST_FOE | rights::LOCUST_FRIEND;

/// One node of a move under construction.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Tree {
    step: (i8, i8),
    rights: u16,
    empty: Vec<Tree>,
    occ: Vec<Tree>,
}

impl Tree {
    fn new(step: (i32, i32), rights: u16) -> Tree {
        Tree {
            step: (clamp(step.0), clamp(step.1)),
            rights,
            empty: Vec::new(),
            occ: Vec::new(),
        }
    }
}

fn clamp(v: i32) -> i8 {
    v.clamp(i8::MIN as i32, i8::MAX as i32) as i8
}

/// Compiles a parsed description; unlimited ranges become `max_range` steps. A description
/// too large for 16-bit node ids is an error at the column of the move that overflowed.
pub fn compile(betza: &Betza, max_range: u8) -> Result<Trajectories, XbetzaError> {
    let mut forest = Vec::new();
    let mut castling = None;
    for m in &betza.moves {
        if let (Atom::Castle, Range::Limited(n)) = (m.atom, m.range) {
            castling = Some(n);
            continue;
        }
        let Some(class) = class_of(m.atom) else {
            continue;
        };
        let mut b = Builder {
            mv: m,
            class,
            max_range,
            made: 0,
        };
        let trees = b.move_trees();
        if b.made > BUILD_BUDGET {
            return Err(too_large(
                m,
                format!("more than {BUILD_BUDGET} nodes to build"),
            ));
        }
        for t in trees {
            insert(&mut forest, t);
        }
        let size: usize = forest.iter().map(size).sum();
        if size > MAX_NODES {
            return Err(too_large(m, format!("{size} nodes, at most {MAX_NODES}")));
        }
    }
    let mut out = Trajectories {
        castling,
        ..Trajectories::default()
    };
    for t in &forest {
        flatten(t, None, &mut out);
    }
    Ok(out)
}

fn too_large(m: &Move, what: String) -> XbetzaError {
    XbetzaError {
        column: m.column,
        message: format!("move too large to compile ({what}); use fewer legs or shorter ranges"),
    }
}

/// Number of nodes in a tree.
fn size(t: &Tree) -> usize {
    1 + t.empty.iter().chain(&t.occ).map(size).sum::<usize>()
}

/// Builds the trees of one move.
struct Builder<'a> {
    mv: &'a Move,
    class: Class,
    max_range: u8,
    made: usize,
}

impl Builder<'_> {
    fn move_trees(&mut self) -> Vec<Tree> {
        let mut trees = self.leg(0, None, self.mv.range);
        let extra = if self.mv.initial { rights::INITIAL } else { 0 };
        let ep = self.sets_ep();
        for t in &mut trees {
            t.rights |= extra;
            if ep {
                mark_ep(t, 1);
            }
        }
        trees
    }

    /// True when the end squares of this move beyond the first get `SETS_EP`.
    fn sets_ep(&self) -> bool {
        let m = self.mv;
        let straight = matches!(self.class, Class::Orth(_) | Class::Diag(_));
        let only_m = m.legs.first().is_some_and(|l| {
            l.mods.0
                & (Mods::M | Mods::C | Mods::D | Mods::E | Mods::K | Mods::P | Mods::G | Mods::J)
                == Mods::M
        });
        m.initial && m.legs.len() == 1 && straight && only_m
    }

    /// The trees of leg `k` in every direction it has, turned by `angle` for later legs.
    fn leg(&mut self, k: usize, angle: Option<u8>, range: Range) -> Vec<Tree> {
        let Some(leg) = self.mv.legs.get(k) else {
            return Vec::new();
        };
        let dirs = mask(&leg.dirs, self.class, k > 0).unwrap_or(0);
        let mut out = Vec::new();
        for d in (0..8u8).filter(|d| dirs & (1 << d) != 0) {
            if self.made > BUILD_BUDGET {
                break;
            }
            let abs = (d + angle.unwrap_or(0)) & 7;
            out.extend(self.ray(k, abs, range));
        }
        out
    }

    /// The vector of one atom step in orientation `abs`.
    fn vector(&self, abs: u8) -> (i32, i32) {
        match self.class {
            Class::Orth(n) | Class::Diag(n) => {
                let (x, y) = compass(abs);
                (x * n as i32, y * n as i32)
            }
            Class::King => compass(abs),
            Class::Oblique(a, b) => oblique(a as i32, b as i32, abs),
        }
    }

    /// How many steps a range allows, and whether only the last may end the leg.
    fn steps(&self, range: Range) -> (u8, bool) {
        let reach = match self.class {
            Class::Orth(n) | Class::Diag(n) => n,
            Class::Oblique(_, b) => b,
            Class::King => 1,
        };
        let fit = (self.max_range / reach.max(1)).max(1);
        match range {
            Range::Unlimited => (fit, false),
            Range::Limited(n) => (n.min(fit).max(1), false),
            Range::Exact(n) => (n.max(1), true),
        }
    }

    /// One leg in one direction: the chain of its squares with what hangs from them.
    fn ray(&mut self, k: usize, abs: u8, range: Range) -> Vec<Tree> {
        let mods = self.mv.legs.get(k).map_or(Mods(0), |l| l.mods);
        let last = k + 1 == self.mv.legs.len();
        let v = self.vector(abs);
        let unit = v.0.abs().max(v.1.abs()) == 1;
        let (n, exact) = self.steps(range);
        let square = |b: &mut Self, i: u8| -> Tree {
            if last && mods.any(Mods::P | Mods::G) {
                b.hop_square(v, mods, i, n)
            } else if last {
                b.end_square(v, mods, i, n, exact)
            } else {
                b.branch_square(k, abs, range, v, mods, i, n, exact)
            }
        };
        let first = square(self, 1);
        if unit && mods.any(Mods::J) {
            return vec![self.skip(v, first)];
        }
        vec![self.segment(v, mods, first)]
    }

    /// `j` on a unit atom: the first square is passed whatever stands there.
    fn skip(&mut self, v: (i32, i32), rest: Tree) -> Tree {
        self.made += 1;
        let mut t = Tree::new(v, rights::PASS_FRIEND | rights::PASS_FOE);
        t.empty.push(rest.clone());
        t.occ.push(rest);
        t
    }

    /// Square `i` of a final leg: the move may end here, and slides on when it is empty.
    fn end_square(&mut self, v: (i32, i32), mods: Mods, i: u8, n: u8, exact: bool) -> Tree {
        self.made += 1;
        let ends = !exact || i == n;
        let mut t = Tree::new(v, if ends { end_rights(mods) } else { 0 });
        if i < n && self.made <= BUILD_BUDGET {
            let next = self.end_square(v, mods, i + 1, n, exact);
            t.empty.push(self.segment(v, mods, next));
        }
        t
    }

    /// Square `i` before the screen of a final hopping leg.
    fn hop_square(&mut self, v: (i32, i32), mods: Mods, i: u8, n: u8) -> Tree {
        self.made += 1;
        let mut t = Tree::new(v, hop_rights(mods));
        // The range counts the whole path, screen included (FSF: `pR2` hops a screen next
        // to it and lands right behind, never further); a range of one is a leaper that
        // hops the adjacent man and lands behind it.
        let after = match (mods.any(Mods::G), n) {
            (true, _) | (false, 1) => 1,
            _ => n - i,
        };
        if after > 0 && self.made <= BUILD_BUDGET {
            let landing = self.end_square(v, Mods(mods.0 & !Mods::J), 1, after, false);
            t.occ.push(self.segment(v, mods, landing));
        }
        if i < n && self.made <= BUILD_BUDGET {
            let next = self.hop_square(v, mods, i + 1, n);
            t.empty.push(self.segment(v, mods, next));
        }
        t
    }

    /// Square `i` of a leg followed by another: the next leg starts here when the square's
    /// occupancy matches the leg's modality.
    #[allow(clippy::too_many_arguments)]
    fn branch_square(
        &mut self,
        k: usize,
        abs: u8,
        range: Range,
        v: (i32, i32),
        mods: Mods,
        i: u8,
        n: u8,
        exact: bool,
    ) -> Tree {
        self.made += 1;
        let mut t = Tree::new(v, hop_rights_later(mods));
        if i < n && self.made <= BUILD_BUDGET {
            let next = self.branch_square(k, abs, range, v, mods, i + 1, n, exact);
            t.empty.push(self.segment(v, mods, next));
        }
        if exact && i != n {
            return t;
        }
        let on_empty =
            mods.any(Mods::M | Mods::Y) || !mods.any(Mods::C | Mods::D | Mods::P | Mods::G);
        if on_empty {
            let r = if mods.any(Mods::Y) {
                toggle(range)
            } else {
                range
            };
            t.empty.extend(self.leg(k + 1, Some(abs), r));
        }
        if mods.any(Mods::C | Mods::D | Mods::P | Mods::G) {
            let r = if mods.any(Mods::G) {
                toggle(range)
            } else {
                range
            };
            t.occ.extend(self.leg(k + 1, Some(abs), r));
        } else {
            t.rights &= !PASS;
        }
        t
    }

    /// Wraps the square node of one atom step into the lame or jumping path leading to it.
    fn segment(&mut self, v: (i32, i32), mods: Mods, square: Tree) -> Tree {
        let unit = v.0.abs().max(v.1.abs()) == 1;
        if unit || !mods.any(Mods::N | Mods::J) {
            return square;
        }
        let path = lame_path(v);
        let (inner, last) = path.split_at(path.len().saturating_sub(1));
        let mut t = square;
        if let Some(&s) = last.first() {
            t.step = (clamp(s.0), clamp(s.1));
        }
        for &s in inner.iter().rev() {
            self.made += 1;
            let mut outer = if mods.any(Mods::J) {
                Tree::new(s, rights::PASS_FRIEND | rights::PASS_FOE)
            } else {
                Tree::new(s, 0)
            };
            if mods.any(Mods::J) {
                outer.occ.push(t);
            } else {
                outer.empty.push(t);
            }
            t = outer;
        }
        t
    }
}

/// The unit steps a lame leap of `v` passes: straight when the components share a factor,
/// else orthogonal steps along the longer axis followed by diagonal ones.
fn lame_path(v: (i32, i32)) -> Vec<(i32, i32)> {
    let (x, y) = (v.0.abs(), v.1.abs());
    let g = gcd(x, y);
    if g > 1 {
        return vec![(v.0 / g, v.1 / g); g as usize];
    }
    let (sx, sy) = (v.0.signum(), v.1.signum());
    let ortho = if y > x { (0, sy) } else { (sx, 0) };
    let mut path = vec![ortho; (x - y).unsigned_abs() as usize];
    path.extend(std::iter::repeat_n((sx, sy), x.min(y) as usize));
    path
}

fn gcd(a: i32, b: i32) -> i32 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Leaper <-> slider (`y`, `g` in a non-final leg).
fn toggle(range: Range) -> Range {
    match range {
        Range::Limited(1) => Range::Unlimited,
        _ => Range::Limited(1),
    }
}

/// End rights of a final leg: its modalities, `mc` when none is given, plus `t`.
fn end_rights(m: Mods) -> u16 {
    let pairs = [
        (Mods::M, rights::MOVE),
        (Mods::C, rights::CAPTURE),
        (Mods::D, rights::DESTROY),
        (Mods::E, rights::EN_PASSANT),
        (Mods::K, rights::CHECK_ONLY),
    ];
    let mut r = pairs
        .iter()
        .filter(|(b, _)| m.any(*b))
        .fold(0, |r, (_, f)| r | f);
    if r == 0 {
        r = rights::MOVE_OR_CAPTURE;
    }
    if m.any(Mods::T) {
        r |= rights::TAME;
    }
    r
}

/// Rights of a square before the screen in a final hopping leg.
fn hop_rights(_m: Mods) -> u16 {
    rights::PASS_FRIEND | rights::PASS_FOE
}

/// Pass rights of a square in a leg followed by another.
fn hop_rights_later(m: Mods) -> u16 {
    let mut r = 0;
    if m.any(Mods::C) {
        r |= rights::PASS_FOE | rights::LOCUST_FOE;
    }
    if m.any(Mods::D) {
        r |= rights::PASS_FRIEND | rights::LOCUST_FRIEND;
    }
    if m.any(Mods::P | Mods::G) {
        r |= rights::PASS_FRIEND;
        if !m.any(Mods::T) {
            r |= rights::PASS_FOE;
        }
    }
    r
}

/// Sets `SETS_EP` on every non-capturing end node below the root.
fn mark_ep(t: &mut Tree, depth: usize) {
    if depth > 1 && t.rights & rights::MOVE != 0 {
        t.rights |= rights::SETS_EP;
    }
    for c in t.empty.iter_mut().chain(t.occ.iter_mut()) {
        mark_ep(c, depth + 1);
    }
}

/// True when two sibling nodes can be one node without changing any path.
fn mergeable(a: &Tree, b: &Tree) -> bool {
    let qual = !(END | PASS);
    a.step == b.step
        && a.rights & qual == b.rights & qual
        && (a.occ.is_empty() || b.occ.is_empty() || a.rights & PASS == b.rights & PASS)
}

/// Adds `t` to a sibling list, merging it into an equivalent sibling.
fn insert(list: &mut Vec<Tree>, t: Tree) {
    match list.iter_mut().find(|s| mergeable(s, &t)) {
        Some(s) => merge_into(s, t),
        None => list.push(t),
    }
}

fn merge_into(a: &mut Tree, b: Tree) {
    a.rights |= b.rights & END;
    if a.occ.is_empty() && !b.occ.is_empty() {
        a.rights = (a.rights & !PASS) | (b.rights & PASS);
    } else if a.occ.is_empty() {
        a.rights |= b.rights & PASS;
    }
    for c in b.empty {
        insert(&mut a.empty, c);
    }
    for c in b.occ {
        insert(&mut a.occ, c);
    }
}

/// Lays a tree out in pre-order ([`compile`] has checked that it fits in 16-bit ids).
fn flatten(t: &Tree, parent: Option<(NodeId, bool)>, out: &mut Trajectories) {
    let id = out.push(Node::new(t.step, t.rights), parent);
    for c in &t.empty {
        flatten(c, Some((id, false)), out);
    }
    for c in &t.occ {
        flatten(c, Some((id, true)), out);
    }
}
