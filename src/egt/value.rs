//! One byte per position: unknown or drawn, illegal, or a win or loss with its distance in
//! plies (to mate under DTM, to mate or conversion under DTC), seen from the side to move.

/// Unknown while building; a draw once the table is complete.
pub const DRAW: u8 = 0;
/// Not a position: two men on one square, or the side to move can capture a royal.
pub const ILLEGAL: u8 = 255;
/// The deepest distance a byte holds, in plies.
pub const MAX_PLIES: u8 = 126;

/// The side to move loses in `plies` plies (0: it is mated now).
#[inline]
pub const fn loss(plies: u8) -> u8 {
    1 + plies
}

/// The side to move wins in `plies` plies.
#[inline]
pub const fn win(plies: u8) -> u8 {
    128 + plies
}

/// True for a win of the side to move.
#[inline]
pub const fn is_win(code: u8) -> bool {
    code >= 128 && code != ILLEGAL
}

/// True for a loss of the side to move.
#[inline]
pub const fn is_loss(code: u8) -> bool {
    code >= 1 && code < 128
}

/// The distance in plies of a win or loss.
#[inline]
pub const fn plies(code: u8) -> u8 {
    if code >= 128 {
        code - 128
    } else {
        code - 1
    }
}

/// A position's value in words, from the side to move (`win in 10`, `loss in 9`, `draw`,
/// `mated`); distances in moves.
pub fn describe(code: u8) -> String {
    match code {
        ILLEGAL => "illegal".to_string(),
        DRAW => "draw".to_string(),
        c if is_loss(c) && plies(c) == 0 => "lost (game over)".to_string(),
        c if is_win(c) && plies(c) == 0 => "won (game over)".to_string(),
        c if is_win(c) => format!("win in {}", (plies(c) as u32).div_ceil(2)),
        c => format!("loss in {}", (plies(c) as u32).div_ceil(2)),
    }
}

/// Orders codes by how good they are for the side to move: higher is better.
pub fn goodness(code: u8) -> i32 {
    match code {
        ILLEGAL => i32::MIN,
        DRAW => 0,
        c if is_win(c) => 1000 - plies(c) as i32,
        c => -1000 + plies(c) as i32,
    }
}
