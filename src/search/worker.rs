//! One search thread: iterative deepening, principal variation search with aspiration windows,
//! quiescence, and the pruning and ordering heuristics. Thread 0 also keeps the clock, reports
//! and sends the best move.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::Sender;
use parking_lot::Mutex;
use variants::geometry::Coord;

use super::params::*;
use super::time::Budget;
use super::tt::{move_sig, sig_matches, Bound, TtHit};
use super::{Info, Limits, Score, SearchEvent, SearchOptions, Shared};
use crate::board::make::Op;
use crate::board::moves::{Move, MoveKind};
use crate::board::position::Position;
use crate::board::royalty::Legality;
use crate::board::stages::Stage;
use crate::board::types::Colour;
use crate::eval::EvalTables;
use crate::game::chase::Replay;
use crate::game::material;
use crate::game::move_repetition::{self, History, Step};
use crate::game::outcome::{self, Termination};

/// The root of a search: the position and the game's history.
pub(crate) struct Root {
    pub pos: Position,
    pub keys: Vec<u64>,
    pub checks: Vec<bool>,
    /// The game's moves: move `k` led from `keys[k]` to `keys[k + 1]`.
    pub moves: Vec<Move>,
    /// Per position of `keys`: what `moveRepetitionIllegal` reads of the move into it.
    pub steps: Vec<Step>,
}

/// Runs a whole search (the main thread plus helpers) and sends the best move.
pub(crate) fn run(
    root: Root,
    limits: Limits,
    opts: SearchOptions,
    eval: Arc<EvalTables>,
    shared: Arc<Shared>,
    events: Sender<SearchEvent>,
    kept: &Mutex<Option<Histories>>,
) {
    let budget = *shared.budget.lock();
    let threads = opts.threads.clamp(1, 256);
    await_root_table(&root, &limits, &opts, budget, &shared);
    let tables = opts.tables.clone().and_then(|t| {
        let s = t.settings();
        (s.enabled && t.has_tables(&root.pos.variant().name)).then_some((t, s.max_men))
    });
    let (best, ponder) = std::thread::scope(|scope| {
        for id in 1..threads {
            let mut w = Worker::new(id, &root, &limits, eval.clone(), shared.clone());
            w.tables = tables.clone();
            scope.spawn(move || w.iterate(None));
        }
        let mut main = Worker::new(0, &root, &limits, eval.clone(), shared.clone());
        main.tables = tables.clone();
        if let Some(h) = kept.lock().take() {
            main.hist = h;
        }
        let result = main.iterate(Some(&events));
        *kept.lock() = Some(std::mem::replace(&mut main.hist, Histories::empty()));
        // Infinite and ponder searches hold their move until told.
        while (limits.infinite || shared.pondering.load(Ordering::Relaxed)) && !shared.stopped() {
            std::thread::sleep(Duration::from_millis(2));
        }
        shared.stop.store(true, Ordering::Relaxed);
        result
    });
    let _ = events.send(SearchEvent::BestMove { best, ponder });
}

/// When the root's own table is being built, waits for it (never without a time limit): a
/// won ending played from the table from its first move stays within the table's distance
/// to mate, while the moves a search plays before the table arrives may not. Under a game
/// clock the wait may take the share of the clock the build was granted (the table's moves
/// then come at once and win the time back); under a fixed move time, half of it.
fn await_root_table(
    root: &Root,
    limits: &Limits,
    opts: &SearchOptions,
    budget: Budget,
    shared: &Shared,
) {
    let (Some(service), Some(soft)) = (&opts.tables, budget.soft) else {
        return;
    };
    let limit = limits
        .table_share(root.pos.side_to_move())
        .unwrap_or(soft / 2);
    let start = Instant::now();
    service.await_table(&root.pos, || {
        !shared.stopped() && !shared.pondering.load(Ordering::Relaxed) && start.elapsed() < limit
    });
}

/// The records that order quiet moves. The main thread's outlive its search (the searcher
/// keeps them until a new game or variant): what refuted a move a ply ago still does.
pub(crate) struct Histories {
    /// Butterfly history: side, from and to square.
    history: Vec<i32>,
    /// Continuation histories: a quiet move's record after the opponent's last move
    /// (`[0]`) and after our own move before it (`[1]`), indexed by [`cont_index`].
    /// Kept in 16 bits (they stay within [`HISTORY_MAX`]): half the cache they would take.
    cont: [Vec<i16>; 2],
}

impl Histories {
    fn new() -> Histories {
        Histories {
            history: vec![0; 2 * 256 * 256],
            cont: [vec![0; 1 << CONT_BITS], vec![0; 1 << CONT_BITS]],
        }
    }

    /// A placeholder without tables, left behind when the records are handed back.
    fn empty() -> Histories {
        Histories {
            history: Vec::new(),
            cont: [Vec::new(), Vec::new()],
        }
    }
}

/// The score for `us` of a repetition that `winner` wins (`None`: a draw): a known win or
/// loss, not a mate, as the rule decides the game only when the cycle is played out.
fn fold_score(winner: Option<Colour>, us: Colour) -> i32 {
    match winner {
        Some(w) if w == us => KNOWN_WIN,
        Some(_) => -KNOWN_WIN,
        None => 0,
    }
}

/// Per-thread search state.
struct Worker<'a> {
    id: usize,
    pos: Position,
    ops: Vec<Op>,
    keys: Vec<u64>,
    checks: Vec<bool>,
    /// The moves of the game and of the path from the root (move `k` led from `keys[k]` to
    /// `keys[k + 1]`): a repetition replays its cycle from them when the chasing rule asks
    /// what its moves chased.
    moves: Vec<Move>,
    /// Per position of `keys`, kept only where the variant has `moveRepetitionIllegal`
    /// (`move_rep`): what the move into it did.
    steps: Vec<Step>,
    move_rep: bool,
    limits: &'a Limits,
    eval: Arc<EvalTables>,
    shared: Arc<Shared>,
    nodes: u64,
    flushed: u64,
    seldepth: usize,
    lists: Vec<Vec<Move>>,
    /// `orders[ply]`: the ordering keys of `lists[ply]` and the order of its moves, kept
    /// to be reused (taken out while the node runs, like `lists`).
    orders: Vec<(Vec<i32>, Vec<usize>)>,
    killers: Vec<[u32; 2]>,
    /// Quiet-move records; the main thread's are kept from one search to the next.
    hist: Histories,
    /// `played[ply]`: the [`Worker::move_code`] of the move made at `ply` (0 for a pass).
    played: Vec<u32>,
    pv: Vec<Vec<Move>>,
    /// `static_evals[ply]`: the static score of the node at `ply` (-MATE in check).
    static_evals: Vec<i32>,
    root_moves: Vec<Move>,
    excluded: Vec<Move>,
    lmr: Vec<Vec<i32>>,
    aborted: bool,
    /// Only royals are left: every node is a draw.
    dead_draw: bool,
    /// The variant can end by losing royals (explosions, extinction) or by a bare king, which
    /// quiescence must notice without generating every legal move.
    sudden_end: bool,
    /// Captures explode (atomic).
    blasts: bool,
    /// The side to move at the root (whose perpetual checks lose; see `repetition`).
    root_side: Colour,
    /// Endgame tables to probe, and the most men they hold.
    tables: Option<(Arc<crate::egt::service::TableService>, usize)>,
}

impl<'a> Worker<'a> {
    fn new(
        id: usize,
        root: &Root,
        limits: &'a Limits,
        eval: Arc<EvalTables>,
        shared: Arc<Shared>,
    ) -> Worker<'a> {
        let lmr = (0..64)
            .map(|d| {
                (0..64)
                    .map(|i| {
                        if d == 0 || i == 0 {
                            0
                        } else {
                            ((d as f64).ln() * (i as f64).ln() / LMR_DIVISOR) as i32
                        }
                    })
                    .collect()
            })
            .collect();
        Worker {
            id,
            pos: root.pos.clone(),
            ops: Vec::with_capacity(4096),
            keys: root.keys.clone(),
            checks: root.checks.clone(),
            moves: root.moves.clone(),
            steps: root.steps.clone(),
            move_rep: root.pos.variant().end.move_repetition.is_some(),
            limits,
            eval,
            shared,
            nodes: 0,
            flushed: 0,
            seldepth: 0,
            lists: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(128)).collect(),
            orders: (0..=MAX_PLY + 1)
                .map(|_| (Vec::with_capacity(128), Vec::with_capacity(128)))
                .collect(),
            killers: vec![[0; 2]; MAX_PLY + 2],
            hist: Histories::new(),
            played: vec![0; MAX_PLY + 2],
            pv: vec![Vec::new(); MAX_PLY + 2],
            static_evals: vec![-MATE; MAX_PLY + 2],
            root_moves: Vec::new(),
            excluded: Vec::new(),
            lmr,
            aborted: false,
            dead_draw: outcome::dead_draw(&root.pos),
            blasts: root.pos.variant().blast.is_some(),
            root_side: root.pos.side_to_move(),
            sudden_end: {
                let v = root.pos.variant();
                v.blast.is_some()
                    || v.end.bare_king_loses
                    || v.end.royalty != variants::rules::Royalty::Absolute
                    || v.end.check_counting
                    || v.end.flag.is_some()
                    || v.end.connect.is_some()
                    || v.end.extinction.is_some()
                    || v.end.full_board_ends
                    || v.end.shatar.is_some()
            },
            tables: None,
        }
    }

    /// Iterative deepening; returns (best move, expected reply). Thread 0 reports on `events`.
    fn iterate(&mut self, events: Option<&Sender<SearchEvent>>) -> (Option<Move>, Option<Move>) {
        let mut moves = Vec::new();
        self.pos.legal_moves(&mut moves, &mut self.ops);
        if !self.limits.searchmoves.is_empty() {
            moves.retain(|m| self.limits.searchmoves.contains(m));
        }
        self.root_moves = moves;
        if let Some(won) = self.table_root(events) {
            return won;
        }
        let Some(&first) = self.root_moves.first() else {
            return (None, None);
        };
        let mut best = (Some(first), None);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 1)
            .clamp(1, MAX_PLY as u32 - 1) as i32;
        let lines = self.limits.multipv.clamp(1, self.root_moves.len());
        let mut scores = vec![0; lines];
        let mut depth = 1 + (self.id % 2) as i32;
        if self.dead_draw {
            // Nothing to find: report the draw at once.
            if let Some(tx) = events {
                self.pv[0] = vec![first];
                let _ = tx.send(SearchEvent::Info(self.info(1, 1, 0)));
            }
            return best;
        }
        while depth <= max_depth {
            self.excluded.clear();
            #[allow(clippy::needless_range_loop)] // `line` is also the reported MultiPV index
            for line in 0..lines {
                self.seldepth = 0;
                let score = self.aspiration(depth, scores[line]);
                if self.aborted && !(depth == 1 + (self.id % 2) as i32 && line == 0) {
                    // A root move that raised alpha in the unfinished iteration was searched
                    // in full at the new depth: it is played rather than the last
                    // iteration's choice.
                    if line == 0 {
                        if let Some(&m) = self.pv[0].first() {
                            best = (Some(m), self.pv[0].get(1).copied());
                        }
                    }
                    break;
                }
                let Some(&m) = self.pv[0].first() else { break };
                scores[line] = score;
                self.excluded.push(m);
                if line == 0 {
                    best = (Some(m), self.pv[0].get(1).copied());
                }
                if let Some(tx) = events {
                    let _ = tx.send(SearchEvent::Info(self.info(depth, line + 1, score)));
                }
                if self.aborted {
                    break;
                }
            }
            if self.aborted
                || self.shared.stopped()
                || (events.is_some() && self.out_of_time_for_iteration())
            {
                break;
            }
            if events.is_some() && self.only_move_on_the_clock() {
                break;
            }
            if events.is_some()
                && lines == 1
                && scores[0].abs() >= MATE_BOUND
                && depth > 2 * (MATE - scores[0].abs()) + 4
            {
                break;
            }
            depth += 1;
        }
        // The main thread ends the helpers' search, except when the move must wait for
        // `stop` or `ponderhit` (then `run` waits). Never clear a stop already given.
        if events.is_some() && !self.limits.infinite && !self.pondering() {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        self.flush_nodes();
        best
    }

    /// One root search with an aspiration window around the previous score.
    fn aspiration(&mut self, depth: i32, prev: i32) -> i32 {
        let mut delta = ASPIRATION;
        let (mut alpha, mut beta) = if depth >= ASPIRATION_DEPTH && prev.abs() < KNOWN_WIN {
            (prev - delta, prev + delta)
        } else {
            (-MATE, MATE)
        };
        loop {
            let score = self.search(depth, alpha, beta, 0, true);
            if self.aborted {
                return score;
            }
            // The window widens from the score returned (a fail-soft bound, often well past
            // the old edge), and a fail low also brings beta down to the middle: the true
            // score lies below the old window.
            if score <= alpha && alpha > -MATE {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-MATE);
            } else if score >= beta && beta < MATE {
                beta = (score + delta).min(MATE);
            } else {
                return score;
            }
            delta *= 2;
            if delta > 1000 {
                (alpha, beta) = (-MATE, MATE);
            }
        }
    }

    fn info(&self, depth: i32, multipv: usize, score: i32) -> Info {
        let time = self.shared.start.lock().elapsed();
        let nodes = self.shared.nodes.load(Ordering::Relaxed) + self.nodes - self.flushed;
        Info {
            depth: depth as u32,
            seldepth: self.seldepth.max(depth as usize) as u32,
            multipv,
            score: to_score(score),
            bound: super::Bound::Exact,
            nodes,
            nps: (nodes as u128 * 1000 / time.as_millis().max(1)) as u64,
            hashfull: self.shared.tt.hashfull(),
            time,
            pv: self.pv[0].clone(),
        }
    }

    fn pondering(&self) -> bool {
        self.shared.pondering.load(Ordering::Relaxed)
    }

    /// One legal move under a time limit: it is played after the first iteration (which
    /// gives a score and an expected reply), saving the clock. Searches to a depth or a node
    /// count, and infinite and ponder searches, go on as asked.
    fn only_move_on_the_clock(&self) -> bool {
        self.root_moves.len() == 1
            && !self.limits.infinite
            && !self.pondering()
            && self.shared.budget.lock().soft.is_some()
    }

    /// No time to begin another iteration: past [`NEW_ITERATION_PER_MILLE`] of the soft
    /// limit. (Scaling that share by a falling score and best-move changes, b122ee7, awaits
    /// a match at a fixed time control and is not in use.)
    fn out_of_time_for_iteration(&self) -> bool {
        if self.pondering() {
            return false;
        }
        let Some(soft) = self.shared.budget.lock().soft else {
            return false;
        };
        let elapsed = self.shared.start.lock().elapsed();
        elapsed.as_millis() as u64 * 1000 >= soft.as_millis() as u64 * NEW_ITERATION_PER_MILLE
    }

    fn flush_nodes(&mut self) {
        self.shared
            .nodes
            .fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
        self.flushed = self.nodes;
    }

    /// Polls the stop flag, the clock and the node limit.
    fn poll(&mut self) {
        if self.nodes % POLL_NODES != 0 {
            return;
        }
        self.flush_nodes();
        if self.shared.stopped() {
            self.aborted = true;
            return;
        }
        if self.id != 0 {
            return;
        }
        if let Some(n) = self.limits.nodes {
            if self.shared.nodes.load(Ordering::Relaxed) >= n {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.aborted = true;
            }
        }
        let hard = self.shared.budget.lock().hard;
        if let Some(hard) = hard {
            if !self.pondering() && self.shared.start.lock().elapsed() >= hard {
                self.shared.stop.store(true, Ordering::Relaxed);
                self.aborted = true;
            }
        }
    }

    /// Mailbox square of a board-independent square index.
    fn sq(&self, index: u8) -> crate::board::types::Sq {
        self.pos.layout().sq(Coord::from_index(index as usize))
    }

    /// Value of everything a move removes of the enemy (0 for a quiet move).
    fn victim_value(&self, m: &Move) -> i32 {
        let us = self.pos.side_to_move();
        let value_at = |index: u8| {
            self.pos
                .man_at(self.sq(index))
                .filter(|v| v.colour != us)
                .map_or(0, |v| self.eval.kind_value(v.kind).max(1))
        };
        match m.kind {
            MoveKind::Normal | MoveKind::Promotion => {
                value_at(m.to) + m.extra_indices().iter().map(|&e| value_at(e)).sum::<i32>()
            }
            MoveKind::EnPassant => m
                .extra_indices()
                .iter()
                .map(|&e| value_at(e))
                .sum::<i32>()
                .max(1),
            _ => 0,
        }
    }

    fn mover_value(&self, m: &Move) -> i32 {
        match m.kind {
            MoveKind::Drop | MoveKind::Pass => 0,
            _ => self
                .pos
                .man_at(self.sq(m.from))
                .map_or(0, |v| self.eval.kind_value(v.kind)),
        }
    }

    fn history_index(&self, m: &Move) -> usize {
        let c = self.pos.side_to_move().index();
        c * 65536 + (m.from as usize) * 256 + m.to as usize
    }

    /// The ordering buffers of `ply`, emptied: a node takes them out and gives them back
    /// (`self.orders[ply] = (keys, order)`), so that no node allocates its own.
    fn order_buffers(&mut self, ply: usize) -> (Vec<i32>, Vec<usize>) {
        let (mut keys, mut order) = std::mem::take(&mut self.orders[ply]);
        keys.clear();
        order.clear();
        (keys, order)
    }

    /// Ordering keys (appended to `keys`): table move, winning-looking captures (MVV/LVA),
    /// promotions, killers, history, then captures that lose material by SEE. With `quiets`
    /// false the other quiet moves are left at [`UNSCORED`], to be scored by
    /// [`Worker::score_quiets`] only if the search reaches them.
    fn order(
        &mut self,
        moves: &[Move],
        tt_sig: u32,
        ply: usize,
        quiets: bool,
        keys: &mut Vec<i32>,
    ) {
        let killers = self.killers[ply];
        for m in moves {
            let key = if sig_matches(m, tt_sig) {
                TT_KEY
            } else if let Some(key) = self.capture_key(m) {
                key
            } else if m.kind == MoveKind::Promotion {
                PROMOTION_KEY
            } else if sig_matches(m, killers[0]) {
                KILLER_KEY + 2
            } else if sig_matches(m, killers[1]) {
                KILLER_KEY + 1
            } else if quiets {
                self.quiet_score(m, ply)
            } else {
                UNSCORED
            };
            keys.push(key);
        }
    }

    /// A capture's ordering key (None for a move that removes nothing): MVV/LVA among the
    /// good captures; a capture the cheap rule doubts is judged by SEE, and one that loses
    /// material goes after the quiet moves, ranked by its SEE. Explosions are beyond SEE:
    /// the doubtful captures of a blast variant keep their band before the quiet moves.
    fn capture_key(&mut self, m: &Move) -> Option<i32> {
        let victim = self.victim_value(m);
        if victim <= 0 {
            return None;
        }
        let key = victim * 64 - self.mover_value(m) / 16;
        if !self.losing_capture(m, victim) {
            return Some(GOOD_CAPTURE_KEY + key);
        }
        if self.blasts {
            return Some(DOUBTFUL_CAPTURE_KEY + key);
        }
        // Only when another man of ours could recapture may the exchange turn (the full SEE
        // makes every capture, the attack map's costly part); else it loses the difference.
        let (us, to) = (self.pos.side_to_move(), self.sq(m.to));
        let from = self.sq(m.from);
        let see = if self.pos.capturers_onto(us, to, Some(from)).0 == 0 {
            victim - self.mover_value(m)
        } else {
            self.pos.see(m, &mut self.ops)
        };
        Some(if see >= 0 {
            GOOD_CAPTURE_KEY + key
        } else {
            BAD_CAPTURE_KEY + see.max(-SEE_KEY_RANGE)
        })
    }

    /// The quiet stage, generated when the search reaches it: appended to `moves` with
    /// their keys (killers ranked, the rest [`UNSCORED`]), and `order` from `from` on
    /// sorted again, so killers come before the captures that look losing.
    fn add_quiets(
        &mut self,
        moves: &mut Vec<Move>,
        keys: &mut Vec<i32>,
        order: &mut Vec<usize>,
        from: usize,
        ply: usize,
    ) {
        let start = moves.len();
        self.pos.gen_stage(Stage::Quiets, moves);
        self.order(&moves[start..], 0, ply, false, keys);
        order.extend(start..moves.len());
        order[from..].sort_unstable_by_key(|&i| std::cmp::Reverse(keys[i]));
    }

    /// Scores the quiet moves of `order` (all of it from here on: they sort last, with the
    /// losing captures) by their records and sorts them. Deferred to the first quiet move
    /// tried: most cut-offs come before it, and a record costs two reads from large tables.
    fn score_quiets(&self, moves: &[Move], keys: &mut [i32], order: &mut [usize], ply: usize) {
        for &j in order.iter() {
            if keys[j] == UNSCORED {
                keys[j] = self.quiet_score(&moves[j], ply);
            }
        }
        order.sort_unstable_by_key(|&j| std::cmp::Reverse(keys[j]));
    }

    /// A quiet move's record: its history plus its continuation histories after the last
    /// two moves.
    fn quiet_score(&self, m: &Move, ply: usize) -> i32 {
        let code = self.move_code(m);
        let mut score = self.hist.history[self.history_index(m)];
        for (back, table) in self.hist.cont.iter().enumerate() {
            if let Some(&prev) = ply.checked_sub(back + 1).map(|p| &self.played[p]) {
                if prev != 0 {
                    score += table[cont_index(prev, code)] as i32;
                }
            }
        }
        score
    }

    /// The mover's kind (or the dropped piece), side and end square of a move, never 0 but
    /// for a pass: the key of continuation histories.
    fn move_code(&self, m: &Move) -> u32 {
        let piece = match m.kind {
            MoveKind::Pass => return 0,
            MoveKind::Drop => 0x4000 | m.piece as u32,
            _ => self
                .pos
                .man_at(self.sq(m.from))
                .map_or(0, |v| v.kind as u32 + 1),
        };
        ((self.pos.side_to_move().index() as u32) << 31) | (piece << 8) | m.to as u32
    }

    /// Repetition inside the window of reversible moves: a draw (or the variant's
    /// `nFoldValue`), or a loss for the root's side when it checked (where perpetual check
    /// is forbidden) or chased (where the chasing rule holds) on every move of the cycle.
    /// The opponent's perpetual check or chase counts as a draw: GUIs accept its draw claim
    /// at the third repetition (XBoard 4.9 does, with claims tested, and has no chasing
    /// rule), so the search must not count on the rule to win, and keeps a better game
    /// rather than allow the cycle. A repetition at most `running_to` plies back, where the
    /// count of `moveRepetitionIllegal` was still running, is no draw (FSF's search then
    /// needs the full number of repetitions).
    fn repetition(&mut self, running_to: usize) -> Option<i32> {
        if self.pos.variant().end.n_fold_rule == 0 {
            return None;
        }
        let last = self.keys.len() - 1;
        let window = (self.pos.repetition_window() as usize).min(last);
        let mut i = last;
        while i >= 2 && last - (i - 2) <= window {
            i -= 2;
            if self.keys[i] == self.keys[last] {
                if last - i <= running_to {
                    return None;
                }
                return Some(self.cycle_score(i));
            }
        }
        None
    }

    /// `moveRepetitionIllegal`'s verdict on the current node.
    fn move_repetition(&self) -> move_repetition::Judgement {
        let Some(rule) = self.pos.variant().end.move_repetition.as_ref() else {
            return move_repetition::Judgement::default();
        };
        let history = History {
            moves: &self.moves,
            checks: &self.checks,
            steps: &self.steps,
        };
        move_repetition::judge(rule, &self.pos, &history)
    }

    /// The score of a repetition whose cycle began at `keys[first]`. What the cycle's moves
    /// chased is worked out only here, by replaying them from the current position (equal to
    /// the first): a repetition is rare, a move is not.
    fn cycle_score(&mut self, first: usize) -> i32 {
        // The layout is shared: holding it leaves the position free for the replay.
        let lay = self.pos.layout().clone();
        let end = &lay.variant.end;
        let us = self.pos.side_to_move();
        if !end.perpetual_check_illegal && !end.chasing_rule {
            return match outcome::fold_winner(end, us) {
                None => self.draw_score(),
                w => fold_score(w, us),
            };
        }
        let last = self.keys.len() - 1;
        let moves = self.moves.get(first..last).unwrap_or(&[]);
        let mut replay = Replay::new(&mut self.pos, &mut self.ops, moves);
        let o = outcome::repetition_outcome(end, &self.checks[first..], us, |i| replay.chased(i));
        // The replay gives the position back before material is counted on it.
        drop(replay);
        let blamed = o.reason != Termination::Repetition;
        match o.winner {
            // The opponent's perpetual is not counted on (see `repetition`).
            Some(w) if blamed && w == self.root_side => self.draw_score(),
            None => self.draw_score(),
            w => fold_score(w, us),
        }
    }

    /// The score of a game drawn here by the rules: 0, or a known win or loss where
    /// material counting decides draws.
    fn draw_score(&self) -> i32 {
        fold_score(material::draw_winner(&self.pos), self.pos.side_to_move())
    }

    /// The score of a node where the game has ended by a lost royal, a bare king, a goal or
    /// a full board (`adjudicateFullBoard`).
    fn sudden_end_score(&self, ply: usize) -> Option<i32> {
        if !self.sudden_end {
            return None;
        }
        let us = self.pos.side_to_move();
        let over = self.pos.royals_lost(us)
            || self.pos.royals_lost(us.flip())
            || self.pos.bared(us.flip())
            || self.pos.goal_end().is_some()
            || self.pos.board_filled();
        over.then(|| self.terminal(ply))
    }

    /// Score of a node without legal moves, by the variant's rules.
    fn terminal(&self, ply: usize) -> i32 {
        let o = outcome::adjudicate(&self.pos, true, &self.keys, &self.checks, &[], None);
        let us = self.pos.side_to_move();
        match o.and_then(|o| o.winner) {
            Some(w) if w == us => MATE - ply as i32,
            Some(_) => -(MATE - ply as i32),
            None => 0,
        }
    }

    /// The exact score of a table position (wins and losses as mate distances), if its
    /// table is ready.
    fn table_score(&self, ply: usize) -> Option<i32> {
        let (service, max_men) = self.tables.as_ref()?;
        if self.pos.men_count() > *max_men {
            return None;
        }
        let code = service.probe(&self.pos)?;
        table_to_score(code, ply)
    }

    /// At a table root: keep only the moves with the best table value. A win is played at
    /// once (the fastest); otherwise the search chooses among the equal moves. Returns the
    /// move when the search is over.
    fn table_root(
        &mut self,
        events: Option<&Sender<SearchEvent>>,
    ) -> Option<(Option<Move>, Option<Move>)> {
        let (service, max_men) = self.tables.clone()?;
        if self.pos.men_count() > max_men + 1 || self.root_moves.is_empty() {
            return None;
        }
        let mut scored = Vec::new();
        for m in self.root_moves.clone() {
            let saved = self.make(&m);
            let code = service.probe(&self.pos);
            self.unmake(saved);
            scored.push((m, code.map(crate::egt::value::from_mover)?));
        }
        let best = scored
            .iter()
            .map(|s| crate::egt::value::goodness(s.1))
            .max()?;
        self.root_moves = scored
            .iter()
            .filter(|s| crate::egt::value::goodness(s.1) == best)
            .map(|s| s.0)
            .collect();
        let (m, code) = *scored
            .iter()
            .find(|s| crate::egt::value::goodness(s.1) == best)?;
        if !crate::egt::value::is_win(code) {
            return None;
        }
        if let Some(tx) = events {
            self.pv[0] = vec![m];
            let score = table_to_score(code, 0).unwrap_or(0);
            let _ = tx.send(SearchEvent::Info(self.info(1, 1, score)));
        }
        Some((Some(m), None))
    }

    fn make(&mut self, m: &Move) -> crate::board::make::Saved {
        let men = self.men_before();
        let saved = self.pos.make(m, &mut self.ops);
        self.record(m, men);
        saved
    }

    /// The men on the board before a move, where `moveRepetitionIllegal` asks whether the
    /// move captured (0 elsewhere: nothing reads it).
    fn men_before(&self) -> usize {
        if self.move_rep {
            self.pos.men_count()
        } else {
            0
        }
    }

    /// The history entries of the position `m` has just reached.
    fn record(&mut self, m: &Move, men_before: usize) {
        self.keys.push(self.pos.hash());
        self.checks.push(self.pos.in_check(self.pos.side_to_move()));
        self.moves.push(*m);
        if self.move_rep {
            let prev = self.steps.last().copied().unwrap_or_default();
            (self.steps).push(Step::after(prev, &self.pos, m, men_before));
        }
    }

    /// Makes `m` if it is legal; without a legality context (the root's moves and
    /// evasions, generated legal) it is made as it is.
    fn make_if_legal(
        &mut self,
        m: &Move,
        ctx: Option<&Legality>,
    ) -> Option<crate::board::make::Saved> {
        let men = self.men_before();
        let saved = match ctx {
            Some(ctx) => self.pos.make_if_legal(m, ctx, &mut self.ops)?,
            None => self.pos.make(m, &mut self.ops),
        };
        self.record(m, men);
        Some(saved)
    }

    fn unmake(&mut self, saved: crate::board::make::Saved) {
        self.pos.unmake(saved, &mut self.ops);
        self.keys.pop();
        self.checks.pop();
        self.moves.pop();
        if self.move_rep {
            self.steps.pop();
        }
    }

    /// Zugzwang guard for the null move: the side to move has a man that is neither royal nor
    /// among the weakest pieces (pawn-like), so passing is rarely its best.
    fn has_pieces(&self, us: Colour) -> bool {
        self.pos.live().any(|(_, m)| {
            m.colour == us
                && !self.pos.layout().kinds[m.kind as usize].royal
                && self.eval.kind_value(m.kind) >= 250
        })
    }

    /// Counts a node, polls the clock and clears the node's line; false when the search is
    /// being abandoned.
    fn enter(&mut self, ply: usize) -> bool {
        self.pv[ply].clear();
        self.nodes += 1;
        self.poll();
        self.seldepth = self.seldepth.max(ply);
        !self.aborted
    }

    /// Principal variation search.
    fn search(
        &mut self,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        if !self.enter(ply) {
            return 0;
        }
        let n_move_rule = self.pos.variant().end.n_move_rule;
        if ply > 0 {
            if self.dead_draw {
                return 0;
            }
            let mut running_to = 0;
            if self.move_rep {
                let j = self.move_repetition();
                if j.loser.is_some() {
                    return MATE - ply as i32; // the side that just moved lost
                }
                running_to = j.running_to;
            }
            if let Some(s) = self.repetition(running_to) {
                return s;
            }
            if n_move_rule > 0 && self.pos.halfmove_clock() >= n_move_rule {
                return self.draw_score();
            }
            // A count run out draws, unless the side to move is mated (found below).
            if self.pos.count_over() && !self.checks.last().copied().unwrap_or(false) {
                return 0;
            }
            if let Some(s) = self.table_score(ply) {
                return s;
            }
            if ply >= MAX_PLY {
                return self.eval.evaluate(&self.pos);
            }
            // Mate-distance pruning: no line from here can mate sooner than a mate already
            // found nearer the root, nor be mated later than being mated here. Where a game
            // can end suddenly, the move that led here may already have won it for the side
            // to move (the opponent's forced drop that fills the board), a win at this ply.
            let soonest_win = MATE - ply as i32 - i32::from(!self.sudden_end);
            alpha = alpha.max(-(MATE - ply as i32));
            beta = beta.min(soonest_win);
            if alpha >= beta {
                return alpha;
            }
        }
        let in_check = *self.checks.last().unwrap_or(&false);
        let depth = if in_check && ply < 2 * MAX_PLY / 3 {
            depth + 1
        } else {
            depth
        };
        if depth <= 0 {
            // The node is counted already: quiescence goes on from it without entering it
            // again (a horizon node counted twice made `go nodes` and the node counts of
            // every search about a quarter larger than the nodes searched).
            return self.quiesce_entered(alpha, beta, ply, 0, None);
        }
        let key = self.pos.table_key();
        let hit = self.shared.tt.probe(key);
        let tt_sig = hit.map_or(0, |h| h.sig);
        let usable = hit.filter(|h| !pv_node && ply > 0 && h.depth >= depth);
        if let Some(s) = usable.and_then(|h| tt_cut(&h, ply, alpha, beta)) {
            return s;
        }
        // Internal iterative reduction: a node the table knows no move for is searched a ply
        // shallower (its first iteration, as it were; the next finds the move stored).
        let depth = if tt_sig == 0 && depth >= IIR_DEPTH && !in_check {
            depth - 1
        } else {
            depth
        };
        // Below the root the moves are pseudo-legal, tested only when tried: a cut-off
        // saves the tests of the moves after it. No context: the game is over.
        let legality = if ply == 0 { None } else { self.pos.legality() };
        if ply > 0 && legality.is_none() {
            return self.terminal(ply);
        }
        let static_eval = if in_check {
            -MATE
        } else {
            self.static_eval(hit)
        };
        self.static_evals[ply] = static_eval;
        // Improving: our static score rose since our last move (never when in check then or
        // now); the pruning below is bolder when it did not.
        let improving = !in_check && ply >= 2 && static_eval > self.static_evals[ply - 2] && {
            self.static_evals[ply - 2] > -MATE
        };
        let eval = refined_eval(static_eval, hit.map(|h| (from_tt(h.score, ply), h.bound)));
        let us = self.pos.side_to_move();
        if !pv_node && !in_check && ply > 0 {
            // A man next to our royal under attack is a blast check: the static score is
            // blind to it, so no cut-off on that score (asked last: the other tests are cheap).
            if depth <= RFP_DEPTH
                && eval - RFP_MARGIN * (depth - improving as i32) >= beta
                && beta.abs() < KNOWN_WIN
                && eval.abs() < KNOWN_WIN
                && !(self.blasts && self.pos.blast_threat(us))
            {
                return eval;
            }
            if let Some(s) = self.null_move(depth, beta, ply, eval, us) {
                return s;
            }
        }
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        // Staged: captures and promotions first; the quiet moves only when the search
        // reaches them (most cut-offs come before), or at once when the table's move is
        // not among the first stages (it is tried first).
        let mut quiets_due = ply > 0;
        if ply == 0 {
            moves.extend(
                self.root_moves
                    .iter()
                    .filter(|m| !self.excluded.contains(m)),
            );
        } else {
            self.pos.gen_stage(Stage::Captures, &mut moves);
            self.pos.gen_stage(Stage::Promotions, &mut moves);
            if tt_sig != 0 && !moves.iter().any(|m| sig_matches(m, tt_sig)) {
                self.pos.gen_stage(Stage::Quiets, &mut moves);
                quiets_due = false;
            }
        }
        if ply == 0 && moves.is_empty() {
            self.lists[ply] = moves;
            return alpha;
        }
        let (mut keys, mut order) = self.order_buffers(ply);
        self.order(&moves, tt_sig, ply, false, &mut keys);
        order.extend(0..moves.len());
        order.sort_unstable_by_key(|&i| std::cmp::Reverse(keys[i]));
        let mut best = -MATE;
        let mut best_sig = 0;
        let mut quiets_tried = 0usize;
        // The quiet moves searched before a cut-off, which lose history by it (not the ones
        // skipped unsearched: pruning says nothing of how they fare).
        let mut quiets_searched = arrayvec::ArrayVec::<usize, MALUS_MOVES>::new();
        let alpha0 = alpha;
        let mut searched = 0usize;
        let mut scored = false;
        // Quiet moves may be pruned once the node has a score that is no mate.
        let prunable = |best: i32| !pv_node && !in_check && best > -KNOWN_WIN;
        // Futility skips every quiet move (killers too).
        let futile = |alpha: i32, best: i32| {
            prunable(best)
                && depth <= FUTILITY_DEPTH
                && static_eval + FUTILITY_MARGIN * depth <= alpha
        };
        let mut tried = 0;
        loop {
            if quiets_due && order.get(tried).is_none_or(|&i| keys[i] < KILLER_KEY) {
                quiets_due = false;
                if !futile(alpha, best) {
                    self.add_quiets(&mut moves, &mut keys, &mut order, tried, ply);
                }
            }
            let Some(&i) = order.get(tried) else {
                break;
            };
            tried += 1;
            if !scored && keys[i] < DOUBTFUL_CAPTURE_KEY {
                scored = true;
                self.score_quiets(&moves, &mut keys, &mut order[tried - 1..], ply);
            }
            let i = order[tried - 1];
            let m = moves[i];
            let quiet = is_quiet(keys[i]);
            let late = prunable(best)
                && depth <= LMP_DEPTH
                && quiets_tried >= (LMP_BASE + (depth * depth) as usize) / (2 - improving as usize);
            if quiet && (futile(alpha, best) || late) {
                // The rest of the quiet moves would be skipped too, but the losing captures
                // after them are still asked.
                continue;
            }
            if ply > 0 && !in_check && best > -KNOWN_WIN && self.see_prunes(&m, keys[i], depth) {
                continue;
            }
            let code = self.move_code(&m);
            let Some(saved) = self.make_if_legal(&m, legality.as_ref()) else {
                continue;
            };
            self.played[ply] = code;
            let n = searched;
            searched += 1;
            let gives_check = *self.checks.last().unwrap_or(&false);
            let mut score;
            if n == 0 {
                score = -self.search(depth - 1, -beta, -alpha, ply + 1, pv_node);
            } else {
                let mut r = 0;
                if depth >= LMR_DEPTH && n >= LMR_MOVES && quiet && !in_check && !gives_check {
                    r = self.lmr[(depth as usize).min(63)][n.min(63)] - pv_node as i32
                        + !improving as i32;
                    if keys[i] < KILLER_KEY {
                        // A quiet move's record (not a killer's): a ply less for a good
                        // one, a ply more for a bad one.
                        r -= (keys[i] / LMR_HISTORY_DIVISOR).clamp(-1, 1);
                    }
                    r = r.clamp(0, depth - 2);
                }
                score = -self.search(depth - 1 - r, -alpha - 1, -alpha, ply + 1, false);
                if score > alpha && r > 0 {
                    score = -self.search(depth - 1, -alpha - 1, -alpha, ply + 1, false);
                }
                if score > alpha && score < beta {
                    score = -self.search(depth - 1, -beta, -alpha, ply + 1, true);
                }
            }
            self.unmake(saved);
            if self.aborted {
                self.lists[ply] = moves;
                self.orders[ply] = (keys, order);
                return 0;
            }
            if quiet {
                quiets_tried += 1;
            }
            let searched_quiet = quiet && keys[i] < KILLER_KEY && score < beta;
            if score > best {
                best = score;
                if score > alpha {
                    // Only a move that raised alpha is the node's move: at a node that fails
                    // low every score is a bound, and the highest names no better move than
                    // the table's own, which is kept (0 leaves it).
                    best_sig = move_sig(&m);
                    alpha = score;
                    let (head, tail) = self.pv.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(m);
                    head[ply].extend_from_slice(&tail[0]);
                    if score >= beta {
                        if quiet {
                            self.reward(&m, &moves, &quiets_searched, ply, depth);
                        }
                        break;
                    }
                }
            }
            if searched_quiet {
                let _ = quiets_searched.try_push(i);
            }
        }
        self.lists[ply] = moves;
        self.orders[ply] = (keys, order);
        if searched == 0 {
            return self.terminal(ply); // every pseudo-legal move was illegal
        }
        let bound = bound_of(best, alpha0, alpha, beta);
        // A perpetual-check score belongs to the path (the cycle that led here), not to the
        // position: stored with a draft it would decide the same position reached without
        // the cycle. Depth 0 keeps the move for ordering and never cuts.
        let draft = if best.abs() == KNOWN_WIN { 0 } else { depth };
        let eval = (!in_check).then_some(static_eval);
        let entry = TtHit {
            sig: best_sig,
            score: to_tt(best, ply),
            depth: draft,
            bound,
            eval,
        };
        self.shared.tt.store(key, entry);
        best
    }

    /// The static evaluation of the position, from the table's entry when it holds one (the
    /// evaluation is a function of the position, which the key stands for).
    fn static_eval(&self, hit: Option<TtHit>) -> i32 {
        match hit.and_then(|h| h.eval) {
            Some(e) => e,
            None => self.eval.evaluate(&self.pos),
        }
    }

    /// Null move: pass, and if a reduced search still fails high, so does this node.
    fn null_move(
        &mut self,
        depth: i32,
        beta: i32,
        ply: usize,
        eval: i32,
        us: Colour,
    ) -> Option<i32> {
        if depth < NULL_DEPTH || eval < beta || beta.abs() >= KNOWN_WIN || !self.has_pieces(us) {
            return None;
        }
        // Obligatory captures make zugzwang the rule, not the exception (the losing games).
        let v = self.pos.variant();
        if self.pos.consecutive_passes() > 0 || v.pass_move || v.end.must_capture {
            return None;
        }
        let mut pass = Move::normal(Coord::new(0, 0), Coord::new(0, 0));
        pass.kind = MoveKind::Pass;
        let r = NULL_BASE + depth / NULL_DIVISOR + ((eval - beta) / NULL_EVAL_DIVISOR).min(3);
        let saved = self.make(&pass);
        self.played[ply] = 0;
        let score = -self.search(depth - 1 - r, -beta, -beta + 1, ply + 1, false);
        self.unmake(saved);
        (!self.aborted && score >= beta).then_some(if score >= KNOWN_WIN { beta } else { score })
    }

    /// Killers and history after a quiet move caused a cut; the quiet moves searched before
    /// it (`tried`, killers left out) lose history.
    fn reward(&mut self, m: &Move, moves: &[Move], tried: &[usize], ply: usize, depth: i32) {
        let sig = move_sig(m);
        if self.killers[ply][0] != sig {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = sig;
        }
        let bonus = history_bonus(depth);
        self.update_quiet(m, ply, bonus);
        for &t in tried {
            self.update_quiet(&moves[t], ply, -bonus);
        }
    }

    /// Moves a quiet move's history and continuation histories towards `bonus`'s sign,
    /// by less the nearer they are to [`HISTORY_MAX`] (so they stay within it).
    fn update_quiet(&mut self, m: &Move, ply: usize, bonus: i32) {
        let moved = |e: i32| e + bonus - e * bonus.abs() / HISTORY_MAX;
        let i = self.history_index(m);
        self.hist.history[i] = moved(self.hist.history[i]);
        let code = self.move_code(m);
        for back in 0..self.hist.cont.len() {
            let Some(p) = ply.checked_sub(back + 1) else {
                break;
            };
            let prev = self.played[p];
            if prev != 0 {
                let e = &mut self.hist.cont[back][cont_index(prev, code)];
                *e = moved(*e as i32) as i16;
            }
        }
    }

    /// Quiescence: captures (and every evasion when in check) until the position is quiet.
    /// `qply` counts the plies since quiescence began; from [`QS_RECAPTURE_PLY`] on only
    /// captures onto `last_to` (the previous move's square) are tried, which bounds the
    /// capture tree where long-range captures abound (Tenjiku's jumping generals).
    fn quiesce(
        &mut self,
        alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        last_to: Option<u8>,
    ) -> i32 {
        if !self.enter(ply) {
            return 0;
        }
        self.quiesce_entered(alpha, beta, ply, qply, last_to)
    }

    /// [`Worker::quiesce`] at a node already entered (counted and polled).
    fn quiesce_entered(
        &mut self,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qply: usize,
        last_to: Option<u8>,
    ) -> i32 {
        if let Some(s) = self.sudden_end_score(ply) {
            return s;
        }
        let in_check = *self.checks.last().unwrap_or(&false);
        if ply >= MAX_PLY {
            return self.eval.evaluate(&self.pos);
        }
        // The table: a bound from any search of this position (never a perpetual-check
        // score, which belongs to its path) may end the node; its move is tried first.
        let key = self.pos.table_key();
        let hit = self.shared.tt.probe(key);
        let usable = hit.filter(|h| h.depth >= 0 && h.score.abs() != KNOWN_WIN);
        if let Some(s) = usable.and_then(|h| tt_cut(&h, ply, alpha, beta)) {
            return s;
        }
        let tt_sig = hit.map_or(0, |h| h.sig);
        let alpha0 = alpha;
        let mut moves = std::mem::take(&mut self.lists[ply]);
        moves.clear();
        let mut best;
        let mut stand = None;
        if in_check {
            self.pos.legal_moves(&mut moves, &mut self.ops);
            if moves.is_empty() {
                self.lists[ply] = moves;
                return self.terminal(ply);
            }
            best = -MATE;
        } else {
            let eval = self.static_eval(hit);
            if eval >= beta {
                self.lists[ply] = moves;
                return eval;
            }
            alpha = alpha.max(eval);
            best = eval;
            stand = Some(eval);
            self.pos.gen_stage(Stage::Captures, &mut moves);
        }
        let legality = if in_check {
            None
        } else {
            match self.pos.legality() {
                Some(ctx) => Some(ctx),
                None => {
                    self.lists[ply] = moves;
                    return best; // the game is over: no capture is legal
                }
            }
        };
        let (mut keys, mut order) = self.order_buffers(ply);
        self.order(&moves, tt_sig, ply, true, &mut keys);
        order.extend(0..moves.len());
        order.sort_unstable_by_key(|&i| std::cmp::Reverse(keys[i]));
        let mut best_sig = 0;
        for &i in &order {
            let m = moves[i];
            if !in_check && qply >= QS_RECAPTURE_PLY && last_to != Some(m.to) {
                continue;
            }
            // Once an evasion holds off the mate, only captures and promotions are tried:
            // every quiet evasion of every check in a chain of checking captures (an
            // interposer taken with check, the next one interposed) multiplied the tree
            // to millions of nodes where the position had a few thousand.
            if in_check && best > -KNOWN_WIN && is_quiet(keys[i]) {
                continue;
            }
            if !in_check && !self.blasts {
                // Explosions remove more than the victim: no material-based pruning then.
                let victim = self.victim_value(&m);
                if best + victim + DELTA_MARGIN <= alpha && m.kind != MoveKind::Promotion {
                    continue;
                }
                if is_bad_capture(keys[i]) {
                    continue; // loses material by SEE
                }
            }
            let Some(saved) = self.make_if_legal(&m, legality.as_ref()) else {
                continue;
            };
            let score = -self.quiesce(-beta, -alpha, ply + 1, qply + 1, Some(m.to));
            self.unmake(saved);
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_sig = move_sig(&m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.lists[ply] = moves;
        self.orders[ply] = (keys, order);
        if !self.aborted && best.abs() != KNOWN_WIN {
            let entry = TtHit {
                sig: best_sig,
                score: to_tt(best, ply),
                depth: 0,
                bound: bound_of(best, alpha0, alpha, beta),
                eval: stand,
            };
            self.shared.tt.store(key, entry);
        }
        best
    }

    /// Shallow SEE pruning (a move already searched holds the node): a capture that loses
    /// more than a margin growing with the depth (more where captured men go to the hand,
    /// whose exchanges SEE undervalues), a quiet move onto an attacked square that loses
    /// more than one growing with the square of the depth. Not with explosions, which SEE
    /// does not model.
    fn see_prunes(&mut self, m: &Move, key: i32, depth: i32) -> bool {
        if depth > SEE_PRUNE_DEPTH {
            return false;
        }
        if is_bad_capture(key) {
            let hand = self.pos.variant().drops.captures_to_hand;
            let margin = SEE_CAPTURE_MARGIN + if hand { SEE_HAND_MARGIN } else { 0 };
            return key - BAD_CAPTURE_KEY < -margin * depth;
        }
        if !is_quiet(key) || self.blasts || matches!(m.kind, MoveKind::Pass | MoveKind::Castle) {
            return false;
        }
        // Judged from the attack map's lists without making the move (as SEE would, for a
        // move that captures nothing): taken for nothing when undefended, else the mover
        // against the cheapest attacker.
        let us = self.pos.side_to_move();
        let to = self.sq(m.to);
        let (theirs, cheapest) = self.pos.capturers_onto(us.flip(), to, None);
        let Some(cheapest) = cheapest.filter(|_| theirs > 0) else {
            return false;
        };
        let from = (m.kind != MoveKind::Drop).then(|| self.sq(m.from));
        let mover = self.pos.moving_value(m);
        let loss = if self.pos.capturers_onto(us, to, from).0 == 0 {
            mover
        } else {
            mover - cheapest
        };
        loss > SEE_QUIET_MARGIN * depth * depth
    }

    /// A capture of a cheaper man by a dearer one onto a defended square: it may lose
    /// material. The cheap first test; `Position::see` judges the captures it doubts.
    fn losing_capture(&self, m: &Move, victim: i32) -> bool {
        let mover = self.mover_value(m);
        if mover <= victim || m.kind == MoveKind::Promotion {
            return false;
        }
        let them = self.pos.side_to_move().flip();
        self.pos.attack_count(them, self.sq(m.to)) > 0
    }
}

/// Ordering keys by band: table move, good captures, promotions, killers, captures that
/// look losing where SEE cannot judge (explosions), quiet moves by their records (within a
/// few `HISTORY_MAX`, far inside `QUIET_FLOOR..DOUBTFUL_CAPTURE_KEY`), then the captures
/// that lose by SEE, ranked by it.
const TT_KEY: i32 = 1 << 30;
const GOOD_CAPTURE_KEY: i32 = 1 << 26;
const PROMOTION_KEY: i32 = 1 << 25;
const KILLER_KEY: i32 = 1 << 24;
const DOUBTFUL_CAPTURE_KEY: i32 = 1 << 23;
const QUIET_FLOOR: i32 = -(1 << 27);
const BAD_CAPTURE_KEY: i32 = -(1 << 28);
/// A losing capture's key is `BAD_CAPTURE_KEY` plus its SEE, clamped to this range.
const SEE_KEY_RANGE: i32 = 1 << 26;
/// A quiet move not yet scored: below every other band, so the unscored moves sort last and
/// together.
const UNSCORED: i32 = i32::MIN;

/// The static score refined by the table's bound on the node's score: a lower bound above
/// it or an upper bound below it is the better guess for the pruning decisions.
fn refined_eval(static_eval: i32, stored: Option<(i32, Bound)>) -> i32 {
    match stored {
        Some((s, Bound::Lower)) if s > static_eval && s.abs() < KNOWN_WIN => s,
        Some((s, Bound::Upper)) if s < static_eval && s.abs() < KNOWN_WIN => s,
        Some((s, Bound::Exact)) if s.abs() < KNOWN_WIN => s,
        _ => static_eval,
    }
}

/// History bonus of a cut-off at `depth` (the malus of the moves tried before it): large
/// enough that a few cut-offs move a record by a good share of [`HISTORY_MAX`].
fn history_bonus(depth: i32) -> i32 {
    (HISTORY_BONUS_PER_PLY * depth - HISTORY_BONUS_OFFSET).clamp(0, HISTORY_BONUS_MAX)
}

/// Slot of a (previous move, move) pair in a continuation history.
fn cont_index(prev: u32, code: u32) -> usize {
    let h = (((prev as u64) << 32) | code as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> (64 - CONT_BITS)) as usize
}

/// Killers and history moves are quiet; captures (good or bad), promotions and the table
/// move are not.
fn is_quiet(key: i32) -> bool {
    key == UNSCORED
        || (QUIET_FLOOR..DOUBTFUL_CAPTURE_KEY).contains(&key)
        || (KILLER_KEY..PROMOTION_KEY).contains(&key)
}

/// A capture that loses material by SEE (its key holds the SEE).
fn is_bad_capture(key: i32) -> bool {
    (BAD_CAPTURE_KEY - SEE_KEY_RANGE..QUIET_FLOOR).contains(&key)
}

/// A score as the protocols show it.
/// A table code as a search score at `ply`: wins and losses as mates at their distance.
fn table_to_score(code: u8, ply: usize) -> Option<i32> {
    use crate::egt::value::{is_loss, is_win, plies, ILLEGAL};
    match code {
        ILLEGAL => None,
        c if is_win(c) => Some(MATE - ply as i32 - plies(c) as i32),
        c if is_loss(c) => Some(-(MATE - ply as i32 - plies(c) as i32)),
        _ => Some(0),
    }
}

fn to_score(s: i32) -> Score {
    if s.abs() >= MATE_BOUND {
        let plies = MATE - s.abs();
        let moves = (plies + 1) / 2;
        Score::Mate(if s > 0 { moves } else { -moves })
    } else {
        Score::Cp(s)
    }
}

/// Mate scores are stored relative to the node, not the root.
fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s + ply as i32
    } else if s <= -MATE_BOUND {
        s - ply as i32
    } else {
        s
    }
}

/// How a node's best score bounds the truth: at least `beta` a lower bound, inside the
/// window it was searched with (`alpha` raised above `alpha0`) exact, else an upper bound.
fn bound_of(best: i32, alpha0: i32, alpha: i32, beta: i32) -> Bound {
    if best >= beta {
        Bound::Lower
    } else if alpha > alpha0 {
        Bound::Exact
    } else {
        Bound::Upper
    }
}

/// The score a table entry ends the node with, if its bound decides the window.
fn tt_cut(h: &TtHit, ply: usize, alpha: i32, beta: i32) -> Option<i32> {
    let s = from_tt(h.score, ply);
    let cut = match h.bound {
        Bound::Exact => true,
        Bound::Lower => s >= beta,
        Bound::Upper => s <= alpha,
    };
    cut.then_some(s)
}

fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= MATE_BOUND {
        s - ply as i32
    } else if s <= -MATE_BOUND {
        s + ply as i32
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mate_scores_rebase_between_node_and_root() {
        for ply in [0usize, 3, 17] {
            for s in [MATE - 5, -(MATE - 8), 123, -77] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-(MATE - 2)), Score::Mate(-1));
    }
}
