//! The statistics' counts of one side to move: legal positions, wins and losses per depth,
//! draws, mates and stalemates, each on the full board and in orbits (once per symmetry
//! class), and how the counts of two ranges merge. Counting a table is `report`'s.

/// A count on the full board and in orbits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    /// Every placement.
    pub full: u64,
    /// Once per symmetry class.
    pub orbits: u64,
}

impl Count {
    pub(super) fn add(&mut self, o: Count) {
        self.full += o.full;
        self.orbits += o.orbits;
    }
}

/// Statistics of one side to move.
#[derive(Clone, Debug, Default)]
pub struct SideStats {
    /// Legal positions.
    pub legal: Count,
    /// Wins by depth in moves.
    pub wins: Vec<Count>,
    /// Losses by depth in moves (0: mated or otherwise lost now).
    pub losses: Vec<Count>,
    /// Draws.
    pub draws: Count,
    /// Checkmates (lost now, in check).
    pub mates: Count,
    /// Stalemates (no legal move, not in check), whatever they score.
    pub stalemates: Count,
    /// Deepest win in plies and one index holding it.
    pub longest: Option<(u8, usize)>,
    /// The index of `longest` is where the counting found its block, not the position
    /// yet: the first position from there holding that win (see `report::stats`).
    pub(super) longest_open: bool,
}

impl SideStats {
    pub(super) fn merge(&mut self, o: &SideStats) {
        self.legal.add(o.legal);
        for (dst, src) in [(&mut self.wins, &o.wins), (&mut self.losses, &o.losses)] {
            if dst.len() < src.len() {
                dst.resize(src.len(), Count::default());
            }
            for (d, s) in dst.iter_mut().zip(src) {
                d.add(*s);
            }
        }
        self.draws.add(o.draws);
        self.mates.add(o.mates);
        self.stalemates.add(o.stalemates);
        // The deepest, and of those the first: the same example whatever the threads did.
        let key = |l: Option<(u8, usize)>| l.map(|(p, i)| (p, std::cmp::Reverse(i)));
        if key(o.longest) > key(self.longest) {
            self.longest = o.longest;
            self.longest_open = o.longest_open;
        }
    }

    /// Calls `f` with every count.
    pub(super) fn each_count(&mut self, f: &mut dyn FnMut(&mut Count)) {
        for c in [
            &mut self.legal,
            &mut self.draws,
            &mut self.mates,
            &mut self.stalemates,
        ] {
            f(c);
        }
        for c in self.wins.iter_mut().chain(self.losses.iter_mut()) {
            f(c);
        }
    }

    /// Total wins.
    pub fn total_wins(&self) -> Count {
        sum(&self.wins)
    }

    /// Total losses.
    pub fn total_losses(&self) -> Count {
        sum(&self.losses)
    }
}

/// The total of `v`.
fn sum(v: &[Count]) -> Count {
    let mut c = Count::default();
    for x in v {
        c.add(*x);
    }
    c
}

/// Adds `c` to the count at depth `at` of `v`, which grows to hold it.
pub(super) fn bump(v: &mut Vec<Count>, at: usize, c: Count) {
    if v.len() <= at {
        v.resize(at + 1, Count::default());
    }
    v[at].add(c);
}
