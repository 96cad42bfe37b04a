//! The row solver's unit tests: its geometry, decoding and word tricks against plain twins.

use super::captures::Outcomes;
use super::geometry::{div_rem, flip_word, Cursor, Geometry, MAX_ROW};
use crate::egt::material::Material;
use crate::egt::material::MAX_MEN;
use crate::egt::rules::Rules;
use crate::egt::value::{loss, win, DRAW, ILLEGAL, WON_NOW};
use crate::egt::word::Word;
use crate::egt::{Builder, Settings};
use variants::rights;

/// The unsolved table of a built-in variant's material.
fn empty_table(variant: &str, material: &str) -> crate::egt::solve::Table {
    let all = variants::builtins().unwrap_or_else(|_| unreachable!());
    let compiled = variants::find(&all, variant).unwrap_or_else(|| unreachable!());
    let rules = Rules::new(compiled, None, false).unwrap_or_else(|_| unreachable!());
    let mut builder = Builder::new(rules, Settings::default());
    let men = Material::parse(compiled, material).unwrap_or_else(|_| unreachable!());
    builder.empty_table(&men).unwrap_or_else(|_| unreachable!())
}

/// The last man's moves become word operations where they are leaps and whole rays
/// (a rook: four rays; a queen: eight; a knight: leaps alone), and stay path by path
/// where the board is not the row (an advisor in its palace).
/// The word operations reach exactly the squares the paths reach, from every square,
/// on boards of many men.
#[test]
fn last_man_rays_reach_what_its_paths_reach() {
    fn check(variant: &str, material: &str, rays: usize, pure: bool) {
        let table = empty_table(variant, material);
        let geo = Geometry::<u128>::new(&table);
        let what = format!("{variant} {material}");
        assert_eq!(
            (geo.last_slides.len(), geo.last_pure),
            (rays, pure),
            "{what}"
        );
        if !pure {
            return;
        }
        // Every square's paths, made one by one from the compiled moves.
        let last = table.men() - 1;
        let pm = &table.rules.moves[table.colour[last] as usize][table.piece[last] as usize];
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            // A few other men on random squares.
            let occ = (0..4).fold(0u128, |o, k| {
                o | 1u128 << ((seed >> (8 * k)) % geo.len as u64)
            });
            for a in (0..geo.len).filter(|&a| occ >> a & 1 == 0) {
                let mut want = 0u128;
                for path in &pm.from[a] {
                    let free = <u128 as Word>::of_set(path.cond.empty) & occ == 0;
                    if path.rights & rights::MOVE != 0 && free && occ >> path.to & 1 == 0 {
                        want |= 1u128 << path.to;
                    }
                }
                // The squares reached from `a`: those whose one-square set `a` reaches.
                let got = (0..geo.len)
                    .filter(|&b| geo.reach(1u128 << b, occ) >> a & 1 != 0 && occ >> b & 1 == 0)
                    .fold(0u128, |acc, b| acc | 1u128 << b);
                assert_eq!(got, want, "{what}: from {a}, men on {occ:#x}");
            }
        }
    }
    check("chess", "KvKR", 4, true);
    check("chess", "KvKQ", 8, true);
    check("chess", "KvKB", 4, true);
    check("chess", "KvKN", 0, true);
    check("chess", "KvK", 0, true);
    check("capablanca", "KvKA", 4, true);
    check("xiangqi", "KvKR", 4, true);
    // A cannon moves as a rook (its captures over a screen are not moves).
    check("xiangqi", "KvKC", 4, true);
    check("xiangqi", "KAvK", 0, false);
}

/// A royal last gives its place to a piece (not the first man, not a pawn); a piece
/// last, or alike men, keep the order.
#[test]
fn a_piece_is_last_rather_than_a_royal() {
    let last = |variant: &str, material: &str| {
        let table = empty_table(variant, material);
        let last = table.men() - 1;
        (
            table.royals.iter().any(|&r| r >> last & 1 != 0),
            table.perm.is_some(),
        )
    };
    assert_eq!(last("chess", "KRvKP"), (false, true));
    assert_eq!(last("chess", "KBNvK"), (false, true));
    assert_eq!(last("chess", "KQvKR"), (false, false));
    assert_eq!(last("chess", "KPvKP"), (true, true));
    assert_eq!(last("chess", "KvK"), (true, false));
}

/// A row's digits give the indexer's decode of the row's first entry, row by row, with
/// men alone in their factors and with alike men (a pair, a triple), on 64 squares
/// and on 80; and so does a cursor's (see [`Cursor`]), wherever it was before.
#[test]
fn row_digits_decode_as_the_indexer() {
    fn check<W: Word>(variant: &str, material: &str) {
        let table = empty_table(variant, material);
        let geo = Geometry::<W>::new(&table);
        assert!(geo.digits.is_some(), "{material}: row numbers fit 32 bits");
        let (ix, men) = (&table.index, table.men());
        let (mut squares, mut want) = ([0u8; MAX_MEN], [0u8; MAX_MEN]);
        for row in 0..ix.size / geo.len {
            let occ = geo.decode(ix, row, &mut squares);
            ix.decode(row * geo.len, &mut want[..men]);
            assert_eq!(squares[..men], want[..men], "{material} row {row}");
            let others = (0..men - 1).fold(W::ZERO, |o, i| o | W::bit(squares[i] as usize));
            assert!(occ == others, "{material} row {row}: occupancy");
        }
        // The cursor's decode against the whole one, on a walk in order that skips
        // rows now and then (a sweep passes rows without undecided positions) and
        // jumps back and forth at random.
        let rows = ix.size / geo.len;
        let (mut at, mut seed, mut row) = (Cursor::<W>::new(), 0x9e37_79b9_u64, 0usize);
        for step in 0..3 * rows {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            row = match (seed >> 33) % 16 {
                0 => (seed >> 40) as usize % rows,
                1..=3 => (row + 2 + (seed >> 50) as usize % 70) % rows,
                _ => (row + 1) % rows,
            };
            let occ = geo.decode_at(ix, row, &mut at);
            let whole = geo.decode(ix, row, &mut squares);
            assert_eq!(
                at.squares[..men - 1],
                squares[..men - 1],
                "{material} row {row}, step {step}"
            );
            assert!(occ == whole, "{material} row {row}: the cursor's occupancy");
        }
    }
    check::<u64>("chess", "KQvKR");
    check::<u64>("chess", "KBBvK");
    check::<u64>("chess", "KPPvKP");
    check::<u64>("spartan", "KvKKH");
    check::<u64>("chess", "KNNNvK");
    check::<u128>("capablanca", "KAAvK");
}

/// Every pawn step to an empty square, from every row of every slice, reaches a slice
/// solved before it and listed in its needs (when it has a list): found row by row
/// through the indexer's encoding, against [`super::slices::slice_needs`]'s shares. Berolina's
/// diagonal steps leave the first man's region, where a slice waits for the levels.
#[test]
fn slice_needs_hold_every_pawn_step() {
    fn check(variant: &str, material: &str) -> (usize, usize) {
        let table = empty_table(variant, material);
        let geo = Geometry::<u64>::new(&table);
        let (ix, men, pawns) = (&table.index, table.men(), geo.heights.len());
        assert!(pawns > 0, "{material}: solved by levels");
        let per = ix.stride_of(pawns - 1) / geo.len;
        let slices = ix.size / geo.len / per;
        let mut squares = [0u8; MAX_MEN];
        let height = |squares: &[u8; MAX_MEN]| -> usize {
            (0..pawns)
                .map(|i| geo.heights[i][squares[i] as usize] as usize)
                .sum()
        };
        let mut order: Vec<usize> = (0..slices).collect();
        order.sort_by_key(|&s| {
            geo.decode(ix, s * per, &mut squares);
            height(&squares)
        });
        let mut at = vec![0; slices];
        for (k, &s) in order.iter().enumerate() {
            at[s] = k;
        }
        let (mut steps, mut listed) = (0, 0);
        for slice in 0..slices {
            let needs = super::slices::slice_needs(&geo, ix, per, slice, &at);
            listed += usize::from(needs.is_some());
            for row in slice * per..(slice + 1) * per {
                geo.decode(ix, row, &mut squares);
                for i in 0..pawns {
                    for st in geo.hits[i][squares[i] as usize]
                        .iter()
                        .filter(|st| st.pushes)
                    {
                        let mut next = squares;
                        next[i] = st.sq;
                        let Some(idx) = ix.encode(&next[..men]) else {
                            continue;
                        };
                        let to = idx / geo.len / per;
                        steps += 1;
                        assert!(at[to] < at[slice], "{material}: row {row} steps up");
                        if let Some(list) = &needs {
                            assert!(list.contains(&at[to]), "{material}: row {row}");
                        }
                    }
                }
            }
        }
        (steps, listed)
    }
    for (variant, material) in [("chess", "KPvKP"), ("chess", "KRvKP")] {
        let (steps, listed) = check(variant, material);
        assert!(steps > 10_000, "{material}: {steps} steps");
        assert!(listed > 0, "{material}: every slice waits for the levels");
    }
    let (steps, _) = check("berolina", "KPvKP");
    assert!(steps > 10_000, "berolina: {steps} steps");
}

/// The reciprocal division against the hardware's, for the divisors of a row number.
#[test]
fn reciprocal_division_is_exact() {
    for n in (1u32..=130).chain([2016, 10_416, 65_536, 1 << 20]) {
        let magic = (u64::MAX / u64::from(n)).wrapping_add(1);
        let samples = (0u32..5000).chain([u32::MAX, u32::MAX - 1, n * 1000 - 1, n * 1000]);
        for r in samples.chain((0u32..2000).map(|k| k.wrapping_mul(2_654_435_761))) {
            assert_eq!(div_rem(r, n, magic), (r / n, r % n), "{r} / {n}");
        }
    }
}

/// The word operations against the square maps they stand for, square by square.
#[test]
fn flips_move_each_square_like_the_board_maps() {
    let board = crate::egt::board::Board::new(8, 8).unwrap_or_else(|| unreachable!());
    for map in &board.maps {
        let found = (0..8)
            .map(|c| (c & 4 != 0, c & 1 != 0, c & 2 != 0))
            .filter(|&flip| (0..64).all(|b| flip_word(1u64 << b, flip) == 1u64 << map[b]))
            .count();
        assert_eq!(found, 1);
    }
    assert_eq!(
        flip_word(0x0123_4567_89ab_cdef, (false, false, false)),
        0x0123_4567_89ab_cdef
    );
}

/// A row's codes added at once equal the same codes added position by position, for
/// rows of every length a board gives (the last bytes of a word ragged), in words of 64
/// and 128 bits, and several conversions added one after the other.
#[test]
fn codes_added_by_row_equal_codes_added_one_by_one() {
    fn check<W: Word>(len: usize, seed: &mut u64) {
        let (mut one, mut row) = (Outcomes::<W>::new(), Outcomes::<W>::new());
        let mut any = W::ZERO;
        for _ in 0..3 {
            let mut codes = [ILLEGAL; MAX_ROW];
            for (b, c) in codes[..len].iter_mut().enumerate() {
                *seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let plies = (*seed >> 40) as u8 % 251;
                *c = [ILLEGAL, DRAW, WON_NOW, win(plies), loss(plies)][(*seed >> 33) as usize % 5];
                if *c != ILLEGAL {
                    one.add(b, *c);
                    any |= W::bit(b);
                }
            }
            let moved = row.add_row(&codes, len);
            assert!(
                moved
                    == (codes[..len].iter().enumerate())
                        .filter(|(_, &c)| c != ILLEGAL)
                        .fold(W::ZERO, |w, (b, _)| w | W::bit(b))
            );
        }
        assert!(one.any == row.any && row.any == any, "{len}: any");
        assert!(
            one.won == row.won && one.open == row.open,
            "{len}: won, open"
        );
        assert_eq!(one.best[..len], row.best[..len], "{len}: best");
        assert_eq!(one.worst[..len], row.worst[..len], "{len}: worst");
    }
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    for len in [4, 9, 16, 25, 60, 63, 64] {
        for _ in 0..50 {
            check::<u64>(len, &mut seed);
        }
    }
    for len in [70, 80, 90, 100, 127, 128] {
        for _ in 0..50 {
            check::<u128>(len, &mut seed);
        }
    }
}
