//! The threads a solve may use, read afresh at the start of each of its passes: the schedule
//! (see `schedule`) lends a thread that has no table of its own to start to a table that is
//! running, and takes it back when a table is ready for it. And the pass itself: a range of
//! positions cut into chunks that the threads take in turn ([`parallel`]).

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

/// Most positions handed to a thread at a time.
const CHUNK: usize = 1 << 14;

/// Fewest positions handed to a thread at a time.
const MIN_CHUNK: usize = 64;

/// Chunks per thread a pass is cut into at least, so that threads finish together.
const CHUNKS_PER_THREAD: usize = 16;

/// [`parallel`] with a state per thread: `init` makes it, `work(state, start, end)` takes
/// it through the thread's chunks, `finish` receives it after the last.
pub fn parallel_with<S>(
    size: usize,
    threads: usize,
    init: impl Fn() -> S + Sync,
    work: impl Fn(&mut S, usize, usize) + Sync,
    finish: impl Fn(S) + Sync,
) {
    let chunk = (size / (threads.max(1) * CHUNKS_PER_THREAD)).clamp(MIN_CHUNK, CHUNK);
    // No more threads than chunks: a pass of one chunk (a distance with few positions) is
    // not worth starting a thread for.
    let threads = threads.clamp(1, size.div_ceil(chunk).max(1));
    if threads == 1 {
        // In chunks all the same: a chunk's finds are buffered until it ends.
        let mut state = init();
        for start in (0..size).step_by(CHUNK) {
            work(&mut state, start, (start + CHUNK).min(size));
        }
        finish(state);
        return;
    }
    let next = AtomicUsize::new(0);
    let share = || {
        let mut state = init();
        loop {
            let start = next.fetch_add(chunk, Relaxed);
            if start >= size {
                break;
            }
            work(&mut state, start, (start + chunk).min(size));
        }
        finish(state);
    };
    // The calling thread takes a share too: one thread fewer to start and to wait for.
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(share);
        }
        share();
    });
}

/// Runs `work(start, end)` over `0..size` in chunks on `threads` threads.
pub fn parallel(size: usize, threads: usize, work: impl Fn(usize, usize) + Sync) {
    parallel_with(size, threads, || (), |_, a, b| work(a, b), |_| ());
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
