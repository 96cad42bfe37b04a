//! The row solver's word: the bits of one row (a position per square of the last man) and
//! the occupancy of a board, in 64 bits for boards of at most 64 squares and in 128 for
//! boards of up to 128 (10x8, 9x10, 10x10), with an atomic twin for the shared row state.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not};
use std::sync::atomic::Ordering::{self, Relaxed};
use std::sync::atomic::{AtomicU64, AtomicU8};

use super::board::Bits;

/// A set of squares or row positions, as many as the integer has bits.
pub trait Word:
    Copy
    + Eq
    + Debug
    + Default
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + 'static
{
    /// No bit.
    const ZERO: Self;
    /// The word shared between threads.
    type Atomic: AtomicWord<Self>;

    /// `n` shared words, all zero, in memory not yet written (see [`zeroed_bytes`]).
    fn zeroed(n: usize) -> Vec<Self::Atomic>;

    /// Bit `i` alone.
    fn bit(i: usize) -> Self;
    /// The low bits of a board set (the caller knows the board fits).
    fn of_set(set: Bits) -> Self;
    /// The low 64 bits (the whole-word flips of an 8x8 row act on them).
    fn low64(self) -> u64;
    /// A word holding `low` in its low 64 bits.
    fn of_low64(low: u64) -> Self;
    /// The number of set bits.
    fn count(self) -> u32;
    /// The lowest set bit's index (the word's width when none).
    fn lowest(self) -> usize;
    /// The word without its lowest set bit.
    fn drop_lowest(self) -> Self;
    /// The lowest `len` bits (all of them when `len` is the width or more).
    fn low(len: usize) -> Self;
    /// The word whose bit `i` is bit `i + d` of this one (zero where that is outside it).
    fn offset_by(self, d: i32) -> Self;

    /// True when bit `i` is set.
    #[inline]
    fn has(self, i: usize) -> bool {
        self & Self::bit(i) != Self::ZERO
    }

    /// True when some bit is set.
    #[inline]
    fn any(self) -> bool {
        self != Self::ZERO
    }
}

/// The atomic operations the row state needs, bit by bit: every caller reads a result per
/// bit, so a 128-bit word may be two 64-bit atomics (each bit still changes once, under one
/// atomic operation).
pub trait AtomicWord<W>: Send + Sync + Default {
    /// The word.
    fn load(&self, order: Ordering) -> W;
    /// Writes the word.
    fn store(&self, w: W, order: Ordering);
    /// Sets the bits of `w`; returns the word before.
    fn fetch_or(&self, w: W, order: Ordering) -> W;
    /// Keeps the bits of `w` only; returns the word before.
    fn fetch_and(&self, w: W, order: Ordering) -> W;
    /// Writes `w`; returns the word before.
    fn swap(&self, w: W, order: Ordering) -> W;
    /// Sets `w`; true when this made a part of the word that was empty non-empty. Of the
    /// threads that set bits in an empty word, at least one gets true (the summary of
    /// non-empty words relies on it).
    fn or_first(&self, w: W, order: Ordering) -> bool;
}

/// [`Word`] for a primitive unsigned integer with its atomic twin: the truncating casts
/// are the board sets' and flips' (the caller knows the bits fit).
macro_rules! word_impl {
    ($t:ty, $atomic:ty, $bit:expr, $zeroed:expr) => {
        impl Word for $t {
            const ZERO: $t = 0;
            type Atomic = $atomic;

            fn zeroed(n: usize) -> Vec<$atomic> {
                $zeroed(n)
            }

            #[inline]
            fn bit(i: usize) -> $t {
                $bit(i)
            }
            #[inline]
            fn of_set(set: Bits) -> $t {
                set.low128() as $t
            }
            #[inline]
            fn low64(self) -> u64 {
                self as u64
            }
            #[inline]
            fn of_low64(low: u64) -> $t {
                low as $t
            }
            #[inline]
            fn count(self) -> u32 {
                self.count_ones()
            }
            #[inline]
            fn lowest(self) -> usize {
                self.trailing_zeros() as usize
            }
            #[inline]
            fn drop_lowest(self) -> $t {
                self & self.wrapping_sub(1)
            }
            #[inline]
            fn offset_by(self, d: i32) -> $t {
                let by = d.unsigned_abs();
                if d >= 0 {
                    self.checked_shr(by).unwrap_or(0)
                } else {
                    self.checked_shl(by).unwrap_or(0)
                }
            }
            #[inline]
            fn low(len: usize) -> $t {
                <$t>::MAX
                    .checked_shl(len as u32)
                    .map_or(<$t>::MAX, |high| !high)
            }
        }
    };
}

/// Every single bit of a 128-bit word: a variable shift of 128 bits is two shifts, a test
/// and two conditional moves, and the row solver makes such a bit for each square it visits
/// on boards of more than 64 squares.
static BITS128: [u128; 128] = {
    let mut t = [0u128; 128];
    let mut i = 0;
    while i < 128 {
        t[i] = 1 << i;
        i += 1;
    }
    t
};

word_impl!(u64, AtomicU64, |i: usize| 1u64 << i, zeroed_words);
word_impl!(u128, Atomic128, |i: usize| BITS128[i % 128], |n: usize| {
    // Pairs of 64-bit halves: a `u128`'s alignment is not the pair's, and collected in
    // place the allocation must keep its alignment.
    vec![[0u64; 2]; n]
        .into_iter()
        .map(|h| Atomic128(h.map(AtomicU64::new)))
        .collect()
});

/// `n` atomic bytes, all zero. Collected in place from zeroed memory (the allocator's
/// fresh pages, zero already), so no page is written here: built one by one, every page of
/// a table's values and the solver's state was written on the calling thread before the
/// solve began (a page fault and a memset per 4 KB, 0.8 ms a megabyte on this host), where
/// now each page is faulted in by the thread that first writes it. (The reuse of the
/// allocation is the standard library's in-place collect, not a promise of the language:
/// without it the result is the same, only written.)
pub fn zeroed_bytes(n: usize) -> Vec<AtomicU8> {
    vec![0u8; n].into_iter().map(AtomicU8::new).collect()
}

/// [`zeroed_bytes`] in 64-bit words.
pub fn zeroed_words(n: usize) -> Vec<AtomicU64> {
    vec![0u64; n].into_iter().map(AtomicU64::new).collect()
}

impl AtomicWord<u64> for AtomicU64 {
    #[inline]
    fn load(&self, order: Ordering) -> u64 {
        AtomicU64::load(self, order)
    }
    #[inline]
    fn store(&self, w: u64, order: Ordering) {
        AtomicU64::store(self, w, order)
    }
    #[inline]
    fn fetch_or(&self, w: u64, order: Ordering) -> u64 {
        AtomicU64::fetch_or(self, w, order)
    }
    #[inline]
    fn fetch_and(&self, w: u64, order: Ordering) -> u64 {
        AtomicU64::fetch_and(self, w, order)
    }
    #[inline]
    fn swap(&self, w: u64, order: Ordering) -> u64 {
        AtomicU64::swap(self, w, order)
    }
    #[inline]
    fn or_first(&self, w: u64, order: Ordering) -> bool {
        AtomicU64::fetch_or(self, w, order) == 0
    }
}

/// A 128-bit word as two 64-bit atomics (stable Rust has no 128-bit atomic).
#[derive(Default)]
pub struct Atomic128([AtomicU64; 2]);

/// The halves of a 128-bit word, low first.
#[inline]
fn halves(w: u128) -> [u64; 2] {
    [w as u64, (w >> 64) as u64]
}

/// The 128-bit word of two halves.
#[inline]
fn join([lo, hi]: [u64; 2]) -> u128 {
    lo as u128 | (hi as u128) << 64
}

impl Atomic128 {
    /// Applies `op` to each half whose operand is not the identity `skip`.
    #[inline]
    fn each(&self, w: u128, skip: u64, op: impl Fn(&AtomicU64, u64) -> u64) -> u128 {
        let h = halves(w);
        let mut old = [0; 2];
        for k in 0..2 {
            old[k] = if h[k] == skip {
                self.0[k].load(Relaxed)
            } else {
                op(&self.0[k], h[k])
            };
        }
        join(old)
    }
}

impl AtomicWord<u128> for Atomic128 {
    #[inline]
    fn load(&self, order: Ordering) -> u128 {
        join([self.0[0].load(order), self.0[1].load(order)])
    }
    #[inline]
    fn store(&self, w: u128, order: Ordering) {
        let h = halves(w);
        self.0[0].store(h[0], order);
        self.0[1].store(h[1], order);
    }
    #[inline]
    fn fetch_or(&self, w: u128, order: Ordering) -> u128 {
        self.each(w, 0, |a, x| a.fetch_or(x, order))
    }
    #[inline]
    fn fetch_and(&self, w: u128, order: Ordering) -> u128 {
        self.each(w, u64::MAX, |a, x| a.fetch_and(x, order))
    }
    #[inline]
    fn swap(&self, w: u128, order: Ordering) -> u128 {
        let h = halves(w);
        join([self.0[0].swap(h[0], order), self.0[1].swap(h[1], order)])
    }
    #[inline]
    fn or_first(&self, w: u128, order: Ordering) -> bool {
        // Both halves written: no short circuit.
        let h = halves(w);
        let first = |k: usize| h[k] != 0 && self.0[k].fetch_or(h[k], order) == 0;
        let (lo, hi) = (first(0), first(1));
        lo || hi
    }
}

/// The set bits of a word, lowest first.
#[inline]
pub fn ones<W: Word>(mut bits: W) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        bits.any().then(|| {
            let b = bits.lowest();
            bits = bits.drop_lowest();
            b
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeroed_memory_is_zero() {
        // Sizes past the allocator's small pages, where the zeroed memory is fresh.
        for n in [0, 1, 1000, 3 << 20] {
            let bytes = zeroed_bytes(n);
            assert_eq!(bytes.len(), n);
            assert!(bytes.iter().all(|b| b.load(Relaxed) == 0));
            let words = <u128 as Word>::zeroed(n / 16);
            assert_eq!(words.len(), n / 16);
            assert!(words.iter().all(|w| w.load(Relaxed) == 0));
            if let Some(w) = words.last() {
                w.store(u128::MAX, Relaxed);
                assert_eq!(w.load(Relaxed), u128::MAX);
            }
            let words = <u64 as Word>::zeroed(n / 8);
            assert!(words.len() == n / 8 && words.iter().all(|w| w.load(Relaxed) == 0));
        }
    }

    #[test]
    fn low_bits_and_halves() {
        assert_eq!(<u64 as Word>::low(64), u64::MAX);
        assert_eq!(<u64 as Word>::low(5), 31);
        assert_eq!(<u128 as Word>::low(80), (1u128 << 80) - 1);
        assert_eq!(ones(1u128 << 100 | 5).collect::<Vec<_>>(), vec![0, 2, 100]);
        let a = Atomic128::default();
        assert!(a.or_first(1 << 70, Relaxed));
        assert!(!a.or_first(1 << 71, Relaxed));
        assert!(a.or_first(1, Relaxed));
        assert!(Atomic128::default().or_first(1 | 1 << 64, Relaxed));
        let b = Atomic128::default();
        b.or_first(1 | 1 << 64, Relaxed);
        assert_eq!(b.load(Relaxed), 1 | 1 << 64);
        assert_eq!(a.fetch_and(!(1u128 << 70), Relaxed), 1 | 3 << 70);
        assert_eq!(a.load(Relaxed), 1 | 1 << 71);
        assert_eq!(a.swap(0, Relaxed), 1 | 1 << 71);
        for i in 0..128 {
            assert_eq!(<u128 as Word>::bit(i), 1u128 << i);
        }
    }

    /// Bit `i` of `w.offset_by(d)` is bit `i + d` of `w`, bit by bit, both ways and widths.
    #[test]
    fn offsets_read_the_bit_that_many_places_up() {
        let w: u128 = 0x8000_0000_0000_0001_8000_0000_0000_0001 | 0x0f0 << 60;
        for d in [
            -200i32, -128, -127, -65, -64, -9, -1, 0, 1, 8, 63, 64, 100, 128, 300,
        ] {
            for i in 0..128i32 {
                let want = (0..128).contains(&(i + d)) && w.has((i + d) as usize);
                assert_eq!(w.offset_by(d).has(i as usize), want, "u128 d {d} i {i}");
                let (v, j) = (w as u64, i % 64);
                let want = (0..64).contains(&(j + d)) && v.has((j + d) as usize);
                assert_eq!(v.offset_by(d).has(j as usize), want, "u64 d {d} i {j}");
            }
        }
    }
}
