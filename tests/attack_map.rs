//! Random move/unmove walks: after every make and unmake the incremental attack map equals a
//! from-scratch build, the incremental key equals a recomputed one, the victim-staged
//! generator yields the same set as the man-by-man generator, and the legal moves equal the
//! reference generator's (plain board, no attack map).

mod common;

use common::{start, variant, walk_checked, PERFT_VARIANTS};

/// Variants walked in the suite: those with perft data, plus chu (its perft belongs to a
/// later issue) for its multi-leg lion moves and locust captures, which none of the others has.
fn walked() -> impl Iterator<Item = &'static str> {
    PERFT_VARIANTS.iter().copied().chain(["chu"])
}

fn walk(name: &str, plies: usize, seed: u64) {
    walk_checked(name, start(name), &variant(name), plies, seed);
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
