//! The pawns of both sides as one rank bit mask per file: the pawn-structure questions
//! (doubled, isolated, connected, passed, pawns on a file, shelter) answered in a few
//! operations per pawn instead of a walk over every other pawn. Built from the
//! evaluation's pawn lists, so it sees exactly the pawns they hold.

use variants::geometry::{MAX_FILES, MAX_RANKS};

use crate::board::types::Sq;

/// `mask[colour index][file]`: bit `rank` set where that side has a pawn. Ranks and files
/// are the board's own (not relative to a side).
#[derive(Default)]
pub(super) struct PawnFiles {
    mask: [[u16; MAX_FILES as usize]; 2],
}

/// Bits of the ranks strictly ahead of `rank` for colour index `c` (White moves up).
fn ahead_bits(rank: i8, c: usize) -> u32 {
    let below = (1u32 << rank) - 1;
    if c == 0 {
        !below & !(1u32 << rank) & 0xFFFF
    } else {
        below
    }
}

/// The bit of `rank + d` (0 off the board's 16 ranks).
fn rank_bit(rank: i8, d: i8) -> u32 {
    let r = rank as i32 + d as i32;
    if (0..MAX_RANKS as i32).contains(&r) {
        1 << r
    } else {
        0
    }
}

impl PawnFiles {
    /// The masks of both sides' pawn lists; `coords` maps a mailbox square to (file, rank).
    pub fn new(pawns: [&[(u8, Sq)]; 2], coords: &[(i8, i8)]) -> PawnFiles {
        let mut files = PawnFiles::default();
        for (c, list) in pawns.iter().enumerate() {
            for &(_, sq) in *list {
                let (f, r) = coords[sq as usize];
                files.mask[c][f as usize] |= 1 << r;
            }
        }
        files
    }

    /// The pawns of colour index `c` on `file` (none off the board).
    fn at(&self, c: usize, file: i8) -> u32 {
        usize::try_from(file)
            .ok()
            .and_then(|f| self.mask[c].get(f))
            .map_or(0, |&m| m as u32)
    }

    /// The pawns of colour index `c` on the files next to `file`.
    fn beside(&self, c: usize, file: i8) -> u32 {
        self.at(c, file - 1) | self.at(c, file + 1)
    }

    /// Colour index `c` has a pawn on `file`.
    pub fn on_file(&self, c: usize, file: i8) -> bool {
        self.at(c, file) != 0
    }

    /// (doubled, isolated, connected) for a pawn of colour index `c` on (`file`, `rank`):
    /// an own pawn ahead on its file; none on the next files; one beside it or one rank
    /// behind on a next file.
    pub fn chain(&self, c: usize, file: i8, rank: i8) -> (bool, bool, bool) {
        let beside = self.beside(c, file);
        let behind = if c == 0 { -1 } else { 1 };
        let linked = beside & (rank_bit(rank, 0) | rank_bit(rank, behind)) != 0;
        let doubled = self.at(c, file) & ahead_bits(rank, c) != 0;
        (doubled, beside == 0, linked)
    }

    /// No pawn of the enemy of colour index `c` stands ahead of (`file`, `rank`) on its
    /// file or a next one.
    pub fn passed(&self, c: usize, file: i8, rank: i8) -> bool {
        let e = 1 - c;
        let near = self.at(e, file) | self.beside(e, file);
        near & ahead_bits(rank, c) == 0
    }

    /// Colour index `c`'s pawns on the royal's file or the next ones, one rank and two
    /// ranks in front of the royal on (`file`, `rank`).
    pub fn shelter(&self, c: usize, file: i8, rank: i8) -> (u32, u32) {
        let step = if c == 0 { 1 } else { -1 };
        let near_files = [file - 1, file, file + 1].map(|f| self.at(c, f));
        let count = |bit: u32| near_files.iter().filter(|&&m| m & bit != 0).count() as u32;
        (count(rank_bit(rank, step)), count(rank_bit(rank, 2 * step)))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use super::*;
    use proptest::prelude::*;

    /// Squares are (file, rank) themselves here: square `16 * rank + file`.
    fn coords() -> Vec<(i8, i8)> {
        (0..256).map(|s| ((s % 16) as i8, (s / 16) as i8)).collect()
    }

    /// The pawn lists' walk each query replaces, as the evaluation did it.
    fn naive_chain(c: usize, own: &[(i8, i8)], f: i8, r: i8) -> (bool, bool, bool) {
        let rel = |x: i8| if c == 0 { x as i32 } else { -(x as i32) };
        let (mut ahead, mut beside, mut linked) = (false, false, false);
        for &(of, or) in own {
            let (df, dr) = ((of - f).abs(), rel(or) - rel(r));
            ahead |= df == 0 && dr > 0;
            beside |= df == 1;
            linked |= df == 1 && (dr == 0 || dr == -1);
        }
        (ahead, !beside, linked)
    }

    fn naive_passed(c: usize, enemy: &[(i8, i8)], f: i8, r: i8) -> bool {
        !enemy
            .iter()
            .any(|&(ef, er)| (ef - f).abs() <= 1 && if c == 0 { er > r } else { er < r })
    }

    fn naive_shelter(c: usize, own: &[(i8, i8)], kf: i8, kr: i8) -> (u32, u32) {
        let rel = |x: i8| if c == 0 { x as i32 } else { -(x as i32) };
        let (mut near, mut far) = (0, 0);
        for &(pf, pr) in own {
            if (pf - kf).abs() > 1 {
                continue;
            }
            match rel(pr) - rel(kr) {
                1 => near += 1,
                2 => far += 1,
                _ => {}
            }
        }
        (near, far)
    }

    fn squares(max: usize) -> impl Strategy<Value = Vec<(i8, i8)>> {
        proptest::collection::btree_set((0i8..16, 0i8..16), 0..max)
            .prop_map(|s| s.into_iter().collect())
    }

    proptest! {
        /// Every query agrees with the walk over the lists, for pawns anywhere on a 16x16
        /// board (the largest) and any probe square.
        #[test]
        fn masks_answer_as_the_lists_do(
            white in squares(20),
            black in squares(20),
            f in 0i8..16,
            r in 0i8..16,
        ) {
            let sq = |&(f, r): &(i8, i8)| (0u8, (16 * r as i32 + f as i32) as Sq);
            let lists: [Vec<(u8, Sq)>; 2] = [
                white.iter().map(sq).collect(),
                black.iter().map(sq).collect(),
            ];
            let files = PawnFiles::new([&lists[0], &lists[1]], &coords());
            let sides = [&white, &black];
            for c in 0..2 {
                prop_assert_eq!(files.chain(c, f, r), naive_chain(c, sides[c], f, r));
                prop_assert_eq!(files.passed(c, f, r), naive_passed(c, sides[1 - c], f, r));
                prop_assert_eq!(files.shelter(c, f, r), naive_shelter(c, sides[c], f, r));
                prop_assert_eq!(files.on_file(c, f), sides[c].iter().any(|p| p.0 == f));
            }
        }
    }
}
