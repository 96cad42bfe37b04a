//! Locust: a chess-variant engine built on H.G. Muller's incremental attack map.
//!
//! The rules of every variant come from the `variants` crate as compiled data; this crate
//! owns the position, the attack map, move generation, search and the command line.

// Lint posture: no unsafe code; documented public items; no unwrap/expect outside tests
// (CI runs clippy with -D warnings, so these warnings fail the build).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::unwrap_used, clippy::expect_used)]

pub mod bench;
pub mod board;
pub mod egt;
pub mod engine;
pub mod eval;
pub mod game;
pub mod perft;
pub mod search;
