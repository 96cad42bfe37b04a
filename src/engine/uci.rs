//! The UCI adapter: applies the commands `protocol::uci` reads from a line (options,
//! `position` with fairy FENs and moves, `go` with every limit) and writes `info` lines and
//! `bestmove`; USI (shogi GUIs, `usi.rs`) and UCCI (xiangqi GUIs) as dialects of it.

use std::io::Write;
use std::time::Duration;

use super::notation::{self, Dialect};
use super::{Engine, Task, AUTHOR, NAME};
use crate::game::Game;
use crate::search::{Clock, Limits, Score, SearchEvent};
use protocol::number::NumberError;
use protocol::uci::{self, Family, Go, HelloWord, PositionCommand, Setup, UciCommand};

/// UCI settings that live between commands.
#[derive(Debug, Default)]
pub(super) struct UciState {
    chess960: bool,
    /// UCCI: `time`/`increment` in milliseconds (`usemillisec`), else in seconds.
    millisec: bool,
    multipv: usize,
    variant_path: String,
}

/// Largest hash size offered, in MB.
pub(super) const MAX_HASH_MB: usize = 65_536;
/// Most threads offered.
pub(super) const MAX_THREADS: usize = 256;
/// Most principal variations offered.
const MAX_MULTIPV: usize = 256;
/// Largest move overhead offered, in milliseconds.
const MAX_MOVE_OVERHEAD_MS: u64 = 5000;
/// Deepest `go perft` taken.
pub(super) const MAX_PERFT_DEPTH: u64 = 64;

/// `n` within `min..=max`, as a `usize` (a `u64` past `usize` is capped at `max`).
fn clamp_to(n: u64, min: usize, max: usize) -> usize {
    usize::try_from(n).unwrap_or(max).clamp(min, max)
}

impl<W: Write> Engine<W> {
    fn dialect(&self) -> Dialect {
        if self.is_usi() {
            return Dialect::Usi;
        }
        if self.protocol == Some(protocol::Protocol::Ucci) {
            return Dialect::Ucci;
        }
        Dialect::Uci {
            chess960: self.uci.chess960,
        }
    }

    fn is_usi(&self) -> bool {
        self.protocol == Some(protocol::Protocol::Usi)
    }

    /// The UCI family of protocols this session speaks, as the parser needs it.
    fn family(&self) -> Family {
        match self.protocol {
            Some(protocol::Protocol::Usi) => Family::Usi,
            Some(protocol::Protocol::Ucci) => Family::Ucci {
                millisec: self.uci.millisec,
            },
            _ => Family::Uci,
        }
    }

    /// Reads one line of UCI, USI or UCCI and applies it.
    pub(super) fn uci(&mut self, line: &str) {
        let parsed = uci::parse(line, self.family());
        for e in &parsed.errors {
            self.say(&format!("info string {e}"));
        }
        self.apply_uci(parsed.command);
    }

    fn apply_uci(&mut self, command: UciCommand) {
        match command {
            UciCommand::Hello(HelloWord::Uci) => self.uci_hello("uciok"),
            UciCommand::Hello(HelloWord::Ucci) => {
                // Xiangqi GUIs expect xiangqi; another variant stays selectable by option.
                if self.game.position().variant().name == "chess" {
                    self.uci_variant("xiangqi");
                }
                self.uci_hello("ucciok");
            }
            UciCommand::Hello(HelloWord::Usi) => {
                // Shogi GUIs expect shogi; another variant stays selectable by option.
                if self.game.position().variant().name == "chess" {
                    self.uci_variant("shogi");
                }
                self.uci_hello("usiok");
            }
            UciCommand::GameOver => self.halt(),
            // `debug on|off`: UCI's switch for extra `info string` output; we have none extra.
            UciCommand::Debug => {}
            UciCommand::BanMoves => self.say("info string banmoves is not supported; ignored"),
            UciCommand::IsReady => self.say("readyok"),
            UciCommand::SetOption { name, value } => self.setoption(&name, &value),
            UciCommand::BadSetOption => {
                self.say("info string setoption: expected `name <id> [value <x>]`")
            }
            UciCommand::NewGame => {
                self.halt();
                self.searcher.clear();
            }
            UciCommand::Position(p) => self.position(&p),
            UciCommand::Perft(depth) => {
                self.halt();
                if self.refused {
                    return self.no_position_reply();
                }
                let dialect = self.dialect();
                self.start_perft(depth.min(MAX_PERFT_DEPTH) as u32, dialect);
            }
            UciCommand::Go(g) => self.go(&g),
            UciCommand::Stop => self.searcher.stop(),
            UciCommand::PonderHit => self.searcher.ponderhit(),
            UciCommand::Quit => self.quit = true,
            UciCommand::Show => {
                let fen = self.game.position().fen();
                self.say(&format!("info string fen {fen}"));
            }
            UciCommand::Unknown(line) => self.say(&format!("info string unknown command: {line}")),
        }
    }

    fn uci_hello(&mut self, ok: &str) {
        // Each variant's name, then its aliases that are FSF names (FSF lists `chess` and
        // `normal`, `minishogi` and `mini`).
        let names: Vec<String> = (self.variants.iter())
            .flat_map(|v| std::iter::once(&v.name).chain(super::fsf_aliases(v)))
            .map(|name| format!("var {name}"))
            .collect();
        let current = self.game.position().variant().name.clone();
        let lines = [
            format!("id name {NAME}"),
            format!("id author {AUTHOR}"),
            format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            format!("option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"),
            "option name Ponder type check default false".to_string(),
            format!(
                "option name Move Overhead type spin default 30 min 0 max {MAX_MOVE_OVERHEAD_MS}"
            ),
            "option name UCI_Chess960 type check default false".to_string(),
            format!(
                "option name UCI_Variant type combo default {current} {}",
                names.join(" ")
            ),
            "option name VariantPath type string default <empty>".to_string(),
            "option name EGT type check default true".to_string(),
            format!(
                "option name EGT Men type spin default {} min 2 max {}",
                crate::egt::service::ServiceSettings::default().max_men,
                crate::egt::material::MAX_MEN
            ),
            format!(
                "option name EGT Memory type spin default 1024 min 1 max {}",
                super::MAX_EGT_MEMORY_MB
            ),
            "option name EGT Path type string default <empty>".to_string(),
        ];
        for l in lines {
            self.say(&l);
        }
        if ok == "ucciok" {
            self.say("option usemillisec type check default false");
        }
        self.say(ok);
    }

    fn setoption(&mut self, name: &str, value: &str) {
        // Garbage keeps its old wording (`Hash: not a number: lots`); the other refusals
        // say what was wrong with the number.
        let number = |name: &str| {
            protocol::number::unsigned(value).map_err(|e| match e {
                NumberError::NotANumber(_) | NumberError::Empty => {
                    format!("info string {name}: not a number: {value}")
                }
                e => format!("info string {name}: {e}"),
            })
        };
        match name.to_ascii_lowercase().as_str() {
            "hash" | "usi_hash" => match number("Hash") {
                Ok(mb) => self.set_options(|o| o.hash_mb = clamp_to(mb, 1, MAX_HASH_MB)),
                Err(e) => self.say(&e),
            },
            "threads" => match number("Threads") {
                Ok(n) => self.set_options(|o| o.threads = clamp_to(n, 1, MAX_THREADS)),
                Err(e) => self.say(&e),
            },
            "multipv" => match number("MultiPV") {
                Ok(n) => self.uci.multipv = clamp_to(n, 1, MAX_MULTIPV),
                Err(e) => self.say(&e),
            },
            "move overhead" => match number("Move Overhead") {
                Ok(ms) => self.set_options(|o| {
                    o.move_overhead = Duration::from_millis(ms.min(MAX_MOVE_OVERHEAD_MS))
                }),
                Err(e) => self.say(&e),
            },
            "uci_chess960" => self.uci.chess960 = value.eq_ignore_ascii_case("true"),
            "ponder" | "usi_ponder" => {}
            "usemillisec" => self.uci.millisec = value.eq_ignore_ascii_case("true"),
            "uci_variant" => self.uci_variant(value),
            "variantpath" => self.variant_path(value),
            n if n.starts_with("egt") => {
                if let Err(e) = self.set_table_option(name, value) {
                    self.say(&format!("info string {e}"));
                }
            }
            _ => self.say(&format!("info string unknown option: {name}")),
        }
    }

    fn uci_variant(&mut self, name: &str) {
        match self.find_variant(name) {
            Some(v) => match Game::new(v) {
                Ok(g) => {
                    self.halt();
                    self.game = g;
                    self.refused = false;
                }
                Err(e) => self.say(&format!("info string variant {name}: {e}")),
            },
            None => self.say(&format!("info string unknown variant: {name}")),
        }
    }

    fn variant_path(&mut self, path: &str) {
        if path.is_empty() || path == "<empty>" {
            return;
        }
        let (loaded, errors) = self.load_variant_file(path);
        for e in errors {
            self.say(&format!("info string {e}"));
        }
        if loaded > 0 {
            self.uci.variant_path = path.to_string();
        }
    }

    /// `position startpos|fen FEN [moves M...]`: a bad FEN or move is reported, and `go`
    /// refuses to search until a position is accepted (the one kept is another game's).
    fn position(&mut self, p: &PositionCommand) {
        self.halt();
        match self.read_position(p) {
            Ok(game) => {
                self.game = game;
                self.refused = false;
            }
            Err(e) => {
                self.say(&format!("info string position: {e}"));
                self.refused = true;
            }
        }
    }

    /// The game a `position` command describes.
    fn read_position(&mut self, p: &PositionCommand) -> Result<Game, String> {
        let variant = self.game.position().variant().clone();
        let game = match &p.setup {
            Setup::StartPos => Game::new(variant),
            Setup::Fen(fen) => Game::from_fen(variant, fen),
            Setup::Sfen(words) => {
                let words: Vec<&str> = words.iter().map(String::as_str).collect();
                Game::from_fen(variant, &super::usi::sfen_to_fen(&words)?)
            }
            Setup::Missing => {
                return Err("expected `startpos`, `fen <FEN>` or `sfen <SFEN>`".to_string())
            }
        };
        let mut game = game.map_err(|e| e.to_string())?;
        let dialect = self.dialect();
        for text in &p.moves {
            let m = notation::parse(&mut game, text, dialect).map_err(|e| e.to_string())?;
            game.play(m);
        }
        Ok(game)
    }

    /// The answer to `go` after a refused position: an `info string` and the dialect's "no
    /// move" (UCI's null move `0000`, which a GUI reads as no move rather than as a move of
    /// another game; USI has only `resign` for it; UCCI has `nobestmove`).
    fn no_position_reply(&mut self) {
        self.say("info string go: no position (the last position command was refused)");
        match self.dialect() {
            Dialect::Usi => self.say("bestmove resign"),
            Dialect::Ucci => self.say("nobestmove"),
            _ => self.say("bestmove 0000"),
        }
    }

    fn go(&mut self, go: &Go) {
        self.halt();
        if self.refused {
            return self.no_position_reply();
        }
        let mut limits = Limits {
            multipv: self.uci.multipv.max(1),
            depth: go.depth.map(|d| d as u32),
            nodes: go.nodes,
            movetime: go.movetime,
            infinite: go.infinite,
            ponder: go.ponder,
            ..Limits::default()
        };
        let zero = Duration::ZERO;
        let mut clock = Clock {
            time: go.time.map(|t| t.unwrap_or(zero)),
            inc: go.inc.map(|t| t.unwrap_or(zero)),
            movestogo: go.movestogo.map(|n| n as u32).filter(|&n| n > 0),
        };
        // UCCI: the side to move's clock and the opponent's.
        let us = self.game.position().side_to_move().index();
        let them = 1 - us;
        clock.time[us] = go.own_time.unwrap_or(clock.time[us]);
        clock.inc[us] = go.own_inc.unwrap_or(clock.inc[us]);
        clock.time[them] = go.opp_time.unwrap_or(clock.time[them]);
        clock.inc[them] = go.opp_inc.unwrap_or(clock.inc[them]);
        let timed = go.timed();
        let byoyomi = go.byoyomi.unwrap_or(zero);
        let dialect = self.dialect();
        for t in &go.searchmoves {
            if let Ok(m) = notation::parse(&mut self.game, t, dialect) {
                limits.searchmoves.push(m);
            }
        }
        if timed {
            // Byoyomi: this move may use the main time plus the whole period, and every
            // later move gets the period again, like an increment.
            for side in 0..2 {
                clock.time[side] += byoyomi;
                clock.inc[side] += byoyomi;
            }
            limits.clock = Some(clock);
        }
        self.task = Task::UciGo;
        self.searcher
            .start(&self.game, limits, self.events_tx.clone());
    }

    pub(super) fn uci_event(&mut self, ev: SearchEvent) {
        let dialect = self.dialect();
        match ev {
            SearchEvent::Info(i) => {
                let score = match i.score {
                    Score::Cp(c) => format!("cp {c}"),
                    Score::Mate(m) => format!("mate {m}"),
                };
                let pv = self.pv_text(&i.pv, dialect);
                self.say(&format!(
                    "info depth {} seldepth {} multipv {} score {score} nodes {} nps {} hashfull {} time {} pv {pv}",
                    i.depth, i.seldepth, i.multipv, i.nodes, i.nps, i.hashfull, i.time.as_millis()
                ));
            }
            SearchEvent::Message(m) => self.say(&format!("info string {m}")),
            SearchEvent::BestMove { best, ponder } => {
                self.task = Task::Idle;
                let pos = self.game.position();
                let Some(best) = best else {
                    return match dialect {
                        Dialect::Usi => self.say("bestmove resign"),
                        Dialect::Ucci => self.say("nobestmove"),
                        _ => self.say("bestmove (none)"),
                    };
                };
                let text = notation::write(pos, &best, dialect);
                let reply = ponder.and_then(|p| self.reply_text(&best, &p, dialect));
                match reply {
                    Some(r) => self.say(&format!("bestmove {text} ponder {r}")),
                    None => self.say(&format!("bestmove {text}")),
                }
            }
        }
    }

    /// A principal variation in protocol text (each move written in its own position).
    pub(super) fn pv_text(&mut self, pv: &[crate::board::moves::Move], dialect: Dialect) -> String {
        let mut words = Vec::new();
        let mut played = 0;
        for m in pv {
            let legal = self.game.legal_moves();
            if !legal.contains(m) {
                break;
            }
            words.push(notation::write(self.game.position(), m, dialect));
            self.game.play(*m);
            played += 1;
        }
        for _ in 0..played {
            self.game.undo();
        }
        words.join(" ")
    }

    fn reply_text(
        &mut self,
        best: &crate::board::moves::Move,
        reply: &crate::board::moves::Move,
        dialect: Dialect,
    ) -> Option<String> {
        let text = self.pv_text(&[*best, *reply], dialect);
        text.split_once(' ').map(|(_, r)| r.to_string())
    }
}
