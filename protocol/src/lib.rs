//! Protocol adapters (XBoard/CECP v2 and UCI): they turn protocol text into neutral commands
//! for the engine and the engine's events back into text. Nothing here knows about boards.
//!
//! The adapters themselves arrive with the protocols issue; this crate currently holds the
//! protocol detection that the command line uses to greet a user who types `uci` or `xboard`.

// Lint posture: no unsafe code; documented public items; no unwrap/expect outside tests
// (CI runs clippy with -D warnings, so these warnings fail the build).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::unwrap_used, clippy::expect_used)]

/// Which protocol a session speaks, decided from its first meaningful line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Chess Interface.
    Uci,
    /// XBoard / WinBoard, CECP version 2.
    Xboard,
}

/// Detects the protocol from the first non-empty input line (`uci`, `xboard` or `protover`).
pub fn detect(line: &str) -> Option<Protocol> {
    match line.split_whitespace().next()? {
        "uci" => Some(Protocol::Uci),
        "xboard" | "protover" => Some(Protocol::Xboard),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_protocols_from_first_word() {
        assert_eq!(detect("uci"), Some(Protocol::Uci));
        assert_eq!(detect("  xboard  "), Some(Protocol::Xboard));
        assert_eq!(detect("protover 2"), Some(Protocol::Xboard));
        assert_eq!(detect("isready"), None);
        assert_eq!(detect(""), None);
    }
}
