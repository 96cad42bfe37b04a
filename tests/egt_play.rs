//! Endgame tables in play: the engine builds the tables it needs in the background, the
//! search probes them, and won endings are converted within the table's distance to mate
//! against a defender searching without tables, in five variants.

#![allow(clippy::unwrap_used)]

use std::sync::atomic::Ordering::Relaxed;
use std::sync::Arc;
use std::time::{Duration, Instant};

use locust::egt::material::{Material, MAX_MEN};
use locust::egt::rules::Rules;
use locust::egt::service::{ServiceSettings, TableService};
use locust::egt::value::{is_win, plies};
use locust::egt::{report, Builder, Settings};
use locust::game::Game;
use locust::search::{Limits, Score, SearchEvent, SearchOptions, Searcher};
use variants::Variant;

fn builtin(name: &str) -> Variant {
    let all = variants::builtins().unwrap();
    variants::find(&all, name).unwrap().clone()
}

fn service() -> Arc<TableService> {
    TableService::start(ServiceSettings {
        cache: None,
        ..ServiceSettings::default()
    })
}

/// Asks for the game's tables and waits until the position can be probed.
fn ready(service: &TableService, game: &Game) {
    service.prepare(game.position(), None, None);
    let start = Instant::now();
    while service.probe(game.position()).is_none() {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "tables never came"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Plays one move with `searcher` in `ms` milliseconds; returns the last score reported.
fn play(searcher: &mut Searcher, game: &mut Game, ms: u64) -> Option<Score> {
    let limits = Limits {
        movetime: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    play_under(searcher, game, limits)
}

/// Plays one move with `searcher` under `limits`; returns the last score reported.
fn play_under(searcher: &mut Searcher, game: &mut Game, limits: Limits) -> Option<Score> {
    let (tx, rx) = crossbeam_channel::unbounded();
    searcher.start(game, limits, tx);
    let mut score = None;
    for ev in rx {
        match ev {
            SearchEvent::Info(i) => score = Some(i.score),
            SearchEvent::BestMove { best, .. } => {
                game.play(best.unwrap());
                return score;
            }
            SearchEvent::Message(_) => {}
        }
    }
    panic!("no best move");
}

#[test]
fn the_root_plays_the_table_move_with_its_mate_score() {
    let v = builtin("chess");
    let tables = service();
    let mut game = Game::from_fen(v, "8/8/8/8/8/2k5/1R6/K7 w - - 0 1").unwrap();
    ready(&tables, &game);
    let dtm = plies(tables.probe(game.position()).unwrap()) as i32;
    let mut s = Searcher::new(SearchOptions {
        tables: Some(tables.clone()),
        ..SearchOptions::default()
    });
    let score = play(&mut s, &mut game, 200);
    assert_eq!(score, Some(Score::Mate(dtm.div_euclid(2) + 1)));
    // The move keeps the distance: the opponent is now lost one ply sooner.
    let after = tables.probe(game.position()).unwrap();
    assert_eq!(plies(after) as i32, dtm - 1);
}

/// The first move of a won ending under a game clock, the service holding no table yet: the
/// search waits for the root's table (built in the background) and plays its move with the
/// table's mate score, instead of a searched move that may lengthen the win.
#[test]
fn the_first_move_under_a_clock_waits_for_the_table() {
    let v = builtin("chess");
    let fen = won_positions(&v, "KBNvK", 25, 1).remove(0);
    let tables = service();
    let mut game = Game::from_fen(v.clone(), &fen).unwrap();
    let mut s = Searcher::new(SearchOptions {
        tables: Some(tables.clone()),
        ..SearchOptions::default()
    });
    // A long clock: the build must fit in its share even on a busy machine.
    let clock = locust::search::Clock {
        time: [Duration::from_secs(120); 2],
        inc: [Duration::from_millis(100); 2],
        movestogo: None,
    };
    let limits = Limits {
        clock: Some(clock),
        ..Limits::default()
    };
    assert!(tables.probe(game.position()).is_none(), "no table yet");
    let score = play_under(&mut s, &mut game, limits);
    let start = Game::from_fen(v, &fen).unwrap();
    ready(&tables, &start);
    let dtm = plies(tables.probe(start.position()).unwrap()) as i32;
    assert_eq!(score, Some(Score::Mate(dtm.div_euclid(2) + 1)), "{fen}");
    let after = tables.probe(game.position()).unwrap();
    assert_eq!(plies(after) as i32, dtm - 1, "{fen}");
}

/// Won positions of a material: white to move, distance to mate at least `min_moves`,
/// `count` of them spread evenly over the table (deterministic).
fn won_positions(v: &Variant, material: &str, min_moves: usize, count: usize) -> Vec<String> {
    let mut b = Builder::new(Rules::new(v, None, false).unwrap(), Settings::default());
    let t = b.table(&Material::parse(v, material).unwrap()).unwrap();
    let deep: Vec<usize> = (0..t.index.size)
        .filter(|&idx| {
            let code = t.values[0][idx].load(Relaxed);
            is_win(code) && (plies(code) as usize).div_ceil(2) >= min_moves
        })
        .collect();
    let mut sq = [0u8; MAX_MEN];
    let out: Vec<String> = (0..count.min(deep.len()))
        .map(|k| {
            t.index
                .decode(deep[k * deep.len() / count], &mut sq[..t.men()]);
            report::fen(&t, &sq[..t.men()], 0)
        })
        .collect();
    assert_eq!(out.len(), count, "{material}: not enough deep wins");
    out
}

#[test]
fn won_endings_are_mated_within_the_table_distance() {
    let cases = [
        ("chess", "KBNvK", 20, 3),
        ("chess", "KQvKR", 15, 3),
        ("chess", "KRvKB", 12, 3),
        ("chess", "KRvK", 10, 2),
        ("capablanca", "KAvK", 8, 3),
        ("capablanca", "KCvK", 8, 2),
        ("xiangqi", "KRvKA", 2, 2),
        ("xiangqi", "KNvKA", 8, 2),
        ("shatranj", "KRvKQ", 10, 2),
    ];
    let mut played = 0;
    for (variant, material, min_moves, count) in cases {
        let v = builtin(variant);
        let tables = service();
        for fen in won_positions(&v, material, min_moves, count) {
            let mut game = Game::from_fen(v.clone(), &fen).unwrap();
            ready(&tables, &game);
            let dtm = (plies(tables.probe(game.position()).unwrap()) as usize).div_ceil(2);
            let mut attacker = Searcher::new(SearchOptions {
                tables: Some(tables.clone()),
                ..SearchOptions::default()
            });
            let mut defender = Searcher::new(SearchOptions::default());
            let mut moves = 0;
            while game.outcome().is_none() {
                if moves > dtm + 1 {
                    panic!(
                        "{variant} {fen}: not mated within {dtm} moves: {}",
                        game.position().fen()
                    );
                }
                play(&mut attacker, &mut game, 20);
                moves += 1;
                if game.outcome().is_none() {
                    play(&mut defender, &mut game, 20);
                }
            }
            let outcome = game.outcome().unwrap();
            assert_eq!(
                outcome.winner,
                Some(locust::board::types::Colour::White),
                "{variant} {fen}: {outcome:?}"
            );
            assert!(
                moves <= dtm,
                "{variant} {fen}: {moves} moves, table said {dtm}"
            );
            played += 1;
        }
    }
    assert!(played >= 20);
}

#[test]
fn tables_build_in_the_background_under_a_game_clock() {
    let v = builtin("chess");
    let tables = service();
    // Five men: every capture leads to a four-man ending the service should build.
    let game = Game::from_fen(v, "8/8/3k4/8/2r5/8/1Q6/K3N3 w - - 0 1").unwrap();
    let mut s = Searcher::new(SearchOptions {
        tables: Some(tables.clone()),
        ..SearchOptions::default()
    });
    let (tx, rx) = crossbeam_channel::unbounded();
    let clock = locust::search::Clock {
        time: [Duration::from_secs(10); 2],
        inc: [Duration::from_millis(100); 2],
        movestogo: None,
    };
    let limits = Limits {
        clock: Some(clock),
        ..Limits::default()
    };
    let start = Instant::now();
    s.start(&game, limits, tx);
    let mut messages = Vec::new();
    for ev in rx.iter() {
        match ev {
            SearchEvent::BestMove { best, .. } => {
                assert!(best.is_some());
                break;
            }
            SearchEvent::Message(m) => messages.push(m),
            SearchEvent::Info(_) => {}
        }
    }
    // A tenth of the clock is far more than the search may take for one move.
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
    let v = builtin("chess");
    let wanted: Vec<String> = ["KNvKR", "KQvKR", "KQNvK"]
        .iter()
        .map(|m| Material::parse(&v, m).unwrap().name(&v))
        .collect();
    let wait = Instant::now();
    while !wanted.iter().all(|m| {
        messages
            .iter()
            .any(|x| x.contains(&format!("table {m}: ready")))
    }) {
        for ev in rx.try_iter() {
            if let SearchEvent::Message(m) = ev {
                messages.push(m);
            }
        }
        assert!(wait.elapsed() < Duration::from_secs(120), "{messages:?}");
        std::thread::sleep(Duration::from_millis(50));
    }
}
