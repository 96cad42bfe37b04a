//! Material counting (Fairy-Stockfish's `materialCounting`): who wins a game that would end
//! drawn, by the men on the board (janggi's points, a plain count) or by draw odds.

use variants::rules::MaterialCounting;

use crate::board::position::Position;
use crate::board::types::Colour;

/// Janggi: White must lead by more than this many points to win a counted game.
const JANGGI_BLACK_BONUS: i32 = 1;

/// The winner of a game that ends drawn here by the rules (`None`: it stays a draw).
pub fn draw_winner(pos: &Position) -> Option<Colour> {
    let rule = pos.variant().end.material_counting.as_ref()?;
    // White's lead: points (janggi) or men (unweighted).
    let lead = |points: &dyn Fn(u8) -> i32| -> i32 {
        pos.live()
            .map(|(_, m)| {
                let p = points(pos.piece_of(m));
                if m.colour == Colour::White {
                    p
                } else {
                    -p
                }
            })
            .sum()
    };
    match rule {
        MaterialCounting::Janggi(weights) => {
            let points = |p: u8| weights.iter().find(|w| w.0 == p).map_or(0, |w| w.1);
            Some(if lead(&points) > JANGGI_BLACK_BONUS {
                Colour::White
            } else {
                Colour::Black
            })
        }
        MaterialCounting::Unweighted => match lead(&|_| 1) {
            0 => None,
            n if n > 0 => Some(Colour::White),
            _ => Some(Colour::Black),
        },
        MaterialCounting::WhiteDrawOdds => Some(Colour::White),
        MaterialCounting::BlackDrawOdds => Some(Colour::Black),
    }
}
