//! Random move/unmove walks: after every make and unmake the incremental attack map equals a
//! from-scratch build, the incremental key equals a recomputed one, the victim-staged
//! generator yields the same set as the man-by-man generator, and the legal moves equal the
//! reference generator's (plain board, no attack map).

mod common;

use common::{start, variant, Rng, PERFT_VARIANTS};
use locust::board::moves::Move;
use locust::board::reference::{self, RefBoard};

/// Variants walked in the suite: those with perft data, plus chu (its perft belongs to a
/// later issue) for its multi-leg lion moves and locust captures, which none of the others has.
fn walked() -> impl Iterator<Item = &'static str> {
    PERFT_VARIANTS.iter().copied().chain(["chu"])
}

fn sorted(mut v: Vec<Move>) -> Vec<String> {
    let text = |m: &Move| {
        let base = m.text(|p| (b'A' + p) as char);
        format!(
            "{base} {:?}{:?}{}",
            m.kind,
            &m.extra[..m.n_extra as usize],
            if m.sets_ep { " ep" } else { "" }
        )
    };
    let mut s: Vec<String> = v.drain(..).map(|m| text(&m)).collect();
    s.sort();
    s
}

fn walk(name: &str, plies: usize, seed: u64) {
    let mut pos = start(name);
    let rules = variant(name);
    let mut rng = Rng(seed);
    let mut ops = Vec::new();
    let mut stack = Vec::new();
    let mut done = 0;
    while done < plies {
        let mut staged = Vec::new();
        pos.pseudo_moves(&mut staged);
        let mut by_man = Vec::new();
        pos.pseudo_moves_by_man(&mut by_man);
        assert_eq!(
            sorted(staged),
            sorted(by_man),
            "{name}: staged != full at {}",
            pos.fen()
        );
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal, &mut ops);
        let oracle = reference::legal_moves(&RefBoard::from_position(&pos), &rules);
        let (a, b) = (sorted(legal.clone()), sorted(oracle));
        if a != b {
            let only_a: Vec<_> = a.iter().filter(|m| !b.contains(m)).collect();
            let only_b: Vec<_> = b.iter().filter(|m| !a.contains(m)).collect();
            panic!("{name}: legal != reference at {}\nengine only: {only_a:?}\nreference only: {only_b:?}", pos.fen());
        }
        if legal.is_empty() || stack.len() > 200 || (rng.below(8) == 0 && !stack.is_empty()) {
            let Some((saved, fen)) = stack.pop() else {
                break;
            };
            pos.unmake(saved, &mut ops);
            assert_eq!(pos.fen(), fen, "{name}: unmake did not restore the FEN");
        } else {
            let m = legal[rng.below(legal.len())];
            let fen = pos.fen();
            let saved = pos.make(&m, &mut ops);
            stack.push((saved, fen));
        }
        if let Some(e) = pos.inconsistency() {
            panic!("{name}: after ply {done}: {e}\nFEN {}", pos.fen());
        }
        done += 1;
    }
}

#[test]
fn incremental_state_matches_scratch_in_every_variant() {
    let only = std::env::var("WALK_ONLY").ok();
    for (i, name) in walked().enumerate() {
        if only.as_deref().is_some_and(|o| o != name) {
            continue;
        }
        walk(name, 10_000, 0x9E37_79B9 + i as u64);
    }
}

#[test]
#[ignore = "long: 200,000 plies per variant; run with --ignored"]
fn incremental_state_matches_scratch_long() {
    for (i, name) in walked().enumerate() {
        walk(name, 200_000, 0xABCD + i as u64);
    }
}
