//! The legality shortcuts against the reference generator where they do most: positions in
//! check (the squares that capture or block every check decide most evasions without making
//! them) and pinned men. Games are steered into checks: a checking move is preferred when
//! one exists, so the walk meets many more checks than random play would.

mod common;

use common::{legal_as_reference, start, variant, Rng};
use locust::board::position::Position;

/// Positions in check each variant must reach, compared move for move. The walks meet
/// 360-890 in most variants and about 140 in battleotk (its royals come late).
const MIN_IN_CHECK: usize = 100;
/// Plies per game before a new one starts.
const GAME_LEN: usize = 120;
/// Plies per variant.
const PLIES: usize = 2_000;

/// What a walk met: positions in check, and those among them checked by a man that burns only
/// by promoting on the move (a Tenjiku Water Buffalo entering the zone).
struct Met {
    in_check: usize,
    promotion_burns: usize,
}

/// True when some check on the side to move comes from a man that does not attack the royal
/// itself and would burn it only by promoting into a burner where it lands.
fn promotion_burn_check(pos: &Position) -> bool {
    let us = pos.side_to_move();
    let mut direct = Vec::new();
    for r in pos.royals(us) {
        pos.capturers(us.flip(), r, &mut direct);
    }
    let kinds = &pos.layout().kinds;
    pos.checkers(us).into_iter().any(|sq| {
        let promotes = pos.man_at(sq).is_some_and(|m| {
            let kind = &kinds[m.kind as usize];
            kind.promotes_to_burner && !kind.burns
        });
        promotes && pos.slot_at(sq).is_some_and(|s| !direct.contains(&s))
    })
}

fn walk_for(name: &str, seed: u64, plies: usize) -> Met {
    let rules = variant(name);
    let mut pos = start(name);
    let mut rng = Rng(seed);
    let mut ops = Vec::new();
    let mut met = Met {
        in_check: 0,
        promotion_burns: 0,
    };
    for ply in 0..plies {
        if ply % GAME_LEN == 0 {
            pos = start(name); // random games drift into bare material where nothing checks
        }
        if pos.in_check(pos.side_to_move()) {
            met.in_check += 1;
            met.promotion_burns += usize::from(promotion_burn_check(&pos));
        }
        let legal = legal_as_reference(name, &mut pos, &rules);
        if legal.is_empty() {
            pos = start(name); // mate or stalemate: start a new game
            continue;
        }
        let checking: Vec<_> = legal
            .iter()
            .filter(|m| {
                let saved = pos.make(m, &mut ops);
                let check = pos.in_check(pos.side_to_move());
                pos.unmake(saved, &mut ops);
                check
            })
            .copied()
            .collect();
        let pool = if !checking.is_empty() && rng.next() % 4 != 0 {
            &checking
        } else {
            &legal
        };
        let m = pool[(rng.next() % pool.len() as u64) as usize];
        pos.make(&m, &mut ops);
    }
    met
}

#[test]
fn legal_moves_in_check_equal_the_reference() {
    let names = [
        "chess",
        "capablanca",
        "grand",
        "shogi",
        "minishogi",
        "crazyhouse",
        "makruk",
        "makpong",
        "torishogi",
        "knightmate",
        "spartan",
        "battleotk",
    ];
    let cases: Vec<(&str, usize)> = names.into_iter().map(|n| (n, PLIES)).collect();
    walks_meet_checks(&cases, 0x5EED, 97);
}

/// Walks each (variant, plies) from seed `seed + step * i`, comparing every position in check
/// with the reference, and asserts each met at least `MIN_IN_CHECK` of them.
fn walks_meet_checks(cases: &[(&str, usize)], seed: u64, step: u64) {
    let mut short = Vec::new();
    for (i, &(name, plies)) in cases.iter().enumerate() {
        let met = walk_for(name, seed + step * i as u64, plies);
        let n = met.in_check;
        eprintln!(
            "{name}: {n} positions in check compared, {} of them by a promotion's burn",
            met.promotion_burns
        );
        if n < MIN_IN_CHECK {
            short.push(format!("{name}: {n} positions in check"));
        }
        let promotes = start(name)
            .layout()
            .kinds
            .iter()
            .any(|k| k.promotes_to_burner);
        if promotes && met.promotion_burns == 0 {
            short.push(format!("{name}: no check by a promotion's burn"));
        }
    }
    assert!(
        short.is_empty(),
        "too few checks met:\n{}",
        short.join("\n")
    );
}

/// Plies of the walks on the large shogi boards (the reference is slow there).
const LARGE_PLIES: usize = 3_000;

/// The evasion filter of `src/board/evasion.rs`: checks that a blocking man need not stop
/// (cannons, lions, range jumps) or that the counters do not hold (burners, igui).
#[test]
fn evasions_past_screens_lions_jumps_and_burners_equal_the_reference() {
    let cases = [
        ("janggi", PLIES),
        ("chu", LARGE_PLIES),
        ("tenjiku", LARGE_PLIES),
    ];
    walks_meet_checks(&cases, 0xE7A5, 131);
}
