//! The reference generator's own reading of Fairy-Stockfish's walling rules: a move's
//! walls are found by playing the move on a copy of the plain board and looking at what it
//! leaves (amazons' arrow: the moved man's walk from its new square on that board), the
//! engine's by reasoning about the squares the move changes (`walls.rs`). The two are
//! compared by perft and the walk tests.

use variants::geometry::Coord;
use variants::{rights, Variant, Walling, WallingRule};

use super::moves::{Move, MoveKind};
use super::reference::{play, RefBoard, Walk};

/// The walled forms of `moves` (every square the rule allows after each), or under
/// `wallOrMove` the moves unchanged and the passes that place a wall.
pub(super) fn with_walls(b: &RefBoard, v: &Variant, moves: Vec<Move>) -> Vec<Move> {
    let Some(w) = &v.walling else {
        return moves;
    };
    if w.or_move {
        let mut out = moves;
        out.extend(wall_passes(b, v, w));
        return out;
    }
    let mut out = Vec::new();
    for m in moves {
        let after = play(b, v, &m);
        for c in wall_squares(b, &after, v, w, &m) {
            out.push(m.with_wall(Some(c)));
        }
    }
    out
}

/// `wallOrMove`'s walling passes, from the lowest square (a1 first, rank by rank) holding
/// a man of the side to move.
fn wall_passes(b: &RefBoard, v: &Variant, w: &Walling) -> Vec<Move> {
    let Some(at) = b
        .men()
        .filter(|(_, m)| m.colour == b.stm)
        .map(|(c, _)| c)
        .min_by_key(|c| (c.rank, c.file))
    else {
        return Vec::new();
    };
    let mut pass = Move::normal(at, at);
    pass.kind = MoveKind::Pass;
    let after = play(b, v, &pass);
    wall_squares(b, &after, v, w, &pass)
        .into_iter()
        .map(|c| pass.with_wall(Some(c)))
        .collect()
}

/// Squares `after` (the board once `m` is played, without its wall) lets `m` wall: empty
/// there, and before the move too unless the move itself left them (its start, its
/// victims, a castling rook's start); never its end square. Squares an explosion emptied
/// stay unwalled, as FSF counts its wall squares before the blast.
fn wall_squares(b: &RefBoard, after: &RefBoard, v: &Variant, w: &Walling, m: &Move) -> Vec<Coord> {
    let region = &w.region[b.stm.index()];
    let moved = m.kind != MoveKind::Drop && m.kind != MoveKind::Pass;
    let left = |c: Coord| (moved && c == m.from_coord()) || m.extras().any(|x| x == c);
    let free = |c: Coord| {
        region.contains(c)
            && after.at(c).is_none()
            && !after.walls[c.index()]
            && (c != m.to_coord() || m.kind == MoveKind::Pass)
            && (b.at(c).is_none() || left(c))
    };
    let all: Vec<Coord> = after.coords().filter(|&c| free(c)).collect();
    match w.rule {
        WallingRule::Static | WallingRule::Duck => all,
        WallingRule::Past => {
            let from = m.from_coord();
            let moved = m.kind != MoveKind::Drop && m.kind != MoveKind::Pass;
            all.into_iter().filter(|&c| moved && c == from).collect()
        }
        WallingRule::Edge => all
            .into_iter()
            .filter(|&c| edge(v, c) || beside_wall(b, v, c))
            .collect(),
        WallingRule::Arrow => {
            let reach = arrow(b, after, v, m);
            all.into_iter().filter(|c| reach.contains(c)).collect()
        }
    }
}

fn edge(v: &Variant, c: Coord) -> bool {
    c.file == 0 || c.rank == 0 || c.file + 1 == v.files || c.rank + 1 == v.ranks
}

/// A wall stands orthogonally next to `c` before the move.
fn beside_wall(b: &RefBoard, v: &Variant, c: Coord) -> bool {
    let (f, r) = (c.file as i32, c.rank as i32);
    [(1, 0), (-1, 0), (0, 1), (0, -1)].iter().any(|&(df, dr)| {
        let (nf, nr) = (f + df, r + dr);
        nf >= 0
            && nr >= 0
            && (nf as u8) < v.files
            && (nr as u8) < v.ranks
            && b.walls[Coord::new(nf as u8, nr as u8).index()]
    })
}

/// The squares the man `m` moved could move to (without capturing) from its end square,
/// as the type it was before the move (a promotion does not change its arrow).
fn arrow(b: &RefBoard, after: &RefBoard, v: &Variant, m: &Move) -> Vec<Coord> {
    if m.kind == MoveKind::Pass || m.kind == MoveKind::Drop {
        return Vec::new();
    }
    let to = m.to_coord();
    let Some(mut man) = b.at(m.from_coord()) else {
        return Vec::new();
    };
    man.virgin = false;
    let walk = Walk {
        b: after,
        v,
        man,
        from: to,
    };
    let mut out = Vec::new();
    walk.run(&mut |reach| {
        if reach.rights & rights::MOVE != 0 && after.at(reach.to).is_none() && !reach.jumped {
            out.push(reach.to);
        }
    });
    out
}

/// Where the move's wall shields (`Walling::shields`, FSF's test of pseudo-royal men): no
/// square from the castling king's start up to its end (that one excluded, unless the
/// king stays) is attacked on the board as FSF sees it for the test: the king lifted, the
/// duck lifted, the move's wall standing (not on the square asked about: a wall blocks no
/// attack on its own square), the rook still at home. Under explosions a square next to an
/// enemy royal is safe (a capture there blows the capturer's royal up).
pub(super) fn crossing_safe(b: &RefBoard, v: &Variant, m: &Move) -> bool {
    let (from, to) = (m.from_coord(), m.to_coord());
    let mut seen = b.clone();
    seen.squares[from.index()] = None;
    if v.walling
        .as_ref()
        .is_some_and(|w| w.rule == WallingRule::Duck)
    {
        seen.walls.iter_mut().for_each(|w| *w = false);
    }
    let files: Vec<u8> = if to.file > from.file {
        (from.file..to.file).collect()
    } else if to.file < from.file {
        ((to.file + 1)..=from.file).collect()
    } else {
        vec![from.file]
    };
    let them = b.stm.flip();
    let enemy_royals = super::reference::royals(b, v, them);
    files.into_iter().all(|f| {
        let c = Coord::new(f, from.rank);
        let mut board = seen.clone();
        if let Some(w) = m.wall_coord().filter(|&w| w != c) {
            board.walls[w.index()] = true;
        }
        let touching = v.blast.is_some()
            && enemy_royals.iter().any(|r| {
                (r.file as i32 - c.file as i32).abs() <= 1
                    && (r.rank as i32 - c.rank as i32).abs() <= 1
            });
        touching || !super::reference::attacked(&board, v, c, them)
    })
}

/// Puts `m`'s wall on the board just played (the duck's lifted first).
pub(super) fn place_wall(n: &mut RefBoard, v: &Variant, m: &Move) {
    let Some(c) = m.wall_coord() else {
        return;
    };
    if v.walling
        .as_ref()
        .is_some_and(|w| w.rule == WallingRule::Duck)
    {
        n.walls.iter_mut().for_each(|w| *w = false);
    }
    n.walls[c.index()] = true;
}
