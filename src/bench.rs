//! `locust bench` (a fixed search workload over many variants, printing the node count that
//! commits quote; with `--tables`, endgame positions searched with and without endgame
//! tables instead) and `locust search` (watch the engine think without a GUI).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use variants::Variant;

use crate::egt::service::{ServiceSettings, TableService};
use crate::game::Game;
use crate::search::{Limits, Score, SearchEvent, SearchOptions, Searcher};

/// The bench positions: (variant, FEN or "" for the start, depth below the bench depth).
pub const BENCH: &[(&str, &str, u32)] = &[
    ("chess", "", 0),
    (
        "chess",
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        0,
    ),
    ("chess", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 0),
    ("crazyhouse", "", 1),
    ("atomic", "", 0),
    ("shatranj", "", 0),
    ("makruk", "", 0),
    ("capablanca", "", 1),
    ("courier", "", 1),
    ("grand", "", 1),
    ("xiangqi", "", 0),
    ("janggi", "", 1),
    ("shogi", "", 1),
    ("minishogi", "", 0),
    ("chu", "", 2),
    ("tenjiku", "", 5),
];

/// Default bench depth.
pub const BENCH_DEPTH: u32 = 7;

/// The endgame positions of `locust bench --tables`: (variant, material, FEN). Four-man
/// roots are answered from their own table; five-man roots are searched, the tables scoring
/// the positions after a capture.
pub const TABLE_BENCH: &[(&str, &str, &str)] = &[
    ("chess", "KQvKR", "8/2k5/8/2r5/8/3Q4/1K6/8 w - - 0 1"),
    ("chess", "KRvKB", "5R2/8/2k5/8/8/2b5/8/2K5 w - - 0 1"),
    ("chess", "KBvKR", "8/8/4k3/8/4B3/4r3/8/2K5 w - - 0 1"),
    ("chess", "KQRvKR", "3r2k1/8/8/8/3R4/8/1Q6/6K1 b - - 0 1"),
    ("chess", "KRBvKR", "8/8/8/4k3/8/2r5/5B2/4K2R w - - 0 1"),
    ("chess", "KRvKBN", "8/8/2n5/3k4/5b2/8/8/R3K3 w - - 0 1"),
    ("chess", "KQvKRN", "8/8/3k4/3n4/8/8/1r6/2Q1K3 w - - 0 1"),
];

/// The men limit of `locust bench --tables`: its five- and six-man positions search with
/// four-man tables (five-man ones would take minutes to build).
pub const TABLE_BENCH_MEN: usize = 4;

/// Default search depth of `locust bench --tables`.
pub const TABLE_BENCH_DEPTH: u32 = 12;

fn find<'a>(all: &'a [Variant], name: &str) -> Option<&'a Variant> {
    all.iter()
        .find(|v| v.name == name || v.aliases.iter().any(|a| a == name))
}

/// What one bench search found.
struct Searched {
    nodes: u64,
    best: String,
    /// The last score reported ("cp 35", "mate 12"; "-" when none was).
    score: String,
}

/// A score as UCI prints it.
fn score_text(score: Score) -> String {
    match score {
        Score::Cp(c) => format!("cp {c}"),
        Score::Mate(m) => format!("mate {m}"),
    }
}

/// Searches one position to completion with `opts` (the hash size is the bench's own).
fn search_one(game: &Game, limits: Limits, opts: SearchOptions, print: bool) -> Searched {
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..opts
    });
    let (tx, rx) = crossbeam_channel::unbounded();
    searcher.start(game, limits, tx);
    let mut found = Searched {
        nodes: 0,
        best: "(none)".to_string(),
        score: "-".to_string(),
    };
    for ev in rx {
        match ev {
            SearchEvent::Info(i) => {
                found.nodes = i.nodes;
                found.score = score_text(i.score);
                if print {
                    let pv: Vec<String> = i.pv.iter().map(|m| game.move_text(m)).collect();
                    println!(
                        "depth {} seldepth {} score {} nodes {} nps {} time {} pv {}",
                        i.depth,
                        i.seldepth,
                        found.score,
                        i.nodes,
                        i.nps,
                        i.time.as_millis(),
                        pv.join(" ")
                    );
                }
            }
            SearchEvent::Message(m) if print => println!("{m}"),
            SearchEvent::Message(_) => {}
            SearchEvent::BestMove { best, .. } => {
                if let Some(m) = best {
                    found.best = game.move_text(&m);
                }
                return found;
            }
        }
    }
    found
}

/// The game at a bench position ("" for the variant's start).
fn bench_game(all: &[Variant], name: &str, fen: &str) -> Result<Game, String> {
    let v = find(all, name).ok_or_else(|| format!("variant {name} missing"))?;
    let game = if fen.is_empty() {
        Game::new(v.clone())
    } else {
        Game::from_fen(v.clone(), fen)
    };
    game.map_err(|e| format!("{name}: {e}"))
}

/// `locust bench [depth]`.
pub fn run_bench(all: &[Variant], depth: Option<u32>) -> ExitCode {
    let depth = depth.unwrap_or(BENCH_DEPTH).max(1);
    let t = Instant::now();
    let mut total = 0;
    for (name, fen, less) in BENCH {
        let game = match bench_game(all, name, fen) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("bench: {e}");
                return ExitCode::FAILURE;
            }
        };
        let limits = Limits {
            depth: Some(depth.saturating_sub(*less).max(1)),
            ..Limits::default()
        };
        let found = search_one(&game, limits, SearchOptions::default(), false);
        eprintln!("{name:<12} {:>10} {}", found.nodes, found.best);
        total += found.nodes;
    }
    let ms = t.elapsed().as_millis().max(1);
    println!("===========================");
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {total}");
    println!("Nodes/second    : {}", total as u128 * 1000 / ms);
    ExitCode::SUCCESS
}

/// Nodes and milliseconds of one side of the table bench.
#[derive(Default)]
struct Tally {
    nodes: u64,
    ms: u128,
}

impl Tally {
    /// Searches `game` with `opts`, counts it, and returns its line part.
    fn search(&mut self, game: &Game, depth: u32, opts: SearchOptions) -> String {
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let t = Instant::now();
        let found = search_one(game, limits, opts, false);
        let ms = t.elapsed().as_millis();
        self.nodes += found.nodes;
        self.ms += ms;
        format!(
            "{:>9} nodes {ms:>6} ms {:<9} {:<6}",
            found.nodes, found.score, found.best
        )
    }
}

/// `locust bench --tables [depth]`: every [`TABLE_BENCH`] position searched to the same
/// depth without tables and with them. The tables (up to [`TABLE_BENCH_MEN`] men, memory
/// only) are built first and their build time is printed apart from the searches'.
pub fn run_table_bench(all: &[Variant], depth: Option<u32>) -> ExitCode {
    let depth = depth.unwrap_or(TABLE_BENCH_DEPTH).max(1);
    let games: Result<Vec<Game>, String> = TABLE_BENCH
        .iter()
        .map(|(name, _, fen)| bench_game(all, name, fen))
        .collect();
    let games = match games {
        Ok(g) => g,
        Err(e) => {
            eprintln!("bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let service = TableService::start(ServiceSettings {
        cache: None,
        max_men: TABLE_BENCH_MEN,
        ..ServiceSettings::default()
    });
    let t = Instant::now();
    for game in &games {
        service.prepare(game.position(), None, None);
        while service.busy(game.position().variant()) {
            std::thread::sleep(Duration::from_millis(10));
        }
    }
    println!(
        "tables built in {} ms (not counted below)",
        t.elapsed().as_millis()
    );
    let with_tables = SearchOptions {
        tables: Some(service),
        ..SearchOptions::default()
    };
    let (mut off, mut on) = (Tally::default(), Tally::default());
    for ((_, material, _), game) in TABLE_BENCH.iter().zip(&games) {
        let a = off.search(game, depth, SearchOptions::default());
        let b = on.search(game, depth, with_tables.clone());
        println!("{material:<8} off {a} | on {b}");
    }
    println!("===========================");
    println!("Depth           : {depth}");
    println!("Tables off      : {} nodes {} ms", off.nodes, off.ms);
    println!("Tables on       : {} nodes {} ms", on.nodes, on.ms);
    ExitCode::SUCCESS
}

/// `locust search <variant> [--fen FEN] [--depth D | --movetime MS]`.
pub fn run_search(
    all: &[Variant],
    name: &str,
    fen: Option<&str>,
    depth: Option<u32>,
    movetime: Option<u64>,
) -> ExitCode {
    let Some(v) = find(all, name) else {
        eprintln!("unknown variant '{name}' (see `locust variants`)");
        return ExitCode::FAILURE;
    };
    let game = match fen {
        Some(f) => Game::from_fen(v.clone(), f),
        None => Game::new(v.clone()),
    };
    let game = match game {
        Ok(g) => g,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::FAILURE;
        }
    };
    let limits = Limits {
        depth: depth.or(if movetime.is_none() { Some(8) } else { None }),
        movetime: movetime.map(Duration::from_millis),
        ..Limits::default()
    };
    let found = search_one(&game, limits, SearchOptions::default(), true);
    println!("bestmove {}", found.best);
    ExitCode::SUCCESS
}
