//! The searcher: limits in, thinking output and a best move out over a channel. Searches run on
//! their own threads (Lazy SMP: helpers share the transposition table); `stop` and `ponderhit`
//! act through atomics the threads poll.

pub mod params;
pub mod time;
pub mod tt;
mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use parking_lot::Mutex;

use crate::board::moves::Move;
use crate::board::types::Colour;
use crate::eval::EvalTables;
use crate::game::Game;
pub use tt::Bound;
use tt::Tt;

/// What limits a search. The default is an infinite search... of depth limit only if set.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration.
    pub depth: Option<u32>,
    /// Nodes, all threads together.
    pub nodes: Option<u64>,
    /// Fixed time for this move.
    pub movetime: Option<Duration>,
    /// The game clock.
    pub clock: Option<Clock>,
    /// Search until told to stop.
    pub infinite: bool,
    /// Pondering: no clock until `ponderhit`; the move is held back until then or `stop`.
    pub ponder: bool,
    /// Only these root moves.
    pub searchmoves: Vec<Move>,
    /// Number of principal variations.
    pub multipv: usize,
}

impl Limits {
    /// Under a game clock, the share of `us`'s time a table build may take (and a search
    /// may wait for its root's table): the remaining time over
    /// [`params::TABLE_BUILD_CLOCK_DIVISOR`].
    pub(crate) fn table_share(&self, us: Colour) -> Option<Duration> {
        self.clock
            .as_ref()
            .map(|c| c.time[us.index()] / params::TABLE_BUILD_CLOCK_DIVISOR)
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            depth: None,
            nodes: None,
            movetime: None,
            clock: None,
            infinite: false,
            ponder: false,
            searchmoves: Vec::new(),
            multipv: 1,
        }
    }
}

/// Both clocks, indexed by [`crate::board::types::Colour::index`].
#[derive(Clone, Debug)]
pub struct Clock {
    /// Time left.
    pub time: [Duration; 2],
    /// Increment per move.
    pub inc: [Duration; 2],
    /// Moves to the next time control, if any.
    pub movestogo: Option<u32>,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns.
    Cp(i32),
    /// Mate in this many moves (negative: gets mated).
    Mate(i32),
}

/// One line of thinking output.
#[derive(Clone, Debug)]
pub struct Info {
    /// Iteration depth.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// 1-based index of the line.
    pub multipv: usize,
    /// Score.
    pub score: Score,
    /// How the score bounds the truth.
    pub bound: Bound,
    /// Nodes, all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Table use, per mille.
    pub hashfull: u32,
    /// Time since the start.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

/// What a search reports.
#[derive(Clone, Debug)]
pub enum SearchEvent {
    /// Thinking output.
    Info(Info),
    /// A free-text message.
    Message(String),
    /// The end of the search: the move to play (None without a legal move) and the expected
    /// reply.
    BestMove {
        /// Move to play.
        best: Option<Move>,
        /// Expected reply, to ponder on.
        ponder: Option<Move>,
    },
}

/// Settings that live across searches.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Transposition table size.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
    /// Time kept back per move for the GUI's lag.
    pub move_overhead: Duration,
    /// Endgame tables built during the game and probed by the search (`None`: off).
    pub tables: Option<Arc<crate::egt::service::TableService>>,
}

impl Default for SearchOptions {
    fn default() -> SearchOptions {
        SearchOptions {
            hash_mb: 64,
            threads: 1,
            move_overhead: Duration::from_millis(params::DEFAULT_OVERHEAD_MS),
            tables: None,
        }
    }
}

/// State shared by the threads of one search.
pub(crate) struct Shared {
    pub tt: Arc<Tt>,
    pub stop: AtomicBool,
    pub pondering: AtomicBool,
    pub nodes: AtomicU64,
    pub start: Mutex<Instant>,
    /// The time limits, planned when the search starts and again at an XBoard ponder hit
    /// (the clock has moved on since the ponder search began).
    pub budget: Mutex<time::Budget>,
    /// The side to move at the root, whose clock the budget is planned from.
    pub us: Colour,
    /// Men on the board at the root (the budget plans for longer games with more men).
    pub men: usize,
}

impl Shared {
    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// The searcher.
pub struct Searcher {
    opts: SearchOptions,
    tt: Arc<Tt>,
    shared: Option<Arc<Shared>>,
    handle: Option<JoinHandle<()>>,
    /// Evaluation tables of the last variant searched; the layout is kept alive so that its
    /// identity cannot be taken by another variant's layout.
    evals: Option<(Arc<crate::board::layout::Layout>, Arc<EvalTables>)>,
    /// The main thread's move-ordering records, kept between the searches of one game.
    histories: Arc<Mutex<Option<worker::Histories>>>,
}

impl Searcher {
    /// A searcher with these options.
    pub fn new(opts: SearchOptions) -> Searcher {
        Searcher {
            tt: Arc::new(Tt::new(opts.hash_mb)),
            opts,
            shared: None,
            handle: None,
            evals: None,
            histories: Arc::new(Mutex::new(None)),
        }
    }

    /// Changes the options (waits for a running search first).
    pub fn set_options(&mut self, opts: SearchOptions) {
        self.wait();
        if opts.hash_mb != self.opts.hash_mb {
            // The old table goes before the new one is made: both at once may not fit.
            self.tt = Arc::new(Tt::new(1));
            self.tt = Arc::new(Tt::new(opts.hash_mb));
        }
        self.opts = opts;
    }

    /// The current options.
    pub fn options(&self) -> &SearchOptions {
        &self.opts
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.wait();
        self.tt.clear();
        *self.histories.lock() = None;
    }

    /// Starts a search of the game's current position; returns at once. Every search ends with
    /// exactly one [`SearchEvent::BestMove`].
    pub fn start(&mut self, game: &Game, limits: Limits, events: Sender<SearchEvent>) {
        self.wait();
        let pos = game.position().clone();
        let lay = pos.layout().clone();
        let eval = match &self.evals {
            Some((k, e)) if Arc::ptr_eq(k, &lay) => e.clone(),
            _ => {
                let start = pos
                    .with_fen(&lay.variant.start_fen)
                    .unwrap_or_else(|_| pos.clone());
                let e = Arc::new(EvalTables::new(&lay, &start));
                self.evals = Some((lay.clone(), e.clone()));
                *self.histories.lock() = None; // another variant's squares and kinds
                e
            }
        };
        self.tt.new_search();
        if let Some(service) = &self.opts.tables {
            // A share of the clock at most; no limit in analysis or fixed-depth searches.
            let budget = limits.table_share(pos.side_to_move());
            let tx = events.clone();
            let notices = Box::new(move |text| {
                let _ = tx.send(SearchEvent::Message(text));
            });
            service.prepare(&pos, budget, Some(notices));
        }
        let shared = Arc::new(Shared {
            tt: self.tt.clone(),
            stop: AtomicBool::new(false),
            pondering: AtomicBool::new(limits.ponder),
            nodes: AtomicU64::new(0),
            start: Mutex::new(Instant::now()),
            budget: Mutex::new(time::budget(
                &limits,
                pos.side_to_move(),
                pos.men_count(),
                self.opts.move_overhead,
            )),
            us: pos.side_to_move(),
            men: pos.men_count(),
        });
        self.shared = Some(shared.clone());
        let root = worker::Root {
            pos,
            keys: game.keys().to_vec(),
            checks: game.checks().to_vec(),
            moves: game.moves().copied().collect(),
            steps: game.steps().to_vec(),
        };
        let opts = self.opts.clone();
        let kept = self.histories.clone();
        self.handle = Some(std::thread::spawn(move || {
            worker::run(root, limits, opts, eval, shared, events, &kept);
        }));
    }

    /// Asks the running search to stop; its best move follows promptly.
    pub fn stop(&self) {
        if let Some(s) = &self.shared {
            s.pondering.store(false, Ordering::Relaxed);
            s.stop.store(true, Ordering::Relaxed);
        }
    }

    /// The opponent played the pondered move: the ponder search now runs on its clock.
    pub fn ponderhit(&self) {
        if let Some(s) = &self.shared {
            *s.start.lock() = Instant::now();
            s.pondering.store(false, Ordering::Relaxed);
        }
    }

    /// A ponder hit with the clock as it is now: the budget is planned again from `limits`'
    /// clock or move time (XBoard sends `time`/`otim` with the opponent's move, after the
    /// ponder search began), and counts from now.
    pub fn ponderhit_with(&self, limits: &Limits) {
        if let Some(s) = &self.shared {
            *s.budget.lock() = time::budget(limits, s.us, s.men, self.opts.move_overhead);
            self.ponderhit();
        }
    }

    /// True while a search runs.
    pub fn is_searching(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Blocks until the running search (if any) has ended.
    pub fn wait(&mut self) {
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
        self.shared = None;
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.stop();
        self.wait();
    }
}
