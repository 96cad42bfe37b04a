//! Locust's rules crate: reads variant INI files, compiles XBetza piece notation into
//! trajectory trees, and holds the built-in variants. It has no engine code; the engine reads
//! the compiled [`Variant`] only.

// Lint posture: no unsafe code; documented public items; no unwrap/expect outside tests
// (CI runs clippy with -D warnings, so these warnings fail the build).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::unwrap_used, clippy::expect_used)]

pub mod error;
pub mod file;
pub mod geometry;
pub mod ini;
pub mod load;
pub mod rules;
pub mod trajectory;
pub mod xbetza;

pub use error::{VariantError, XbetzaError};
pub use geometry::{Coord, SquareSet, MAX_FILES, MAX_RANKS};
pub use load::{
    builtin, builtins, find, load_builtin_file, load_file, load_file_report, load_report, load_str,
    start_squares, FileReport, SectionReport,
};
pub use rules::{CambodianMoves, Gating, PieceId, PieceType, Variant, Walling, WallingRule};
pub use trajectory::{rights, Node, NodeId, Trajectories};
