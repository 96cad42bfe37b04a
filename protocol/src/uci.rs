//! UCI and its dialects USI (shogi GUIs) and UCCI (xiangqi GUIs) as text: one input line
//! becomes a [`UciCommand`], with every number read through [`crate::number`]. Moves and
//! positions stay text here; the engine reads them against its board.

use std::time::Duration;

use crate::number::{self, NumberError};

/// Which member of the UCI family speaks: they differ in clock words and side names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Family {
    /// UCI.
    Uci,
    /// USI: `btime` is the clock of sente (`b`), the side that moves first.
    Usi,
    /// UCCI: `time`/`increment` of the side to move, `opptime`/`oppincrement` of the other,
    /// in seconds unless `usemillisec` is on.
    Ucci {
        /// `setoption usemillisec true`: UCCI clocks in milliseconds.
        millisec: bool,
    },
}

/// Deepest `go depth` taken (deeper requests are capped).
pub const MAX_GO_DEPTH: u64 = 1000;
/// Most moves to go taken from a clock (more are capped).
pub const MAX_MOVES_TO_GO: u64 = 1000;

/// One line of UCI, USI or UCCI.
#[derive(Clone, Debug, PartialEq)]
pub enum UciCommand {
    /// `uci`, `usi` or `ucci`: identify and list the options.
    Hello(HelloWord),
    /// `isready` (also a stray `readyok`).
    IsReady,
    /// `debug on|off`.
    Debug,
    /// UCCI `banmoves`.
    BanMoves,
    /// `setoption name N [value V]` (UCCI's `setoption N V` too).
    SetOption {
        /// The option's name as sent.
        name: String,
        /// Its value (empty when none).
        value: String,
    },
    /// `setoption` without a name.
    BadSetOption,
    /// `ucinewgame` / `usinewgame`.
    NewGame,
    /// `gameover` (USI).
    GameOver,
    /// `position ...`.
    Position(PositionCommand),
    /// `go perft N`.
    Perft(u64),
    /// `go ...`.
    Go(Box<Go>),
    /// `stop`.
    Stop,
    /// `ponderhit`.
    PonderHit,
    /// `quit`.
    Quit,
    /// `d`: show the position.
    Show,
    /// Anything else (the whole line).
    Unknown(String),
}

/// The greeting word, which also picks the dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HelloWord {
    /// `uci`.
    Uci,
    /// `usi`.
    Usi,
    /// `ucci`.
    Ucci,
}

/// `position startpos|fen F|sfen S [moves M...]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionCommand {
    /// Where the game starts.
    pub setup: Setup,
    /// The moves after it, as text.
    pub moves: Vec<String>,
}

/// The start of a `position` command.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// `startpos`.
    StartPos,
    /// `fen ...`, the words joined by spaces (UCCI's `r` side already written `w`).
    Fen(String),
    /// `sfen ...`, the words as sent.
    Sfen(Vec<String>),
    /// None of those.
    Missing,
}

/// The limits of a `go`, by player: index 0 is the side that moves first (UCI's White,
/// USI's sente), 1 the other.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Go {
    /// `wtime`/`btime`.
    pub time: [Option<Duration>; 2],
    /// `winc`/`binc`.
    pub inc: [Option<Duration>; 2],
    /// UCCI: the side to move's clock and increment, the opponent's clock and increment.
    pub own_time: Option<Duration>,
    /// UCCI `increment`.
    pub own_inc: Option<Duration>,
    /// UCCI `opptime`.
    pub opp_time: Option<Duration>,
    /// UCCI `oppincrement`.
    pub opp_inc: Option<Duration>,
    /// USI `byoyomi`.
    pub byoyomi: Option<Duration>,
    /// `movestogo` (0 means none).
    pub movestogo: Option<u64>,
    /// `depth`.
    pub depth: Option<u64>,
    /// `nodes`.
    pub nodes: Option<u64>,
    /// `movetime`.
    pub movetime: Option<Duration>,
    /// `infinite`.
    pub infinite: bool,
    /// `ponder`.
    pub ponder: bool,
    /// `searchmoves ...`, as text.
    pub searchmoves: Vec<String>,
}

impl Go {
    /// Was a game clock given (the search then manages its time)?
    pub fn timed(&self) -> bool {
        self.time.iter().any(Option::is_some) || self.byoyomi.is_some() || self.own_time.is_some()
    }
}

/// A parsed line: the command and what was refused on the way, as text for the protocol's
/// `info string`.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// The command.
    pub command: UciCommand,
    /// Refused values, one message each (`go wtime: expected a number, got `nan``).
    pub errors: Vec<String>,
}

/// Reads one line of `family`.
pub fn parse(line: &str, family: Family) -> Parsed {
    let mut words = line.split_whitespace();
    let cmd = words.next().unwrap_or("");
    let rest: Vec<&str> = words.collect();
    let mut errors = Vec::new();
    let command = match cmd {
        "uci" => UciCommand::Hello(HelloWord::Uci),
        "usi" => UciCommand::Hello(HelloWord::Usi),
        "ucci" => UciCommand::Hello(HelloWord::Ucci),
        "gameover" => UciCommand::GameOver,
        "debug" => UciCommand::Debug,
        "banmoves" => UciCommand::BanMoves,
        "isready" | "readyok" => UciCommand::IsReady,
        "setoption" => setoption(&rest, family),
        "ucinewgame" | "usinewgame" => UciCommand::NewGame,
        "position" => UciCommand::Position(position(&rest)),
        "go" => go(&rest, family, &mut errors),
        "stop" => UciCommand::Stop,
        "ponderhit" => UciCommand::PonderHit,
        "quit" => UciCommand::Quit,
        "d" => UciCommand::Show,
        _ => UciCommand::Unknown(line.to_string()),
    };
    Parsed { command, errors }
}

fn setoption(words: &[&str], family: Family) -> UciCommand {
    let mut text = words.join(" ");
    if matches!(family, Family::Ucci { .. }) && !text.starts_with("name ") {
        // UCCI writes `setoption <id> <value>`.
        text = match text.split_once(' ') {
            Some((id, v)) => format!("name {id} value {v}"),
            None => format!("name {text}"),
        };
    }
    let Some(rest) = text.strip_prefix("name ") else {
        return UciCommand::BadSetOption;
    };
    let (name, value) = match rest.split_once(" value ") {
        Some((n, v)) => (n.trim(), v.trim()),
        None => (rest.trim(), ""),
    };
    UciCommand::SetOption {
        name: name.to_string(),
        value: value.to_string(),
    }
}

fn position(words: &[&str]) -> PositionCommand {
    let split = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let (setup, moves) = (&words[..split], words.get(split + 1..).unwrap_or(&[]));
    let setup = match setup.first() {
        Some(&"startpos") => Setup::StartPos,
        Some(&"fen") => Setup::Fen(red_is_white(&setup[1..]).join(" ")),
        Some(&"sfen") => Setup::Sfen(setup[1..].iter().map(|s| s.to_string()).collect()),
        _ => Setup::Missing,
    };
    PositionCommand {
        setup,
        moves: moves.iter().map(|s| s.to_string()).collect(),
    }
}

/// UCCI FENs may name the side to move `r` (red, who moves first): the engine's `w`.
fn red_is_white<'a>(words: &[&'a str]) -> Vec<&'a str> {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| if i == 1 && *w == "r" { "w" } else { *w })
        .collect()
}

/// The number after `key` through `parse`; a refusal is noted in `errors` and gives
/// `fallback`, the slot's floor (no time, depth 1, one node), so the GUI still gets a move
/// soon.
fn slot<T>(
    key: &str,
    arg: Option<&&str>,
    parse: impl Fn(&str) -> Result<T, NumberError>,
    fallback: T,
    errors: &mut Vec<String>,
) -> T {
    parse(arg.copied().unwrap_or("")).unwrap_or_else(|e| {
        errors.push(format!("go {key}: {e}"));
        fallback
    })
}

fn go(words: &[&str], family: Family, errors: &mut Vec<String>) -> UciCommand {
    if words.first() == Some(&"perft") {
        return UciCommand::Perft(slot("perft", words.get(1), number::unsigned, 1, errors));
    }
    let mut go = Go::default();
    // In USI `b` (sente) is the side that moves first.
    let (w, b) = if family == Family::Usi {
        (1, 0)
    } else {
        (0, 1)
    };
    let unit_ms = match family {
        Family::Ucci { millisec: true } => 1,
        _ => 1000,
    };
    for (i, &key) in words.iter().enumerate() {
        let arg = words.get(i + 1);
        let mut ms = || Some(slot(key, arg, number::millis, Duration::ZERO, errors));
        let units = |errors: &mut Vec<String>| {
            Some(slot(
                key,
                arg,
                |t| number::units(t, unit_ms),
                Duration::ZERO,
                errors,
            ))
        };
        match key {
            "wtime" => go.time[w] = ms(),
            "btime" => go.time[b] = ms(),
            "winc" => go.inc[w] = ms(),
            "binc" => go.inc[b] = ms(),
            "byoyomi" => go.byoyomi = ms(),
            "movetime" => go.movetime = ms(),
            "time" => go.own_time = units(errors),
            "increment" => go.own_inc = units(errors),
            "opptime" => go.opp_time = units(errors),
            "oppincrement" => go.opp_inc = units(errors),
            "movestogo" => {
                go.movestogo = Some(slot(
                    key,
                    arg,
                    |t| number::capped(t, MAX_MOVES_TO_GO),
                    0,
                    errors,
                ))
            }
            "depth" => {
                go.depth = Some(slot(
                    key,
                    arg,
                    |t| number::capped(t, MAX_GO_DEPTH),
                    1,
                    errors,
                ))
            }
            "nodes" => go.nodes = Some(slot(key, arg, |t| number::capped(t, u64::MAX), 1, errors)),
            "infinite" => go.infinite = true,
            "ponder" => go.ponder = true,
            "searchmoves" => {
                go.searchmoves = words[i + 1..].iter().map(|s| s.to_string()).collect();
                break;
            }
            _ => {}
        }
    }
    UciCommand::Go(Box::new(go))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str, family: Family) -> UciCommand {
        parse(line, family).command
    }

    fn go_of(line: &str, family: Family) -> (Go, Vec<String>) {
        let p = parse(line, family);
        match p.command {
            UciCommand::Go(g) => (*g, p.errors),
            c => panic!("not a go: {c:?}"),
        }
    }

    #[test]
    fn go_reads_every_limit() {
        let (g, errors) = go_of(
            "go wtime 1000 btime 2000 winc 10 binc 20 movestogo 5 depth 7 nodes 99 movetime 300",
            Family::Uci,
        );
        assert!(errors.is_empty());
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(g.time, [ms(1000), ms(2000)]);
        assert_eq!(g.inc, [ms(10), ms(20)]);
        assert_eq!(
            (g.movestogo, g.depth, g.nodes, g.movetime),
            (Some(5), Some(7), Some(99), ms(300))
        );
        assert!(g.timed());
        let (g, _) = go_of("go infinite searchmoves e2e4 d2d4", Family::Uci);
        assert!(g.infinite && !g.timed());
        assert_eq!(g.searchmoves, ["e2e4", "d2d4"]);
    }

    #[test]
    fn usi_sente_is_the_first_player_and_ucci_counts_seconds() {
        let (g, _) = go_of("go btime 100 wtime 200 byoyomi 5", Family::Usi);
        let ms = |n| Some(Duration::from_millis(n));
        assert_eq!(g.time, [ms(100), ms(200)]);
        assert_eq!(g.byoyomi, ms(5));
        let (g, _) = go_of(
            "go time 3 increment 1 opptime 4",
            Family::Ucci { millisec: false },
        );
        assert_eq!(
            (g.own_time, g.own_inc, g.opp_time),
            (ms(3000), ms(1000), ms(4000))
        );
        let (g, _) = go_of("go time 3", Family::Ucci { millisec: true });
        assert_eq!(g.own_time, ms(3));
    }

    #[test]
    fn numbers_past_u64_mean_as_much_as_possible() {
        let big = "99999999999999999999999";
        let (g, errors) = go_of(
            &format!("go nodes {big} depth {big} wtime {big}"),
            Family::Uci,
        );
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(g.nodes, Some(u64::MAX));
        assert_eq!(g.depth, Some(MAX_GO_DEPTH));
        assert_eq!(g.time[0], Some(Duration::from_millis(number::MAX_TIME_MS)));
    }

    #[test]
    fn refused_numbers_are_reported_and_floored() {
        let (g, errors) = go_of("go wtime nan depth -1 nodes inf movestogo", Family::Uci);
        assert_eq!(g.time[0], Some(Duration::ZERO));
        assert_eq!((g.depth, g.nodes, g.movestogo), (Some(1), Some(1), Some(0)));
        assert_eq!(errors.len(), 4, "{errors:?}");
        assert_eq!(errors[0], "go wtime: expected a number, got `nan`");
        assert_eq!(
            command("go perft x", Family::Uci),
            UciCommand::Perft(1),
            "perft falls back to depth 1"
        );
    }

    #[test]
    fn positions_and_options_stay_text() {
        assert_eq!(
            command("position startpos moves e2e4 e7e5", Family::Uci),
            UciCommand::Position(PositionCommand {
                setup: Setup::StartPos,
                moves: vec!["e2e4".into(), "e7e5".into()],
            })
        );
        let UciCommand::Position(p) = command("position fen 9/9 r - - 0 1", Family::Uci) else {
            panic!()
        };
        assert_eq!(p.setup, Setup::Fen("9/9 w - - 0 1".into()));
        assert_eq!(
            command("position", Family::Uci),
            UciCommand::Position(PositionCommand {
                setup: Setup::Missing,
                moves: vec![]
            })
        );
        assert_eq!(
            command("setoption name Move Overhead value 30", Family::Uci),
            UciCommand::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            }
        );
        assert_eq!(
            command(
                "setoption usemillisec true",
                Family::Ucci { millisec: false }
            ),
            UciCommand::SetOption {
                name: "usemillisec".into(),
                value: "true".into()
            }
        );
        assert_eq!(
            command("setoption x", Family::Uci),
            UciCommand::BadSetOption
        );
        assert_eq!(
            command("frob", Family::Uci),
            UciCommand::Unknown("frob".into())
        );
    }
}
