//! The engine thread: owns the game and the searcher, takes protocol lines from the reader
//! thread and search events from the searcher over channels, and is the only writer of the
//! protocol's output. It never blocks on either side, so `isready` and `ping` are answered while
//! a search runs.

pub mod notation;
mod uci;
pub mod usi;
mod xboard;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crossbeam_channel::{select, Receiver, Sender};
use variants::Variant;

use crate::egt::service::{ServiceSettings, TableService};
use crate::game::Game;
use crate::search::{SearchEvent, SearchOptions, Searcher};
use protocol::Protocol;

/// Engine name and version as the protocols announce it.
pub const NAME: &str = concat!("Locust ", env!("CARGO_PKG_VERSION"));
/// Author line.
pub const AUTHOR: &str = "The Locust developers";
/// Largest `EGT Memory` option value, in MB.
const MAX_EGT_MEMORY_MB: usize = 65_536;

/// What the running search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// No search runs.
    Idle,
    /// UCI `go`: report `bestmove`.
    UciGo,
    /// XBoard: the engine's own move; play it.
    Think,
    /// XBoard: thinking on the opponent's time after the reply it expects; nothing to play
    /// unless that reply comes (then it becomes `Think`).
    Ponder,
    /// XBoard analysis: nothing to play.
    Analyze,
}

/// The engine's state between commands.
pub struct Engine<W: Write> {
    variants: Vec<Variant>,
    game: Game,
    searcher: Searcher,
    events_tx: Sender<SearchEvent>,
    events_rx: Receiver<SearchEvent>,
    out: W,
    protocol: Option<Protocol>,
    task: Task,
    uci: uci::UciState,
    xb: xboard::XbState,
    quit: bool,
    /// The last position command (`position`, `setboard`) was refused: the game kept is not
    /// the one the GUI means, so nothing is searched or played until a position is accepted.
    refused: bool,
    /// Output lines from background jobs (perft), written by this thread.
    aux_tx: Sender<String>,
    aux_rx: Receiver<String>,
    /// Cancels a running perft.
    perft_stop: Arc<AtomicBool>,
}

impl<W: Write> Engine<W> {
    /// An engine over these variants, writing to `out`; it starts in the first variant named
    /// `chess` (or the first one).
    pub fn new(variants: Vec<Variant>, out: W) -> Option<Engine<W>> {
        let start = variants
            .iter()
            .find(|v| v.name == "chess")
            .or(variants.first())?
            .clone();
        let game = Game::new(start).ok()?;
        let (events_tx, events_rx) = crossbeam_channel::unbounded();
        let (aux_tx, aux_rx) = crossbeam_channel::unbounded();
        Some(Engine {
            aux_tx,
            aux_rx,
            perft_stop: Arc::new(AtomicBool::new(false)),
            variants,
            game,
            searcher: Searcher::new(SearchOptions {
                tables: Some(TableService::start(ServiceSettings::default())),
                ..SearchOptions::default()
            }),
            events_tx,
            events_rx,
            out,
            protocol: None,
            task: Task::Idle,
            uci: uci::UciState::default(),
            xb: xboard::XbState::default(),
            quit: false,
            refused: false,
        })
    }

    /// Runs until `quit` or the end of input.
    pub fn run(&mut self, lines: Receiver<String>) {
        self.say(&format!("{NAME} by {AUTHOR}"));
        let events = self.events_rx.clone();
        let aux = self.aux_rx.clone();
        while !self.quit {
            select! {
                recv(aux) -> text => {
                    if let Ok(text) = text {
                        self.say(&text);
                    }
                }
                recv(lines) -> line => match line {
                    Ok(line) => self.line(&line),
                    Err(_) => break,
                },
                recv(events) -> ev => {
                    if let Ok(ev) = ev {
                        self.event(ev);
                    }
                }
            }
        }
        self.perft_stop.store(true, Ordering::Relaxed);
        self.searcher.stop();
        self.searcher.wait();
    }

    /// Counts perft below every root move on a background thread (a deep perft must not stop
    /// the engine from answering); any later command but `ping`/`isready` cancels it.
    fn start_perft(&mut self, depth: u32, dialect: notation::Dialect) {
        self.perft_stop.store(true, Ordering::Relaxed);
        let stop = Arc::new(AtomicBool::new(false));
        self.perft_stop = stop.clone();
        let root = self.game.position().clone();
        let tx = self.aux_tx.clone();
        std::thread::spawn(move || {
            let t = std::time::Instant::now();
            let mut pos = root.clone();
            let rows = crate::perft::divide_until(&mut pos, depth.clamp(1, 64), &stop);
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let mut total = 0;
            for (m, n) in &rows {
                total += n;
                let _ = tx.send(format!("{}: {n}", notation::write(&root, m, dialect)));
            }
            let _ = tx.send(format!("Nodes searched: {total}"));
            let _ = tx.send(format!("# perft time {} ms", t.elapsed().as_millis()));
        });
    }

    /// Writes one line of output.
    fn say(&mut self, text: &str) {
        let _ = writeln!(self.out, "{text}");
        let _ = self.out.flush();
    }

    fn line(&mut self, line: &str) {
        let line = line.trim();
        if line.is_empty() {
            return;
        }
        if self.protocol.is_none() {
            self.protocol = protocol::detect(line);
        }
        if !matches!(line.split_whitespace().next(), Some("ping" | "isready")) {
            self.perft_stop.store(true, Ordering::Relaxed);
        }
        match self.protocol {
            Some(Protocol::Xboard) => self.xboard(line),
            Some(_) => self.uci(line),
            None => match line.split_whitespace().next() {
                Some("quit") => self.quit = true,
                _ => self.say(&format!("Error (unknown command): {line}")),
            },
        }
    }

    fn event(&mut self, ev: SearchEvent) {
        match self.protocol {
            Some(Protocol::Xboard) => self.xboard_event(ev),
            _ => self.uci_event(ev),
        }
    }

    /// Stops a running search and waits for it, dropping its pending events.
    fn halt(&mut self) {
        self.searcher.stop();
        self.searcher.wait();
        while self.events_rx.try_recv().is_ok() {}
        self.task = Task::Idle;
    }

    /// The variant of this name (or alias), case-insensitively.
    fn find_variant(&self, name: &str) -> Option<Variant> {
        let name = name.to_ascii_lowercase();
        self.variants
            .iter()
            .find(|v| v.name == name || v.aliases.iter().any(|a| a.eq_ignore_ascii_case(&name)))
            .cloned()
    }

    /// Loads a user's variant file (the `VariantPath` option) section by section: each
    /// section that loads joins the known variants, replacing one of the same name; the
    /// errors of the others come back, for the protocol to report in its own form. Returns
    /// how many sections loaded.
    fn load_variant_file(&mut self, path: &str) -> (usize, Vec<variants::VariantError>) {
        let report = variants::load_file_report(path);
        let errors = report.errors();
        let loaded = report.variants();
        let count = loaded.len();
        for v in loaded {
            self.variants.retain(|b| b.name != v.name);
            self.variants.push(v);
        }
        (count, errors)
    }

    /// Sets one of the endgame-table options (`EGT`, `EGT Men`, `EGT Path`, `EGT Memory`,
    /// case-insensitive); the error says what was expected.
    fn set_table_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let Some(service) = self.searcher.options().tables.clone() else {
            return Err("endgame tables are not available".to_string());
        };
        let number = || {
            protocol::number::unsigned(value)
                .map(|n| usize::try_from(n).unwrap_or(usize::MAX))
                .map_err(|e| format!("{name}: {e}"))
        };
        match name.to_ascii_lowercase().as_str() {
            "egt" => {
                let on = matches!(value.trim(), "true" | "1" | "on");
                service.set(|s| s.enabled = on);
            }
            "egt men" => {
                let n = number()?.clamp(2, crate::egt::material::MAX_MEN);
                service.set(|s| s.max_men = n);
            }
            "egt memory" => {
                let mb = number()?.clamp(1, MAX_EGT_MEMORY_MB);
                service.set(|s| s.memory_mb = mb);
            }
            "egt path" => {
                let v = value.trim();
                let dir = (!v.is_empty() && v != "<empty>").then(|| std::path::PathBuf::from(v));
                // A folder the tables are written to and read from; a file or a device there
                // is refused now rather than failing at every table later.
                if let Some(d) = dir.as_ref().filter(|d| d.exists() && !d.is_dir()) {
                    return Err(format!("{name}: `{}` is not a directory", d.display()));
                }
                service.set(|s| s.cache = dir.or_else(crate::egt::cache::default_dir));
            }
            _ => return Err(format!("unknown option: {name}")),
        }
        Ok(())
    }

    fn set_options(&mut self, f: impl FnOnce(&mut SearchOptions)) {
        self.halt();
        let mut opts = self.searcher.options().clone();
        f(&mut opts);
        self.searcher.set_options(opts);
    }
}

/// The aliases a variant is also offered under in a protocol's variant list: those that are
/// Fairy-Stockfish built-in names (`normal`, `mini`), which FSF offers beside the main name.
/// Other aliases (`chushogi`) are accepted when a GUI sends them but not offered, so that a
/// GUI's menu does not show one game twice.
fn fsf_aliases(v: &Variant) -> impl Iterator<Item = &String> {
    (v.aliases.iter()).filter(|a| variants::load::builtin::FSF_BUILTIN_NAMES.contains(&a.as_str()))
}

/// Runs the engine on stdin/stdout.
pub fn run_stdio(variants: Vec<Variant>) -> std::process::ExitCode {
    let stdout = std::io::stdout();
    let Some(mut engine) = Engine::new(variants, stdout) else {
        eprintln!("no variant to start in");
        return std::process::ExitCode::FAILURE;
    };
    engine.run(protocol::spawn_reader());
    std::process::ExitCode::SUCCESS
}
