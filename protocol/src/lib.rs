//! Protocol adapters (XBoard/CECP v2 and UCI): they turn protocol text into neutral commands
//! for the engine and the engine's events back into text. Nothing here knows about boards.
//!
//! It owns the reader thread (stdin lines to a channel, so the engine never blocks on input),
//! protocol detection, the square-notation rewriting the protocols differ in, the checked
//! reading of every number a GUI sends ([`number`]), and the command types: a line of UCI,
//! USI or UCCI becomes a [`uci::UciCommand`], a line of XBoard an [`xboard::XbCommand`].
//!
//! The command types live here, not in the engine, because they need nothing from it: moves
//! and positions stay text (only the engine's board can read them), numbers arrive checked,
//! and so each parser is tested line by line without an engine, while the engine's adapters
//! (src/engine/uci.rs, xboard.rs) only apply commands. The two families keep their own types
//! because their vocabularies differ (a UCI `go` carries its limits; XBoard sets clocks and
//! modes command by command).

// Lint posture: no unsafe code; documented public items; no unwrap/expect outside tests
// (CI runs clippy with -D warnings, so these warnings fail the build).
#![forbid(unsafe_code)]
#![warn(missing_docs, clippy::unwrap_used, clippy::expect_used)]

pub mod number;
pub mod uci;
pub mod xboard;

/// Which protocol a session speaks, decided from its first meaningful line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// Universal Chess Interface.
    Uci,
    /// XBoard / WinBoard, CECP version 2.
    Xboard,
    /// Universal Shogi Interface (recognised; answered as UCI with shogi notation to come).
    Usi,
    /// Universal Chinese Chess Interface (recognised; answered as UCI).
    Ucci,
}

/// Starts the reader thread: every stdin line arrives on the returned channel; the channel
/// closes at end of input.
pub fn spawn_reader() -> crossbeam_channel::Receiver<String> {
    let (tx, rx) = crossbeam_channel::unbounded();
    std::thread::spawn(move || {
        use std::io::BufRead;
        let stdin = std::io::stdin();
        let mut lock = stdin.lock();
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match lock.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim().to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Rewrites every square in a move text (`e2e4`, `P@e5`, `a9a8,a8b7`) by adding `delta` to its
/// rank number: XBoard numbers the ranks of 10-rank boards from 0, the engine from 1. Text that
/// is not a square (piece letters, `@@@@`, `O-O`) is kept.
pub fn shift_ranks(text: &str, delta: i32) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len() + 2);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let digits = b[i + 1..].iter().take_while(|d| d.is_ascii_digit()).count();
        if c.is_ascii_lowercase() && digits > 0 {
            // A GUI's rank may be any digit run: read as i64 (a run past it stays as sent)
            // and shifted without overflow, so `a2147483647` cannot panic or wrap.
            let run = &text[i + 1..i + 1 + digits];
            out.push(c as char);
            match run.parse::<i64>() {
                Ok(n) => out.push_str(&n.saturating_add(i64::from(delta)).to_string()),
                Err(_) => out.push_str(run),
            }
            i += 1 + digits;
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

/// Detects the protocol from the first non-empty input line (`uci`, `xboard` or `protover`).
pub fn detect(line: &str) -> Option<Protocol> {
    match line.split_whitespace().next()? {
        "uci" => Some(Protocol::Uci),
        "usi" => Some(Protocol::Usi),
        "ucci" => Some(Protocol::Ucci),
        "xboard" | "protover" => Some(Protocol::Xboard),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_only_squares() {
        assert_eq!(shift_ranks("a0a9", 1), "a1a10");
        assert_eq!(shift_ranks("a10i1,i1b2", -1), "a9i0,i0b1");
        assert_eq!(shift_ranks("P@e5", -1), "P@e4");
        assert_eq!(shift_ranks("e7e8q", 0), "e7e8q");
        assert_eq!(shift_ranks("@@@@", 1), "@@@@");
        assert_eq!(shift_ranks("a2147483647", 1), "a2147483648");
        assert_eq!(
            shift_ranks("a99999999999999999999b1", 1),
            "a99999999999999999999b2"
        );
    }

    #[test]
    fn detects_protocols_from_first_word() {
        assert_eq!(detect("uci"), Some(Protocol::Uci));
        assert_eq!(detect("  xboard  "), Some(Protocol::Xboard));
        assert_eq!(detect("protover 2"), Some(Protocol::Xboard));
        assert_eq!(detect("isready"), None);
        assert_eq!(detect(""), None);
    }
}
