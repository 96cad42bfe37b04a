//! The UCI adapter: options, `position` with fairy FENs and moves, `go` with every limit,
//! `info` lines and `bestmove`; USI (shogi GUIs, `usi.rs`) and UCCI (xiangqi GUIs) as
//! dialects of it.

use std::io::Write;
use std::time::Duration;

use super::notation::{self, Dialect};
use super::{Engine, Task, AUTHOR, NAME};
use crate::game::Game;
use crate::search::{Clock, Limits, Score, SearchEvent};

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
const MAX_HASH_MB: usize = 65_536;
/// Most threads offered.
const MAX_THREADS: usize = 256;

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

    pub(super) fn uci(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        let cmd = words.next().unwrap_or("");
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => self.uci_hello("uciok"),
            "ucci" => {
                // Xiangqi GUIs expect xiangqi; another variant stays selectable by option.
                if self.game.position().variant().name == "chess" {
                    self.uci_variant("xiangqi");
                }
                self.uci_hello("ucciok");
            }
            "usi" => {
                // Shogi GUIs expect shogi; another variant stays selectable by option.
                if self.game.position().variant().name == "chess" {
                    self.uci_variant("shogi");
                }
                self.uci_hello("usiok");
            }
            "gameover" => self.halt(),
            // `debug on|off`: UCI's switch for extra `info string` output; we have none extra.
            "debug" => {}
            "banmoves" => self.say("info string banmoves is not supported; ignored"),
            "isready" | "readyok" => self.say("readyok"),
            "setoption" => self.setoption(&rest),
            "ucinewgame" | "usinewgame" => {
                self.halt();
                self.searcher.clear();
            }
            "position" => self.position(&rest),
            "go" => self.go(&rest),
            "stop" => self.searcher.stop(),
            "ponderhit" => self.searcher.ponderhit(),
            "quit" => self.quit = true,
            "d" => {
                let fen = self.game.position().fen();
                self.say(&format!("info string fen {fen}"));
            }
            _ => self.say(&format!("info string unknown command: {line}")),
        }
    }

    fn uci_hello(&mut self, ok: &str) {
        let names: Vec<String> = self
            .variants
            .iter()
            .map(|v| format!("var {}", v.name))
            .collect();
        let current = self.game.position().variant().name.clone();
        let lines = [
            format!("id name {NAME}"),
            format!("id author {AUTHOR}"),
            format!("option name Hash type spin default 64 min 1 max {MAX_HASH_MB}"),
            format!("option name Threads type spin default 1 min 1 max {MAX_THREADS}"),
            "option name MultiPV type spin default 1 min 1 max 256".to_string(),
            "option name Ponder type check default false".to_string(),
            "option name Move Overhead type spin default 30 min 0 max 5000".to_string(),
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
            "option name EGT Memory type spin default 1024 min 1 max 65536".to_string(),
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

    fn setoption(&mut self, words: &[&str]) {
        let mut text = words.join(" ");
        if self.protocol == Some(protocol::Protocol::Ucci) && !text.starts_with("name ") {
            // UCCI writes `setoption <id> <value>`.
            text = match text.split_once(' ') {
                Some((id, v)) => format!("name {id} value {v}"),
                None => format!("name {text}"),
            };
        }
        let Some(rest) = text.strip_prefix("name ") else {
            return self.say("info string setoption: expected `name <id> [value <x>]`");
        };
        let (name, value) = match rest.split_once(" value ") {
            Some((n, v)) => (n.trim(), v.trim()),
            None => (rest.trim(), ""),
        };
        let number = value.parse::<usize>();
        match name.to_ascii_lowercase().as_str() {
            "hash" | "usi_hash" => match number {
                Ok(mb) => self.set_options(|o| o.hash_mb = mb.clamp(1, MAX_HASH_MB)),
                Err(_) => self.say(&format!("info string Hash: not a number: {value}")),
            },
            "threads" => match number {
                Ok(n) => self.set_options(|o| o.threads = n.clamp(1, MAX_THREADS)),
                Err(_) => self.say(&format!("info string Threads: not a number: {value}")),
            },
            "multipv" => self.uci.multipv = number.unwrap_or(1).clamp(1, 256),
            "move overhead" => match number {
                Ok(ms) => self
                    .set_options(|o| o.move_overhead = Duration::from_millis(ms.min(5000) as u64)),
                Err(_) => self.say(&format!("info string Move Overhead: not a number: {value}")),
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
        match variants::load_file(path) {
            Ok(list) => {
                for v in list {
                    self.variants.retain(|b| b.name != v.name);
                    self.variants.push(v);
                }
                self.uci.variant_path = path.to_string();
            }
            Err(errors) => {
                for e in errors {
                    self.say(&format!("info string {e}"));
                }
            }
        }
    }

    /// `position startpos|fen FEN [moves M...]`: a bad FEN or move is reported and leaves the
    /// position as it was before the command.
    fn position(&mut self, words: &[&str]) {
        self.halt();
        let split = words
            .iter()
            .position(|w| *w == "moves")
            .unwrap_or(words.len());
        let (setup, moves) = (&words[..split], words.get(split + 1..).unwrap_or(&[]));
        let variant = self.game.position().variant().clone();
        let game = match setup.first() {
            Some(&"startpos") => Game::new(variant),
            Some(&"fen") => Game::from_fen(variant, &red_is_white(&setup[1..]).join(" ")),
            Some(&"sfen") => match super::usi::sfen_to_fen(&setup[1..]) {
                Ok(fen) => Game::from_fen(variant, &fen),
                Err(e) => return self.say(&format!("info string position: {e}")),
            },
            _ => {
                return self
                    .say("info string position: expected `startpos`, `fen <FEN>` or `sfen <SFEN>`")
            }
        };
        let mut game = match game {
            Ok(g) => g,
            Err(e) => return self.say(&format!("info string position: {e}")),
        };
        let dialect = self.dialect();
        for text in moves {
            match notation::parse(&mut game, text, dialect) {
                Ok(m) => game.play(m),
                Err(e) => return self.say(&format!("info string position: {e}")),
            }
        }
        self.game = game;
    }

    fn go(&mut self, words: &[&str]) {
        self.halt();
        if words.first() == Some(&"perft") {
            let depth = words.get(1).and_then(|d| d.parse().ok()).unwrap_or(1);
            let dialect = self.dialect();
            return self.start_perft(depth, dialect);
        }
        let mut limits = Limits {
            multipv: self.uci.multipv.max(1),
            ..Limits::default()
        };
        let mut clock = Clock {
            time: [Duration::ZERO; 2],
            inc: [Duration::ZERO; 2],
            movestogo: None,
        };
        let mut timed = false;
        // In USI `b` (sente) is the side that moves first: the engine's White.
        let (w, b) = if self.is_usi() {
            (1 - super::usi::SENTE_INDEX, super::usi::SENTE_INDEX)
        } else {
            (0, 1)
        };
        let mut byoyomi = Duration::ZERO;
        let mut i = 0;
        while i < words.len() {
            let arg = words.get(i + 1).and_then(|w| w.parse::<u64>().ok());
            let ms = Duration::from_millis(arg.unwrap_or(0));
            match words[i] {
                "wtime" => (clock.time[w], timed) = (ms, true),
                "btime" => (clock.time[b], timed) = (ms, true),
                "winc" => clock.inc[w] = ms,
                "binc" => clock.inc[b] = ms,
                "byoyomi" => (byoyomi, timed) = (ms, true),
                // UCCI: the side to move's clock and the opponent's, seconds by default.
                "time" | "increment" | "opptime" | "oppincrement" => {
                    let t = self.ucci_duration(arg.unwrap_or(0));
                    let (us, them) = (self.game.position().side_to_move().index(), 1);
                    let them = them - us;
                    match words[i] {
                        "time" => (clock.time[us], timed) = (t, true),
                        "increment" => clock.inc[us] = t,
                        "opptime" => clock.time[them] = t,
                        _ => clock.inc[them] = t,
                    }
                }
                "movestogo" => clock.movestogo = arg.map(|n| n.min(1000) as u32).filter(|&n| n > 0),
                "depth" => limits.depth = arg.map(|d| d.min(1000) as u32),
                "nodes" => limits.nodes = arg,
                "movetime" => limits.movetime = Some(ms),
                "infinite" => limits.infinite = true,
                "ponder" => limits.ponder = true,
                "searchmoves" => {
                    let dialect = self.dialect();
                    for t in &words[i + 1..] {
                        if let Ok(m) = notation::parse(&mut self.game, t, dialect) {
                            limits.searchmoves.push(m);
                        }
                    }
                    break;
                }
                _ => {}
            }
            i += 1;
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

    fn ucci_duration(&self, n: u64) -> Duration {
        if self.uci.millisec {
            Duration::from_millis(n)
        } else {
            Duration::from_secs(n.min(u64::from(u32::MAX)))
        }
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

/// UCCI FENs may name the side to move `r` (red, who moves first): the engine's `w`.
fn red_is_white<'a>(words: &[&'a str]) -> Vec<&'a str> {
    words
        .iter()
        .enumerate()
        .map(|(i, w)| if i == 1 && *w == "r" { "w" } else { *w })
        .collect()
}
