//! Every tunable of the search, in one place.

/// Score of a mate on the board (mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - 1_000;
/// A forced win that is not a mate (perpetual check by the opponent, bare king): scored
/// below mates, above any evaluation.
pub const KNOWN_WIN: i32 = MATE_BOUND - 1_000;
/// Deepest ply searched.
pub const MAX_PLY: usize = 128;
/// Aspiration window half width at the first try.
pub const ASPIRATION: i32 = 20;
/// Depth from which aspiration windows are used.
pub const ASPIRATION_DEPTH: i32 = 5;
/// Reverse futility: margin per ply of depth (one ply less when the node is improving).
pub const RFP_MARGIN: i32 = 85;
/// Reverse futility: deepest draft it applies to.
pub const RFP_DEPTH: i32 = 8;
/// Null move: smallest draft.
pub const NULL_DEPTH: i32 = 3;
/// Null move: base reduction and extra reduction per this many plies of depth.
pub const NULL_BASE: i32 = 3;
/// See [`NULL_BASE`].
pub const NULL_DIVISOR: i32 = 4;
/// Null move: one more ply of reduction per this much of the eval above beta (three at most).
pub const NULL_EVAL_DIVISOR: i32 = 200;
/// Futility pruning of quiet moves: margin per ply.
pub const FUTILITY_MARGIN: i32 = 110;
/// Futility pruning: deepest draft.
pub const FUTILITY_DEPTH: i32 = 3;
/// Late-move pruning: quiet moves tried at draft `d` before the rest are skipped:
/// `LMP_BASE + d * d`, half as many when the node is not improving.
pub const LMP_BASE: usize = 4;
/// Late-move pruning: deepest draft.
pub const LMP_DEPTH: i32 = 8;
/// LMR: smallest draft and first move index reduced.
pub const LMR_DEPTH: i32 = 3;
/// See [`LMR_DEPTH`].
pub const LMR_MOVES: usize = 3;
/// LMR: a quiet move whose record (history plus continuation histories) is at least this
/// far from zero is reduced a ply less (good) or more (bad).
pub const LMR_HISTORY_DIVISOR: i32 = 16_384;
/// LMR: reduction = ln(depth) * ln(index) / LMR_DIVISOR.
pub const LMR_DIVISOR: f64 = 2.2;
/// Internal iterative reduction: smallest draft reduced by a ply when the table has no move.
pub const IIR_DEPTH: i32 = 4;
/// SEE pruning in the main search: deepest draft.
pub const SEE_PRUNE_DEPTH: i32 = 8;
/// SEE pruning: a capture is skipped when it loses more than this per ply of depth.
pub const SEE_CAPTURE_MARGIN: i32 = 200;
/// SEE pruning: extra margin per ply where captured men go to the captor's hand.
pub const SEE_HAND_MARGIN: i32 = 120;
/// SEE pruning: a quiet move is skipped when it loses more than this times depth squared.
pub const SEE_QUIET_MARGIN: i32 = 25;
/// Quiescence delta pruning margin.
pub const DELTA_MARGIN: i32 = 200;
/// Quiescence plies after which only recaptures (onto the previous move's square) are tried.
pub const QS_RECAPTURE_PLY: usize = 4;
/// Continuation histories: log2 of their slots (pairs of moves hashed into them). 2^20 holds
/// chess's pairs (768 x 768 kinds and squares) with few collisions; with 2^18 the histories
/// measured no better than none (docs/STRENGTH.md, session 21).
pub const CONT_BITS: u32 = 20;
/// Quiet moves searched before a cut-off that lose history by it, at most (the first ones).
pub const MALUS_MOVES: usize = 64;
/// History bonus cap.
pub const HISTORY_MAX: i32 = 16_384;
/// History bonus of a cut-off: `HISTORY_BONUS_PER_PLY * depth - HISTORY_BONUS_OFFSET`, at
/// most [`HISTORY_BONUS_MAX`] (Stockfish's scale: a cut-off at depth 8 moves a record by
/// about a seventh of its range; `depth * depth` moved it by 0.05% at depth 3).
pub const HISTORY_BONUS_PER_PLY: i32 = 300;
/// See [`HISTORY_BONUS_PER_PLY`].
pub const HISTORY_BONUS_OFFSET: i32 = 250;
/// See [`HISTORY_BONUS_PER_PLY`].
pub const HISTORY_BONUS_MAX: i32 = 2_400;
/// Nodes between looks at the clock and the stop flag.
pub const POLL_NODES: u64 = 128;
/// Time management: moves to go assumed in sudden death.
pub const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Time management: with more men than this on the board, a sudden-death clock plans for
/// [`MOVES_TO_GO_PER_MAN_PER_MILLE`] moves per man instead of [`DEFAULT_MOVES_TO_GO`]
/// (chess, shogi, capablanca and xiangqi keep the default).
pub const MANY_MEN: usize = 48;
/// Time management: moves to go assumed per man on the board (per mille) in games with
/// [`MANY_MEN`]. Chu games under XBoard at 30s+0.2s last 120 to 230 moves a side. Planning
/// for 30 moves, Locust's clock was down to about a second by move 40; for 61 (two thirds of
/// a move per man), still to 1 to 4 s by move 100, while HaChu kept 14 to 19 s and Locust
/// lost leads of two thousand centipawns it could no longer calculate
/// (docs/STRENGTH.md, sessions 22 and 23). Chu's 92 men plan for 138 moves; fewer as men
/// come off.
pub const MOVES_TO_GO_PER_MAN_PER_MILLE: u64 = 1500;
/// Time management: share (per mille) of the increment spent on this move.
pub const INCREMENT_PER_MILLE: u64 = 750;
/// Time management: the hard limit is this many times the soft one.
pub const HARD_FACTOR: u32 = 4;
/// Time management: never use more than this share (per mille) of the remaining time.
pub const MAX_SHARE_PER_MILLE: u64 = 300;
/// Time management: an iteration is not begun after this share (per mille) of the soft time.
pub const NEW_ITERATION_PER_MILLE: u64 = 550;
/// Move overhead assumed when the GUI does not say.
pub const DEFAULT_OVERHEAD_MS: u64 = 30;
/// Endgame tables: a build may take the remaining clock divided by this, and a search may
/// wait that long for its root's own table.
pub const TABLE_BUILD_CLOCK_DIVISOR: u32 = 4;
