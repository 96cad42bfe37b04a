//! XBoard (CECP v2) as text: one input line becomes an [`XbCommand`], every number read
//! through [`crate::number`] (a refused one stays in the command as its error, for the engine
//! to answer `Error (...)` and keep its setting). Moves, squares and FENs stay text.

use std::time::Duration;

use crate::number::{self, NumberError};

/// XBoard's clock unit (`time`, `otim`), in milliseconds.
pub const CENTISECOND_MS: u64 = 10;
/// Deepest `sd` taken (deeper requests are capped).
pub const MAX_SD: u64 = 1000;
/// Most moves per control taken from `level` (more are capped).
pub const MAX_MPS: u64 = 10_000;

/// Commands accepted and deliberately ignored (no reply is expected for them).
pub const IGNORED: &[&str] = &[
    "xboard", "accepted", "rejected", "random", "name", "rating", "ics", "draw", "otim_", "bk",
    ".", "pause", "resume", "white", "black",
];

/// A number from a command, or why it was refused.
pub type Number<T> = Result<T, NumberError>;

/// One line of XBoard.
#[derive(Clone, Debug, PartialEq)]
pub enum XbCommand {
    /// `protover N`.
    Protover,
    /// `new`.
    New,
    /// `variant NAME`.
    Variant(String),
    /// `force`.
    Force,
    /// `go`.
    Go,
    /// `playother`.
    PlayOther,
    /// `usermove M`, or a bare word that looks like a move.
    UserMove(String),
    /// `setboard FEN`.
    SetBoard(String),
    /// `holding [WHITE] [BLACK]` with an optional `Cp` (the colour and piece just added),
    /// XBoard's bughouse message: the men in hand, which come from the partner's board.
    Holding(String),
    /// `time N`: the engine's clock.
    Time(Number<Duration>),
    /// `otim N`: the opponent's clock.
    Otim(Number<Duration>),
    /// `level MPS BASE INC` (a malformed field count is `Err(None)`).
    Level(Result<Level, Option<NumberError>>),
    /// `st SECONDS`: time per move (0: none).
    St(Number<Duration>),
    /// `sd DEPTH`.
    Sd(Number<u64>),
    /// `nps N` (declined; only checked).
    Nps(Number<u64>),
    /// `ping [N]`, with its argument.
    Ping(String),
    /// `?`: move now.
    MoveNow,
    /// `undo`.
    Undo,
    /// `remove`.
    Remove,
    /// `result ...`.
    Result,
    /// `hard`.
    Hard,
    /// `easy`.
    Easy,
    /// `hint`.
    Hint,
    /// `post`.
    Post,
    /// `nopost`.
    NoPost,
    /// `analyze`.
    Analyze,
    /// `exit` (leave analysis).
    Exit,
    /// `memory MB`.
    Memory(Number<u64>),
    /// `cores N`.
    Cores(Number<u64>),
    /// `option NAME[=VALUE]`.
    Option {
        /// The option's name.
        name: String,
        /// Its value as sent (empty when none).
        value: String,
    },
    /// `egtpath KIND PATH`: the whole argument.
    EgtPath(String),
    /// `perft DEPTH`, with the argument as sent (for the error).
    Perft(Number<u64>, String),
    /// `lift SQUARE`.
    Lift(String),
    /// `put SQUARE`.
    Put(String),
    /// `hover SQUARE`.
    Hover,
    /// `quit`.
    Quit,
    /// `computer`: the opponent is an engine.
    Computer,
    /// One of [`IGNORED`].
    Ignored(String),
    /// Anything else: the command word.
    Unknown(String),
}

/// `level`'s fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// Moves per control (0: the whole game).
    pub mps: u32,
    /// Base time.
    pub base: Duration,
    /// Increment per move.
    pub inc: Duration,
}

impl XbCommand {
    /// Does this command read, search or change the current game (so that it has no meaning
    /// after a refused `setboard`)?
    pub fn needs_position(&self) -> bool {
        matches!(
            self,
            XbCommand::Go
                | XbCommand::UserMove(_)
                | XbCommand::Analyze
                | XbCommand::Undo
                | XbCommand::Remove
                | XbCommand::Hint
                | XbCommand::Perft(..)
                | XbCommand::PlayOther
        )
    }
}

/// Reads one line.
pub fn parse(line: &str) -> XbCommand {
    let (cmd, arg) = line.split_once(' ').unwrap_or((line, ""));
    let arg = arg.trim();
    match cmd {
        "protover" => XbCommand::Protover,
        "new" => XbCommand::New,
        "variant" => XbCommand::Variant(arg.to_string()),
        "force" => XbCommand::Force,
        "go" => XbCommand::Go,
        "playother" => XbCommand::PlayOther,
        "usermove" => XbCommand::UserMove(arg.to_string()),
        "setboard" => XbCommand::SetBoard(arg.to_string()),
        "holding" => XbCommand::Holding(arg.to_string()),
        "time" => XbCommand::Time(number::units(arg, CENTISECOND_MS)),
        "otim" => XbCommand::Otim(number::units(arg, CENTISECOND_MS)),
        "level" => XbCommand::Level(level(arg)),
        "st" => XbCommand::St(number::seconds(arg)),
        "sd" => XbCommand::Sd(number::capped(arg, MAX_SD)),
        "nps" => XbCommand::Nps(number::capped(arg, u64::MAX)),
        "ping" => XbCommand::Ping(arg.to_string()),
        "?" => XbCommand::MoveNow,
        "undo" => XbCommand::Undo,
        "remove" => XbCommand::Remove,
        "result" => XbCommand::Result,
        "hard" => XbCommand::Hard,
        "easy" => XbCommand::Easy,
        "hint" => XbCommand::Hint,
        "post" => XbCommand::Post,
        "nopost" => XbCommand::NoPost,
        "analyze" => XbCommand::Analyze,
        "exit" => XbCommand::Exit,
        "memory" => XbCommand::Memory(number::capped(arg, u64::MAX)),
        "cores" => XbCommand::Cores(number::capped(arg, u64::MAX)),
        "option" => {
            let (name, value) = arg.split_once('=').unwrap_or((arg, ""));
            XbCommand::Option {
                name: name.trim().to_string(),
                value: value.to_string(),
            }
        }
        "egtpath" => XbCommand::EgtPath(arg.to_string()),
        "perft" => XbCommand::Perft(number::unsigned(arg), arg.to_string()),
        "lift" => XbCommand::Lift(arg.to_string()),
        "put" => XbCommand::Put(arg.to_string()),
        // A hover asks for the victims of a capture; the engine shows its own otherwise.
        "hover" => XbCommand::Hover,
        "quit" => XbCommand::Quit,
        "computer" => XbCommand::Computer,
        c if IGNORED.contains(&c) => XbCommand::Ignored(c.to_string()),
        c if looks_like_move(c) => XbCommand::UserMove(c.to_string()),
        c => XbCommand::Unknown(c.to_string()),
    }
}

/// `MPS BASE INC`: moves per control, base in minutes or `mm:ss`, increment in seconds.
fn level(arg: &str) -> Result<Level, Option<NumberError>> {
    let [mps, base, inc] = arg.split_whitespace().collect::<Vec<_>>()[..] else {
        return Err(None);
    };
    Ok(Level {
        mps: number::capped(mps, MAX_MPS)? as u32,
        base: number::minutes_seconds(base)?,
        inc: number::seconds(inc)?,
    })
}

/// Does this word look like a move (for GUIs that send moves without `usermove`)?
pub fn looks_like_move(word: &str) -> bool {
    let b = word.as_bytes();
    b.len() >= 4
        && (b[0].is_ascii_lowercase() && b[1].is_ascii_digit()
            || b[1] == b'@'
            || word == "@@@@"
            || word.starts_with("O-O"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_and_limits_are_checked_numbers() {
        assert_eq!(
            parse("time 3000"),
            XbCommand::Time(Ok(Duration::from_secs(30)))
        );
        assert!(matches!(parse("otim -5"), XbCommand::Otim(Err(_))));
        assert_eq!(
            parse("level 40 2:30 0.5"),
            XbCommand::Level(Ok(Level {
                mps: 40,
                base: Duration::from_secs(150),
                inc: Duration::from_millis(500),
            }))
        );
        assert!(matches!(
            parse("level 40 5 nan"),
            XbCommand::Level(Err(Some(_)))
        ));
        assert_eq!(parse("level 40 5"), XbCommand::Level(Err(None)));
        assert_eq!(parse("st 0"), XbCommand::St(Ok(Duration::ZERO)));
        assert!(matches!(parse("st inf"), XbCommand::St(Err(_))));
        assert_eq!(parse("sd 99999"), XbCommand::Sd(Ok(MAX_SD)));
        assert!(matches!(parse("memory"), XbCommand::Memory(Err(_))));
        assert!(matches!(parse("perft x"), XbCommand::Perft(Err(_), _)));
    }

    #[test]
    fn moves_options_and_the_rest() {
        assert_eq!(parse("e2e4"), XbCommand::UserMove("e2e4".into()));
        assert_eq!(parse("P@e5"), XbCommand::UserMove("P@e5".into()));
        assert_eq!(
            parse("usermove a9a8,a8b7"),
            XbCommand::UserMove("a9a8,a8b7".into())
        );
        assert_eq!(
            parse("option EGT Men=4"),
            XbCommand::Option {
                name: "EGT Men".into(),
                value: "4".into()
            }
        );
        assert_eq!(parse("ping 12"), XbCommand::Ping("12".into()));
        assert_eq!(parse("random"), XbCommand::Ignored("random".into()));
        assert_eq!(parse("frob"), XbCommand::Unknown("frob".into()));
        assert!(parse("go").needs_position() && !parse("new").needs_position());
    }
}
