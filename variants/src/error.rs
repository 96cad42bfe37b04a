//! Errors of the rules crate: every one names the file, line and key it is about.

use std::fmt;

/// An error in a variant definition, reported as `FILE:LINE: key: message`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantError {
    /// File the error is in (`<builtin>/chess.ini` for embedded files).
    pub path: String,
    /// 1-based line, or 0 when the error concerns the whole file.
    pub line: usize,
    /// The key (or section name, or `section`) the error is about.
    pub key: String,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for VariantError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}: {}",
            self.path, self.line, self.key, self.message
        )
    }
}

impl std::error::Error for VariantError {}

/// An error in XBetza text, with the 1-based column where it was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct XbetzaError {
    /// 1-based column of the offending character.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}
