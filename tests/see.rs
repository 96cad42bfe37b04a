//! Static exchange evaluation from the attack map against a plain capture-sequence search on
//! the reference board (same rule: least valuable capturer first, lowest square among
//! equals, best promotion, either side may stop), on random positions of several variants,
//! sliders, hoppers, lions and drops included.

mod common;

use common::{variant, Rng};
use locust::board::moves::{Move, MoveKind};
use locust::board::position::Position;
use locust::board::reference::{self, RefBoard};
use locust::board::see::ROYAL_SEE_VALUE;
use variants::geometry::Coord;
use variants::Variant;

const VARIANTS: &[&str] = &["chess", "capablanca", "xiangqi", "janggi", "shogi", "chu"];
const POSITIONS: usize = 60;
const MAX_PLIES: usize = 80;

fn value(v: &Variant, piece: u8) -> i32 {
    let p = &v.pieces[piece as usize];
    if p.royal {
        ROYAL_SEE_VALUE
    } else {
        p.value
    }
}

fn removed(b: &RefBoard, v: &Variant, m: &Move) -> i32 {
    let us = b.stm;
    let taken: i32 = std::iter::once(m.to_coord())
        .chain(m.extras())
        .filter_map(|c| b.at(c))
        .filter(|x| x.colour != us)
        .map(|x| value(v, x.piece))
        .sum();
    let promo = match (m.kind, b.at(m.from_coord())) {
        (MoveKind::Promotion, Some(mover)) => value(v, m.piece) - value(v, mover.piece),
        _ => 0,
    };
    taken + promo
}

fn plain_exchange(b: &RefBoard, v: &Variant, sq: Coord, depth: usize) -> i32 {
    if depth >= 64 || b.at(sq).is_none_or(|x| x.colour == b.stm) {
        return 0;
    }
    let best = reference::pseudo_moves(b, v)
        .into_iter()
        .filter(|m| {
            m.to_coord() == sq
                && m.from != m.to
                && matches!(m.kind, MoveKind::Normal | MoveKind::Promotion)
                && m.n_extras() == 0
        })
        .min_by_key(|m| {
            let mover = b.at(m.from_coord()).map_or(0, |x| value(v, x.piece));
            let promoted = if m.kind == MoveKind::Promotion {
                value(v, m.piece)
            } else {
                0
            };
            (mover, m.from, std::cmp::Reverse(promoted))
        });
    let Some(m) = best else { return 0 };
    let gain = removed(b, v, &m);
    let next = reference::play(b, v, &m);
    (gain - plain_exchange(&next, v, sq, depth + 1)).max(0)
}

fn plain_see(b: &RefBoard, v: &Variant, m: &Move) -> i32 {
    let next = reference::play(b, v, m);
    removed(b, v, m) - plain_exchange(&next, v, m.to_coord(), 1)
}

fn random_position(name: &str, rng: &mut Rng) -> Position {
    let mut pos = common::start(name);
    let mut ops = Vec::new();
    for _ in 0..rng.below(MAX_PLIES) {
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal, &mut ops);
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.below(legal.len())];
        pos.make(&m, &mut ops);
    }
    pos
}

#[test]
fn see_equals_a_plain_capture_sequence_search() {
    let mut rng = Rng(0x5EE5_EE00);
    let mut compared = 0;
    let mut nonzero = 0;
    for &name in VARIANTS {
        let v = variant(name);
        for _ in 0..POSITIONS {
            let mut pos = random_position(name, &mut rng);
            let b = RefBoard::from_position(&pos);
            let mut legal = Vec::new();
            let mut ops = Vec::new();
            pos.legal_moves(&mut legal, &mut ops);
            let captures: Vec<Move> = legal
                .into_iter()
                .filter(|m| pos.victim_class(m).is_some())
                .collect();
            for m in &captures {
                let fen = pos.fen();
                let got = pos.see(m, &mut ops);
                let want = plain_see(&b, &v, m);
                assert_eq!(got, want, "{name}: SEE of {m:?} in {fen}");
                assert_eq!(pos.fen(), fen, "SEE left the position as it found it");
                compared += 1;
                nonzero += usize::from(got != removed(&b, &v, m));
            }
        }
    }
    assert!(compared >= 300, "only {compared} captures compared");
    assert!(nonzero >= 50, "only {nonzero} captures met a recapture");
}

/// Hand-checked, with the variant's own piece values: a rook takes a pawn defended by a
/// pawn, the same with a queen behind the rook (an x-ray), an undefended pawn, and a bishop
/// capture the defender declines because recapturing would lose the rook.
#[test]
fn see_hand_checked_positions() {
    let v = variant("chess");
    let val = |letter: char| {
        let p = v
            .pieces
            .iter()
            .position(|p| p.letter == letter)
            .expect("piece");
        v.pieces[p].value
    };
    let (p, b, r) = (val('P'), val('B'), val('R'));
    let cases: &[(&str, &str, i32)] = &[
        ("4k3/8/2p5/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", p - r),
        ("4k3/8/2p5/3p4/8/8/3R4/3QK3 w - - 0 1", "d2d5", p - r + p),
        ("4k3/8/8/3p4/8/8/8/3RK3 w - - 0 1", "d1d5", p),
        ("3rk3/8/8/3p4/8/5B2/8/3RK3 w - - 0 1", "f3d5", p),
    ];
    assert!(b < r, "the last case needs a bishop worth less than a rook");
    for &(fen, text, want) in cases {
        let mut pos = common::start("chess").with_fen(fen).expect("fen");
        let mut legal = Vec::new();
        let mut ops = Vec::new();
        pos.legal_moves(&mut legal, &mut ops);
        let m = legal
            .iter()
            .find(|m| m.text(|_| 'q') == text)
            .unwrap_or_else(|| panic!("{text} is legal in {fen}"));
        assert_eq!(pos.see(m, &mut ops), want, "{fen} {text}");
    }
}

/// The checkers read from the map: none, one, and a double check by a knight and a rook.
#[test]
fn checkers_are_read_from_the_map() {
    use locust::board::types::Colour;
    let cases: &[(&str, usize)] = &[
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", 0),
        ("4k3/8/8/8/8/8/8/R3K3 b - - 0 1", 0),
        ("4k3/8/8/8/8/8/8/4KR2 b - - 0 1", 0),
        ("4k3/8/8/8/8/8/8/4RK2 b - - 0 1", 1),
        ("4k3/8/3N4/8/8/8/8/4RK2 b - - 0 1", 2),
    ];
    for &(fen, n) in cases {
        let pos = common::start("chess").with_fen(fen).expect("fen");
        assert_eq!(pos.checkers(Colour::Black).len(), n, "{fen}");
    }
}

/// The capture paths onto a square read from the map's list without making a move: a pawn's
/// diagonal and a queen's file count, a pawn's push does not; a mover's own path is left out
/// when asked; a xiangqi cannon counts beyond its screen only.
#[test]
fn capturers_onto_reads_capture_paths() {
    use locust::board::types::Colour;
    let chess = common::start("chess")
        .with_fen("4k3/8/8/3p4/4P3/8/8/3QK3 w - - 0 1")
        .expect("fen");
    let sq = |pos: &Position, c: (u8, u8)| pos.layout().sq(Coord::new(c.0, c.1));
    let (d5, e4, e5) = (sq(&chess, (3, 4)), sq(&chess, (4, 3)), sq(&chess, (4, 4)));
    let value = |pos: &Position, c| pos.see_value(pos.man_at(sq(pos, c)).expect("man").kind);
    let (pawn, queen) = (value(&chess, (4, 3)), value(&chess, (3, 0)));
    assert!(pawn < queen);
    assert_eq!(
        chess.capturers_onto(Colour::White, d5, None),
        (2, Some(pawn))
    );
    assert_eq!(
        chess.capturers_onto(Colour::White, d5, Some(e4)),
        (1, Some(queen))
    );
    assert_eq!(chess.capturers_onto(Colour::Black, d5, None), (0, None));
    assert_eq!(
        chess.capturers_onto(Colour::Black, e4, None),
        (1, Some(pawn))
    );
    assert_eq!(
        chess.capturers_onto(Colour::White, e5, None).0,
        0,
        "a push is no capture"
    );
    // Red cannon on b1 (file 1, rank 0), a red pawn screen on b4, black pawn on b6.
    let xq = common::start("xiangqi")
        .with_fen("4k4/9/9/9/1p7/9/1P7/9/9/1C1K5 w - - 0 1")
        .expect("fen");
    let cannon = value(&xq, (1, 0));
    assert_eq!(
        xq.capturers_onto(Colour::White, sq(&xq, (1, 5)), None),
        (1, Some(cannon))
    );
    assert_eq!(
        xq.capturers_onto(Colour::White, sq(&xq, (1, 1)), None).0,
        0,
        "no screen yet"
    );
}

/// The exchange read from the attack map's lists without a make answers exactly as the
/// exchange that makes every capture, wherever it answers at all; and it answers for most
/// captures of the variants without hoppers or lions (else it would save nothing).
#[test]
fn see_by_lists_equals_the_exact_see() {
    const NAMES: &[&str] = &[
        "chess",
        "capablanca",
        "grand",
        "shatranj",
        "makruk",
        "courier",
        "crazyhouse",
        "xiangqi",
        "janggi",
        "shogi",
        "minishogi",
        "chu",
    ];
    let mut rng = Rng(0x5EE5_0B15);
    for &name in NAMES {
        let (mut compared, mut answered, mut nonzero) = (0, 0, 0);
        for _ in 0..POSITIONS {
            let mut pos = random_position(name, &mut rng);
            let (mut pseudo, mut ops) = (Vec::new(), Vec::new());
            pos.pseudo_moves(&mut pseudo);
            pseudo.retain(|m| pos.victim_class(m).is_some());
            for m in &pseudo {
                let exact = pos.see_exact(m, &mut ops);
                compared += 1;
                if let Some(quick) = pos.see_by_lists(m) {
                    assert_eq!(quick, exact, "{name}: SEE of {m:?} in {}", pos.fen());
                    answered += 1;
                    let victim = pos.man_at(pos.layout().sq(m.to_coord()));
                    let gain = victim.map_or(0, |v| pos.see_value(v.kind));
                    nonzero += usize::from(quick != gain);
                }
            }
        }
        assert!(compared >= 100, "{name}: only {compared} captures compared");
        if matches!(name, "chess" | "capablanca" | "grand" | "shogi") {
            assert!(
                answered * 2 >= compared && nonzero >= 20,
                "{name}: answered {answered} of {compared}, {nonzero} with a recapture"
            );
        }
        eprintln!("{name}: lists answered {answered} of {compared} ({nonzero} recaptured)");
    }
}
