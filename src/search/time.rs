//! Time management: from the clock (sudden death, increment, moves to go) or a fixed time per
//! move to a soft limit (no new iteration after part of it) and a hard limit (stop at once).

use std::time::Duration;

use super::params::*;
use super::Limits;
use crate::board::types::Colour;

/// The two limits of one search; `None` means no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Past this, no new iteration starts.
    pub soft: Option<Duration>,
    /// Past this, the search stops.
    pub hard: Option<Duration>,
}

/// The moves a sudden-death clock must last, for a position with `men` men on the board:
/// [`DEFAULT_MOVES_TO_GO`], more with [`MANY_MEN`] (chu, tenjiku), whose games last longer.
pub fn expected_moves(men: usize) -> u32 {
    if men <= MANY_MEN {
        return DEFAULT_MOVES_TO_GO;
    }
    let by_men = men as u64 * MOVES_TO_GO_PER_MAN_PER_MILLE / 1000;
    DEFAULT_MOVES_TO_GO.max(by_men as u32)
}

/// The budget of a search by `us` under `limits` in a position with `men` men on the board,
/// keeping `overhead` for the GUI's lag.
pub fn budget(limits: &Limits, us: Colour, men: usize, overhead: Duration) -> Budget {
    if let Some(t) = limits.movetime {
        let t = t.saturating_sub(overhead).max(Duration::from_millis(1));
        return Budget {
            soft: Some(t),
            hard: Some(t),
        };
    }
    let Some(clock) = &limits.clock else {
        return Budget {
            soft: None,
            hard: None,
        };
    };
    let left = clock.time[us.index()].saturating_sub(overhead);
    let inc = clock.inc[us.index()];
    let expected = expected_moves(men);
    let mtg = clock.movestogo.unwrap_or(expected).clamp(1, expected);
    let left_ms = left.as_millis() as u64;
    let cap = if mtg == 1 {
        left_ms * 8 / 10
    } else {
        left_ms * MAX_SHARE_PER_MILLE / 1000
    };
    let soft = (left_ms / mtg as u64 + increment_share(left_ms, inc)).min(cap);
    let hard = (soft * HARD_FACTOR as u64).min(cap.max(soft));
    Budget {
        soft: Some(Duration::from_millis(soft.max(1))),
        hard: Some(Duration::from_millis(hard.max(1))),
    }
}

/// The part of the increment (milliseconds) spent on this move: [`INCREMENT_PER_MILLE`] of
/// it, less in proportion below [`LOW_CLOCK_INCREMENTS`] increments left, so the clock
/// grows back where a few stalls of the machine would otherwise flag.
fn increment_share(left_ms: u64, inc: Duration) -> u64 {
    let inc_ms = inc.as_millis() as u64;
    let full = inc_ms * INCREMENT_PER_MILLE / 1000;
    let low = inc_ms * LOW_CLOCK_INCREMENTS;
    if left_ms >= low {
        full
    } else {
        full * left_ms / low
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Clock;

    /// Men at chess's start.
    const CHESS_MEN: usize = 32;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                time: [Duration::from_millis(ms); 2],
                inc: [Duration::from_millis(inc); 2],
                movestogo: mtg,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn never_plans_past_the_clock() {
        for (ms, inc, mtg) in [
            (10, 0, None),
            (100, 100, None),
            (10_000, 100, None),
            (60_000, 0, Some(1)),
            (500, 0, Some(40)),
        ] {
            let b = budget(
                &clock(ms, inc, mtg),
                Colour::White,
                CHESS_MEN,
                Duration::from_millis(30),
            );
            let hard = b.hard.unwrap().as_millis() as u64;
            assert!(
                hard <= ms.saturating_sub(30).max(1),
                "{ms} {inc} {mtg:?}: {b:?}"
            );
            assert!(b.soft.unwrap() <= b.hard.unwrap());
        }
    }

    /// A long game at 10s+0.1s in which every move takes a third more than the soft limit
    /// (iterations run past it): the clock settles near a second, not a few tenths.
    #[test]
    fn a_long_game_keeps_a_reserve_on_the_clock() {
        let (inc, overhead) = (100, 30);
        let mut left: u64 = 10_000;
        let mut lowest = left;
        for ply in 0..400 {
            let b = budget(
                &clock(left, inc, None),
                Colour::White,
                CHESS_MEN,
                Duration::from_millis(overhead),
            );
            let used = (b.soft.unwrap().as_millis() as u64 * 4 / 3)
                .min(b.hard.unwrap().as_millis() as u64);
            left = left - used + inc;
            if ply >= 100 {
                lowest = lowest.min(left);
            }
        }
        assert!(lowest >= 900, "the clock fell to {lowest} ms");
    }

    #[test]
    fn spends_more_with_more_time() {
        let small = budget(
            &clock(10_000, 100, None),
            Colour::Black,
            CHESS_MEN,
            Duration::ZERO,
        );
        let big = budget(
            &clock(60_000, 100, None),
            Colour::Black,
            CHESS_MEN,
            Duration::ZERO,
        );
        assert!(big.soft > small.soft);
        let fixed = Limits {
            movetime: Some(Duration::from_millis(500)),
            ..Limits::default()
        };
        let b = budget(&fixed, Colour::White, CHESS_MEN, Duration::from_millis(20));
        assert_eq!(b.hard, Some(Duration::from_millis(480)));
    }

    #[test]
    fn many_men_spread_the_clock_over_more_moves() {
        // Chess and the like keep the default; chu's 92 men and tenjiku's 156 plan for
        // longer games, so a sudden-death clock lasts into their middle games.
        assert_eq!(expected_moves(CHESS_MEN), DEFAULT_MOVES_TO_GO);
        assert_eq!(expected_moves(40), DEFAULT_MOVES_TO_GO);
        assert_eq!(expected_moves(MANY_MEN), DEFAULT_MOVES_TO_GO);
        assert_eq!(expected_moves(92), 138);
        let limits = clock(30_000, 200, None);
        let chess = budget(&limits, Colour::White, CHESS_MEN, Duration::ZERO);
        let chu = budget(&limits, Colour::White, 92, Duration::ZERO);
        assert!(chu.soft < chess.soft, "{chu:?} against {chess:?}");
        // With moves to go given, the same cap applies.
        let mtg = budget(
            &clock(30_000, 0, Some(200)),
            Colour::White,
            92,
            Duration::ZERO,
        );
        assert_eq!(mtg.soft, Some(Duration::from_millis(30_000 / 138)));
    }
}
