//! Fuzzed moves: random and mutated 32-bit compact moves and move texts against random
//! positions of every built-in variant. Nothing panics, every accepted move is legal, and
//! every legal move survives the round trip through its compact code.

mod common;

use common::Rng;
use locust::board::compact::CompactMove;
use locust::board::moves::{Move, MoveKind};
use locust::engine::notation::{self, Dialect};
use locust::game::Game;

/// Random positions per variant, plies of random play before each, and tries per position.
const POSITIONS: usize = 12;
const MAX_PLIES: usize = 60;
const CODES: usize = 120;
const TEXTS: usize = 120;

fn random_game(v: &variants::Variant, rng: &mut Rng) -> Game {
    let mut game = Game::new(v.clone()).unwrap_or_else(|e| panic!("{}: {e}", v.name));
    for _ in 0..rng.below(MAX_PLIES) {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        game.play(legal[rng.below(legal.len())]);
    }
    game
}

fn mutated_code(legal: &[Move], rng: &mut Rng) -> u32 {
    let base = legal
        .get(rng.below(legal.len().max(1)))
        .and_then(CompactMove::encode)
        .map_or(0, |c| c.0);
    match rng.below(3) {
        0 => rng.next() as u32,
        1 => base ^ (1 << rng.below(32)),
        _ => base ^ (rng.next() as u32 & 0xFF00_FF00),
    }
}

const TEXT_CHARS: &[u8] = b"abcdefghijklmnop0123456789+=@-xO*#~qrbnkQRBNK,;: ";

fn mutated_text(game: &Game, legal: &[Move], rng: &mut Rng) -> String {
    let mut t: Vec<u8> = match legal.get(rng.below(legal.len().max(1))) {
        Some(m) if rng.below(4) != 0 => game.move_text(m).into_bytes(),
        _ => Vec::new(),
    };
    for _ in 0..=rng.below(3) {
        let c = TEXT_CHARS[rng.below(TEXT_CHARS.len())];
        match rng.below(3) {
            0 if !t.is_empty() => {
                let i = rng.below(t.len());
                t[i] = c;
            }
            1 if !t.is_empty() => {
                t.remove(rng.below(t.len()));
            }
            _ => t.insert(rng.below(t.len() + 1), c),
        }
    }
    String::from_utf8_lossy(&t).into_owned()
}

#[test]
fn compact_codes_round_trip_and_random_codes_are_refused_or_legal() {
    let all = variants::builtins().expect("built-ins load");
    let mut rng = Rng(0x5EED_C0DE);
    for v in &all {
        for _ in 0..POSITIONS {
            let mut game = random_game(v, &mut rng);
            let legal = game.legal_moves();
            let mut pos = game.position().clone();
            for m in &legal {
                let code = CompactMove::encode(m).expect("piece ids fit");
                assert_eq!(
                    pos.decode_move(code).as_ref(),
                    Ok(m),
                    "{}: {}",
                    v.name,
                    pos.fen()
                );
            }
            for _ in 0..CODES {
                let code = CompactMove(mutated_code(&legal, &mut rng));
                if let Ok(m) = pos.decode_move(code) {
                    assert!(legal.contains(&m), "{}: decoded {m:?} is not legal", v.name);
                }
            }
            assert_eq!(
                pos.inconsistency(),
                None,
                "decoding left the position as it was"
            );
        }
    }
}

#[test]
fn random_move_texts_are_refused_or_legal() {
    let all = variants::builtins().expect("built-ins load");
    let mut rng = Rng(0x7E47_F022);
    let dialects = [Dialect::Xboard, Dialect::Uci { chess960: false }];
    for v in &all {
        for _ in 0..POSITIONS {
            let mut game = random_game(v, &mut rng);
            let legal = game.legal_moves();
            for _ in 0..TEXTS {
                let text = mutated_text(&game, &legal, &mut rng);
                let dialect = dialects[rng.below(2)];
                if let Ok(m) = notation::parse(&mut game, &text, dialect) {
                    assert!(
                        legal.contains(&m),
                        "{}: {text:?} gave illegal {m:?}",
                        v.name
                    );
                }
            }
            // Every legal move's own text is accepted (the fuzz is not refusing everything).
            // XBoard's null move names a pass, whichever man steps out and back for it (the
            // board is the same after each).
            for m in &legal {
                let text = notation::write(game.position(), m, Dialect::Xboard);
                let back = notation::parse(&mut game, &text, Dialect::Xboard);
                if text == "@@@@" && m.kind == MoveKind::Normal {
                    let pass = |b: &Move| b.from == b.to && b.n_extra == 0 && legal.contains(b);
                    assert!(back.as_ref().is_ok_and(pass), "{}: {back:?}", v.name);
                    continue;
                }
                assert_eq!(back.as_ref(), Ok(m), "{}: {text}", v.name);
            }
        }
    }
}
