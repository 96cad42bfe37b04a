//! The threads a solve may use, read afresh at the start of each of its passes: the schedule
//! (see `schedule`) lends a thread that has no table of its own to start to a table that is
//! running, and takes it back when a table is ready for it.

use std::sync::atomic::AtomicUsize;
use std::sync::atomic::Ordering::Relaxed;

/// A solve's thread count, which may change between its passes.
#[derive(Debug)]
pub struct Threads {
    now: AtomicUsize,
}

impl Threads {
    /// `n` threads (at least one) until changed.
    pub const fn new(n: usize) -> Threads {
        Threads {
            now: AtomicUsize::new(if n == 0 { 1 } else { n }),
        }
    }

    /// The threads for a pass starting now.
    #[inline]
    pub fn get(&self) -> usize {
        self.now.load(Relaxed).max(1)
    }

    /// `n` threads (at least one) from the next pass on.
    pub fn set(&self, n: usize) {
        self.now.store(n.max(1), Relaxed);
    }

    /// One thread more from the next pass on.
    pub fn lend(&self) {
        self.now.fetch_add(1, Relaxed);
    }

    /// One thread fewer from the next pass on (never below one).
    pub fn take_back(&self) {
        let _ = self
            .now
            .fetch_update(Relaxed, Relaxed, |n| Some(n.saturating_sub(1).max(1)));
    }
}

#[cfg(test)]
mod tests {
    use super::Threads;

    #[test]
    fn lending_changes_the_count_and_never_goes_below_one() {
        let t = Threads::new(1);
        t.lend();
        assert_eq!(t.get(), 2);
        t.take_back();
        t.take_back();
        assert_eq!(t.get(), 1);
        assert_eq!(Threads::new(0).get(), 1);
    }
}
