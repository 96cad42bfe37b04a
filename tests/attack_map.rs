//! Random move/unmove walks: after every make and unmake the incremental attack map equals a
//! from-scratch build, the incremental key equals a recomputed one, the victim-staged
//! generator yields the same set as the man-by-man generator, the stages are ordered and
//! complete, the legal moves equal the reference generator's (plain board, no attack map) and
//! every make gives the position the reference's own `play` gives.

mod common;

use common::{perft_cases, start, variant, walk_checked, Made, PERFT_VARIANTS};
use locust::board::layout::{Layout, NO_CELL};
use locust::board::position::Position;
use variants::rights;

/// Variants walked in the suite: those with perft data, plus chu (its perft belongs to a
/// later issue) for its multi-leg lion moves and locust captures, which none of the others has.
fn walked() -> Vec<&'static str> {
    let only = std::env::var("WALK_ONLY").ok();
    let all: Vec<&str> = PERFT_VARIANTS.iter().copied().chain(["chu"]).collect();
    let chosen: Vec<&str> = all
        .into_iter()
        .filter(|n| only.as_deref().is_none_or(|o| o == *n))
        .collect();
    assert!(
        !chosen.is_empty(),
        "WALK_ONLY={only:?} matches no walked variant"
    );
    chosen
}

/// What a variant's compiled rules let its men do, so the walk must have done it.
#[derive(Debug, Default)]
struct Has {
    castles: bool,
    en_passant: bool,
    promotions: bool,
    drops: bool,
    locust: bool,
    igui: bool,
}

fn has(lay: &Layout, by_colour: &[Vec<bool>; 2]) -> Has {
    let v = &lay.variant;
    let present: Vec<bool> = (0..v.pieces.len())
        .map(|p| by_colour[0][p] || by_colour[1][p])
        .collect();
    let mut h = Has {
        castles: v.castling.as_ref().is_some_and(|c| {
            present[c.king_type as usize] && c.rook_types.iter().any(|&r| present[r as usize])
        }),
        promotions: v
            .pieces
            .iter()
            .enumerate()
            .any(|(i, p)| present[i] && (!p.promotions.is_empty() || p.promoted.is_some())),
        drops: v.drops.enabled,
        ..Has::default()
    };
    // E.p. needs a double step by one side and an e.p. capture by the other.
    let cells_have = |colour: usize, flag: u16| {
        lay.kinds
            .iter()
            .filter(|k| by_colour[colour][k.piece as usize])
            .any(|k| k.cells[colour].cells.iter().any(|c| c.rights & flag != 0))
    };
    h.en_passant =
        (0..2).any(|c| cells_have(c, rights::SETS_EP) && cells_have(1 - c, rights::EN_PASSANT));
    let kinds = lay.kinds.iter().filter(|k| present[k.piece as usize]);
    for t in kinds.flat_map(|k| k.cells.iter()) {
        for c in &t.cells {
            if c.locust_back != NO_CELL {
                h.locust = true;
                // Back where it started: a capture without moving (igui).
                let mut sum = 0i32;
                let mut at = Some(c);
                while let Some(cell) = at {
                    sum += cell.offset as i32;
                    at = (cell.parent != NO_CELL).then(|| &t.cells[cell.parent as usize]);
                }
                h.igui |= sum == 0 && c.rights & rights::MOVE != 0;
            }
        }
    }
    h
}

/// Walks from the start position and from every perft position of the variant; what was
/// made, and which piece types stood on the boards walked from.
fn walk_variant(name: &str, plies: usize, seed: u64) -> (Made, [Vec<bool>; 2]) {
    let rules = variant(name);
    let first = start(name);
    let mut positions: Vec<Position> = vec![first.clone()];
    for case in perft_cases(name) {
        let pos = first
            .with_fen(&case.fen)
            .unwrap_or_else(|e| panic!("{name} {}: {e}", case.id));
        positions.push(pos);
    }
    let mut present = [
        vec![false; rules.pieces.len()],
        vec![false; rules.pieces.len()],
    ];
    for pos in &positions {
        for (_, m) in pos.live() {
            present[m.colour.index()][pos.piece_of(m) as usize] = true;
        }
    }
    // Short walks from many starts: castling and e.p. live near the starting positions.
    let starts = (plies / WALK_LEN).max(positions.len().min(MAX_WALK_STARTS));
    let mut total = Made::default();
    for i in 0..starts {
        let pos = positions[i % positions.len()].clone();
        let m = walk_checked(name, pos, &rules, WALK_LEN, seed + i as u64);
        total.add(&m);
    }
    (total, present)
}

/// Most perft positions a suite walk starts from when it has fewer plies than positions to
/// share (chu keeps 200 shogiops positions; its hand-made ones come first in the file).
const MAX_WALK_STARTS: usize = 48;

/// Plies of one walk before it starts again elsewhere.
const WALK_LEN: usize = 250;

/// At least this many moves of each sort the variant allows, per walk of a variant.
const MIN_MADE: usize = 3;

fn check_coverage(name: &str, made: &Made, h: &Has) -> Vec<String> {
    let mut short = Vec::new();
    let wanted = [
        ("castling", h.castles, made.castles),
        ("en passant", h.en_passant, made.en_passant),
        ("promotion", h.promotions, made.promotions),
        ("drop", h.drops, made.drops),
        ("locust", h.locust, made.locust),
        ("igui", h.igui, made.igui),
    ];
    for (what, allowed, n) in wanted {
        if allowed && n < MIN_MADE {
            short.push(format!("{name}: {n} {what} moves, fewer than {MIN_MADE}"));
        }
    }
    short
}

/// Threads the suite walk runs on: the variants are independent, and the walk is the
/// longest test of the suite (CI has two cores).
const WALK_THREADS: usize = 2;

#[test]
fn incremental_state_matches_scratch_in_every_variant() {
    let names = walked();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let done = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..WALK_THREADS {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&name) = names.get(i) else { break };
                let walked = walk_variant(name, 10_000, 0x9E37_79B9 + 64 * i as u64);
                done.lock().unwrap().push((i, walked));
            });
        }
    });
    // A walk's panic has reached the test through the scope: every variant is here.
    let mut done = done.into_inner().unwrap();
    done.sort_by_key(|&(i, _)| i);
    let mut short = Vec::new();
    for (i, (made, present)) in done {
        let name = names[i];
        println!("{name}: {made:?}");
        short.extend(check_coverage(
            name,
            &made,
            &has(start(name).layout(), &present),
        ));
    }
    assert!(short.is_empty(), "walks too narrow:\n{}", short.join("\n"));
}

#[test]
#[ignore = "long: 200,000 plies per variant; run with --ignored"]
fn incremental_state_matches_scratch_long() {
    for (i, name) in walked().into_iter().enumerate() {
        walk_variant(name, 200_000, 0xABCD + 64 * i as u64);
    }
}

/// The walk sees make: a make that put the castling rook one square off (simulated by
/// moving it with the set-up API after a correct make) keeps every incremental structure
/// consistent, so only the comparison with the reference's play can catch it.
#[test]
#[should_panic(expected = "differs from the reference's play")]
fn a_wrong_castling_rook_square_fails_the_walk() {
    use locust::board::moves::MoveKind;
    use variants::geometry::Coord;
    let name = "chess";
    let rules = variant(name);
    let mut pos = start(name)
        .with_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
        .expect("fen");
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal, &mut Vec::new());
    let castle = legal
        .into_iter()
        .find(|m| m.kind == MoveKind::Castle && m.to_coord().file == 6)
        .expect("king-side castling is legal");
    let before = locust::board::reference::RefBoard::from_position(&pos);
    let counters = (pos.halfmove_clock(), pos.fullmove_number());
    pos.make(&castle, &mut Vec::new());
    let (f1, e1) = (Coord::new(5, 0), Coord::new(4, 0));
    let rook = pos
        .variant()
        .pieces
        .iter()
        .position(|p| p.name.to_lowercase() == "rook");
    pos.remove(f1).expect("the rook stands on f1");
    pos.place(
        e1,
        rook.expect("chess has a rook") as u8,
        locust::board::types::Colour::White,
        false,
    )
    .expect("e1 is empty");
    assert_eq!(
        pos.inconsistency(),
        None,
        "the set-up API keeps the position consistent"
    );
    common::check_play(name, &before, counters, &pos, &castle, &rules);
}

/// What the engine does not yet do in tenjiku, in one place; the reference is told to do the
/// same so that the walk checks everything else. The list may only shrink (burning and the
/// range jumps left it: the engine and the reference now both do them).
const TENJIKU_KNOWN_DIVERGENCES: &[&str] = &[];

/// Tenjiku joins the walks with its full rules: burning and range jumps are made, counted
/// and compared with the reference every ply.
#[test]
fn tenjiku_walks_with_burning_and_range_jumps() {
    let name = "tenjiku";
    let rules = variant(name);
    assert!(TENJIKU_KNOWN_DIVERGENCES.is_empty());
    let mut made = Made::default();
    for (i, fen) in [None, Some(TENJIKU_MIDDLE)].into_iter().enumerate() {
        let pos = match fen {
            None => start(name),
            Some(f) => start(name).with_fen(f).expect("tenjiku middle-game FEN"),
        };
        let plies = TENJIKU_PLIES / 2;
        made.add(&walk_checked(
            name,
            pos,
            &rules,
            plies,
            0x7E41_1C00 + i as u64,
        ));
    }
    println!("tenjiku: {made:?}");
    assert!(made.promotions >= 10, "{made:?}");
    assert!(made.burns >= 50 && made.burned >= 80, "{made:?}");
    // A range jump must capture (TSA rules), so few are on offer: this walk makes about 20.
    // Every ply still compares all of them, made or not, with the reference.
    assert!(made.range_jumps >= 15, "{made:?}");
}

/// Plies of the tenjiku walk in the suite (the reference is slow on 16x16 with 156 men).
const TENJIKU_PLIES: usize = 5_000;

/// A tenjiku middle game (reached by a random walk): both camps opened, Fire Demons and
/// jumping generals of both sides in play.
const TENJIKU_MIDDLE: &str = "lnficsgekq'scifnl/a1c!c!1x4w!tc!c!1+V'/s'v'b1de!2h!3db1s'/mv1f!1q4e!1f!2m/p+V'2+B1p1tpd'pp3/4p5p5/16/12d!3/16/3Q'3V!+w!7/4D'11/d!2PPPP1P7/S'1+rW!3D!5+h+v'1/2BHD4T2+r1+v+E!/A1C!C!1T1L!QX5A/LNFICSGKEGS1IFNL b - - 5 59";
