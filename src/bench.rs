//! `locust bench` (a fixed search workload over many variants, printing the node count that
//! commits quote) and `locust search` (watch the engine think without a GUI).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use variants::Variant;

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

fn find<'a>(all: &'a [Variant], name: &str) -> Option<&'a Variant> {
    all.iter()
        .find(|v| v.name == name || v.aliases.iter().any(|a| a == name))
}

/// Searches one position to completion and returns (nodes, best move text, last info line).
fn search_one(game: &Game, limits: Limits, print: bool) -> (u64, String) {
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    let (tx, rx) = crossbeam_channel::unbounded();
    searcher.start(game, limits, tx);
    let mut nodes = 0;
    for ev in rx {
        match ev {
            SearchEvent::Info(i) => {
                nodes = i.nodes;
                if print {
                    let pv: Vec<String> = i.pv.iter().map(|m| game.move_text(m)).collect();
                    let score = match i.score {
                        Score::Cp(c) => format!("cp {c}"),
                        Score::Mate(m) => format!("mate {m}"),
                    };
                    println!(
                        "depth {} seldepth {} score {score} nodes {} nps {} time {} pv {}",
                        i.depth,
                        i.seldepth,
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
                let text = best.map_or("(none)".to_string(), |m| game.move_text(&m));
                return (nodes, text);
            }
        }
    }
    (nodes, "(none)".to_string())
}

/// `locust bench [depth]`.
pub fn run_bench(all: &[Variant], depth: Option<u32>) -> ExitCode {
    let depth = depth.unwrap_or(BENCH_DEPTH).max(1);
    let t = Instant::now();
    let mut total = 0;
    for (name, fen, less) in BENCH {
        let Some(v) = find(all, name) else {
            eprintln!("bench: variant {name} missing");
            return ExitCode::FAILURE;
        };
        let game = if fen.is_empty() {
            Game::new(v.clone())
        } else {
            Game::from_fen(v.clone(), fen)
        };
        let game = match game {
            Ok(g) => g,
            Err(e) => {
                eprintln!("bench: {name}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let limits = Limits {
            depth: Some(depth.saturating_sub(*less).max(1)),
            ..Limits::default()
        };
        let (nodes, best) = search_one(&game, limits, false);
        eprintln!("{name:<12} {nodes:>10} {best}");
        total += nodes;
    }
    let ms = t.elapsed().as_millis().max(1);
    println!("===========================");
    println!("Total time (ms) : {ms}");
    println!("Nodes searched  : {total}");
    println!("Nodes/second    : {}", total as u128 * 1000 / ms);
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
    let (_, best) = search_one(&game, limits, true);
    println!("bestmove {best}");
    ExitCode::SUCCESS
}
