//! Shared helpers of the integration tests: variants by name, perft files, a small PRNG.

#![allow(dead_code, clippy::expect_used, clippy::unwrap_used)]

use locust::board::moves::{Move, MoveKind};
use locust::board::position::Position;
use locust::board::reference::{self, RefBoard};
use locust::board::stages::Stage;
use locust::board::types::Colour;

/// The built-in variants with perft data (all but chu and tenjiku, whose move generation is
/// checked in their own issue).
pub const PERFT_VARIANTS: &[&str] = &[
    "chess",
    "fischerandom",
    "crazyhouse",
    "atomic",
    "berolina",
    "knightmate",
    "spartan",
    "hekatomb",
    "battleotk",
    "shatranj",
    "makruk",
    "courier",
    "capablanca",
    "gothic",
    "embassy",
    "grand",
    "xiangqi",
    "janggi",
    "shogi",
    "minishogi",
];

/// `fen` in variant `v` (the test fails where the FEN does not read).
pub fn position_at(v: &variants::Variant, fen: &str) -> Position {
    Position::new_game(v.clone())
        .unwrap()
        .with_fen(fen)
        .unwrap_or_else(|e| panic!("{}: {e}: {fen}", v.name))
}

/// Perft of `fen` by the engine and by the reference generator, which must agree.
pub fn perft_both(v: &variants::Variant, fen: &str, depth: u32) -> u64 {
    let engine = locust::perft::perft(&mut position_at(v, fen), depth);
    let board = RefBoard::from_fen(v, fen).unwrap();
    assert_eq!(engine, reference::perft(&board, v, depth), "{fen}");
    engine
}

/// The start position of a built-in variant.
pub fn start(name: &str) -> Position {
    Position::new_game(variant(name)).unwrap_or_else(|e| panic!("{name}: bad start FEN: {e}"))
}

/// A built-in variant by name.
pub fn variant(name: &str) -> variants::Variant {
    let all = variants::builtins().expect("built-in variants load");
    variants::find(&all, name)
        .unwrap_or_else(|| panic!("no built-in variant {name}"))
        .clone()
}

/// A fixed-seed xorshift generator, so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    /// Next number.
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    /// Uniform below `n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// One position of a perft file.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub id: String,
    pub fen: String,
    pub counts: Vec<(u32, u64)>,
    pub deep: bool,
}

/// Reads `tests/data/perft/<variant>.perft`.
pub fn perft_cases(variant: &str) -> Vec<PerftCase> {
    let path = format!(
        "{}/tests/data/perft/{variant}.perft",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let mut out: Vec<PerftCase> = Vec::new();
    let mut deep = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with("# deep") {
            deep = true; // marks the next entry only
        }
        let (key, rest) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                out.push(PerftCase {
                    id: rest.into(),
                    fen: String::new(),
                    counts: vec![],
                    deep,
                });
                deep = false; // "# deep" marks the next entry only
            }
            "fen" => {
                if let Some(c) = out.last_mut() {
                    c.fen = rest.trim().into();
                }
            }
            "perft" => {
                let mut it = rest.split_whitespace();
                let d = it.next().and_then(|d| d.parse().ok());
                let n = it.next().and_then(|n| n.parse().ok());
                if let (Some(c), Some(d), Some(n)) = (out.last_mut(), d, n) {
                    c.counts.push((d, n));
                }
            }
            _ => {}
        }
    }
    out
}

/// Moves as sortable texts with their kind and extra squares, for comparing generators.
pub fn sorted(mut v: Vec<Move>) -> Vec<String> {
    let text = |m: &Move| {
        let base = m.text(|p| (b'A' + p) as char);
        format!(
            "{base} {:?}{:?}{}",
            m.kind,
            m.extra_indices(),
            if m.sets_ep { " ep" } else { "" }
        )
    };
    let mut s: Vec<String> = v.drain(..).map(|m| text(&m)).collect();
    s.sort();
    s
}

/// How many moves of each rule-exercising sort a walk made.
#[derive(Debug, Default, Clone, Copy)]
pub struct Made {
    pub castles: usize,
    pub en_passant: usize,
    pub promotions: usize,
    pub drops: usize,
    pub locust: usize,
    pub igui: usize,
    /// Moves of a burner that burned at least one man.
    pub burns: usize,
    /// Men burned in all.
    pub burned: usize,
    /// Moves of a range jumper that passed at least one man.
    pub range_jumps: usize,
}

impl Made {
    pub fn add(&mut self, o: &Made) {
        self.castles += o.castles;
        self.en_passant += o.en_passant;
        self.promotions += o.promotions;
        self.drops += o.drops;
        self.locust += o.locust;
        self.igui += o.igui;
        self.burns += o.burns;
        self.burned += o.burned;
        self.range_jumps += o.range_jumps;
    }

    fn count(&mut self, m: &Move) {
        match m.kind {
            MoveKind::Castle => self.castles += 1,
            MoveKind::EnPassant => self.en_passant += 1,
            MoveKind::Drop => self.drops += 1,
            MoveKind::Promotion => self.promotions += 1,
            _ => {}
        }
        let locust = matches!(m.kind, MoveKind::Normal | MoveKind::Promotion) && m.n_extras() > 0;
        if locust {
            self.locust += 1;
            if m.from == m.to {
                self.igui += 1;
            }
        }
    }
}

/// Castling, e.p. and the double steps that allow it, promotions, drops, locust captures,
/// burns and range jumps: the moves walks should not miss.
fn is_special(m: &Move, fx: Effects) -> bool {
    m.kind != MoveKind::Normal || m.n_extras() > 0 || m.sets_ep || fx.burned > 0 || fx.jumped
}

fn special_sort(m: &Move, fx: Effects) -> (MoveKind, bool, bool, bool, bool) {
    (
        m.kind,
        m.n_extras() > 0,
        m.sets_ep,
        fx.burned > 0,
        fx.jumped,
    )
}

/// Tenjiku effects of a move, read from the board before it by the rules alone.
#[derive(Debug, Default, Clone, Copy)]
pub struct Effects {
    /// Enemy men next to the end square of a burner (after promotion).
    pub burned: usize,
    /// A range jumper passed a man on its way.
    pub jumped: bool,
}

/// The [`Effects`] of `m` on `before`.
pub fn effects(before: &RefBoard, rules: &variants::Variant, m: &Move) -> Effects {
    let mut fx = Effects::default();
    if !matches!(m.kind, MoveKind::Normal | MoveKind::Promotion) {
        return fx;
    }
    let (from, to) = (m.from_coord(), m.to_coord());
    let Some(mover) = before.at(from) else {
        return fx;
    };
    let after = if m.kind == MoveKind::Promotion {
        m.piece
    } else {
        mover.piece
    };
    if rules.pieces[after as usize].burns {
        let (f, r) = (to.file as i32, to.rank as i32);
        for (df, dr) in [
            (-1, -1),
            (-1, 0),
            (-1, 1),
            (0, -1),
            (0, 1),
            (1, -1),
            (1, 0),
            (1, 1),
        ] {
            let enemy = before
                .square(f + df, r + dr)
                .and_then(|c| before.at(c))
                .is_some_and(|x| x.colour != mover.colour);
            fx.burned += usize::from(enemy);
        }
    }
    if rules.pieces[mover.piece as usize].range_jump {
        let (df, dr) = (
            to.file as i32 - from.file as i32,
            to.rank as i32 - from.rank as i32,
        );
        let n = df.abs().max(dr.abs());
        if n > 1 && (df == 0 || dr == 0 || df.abs() == dr.abs()) {
            fx.jumped = (1..n).any(|i| {
                let c = before.square(from.file as i32 + df / n * i, from.rank as i32 + dr / n * i);
                c.and_then(|c| before.at(c)).is_some()
            });
        }
    }
    fx
}

/// A random make/unmake walk of `plies` steps from `pos`: at every step the victim-staged
/// generator equals the man-by-man one, the stages are in order and together give the
/// pseudo-legal moves, the legal moves equal the reference generator's, every make gives the
/// position the reference's own `play` gives, unmake restores the FEN, and the incremental
/// state (map, key, royal list) equals a scratch build.
pub fn walk_checked(
    name: &str,
    mut pos: Position,
    rules: &variants::Variant,
    plies: usize,
    seed: u64,
) -> Made {
    let mut rng = Rng(seed);
    let mut ops = Vec::new();
    let mut stack = Vec::new();
    let mut made = Made::default();
    let mut done = 0;
    while done < plies {
        let mut staged = Vec::new();
        pos.pseudo_moves(&mut staged);
        let mut by_man = Vec::new();
        pos.pseudo_moves_by_man(&mut by_man);
        assert_eq!(
            sorted(staged.clone()),
            sorted(by_man),
            "{name}: staged != full at {}",
            pos.fen()
        );
        let legal = legal_as_reference(name, &mut pos, rules);
        check_stages(name, &mut pos, &staged, &legal);
        if rules.blast.is_none() {
            let stm = pos.side_to_move();
            let checked = !pos.checkers(stm).is_empty();
            assert_eq!(
                checked,
                pos.in_check(stm),
                "{name}: checkers vs in_check at {}",
                pos.fen()
            );
        }
        let before = RefBoard::from_position(&pos);
        if legal.is_empty() || stack.len() > 200 || (rng.below(8) == 0 && !stack.is_empty()) {
            let Some((saved, fen)) = stack.pop() else {
                break;
            };
            pos.unmake(saved, &mut ops);
            assert_eq!(pos.fen(), fen, "{name}: unmake did not restore the FEN");
        } else {
            // Rule-exercising moves are rare among legal ones: prefer them now and then.
            // A sort is chosen first, so that many drops do not crowd out one e.p. capture.
            let mut sorts: Vec<Vec<(Move, Effects)>> = Vec::new();
            for m in legal.iter().copied() {
                let fx = effects(&before, rules, &m);
                if !is_special(&m, fx) {
                    continue;
                }
                let key = special_sort(&m, fx);
                match sorts
                    .iter_mut()
                    .find(|s| special_sort(&s[0].0, s[0].1) == key)
                {
                    Some(s) => s.push((m, fx)),
                    None => sorts.push(vec![(m, fx)]),
                }
            }
            let m = if !sorts.is_empty() && rng.below(2) == 0 {
                let sort = &sorts[rng.below(sorts.len())];
                sort[rng.below(sort.len())].0
            } else {
                legal[rng.below(legal.len())]
            };
            let fx = effects(&before, rules, &m);
            made.burns += usize::from(fx.burned > 0);
            made.burned += fx.burned;
            made.range_jumps += usize::from(fx.jumped);
            let fen = pos.fen();
            let counters = (pos.halfmove_clock(), pos.fullmove_number());
            let saved = pos.make(&m, &mut ops);
            check_play(name, &before, counters, &pos, &m, rules);
            made.count(&m);
            stack.push((saved, fen));
        }
        if let Some(e) = pos.inconsistency() {
            panic!("{name}: after ply {done}: {e}\nFEN {}", pos.fen());
        }
        done += 1;
    }
    made
}

/// The stages: captures remove an enemy man, in non-increasing victim class and, within a
/// class, non-decreasing attacker value; promotions capture nothing; quiets neither capture
/// nor promote; together they are the pseudo-legal moves, and their legal ones the legal list.
pub fn check_stages(name: &str, pos: &mut Position, pseudo: &[Move], legal: &[Move]) {
    let mut all = Vec::new();
    let mut last: Option<(u8, i32)> = None;
    for stage in Stage::ALL {
        let mut moves = Vec::new();
        pos.gen_stage(stage, &mut moves);
        for m in &moves {
            let class = pos.victim_class(m);
            match stage {
                Stage::Captures => {
                    let c = class.unwrap_or_else(|| {
                        panic!("{name}: {m:?} in captures removes no foe at {}", pos.fen())
                    });
                    let a = pos.mover_value(m);
                    if let Some((lc, la)) = last {
                        assert!(
                            c < lc || c == lc && a >= la,
                            "{name}: capture order broken at {m:?} in {}",
                            pos.fen()
                        );
                    }
                    last = Some((c, a));
                }
                Stage::Promotions => assert!(
                    class.is_none() && m.kind == MoveKind::Promotion,
                    "{name}: {m:?} in promotions"
                ),
                Stage::Quiets => assert!(
                    class.is_none() && m.kind != MoveKind::Promotion,
                    "{name}: {m:?} in quiets"
                ),
            }
        }
        all.extend(moves);
    }
    assert_eq!(
        sorted(all.clone()),
        sorted(pseudo.to_vec()),
        "{name}: stages != pseudo-legal at {}",
        pos.fen()
    );
    let mut ops = Vec::new();
    let kept: Vec<Move> = all
        .into_iter()
        .filter(|m| pos.is_legal(m, &mut ops))
        .collect();
    assert_eq!(
        sorted(kept),
        sorted(legal.to_vec()),
        "{name}: legal stages != legal at {}",
        pos.fen()
    );
}

/// Make agrees with the reference's `play`: board, virgin rights, hands, side, e.p. and passes
/// as one board, and the counters by their rules (the half-move clock restarts on a capture,
/// a drop or a move of a promoting type; the move number grows after Black's move).
pub fn check_play(
    name: &str,
    before: &RefBoard,
    (clock, number): (u32, u32),
    after: &Position,
    m: &Move,
    rules: &variants::Variant,
) {
    let mut expected = reference::play(before, rules, m);
    let got = RefBoard::from_position(after);
    // The engine keeps an e.p. right only when some man could use it (as FEN writers do);
    // the reference always records it. Equal when no legal e.p. capture exists.
    if got.ep.is_none() && expected.ep.is_some() {
        let usable = reference::legal_moves(&expected, rules)
            .iter()
            .any(|r| r.kind == MoveKind::EnPassant);
        assert!(!usable, "{name}: make of {m:?} dropped a usable e.p. right");
        expected.ep = None;
    }
    assert_eq!(
        got, expected,
        "{name}: make of {m:?} differs from the reference's play"
    );
    let moved = !matches!(m.kind, MoveKind::Drop | MoveKind::Pass | MoveKind::Castle);
    let pawn = moved
        && before
            .at(m.from_coord())
            .is_some_and(|p| !rules.pieces[p.piece as usize].promotions.is_empty());
    let lands_on_man = m.to != m.from && before.at(m.to_coord()).is_some();
    let burned = effects(before, rules, m).burned > 0;
    let captured = moved && (lands_on_man || burned || m.extras().any(|c| before.at(c).is_some()));
    // A pass or a lion's step out and back is irreversible too (XBoard's null move), and
    // so is a drop (FSF's rule); a pass that places a wall (`wallOrMove`) counts on, as
    // Fairy-Stockfish counts it.
    let passes = (m.kind == MoveKind::Pass && m.wall_coord().is_none())
        || m.kind == MoveKind::Drop
        || m.kind == MoveKind::Normal && m.to == m.from && m.extras().next().is_none();
    let clock_now = if captured || pawn || passes {
        0
    } else {
        clock + 1
    };
    assert_eq!(
        after.halfmove_clock(),
        clock_now,
        "{name}: half-move clock after {m:?}"
    );
    let number_now = number + u32::from(before.stm == Colour::Black);
    assert_eq!(
        after.fullmove_number(),
        number_now,
        "{name}: move number after {m:?}"
    );
}

/// The engine's legal moves, after checking that they equal the reference generator's.
pub fn legal_as_reference(name: &str, pos: &mut Position, rules: &variants::Variant) -> Vec<Move> {
    let (mut legal, mut ops) = (Vec::new(), Vec::new());
    pos.legal_moves(&mut legal, &mut ops);
    let oracle = reference::legal_moves(&RefBoard::from_position(pos), rules);
    let (a, b) = (sorted(legal.clone()), sorted(oracle));
    if a != b {
        let only_a: Vec<_> = a.iter().filter(|m| !b.contains(m)).collect();
        let only_b: Vec<_> = b.iter().filter(|m| !a.contains(m)).collect();
        panic!(
            "{name}: legal != reference at {}\nengine only: {only_a:?}\nreference only: {only_b:?}",
            pos.fen()
        );
    }
    // In a fixed order: a walk's path must not change when the generator's order does.
    legal.sort_by_cached_key(|m| format!("{m:?}"));
    legal
}

/// The one variant an INI text defines.
pub fn ini_variant(text: &str) -> variants::Variant {
    let mut all = variants::load_str(text, "test.ini").unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(all.len(), 1, "one variant per test INI");
    all.remove(0)
}

/// `(variant, result, fen, moves)` of an `ending` row of the endings data files.
pub type EndingRow = (&'static str, &'static str, &'static str, Vec<&'static str>);

/// The `ending VARIANT RESULT FEN ; MOVES` rows of `data` (tools/fsf-endings-data.py and
/// tools/fsf-boardgame-endings.py write them).
pub fn ending_rows(data: &'static str) -> Vec<EndingRow> {
    data.lines()
        .filter_map(|l| l.strip_prefix("ending "))
        .map(|l| {
            let (head, moves) = l.split_once(" ; ").unwrap_or((l, ""));
            let mut f = head.splitn(3, ' ');
            let (v, r, fen) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
            (v, r, fen, moves.split_whitespace().collect())
        })
        .collect()
}

/// The game's state as pyffish's `game_result` words it, from the side to move: `on` while
/// the game goes on, else `win`, `loss` or `draw`.
pub fn result_for_mover(game: &mut locust::game::Game) -> &'static str {
    let us = game.position().side_to_move();
    match game.outcome() {
        None => "on",
        Some(o) if o.winner == Some(us) => "win",
        Some(o) if o.winner.is_some() => "loss",
        Some(_) => "draw",
    }
}

/// Searches `game` to `depth` with a 16 MB table: the best move and the last reported score.
pub fn search_to_depth(
    game: &locust::game::Game,
    depth: u32,
) -> (Option<Move>, Option<locust::search::Score>) {
    use locust::search::{Limits, SearchEvent, SearchOptions, Searcher};
    let mut searcher = Searcher::new(SearchOptions {
        hash_mb: 16,
        ..SearchOptions::default()
    });
    let (tx, rx) = crossbeam_channel::unbounded();
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    searcher.start(game, limits, tx);
    let mut score = None;
    for ev in rx.iter() {
        match ev {
            SearchEvent::Info(i) => score = Some(i.score),
            SearchEvent::BestMove { best, .. } => return (best, score),
            SearchEvent::Message(_) => {}
        }
    }
    (None, score)
}

/// The game after `moves`, written as FSF's UCI writes them (`a9a10+`, `P@e4`, `a1a1` for a
/// pass), are played from `fen`: read as the UCI adapter reads them.
pub fn played(v: &variants::Variant, fen: &str, moves: &[&str]) -> locust::game::Game {
    use locust::engine::notation::{self, Dialect};
    let mut game =
        locust::game::Game::from_fen(v.clone(), fen).unwrap_or_else(|e| panic!("{e}: {fen}"));
    for m in moves {
        let mv = notation::parse(&mut game, m, Dialect::Uci { chess960: false });
        game.play(mv.unwrap_or_else(|e| panic!("{}: {e}: {m}", v.name)));
    }
    game
}

/// Every name of `decided` has a decided ending row in `rows`, and each row's result, from
/// the side to move, is pyffish's `game_result`. `lookup` finds a row's variant (a built-in
/// or a section of FSF's variants.ini); rows it cannot find are the caller's to report.
pub fn check_endings(
    rows: Vec<EndingRow>,
    decided: &[&str],
    lookup: impl Fn(&str) -> Option<variants::Variant>,
) {
    for name in decided {
        assert!(rows.iter().any(|r| r.0 == *name && r.1 != "on"), "{name}");
    }
    for (name, want, fen, moves) in rows {
        let Some(v) = lookup(name) else {
            continue;
        };
        let mut game = played(&v, fen, &moves);
        let got = result_for_mover(&mut game);
        assert_eq!(got, want, "{name}: {fen} ; {}", moves.join(" "));
    }
}

/// Random walks checked against the reference generator (`walk_checked`): from the start of
/// each variant of `rows` that has a game going on, and from each such row's position.
/// `seeds` seed the start walks and the row walks, each offset by the row's index.
pub fn walk_ending_rows(
    rows: Vec<EndingRow>,
    lookup: impl Fn(&str) -> Option<variants::Variant>,
    plies: usize,
    seeds: (u64, u64),
) {
    let mut seen = Vec::new();
    for (i, (name, want, fen, moves)) in rows.into_iter().enumerate() {
        if want != "on" {
            continue;
        }
        let Some(rules) = lookup(name) else {
            continue;
        };
        if !seen.contains(&name) {
            seen.push(name);
            let start = Position::new_game(rules.clone()).unwrap();
            walk_checked(name, start, &rules, plies, seeds.0 + i as u64);
        }
        let pos = played(&rules, fen, &moves).position().clone();
        walk_checked(name, pos, &rules, plies, seeds.1 + i as u64);
    }
}
